/*
 * lf-report.c - what the driver prints and writes when a run ends
 * (lf-report.h): stderr lines written without stdio (safe in a signal
 * handler and a malloc hook) and the artifact with libFuzzer's lines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fz-sha1.h"
#include "runtime/lf-report.h"

/* stderr without stdio: safe in a signal handler and in a malloc hook. */
void __fz_lf_say(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof buf - 1)
        n = sizeof buf - 1;
    for (int off = 0; n > 0 && off < n;) {
        ssize_t w = write(2, buf + off, (size_t)(n - off));
        if (w <= 0)
            break;
        off += (int)w;
    }
}

static void base64(const uint8_t *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char out[4 * 64 / 3 + 8];
    __fz_lf_say("Base64: ");
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        for (; k + 4 < sizeof out && i < n; i += 3) {
            uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                         (i + 2 < n ? p[i + 2] : 0);
            out[k++] = tab[v >> 18 & 63];
            out[k++] = tab[v >> 12 & 63];
            out[k++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
            out[k++] = i + 2 < n ? tab[v & 63] : '=';
        }
        out[k] = 0;
        __fz_lf_say("%s", out);
    }
    __fz_lf_say("\n");
}

/* Writes the input as PREFIX<kind>-<sha1> (or -exact_artifact_path) with
 * libFuzzer's lines. */
void __fz_lf_write_artifact(const lf_opts_t *o, const char *kind, const uint8_t *p, size_t n)
{
    __fz_lf_say("MS: 0 ; base unit: 0000000000000000000000000000000000000000\n");
    if (n <= 256) {
        for (size_t i = 0; i < n; i++)
            __fz_lf_say("0x%x,", p[i]);
        __fz_lf_say("\n");
        for (size_t i = 0; i < n; i++)
            __fz_lf_say(p[i] >= 32 && p[i] < 127 && p[i] != '\\' ? "%c" : "\\x%02x", p[i]);
        __fz_lf_say("\n");
    }
    char hex[41], path[4096];
    fz_sha1_hex(p, n, hex);
    if (o->exact_artifact_path)
        snprintf(path, sizeof path, "%s", o->exact_artifact_path);
    else
        snprintf(path, sizeof path, "%s%s-%s", o->artifact_prefix, kind, hex);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0 || write(fd, p, n) != (ssize_t)n) {
        __fz_lf_say("ERROR: cannot write the artifact '%s': %s; check -artifact_prefix\n", path,
            strerror(errno));
    } else {
        __fz_lf_say("artifact_prefix='%s'; Test unit written to %s\n", o->artifact_prefix, path);
        if (n <= 256)
            base64(p, n);
    }
    if (fd >= 0)
        close(fd);
}
