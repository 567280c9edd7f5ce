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

#endif
