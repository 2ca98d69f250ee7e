//===- Bisect.h - dfa-bisect's findings, classification and report -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// What dfa-bisect found, and what it makes of it. The driver
/// (lib/Driver/Bisect.cpp) runs the references, the compiled schedule and
/// the stage ladder and fills a Findings; classify() reads the evidence
/// into one of the eight layers of the taxonomy (design section 9), with a
/// confidence and the runner-up; the report is a one-line verdict, a few
/// lines of detail, or `dfa.bisect/1` JSON.
///
/// Exit codes (docs/cli.md): 0 pass, 10 logic mismatch, 11 numerics over
/// budget, 20 compile failure, 21 runtime failure, 22 deadlock or timeout,
/// 30 nondeterministic, 64 usage, 70 internal.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_BISECT_BISECT_H
#define DFA_BISECT_BISECT_H

#include "dfa/Bisect/Pattern.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace dfa::bisect {

enum ExitCode : int {
  Pass = 0,
  LogicMismatch = 10,
  NumericMismatch = 11,
  /// The run needs more memory than --max-memory (the tools' code 14).
  LimitExceeded = 14,
  CompileFailure = 20,
  RuntimeFailure = 21,
  Deadlock = 22,
  Nondeterministic = 30,
  Usage = 64,
  Internal = 70,
};

/// The taxonomy's layers, 1 to 8.
const char *layerName(int layer);

/// One value compared: a graph output, or a node's result.
struct Comparison {
  std::string name; // output or node name
  std::string op;   // the graph op that makes it ("graph.reshape")
  OpClass cls = OpClass::Elementwise;
  std::string dtype, storedFormat;
  std::vector<int64_t> shape;
  Metrics metrics;
  Pattern pattern;
  bool failed() const { return metrics.failed(); }
};

/// One rung of the stage ladder.
struct Rung {
  std::string stage;
  /// ok, mismatch, compile-error, runtime-error, race, deadlock.
  std::string status;
  std::string detail; // the diagnostic, or the worst output
};

struct Findings {
  std::string model, target, profile, inject;
  /// The target description's `--set` overrides, KEY: VALUE.
  llvm::json::Object overrides;
  /// How the run failed before any values: "" (it ran), "compile",
  /// "runtime", "race", "deadlock".
  std::string failure;
  std::string failureMessage;
  std::string failureStage;
  std::vector<Comparison> outputs;
  std::vector<Rung> ladder;
  /// The first stage whose IR computes a wrong answer, and the pass.
  std::string stage, pass;
  /// The first source node (graph order) whose value diverges, with
  /// device values flowing (accumulated) ...
  std::optional<Comparison> node;
  std::string kernel; // the kernel that computes it on the target
  /// --all-nodes: every node's value in graph order (a node whose prefix
  /// does not run has pattern "did not run").
  std::vector<Comparison> nodes;
  /// ... and the node alone fed the reference's inputs (isolated).
  std::optional<bool> isolatedFails;
  int64_t prefixRuns = 0;
  /// Probes: the same schedule with matrix kernels accumulating in f32;
  /// the reference's outputs against --expect or --test-data; a second
  /// run of the schedule.
  std::optional<bool> f32AccumulatorFixes;
  /// The model compiled again with graph-shard's partial sums in the
  /// accumulator's format (compute.partial_sums "accumulator"): whether
  /// that removes the error (none where the target keeps them so already
  /// or no product is split along K).
  std::optional<bool> partialSumsFixes;
  /// The node's wrong result is the reference's on this operand read with
  /// its two minor strides swapped.
  std::optional<int> swappedOperand;
  std::optional<bool> referenceMatchesExpected;
  bool nondeterministic = false;
  /// --reduce: graph nodes before and after, checks made, the folder.
  int64_t reducedFrom = -1, reducedTo = -1, reduceChecks = 0;
  bool shapesReduced = false;
  /// A graph that breaks, run in segments: how many device segments, and
  /// the one the findings are in (-1: none, or a whole graph).
  int segments = 0, segment = -1;
  /// A value that reached the device other than the host sent it, across
  /// the host link: its name, the segment that read it, what arrived
  /// (`layout`: the sent value with its two minor strides swapped;
  /// `stale`: an earlier value of its size, or zeros; `bytes`: neither),
  /// and the evidence in words.
  struct Boundary {
    std::string value, kind, evidence;
    int64_t elements = 0, differing = 0;
  };
  std::optional<Boundary> boundary;
  /// Outputs differ though every segment and every transfer is right on
  /// its own: a host decision (a count, a branch) took drifted values.
  bool hostDivergence = false;
  /// The shortest pipeline that still fails the same way.
  std::string pipeline;
  std::string reproducer;
};

struct Classification {
  int layer = 0; // 0: no failure
  double confidence = 0;
  std::vector<std::string> evidence;
  int runnerUp = 0;
  std::string runnerUpWhyNot;
  ExitCode exitCode = Pass;
  /// pass, logic, numeric, compile, runtime, deadlock, nondeterministic.
  std::string verdict = "pass";
};

Classification classify(const Findings &f);

/// "FAIL y f16[65] on spyre: 1/65 ... -> layer 5 tiling & layout (...)".
std::string verdictLine(const Findings &f, const Classification &c);
void printReport(const Findings &f, const Classification &c,
                 llvm::raw_ostream &os);
void writeJson(const Findings &f, const Classification &c,
               llvm::raw_ostream &os);

} // namespace dfa::bisect

#endif // DFA_BISECT_BISECT_H
