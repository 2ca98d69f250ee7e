//===- dfa-compile.cpp - import and compile models --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Driver/ToolFlags.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Support/Status.h"

#include "dfa/Pipeline/Pipeline.h"

#include <CLI/CLI.hpp>

/// The stage names, as CLI11 checks them.
static std::vector<std::string> stages() {
  std::vector<std::string> names;
  for (llvm::StringRef n : dfa::stageNames())
    names.push_back(n.str());
  return names;
}

int main(int argc, char **argv) {
  dfa::driver::CompileOptions o;
  // Every stage but the last can be resumed from.
  std::vector<std::string> resumable = stages();
  resumable.pop_back();
  CLI::App app{"dfa-compile: import a model (ONNX, FX, a SCALE-Sim topology or MLIR) into the graph "
               "dialect and compile it"};
  app.set_version_flag("--version", "dfa-compile " DFA_VERSION);
  app.add_option("model", o.model.model, "Model file (.onnx, .fx.json, a SCALE-Sim topology .csv, .mlir)");
  app.add_option("-o,--output", o.output, "Output file ('-' for stdout)");
  app.add_option("--emit", o.emit,
                 "Stage to emit (default: graph without --target, sched with)")
      ->check(CLI::IsMember(stages()));
  app.add_flag("--check", o.check,
               "List the op types the model uses that dfa does not support "
               "(exit 3 when there are any)");
  app.add_flag("--json", o.json,
               "Machine-readable output (with --check or --list-targets)");
  dfa::driver::addShapeFlags(app, o.model);
  dfa::driver::addBucketsFlag(app, o.model);
  dfa::driver::addMaxMemoryFlag(app, o.model);
  dfa::driver::addThreadsFlag(app, o.model);
  dfa::driver::addQuietFlag(app, o.model.quiet);
  app.add_option("--specialize", o.model.specialize,
                 "Fix an input's value at compile time: NAME=FILE (.pb/.npy)")
      ->take_all();
  app.add_flag("--no-weights", o.model.noWeights,
               "Import shapes only: weights are not referenced");
  app.add_flag("--print-locations", o.printLocations,
               "Print each op's source location");
  app.add_option("--target", o.target,
                 "Targets to compile for: NAME[,NAME...] (a name, or a description file: .json or a SCALE-Sim .cfg) or all");
  dfa::driver::addInjectOption(app, o.inject);
  dfa::driver::addFp32MatmulOption(app, o.fp32Matmul);
  dfa::driver::addTensorParallelOption(app, o.tensorParallel);
  app.add_option("--dump-dir", o.dumpDir,
                 "Write the IR after every stage to DIR/<target>/NN-<stage>.mlir");
  app.add_option("--compile-from", o.compileFrom,
                 "The input is a file dumped at this stage: resume after it")
      ->check(CLI::IsMember(resumable));
  app.add_flag("--remarks", o.remarks, "Report what each pass decided");
  app.add_flag("--list-targets", o.listTargets,
               "List the target descriptions found, one line of key numbers each");
  app.add_option("--target-dir", o.targetDirs,
                 "Directory of extra target descriptions (searched first)")
      ->take_all();
  dfa::driver::addSetOption(app, o.overrides);
  app.footer("MLIR's pass-manager options are taken as well: --mlir-timing, "
             "--mlir-print-ir-after-all, --mlir-pass-statistics, "
             "--mlir-pass-pipeline-crash-reproducer=FILE and the other "
             "--mlir-* options of mlir-opt (docs/cli.md).");
  // MLIR's options go to MLIR's parser, the rest to ours.
  std::vector<const char *> args;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef a(argv[i]);
    if (i > 0 && (a.starts_with("--mlir-") || a.starts_with("-mlir-")))
      o.mlirOptions.push_back(a.str());
    else
      args.push_back(argv[i]);
  }
  try {
    app.parse(int(args.size()), args.data());
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : dfa::exitCode(dfa::Status::Usage);
  }
  if (!dfa::driver::applyThreads(o.model, "dfa-compile"))
    return dfa::exitCode(dfa::Status::Usage);
  dfa::driver::applyMaxMemory(o.model, "dfa-compile");
  dfa::progress::init("dfa-compile", o.model.quiet);
  return dfa::driver::compileMain(o);
}
