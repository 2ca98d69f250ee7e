//===- Classify.cpp - evidence to a layer of the taxonomy -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The rules, strongest evidence first: how the run failed (a compile
/// error names its stage; a deadlock or race is scheduling); which rung of
/// the stage ladder first computes a wrong answer (a graph stage's IR runs
/// on the CPU reference, so its fault is that stage's); and, when only the
/// schedule is wrong, the structure of the bad elements in the device's
/// layout (a tail, a stick position, swapped strides: tiling and layout)
/// against numerics (no structure; a probe with f32 accumulation removes
/// it). Each rule states its evidence and the layer it ruled out.
///
//===----------------------------------------------------------------------===//

#include "dfa/Bisect/Bisect.h"
#include "dfa/Pipeline/Stages.h"

#include "llvm/Support/FormatVariadic.h"

using namespace dfa;
using namespace dfa::bisect;

const char *dfa::bisect::layerName(int layer) {
  static const char *names[] = {"none",
                                "model source",
                                "graph capture and import",
                                "decomposition",
                                "fusion",
                                "tiling and layout",
                                "memory placement",
                                "scheduling and synchronization",
                                "execution numerics"};
  return layer >= 0 && layer <= 8 ? names[layer] : "unknown";
}

namespace {

/// What the partial-sums probe found (Findings::partialSumsFixes). The
/// key is set in the description; --set changes it only where the
/// description names it (as the shipped LPU descriptions do).
constexpr const char *kPartialSumsFix =
    "with graph-shard's partial sums kept in the accumulator's format "
    "(\"partial_sums\": \"accumulator\" in the description's compute; "
    "--set compute.partial_sums=accumulator where it names the key) the "
    "error goes away: the partials of a product split across chips along K "
    "are rounded and summed in its type, as Megatron's all-reduce does, "
    "where the unsplit product rounds once";

/// The taxonomy layer a stage's faults belong to.
int stageLayer(llvm::StringRef name) {
  switch (stageNamed(name).value_or(Stage::Sched)) {
  case Stage::Graph:
    return 2;
  case Stage::Decomposed:
    return 3;
  case Stage::Fused:
    return 4;
  case Stage::Tiled:
  case Stage::LaidOut:
    return 5;
  case Stage::Sched:
    return 6; // placement and copies
  }
  return 6;
}

/// What the ladder showed about the stages before the schedule.
std::string earlierStages(const Findings &f) {
  if (f.ladder.empty())
    return "the stages before the schedule were not checked (--check)";
  for (size_t i = 0; i + 1 < f.ladder.size(); ++i)
    if (f.ladder[i].status != "ok")
      return "the " + f.ladder[i].stage + " stage's IR is " +
             f.ladder[i].status + " on the CPU reference";
  return "every stage up to laid-out computes the right answer on the CPU "
         "reference; the schedule does not";
}

} // namespace

Classification dfa::bisect::classify(const Findings &f) {
  Classification c;
  auto say = [&](std::string e) { c.evidence.push_back(std::move(e)); };
  // The verdict of a run that stopped before any values.
  auto stopped = [&](const char *verdict, ExitCode code) {
    c.verdict = verdict;
    c.exitCode = code;
  };
  auto conclude = [&](int layer, double confidence, int runnerUp,
                      std::string whyNot) {
    c.layer = layer;
    c.confidence = confidence;
    c.runnerUp = runnerUp;
    c.runnerUpWhyNot = std::move(whyNot);
    return c;
  };
  if (f.boundary) {
    // First: whatever happened after, it began with a value that changed
    // on its way to the device.
    // A transfer must be exact: whatever differs was done to it on the way.
    const Findings::Boundary &b = *f.boundary;
    c.verdict = "logic";
    c.exitCode = LogicMismatch;
    say(llvm::formatv("'{0}' reached the device for segment {1} other than "
                      "the host sent it: {2} of {3} elements differ",
                      b.value, f.segment, b.differing, b.elements)
            .str());
    say(b.evidence);
    if (!f.failure.empty())
      say("the segment then fails (" + f.failure + "): " + f.failureMessage);
    if (b.kind == "layout")
      return conclude(5, 0.9, 6,
                      "every value arrived, in the other order: the copy's "
                      "strides, not its buffer");
    if (b.kind == "stale")
      return conclude(7, 0.85, 6,
                      "the buffer is the right one; the segment read it "
                      "before the copy into it completed");
    return conclude(6, 0.6, 7,
                    "the bytes that arrived are neither an earlier value "
                    "nor a reordering of the sent one");
  }
  if (f.failure == "compile") {
    stopped("compile", CompileFailure);
    llvm::StringRef msg(f.failureMessage);
    std::string what =
        "the " + f.failureStage + " stage fails to compile: " + f.failureMessage;
    if (f.failureStage == stageName(Stage::Sched) &&
        (msg.contains("scheduling conflict") || msg.contains("wait"))) {
      // The schedule's verifier caught an op racing its producer.
      say("the schedule verifier rejects the compiler's own schedule: an op "
          "does not wait for what it reads");
      say(what);
      return conclude(7, 0.9, 6,
                      "every buffer is placed; only an order is missing");
    }
    say(what);
    int layer = stageLayer(f.failureStage);
    return conclude(layer, 0.8, layer == 2 ? 1 : layer - 1,
                    "the stages before " + f.failureStage + " compile");
  }
  if (f.failure == "deadlock") {
    stopped("deadlock", Deadlock);
    say("the simulation's watchdog tripped: " + f.failureMessage);
    say(earlierStages(f));
    return conclude(7, 0.9, 6,
                    "the schedule verifies: every buffer is placed and every "
                    "copy is in bounds");
  }
  if (f.failure == "race") {
    stopped("runtime", RuntimeFailure);
    say("an op reads a buffer without waiting for the op that writes it: " +
        f.failureMessage);
    return conclude(7, 0.95, 6,
                    "the buffers do not overlap: the reader and writer agree "
                    "on where the value lives");
  }
  if (f.failure == "runtime") {
    stopped("runtime", RuntimeFailure);
    say("the schedule fails to run: " + f.failureMessage);
    return conclude(6, 0.5, 7, "no deadlock and no race was detected");
  }
  if (f.nondeterministic) {
    stopped("nondeterministic", Nondeterministic);
    say("two runs of the same schedule on the same inputs differ");
    return conclude(7, 0.7, 8, "the simulator's arithmetic is deterministic");
  }
  bool anyFailed = llvm::any_of(f.outputs, [](const Comparison &o) { return o.failed(); });
  if (!anyFailed)
    return c;


  // Which outputs failed and how: logic (structure, NaN, a bit-exact
  // contract) or numerics.
  const Comparison *worst = nullptr;
  for (const Comparison &o : f.outputs)
    if (o.failed() && !worst)
      worst = &o;
  const Comparison &at = f.node ? *f.node : *worst;
  bool exact = at.cls == OpClass::Movement || at.cls == OpClass::Exact;
  // Errors of the order of the values themselves, on more than a few
  // elements: rounding does not do that.
  // Accumulating in f32 removes it: precision, however large.
  bool precision = f.f32AccumulatorFixes.value_or(false) ||
                   f.partialSumsFixes.value_or(false);
  bool gross = !precision &&
               double(at.metrics.grossErrors) > 0.01 * double(at.metrics.elements);
  bool logic = (at.pattern.structural() && !precision) ||
               at.metrics.nanMismatches > 0 ||
               at.metrics.infMismatches > 0 || gross ||
               f.swappedOperand.has_value() ||
               (exact && f.isolatedFails.value_or(true));
  c.verdict = logic ? "logic" : "numeric";
  c.exitCode = logic ? LogicMismatch : NumericMismatch;
  if (f.referenceMatchesExpected == false) {
    c.layer = 2;
    c.confidence = 0.6;
    say("the CPU reference of the imported graph disagrees with the "
        "expected outputs");
    c.runnerUp = 1;
    c.runnerUpWhyNot = "the expected outputs come from the model's source";
    return c;
  }
  if (f.hostDivergence) {
    c.layer = 8;
    c.confidence = 0.5;
    c.verdict = "numeric";
    c.exitCode = NumericMismatch;
    say(llvm::formatv("each of the {0} device segments computes right from "
                      "what it read, and every transfer arrived as sent",
                      f.segments)
            .str());
    const Comparison *sized = nullptr;
    for (const Comparison &o : f.outputs)
      if (o.pattern.kind == "shape" && !sized)
        sized = &o;
    if (sized)
      say("output '" + sized->name + "' has another size: " +
          sized->pattern.where +
          ": a data-dependent decision on the host (a count, a kept box, a "
          "branch) took the device's rounded values another way than the "
          "reference's");
    else
      say("the outputs still differ: either a data-dependent decision on the "
          "host took the device's rounded values another way, or rounding "
          "within each segment's budget accumulated over the segments");
    c.runnerUp = 2;
    c.runnerUpWhyNot = "the reference runs the same segments on the same "
                       "host code";
    return c;
  }
  std::string node = f.node ? "'" + f.node->name + "' (" + f.node->op + ")" : "";
  if (!f.node.has_value() && worst)
    node = "output '" + worst->name + "'";
  if (f.stage != stageName(Stage::Sched) && !f.stage.empty()) {
    c.layer = stageLayer(f.stage);
    c.confidence = 0.85;
    say("the " + f.stage + " stage's IR, run on the CPU reference, already "
        "computes " + node + " wrong" +
        (f.pass.empty() ? "" : " (after pass " + f.pass + ")"));
    say("the stage before it computes the right answer");
    if (f.partialSumsFixes.value_or(false))
      say(std::string(kPartialSumsFix) + " (precision, not a wrong answer)");
    c.runnerUp = c.layer == 3 ? 2 : c.layer - 1;
    c.runnerUpWhyNot = "the previous stage's IR runs right";
    return c;
  }
  say(earlierStages(f));
  if (f.node)
    say("the first diverging node in graph order is " + node +
        (f.kernel.empty() ? "" : ", in kernel '" + f.kernel + "'") +
        llvm::formatv(" ({0} prefix runs)", f.prefixRuns).str());
  if (f.isolatedFails)
    say(*f.isolatedFails
            ? "alone, fed the reference's inputs, it is still wrong: the "
              "fault is in its own kernel or copies"
            : "alone, fed the reference's inputs, it is right: the error "
              "comes from upstream values");
  if (at.pattern.kind != "none")
    say("pattern: " + at.pattern.kind + ": " + at.pattern.where);
  if (exact && !at.metrics.bitExact)
    say("a " + className(at.cls).str() + " op is not bit-exact");
  if (f.swappedOperand) {
    c.layer = 5;
    c.confidence = 0.9;
    say("its result is exactly the reference's with operand " +
        std::to_string(*f.swappedOperand) +
        " read with its two minor strides swapped: the kernel reads that "
        "buffer in the wrong layout");
    c.runnerUp = 6;
    c.runnerUpWhyNot = "the operand's values are all there, in another order";
    return c;
  }
  if (at.pattern.structural() && !precision) {
    c.layer = 5;
    c.confidence = at.pattern.kind == "block" ? 0.6 : 0.9;
    if (at.pattern.kind == "block") {
      c.layer = 6;
      c.runnerUp = 7;
      c.runnerUpWhyNot = "the schedule has no race and no deadlock";
    } else {
      c.runnerUp = 6;
      c.runnerUpWhyNot = "the right values arrive everywhere else: the "
                         "buffers are placed right, the copies' extents or "
                         "strides are not";
    }
    return c;
  }
  if (at.metrics.nanMismatches > 0 || at.metrics.infMismatches > 0) {
    c.layer = 8;
    c.confidence = f.isolatedFails.value_or(false) ? 0.7 : 0.5;
    say(llvm::formatv("{0} NaN and {1} Inf mismatches against the "
                      "reference, with no layout structure",
                      at.metrics.nanMismatches, at.metrics.infMismatches)
            .str());
    c.runnerUp = 6;
    c.runnerUpWhyNot = "an element never written reads as NaN poison, but "
                       "the bad elements are not where a copy would miss";
    return c;
  }
  if (gross) {
    c.layer = 6;
    c.confidence = 0.5;
    say(std::to_string(at.metrics.grossErrors) +
        " elements off by more than 5% of the values' scale, with no "
        "structure in the output: the kernel computes on wrong data");
    c.runnerUp = 5;
    c.runnerUpWhyNot = "no layout misreading of its operands reproduces it";
    return c;
  }
  c.layer = 8;
  c.confidence = 0.6;
  say("no structure: " + std::to_string(at.metrics.bad.size()) +
      " elements over budget, at most " + shortNumber(at.metrics.maxUlp) +
      " ulps; rmse " + shortNumber(at.metrics.rmseVsOracle) +
      " against the fp64 oracle, the reference's own " +
      shortNumber(at.metrics.referenceRmseVsOracle));
  if (f.f32AccumulatorFixes) {
    if (*f.f32AccumulatorFixes) {
      c.confidence = 0.9;
      say("with the matrix kernels accumulating in f32 the error goes away: "
          "the accumulation precision");
    } else {
      say("accumulating in f32 does not remove it");
    }
  }
  if (f.partialSumsFixes) {
    if (*f.partialSumsFixes) {
      c.confidence = 0.9;
      say(kPartialSumsFix);
    } else {
      say("keeping graph-shard's partial sums in the accumulator's format "
          "does not remove it");
    }
  }
  c.runnerUp = 4;
  c.runnerUpWhyNot = "the fused graph runs right on the reference: fusion "
                     "alone does not change the answer";
  return c;
}
