/*
 * lf-cli.h - the libFuzzer command line of harnesses linked with fz's
 * driver (runtime/lf-cli.c: flags and helpers; runtime/lf-modes.c: fuzzing
 * through fz-fuzz, -merge=1, -minimize_crash=1).  Hidden inside
 * lib/fz/fz-libfuzzer.o; libfuzzer.c calls __fz_lf_main.
 */
#ifndef FZ_RT_LF_CLI_H
#define FZ_RT_LF_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The options, named as libFuzzer names them. */
typedef struct lf_opts {
    long runs, max_total_time, max_len, timeout, rss_limit_mb, seed, jobs, workers;
    long print_final_stats, merge, minimize_crash, error_exitcode, timeout_exitcode, help;
    const char *dict, *artifact_prefix, *exact_artifact_path;
    char **dirs, **files;
    int n_dirs, n_files;
} lf_opts_t;

/* Outside a fuzzer, with arguments: returns the exit status, or -1 when
 * the arguments ask for reproduce mode (only files: libfuzzer.c runs each
 * *repeat times, -runs=N as libFuzzer does). */
int __fz_lf_main(int argc, char **argv, long *repeat);

/* Set when this process drives fz's tools instead of running inputs. */
extern int __fz_lf_driver;

/* lf-cli.c */
int __fz_lf_parse_args(lf_opts_t *o, int argc, char **argv);
void __fz_lf_usage(void);
int __fz_lf_is_dir(const char *p);
char *__fz_lf_path_join(const char *a, const char *b);
uint8_t *__fz_lf_read_file(const char *path, size_t *len);
int __fz_lf_write_atomic(const char *path, const uint8_t *buf, size_t len);
int __fz_lf_save_by_hash(const char *dir, const uint8_t *buf, size_t len, char hex[41]);
void __fz_lf_rm_tree(const char *dir);
char *__fz_lf_find_tool(const char *name);
char *__fz_lf_self_path(void);
pid_t __fz_lf_spawn(char **argv, int out_fd, const char *in_path);
int __fz_lf_wait_status(pid_t pid);

/* lf-mutate.c: the harness's custom mutator under fz-fuzz.  Before the
 * fork point: offers it in the handshake; before each pass: turns a
 * request in the test-case segment into the input that runs. */
void __fz_lf_custom_init(void);
void __fz_lf_custom_apply(void);

/* lf-modes.c */
int __fz_lf_fuzz(const lf_opts_t *o);
int __fz_lf_merge(const lf_opts_t *o);
int __fz_lf_minimize_crash(const lf_opts_t *o);

#endif
