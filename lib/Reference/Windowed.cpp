//===- Windowed.cpp - reference pooling kernels -----------------------------===//
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
enum class PoolKind { Max, Avg, Lp };

/// The taps of a window axis, for each output position o: the range
/// [lo, hi) of kernel taps that read inside the input, and how many read
/// inside the padded input (what count_include_pad divides by). Taps read
/// o * stride - pad + k * dil, increasing in k, so both are ranges.
struct AxisTaps {
  std::vector<int64_t> lo, hi, padded;
};

AxisTaps axisTaps(int64_t out, int64_t in, int64_t k, int64_t stride,
                  int64_t pad, int64_t dil, int64_t endPad) {
  AxisTaps t;
  for (int64_t o = 0; o < out; ++o) {
    int64_t lo = k, hi = k, padded = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t i = o * stride - pad + j * dil;
      if (i >= -pad && i < in + endPad)
        ++padded;
      if (i >= 0 && i < in) {
        lo = std::min(lo, j);
        hi = j + 1;
      }
    }
    t.lo.push_back(lo);
    t.hi.push_back(std::max(lo, hi));
    t.padded.push_back(padded);
  }
  return t;
}

/// For every output position, accumulates the in-bounds input positions of
/// its window in order of (kd, kh, kw); the images and channels are split
/// over the threads.
template <PoolKind kind, typename T>
void poolInto(const T *x, int64_t NC, const Window3 &w, const int64_t *endPad,
              bool countIncludePad, int64_t p, double *out) {
  int64_t I = w.inSize(), O = w.outSize();
  AxisTaps taps[3];
  for (int a = 0; a < 3; ++a)
    taps[a] = axisTaps(w.out[a], w.in[a], w.k[a], w.stride[a], w.pad[a],
                       w.dil[a], endPad[a]);
  parallelFor(NC, grainFor(O * w.kSize()), [&](int64_t begin, int64_t end) {
    for (int64_t nc = begin; nc < end; ++nc) {
      const T *src = x + nc * I;
      double *dst = out + nc * O;
      for (int64_t od = 0; od < w.out[0]; ++od)
        for (int64_t oh = 0; oh < w.out[1]; ++oh)
          for (int64_t ow = 0; ow < w.out[2]; ++ow) {
            double acc = kind == PoolKind::Max
                             ? -std::numeric_limits<double>::infinity()
                             : 0.0;
            int64_t dlo = taps[0].lo[od], dhi = taps[0].hi[od];
            int64_t hlo = taps[1].lo[oh], hhi = taps[1].hi[oh];
            int64_t wlo = taps[2].lo[ow], whi = taps[2].hi[ow];
            int64_t iw0 = ow * w.stride[2] - w.pad[2];
            for (int64_t kd = dlo; kd < dhi; ++kd) {
              int64_t id = od * w.stride[0] - w.pad[0] + kd * w.dil[0];
              for (int64_t kh = hlo; kh < hhi; ++kh) {
                int64_t ih = oh * w.stride[1] - w.pad[1] + kh * w.dil[1];
                const T *row = src + (id * w.in[1] + ih) * w.in[2] + iw0;
                for (int64_t kw = wlo; kw < whi; ++kw) {
                  double v = row[kw * w.dil[2]];
                  if constexpr (kind == PoolKind::Max)
                    acc = std::isnan(v) || v > acc ? v : acc;
                  else if constexpr (kind == PoolKind::Avg)
                    acc += v;
                  else
                    acc += std::pow(std::fabs(v), (double)p);
                }
              }
            }
            double r = acc;
            if constexpr (kind == PoolKind::Avg) {
              int64_t valid = (dhi - dlo) * (hhi - hlo) * (whi - wlo);
              int64_t padded =
                  taps[0].padded[od] * taps[1].padded[oh] * taps[2].padded[ow];
              r = acc / (double)(countIncludePad ? padded
                                                 : std::max<int64_t>(valid, 1));
            } else if constexpr (kind == PoolKind::Lp) {
              r = std::pow(acc, 1.0 / p);
            }
            dst[(od * w.out[1] + oh) * w.out[2] + ow] = r;
          }
    }
  });
}

Tensor pool(const Tensor &x, ArrayRef<int64_t> outShape, const Window3 &w,
            ArrayRef<int64_t> padsEnd, PoolKind kind, bool countIncludePad,
            int64_t p) {
  int64_t NC = x.shape()[0] * x.shape()[1];
  int64_t endPad[3] = {0, 0, 0};
  int64_t s = x.rank() - 2;
  for (int64_t i = 0; i < s; ++i)
    endPad[3 - s + i] = padsEnd[i];
  std::vector<double> out(NC * w.outSize());
  auto run = [&](auto *data) {
    switch (kind) {
    case PoolKind::Max:
      return poolInto<PoolKind::Max>(data, NC, w, endPad, false, p, out.data());
    case PoolKind::Avg:
      return poolInto<PoolKind::Avg>(data, NC, w, endPad, countIncludePad, p,
                                     out.data());
    case PoolKind::Lp:
      return poolInto<PoolKind::Lp>(data, NC, w, endPad, false, p, out.data());
    }
  };
  if (x.dtype() == DType::F32) {
    run(x.data<float>());
  } else {
    std::vector<double> vx = x.toDoubles();
    run(static_cast<const double *>(vx.data()));
  }
  return Tensor::fromDoubles(x.dtype(), outShape, out);
}

ArrayRef<int64_t> endPads(ArrayRef<int64_t> pads) {
  return pads.drop_front(pads.size() / 2);
}
} // namespace

template <>
LogicalResult dfa::ref::evalOp<MaxPoolOp>(MaxPoolOp op, Evaluator &ev) {
  const Tensor &x = ev.get(op.getInput());
  auto out = shapeOf(op.getOutput());
  Window3 w = window3(x.shape(), out, op.getKernel(), op.getStrides(),
                      op.getPads(), op.getDilations());
  ev.set(op.getOutput(), pool(x, out, w, endPads(op.getPads()),
                                   PoolKind::Max, false, 0));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<AvgPoolOp>(AvgPoolOp op, Evaluator &ev) {
  const Tensor &x = ev.get(op.getInput());
  auto out = shapeOf(op.getOutput());
  Window3 w = window3(x.shape(), out, op.getKernel(), op.getStrides(),
                      op.getPads(), op.getDilations());
  ev.set(op.getOutput(), pool(x, out, w, endPads(op.getPads()),
                                   PoolKind::Avg, op.getCountIncludePad(), 0));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<LpPoolOp>(LpPoolOp op, Evaluator &ev) {
  const Tensor &x = ev.get(op.getInput());
  auto out = shapeOf(op.getOutput());
  Window3 w = window3(x.shape(), out, op.getKernel(), op.getStrides(),
                      op.getPads(), op.getDilations());
  ev.set(op.getOutput(), pool(x, out, w, endPads(op.getPads()),
                                   PoolKind::Lp, false, op.getP()));
  return success();
}

template <typename OpT>
static LogicalResult globalPool(OpT op, Evaluator &ev, bool isMax) {
  const Tensor &x = ev.get(op.getInput());
  int64_t NC = x.shape()[0] * x.shape()[1];
  int64_t S = x.numElements() / std::max<int64_t>(NC, 1);
  std::vector<double> vx, out(NC);
  if (x.dtype() != DType::F32)
    vx = x.toDoubles();
  parallelFor(NC, grainFor(S), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
      for (int64_t j = 0; j < S; ++j) {
        double v = vx.empty() ? x.data<float>()[i * S + j] : vx[i * S + j];
        acc = isMax ? (std::isnan(v) || v > acc ? v : acc) : acc + v;
      }
      out[i] = isMax ? acc : acc / S;
    }
  });
  ev.set(op.getOutput(),
         Tensor::fromDoubles(x.dtype(), shapeOf(op.getOutput()), out));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<GlobalAvgPoolOp>(GlobalAvgPoolOp op,
                                                Evaluator &ev) {
  return globalPool(op, ev, false);
}

template <>
LogicalResult dfa::ref::evalOp<GlobalMaxPoolOp>(GlobalMaxPoolOp op,
                                                Evaluator &ev) {
  return globalPool(op, ev, true);
}
