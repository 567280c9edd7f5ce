/*
 * fileio.c - whole-file reads, path joins and atomic writes (fileio.h).
 */
#define _GNU_SOURCE
#include "core/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fz-log.h"

/* Reads fd to its end, growing the buffer; more than max_len (when not 0)
 * bytes is EFBIG.  One spare byte is read past max_len to tell "exactly
 * max_len" from "longer". */
static uint8_t *read_all(int fd, size_t max_len, size_t hint, size_t *len)
{
    size_t cap = hint + 1 > 4096 ? hint + 1 : 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb)
                break;
            buf = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        if (r == 0) {
            *len = n;
            return buf;
        }
        n += (size_t)r;
        if (max_len && n > max_len) {
            errno = EFBIG;
            break;
        }
    }
    int e = errno;
    free(buf);
    errno = e ? e : ENOMEM;
    return NULL;
}

uint8_t *fz_file_read_fd(int fd, size_t max_len, size_t *len)
{
    return read_all(fd, max_len, 0, len);
}

uint8_t *fz_file_read(const char *path, size_t max_len, int flags, size_t *len)
{
    /* O_NONBLOCK keeps open() from waiting for a FIFO's writer when only
     * regular files are wanted; the fstat below then refuses it. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | ((flags & FZ_FILE_REGULAR) ? O_NONBLOCK : 0));
    if (fd < 0)
        return NULL;
    struct stat sb;
    uint8_t *b = NULL;
    if (fstat(fd, &sb) != 0) {
        /* errno from fstat */
    } else if ((flags & FZ_FILE_REGULAR) && !S_ISREG(sb.st_mode)) {
        errno = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL;
    } else if (S_ISREG(sb.st_mode) && max_len && (uint64_t)sb.st_size > max_len) {
        errno = EFBIG;
    } else {
        b = read_all(fd, max_len, S_ISREG(sb.st_mode) ? (size_t)sb.st_size : 0, len);
    }
    int e = errno;
    close(fd);
    errno = e;
    return b;
}

char *fz_path_join(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + (c ? strlen(c) : 0) + 3;
    char *p = malloc(n);
    if (!p)
        fz_die("out of memory");
    snprintf(p, n, "%s%s%s%s%s", a, *b ? "/" : "", b, c ? "/" : "", c ? c : "");
    return p;
}

/* "DIR/.NAME.tmp.PID" for path "DIR/NAME", malloc'ed: a hidden sibling to
 * rename() into path (hidden, so directory readers such as a resumed or
 * syncing fz-fuzz and afl-fuzz skip it). */
static char *tmp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    char *tmp = NULL;
    if (asprintf(&tmp, "%.*s.%s.tmp.%d", dir_len, path, path + dir_len, (int)getpid()) < 0)
        return NULL;
    return tmp;
}

/* write(2) all of buf, retrying short writes; a zero-byte write counts as a
 * full disk so the caller's message says why. */
static int write_all(int fd, const uint8_t *p, size_t len)
{
    for (size_t off = 0; off < len;) {
        ssize_t n = write(fd, p + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            return -1;
        }
        off += (size_t)n;
    }
    return 0;
}

/* A path that exists and is not a regular file (/dev/null, /dev/stdout, a
 * FIFO, a symlink the user made) is written in place: renaming a temp file
 * over it would replace the device or the link with a plain file. */
static int write_in_place(const char *path, const uint8_t *p, size_t len)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (write_all(fd, p, len)) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return close(fd);
}

/* Writes buf to tmp in dirfd, made anew (O_EXCL, never through a link
 * planted at that name; a stale one of a killed run is removed first), and
 * renames it over name.  Returns 0, or -1 with errno set and no tmp left. */
static int write_renamed(int dirfd, const char *tmp, const char *name, const void *buf, size_t len,
                         mode_t mode)
{
    int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = openat(dirfd, tmp, flags, mode);
    if (fd < 0 && errno == EEXIST && unlinkat(dirfd, tmp, 0) == 0)
        fd = openat(dirfd, tmp, flags, mode);
    if (fd < 0)
        return -1;
    if (write_all(fd, buf, len)) {
        int e = errno;
        close(fd);
        errno = e;
        goto fail;
    }
    if (close(fd) || renameat(dirfd, tmp, dirfd, name))
        goto fail;
    return 0;
fail:;
    int e = errno;
    unlinkat(dirfd, tmp, 0);
    errno = e;
    return -1;
}

int fz_write_atomic_at(int dirfd, const char *name, const void *buf, size_t len, mode_t mode)
{
    char tmp[32];
    snprintf(tmp, sizeof tmp, ".fz-tmp.%d", (int)getpid());
    return write_renamed(dirfd, tmp, name, buf, len, mode);
}

int fz_file_out_check(const char *path, const char *in, int overwrite, char *err, size_t n)
{
    struct stat o, i;
    if (lstat(path, &o) != 0)
        return 0; /* a new file */
    if (S_ISLNK(o.st_mode)) {
        snprintf(err, n,
                 "-o '%s' is a symlink; fz tools never write through a link (it may "
                 "point anywhere): give the real path",
                 path);
        return -1;
    }
    if (!S_ISREG(o.st_mode))
        return 0; /* /dev/null, /dev/stdout, a FIFO: written in place */
    if (overwrite < 0)
        return 0; /* the tool replaces its output files */
    if (in && stat(in, &i) == 0 && i.st_dev == o.st_dev && i.st_ino == o.st_ino) {
        if (!overwrite) {
            snprintf(err, n,
                     "-o '%s' is the input file itself; writing the result there would "
                     "replace the original: give another -o, or add -F to replace it",
                     path);
            return -1;
        }
        return 0;
    }
    if (!overwrite) {
        snprintf(err, n,
                 "-o '%s' already exists; give a path that does not exist, or add -F "
                 "to overwrite it",
                 path);
        return -1;
    }
    return 0;
}

int fz_file_write_atomic(const char *path, const void *buf, size_t len, mode_t mode)
{
    struct stat sb;
    if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return write_in_place(path, buf, len);
    char *tmp = tmp_name(path);
    if (!tmp)
        return -1;
    int r = write_renamed(AT_FDCWD, tmp, path, buf, len, mode);
    int e = errno;
    free(tmp);
    errno = e;
    return r;
}
