//===- Reduction.cpp - reference reductions ---------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Reductions accumulate in double (int64 for integers) and round once.
///
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace dfa;
using namespace dfa::ref;
using namespace dfa::graph;

namespace {
enum class Red { Sum, Mean, Max, Min, Prod, L1, L2, SumSquare, LogSum, LogSumExp };

/// Strides that map an input index to the output index of a reduction over
/// `axes` (0 on reduced dims).
Shape reduceStrides(ArrayRef<int64_t> in, ArrayRef<int64_t> axes) {
  Shape kept;
  for (int64_t d = 0; d < (int64_t)in.size(); ++d)
    kept.push_back(llvm::is_contained(axes, d) ? 1 : in[d]);
  Shape st = rowMajorStrides(kept);
  for (int64_t a : axes)
    st[a] = 0;
  return st;
}

/// acc[o] = f(...f(f(init, x0, o), x1, o)..., o) over the elements of x
/// that reduce (over `axes`, sorted) into output o, in row-major order of
/// x. The outputs are split over the threads: each keeps that order, so the
/// sums do not depend on the count. The outputs after the last reduced axis
/// form contiguous rows of `inner`, accumulated a row at a time; when the
/// last axis reduces (inner 1), each output reads contiguous runs.
template <typename T, typename F>
void accumulate(const T *x, ArrayRef<int64_t> shape, ArrayRef<int64_t> axes,
                double *acc, double init, F f) {
  int64_t rank = shape.size();
  int64_t last = axes.empty() ? -1 : axes.back();
  int64_t inner = 1;
  for (int64_t d = last + 1; d < rank; ++d)
    inner *= shape[d];
  // The dims before the last reduced one: kept ones index the output
  // groups, reduced ones (and the last) are walked for each group.
  Shape stride = rowMajorStrides(shape);
  Shape keptDims, keptStrides, redDims, redStrides;
  for (int64_t d = 0; d < last; ++d) {
    if (llvm::is_contained(axes, d)) {
      redDims.push_back(shape[d]);
      redStrides.push_back(stride[d]);
    } else {
      keptDims.push_back(shape[d]);
      keptStrides.push_back(stride[d]);
    }
  }
  int64_t groups = numElements(keptDims), redOuter = numElements(redDims);
  int64_t lastLen = last < 0 ? 1 : shape[last];
  int64_t lastStride = last < 0 ? 0 : stride[last];
  int64_t perGroup = redOuter * lastLen;
  auto groupBase = [&](int64_t g) {
    int64_t base = 0;
    for (int64_t d = keptDims.size() - 1, r = g; d >= 0; --d) {
      base += r % keptDims[d] * keptStrides[d];
      r /= keptDims[d];
    }
    return base;
  };
  if (inner == 1) {
    // Each output is one chain of dependent steps; kLanes outputs advance
    // together, each its own chain in its own order, so the steps of
    // different outputs overlap (4x a global average pool's speed).
    constexpr int64_t kLanes = 8;
    parallelFor(groups, grainFor(perGroup), [&](int64_t begin, int64_t end) {
      Shape idx(redDims.size());
      for (int64_t g0 = begin; g0 < end; g0 += kLanes) {
        int64_t lanes = std::min(kLanes, end - g0);
        int64_t base[kLanes];
        double a[kLanes];
        for (int64_t q = 0; q < kLanes; ++q) {
          base[q] = groupBase(g0 + std::min(q, lanes - 1));
          a[q] = init;
        }
        std::fill(idx.begin(), idx.end(), 0);
        for (int64_t ro = 0; ro < redOuter; ++ro) {
          int64_t off = 0;
          for (size_t d = 0; d < redDims.size(); ++d)
            off += idx[d] * redStrides[d];
          // Lanes past the range repeat its last output; only real ones
          // are stored.
          for (int64_t k = 0; k < lastLen; ++k)
            for (int64_t q = 0; q < kLanes; ++q)
              a[q] = f(a[q], double(x[base[q] + off + k * lastStride]),
                       g0 + std::min(q, lanes - 1));
          for (int64_t d = redDims.size() - 1; d >= 0; --d) {
            if (++idx[d] < redDims[d])
              break;
            idx[d] = 0;
          }
        }
        for (int64_t q = 0; q < lanes; ++q)
          acc[g0 + q] = a[q];
      }
    });
    return;
  }
  // Split over (group, chunk of the row): chunks of a long row go to
  // different threads too.
  int64_t chunk = std::max<int64_t>(1, std::min<int64_t>(inner, 4096));
  int64_t chunks = (inner + chunk - 1) / chunk;
  parallelFor(groups * chunks, grainFor(perGroup * chunk),
              [&](int64_t begin, int64_t end) {
    Shape idx(redDims.size());
    for (int64_t gc = begin; gc < end; ++gc) {
      int64_t g = gc / chunks, j0 = gc % chunks * chunk;
      int64_t j1 = std::min(inner, j0 + chunk);
      int64_t base = groupBase(g);
      double *out = acc + g * inner;
      for (int64_t j = j0; j < j1; ++j)
        out[j] = init;
      std::fill(idx.begin(), idx.end(), 0);
      for (int64_t ro = 0; ro < redOuter; ++ro) {
        int64_t off = base;
        for (size_t d = 0; d < redDims.size(); ++d)
          off += idx[d] * redStrides[d];
        for (int64_t k = 0; k < lastLen; ++k) {
          const T *row = x + off + k * lastStride;
          if (inner == 1) {
            out[0] = f(out[0], double(row[0]), g);
          } else {
            for (int64_t j = j0; j < j1; ++j)
              out[j] = f(out[j], double(row[j]), g * inner + j);
          }
        }
        for (int64_t d = redDims.size() - 1; d >= 0; --d) {
          if (++idx[d] < redDims[d])
            break;
          idx[d] = 0;
        }
      }
    }
  });
}

LogicalResult reduce(Operation *op, ArrayRef<int64_t> axes, Evaluator &ev,
                     Red kind) {
  const Tensor &x = ev.get(op->getOperand(0));
  Value res = op->getResult(0);
  ArrayRef<int64_t> outShape = shapeOf(res);
  int64_t n = numElements(outShape);
  int64_t count = 1;
  for (int64_t a : axes)
    count *= x.shape()[a];
  DType dt = dtypeOfValue(res);
  bool isInt = !isFloat(x.dtype()) && kind != Red::Mean && kind != Red::L2 &&
               kind != Red::LogSum && kind != Red::LogSumExp;

  if (isInt) {
    std::vector<int64_t> vx = x.toInts();
    // An empty max (min) is the type's least (greatest) value: false (true)
    // for bool, 0 (all ones) for unsigned types.
    int64_t bits = 8 * int64_t(dtypeSize(x.dtype()));
    int64_t lo = std::numeric_limits<int64_t>::min(),
            hi = std::numeric_limits<int64_t>::max();
    if (x.dtype() == DType::Bool) {
      lo = 0;
      hi = 1;
    } else if (isUnsigned(x.dtype())) {
      lo = 0;
      hi = bits >= 64 ? std::numeric_limits<int64_t>::max()
                      : (int64_t(1) << bits) - 1;
    } else if (bits < 64) {
      lo = -(int64_t(1) << (bits - 1));
      hi = (int64_t(1) << (bits - 1)) - 1;
    }
    int64_t init = kind == Red::Max ? lo : kind == Red::Min ? hi
                   : kind == Red::Prod ? 1 : 0;
    std::vector<int64_t> acc(n, init);
    Shape st = reduceStrides(x.shape(), axes);
    forEachOffset2(x.shape(), st, st, [&](int64_t i, int64_t o, int64_t) {
      int64_t v = vx[i];
      switch (kind) {
      case Red::Max: acc[o] = std::max(acc[o], v); break;
      case Red::Min: acc[o] = std::min(acc[o], v); break;
      case Red::Prod: acc[o] *= v; break;
      case Red::L1: acc[o] += v < 0 ? -v : v; break;
      case Red::SumSquare: acc[o] += v * v; break;
      default: acc[o] += v; break;
      }
    });
    ev.set(res, Tensor::fromInts(dt, outShape, acc));
    return success();
  }

  // Floats accumulate in double; float32 and float64 are read in place,
  // other formats through a double copy.
  std::vector<double> copy;
  if (x.dtype() != DType::F32 && x.dtype() != DType::F64)
    copy = x.toDoubles();
  std::vector<double> acc(n);
  auto run = [&](auto *data) {
    switch (kind) {
    case Red::Max:
      return accumulate(data, x.shape(), axes, acc.data(),
                        -std::numeric_limits<double>::infinity(),
                        [](double a, double v, int64_t) {
                          return (std::isnan(v) || v > a) ? v : a;
                        });
    case Red::Min:
      return accumulate(data, x.shape(), axes, acc.data(),
                        std::numeric_limits<double>::infinity(),
                        [](double a, double v, int64_t) {
                          return (std::isnan(v) || v < a) ? v : a;
                        });
    case Red::Prod:
      return accumulate(data, x.shape(), axes, acc.data(), 1.0,
                        [](double a, double v, int64_t) { return a * v; });
    case Red::L1:
      return accumulate(data, x.shape(), axes, acc.data(), 0.0,
                        [](double a, double v, int64_t) {
                          return a + std::fabs(v);
                        });
    case Red::L2:
    case Red::SumSquare:
      return accumulate(data, x.shape(), axes, acc.data(), 0.0,
                        [](double a, double v, int64_t) { return a + v * v; });
    case Red::LogSumExp: {
      // Computed stably around the maximum of each group.
      std::vector<double> shift(n);
      accumulate(data, x.shape(), axes, shift.data(),
                 -std::numeric_limits<double>::infinity(),
                 [](double a, double v, int64_t) { return std::max(a, v); });
      for (double &s : shift)
        if (std::isinf(s))
          s = 0;
      accumulate(data, x.shape(), axes, acc.data(), 0.0,
                 [&](double a, double v, int64_t o) {
                   return a + std::exp(v - shift[o]);
                 });
      for (int64_t o = 0; o < n; ++o)
        acc[o] = std::log(acc[o]) + shift[o];
      return;
    }
    default:
      return accumulate(data, x.shape(), axes, acc.data(), 0.0,
                        [](double a, double v, int64_t) { return a + v; });
    }
  };
  if (x.dtype() == DType::F32)
    run(x.data<float>());
  else if (x.dtype() == DType::F64)
    run(x.data<double>());
  else
    run(static_cast<const double *>(copy.data()));
  for (int64_t o = 0; o < n; ++o) {
    switch (kind) {
    case Red::Mean: acc[o] /= (double)count; break;
    case Red::L2: acc[o] = std::sqrt(acc[o]); break;
    case Red::LogSum: acc[o] = std::log(acc[o]); break;
    default: break;
    }
  }
  ev.set(res, Tensor::fromDoubles(dt, outShape, acc));
  return success();
}
} // namespace

#define DFA_REDUCE(OP, KIND)                                                   \
  template <> LogicalResult dfa::ref::evalOp<OP>(OP op, Evaluator & ev) {     \
    return reduce(op, op.getAxes(), ev, Red::KIND);                          \
  }
DFA_REDUCE(ReduceSumOp, Sum)
DFA_REDUCE(ReduceMeanOp, Mean)
DFA_REDUCE(ReduceMaxOp, Max)
DFA_REDUCE(ReduceMinOp, Min)
DFA_REDUCE(ReduceProdOp, Prod)
DFA_REDUCE(ReduceL1Op, L1)
DFA_REDUCE(ReduceL2Op, L2)
DFA_REDUCE(ReduceSumSquareOp, SumSquare)
DFA_REDUCE(ReduceLogSumOp, LogSum)
DFA_REDUCE(ReduceLogSumExpOp, LogSumExp)
#undef DFA_REDUCE

template <typename OpT>
static LogicalResult argReduce(OpT op, Evaluator &ev, bool isMax) {
  const Tensor &x = ev.get(op.getInput());
  int64_t axis = op.getAxis();
  auto [outer, len, inner] = around(x.shape(), axis);
  std::vector<double> vx = x.toDoubles();
  std::vector<int64_t> out(outer * inner);
  bool last = op.getSelectLastIndex();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      int64_t best = 0;
      double bv = vx[o * len * inner + i];
      for (int64_t k = 1; k < len; ++k) {
        double v = vx[(o * len + k) * inner + i];
        // NaN wins, as in numpy (the first NaN, or the last with
        // select_last_index).
        bool better = std::isnan(bv) ? (last && std::isnan(v))
                      : std::isnan(v) ? true
                      : isMax ? (last ? v >= bv : v > bv)
                              : (last ? v <= bv : v < bv);
        if (better) {
          best = k;
          bv = v;
        }
      }
      out[o * inner + i] = best;
    }
  ev.set(op.getOutput(),
         Tensor::fromInts(DType::I64, shapeOf(op.getOutput()), out));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<ArgMaxOp>(ArgMaxOp op, Evaluator &ev) {
  return argReduce(op, ev, true);
}
template <>
LogicalResult dfa::ref::evalOp<ArgMinOp>(ArgMinOp op, Evaluator &ev) {
  return argReduce(op, ev, false);
}

template <>
LogicalResult dfa::ref::evalOp<TopKOp>(TopKOp op, Evaluator &ev) {
  const Tensor &x = ev.get(op.getInput());
  int64_t axis = op.getAxis(), k = op.getK();
  // Plain variables, not structured bindings: the lambdas below capture
  // them, which C++17 does not allow of bindings.
  int64_t outer, len, inner;
  std::tie(outer, len, inner) = around(x.shape(), axis);
  std::vector<double> vx = x.toDoubles(), vals(outer * k * inner);
  std::vector<int64_t> idx(outer * k * inner), order(len);
  bool largest = op.getLargest();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t j) { return vx[(o * len + j) * inner + i]; };
      std::iota(order.begin(), order.end(), 0);
      // Ties keep the lower index first, as ONNX specifies.
      // NaN orders as the largest value (a strict weak order with NaN).
      auto key = [&](int64_t j) {
        double v = at(j);
        return std::isnan(v) ? std::numeric_limits<double>::infinity() : v;
      };
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        bool na = std::isnan(at(a)), nb = std::isnan(at(b));
        if (na != nb)
          return largest ? na : nb;
        return largest ? key(a) > key(b) : key(a) < key(b);
      });
      for (int64_t j = 0; j < k; ++j) {
        vals[(o * k + j) * inner + i] = at(order[j]);
        idx[(o * k + j) * inner + i] = order[j];
      }
    }
  auto shape = shapeOf(op.getValues());
  ev.set(op.getValues(), Tensor::fromDoubles(x.dtype(), shape, vals));
  ev.set(op.getIndices(), Tensor::fromInts(DType::I64, shape, idx));
  return success();
}
