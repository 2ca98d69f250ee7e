//===- FXQuantized.cpp - PT2E's quantize and dequantize operators -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// PyTorch's PT2E quantization (torch.ao's, now torchao's `convert_pt2e`)
/// writes a quantized model as float operators between the
/// `quantized_decomposed` library's quantize and dequantize operators:
/// int8 weights dequantized per output channel, activations quantized and
/// dequantized per tensor. Each is lowered here as its reference
/// implementation computes it (torch/ao/quantization/fx/_decomposed.py):
///
///   quantize:   clamp(round(x * (1.0 / scale)) + zero_point, qmin, qmax)
///               converted to `dtype`, x taken as float32;
///   dequantize: (q converted - zero_point) * scale, in float32 (or the
///               scales' type), converted to `out_dtype`.
///
/// The dequantization is the chain the ONNX importer writes for
/// DequantizeLinear (cast, minus the zero point, times the scale), so a
/// product fed by it computes in the integer type as there
/// (graph::dequantizedOperand).
///
//===----------------------------------------------------------------------===//

#include "FXImporter.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::fximport;

namespace {
using R = PyValue;

/// The values `dtype` holds as torch's quantizers bound them
/// (_DTYPE_TO_QVALUE_BOUNDS): 8-, 16- and 32-bit integers.
std::optional<std::pair<int64_t, int64_t>> qvalueBounds(Type t) {
  auto it = dyn_cast<IntegerType>(t);
  if (!it || it.getWidth() == 1 || it.getWidth() > 32)
    return std::nullopt;
  unsigned w = it.getWidth();
  if (it.isUnsigned())
    return std::make_pair(int64_t(0), int64_t((uint64_t(1) << w) - 1));
  return std::make_pair(-(int64_t(1) << (w - 1)), (int64_t(1) << (w - 1)) - 1);
}

/// The common arguments: quant_min, quant_max and dtype at `at`, checked
/// as the reference checks them.
struct QArgs {
  int64_t qmin = 0, qmax = 0;
  Type dtype;
};
FailureOr<QArgs> qargs(FXNode &n, size_t at) {
  const R *lo = n.arg(at, "quant_min"), *hi = n.arg(at + 1, "quant_max");
  const R *dt = n.arg(at + 2, "dtype");
  if (!lo || !hi || !dt || lo->kind != R::Int || hi->kind != R::Int ||
      dt->kind != R::DType) {
    n.error() << "expected quant_min, quant_max (ints) and dtype";
    return failure();
  }
  QArgs q{lo->i, hi->i, n.dtypeOf(dt)};
  if (!q.dtype)
    return failure();
  auto bounds = qvalueBounds(q.dtype);
  if (!bounds) {
    n.unsupported() << "quantized dtype " << dt->s
                    << " (dfa takes 8-, 16- and 32-bit integers here)";
    return failure();
  }
  if (q.qmin < bounds->first || q.qmax > bounds->second || q.qmin > q.qmax) {
    n.error() << "quant range [" << q.qmin << ", " << q.qmax << "] is outside "
              << dt->s << "'s [" << bounds->first << ", " << bounds->second << "]";
    return failure();
  }
  return q;
}

/// A per-tensor parameter: a number, or a one-element tensor.
FailureOr<Value> perTensor(FXNode &n, size_t i, StringRef kw, Type elt) {
  const R *v = n.arg(i, kw);
  if (!v) {
    n.error() << "missing " << kw;
    return failure();
  }
  if (v->kind == R::Tensor) {
    if (n.type(v->tensor).getNumElements() != 1) {
      n.error() << kw << " must hold one element, got " << v->tensor.getType();
      return failure();
    }
    return n.cast(n.reshape(v->tensor, {}), elt);
  }
  if (!v->isNumber()) {
    n.error() << kw << " must be a number or a tensor, got " << v->describe();
    return failure();
  }
  return n.scalar(elt, v->number());
}

/// A per-channel parameter along `axis` of a rank-`rank` input with
/// `channels` channels, shaped to broadcast there, in `elt`.
FailureOr<Value> perChannel(FXNode &n, Value p, StringRef kw, int64_t axis,
                            ArrayRef<int64_t> shape, Type elt) {
  auto pt = n.type(p);
  if (pt.getRank() != 1 || pt.getDimSize(0) != shape[axis]) {
    n.error() << kw << " " << p.getType() << " must hold one value per element of dim "
              << axis << " (" << shape[axis] << ")";
    return failure();
  }
  SmallVector<int64_t> dims(shape.size(), 1);
  dims[axis] = shape[axis];
  return n.cast(n.reshape(p, dims), elt);
}

/// The float type x * (1 / scales) computes in: float32, or the scales'
/// wider float type.
Type computeType(FXNode &n, Value scales) {
  Type f32 = n.b.getF32Type();
  Type se = n.type(scales).getElementType();
  return isa<FloatType>(se) && se.getIntOrFloatBitWidth() > 32 ? se : f32;
}

/// clamp(round(x * inv) + zp, qmin, qmax) converted to q.dtype; x, inv and
/// zp of one float type.
Value quantize(FXNode &n, Value x, Value inv, Value zp, const QArgs &q) {
  Type t = n.type(x).getElementType();
  Value y = n.b.create<RoundOp>(n.loc, n.b.create<MulOp>(n.loc, x, inv));
  if (zp)
    y = n.b.create<AddOp>(n.loc, y, zp);
  y = n.b.create<MaxOp>(n.loc, y, n.scalar(t, double(q.qmin)));
  y = n.b.create<MinOp>(n.loc, y, n.scalar(t, double(q.qmax)));
  return n.cast(y, q.dtype);
}

/// The float input the quantizers take: float32, bfloat16 and float16
/// converted to it.
FailureOr<Value> floatInput(FXNode &n) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Type e = n.type(*x).getElementType();
  if (!e.isF32() && !e.isF16() && !e.isBF16()) {
    n.error() << "quantizes float32, bfloat16 or float16, got " << e;
    return failure();
  }
  return n.cast(*x, n.b.getF32Type());
}

/// The quantized input the dequantizers take, of the dtype named.
FailureOr<Value> quantizedInput(FXNode &n, const QArgs &q) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  if (n.type(*x).getElementType() != q.dtype) {
    n.error() << "input is " << n.type(*x).getElementType() << ", dtype says "
              << q.dtype;
    return failure();
  }
  return x;
}

/// out_dtype (keyword-only), float32 by default.
FailureOr<Type> outDtype(FXNode &n) {
  auto it = n.kwargs.find("out_dtype");
  const R *v = it == n.kwargs.end() ? nullptr : &it->second;
  if (!v || v->kind == R::None)
    return Type(n.b.getF32Type());
  Type t = n.dtypeOf(v);
  if (!t || !isa<FloatType>(t)) {
    if (t)
      n.error() << "out_dtype must be a float type, got " << t;
    return failure();
  }
  return t;
}

/// quantize_per_tensor(input, scale, zero_point, quant_min, quant_max,
/// dtype), scale and zero point numbers (.default) or one-element tensors
/// (.tensor).
LogicalResult quantizePerTensor(FXNode &n, R &r) {
  auto x = floatInput(n);
  auto q = qargs(n, 3);
  if (failed(x) || failed(q))
    return failure();
  Type f32 = n.b.getF32Type();
  auto scale = perTensor(n, 1, "scale", f32), zp = perTensor(n, 2, "zero_point", f32);
  if (failed(scale) || failed(zp))
    return failure();
  // inv_scale = 1.0 / scale: a number is inverted here in double and used
  // as float32, as torch does with a Python float; a tensor is inverted in
  // float32, which rounds the same (double rounding of a quotient of
  // float32 values is exact).
  Value inv;
  if (const R *s = n.arg(1, "scale"); s && s->isNumber())
    inv = n.scalar(f32, 1.0 / s->number());
  else
    inv = n.b.create<DivOp>(n.loc, n.scalar(f32, 1.0), *scale);
  r = R::ofTensor(quantize(n, *x, inv, *zp, *q));
  return success();
}

/// dequantize_per_tensor(input, scale, zero_point, quant_min, quant_max,
/// dtype, *, out_dtype=None): (input - zero_point) * scale in out_dtype.
LogicalResult dequantizePerTensor(FXNode &n, R &r) {
  auto q = qargs(n, 3);
  if (failed(q))
    return failure();
  auto x = quantizedInput(n, *q);
  auto out = outDtype(n);
  if (failed(x) || failed(out))
    return failure();
  auto scale = perTensor(n, 1, "scale", *out), zp = perTensor(n, 2, "zero_point", *out);
  if (failed(scale) || failed(zp))
    return failure();
  Value d = n.b.create<SubOp>(n.loc, n.cast(*x, *out), *zp);
  r = R::ofTensor(n.b.create<MulOp>(n.loc, d, *scale));
  return success();
}

/// The axis argument at `i` of a rank-`rank` input.
FailureOr<int64_t> axisArg(FXNode &n, size_t i, int64_t rank) {
  const R *a = n.arg(i, "axis");
  if (!a || a->kind != R::Int) {
    n.error() << "expected an int axis";
    return failure();
  }
  if (a->i < 0 || a->i >= rank) {
    // The reference asserts axis < rank and takes no negative axis.
    n.error() << "axis " << a->i << " out of range for rank " << rank;
    return failure();
  }
  return a->i;
}

/// quantize_per_channel(input, scales, zero_points, axis, quant_min,
/// quant_max, dtype).
LogicalResult quantizePerChannel(FXNode &n, R &r) {
  auto x = floatInput(n);
  auto scales = n.tensor(1, "scales"), zps = n.tensor(2, "zero_points");
  auto q = qargs(n, 4);
  if (failed(x) || failed(scales) || failed(zps) || failed(q))
    return failure();
  ArrayRef<int64_t> shape = n.type(*x).getShape();
  auto axis = axisArg(n, 3, int64_t(shape.size()));
  if (failed(axis))
    return failure();
  Type t = computeType(n, *scales);
  auto s = perChannel(n, *scales, "scales", *axis, shape, t);
  auto z = perChannel(n, *zps, "zero_points", *axis, shape, t);
  if (failed(s) || failed(z))
    return failure();
  Value inv = n.b.create<DivOp>(n.loc, n.scalar(t, 1.0), *s);
  r = R::ofTensor(quantize(n, n.cast(*x, t), inv, *z, *q));
  return success();
}

/// dequantize_per_channel(input, scales, zero_points (or None), axis,
/// quant_min, quant_max, dtype, *, out_dtype=None).
LogicalResult dequantizePerChannel(FXNode &n, R &r) {
  auto q = qargs(n, 4);
  if (failed(q))
    return failure();
  auto x = quantizedInput(n, *q);
  auto scales = n.tensor(1, "scales");
  auto out = outDtype(n);
  if (failed(x) || failed(scales) || failed(out))
    return failure();
  ArrayRef<int64_t> shape = n.type(*x).getShape();
  auto axis = axisArg(n, 3, int64_t(shape.size()));
  if (failed(axis))
    return failure();
  // The reference subtracts in integers, then scales in the scales' float
  // type; converting first is the same for 8- and 16-bit values (exact in
  // float32).
  Type t = computeType(n, *scales);
  auto s = perChannel(n, *scales, "scales", *axis, shape, t);
  if (failed(s))
    return failure();
  Value d = n.cast(*x, t);
  if (Value zps = n.optTensor(2, "zero_points")) {
    auto z = perChannel(n, zps, "zero_points", *axis, shape, t);
    if (failed(z))
      return failure();
    d = n.b.create<SubOp>(n.loc, d, *z);
  }
  r = R::ofTensor(n.cast(n.b.create<MulOp>(n.loc, d, *s), *out));
  return success();
}
} // namespace

void dfa::fximport::addQuantizedHandlers(llvm::StringMap<Handler> &t) {
  t["quantized_decomposed.quantize_per_tensor.default"] = quantizePerTensor;
  t["quantized_decomposed.quantize_per_tensor.tensor"] = quantizePerTensor;
  t["quantized_decomposed.dequantize_per_tensor.default"] = dequantizePerTensor;
  t["quantized_decomposed.dequantize_per_tensor.tensor"] = dequantizePerTensor;
  t["quantized_decomposed.quantize_per_channel.default"] = quantizePerChannel;
  t["quantized_decomposed.dequantize_per_channel.default"] = dequantizePerChannel;
}
