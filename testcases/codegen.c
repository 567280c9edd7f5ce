/* codegen.c - the small program whose generated code the back-end checks
 * read (tests/e2e/instrument_gcc_code.sh: GCC assembly; llvm_pass.sh: LLVM
 * IR): a static function with a two-byte comparison, an exported loop
 * (also the deny-list's target by name) and a main that calls both. */
#include <stdio.h>
#include <string.h>
static int classify(const char *s)
{
    if (s[0] == 'F' && s[1] == 'Z')
        return 2;
    return strlen(s) > 3;
}
int skipped_helper(int x)
{
    int r = 0;
    for (int i = 0; i < x; i++)
        r += i & 1 ? i : -i;
    return r;
}
int main(int argc, char **argv)
{
    int k = argc > 1 ? classify(argv[1]) : -1;
    printf("%d %d\n", k, skipped_helper(argc));
    return 0;
}
