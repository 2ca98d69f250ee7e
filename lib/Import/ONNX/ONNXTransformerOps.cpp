//===- ONNXTransformerOps.cpp - ONNX's transformer ops (opsets 23+) -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The ops ONNX added for transformer models, imported as the subgraphs the
/// spec defines them by (matmuls, softmax, elementwise ops), so that every
/// target and pass sees the forms it already knows; graph-raise turns the
/// attention core back into `graph.attention` where a target has a fused
/// kernel for it.
///   Attention (23): MHA, GQA and MQA, 3-d or 4-d, a bool or float mask (a
///     short one padded), causal masking aligned to the KV cache, an
///     internal cache (past/present key and value), an external one
///     (nonpad_kv_seqlen), a sliding window (25), softcap, the softmax
///     precision and the four qk_matmul_output modes; a query row with no
///     key to attend is zero, as the spec says.
///   RMSNormalization (23), RotaryEmbedding (23), Swish (24), SwiGLU (28),
///   TensorScatter (24, the KV-cache update).
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

bool wants(NodeContext &c, int i) {
  return c.node.output_size() > i && !c.node.output(i).empty();
}

Value transpose(NodeContext &c, Value v, ArrayRef<int64_t> perm) {
  return c.b.create<TransposeOp>(c.loc, v, c.b.getDenseI64ArrayAttr(perm));
}

} // namespace

Value dfa::onnximport::splitHeads(NodeContext &c, Value v, int64_t heads) {
  auto t = typeOf(v);
  int64_t b = t.getDimSize(0), s = t.getDimSize(1), h = t.getDimSize(2);
  return transpose(c, c.reshape(v, {b, s, heads, h / heads}), {0, 2, 1, 3});
}

// (Built on the host: rows x cols doubles. Sequences past 4K x 4K keys
// would want it as ops; the importer refuses those below.)
Value dfa::onnximport::biasOf(NodeContext &c, Type elt, int64_t rows, int64_t cols,
                              llvm::function_ref<bool(int64_t, int64_t)> keep) {
  std::vector<double> v(rows * cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      v[i * cols + j] = keep(i, j) ? 0.0 : -std::numeric_limits<double>::infinity();
  return c.cast(c.constant(ref::Tensor::fromDoubles(ref::DType::F64, {rows, cols}, v)),
                elt);
}

namespace {

Value add(NodeContext &c, Value a, Value b) {
  return a ? Value(c.b.create<AddOp>(c.loc, a, b)) : b;
}

/// The last dim of `mask` padded with `fill` up to `len`.
Value padLast(NodeContext &c, Value mask, int64_t len, double fill) {
  auto t = typeOf(mask);
  int64_t r = t.getRank(), pad = len - t.getShape().back();
  if (pad <= 0)
    return mask;
  SmallVector<int64_t> pads(2 * r, 0);
  pads[2 * r - 1] = pad;
  return c.b.create<PadOp>(c.loc, mask, c.b.getDenseI64ArrayAttr(pads),
                           c.b.getStringAttr("constant"), c.b.getF64FloatAttr(fill));
}

LogicalResult convertAttention(NodeContext &c, Results &r) {
  Value q = c.in(0), k = c.in(1), v = c.in(2);
  auto qt = typeOf(q);
  int64_t rank = qt.getRank();
  Type elt = qt.getElementType();
  if (!isa<FloatType>(elt) || (rank != 3 && rank != 4) ||
      typeOf(k).getRank() != rank || typeOf(v).getRank() != rank) {
    c.error() << "Q, K and V must be float tensors of one rank, 3 or 4";
    return failure();
  }
  int64_t qHeads = c.intAttr("q_num_heads", 0), kvHeads = c.intAttr("kv_num_heads", 0);
  if (rank == 3) {
    if (qHeads < 1 || kvHeads < 1 || qt.getDimSize(2) % qHeads ||
        typeOf(k).getDimSize(2) % kvHeads || typeOf(v).getDimSize(2) % kvHeads) {
      c.error() << "3-d Q, K and V need q_num_heads and kv_num_heads that "
                   "divide their hidden sizes";
      return failure();
    }
    q = splitHeads(c, q, qHeads);
    k = splitHeads(c, k, kvHeads);
    v = splitHeads(c, v, kvHeads);
  } else if (c.attr("q_num_heads") || c.attr("kv_num_heads")) {
    if (c.opset >= 25) {
      c.error() << "q_num_heads and kv_num_heads are for 3-d inputs only";
      return failure();
    }
  }
  if (c.has(4) != c.has(5)) {
    c.error() << "past_key and past_value come together";
    return failure();
  }
  if (c.has(4) && (typeOf(c.in(4)).getRank() != 4 || typeOf(c.in(5)).getRank() != 4)) {
    c.error() << "past_key and past_value must be 4-d";
    return failure();
  }
  if (c.has(3) && typeOf(c.in(3)).getRank() < 1) {
    c.error() << "attn_mask must have a key dim";
    return failure();
  }
  if (c.has(6) && c.has(4)) {
    c.error() << "nonpad_kv_seqlen cannot be combined with past_key";
    return failure();
  }
  int64_t batch = typeOf(q).getDimSize(0), hq = typeOf(q).getDimSize(1),
          lq = typeOf(q).getDimSize(2), d = typeOf(q).getDimSize(3);
  int64_t past = c.has(4) ? typeOf(c.in(4)).getDimSize(2) : 0;
  if (c.has(4)) {
    k = c.b.create<ConcatOp>(c.loc, ValueRange{c.in(4), k}, c.b.getI64IntegerAttr(2));
    v = c.b.create<ConcatOp>(c.loc, ValueRange{c.in(5), v}, c.b.getI64IntegerAttr(2));
  }
  Value presentK = k, presentV = v;
  int64_t hk = typeOf(k).getDimSize(1), lk = typeOf(k).getDimSize(2),
          dv = typeOf(v).getDimSize(3);
  if (typeOf(k).getDimSize(0) != batch || typeOf(v).getDimSize(0) != batch ||
      typeOf(k).getDimSize(3) != d ||
      typeOf(v).getDimSize(1) != hk || typeOf(v).getDimSize(2) != lk ||
      hk < 1 || hq % hk) {
    c.error() << "K " << k.getType() << " and V " << v.getType()
              << " do not fit Q " << q.getType();
    return failure();
  }
  // Grouped-query attention: each KV head serves hq / hk query heads
  // ([h0, h0, h1, h1, ...]).
  auto repeatHeads = [&](Value x) -> Value {
    if (hk == hq)
      return x;
    auto t = typeOf(x);
    int64_t reps = hq / hk, len = t.getDimSize(2), depth = t.getDimSize(3);
    Value e = c.reshape(x, {batch, hk, 1, len, depth});
    e = c.b.create<ExpandOp>(
        c.loc, RankedTensorType::get({batch, hk, reps, len, depth}, elt), e);
    return c.reshape(e, {batch, hq, len, depth});
  };
  Value kr = repeatHeads(k), vr = repeatHeads(v);

  // The additive bias [.., lq, lk]: the mask, causal frontier, window and
  // padding, each 0 where a key may be attended and -inf where not.
  double negInf = -std::numeric_limits<double>::infinity();
  bool causal = c.intAttr("is_causal", 0) != 0;
  int64_t left = c.intAttr("left_window_size", -1),
          right = c.intAttr("right_window_size", -1);
  if (left < -1 || right < -1) {
    c.error() << "window sizes are -1 or nonnegative";
    return failure();
  }
  Value bias;
  if (c.has(3)) {
    Value mask = c.in(3);
    if (typeOf(mask).getShape().back() > lk) {
      c.error() << "attn_mask " << mask.getType() << " is longer than the "
                << lk << " keys";
      return failure();
    }
    bool isBool = typeOf(mask).getElementType().isInteger(1);
    mask = padLast(c, mask, lk, isBool ? 0.0 : negInf);
    if (isBool)
      mask = c.b.create<WhereOp>(c.loc, mask, c.scalar(elt, 0), c.scalar(elt, negInf));
    else if (typeOf(mask).getElementType() != elt)
      mask = c.cast(mask, elt);
    bias = mask;
  }
  // Keys before the query block: the internal cache's length, or per batch
  // nonpad_kv_seqlen - lq for an external one.
  Value offsets;
  if (c.has(6)) {
    Value n = c.cast(c.in(6), c.b.getI64Type());
    if (typeOf(n).getNumElements() != batch) {
      c.error() << "nonpad_kv_seqlen must hold one length per batch";
      return failure();
    }
    offsets = c.b.create<SubOp>(c.loc, c.reshape(n, {batch, 1, 1, 1}),
                                c.scalar(c.b.getI64Type(), double(lq)));
  }
  // Static frontiers are constants; with per-batch offsets the difference
  // i + offset - j is computed, [B, 1, lq, lk].
  if ((causal || left >= 0 || right >= 0) && lq * lk > (int64_t(1) << 24)) {
    c.unsupported() << "a causal or windowed mask over " << lq << " x " << lk
                    << " scores (more than 2^24)";
    return failure();
  }
  auto staticBias = [&](llvm::function_ref<bool(int64_t)> keepDiff) -> Value {
    return biasOf(c, elt, lq, lk, [&](int64_t i, int64_t j) {
      return keepDiff(i + past - j);
    });
  };
  auto offsetDiff = [&]() -> Value {
    std::vector<int64_t> x(lq * lk);
    for (int64_t i = 0; i < lq; ++i)
      for (int64_t j = 0; j < lk; ++j)
        x[i * lk + j] = i - j;
    Value diff = c.constant(ref::Tensor::fromInts(ref::DType::I64, {lq, lk}, x));
    return c.b.create<AddOp>(c.loc, diff, offsets);
  };
  auto keepIf = [&](Value diff, bool upper, int64_t bound) -> Value {
    // 0 where diff <= bound (upper) or -diff <= bound, else -inf.
    Value lim = c.scalar(c.b.getI64Type(), double(bound));
    Value ok = upper ? Value(c.b.create<LessEqualOp>(c.loc, diff, lim))
                     : Value(c.b.create<GreaterEqualOp>(
                           c.loc, diff, c.scalar(c.b.getI64Type(), double(-bound))));
    return c.b.create<WhereOp>(c.loc, ok, c.scalar(elt, 0), c.scalar(elt, negInf));
  };
  if (causal) {
    if (!offsets)
      bias = add(c, bias, staticBias([](int64_t diff) { return diff >= 0; }));
    else
      bias = add(c, bias, keepIf(offsetDiff(), false, 0));
  }
  if (left >= 0 || right >= 0) {
    if (!offsets) {
      bias = add(c, bias, staticBias([&](int64_t diff) {
                   return (left < 0 || diff <= left) && (right < 0 || -diff <= right);
                 }));
    } else {
      Value diff = offsetDiff();
      if (left >= 0)
        bias = add(c, bias, keepIf(diff, true, left));
      if (right >= 0)
        bias = add(c, bias, keepIf(diff, false, right));
    }
  }
  if (c.has(6)) {
    // Keys past each sample's length are padding.
    std::vector<int64_t> js(lk);
    for (int64_t j = 0; j < lk; ++j)
      js[j] = j;
    Value idx = c.constant(ref::Tensor::fromInts(ref::DType::I64, {lk}, js));
    Value n = c.reshape(c.cast(c.in(6), c.b.getI64Type()), {batch, 1, 1, 1});
    Value ok = c.b.create<LessOp>(c.loc, idx, n);
    bias = add(c, bias,
               c.b.create<WhereOp>(c.loc, ok, c.scalar(elt, 0), c.scalar(elt, negInf)));
  }

  // The scores, scaled (default 1/sqrt(head size)), soft-capped.
  double scale = c.floatAttr("scale", 1.0 / std::sqrt(double(d)));
  Value scores = c.b.create<MatMulOp>(c.loc, q, transpose(c, kr, {0, 1, 3, 2}));
  scores = c.b.create<MulOp>(c.loc, scores, c.scalar(elt, scale));
  int64_t mode = c.intAttr("qk_matmul_output_mode", 0);
  if (mode < 0 || mode > 3) {
    c.error() << "qk_matmul_output_mode must be 0 to 3";
    return failure();
  }
  Value qk = scores;
  double softcap = c.floatAttr("softcap", 0.0);
  if (softcap > 0) {
    scores = c.b.create<MulOp>(
        c.loc,
        c.b.create<TanhOp>(c.loc, c.b.create<DivOp>(c.loc, scores, c.scalar(elt, softcap))),
        c.scalar(elt, softcap));
    // The onnx reference reports the soft-capped scores in modes 0 and 1.
    if (mode <= 1)
      qk = scores;
  }
  Value withBias = bias ? Value(c.b.create<AddOp>(c.loc, scores, bias)) : scores;
  if (mode == 2)
    qk = withBias;
  Value logits = withBias;
  if (const auto *p = c.attr("softmax_precision")) {
    Type st = elementType(int(p->i()), c.ctx());
    if (!st || !isa<FloatType>(st)) {
      c.error() << "softmax_precision must name a float type";
      return failure();
    }
    logits = c.cast(logits, st);
  }
  Value probs = c.b.create<SoftmaxOp>(c.loc, logits, c.b.getI64IntegerAttr(3));
  // A query row the bias masks entirely attends nothing: zero, not NaN. A
  // bias made only of the static causal frontier and window is checked here
  // instead, so the common causal case stays the pattern graph-raise knows.
  bool mayMaskRows = c.has(3) || c.has(6);
  for (int64_t i = 0; i < lq && !mayMaskRows; ++i) {
    bool any = false;
    for (int64_t j = 0; j < lk && !any; ++j) {
      int64_t diff = i + past - j;
      any = (!causal || diff >= 0) && (left < 0 || diff <= left) &&
            (right < 0 || -diff <= right);
    }
    mayMaskRows = !any;
  }
  if (bias && mayMaskRows) {
    auto bt = typeOf(bias);
    Value rowMax = c.b.create<ReduceMaxOp>(
        c.loc, bias, c.b.getDenseI64ArrayAttr({bt.getRank() - 1}), c.b.getBoolAttr(true));
    Value none = c.b.create<EqualOp>(c.loc, rowMax, c.scalar(elt, negInf));
    probs = c.b.create<WhereOp>(c.loc, none, c.scalar(typeOf(probs).getElementType(), 0),
                                probs);
  }
  probs = c.cast(probs, elt);
  if (mode == 3)
    qk = probs;
  Value y = c.b.create<MatMulOp>(c.loc, probs, vr);
  if (rank == 3)
    y = c.reshape(transpose(c, y, {0, 2, 1, 3}), {batch, lq, hq * dv});
  r.push_back(y);
  r.push_back(wants(c, 1) ? presentK : Value());
  r.push_back(wants(c, 2) ? presentV : Value());
  r.push_back(wants(c, 3) ? qk : Value());
  return success();
}

/// The KV-cache update (opset 24): `update` written into `past_cache` along
/// `axis` from each batch entry's write index (0 without write_indices),
/// modulo the cache length in circular mode.
LogicalResult convertTensorScatter(NodeContext &c, Results &r) {
  auto ct = c.type(0), ut = c.type(1);
  int64_t rank = ct.getRank();
  auto axis = c.axis(c.intAttr("axis", -2), rank);
  if (failed(axis))
    return failure();
  std::string mode = c.strAttr("mode", "linear");
  if (mode != "linear" && mode != "circular") {
    c.error() << "unknown mode '" << mode << "'";
    return failure();
  }
  bool fits = *axis > 0 && ut.getRank() == rank &&
              ut.getElementType() == ct.getElementType() &&
              ut.getDimSize(*axis) <= ct.getDimSize(*axis);
  for (int64_t d = 0; fits && d < rank; ++d)
    fits = d == *axis || ut.getDimSize(d) == ct.getDimSize(d);
  if (!fits) {
    c.error() << "update " << c.in(1).getType() << " does not fit past_cache "
              << c.in(0).getType() << " along axis " << *axis;
    return failure();
  }
  Type i64 = c.b.getI64Type();
  int64_t steps = ut.getDimSize(*axis), batch = ct.getDimSize(0);
  SmallVector<int64_t> along(rank, 1), perBatch(rank, 1);
  along[*axis] = steps;
  perBatch[0] = batch;
  std::vector<int64_t> iota(steps);
  for (int64_t i = 0; i < steps; ++i)
    iota[i] = i;
  Value idx = c.constant(ref::Tensor::fromInts(ref::DType::I64, along, iota));
  if (c.has(2)) {
    if (typeOf(c.in(2)).getNumElements() != batch) {
      c.error() << "write_indices must hold one index per batch entry";
      return failure();
    }
    idx = c.b.create<AddOp>(c.loc, c.reshape(c.cast(c.in(2), i64), perBatch), idx);
  }
  if (mode == "circular")
    idx = c.b.create<ModOp>(c.loc, idx, c.scalar(i64, double(ct.getDimSize(*axis))),
                            c.b.getBoolAttr(false));
  idx = c.b.create<ExpandOp>(c.loc, RankedTensorType::get(ut.getShape(), i64), idx);
  r.push_back(c.b.create<ScatterElementsOp>(c.loc, c.in(0), idx, c.in(1),
                                            c.b.getI64IntegerAttr(*axis),
                                            c.b.getStringAttr("none")));
  return success();
}

/// x / sqrt(mean(x^2 over the dims from axis) + epsilon) * scale.
LogicalResult convertRMSNorm(NodeContext &c, Results &r) {
  auto t = c.type(0);
  auto axis = c.axis(c.intAttr("axis", -1), t.getRank());
  if (failed(axis))
    return failure();
  if (int64_t stash = c.intAttr("stash_type", 1); stash != 1) {
    c.unsupported() << "stash_type " << stash << " (only 1, float)";
    return failure();
  }
  if (!isa<FloatType>(t.getElementType())) {
    c.error() << "X must be a float tensor";
    return failure();
  }
  SmallVector<int64_t> axes;
  for (int64_t dim = *axis; dim < t.getRank(); ++dim)
    axes.push_back(dim);
  // The statistics in float (stash_type 1), as the spec says; a 16-bit
  // x^2 would overflow at |x| > 256.
  Type elt = t.getElementType(), f32 = c.b.getF32Type();
  bool narrow = elementBits(elt) < 32;
  Value x = narrow ? c.cast(c.in(0), f32) : c.in(0);
  Value sq = c.b.create<MulOp>(c.loc, x, x);
  Value mean = c.b.create<ReduceMeanOp>(c.loc, sq, c.b.getDenseI64ArrayAttr(axes),
                                        c.b.getBoolAttr(true));
  Type st = typeOf(x).getElementType();
  Value rms = c.b.create<SqrtOp>(
      c.loc, c.b.create<AddOp>(c.loc, mean, c.scalar(st, c.floatAttr("epsilon", 1e-5))));
  Value y = c.cast(c.b.create<DivOp>(c.loc, x, rms), elt);
  Value scale = c.in(1);
  if (typeOf(scale).getElementType() != elt)
    scale = c.cast(scale, elt);
  r.push_back(c.b.create<MulOp>(c.loc, y, scale));
  return success();
}

/// Rotates pairs of each head's first rotary_embedding_dim features by the
/// cached angles of their positions (half-split or interleaved pairs).
LogicalResult convertRotaryEmbedding(NodeContext &c, Results &r) {
  Value x = c.in(0);
  auto t = typeOf(x);
  int64_t rank = t.getRank();
  Type elt = t.getElementType();
  if (rank != 3 && rank != 4) {
    c.error() << "X must be 3-d or 4-d";
    return failure();
  }
  int64_t b = t.getDimSize(0);
  if (t.getNumElements() == 0) {
    r.push_back(x);
    return success();
  }
  // To [B, S, H, D]; num_heads is needed for 3-d X only.
  Value h = x;
  int64_t heads = c.intAttr("num_heads", 0);
  if (rank == 4) {
    if (heads && heads != t.getDimSize(1)) {
      c.error() << "num_heads " << heads << " differs from X's " << t.getDimSize(1);
      return failure();
    }
    h = transpose(c, x, {0, 2, 1, 3});
  } else {
    if (heads < 1 || t.getDimSize(2) % heads) {
      c.error() << "3-d X needs num_heads that divides its hidden size";
      return failure();
    }
    h = c.reshape(x, {b, t.getDimSize(1), heads, t.getDimSize(2) / heads});
  }
  auto ht = typeOf(h);
  int64_t s = ht.getDimSize(1), d = ht.getDimSize(3);
  heads = ht.getDimSize(2);
  int64_t rot = c.intAttr("rotary_embedding_dim", 0);
  if (rot == 0)
    rot = d;
  if (rot < 2 || rot > d || rot % 2) {
    c.error() << "rotary_embedding_dim must be even and at most the head size";
    return failure();
  }
  int64_t half = rot / 2;
  Value cosC = c.in(1), sinC = c.in(2);
  if (c.has(3)) {
    cosC = c.b.create<GatherOp>(c.loc, cosC, c.in(3), c.b.getI64IntegerAttr(0));
    sinC = c.b.create<GatherOp>(c.loc, sinC, c.in(3), c.b.getI64IntegerAttr(0));
  }
  for (Value *cache : {&cosC, &sinC}) {
    auto ct = typeOf(*cache);
    if (ct.getShape().back() != half || ct.getNumElements() % (s * half) ||
        (ct.getRank() == 3 && ct.getDimSize(1) != s) ||
        (ct.getRank() == 2 && ct.getDimSize(0) != s)) {
      c.error() << "cos and sin caches must be [" << s << ", " << half
                << "] per batch (with position_ids gathered)";
      return failure();
    }
    SmallVector<int64_t> shape = ct.getRank() == 3
                                     ? SmallVector<int64_t>{ct.getDimSize(0), s, 1, half}
                                     : SmallVector<int64_t>{s, 1, half};
    *cache = c.reshape(*cache, shape);
    if (ct.getElementType() != elt)
      *cache = c.cast(*cache, elt);
  }
  auto slice = [&](Value v, int64_t start, int64_t count, int64_t step) {
    return c.slice(v, typeOf(v).getRank() - 1, start, count, step);
  };
  bool interleaved = c.intAttr("interleaved", 0) != 0;
  Value x1 = interleaved ? slice(h, 0, half, 2) : slice(h, 0, half, 1);
  Value x2 = interleaved ? slice(h, 1, half, 2) : slice(h, half, half, 1);
  Value real = c.b.create<SubOp>(c.loc, c.b.create<MulOp>(c.loc, cosC, x1),
                                 c.b.create<MulOp>(c.loc, sinC, x2));
  Value imag = c.b.create<AddOp>(c.loc, c.b.create<MulOp>(c.loc, sinC, x1),
                                 c.b.create<MulOp>(c.loc, cosC, x2));
  Value rotated;
  if (interleaved) {
    Value pairs = c.b.create<ConcatOp>(
        c.loc,
        ValueRange{c.reshape(real, {b, s, heads, half, 1}),
                   c.reshape(imag, {b, s, heads, half, 1})},
        c.b.getI64IntegerAttr(4));
    rotated = c.reshape(pairs, {b, s, heads, rot});
  } else {
    rotated = c.b.create<ConcatOp>(c.loc, ValueRange{real, imag}, c.b.getI64IntegerAttr(3));
  }
  Value out = rot == d ? rotated
                       : Value(c.b.create<ConcatOp>(
                             c.loc, ValueRange{rotated, slice(h, rot, d - rot, 1)},
                             c.b.getI64IntegerAttr(3)));
  r.push_back(rank == 4 ? transpose(c, out, {0, 2, 1, 3}) : c.reshape(out, t.getShape()));
  return success();
}

/// x * sigmoid(alpha * x).
Value swish(NodeContext &c, Value x) {
  Type elt = typeOf(x).getElementType();
  double alpha = c.floatAttr("alpha", 1.0);
  Value ax = alpha == 1.0 ? x : Value(c.b.create<MulOp>(c.loc, x, c.scalar(elt, alpha)));
  return c.b.create<MulOp>(c.loc, x, c.b.create<SigmoidOp>(c.loc, ax));
}

LogicalResult convertSwish(NodeContext &c, Results &r) {
  r.push_back(swish(c, c.in(0)));
  return success();
}

/// Swish(A) * B (opset 28), A and B of one shape.
LogicalResult convertSwiGLU(NodeContext &c, Results &r) {
  if (c.type(0) != c.type(1)) {
    c.error() << "A " << c.in(0).getType() << " and B " << c.in(1).getType()
              << " must have one type and shape";
    return failure();
  }
  r.push_back(c.b.create<MulOp>(c.loc, swish(c, c.in(0)), c.in(1)));
  return success();
}
} // namespace

void dfa::onnximport::addTransformerConverters(llvm::StringMap<Converter> &t) {
  t["Attention"] = convertAttention;
  t["RMSNormalization"] = convertRMSNorm;
  t["RotaryEmbedding"] = convertRotaryEmbedding;
  t["Swish"] = convertSwish;
  t["SwiGLU"] = convertSwiGLU;
  t["TensorScatter"] = convertTensorScatter;
}
