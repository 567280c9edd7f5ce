/*
 * fz-version.h - fz's version, and the one `--version` answer every fz
 * program gives ("PROG (fz) VERSION" on stdout, exit 0), header-only so
 * that fz-cc, fz-fuzz and the tools share it without a library.
 */
#ifndef FZ_VERSION_H
#define FZ_VERSION_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fz version (fuzzer_stats' afl_version shows it too). */
#define FZ_VERSION "0.1"

/* Exits after printing the version if "--version" is among the options,
 * i.e. before a "--" (what follows "--" is the target's command line). */
static inline void fz_version_check(int argc, char **argv, const char *prog)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--version") == 0) {
            printf("%s (fz) %s\n", prog, FZ_VERSION);
            exit(0);
        }
}

#endif
