/*
 * rt-input.c - shared-memory test cases (__AFL_FUZZ_TESTCASE_BUF / _LEN).
 *
 * A harness that uses __AFL_FUZZ_INIT() defines __afl_sharedmem_fuzzing; the
 * runtime sees it through a weak reference and offers shared-memory input in
 * the handshake.  When the fuzzer accepts, __afl_fuzz_ptr / __afl_fuzz_len
 * point into its segment (a u32 length, then the bytes).  Otherwise they
 * point at a 1 MiB buffer here that __fz_testcase_len() fills from stdin, so
 * the same harness runs as `./harness < FILE`.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <unistd.h>

#include "fz-config.h"
#include "fz-protocol.h"
#include "runtime/rt-input.h"

#define FZ_RT_EXPORT __attribute__((visibility("default")))

/* Defined (as 1) by __AFL_FUZZ_INIT() in the harness; absent otherwise. */
extern int __afl_sharedmem_fuzzing __attribute__((weak));

static unsigned char fz_fallback_buf[FZ_MAX_INPUT];
static unsigned int fz_fallback_len;
static int fz_input_shm; /* __afl_fuzz_ptr points into the fuzzer's segment */

FZ_RT_EXPORT unsigned char *__afl_fuzz_ptr = fz_fallback_buf;
FZ_RT_EXPORT unsigned int *__afl_fuzz_len = &fz_fallback_len;

int __fz_rt_wants_shm_input(void)
{
    return &__afl_sharedmem_fuzzing != NULL && __afl_sharedmem_fuzzing != 0;
}

int __fz_rt_input_attach(void)
{
    const char *id_str = getenv(FZ_ENV_SHM_FUZZ_ID);
    if (!id_str || !*id_str)
        return FZ_FS_ERROR_SHM_OPEN;
    char *end;
    long id = strtol(id_str, &end, 10);
    if (*end || id < 0)
        return FZ_FS_ERROR_SHM_OPEN;
    uint8_t *mem = shmat((int)id, NULL, 0);
    if (mem == (void *)-1)
        return FZ_FS_ERROR_SHMAT;
    __afl_fuzz_len = (unsigned int *)mem;
    __afl_fuzz_ptr = mem + FZ_SHM_FUZZ_HDR;
    fz_input_shm = 1;
    return 0;
}

void __fz_rt_input_set(const uint8_t *p, uint32_t n)
{
    if (!fz_input_shm)
        return;
    uint32_t req = n & FZ_BATCH_CUSTOM; /* kept: the driver reads the request */
    n &= ~FZ_BATCH_CUSTOM;
    if (n > FZ_MAX_INPUT)
        n = FZ_MAX_INPUT;
    memcpy(__afl_fuzz_ptr, p, n);
    *__afl_fuzz_len = n | req;
}

/* Reads stdin to EOF (or until the buffer is full) into the fallback. */
static unsigned int read_stdin(void)
{
    size_t got = 0;
    while (got < sizeof fz_fallback_buf) {
        ssize_t r = read(0, fz_fallback_buf + got, sizeof fz_fallback_buf - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    return (unsigned int)got;
}

FZ_RT_EXPORT unsigned int __fz_testcase_len(void)
{
    if (fz_input_shm) {
        /* The length word is the fuzzer's; never trust it past the buffer. */
        unsigned int n = *__afl_fuzz_len;
        return n > FZ_MAX_INPUT ? FZ_MAX_INPUT : n;
    }
    fz_fallback_len = read_stdin();
    return fz_fallback_len;
}
