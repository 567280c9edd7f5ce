/*
 * exec.c - one run in, one record out (see exec.h).
 */
#include "core/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/coverage.h"
#include "core/fsrv-priv.h"
#include "fz-config.h"

static fz_virgin_kind_t kind_of(fz_run_result_t r)
{
    return r == FZ_RUN_CRASH ? FZ_VIRGIN_CRASH : r == FZ_RUN_HANG ? FZ_VIRGIN_HANG : FZ_VIRGIN_QUEUE;
}

/* Blind mode keys: one bit per crash signal, bit 0 for hangs. */
static uint64_t blind_key(const fz_exec_rec_t *rec)
{
    return rec->result == FZ_RUN_CRASH ? 1ull << (rec->signal & 63) : 1ull;
}

int fz_exec_start(fz_exec_t *x, const fz_fsrv_cfg_t *cfg, int flags, char *err, size_t errlen)
{
    memset(x, 0, sizeof(*x));
    fz_fsrv_cfg_t c = *cfg;
    /* Batches need our queue virgin map in the target's reach. */
    c.batch = (flags & FZ_EXEC_VIRGIN) && !(flags & FZ_EXEC_RAW);
    x->fs = malloc(sizeof *x->fs);
    if (!x->fs) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (fz_fsrv_start(x->fs, &c, err, errlen) != 0) {
        free(x->fs);
        x->fs = NULL;
        return -1;
    }
    x->map_size = x->fs->map_size;
    x->timeout_ms = x->fs->cfg.timeout_ms;
    x->blind = x->fs->handshake_version < 0;
    x->batch = x->fs->batch;
    x->seg = x->fs->shm.batch;
    x->raw = (flags & FZ_EXEC_RAW) != 0;
    if (!(flags & FZ_EXEC_VIRGIN) || x->raw)
        return 0;
    for (int k = 0; k < FZ_VIRGIN_KINDS; k++) {
        if (k == FZ_VIRGIN_QUEUE && x->fs->batch) {
            /* The target judges batch runs against this one: shared. */
            x->virgin[k] = x->fs->shm.virgin;
            fz_cov_virgin_init(x->virgin[k], x->map_size);
            continue;
        }
        /* Coverage functions read 64-bit words: keep maps 8-byte aligned. */
        void *p = NULL;
        if (posix_memalign(&p, 64, x->map_size ? x->map_size : 64) != 0) {
            fz_exec_stop(x);
            snprintf(err, errlen, "out of memory (%u bytes for a coverage map)", x->map_size);
            return -1;
        }
        x->virgin[k] = p;
        fz_cov_virgin_init(x->virgin[k], x->map_size);
    }
    return 0;
}

/* Lets go of the suspects' memory (suspect() allocates it again). */
static void suspects_free(fz_exec_t *x)
{
    free(x->sus_bytes);
    free(x->sus);
    x->sus_bytes = NULL;
    x->sus = NULL;
    x->sus_first = x->sus_n = 0;
}

void fz_exec_stop(fz_exec_t *x)
{
    suspects_free(x);
    for (int k = 0; k < FZ_VIRGIN_KINDS; k++) {
        if (!x->fs || x->virgin[k] != x->fs->shm.virgin)
            free(x->virgin[k]);
        x->virgin[k] = NULL;
    }
    x->batch_n = x->batch_used = 0;
    if (x->fs) {
        fz_fsrv_stop(x->fs);
        free(x->fs);
        x->fs = NULL;
    }
}

int fz_exec_restart(fz_exec_t *x, char *err, size_t errlen)
{
    x->batch_n = x->batch_used = 0;
    x->sus_n = x->broke_n = 0; /* nothing run before can kill the new forkserver */
    int rc = fz_fsrv_restart(x->fs, err, errlen);
    x->batch = x->fs->batch;
    return rc;
}

void fz_exec_set_timeout(fz_exec_t *x, uint32_t timeout_ms)
{
    x->timeout_ms = timeout_ms ? timeout_ms : x->fs->cfg.timeout_ms;
}

/* Turns the last run's outcome (fs->last_*, the raw map) into rec, whose
 * result and timeout are set: classifies the map and judges it. */
static fz_run_result_t finish(fz_exec_t *x, fz_exec_rec_t *rec)
{
    rec->exec_us = x->last_exec_us = x->fs->last_exec_us;
    x->execs = x->fs->total_execs;
    rec->map_size = x->map_size;
    rec->where = &x->fs->last_site;
    if (rec->result == FZ_RUN_ERROR) {
        rec->exit_code = -1;
        rec->signal = x->fs->broke_signal; /* the forkserver's death, if the run caused it */
        return rec->result;
    }
    rec->signal = x->fs->last_signal;
    rec->site = x->fs->last_site.hash;
    rec->cut = x->fs->last_cut;
    rec->exit_code = x->fs->last_exit_code;
    fz_virgin_kind_t k = kind_of(rec->result);
    if (x->blind) {
        if (x->virgin[k] && rec->result != FZ_RUN_OK && !(x->blind_seen[k] & blind_key(rec)))
            rec->new_bits = FZ_COV_NEW_EDGE;
        return rec->result;
    }
    rec->map = x->fs->trace_bits;
    if (x->raw)
        return rec->result;
    if (x->virgin[k])
        rec->new_bits = fz_cov_classify_judge(x->virgin[k], x->fs->trace_bits, x->map_size);
    else
        fz_cov_classify(x->fs->trace_bits, x->map_size);
    return rec->result;
}

/* Direct mode: keeps the input of the run about to start among the
 * suspects, dropping the oldest ones it overwrites (none are kept when
 * there is no memory for them). */
static void suspect(fz_exec_t *x, const uint8_t *buf, size_t len)
{
    const uint64_t cap = FZ_EXEC_SUSPECT_BYTES;
    if (!x->sus_bytes) {
        x->sus_bytes = malloc(cap);
        x->sus = malloc(FZ_EXEC_SUSPECTS * sizeof x->sus[0]);
        x->sus_first = x->sus_n = 0;
        if (!x->sus_bytes || !x->sus) {
            suspects_free(x);
            return;
        }
    }
    if (len > FZ_MAX_INPUT)
        len = FZ_MAX_INPUT;
    uint64_t at = x->sus_end;
    if (at % cap + len > cap)
        at += cap - at % cap; /* to the start of sus_bytes */
    /* The stream's last cap bytes end at at + len: a record that starts
     * before them is overwritten. */
    while (x->sus_n && (x->sus_n == FZ_EXEC_SUSPECTS || x->sus[x->sus_first].at + cap < at + len)) {
        x->sus_first = (x->sus_first + 1) % FZ_EXEC_SUSPECTS;
        x->sus_n--;
    }
    memcpy(x->sus_bytes + at % cap, buf, len);
    x->sus[(x->sus_first + x->sus_n) % FZ_EXEC_SUSPECTS] =
        (struct fz_exec_suspect){.at = at, .len = (uint32_t)len};
    x->sus_n++;
    x->sus_end = at + len;
}

fz_run_result_t fz_exec_run(fz_exec_t *x, const uint8_t *buf, size_t len, uint32_t timeout_ms,
                            fz_exec_rec_t *rec)
{
    memset(rec, 0, sizeof(*rec));
    rec->timeout_ms = timeout_ms ? timeout_ms : x->timeout_ms;
    if (x->post) {
        const uint8_t *out = NULL;
        size_t n = x->post(x->post_ctx, buf, len, &out);
        if (n && out) {
            buf = out;
            len = n;
        }
    }
    if (x->fs->direct) {
        suspect(x, buf, len);
        x->broke_n = 0; /* a broken batch before it is not the last run */
    }
    rec->result = fz_fsrv_run(x->fs, buf, len, rec->timeout_ms);
    return finish(x, rec);
}

fz_run_result_t fz_exec_run_polled(fz_exec_t *x, const uint8_t *buf, size_t len,
                                   uint32_t timeout_ms, int (*stop)(void *ctx), void *ctx,
                                   fz_exec_rec_t *rec)
{
    x->fs->interrupt = stop;
    x->fs->interrupt_ctx = ctx;
    fz_run_result_t r = fz_exec_run(x, buf, len, timeout_ms, rec);
    x->fs->interrupt = NULL;
    x->fs->interrupt_ctx = NULL;
    return r;
}

int fz_exec_batch_add_request(fz_exec_t *x, const uint8_t *buf, uint32_t len)
{
    if (!x->fs->custom || !x->fs->batch || len > FZ_MAX_INPUT ||
        fz_exec_batch_add(x, buf, len) != 0)
        return -1;
    x->fs->shm.batch->len[x->batch_n - 1] |= FZ_BATCH_CUSTOM;
    return 0;
}

const uint8_t *fz_exec_ran_input(const fz_exec_t *x, uint32_t *len)
{
    uint32_t word;
    if (x->fs->delivery != FZ_DELIVER_SHM || !x->fs->shm.fuzz)
        return NULL;
    memcpy(&word, x->fs->shm.fuzz, sizeof word);
    if ((word & FZ_BATCH_CUSTOM) || word > FZ_MAX_INPUT)
        return NULL;
    *len = word;
    return x->fs->shm.fuzz + FZ_SHM_FUZZ_HDR;
}

int fz_exec_batch_add(fz_exec_t *x, const uint8_t *buf, uint32_t len)
{
    fz_batch_t *b = x->seg;
    if (!x->batch)
        return -1;
    if (len > FZ_MAX_INPUT)
        len = FZ_MAX_INPUT;
    if (x->batch_n >= FZ_BATCH_MAX || len > FZ_BATCH_DATA - x->batch_used)
        return -1;
    b->off[x->batch_n] = x->batch_used;
    b->len[x->batch_n] = len;
    if (len)
        memcpy(b->data + b->off[x->batch_n], buf, len);
    /* 8-byte aligned starts keep the target's copy fast. */
    x->batch_used += (len + 7u) & ~7u;
    if (x->batch_used > FZ_BATCH_DATA)
        x->batch_used = FZ_BATCH_DATA;
    x->batch_n++;
    return 0;
}

int fz_exec_batch_is_request(const fz_exec_t *x, uint32_t i)
{
    return (x->fs->shm.batch->len[i] & FZ_BATCH_CUSTOM) != 0;
}

const uint8_t *fz_exec_batch_input(const fz_exec_t *x, uint32_t i, uint32_t *len)
{
    const fz_batch_t *b = x->fs->shm.batch;
    *len = b->len[i] & ~FZ_BATCH_CUSTOM;
    return b->data + b->off[i];
}

void fz_exec_batch_clear(fz_exec_t *x)
{
    x->batch_n = x->batch_used = 0;
}

fz_run_result_t fz_exec_run_batch(fz_exec_t *x, uint32_t from, uint32_t n, fz_exec_rec_t *rec,
                                  uint32_t *at)
{
    memset(rec, 0, sizeof(*rec));
    rec->timeout_ms = x->timeout_ms;
    rec->result = fz_fsrv_run_batch(x->fs, from, n, rec->timeout_ms, at);
    if (rec->result == FZ_RUN_ERROR) {
        /* The forkserver died during the batch.  Its child learns of that
         * only when the kernel gets round to killing it (PDEATHSIG), and
         * on a busy machine it runs on through hundreds of inputs first:
         * every run of this batch is a suspect, and the segment still
         * holds them all. */
        x->broke_from = from;
        x->broke_n = *at - from + 1;
        return finish(x, rec);
    }
    /* The runs it made, from .. *at (after the fact: the batch segment
     * keeps them until the next batch).  A broken batch before them is
     * not the last any more. */
    x->broke_n = 0;
    for (uint32_t i = from; i <= *at; i++) {
        uint32_t len;
        const uint8_t *buf = fz_exec_batch_input(x, i, &len);
        suspect(x, buf, len);
    }
    return finish(x, rec);
}

/* Runs buf on the SIGSTOP-protocol forkserver: 1 when it killed the
 * forkserver (a new one is started for the next suspect), 0 when not, -1
 * when no forkserver could be started again. */
static int kills(fz_exec_t *x, const uint8_t *buf, uint32_t len, char *err, size_t errlen)
{
    if (fz_fsrv_run(x->fs, buf, len, x->timeout_ms) != FZ_RUN_ERROR)
        return 0;
    if (x->fs->broke_signal)
        return 1;
    return fz_fsrv_restart(x->fs, err, errlen) ? -1 : 0;
}

const uint8_t *fz_exec_find_killer(fz_exec_t *x, const uint8_t *buf, uint32_t len,
                                   uint32_t *out_len)
{
    *out_len = len;
    if (!x->fs->direct)
        return buf;
    char err[512];
    uint32_t broke_from = x->broke_from, broke_n = x->broke_n;
    x->fs->cfg.no_direct = 1;
    int rc = fz_fsrv_restart(x->fs, err, sizeof err);
    x->batch = x->fs->batch; /* none without direct mode */
    if (rc)
        return buf;
    /* Newest first: the broken batch's runs, then the runs kept. */
    const uint8_t *found = NULL;
    uint32_t kept = x->sus_n; /* 0 while nothing is allocated */
    for (uint32_t k = 0; k < broke_n + kept && !found; k++) {
        const uint8_t *s;
        uint32_t n;
        if (k < broke_n) {
            s = fz_exec_batch_input(x, broke_from + broke_n - 1 - k, &n);
        } else {
            const struct fz_exec_suspect *r =
                &x->sus[(x->sus_first + kept - 1 - (k - broke_n)) % FZ_EXEC_SUSPECTS];
            s = x->sus_bytes + r->at % FZ_EXEC_SUSPECT_BYTES;
            n = r->len;
        }
        rc = kills(x, s, n, err, sizeof err);
        if (rc < 0)
            break;
        if (rc > 0) {
            found = s;
            *out_len = n;
        }
    }
    x->execs = x->fs->total_execs;
    return found ? found : buf;
}

int fz_exec_commit(fz_exec_t *x, const fz_exec_rec_t *rec, uint8_t *mask)
{
    fz_virgin_kind_t k = kind_of(rec->result);
    if (!x->virgin[k] || rec->result == FZ_RUN_ERROR)
        return 0;
    if (x->blind) {
        int fresh = !(x->blind_seen[k] & blind_key(rec));
        x->blind_seen[k] |= blind_key(rec);
        return fresh ? FZ_COV_NEW_EDGE : FZ_COV_NOTHING;
    }
    if (mask)
        fz_cov_new_mask(x->virgin[k], rec->map, mask, x->map_size);
    return fz_cov_new_bits(x->virgin[k], rec->map, x->map_size);
}

void fz_exec_mark_seen(fz_exec_t *x, fz_virgin_kind_t kind, const uint8_t *map)
{
    if (x->virgin[kind] && map)
        fz_cov_new_bits(x->virgin[kind], map, x->map_size);
}

size_t fz_exec_edges_found(const fz_exec_t *x)
{
    return x->virgin[FZ_VIRGIN_QUEUE] ? fz_cov_count_found(x->virgin[FZ_VIRGIN_QUEUE], x->map_size)
                                      : 0;
}

const char *fz_exec_errmsg(const fz_exec_t *x)
{
    static const char none[FZ_FSRV_ERRLEN] = "the target was not started";
    return x->fs ? x->fs->errmsg : none;
}

/* AFL++'s names for how the target runs (fuzzer_stats target_mode). */
static const char *target_mode(const fz_fsrv_t *fs)
{
    if (fs->handshake_version < 0)
        return "blind";
    if (fs->persistent)
        return fs->delivery == FZ_DELIVER_SHM ? "shmem_testcase persistent" : "persistent";
    if (fs->deferred)
        return "deferred";
    return fs->delivery == FZ_DELIVER_SHM ? "shmem_testcase default" : "default";
}

fz_exec_info_t fz_exec_info(const fz_exec_t *x)
{
    const fz_fsrv_t *fs = x->fs;
    if (!fs)
        return (fz_exec_info_t){.protocol = "none", .mode = "none", .bound_cpu = -1};
    fz_exec_info_t i = {
        .protocol = fs->handshake_version < 0    ? "blind"
                    : fs->handshake_version == 0 ? "legacy"
                    : fs->direct                 ? "v1 direct"
                                                 : "v1",
        .mode = target_mode(fs),
        .bound_cpu = fs->bound_cpu,
        .cmplog = fs->cmplog,
        .custom = fs->custom,
        .execs = fs->total_execs,
        .forks = fs->total_forks,
        .handovers = fs->total_handovers,
        .diag = fs->shm.diag,
    };
    return i;
}
