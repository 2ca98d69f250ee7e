//===- GraphDecompose.cpp - decompositions into graph primitives ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Composite ops rewritten into elementwise ops, reductions and reshapes, the
/// way XLA and Inductor lower them. The results are numerically the same
/// formulas the reference evaluates for the composite op, up to rounding.
///
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphOps.h"

#include <cmath>

using namespace mlir;
using namespace dfa::graph;

/// A rank-0 constant of `elt` holding `value`.
static Value scalar(RewriterBase &rw, Location loc, Type elt, double value) {
  auto type = RankedTensorType::get({}, elt);
  return rw.create<ConstantOp>(
      loc, DenseElementsAttr::get(type, rw.getFloatAttr(elt, value)));
}

/// Reshapes a per-channel vector [C] to [C, 1, ..., 1] so that it broadcasts
/// against an NC... tensor of rank `rank`.
static Value channelView(RewriterBase &rw, Location loc, Value v,
                         int64_t rank) {
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape{t.getDimSize(0)};
  shape.append(rank - 2, 1);
  return rw.create<ReshapeOp>(loc, RankedTensorType::get(shape, t.getElementType()), v);
}

LogicalResult BatchNormOp::decompose(RewriterBase &rw) {
  Location loc = getLoc();
  auto type = cast<RankedTensorType>(getType());
  if (!isa<FloatType>(type.getElementType()))
    return failure();
  int64_t rank = type.getRank();
  Type elt = type.getElementType();
  Value var = channelView(rw, loc, getVariance(), rank);
  Value eps = scalar(rw, loc, elt, getEpsilon().convertToDouble());
  Value stddev = rw.create<SqrtOp>(loc, rw.create<AddOp>(loc, var, eps));
  Value scale = rw.create<DivOp>(loc, channelView(rw, loc, getScale(), rank), stddev);
  Value centered = rw.create<SubOp>(loc, getInput(), channelView(rw, loc, getMean(), rank));
  Value scaled = rw.create<MulOp>(loc, centered, scale);
  rw.replaceOpWithNewOp<AddOp>(*this, scaled, channelView(rw, loc, getBias(), rank));
  return success();
}

static SmallVector<int64_t> trailingAxes(int64_t from, int64_t rank) {
  SmallVector<int64_t> axes;
  for (int64_t d = from; d < rank; ++d)
    axes.push_back(d);
  return axes;
}

LogicalResult LayerNormOp::decompose(RewriterBase &rw) {
  Location loc = getLoc();
  auto type = cast<RankedTensorType>(getType());
  if (!isa<FloatType>(type.getElementType()))
    return failure();
  auto axes = rw.getDenseI64ArrayAttr(trailingAxes(getAxis(), type.getRank()));
  auto keep = rw.getBoolAttr(true);
  Value mean = rw.create<ReduceMeanOp>(loc, getInput(), axes, keep);
  Value centered = rw.create<SubOp>(loc, getInput(), mean);
  Value var = rw.create<ReduceMeanOp>(
      loc, rw.create<MulOp>(loc, centered, centered), axes, keep);
  Value eps = scalar(rw, loc, type.getElementType(), getEpsilon().convertToDouble());
  Value stddev = rw.create<SqrtOp>(loc, rw.create<AddOp>(loc, var, eps));
  Value result = rw.create<MulOp>(loc, rw.create<DivOp>(loc, centered, stddev),
                                  getScale());
  if (Value bias = getBias())
    result = rw.create<AddOp>(loc, result, bias);
  rw.replaceOp(*this, result);
  return success();
}

/// exp(x - max(x)) and its sum along `axis`, the stable softmax pieces.
static std::pair<Value, Value> stableExp(RewriterBase &rw, Location loc,
                                         Value x, int64_t axis,
                                         Value *shifted) {
  auto axes = rw.getDenseI64ArrayAttr({axis});
  auto keep = rw.getBoolAttr(true);
  Value max = rw.create<ReduceMaxOp>(loc, x, axes, keep);
  *shifted = rw.create<SubOp>(loc, x, max);
  Value e = rw.create<ExpOp>(loc, *shifted);
  Value sum = rw.create<ReduceSumOp>(loc, e, axes, keep);
  return {e, sum};
}

LogicalResult SoftmaxOp::decompose(RewriterBase &rw) {
  if (!isa<FloatType>(getType().getElementType()))
    return failure();
  if (!getEmptyRowsZero()) {
    Value shifted;
    auto [e, sum] = stableExp(rw, getLoc(), getInput(), getAxis(), &shifted);
    rw.replaceOpWithNewOp<DivOp>(*this, e, sum);
    return success();
  }
  // A row of -inf alone is 0: shifted by 0 instead of its maximum (-inf),
  // its exponentials are 0 and so is their sum, which is then divided by
  // 1. Any other row's sum is at least 1 (its maximum's exp(0)). The tests
  // ride on the row's two reductions, so the kernels are a plain
  // softmax's: no other read of the scores.
  Location loc = getLoc();
  Type elt = getType().getElementType();
  auto axes = rw.getDenseI64ArrayAttr({getAxis()});
  auto keep = rw.getBoolAttr(true);
  Value zero = scalar(rw, loc, elt, 0.0);
  Value max = rw.create<ReduceMaxOp>(loc, getInput(), axes, keep);
  Value empty = rw.create<EqualOp>(loc, max, scalar(rw, loc, elt, -INFINITY));
  Value shift = rw.create<WhereOp>(loc, empty, zero, max);
  Value e = rw.create<ExpOp>(loc, rw.create<SubOp>(loc, getInput(), shift));
  Value sum = rw.create<ReduceSumOp>(loc, e, axes, keep);
  Value none = rw.create<EqualOp>(loc, sum, zero);
  Value denominator = rw.create<WhereOp>(loc, none, scalar(rw, loc, elt, 1.0), sum);
  rw.replaceOpWithNewOp<DivOp>(*this, e, denominator);
  return success();
}

LogicalResult LogSoftmaxOp::decompose(RewriterBase &rw) {
  if (!isa<FloatType>(getType().getElementType()))
    return failure();
  Value shifted;
  auto [e, sum] = stableExp(rw, getLoc(), getInput(), getAxis(), &shifted);
  rw.replaceOpWithNewOp<SubOp>(*this, shifted, rw.create<LogOp>(getLoc(), sum));
  return success();
}

bool dfa::graph::isCausalMask(ElementsAttr values, bool negated) {
  auto type = cast<ShapedType>(values.getType());
  int64_t r = type.getRank();
  if (r < 2 || type.getDimSize(r - 1) != type.getDimSize(r - 2) ||
      type.getDimSize(r - 1) < 2)
    return false;
  int64_t L = type.getDimSize(r - 1);
  auto onDiagonalOrBelow = [&](int64_t idx) {
    return idx % L <= (idx / L) % L;
  };
  int64_t idx = 0;
  if (auto bools = dyn_cast<DenseIntElementsAttr>(values)) {
    if (!bools.getElementType().isInteger(1))
      return false;
    for (bool keep : bools.getValues<bool>())
      if ((keep != negated) != onDiagonalOrBelow(idx++))
        return false;
    return true;
  }
  if (auto floats = dyn_cast<DenseFPElementsAttr>(values)) {
    if (negated)
      return false;
    for (APFloat x : floats.getValues<APFloat>()) {
      double v = x.convertToDouble();
      if (onDiagonalOrBelow(idx++) ? v != 0.0 : !(v <= kMaskedScore))
        return false;
    }
    return true;
  }
  return false;
}

Value dfa::graph::buildAttentionProbs(OpBuilder &b, Location loc, Value q,
                                      Value k, Value mask, double scale,
                                      bool causal) {
  auto qt = cast<RankedTensorType>(q.getType());
  int64_t r = qt.getRank();
  Type elt = qt.getElementType();
  auto constant = [&](double v) {
    auto type = RankedTensorType::get({}, elt);
    return b.create<ConstantOp>(loc, DenseElementsAttr::get(type, b.getFloatAttr(elt, v)));
  };
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < r; ++i)
    perm.push_back(i);
  std::swap(perm[r - 1], perm[r - 2]);
  Value kt = b.create<TransposeOp>(loc, k, b.getDenseI64ArrayAttr(perm));
  Value scores = b.create<MatMulOp>(loc, q, kt);
  scores = b.create<MulOp>(loc, scores, constant(scale));
  Value negInf = constant(-INFINITY);
  auto st = cast<RankedTensorType>(scores.getType());
  int64_t L = st.getDimSize(r - 2), S = st.getDimSize(r - 1);
  if (causal) {
    SmallVector<bool> keep(L * S);
    for (int64_t i = 0; i < L; ++i)
      for (int64_t j = 0; j < S; ++j)
        keep[i * S + j] = j <= i;
    auto bt = RankedTensorType::get({L, S}, b.getI1Type());
    Value m = b.create<ConstantOp>(loc, DenseElementsAttr::get(bt, ArrayRef<bool>(keep)));
    scores = b.create<WhereOp>(loc, m, scores, negInf);
  }
  if (mask) {
    if (cast<RankedTensorType>(mask.getType()).getElementType().isInteger(1))
      scores = b.create<WhereOp>(loc, mask, scores, negInf);
    else
      scores = b.create<AddOp>(loc, scores, mask);
  }
  return b.create<SoftmaxOp>(loc, scores, b.getI64IntegerAttr(r - 1));
}

LogicalResult AttentionOp::decompose(RewriterBase &rw) {
  if (!isa<FloatType>(getType().getElementType()))
    return failure();
  Value probs = buildAttentionProbs(rw, getLoc(), getQuery(), getKey(), getMask(),
                                    getScale().convertToDouble(), getCausal());
  if (getSafeSoftmax()) {
    auto pt = cast<RankedTensorType>(probs.getType());
    Value nan = rw.create<IsNaNOp>(
        getLoc(), RankedTensorType::get(pt.getShape(), rw.getI1Type()), probs);
    Value zero = rw.create<ConstantOp>(
        getLoc(), DenseElementsAttr::get(RankedTensorType::get({}, pt.getElementType()),
                                         rw.getFloatAttr(pt.getElementType(), 0.0)));
    probs = rw.create<WhereOp>(getLoc(), nan, zero, probs);
  }
  if (Value mask = getMask(); mask && getEmptyRowsZero()) {
    // A row whose mask keeps no key is 0: where(max over the row of the
    // mask (a bool one as 0 / -inf) == -inf, 0, p).
    auto pt = cast<RankedTensorType>(probs.getType());
    auto mt = cast<RankedTensorType>(mask.getType());
    Type elt = pt.getElementType();
    auto scalar = [&](Type t, double v) {
      return rw.create<ConstantOp>(
          getLoc(), DenseElementsAttr::get(RankedTensorType::get({}, t),
                                           rw.getFloatAttr(t, v)));
    };
    Value additive = mask;
    if (mt.getElementType().isInteger(1))
      additive = rw.create<WhereOp>(getLoc(), mask, scalar(elt, 0.0),
                                    scalar(elt, -INFINITY));
    Type at = cast<RankedTensorType>(additive.getType()).getElementType();
    Value rowMax = rw.create<ReduceMaxOp>(
        getLoc(), additive, rw.getDenseI64ArrayAttr({mt.getRank() - 1}),
        rw.getBoolAttr(true));
    Value none = rw.create<EqualOp>(getLoc(), rowMax, scalar(at, -INFINITY));
    probs = rw.create<WhereOp>(getLoc(), none, scalar(elt, 0.0), probs);
  }
  rw.replaceOpWithNewOp<MatMulOp>(*this, probs, getValue());
  return success();
}
