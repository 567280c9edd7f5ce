/*
 * zlib_stages.c - bench/zlib-stages.sh's probe: bench/real/zlib_inflate.c,
 * the harness of bench/coverage.sh's zlib target, on a zlib built with
 * ZLIB_DEBUG and its trace turned on, so that each input says on stderr
 * how far into a dynamic Huffman block it got.
 *
 * It also stands between inflate.c and inflate_table (inftrees.c is built
 * with its function renamed to inflate_table_real) to say when a literal/
 * length code with codes longer than its 9-bit root table was built: the
 * codes whose decoding takes the second-level lookup (inffast.c's "2nd
 * level length code").
 */
#include "zutil.h"
#include "inftrees.h"

extern int z_verbose; /* zutil.c, with ZLIB_DEBUG */

#define main zlib_inflate_main
#include "real/zlib_inflate.c"
#undef main

/* Root bits of inflate.c's literal/length table. */
#define LENS_ROOT 9

int inflate_table_real(codetype type, unsigned short FAR *lens, unsigned codes,
                       code FAR *FAR *table, unsigned FAR *bits, unsigned short FAR *work);

int inflate_table(codetype type, unsigned short FAR *lens, unsigned codes, code FAR *FAR *table,
                  unsigned FAR *bits, unsigned short FAR *work)
{
    unsigned longer = 0;
    for (unsigned i = 0; type == LENS && i < codes; i++)
        longer += lens[i] > LENS_ROOT;
    int ret = inflate_table_real(type, lens, codes, table, bits, work);
    if (ret == 0 && longer)
        fprintf(stderr, "probe: long literal/length codes (%u)\n", longer);
    return ret;
}

int main(int argc, char **argv)
{
    z_verbose = 2; /* Tracev: block types and the "code lengths ok" / "codes ok" steps */
    return zlib_inflate_main(argc, argv);
}
