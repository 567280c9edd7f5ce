/*
 * fz-llvm-cmp.cc - the Clang/LLVM back end of fz's comparison hooks; the
 * same sites, hooks and module ABI as the GCC plugin's (plugin/
 * fz-gcc-cmp.cc; include/fz-cmplog.h; docs/coverage.md, "Comparisons").
 *
 * Specification:
 *
 *  What.  Integer compares (icmp) of 1, 2, 4, 8 or 16 bytes, not of
 *  pointers or vectors, not of two constants, not with the constant 0, and
 *  not of a loop counter (a PHI that gets itself plus a constant back)
 *  with a constant or an argument; the constant, if any, is the second
 *  operand (FZ_CMP_A_CONST), eq/ne set FZ_CMP_A_EQ.  Switches on up to 8
 *  bytes, with a private constant table of their case values.  Calls of
 *  memcmp, bcmp, strcmp, strncmp, strcasecmp, strncasecmp, strstr,
 *  strcasestr, memmem by name (clang's __builtin_ forms are these calls in
 *  the IR).  The pass runs at OptimizerLast, after instcombine: a small
 *  constant-size memcmp it turned into loads and an icmp is seen by the
 *  integer hook; ExpandMemCmp, which inlines the others, runs later, in
 *  the code generator.
 *
 *  How.  A function with sites gets a logging copy "F.fz.cmplog" (cold,
 *  internal, noinline, optnone: its IR is optimised already, so only its
 *  code generation is cheaper), made after the counters went in, so it
 *  counts the same slots (with the portable IR increment instead of the
 *  x86 asm one, which fast instruction selection cannot take).  F's
 *  entry block, after its static allocas, becomes
 *      if (__fz_cmp_on) return tail call F.fz.cmplog(args...);
 *  and only the copy calls the hooks, unguarded.  So a run that does not
 *  log pays one load and one branch per call of such a function.  Where
 *  the flag may change while the function runs (it calls __AFL_LOOP's or
 *  __AFL_INIT's runtime functions, or setjmp), or a copy cannot forward
 *  the call (varargs, inalloca, swifterror, a block whose address is
 *  taken), each site gets its own guard instead:
 *      if (__fz_cmp_on) __fz_cmp_<kind>(__fz_cmp_base + k, ...);
 *
 *  FZ_CMP_NO_COPY set at compile time: every function gets the per-site
 *  guards, no copies (cheaper to compile, docs/fz-cc.md "Compile time").
 *
 *  Module.  Internal i8 __fz_cmp_on and i32 __fz_cmp_base, and a
 *  constructor of priority FZ_CTOR_PRIORITY_REGISTER calling the
 *  extern_weak __fz_register_cmp(&__fz_cmp_on, &__fz_cmp_base, M).  The
 *  hooks are extern_weak too.  FZ_NO_CMP (anything but "" or "0") at
 *  compile time: nothing of this.
 */
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include "fz-cmplog.h"
#include "fz-config.h"
#include "plugin/fz-llvm-cmp.h"
#include "plugin/fz-test-crash.h"

using namespace llvm;

namespace
{

/* A site found in the original function, and how many log slots it takes. */
struct fz_site {
    Instruction *at;
    unsigned slots;
};

struct fz_cmp_module {
    Module &M;
    LLVMContext &C;
    GlobalVariable *flag = nullptr, *base = nullptr;
    uint64_t sites = 0;

    explicit fz_cmp_module(Module &m) : M(m), C(m.getContext())
    {
    }

    void module_vars()
    {
        if (flag)
            return;
        Type *i8 = Type::getInt8Ty(C), *i32 = Type::getInt32Ty(C);
        flag = new GlobalVariable(M, i8, false, GlobalValue::InternalLinkage,
                                  ConstantInt::get(i8, 0), "__fz_cmp_on");
        base = new GlobalVariable(M, i32, false, GlobalValue::InternalLinkage,
                                  ConstantInt::get(i32, 0), "__fz_cmp_base");
    }

    FunctionCallee hook(const char *name, FunctionType *ty)
    {
        FunctionCallee f = M.getOrInsertFunction(name, ty);
        if (Function *fn = dyn_cast<Function>(f.getCallee()->stripPointerCasts()))
            if (fn->isDeclaration()) {
                fn->setLinkage(GlobalValue::ExternalWeakLinkage);
                fn->addFnAttr(Attribute::NoUnwind);
            }
        return f;
    }
};

void fz_nosanitize(Instruction *I)
{
    I->setMetadata(I->getContext().getMDKindID("nosanitize"), MDNode::get(I->getContext(), None));
}

/* Width in bytes of an integer operand we log, 0 for any other. */
unsigned int_width(Type *t)
{
    if (!t->isIntegerTy())
        return 0;
    unsigned bits = t->getIntegerBitWidth();
    return bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128 ? bits / 8 : 0;
}

/* A loop counter: a PHI that gets itself plus or minus a constant back,
 * or that sum. */
bool is_counter(Value *v)
{
    PHINode *phi = dyn_cast<PHINode>(v);
    BinaryOperator *step = nullptr;
    if (!phi && (step = dyn_cast<BinaryOperator>(v)) &&
        (step->getOpcode() == Instruction::Add || step->getOpcode() == Instruction::Sub) &&
        isa<ConstantInt>(step->getOperand(1)))
        phi = dyn_cast<PHINode>(step->getOperand(0));
    if (!phi)
        return false;
    for (Value *in : phi->incoming_values()) {
        BinaryOperator *b = dyn_cast<BinaryOperator>(in);
        if (b && b->getOperand(0) == phi && isa<ConstantInt>(b->getOperand(1)) &&
            (!step || b == step))
            return true;
    }
    return false;
}

bool fixed(Value *v)
{
    return isa<Constant>(v) || isa<Argument>(v);
}

/* Slots the site at I takes, 0 when it is not one we hook. */
unsigned site_slots(Instruction &I)
{
    if (ICmpInst *cmp = dyn_cast<ICmpInst>(&I)) {
        Value *a = cmp->getOperand(0), *b = cmp->getOperand(1);
        if (!int_width(a->getType()))
            return 0;
        bool ca = isa<ConstantInt>(a), cb = isa<ConstantInt>(b);
        if ((ca && cb) || (ca && cast<ConstantInt>(a)->isZero()) ||
            (cb && cast<ConstantInt>(b)->isZero()))
            return 0;
        if ((is_counter(a) && fixed(b)) || (is_counter(b) && fixed(a)))
            return 0;
        return 1;
    }
    if (SwitchInst *sw = dyn_cast<SwitchInst>(&I)) {
        unsigned w = int_width(sw->getCondition()->getType());
        if (!w || w > 8 || isa<Constant>(sw->getCondition()) || sw->getNumCases() == 0)
            return 0;
        return (sw->getNumCases() + FZ_CMP_PAIRS - 1) / FZ_CMP_PAIRS;
    }
    return 0;
}

/* How a comparison function's arguments map onto __fz_cmp_mem. */
struct fz_cmp_fn {
    const char *name;
    unsigned nargs;
    int a, b, n0, n1; /* argument indices; -1: NUL-terminated, no bound */
    unsigned attr;
};

const fz_cmp_fn fz_cmp_fns[] = {
    {"memcmp", 3, 0, 1, 2, 2, 0},
    {"bcmp", 3, 0, 1, 2, 2, 0},
    {"strcmp", 2, 0, 1, -1, -1, FZ_CMP_A_STRZ},
    {"strncmp", 3, 0, 1, 2, 2, FZ_CMP_A_STRZ},
    {"strcasecmp", 2, 0, 1, -1, -1, FZ_CMP_A_STRZ | FZ_CMP_A_NOCASE},
    {"strncasecmp", 3, 0, 1, 2, 2, FZ_CMP_A_STRZ | FZ_CMP_A_NOCASE},
    {"strstr", 2, 0, 1, -1, -1, FZ_CMP_A_STRZ | FZ_CMP_A_FIND},
    {"strcasestr", 2, 0, 1, -1, -1, FZ_CMP_A_STRZ | FZ_CMP_A_FIND | FZ_CMP_A_NOCASE},
    {"memmem", 4, 0, 2, 1, 3, FZ_CMP_A_FIND},
};

const fz_cmp_fn *cmp_fn_of(Instruction &I)
{
    CallInst *call = dyn_cast<CallInst>(&I);
    Function *callee = call ? call->getCalledFunction() : nullptr;
    if (!callee)
        return nullptr;
    StringRef name = callee->getName();
    for (const fz_cmp_fn &f : fz_cmp_fns)
        if (name == f.name && call->arg_size() == f.nargs)
            return &f;
    return nullptr;
}

/* ---- The calls ----------------------------------------------------------- */

/* The value C's promotions widened: x for zext/sext x, when the constant
 * the compare also holds fits x's type (signed for sext) or the other
 * operand is widened the same way.  At -O0 clang compares a char as an
 * int, but the input holds one byte, not four. */
Value *unwidened(Value *v, bool *sext)
{
    if (ZExtInst *z = dyn_cast<ZExtInst>(v)) {
        *sext = false;
        return z->getOperand(0);
    }
    if (SExtInst *x = dyn_cast<SExtInst>(v)) {
        *sext = true;
        return x->getOperand(0);
    }
    return nullptr;
}

bool fits(ConstantInt *c, Type *t, bool sext)
{
    unsigned bits = t->getIntegerBitWidth();
    return sext ? c->getValue().isSignedIntN(bits) : c->getValue().isIntN(bits);
}

/* Narrows the pair (a, b) in place when both are widened from one type. */
void narrow(Value *&a, Value *&b)
{
    bool sa = false, sb = false;
    Value *na = unwidened(a, &sa);
    if (!na || !int_width(na->getType()))
        return;
    if (ConstantInt *c = dyn_cast<ConstantInt>(b)) {
        if (!fits(c, na->getType(), sa))
            return;
        a = na;
        b = ConstantInt::get(na->getType(), c->getValue().trunc(na->getType()->getIntegerBitWidth()));
        return;
    }
    Value *nb = unwidened(b, &sb);
    if (nb && nb->getType() == na->getType() && sa == sb)
        a = na, b = nb;
}

/* The switch's value narrowed the same way, when every case fits. */
Value *narrow_switch(SwitchInst *sw)
{
    bool sext = false;
    Value *v = sw->getCondition(), *n = unwidened(v, &sext);
    if (!n || !int_width(n->getType()))
        return v;
    for (auto &c : sw->cases())
        if (!fits(c.getCaseValue(), n->getType(), sext))
            return v;
    return n;
}

/* Emits at B: the hook call for the site at I, whose first slot is id. */
void emit_hook(fz_cmp_module &m, IRBuilder<> &B, Instruction &I, uint64_t first)
{
    Type *i32 = B.getInt32Ty(), *i64 = B.getInt64Ty(), *ptr = B.getInt8PtrTy();
    LoadInst *base = B.CreateLoad(i32, m.base);
    fz_nosanitize(base);
    Value *site = B.CreateAdd(base, B.getInt32((uint32_t)first));
    if (ICmpInst *cmp = dyn_cast<ICmpInst>(&I)) {
        Value *a = cmp->getOperand(0), *b = cmp->getOperand(1);
        if (isa<ConstantInt>(a))
            std::swap(a, b);
        narrow(a, b);
        unsigned w = int_width(a->getType());
        unsigned attr = (isa<ConstantInt>(b) ? FZ_CMP_A_CONST : 0) |
                        (cmp->isEquality() ? FZ_CMP_A_EQ : 0);
        Value *info = B.getInt32(FZ_CMP_HOOK_INFO(w, attr));
        if (w == 16) {
            auto half = [&](Value *v, int hi) {
                return B.CreateTrunc(hi ? B.CreateLShr(v, 64) : v, i64);
            };
            FunctionType *ty = FunctionType::get(B.getVoidTy(), {i32, i64, i64, i64, i64, i32}, false);
            B.CreateCall(m.hook("__fz_cmp_int128", ty),
                         {site, half(a, 0), half(a, 1), half(b, 0), half(b, 1), info});
        } else {
            FunctionType *ty = FunctionType::get(B.getVoidTy(), {i32, i64, i64, i32}, false);
            B.CreateCall(m.hook("__fz_cmp_int", ty),
                         {site, B.CreateZExt(a, i64), B.CreateZExt(b, i64), info});
        }
        return;
    }
    if (SwitchInst *sw = dyn_cast<SwitchInst>(&I)) {
        Value *v = narrow_switch(sw);
        unsigned bits = v->getType()->getIntegerBitWidth();
        std::vector<Constant *> vals;
        for (auto &c : sw->cases())
            vals.push_back(
                ConstantInt::get(i64, c.getCaseValue()->getValue().trunc(bits).getZExtValue()));
        ArrayType *at = ArrayType::get(i64, vals.size());
        GlobalVariable *table =
            new GlobalVariable(m.M, at, true, GlobalValue::PrivateLinkage,
                               ConstantArray::get(at, vals), "__fz_cmp_cases");
        FunctionType *ty = FunctionType::get(B.getVoidTy(),
                                             {i32, i64, PointerType::getUnqual(i64), i32, i32}, false);
        B.CreateCall(m.hook("__fz_cmp_switch", ty),
                     {site, B.CreateZExt(v, i64),
                      B.CreateConstInBoundsGEP2_64(at, table, 0, 0),
                      B.getInt32((uint32_t)vals.size()),
                      B.getInt32(int_width(v->getType()))});
        return;
    }
    const fz_cmp_fn *f = cmp_fn_of(I);
    CallInst *call = cast<CallInst>(&I);
    auto arg_ptr = [&](int i) { return B.CreatePointerCast(call->getArgOperand(i), ptr); };
    auto bound = [&](int i) -> Value * {
        if (i < 0)
            return ConstantInt::getAllOnesValue(i64);
        return B.CreateZExtOrTrunc(call->getArgOperand(i), i64);
    };
    FunctionType *ty = FunctionType::get(B.getVoidTy(), {i32, ptr, ptr, i64, i64, i32}, false);
    B.CreateCall(m.hook("__fz_cmp_mem", ty),
                 {site, arg_ptr(f->a), arg_ptr(f->b), bound(f->n0), bound(f->n1),
                  B.getInt32(f->attr)});
}

/* ---- Per function -------------------------------------------------------- */

bool calls_run_boundary(Function &F)
{
    static const char *const names[] = {"__fz_persistent_loop", "__afl_persistent_loop",
                                        "__fz_manual_init", "__afl_manual_init"};
    for (BasicBlock &BB : F) {
        if (BB.hasAddressTaken())
            return true; /* a copy cannot take over blockaddress users */
        for (Instruction &I : BB) {
            CallBase *call = dyn_cast<CallBase>(&I);
            if (!call)
                continue;
            if (call->hasFnAttr(Attribute::ReturnsTwice) || call->isMustTailCall())
                return true;
            if (Function *callee = call->getCalledFunction())
                for (const char *n : names)
                    if (callee->getName() == n)
                        return true;
        }
    }
    return false;
}

bool can_version(Function &F)
{
    if (!fz_cmp_copy_wanted() || F.isVarArg() || calls_run_boundary(F))
        return false;
    for (Argument &A : F.args())
        if (A.hasInAllocaAttr() || A.hasPreallocatedAttr() || A.hasSwiftErrorAttr())
            return false;
    return true;
}

/* The logging copy, and F's entry made to hand over to it. */
Function *make_copy(fz_cmp_module &m, Function &F, ValueToValueMapTy &vmap)
{
    Function *copy = CloneFunction(&F, vmap);
    copy->setName(F.getName() + ".fz.cmplog");
    copy->setLinkage(GlobalValue::InternalLinkage);
    copy->setVisibility(GlobalValue::DefaultVisibility);
    copy->setComdat(nullptr);
    /* -fsanitize=function's signature refers to F by a section-relative
     * difference; only F is called indirectly, so the copy needs none. */
    copy->setPrologueData(nullptr);
    copy->setPrefixData(nullptr);
    copy->addFnAttr(Attribute::Cold);
    copy->addFnAttr(Attribute::NoInline);
    /* No variable locations in the copy (a debugger shows its variables
     * as optimized out): tracking them is a good part of the code
     * generator's time with -g.  Line locations stay. */
    std::vector<Instruction *> dbg;
    for (BasicBlock &BB : *copy)
        for (Instruction &I : BB)
            if (isa<DbgInfoIntrinsic>(I))
                dbg.push_back(&I);
    for (Instruction *I : dbg)
        I->eraseFromParent();
    copy->removeFnAttr(Attribute::AlwaysInline);
    /* Compiled without optimisation (optnone: fast instruction selection,
     * most machine passes skipped): the copy's IR is already optimised
     * (this pass runs at OptimizerLast), the code generator is where a
     * copy's compile time goes, and a logging run spends its time in the
     * hooks, not in the copy's code (docs/fz-cc.md, "Compile time"). */
    copy->addFnAttr(Attribute::OptimizeNone);
    copy->removeFnAttr(Attribute::OptimizeForSize); /* the verifier: not with optnone */
    copy->removeFnAttr(Attribute::MinSize);
    /* Its counters in IR, not asm, which the fast selector would hand
     * back to the full one (zlib's inflate.c: the copy's share of the
     * compile 1.72G instructions before optnone, 1.02G with it, 0.73G
     * with the IR counters too; a logging run +1.8%). */
    fz_counters_to_ir(*copy);

    BasicBlock &entry = F.getEntryBlock();
    BasicBlock::iterator ip = entry.getFirstInsertionPt();
    while (ip != entry.end() && isa<AllocaInst>(*ip) && cast<AllocaInst>(*ip).isStaticAlloca())
        ++ip;
    BasicBlock *rest = SplitBlock(&entry, &*ip);
    BasicBlock *hand = BasicBlock::Create(m.C, "fz.cmplog", &F, rest);
    entry.getTerminator()->eraseFromParent();
    IRBuilder<> B(&entry);
    LoadInst *on = B.CreateLoad(B.getInt8Ty(), m.flag, "fz.cmp.on");
    fz_nosanitize(on);
    MDNode *w = MDBuilder(m.C).createBranchWeights(1, 1 << 20);
    B.CreateCondBr(B.CreateIsNotNull(on), hand, rest, w);

    B.SetInsertPoint(hand);
    std::vector<Value *> args;
    for (Argument &A : F.args())
        args.push_back(&A);
    CallInst *call = B.CreateCall(copy->getFunctionType(), copy, args);
    call->setCallingConv(F.getCallingConv());
    call->setAttributes(F.getAttributes());
    call->setTailCall();
    if (F.getReturnType()->isVoidTy())
        B.CreateRetVoid();
    else
        B.CreateRet(call);
    return copy;
}

/* Hooks the sites of F; returns whether it changed F. */
bool instrument_function(fz_cmp_module &m, Function &F,
                         const std::function<bool(const BasicBlock &)> &denied)
{
    if (fz_test_crash_wanted("cmp", F.getName().str().c_str()))
        abort(); /* FZ_TEST_CRASH: test only */
    std::vector<fz_site> found;
    for (BasicBlock &BB : F) {
        if (denied(BB))
            continue;
        for (Instruction &I : BB) {
            unsigned n = cmp_fn_of(I) ? 1 : site_slots(I);
            if (n)
                found.push_back({&I, n});
        }
    }
    if (found.empty())
        return false;
    m.module_vars();
    if (can_version(F)) {
        ValueToValueMapTy vmap;
        make_copy(m, F, vmap);
        for (fz_site &s : found) {
            Instruction *I = cast<Instruction>(vmap[s.at]);
            IRBuilder<> B(I);
            emit_hook(m, B, *I, m.sites);
            m.sites += s.slots;
        }
        return true;
    }
    MDNode *w = MDBuilder(m.C).createBranchWeights(1, 1 << 20);
    for (fz_site &s : found) {
        IRBuilder<> G(s.at);
        LoadInst *on = G.CreateLoad(G.getInt8Ty(), m.flag);
        fz_nosanitize(on);
        Instruction *then = SplitBlockAndInsertIfThen(G.CreateIsNotNull(on), s.at, false, w);
        IRBuilder<> B(then);
        emit_hook(m, B, *s.at, m.sites);
        m.sites += s.slots;
    }
    return true;
}

/* if (&__fz_register_cmp) __fz_register_cmp(&__fz_cmp_on, &__fz_cmp_base, M); */
void emit_registration(fz_cmp_module &m)
{
    Type *void_ty = Type::getVoidTy(m.C), *i32 = Type::getInt32Ty(m.C);
    FunctionType *reg_ty =
        FunctionType::get(void_ty, {m.flag->getType(), m.base->getType(), i32}, false);
    FunctionCallee reg = m.hook("__fz_register_cmp", reg_ty);
    Function *ctor = Function::Create(FunctionType::get(void_ty, false),
                                      GlobalValue::InternalLinkage, "__fz_cmp_module_ctor", &m.M);
    ctor->addFnAttr(Attribute::NoUnwind);
    BasicBlock *entry = BasicBlock::Create(m.C, "entry", ctor);
    BasicBlock *call = BasicBlock::Create(m.C, "register", ctor);
    BasicBlock *done = BasicBlock::Create(m.C, "done", ctor);
    IRBuilder<> B(entry);
    B.CreateCondBr(B.CreateIsNotNull(reg.getCallee()), call, done);
    B.SetInsertPoint(call);
    B.CreateCall(reg, {m.flag, m.base, B.getInt32((uint32_t)m.sites)});
    B.CreateBr(done);
    B.SetInsertPoint(done);
    B.CreateRetVoid();
    appendToGlobalCtors(m.M, ctor, FZ_CTOR_PRIORITY_REGISTER);
}

} // namespace

uint64_t fz_cmp_instrument_module(Module &M, const std::function<bool(Function &)> &instrumented,
                                  const std::function<bool(const BasicBlock &)> &denied)
{
    const char *off = getenv("FZ_NO_CMP");
    if (off && *off && strcmp(off, "0") != 0)
        return 0;
    fz_cmp_module m(M);
    /* A snapshot: the copies join the module's function list. */
    std::vector<Function *> fns;
    for (Function &F : M)
        if (instrumented(F))
            fns.push_back(&F);
    for (Function *F : fns)
        instrument_function(m, *F, denied);
    if (m.sites > 0)
        emit_registration(m);
    return m.sites;
}
