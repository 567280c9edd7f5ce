/*
 * fz-cmin.c - fz-cmin: corpus minimization as afl-cmin does it.  Every
 * file of the input directory is run once; each (edge, bucket) tuple it
 * reaches is credited to the smallest file reaching it; then tuples are
 * taken in order and, for each one not yet covered, its smallest file is
 * kept and everything that file covers is marked covered.  The kept set
 * has the same union coverage as the whole directory.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fz-config.h"
#include "core/coverage.h"
#include "core/exec.h"
#include "core/fileio.h"
#include "core/opts.h"
#include "fz-log.h"
#include "fz-version.h"

const char *fz_log_prog = "fz-cmin";

typedef struct {
    char *name;
    size_t size;
    uint32_t *tuples; /* slot * 8 + bucket bit index */
    size_t n_tuples;
    int keep;
} cmin_file_t;

typedef struct {
    cmin_file_t *files;
    size_t n, skipped_crash, skipped_hang, skipped_big;
} cmin_set_t;

static void usage(void)
{
    fprintf(stderr, "usage: fz-cmin -i DIR -o OUTDIR [-t MS] [-m MB] [-q] -- ./target [args, @@]\n"
                    "  copies to OUTDIR the smallest subset of DIR's files that keeps the union\n"
                    "  of their coverage (per edge and hit-count bucket, the smallest file)\n"
                    "exit: 0 done, 1 error\n");
    exit(FZ_EXIT_ERROR);
}

static int by_size(const void *a, const void *b)
{
    const cmin_file_t *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Lists the regular files of dir, smallest first (name breaks ties, so the
 * result does not depend on readdir order). */
static void list_dir(const char *dir, cmin_set_t *set)
{
    DIR *d = opendir(dir);
    if (!d)
        fz_die("cannot open input directory '%s': %m", dir);
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char *path;
        struct stat st;
        if (e->d_name[0] == '.' || asprintf(&path, "%s/%s", dir, e->d_name) < 0)
            continue;
        if (stat(path, &st) || !S_ISREG(st.st_mode)) {
            free(path);
            continue;
        }
        if ((size_t)st.st_size > FZ_MAX_INPUT) {
            fz_warn("skipping '%s': %lld bytes is over the %u-byte limit", path,
                    (long long)st.st_size, FZ_MAX_INPUT);
            set->skipped_big++;
            free(path);
            continue;
        }
        if (set->n == cap) {
            cap = cap ? cap * 2 : 64;
            set->files = realloc(set->files, cap * sizeof *set->files);
            if (!set->files)
                fz_die("out of memory");
        }
        set->files[set->n++] = (cmin_file_t){.name = path, .size = (size_t)st.st_size};
    }
    closedir(d);
    if (set->n == 0)
        fz_die("input directory '%s' has no files to minimize", dir);
    qsort(set->files, set->n, sizeof *set->files, by_size);
}

/* Runs one file and records its tuples; 0 if it crashed, hung or could not
 * be read (such files are left out, as afl-cmin does). */
static int trace_file(fz_exec_t *x, cmin_set_t *set, cmin_file_t *f)
{
    size_t len;
    uint8_t *buf = fz_file_read(f->name, 0, 0, &len);
    if (!buf) {
        fz_warn("skipping '%s': %m", f->name);
        return 0;
    }
    fz_exec_rec_t rec;
    fz_run_result_t r = fz_exec_run(x, buf, len, 0, &rec);
    free(buf);
    if (r == FZ_RUN_ERROR) {
        fz_die("%s", fz_exec_errmsg(x));
    } else if (r != FZ_RUN_OK) {
        r == FZ_RUN_CRASH ? set->skipped_crash++ : set->skipped_hang++;
        return 0;
    }
    size_t n = fz_cov_count_set(rec.map, rec.map_size);
    f->tuples = malloc((n ? n : 1) * sizeof *f->tuples);
    if (!f->tuples)
        fz_die("out of memory");
    for (uint32_t i = 0; i < rec.map_size; i++)
        if (rec.map[i])
            f->tuples[f->n_tuples++] = i * 8 + (uint32_t)__builtin_ctz(rec.map[i]);
    return 1;
}

/* The afl-cmin selection over files already sorted smallest first.
 * Returns the number of distinct tuples.  The tables are sized by the
 * highest tuple any file reached, not by the map: a target may announce a
 * map of megabytes (many modules, or AFL_MAP_SIZE) and use a corner of it,
 * and 5 bytes per possible tuple of an 8 MiB map would be 320 MiB. */
static size_t select_files(cmin_set_t *set)
{
    size_t n_slots = 0;
    for (size_t i = 0; i < set->n; i++)
        for (size_t k = 0; k < set->files[i].n_tuples; k++)
            if (set->files[i].tuples[k] >= n_slots)
                n_slots = (size_t)set->files[i].tuples[k] + 1;
    uint32_t *best = malloc((n_slots ? n_slots : 1) * sizeof *best); /* file index + 1, 0 = none */
    uint8_t *covered = calloc(n_slots ? n_slots : 1, 1);
    if (!best || !covered)
        fz_die("out of memory");
    memset(best, 0, n_slots * sizeof *best);
    size_t distinct = 0;
    for (size_t i = 0; i < set->n; i++)
        for (size_t k = 0; k < set->files[i].n_tuples; k++) {
            uint32_t t = set->files[i].tuples[k];
            if (!best[t]) {
                best[t] = (uint32_t)i + 1;
                distinct++;
            }
        }
    for (size_t t = 0; t < n_slots; t++) {
        if (!best[t] || covered[t])
            continue;
        cmin_file_t *f = &set->files[best[t] - 1];
        f->keep = 1;
        for (size_t k = 0; k < f->n_tuples; k++)
            covered[f->tuples[k]] = 1;
    }
    free(best);
    free(covered);
    return distinct;
}

/* Refuses to mix results into an existing, non-empty directory. */
static void make_outdir(const char *out)
{
    DIR *d = opendir(out);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                fz_die("output directory '%s' is not empty; remove it or choose another -o", out);
        closedir(d);
    } else if (mkdir(out, 0755)) {
        fz_die("cannot create output directory '%s': %m", out);
    }
}

static void copy_kept(const cmin_set_t *set, const char *out)
{
    for (size_t i = 0; i < set->n; i++) {
        const cmin_file_t *f = &set->files[i];
        if (!f->keep)
            continue;
        size_t len;
        uint8_t *buf = fz_file_read(f->name, 0, 0, &len);
        char *dst;
        const char *base = strrchr(f->name, '/');
        if (!buf || asprintf(&dst, "%s/%s", out, base ? base + 1 : f->name) < 0)
            fz_die("cannot read '%s': %m", f->name);
        if (fz_file_write_atomic(dst, buf, len, 0644))
            fz_die("cannot write '%s': %m", dst);
        free(dst);
        free(buf);
    }
}

typedef struct {
    const char *in, *out;
    int quiet;
} cmin_opts_t;

static int cmin_opt(int c, const char *arg, void *ctx)
{
    cmin_opts_t *o = ctx;
    if (c == 'i')
        o->in = arg;
    else if (c == 'o')
        o->out = arg;
    else if (c == 'q')
        o->quiet = 1;
    else
        return 0;
    return 1;
}

int main(int argc, char **argv)
{
    fz_version_check(argc, argv, "fz-cmin");
    fz_fsrv_cfg_t cfg;
    fz_fsrv_cfg_init(&cfg);
    cmin_opts_t o = {0};
    int at = fz_opt_parse(argc, argv, "+i:o:t:m:qh", &cfg, cmin_opt, &o);
    if (at < 0 || !o.in || !o.out)
        usage();
    cfg.argv = argv + at;
    const char *in = o.in, *out = o.out;
    int quiet = o.quiet;

    cmin_set_t set = {0};
    list_dir(in, &set);
    make_outdir(out);
    fz_exec_t x;
    char err[512] = "";
    if (fz_exec_start(&x, &cfg, 0, err, sizeof err))
        fz_die("%s", err);
    size_t traced = 0;
    for (size_t i = 0; i < set.n; i++)
        traced += trace_file(&x, &set, &set.files[i]);
    if (!traced)
        fz_die("every input in '%s' crashed, hung or was unreadable; nothing to keep", in);
    size_t tuples = select_files(&set);
    fz_exec_stop(&x);
    copy_kept(&set, out);

    size_t kept = 0;
    for (size_t i = 0; i < set.n; i++)
        kept += set.files[i].keep;
    if (!quiet)
        fz_info("%zu files in, %zu kept in '%s', %zu coverage tuples; skipped: %zu crashing, "
                "%zu hanging, %zu too big",
                set.n, kept, out, tuples, set.skipped_crash, set.skipped_hang, set.skipped_big);
    for (size_t i = 0; i < set.n; i++) {
        free(set.files[i].name);
        free(set.files[i].tuples);
    }
    free(set.files);
    return 0;
}
