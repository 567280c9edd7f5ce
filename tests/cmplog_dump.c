/*
 * cmplog_dump.c - the fuzzer's side of the comparison log, as small as a
 * test can use it (build/tests/cmplog-dump): creates an fz_cmplog_t
 * segment, names it in __FZ_CMPLOG_SHM_ID, runs the target once with
 * logging on, and prints every logged entry, one per line:
 *     int SLOT HITS SIZE ATTR V0 V1 [V0_HI V1_HI]     (hex values)
 *     str SLOT HITS ATTR "V0" "V1"                   (C escapes)
 * ATTR is a string of letters: c const, s switch, e eq, n nocase, f find,
 * z strz.  Then "hits N" (sum over slots).
 *
 *   cmplog-dump [-f [-p]] [-0] [-m] [-i FILE] -- TARGET ARGS...
 *     -f   run through the forkserver (version-1 handshake) and print
 *          "cmplog_bit 0|1" from its options word first
 *     -p   with -f: a persistent target (__AFL_LOOP): two passes, the
 *          first with logging off ("pass1_hits N" must say 0), the
 *          second with it on, which is the one printed
 *     -0   leave logging off (enabled = 0): nothing may be logged
 *     -i   the target's stdin
 *     -m   also give the target a coverage map (a 64 KiB SysV segment in
 *          __AFL_SHM_ID; without -f only) and print its nonzero slots
 *          after the log, one "map SLOT COUNT" line each: a logging run
 *          (default) and a plain one (-0) must light the same slots
 * Exits 0 when the target exited 0, 1 otherwise (2: usage / set-up).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz-cmplog.h"
#include "fz-protocol.h"

#define MAP_BYTES 65536u

static void die(const char *msg)
{
    fprintf(stderr, "cmplog-dump: %s\n", msg);
    exit(2);
}

static void put_bytes(const uint8_t *p, unsigned n)
{
    putchar('"');
    for (unsigned i = 0; i < n; i++) {
        if (p[i] == '"' || p[i] == '\\')
            printf("\\%c", p[i]);
        else if (p[i] >= 32 && p[i] < 127)
            putchar(p[i]);
        else
            printf("\\x%02x", p[i]);
    }
    putchar('"');
}

static void put_attr(unsigned a)
{
    static const char letters[] = "csenfz";
    int any = 0;
    for (int i = 0; i < 6; i++)
        if (a & (1u << i))
            putchar(letters[i]), any = 1;
    if (!any)
        putchar('-');
}

static void dump(const fz_cmplog_t *log)
{
    unsigned long total = 0;
    for (unsigned s = 0; s < FZ_CMP_SITES; s++) {
        uint32_t pool;
        const fz_cmp_head_t *h = fz_cmplog_find(log, s, &pool);
        if (!h || !h->hits)
            continue;
        total += h->hits;
        unsigned n = h->hits < FZ_CMP_PAIRS ? h->hits : FZ_CMP_PAIRS;
        for (unsigned e = 0; e < n; e++) {
            if (pool == FZ_CMP_POOL_INT) {
                const fz_cmp_pair_t *op = &((const fz_cmp_iblock_t *)h)->p[e];
                printf("int %u %u %u ", s, h->hits, h->size);
                put_attr(h->attr);
                printf(" 0x%llx 0x%llx", (unsigned long long)op->v0, (unsigned long long)op->v1);
            } else if (pool == FZ_CMP_POOL_WIDE) {
                const fz_cmp_wide_t *op = &((const fz_cmp_wblock_t *)h)->p[e];
                printf("int %u %u %u ", s, h->hits, h->size);
                put_attr(h->attr);
                printf(" 0x%llx 0x%llx 0x%llx 0x%llx", (unsigned long long)op->v0,
                       (unsigned long long)op->v1, (unsigned long long)op->v0_hi,
                       (unsigned long long)op->v1_hi);
            } else {
                const fz_cmp_str_t *op = &((const fz_cmp_sblock_t *)h)->p[e];
                printf("str %u %u ", s, h->hits);
                put_attr(h->attr);
                putchar(' ');
                put_bytes(op->v0, op->len0 < FZ_CMP_STR_MAX ? op->len0 : FZ_CMP_STR_MAX);
                putchar(' ');
                put_bytes(op->v1, op->len1 < FZ_CMP_STR_MAX ? op->len1 : FZ_CMP_STR_MAX);
            }
            putchar('\n');
        }
    }
    printf("hits %lu\n", total);
}

static uint32_t rd(int fd)
{
    uint32_t v;
    if (read(fd, &v, 4) != 4)
        die("the forkserver closed its pipe");
    return v;
}

static void wr(int fd, uint32_t v)
{
    if (write(fd, &v, 4) != 4)
        die("cannot write to the forkserver");
}

static unsigned long total_hits(const fz_cmplog_t *log)
{
    unsigned long n = 0;
    for (unsigned s = 0; s < FZ_CMP_SITES; s++) {
        uint32_t pool;
        const fz_cmp_head_t *h = fz_cmplog_find(log, s, &pool);
        n += h ? h->hits : 0;
    }
    return n;
}

/* One run through the forkserver: the version-1 handshake, then one
 * request (two for a persistent target, see -p); returns the child's wait
 * status. */
static int run_fsrv(char **argv, fz_cmplog_t *log, int enable, int persistent)
{
    int ctl[2], st[2];
    if (pipe(ctl) || pipe(st))
        die("pipe failed");
    setenv(FZ_ENV_FSRV_VERSION, "1", 1);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(ctl[0], FZ_FORKSRV_FD);
        dup2(st[1], FZ_FORKSRV_FD + 1);
        close(ctl[0]), close(ctl[1]), close(st[0]), close(st[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(ctl[0]), close(st[1]);
    if (rd(st[0]) != FZ_FS_NEW_VERSION)
        die("not a version-1 forkserver");
    wr(ctl[1], FZ_FS_NEW_VERSION ^ 0xffffffffu);
    uint32_t opt = rd(st[0]);
    if (opt & FZ_FS_NEW_OPT_MAPSIZE)
        rd(st[0]);
    if (opt & FZ_FS_NEW_OPT_AUTODICT)
        die("unexpected autodict");
    if (rd(st[0]) != FZ_FS_NEW_VERSION)
        die("bad handshake end");
    printf("cmplog_bit %d\n", (opt & FZ_FS_NEW_OPT_FZ_CMPLOG) != 0);
    if (persistent) {
        memset(log->used, 0, sizeof(log->used));
        log->enabled = 0;
        wr(ctl[1], 0);
        rd(st[0]);
        if (!WIFSTOPPED((int)rd(st[0])))
            die("the persistent target did not stop after its first pass");
        printf("pass1_hits %lu\n", total_hits(log));
    }
    memset(log->used, 0, sizeof(log->used));
    log->enabled = enable;
    wr(ctl[1], 0);
    rd(st[0]); /* child pid */
    int status = (int)rd(st[0]);
    log->enabled = 0;
    if (persistent && WIFSTOPPED(status))
        status = 0; /* the pass ended as a persistent pass does */
    close(ctl[1]);
    close(st[0]);
    waitpid(pid, NULL, 0);
    return status;
}

static int run_plain(char **argv, fz_cmplog_t *log, int enable)
{
    memset(log->used, 0, sizeof(log->used));
    log->enabled = enable;
    pid_t pid = fork();
    if (pid == 0) {
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    log->enabled = 0;
    return status;
}

int main(int argc, char **argv)
{
    int fsrv = 0, enable = 1, persistent = 0, want_map = 0, c;
    const char *in = NULL;
    while ((c = getopt(argc, argv, "fp0mi:")) != -1) {
        if (c == 'f')
            fsrv = 1;
        else if (c == 'p')
            persistent = 1;
        else if (c == '0')
            enable = 0;
        else if (c == 'm')
            want_map = 1;
        else if (c == 'i')
            in = optarg;
        else
            die("usage: cmplog-dump [-f [-p]] [-0] [-m] [-i FILE] -- TARGET ARGS...");
    }
    if (optind >= argc)
        die("no target");
    if (in) {
        int fd = open(in, O_RDONLY);
        if (fd < 0 || dup2(fd, 0) < 0)
            die("cannot open the -i file");
        close(fd);
    }
    int id = shmget(IPC_PRIVATE, sizeof(fz_cmplog_t), IPC_CREAT | 0600);
    if (id < 0)
        die("shmget failed");
    fz_cmplog_t *log = shmat(id, NULL, 0);
    shmctl(id, IPC_RMID, NULL); /* gone when both sides detach */
    if (log == (void *)-1)
        die("shmat failed");
    log->version = FZ_CMPLOG_VERSION;
    char idbuf[32];
    snprintf(idbuf, sizeof(idbuf), "%d", id);
    setenv(FZ_ENV_CMPLOG_SHM_ID, idbuf, 1);
    unsetenv(FZ_ENV_SHM_ID);
    uint8_t *map = NULL;
    if (want_map) {
        if (fsrv)
            die("-m works without -f only");
        int mid = shmget(IPC_PRIVATE, MAP_BYTES, IPC_CREAT | 0600);
        if (mid < 0)
            die("shmget failed (map)");
        map = shmat(mid, NULL, 0);
        shmctl(mid, IPC_RMID, NULL);
        if (map == (void *)-1)
            die("shmat failed (map)");
        snprintf(idbuf, sizeof(idbuf), "%d", mid);
        setenv(FZ_ENV_SHM_ID, idbuf, 1);
    }
    fflush(stdout);
    if (persistent)
        setenv(FZ_ENV_PERSISTENT, "1", 1);
    int status = fsrv ? run_fsrv(argv + optind, log, enable, persistent)
                      : run_plain(argv + optind, log, enable);
    dump(log);
    for (unsigned i = 0; map && i < MAP_BYTES; i++)
        if (map[i])
            printf("map %u %u\n", i, map[i]);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
