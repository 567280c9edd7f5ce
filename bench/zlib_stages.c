/*
 * zlib_stages.c - bench/zlib-stages.sh's probe: bench/real/zlib_inflate.c,
 * the harness of bench/coverage.sh's zlib target, on a zlib built with
 * ZLIB_DEBUG and its trace turned on, so that each input says on stderr
 * how far into a dynamic Huffman block it got.
 */
extern int z_verbose; /* zutil.c, with ZLIB_DEBUG */

#define main zlib_inflate_main
#include "real/zlib_inflate.c"
#undef main

int main(int argc, char **argv)
{
    z_verbose = 2; /* Tracev: block types and the "code lengths ok" / "codes ok" steps */
    return zlib_inflate_main(argc, argv);
}
