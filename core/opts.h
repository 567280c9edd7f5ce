/*
 * opts.h - command-line helpers the tools share with fz-fuzz: bounded
 * number parsing and the run options every program that executes a
 * target takes (-t, -m).  The FZ_ / AFL_ flag variables are core/env.h's
 * (included here for the programs that read both).
 */
#ifndef FZ_CORE_OPTS_H
#define FZ_CORE_OPTS_H

#include <stdint.h>

#include "core/env.h" /* fz_env_flag, which callers of these helpers use too */
#include "core/fsrv.h"

/* Parses a decimal option value in [min, max] or dies naming the flag. */
uint32_t fz_opt_u32(const char *s, const char *flag, uint32_t min, uint32_t max);

/* The run options every tool shares with fz-fuzz: -t MS (timeout) and
 * -m MB (memory limit) into cfg, dying on a bad value.  Returns 1 if c was
 * one of them, 0 otherwise (the caller's getopt switch goes on). */
int fz_opt_exec(int c, const char *arg, fz_fsrv_cfg_t *cfg);

/* A tool's own option: 1 if it took c (its value, if any, in arg), 0 for
 * one it does not know. */
typedef int (*fz_opt_own_fn)(int c, const char *arg, void *ctx);

/* A tool's command line up to its operands: getopt(3) with optstring
 * (starting with "+", so options stop at the target's name) hands each
 * option to own (NULL: none) and then to fz_opt_exec.  Returns the index
 * in argv of the first operand, or -1 when there is none, or after -h or
 * an option neither takes: the caller prints its usage. */
int fz_opt_parse(int argc, char **argv, const char *optstring, fz_fsrv_cfg_t *cfg,
                 fz_opt_own_fn own, void *ctx);

#endif
