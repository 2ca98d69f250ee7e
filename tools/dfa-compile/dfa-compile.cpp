//===- dfa-compile.cpp - import and compile models --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Driver/ToolFlags.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Support/Status.h"

#include <CLI/CLI.hpp>

int main(int argc, char **argv) {
  dfa::driver::CompileOptions o;
  CLI::App app{"dfa-compile: import a model (ONNX or MLIR) into the graph "
               "dialect and compile it"};
  app.set_version_flag("--version", "dfa-compile " DFA_VERSION);
  app.add_option("model", o.model.model, "Model file (.onnx, .fx.json, .mlir)");
  app.add_option("-o,--output", o.output, "Output file ('-' for stdout)");
  app.add_option("--emit", o.emit,
                 "Stage to emit (default: graph without --target, sched with)")
      ->check(CLI::IsMember({"graph", "decomposed", "fused", "tiled",
                             "laid-out", "sched"}));
  app.add_flag("--check", o.check,
               "List the op types the model uses that dfa does not support "
               "(exit 3 when there are any)");
  app.add_flag("--json", o.json,
               "Machine-readable output (with --check or --list-targets)");
  dfa::driver::addShapeFlags(app, o.model);
  dfa::driver::addMaxMemoryFlag(app, o.model);
  app.add_option("--specialize", o.model.specialize,
                 "Fix an input's value at compile time: NAME=FILE (.pb/.npy)")
      ->take_all();
  app.add_flag("--no-weights", o.model.noWeights,
               "Import shapes only: weights are not referenced");
  app.add_flag("--print-locations", o.printLocations,
               "Print each op's source location");
  app.add_option("--target", o.target,
                 "Targets to compile for: NAME[,NAME...] or all");
  dfa::driver::addInjectOption(app, o.inject);
  app.add_option("--dump-dir", o.dumpDir,
                 "Write the IR after every stage to DIR/<target>/NN-<stage>.mlir");
  app.add_option("--compile-from", o.compileFrom,
                 "The input is a file dumped at this stage: resume after it")
      ->check(CLI::IsMember({"graph", "decomposed", "fused", "tiled", "laid-out"}));
  app.add_flag("--remarks", o.remarks, "Report what each pass decided");
  app.add_flag("--list-targets", o.listTargets,
               "List the target descriptions found, one line of key numbers each");
  app.add_option("--target-dir", o.targetDirs,
                 "Directory of extra target descriptions (searched first)")
      ->take_all();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : dfa::exitCode(dfa::Status::Usage);
  }
  dfa::driver::applyMaxMemory(o.model, "dfa-compile");
  return dfa::driver::compileMain(o);
}
