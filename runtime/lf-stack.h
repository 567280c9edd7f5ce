/*
 * lf-stack.h - the stack of this thread as the sanitizers print it,
 * symbolized, for a harness with or without a sanitizer (lf-stack.c).
 * Safe in a signal handler.
 */
#ifndef FZ_RT_LF_STACK_H
#define FZ_RT_LF_STACK_H

#include "runtime/lf.h"

void __fz_lf_print_stack(void) LF_FRAME(15, PrintStackTrace);
/* From the frame at pc on (a fault's instruction), numbered from #0; the
 * whole stack when pc is NULL or not on it. */
void __fz_lf_print_stack_from(void *pc) LF_FRAME(19, PrintStackTraceFrom);

#endif
