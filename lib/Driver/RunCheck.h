//===- RunCheck.h - how dfa-run judges --expect -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Driver. dfa-run checks each output against its expected
/// value with dfa-bisect's tolerance model (lib/Bisect/Compare): a budget
/// from the op class that makes the output, the length it reduces over
/// and the format the target stores it in. An output that is over that
/// budget is judged again with the carried error measured: the
/// same-format CPU reference and the fp64 oracle are run on the model's
/// graph (only then, so a passing run costs nothing more). --rtol/--atol
/// replace the model with numpy.allclose's rule.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_DRIVER_RUNCHECK_H
#define LIB_DRIVER_RUNCHECK_H

#include "dfa/Bisect/Compare.h"
#include "dfa/Driver/Driver.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Target/Target.h"

#include "dialects/Sched/SchedOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/JSON.h"

#include <functional>

namespace dfa::driver {

/// How --expect judges a run's outputs.
struct OutputJudge {
  /// One budget per output; empty: by --rtol/--atol.
  std::vector<bisect::Budget> budgets;
  std::string profile;
  /// Runs the same-format CPU reference and the fp64 oracle, outputs in
  /// order (a saved schedule's: its kernels in the reference's and the
  /// oracle's arithmetic, sim::Options::Arithmetic).
  std::function<Status(std::vector<ref::Tensor> &same,
                       std::vector<ref::Tensor> &oracle)>
      references;
  /// Where the references' diagnostics go (swallowed: they are optional).
  mlir::MLIRContext *ctx = nullptr;
};

/// The judge of a run of the graph `main` on `t` (the CPU reference:
/// `t` default-constructed) with arguments `args`; `t`, `main` and `args`
/// must outlive it.
OutputJudge modelJudge(const RunOptions &opts, const target::Target &t,
                       mlir::func::FuncOp main,
                       llvm::ArrayRef<ref::Tensor> args);

/// The judge of a saved schedule's run with arguments `args`: each
/// output's budget from the graph op its kernel yields it from and the
/// roundings on its chain through the kernels, as modelJudge's; `t`,
/// `program` and `args` must outlive it.
OutputJudge scheduleJudge(const RunOptions &opts, const target::Target &t,
                          sched::ProgramOp program,
                          llvm::ArrayRef<ref::Tensor> args);

/// Checks `results` against `expected` (same count) as `judge` says.
std::vector<Comparison> checkOutputs(llvm::ArrayRef<ref::Tensor> results,
                                     llvm::ArrayRef<ref::Tensor> expected,
                                     const RunOptions &opts,
                                     const OutputJudge &judge);

/// The text after an output's line ("  ok (...)", "  MISMATCH: ...").
std::string checkText(const Comparison &c, llvm::ArrayRef<int64_t> shape);

/// The `check` object of dfa.run/1.
void checkJson(llvm::json::OStream &j, const Comparison &c,
               llvm::ArrayRef<int64_t> shape);

} // namespace dfa::driver

#endif // LIB_DRIVER_RUNCHECK_H
