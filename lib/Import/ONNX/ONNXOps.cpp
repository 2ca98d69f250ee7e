//===- ONNXOps.cpp - converters for compute ops -----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Elementwise, contraction, windowed, normalization and reduction ops.
/// Opset differences (attributes that became inputs, changed defaults) are
/// handled here so that the graph dialect has one form per op.
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Reference/Evaluator.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::onnximport;

namespace {
FloatAttr f64(NodeContext &c, double v) { return c.b.getF64FloatAttr(v); }

template <typename OpT> LogicalResult unary(NodeContext &c, Results &r) {
  r.push_back(c.b.create<OpT>(c.loc, c.in(0)));
  return success();
}

/// Aligns `rhs` for the pre-opset-7 `broadcast`/`axis` attributes.
Value legacyBroadcast(NodeContext &c, Value lhs, Value rhs) {
  if (c.opset >= 7 || c.intAttr("broadcast", 0) == 0 || !c.attr("axis"))
    return rhs;
  auto lt = cast<RankedTensorType>(lhs.getType());
  auto rt = cast<RankedTensorType>(rhs.getType());
  int64_t axis = c.intAttr("axis", 0);
  if (axis < 0)
    axis += lt.getRank();
  SmallVector<int64_t> shape(rt.getShape());
  shape.append(std::max<int64_t>(0, lt.getRank() - axis - rt.getRank()), 1);
  return c.reshape(rhs, shape);
}

LogicalResult checkSameElementType(NodeContext &c, Value a, Value b) {
  Type ea = cast<ShapedType>(a.getType()).getElementType();
  Type eb = cast<ShapedType>(b.getType()).getElementType();
  if (ea != eb) {
    c.error() << "operand element types differ (" << ea << " and " << eb << ")";
    return failure();
  }
  return success();
}

template <typename OpT> LogicalResult binary(NodeContext &c, Results &r) {
  Value lhs = c.in(0), rhs = legacyBroadcast(c, c.in(0), c.in(1));
  if (failed(checkSameElementType(c, lhs, rhs)))
    return failure();
  // Legacy PRelu exports give a per-channel slope [C] for an N-C-... input.
  auto rt = cast<RankedTensorType>(rhs.getType());
  if (std::is_same_v<OpT, PReluOp> && rt.getRank() == 1 &&
      c.type(0).getRank() > 2 && rt.getDimSize(0) == c.type(0).getDimSize(1) &&
      failed(broadcastShapes(c.type(0).getShape(), rt.getShape()))) {
    SmallVector<int64_t> shape{rt.getDimSize(0)};
    shape.append(c.type(0).getRank() - 2, 1);
    rhs = c.reshape(rhs, shape);
  }
  if (failed(broadcastShapes(c.type(0).getShape(),
                             cast<ShapedType>(rhs.getType()).getShape()))) {
    c.error() << "operand shapes " << lhs.getType() << " and " << rhs.getType()
              << " do not broadcast";
    return failure();
  }
  r.push_back(c.b.create<OpT>(c.loc, lhs, rhs));
  return success();
}

LogicalResult convertPow(NodeContext &c, Results &r) {
  Type base = c.type(0).getElementType(), exp = c.type(1).getElementType();
  if (!isa<FloatType>(base) && isa<FloatType>(exp)) {
    // pow(int, float) is computed in the exponent's type, then truncated to
    // the base's (ONNX keeps the base type): pow(4, 0.5) = 2.
    Value p = c.b.create<PowOp>(c.loc, c.cast(c.in(0), exp), c.in(1));
    r.push_back(c.cast(p, base));
    return success();
  }
  r.push_back(c.b.create<PowOp>(c.loc, c.in(0), c.cast(c.in(1), base)));
  return success();
}

LogicalResult convertMod(NodeContext &c, Results &r) {
  if (failed(checkSameElementType(c, c.in(0), c.in(1))))
    return failure();
  bool fmod = c.intAttr("fmod", 0) != 0;
  // Mod-28 defines fmod=0 (floor) for floating point too.
  if (!fmod && c.opset < 28 && isa<FloatType>(c.type(0).getElementType())) {
    c.error() << "fmod must be 1 for floating-point inputs before opset 28";
    return failure();
  }
  r.push_back(c.b.create<ModOp>(c.loc, c.in(0), c.in(1), c.b.getBoolAttr(fmod)));
  return success();
}

/// BitwiseAnd, BitwiseOr, BitwiseXor, BitwiseNot (opset 18): integers only.
LogicalResult convertBitwise(NodeContext &c, Results &r) {
  for (size_t i = 0; i < c.inputs.size(); ++i)
    if (!isa<IntegerType>(c.type(i).getElementType()) ||
        c.type(i).getElementType().isInteger(1)) {
      c.error() << "bitwise ops take integer tensors";
      return failure();
    }
  StringRef op = c.node.op_type();
  if (op == "BitwiseNot") {
    r.push_back(c.b.create<BitwiseNotOp>(c.loc, c.in(0)));
    return success();
  }
  StringRef kind = op == "BitwiseAnd" ? "and" : op == "BitwiseOr" ? "or" : "xor";
  r.push_back(c.b.create<BitwiseOp>(c.loc, c.in(0), c.in(1), c.b.getStringAttr(kind)));
  return success();
}

LogicalResult convertBitShift(NodeContext &c, Results &r) {
  bool left = c.strAttr("direction", "") == "LEFT";
  r.push_back(c.b.create<BitShiftOp>(c.loc, c.in(0), c.in(1), c.b.getBoolAttr(left)));
  return success();
}

/// Sum, Max, Min, Mean: a left fold of the binary op over all inputs.
template <typename OpT> LogicalResult variadic(NodeContext &c, Results &r) {
  Value acc = c.in(0);
  for (size_t i = 1; i < c.inputs.size(); ++i) {
    if (failed(checkSameElementType(c, acc, c.in(i))))
      return failure();
    if (failed(broadcastShapes(cast<ShapedType>(acc.getType()).getShape(),
                               c.type(i).getShape()))) {
      c.error() << "input " << i << " " << c.in(i).getType()
                << " does not broadcast with the others";
      return failure();
    }
    acc = c.b.create<OpT>(c.loc, acc, c.in(i));
  }
  r.push_back(acc);
  return success();
}

LogicalResult convertMean(NodeContext &c, Results &r) {
  SmallVector<Value> sum;
  if (failed(variadic<AddOp>(c, sum)))
    return failure();
  Value n = c.scalar(c.type(0).getElementType(), (double)c.inputs.size());
  r.push_back(c.b.create<DivOp>(c.loc, sum[0], n));
  return success();
}

LogicalResult convertWhere(NodeContext &c, Results &r) {
  if (failed(checkSameElementType(c, c.in(1), c.in(2))))
    return failure();
  auto xy = broadcastShapes(c.type(1).getShape(), c.type(2).getShape());
  if (!c.type(0).getElementType().isInteger(1) || failed(xy) ||
      failed(broadcastShapes(*xy, c.type(0).getShape()))) {
    c.error() << "condition " << c.in(0).getType() << " and values "
              << c.in(1).getType() << ", " << c.in(2).getType()
              << " do not broadcast (or the condition is not bool)";
    return failure();
  }
  r.push_back(c.b.create<WhereOp>(c.loc, c.in(0), c.in(1), c.in(2)));
  return success();
}

LogicalResult convertClip(NodeContext &c, Results &r) {
  FloatAttr lo, hi;
  if (c.opset < 11) {
    if (c.attr("min"))
      lo = f64(c, c.floatAttr("min", 0));
    if (c.attr("max"))
      hi = f64(c, c.floatAttr("max", 0));
  } else {
    for (size_t i : {1, 2}) {
      if (!c.has(i))
        continue;
      auto v = c.constScalar(i, i == 1 ? "min" : "max");
      if (failed(v))
        return failure();
      (i == 1 ? lo : hi) = f64(c, *v);
    }
  }
  r.push_back(c.b.create<ClipOp>(c.loc, c.in(0), lo, hi));
  return success();
}

/// x cast to `elt` as ONNX's Cast does. To an FP8 format with `saturate`
/// (the default), values beyond the format's largest finite value,
/// infinities included, become that value (a clip before the cast); without
/// it they become infinity (E5M2) or NaN. The FP6 and FP4 formats have
/// neither and always saturate (graph.cast does). To E8M0, `round_mode`
/// (opset 24) and `saturate` become the cast's attributes.
static FailureOr<Value> castSaturating(NodeContext &c, Value x, Type elt) {
  auto to = ref::dtypeOf(elt);
  auto xt = cast<RankedTensorType>(x.getType());
  if (to == ref::DType::F8E8M0FNU) {
    std::string name = c.strAttr("round_mode", "up");
    std::optional<E8M0Rounding> mode = symbolizeE8M0Rounding(name);
    if (!mode) {
      c.error() << "round_mode '" << name << "' is not up, down or nearest";
      return failure();
    }
    bool saturate = c.intAttr("saturate", 1);
    if (xt.getElementType() == elt)
      return x;
    return Value(c.b.create<CastOp>(
        c.loc, xt.clone(elt), x, E8M0RoundingAttr::get(c.ctx(), *mode),
        saturate ? UnitAttr() : c.b.getUnitAttr()));
  }
  c.ignoreAttrs({"round_mode"});
  bool f8 = to && ref::isFloat8(*to);
  if (f8 && c.intAttr("saturate", 1) && xt.getElementType() != elt) {
    // The clip in a type that holds its bounds exactly: f32 for integers
    // and the 8-bit and smaller floats (E5M2 would round 448 to 512).
    auto ft = dyn_cast<FloatType>(xt.getElementType());
    if (!ft || ft.getWidth() < 16)
      x = c.cast(x, c.b.getF32Type());
    double max = ref::minifloatMax(*to);
    x = c.b.create<ClipOp>(c.loc, x, c.b.getF64FloatAttr(-max), c.b.getF64FloatAttr(max));
  } else {
    c.ignoreAttrs({"saturate"});
  }
  return c.cast(x, elt);
}

LogicalResult convertCast(NodeContext &c, Results &r) {
  int to = c.intAttr("to", 0);
  Type elt = elementType(to, c.ctx());
  if (!elt) {
    c.unsupported() << "cast to " << onnxTypeName(to);
    return failure();
  }
  FailureOr<Value> y = castSaturating(c, c.in(0), elt);
  if (failed(y))
    return failure();
  r.push_back(*y);
  return success();
}

LogicalResult convertBitCast(NodeContext &c, Results &r) {
  int to = c.intAttr("to", 0);
  Type elt = elementType(to, c.ctx());
  if (!elt) {
    c.unsupported() << "bit-cast to " << onnxTypeName(to);
    return failure();
  }
  r.push_back(c.b.create<BitCastOp>(c.loc, c.type(0).clone(elt), c.in(0)));
  return success();
}

LogicalResult convertCastLike(NodeContext &c, Results &r) {
  FailureOr<Value> y = castSaturating(c, c.in(0), c.type(1).getElementType());
  if (failed(y))
    return failure();
  r.push_back(*y);
  return success();
}

#define DFA_UNARY_ATTR(NAME, OP, ...)                                          \
  LogicalResult convert##NAME(NodeContext &c, Results &r) {                   \
    r.push_back(c.b.create<OP>(c.loc, c.in(0), __VA_ARGS__));                 \
    return success();                                                         \
  }
DFA_UNARY_ATTR(Celu, CeluOp, f64(c, c.floatAttr("alpha", 1.0)))
DFA_UNARY_ATTR(Elu, EluOp, f64(c, c.floatAttr("alpha", 1.0)))
DFA_UNARY_ATTR(LeakyRelu, LeakyReluOp, f64(c, c.floatAttr("alpha", 0.01)))
DFA_UNARY_ATTR(ThresholdedRelu, ThresholdedReluOp, f64(c, c.floatAttr("alpha", 1.0)))
DFA_UNARY_ATTR(HardSigmoid, HardSigmoidOp, f64(c, c.floatAttr("alpha", 0.2)),
               f64(c, c.floatAttr("beta", 0.5)))
DFA_UNARY_ATTR(Selu, SeluOp, f64(c, c.floatAttr("alpha", 1.67326319217681884765625)),
               f64(c, c.floatAttr("gamma", 1.05070102214813232421875)))
DFA_UNARY_ATTR(Shrink, ShrinkOp, f64(c, c.floatAttr("bias", 0.0)),
               f64(c, c.floatAttr("lambd", 0.5)))
#undef DFA_UNARY_ATTR

LogicalResult convertIsNaN(NodeContext &c, Results &r) {
  r.push_back(c.b.create<IsNaNOp>(c.loc, c.type(0).clone(c.b.getI1Type()), c.in(0)));
  return success();
}

LogicalResult convertIsInf(NodeContext &c, Results &r) {
  r.push_back(c.b.create<IsInfOp>(
      c.loc, c.type(0).clone(c.b.getI1Type()), c.in(0),
      c.b.getBoolAttr(c.intAttr("detect_positive", 1)),
      c.b.getBoolAttr(c.intAttr("detect_negative", 1))));
  return success();
}

LogicalResult convertGelu(NodeContext &c, Results &r) {
  bool tanh = c.strAttr("approximate", "none") == "tanh";
  r.push_back(c.b.create<GeluOp>(c.loc, c.in(0), c.b.getBoolAttr(tanh)));
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

LogicalResult convertMatMul(NodeContext &c, Results &r) {
  if (failed(checkSameElementType(c, c.in(0), c.in(1))))
    return failure();
  SmallVector<Type> types;
  // No location: the converter's own error names the node, once.
  if (failed(MatMulOp::inferReturnTypes(
          c.ctx(), std::nullopt, MatMulOp::Adaptor(ValueRange{c.in(0), c.in(1)}),
          types))) {
    c.error() << "operand shapes " << c.in(0).getType() << " and "
              << c.in(1).getType() << " do not multiply";
    return failure();
  }
  r.push_back(c.b.create<MatMulOp>(c.loc, c.in(0), c.in(1)));
  return success();
}

LogicalResult convertGemm(NodeContext &c, Results &r) {
  if (c.type(0).getRank() != 2 || c.type(1).getRank() != 2) {
    c.error() << "A and B must be matrices";
    return failure();
  }
  // Opsets before 7: broadcast=1 allows C to broadcast, as it always may
  // since; a C that needs none is valid either way.
  c.ignoreAttrs({"broadcast"});
  bool ta = c.intAttr("transA", 0), tb = c.intAttr("transB", 0);
  int64_t k1 = c.type(0).getDimSize(ta ? 0 : 1), k2 = c.type(1).getDimSize(tb ? 1 : 0);
  if (k1 != k2) {
    c.error() << "contracting dims differ (" << k1 << " and " << k2 << ")";
    return failure();
  }
  int64_t m = c.type(0).getDimSize(ta ? 1 : 0), n = c.type(1).getDimSize(tb ? 0 : 1);
  if (c.has(2)) {
    auto shape = broadcastShapes(c.type(2).getShape(), {m, n});
    if (failed(shape) || (*shape)[0] != m || (*shape)[1] != n) {
      c.error() << "C " << c.in(2).getType() << " does not broadcast to " << m
                << "x" << n;
      return failure();
    }
  }
  if (failed(checkSameElementType(c, c.in(0), c.in(1))))
    return failure();
  r.push_back(c.b.create<GemmOp>(
      c.loc, c.in(0), c.in(1), c.in(2), f64(c, c.floatAttr("alpha", 1.0)),
      f64(c, c.floatAttr("beta", 1.0)), c.b.getBoolAttr(ta), c.b.getBoolAttr(tb)));
  return success();
}

//===----------------------------------------------------------------------===//
// Windowed ops
//===----------------------------------------------------------------------===//

/// Strides, dilations and begin/end pads of a window op, with auto_pad
/// resolved against the input's spatial dims.
struct WindowAttrs {
  SmallVector<int64_t> kernel, strides, dilations, pads;
};

FailureOr<WindowAttrs> windowAttrs(NodeContext &c, ArrayRef<int64_t> kernel) {
  int64_t s = c.type(0).getRank() - 2;
  WindowAttrs w;
  w.kernel.assign(kernel.begin(), kernel.end());
  auto get = [&](StringRef name, size_t n, int64_t dflt) {
    auto v = c.intsAttr(name);
    return v ? SmallVector<int64_t>(v->begin(), v->end())
             : SmallVector<int64_t>(n, dflt);
  };
  // Conv's kernel comes from its weight; a kernel_shape must agree.
  if (auto ks = c.intsAttr("kernel_shape");
      ks && !llvm::equal(*ks, w.kernel)) {
    c.error() << "kernel_shape does not match the weight's spatial dims";
    return failure();
  }
  w.strides = get("strides", s, 1);
  w.dilations = get("dilations", s, 1);
  w.pads = get("pads", 2 * s, 0);
  if ((int64_t)w.kernel.size() != s || (int64_t)w.strides.size() != s ||
      (int64_t)w.dilations.size() != s || (int64_t)w.pads.size() != 2 * s) {
    c.error() << "kernel_shape, strides, dilations or pads do not match " << s
              << " spatial dims";
    return failure();
  }
  for (int64_t i = 0; i < s; ++i)
    if (w.kernel[i] < 1 || w.strides[i] < 1 || w.dilations[i] < 1) {
      c.error() << "kernel, strides and dilations must be positive";
      return failure();
    }
  std::string autoPad = c.strAttr("auto_pad", "NOTSET");
  if (autoPad == "VALID") {
    std::fill(w.pads.begin(), w.pads.end(), 0);
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int64_t i = 0; i < s; ++i) {
      int64_t in = c.type(0).getDimSize(i + 2);
      int64_t out = (in + w.strides[i] - 1) / w.strides[i];
      int64_t span = (w.kernel[i] - 1) * w.dilations[i] + 1;
      int64_t total = std::max<int64_t>(0, (out - 1) * w.strides[i] + span - in);
      int64_t small = total / 2, big = total - small;
      w.pads[i] = autoPad == "SAME_UPPER" ? small : big;
      w.pads[i + s] = autoPad == "SAME_UPPER" ? big : small;
    }
  } else if (autoPad != "NOTSET") {
    c.error() << "unknown auto_pad '" << autoPad << "'";
    return failure();
  }
  for (int64_t i = 0; i < s; ++i) {
    if (w.kernel[i] < 1 || w.strides[i] < 1 || w.dilations[i] < 1) {
      c.error() << "kernel, strides and dilations must be positive";
      return failure();
    }
    if (windowOutputSize(c.type(0).getDimSize(i + 2), w.kernel[i], w.strides[i],
                         w.pads[i], w.pads[i + s], w.dilations[i],
                         c.intAttr("ceil_mode", 0)) < 1) {
      c.error() << "the window (" << w.kernel[i] << " wide, dilation "
                << w.dilations[i] << ") does not fit spatial dim " << i
                << " of " << c.in(0).getType();
      return failure();
    }
  }
  return w;
}

LogicalResult checkSpatial(NodeContext &c) {
  if (c.type(0).getRank() < 3) {
    c.error() << "input must have rank >= 3, got " << c.in(0).getType();
    return failure();
  }
  if (c.type(0).getRank() > 5) {
    c.unsupported() << "more than 3 spatial dims";
    return failure();
  }
  return success();
}

LogicalResult convertConv(NodeContext &c, Results &r) {
  FailureOr<Value> y = convolution(c, c.in(0), c.in(1), c.in(2));
  if (failed(y))
    return failure();
  r.push_back(*y);
  return success();
}

LogicalResult convertConvTranspose(NodeContext &c, Results &r) {
  if (failed(checkSpatial(c)))
    return failure();
  auto xt = c.type(0), wt = c.type(1);
  int64_t s = xt.getRank() - 2, group = c.intAttr("group", 1);
  if (wt.getRank() != xt.getRank() || group < 1 ||
      wt.getDimSize(0) != xt.getDimSize(1) || xt.getDimSize(1) % group) {
    c.error() << "weight " << c.in(1).getType() << " does not fit input "
              << c.in(0).getType() << " with group " << group;
    return failure();
  }
  SmallVector<int64_t> kernel(wt.getShape().drop_front(2));
  if (auto ks = c.intsAttr("kernel_shape"); ks && !llvm::equal(*ks, kernel)) {
    c.error() << "kernel_shape does not match the weight's spatial dims";
    return failure();
  }
  auto get = [&](StringRef name, size_t n, int64_t dflt) {
    auto v = c.intsAttr(name);
    return v ? SmallVector<int64_t>(v->begin(), v->end())
             : SmallVector<int64_t>(n, dflt);
  };
  auto strides = get("strides", s, 1), dil = get("dilations", s, 1);
  auto pads = get("pads", 2 * s, 0), outPad = get("output_padding", s, 0);
  auto outShapeAttr = c.intsAttr("output_shape");
  if ((int64_t)strides.size() != s || (int64_t)dil.size() != s ||
      (int64_t)pads.size() != 2 * s || (int64_t)outPad.size() != s ||
      (outShapeAttr && (int64_t)outShapeAttr->size() < s)) {
    c.error() << "strides, dilations, pads, output_padding or output_shape do "
                 "not match "
              << s << " spatial dims";
    return failure();
  }
  for (int64_t i = 0; i < s; ++i)
    if (strides[i] < 1 || dil[i] < 1 || outPad[i] < 0) {
      c.error() << "strides and dilations must be positive";
      return failure();
    }
  if (c.has(2) && (c.type(2).getRank() != 1 ||
                   c.type(2).getDimSize(0) != wt.getDimSize(1) * group)) {
    c.error() << "bias must have " << wt.getDimSize(1) * group << " elements";
    return failure();
  }
  std::string autoPad = c.strAttr("auto_pad", "NOTSET");
  SmallVector<int64_t> out{xt.getDimSize(0), wt.getDimSize(1) * group};
  for (int64_t i = 0; i < s; ++i) {
    int64_t in = xt.getDimSize(i + 2);
    int64_t full = strides[i] * (in - 1) + outPad[i] + (kernel[i] - 1) * dil[i] + 1;
    int64_t target = -1;
    if (outShapeAttr)
      target = (*outShapeAttr)[outShapeAttr->size() - s + i];
    else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")
      target = in * strides[i];
    if (target >= 0) {
      int64_t total = full - target;
      bool upper = autoPad != "SAME_LOWER";
      pads[i] = upper ? total / 2 : total - total / 2;
      pads[i + s] = total - pads[i];
      out.push_back(target);
    } else {
      out.push_back(full - pads[i] - pads[i + s]);
    }
    if (out.back() < 1) {
      c.error() << "output size in spatial dim " << i << " is not positive";
      return failure();
    }
  }
  r.push_back(c.b.create<ConvTransposeOp>(
      c.loc, RankedTensorType::get(out, xt.getElementType()), c.in(0), c.in(1),
      c.in(2), c.b.getDenseI64ArrayAttr(strides), c.b.getDenseI64ArrayAttr(pads),
      c.b.getDenseI64ArrayAttr(dil), c.b.getI64IntegerAttr(group)));
  return success();
}

template <typename OpT> LogicalResult convertPool(NodeContext &c, Results &r) {
  if (failed(checkSpatial(c)))
    return failure();
  auto kernel = c.intsAttr("kernel_shape");
  if (!kernel) {
    c.error() << "missing kernel_shape";
    return failure();
  }
  auto w = windowAttrs(c, *kernel);
  if (failed(w))
    return failure();
  bool ceil = c.intAttr("ceil_mode", 0);
  // storage_order lays out MaxPool's Indices output (0 row-major, 1
  // column-major), made only where the graph reads it.
  int64_t order = c.intAttr("storage_order", 0);
  auto k = c.b.getDenseI64ArrayAttr(w->kernel);
  auto st = c.b.getDenseI64ArrayAttr(w->strides);
  auto pads = c.b.getDenseI64ArrayAttr(w->pads);
  // Dilations (AveragePool and LpPool since opset 19, 18): only recorded
  // when not all 1, so older graphs print as before.
  auto dil = c.b.getDenseI64ArrayAttr(
      llvm::all_of(w->dilations, [](int64_t d) { return d == 1; })
          ? ArrayRef<int64_t>{}
          : ArrayRef<int64_t>(w->dilations));
  SmallVector<Type> types;
  Operation *op;
  if constexpr (std::is_same_v<OpT, MaxPoolOp>)
    op = c.b.create<MaxPoolOp>(c.loc, c.in(0), k, st, pads,
                               c.b.getDenseI64ArrayAttr(w->dilations),
                               c.b.getBoolAttr(ceil));
  else if constexpr (std::is_same_v<OpT, AvgPoolOp>)
    op = c.b.create<AvgPoolOp>(c.loc, c.in(0), k, st, pads, c.b.getBoolAttr(ceil),
                               c.b.getBoolAttr(c.intAttr("count_include_pad", 0)),
                               dil);
  else
    op = c.b.create<LpPoolOp>(c.loc, c.in(0), k, st, pads,
                              c.b.getI64IntegerAttr(c.intAttr("p", 2)),
                              c.b.getBoolAttr(ceil), dil);
  r.push_back(op->getResult(0));
  if constexpr (std::is_same_v<OpT, MaxPoolOp>) {
    if (c.node.output_size() > 1 && !c.node.output(1).empty()) {
      if (order != 0 && order != 1) {
        c.error() << "storage_order must be 0 or 1, not " << order;
        return failure();
      }
      r.push_back(buildMaxPoolIndices(c.b, c.loc, cast<MaxPoolOp>(op), order == 1,
                                      /*wholeTensor=*/true));
    }
  }
  return success();
}

template <typename OpT> LogicalResult globalPool(NodeContext &c, Results &r) {
  if (failed(checkSpatial(c)))
    return failure();
  r.push_back(c.b.create<OpT>(c.loc, c.in(0)));
  return success();
}

/// Resize (opsets 10-13) and its predecessor Upsample (7-9).
/// ONNX's antialiased linear or cubic resize of one dim from `in` to `out`
/// at `scale` as an [in, out] matrix, the reference's arithmetic: the
/// source coordinate by `coord`, a filter widened by 1 / scale when it
/// shrinks (the cubic's with `a`), normalized, over the window of nearest
/// neighbours in edge-padded coordinates (ties to the smaller index), taps
/// outside the input dropped and the rest renormalized with
/// `excludeOutside`, else clamped to the edge.
std::vector<float> antialiasWeights(int64_t in, int64_t out, double scale, bool cubic, double a,
                                    StringRef coord, bool excludeOutside) {
  double width = scale * double(in), s = std::min(scale, 1.0);
  std::vector<double> m(in * out, 0.0);
  for (int64_t y = 0; y < out; ++y) {
    double x;
    if (coord == "align_corners")
      x = width == 1 ? 0 : y * double(in - 1) / (width - 1);
    else if (coord == "asymmetric")
      x = y / scale;
    else if (coord == "pytorch_half_pixel")
      x = width == 1 ? -0.5 : (y + 0.5) / scale - 0.5;
    else if (coord == "half_pixel_symmetric")
      x = double(in) / 2 * (1 - double(out) / width) + (y + 0.5) / scale - 0.5;
    else // half_pixel
      x = (y + 0.5) / scale - 0.5;
    double ratio = x == std::floor(x) ? 1.0 : x - std::floor(x);
    std::vector<double> w;
    if (cubic) {
      int64_t start = int64_t(std::floor(-2 / s) + 1);
      for (int64_t i = start; i < 2 - start; ++i) {
        double t = std::abs(s * (i - ratio));
        w.push_back(t <= 1 ? (a + 2) * t * t * t - (a + 3) * t * t + 1
                    : t < 2 ? a * t * t * t - 5 * a * t * t + 8 * a * t - 4 * a
                            : 0.0);
      }
    } else {
      int64_t start = int64_t(std::floor(-1 / s) + 1);
      for (int64_t i = start; i < 2 - start; ++i)
        w.push_back(std::clamp(1 - std::abs((i - ratio) * s), 0.0, 1.0));
    }
    double total = 0;
    for (double v : w)
      total += v;
    for (double &v : w)
      v /= total;
    int64_t n = w.size(), pad = (n + 1) / 2;
    double xp = x + pad, p = std::floor(xp), frac = xp - p;
    int64_t offset = n % 2 == 0 ? (frac == 0 ? -(n / 2) : -(n / 2) + 1)
                                : (frac <= 0.5 ? -((n - 1) / 2) : -((n - 1) / 2) + 1);
    int64_t first = int64_t(p) + offset - pad;
    if (excludeOutside) {
      double kept = 0;
      for (int64_t k = 0; k < n; ++k) {
        if (first + k < 0 || first + k >= in)
          w[k] = 0;
        kept += w[k];
      }
      for (double &v : w)
        v /= kept == 0 ? 1 : kept;
    }
    for (int64_t k = 0; k < n; ++k)
      m[std::clamp<int64_t>(first + k, 0, in - 1) * out + y] += w[k];
  }
  return std::vector<float>(m.begin(), m.end());
}

LogicalResult convertResize(NodeContext &c, Results &r) {
  auto t = c.type(0);
  int64_t rank = t.getRank();
  bool upsample = c.node.op_type() == "Upsample";
  std::vector<double> scales, roi;
  std::vector<int64_t> sizes, keepAspectAxes;
  // Inputs: Upsample-7 attr scales; Upsample-9 and Resize-10 (X, scales);
  // Resize-11+ (X, roi, scales, sizes).
  size_t scalesAt = (upsample || c.opset < 11) ? 1 : 2;
  if (upsample && c.opset < 9) {
    if (const auto *a = c.attr("scales"))
      scales.assign(a->floats().begin(), a->floats().end());
  } else if (failed(c.optionalConst(scalesAt, "scales", scales))) {
    return failure();
  }
  if (!upsample && c.opset >= 11 &&
      (failed(c.optionalConst(3, "sizes", sizes)) ||
       failed(c.optionalConst(1, "roi", roi))))
    return failure();
  // Opset 18: scales, sizes and roi may name only the dims in `axes`; the
  // others keep their size (scale 1, roi [0, 1]).
  if (std::optional<std::vector<int64_t>> axesAttr = c.intsAttr("axes")) {
    FailureOr<std::vector<int64_t>> named = c.axes(*axesAttr, rank);
    if (failed(named))
      return failure();
    std::vector<int64_t> axes = *named;
    size_t n = axes.size();
    if ((!scales.empty() && scales.size() != n) ||
        (!sizes.empty() && sizes.size() != n) ||
        (!roi.empty() && roi.size() != 2 * n)) {
      c.error() << "scales, sizes and roi must give one value per axis ("
                << n << " axes)";
      return failure();
    }
    auto spread = [&](auto &values, auto fill, size_t per) {
      std::decay_t<decltype(values)> full;
      for (size_t half = 0; half < per; ++half)
        for (int64_t d = 0; d < rank; ++d)
          full.push_back(fill(d, half));
      for (size_t half = 0; half < per; ++half)
        for (size_t i = 0; i < n; ++i)
          full[half * rank + axes[i]] = values[half * n + i];
      values = std::move(full);
    };
    if (!scales.empty())
      spread(scales, [](int64_t, size_t) { return 1.0; }, 1);
    if (!sizes.empty())
      spread(sizes, [&](int64_t d, size_t) { return t.getDimSize(d); }, 1);
    if (!roi.empty())
      spread(roi, [](int64_t, size_t half) { return double(half); }, 2);
    keepAspectAxes = axes;
  } else {
    for (int64_t d = 0; d < rank; ++d)
      keepAspectAxes.push_back(d);
  }
  std::string policy = c.strAttr("keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller") {
    c.error() << "unknown keep_aspect_ratio_policy '" << policy << "'";
    return failure();
  }
  SmallVector<int64_t> out;
  SmallVector<double> effective;
  if (!sizes.empty() && scales.empty()) {
    if ((int64_t)sizes.size() != rank) {
      c.error() << "expected " << rank << " sizes";
      return failure();
    }
    for (int64_t d = 0; d < rank; ++d) {
      out.push_back(sizes[d]);
      effective.push_back(double(sizes[d]) / double(t.getDimSize(d)));
    }
    if (policy != "stretch") {
      // One scale for the named dims, the smallest (not_larger) or the
      // largest (not_smaller) of theirs; sizes rounded half up.
      double scale = effective[keepAspectAxes.front()];
      for (int64_t d : keepAspectAxes)
        scale = policy == "not_larger" ? std::min(scale, effective[d])
                                       : std::max(scale, effective[d]);
      for (int64_t d : keepAspectAxes) {
        effective[d] = scale;
        out[d] = int64_t(scale * double(t.getDimSize(d)) + 0.5);
      }
    }
  } else {
    if ((int64_t)scales.size() != rank) {
      c.error() << "expected " << rank << " scales (or sizes)";
      return failure();
    }
    for (int64_t d = 0; d < rank; ++d) {
      double size = std::floor(t.getDimSize(d) * scales[d]);
      if (!(size >= 0 && size < 0x1p62)) {
        c.error() << "scale " << scales[d] << " of dim " << d
                  << " gives no valid size";
        return failure();
      }
      out.push_back((int64_t)size);
      effective.push_back(scales[d]);
    }
  }
  std::string mode = c.strAttr("mode", "nearest");
  if (mode == "bilinear" || mode == "trilinear")
    mode = "linear";
  std::string coord = c.strAttr("coordinate_transformation_mode", "half_pixel");
  std::string nearest = c.strAttr("nearest_mode", "round_prefer_floor");
  if (upsample || c.opset < 11) {
    coord = "asymmetric";
    nearest = "floor";
  }
  if (mode != "nearest" && mode != "linear" && mode != "cubic") {
    c.unsupported() << "mode '" << mode << "'";
    return failure();
  }
  // Opset 18: antialias widens a linear or cubic filter when it shrinks:
  // per resized dim a product with the filter's constant matrix.
  if (c.intAttr("antialias", 0) && mode != "nearest" &&
      llvm::any_of(effective, [](double s) { return s < 1; })) {
    if (coord == "tf_crop_and_resize") {
      c.unsupported() << "antialias with tf_crop_and_resize";
      return failure();
    }
    if (!isa<FloatType>(t.getElementType())) {
      c.unsupported() << "antialiased resizing of " << t;
      return failure();
    }
    Value v = c.in(0);
    for (int64_t d = 0; d < rank; ++d) {
      if (std::abs(effective[d] - 1.0) < 1e-9 && out[d] == t.getDimSize(d))
        continue;
      if (out[d] < 1 || t.getDimSize(d) < 1) {
        c.error() << "resizing dim " << d << " to " << out[d];
        return failure();
      }
      v = buildMixAlongDim(c.b, c.loc, v, d,
                           antialiasWeights(t.getDimSize(d), out[d], effective[d], mode == "cubic",
                                            c.floatAttr("cubic_coeff_a", -0.75), coord,
                                            c.intAttr("exclude_outside", 0)));
    }
    r.push_back(v);
    return success();
  }
  if (coord == "tf_crop_and_resize" && (int64_t)roi.size() != 2 * rank) {
    c.error() << "tf_crop_and_resize needs " << 2 * rank << " roi values";
    return failure();
  }
  auto op = c.b.create<ResizeOp>(
      c.loc, RankedTensorType::get(out, t.getElementType()), c.in(0),
      c.b.getStringAttr(mode), c.b.getStringAttr(coord),
      c.b.getStringAttr(nearest), f64(c, c.floatAttr("cubic_coeff_a", -0.75)),
      c.b.getBoolAttr(c.intAttr("exclude_outside", 0)),
      f64(c, c.floatAttr("extrapolation_value", 0.0)),
      c.b.getDenseF64ArrayAttr(effective),
      coord == "tf_crop_and_resize" ? c.b.getDenseF64ArrayAttr(roi)
                                    : DenseF64ArrayAttr());
  r.push_back(op);
  return success();
}

//===----------------------------------------------------------------------===//
// Normalizations
//===----------------------------------------------------------------------===//

LogicalResult checkChannels(NodeContext &c, ArrayRef<size_t> params) {
  if (c.type(0).getRank() < 2) {
    c.error() << "input must have rank >= 2";
    return failure();
  }
  for (size_t i : params) {
    auto t = c.type(i);
    if (t.getRank() != 1 || t.getDimSize(0) != c.type(0).getDimSize(1)) {
      c.error() << "input " << i << " must have " << c.type(0).getDimSize(1)
                << " elements, got " << c.in(i).getType();
      return failure();
    }
  }
  return success();
}

LogicalResult convertBatchNorm(NodeContext &c, Results &r) {
  // The opset-1 optimisation hint changes nothing.
  c.ignoreAttrs({"consumed_inputs"});
  if (c.intAttr("is_test", 1) == 0) {
    c.unsupported() << "is_test=0 (opsets before 7's training form)";
    return failure();
  }
  if (c.intAttr("spatial", 1) != 1) {
    c.unsupported() << "spatial=0";
    return failure();
  }
  if (failed(checkChannels(c, {1, 2, 3, 4})))
    return failure();
  FloatAttr eps = f64(c, c.floatAttr("epsilon", 1e-5));
  if (c.intAttr("training_mode", 0) == 0) {
    c.ignoreAttrs({"momentum"});
    r.push_back(c.b.create<BatchNormOp>(c.loc, c.in(0), c.in(1), c.in(2), c.in(3), c.in(4),
                                        eps));
    return success();
  }
  // Training mode (opset 14): normalized by the batch's own mean and
  // (population) variance over every dim but the channels, and the running
  // statistics updated as input * momentum + batch * (1 - momentum).
  auto xt = c.type(0);
  SmallVector<int64_t> axes{0};
  for (int64_t d = 2; d < xt.getRank(); ++d)
    axes.push_back(d);
  auto axesAttr = c.b.getDenseI64ArrayAttr(axes);
  Value mean = c.b.create<ReduceMeanOp>(c.loc, c.in(0), axesAttr, c.b.getBoolAttr(true));
  Value centered = c.b.create<SubOp>(c.loc, c.in(0), mean);
  Value var = c.b.create<ReduceMeanOp>(c.loc, c.b.create<MulOp>(c.loc, centered, centered),
                                       axesAttr, c.b.getBoolAttr(true));
  int64_t channels = xt.getDimSize(1);
  Value m = c.reshape(mean, {channels}), v = c.reshape(var, {channels});
  r.push_back(c.b.create<BatchNormOp>(c.loc, c.in(0), c.in(1), c.in(2), m, v, eps));
  Type elt = c.type(3).getElementType();
  double momentum = c.floatAttr("momentum", 0.9);
  auto running = [&](Value input, Value batch) -> Value {
    return c.b.create<AddOp>(
        c.loc, c.b.create<MulOp>(c.loc, input, c.scalar(elt, momentum)),
        c.b.create<MulOp>(c.loc, c.cast(batch, elt), c.scalar(elt, 1 - momentum)));
  };
  r.push_back(running(c.in(3), m));
  r.push_back(running(c.in(4), v));
  return success();
}

LogicalResult convertInstanceNorm(NodeContext &c, Results &r) {
  if (failed(checkChannels(c, {1, 2})))
    return failure();
  r.push_back(c.b.create<InstanceNormOp>(c.loc, c.in(0), c.in(1), c.in(2),
                                         f64(c, c.floatAttr("epsilon", 1e-5))));
  return success();
}

LogicalResult convertLayerNorm(NodeContext &c, Results &r) {
  // The statistics in float (stash_type 1), as dfa computes them.
  if (int64_t stash = c.intAttr("stash_type", 1); stash != 1) {
    c.unsupported() << "stash_type " << stash << " (only 1, float)";
    return failure();
  }
  auto axis = c.axis(c.intAttr("axis", -1), c.type(0).getRank());
  if (failed(axis))
    return failure();
  ArrayRef<int64_t> norm = c.type(0).getShape().drop_front(*axis);
  for (size_t i : {1, 2})
    if (c.has(i) && failed(broadcastShapes(c.type(i).getShape(), norm))) {
      c.error() << "input " << i << " " << c.in(i).getType()
                << " does not broadcast to the normalized dims";
      return failure();
    }
  double eps = c.floatAttr("epsilon", 1e-5);
  r.push_back(c.b.create<LayerNormOp>(c.loc, c.in(0), c.in(1), c.in(2),
                                      c.b.getI64IntegerAttr(*axis), f64(c, eps)));
  // The optional Mean and InvStdDev outputs, in the stash type (float32).
  bool wantStats = (c.node.output_size() > 1 && !c.node.output(1).empty()) ||
                   (c.node.output_size() > 2 && !c.node.output(2).empty());
  if (!wantStats)
    return success();
  Type stash = c.b.getF32Type();
  Value x = c.cast(c.in(0), stash);
  SmallVector<int64_t> axes;
  for (int64_t d = *axis; d < c.type(0).getRank(); ++d)
    axes.push_back(d);
  auto m = c.moments(x, axes);
  Value std = c.b.create<SqrtOp>(
      c.loc, c.b.create<AddOp>(c.loc, m.variance, c.scalar(stash, eps)));
  r.push_back(m.mean);
  r.push_back(c.b.create<ReciprocalOp>(c.loc, std));
  return success();
}

LogicalResult convertLpNorm(NodeContext &c, Results &r) {
  auto axis = c.axis(c.intAttr("axis", -1), c.type(0).getRank());
  int64_t p = c.intAttr("p", 2);
  if (failed(axis))
    return failure();
  if (p != 1 && p != 2) {
    c.error() << "p must be 1 or 2, got " << p;
    return failure();
  }
  r.push_back(c.b.create<LpNormOp>(c.loc, c.in(0), c.b.getI64IntegerAttr(*axis),
                                   c.b.getI64IntegerAttr(p)));
  return success();
}

/// Softmax, LogSoftmax, Hardmax. Before opset 13 they flatten the input to
/// 2-D at `axis` and normalize each row; from 13 on, along `axis` alone.
template <typename OpT> LogicalResult convertSoftmax(NodeContext &c, Results &r) {
  auto t = c.type(0);
  auto axis = c.axis(c.intAttr("axis", c.opset < 13 ? 1 : -1), t.getRank());
  if (failed(axis))
    return failure();
  if (c.opset >= 13 || *axis == t.getRank() - 1 || t.getRank() == 0) {
    r.push_back(c.b.create<OpT>(c.loc, c.in(0),
                                c.b.getI64IntegerAttr(t.getRank() ? *axis : 0)));
    return success();
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < t.getRank(); ++d)
    (d < *axis ? outer : inner) *= t.getDimSize(d);
  Value flat = c.reshape(c.in(0), {outer, inner});
  Value y = c.b.create<OpT>(c.loc, flat, c.b.getI64IntegerAttr(1));
  r.push_back(c.reshape(y, t.getShape()));
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

template <typename OpT> LogicalResult convertReduce(NodeContext &c, Results &r) {
  int64_t rank = c.type(0).getRank();
  bool keepdims = c.intAttr("keepdims", 1);
  bool noop = c.intAttr("noop_with_empty_axes", 0);
  std::vector<int64_t> axes;
  bool axesAsInput = c.opset >= 18 ||
                     (c.opset >= 13 && c.node.op_type() == "ReduceSum");
  if (axesAsInput && c.has(1)) {
    auto v = c.constInts(1, "axes");
    if (failed(v))
      return failure();
    axes = *v;
  } else if (auto a = c.intsAttr("axes")) {
    axes = *a;
  }
  if (axes.empty()) {
    if (noop) {
      r.push_back(c.in(0));
      return success();
    }
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  SmallVector<int64_t> norm;
  for (int64_t a : axes) {
    auto n = c.axis(a, rank);
    if (failed(n))
      return failure();
    norm.push_back(*n);
  }
  llvm::sort(norm);
  norm.erase(std::unique(norm.begin(), norm.end()), norm.end());
  r.push_back(c.b.create<OpT>(c.loc, c.in(0), c.b.getDenseI64ArrayAttr(norm),
                              c.b.getBoolAttr(keepdims)));
  return success();
}

template <typename OpT> LogicalResult convertArg(NodeContext &c, Results &r) {
  auto axis = c.axis(c.intAttr("axis", 0), c.type(0).getRank());
  if (failed(axis))
    return failure();
  r.push_back(c.b.create<OpT>(c.loc, c.in(0), c.b.getI64IntegerAttr(*axis),
                              c.b.getBoolAttr(c.intAttr("keepdims", 1)),
                              c.b.getBoolAttr(c.intAttr("select_last_index", 0))));
  return success();
}
} // namespace

FailureOr<Value> dfa::onnximport::convolution(NodeContext &c, Value x, Value weight,
                                              Value bias) {
  if (failed(checkSpatial(c)))
    return failure();
  auto wt = typeOf(weight);
  if (wt.getRank() != c.type(0).getRank()) {
    c.error() << "weight rank differs from input rank";
    return failure();
  }
  auto w = windowAttrs(c, wt.getShape().drop_front(2));
  if (failed(w))
    return failure();
  int64_t group = c.intAttr("group", 1);
  if (group < 1 || c.type(0).getDimSize(1) != wt.getDimSize(1) * group ||
      wt.getDimSize(0) % group != 0) {
    c.error() << "input channels " << c.type(0).getDimSize(1)
              << " do not match weight " << weight.getType() << " with group "
              << group;
    return failure();
  }
  return Value(c.b.create<ConvOp>(
      c.loc, x, weight, bias, c.b.getDenseI64ArrayAttr(w->strides),
      c.b.getDenseI64ArrayAttr(w->pads), c.b.getDenseI64ArrayAttr(w->dilations),
      c.b.getI64IntegerAttr(group)));
}

const llvm::StringMap<Converter> &dfa::onnximport::converters() {
  static const llvm::StringMap<Converter> table = [] {
    llvm::StringMap<Converter> t;
    // Elementwise unary.
    t["Abs"] = unary<AbsOp>;
    t["Acos"] = unary<AcosOp>;
    t["Acosh"] = unary<AcoshOp>;
    t["Asin"] = unary<AsinOp>;
    t["Asinh"] = unary<AsinhOp>;
    t["Atan"] = unary<AtanOp>;
    t["Atanh"] = unary<AtanhOp>;
    t["Ceil"] = unary<CeilOp>;
    t["Cos"] = unary<CosOp>;
    t["Cosh"] = unary<CoshOp>;
    t["Erf"] = unary<ErfOp>;
    t["Exp"] = unary<ExpOp>;
    t["Floor"] = unary<FloorOp>;
    t["HardSwish"] = unary<HardSwishOp>;
    t["Log"] = unary<LogOp>;
    t["Mish"] = unary<MishOp>;
    t["Neg"] = unary<NegOp>;
    t["Not"] = unary<NotOp>;
    t["Reciprocal"] = unary<ReciprocalOp>;
    t["Relu"] = unary<ReluOp>;
    t["Round"] = unary<RoundOp>;
    t["Sigmoid"] = unary<SigmoidOp>;
    t["Sign"] = unary<SignOp>;
    t["Sin"] = unary<SinOp>;
    t["Sinh"] = unary<SinhOp>;
    t["Softplus"] = unary<SoftplusOp>;
    t["Softsign"] = unary<SoftsignOp>;
    t["Sqrt"] = unary<SqrtOp>;
    t["Tan"] = unary<TanOp>;
    t["Tanh"] = unary<TanhOp>;
    t["Celu"] = convertCelu;
    t["Clip"] = convertClip;
    t["Elu"] = convertElu;
    t["Gelu"] = convertGelu;
    t["HardSigmoid"] = convertHardSigmoid;
    t["LeakyRelu"] = convertLeakyRelu;
    t["Selu"] = convertSelu;
    t["Shrink"] = convertShrink;
    t["ThresholdedRelu"] = convertThresholdedRelu;
    t["IsNaN"] = convertIsNaN;
    t["IsInf"] = convertIsInf;
    t["Cast"] = convertCast;
    t["CastLike"] = convertCastLike;
    t["BitCast"] = convertBitCast;
    // Elementwise binary and variadic.
    t["Add"] = binary<AddOp>;
    t["Sub"] = binary<SubOp>;
    t["Mul"] = binary<MulOp>;
    t["Div"] = binary<DivOp>;
    t["Pow"] = convertPow;
    t["Mod"] = convertMod;
    t["PRelu"] = binary<PReluOp>;
    t["And"] = binary<AndOp>;
    t["Or"] = binary<OrOp>;
    t["Xor"] = binary<XorOp>;
    t["BitShift"] = convertBitShift;
    t["BitwiseAnd"] = convertBitwise;
    t["BitwiseOr"] = convertBitwise;
    t["BitwiseXor"] = convertBitwise;
    t["BitwiseNot"] = convertBitwise;
    t["Equal"] = binary<EqualOp>;
    t["Less"] = binary<LessOp>;
    t["LessOrEqual"] = binary<LessEqualOp>;
    t["Greater"] = binary<GreaterOp>;
    t["GreaterOrEqual"] = binary<GreaterEqualOp>;
    t["Sum"] = variadic<AddOp>;
    t["Max"] = variadic<MaxOp>;
    t["Min"] = variadic<MinOp>;
    t["Mean"] = convertMean;
    t["Where"] = convertWhere;
    // Contractions and windows.
    t["MatMul"] = convertMatMul;
    t["Gemm"] = convertGemm;
    t["Conv"] = convertConv;
    t["ConvTranspose"] = convertConvTranspose;
    t["MaxPool"] = convertPool<MaxPoolOp>;
    t["AveragePool"] = convertPool<AvgPoolOp>;
    t["LpPool"] = convertPool<LpPoolOp>;
    t["GlobalAveragePool"] = globalPool<GlobalAvgPoolOp>;
    t["GlobalMaxPool"] = globalPool<GlobalMaxPoolOp>;
    t["Resize"] = convertResize;
    t["Upsample"] = convertResize;
    // Normalizations.
    t["BatchNormalization"] = convertBatchNorm;
    t["InstanceNormalization"] = convertInstanceNorm;
    t["LayerNormalization"] = convertLayerNorm;
    t["LpNormalization"] = convertLpNorm;
    t["Softmax"] = convertSoftmax<SoftmaxOp>;
    t["LogSoftmax"] = convertSoftmax<LogSoftmaxOp>;
    t["Hardmax"] = convertSoftmax<HardmaxOp>;
    // Reductions.
    t["ReduceSum"] = convertReduce<ReduceSumOp>;
    t["ReduceMean"] = convertReduce<ReduceMeanOp>;
    t["ReduceMax"] = convertReduce<ReduceMaxOp>;
    t["ReduceMin"] = convertReduce<ReduceMinOp>;
    t["ReduceProd"] = convertReduce<ReduceProdOp>;
    t["ReduceL1"] = convertReduce<ReduceL1Op>;
    t["ReduceL2"] = convertReduce<ReduceL2Op>;
    t["ReduceSumSquare"] = convertReduce<ReduceSumSquareOp>;
    t["ReduceLogSum"] = convertReduce<ReduceLogSumOp>;
    t["ReduceLogSumExp"] = convertReduce<ReduceLogSumExpOp>;
    t["ArgMax"] = convertArg<ArgMaxOp>;
    t["ArgMin"] = convertArg<ArgMinOp>;
    addShapeConverters(t);
    addCompositeConverters(t);
    addEinsumConverter(t);
    addTransformerConverters(t);
    addQuantConverters(t);
    addRecurrentConverters(t);
    addSignalConverters(t);
    addImageConverters(t);
    return t;
  }();
  return table;
}
