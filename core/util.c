/*
 * util.c - helpers shared by fz-fuzz and the stand-alone tools (see util.h).
 */
#define _GNU_SOURCE
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fz-config.h"
#include "fz-log.h"

uint32_t fz_tool_parse_u32(const char *s, const char *flag, uint32_t min, uint32_t max)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max || s[0] == '-')
        fz_die("%s needs a number from %u to %u, not '%s'", flag, min, max, s);
    return (uint32_t)v;
}

static uint8_t *read_all(int fd, size_t *len, size_t limit)
{
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            uint8_t *nb = cap >= limit ? NULL : realloc(buf, cap * 2);
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
    }
    free(buf);
    return NULL;
}

uint8_t *fz_tool_read_fd(int fd, size_t *len)
{
    uint8_t *b = read_all(fd, len, (size_t)FZ_MAX_INPUT * 2);
    return b;
}

uint8_t *fz_tool_read_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    uint8_t *b = read_all(fd, len, (size_t)1 << 31);
    int e = errno;
    close(fd);
    errno = e;
    return b;
}

char *fz_tool_tmp_name(const char *path)
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

int fz_write_atomic_at(int dirfd, const char *name, const void *buf, size_t len, mode_t mode)
{
    char tmp[32];
    snprintf(tmp, sizeof tmp, ".fz-tmp.%d", (int)getpid());
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

int fz_tool_write_atomic(const char *path, const void *buf, size_t len, mode_t mode)
{
    struct stat sb;
    if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return write_in_place(path, buf, len);
    char *tmp = fz_tool_tmp_name(path);
    if (!tmp)
        return -1;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0)
        goto fail;
    if (write_all(fd, buf, len)) {
        int e = errno;
        close(fd);
        errno = e;
        goto fail;
    }
    if (close(fd) || rename(tmp, path))
        goto fail;
    free(tmp);
    return 0;
fail:;
    int e = errno;
    unlink(tmp);
    free(tmp);
    errno = e;
    return -1;
}

int fz_env_flag(const char *fz_name, const char *afl_name)
{
    const char *names[2] = {fz_name, afl_name};
    for (int i = 0; i < 2; i++) {
        const char *v = names[i] ? getenv(names[i]) : NULL;
        if (v && v[0] && strcmp(v, "0") != 0)
            return 1;
    }
    return 0;
}

int fz_tool_exec_opt(int c, const char *arg, fz_fsrv_cfg_t *cfg)
{
    if (c == 't')
        cfg->timeout_ms = fz_tool_parse_u32(arg, "-t", 1, 3600000);
    else if (c == 'm')
        cfg->mem_limit_mb = fz_tool_parse_u32(arg, "-m", 0, 1u << 30);
    else
        return 0;
    return 1;
}
