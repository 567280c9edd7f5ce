/*
 * rt-site.h - a crash site being built (include/fz-protocol.h, "Crash
 * sites"), by the crash handler (rt-crash.c) or a sanitizer hook
 * (rt-san.c), and the instrumented modules a site's frames must lie in.
 */
#ifndef FZ_RT_SITE_H
#define FZ_RT_SITE_H

#include <stddef.h>
#include <stdint.h>

#include "fz-protocol.h"
#include "runtime/rt.h"

typedef struct {
    uint64_t hash;
    uint32_t from, n;
    uint64_t off[FZ_SITE_FRAMES];
    char module[FZ_SITE_FRAMES][24];
} fz_rt_site_t;

/* An empty site found by from (FZ_SITE_FROM_*). */
FZ_RT_HIDDEN void __fz_rt_site_start(fz_rt_site_t *s, uint32_t from);

/* Adds one frame (module name of modlen bytes, offset) to s. */
FZ_RT_HIDDEN void __fz_rt_site_add(fz_rt_site_t *s, const char *mod, size_t modlen, uint64_t off);

/* Writes s, ended by signal sig, to page for this process (site_pid last,
 * so a reader that sees the pid sees the rest). */
FZ_RT_HIDDEN void __fz_rt_site_publish(fz_diag_t *page, const fz_rt_site_t *s, int sig);

/* __fz_register: addr lies in an instrumented module (its map pointer). */
FZ_RT_HIDDEN void __fz_rt_site_note_module(const void *addr);

/* The loaded object holding pc: where it was mapped (start, which tells
 * objects apart), its load bias (pc - bias is the address addr2line
 * takes) and its file's base name ("exe" for the program).  -1 when glibc
 * cannot say (before 2.35).  Async-signal-safe. */
FZ_RT_HIDDEN int __fz_rt_site_object(const void *pc, uintptr_t *start, uintptr_t *bias,
                                     const char **name);

/* Non-zero when instrumented modules were noted and the object starting at
 * start is none of them: its frames are not the program's. */
FZ_RT_HIDDEN int __fz_rt_site_foreign(uintptr_t start);

/* The part of path after its last '/'. */
FZ_RT_HIDDEN const char *__fz_rt_base_name(const char *path);

#endif
