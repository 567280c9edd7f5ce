/*
 * rt-san.h - crash sites from sanitizer reports (rt-san.c).
 */
#ifndef FZ_RT_SAN_H
#define FZ_RT_SAN_H

#include "runtime/rt-site.h"

/* Forkserver, before its first fork: hooks the sanitizers' reports (page:
 * the diagnostics page, NULL outside fz-fuzz) and their deaths. */
FZ_RT_HIDDEN void __fz_rt_san_install(fz_diag_t *page);

/* Non-zero, with the site in *s, when a sanitizer reported in this process
 * and its abort is the crash now being handled. */
FZ_RT_HIDDEN int __fz_rt_san_pending(fz_rt_site_t *s);

/* A persistent pass begins: forget a sanitizer report of the last one
 * that did not end the process. */
FZ_RT_HIDDEN void __fz_rt_san_new_run(void);

#endif
