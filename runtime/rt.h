/*
 * rt.h - what every file of the runtime shares.  Each runtime file has its
 * own header (rt-map.h, rt-fsrv.h, ...) for what it offers the others;
 * nothing in them is for instrumented modules or harnesses: those use the
 * __fz_ / __afl_ names documented in docs/internals.md.
 *
 * Every symbol is hidden, so the combined lib/fz/fz-rt.o exports only the
 * documented entry points even from a shared-library build of the target.
 */
#ifndef FZ_RT_H
#define FZ_RT_H

#define FZ_RT_HIDDEN __attribute__((visibility("hidden")))

#endif
