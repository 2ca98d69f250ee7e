//===- Pipeline.h - running the compile pipeline in the tools ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Driver: dfa-compile, dfa-run, dfa-roofline and dfa-bisect
/// run the library's pipeline (dfa/Pipeline/Pipeline.h) through one
/// function, which adds what the tools need around it: the memory estimate,
/// stage dumps, pass bisection, MLIR's pass-manager options and the exit
/// status of a failure.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_DRIVER_PIPELINE_H
#define LIB_DRIVER_PIPELINE_H

#include "dfa/Driver/Driver.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Pipeline/Stages.h"
#include "dfa/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"

namespace dfa::driver {

/// Stages by index, as the bisector walks them.
inline constexpr int kSchedStage = int(Stage::Sched);
/// The index of a stage name, or -1.
inline int stageIndex(llvm::StringRef name) {
  std::optional<Stage> s = stageNamed(name);
  return s ? int(*s) : -1;
}

/// dfa-compile --check (Check.cpp): the op coverage, then the promise
/// behind it: the model imports, the CPU reference evaluates every op,
/// and it compiles for each --target.
int checkMain(const CompileOptions &opts, mlir::MLIRContext &ctx,
              DiagnosticPrinter &printer);

/// Runs stages (from, to] on `module` for `t` in one pass manager, dumping
/// after each stage when `opts.dumpDir` is set; every schedule is verified.
/// A failure's status is the one the failing pass recorded (DoesNotFit for
/// a model the target cannot hold), else Internal.
Status runPipeline(mlir::ModuleOp module, const target::Target &t, int from,
                   int to, const CompileOptions &opts,
                   DiagnosticPrinter &printer);

} // namespace dfa::driver

#endif // LIB_DRIVER_PIPELINE_H
