/*
 * fz-cmplog.h - the comparison log: the contract between the comparison
 * hooks the compiler back ends insert (plugin/), the runtime that fills the
 * log (runtime/), and fz-fuzz, which asks for it on chosen runs and reads
 * it (the input-to-state stage and the automatic dictionary).
 *
 * The idea (RedQueen; AFL++'s CmpLog; libFuzzer's trace-cmp): most checks
 * that block a fuzzer compare bytes of the input, maybe transformed, with a
 * value the program holds.  If the fuzzer sees both operands it can find
 * the first one in the input and put the second one there.
 *
 * One build serves both kinds of run.  A function with comparison sites
 * starts with "if (logging is on) run the logging copy of this function",
 * whose sites call the hooks (where the flag may change while a function
 * runs, each site is "if (logging is on) call the hook" instead), so a run
 * that is not logging pays a load and a not-taken branch per call of such
 * a function, and nothing else (docs/coverage.md, "Comparisons").
 * Logging is on only in a child whose run the fuzzer marked (enabled = 1
 * in the log header below before the run, 0 after); the runtime reads that
 * word once at the start of each run (after fork in the forkserver loop,
 * and at every __AFL_LOOP pass), never per comparison.
 *
 * Set-up:
 *   fuzzer -> target : FZ_ENV_CMPLOG_SHM_ID = SysV id of an fz_cmplog_t
 *                      segment (only when comparison feedback is on).
 *   target -> fuzzer : the version-1 options word carries
 *                      FZ_FS_NEW_OPT_FZ_CMPLOG when the runtime attached
 *                      the segment AND at least one module of the program
 *                      has comparison hooks.  No bit: the fuzzer turns the
 *                      stage off (an older fz build, afl-cc, -n) and says
 *                      so once.
 *
 * The fuzzer sets version = FZ_CMPLOG_VERSION before it starts the
 * target: the runtime leaves a segment of another version (or one smaller
 * than fz_cmplog_t) alone and sends no bit.
 *
 * Layout (version 2).  A logging run hands each comparison site it reaches
 * one block from a pool, in the order the sites are first reached: integer
 * sites get a block of FZ_CMP_PAIRS 16-byte pairs (520 bytes, about eight
 * to a page), 16-byte integers a block of 32-byte pairs, string and memory
 * comparisons one of 66-byte entries.  slot[] maps a site to its block.
 * So a run touches pages in proportion to the sites it reaches, packed
 * together, and a forked child (which inherits no page-table entries of a
 * shared mapping) faults in few of them.  The pools' `used` counters are
 * the only thing reset per run: a slot[] entry is this run's only if its
 * block is below its pool's count and that block names the slot back;
 * anything else is a stale entry of an earlier run and reads as empty.
 *
 * Per logging run the fuzzer zeroes used[] (nothing else: no header array
 * to clear),
 * sets enabled = 1, runs the target, sets enabled = 0, and reads the log
 * (fz_cmplog_find per slot, or the pools up to used[]).  Entries past
 * min(hits, the block's pairs) are never read.
 */
#ifndef FZ_CMPLOG_H
#define FZ_CMPLOG_H

#include <stdint.h>

#define FZ_ENV_CMPLOG_SHM_ID "__FZ_CMPLOG_SHM_ID"

/* Version-1 options bit (fz's own, next to FZ_FS_NEW_OPT_FZ_DIRECT in
 * fz-protocol.h, which took bit 21; only ever sent to a fuzzer that set
 * the variable).  Bit 22: unused by AFL++ and its forks we know of. */
#define FZ_FS_NEW_OPT_FZ_CMPLOG 0x00400000u

/* Log slots.  A site's slot is stable for the life of one forkserver (the
 * runtime derives it from the site's identity, see runtime/rt-cmp.c); two
 * sites may share a slot in a program with more sites than this, which
 * only mixes their entries. */
#define FZ_CMP_SITES 16384u

/* Operand pairs kept per site per run.  Entry i of a site is the pair of
 * its (i mod FZ_CMP_PAIRS)-th call in the run, so a site called more often
 * keeps its latest pairs; hits says how many calls there were. */
#define FZ_CMP_PAIRS 32u

/* Bytes kept of each operand of a string / memory comparison. */
#define FZ_CMP_STR_MAX 32u

/* The pools (fz_cmplog_t.used[], the top two bits of a slot[] entry) and
 * how many sites of each kind one run can log; sites past that are not
 * logged in that run. */
#define FZ_CMP_POOL_INT 0u  /* integers of 1-8 bytes: fz_cmp_iblock_t */
#define FZ_CMP_POOL_WIDE 1u /* 16-byte integers: fz_cmp_wblock_t */
#define FZ_CMP_POOL_STR 2u  /* strings and memory: fz_cmp_sblock_t */
#define FZ_CMP_POOLS 3u
#define FZ_CMP_INT_BLOCKS FZ_CMP_SITES
#define FZ_CMP_WIDE_BLOCKS 1024u
#define FZ_CMP_STR_BLOCKS 4096u
#define FZ_CMP_SLOT_POOL(v) ((uint32_t)(v) >> 14)
#define FZ_CMP_SLOT_BLOCK(v) ((uint32_t)(v) & 0x3fffu)

/* Comparison kinds as readers report them (a block's pool says which). */
#define FZ_CMP_NONE 0 /* slot unused this run */
#define FZ_CMP_INT 1  /* integer comparison */
#define FZ_CMP_STR 2  /* string / memory comparison */

/* fz_cmp_head_t.attr bits */
#define FZ_CMP_A_CONST 0x01  /* INT: v1 is a compile-time constant */
#define FZ_CMP_A_SWITCH 0x02 /* INT: a switch; one pair per case (v0 the
                                operand, v1 the case value) */
#define FZ_CMP_A_EQ 0x04     /* INT: an equality test (==, !=), not an order */
#define FZ_CMP_A_NOCASE 0x08 /* STR: strcasecmp / strncasecmp */
#define FZ_CMP_A_FIND 0x10   /* STR: strstr / memmem (v1 is the needle) */
#define FZ_CMP_A_STRZ 0x20   /* STR: NUL-terminated strings (strcmp family),
                                not a sized memory comparison */

/* The head of every block. */
typedef struct {
    uint16_t site; /* the slot this block belongs to this run */
    uint8_t size;  /* INT: operand width in bytes (1, 2, 4, 8; 16 in the
                      wide pool); STR: 0 */
    uint8_t attr;  /* FZ_CMP_A_* */
    uint32_t hits; /* calls of this site in the run (may exceed FZ_CMP_PAIRS) */
} fz_cmp_head_t;

typedef struct {
    uint64_t v0, v1; /* the operands, zero-extended */
} fz_cmp_pair_t;

typedef struct {
    uint64_t v0, v1;       /* low 64 bits of the operands */
    uint64_t v0_hi, v1_hi; /* high 64 bits */
} fz_cmp_wide_t;

typedef struct {
    uint8_t len0, len1;         /* bytes stored of each operand (<= FZ_CMP_STR_MAX) */
    uint8_t v0[FZ_CMP_STR_MAX]; /* first operand (as passed: s1 / haystack) */
    uint8_t v1[FZ_CMP_STR_MAX]; /* second operand (s2 / needle) */
} fz_cmp_str_t;

typedef struct {
    fz_cmp_head_t h;
    fz_cmp_pair_t p[FZ_CMP_PAIRS];
} fz_cmp_iblock_t;

typedef struct {
    fz_cmp_head_t h;
    fz_cmp_wide_t p[FZ_CMP_PAIRS];
} fz_cmp_wblock_t;

typedef struct {
    fz_cmp_head_t h;
    fz_cmp_str_t p[FZ_CMP_PAIRS];
} fz_cmp_sblock_t;

typedef struct {
    volatile uint32_t enabled;     /* set by the fuzzer around a logging run */
    uint32_t version;              /* FZ_CMPLOG_VERSION, set by the fuzzer */
    uint32_t used[FZ_CMP_POOLS];   /* blocks handed out this run (may pass the cap) */
    uint32_t reserved[11];
    uint16_t slot[FZ_CMP_SITES];   /* pool << 14 | block, if this run's (above) */
    fz_cmp_iblock_t ib[FZ_CMP_INT_BLOCKS];
    fz_cmp_wblock_t wb[FZ_CMP_WIDE_BLOCKS];
    fz_cmp_sblock_t sb[FZ_CMP_STR_BLOCKS];
} fz_cmplog_t;

#define FZ_CMPLOG_VERSION 2u

/* Block b of a pool's head (b below the pool's cap). */
static inline fz_cmp_head_t *fz_cmplog_head(fz_cmplog_t *log, uint32_t pool, uint32_t b)
{
    return pool == FZ_CMP_POOL_INT ? &log->ib[b].h
           : pool == FZ_CMP_POOL_WIDE ? &log->wb[b].h
                                      : &log->sb[b].h;
}

static inline uint32_t fz_cmplog_cap(uint32_t pool)
{
    return pool == FZ_CMP_POOL_INT    ? FZ_CMP_INT_BLOCKS
           : pool == FZ_CMP_POOL_WIDE ? FZ_CMP_WIDE_BLOCKS
           : pool == FZ_CMP_POOL_STR  ? FZ_CMP_STR_BLOCKS
                                      : 0;
}

/* The head of slot s's block in this run, its pool in *pool; NULL when
 * the slot logged nothing this run.  Checks every index it follows: the
 * target wrote the log, maybe garbled it. */
static inline fz_cmp_head_t *fz_cmplog_find(const fz_cmplog_t *log, uint32_t s, uint32_t *pool)
{
    uint32_t v = log->slot[s & (FZ_CMP_SITES - 1)], p = FZ_CMP_SLOT_POOL(v),
             b = FZ_CMP_SLOT_BLOCK(v);
    if (b >= fz_cmplog_cap(p) || b >= log->used[p])
        return 0;
    fz_cmp_head_t *h = fz_cmplog_head((fz_cmplog_t *)log, p, b);
    if (h->site != (s & (FZ_CMP_SITES - 1)))
        return 0;
    *pool = p;
    return h;
}

/* The hooks (module -> runtime; runtime/rt-cmp.c, docs/internals.md).  A
 * module's site k calls them with site = its base + k; integer operands
 * are zero-extended from their width; info = FZ_CMP_HOOK_INFO(width,
 * FZ_CMP_A_* bits).
 *   void __fz_register_cmp(uint8_t *flag, uint32_t *base, uint32_t nsites);
 *   void __fz_cmp_int(uint32_t site, uint64_t v0, uint64_t v1, uint32_t info);
 *   void __fz_cmp_int128(uint32_t site, uint64_t v0, uint64_t v0_hi,
 *                        uint64_t v1, uint64_t v1_hi, uint32_t info);
 *   void __fz_cmp_switch(uint32_t site, uint64_t v, const uint64_t *cases,
 *                        uint32_t n, uint32_t width);
 *   void __fz_cmp_mem(uint32_t site, const void *a, const void *b,
 *                     size_t n0, size_t n1, uint32_t attr);
 */
/* Value profile (libFuzzer's -use_value_profile=1; fz-fuzz
 * --value-profile): when the fuzzer sets FZ_ENV_VALUE_PROFILE=1 in the
 * target's environment, the runtime switches the hooks on for every run
 * (not only logging runs) and turns each comparison into a coverage
 * feature: map slot (site * FZ_VP_STRIDE + distance) mod FZ_VP_SLOTS of a
 * region of FZ_VP_SLOTS map bytes it registers like one more module.  The
 * distance is the number of differing bits of the operands (integers,
 * each switch case) or of equal leading bytes (strings and memory, capped
 * at FZ_VP_STRIDE - 1), so an input that brings an operand one bit or one
 * byte closer to the other is new coverage and is kept.  A logging run
 * logs as before; other runs log nothing. */
#define FZ_ENV_VALUE_PROFILE "__FZ_VALUE_PROFILE"
#define FZ_VP_SLOTS 32768u
#define FZ_VP_STRIDE 129u

#define FZ_CMP_HOOK_INFO(width, attr) ((uint32_t)(width) | (uint32_t)(attr) << 8)

#endif
