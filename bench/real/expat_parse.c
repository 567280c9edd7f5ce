/*
 * expat_parse.c - bench/coverage.sh's harness for Debian's expat: parse the
 * file named by argv[1] as XML in two chunks, with namespaces, a fixed hash
 * salt (so coverage does not vary between runs) and external entities
 * refused.
 */
#include <stdio.h>
#include <stdlib.h>

#include "expat.h"

static void XMLCALL start(void *ud, const XML_Char *name, const XML_Char **atts)
{
    (void)ud, (void)name, (void)atts;
}

static void XMLCALL end(void *ud, const XML_Char *name)
{
    (void)ud, (void)name;
}

int main(int argc, char **argv)
{
    static char in[1 << 20];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 1;
    size_t n = fread(in, 1, sizeof in, f);
    fclose(f);
    XML_Parser p = XML_ParserCreateNS(NULL, '|');
    if (!p)
        return 1;
    XML_SetHashSalt(p, 0x5eed);
    XML_SetElementHandler(p, start, end);
    size_t half = n / 2;
    if (XML_Parse(p, in, (int)half, 0) != XML_STATUS_ERROR)
        XML_Parse(p, in + half, (int)(n - half), 1);
    XML_ParserFree(p);
    return 0;
}
