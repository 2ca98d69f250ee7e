//===- TargetFuzz.h - a fuzzed description compiled and timed ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The body of the target fuzzers (dfa.target/1 JSON, SCALE-Sim .cfg): a
/// description the loader accepts must be one the compiler and the
/// simulator can use. A small transformer-style graph is compiled for it
/// and its schedule timed; the answer is a schedule or a documented error,
/// never a crash or an internal error.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_FUZZ_TARGETFUZZ_H
#define DFA_FUZZ_TARGETFUZZ_H

#include "FuzzSupport.h"

#include "lib/Driver/Pipeline.h"

#include "dfa/Sim/Sim.h"
#include "dfa/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

namespace dfa::fuzz {

inline const char *const kGraph = R"mlir(
func.func @main(%x: tensor<8x64xf32> {graph.name = "x"}) -> (tensor<8x64xf32> {graph.name = "y"}) {
  %w = graph.constant dense<0.125> : tensor<64x64xf32> loc("w")
  %g = graph.constant dense<1.5> : tensor<64xf32> loc("gamma")
  %b = graph.constant dense<0.25> : tensor<64xf32> loc("beta")
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32> loc("proj")
  %1 = graph.add %0, %x : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32> loc("residual")
  %2 = graph.layer_norm %1, %g, %b {axis = 1 : i64} : (tensor<8x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<8x64xf32> loc("ln")
  %3 = graph.softmax %2 {axis = 1 : i64} : tensor<8x64xf32> loc("sm")
  return %3 : tensor<8x64xf32>
}
)mlir";

/// Compiles the graph for `t` and simulates its schedule.
inline void compileAndTime(const target::Target &t) {
  (void)target::summary(t);

  auto ctx = driver::createContext();
  ctx->getDiagEngine().registerHandler(
      [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kGraph, ctx.get());
  if (!module)
    fuzz::bug("the built-in graph does not parse");
  // The pipeline takes the parsed description itself.
  driver::DiagnosticPrinter printer(*ctx, "fuzz");
  driver::CompileOptions opts;
  Status s = driver::runPipeline(*module, t, 0, driver::kSchedStage, opts,
                                 printer);
  if (s == Status::Internal)
    fuzz::bug("internal error compiling for the description");
  if (s != Status::Ok)
    return;
  sched::ProgramOp program;
  module->walk([&](sched::ProgramOp p) { program = p; });
  if (!program)
    fuzz::bug("a compile succeeded without a schedule");
  sim::Options simOpts;
  simOpts.values = false;
  sim::Result result;
  s = sim::simulate(program, t, {}, simOpts, result);
  if (s == Status::Internal)
    fuzz::bug("internal error simulating for the description");
}

} // namespace dfa::fuzz

#endif // DFA_FUZZ_TARGETFUZZ_H
