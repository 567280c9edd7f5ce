/*
 * cmdline.h - the campaign's record of what ran: the whole command line
 * (for fuzzer_setup and crashes/README.txt), the files cmdline (the target
 * command, one word per line, as AFL++ writes it) and fuzzer_setup (our
 * FZ_ / AFL_ environment, the command line and the target binary's
 * identity), and, on resume, the check that they name this target.
 */
#ifndef FZ_FUZZ_CMDLINE_H
#define FZ_FUZZ_CMDLINE_H

struct fz_state;

/* argv joined with spaces, single-quoting words that need it (malloc'd). */
char *fz_cmdline_join(int argc, char **argv);

/* Writes cmdline and fuzzer_setup.  Returns 0 or -errno (the file is
 * named in *failed). */
int fz_cmdline_write(struct fz_state *st, const char **failed);

/* A resumed campaign must go on with its own target: re-running its
 * crashes against another program would report them as fixed, so another
 * command ends the run (fz_die, naming the command to use).  A rebuilt
 * target (same command, another binary) is fine but said, and sets
 * st->target_changed. */
void fz_cmdline_check_resume(struct fz_state *st);

#endif
