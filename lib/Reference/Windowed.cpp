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

/// Visits, for every output position, the in-bounds input positions of its
/// window; `count` also receives the window size clipped to the padded input
/// (what count_include_pad divides by).
Tensor pool(const Tensor &x, ArrayRef<int64_t> outShape, const Window3 &w,
            ArrayRef<int64_t> padsEnd, PoolKind kind, bool countIncludePad,
            int64_t p) {
  int64_t NC = x.shape()[0] * x.shape()[1];
  int64_t I = w.inSize(), O = w.outSize();
  int64_t endPad[3] = {0, 0, 0};
  int64_t s = x.rank() - 2;
  for (int64_t i = 0; i < s; ++i)
    endPad[3 - s + i] = padsEnd[i];
  std::vector<double> vx = x.toDoubles(), out(NC * O);
  for (int64_t nc = 0; nc < NC; ++nc) {
    const double *src = vx.data() + nc * I;
    for (int64_t od = 0; od < w.out[0]; ++od)
      for (int64_t oh = 0; oh < w.out[1]; ++oh)
        for (int64_t ow = 0; ow < w.out[2]; ++ow) {
          double acc = kind == PoolKind::Max
                           ? -std::numeric_limits<double>::infinity()
                           : 0.0;
          int64_t valid = 0, padded = 0;
          for (int64_t kd = 0; kd < w.k[0]; ++kd) {
            int64_t id = od * w.stride[0] - w.pad[0] + kd * w.dil[0];
            for (int64_t kh = 0; kh < w.k[1]; ++kh) {
              int64_t ih = oh * w.stride[1] - w.pad[1] + kh * w.dil[1];
              for (int64_t kw = 0; kw < w.k[2]; ++kw) {
                int64_t iw = ow * w.stride[2] - w.pad[2] + kw * w.dil[2];
                if (id >= -w.pad[0] && id < w.in[0] + endPad[0] &&
                    ih >= -w.pad[1] && ih < w.in[1] + endPad[1] &&
                    iw >= -w.pad[2] && iw < w.in[2] + endPad[2])
                  ++padded;
                if (id < 0 || id >= w.in[0] || ih < 0 || ih >= w.in[1] ||
                    iw < 0 || iw >= w.in[2])
                  continue;
                double v = src[(id * w.in[1] + ih) * w.in[2] + iw];
                ++valid;
                if (kind == PoolKind::Max)
                  acc = std::isnan(v) || v > acc ? v : acc;
                else if (kind == PoolKind::Avg)
                  acc += v;
                else
                  acc += std::pow(std::fabs(v), (double)p);
              }
            }
          }
          double r = acc;
          if (kind == PoolKind::Avg)
            r = acc / (double)(countIncludePad ? padded : std::max<int64_t>(valid, 1));
          else if (kind == PoolKind::Lp)
            r = std::pow(acc, 1.0 / p);
          out[nc * O + (od * w.out[1] + oh) * w.out[2] + ow] = r;
        }
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
  std::vector<double> vx = x.toDoubles(), out(NC);
  for (int64_t i = 0; i < NC; ++i) {
    double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
    for (int64_t j = 0; j < S; ++j) {
      double v = vx[i * S + j];
      acc = isMax ? (std::isnan(v) || v > acc ? v : acc) : acc + v;
    }
    out[i] = isMax ? acc : acc / S;
  }
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
