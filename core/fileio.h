/*
 * fileio.h - the one file reader, the one path join and the one atomic
 * writer that fz-fuzz and the tools share.  Every file fz writes goes
 * through fz_file_write_atomic, so a kill at any moment leaves either the
 * old file or the new one, never half of one.
 */
#ifndef FZ_CORE_FILEIO_H
#define FZ_CORE_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* fz_file_read flags. */
#define FZ_FILE_REGULAR 1 /* only a regular file (never block on a FIFO or device) */

/* Reads a whole file into a malloc'ed buffer (at least one byte, so an
 * empty file is not NULL).  max_len bounds it (0 = no bound): a larger
 * file fails with EFBIG.  Returns NULL on error with errno set (ENOENT,
 * EACCES, EFBIG, EISDIR/EINVAL for a non-regular file under
 * FZ_FILE_REGULAR, ...). */
uint8_t *fz_file_read(const char *path, size_t max_len, int flags, size_t *len);

/* Reads all of fd (stdin) up to max_len bytes (0 = no bound); NULL with
 * errno set on error or when the stream is longer (EFBIG). */
uint8_t *fz_file_read_fd(int fd, size_t max_len, size_t *len);

/* "A/B" (or "A/B/C" when c is not NULL), malloc'ed; dies when out of
 * memory. */
char *fz_path_join(const char *a, const char *b, const char *c);

/* Writes buf as NAME in the directory open at dirfd, atomically and
 * without following symlinks: a hidden temp file created there with
 * O_CREAT | O_EXCL | O_NOFOLLOW (one name per process, ".fz-tmp.PID", short
 * enough for any NAME up to NAME_MAX), written, then renamed over NAME.
 * rename() replaces whatever NAME was (a symlink planted there included)
 * instead of writing through it.  A stale temp file of that name (a killed
 * run with the same pid) is removed first.  Returns 0, or -1 with errno
 * set and no temp file left. */
int fz_write_atomic_at(int dirfd, const char *name, const void *buf, size_t len, mode_t mode);

/* Whether a tool may write its result to path (-o): never when it is a
 * symlink; a regular file that exists only with overwrite > 0 (it may be
 * the input in, or another crash), or always with overwrite < 0 (a tool
 * whose outputs are made to be replaced).  Devices and FIFOs are fine.
 * Returns 0, or -1 with a one-line message (cause and fix) in err. */
int fz_file_out_check(const char *path, const char *in, int overwrite, char *err, size_t n);

/* Writes buf to path (created with mode) through a hidden temp file and
 * rename, so readers never see half a file.  A path that already exists and
 * is not a regular file (a device such as /dev/null, a FIFO, a symlink) is
 * written in place instead, so it keeps being what it is.  Returns 0, or -1
 * with errno set and no temp file left. */
int fz_file_write_atomic(const char *path, const void *buf, size_t len, mode_t mode);

#endif
