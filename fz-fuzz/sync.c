/*
 * sync.c - importing other instances' finds (see sync.h for the roles and
 * the file formats).  A sync lists the peers, and for each reads its cursor,
 * lists its queue, runs every due file once through fz_run_one (its
 * origin names the peer, so a keeper is named "sync:PEER" and not minimized
 * again) and writes the cursor back atomically.  Peers' directories are
 * only read, never written; anything odd in them (a garbage name, a
 * directory, an oversized file, a file that vanished) is skipped.
 */
#include "sync.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "fz-config.h"
#include "fz-fuzz/run.h"
#include "fz-fuzz/jobs.h"
#include "fz-fuzz/names.h"
#include "fz-fuzz/state.h"
#include "fz-log.h"

/* The file in an instance directory that says "I am a main" (AFL++'s). */
#define MAIN_MARK "is_main_node"

/* ---- Pure helpers ---- */

int fz_sync_peer_ok(const char *name, const char *self)
{
    size_t n = strlen(name);
    return n && n <= FZ_SYNC_PEER_MAX && name[0] != '.' && strcmp(name, self) != 0 &&
           strspn(name, FZ_NAME_CHARS) == n;
}

int fz_sync_cursor_parse(const uint8_t *buf, size_t len, uint32_t *next)
{
    *next = 0;
    if (len != sizeof(uint32_t))
        return -1;
    memcpy(next, buf, sizeof(uint32_t)); /* AFL++ writes the raw u32 */
    return 0;
}

void fz_sync_cursor_encode(uint32_t next, uint8_t out[4])
{
    memcpy(out, &next, sizeof(next));
}

static int cmp_item(const void *a, const void *b)
{
    const fz_sync_item_t *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return strcmp(x->name, y->name);
}

uint32_t fz_sync_select(fz_sync_item_t *items, uint32_t n, uint32_t cursor, uint32_t *peer_next)
{
    uint32_t keep = 0;
    *peer_next = 0;
    for (uint32_t i = 0; i < n; i++) {
        long id = items[i].name[0] == '.' ? -1 : fz_name_id(items[i].name);
        if (id < 0 || id > (long)UINT32_MAX - 1)
            continue;
        items[i].id = (uint32_t)id;
        if (items[i].id + 1 > *peer_next)
            *peer_next = items[i].id + 1;
        if (items[i].id < cursor)
            continue;
        fz_sync_item_t t = items[keep];
        items[keep++] = items[i];
        items[i] = t;
    }
    qsort(items, keep, sizeof(*items), cmp_item);
    return keep;
}

uint32_t fz_sync_cursor_check(uint32_t cursor, uint32_t peer_next)
{
    return peer_next < cursor ? 0 : cursor;
}

int fz_sync_from_self(const char *name, const char *self)
{
    size_t n = strlen(self);
    for (const char *p = strstr(name, ",sync:"); p; p = strstr(p + 1, ",sync:"))
        if (strncmp(p + 6, self, n) == 0 && (p[6 + n] == ',' || p[6 + n] == 0))
            return 1;
    return 0;
}

/* ---- The running instance ---- */

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

void fz_sync_init(fz_state_t *st)
{
    fz_sync_t *s = &st->sync;
    memset(s, 0, sizeof(*s));
    if (!st->cfg.is_main && !st->cfg.is_secondary)
        return;
    if (st->cfg.blind) {
        fz_warn("-n: blind mode has no coverage to judge other instances' inputs by; this "
                "instance will not sync (drop -n to sync)");
        return;
    }
    s->enabled = 1;
    /* AFL++ halves the interval of the main: it gathers from everyone and
     * the secondaries get their imports through it. */
    s->interval_ms = (uint64_t)st->cfg.sync_secs * 1000 / (st->cfg.is_main ? 2 : 1);
    char *synced = fz_path_join(st->out.dir, ".synced", NULL);
    if (mkdir(synced, 0700) != 0 && errno != EEXIST)
        fz_die("cannot create '%s': %s; check the permissions of the output directory", synced,
               strerror(errno));
    free(synced);
    char *mark = fz_path_join(st->out.dir, MAIN_MARK, NULL);
    if (st->cfg.is_main)
        fz_outdir_save(&st->out, "", MAIN_MARK, "", 0);
    else if (unlink(mark) == 0) /* this directory was a main's before */
        fz_info("'%s' was a main instance's directory; it is a secondary's now", st->out.dir);
    free(mark);
}

void fz_sync_free(fz_sync_t *s)
{
    (void)s; /* nothing allocated today; kept so campaign.c's teardown stays symmetric */
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The non-hidden names in dir, sorted (so peers are synced in the same
 * order on every file system), as a NULL-terminated array (NULL if dir
 * cannot be read). */
static char **list_dir(const char *dir, uint32_t *count)
{
    *count = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    uint32_t cap = 16;
    char **v = malloc(cap * sizeof(*v));
    if (!v)
        fz_die("out of memory");
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.')
            continue;
        if (*count + 1 >= cap && !(v = realloc(v, (cap *= 2) * sizeof(*v))))
            fz_die("out of memory");
        if (!(v[(*count)++] = strdup(de->d_name)))
            fz_die("out of memory");
    }
    closedir(d);
    v[*count] = NULL;
    qsort(v, *count, sizeof(*v), cmp_name);
    return v;
}

static void free_list(char **v, uint32_t n)
{
    for (uint32_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

/* Reads a peer's queue file: the bytes if it is a regular file of at most
 * max bytes (our maximum length: no queue entry is longer), NULL to skip
 * it.  An empty file is an input like any
 * other (the empty input can be a find): fz-fuzz peers rename whole files
 * into place.  afl-fuzz writes its queue files in place, so a file caught
 * in the microseconds of that write runs short; AFL++'s own instances
 * share that race, and the worst it costs is one import. */
static uint8_t *read_peer_file(const char *path, uint32_t max, uint32_t *len)
{
    size_t n = 0;
    uint8_t *b = fz_file_read(path, max, FZ_FILE_REGULAR, &n);
    *len = (uint32_t)n;
    return b;
}

static uint32_t read_cursor(fz_state_t *st, const char *peer)
{
    char *path = fz_path_join(st->out.dir, ".synced", peer);
    uint8_t buf[8];
    uint32_t next = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t r = read(fd, buf, sizeof(buf));
        if (fz_sync_cursor_parse(buf, r > 0 ? (size_t)r : 0, &next) != 0)
            fz_warn("'%s' is not a sync cursor; examining all of '%s' again", path, peer);
        close(fd);
    }
    free(path);
    return next;
}

static void write_cursor(fz_state_t *st, const char *peer, uint32_t next)
{
    uint8_t buf[4];
    fz_sync_cursor_encode(next, buf);
    fz_outdir_save(&st->out, ".synced", peer, buf, sizeof(buf));
}

/* Runs the due files of one peer's queue and moves its cursor past them. */
static void sync_peer(fz_state_t *st, const char *peer, const char *qdir)
{
    uint32_t n, next;
    char **names = list_dir(qdir, &n);
    if (!names)
        return;
    fz_sync_item_t *items = malloc((n ? n : 1) * sizeof(*items));
    if (!items)
        fz_die("out of memory");
    for (uint32_t i = 0; i < n; i++)
        items[i].name = names[i];
    uint32_t old = read_cursor(st, peer), cursor = old;
    uint32_t due = fz_sync_select(items, n, cursor, &next);
    if (next && fz_sync_cursor_check(old, next) != old) {
        fz_info("'%s' holds fewer files than this instance examined; it was started afresh, "
                "examining it from the start",
                peer);
        cursor = 0;
        due = fz_sync_select(items, n, cursor, &next);
    }
    uint32_t before = st->queue.n, run = 0;
    for (uint32_t i = 0; i < due && !fz_run_should_stop(st); i++) {
        cursor = items[i].id + 1;
        if (fz_sync_from_self(items[i].name, st->cfg.name))
            continue;
        char *path = fz_path_join(qdir, items[i].name, NULL);
        uint32_t len = 0;
        uint8_t *data = read_peer_file(path, fz_maxlen_now(&st->len), &len);
        if (data) {
            fz_origin_t o = {.op = "sync", .peer = peer, .peer_id = items[i].id};
            fz_run_one(st, data, len, &o);
            free(data);
            run++;
        }
        free(path);
    }
    if (cursor != old)
        write_cursor(st, peer, cursor);
    if (run && !st->ui.tty && !st->jobs.shared)
        fz_info("synced from '%s': %u new file(s) run, %u imported", peer, run,
                st->queue.n - before);
    free(items);
    free_list(names, n);
}

/* The peers to sync from: every other instance directory with a queue/;
 * for a secondary only the mains among them, if there are any. */
static char **list_peers(const fz_state_t *st, uint32_t *count)
{
    uint32_t n;
    char **v = list_dir(st->cfg.out_root, &n);
    if (!v)
        fz_die("cannot read the output directory '%s': %s", st->cfg.out_root, strerror(errno));
    uint32_t keep = 0, mains = 0;
    for (uint32_t i = 0; i < n; i++) {
        char *q = fz_path_join(st->cfg.out_root, v[i], "queue");
        char *m = fz_path_join(st->cfg.out_root, v[i], MAIN_MARK);
        int ok = fz_sync_peer_ok(v[i], st->cfg.name) && is_dir(q);
        int main_peer = ok && access(m, F_OK) == 0;
        free(q);
        free(m);
        if (!ok) {
            free(v[i]);
            continue;
        }
        /* Mains go first, so a secondary can keep just those. */
        char *t = v[i];
        v[i] = NULL;
        if (main_peer) {
            memmove(v + mains + 1, v + mains, (keep - mains) * sizeof(*v));
            v[mains++] = t;
        } else {
            v[keep] = t;
        }
        keep++;
    }
    if (st->cfg.is_secondary && mains) {
        for (uint32_t i = mains; i < keep; i++)
            free(v[i]);
        keep = mains;
    }
    v[keep] = NULL;
    *count = keep;
    return v;
}

static void sync_all(fz_state_t *st)
{
    uint64_t execs = fz_state_execs(st);
    uint32_t n;
    char **peers = list_peers(st, &n);
    for (uint32_t i = 0; i < n && !fz_run_should_stop(st); i++) {
        char *q = fz_path_join(st->cfg.out_root, peers[i], "queue");
        sync_peer(st, peers[i], q);
        free(q);
    }
    free_list(peers, n);
    st->sync.execs += fz_state_execs(st) - execs;
    st->sync.last_ms = fz_now_ms();
}

void fz_sync_direct(fz_state_t *st, const char *peer, uint32_t id, int skip_run,
                    const uint8_t *buf, uint32_t len)
{
    uint32_t cursor = read_cursor(st, peer);
    if (id < cursor)
        return; /* examined already (a directory sync got there first) */
    if (id > cursor || !buf) {
        /* Files of this peer were missed (this instance started late, or
         * the ring ran over), or the find is too big for the ring: its
         * queue directory has them all, in order. */
        char *q = fz_path_join(st->cfg.out_root, peer, "queue");
        sync_peer(st, peer, q);
        free(q);
        return;
    }
    if (!skip_run) {
        uint64_t execs = fz_state_execs(st);
        fz_origin_t o = {.op = "sync", .peer = peer, .peer_id = id};
        fz_run_one(st, buf, len, &o);
        st->sync.execs += fz_state_execs(st) - execs;
    }
    write_cursor(st, peer, id + 1);
}

void fz_sync_maybe(fz_state_t *st)
{
    if (!st->sync.enabled)
        return;
    if (!st->sync.last_ms || fz_now_ms() - st->sync.last_ms >= st->sync.interval_ms)
        sync_all(st);
    fz_jobs_take(st); /* -j: the other instances' finds, handed over directly */
}
