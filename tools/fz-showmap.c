/*
 * fz-showmap.c - fz-showmap: run a target once on the input read from
 * stdin and write its coverage map as "SLOT:VALUE" lines, as afl-showmap
 * does.  Exit status: 0 the target ran, 2 it timed out, 3 it crashed,
 * 1 usage or set-up error (docs/tools.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/coverage.h"
#include "core/exec.h"
#include "core/fileio.h"
#include "core/opts.h"
#include "fz-log.h"
#include "fz-version.h"

const char *fz_log_prog = "fz-showmap";

static void usage(void)
{
    fprintf(
        stderr,
        "usage: fz-showmap -o FILE [-q] [-r] [-e] [-t MS] [-m MB] -- ./target [args, @@ = input]\n"
        "  runs the target once on stdin's bytes and writes one 'SLOT:VALUE' line per\n"
        "  edge hit (VALUE: bucket 1..8 as afl-showmap, raw count with -r, 1 with -e)\n"
        "  -o -  write to stdout    -q  no summary    -t MS timeout    -m MB memory limit\n"
        "exit: 0 ran, 2 timeout, 3 crash, 1 error\n");
    exit(FZ_EXIT_ERROR);
}

/* The map as text, written in one piece through the tools' writer (atomic
 * for a regular file, in place for a device, FIFO or symlink), or to stdout
 * for "-". */
static int write_map(const char *out, const uint8_t *map, size_t size, int raw, int edges_only)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        fz_die("out of memory formatting the map");
    for (size_t i = 0; i < size; i++) {
        if (!map[i])
            continue;
        /* Like afl-showmap, print the bucket's number (1..8), not its bit. */
        unsigned v = raw ? map[i] : (unsigned)__builtin_ctz(fz_cov_bucket(map[i])) + 1;
        fprintf(f, "%06zu:%u\n", i, edges_only ? 1u : v);
    }
    if (fclose(f))
        fz_die("out of memory formatting the map");
    int rc = 0;
    if (strcmp(out, "-") == 0)
        rc = (fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0) ? 0 : -1;
    else if (fz_file_write_atomic(out, text, len, 0644))
        fz_die("cannot write '%s': %m; check that its directory exists and is writable", out);
    free(text);
    return rc;
}

typedef struct {
    const char *out;
    int quiet, raw, edges_only;
} showmap_opts_t;

static int showmap_opt(int c, const char *arg, void *ctx)
{
    showmap_opts_t *o = ctx;
    if (c == 'o')
        o->out = arg;
    else if (c == 'q')
        o->quiet = 1;
    else if (c == 'r')
        o->raw = 1;
    else if (c == 'e')
        o->edges_only = 1;
    else
        return 0;
    return 1;
}

int main(int argc, char **argv)
{
    fz_version_check(argc, argv, "fz-showmap");
    fz_fsrv_cfg_t cfg;
    fz_fsrv_cfg_init(&cfg);
    showmap_opts_t o = {0};
    int at = fz_opt_parse(argc, argv, "+o:qret:m:h", &cfg, showmap_opt, &o);
    if (at < 0 || !o.out)
        usage();
    cfg.argv = argv + at;
    const char *out = o.out;
    int quiet = o.quiet, raw = o.raw, edges_only = o.edges_only;
    char err[512] = "";
    if (strcmp(out, "-") != 0 && fz_file_out_check(out, NULL, -1, err, sizeof err))
        fz_die("%s", err);

    size_t len;
    uint8_t *buf = fz_file_read_fd(0, 0, &len);
    if (!buf)
        fz_die("cannot read the input from stdin: %m");

    fz_exec_t x;
    if (fz_exec_start(&x, &cfg, FZ_EXEC_RAW, err, sizeof err))
        fz_die("%s", err);
    fz_exec_rec_t rec;
    fz_run_result_t r = fz_exec_run(&x, buf, len, 0, &rec);
    if (r == FZ_RUN_ERROR) {
        char msg[FZ_FSRV_ERRLEN];
        memcpy(msg, fz_exec_errmsg(&x), sizeof msg);
        fz_exec_stop(&x);
        fz_die("%s", msg);
    }
    write_map(out, rec.map, rec.map_size, raw, edges_only);
    if (!quiet) {
        size_t n = 0;
        for (size_t i = 0; i < rec.map_size; i++)
            n += rec.map[i] != 0;
        fz_info("%zu edges hit in a %u-byte map; target %s", n, rec.map_size,
                r == FZ_RUN_CRASH  ? "crashed"
                : r == FZ_RUN_HANG ? "timed out"
                                   : "ran normally");
    }
    fz_exec_stop(&x);
    free(buf);
    return r == FZ_RUN_CRASH ? 3 : r == FZ_RUN_HANG ? 2 : 0;
}
