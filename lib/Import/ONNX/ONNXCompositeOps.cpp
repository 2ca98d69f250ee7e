//===- ONNXCompositeOps.cpp - ONNX ops imported as graph subgraphs ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// ONNX functions that have no op of their own in the graph dialect and are
/// imported as the subgraph the ONNX spec defines them by: the training
/// losses (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss), OneHot,
/// EyeLike and MeanVarianceNormalization.
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Reference/Evaluator.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::onnximport;

namespace {

Value reduceAll(NodeContext &c, Value v, bool mean) {
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < typeOf(v).getRank(); ++d)
    axes.push_back(d);
  auto a = c.b.getDenseI64ArrayAttr(axes);
  auto keep = c.b.getBoolAttr(false);
  return mean ? Value(c.b.create<ReduceMeanOp>(c.loc, v, a, keep))
              : Value(c.b.create<ReduceSumOp>(c.loc, v, a, keep));
}

/// The negative log-likelihood of `logProb` [N, C, d...] at `target`
/// [N, d...], with optional class weights and an ignored class, reduced as
/// the ONNX spec says ("mean" divides by the sum of the weights used).
FailureOr<Value> nllLoss(NodeContext &c, Value logProb, Value target,
                         Value weight) {
  auto lt = typeOf(logProb), tt = typeOf(target);
  if (lt.getRank() < 2 || tt.getRank() != lt.getRank() - 1 ||
      tt.getDimSize(0) != lt.getDimSize(0)) {
    c.error() << "target " << target.getType() << " does not match input "
              << logProb.getType();
    return failure();
  }
  if (!isa<IntegerType>(tt.getElementType())) {
    c.error() << "target must hold integer class indices";
    return failure();
  }
  std::string reduction = c.strAttr("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean") {
    c.error() << "unknown reduction '" << reduction << "'";
    return failure();
  }
  Type elt = lt.getElementType(), idx = tt.getElementType();
  Value mask, safe = target;
  if (const auto *a = c.attr("ignore_index")) {
    Value ignore = c.scalar(idx, (double)a->i());
    mask = c.b.create<NotOp>(c.loc, c.b.create<EqualOp>(c.loc, target, ignore));
    safe = c.b.create<WhereOp>(c.loc, mask, target, c.scalar(idx, 0));
  }
  SmallVector<int64_t> withClass(tt.getShape());
  withClass.insert(withClass.begin() + 1, 1);
  Value picked = c.b.create<GatherElementsOp>(
      c.loc, RankedTensorType::get(withClass, elt), logProb,
      c.reshape(safe, withClass), c.b.getI64IntegerAttr(1));
  Value loss = c.b.create<NegOp>(c.loc, c.reshape(picked, tt.getShape()));
  Value w;
  if (weight && (typeOf(weight).getRank() != 1 ||
                 typeOf(weight).getDimSize(0) != lt.getDimSize(1))) {
    c.error() << "weight " << weight.getType() << " must have "
              << lt.getDimSize(1) << " class weights";
    return failure();
  }
  if (weight) {
    w = c.b.create<GatherOp>(c.loc, weight, safe, c.b.getI64IntegerAttr(0));
    loss = c.b.create<MulOp>(c.loc, loss, w);
  }
  if (mask) {
    Value zero = c.scalar(elt, 0);
    loss = c.b.create<WhereOp>(c.loc, mask, loss, zero);
    Value ones = c.b.create<ConstantOp>(
        c.loc, DenseElementsAttr::get(tt.clone(elt), c.b.getFloatAttr(elt, 1.0)));
    w = c.b.create<WhereOp>(c.loc, mask, w ? w : ones, zero);
  }
  if (reduction == "none")
    return loss;
  if (reduction == "sum" || (reduction == "mean" && !w))
    return reduceAll(c, loss, reduction == "mean");
  return Value(c.b.create<DivOp>(c.loc, reduceAll(c, loss, false),
                                 reduceAll(c, w, false)));
}

LogicalResult convertNLLLoss(NodeContext &c, Results &r) {
  auto loss = nllLoss(c, c.in(0), c.in(1), c.in(2));
  if (failed(loss))
    return failure();
  r.push_back(*loss);
  return success();
}

LogicalResult convertSoftmaxCrossEntropy(NodeContext &c, Results &r) {
  if (c.type(0).getRank() < 2) {
    c.error() << "scores must have rank >= 2";
    return failure();
  }
  Value logProb = c.b.create<LogSoftmaxOp>(c.loc, c.in(0), c.b.getI64IntegerAttr(1));
  auto loss = nllLoss(c, logProb, c.in(1), c.in(2));
  if (failed(loss))
    return failure();
  r.push_back(*loss);
  r.push_back(logProb);
  return success();
}

LogicalResult convertOneHot(NodeContext &c, Results &r) {
  auto depthV = c.constScalar(1, "depth");
  if (failed(depthV))
    return failure();
  if (!(*depthV >= 1) || *depthV > double(1 << 24)) {
    c.error() << "depth must be in [1, 2^24], got " << *depthV;
    return failure();
  }
  int64_t depth = (int64_t)*depthV;
  auto it = c.type(0), vt = c.type(2);
  if (vt.getNumElements() != 2) {
    c.error() << "values must hold [off, on]";
    return failure();
  }
  int64_t rank = it.getRank() + 1;
  auto axis = c.axis(c.intAttr("axis", -1), rank);
  if (failed(axis))
    return failure();
  // Negative indices count from the end: i + depth where i < 0.
  Type elt = it.getElementType();
  Value idx = c.in(0);
  Value neg = c.b.create<LessOp>(c.loc, idx, c.scalar(elt, 0));
  idx = c.b.create<WhereOp>(
      c.loc, neg, c.b.create<AddOp>(c.loc, idx, c.scalar(elt, (double)depth)), idx);
  SmallVector<int64_t> expanded(it.getShape());
  expanded.insert(expanded.begin() + *axis, 1);
  SmallVector<int64_t> iotaShape(rank, 1);
  iotaShape[*axis] = depth;
  ref::Tensor iota(*ref::dtypeOf(elt), iotaShape);
  for (int64_t i = 0; i < depth; ++i)
    iota.setDouble(i, (double)i);
  Value hot = c.b.create<EqualOp>(c.loc, c.reshape(idx, expanded), c.constant(iota));
  Value values = c.reshape(c.in(2), {2});
  auto pick = [&](int64_t i) {
    return c.reshape(c.b.create<SliceOp>(c.loc, RankedTensorType::get({1}, vt.getElementType()),
                                         values, c.b.getDenseI64ArrayAttr({i}),
                                         c.b.getDenseI64ArrayAttr({1})),
                     {});
  };
  r.push_back(c.b.create<WhereOp>(c.loc, hot, pick(1), pick(0)));
  return success();
}

LogicalResult convertEyeLike(NodeContext &c, Results &r) {
  auto t = c.type(0);
  if (t.getRank() != 2) {
    c.error() << "input must be a matrix";
    return failure();
  }
  Type elt = t.getElementType();
  if (const auto *a = c.attr("dtype")) {
    elt = elementType(a->i(), c.ctx());
    if (!elt) {
      c.unsupported() << "dtype " << onnxTypeName(a->i());
      return failure();
    }
  }
  int64_t k = c.intAttr("k", 0), rows = t.getDimSize(0), cols = t.getDimSize(1);
  ref::Tensor eye(*ref::dtypeOf(elt), {rows, cols});
  for (int64_t i = 0; i < rows; ++i)
    if (i + k >= 0 && i + k < cols)
      eye.setDouble(i * cols + i + k, 1.0);
  r.push_back(c.constant(eye));
  return success();
}

LogicalResult convertMVN(NodeContext &c, Results &r) {
  auto t = c.type(0);
  std::vector<int64_t> axes = c.intsAttr("axes").value_or(std::vector<int64_t>{0, 2, 3});
  SmallVector<int64_t> norm;
  for (int64_t a : axes) {
    auto n = c.axis(a, t.getRank());
    if (failed(n))
      return failure();
    norm.push_back(*n);
  }
  llvm::sort(norm);
  norm.erase(std::unique(norm.begin(), norm.end()), norm.end());
  auto m = c.moments(c.in(0), norm);
  Value std = c.b.create<SqrtOp>(c.loc, m.variance);
  Value eps = c.scalar(t.getElementType(), 1e-9);
  r.push_back(c.b.create<DivOp>(c.loc, m.centered, c.b.create<AddOp>(c.loc, std, eps)));
  return success();
}
/// (x - mean) / sqrt(var + eps) per instance and group of channels, then a
/// scale and bias per channel (opset 21; per group in opset 18).
LogicalResult convertGroupNorm(NodeContext &c, Results &r) {
  auto t = c.type(0);
  int64_t groups = c.intAttr("num_groups", 0);
  if (t.getRank() < 2 || groups < 1 || t.getDimSize(1) % groups) {
    c.error() << "num_groups must divide the channels of a rank >= 2 input";
    return failure();
  }
  if (int64_t stash = c.intAttr("stash_type", 1); stash != 1) {
    c.unsupported() << "stash_type " << stash << " (only 1, float)";
    return failure();
  }
  int64_t n = t.getDimSize(0), ch = t.getDimSize(1);
  int64_t rest = t.getNumElements() / std::max<int64_t>(1, n * groups);
  Type elt = t.getElementType(), f32 = c.b.getF32Type();
  bool narrow = elementBits(elt) < 32;
  Value x = c.reshape(narrow ? c.cast(c.in(0), f32) : c.in(0), {n, groups, rest});
  NodeContext::Moments m = c.moments(x, {2});
  Value eps = c.scalar(typeOf(x).getElementType(), c.floatAttr("epsilon", 1e-5));
  Value y = c.b.create<DivOp>(c.loc, m.centered,
                              c.b.create<SqrtOp>(c.loc, c.b.create<AddOp>(c.loc, m.variance, eps)));
  if (narrow)
    y = c.cast(y, elt);
  bool perGroup = c.opset < 21;
  int64_t params = perGroup ? groups : ch;
  for (size_t i : {1, 2})
    if (typeOf(c.in(i)).getNumElements() != params) {
      c.error() << "scale and bias must hold " << params << " values";
      return failure();
    }
  SmallVector<int64_t> shape(t.getShape());
  SmallVector<int64_t> pshape(shape.size(), 1);
  if (perGroup) {
    pshape.assign({1, groups, 1}); // y is [n, groups, rest]
  } else {
    y = c.reshape(y, shape);
    pshape[1] = ch;
  }
  Value scale = c.reshape(c.cast(c.in(1), elt), pshape);
  Value bias = c.reshape(c.cast(c.in(2), elt), pshape);
  y = c.b.create<AddOp>(c.loc, c.b.create<MulOp>(c.loc, y, scale), bias);
  r.push_back(c.reshape(y, shape));
  return success();
}

/// x / (bias + alpha / size * (sum of x^2 over the size channels around))^beta.
LogicalResult convertLRN(NodeContext &c, Results &r) {
  auto t = c.type(0);
  int64_t size = c.intAttr("size", 0);
  if (t.getRank() < 3 || size < 1 || !isa<FloatType>(t.getElementType())) {
    c.error() << "needs a float input of rank >= 3 and a positive size";
    return failure();
  }
  Type elt = t.getElementType();
  int64_t rank = t.getRank(), ch = t.getDimSize(1);
  Value sq = c.b.create<MulOp>(c.loc, c.in(0), c.in(0));
  SmallVector<int64_t> pads(2 * rank, 0);
  pads[1] = (size - 1) / 2;
  pads[1 + rank] = size - 1 - (size - 1) / 2;
  Value padded = c.b.create<PadOp>(c.loc, sq, c.b.getDenseI64ArrayAttr(pads),
                                   c.b.getStringAttr("constant"), c.b.getF64FloatAttr(0));
  Value sum;
  for (int64_t k = 0; k < size; ++k) {
    SmallVector<int64_t> starts(rank, 0), steps(rank, 1);
    starts[1] = k;
    SmallVector<int64_t> shape(t.getShape());
    shape[1] = ch;
    Value s = c.b.create<SliceOp>(c.loc, RankedTensorType::get(shape, elt), padded,
                                  c.b.getDenseI64ArrayAttr(starts),
                                  c.b.getDenseI64ArrayAttr(steps));
    sum = sum ? Value(c.b.create<AddOp>(c.loc, sum, s)) : s;
  }
  Value denom = c.b.create<AddOp>(
      c.loc, c.scalar(elt, c.floatAttr("bias", 1.0)),
      c.b.create<MulOp>(c.loc, sum, c.scalar(elt, c.floatAttr("alpha", 1e-4) / double(size))));
  denom = c.b.create<PowOp>(c.loc, denom, c.scalar(elt, c.floatAttr("beta", 0.75)));
  r.push_back(c.b.create<DivOp>(c.loc, c.in(0), denom));
  return success();
}
} // namespace

void dfa::onnximport::addCompositeConverters(llvm::StringMap<Converter> &t) {
  t["NegativeLogLikelihoodLoss"] = convertNLLLoss;
  t["SoftmaxCrossEntropyLoss"] = convertSoftmaxCrossEntropy;
  t["OneHot"] = convertOneHot;
  t["EyeLike"] = convertEyeLike;
  t["MeanVarianceNormalization"] = convertMVN;
  t["GroupNormalization"] = convertGroupNorm;
  t["LRN"] = convertLRN;
}
