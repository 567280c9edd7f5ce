/*
 * rt-unwind.c - the crash handler's stack walk (rt-crash.c): the return
 * addresses above a signal's faulting frame.
 *
 * On x86-64 with glibc >= 2.35 the runtime walks the frames itself, from
 * the DWARF call-frame information (below); elsewhere it calls
 * backtrace(), whose one unsafe step, loading the unwinder, is done once
 * by __fz_rt_unwind_prepare in the forkserver, before any fork.  Either
 * way the walk only loads and stores, so it may run in a signal handler.
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include "runtime/rt-unwind.h"

#if defined(__x86_64__) && defined(DLFO_STRUCT_HAS_EH_DBASE)
/* glibc >= 2.35: lock-free and async-signal-safe.  Weak, so a binary built
 * here still loads with an older glibc (and then walks no frames). */
extern int _dl_find_object(void *, struct dl_find_object *) __attribute__((weak));

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

int __fz_rt_unwind(void **pcs, int max, const void *ucv)
{
#ifdef FZ_UNWIND_OWN
    return walk_frames(pcs, max, ucv);
#else
    (void)ucv;
    return backtrace(pcs, max);
#endif
}

void __fz_rt_unwind_prepare(void)
{
#ifndef FZ_UNWIND_OWN
    /* backtrace() loads the unwinder on its first call, which is not
     * async-signal-safe: do it now, once, in the forkserver. */
    void *warm[2];
    backtrace(warm, 2);
#endif
}
