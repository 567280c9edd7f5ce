/*
 * util.h - small helpers the stand-alone tools (fz-showmap, fz-tmin,
 * fz-cmin) and fz-fuzz share: number parsing, whole-file reads, atomic
 * writes, environment flags, the -t / -m options.
 */
#ifndef FZ_CORE_UTIL_H
#define FZ_CORE_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/fsrv.h"

/* Parses a decimal option value in [min, max] or dies naming the flag. */
uint32_t fz_tool_parse_u32(const char *s, const char *flag, uint32_t min, uint32_t max);

/* Reads all of fd (up to FZ_MAX_INPUT + 1 bytes) into a malloc'ed buffer;
 * NULL on error (errno set). */
uint8_t *fz_tool_read_fd(int fd, size_t *len);

/* Reads a whole file; NULL on error (errno set).  Files larger than
 * FZ_MAX_INPUT are read whole; callers check the size. */
uint8_t *fz_tool_read_file(const char *path, size_t *len);

/* "DIR/.NAME.tmp.PID" for path "DIR/NAME", malloc'ed: a hidden sibling to
 * rename() into path (hidden, so directory readers such as a resumed or
 * syncing fz-fuzz and afl-fuzz skip it). */
char *fz_tool_tmp_name(const char *path);

/* Writes buf as NAME in the directory open at dirfd, atomically and
 * without following symlinks: a hidden temp file created there with
 * O_CREAT | O_EXCL | O_NOFOLLOW (one name per process, ".fz-tmp.PID", short
 * enough for any NAME up to NAME_MAX), written, then renamed over NAME.
 * rename() replaces whatever NAME was (a symlink planted there included)
 * instead of writing through it.  A stale temp file of that name (a killed
 * run with the same pid) is removed first.  Returns 0, or -1 with errno
 * set and no temp file left. */
int fz_write_atomic_at(int dirfd, const char *name, const void *buf, size_t len, mode_t mode);

/* Writes buf to path (created with mode) through fz_tool_tmp_name and
 * rename, so readers never see half a file.  A path that already exists and
 * is not a regular file (a device such as /dev/null, a FIFO, a symlink) is
 * written in place instead, so it keeps being what it is.  Returns 0, or -1
 * with errno set and no temp file left. */
int fz_tool_write_atomic(const char *path, const void *buf, size_t len, mode_t mode);

/* 1 if either environment variable (fz's name, AFL++'s, or NULL) is set
 * to something other than "" or "0". */
int fz_env_flag(const char *fz_name, const char *afl_name);

/* The run options every tool shares with fz-fuzz: -t MS (timeout) and
 * -m MB (memory limit) into cfg, dying on a bad value.  Returns 1 if c was
 * one of them, 0 otherwise (the caller's getopt switch goes on). */
int fz_tool_exec_opt(int c, const char *arg, fz_fsrv_cfg_t *cfg);

#endif
