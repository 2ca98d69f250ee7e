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

/// What an average divides output (oh, ow) by (a plane's window).
double avgDivisor(const AxisTaps *taps, int64_t oh, int64_t ow,
                  bool countIncludePad) {
  if (countIncludePad)
    return double(taps[1].padded[oh] * taps[2].padded[ow]);
  int64_t valid = (taps[1].hi[oh] - taps[1].lo[oh]) *
                  (taps[2].hi[ow] - taps[2].lo[ow]);
  return double(std::max<int64_t>(valid, 1));
}

/// Max and average pooling over a plane (a 1-D or 2-D window): each
/// channel is copied once into an image padded with the reduction's
/// identity (-inf for max, 0 for a sum), and each output row takes its
/// taps in order of (kh, kw), every tap one pass along the row, so the
/// outputs of a row advance together instead of one window at a time. An
/// output still sees its in-bounds inputs in the order poolInto's general
/// loop takes them, and the identity leaves a max or a sum unchanged, so
/// the bytes are the same (Inception-v3's nine 3x3 average pools ran at
/// 36 cycles an output).
template <PoolKind kind, typename T>
void poolPlane(const T *x, int64_t NC, const Window3 &w, const AxisTaps *taps,
               bool countIncludePad, double *out) {
  static_assert(kind != PoolKind::Lp);
  int64_t OH = w.out[1], OW = w.out[2], H = w.in[1], W = w.in[2];
  int64_t sh = w.stride[1], sw = w.stride[2], dh = w.dil[1], dw = w.dil[2];
  int64_t Hp = (OH - 1) * sh + (w.k[1] - 1) * dh + 1,
          Wp = (OW - 1) * sw + (w.k[2] - 1) * dw + 1;
  const double identity =
      kind == PoolKind::Max ? -std::numeric_limits<double>::infinity() : 0.0;
  int64_t lo = std::clamp<int64_t>(w.pad[2], 0, Wp),
          hi = std::clamp<int64_t>(w.pad[2] + W, lo, Wp);
  bool unitStride = sh == 1 && sw == 1;
  int64_t span = unitStride ? (OH - 1) * Wp + OW : 0;
  // acc[i] = max or sum of acc[i] and tap[i * stride], for i < n.
  auto step = [](double *acc, const double *tap, int64_t stride, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      double v = tap[i * stride];
      if constexpr (kind == PoolKind::Max)
        acc[i] = std::isnan(v) || v > acc[i] ? v : acc[i];
      else
        acc[i] += v;
    }
  };
  parallelFor(NC, grainFor(OH * OW * w.kSize()), [&](int64_t begin, int64_t end) {
    std::vector<double> image(Hp * Wp), acc(span);
    for (int64_t nc = begin; nc < end; ++nc) {
      const T *src = x + nc * H * W;
      for (int64_t r = 0; r < Hp; ++r) {
        double *row = image.data() + r * Wp;
        int64_t ih = r - w.pad[1];
        if (ih < 0 || ih >= H) {
          std::fill(row, row + Wp, identity);
          continue;
        }
        std::fill(row, row + lo, identity);
        const T *in = src + ih * W;
        for (int64_t c = lo; c < hi; ++c)
          row[c] = double(in[c - w.pad[2]]);
        std::fill(row + hi, row + Wp, identity);
      }
      double *dst = out + nc * OH * OW;
      if (unitStride) {
        // One pass per tap over the whole plane at the image's pitch, as
        // depthwisePlane does; then the outputs are picked out of it.
        std::fill(acc.begin(), acc.end(), identity);
        for (int64_t kh = 0; kh < w.k[1]; ++kh)
          for (int64_t kw = 0; kw < w.k[2]; ++kw)
            step(acc.data(), image.data() + kh * dh * Wp + kw * dw, 1, span);
        for (int64_t oh = 0; oh < OH; ++oh)
          std::copy(acc.data() + oh * Wp, acc.data() + oh * Wp + OW, dst + oh * OW);
      } else {
        for (int64_t oh = 0; oh < OH; ++oh) {
          double *row = dst + oh * OW;
          std::fill(row, row + OW, identity);
          for (int64_t kh = 0; kh < w.k[1]; ++kh)
            for (int64_t kw = 0; kw < w.k[2]; ++kw)
              step(row, image.data() + (oh * sh + kh * dh) * Wp + kw * dw, sw, OW);
        }
      }
      if constexpr (kind == PoolKind::Avg)
        for (int64_t oh = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow)
            dst[oh * OW + ow] /= avgDivisor(taps, oh, ow, countIncludePad);
    }
  });
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
  if constexpr (kind != PoolKind::Lp) {
    // The padded image stays near the input's and output's size (large
    // strides or pads would make it far larger than either).
    int64_t Hp = (w.out[1] - 1) * w.stride[1] + (w.k[1] - 1) * w.dil[1] + 1,
            Wp = (w.out[2] - 1) * w.stride[2] + (w.k[2] - 1) * w.dil[2] + 1;
    if (w.in[0] == 1 && w.k[0] == 1 && w.out[0] == 1 && w.pad[0] == 0 &&
        double(Hp) * double(Wp) <= 4.0 * double(I + O) + 4096.0)
      return poolPlane<kind>(x, NC, w, taps, countIncludePad, out);
  }
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
