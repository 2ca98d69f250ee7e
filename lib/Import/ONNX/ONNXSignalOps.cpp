//===- ONNXSignalOps.cpp - DFT and STFT as products with constant matrices -===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// ONNX's spectral ops (opset 17), imported as what a matrix machine runs
/// them as: a discrete Fourier transform of length L is the product of the
/// signal's real and imaginary parts with the L-point cos and sin matrices
/// (TPUs run FFTs of these sizes so; FNet's paper does the same on TPUs),
/// so every target sees two or four matmuls.
///   DFT (17, 20): real or complex input, any axis but the complex one
///     (an attribute before opset 20, an input after), dft_length padding
///     or truncating the signal, inverse (scaled by 1/L), onesided forward
///     (the first L/2 + 1 bins) and onesided inverse (irfft: a conjugate-
///     symmetric spectrum's real signal).
///   STFT (17): frames gathered at frame_step, the window applied, a DFT of
///     frame_length per frame, onesided by default.
/// The matrices are constants of L x K elements; lengths past 4096 points
/// are refused (their matrices would outweigh the model).
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Reference/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::onnximport;

namespace {

constexpr int64_t kMaxPoints = 4096;

/// A constant [rows, cols] matrix of `elt`, value(i, j) computed in double.
Value matrix(NodeContext &c, Type elt, int64_t rows, int64_t cols,
             llvm::function_ref<double(int64_t, int64_t)> value) {
  std::vector<double> v(rows * cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      v[i * cols + j] = value(i, j);
  return c.cast(c.constant(ref::Tensor::fromDoubles(ref::DType::F64, {rows, cols}, v)), elt);
}

/// `v` [..., n] padded with zeros or truncated to [..., len].
Value fitLast(NodeContext &c, Value v, int64_t len) {
  auto t = typeOf(v);
  int64_t r = t.getRank(), n = t.getShape().back();
  if (n == len)
    return v;
  if (n > len) {
    SmallVector<int64_t> starts(r, 0), steps(r, 1), shape(t.getShape());
    shape.back() = len;
    return c.b.create<SliceOp>(c.loc, t.clone(shape), v, c.b.getDenseI64ArrayAttr(starts),
                               c.b.getDenseI64ArrayAttr(steps));
  }
  SmallVector<int64_t> pads(2 * r, 0);
  pads[2 * r - 1] = len - n;
  return c.b.create<PadOp>(c.loc, v, c.b.getDenseI64ArrayAttr(pads),
                           c.b.getStringAttr("constant"), c.b.getF64FloatAttr(0));
}

/// The DFT of `x` [..., 1 | 2] (real, or real and imaginary parts) along
/// `axis` (normalized, not the last), of length `len`.
FailureOr<Value> dft(NodeContext &c, Value x, int64_t axis, int64_t len, bool inverse,
                     bool onesided) {
  auto t = typeOf(x);
  int64_t r = t.getRank();
  Type elt = t.getElementType();
  int64_t parts = t.getShape().back();
  bool irfft = inverse && onesided;
  // Points read from the input and bins written: a onesided inverse reads
  // the first L/2 + 1 bins and writes L real values.
  int64_t in = irfft ? len / 2 + 1 : len;
  int64_t out = irfft ? len : (onesided ? len / 2 + 1 : len);
  if (len < 1 || len > kMaxPoints) {
    c.unsupported() << "a DFT of " << len << " points (dfa imports a DFT as a product with "
                    << "its constant matrices, up to " << kMaxPoints << " points)";
    return failure();
  }
  // The transformed axis next to the last, the others in order.
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < r - 1; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  perm.push_back(r - 1);
  bool moved = axis != r - 2;
  Value v = moved ? Value(c.b.create<TransposeOp>(c.loc, x, c.b.getDenseI64ArrayAttr(perm))) : x;
  auto vt = typeOf(v);
  SmallVector<int64_t> lead(vt.getShape().drop_back(2));
  auto part = [&](int64_t i) -> Value {
    SmallVector<int64_t> starts(r, 0), steps(r, 1), shape(vt.getShape());
    starts.back() = i;
    shape.back() = 1;
    Value s = c.b.create<SliceOp>(c.loc, vt.clone(shape), v, c.b.getDenseI64ArrayAttr(starts),
                                  c.b.getDenseI64ArrayAttr(steps));
    return fitLast(c, c.reshape(s, ArrayRef<int64_t>(shape).drop_back()), in);
  };
  Value re = part(0), im = parts == 2 ? part(1) : Value();
  double L = double(len), sign = inverse ? 1 : -1, scale = inverse ? 1 / L : 1;
  // Y_k = scale sum_n X_n e^{sign 2 pi i k n / L} = scale sum_n (a + ib)(cos + i sign sin)
  auto angle = [&](int64_t n, int64_t k) { return 2 * M_PI * double((n * k) % len) / L; };
  auto mm = [&](Value a, Value m) -> Value {
    auto at = typeOf(a);
    SmallVector<int64_t> shape(at.getShape());
    shape.back() = out;
    return c.b.create<MatMulOp>(c.loc, at.clone(shape), a, m);
  };
  SmallVector<Value> results;
  if (irfft) {
    // The spectrum's other half is the conjugate of this one: each bin but
    // the first (and the middle, for an even length) counts twice.
    auto weight = [&](int64_t k) { return k == 0 || 2 * k == len ? 1.0 : 2.0; };
    Value cw = matrix(c, elt, in, out, [&](int64_t k, int64_t n) {
      return weight(k) * std::cos(angle(k, n)) / L;
    });
    Value y = mm(re, cw);
    if (im) {
      Value sw = matrix(c, elt, in, out, [&](int64_t k, int64_t n) {
        return weight(k) * std::sin(angle(k, n)) / L;
      });
      y = c.b.create<SubOp>(c.loc, y, mm(im, sw));
    }
    results.push_back(y);
  } else {
    Value cm = matrix(c, elt, in, out,
                      [&](int64_t n, int64_t k) { return scale * std::cos(angle(n, k)); });
    Value sm = matrix(c, elt, in, out,
                      [&](int64_t n, int64_t k) { return scale * sign * std::sin(angle(n, k)); });
    // re' = a cos - b sign sin, im' = b cos + a sign sin
    Value yre = mm(re, cm), yim = mm(re, sm);
    if (im) {
      yre = c.b.create<SubOp>(c.loc, yre, mm(im, sm));
      yim = c.b.create<AddOp>(c.loc, yim, mm(im, cm));
    }
    results = {yre, yim};
  }
  SmallVector<int64_t> unit(lead);
  unit.push_back(out);
  unit.push_back(1);
  for (Value &y : results)
    y = c.reshape(y, unit);
  Value y = results.size() == 1
                ? results[0]
                : Value(c.b.create<ConcatOp>(c.loc, results, c.b.getI64IntegerAttr(r - 1)));
  if (!moved)
    return y;
  SmallVector<int64_t> back(r);
  for (int64_t i = 0; i < r; ++i)
    back[perm[i]] = i;
  return Value(c.b.create<TransposeOp>(c.loc, y, c.b.getDenseI64ArrayAttr(back)));
}

/// A one-element integer input as a number, or `dflt` when absent.
FailureOr<int64_t> scalarInput(NodeContext &c, size_t i, StringRef what, int64_t dflt) {
  if (!c.has(i))
    return dflt;
  auto v = c.constInts(i, what);
  if (failed(v))
    return failure();
  if (v->size() != 1) {
    c.error() << what << " must hold one value";
    return failure();
  }
  return (*v)[0];
}

bool signalType(NodeContext &c, RankedTensorType t, int64_t minRank) {
  if (isa<FloatType>(t.getElementType()) && t.hasStaticShape() && t.getRank() >= minRank &&
      (t.getShape().back() == 1 || t.getShape().back() == 2))
    return true;
  c.error() << "the signal must be a float tensor of static shape [..., 1 or 2] (real, or "
            << "real and imaginary parts) of rank " << minRank << " or more, got " << t;
  return false;
}

LogicalResult convertDFT(NodeContext &c, Results &r) {
  auto t = c.type(0);
  if (!signalType(c, t, 2))
    return failure();
  int64_t rank = t.getRank();
  FailureOr<int64_t> axis = c.opset >= 20 ? scalarInput(c, 2, "axis", -2)
                                          : FailureOr<int64_t>(c.intAttr("axis", 1));
  if (failed(axis))
    return failure();
  int64_t a = *axis < 0 ? *axis + rank : *axis;
  if (a < 0 || a >= rank - 1) {
    c.error() << "axis " << *axis << " must name a signal dim of " << t
              << " (in [" << -rank << ", -2] or [0, " << rank - 2 << "])";
    return failure();
  }
  bool inverse = c.intAttr("inverse", 0) != 0, onesided = c.intAttr("onesided", 0) != 0;
  int64_t n = t.getDimSize(a);
  auto len = scalarInput(c, 1, "dft_length", inverse && onesided ? 2 * (n - 1) : n);
  if (failed(len))
    return failure();
  auto y = dft(c, c.in(0), a, *len, inverse, onesided);
  if (failed(y))
    return failure();
  r.push_back(*y);
  return success();
}

LogicalResult convertSTFT(NodeContext &c, Results &r) {
  auto t = c.type(0);
  if (t.getRank() != 3) {
    c.error() << "the signal must be [batch, length, 1 or 2], got " << t;
    return failure();
  }
  if (!signalType(c, t, 3))
    return failure();
  int64_t length = t.getDimSize(1);
  auto step = scalarInput(c, 1, "frame_step", 0);
  if (failed(step))
    return failure();
  Value window = c.in(2);
  int64_t windowLen = window ? c.type(2).getNumElements() : length;
  if (window && c.type(2).getRank() != 1) {
    c.error() << "window must be 1-d, got " << window.getType();
    return failure();
  }
  auto frame = scalarInput(c, 3, "frame_length", windowLen);
  if (failed(frame))
    return failure();
  if (*step < 1 || *frame < 1 || *frame > length || (window && *frame != windowLen)) {
    c.error() << "frame_step " << *step << " and frame_length " << *frame
              << " must be positive, the frame within the signal's " << length
              << " samples and the window's length";
    return failure();
  }
  bool onesided = c.intAttr("onesided", 1) != 0;
  int64_t frames = 1 + (length - *frame) / *step;
  // Every frame's samples in one gather: [frames, frame_length] positions.
  std::vector<int64_t> at(frames * *frame);
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t i = 0; i < *frame; ++i)
      at[f * *frame + i] = f * *step + i;
  Value idx = c.constant(ref::Tensor::fromInts(ref::DType::I64, {frames, *frame}, at));
  Type elt = t.getElementType();
  Value x = c.b.create<GatherOp>(c.loc, c.in(0), idx, c.b.getI64IntegerAttr(1));
  if (window)
    x = c.b.create<MulOp>(c.loc, x, c.reshape(c.cast(window, elt), {1, 1, *frame, 1}));
  auto y = dft(c, x, 2, *frame, false, onesided);
  if (failed(y))
    return failure();
  r.push_back(*y);
  return success();
}
} // namespace

void dfa::onnximport::addSignalConverters(llvm::StringMap<Converter> &t) {
  t["DFT"] = convertDFT;
  t["STFT"] = convertSTFT;
}
