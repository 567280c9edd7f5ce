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
 * Sanitizer builds report before they abort, and by then the stack is the
 * sanitizer's own: ASan hands its report to a callback (its first stack
 * starts at the faulting frame of the program), UBSan calls a hook while
 * its report is current (source file, line, column, kind).  Those give
 * the site instead, kept until the abort that follows.
 *
 * Async-signal safety: the handler calls getpid, raise, sigaction and
 * _dl_find_object (glibc >= 2.35, documented async-signal-safe), and walks
 * the frames itself on x86-64 (below, "The runtime's own unwinder");
 * elsewhere it calls backtrace, whose one unsafe step, loading the
 * unwinder, is then done once at install time, before any fork.  Nothing
 * here allocates.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "fz-protocol.h"
#include "runtime/rt.h"

/* Frames asked of the unwinder: the handler, the signal trampoline, libc's
 * abort/raise and a sanitizer's reporting frames come before the ones that
 * matter. */
#define FZ_CRASH_UNWIND 48

/* Instrumented modules remembered (by an address inside each); frames in
 * other modules are not the program's and are skipped. */
#define FZ_CRASH_MAX_MODS 64

static const int crash_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define N_SIGS (sizeof crash_sigs / sizeof crash_sigs[0])

/* One site being built (by the handler or a sanitizer hook). */
typedef struct {
    uint64_t hash;
    uint32_t from, n;
    uint64_t off[FZ_SITE_FRAMES];
    char module[FZ_SITE_FRAMES][24];
} site_t;

static struct {
    fz_diag_t *page;                  /* NULL: not under fz-fuzz */
    const void *mods[FZ_CRASH_MAX_MODS]; /* an address inside each instrumented module */
    unsigned nmods;
    volatile sig_atomic_t busy;       /* the handler runs for this signal: no second pass */
    site_t pending;                   /* a sanitizer's site, waiting for its abort */
    pid_t pending_pid;                /* the process pending belongs to; 0 = none */
    char altstack[64 * 1024];         /* so a stack overflow still gets a site */
} cr;

/* FNV-1a, 64 bits: cheap, no tables, good enough to tell sites apart. */
static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}
#define FNV_START 0xcbf29ce484222325ull

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* base_name of the first n bytes of path. */
static const char *base_name_n(const char *path, size_t n)
{
    const char *b = path;
    for (size_t i = 0; i < n; i++)
        if (path[i] == '/')
            b = path + i + 1;
    return b;
}

static void set_module(site_t *s, uint32_t i, const char *name, size_t n)
{
    if (n >= sizeof s->module[i])
        n = sizeof s->module[i] - 1;
    memcpy(s->module[i], name, n);
    s->module[i][n] = 0;
}

/* Adds one frame (module name, offset) to s. */
static void add_frame(site_t *s, const char *mod, size_t modlen, uint64_t off)
{
    set_module(s, s->n, mod, modlen);
    s->hash = mix(s->hash, mod, modlen);
    s->hash = mix(s->hash, &off, sizeof off);
    s->off[s->n++] = off;
}

void __fz_rt_crash_note_module(const void *addr)
{
    if (cr.nmods < FZ_CRASH_MAX_MODS)
        cr.mods[cr.nmods++] = addr;
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
static int find_object(const void *pc, uintptr_t *start, uintptr_t *bias, const char **name)
{
    struct dl_find_object o;
    if (!_dl_find_object || _dl_find_object((void *)pc, &o) != 0)
        return -1;
    *start = (uintptr_t)o.dlfo_map_start;
    *bias = o.dlfo_link_map ? (uintptr_t)o.dlfo_link_map->l_addr : *start;
    *name = o.dlfo_link_map && o.dlfo_link_map->l_name && o.dlfo_link_map->l_name[0]
                ? base_name(o.dlfo_link_map->l_name)
                : "exe";
    return 0;
}
#else
static int find_object(const void *pc, uintptr_t *start, uintptr_t *bias, const char **name)
{
    (void)pc, (void)start, (void)bias, (void)name;
    return -1;
}
#endif

/* Non-zero when the object starting at start holds instrumented code. */
static int instrumented(uintptr_t start)
{
    for (unsigned i = 0; i < cr.nmods; i++) {
        uintptr_t s, b;
        const char *n;
        if (find_object(cr.mods[i], &s, &b, &n) == 0 && s == start)
            return 1;
    }
    return 0;
}

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

#if defined(__x86_64__) && defined(DLFO_STRUCT_HAS_EH_DBASE)
/* The runtime's own unwinder (x86-64, glibc >= 2.35): it follows each
 * frame's DWARF call-frame information (.eh_frame, found through
 * .eh_frame_hdr, which _dl_find_object hands us), starting from the
 * registers in the signal's context.  backtrace() would do the same
 * through libgcc_s, but loading that library is not async-signal-safe, so
 * it had to be loaded in the forkserver; then every child mapped it and
 * ran its destructors at exit, a few page faults per run for a crash that
 * almost never comes.  This one only loads and stores.  A frame without
 * call-frame information, or with a rule it does not follow (DWARF
 * expressions: signal trampolines, hand-written assembly), ends the walk;
 * a read through a corrupt stack faults, and the handler then dies of the
 * first signal with no site, as it did with backtrace(). */
#define FZ_UNWIND_OWN 1

/* DWARF register numbers: rax rdx rcx rbx rsi rdi rbp rsp r8..r15, then
 * the return address (16). */
#define CFI_NREGS 17
#define CFI_RSP 7
#define CFI_RA 16
#define CFI_STATES 8 /* DW_CFA_remember_state depth */

enum { RULE_SAME, RULE_UNDEF, RULE_OFFSET, RULE_VAL_OFFSET, RULE_REG };

typedef struct {
    uint8_t how[CFI_NREGS];
    uint8_t reg[CFI_NREGS];
    int64_t off[CFI_NREGS];
    uint64_t cfa_reg;
    int64_t cfa_off;
} cfi_row_t;

typedef struct {
    uint64_t code_align;
    int64_t data_align;
    uint8_t fde_enc;
    uint8_t has_z; /* augmentation "z...": FDEs carry augmentation data */
    const uint8_t *ins, *ins_end; /* the CIE's initial instructions */
} cfi_cie_t;

static uint64_t ld64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint32_t ld32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint64_t uleb(const uint8_t **pp, const uint8_t *end)
{
    const uint8_t *p = *pp;
    uint64_t v = 0;
    for (unsigned shift = 0; p < end; shift += 7) {
        uint8_t b = *p++;
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
    }
    *pp = p;
    return v;
}

static int64_t sleb(const uint8_t **pp, const uint8_t *end)
{
    const uint8_t *p = *pp;
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b = 0;
    while (p < end) {
        b = *p++;
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80))
            break;
    }
    if (shift < 64 && (b & 0x40))
        v |= ~(uint64_t)0 << shift;
    *pp = p;
    return (int64_t)v;
}

/* Reads one pointer in the DW_EH_PE encoding enc (absolute, pc-relative or
 * relative to datarel; indirect ones are followed).  Returns -1 for an
 * encoding we do not know. */
static int read_enc(const uint8_t **pp, const uint8_t *end, uint8_t enc, uintptr_t datarel,
                    uintptr_t *out)
{
    const uint8_t *p = *pp;
    uintptr_t base, v;
    if (enc == 0xff) /* DW_EH_PE_omit */
        return -1;
    switch (enc & 0x70) {
    case 0x00: base = 0; break;
    case 0x10: base = (uintptr_t)p; break; /* pcrel */
    case 0x30: base = datarel; break;
    default: return -1;
    }
    switch (enc & 0x0f) {
    case 0x00: case 0x04: case 0x0c: v = ld64(p), p += 8; break;
    case 0x01: v = uleb(&p, end); break;
    case 0x09: v = (uintptr_t)sleb(&p, end); break;
    case 0x02: { uint16_t h; memcpy(&h, p, 2); v = h, p += 2; break; }
    case 0x0a: { int16_t h; memcpy(&h, p, 2); v = (uintptr_t)(intptr_t)h, p += 2; break; }
    case 0x03: v = ld32(p), p += 4; break;
    case 0x0b: v = (uintptr_t)(intptr_t)(int32_t)ld32(p), p += 4; break;
    default: return -1;
    }
    v += base;
    if ((enc & 0x80) && v)
        v = (uintptr_t)ld64((const uint8_t *)v);
    *pp = p;
    *out = v;
    return 0;
}

/* The FDE that may cover pc, by a binary search of .eh_frame_hdr's table
 * (the usual datarel|sdata4 one; any other layout: NULL). */
static const uint8_t *find_fde(const uint8_t *hdr, uintptr_t pc)
{
    if (!hdr || hdr[0] != 1 || hdr[3] != 0x3b)
        return NULL;
    const uint8_t *p = hdr + 4, *end = hdr + 64;
    uintptr_t eh, count;
    if (read_enc(&p, end, hdr[1], (uintptr_t)hdr, &eh) ||
        read_enc(&p, end, hdr[2], (uintptr_t)hdr, &count))
        return NULL;
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uintptr_t loc = (uintptr_t)hdr + (uintptr_t)(intptr_t)(int32_t)ld32(p + 8 * mid);
        if (loc <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    return hdr + (intptr_t)(int32_t)ld32(p + 8 * (lo - 1) + 4);
}

static int parse_cie(const uint8_t *cie, cfi_cie_t *c)
{
    uint32_t len = ld32(cie);
    if (len == 0 || len == 0xffffffffu || ld32(cie + 4) != 0)
        return -1;
    const uint8_t *end = cie + 4 + len, *p = cie + 8;
    uint8_t version = *p++;
    const char *aug = (const char *)p;
    while (p < end && *p)
        p++;
    if (p >= end)
        return -1;
    p++;
    c->code_align = uleb(&p, end);
    c->data_align = sleb(&p, end);
    if (version == 1)
        p++;
    else
        uleb(&p, end);
    c->fde_enc = 0;
    c->has_z = aug[0] == 'z';
    if (c->has_z) {
        uint64_t n = uleb(&p, end);
        const uint8_t *aend = p + n;
        for (const char *a = aug + 1; *a && p < aend; a++) {
            uintptr_t ignored;
            if (*a == 'R')
                c->fde_enc = *p++;
            else if (*a == 'L')
                p++;
            else if (*a == 'P') {
                uint8_t e = *p++;
                if (read_enc(&p, aend, e & 0x7f, 0, &ignored))
                    return -1;
            } else if (*a != 'S')
                return -1;
        }
        p = aend;
    } else if (aug[0]) {
        return -1;
    }
    if (p > end)
        return -1;
    c->ins = p;
    c->ins_end = end;
    return 0;
}

/* Runs call-frame instructions from loc on until the row for pc: *row
 * holds its rules.  init: the row after the CIE's instructions (for
 * DW_CFA_restore), NULL while running those.  Returns -1 on an
 * instruction it does not follow. */
static int run_cfi(const uint8_t *p, const uint8_t *end, const cfi_cie_t *c, uintptr_t loc,
                   uintptr_t pc, cfi_row_t *row, const cfi_row_t *init)
{
    cfi_row_t saved[CFI_STATES];
    unsigned depth = 0;
    while (p < end) {
        uint8_t op = *p++;
        uint64_t reg = op & 0x3f, delta = 0;
        int64_t off = 0;
        int set = -1; /* a rule to set: RULE_* */
        switch (op >> 6) {
        case 1: /* DW_CFA_advance_loc */
            delta = reg;
            goto advance;
        case 2: /* DW_CFA_offset */
            off = (int64_t)uleb(&p, end) * c->data_align;
            set = RULE_OFFSET;
            goto rule;
        case 3: /* DW_CFA_restore */
            goto restore;
        }
        switch (op) {
        case 0x00: break; /* nop */
        case 0x01: { /* set_loc */
            uintptr_t v;
            if (read_enc(&p, end, c->fde_enc, 0, &v))
                return -1;
            if (v > pc)
                return 0;
            loc = v;
            break;
        }
        case 0x02: delta = *p++; goto advance;
        case 0x03: { uint16_t h; memcpy(&h, p, 2); p += 2; delta = h; goto advance; }
        case 0x04: delta = ld32(p), p += 4; goto advance;
        case 0x05: reg = uleb(&p, end); off = (int64_t)uleb(&p, end) * c->data_align; set = RULE_OFFSET; goto rule;
        case 0x06: reg = uleb(&p, end); goto restore;
        case 0x07: reg = uleb(&p, end); set = RULE_UNDEF; goto rule;
        case 0x08: reg = uleb(&p, end); set = RULE_SAME; goto rule;
        case 0x09: reg = uleb(&p, end); off = (int64_t)uleb(&p, end); set = RULE_REG; goto rule;
        case 0x0a:
            if (depth == CFI_STATES)
                return -1;
            saved[depth++] = *row;
            break;
        case 0x0b: /* restore_state: the whole row, CFA included, as
                    * GCC's own unwinder does */
            if (depth == 0)
                return -1;
            *row = saved[--depth];
            break;
        case 0x0c: row->cfa_reg = uleb(&p, end); row->cfa_off = (int64_t)uleb(&p, end); break;
        case 0x0d: row->cfa_reg = uleb(&p, end); break;
        case 0x0e: row->cfa_off = (int64_t)uleb(&p, end); break;
        case 0x12: row->cfa_reg = uleb(&p, end); row->cfa_off = sleb(&p, end) * c->data_align; break;
        case 0x13: row->cfa_off = sleb(&p, end) * c->data_align; break;
        case 0x11: reg = uleb(&p, end); off = sleb(&p, end) * c->data_align; set = RULE_OFFSET; goto rule;
        case 0x14: reg = uleb(&p, end); off = (int64_t)uleb(&p, end) * c->data_align; set = RULE_VAL_OFFSET; goto rule;
        case 0x15: reg = uleb(&p, end); off = sleb(&p, end) * c->data_align; set = RULE_VAL_OFFSET; goto rule;
        case 0x2e: uleb(&p, end); break; /* GNU_args_size */
        case 0x2f: reg = uleb(&p, end); off = -(int64_t)uleb(&p, end) * c->data_align; set = RULE_OFFSET; goto rule;
        case 0x0f: /* def_cfa_expression */
            return -1;
        case 0x10: case 0x16: /* expression, val_expression: that register is lost */
            reg = uleb(&p, end);
            p += uleb(&p, end);
            set = RULE_UNDEF;
            goto rule;
        default:
            return -1;
        }
        continue;
    advance:
        loc += delta * c->code_align;
        if (loc > pc)
            return 0;
        continue;
    rule:
        if (reg < CFI_NREGS) {
            row->how[reg] = (uint8_t)set;
            row->off[reg] = off;
            row->reg[reg] = (uint8_t)(off >= 0 && off < CFI_NREGS ? off : CFI_RA);
        }
        continue;
    restore:
        if (reg < CFI_NREGS && init) {
            row->how[reg] = init->how[reg];
            row->off[reg] = init->off[reg];
            row->reg[reg] = init->reg[reg];
        }
    }
    return 0;
}

/* One frame up: regs (and *pc) become the caller's.  lookup is the
 * address to find the frame's rules by (one byte back for a return
 * address, so a call at the end of a function finds that function).
 * Returns -1 at the end of what can be walked. */
static int cfi_step(uint64_t *regs, uintptr_t lookup)
{
    struct dl_find_object o;
    if (_dl_find_object((void *)lookup, &o) != 0 || !o.dlfo_eh_frame)
        return -1;
    const uint8_t *fde = find_fde(o.dlfo_eh_frame, lookup);
    if (!fde)
        return -1;
    uint32_t len = ld32(fde);
    if (len == 0 || len == 0xffffffffu)
        return -1;
    const uint8_t *end = fde + 4 + len, *p = fde + 8;
    cfi_cie_t c;
    if (parse_cie(fde + 4 - ld32(fde + 4), &c))
        return -1;
    uintptr_t start, range;
    if (read_enc(&p, end, c.fde_enc, 0, &start) || read_enc(&p, end, c.fde_enc & 0x0f, 0, &range))
        return -1;
    if (lookup < start || lookup - start >= range)
        return -1;
    if (c.has_z) /* the FDE's augmentation data: nothing we need */
        p += uleb(&p, end);
    cfi_row_t init, row;
    memset(&init, 0, sizeof init); /* every register: RULE_SAME */
    if (run_cfi(c.ins, c.ins_end, &c, start, (uintptr_t)-1, &init, NULL))
        return -1;
    row = init;
    if (run_cfi(p, end, &c, start, lookup, &row, &init))
        return -1;
    if (row.cfa_reg >= CFI_NREGS || row.how[CFI_RA] != RULE_OFFSET)
        return -1;
    uint64_t cfa = regs[row.cfa_reg] + (uint64_t)row.cfa_off;
    /* The caller's frame lies above this one on the same stack. */
    if (cfa <= regs[CFI_RSP] || cfa - regs[CFI_RSP] > (64u << 20) || (cfa & 7))
        return -1;
    uint64_t next[CFI_NREGS];
    for (int r = 0; r < CFI_NREGS; r++) {
        switch (row.how[r]) {
        case RULE_OFFSET: next[r] = ld64((const uint8_t *)(uintptr_t)(cfa + (uint64_t)row.off[r])); break;
        case RULE_VAL_OFFSET: next[r] = cfa + (uint64_t)row.off[r]; break;
        case RULE_REG: next[r] = regs[row.reg[r]]; break;
        case RULE_UNDEF: next[r] = 0; break;
        default: next[r] = regs[r]; break;
        }
    }
    next[CFI_RSP] = cfa;
    memcpy(regs, next, sizeof next);
    return regs[CFI_RA] ? 0 : -1;
}

/* Fills pcs with the faulting pc and the return addresses above it. */
static int walk_frames(void **pcs, int max, const void *ucv)
{
    const ucontext_t *uc = ucv;
    static const int gr[CFI_NREGS] = {REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI,
                                      REG_RBP, REG_RSP, REG_R8,  REG_R9,  REG_R10, REG_R11,
                                      REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP};
    uint64_t regs[CFI_NREGS];
    for (int r = 0; r < CFI_NREGS; r++)
        regs[r] = (uint64_t)uc->uc_mcontext.gregs[gr[r]];
    int n = 0;
    pcs[n++] = (void *)(uintptr_t)regs[CFI_RA];
    uintptr_t lookup = (uintptr_t)regs[CFI_RA];
    while (n < max && _dl_find_object && cfi_step(regs, lookup) == 0) {
        pcs[n++] = (void *)(uintptr_t)regs[CFI_RA];
        lookup = (uintptr_t)regs[CFI_RA] - 1;
    }
    return n;
}
#endif

/* Unwinds from the handler, starts at the faulting frame and keeps the
 * first FZ_SITE_FRAMES frames of instrumented modules.  Without module
 * information (old glibc) each address is reduced to its offset in its
 * page, which ASLR does not change. */
static void unwind(site_t *s, const void *ucv)
{
    void *pcs[FZ_CRASH_UNWIND];
#ifdef FZ_UNWIND_OWN
    int n = walk_frames(pcs, FZ_CRASH_UNWIND, ucv);
#else
    int n = backtrace(pcs, FZ_CRASH_UNWIND);
#endif
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
        if (find_object(pcs[i], &start, &bias, &mod) != 0) {
            add_frame(s, "?", 1, (uintptr_t)pcs[i] & 0xfff);
            continue;
        }
        if (cr.nmods && !instrumented(start))
            continue;
        /* Above the faulting frame each address is a return address: one
         * byte back is inside the call, which is the line addr2line should
         * name (after a call to a noreturn function like abort() the
         * return address is already the next function). */
        add_frame(s, mod, strlen(mod), (uintptr_t)pcs[i] - bias - (i != first));
    }
}

/* Writes s to the page for this process; site_pid last, so a reader that
 * sees the pid sees the rest. */
static void publish(const site_t *s, int sig)
{
    fz_diag_t *p = cr.page;
    uint64_t h = mix(s->hash, &sig, sizeof sig);
    p->site = h ? h : 1;
    p->site_sig = (uint32_t)sig;
    p->site_from = s->from;
    p->site_nframes = s->n;
    memcpy(p->site_off, s->off, sizeof p->site_off);
    memcpy(p->site_module, s->module, sizeof p->site_module);
    __atomic_store_n(&p->site_pid, (uint32_t)getpid(), __ATOMIC_RELEASE);
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
        site_t s;
        if (cr.pending_pid == getpid()) {
            s = cr.pending;
        } else {
            memset(&s, 0, sizeof s);
            s.hash = FNV_START;
            s.from = FZ_SITE_FROM_HANDLER;
            unwind(&s, ucv);
        }
        /* No frame of the program's own (the unwinder stopped inside a
         * library): no site rather than one shared by every such crash;
         * the fuzzer then judges it by its coverage. */
        if (s.n)
            publish(&s, sig);
    }
    /* SA_RESETHAND already put the default action back and SA_NODEFER
     * leaves the signal unblocked: this kills the process with sig.  A
     * fault (not a raise) would also recur on return, but a signal sent
     * with kill() would not, so raise it in every case. */
    raise(sig);
}

/* dl_iterate_phdr's search for a loaded library by file name. */
struct lib_query {
    const char *name;
    size_t len;
    const void *inside; /* out: an address inside it */
};

static int lib_match(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct lib_query *q = data;
    const char *b = base_name(info->dlpi_name ? info->dlpi_name : "");
    if (!*b || strlen(b) != q->len || memcmp(b, q->name, q->len) != 0)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD) {
            q->inside = (const void *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
            return 1;
        }
    return 0;
}

/* Non-zero for a frame ASan names by a loaded library that holds no
 * instrumented code (libc under main, the sanitizer's own library): as in
 * the handler's unwind, such frames are not the program's.  The program
 * itself (which the loader names "") and anything not found are kept.
 * Not a signal handler: dl_iterate_phdr is fine here. */
static int library_uninstrumented(const char *name, size_t len)
{
    struct lib_query q = {name, len, NULL};
    uintptr_t start, bias;
    const char *n;
    if (!cr.nmods || !dl_iterate_phdr(lib_match, &q) || !q.inside ||
        find_object(q.inside, &start, &bias, &n) != 0)
        return 0;
    return !instrumented(start);
}

/* ASan calls this with its whole report before it aborts.  The first
 * stack is the fault's: "#N 0xADDR (module+0xOFF)" without symbols,
 * "#N 0xADDR in func file:line" with them.  Either way the part after the
 * address is what ASLR leaves alone. */
static void asan_report(const char *text)
{
    if (!cr.page)
        return;
    site_t s;
    memset(&s, 0, sizeof s);
    s.hash = FNV_START;
    s.from = FZ_SITE_FROM_ASAN;
    const char *p = strstr(text, "#0 ");
    while (p && s.n < FZ_SITE_FRAMES) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *rest = memchr(p, ' ', len); /* after "#N" */
        rest = rest ? memchr(rest + 1, ' ', len - (size_t)(rest + 1 - p)) : NULL; /* after 0xADDR */
        if (!rest)
            break;
        size_t rlen = len - (size_t)(rest - p);
        const char *open = memchr(rest, '(', rlen);
        const char *plus = open ? memchr(open, '+', rlen - (size_t)(open - rest)) : NULL;
        if (open && plus) {
            const char *mod = base_name_n(open + 1, (size_t)(plus - open - 1));
            if (!library_uninstrumented(mod, (size_t)(plus - mod)))
                add_frame(&s, mod, (size_t)(plus - mod), strtoull(plus + 1, NULL, 16));
        } else {
            add_frame(&s, rest, rlen, 0);
        }
        if (!eol)
            break;
        p = eol + 1;
        while (*p == ' ')
            p++;
        if (p[0] != '#' || p[1] < '1' || p[1] > '9')
            break; /* the first stack ended */
    }
    if (s.n) {
        cr.pending = s;
        cr.pending_pid = getpid();
    }
}

/* UBSan's debugger hook: called once per report, while the report's data
 * can be asked for.  The source location is the site (the stack here is
 * UBSan's own).  A recoverable report that does not end the run is
 * forgotten at the next persistent pass (__fz_rt_crash_new_run). */
extern void __ubsan_get_current_report_data(const char **kind, const char **msg,
                                            const char **file, unsigned *line, unsigned *col,
                                            char **addr) __attribute__((weak));

__attribute__((visibility("default"))) void __ubsan_on_report(void)
{
    if (!cr.page || !__ubsan_get_current_report_data)
        return;
    const char *kind = NULL, *msg = NULL, *file = NULL;
    unsigned line = 0, col = 0;
    char *addr = NULL;
    __ubsan_get_current_report_data(&kind, &msg, &file, &line, &col, &addr);
    if (!file || !kind)
        return;
    site_t s;
    memset(&s, 0, sizeof s);
    s.hash = mix(FNV_START, kind, strlen(kind));
    s.from = FZ_SITE_FROM_UBSAN;
    const char *b = base_name(file);
    add_frame(&s, b, strlen(b), line);
    s.off[1] = col;
    s.hash = mix(s.hash, &col, sizeof col);
    cr.pending = s;
    cr.pending_pid = getpid();
}

extern void __asan_set_error_report_callback(void (*cb)(const char *)) __attribute__((weak));
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

/* A sanitizer's report ends in exit(exitcode) unless the caller's options
 * say abort_on_error=1, and OSS-Fuzz's, for one, do not: the fuzzer would
 * count a normal exit.  The sanitizer calls this just before that exit:
 * die of SIGABRT instead (with the report's site), so a report is a crash
 * whatever ASAN_OPTIONS/UBSAN_OPTIONS say. */
static void on_sanitizer_death(void)
{
    if (cr.page && cr.pending_pid == getpid())
        publish(&cr.pending, SIGABRT);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGABRT, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGABRT);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(SIGABRT);
}

void __fz_rt_crash_new_run(void)
{
    cr.pending_pid = 0;
}

void __fz_rt_crash_install(void)
{
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(on_sanitizer_death);
    cr.page = __fz_rt_diag_page();
    if (!cr.page)
        return;
    /* The handler installed below is not the program's. */
    __fz_rt_diag_own_handler((const void *)on_crash);
#ifndef FZ_UNWIND_OWN
    /* backtrace() loads the unwinder on its first call, which is not
     * async-signal-safe: do it now, once, in the forkserver. */
    void *warm[2];
    backtrace(warm, 2);
#endif
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
    if (__asan_set_error_report_callback)
        __asan_set_error_report_callback(asan_report);
}
