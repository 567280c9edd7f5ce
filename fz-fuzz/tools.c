/*
 * tools.c - helpers shared by the stand-alone tools (see tools.h).
 */
#define _GNU_SOURCE
#include "fz-fuzz/tools.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    char *tmp = NULL;
    if (asprintf(&tmp, "%s.tmp.%d", path, (int)getpid()) < 0)
        return NULL;
    return tmp;
}

int fz_tool_write_atomic(const char *path, const uint8_t *buf, size_t len)
{
    char *tmp = fz_tool_tmp_name(path);
    if (!tmp)
        return -1;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        goto fail;
    for (size_t off = 0; off < len;) {
        ssize_t n = write(fd, buf + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            close(fd);
            goto fail;
        }
        off += (size_t)n;
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

int fz_tool_debug_child(void)
{
    const char *a = getenv("FZ_DEBUG_CHILD"), *b = getenv("AFL_DEBUG_CHILD");
    return (a && *a && strcmp(a, "0") != 0) || (b && *b && strcmp(b, "0") != 0);
}
