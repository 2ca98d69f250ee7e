//===- ONNXContribOps.cpp - onnxruntime's com.microsoft operators ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The operators onnxruntime adds (its "contrib" ops, domain com.microsoft,
/// and SimplifiedLayerNormalization, which it registers in the default
/// domain) appear in models that its own tools wrote: the transformer
/// optimizer (`onnxruntime.transformers.optimizer`), a session's saved
/// optimized graph (`optimized_model_filepath`), the 4-bit weight
/// quantizer, and the GenAI model builder. Each imports as the standard ops
/// it is made of, most through the converter of that standard op
/// (NodeContext::delegate), so that passes and targets see the forms they
/// know, and each is checked against onnxruntime's schema first
/// (ContribSignatures.inc). The semantics are onnxruntime's CPU kernels';
/// lit tests compare with onnxruntime on the CPU reference and on targets.
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Reference/Tensor.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::onnximport;

namespace {

onnx::AttributeProto attrF(llvm::StringRef name, double v) {
  onnx::AttributeProto a;
  a.set_name(name.str());
  a.set_type(onnx::AttributeProto::FLOAT);
  a.set_f(float(v));
  return a;
}
onnx::AttributeProto attrI(llvm::StringRef name, int64_t v) {
  onnx::AttributeProto a;
  a.set_name(name.str());
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(v);
  return a;
}
bool wants(NodeContext &c, int i) {
  return c.node.output_size() > i && !c.node.output(i).empty();
}

/// a + b (a alone when b is null), through ONNX's Add: operands that do
/// not broadcast are an error naming the node.
FailureOr<Value> add(NodeContext &c, Value a, Value b);

/// One standard op of the default domain on `inputs`, its first result.
FailureOr<Value> one(NodeContext &c, llvm::StringRef op, ArrayRef<Value> inputs,
                     ArrayRef<onnx::AttributeProto> attrs = {},
                     int64_t minOpset = 0) {
  SmallVector<Value> out;
  if (failed(c.delegate(op, inputs, attrs, 1, out, minOpset)))
    return failure();
  return out.front();
}

FailureOr<Value> add(NodeContext &c, Value a, Value b) {
  if (!b)
    return a;
  return one(c, "Add", {a, b});
}

/// An error unless `v` is a float tensor; names it `what`.
LogicalResult floatInput(NodeContext &c, Value v, llvm::StringRef what) {
  if (isa<FloatType>(typeOf(v).getElementType()))
    return success();
  c.error() << what << " " << v.getType() << " must be a float tensor";
  return failure();
}

/// The same element type for `v` as `like`'s, or an error naming `what`.
LogicalResult sameType(NodeContext &c, Value v, Value like,
                       llvm::StringRef what) {
  if (!v || typeOf(v).getElementType() == typeOf(like).getElementType())
    return success();
  c.error() << what << " " << v.getType() << " must have the element type of "
            << like.getType();
  return failure();
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

/// Gelu of X plus an optional bias: with erf (com.microsoft.Gelu, and
/// BiasGelu of A + B), or the tanh approximation (FastGelu, of X + bias).
template <bool Tanh> LogicalResult convertGelu(NodeContext &c, Results &r) {
  if (failed(floatInput(c, c.in(0), "X")) ||
      failed(sameType(c, c.in(1), c.in(0), Tanh ? "bias" : "B")))
    return failure();
  FailureOr<Value> x = add(c, c.in(0), c.in(1));
  if (failed(x))
    return failure();
  r.push_back(c.b.create<GeluOp>(c.loc, *x, c.b.getBoolAttr(Tanh)));
  return success();
}

/// QuickGelu: x * sigmoid(alpha * x).
LogicalResult convertQuickGelu(NodeContext &c, Results &r) {
  if (failed(floatInput(c, c.in(0), "X")))
    return failure();
  Value x = c.in(0);
  Type elt = typeOf(x).getElementType();
  double alpha = c.floatAttr("alpha", 1.702);
  Value scaled =
      alpha == 1.0 ? x : Value(c.b.create<MulOp>(c.loc, x, c.scalar(elt, alpha)));
  r.push_back(c.b.create<MulOp>(c.loc, x, c.b.create<SigmoidOp>(c.loc, scaled)));
  return success();
}

/// BiasAdd: X + bias + skip.
LogicalResult convertBiasAdd(NodeContext &c, Results &r) {
  if (failed(sameType(c, c.in(1), c.in(0), "bias")) ||
      failed(sameType(c, c.in(2), c.in(0), "skip")))
    return failure();
  FailureOr<Value> xb = add(c, c.in(0), c.in(1));
  FailureOr<Value> y = failed(xb) ? xb : add(c, *xb, c.in(2));
  if (failed(y))
    return failure();
  r.push_back(*y);
  return success();
}

/// The activation a fused Conv or Gemm applies to its result: onnxruntime's
/// FusedConv and FusedGemm name one of the standard activations and pass
/// its alpha, beta (and gamma) as numbers.
FailureOr<Value> activation(NodeContext &c, Value y, llvm::StringRef name,
                            ArrayRef<float> params) {
  auto need = [&](size_t n) -> LogicalResult {
    if (params.size() >= n)
      return success();
    c.error() << "activation " << name << " takes " << n << " parameters, "
              << params.size() << " given";
    return failure();
  };
  if (name.empty())
    return y;
  if (name == "Relu" || name == "Sigmoid" || name == "Tanh")
    return one(c, name, {y});
  if (name == "LeakyRelu") {
    if (failed(need(1)))
      return failure();
    return one(c, name, {y}, {attrF("alpha", params[0])});
  }
  if (name == "HardSigmoid") {
    if (failed(need(2)))
      return failure();
    return one(c, name, {y}, {attrF("alpha", params[0]), attrF("beta", params[1])});
  }
  if (name == "Clip") {
    if (failed(need(2)))
      return failure();
    Type elt = typeOf(y).getElementType();
    return one(c, name, {y, c.scalar(elt, params[0]), c.scalar(elt, params[1])});
  }
  c.unsupported() << "activation '" << name
                  << "' (dfa fuses Relu, LeakyRelu, Sigmoid, Tanh, HardSigmoid "
                     "and Clip)";
  return failure();
}

/// FusedConv: Conv, plus Z, then the activation.
LogicalResult convertFusedConv(NodeContext &c, Results &r) {
  FailureOr<Value> y = convolution(c, c.in(0), c.in(1), c.in(2));
  if (failed(y))
    return failure();
  Value sum = *y;
  if (c.has(3)) {
    if (typeOf(c.in(3)) != typeOf(sum)) {
      c.error() << "Z " << c.in(3).getType() << " must have the result's type "
                << sum.getType();
      return failure();
    }
    sum = c.b.create<AddOp>(c.loc, sum, c.in(3));
  }
  std::vector<float> params;
  if (const onnx::AttributeProto *p = c.attr("activation_params"))
    params.assign(p->floats().begin(), p->floats().end());
  FailureOr<Value> out = activation(c, sum, c.strAttr("activation", ""), params);
  if (failed(out))
    return failure();
  r.push_back(*out);
  return success();
}

/// FusedGemm: Gemm, then the activation.
LogicalResult convertFusedGemm(NodeContext &c, Results &r) {
  SmallVector<onnx::AttributeProto> attrs = {
      attrF("alpha", c.floatAttr("alpha", 1.0)), attrF("beta", c.floatAttr("beta", 1.0)),
      attrI("transA", c.intAttr("transA", 0)), attrI("transB", c.intAttr("transB", 0))};
  FailureOr<Value> y = one(c, "Gemm", {c.in(0), c.in(1), c.in(2)}, attrs);
  if (failed(y))
    return failure();
  SmallVector<float> params;
  for (const char *p : {"activation_alpha", "activation_beta", "activation_gamma"})
    if (c.attr(p))
      params.push_back(float(c.floatAttr(p, 0.0)));
  FailureOr<Value> out = activation(c, *y, c.strAttr("activation", ""), params);
  if (failed(out))
    return failure();
  r.push_back(*out);
  return success();
}

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

/// Swaps the last two dims of `v` (rank 2 or more).
Value swapLast(NodeContext &c, Value v) {
  int64_t rank = typeOf(v).getRank();
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    perm.push_back(d);
  std::swap(perm[rank - 1], perm[rank - 2]);
  return c.b.create<TransposeOp>(c.loc, v, c.b.getDenseI64ArrayAttr(perm));
}

/// FusedMatMul: alpha * op(A) x op(B), op a transpose of the last two dims.
LogicalResult convertFusedMatMul(NodeContext &c, Results &r) {
  if (c.intAttr("transBatchA", 0) || c.intAttr("transBatchB", 0)) {
    c.unsupported() << "transBatchA and transBatchB (batch dims moved into "
                       "the product)";
    return failure();
  }
  Value a = c.in(0), b = c.in(1);
  for (auto [v, name] : {std::pair{&a, "transA"}, std::pair{&b, "transB"}})
    if (c.intAttr(name, 0)) {
      if (typeOf(*v).getRank() < 2) {
        c.error() << name << " needs an operand of rank 2 or more, got "
                  << v->getType();
        return failure();
      }
      *v = swapLast(c, *v);
    }
  FailureOr<Value> y = one(c, "MatMul", {a, b});
  if (failed(y))
    return failure();
  double alpha = c.floatAttr("alpha", 1.0);
  r.push_back(alpha == 1.0 ? *y
                           : Value(c.b.create<MulOp>(
                                 c.loc, *y,
                                 c.scalar(typeOf(*y).getElementType(), alpha))));
  return success();
}

/// The narrow unsigned type of `bits`-bit codes (2, 4 or 8).
ref::DType narrowCodes(int64_t bits) {
  return bits == 2 ? ref::DType::U2 : bits == 4 ? ref::DType::U4 : ref::DType::U8;
}

/// `rows` rows of `count` codes of `bits` bits each, unpacked from bytes
/// that pack them low bits first, `rowBytes` a row (onnxruntime's layout
/// of MatMulNBits' and GatherBlockQuantized's weights and zero points),
/// as a narrow tensor of `shape`. Without data (--no-weights) the codes
/// are zeros, in the same type and shape.
ref::Tensor unpackCodes(const ref::Tensor &packed, int64_t bits,
                        ArrayRef<int64_t> shape, int64_t rows, int64_t count,
                        int64_t rowBytes) {
  ref::Tensor out(narrowCodes(bits), shape);
  if (!packed.defined())
    return out;
  uint64_t mask = (1u << bits) - 1;
  const uint8_t *src = packed.data<uint8_t>();
  uint8_t *dst = out.data<uint8_t>();
  for (int64_t n = 0; n < rows; ++n)
    for (int64_t k = 0; k < count; ++k) {
      int64_t bit = k * bits;
      dst[n * count + k] = uint8_t((src[n * rowBytes + bit / 8] >> (bit % 8)) & mask);
    }
  return out;
}

/// A ([..., K], static) as onnxruntime's CPU kernels compute on it at
/// MatMulNBits' accuracy_level 4, which lets a kernel quantize A "with the
/// same block_size to int8" (the contrib op's documentation). MLAS's
/// CompInt8 kernels cut each row of A into blocks of `block` along K and
/// code each block symmetrically: q = round_half_even(a * (127 / amax)),
/// with the block's scale amax / 127 (a block of zeros codes to zeros).
/// They take integer dot products of the codes with the weights' and
/// multiply them by both scales; dfa gives the product A's codes times
/// their scales, the same value up to float rounding. The result is
/// float32 whatever A's type (MLAS converts float16 A before coding it and
/// keeps float32 scales), so the product that reads it runs in float32. A
/// block whose largest magnitude is below 127 / FLT_MAX, where 127 / amax
/// overflows, codes to zeros (onnxruntime's saturated codes times a scale
/// under 3e-39 are zeros to float32 precision).
/// Measured against onnxruntime 1.32 (x86, AVX-512; docs/validation.md):
/// within 3e-7 of its results, where A unquantized is 1e-2 off. (On Arm,
/// its KleidiAI kernels code each whole row with a zero point instead; dfa
/// follows the x86 kernels.)
FailureOr<Value> int8Blocks(NodeContext &c, Value a, int64_t K, int64_t block) {
  auto at = typeOf(a);
  if (!at.hasStaticShape()) {
    c.unsupported() << "accuracy_level 4 on A " << a.getType()
                    << " of dynamic shape";
    return failure();
  }
  Type f32 = c.b.getF32Type();
  int64_t blocks = (K + block - 1) / block, rank = at.getRank();
  Value x = c.cast(a, f32);
  if (blocks * block != K) { // the last block's missing values code as zeros
    std::vector<int64_t> pads(2 * rank, 0);
    pads[2 * rank - 1] = blocks * block - K;
    FailureOr<Value> padded = one(c, "Pad", {x, c.constant(ref::Tensor::fromInts(
                                                  ref::DType::I64, {2 * rank}, pads))});
    if (failed(padded))
      return failure();
    x = *padded;
  }
  SmallVector<int64_t> shape(at.getShape().drop_back());
  shape.append({blocks, block});
  x = c.reshape(x, shape);
  Value amax = c.b.create<ReduceMaxOp>(c.loc, c.b.create<AbsOp>(c.loc, x),
                                       c.b.getDenseI64ArrayAttr({rank}),
                                       c.b.getBoolAttr(true));
  FailureOr<Value> scale = one(c, "Div", {amax, c.scalar(f32, 127.0)});
  FailureOr<Value> zero =
      one(c, "Less", {amax, c.scalar(f32, 127.0 / std::numeric_limits<float>::max())});
  FailureOr<Value> inv = one(c, "Div", {c.scalar(f32, 127.0), amax});
  if (failed(scale) || failed(zero) || failed(inv))
    return failure();
  FailureOr<Value> mul = one(c, "Where", {*zero, c.scalar(f32, 0.0), *inv});
  FailureOr<Value> scaled = failed(mul) ? mul : one(c, "Mul", {x, *mul});
  FailureOr<Value> codes = failed(scaled) ? scaled : one(c, "Round", {*scaled});
  FailureOr<Value> y = failed(codes) ? codes : one(c, "Mul", {*codes, *scale});
  if (failed(y))
    return failure();
  SmallVector<int64_t> flat(at.getShape().drop_back());
  flat.push_back(blocks * block);
  Value out = c.reshape(*y, flat);
  if (blocks * block != K)
    out = c.slice(out, rank - 1, 0, K);
  return out;
}

/// MatMulNBits: A times the transpose of B, a [N, K] matrix of 2- to 8-bit
/// integers stored in blocks of `block_size` along K ([N, blocks, bytes],
/// low bits first), each block with its own scale and zero point (packed
/// the same way; 2^(bits-1) when absent), plus a bias. The weights import
/// as the narrow integers, minus the zero points, times the scales, which
/// a product takes into its kernel (a weight-only product): it reads them
/// narrow.
LogicalResult convertMatMulNBits(NodeContext &c, Results &r) {
  int64_t K = c.intAttr("K", 0), N = c.intAttr("N", 0);
  int64_t bits = c.intAttr("bits", 4), block = c.intAttr("block_size", 0);
  // accuracy_level 4 computes on A coded to int8 (int8Blocks) where
  // onnxruntime's CPU kernels have a CompInt8 path, measured on 1.32: 4-
  // and 8-bit weights in any block, whose A is coded in blocks of at most
  // 256; 2-bit weights in blocks of 32 to 128 (it computes blocks of 16 and
  // 256 in float). Every other level and configuration computes in A's
  // type, as onnxruntime does.
  // It codes only with B a constant (prepacked at load): B a graph input
  // is dequantized and multiplied in float.
  Operation *bDef = c.in(1) ? c.in(1).getDefiningOp() : nullptr;
  bool int8A = c.intAttr("accuracy_level", 0) == 4 &&
               (bits != 2 || (block >= 32 && block <= 128)) &&
               isa_and_nonnull<graph::WeightOp, graph::ConstantOp>(bDef);
  if (c.intAttr("weight_prepacked", 0)) {
    c.unsupported() << "weight_prepacked (a layout of one execution provider)";
    return failure();
  }
  if (c.has(4)) {
    c.unsupported() << "g_idx (an act-order permutation of the blocks)";
    return failure();
  }
  if (bits != 2 && bits != 4 && bits != 8) {
    c.unsupported() << bits << "-bit weights (dfa reads 2, 4 and 8)";
    return failure();
  }
  if (K < 1 || N < 1 || block < 16 || (block & (block - 1))) {
    c.error() << "K " << K << " and N " << N
              << " must be positive and block_size " << block
              << " a power of two from 16";
    return failure();
  }
  auto at = c.type(0);
  Type elt = at.getElementType();
  if (!isa<FloatType>(elt) || at.getRank() < 1 || at.getShape().back() != K) {
    c.error() << "A " << at << " must be a float tensor whose last dim is K ("
              << K << ")";
    return failure();
  }
  int64_t blocks = (K + block - 1) / block, blob = block * bits / 8;
  bool noData = false; // an undefined tensor: unpack gives zeros
  auto q = c.weightInput(1, "the quantized weights B", noData);
  if (failed(q))
    return failure();
  if (c.type(1).getElementType() != c.b.getIntegerType(8, false) ||
      c.type(1).getNumElements() != N * blocks * blob) {
    c.error() << "B must hold N x ceil(K / block_size) x block_size * bits / 8 = "
              << N << " x " << blocks << " x " << blob << " uint8 values";
    return failure();
  }
  if (failed(sameType(c, c.in(2), c.in(0), "scales")))
    return failure();
  if (typeOf(c.in(2)).getNumElements() != N * blocks) {
    c.error() << "scales " << c.in(2).getType() << " must hold N x blocks = "
              << N * blocks << " values";
    return failure();
  }
  // The codes unpacked, [N, blocks, block] (B's padding past K kept, cut
  // after), so that each block's scale and zero point [N, blocks, 1]
  // broadcast over it: the product's kernel reads them as stored
  // (graph::dequantizedOperand).
  auto unpack = [&](const ref::Tensor &packed, ArrayRef<int64_t> shape,
                    int64_t count, int64_t rowBytes) {
    return unpackCodes(packed, bits, shape, N, count, rowBytes);
  };
  Value codes = c.constant(unpack(*q, {N, blocks, block}, blocks * block, blob * blocks));
  Value scales = c.reshape(c.in(2), {N, blocks, 1});
  Value zero;
  if (c.has(3)) {
    auto zt = c.type(3);
    if (zt.getElementType() == elt) {
      c.unsupported() << "zero points of the scales' type (dfa reads packed "
                         "integer zero points)";
      return failure();
    }
    auto zp = c.weightInput(3, "the zero points", noData);
    if (failed(zp))
      return failure();
    int64_t rowBytes = (blocks * bits + 7) / 8;
    if (zt.getElementType() != c.b.getIntegerType(8, false) ||
        zt.getNumElements() != N * rowBytes) {
      c.error() << "zero_points must hold N x ceil(blocks * bits / 8) = " << N
                << " x " << rowBytes << " uint8 values";
      return failure();
    }
    zero = c.constant(unpack(*zp, {N, blocks, 1}, blocks, rowBytes));
  } else {
    ref::Tensor mid(narrowCodes(bits), {N, blocks, 1});
    std::fill_n(mid.data<uint8_t>(), N * blocks, uint8_t(1u << (bits - 1)));
    zero = c.constant(mid);
  }
  Value w = c.b.create<MulOp>(
      c.loc, c.b.create<SubOp>(c.loc, c.cast(codes, elt), c.cast(zero, elt)), scales);
  w = c.reshape(w, {N, blocks * block});
  if (blocks * block != K)
    w = c.slice(w, 1, 0, K);
  // Coded, A and the product are float32 (int8Blocks); the result is cast
  // back to A's type.
  Value a = c.in(0), b = swapLast(c, w);
  if (int8A) {
    FailureOr<Value> coded = int8Blocks(c, a, K, std::min<int64_t>(block, 256));
    if (failed(coded))
      return failure();
    a = *coded;
    b = c.cast(b, typeOf(a).getElementType());
  }
  FailureOr<Value> y = one(c, "MatMul", {a, b});
  if (failed(y))
    return failure();
  if (c.has(5)) {
    if (failed(sameType(c, c.in(5), c.in(0), "bias")))
      return failure();
    if (typeOf(c.in(5)).getShape() != ArrayRef<int64_t>{N}) {
      c.error() << "bias " << c.in(5).getType() << " must be [N] = [" << N << "]";
      return failure();
    }
  }
  FailureOr<Value> out =
      add(c, *y, c.has(5) ? c.cast(c.in(5), typeOf(*y).getElementType()) : Value());
  if (failed(out))
    return failure();
  r.push_back(c.cast(*out, elt));
  return success();
}

/// GatherBlockQuantized: ONNX's Gather of a table quantized by blocks along
/// `quantize_axis` (the GenAI builder's tied embedding reads the LM head's
/// 4-bit weights so). `data` holds int4 or uint4 values of the table's
/// shape, or uint8 bytes that pack 8 / bits values of the last axis, low
/// bits first; `scales` has a value per block (ceil(dim / block_size)
/// along `quantize_axis`), the zero points one each too (packed the same
/// way in uint8; absent: 2^(bits-1) for uint8, 0 for int4 and uint4). The
/// import gathers the narrow codes, scales and zero points along
/// `gather_axis` and dequantizes only the gathered rows, (code - zero
/// point) * scale in float32 then the scales' type, as onnxruntime's CPU
/// kernel does; so a kernel reads the gathered codes narrow, never the
/// whole table in float. An index out of range is Gather's error, where
/// onnxruntime's kernel writes zeros.
LogicalResult convertGatherBlockQuantized(NodeContext &c, Results &r) {
  int64_t bits = c.intAttr("bits", 4), block = c.intAttr("block_size", 128);
  auto dt = c.type(0);
  Type code = dt.getElementType(), u8 = c.b.getIntegerType(8, false);
  bool packed = code == u8;
  if (!packed && !(isa<IntegerType>(code) && code.getIntOrFloatBitWidth() == 4)) {
    c.unsupported() << "data of type " << code
                    << " (dfa reads int4, uint4 and packed uint8)";
    return failure();
  }
  if (packed ? bits != 2 && bits != 4 && bits != 8 : bits != 4) {
    c.error() << "bits " << bits << " with " << code
              << " data (uint8 packs 2, 4 or 8; int4 and uint4 are 4)";
    return failure();
  }
  if (block < 16 || (block & (block - 1))) {
    c.error() << "block_size " << block << " must be a power of two from 16";
    return failure();
  }
  int64_t rank = dt.getRank();
  FailureOr<int64_t> g = c.axis(c.intAttr("gather_axis", 0), rank);
  FailureOr<int64_t> q = c.axis(c.intAttr("quantize_axis", 1), rank);
  if (failed(g) || failed(q))
    return failure();
  if (packed && (*g != 0 || *q != rank - 1 || rank < 2)) {
    c.error() << "packed uint8 data needs gather_axis 0 and quantize_axis "
                 "the last of at least 2, got "
              << *g << " and " << *q;
    return failure();
  }
  if (*g == *q) {
    c.unsupported() << "gather_axis equal to quantize_axis (rows that each "
                       "take another block's scale)";
    return failure();
  }
  auto st = c.type(2);
  Type elt = st.getElementType();
  if (!isa<FloatType>(elt)) {
    c.error() << "scales " << st << " must be a float tensor";
    return failure();
  }
  // The table's shape, its quantized axis unpacked.
  int64_t per = packed ? 8 / bits : 1;
  SmallVector<int64_t> shape(dt.getShape());
  shape[*q] *= per;
  int64_t dim = shape[*q], blocks = (dim + block - 1) / block;
  SmallVector<int64_t> sshape(shape);
  sshape[*q] = blocks;
  if (st.getShape() != ArrayRef<int64_t>(sshape)) {
    c.error() << "scales " << st << " must be "
              << RankedTensorType::get(sshape, elt) << ": one per block of "
              << block << " along axis " << *q;
    return failure();
  }
  // The codes in a narrow type: uint8 bytes unpacked (the table is a
  // weight), 8-bit codes and int4/uint4 as they are.
  Value codes = c.in(0);
  bool noData = false;
  int64_t rows = dt.getNumElements() / dt.getShape().back();
  if (packed && bits < 8) {
    FailureOr<ref::Tensor> d = c.weightInput(0, "the quantized table", noData);
    if (failed(d))
      return failure();
    codes = c.constant(unpackCodes(*d, bits, shape, rows, dim, dt.getShape().back()));
  }
  Value zero;
  if (c.has(3)) {
    auto zt = c.type(3);
    SmallVector<int64_t> zshape(sshape);
    if (packed)
      zshape[*q] = (blocks * bits + 7) / 8;
    if (zt.getElementType() != code || zt.getShape() != ArrayRef<int64_t>(zshape)) {
      c.error() << "zero_points " << zt << " must be "
                << RankedTensorType::get(zshape, code);
      return failure();
    }
    zero = c.in(3);
    if (packed && bits < 8) {
      FailureOr<ref::Tensor> z = c.weightInput(3, "the zero points", noData);
      if (failed(z))
        return failure();
      zero = c.constant(unpackCodes(*z, bits, sshape, rows, blocks, zshape.back()));
    }
  } else {
    ref::Tensor mid(packed ? narrowCodes(bits)
                    : code.isUnsignedInteger() ? ref::DType::U4
                                               : ref::DType::I4,
                    {});
    if (packed)
      mid.data<uint8_t>()[0] = uint8_t(1u << (bits - 1));
    zero = c.constant(mid);
  }
  auto gather = [&](Value v) {
    return one(c, "Gather", {v, c.in(1)}, {attrI("axis", *g)});
  };
  FailureOr<Value> cg = gather(codes), sg = gather(c.in(2));
  FailureOr<Value> zg = c.has(3) ? gather(zero) : FailureOr<Value>(zero);
  if (failed(cg) || failed(sg) || failed(zg))
    return failure();
  // Each gathered block's scale and zero point over its values: the
  // quantized axis (moved by the indices' rank when it follows the
  // gathered one) split into [blocks, 1], broadcast to [blocks, block],
  // merged and cut to the axis' length.
  int64_t qo = *q < *g ? *q : *q + c.type(1).getRank() - 1;
  int64_t width = blocks == 1 ? dim : block; // a block past the axis' end
  auto spread = [&](Value v) -> Value {
    auto vt = typeOf(v);
    if (vt.getRank() == 0)
      return v;
    SmallVector<int64_t> split(vt.getShape()), wide, flat(vt.getShape());
    split.insert(split.begin() + qo + 1, 1);
    wide = split;
    wide[qo + 1] = width;
    flat[qo] = blocks * width;
    Value x = c.b.create<ExpandOp>(
        c.loc, RankedTensorType::get(wide, vt.getElementType()), c.reshape(v, split));
    x = c.reshape(x, flat);
    return blocks * width == dim ? x : c.slice(x, qo, 0, dim);
  };
  Type f32 = c.b.getF32Type();
  Value centred = c.b.create<SubOp>(c.loc, c.cast(*cg, f32), c.cast(spread(*zg), f32));
  Value y = c.b.create<MulOp>(c.loc, centred, c.cast(spread(*sg), f32));
  r.push_back(c.cast(y, elt));
  return success();
}

//===----------------------------------------------------------------------===//
// Quantized operators (onnxruntime's QOperator format and its fusions)
//===----------------------------------------------------------------------===//

/// Input `x` dequantized with the scale and zero point at inputs `scale`
/// and `zp` (absent: 0), as float.
FailureOr<Value> dequant(NodeContext &c, Value x, int scale, int zp) {
  return one(c, "DequantizeLinear", {x, c.in(scale), zp >= 0 ? c.in(zp) : Value()}, {}, 13);
}

/// `y` quantized to `like`'s integer type with the scale and zero point at
/// inputs `scale` and `zp` (absent: a zero of that type), as ONNX's
/// QuantizeLinear: round(y / scale) + zp. onnxruntime's lookup-table
/// kernels (QLinearSigmoid, QLinearLeakyRelu), QLinearSoftmax,
/// QLinearConcat and its requantized GEMMs round so.
FailureOr<Value> quant(NodeContext &c, Value y, int scale, int zp, Type like) {
  Value z = zp >= 0 && c.has(zp)
                ? c.in(zp)
                : c.constant(ref::Tensor(like.isUnsignedInteger() ? ref::DType::U8 : ref::DType::I8, {}));
  return one(c, "QuantizeLinear", {y, c.in(scale), z}, {}, 13);
}

/// `y` (float) quantized as onnxruntime's QLinearAdd, QLinearMul and
/// quantized average pools do: the zero point (input `zp`, absent: 0)
/// added before the rounding to nearest even, round(y / scale + zp), then
/// saturated. The two forms differ on ties, which an average of integers
/// meets often. With `scale` < 0, `y` is already divided by the output
/// scale.
FailureOr<Value> requant(NodeContext &c, Value y, int scale, int zp, Type like) {
  Type f32 = c.b.getF32Type();
  Value v = c.cast(y, f32);
  if (scale >= 0) {
    FailureOr<Value> d = one(c, "Div", {v, c.cast(c.in(scale), f32)});
    if (failed(d))
      return failure();
    v = *d;
  }
  if (zp >= 0 && c.has(zp)) {
    FailureOr<Value> z = one(c, "Add", {v, c.cast(c.in(zp), f32)});
    if (failed(z))
      return failure();
    v = *z;
  }
  bool u = like.isUnsignedInteger();
  FailureOr<Value> rounded = one(c, "Round", {v});
  FailureOr<Value> clipped =
      failed(rounded) ? rounded
                      : one(c, "Clip", {*rounded, c.scalar(f32, u ? 0.0 : -128.0),
                                        c.scalar(f32, u ? 255.0 : 127.0)}, {}, 13);
  if (failed(clipped))
    return failure();
  return c.cast(*clipped, like);
}

/// Input `i` minus its zero point (input `zp`), as float32.
FailureOr<Value> centred(NodeContext &c, int i, int zp) {
  Type f32 = c.b.getF32Type();
  Value x = c.cast(c.in(i), f32);
  return zp >= 0 && c.has(zp) ? one(c, "Sub", {x, c.cast(c.in(zp), f32)}) : FailureOr<Value>(x);
}

/// The quantized elementwise and pooling ops. QLinearAdd and QLinearMul
/// compute as onnxruntime does, in float32 with the scales folded into
/// ratios: (a - za) sa/sc + (b - zb) sb/sc, and (a - za)(b - zb) sa sb/sc.
/// The others dequantize, apply the float op (QLinearSigmoid,
/// QLinearLeakyRelu, QLinearSoftmax, QLinearAveragePool,
/// QLinearGlobalAveragePool) and quantize, each rounding as onnxruntime's
/// kernel does (quant, requant; measured against it on tie-prone values).
LogicalResult convertQLinear(NodeContext &c, Results &r) {
  llvm::StringRef op = c.node.op_type();
  Type q = c.type(0).getElementType();
  if (!q.isInteger(8)) {
    c.error() << "X " << c.in(0).getType() << " must be 8-bit integers";
    return failure();
  }
  Type f32 = c.b.getF32Type();
  FailureOr<Value> y;
  int outScale = 3, outZp = 4;
  if (op == "QLinearAdd" || op == "QLinearMul") {
    if (c.type(3).getElementType() != q) {
      c.error() << "A and B must be of one 8-bit type";
      return failure();
    }
    FailureOr<Value> a = centred(c, 0, 2), b = failed(a) ? a : centred(c, 3, 5);
    if (failed(b))
      return failure();
    Value sa = c.cast(c.in(1), f32), sb = c.cast(c.in(4), f32), sc = c.cast(c.in(6), f32);
    auto ratio = [&](Value num) { return one(c, "Div", {num, sc}); };
    if (op == "QLinearAdd") {
      FailureOr<Value> ra = ratio(sa), rb = failed(ra) ? ra : ratio(sb);
      FailureOr<Value> ta = failed(rb) ? rb : one(c, "Mul", {*a, *ra});
      FailureOr<Value> tb = failed(ta) ? ta : one(c, "Mul", {*b, *rb});
      y = failed(tb) ? tb : one(c, "Add", {*ta, *tb});
    } else {
      FailureOr<Value> sab = one(c, "Mul", {sa, sb});
      FailureOr<Value> rab = failed(sab) ? sab : ratio(*sab);
      FailureOr<Value> ab = failed(rab) ? rab : one(c, "Mul", {*a, *b});
      y = failed(ab) ? ab : one(c, "Mul", {*ab, *rab});
    }
    if (failed(y))
      return failure();
    FailureOr<Value> out = requant(c, *y, /*scale=*/-1, 7, q);
    if (failed(out))
      return failure();
    r.push_back(*out);
    return success();
  }
  FailureOr<Value> a = dequant(c, c.in(0), 1, 2);
  if (failed(a))
    return failure();
  bool table = op == "QLinearSigmoid" || op == "QLinearLeakyRelu" || op == "QLinearSoftmax";
  if (op == "QLinearSigmoid") {
    y = one(c, "Sigmoid", {*a});
  } else if (op == "QLinearLeakyRelu") {
    y = one(c, "LeakyRelu", {*a}, {attrF("alpha", c.floatAttr("alpha", 0.01))});
  } else if (op == "QLinearSoftmax") {
    // `opset` picks Softmax's semantics: 2-d coercion before 13.
    y = one(c, "Softmax", {*a}, {attrI("axis", c.intAttr("axis", -1))},
            c.intAttr("opset", 13));
  } else {
    if (c.intAttr("channels_last", 0)) {
      c.unsupported() << "channels_last (an NHWC layout)";
      return failure();
    }
    if (op == "QLinearGlobalAveragePool") {
      y = one(c, "GlobalAveragePool", {*a});
    } else {
      SmallVector<onnx::AttributeProto> attrs;
      for (const auto &at : c.node.attribute())
        if (at.name() != "channels_last")
          attrs.push_back(at);
      for (const char *name : {"kernel_shape", "pads", "strides", "auto_pad", "ceil_mode",
                               "count_include_pad"})
        (void)c.attr(name);
      y = one(c, "AveragePool", {*a}, attrs, 19);
    }
  }
  if (failed(y))
    return failure();
  FailureOr<Value> out = table ? quant(c, *y, outScale, outZp, q)
                               : requant(c, *y, outScale, outZp, q);
  if (failed(out))
    return failure();
  r.push_back(*out);
  return success();
}

/// QLinearConcat: each input dequantized (its own scale and zero point),
/// concatenated, quantized with the output's.
LogicalResult convertQLinearConcat(NodeContext &c, Results &r) {
  int64_t n = c.node.input_size();
  if (n < 5 || (n - 2) % 3) {
    c.error() << "takes Y_scale, Y_zero_point and triples of (X, scale, zero point), "
              << n << " inputs given";
    return failure();
  }
  Type q = c.type(1).getElementType();
  SmallVector<Value> parts;
  for (int64_t i = 2; i < n; i += 3) {
    if (!c.has(i) || c.type(i).getElementType() != q) {
      c.error() << "input " << i << " must be " << q << " like Y_zero_point";
      return failure();
    }
    FailureOr<Value> d = dequant(c, c.in(i), int(i + 1), int(i + 2));
    if (failed(d))
      return failure();
    parts.push_back(*d);
  }
  FailureOr<Value> y = one(c, "Concat", parts, {attrI("axis", c.intAttr("axis", 0))});
  if (failed(y))
    return failure();
  FailureOr<Value> out = quant(c, *y, 0, 1, q);
  if (failed(out))
    return failure();
  r.push_back(*out);
  return success();
}

/// The product of two 8-bit integer tensors as float, (A - a_zp)(B - b_zp)
/// a_scale b_scale (MatMulInteger, then the scales), plus a bias.
FailureOr<Value> integerProduct(NodeContext &c, Value a, Value b, Value azp, Value bzp,
                                Value aScale, Value bScale, Value bias) {
  FailureOr<Value> acc = one(c, "MatMulInteger", {a, b, azp, bzp}, {}, 13);
  if (failed(acc))
    return failure();
  Type elt = typeOf(aScale).getElementType();
  FailureOr<Value> scale = one(c, "Mul", {aScale, bScale});
  FailureOr<Value> y = failed(scale) ? scale : one(c, "Mul", {c.cast(*acc, elt), *scale});
  return failed(y) ? y : add(c, *y, bias);
}

/// MatMulIntegerToFloat: MatMulInteger, times both scales, plus bias.
LogicalResult convertMatMulIntegerToFloat(NodeContext &c, Results &r) {
  FailureOr<Value> y = integerProduct(c, c.in(0), c.in(1), c.in(4), c.in(5), c.in(2),
                                      c.in(3), c.in(6));
  if (failed(y))
    return failure();
  r.push_back(*y);
  return success();
}

/// DynamicQuantizeMatMul: A quantized to uint8 from its own range
/// (DynamicQuantizeLinear), then MatMulIntegerToFloat with B.
LogicalResult convertDynamicQuantizeMatMul(NodeContext &c, Results &r) {
  SmallVector<Value> qa;
  if (failed(c.delegate("DynamicQuantizeLinear", {c.in(0)}, {}, 3, qa, 11)))
    return failure();
  FailureOr<Value> y = integerProduct(c, qa[0], c.in(1), qa[2], c.in(3), qa[1], c.in(2),
                                      c.in(4));
  if (failed(y))
    return failure();
  r.push_back(*y);
  return success();
}

/// QGemm: alpha ((A - a_zp)(B - b_zp) + C) a_scale b_scale (C int32, at
/// the product's scale), as float, or quantized with y_scale and
/// y_zero_point when given.
LogicalResult convertQGemm(NodeContext &c, Results &r) {
  FailureOr<Value> a = dequant(c, c.in(0), 1, 2);
  FailureOr<Value> b = failed(a) ? a : dequant(c, c.in(3), 4, 5);
  if (failed(b))
    return failure();
  Value bias;
  if (c.has(6)) {
    FailureOr<Value> scale = one(c, "Mul", {c.in(1), c.in(4)});
    FailureOr<Value> cb = failed(scale) ? scale
                                        : one(c, "Mul", {c.cast(c.in(6), typeOf(*scale).getElementType()),
                                                         *scale});
    if (failed(cb))
      return failure();
    bias = *cb;
  }
  // C joins the integer sum before alpha scales it, as onnxruntime adds it.
  double alpha = c.floatAttr("alpha", 1.0);
  FailureOr<Value> y = one(c, "Gemm", {*a, *b, bias},
                           {attrF("alpha", alpha), attrF("beta", alpha),
                            attrI("transA", c.intAttr("transA", 0)),
                            attrI("transB", c.intAttr("transB", 0))});
  if (failed(y))
    return failure();
  if (!c.has(7)) {
    r.push_back(*y);
    return success();
  }
  FailureOr<Value> out = quant(c, *y, 7, 8, c.type(0).getElementType());
  if (failed(out))
    return failure();
  r.push_back(*out);
  return success();
}

//===----------------------------------------------------------------------===//
// Mixture of experts
//===----------------------------------------------------------------------===//

/// MoE: each token's top-k experts by the softmax of its router logits
/// (ties to the higher expert; normalize_routing_weights divides the k
/// probabilities by their sum), each expert a two-layer MLP (fc1 [E, N1,
/// H] and fc2 [E, H, I], C = A B^T, with optional biases), the token's
/// result the weighted sum of its k experts' outputs: onnxruntime's CPU
/// kernel. Its activations are relu, gelu (the tanh form), silu, identity
/// and SwiGLU over fc1's interleaved gate and linear columns (swiglu_fusion
/// 1): min(g, limit) * sigmoid(alpha * min(g, limit)) * (clamp(l, -limit,
/// limit) + beta), alpha 1, beta 0 and no limit by default (gpt-oss: 1.702,
/// 1, 7).
///
/// The import dispatches as a grouped product does, not densely: the T x k
/// routes are ordered by expert (a counting sort: each route's place is
/// its expert's first row plus the routes of that expert before it), the
/// routed token rows gathered in that order, each of fc1 and fc2 one
/// graph.grouped_matmul over the experts' row ranges, and each route's
/// result gathered back and weighted. A target then reads each expert's
/// weights once and does T x k rows of work, not T x E.
/// One layer of the experts: its weights [E, N, K] (QMoE's dequantized),
/// the input holding its biases, and the block its rows are coded to int8
/// in first (int8Blocks: QMoE's int8-activation kernels), 0 for none.
struct ExpertLayer {
  Value weights;
  int bias;
  int64_t codeBlock = 0;
};

/// The experts of MoE and QMoE (convertMoE): fc1 [E, N1, H] and fc2 [E,
/// H, I]; `normalize` divides each token's k weights by their sum.
LogicalResult buildMoE(NodeContext &c, Results &r, ExpertLayer fc1, ExpertLayer fc2,
                       bool normalize) {
  Value w1 = fc1.weights, w2 = fc2.weights;
  int b1 = fc1.bias, b2 = fc2.bias;
  if (c.intAttr("use_sparse_mixer", 0)) {
    c.unsupported() << "use_sparse_mixer";
    return failure();
  }
  if (c.intAttr("swiglu_limit_after_activation", 0)) {
    c.unsupported() << "swiglu_limit_after_activation";
    return failure();
  }
  std::string act = c.strAttr("activation_type", "relu");
  bool swiglu = act == "swiglu";
  if (!swiglu && act != "relu" && act != "gelu" && act != "silu" && act != "identity") {
    c.unsupported() << "activation_type '" << act
                    << "' (dfa reads relu, gelu, silu, identity and swiglu)";
    return failure();
  }
  if (swiglu && c.intAttr("swiglu_fusion", 0) != 1) {
    c.unsupported() << "swiglu_fusion " << c.intAttr("swiglu_fusion", 0)
                    << " (dfa reads 1, fc1's gate and linear columns "
                       "interleaved, as onnxruntime's CPU kernel does)";
    return failure();
  }
  auto xt = c.type(0), rt = c.type(1), w1t = typeOf(w1), w2t = typeOf(w2);
  Type elt = xt.getElementType();
  for (auto [v, what] : {std::pair{c.in(1), "router_probs"}, std::pair{w1, "fc1's weights"},
                         std::pair{w2, "fc2's weights"}, std::pair{c.in(b1), "fc1's bias"},
                         std::pair{c.in(b2), "fc2's bias"}})
    if (v && typeOf(v).getElementType() != elt) {
      c.error() << what << " " << v.getType() << " must have the input's element type "
                << elt;
      return failure();
    }
  if (!isa<FloatType>(elt) || xt.getRank() < 2 || w1t.getRank() != 3 || w2t.getRank() != 3 ||
      rt.getRank() != 2) {
    c.error() << "input " << xt << ", router_probs " << rt << " and experts' weights " << w1t
              << " and " << w2t << " must be float [..., H], [T, E], [E, N, H] and [E, H, I]";
    return failure();
  }
  int64_t H = xt.getShape().back(), T = xt.getNumElements() / std::max<int64_t>(H, 1);
  int64_t E = rt.getDimSize(1), N1 = w1t.getDimSize(1), I = w2t.getDimSize(2);
  int64_t k = c.intAttr("k", 1);
  if (rt.getDimSize(0) != T || w1t.getDimSize(0) != E || w1t.getDimSize(2) != H ||
      w2t.getDimSize(0) != E || w2t.getDimSize(1) != H || N1 != (swiglu ? 2 * I : I)) {
    c.error() << "input " << xt << " (T = " << T << " tokens of H = " << H
              << "), router_probs " << rt << ", fc1 " << w1t << " and fc2 " << w2t
              << " must be [T, E], [E, " << (swiglu ? "2 x " : "") << "I, H] and [E, H, I]";
    return failure();
  }
  if (k < 1 || k > E) {
    c.error() << "k " << k << " must be from 1 to the " << E << " experts";
    return failure();
  }
  for (auto [i, rows] : {std::pair{b1, N1}, std::pair{b2, H}})
    if (c.has(i) && typeOf(c.in(i)).getShape() != ArrayRef<int64_t>{E, rows}) {
      c.error() << "fc" << (i == b1 ? 1 : 2) << "_experts_bias " << c.in(i).getType()
                << " must be [" << E << ", " << rows << "]";
      return failure();
    }
  Type f32 = c.b.getF32Type(), i64 = c.b.getI64Type();
  int64_t R = T * k;
  auto iota = [&](int64_t n, int64_t div) {
    std::vector<int64_t> v(n);
    for (int64_t j = 0; j < n; ++j)
      v[j] = j / div;
    return c.constant(ref::Tensor::fromInts(ref::DType::I64, {n}, v));
  };
  // Each standard op below is built on operands whose shapes were checked
  // above, so its converter cannot fail; a failure still stops the import.
  bool failedOp = false;
  auto op = [&](StringRef name, ArrayRef<Value> in,
                ArrayRef<onnx::AttributeProto> attrs = {}) -> Value {
    if (failedOp || llvm::is_contained(in, Value()))
      return failedOp = true, Value();
    FailureOr<Value> v = one(c, name, in, attrs);
    failedOp |= failed(v);
    return failed(v) ? Value() : *v;
  };
  auto axes = [&](std::vector<int64_t> a) {
    return c.constant(ref::Tensor::fromInts(ref::DType::I64, {int64_t(a.size())}, a));
  };
  auto gather = [&](Value table, Value idx) { return op("Gather", {table, idx}, {attrI("axis", 0)}); };
  // Routing: the top k logits (reversed, so that TopK's lower-index-first
  // ties pick the higher expert, as onnxruntime's sort does; the logits,
  // not their softmax, whose float32 values may tie where the logits do
  // not) and their softmax probabilities.
  Value logits = c.cast(c.in(1), f32);
  Value p = op("Softmax", {logits}, {attrI("axis", 1)});
  SmallVector<Value> top;
  if (failedOp || failed(c.delegate("TopK", {c.slice(logits, 1, E - 1, E, -1), axes({k})},
                                    {attrI("axis", 1)}, 2, top)))
    return failure();
  Value chosen = c.b.create<SubOp>(c.loc, c.scalar(i64, double(E - 1)), c.cast(top[1], i64));
  Value weights = op("GatherElements", {p, chosen}, {attrI("axis", 1)});
  if (failedOp)
    return failure();
  if (normalize) {
    Value sum = c.b.create<ReduceSumOp>(c.loc, weights, c.b.getDenseI64ArrayAttr({1}),
                                        c.b.getBoolAttr(true));
    weights = c.b.create<DivOp>(c.loc, weights, sum);
  }
  Value expert = c.reshape(chosen, {R});
  // The counting sort: route r goes to row starts[e] + (routes of e before r).
  Value hit = op("Equal", {c.reshape(expert, {R, 1}), c.reshape(iota(E, 1), {1, E})});
  if (failedOp)
    return failure();
  hit = c.cast(hit, i64);
  Value counts = c.b.create<ReduceSumOp>(c.loc, hit, c.b.getDenseI64ArrayAttr({0}),
                                         c.b.getBoolAttr(false));
  Value ends = op("CumSum", {counts, c.scalar(i64, 0)});
  Value before = op("CumSum", {hit, c.scalar(i64, 0)}, {attrI("exclusive", 1)});
  if (failedOp)
    return failure();
  Value rank = c.b.create<ReduceSumOp>(c.loc, c.b.create<MulOp>(c.loc, hit, before),
                                       c.b.getDenseI64ArrayAttr({1}), c.b.getBoolAttr(false));
  Value starts = c.b.create<SubOp>(c.loc, ends, counts);
  Value at = gather(starts, expert);
  if (failedOp)
    return failure();
  Value pos = c.b.create<AddOp>(c.loc, at, rank);
  // The route at each sorted row, its token and its expert.
  Value perm = op("ScatterElements", {c.constant(ref::Tensor(ref::DType::I64, {R})), pos, iota(R, 1)},
                  {attrI("axis", 0)});
  Value rowToken = gather(iota(R, k), perm);
  Value rowExpert = gather(expert, perm);
  Value x = gather(c.reshape(c.in(0), {T, H}), rowToken);
  if (failedOp)
    return failure();
  auto layer = [&](Value in, const ExpertLayer &l) -> Value {
    Value w = l.weights;
    int bias = l.bias;
    auto wt = typeOf(w);
    if (l.codeBlock > 0) { // float32 rows and product (int8Blocks)
      FailureOr<Value> coded = int8Blocks(c, in, wt.getDimSize(2), l.codeBlock);
      if (failed(coded))
        return failedOp = true, Value();
      in = *coded;
      w = c.cast(w, f32);
    }
    Value rhs = c.b.create<TransposeOp>(
        c.loc, RankedTensorType::get({E, wt.getDimSize(2), wt.getDimSize(1)}, typeOf(w).getElementType()), w,
        c.b.getDenseI64ArrayAttr({0, 2, 1}));
    Value y = c.b.create<GroupedMatMulOp>(c.loc, in, rhs, ends, IntegerAttr());
    if (!c.has(bias))
      return y;
    Value b = gather(c.in(bias), rowExpert);
    return failedOp ? Value() : c.b.create<AddOp>(c.loc, y, c.cast(b, typeOf(y).getElementType()));
  };
  Value h = layer(x, fc1);
  if (failedOp)
    return failure();
  if (swiglu) {
    double alpha = c.floatAttr("activation_alpha", 1.0), beta = c.floatAttr("activation_beta", 0.0);
    double limit = c.floatAttr("swiglu_limit", std::numeric_limits<double>::infinity());
    Type hel = typeOf(h).getElementType();
    Value gate = c.slice(h, 1, 0, I, 2), lin = c.slice(h, 1, 1, I, 2);
    if (std::isfinite(limit)) {
      gate = c.b.create<MinOp>(c.loc, gate, c.scalar(hel, limit));
      lin = c.b.create<MaxOp>(c.loc, c.b.create<MinOp>(c.loc, lin, c.scalar(hel, limit)),
                              c.scalar(hel, -limit));
    }
    Value sig = c.b.create<SigmoidOp>(c.loc, c.b.create<MulOp>(c.loc, gate, c.scalar(hel, alpha)));
    h = c.b.create<MulOp>(c.loc, c.b.create<MulOp>(c.loc, gate, sig),
                          c.b.create<AddOp>(c.loc, lin, c.scalar(hel, beta)));
  } else if (act == "relu") {
    h = op("Relu", {h});
  } else if (act == "gelu") {
    h = c.b.create<GeluOp>(c.loc, h, c.b.getBoolAttr(true));
  } else if (act == "silu") {
    h = c.b.create<MulOp>(c.loc, h, c.b.create<SigmoidOp>(c.loc, h));
  }
  Value y = failedOp ? Value() : layer(h, fc2);
  // Each route's result, weighted, summed over the token's k experts.
  Value routed = failedOp ? Value() : gather(y, pos);
  if (failedOp)
    return failure();
  Value weighted = c.b.create<MulOp>(c.loc, c.reshape(c.cast(routed, f32), {T, k, H}),
                                     c.reshape(weights, {T, k, 1}));
  Value out = c.b.create<ReduceSumOp>(c.loc, weighted, c.b.getDenseI64ArrayAttr({1}),
                                      c.b.getBoolAttr(false));
  r.push_back(c.cast(c.reshape(out, xt.getShape()), elt));
  return success();
}

LogicalResult convertMoE(NodeContext &c, Results &r) {
  for (int i : {6, 7})
    if (c.has(i)) {
      c.unsupported() << "fc3 (separate gate weights; onnxruntime's CPU "
                         "kernel refuses them too)";
      return failure();
    }
  return buildMoE(c, r, {c.in(2), 3}, {c.in(4), 5}, c.intAttr("normalize_routing_weights", 0));
}

/// QMoE with integer experts (quant_type "int"): MoE whose fc1 and fc2
/// weights are 4- or 8-bit codes packed along K (low bits first), [E, N,
/// K * bits / 8], with a scale per output column ([E, N]) or per block of
/// `block_size` along K ([E, N, K / block_size]), and zero points packed
/// the same way along N ([E, ceil(N bits / 8)]) or along the blocks ([E,
/// N, ceil(blocks bits / 8)]); absent, 2^(bits-1). The import dequantizes
/// them as MatMulNBits' weights, so a grouped product reads them narrow.
/// onnxruntime's CPU kernel, measured (1.32, x86): a layer of block-wise
/// experts in blocks of at most 256 whose weights are a constant codes its
/// rows to int8 by blocks (int8Blocks) when 8-bit, or 4-bit at
/// accuracy_level 4; every other layer computes in float. It always
/// normalizes the k routing weights, whatever normalize_routing_weights
/// says, and refuses layers of other widths than expert_weight_bits.
LogicalResult convertQMoE(NodeContext &c, Results &r) {
  if (std::string q = c.strAttr("quant_type", "int"); q != "int") {
    c.unsupported() << "quant_type '" << q << "' (dfa reads 'int')";
    return failure();
  }
  if (c.intAttr("weights_prepacked", 0)) {
    c.unsupported() << "weights_prepacked (a layout of one execution provider)";
    return failure();
  }
  for (int i = 8; i < 21; ++i)
    if (i != 11 && i != 12 && c.has(i)) {
      c.unsupported() << "input " << i
                      << " (fc3 weights, router_weights, global or activation scales)";
      return failure();
    }
  int64_t block = c.intAttr("block_size", 0), level = c.intAttr("accuracy_level", 0);
  if (block && (block < 16 || (block & (block - 1)))) {
    c.error() << "block_size " << block << " must be a power of two from 16";
    return failure();
  }
  int64_t bits = c.intAttr("expert_weight_bits", 4);
  for (const char *name : {"fc1_expert_weight_bits", "fc2_expert_weight_bits"})
    if (c.intAttr(name, bits) != bits) {
      c.unsupported() << name << " " << c.intAttr(name, bits) << " beside expert_weight_bits "
                      << bits << " (onnxruntime's CPU kernel refuses mixed widths too)";
      return failure();
    }
  // One layer's weights (input w: 2 or 5), scales (3 or 6) and zero points
  // (11 or 12), dequantized to [E, N, K] in the activations' type.
  auto dequantize = [&](int w, int sc, int zp, int bias) -> ExpertLayer {
    if (bits != 4 && bits != 8) {
      c.unsupported() << bits << "-bit experts (dfa reads 4 and 8)";
      return ExpertLayer{};
    }
    auto wt = c.type(w);
    if (wt.getRank() != 3 || wt.getElementType() != c.b.getIntegerType(8, false)) {
      c.error() << "experts' weights " << wt << " must be uint8 [E, N, K * bits / 8]";
      return ExpertLayer{};
    }
    int64_t E = wt.getDimSize(0), N = wt.getDimSize(1), rowBytes = wt.getDimSize(2);
    int64_t K = rowBytes * 8 / bits;
    if (block && K % block) {
      c.error() << "K " << K << " must be a multiple of block_size " << block;
      return ExpertLayer{};
    }
    int64_t blocks = block ? K / block : 1, width = block ? block : K;
    SmallVector<int64_t> sshape{E, N};
    if (block)
      sshape.push_back(blocks);
    if (!c.has(sc) || typeOf(c.in(sc)).getShape() != ArrayRef<int64_t>(sshape) ||
        !isa<FloatType>(typeOf(c.in(sc)).getElementType())) {
      auto d = c.error() << "scales must be float "
                         << RankedTensorType::get(sshape, c.b.getF32Type());
      if (c.has(sc))
        d << ", got " << c.in(sc).getType();
      else
        d << ", got none";
      return ExpertLayer{};
    }
    bool noData = false;
    FailureOr<ref::Tensor> packed = c.weightInput(w, "the experts' weights", noData);
    if (failed(packed))
      return ExpertLayer{};
    Value codes = c.constant(unpackCodes(*packed, bits, {E, N, blocks, width}, E * N, K, rowBytes));
    Value zero;
    if (c.has(zp)) {
      // Packed along N (per column) or along each column's blocks.
      SmallVector<int64_t> zshape{E, block ? N : (N * bits + 7) / 8};
      if (block)
        zshape.push_back((blocks * bits + 7) / 8);
      auto zt = c.type(zp);
      if (zt.getShape() != ArrayRef<int64_t>(zshape) ||
          zt.getElementType() != c.b.getIntegerType(8, false)) {
        c.error() << "zero points " << zt << " must be "
                  << RankedTensorType::get(zshape, zt.getElementType());
        return ExpertLayer{};
      }
      FailureOr<ref::Tensor> z = c.weightInput(zp, "the zero points", noData);
      if (failed(z))
        return ExpertLayer{};
      zero = block ? c.constant(unpackCodes(*z, bits, {E, N, blocks, 1}, E * N, blocks, zshape[2]))
                   : c.constant(unpackCodes(*z, bits, {E, N, 1, 1}, E, N, zshape[1]));
    } else {
      ref::Tensor mid(narrowCodes(bits), {});
      mid.data<uint8_t>()[0] = uint8_t(1u << (bits - 1));
      zero = c.constant(mid);
    }
    Type f32 = c.b.getF32Type();
    Value scales = c.reshape(c.cast(c.in(sc), f32), {E, N, blocks, 1});
    Value x = c.b.create<MulOp>(
        c.loc, c.b.create<SubOp>(c.loc, c.cast(codes, f32), c.cast(zero, f32)), scales);
    // onnxruntime codes only weights it prepacked: constants.
    Operation *def = c.in(w).getDefiningOp();
    bool code = block && block <= 256 && (bits == 8 || level == 4) &&
                isa_and_nonnull<graph::WeightOp, graph::ConstantOp>(def);
    return ExpertLayer{c.cast(c.reshape(x, {E, N, K}), c.type(0).getElementType()), bias,
                       code ? block : 0};
  };
  c.ignoreAttrs({"normalize_routing_weights"}); // always normalized (above)
  ExpertLayer fc1 = dequantize(2, 3, 11, 4);
  ExpertLayer fc2 = fc1.weights ? dequantize(5, 6, 12, 7) : ExpertLayer{};
  if (!fc1.weights || !fc2.weights)
    return failure();
  return buildMoE(c, r, fc1, fc2, /*normalize=*/true);
}

//===----------------------------------------------------------------------===//
// Normalizations
//===----------------------------------------------------------------------===//

/// SimplifiedLayerNormalization: RMSNormalization, and its 1 / rms.
LogicalResult convertSimplifiedLayerNorm(NodeContext &c, Results &r) {
  if (int64_t stash = c.intAttr("stash_type", 1); stash != 1) {
    c.unsupported() << "stash_type " << stash << " (only 1, float)";
    return failure();
  }
  int64_t rank = c.type(0).getRank();
  auto axis = c.axis(c.intAttr("axis", -1), rank);
  if (failed(axis))
    return failure();
  double eps = c.floatAttr("epsilon", 1e-5);
  FailureOr<Value> y =
      one(c, "RMSNormalization", {c.in(0), c.in(1)},
          {attrI("axis", *axis), attrF("epsilon", eps),
           attrI("stash_type", c.intAttr("stash_type", 1))},
          23);
  if (failed(y))
    return failure();
  r.push_back(*y);
  if (wants(c, 1)) {
    Type f32 = c.b.getF32Type();
    Value x = c.cast(c.in(0), f32);
    SmallVector<int64_t> axes;
    for (int64_t d = *axis; d < rank; ++d)
      axes.push_back(d);
    Value ms = c.b.create<ReduceMeanOp>(c.loc, c.b.create<MulOp>(c.loc, x, x),
                                        c.b.getDenseI64ArrayAttr(axes),
                                        c.b.getBoolAttr(true));
    r.push_back(c.b.create<ReciprocalOp>(
        c.loc, c.b.create<SqrtOp>(c.loc, c.b.create<AddOp>(c.loc, ms, c.scalar(f32, eps)))));
  }
  return success();
}

/// The sum input + skip (+ bias) of the Skip*LayerNormalization ops, with
/// skip broadcast from [S, H] or [1, S, H] as onnxruntime allows.
FailureOr<Value> skipSum(NodeContext &c, int biasInput) {
  auto t = c.type(0);
  if (t.getRank() < 2 || !isa<FloatType>(t.getElementType())) {
    c.error() << "input " << t << " must be a float tensor of rank 2 or more";
    return failure();
  }
  int64_t hidden = t.getShape().back();
  if (failed(sameType(c, c.in(1), c.in(0), "skip")) ||
      failed(broadcastShapes(c.type(1).getShape(), t.getShape())) ||
      c.type(1).getRank() > t.getRank()) {
    c.error() << "skip " << c.in(1).getType() << " must broadcast to input " << t;
    return failure();
  }
  Value sum = c.b.create<AddOp>(c.loc, c.in(0), c.in(1));
  if (c.has(biasInput)) {
    if (failed(sameType(c, c.in(biasInput), c.in(0), "bias")) ||
        c.type(biasInput).getShape() != ArrayRef<int64_t>{hidden}) {
      c.error() << "bias " << c.in(biasInput).getType() << " must be [" << hidden
                << "] of the input's type";
      return failure();
    }
    sum = c.b.create<AddOp>(c.loc, sum, c.in(biasInput));
  }
  // onnxruntime's shape check leaves the sum in the input's shape.
  if (typeOf(sum).getShape() != t.getShape()) {
    c.error() << "skip " << c.in(1).getType() << " must broadcast to input " << t;
    return failure();
  }
  return sum;
}

/// SkipLayerNormalization: LayerNormalization of input + skip + bias over
/// the last dim; its mean, 1 / std and the sum as optional outputs.
LogicalResult convertSkipLayerNorm(NodeContext &c, Results &r) {
  FailureOr<Value> sum = skipSum(c, 4);
  if (failed(sum))
    return failure();
  SmallVector<Value> out;
  int stats = wants(c, 1) || wants(c, 2) ? 3 : 1;
  if (failed(c.delegate("LayerNormalization", {*sum, c.in(2), c.in(3)},
                        {attrI("axis", -1), attrF("epsilon", c.floatAttr("epsilon", 1e-12))},
                        stats, out, 17)))
    return failure();
  r.push_back(out[0]);
  r.push_back(stats > 1 ? out[1] : Value());
  r.push_back(stats > 1 ? out[2] : Value());
  r.push_back(*sum);
  return success();
}

/// SkipSimplifiedLayerNormalization: the RMS form of SkipLayerNormalization.
LogicalResult convertSkipSimplifiedLayerNorm(NodeContext &c, Results &r) {
  FailureOr<Value> sum = skipSum(c, 3);
  if (failed(sum))
    return failure();
  SmallVector<Value> out;
  if (failed(c.delegate("RMSNormalization", {*sum, c.in(2)},
                        {attrI("axis", -1), attrF("epsilon", c.floatAttr("epsilon", 1e-12))},
                        1, out, 23)))
    return failure();
  r.push_back(out[0]);
  // The RMS form has no mean: onnxruntime gives zeros [..., 1].
  Type f32 = c.b.getF32Type();
  SmallVector<int64_t> statShape(typeOf(*sum).getShape());
  statShape.back() = 1;
  r.push_back(wants(c, 1) ? c.constant(ref::Tensor(ref::DType::F32, statShape))
                          : Value());
  if (wants(c, 2)) {
    Value x = c.cast(*sum, f32);
    int64_t last = typeOf(x).getRank() - 1;
    Value ms = c.b.create<ReduceMeanOp>(c.loc, c.b.create<MulOp>(c.loc, x, x),
                                        c.b.getDenseI64ArrayAttr({last}),
                                        c.b.getBoolAttr(true));
    r.push_back(c.b.create<ReciprocalOp>(
        c.loc, c.b.create<SqrtOp>(
                   c.loc, c.b.create<AddOp>(
                              c.loc, ms, c.scalar(f32, c.floatAttr("epsilon", 1e-12))))));
  } else {
    r.push_back(Value());
  }
  r.push_back(*sum);
  return success();
}

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

/// [B, N, S, H] -> [B, S, N*H].
Value mergeHeads(NodeContext &c, Value v) {
  auto t = typeOf(v);
  Value x = c.b.create<TransposeOp>(c.loc, v, c.b.getDenseI64ArrayAttr({0, 2, 1, 3}));
  return c.reshape(x, {t.getDimSize(0), t.getDimSize(2), t.getDimSize(1) * t.getDimSize(3)});
}

/// A constant int64 [shape] of `values`.
Value ints(NodeContext &c, ArrayRef<int64_t> shape, const std::vector<int64_t> &values) {
  return c.constant(ref::Tensor::fromInts(ref::DType::I64, shape, values));
}

/// Positions 0 .. n-1 as an int64 [1, n].
Value positions(NodeContext &c, int64_t n) {
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = i;
  return ints(c, {1, n}, v);
}

/// onnxruntime's padding mask (mask_index of Attention, key_padding_mask of
/// MultiHeadAttention) as the additive float [B, 1, S or 1, T] its kernels
/// build: 0 where a key is kept, `filter` (mask_filter_value) added where
/// it is not. A 2-d or 3-d mask keeps values > 0; a 1-d one holds each
/// batch's key count (B, or 3B + 2 of which the first B count), or its end
/// then start positions (2B, with `startEnd`). A (B, 1) or (1, 1) mask is
/// onnxruntime's placeholder: no mask. Null when there is none.
FailureOr<Value> paddingMask(NodeContext &c, Value mask, int64_t B, int64_t S,
                             int64_t T, double filter, bool startEnd, Type elt) {
  if (!mask)
    return Value();
  auto mt = typeOf(mask);
  auto fill = [&](Value keep) -> FailureOr<Value> {
    FailureOr<Value> m = one(c, "Where", {keep, c.scalar(elt, 0.0), c.scalar(elt, filter)});
    return m;
  };
  ArrayRef<int64_t> d = mt.getShape();
  Value keep;
  // (B, 1) and (1, 1) are onnxruntime's placeholder, whatever T is.
  if (mt.getRank() == 2 && d[1] == 1 && (d[0] == B || d[0] == 1))
    return Value();
  if ((mt.getRank() == 2 && d[0] == B && d[1] == T) ||
      (mt.getRank() == 3 && d[0] == B && d[1] == S && d[2] == T)) {
    FailureOr<Value> k = one(c, "Greater", {c.cast(mask, c.b.getI64Type()),
                                            c.scalar(c.b.getI64Type(), 0)});
    if (failed(k))
      return failure();
    keep = c.reshape(*k, mt.getRank() == 2 ? SmallVector<int64_t>{B, 1, 1, T}
                                           : SmallVector<int64_t>{B, 1, S, T});
  } else if (mt.getRank() == 1 &&
             (d[0] == B || d[0] == 3 * B + 2 || (startEnd && d[0] == 2 * B))) {
    Value m = c.cast(mask, c.b.getI64Type());
    Value end = c.reshape(c.slice(m, 0, 0, B), {B, 1});
    FailureOr<Value> k = one(c, "Less", {positions(c, T), end});
    if (failed(k))
      return failure();
    keep = *k;
    if (d[0] == 2 * B) {
      // Masked from the start too (at most T).
      Value start = c.reshape(c.slice(m, 0, B, B), {B, 1});
      FailureOr<Value> cut = one(c, "Min", {start, c.scalar(c.b.getI64Type(), double(T))});
      FailureOr<Value> after =
          failed(cut) ? cut : one(c, "GreaterOrEqual", {positions(c, T), *cut});
      if (failed(after))
        return failure();
      FailureOr<Value> both = one(c, "And", {keep, *after});
      if (failed(both))
        return failure();
      keep = *both;
    }
    keep = c.reshape(keep, {B, 1, 1, T});
  } else if (mt.getRank() == 4) {
    c.unsupported() << "a 4-d mask (onnxruntime's CPU kernels refuse it too)";
    return failure();
  } else {
    c.error() << "mask " << mask.getType() << " is none of onnxruntime's formats for "
              << B << " sequences of " << S << " queries and " << T << " keys";
    return failure();
  }
  return fill(keep);
}

/// onnxruntime's causal mask, [S, T]: query row s sees keys t <= past + s,
/// and its kernels leave the last row unmasked (which differs only when
/// the query and key lengths differ).
Value causalMask(NodeContext &c, Type elt, int64_t S, int64_t T, int64_t past) {
  return biasOf(c, elt, S, T,
                [&](int64_t i, int64_t j) { return i + 1 == S || j <= past + i; });
}

/// The attention core over heads: softmax(scale * q k^T + mask) v, through
/// ONNX's Attention (q [B, N, S, H], k and v [B, N, T, H]), as
/// [B, S, N * Hv].
FailureOr<Value> attentionCore(NodeContext &c, Value q, Value k, Value v,
                               Value mask) {
  SmallVector<onnx::AttributeProto> attrs;
  if (double scale = c.floatAttr("scale", 0.0); scale != 0.0)
    attrs.push_back(attrF("scale", scale));
  FailureOr<Value> y = one(c, "Attention", {q, k, v, mask}, attrs, 23);
  if (failed(y))
    return failure();
  return mergeHeads(c, *y);
}

/// The attention core spelled out, for what ONNX's Attention orders
/// otherwise: scores scaled, then soft-capped (softcap tanh(x / softcap))
/// before `mask` is added, and a sink logit per head (`sinks` [N], or 0
/// with `sink` alone: onnxruntime's head_sink and smooth_softmax) in each
/// softmax's denominator, as onnxruntime's GroupQueryAttention computes
/// them; a row no key is `allowed` for is zero. k and v may have fewer
/// heads than q (grouped).
FailureOr<Value> cappedAttention(NodeContext &c, Value q, Value k, Value v, Value mask,
                                 Value allowed, double softcap, Value sinks, bool sink) {
  auto qt = typeOf(q), kt = typeOf(k), vt = typeOf(v);
  Type elt = qt.getElementType();
  int64_t B = qt.getDimSize(0), n = qt.getDimSize(1), S = qt.getDimSize(2),
          h = qt.getDimSize(3), nkv = kt.getDimSize(1), T = kt.getDimSize(2);
  // Each K/V head serves n / nkv query heads in a row.
  auto repeat = [&](Value x, int64_t d) {
    if (nkv == n)
      return x;
    Value e = c.b.create<ExpandOp>(
        c.loc, RankedTensorType::get({B, nkv, n / nkv, T, d}, elt),
        c.reshape(x, {B, nkv, 1, T, d}));
    return c.reshape(e, {B, n, T, d});
  };
  Value kr = repeat(k, h), vr = repeat(v, vt.getDimSize(3));
  double scale = c.floatAttr("scale", 0.0);
  if (scale == 0.0)
    scale = 1.0 / std::sqrt(double(h));
  FailureOr<Value> raw = one(c, "MatMul", {q, swapLast(c, kr)});
  if (failed(raw))
    return failure();
  Value x = c.b.create<MulOp>(c.loc, *raw, c.scalar(elt, scale));
  if (softcap > 0.0)
    x = c.b.create<MulOp>(
        c.loc, c.b.create<TanhOp>(c.loc, c.b.create<MulOp>(c.loc, x, c.scalar(elt, 1.0 / softcap))),
        c.scalar(elt, softcap));
  x = c.b.create<AddOp>(c.loc, x, mask);
  if (sink) {
    // The sink as one more key column, whose probability is dropped.
    Value col = sinks ? c.reshape(c.cast(sinks, elt), {1, n, 1, 1}) : c.scalar(elt, 0.0);
    col = c.b.create<ExpandOp>(c.loc, RankedTensorType::get({B, n, S, 1}, elt), col);
    x = c.b.create<ConcatOp>(c.loc, ValueRange{x, col}, c.b.getI64IntegerAttr(3));
  }
  FailureOr<Value> p = one(c, "Softmax", {x}, {attrI("axis", -1)}, 13);
  if (failed(p))
    return failure();
  Value probs = sink ? c.slice(*p, 3, 0, T) : *p;
  // A row with no key to see (an empty window) is zero, not NaN.
  Value any = c.b.create<ReduceMaxOp>(c.loc, c.cast(allowed, elt),
                                      c.b.getDenseI64ArrayAttr({3}), c.b.getBoolAttr(true));
  FailureOr<Value> some = one(c, "Greater", {any, c.scalar(elt, 0.0)});
  FailureOr<Value> kept = failed(some) ? some : one(c, "Where", {*some, probs, c.scalar(elt, 0.0)});
  if (failed(kept))
    return failure();
  probs = *kept;
  FailureOr<Value> y = one(c, "MatMul", {probs, vr});
  if (failed(y))
    return failure();
  return mergeHeads(c, *y);
}

/// The additive mask of an attention: padding, causal and attention_bias
/// summed (null when none).
FailureOr<Value> attentionMask(NodeContext &c, Value padding, Value bias,
                               Type elt, int64_t B, int64_t N, int64_t S, int64_t T,
                               int64_t past) {
  Value mask = padding;
  if (c.intAttr("unidirectional", 0) && S > 1)
    mask = mask ? Value(c.b.create<AddOp>(c.loc, causalMask(c, elt, S, T, past), mask))
                : causalMask(c, elt, S, T, past);
  if (bias) {
    if (failed(sameType(c, bias, c.in(0), "attention_bias")))
      return failure();
    auto bt = typeOf(bias);
    if (bt.getRank() != 4 || (bt.getDimSize(0) != 1 && bt.getDimSize(0) != B) ||
        (bt.getDimSize(1) != 1 && bt.getDimSize(1) != N) || bt.getDimSize(2) != S ||
        bt.getDimSize(3) != T) {
      c.error() << "attention_bias " << bias.getType() << " must be [" << B << " or 1, "
                << N << " or 1, " << S << ", " << T << "]";
      return failure();
    }
    mask = mask ? Value(c.b.create<AddOp>(c.loc, bias, mask)) : bias;
  }
  return mask;
}

/// The attention of q [B, N, S, H] over k and v [B, N, T, H] (a past of
/// `past` keys first) with onnxruntime's padding mask `mask` (whose 1-d
/// form may hold end and start positions when `startEnd`), its causal
/// masking and an attention_bias `bias`, as [B, S, N * Hv].
FailureOr<Value> attend(NodeContext &c, Value q, Value k, Value v, Value mask,
                        Value bias, int64_t past, bool startEnd) {
  auto qt = typeOf(q);
  Type elt = qt.getElementType();
  int64_t B = qt.getDimSize(0), S = qt.getDimSize(2), T = typeOf(k).getDimSize(2);
  FailureOr<Value> pad = paddingMask(c, mask, B, S, T,
                                     c.floatAttr("mask_filter_value", -10000.0),
                                     startEnd, elt);
  if (failed(pad))
    return failure();
  FailureOr<Value> all = attentionMask(c, *pad, bias, elt, B, qt.getDimSize(1), S, T, past);
  if (failed(all))
    return failure();
  return attentionCore(c, q, k, v, *all);
}

/// com.microsoft.Attention: the merged Q, K, V projection of the input
/// (columns [Q | K | V], head-major in each), an optional past [2, B, N, P,
/// H] the new keys and values follow (present), onnxruntime's mask formats
/// and causal mask, attention_bias.
LogicalResult convertMsAttention(NodeContext &c, Results &r) {
  if (c.intAttr("do_rotary", 0) || c.intAttr("past_present_share_buffer", 0) ||
      c.has(6)) {
    c.unsupported() << "do_rotary, past_present_share_buffer and "
                       "past_sequence_length (onnxruntime's CPU kernels refuse "
                       "them too)";
    return failure();
  }
  c.ignoreAttrs({"rotary_embedding_dim"}); // without do_rotary, unused
  int64_t n = c.intAttr("num_heads", 0);
  auto xt = c.type(0), wt = c.type(1);
  Type elt = xt.getElementType();
  if (xt.getRank() != 3 || wt.getRank() != 2 || wt.getDimSize(0) != xt.getDimSize(2) ||
      !isa<FloatType>(elt)) {
    c.error() << "input " << xt << " must be [B, S, D] and weights " << wt
              << " [D, 3 x hidden]";
    return failure();
  }
  int64_t B = xt.getDimSize(0), S = xt.getDimSize(1), total = wt.getDimSize(1);
  std::vector<int64_t> sizes{total / 3, total / 3, total / 3};
  if (auto given = c.intsAttr("qkv_hidden_sizes"))
    sizes = *given;
  if (n < 1 || sizes.size() != 3 || sizes[0] != sizes[1] ||
      sizes[0] + sizes[1] + sizes[2] != total || sizes[0] % n || sizes[2] % n ||
      sizes[0] < n || sizes[2] < n) {
    c.error() << "num_heads " << n << " and qkv_hidden_sizes must split the "
              << total << " projected columns into Q and K of one size and V, "
                          "each a whole number of heads";
    return failure();
  }
  FailureOr<Value> qkv = one(c, "MatMul", {c.in(0), c.in(1)});
  if (failed(qkv) || failed(sameType(c, c.in(2), c.in(0), "bias")))
    return failure();
  if (c.has(2) && c.type(2).getShape() != ArrayRef<int64_t>{total}) {
    c.error() << "bias " << c.in(2).getType() << " must hold the " << total
              << " projected columns";
    return failure();
  }
  FailureOr<Value> projected = add(c, *qkv, c.in(2));
  if (failed(projected))
    return failure();
  Value proj = *projected;
  Value q = splitHeads(c, c.slice(proj, 2, 0, sizes[0]), n);
  Value k = splitHeads(c, c.slice(proj, 2, sizes[0], sizes[1]), n);
  Value v = splitHeads(c, c.slice(proj, 2, sizes[0] + sizes[1], sizes[2]), n);
  if (wants(c, 1) && sizes[2] != sizes[0]) {
    c.unsupported() << "present with V (" << sizes[2] << ") narrower or wider than "
                       "Q and K (" << sizes[0] << "): one [2, B, N, T, H] tensor holds both";
    return failure();
  }
  int64_t past = 0;
  if (c.has(4)) {
    auto pt = c.type(4);
    int64_t h = sizes[0] / n;
    if (pt.getRank() != 5 || pt.getDimSize(0) != 2 || pt.getDimSize(1) != B ||
        pt.getDimSize(2) != n || pt.getDimSize(4) != h || sizes[2] != sizes[0] ||
        pt.getElementType() != elt) {
      c.error() << "past " << pt << " must be [2, " << B << ", " << n << ", P, " << h
                << "] with V as wide as Q";
      return failure();
    }
    past = pt.getDimSize(3);
    auto part = [&](int64_t i) {
      return c.reshape(c.slice(c.in(4), 0, i, 1), {B, n, past, h});
    };
    k = c.b.create<ConcatOp>(c.loc, ValueRange{part(0), k}, c.b.getI64IntegerAttr(2));
    v = c.b.create<ConcatOp>(c.loc, ValueRange{part(1), v}, c.b.getI64IntegerAttr(2));
  }
  int64_t T = past + S;
  FailureOr<Value> y = attend(c, q, k, v, c.in(3), c.in(5), past, /*startEnd=*/true);
  if (failed(y))
    return failure();
  r.push_back(*y);
  if (wants(c, 1)) {
    auto kt = typeOf(k);
    SmallVector<int64_t> one5{1, B, n, T, kt.getDimSize(3)};
    r.push_back(c.b.create<ConcatOp>(
        c.loc, ValueRange{c.reshape(k, one5), c.reshape(v, one5)},
        c.b.getI64IntegerAttr(0)));
  }
  return success();
}

/// com.microsoft.MultiHeadAttention: query [B, S, D]; key and value [B, L,
/// D] (projected here: plus their part of the bias, split into heads, after
/// the past) or [B, N, L, H] (already heads: present is them); the padding
/// mask, attention_bias, causal masking; present_key and present_value.
LogicalResult convertMsMultiHeadAttention(NodeContext &c, Results &r) {
  if (c.has(8) || c.has(9) || wants(c, 3)) {
    c.unsupported() << "past_sequence_length, cache_indirection and the qk "
                       "output (a shared past buffer, beam search, the scores)";
    return failure();
  }
  int64_t n = c.intAttr("num_heads", 0);
  auto qt = c.type(0);
  Type elt = qt.getElementType();
  if (!c.has(1) || !c.has(2)) {
    c.unsupported() << "packed QKV (query alone; onnxruntime's CPU kernels "
                       "refuse it too)";
    return failure();
  }
  auto kt = c.type(1), vt = c.type(2);
  if (qt.getRank() != 3 || !isa<FloatType>(elt) || n < 1 || qt.getDimSize(2) % n) {
    c.error() << "query " << qt << " must be [B, S, D] with D a multiple of num_heads " << n;
    return failure();
  }
  int64_t B = qt.getDimSize(0), D = qt.getDimSize(2), h = D / n;
  if (failed(sameType(c, c.in(1), c.in(0), "key")) ||
      failed(sameType(c, c.in(2), c.in(0), "value")))
    return failure();
  bool heads4 = kt.getRank() == 4;
  if (kt.getRank() == 5) {
    c.unsupported() << "packed KV (onnxruntime's CPU kernels refuse it too)";
    return failure();
  }
  int64_t Dv = heads4 ? vt.getDimSize(1) * vt.getDimSize(3) : vt.getRank() == 3 ? vt.getDimSize(2) : 0;
  bool shapesOk =
      heads4 ? (kt.getDimSize(0) == B && kt.getDimSize(1) == n && kt.getDimSize(3) == h &&
                vt.getRank() == 4 && vt.getDimSize(0) == B && vt.getDimSize(1) == n &&
                vt.getDimSize(2) == kt.getDimSize(2))
             : (kt.getRank() == 3 && vt.getRank() == 3 && kt.getDimSize(0) == B &&
                vt.getDimSize(0) == B && kt.getDimSize(2) == D &&
                vt.getDimSize(1) == kt.getDimSize(1) && Dv % n == 0);
  if (!shapesOk) {
    c.error() << "key " << kt << " and value " << vt
              << " must be [B, L, D] (value [B, L, Dv]) or [B, N, L, H] for query " << qt;
    return failure();
  }
  Value q = c.in(0), k = c.in(1), v = c.in(2);
  if (c.has(3)) {
    auto bt = c.type(3);
    if (failed(sameType(c, c.in(3), c.in(0), "bias")) || bt.getRank() != 1 ||
        bt.getDimSize(0) != 2 * D + Dv) {
      c.error() << "bias " << bt << " must hold Q, K and V's " << 2 * D + Dv << " values";
      return failure();
    }
    q = c.b.create<AddOp>(c.loc, q, c.slice(c.in(3), 0, 0, D));
    if (!heads4) { // already projected heads take only Q's part
      k = c.b.create<AddOp>(c.loc, k, c.slice(c.in(3), 0, D, D));
      v = c.b.create<AddOp>(c.loc, v, c.slice(c.in(3), 0, 2 * D, Dv));
    }
  }
  q = splitHeads(c, q, n);
  if (!heads4) {
    k = splitHeads(c, k, n);
    v = splitHeads(c, v, n);
  }
  int64_t past = 0;
  if (c.has(6) != c.has(7) || (heads4 && c.has(6))) {
    c.error() << "past_key and past_value come together, and not with key and "
                 "value already in heads";
    return failure();
  }
  if (c.has(6)) {
    auto pk = c.type(6), pv = c.type(7);
    if (pk.getRank() != 4 || pk.getDimSize(0) != B || pk.getDimSize(1) != n ||
        pk.getDimSize(3) != h || pv.getShape() != ArrayRef<int64_t>{B, n, pk.getDimSize(2), h} ||
        Dv != D || pk.getElementType() != elt || pv.getElementType() != elt) {
      c.error() << "past_key " << pk << " and past_value " << pv << " must be [" << B
                << ", " << n << ", P, " << h << "] with V as wide as Q";
      return failure();
    }
    past = pk.getDimSize(2);
    k = c.b.create<ConcatOp>(c.loc, ValueRange{c.in(6), k}, c.b.getI64IntegerAttr(2));
    v = c.b.create<ConcatOp>(c.loc, ValueRange{c.in(7), v}, c.b.getI64IntegerAttr(2));
  }
  FailureOr<Value> y = attend(c, q, k, v, c.in(4), c.in(5), past, /*startEnd=*/false);
  if (failed(y))
    return failure();
  r.push_back(*y);
  r.push_back(wants(c, 1) ? k : Value());
  r.push_back(wants(c, 2) ? v : Value());
  return success();
}

/// `v` (int64) itself, with a run-time check that every value lies in
/// [lo, hi): a gather from a one-element table at 0 where it does, and
/// off the table where it does not, at v - lo - 1 (below) or v - hi + 1
/// (above), added to v. An out-of-range value stops the run with exit 7
/// (the gather's index out of range), as onnxruntime refuses it, instead
/// of reading a wrong row; the check's size does not grow with the range.
/// `what` names the value in the run's error (graph::kRangeCheckAttr).
FailureOr<Value> inRange(NodeContext &c, Value v, int64_t lo, int64_t hi,
                         llvm::StringRef what) {
  Type i64 = c.b.getI64Type();
  auto i = [&](int64_t x) { return c.scalar(i64, double(x)); };
  FailureOr<Value> below = one(c, "Less", {v, i(lo)});
  FailureOr<Value> above = failed(below) ? below : one(c, "GreaterOrEqual", {v, i(hi)});
  if (failed(above))
    return failure();
  Value under = c.b.create<SubOp>(c.loc, v, i(lo + 1));
  Value over = c.b.create<SubOp>(c.loc, v, i(hi - 1));
  FailureOr<Value> off = one(c, "Where", {*above, over, i(0)});
  FailureOr<Value> at = failed(off) ? off : one(c, "Where", {*below, under, *off});
  FailureOr<Value> zero =
      failed(at) ? at : one(c, "Gather", {ints(c, {1}, {0}), *at}, {attrI("axis", 0)});
  if (failed(zero))
    return failure();
  if (auto gather = zero->getDefiningOp<graph::GatherOp>()) {
    Builder &b = c.b;
    gather->setAttr(graph::kRangeCheckAttr,
                    b.getDictionaryAttr({
                        b.getNamedAttr("value", b.getStringAttr(what)),
                        b.getNamedAttr("lo", b.getI64IntegerAttr(lo)),
                        b.getNamedAttr("hi", b.getI64IntegerAttr(hi)),
                        b.getNamedAttr("shape", b.getDenseI64ArrayAttr(
                                                    cast<ShapedType>(v.getType()).getShape())),
                    }));
  }
  return one(c, "Add", {v, *zero});
}

/// What GroupQueryAttention attends and keeps with a window-sized cache.
struct WindowedKV {
  Value keys, values, presentK, presentV;
  Value kpos, seen; // [B, 1, 1, K]: each key's absolute position; whether it holds one
};

/// GroupQueryAttention's window-sized cache (sliding_window_cache = 1), as
/// onnxruntime's CPU kernel keeps it. After T tokens, rows [0, L(T)) of
/// the C rows hold the sequence's L(T) most recent positions in order,
/// the rows after zero: L(T) = T up to C, then T - G ceil((T - C) / G)
/// with G = C - W + 1 (eviction reclaims G rows at once and keeps the
/// whole window W). The keys attended are the past's L(P) resident rows,
/// P = T - S (the other rows cleared, for they hold anything), then the S
/// new ones; a first prompt has no past. `k` and `v` are the new keys in
/// heads, `tb` and `pb` T and P a sequence ([B] int64).
FailureOr<WindowedKV> windowedCache(NodeContext &c, Value k, Value v, Value tb, Value pb,
                                    int64_t C, int64_t W, bool first) {
  auto kt = typeOf(k);
  int64_t B = kt.getDimSize(0), nkv = kt.getDimSize(1), S = kt.getDimSize(2),
          h = kt.getDimSize(3);
  Type i64 = c.b.getI64Type(), elt = kt.getElementType();
  bool bad = false;
  auto op = [&](llvm::StringRef name, ArrayRef<Value> args,
                ArrayRef<onnx::AttributeProto> attrs = {}) -> Value {
    if (bad)
      return {};
    FailureOr<Value> y = one(c, name, args, attrs);
    bad = failed(y);
    return bad ? Value() : *y;
  };
  auto i = [&](int64_t x) { return c.scalar(i64, double(x)); };
  int64_t G = C - W + 1;
  auto resident = [&](Value t) {
    Value over = op("Max", {op("Sub", {t, i(C)}), i(0)});
    Value evictions = op("Div", {op("Add", {over, i(G - 1)}), i(G)});
    return op("Sub", {t, op("Mul", {evictions, i(G)})});
  };
  Value lt = resident(tb), lp = first ? ints(c, {B}, std::vector<int64_t>(B, 0)) : resident(pb);
  if (bad)
    return failure();
  WindowedKV w{k, v, {}, {}, {}, {}};
  int64_t off = 0;
  if (!first) {
    Value kept = op("Less", {c.reshape(positions(c, C), {1, 1, C, 1}), c.reshape(lp, {B, 1, 1, 1})});
    Value pk = op("Where", {kept, c.in(3), c.scalar(elt, 0.0)});
    Value pv = op("Where", {kept, c.in(4), c.scalar(elt, 0.0)});
    if (bad)
      return failure();
    w.keys = c.b.create<ConcatOp>(c.loc, ValueRange{pk, k}, c.b.getI64IntegerAttr(2));
    w.values = c.b.create<ConcatOp>(c.loc, ValueRange{pv, v}, c.b.getI64IntegerAttr(2));
    off = C;
  }
  int64_t K = off + S;
  Value pb2 = c.reshape(pb, {B, 1}), lp2 = c.reshape(lp, {B, 1}), tb2 = c.reshape(tb, {B, 1}),
        lt2 = c.reshape(lt, {B, 1});
  // Past row j holds position P - L(P) + j, new row j position P + j - off.
  Value idx = positions(c, K);
  Value fresh = op("GreaterOrEqual", {idx, i(off)});
  Value newPos = op("Add", {pb2, op("Sub", {idx, i(off)})});
  Value kpos = op("Where", {fresh, newPos, op("Add", {op("Sub", {pb2, lp2}), idx})});
  Value seen = op("Where", {fresh, op("Less", {newPos, tb2}), op("Less", {idx, lp2})});
  // Present row j: position T - L(T) + j (j < L(T)), from the past row it
  // had or the new one.
  Value rows = positions(c, C);
  Value pos = op("Add", {op("Sub", {tb2, lt2}), rows});
  Value rel = op("Sub", {pos, pb2});
  Value from = op("Where", {op("Less", {rel, i(0)}), op("Add", {rel, lp2}), op("Add", {rel, i(off)})});
  from = op("Min", {op("Max", {from, i(0)}), i(K - 1)});
  Value keep = op("Less", {rows, lt2});
  if (bad)
    return failure();
  Value at = op("Expand", {c.reshape(from, {B, 1, C, 1}), ints(c, {4}, {B, nkv, C, h})});
  Value keep4 = c.reshape(keep, {B, 1, C, 1});
  auto present = [&](Value all) {
    return op("Where", {keep4, op("GatherElements", {all, at}, {attrI("axis", 2)}),
                        c.scalar(elt, 0.0)});
  };
  w.presentK = present(w.keys);
  w.presentV = present(w.values);
  if (bad)
    return failure();
  w.kpos = c.reshape(kpos, {B, 1, 1, K});
  w.seen = c.reshape(seen, {B, 1, 1, K});
  return w;
}

/// com.microsoft.GroupQueryAttention, as onnxruntime's CPU kernel computes
/// it: sequence b holds seqlens_k[b] + 1 keys; on the first prompt (S ==
/// total_sequence_length) the past is empty, otherwise the new S keys
/// follow the first seqlens_k[b] + 1 - S of the past buffer. present_key
/// and present_value [B, Nkv, max(total, past), H] hold those keys, zeros
/// after; a query row sees the keys up to its own position (within
/// local_window_size when set), and a padding row of a first prompt all of
/// its sequence's keys. Rotary embedding of q and the new k at those
/// positions (do_rotary), attention_bias, packed QKV, softcap, head_sink
/// and smooth_softmax. With sliding_window_cache the buffers are
/// window-sized and hold the latest positions (windowedCache).
LogicalResult convertGroupQueryAttention(NodeContext &c, Results &r) {
  for (int i : {12, 13})
    if (c.has(i)) {
      c.unsupported() << "input " << i << " (KV-cache quantization scales)";
      return failure();
    }
  if (c.has(14) != c.has(15)) {
    c.error() << "q_norm_weight and k_norm_weight come together";
    return failure();
  }
  // Features onnxruntime's newer kernels add, accepted at their defaults.
  for (const char *name : {"qk_output", "k_quant_type", "v_quant_type", "kv_cache_bit_width"})
    if (const onnx::AttributeProto *a = c.attr(name)) {
      bool set = a->type() == onnx::AttributeProto::FLOAT ? a->f() != 0.0f
                 : a->type() == onnx::AttributeProto::STRING
                     ? !a->s().empty() && a->s() != "NONE"
                     : a->i() != 0;
      if (set) {
        c.unsupported() << "attribute '" << name << "'";
        return failure();
      }
    }
  if (wants(c, 3)) {
    c.unsupported() << "the output_qk output";
    return failure();
  }
  int64_t n = c.intAttr("num_heads", 0), nkv = c.intAttr("kv_num_heads", 0);
  auto qt = c.type(0);
  Type elt = qt.getElementType();
  if (qt.getRank() != 3 || !isa<FloatType>(elt) || n < 1 || nkv < 1 || n % nkv) {
    c.error() << "query " << qt << " must be [B, S, D] and num_heads " << n
              << " a multiple of kv_num_heads " << nkv;
    return failure();
  }
  int64_t B = qt.getDimSize(0), S = qt.getDimSize(1);
  if (S < 1) {
    c.error() << "query " << qt << " holds no tokens";
    return failure();
  }
  bool packed = !c.has(1);
  int64_t h = packed ? qt.getDimSize(2) / (n + 2 * nkv) : qt.getDimSize(2) / n;
  Value q = c.in(0), k = c.in(1), v = c.in(2);
  if (packed) {
    if (c.has(2) || h * (n + 2 * nkv) != qt.getDimSize(2)) {
      c.error() << "packed QKV " << qt << " must hold (num_heads + 2 kv_num_heads) heads";
      return failure();
    }
    q = c.slice(c.in(0), 2, 0, n * h);
    k = c.slice(c.in(0), 2, n * h, nkv * h);
    v = c.slice(c.in(0), 2, (n + nkv) * h, nkv * h);
  } else if (!c.has(2) || h * n != qt.getDimSize(2) ||
             c.type(1).getShape() != ArrayRef<int64_t>{B, S, nkv * h} ||
             c.type(2).getShape() != ArrayRef<int64_t>{B, S, nkv * h} ||
             failed(sameType(c, c.in(1), c.in(0), "key")) ||
             failed(sameType(c, c.in(2), c.in(0), "value"))) {
    c.error() << "key and value must be [" << B << ", " << S << ", " << nkv * h << "]";
    return failure();
  }
  // Qwen3's per-head RMS norms of Q and K (q_norm_weight, k_norm_weight,
  // as the GenAI builder fuses them for CUDA), before the rotary.
  if (c.has(14)) {
    auto norm = [&](Value x, int64_t heads, int input,
                    const char *epsName) -> FailureOr<Value> {
      auto wt = c.type(input);
      if (wt.getShape() != ArrayRef<int64_t>{h} || wt.getElementType() != elt) {
        c.error() << (input == 14 ? "q" : "k") << "_norm_weight " << c.in(input).getType()
                  << " must be [" << h << "] of the query's type";
        return failure();
      }
      const char *from = c.attr(epsName) ? epsName : "qk_norm_epsilon";
      double eps = c.floatAttr(from, 1e-6);
      if (!std::isfinite(eps) || eps <= 0) {
        c.error() << from << " " << eps << " must be finite and positive";
        return failure();
      }
      FailureOr<Value> y =
          one(c, "RMSNormalization", {c.reshape(x, {B, S, heads, h}), c.in(input)},
              {attrI("axis", 3), attrF("epsilon", eps)}, 23);
      if (failed(y))
        return failure();
      return c.reshape(*y, {B, S, heads * h});
    };
    FailureOr<Value> nq = norm(q, n, 14, "q_norm_epsilon");
    FailureOr<Value> nk = failed(nq) ? nq : norm(k, nkv, 15, "k_norm_epsilon");
    if (failed(nk))
      return failure();
    q = *nq;
    k = *nk;
  }
  auto total = c.constScalar(6, "total_sequence_length");
  if (failed(total))
    return failure();
  int64_t pbuf = 0;
  if (c.has(3) != c.has(4)) {
    c.error() << "past_key and past_value come together";
    return failure();
  }
  if (c.has(3)) {
    auto pk = c.type(3);
    if (pk.getRank() != 4 || pk.getDimSize(0) != B || pk.getDimSize(1) != nkv ||
        pk.getDimSize(3) != h || c.type(4) != pk || pk.getElementType() != elt) {
      c.error() << "past_key " << pk << " and past_value must be [" << B << ", " << nkv
                << ", P, " << h << "]";
      return failure();
    }
    pbuf = pk.getDimSize(2);
  }
  int64_t tot = int64_t(*total), tp = std::max(tot, pbuf);
  int64_t window = c.intAttr("local_window_size", -1);
  bool windowed = c.intAttr("sliding_window_cache", 0) != 0;
  // Right-padded chunks (query_seqlens): Q_b valid rows of the S, after a
  // past of P_b = T_b - Q_b; never a first prompt (total_sequence_length
  // only bounds T_b).
  bool chunked = c.has(16);
  if (chunked && (!c.has(3) || !c.intAttr("causal", 1) || tot < S ||
                  c.type(16).getShape() != ArrayRef<int64_t>{B} ||
                  !c.type(16).getElementType().isInteger(32))) {
    c.error() << "query_seqlens needs an int32 [" << B
              << "] of valid rows, past_key and past_value, causal = 1 and a "
                 "total_sequence_length of at least the query's "
              << S << " (got " << tot << ")";
    return failure();
  }
  bool first = !chunked && S == tot;
  if (windowed && (!c.has(3) || window < 1 || pbuf < window || !c.intAttr("causal", 1))) {
    c.error() << "sliding_window_cache needs a causal local_window_size W >= 1 (got " << window
              << ") and past buffers of at least W rows (got " << pbuf << ")";
    return failure();
  }
  if (windowed && tot < S) {
    c.error() << "total_sequence_length " << tot << " must be at least the query's " << S;
    return failure();
  }
  // As onnxruntime checks: a first prompt, a dynamic cache (the past then
  // the new keys) or a static one (a buffer at least that long).
  if (!windowed && !first && !chunked && tot != pbuf + S && (tot > pbuf || tot < S)) {
    c.error() << "total_sequence_length " << tot << " must be the query's " << S
              << " (a first prompt), the past's " << pbuf
              << " plus it, or at most the past's";
    return failure();
  }
  Type i64 = c.b.getI64Type();
  auto ib = [&](llvm::StringRef op, ArrayRef<Value> args) { return one(c, op, args); };
  if (c.type(5).getShape() != ArrayRef<int64_t>{B} ||
      !c.type(5).getElementType().isInteger(32) || !c.type(6).getElementType().isInteger(32)) {
    c.error() << "seqlens_k " << c.in(5).getType() << " must be int32 [" << B
              << "] and total_sequence_length int32";
    return failure();
  }
  // Per sequence: its keys (seqlens_k + 1), checked at run time against
  // what the buffers hold (a first prompt: 1 to S, all S when the cache
  // is windowed; after a past: S to total, and at most the past plus S
  // unless the cache is windowed), and its past's length.
  // A chunk: 1 to total keys, within the present buffer.
  FailureOr<Value> lens =
      chunked ? inRange(c, c.cast(c.in(5), i64), 0, windowed ? tot : std::min(tot, tp), "seqlens_k")
              : inRange(c, c.cast(c.in(5), i64), first && !windowed ? 0 : S - 1,
                        first ? S : windowed ? tot : std::min(tot, pbuf + S), "seqlens_k");
  if (failed(lens))
    return failure();
  Value tb = c.b.create<AddOp>(c.loc, *lens, c.scalar(i64, 1));
  Value pb = first ? ints(c, {B}, std::vector<int64_t>(B, 0))
                   : Value(c.b.create<SubOp>(c.loc, tb, c.scalar(i64, double(S))));
  Value validRows; // a chunk's: [B, S], true on its Q_b valid rows
  if (chunked) {
    // Q_b in [0, S]; the past P_b = T_b - Q_b in [0, the past buffer], with
    // room after it for the whole padded chunk (its padding rows land at
    // T_b and after, rows the schema leaves unspecified).
    FailureOr<Value> q = inRange(c, c.cast(c.in(16), i64), 0, S + 1, "query_seqlens");
    if (failed(q))
      return failure();
    FailureOr<Value> valid = ib("Less", {c.reshape(positions(c, S), {1, S}), c.reshape(*q, {B, 1})});
    if (failed(valid))
      return failure();
    validRows = *valid;
    FailureOr<Value> p = inRange(c, c.b.create<SubOp>(c.loc, tb, *q), 0,
                                 windowed ? tot + 1 : std::min(pbuf, tp - S) + 1,
                                 "the past's length (seqlens_k + 1 - query_seqlens)");
    if (failed(p))
      return failure();
    pb = *p;
  }
  Value steps = positions(c, S);
  if (c.intAttr("do_rotary", 0)) {
    if (!c.has(7) || !c.has(8) || c.type(7) != c.type(8) || c.type(7).getRank() != 2) {
      c.error() << "do_rotary needs cos_cache and sin_cache of one shape [positions, width]";
      return failure();
    }
    // Positions: s on a first prompt (from position_ids[0, 0] when given),
    // the past's length + s after, unless position_ids gives them.
    Value pos;
    if (c.has(9) && !first) {
      pos = c.cast(c.in(9), i64);
    } else {
      Value base = first ? (c.has(9) ? c.reshape(c.slice(c.slice(c.cast(c.in(9), i64), 0, 0, 1), 1, 0, 1), {1, 1})
                                     : c.scalar(i64, 0))
                         : c.reshape(pb, {B, 1});
      FailureOr<Value> p = ib("Add", {steps, base});
      if (failed(p))
        return failure();
      pos = *p;
    }
    // A chunk's padding rows are never read: their positions (filler
    // position_ids, or past the caches' rows) are taken as 0, as
    // onnxruntime checks only the valid rows'.
    if (validRows) {
      FailureOr<Value> kept = ib("Where", {validRows, pos, c.scalar(i64, 0)});
      if (failed(kept))
        return failure();
      pos = *kept;
    }
    FailureOr<Value> checked =
        inRange(c, pos, 0, c.type(7).getDimSize(0),
                c.has(9) ? (first ? "the rotary position (position_ids[0, 0] + the row)"
                                  : "position_ids")
                         : "the rotary position (the past's length + the row)");
    if (failed(checked))
      return failure();
    pos = *checked;
    int64_t width = c.type(7).getDimSize(1);
    auto rope = [&](Value x, int64_t heads) {
      SmallVector<onnx::AttributeProto> attrs{
          attrI("interleaved", c.intAttr("rotary_interleaved", 0)), attrI("num_heads", heads)};
      if (2 * width < h)
        attrs.push_back(attrI("rotary_embedding_dim", 2 * width));
      return one(c, "RotaryEmbedding", {x, c.in(7), c.in(8), pos}, attrs, 23);
    };
    FailureOr<Value> rq = rope(q, n), rk = failed(rq) ? rq : rope(k, nkv);
    if (failed(rk))
      return failure();
    q = *rq;
    k = *rk;
  }
  q = splitHeads(c, q, n);
  k = splitHeads(c, k, nkv);
  v = splitHeads(c, v, nkv);
  // The keys attended and the present buffers (a window-sized cache's
  // length is unrelated to the whole length, which may be far larger).
  Value tpos = windowed ? Value() : c.reshape(positions(c, tp), {1, 1, tp, 1});
  Value pb4 = c.reshape(pb, {B, 1, 1, 1});
  auto padTo = [&](Value x, int64_t len) -> FailureOr<Value> {
    int64_t have = typeOf(x).getDimSize(2);
    if (have == len)
      return x;
    return one(c, "Pad", {x, ints(c, {8}, {0, 0, 0, 0, 0, 0, len - have, 0})});
  };
  Value keys, values, presentK, presentV;
  // Each key's absolute position and whether it holds one ([B or 1, 1, 1,
  // keys]).
  Value kpos, seen;
  if (windowed) {
    FailureOr<WindowedKV> w = windowedCache(c, k, v, tb, pb, pbuf, window, first);
    if (failed(w))
      return failure();
    keys = w->keys, values = w->values, presentK = w->presentK, presentV = w->presentV;
    kpos = w->kpos, seen = w->seen;
  } else if (first) {
    FailureOr<Value> pk = padTo(k, tp), pv = failed(pk) ? pk : padTo(v, tp);
    if (failed(pv))
      return failure();
    keys = k, values = v, presentK = *pk, presentV = *pv;
  } else {
    // The new keys written over rows P_b .. P_b + S - 1 of the past
    // buffer (grown by the new rows when the cache is dynamic), in place:
    // as onnxruntime runs with past and present one buffer (the GenAI
    // runtime's past_present_share_buffer), the rows after a sequence's
    // keys keep what the buffer held there (onnxruntime zeroes them when
    // the two buffers differ). A compiler writes only the new rows.
    FailureOr<Value> rows = ib("Add", {pb4, c.reshape(steps, {1, 1, S, 1})}); // [B, 1, S, 1]
    if (failed(rows))
      return failure();
    SmallVector<Value> coords;
    for (Value x : {c.reshape(positions(c, B), {B, 1, 1, 1}),
                    c.reshape(positions(c, nkv), {1, nkv, 1, 1}), *rows}) {
      FailureOr<Value> e = ib("Expand", {x, ints(c, {4}, {B, nkv, S, 1})});
      if (failed(e))
        return failure();
      coords.push_back(*e);
    }
    Value at = c.b.create<ConcatOp>(c.loc, coords, c.b.getI64IntegerAttr(3));
    auto place = [&](Value past, Value fresh) -> FailureOr<Value> {
      FailureOr<Value> pp = padTo(past, tp);
      return failed(pp) ? pp : one(c, "ScatterND", {*pp, at, fresh});
    };
    FailureOr<Value> pk = place(c.in(3), k), pv = failed(pk) ? pk : place(c.in(4), v);
    if (failed(pv))
      return failure();
    keys = presentK = *pk, values = presentV = *pv;
  }
  // What each query row sees, as onnxruntime's kernel counts: the keys
  // t < T_b, up to its own position P_b + s when causal (so a padding row
  // of a first prompt sees all its sequence's keys), and within a window
  // the W keys up to that position, t > P_b + s - W (none when W is 0; a
  // padding row whose window holds no key is zero).
  int64_t T = typeOf(keys).getDimSize(2);
  if (!windowed) {
    kpos = c.reshape(c.slice(tpos, 2, 0, T), {1, 1, 1, T});
    FailureOr<Value> in = ib("Less", {kpos, c.reshape(tb, {B, 1, 1, 1})});
    if (failed(in))
      return failure();
    seen = *in;
  }
  Value s4 = c.reshape(steps, {1, 1, S, 1});
  FailureOr<Value> here = ib("Add", {s4, pb4}); // P_b + s
  if (failed(here))
    return failure();
  Value allowed = seen;
  if (c.intAttr("causal", 1)) {
    FailureOr<Value> upTo = ib("LessOrEqual", {kpos, *here});
    FailureOr<Value> both = failed(upTo) ? upTo : ib("And", {allowed, *upTo});
    if (failed(both))
      return failure();
    allowed = *both;
  }
  if (window >= 0) {
    FailureOr<Value> from = ib("Sub", {*here, c.scalar(i64, double(window))});
    FailureOr<Value> after = failed(from) ? from : ib("Greater", {kpos, *from});
    FailureOr<Value> both = failed(after) ? after : ib("And", {allowed, *after});
    if (failed(both))
      return failure();
    allowed = *both;
  }
  FailureOr<Value> mask = ib("Where", {allowed, c.scalar(elt, 0.0),
                                       c.scalar(elt, -std::numeric_limits<double>::infinity())});
  if (failed(mask))
    return failure();
  Value m = *mask;
  if (c.has(10)) {
    auto bt = c.type(10);
    if (failed(sameType(c, c.in(10), c.in(0), "attention_bias")) || bt.getRank() != 4 ||
        (bt.getDimSize(0) != 1 && bt.getDimSize(0) != B) ||
        (bt.getDimSize(1) != 1 && bt.getDimSize(1) != n) || bt.getDimSize(2) != S ||
        bt.getDimSize(3) != tot) {
      c.error() << "attention_bias " << bt << " must be [" << B << " or 1, " << n
                << " or 1, " << S << ", " << tot << "]";
      return failure();
    }
    Value bias = c.in(10);
    if (windowed) {
      // Columns by absolute position: each key's own.
      int64_t nb = bt.getDimSize(1);
      FailureOr<Value> col = ib("Min", {kpos, c.scalar(i64, double(tot - 1))});
      FailureOr<Value> at = failed(col) ? col : ib("Expand", {*col, ints(c, {4}, {B, nb, S, T})});
      FailureOr<Value> full =
          failed(at) ? at : ib("Expand", {bias, ints(c, {4}, {B, nb, S, tot})});
      FailureOr<Value> g = failed(full) ? full
                                        : one(c, "GatherElements", {*full, *at}, {attrI("axis", 3)});
      if (failed(g))
        return failure();
      bias = *g;
    } else if (tot < T) {
      FailureOr<Value> padded = one(c, "Pad", {bias, ints(c, {8}, {0, 0, 0, 0, 0, 0, 0, T - tot})});
      if (failed(padded))
        return failure();
      bias = *padded;
    } else if (tot > T) {
      bias = c.slice(bias, 3, 0, T);
    }
    m = c.b.create<AddOp>(c.loc, bias, m);
  }
  double softcap = c.floatAttr("softcap", 0.0);
  bool smooth = c.intAttr("smooth_softmax", 0) != 0;
  bool sink = c.has(11) || smooth;
  if (c.has(11) && (c.type(11).getNumElements() != n ||
                    !isa<FloatType>(c.type(11).getElementType()))) {
    c.error() << "head_sink " << c.in(11).getType() << " must hold one float a head (" << n
              << ")";
    return failure();
  }
  FailureOr<Value> y = softcap > 0.0 || sink
                           ? cappedAttention(c, q, keys, values, m, allowed, softcap,
                                             c.has(11) ? c.in(11) : Value(), sink)
                           : attentionCore(c, q, keys, values, m);
  if (failed(y))
    return failure();
  r.push_back(*y);
  r.push_back(wants(c, 1) ? presentK : Value());
  r.push_back(wants(c, 2) ? presentV : Value());
  return success();
}

/// com.microsoft.RotaryEmbedding: ONNX's RotaryEmbedding (opset 23) with
/// onnxruntime's inputs: position_ids [B, S], or one offset the positions
/// count from; a 3-d input without num_heads has heads of twice the
/// caches' width.
LogicalResult convertMsRotaryEmbedding(NodeContext &c, Results &r) {
  // scale and is_packed_batching: read, never used by onnxruntime's CPU
  // kernel.
  c.ignoreAttrs({"scale", "is_packed_batching"});
  auto xt = c.type(0), pt = c.type(1), ct = c.type(2);
  int64_t heads = c.intAttr("num_heads", 0), rot = c.intAttr("rotary_embedding_dim", 0);
  if ((xt.getRank() != 3 && xt.getRank() != 4) || ct.getRank() != 2 ||
      c.type(3) != ct || !pt.getElementType().isInteger(64)) {
    c.error() << "input " << xt << " must be 3-d or 4-d, the caches 2-d of one shape and "
                                   "position_ids int64";
    return failure();
  }
  if (rot > 0 && heads == 0) {
    c.error() << "rotary_embedding_dim needs num_heads";
    return failure();
  }
  int64_t S = xt.getDimSize(xt.getRank() == 4 ? 2 : 1);
  if (xt.getRank() == 3 && heads == 0) {
    int64_t h = 2 * ct.getDimSize(1);
    if (h < 2 || xt.getDimSize(2) % h) {
      c.error() << "the caches' width " << ct.getDimSize(1)
                << " must be half a head of the hidden size " << xt.getDimSize(2);
      return failure();
    }
    heads = xt.getDimSize(2) / h;
  }
  Value pos = c.in(1);
  if (pt.getNumElements() == 1) {
    // Positions from an offset: p + s.
    FailureOr<Value> from = one(c, "Add", {positions(c, S), c.reshape(pos, {1, 1})});
    if (failed(from))
      return failure();
    pos = *from;
  } else if (pt.getRank() != 2 || pt.getDimSize(1) != S) {
    c.error() << "position_ids " << pt << " must be [B, " << S << "] or one offset";
    return failure();
  }
  // Positions outside the caches stop the run, as onnxruntime refuses
  // them (a negative one would otherwise wrap to the cache's end).
  FailureOr<Value> checked =
      inRange(c, pos, 0, ct.getDimSize(0),
              pt.getNumElements() == 1 ? "the position (position_ids + the row)"
                                       : "position_ids");
  if (failed(checked))
    return failure();
  pos = *checked;
  SmallVector<onnx::AttributeProto> attrs{attrI("interleaved", c.intAttr("interleaved", 0))};
  if (heads)
    attrs.push_back(attrI("num_heads", heads));
  if (rot)
    attrs.push_back(attrI("rotary_embedding_dim", rot));
  FailureOr<Value> y = one(c, "RotaryEmbedding", {c.in(0), c.in(2), c.in(3), pos}, attrs, 23);
  if (failed(y))
    return failure();
  r.push_back(*y);
  return success();
}

/// com.microsoft.EmbedLayerNormalization: word, position (0 .. S-1 unless
/// given) and segment embeddings summed, then LayerNormalization; the
/// mask's count of ones a sequence (int32, zeros without a mask) and the
/// sum.
LogicalResult convertEmbedLayerNorm(NodeContext &c, Results &r) {
  c.ignoreAttrs({"mask_index_type"}); // onnxruntime's CPU kernel counts ones
  auto it = c.type(0);
  if (it.getRank() != 2) {
    c.error() << "input_ids " << it << " must be [B, S]";
    return failure();
  }
  int64_t B = it.getDimSize(0), S = it.getDimSize(1);
  auto gather = [&](Value table, Value ids) {
    return one(c, "Gather", {table, ids}, {attrI("axis", 0)});
  };
  FailureOr<Value> e = gather(c.in(2), c.in(0));
  if (failed(e))
    return failure();
  Value pos = c.has(8) ? c.in(8) : positions(c, S);
  FailureOr<Value> p = gather(c.in(3), pos);
  if (failed(p))
    return failure();
  FailureOr<Value> ep = add(c, *e, *p);
  if (failed(ep))
    return failure();
  Value sum = *ep;
  if (c.has(1) != c.has(4)) {
    c.error() << "segment_ids and segment_embedding come together";
    return failure();
  }
  if (c.has(1)) {
    FailureOr<Value> sg = gather(c.in(4), c.in(1));
    if (failed(sg))
      return failure();
    FailureOr<Value> withSeg = add(c, sum, *sg);
    if (failed(withSeg))
      return failure();
    sum = *withSeg;
  }
  if (typeOf(sum).getShape() != ArrayRef<int64_t>{B, S, typeOf(*e).getDimSize(2)}) {
    c.error() << "the embeddings sum to " << sum.getType() << ", not [" << B << ", " << S
              << ", hidden]";
    return failure();
  }
  FailureOr<Value> y = one(c, "LayerNormalization", {sum, c.in(5), c.in(6)},
                           {attrI("axis", -1), attrF("epsilon", c.floatAttr("epsilon", 1e-12))},
                           17);
  if (failed(y))
    return failure();
  r.push_back(*y);
  Type i32 = c.b.getI32Type();
  if (c.has(7)) {
    FailureOr<Value> ones = one(c, "Equal", {c.cast(c.in(7), i32), c.scalar(i32, 1)});
    if (failed(ones))
      return failure();
    r.push_back(c.b.create<ReduceSumOp>(c.loc, c.cast(*ones, i32),
                                        c.b.getDenseI64ArrayAttr({1}),
                                        c.b.getBoolAttr(false)));
  } else {
    r.push_back(c.constant(ref::Tensor(ref::DType::I32, {B})));
  }
  r.push_back(sum);
  return success();
}

} // namespace

const llvm::StringMap<Converter> &dfa::onnximport::contribConverters() {
  static const llvm::StringMap<Converter> table = [] {
    llvm::StringMap<Converter> t;
    t["com.microsoft.Gelu"] = convertGelu<false>;
    t["com.microsoft.BiasGelu"] = convertGelu<false>;
    t["com.microsoft.FastGelu"] = convertGelu<true>;
    t["com.microsoft.QuickGelu"] = convertQuickGelu;
    t["com.microsoft.BiasAdd"] = convertBiasAdd;
    t["com.microsoft.FusedConv"] = convertFusedConv;
    t["com.microsoft.FusedGemm"] = convertFusedGemm;
    t["com.microsoft.FusedMatMul"] = convertFusedMatMul;
    t["com.microsoft.MatMulNBits"] = convertMatMulNBits;
    t["com.microsoft.GatherBlockQuantized"] = convertGatherBlockQuantized;
    t["com.microsoft.MoE"] = convertMoE;
    t["com.microsoft.QMoE"] = convertQMoE;
    for (const char *q : {"QLinearAdd", "QLinearMul", "QLinearSigmoid", "QLinearLeakyRelu",
                          "QLinearSoftmax", "QLinearAveragePool", "QLinearGlobalAveragePool"})
      t[std::string("com.microsoft.") + q] = convertQLinear;
    t["com.microsoft.QLinearConcat"] = convertQLinearConcat;
    t["com.microsoft.QGemm"] = convertQGemm;
    t["com.microsoft.MatMulIntegerToFloat"] = convertMatMulIntegerToFloat;
    t["com.microsoft.DynamicQuantizeMatMul"] = convertDynamicQuantizeMatMul;
    t["com.microsoft.Attention"] = convertMsAttention;
    t["com.microsoft.MultiHeadAttention"] = convertMsMultiHeadAttention;
    t["com.microsoft.RotaryEmbedding"] = convertMsRotaryEmbedding;
    t["com.microsoft.GroupQueryAttention"] = convertGroupQueryAttention;
    t["com.microsoft.EmbedLayerNormalization"] = convertEmbedLayerNorm;
    t["com.microsoft.SkipLayerNormalization"] = convertSkipLayerNorm;
    t["com.microsoft.SkipSimplifiedLayerNormalization"] =
        convertSkipSimplifiedLayerNorm;
    t["SimplifiedLayerNormalization"] = convertSimplifiedLayerNorm;
    return t;
  }();
  return table;
}
