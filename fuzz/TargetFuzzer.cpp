//===- TargetFuzzer.cpp - libFuzzer harness: target descriptions ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Fuzzes the target-description loader (seeds: targets/*.json;
/// scripts/fuzz.sh target). A rejected description must say why. An
/// accepted one must be one the compiler and the simulator can use: a small
/// transformer-style graph is compiled for it and its schedule timed, and
/// the answer is a schedule or a documented error, never a crash or an
/// internal error.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "lib/Driver/Pipeline.h"

#include "dfa/Sim/Sim.h"
#include "dfa/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/JSON.h"

using namespace dfa;

static const char *const kGraph = R"mlir(
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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  limits::setMaxMemory(fuzz::kFuzzMaxMemory);
  std::string error;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // A description must be named after its file: name the file after the
  // description, so that the loader goes past that check.
  std::string file = "fuzz.json";
  if (limits::nestingDepth(text, false, limits::kMaxNesting) <= limits::kMaxNesting) {
    if (llvm::Expected<llvm::json::Value> v = llvm::json::parse(text)) {
      if (const llvm::json::Object *o = v->getAsObject())
        if (std::optional<llvm::StringRef> name = o->getString("name"))
          file = name->str() + ".json";
    } else {
      llvm::consumeError(v.takeError());
    }
  }
  std::optional<target::Target> t = target::parseTarget(file, text, error);
  if (!t) {
    if (error.empty())
      fuzz::bug("a description was rejected without a reason");
    return 0;
  }
  (void)target::summary(*t);

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
  Status s = driver::runPipeline(*module, *t, 0, driver::kSchedStage, opts,
                                 printer);
  if (s == Status::Internal)
    fuzz::bug("internal error compiling for the description");
  if (s != Status::Ok)
    return 0;
  sched::ProgramOp program;
  module->walk([&](sched::ProgramOp p) { program = p; });
  if (!program)
    fuzz::bug("a compile succeeded without a schedule");
  sim::Options simOpts;
  simOpts.values = false;
  sim::Result result;
  s = sim::simulate(program, *t, {}, simOpts, result);
  if (s == Status::Internal)
    fuzz::bug("internal error simulating for the description");
  return 0;
}
