/*
 * shm.c - creates the SysV segments shared with the target (see shm.h).
 */
#include "core/shm.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include "fz-config.h"
#include "fz-protocol.h"

/* Creates, attaches and immediately marks a private segment for removal. */
static int make_segment(size_t size, int *id_out, uint8_t **mem_out, char *err, size_t errlen)
{
    int id = shmget(IPC_PRIVATE, size, IPC_CREAT | IPC_EXCL | 0600);
    if (id < 0) {
        snprintf(err, errlen,
                 "cannot create a %zu-byte shared memory segment: %s; check "
                 "/proc/sys/kernel/shmmax and shmall (sysctl kernel.shmmax)",
                 size, strerror(errno));
        return -1;
    }
    void *mem = shmat(id, NULL, 0);
    if (mem == (void *)-1) {
        snprintf(err, errlen, "cannot attach shared memory segment %d: %s", id, strerror(errno));
        shmctl(id, IPC_RMID, NULL);
        return -1;
    }
    /* Linux keeps an IPC_RMID'ed segment attachable by id until the last
     * detach, so the target can still find it and nothing outlives us. */
    shmctl(id, IPC_RMID, NULL);
    *id_out = id;
    *mem_out = mem;
    return 0;
}

int fz_shm_create(fz_shm_t *shm, int with_fuzz, char *err, size_t errlen)
{
    memset(shm, 0, sizeof *shm);
    shm->map_id = shm->fuzz_id = shm->diag_id = shm->ctl_id = -1;
    shm->batch_id = shm->virgin_id = -1;
    if (make_segment(FZ_MAP_SIZE_MAX, &shm->map_id, &shm->map, err, errlen))
        return -1;
    shm->map_alloc = FZ_MAP_SIZE_MAX;
    uint8_t *diag;
    if (make_segment(FZ_DIAG_SIZE, &shm->diag_id, &diag, err, errlen)) {
        fz_shm_destroy(shm);
        return -1;
    }
    shm->diag = (fz_diag_t *)diag;
    uint8_t *ctl;
    if (make_segment(FZ_CTL_SIZE, &shm->ctl_id, &ctl, err, errlen)) {
        fz_shm_destroy(shm);
        return -1;
    }
    shm->ctl = (fz_ctl_t *)ctl;
    if (with_fuzz &&
        make_segment(FZ_MAX_INPUT + FZ_SHM_FUZZ_HDR, &shm->fuzz_id, &shm->fuzz, err, errlen)) {
        fz_shm_destroy(shm);
        return -1;
    }
    return 0;
}

int fz_shm_add_batch(fz_shm_t *shm, char *err, size_t errlen)
{
    if (shm->batch)
        return 0;
    uint8_t *b;
    if (make_segment(sizeof(fz_batch_t), &shm->batch_id, &b, err, errlen))
        return -1;
    shm->batch = (fz_batch_t *)b;
    if (make_segment(FZ_MAP_SIZE_MAX, &shm->virgin_id, &shm->virgin, err, errlen)) {
        shmdt(shm->batch);
        shm->batch = NULL;
        shm->batch_id = -1;
        return -1;
    }
    return 0;
}

void fz_shm_destroy(fz_shm_t *shm)
{
    if (shm->batch)
        shmdt(shm->batch);
    if (shm->virgin)
        shmdt(shm->virgin);
    shm->batch = NULL;
    shm->virgin = NULL;
    shm->batch_id = shm->virgin_id = -1;
    if (shm->map)
        shmdt(shm->map);
    if (shm->fuzz)
        shmdt(shm->fuzz);
    if (shm->diag)
        shmdt(shm->diag);
    if (shm->ctl)
        shmdt(shm->ctl);
    shm->map = shm->fuzz = NULL;
    shm->diag = NULL;
    shm->ctl = NULL;
    shm->map_id = shm->fuzz_id = shm->diag_id = shm->ctl_id = -1;
}
