//===- Raise.cpp - re-raise spelled-out composites ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Recognizes attention written out by an exporter and replaces it with one
// graph.attention on targets that run attention whole.
//
//===----------------------------------------------------------------------===//

#include "dfa/Transforms/TargetModel.h"

#include "dfa/Transforms/Passes.h"

#include "dialects/Graph/GraphOps.h"

#include "dfa/Target/Target.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace dfa {
#define GEN_PASS_DEF_GRAPHRAISEPASS
#include "dfa/Transforms/Passes.h.inc"
} // namespace dfa

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

namespace {

/// `v` as a cast to element type `to` makes it: a float rounded to the
/// type's format, an integer truncated toward zero, a bool 0 or 1.
std::optional<double> castValue(double v, Type to) {
  if (to.isInteger(1))
    return v != 0.0 ? 1.0 : 0.0;
  if (isa<IntegerType>(to))
    return std::isfinite(v) ? std::optional<double>(std::trunc(v)) : std::nullopt;
  auto ft = dyn_cast<FloatType>(to);
  if (!ft)
    return std::nullopt;
  APFloat x(v);
  bool lost = false;
  x.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
  return x.convertToDouble();
}

/// The one value of a splat constant, or of an expand (or a cast, applied)
/// of one.
std::optional<double> splatValue(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (isa<ExpandOp>(op))
    return splatValue(op->getOperand(0));
  if (isa<CastOp>(op)) {
    std::optional<double> x = splatValue(op->getOperand(0));
    return x ? castValue(*x, getElementTypeOrSelf(v.getType())) : std::nullopt;
  }
  auto c = dyn_cast<ConstantOp>(op);
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
  if (!dense || !dense.isSplat())
    return std::nullopt;
  Type elt = dense.getElementType();
  if (isa<FloatType>(elt))
    return dense.getSplatValue<APFloat>().convertToDouble();
  if (elt.isInteger(1))
    return dense.getSplatValue<bool>() ? 1.0 : 0.0;
  if (auto it = dyn_cast<IntegerType>(elt))
    return it.isUnsigned()
               ? double(dense.getSplatValue<APInt>().getZExtValue())
               : double(dense.getSplatValue<APInt>().getSExtValue());
  return std::nullopt;
}

bool singleUse(Value v) { return v.hasOneUse(); }

/// One matched attention chain, from the second matmul back to the first.
struct AttentionMatch {
  MatMulOp scores, output;
  SoftmaxOp softmax;
  Value q, kT, v;
  double scale = 1.0;
  Value keep;               // bool mask: true where a score is kept
  bool keepNegated = false; // `keep` is the masked-out set (where(c, -inf, s))
  Value addMask;            // float mask added to the scores
  bool safe = false;        // where(isnan(p), 0, p): torch's safe softmax
  // where(reduce_max(M) == -inf, 0, p) with M the added mask: a row the
  // mask empties is 0 (dfa's import of onnxruntime's attention kernels).
  Value emptyOf;
  SmallVector<Operation *> chain; // ops replaced, outermost first
  // The products run on views that merge the leading dims ([B, H, L, D]
  // to [B*H, L, D]: core ATen's 4-D matmul as bmm); q, kT and v are the
  // unmerged values, and the output is viewed back as merged.
  bool merged = false;
};

/// The value `v` views when it merges only leading dims ([B, H, L, D] to
/// [B*H, L, D], the last two kept), or null.
Value unmerged(Value v) {
  auto rs = v.getDefiningOp<ReshapeOp>();
  if (!rs)
    return {};
  auto in = cast<RankedTensorType>(rs.getInput().getType());
  auto out = cast<RankedTensorType>(v.getType());
  if (in.getRank() <= out.getRank() || out.getRank() < 3 || !in.hasStaticShape() ||
      in.getShape().take_back(2) != out.getShape().take_back(2) ||
      in.getShape().take_front(in.getRank() - out.getRank() + 1) ==
          ArrayRef<int64_t>() ||
      in.getShape().drop_back(2).drop_front(in.getRank() - out.getRank() + 1) !=
          out.getShape().drop_back(2).drop_front(1))
    return {};
  int64_t lead = 1;
  for (int64_t d : in.getShape().take_front(in.getRank() - out.getRank() + 1))
    lead *= d;
  return lead == out.getDimSize(0) ? rs.getInput() : Value();
}

/// torch's _safe_softmax as core ATen writes it: where(not(reduce_max(
/// not(S == -inf) as float) > 0), 0, softmax(S)), a row whose scores are
/// all -inf made 0. The guard's ops, the `where` first and the `equal`
/// last, when each has one reader and the softmax only the `where`; else
/// none.
SmallVector<Operation *> torchSafeSoftmaxGuard(WhereOp w) {
  auto sm = w.getRhs().getDefiningOp<SoftmaxOp>();
  auto outer = w.getCond().getDefiningOp<NotOp>();
  auto gt = outer ? outer.getInput().getDefiningOp<GreaterOp>() : GreaterOp();
  auto rmax = gt ? gt.getLhs().getDefiningOp<ReduceMaxOp>() : ReduceMaxOp();
  auto toFloat = rmax ? rmax.getInput().getDefiningOp<CastOp>() : CastOp();
  auto inner = toFloat ? toFloat.getInput().getDefiningOp<NotOp>() : NotOp();
  auto eq = inner ? inner.getInput().getDefiningOp<EqualOp>() : EqualOp();
  if (!sm || !eq || splatValue(w.getLhs()) != std::optional<double>(0.0) ||
      w.getType() != w.getRhs().getType() || !w.getRhs().hasOneUse() ||
      splatValue(gt.getRhs()) != std::optional<double>(0.0) || !rmax.getKeepdims())
    return {};
  auto ft = cast<RankedTensorType>(toFloat.getType());
  ArrayRef<int64_t> axes = rmax.getAxes();
  Value scores = eq.getLhs() == sm.getInput() ? eq.getRhs() : eq.getLhs();
  if (axes.size() != 1 || axes[0] != ft.getRank() - 1 ||
      sm.getAxis() != ft.getRank() - 1 ||
      (eq.getLhs() != sm.getInput() && eq.getRhs() != sm.getInput()) ||
      splatValue(scores) != std::optional<double>(-INFINITY))
    return {};
  SmallVector<Operation *> ops{w, outer, gt, rmax, toFloat, inner, eq};
  for (Operation *o : ArrayRef(ops).drop_front())
    if (!o->getResult(0).hasOneUse())
      return {};
  return ops;
}

/// Matches `output = matmul(softmax(...(matmul(q, kT))), v)`.
std::optional<AttentionMatch> matchAttention(MatMulOp output) {
  AttentionMatch m;
  m.output = output;
  m.v = output.getRhs();
  m.chain = {output};
  Value probs = output.getLhs();
  // Core ATen's 4-D product: the probabilities and v viewed as [B*H, ., .].
  if (Value p = unmerged(probs), v = unmerged(m.v); p && v && singleUse(probs) &&
      cast<RankedTensorType>(p.getType()).getShape().drop_back(2) ==
          cast<RankedTensorType>(v.getType()).getShape().drop_back(2)) {
    m.merged = true;
    m.chain.push_back(probs.getDefiningOp());
    probs = p;
    m.v = v;
  }
  // torch's safe softmax, as its ONNX export of SDPA writes it: the
  // probabilities with NaN (a row whose scores are all masked) made 0.
  // The row a mask empties made 0: the mask is checked against the added
  // one once it is peeled.
  auto emptied = [&](WhereOp w) -> Value {
    auto eq = w.getCond().getDefiningOp<EqualOp>();
    if (!eq || splatValue(w.getLhs()) != std::optional<double>(0.0) ||
        w.getType() != w.getRhs().getType() || !w.getRhs().getDefiningOp<SoftmaxOp>() ||
        !w.getRhs().hasOneUse())
      return {};
    std::optional<double> fill = splatValue(eq.getRhs());
    auto rmax = eq.getLhs().getDefiningOp<ReduceMaxOp>();
    if (!fill || *fill != -INFINITY || !rmax || !rmax.getKeepdims())
      return {};
    auto mt = cast<RankedTensorType>(rmax.getInput().getType());
    ArrayRef<int64_t> axes = rmax.getAxes();
    if (axes.size() != 1 || axes[0] != mt.getRank() - 1)
      return {};
    return rmax.getInput();
  };
  // torch's _safe_softmax as core ATen writes it (torch.export's SDPA): a
  // row whose scores are all -inf made 0 (torchSafeSoftmaxGuard). Only a
  // mask's fill makes a whole row -inf of finite data, so the rows the
  // added mask empties are made 0, as `empty_rows_zero` says (a row of
  // scores -inf from infinite inputs is NaN where torch gives 0). The
  // guard's ops go with the chain; a softmax the guard was folded into
  // (foldTorchSafeSoftmax) says the same.
  Operation *guardEq = nullptr;
  bool guarded = false;
  auto guardOf = probs.getDefiningOp<WhereOp>();
  SmallVector<Operation *> guardOps;
  if (guardOf && singleUse(probs))
    guardOps = torchSafeSoftmaxGuard(guardOf);
  if (!guardOps.empty()) {
    m.chain.append(guardOps.begin(), guardOps.end());
    guardEq = guardOps.back();
    probs = guardOf.getRhs();
  } else if (auto w = probs.getDefiningOp<WhereOp>(); w && singleUse(probs) && emptied(w)) {
    m.emptyOf = emptied(w);
    m.chain.push_back(w);
    // The check's ops go with it when only it reads them.
    if (auto eq = w.getCond().getDefiningOp<EqualOp>(); eq->hasOneUse()) {
      m.chain.push_back(eq);
      if (Operation *rmax = eq.getLhs().getDefiningOp(); rmax->hasOneUse())
        m.chain.push_back(rmax);
    }
    probs = w.getRhs();
  } else if (auto w = probs.getDefiningOp<WhereOp>(); w && singleUse(probs)) {
    auto nan = w.getCond().getDefiningOp<IsNaNOp>();
    if (!nan || nan.getInput() != w.getRhs() || !w.getCond().hasOneUse() ||
        w.getType() != w.getRhs().getType() ||
        splatValue(w.getLhs()) != std::optional<double>(0.0) ||
        !w.getRhs().getDefiningOp<SoftmaxOp>() ||
        llvm::range_size(w.getRhs().getUses()) != 2)
      return std::nullopt;
    m.safe = true;
    m.chain.append({w, nan});
    probs = w.getRhs();
  } else if (!singleUse(probs)) {
    return std::nullopt;
  }
  auto sm = probs.getDefiningOp<SoftmaxOp>();
  if (!sm)
    return std::nullopt;
  auto st = cast<RankedTensorType>(sm.getType());
  int64_t axis = sm.getAxis();
  if (axis != st.getRank() - 1)
    return std::nullopt;
  m.softmax = sm;
  m.chain.push_back(sm);
  guarded = sm.getEmptyRowsZero();
  Value x = sm.getInput();
  // The scores read by the softmax alone (and by torch's guard).
  auto scoresOnly = [&](Value s) {
    return llvm::all_of(s.getUsers(), [&](Operation *u) {
             return u == sm.getOperation() || u == guardEq;
           }) && !s.use_empty();
  };
  bool scaled = false, masked = false;
  // Peel at most one scale and one mask, in either order.
  for (int step = 0; step < 2; ++step) {
    Operation *def = x.getDefiningOp();
    if (!def || !(step == 0 ? scoresOnly(x) : singleUse(x)))
      break;
    if (auto div = dyn_cast<DivOp>(def); div && !scaled) {
      std::optional<double> c = splatValue(div.getRhs());
      if (!c || *c == 0)
        return std::nullopt;
      m.scale = 1.0 / *c;
      scaled = true;
      x = div.getLhs();
    } else if (auto mul = dyn_cast<MulOp>(def); mul && !scaled) {
      std::optional<double> c = splatValue(mul.getRhs());
      Value other = mul.getLhs();
      if (!c) {
        c = splatValue(mul.getLhs());
        other = mul.getRhs();
      }
      if (!c)
        return std::nullopt;
      m.scale = *c;
      scaled = true;
      x = other;
    } else if (auto where = dyn_cast<WhereOp>(def); where && !masked) {
      // where(c, -inf, s) masks out c; where(c, s, -inf) keeps c.
      auto isFill = [](Value f) {
        std::optional<double> c = splatValue(f);
        return c && *c <= kMaskedScore;
      };
      if (isFill(where.getLhs())) {
        m.keepNegated = true;
        x = where.getRhs();
      } else if (isFill(where.getRhs())) {
        x = where.getLhs();
      } else {
        return std::nullopt;
      }
      m.keep = where.getCond();
      masked = true;
    } else if (auto add = dyn_cast<AddOp>(def); add && !masked) {
      // The scores side is the one that leads back to a matmul.
      auto leads = [&](Value s) {
        Operation *d = s.getDefiningOp();
        if (auto rs = dyn_cast_or_null<ReshapeOp>(d); rs && m.merged)
          d = rs.getInput().getDefiningOp(); // core ATen's view of a bmm
        return d && isa<MatMulOp, DivOp, MulOp>(d);
      };
      if (leads(add.getLhs()) && !leads(add.getRhs())) {
        m.addMask = add.getRhs();
        x = add.getLhs();
      } else if (leads(add.getRhs()) && !leads(add.getLhs())) {
        m.addMask = add.getLhs();
        x = add.getRhs();
      } else {
        return std::nullopt;
      }
      if (m.addMask.getType() != x.getType() &&
          cast<RankedTensorType>(m.addMask.getType()).getElementType() !=
              st.getElementType())
        return std::nullopt;
      masked = true;
    } else {
      break;
    }
    m.chain.push_back(def);
  }
  // Merged: the scores a view of a product of views.
  Operation *split = nullptr;
  bool peeled = x != sm.getInput();
  if (m.merged) {
    auto rs = x.getDefiningOp<ReshapeOp>();
    if (!rs || !(peeled ? singleUse(x) : scoresOnly(x)) || rs.getType() != st)
      return std::nullopt;
    split = rs;
    x = rs.getInput();
  }
  auto scores = x.getDefiningOp<MatMulOp>();
  // A mask or scale that broadcasts the scores past their own shape is not
  // the attention's; rows made 0 by a mask are the added mask's.
  if (!scores || !(m.merged || peeled ? singleUse(x) : scoresOnly(x)) ||
      (!m.merged && scores.getType() != st) || (m.emptyOf && m.emptyOf != m.addMask))
    return std::nullopt;
  // torch's guard zeroes the rows the mask empties, added or filled in;
  // without a mask none (finite scores).
  if (guardEq || guarded)
    m.emptyOf = m.addMask ? m.addMask : m.keep;
  m.scores = scores;
  m.q = scores.getLhs();
  m.kT = scores.getRhs();
  if (m.merged) {
    m.q = unmerged(m.q);
    m.kT = unmerged(m.kT);
    if (!m.q || !m.kT || !singleUse(scores.getLhs()) || !singleUse(scores.getRhs()) ||
        cast<RankedTensorType>(m.q.getType()).getShape().drop_back(2) !=
            st.getShape().drop_back(2))
      return std::nullopt;
    // The views of q and k^T go with the product that alone reads them
    // (before what they read: a scale of q joins the chain below).
    m.chain.append({split, scores, scores.getLhs().getDefiningOp(),
                    scores.getRhs().getDefiningOp()});
  } else {
    m.chain.push_back(scores);
  }
  // SDPA as torch.onnx exports it scales q and k^T by sqrt(scale) each: a
  // finite splat multiple of either, read only by the scores, joins the
  // scale, as attention kernels take it (FlashAttention's softmax_scale).
  for (Value *operand : {&m.q, &m.kT}) {
    auto mul = operand->getDefiningOp<MulOp>();
    if (!mul || !singleUse(*operand))
      continue;
    for (auto [x, c] : {std::pair{mul.getLhs(), mul.getRhs()},
                        std::pair{mul.getRhs(), mul.getLhs()}}) {
      std::optional<double> f = splatValue(c);
      if (f && std::isfinite(*f) && x.getType() == operand->getType()) {
        m.scale *= *f;
        *operand = x;
        m.chain.push_back(mul);
        break;
      }
    }
  }
  auto qt = cast<RankedTensorType>(m.q.getType());
  auto kt = cast<RankedTensorType>(m.kT.getType());
  auto vt = cast<RankedTensorType>(m.v.getType());
  int64_t r = qt.getRank();
  if (r < 2 || kt.getRank() != r || vt.getRank() != r ||
      qt.getShape().drop_back(2) != kt.getShape().drop_back(2) ||
      qt.getShape().drop_back(2) != vt.getShape().drop_back(2) ||
      !isa<FloatType>(qt.getElementType()) ||
      qt.getElementType() != kt.getElementType() ||
      qt.getElementType() != vt.getElementType())
    return std::nullopt;
  return m;
}

/// Whether `v` is, over trailing dims L x S, nonzero exactly on and below
/// the diagonal: the lower triangle (Trilu, k = 0) of an L x S nonzero fill,
/// as torch.onnx cuts SDPA's is_causal mask from ones (both its
/// exporters), or a cast of one that keeps the fill nonzero.
bool isLowerTriangle(Value v, int64_t L, int64_t S) {
  SmallVector<Type> casts; // outermost first
  while (auto c = v.getDefiningOp<CastOp>()) {
    casts.push_back(getElementTypeOrSelf(c.getType()));
    v = c.getInput();
  }
  auto t = v.getDefiningOp<TriluOp>();
  if (!t || t.getUpper() || t.getK() != 0)
    return false;
  auto type = cast<RankedTensorType>(t.getType());
  int64_t r = type.getRank();
  if (r < 2 || type.getDimSize(r - 2) != L || type.getDimSize(r - 1) != S)
    return false;
  std::optional<double> fill = splatValue(t.getInput());
  for (Type to : llvm::reverse(casts))
    if (fill)
      fill = castValue(*fill, to);
  return fill && *fill != 0.0 && !std::isnan(*fill);
}

/// Whether `v` is true exactly above the diagonal: equal(lower triangle, 0).
bool isAboveDiagonal(Value v, int64_t L, int64_t S) {
  auto eq = v.getDefiningOp<EqualOp>();
  if (!eq)
    return false;
  for (auto [t, z] : {std::pair{eq.getLhs(), eq.getRhs()},
                      std::pair{eq.getRhs(), eq.getLhs()}})
    if (isLowerTriangle(t, L, S) && splatValue(z) == std::optional<double>(0.0))
      return true;
  return false;
}

/// Whether `mask` (L x S trailing) is causal by its structure, the ops that
/// make it: a keep mask that is a lower triangle (the masked-out set,
/// `negated`, above the diagonal), or an additive mask
/// where(above diagonal, masked, 0), where(lower triangle, 0, masked) or
/// the upper triangle (Trilu, k = 1) of a masked fill. Masked: at most
/// graph::kMaskedScore, -inf included.
bool isCausalByOps(Value mask, bool negated, int64_t L, int64_t S) {
  auto masked = [](Value v) {
    std::optional<double> x = splatValue(v);
    return x && *x <= kMaskedScore;
  };
  auto zero = [](Value v) { return splatValue(v) == std::optional<double>(0.0); };
  if (isa<IntegerType>(getElementTypeOrSelf(mask.getType())))
    return negated ? isAboveDiagonal(mask, L, S) : isLowerTriangle(mask, L, S);
  if (negated)
    return false;
  if (auto w = mask.getDefiningOp<WhereOp>())
    return (isAboveDiagonal(w.getCond(), L, S) && masked(w.getLhs()) &&
            zero(w.getRhs())) ||
           (isLowerTriangle(w.getCond(), L, S) && zero(w.getLhs()) &&
            masked(w.getRhs()));
  if (auto t = mask.getDefiningOp<TriluOp>()) {
    auto type = cast<RankedTensorType>(t.getType());
    int64_t r = type.getRank();
    return t.getUpper() && t.getK() == 1 && r >= 2 &&
           type.getDimSize(r - 2) == L && type.getDimSize(r - 1) == S &&
           masked(t.getInput());
  }
  return false;
}

/// Whether `mask` is a causal mask over the scores' L x S: a constant one
/// (see graph::isCausalMask), or one the graph builds (isCausalByOps).
/// Attention then says `causal`.
bool isCausal(Value mask, bool negated, int64_t L, int64_t S) {
  auto type = cast<RankedTensorType>(mask.getType());
  if (L != S || type.getRank() < 2 || type.getShape().back() != S ||
      type.getDimSize(type.getRank() - 2) != L)
    return false;
  if (auto c = mask.getDefiningOp<ConstantOp>())
    return isCausalMask(cast<ElementsAttr>(c.getValue()), negated);
  return isCausalByOps(mask, negated, L, S);
}

/// The key [..., S, D] for a kT [..., D, S]: folds a transpose that made kT,
/// also one over merged batch dims (reshape to [B*H, S, D], transpose,
/// reshape back, as torch.onnx exports SDPA's k.transpose(-2, -1)).
Value keyFrom(OpBuilder &b, Location loc, Value kT) {
  auto type = cast<RankedTensorType>(kT.getType());
  int64_t r = type.getRank();
  if (auto back = kT.getDefiningOp<ReshapeOp>())
    if (auto tr = back.getInput().getDefiningOp<TransposeOp>())
      if (auto merge = tr.getInput().getDefiningOp<ReshapeOp>()) {
        auto key = cast<RankedTensorType>(merge.getInput().getType());
        auto mid = cast<RankedTensorType>(tr.getType());
        ArrayRef<int64_t> perm = tr.getPerm();
        int64_t mr = mid.getRank();
        bool swapsLast = mr >= 2 && perm[mr - 1] == mr - 2 && perm[mr - 2] == mr - 1;
        for (int64_t i = 0; i + 2 < mr; ++i)
          swapsLast &= perm[i] == i;
        SmallVector<int64_t> want(type.getShape());
        std::swap(want[r - 1], want[r - 2]);
        // The merged input only regroups the leading dims when its last
        // two are the key's (GQA's repeated key, [B, Hkv, g, S, D]).
        if (swapsLast && key.getRank() >= 2 &&
            key.getShape().take_back(2) == ArrayRef<int64_t>(want).take_back(2) &&
            mid.getShape().take_back(2) == type.getShape().take_back(2)) {
          if (key.getShape() == ArrayRef<int64_t>(want))
            return merge.getInput();
          return b.create<ReshapeOp>(
              loc, RankedTensorType::get(want, type.getElementType()),
              merge.getInput());
        }
      }
  SmallVector<int64_t> perm;
  Value src = kT;
  if (auto tr = kT.getDefiningOp<TransposeOp>()) {
    perm.assign(tr.getPerm().begin(), tr.getPerm().end());
    src = tr.getInput();
  } else {
    for (int64_t i = 0; i < r; ++i)
      perm.push_back(i);
  }
  std::swap(perm[r - 1], perm[r - 2]);
  bool identity = true;
  for (int64_t i = 0; i < r; ++i)
    identity &= perm[i] == i;
  if (identity)
    return src;
  return b.create<TransposeOp>(loc, src, b.getDenseI64ArrayAttr(perm));
}

/// not(mask), folded when the mask is a constant.
Value negate(OpBuilder &b, Location loc, Value mask) {
  if (auto c = mask.getDefiningOp<ConstantOp>())
    if (auto dense = dyn_cast<DenseIntElementsAttr>(c.getValue())) {
      SmallVector<bool> flipped;
      for (bool x : dense.getValues<bool>())
        flipped.push_back(!x);
      return b.create<ConstantOp>(
          c.getLoc(),
          DenseElementsAttr::get(dense.getType(), ArrayRef<bool>(flipped)));
    }
  return b.create<NotOp>(loc, mask);
}

/// A product's operand broadcast along batch dims the other operand has
/// (FX's `aten.matmul` of [B, M, K] by a [K, N] weight, which
/// torch.export writes as an expand and a batched product: Llama's
/// o_proj) is read as it is: the product broadcasts it, as torch's matmul
/// and every peer compiler do, so the kernel reads the weight once, not
/// B times (and graph-shard's weight rules see the weight).
void readUnbroadcast(ModuleOp module) {
  module.walk([](MatMulOp m) {
    for (unsigned side : {0u, 1u}) {
      auto ex = m->getOperand(side).getDefiningOp<ExpandOp>();
      if (!ex)
        continue;
      auto it = cast<RankedTensorType>(ex.getInput().getType());
      auto et = cast<RankedTensorType>(ex.getResult().getType());
      auto ot = cast<RankedTensorType>(m->getOperand(1 - side).getType());
      int64_t r = et.getRank(), lead = r - 2;
      // Only batch dims broadcast, from a matrix (or ones before it), and
      // the other side holds them: the product's type is unchanged.
      if (lead < 1 || it.getRank() < 2 || ot.getRank() != r ||
          it.getShape().take_back(2) != et.getShape().take_back(2) ||
          llvm::any_of(it.getShape().drop_back(2), [](int64_t d) { return d != 1; }) ||
          et.getShape().take_front(lead) != ot.getShape().take_front(lead))
        continue;
      m->setOperand(side, ex.getInput());
      if (ex->use_empty())
        ex->erase();
    }
  });
}

/// Folds each torch _safe_softmax guard (torchSafeSoftmaxGuard) left
/// after attention is raised into its softmax, as `empty_rows_zero`: the
/// guard's own reduction over the scores, a second read of them, becomes
/// a test of the row's maximum, which the softmax computes anyway (a
/// target without an attention kernel, or a softmax outside one; a
/// torch.export Whisper encoder took 2.14 ms on tpu-v5e, 0.56 of it in the
/// guards, where the ONNX export's took 1.47).
void foldTorchSafeSoftmax(ModuleOp module) {
  SmallVector<WhereOp> guards;
  module.walk([&](WhereOp w) { guards.push_back(w); });
  for (WhereOp w : guards) {
    SmallVector<Operation *> ops = torchSafeSoftmaxGuard(w);
    if (ops.empty())
      continue;
    auto sm = w.getRhs().getDefiningOp<SoftmaxOp>();
    OpBuilder b(w);
    auto safe = b.create<SoftmaxOp>(
        FusedLoc::get(b.getContext(), {sm.getLoc(), w.getLoc()}), sm.getInput(),
        sm.getAxisAttr(), b.getBoolAttr(true));
    w.getResult().replaceAllUsesWith(safe.getResult());
    // The guard's constants (its zeros, the -inf of its test) go with it
    // when nothing else reads them.
    SetVector<Operation *> constants;
    for (Operation *o : ops)
      for (Value v : o->getOperands())
        if (auto c = v.getDefiningOp<ConstantOp>())
          constants.insert(c);
    for (Operation *o : ops)
      o->erase();
    sm->erase();
    for (Operation *c : constants)
      if (c->use_empty())
        c->erase();
  }
}

/// Folds a zero pad of the spatial dims into the convolution that reads
/// it: conv(pad(x)) is conv(x) with the pads added to its own, as
/// onnxruntime's and TensorRT's pad fusions do. TF-style "same" padding
/// written as F.pad before each convolution (a torch.export of Hugging
/// Face's MobileNetV2, EfficientNets ported from TensorFlow) was a copy
/// kernel each; the ONNX exporter's graph had them folded already. The
/// pad stays for its other readers, and goes when none is left. Negative
/// pads (crops) and non-constant modes stay as they are.
void foldPadsIntoConvolutions(ModuleOp module) {
  SmallVector<ConvOp> convs;
  module.walk([&](ConvOp c) { convs.push_back(c); });
  for (ConvOp conv : convs) {
    auto pad = conv.getInput().getDefiningOp<PadOp>();
    if (!pad || pad.getMode() != "constant" || !pad.getValue().isZero())
      continue;
    ArrayRef<int64_t> p = pad.getPads(), own = conv.getPads();
    int64_t rank = cast<RankedTensorType>(pad.getType()).getRank(),
            spatial = rank - 2;
    if (spatial < 1 || int64_t(p.size()) != 2 * rank ||
        int64_t(own.size()) != 2 * spatial)
      continue;
    // Nothing on the batch and channel dims, nothing negative.
    if (p[0] || p[1] || p[rank] || p[rank + 1] ||
        llvm::any_of(p, [](int64_t x) { return x < 0; }))
      continue;
    SmallVector<int64_t> pads(own);
    for (int64_t d = 0; d < spatial; ++d) {
      pads[d] += p[2 + d];
      pads[spatial + d] += p[rank + 2 + d];
    }
    conv.getInputMutable().assign(pad.getInput());
    conv.setPadsAttr(DenseI64ArrayAttr::get(conv.getContext(), pads));
    conv->setLoc(FusedLoc::get(conv.getContext(), {conv.getLoc(), pad.getLoc()}));
    if (pad->use_empty())
      pad->erase();
  }
}

struct GraphRaisePass : dfa::impl::GraphRaisePassBase<GraphRaisePass>,
                        TargetedPass {
  using GraphRaisePassBase::GraphRaisePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    readUnbroadcast(module);
    bool wantAttention = true;
    if (given.target || !targetName.empty() ||
        module->hasAttr(graph::kTargetAttr)) {
      const target::Target *t = passTarget(module, targetName, targetDirs);
      if (!t)
        return signalPassFailure();
      wantAttention = llvm::is_contained(t->nativeOps, "attention");
    }
    if (wantAttention) {
      SmallVector<MatMulOp> roots;
      module.walk([&](MatMulOp op) { roots.push_back(op); });
      for (MatMulOp root : roots) {
        if (!root->getBlock())
          continue;
        std::optional<AttentionMatch> m = matchAttention(root);
        if (!m)
          continue;
        raise(*m);
      }
    }
    foldTorchSafeSoftmax(module);
    foldPadsIntoConvolutions(module);
  }

  void raise(AttentionMatch &m) {
    OpBuilder b(m.output);
    // The raised op is named after the output matmul, and remembers the rest.
    SmallVector<Location> locs;
    for (Operation *op : m.chain)
      locs.push_back(op->getLoc());
    Location loc = FusedLoc::get(b.getContext(), locs);
    Value key = keyFrom(b, m.scores.getLoc(), m.kT);
    auto st = cast<RankedTensorType>(m.softmax.getType());
    int64_t r = st.getRank();
    int64_t L = st.getDimSize(r - 2), S = st.getDimSize(r - 1);
    bool causal = m.keep ? isCausal(m.keep, m.keepNegated, L, S)
                         : m.addMask && isCausal(m.addMask, false, L, S);
    Value mask = causal ? Value() : m.addMask;
    if (m.keep && !causal)
      mask = m.keepNegated ? negate(b, m.output.getLoc(), m.keep) : m.keep;
    auto att = b.create<AttentionOp>(loc, m.q, key, m.v, mask,
                                     b.getF64FloatAttr(m.scale),
                                     b.getBoolAttr(causal),
                                     b.getBoolAttr(m.safe),
                                     b.getBoolAttr(bool(m.emptyOf)));
    if (remarks) {
      InFlightDiagnostic d = att->emitRemark();
      d << "raised " << m.chain.size() << " ops to 'graph.attention' (";
      llvm::interleaveComma(m.chain, d, [&](Operation *op) {
        std::string name = sourceName(op);
        d << (name.empty() ? op->getName().getStringRef().str() : name);
      });
      d << ")" << (causal ? ", causal" : "")
        << (m.safe ? ", safe softmax" : "")
        << (m.emptyOf ? ", rows the mask empties 0" : "") << ", scale "
        << llvm::formatv("{0}", llvm::format("%g", m.scale)).str();
    }
    Value result = att.getOutput();
    if (m.merged) {
      // A reader that views the merged output back as unmerged reads the
      // attention's (core ATen's view after its bmm).
      for (Operation *u : llvm::make_early_inc_range(m.output->getUsers()))
        if (auto back = dyn_cast<ReshapeOp>(u); back && back.getType() == result.getType()) {
          back.getResult().replaceAllUsesWith(result);
          back.erase();
        }
      if (!m.output->use_empty())
        result = b.create<ReshapeOp>(m.output.getLoc(), m.output.getType(), result);
    }
    m.output.replaceAllUsesWith(result);
    // Erase outermost first: each op's only user is the one before it. Then
    // the constants (scale, fill, masks) and the key transpose left unused.
    SetVector<Operation *> feeders;
    for (Operation *op : m.chain)
      for (Value operand : op->getOperands())
        if (Operation *d = operand.getDefiningOp();
            d && isa<ConstantOp, TransposeOp, ExpandOp, CastOp, ReshapeOp>(d) &&
            !llvm::is_contained(m.chain, d))
          feeders.insert(d);
    // A causal mask the attention no longer reads (its `causal` says it):
    // the ops that built it go too.
    if (causal)
      if (Operation *d = (m.keep ? m.keep : m.addMask).getDefiningOp())
        feeders.insert(d);
    for (Operation *op : m.chain)
      op->erase();
    // Unused feeders, and what only they read, innermost last.
    SmallVector<Operation *> dead(feeders.begin(), feeders.end());
    llvm::SmallPtrSet<Operation *, 16> queued(feeders.begin(), feeders.end());
    while (!dead.empty()) {
      Operation *d = dead.pop_back_val();
      queued.erase(d);
      if (!d->use_empty() || d->getNumRegions() != 0 ||
          !isa_and_nonnull<GraphDialect>(d->getDialect()))
        continue;
      for (Value operand : d->getOperands())
        if (Operation *p = operand.getDefiningOp();
            p && p->hasOneUse() && queued.insert(p).second)
          dead.push_back(p);
      d->erase();
    }
    ++numRaised;
  }
};
} // namespace

std::unique_ptr<Pass> dfa::createGraphRaisePass(PassTarget target,
                                    const GraphRaisePassOptions &options) {
  return makeTargetedPass<GraphRaisePass>(std::move(target), options);
}
