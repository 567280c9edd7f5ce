/*
 * env.h - the FZ_ / AFL_ yes-or-no environment variables, one parser for
 * all of them.  Used by the forkserver client's defaults (core/fsrv.c)
 * and by every program; it depends on nothing else in core/.
 */
#ifndef FZ_CORE_ENV_H
#define FZ_CORE_ENV_H

/* A yes-or-no environment variable, fz's name first, then AFL++'s (or
 * NULL): 1, yes, true, on / 0, no, false, off (any case; "" is off), one
 * parser for every such variable.  Any other value is an error (fz_die
 * naming the variable): FZ_NO_CMPLOG=no must not switch the feature
 * on, nor a typo pass in silence.  unset: the value when neither is set. */
int fz_env_bool(const char *fz_name, const char *afl_name, int unset);

/* fz_env_bool with 0 when unset. */
int fz_env_flag(const char *fz_name, const char *afl_name);

#endif
