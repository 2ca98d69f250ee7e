//===- ONNXQuantOps.cpp - ONNX's linear quantization ops ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear and QLinearMatMul,
/// imported as the arithmetic the spec defines them by: a scale and zero
/// point per tensor, per axis or per block (opset 21). To an integer type
/// (int2 to int16, signed or not) the quotient rounds half to even and
/// saturates to the type; to an 8-bit float it converts to nearest even,
/// clipped to the format's largest finite value when `saturate` (the
/// default). FLOAT4E2M1 has no MLIR 19 type and is refused.
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Reference/Evaluator.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::onnximport;

namespace {
/// The range of a quantized integer type, or nullopt when `t` is not one.
std::optional<std::pair<double, double>> quantRange(Type t) {
  auto i = dyn_cast<IntegerType>(t);
  if (!i || i.getWidth() == 1 || i.getWidth() > 16)
    return std::nullopt;
  double w = i.getWidth();
  if (i.isUnsigned())
    return std::make_pair(0.0, std::exp2(w) - 1);
  return std::make_pair(-std::exp2(w - 1), std::exp2(w - 1) - 1);
}

/// A scale or zero point, made to broadcast against `shape`: a scalar (or
/// one element) as it is, a 1-d tensor along `axis`, a blocked one (opset
/// 21) repeated `block` times along `axis` and cut to the dim.
FailureOr<Value> broadcastParam(NodeContext &c, Value p, ArrayRef<int64_t> shape,
                                int64_t rawAxis, int64_t block) {
  auto pt = typeOf(p);
  int64_t rank = int64_t(shape.size());
  if (pt.getNumElements() == 1)
    return c.reshape(p, {});
  // The axis matters only to a per-axis or blocked parameter.
  FailureOr<int64_t> a = c.axis(rawAxis, rank);
  if (failed(a))
    return failure();
  int64_t axis = *a;
  if (block <= 0) {
    if (pt.getRank() != 1 || pt.getDimSize(0) != shape[axis]) {
      c.error() << "a per-axis scale or zero point " << p.getType()
                << " must hold one value per element of dim " << axis;
      return failure();
    }
    SmallVector<int64_t> dims(rank, 1);
    dims[axis] = shape[axis];
    return c.reshape(p, dims);
  }
  int64_t blocks = (shape[axis] + block - 1) / block;
  if (pt.getRank() != rank || pt.getDimSize(axis) != blocks) {
    c.error() << "a blocked scale or zero point " << p.getType() << " must have "
              << blocks << " blocks of " << block << " along dim " << axis;
    return failure();
  }
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && pt.getDimSize(d) != shape[d]) {
      c.error() << "a blocked scale or zero point " << p.getType()
                << " must match the input off the axis";
      return failure();
    }
  SmallVector<int64_t> split(pt.getShape()), expanded(pt.getShape());
  split.insert(split.begin() + axis + 1, 1);
  expanded.insert(expanded.begin() + axis + 1, block);
  Value e = c.b.create<ExpandOp>(
      c.loc, RankedTensorType::get(expanded, pt.getElementType()), c.reshape(p, split));
  SmallVector<int64_t> full(pt.getShape());
  full[axis] = blocks * block;
  e = c.reshape(e, full);
  if (full[axis] == shape[axis])
    return e;
  SmallVector<int64_t> starts(rank, 0), steps(rank, 1), cut(full);
  cut[axis] = shape[axis];
  return Value(c.b.create<SliceOp>(c.loc, RankedTensorType::get(cut, pt.getElementType()),
                                   e, c.b.getDenseI64ArrayAttr(starts),
                                   c.b.getDenseI64ArrayAttr(steps)));
}

/// round(v) + zero point, saturated to `range`, as `to` (v is float).
Value saturate(NodeContext &c, Value v, Value zeroPoint,
               std::pair<double, double> range, Type to) {
  Type f32 = c.b.getF32Type();
  Value r = c.cast(c.b.create<RoundOp>(c.loc, v), f32);
  if (zeroPoint)
    r = c.b.create<AddOp>(c.loc, r, c.cast(zeroPoint, f32));
  r = c.b.create<MaxOp>(c.loc, r, c.scalar(f32, range.first));
  r = c.b.create<MinOp>(c.loc, r, c.scalar(f32, range.second));
  return c.cast(r, to);
}

LogicalResult convertQuantizeLinear(NodeContext &c, Results &r) {
  auto xt = c.type(0);
  int64_t axis = c.intAttr("axis", 1);
  int64_t block = c.intAttr("block_size", 0);
  Type to = c.has(2) ? c.type(2).getElementType() : Type();
  if (const auto *od = c.attr("output_dtype"); od && od->i() != 0) {
    Type t = elementType(int(od->i()), c.ctx());
    if (!t) {
      c.unsupported() << "quantizing to " << onnxTypeName(int(od->i()))
                      << " (dfa quantizes to 2- to 16-bit integers and 8-, 6- and 4-bit floats)";
      return failure();
    }
    if (to && t != to) {
      c.error() << "output_dtype does not match the zero point's type";
      return failure();
    }
    to = t;
  }
  if (!to)
    to = c.b.getIntegerType(8, /*isSigned=*/false);
  std::optional<std::pair<double, double>> range = quantRange(to);
  // A float format: FP8, FP6 or FP4 (not E8M0, which is a scale).
  std::optional<ref::DType> fq = ref::dtypeOf(to);
  if (fq && (!ref::isMinifloat(*fq) || *fq == ref::DType::F8E8M0FNU))
    fq.reset();
  if (!range && !fq) {
    c.unsupported() << "quantizing to " << to
                    << " (dfa quantizes to 2- to 16-bit integers and 8-, 6- and 4-bit floats)";
    return failure();
  }
  // saturate governs the FP8 outputs only: FP6 and FP4 always saturate.
  bool saturating = c.intAttr("saturate", 1) && fq && ref::isFloat8(*fq);
  if (!fq)
    c.ignoreAttrs({"saturate"});
  FailureOr<Value> scale = broadcastParam(c, c.in(1), xt.getShape(), axis, block);
  if (failed(scale))
    return failure();
  Value zp;
  if (c.has(2)) {
    FailureOr<Value> z = broadcastParam(c, c.in(2), xt.getShape(), axis, block);
    if (failed(z))
      return failure();
    zp = *z;
  }
  // The division's type: `precision` when given, else numpy's promotion of
  // x and the scale (the wider float; f32 for integers).
  Type xe = xt.getElementType(), se = typeOf(*scale).getElementType(), div;
  if (const auto *p = c.attr("precision"); p && p->i() != 0) {
    div = elementType(int(p->i()), c.ctx());
    if (!div || !isa<FloatType>(div)) {
      c.error() << "precision must name a float type";
      return failure();
    }
  } else if (isa<FloatType>(xe) && isa<FloatType>(se)) {
    div = xe.getIntOrFloatBitWidth() >= se.getIntOrFloatBitWidth() ? xe : se;
  } else {
    div = isa<FloatType>(se) && se.getIntOrFloatBitWidth() >= 32 ? se
          : isa<FloatType>(xe) && xe.getIntOrFloatBitWidth() >= 32 ? xe
                                                                   : c.b.getF32Type();
  }
  Value x = c.cast(c.in(0), div), s = c.cast(*scale, div);
  Value q = c.b.create<DivOp>(c.loc, x, s);
  if (fq) {
    // x / scale + zp, converted to nearest even (no rounding to integers).
    Type f32 = c.b.getF32Type();
    q = c.cast(q, f32);
    if (zp)
      q = c.b.create<AddOp>(c.loc, q, c.cast(zp, f32));
    if (saturating) {
      double max = ref::minifloatMax(*fq);
      q = c.b.create<ClipOp>(c.loc, q, c.b.getF64FloatAttr(-max), c.b.getF64FloatAttr(max));
    }
    r.push_back(c.cast(q, to));
    return success();
  }
  r.push_back(saturate(c, q, zp, *range, to));
  return success();
}

LogicalResult convertDequantizeLinear(NodeContext &c, Results &r) {
  auto xt = c.type(0);
  int64_t axis = c.intAttr("axis", 1);
  Type xe = xt.getElementType();
  std::optional<ref::DType> xd = ref::dtypeOf(xe);
  bool fq = xd && ref::isMinifloat(*xd) && *xd != ref::DType::F8E8M0FNU;
  if (!quantRange(xe) && !xe.isInteger(32) && !fq) {
    c.unsupported() << "dequantizing " << xe
                    << " (dfa dequantizes 2- to 32-bit integers and 8-, 6- and 4-bit floats)";
    return failure();
  }
  int64_t block = c.intAttr("block_size", 0);
  Type out = c.type(1).getElementType();
  if (const auto *od = c.attr("output_dtype"); od && od->i() != 0)
    out = elementType(int(od->i()), c.ctx());
  if (!out || !isa<FloatType>(out)) {
    c.error() << "output_dtype must name a float type";
    return failure();
  }
  FailureOr<Value> scale = broadcastParam(c, c.in(1), xt.getShape(), axis, block);
  if (failed(scale))
    return failure();
  Type f32 = c.b.getF32Type();
  Value dx = c.cast(c.in(0), f32);
  if (c.has(2)) {
    FailureOr<Value> z = broadcastParam(c, c.in(2), xt.getShape(), axis, block);
    if (failed(z))
      return failure();
    dx = c.b.create<SubOp>(c.loc, dx, c.cast(*z, f32));
  }
  r.push_back(c.cast(c.b.create<MulOp>(c.loc, dx, c.cast(*scale, f32)), out));
  return success();
}

/// y = saturate(round(x / scale) + zp) to uint8, with scale and zp taken
/// from x's range (extended to hold 0).
LogicalResult convertDynamicQuantizeLinear(NodeContext &c, Results &r) {
  auto xt = c.type(0);
  Type f32 = c.b.getF32Type(), u8 = c.b.getIntegerType(8, /*isSigned=*/false);
  if (!xt.getElementType().isF32()) {
    c.error() << "x must be float32";
    return failure();
  }
  SmallVector<int64_t> all;
  for (int64_t d = 0; d < xt.getRank(); ++d)
    all.push_back(d);
  auto axes = c.b.getDenseI64ArrayAttr(all);
  auto noKeep = c.b.getBoolAttr(false);
  Value zero = c.scalar(f32, 0);
  Value hi = c.b.create<MaxOp>(c.loc, c.b.create<ReduceMaxOp>(c.loc, c.in(0), axes, noKeep), zero);
  Value lo = c.b.create<MinOp>(c.loc, c.b.create<ReduceMinOp>(c.loc, c.in(0), axes, noKeep), zero);
  Value span = c.b.create<SubOp>(c.loc, hi, lo);
  // An all-zero x gets scale 1/255 (span 1), as the reference does.
  span = c.b.create<WhereOp>(c.loc, c.b.create<EqualOp>(c.loc, span, zero),
                             c.scalar(f32, 1), span);
  Value scale = c.b.create<DivOp>(c.loc, span, c.scalar(f32, 255));
  Value zpf = c.b.create<SubOp>(c.loc, zero, c.b.create<DivOp>(c.loc, lo, scale));
  zpf = c.b.create<MinOp>(c.loc, c.b.create<MaxOp>(c.loc, zpf, zero), c.scalar(f32, 255));
  Value zp = c.b.create<RoundOp>(c.loc, zpf);
  r.push_back(saturate(c, c.b.create<DivOp>(c.loc, c.in(0), scale), zp, {0, 255}, u8));
  r.push_back(scale);
  r.push_back(c.cast(zp, u8));
  return success();
}

/// The integer product of two quantized matrices, requantized:
/// saturate(round((a - a_zp)(b - b_zp) * a_scale * b_scale / y_scale) + y_zp).
LogicalResult convertQLinearMatMul(NodeContext &c, Results &r) {
  Type f64 = c.b.getF64Type();
  Type to = c.has(7) ? c.type(7).getElementType() : c.type(0).getElementType();
  std::optional<std::pair<double, double>> range = quantRange(to);
  if (!range || !quantRange(c.type(0).getElementType()) ||
      !quantRange(c.type(3).getElementType())) {
    c.unsupported() << "QLinearMatMul on " << c.type(0).getElementType()
                    << " (dfa takes 8- and 16-bit integers)";
    return failure();
  }
  for (int i : {1, 2, 4, 5, 6, 7})
    if (c.has(i) && typeOf(c.in(i)).getNumElements() != 1) {
      c.unsupported() << "per-axis scales or zero points";
      return failure();
    }
  // Exact in f64: products of 16-bit integers summed well below 2^53.
  auto centred = [&](int x, int zp) -> Value {
    Value v = c.cast(c.in(x), f64);
    if (c.has(zp))
      v = c.b.create<SubOp>(c.loc, v, c.cast(c.reshape(c.in(zp), {}), f64));
    return v;
  };
  Value acc = c.b.create<MatMulOp>(c.loc, centred(0, 2), centred(3, 5));
  // The scale product in the scales' own type, as the spec's reference.
  Value s = c.b.create<DivOp>(
      c.loc,
      c.b.create<MulOp>(c.loc, c.reshape(c.in(1), {}),
                        c.cast(c.reshape(c.in(4), {}), c.type(1).getElementType())),
      c.cast(c.reshape(c.in(6), {}), c.type(1).getElementType()));
  Value d = c.b.create<MulOp>(c.loc, acc, c.cast(s, f64));
  Value zp = c.has(7) ? c.reshape(c.in(7), {}) : Value();
  if (zp)
    d = c.b.create<AddOp>(c.loc, d, c.cast(zp, f64));
  Value rounded = c.b.create<RoundOp>(c.loc, d);
  rounded = c.b.create<MaxOp>(c.loc, rounded, c.scalar(f64, range->first));
  rounded = c.b.create<MinOp>(c.loc, rounded, c.scalar(f64, range->second));
  r.push_back(c.cast(rounded, to));
  return success();
}
} // namespace

void dfa::onnximport::addQuantConverters(llvm::StringMap<Converter> &t) {
  t["QuantizeLinear"] = convertQuantizeLinear;
  t["DequantizeLinear"] = convertDequantizeLinear;
  t["DynamicQuantizeLinear"] = convertDynamicQuantizeLinear;
  t["QLinearMatMul"] = convertQLinearMatMul;
}
