/*
 * i2s.c - the input-to-state stage, chained-check repair and automatic
 * dictionary (see i2s.h for the idea; mutators/cmpedit.c makes the edits).
 * Every target run goes through the context's run (run.h's fz_run_traced),
 * which judges and saves the candidate like any other; this file only
 * decides what to try next, from what the context hands it.
 * No decision reads the clock, so -s SEED -E N stays reproducible.
 */
#include "fz-fuzz/i2s.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/opts.h"
#include "fz-config.h"
#include "fz-hash.h"
#include "fz-log.h"

#define SEEN_CAP 65536u /* keys per entry; past half full nothing more is recorded */

static void keys_init(fz_i2s_keys_t *s, uint32_t cap)
{
    s->cap = cap;
    s->n = 0;
    s->k = calloc(cap, sizeof *s->k);
    if (!s->k)
        fz_die("out of memory");
}

static void keys_clear(fz_i2s_keys_t *s)
{
    memset(s->k, 0, (size_t)s->cap * sizeof *s->k);
    s->n = 0;
}

/* 1 if key is in s; else adds it (while s is less than half full) and
 * returns 0. */
static int keys_test_add(fz_i2s_keys_t *s, uint64_t key, int add)
{
    key = key ? key : 1;
    uint32_t mask = s->cap - 1;
    for (uint32_t i = (uint32_t)key & mask;; i = (i + 1) & mask) {
        if (s->k[i] == key)
            return 1;
        if (!s->k[i]) {
            if (add && s->n < s->cap / 2) {
                s->k[i] = key;
                s->n++;
            }
            return 0;
        }
    }
}

/* No compare hooks in the target: the state's words and what to do. */
#define NO_HOOKS "the target has no compare hooks"
#define NO_HOOKS_FIX                                                                              \
    "; build it with this fz-cc / fz-clang (an older fz, afl-cc or a FZ_NO_CMP=1 build has none)"

static void set_state(fz_i2s_t *I, int on, const char *why)
{
    I->on = on;
    snprintf(I->state, sizeof I->state, on ? "on" : "off (%s)", why);
}

/* -c BINARY: what afl-fuzz means by it, and what fz does instead. */
static void check_c_option(const fz_cfg_t *cfg)
{
    const char *c = cfg->cmplog_bin;
    if (!c || !strcmp(c, "0"))
        return;
    char *a = fz_fsrv_find_program(c), *b = fz_fsrv_find_program(cfg->target_argv[0]);
    char *ra = a ? realpath(a, NULL) : NULL, *rb = b ? realpath(b, NULL) : NULL;
    if (!ra || !rb || strcmp(ra, rb))
        fz_warn("-c %s: fz reads comparisons from the fuzzed binary's own hooks (every fz-cc "
                "build has them), so this binary is not run; an AFL++ CmpLog build "
                "(AFL_LLVM_CMPLOG=1) writes AFL++'s own log layout, which fz does not read. "
                "Use -c 0, or leave -c out",
                c);
    free(a);
    free(b);
    free(ra);
    free(rb);
}

void fz_i2s_setup(fz_i2s_t *I, const fz_cfg_t *cfg, fz_fsrv_cfg_t *fcfg)
{
    memset(I, 0, sizeof *I);
    I->shm.id = -1;
    fz_dict_init(&I->dict);
    if (cfg->target_argv)
        check_c_option(cfg);
    if (fz_env_flag("FZ_NO_CMPLOG", NULL)) {
        set_state(I, 0, "FZ_NO_CMPLOG=1");
        return;
    }
    if (cfg->blind) {
        set_state(I, 0, "-n blind mode");
        return;
    }
    char err[512];
    if (fz_cmplog_create(&I->shm, err, sizeof err)) {
        fz_warn("%s", err);
        set_state(I, 0, "no shared memory for the log");
        return;
    }
    fcfg->cmplog = 1;
    fcfg->cmplog_shm_id = I->shm.id;
    set_state(I, 1, "");
}

static void alloc_work(fz_i2s_t *I)
{
    for (int i = 0; i < FZ_I2S_LISTS; i++)
        if (fz_cmp_list_init(&I->lists[i], FZ_I2S_RECORDS))
            fz_die("out of memory");
    for (size_t i = 0; i < sizeof I->bufs / sizeof I->bufs[0]; i++)
        if (!(I->bufs[i] = malloc(FZ_MAX_INPUT)))
            fz_die("out of memory");
    keys_init(&I->seen, SEEN_CAP);
    keys_init(&I->failed, FZ_I2S_FAILED_CAP);
}

void fz_i2s_started(fz_i2s_t *I, int has_hooks)
{
    const char *fix = "";
    if (I->on && !has_hooks) {
        set_state(I, 0, NO_HOOKS);
        fz_cmplog_destroy(&I->shm);
        fix = NO_HOOKS_FIX;
    }
    if (I->on)
        alloc_work(I);
    fz_info("comparison feedback: %s%s", I->state, fix);
}

void fz_i2s_free(fz_i2s_t *I)
{
    for (int i = 0; i < FZ_I2S_LISTS; i++)
        fz_cmp_list_free(&I->lists[i]);
    for (size_t i = 0; i < sizeof I->bufs / sizeof I->bufs[0]; i++)
        free(I->bufs[i]);
    free(I->seen.k);
    free(I->failed.k);
    fz_cmplog_destroy(&I->shm);
    fz_dict_free(&I->dict);
}

/* Returns 1 if key was seen on this entry, and records it. */
static int seen(fz_i2s_t *I, uint64_t key)
{
    return keys_test_add(&I->seen, key, 1);
}

/* A comparison at its site, for the failed set.  Another entry that makes
 * the same site compare the same operands would get the same edits: if
 * they found nothing once, they are skipped (the queue's entries share
 * most of their comparisons, so this is most of the stage's cost). */
static uint64_t failed_key(const fz_cmp_rec_t *r)
{
    return fz_cmp_key(r) ^ ((uint64_t)r->slot + 1) * 0x9e3779b97f4a7c15ull;
}

static void mark_failed(fz_i2s_t *I, const fz_cmp_rec_t *r)
{
    if (I->failed.n >= I->failed.cap / 2)
        keys_clear(&I->failed); /* full: forget, and learn again */
    keys_test_add(&I->failed, failed_key(r), 1);
}

static void collect_tokens(fz_i2s_t *I, const fz_cmp_list_t *l, const uint8_t *in, size_t len);

/* Longest candidate: the length limit havoc keeps to, but never shorter
 * than the input being edited (maxlen.h). */
static size_t room(const fz_i2s_ctx_t *c, size_t len)
{
    return fz_maxlen_room(c->len, len);
}

static int out_of_budget(const fz_i2s_ctx_t *c)
{
    return c->i2s->execs >= c->i2s->stop_execs || c->stop(c->ctx);
}

/* One logging run of a candidate; its comparisons land in *log.  Returns
 * 1 if it found something (a queue entry or a new unique crash). */
static int try_input(const fz_i2s_ctx_t *c, uint32_t src, const uint8_t *buf, size_t len,
                     const char *op, fz_cmp_list_t *log)
{
    fz_i2s_t *I = c->i2s;
    fz_origin_t o = {.op = op, .src = src};
    int found = c->run(c->ctx, buf, (uint32_t)len, &o, 1, NULL);
    I->execs++;
    fz_cmp_list_read(log, I->shm.log);
    I->finds += (uint64_t)found;
    if (found) /* a new path: its constants are new too */
        collect_tokens(I, log, buf, len);
    return found;
}

/* Compared constants and strings that look like tokens join the
 * automatic dictionary. */
static void collect_tokens(fz_i2s_t *I, const fz_cmp_list_t *l, const uint8_t *in, size_t len)
{
    uint8_t tok[FZ_CMP_STR_MAX];
    for (uint32_t i = 0; i < l->n && I->dict.count < FZ_I2S_DICT_MAX; i++) {
        const fz_cmp_rec_t *r = &l->r[i];
        for (int side = 0; side < 2; side++) {
            size_t n = fz_cmpedit_token(r, side, in, len, tok);
            if (n)
                fz_dict_add(&I->dict, tok, n);
        }
    }
}

/* A copy of the entry with bytes changed, and the comparisons of its
 * logging run. */
typedef struct {
    const fz_cmp_list_t *log;
    const uint8_t *in;
} coloured_t;

typedef struct {
    const uint8_t *in;
    size_t len;
    const fz_cmp_list_t *log; /* the comparisons of `in` */
    /* Depth 0 only: every byte coloured, and the sweep's copy (bytes
     * coloured where that kept the entry's way; log NULL if none). */
    coloured_t all, swept;
    int depth;
    const fz_cmp_list_t *prev; /* the parent level's log (depth > 0) */
} level_t;

static int solve(const fz_i2s_ctx_t *c, uint32_t src, const level_t *lv);

/* A candidate broke checks its parent passed (a length or checksum over
 * the bytes it changed): fix them one by one, each fix a logging run,
 * until the candidate finds something or a round fixes nothing. */
static int repair(const fz_i2s_ctx_t *c, uint32_t src, const level_t *lv, uint8_t *cur,
                  size_t cur_len)
{
    fz_i2s_t *I = c->i2s;
    int d = lv->depth;
    fz_cmp_list_t *now = &I->lists[3 + 3 * d];
    uint8_t *trial = I->bufs[3 * d + 1], *keep = I->bufs[3 * d + 2];
    fz_cmpedit_t edits[FZ_I2S_REPAIR_EDITS];
    for (int round = 1; round <= FZ_I2S_REPAIR_ROUNDS; round++) {
        uint32_t broken[FZ_I2S_REPAIR_CHECKS];
        uint32_t nb = fz_cmp_broken(lv->log, now, broken, FZ_I2S_REPAIR_CHECKS);
        int fixed = 0;
        for (uint32_t b = 0; b < nb && !fixed; b++) {
            fz_cmp_rec_t want = now->r[broken[b]];
            size_t ne = fz_cmpedit_make(&want, cur, cur_len, NULL, NULL, FZ_CMPEDIT_DRIVEN, edits,
                                     FZ_I2S_REPAIR_EDITS);
            for (size_t k = 0; k < ne && !fixed; k++) {
                if (out_of_budget(c))
                    return 0;
                size_t tl = fz_cmpedit_apply(cur, cur_len, &edits[k], trial, room(c, cur_len));
                if (seen(I, fz_hash_bytes(trial, tl)))
                    continue;
                char op[32];
                snprintf(op, sizeof op, "i2s,rep:%d", round);
                fz_cmp_list_t *tl_log = &I->lists[4 + 3 * d];
                if (try_input(c, src, trial, tl, op, tl_log)) {
                    if (d + 1 < FZ_I2S_DEPTH) {
                        level_t next = {trial, tl, tl_log, {0}, {0}, d + 1, now};
                        solve(c, src, &next);
                    }
                    return 1;
                }
                const fz_cmp_rec_t *r = fz_cmp_list_find(tl_log, want.slot, want.idx);
                if (r && fz_cmp_equal(r)) { /* this check passes now: go on from here */
                    memcpy(keep, trial, tl);
                    cur = keep;
                    cur_len = tl;
                    fz_cmp_list_t t = *now;
                    *now = *tl_log;
                    *tl_log = t;
                    fixed = 1;
                }
            }
        }
        if (!fixed)
            return 0;
    }
    return 0;
}

/* r's taint rank at the top (fz_cmp_taint_rank).  The run with every
 * byte coloured says it where it reached r; past a check that colour
 * broke, the swept run (which kept the entry's way) can say r follows
 * the input, but not that it does not: its uncoloured bytes may feed r. */
static int top_rank(const level_t *lv, const fz_cmp_rec_t *r)
{
    int rank = fz_cmp_taint_rank(r, lv->all.log);
    if (rank == 1 && lv->swept.log && fz_cmp_taint_rank(r, lv->swept.log) == 0)
        rank = 0;
    return rank;
}

/* r's record in a coloured run that reached it (the all-coloured one
 * first), and that run's input in *cin; NULL if none did. */
static const fz_cmp_rec_t *coloured_rec(const level_t *lv, const fz_cmp_rec_t *r,
                                        const uint8_t **cin)
{
    const coloured_t *runs[2] = {&lv->all, &lv->swept};
    for (int k = 0; k < 2; k++) {
        const fz_cmp_rec_t *cr =
            runs[k]->log ? fz_cmp_list_find(runs[k]->log, r->slot, r->idx) : NULL;
        if (cr) {
            *cin = runs[k]->in;
            return cr;
        }
    }
    *cin = NULL;
    return NULL;
}

/* Does r follow the input?  At the top the coloured runs say so; deeper,
 * a comparison the last edit changed (or first reached) does. */
static int driven(const level_t *lv, const fz_cmp_rec_t *r)
{
    if (lv->all.log)
        return top_rank(lv, r) == 0;
    return lv->prev && fz_cmp_taint_rank(r, lv->prev) < 2;
}

/* Indices of lv->log's records by taint rank (input-driven first; deeper
 * levels have no coloured runs, so all rank as unknown). */
static uint32_t rank_records(const level_t *lv, uint32_t *order)
{
    uint32_t n = 0;
    for (int want = 0; want <= 2; want++)
        for (uint32_t i = 0; i < lv->log->n; i++)
            if (top_rank(lv, &lv->log->r[i]) == want)
                order[n++] = i;
    return n;
}

/* The candidate whose log is clog made r come out equal and broke no
 * check its parent passed: a step, even if coverage did not change (a
 * compiler may test `a[0] == 'F' && a[1] == 'Z'` as one branch). */
static int made_equal(const level_t *lv, const fz_cmp_list_t *clog, const fz_cmp_rec_t *r)
{
    const fz_cmp_rec_t *now = fz_cmp_list_find(clog, r->slot, r->idx);
    uint32_t broken;
    return now && now->type == r->type && fz_cmp_equal(now) &&
           !fz_cmp_broken(lv->log, clog, &broken, 1);
}

/* Tries the edits of every comparison of lv; a find is solved further at
 * once (the next check behind it), and so is a candidate that made its
 * comparison equal without a find; a candidate that broke a check is
 * repaired.  Returns 1 if anything was found. */
static int solve(const fz_i2s_ctx_t *c, uint32_t src, const level_t *lv)
{
    int any = 0;
    fz_i2s_t *I = c->i2s;
    int d = lv->depth;
    uint32_t *order = malloc((lv->log->n ? lv->log->n : 1) * sizeof *order);
    if (!order)
        fz_die("out of memory");
    uint32_t n = rank_records(lv, order);
    uint8_t *out = I->bufs[3 * d];
    fz_cmp_list_t *clog = &I->lists[3 + 3 * d];
    fz_cmpedit_t edits[FZ_I2S_EDITS];
    for (uint32_t k = 0; k < n && !out_of_budget(c); k++) {
        fz_cmp_rec_t r = lv->log->r[order[k]];
        if (seen(I, fz_cmp_key(&r)))
            continue; /* this pair was tried on this entry: a loop, or a parent's */
        if (keys_test_add(&I->failed, failed_key(&r), 0)) {
            I->skipped++;
            continue;
        }
        const uint8_t *cin;
        const fz_cmp_rec_t *cr = coloured_rec(lv, &r, &cin);
        unsigned fl = driven(lv, &r) ? FZ_CMPEDIT_DRIVEN : 0;
        size_t ne = fz_cmpedit_make(&r, lv->in, lv->len, cr, cin, fl, edits, FZ_I2S_EDITS);
        int found = 0, step = 0;
        size_t j = 0;
        for (; j < ne && !found && !step && !out_of_budget(c); j++) {
            size_t ol = fz_cmpedit_apply(lv->in, lv->len, &edits[j], out, room(c, lv->len));
            if (seen(I, fz_hash_bytes(out, ol)))
                continue;
            level_t next = {out, ol, clog, {0}, {0}, d + 1, lv->log};
            if (try_input(c, src, out, ol, "i2s", clog)) {
                found = 1;
                if (d + 1 < FZ_I2S_DEPTH)
                    solve(c, src, &next);
            } else if (made_equal(lv, clog, &r)) {
                step = 1;
                if (d + 1 < FZ_I2S_DEPTH)
                    found = solve(c, src, &next);
            } else {
                found = repair(c, src, lv, out, ol);
            }
        }
        if (!found && j == ne)
            mark_failed(I, &r); /* every edit tried, none found anything */
        any |= found;
    }
    free(order);
    return any;
}

/* A copy of the entry with every byte changed (from the seeded RNG), for
 * the one run that tells which comparisons follow the input. */
static void colour(fz_rng_t *rng, const uint8_t *in, size_t len, uint8_t *out)
{
    for (size_t i = 0; i < len; i++) {
        uint8_t v = (uint8_t)fz_rng_below(rng, 255) + 1;
        out[i] = in[i] ^ v;
    }
}

/* One plain run of the sweep, counted as the stage's and the sweep's;
 * *way gets the way it went. */
static void sweep_run(const fz_i2s_ctx_t *c, const uint8_t *buf, uint32_t len,
                      const fz_origin_t *o, fz_run_way_t *way)
{
    fz_i2s_t *I = c->i2s;
    uint64_t found = (uint64_t)c->run(c->ctx, buf, len, o, 0, way);
    I->execs++, I->colour_execs++;
    I->finds += found, I->colour_finds += found;
}

/* The colour sweep: the coloured copy's bytes over ranges of the entry,
 * the biggest first (its halves, then quarters, ...).  A range whose colour
 * leaves the way the run goes as the entry's stays coloured, so the ranges
 * after it are tried over it; one that changes the way is put back and its
 * halves are tried later.  Each run is judged like any other (op:colour):
 * it is a sweep of wide random changes that narrows onto the bytes that
 * decide the way (a decoder's header and tables), where havoc's few-byte
 * chains seldom change enough at once.  The runs are plain ones, the
 * entry's own first (a logging run's map may differ a little from a plain
 * run's); at most FZ_I2S_COLOUR_RUNS, twice the entry's length and half
 * the entry's budget in all.  A range whose colour makes the target hang
 * is put back and not split: the map stops wherever the kill found the
 * target, so it says nothing about the halves, and each half that holds
 * the bytes that made it hang would cost a timeout again.  The second
 * hang ends the sweep (FZ_I2S_COLOUR_HANGS).  buf is left holding the
 * entry with the ranges that kept its way coloured; returns 1 if that is
 * neither the entry nor the whole coloured copy, so that its logging run
 * reaches the checks behind the first one the coloured copy broke. */
static int colour_sweep(const fz_i2s_ctx_t *c, uint32_t src, const uint8_t *data, uint32_t len,
                        const uint8_t *cin, uint8_t *buf)
{
    fz_i2s_t *I = c->i2s;
    uint64_t left = I->stop_execs > I->execs ? I->stop_execs - I->execs : 0;
    uint64_t runs = (uint64_t)len * 2, half = left / 2;
    if (runs > half)
        runs = half;
    if (runs > FZ_I2S_COLOUR_RUNS)
        runs = FZ_I2S_COLOUR_RUNS;
    if (len < 2 || runs < 2)
        return 0;
    uint64_t stop = I->execs + runs, hangs = 0;
    fz_origin_t o = {.op = "colour", .src = src};
    fz_run_way_t base, way;
    sweep_run(c, data, len, &o, &base);
    if (base.result == FZ_RUN_HANG)
        return 0;
    /* A ring of ranges (start, size): each run takes one and adds at most
     * two, so runs + 2 of them never overflow it. */
    uint32_t cap = (uint32_t)runs + 2, head = 0, n = 2, (*ring)[2] = malloc(cap * sizeof *ring);
    if (!ring)
        fz_die("out of memory");
    memcpy(buf, data, len);
    ring[0][0] = 0, ring[0][1] = len / 2;
    ring[1][0] = len / 2, ring[1][1] = len - len / 2;
    while (n && I->execs < stop && !out_of_budget(c)) {
        uint32_t at = ring[head][0], size = ring[head][1];
        head = (head + 1) % cap, n--;
        memcpy(buf + at, cin + at, size);
        if (seen(I, fz_hash_bytes(buf, len))) {
            memcpy(buf + at, data + at, size);
            continue;
        }
        sweep_run(c, buf, len, &o, &way);
        if (way.result == base.result && way.map_hash == base.map_hash)
            continue; /* the range stays coloured */
        memcpy(buf + at, data + at, size);
        if (way.result == FZ_RUN_HANG) {
            if (++hangs == FZ_I2S_COLOUR_HANGS)
                break;
            continue;
        }
        for (uint32_t k = 0; k < 2 && size > 1; k++) {
            uint32_t t = (head + n) % cap;
            ring[t][0] = k ? at + size / 2 : at;
            ring[t][1] = k ? size - size / 2 : size / 2;
            n++;
        }
    }
    free(ring);
    return memcmp(buf, data, len) && memcmp(buf, cin, len);
}

void fz_i2s_stage(const fz_i2s_ctx_t *c, uint32_t id, const uint8_t *data, uint32_t len)
{
    fz_i2s_t *I = c->i2s;
    if (!I->on || c->stop(c->ctx))
        return;
    I->stop_execs = I->execs + c->budget;
    keys_clear(&I->seen);
    seen(I, fz_hash_bytes(data, len));
    fz_cmp_list_t *log = &I->lists[0], *clog = &I->lists[1];
    try_input(c, id, data, len, "i2s", log);
    if (!log->n)
        return; /* nothing compared: nothing to solve */
    collect_tokens(I, log, data, len);
    uint8_t *cin = I->bufs[3 * FZ_I2S_DEPTH];
    colour(c->rng, data, len, cin);
    seen(I, fz_hash_bytes(cin, len));
    try_input(c, id, cin, len, "i2s", clog);
    uint8_t *sin = I->bufs[3 * FZ_I2S_DEPTH + 1];
    fz_cmp_list_t *slog = &I->lists[2];
    level_t top = {data, len, log, {clog, cin}, {NULL, sin}, 0, NULL};
    if (colour_sweep(c, id, data, len, cin, sin) && !out_of_budget(c)) {
        try_input(c, id, sin, len, "i2s", slog);
        top.swept.log = slog;
    }
    solve(c, id, &top);
}
