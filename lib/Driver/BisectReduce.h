//===- BisectReduce.h - dfa-bisect --reduce (private) -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DRIVER_BISECTREDUCE_H
#define LIB_DRIVER_BISECTREDUCE_H

#include "BisectRun.h"

namespace dfa::driver {

/// What a failure looks like: the exit code and the pattern of the first
/// wrong output. A reduction keeps it.
struct Signature {
  int exitCode = 0;
  std::string pattern;
  bool operator==(const Signature &o) const {
    return exitCode == o.exitCode && pattern == o.pattern;
  }
};

struct Reduction {
  size_t nodesBefore = 0, nodesAfter = 0;
  int64_t checks = 0;
  bool shapesReduced = false;
  /// The shortest pipeline that reproduces: through this stage, with this
  /// many of its passes (-1: all).
  int stopStage = 5, stopPasses = -1;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  llvm::SmallVector<ref::Tensor> args;
};

/// Delta-debugs `graph` (run on `argsStored`) while `check` gives `want`.
Reduction reduce(BisectEnv &env, mlir::ModuleOp graph,
                 llvm::ArrayRef<ref::Tensor> argsStored,
                 std::optional<size_t> firstNode,
                 llvm::function_ref<Signature(mlir::ModuleOp,
                                              llvm::ArrayRef<ref::Tensor>)>
                     check,
                 const Signature &want);

/// Writes the reproducer to `opts.reduce`: repro.mlir, input_N.npy and
/// run.sh (the command; it exits `code` when it fails the same way).
Status writeReproducer(const Reduction &r, const BisectOptions &opts,
                       const std::string &target, const std::string &verdict,
                       int code, DiagnosticPrinter &printer);

} // namespace dfa::driver

#endif // LIB_DRIVER_BISECTREDUCE_H
