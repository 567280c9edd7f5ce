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
    long malloc_limit_mb, detect_leaks, cleanse_crash, fork, report_slow_units;
    const char *dict, *artifact_prefix, *exact_artifact_path, *merge_control_file;
    char **dirs, **files;
    int n_dirs, n_files;
} lf_opts_t;

/* Functions on the path from main() to the harness get libFuzzer-style
 * symbol names (fuzzer::fz::NAME()), so crash-state tools that skip
 * libFuzzer's own frames skip fz's driver too; len is strlen(name). */
#define LF_FRAME(len, name) __asm__("_ZN6fuzzer2fz" #len #name "Ev")

/* Outside a fuzzer, with arguments: returns the exit status (everything
 * runs from here, LLVMFuzzerInitialize included). */
int __fz_lf_main(int argc, char **argv) LF_FRAME(12, FuzzerDriver);

/* Set when this process drives fz's tools instead of running inputs. */
extern int __fz_lf_driver;

/* lf-cli.c */
int __fz_lf_parse_args(lf_opts_t *o, int argc, char **argv);
void __fz_lf_usage(void);
int __fz_lf_is_dir(const char *p);
size_t __fz_lf_list(const char *dir, char ***names);
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
int __fz_lf_fuzz(const lf_opts_t *o) LF_FRAME(4, Loop);
int __fz_lf_merge(const lf_opts_t *o) LF_FRAME(5, Merge);
int __fz_lf_minimize_crash(const lf_opts_t *o);
int __fz_lf_cleanse_crash(const lf_opts_t *o) LF_FRAME(12, CleanseCrash);

/* lf-run.c: inputs run in this process */
typedef struct {
    char *path;
    size_t size;
} lf_file_t;
void __fz_lf_init(int *argc, char ***argv) LF_FRAME(10, Initialize);
void __fz_lf_setup(const lf_opts_t *o, int keep_artifacts);
void __fz_lf_rss_thread(void);
/* A detached thread running FN with every signal blocked. */
void __fz_lf_watcher(void *(*fn)(void *));
/* The process's resident size now, in MiB (0 if unknown). */
long __fz_lf_rss_now_mb(void);
size_t __fz_lf_execute(const uint8_t *data, size_t len, size_t *new_edges)
    LF_FRAME(15, ExecuteCallback);
int __fz_lf_reproduce(const lf_opts_t *o, const char *argv0) LF_FRAME(10, RunOneTest);
long __fz_lf_run_corpus(const lf_opts_t *o, size_t *corp_n, size_t *corp_bytes)
    LF_FRAME(13, ReadAndRunAll);
lf_file_t *__fz_lf_collect(char **dirs, int n_dirs, size_t *n, int say_counts);
void __fz_lf_free_files(lf_file_t *v, size_t n);
void __fz_lf_dump_unit(const char *kind);
void __fz_lf_final_stats(void);
void __fz_lf_status(const char *what, size_t corp_n, size_t corp_bytes, uint64_t runs);
size_t __fz_lf_cov(void);
size_t __fz_lf_ft(void);
uint64_t __fz_lf_runs(void);
void __fz_lf_note_added(void);
void __fz_lf_dump_bytes(const char *kind, const uint8_t *p, size_t n);
void __fz_lf_add_runs(uint64_t n);
int __fz_lf_check_dict(const char *path);
long __fz_lf_rss_mb(void);

#endif
