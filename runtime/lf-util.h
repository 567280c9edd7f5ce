/*
 * lf-util.h - files and processes for fz's libFuzzer driver (lf-util.c):
 * directory listings, whole-file reads, SHA-1-named atomic writes,
 * finding and starting fz's tools.  Calls nothing else of the driver.
 */
#ifndef FZ_RT_LF_UTIL_H
#define FZ_RT_LF_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

int __fz_lf_is_dir(const char *p);
/* The sorted non-hidden names in dir (malloc'ed); how many. */
size_t __fz_lf_list(const char *dir, char ***names);
void __fz_lf_free_names(char **v, size_t n);
char *__fz_lf_path_join(const char *a, const char *b);
uint8_t *__fz_lf_read_file(const char *path, size_t *len);
int __fz_lf_write_atomic(const char *path, const uint8_t *buf, size_t len);
int __fz_lf_save_by_hash(const char *dir, const uint8_t *buf, size_t len, char hex[41]);
void __fz_lf_rm_tree(const char *dir);
char *__fz_lf_find_tool(const char *name);
char *__fz_lf_self_path(void);
pid_t __fz_lf_spawn(char **argv, int out_fd, const char *in_path);
int __fz_lf_wait_status(pid_t pid);
/* Microseconds of CLOCK_MONOTONIC: the driver's one clock. */
uint64_t __fz_lf_now_us(void);

#endif
