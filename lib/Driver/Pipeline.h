//===- Pipeline.h - the per-target compile pipeline -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Driver: dfa-compile and dfa-run (which compiles before it
/// simulates) share the stage pipeline.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_DRIVER_PIPELINE_H
#define LIB_DRIVER_PIPELINE_H

#include "dfa/Driver/Driver.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace dfa::driver {

/// The pipeline's stages, in order; `--emit`, `--compile-from` and the
/// `--dump-dir` file names use these names.
inline const char *const kStages[] = {"graph",  "decomposed", "fused",
                                      "tiled",  "laid-out",   "sched"};
constexpr int kNumStages = 6;
constexpr int kSchedStage = 5;

/// The passes each stage runs, in order (the sched stage's lowering is the
/// convert-graph-to-sched pass's work).
inline const std::vector<std::vector<const char *>> &stagePasses() {
  static const std::vector<std::vector<const char *>> passes = {
      {},
      {"graph-raise", "graph-decompose"},
      {"graph-fuse"},
      {"graph-tile"},
      {"graph-layout"},
      {"convert-graph-to-sched"}};
  return passes;
}

/// The index of a stage name, or -1.
int stageIndex(llvm::StringRef name);

/// Runs stages (from, to] on `module` for `t`, dumping after each when
/// `opts.dumpDir` is set; every schedule is verified.
Status runPipeline(mlir::ModuleOp module, const target::Target &t, int from,
                   int to, const CompileOptions &opts,
                   DiagnosticPrinter &printer);

} // namespace dfa::driver

#endif // LIB_DRIVER_PIPELINE_H
