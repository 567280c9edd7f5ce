/*
 * cmp_strcmp.c - a line-based command language: the first word of the
 * input is looked up with strcmp; one keyword crashes.
 */
#include "cmp_common.h"

int main(int argc, char **argv)
{
    unsigned char buf[256];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf - 1);
    buf[n] = 0;
    char word[64];
    size_t k = 0;
    while (k < n && k < sizeof word - 1 && buf[k] != ' ' && buf[k] != '\n')
        k++;
    memcpy(word, buf, k);
    word[k] = 0;
    if (strcmp(word, "help") == 0)
        puts("commands: help, list, quit");
    else if (strcmp(word, "list") == 0)
        puts("nothing");
    else if (strcmp(word, "overflow") == 0)
        abort();
    return 0;
}
