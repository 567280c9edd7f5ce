/*
 * lf-cli.h - the libFuzzer command line of harnesses linked with fz's
 * driver (lf-cli.c): flags, checks, and the dispatch to a mode.
 */
#ifndef FZ_RT_LF_CLI_H
#define FZ_RT_LF_CLI_H

#include "runtime/lf.h"

/* Outside a fuzzer, with arguments: returns the exit status (everything
 * runs from here, LLVMFuzzerInitialize included). */
int __fz_lf_main(int argc, char **argv) LF_FRAME(12, FuzzerDriver);

/* Set when this process drives fz's tools instead of running inputs
 * (libfuzzer.c then skips LeakSanitizer's check at exit). */
extern int __fz_lf_driver;

#endif
