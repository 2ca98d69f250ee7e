//===- GraphDFT.cpp - the DFT as products with constant matrices ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// A discrete Fourier transform of L points is a product with its L x L
/// cosine and sine matrices (real and imaginary parts kept apart, last):
/// ONNX's DFT and STFT and torch.fft's transforms build it here.
///
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphOps.h"

#include <array>
#include <cmath>

using namespace mlir;
using namespace dfa::graph;

namespace {

constexpr int64_t kMaxPoints = 4096;

/// A constant [rows, cols] matrix of `elt`, value(i, j) computed in double.
Value matrix(OpBuilder &b, Location loc, Type elt, int64_t rows, int64_t cols,
             llvm::function_ref<double(int64_t, int64_t)> value) {
  std::vector<double> v(rows * cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      v[i * cols + j] = value(i, j);
  auto t = RankedTensorType::get({rows, cols}, b.getF64Type());
  Value m = b.create<ConstantOp>(loc, DenseElementsAttr::get(t, ArrayRef<double>(v)));
  return elt == b.getF64Type() ? m : Value(b.create<CastOp>(loc, t.clone(elt), m));
}

/// `v` [..., n] padded with zeros or truncated to [..., len].
Value fitLast(OpBuilder &b, Location loc, Value v, int64_t len) {
  auto t = cast<RankedTensorType>(v.getType());
  int64_t r = t.getRank(), n = t.getShape().back();
  if (n == len)
    return v;
  if (n > len) {
    SmallVector<int64_t> starts(r, 0), steps(r, 1), shape(t.getShape());
    shape.back() = len;
    return b.create<SliceOp>(loc, t.clone(shape), v, b.getDenseI64ArrayAttr(starts),
                             b.getDenseI64ArrayAttr(steps));
  }
  SmallVector<int64_t> pads(2 * r, 0);
  pads[2 * r - 1] = len - n;
  return b.create<PadOp>(loc, v, b.getDenseI64ArrayAttr(pads), b.getStringAttr("constant"),
                         b.getF64FloatAttr(0));
}

Value reshaped(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.getShape() == shape)
    return v;
  return b.create<ReshapeOp>(loc, t.clone(shape), v);
}

} // namespace

FailureOr<Value> dfa::graph::buildDFT(OpBuilder &b, Location loc, Value x, int64_t axis,
                                      int64_t len, bool inverse, bool onesided,
                                      BuildError &error) {
  auto t = cast<RankedTensorType>(x.getType());
  int64_t r = t.getRank();
  Type elt = t.getElementType();
  int64_t parts = t.getShape().back();
  bool irfft = inverse && onesided;
  // Points read from the input and bins written: a onesided inverse reads
  // the first L/2 + 1 bins and writes L real values.
  int64_t in = irfft ? len / 2 + 1 : len;
  int64_t out = irfft ? len : (onesided ? len / 2 + 1 : len);
  if (len < 1 || len > kMaxPoints) {
    error.message = "a DFT of " + std::to_string(len) +
                    " points (dfa imports a DFT as a product with its constant matrices, up "
                    "to " + std::to_string(kMaxPoints) + " points)";
    error.unsupported = true;
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
  Value v = moved ? Value(b.create<TransposeOp>(loc, x, b.getDenseI64ArrayAttr(perm))) : x;
  auto vt = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> lead(vt.getShape().drop_back(2));
  auto part = [&](int64_t i) -> Value {
    SmallVector<int64_t> starts(r, 0), steps(r, 1), shape(vt.getShape());
    starts.back() = i;
    shape.back() = 1;
    Value s = b.create<SliceOp>(loc, vt.clone(shape), v, b.getDenseI64ArrayAttr(starts),
                                b.getDenseI64ArrayAttr(steps));
    return fitLast(b, loc, reshaped(b, loc, s, ArrayRef<int64_t>(shape).drop_back()), in);
  };
  Value re = part(0), im = parts == 2 ? part(1) : Value();
  double L = double(len), sign = inverse ? 1 : -1, scale = inverse ? 1 / L : 1;
  // Y_k = scale sum_n X_n e^{sign 2 pi i k n / L} = scale sum_n (a + ib)(cos + i sign sin).
  // The turn (n k mod L) / L; a quarter turn's cosine and sine are exact
  // (sin(pi) is 1.2e-16 in double: the Nyquist bin of a real signal would
  // get a tiny imaginary part, and its angle a sign, where an FFT's is 0).
  auto turn = [&](int64_t n, int64_t k) { return (n * k) % len; };
  auto cosOf = [&](int64_t m) {
    if ((4 * m) % len == 0)
      return std::array<double, 4>{1, 0, -1, 0}[(4 * m) / len];
    return std::cos(2 * M_PI * double(m) / L);
  };
  auto sinOf = [&](int64_t m) {
    if ((4 * m) % len == 0)
      return std::array<double, 4>{0, 1, 0, -1}[(4 * m) / len];
    return std::sin(2 * M_PI * double(m) / L);
  };
  auto mm = [&](Value a, Value m) -> Value {
    auto at = cast<RankedTensorType>(a.getType());
    SmallVector<int64_t> shape(at.getShape());
    shape.back() = out;
    return b.create<MatMulOp>(loc, at.clone(shape), a, m);
  };
  SmallVector<Value> results;
  if (irfft) {
    // The spectrum's other half is the conjugate of this one: each bin but
    // the first (and the middle, for an even length) counts twice.
    auto weight = [&](int64_t k) { return k == 0 || 2 * k == len ? 1.0 : 2.0; };
    Value cw = matrix(b, loc, elt, in, out, [&](int64_t k, int64_t n) {
      return weight(k) * cosOf(turn(k, n)) / L;
    });
    Value y = mm(re, cw);
    if (im) {
      Value sw = matrix(b, loc, elt, in, out, [&](int64_t k, int64_t n) {
        return weight(k) * sinOf(turn(k, n)) / L;
      });
      y = b.create<SubOp>(loc, y, mm(im, sw));
    }
    results.push_back(y);
  } else {
    Value cm = matrix(b, loc, elt, in, out,
                      [&](int64_t n, int64_t k) { return scale * cosOf(turn(n, k)); });
    Value sm = matrix(b, loc, elt, in, out, [&](int64_t n, int64_t k) {
      double v = scale * sign * sinOf(turn(n, k));
      return v == 0 ? 0.0 : v; // +0, not -0
    });
    // re' = a cos - b sign sin, im' = b cos + a sign sin
    Value yre = mm(re, cm), yim = mm(re, sm);
    if (im) {
      yre = b.create<SubOp>(loc, yre, mm(im, sm));
      yim = b.create<AddOp>(loc, yim, mm(im, cm));
    } else {
      // A real signal's DC (and Nyquist) bin has a zero imaginary part,
      // +0 as an FFT writes it; the product's sum of -0 terms would be -0
      // (an angle of -pi for +pi). Adding +0 makes it +0 and changes no
      // other value.
      auto yt = cast<RankedTensorType>(yim.getType());
      Value zero = b.create<ConstantOp>(
          loc, DenseElementsAttr::get(RankedTensorType::get({}, elt),
                                      b.getFloatAttr(elt, 0.0)));
      yim = b.create<AddOp>(loc, yt, yim, zero);
    }
    results = {yre, yim};
  }
  SmallVector<int64_t> unit(lead);
  unit.push_back(out);
  unit.push_back(1);
  for (Value &y : results)
    y = reshaped(b, loc, y, unit);
  Value y = results.size() == 1
                ? results[0]
                : Value(b.create<ConcatOp>(loc, results, b.getI64IntegerAttr(r - 1)));
  if (!moved)
    return y;
  SmallVector<int64_t> back(r);
  for (int64_t i = 0; i < r; ++i)
    back[perm[i]] = i;
  return Value(b.create<TransposeOp>(loc, y, b.getDenseI64ArrayAttr(back)));
}
