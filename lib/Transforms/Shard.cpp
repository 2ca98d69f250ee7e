//===- Shard.cpp - split a layer too large for one chip across chips ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Tensor parallelism for chip-partitioned targets: a layer whose weight
// exceeds one chip's weight budget becomes pieces that each read a
// contiguous slice of the weight (the weight's leading dim), joined by a
// concatenation (output features cut), a sum (contraction cut) or, for an
// embedding table's lookup, a select of each index's piece. A product cut
// along K whose input joins column pieces through pointwise ops reads its
// parts where they are made instead (Megatron's column- then row-parallel
// pair).
//
//===----------------------------------------------------------------------===//

#include "Sharding.h"

#include "dfa/Transforms/SplitDims.h"
#include "dfa/Transforms/TargetModel.h"

#include "dfa/Target/Cost.h"

#include "dfa/Transforms/Passes.h"

#include "dialects/Graph/GraphInterfaces.h"
#include "dialects/Graph/GraphOps.h"

#include "dfa/Target/Target.h"

#include "dfa/Support/MathExtras.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>
#include <numeric>
#include <tuple>

namespace dfa {
#define GEN_PASS_DEF_GRAPHSHARDPASS
#include "dfa/Transforms/Passes.h.inc"
} // namespace dfa

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

namespace {

/// A weight that can be read in row slices: raw elements in a file (or no
/// file at all, under --no-weights), not one zstd frame.
WeightOp sliceableWeight(Value v) {
  auto w = v.getDefiningOp<WeightOp>();
  if (!w || w.getZstdBytes())
    return nullptr;
  auto type = cast<RankedTensorType>(w.getType());
  if (type.getRank() < 2 || !type.hasStaticShape())
    return nullptr;
  return w;
}

/// The sizes of `pieces` near-equal parts of `n` (the first ones larger).
SmallVector<int64_t> evenSizes(int64_t n, int64_t pieces) {
  SmallVector<int64_t> sizes;
  for (int64_t i = 0; i < pieces; ++i)
    sizes.push_back(n / pieces + (i < n % pieces ? 1 : 0));
  return sizes;
}

/// `x` split along `axis` into `sizes`.
SmallVector<Value> splitAlong(OpBuilder &b, Location loc, Value x,
                              int64_t axis, ArrayRef<int64_t> sizes) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<Type> types;
  for (int64_t s : sizes) {
    SmallVector<int64_t> shape(type.getShape());
    shape[axis] = s;
    types.push_back(RankedTensorType::get(shape, type.getElementType()));
  }
  auto split = b.create<SplitOp>(loc, types, x, b.getI64IntegerAttr(axis),
                                 b.getDenseI64ArrayAttr(sizes));
  return SmallVector<Value>(split.getResults());
}

/// The input of the reshape that makes `v` where it keeps the last dim
/// and `axis` is that dim (torch.export's flattening of a linear layer's
/// leading dims around its product); null otherwise.
Value lastDimReshape(Value v, int64_t axis) {
  auto r = v.getDefiningOp<ReshapeOp>();
  if (!r)
    return nullptr;
  auto in = cast<RankedTensorType>(r.getInput().getType());
  auto out = cast<RankedTensorType>(r.getType());
  if (axis != out.getRank() - 1 || in.getRank() < 1 || !in.hasStaticShape() ||
      in.getShape().back() != out.getShape().back())
    return nullptr;
  return r.getInput();
}

/// The sizes of the parts that the concatenations a joined input is made
/// from share, and how many such concatenations it reads.
struct Joined {
  SmallVector<int64_t> sizes;
  int64_t concats = 0;
};

/// The concatenations along `axis` that `x` is made from through pointwise
/// ops and reshapes that keep the last dim (a SwiGLU's product of its
/// gate's and its up projection's column pieces), and the sizes of their
/// parts, which all of them share; none where some operand on the way
/// holds the whole axis and is neither. A product cut along K that reads
/// `x` can read its part of it, made from the parts, instead of a whole
/// joined tensor split again.
std::optional<Joined> joinedParts(Value x, int64_t axis) {
  Joined j;
  llvm::DenseSet<Value> seen;
  SmallVector<std::pair<Value, int64_t>> work{{x, axis}};
  while (!work.empty()) {
    auto [v, d] = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape() || seen.size() > 64)
      return std::nullopt;
    if (auto c = v.getDefiningOp<ConcatOp>()) {
      SmallVector<int64_t> sizes;
      for (Value p : c.getInputs())
        sizes.push_back(cast<RankedTensorType>(p.getType()).getDimSize(d));
      if (int64_t(c.getAxis()) != d || (j.concats && sizes != j.sizes))
        return std::nullopt;
      j.sizes = std::move(sizes);
      ++j.concats;
      continue;
    }
    if (Value in = lastDimReshape(v, d)) {
      work.push_back({in, cast<RankedTensorType>(in.getType()).getRank() - 1});
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def || def->getNumResults() != 1 || def->getNumRegions() != 0 ||
        classify(def) != OpClass::Pointwise)
      return std::nullopt;
    std::optional<SmallVector<int64_t, 4>> dims = splitOperandDims(def, d);
    if (!dims || dims->size() != def->getNumOperands())
      return std::nullopt;
    for (auto [o, od] : llvm::zip(def->getOperands(), *dims))
      if (od != kWholeOperand)
        work.push_back({o, od});
  }
  if (!j.concats)
    return std::nullopt;
  return j;
}

/// The part [offset, offset + size) along `axis` of `v` made without the
/// whole of it: a concatenation's part itself (or a slice of it), the
/// reshape of its input's part, or a pointwise op applied to its operands'
/// parts (built before `b`'s insertion point when `b` is
/// given; only checked otherwise). Null where some value on the way is not
/// a concatenation of such parts or a pointwise op of them.
Value partOf(OpBuilder *b, Value v, int64_t axis, int64_t offset, int64_t size,
             llvm::DenseMap<std::tuple<Value, int64_t, int64_t, int64_t>, Value> &made,
             int depth = 0) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape() || depth > 64)
    return nullptr;
  if (Value known = made.lookup({v, axis, offset, size}))
    return known;
  Value part;
  if (auto c = v.getDefiningOp<ConcatOp>()) {
    if (int64_t(c.getAxis()) != axis)
      return nullptr;
    // The part that holds the range: itself, or a slice of it.
    int64_t at = 0;
    for (Value p : c.getInputs()) {
      auto pt = cast<RankedTensorType>(p.getType());
      int64_t n = pt.getDimSize(axis);
      if (at <= offset && offset + size <= at + n) {
        if (n == size || !b) {
          part = p;
        } else {
          SmallVector<int64_t> starts(pt.getRank(), 0), steps(pt.getRank(), 1);
          starts[axis] = offset - at;
          part = b->create<SliceOp>(c.getLoc(), chunkType(pt, axis, size), p,
                                    b->getDenseI64ArrayAttr(starts),
                                    b->getDenseI64ArrayAttr(steps));
        }
        break;
      }
      at += n;
    }
  } else if (Value in = lastDimReshape(v, axis)) {
    auto inType = cast<RankedTensorType>(in.getType());
    Value p = partOf(b, in, inType.getRank() - 1, offset, size, made, depth + 1);
    if (!p || !b)
      return p;
    part = b->create<ReshapeOp>(v.getLoc(), chunkType(type, axis, size), p);
  } else if (Operation *def = v.getDefiningOp();
             def && def->getNumResults() == 1 && def->getNumRegions() == 0 &&
             classify(def) == OpClass::Pointwise) {
    std::optional<SmallVector<int64_t, 4>> dims = splitOperandDims(def, axis);
    if (!dims || dims->size() != def->getNumOperands())
      return nullptr;
    SmallVector<Value> operands;
    for (auto [x, d] : llvm::zip(def->getOperands(), *dims)) {
      if (d == kWholeOperand) {
        operands.push_back(x);
        continue;
      }
      Value p = partOf(b, x, d, offset, size, made, depth + 1);
      if (!p)
        return nullptr;
      operands.push_back(p);
    }
    if (!b)
      return v; // (any non-null: the parts exist)
    Operation *copy = b->clone(*def);
    copy->setOperands(operands);
    copy->getResult(0).setType(chunkType(type, axis, size));
    part = copy->getResult(0);
  }
  if (part && b)
    made[{v, axis, offset, size}] = part;
  return part;
}

/// Erases `v`'s op where nothing reads it any more, and so on up through
/// the pointwise ops, views and concatenations it read (the joined input a
/// cut along K now reads as its parts; a broadcast each piece of a chain
/// now makes of its own window).
/// Several values at once: one may be made from another (a broadcast's
/// transposed view and the view itself), whose op is then gone by the time
/// a later call would look at it.
void eraseUnread(ArrayRef<Value> values) {
  SmallVector<Operation *> work;
  for (Value v : values)
    if (Operation *def = v.getDefiningOp(); def && !llvm::is_contained(work, def))
      work.push_back(def);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!op->use_empty() || op->getNumResults() != 1 ||
        !(isa<ConcatOp, ReshapeOp, TransposeOp, ExpandOp>(op) ||
          classify(op) == OpClass::Pointwise))
      continue;
    SmallVector<Value> operands(op->getOperands());
    op->erase();
    for (Value x : operands)
      if (Operation *def = x.getDefiningOp(); def && !llvm::is_contained(work, def))
        work.push_back(def);
  }
}

/// The window `w` of `x`: a slice, or `x` where the window is all of it.
Value sliceWindow(OpBuilder &b, Location loc, Value x, const Window &w) {
  auto type = cast<RankedTensorType>(x.getType());
  if (ArrayRef<int64_t>(w.size) == type.getShape())
    return x;
  SmallVector<int64_t> steps(type.getRank(), 1);
  return b.create<SliceOp>(loc, windowType(type, w), x, b.getDenseI64ArrayAttr(w.start),
                           b.getDenseI64ArrayAttr(steps));
}

/// The window `w` of `x`, taken before the views and the broadcast that
/// make `x` where it is a broadcast seen through reshapes and transposes
/// (GQA's keys repeated over the query heads they serve): each piece of a
/// chain then broadcasts its window of the smaller tensor, which the
/// product reading it takes into its kernel (graph-fuse), where a slice of
/// the whole repeated tensor had it written out (8x its size under GQA's
/// 8 query heads a key head). Null where no broadcast is reached or a view
/// does not map the window. Without a builder, only whether it would be
/// made (`x` where it would).
Value windowBeforeBroadcast(OpBuilder *b, Value x, const Window &w, int depth = 0) {
  Operation *def = x.getDefiningOp();
  auto type = cast<RankedTensorType>(x.getType());
  if (!def || depth > 8)
    return nullptr;
  if (auto tr = dyn_cast<TransposeOp>(def)) {
    ArrayRef<int64_t> perm = tr.getPerm();
    Window iw;
    iw.start.resize(perm.size());
    iw.size.resize(perm.size());
    for (auto [d, p] : llvm::enumerate(perm))
      iw.start[p] = w.start[d], iw.size[p] = w.size[d];
    Value in = windowBeforeBroadcast(b, tr.getInput(), iw, depth + 1);
    if (!in || !b)
      return in ? x : nullptr;
    return b->create<TransposeOp>(tr.getLoc(), windowType(type, w), in, tr.getPermAttr());
  }
  if (auto r = dyn_cast<ReshapeOp>(def)) {
    auto inType = cast<RankedTensorType>(r.getInput().getType());
    std::optional<Window> iw = reshapeWindow(inType.getShape(), type.getShape(), w);
    Value in = iw ? windowBeforeBroadcast(b, r.getInput(), *iw, depth + 1) : nullptr;
    if (!in || !b)
      return in ? x : nullptr;
    return b->create<ReshapeOp>(r.getLoc(), windowType(type, w), in);
  }
  auto e = dyn_cast<ExpandOp>(def);
  auto inType = e ? cast<RankedTensorType>(e.getInput().getType()) : nullptr;
  if (!e || inType.getNumElements() >= type.getNumElements())
    return nullptr;
  // The input's window: the same where it has the dim, its one index where
  // it is broadcast.
  Window iw;
  int64_t lead = type.getRank() - inType.getRank();
  for (int64_t d = 0; d < inType.getRank(); ++d) {
    bool same = inType.getDimSize(d) == type.getDimSize(d + lead);
    iw.start.push_back(same ? w.start[d + lead] : 0);
    iw.size.push_back(same ? w.size[d + lead] : 1);
  }
  if (!b)
    return x;
  Value in = sliceWindow(*b, e.getLoc(), e.getInput(), iw);
  return b->create<ExpandOp>(e.getLoc(), windowType(type, w), in);
}

/// Whether `v` reaches the graph's results through pointwise ops alone,
/// each the one reader of what it reads and reading nothing else but
/// weights and constants (a product's epilogue streaming its activation to
/// the host's memory as it is made; a residual's other operand would be
/// held beside it).
bool streamsToResult(Value v) {
  for (int depth = 0; depth < 16; ++depth) {
    if (!v.hasOneUse())
      return false;
    Operation *u = *v.getUsers().begin();
    if (isa<func::ReturnOp>(u))
      return true;
    if (u->getNumResults() != 1 || classify(u) != OpClass::Pointwise ||
        llvm::any_of(u->getOperands(), [&](Value o) {
          return o != v && !isa_and_nonnull<WeightOp, ConstantOp>(o.getDefiningOp());
        }))
      return false;
    v = u->getResult(0);
  }
  return false;
}

/// Whether `op` is the graph's return, or a pointwise op every path from
/// which goes to it through pointwise ops (whatever else they read).
bool toResult(Operation *op, int depth = 0) {
  if (isa<func::ReturnOp>(op))
    return true;
  if (depth > 16 || op->getNumResults() != 1 || classify(op) != OpClass::Pointwise ||
      op->use_empty())
    return false;
  return llvm::all_of(op->getUsers(), [&](Operation *u) { return toResult(u, depth + 1); });
}

/// Whether `v` is made from graph inputs, weights and constants through
/// pointwise ops alone, each read once (a product's prologue reading the
/// caller's buffer as it goes).
bool streamsFromInputs(Value v, int depth = 0) {
  if (isa<BlockArgument>(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || depth > 16)
    return false;
  if (isa<WeightOp, ConstantOp>(def))
    return true;
  if (def->getNumResults() != 1 || classify(def) != OpClass::Pointwise || !v.hasOneUse())
    return false;
  return llvm::all_of(def->getOperands(),
                      [&](Value o) { return streamsFromInputs(o, depth + 1); });
}

/// The stored bytes (the target's layout, padding included) of an
/// activation of `type`, with `last` as its last dim where given: what a
/// piece of a product holds of its input or output.
double activationBytes(const target::Target &t, RankedTensorType type,
                       std::optional<int64_t> last = std::nullopt) {
  SmallVector<int64_t> shape(type.getShape());
  if (last)
    shape.back() = *last;
  auto u = RankedTensorType::get(shape, type.getElementType());
  return double(layoutFor(t, u, refinedOrder(t, u, {}, false)).bytes);
}

/// The type of a partial product of a product of `type` cut along K: the
/// target's accumulator format where its description keeps partial sums
/// in it (`compute.partial_sums`) and it is wider than the product's (the
/// partials are summed as the unsplit product accumulates and rounded
/// once to its type after, so the cut adds only the accumulator's
/// reassociation), else the product's own (Megatron's all-reduce in the
/// activation type: each partial and each sum rounded).
RankedTensorType partialType(const target::Target &t, RankedTensorType type) {
  auto elt = dyn_cast<FloatType>(type.getElementType());
  std::optional<target::StorageFormat> acc = t.floatFormat(t.accumulator);
  if (!t.partialSumsInAccumulator || !elt || !acc ||
      acc->mantissaBits <= int(elt.getFPMantissaWidth()) - 1)
    return type;
  Builder b(type.getContext());
  for (FloatType wider : {b.getF32Type(), b.getF64Type()})
    if (wider.getWidth() > elt.getWidth() &&
        int(wider.getFPMantissaWidth()) - 1 >= acc->mantissaBits &&
        int(wider.getWidth() - wider.getFPMantissaWidth()) >= acc->exponentBits)
      return RankedTensorType::get(type.getShape(), wider);
  return type;
}

/// The sum of the partial products, pairwise (a tree, so no chip's
/// partial waits behind all the others').
Value sumTree(OpBuilder &b, Location loc, SmallVector<Value> parts) {
  while (parts.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i + 1 < parts.size(); i += 2)
      next.push_back(b.create<AddOp>(loc, parts[i].getType(), parts[i], parts[i + 1]));
    if (parts.size() % 2)
      next.push_back(parts.back());
    parts = std::move(next);
  }
  return parts.front();
}

struct GraphShardPass : dfa::impl::GraphShardPassBase<GraphShardPass>,
                        TargetedPass {
  using GraphShardPassBase::GraphShardPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const target::Target *t = passTarget(module, targetName, targetDirs);
    if (!t)
      return signalPassFailure();
    if (auto done = module->getAttrOfType<IntegerAttr>(kTensorParallelAttr);
        done && tensorParallel > 1) {
      emitError(module.getLoc())
          << "already one chip's program of " << done.getInt()
          << " (graph.tensor_parallel): partitioned once, when it was compiled";
      given.fail(Status::Usage);
      return signalPassFailure();
    }
    if (tensorParallel > 1) {
      int64_t collectives = 0, partitioned = 0;
      // A deployment the target cannot run is the user's request to change
      // (exit 2), not a failure of the compiler.
      if (failed(checkTensorParallel(module, *t))) {
        given.fail(Status::Usage);
        return signalPassFailure();
      }
      if (failed(partitionTensorParallel(module, *t, tensorParallel, remarks,
                                         collectives, partitioned)))
        return signalPassFailure();
      numCollectives += collectives;
      numPartitioned += partitioned;
      // Said always, not only with remarks: the deployment the user asked
      // for is not the one timed.
      if (partitioned == 0)
        emitWarning(module.getLoc())
            << "tensor parallelism over " << int64_t(tensorParallel)
            << " chips partitions nothing (no product's columns or rows, "
               "and no heads, divide among them): every chip runs the whole "
               "model";
      return;
    }
    if (tensorParallel < 1) {
      emitError(module.getLoc())
          << "tensor-parallel must be at least 1, not "
          << int64_t(tensorParallel);
      return signalPassFailure();
    }
    double budget = t->chipWeightBudget();
    if (budget <= 0)
      return;
    SmallVector<Operation *> layers;
    module.walk([&](Operation *op) {
      if (isa<MatMulOp, GemmOp, GroupedMatMulOp, GatherOp>(op) ||
          (isa<ConvOp>(op) && cast<ConvOp>(op).getGroup() == 1))
        layers.push_back(op);
    });
    for (Operation *op : layers)
      if (auto g = dyn_cast<GatherOp>(op))
        shardGather(*t, g, budget);
      else
        shard(*t, op, budget);
    slices.clear();
    shardActivations(*t, module);
  }

  /// Chains of activations too large for one chip, each split into pieces
  /// along a dim that every op of the chain keeps.
  void shardActivations(const target::Target &t, ModuleOp module) {
    double cap = t.activationLevel().capacityBytes.value;
    if (cap <= 0)
      return;
    llvm::DenseSet<Operation *> tried;
    while (true) {
      Operation *seed = nullptr;
      module.walk([&](Operation *op) {
        if (seed || tried.contains(op) || op->getNumOperands() == 0 ||
            isa<WeightOp, ConstantOp>(op))
          return;
        for (Value r : op->getResults())
          if (largeActivation(t, r, cap))
            seed = op;
      });
      if (!seed)
        return;
      tried.insert(seed);
      splitChain(t, seed, cap, tried);
    }
  }

  /// Whether `v` is an activation that one kernel cannot both read and
  /// write beside the rest of a chip: its stored image (the target's
  /// layout, padding included) passes a third of the chip's SRAM.
  static bool largeActivation(const target::Target &t, Value v, double cap) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return type && type.hasStaticShape() && !isWeight(t, v) &&
           double(layoutOf(t, v).bytes) > cap / 3;
  }

  /// A weight, or a weight read through a view its product folds: what a
  /// chain's pieces read (whole, or each its slice) where the weight is
  /// placed, not an activation of the chain (an ONNX MLP's [K, N] matrix,
  /// torch's [N, K] one through its transpose).
  static bool isWeight(const target::Target &t, Value v) {
    return v.getDefiningOp<WeightOp>() || weightView(t, v);
  }

  /// A weight read through a transpose its product folds (a linear
  /// layer's [N, K] matrix): the weight, not an activation of the chain.
  static bool weightView(const target::Target &t, Value v) {
    auto tr = v.getDefiningOp<TransposeOp>();
    return tr && tr.getInput().getDefiningOp<WeightOp>() && foldsIntoProducts(t, tr);
  }

  /// The chain around `seed`'s large result: every op that makes or reads
  /// a large activation, joined through large activations (the attention
  /// scores' product, mask, softmax and the product that reads them). It
  /// becomes pieces along a dim of the seed that the whole chain keeps (an
  /// outer one such as the heads, or the query rows: the one whose pieces
  /// read the fewest bytes whole), each piece's largest activation at
  /// most an eighth of the chip; the chain's inputs are sliced along the
  /// dims the ops map the split to (or read whole), its outputs (small)
  /// concatenated. The lowering places the pieces on chips as they fit.
  /// Nothing changes when no dim splits the chain, when a large activation
  /// is a graph input or result, or when the chain is not one block.
  void splitChain(const target::Target &t, Operation *seed, double cap,
                  llvm::DenseSet<Operation *> &tried) {
    Block *block = seed->getBlock();
    llvm::SetVector<Operation *> chain;
    SmallVector<Value> work(seed->getResults());
    llvm::DenseSet<Value> seen;
    auto join = [&](Operation *op) {
      if (!chain.insert(op))
        return;
      for (Value v : op->getResults())
        if (largeActivation(t, v, cap))
          work.push_back(v);
      for (Value v : op->getOperands())
        if (largeActivation(t, v, cap))
          work.push_back(v);
    };
    constexpr size_t kMaxChain = 256;
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || def->getNumOperands() == 0 || def->getBlock() != block ||
          isa<WeightOp, ConstantOp>(def))
        return;
      join(def);
      for (Operation *u : v.getUsers()) {
        if (isa<func::ReturnOp>(u) || u->getBlock() != block)
          return;
        join(u);
      }
      if (chain.size() > kMaxChain)
        return;
    }
    // One result an op (a split's results keep one dim each: its first's).
    for (Operation *op : chain) {
      tried.insert(op);
      if ((op->getNumResults() != 1 && !isa<SplitOp>(op)) || op->getNumRegions() != 0)
        return;
    }
    // A chain that splits its large activations into parts, each read
    // once (a product's result split into q, k and v), is one kernel that
    // streams them: it is cut only where that kernel cannot hold, beside
    // the weights it reads, what it reads and writes (a 70B-shaped qkv
    // product at 4,096 tokens: a 168 MB weight, 68 MB in, 84 MB out).
    // Without a weight, or within the chip, the kernel fuses what reads the
    // parts (a toy's row sums of q, k and v: 97.7 us whole on a 4.5 MiB
    // chip, 438 us cut into rows over two chips). One that reads a large
    // activation twice (a SwiGLU's gate) holds it, and is cut.
    if (llvm::any_of(chain, [](Operation *op) { return isa<SplitOp>(op); })) {
      bool once = llvm::all_of(chain, [&](Operation *op) {
        return llvm::all_of(op->getResults(), [&](Value r) {
          return !largeActivation(t, r, cap) || r.hasOneUse();
        });
      });
      auto [weights, held] = heldBytes(t, chain);
      if (once && (weights <= 0 || held <= cap))
        return;
    }
    // The chain's ops are erased when it is cut: their addresses may come
    // back as the pieces' ops, which must not look tried.
    if (cutChain(t, seed, chain, cap, /*except=*/-1))
      for (Operation *op : chain)
        tried.erase(op);
  }

  /// The stored bytes of the weights one kernel made of `chain` reads, and
  /// of all it holds: those weights, its inputs but graph inputs, and its
  /// outputs but those that go to the graph's results through pointwise
  /// ops (each output counted as written, though a reader may fuse it).
  static std::pair<double, double> heldBytes(const target::Target &t,
                                             const llvm::SetVector<Operation *> &chain) {
    llvm::SetVector<Value> held;
    for (Operation *op : chain) {
      for (Value x : op->getOperands())
        if (!chain.contains(x.getDefiningOp()) && !isa<BlockArgument>(x))
          held.insert(weightView(t, x) ? x.getDefiningOp()->getOperand(0) : x);
      for (Value r : op->getResults())
        if (llvm::any_of(r.getUsers(), [&](Operation *u) {
              return !chain.contains(u) && !toResult(u);
            }))
          held.insert(r);
    }
    double weights = 0, bytes = 0;
    for (Value v : held) {
      double b = double(layoutOf(t, v).bytes);
      bytes += b;
      if (v.getDefiningOp<WeightOp>())
        weights += b;
    }
    return {weights, bytes};
  }

  /// The dim of `seed` to cut `chain` along, and every result's dim for
  /// it; none when no dim splits the chain. The outer dims (largest
  /// first) and the rows of the two minor ones are tried: of those that
  /// split the chain, the one whose pieces read the fewest bytes whole
  /// (each chip holding a piece holds those too: the heads read a mask
  /// broadcast over them whole, the query rows the keys and values).
  static std::optional<std::pair<int64_t, llvm::DenseMap<Value, int64_t>>>
  chooseDim(const target::Target &t, Operation *seed,
            const llvm::SetVector<Operation *> &chain, int64_t except) {
    auto seedType = cast<RankedTensorType>(seed->getResult(0).getType());
    int64_t rank = seedType.getRank();
    SmallVector<int64_t> candidates;
    for (int64_t d = 0; d + 2 < rank; ++d)
      if (seedType.getDimSize(d) > 1 && d != except)
        candidates.push_back(d);
    llvm::stable_sort(candidates, [&](int64_t a, int64_t b) {
      return seedType.getDimSize(a) > seedType.getDimSize(b);
    });
    if (rank >= 2 && rank - 2 != except && seedType.getDimSize(rank - 2) > 1)
      candidates.push_back(rank - 2);
    // A dim that slices a weight or its view comes after every other (each
    // piece then copies its slice of the weight, a view's transposed,
    // which its product does not fold, where read whole the pieces run
    // beside the one weight).
    std::optional<std::pair<int64_t, llvm::DenseMap<Value, int64_t>>> best;
    double bestWhole = 0;
    bool bestSlices = false;
    for (int64_t d : candidates) {
      std::optional<llvm::DenseMap<Value, int64_t>> dims = chainDims(seed, d, chain);
      if (!dims)
        continue;
      double whole = wholeBytes(t, chain, *dims);
      bool slices = slicesWeight(t, chain, *dims);
      if (!best || slices < bestSlices || (slices == bestSlices && whole < bestWhole)) {
        best = {d, std::move(*dims)};
        bestWhole = whole;
        bestSlices = slices;
      }
    }
    return best;
  }

  /// Whether a piece of `chain` cut so would slice a weight or its view (a
  /// copy of the weight's part on the piece's chip; of a view, transposed,
  /// which its product then could not fold).
  static bool slicesWeight(const target::Target &t,
                               const llvm::SetVector<Operation *> &chain,
                               const llvm::DenseMap<Value, int64_t> &dimOf) {
    for (Operation *op : chain) {
      SmallVector<int64_t, 4> dims = *splitOperandDims(op, dimOf.lookup(op->getResult(0)));
      for (auto [x, od] : llvm::zip(op->getOperands(), dims))
        if (od != kWholeOperand && isWeight(t, x))
          return true;
    }
    return false;
  }

  /// The pieces that bring `chain`'s largest result (stored) to an eighth
  /// of the chip's `cap`.
  static int64_t piecesNeeded(const target::Target &t,
                              const llvm::SetVector<Operation *> &chain, double cap) {
    double largest = 0;
    for (Operation *op : chain)
      for (Value r : op->getResults())
        largest = std::max(largest, double(layoutOf(t, r).bytes));
    return int64_t(std::ceil(largest / (cap / 8)));
  }

  /// The stored bytes of the inputs every piece of `chain` reads whole.
  static double wholeBytes(const target::Target &t,
                           const llvm::SetVector<Operation *> &chain,
                           const llvm::DenseMap<Value, int64_t> &dimOf) {
    llvm::DenseSet<Value> whole;
    for (Operation *op : chain) {
      SmallVector<int64_t, 4> dims = *splitOperandDims(op, dimOf.lookup(op->getResult(0)));
      for (auto [x, od] : llvm::zip(op->getOperands(), dims))
        if (od == kWholeOperand && !chain.contains(x.getDefiningOp()))
          whole.insert(x);
    }
    double bytes = 0;
    for (Value x : whole)
      bytes += double(layoutOf(t, x).bytes);
    return bytes;
  }

  /// The split dim of every op in `chain` (keyed by its first result:
  /// a split's results keep the same dims) when `seed`'s is `d`, or none
  /// when an op cannot be split so or needs a chain value whole.
  static std::optional<llvm::DenseMap<Value, int64_t>>
  chainDims(Operation *seed, int64_t d, const llvm::SetVector<Operation *> &chain) {
    llvm::DenseMap<Value, int64_t> dimOf;
    dimOf[seed->getResult(0)] = d;
    auto inChain = [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && chain.contains(def);
    };
    auto key = [&](Value v) { return inChain(v) ? v.getDefiningOp()->getResult(0) : v; };
    for (bool changed = true; changed;) {
      changed = false;
      for (Operation *op : chain) {
        Value r = op->getResult(0);
        int64_t rank = cast<RankedTensorType>(r.getType()).getRank();
        if (!dimOf.count(r)) {
          // From an operand already split: the result dim that maps to it.
          for (int64_t rd = 0; rd < rank && !dimOf.count(r); ++rd) {
            std::optional<SmallVector<int64_t, 4>> dims = splitOperandDims(op, rd);
            if (!dims)
              continue;
            bool agrees = true, any = false;
            for (auto [x, od] : llvm::zip(op->getOperands(), *dims)) {
              auto it = dimOf.find(key(x));
              if (it == dimOf.end())
                continue;
              any = true;
              agrees &= it->second == od;
            }
            if (any && agrees) {
              dimOf[r] = rd;
              changed = true;
            }
          }
          if (!dimOf.count(r))
            continue;
        }
        std::optional<SmallVector<int64_t, 4>> dims = splitOperandDims(op, dimOf[r]);
        if (!dims || dims->size() != op->getNumOperands())
          return std::nullopt;
        for (auto [x, od] : llvm::zip(op->getOperands(), *dims)) {
          if (!inChain(x))
            continue;
          if (od == kWholeOperand)
            return std::nullopt;
          auto [it, inserted] = dimOf.try_emplace(key(x), od);
          if (!inserted && it->second != od)
            return std::nullopt;
          changed |= inserted;
        }
      }
    }
    // Every result split, all along one extent.
    int64_t extent = cast<RankedTensorType>(seed->getResult(0).getType()).getDimSize(d);
    for (Operation *op : chain) {
      auto it = dimOf.find(op->getResult(0));
      if (it == dimOf.end() ||
          cast<RankedTensorType>(it->first.getType()).getDimSize(it->second) != extent)
        return std::nullopt;
    }
    return dimOf;
  }

  /// `chain` replaced by pieces of it along the dim chooseDim gives (not
  /// `except`); false when it stays (no dim splits it, an output read
  /// before its end, one piece). Where that dim is too short for pieces of
  /// an eighth of the chip (a long prompt's scores cut by heads: 32 pieces
  /// of 68 MB at 4,096 tokens), each piece is cut again along another.
  bool cutChain(const target::Target &t, Operation *seed,
                const llvm::SetVector<Operation *> &chain, double cap,
                int64_t except) {
    auto chosen = chooseDim(t, seed, chain, except);
    if (!chosen)
      return false;
    int64_t d = chosen->first;
    const llvm::DenseMap<Value, int64_t> &dimOf = chosen->second;
    SmallVector<Operation *> ops(chain.begin(), chain.end());
    llvm::sort(ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    Operation *last = ops.back();
    // The chain's outputs are read after it (the pieces stand at its end).
    for (Operation *op : ops)
      for (Operation *u : op->getUsers())
        if (!chain.contains(u) && u->isBeforeInBlock(last))
          return false;
    auto seedType = cast<RankedTensorType>(seed->getResult(0).getType());
    int64_t extent = seedType.getDimSize(d);
    int64_t needed = piecesNeeded(t, chain, cap);
    int64_t pieces = std::min<int64_t>(extent, needed);
    if (pieces < 2)
      return false;
    SmallVector<int64_t> sizes = evenSizes(extent, pieces);
    // Where a piece would take a window across two of a broadcast's
    // repeats (GQA's 64 query heads over 8 key heads, in 21 pieces of 4
    // and 3 heads), the pieces are aligned to the repeats instead, none
    // larger: each then broadcasts its window of the unrepeated tensor.
    SmallVector<std::pair<Value, int64_t>> repeated = broadcastInputs(t, ops, chain, dimOf);
    if (!windowsAll(repeated, sizes))
      if (std::optional<SmallVector<int64_t>> aligned = alignedSizes(repeated, sizes))
        sizes = std::move(*aligned);
    pieces = int64_t(sizes.size());
    // A broadcast's window is its input's, broadcast by the piece, where
    // every piece's is (a piece across two key heads' repeats would slice
    // the whole repeat, which then stays beside the others' windows: 40
    // heads over 8 in pieces of 3 and 4).
    llvm::DenseSet<std::pair<Value, int64_t>> windowed;
    for (std::pair<Value, int64_t> input : repeated)
      if (windowsAll(input, sizes))
        windowed.insert(input);
    OpBuilder b(last->getContext());
    b.setInsertionPointAfter(last);
    SmallVector<IRMapping> maps(pieces);
    llvm::SetVector<Value> broadcasts; // inputs each piece broadcasts its own window of
    int64_t offset = 0;
    for (auto [i, size] : llvm::enumerate(sizes)) {
      // An input sliced the same way twice is sliced once per piece.
      llvm::DenseMap<std::pair<Value, int64_t>, Value> sliced;
      for (Operation *op : ops) {
        SmallVector<int64_t, 4> dims = *splitOperandDims(op, dimOf.lookup(op->getResult(0)));
        SmallVector<std::pair<unsigned, Value>> inputs;
        for (auto [j, x] : llvm::enumerate(op->getOperands())) {
          if (chain.contains(x.getDefiningOp()))
            continue;
          // A weight's view is each piece's own, so each product folds it
          // (one read by every piece would be a transposed copy).
          if (dims[j] == kWholeOperand && weightView(t, x)) {
            Value &v = sliced[{x, kWholeOperand}];
            if (!v)
              v = b.clone(*x.getDefiningOp())->getResult(0);
            inputs.push_back({unsigned(j), v});
            continue;
          }
          if (dims[j] == kWholeOperand)
            continue;
          Value &s = sliced[{x, dims[j]}];
          // A weight's view, cut: the weight's slice, transposed.
          if (auto tr = x.getDefiningOp<TransposeOp>(); !s && tr && weightView(t, x)) {
            Value w = tr.getInput();
            auto wt = cast<RankedTensorType>(w.getType());
            int64_t wd = tr.getPerm()[dims[j]];
            SmallVector<int64_t> starts(wt.getRank(), 0), steps(wt.getRank(), 1);
            starts[wd] = offset;
            Value piece = b.create<SliceOp>(op->getLoc(), chunkType(wt, wd, size), w,
                                            b.getDenseI64ArrayAttr(starts),
                                            b.getDenseI64ArrayAttr(steps));
            s = b.create<TransposeOp>(
                tr.getLoc(), chunkType(cast<RankedTensorType>(x.getType()), dims[j], size),
                piece, tr.getPermAttr());
          }
          if (!s) {
            auto xt = cast<RankedTensorType>(x.getType());
            Window w{SmallVector<int64_t>(xt.getRank(), 0), SmallVector<int64_t>(xt.getShape())};
            w.start[dims[j]] = offset;
            w.size[dims[j]] = size;
            s = windowed.contains({x, dims[j]}) ? windowBeforeBroadcast(&b, x, w) : Value();
            if (s)
              broadcasts.insert(x);
            else
              s = sliceWindow(b, op->getLoc(), x, w);
          }
          inputs.push_back({unsigned(j), s});
        }
        Operation *copy = b.clone(*op, maps[i]);
        for (auto [j, s] : inputs)
          copy->setOperand(j, s);
        int64_t rd = dimOf.lookup(op->getResult(0));
        for (auto [r, c] : llvm::zip(op->getResults(), copy->getResults())) {
          c.setType(chunkType(cast<RankedTensorType>(r.getType()), rd, size));
          maps[i].map(r, c);
        }
      }
      offset += size;
    }
    // Outputs read outside the chain: the pieces' parts, joined.
    for (Operation *op : ops)
      for (Value r : op->getResults()) {
        if (llvm::all_of(r.getUsers(), [&](Operation *u) { return chain.contains(u); }))
          continue;
        SmallVector<Value> parts;
        for (IRMapping &m : maps)
          parts.push_back(m.lookup(r));
        Value joined = b.create<ConcatOp>(op->getLoc(), r.getType(), parts,
                                          b.getI64IntegerAttr(dimOf.lookup(op->getResult(0))));
        r.replaceUsesWithIf(joined, [&](OpOperand &use) {
          return !chain.contains(use.getOwner());
        });
      }
    if (remarks) {
      InFlightDiagnostic r = seed->emitRemark();
      r << "split into " << pieces << " pieces along dim " << d << " with the "
        << ops.size() << " ops around it: its result ("
        << layoutOf(t, seed->getResult(0)).bytes << " B stored) passes ";
      if (except < 0)
        r << "a third of a chip's " << int64_t(cap) << " B SRAM";
      else
        r << "an eighth of a chip's " << int64_t(cap)
          << " B SRAM (a piece of a cut along dim " << except << ")";
    }
    llvm::SetVector<Operation *> views;
    for (Operation *op : ops)
      for (Value x : op->getOperands())
        if (weightView(t, x))
          views.insert(x.getDefiningOp());
    // Each piece's ops, in the chain's order, and its seed, where a piece
    // is still too large: its largest activation, read and written, and
    // the inputs every piece reads whole pass half the chip (a
    // 4,096-token prompt's head: 68 MB of f32 scores read and written by
    // its softmax beside a 34 MB causal mask).
    SmallVector<std::pair<Operation *, llvm::SetVector<Operation *>>> parts;
    double whole = wholeBytes(t, chain, dimOf);
    for (IRMapping &m : maps) {
      if (pieces >= needed)
        break;
      llvm::SetVector<Operation *> part;
      double largest = 0;
      for (Operation *op : ops) {
        part.insert(m.lookup(op->getResult(0)).getDefiningOp());
        for (Value r : op->getResults())
          largest = std::max(largest, double(layoutOf(t, m.lookup(r)).bytes));
      }
      if (2 * largest + whole > cap / 2)
        parts.push_back({m.lookup(seed->getResult(0)).getDefiningOp(), std::move(part)});
    }
    for (Operation *op : llvm::reverse(ops))
      op->erase();
    for (Operation *view : views)
      if (view->use_empty())
        view->erase();
    eraseUnread(broadcasts.getArrayRef());
    ++numActivationSplits;
    for (auto &[pieceSeed, part] : parts)
      cutChain(t, pieceSeed, part, cap, d);
    return true;
  }

  /// The inputs of `ops` (of `chain`, cut along `dimOf`) that are
  /// broadcasts seen through views, each with the dim its pieces slice.
  static SmallVector<std::pair<Value, int64_t>>
  broadcastInputs(const target::Target &t, ArrayRef<Operation *> ops,
                  const llvm::SetVector<Operation *> &chain,
                  const llvm::DenseMap<Value, int64_t> &dimOf) {
    llvm::SetVector<std::pair<Value, int64_t>> found;
    for (Operation *op : ops) {
      SmallVector<int64_t, 4> dims = *splitOperandDims(op, dimOf.lookup(op->getResult(0)));
      for (auto [x, d] : llvm::zip(op->getOperands(), dims)) {
        if (d == kWholeOperand || chain.contains(x.getDefiningOp()) || isWeight(t, x))
          continue;
        auto type = cast<RankedTensorType>(x.getType());
        Window one{SmallVector<int64_t>(type.getRank(), 0), SmallVector<int64_t>(type.getShape())};
        one.size[d] = 1;
        if (windowBeforeBroadcast(nullptr, x, one))
          found.insert({x, d});
      }
    }
    return found.takeVector();
  }

  /// Whether each piece of `sizes` takes its window of every input of
  /// `inputs` before its broadcast.
  static bool windowsAll(ArrayRef<std::pair<Value, int64_t>> inputs, ArrayRef<int64_t> sizes) {
    for (auto [x, d] : inputs) {
      auto type = cast<RankedTensorType>(x.getType());
      Window w{SmallVector<int64_t>(type.getRank(), 0), SmallVector<int64_t>(type.getShape())};
      for (int64_t n : sizes) {
        w.size[d] = n;
        if (!windowBeforeBroadcast(nullptr, x, w))
          return false;
        w.start[d] += n;
      }
    }
    return true;
  }

  /// Pieces none larger than the largest of `sizes`, each whole groups of
  /// g or within one, for the smallest g dividing the extent for which
  /// every piece windows every input (GQA's repeat of each key head over
  /// the query heads it serves); none where no g does.
  static std::optional<SmallVector<int64_t>>
  alignedSizes(ArrayRef<std::pair<Value, int64_t>> inputs, ArrayRef<int64_t> sizes) {
    if (inputs.empty())
      return std::nullopt;
    int64_t extent = std::accumulate(sizes.begin(), sizes.end(), int64_t(0));
    int64_t most = *llvm::max_element(sizes);
    for (int64_t g = 2; g < extent && g <= 4096; ++g) {
      if (extent % g)
        continue;
      int64_t groups = extent / g;
      SmallVector<int64_t> aligned;
      if (g <= most) {
        for (int64_t n : evenSizes(groups, ceilDiv(groups, most / g)))
          aligned.push_back(n * g);
      } else {
        for (int64_t i = 0; i < groups; ++i)
          llvm::append_range(aligned, evenSizes(g, ceilDiv(g, most)));
      }
      if (aligned.size() >= 2 && windowsAll(inputs, aligned))
        return aligned;
    }
    return std::nullopt;
  }

  /// A tensor-parallel group needs chips that share nothing but links:
  /// kernels that hold a whole chip each (shared placement) and a
  /// chip-to-chip link to reduce over, and no more chips than connect.
  LogicalResult checkTensorParallel(ModuleOp module, const target::Target &t) {
    if (t.caps.placement != target::Placement::Shared)
      return emitError(module.getLoc())
             << "tensor parallelism needs a target whose kernels share each "
                "chip (compiler.placement 'shared'); "
             << t.name << " places them '" << target::name(t.caps.placement)
             << "'";
    if (!t.chipToChip || target::collectiveBandwidth(t) <= 0)
      return emitError(module.getLoc())
             << "tensor parallelism needs chip-to-chip links: " << t.name
             << " has no network.chip_to_chip";
    std::optional<double> most = t.limit("chips_max");
    if (!most)
      most = t.limit("pod_chips");
    if (most && double(tensorParallel) > *most)
      return emitError(module.getLoc())
             << "tensor parallelism over " << int64_t(tensorParallel)
             << " chips: at most "
             << int64_t(*most) << " " << t.name << " chips connect";
    return success();
  }

  /// Slices made so far: (weight, dim, first index, count) -> the slice.
  /// A weight that several layers read (tied, reused) is sliced once per
  /// range, not once per layer.
  std::map<std::tuple<Operation *, int64_t, int64_t, int64_t>, Value> slices;

  /// The weight's slices along `dim` (its first or its last) of `sizes`
  /// each: weights at later offsets of the same file, standing where the
  /// weight stood. A slice of the last dim is a window of columns, each of
  /// its rows `row_pitch` bytes after the previous one (a [K, N] product
  /// weight cut along N, each piece reading its columns where they are
  /// stored).
  SmallVector<Value> weightSlices(WeightOp w, ArrayRef<int64_t> sizes, int64_t dim = 0) {
    auto type = cast<RankedTensorType>(w.getType());
    int64_t last = type.getRank() - 1;
    int64_t elem = graph::elementBytes(type.getElementType());
    // The bytes from one row (the last dim) to the next in the file, and
    // from one index of `dim` to the next.
    int64_t pitch = w.getRowPitch() ? int64_t(*w.getRowPitch()) : type.getShape().back() * elem;
    int64_t step = dim == last ? elem : pitch * (type.getNumElements() / type.getShape().back()) /
                                            type.getDimSize(0);
    bool window = dim == last || w.getRowPitch();
    bool firstCut = llvm::none_of(slices, [&](const auto &entry) {
      return std::get<0>(entry.first) == w.getOperation();
    });
    OpBuilder b(w);
    b.setInsertionPointAfter(w);
    SmallVector<Value> out;
    int64_t at = 0;
    for (auto [i, n] : llvm::enumerate(sizes)) {
      Value &slice = slices[{w.getOperation(), dim, at, n}];
      if (!slice) {
        SmallVector<int64_t> shape(type.getShape());
        shape[dim] = n;
        // Another cut of the same weight names its slices by their range.
        const char *what = dim == last && dim > 0 ? ".cols" : ".rows";
        std::string name =
            firstCut ? (w.getSymName() + ".shard" + std::to_string(i)).str()
                     : (w.getSymName() + what + std::to_string(at) + "+" +
                        std::to_string(n)).str();
        bool data = !w.getFile().empty();
        auto piece = b.create<WeightOp>(
            w.getLoc(), RankedTensorType::get(shape, type.getElementType()), name,
            w.getFile(), data ? w.getOffset() + at * step : 0);
        if (data && window)
          piece.setRowPitchAttr(b.getI64IntegerAttr(pitch));
        slice = piece;
      }
      out.push_back(slice);
      at += n;
    }
    return out;
  }

  /// The stored bytes (in the target's layout, padding included) of a
  /// piece of weight `w` with `n` of its `dim`: a weight of its own shape,
  /// in the order the lowering will give it (the whole weight's
  /// feature-map order refined for its shape).
  static double pieceBytes(const target::Target &t, WeightOp w, int64_t dim, int64_t n) {
    auto type = cast<RankedTensorType>(w.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] = n;
    auto piece = RankedTensorType::get(shape, type.getElementType());
    return double(
        layoutFor(t, piece, refinedOrder(t, piece, featureMapOrder(t, w), true)).bytes);
  }

  /// The fewest pieces along `dim` of weight `w` whose stored images (in
  /// the target's layout, padding included: what the lowering places) each
  /// fit the budget; 0 when even single rows (or columns) do not. With
  /// `beside` (the bytes of the activations a piece of `n` reads and
  /// writes), the fewest from there, up to 16 times as many, with which
  /// each piece's product also fits the chip's `cap` beside its weight (a
  /// qkv projection's columns, whose output the chip holds beside them);
  /// where none do, the fewest for the weights alone.
  static int64_t piecesFor(const target::Target &t, WeightOp w, double budget,
                           int64_t dim = 0,
                           llvm::function_ref<double(int64_t)> beside = nullptr,
                           double cap = 0) {
    auto type = cast<RankedTensorType>(w.getType());
    int64_t rows = type.getDimSize(dim);
    auto fits = [&](int64_t pieces) {
      for (int64_t n : evenSizes(rows, pieces))
        if (pieceBytes(t, w, dim, n) > budget)
          return false;
      return true;
    };
    if (budget <= 0 || !fits(rows))
      return 0;
    // The fewest pieces that fit: fits() holds from some count up to rows.
    int64_t stored = layoutFor(t, type, dimOrder(t, w)).bytes;
    int64_t lo = std::clamp<int64_t>(int64_t(std::ceil(double(stored) / budget)), 1, rows);
    int64_t fewest = firstTrue(lo, rows, fits);
    if (!beside)
      return fewest;
    auto fitsBeside = [&](int64_t pieces) {
      for (int64_t n : evenSizes(rows, pieces))
        if (pieceBytes(t, w, dim, n) + beside(n) > cap)
          return false;
      return true;
    };
    for (int64_t p = fewest; p <= std::min(rows, 16 * fewest); ++p)
      if (fitsBeside(p))
        return p;
    return fewest;
  }

  void shard(const target::Target &t, Operation *op, double budget) {
    Value weightValue = TypeSwitch<Operation *, Value>(op)
                            .Case([](MatMulOp m) { return m.getRhs(); })
                            .Case([](GemmOp g) { return g.getB(); })
                            .Case([](GroupedMatMulOp g) { return g.getRhs(); })
                            .Case([](ConvOp c) { return c.getFilter(); });
    // A grouped product's experts may be read through a transpose of each
    // expert's matrix ([E, N, K] stored, as transformers keeps them).
    TransposeOp expertsView;
    if (auto tr = weightValue.getDefiningOp<TransposeOp>();
        tr && isa<GroupedMatMulOp>(op) && tr.getPerm().front() == 0) {
      expertsView = tr;
      weightValue = tr.getInput();
    }
    // A linear layer's [N, K] weight read transposed (torch's F.linear
    // exported as a matmul; a tied LM head): cut along N.
    TransposeOp linearView;
    if (auto tr = weightValue.getDefiningOp<TransposeOp>();
        tr && isa<MatMulOp>(op) && tr.getPerm() == ArrayRef<int64_t>{1, 0}) {
      linearView = tr;
      weightValue = tr.getInput();
    }
    WeightOp w = sliceableWeight(weightValue);
    if (!w)
      return;
    auto wType = cast<RankedTensorType>(w.getType());
    int64_t stored = layoutOf(t, w).bytes;
    // The layer's other weights (a bias, C) sit on each piece's chip too.
    double others = 0;
    for (Value v : op->getOperands())
      if (v != weightValue && v.getDefiningOp<WeightOp>())
        others += double(layoutOf(t, v).bytes);
    // Read through a transpose, a grouped product's experts are held twice
    // on a target that does not fold the transpose into the product (the
    // transposed copy is a kernel's result beside the weight).
    TransposeOp view = expertsView ? expertsView : linearView;
    double copies = view && !foldsIntoProducts(t, view) ? 2 : 1;
    bool over = double(stored) * copies + others > budget;
    // A product's piece holds its input and output activations beside its
    // weight: the whole input and its columns of the output cut along N,
    // its slice of the input and a partial of the whole output, in the
    // accumulator's format (partialType), cut along K
    // (Lowering::planKernels places them so). None for other layers.
    auto mm = dyn_cast<MatMulOp>(op);
    auto x = mm ? dyn_cast<RankedTensorType>(mm.getLhs().getType()) : nullptr;
    auto y = mm ? dyn_cast<RankedTensorType>(mm.getType()) : nullptr;
    // Only for a weight this product alone reads: a weight that several
    // read (tied, shared) is cut the same for each of them, by its size
    // alone, so that its pieces are placed once.
    bool alone = w->hasOneUse() && (!view || view->hasOneUse());
    bool shaped = alone && x && y && x.hasStaticShape() && y.hasStaticShape() &&
                  wType.getRank() == 2;
    // A graph result streams to the host's memory as it is made.
    bool graphResult = mm && llvm::any_of(mm->getUsers(), [](Operation *u) {
                         return isa<func::ReturnOp>(u);
                       });
    auto besideFor = [&](bool alongN) -> std::function<double(int64_t)> {
      if (!shaped)
        return nullptr;
      return [&t, x, y, alongN, graphResult](int64_t n) {
        auto cut = [&](bool here) { return here ? std::optional<int64_t>(n) : std::nullopt; };
        return activationBytes(t, x, cut(!alongN)) +
               (graphResult ? 0.0
                            : activationBytes(t, alongN ? y : partialType(t, y),
                                              cut(alongN)));
      };
    };
    // The pieces along `dim` and the most bytes one of them holds.
    double cap = t.activationLevel().capacityBytes.value - others;
    // A weight within the budget is cut too where the product's input and
    // output do not fit beside it (a 70B layer's 168 MB qkv weight at a
    // 2,048-token prompt: 34 MB in, 42 MB out); the chip partition would
    // find no chip for the product's kernel. Not where one of them is a
    // large activation: its chain is cut into rows (shardActivations),
    // whose pieces stream through the chip that holds the whole weight.
    // (A graph input is the caller's buffer, outside the chip's arena, and
    // a graph result streams to the host: neither counts, nor does an
    // activation that pointwise ops fused with the product make from graph
    // inputs or take to a graph result.)
    if (!over) {
      if (!shaped)
        return;
      double in = streamsFromInputs(mm.getLhs()) ? 0.0 : activationBytes(t, x);
      double out = streamsToResult(mm.getResult()) ? 0.0 : activationBytes(t, y);
      double chip = t.activationLevel().capacityBytes.value;
      if (double(stored) * copies + in + out <= cap ||
          largeActivation(t, mm.getLhs(), chip) || largeActivation(t, mm.getResult(), chip))
        return;
    }
    auto mostOf = [&](int64_t dim, bool alongN, int64_t n) {
      std::function<double(int64_t)> beside = besideFor(alongN);
      double most = 0;
      for (int64_t size : evenSizes(wType.getDimSize(dim), n))
        most = std::max(most, pieceBytes(t, w, dim, size) + (beside ? beside(size) : 0.0));
      return most;
    };
    auto plan = [&](int64_t dim, bool alongN) {
      std::function<double(int64_t)> beside = besideFor(alongN);
      int64_t n = piecesFor(t, w, (budget - others) / copies, dim,
                            beside ? llvm::function_ref<double(int64_t)>(beside) : nullptr,
                            cap);
      return std::make_pair(n, n > 0 ? mostOf(dim, alongN, n) : 0.0);
    };
    auto [pieces, most] = plan(0, bool(linearView));
    // A product's [K, N] weight (read as stored) that widens its input
    // (N > K: a qkv, up or gate projection) is cut along N, as Megatron's
    // column-parallel layers are, where that takes no more pieces and no
    // piece holds more (a window of columns pads its rows to the target's
    // vectors: a [320, 480] piece is stored as [320, 640] on an LPU), or
    // more but its columns are never joined (below): each piece reads the
    // whole input and makes its columns, where one cut along K makes a
    // partial of the whole wider output, summed over the links after,
    // which costs more than the padding (a SwiGLU's [320, 1300] gate and
    // up projections on test-lpu-small, 10.8 -> 4.5 us with the down
    // projection paired). One
    // that narrows it (a down projection) is cut along K. Where the fewest
    // column pieces hold more than the row pieces (their input whole
    // beside each), more column pieces, up to as many as the rows', may
    // not (a 70B MLP's up projection at 2,048 tokens: 3 column pieces at
    // the chip's edge or 5 row pieces each making a 117 MB partial, where
    // 4 column pieces hold 180 MB).
    int64_t cutDim = 0;
    bool columns = false;
    if (mm && alone && !view && wType.getRank() == 2 &&
        wType.getDimSize(1) > wType.getDimSize(0) &&
        wType.getElementType().getIntOrFloatBitWidth() % 8 == 0) {
      auto [alongN, mostAlongN] = plan(1, true);
      for (int64_t n = alongN + 1; alongN >= 2 && n <= pieces && mostAlongN > most; ++n) {
        alongN = n;
        mostAlongN = mostOf(1, true, n);
      }
      // Pieces that hold more (padded windows) are taken only where the
      // columns are never joined again: the product's result read by
      // pointwise ops alone (a SwiGLU's gate and up projections, which
      // the down projection's pieces then read where they are made), not
      // a qkv product's, which is joined to be split into q, k and v (on
      // a small chip the joined heads then pass it: a d=320 f16 decoder
      // 12.0 -> 17.1 us). Nor is a graph result's, which each piece writes
      // to the host where gathering would queue on one chip's link
      // (Lowering::partsFasterToHost), where a cut along K passes a
      // partial of the whole result from chip to chip: an LM head stored
      // [4096, 128256] (torch's linear as ONNX exports it) at batch 8 on
      // groq-tsp took 485 us so, the same head stored [128256, 4096] and
      // read transposed, cut along its rows, 17.1 us.
      bool neverJoined = !mm->use_empty() && llvm::all_of(mm->getUsers(), [](Operation *u) {
        return classify(u) == OpClass::Pointwise || isa<func::ReturnOp>(u);
      });
      if (alongN >= 2 &&
          (pieces < 2 || (alongN <= pieces && (mostAlongN <= most || neverJoined)))) {
        columns = true;
        cutDim = 1;
        pieces = alongN;
      }
    }
    // A product cut along K whose input joins column pieces through
    // pointwise ops (a SwiGLU's down projection after its gate and up
    // projections, each cut along N) is cut where they were, where each
    // piece of its weight fits: each chip then reads its part of the
    // input where it is made, as Megatron pairs a column-parallel layer
    // with a row-parallel one, and the whole input is never joined (at a
    // long prompt it did not fit beside a piece of the weight).
    // Each part is cut again into as few pieces as fit the weight budget
    // and the chip beside the piece's activations (its part of each
    // joined input, and two partials of the whole output: the sum so far,
    // which a piece's kernel adds its own to).
    // A linear layer's [N, K] weight read transposed is cut so along its
    // K, each piece a window of its columns (row_pitch), transposed.
    std::optional<SmallVector<int64_t>> joined;
    int64_t kDim = linearView ? 1 : 0;
    bool kViewOk = !linearView || (copies == 1 && wType.getRank() == 2 &&
                                   wType.getElementType().getIntOrFloatBitWidth() % 8 == 0);
    if (mm && !columns && !expertsView && kViewOk && pieces >= 2)
      if (std::optional<Joined> j = joinedParts(mm.getLhs(), x.getRank() - 1);
          j && j->sizes.size() >= 2) {
        bool sized = x.hasStaticShape() && y && y.hasStaticShape();
        double out = sized && !graphResult ? activationBytes(t, partialType(t, y)) : 0.0;
        for (int64_t m = 1; m <= 8 && !joined && sized; ++m) {
          SmallVector<int64_t> sizes;
          for (int64_t n : j->sizes)
            llvm::append_range(sizes, evenSizes(n, std::min(n, m)));
          bool fit = llvm::all_of(sizes, [&](int64_t n) {
            double bytes = pieceBytes(t, w, kDim, n);
            return bytes <= (budget - others) / copies &&
                   bytes + double(j->concats) * activationBytes(t, x, n) + 2 * out <= cap;
          });
          if (fit)
            joined = std::move(sizes);
        }
        if (joined) {
          pieces = int64_t(joined->size());
          cutDim = kDim;
        }
      }
    if (pieces < 2)
      return;
    // A matmul's weight is [K, N] and broadcasts only as a plain matrix.
    if (auto mm = dyn_cast<MatMulOp>(op))
      if (wType.getRank() != 2 ||
          cast<RankedTensorType>(mm.getLhs().getType()).getRank() < 2)
        return;
    SmallVector<int64_t> sizes =
        joined ? *joined : evenSizes(wType.getDimSize(cutDim), pieces);
    SmallVector<Value> pieceWeights = weightSlices(w, sizes, cutDim);
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value result;
    if (auto g = dyn_cast<GroupedMatMulOp>(op)) {
      // [E, K, N] cut along E (expert parallelism): each piece takes every
      // row and its experts' offsets, with the start of its first group
      // (the previous expert's end) in front, and spreads its share of the
      // rows (groups_total). A row comes from the last piece one of whose
      // groups covers it, as the last group covering a row sets it
      // (offsets that decrease make groups overlap); a row no piece covers
      // is piece 0's zero.
      Value offs = g.getOffsets();
      auto offType = cast<RankedTensorType>(offs.getType());
      int64_t lead = offType.getDimSize(0) - wType.getDimSize(0); // 0 or 1
      int64_t rows = cast<RankedTensorType>(g.getLhs().getType()).getDimSize(0);
      IntegerAttr total =
          b.getI64IntegerAttr(g.getGroupsTotal().value_or(wType.getDimSize(0)));
      auto i64 = [&](ArrayRef<int64_t> shape) {
        return RankedTensorType::get(shape, b.getI64Type());
      };
      auto slice = [&](Value v, int64_t from, int64_t count) -> Value {
        return b.create<SliceOp>(loc, RankedTensorType::get({count}, offType.getElementType()),
                                 v, b.getDenseI64ArrayAttr({from}),
                                 b.getDenseI64ArrayAttr({1}));
      };
      SmallVector<int64_t> iota(rows);
      for (int64_t r = 0; r < rows; ++r)
        iota[r] = r;
      Value rowIds = b.create<ConstantOp>(
          loc, DenseElementsAttr::get(i64({rows, 1}), ArrayRef<int64_t>(iota)));
      Value result0;
      int64_t first = 0;
      for (auto [i, wi] : llvm::enumerate(pieceWeights)) {
        if (expertsView) {
          SmallVector<int64_t> shape;
          auto wiType = cast<RankedTensorType>(wi.getType());
          for (int64_t d : expertsView.getPerm())
            shape.push_back(wiType.getDimSize(d));
          wi = b.create<TransposeOp>(expertsView.getLoc(),
                                     RankedTensorType::get(shape, wiType.getElementType()),
                                     wi, expertsView.getPermAttr());
        }
        int64_t n = sizes[i], from = first + lead - 1;
        bool starts = from >= 0; // the piece's offsets carry its start
        Value pieceOffs = starts ? slice(offs, from, n + 1) : slice(offs, 0, n);
        Value part =
            b.create<GroupedMatMulOp>(loc, g.getType(), g.getLhs(), wi, pieceOffs, total);
        first += n;
        if (i == 0) {
          result0 = part;
          continue;
        }
        // The rows the piece's groups cover: lo <= r < hi for one of them.
        Value lo = starts ? slice(pieceOffs, 0, n) : Value();
        Value hi = starts ? slice(pieceOffs, 1, n) : pieceOffs;
        assert(lo && "only the first piece starts at row 0");
        auto row = [&](Value v) -> Value {
          Value c = b.create<CastOp>(loc, i64({n}), v);
          return b.create<ReshapeOp>(loc, i64({1, n}), c);
        };
        auto boolType = RankedTensorType::get({rows, n}, b.getI1Type());
        Value in = b.create<AndOp>(
            loc, boolType, b.create<GreaterEqualOp>(loc, boolType, rowIds, row(lo)),
            b.create<LessOp>(loc, boolType, rowIds, row(hi)));
        Value any = b.create<ReduceMaxOp>(
            loc, RankedTensorType::get({rows, 1}, b.getI32Type()),
            b.create<CastOp>(loc, RankedTensorType::get({rows, n}, b.getI32Type()), in),
            b.getDenseI64ArrayAttr({1}), b.getBoolAttr(true));
        Value covered = b.create<CastOp>(loc, RankedTensorType::get({rows, 1}, b.getI1Type()),
                                         any);
        result0 = b.create<WhereOp>(loc, g.getType(), covered, part, result0);
      }
      result = result0;
    } else if (auto mm = dyn_cast<MatMulOp>(op); mm && !joined && (linearView || columns)) {
      // Cut along N ([N, K] read transposed, or [K, N]'s column windows):
      // each piece makes its columns, then they are joined.
      auto outType = cast<RankedTensorType>(mm.getType());
      int64_t last = outType.getRank() - 1;
      SmallVector<Value> parts;
      for (auto [i, wi] : llvm::enumerate(pieceWeights)) {
        Value wt = wi;
        if (linearView)
          wt = b.create<TransposeOp>(
              linearView.getLoc(),
              RankedTensorType::get({wType.getDimSize(1), sizes[i]}, wType.getElementType()),
              wi, linearView.getPermAttr());
        SmallVector<int64_t> shape(outType.getShape());
        shape[last] = sizes[i];
        parts.push_back(b.create<MatMulOp>(
            loc, RankedTensorType::get(shape, outType.getElementType()), mm.getLhs(), wt));
      }
      result = b.create<ConcatOp>(loc, outType, parts, b.getI64IntegerAttr(last));
    } else if (auto mm = dyn_cast<MatMulOp>(op)) {
      // [K, N] cut along K: split the input, sum the partial products.
      // An input joined from parts of these sizes (`joined`) is read as
      // its parts, each made where its piece runs: its pointwise ops
      // built just before its product, so that stream fusion puts them in
      // the product's kernel on the piece's chip.
      Value x = mm.getLhs();
      int64_t axis = cast<RankedTensorType>(x.getType()).getRank() - 1;
      RankedTensorType partial = partialType(t, cast<RankedTensorType>(mm.getType()));
      llvm::DenseMap<std::tuple<Value, int64_t, int64_t, int64_t>, Value> made;
      bool fromParts = false;
      if (joined) {
        int64_t at = 0;
        fromParts = llvm::all_of(sizes, [&](int64_t n) {
          bool ok = bool(partOf(nullptr, x, axis, at, n, made));
          at += n;
          return ok;
        });
      }
      SmallVector<Value> xs;
      if (!fromParts)
        xs = splitAlong(b, loc, x, axis, sizes);
      SmallVector<Value> parts;
      int64_t at = 0;
      for (auto [i, wi] : llvm::enumerate(pieceWeights)) {
        Value xi = fromParts ? partOf(&b, x, axis, at, sizes[i], made) : xs[i];
        at += sizes[i];
        Value wt = wi;
        if (linearView)
          wt = b.create<TransposeOp>(
              linearView.getLoc(),
              RankedTensorType::get({sizes[i], wType.getDimSize(0)}, wType.getElementType()),
              wi, linearView.getPermAttr());
        parts.push_back(b.create<MatMulOp>(loc, partial, xi, wt));
      }
      result = sumTree(b, loc, parts);
      if (partial != mm.getType())
        result = b.create<CastOp>(loc, mm.getType(), result);
    } else if (auto g = dyn_cast<GemmOp>(op)) {
      auto outType = cast<RankedTensorType>(g.getType());
      if (g.getTransB()) {
        // [N, K] cut along N: each piece makes its columns (and adds its
        // columns of C), then they are joined.
        SmallVector<Value> cs(pieces, g.getC());
        if (Value c = g.getC()) {
          auto cType = cast<RankedTensorType>(c.getType());
          if (cType.getRank() >= 1 &&
              cType.getDimSize(cType.getRank() - 1) == outType.getDimSize(1))
            cs = splitAlong(b, loc, c, cType.getRank() - 1, sizes);
        }
        SmallVector<Value> parts;
        for (auto [i, wi] : llvm::enumerate(pieceWeights)) {
          auto type = RankedTensorType::get({outType.getDimSize(0), sizes[i]},
                                            outType.getElementType());
          parts.push_back(b.create<GemmOp>(
              loc, type, g.getA(), wi, cs[i], g.getAlphaAttr(), g.getBetaAttr(),
              g.getTransAAttr(), g.getTransBAttr()));
        }
        result = b.create<ConcatOp>(loc, outType, parts, b.getI64IntegerAttr(1));
      } else {
        // [K, N] cut along K: split A along K; C is added once.
        int64_t axis = g.getTransA() ? 0 : 1;
        SmallVector<Value> as = splitAlong(b, loc, g.getA(), axis, sizes);
        RankedTensorType partial = partialType(t, outType);
        SmallVector<Value> parts;
        for (auto [i, ai] : llvm::enumerate(as))
          parts.push_back(b.create<GemmOp>(
              loc, partial, ai, pieceWeights[i], i == 0 ? g.getC() : Value(),
              g.getAlphaAttr(), g.getBetaAttr(), g.getTransAAttr(),
              g.getTransBAttr()));
        result = sumTree(b, loc, parts);
        if (partial != outType)
          result = b.create<CastOp>(loc, outType, result);
      }
    } else {
      // Filters [F, C, ...] cut along F: each piece makes its channels.
      auto conv = cast<ConvOp>(op);
      auto outType = cast<RankedTensorType>(conv.getType());
      SmallVector<Value> biases(pieces, Value());
      if (Value bias = conv.getBias())
        biases = splitAlong(b, loc, bias, 0, sizes);
      SmallVector<Value> parts;
      for (auto [i, wi] : llvm::enumerate(pieceWeights)) {
        SmallVector<int64_t> shape(outType.getShape());
        shape[1] = sizes[i];
        parts.push_back(b.create<ConvOp>(
            loc, RankedTensorType::get(shape, outType.getElementType()),
            conv.getInput(), wi, biases[i], conv.getStridesAttr(),
            conv.getPadsAttr(), conv.getDilationsAttr(), conv.getGroupAttr()));
      }
      result = b.create<ConcatOp>(loc, outType, parts, b.getI64IntegerAttr(1));
    }
    Value input = joined ? cast<MatMulOp>(op).getLhs() : Value();
    replace(op, result, w, pieces, stored, budget,
            over ? 0.0 : t.activationLevel().capacityBytes.value);
    if (input)
      eraseUnread(input);
    if (view && view->use_empty())
      view->erase();
    dropIfUnused(w);
  }

  /// `op` (whose weight `w` was cut into `pieces`) replaced by `result`;
  /// `crowded` the chip's SRAM where the weight was within the budget but
  /// not beside the product's activations (0 otherwise).
  void replace(Operation *op, Value result, WeightOp w, int64_t pieces,
               int64_t stored, double budget, double crowded = 0) {
    if (remarks) {
      InFlightDiagnostic r = op->emitRemark();
      r << "split across " << pieces << " chips: its weight '" << w.getSymName()
        << "' (" << stored << " B stored) ";
      if (crowded > 0)
        r << "and its input and output do not fit one chip's " << int64_t(crowded)
          << " B SRAM together";
      else
        r << "exceeds the " << int64_t(budget) << " B one chip holds for weights";
    }
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
    ++numSharded;
  }

  void dropIfUnused(WeightOp w) {
    if (!w->use_empty())
      return;
    for (auto it = slices.begin(); it != slices.end();)
      it = std::get<0>(it->first) == w.getOperation() ? slices.erase(it)
                                                       : std::next(it);
    w->erase();
  }

  /// An embedding table too large for one chip, cut into pieces of rows
  /// (Megatron's vocabulary-parallel embedding). Each piece but the last
  /// looks up the indices in its own rows (any other index reads its row
  /// 0), and the last every other index, so an index outside the table
  /// still fails the last lookup's range check; a chain of selects takes
  /// each index's row from the piece that holds it (exact: no sum).
  void shardGather(const target::Target &t, GatherOp g, double budget) {
    WeightOp w = g.getAxis() == 0 ? sliceableWeight(g.getInput()) : WeightOp();
    if (!w)
      return;
    int64_t stored = layoutOf(t, w).bytes;
    if (double(stored) <= budget)
      return;
    int64_t pieces = piecesFor(t, w, budget);
    if (pieces < 2)
      return;
    auto wType = cast<RankedTensorType>(w.getType());
    int64_t rows = wType.getDimSize(0);
    SmallVector<int64_t> sizes = evenSizes(rows, pieces);
    SmallVector<Value> pieceWeights = weightSlices(w, sizes);
    OpBuilder b(g);
    Location loc = g.getLoc();
    Value idx = g.getIndices();
    auto it = cast<RankedTensorType>(idx.getType());
    Type ie = it.getElementType();
    auto bools = it.clone(b.getI1Type());
    auto scalar = [&](int64_t x) -> Value {
      return b.create<ConstantOp>(
          loc, DenseElementsAttr::get(RankedTensorType::get({}, ie),
                                      b.getIntegerAttr(ie, x)));
    };
    // Negative indices count from the end of the whole table.
    Value negative = b.create<LessOp>(loc, bools, idx, scalar(0));
    Value index = b.create<WhereOp>(
        loc, it, negative, b.create<AddOp>(loc, it, idx, scalar(rows)), idx);
    // A mask of the indices, shaped to select whole rows of the result.
    auto outType = cast<RankedTensorType>(g.getType());
    SmallVector<int64_t> maskShape(it.getShape());
    maskShape.append(wType.getRank() - 1, 1);
    auto rowMask = [&](Value m) -> Value {
      return b.create<ReshapeOp>(loc, RankedTensorType::get(maskShape, b.getI1Type()), m);
    };
    // Each piece but the last looks up its ids; the last, its own and the
    // invalid ones (below 0 or past the table, which its lookup's range
    // check reports); a chain of selects takes each id's row from its
    // piece (the ids' pieces are disjoint: the order changes no value).
    // Where every piece's rows fit one chip beside the last piece of the
    // table, the lookups run on their chips at once and the selects where
    // the last one is. Where they do not (a long prompt's rows), each
    // select follows its piece's lookup and fuses with it on that chip,
    // which takes the rows so far and passes them on: one activation a
    // hop.
    double rowsBytes = double(layoutOf(t, g.getResult()).bytes);
    double lastPiece = double(layoutOf(t, pieceWeights.back()).bytes);
    bool chain = lastPiece + double(pieces) * rowsBytes >
                 t.activationLevel().capacityBytes.value;
    auto lookupLast = [&](int64_t first) {
      Value others = b.create<AndOp>(
          loc, bools, b.create<GreaterEqualOp>(loc, bools, index, scalar(0)),
          b.create<LessOp>(loc, bools, index, scalar(first)));
      Value local = b.create<WhereOp>(loc, it, others, scalar(0),
                                      b.create<SubOp>(loc, it, index, scalar(first)));
      return b.create<GatherOp>(loc, pieceWeights.back(), local, g.getAxisAttr());
    };
    Value result = chain ? lookupLast(rows - sizes.back()) : Value();
    SmallVector<std::pair<Value, Value>> owned; // (row mask, rows) per piece
    int64_t first = 0;
    for (int64_t i = 0; i + 1 < pieces; ++i) {
      Value local = b.create<SubOp>(loc, it, index, scalar(first));
      Value mine = b.create<AndOp>(
          loc, bools, b.create<GreaterEqualOp>(loc, bools, local, scalar(0)),
          b.create<LessOp>(loc, bools, local, scalar(sizes[i])));
      // (In a chain the row mask comes first: the lookup is then the
      // select's newest producer, which the select joins.)
      Value mask = chain ? rowMask(mine) : Value();
      Value safe = b.create<WhereOp>(loc, it, mine, local, scalar(0));
      Value part = b.create<GatherOp>(loc, pieceWeights[i], safe, g.getAxisAttr());
      if (chain)
        result = b.create<WhereOp>(loc, outType, mask, part, result);
      else
        owned.push_back({rowMask(mine), part});
      first += sizes[i];
    }
    if (!chain) {
      result = lookupLast(first);
      for (auto [mask, part] : llvm::reverse(owned))
        result = b.create<WhereOp>(loc, outType, mask, part, result);
    }
    replace(g, result, w, pieces, stored, budget);
    dropIfUnused(w);
  }
};
} // namespace

std::unique_ptr<Pass> dfa::createGraphShardPass(PassTarget target,
                                                const GraphShardPassOptions &options) {
  return makeTargetedPass<GraphShardPass>(std::move(target), options);
}
