/*
 * custom.c - AFL++'s custom mutator API (custom.h).  What each function
 * means is AFL++'s (its docs/custom_mutators.md); where fz calls it:
 *
 *   afl_custom_init           once per library, before the target starts,
 *                             seeded from fz-fuzz's generator (-s)
 *   afl_custom_fuzz(_count)   the "custom" stage, right before havoc;
 *                             fuzz_count calls per entry (default: its
 *                             havoc energy); a splice partner from the
 *                             queue unless afl_custom_splice_optout exists
 *   afl_custom_describe       the op: part of the names of what it finds
 *   afl_custom_post_process   every run of the campaign (core/exec.h's
 *                             post hook), libraries chained in list order;
 *                             0 refuses a candidate (no run)
 *   afl_custom_havoc_mutation stacked on havoc's candidates with
 *                             afl_custom_havoc_mutation_probability
 *                             percent (default 6)
 *   afl_custom_init_trim/trim/post_trim  replace the built-in trim
 *   afl_custom_queue_new_entry  after each new queue file (re-read when the
 *                             library says it changed it)
 *   afl_custom_queue_get      0 skips the entry's turn
 *   afl_custom_deinit         at exit
 *
 * As in AFL++ the queue keeps what the mutators made, before
 * post_process: that is what they mutate next.  afl_custom_init gets, for
 * the afl_state_t* it expects, a pointer to FZ_CUSTOM_AFL_STUB bytes of
 * read-only zero pages: a mutator that only stores the pointer (all of
 * AFL++'s examples/) works, one that reads fields sees zeros and one that
 * writes them dies at once instead of corrupting fz-fuzz.
 */
#define _GNU_SOURCE
#include "fz-fuzz/custom.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/fileio.h"
#include "core/opts.h"
#include "fz-config.h"
#include "fz-fuzz/calibrate.h"
#include "fz-fuzz/run.h"
#include "fz-fuzz/jobs-link.h"
#include "fz-fuzz/state.h"
#include "fz-log.h"

/* Libraries in one list (AFL++ allows as many; a few is what is used). */
#define FZ_CUSTOM_MAX 8
/* Bytes of zero pages passed for afl_state_t (AFL++ 4.2x's is ~5 MiB;
 * anything a mutator reads past this would fault). */
#define FZ_CUSTOM_AFL_STUB (8u << 20)
/* AFL++'s default chance of a havoc step being the library's. */
#define FZ_CUSTOM_HAVOC_PCT 6
/* Runs one custom trim may make at most (AFL++ has no cap; a trim that
 * never ends would stall the campaign). */
#define FZ_CUSTOM_TRIM_MAX_EXECS 4096

typedef struct {
    char *path;
    void *so, *data;
    void *(*init)(void *afl, unsigned int seed);
    unsigned int (*fuzz_count)(void *d, const unsigned char *buf, size_t n);
    size_t (*fuzz)(void *d, unsigned char *buf, size_t n, unsigned char **out,
                   unsigned char *add, size_t add_n, size_t max);
    void (*splice_optout)(void *d);
    const char *(*describe)(void *d, size_t max);
    size_t (*post_process)(void *d, unsigned char *buf, size_t n, unsigned char **out);
    int (*init_trim)(void *d, unsigned char *buf, size_t n);
    size_t (*trim)(void *d, unsigned char **out);
    int (*post_trim)(void *d, unsigned char success);
    size_t (*havoc_mutation)(void *d, unsigned char *buf, size_t n, unsigned char **out,
                             size_t max);
    unsigned char (*havoc_probability)(void *d);
    unsigned char (*queue_get)(void *d, const unsigned char *fname);
    unsigned char (*queue_new_entry)(void *d, const unsigned char *fname,
                                     const unsigned char *orig);
    void (*deinit)(void *d);
    unsigned havoc_pct;
} fz_custom_lib_t;

struct fz_custom {
    int n;
    int only;     /* AFL_CUSTOM_MUTATOR_ONLY */
    int has_post; /* some library has post_process */
    fz_custom_lib_t lib[FZ_CUSTOM_MAX];
    void *afl_stub;
    uint8_t *work, *post; /* FZ_MAX_INPUT each */
    char op[64];          /* the op: name of the candidate being run */
    uint32_t skips;       /* entries queue_get refused in a row */
};

/* The list: FZ_CUSTOM_MUTATOR wins over AFL_CUSTOM_MUTATOR_LIBRARY. */
static const char *list_env(void)
{
    const char *v = getenv("FZ_CUSTOM_MUTATOR");
    if (!v || !*v)
        v = getenv("AFL_CUSTOM_MUTATOR_LIBRARY");
    return v && *v ? v : NULL;
}

static void load_one(fz_state_t *st, fz_custom_lib_t *l, const char *path)
{
    l->path = strdup(path);
    l->so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!l->so)
        fz_die("cannot load the custom mutator '%s': %s; give the full path of a shared object "
               "(gcc -shared -fPIC) in AFL_CUSTOM_MUTATOR_LIBRARY",
               path, dlerror());
#define SYM(field, name) *(void **)&l->field = dlsym(l->so, name)
    SYM(init, "afl_custom_init");
    SYM(fuzz_count, "afl_custom_fuzz_count");
    SYM(fuzz, "afl_custom_fuzz");
    SYM(splice_optout, "afl_custom_splice_optout");
    SYM(describe, "afl_custom_describe");
    SYM(post_process, "afl_custom_post_process");
    SYM(init_trim, "afl_custom_init_trim");
    SYM(trim, "afl_custom_trim");
    SYM(post_trim, "afl_custom_post_trim");
    SYM(havoc_mutation, "afl_custom_havoc_mutation");
    SYM(havoc_probability, "afl_custom_havoc_mutation_probability");
    SYM(queue_get, "afl_custom_queue_get");
    SYM(queue_new_entry, "afl_custom_queue_new_entry");
    SYM(deinit, "afl_custom_deinit");
#undef SYM
    if (!l->init)
        fz_die("the custom mutator '%s' has no afl_custom_init, which AFL++'s API requires; "
               "export it (see docs/custom-mutators.md)",
               path);
    l->data = l->init(st->custom->afl_stub, (unsigned int)fz_rng_next(&st->rng));
    if (!l->data)
        fz_die("afl_custom_init of '%s' failed (returned NULL); see its messages above", path);
    l->havoc_pct = FZ_CUSTOM_HAVOC_PCT;
    if (l->havoc_probability) {
        l->havoc_pct = l->havoc_probability(l->data);
        if (l->havoc_pct > 100)
            fz_die("afl_custom_havoc_mutation_probability of '%s' returned %u; it must be 0..100",
                   path, l->havoc_pct);
    }
}

void fz_custom_load(fz_state_t *st)
{
    const char *env = list_env();
    if (!env)
        return;
    struct fz_custom *c = calloc(1, sizeof *c);
    char *list = strdup(env);
    if (!c || !list || !(c->work = malloc(FZ_MAX_INPUT)) || !(c->post = malloc(FZ_MAX_INPUT)))
        fz_die("out of memory");
    c->afl_stub = mmap(NULL, FZ_CUSTOM_AFL_STUB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (c->afl_stub == MAP_FAILED)
        fz_die("cannot map %u bytes for the custom mutators' afl_state_t", FZ_CUSTOM_AFL_STUB);
    st->custom = c;
    char *save = NULL;
    for (char *p = strtok_r(list, ";", &save); p; p = strtok_r(NULL, ";", &save)) {
        if (!*p)
            continue;
        if (c->n == FZ_CUSTOM_MAX)
            fz_die("more than %d custom mutators in AFL_CUSTOM_MUTATOR_LIBRARY; give fewer",
                   FZ_CUSTOM_MAX);
        load_one(st, &c->lib[c->n++], p);
        c->has_post |= c->lib[c->n - 1].post_process != NULL;
    }
    free(list);
    c->only = fz_env_flag("FZ_CUSTOM_MUTATOR_ONLY", "AFL_CUSTOM_MUTATOR_ONLY");
    int fuzzers = 0;
    for (int i = 0; i < c->n; i++)
        fuzzers += c->lib[i].fuzz != NULL;
    if (c->only && !fuzzers)
        fz_die("AFL_CUSTOM_MUTATOR_ONLY is set but no custom mutator has afl_custom_fuzz; "
               "unset it or load one that has");
    fz_info("custom mutators: %d loaded%s", c->n,
            c->only ? " (AFL_CUSTOM_MUTATOR_ONLY: no other mutation stage)" : "");
}

/* core/exec.h's post hook: every library's post_process in list order,
 * on a writable copy (AFL++'s examples change the buffer in place). */
static size_t post_chain(void *ctx, const uint8_t *buf, size_t len, const uint8_t **out)
{
    struct fz_custom *c = ctx;
    if (len > FZ_MAX_INPUT)
        len = FZ_MAX_INPUT;
    memcpy(c->post, buf, len);
    unsigned char *cur = c->post;
    for (int i = 0; i < c->n; i++) {
        if (!c->lib[i].post_process)
            continue;
        unsigned char *o = NULL;
        len = c->lib[i].post_process(c->lib[i].data, cur, len, &o);
        if (!len || !o)
            return 0;
        if (len > FZ_MAX_INPUT)
            len = FZ_MAX_INPUT;
        cur = o;
    }
    *out = cur;
    return len;
}

void fz_custom_started(fz_state_t *st)
{
    struct fz_custom *c = st->custom;
    if (!c || !c->has_post)
        return;
    st->exec.post = post_chain;
    st->exec.post_ctx = c;
}

int fz_custom_post_refuses(fz_state_t *st, const uint8_t *buf, size_t len)
{
    const uint8_t *out;
    struct fz_custom *c = st->custom;
    return c && c->has_post && post_chain(c, buf, len, &out) == 0;
}

void fz_custom_unload(fz_state_t *st)
{
    struct fz_custom *c = st->custom;
    if (!c)
        return;
    for (int i = 0; i < c->n; i++) {
        if (c->lib[i].deinit)
            c->lib[i].deinit(c->lib[i].data);
        /* Not dlclose'd: a library's destructors or atexit handlers may
         * still run at exit. */
        free(c->lib[i].path);
    }
    st->exec.post = NULL;
    free(c->work);
    free(c->post);
    munmap(c->afl_stub, FZ_CUSTOM_AFL_STUB);
    free(c);
    st->custom = NULL;
}

int fz_custom_only(const fz_state_t *st)
{
    return st->custom && st->custom->only;
}

/* describe's text as a file-name-safe op: name. */
static const char *op_name(struct fz_custom *c, fz_custom_lib_t *l)
{
    const char *d = l->describe ? l->describe(l->data, sizeof c->op - 1) : NULL;
    if (!d || !*d)
        return "custom";
    size_t i = 0;
    for (; d[i] && i < sizeof c->op - 1; i++) {
        char ch = d[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '_' || ch == '-' || ch == '.';
        c->op[i] = ok ? ch : '_';
    }
    c->op[i] = 0;
    return c->op;
}

void fz_custom_stage(fz_state_t *st, fz_entry_t *e, uint8_t *buf)
{
    struct fz_custom *c = st->custom;
    if (!c)
        return;
    size_t max = fz_maxlen_custom(&st->len);
    for (int i = 0; i < c->n && !fz_run_should_stop(st); i++) {
        fz_custom_lib_t *l = &c->lib[i];
        if (!l->fuzz)
            continue;
        uint32_t rounds = l->fuzz_count ? l->fuzz_count(l->data, e->data, e->len)
                                        : fz_queue_energy(&st->queue, e);
        for (uint32_t r = 0; r < rounds && !fz_run_should_stop(st) && !fz_jobs_pending(st); r++) {
            const fz_entry_t *p = NULL;
            if (!l->splice_optout && st->queue.n > 1) {
                uint32_t other = fz_rng_below(&st->rng, st->queue.n - 1);
                p = st->queue.e[other >= e->id ? other + 1 : other];
            }
            memcpy(buf, e->data, e->len);
            unsigned char *out = NULL;
            size_t n = l->fuzz(l->data, buf, e->len, &out, p ? p->data : NULL, p ? p->len : 0, max);
            if (!n || !out)
                continue; /* AFL++: a length of 0 skips this result */
            if (n > max)
                n = max;
            fz_origin_t o = {.op = "custom", .src = e->id};
            if (l->describe) {
                /* The name comes from the mutation just made: run it now,
                 * not in a batch after the next one. */
                fz_run_flush(st);
                o.op = op_name(c, l);
                if (!fz_custom_post_refuses(st, out, n))
                    fz_run_one(st, out, (uint32_t)n, &o);
                continue;
            }
            fz_run_push(st, out, (uint32_t)n, &o);
        }
        fz_run_flush(st);
    }
}

size_t fz_custom_havoc(fz_state_t *st, uint8_t *buf, size_t len, size_t max)
{
    struct fz_custom *c = st->custom;
    if (!c)
        return len;
    for (int i = 0; i < c->n; i++) {
        fz_custom_lib_t *l = &c->lib[i];
        if (!l->havoc_mutation || fz_rng_below(&st->rng, 100) >= l->havoc_pct)
            continue;
        unsigned char *out = NULL;
        size_t n = l->havoc_mutation(l->data, buf, len, &out, max);
        if (!n || !out)
            continue;
        if (n > max)
            n = max;
        if (out != buf)
            memmove(buf, out, n);
        len = n;
    }
    return len;
}

/* A trimmed input keeps the entry's coverage: every slot calibration did
 * not see change holds the same bucket bits. */
static int same_map(const fz_state_t *st, const uint8_t *want, const fz_exec_rec_t *rec)
{
    if (rec->result != FZ_RUN_OK || !rec->map)
        return 0;
    for (uint32_t k = 0; k < rec->map_size; k++)
        if (!st->calib.var_map[k] && rec->map[k] != want[k])
            return 0;
    return 1;
}

int fz_custom_trim(fz_state_t *st, fz_entry_t *e)
{
    struct fz_custom *c = st->custom;
    fz_custom_lib_t *l = NULL;
    for (int i = 0; c && i < c->n && !l; i++)
        if (c->lib[i].init_trim && c->lib[i].trim && c->lib[i].post_trim)
            l = &c->lib[i];
    if (!l)
        return 0;
    fz_exec_t *x = &st->exec;
    fz_exec_rec_t rec;
    /* A run that loses the target saves its input as a crash (run-again.h). */
    fz_origin_t o = {.op = "trim", .src = e->id};
    fz_run_result_t r = fz_run_again(st, e->data, e->len, 0, &rec, &o, "trimming");
    st->stats.min_execs++;
    if (r != FZ_RUN_OK)
        return 1;
    uint8_t *want = malloc(x->map_size);
    if (!want)
        fz_die("out of memory");
    memcpy(want, rec.map, x->map_size);
    memcpy(c->work, e->data, e->len);
    size_t cur = e->len;
    int steps = l->init_trim(l->data, c->work, cur);
    uint64_t work = e->work;
    for (int idx = 0, runs = 0; idx < steps && runs < FZ_CUSTOM_TRIM_MAX_EXECS &&
                                !fz_run_should_stop(st);
         runs++) {
        unsigned char *out = NULL;
        size_t n = l->trim(l->data, &out);
        int ok = 0;
        if (out && n && n <= FZ_MAX_INPUT) {
            r = fz_run_again(st, out, (uint32_t)n, 0, &rec, &o, "trimming");
            st->stats.min_execs++;
            ok = same_map(st, want, &rec);
            if (ok) {
                memmove(c->work, out, n);
                cur = n;
                work = fz_calib_work(rec.map, rec.map_size);
            }
        }
        idx = l->post_trim(l->data, (unsigned char)ok);
    }
    free(want);
    if (cur < e->len) {
        fz_queue_shrink(&st->queue, e, c->work, (uint32_t)cur, work);
        fz_outdir_save(&st->out, "queue", e->fname, e->data, e->len);
    }
    return 1;
}

void fz_custom_new_entry(fz_state_t *st, fz_entry_t *e, const char *parent)
{
    struct fz_custom *c = st->custom;
    if (!c)
        return;
    char *path = fz_path_join(st->out.dir, "queue", e->fname);
    char *orig = parent ? fz_path_join(st->out.dir, "queue", parent) : NULL;
    int changed = 0;
    for (int i = 0; i < c->n; i++)
        if (c->lib[i].queue_new_entry)
            changed |= c->lib[i].queue_new_entry(c->lib[i].data, (const unsigned char *)path,
                                                 (const unsigned char *)orig) != 0;
    if (changed) {
        size_t n;
        uint8_t *d = fz_file_read(path, FZ_MAX_INPUT, FZ_FILE_REGULAR, &n);
        if (d && n <= e->len)
            fz_queue_shrink(&st->queue, e, d, (uint32_t)n, e->work);
        else if (d && (e->data = realloc(e->data, n))) {
            memcpy(e->data, d, n);
            e->len = (uint32_t)n;
        } else if (!d)
            fz_warn("a custom mutator changed '%s' and it cannot be read back; the entry keeps "
                    "its bytes",
                    path);
        free(d);
    }
    free(orig);
    free(path);
}

int fz_custom_skip_entry(fz_state_t *st, fz_entry_t *e)
{
    struct fz_custom *c = st->custom;
    if (!c)
        return 0;
    char *path = NULL;
    int skip = 0;
    for (int i = 0; i < c->n && !skip; i++) {
        if (!c->lib[i].queue_get)
            continue;
        if (!path)
            path = fz_path_join(st->out.dir, "queue", e->fname);
        skip = c->lib[i].queue_get(c->lib[i].data, (const unsigned char *)path) == 0;
    }
    free(path);
    /* Every entry refused: the campaign would stop making runs (and -E
     * would never end it), so the turn is taken anyway. */
    if (skip && ++c->skips > st->queue.n) {
        if (c->skips == st->queue.n + 1)
            fz_warn("afl_custom_queue_get refused every queue entry; fuzzing them anyway");
        return 0;
    }
    if (!skip)
        c->skips = 0;
    return skip;
}
