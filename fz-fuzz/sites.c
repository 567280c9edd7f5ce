/*
 * sites.c - the set of crash sites seen (see sites.h).  Campaigns find a
 * handful of sites, rarely hundreds, so a linear search is plenty and keeps
 * the order of discovery for the end-of-run summary.
 */
#include "fz-fuzz/sites.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz-log.h"

static void *grow(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p)
        fz_die("out of memory (%zu bytes) recording crash sites", n);
    return p;
}

fz_site_rec_t *fz_sites_find(const fz_sites_t *s, uint64_t hash)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i].where.hash == hash)
            return &s->v[i];
    return NULL;
}

fz_site_rec_t *fz_sites_add(fz_sites_t *s, const fz_site_t *where, int signal, const char *file,
                            int this_run)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 16;
        s->v = grow(s->v, s->cap * sizeof(*s->v));
    }
    fz_site_rec_t *r = &s->v[s->n++];
    memset(r, 0, sizeof(*r));
    r->where = *where;
    r->signal = signal;
    r->file = file ? strcpy(grow(NULL, strlen(file) + 1), file) : NULL;
    r->this_run = this_run;
    return r;
}

uint32_t fz_sites_new(const fz_sites_t *s)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->n; i++)
        n += s->v[i].this_run && !s->v[i].alias_of;
    return n;
}

uint32_t fz_sites_count(const fz_sites_t *s)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->n; i++)
        n += !s->v[i].alias_of;
    return n;
}

static const char *sig_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGTRAP: return "SIGTRAP";
    default: return NULL;
    }
}

void fz_sites_describe(const fz_site_rec_t *r, char *buf, size_t n)
{
    char sig[16];
    const char *name = sig_name(r->signal);
    if (name)
        snprintf(sig, sizeof sig, "%s", name);
    else
        snprintf(sig, sizeof sig, "signal %d", r->signal);
    const fz_site_t *w = &r->where;
    if (w->from == FZ_SITE_FROM_UBSAN) {
        snprintf(buf, n, "%s at %s:%llu:%llu (UBSan)", sig, w->module[0],
                 (unsigned long long)w->off[0], (unsigned long long)w->off[1]);
        return;
    }
    size_t used = (size_t)snprintf(buf, n, "%s", sig);
    for (uint32_t i = 0; i < w->nframes && i < FZ_SITE_FRAMES && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s+0x%llx", i ? " < " : " at ",
                                 w->module[i], (unsigned long long)w->off[i]);
    if (w->from == FZ_SITE_FROM_ASAN && used < n)
        snprintf(buf + used, n - used, " (ASan)");
}

void fz_sites_free(fz_sites_t *s)
{
    for (uint32_t i = 0; i < s->n; i++)
        free(s->v[i].file);
    free(s->v);
    memset(s, 0, sizeof(*s));
}
