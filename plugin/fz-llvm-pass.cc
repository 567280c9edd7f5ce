/*
 * fz-llvm-pass.cc - the Clang/LLVM back end of fz: a new-pass-manager plugin
 * (clang -fpass-plugin=lib/fz/fz-llvm-pass.so) that gives every edge of every
 * function an inline 8-bit coverage counter.  It emits exactly what the GCC
 * plugin emits (docs/internals.md, "Instrumented module <-> runtime ABI"), so
 * one runtime serves both compilers.
 *
 * Specification
 *
 *  Edges (the GCC plugin's rule, docs/coverage.md).  In each function that
 *  is instrumented, every critical edge (from a block with several
 *  successors to a block with several predecessors) is split first, so that
 *  a new block stands for that edge alone.  Edges LLVM cannot split (into an
 *  exception pad, out of an indirectbr or callbr) stay as they are.  Then a
 *  block gets a counter slot if it is a branch target (the entry, a block
 *  with no predecessors, or one entered from a block with two or more
 *  distinct successors), or if one of its predecessors is not a branch
 *  target.  The blocks left out are only fallen into from counted blocks,
 *  so their count is the sum of those counts and carries nothing new.
 *
 *  Pruning (the GCC plugin's rule 2a; off when FZ_NO_PRUNE is set to
 *  anything but "" or "0" at compile time).  Of the blocks picked so far,
 *  and not denied, a block then loses its counter when (a) it is not the
 *  entry, has successors, and dominates each of them, each counted or
 *  dropped by (a), or (b) it has two or more distinct predecessors, all
 *  counted, and post-dominates each of them; either way it ran exactly
 *  when one of those blocks ran.  The blocks it relies on, and the
 *  predecessors of every redundant block, are pinned and keep their
 *  counters, so a dropped block is always read off counters that exist
 *  (through a chain of blocks dropped by (a), each dominating the next).
 *  Rule (a) goes first, over the dominator tree in post-order (a block
 *  after all the blocks it dominates), then (b) in function order.
 *  Dominator and post-dominator trees are built here, after the edge
 *  splitting.
 *
 *  Counters.  Per module with N > 0 slots, two globals with internal linkage:
 *  "__fz_local_counters" ([N x i8], zero) and "__fz_area" (i8*, initialised
 *  to the first).  Each instrumented function loads the map pointer once,
 *  a = load __fz_area, in its entry block (see fz_load_area for why that is
 *  safe), and slot k of a block is incremented at the block's first
 *  insertion point with the NeverZero rule, so a count that wraps lands on
 *  1, not 0: on x86 (the module's target triple) with the GCC plugin's asm
 *  statement
 *      cmpb $-1, a[k]; sbbb $-2, a[k]          (c + 2 - (c < 255))
 *  (an inline asm call whose only memory is its operand), elsewhere with
 *      c = load a[k]; c = c + 1; c = c + (c == 0); store c, a[k]
 *  (The comparison pass's logging copies, compiled optnone, get the IR
 *  form: fz_counters_to_ir.)
 *  The loads, stores and asm calls carry !nosanitize so that ASan and
 *  friends, which run after this pass, do not instrument the
 *  instrumentation.  No call per edge.
 *
 *  Folded branches (the GCC plugin's spec 3b; off when FZ_NO_FOLDED is
 *  set to anything but "" or "0").  Decisions the optimiser made into
 *  straight-line code get two slots each, after the function's block
 *  slots: a scalar select (by its condition), a compare with a use other
 *  than a branch's or a select's condition or a half of joined decisions
 *  (a boolean stored or returned), and umin/umax/smin/smax (by which
 *  operand wins).  Joined decisions, an and/or of two i1 values x and y or
 *  the selects of `x && y` and `x || y`, get four, by x + 2y; so does an
 *  or of two integers only compared with zero (`x == 0 && y == 0`), by
 *  (x != 0) + 2 (y != 0).  After the
 *  instruction, slot k + outcome is set to 1 with a plain store
 *  (!nosanitize): which way it went, not how often.
 *
 *  Registration.  An internal constructor of priority
 *  FZ_CTOR_PRIORITY_REGISTER calls __fz_register(&__fz_area, N) through an
 *  extern_weak declaration, skipping the call when the symbol is absent (an
 *  instrumented shared library loaded by a plain program).
 *
 *  What is skipped: declarations, available_externally bodies (another
 *  module owns the real copy), naked functions, functions marked
 *  disable_sanitizer_instrumentation (or carrying nosanitize_coverage, which
 *  clang 14 emits for no_sanitize("coverage") only under
 *  -fsanitize-coverage; no_instrument_function never reaches the IR),
 *  functions or source files matched by the FZ_DENYLIST file
 *  (plugin/fz-denylist.h; C++ functions match by mangled name and by
 *  demangled qualified name without parameters), blocks whose every located
 *  instruction was inlined from a denied function (read from debug
 *  locations, so only with -g; the GCC plugin's rule), and blocks without
 *  an insertion point (Windows catchswitch blocks).
 *
 *  When.  The pass runs at the end of the optimisation pipeline
 *  (OptimizerLast), so it counts the code as it will be compiled: after
 *  inlining, unrolling and folding at -O1..-O3.  LLVM 14 runs that extension
 *  point at -O0 too.  A module flag guards against instrumenting twice.
 *
 *  Comparisons.  After the counters, plugin/fz-llvm-cmp.cc hooks the
 *  module's comparisons for the comparison log (its own specification),
 *  in the functions and blocks this pass instruments, unless FZ_NO_CMP.
 *
 *  Report.  One line on stderr per module, "fz-cc: N edges instrumented in
 *  FILE" (and "fz-cc: M comparison sites hooked in FILE" when M > 0),
 *  unless FZ_QUIET=1.
 *
 *  Version.  The plugin is built for one LLVM major version (recorded by
 *  plugin/llvm.mk in lib/fz/fz-llvm-pass.version for fz-cc).  If a different
 *  LLVM loads it and it still gets control, it stops the compile with a
 *  one-line error naming both versions and how to rebuild.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
/* Triple moved from ADT to TargetParser in LLVM 17. */
#if LLVM_VERSION_MAJOR >= 17
#include "llvm/TargetParser/Triple.h"
#else
#include "llvm/ADT/Triple.h"
#endif

#include "fz-config.h"
#include "plugin/fz-denylist.h"
#include "plugin/fz-llvm-cmp.h"
#include "plugin/fz-test-crash.h"

using namespace llvm;

/* The LLVM major version this plugin is compiled against.  Overridable only
 * so that the version-mismatch test can build a plugin that believes it was
 * built for another LLVM. */
#ifndef FZ_BUILT_LLVM_MAJOR
#define FZ_BUILT_LLVM_MAJOR LLVM_VERSION_MAJOR
#endif

/* Name of the module flag that marks a module as instrumented. */
static const char fz_done_flag[] = "fz.instrumented";

/* ---- Which LLVM loaded us ------------------------------------------------ */

/* dl_iterate_phdr callback: finds the major version in the name of a loaded
 * LLVM library ("libLLVM-14.so.1", "libLLVM.so.18.1", "libclang-cpp.so.14"). */
static int fz_find_llvm_lib(struct dl_phdr_info *info, size_t, void *data)
{
    static const char *const stems[] = {"libLLVM-", "libLLVM.so.", "libclang-cpp.so."};
    const char *name = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    name = name ? name + 1 : info->dlpi_name;
    if (!name)
        return 0;
    for (const char *stem : stems) {
        size_t n = strlen(stem);
        if (strncmp(name, stem, n) == 0 && name[n] >= '1' && name[n] <= '9') {
            *(int *)data = atoi(name + n);
            return 1;
        }
    }
    return 0;
}

/* The major version of the LLVM running us, or 0 if it cannot be told (a
 * statically linked clang of an LLVM older than 16). */
static int fz_host_llvm_major(void)
{
    /* LLVMGetVersion is part of the stable C API since LLVM 16, so calling
     * it through dlsym is safe whatever the C++ ABI of the host. */
    typedef void (*get_version_fn)(unsigned *, unsigned *, unsigned *);
    get_version_fn get = (get_version_fn)dlsym(RTLD_DEFAULT, "LLVMGetVersion");
    if (get) {
        unsigned major = 0, minor = 0, patch = 0;
        get(&major, &minor, &patch);
        return (int)major;
    }
    int major = 0;
    dl_iterate_phdr(fz_find_llvm_lib, &major);
    return major;
}

/* Stops the compile if the plugin runs inside an LLVM it was not built for:
 * its C++ types would not match, and what follows could crash or, worse,
 * emit wrong code. */
static void fz_check_llvm_version(void)
{
    int host = fz_host_llvm_major();
    if (host == 0 || host == FZ_BUILT_LLVM_MAJOR)
        return;
    fprintf(stderr,
            "fz-cc: error: fz-llvm-pass.so was built for LLVM %d but this clang uses LLVM %d; "
            "rebuild fz with this clang's llvm-config (make clean && make)\n",
            FZ_BUILT_LLVM_MAJOR, host);
    exit(1);
}

/* ---- Deciding what to instrument ----------------------------------------- */

/* The names a user may write in a deny-list for a C++ function: the
 * qualified name without parameters ("ns::Parser::parse", "twice<int>") and
 * the bare name ("parse", "twice"), the same two the GCC plugin tries.
 * Both stay empty when the name is not mangled (C). */
static void fz_cxx_names(const std::string &mangled, std::string *qualified, std::string *bare)
{
    ItaniumPartialDemangler d;
    /* The demangler's tree points into its input, which mangled outlives. */
    if (mangled.compare(0, 2, "_Z") != 0 || d.partialDemangle(mangled.c_str()))
        return;
    char *buf = d.getFunctionName(NULL, NULL);
    if (buf) {
        *qualified = buf;
        free(buf);
    }
    buf = d.getFunctionBaseName(NULL, NULL);
    if (buf) {
        *bare = buf;
        free(buf);
    }
}

static const char *fz_or_null(const std::string &s)
{
    return s.empty() ? NULL : s.c_str();
}

/* Is the function on the deny-list?  By its source file when debug info
 * says where it was defined (a header's inline function has the header's
 * name), and by its names; the symbol name loses the suffix the optimiser
 * gives clones ("parse.specialized.1" -> "parse"), as under GCC. */
static bool fz_function_denied(const Function &F, const fz_denylist_t *dl)
{
    if (dl->n == 0)
        return false;
    if (const DISubprogram *sp = F.getSubprogram())
        if (fz_denylist_deny_source(dl, sp->getFilename().str().c_str()))
            return true;
    std::string sym = F.getName().str();
    size_t dot = sym.find('.');
    if (dot != std::string::npos && dot > 0)
        sym.resize(dot);
    std::string qualified, bare;
    fz_cxx_names(sym, &qualified, &bare);
    return fz_denylist_deny_function(dl, fz_or_null(qualified), sym.c_str()) ||
           fz_denylist_deny_function(dl, fz_or_null(bare), NULL);
}

/* Is the function a debug-info subprogram describes on the deny-list?  The
 * same names and file as fz_function_denied: the linkage (mangled) name,
 * demangled, or the plain name for C. */
static bool fz_subprogram_denied(const DISubprogram *sp, const fz_denylist_t *dl)
{
    if (fz_denylist_deny_source(dl, sp->getFilename().str().c_str()))
        return true;
    std::string linkage = sp->getLinkageName().str(), name = sp->getName().str();
    std::string qualified, bare;
    fz_cxx_names(linkage, &qualified, &bare);
    return fz_denylist_deny_function(dl, fz_or_null(qualified), fz_or_null(linkage)) ||
           fz_denylist_deny_function(dl, fz_or_null(bare), NULL) ||
           fz_denylist_deny_function(dl, fz_or_null(name), NULL);
}

/* Did this instruction come from a denied function by inlining?  Its debug
 * location names the function it was written in (the scope's subprogram)
 * and, through inlinedAt, each function that function was inlined into on
 * the way to this one; code is denied when any of those inlined functions
 * is (a denied function's body, with whatever it inlined itself, gets no
 * counters when it is not inlined either).  Without debug info there is no
 * location, and nothing is denied this way. */
static bool fz_inlined_from_denied(const DILocation *loc, const fz_denylist_t *dl)
{
    for (; loc && loc->getInlinedAt(); loc = loc->getInlinedAt())
        if (const DISubprogram *sp = loc->getScope()->getSubprogram())
            if (fz_subprogram_denied(sp, dl))
                return true;
    return false;
}

/* The GCC plugin's block_denied: a block all of whose located code was
 * inlined from denied functions gets no counter.  A block that also holds
 * code of the function itself (or of an allowed inlined one) keeps it, so
 * denying a callee never hides the caller's own edges. */
static bool fz_block_denied(const BasicBlock &BB, const fz_denylist_t *dl)
{
    if (dl->n == 0)
        return false;
    bool any = false;
    for (const Instruction &I : BB) {
        if (isa<DbgInfoIntrinsic>(I) || !I.getDebugLoc())
            continue;
        if (!fz_inlined_from_denied(I.getDebugLoc().get(), dl))
            return false;
        any = true;
    }
    return any;
}

static bool fz_should_instrument(const Function &F, const fz_denylist_t *dl)
{
    if (F.isDeclaration() || F.hasAvailableExternallyLinkage())
        return false;
    /* A naked function is hand-written assembly around the prologue; code
     * added to it would run with no stack frame. */
    if (F.hasFnAttribute(Attribute::Naked))
        return false;
    if (F.hasFnAttribute(Attribute::NoSanitizeCoverage) ||
        F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
        return false;
    return !fz_function_denied(F, dl);
}

/* ---- Emitting the counters ----------------------------------------------- */

/* Marks an instruction so that sanitizer passes leave it alone. */
static void fz_nosanitize(Instruction *I)
{
    LLVMContext &C = I->getContext();
    I->setMetadata(C.getMDKindID("nosanitize"), MDNode::get(C, None));
}

/* Where the counter code of the entry block goes: after the allocas, since
 * keeping them together at the top is what later passes and debuggers
 * expect of a frame. */
static BasicBlock::iterator fz_entry_insertion_point(BasicBlock &entry)
{
    BasicBlock::iterator ip = entry.getFirstInsertionPt();
    while (ip != entry.end() && isa<AllocaInst>(*ip) && cast<AllocaInst>(*ip).isStaticAlloca())
        ++ip;
    return ip;
}

/* Loads __fz_area once, at the function's entry.  Every counter store is an
 * i8 store, which may alias anything, so per-block loads could never be
 * merged by LLVM; one load is ~3% faster on bench/overhead_work.c.  It is
 * safe because only the registration constructor changes __fz_area, before
 * any of this module's functions run (a function entered earlier, from
 * another module's priority-1 constructor, keeps counting into the scratch
 * array until it returns). */
static Instruction *fz_load_area(Function &F, GlobalVariable *area)
{
    IRBuilder<> B(&*fz_entry_insertion_point(F.getEntryBlock()));
    LoadInst *base = B.CreateLoad(B.getInt8PtrTy(), area, "fz.area");
    fz_nosanitize(base);
    return base;
}

/* The increment of p[k] on x86, two instructions on the counter in memory:
 *     cmpb $-1, p[k]      carry = (c < 255)
 *     sbbb $-2, p[k]      c = c + 2 - carry: c + 1, or 255 + 2 = 1
 * the NeverZero rule with one compare and one read-modify-write.  Said in
 * IR (below) the x86 back end makes four of it, load, add $1, adc $0,
 * store: it folds a load, an operation and a store into one instruction
 * only when nothing else uses the operation's result, and there the adc
 * uses the add's carry.  The other two-instruction form, addb $1 then
 * adcb $0 on the counter (two read-modify-writes), executes as many
 * instructions but chains two store-to-load forwardings per increment: a
 * loop that bumps the same counter every iteration then waits on them
 * (1.68x plain time on a byte loop, against 1.02x for this form and for
 * the IR).  The asm reads and writes only p[k] (one indirect memory
 * operand, named twice in the text) and the flags; it is not volatile,
 * and since it writes memory nothing removes it.  It names no clobber but
 * the flags (cmp and sbb touch nothing else): the code generator looks
 * each clobber up by name among all the target's registers at every
 * asm, and the direction flag and x87 status word that C's asm adds by
 * default, with the second operand, cost 5-6% of pcre2_match.c's compile
 * instructions at -g -O2 (docs/fz-cc.md).  Sanitizers do not look into
 * asm operands, and !nosanitize keeps MSan's conservative handling of
 * asm away too. */
static const char fz_count_asm_text[] = "cmpb $$-1, $0\n\tsbbb $$-2, $0";

static void fz_count_asm(IRBuilder<> &B, Value *p)
{
    FunctionType *ty = FunctionType::get(B.getVoidTy(), {p->getType()}, false);
    InlineAsm *incr = InlineAsm::get(ty, fz_count_asm_text, "=*m,~{flags}",
                                     /*hasSideEffects=*/false);
    CallInst *call = B.CreateCall(ty, incr, {p});
    /* What a plain store to p[k] would tell the optimisers that run after
     * us (the code generator; with -flto the link-time pipeline): the asm
     * touches no memory but what its operand points to, and returns. */
    call->setDoesNotThrow();
    call->setOnlyAccessesArgMemory();
    call->addFnAttr(Attribute::WillReturn);
#if LLVM_VERSION_MAJOR >= 14
    /* The type of the indirect operand, which LLVM 14 requires. */
    call->addParamAttr(0, Attribute::get(B.getContext(), Attribute::ElementType, B.getInt8Ty()));
#endif
    fz_nosanitize(call);
}

/* The increment of p[k] in IR, for other targets:
 *     c = p[k]; c = c + 1; c = c + (c == 0); p[k] = c
 * 255 + 1 wraps to 0; adding the carry back makes it 1, so an edge that
 * ran a multiple of 256 times never looks unvisited. */
static void fz_count_ir(IRBuilder<> &B, Value *p)
{
    Type *i8 = B.getInt8Ty();
    LoadInst *c = B.CreateLoad(i8, p);
    fz_nosanitize(c);
    Value *inc = B.CreateAdd(c, B.getInt8(1));
    Value *carry = B.CreateZExt(B.CreateICmpEQ(inc, B.getInt8(0)), i8);
    StoreInst *st = B.CreateStore(B.CreateAdd(inc, carry), p);
    fz_nosanitize(st);
}

/* The logging copy's counters (plugin/fz-llvm-cmp.cc): each asm
 * increment becomes the IR one, which the copy's fast instruction
 * selector (optnone) handles itself; it hands every inline asm with
 * operands to the full selector, block by block. */
void fz_counters_to_ir(Function &F)
{
    std::vector<CallInst *> asms;
    for (BasicBlock &BB : F)
        for (Instruction &I : BB)
            if (CallInst *call = dyn_cast<CallInst>(&I))
                if (InlineAsm *ia = dyn_cast<InlineAsm>(call->getCalledOperand()))
                    if (ia->getAsmString() == fz_count_asm_text && call->arg_size() == 1)
                        asms.push_back(call);
    for (CallInst *call : asms) {
        IRBuilder<> B(call);
        fz_count_ir(B, call->getArgOperand(0));
        call->eraseFromParent();
    }
}

/* Inserts the NeverZero increment of base[slot] at the block's first
 * insertion point (in the entry block: right after the load of base). */
static void fz_count_block(BasicBlock &BB, Instruction *base, uint64_t slot, bool x86)
{
    BasicBlock::iterator ip = BB.getFirstInsertionPt();
    if (base->getParent() == &BB)
        ip = std::next(base->getIterator());
    IRBuilder<> B(&*ip);
    Value *p = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), base, slot);
    if (x86)
        fz_count_asm(B, p);
    else
        fz_count_ir(B, p);
}

/* A block with two or more distinct successors: it could have gone
 * elsewhere, so the blocks it leads to carry information. */
static bool fz_branches(const BasicBlock &BB)
{
    return BB.getUniqueSuccessor() == NULL;
}

/* Counted by the first rule: the function entry (or a block nothing jumps
 * to), or a block entered from one that could have gone elsewhere. */
static bool fz_is_branch_target(const BasicBlock &BB)
{
    if (BB.isEntryBlock() || pred_empty(&BB))
        return true;
    for (const BasicBlock *pred : predecessors(&BB))
        if (fz_branches(*pred))
            return true;
    return false;
}

/* Dropped by the redundancy rule (the GCC plugin's, docs/coverage.md): a
 * block that is only fallen into from blocks counted by the first rule,
 * so its count is the sum of theirs. */
static bool fz_is_redundant(const BasicBlock &BB)
{
    if (fz_is_branch_target(BB))
        return false;
    for (const BasicBlock *pred : predecessors(&BB))
        if (!fz_is_branch_target(*pred))
            return false;
    return true;
}

static bool fz_block_needs_counter(const BasicBlock &BB)
{
    return BB.getFirstInsertionPt() != BB.end() && !fz_is_redundant(BB);
}

typedef SmallPtrSet<const BasicBlock *, 32> fz_block_set;

/* Pruning, part (a): BB is not the entry, has successors, and dominates
 * each of them, each counted or itself dropped by this rule.  A run
 * through BB goes on into one of them, and none of them runs without BB
 * having run first, so BB ran exactly when one of them ran; a successor
 * dropped by this rule ran exactly when one of its own successors ran,
 * which BB dominates too (dominance is transitive), and so on down to
 * counted blocks.  No cycle of dropped blocks can form: two blocks cannot
 * dominate each other. */
static bool fz_implied_by_successors(const BasicBlock &BB, const DominatorTree &DT,
                                     const fz_block_set &counted, const fz_block_set &dropped_a)
{
    if (BB.isEntryBlock() || succ_empty(&BB))
        return false;
    for (const BasicBlock *succ : successors(&BB))
        if (succ == &BB || !(counted.count(succ) || dropped_a.count(succ)) ||
            !DT.dominates(&BB, succ))
            return false;
    return true;
}

/* Pruning, part (b): BB has several (distinct) predecessors, all counted,
 * and post-dominates each of them.  BB is only entered from them, and a
 * run through any of them goes on to BB, so BB ran exactly when one of
 * their counters is set. */
static bool fz_implied_by_predecessors(const BasicBlock &BB, const PostDominatorTree &PDT,
                                       const fz_block_set &counted)
{
    if (pred_empty(&BB) || BB.getUniquePredecessor())
        return false;
    for (const BasicBlock *pred : predecessors(&BB))
        if (pred == &BB || !counted.count(pred) || !PDT.dominates(&BB, pred))
            return false;
    return true;
}

/* Pruning (the GCC plugin's prune_counters): takes counters off the blocks
 * in counted whose run the counters of their neighbours already tell.  A
 * block whose counter another block's absence relies on is pinned and
 * keeps it, so every dropped block is implied by blocks that stay counted
 * (or, under rule (a), by blocks dropped by rule (a) that are): the
 * predecessors of a redundant block, and the neighbours a pruned block was
 * dropped for.  Rule (a) goes first, over the dominator tree in post-order,
 * so a block is decided after every block it dominates (its successors
 * among them): chains of blocks each implied by the next (a loop body
 * testing several exits in turn) then keep only the counters at their
 * ends.  Rule (b) then goes in function order.  Blocks unreachable from
 * the entry are not in the dominator tree and keep their counters (they
 * never run). */
static void fz_prune(Function &F, fz_block_set &counted)
{
    fz_block_set pinned, dropped_a;
    for (const BasicBlock &BB : F)
        if (fz_is_redundant(BB))
            pinned.insert(pred_begin(&BB), pred_end(&BB));

    DominatorTree DT(F);
    for (const DomTreeNode *node : post_order(DT.getRootNode())) {
        const BasicBlock *BB = node->getBlock();
        if (!counted.count(BB) || pinned.count(BB) ||
            !fz_implied_by_successors(*BB, DT, counted, dropped_a))
            continue;
        counted.erase(BB);
        dropped_a.insert(BB);
        for (const BasicBlock *succ : successors(BB))
            if (counted.count(succ))
                pinned.insert(succ);
    }

    PostDominatorTree PDT(F);
    for (const BasicBlock &BB : F) {
        if (!counted.count(&BB) || pinned.count(&BB) || !DT.isReachableFromEntry(&BB) ||
            !fz_implied_by_predecessors(BB, PDT, counted))
            continue;
        counted.erase(&BB);
        pinned.insert(pred_begin(&BB), pred_end(&BB));
    }
}

/* ---- Folded branches ------------------------------------------------------ */

/* Is I two decisions joined into one i1 (*x and *y): an and/or of two
 * i1 values, or the selects clang makes of `x && y` (select x, y, false)
 * and `x || y` (select x, true, y)?  Its four slots tell which of the
 * four pairs of outcomes the run had, which one slot per half cannot:
 * `x && y` true is not x true in one run and y in another. */
static bool fz_joined(Instruction &I, Value **x, Value **y)
{
    if (!I.getType()->isIntegerTy(1))
        return false;
    if (SelectInst *sel = dyn_cast<SelectInst>(&I)) {
        const ConstantInt *t = dyn_cast<ConstantInt>(sel->getTrueValue());
        const ConstantInt *f = dyn_cast<ConstantInt>(sel->getFalseValue());
        *x = sel->getCondition();
        if (f && f->isZero() && !t)
            *y = sel->getTrueValue();
        else if (t && t->isOne() && !f)
            *y = sel->getFalseValue();
        else
            return false;
    } else if (I.getOpcode() == Instruction::And || I.getOpcode() == Instruction::Or) {
        *x = I.getOperand(0);
        *y = I.getOperand(1);
    } else {
        return false;
    }
    return *x != *y && !isa<Constant>(*x) && !isa<Constant>(*y);
}

/* Is I `or x, y` of two integers (not i1) whose every use compares it
 * with zero for equality: what InstCombine makes of `x == 0 && y == 0`
 * when neither half can be poison?  Then the halves are joined decisions
 * too: the branch on the or has one edge for x nonzero, y nonzero and
 * both.  (The GCC plugin's zero_tested_or.) */
static bool fz_zero_tested_or(Instruction &I, Value **x, Value **y)
{
    if (I.getOpcode() != Instruction::Or || !I.getType()->isIntegerTy() ||
        I.getType()->isIntegerTy(1))
        return false;
    *x = I.getOperand(0);
    *y = I.getOperand(1);
    if (*x == *y || isa<Constant>(*x) || isa<Constant>(*y) || I.use_empty())
        return false;
    for (User *u : I.users()) {
        const ICmpInst *cmp = dyn_cast<ICmpInst>(u);
        if (!cmp || !cmp->isEquality() || cmp->getOperand(0) != &I)
            return false;
        const ConstantInt *zero = dyn_cast<ConstantInt>(cmp->getOperand(1));
        if (!zero || !zero->isZero())
            return false;
    }
    return true;
}

/* The slots I gets as a decision that no edge of its own shows (the GCC
 * plugin's spec 3b), 0 if none.  Two for a scalar select, by its
 * condition; a compare used other than as a branch's or a select's
 * condition or a half of joined decisions (a boolean that is stored or
 * returned); a umin/umax/smin/smax call, by which operand wins.  Four for
 * joined decisions (fz_joined, fz_zero_tested_or). */
static unsigned fz_folded_slots(Instruction &I)
{
    Value *x, *y;
    if (fz_joined(I, &x, &y) || fz_zero_tested_or(I, &x, &y))
        return 4;
    if (const SelectInst *sel = dyn_cast<SelectInst>(&I))
        return sel->getCondition()->getType()->isVectorTy() ? 0 : 2;
    if (CmpInst *cmp = dyn_cast<CmpInst>(&I)) {
        if (cmp->getType()->isVectorTy() ||
            (isa<Constant>(cmp->getOperand(0)) && isa<Constant>(cmp->getOperand(1))))
            return 0;
        for (User *u : cmp->users()) {
            if (isa<BranchInst>(u))
                continue;
            const SelectInst *sel = dyn_cast<SelectInst>(u);
            if (sel && sel->getCondition() == cmp && sel->getTrueValue() != cmp &&
                sel->getFalseValue() != cmp)
                continue;
            Instruction *ui = dyn_cast<Instruction>(u);
            if (ui && fz_joined(*ui, &x, &y))
                continue;
            return 2;
        }
        return 0;
    }
    if (const IntrinsicInst *ii = dyn_cast<IntrinsicInst>(&I)) {
        switch (ii->getIntrinsicID()) {
        case Intrinsic::umin:
        case Intrinsic::umax:
        case Intrinsic::smin:
        case Intrinsic::smax:
            return ii->getType()->isVectorTy() ? 0 : 2;
        default:
            return 0;
        }
    }
    return 0;
}

/* Marks which way site I went in slot k + outcome (0 or 1; for joined
 * decisions x + 2y, 0 to 3) with a plain store of 1: the outcome happened
 * in this run, as a taken edge would show, without hit counts for values
 * that change with every input.  A joined select's second half may be
 * poison when the first decides (that is why clang made a select), so
 * that half is frozen before it makes an address; the halves of an and/or
 * are not (a freeze there costs 8% more instructions in a tokenizer loop,
 * bench/overhead_work.c, as it keeps the backend from sharing the compare
 * results with the branch). */
static void fz_mark_folded(Instruction *I, Instruction *base, uint64_t slot)
{
    IRBuilder<> B(I->getNextNode());
    Value *outcome, *x, *y;
    Value *idx;
    if (fz_joined(*I, &x, &y)) {
        if (isa<SelectInst>(I))
            y = B.CreateFreeze(y);
        Value *lo = B.CreateZExt(x, B.getInt64Ty());
        Value *hi = B.CreateZExt(y, B.getInt64Ty());
        idx = B.CreateAdd(lo, B.CreateShl(hi, 1));
    } else if (fz_zero_tested_or(*I, &x, &y)) {
        Value *lo = B.CreateZExt(B.CreateIsNotNull(x), B.getInt64Ty());
        Value *hi = B.CreateZExt(B.CreateIsNotNull(y), B.getInt64Ty());
        idx = B.CreateAdd(lo, B.CreateShl(hi, 1));
    } else {
        if (SelectInst *sel = dyn_cast<SelectInst>(I)) {
            outcome = sel->getCondition();
        } else if (IntrinsicInst *ii = dyn_cast<IntrinsicInst>(I)) {
            Value *a = ii->getArgOperand(0), *b = ii->getArgOperand(1);
            switch (ii->getIntrinsicID()) {
            case Intrinsic::umin: outcome = B.CreateICmpULT(a, b); break;
            case Intrinsic::umax: outcome = B.CreateICmpUGT(a, b); break;
            case Intrinsic::smin: outcome = B.CreateICmpSLT(a, b); break;
            default: outcome = B.CreateICmpSGT(a, b); break;
            }
        } else {
            outcome = I;
        }
        idx = B.CreateZExt(outcome, B.getInt64Ty());
    }
    Value *p = B.CreateInBoundsGEP(B.getInt8Ty(), base, B.CreateAdd(idx, B.getInt64(slot)));
    StoreInst *st = B.CreateStore(B.getInt8(1), p);
    fz_nosanitize(st);
}

/* Splits the function's critical edges (those LLVM can split: not into an
 * exception pad, not out of indirectbr/callbr) and counts the blocks that
 * need it.  Returns the number of slots used; slots start at next.  Sets
 * *changed when it changed the function, slots or not (a split edge alone
 * invalidates the CFG analyses). */
static uint64_t fz_instrument_function(Function &F, GlobalVariable *area, uint64_t next,
                                       const fz_denylist_t *dl, bool prune, bool folded,
                                       bool *changed)
{
    if (fz_test_crash_wanted("edge", F.getName().str().c_str()))
        abort(); /* FZ_TEST_CRASH: test only */
    if (SplitAllCriticalEdges(F) > 0)
        *changed = true;
    /* Decide first, then insert; inserting does not change the CFG, but
     * keeping the two apart keeps the rule easy to read. */
    fz_block_set counted;
    for (BasicBlock &BB : F)
        if (fz_block_needs_counter(BB) && !fz_block_denied(BB, dl))
            counted.insert(&BB);
    if (prune)
        fz_prune(F, counted);
    /* In block order, so slot numbers do not depend on pointer values. */
    std::vector<BasicBlock *> chosen;
    for (BasicBlock &BB : F)
        if (counted.count(&BB))
            chosen.push_back(&BB);
    /* Counted before any mark adds uses to the values they read. */
    std::vector<std::pair<Instruction *, unsigned>> sites;
    if (folded)
        for (BasicBlock &BB : F)
            if (!fz_block_denied(BB, dl))
                for (Instruction &I : BB)
                    if (unsigned n = fz_folded_slots(I))
                        sites.push_back({&I, n});
    if (chosen.empty() && sites.empty())
        return 0;
    Instruction *base = fz_load_area(F, area);
    bool x86 = Triple(F.getParent()->getTargetTriple()).isX86();
    uint64_t first = next;
    for (BasicBlock *BB : chosen)
        fz_count_block(*BB, base, next++, x86);
    for (auto &site : sites) {
        fz_mark_folded(site.first, base, next);
        next += site.second;
    }
    return next - first;
}

/* Creates the internal constructor that hands the module's map pointer and
 * slot count to the runtime, if the runtime is linked in. */
static void fz_emit_registration(Module &M, GlobalVariable *area, uint64_t n)
{
    LLVMContext &C = M.getContext();
    Type *void_ty = Type::getVoidTy(C);
    Type *i32 = Type::getInt32Ty(C);
    FunctionType *reg_ty = FunctionType::get(void_ty, {area->getType(), i32}, false);
    FunctionCallee reg = M.getOrInsertFunction("__fz_register", reg_ty);
    Function *reg_fn = dyn_cast<Function>(reg.getCallee()->stripPointerCasts());
    if (reg_fn && reg_fn->isDeclaration())
        reg_fn->setLinkage(GlobalValue::ExternalWeakLinkage);

    Function *ctor = Function::Create(FunctionType::get(void_ty, false),
                                      GlobalValue::InternalLinkage, "__fz_module_ctor", &M);
    ctor->addFnAttr(Attribute::NoUnwind);
    BasicBlock *entry = BasicBlock::Create(C, "entry", ctor);
    BasicBlock *call = BasicBlock::Create(C, "register", ctor);
    BasicBlock *done = BasicBlock::Create(C, "done", ctor);
    IRBuilder<> B(entry);
    Value *present = B.CreateIsNotNull(reg.getCallee());
    B.CreateCondBr(present, call, done);
    B.SetInsertPoint(call);
    B.CreateCall(reg, {area, B.getInt32((uint32_t)n)});
    B.CreateBr(done);
    B.SetInsertPoint(done);
    B.CreateRetVoid();
    appendToGlobalCtors(M, ctor, FZ_CTOR_PRIORITY_REGISTER);
}

/* Resizes the scratch array to the final slot count.  The per-edge code
 * only refers to __fz_area, so the array can be created once the count is
 * known. */
static void fz_emit_counters(Module &M, GlobalVariable *area, uint64_t n)
{
    LLVMContext &C = M.getContext();
    ArrayType *arr_ty = ArrayType::get(Type::getInt8Ty(C), n);
    GlobalVariable *local =
        new GlobalVariable(M, arr_ty, false, GlobalValue::InternalLinkage,
                           ConstantAggregateZero::get(arr_ty), "__fz_local_counters");
    Constant *zero = ConstantInt::get(Type::getInt32Ty(C), 0);
    Constant *idx[] = {zero, zero};
    area->setInitializer(ConstantExpr::getInBoundsGetElementPtr(arr_ty, local, idx));
}

/* An on/off variable like the GCC plugin's (FZ_QUIET, FZ_NO_PRUNE,
 * FZ_NO_FOLDED): any value but "" and "0" sets it. */
static bool fz_env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static void fz_report(const Module &M, uint64_t n, uint64_t sites)
{
    if (fz_env_flag("FZ_QUIET"))
        return;
    errs() << "fz-cc: " << n << " edges instrumented in " << M.getSourceFileName() << "\n";
    if (sites > 0)
        errs() << "fz-cc: " << sites << " comparison sites hooked in " << M.getSourceFileName()
               << "\n";
}

/* ---- The pass ------------------------------------------------------------ */

namespace
{

struct fz_coverage_pass : PassInfoMixin<fz_coverage_pass> {
    PreservedAnalyses run(Module &M, ModuleAnalysisManager &);
};

PreservedAnalyses fz_coverage_pass::run(Module &M, ModuleAnalysisManager &)
{
    if (M.getModuleFlag(fz_done_flag))
        return PreservedAnalyses::all();
    M.addModuleFlag(Module::Warning, fz_done_flag, 1);

    fz_denylist_t dl;
    char err[512];
    if (fz_denylist_from_env(&dl, err, sizeof(err)) != 0) {
        errs() << "fz-cc: error: " << err << "\n";
        exit(1);
    }

    bool prune = !fz_env_flag("FZ_NO_PRUNE");
    bool folded = !fz_env_flag("FZ_NO_FOLDED");
    uint64_t n = 0, sites = 0;
    bool changed = false;
    if (!fz_denylist_deny_source(&dl, M.getSourceFileName().c_str())) {
        LLVMContext &C = M.getContext();
        Type *ptr_ty = Type::getInt8PtrTy(C);
        GlobalVariable *area =
            new GlobalVariable(M, ptr_ty, false, GlobalValue::InternalLinkage,
                               ConstantPointerNull::get(cast<PointerType>(ptr_ty)), "__fz_area");
        for (Function &F : M)
            if (fz_should_instrument(F, &dl))
                n += fz_instrument_function(F, area, n, &dl, prune, folded, &changed);
        if (n > 0) {
            fz_emit_counters(M, area, n);
            fz_emit_registration(M, area, n);
        } else {
            area->eraseFromParent();
        }
        /* After the counters: the logging copies count the same slots. */
        sites = fz_cmp_instrument_module(
            M, [&](Function &F) { return fz_should_instrument(F, &dl); },
            [&](const BasicBlock &BB) { return fz_block_denied(BB, &dl); });
    }
    fz_denylist_free(&dl);
    fz_report(M, n, sites);
    return n > 0 || sites > 0 || changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace

static void fz_register_callbacks(PassBuilder &PB)
{
    fz_check_llvm_version();
    PB.registerOptimizerLastEPCallback(
        [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(fz_coverage_pass()); });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo()
{
    fz_check_llvm_version();
    return {LLVM_PLUGIN_API_VERSION, "fz-coverage", "1", fz_register_callbacks};
}
