//===- ONNXQuantOps.cpp - ONNX's linear quantization ops ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearMatMul,
/// MatMulInteger, ConvInteger and QLinearConv, imported as the arithmetic
/// the spec defines them by: a scale and zero point per tensor, per axis or
/// per block (opset 21). The integer products (onnxruntime's
/// quantize_dynamic writes MatMulInteger, its QOperator format
/// QLinearConv) multiply their operands less their zero points in f64,
/// exact for 16-bit integers summed well below 2^53, which is the form
/// graph::arithmeticType reads as a product in the narrow type. To an integer type
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

/// An integer operand `x` less its zero point `zp` (optional), in f64.
/// A zero point of one element applies to all of x; a 1-d one applies
/// along x's dim `dim` (none when dim is -1). Exact in f64: products of
/// 16-bit integers summed well below 2^53. `what` names the pair in errors.
FailureOr<Value> centred(NodeContext &c, Value x, Value zp, int64_t dim,
                         StringRef what) {
  Type f64 = c.b.getF64Type();
  auto xt = typeOf(x);
  if (!quantRange(xt.getElementType())) {
    c.unsupported() << what << " of type " << xt.getElementType()
                    << " (dfa takes 2- to 16-bit integers)";
    return failure();
  }
  Value v = c.cast(x, f64);
  if (!zp)
    return v;
  auto zt = typeOf(zp);
  if (zt.getElementType() != xt.getElementType()) {
    c.error() << "the zero point of " << what << " is " << zt.getElementType()
              << ", not " << xt.getElementType();
    return failure();
  }
  if (zt.getNumElements() == 1)
    return Value(c.b.create<SubOp>(c.loc, v, c.cast(c.reshape(zp, {}), f64)));
  // Of rank 2 or more: numpy's broadcasting against x, as the spec's
  // reference subtracts it ([..., M, 1] per row, [1, N] per column).
  if (zt.getRank() >= 2 && zt.getRank() <= xt.getRank()) {
    bool fits = true;
    for (int64_t i = 1; i <= zt.getRank(); ++i) {
      int64_t zd = zt.getDimSize(zt.getRank() - i), xd = xt.getDimSize(xt.getRank() - i);
      fits &= zd == 1 || zd == xd;
    }
    if (fits)
      return Value(c.b.create<SubOp>(c.loc, v, c.cast(zp, f64)));
  }
  if (zt.getRank() != 1 || dim < 0 || dim >= xt.getRank() ||
      zt.getDimSize(0) != xt.getDimSize(dim)) {
    c.error() << "the zero point of " << what << " " << zp.getType()
              << " must be a scalar, broadcast to " << x.getType()
              << (dim >= 0 && dim < xt.getRank()
                      ? ", or hold one value per element of dim " + std::to_string(dim)
                      : std::string());
    return failure();
  }
  SmallVector<int64_t> dims(xt.getRank() - dim, 1);
  dims[0] = xt.getDimSize(dim);
  return Value(c.b.create<SubOp>(c.loc, v, c.cast(c.reshape(zp, dims), f64)));
}

/// saturate(round(acc * x_scale * w_scale / y_scale) + y_zp) as `to`:
/// the scale product in the scales' own type, as the spec's reference
/// computes it, then in f64 with the integer accumulator `acc`. `wScale`
/// is already shaped to broadcast against acc.
Value requantize(NodeContext &c, Value acc, Value xScale, Value wScale, Value yScale,
                 Value yZeroPoint, std::pair<double, double> range, Type to) {
  Type f64 = c.b.getF64Type();
  Type st = typeOf(xScale).getElementType();
  Value s = c.b.create<DivOp>(
      c.loc, c.b.create<MulOp>(c.loc, c.reshape(xScale, {}), c.cast(wScale, st)),
      c.cast(c.reshape(yScale, {}), st));
  Value d = c.b.create<MulOp>(c.loc, acc, c.cast(s, f64));
  if (yZeroPoint)
    d = c.b.create<AddOp>(c.loc, d, c.cast(c.reshape(yZeroPoint, {}), f64));
  Value rounded = c.b.create<RoundOp>(c.loc, d);
  rounded = c.b.create<MaxOp>(c.loc, rounded, c.scalar(f64, range.first));
  rounded = c.b.create<MinOp>(c.loc, rounded, c.scalar(f64, range.second));
  return c.cast(rounded, to);
}

/// The integer product of two quantized matrices, requantized:
/// saturate(round((a - a_zp)(b - b_zp) * a_scale * b_scale / y_scale) + y_zp).
LogicalResult convertQLinearMatMul(NodeContext &c, Results &r) {
  Type to = c.has(7) ? c.type(7).getElementType() : c.type(0).getElementType();
  std::optional<std::pair<double, double>> range = quantRange(to);
  if (!range) {
    c.unsupported() << "QLinearMatMul to " << to << " (dfa takes 2- to 16-bit integers)";
    return failure();
  }
  for (int i : {1, 2, 4, 5, 6, 7})
    if (c.has(i) && typeOf(c.in(i)).getNumElements() != 1) {
      c.unsupported() << "per-axis scales or zero points";
      return failure();
    }
  FailureOr<Value> a = centred(c, c.in(0), c.in(2), -1, "a");
  if (failed(a))
    return failure();
  FailureOr<Value> b = centred(c, c.in(3), c.in(5), -1, "b");
  if (failed(b))
    return failure();
  Value acc = c.b.create<MatMulOp>(c.loc, *a, *b);
  r.push_back(requantize(c, acc, c.in(1), c.reshape(c.in(4), {}), c.in(6),
                         c.has(7) ? c.in(7) : Value(), *range, to));
  return success();
}

/// (A - a_zp)(B - b_zp) as int32; a_zp per row of A or b_zp per column of
/// B may be 1-d.
LogicalResult convertMatMulInteger(NodeContext &c, Results &r) {
  int64_t ra = c.type(0).getRank(), rb = c.type(1).getRank();
  FailureOr<Value> a = centred(c, c.in(0), c.in(2), ra >= 2 ? ra - 2 : -1, "A");
  if (failed(a))
    return failure();
  FailureOr<Value> b = centred(c, c.in(1), c.in(3), rb >= 2 ? rb - 1 : -1, "B");
  if (failed(b))
    return failure();
  SmallVector<Type> types;
  if (failed(MatMulOp::inferReturnTypes(c.ctx(), std::nullopt,
                                        MatMulOp::Adaptor(ValueRange{*a, *b}), types))) {
    c.error() << "operand shapes " << c.in(0).getType() << " and "
              << c.in(1).getType() << " do not multiply";
    return failure();
  }
  Value acc = c.b.create<MatMulOp>(c.loc, *a, *b);
  r.push_back(c.cast(acc, c.b.getIntegerType(32)));
  return success();
}

/// conv(x - x_zp, w - w_zp) as int32, w_zp per output channel or not;
/// padding adds the zero point, so the centred input is padded with 0.
LogicalResult convertConvInteger(NodeContext &c, Results &r) {
  FailureOr<Value> x = centred(c, c.in(0), c.in(2), -1, "x");
  if (failed(x))
    return failure();
  FailureOr<Value> w = centred(c, c.in(1), c.in(3), 0, "w");
  if (failed(w))
    return failure();
  FailureOr<Value> y = convolution(c, *x, *w, Value());
  if (failed(y))
    return failure();
  r.push_back(c.cast(*y, c.b.getIntegerType(32)));
  return success();
}

/// saturate(round((conv(x - x_zp, w - w_zp) + B) * x_scale * w_scale /
/// y_scale) + y_zp): w_scale and w_zp per output channel or not, B int32.
LogicalResult convertQLinearConv(NodeContext &c, Results &r) {
  Type f64 = c.b.getF64Type();
  Type to = c.has(7) ? c.type(7).getElementType() : c.type(0).getElementType();
  std::optional<std::pair<double, double>> range = quantRange(to);
  if (!range) {
    c.unsupported() << "QLinearConv to " << to << " (dfa takes 2- to 16-bit integers)";
    return failure();
  }
  for (int i : {1, 2, 6, 7})
    if (c.has(i) && typeOf(c.in(i)).getNumElements() != 1) {
      c.error() << "the scale or zero point of x or y " << c.in(i).getType()
                << " must be a scalar";
      return failure();
    }
  FailureOr<Value> x = centred(c, c.in(0), c.in(2), -1, "x");
  if (failed(x))
    return failure();
  FailureOr<Value> w = centred(c, c.in(3), c.in(5), 0, "w");
  if (failed(w))
    return failure();
  Value bias;
  if (c.has(8)) {
    if (!c.type(8).getElementType().isInteger(32)) {
      c.error() << "the bias B must be int32, not " << c.type(8).getElementType();
      return failure();
    }
    bias = c.cast(c.in(8), f64);
  }
  FailureOr<Value> acc = convolution(c, *x, *w, bias);
  if (failed(acc))
    return failure();
  // w_scale per output channel broadcasts along dim 1 of the result.
  Value ws = c.in(4);
  auto wst = typeOf(ws);
  int64_t rank = typeOf(*acc).getRank(), channels = typeOf(*w).getDimSize(0);
  if (wst.getNumElements() == 1) {
    ws = c.reshape(ws, {});
  } else if (wst.getRank() == 1 && wst.getDimSize(0) == channels) {
    SmallVector<int64_t> dims(rank - 1, 1);
    dims[0] = channels;
    ws = c.reshape(ws, dims);
  } else {
    c.error() << "w_scale " << c.in(4).getType()
              << " must be a scalar or hold one value per output channel ("
              << channels << ")";
    return failure();
  }
  r.push_back(requantize(c, *acc, c.in(1), ws, c.in(6), c.has(7) ? c.in(7) : Value(),
                         *range, to));
  return success();
}
} // namespace

void dfa::onnximport::addQuantConverters(llvm::StringMap<Converter> &t) {
  t["QuantizeLinear"] = convertQuantizeLinear;
  t["DequantizeLinear"] = convertDequantizeLinear;
  t["DynamicQuantizeLinear"] = convertDynamicQuantizeLinear;
  t["QLinearMatMul"] = convertQLinearMatMul;
  t["MatMulInteger"] = convertMatMulInteger;
  t["ConvInteger"] = convertConvInteger;
  t["QLinearConv"] = convertQLinearConv;
}
