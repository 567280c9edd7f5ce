/*
 * fz-llvm-cmp.h - the LLVM pass's comparison hooks (plugin/fz-llvm-cmp.cc),
 * called by the edge pass in fz-llvm-pass.cc once the counters are in.
 */
#ifndef FZ_LLVM_CMP_H
#define FZ_LLVM_CMP_H

#include <functional>

#include "llvm/IR/Module.h"

/* Hooks the comparisons of every function `instrumented` accepts, except
 * in blocks `denied` names (the edge pass's rules), and adds the module's
 * flag, base and registration.  Returns the number of sites (log slots)
 * the module uses; 0 changes nothing. */
uint64_t fz_cmp_instrument_module(llvm::Module &M,
                                  const std::function<bool(llvm::Function &)> &instrumented,
                                  const std::function<bool(const llvm::BasicBlock &)> &denied);

/* Turns the x86 asm counter increments of F (a logging copy) into the
 * IR form (fz-llvm-pass.cc). */
void fz_counters_to_ir(llvm::Function &F);

#endif
