/*
 * rt-crash.c - where a fuzzed child crashed: its crash site.
 *
 * fz-fuzz tells two crashes apart by where they happen, not only by the
 * coverage of the run (include/fz-protocol.h, "Crash sites"): a deep bug
 * whose input also reaches a shallow one must keep its own file, and four
 * paths into one abort() are one bug.  So, under fz-fuzz only (the
 * diagnostics page exists), the forkserver installs a handler for the
 * crash signals the program left at their default action.  In the dying
 * child it unwinds a few frames, makes each address module-relative,
 * hashes them, writes the site to the page and re-raises the signal with
 * the default action, so the wait status is exactly what it would have
 * been.  A fault inside the handler itself (a stack too broken to walk)
 * never loops: the handler was reset to the default on entry
 * (SA_RESETHAND), and a second crash signal makes it re-raise the first
 * one at once, so the process dies of the first signal, with no site.
 *
 * The handler's stack walk is rt-unwind.c's, the site it builds and
 * publishes rt-site.c's; a sanitizer's report (rt-san.c) gives the site
 * instead when one came before the abort.
 *
 * Async-signal safety: the handler calls getpid, raise, sigaction and
 * _dl_find_object (glibc >= 2.35, documented async-signal-safe) and the
 * stack walk, which is async-signal-safe once prepared at install time,
 * before any fork.  Nothing here allocates.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "fz-protocol.h"
#include "runtime/rt-crash.h"
#include "runtime/rt-diag.h"
#include "runtime/rt-san.h"
#include "runtime/rt-site.h"
#include "runtime/rt-unwind.h"

/* Frames asked of the unwinder: the handler, the signal trampoline, libc's
 * abort/raise and a sanitizer's reporting frames come before the ones that
 * matter. */
#define FZ_CRASH_UNWIND 48

static const int crash_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define N_SIGS (sizeof crash_sigs / sizeof crash_sigs[0])

static struct {
    fz_diag_t *page;                  /* NULL: not under fz-fuzz */
    volatile sig_atomic_t busy;       /* the handler runs for this signal: no second pass */
    char altstack[64 * 1024];         /* so a stack overflow still gets a site */
} cr;

/* The faulting instruction's address, from the signal's context. */
static uintptr_t fault_pc(const void *ucv)
{
    const ucontext_t *uc = ucv;
#if defined(__x86_64__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
    return (uintptr_t)uc->uc_mcontext.pc;
#else
    (void)uc;
    return 0;
#endif
}

/* Unwinds from the handler, starts at the faulting frame and keeps the
 * first FZ_SITE_FRAMES frames of instrumented modules.  Without module
 * information (old glibc) each address is reduced to its offset in its
 * page, which ASLR does not change. */
static void unwind(fz_rt_site_t *s, const void *ucv)
{
    void *pcs[FZ_CRASH_UNWIND];
    int n = __fz_rt_unwind(pcs, FZ_CRASH_UNWIND, ucv);
    uintptr_t pc = fault_pc(ucv);
    int first = 0;
    for (int i = 0; i < n; i++)
        if ((uintptr_t)pcs[i] == pc) {
            first = i;
            break;
        }
    if (n <= 0 || (uintptr_t)pcs[first] != pc) {
        /* The unwinder did not get through the signal frame: the faulting
         * address alone is still a site. */
        pcs[0] = (void *)pc;
        n = 1, first = 0;
    }
    for (int i = first; i < n && s->n < FZ_SITE_FRAMES; i++) {
        uintptr_t start, bias;
        const char *mod;
        if (__fz_rt_site_object(pcs[i], &start, &bias, &mod) != 0) {
            __fz_rt_site_add(s, "?", 1, (uintptr_t)pcs[i] & 0xfff);
            continue;
        }
        if (__fz_rt_site_foreign(start))
            continue;
        /* Above the faulting frame each address is a return address: one
         * byte back is inside the call, which is the line addr2line should
         * name (after a call to a noreturn function like abort() the
         * return address is already the next function). */
        __fz_rt_site_add(s, mod, strlen(mod), (uintptr_t)pcs[i] - bias - (i != first));
    }
}

static void on_crash(int sig, siginfo_t *si, void *ucv)
{
    (void)si;
    if (cr.busy) {
        /* A fault while unwinding (a stack too broken to walk): die of the
         * first signal, as the program would have without us, with no
         * site (the fuzzer then judges the crash by its coverage). */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(cr.busy, &dfl, NULL);
        raise(cr.busy);
        raise(sig);
    }
    if (!cr.busy) {
        cr.busy = sig;
        fz_rt_site_t s;
        if (!__fz_rt_san_pending(&s)) {
            __fz_rt_site_start(&s, FZ_SITE_FROM_HANDLER);
            unwind(&s, ucv);
        }
        /* No frame of the program's own (the unwinder stopped inside a
         * library): no site rather than one shared by every such crash;
         * the fuzzer then judges it by its coverage. */
        if (s.n)
            __fz_rt_site_publish(cr.page, &s, sig);
    }
    /* SA_RESETHAND already put the default action back and SA_NODEFER
     * leaves the signal unblocked: this kills the process with sig.  A
     * fault (not a raise) would also recur on return, but a signal sent
     * with kill() would not, so raise it in every case. */
    raise(sig);
}

void __fz_rt_crash_install(void)
{
    cr.page = __fz_rt_diag_page();
    __fz_rt_san_install(cr.page);
    if (!cr.page)
        return;
    /* The handler installed below is not the program's. */
    __fz_rt_diag_own_handler((const void *)on_crash);
    __fz_rt_unwind_prepare();
    stack_t ss;
    if (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_DISABLE)) {
        ss = (stack_t){.ss_sp = cr.altstack, .ss_size = sizeof cr.altstack};
        sigaltstack(&ss, NULL);
    }
    for (size_t i = 0; i < N_SIGS; i++) {
        struct sigaction old, sa;
        /* A handler already there (the program's, a sanitizer's) decides
         * what a crash is; only the default action is ours to replace. */
        if (sigaction(crash_sigs[i], NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
            old.sa_handler != SIG_DFL)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_crash;
        sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(crash_sigs[i], &sa, NULL);
    }
}

