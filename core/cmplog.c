/*
 * cmplog.c - the comparison-log segment (see cmplog.h).
 */
#include "core/cmplog.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include "fz-protocol.h"

/* Both are fz's own option bits of the same handshake word. */
_Static_assert((FZ_FS_NEW_OPT_FZ_CMPLOG &
                (FZ_FS_NEW_OPT_FZ_DIRECT | FZ_FS_NEW_OPT_MAPSIZE | FZ_FS_NEW_OPT_SHDMEM_FUZZ |
                 FZ_FS_NEW_OPT_AUTODICT)) == 0,
               "the comparison-log option bit collides with another option bit");

int fz_cmplog_create(fz_cmplog_shm_t *c, char *err, size_t errlen)
{
    c->id = -1;
    c->log = NULL;
    int id = shmget(IPC_PRIVATE, sizeof(fz_cmplog_t), IPC_CREAT | IPC_EXCL | 0600);
    if (id < 0) {
        snprintf(err, errlen,
                 "cannot create the %zu-byte comparison-log segment: %s; raise "
                 "kernel.shmmax / kernel.shmall, or set FZ_NO_CMPLOG=1 to fuzz without it",
                 sizeof(fz_cmplog_t), strerror(errno));
        return -1;
    }
    void *mem = shmat(id, NULL, 0);
    /* Linux keeps an IPC_RMID'ed segment attachable by id until the last
     * detach: the target still finds it, and nothing outlives us. */
    shmctl(id, IPC_RMID, NULL);
    if (mem == (void *)-1) {
        snprintf(err, errlen, "cannot attach the comparison-log segment: %s", strerror(errno));
        return -1;
    }
    c->id = id;
    c->log = mem;
    c->log->version = FZ_CMPLOG_VERSION;
    c->log->enabled = 0;
    return 0;
}

void fz_cmplog_destroy(fz_cmplog_shm_t *c)
{
    if (c->log)
        shmdt(c->log);
    c->log = NULL;
    c->id = -1;
}

void fz_cmplog_begin(fz_cmplog_shm_t *c)
{
    memset(c->log->used, 0, sizeof c->log->used);
    c->log->enabled = 1;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void fz_cmplog_end(fz_cmplog_shm_t *c)
{
    c->log->enabled = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
