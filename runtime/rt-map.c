/*
 * rt-map.c - the coverage map inside the target: attaches the fuzzer's
 * SysV segment (__AFL_SHM_ID) and hands every instrumented module that
 * registers a consecutive, non-overlapping range of it (docs/internals.md,
 * "Instrumented module <-> runtime ABI").
 *
 * Outside a fuzzer nothing is attached and modules keep counting into their
 * own scratch counters: no output, no cost.  A module that does not fit in
 * the offered map also keeps its scratch counters; the total the program
 * would need is still counted, and the forkserver reports it so the fuzzer
 * can grow its map.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "fz-buckets.h"
#include "fz-config.h"
#include "fz-protocol.h"
#include "runtime/rt-diag.h"
#include "runtime/rt-map.h"
#include "runtime/rt-site.h"

/* Modules whose map pointers the runtime remembers, so it can point them
 * back at their scratch counters after the last persistent iteration.  A
 * program with more instrumented modules still works; the extra ones just
 * keep counting into the map after the loop ends. */
#define FZ_RT_MAX_MODULES 4096

struct fz_rt_module {
    uint8_t **area;   /* the module's map pointer */
    uint8_t *scratch; /* what it pointed at before registration */
};

/* Slot 0 is never handed out: AFL++'s tools treat map byte 0 as their own
 * marker (afl-showmap does not report it), so module ranges start at 1. */
#define FZ_RT_FIRST_SLOT 1

/* Defined (non-zero) by the libFuzzer driver when it wants coverage
 * outside a fuzzer; weak, so other programs do not have it. */
extern const int __fz_lf_local_map __attribute__((weak));
#define FZ_RT_LOCAL_MAP (64u << 20)

_Static_assert(sizeof(fz_diag_t) <= FZ_DIAG_SIZE, "fz_diag_t outgrew its page");

/* Registrations whose address (the module's map pointer, in its own data)
 * the runtime keeps to tell which loaded objects are instrumented
 * (__fz_rt_map_report_modules).  Past this many, the count still grows and
 * the later modules are only missing from that report. */
#define FZ_RT_MAX_REGS 256

static struct {
    int tried;       /* attach attempted (once per process) */
    int local;       /* map is the driver's private one */
    int error;       /* FZ_FS_ERROR_* from the attempt, 0 if fine */
    int sys_errno;   /* errno of the failed attach */
    uint8_t *map;    /* the fuzzer's map, NULL outside a fuzzer */
    uint32_t cap;    /* usable bytes of map */
    uint32_t used;   /* slots handed out so far (a prefix of map) */
    uint64_t needed; /* slots every registered module asked for */
    size_t seg_len;  /* bytes shmat mapped (whole pages) */
    uint32_t nmods;
    struct fz_rt_module mods[FZ_RT_MAX_MODULES];
    uint32_t nregs;
    uintptr_t regs[FZ_RT_MAX_REGS]; /* address of each registered map pointer */
} rt_map;

int __fz_rt_map_attach(void)
{
    if (rt_map.tried)
        return rt_map.error;
    rt_map.tried = 1;
    const char *id_str = getenv(FZ_ENV_SHM_ID);
    if (!id_str || !*id_str) {
        /* The libFuzzer driver run outside a fuzzer measures coverage
         * itself (runtime/lf-run.c): a private map, reserved, not
         * committed, so only the slots in use cost memory. */
        if (&__fz_lf_local_map && __fz_lf_local_map) {
            void *m = mmap(NULL, FZ_RT_LOCAL_MAP, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (m != MAP_FAILED) {
                rt_map.map = m;
                rt_map.cap = FZ_RT_LOCAL_MAP;
                rt_map.local = 1;
            }
        }
        return 0;
    }
    char *end;
    long id = strtol(id_str, &end, 10);
    struct shmid_ds ds;
    if (*end || id < 0 || shmctl((int)id, IPC_STAT, &ds) < 0) {
        rt_map.error = FZ_FS_ERROR_SHM_OPEN;
        return rt_map.error;
    }
    void *mem = shmat((int)id, NULL, 0);
    if (mem == (void *)-1) {
        rt_map.sys_errno = errno;
        rt_map.error = FZ_FS_ERROR_SHMAT;
        return rt_map.error;
    }
    /* The segment size is what the fuzzer allocated; AFL_MAP_SIZE, when
     * set, says how much of it the fuzzer actually reads. */
    uint64_t cap = ds.shm_segsz;
    const char *ms = getenv(FZ_ENV_MAP_SIZE);
    if (ms && *ms) {
        unsigned long v = strtoul(ms, NULL, 10);
        if (v > 0 && v < cap)
            cap = v;
    }
    long page = sysconf(_SC_PAGESIZE);
    rt_map.seg_len = page > 0 ? (ds.shm_segsz + (size_t)page - 1) / (size_t)page * (size_t)page : 0;
    rt_map.map = mem;
    rt_map.cap = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
    return 0;
}

int __fz_rt_map_errno(void)
{
    return rt_map.sys_errno;
}

__attribute__((visibility("default"))) void __fz_register(uint8_t **area, uint32_t n)
{
    __fz_rt_map_attach();
    if (rt_map.nregs < FZ_RT_MAX_REGS)
        rt_map.regs[rt_map.nregs++] = (uintptr_t)area;
    if (rt_map.needed == 0)
        rt_map.needed = FZ_RT_FIRST_SLOT;
    uint64_t base = rt_map.needed;
    rt_map.needed += n;
    if (!rt_map.map || base + n > rt_map.cap)
        return;
    __fz_rt_site_note_module(area);
    if (rt_map.nmods < FZ_RT_MAX_MODULES)
        rt_map.mods[rt_map.nmods++] = (struct fz_rt_module){area, *area};
    *area = rt_map.map + base;
    rt_map.used = (uint32_t)(base + n);
}

uint8_t *__fz_rt_map_local(uint32_t *used, uint32_t *nmods)
{
    *used = rt_map.used;
    *nmods = rt_map.nmods;
    return rt_map.local ? rt_map.map : NULL;
}

uint32_t __fz_rt_map_size(void)
{
    uint64_t n = rt_map.needed;
    n = (n + FZ_MAP_SIZE_MIN - 1) / FZ_MAP_SIZE_MIN * FZ_MAP_SIZE_MIN;
    if (n == 0)
        n = FZ_MAP_SIZE_MIN;
    return n > UINT32_MAX ? UINT32_MAX - FZ_MAP_SIZE_MIN + 1 : (uint32_t)n;
}

void __fz_rt_map_clear(void)
{
    if (rt_map.map)
        memset(rt_map.map, 0, rt_map.used);
}

int __fz_rt_map_any_new(const uint8_t *virgin, size_t virgin_len)
{
    if (!rt_map.map)
        return 0;
    /* Whole words: the slots past used are zero (never handed out). */
    uint32_t n = (rt_map.used + 7u) & ~7u;
    if (n > (rt_map.cap & ~7u))
        n = rt_map.cap & ~7u;
    if (n > (virgin_len & ~(size_t)7))
        n = (uint32_t)(virgin_len & ~(size_t)7);
    return fz_buckets_any_new(rt_map.map, virgin, n);
}

/* After the last persistent pass nothing the process does is an input's
 * coverage, but pointing the modules back at their scratch counters is not
 * enough: an instrumented function loads its map pointer once, on entry,
 * so the code after __AFL_LOOP in the function that called it (usually
 * main) still writes through the old pointer.  Those writes would land in
 * the map of the run that just ended and show as coverage no input has
 * (a "new" entry whenever a child is replaced).  So the shared segment is
 * replaced in this process by private zero pages at the same address
 * (mmap MAP_FIXED atomically unmaps what was there): stale pointers stay
 * valid and write where nobody reads.  The fuzzer's own mapping, and the
 * forkserver's, are separate and untouched.  If the mmap fails, the
 * segment is detached instead of leaving it writable: a write would then
 * fault, which is louder than wrong coverage but never silent. */
void __fz_rt_map_detach(void)
{
    for (uint32_t i = 0; i < rt_map.nmods; i++)
        *rt_map.mods[i].area = rt_map.mods[i].scratch;
    if (!rt_map.map || !rt_map.seg_len)
        return;
    void *p = mmap(rt_map.map, rt_map.seg_len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (p == MAP_FAILED)
        shmdt(rt_map.map);
    rt_map.seg_len = 0; /* done: later calls only reset the pointers */
}

/* Libraries every program loads that no user builds with fz-cc: the
 * loader, the C library and its parts, the C++ and compiler runtimes, the
 * sanitizer runtimes, the vDSO.  Matched on the file name's start, up to
 * a '.', '-' or '_' (so "libc." does not swallow "libcurl."). */
static const char *const toolchain_libs[] = {
    "linux-vdso", "linux-gate", "ld-linux", "ld64", "ld-musl", "libc", "libm", "libmvec",
    "libpthread", "libdl", "librt", "libresolv", "libutil", "libanl", "libnsl", "libcrypt",
    "libnss", "libthread_db", "libstdc++", "libc++", "libc++abi", "libunwind", "libgcc_s",
    "libatomic", "libgomp", "libomp", "libquadmath", "libgfortran", "libasan", "libubsan",
    "libtsan", "liblsan", "libmsan", "libhwasan", "libclang_rt", "libSegFault", "libmemusage",
};

static int is_toolchain_lib(const char *base)
{
    for (size_t i = 0; i < sizeof toolchain_libs / sizeof toolchain_libs[0]; i++) {
        size_t n = strlen(toolchain_libs[i]);
        char c = base[n];
        if (strncmp(base, toolchain_libs[i], n) == 0 && (c == '.' || c == '-' || c == '_'))
            return 1;
    }
    return 0;
}

/* 1 when one of the object's loaded segments holds a registration. */
static int has_registration(const struct dl_phdr_info *info)
{
    for (int k = 0; k < info->dlpi_phnum; k++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[k];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        for (uint32_t r = 0; r < rt_map.nregs; r++)
            if (rt_map.regs[r] >= lo && rt_map.regs[r] < hi)
                return 1;
    }
    return 0;
}

static int on_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    fz_diag_t *d = arg;
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    if (has_registration(info)) {
        d->mods_instr++;
        return 0;
    }
    if (!name[0])
        return 0; /* the program itself (fz-fuzz checks it) or the vDSO */
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (is_toolchain_lib(base))
        return 0;
    d->mods_plain++;
    size_t used = strnlen(d->plain_libs, sizeof d->plain_libs), n = strlen(name);
    if (used + n + 2 <= sizeof d->plain_libs) {
        memcpy(d->plain_libs + used, name, n);
        d->plain_libs[used + n] = '\n';
        d->plain_libs[used + n + 1] = 0;
    }
    return 0;
}

void __fz_rt_map_report_modules(void)
{
    fz_diag_t *d = __fz_rt_diag_page();
    if (!d)
        return;
    d->mods_instr = d->mods_plain = 0;
    d->plain_libs[0] = 0;
    dl_iterate_phdr(on_object, d);
}
