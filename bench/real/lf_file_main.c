/*
 * lf_file_main.c - a plain main for a libFuzzer-style harness, so that
 * bench/coverage.sh's source-coverage build (gcc --coverage) can replay
 * one corpus file, named by argv[1], through LLVMFuzzerTestOneInput.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

int main(int argc, char **argv)
{
    static uint8_t in[1 << 20];
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 1;
    size_t n = fread(in, 1, sizeof in, f);
    fclose(f);
    LLVMFuzzerTestOneInput(in, n);
    return 0;
}
