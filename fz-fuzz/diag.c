/*
 * diag.c - warnings about target behaviour the runtime reported (diag.h).
 */
#define _GNU_SOURCE
#include "fz-fuzz/diag.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz-fuzz/state.h"
#include "fz-log.h"

/* The order warnings are given in. */
static const uint32_t kinds[] = {FZ_DIAG_HANDLER, FZ_DIAG_FORK, FZ_DIAG_EXEC, FZ_DIAG_EXIT_IN_LOOP};

static void sanitise(const char *in, char *out, size_t n)
{
    size_t i = 0;
    for (; in[i] && i + 1 < n; i++) {
        char c = in[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '_' || c == '+' || c == '-';
        out[i] = ok ? c : '_';
    }
    out[i] = 0;
    if (!i && n > 1)
        snprintf(out, n, "?");
}

/* "SIGSEGV,SIGABRT" (sep ",") or "SIGSEGV, SIGABRT" (sep ", "). */
static void sig_list(uint32_t sigs, const char *sep, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int s = 1; s < 32; s++) {
        if (!(sigs & (1u << s)))
            continue;
        const char *abbrev = sigabbrev_np(s);
        int w = snprintf(buf + len, n - len, "%sSIG%s", len ? sep : "", abbrev ? abbrev : "?");
        if (w < 0 || (size_t)w >= n - len)
            return;
        len += (size_t)w;
    }
}

static void add(char *buf, size_t n, const char *word)
{
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%s%s", len ? " " : "", word);
}

void fz_diag_summary(uint32_t flags, uint32_t sigs, const char *exec_name, char *buf, size_t n)
{
    char name[16], word[96];
    buf[0] = 0;
    sanitise(exec_name ? exec_name : "", name, sizeof name);
    if (flags & FZ_DIAG_FORK)
        add(buf, n, "fork");
    if (flags & FZ_DIAG_EXEC) {
        snprintf(word, sizeof word, "%s:%s",
                 flags & FZ_DIAG_EXEC_INSTR ? "exec_instrumented" : "exec", name);
        add(buf, n, word);
    }
    if ((flags & FZ_DIAG_HANDLER) && sigs) {
        char list[80];
        sig_list(sigs, ",", list, sizeof list);
        snprintf(word, sizeof word, "handler:%s", list);
        add(buf, n, word);
    }
    if (flags & FZ_DIAG_EXIT_IN_LOOP)
        add(buf, n, "exit_in_loop");
}

void fz_diag_message(uint32_t bit, uint32_t flags, uint32_t sigs, const char *exec_name,
                     double execs_per_fork, char *buf, size_t n)
{
    char name[16], list[80];
    sanitise(exec_name ? exec_name : "", name, sizeof name);
    switch (bit) {
    case FZ_DIAG_HANDLER:
        sig_list(sigs, ", ", list, sizeof list);
        snprintf(buf, n,
                 "the target installs its own handler for %s: a crash it catches and turns into "
                 "an exit is not seen as a crash; in fuzzing builds (#ifdef __AFL_COMPILER) keep "
                 "the default action, or re-raise the signal from the handler",
                 list);
        break;
    case FZ_DIAG_FORK:
        snprintf(buf, n,
                 "the target forks during runs: crashes and coverage in the processes it forks "
                 "are not seen, and a forked process may still be running when the next input "
                 "starts; fuzz that code in-process");
        break;
    case FZ_DIAG_EXEC:
        if (flags & FZ_DIAG_EXEC_INSTR)
            snprintf(buf, n,
                     "runs start the instrumented program '%s': its counters share the "
                     "target's map slots, so its coverage is mixed into the target's; fuzz it "
                     "on its own instead",
                     name);
        else
            snprintf(buf, n,
                     "runs exec '%s' (or the target renames itself): coverage stops at the exec "
                     "and exits or crashes seen are that program's; fuzz the code that runs "
                     "before it in-process",
                     name);
        break;
    case FZ_DIAG_EXIT_IN_LOOP:
        snprintf(buf, n,
                 "the harness leaves __AFL_LOOP through exit(), _exit() or a return from main: "
                 "each such input costs a new process (%.2f runs per process so far); let the "
                 "loop body return instead",
                 execs_per_fork);
        break;
    default:
        snprintf(buf, n, "the runtime reported an unknown condition 0x%x", bit);
    }
}

static double execs_per_fork(const fz_exec_info_t *i)
{
    return i->forks ? (double)i->execs / i->forks : 1.0;
}

static void warn_one(const fz_state_t *st, uint32_t bit)
{
    const fz_diag_seen_t *d = &st->diag;
    char msg[512];
    fz_exec_info_t info = fz_exec_info(&st->exec);
    fz_diag_message(bit, d->flags, d->sigs, d->exec_name, execs_per_fork(&info), msg,
                    sizeof msg);
    fz_warn("%s", msg);
}

void fz_diag_poll(fz_state_t *st)
{
    const fz_diag_t *page = fz_exec_info(&st->exec).diag;
    if (!page)
        return;
    uint32_t flags = page->flags, sigs = page->handler_sigs;
    fz_diag_seen_t *d = &st->diag;
    uint32_t fresh = flags & ~d->flags, fresh_sigs = sigs & ~d->sigs;
    if (!fresh && !fresh_sigs)
        return;
    if (fresh & FZ_DIAG_EXEC) {
        char name[sizeof page->exec_name];
        memcpy(name, (const char *)page->exec_name, sizeof name);
        name[sizeof name - 1] = 0;
        sanitise(name, d->exec_name, sizeof d->exec_name);
    }
    d->flags |= flags;
    d->sigs |= sigs;
    fz_diag_summary(d->flags, d->sigs, d->exec_name, d->summary, sizeof d->summary);
    if (fresh_sigs)
        fresh |= FZ_DIAG_HANDLER; /* a new signal is worth saying again */
    if (st->ui.tty)
        return; /* on the screen now, in words at the end */
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (fresh & kinds[i])
            warn_one(st, kinds[i]);
}

void fz_diag_libs_message(uint32_t n, const char *list, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "the target loads %u shared librar%s without fz "
                                   "instrumentation, whose edges fz cannot see:",
                                   n, n == 1 ? "y" : "ies");
    const char *p = list;
    for (uint32_t i = 0; *p && used < len; i++) {
        size_t l = strcspn(p, "\n");
        const char *base = memrchr(p, '/', l);
        base = base ? base + 1 : p;
        if (i == 4) {
            used += (size_t)snprintf(buf + used, len - used, " ...");
            break;
        }
        used += (size_t)snprintf(buf + used, len - used, "%s %.*s (%.*s)", i ? "," : "",
                                 (int)(p + l - base), base, (int)l, p);
        p += l + (p[l] == '\n');
    }
    if (used < len)
        snprintf(buf + used, len - used,
                 "; link them statically (e.g. ./configure --disable-shared), or build them "
                 "with fz-cc and run with LD_LIBRARY_PATH set to that build's library directory "
                 "(docs/instrumenting.md, \"Shared libraries\")");
}

void fz_diag_modules(fz_state_t *st)
{
    const fz_diag_t *page = fz_exec_info(&st->exec).diag;
    fz_diag_seen_t *d = &st->diag;
    if (!page || !page->mods_instr)
        return; /* not an fz-cc target (afl-cc, blind): nothing was reported */
    d->mods_known = 1;
    d->mods_instr = page->mods_instr;
    d->mods_plain = page->mods_plain;
    if (!d->mods_plain)
        return;
    char list[sizeof page->plain_libs];
    memcpy(list, (const char *)page->plain_libs, sizeof list);
    list[sizeof list - 1] = 0;
    size_t len = 2 * sizeof list + 512;
    free(d->libs_warning);
    if (!(d->libs_warning = malloc(len)))
        return;
    fz_diag_libs_message(d->mods_plain, list, d->libs_warning, len);
    if (!st->jobs.shared || st->jobs.self == 0)
        fz_warn("%s", d->libs_warning);
}

void fz_diag_final(fz_state_t *st)
{
    fz_diag_poll(st);
    if (!st->ui.tty)
        return;
    if (st->diag.libs_warning && (!st->jobs.shared || st->jobs.self == 0))
        fz_warn("%s", st->diag.libs_warning);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (st->diag.flags & kinds[i])
            warn_one(st, kinds[i]);
}
