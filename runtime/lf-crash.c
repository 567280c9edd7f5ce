/*
 * lf-crash.c - what the driver does to one crashing file: -cleanse_crash=1
 * (every byte that can become ' ' or 0xff with the crash kept, in child
 * processes of this one) and -minimize_crash=1 (through fz-tmin).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz-config.h"
#include "fz-sha1.h"
#include "runtime/lf-crash.h"
#include "runtime/lf-run.h"
#include "runtime/lf-util.h"

/* Non-zero when buf still crashes, run in a child process (its report
 * silenced). */
static int crashes(const uint8_t *buf, size_t len)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        __fz_lf_execute(buf, len, NULL);
        _exit(0);
    }
    int status = __fz_lf_wait_status(pid);
    return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

/* The crashing file, or NULL after saying why. */
static uint8_t *read_crash(const char *path, size_t *len)
{
    uint8_t *buf = __fz_lf_read_file(path, len);
    if (!buf)
        fprintf(stderr, "ERROR: cannot read '%s'\n", path);
    return buf;
}

/* Every byte that can become ' ' or 0xff (whichever it is not) with the
 * crash kept, does; written to -exact_artifact_path. */
int __fz_lf_cleanse_crash(const lf_opts_t *o)
{
    if (o->n_files != 1 || !o->exact_artifact_path) {
        fprintf(stderr, "ERROR: -cleanse_crash=1 takes one crashing file and "
                        "-exact_artifact_path=OUT\n");
        return 1;
    }
    size_t len;
    uint8_t *buf = read_crash(o->files[0], &len);
    if (!buf)
        return 1;
    fprintf(stderr, "CLEANSE_CRASH: cleansing '%s' (%zu bytes)\n", o->files[0], len);
    if (!crashes(buf, len)) {
        fprintf(stderr, "ERROR: the input '%s' does not crash; nothing to cleanse\n", o->files[0]);
        free(buf);
        return 1;
    }
    size_t changed = 0;
    static const uint8_t repl[] = {' ', 0xff};
    for (size_t i = 0; i < len; i++) {
        uint8_t old = buf[i];
        if (old == repl[0] || old == repl[1])
            continue;
        for (int r = 0; r < 2; r++) {
            buf[i] = repl[r];
            if (crashes(buf, len)) {
                fprintf(stderr, "CLEANSE: Replaced byte %zu with 0x%x\n", i, repl[r]);
                changed++;
                break;
            }
            buf[i] = old;
        }
    }
    int rc = __fz_lf_write_atomic(o->exact_artifact_path, buf, len);
    if (rc == 0)
        fprintf(stderr, "CLEANSE: %zu of %zu bytes replaced; written to %s\n", changed, len,
                o->exact_artifact_path);
    else
        fprintf(stderr, "ERROR: cannot write %s: %s\n", o->exact_artifact_path, strerror(errno));
    free(buf);
    return rc ? 1 : 0;
}

/* ---- -minimize_crash=1 ---- */

int __fz_lf_minimize_crash(const lf_opts_t *o)
{
    if (o->n_files != 1) {
        fprintf(stderr, "ERROR: -minimize_crash=1 takes one crashing file: -minimize_crash=1 "
                        "[-runs=N] [-exact_artifact_path=OUT] CRASH_FILE\n");
        return 1;
    }
    char *tmin = __fz_lf_find_tool("fz-tmin"), *self = __fz_lf_self_path(), *out = NULL;
    if (!tmin || access(tmin, X_OK) != 0) {
        fprintf(stderr, "ERROR: -minimize_crash=1 uses fz-tmin and cannot find it; set "
                        "FZ_FUZZ=/path/to/fz-fuzz (fz-tmin beside it) or put fz's bin/ on PATH\n");
        return 1;
    }
    size_t len;
    uint8_t *buf = read_crash(o->files[0], &len);
    if (!buf)
        return 1;
    char hex[41], runs[32];
    fz_sha1_hex(buf, len, hex);
    free(buf);
    if (o->exact_artifact_path)
        out = strdup(o->exact_artifact_path);
    else if (asprintf(&out, "%sminimized-from-%s", o->artifact_prefix, hex) < 0)
        out = NULL;
    snprintf(runs, sizeof runs, "%ld", o->runs > 0 ? o->runs : 100000);
    char *argv[] = {tmin, "-q", "-E", runs, "-i", o->files[0], "-o", out, "--", self, NULL};
    int status = __fz_lf_wait_status(__fz_lf_spawn(argv, 2, NULL));
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    uint8_t *got = ok ? __fz_lf_read_file(out, &len) : NULL;
    if (got)
        fprintf(stderr, "CRASH_MIN: minimized input written to %s (%zu bytes)\n", out, len);
    else
        fprintf(stderr, "ERROR: fz-tmin could not minimize '%s'\n", o->files[0]);
    free(got);
    free(out);
    free(tmin);
    free(self);
    return ok ? 0 : 1;
}
