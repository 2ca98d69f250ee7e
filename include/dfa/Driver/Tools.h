//===- Tools.h - entry points of dfa-compile and dfa-run --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The tools' mains parse flags into these structs and call these functions;
/// everything else lives here, in the library, where tests can reach it.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_DRIVER_TOOLS_H
#define DFA_DRIVER_TOOLS_H

#include "dfa/Target/Target.h"

#include <map>
#include <string>
#include <vector>

namespace dfa::driver {

/// Flags shared by every tool that reads a model.
struct ModelFlags {
  std::string model;
  std::vector<std::string> shapes;      // name=d0,d1,...
  std::vector<std::string> dims;        // symbolic dim NAME=N
  std::vector<std::string> specialize;  // NAME or NAME=FILE
  /// Bounds of data-dependent dims, NAME=N (`--max-dim`).
  std::vector<std::string> maxDims;
  /// Shape buckets of symbolic dims, NAME=S1,S2,... (`--buckets`): a size
  /// is padded up to the next bucket and compiled once per bucket.
  std::vector<std::string> buckets;
  bool noWeights = false;
  /// `--max-memory` as given ("" for the default; dfa/Support/Limits.h).
  std::string maxMemory;
  /// --threads N (0: not given; DFA_THREADS or every core).
  int threads = 0;
  /// `--quiet`: no progress line (dfa/Support/Progress.h).
  bool quiet = false;
};

struct CompileOptions {
  ModelFlags model;
  std::string output = "-";
  /// Stage to emit; empty: `graph` without a target, else `sched`.
  std::string emit;
  /// The stage the input file was dumped at (`--compile-from`).
  std::string compileFrom;
  /// Write the IR after every stage per target here (`--dump-dir`).
  std::string dumpDir;
  bool check = false;
  bool json = false;
  bool printLocations = false;
  bool listTargets = false;
  std::vector<std::string> targetDirs;
  /// `--set KEY=VALUE` overrides of the target descriptions (Registry).
  std::vector<std::string> overrides;
  /// `NAME[,NAME...]` or `all`.
  std::string target;
  bool remarks = false;
  /// A fault the compiler plants on purpose (`--inject`), for tests and
  /// teaching (knownFaults()).
  std::string inject;
  /// How f32 matrix ops compute (`--fp32-matmul`: ieee, tf32, bf16, bf16x3).
  std::string fp32Matmul = "ieee";
  /// Chips of a tensor-parallel group (`--tensor-parallel`; 1: none): the
  /// schedule is one chip's program of that many (graph-shard).
  int64_t tensorParallel = 1;
  /// MLIR's pass-manager, timing, IR-printing and context options
  /// (`--mlir-*`), as given (parseMlirOptions).
  std::vector<std::string> mlirOptions;
  /// Run only this many pass executions of the last stage (an MLIR debug
  /// counter on "pass-execution"; -1: all). dfa-bisect's pass bisection.
  int lastStagePassLimit = -1;
};

struct RunOptions {
  ModelFlags model;
  std::string target = dfa::target::kReferenceTarget;
  std::vector<std::string> inputs;
  std::vector<std::string> expect;
  std::string testData;
  std::string outputs;
  uint64_t seed = 0;
  /// --expect judges each output by dfa-bisect's tolerance model (op
  /// class, reduction length, stored format) under `toleranceProfile`;
  /// a given --rtol or --atol (`explicitTolerance`) judges by those
  /// instead, numpy.allclose-style.
  std::string toleranceProfile = "lenient";
  double rtol = 1e-3, atol = 1e-7;
  bool explicitTolerance = false;
  bool json = false;
  bool fp64Accumulate = false;
  /// On the CPU reference: evaluate this many times in the process and
  /// report the best and the median (a benchmark's warm runs).
  int64_t repeat = 1;
  /// Specialize any graph input the import needs at compile time, taking
  /// its value from the inputs.
  bool specializeAsNeeded = false;
  /// Compiled targets: extra description folders, a fault to plant, the
  /// Chrome trace to write, and time only (no values).
  std::vector<std::string> targetDirs;
  /// `--set KEY=VALUE` overrides of the target descriptions (Registry).
  std::vector<std::string> overrides;
  std::string inject;
  std::string fp32Matmul = "ieee";
  int64_t tensorParallel = 1;
  std::string trace;
  bool timeOnly = false;
  /// `--requests FILE`: replay a JSONL stream of requests through a compile
  /// cache (lib/Driver/Requests.h), with `--buckets`, buckets suggested
  /// from the stream (`suggestBuckets` of them per dim; 0: none), every
  /// bucket compiled first (`warmup`), and TorchDynamo's recompile limit.
  std::string requests;
  int64_t suggestBuckets = 0;
  bool warmup = false;
  int64_t recompileLimit = 8;
};

/// Return the process exit code (docs/cli.md).
struct RooflineOptions {
  ModelFlags model;
  /// More saved schedules (`.sched.mlir`), profiled with the first input.
  std::vector<std::string> schedules;
  /// `NAME[,NAME...]` or `all` (every accelerator; the CPU has no schedule).
  std::string target = "all";
  std::vector<std::string> targetDirs;
  /// `--set KEY=VALUE` overrides of the target descriptions (Registry).
  std::vector<std::string> overrides;
  /// The cost model's times, no simulation.
  bool analytic = false;
  bool json = false;
  std::string csv, svg, html;
  /// Rows of the terminal table per target (0: all).
  size_t top = 20;
  /// The terminal table by source node instead of by kernel.
  bool byNode = false;
  /// After each table, the critical path (simulated reports only).
  bool criticalPath = false;
  /// The source graph drawn (SVG through Graphviz) and its DOT source; one
  /// or two targets a file, FILE-TARGET.ext each for more.
  std::string graph, dot;
  /// Module groups the drawing keeps open.
  std::vector<std::string> expand;
  std::string inject;
  std::string fp32Matmul = "ieee";
  int64_t tensorParallel = 1;
  /// LLM mode (`--llm`): the phases to sweep, "prefill" and/or "decode",
  /// at every batch and context.
  std::vector<std::string> llm;
  std::vector<int64_t> batches{1, 8, 32}, contexts{512};
  /// The roles of the model's symbolic dims, when their names do not say:
  /// batch=NAME, seq=NAME, past=NAME.
  std::vector<std::string> llmDims;
  /// The KV cache's serving options: paged blocks of `kvBlock` tokens (0:
  /// one contiguous cache per sequence), a prefix of `prefixTokens`
  /// shared by every sequence of the batch and computed once, and prefill
  /// in chunks of `prefillChunk` tokens (0: one step).
  int64_t kvBlock = 0, prefixTokens = 0, prefillChunk = 0;
  /// A PyTorch Profiler trace (Chrome JSON) of the same model, set against
  /// each target's report (`--measured`).
  std::string measured;
};

/// dfa-sweep's options (docs/tools/dfa-sweep.md).
struct SweepOptions {
  /// The spec (`dfa.sweep/1`, JSON or YAML).
  std::string spec;
  /// The results file (`-o`; default SPEC's name with .results.jsonl), the
  /// report's HTML, or merge's output.
  std::string output;
  /// Worker processes (0: every core).
  int jobs = 0;
  /// `I/N`: only the points whose index is I modulo N.
  std::string shard;
  /// Write a Slurm job array of `slurmTasks` shards (0: up to 16) and
  /// submit it with `sbatch` (`--sbatch PATH`, extra `--slurm-arg`s);
  /// `slurmNoSubmit` only writes the script.
  bool slurm = false, slurmNoSubmit = false;
  int64_t slurmTasks = 0;
  std::string sbatch;
  std::vector<std::string> slurmArgs;
  bool quiet = false;
  /// report and merge: the results files; report's axes and title.
  std::vector<std::string> files;
  std::string x, y, title;
};
int sweepMain(const SweepOptions &opts);
int sweepReportMain(const SweepOptions &opts);
int sweepMergeMain(const SweepOptions &opts);

/// dfa-bisect's options; its exit codes are its own (dfa/Bisect/Bisect.h).
struct BisectOptions {
  /// The model, inputs (--inputs, --test-data, --seed), --expect, the
  /// target, its description folders and the fault to plant.
  RunOptions run;
  /// "strict" or "lenient".
  std::string profile = "strict";
  /// Per-node ULP budgets: NODE=ULPS.
  std::vector<std::string> tolerances;
  bool json = false;
  /// Predicate mode for reducers: compare the outputs only and exit with
  /// the verdict's code; with `interesting` >= 0, exit 0 when the code is
  /// that one and 1 otherwise.
  bool check = false;
  int interesting = -1;
  /// Delta-debug the failing graph into this folder (a reproducer).
  std::string reduce;
  /// Compare every node's value (a prefix run each) instead of bisecting.
  bool allNodes = false;
  /// Compile and run only through STAGE (or its first N passes:
  /// STAGE:N), judging that stage's IR on the CPU reference.
  std::string stopAfter;
};

int compileMain(const CompileOptions &options);
int bisectMain(const BisectOptions &options);
int runMain(const RunOptions &options);
/// dfa-run --requests FILE: a stream through a compile cache.
int requestsMain(const RunOptions &options);
/// dfa-bisect --requests FILE: a recompile storm is a layer-2 failure.
int bisectRequestsMain(const BisectOptions &options);
int rooflineMain(const RooflineOptions &options);

} // namespace dfa::driver

#endif // DFA_DRIVER_TOOLS_H
