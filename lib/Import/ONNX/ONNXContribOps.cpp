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

Value add(NodeContext &c, Value a, Value b) {
  return b ? Value(c.b.create<AddOp>(c.loc, a, b)) : a;
}

/// One standard op of the default domain on `inputs`, its first result.
FailureOr<Value> one(NodeContext &c, llvm::StringRef op, ArrayRef<Value> inputs,
                     ArrayRef<onnx::AttributeProto> attrs = {},
                     int64_t minOpset = 0) {
  SmallVector<Value> out;
  if (failed(c.delegate(op, inputs, attrs, 1, out, minOpset)))
    return failure();
  return out.front();
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

/// Gelu with erf (com.microsoft.Gelu), or of A + B (BiasGelu).
LogicalResult convertGelu(NodeContext &c, Results &r) {
  Value x = c.in(0);
  if (c.has(1)) {
    if (failed(sameType(c, c.in(1), x, "B")))
      return failure();
    x = add(c, x, c.in(1));
  }
  r.push_back(c.b.create<GeluOp>(c.loc, x, c.b.getBoolAttr(false)));
  return success();
}

/// FastGelu: the tanh approximation of Gelu, of X + bias.
LogicalResult convertFastGelu(NodeContext &c, Results &r) {
  if (failed(sameType(c, c.in(1), c.in(0), "bias")))
    return failure();
  r.push_back(c.b.create<GeluOp>(c.loc, add(c, c.in(0), c.in(1)),
                                 c.b.getBoolAttr(true)));
  return success();
}

/// QuickGelu: x * sigmoid(alpha * x).
LogicalResult convertQuickGelu(NodeContext &c, Results &r) {
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
  r.push_back(add(c, add(c, c.in(0), c.in(1)), c.in(2)));
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
    sum = add(c, sum, c.in(3));
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
  // accuracy_level picks how onnxruntime computes (an int8 A at level 4);
  // dfa computes in A's type, onnxruntime's level 0.
  c.ignoreAttrs({"accuracy_level"});
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
  ref::DType narrow = bits == 2 ? ref::DType::U2
                      : bits == 4 ? ref::DType::U4
                                  : ref::DType::U8;
  uint64_t mask = (1u << bits) - 1;
  // The codes unpacked, [N, blocks, block] (B's padding past K kept, cut
  // after), so that each block's scale and zero point [N, blocks, 1]
  // broadcast over it: the product's kernel reads them as stored
  // (graph::dequantizedOperand).
  // Without the weights' data (--no-weights) the codes are zeros, in the
  // same types and shapes.
  auto unpack = [&](const ref::Tensor &packed, ArrayRef<int64_t> shape,
                    int64_t count, int64_t rowBytes) {
    ref::Tensor out(narrow, shape);
    if (!packed.defined())
      return out;
    const uint8_t *src = packed.data<uint8_t>();
    uint8_t *dst = out.data<uint8_t>();
    for (int64_t n = 0; n < N; ++n)
      for (int64_t k = 0; k < count; ++k) {
        int64_t bit = k * bits;
        dst[n * count + k] =
            uint8_t((src[n * rowBytes + bit / 8] >> (bit % 8)) & mask);
      }
    return out;
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
    ref::Tensor mid(narrow, {N, blocks, 1});
    std::fill_n(mid.data<uint8_t>(), N * blocks, uint8_t(1u << (bits - 1)));
    zero = c.constant(mid);
  }
  Value w = c.b.create<MulOp>(
      c.loc, c.b.create<SubOp>(c.loc, c.cast(codes, elt), c.cast(zero, elt)), scales);
  w = c.reshape(w, {N, blocks * block});
  if (blocks * block != K)
    w = c.slice(w, 1, 0, K);
  FailureOr<Value> y = one(c, "MatMul", {c.in(0), swapLast(c, w)});
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
  r.push_back(add(c, *y, c.in(5)));
  return success();
}

//===----------------------------------------------------------------------===//
// Normalizations
//===----------------------------------------------------------------------===//

/// SimplifiedLayerNormalization: RMSNormalization, and its 1 / rms.
LogicalResult convertSimplifiedLayerNorm(NodeContext &c, Results &r) {
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

} // namespace

const llvm::StringMap<Converter> &dfa::onnximport::contribConverters() {
  static const llvm::StringMap<Converter> table = [] {
    llvm::StringMap<Converter> t;
    t["com.microsoft.Gelu"] = convertGelu;
    t["com.microsoft.BiasGelu"] = convertGelu;
    t["com.microsoft.FastGelu"] = convertFastGelu;
    t["com.microsoft.QuickGelu"] = convertQuickGelu;
    t["com.microsoft.BiasAdd"] = convertBiasAdd;
    t["com.microsoft.FusedConv"] = convertFusedConv;
    t["com.microsoft.FusedGemm"] = convertFusedGemm;
    t["com.microsoft.FusedMatMul"] = convertFusedMatMul;
    t["com.microsoft.MatMulNBits"] = convertMatMulNBits;
    t["com.microsoft.SkipLayerNormalization"] = convertSkipLayerNorm;
    t["com.microsoft.SkipSimplifiedLayerNormalization"] =
        convertSkipSimplifiedLayerNorm;
    t["SimplifiedLayerNormalization"] = convertSimplifiedLayerNorm;
    return t;
  }();
  return table;
}
