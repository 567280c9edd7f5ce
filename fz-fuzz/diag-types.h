/*
 * diag-types.h - the record of what diag.c has warned about (diag.h),
 * apart from the functions that take the state, so state.h can hold it
 * without importing diag.
 */
#ifndef FZ_FUZZ_DIAG_TYPES_H
#define FZ_FUZZ_DIAG_TYPES_H

#include <stdint.h>

/* What has been reported so far. */
typedef struct fz_diag_seen {
    uint32_t flags;      /* FZ_DIAG_* bits already warned about */
    uint32_t sigs;       /* handler signals already warned about */
    char exec_name[16];  /* the exec'd program, sanitised */
    char summary[160];   /* short form for fuzzer_stats and the screen, "" if none */
    /* The module report of the first start (fz_diag_modules). */
    int mods_known;      /* the runtime filled it in (an fz-cc target) */
    uint32_t mods_instr; /* loaded objects with fz instrumentation */
    uint32_t mods_plain; /* the program's shared libraries without it */
    char *libs_warning;  /* the warning about them, NULL if none (malloc'ed) */
} fz_diag_seen_t;

#endif
