//===- BisectRun.h - dfa-bisect's executions (private) ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The pieces of lib/Driver/Bisect.cpp that run things: a graph module
/// compiled to a stage and executed there (the CPU reference for the graph
/// stages, the simulator for the schedule), the graph cut after one node
/// (a prefix) or reduced to one node fed given values (isolated), and the
/// comparison of a value under the tolerance model.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_DRIVER_BISECTRUN_H
#define LIB_DRIVER_BISECTRUN_H

#include "dfa/Bisect/Bisect.h"
#include "dfa/Driver/Driver.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Sim/Sim.h"
#include "dfa/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>

namespace dfa::driver {

struct BisectEnv {
  const BisectOptions &opts;
  mlir::MLIRContext &ctx;
  DiagnosticPrinter &printer;
  target::Target target;
  bisect::Profile profile;
  std::map<std::string, double> nodeUlps; // --tolerance NODE=ULPS
  CompileOptions compile;                 // target dirs and the fault
  /// The last stage compiled and run (--stop-after; default the schedule)
  /// and the pass executions of it (-1: all).
  int stopStage = 5;
  int stopPasses = -1;
};

/// A module compiled to a stage and run.
struct Execution {
  /// "" when it ran; else compile, runtime, race or deadlock.
  std::string failure, message, failedStage;
  std::vector<ref::Tensor> outputs;
  std::vector<std::string> warnings;
  mlir::OwningOpRef<mlir::ModuleOp> module; // the compiled module
};

/// Compiles a clone of `graph` through stage `stage` (with only
/// `passLimit` pass executions in that stage, when >= 0) and runs it on
/// `args`. Graph-stage results are rounded to the target's storage formats.
Execution execute(BisectEnv &env, mlir::ModuleOp graph, int stage,
                  llvm::ArrayRef<ref::Tensor> args, int passLimit = -1);
/// Runs the schedule in `compiled` again on `args`.
Execution rerun(BisectEnv &env, mlir::ModuleOp compiled,
                llvm::ArrayRef<ref::Tensor> args);

/// The graph ops a prefix can end at, in order (not constants or weights).
std::vector<mlir::Operation *> nodesOf(mlir::func::FuncOp main);
/// The source node name of an op (its NameLoc).
std::string nodeName(mlir::Operation *op);
/// A clone of `graph` whose @main returns the results of its `index`-th
/// node (nodesOf order), everything after it removed.
mlir::OwningOpRef<mlir::ModuleOp> prefix(mlir::ModuleOp graph, size_t index);
/// A module whose @main is `op` alone: its constant operands cloned, the
/// others arguments (in operand order; `argsOf` lists their values).
mlir::OwningOpRef<mlir::ModuleOp> isolate(mlir::Operation *op,
                                          llvm::SmallVectorImpl<mlir::Value> &argsOf);

/// The format `t` stores elements of `elt` in (its own, when none other).
bisect::Format storedFormat(const target::Target &t, mlir::Type elt);

/// What a value `producer` makes (of `type`; null producer: a graph
/// input) is held to on `t` under `p`: its tolerance class and reduction
/// length, the format `t` stores it in, and `t`'s accumulator. dfa-bisect
/// and dfa-run's --expect both judge by it.
bisect::Budget budgetOf(const target::Target &t, mlir::Operation *producer,
                        mlir::Type type, const bisect::Profile &p,
                        bool accumulated,
                        bisect::ProducerFn producerOf = nullptr);

/// Compares `got` with `want` (and the oracle) for the value `producer`
/// makes (null: a graph input).
bisect::Comparison compareValue(BisectEnv &env, llvm::StringRef name,
                                mlir::Operation *producer, mlir::Type type,
                                const ref::Tensor &got, const ref::Tensor &want,
                                const ref::Tensor &oracle, bool accumulated);

} // namespace dfa::driver

#endif // LIB_DRIVER_BISECTRUN_H
