/*
 * fz-gcc-plugin.cc - the GCC back end of fz's edge-coverage instrumentation.
 * fz-cc loads it with -fplugin= on every compile step.  It owns: choosing the
 * edges, numbering their counter slots, inserting the inline increments, and
 * emitting each module's counters and registration constructor.
 *
 * Specification (docs/coverage.md explains it for users; docs/internals.md
 * fixes the ABI shared with the LLVM pass and the runtime):
 *
 *  1. Where it runs.  One GIMPLE pass per function, inserted right after
 *     GCC's "optimized" pass (the last GIMPLE pass before RTL expansion; it
 *     runs at every -O level).  By then inlining, jump threading, loop and
 *     CFG clean-up have happened, so we count the blocks that really exist:
 *     fewer counters than instrumenting the source-level CFG, and the
 *     counters cannot block any GIMPLE optimisation (vectorisation,
 *     if-conversion, inlining budgets).  It also runs after the sanitizer
 *     passes, so ASan does not check our own counter accesses.  The price:
 *     branches the optimiser turned into straight-line code (conditional
 *     moves, folded constants) have no edge of their own.
 *
 *  2. Which edges.  First every critical edge (source with several
 *     successors, destination with several predecessors) is split with an
 *     empty block, unless it is an EH or abnormal edge, which cannot be
 *     split.  After that each edge is the only way into its destination or
 *     the only way out of its source, so a counter per block determines the
 *     count of every edge.  A block is then given a counter slot unless it is
 *     redundant: all its predecessors have a single successor (so its count
 *     is the sum of theirs) and each of those predecessors is itself counted
 *     by the first rule (entered from the function entry or from a block with
 *     several successors).  That one-level test never leaves a cycle of
 *     uncounted blocks.  Landing pads of EH edges are ordinary blocks and get
 *     a counter.  A block that starts with a returns-twice call (setjmp) gets
 *     none, because nothing may precede that call in its block.
 *
 *  2a. Pruning (on unless FZ_NO_PRUNE is set to something other than "0"
 *     when compiling).  Of the blocks picked so far, and not denied (5), a
 *     block then loses its counter when the counters of its neighbours
 *     already tell whether it ran:
 *       (a) it is not the function's first block, has successors, and
 *           dominates each of them, each counted or dropped by (a): a run
 *           through it goes on into one of them, and none of them runs
 *           unless it ran first (blocks are tried dominated ones first, so
 *           a chain of tests each implied by the next keeps only the
 *           counters at its ends);
 *       (b) it has two or more predecessors, all counted, and
 *           post-dominates each of them: it is entered only from them, and
 *           a run through any of them goes on to it.
 *     Either way it ran exactly when one of those counters is set, so which
 *     blocks ran, and with split critical edges which edges were taken,
 *     still follows from the map.  The blocks a dropped block relies on are
 *     pinned and keep their counters, as do the predecessors of a redundant
 *     block, so what a dropped block relies on is counted, or dropped by
 *     (a) and read off counted blocks in turn.  (a) goes first, then (b) in
 *     function order.  The
 *     price: "goes on" assumes the run does not stop half-way (exit() or a
 *     crash in a call, longjmp, a hang), so a run that stops inside a block
 *     dropped by (a) does not show it, and one that stops between a
 *     predecessor and a block dropped by (b) shows that block; and a
 *     dropped block's own hit count is not in the map.
 *
 *  3. Slots.  Slots are numbered 0..N-1 in the order functions are compiled
 *     and blocks are walked.  Per edge the pass inserts, after the block's
 *     labels, on x86 the asm statement "cmpb $-1, p[k]; sbbb $-2, p[k]"
 *     (c + 2 - (c < 255): a compare and one read-modify-write), elsewhere:
 *         c = p[k];  o = .ADD_OVERFLOW (c, 1);  p[k] = REAL (o) + IMAG (o);
 *     (an 8-bit counter with the NeverZero rule: 255+1 gives 1, so an edge
 *     that ran a multiple of 256 times never looks unvisited; the carry
 *     form becomes add + adc on x86).  No call.
 *     p = __fz_area is loaded once per call on the entry edge (the pointer
 *     only changes when the module registers, before its code runs), and the
 *     counter accesses use an alias set of their own so they do not force
 *     the user's values to be reloaded from memory.  A call GCC's tailc
 *     pass (which runs before ours) marked a tail call, and after which a
 *     counter now stands on the way to the return, loses the mark: it
 *     would become a jump that skips the counter, which the -O0 logging
 *     copy of the function (6b) would still run (untail_calls_before_counters).
 *
 *  3a. Loop trip counts: per loop, a counter of the back edges taken since
 *     the loop was entered (a PHI in its header), and on each exit edge
 *     the increment of one of 16 slots of that exit chosen by the count
 *     (exact below 8, then one per power of two).  By default
 *     (FZ_LOOP_TRIPS=counted) only loops of a constant count, and only
 *     their early exits, exact below 16; FZ_LOOP_TRIPS=1 takes every loop,
 *     0 none.  See insert_loop_trips and docs/coverage.md "Loop trip
 *     counts".
 *
 *  3b. Folded branches (off when FZ_NO_FOLDED is set to something other
 *     than "0" when compiling).  A decision the optimiser turned into
 *     straight-line code has no edge: a comparison kept as a value (a
 *     boolean returned or stored; not one used only as a branch's or a
 *     COND_EXPR's condition or as a half of joined decisions), a
 *     COND_EXPR assignment (a conditional move), a MIN_EXPR or MAX_EXPR on
 *     integers or pointers; and joined decisions, the & or | of two
 *     boolean values (`x && y` made one branch by fold or ifcombine), and
 *     the | of two integers that is only tested against zero (what
 *     `x == 0 && y == 0` becomes).
 *     Each such statement in a block that is not denied (5), and that
 *     cannot throw, gets two slots k, k+1 (joined decisions four, k to
 *     k+3) after the block and trip-count slots of its function, and after
 *     it the code
 *         o = (sizetype) outcome;  q = p + o;  q[k] = 1;
 *     where outcome is the comparison's value, the COND_EXPR's condition
 *     (an embedded comparison is computed into a value of its own first,
 *     which the COND_EXPR then uses), rhs1 < rhs2 for MIN/MAX, or
 *     x + 2y for the joined values x and y (for the |, x != 0 and
 *     y != 0).  A
 *     store of 1, not a count: the slot says which way the decision went
 *     in the run, as a taken branch's edge would, and the map gets no hit
 *     counts for values that change with every input.  The store goes
 *     through the counters' alias set (3).
 *
 *  4. Per module, when N > 0 (emitted at the end of the translation unit,
 *     when N is known), all with internal linkage:
 *         static uint8_t __fz_local_counters[N];
 *         static uint8_t *__fz_area = __fz_local_counters;
 *     and a constructor of priority FZ_CTOR_PRIORITY_REGISTER doing
 *         if (&__fz_register) __fz_register(&__fz_area, N);
 *     through a weak reference, so a module linked without the runtime
 *     (a shared library loaded by a plain program) just counts into its
 *     scratch array.  The names start with __fz_ so no user symbol clashes
 *     within the module; internal linkage keeps modules apart.
 *
 *  5. Skipped: functions matched by the FZ_DENYLIST file (plugin/
 *     fz-denylist.h; by source name, qualified C++ name or assembler name,
 *     and by the function's source file or the module's main file; blocks
 *     whose every statement was inlined from a denied function, at any
 *     depth of inlining, are skipped too), naked
 *     functions, functions marked no_instrument_function or
 *     no_sanitize_coverage, and functions GCC adds after N is fixed (our own
 *     constructor).
 *
 *  6. One report line on stderr per module, "fz-cc: N edges instrumented in
 *     FILE", unless FZ_QUIET is set to something other than "0".
 *
 *  6a. -flto.  A slim LTO object is GIMPLE only: the pass has not run when
 *     cc1 writes it, so cc1 reports that instrumentation is deferred.  lto1
 *     then runs the pass at link time (fz-cc adds -fplugin to GCC link steps
 *     for this), each LTRANS partition being a module with its own counters
 *     and registration, reported as "N edges instrumented in PART (-flto
 *     link)".  Deny-list src: patterns then match by each function's source
 *     file only, since the unit's main file is lto1's partition.
 *
 *  6b. Comparison hooks (plugin/fz-gcc-cmp.cc, its own specification):
 *     a pass right after this one hooks integer compares, switches (marked
 *     by a small pass before GCC's "switchlower") and memcmp/strcmp-family
 *     calls for the comparison log, unless FZ_NO_CMP is set; it skips
 *     what this pass skips (5).
 *
 *  7. plugin_init refuses to run in a GCC other than the one the plugin was
 *     built for, naming both versions (or, when only GCC's build differs,
 *     the one version) and the rebuild command.  A plugin of another GCC
 *     major usually cannot even be loaded (undefined symbols), so fz-cc
 *     compares lib/fz/fz-gcc-plugin.version with its GCC before compiling.
 */
/* Our headers first: GCC's system.h poisons realloc, strdup and strerror,
 * which the deny-list reader uses. */
#include "fz-config.h"
#include "fz-denylist.h"
#include "fz-test-crash.h"

#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "cfghooks.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "internal-fn.h"
#include "ssa.h"
#include "tree-into-ssa.h"
#include "gimplify.h"
#include "cgraph.h"
#include "stringpool.h"
#include "stor-layout.h"
#include "varasm.h"
#include "attribs.h"
#include "langhooks.h"
#include "diagnostic-core.h"
#include "output.h"
#include "ggc.h"
#include "gtype-desc.h"
#include "cfgloop.h"
#include "tree-ssa-loop.h"
#include "tree-ssa-loop-niter.h"
#include "tree-scalar-evolution.h"
#include "builtins.h"
#include "tree-cfg.h"
#include "tree-eh.h"

#include "fz-gcc-cmp.h"

int plugin_is_GPL_compatible = 1;

namespace
{

/* Which loops get trip-count slots on their exits (FZ_LOOP_TRIPS; see
 * insert_loop_trips). */
enum loop_trips {
    TRIPS_OFF,     /* none (FZ_LOOP_TRIPS=0) */
    TRIPS_COUNTED, /* the early exits of loops that go round a constant
                    * number of times (the default; FZ_LOOP_TRIPS=counted) */
    TRIPS_ALL,     /* every exit of every loop (FZ_LOOP_TRIPS=1) */
};

/* Everything the plugin knows about the translation unit being compiled.
 * One instance per compiler process, reached through the pass object and
 * the callbacks' user data. */
struct fz_state {
    fz_denylist_t deny;
    bool quiet;
    bool prune;        /* the pruning rule is on (FZ_NO_PRUNE unset) */
    bool folded;       /* folded branches get slots (FZ_NO_FOLDED unset) */
    loop_trips trips;  /* which loop exits get trip-count slots (FZ_LOOP_TRIPS) */
    bool tu_denied;    /* the main source file is on the deny-list */
    bool frozen;       /* N is fixed; functions added from now on are ours */
    unsigned slots;    /* N: slots handed out so far */
    tree area;         /* __fz_area, created at the first instrumented block */
    tree ctr_type;     /* uint8_t with an alias set of its own (see counter_type) */
    fz_cmp_state *cmp; /* the comparison hooks (plugin/fz-gcc-cmp.cc) */
};

tree u8_ptr_type()
{
    return build_pointer_type(unsigned_char_type_node);
}

/* A file-scope static variable of this module, invisible to the debugger. */
tree make_static_var(const char *name, tree type)
{
    tree decl = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier(name), type);
    TREE_STATIC(decl) = 1;
    TREE_PUBLIC(decl) = 0;
    DECL_ARTIFICIAL(decl) = 1;
    DECL_IGNORED_P(decl) = 1;
    TREE_USED(decl) = 1;
    TREE_ADDRESSABLE(decl) = 1;
    DECL_PRESERVE_P(decl) = 1;
    return decl;
}

/* __fz_area is referenced by function bodies as they are expanded but only
 * defined (with its initializer) at the end of the unit, once the size of
 * the counter array it points to is known. */
tree area_decl(fz_state *st)
{
    if (!st->area)
        st->area = make_static_var("__fz_area", u8_ptr_type());
    return st->area;
}

bool has_attr(tree decl, const char *name)
{
    return lookup_attribute(name, DECL_ATTRIBUTES(decl)) != NULL_TREE;
}

/* Is the function on the deny-list?  Names tried: the source name (C++:
 * qualified, e.g. ns::Parser::parse), and the assembler name without the
 * suffix GCC gives clones (parse.constprop.0 -> parse). */
bool function_denied(const fz_state *st, tree decl)
{
    if (st->deny.n == 0)
        return false;
    if (fz_denylist_deny_source(&st->deny, DECL_SOURCE_FILE(decl)))
        return true;
    /* Verbosity 1: qualified, without parameters ("ns::Parser::parse"),
     * the same form the LLVM pass gets from the demangler. */
    const char *src = lang_hooks.decl_printable_name(decl, 1);
    const char *plain = DECL_NAME(decl) ? IDENTIFIER_POINTER(DECL_NAME(decl)) : NULL;
    char *asm_name = xstrdup(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl)));
    char *dot = strchr(asm_name, '.');
    if (dot && dot != asm_name)
        *dot = '\0';
    bool denied = fz_denylist_deny_function(&st->deny, src, asm_name) ||
                  fz_denylist_deny_function(&st->deny, plain, NULL);
    free(asm_name);
    return denied;
}

bool function_skipped(const fz_state *st, function *fn)
{
    tree decl = fn->decl;
    return st->frozen || st->tu_denied || has_attr(decl, "naked") ||
           has_attr(decl, "no_instrument_function") || has_attr(decl, "no_sanitize_coverage") ||
           function_denied(st, decl);
}

/* Did this statement come from a denied function by inlining?  Its lexical
 * block leads out through each inlined function's outermost scope, the
 * function written innermost first, then the ones it was inlined into on
 * the way to this one; any of them denied denies the statement (a denied
 * function's body, with whatever it inlined itself, gets no counters when
 * it is not inlined either). */
bool stmt_inlined_from_denied(const fz_state *st, tree b)
{
    for (; b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b)) {
        if (!inlined_function_outer_scope_p(b))
            continue;
        tree origin = block_ultimate_origin(b);
        if (origin && TREE_CODE(origin) == FUNCTION_DECL && function_denied(st, origin))
            return true;
    }
    return false;
}

/* Code of a denied function stays uncounted after it was inlined elsewhere:
 * the deny-list names source functions, not what the optimiser left.  A
 * block is denied when all its statements that have a scope were inlined
 * from denied functions; one that also holds the caller's own code (or an
 * allowed inlined function's) keeps its counter, so denying a callee never
 * hides the caller's edges.  The LLVM pass applies the same rule. */
bool block_denied(const fz_state *st, basic_block bb)
{
    if (st->deny.n == 0)
        return false;
    bool any = false;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        tree b = gimple_block(g);
        if (!b || is_gimple_debug(g))
            continue;
        if (!stmt_inlined_from_denied(st, b))
            return false;
        any = true;
    }
    return any;
}

/* Splits every critical edge that can be split (see the specification). */
void split_critical_edges(function *fn)
{
    auto_vec<edge> todo;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fn)
    {
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->succs)
        if (EDGE_CRITICAL_P(e) && !(e->flags & EDGE_COMPLEX))
            todo.safe_push(e);
    }
    for (edge e : todo)
        split_edge(e);
}

/* Counted by the first rule: entered from the function entry or from a
 * block that could have gone elsewhere. */
bool block_is_branch_target(basic_block bb, function *fn)
{
    edge e;
    edge_iterator ei;
    if (EDGE_COUNT(bb->preds) == 0)
        return true;
    FOR_EACH_EDGE(e, ei, bb->preds)
    if (e->src == ENTRY_BLOCK_PTR_FOR_FN(fn) || !single_succ_p(e->src))
        return true;
    return false;
}

bool block_starts_with_returns_twice(basic_block bb)
{
    gimple_stmt_iterator gsi = gsi_after_labels(bb);
    if (gsi_end_p(gsi))
        return false;
    gimple *g = gsi_stmt(gsi);
    return is_gimple_call(g) && (gimple_call_flags(g) & ECF_RETURNS_TWICE);
}

/* Dropped by the redundancy rule: only fallen into, from blocks that are
 * all counted by the first rule, so its count is the sum of theirs. */
bool block_is_redundant(basic_block bb, function *fn)
{
    if (block_is_branch_target(bb, fn))
        return false;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->preds)
    if (!block_is_branch_target(e->src, fn) || block_starts_with_returns_twice(e->src))
        return false;
    return true;
}

bool block_needs_counter(basic_block bb, function *fn)
{
    return !block_starts_with_returns_twice(bb) && !block_is_redundant(bb, fn);
}

/* Pruning, part (a): bb is not the entry, has successors, and dominates
 * each of them, each counted or itself dropped by this rule.  A run
 * through bb goes on into one of them, and none of them runs without bb
 * having run first, so bb ran exactly when one of them ran; a successor
 * dropped by this rule ran exactly when one of its own successors ran,
 * which bb dominates too (dominance is transitive), and so on down to
 * counted blocks.  No cycle of dropped blocks can form: two blocks cannot
 * dominate each other. */
bool implied_by_successors(basic_block bb, function *fn, const_sbitmap counted,
                           const_sbitmap dropped_a)
{
    if (bb == single_succ(ENTRY_BLOCK_PTR_FOR_FN(fn)) || EDGE_COUNT(bb->succs) == 0)
        return false;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs)
    if (e->dest == bb || e->dest == EXIT_BLOCK_PTR_FOR_FN(fn) ||
        !(bitmap_bit_p(counted, e->dest->index) || bitmap_bit_p(dropped_a, e->dest->index)) ||
        !dominated_by_p(CDI_DOMINATORS, e->dest, bb))
        return false;
    return true;
}

/* The blocks of fn with every block after all the blocks it dominates
 * (reverse pre-order of the dominator tree), so rule (a) sees a block's
 * successors decided before the block itself: chains of blocks each
 * implied by the next (a loop body testing several exits in turn) then
 * keep only the counters at their ends. */
void dominated_first(function *fn, auto_vec<basic_block> &order)
{
    auto_vec<basic_block> stack;
    stack.safe_push(ENTRY_BLOCK_PTR_FOR_FN(fn));
    while (!stack.is_empty()) {
        basic_block bb = stack.pop();
        if (bb != ENTRY_BLOCK_PTR_FOR_FN(fn))
            order.safe_push(bb);
        for (basic_block son = first_dom_son(CDI_DOMINATORS, bb); son;
             son = next_dom_son(CDI_DOMINATORS, son))
            stack.safe_push(son);
    }
    order.reverse();
}

/* Pruning, part (b): bb has several predecessors, all counted, and
 * post-dominates each of them.  bb is only entered from them, and a run
 * through any of them goes on to bb, so bb ran exactly when one of their
 * counters is set.  The ENTRY block is not counted, so a first block that
 * is also a loop head never qualifies. */
bool implied_by_predecessors(basic_block bb, const_sbitmap counted)
{
    if (EDGE_COUNT(bb->preds) < 2)
        return false;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->preds)
    if (e->src == bb || !bitmap_bit_p(counted, e->src->index) ||
        !dominated_by_p(CDI_POST_DOMINATORS, e->src, bb))
        return false;
    return true;
}

/* Pruning (see the specification): takes counters off the blocks in
 * counted whose run the counters of their neighbours already tell.  A
 * block whose counter another block's absence relies on is pinned and
 * keeps it, so every dropped block is implied by blocks that stay counted
 * (or, under rule (a), by blocks dropped by rule (a) that are): the
 * predecessors of a redundant block, and the neighbours a pruned block was
 * dropped for.  Rule (a) goes first, dominated blocks before their
 * dominators; rule (b) then goes in function order. */
void prune_counters(function *fn, sbitmap counted)
{
    auto_sbitmap pinned(last_basic_block_for_fn(fn));
    auto_sbitmap dropped_a(last_basic_block_for_fn(fn));
    bitmap_clear(pinned);
    bitmap_clear(dropped_a);
    basic_block bb;
    edge e;
    edge_iterator ei;
    FOR_EACH_BB_FN(bb, fn)
    {
        if (!block_is_redundant(bb, fn))
            continue;
        FOR_EACH_EDGE(e, ei, bb->preds)
        bitmap_set_bit(pinned, e->src->index);
    }

    bool had_doms = dom_info_available_p(CDI_DOMINATORS);
    calculate_dominance_info(CDI_DOMINATORS);
    calculate_dominance_info(CDI_POST_DOMINATORS);
    auto_vec<basic_block> order;
    dominated_first(fn, order);
    for (basic_block b : order) {
        if (!bitmap_bit_p(counted, b->index) || bitmap_bit_p(pinned, b->index) ||
            !implied_by_successors(b, fn, counted, dropped_a))
            continue;
        bitmap_clear_bit(counted, b->index);
        bitmap_set_bit(dropped_a, b->index);
        FOR_EACH_EDGE(e, ei, b->succs)
        if (bitmap_bit_p(counted, e->dest->index))
            bitmap_set_bit(pinned, e->dest->index);
    }
    FOR_EACH_BB_FN(bb, fn)
    {
        if (!bitmap_bit_p(counted, bb->index) || bitmap_bit_p(pinned, bb->index) ||
            !implied_by_predecessors(bb, counted))
            continue;
        bitmap_clear_bit(counted, bb->index);
        FOR_EACH_EDGE(e, ei, bb->preds)
        bitmap_set_bit(pinned, e->src->index);
    }
    /* A pass must not leave post-dominators behind.  Dominators we leave as
     * we found them: split_edge keeps them up to date. */
    free_dominance_info(CDI_POST_DOMINATORS);
    if (!had_doms)
        free_dominance_info(CDI_DOMINATORS);
}

/* The type of a counter access: an 8-bit unsigned type that is not a
 * character type for aliasing.  A plain uint8_t store may alias anything, so
 * after every counter update the compiler would have to reload whatever
 * values of the user's it keeps from memory; counters are only ever touched
 * through this type inside instrumented code, so they can have an alias set
 * of their own, and then they cost no reloads. */
tree counter_type(fz_state *st)
{
    if (!st->ctr_type) {
        tree t = build_distinct_type_copy(unsigned_char_type_node);
        TYPE_CANONICAL(t) = t;
        TYPE_ALIAS_SET(t) = new_alias_set();
        st->ctr_type = t;
    }
    return st->ctr_type;
}

/* Inserts, after the labels of bb, where p holds __fz_area, the increment
 * of slot k with the NeverZero rule (c + 1, plus 1 more when that wrapped
 * to 0).
 *
 * On x86 it is the asm statement
 *     cmpb $-1, p[k]      carry = (c < 255)
 *     sbbb $-2, p[k]      c = c + 2 - carry: c + 1, or 255 + 2 = 1
 * a compare and a read-modify-write where the same thing said in GIMPLE
 * becomes four (load, add, adc, store: no RTL pass fuses a load, an add
 * whose carry is used and a store back into memory operands).  Not
 * addb $1 then adcb $0 on p[k], as many instructions but two chained
 * read-modify-writes: a loop that bumps the same counter every iteration
 * then waits on two store-to-load forwardings per round
 * (bench/overhead_work.c: 1.23x plain time with it, 1.08x with this).  The asm
 * writes only p[k] and the flags, and only through the counters' own
 * alias set, so it costs the code around it nothing more than the plain
 * form; it is not volatile: nothing but p[k] depends on it, and p[k] is
 * memory it writes, so it cannot be dropped.
 *
 * Elsewhere, in GIMPLE:
 *     c = p[k];  o = .ADD_OVERFLOW (c, 1);  p[k] = REALPART (o) + IMAGPART (o);
 * said with the overflow flag rather than a compare with 0, so targets
 * with a carry get add + add-with-carry.
 * Virtual operands are left for update_ssa. */
#if defined(__x86_64__) || defined(__i386__)
void add_increment(gimple_seq *seq, tree ctr_t, tree p, unsigned k)
{
    tree ref = build2(MEM_REF, ctr_t, p, build_int_cst(build_pointer_type(ctr_t), k));
    vec<tree, va_gc> *outputs = NULL, *inputs = NULL, *clobbers = NULL;
    vec_safe_push(outputs, build_tree_list(build_tree_list(NULL_TREE, build_string(3, "=m")), ref));
    vec_safe_push(inputs, build_tree_list(build_tree_list(NULL_TREE, build_string(2, "m")),
                                          unshare_expr(ref)));
    vec_safe_push(clobbers, build_tree_list(NULL_TREE, build_string(3, "cc")));
    gasm *g = gimple_build_asm_vec("cmpb $-1, %1\n\tsbbb $-2, %0", inputs, outputs, clobbers, NULL);
    gimple_seq_add_stmt(seq, g);
}
#else
void add_increment(gimple_seq *seqp, tree ctr_t, tree p, unsigned k)
{
    tree u8 = ctr_t;
    gimple_seq seq = NULL;

    tree ref = build2(MEM_REF, u8, p, build_int_cst(build_pointer_type(ctr_t), k));
    tree c0 = make_ssa_name(u8);
    gimple_seq_add_stmt(&seq, gimple_build_assign(c0, ref));
    tree ctype = build_complex_type(u8);
    tree ov = make_ssa_name(ctype);
    gcall *add = gimple_build_call_internal(IFN_ADD_OVERFLOW, 2, c0, build_one_cst(u8));
    gimple_call_set_lhs(add, ov);
    gimple_seq_add_stmt(&seq, add);
    tree c1 = make_ssa_name(u8);
    gimple_seq_add_stmt(&seq,
                        gimple_build_assign(c1, REALPART_EXPR, build1(REALPART_EXPR, u8, ov)));
    tree carry = make_ssa_name(u8);
    gimple_seq_add_stmt(&seq,
                        gimple_build_assign(carry, IMAGPART_EXPR, build1(IMAGPART_EXPR, u8, ov)));
    tree c2 = make_ssa_name(u8);
    gimple_seq_add_stmt(&seq, gimple_build_assign(c2, PLUS_EXPR, c1, carry));
    gimple_seq_add_stmt(&seq, gimple_build_assign(unshare_expr(ref), c2));
    gimple_seq_add_seq(seqp, seq);
}
#endif

void insert_increment(tree ctr_t, tree p, basic_block bb, unsigned k)
{
    gimple_seq seq = NULL;
    add_increment(&seq, ctr_t, p, k);
    gimple_stmt_iterator gsi = gsi_after_labels(bb);
    gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
}

/* Loop trip counts (FZ_LOOP_TRIPS).  clang unrolls and vectorizes loops
 * before its pass runs, so a clang map tells apart how many times a loop
 * went round (modulo the unroll factor and vector width); GCC unrolls after
 * our pass, and a back edge's counter only holds the sum over every time
 * the loop ran in the run.  So per loop: a counter i of the back edges
 * taken since the loop was entered (a PHI in the header: 0 from outside
 * the loop, i + 1 round a back edge), and on each exit edge one of the
 * exit's TRIP_SLOTS slots is bumped, chosen by i: i itself below 8, then
 * one slot per power of two (8-15, 16-31, ..., 1024 and more):
 *     b = i < 8 ? i : min(36 - clz(i | 8), 15)
 * Exits to the function's end (a return inside the loop), EH, abnormal
 * and asm-goto edges, and loops entered by an abnormal or EH edge are left
 * alone.
 *
 * TRIPS_ALL does that for every loop.  TRIPS_COUNTED only for the loops
 * whose count GCC knows at compile time, the ones clang unrolls in full
 * (a search over the 15 code lengths, a check over 4 header bytes): only
 * their early exits get slots (the exit taken after the full count says
 * nothing new), and below 16 rounds each count gets its own slot, as in
 * the fully unrolled code.  Such loops are few, so the map grows by a few
 * per cent where every loop would cost a third more.
 *
 * Returns true when it queued code on an edge (the caller commits). */
const unsigned TRIP_SLOTS = 16, TRIP_EXACT = 8;

/* The exit a loop leaves by after its full count when GCC knows that count
 * as a constant, or NULL; *small tells whether the count is below
 * TRIP_SLOTS.  Needs the scalar evolution set up (insert_loop_trips). */
edge constant_count_exit(class loop *lp, bool *small)
{
    edge x = NULL;
    if (!lp->latch)
        return NULL;
    tree n = find_loop_niter(lp, &x);
    if (!x || TREE_CODE(n) != INTEGER_CST)
        return NULL;
    *small = tree_fits_uhwi_p(n) && tree_to_uhwi(n) < TRIP_SLOTS;
    return x;
}

/* The statements that bump slot base + b of the TRIP_SLOTS slots at base,
 * b chosen by the trip count i as above, or b = min(i, 15) when the loop's
 * count is known to be below 16 (exact). */
gimple_seq trip_slot_seq(tree ctr_t, tree p, tree i, unsigned base, bool exact)
{
    tree ut = unsigned_type_node;
    gimple_seq seq = NULL;
    tree b = make_ssa_name(ut);
    if (exact) {
        gimple_seq_add_stmt(&seq,
                            gimple_build_assign(b, MIN_EXPR, i, build_int_cst(ut, TRIP_SLOTS - 1)));
    } else {
        tree or8 = make_ssa_name(ut);
        gimple_seq_add_stmt(&seq,
                            gimple_build_assign(or8, BIT_IOR_EXPR, i, build_int_cst(ut, TRIP_EXACT)));
        tree clz = make_ssa_name(integer_type_node);
        gcall *c = gimple_build_call(builtin_decl_explicit(BUILT_IN_CLZ), 1, or8);
        gimple_call_set_lhs(c, clz);
        gimple_seq_add_stmt(&seq, c);
        tree clzu = make_ssa_name(ut);
        gimple_seq_add_stmt(&seq, gimple_build_assign(clzu, NOP_EXPR, clz));
        tree lg = make_ssa_name(ut);
        gimple_seq_add_stmt(&seq, gimple_build_assign(lg, MINUS_EXPR, build_int_cst(ut, 36), clzu));
        tree lgm = make_ssa_name(ut);
        gimple_seq_add_stmt(
            &seq, gimple_build_assign(lgm, MIN_EXPR, lg, build_int_cst(ut, TRIP_SLOTS - 1)));
        tree small = make_ssa_name(boolean_type_node);
        gimple_seq_add_stmt(&seq,
                            gimple_build_assign(small, LT_EXPR, i, build_int_cst(ut, TRIP_EXACT)));
        gimple_seq_add_stmt(&seq, gimple_build_assign(b, COND_EXPR, small, i, lgm));
    }
    tree off = make_ssa_name(sizetype);
    gimple_seq_add_stmt(&seq, gimple_build_assign(off, NOP_EXPR, b));
    tree q = make_ssa_name(TREE_TYPE(p));
    gimple_seq_add_stmt(&seq, gimple_build_assign(q, POINTER_PLUS_EXPR, p, off));
    add_increment(&seq, ctr_t, q, base);
    return seq;
}

bool insert_loop_trips(fz_state *st, function *fn, tree ctr_t, tree p)
{
    if (!loops_for_fn(fn) || number_of_loops(fn) <= 1)
        return false;
    if (loops_state_satisfies_p(fn, LOOPS_NEED_FIXUP))
        fix_loop_structure(NULL);
    bool counted = st->trips == TRIPS_COUNTED;
    if (counted) {
        /* find_loop_niter wants preheaders, simple latches and recorded
         * exits, and the scalar evolution; both are torn down below. */
        loop_optimizer_init(LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
        scev_initialize();
    }
    bool queued = false;
    tree ut = unsigned_type_node;
    for (auto lp : loops_list(fn, 0)) {
        basic_block h = lp->header;
        if (!h || h == ENTRY_BLOCK_PTR_FOR_FN(fn) || block_denied(st, h))
            continue;
        bool ok = true;
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, h->preds)
        if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
            ok = false;
        if (!ok)
            continue;
        edge full = NULL; /* the exit after the full count (TRIPS_COUNTED) */
        bool exact = false;
        if (counted && !(full = constant_count_exit(lp, &exact)))
            continue;
        auto_vec<edge> used;
        for (edge x : get_loop_exit_edges(lp)) {
            if (x == full || x->flags & (EDGE_ABNORMAL | EDGE_EH | EDGE_FAKE) ||
                x->dest == EXIT_BLOCK_PTR_FOR_FN(fn))
                continue;
            gimple *last = last_stmt(x->src);
            if (last && gimple_code(last) == GIMPLE_ASM &&
                gimple_asm_nlabels(as_a<gasm *>(last)) > 0)
                continue;
            used.safe_push(x);
        }
        if (used.is_empty())
            continue;

        tree i = make_ssa_name(ut);
        tree next = make_ssa_name(ut);
        gphi *phi = create_phi_node(i, h);
        FOR_EACH_EDGE(e, ei, h->preds)
        add_phi_arg(phi, flow_bb_inside_loop_p(lp, e->src) ? next : build_zero_cst(ut), e,
                    UNKNOWN_LOCATION);
        gimple_stmt_iterator gsi = gsi_after_labels(h);
        gsi_insert_before(&gsi, gimple_build_assign(next, PLUS_EXPR, i, build_one_cst(ut)),
                          GSI_SAME_STMT);

        for (edge x : used) {
            gsi_insert_seq_on_edge(x, trip_slot_seq(ctr_t, p, i, st->slots, exact));
            st->slots += TRIP_SLOTS;
            queued = true;
        }
    }
    if (counted) {
        scev_finalize();
        loop_optimizer_finalize();
    }
    return queued;
}

/* Is t a boolean in the sense of a decision: a BOOLEAN_TYPE or a
 * one-bit integer? */
bool boolean_value(tree t)
{
    tree ty = TREE_TYPE(t);
    return TREE_CODE(ty) == BOOLEAN_TYPE || (INTEGRAL_TYPE_P(ty) && TYPE_PRECISION(ty) == 1);
}

/* Is g two decisions joined into one: the & or | of two boolean values
 * (what ifcombine and fold make of `a && b` and `a || b` when both halves
 * are cheap)?  Its four slots tell which of the four pairs of outcomes the
 * run had, which one slot per half cannot: `a && b` true is not `a` true
 * in one run and `b` in another. */
bool joined_decisions(gimple *g)
{
    if (!is_gimple_assign(g) || stmt_could_throw_p(cfun, g))
        return false;
    tree_code c = gimple_assign_rhs_code(g);
    if (c != BIT_AND_EXPR && c != BIT_IOR_EXPR)
        return false;
    tree lhs = gimple_assign_lhs(g), x = gimple_assign_rhs1(g), y = gimple_assign_rhs2(g);
    return TREE_CODE(lhs) == SSA_NAME && boolean_value(lhs) && TREE_CODE(x) == SSA_NAME &&
           TREE_CODE(y) == SSA_NAME && x != y && boolean_value(x) && boolean_value(y);
}

/* Is g `t = x | y` of two integers whose every use tests t against zero
 * (t == 0, t != 0): what fold and ifcombine make of `x == 0 && y == 0`
 * and `x != 0 || y != 0`?  Then the halves are two decisions joined into
 * one, like joined_decisions' booleans, and the branch on t has one edge
 * for three pairs of outcomes: x nonzero, y nonzero, or both. */
bool zero_tested_or(gimple *g)
{
    if (!is_gimple_assign(g) || gimple_assign_rhs_code(g) != BIT_IOR_EXPR ||
        stmt_could_throw_p(cfun, g))
        return false;
    tree lhs = gimple_assign_lhs(g), x = gimple_assign_rhs1(g), y = gimple_assign_rhs2(g);
    if (TREE_CODE(lhs) != SSA_NAME || !INTEGRAL_TYPE_P(TREE_TYPE(lhs)) || boolean_value(lhs) ||
        TREE_CODE(x) != SSA_NAME || TREE_CODE(y) != SSA_NAME || x == y)
        return false;
    bool tested = false;
    imm_use_iterator it;
    use_operand_p use;
    FOR_EACH_IMM_USE_FAST(use, it, lhs)
    {
        gimple *u = USE_STMT(use);
        if (is_gimple_debug(u))
            continue;
        tree_code c;
        tree a, b;
        if (gcond *cond = dyn_cast<gcond *>(u)) {
            c = gimple_cond_code(cond);
            a = gimple_cond_lhs(cond);
            b = gimple_cond_rhs(cond);
        } else if (is_gimple_assign(u) &&
                   TREE_CODE_CLASS(gimple_assign_rhs_code(u)) == tcc_comparison) {
            c = gimple_assign_rhs_code(u);
            a = gimple_assign_rhs1(u);
            b = gimple_assign_rhs2(u);
        } else {
            return false;
        }
        if ((c != EQ_EXPR && c != NE_EXPR) || a != lhs || !integer_zerop(b))
            return false;
        tested = true;
    }
    return tested;
}

/* Is a comparison's value used other than as the condition of a branch
 * (whose edges show it), of a COND_EXPR (a folded site of its own) or as
 * a half of joined decisions (whose slots show it)? */
bool used_beyond_decisions(tree lhs)
{
    imm_use_iterator it;
    use_operand_p use;
    FOR_EACH_IMM_USE_FAST(use, it, lhs)
    {
        gimple *u = USE_STMT(use);
        if (is_gimple_debug(u) || gimple_code(u) == GIMPLE_COND || joined_decisions(u))
            continue;
        if (is_gimple_assign(u) && gimple_assign_rhs_code(u) == COND_EXPR &&
            gimple_assign_rhs1(u) == lhs && gimple_assign_rhs2(u) != lhs &&
            gimple_assign_rhs3(u) != lhs)
            continue;
        return true;
    }
    return false;
}

/* A folded decision's outcome: the value `value` (and for joined
 * decisions the second value `second`, slot value + 2 * second), or when
 * value is NULL_TREE the comparison `code` of a and b, to be computed; or
 * when `halves` is set (zero_tested_or), a != 0 + 2 * (b != 0). */
struct decision {
    tree value, second;
    tree_code code;
    tree a, b;
    bool halves;
};

/* Folded branches (spec 3b).  The slots g gets (0 when it is not a
 * decision we count) and its outcome in *d: two for a comparison assigned
 * to a scalar and used beyond decisions, a COND_EXPR assignment (by its
 * condition), a MIN_EXPR or MAX_EXPR on integers or pointers (whether the
 * first operand is the smaller); four for joined decisions. */
unsigned folded_decision(gimple *g, decision *d)
{
    *d = decision{NULL_TREE, NULL_TREE, ERROR_MARK, NULL_TREE, NULL_TREE, false};
    if (!is_gimple_assign(g) || stmt_could_throw_p(cfun, g))
        return 0;
    tree lhs = gimple_assign_lhs(g);
    if (TREE_CODE(lhs) != SSA_NAME || VECTOR_TYPE_P(TREE_TYPE(lhs)) ||
        TREE_CODE(TREE_TYPE(lhs)) == COMPLEX_TYPE)
        return 0;
    tree_code c = gimple_assign_rhs_code(g);
    if (joined_decisions(g)) {
        d->value = gimple_assign_rhs1(g);
        d->second = gimple_assign_rhs2(g);
        return 4;
    }
    if (zero_tested_or(g)) {
        d->a = gimple_assign_rhs1(g);
        d->b = gimple_assign_rhs2(g);
        d->halves = true;
        return 4;
    }
    if (TREE_CODE_CLASS(c) == tcc_comparison) {
        tree t = TREE_TYPE(gimple_assign_rhs1(g));
        if (VECTOR_TYPE_P(t) || TREE_CODE(t) == COMPLEX_TYPE ||
            (CONSTANT_CLASS_P(gimple_assign_rhs1(g)) && CONSTANT_CLASS_P(gimple_assign_rhs2(g))) ||
            !used_beyond_decisions(lhs))
            return 0;
        d->value = lhs;
        return 2;
    }
    if (c == COND_EXPR) {
        tree cond = gimple_assign_rhs1(g);
        if (COMPARISON_CLASS_P(cond)) {
            tree t = TREE_TYPE(TREE_OPERAND(cond, 0));
            if (VECTOR_TYPE_P(t) || TREE_CODE(t) == COMPLEX_TYPE)
                return 0;
            d->code = TREE_CODE(cond);
            d->a = TREE_OPERAND(cond, 0);
            d->b = TREE_OPERAND(cond, 1);
            return 2;
        }
        if (TREE_CODE(cond) != SSA_NAME || VECTOR_TYPE_P(TREE_TYPE(cond)))
            return 0;
        d->value = cond;
        return 2;
    }
    if ((c == MIN_EXPR || c == MAX_EXPR) &&
        (INTEGRAL_TYPE_P(TREE_TYPE(lhs)) || POINTER_TYPE_P(TREE_TYPE(lhs)))) {
        d->code = LT_EXPR;
        d->a = gimple_assign_rhs1(g);
        d->b = gimple_assign_rhs2(g);
        return CONSTANT_CLASS_P(d->a) && CONSTANT_CLASS_P(d->b) ? 0 : 2;
    }
    return 0;
}

/* A statement that gets folded-branch slots, with its outcome and slot
 * count as decided before any site's code adds uses to the values. */
struct folded_site {
    gimple *g;
    decision d;
    unsigned slots;
};

/* The statements of fn's blocks that get folded-branch slots: those of
 * folded_decision in blocks that are not denied. */
void folded_sites(const fz_state *st, function *fn, auto_vec<folded_site> &sites)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fn)
    {
        if (block_denied(st, bb))
            continue;
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            folded_site site = {gsi_stmt(gsi), {}, 0};
            site.slots = folded_decision(site.g, &site.d);
            if (site.slots)
                sites.safe_push(site);
        }
    }
}

/* Appends to seq the outcome v as a sizetype 0 or 1: a signed one-bit
 * "true" is -1, so that one is v != 0 first. */
tree outcome_index(gimple_seq *seq, tree v)
{
    tree vt = TREE_TYPE(v);
    if (!TYPE_UNSIGNED(vt) && TYPE_PRECISION(vt) == 1) {
        tree nz = make_ssa_name(boolean_type_node);
        gimple_seq_add_stmt(seq, gimple_build_assign(nz, NE_EXPR, v, build_zero_cst(vt)));
        v = nz;
    }
    tree o = make_ssa_name(sizetype);
    gimple_seq_add_stmt(seq, gimple_build_assign(o, NOP_EXPR, v));
    return o;
}

/* Marks which way site g decided in slot k + outcome (0 or 1; for joined
 * decisions first + 2 * second, 0 to 3; for a zero-tested or, which
 * halves are nonzero, 0 to 3):
 *     o = (sizetype) outcome;  q = p + o;  q[k] = 1;
 * a plain store, not a count: the slot says that outcome happened in the
 * run, as a taken branch's edge would, without adding hit counts to the
 * map for values that change with every input.  A COND_EXPR over an
 * embedded comparison gets that comparison as a value of its own first,
 * and uses it, so the comparison hooks see it once. */
void insert_folded(tree ctr_t, tree p, const folded_site &site, unsigned k)
{
    gimple *g = site.g;
    const decision &d = site.d;
    gimple_stmt_iterator gsi = gsi_for_stmt(g);
    gimple_seq seq = NULL;
    tree v = d.value, second = d.second;
    if (d.halves) {
        v = make_ssa_name(boolean_type_node);
        gimple_seq_add_stmt(&seq, gimple_build_assign(v, NE_EXPR, d.a, build_zero_cst(TREE_TYPE(d.a))));
        second = make_ssa_name(boolean_type_node);
        gimple_seq_add_stmt(&seq, gimple_build_assign(second, NE_EXPR, d.b, build_zero_cst(TREE_TYPE(d.b))));
    } else if (!v) {
        v = make_ssa_name(boolean_type_node);
        gimple_seq_add_stmt(&seq, gimple_build_assign(v, d.code, d.a, d.b));
        gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
        seq = NULL;
        if (gimple_assign_rhs_code(g) == COND_EXPR) {
            gimple_assign_set_rhs1(g, v);
            update_stmt(g);
        }
    }
    tree o = outcome_index(&seq, v);
    if (second) {
        tree o2 = outcome_index(&seq, second);
        tree twice = make_ssa_name(sizetype);
        gimple_seq_add_stmt(&seq, gimple_build_assign(twice, PLUS_EXPR, o2, o2));
        tree sum = make_ssa_name(sizetype);
        gimple_seq_add_stmt(&seq, gimple_build_assign(sum, PLUS_EXPR, o, twice));
        o = sum;
    }
    tree q = make_ssa_name(TREE_TYPE(p));
    gimple_seq_add_stmt(&seq, gimple_build_assign(q, POINTER_PLUS_EXPR, p, o));
    tree ref = build2(MEM_REF, ctr_t, q, build_int_cst(build_pointer_type(ctr_t), k));
    gimple_seq_add_stmt(&seq, gimple_build_assign(ref, build_int_cst(ctr_t, 1)));
    gsi_insert_seq_after(&gsi, seq, GSI_SAME_STMT);
}

const pass_data fz_pass_data = {
    GIMPLE_PASS,         /* type */
    "fz",                /* name */
    OPTGROUP_NONE,       /* optinfo_flags */
    TV_NONE,             /* tv_id */
    PROP_cfg | PROP_ssa, /* properties_required */
    0,                   /* properties_provided */
    0,                   /* properties_destroyed */
    0,                   /* todo_flags_start */
    0,                   /* todo_flags_finish: execute() returns them */
};

/* True when nothing but copies into registers and the return itself
 * comes after gsi on the way to the function's end: what tailc checked
 * before it marked the call there a tail call. */
bool only_return_after(function *fn, gimple_stmt_iterator gsi)
{
    basic_block bb = gsi_bb(gsi);
    for (;;) {
        for (; !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            if (is_gimple_debug(g) || gimple_code(g) == GIMPLE_LABEL ||
                gimple_code(g) == GIMPLE_RETURN || gimple_code(g) == GIMPLE_NOP)
                continue;
            if (is_gimple_assign(g) && TREE_CODE(gimple_assign_lhs(g)) == SSA_NAME)
                continue;
            return false;
        }
        if (!single_succ_p(bb))
            return false;
        bb = single_succ(bb);
        if (bb == EXIT_BLOCK_PTR_FOR_FN(fn))
            return true;
        gsi = gsi_start_bb(bb);
    }
}

/* GCC's tailc pass runs before this one and marks calls that only return
 * after them; expansion then makes each a jump and drops whatever follows
 * it.  A counter this pass put on that way, say in the return block a
 * tail call shares with an early return, would count only the other ways
 * into it, and every way in the logging copy (compiled with -O0 options,
 * which make no sibling calls): a logging run would light slots a plain
 * run does not.  So such a call goes back to being a call that returns. */
void untail_calls_before_counters(function *fn)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fn)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
        if (!call || !gimple_call_tail_p(call))
            continue;
        gimple_stmt_iterator after = gsi;
        gsi_next(&after);
        if (!only_return_after(fn, after))
            gimple_call_set_tail(call, false);
    }
}

struct fz_pass : gimple_opt_pass {
    fz_state *st;

    fz_pass(gcc::context *ctx, fz_state *state) : gimple_opt_pass(fz_pass_data, ctx), st(state)
    {
    }

    unsigned int execute(function *fn) final override
    {
        if (function_skipped(st, fn))
            return 0;
        if (fz_test_crash_wanted("edge", IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn->decl))))
            internal_error("%<FZ_TEST_CRASH%>: fz edge pass told to fail in %qs (test only)",
                           IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn->decl)));
        split_critical_edges(fn);

        /* Decide first, then insert: inserting does not change the CFG, but
         * keeping the two apart keeps the rule easy to read. */
        auto_sbitmap counted(last_basic_block_for_fn(fn));
        bitmap_clear(counted);
        basic_block bb;
        FOR_EACH_BB_FN(bb, fn)
        if (block_needs_counter(bb, fn) && !block_denied(st, bb))
            bitmap_set_bit(counted, bb->index);
        if (st->prune)
            prune_counters(fn, counted);
        auto_vec<basic_block> chosen;
        FOR_EACH_BB_FN(bb, fn)
        if (bitmap_bit_p(counted, bb->index))
            chosen.safe_push(bb);
        auto_vec<folded_site> folded;
        if (st->folded)
            folded_sites(st, fn, folded);
        if (chosen.is_empty() && folded.is_empty())
            return 0;

        /* __fz_area is loaded once per call, on the way in from the entry:
         * it only changes when the module registers, before any of its code
         * runs, and a pointer kept in a register is cheaper than a load per
         * edge that no later pass may hoist. */
        tree area = area_decl(st);
        tree p = make_ssa_name(TREE_TYPE(area));
        tree ctr_t = counter_type(st);
        for (basic_block b : chosen)
            insert_increment(ctr_t, p, b, st->slots++);
        if (st->trips != TRIPS_OFF && insert_loop_trips(st, fn, ctr_t, p))
            gsi_commit_edge_inserts();
        /* After the trip counts: their loop analysis wants the function
         * without statements it has not seen in SSA form yet. */
        for (const folded_site &site : folded) {
            insert_folded(ctr_t, p, site, st->slots);
            st->slots += site.slots;
        }
        gsi_insert_on_edge_immediate(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fn)),
                                     gimple_build_assign(p, area));
        untail_calls_before_counters(fn);
        mark_virtual_operands_for_renaming(fn);
        return TODO_update_ssa;
    }
};

/* The constructor body: if (&__fz_register) __fz_register(&__fz_area, n); */
tree build_register_call(tree area, unsigned n)
{
    tree fn_type = build_function_type_list(void_type_node, build_pointer_type(TREE_TYPE(area)),
                                            uint32_type_node, NULL_TREE);
    tree reg = build_fn_decl("__fz_register", fn_type);
    TREE_PUBLIC(reg) = 1;
    DECL_EXTERNAL(reg) = 1;
    DECL_ARTIFICIAL(reg) = 1;
    /* DECL_WEAK keeps GCC from folding the test below to "true".  GCC has
     * already written its .weak directives when the unit ends, so we write
     * ours. */
    DECL_WEAK(reg) = 1;
    ASM_WEAKEN_LABEL(asm_out_file, "__fz_register");

    tree call =
        build_call_expr(reg, 2, build_fold_addr_expr(area), build_int_cst(uint32_type_node, n));
    tree present = build2(NE_EXPR, boolean_type_node, build_fold_addr_expr(reg),
                          build_int_cst(TREE_TYPE(build_fold_addr_expr(reg)), 0));
    return build3(COND_EXPR, void_type_node, present, call, NULL_TREE);
}

/* Defines the counters and __fz_area now that N is known, and adds the
 * registration constructor.  Runs once, after every function is compiled. */
void emit_module(fz_state *st)
{
    unsigned n = st->slots;
    tree counters =
        make_static_var("__fz_local_counters", build_array_type_nelts(unsigned_char_type_node, n));
    varpool_node::finalize_decl(counters);

    tree area = area_decl(st);
    DECL_INITIAL(area) = fold_convert(TREE_TYPE(area), build_fold_addr_expr(counters));
    varpool_node::finalize_decl(area);

    cgraph_build_static_cdtor('I', build_register_call(area, n), FZ_CTOR_PRIORITY_REGISTER);
}

/* The comparison pass leaves alone what the edge pass leaves alone. */
bool cmp_skipped(void *user, function *fn, basic_block bb)
{
    fz_state *st = (fz_state *)user;
    return bb ? block_denied(st, bb) : function_skipped(st, fn);
}

void on_finish_unit(void *, void *user_data)
{
    fz_state *st = (fz_state *)user_data;
    st->frozen = true;
    if (seen_error())
        return;
    if (st->slots > 0)
        emit_module(st);
    unsigned sites = fz_cmp_finish_unit(st->cmp);
    if (st->quiet)
        return;
    const char *file = main_input_filename ? main_input_filename : "<stdin>";
    /* A slim -flto object holds GIMPLE only; our pass runs when lto1
     * generates the code at link time (fz-cc adds the plugin there too),
     * and reports from there, naming the partition lto1 compiles. */
    if (flag_generate_lto && !flag_fat_lto_objects && !in_lto_p)
        fprintf(stderr, "fz-cc: %s: -flto: edges are instrumented at the link step\n", file);
    else
        fprintf(stderr, "fz-cc: %u edges instrumented in %s%s\n", st->slots, file,
                in_lto_p ? " (-flto link)" : "");
    if (sites > 0 && !(flag_generate_lto && !flag_fat_lto_objects && !in_lto_p))
        fprintf(stderr, "fz-cc: %u comparison sites hooked in %s%s\n", sites, file,
                in_lto_p ? " (-flto link)" : "");
}

void on_finish(void *, void *user_data)
{
    fz_state *st = (fz_state *)user_data;
    fz_denylist_free(&st->deny);
    fz_cmp_free(st->cmp);
    delete st;
}

bool env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* FZ_LOOP_TRIPS: 0 or off; counted (also unset or empty: the default); 1
 * or all.  Says what is wrong and returns false on anything else. */
bool loop_trips_from_env(loop_trips *out)
{
    const char *v = getenv("FZ_LOOP_TRIPS");
    if (!v)
        v = "";
    if (!strcmp(v, "0") || !strcmp(v, "off"))
        *out = TRIPS_OFF;
    else if (!*v || !strcmp(v, "counted"))
        *out = TRIPS_COUNTED;
    else if (!strcmp(v, "1") || !strcmp(v, "all"))
        *out = TRIPS_ALL;
    else {
        fprintf(stderr, "fz-cc: error: FZ_LOOP_TRIPS=%s: expected 0, counted or 1\n", v);
        return false;
    }
    return true;
}

struct plugin_info fz_plugin_info = {
    "fz",
    "fz edge-coverage instrumentation (see docs/coverage.md); FZ_QUIET=1 silences the report, "
    "FZ_DENYLIST=file skips functions and files, FZ_NO_PRUNE=1 counts every block the first rule "
    "picks, FZ_LOOP_TRIPS=0|counted|1 sets which loops get trip-count slots (counted), FZ_NO_CMP=1 leaves comparisons unhooked",
};

/* The GCC this plugin was compiled for.  The two macros exist only so that
 * tests/e2e/fzcc_gcc_version.sh can build a plugin that believes it was
 * built for another GCC; nothing else sets them. */
struct plugin_gcc_version built_for()
{
    struct plugin_gcc_version v = gcc_version;
#ifdef FZ_BUILT_GCC_BASEVER
    v.basever = FZ_BUILT_GCC_BASEVER;
#endif
#ifdef FZ_BUILT_GCC_CONFIG
    v.configuration_arguments = FZ_BUILT_GCC_CONFIG;
#endif
    return v;
}

/* The rebuild hint for the driver the user ran: the pair of drivers of one
 * GCC, found by swapping gcc <-> g++ (gcc-13 / g++-13,
 * x86_64-linux-gnu-gcc / -g++) or cc <-> c++ in the file name. */
void rebuild_hint(const char *driver, char *hint, size_t size)
{
    /* What to swap; "whole" names must be the entire file name. */
    static const struct {
        const char *from, *to;
        bool cxx, whole;
    } swaps[] = {{"gcc", "g++", false, false},
                 {"g++", "gcc", true, false},
                 {"cc", "c++", false, true},
                 {"c++", "cc", true, true}};
    const char *base = driver ? strrchr(driver, '/') : NULL;
    base = base ? base + 1 : driver;
    for (const auto &sw : swaps) {
        const char *at = NULL;
        if (base)
            at = sw.whole ? (strcmp(base, sw.from) ? NULL : base) : strstr(base, sw.from);
        if (!at)
            continue;
        char other[1024];
        snprintf(other, sizeof(other), "%.*s%s%s", (int)(at - driver), driver, sw.to,
                 at + strlen(sw.from));
        snprintf(hint, size, "make clean && make CC=%s CXX=%s", sw.cxx ? other : driver,
                 sw.cxx ? driver : other);
        return;
    }
    snprintf(hint, size, "make clean && make CC=<this gcc> CXX=<its g++>");
}

/* plugin_default_version_check compares the version, build date, phase and
 * configure arguments.  Under fz-cc a different version was already caught
 * (fz-cc compares lib/fz/fz-gcc-plugin.version first), so what reaches
 * this is a GCC that differs only in how it was built, or a plain
 * -fplugin= use; either way one line, naming the versions only when they
 * differ.  COLLECT_GCC is the driver the user ran (set by gcc for cc1). */
bool version_matches(struct plugin_gcc_version *version)
{
    struct plugin_gcc_version built = built_for();
    if (plugin_default_version_check(version, &built))
        return true;
    char hint[2200];
    rebuild_hint(getenv("COLLECT_GCC"), hint, sizeof(hint));
    if (strcmp(built.basever, version->basever) != 0)
        fprintf(stderr,
                "fz-cc: error: fz-gcc-plugin.so was built for GCC %s but is loaded by GCC %s; "
                "rebuild fz with this compiler: %s\n",
                built.basever, version->basever, hint);
    else
        fprintf(stderr,
                "fz-cc: error: fz-gcc-plugin.so was built for another build of GCC %s (its "
                "configure arguments or build date differ); rebuild fz with this compiler: %s\n",
                version->basever, hint);
    return false;
}

} // namespace

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
    if (!version_matches(version))
        return 1;

    fz_state *st = new fz_state();
    st->quiet = env_flag("FZ_QUIET");
    st->prune = !env_flag("FZ_NO_PRUNE");
    st->folded = !env_flag("FZ_NO_FOLDED");
    if (!loop_trips_from_env(&st->trips)) {
        delete st;
        return 1;
    }
    char err[1024];
    if (fz_denylist_from_env(&st->deny, err, sizeof(err)) != 0) {
        fprintf(stderr, "fz-cc: error: %s\n", err);
        delete st;
        return 1;
    }
    st->tu_denied = main_input_filename && fz_denylist_deny_source(&st->deny, main_input_filename);

    struct register_pass_info pass_info;
    pass_info.pass = new fz_pass(g, st);
    pass_info.reference_pass_name = "optimized";
    pass_info.ref_pass_instance_number = 1;
    pass_info.pos_op = PASS_POS_INSERT_AFTER;

    /* The comparison hooks come after the counters, so the blocks they add
     * get none. */
    st->cmp = fz_cmp_new(!env_flag("FZ_NO_CMP"), cmp_skipped, st);
    struct register_pass_info cmp_info;
    cmp_info.pass = fz_cmp_pass_new(g, st->cmp);
    cmp_info.reference_pass_name = "fz";
    cmp_info.ref_pass_instance_number = 1;
    cmp_info.pos_op = PASS_POS_INSERT_AFTER;

    register_callback(info->base_name, PLUGIN_INFO, NULL, &fz_plugin_info);
    /* __fz_area and the counter type live from the first function to the
     * end of the unit with nothing of GCC's pointing at them: without a
     * root, the collector GCC runs between functions frees them and their
     * memory comes back as other nodes (issue 19: sqlite3.c -g -O2 died
     * in make_ssa_name_fn, in reload or in recog, a different function
     * each run).  Roots for the comparison hooks' trees, likewise. */
    static ggc_root_tab roots[3] = {
        {NULL, 1, sizeof(tree), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
        {NULL, 1, sizeof(tree), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
        LAST_GGC_ROOT_TAB,
    };
    roots[0].base = &st->area;
    roots[1].base = &st->ctr_type;
    register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL, roots);
    fz_cmp_register_roots(st->cmp, info->base_name);
    register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass_info);
    register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &cmp_info);
    /* Switches are marked before GCC lowers them into compares. */
    for (const char *lower : {"switchlower", "switchlower_O0"}) {
        struct register_pass_info sw_info;
        sw_info.pass = fz_switch_pass_new(g, st->cmp);
        sw_info.reference_pass_name = lower;
        sw_info.ref_pass_instance_number = 0;
        sw_info.pos_op = PASS_POS_INSERT_BEFORE;
        register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &sw_info);
    }
    register_callback(info->base_name, PLUGIN_FINISH_UNIT, on_finish_unit, st);
    register_callback(info->base_name, PLUGIN_FINISH, on_finish, st);
    return 0;
}
