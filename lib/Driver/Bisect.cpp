//===- Bisect.cpp - dfa-bisect: where a compiled answer first goes wrong ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// 1. References: the CPU reference on the inputs as the target stores them
///    (outputs rounded likewise), an fp64-accumulating oracle, and the
///    storage round trip (in the budgets).
/// 2. The compiled schedule, simulated; every output judged by the
///    tolerance model. A compile error, race or deadlock stops here.
/// 3. The stage ladder: each stage's IR run on the CPU reference, the
///    first that computes a wrong answer; inside it, the pass (an MLIR
///    debug counter on pass executions).
/// 4. The layer: the first node in graph order whose value is wrong in
///    that stage, by bisecting prefixes of the graph; then that node alone,
///    fed the reference's inputs.
/// 5. Probes, the classification and the report.
///
//===----------------------------------------------------------------------===//

#include "BisectReduce.h"
#include "BisectRun.h"
#include "Partition.h"
#include "Pipeline.h"
#include "RunTarget.h"

#include "dfa/Reference/Evaluator.h"
#include "dfa/Support/Limits.h"
#include "dfa/Transforms/Faults.h"

#include "dialects/Graph/GraphOps.h"
#include "dialects/Sched/SchedOps.h"

#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;
using namespace dfa::bisect;

namespace {

int usage(DiagnosticPrinter &printer, const std::string &message) {
  printer.error(message);
  return Usage;
}

/// dfa-bisect's code for a failure before any comparison.
int setupFailure(Status s) {
  switch (s) {
  case Status::Ok:
    return Pass;
  case Status::Unsupported:
    return CompileFailure;
  case Status::Internal:
    return Internal;
  case Status::LimitExceeded:
    return LimitExceeded;
  default:
    return Usage; // the model, inputs or target given cannot be used
  }
}

bool anyFailed(llvm::ArrayRef<bisect::Comparison> cs) {
  return llvm::any_of(cs, [](const bisect::Comparison &c) { return c.failed(); });
}

/// Compares the outputs of an execution with the references.
std::vector<bisect::Comparison> compareOutputs(BisectEnv &env, func::FuncOp main,
                                       llvm::ArrayRef<std::string> names,
                                       llvm::ArrayRef<ref::Tensor> got,
                                       llvm::ArrayRef<ref::Tensor> want,
                                       llvm::ArrayRef<ref::Tensor> oracle) {
  std::vector<bisect::Comparison> out;
  Operation *ret = main.getBody().front().getTerminator();
  for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
    Value v = ret->getOperand(i);
    out.push_back(compareValue(env, names[i], v.getDefiningOp(), v.getType(),
                               got[i], want[i], oracle[i], /*accumulated=*/true));
  }
  return out;
}

/// The kernel of the schedule that computes `node`.
std::string kernelOf(ModuleOp compiled, llvm::StringRef node) {
  std::string found;
  compiled.walk([&](sched::ComputeOp c) {
    if (!found.empty())
      return;
    c.getBody().walk([&](Operation *op) {
      if (found.empty() && nodeName(op) == node)
        found = c.getKernel().str();
    });
  });
  return found;
}

struct Bisector {
  Bisector(BisectEnv &env, ModuleOp graph, func::FuncOp main)
      : env(env), graph(graph), main(main) {}
  BisectEnv &env;
  ModuleOp graph;
  func::FuncOp main;
  SmallVector<ref::Tensor> args, argsStored;
  ref::Evaluator same{keep(false)}, oracle{keep(true)};

  static ref::EvalOptions keep(bool fp64) {
    ref::EvalOptions o;
    o.fp64Accumulate = fp64;
    o.ieeeMatmul = fp64; // the oracle computes the math, not a format
    o.keepValues = true;
    return o;
  }
  std::vector<ref::Tensor> sameOut, oracleOut;
  Findings f;

  /// Pass executions of `stage` to run: all, unless it is the last stage
  /// and --stop-after limits it.
  int passLimit(int stage) const {
    return stage == env.stopStage ? env.stopPasses : -1;
  }

  /// Node `k`'s value in the prefix that ends at it, compiled to `stage`
  /// and run: the comparison of its first wrong result, else of its first;
  /// nullopt when the prefix does not compile or run.
  std::optional<bisect::Comparison> nodeValue(size_t k, int stage,
                                              std::string *kernel) {
    ++f.prefixRuns;
    OwningOpRef<ModuleOp> p = prefix(graph, k);
    Execution e = execute(env, *p, stage, argsStored, passLimit(stage));
    if (!e.failure.empty())
      return std::nullopt;
    Operation *node = nodesOf(main)[k];
    std::optional<bisect::Comparison> first;
    for (auto [i, r] : llvm::enumerate(node->getResults())) {
      bisect::Comparison c = compareValue(
          env, nodeName(node), node, r.getType(), e.outputs[i],
          sim::toDeviceFormat(env.target, same.get(r)), oracle.get(r), /*accumulated=*/true);
      if (c.failed() || !first) {
        bool failed = c.failed();
        first = std::move(c);
        if (failed)
          break;
      }
    }
    if (kernel && stage == kSchedStage)
      *kernel = kernelOf(*e.module, nodeName(node));
    return first;
  }

  /// Does the prefix ending at node `k` compute it wrong at `stage`?
  bool prefixFails(size_t k, int stage, bisect::Comparison *at,
                   std::string *kernel) {
    std::optional<bisect::Comparison> c = nodeValue(k, stage, kernel);
    if (c && at)
      *at = *c;
    return !c || c->failed();
  }

  /// The first node (graph order) that is wrong at `stage`, bisecting
  /// prefixes up to the producer of the first wrong output.
  void locateNode(int stage) {
    std::vector<Operation *> nodes = nodesOf(main);
    Operation *ret = main.getBody().front().getTerminator();
    size_t hi = nodes.size();
    for (auto [i, c] : llvm::enumerate(f.outputs))
      if (c.failed())
        if (Operation *def = ret->getOperand(i).getDefiningOp()) {
          auto it = llvm::find(nodes, def);
          if (it != nodes.end()) {
            hi = size_t(it - nodes.begin());
            break;
          }
        }
    if (hi == nodes.size())
      return;
    size_t lo = 0;
    bisect::Comparison c;
    std::string kernel;
    if (env.opts.allNodes) {
      // Every node, in graph order: the first wrong one, not assuming a
      // wrong value stays wrong downstream.
      std::optional<size_t> first;
      for (size_t k = 0; k < nodes.size(); ++k) {
        std::string kk;
        std::optional<bisect::Comparison> v = nodeValue(k, stage, &kk);
        bisect::Comparison row;
        if (v) {
          row = *v;
        } else {
          row.name = nodeName(nodes[k]);
          row.op = nodes[k]->getName().getStringRef().str();
          row.pattern.kind = "did not run";
        }
        if (!first && (!v || v->failed())) {
          first = k;
          kernel = kk;
          if (v)
            c = *v;
        }
        f.nodes.push_back(std::move(row));
      }
      if (!first || c.name.empty())
        return;
      lo = *first;
    } else {
      while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (prefixFails(mid, stage, nullptr, nullptr))
          hi = mid;
        else
          lo = mid + 1;
      }
      // A prefix that does not run names no value: no first node then.
      std::optional<bisect::Comparison> v = nodeValue(lo, stage, &kernel);
      if (!v || !v->failed())
        return;
      c = *v;
    }
    f.node = c;
    f.kernel = kernel;
    // The node alone, fed the reference's values.
    SmallVector<Value> operands;
    OwningOpRef<ModuleOp> one = isolate(nodes[lo], operands);
    SmallVector<ref::Tensor> inputs;
    for (Value v : operands)
      inputs.push_back(sim::toDeviceFormat(env.target, same.get(v)));
    Execution e = execute(env, *one, stage, inputs, passLimit(stage));
    if (!e.failure.empty()) {
      f.isolatedFails = true;
      return;
    }
    ref::Evaluator alone;
    FailureOr<SmallVector<ref::Tensor>> want =
        alone.run(one->lookupSymbol<func::FuncOp>("main"), inputs);
    if (failed(want))
      return;
    auto matches = [&](llvm::ArrayRef<ref::Tensor> reference) {
      for (auto [i, r] : llvm::enumerate(nodes[lo]->getResults()))
        if (compareValue(env, c.name, nodes[lo], r.getType(), e.outputs[i],
                         sim::toDeviceFormat(env.target, reference[i]), ref::Tensor(),
                         /*accumulated=*/false)
                .failed())
          return false;
      return true;
    };
    f.isolatedFails = !matches(*want);
    if (!*f.isolatedFails)
      return;
    // Probe: is it the reference on an operand read with its two minor
    // strides swapped (a layout misread)?
    for (size_t j = 0; j < inputs.size(); ++j) {
      std::optional<ref::Tensor> swapped = swapMinorStrides(inputs[j]);
      if (!swapped)
        continue;
      SmallVector<ref::Tensor> probe(inputs.begin(), inputs.end());
      probe[j] = *swapped;
      ref::Evaluator ev;
      FailureOr<SmallVector<ref::Tensor>> alt =
          ev.run(one->lookupSymbol<func::FuncOp>("main"), probe);
      if (succeeded(alt) && matches(*alt)) {
        f.swappedOperand = int(j);
        return;
      }
    }
  }

  /// The stage ladder: the first stage whose IR computes a wrong answer,
  /// up to the last one run (`env.stopStage`, whose answer is known wrong).
  void climb(llvm::ArrayRef<std::string> names) {
    for (int s = 1; s <= env.stopStage; ++s) {
      Rung r;
      r.stage = stageName(Stage(s));
      bool last = s == env.stopStage;
      if (last && s == kSchedStage) {
        r.status = f.failure.empty() ? "mismatch" : f.failure;
        r.detail = f.failureMessage;
        f.ladder.push_back(r);
        f.stage = stageName(Stage::Sched).str();
        f.pass = stagePasses(Stage(s)).front().str();
        return;
      }
      Execution e = execute(env, graph, s, argsStored, last ? env.stopPasses : -1);
      if (!e.failure.empty()) {
        r.status = e.failure == "compile" ? "compile-error" : e.failure;
        r.detail = e.message;
        f.ladder.push_back(r);
        return;
      }
      std::vector<bisect::Comparison> cs =
          compareOutputs(env, main, names, e.outputs, sameOut, oracleOut);
      r.status = anyFailed(cs) ? "mismatch" : "ok";
      f.ladder.push_back(r);
      if (r.status == "ok")
        continue;
      f.stage = stageName(Stage(s));
      // Inside the stage: the first pass execution after which it is wrong.
      llvm::ArrayRef<llvm::StringRef> passes = stagePasses(Stage(s));
      size_t ran = last && env.stopPasses >= 0
                       ? std::min(passes.size(), size_t(env.stopPasses))
                       : passes.size();
      f.pass = ran ? passes[ran - 1].str() : "";
      for (size_t n = 1; n < ran; ++n) {
        Execution part = execute(env, graph, s, argsStored, int(n));
        if (part.failure.empty() &&
            anyFailed(compareOutputs(env, main, names, part.outputs, sameOut,
                                     oracleOut))) {
          f.pass = passes[n - 1].str();
          break;
        }
      }
      return;
    }
  }
};

/// Strips the matrix kernels' narrow accumulators and reruns: does the
/// answer come right?
std::optional<bool> f32AccumulatorProbe(BisectEnv &env, ModuleOp compiled,
                                        ArrayRef<ref::Tensor> args,
                                        func::FuncOp main,
                                        llvm::ArrayRef<std::string> names,
                                        ArrayRef<ref::Tensor> want,
                                        ArrayRef<ref::Tensor> oracle) {
  bool any = false;
  OwningOpRef<ModuleOp> m = cast<ModuleOp>(compiled->clone());
  m->walk([&](sched::ComputeOp c) {
    if (c.getAccumulator()) {
      c.removeAccumulatorAttr();
      any = true;
    }
  });
  if (!any)
    return std::nullopt;
  Execution e = rerun(env, *m, args);
  if (!e.failure.empty())
    return false;
  return !anyFailed(compareOutputs(env, main, names, e.outputs, want, oracle));
}

/// Whether the error goes away with graph-shard's partial sums in the
/// accumulator's format: `graph` compiled again so and run; none where
/// the target keeps them so already or no product's partials change.
std::optional<bool> partialSumsProbe(const BisectEnv &env, ModuleOp graph,
                                     ArrayRef<ref::Tensor> args,
                                     func::FuncOp main,
                                     llvm::ArrayRef<std::string> names,
                                     ArrayRef<ref::Tensor> want,
                                     ArrayRef<ref::Tensor> oracle) {
  // Only a target that splits weights across chips (graph-shard).
  if (env.target.partialSumsInAccumulator || env.target.chipWeightBudget() <= 0)
    return std::nullopt;
  BisectEnv wide = env;
  wide.target.partialSumsInAccumulator = true;
  Execution e = execute(wide, graph, env.stopStage, args, env.stopPasses);
  if (!e.module)
    return std::nullopt;
  // A product whose result is wider than its operands: a partial kept in
  // the accumulator (the schedule's kernels hold the graph's ops).
  bool widened = false;
  e.module->walk([&](Operation *op) {
    if (!isa<graph::MatMulOp, graph::GemmOp>(op))
      return;
    auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    widened |= in && out && in.getElementType() != out.getElementType();
  });
  if (!widened)
    return std::nullopt;
  if (!e.failure.empty())
    return false;
  return !anyFailed(compareOutputs(wide, main, names, e.outputs, want, oracle));
}

/// The signature of a failure: its code, and the structure of the first
/// wrong output when it has one (numeric patterns vary as a graph shrinks).
Signature signatureOf(const Findings &f, const Classification &c) {
  Signature s;
  s.exitCode = int(c.exitCode);
  for (const bisect::Comparison &o : f.outputs)
    if (o.failed()) {
      if (o.pattern.structural())
        s.pattern = o.pattern.kind;
      break;
    }
  return s;
}

/// Compares `graph`'s schedule with its references on `args` (already in
/// the target's storage formats): the verdict without localization.
Signature quickCheck(BisectEnv &env, ModuleOp graph, ArrayRef<ref::Tensor> args) {
  func::FuncOp main = graph.lookupSymbol<func::FuncOp>("main");
  ref::Evaluator same;
  ref::EvalOptions o;
  o.fp64Accumulate = true;
  ref::Evaluator exact(o);
  FailureOr<SmallVector<ref::Tensor>> want = same.run(main, args);
  FailureOr<SmallVector<ref::Tensor>> oracle = exact.run(main, args);
  if (failed(want) || failed(oracle))
    return {};
  std::vector<ref::Tensor> wantStored, oracleOut(oracle->begin(), oracle->end());
  for (const ref::Tensor &t : *want)
    wantStored.push_back(sim::toDeviceFormat(env.target, t));
  Findings f;
  Execution e = execute(env, graph, env.stopStage, args, env.stopPasses);
  if (!e.failure.empty()) {
    f.failure = e.failure;
    f.failureStage = e.failedStage;
    f.failureMessage = e.message;
  } else {
    std::vector<std::string> names;
    for (size_t i = 0; i < wantStored.size(); ++i)
      names.push_back("output" + std::to_string(i));
    f.outputs = compareOutputs(env, main, names, e.outputs, wantStored, oracleOut);
    if (anyFailed(f.outputs) && env.stopStage == kSchedStage)
      f.f32AccumulatorFixes = f32AccumulatorProbe(env, *e.module, args, main,
                                                  names, wantStored, oracleOut);
  }
  return signatureOf(f, classify(f));
}

} // namespace

/// Steps 1-4 on one graph (`b.graph` on `b.args`): the references, the
/// schedule and, when it fails, the ladder and the first wrong node. An
/// exit code when the graph cannot be bisected at all.
std::optional<int> bisectGraph(Bisector &b, const std::vector<std::string> &names,
                               const std::vector<NamedTensor> &expected) {
  BisectEnv &env = b.env;
  const BisectOptions &opts = env.opts;
  Findings &f = b.f;
  for (const ref::Tensor &a : b.args)
    b.argsStored.push_back(sim::toDeviceFormat(env.target, a));

  // 1. References.
  FailureOr<SmallVector<ref::Tensor>> same = b.same.run(b.main, b.argsStored);
  FailureOr<SmallVector<ref::Tensor>> exact = b.oracle.run(b.main, b.args);
  if (failed(same) || failed(exact)) {
    env.printer.error("the CPU reference cannot run the model on these inputs");
    return Usage;
  }
  for (const ref::Tensor &t : *same)
    b.sameOut.push_back(sim::toDeviceFormat(env.target, t));
  b.oracleOut.assign(exact->begin(), exact->end());
  if (!expected.empty()) {
    // The reference against the model's own expected outputs, leniently:
    // they come from another implementation.
    bool ok = expected.size() == b.sameOut.size();
    Operation *ret = b.main.getBody().front().getTerminator();
    for (size_t i = 0; ok && i < b.sameOut.size(); ++i) {
      Value v = ret->getOperand(i);
      int64_t k = 1;
      OpClass cls = v.getDefiningOp() ? classOf(v.getDefiningOp(), k)
                                      : OpClass::Movement;
      Format stored = storedFormat(
          env.target, cast<RankedTensorType>(v.getType()).getElementType());
      const ref::Tensor &want = expected[i].tensor;
      ok = want.shape() == b.sameOut[i].shape() &&
           want.dtype() == b.sameOut[i].dtype() &&
           !compare(b.sameOut[i], want, b.oracleOut[i],
                    budgetFor(cls == OpClass::Movement ? OpClass::Elementwise : cls,
                              k, lenientProfile(), stored, Format(), true),
                    // The reference's own error is what is carried; the
                    // expected values' is admitted only up to it.
                    /*sameFormat=*/b.sameOut[i])
                .failed();
    }
    f.referenceMatchesExpected = ok;
  }

  // 2. The schedule.
  Execution device =
      execute(env, b.graph, env.stopStage, b.argsStored, env.stopPasses);
  for (const std::string &w : device.warnings)
    llvm::errs() << "dfa-bisect: warning: " << w << "\n";
  if (!device.failure.empty()) {
    f.failure = device.failure;
    f.failureMessage = device.message;
    f.failureStage = device.failedStage;
  } else {
    f.outputs = compareOutputs(env, b.main, names, device.outputs, b.sameOut,
                               b.oracleOut);
    Execution again =
        env.stopStage == kSchedStage
            ? rerun(env, *device.module, b.argsStored)
            : execute(env, b.graph, env.stopStage, b.argsStored, env.stopPasses);
    for (size_t i = 0; i < again.outputs.size() && i < device.outputs.size(); ++i)
      if (std::memcmp(again.outputs[i].bytes(), device.outputs[i].bytes(),
                      device.outputs[i].byteSize()) != 0)
        f.nondeterministic = true;
  }
  bool failing = !f.failure.empty() || anyFailed(f.outputs) || f.nondeterministic;
  // Precision or logic: with narrow accumulators, does f32 accumulation
  // make the answer right? (The verdict's own evidence, so --check and
  // --reduce's checks run it too.)
  if (f.failure.empty() && anyFailed(f.outputs) && env.stopStage == kSchedStage)
    f.f32AccumulatorFixes = f32AccumulatorProbe(env, *device.module, b.argsStored,
                                                b.main, names, b.sameOut,
                                                b.oracleOut);
  // Or graph-shard's partial sums, rounded in the product's type.
  if (f.failure.empty() && anyFailed(f.outputs) &&
      !f.f32AccumulatorFixes.value_or(false))
    f.partialSumsFixes = partialSumsProbe(env, b.graph, b.argsStored, b.main,
                                          names, b.sameOut, b.oracleOut);

  // 3-4. Where, unless only the verdict was asked for.
  if (failing && !opts.check) {
    if (f.failure == "compile") {
      f.stage = f.failureStage;
    } else {
      b.climb(names);
      if (f.failure.empty() && !f.stage.empty())
        b.locateNode(stageIndex(f.stage));

    }
  }
  return std::nullopt;
}

/// The report, and the exit code.
int finish(const BisectOptions &opts, const Findings &f, const Classification &c) {
  if (opts.json)
    writeJson(f, c, llvm::outs());
  else if (opts.check)
    llvm::outs() << verdictLine(f, c) << "\n";
  else
    printReport(f, c, llvm::outs());
  llvm::outs().flush();
  if (opts.interesting >= 0)
    return int(c.exitCode) == opts.interesting ? 0 : 1;
  return int(c.exitCode);
}

/// What arrived on the device for `value` against what the host sent:
/// the sent matrix with its minor strides swapped (a layout fault), an
/// earlier value of its size or zeros (a stale buffer), or other bytes.
Findings::Boundary boundaryOf(const std::string &value, const ref::Tensor &sent,
                              const ref::Tensor &got,
                              const std::map<std::string, ref::Tensor> &values) {
  Findings::Boundary b;
  b.value = value;
  b.elements = sent.numElements();
  size_t e = ref::dtypeSize(sent.dtype());
  for (int64_t i = 0; i < b.elements; ++i)
    b.differing += std::memcmp(sent.bytes() + i * e, got.bytes() + i * e, e) != 0;
  auto same = [&](const ref::Tensor &x) {
    return x.dtype() == got.dtype() && x.shape() == got.shape() &&
           std::memcmp(x.bytes(), got.bytes(), got.byteSize()) == 0;
  };
  if (std::optional<ref::Tensor> swapped = swapMinorStrides(sent); swapped && same(*swapped)) {
    b.kind = "layout";
    b.evidence = "what arrived is exactly the sent value with its two minor "
                 "strides swapped: the copy wrote it in the wrong layout";
    return b;
  }
  for (const auto &[name, held] : values)
    if (name != value && same(held)) {
      b.kind = "stale";
      b.evidence = "what arrived is exactly '" + name +
                   "', an earlier value of the same size: the segment read "
                   "a reused buffer before the copy into it landed";
      return b;
    }
  bool zeros = true;
  for (size_t i = 0; zeros && i < got.byteSize(); ++i)
    zeros = got.bytes()[i] == 0;
  if (zeros) {
    b.kind = "stale";
    b.evidence = "what arrived is all zeros, the buffer before any copy: "
                 "the segment read it before the copy landed";
    return b;
  }
  b.kind = "bytes";
  b.evidence = "what arrived is neither a reordering of the sent value nor "
               "an earlier one";
  return b;
}

/// A graph that breaks: the same segments run on the CPU reference and on
/// the target; outputs judged by the tolerance model; then, in order, the
/// first transfer to the device that did not arrive as sent (a host/device
/// boundary fault), else the first device segment that is wrong from its
/// own arguments, bisected as a whole graph is.
int bisectSegments(BisectEnv &env, const PreparedRun &prepared) {
  const BisectOptions &opts = env.opts;
  const RunOptions &run = opts.run;
  if (!opts.reduce.empty())
    return usage(env.printer, "--reduce needs one compiled graph; this one "
                              "breaks (run in segments): reduce a segment "
                              "with dfa-compile --check's breaks in mind");
  // A host-link fault is the runner's to plant, not the compiler's.
  if (FaultSpec fault;
      parseFault(run.inject, fault).empty() && isHostLinkFault(fault.name))
    env.compile.inject.clear();
  RunOptions refOpts = run;
  refOpts.target = target::kReferenceTarget;
  refOpts.inject.clear();
  refOpts.timeOnly = false;
  refOpts.trace.clear();
  SegmentedRun ref;
  ref.keep = true;
  if (runInSegments(refOpts, prepared.inputsByName, nullptr, env.ctx,
                    env.printer, ref) != Status::Ok) {
    env.printer.error("the CPU reference cannot run the model on these inputs");
    return Usage;
  }
  // The fp64-accumulating oracle, as for a whole graph (it measures the
  // reference's own error; where a count comes out otherwise, the
  // reference stands in).
  RunOptions oracleOpts = refOpts;
  oracleOpts.fp64Accumulate = true;
  SegmentedRun oracle;
  bool haveOracle = runInSegments(oracleOpts, prepared.inputsByName, nullptr,
                                  env.ctx, env.printer, oracle) == Status::Ok;
  auto oracleOf = [&](size_t i) -> const ref::Tensor & {
    return haveOracle && i < oracle.outputs.size() &&
                   oracle.outputs[i].shape() == ref.outputs[i].shape()
               ? oracle.outputs[i]
               : ref.outputs[i];
  };
  RunOptions devOpts = run;
  devOpts.timeOnly = false;
  devOpts.trace.clear();
  SegmentedRun dev;
  dev.keep = true;
  Status s = runInSegments(devOpts, prepared.inputsByName, &env.target, env.ctx,
                           env.printer, dev);
  Findings f;
  f.model = llvm::sys::path::filename(run.model.model).str();
  f.target = env.target.name;
  for (const target::Override &o : env.target.overrides)
    f.overrides[o.key] = o.value;
  f.profile = env.profile.name;
  f.inject = run.inject;
  f.segments = int(dev.segments.size());
  // The outputs, each judged as the op that made it (in the segment that
  // made it; a value the host made is held to its own type).
  auto producerOf = [&](const std::string &name, const ref::Tensor &t) {
    std::pair<Operation *, Type> p{
        nullptr, RankedTensorType::get(t.shape(), ref::mlirTypeOf(t.dtype(), &env.ctx))};
    for (const SegmentedRun::Segment &seg : dev.segments)
      for (auto [k, result] : llvm::enumerate(seg.resultNames))
        if (result == name) {
          auto main = seg.module.get().lookupSymbol<func::FuncOp>("main");
          Value v = main.getBody().front().getTerminator()->getOperand(k);
          p = {v.getDefiningOp(), v.getType()};
        }
    return p;
  };
  if (!prepared.expected.empty()) {
    // The reference against the model's own expected outputs, leniently.
    bool ok = prepared.expected.size() == ref.outputs.size();
    for (size_t i = 0; ok && i < ref.outputs.size(); ++i) {
      const ref::Tensor &want = prepared.expected[i].tensor, &got = ref.outputs[i];
      auto [producer, type] = producerOf(ref.outNames[i], got);
      ok = want.shape() == got.shape() && want.dtype() == got.dtype() &&
           !compare(got, want, oracleOf(i),
                    budgetOf(env.target, producer, type, lenientProfile(), true),
                    /*sameFormat=*/got)
                .failed();
    }
    f.referenceMatchesExpected = ok;
  }
  // The host link: every argument as the device held it, against the
  // host's value (a transfer must be exact). First, whatever followed.
  auto checkBoundary = [&] {
    for (const SegmentedRun::Segment &seg : dev.segments)
      for (auto [k, name] : llvm::enumerate(seg.argNames)) {
        auto sent = dev.values.find(name);
        if (sent == dev.values.end())
          continue; // the run stopped before the host kept it
        const ref::Tensor &got = seg.args[k];
        if (sent->second.byteSize() == got.byteSize() &&
            std::memcmp(sent->second.bytes(), got.bytes(), got.byteSize()) == 0)
          continue;
        f.boundary = boundaryOf(name, sent->second, got, dev.values);
        f.segment = seg.index;
        return;
      }
  };
  if (s != Status::Ok) {
    f.failure = s == Status::Deadlock           ? "deadlock"
                : s == Status::ScheduleConflict ? "race"
                : s == Status::Unsupported || s == Status::DoesNotFit ||
                        s == Status::InvalidModel
                    ? "compile"
                    : "runtime";
    f.segment = dev.failedSegment;
    f.failureMessage =
        (f.segment >= 0 ? "segment " + std::to_string(f.segment) + " fails"
                        : std::string("the run in segments stops")) +
        " (exit " + std::to_string(exitCode(s)) + "; the error above)";
    // A compile that fails is a segment's; one that fails before any is
    // the import of the next segment.
    f.failureStage = f.failure != "compile" ? ""
                     : f.segment >= 0       ? stageName(Stage::Sched).str()
                                            : stageName(Stage::Graph).str();
    f.stage = f.failureStage;
    checkBoundary();
    return finish(opts, f, classify(f));
  }
  for (size_t i = 0; i < dev.outputs.size() && i < ref.outputs.size(); ++i) {
    const std::string &name = dev.outNames[i];
    const ref::Tensor &got = dev.outputs[i], &want = ref.outputs[i];
    if (got.shape() != want.shape() || got.dtype() != want.dtype()) {
      // A size the data decides came out otherwise (a count on the host).
      bisect::Comparison c;
      c.name = name;
      c.op = "(a size the host computed)";
      c.dtype = ref::dtypeName(want.dtype()).str();
      c.shape.assign(want.shape().begin(), want.shape().end());
      c.metrics.elements = want.numElements();
      c.metrics.bad.push_back(0);
      c.pattern.kind = "shape";
      c.pattern.where = "the device run's output is [" +
                        ref::shapeString(got.shape()) + "], the reference's [" +
                        ref::shapeString(want.shape()) + "]";
      f.outputs.push_back(std::move(c));
      continue;
    }
    auto [producer, type] = producerOf(name, want);
    f.outputs.push_back(compareValue(env, name, producer, type, got,
                                     sim::toDeviceFormat(env.target, want),
                                     oracleOf(i), true));
  }
  if (anyFailed(f.outputs)) {
    checkBoundary();
    // Else the first segment wrong from what it read.
    for (const SegmentedRun::Segment &seg : dev.segments) {
      if (f.boundary || opts.check)
        break;
      Bisector b(env, seg.module.get(), seg.module.get().lookupSymbol<func::FuncOp>("main"));
      b.args.assign(seg.args.begin(), seg.args.end());
      if (std::optional<int> code = bisectGraph(b, seg.resultNames, {}))
        return *code;
      if (b.f.failure.empty() && !anyFailed(b.f.outputs) && !b.f.nondeterministic)
        continue;
      Findings whole = std::move(f);
      f = std::move(b.f);
      f.model = whole.model;
      f.target = whole.target;
      f.overrides = whole.overrides;
      f.profile = whole.profile;
      f.inject = whole.inject;
      f.segments = whole.segments;
      f.segment = seg.index;
      f.referenceMatchesExpected = whole.referenceMatchesExpected;
      break;
    }
    // (--check bisects no segment: only a differing size names it.)
    f.hostDivergence =
        !f.boundary && f.segment < 0 &&
        (!opts.check || llvm::any_of(f.outputs, [](const bisect::Comparison &o) {
          return o.pattern.kind == "shape";
        }));
  }
  return finish(opts, f, classify(f));
}

int dfa::driver::bisectMain(const BisectOptions &opts) {
  auto ctx = createContext();
  DiagnosticPrinter printer(*ctx, "dfa-bisect");
  const RunOptions &run = opts.run;
  std::optional<Profile> profile = profileNamed(opts.profile);
  if (!profile)
    return usage(printer, "--profile must be strict or lenient, got '" +
                              opts.profile + "'");
  if (run.target == target::kReferenceTarget)
    return usage(printer, "name the target whose schedule to check: --target "
                          "NAME (the cpu target is the reference)");
  BisectEnv env{opts, *ctx, printer, {}, *profile, {}, {}};
  for (const std::string &t : opts.tolerances) {
    auto [node, ulps] = llvm::StringRef(t).split('=');
    double v;
    if (node.empty() || ulps.getAsDouble(v) || v < 0)
      return usage(printer, "--tolerance expects NODE=ULPS, got '" + t + "'");
    env.nodeUlps[node.str()] = v;
  }
  if (!opts.stopAfter.empty()) {
    auto [stage, count] = llvm::StringRef(opts.stopAfter).split(':');
    env.stopStage = stageIndex(stage);
    int n = -1;
    if (env.stopStage < 1 || (!count.empty() && (count.getAsInteger(10, n) || n < 0)))
      return usage(printer, "--stop-after expects STAGE or STAGE:PASSES (a "
                            "stage after graph: decomposed, fused, tiled, "
                            "laid-out, sched), got '" + opts.stopAfter + "'");
    env.stopPasses = n;
  }
  if (llvm::StringRef(run.model.model).ends_with(".sched.mlir"))
    return usage(printer, "dfa-bisect needs the model (its graph), not a "
                          "saved schedule");
  if (Status s = loadTarget(run.target, run, env.target, printer); s != Status::Ok)
    return setupFailure(s);
  if (env.target.caps.reference)
    return usage(printer, "name the target whose schedule to check: --target "
                          "NAME ('" + env.target.name +
                          "' is the CPU reference)");
  env.compile.targetDirs = run.targetDirs;
  env.compile.overrides = run.overrides;
  env.compile.inject = run.inject;
  env.compile.fp32Matmul = run.fp32Matmul;

  std::vector<std::string> inputFiles = run.inputs, expectFiles = run.expect;
  if (!run.testData.empty()) {
    if (!inputFiles.empty() || !expectFiles.empty())
      return usage(printer, "--test-data cannot be combined with --inputs or --expect");
    if (Status s = listTestData(run.testData, inputFiles, expectFiles, printer);
        s != Status::Ok)
      return setupFailure(s);
  }
  PreparedRun prepared;
  if (Status s = prepareModelRun(run, inputFiles, expectFiles, *ctx, printer,
                                 prepared, /*segments=*/true);
      s != Status::Ok)
    return setupFailure(s);
  if (prepared.segmented)
    return bisectSegments(env, prepared);
  // Two references keep every value (the stored-format one and the oracle).
  double need =
      2 * ref::peakLiveBytes(prepared.func.getBody().front(), /*keepValues=*/true);
  if (!limits::fits(need)) {
    printer.error("bisecting keeps every value of two reference runs, about " +
                  limits::formatSize(need) + ", " + limits::overBudget());
    return LimitExceeded;
  }

  Bisector b(env, *prepared.model.module, prepared.func);
  Findings &f = b.f;
  f.model = llvm::sys::path::filename(run.model.model).str();
  f.target = env.target.name;
  for (const target::Override &o : env.target.overrides)
    f.overrides[o.key] = o.value;
  f.profile = profile->name;
  f.inject = run.inject;
  b.args = prepared.args;
  if (std::optional<int> code = bisectGraph(b, prepared.outNames, prepared.expected))
    return *code;
  Classification c = classify(f);
  if (!opts.reduce.empty() && c.exitCode != Pass && f.failure != "compile") {
    std::optional<size_t> first;
    if (f.node) {
      std::vector<Operation *> nodes = nodesOf(b.main);
      for (size_t i = 0; i < nodes.size(); ++i)
        if (nodeName(nodes[i]) == f.node->name) {
          first = i;
          break;
        }
    }
    // The signature --check sees: the verdict without localization.
    Findings checked = f;
    checked.node.reset();
    checked.isolatedFails.reset();
    checked.swappedOperand.reset();
    checked.ladder.clear();
    checked.stage.clear();
    checked.pass.clear();
    Signature want = signatureOf(checked, classify(checked));
    Reduction red = reduce(
        env, b.graph, b.argsStored, first,
        [&](ModuleOp m, ArrayRef<ref::Tensor> a) { return quickCheck(env, m, a); },
        want);
    f.pipeline = red.stopStage == kSchedStage && red.stopPasses < 0
                     ? "every stage"
                     : "through " + stageName(Stage(red.stopStage)).str() +
                           (red.stopPasses >= 0
                                ? " (" + std::to_string(red.stopPasses) +
                                      " pass(es))"
                                : "");
    f.reducedFrom = int64_t(red.nodesBefore);
    f.reducedTo = int64_t(red.nodesAfter);
    f.reduceChecks = red.checks;
    f.shapesReduced = red.shapesReduced;
    if (writeReproducer(red, opts, env.target.name, verdictLine(f, c),
                        want.exitCode, printer) != Status::Ok)
      return Usage;
    f.reproducer = opts.reduce;
  }
  return finish(opts, f, c);
}
