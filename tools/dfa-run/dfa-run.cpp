//===- dfa-run.cpp - run models on a target ---------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Driver/ToolFlags.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Support/Status.h"

#include <CLI/CLI.hpp>

int main(int argc, char **argv) {
  dfa::driver::RunOptions o;
  CLI::App app{"dfa-run: run a model on a target and check its outputs"};
  app.set_version_flag("--version", "dfa-run " DFA_VERSION);
  app.add_option("model", o.model.model,
                 "Model file (.onnx, .fx.json, a SCALE-Sim topology .csv, .mlir) or a saved .sched.mlir")
      ->required();
  app.add_option("--target", o.target,
                 "Target to run on: cpu (the CPU reference) or any description "
                 "(compiled and simulated): a name or a file (.json, SCALE-Sim .cfg)");
  app.add_option("--target-dir", o.targetDirs,
                 "Directory of extra target descriptions (searched first)")
      ->take_all();
  dfa::driver::addSetOption(app, o.overrides);
  app.add_option("--trace", o.trace,
                 "Write a Chrome trace (open in Perfetto) of the simulation");
  app.add_flag("--time-only", o.timeOnly,
               "Simulate time only, not values (no weight data needed)");
  app.add_flag("--no-weights", o.model.noWeights,
               "Import shapes only, no weight data (implies --time-only)");
  dfa::driver::addInjectOption(app, o.inject);
  dfa::driver::addFp32MatmulOption(app, o.fp32Matmul);
  dfa::driver::addTensorParallelOption(app, o.tensorParallel);
  app.add_option("--inputs", o.inputs,
                 "Input tensors (.pb or .npy), one per model input")
      ->take_all();
  app.add_option("--expect", o.expect,
                 "Expected outputs (.pb or .npy); exit 1 on a mismatch")
      ->take_all();
  app.add_option("--test-data", o.testData,
                 "ONNX test-data folder (input_N.pb, output_N.pb)");
  app.add_option("--outputs", o.outputs, "Folder to write output_N.npy into");
  app.add_option("--seed", o.seed, "Seed for random inputs (when none given)");
  app.add_option("--rtol", o.rtol,
                 "Judge --expect by |got - expected| <= atol + rtol |expected| "
                 "instead of the op-aware budget (default rtol 1e-3)");
  app.add_option("--atol", o.atol,
                 "Absolute tolerance of that rule (default 1e-7)");
  app.add_option("--tolerance-profile", o.toleranceProfile,
                 "Budgets of the op-aware check, as dfa-bisect's --profile")
      ->check(CLI::IsMember({"strict", "lenient"}));
  app.add_flag("--json", o.json, "Print a dfa.run/1 JSON summary on stdout");
  app.add_flag("--fp64-accumulate", o.fp64Accumulate,
               "Accumulate reductions, matmuls and convolutions in double");
  app.add_option("--repeat", o.repeat,
                 "On the CPU reference: evaluate N times in this process and "
                 "report the best and median time (the last run's values)")
      ->check(CLI::Range(int64_t(1), int64_t(1000)));
  dfa::driver::addShapeFlags(app, o.model);
  dfa::driver::addMaxDimFlag(app, o.model);
  dfa::driver::addMaxMemoryFlag(app, o.model);
  dfa::driver::addThreadsFlag(app, o.model);
  dfa::driver::addQuietFlag(app, o.model.quiet);
  app.add_option("--specialize", o.model.specialize,
                 "Fix an input's value at compile time: NAME (from --inputs) "
                 "or NAME=FILE")
      ->take_all();
  app.add_flag("--specialize-as-needed", o.specializeAsNeeded,
               "Specialize every input the compiler needs as a constant");
  app.add_option("--requests", o.requests,
                 "Replay a stream of requests (JSONL, one a line: "
                 "{\"shapes\": {\"x\": [1, 37, 64]}} or \"inputs\": "
                 "{\"x\": \"a.npy\"}) through a compile cache keyed by the "
                 "guards: compiles, cache hits, padding waste, recompile storm, "
                 "exact shapes against --buckets and --suggest-buckets");
  dfa::driver::addBucketsFlag(app, o.model);
  app.add_option("--suggest-buckets", o.suggestBuckets,
                 "With --requests: also replay with the K buckets per dim "
                 "that pad the stream least")
      ->check(CLI::PositiveNumber);
  app.add_flag("--warmup", o.warmup,
               "With --requests: compile every bucket before the stream");
  dfa::driver::addRecompileLimitFlag(app, o.recompileLimit);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : dfa::exitCode(dfa::Status::Usage);
  }
  o.timeOnly |= o.model.noWeights;
  o.explicitTolerance = app.count("--rtol") + app.count("--atol") > 0;
  if (!dfa::driver::applyThreads(o.model, "dfa-run"))
    return dfa::exitCode(dfa::Status::Usage);
  dfa::driver::applyMaxMemory(o.model, "dfa-run");
  dfa::progress::init("dfa-run", o.model.quiet);
  if (!o.requests.empty())
    return dfa::driver::requestsMain(o);
  return dfa::driver::runMain(o);
}
