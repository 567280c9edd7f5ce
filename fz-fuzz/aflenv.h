/*
 * aflenv.h - the registry of environment variables fz-fuzz knows: AFL++'s
 * AFL_* variables with what fz does with each (honoured, honoured in
 * effect, or not honoured and why), and fz's own FZ_* names.
 *
 * A user who comes from afl-fuzz exports AFL_* variables out of habit;
 * the ones fz does not honour must not be ignored silently.  At start-up
 * fz-fuzz goes through its environment once and says, one line each:
 *  - an AFL_* variable fz does not honour, and what to do instead;
 *  - an AFL_* name that is no AFL++ variable at all (a misspelling);
 *  - an FZ_* name that is not fz's but close to one of fz's (a
 *    misspelling: "FZ_NO_AFINITY: did you mean FZ_NO_AFFINITY?").  Other
 *    FZ_* names are left alone: the test scripts' and other tools' own.
 * AFL_IGNORE_UNKNOWN_ENVS=1 silences the last two, as in afl-fuzz.
 * Build-time variables of afl-cc (AFL_LLVM_*, AFL_USE_ASAN, ...) say
 * nothing: afl-fuzz does not read them either.
 */
#ifndef FZ_FUZZ_AFLENV_H
#define FZ_FUZZ_AFLENV_H

#include <stddef.h>

/* What fz does with a variable. */
enum fz_aflenv_status {
    FZ_ENV_HONOURED,  /* read, with AFL++'s meaning (or fz's FZ_ twin) */
    FZ_ENV_NO_EFFECT, /* what it asks for is what fz does anyway: said nothing */
    FZ_ENV_IGNORED,   /* not honoured: one warning line */
    FZ_ENV_BUILD,     /* afl-cc's build-time variable: fz-fuzz does not read it */
    FZ_ENV_UNKNOWN,   /* not a name the registry knows */
};

/* The status of AFL_* or FZ_* variable name (without "=value"); *note,
 * if not NULL, gets the registry's explanation (NULL if none). */
int fz_aflenv_status(const char *name, const char **note);

/* Goes through env (NAME=VALUE strings, NULL-terminated) and calls say()
 * with one line for each variable to warn about (without "fz-fuzz:
 * warning: ").  Returns the number of lines. */
int fz_aflenv_scan(char *const *env, void (*say)(void *ctx, const char *line), void *ctx);

#endif
