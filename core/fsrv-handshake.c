/*
 * fsrv-handshake.c - starting the forkserver (core/fsrv-priv.h): spawn
 * it, read its first word and speak the handshake it announces (AFL++'s
 * version 1 with options, or the legacy one; include/fz-protocol.h).
 */
#include "core/fsrv-priv.h"

#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/proc.h"
#include "fz-cmplog.h"
#include "fz-config.h"
#include "fz-protocol.h"

/* Map size assumed for a target that does not report one: AFL's classic
 * MAP_SIZE, which is what such a target writes into. */
#define LEGACY_MAP_SIZE (1u << 16)

/* Accepts a map size the target reported, rounded up to FZ_MAP_SIZE_MIN. */
static int take_map_size(fz_fsrv_t *fs, uint32_t size, char *err, size_t errlen)
{
    if (size > FZ_MAP_SIZE_MAX) {
        snprintf(err, errlen,
                 "'%s' needs a %u-byte coverage map, more than fz's limit of %u; instrument fewer "
                 "files (FZ_DENYLIST) or rebuild fz with a larger FZ_MAP_SIZE_MAX",
                 fs->child_argv[0], size, FZ_MAP_SIZE_MAX);
        return -1;
    }
    if (size < FZ_MAP_SIZE_MIN)
        size = FZ_MAP_SIZE_MIN;
    fs->map_size = (size + FZ_MAP_SIZE_MIN - 1) & ~(FZ_MAP_SIZE_MIN - 1);
    return 0;
}

static int handshake_v1(fz_fsrv_t *fs, uint64_t wait_ms, char *err, size_t errlen)
{
    uint32_t opts, v;
    fs->handshake_version = 1;
    if (fz_fsrv_write_u32(fs->ctl_fd, FZ_FS_NEW_VERSION ^ 0xffffffffu) ||
        fz_fsrv_read_u32(NULL, fs->st_fd, &opts, wait_ms))
        goto broken;
    if ((opts & 0xffff0000u) == FZ_FS_NEW_ERROR) {
        fz_fsrv_setup_error(fs, opts & 0xffffu, err, errlen);
        return -1;
    }
    fs->map_size = fs->cfg.legacy_map_size ? fs->cfg.legacy_map_size : LEGACY_MAP_SIZE;
    if (opts & FZ_FS_NEW_OPT_MAPSIZE) {
        if (fz_fsrv_read_u32(NULL, fs->st_fd, &v, wait_ms))
            goto broken;
        if (take_map_size(fs, v, err, errlen))
            return -1;
    }
    if ((opts & FZ_FS_NEW_OPT_SHDMEM_FUZZ) && fs->shm.fuzz)
        fs->delivery = FZ_DELIVER_SHM;
    /* The runtime offers this only when we asked, and is committed to it
     * once offered (the handshake has no answer to options). */
    fs->direct = (opts & FZ_FS_NEW_OPT_FZ_DIRECT) != 0;
    /* Likewise only when we offered a log: its hooks will fill it. */
    fs->cmplog = fs->cfg.cmplog && (opts & FZ_FS_NEW_OPT_FZ_CMPLOG) != 0;
    /* Offered only when the runtime attached the segments we named. */
    fs->batch = fs->direct && fs->shm.batch && fs->delivery == FZ_DELIVER_SHM &&
                (opts & FZ_FS_NEW_OPT_FZ_BATCH) != 0;
    /* A harness's own mutator, reachable through batch requests. */
    fs->custom = opts & (FZ_FS_NEW_OPT_FZ_CUSTOM | FZ_FS_NEW_OPT_FZ_XOVER);
    if (opts & FZ_FS_NEW_OPT_AUTODICT) {
        /* We do not use the dictionary yet, but must drain it. */
        if (fz_fsrv_read_u32(NULL, fs->st_fd, &v, wait_ms))
            goto broken;
        uint8_t buf[4096];
        while (v > 0) {
            ssize_t n = read(fs->st_fd, buf, v < sizeof buf ? v : sizeof buf);
            if (n <= 0)
                goto broken;
            v -= (uint32_t)n;
        }
    }
    if (fz_fsrv_read_u32(NULL, fs->st_fd, &v, wait_ms) || v != FZ_FS_NEW_VERSION)
        goto broken;
    return 0;
broken:
    snprintf(err, errlen,
             "'%s' broke off the version-1 forkserver handshake; rebuild it with this "
             "fz-cc, or check that it does not touch fds 198/199",
             fs->child_argv[0]);
    return -1;
}

static int handshake_legacy(fz_fsrv_t *fs, uint32_t word, char *err, size_t errlen)
{
    fs->handshake_version = 0;
    fs->map_size = fs->cfg.legacy_map_size ? fs->cfg.legacy_map_size : LEGACY_MAP_SIZE;
    if ((word & FZ_FS_OPT_ERROR) == FZ_FS_OPT_ERROR) {
        fz_fsrv_setup_error(fs, FZ_FS_OPT_GET_ERROR(word), err, errlen);
        return -1;
    }
    if ((word & FZ_FS_OPT_ENABLED) != FZ_FS_OPT_ENABLED)
        return 0; /* a plain AFL forkserver: no options */
    if ((word & FZ_FS_OPT_MAPSIZE) && take_map_size(fs, FZ_FS_OPT_GET_MAPSIZE(word), err, errlen))
        return -1;
    if (word & (FZ_FS_OPT_SHDMEM_FUZZ | FZ_FS_OPT_AUTODICT)) {
        /* The target waits for our options; we never ask for its
         * dictionary, so it will not send one. */
        uint32_t reply = FZ_FS_OPT_ENABLED;
        if ((word & FZ_FS_OPT_SHDMEM_FUZZ) && fs->shm.fuzz) {
            reply |= FZ_FS_OPT_SHDMEM_FUZZ;
            fs->delivery = FZ_DELIVER_SHM;
        }
        if (fz_fsrv_write_u32(fs->ctl_fd, reply)) {
            snprintf(err, errlen, "'%s' closed the forkserver pipe during the handshake",
                     fs->child_argv[0]);
            return -1;
        }
    }
    return 0;
}

int fz_fsrv_start_server(fz_fsrv_t *fs, char *err, size_t errlen)
{
    uint64_t wait_ms = (uint64_t)HANDSHAKE_MULT * fs->cfg.timeout_ms;
    if (wait_ms < HANDSHAKE_MIN_MS)
        wait_ms = HANDSHAKE_MIN_MS;
    fs->fsrv_pid = fz_fsrv_spawn(fs, err, errlen);
    if (fs->fsrv_pid < 0)
        return -1;
    fz_proc_track_session(fs->track_slot, fs->fsrv_pid);
    uint32_t word;
    int r = fz_fsrv_read_u32(NULL, fs->st_fd, &word, wait_ms);
    if (r) {
        fz_fsrv_no_handshake(fs, r, err, errlen);
        return -1;
    }
    /* AFL++ 4.20+ sends its error word instead of the version word when
     * set-up fails.  A legacy options word could only look like it with
     * the snapshot bit (0x20000000, a kernel-module feature AFL++ dropped)
     * set, so the error word is recognised first. */
    if ((word & 0xffff0000u) == FZ_FS_NEW_ERROR) {
        fs->handshake_version = 1;
        fz_fsrv_setup_error(fs, word & 0xffffu, err, errlen);
        return -1;
    }
    if (word == FZ_FS_NEW_VERSION)
        return handshake_v1(fs, wait_ms, err, errlen);
    if (word > FZ_FS_NEW_VERSION - 1 && word <= (FZ_FS_NEW_VERSION | 0xffu)) {
        snprintf(err, errlen,
                 "'%s' speaks forkserver version %u, which fz does not know; "
                 "rebuild it with fz-cc",
                 fs->child_argv[0], word - (FZ_FS_NEW_VERSION - 1));
        return -1;
    }
    return handshake_legacy(fs, word, err, errlen);
}

void fz_fsrv_stop_server(fz_fsrv_t *fs)
{
    if (fs->fsrv_pid > 0) {
        fz_proc_kill_session(fs->fsrv_pid);
        waitpid(fs->fsrv_pid, NULL, 0);
    }
    fs->fsrv_pid = -1;
    if (fs->ctl_fd >= 0)
        close(fs->ctl_fd);
    if (fs->st_fd >= 0)
        close(fs->st_fd);
    fs->ctl_fd = fs->st_fd = -1;
    fs->handshake_version = 0;
}
