/*
 * args.h - fz-cc's argument rewriting: the real compiler's argv in, the
 * instrumented argv out.  Pure apart from reading @file response files: no
 * environment, no exec, so every rule is unit-tested (tests/check_fzcc.c).
 *
 * What is added, and when, is documented in docs/fz-cc.md.
 */
#ifndef FZ_CC_ARGS_H
#define FZ_CC_ARGS_H

#include <stdbool.h>

/* Which compiler driver runs: decides the plugin flag. */
typedef enum {
    FZ_CC_KIND_GCC,   /* -fplugin=LIB/fz-gcc-plugin.so */
    FZ_CC_KIND_CLANG, /* -fpass-plugin=LIB/fz-llvm-pass.so */
} fz_cc_kind_t;

typedef struct {
    fz_cc_kind_t kind;
    const char *compiler; /* becomes argv[0] of the result */
    const char *lib_dir;  /* directory holding the plugins and runtime */
} fz_args_cfg_t;

/* Files of lib_dir the rewritten command line refers to; at most three. */
#define FZ_ARGS_MAX_NEEDS 3

typedef struct {
    char **argv; /* NULL-terminated; argv[0] is cfg->compiler */
    int argc;
    bool compiles;       /* plugin and harness macros were added */
    bool links;          /* the runtime was appended (an executable is linked) */
    bool probe;          /* a configure probe: run the compiler with FZ_QUIET=1 */
    bool plugin_at_link; /* GCC link step: the plugin was added for LTO code generation */
    bool lto;            /* -flto is in effect for a build step */
    int plugin_at;       /* index in argv of the plugin flag, 0 when none was added */
    const char *source;  /* the first source file compiled, or NULL (for messages) */
    int n_sources;       /* how many source files are compiled */
    bool out_stdout;     /* "-o -": the output goes to stdout */
    /* Paths (under lib_dir) the result needs, NULL-terminated. */
    const char *needs[FZ_ARGS_MAX_NEEDS + 1];
    /* Everything allocated for the result, freed by fz_args_free(). */
    char **owned;
    int n_owned;
} fz_args_t;

/* Rewrites argv[1..argc-1] (the user's arguments; argv[0] is ignored) for
 * cfg.  Never fails except on memory exhaustion (which dies). */
void fz_args_rewrite(const fz_args_cfg_t *cfg, int argc, char *const argv[], fz_args_t *out);

void fz_args_free(fz_args_t *a);

#endif
