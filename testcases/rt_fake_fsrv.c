/*
 * rt_fake_fsrv.c - a fake forkserver that fails its set-up the way AFL++
 * 4.20+ does: its first word on fd 199 is the version-1 error word
 * FZ_FS_NEW_ERROR | code (code from argv[1]), with no version word before
 * it.  The fuzzer must name the error, not misread the word as a legacy
 * options word (tests/e2e/runtime_faults.sh).
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "fz-protocol.h"

int main(int argc, char **argv)
{
    uint32_t w = FZ_FS_NEW_ERROR | (uint32_t)strtoul(argc > 1 ? argv[1] : "1", NULL, 0);
    if (write(FZ_FORKSRV_FD + 1, &w, 4) != 4)
        return 2;
    return 1;
}
