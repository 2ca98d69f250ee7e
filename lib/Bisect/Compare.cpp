//===- Compare.cpp - dfa-bisect's tolerance model and metrics --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Bisect/Compare.h"

#include "dialects/Graph/GraphOps.h"

#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace mlir;
using namespace dfa;
using namespace dfa::bisect;

llvm::StringRef dfa::bisect::className(OpClass c) {
  switch (c) {
  case OpClass::Movement: return "movement";
  case OpClass::Exact: return "exact";
  case OpClass::Elementwise: return "elementwise";
  case OpClass::Transcendental: return "transcendental";
  case OpClass::Reduction: return "reduction";
  case OpClass::Composite: return "composite";
  }
  return "elementwise";
}

namespace {

int64_t elementsOf(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape() ? t.getNumElements() : 1;
}

int64_t lastDim(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getRank() > 0 ? std::max<int64_t>(1, t.getShape().back()) : 1;
}

/// The contracting length of the products `op` sums, where it is a sum
/// of products all the way down (through at most `depth` more adds); 0
/// where anything else is added.
int64_t productsSummed(Operation *op, ProducerFn producerOf, int depth) {
  int64_t total = 0;
  for (Value v : op->getOperands()) {
    Operation *p = producerOf ? producerOf(v) : v.getDefiningOp();
    if (!p)
      return 0;
    int64_t k = 0;
    if (isa<graph::AddOp>(p)) {
      if (depth > 0)
        k = productsSummed(p, producerOf, depth - 1);
    } else if (graph::numericsOf(p) != graph::Numerics::Accumulated ||
               classOf(p, k) != OpClass::Reduction) {
      k = 0;
    }
    if (k <= 0)
      return 0;
    total += k;
  }
  return total;
}

} // namespace

OpClass dfa::bisect::classOf(Operation *op, int64_t &k, ProducerFn producerOf) {
  k = 1;
  if (op->getNumResults() == 0)
    return OpClass::Movement;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (type && !graph::isFloatElement(type.getElementType()))
    return OpClass::Exact;
  // A sum of products reduces over all their contracting lengths: a
  // product cut along K with its partials summed (graph-shard's tree of
  // adds, 2^8 pieces deep at most), or a model's x W + h U.
  if (isa<graph::AddOp>(op))
    if (int64_t summed = productsSummed(op, producerOf, 8); summed > 0) {
      k = summed;
      return OpClass::Reduction;
    }
  // The graph dialect's one table of op classes says how the op rounds;
  // the length it reduces over follows from its structure.
  switch (graph::numericsOf(op)) {
  case graph::Numerics::Exact:
    return OpClass::Movement;
  case graph::Numerics::Rounded:
    return OpClass::Elementwise;
  case graph::Numerics::Transcendental:
    return OpClass::Transcendental;
  case graph::Numerics::Composite: {
    // The axis (softmax), the dims from the axis on (layer and Lp norm),
    // the spatial dims (instance norm); batch norm at inference reduces
    // nothing.
    auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    int64_t rank = in ? in.getRank() : 0;
    auto axisAttr = op->getAttrOfType<IntegerAttr>("axis");
    int64_t axis = axisAttr ? axisAttr.getInt() : rank - 1;
    if (axis < 0)
      axis += rank;
    if (in && rank > 0) {
      if (isa<graph::LayerNormOp, graph::LpNormOp>(op))
        for (int64_t d = std::clamp<int64_t>(axis, 0, rank - 1); d < rank; ++d)
          k *= std::max<int64_t>(1, in.getDimSize(d));
      else if (isa<graph::InstanceNormOp>(op))
        for (int64_t d = 2; d < rank; ++d)
          k *= std::max<int64_t>(1, in.getDimSize(d));
      else if (!isa<graph::BatchNormOp>(op))
        k = std::max<int64_t>(1, in.getDimSize(std::clamp<int64_t>(axis, 0, rank - 1)));
    }
    return OpClass::Composite;
  }
  case graph::Numerics::Accumulated:
    break;
  }
  if (auto gemm = dyn_cast<graph::GemmOp>(op)) {
    auto a = dyn_cast<RankedTensorType>(gemm.getA().getType());
    k = a && a.getRank() == 2 ? a.getDimSize(gemm.getTransA() ? 0 : 1) : 1;
    return OpClass::Reduction;
  }
  switch (graph::classify(op)) {
  case graph::OpClass::Matmul:
  case graph::OpClass::Attention:
    k = lastDim(op->getOperand(0));
    // Attention's second product reduces over the keys.
    if (isa<graph::AttentionOp>(op) && op->getNumOperands() > 1)
      if (auto keys = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
          keys && keys.getRank() >= 2)
        k = std::max(k, keys.getDimSize(keys.getRank() - 2));
    return OpClass::Reduction;
  case graph::OpClass::Conv: {
    Value w = op->getOperand(1);
    auto wt = cast<RankedTensorType>(w.getType());
    k = wt.getRank() > 0 ? elementsOf(w) / std::max<int64_t>(1, wt.getDimSize(0))
                         : 1;
    return OpClass::Reduction;
  }
  default:
    break;
  }
  if (isa<graph::CumSumOp, graph::CumProdOp>(op))
    k = lastDim(op->getOperand(0));
  else
    k = std::max<int64_t>(1, elementsOf(op->getOperand(0)) /
                                 std::max<int64_t>(1, elementsOf(op->getResult(0))));
  return OpClass::Reduction;
}

Profile dfa::bisect::strictProfile() {
  Profile p;
  p.name = "strict";
  p.elementwiseUlps = 0.5;
  p.transcendentalUlps = 4;
  p.reductionC = 4;
  p.referenceMultiple = 2;
  return p;
}

Profile dfa::bisect::lenientProfile() {
  Profile p;
  p.name = "lenient";
  p.elementwiseUlps = 2;
  p.transcendentalUlps = 16;
  p.reductionC = 8;
  p.referenceMultiple = 3;
  return p;
}

std::optional<Profile> dfa::bisect::profileNamed(llvm::StringRef name) {
  if (name == "strict")
    return strictProfile();
  if (name == "lenient")
    return lenientProfile();
  return std::nullopt;
}

double dfa::bisect::ulp(double x, const Format &f) {
  int emin = 2 - (1 << (f.exponentBits - 1)); // smallest normal exponent
  int e = emin;
  if (x != 0 && std::isfinite(x))
    e = std::max(emin, std::ilogb(x));
  return std::ldexp(1.0, e - f.mantissaBits);
}

Budget dfa::bisect::budgetFor(OpClass cls, int64_t k, const Profile &p,
                              const Format &stored, const Format &acc,
                              bool accumulated) {
  Budget b;
  b.cls = cls;
  b.stored = stored;
  b.accumulator = acc;
  b.reductionLength = std::max<int64_t>(1, k);
  b.ulps = cls == OpClass::Transcendental ? p.transcendentalUlps
                                          : p.elementwiseUlps;
  b.reductionC = p.reductionC;
  b.accumulated = accumulated;
  b.referenceMultiple = p.referenceMultiple;
  return b;
}

namespace {

bool sameBits(const ref::Tensor &a, const ref::Tensor &b, int64_t i) {
  size_t n = ref::dtypeSize(a.dtype());
  if (ref::isFloat(a.dtype())) {
    double x = a.getDouble(i), y = b.getDouble(i);
    if (std::isnan(x) && std::isnan(y))
      return true;
  }
  return std::memcmp(a.bytes() + i * n, b.bytes() + i * n, n) == 0;
}

int bucket(double ulps) {
  if (ulps == 0)
    return 0;
  if (ulps <= 1)
    return 1;
  if (ulps <= 2)
    return 2;
  if (ulps <= 10)
    return 3;
  if (ulps <= 100)
    return 4;
  return 5;
}

} // namespace

std::string dfa::bisect::shortNumber(double x) {
  if (std::isnan(x))
    return "nan";
  if (std::isinf(x))
    return x > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

Metrics dfa::bisect::compare(const ref::Tensor &got, const ref::Tensor &want,
                             const ref::Tensor &oracle, const Budget &b,
                             const ref::Tensor &sameFormat) {
  Metrics m;
  int64_t n = want.numElements();
  m.elements = n;
  // Integers and bools are exact everywhere; float data movement only in
  // isolation: fed device values (accumulated), it carries their rounding.
  bool exactClass = b.cls == OpClass::Exact || !ref::isFloat(want.dtype()) ||
                    (b.cls == OpClass::Movement && !b.accumulated);
  bool haveOracle = oracle.defined() && oracle.numElements() == n;
  // Whose error against the oracle stands for the device's carried error:
  // the reference's own, unless it is another implementation's values.
  bool separate = haveOracle && sameFormat.defined() &&
                  sameFormat.numElements() == n;
  const ref::Tensor &carrier = separate ? sameFormat : want;
  double sumSq = 0, refSq = 0, gotSq = 0, dot = 0, oracleErr = 0,
         referenceErr = 0;
  for (int64_t i = 0; i < n; ++i) {
    double y = want.getDouble(i);
    if (std::isfinite(y))
      refSq += y * y;
  }
  double rms = n ? std::sqrt(refSq / double(n)) : 0;
  // The reference's own error against the oracle, over the tensor.
  double referenceRms = 0;
  if (haveOracle) {
    double sq = 0;
    for (int64_t i = 0; i < n; ++i) {
      double y = carrier.getDouble(i), o = oracle.getDouble(i);
      if (std::isfinite(y) && std::isfinite(o))
        sq += (y - o) * (y - o);
    }
    referenceRms = n ? std::sqrt(sq / double(n)) : 0;
  }
  std::vector<double> ulps;
  ulps.reserve(size_t(n));
  for (int64_t i = 0; i < n; ++i) {
    double x = got.getDouble(i), y = want.getDouble(i);
    bool same = sameBits(got, want, i);
    m.bitExact &= same;
    bool xn = std::isnan(x), yn = std::isnan(y);
    bool xi = std::isinf(x), yi = std::isinf(y);
    if (xn != yn)
      ++m.nanMismatches;
    if (!xn && !yn && (xi || yi) && !(xi && yi && (x > 0) == (y > 0)))
      ++m.infMismatches;
    double diff = (xn || yn) ? (xn == yn ? 0 : INFINITY) : std::fabs(x - y);
    if (xi && yi && (x > 0) == (y > 0))
      diff = 0;
    if (!xn && !yn && x != 0 && y != 0 && std::signbit(x) != std::signbit(y))
      ++m.signFlips;
    if (x == 0 && y != 0 && !yn)
      ++m.zerosWhereNonzero;
    if (std::isfinite(diff)) {
      sumSq += diff * diff;
      if (diff > m.maxAbs) {
        m.maxAbs = diff;
        m.maxAbsIndex = i;
        m.worstGot = x;
        m.worstWant = y;
      }
      double rel = diff / std::max({std::fabs(y), 1e-3 * rms, 1e-30});
      if (rel > m.maxRel) {
        m.maxRel = rel;
        m.maxRelIndex = i;
      }
    } else if (m.maxAbs != INFINITY) {
      m.maxAbs = INFINITY;
      m.maxAbsIndex = i;
      m.worstGot = x;
      m.worstWant = y;
    }
    if (!(diff <= 0.05 * std::max(std::fabs(y), rms)))
      ++m.grossErrors;
    if (std::isfinite(x) && std::isfinite(y)) {
      gotSq += x * x;
      dot += x * y;
    }
    double u = ref::isFloat(want.dtype()) ? ulp(y, b.stored) : 1;
    // The distance in ulps of the larger of the two (a zero reference
    // would count subnormal steps).
    double uLarger = ref::isFloat(want.dtype())
                         ? ulp(std::max(std::fabs(x), std::fabs(y)), b.stored)
                         : 1;
    double inUlps = std::isfinite(diff) ? diff / uLarger : INFINITY;
    ulps.push_back(inUlps);
    ++m.ulpHistogram[bucket(inUlps)];
    double o = 0;
    if (haveOracle) {
      o = oracle.getDouble(i);
      if (std::isfinite(o) && std::isfinite(x) && std::isfinite(y)) {
        oracleErr += (x - o) * (x - o);
        referenceErr += (y - o) * (y - o);
      }
    }
    // The element's allowance.
    bool bad;
    double allowed = 0;
    if (exactClass) {
      bad = !same;
    } else if (!std::isfinite(x) || !std::isfinite(y)) {
      // A non-finite value is right only as the same NaN-ness or infinity.
      bad = !(same || (xn && yn) || (x == y));
    } else {
      allowed = (b.ulps + b.referenceUlps) * u;
      if (b.cls == OpClass::Reduction || b.cls == OpClass::Composite) {
        double uAcc = std::ldexp(1.0, -(b.accumulator.mantissaBits + 1));
        allowed += b.reductionC * std::sqrt(double(b.reductionLength)) * uAcc *
                   std::max(std::fabs(y), rms);
      }
      if (b.accumulated) {
        // Error carried in from upstream: cancellation leaves an element
        // near zero with the error of the values it came from, so the
        // ulps are counted at the tensor's scale too ...
        allowed = std::max(allowed, (b.ulps + b.referenceUlps) * ulp(rms, b.stored));
        // ... and the reference's own error against the oracle (at an
        // element, and three times its rms over the tensor) is admitted
        // m times.
        if (haveOracle && std::isfinite(o)) {
          double c = carrier.getDouble(i);
          double carried = b.referenceMultiple *
                           std::max(std::isfinite(c) ? std::fabs(c - o) : 0.0,
                                    3 * referenceRms);
          allowed += carried + 0.5 * ulp(o, b.stored); // + the storage round trip
          // Expected values from elsewhere are off the oracle by their own
          // rounding, which the device need not share: admitted up to the
          // same scale (rounding, never a different answer).
          if (separate)
            allowed += std::min(std::fabs(y - o), carried);
        }
      }
      bad = (xn != yn) || (!xn && !(diff <= allowed));
    }
    if (bad) {
      m.bad.push_back(i);
      if (!m.constantFill && m.bad.size() == 1)
        m.constantFill = x;
      else if (m.constantFill &&
               !(*m.constantFill == x ||
                 (std::isnan(*m.constantFill) && std::isnan(x))))
        m.constantFill.reset();
    }
    double ratio = exactClass ? (same ? 0 : INFINITY)
                              : (allowed > 0 ? diff / allowed
                                             : (diff > 0 ? INFINITY : 0));
    if (xn != yn)
      ratio = INFINITY;
    if (ratio > m.worstRatio || (m.worstRatioIndex < 0 && bad)) {
      m.worstRatio = ratio;
      m.worstRatioIndex = i;
      m.ulpsAtWorst = inUlps;
      m.allowedUlpsAtWorst = exactClass ? 0 : allowed / uLarger;
    }
  }
  if (m.bad.size() < 2)
    m.constantFill.reset();
  if (m.bad.empty())
    m.constantFill.reset();
  m.rmse = n ? std::sqrt(sumSq / double(n)) : 0;
  m.cosine = (gotSq > 0 && refSq > 0) ? dot / std::sqrt(gotSq * refSq)
                                      : (gotSq == refSq ? 1 : 0);
  if (haveOracle) {
    m.rmseVsOracle = std::sqrt(oracleErr / double(std::max<int64_t>(1, n)));
    m.referenceRmseVsOracle =
        std::sqrt(referenceErr / double(std::max<int64_t>(1, n)));
  }
  if (!ulps.empty()) {
    std::vector<double> sorted = ulps;
    auto at = [&](double q) {
      size_t k = std::min(sorted.size() - 1, size_t(q * double(sorted.size() - 1)));
      std::nth_element(sorted.begin(), sorted.begin() + k, sorted.end());
      return sorted[k];
    };
    m.ulpP50 = at(0.5);
    m.ulpP99 = at(0.99);
    m.maxUlp = *std::max_element(ulps.begin(), ulps.end());
  }
  return m;
}
