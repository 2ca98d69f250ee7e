//===- TensorParallel.cpp - one chip's program of a tensor-parallel group -===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// graph-shard's `tensor-parallel` N: the module becomes the program each of
// N chips runs (SPMD, as GSPMD and Megatron-LM partition a model). Every
// value is replicated, split along one dim into N equal parts (each chip
// holds one; or N / r parts, each held by r chips, as GQA's K/V heads when
// they are fewer than the chips), or partial (each chip holds a summand).
// A forward walk gives each op the state its rule allows, converting
// operands where the rule needs another (graph.all_gather,
// graph.all_reduce, a local slice):
//  - a matmul with a [K, N] weight and a replicated input splits the
//    weight's columns (column-parallel: the result is split along N); with
//    an input split along K it splits the weight's rows (row-parallel: the
//    result is partial), so two products in a row need one all-reduce; a
//    mixture of experts' grouped product splits every expert's matrix so;
//  - partial sums added together stay partial, a replicated addend
//    deferred until the sum is reduced (a parallel residual: one
//    all-reduce);
//  - pointwise ops, views, reductions over other dims, softmax, attention
//    and concatenations keep a split (the heads of a transformer's
//    attention, the columns of its MLP);
//  - anything else, and anything a split does not divide, gets replicated
//    operands;
//  - a reader that wants a finer split of what a chip holds (the query
//    heads' share of a replicated K/V head) takes it locally: no transfer.
// Types become the chip's local shapes; a graph input that every reader
// slices becomes that slice (each chip holds its part of a KV cache), and
// a split result is returned as the chip's part.
//
//===----------------------------------------------------------------------===//

#include "Sharding.h"

#include "dfa/Transforms/TargetModel.h"

#include "dialects/Graph/GraphOps.h"

#include "dfa/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

std::optional<shard::SplitDim>
dfa::shard::reshapeSplit(ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                         SplitDim s, int64_t n) {
  int64_t d = s.dim;
  if (s.replicas < 1 || n % s.replicas != 0)
    return std::nullopt;
  n = s.parts(n);
  if (n < 2 || d < 0 || d >= int64_t(in.size()) || s.block < 1 ||
      in[d] % s.block != 0 || (in[d] / s.block) % n != 0)
    return std::nullopt;
  int64_t groups = s.block;
  for (int64_t i = 0; i < d; ++i)
    groups *= in[i];
  if (groups == 0) // an empty tensor: nothing to split
    return std::nullopt;
  int64_t prefix = 1;
  for (int64_t e = 0; e < int64_t(out.size()) && prefix > 0; ++e) {
    if (groups % prefix == 0) {
      int64_t block = groups / prefix;
      if (out[e] % block == 0 && (out[e] / block) % n == 0)
        return SplitDim{e, block, s.replicas};
    }
    prefix *= out[e];
    if (prefix > groups)
      break;
  }
  return std::nullopt;
}

namespace {

/// How one chip holds a value.
using shard::SplitDim;

struct State {
  enum Kind { Replicated, Split, Partial } kind = Replicated;
  SplitDim at; // Split: the dim divided among the chips
  static State rep() { return {}; }
  static State split(SplitDim s) { return {Split, s}; }
  static State partial() { return {Partial, {}}; }
  bool isSplit(SplitDim s) const { return kind == Split && at == s; }
};

RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

RankedTensorType localType(RankedTensorType t, int64_t dim, int64_t n) {
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] /= n;
  return RankedTensorType::get(shape, t.getElementType());
}

RankedTensorType globalType(RankedTensorType t, int64_t dim, int64_t n) {
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] *= n;
  return RankedTensorType::get(shape, t.getElementType());
}

/// Whether `pad` leaves dim `d` as it is.
bool padKeeps(PadOp pad, int64_t d) {
  ArrayRef<int64_t> pads = pad.getPads();
  int64_t rank = int64_t(pads.size()) / 2;
  return d >= 0 && d < rank && pads[d] == 0 && pads[d + rank] == 0;
}

/// The split of `u`'s results that a split `s` of its first operand lands
/// on, for the ops that keep such a split as it is: views (reshape,
/// transpose, an expand that does not grow the dim), softmax and
/// reductions over other dims, and splits and slices that keep the dim
/// whole (or, for a split along it, cut every piece into `n` parts).
/// `shape` is the operand's whole (global) shape; nullopt where `u` needs
/// the operand whole or keeps no split of it.
std::optional<SplitDim> keptSplit(Operation *u, ArrayRef<int64_t> shape,
                                  SplitDim s, int64_t n) {
  auto resultType = [&]() { return tensorType(u->getResult(0)); };
  int64_t d = s.dim;
  using R = std::optional<SplitDim>;
  auto at = [&](int64_t e) -> R { return SplitDim{e, s.block, s.replicas}; };
  return llvm::TypeSwitch<Operation *, R>(u)
      .Case([&](ReshapeOp rs) {
        return shard::reshapeSplit(shape, resultType().getShape(), s, n);
      })
      .Case([&](TransposeOp tr) -> R {
        return at(llvm::find(tr.getPerm(), d) - tr.getPerm().begin());
      })
      .Case([&](ExpandOp ex) -> R {
        int64_t e = d + resultType().getRank() - int64_t(shape.size());
        if (resultType().getDimSize(e) != shape[d])
          return std::nullopt;
        return at(e);
      })
      .Case<SoftmaxOp, LogSoftmaxOp>([&](Operation *o) -> R {
        if (cast<IntegerAttr>(o->getAttr("axis")).getInt() == d)
          return std::nullopt;
        return at(d);
      })
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp,
            ReduceL1Op, ReduceL2Op, ReduceSumSquareOp, ReduceLogSumOp,
            ReduceLogSumExpOp>([&](Operation *o) -> R {
        auto axes = cast<DenseI64ArrayAttr>(o->getAttr("axes")).asArrayRef();
        if (axes.empty() || llvm::is_contained(axes, d))
          return std::nullopt;
        if (cast<BoolAttr>(o->getAttr("keepdims")).getValue())
          return at(d);
        return at(d - llvm::count_if(axes, [&](int64_t a) { return a < d; }));
      })
      .Case([&](SplitOp sp) -> R {
        if (d != int64_t(sp.getAxis()))
          return at(d);
        // Along the split dim every piece is cut among the chips: pieces
        // that are the blocks of a concatenation come apart exactly, and
        // the pieces of a column-parallel product (a fused QKV) take the
        // columns Megatron-LM assigns each chip.
        ArrayRef<int64_t> sizes = sp.getSizes();
        bool blocks = s.block == int64_t(sizes.size()) &&
                      llvm::all_equal(sizes);
        if ((s.block != 1 && !blocks) ||
            llvm::any_of(sizes, [&](int64_t z) { return z % s.parts(n) != 0; }))
          return std::nullopt;
        return SplitDim{d, 1, s.replicas};
      })
      .Case([&](SliceOp sl) -> R {
        // The whole dim, or every t-th element of it from one of the
        // first t (a fused SwiGLU's interleaved gate and linear columns,
        // GenAI's MoE): each chip's part holds whole strides, so its own
        // t-th elements are its part of the result.
        int64_t start = sl.getStarts()[d], step = sl.getSteps()[d];
        int64_t parts = s.parts(n);
        if (step < 1 || start < 0 || start >= step || shape[d] % step != 0 ||
            resultType().getDimSize(d) != shape[d] / step)
          return std::nullopt;
        if (step > 1 && (s.block != 1 || (shape[d] / parts) % step != 0))
          return std::nullopt;
        return at(d);
      })
      .Case([&](PadOp pad) -> R {
        if (!padKeeps(pad, d))
          return std::nullopt;
        return at(d);
      })
      .Default([](Operation *) -> R { return std::nullopt; });
}

/// The index-batch dim along which component `coord` of scatter_nd's
/// `indices` counts 0, 1, 2, ... and is the same at every other position
/// (GQA's in-place append addresses K/V head h from the updates' head h):
/// a split of the updates along that dim is the data's split along
/// `coord`, each chip's rows landing in its own part. Read through a
/// concatenation of the components and a broadcast of a constant.
std::optional<int64_t> iotaDim(Value indices, int64_t coord) {
  auto it = tensorType(indices);
  int64_t q = it.getRank();
  if (q < 2 || !it.hasStaticShape())
    return std::nullopt;
  Value v = indices;
  int64_t c = coord;
  while (auto cat = v.getDefiningOp<ConcatOp>()) {
    if (int64_t(cat.getAxis()) != q - 1)
      return std::nullopt;
    Value next;
    for (Value in : cat.getInputs()) {
      int64_t w = tensorType(in).getDimSize(q - 1);
      if (c < w) {
        next = in;
        break;
      }
      c -= w;
    }
    if (!next)
      return std::nullopt;
    v = next;
  }
  while (auto ex = v.getDefiningOp<ExpandOp>())
    v = ex.getInput();
  auto cst = v.getDefiningOp<ConstantOp>();
  auto values = cst ? dyn_cast<DenseIntElementsAttr>(cst.getValue()) : nullptr;
  auto ct = tensorType(v);
  if (!values || ct.getRank() > q || !ct.hasStaticShape())
    return std::nullopt;
  // The constant right-aligned to the indices (a broadcast's rule).
  int64_t off = q - ct.getRank();
  SmallVector<int64_t> shape(off, 1);
  llvm::append_range(shape, ct.getShape());
  if (shape[q - 1] != 1)
    shape[q - 1] = 1; // only component c's column is read below
  int64_t col = ct.getShape().empty() || ct.getShape().back() == 1 ? 0 : c;
  int64_t width = ct.getShape().empty() ? 1 : ct.getShape().back();
  SmallVector<int64_t> ints;
  for (const APInt &x : values.getValues<APInt>())
    ints.push_back(x.getSExtValue());
  for (int64_t j = 0; j + 1 < q; ++j) {
    if (shape[j] != it.getDimSize(j) || shape[j] < 2)
      continue;
    bool iota = true;
    // Row-major walk over the constant's positions, component `col` only.
    int64_t rows = ct.getNumElements() / width;
    for (int64_t r = 0; r < rows && iota; ++r) {
      int64_t rest = r, pj = 0;
      for (int64_t e = q - 2; e >= 0; --e) {
        int64_t pos = rest % shape[e];
        rest /= shape[e];
        if (e == j)
          pj = pos;
      }
      iota = ints[r * width + col] == pj;
    }
    if (iota)
      return j;
  }
  return std::nullopt;
}

/// Whether a scatter_elements' or gather_elements' operands are all as
/// large as its data along `d` (the verifier lets the indices be smaller:
/// then they would be cut at other offsets than the data). `whole` gives
/// an operand's whole type (the default: its type as it is).
bool alignedIndices(
    Operation *op, int64_t d,
    llvm::function_ref<RankedTensorType(Value)> whole = [](Value v) {
      return tensorType(v);
    }) {
  int64_t size = whole(op->getOperand(0)).getDimSize(d);
  return llvm::all_of(op->getOperands(), [&](Value v) {
    return whole(v).getDimSize(d) == size;
  });
}

/// The result dim of gather `g` that a split of its data along `d` lands
/// on: any dim but the gathered one (Falcon's and BLOOM's fused QKV, viewed
/// [B, S, H, 3, D] and gathered along the 3 by heads).
std::optional<int64_t> gatherDim(GatherOp g, int64_t d) {
  int64_t axis = g.getAxis();
  if (d == axis)
    return std::nullopt;
  return d < axis ? d : d + tensorType(g.getIndices()).getRank() - 1;
}

/// The same for gather_nd, whose index tuples address the data's dims
/// [batch_dims, batch_dims + k): a split of a dim past them (the falcon
/// new-architecture QKV's heads, its pieces gathered along a leading dim).
std::optional<int64_t> gatherNDDim(GatherNDOp g, int64_t d) {
  auto it = tensorType(g.getIndices());
  int64_t q = it.getRank(), k = it.getDimSize(q - 1), b = g.getBatchDims();
  if (ShapedType::isDynamic(k) || d < b + k)
    return std::nullopt;
  // The result is input[:b] + indices[b:-1] + input[b + k:].
  return q - 1 + d - b - k;
}

/// The data dim of scatter_nd `sc` that a split of its operand `operand`
/// (0: data, 2: updates) along `d` is, where each chip's updates land in
/// its own part of the data: a dim the index tuples do not address (the
/// updates' slice dims), or one they address by the updates' own position
/// (`iotaDim`). Nullopt otherwise.
std::optional<int64_t> scatterDataDim(ScatterNDOp sc, unsigned operand,
                                      int64_t d) {
  auto it = tensorType(sc.getIndices());
  auto dt = tensorType(sc.getInput());
  int64_t q = it.getRank(), k = it.getDimSize(q - 1);
  if (ShapedType::isDynamic(k) || operand == 1)
    return std::nullopt;
  // Coordinate `e` counts along the updates' dim `j`, and no other
  // coordinate does (a diagonal's (h, h) would address another chip's
  // part along the unsplit dim).
  auto onlyIota = [&](int64_t e, int64_t j) {
    if (it.getDimSize(j) != dt.getDimSize(e))
      return false;
    for (int64_t o = 0; o < k; ++o)
      if (o != e && iotaDim(sc.getIndices(), o) == j)
        return false;
    return true;
  };
  if (operand == 0) {
    if (d >= k)
      return d;
    std::optional<int64_t> j = iotaDim(sc.getIndices(), d);
    return j && onlyIota(d, *j) ? std::optional(d) : std::nullopt;
  }
  if (d >= q - 1)
    return k + (d - (q - 1));
  for (int64_t e = 0; e < k; ++e)
    if (iotaDim(sc.getIndices(), e) == d && onlyIota(e, d))
      return e;
  return std::nullopt;
}

struct Partitioner {
  Partitioner(const target::Target &t, int64_t n, bool remarks)
      : t(t), n(n), remarks(remarks) {}
  const target::Target &t;
  int64_t n;
  bool remarks;
  DenseMap<Value, State> states;
  /// Conversions made so far, shared by every later reader.
  DenseMap<Value, Value> replicated;
  std::map<std::tuple<void *, int64_t, int64_t, int64_t>, Value> sliced;
  /// Local slices of graph inputs (block arguments), to fold into the
  /// argument when every reader takes the same one.
  SmallVector<SliceOp> argSlices;
  /// The same through blocks: reshape to [blocks, rest], slice, merge.
  SmallVector<std::tuple<ReshapeOp, SliceOp, ReshapeOp>> argChains;
  /// Weight slices made so far: (weight, dim, its size, whether it holds
  /// a fused product's pieces) -> the slice.
  std::map<std::tuple<Operation *, int64_t, int64_t, bool>, Value> weightSlices;
  /// Repeats narrowed so far: (value, dim, blocks, factor) -> the smaller
  /// repeat.
  std::map<std::tuple<void *, int64_t, int64_t, int64_t>, Value> narrowed;
  /// Ops a rule already partitioned while visiting another (the split of
  /// a fused product whose pieces are held differently).
  DenseSet<Operation *> handled;
  /// Ops whose reader now takes a part instead (a whole weight, its
  /// transpose): erased at the end when nothing else reads them.
  SmallVector<Operation *> maybeDead;
  /// A partial value that is a partial sum (`core`) plus replicated
  /// addends still to be added once it is reduced (deferAdd). The op that
  /// defines such a value in the IR adds them on every chip, so no reader
  /// takes it as it is: each converts it (toReplicated).
  struct Deferred {
    Value core;
    /// Each addend, and whether it was the add's left operand (the sum
    /// keeps the model's operand order).
    SmallVector<std::pair<Value, bool>> addends;
  };
  DenseMap<Value, Deferred> deferred;
  /// The ops that define deferred values in the IR (adds, and the linear
  /// ops carryPartial rebuilt): erased, once no reader is left, before
  /// graph inputs are folded to the chip's part.
  SmallVector<Operation *> virtualOps;
  /// Values toReplicated built (a deferred value's reduction plus its
  /// addends): every later reader shares them whole, so splitBack leaves
  /// them alone.
  DenseSet<Value> conversions;
  int64_t collectives = 0, partitioned = 0;

  State stateOf(Value v) {
    auto it = states.find(v);
    return it == states.end() ? State::rep() : it->second;
  }

  /// The whole tensor's type: a split value's type is its chip's part.
  RankedTensorType wholeType(Value v) {
    State s = stateOf(v);
    return s.kind == State::Split
               ? globalType(tensorType(v), s.at.dim, s.at.parts(n))
               : tensorType(v);
  }

  /// Whether `v` holds a superset of the chip's part under `at`: split the
  /// same way with every part held by a multiple of `at`'s replicas (a
  /// chip takes its share of its own part: no transfer).
  bool refines(Value v, SplitDim at) {
    State s = stateOf(v);
    if (s.kind != State::Split || s.at.dim != at.dim ||
        s.at.block != at.block || at.replicas < 1 ||
        s.at.replicas % at.replicas != 0)
      return false;
    int64_t local = tensorType(v).getDimSize(at.dim), f = s.at.replicas / at.replicas;
    return local % at.block == 0 && (local / at.block) % f == 0 &&
           local / at.block >= f;
  }

  /// Whether `v` is split as `at` says, holds more of it (`refines`), or
  /// its whole size there divides into the parts of each block.
  bool divides(Value v, SplitDim at) {
    if (refines(v, at))
      return true;
    auto type = wholeType(v);
    if (at.dim < 0 || at.dim >= type.getRank() || at.replicas < 1 ||
        n % at.replicas != 0)
      return false;
    int64_t size = type.getDimSize(at.dim), parts = at.parts(n);
    return parts >= 2 && size % at.block == 0 &&
           (size / at.block) % parts == 0 && size / at.block >= parts;
  }

  /// `x` with dim `dim` (of `groups` x the rest) seen as two: [groups,
  /// rest] (or merged back, `merge`).
  Value regroup(OpBuilder &b, Location loc, Value x, int64_t dim,
                int64_t groups, bool merge) {
    auto type = tensorType(x);
    SmallVector<int64_t> shape(type.getShape());
    if (merge) {
      shape[dim] *= shape[dim + 1];
      shape.erase(shape.begin() + dim + 1);
    } else {
      int64_t size = shape[dim];
      shape[dim] = groups;
      shape.insert(shape.begin() + dim + 1, size / groups);
    }
    return b.create<ReshapeOp>(
        loc, RankedTensorType::get(shape, type.getElementType()), x);
  }

  /// `v` whole on every chip, converted before `user`.
  Value toReplicated(Value v, Operation *user) {
    State s = stateOf(v);
    if (s.kind == State::Replicated)
      return v;
    if (Value done = replicated.lookup(v))
      return done;
    OpBuilder b(user);
    Value r;
    if (auto it = deferred.find(v); it != deferred.end()) {
      // The sum reduced, then its replicated addends added, in order.
      Deferred d = it->second;
      r = toReplicated(d.core, user);
      for (auto [a, left] : d.addends) {
        r = left ? b.create<AddOp>(user->getLoc(), a, r)
                 : b.create<AddOp>(user->getLoc(), r, a);
        conversions.insert(r);
      }
      replicated[v] = r;
      return r;
    }
    if (s.kind == State::Partial) {
      r = b.create<AllReduceOp>(user->getLoc(), v.getType(), v,
                                b.getI64IntegerAttr(n));
    } else if (s.at.block == 1) {
      // Gathered from one chip of each part.
      int64_t parts = s.at.parts(n);
      r = b.create<AllGatherOp>(user->getLoc(),
                                globalType(tensorType(v), s.at.dim, parts), v,
                                b.getI64IntegerAttr(s.at.dim),
                                b.getI64IntegerAttr(parts));
    } else {
      // Each block's parts joined: the blocks as a dim of their own.
      int64_t parts = s.at.parts(n);
      Value g = regroup(b, user->getLoc(), v, s.at.dim, s.at.block, false);
      g = b.create<AllGatherOp>(user->getLoc(),
                                globalType(tensorType(g), s.at.dim + 1, parts), g,
                                b.getI64IntegerAttr(s.at.dim + 1),
                                b.getI64IntegerAttr(parts));
      r = regroup(b, user->getLoc(), g, s.at.dim, s.at.block, true);
    }
    ++collectives;
    replicated[v] = r;
    return r;
  }

  /// `v` = reshape(expand(x)), a repeat of a broadcast (GQA's K/V heads
  /// repeated for their query heads), or a transpose of one, with its
  /// split dim `f` times smaller by repeating fewer times: every copy is
  /// alike, so when the chip holds one K/V head (the dims merged before the
  /// repeated one, past a block split's blocks, are 1 here) its share is a
  /// smaller repeat, and the
  /// attention kernel that reads it still reads each K/V head once. Null
  /// otherwise (several K/V heads a chip: its share of their repeats is
  /// not one repeat).
  Value narrowRepeat(Value v, SplitDim at, int64_t f) {
    if (f < 2)
      return {};
    Value &done = narrowed[{v.getAsOpaquePointer(), at.dim, at.block, f}];
    if (done)
      return done;
    if (auto tr = v.getDefiningOp<TransposeOp>()) {
      Value in = narrowRepeat(tr.getInput(),
                              {tr.getPerm()[at.dim], at.block, at.replicas}, f);
      if (!in)
        return {};
      OpBuilder b(tr);
      b.setInsertionPointAfterValue(in);
      SmallVector<int64_t> shape(tensorType(v).getShape());
      shape[at.dim] /= f;
      maybeDead.push_back(tr);
      return done = b.create<TransposeOp>(
                 tr.getLoc(),
                 RankedTensorType::get(shape, tensorType(v).getElementType()),
                 in, tr.getPermAttr());
    }
    auto rs = v.getDefiningOp<ReshapeOp>();
    auto ex = rs ? rs.getInput().getDefiningOp<ExpandOp>() : nullptr;
    if (!ex)
      return {};
    auto et = tensorType(ex.getResult()), it = tensorType(ex.getInput()),
         vt = tensorType(v);
    ArrayRef<int64_t> e = et.getShape(), vs = vt.getShape();
    int64_t rank = et.getRank(), d = at.dim;
    // The dims [i, j) of the repeat that merge into v's split dim.
    int64_t before = 1;
    for (int64_t k = 0; k < d; ++k)
      before *= vs[k];
    int64_t i = 0, prod = 1;
    while (i < rank && prod < before)
      prod *= e[i++];
    int64_t j = i, merged = 1;
    while (j < rank && merged < vs[d])
      merged *= e[j++];
    if (prod != before || merged != vs[d])
      return {};
    // Past the blocks' dims, the first dim of the merge that is not 1
    // must be the repeated one.
    int64_t k = i, blocks = 1;
    while (k < j && blocks < at.block)
      blocks *= e[k++];
    if (blocks != at.block)
      return {};
    while (k < j && e[k] == 1)
      ++k;
    int64_t off = rank - it.getRank();
    bool repeated =
        k < j && (k < off || it.getDimSize(k - off) == 1) && e[k] % f == 0;
    if (!repeated)
      return {};
    SmallVector<int64_t> shape(e), out(vs);
    shape[k] /= f;
    out[d] /= f;
    OpBuilder b(rs);
    b.setInsertionPointAfter(rs);
    auto narrow = b.create<ExpandOp>(
        ex.getLoc(), RankedTensorType::get(shape, et.getElementType()),
        ex.getInput());
    maybeDead.push_back(rs);
    return done = b.create<ReshapeOp>(
               rs.getLoc(), RankedTensorType::get(out, vt.getElementType()),
               narrow);
  }

  /// `v`, a whole value read only by the op that wants its part, computed
  /// as that part instead when the op making it is a pad that leaves the
  /// dim whole or a broadcasting pointwise op: its operands are taken
  /// split in turn, back to a graph input held as the chip's part (GQA's
  /// cache buffer grown for its new rows, or a window-sized cache with its
  /// stale rows zeroed: each chip holds its heads of the cache, not a
  /// slice of the whole). Null otherwise.
  Value splitBack(Value v, SplitDim at) {
    Operation *def = v.getDefiningOp();
    if (!def || !v.hasOneUse() || def->getNumResults() != 1 || at.block != 1 ||
        stateOf(v).kind != State::Replicated || conversions.contains(v) ||
        !divides(v, at))
      return {};
    int64_t r = tensorType(v).getRank();
    SmallVector<std::optional<SplitDim>> wants;
    if (auto pad = dyn_cast<PadOp>(def)) {
      if (!padKeeps(pad, at.dim) || !divides(pad.getInput(), at))
        return {};
      wants.push_back(at);
    } else if (classify(def) == OpClass::Pointwise) {
      for (Value x : def->getOperands()) {
        auto xt = tensorType(x);
        SplitDim mine{at.dim - (r - xt.getRank()), 1, at.replicas};
        if (mine.dim < 0 || xt.getDimSize(mine.dim) == 1) {
          wants.push_back(std::nullopt);
          continue;
        }
        if (stateOf(x).kind != State::Replicated || !divides(x, mine))
          return {};
        wants.push_back(mine);
      }
    } else {
      return {};
    }
    for (auto [i, want] : llvm::enumerate(wants))
      if (want)
        def->setOperand(unsigned(i), toSplit(def->getOperand(unsigned(i)), *want, def));
    v.setType(localType(tensorType(v), at.dim, at.parts(n)));
    states[v] = State::split(at);
    ++partitioned;
    return v;
  }

  /// `v` split as `at` says (the local part of a replicated value, or of a
  /// part held by more chips, is a slice each chip takes of its own copy:
  /// no transfer).
  Value toSplit(Value v, SplitDim at, Operation *user) {
    if (stateOf(v).isSplit(at))
      return v;
    if (Value part = splitBack(v, at))
      return part;
    bool refine = refines(v, at);
    Value whole = refine ? v : toReplicated(v, user);
    auto key = std::make_tuple(whole.getAsOpaquePointer(), at.dim, at.block,
                               at.replicas);
    if (Value done = sliced[key])
      return done;
    // The part of a repeated (broadcast) value is a smaller repeat: GQA's
    // K/V head held by several chips (or MQA's by all), each taking its
    // query heads' share.
    int64_t parts = refine ? n / stateOf(v).at.replicas : 1;
    if (Value narrow = narrowRepeat(whole, at, at.parts(n) / parts)) {
      states[narrow] = State::split(at);
      sliced[key] = narrow;
      return narrow;
    }
    // A weight's part is a weight the chip holds (a bias's columns), not a
    // slice of the whole one.
    if (auto w = whole.getDefiningOp<WeightOp>(); w && at.block == 1) {
      maybeDead.push_back(w);
      Value part = weightPart(w, at.dim,
                              w.getType().getDimSize(at.dim) / at.parts(n),
                              /*pieces=*/false);
      states[part] = State::split(at);
      sliced[key] = part;
      return part;
    }
    OpBuilder b(user);
    if (auto arg = dyn_cast<BlockArgument>(whole))
      b.setInsertionPointToStart(arg.getOwner());
    else
      b.setInsertionPointAfterValue(whole);
    Location loc = user->getLoc();
    // Each block's part: the blocks as a dim of their own, sliced, merged.
    Value x = at.block == 1 ? whole : regroup(b, loc, whole, at.dim, at.block, false);
    int64_t dim = at.block == 1 ? at.dim : at.dim + 1;
    auto type = tensorType(x);
    SmallVector<int64_t> zeros(type.getRank(), 0), ones(type.getRank(), 1);
    auto slice = b.create<SliceOp>(loc, localType(type, dim, at.parts(n) / parts), x,
                                   b.getDenseI64ArrayAttr(zeros),
                                   b.getDenseI64ArrayAttr(ones));
    Value part = at.block == 1 ? Value(slice)
                               : regroup(b, loc, slice, at.dim, at.block, true);
    if (isa<BlockArgument>(whole) && at.block == 1)
      argSlices.push_back(slice);
    else if (isa<BlockArgument>(whole))
      argChains.push_back({x.getDefiningOp<ReshapeOp>(), slice,
                           part.getDefiningOp<ReshapeOp>()});
    states[part] = State::split(at);
    sliced[key] = part;
    return part;
  }

  /// Weight `w` (a 2-D weight, or a bias) with `dim` cut to one chip's
  /// `size`: the chip's program holds only its part (no data: the
  /// program's values are not simulated).
  Value weightPart(WeightOp w, int64_t dim, int64_t size, bool pieces) {
    Value &part = weightSlices[{w.getOperation(), dim, size, pieces}];
    if (part)
      return part;
    OpBuilder b(w);
    b.setInsertionPointAfter(w);
    std::string name =
        (w.getSymName() +
         (dim == w.getType().getRank() - 1 ? ".tp-cols" : ".tp-rows"))
            .str();
    SmallVector<int64_t> shape(w.getType().getShape());
    shape[dim] = size;
    part = b.create<WeightOp>(
        w.getLoc(), RankedTensorType::get(shape, w.getType().getElementType()),
        name, "", 0);
    return part;
  }

  /// The weight of rank `rank` an operand reads (2: a product's [K, N]; 3:
  /// a grouped product's [E, K, N], one matrix an expert), looking through
  /// a transpose of its last two dims; `dim` is mapped to the weight's.
  WeightOp weightOf(Value v, int64_t &dim, int64_t rank = 2) {
    if (auto tr = v.getDefiningOp<TransposeOp>()) {
      ArrayRef<int64_t> perm = tr.getPerm();
      if (int64_t(perm.size()) != rank || perm[rank - 2] != rank - 1 ||
          perm[rank - 1] != rank - 2)
        return nullptr;
      for (int64_t i = 0; i < rank - 2; ++i)
        if (perm[i] != i)
          return nullptr;
      if (dim >= rank - 2)
        dim = 2 * rank - 3 - dim;
      v = tr.getInput();
    }
    auto w = v.getDefiningOp<WeightOp>();
    if (!w || tensorType(w).getRank() != rank || !tensorType(w).hasStaticShape())
      return nullptr;
    return w;
  }

  /// The experts' weight [E, ...] whose matrices `v` gathers, one a row
  /// (the batched form of a mixture of experts: Hugging Face's
  /// `batched_mm` experts, gather or gather_nd along E then a batched
  /// product), with `dim` (of `v`) mapped to the weight's; null otherwise.
  WeightOp gatheredWeight(Value v, int64_t &dim) {
    Operation *g = v.getDefiningOp();
    if (!isa_and_nonnull<GatherOp, GatherNDOp>(g) ||
        stateOf(g->getOperand(0)).kind != State::Replicated)
      return nullptr;
    auto w = g->getOperand(0).getDefiningOp<WeightOp>();
    if (!w || w.getType().getRank() != 3 || !w.getType().hasStaticShape())
      return nullptr;
    if (auto ga = dyn_cast<GatherOp>(g); ga && ga.getAxis() != 0)
      return nullptr;
    if (auto gn = dyn_cast<GatherNDOp>(g);
        gn && (gn.getBatchDims() != 0 ||
               tensorType(gn.getIndices()).getShape().back() != 1))
      return nullptr;
    for (int64_t wd : {1, 2}) {
      std::optional<int64_t> e = isa<GatherOp>(g)
                                     ? gatherDim(cast<GatherOp>(g), wd)
                                     : gatherNDDim(cast<GatherNDOp>(g), wd);
      if (e && *e == dim) {
        dim = wd;
        return w;
      }
    }
    return nullptr;
  }

  /// The gather `v` (gatheredWeight) of its weight's part: `dim` of `v`
  /// cut into `n` parts.
  Value gatheredWeightOperand(Value v, int64_t dim) {
    int64_t wdim = dim;
    WeightOp w = gatheredWeight(v, wdim);
    Operation *g = v.getDefiningOp();
    maybeDead.push_back(g);
    Value part = weightPart(w, wdim, w.getType().getDimSize(wdim) / n, false);
    OpBuilder b(g);
    Operation *copy = b.clone(*g);
    copy->setOperand(0, part);
    copy->getResult(0).setType(localType(tensorType(v), dim, n));
    ++partitioned;
    return copy->getResult(0);
  }

  /// The operand `v` (a weight, maybe transposed) with its `dim` cut to
  /// `size` (default: one of `n` parts); `pieces`: the chip's columns of
  /// each piece of a fused product, side by side.
  Value weightOperand(Value v, int64_t dim, int64_t size = 0,
                      bool pieces = false) {
    maybeDead.push_back(v.getDefiningOp());
    int64_t wdim = dim;
    WeightOp w = weightOf(v, wdim, tensorType(v).getRank());
    Value part = weightPart(
        w, wdim, size > 0 ? size : w.getType().getDimSize(wdim) / n, pieces);
    if (auto tr = v.getDefiningOp<TransposeOp>()) {
      OpBuilder b(tr);
      b.setInsertionPointAfterValue(part);
      auto type = tensorType(part);
      SmallVector<int64_t> shape;
      for (int64_t p : tr.getPerm())
        shape.push_back(type.getDimSize(p));
      return b.create<TransposeOp>(
          tr.getLoc(), RankedTensorType::get(shape, type.getElementType()),
          part, tr.getPermAttr());
    }
    return part;
  }

  void setOperands(Operation *op, ArrayRef<Value> values) {
    for (auto [i, v] : llvm::enumerate(values))
      op->setOperand(unsigned(i), v);
  }

  /// Every operand replicated, the results too.
  void replicate(Operation *op) {
    SmallVector<Value> ops;
    for (Value v : op->getOperands())
      ops.push_back(toReplicated(v, op));
    setOperands(op, ops);
  }

  /// Results split as `at` says (each result's local type).
  void splitResults(Operation *op, SplitDim at) {
    for (Value r : op->getResults()) {
      r.setType(localType(tensorType(r), at.dim, at.parts(n)));
      states[r] = State::split(at);
    }
    ++partitioned;
  }

  /// With remarks, names a product whose `cols` columns are cut into
  /// parts several chips hold.
  void remarkReplicas(Operation *op, SplitDim at, int64_t cols) {
    if (remarks && at.replicas > 1)
      emitRemark(op->getLoc()) << "columns in " << at.parts(n) << " parts of "
                               << cols / at.parts(n) << ", each held by "
                               << at.replicas << " chips";
  }

  bool keepsSplit(Value v, SplitDim at);
  void visit(Operation *op);
  bool visitMatmul(MatMulOp m);
  bool columnParallel(MatMulOp m, SplitDim at);
  bool fusedColumnParallel(MatMulOp m);
  bool visitGemm(GemmOp g);
  bool visitPointwise(Operation *op);
  bool deferAdd(AddOp add);
  bool visitGroupedMatmul(GroupedMatMulOp g);
  bool carryPartial(Operation *op);
  /// The ops of deferred values no reader is left of (all of them, once
  /// every reader converted), latest first: a chain's later op reads the
  /// earlier one.
  /// A reader left on one would add its addends on every chip: a bug in
  /// a rule, reported as an internal error rather than a wrong program.
  LogicalResult eraseVirtualOps() {
    DenseSet<Operation *> adds(virtualOps.begin(), virtualOps.end());
    for (Operation *op : llvm::reverse(virtualOps)) {
      if (!op->use_empty())
        return op->emitError("internal error: tensor-parallel: a deferred "
                             "sum's op still has a reader ('")
               << (*op->getUsers().begin())->getName() << "')";
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp(); def && !adds.contains(def))
          maybeDead.push_back(def);
      op->erase();
    }
    virtualOps.clear();
    return success();
  }
  /// `sum` = `part` + `addend` in the IR, with `part` partial and `addend`
  /// replicated: `sum` becomes partial, `addend` deferred.
  void defer(Value sum, Value part, Value addend, bool left) {
    Deferred d = deferredOf(part);
    d.addends.push_back({addend, left});
    deferred[sum] = d;
    states[sum] = State::partial();
    virtualOps.push_back(sum.getDefiningOp());
  }
  Deferred deferredOf(Value v) {
    auto it = deferred.find(v);
    return it == deferred.end() ? Deferred{v, {}} : it->second;
  }
  bool visitScatterND(ScatterNDOp sc);
  void visitReturn(func::ReturnOp ret);
  void foldArgSlices(func::FuncOp func);
};

/// Whether `v`, split along `dim`, keeps a split along every path of its
/// readers up to a row-parallel product (its K split) or a graph result:
/// splitting the product that makes it then costs no gather (a transformer's
/// Q, K, V and MLP up products, read by the attention and its output
/// product and by the MLP's down product).
bool Partitioner::keepsSplit(Value v, SplitDim at) {
  SmallVector<std::pair<Value, SplitDim>> work{{v, at}};
  DenseSet<Operation *> seen;
  while (!work.empty()) {
    auto [x, cut] = work.pop_back_val();
    int64_t d = cut.dim;
    auto xt = tensorType(x);
    for (OpOperand &use : x.getUses()) {
      Operation *u = use.getOwner();
      if (isa<func::ReturnOp>(u))
        continue;
      if (!seen.insert(u).second)
        continue;
      auto push = [&](Value r, int64_t e) {
        work.push_back({r, SplitDim{e, cut.block, cut.replicas}});
        return true;
      };
      auto rankOf = [](Value r) { return tensorType(r).getRank(); };
      bool ok = llvm::TypeSwitch<Operation *, bool>(u)
          .Case([&](MatMulOp m) {
            int64_t r = rankOf(m.getResult()), xr = xt.getRank();
            int64_t wdim = 0;
            bool lhs = use.getOperandNumber() == 0;
            // Row-parallel, the end: each chip takes its rows of the
            // weight (K among all the chips, whatever the replicas), or of
            // each row's gathered expert matrix.
            int64_t kr = rankOf(m.getRhs()) - 2, wk = kr;
            if (lhs && d == xr - 1 && kr >= 0 && gatheredWeight(m.getRhs(), wk))
              return tensorType(m.getRhs()).getDimSize(kr) % n == 0;
            if (lhs && d == xr - 1)
              return weightOf(m.getRhs(), wdim) != nullptr &&
                     rankOf(m.getRhs()) == 2 &&
                     tensorType(m.getRhs()).getDimSize(0) % n == 0;
            if (d < xr - 2)
              return push(m.getResult(), d + r - xr);
            if (lhs && d == xr - 2)
              return push(m.getResult(), r - 2);
            // The right side's columns stay apart only against a whole
            // left side; an activation there may itself be split (the
            // attention's probabilities by heads, against V split along
            // its head dim: a gather).
            if (!lhs && d == xr - 1 &&
                isa_and_nonnull<WeightOp, ConstantOp>(m.getLhs().getDefiningOp()))
              return push(m.getResult(), r - 1);
            // Each row's gathered expert matrix, its columns apart against
            // a whole input.
            int64_t cols = xr - 1;
            if (!lhs && d == xr - 1 && gatheredWeight(m.getRhs(), cols) &&
                stateOf(m.getLhs()).kind == State::Replicated)
              return push(m.getResult(), r - 1);
            // Row-parallel against each row's gathered expert matrix:
            // each chip its columns of every expert's.
            int64_t kd = rankOf(m.getLhs()) - 1;
            if (!lhs && d == xr - 2 && gatheredWeight(m.getLhs(), kd))
              return tensorType(m.getLhs()).getShape().back() % n == 0;
            return false;
          })
          .Case([&](GroupedMatMulOp g) {
            // Row-parallel, the end: each chip its rows of every expert's
            // matrix.
            int64_t wdim = 1;
            return use.getOperandNumber() == 0 && d == 1 &&
                   weightOf(g.getRhs(), wdim, 3) != nullptr &&
                   tensorType(g.getRhs()).getDimSize(1) % n == 0;
          })
          .Case([&](GemmOp g) {
            // Row-parallel, the end (a bias is added after the sum).
            int64_t wdim = 0;
            return use.getOperandNumber() == 0 && d == 1 && !g.getTransA() &&
                   (!g.getC() || g.getBeta().convertToDouble() == 1.0) &&
                   weightOf(g.getB(), wdim) != nullptr &&
                   tensorType(g.getB()).getDimSize(g.getTransB() ? 1 : 0) % n == 0;
          })
          .Case<ReshapeOp, TransposeOp, ExpandOp, SoftmaxOp, LogSoftmaxOp,
                ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp,
                ReduceProdOp, ReduceL1Op, ReduceL2Op, ReduceSumSquareOp,
                ReduceLogSumOp, ReduceLogSumExpOp, SplitOp, SliceOp, PadOp>(
              [&](Operation *o) {
                std::optional<SplitDim> e = keptSplit(o, xt.getShape(), cut, n);
                if (!e)
                  return false;
                for (Value r : o->getResults())
                  work.push_back({r, *e});
                return true;
              })
          // Along the split dim a concatenation keeps the split only when
          // every input is split (visit's rule): not known ahead.
          .Case([&](ConcatOp c) {
            return d != int64_t(c.getAxis()) && push(c.getResult(), d);
          })
          .Case([&](AttentionOp a) {
            return use.getOperandNumber() < 3 && d < xt.getRank() - 2 &&
                   push(a.getResult(), d);
          })
          .Case([&](ScatterNDOp sc) {
            std::optional<int64_t> e =
                scatterDataDim(sc, use.getOperandNumber(), d);
            return e && push(sc.getResult(), *e);
          })
          .Case([&](ScatterElementsOp sc) {
            return use.getOperandNumber() != 1 && d != int64_t(sc.getAxis()) &&
                   alignedIndices(sc, d) && push(sc.getResult(), d);
          })
          .Case([&](GatherElementsOp g) {
            return use.getOperandNumber() == 0 && d != int64_t(g.getAxis()) &&
                   alignedIndices(g, d) && push(g.getResult(), d);
          })
          .Case([&](GatherOp g) {
            std::optional<int64_t> e = gatherDim(g, d);
            return use.getOperandNumber() == 0 && e && push(g.getResult(), *e);
          })
          .Case([&](GatherNDOp g) {
            std::optional<int64_t> e = gatherNDDim(g, d);
            return use.getOperandNumber() == 0 && e && push(g.getResult(), *e);
          })
          .Default([&](Operation *o) {
            if (classify(o) != OpClass::Pointwise || o->getNumResults() != 1)
              return false;
            return push(o->getResult(0), d + rankOf(o->getResult(0)) - xt.getRank());
          });
      if (!ok)
        return false;
    }
  }
  return true;
}

bool Partitioner::visitMatmul(MatMulOp m) {
  auto lt = tensorType(m.getLhs()), rt = tensorType(m.getRhs());
  auto out = tensorType(m.getResult());
  int64_t r = out.getRank();
  if (lt.getRank() < 2 || rt.getRank() < 2)
    return false;
  int64_t wdim = 0;
  State ls = stateOf(m.getLhs()), rs = stateOf(m.getRhs());
  if (ls.kind != State::Partial && rs.kind == State::Replicated &&
      weightOf(m.getRhs(), wdim) && rt.getRank() == 2) {
    if (ls.kind == State::Split && ls.at.dim == lt.getRank() - 1) {
      // Row-parallel: this chip's rows of the weight, a partial result
      // (of a part several chips hold, each takes its share first).
      if (rt.getDimSize(0) % n != 0)
        return false;
      if (ls.at.replicas > 1)
        m->setOperand(0, toSplit(m.getLhs(), {ls.at.dim, ls.at.block, 1}, m));
      m->setOperand(1, weightOperand(m.getRhs(), 0));
      states[m.getResult()] = State::partial();
      ++partitioned;
      return true;
    }
    if (ls.kind == State::Split) {
      // Rows of the input apart: each chip multiplies its rows.
      splitResults(m, {ls.at.dim + (r - lt.getRank()), ls.at.block,
                       ls.at.replicas});
      return true;
    }
    // Column-parallel: this chip's columns of the weight, when the split
    // reaches a row-parallel product (or a result) without a gather: one
    // part a chip; else, a fused product whose pieces split differently
    // (a QKV with fewer K/V heads than chips), each piece in as many parts
    // as reach on; else fewer parts, each held by several chips.
    if (columnParallel(m, {r - 1, 1, 1}) || fusedColumnParallel(m))
      return true;
    for (int64_t replicas = 2; replicas < n; ++replicas)
      if (n % replicas == 0 && columnParallel(m, {r - 1, 1, replicas}))
        return true;
    return false;
  }
  // Two activations: a batch dim (the attention's heads) split on either
  // side, the other side split alike or broadcast along it; or the rows of
  // the left or the columns of the right.
  for (unsigned side : {0u, 1u}) {
    Value split = m->getOperand(side), other = m->getOperand(1 - side);
    State ss = stateOf(split);
    auto st = tensorType(split), ot = wholeType(other);
    if (ss.kind != State::Split || ss.at.dim >= st.getRank() - 2)
      continue;
    int64_t od = ss.at.dim + (r - st.getRank());
    int64_t d = od - (r - ot.getRank());
    SplitDim mine{d, ss.at.block, ss.at.replicas};
    if (d >= 0 && ot.getDimSize(d) != 1) {
      if (!divides(other, mine))
        return false;
      m->setOperand(1 - side, toSplit(other, mine, m));
    } else {
      m->setOperand(1 - side, toReplicated(other, m));
    }
    splitResults(m, {od, ss.at.block, ss.at.replicas});
    return true;
  }
  if (ls.kind == State::Split && ls.at.dim == lt.getRank() - 2 &&
      rs.kind != State::Split) {
    m->setOperand(1, toReplicated(m.getRhs(), m));
    splitResults(m, {r - 2, ls.at.block, ls.at.replicas});
    return true;
  }
  if (rs.kind == State::Split && rs.at.dim == rt.getRank() - 1 &&
      ls.kind != State::Split) {
    m->setOperand(0, toReplicated(m.getLhs(), m));
    splitResults(m, {r - 1, rs.at.block, rs.at.replicas});
    return true;
  }
  // The batched experts' down product: the input split along K against
  // each row's gathered expert matrix takes the chip's part of every
  // expert's along K (row-parallel), a partial result; the matrix on
  // either side.
  int64_t kr = rt.getRank() - 2, wk = kr;
  if (ls.kind == State::Split && ls.at.dim == lt.getRank() - 1 &&
      rs.kind == State::Replicated && kr >= 0 && gatheredWeight(m.getRhs(), wk) &&
      rt.getDimSize(kr) % n == 0) {
    if (ls.at.replicas > 1)
      m->setOperand(0, toSplit(m.getLhs(), {ls.at.dim, ls.at.block, 1}, m));
    m->setOperand(1, gatheredWeightOperand(m.getRhs(), kr));
    states[m.getResult()] = State::partial();
    return true;
  }
  int64_t kd = lt.getRank() - 1;
  if (rs.kind == State::Split && rs.at.dim == rt.getRank() - 2 &&
      ls.kind == State::Replicated && gatheredWeight(m.getLhs(), kd) &&
      lt.getShape().back() % n == 0) {
    if (rs.at.replicas > 1)
      m->setOperand(1, toSplit(m.getRhs(), {rs.at.dim, rs.at.block, 1}, m));
    m->setOperand(0, gatheredWeightOperand(m.getLhs(), lt.getRank() - 1));
    states[m.getResult()] = State::partial();
    return true;
  }
  return false;
}

bool Partitioner::columnParallel(MatMulOp m, SplitDim at) {
  if (!divides(m.getResult(), at) || !keepsSplit(m.getResult(), at))
    return false;
  auto rt = tensorType(m.getRhs());
  int64_t cols = rt.getDimSize(1);
  m->setOperand(1, weightOperand(m.getRhs(), 1, cols / at.parts(n)));
  splitResults(m, at);
  remarkReplicas(m, at, cols);
  return true;
}

bool Partitioner::fusedColumnParallel(MatMulOp m) {
  Value result = m.getResult();
  auto out = tensorType(result);
  // The product's split, through its epilogue: casts (an FP8 product's
  // result cast back), a bias over the columns and reshapes that keep the
  // columns minor (GPTBigCode's unit dim), each read once.
  SmallVector<Operation *> epilogue;
  SplitOp sp;
  for (Value end = result; end.hasOneUse();) {
    Operation *u = *end.getUsers().begin();
    if ((sp = dyn_cast<SplitOp>(u)))
      break;
    if (auto rs = dyn_cast<ReshapeOp>(u)) {
      auto rt = tensorType(rs.getResult());
      if (rt.getRank() < 1 || rt.getShape().back() != out.getShape().back())
        return false;
      epilogue.push_back(u);
      end = rs.getResult();
      continue;
    }
    auto bias = [&]() -> WeightOp {
      auto add = dyn_cast<AddOp>(u);
      if (!add)
        return nullptr;
      Value other = add.getLhs() == end ? add.getRhs() : add.getLhs();
      auto w = other.getDefiningOp<WeightOp>();
      auto wt = w ? w.getType() : RankedTensorType();
      if (!w || wt.getRank() < 1 || wt.getRank() > out.getRank() ||
          wt.getShape().back() != out.getShape().back() ||
          wt.getNumElements() != wt.getShape().back() ||
          tensorType(add.getResult()) != tensorType(end))
        return nullptr;
      return w;
    };
    if (!isa<CastOp>(u) && !bias())
      return false;
    epilogue.push_back(u);
    end = u->getResult(0);
  }
  if (!sp || int64_t(sp.getAxis()) != tensorType(sp.getInput()).getRank() - 1)
    return false;
  int64_t pieceDim = tensorType(sp.getInput()).getRank() - 1;
  // Each piece in the most parts that reach a row-parallel product, or
  // whole on every chip (MQA's one K/V head, as vLLM replicates it).
  SmallVector<std::optional<SplitDim>> pieces;
  SmallVector<int64_t> sizes;
  int64_t width = 0;
  for (auto [piece, size] : llvm::zip(sp.getResults(), sp.getSizes())) {
    std::optional<SplitDim> found;
    for (int64_t replicas = 1; replicas < n && !found; ++replicas) {
      SplitDim at{pieceDim, 1, replicas};
      if (n % replicas == 0 && divides(piece, at) && keepsSplit(piece, at))
        found = at;
    }
    pieces.push_back(found);
    sizes.push_back(found ? size / found->parts(n) : size);
    width += sizes.back();
  }
  if (llvm::none_of(pieces, [](auto &p) { return p.has_value(); }))
    return false;
  // The chip's columns of each piece, side by side (as vLLM's QKV
  // weight holds its query heads and its copy of their K/V head).
  m->setOperand(1, weightOperand(m.getRhs(), 1, width, /*pieces=*/true));
  auto narrowed = [&](Value v) {
    auto t = tensorType(v);
    SmallVector<int64_t> shape(t.getShape());
    shape.back() = width;
    v.setType(RankedTensorType::get(shape, t.getElementType()));
  };
  narrowed(result);
  for (Operation *op : epilogue) {
    narrowed(op->getResult(0));
    // The bias's columns of each piece, as the product's.
    for (OpOperand &o : op->getOpOperands())
      if (auto w = o.get().getDefiningOp<WeightOp>()) {
        maybeDead.push_back(w);
        o.set(weightPart(w, w.getType().getRank() - 1, width, /*pieces=*/true));
      }
    handled.insert(op);
    ++partitioned;
  }
  sp.setSizes(sizes);
  for (auto [piece, at] : llvm::zip(sp.getResults(), pieces)) {
    if (!at)
      continue;
    piece.setType(localType(tensorType(piece), pieceDim, at->parts(n)));
    states[piece] = State::split(*at);
  }
  handled.insert(sp);
  partitioned += 2;
  if (remarks) {
    InFlightDiagnostic d = emitRemark(m.getLoc());
    d << "fused product's pieces:";
    for (auto [i, at] : llvm::enumerate(pieces))
      d << (i ? "," : "") << " "
        << (!at ? std::string("whole on every chip")
                : std::to_string(at->parts(n)) + " parts" +
                      (at->replicas > 1 ? " each held by " +
                                              std::to_string(at->replicas) +
                                              " chips"
                                        : ""));
  }
  return true;
}

/// A mixture of experts' grouped product, each expert's FFN split as a
/// dense one is (vLLM's and TensorRT-LLM's MoE tensor parallelism): with a
/// whole input, each chip its columns of every expert's matrix when the
/// split reaches a row-parallel product; with an input split along K, its
/// rows, a partial result. The rows' routing (the offsets) is the same on
/// every chip.
bool Partitioner::visitGroupedMatmul(GroupedMatMulOp g) {
  int64_t wdim = 1;
  if (stateOf(g.getRhs()).kind != State::Replicated ||
      stateOf(g.getOffsets()).kind != State::Replicated ||
      !weightOf(g.getRhs(), wdim, 3))
    return false;
  auto rt = tensorType(g.getRhs());
  State ls = stateOf(g.getLhs());
  if (ls.kind == State::Split && ls.at.dim == 1) {
    if (rt.getDimSize(1) % n != 0)
      return false;
    if (ls.at.replicas > 1)
      g->setOperand(0, toSplit(g.getLhs(), {1, ls.at.block, 1}, g));
    g->setOperand(1, weightOperand(g.getRhs(), 1));
    states[g.getResult()] = State::partial();
    ++partitioned;
    return true;
  }
  SplitDim at{1, 1, 1};
  if (ls.kind != State::Replicated || !divides(g.getResult(), at) ||
      !keepsSplit(g.getResult(), at))
    return false;
  g->setOperand(1, weightOperand(g.getRhs(), 2));
  splitResults(g, at);
  return true;
}

bool Partitioner::visitGemm(GemmOp g) {
  if (g.getTransA())
    return false;
  int64_t wdim = 0;
  if (!weightOf(g.getB(), wdim) || stateOf(g.getB()).kind != State::Replicated)
    return false;
  // The weight's dims: K and N, by trans_b.
  int64_t kDim = g.getTransB() ? 1 : 0, nDim = 1 - kDim;
  State as = stateOf(g.getA());
  auto bt = tensorType(g.getB());
  Value c = g.getC();
  if (as.kind == State::Split && as.at.dim == 1) {
    // Row-parallel: this chip's rows of the weight, a partial product; a
    // bias is added once, after the sum, as Megatron-LM's RowParallelLinear
    // adds it.
    if (bt.getDimSize(kDim) % n != 0 || (c && g.getBeta().convertToDouble() != 1.0))
      return false;
    if (as.at.replicas > 1)
      g->setOperand(0, toSplit(g.getA(), {1, as.at.block, 1}, g));
    g->setOperand(1, weightOperand(g.getB(), kDim));
    ++partitioned;
    if (!c) {
      states[g.getResult()] = State::partial();
      return true;
    }
    OpBuilder b(g);
    NamedAttrList attrs(g->getAttrs());
    auto product = b.create<GemmOp>(g.getLoc(), TypeRange{g.getType()},
                                    ValueRange{g.getA(), g.getB()}, attrs);
    states[product.getResult()] = State::partial();
    Value bias = toReplicated(c, g);
    auto add = b.create<AddOp>(g.getLoc(), g.getType(), product.getResult(), bias);
    defer(add.getResult(), product.getResult(), bias, /*left=*/false);
    g.getResult().replaceAllUsesWith(add.getResult());
    g.erase();
    return true;
  }
  // Column-parallel: the chip's columns of the weight (and of the bias),
  // in the most parts that reach a row-parallel product, as for a matmul.
  for (int64_t replicas = 1; replicas < n; ++replicas) {
    SplitDim at{1, 1, replicas};
    if (n % replicas != 0 || !divides(g.getResult(), at) ||
        !keepsSplit(g.getResult(), at))
      continue;
    g->setOperand(0, toReplicated(g.getA(), g));
    g->setOperand(1, weightOperand(g.getB(), nDim,
                                   bt.getDimSize(nDim) / at.parts(n)));
    if (c) {
      auto ct = wholeType(c);
      if (ct.getRank() >= 1 && ct.getDimSize(ct.getRank() - 1) != 1)
        g->setOperand(2, toSplit(c, {ct.getRank() - 1, 1, replicas}, g));
      else
        g->setOperand(2, toReplicated(c, g));
    }
    splitResults(g, at);
    remarkReplicas(g, at, bt.getDimSize(nDim));
    return true;
  }
  return false;
}

/// A scatter of split updates into the data's matching part (or of a
/// split data's part): each chip writes its rows of every index tuple
/// whose updates it holds, the tuples addressing its part by the updates'
/// position (GQA's in-place cache append, each chip's K/V heads).
bool Partitioner::visitScatterND(ScatterNDOp sc) {
  auto it = tensorType(sc.getIndices());
  int64_t q = it.getRank();
  for (unsigned operand : {2u, 0u}) {
    State s = stateOf(sc->getOperand(operand));
    if (s.kind != State::Split || s.at.block != 1)
      continue;
    std::optional<int64_t> dataDim = scatterDataDim(sc, operand, s.at.dim);
    if (!dataDim)
      continue;
    SplitDim data{*dataDim, 1, s.at.replicas};
    int64_t k = it.getDimSize(q - 1);
    // The updates' dim: past the tuples' dims, or the tuples' own.
    std::optional<int64_t> u;
    if (*dataDim >= k)
      u = (q - 1) + (*dataDim - k);
    else
      u = iotaDim(sc.getIndices(), *dataDim);
    SplitDim upd{*u, 1, s.at.replicas};
    if (!divides(sc.getInput(), data) || !divides(sc.getUpdates(), upd) ||
        (*dataDim < k && !divides(sc.getIndices(), upd)))
      return false;
    sc->setOperand(0, toSplit(sc.getInput(), data, sc));
    sc->setOperand(1, *dataDim < k ? toSplit(sc.getIndices(), upd, sc)
                                   : toReplicated(sc.getIndices(), sc));
    sc->setOperand(2, toSplit(sc.getUpdates(), upd, sc));
    splitResults(sc, data);
    return true;
  }
  return false;
}

/// Broadcasting pointwise ops: the split of the first split operand, the
/// others split alike or broadcast along it.
bool Partitioner::visitPointwise(Operation *op) {
  auto out = tensorType(op->getResult(0));
  int64_t r = out.getRank();
  for (Value res : op->getResults())
    if (tensorType(res).getShape() != out.getShape())
      return false;
  // The split of the operand cut into the most parts: the others take
  // their share of it.
  std::optional<SplitDim> at;
  for (Value v : op->getOperands()) {
    State s = stateOf(v);
    if (s.kind == State::Split && (!at || s.at.replicas < at->replicas))
      at = SplitDim{s.at.dim + (r - tensorType(v).getRank()), s.at.block,
                    s.at.replicas};
  }
  if (!at)
    return false;
  SmallVector<Value> ops;
  for (Value v : op->getOperands()) {
    auto vt = wholeType(v);
    SplitDim mine{at->dim - (r - vt.getRank()), at->block, at->replicas};
    if (mine.dim < 0 || vt.getDimSize(mine.dim) == 1) {
      ops.push_back(toReplicated(v, op));
      continue;
    }
    if (!divides(v, mine))
      return false;
    ops.push_back(toSplit(v, mine, op));
  }
  setOperands(op, ops);
  splitResults(op, *at);
  return true;
}

/// Partial sums added together stay partial, and so does a replicated
/// value added to one, that value deferred until the sum is reduced
/// (`Deferred`): a parallel residual, x + attn(x) + mlp(x) (GPT-J,
/// GPT-NeoX, Falcon, Phi-2, PaLM), is one all-reduce a layer, as
/// GPT-NeoX's own library runs it, where reducing each branch's product
/// on its own takes two; a row-parallel product's bias is added once,
/// after the reduction, as Megatron-LM's RowParallelLinear adds it. A
/// deferred addend must not broadcast the partial value: the sum's type
/// is the partial sum's.
bool Partitioner::deferAdd(AddOp add) {
  // A partial value already reduced for an earlier reader is read reduced
  // (a sequential residual's sum, then its MLP's partial added to it).
  auto settled = [&](Value v) {
    Value r = replicated.lookup(v);
    return r ? r : v;
  };
  Value lhs = settled(add.getLhs()), rhs = settled(add.getRhs()), sum = add.getResult();
  State ls = stateOf(lhs), rs = stateOf(rhs);
  if (ls.kind == State::Partial && rs.kind == State::Partial) {
    Deferred l = deferredOf(lhs), r = deferredOf(rhs);
    // Summed before the reduction only where one side has no other reader:
    // two partials each reduced for readers of their own would be reduced
    // a third time as their sum.
    auto alone = [&](Value x, const Deferred &d) {
      return x.hasOneUse() && d.core.hasOneUse();
    };
    if (!alone(lhs, l) && !alone(rhs, r))
      return false;
    if (l.addends.empty() && r.addends.empty()) {
      states[sum] = State::partial(); // the add itself sums the summands
      return true;
    }
    if (l.core.getType() != sum.getType() || r.core.getType() != sum.getType())
      return false;
    OpBuilder b(add);
    Value core = b.create<AddOp>(add.getLoc(), l.core, r.core);
    states[core] = State::partial();
    l.addends.append(r.addends);
    deferred[sum] = {core, l.addends};
    states[sum] = State::partial();
    virtualOps.push_back(add);
    return true;
  }
  if (ls.kind != State::Partial && rs.kind != State::Partial)
    return false; // both reduced already
  Value part = ls.kind == State::Partial ? lhs : rhs;
  Value other = part == lhs ? rhs : lhs;
  if (stateOf(other).kind != State::Replicated ||
      deferredOf(part).core.getType() != sum.getType())
    return false;
  defer(sum, part, other, /*left=*/part == rhs);
  return true;
}

/// An op linear in its one partial operand, every other operand whole,
/// keeps it partial: a sum's view, slice, rows gathered, scaling,
/// negation, widening cast and sums over any dims (a mixture of experts'
/// routing weights and its combine over the top k, so that the reduction
/// moves the tokens' rows, not the routes'). A deferred operand's addends
/// go through a view too, each a copy of it: f(core + a) = f(core) + f(a).
bool Partitioner::carryPartial(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  std::optional<unsigned> at;
  for (OpOperand &o : op->getOpOperands()) {
    State s = stateOf(o.get());
    if (s.kind == State::Split)
      return false;
    if (s.kind == State::Partial) {
      if (at)
        return false; // a product of two sums
      at = o.getOperandNumber();
    }
  }
  Value out0 = op->getResult(0);
  bool linear = llvm::TypeSwitch<Operation *, bool>(op)
      .Case<ReshapeOp, TransposeOp, NegOp, ReduceSumOp, SliceOp>(
          [](Operation *) { return true; })
      // A float cast that does not narrow: an FP8 product's partial sums
      // are cast to f16 in its epilogue and reduced in f16, as
      // TensorRT-LLM's all-reduce runs in the activation type.
      .Case([&](CastOp cast) {
        Type in = tensorType(cast.getInput()).getElementType();
        Type out = tensorType(cast.getResult()).getElementType();
        return in == out || (isa<FloatType>(in) && isa<FloatType>(out) &&
                             elementBits(out) > elementBits(in));
      })
      .Case([&](MulOp) { return true; })
      // A quotient by a whole value, in floats (an integer division
      // rounds each summand).
      .Case([&](DivOp) {
        return *at == 0 && isa<FloatType>(tensorType(out0).getElementType());
      })
      .Case([&](GatherOp) { return *at == 0; })
      .Default([](Operation *) { return false; });
  if (!at || !linear)
    return false;
  Value in = op->getOperand(*at), out = out0;
  // Reduced already for another reader, it is read reduced; with other
  // readers still to come it would be reduced for them and again as this
  // op's result (a view keeps it partial whatever its readers, as before).
  bool view = isa<ReshapeOp, TransposeOp, CastOp>(op);
  if (replicated.count(in) || ((!view || deferred.count(in)) && !in.hasOneUse()))
    return false;
  auto it = deferred.find(in);
  if (it == deferred.end()) {
    states[out] = State::partial();
    return true;
  }
  // A deferred operand's addends go through a view as copies of it (no
  // kernel); through anything else a copy would be a second chain of
  // kernels over them, so the sum is reduced first.
  Deferred d = it->second;
  if (!view || d.core.getType() != in.getType() ||
      llvm::any_of(d.addends, [&](auto &a) { return a.first.getType() != in.getType(); }))
    return false;
  OpBuilder b(op);
  auto through = [&](Value x) {
    Operation *copy = b.clone(*op);
    copy->setOperand(*at, x);
    return copy->getResult(0);
  };
  Deferred mapped{through(d.core), {}};
  states[mapped.core] = State::partial();
  for (auto [a, left] : d.addends)
    mapped.addends.push_back({through(a), left});
  deferred[out] = mapped;
  states[out] = State::partial();
  virtualOps.push_back(op);
  return true;
}

void Partitioner::visit(Operation *op) {
  if (isa<WeightOp, ConstantOp>(op) || handled.contains(op))
    return;
  // Sums, views, slices, scalings of a partial value stay partial.
  bool anyPartial = llvm::any_of(op->getOperands(), [&](Value v) {
    return stateOf(v).kind == State::Partial;
  });
  if (auto add = dyn_cast<AddOp>(op); add && anyPartial && deferAdd(add))
    return;
  if (anyPartial && carryPartial(op))
    return;
  if (anyPartial) {
    SmallVector<Value> ops;
    for (Value v : op->getOperands())
      ops.push_back(stateOf(v).kind == State::Partial ? toReplicated(v, op) : v);
    setOperands(op, ops);
  }
  auto single = [&]() -> std::optional<SplitDim> {
    if (op->getNumOperands() < 1)
      return std::nullopt;
    State s = stateOf(op->getOperand(0));
    if (s.kind != State::Split)
      return std::nullopt;
    return s.at;
  };
  bool done = llvm::TypeSwitch<Operation *, bool>(op)
      .Case([&](MatMulOp m) { return visitMatmul(m); })
      .Case([&](GemmOp g) { return visitGemm(g); })
      .Case([&](GroupedMatMulOp g) { return visitGroupedMatmul(g); })
      .Case<ReshapeOp, TransposeOp, ExpandOp, SoftmaxOp, LogSoftmaxOp,
            ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp,
            ReduceL1Op, ReduceL2Op, ReduceSumSquareOp, ReduceLogSumOp,
            ReduceLogSumExpOp, SplitOp, SliceOp, PadOp>([&](Operation *o) {
        std::optional<SplitDim> d = single();
        if (!d)
          return false;
        // The operand is already the chip's part: the rule sees it whole.
        SmallVector<int64_t> whole(wholeType(o->getOperand(0)).getShape());
        std::optional<SplitDim> e = keptSplit(o, whole, *d, n);
        if (!e)
          return false;
        // A split along the split dim: each chip's part of every piece (a
        // fused QKV product's columns, assigned to the chips as
        // Megatron-LM assigns them).
        if (auto sp = dyn_cast<SplitOp>(o); sp && d->dim == int64_t(sp.getAxis())) {
          SmallVector<int64_t> sizes;
          for (int64_t z : sp.getSizes())
            sizes.push_back(z / d->parts(n));
          sp.setSizes(sizes);
        }
        splitResults(o, *e);
        return true;
      })
      .Case([&](ConcatOp c) {
        std::optional<SplitDim> dim;
        for (Value v : c.getInputs())
          if (State s = stateOf(v); s.kind == State::Split) {
            dim = s.at;
            break;
          }
        if (!dim)
          return false;
        // Joined along the split dim: each chip holds its part of every
        // input, k equal inputs make k blocks.
        if (dim->dim == int64_t(c.getAxis())) {
          int64_t size = tensorType(c.getInputs()[0]).getDimSize(dim->dim);
          if (dim->block != 1 || llvm::any_of(c.getInputs(), [&](Value v) {
                return !stateOf(v).isSplit(*dim) ||
                       tensorType(v).getDimSize(dim->dim) != size;
              }))
            return false;
          splitResults(c, {dim->dim, int64_t(c.getInputs().size()),
                           dim->replicas});
          return true;
        }
        SmallVector<Value> ins;
        for (Value v : c.getInputs())
          if (!divides(v, *dim))
            return false;
        for (Value v : c.getInputs())
          ins.push_back(toSplit(v, *dim, c));
        setOperands(c, ins);
        splitResults(c, *dim);
        return true;
      })
      .Case([&](AttentionOp a) {
        // Split by a batch or head dim of the query, or else of the keys
        // or values (OLMo2's queries and keys stay whole, normalised
        // across every head, where its values split): the others take
        // the chip's heads of what they hold, locally.
        int64_t r = tensorType(a.getQuery()).getRank();
        std::optional<SplitDim> at;
        for (Value v : {a.getQuery(), a.getKey(), a.getValue()})
          if (State s = stateOf(v); !at && s.kind == State::Split &&
                                    tensorType(v).getRank() == r &&
                                    s.at.dim < r - 2)
            at = s.at;
        if (!at)
          return false;
        for (Value v : {a.getQuery(), a.getKey(), a.getValue()})
          if (!divides(v, *at))
            return false;
        for (unsigned i : {0u, 1u, 2u})
          a->setOperand(i, toSplit(a->getOperand(i), *at, a));
        if (Value mask = a.getMask()) {
          auto mt = wholeType(mask);
          SplitDim md{at->dim - (r - mt.getRank()), at->block, at->replicas};
          if (md.dim < 0 || mt.getDimSize(md.dim) == 1)
            a->setOperand(3, toReplicated(mask, a));
          else if (divides(mask, md))
            a->setOperand(3, toSplit(mask, md, a));
          else
            return false;
        }
        splitResults(a, *at);
        return true;
      })
      .Case([&](ScatterNDOp sc) { return visitScatterND(sc); })
      .Case<GatherOp, GatherNDOp>([&](Operation *o) {
        // Each row's expert matrix, its rows cut among the chips when the
        // split reaches a row-parallel product (column-parallel: the
        // batched experts' up product, its one reader, against an
        // activation).
        Value out = o->getResult(0);
        auto product = out.hasOneUse() ? dyn_cast<MatMulOp>(*out.getUsers().begin())
                                       : MatMulOp();
        Value other = !product ? Value()
                      : product.getLhs() == out ? product.getRhs()
                                                : product.getLhs();
        auto gathered = [&](Value v) {
          for (int64_t d = 0; d < tensorType(v).getRank(); ++d)
            if (int64_t e = d; gatheredWeight(v, e))
              return true;
          return false;
        };
        for (int64_t d = 0; product && product.getLhs() != product.getRhs() &&
                            !gathered(other) && d < tensorType(out).getRank();
             ++d) {
          int64_t wd = d;
          SplitDim at{d, 1, 1};
          if (gatheredWeight(out, wd) && divides(out, at) && keepsSplit(out, at)) {
            Value part = gatheredWeightOperand(out, d);
            out.replaceAllUsesWith(part);
            states[part] = State::split(at);
            return true;
          }
        }
        // Each chip gathers from its part, the indices whole.
        State s = stateOf(o->getOperand(0));
        if (s.kind != State::Split)
          return false;
        std::optional<int64_t> e =
            isa<GatherOp>(o) ? gatherDim(cast<GatherOp>(o), s.at.dim)
                             : gatherNDDim(cast<GatherNDOp>(o), s.at.dim);
        if (!e)
          return false;
        o->setOperand(1, toReplicated(o->getOperand(1), o));
        splitResults(o, {*e, s.at.block, s.at.replicas});
        return true;
      })
      .Case<ScatterElementsOp, GatherElementsOp>([&](Operation *o) {
        // Along another dim than the scatter's or gather's, each chip
        // writes or reads its part (the operands share one rank; the
        // indices take the data's split).
        std::optional<SplitDim> at;
        for (Value v : o->getOperands())
          if (State s = stateOf(v); s.kind == State::Split && !at &&
                                    v != o->getOperand(1))
            at = s.at;
        if (!at || at->dim == cast<IntegerAttr>(o->getAttr("axis")).getInt() ||
            !alignedIndices(o, at->dim, [&](Value v) { return wholeType(v); }))
          return false;
        for (Value v : o->getOperands())
          if (!divides(v, *at))
            return false;
        for (OpOperand &x : o->getOpOperands())
          x.set(toSplit(x.get(), *at, o));
        splitResults(o, *at);
        return true;
      })
      .Default([&](Operation *o) {
        if (classify(o) == OpClass::Pointwise)
          return visitPointwise(o);
        return false;
      });
  if (!done)
    replicate(op);
}

void Partitioner::visitReturn(func::ReturnOp ret) {
  // A partial result is summed; a split one is the chip's part.
  SmallVector<Value> ops;
  for (Value v : ret.getOperands())
    ops.push_back(stateOf(v).kind == State::Partial ? toReplicated(v, ret) : v);
  setOperands(ret, ops);
}

void Partitioner::foldArgSlices(func::FuncOp func) {
  // A graph input whose every reader takes the same slice is held as that
  // slice: each chip keeps its part (its heads of a KV cache).
  for (SliceOp s : argSlices) {
    auto arg = cast<BlockArgument>(s.getInput());
    if (!arg.hasOneUse())
      continue;
    arg.setType(s.getType());
    s.getResult().replaceAllUsesWith(arg);
    s.erase();
  }
  for (auto [regroup, slice, merge] : argChains) {
    auto arg = cast<BlockArgument>(regroup.getInput());
    if (!arg.hasOneUse() || !regroup->hasOneUse() || !slice->hasOneUse())
      continue;
    arg.setType(merge.getType());
    merge.getResult().replaceAllUsesWith(arg);
    merge.erase();
    slice.erase();
    regroup.erase();
  }
  SmallVector<Type> ins, outs;
  for (BlockArgument a : func.getArguments())
    ins.push_back(a.getType());
  for (Value v : func.getBody().front().getTerminator()->getOperands())
    outs.push_back(v.getType());
  func.setType(FunctionType::get(func.getContext(), ins, outs));
}

/// Whether `v` is a product with a weight (maybe transposed) on its
/// right, through the epilogue a column-parallel product keeps (casts, a
/// bias add, reshapes that keep the columns minor): the values whose
/// columns a chip may take piece by piece, the weight's columns assigned
/// as Megatron-LM assigns them. Anything else (an activation with a
/// constant or an input mixed in) holds its columns where they are.
bool fromWeightProduct(Value v) {
  auto isWeight = [](Value w) {
    if (auto tr = w.getDefiningOp<TransposeOp>())
      w = tr.getInput();
    return isa_and_nonnull<WeightOp>(w.getDefiningOp());
  };
  int64_t cols = tensorType(v).getRank() ? tensorType(v).getShape().back() : 0;
  while (Operation *def = v.getDefiningOp()) {
    if (auto m = dyn_cast<MatMulOp>(def))
      return isWeight(m.getRhs());
    if (auto g = dyn_cast<GemmOp>(def))
      return isWeight(g.getB());
    if (auto g = dyn_cast<GroupedMatMulOp>(def))
      return isWeight(g.getRhs()); // every expert's matrix
    auto rs = dyn_cast<ReshapeOp>(def);
    if (rs && tensorType(rs.getInput()).getRank() > 0 &&
        tensorType(rs.getInput()).getShape().back() == cols) {
      v = rs.getInput();
      continue;
    }
    if (isa<CastOp>(def)) {
      v = def->getOperand(0);
      continue;
    }
    if (auto add = dyn_cast<AddOp>(def)) {
      Value bias = isWeight(add.getRhs()) ? add.getRhs()
                   : isWeight(add.getLhs()) ? add.getLhs()
                                            : Value();
      if (!bias || tensorType(bias).getNumElements() != cols)
        return false;
      v = bias == add.getRhs() ? add.getLhs() : add.getRhs();
      continue;
    }
    return false;
  }
  return false;
}

/// Slices that take disjoint ranges of one dim of a value, each whole in
/// every other dim, become one `graph.split` (Phi-3's and the GenAI
/// builder's fused QKV, sliced by offsets where GPT-2's export splits; a
/// range no slice reads is a piece nothing reads): the split's rule then
/// gives each chip its part of every piece.
void slicesAsSplits(func::FuncOp func) {
  // The values, as (defining op or null, result or argument number): a
  // slice erased below is never looked at again.
  SmallVector<std::pair<Operation *, unsigned>> values;
  for (BlockArgument a : func.getArguments())
    values.push_back({nullptr, a.getArgNumber()});
  func.walk([&](Operation *op) {
    for (unsigned i = 0; i < op->getNumResults(); ++i)
      values.push_back({op, i});
  });
  DenseSet<Operation *> erased;
  for (auto [def, index] : values) {
    if (!def || erased.contains(def) || !fromWeightProduct(def->getResult(index)))
      continue;
    Value v = def->getResult(index);
    auto vt = dyn_cast<RankedTensorType>(v.getType());
    if (!vt || !vt.hasStaticShape() || v.use_empty())
      continue;
    int64_t rank = vt.getRank(), axis = -1;
    // (start, size) -> the slices taking that piece.
    std::map<std::pair<int64_t, int64_t>, SmallVector<SliceOp>> pieces;
    bool ok = true;
    for (Operation *u : v.getUsers()) {
      auto sl = dyn_cast<SliceOp>(u);
      if (!sl) {
        ok = false;
        break;
      }
      auto st = tensorType(sl.getResult());
      int64_t cut = -1;
      for (int64_t d = 0; d < rank && ok; ++d) {
        if (sl.getSteps()[d] != 1)
          ok = false;
        else if (st.getDimSize(d) != vt.getDimSize(d))
          ok = cut < 0 ? (cut = d, true) : false;
        else if (sl.getStarts()[d] != 0)
          ok = false;
      }
      if (!ok || cut < 0 || (axis >= 0 && cut != axis)) {
        ok = false;
        break;
      }
      axis = cut;
      pieces[{sl.getStarts()[cut], st.getDimSize(cut)}].push_back(sl);
    }
    if (!ok || pieces.size() < 2)
      continue;
    // The pieces in order, a range no slice reads as a piece of its own
    // (a fused QKV whose queries are dead); overlapping slices are left.
    SmallVector<int64_t> sizes;
    SmallVector<SmallVector<SliceOp> *> readers;
    int64_t next = 0;
    for (auto &[piece, slices] : pieces) {
      if (piece.first < next)
        break;
      if (piece.first > next) {
        sizes.push_back(piece.first - next);
        readers.push_back(nullptr);
      }
      sizes.push_back(piece.second);
      readers.push_back(&slices);
      next = piece.first + piece.second;
    }
    if (next > vt.getDimSize(axis) ||
        int64_t(llvm::count_if(readers, [](auto *r) { return r; })) !=
            int64_t(pieces.size()))
      continue;
    if (next < vt.getDimSize(axis)) {
      sizes.push_back(vt.getDimSize(axis) - next);
      readers.push_back(nullptr);
    }
    OpBuilder b(func.getContext());
    if (auto arg = dyn_cast<BlockArgument>(v))
      b.setInsertionPointToStart(arg.getOwner());
    else
      b.setInsertionPointAfterValue(v);
    SmallVector<Type> types;
    for (int64_t size : sizes) {
      SmallVector<int64_t> shape(vt.getShape());
      shape[axis] = size;
      types.push_back(RankedTensorType::get(shape, vt.getElementType()));
    }
    auto split = b.create<SplitOp>(v.getLoc(), types, v,
                                   b.getI64IntegerAttr(axis),
                                   b.getDenseI64ArrayAttr(sizes));
    for (auto [i, slices] : llvm::enumerate(readers))
      for (SliceOp sl : slices ? *slices : SmallVector<SliceOp>()) {
        sl.getResult().replaceAllUsesWith(split.getResult(i));
        erased.insert(sl);
        sl.erase();
      }
  }
}

} // namespace

namespace dfa {
LogicalResult partitionTensorParallel(ModuleOp module, const target::Target &t,
                                      int64_t chips, bool remarks,
                                      int64_t &collectives,
                                      int64_t &partitioned) {
  collectives = partitioned = 0;
  SmallVector<Operation *> maybeDead;
  bool broken = false;
  module.walk([&](func::FuncOp func) -> WalkResult {
    // Each function on its own: no state outlives the values it names.
    slicesAsSplits(func);
    Partitioner p{t, chips, remarks};
    Block &block = func.getBody().front();
    SmallVector<Operation *> ops;
    for (Operation &op : block)
      ops.push_back(&op);
    for (Operation *op : ops) {
      if (auto ret = dyn_cast<func::ReturnOp>(op))
        p.visitReturn(ret);
      else
        p.visit(op);
    }
    if (failed(p.eraseVirtualOps())) {
      broken = true;
      return WalkResult::interrupt();
    }
    p.foldArgSlices(func);
    maybeDead.append(p.maybeDead.begin(), p.maybeDead.end());
    collectives += p.collectives;
    partitioned += p.partitioned;
    return WalkResult::advance();
  });
  if (broken)
    return failure();
  // Weights (and their transposes) no reader takes whole any more.
  for (size_t i = 0; i < maybeDead.size(); ++i) {
    Operation *op = maybeDead[i];
    if (!op || !op->use_empty())
      continue;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        maybeDead.push_back(def);
    op->erase();
    for (size_t j = i + 1; j < maybeDead.size(); ++j)
      if (maybeDead[j] == op)
        maybeDead[j] = nullptr;
  }
  // The deployment, recorded: a saved stage or schedule says whose chip's
  // program it is.
  module->setAttr(kTensorParallelAttr,
                  IntegerAttr::get(IntegerType::get(module.getContext(), 64), chips));
  if (remarks)
    emitRemark(module.getLoc())
        << "tensor parallelism over " << chips << " chips: " << partitioned
        << " ops partitioned, " << collectives << " collectives";
  return success();
}
} // namespace dfa
