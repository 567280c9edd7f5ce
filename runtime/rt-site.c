/*
 * rt-site.c - builds a crash site (include/fz-protocol.h, "Crash sites"):
 * frames as module-relative offsets, hashed, so the site is the same in
 * every run whatever ASLR does, and written to the diagnostics page.  Also
 * remembers the instrumented modules, so frames in libc or a sanitizer's
 * library are left out of a site.
 *
 * Everything here runs in the crash handler too: loads, stores and
 * _dl_find_object (glibc >= 2.35, documented async-signal-safe); nothing
 * allocates.
 */
#define _GNU_SOURCE
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "fz-hash.h"
#include "runtime/rt-site.h"

/* Instrumented modules remembered (by an address inside each); frames in
 * other modules are not the program's and are skipped. */
#define FZ_CRASH_MAX_MODS 64

static struct {
    const void *mods[FZ_CRASH_MAX_MODS]; /* an address inside each instrumented module */
    unsigned nmods;
} st;

const char *__fz_rt_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void __fz_rt_site_start(fz_rt_site_t *s, uint32_t from)
{
    memset(s, 0, sizeof *s);
    s->hash = FZ_HASH_START;
    s->from = from;
}

static void set_module(fz_rt_site_t *s, uint32_t i, const char *name, size_t n)
{
    if (n >= sizeof s->module[i])
        n = sizeof s->module[i] - 1;
    memcpy(s->module[i], name, n);
    s->module[i][n] = 0;
}

void __fz_rt_site_add(fz_rt_site_t *s, const char *mod, size_t modlen, uint64_t off)
{
    set_module(s, s->n, mod, modlen);
    s->hash = fz_hash_mix(s->hash, mod, modlen);
    s->hash = fz_hash_mix(s->hash, &off, sizeof off);
    s->off[s->n++] = off;
}

void __fz_rt_site_publish(fz_diag_t *p, const fz_rt_site_t *s, int sig)
{
    uint64_t h = fz_hash_mix(s->hash, &sig, sizeof sig);
    p->site = h ? h : 1;
    p->site_sig = (uint32_t)sig;
    p->site_from = s->from;
    p->site_nframes = s->n;
    memcpy(p->site_off, s->off, sizeof p->site_off);
    memcpy(p->site_module, s->module, sizeof p->site_module);
    __atomic_store_n(&p->site_pid, (uint32_t)getpid(), __ATOMIC_RELEASE);
}

void __fz_rt_site_note_module(const void *addr)
{
    if (st.nmods < FZ_CRASH_MAX_MODS)
        st.mods[st.nmods++] = addr;
}

#ifdef DLFO_STRUCT_HAS_EH_DBASE
/* glibc >= 2.35: _dl_find_object is lock-free and async-signal-safe.  Weak,
 * so a binary built here still loads with an older glibc (and then gets
 * page offsets only). */
extern int _dl_find_object(void *, struct dl_find_object *) __attribute__((weak));

/* start: where the object was mapped (tells objects apart); bias: its
 * load bias, so pc - bias is the address in the ELF file that addr2line
 * takes (equal to start for a PIE or library, 0 for a fixed-address
 * executable). */
int __fz_rt_site_object(const void *pc, uintptr_t *start, uintptr_t *bias, const char **name)
{
    struct dl_find_object o;
    if (!_dl_find_object || _dl_find_object((void *)pc, &o) != 0)
        return -1;
    *start = (uintptr_t)o.dlfo_map_start;
    *bias = o.dlfo_link_map ? (uintptr_t)o.dlfo_link_map->l_addr : *start;
    *name = o.dlfo_link_map && o.dlfo_link_map->l_name && o.dlfo_link_map->l_name[0]
                ? __fz_rt_base_name(o.dlfo_link_map->l_name)
                : "exe";
    return 0;
}
#else
int __fz_rt_site_object(const void *pc, uintptr_t *start, uintptr_t *bias, const char **name)
{
    (void)pc, (void)start, (void)bias, (void)name;
    return -1;
}
#endif

int __fz_rt_site_foreign(uintptr_t start)
{
    if (!st.nmods)
        return 0;
    for (unsigned i = 0; i < st.nmods; i++) {
        uintptr_t s, b;
        const char *n;
        if (__fz_rt_site_object(st.mods[i], &s, &b, &n) == 0 && s == start)
            return 0;
    }
    return 1;
}
