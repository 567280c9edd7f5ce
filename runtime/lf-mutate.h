/*
 * lf-mutate.h - the harness's custom mutator under fz-fuzz (lf-mutate.c).
 * Before the fork point: offers it in the handshake; before each pass:
 * turns a request in the test-case segment into the input that runs.
 */
#ifndef FZ_RT_LF_MUTATE_H
#define FZ_RT_LF_MUTATE_H

void __fz_lf_custom_init(void);
void __fz_lf_custom_apply(void);

#endif
