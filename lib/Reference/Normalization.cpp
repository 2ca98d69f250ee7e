//===- Normalization.cpp - reference softmax and normalizations -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dfa;
using namespace dfa::ref;
using namespace dfa::graph;

namespace {
/// Applies `f(row, len, stride)` to every 1-D line along `axis` of a double
/// copy of the input and stores the result with the result's type.
template <typename F>
LogicalResult alongAxis(Operation *op, int64_t axis, Evaluator &ev, F f) {
  const Tensor &x = ev.get(op->getOperand(0));
  auto [outer, len, inner] = around(x.shape(), axis);
  std::vector<double> v = x.toDoubles();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      f(v.data() + o * len * inner + i, len, inner);
  Value res = op->getResult(0);
  ev.set(res, Tensor::fromDoubles(dtypeOfValue(res), x.shape(), v));
  return success();
}

double lineMax(const double *p, int64_t len, int64_t st) {
  double m = -std::numeric_limits<double>::infinity();
  for (int64_t k = 0; k < len; ++k)
    m = std::max(m, p[k * st]);
  return m;
}
} // namespace

template <>
LogicalResult dfa::ref::evalOp<SoftmaxOp>(SoftmaxOp op, Evaluator &ev) {
  bool emptyRowsZero = op.getEmptyRowsZero();
  return alongAxis(op, op.getAxis(), ev, [&](double *p, int64_t len, int64_t st) {
    double m = lineMax(p, len, st), sum = 0;
    // torch's _safe_softmax: a row of -inf alone (not one with a NaN) is 0.
    if (emptyRowsZero && m == -INFINITY) {
      bool allMasked = true;
      for (int64_t k = 0; k < len; ++k)
        allMasked &= p[k * st] == -INFINITY;
      if (allMasked) {
        for (int64_t k = 0; k < len; ++k)
          p[k * st] = 0;
        return;
      }
    }
    for (int64_t k = 0; k < len; ++k)
      sum += (p[k * st] = std::exp(p[k * st] - m));
    for (int64_t k = 0; k < len; ++k)
      p[k * st] /= sum;
  });
}

template <>
LogicalResult dfa::ref::evalOp<LogSoftmaxOp>(LogSoftmaxOp op, Evaluator &ev) {
  return alongAxis(op, op.getAxis(), ev, [](double *p, int64_t len, int64_t st) {
    double m = lineMax(p, len, st), sum = 0;
    for (int64_t k = 0; k < len; ++k)
      sum += std::exp(p[k * st] - m);
    double lse = m + std::log(sum);
    for (int64_t k = 0; k < len; ++k)
      p[k * st] -= lse;
  });
}

template <>
LogicalResult dfa::ref::evalOp<HardmaxOp>(HardmaxOp op, Evaluator &ev) {
  return alongAxis(op, op.getAxis(), ev, [](double *p, int64_t len, int64_t st) {
    int64_t best = 0;
    for (int64_t k = 1; k < len; ++k)
      if (p[k * st] > p[best * st])
        best = k;
    for (int64_t k = 0; k < len; ++k)
      p[k * st] = k == best ? 1.0 : 0.0;
  });
}

/// CumSum and CumProd: a running sum or product along the axis, shifted by
/// one when exclusive, from the far end when reversed.
template <typename OpT>
static LogicalResult cumulative(OpT op, Evaluator &ev, bool product) {
  bool excl = op.getExclusive(), rev = op.getReverse();
  return alongAxis(op, op.getAxis(), ev, [&](double *p, int64_t len, int64_t st) {
    double acc = product ? 1 : 0;
    for (int64_t j = 0; j < len; ++j) {
      int64_t k = rev ? len - 1 - j : j;
      double v = p[k * st];
      double next = product ? acc * v : acc + v;
      p[k * st] = excl ? acc : next;
      acc = next;
    }
  });
}

template <>
LogicalResult dfa::ref::evalOp<CumSumOp>(CumSumOp op, Evaluator &ev) {
  return cumulative(op, ev, /*product=*/false);
}

template <>
LogicalResult dfa::ref::evalOp<CumProdOp>(CumProdOp op, Evaluator &ev) {
  return cumulative(op, ev, /*product=*/true);
}

template <>
LogicalResult dfa::ref::evalOp<LpNormOp>(LpNormOp op, Evaluator &ev) {
  int64_t pw = op.getP();
  return alongAxis(op, op.getAxis(), ev, [&](double *p, int64_t len, int64_t st) {
    double acc = 0;
    for (int64_t k = 0; k < len; ++k)
      acc += pw == 1 ? std::fabs(p[k * st]) : p[k * st] * p[k * st];
    double norm = pw == 1 ? acc : std::sqrt(acc);
    for (int64_t k = 0; k < len; ++k)
      p[k * st] = norm == 0 ? 0 : p[k * st] / norm;
  });
}

template <>
LogicalResult dfa::ref::evalOp<BatchNormOp>(BatchNormOp op, Evaluator &ev) {
  const Tensor &x = ev.get(op.getInput());
  std::vector<double> v = x.toDoubles();
  std::vector<double> scale = ev.get(op.getScale()).toDoubles();
  std::vector<double> bias = ev.get(op.getBias()).toDoubles();
  std::vector<double> mean = ev.get(op.getMean()).toDoubles();
  std::vector<double> var = ev.get(op.getVariance()).toDoubles();
  double eps = op.getEpsilon().convertToDouble();
  int64_t N = x.shape()[0], C = x.shape()[1];
  int64_t S = x.numElements() / std::max<int64_t>(N * C, 1);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c) {
      double a = scale[c] / std::sqrt(var[c] + eps);
      double b = bias[c] - mean[c] * a;
      double *p = v.data() + (n * C + c) * S;
      for (int64_t s = 0; s < S; ++s)
        p[s] = p[s] * a + b;
    }
  ev.set(op.getOutput(), Tensor::fromDoubles(x.dtype(), x.shape(), v));
  return success();
}

/// Normalizes the group of `len` consecutive elements at p to zero mean and
/// unit variance.
static void normalizeGroup(double *p, int64_t len, double eps) {
  double mean = 0, var = 0;
  for (int64_t k = 0; k < len; ++k)
    mean += p[k];
  mean /= len;
  for (int64_t k = 0; k < len; ++k)
    var += (p[k] - mean) * (p[k] - mean);
  var /= len;
  double inv = 1.0 / std::sqrt(var + eps);
  for (int64_t k = 0; k < len; ++k)
    p[k] = (p[k] - mean) * inv;
}

/// normalizeGroup over each group of `len` consecutive elements of v, the
/// groups split over the threads.
static void normalizeGroups(std::vector<double> &v, int64_t len, double eps) {
  if (len <= 0)
    return;
  int64_t groups = int64_t(v.size()) / len;
  parallelFor(groups, grainFor(4 * len), [&](int64_t begin, int64_t end) {
    for (int64_t g = begin; g < end; ++g)
      normalizeGroup(v.data() + g * len, len, eps);
  });
}

template <>
LogicalResult dfa::ref::evalOp<InstanceNormOp>(InstanceNormOp op, Evaluator &ev) {
  const Tensor &x = ev.get(op.getInput());
  std::vector<double> v = x.toDoubles();
  std::vector<double> scale = ev.get(op.getScale()).toDoubles();
  std::vector<double> bias = ev.get(op.getBias()).toDoubles();
  int64_t N = x.shape()[0], C = x.shape()[1];
  int64_t S = x.numElements() / std::max<int64_t>(N * C, 1);
  normalizeGroups(v, S, op.getEpsilon().convertToDouble());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t s = 0; s < S; ++s) {
        double &e = v[(n * C + c) * S + s];
        e = e * scale[c] + bias[c];
      }
  ev.set(op.getOutput(), Tensor::fromDoubles(x.dtype(), x.shape(), v));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<LayerNormOp>(LayerNormOp op, Evaluator &ev) {
  const Tensor &x = ev.get(op.getInput());
  ArrayRef<int64_t> norm = x.shape().drop_front(op.getAxis());
  int64_t len = numElements(norm);
  double eps = op.getEpsilon().convertToDouble();
  // scale and bias broadcast against the normalized dims: their element
  // for each position of a group.
  auto param = [&](Value v, std::vector<double> &at) {
    const Tensor &t = ev.get(v);
    std::vector<double> p = t.toDoubles();
    Shape st = broadcastStrides(t.shape(), norm);
    at.resize(len);
    forEachOffset2(norm, st, st,
                   [&](int64_t i, int64_t o, int64_t) { at[i] = p[o]; });
  };
  std::vector<double> scale, bias;
  param(op.getScale(), scale);
  if (op.getBias())
    param(op.getBias(), bias);
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  int64_t groups = len == 0 ? 0 : x.numElements() / len;
  // Each group: normalized, times scale, plus bias, rounded once.
  parallelFor(groups, grainFor(6 * len), [&](int64_t begin, int64_t end) {
    std::vector<double> g(len);
    for (int64_t i = begin; i < end; ++i) {
      int64_t at = i * len;
      if (x.dtype() == DType::F32)
        for (int64_t k = 0; k < len; ++k)
          g[k] = x.data<float>()[at + k];
      else
        for (int64_t k = 0; k < len; ++k)
          g[k] = x.getDouble(at + k);
      normalizeGroup(g.data(), len, eps);
      for (int64_t k = 0; k < len; ++k)
        g[k] = g[k] * scale[k];
      if (!bias.empty())
        for (int64_t k = 0; k < len; ++k)
          g[k] = g[k] + bias[k];
      if (x.dtype() == DType::F32)
        for (int64_t k = 0; k < len; ++k)
          out.data<float>()[at + k] = float(g[k]);
      else
        for (int64_t k = 0; k < len; ++k)
          out.setDouble(at + k, g[k]);
    }
  });
  ev.set(op.getOutput(), std::move(out));
  return success();
}
