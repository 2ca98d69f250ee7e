//===- GraphOpClass.cpp - what every graph op is -----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The one table of op classes. Each op appears once, with its structure
// (OpClass: what graph-fuse anchors a kernel on, what graph-tile tiles and
// what the lowering splits) and its numerics (Numerics: the error budget
// dfa-bisect's tolerance model gives its results). A new op is classified
// here and nowhere else.
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphOps.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dfa::graph;

namespace {
struct OpKind {
  OpClass cls;
  Numerics numerics;
};

OpKind kindOf(Operation *op) {
  auto is = [](OpClass c, Numerics n) {
    return [=](Operation *) { return OpKind{c, n}; };
  };
  return llvm::TypeSwitch<Operation *, OpKind>(op)
      .Case<ConstantOp, WeightOp>(is(OpClass::Source, Numerics::Exact))
      // A relayout moves bytes inside a kernel, element by element.
      .Case<RelayoutOp, BitCastOp>(is(OpClass::Pointwise, Numerics::Exact))
      .Case<ExpOp, LogOp, SigmoidOp, TanhOp, ErfOp, GeluOp, SiluOp, MishOp,
            SoftplusOp, SinOp, CosOp, TanOp, AsinOp, AcosOp, AtanOp, SinhOp,
            CoshOp, AsinhOp, AcoshOp, AtanhOp, PowOp, EluOp, SeluOp, CeluOp,
            HardSwishOp, SoftsignOp>(
          is(OpClass::Pointwise, Numerics::Transcendental))
      .Case<WhereOp, PReluOp, AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, ModOp,
            AndOp, OrOp, XorOp, BitShiftOp, BitwiseOp, EqualOp, LessOp, LessEqualOp,
            GreaterOp, GreaterEqualOp>(is(OpClass::Pointwise, Numerics::Rounded))
      .Case<MatMulOp, GemmOp, GroupedMatMulOp>(is(OpClass::Matmul, Numerics::Accumulated))
      .Case<ConvOp, ConvTransposeOp>(is(OpClass::Conv, Numerics::Accumulated))
      .Case<AttentionOp>(is(OpClass::Attention, Numerics::Accumulated))
      .Case<MaxPoolOp>(is(OpClass::Window, Numerics::Exact))
      .Case<AllGatherOp>(is(OpClass::Collective, Numerics::Exact))
      .Case<AllReduceOp>(is(OpClass::Collective, Numerics::Accumulated))
      .Case<AvgPoolOp, LpPoolOp, ResizeOp, GridSampleOp>(
          is(OpClass::Window, Numerics::Accumulated))
      .Case<GlobalMaxPoolOp, ReduceMaxOp, ReduceMinOp, HardmaxOp, ArgMaxOp,
            ArgMinOp, TopKOp>(is(OpClass::Reduction, Numerics::Exact))
      .Case<GlobalAvgPoolOp, CumSumOp, CumProdOp, ReduceSumOp, ReduceMeanOp, ReduceProdOp,
            ReduceL1Op, ReduceL2Op, ReduceSumSquareOp, ReduceLogSumOp,
            ReduceLogSumExpOp>(is(OpClass::Reduction, Numerics::Accumulated))
      .Case<BatchNormOp, InstanceNormOp, LayerNormOp, LpNormOp, SoftmaxOp,
            LogSoftmaxOp>(is(OpClass::Reduction, Numerics::Composite))
      .Case<ReshapeOp, ExpandOp, TransposeOp, ConcatOp, SplitOp, SliceOp,
            GatherOp, GatherElementsOp, GatherNDOp, ScatterNDOp,
            ScatterElementsOp, PadOp, TileOp, TriluOp>(
          is(OpClass::Data, Numerics::Exact))
      .Default([](Operation *o) {
        // The other elementwise ops (abs, relu, sqrt, cast, ...) round once.
        return OpKind{o->hasTrait<OpTrait::Elementwise>() ? OpClass::Pointwise
                                                          : OpClass::Other,
                      Numerics::Rounded};
      });
}
} // namespace

OpClass dfa::graph::classify(Operation *op) { return kindOf(op).cls; }

Numerics dfa::graph::numericsOf(Operation *op) { return kindOf(op).numerics; }

KernelKind dfa::graph::kernelKindOf(OpClass c) {
  switch (c) {
  case OpClass::Source: return KernelKind::Source;
  case OpClass::Pointwise: return KernelKind::Pointwise;
  case OpClass::Data: return KernelKind::Data;
  case OpClass::Reduction: return KernelKind::Reduction;
  case OpClass::Window: return KernelKind::Window;
  case OpClass::Matmul: return KernelKind::Matmul;
  case OpClass::Conv: return KernelKind::Conv;
  case OpClass::Attention: return KernelKind::Attention;
  case OpClass::Other: return KernelKind::Other;
  case OpClass::Collective: return KernelKind::Collective;
  }
  return KernelKind::Other;
}

bool dfa::graph::isAnchor(OpClass c) {
  return c == OpClass::Matmul || c == OpClass::Conv || c == OpClass::Attention ||
         c == OpClass::Window || c == OpClass::Other ||
         c == OpClass::Collective;
}

std::optional<Fp32Matmul> dfa::graph::fp32MatmulNamed(llvm::StringRef n) {
  return llvm::StringSwitch<std::optional<Fp32Matmul>>(n)
      .Case("ieee", Fp32Matmul::IEEE)
      .Case("tf32", Fp32Matmul::TF32)
      .Case("bf16", Fp32Matmul::BF16)
      .Case("bf16x3", Fp32Matmul::BF16x3)
      .Default(std::nullopt);
}

llvm::StringRef dfa::graph::name(Fp32Matmul mode) {
  switch (mode) {
  case Fp32Matmul::TF32: return "tf32";
  case Fp32Matmul::BF16: return "bf16";
  case Fp32Matmul::BF16x3: return "bf16x3";
  case Fp32Matmul::IEEE: break;
  }
  return "ieee";
}

Fp32Matmul dfa::graph::fp32MatmulOf(Operation *op) {
  auto attr = op->getAttrOfType<StringAttr>(kFp32MatmulAttr);
  if (!attr)
    return Fp32Matmul::IEEE;
  return fp32MatmulNamed(attr.getValue()).value_or(Fp32Matmul::IEEE);
}

int64_t dfa::graph::setFp32Matmul(Operation *root, Fp32Matmul mode) {
  int64_t n = 0;
  root->walk([&](Operation *op) {
    OpClass c = classify(op);
    if (c != OpClass::Matmul && c != OpClass::Conv && c != OpClass::Attention)
      return;
    auto in = dyn_cast<ShapedType>(op->getOperand(0).getType());
    // A product of dequantized int8 or float8 operands is not f32 work.
    if (!in || !in.getElementType().isF32() || quantizedProductType(op))
      return;
    if (mode == Fp32Matmul::IEEE) {
      op->removeAttr(kFp32MatmulAttr);
      return;
    }
    op->setAttr(kFp32MatmulAttr, StringAttr::get(op->getContext(), name(mode)));
    ++n;
  });
  return n;
}

int64_t dfa::graph::groupedRows(GroupedMatMulOp op) {
  int64_t rows = cast<RankedTensorType>(op.getLhs().getType()).getDimSize(0);
  int64_t groups = cast<RankedTensorType>(op.getRhs().getType()).getDimSize(0);
  int64_t total = std::max<int64_t>(groups, op.getGroupsTotal().value_or(groups));
  return (rows * groups + total - 1) / total;
}

int64_t dfa::graph::activeGroups(GroupedMatMulOp op) {
  int64_t groups = cast<RankedTensorType>(op.getRhs().getType()).getDimSize(0);
  return std::max<int64_t>(1, std::min(groupedRows(op), groups));
}

std::optional<CacheGrowth> dfa::graph::cacheGrowth(Value v) {
  Operation *writer = v.getDefiningOp();
  if (!writer)
    return std::nullopt;
  Value base, updates;
  // Rows appended along `axis`: room after each row of the dims before it
  // (a serving runtime's cache allocated long), never along the innermost
  // dim, whose growth moves every row.
  auto rowAxis = [](Value v, int64_t axis) {
    int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
    return rank == 1 || (axis >= 0 && axis < rank - 1);
  };
  if (auto c = dyn_cast<ConcatOp>(writer)) {
    base = c->getOperand(0);
    if (!rowAxis(base, c.getAxis()))
      return std::nullopt;
  } else if (isa<ScatterNDOp, ScatterElementsOp>(writer)) {
    // Both scatters: (input, indices, updates) and a reduction attribute.
    if (writer->getAttrOfType<StringAttr>("reduction").getValue() != "none")
      return std::nullopt;
    base = writer->getOperand(0), updates = writer->getOperand(2);
  } else {
    return std::nullopt;
  }
  Operation *first = writer;
  if (auto pad = base.getDefiningOp<PadOp>(); pad && updates) {
    // Room for the new rows: zeros after the cache, nothing before it.
    ArrayRef<int64_t> pads = pad.getPads();
    size_t rank = pads.size() / 2;
    if (pad.getMode() != "constant" || !pad.getValue().isZero() || !pad->hasOneUse() ||
        llvm::any_of(pads.take_front(rank), [](int64_t p) { return p != 0; }) ||
        llvm::count_if(pads.drop_front(rank), [](int64_t p) { return p != 0; }) > 1)
      return std::nullopt;
    for (size_t d = 0; d < rank; ++d)
      if (pads[rank + d] != 0 && (pads[rank + d] < 0 || !rowAxis(pad.getInput(), int64_t(d))))
        return std::nullopt;
    base = pad.getInput();
    first = pad;
  }
  auto arg = dyn_cast<BlockArgument>(base);
  if (!arg)
    return std::nullopt;
  // The cache used once, by the growth: not also its own updates or the
  // other half of a concat.
  CacheGrowth g{arg, writer, updates, arg.hasOneUse() && *arg.getUsers().begin() == first};
  return g;
}

/// Whether `user` computes its result from `v` group by group: a cast, an
/// elementwise op or a view whose result keeps `v`'s dim 0 (the experts of
/// a dequantization chain, [E, N, K] codes minus zero points times scales).
static bool keepsGroupDim(Operation *user, Value v) {
  if (user->getNumResults() != 1 ||
      !isa<CastOp, SubOp, MulOp, AddOp, ReshapeOp, ExpandOp>(user))
    return false;
  auto in = dyn_cast<RankedTensorType>(v.getType());
  auto out = dyn_cast<RankedTensorType>(user->getResult(0).getType());
  return in && out && in.getRank() > 0 && out.getRank() > 0 &&
         in.getDimSize(0) > 1 && in.getDimSize(0) == out.getDimSize(0);
}

/// readFraction, following at most `depth` more ops: a dequantization
/// chain is a few ops long, and a long elementwise chain (a residual
/// stream) must not be walked from each of its ops.
static double readFractionWithin(Value v, int depth) {
  if (depth <= 0)
    return 1;
  double fraction = 0;
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    double f = 1;
    if (auto g = dyn_cast<GroupedMatMulOp>(user); g && use.getOperandNumber() == 1)
      f = double(activeGroups(g)) /
          double(std::max<int64_t>(1, cast<RankedTensorType>(v.getType()).getDimSize(0)));
    else if ((isa<TransposeOp>(user) && cast<TransposeOp>(user).getPerm().front() == 0) ||
             keepsGroupDim(user, v))
      f = readFractionWithin(user->getResult(0), depth - 1); // keeps the group dim
    fraction = std::max(fraction, f);
    if (fraction >= 1)
      return 1;
  }
  return v.use_empty() ? 1 : fraction;
}

double dfa::graph::readFraction(Value v) { return readFractionWithin(v, 8); }

bool dfa::graph::isNarrow(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth() > 1 && i.getWidth() <= 8;
  auto f = dyn_cast<FloatType>(t);
  return f && f.getWidth() == 8;
}

namespace {
Type elementOf(Value v) { return cast<ShapedType>(v.getType()).getElementType(); }

/// The dims of operand `index` of `product` that its sum runs over, or
/// nullopt for an op whose operands cannot be read quantized here.
std::optional<SmallVector<bool>> contractedDims(Operation *product, unsigned index) {
  if (index > 1 || product->getNumOperands() <= index)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(product->getOperand(index).getType());
  if (!type || type.getRank() == 0)
    return std::nullopt;
  int64_t rank = type.getRank();
  SmallVector<bool> dims(rank, false);
  if (isa<MatMulOp>(product)) {
    // numpy matmul: lhs [..., M, K], rhs [..., K, N] (a vector is K).
    dims[index == 0 || rank == 1 ? rank - 1 : rank - 2] = true;
  } else if (isa<GroupedMatMulOp>(product)) {
    // Rows [S, K] and per-group matrices [E, K, N].
    dims[1] = true; // K: lhs dim 1, rhs dim 1
  } else if (auto g = dyn_cast<GemmOp>(product)) {
    bool trans = index == 0 ? g.getTransA() : g.getTransB();
    dims[(index == 0) != trans ? 1 : 0] = true;
  } else if (isa<ConvOp>(product)) {
    // Input [N, C, spatial...], filter [O, C/g, k...]: every dim but the
    // first feeds each output.
    for (int64_t d = 1; d < rank; ++d)
      dims[d] = true;
  } else {
    return std::nullopt;
  }
  return dims;
}

/// Whether parameter `p` (a scale or zero point broadcast against a value
/// of `rank` dims) is constant along every dim of `dims` (every dim when
/// `anyDim`: after a reshape the dims no longer line up).
bool constantAlong(Value p, int64_t rank, ArrayRef<bool> dims, bool anyDim) {
  auto pt = dyn_cast<RankedTensorType>(p.getType());
  if (!pt)
    return false;
  if (anyDim)
    return pt.getNumElements() == 1;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t j = d - (rank - pt.getRank());
    if (dims[d] && j >= 0 && pt.getDimSize(j) != 1)
      return false;
  }
  return true;
}
} // namespace

namespace {
/// dequantizedOperand's walk; with `varying`, a scale or zero point may
/// vary along the contracted dims (recorded in `varied`).
std::optional<DequantizedOperand> dequantChain(Operation *product,
                                               unsigned index, bool shared,
                                               bool varying, bool &varied) {
  std::optional<SmallVector<bool>> dims = contractedDims(product, index);
  if (!dims)
    return std::nullopt;
  DequantizedOperand d;
  bool anyDim = false;
  Value v = product->getOperand(index);
  while (Operation *def = v.getDefiningOp()) {
    if (!shared && !v.hasOneUse())
      return std::nullopt;
    d.ops.push_back(def);
    int64_t rank = cast<ShapedType>(v.getType()).getRank();
    if (auto c = dyn_cast<CastOp>(def)) {
      Type from = elementOf(c.getInput());
      if (!isa<FloatType>(elementOf(c.getResult())))
        return std::nullopt;
      if (isNarrow(from)) {
        d.narrow = from;
        std::reverse(d.ops.begin(), d.ops.end());
        return d;
      }
      if (!isa<FloatType>(from))
        return std::nullopt;
      v = c.getInput();
    } else if (auto t = dyn_cast<TransposeOp>(def)) {
      v = t.getInput();
      // After a reshape the dims no longer line up: scalars only.
      if (anyDim)
        continue;
      // Result dim i is input dim perm[i].
      ArrayRef<int64_t> perm = t.getPerm();
      SmallVector<bool> in(perm.size(), false);
      for (auto [i, p] : llvm::enumerate(perm))
        in[p] = (*dims)[i];
      *dims = in;
    } else if (isa<ReshapeOp, ExpandOp>(def)) {
      anyDim = true;
      v = def->getOperand(0);
    } else if (isa<MulOp, SubOp>(def)) {
      // The chain is the operand of the result's shape (a zero point is
      // subtracted from it; a scale multiplies either side).
      Value lhs = def->getOperand(0), rhs = def->getOperand(1);
      bool chainLhs = isa<SubOp>(def) || lhs.getType() == v.getType();
      Value chain = chainLhs ? lhs : rhs, param = chainLhs ? rhs : lhs;
      if (chain.getType() != v.getType())
        return std::nullopt;
      if (!constantAlong(param, rank, *dims, anyDim)) {
        if (!varying)
          return std::nullopt;
        varied = true;
      }
      v = chain;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}
} // namespace

std::optional<DequantizedOperand>
dfa::graph::dequantizedOperand(Operation *product, unsigned index,
                               bool shared) {
  bool varied = false;
  std::optional<DequantizedOperand> d =
      dequantChain(product, index, shared, /*varying=*/true, varied);
  if (!d || !varied)
    return d;
  // Scales that vary along the sum (a block per K rows) are applied to
  // the weight tile before it is multiplied, in the other operand's float
  // type, as weight-only kernels (W4A16) do: only when that operand is
  // not itself read narrow.
  bool otherVaried = false;
  if (product->getNumOperands() > 1 &&
      dequantChain(product, 1 - index, shared, /*varying=*/false, otherVaried))
    return std::nullopt;
  return d;
}

std::optional<Type> dfa::graph::quantizedProductType(Operation *product) {
  std::optional<DequantizedOperand> a = dequantizedOperand(product, 0),
                                    b = dequantizedOperand(product, 1);
  if (!a || !b || isa<IntegerType>(a->narrow) != isa<IntegerType>(b->narrow))
    return std::nullopt;
  return a->narrow.getIntOrFloatBitWidth() >= b->narrow.getIntOrFloatBitWidth()
             ? a->narrow
             : b->narrow;
}

Type dfa::graph::arithmeticType(Block &body, Type fallback) {
  for (Operation &op : body) {
    OpClass c = classify(&op);
    if ((c == OpClass::Matmul || c == OpClass::Conv || c == OpClass::Attention) &&
        op.getNumOperands() > 0) {
      // Both operands dequantized here from one kind of narrow type (int8
      // x int8, float8 x float8): the product runs in it (MatMulInteger's
      // int32 result too). One alone (a weight-only quantized layer) runs
      // in the other operand's type.
      if (std::optional<Type> q = quantizedProductType(&op))
        return *q;
      // Any other product with an integer result (a requantized one whose
      // operands another kernel dequantized) runs at that type.
      if (isa_and_nonnull<IntegerType>(fallback))
        return fallback;
      if (auto t = dyn_cast<ShapedType>(op.getOperand(0).getType()))
        return t.getElementType();
    }
  }
  return fallback;
}

std::optional<CollectiveOf> dfa::graph::collectiveOf(Block &body) {
  for (Operation &op : body) {
    if (auto r = dyn_cast<AllReduceOp>(op))
      return CollectiveOf{false, tensorBytes(r.getType()), int64_t(r.getChips())};
    if (auto g = dyn_cast<AllGatherOp>(op))
      return CollectiveOf{true, tensorBytes(g.getType()), int64_t(g.getChips())};
  }
  return std::nullopt;
}
