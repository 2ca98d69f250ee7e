//===- dfa-bisect.cpp - where a compiled answer first goes wrong, and why ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Bisect/Bisect.h"
#include "dfa/Driver/ToolFlags.h"
#include "dfa/Driver/Tools.h"

#include <CLI/CLI.hpp>

int main(int argc, char **argv) {
  dfa::driver::BisectOptions o;
  dfa::driver::RunOptions &r = o.run;
  r.target = "";
  CLI::App app{"dfa-bisect: compare a target's compiled answer with the "
               "references; find the first stage, pass and node where it "
               "goes wrong, and classify why"};
  app.set_version_flag("--version", "dfa-bisect " DFA_VERSION);
  app.add_option("model", r.model.model, "Model file (.onnx, .fx.json, a SCALE-Sim topology .csv, .mlir)")
      ->required();
  app.add_option("--target", r.target, "Target whose schedule to check")
      ->required();
  app.add_option("--target-dir", r.targetDirs,
                 "Directory of extra target descriptions (searched first)")
      ->take_all();
  dfa::driver::addSetOption(app, r.overrides);
  app.add_option("--inputs", r.inputs,
                 "Input tensors (.pb or .npy), one per model input")
      ->take_all();
  app.add_option("--expect", r.expect,
                 "Expected outputs: the reference is checked against them")
      ->take_all();
  app.add_option("--test-data", r.testData,
                 "ONNX test-data folder (input_N.pb, output_N.pb)");
  app.add_option("--seed", r.seed, "Seed for random inputs (when none given)");
  dfa::driver::addInjectOption(app, r.inject);
  dfa::driver::addFp32MatmulOption(app, r.fp32Matmul);
  app.add_option("--profile", o.profile,
                 "Tolerance profile: strict (CI, default) or lenient (bring-up)")
      ->check(CLI::IsMember({"strict", "lenient"}));
  app.add_option("--tolerance", o.tolerances,
                 "A node's budget in ULPs of its stored format: NODE=ULPS")
      ->take_all();
  app.add_flag("--json", o.json, "Print the dfa.bisect/1 report on stdout");
  app.add_flag("--check", o.check,
               "Predicate mode: compare the outputs only; the exit code is "
               "the verdict's");
  app.add_option("--interesting", o.interesting,
                 "With --check: exit 0 when the verdict's code is CODE, else "
                 "1 (for reducers)");
  app.add_option("--reduce", o.reduce,
                 "Delta-debug the failing graph; write the reproducer (IR, "
                 "inputs, run.sh) to DIR");
  app.add_flag("--all-nodes", o.allNodes,
               "Compare every node's value in graph order (a run each) "
               "instead of bisecting prefixes");
  app.add_option("--stop-after", o.stopAfter,
                 "Compile and run only through STAGE (or its first N passes: "
                 "STAGE:N), judging that stage's IR on the CPU reference");
  dfa::driver::addShapeFlags(app, r.model);
  dfa::driver::addMaxMemoryFlag(app, r.model);
  dfa::driver::addThreadsFlag(app, r.model);
  dfa::driver::addQuietFlag(app, r.model.quiet);
  app.add_option("--specialize", r.model.specialize,
                 "Fix an input's value at compile time: NAME or NAME=FILE")
      ->take_all();
  app.add_option("--requests", r.requests,
                 "Replay a stream of requests (JSONL, as dfa-run --requests) "
                 "through the compile cache: a recompile storm is a layer-2 "
                 "failure (capture and guards), the guard that kept failing "
                 "its evidence");
  dfa::driver::addBucketsFlag(app, r.model);
  dfa::driver::addRecompileLimitFlag(app, r.recompileLimit);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : int(dfa::bisect::Usage);
  }
  if (!dfa::driver::applyThreads(r.model, "dfa-bisect"))
    return dfa::exitCode(dfa::Status::Usage);
  dfa::driver::applyMaxMemory(r.model, "dfa-bisect");
  dfa::progress::init("dfa-bisect", r.model.quiet);
  if (!r.requests.empty())
    return dfa::driver::bisectRequestsMain(o);
  return dfa::driver::bisectMain(o);
}
