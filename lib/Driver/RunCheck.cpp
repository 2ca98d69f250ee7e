//===- RunCheck.cpp - how dfa-run judges --expect --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "RunCheck.h"
#include "BisectRun.h"

#include "dfa/Reference/Evaluator.h"
#include "dfa/Sim/Sim.h"
#include "dfa/Support/Limits.h"

#include "dialects/Graph/GraphOps.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

namespace {

bisect::Profile profileOf(const RunOptions &opts) {
  if (std::optional<bisect::Profile> p = bisect::profileNamed(opts.toleranceProfile))
    return *p;
  return bisect::strictProfile();
}

/// The graph op a saved schedule's output `v` comes from: back through
/// the copies that write its buffer to the kernel that yields it (null
/// when none does: an input returned as it is).
Operation *producerInSchedule(Value v) {
  for (int hops = 0; hops < 64; ++hops) {
    Value from;
    for (Operation *user : v.getUsers()) {
      if (auto c = dyn_cast<sched::ComputeOp>(user))
        for (auto [i, out] : llvm::enumerate(c.getOutputs()))
          if (out == v)
            return c.getBody().front().getTerminator()->getOperand(i).getDefiningOp();
      if (auto d = dyn_cast<sched::DmaOp>(user); d && d.getDest() == v)
        from = d.getSource();
    }
    if (!from)
      return nullptr;
    v = from;
  }
  return nullptr;
}

/// The rounding a value carries from the inputs, as the variance of a
/// random walk (probabilistic error analysis: independent roundings add
/// up as sqrt(sum u_i^2), Higham & Mary 2019, not as the worst case's
/// sum): over the chain that carries the most, the sum of the squared
/// relative spacings (2^-mantissa bits) of the formats its rounding ops
/// store in. A chain through f16 then cast to f32 carries f16's
/// roundings, which counting them in f32's ulps would miss (a product
/// cut along K whose partials are summed in f16). A reduction over k that
/// accumulates in f64 (or wider) passes its accumulation on to its
/// readers as well, c sqrt(k) of the format's unit, as the reduction's own
/// budget admits it: a bias or an activation after an f64 product carries
/// the product's reassociation (a split along K sums it in another
/// order), which the oracle, itself in f64, cannot measure; in a narrower
/// format the oracle measures it (checkOutputs). `own`: what the value
/// itself is admitted (its own accumulation is its budget's); `carried`:
/// what its readers inherit.
struct Carried {
  double own = 0, carried = 0;
};

/// The accumulation a reduction passes on (Carried), as a variance.
double accumulationVariance(const target::Target &t, Operation *op,
                            const bisect::Profile &p) {
  int64_t k = 1;
  bisect::OpClass cls = bisect::classOf(op, k);
  if ((cls != bisect::OpClass::Reduction && cls != bisect::OpClass::Composite) || k <= 1)
    return 0;
  int bits = 0;
  for (Value x : op->getOperands())
    if (auto type = dyn_cast<RankedTensorType>(x.getType());
        type && isa<FloatType>(type.getElementType()))
      bits = std::max(bits, storedFormat(t, type.getElementType()).mantissaBits);
  if (std::optional<target::StorageFormat> a =
          t.floatFormat(t.accumulator.empty() ? "f32" : t.accumulator))
    bits = std::max(bits, a->mantissaBits);
  // The oracle's own format: what it cannot resolve.
  if (bits < std::numeric_limits<double>::digits - 1)
    return 0;
  double r = p.reductionC / std::max(p.elementwiseUlps, 1e-9) * std::sqrt(double(k)) *
             std::ldexp(1.0, -(bits + 1));
  return r * r;
}

/// Carried roundings (above) over the ops of `block`: a graph's, or a
/// saved schedule's, through its copies and into its kernels' bodies (a
/// kernel's outputs carry the deepest chain of its body; a buffer written
/// by several kernels or copies, the deepest of them).
void roundingVariance(const target::Target &t, const bisect::Profile &p, Block &block,
                      llvm::DenseMap<Value, Carried> &variance) {
  auto deepest = [&](ValueRange vs) {
    double d = 0;
    for (Value v : vs)
      d = std::max(d, variance.lookup(v).carried);
    return d;
  };
  auto raise = [&](Value v, Carried c) {
    Carried &to = variance[v];
    to.own = std::max(to.own, c.own);
    to.carried = std::max(to.carried, c.carried);
  };
  for (Operation &op : block) {
    if (auto dma = dyn_cast<sched::DmaOp>(op)) {
      raise(dma.getDest(), variance.lookup(dma.getSource()));
      continue;
    }
    if (auto c = dyn_cast<sched::ComputeOp>(op)) {
      Block &body = c.getBody().front();
      for (auto [arg, in] : llvm::zip(body.getArguments(), c.getInputs()))
        variance[arg] = variance.lookup(in);
      roundingVariance(t, p, body, variance);
      for (auto [out, y] : llvm::zip(c.getOutputs(), body.getTerminator()->getOperands()))
        raise(out, variance.lookup(y));
      continue;
    }
    // An op that only moves values (a view, a widening cast) passes on
    // what its operands carry, as it is.
    if (graph::numericsOf(&op) == graph::Numerics::Exact) {
      Carried c;
      for (Value x : op.getOperands()) {
        c.own = std::max(c.own, variance.lookup(x).own);
        c.carried = std::max(c.carried, variance.lookup(x).carried);
      }
      for (Value r : op.getResults())
        variance[r] = c;
      continue;
    }
    double d = deepest(op.getOperands());
    double accumulation = op.getNumResults() ? accumulationVariance(t, &op, p) : 0;
    for (Value r : op.getResults()) {
      auto type = dyn_cast<RankedTensorType>(r.getType());
      double u = 0;
      if (type && isa<FloatType>(type.getElementType()))
        u = std::ldexp(1.0, -storedFormat(t, type.getElementType()).mantissaBits);
      variance[r] = {d + u * u, d + u * u + accumulation};
    }
  }
}

/// The ulps of `type`'s stored format that a value carrying `variance`
/// (roundingVariance) is admitted: the profile's elementwise ulps per
/// unit of its spacing.
double referenceUlpsOf(const target::Target &t, Type type, double variance,
                       const bisect::Profile &p) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !isa<FloatType>(tensor.getElementType()))
    return 0;
  double u = std::ldexp(1.0, -storedFormat(t, tensor.getElementType()).mantissaBits);
  return p.elementwiseUlps * std::sqrt(variance) / u;
}

/// `got` against `want` by budget `b` (with the references when defined).
Comparison judge(const ref::Tensor &got, const ref::Tensor &want,
                 const bisect::Budget &b, const std::string &profile,
                 const ref::Tensor &same, const ref::Tensor &oracle) {
  Comparison c;
  c.budgeted = true;
  c.opClass = bisect::className(b.cls).str();
  c.storedFormat = b.stored.name;
  c.reductionLength = b.reductionLength;
  c.profile = profile;
  c.problem = incomparable(got, want);
  if (!c.problem.empty()) {
    c.ok = false;
    return c;
  }
  c.references = oracle.defined();
  bisect::Metrics m = bisect::compare(got, want, oracle, b, same);
  c.ok = !m.failed();
  c.mismatches = int64_t(m.bad.size());
  c.maxAbsError = m.maxAbs;
  c.maxRelError = m.maxRel;
  if (m.failed() && m.worstRatioIndex >= 0) {
    c.worstIndex = m.worstRatioIndex;
    c.worstActual = got.getDouble(c.worstIndex);
    c.worstExpected = want.getDouble(c.worstIndex);
    c.worstUlps = m.ulpsAtWorst;
    c.budgetUlps = m.allowedUlpsAtWorst;
  }
  return c;
}

std::string number(double x) {
  if (std::isinf(x))
    return x > 0 ? "inf" : "-inf";
  if (std::isnan(x))
    return "nan";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format(x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : "%.2g", x);
  return s;
}

} // namespace

OutputJudge dfa::driver::modelJudge(const RunOptions &opts,
                                    const target::Target &t, func::FuncOp main,
                                    ArrayRef<ref::Tensor> args) {
  OutputJudge j;
  if (opts.explicitTolerance)
    return j;
  bisect::Profile p = profileOf(opts);
  j.profile = p.name;
  llvm::DenseMap<Value, Carried> variance;
  roundingVariance(t, p, main.getBody().front(), variance);
  Operation *ret = main.getBody().front().getTerminator();
  // The op whose rounding an output carries: back through the ops that
  // only move their one input's values (a view of a product's result, as
  // core ATen ends a 4-D matmul; a target may compute the product another
  // way, as flash attention does).
  auto rounding = [](Value v) {
    Operation *op = v.getDefiningOp();
    while (op && op->getNumOperands() == 1 &&
           graph::numericsOf(op) == graph::Numerics::Exact &&
           op->getOperand(0).getDefiningOp())
      op = op->getOperand(0).getDefiningOp();
    return op;
  };
  for (Value v : ret->getOperands()) {
    bisect::Budget b = budgetOf(t, rounding(v), v.getType(), p,
                                /*accumulated=*/true);
    b.referenceUlps = referenceUlpsOf(t, v.getType(), variance.lookup(v).own, p);
    j.budgets.push_back(b);
  }
  j.ctx = main->getContext();
  j.references = [&t, main, args](std::vector<ref::Tensor> &same,
                                  std::vector<ref::Tensor> &oracle) mutable {
    // Two runs, one after the other, each freeing values as it goes.
    double need = ref::peakLiveBytes(main.getBody().front(), false);
    if (!limits::fits(need))
      return Status::LimitExceeded;
    SmallVector<ref::Tensor> stored;
    for (const ref::Tensor &a : args)
      stored.push_back(sim::toDeviceFormat(t, a));
    ref::Evaluator sameFormat;
    FailureOr<SmallVector<ref::Tensor>> s = sameFormat.run(main, stored);
    if (failed(s))
      return Status::RuntimeError;
    for (const ref::Tensor &x : *s)
      same.push_back(sim::toDeviceFormat(t, x));
    ref::EvalOptions fp64;
    fp64.fp64Accumulate = true;
    fp64.ieeeMatmul = true;
    ref::Evaluator exact(fp64);
    FailureOr<SmallVector<ref::Tensor>> o = exact.run(main, args);
    if (failed(o))
      return Status::RuntimeError;
    oracle.assign(o->begin(), o->end());
    return Status::Ok;
  };
  return j;
}

OutputJudge dfa::driver::scheduleJudge(const RunOptions &opts,
                                       const target::Target &t,
                                       sched::ProgramOp program,
                                       ArrayRef<ref::Tensor> args) {
  OutputJudge j;
  if (opts.explicitTolerance)
    return j;
  bisect::Profile p = profileOf(opts);
  j.profile = p.name;
  // The schedule holds the whole program (its kernels' bodies are graph
  // ops), so an output carries the roundings of its chain as a model's
  // does (modelJudge), and the references run its kernels in the CPU
  // reference's and the oracle's arithmetic.
  llvm::DenseMap<Value, Carried> variance;
  roundingVariance(t, p, program.getBlock(), variance);
  // A value a kernel's body reads as an argument was made by the kernel
  // that wrote its buffer (the partials of a product cut along K, made
  // on other chips, summed here).
  auto producerOf = [](Value v) -> Operation * {
    if (Operation *op = v.getDefiningOp())
      return op;
    auto arg = cast<BlockArgument>(v);
    auto c = dyn_cast<sched::ComputeOp>(arg.getOwner()->getParentOp());
    if (!c || arg.getArgNumber() >= c.getInputs().size())
      return nullptr;
    return producerInSchedule(c.getInputs()[arg.getArgNumber()]);
  };
  for (Value v : program.getBlock().getTerminator()->getOperands()) {
    Type tensor = cast<sched::BufferType>(v.getType()).getTensor();
    bisect::Budget b = budgetOf(t, producerInSchedule(v), tensor, p,
                                /*accumulated=*/true, producerOf);
    b.referenceUlps = referenceUlpsOf(t, tensor, variance.lookup(v).own, p);
    j.budgets.push_back(b);
  }
  j.ctx = program->getContext();
  j.references = [&t, program, args](std::vector<ref::Tensor> &same,
                                     std::vector<ref::Tensor> &oracle) {
    for (auto [a, into] : {std::pair{sim::Options::Arithmetic::Reference, &same},
                           std::pair{sim::Options::Arithmetic::Oracle, &oracle}}) {
      sim::Options so;
      so.arithmetic = a;
      sim::Result r;
      if (Status s = sim::simulate(program, t, args, so, r); s != Status::Ok)
        return s;
      into->assign(r.outputs.begin(), r.outputs.end());
    }
    return Status::Ok;
  };
  return j;
}

std::vector<Comparison> dfa::driver::checkOutputs(
    ArrayRef<ref::Tensor> results, ArrayRef<ref::Tensor> expected,
    const RunOptions &opts, const OutputJudge &judgeBy) {
  std::vector<Comparison> checks;
  bool byBudget = judgeBy.budgets.size() == results.size();
  bool allOk = true;
  for (size_t i = 0; i < results.size(); ++i) {
    checks.push_back(byBudget ? judge(results[i], expected[i], judgeBy.budgets[i],
                                      judgeBy.profile, {}, {})
                              : compare(results[i], expected[i], opts.rtol,
                                        opts.atol));
    allOk &= checks.back().ok;
  }
  // The references can change only a finite float element's verdict.
  bool couldChange = false;
  for (size_t i = 0; i < results.size(); ++i) {
    const Comparison &c = checks[i];
    couldChange |= !c.ok && c.problem.empty() &&
                   ref::isFloat(results[i].dtype()) &&
                   std::isfinite(c.worstActual) && std::isfinite(c.worstExpected);
  }
  if (allOk || !byBudget || !judgeBy.references || !couldChange)
    return checks;
  // Over the budget of one op: measure the error carried in from upstream
  // before calling it wrong.
  std::vector<ref::Tensor> same, oracle;
  Status s;
  {
    // An optional step: its errors become the warning below.
    ScopedDiagnosticHandler quiet(judgeBy.ctx, [](Diagnostic &) { return success(); });
    s = judgeBy.references(same, oracle);
  }
  if (s != Status::Ok || same.size() != results.size() ||
      oracle.size() != results.size()) {
    llvm::errs() << "dfa-run: warning: "
                 << (s == Status::LimitExceeded
                         ? "the references that measure carried rounding need "
                           "more memory than --max-memory allows"
                         : "the CPU reference cannot run the model on these "
                           "inputs")
                 << "; outputs judged by the budget of their last op alone\n";
    return checks;
  }
  for (size_t i = 0; i < results.size(); ++i)
    if (!checks[i].ok && checks[i].problem.empty())
      checks[i] = judge(results[i], expected[i], judgeBy.budgets[i],
                        judgeBy.profile, same[i], oracle[i]);
  return checks;
}

std::string dfa::driver::checkText(const Comparison &c,
                                   ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (!c.problem.empty()) {
    os << "  MISMATCH: " << c.problem;
    return s;
  }
  if (c.ok) {
    os << "  ok (max abs error " << c.maxAbsError << ")";
    return s;
  }
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  os << "  MISMATCH: " << c.mismatches << " of " << n << " elements, worst at "
     << indexString(shape, c.worstIndex) << ": got " << c.worstActual
     << ", expected " << c.worstExpected;
  if (c.budgeted) {
    os << "; ";
    if (!std::isfinite(c.worstActual) || !std::isfinite(c.worstExpected))
      os << (std::isfinite(c.worstExpected) ? "not finite where the expected value is"
                                            : "not what the expected value is");
    else if (c.budgetUlps == 0)
      os << number(c.worstUlps) << " ulps of " << c.storedFormat
         << ", must be exact";
    else
      os << number(c.worstUlps) << " ulps of " << c.storedFormat << ", budget "
         << number(c.budgetUlps);
    os << " (" << c.opClass;
    if (c.reductionLength > 1)
      os << " over " << c.reductionLength;
    os << ", " << c.profile
       << (c.references ? ", with carried rounding measured" : "") << ")";
  }
  return s;
}

void dfa::driver::checkJson(llvm::json::OStream &j, const Comparison &c,
                            ArrayRef<int64_t> shape) {
  // JSON has no inf or NaN: a non-finite figure is null.
  auto finite = [](double x) -> llvm::json::Value {
    return std::isfinite(x) ? llvm::json::Value(x) : llvm::json::Value(nullptr);
  };
  j.attributeObject("check", [&] {
    j.attribute("ok", c.ok);
    if (!c.problem.empty())
      j.attribute("problem", c.problem);
    j.attribute("mismatches", c.mismatches);
    j.attribute("max_abs_error", finite(c.maxAbsError));
    j.attribute("max_rel_error", finite(c.maxRelError));
    if (c.worstIndex >= 0)
      j.attribute("worst_index", indexString(shape, c.worstIndex));
    if (!c.budgeted) {
      j.attribute("rule", "allclose");
      return;
    }
    j.attribute("rule", "budget");
    j.attributeObject("budget", [&] {
      j.attribute("class", c.opClass);
      j.attribute("reduction_length", c.reductionLength);
      j.attribute("stored_format", c.storedFormat);
      j.attribute("profile", c.profile);
      j.attribute("references", c.references);
    });
    if (c.worstIndex >= 0) {
      j.attribute("worst_ulps", finite(c.worstUlps));
      j.attribute("budget_ulps", finite(c.budgetUlps));
    }
  });
}
