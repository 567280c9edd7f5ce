/*
 * expat_fuzzer.c - bench/coverage.sh's libFuzzer-style harness for Debian's
 * expat (target expat-lf): the work of expat_parse.c, in process, on each
 * input: parse it as XML in two chunks, with namespaces, a fixed hash salt
 * (so coverage does not vary between runs) and external entities refused.
 */
#include <stddef.h>
#include <stdint.h>

#include "expat.h"

static void XMLCALL start(void *ud, const XML_Char *name, const XML_Char **atts)
{
    (void)ud, (void)name, (void)atts;
}

static void XMLCALL end(void *ud, const XML_Char *name)
{
    (void)ud, (void)name;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    XML_Parser p = XML_ParserCreateNS(NULL, '|');
    if (!p)
        return 0;
    XML_SetHashSalt(p, 0x5eed);
    XML_SetElementHandler(p, start, end);
    size_t half = n / 2;
    if (XML_Parse(p, (const char *)data, (int)half, 0) != XML_STATUS_ERROR)
        XML_Parse(p, (const char *)data + half, (int)(n - half), 1);
    XML_ParserFree(p);
    return 0;
}
