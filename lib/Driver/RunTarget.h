//===- RunTarget.h - dfa-run on a compiled target ---------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Driver. dfa-run's path for every target but the CPU
/// reference: compile the model (or take a saved .sched.mlir), simulate
/// the schedule's values and time (lib/Sim), and report the time.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_DRIVER_RUNTARGET_H
#define LIB_DRIVER_RUNTARGET_H

#include "dfa/Driver/Driver.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Sim/Sim.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

namespace dfa::driver {

/// A tensor read from a file, with the name it carries.
struct NamedTensor {
  std::string file, name;
  ref::Tensor tensor;
};

/// A model imported to run, with its arguments and expected outputs.
struct PreparedRun {
  ImportResult model;
  mlir::func::FuncOp func;
  llvm::SmallVector<ref::Tensor> args;
  std::vector<std::string> outNames;
  std::vector<NamedTensor> expected;
  /// The graph breaks at a value known only at run time: it runs in
  /// segments (Partition.h) from these inputs; `model` and `func` are unset.
  bool segmented = false;
  std::map<std::string, ref::Tensor> inputsByName;
};

/// Diagnostics held back while a step runs that a later step may make moot
/// (a retried import, a graph that runs in segments), then released as
/// they were: severity, message and notes.
class HeldDiagnostics {
public:
  /// Holds every diagnostic of `ctx` while the returned handler lives.
  std::unique_ptr<mlir::ScopedDiagnosticHandler> hold(mlir::MLIRContext *ctx);
  /// Emits what was held, and forgets it.
  void release();

private:
  struct Held {
    mlir::Location loc;
    mlir::DiagnosticSeverity severity;
    std::string message;
    std::vector<std::pair<mlir::Location, std::string>> notes;
  };
  std::vector<Held> held;
};

/// Imports `opts.model` (specializing inputs as asked) and makes its
/// arguments, from `inputFiles` (matched by the names they carry, else by
/// position) or seeded random values, and reads `expectFiles`. With
/// `segments`, an ONNX graph that breaks is prepared to run in segments
/// (`out.segmented`) instead of refused.
Status prepareModelRun(const RunOptions &opts,
                       const std::vector<std::string> &inputFiles,
                       const std::vector<std::string> &expectFiles,
                       mlir::MLIRContext &ctx, DiagnosticPrinter &printer,
                       PreparedRun &out, bool segments = false);

/// input_N.pb and output_N.pb of an ONNX test-data folder, in N order.
Status listTestData(llvm::StringRef dir, std::vector<std::string> &inputs,
                    std::vector<std::string> &outputs,
                    DiagnosticPrinter &printer);

/// The schedule in `module`, if it holds one.
sched::ProgramOp findProgram(mlir::ModuleOp module);

/// A graph's work: FLOPs, and the bytes each op reads and writes (before
/// fusion), from the ops' cost interface.
std::pair<double, double> graphWork(mlir::func::FuncOp func);

/// The target a saved schedule names, with the `--set` overrides it was
/// compiled with (graph.target_overrides); `given` (the command line's
/// --set) must be empty or the same, else Status::Usage.
Status scheduleTarget(sched::ProgramOp program,
                      const std::vector<std::string> &targetDirs,
                      const std::vector<std::string> &given,
                      target::Target &t, std::string &error);

/// Loads the description named `name` (searching `opts.targetDirs`).
/// The refusal of --tensor-parallel with a saved schedule (dfa-run,
/// dfa-roofline): it was partitioned, or not, when it was compiled.
inline constexpr const char *kSavedScheduleTensorParallel =
    "--tensor-parallel: a saved schedule is already compiled, partitioned or "
    "not (its module's graph.tensor_parallel says over how many chips)";

Status loadTarget(llvm::StringRef name, const RunOptions &opts,
                  target::Target &t, DiagnosticPrinter &printer);

/// Compiles the graph `module` for `t` into a schedule (in place).
Status compileForRun(mlir::ModuleOp module, const target::Target &t,
                     const RunOptions &opts, DiagnosticPrinter &printer);

/// Simulates `program`; writes the trace when asked.
Status simulateForRun(sched::ProgramOp program, const target::Target &t,
                      llvm::ArrayRef<ref::Tensor> args, const RunOptions &opts,
                      sim::Result &result, DiagnosticPrinter &printer);


/// One line on stderr: simulated time, the plan's, events.
void printTime(const sim::Result &r, const target::Target &t,
               const RunOptions &opts, double wallMs);
/// The "time" member of dfa.run/1.
void timeJson(llvm::json::OStream &j, const sim::Result &r,
              const target::Target &t);

} // namespace dfa::driver

#endif // LIB_DRIVER_RUNTARGET_H
