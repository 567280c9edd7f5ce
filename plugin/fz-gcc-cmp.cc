/*
 * fz-gcc-cmp.cc - the GCC back end of fz's comparison hooks: integer
 * compares, switches and calls of the string / memory comparison functions
 * get a guarded call that logs their operands (include/fz-cmplog.h,
 * runtime/rt-cmp.c; docs/coverage.md, "Comparisons", for users).
 *
 * Specification:
 *
 *  1. Where.  A GIMPLE pass of its own, right after the edge pass (so the
 *     blocks it adds get no counters), i.e. after GCC's "optimized" pass:
 *     the compares are those the optimiser left, so hooks cannot block an
 *     optimisation, and calls such as memcmp are still calls: GCC only
 *     expands small constant-size ones inline at RTL, after this pass.
 *     (Equality memcmp of 1, 2, 4, 8 bytes GCC turns into one integer
 *     compare at GIMPLE already; the integer hook sees that, with the
 *     string's bytes as the constant.)
 *
 *  2. What.  (a) Integer compares (GIMPLE_COND, and assignments of a
 *     comparison or of a COND_EXPR over one) of 1, 2, 4, 8 or 16 bytes
 *     whose operands are not both constants, not pointers, not booleans.
 *     The constant, if any, becomes the second operand (FZ_CMP_A_CONST);
 *     == and != set FZ_CMP_A_EQ.  Skipped because no input can steer
 *     them (docs/coverage.md): compares of a loop's induction variable
 *     (an SSA name that a loop-header PHI feeds back as itself plus a
 *     constant) with a constant or with a value computed outside the
 *     loop, and compares with 0.  (b) Switches on integers of up to 8
 *     bytes: one call per execution with every case value (range ends
 *     both), in ceil(cases / FZ_CMP_PAIRS) slots.  (c) Calls of memcmp,
 *     bcmp, strcmp, strncmp, strcasecmp, strncasecmp, strstr, strcasestr,
 *     memmem, their __builtin_ forms and GCC's own __builtin_memcmp_eq,
 *     __builtin_strcmp_eq, __builtin_strncmp_eq (what its strlen pass
 *     makes of an equality test), found by builtin code or by assembler
 *     name, with the bounds the real function may read.
 *
 *  3. How.  Before the compare or call:
 *         f = __fz_cmp_on;  if (f != 0) goto hook; else goto rest;
 *     hook:  __fz_cmp_<kind> (__fz_cmp_base + k, operands..., info);
 *     rest:  the compare or call, unchanged.
 *     The hook block is marked very unlikely, so RTL lays it out of line
 *     and a run that does not log pays a load and a not-taken branch.
 *     The hook functions are weak references (like __fz_register), so a
 *     module linked without the runtime still links and loads; its flag
 *     is never set, so they are never called.
 *
 *  4. Per module with M > 0 sites, at the end of the unit, internal:
 *         static uint8_t __fz_cmp_on;  static uint32_t __fz_cmp_base;
 *     and a constructor of priority FZ_CTOR_PRIORITY_REGISTER doing
 *         if (&__fz_register_cmp)
 *             __fz_register_cmp (&__fz_cmp_on, &__fz_cmp_base, M);
 *
 *  3a. Logging copies in the function (unless FZ_CMP_NO_COPY is set, the
 *     flag may change while the function runs, see can_version, or 3b
 *     applies): a
 *     function of up to FZ_CMP_COPY_FN_BLOCKS blocks is copied whole,
 *     the copy entered when the flag is set at entry; in a bigger one,
 *     each outermost loop that holds a site is copied, the copy entered
 *     when the flag is set on the loop's entry edge, and the sites
 *     outside loops (each runs at most once per call) keep the guard of
 *     spec 3.  Only the copies are hooked, without guards.  Copying only
 *     loops cut the copied code about in half (xmlparse.c: +47% .text
 *     over the edge counters instead of +81-89%; issue 19).  Copies hold
 *     no debug statements.  Original and copied statements are paired
 *     skipping labels and debug statements: gimple_duplicate_bb does not
 *     copy debug binds of labels (with -g -O1 and up, a removed user label
 *     leaves one), which once made the pairing fail (issue 19).
 *
 *  3b. Outlined logging copies (the default where possible; before 3a):
 *     a function that can hand over to a copy at entry (no variable
 *     arguments, static chain or EH regions, a result returned in
 *     registers, a body GCC can version; see outline_wanted) gets a
 *     local copy NAME.fz.cmplog of its body as it is in this pass, i.e.
 *     with the edge counters in, so a logging run counts the same slots
 *     as a plain one.  Its sites are hooked without guards; the original
 *     keeps none and starts with
 *         f = __fz_cmp_on;  if (f != 0) return NAME.fz.cmplog (args...);
 *     (a tail call, except under ASan).  The copy has no debug
 *     statements and function-specific options for -O0, like
 *     __attribute__((optimize("O0"))): its code is optimised already,
 *     and -O0 makes its trip through the RTL passes cheap (issue 19:
 *     zlib inflate.c -g -O2, 2.09x -> 1.42x of plain gcc's compile
 *     instructions).  It carries no_instrument_function (the edge pass
 *     leaves it alone), no_sanitize_coverage and no_sanitize for ASan,
 *     HWASan and TSan (and goes to .text.unlikely, as never executed
 *     in a plain run): it holds the original's checks already, and
 *     their -O0 passes would add a second set (so a logging run has no
 *     ASan redzones around the copy's own stack variables).  GCC
 *     compiles it after the unit's other functions.  FZ_CMP_NO_OUTLINE
 *     (anything but "" or "0") keeps spec 3a's in-function copies.
 *
 *  5. FZ_NO_CMP set (to anything but "" or "0") when compiling: no hooks,
 *     no variables, no constructor; the module is what it was before
 *     comparison hooks existed.
 */
#include "fz-cmplog.h"
#include "fz-config.h"
#include "fz-test-crash.h"

#include "gcc-plugin.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "cfghooks.h"
#include "cfgloop.h"
#include "cfgloopmanip.h"
#include "tree-cfg.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-fold.h"
#include "ssa.h"
#include "tree-into-ssa.h"
#include "cgraph.h"
#include "stringpool.h"
#include "stor-layout.h"
#include "varasm.h"
#include "output.h"
#include "builtins.h"
#include "gimplify.h"
#include "diagnostic-core.h"
#include "ggc.h"
#include "gtype-desc.h"
#include "tree-inline.h"
#include "tree-dfa.h"
#include "attribs.h"
#include "opts.h"
#include "target.h"
#include "diagnostic.h"
#include "asan.h"
#include "except.h"

#include "fz-gcc-cmp.h"

/* Spec 3a's size bounds, in basic blocks (ENTRY and EXIT included): a
 * function up to FZ_CMP_COPY_FN_BLOCKS is copied whole; in a bigger one,
 * each outermost loop holding a site is copied, up to
 * FZ_CMP_COPY_LOOP_BLOCKS (beyond that its sites get guards, to bound
 * compile time and code size). */
#define FZ_CMP_COPY_FN_BLOCKS 100
#define FZ_CMP_COPY_LOOP_BLOCKS 20000

/* The hook functions of runtime/rt-cmp.c, in the order of fz_hook. */
enum fz_hook { FZ_HOOK_INT, FZ_HOOK_INT128, FZ_HOOK_SWITCH, FZ_HOOK_MEM, FZ_HOOK_N };
static const char *const fz_hook_names[FZ_HOOK_N] = {"__fz_cmp_int", "__fz_cmp_int128",
                                                     "__fz_cmp_switch", "__fz_cmp_mem"};

struct fz_cmp_state {
    bool enabled;
    fz_cmp_skip_fn skip;
    void *user;
    bool frozen;            /* M is fixed: the unit is done */
    unsigned sites;         /* M: slots handed out so far */
    tree flag, base;        /* __fz_cmp_on, __fz_cmp_base (at the first site) */
    tree hooks[FZ_HOOK_N];  /* declarations, made when first used */
    tree mark;              /* __fz_cmp_switch_mark, see the switch pass */
    bool dry;               /* count the sites a function would get, no more */
    unsigned dry_sites;
    bool decided;           /* hooking what the dry run chose */
    bool unguarded;         /* hooking an outlined copy: no guards */
    hash_set<gimple *> copied; /* sites in logging copies: no guard */
    hash_set<gimple *> chosen; /* what the dry run would hook */
};

fz_cmp_state *fz_cmp_new(bool enabled, fz_cmp_skip_fn skip, void *user)
{
    fz_cmp_state *st = new fz_cmp_state();
    st->enabled = enabled;
    st->skip = skip;
    st->user = user;
    return st;
}

/* The trees kept from one function to the next (spec 4's variables, the
 * hook and mark declarations) are GC roots: nothing else refers to them
 * until the unit ends, and GCC collects garbage between functions (in a
 * big unit like sqlite3.c, mostly with -g), reusing their memory for
 * other nodes (issue 19: ICEs in later passes, a different one each run).
 * The table lives as long as the compiler. */
void fz_cmp_register_roots(fz_cmp_state *st, const char *plugin_name)
{
    ggc_root_tab *roots = new ggc_root_tab[5]{
        {&st->flag, 1, sizeof(tree), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
        {&st->base, 1, sizeof(tree), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
        {&st->hooks[0], FZ_HOOK_N, sizeof(tree), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
        {&st->mark, 1, sizeof(tree), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
        LAST_GGC_ROOT_TAB,
    };
    register_callback(plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL, roots);
}

void fz_cmp_free(fz_cmp_state *st)
{
    delete st;
}

/* ---- Declarations -------------------------------------------------------- */

static tree static_var(const char *name, tree type)
{
    tree decl = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier(name), type);
    TREE_STATIC(decl) = 1;
    TREE_PUBLIC(decl) = 0;
    DECL_ARTIFICIAL(decl) = 1;
    DECL_IGNORED_P(decl) = 1;
    TREE_USED(decl) = 1;
    return decl;
}

/* __fz_cmp_on and __fz_cmp_base are referenced as sites are hooked and
 * defined at the end of the unit (fz_cmp_finish_unit). */
static void module_vars(fz_cmp_state *st)
{
    if (st->flag)
        return;
    st->flag = static_var("__fz_cmp_on", unsigned_char_type_node);
    st->base = static_var("__fz_cmp_base", uint32_type_node);
    for (tree v : {st->flag, st->base}) {
        TREE_ADDRESSABLE(v) = 1; /* the runtime writes both */
        DECL_PRESERVE_P(v) = 1;
    }
}

static tree hook_type(enum fz_hook h)
{
    tree u32 = uint32_type_node, u64 = uint64_type_node, sz = size_type_node;
    tree cptr = build_pointer_type(build_qualified_type(void_type_node, TYPE_QUAL_CONST));
    switch (h) {
    case FZ_HOOK_INT:
        return build_function_type_list(void_type_node, u32, u64, u64, u32, NULL_TREE);
    case FZ_HOOK_INT128:
        return build_function_type_list(void_type_node, u32, u64, u64, u64, u64, u32, NULL_TREE);
    case FZ_HOOK_SWITCH:
        return build_function_type_list(void_type_node, u32, u64,
                                        build_pointer_type(build_qualified_type(
                                            u64, TYPE_QUAL_CONST)),
                                        u32, u32, NULL_TREE);
    default:
        return build_function_type_list(void_type_node, u32, cptr, cptr, sz, sz, u32, NULL_TREE);
    }
}

/* A weak, nothrow external declaration of a hook (spec 3). */
static tree hook_decl(fz_cmp_state *st, enum fz_hook h)
{
    if (!st->hooks[h]) {
        tree fn = build_fn_decl(fz_hook_names[h], hook_type(h));
        TREE_PUBLIC(fn) = 1;
        DECL_EXTERNAL(fn) = 1;
        DECL_ARTIFICIAL(fn) = 1;
        DECL_WEAK(fn) = 1;
        TREE_NOTHROW(fn) = 1;
        DECL_ATTRIBUTES(fn) = tree_cons(get_identifier("leaf"), NULL_TREE, NULL_TREE);
        st->hooks[h] = fn;
    }
    return st->hooks[h];
}

/* ---- The guard ----------------------------------------------------------- */

/* Splits g's block before g and puts "if (__fz_cmp_on) goto hook" at the
 * end of the first half; returns the (empty) hook block, which falls
 * through to the second half, where g now is.  Same job as asan.cc's
 * create_cond_insert_point, which plugins should not rely on. */
static basic_block guard_before(fz_cmp_state *st, gimple *g)
{
    gimple_stmt_iterator gsi = gsi_for_stmt(g);
    tree f = make_ssa_name(unsigned_char_type_node);
    gsi_insert_before(&gsi, gimple_build_assign(f, st->flag), GSI_SAME_STMT);
    gcond *cond = gimple_build_cond(NE_EXPR, f, build_zero_cst(unsigned_char_type_node), NULL_TREE,
                                    NULL_TREE);
    gsi_insert_before(&gsi, cond, GSI_SAME_STMT);

    edge rest_e = split_block(gimple_bb(cond), cond);
    basic_block cond_bb = rest_e->src, rest = rest_e->dest;
    basic_block hook = create_empty_bb(cond_bb);
    if (current_loops)
        add_bb_to_loop(hook, cond_bb->loop_father);
    edge hook_e = make_edge(cond_bb, hook, EDGE_TRUE_VALUE);
    hook_e->probability = profile_probability::very_unlikely();
    hook->count = hook_e->count();
    make_single_succ_edge(hook, rest, EDGE_FALLTHRU);
    rest_e->flags = EDGE_FALSE_VALUE;
    rest_e->probability = profile_probability::very_likely();
    if (dom_info_available_p(CDI_DOMINATORS))
        set_immediate_dominator(CDI_DOMINATORS, hook, cond_bb);
    return hook;
}

/* Emits into seq: __fz_cmp_base + first (the site's slot). */
static tree site_id(fz_cmp_state *st, gimple_seq *seq, unsigned first)
{
    tree b = make_ssa_name(uint32_type_node);
    gimple_seq_add_stmt(seq, gimple_build_assign(b, st->base));
    return gimple_build(seq, PLUS_EXPR, uint32_type_node, b,
                        build_int_cst(uint32_type_node, first));
}

/* Reserves n slots and hooks g with a call of h built by the caller from
 * the slot id it is given.  The arguments go into the hook block too, so
 * a run that does not log computes none of them. */
struct fz_call_builder {
    virtual gcall *build(fz_cmp_state *st, gimple_seq *seq, tree site) = 0;
};

static void hook_site(fz_cmp_state *st, gimple *g, unsigned n, fz_call_builder &b)
{
    if (st->dry) {
        st->dry_sites += n;
        st->chosen.add(g);
        return;
    }
    module_vars(st);
    unsigned first = st->sites;
    st->sites += n;
    gimple_seq seq = NULL;
    tree site = site_id(st, &seq, first);
    gcall *call = b.build(st, &seq, site);
    gimple_set_location(call, gimple_location(g));
    gimple_seq_add_stmt(&seq, call);
    gimple_stmt_iterator gsi;
    if (st->unguarded || st->copied.contains(g)) {
        gsi = gsi_for_stmt(g); /* a logging copy: no guard */
        gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
    } else {
        gsi = gsi_start_bb(guard_before(st, g));
        gsi_insert_seq_after(&gsi, seq, GSI_NEW_STMT);
    }
}

/* ---- Integer compares ---------------------------------------------------- */

/* Width in bytes of an integer operand we log, 0 for any other. */
static unsigned int_width(tree t)
{
    tree type = TREE_TYPE(t);
    if (!INTEGRAL_TYPE_P(type) || TREE_CODE(type) == BOOLEAN_TYPE || TYPE_PRECISION(type) <= 1 ||
        !tree_fits_uhwi_p(TYPE_SIZE_UNIT(type)))
        return 0;
    unsigned w = tree_to_uhwi(TYPE_SIZE_UNIT(type));
    return w == 1 || w == 2 || w == 4 || w == 8 || w == 16 ? w : 0;
}

/* x zero-extended from its own width to u64 (its low half for 16 bytes,
 * or with shift 64 its high half). */
static tree to_u64(gimple_seq *seq, tree x, int shift)
{
    tree ut = unsigned_type_for(TREE_TYPE(x));
    tree v = gimple_convert(seq, ut, x);
    if (shift)
        v = gimple_build(seq, RSHIFT_EXPR, ut, v, build_int_cst(integer_type_node, shift));
    return gimple_convert(seq, uint64_type_node, v);
}

struct int_call : fz_call_builder {
    tree a, b;
    unsigned width, attr;
    gcall *build(fz_cmp_state *st, gimple_seq *seq, tree site) final override
    {
        tree info = build_int_cst(uint32_type_node, FZ_CMP_HOOK_INFO(width, attr));
        if (width == 16)
            return gimple_build_call(hook_decl(st, FZ_HOOK_INT128), 6, site, to_u64(seq, a, 0),
                                     to_u64(seq, a, 64), to_u64(seq, b, 0), to_u64(seq, b, 64),
                                     info);
        return gimple_build_call(hook_decl(st, FZ_HOOK_INT), 4, site, to_u64(seq, a, 0),
                                 to_u64(seq, b, 0), info);
    }
};

/* An induction variable of a loop: a PHI in a loop header that gets
 * itself plus a constant back over the latch, or that sum.  Its compares
 * with constants or loop-invariant values count iterations, which no
 * input byte decides directly. */
static bool is_induction(tree x)
{
    if (TREE_CODE(x) != SSA_NAME)
        return false;
    gimple *d = SSA_NAME_DEF_STMT(x);
    gphi *phi = dyn_cast<gphi *>(d);
    tree step_src = NULL_TREE;
    if (!phi && is_gimple_assign(d) &&
        (gimple_assign_rhs_code(d) == PLUS_EXPR || gimple_assign_rhs_code(d) == MINUS_EXPR ||
         gimple_assign_rhs_code(d) == POINTER_PLUS_EXPR) &&
        TREE_CODE(gimple_assign_rhs1(d)) == SSA_NAME &&
        TREE_CODE(gimple_assign_rhs2(d)) == INTEGER_CST) {
        step_src = gimple_assign_rhs1(d);
        phi = dyn_cast<gphi *>(SSA_NAME_DEF_STMT(step_src));
    }
    if (!phi || virtual_operand_p(gimple_phi_result(phi)))
        return false;
    tree res = gimple_phi_result(phi);
    for (unsigned i = 0; i < gimple_phi_num_args(phi); i++) {
        tree arg = gimple_phi_arg_def(phi, i);
        if (TREE_CODE(arg) != SSA_NAME)
            continue;
        gimple *ad = SSA_NAME_DEF_STMT(arg);
        if (is_gimple_assign(ad) && gimple_assign_rhs1(ad) == res &&
            TREE_CODE_CLASS(gimple_assign_rhs_code(ad)) == tcc_binary &&
            TREE_CODE(gimple_assign_rhs2(ad)) == INTEGER_CST &&
            (step_src == NULL_TREE || ad == d))
            return true;
    }
    return false;
}

/* A value the loop around bb does not compute: a constant, a parameter's
 * default definition, or an SSA name defined outside that loop. */
static bool loop_invariant(tree x, basic_block bb)
{
    if (TREE_CODE(x) == INTEGER_CST)
        return true;
    if (TREE_CODE(x) != SSA_NAME)
        return false;
    if (SSA_NAME_IS_DEFAULT_DEF(x))
        return true;
    basic_block def = gimple_bb(SSA_NAME_DEF_STMT(x));
    if (!def || !current_loops)
        return false;
    class loop *l = bb->loop_father;
    return l && loop_outer(l) && !flow_bb_inside_loop_p(l, def);
}

static bool from_switch_index(tree x, hash_set<tree> &indexes);

/* The filters of spec 2a on a compare of a with b (b constant when cb). */
static bool worth_hooking(gimple *g, tree a, tree b, bool cb, hash_set<tree> &indexes)
{
    if (cb && integer_zerop(b))
        return false;
    basic_block bb = gimple_bb(g);
    if ((is_induction(a) && loop_invariant(b, bb)) || (is_induction(b) && loop_invariant(a, bb)))
        return false;
    return !from_switch_index(a, indexes) && !from_switch_index(b, indexes);
}

/* Hooks the compare a CODE b in statement g, when it is worth it. */
static void hook_compare(fz_cmp_state *st, gimple *g, enum tree_code code, tree a, tree b,
                         hash_set<tree> &indexes)
{
    unsigned w = int_width(a);
    if (!w || int_width(b) != w)
        return;
    bool ca = TREE_CODE(a) == INTEGER_CST, cb = TREE_CODE(b) == INTEGER_CST;
    if (ca && cb)
        return;
    if (ca) {
        std::swap(a, b);
        std::swap(ca, cb);
    }
    /* After the dry run (on the original) the choice is made. */
    if (!st->decided && !worth_hooking(g, a, b, cb, indexes))
        return;
    int_call c;
    c.a = a;
    c.b = b;
    c.width = w;
    c.attr = (cb ? FZ_CMP_A_CONST : 0) | (code == EQ_EXPR || code == NE_EXPR ? FZ_CMP_A_EQ : 0);
    hook_site(st, g, 1, c);
}

/* ---- Switches ------------------------------------------------------------ */

/* GCC lowers a switch into a tree of compares (or a jump table) in its
 * "switchlower" pass, before ours runs, and a run then only takes the
 * compares on the way to its case: the log would show two or three case
 * values out of many.  So a small pass right before the lowering marks
 * each switch with a call
 *     __fz_cmp_switch_mark (index, &cases, n);
 * (cases: a static const u64 table of the case values), and our pass
 * turns each mark into a hooked __fz_cmp_switch call and deletes it.  The
 * mark is declared const and "looping" (it may not return), so it has no
 * memory effects that could hold back the optimisations still to come,
 * yet no pass deletes it. */
static tree mark_decl(fz_cmp_state *st)
{
    if (!st->mark) {
        tree fn = build_fn_decl("__fz_cmp_switch_mark",
                                build_varargs_function_type_list(void_type_node, NULL_TREE));
        TREE_PUBLIC(fn) = 1;
        DECL_EXTERNAL(fn) = 1;
        DECL_ARTIFICIAL(fn) = 1;
        TREE_READONLY(fn) = 1;
        DECL_LOOPING_CONST_OR_PURE_P(fn) = 1;
        TREE_NOTHROW(fn) = 1;
        DECL_ATTRIBUTES(fn) = tree_cons(get_identifier("leaf"), NULL_TREE, NULL_TREE);
        st->mark = fn;
    }
    return st->mark;
}

static bool is_mark(fz_cmp_state *st, gimple *g)
{
    return st->mark && is_gimple_call(g) && gimple_call_fndecl(g) == st->mark;
}

/* The case values of a switch as a static const u64 array (as GCC's own
 * switch conversion makes its CSWTCH tables), zero-extended from the
 * index's width; fills *n. */
static tree case_table(gswitch *sw, tree index, unsigned *n)
{
    tree ut = unsigned_type_for(TREE_TYPE(index));
    vec<constructor_elt, va_gc> *v = NULL;
    *n = 0;
    for (unsigned i = 1; i < gimple_switch_num_labels(sw); i++) {
        tree label = gimple_switch_label(sw, i);
        for (tree bound : {CASE_LOW(label), CASE_HIGH(label)}) {
            if (!bound || (bound == CASE_HIGH(label) && tree_int_cst_equal(bound, CASE_LOW(label))))
                continue;
            tree val = fold_convert(uint64_type_node, fold_convert(ut, bound));
            CONSTRUCTOR_APPEND_ELT(v, NULL_TREE, val);
            ++*n;
        }
    }
    tree type = build_array_type_nelts(uint64_type_node, *n);
    tree ctor = build_constructor(type, v);
    TREE_CONSTANT(ctor) = 1;
    TREE_STATIC(ctor) = 1;
    tree decl = static_var(IDENTIFIER_POINTER(create_tmp_var_name("__fz_cmp_cases")), type);
    TREE_READONLY(decl) = 1;
    DECL_INITIAL(decl) = ctor;
    varpool_node::finalize_decl(decl);
    return decl;
}

/* The value a switch really tests: C promotes a switch on a 16-bit tag
 * to int, and at -O0 GCC keeps the conversion, but the input holds two
 * bytes, not four.  So the narrower value, when every case fits it. */
static tree narrow_index(gswitch *sw)
{
    tree index = gimple_switch_index(sw);
    if (TREE_CODE(index) != SSA_NAME || !is_gimple_assign(SSA_NAME_DEF_STMT(index)))
        return index;
    gimple *d = SSA_NAME_DEF_STMT(index);
    tree src = gimple_assign_rhs1(d);
    if (!CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(d)) || TREE_CODE(src) != SSA_NAME ||
        !int_width(src) || TYPE_PRECISION(TREE_TYPE(src)) >= TYPE_PRECISION(TREE_TYPE(index)))
        return index;
    for (unsigned i = 1; i < gimple_switch_num_labels(sw); i++) {
        tree label = gimple_switch_label(sw, i);
        if (!int_fits_type_p(CASE_LOW(label), TREE_TYPE(src)) ||
            (CASE_HIGH(label) && !int_fits_type_p(CASE_HIGH(label), TREE_TYPE(src))))
            return index;
    }
    return src;
}

/* The switch pass's work on one switch: puts the mark before it. */
static void mark_switch(fz_cmp_state *st, gswitch *sw)
{
    tree index = narrow_index(sw);
    unsigned w = int_width(index);
    if (!w || w > 8 || TREE_CODE(index) != SSA_NAME || gimple_switch_num_labels(sw) < 2)
        return;
    gimple_stmt_iterator gsi = gsi_for_stmt(sw);
    gimple_stmt_iterator prev = gsi;
    gsi_prev_nondebug(&prev);
    if (!gsi_end_p(prev) && is_mark(st, gsi_stmt(prev)))
        return; /* marked by an earlier instance of the pass */
    unsigned n;
    tree table = case_table(sw, index, &n);
    gcall *mark = gimple_build_call(mark_decl(st), 3, index, build_fold_addr_expr(table),
                                    build_int_cst(uint32_type_node, n));
    gimple_set_location(mark, gimple_location(sw));
    gsi_insert_before(&gsi, mark, GSI_SAME_STMT);
}

struct switch_call : fz_call_builder {
    tree index, cases;
    unsigned n;
    gcall *build(fz_cmp_state *st, gimple_seq *seq, tree site) final override
    {
        tree cptr = build_pointer_type(build_qualified_type(uint64_type_node, TYPE_QUAL_CONST));
        return gimple_build_call(hook_decl(st, FZ_HOOK_SWITCH), 5, site, to_u64(seq, index, 0),
                                 gimple_convert(seq, cptr, cases),
                                 build_int_cst(uint32_type_node, n),
                                 build_int_cst(uint32_type_node, int_width(index)));
    }
};

/* Our pass's work on a mark: the hooked call in its place.  The index may
 * have been folded to a constant since; then there is nothing to log. */
static void hook_mark(fz_cmp_state *st, gcall *mark, bool skipped)
{
    switch_call c;
    c.index = gimple_call_arg(mark, 0);
    c.cases = gimple_call_arg(mark, 1);
    c.n = (unsigned)tree_to_uhwi(gimple_call_arg(mark, 2));
    if (!skipped && TREE_CODE(c.index) == SSA_NAME && int_width(c.index))
        hook_site(st, mark, (c.n + FZ_CMP_PAIRS - 1) / FZ_CMP_PAIRS, c);
    if (st->dry)
        return;
    gimple_stmt_iterator gsi = gsi_for_stmt(mark);
    gsi_remove(&gsi, true);
}

/* Did x come from one of the switch indexes, by conversions and adding
 * constants?  The compares GCC made of a switch are not hooked again. */
static bool from_switch_index(tree x, hash_set<tree> &indexes)
{
    for (int depth = 0; depth < 4 && TREE_CODE(x) == SSA_NAME; depth++) {
        if (indexes.contains(x))
            return true;
        gimple *d = SSA_NAME_DEF_STMT(x);
        if (!is_gimple_assign(d))
            return false;
        enum tree_code code = gimple_assign_rhs_code(d);
        if (!CONVERT_EXPR_CODE_P(code) &&
            !((code == PLUS_EXPR || code == MINUS_EXPR) &&
              TREE_CODE(gimple_assign_rhs2(d)) == INTEGER_CST))
            return false;
        x = gimple_assign_rhs1(d);
    }
    return false;
}

/* ---- String and memory comparisons --------------------------------------- */

/* A function's symbol name; an asm label ("__asm__ ("strstr")", as
 * glibc's C++ overloads and fz's harness macros use) is stored with a
 * leading '*'. */
static const char *symbol_name(tree fndecl)
{
    const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fndecl));
    return name[0] == '*' ? name + 1 : name;
}

/* How a comparison function's arguments map onto __fz_cmp_mem. */
struct fz_cmp_fn {
    const char *name;
    enum built_in_function code;
    int nargs;
    int a, b;   /* argument indices of the two operands */
    int n0, n1; /* of the bounds (-1: a NUL-terminated string, no bound) */
    unsigned attr;
};

static const fz_cmp_fn fz_cmp_fns[] = {
    {"memcmp", BUILT_IN_MEMCMP, 3, 0, 1, 2, 2, 0},
    {"bcmp", BUILT_IN_BCMP, 3, 0, 1, 2, 2, 0},
    {"__builtin_memcmp_eq", BUILT_IN_MEMCMP_EQ, 3, 0, 1, 2, 2, 0},
    {"strcmp", BUILT_IN_STRCMP, 2, 0, 1, -1, -1, FZ_CMP_A_STRZ},
    {"__builtin_strcmp_eq", BUILT_IN_STRCMP_EQ, 3, 0, 1, -1, -1, FZ_CMP_A_STRZ},
    {"strncmp", BUILT_IN_STRNCMP, 3, 0, 1, 2, 2, FZ_CMP_A_STRZ},
    {"__builtin_strncmp_eq", BUILT_IN_STRNCMP_EQ, 3, 0, 1, 2, 2, FZ_CMP_A_STRZ},
    {"strcasecmp", BUILT_IN_STRCASECMP, 2, 0, 1, -1, -1, FZ_CMP_A_STRZ | FZ_CMP_A_NOCASE},
    {"strncasecmp", BUILT_IN_STRNCASECMP, 3, 0, 1, 2, 2, FZ_CMP_A_STRZ | FZ_CMP_A_NOCASE},
    {"strstr", BUILT_IN_STRSTR, 2, 0, 1, -1, -1, FZ_CMP_A_STRZ | FZ_CMP_A_FIND},
    {"strcasestr", END_BUILTINS, 2, 0, 1, -1, -1,
     FZ_CMP_A_STRZ | FZ_CMP_A_FIND | FZ_CMP_A_NOCASE},
    {"memmem", END_BUILTINS, 4, 0, 2, 1, 3, FZ_CMP_A_FIND},
};

/* The comparison function a call calls, or NULL: by builtin code, which
 * covers __builtin_ forms, else by assembler name (memmem, strcasestr, and
 * any of them under -fno-builtin), with the argument count it must have. */
static const fz_cmp_fn *cmp_fn_of(gcall *call)
{
    tree fn = gimple_call_fndecl(call);
    if (!fn)
        return NULL;
    const char *asm_name = NULL;
    if (DECL_ASSEMBLER_NAME_SET_P(fn) || TREE_PUBLIC(fn))
        asm_name = symbol_name(fn);
    for (const fz_cmp_fn &f : fz_cmp_fns) {
        bool match = (f.code != END_BUILTINS && fndecl_built_in_p(fn, f.code)) ||
                     (asm_name && strcmp(asm_name, f.name) == 0);
        if (match && (int)gimple_call_num_args(call) == f.nargs)
            return &f;
    }
    return NULL;
}

struct mem_call : fz_call_builder {
    gcall *orig;
    const fz_cmp_fn *f;
    tree bound(gimple_seq *seq, int i)
    {
        if (i < 0)
            return TYPE_MAX_VALUE(size_type_node);
        return gimple_convert(seq, size_type_node, unshare_expr(gimple_call_arg(orig, i)));
    }
    tree ptr(gimple_seq *seq, int i)
    {
        return gimple_convert(seq, ptr_type_node, unshare_expr(gimple_call_arg(orig, i)));
    }
    gcall *build(fz_cmp_state *st, gimple_seq *seq, tree site) final override
    {
        return gimple_build_call(hook_decl(st, FZ_HOOK_MEM), 6, site, ptr(seq, f->a),
                                 ptr(seq, f->b), bound(seq, f->n0), bound(seq, f->n1),
                                 build_int_cst(uint32_type_node, f->attr));
    }
};

static void hook_call(fz_cmp_state *st, gcall *call)
{
    const fz_cmp_fn *f = cmp_fn_of(call);
    if (!f)
        return;
    mem_call c;
    c.orig = call;
    c.f = f;
    hook_site(st, call, 1, c);
}

/* ---- The pass ------------------------------------------------------------ */

/* Hooks statement g if it is a comparison we log.  Switches were marked
 * before GCC lowered them and are hooked through their marks. */
static void hook_stmt(fz_cmp_state *st, gimple *g, hash_set<tree> &indexes)
{
    if (gcond *c = dyn_cast<gcond *>(g)) {
        hook_compare(st, g, gimple_cond_code(c), gimple_cond_lhs(c), gimple_cond_rhs(c), indexes);
    } else if (gcall *call = dyn_cast<gcall *>(g)) {
        hook_call(st, call);
    } else if (is_gimple_assign(g)) {
        enum tree_code code = gimple_assign_rhs_code(g);
        tree r1 = gimple_assign_rhs1(g);
        if (TREE_CODE_CLASS(code) == tcc_comparison)
            hook_compare(st, g, code, r1, gimple_assign_rhs2(g), indexes);
        else if (code == COND_EXPR && COMPARISON_CLASS_P(r1))
            hook_compare(st, g, TREE_CODE(r1), TREE_OPERAND(r1, 0), TREE_OPERAND(r1, 1), indexes);
    }
}

static const pass_data fz_cmp_pass_data = {
    GIMPLE_PASS,         /* type */
    "fz-cmp",            /* name */
    OPTGROUP_NONE,       /* optinfo_flags */
    TV_NONE,             /* tv_id */
    PROP_cfg | PROP_ssa, /* properties_required */
    0,                   /* properties_provided */
    0,                   /* properties_destroyed */
    0,                   /* todo_flags_start */
    0,                   /* todo_flags_finish: execute() returns them */
};

static bool is_log_copy(tree decl);

struct fz_cmp_pass : gimple_opt_pass {
    fz_cmp_state *st;

    fz_cmp_pass(gcc::context *ctx, fz_cmp_state *state)
        : gimple_opt_pass(fz_cmp_pass_data, ctx), st(state)
    {
    }

    unsigned int execute(function *fn) final override
    {
        if (!st->enabled || st->frozen || is_log_copy(fn->decl))
            return 0;
        if (fz_test_crash_wanted("cmp", IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn->decl))))
            internal_error("%<FZ_TEST_CRASH%>: fz-cmp told to fail in %qs (test only)",
                           IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn->decl)));
        /* What would be hooked, before anything changes. */
        fz_sites sites;
        collect(fn, &sites);
        st->dry = true;
        st->dry_sites = 0;
        st->chosen.empty();
        hook_all(sites);
        st->dry = false;
        if (st->dry_sites == 0) {
            /* Every switch mark goes, hooked or not: it must never reach
             * the assembler. */
            for (auto &m : sites.marks)
                remove_stmt(m.first);
            return sites.marks.is_empty() ? 0 : TODO_update_ssa;
        }
        /* The dry run decided which statements to hook; only those. */
        unsigned keep = 0;
        for (gimple *g : sites.stmts)
            if (st->chosen.contains(g))
                sites.stmts[keep++] = g;
        sites.stmts.truncate(keep);
        st->copied.empty();
        if (can_version(fn) && outline_wanted(fn) && outline(fn)) {
            /* The original keeps no site; its switch marks go. */
            for (auto &m : sites.marks)
                remove_stmt(m.first);
            mark_virtual_operands_for_renaming(fn);
            return TODO_update_ssa | TODO_cleanup_cfg;
        }
        if (can_version(fn)) {
            if (n_basic_blocks_for_fn(fn) <= FZ_CMP_COPY_FN_BLOCKS && whole_copyable(fn))
                version(fn, &sites);
            else
                version_loops(fn, &sites);
        }
        st->decided = true;
        hook_all(sites);
        st->decided = false;
        st->copied.empty();
        mark_virtual_operands_for_renaming(fn);
        return TODO_update_ssa;
    }

    /* The statements of fn that may be hooked, in order. */
    struct fz_sites {
        auto_vec<gimple *> stmts;
        auto_vec<std::pair<gcall *, bool>> marks; /* and whether skipped */
        hash_set<tree> indexes;                   /* the marked switches' */
    };

    void collect(function *fn, fz_sites *out, bool copy = false)
    {
        bool fn_skipped = !copy && st->skip(st->user, fn, NULL);
        basic_block bb;
        FOR_EACH_BB_FN(bb, fn)
        {
            bool skipped = fn_skipped || st->skip(st->user, fn, bb);
            for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
                gimple *g = gsi_stmt(gsi);
                if (is_mark(st, g)) {
                    out->marks.safe_push(std::make_pair(as_a<gcall *>(g), skipped));
                    out->indexes.add(gimple_call_arg(g, 0));
                } else if (!skipped) {
                    out->stmts.safe_push(g);
                }
            }
        }
    }

    void hook_all(fz_sites &sites)
    {
        for (auto &m : sites.marks)
            hook_mark(st, m.first, m.second);
        for (gimple *g : sites.stmts)
            hook_stmt(st, g, sites.indexes);
    }

    static void remove_stmt(gimple *g)
    {
        gimple_stmt_iterator gsi = gsi_for_stmt(g);
        gsi_remove(&gsi, true);
    }

    bool outline_wanted(function *fn);
    bool outline(function *fn);
    void hook_copy(function *copy);

    /* Versioning (spec 3a) needs the whole body copyable, and the flag
     * fixed while the function runs: not so in a function that calls the
     * runtime's run boundaries itself (the __AFL_LOOP harness, a deferred
     * __AFL_INIT), nor across a setjmp. */
    bool can_version(function *fn)
    {
        static const char *const boundaries[] = {"__fz_persistent_loop", "__afl_persistent_loop",
                                                 "__fz_manual_init", "__afl_manual_init"};
        if (!current_loops)
            return false;
        if (!fz_cmp_copy_wanted())
            return false;
        basic_block bb;
        FOR_EACH_BB_FN(bb, fn)
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
            if (!call)
                continue;
            if (gimple_call_flags(call) & ECF_RETURNS_TWICE)
                return false;
            tree fndecl = gimple_call_fndecl(call);
            if (!fndecl || !DECL_NAME(fndecl))
                continue;
            const char *name = symbol_name(fndecl);
            for (const char *b : boundaries)
                if (strcmp(name, b) == 0)
                    return false;
        }
        return true;
    }

    /* Copies the outermost loops that hold sites, enters each copy when
     * the flag is set, and points the sites inside at the copies'
     * statements (spec 3a). */
    void version_loops(function *fn, fz_sites *sites);
    void version(function *fn, fz_sites *sites);
    static basic_block *copyable_body(class loop *l);
    static bool whole_copyable(function *fn)
    {
        auto_vec<basic_block> bbs;
        basic_block bb;
        FOR_EACH_BB_FN(bb, fn)
        bbs.safe_push(bb);
        return can_copy_bbs_p(bbs.address(), bbs.length());
    }
    void copy_loop(function *fn, class loop *l, basic_block *body,
                   hash_map<gimple *, gimple *> *copy_of);
};

/* Deletes the debug statements of the copies: a logging copy needs no
 * variable locations (a debugger shows its variables as optimized out),
 * and tracking them is a good part of the back end's time with -g. */
static void drop_debug_stmts(basic_block *bbs, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        for (gimple_stmt_iterator g = gsi_start_bb(bbs[i]); !gsi_end_p(g);)
            if (is_gimple_debug(gsi_stmt(g)))
                gsi_remove(&g, true);
            else
                gsi_next(&g);
}

/* The outermost loop around g, or NULL when g is in none. */
/* Pairs each statement of the n blocks bbs with its copy in copies (made
 * by copy_bbs), records the pairs in copy_of, marks the copies never
 * executed and drops their debug statements.  gimple_duplicate_bb copies
 * every statement in order except labels and debug binds of labels (it
 * drops those, so with -g a block that held one has fewer statements in
 * its copy).  No site is a label or a debug statement: pair the rest. */
static void pair_copies(basic_block *bbs, basic_block *copies, unsigned n,
                        hash_map<gimple *, gimple *> *copy_of)
{
    for (unsigned i = 0; i < n; i++) {
        copies[i]->count = profile_count::zero();
        gimple_stmt_iterator a = gsi_start_nondebug_bb(bbs[i]);
        gimple_stmt_iterator b = gsi_start_nondebug_bb(copies[i]);
        for (;; gsi_next_nondebug(&a), gsi_next_nondebug(&b)) {
            while (!gsi_end_p(a) && gimple_code(gsi_stmt(a)) == GIMPLE_LABEL)
                gsi_next_nondebug(&a);
            while (!gsi_end_p(b) && gimple_code(gsi_stmt(b)) == GIMPLE_LABEL)
                gsi_next_nondebug(&b);
            if (gsi_end_p(a) || gsi_end_p(b))
                break;
            gcc_assert(gimple_code(gsi_stmt(a)) == gimple_code(gsi_stmt(b)));
            copy_of->put(gsi_stmt(a), gsi_stmt(b));
        }
        gcc_assert(gsi_end_p(a) && gsi_end_p(b));
    }
    drop_debug_stmts(copies, n);
}

/* A block split into edge entry that tests the flag,
 *     f = __fz_cmp_on;  if (f != 0) ... else goto (entry's old dest);
 * its one edge so far, the false one, in *orig (very likely taken); the
 * caller adds the true edge. */
static basic_block flag_test(fz_cmp_state *st, edge entry, edge *orig)
{
    basic_block d = split_edge(entry);
    gimple_stmt_iterator gsi = gsi_last_bb(d);
    tree f = make_ssa_name(unsigned_char_type_node);
    gsi_insert_after(&gsi, gimple_build_assign(f, st->flag), GSI_NEW_STMT);
    gsi_insert_after(&gsi,
                     gimple_build_cond(NE_EXPR, f, build_zero_cst(unsigned_char_type_node),
                                       NULL_TREE, NULL_TREE),
                     GSI_NEW_STMT);
    *orig = single_succ_edge(d);
    (*orig)->flags = EDGE_FALSE_VALUE;
    (*orig)->probability = profile_probability::very_likely();
    return d;
}

/* The dispatch block, on edge entry into head:
 *     f = __fz_cmp_on;  if (f != 0) goto copy; else goto head;
 * the copy's PHIs take from it what head's take from entry. */
static void dispatch(fz_cmp_state *st, edge entry, basic_block head, basic_block copy)
{
    edge orig_e;
    basic_block d = flag_test(st, entry, &orig_e);
    edge copy_e = make_edge(d, copy, EDGE_TRUE_VALUE);
    copy_e->probability = profile_probability::very_unlikely();
    for (gphi_iterator p = gsi_start_phis(head), q = gsi_start_phis(copy); !gsi_end_p(p);
         gsi_next(&p), gsi_next(&q))
        add_phi_arg(q.phi(), PHI_ARG_DEF_FROM_EDGE(p.phi(), orig_e), copy_e,
                    gimple_phi_arg_location_from_edge(p.phi(), orig_e));
}

static class loop *outer_loop_of(gimple *g)
{
    class loop *l = gimple_bb(g)->loop_father;
    if (!l || loop_depth(l) == 0)
        return NULL;
    return superloop_at_depth(l, 1);
}

/* The logging copies (spec 3a): the outermost loops that hold a site the
 * dry run chose are copied (copy_loop), and sites outside loops, which run
 * at most once per call, keep a guard each. */
void fz_cmp_pass::version_loops(function *fn, fz_sites *sites)
{
    auto_vec<class loop *> loops;
    hash_set<class loop *> seen;
    auto want = [&](gimple *g) {
        class loop *l = outer_loop_of(g);
        if (l && !seen.add(l))
            loops.safe_push(l);
    };
    for (gimple *g : sites->stmts)
        want(g);
    for (auto &m : sites->marks)
        if (st->chosen.contains(m.first))
            want(m.first);
    if (loops.is_empty())
        return;
    module_vars(st);
    /* The bodies first: get_loop_body needs dominators, which copying
     * invalidates.  The loops are disjoint, and copying one leaves the
     * others' blocks as they were. */
    calculate_dominance_info(CDI_DOMINATORS);
    auto_vec<basic_block *> bodies;
    for (class loop *l : loops)
        bodies.safe_push(copyable_body(l));
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
    hash_map<gimple *, gimple *> copy_of;
    for (unsigned i = 0; i < loops.length(); i++)
        if (bodies[i])
            copy_loop(fn, loops[i], bodies[i], &copy_of);
    for (gimple *&g : sites->stmts)
        if (gimple **c = copy_of.get(g)) {
            g = *c;
            st->copied.add(g);
        }
    /* A mark in a copied loop is hooked (or dropped) in the copy and
     * deleted from the original. */
    for (auto &m : sites->marks)
        if (gimple **c = copy_of.get(m.first)) {
            gcall *orig = m.first;
            m.first = as_a<gcall *>(*c);
            st->copied.add(m.first);
            remove_stmt(orig);
        }
}

/* The blocks of loop l (get_loop_body, the caller frees them), or NULL
 * for a loop copy_loop cannot copy: more than one entry edge, abnormal
 * edges, blocks GCC cannot duplicate, or over FZ_CMP_VERSION_MAX_BLOCKS
 * blocks; its sites keep a guard each. */
basic_block *fz_cmp_pass::copyable_body(class loop *l)
{
    edge e;
    edge_iterator ei;
    unsigned entries = 0;
    FOR_EACH_EDGE(e, ei, l->header->preds)
    if (!flow_bb_inside_loop_p(l, e->src) && (++entries > 1 || (e->flags & EDGE_COMPLEX)))
        return NULL;
    if (entries != 1 || l->num_nodes > FZ_CMP_COPY_LOOP_BLOCKS)
        return NULL;
    basic_block *body = get_loop_body(l);
    bool ok = can_copy_bbs_p(body, l->num_nodes);
    for (unsigned i = 0; ok && i < l->num_nodes; i++)
        FOR_EACH_EDGE(e, ei, body[i]->succs)
        if (e->flags & EDGE_ABNORMAL)
            ok = false;
    if (!ok) {
        free(body);
        return NULL;
    }
    return body;
}

/* Copies loop l (its blocks: body, which it frees), with its inner loops,
 * and puts on its one entry edge
 *     f = __fz_cmp_on;  if (f != 0) goto copy of header; else goto header;
 * The copy is marked never executed, so GCC moves it to the cold part of
 * the function; its exits lead where the loop's do.  SSA names the copy
 * defines are new definitions of the original names, which update_ssa
 * rewrites (with PHIs where both reach).  Records in copy_of each
 * statement's copy. */
void fz_cmp_pass::copy_loop(function *fn, class loop *l, basic_block *body,
                            hash_map<gimple *, gimple *> *copy_of)
{
    edge entry = NULL, e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, l->header->preds)
    if (!flow_bb_inside_loop_p(l, e->src))
        entry = e;
    unsigned n = l->num_nodes;
    auto_vec<basic_block> copies(n);
    copies.quick_grow(n);
    initialize_original_copy_tables();
    class loop *outer = loop_outer(l);
    class loop *lc = duplicate_loop(l, outer);
    duplicate_subloops(l, lc);
    copy_bbs(body, n, copies.address(), NULL, 0, NULL, outer, EXIT_BLOCK_PTR_FOR_FN(fn)->prev_bb,
             false);
    add_phi_args_after_copy(copies.address(), n, NULL);
    pair_copies(body, copies.address(), n, copy_of);
    basic_block header = l->header, header_copy = get_bb_copy(header);
    free_original_copy_tables();
    free(body);

    dispatch(st, entry, header, header_copy);
}

/* The logging copy: every block of the function is duplicated, with its
 * loops, and a new first block enters the copy when the flag is set:
 *     entry:  f = __fz_cmp_on;  if (f != 0) goto copy of B0; else goto B0;
 * The copy is marked never executed, so GCC moves it to the cold part of
 * the function.  SSA names the copy defines are new definitions of the
 * original names, which update_ssa rewrites.  The sites move to the copy:
 * switch marks are deleted from the original and hooked in the copy. */
void fz_cmp_pass::version(function *fn, fz_sites *sites)
{
    module_vars(st);
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
    edge entry_e = single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fn));
    basic_block b0 = entry_e->dest;
    auto_vec<basic_block> bbs;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fn)
    bbs.safe_push(bb);
    unsigned n = bbs.length();
    auto_vec<basic_block> copies(n);
    copies.quick_grow(n);

    initialize_original_copy_tables();
    class loop *root = current_loops->tree_root;
    /* duplicate_subloops (root, root) would walk the copies it appends. */
    auto_vec<class loop *> top;
    for (class loop *l = root->inner; l; l = l->next)
        top.safe_push(l);
    for (class loop *l : top)
        duplicate_subloops(l, duplicate_loop(l, root));
    copy_bbs(bbs.address(), n, copies.address(), NULL, 0, NULL, root, EXIT_BLOCK_PTR_FOR_FN(fn)->prev_bb, false);
    add_phi_args_after_copy(copies.address(), n, NULL);
    hash_map<gimple *, gimple *> copy_of;
    pair_copies(bbs.address(), copies.address(), n, &copy_of);
    basic_block b0_copy = get_bb_copy(b0);
    free_original_copy_tables();

    dispatch(st, entry_e, b0, b0_copy);

    for (gimple *&g : sites->stmts) {
        g = *copy_of.get(g);
        st->copied.add(g);
    }
    for (auto &m : sites->marks) {
        gcall *orig = m.first;
        m.first = as_a<gcall *>(*copy_of.get(orig));
        st->copied.add(m.first);
        remove_stmt(orig);
    }
}

/* ---- The outlined logging copy (spec 3b) -------------------------------- */

/* Marks the copies: the plugin's passes leave them alone when GCC
 * compiles them (the edge pass by no_instrument_function). */
static const char fz_copy_attr[] = "fz cmplog copy";

static bool is_log_copy(tree decl)
{
    return lookup_attribute(fz_copy_attr, DECL_ATTRIBUTES(decl)) != NULL_TREE;
}

/* The function-specific options a copy gets: the current function's at
 * -O0, without variable tracking (a copy has no debug statements), as
 * __attribute__((optimize("O0"))) makes them.  (-O0 because the body is
 * optimised already: -O1 would run GCC's whole GIMPLE pipeline over it
 * again, and cost more than the in-function copies; issue 19.)  *target
 * gets a target node when the level changes the target's options. */
static tree copy_optimization(tree *target)
{
    cl_optimization cur;
    cl_optimization_save(&cur, &global_options, &global_options_set);
    tree prev_target = build_target_option_node(&global_options, &global_options_set);
    const char *argv[] = {"cc1", "-O0"};
    cl_decoded_option *dec;
    unsigned n;
    decode_cmdline_options_to_array_default_mask(2, argv, &dec, &n);
    decode_options(&global_options, &global_options_set, dec, n, input_location, global_dc, NULL);
    free(dec);
    targetm.override_options_after_change();
    global_options.x_flag_var_tracking = 0;
    global_options.x_flag_var_tracking_assignments = 0;
    global_options.x_flag_reorder_functions = 1; /* to .text.unlikely */
    tree opt = build_optimization_node(&global_options, &global_options_set);
    tree tgt = build_target_option_node(&global_options, &global_options_set);
    *target = tgt != prev_target ? tgt : NULL_TREE;
    cl_optimization_restore(&global_options, &global_options_set, &cur);
    cl_target_option_restore(&global_options, &global_options_set, TREE_TARGET_OPTION(prev_target));
    return opt;
}

static void add_attr(tree decl, const char *name, tree value)
{
    DECL_ATTRIBUTES(decl) = tree_cons(get_identifier(name), value, DECL_ATTRIBUTES(decl));
}

/* Can fn hand over to an outlined copy at entry?  Not with variable
 * arguments, a static chain, EH regions (C++ cleanups: kept on the
 * in-function copies), a result returned in memory, or a body GCC will
 * not version. */
bool fz_cmp_pass::outline_wanted(function *fn)
{
    tree decl = fn->decl;
    const char *v = getenv("FZ_CMP_NO_OUTLINE");
    if (v && *v && strcmp(v, "0") != 0)
        return false;
    if (stdarg_p(TREE_TYPE(decl)) || DECL_STATIC_CHAIN(decl) || fn->calls_eh_return ||
        (fn->eh && fn->eh->region_tree) || !cgraph_node::get(decl) ||
        !tree_versionable_function_p(decl) || DECL_FUNCTION_VERSIONED(decl))
        return false;
    tree res = DECL_RESULT(decl);
    return VOID_TYPE_P(TREE_TYPE(res)) ||
           (is_gimple_reg_type(TREE_TYPE(res)) && !DECL_BY_REFERENCE(res) &&
            !aggregate_value_p(res, decl));
}

/* Hooks every chosen site of the copy, without guards. */
void fz_cmp_pass::hook_copy(function *copy)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, copy)
    for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g);)
        if (is_gimple_debug(gsi_stmt(g)))
            gsi_remove(&g, true);
        else
            gsi_next(&g);
    fz_sites sites;
    collect(copy, &sites, true);
    st->dry = true;
    st->dry_sites = 0;
    st->chosen.empty();
    hook_all(sites);
    st->dry = false;
    unsigned keep = 0;
    for (gimple *g : sites.stmts)
        if (st->chosen.contains(g))
            sites.stmts[keep++] = g;
    sites.stmts.truncate(keep);
    st->decided = true;
    st->unguarded = true;
    hook_all(sites);
    st->unguarded = false;
    st->decided = false;
    mark_virtual_operands_for_renaming(copy);
    update_ssa(TODO_update_ssa);
}

/* A local copy of node's function as it is now, named NAME.fz.cmplog:
 * what cgraph_node::create_version_clone_with_body does, without its
 * insertion hooks (IPA analyses that are over when functions are
 * expanded; ipa-prop's crashes on the copy then). */
static cgraph_node *new_version(cgraph_node *node)
{
    tree old_decl = node->decl;
    tree decl = copy_node(old_decl);
    tree name = clone_function_name(old_decl, "fz.cmplog");
    DECL_NAME(decl) = name;
    SET_DECL_ASSEMBLER_NAME(decl, name);
    SET_DECL_RTL(decl, NULL);
    DECL_VIRTUAL_P(decl) = 0;
    DECL_STATIC_CONSTRUCTOR(decl) = 0;
    DECL_STATIC_DESTRUCTOR(decl) = 0;
    DECL_SET_IS_OPERATOR_NEW(decl, 0);
    DECL_SET_IS_OPERATOR_DELETE(decl, 0);
    DECL_IS_REPLACEABLE_OPERATOR(decl) = 0;
    /* The call edges of a function being expanded may be out of date
     * (versioning copies them along with the calls). */
    cgraph_edge::rebuild_edges();
    cgraph_node *cn = node->create_version_clone(decl, vNULL, NULL, "fz.cmplog");
    cn->rtl = NULL; /* its own register-usage record, not the original's */
    tree_function_versioning(old_decl, decl, NULL, NULL, false, NULL, NULL);
    cn->make_decl_local();
    DECL_VIRTUAL_P(cn->decl) = 0;
    cn->externally_visible = 0;
    cn->local = 1;
    cn->lowered = true;
    if (!node->implicit_section)
        cn->set_section(*node);
    /* In the original's COMDAT group, if it has one, so that the linker
     * drops the copy with the group when it keeps another unit's copy of
     * it.  The copy refers to what the original refers to, and that may
     * be a local symbol of the group (ipa-comdats moves a local function
     * only the group's members use, an IPA-SRA clone say, into the
     * group): from outside, the reference would point into a discarded
     * section (yaml-cpp at -Os). */
    if (node->get_comdat_group())
        cn->add_to_same_comdat_group(node);
    return cn;
}

/* The outlined logging copy (spec 3b): NAME.fz.cmplog, a local copy of
 * fn as it is now (edge counters in, so it counts the same slots),
 * hooked without guards, compiled at a cheap level; fn's entry becomes
 *     f = __fz_cmp_on;  if (f != 0) return NAME.fz.cmplog (args...);
 * GCC compiles the copy after the unit's other functions (a function
 * added while functions are expanded is queued, cgraph_new_nodes). */
bool fz_cmp_pass::outline(function *fn)
{
    module_vars(st);
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
    cgraph_node *node = cgraph_node::get(fn->decl);
    cgraph_node *cn = new_version(node);
    tree c = cn->decl;
    add_attr(c, fz_copy_attr, NULL_TREE);
    add_attr(c, "no_instrument_function", NULL_TREE);
    add_attr(c, "no_sanitize_coverage", NULL_TREE);
    /* The copy holds fn's sanitizer checks already: the -O0 pipeline's
     * ASan/TSan passes must not add theirs again. */
    unsigned nosan = SANITIZE_ADDRESS | SANITIZE_USER_ADDRESS | SANITIZE_KERNEL_ADDRESS |
                     SANITIZE_THREAD | SANITIZE_HWADDRESS | SANITIZE_USER_HWADDRESS |
                     SANITIZE_KERNEL_HWADDRESS;
    if (tree old = lookup_attribute("no_sanitize", DECL_ATTRIBUTES(c)))
        nosan |= (unsigned)tree_to_uhwi(TREE_VALUE(old));
    add_attr(c, "no_sanitize", build_int_cst(unsigned_type_node, nosan));
    DECL_DECLARED_INLINE_P(c) = 0;
    DECL_UNINLINABLE(c) = 1;
    tree target;
    DECL_FUNCTION_SPECIFIC_OPTIMIZATION(c) = copy_optimization(&target);
    if (target)
        DECL_FUNCTION_SPECIFIC_TARGET(c) = target;

    /* Never run by a plain run: out of the way in .text.unlikely. */
    cn->frequency = NODE_FREQUENCY_UNLIKELY_EXECUTED;
    push_cfun(DECL_STRUCT_FUNCTION(c));
    hook_copy(cfun);
    pop_cfun();
    cgraph_node::add_new_function(c, true);

    /* fn's entry: hand over to the copy when the flag is set. */
    edge orig_e;
    basic_block d = flag_test(st, single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fn)), &orig_e);
    basic_block cb = create_empty_bb(d);
    if (current_loops)
        add_bb_to_loop(cb, current_loops->tree_root);
    edge copy_e = make_edge(d, cb, EDGE_TRUE_VALUE);
    copy_e->probability = profile_probability::very_unlikely();
    cb->count = copy_e->count();
    gimple_stmt_iterator gsi = gsi_start_bb(cb);
    auto_vec<tree> args;
    for (tree p = DECL_ARGUMENTS(fn->decl); p; p = DECL_CHAIN(p)) {
        tree a = p;
        if (is_gimple_reg(p)) {
            a = get_or_create_ssa_default_def(fn, p);
        } else if (is_gimple_reg_type(TREE_TYPE(p))) {
            a = make_ssa_name(TREE_TYPE(p));
            gsi_insert_after(&gsi, gimple_build_assign(a, p), GSI_NEW_STMT);
        }
        args.safe_push(a);
    }
    gcall *call = gimple_build_call_vec(c, args);
    gimple_set_location(call, DECL_SOURCE_LOCATION(fn->decl));
    tree rt = TREE_TYPE(DECL_RESULT(fn->decl));
    tree r = NULL_TREE;
    if (!VOID_TYPE_P(rt)) {
        r = make_ssa_name(rt);
        gimple_call_set_lhs(call, r);
    }
    if (!sanitize_flags_p(SANITIZE_ADDRESS | SANITIZE_HWADDRESS | SANITIZE_KERNEL_ADDRESS |
                          SANITIZE_KERNEL_HWADDRESS, fn->decl))
        gimple_call_set_tail(call, true);
    if (gsi_end_p(gsi))
        gsi_insert_before(&gsi, call, GSI_NEW_STMT);
    else
        gsi_insert_after(&gsi, call, GSI_NEW_STMT);
    /* A noreturn function's copy does not return either: the call ends
     * the block. */
    if (!(gimple_call_flags(call) & ECF_NORETURN)) {
        gsi_insert_after(&gsi, gimple_build_return(r), GSI_NEW_STMT);
        make_edge(cb, EXIT_BLOCK_PTR_FOR_FN(fn), 0);
    } else if (r) {
        gimple_call_set_lhs(call, NULL_TREE);
    }
    node->create_edge(cn, call, cb->count);
    return true;
}

opt_pass *fz_cmp_pass_new(gcc::context *ctx, fz_cmp_state *st)
{
    return new fz_cmp_pass(ctx, st);
}

static const pass_data fz_switch_pass_data = {
    GIMPLE_PASS,         /* type */
    "fz-switch",         /* name */
    OPTGROUP_NONE,       /* optinfo_flags */
    TV_NONE,             /* tv_id */
    PROP_cfg | PROP_ssa, /* properties_required */
    0,                   /* properties_provided */
    0,                   /* properties_destroyed */
    0,                   /* todo_flags_start */
    0,                   /* todo_flags_finish */
};

/* Marks the switches before GCC lowers them (see mark_decl). */
struct fz_switch_pass : gimple_opt_pass {
    fz_cmp_state *st;

    fz_switch_pass(gcc::context *ctx, fz_cmp_state *state)
        : gimple_opt_pass(fz_switch_pass_data, ctx), st(state)
    {
    }

    /* "switchlower" is in more than one pipeline (-O2, -Og). */
    opt_pass *clone() final override
    {
        return new fz_switch_pass(m_ctxt, st);
    }

    unsigned int execute(function *fn) final override
    {
        if (!st->enabled || st->frozen || st->skip(st->user, fn, NULL))
            return 0;
        basic_block bb;
        FOR_EACH_BB_FN(bb, fn)
        {
            gimple_stmt_iterator last = gsi_last_nondebug_bb(bb);
            gswitch *sw = gsi_end_p(last) ? NULL : dyn_cast<gswitch *>(gsi_stmt(last));
            if (sw && !st->skip(st->user, fn, bb))
                mark_switch(st, sw);
        }
        return 0;
    }
};

opt_pass *fz_switch_pass_new(gcc::context *ctx, fz_cmp_state *st)
{
    return new fz_switch_pass(ctx, st);
}

/* The constructor body:
 *   if (&__fz_register_cmp) __fz_register_cmp (&__fz_cmp_on, &__fz_cmp_base, M); */
static tree build_register_call(fz_cmp_state *st)
{
    tree flag_p = build_pointer_type(TREE_TYPE(st->flag));
    tree base_p = build_pointer_type(TREE_TYPE(st->base));
    tree type = build_function_type_list(void_type_node, flag_p, base_p, uint32_type_node,
                                         NULL_TREE);
    tree reg = build_fn_decl("__fz_register_cmp", type);
    TREE_PUBLIC(reg) = 1;
    DECL_EXTERNAL(reg) = 1;
    DECL_ARTIFICIAL(reg) = 1;
    DECL_WEAK(reg) = 1; /* keeps GCC from folding the test to "true" */
    ASM_WEAKEN_LABEL(asm_out_file, "__fz_register_cmp");
    tree call = build_call_expr(reg, 3, build_fold_addr_expr(st->flag),
                                build_fold_addr_expr(st->base),
                                build_int_cst(uint32_type_node, st->sites));
    tree addr = build_fold_addr_expr(reg);
    tree present = build2(NE_EXPR, boolean_type_node, addr, build_int_cst(TREE_TYPE(addr), 0));
    return build3(COND_EXPR, void_type_node, present, call, NULL_TREE);
}

unsigned fz_cmp_finish_unit(fz_cmp_state *st)
{
    st->frozen = true;
    if (st->sites == 0 || seen_error())
        return st->sites;
    varpool_node::finalize_decl(st->flag);
    varpool_node::finalize_decl(st->base);
    /* GCC wrote its .weak directives already; the hooks' are ours to write. */
    for (int h = 0; h < FZ_HOOK_N; h++)
        if (st->hooks[h])
            ASM_WEAKEN_LABEL(asm_out_file, fz_hook_names[h]);
    cgraph_build_static_cdtor('I', build_register_call(st), FZ_CTOR_PRIORITY_REGISTER);
    return st->sites;
}
