//===- dfa-roofline.cpp - profile schedules against their rooflines ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Driver/Tools.h"
#include "dfa/Support/Status.h"
#include "dfa/Transforms/Schedule.h"

#include <CLI/CLI.hpp>

int main(int argc, char **argv) {
  dfa::driver::RooflineOptions o;
  CLI::App app{"dfa-roofline: where each kernel sits against its target's "
               "compute, memory-level and scheduling bounds"};
  app.set_version_flag("--version", "dfa-roofline " DFA_VERSION);
  app.add_option("model", o.model.model,
                 "Model file (.onnx, .fx.json, .mlir) or a saved .sched.mlir")
      ->required();
  app.add_option("schedules", o.schedules,
                 "More saved .sched.mlir files (for other targets)");
  app.add_option("--target", o.target,
                 "Targets: NAME[,NAME...] or all (every accelerator; default)");
  app.add_option("--target-dir", o.targetDirs,
                 "Directory of extra target descriptions (searched first)")
      ->take_all();
  app.add_flag("--analytic", o.analytic,
               "The cost model's times, without simulating (a quick look)");
  app.add_flag("--json", o.json, "Print a dfa.roofline/1 JSON report on stdout");
  app.add_option("--csv", o.csv, "Write one row per kernel and level to FILE");
  app.add_option("--svg", o.svg,
                 "Write the chart to FILE (FILE-TARGET.svg for several targets)");
  app.add_option("--html", o.html,
                 "Write the self-contained landscape report to FILE");
  app.add_option("--top", o.top, "Kernels per target in the table (0: all)");
  app.add_option("--shape", o.model.shapes,
                 "Static shape for a dynamic input: NAME=D0,D1,...")
      ->take_all();
  app.add_option("--inject", o.inject,
                 "Plant a compiler fault, for tests and teaching: " +
                     dfa::faultHelp())
      ->check(CLI::IsMember(dfa::faultNames()));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : dfa::exitCode(dfa::Status::Usage);
  }
  return dfa::driver::rooflineMain(o);
}
