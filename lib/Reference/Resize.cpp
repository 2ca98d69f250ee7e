//===- Resize.cpp - reference resampling ------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Separable resampling: per dim, each output coordinate gets a list of
/// (source index, weight) taps; an output element is the sum over the
/// cartesian product of its dims' taps. Matches the ONNX reference for
/// every coordinate mode, nearest rounding mode, linear and cubic (with
/// exclude_outside), and tf_crop_and_resize extrapolation.
///
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::ref;
using namespace dfa::graph;

namespace {
struct Taps {
  std::vector<std::vector<std::pair<int64_t, double>>> perOut;
  std::vector<bool> outside; // tf_crop_and_resize: no source at all
};

/// `out` is the resized length as the scale gives it, in * scale, which the
/// ONNX spec leaves unrounded in these formulas; `outInt` the output's
/// length.
double sourceCoordinate(StringRef mode, int64_t o, double scale, int64_t in,
                        double out, int64_t outInt, double roiStart,
                        double roiEnd) {
  if (mode == "half_pixel")
    return (o + 0.5) / scale - 0.5;
  if (mode == "half_pixel_symmetric") {
    // Opset 19: the centre of the input maps to the centre of the output
    // even when the output's length was rounded.
    double center = in / 2.0, adjustment = double(outInt) / out;
    return center * (1 - adjustment) + (o + 0.5) / scale - 0.5;
  }
  if (mode == "pytorch_half_pixel")
    return out > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
  if (mode == "align_corners")
    return out == 1 ? 0.0 : o * double(in - 1) / double(out - 1);
  if (mode == "asymmetric")
    return o / scale;
  if (mode == "tf_half_pixel_for_nn")
    return (o + 0.5) / scale;
  // tf_crop_and_resize
  return out > 1 ? roiStart * (in - 1) + o * (roiEnd - roiStart) * (in - 1) / (out - 1)
                 : 0.5 * (roiStart + roiEnd) * (in - 1);
}

std::array<double, 4> cubicCoeffs(double r, double A) {
  auto far = [&](double t) { return ((A * t - 5 * A) * t + 8 * A) * t - 4 * A; };
  auto near = [&](double t) { return ((A + 2) * t - (A + 3)) * t * t + 1; };
  return {far(r + 1), near(r), near(1 - r), far(2 - r)};
}

Taps dimTaps(ResizeOp op, int64_t d, int64_t in, int64_t out) {
  Taps t;
  t.perOut.resize(out);
  t.outside.assign(out, false);
  StringRef coord = op.getCoordinateMode(), mode = op.getMode();
  double scale = op.getScales()[d];
  double rs = 0, re = 1;
  if (auto roi = op.getRoi()) {
    rs = (*roi)[d];
    re = (*roi)[d + roi->size() / 2];
  }
  auto clampIdx = [&](int64_t i) { return std::clamp<int64_t>(i, 0, in - 1); };
  for (int64_t o = 0; o < out; ++o) {
    double x = sourceCoordinate(coord, o, scale, in, in * scale, out, rs, re);
    if (coord == "tf_crop_and_resize" && (x < 0 || x > in - 1)) {
      t.outside[o] = true;
      continue;
    }
    auto &taps = t.perOut[o];
    if (mode == "nearest") {
      StringRef nm = op.getNearestMode();
      double i = nm == "floor" ? std::floor(x)
                 : nm == "ceil" ? std::ceil(x)
                 : nm == "round_prefer_ceil" ? std::floor(x + 0.5)
                                             : std::ceil(x - 0.5);
      taps.push_back({clampIdx((int64_t)i), 1.0});
      continue;
    }
    double x0 = std::floor(x), r = x - x0;
    if (mode == "linear") {
      taps.push_back({clampIdx((int64_t)x0), 1 - r});
      taps.push_back({clampIdx((int64_t)x0 + 1), r});
      continue;
    }
    auto c = cubicCoeffs(r, op.getCubicCoeffA().convertToDouble());
    double sum = 0;
    for (int k = 0; k < 4; ++k) {
      int64_t i = (int64_t)x0 - 1 + k;
      if (op.getExcludeOutside() && (i < 0 || i >= in))
        continue;
      taps.push_back({clampIdx(i), c[k]});
      sum += c[k];
    }
    if (op.getExcludeOutside() && sum != 0)
      for (auto &tap : taps)
        tap.second /= sum;
  }
  return t;
}
} // namespace

template <>
LogicalResult dfa::ref::evalOp<ResizeOp>(ResizeOp op, Evaluator &ev) {
  const Tensor &x = ev.get(op.getInput());
  auto outShape = shapeOf(op.getOutput());
  int64_t rank = x.rank();
  std::vector<Taps> taps;
  for (int64_t d = 0; d < rank; ++d)
    taps.push_back(dimTaps(op, d, x.shape()[d], outShape[d]));
  std::vector<double> vx = x.toDoubles(), out(numElements(outShape));
  Shape inStrides = rowMajorStrides(x.shape()), idx(rank, 0);
  double extrapolation = op.getExtrapolationValue().convertToDouble();
  for (size_t e = 0; e < out.size(); ++e) {
    bool outside = false;
    for (int64_t d = 0; d < rank; ++d)
      outside |= taps[d].outside[idx[d]];
    if (outside) {
      out[e] = extrapolation;
    } else {
      // Walk the cartesian product of the dims' taps with an odometer.
      Shape k(rank, 0);
      double acc = 0;
      while (true) {
        double w = 1;
        int64_t off = 0;
        for (int64_t d = 0; d < rank; ++d) {
          const auto &tap = taps[d].perOut[idx[d]][k[d]];
          w *= tap.second;
          off += tap.first * inStrides[d];
        }
        acc += w * vx[off];
        int64_t d = rank - 1;
        for (; d >= 0; --d) {
          if (++k[d] < (int64_t)taps[d].perOut[idx[d]].size())
            break;
          k[d] = 0;
        }
        if (d < 0)
          break;
      }
      out[e] = acc;
    }
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < outShape[d])
        break;
      idx[d] = 0;
    }
  }
  ev.set(op.getOutput(), Tensor::fromDoubles(x.dtype(), outShape, out));
  return success();
}

//===----------------------------------------------------------------------===//
// GridSample
//===----------------------------------------------------------------------===//

namespace {
/// Reflects `x` by the near border until it lies in [lo, hi].
double reflect(double x, double lo, double hi) {
  double range = hi - lo;
  if (range <= 0)
    return lo;
  if (x < lo) {
    double dx = lo - x;
    int64_t n = (int64_t)(dx / range);
    double r = dx - n * range;
    return n % 2 == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    double dx = x - hi;
    int64_t n = (int64_t)(dx / range);
    double r = dx - n * range;
    return n % 2 == 0 ? hi - r : lo + r;
  }
  return x;
}

/// Keys' cubic convolution weights (a = -0.75) of the taps at
/// floor(x) - 1 .. floor(x) + 2, for t = x - floor(x).
void keys(double t, double w[4]) {
  const double a = -0.75;
  auto near = [&](double s) { return ((a + 2) * s - (a + 3)) * s * s + 1; };
  auto far = [&](double s) { return ((a * s - 5 * a) * s + 8 * a) * s - 4 * a; };
  w[0] = far(t + 1);
  w[1] = near(t);
  w[2] = near(1 - t);
  w[3] = far(2 - t);
}
} // namespace

template <>
LogicalResult dfa::ref::evalOp<GridSampleOp>(GridSampleOp op, Evaluator &ev) {
  const Tensor &x = ev.get(op.getInput());
  const Tensor &grid = ev.get(op.getGrid());
  Tensor out(x.dtype(), shapeOf(op.getOutput()));
  int64_t r = x.rank() - 2, N = x.shape()[0], C = x.shape()[1];
  StringRef mode = op.getMode(), pad = op.getPaddingMode();
  bool align = op.getAlignCorners();
  int64_t T = mode == "nearest" ? 1 : mode == "linear" ? 2 : 4;
  int64_t inPlane = 1, outPlane = 1;
  for (int64_t d = 0; d < r; ++d) {
    inPlane *= x.shape()[2 + d];
    outPlane *= grid.shape()[1 + d];
  }
  Shape inStrides = rowMajorStrides(ArrayRef<int64_t>(x.shape()).drop_front(2));
  std::vector<double> xs = x.toDoubles(), gs = grid.toDoubles();
  // Per dim: the taps' indices (-1: a zero) and weights.
  std::vector<int64_t> idx(r * T);
  std::vector<double> w(r * T);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < outPlane; ++o) {
      const double *g = &gs[(n * outPlane + o) * r];
      for (int64_t d = 0; d < r; ++d) {
        int64_t size = x.shape()[2 + d];
        double v = g[r - 1 - d]; // the grid lists the last dim first
        // Denormalized in the grid's precision, float for every type but
        // double, as the ONNX reference computes it in the grid's dtype.
        double c = align ? (v + 1) / 2.0 * (size - 1) : ((v + 1) * size - 1) / 2.0;
        if (grid.dtype() != DType::F64)
          c = (float)c;
        if (mode == "nearest")
          c = std::nearbyint(c); // ties to even
        double lo = align ? 0.0 : -0.5, hi = align ? size - 1.0 : size - 0.5;
        if (c < lo || c > hi) {
          if (pad == "border")
            c = std::clamp(c, 0.0, size - 1.0);
          else if (pad == "reflection")
            c = reflect(c, lo, hi);
        }
        auto tapIndex = [&](int64_t i) -> int64_t {
          if (i >= 0 && i < size)
            return i;
          if (pad == "zeros")
            return -1;
          if (pad == "border")
            return std::clamp<int64_t>(i, 0, size - 1);
          return (int64_t)reflect((double)i, lo, hi);
        };
        if (T == 1) {
          idx[d] = tapIndex((int64_t)c);
          w[d] = 1;
          continue;
        }
        double f = std::floor(c), t = c - f;
        int64_t base = (int64_t)f - (T == 4 ? 1 : 0);
        double k[4];
        if (T == 2) {
          k[0] = 1 - t;
          k[1] = t;
        } else {
          keys(t, k);
        }
        for (int64_t j = 0; j < T; ++j) {
          idx[d * T + j] = tapIndex(base + j);
          w[d * T + j] = k[j];
        }
      }
      // The tensor product of the per-dim taps.
      int64_t combos = 1;
      for (int64_t d = 0; d < r; ++d)
        combos *= T;
      for (int64_t ch = 0; ch < C; ++ch) {
        const double *plane = &xs[(n * C + ch) * inPlane];
        double sum = 0;
        for (int64_t k = 0; k < combos; ++k) {
          int64_t rest = k, at = 0;
          double weight = 1;
          bool zero = false;
          for (int64_t d = r - 1; d >= 0; --d) {
            int64_t j = rest % T;
            rest /= T;
            int64_t i = idx[d * T + j];
            zero |= i < 0;
            at += (i < 0 ? 0 : i) * inStrides[d];
            weight *= w[d * T + j];
          }
          if (!zero)
            sum += weight * plane[at];
        }
        out.setDouble((n * C + ch) * outPlane + o, sum);
      }
    }
  ev.set(op.getOutput(), std::move(out));
  return success();
}
