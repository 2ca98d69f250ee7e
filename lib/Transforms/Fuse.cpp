//===- Fuse.cpp - group graph ops into kernels ------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Greedy producer-consumer fusion in program order. Every op either joins
// the newest group among its producers' groups or starts a group of its
// own. Because an op only ever joins the newest of its producer groups,
// every group depends on older groups only, so the groups are acyclic and
// emitting them in creation order is a topological order.
//
// What may join what is the target's fusion policy, `compiler.fusion` of
// its description (design §6):
//   inductor    (GPU, Spyre) Inductor-like: epilogues into GEMMs and convolutions,
//               pointwise chains, reductions with pointwise prologues and
//               epilogues, views anywhere. Spyre also refuses an op
//               that adds to a group's working set past the usable LX
//               of a core (writesInPlace: views and in-place ops add none).
//   xla         (TPU) XLA-like: loop fusion, input fusion into a reduction (the
//               reduction is the root), output fusion into a matmul.
//   layer       (WSE) layer regions: one anchor (matmul, conv, attention) and
//               what follows it until the next anchor.
//   stream      (LPU) stream chains: a consumer joins its producer when it is the
//               producer's only reader; at most one MXM op per chain. A
//               pointwise op that would take the chain's working set past
//               one chip's SRAM (weights included) starts a chain of its own.
//   none        (CPU) one op per kernel (the reference).
//
// Under every policy but none, a broadcast (an expand that grows its input)
// fuses into its reader, not its producer: an anchor that is its only
// reader takes it into its kernel, which reads the input once (GQA's
// repeat of the KV heads is never materialized). Likewise a product takes
// in the dequantization of an operand stored as int8 or float8, and reads
// the narrow tensor (ONNX's QDQ form of a quantized layer), and, where the
// compiler folds transposes into dots (compiler.transpose_folding), the
// transpose of an operand's last two dims (attention's K^T).
//
//===----------------------------------------------------------------------===//

#include "dfa/Transforms/TargetModel.h"

#include "dfa/Transforms/Passes.h"

#include "dialects/Graph/GraphOps.h"
#include "dialects/Sched/CompileStats.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

namespace dfa {
#define GEN_PASS_DEF_GRAPHFUSEPASS
#include "dfa/Transforms/Passes.h.inc"
} // namespace dfa

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

namespace {
using target::FusionPolicy;

struct Group {
  SmallVector<Operation *> ops;
  OpClass kind = OpClass::Pointwise;
  bool sealed = false;   // nothing joins (a relayout-like transpose)
  int anchors = 0;
  int64_t bytes = 0;     // every tensor the group touches
  llvm::DenseSet<Value> counted;
  std::string name;
  /// Views that start with a broadcast (an expand that grows its input):
  /// a reader anchor takes them into its kernel (`absorbBroadcasts`).
  bool broadcast = false;
  /// Computed from weights and constants alone (Fuser::isParam): no op
  /// that reads an activation joins it, and its kernel comes first.
  bool param = false;
  /// Ops taken out of the group so far (moved to another, or all of them
  /// when it is merged): with the count of ops, what says whether `chip`
  /// still counts these ops.
  int64_t removals = 0;
  /// Fuser::chipCount's count of the group, kept as ops join it: what it
  /// reads from outside, the results read outside it, and their bytes, as
  /// of `ops` ops and `removals` removals.
  struct ChipCount {
    size_t ops = 0;
    int64_t removals = -1;
    llvm::DenseSet<Value> inputs, exported;
    int64_t bytes = 0;
  } chip;
};

/// Whether `v` is a result of the graph.
bool isGraphResult(Value v) {
  return llvm::any_of(v.getUsers(), [](Operation *u) { return isa<func::ReturnOp>(u); });
}

/// Constants this small are cloned into each kernel that reads them.
bool isInlineConstant(Operation *op) {
  auto c = dyn_cast_or_null<ConstantOp>(op);
  return c && cast<RankedTensorType>(c.getType()).getNumElements() <= 64;
}

bool isView(Operation *op) { return isa<ReshapeOp, ExpandOp>(op); }

/// Whether what data op `op` makes is stored whole past the ops that may
/// stream it in its kernel: through views, transposes and other data ops,
/// it reaches a product, a convolution, a concatenation or the graph's
/// results (a GQA repeat of the keys read by the attention's product),
/// not only pointwise ops and reductions (a repeat that a multiply and a
/// sum consume as it is made, never written).
bool storedWhole(Operation *op) {
  SmallVector<Operation *> work{op};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Operation *o = work.pop_back_val();
    if (!seen.insert(o).second || seen.size() > 64)
      return true;
    for (Operation *u : o->getUsers()) {
      if (isa<func::ReturnOp, ConcatOp>(u))
        return true;
      OpClass c = classify(u);
      if (c == OpClass::Data)
        work.push_back(u);
      else if (c != OpClass::Pointwise && c != OpClass::Reduction)
        return true;
    }
  }
  return false;
}

/// Whether concatenation `op` is a graph result that leaves for the host
/// (through reshapes, each read by the next alone): the lowering assembles
/// it where it lives, each piece's kernel writing its part
/// (Lowering::findAssemblies), so the kernel that joins it holds none of
/// the other pieces.
bool assembledConcat(Operation *op) {
  Value v = op->getResult(0);
  while (v.hasOneUse() && isa<ReshapeOp>(*v.getUsers().begin()))
    v = v.getUsers().begin()->getResult(0);
  return isGraphResult(v);
}

/// An expand that grows its input: GQA's repeat of the key and value heads
/// over the query heads they serve, a bias broadcast over a batch.
bool isBroadcast(Operation *op) {
  auto e = dyn_cast<ExpandOp>(op);
  return e && cast<RankedTensorType>(e.getType()).getNumElements() >
                  cast<RankedTensorType>(e.getInput().getType()).getNumElements();
}

/// Gives each product its own copy of a dequantization it shares with
/// other readers (graph::dequantizedOperand's chain: a cast from int8 or
/// float8, minus a zero point, times a scale, views), as XLA's fusion
/// duplicates cheap producers into each consumer: every product can then
/// take its copy into its kernel and read the narrow tensor (a ResNet
/// block's input feeds both its first convolution and its downsample).
/// Only products that would take the chain get a copy (not one whose scale
/// varies along the sum, nor one whose chain moves a minor dim where that
/// is a relayout); readers that are not products (a residual add) keep the
/// original, which goes when none is left. The copies compute what the
/// original did.
void cloneSharedDequantizations(Block &block, const target::Target &t) {
  SmallVector<Operation *> products;
  for (Operation &op : block)
    if (isa<MatMulOp, GemmOp, ConvOp>(op))
      products.push_back(&op);
  OpBuilder b(block.getParent()->getContext());
  llvm::SetVector<Operation *> originals;
  for (Operation *product : products)
    for (unsigned i = 0; i < 2 && i < product->getNumOperands(); ++i) {
      std::optional<DequantizedOperand> d =
          dequantizedOperand(product, i, /*shared=*/true);
      if (!d || llvm::all_of(d->ops, [](Operation *o) {
            return o->getResult(0).hasOneUse();
          }))
        continue;
      if (llvm::any_of(d->ops, [&](Operation *o) { return isRelayout(t, o); }))
        continue;
      // The chain, copied just before the product, which then reads it.
      b.setInsertionPoint(product);
      IRMapping map;
      for (Operation *o : d->ops) {
        b.clone(*o, map);
        originals.insert(o);
      }
      product->setOperand(i, map.lookup(d->ops.back()->getResult(0)));
    }
  // Originals no reader is left for, last first.
  SmallVector<Operation *> chain = originals.takeVector();
  for (Operation *o : llvm::reverse(chain))
    if (o->use_empty())
      o->erase();
}

struct Fuser {
  FusionPolicy policy;
  const target::Target &t;
  std::optional<double> workingSetLimit; // bytes per unit
  /// The units a kernel's working set spreads over (a Spyre kernel's cores;
  /// 1 for an LPU chip's SRAM, which one kernel holds whole).
  int64_t limitUnits = 1;
  /// What the limit is, for the refusal's reason.
  std::string limitName;
  /// The limit is one chip's memory (a chip partition's), which a kernel
  /// holds with its weights: counted as the lowering places a kernel.
  bool chipLimit = false;
  std::vector<Group> groups;
  llvm::DenseMap<Operation *, unsigned> groupOf;
  struct Refusal {
    std::string op, kernel, reason;
    Location loc;
  };
  std::vector<Refusal> refused;
  int64_t made = 0;
  /// Ops computed from weights and constants alone (a batch norm's scale
  /// from its variance, a weight's view): isParam.
  llvm::DenseSet<Operation *> params;

  /// Whether every operand of `op` is a weight, a constant or computed
  /// from them alone.
  bool isParam(Operation *op) {
    if (op->getNumOperands() == 0)
      return false;
    bool all = llvm::all_of(op->getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && (classify(def) == OpClass::Source || params.contains(def));
    });
    if (all)
      params.insert(op);
    return all;
  }

  /// Why `op` may not join `g`, or "" when it may.
  std::string refuse(Group &g, Operation *op, OpClass c, Value via) {
    if (g.sealed)
      return "sealed";
    // A collective runs on the links and the copy engines as a kernel of
    // its own (as NCCL's and XLA's do): nothing joins it, nor it anything.
    if (c == OpClass::Collective)
      return "collective";
    if (isRelayout(t, op))
      return "relayout";
    // A KV cache grown in place (a graph result) ends its kernel: a reader
    // of the grown cache joining it (a view of it for the attention) would
    // make the kernel move the whole cache it only appends to.
    if (via && graph::cacheGrowth(via) &&
        llvm::any_of(via.getUsers(), [](Operation *u) { return isa<func::ReturnOp>(u); }))
      return "cache growth";
    switch (policy) {
    case FusionPolicy::None:
      return "none";
    case FusionPolicy::Inductor:
      if (isView(op))
        return "";
      if (isAnchor(c))
        return "anchor";
      if (g.kind == OpClass::Attention)
        return "attention";
      if (g.kind == OpClass::Matmul || g.kind == OpClass::Conv ||
          g.kind == OpClass::Window)
        return c == OpClass::Pointwise ? "" : "not an epilogue";
      return "";
    case FusionPolicy::XLA:
      if (isAnchor(c))
        return "anchor";
      if (g.kind == OpClass::Reduction)
        return "reduction is a fusion root";
      if (g.kind == OpClass::Matmul || g.kind == OpClass::Conv ||
          g.kind == OpClass::Window || g.kind == OpClass::Attention)
        return c == OpClass::Pointwise || isView(op) ? "" : "not an output fusion";
      return "";
    case FusionPolicy::Layer:
      return isAnchor(c) && g.anchors > 0 ? "next layer" : "";
    case FusionPolicy::Stream:
      if (!via || !via.hasOneUse())
        return "producer has other readers";
      if ((c == OpClass::Matmul || c == OpClass::Conv) && g.anchors > 0)
        return "one MXM op per chain";
      return "";
    }
    return "";
  }

  /// Whether `op`'s result takes over the buffer of one of its operands in
  /// `g`'s working set. A view that keeps the minor dim (a reshape of the
  /// major dims, an expand that adds size-1 dims) is its operand's buffer
  /// read another way. A pointwise op writes over an intermediate of the
  /// group that it alone reads, at least as large as the result (a batch
  /// norm's sub, mul and add after a convolution write over the
  /// convolution's output): torch-spyre's LX planner reuses a pointwise
  /// op's input in place so (reference/hardware.md 5.6).
  bool writesInPlace(Group &g, Operation *op) {
    if (op->getNumResults() != 1)
      return false;
    if (isView(op) && !isBroadcast(op)) {
      auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
      auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
      return in && out && in.getRank() > 0 && out.getRank() > 0 &&
             in.getShape().back() == out.getShape().back();
    }
    if (classify(op) != OpClass::Pointwise)
      return false;
    // A group being started (not in `groups` yet) holds no intermediate.
    if (groups.empty() || &g < &groups.front() || &g > &groups.back())
      return false;
    int64_t out = tensorBytes(op->getResult(0).getType());
    unsigned self = unsigned(&g - groups.data());
    return llvm::any_of(op->getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (!def || !v.hasOneUse() || tensorBytes(v.getType()) < out)
        return false;
      auto it = groupOf.find(def);
      return it != groupOf.end() && it->second == self;
    });
  }

  int64_t addedBytes(Group &g, Operation *op) {
    int64_t add = 0;
    if (!writesInPlace(g, op))
      for (Value v : op->getResults())
        add += tensorBytes(v.getType());
    for (Value v : op->getOperands())
      if (!g.counted.contains(v) && !isInlineConstant(v.getDefiningOp()))
        add += tensorBytes(v.getType());
    return add;
  }

  /// `v`'s bytes as the chip stores it: the layout graph-layout gives it
  /// (layoutOf, padding included), as Lowering::planKernels counts them.
  int64_t storedBytes(Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      return tensorBytes(v.getType());
    return layoutOf(t, v).bytes;
  }

  /// The bytes one chip holds for `g`'s kernel as the chip partition
  /// places a kernel (Lowering::planKernels): what it reads from outside
  /// (its weights and input activations) and the results read outside it,
  /// each as stored (storedBytes). A chain's intermediates pass through
  /// the chip's streams and take no memory (a weight's transpose that the
  /// MXM folds, a SwiGLU's gate); a
  /// graph result takes no room either, as the lowering streams one that
  /// does not fit to the host's memory as it is made
  /// (Lowering::leavesForHost). Kept in `g.chip` as ops join (chipJoin),
  /// counted again where the group changed otherwise.
  Group::ChipCount &chipCount(Group &g) {
    Group::ChipCount &c = g.chip;
    if (c.ops == g.ops.size() && c.removals == g.removals)
      return c;
    c = Group::ChipCount();
    llvm::SmallPtrSet<Operation *, 16> inside(g.ops.begin(), g.ops.end());
    for (Operation *o : g.ops) {
      for (Value v : o->getOperands()) {
        Operation *def = v.getDefiningOp();
        if ((!def || !inside.contains(def)) && !isInlineConstant(def) &&
            c.inputs.insert(v).second)
          c.bytes += storedBytes(v);
      }
      for (Value v : o->getResults())
        if (!isGraphResult(v) &&
            llvm::any_of(v.getUsers(), [&](Operation *u) { return !inside.contains(u); }) &&
            c.exported.insert(v).second)
          c.bytes += storedBytes(v);
    }
    c.ops = g.ops.size();
    c.removals = g.removals;
    return c;
  }

  /// What `op` joining `g` (group `gi`) changes in its chipCount; with
  /// `apply` (just before `op` joins), the count takes it.
  int64_t chipJoin(Group &g, unsigned gi, Operation *op, bool apply) {
    Group::ChipCount &c = chipCount(g);
    auto in = [&](Operation *o) {
      auto it = o ? groupOf.find(o) : groupOf.end();
      return o == op || (it != groupOf.end() && it->second == gi);
    };
    int64_t delta = 0;
    llvm::SmallPtrSet<Value, 4> seen;
    for (Value v : op->getOperands()) {
      if (!seen.insert(v).second)
        continue;
      Operation *def = v.getDefiningOp();
      if (!in(def)) {
        if (!isInlineConstant(def) && !c.inputs.contains(v)) {
          delta += storedBytes(v);
          if (apply)
            c.inputs.insert(v);
        }
      } else if (c.exported.contains(v) && llvm::all_of(v.getUsers(), in)) {
        // `op` read the last of it outside: now an intermediate.
        delta -= storedBytes(v);
        if (apply)
          c.exported.erase(v);
      }
    }
    for (Value v : op->getResults())
      if (!isGraphResult(v) && !v.use_empty()) {
        delta += storedBytes(v);
        if (apply)
          c.exported.insert(v);
      }
    if (apply) {
      c.bytes += delta;
      c.ops = g.ops.size() + 1; // `op` about to join
      c.removals = g.removals;
    }
    return delta;
  }

  void account(Group &g, Operation *op) {
    bool inPlace = writesInPlace(g, op);
    for (Value v : op->getResults())
      if (g.counted.insert(v).second && !inPlace)
        g.bytes += tensorBytes(v.getType());
    for (Value v : op->getOperands())
      if (!isInlineConstant(v.getDefiningOp()) && g.counted.insert(v).second)
        g.bytes += tensorBytes(v.getType());
  }

  void startGroup(Operation *op, OpClass c) {
    Group g;
    g.kind = c;
    g.param = params.contains(op);
    g.sealed = isRelayout(t, op) || c == OpClass::Collective;
    g.anchors = isAnchor(c) ? 1 : 0;
    g.ops.push_back(op);
    account(g, op);
    groupOf[op] = groups.size();
    groups.push_back(std::move(g));
  }

  /// A broadcast fuses into its readers, not its producer (as XLA fuses a
  /// broadcast into each consumer): it starts a group of views, which an
  /// anchor reading it takes into its own kernel, so the kernel reads the
  /// broadcast's input once instead of a materialized copy (a GQA
  /// attention reads its cache once for all the query heads it serves).
  /// The single-use views that feed it (an unsqueeze) come along from their
  /// producer's group. A transpose that the products reading it fold
  /// (foldsIntoProducts: attention's K^T on a TPU) starts such a group
  /// too, so the product reads the untransposed tensor once.
  void startBroadcast(Operation *op, OpClass c) {
    SmallVector<Operation *> chain;
    Value x = op->getOperand(0);
    while (Operation *def = x.getDefiningOp()) {
      auto it = groupOf.find(def);
      if (it == groupOf.end() || !isa<ReshapeOp>(def) || !x.hasOneUse())
        break;
      chain.push_back(def);
      x = def->getOperand(0);
    }
    startGroup(op, c);
    Group &g = groups.back();
    g.broadcast = true;
    for (Operation *view : chain) {
      Group &from = groups[groupOf[view]];
      llvm::erase(from.ops, view);
      ++from.removals;
      g.ops.insert(g.ops.begin(), view);
      groupOf[view] = groups.size() - 1;
      account(g, view);
    }
  }

  /// Whether a broadcast reaches one anchor through single-use views that
  /// may join its group (reshapes, expands, and transposes that are not a
  /// relayout here): only then does it leave its producer's group, so it
  /// is never a kernel of its own.
  /// An anchor that takes a broadcast it reads into its kernel (a
  /// collective moves whole tensors between chips: it takes none).
  static bool absorbs(OpClass c) {
    return isAnchor(c) && c != OpClass::Collective;
  }

  bool readByAnchor(Operation *op) const {
    Value v = op->getResult(0);
    while (v.hasOneUse()) {
      Operation *user = *v.getUsers().begin();
      if (absorbs(classify(user)))
        return true;
      if (!(isView(user) || isa<TransposeOp>(user)) || isRelayout(t, user) ||
          user->getNumResults() != 1)
        return false;
      v = user->getResult(0);
    }
    // Several readers: every one an anchor (attention's key and value).
    return !v.use_empty() && llvm::all_of(v.getUsers(), [](Operation *u) {
      return absorbs(classify(u));
    });
  }

  /// Moves into `op`'s group (just made, or just joined, the newest) each
  /// broadcast group older than it that only `op` reads, and, through the
  /// groups it takes, each such group that only those read (GQA's key:
  /// a broadcast of the cache, then the folded transpose of its view).
  void absorbBroadcasts(Operation *op) {
    unsigned into = groupOf[op];
    SmallVector<Value> work(op->getOperands());
    bool moved = false;
    while (!work.empty()) {
      Value v = work.pop_back_val();
      Operation *def = v.getDefiningOp();
      auto it = def ? groupOf.find(def) : groupOf.end();
      if (it == groupOf.end() || it->second >= into || !groups[it->second].broadcast)
        continue;
      unsigned fromIndex = it->second;
      Group &from = groups[fromIndex];
      bool onlyInto = llvm::all_of(from.ops, [&](Operation *o) {
        return llvm::all_of(o->getUsers(), [&](Operation *u) {
          auto gu = groupOf.find(u);
          return gu != groupOf.end() &&
                 (gu->second == into || gu->second == fromIndex);
        });
      });
      if (!onlyInto)
        continue;
      Group &g = groups[into];
      g.ops.insert(g.ops.end() - 1, from.ops.begin(), from.ops.end());
      for (Operation *o : from.ops) {
        groupOf[o] = into;
        account(g, o);
        work.append(o->getOperands().begin(), o->getOperands().end());
      }
      from.ops.clear();
      ++from.removals;
      moved = true;
    }
    // Groups taken through others come before them in the block.
    if (moved)
      llvm::sort(groups[into].ops,
                 [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  }

  void add(Operation *op, bool remarks) {
    OpClass c = classify(op);
    if (policy != FusionPolicy::None &&
        (isBroadcast(op) || foldsIntoProducts(t, op)) && readByAnchor(op))
      return startBroadcast(op, c);
    place(op, c, remarks);
    if (absorbs(c))
      absorbBroadcasts(op);
    if (policy != FusionPolicy::None)
      absorbDequantize(op);
  }

  /// A product takes into its kernel the dequantization of each operand
  /// stored narrow (int8, float8: graph::dequantizedOperand), as
  /// TensorRT's quantized GEMMs, cuBLASLt's scaled FP8 GEMMs and XLA's int8
  /// dots do: the kernel reads the narrow tensor, multiplies in its type
  /// and applies the scales to the sum; the float copy is never written.
  /// The chain's values have no other reader, so the groups they leave
  /// lose nothing another op needs, and every group they read is older.
  void absorbDequantize(Operation *op) {
    unsigned into = groupOf[op];
    Group &g = groups[into];
    bool moved = false;
    for (unsigned i = 0; i < 2; ++i) {
      std::optional<DequantizedOperand> d = dequantizedOperand(op, i);
      if (!d || llvm::any_of(d->ops, [&](Operation *o) {
            return isRelayout(t, o);
          }))
        continue;
      SmallVector<Operation *> ops(d->ops);
      storedParams(d->ops, ops);
      for (Operation *o : ops) {
        auto it = groupOf.find(o);
        if (it == groupOf.end() || it->second == into)
          continue;
        llvm::erase(groups[it->second].ops, o);
        ++groups[it->second].removals;
        g.ops.insert(llvm::find(g.ops, op), o);
        groupOf[o] = into;
        account(g, o);
        moved = true;
      }
    }
    // Part of a chain may already be in the group (a broadcast it ends in,
    // taken by absorbBroadcasts): keep the group in program order.
    if (moved)
      llvm::sort(g.ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  }

  /// The casts and reshapes that make a dequantization step's scale or
  /// zero point from a stored parameter (a weight or constant) and have no
  /// other reader, appended to `out`: the product's kernel reads the
  /// parameter as stored (an int64 zero point, a [C] scale) and converts it
  /// as it applies it, as it does the narrow operand.
  static void storedParams(ArrayRef<Operation *> chain,
                           SmallVectorImpl<Operation *> &out) {
    for (Operation *step : chain) {
      if (!isa<MulOp, SubOp>(step))
        continue;
      for (Value p : step->getOperands()) {
        SmallVector<Operation *> path;
        Operation *user = step;
        Operation *def = p.getDefiningOp();
        while (def && isa<CastOp, ReshapeOp, ExpandOp>(def) &&
               !llvm::is_contained(chain, def) &&
               llvm::all_of(def->getUsers(), [&](Operation *u) { return u == user; })) {
          path.push_back(def);
          user = def;
          def = def->getOperand(0).getDefiningOp();
        }
        if (!path.empty() && isa_and_nonnull<WeightOp, ConstantOp>(def))
          out.append(path.begin(), path.end());
      }
    }
  }

  void place(Operation *op, OpClass c, bool remarks) {
    // The newest group among the producers: joining it keeps groups
    // acyclic. An op that reads an activation never joins a group of
    // parameters (a weight's view, a batch norm's scale): those kernels
    // come first, and it joins its activation's producer (a convolution
    // takes the batch norm after it as its epilogue). A group of a
    // parameter's views alone is taken into its reader's kernel instead
    // (absorbParamViews).
    bool param = isParam(op);
    auto viewsOnly = [&](const Group &g) {
      return g.param && llvm::all_of(g.ops, [](Operation *o) { return isView(o); });
    };
    std::optional<unsigned> best;
    Value via;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp()) {
        auto it = groupOf.find(def);
        if (it != groupOf.end() &&
            (param ? !viewsOnly(groups[it->second]) : !groups[it->second].param) &&
            (!best || it->second > *best)) {
          best = it->second;
          via = v;
        }
      }
    if (!best)
      return startGroup(op, c), absorbParamViews(op);
    if (!param)
      if (auto older = yieldIndexGroup(op, c, *best))
        std::tie(best, via) = *older;
    Group &g = groups[*best];
    std::string why = refuse(g, op, c, via);
    if (!why.empty())
      return startGroup(op, c), absorbParamViews(op);
    // An op that adds nothing to the working set (a view, a pointwise op
    // writing in place) joins even a kernel that does not fit alone (a
    // convolution the schedule runs in chunks): it spills nothing more.
    // Under a chip's limit (counted as the chip holds the kernel,
    // chipCount), the pointwise op or product that takes the chain past
    // the chip starts a chain of its own (a SwiGLU's multiply by the gate
    // beside the up projection's weight at a long prompt, the down
    // projection after it); a chain already past the chip gains nothing by
    // stopping. So does a data op that writes more than it reads out and
    // whose result is stored whole (storedWhole: a GQA repeat of the keys
    // and values, eight times their bytes, read by the attention's
    // products, beside a 70B layer's qkv weight; a repeat that a multiply
    // and a sum consume as it is made joins): views, splits and
    // transposes add nothing and join. A concatenation that leaves for the
    // host is left to the chip partition, which assembles its pieces where
    // it lives, each piece's kernel writing its part (refusing one that
    // joins an LM head's last column piece cost a Llama-3-8B-wide prefill
    // 5.6 -> 10.2 ms); one that its kernel reads on (a qkv product's column
    // pieces joined, then split into q, k and v) holds every piece on the
    // last one's chip, and starts a kernel of its own where that passes
    // the chip. Counted as stored (padding included: a [16, 320] f32
    // piece's heads, [5, 16, 64], are stored five times over in
    // 320-element vectors), as the partition counts them.
    bool limited = workingSetLimit &&
                   (!chipLimit || c == OpClass::Pointwise || c == OpClass::Matmul ||
                    (c == OpClass::Data &&
                     (isa<ConcatOp>(op) ? !assembledConcat(op) : storedWhole(op))));
    int64_t before = 0, after = 0;
    if (limited) {
      before = chipLimit ? chipCount(g).bytes : g.bytes;
      after = chipLimit ? before + chipJoin(g, *best, op, /*apply=*/false)
                        : g.bytes + addedBytes(g, op);
    }
    if (after > before) {
      int64_t units = std::max<int64_t>(1, limitUnits);
      int64_t perUnit = ceilDiv(after, units);
      bool crosses = !chipLimit || double(ceilDiv(before, units)) <= *workingSetLimit;
      if (perUnit > *workingSetLimit && crosses) {
        std::string reason =
            chipLimit
                ? std::string(llvm::formatv(
                      "working set {0} B exceeds the {1} of one chip ({2} B)",
                      perUnit, limitName, int64_t(*workingSetLimit)))
                : std::string(llvm::formatv(
                      "working set {0} B per core exceeds the usable {1} of {2} B",
                      perUnit, scratchName(), int64_t(*workingSetLimit)));
        refused.push_back({op->getName().getStringRef().str(),
                           kernelName(g), reason, op->getLoc()});
        if (remarks)
          op->emitRemark() << "fusion of '" << op->getName()
                           << "' into kernel '" << kernelName(g)
                           << "' refused: " << reason;
        return startGroup(op, c), absorbParamViews(op);
      }
    }
    if (isAnchor(c))
      ++g.anchors;
    if (!isView(op) && !isa<TransposeOp>(op))
      g.broadcast = false;
    if (int(c) > int(g.kind) || g.kind == OpClass::Data)
      if (c != OpClass::Data)
        g.kind = c;
    if (chipLimit)
      chipJoin(g, *best, op, /*apply=*/true);
    g.ops.push_back(op);
    account(g, op);
    groupOf[op] = *best;
    ++made;
    absorbParamViews(op);
  }

  /// When the newest group `op` reads is one of index ops alone (a slice of
  /// a product's output and its views, which the product refused as an
  /// epilogue) that only `op` reads, and an older group `op` reads takes
  /// them and `op` (every operand of theirs made in it or before it, so
  /// the groups stay acyclic): moves them into that group and returns it.
  /// `op` then joins the group it continues (a scan's state update, each
  /// step's slice of the decay read where the product wrote it, as
  /// Inductor indexes a buffer) rather than the slice's.
  std::optional<std::pair<unsigned, Value>>
  yieldIndexGroup(Operation *op, OpClass c, unsigned newest) {
    Group &v = groups[newest];
    if (policy == FusionPolicy::None || isView(op) || v.param || v.broadcast ||
        v.sealed || v.ops.empty())
      return std::nullopt;
    auto indexOp = [](Operation *o) { return isView(o) || isa<SliceOp>(o); };
    if (!llvm::all_of(v.ops, indexOp))
      return std::nullopt;
    for (Operation *o : v.ops)
      for (Operation *u : o->getUsers())
        if (u != op && groupOf.lookup(u) != newest)
          return std::nullopt;
    std::optional<unsigned> older;
    Value via;
    for (Value x : op->getOperands())
      if (Operation *def = x.getDefiningOp()) {
        auto it = groupOf.find(def);
        if (it != groupOf.end() && it->second != newest && !groups[it->second].param &&
            (!older || it->second > *older)) {
          older = it->second;
          via = x;
        }
      }
    if (!older)
      return std::nullopt;
    Group &into = groups[*older];
    for (Operation *o : v.ops) {
      if (!refuse(into, o, classify(o), Value()).empty())
        return std::nullopt;
      for (Value x : o->getOperands())
        if (Operation *def = x.getDefiningOp()) {
          auto it = groupOf.find(def);
          if (it != groupOf.end() && it->second != newest && it->second > *older)
            return std::nullopt;
        }
    }
    if (!refuse(into, op, c, via).empty())
      return std::nullopt;
    for (Operation *o : v.ops) {
      groupOf[o] = *older;
      account(into, o);
      into.ops.push_back(o);
    }
    v.ops.clear();
    ++v.removals;
    llvm::sort(into.ops,
               [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    return std::make_pair(*older, via);
  }

  /// Whether `op`'s result has more elements than its largest operand (a
  /// gather of a weight's rows, a broadcast).
  static bool grows(Operation *op) {
    auto elements = [](Value v) {
      auto t = dyn_cast<RankedTensorType>(v.getType());
      return t && t.hasStaticShape() ? t.getNumElements() : int64_t(-1);
    };
    if (op->getNumResults() != 1)
      return false;
    int64_t largest = 0;
    for (Value v : op->getOperands())
      largest = std::max(largest, elements(v));
    return elements(op->getResult(0)) > largest;
  }

  /// Moves into `op`'s group the views of weights and constants that only
  /// `op` reads (a batch norm's [C] mean viewed as [C, 1, 1]), and what
  /// moves or grows them (a positional embedding's rows, gathered from its
  /// table): the kernel reads the parameter as stored, and no kernel is
  /// made of a view, nor writes a tensor its reader would read back. A
  /// pointwise op `op` also takes the elementwise arithmetic on parameters
  /// it broadcasts (a batch norm's scale, weight / sqrt(var + eps), over
  /// [C] where `op` writes [N, C, H, W]), and what that arithmetic reads,
  /// as long as no step of it has more elements than what it feeds: a few
  /// operations per channel in the kernel's epilogue, where a kernel of
  /// its own would cost a launch each step (Inductor fuses them so; an
  /// engine builder folds them into the weights at load).
  void absorbParamViews(Operation *op) {
    unsigned into = groupOf[op];
    Group &g = groups[into];
    bool moved = false;
    auto elements = [](Value v) {
      auto t = dyn_cast<RankedTensorType>(v.getType());
      return t && t.hasStaticShape() ? t.getNumElements() : int64_t(-1);
    };
    // Each candidate with the most elements its arithmetic may have (-1:
    // none, only views, data movement and growing ops).
    SmallVector<std::pair<Operation *, int64_t>> work;
    int64_t fed = op->getNumResults() == 1 && classify(op) == OpClass::Pointwise
                      ? elements(op->getResult(0)) - 1
                      : -1;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        work.push_back({def, fed});
    while (!work.empty()) {
      auto [def, limit] = work.pop_back_val();
      auto it = groupOf.find(def);
      bool arithmetic = classify(def) == OpClass::Pointwise && def->getNumResults() == 1 &&
                        elements(def->getResult(0)) >= 0 &&
                        elements(def->getResult(0)) <= limit;
      if (it == groupOf.end() || it->second == into || !groups[it->second].param ||
          !(isView(def) || classify(def) == OpClass::Data || grows(def) || arithmetic) ||
          isRelayout(t, def) || groups[into].sealed ||
          !llvm::all_of(def->getUsers(), [&](Operation *u) {
            auto gu = groupOf.find(u);
            return gu != groupOf.end() && gu->second == into;
          }))
        continue;
      llvm::erase(groups[it->second].ops, def);
      ++groups[it->second].removals;
      g.ops.push_back(def);
      groupOf[def] = into;
      account(g, def);
      moved = true;
      // Arithmetic and views pass on the elements they hold, within what
      // they were allowed (the scale on [C] viewed as [C, 1, 1] is the
      // arithmetic's to take too); data movement and growing ops pass on
      // nothing.
      if (arithmetic || (isView(def) && !grows(def) && limit >= 0)) {
        for (Value v : def->getOperands())
          if (Operation *in = v.getDefiningOp())
            work.push_back({in, std::min(limit, elements(def->getResult(0)))});
      } else if (Operation *in = def->getOperand(0).getDefiningOp()) {
        work.push_back({in, -1});
      }
    }
    if (moved)
      llvm::sort(g.ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  }

  /// The groups of parameters in an order where each comes after those
  /// it reads (Kahn's, the oldest ready first). Groups that read each
  /// other (none is known to) become one, in program order, after the
  /// rest: they read only parameters, so any order of theirs is valid.
  SmallVector<unsigned> parameterOrder() {
    SmallVector<unsigned> order;
    DenseMap<unsigned, SmallVector<unsigned>> readers;
    DenseMap<unsigned, unsigned> waits;
    std::set<unsigned> ready;
    for (unsigned i = 0; i < groups.size(); ++i) {
      if (!groups[i].param || groups[i].ops.empty())
        continue;
      llvm::SmallDenseSet<unsigned, 4> from;
      for (Operation *op : groups[i].ops)
        for (Value v : op->getOperands())
          if (Operation *def = v.getDefiningOp()) {
            auto it = groupOf.find(def);
            if (it != groupOf.end() && it->second != i && groups[it->second].param)
              from.insert(it->second);
          }
      for (unsigned h : from)
        readers[h].push_back(i);
      waits[i] = from.size();
      if (from.empty())
        ready.insert(i);
    }
    while (!ready.empty()) {
      unsigned i = *ready.begin();
      ready.erase(ready.begin());
      order.push_back(i);
      for (unsigned r : readers[i])
        if (--waits[r] == 0)
          ready.insert(r);
    }
    SmallVector<unsigned> cycle;
    for (auto [i, n] : waits)
      if (n > 0)
        cycle.push_back(i);
    if (!cycle.empty()) {
      llvm::sort(cycle);
      Group &into = groups[cycle.front()];
      for (unsigned i : ArrayRef(cycle).drop_front()) {
        for (Operation *op : groups[i].ops) {
          into.ops.push_back(op);
          groupOf[op] = cycle.front();
          account(into, op);
        }
        groups[i].ops.clear();
        ++groups[i].removals;
      }
      llvm::sort(into.ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
      order.push_back(cycle.front());
    }
    return order;
  }

  std::string scratchName() const {
    for (const target::MemoryLevel &m : t.memory)
      if (m.scope == "unit" && m.managed == "software")
        return m.name;
    return "scratchpad";
  }

  static std::string kernelName(const Group &g) {
    for (Operation *op : g.ops)
      if (isAnchor(classify(op))) {
        std::string n = sourceName(op);
        if (!n.empty())
          return n;
      }
    for (Operation *op : g.ops) {
      std::string n = sourceName(op);
      if (!n.empty())
        return n;
    }
    return "";
  }
};

/// Replaces the ops of one group by a kernel before `before`.
KernelOp materialize(Group &g, StringRef name, Operation *before) {
  llvm::DenseSet<Operation *> in(g.ops.begin(), g.ops.end());
  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> consts;
  SmallVector<Value> outputs;
  for (Operation *op : g.ops) {
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (def && in.contains(def))
        continue;
      if (isInlineConstant(def))
        consts.insert(def);
      else
        inputs.insert(v);
    }
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(),
                       [&](Operation *u) { return !in.contains(u); }))
        outputs.push_back(r);
  }
  Operation *anchor = g.ops.front();
  for (Operation *op : g.ops)
    if (isAnchor(classify(op))) {
      anchor = op;
      break;
    }
  OpBuilder b(before);
  SmallVector<Type> types;
  for (Value v : outputs)
    types.push_back(v.getType());
  auto kernel = b.create<KernelOp>(anchor->getLoc(), types, name,
                                   stringifyKernelKind(kernelKindOf(g.kind)),
                                   inputs.getArrayRef());
  Block *body = new Block();
  kernel.getBody().push_back(body);
  IRMapping map;
  for (Value v : inputs)
    map.map(v, body->addArgument(v.getType(), v.getLoc()));
  OpBuilder ib = OpBuilder::atBlockEnd(body);
  for (Operation *c : consts)
    ib.clone(*c, map);
  for (Operation *op : g.ops)
    ib.clone(*op, map);
  SmallVector<Value> yielded;
  for (Value v : outputs)
    yielded.push_back(map.lookup(v));
  ib.create<YieldOp>(kernel.getLoc(), yielded);
  for (auto [v, r] : llvm::zip(outputs, kernel.getResults()))
    v.replaceUsesWithIf(r, [&](OpOperand &use) {
      return !in.contains(use.getOwner());
    });
  return kernel;
}

struct GraphFusePass : dfa::impl::GraphFusePassBase<GraphFusePass>, TargetedPass {
  using GraphFusePassBase::GraphFusePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const target::Target *t = passTarget(module, targetName, targetDirs);
    if (!t)
      return signalPassFailure();
    std::vector<sched::CompileStats::Refusal> refusals;
    module.walk([&](func::FuncOp func) {
      Fuser f{t->caps.fusion, *t, std::nullopt, 1, {}, false, {}, llvm::DenseMap<Operation *, unsigned>(), {}, 0};
      f.workingSetLimit = t->limit("usable_lx_bytes_per_core");
      f.limitUnits = std::max<int64_t>(1, int64_t(t->units.value));
      // A chip partition's kernel holds its weights and activations in one
      // chip's memory: a stream chain stops where it would pass it (the
      // LPU compiler does not build a chain that cannot fit a chip).
      if (!f.workingSetLimit && t->caps.placement == target::Placement::ChipPartition) {
        f.workingSetLimit = t->activationLevel().capacityBytes.value;
        f.limitUnits = 1;
        f.limitName = t->activationLevel().name;
        f.chipLimit = true;
      }
      Block &block = func.getBody().front();
      if (t->caps.fusion != FusionPolicy::None)
        cloneSharedDequantizations(block, *t);
      for (Operation &op : block) {
        if (isa<KernelOp, func::ReturnOp>(op) ||
            classify(&op) == OpClass::Source)
          continue;
        f.add(&op, remarks);
      }
      llvm::StringSet<> used;
      block.walk([&](KernelOp k) { used.insert(k.getSymName()); });
      Operation *ret = block.getTerminator();
      // Parameters' kernels first, the others may read them; among them,
      // each after the ones it reads (a view taken into an older group can
      // read a newer one).
      SmallVector<unsigned> order = f.parameterOrder();
      for (unsigned i = 0; i < f.groups.size(); ++i)
        if (!f.groups[i].param)
          order.push_back(i);
      for (unsigned i : order) {
        Group &g = f.groups[i];
        if (g.ops.empty()) // taken into a reader's kernel
          continue;
        std::string name = Fuser::kernelName(g);
        if (name.empty())
          name = "k" + std::to_string(i);
        std::string unique = name;
        for (int n = 1; used.contains(unique); ++n)
          unique = name + "." + std::to_string(n);
        used.insert(unique);
        KernelOp k = materialize(g, unique, ret);
        if (remarks && g.ops.size() > 1)
          k->emitRemark() << "kernel '" << unique << "' (" << k.getKind()
                          << "): " << g.ops.size() << " ops fused";
      }
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
        if (f.groupOf.count(&op))
          op.erase();
      numFused += f.made;
      numKernels += llvm::count_if(f.groups, [](const Group &g) {
        return !g.ops.empty();
      });
      for (const Fuser::Refusal &r : f.refused)
        refusals.push_back({r.op, r.kernel, r.reason});
      numRefused += f.refused.size();
    });
    module->setAttr(graph::kFusionsRefusedAttr,
                    sched::CompileStats::refusalsAttr(&getContext(), refusals));
  }
};
} // namespace

std::unique_ptr<Pass> dfa::createGraphFusePass(PassTarget target,
                                    const GraphFusePassOptions &options) {
  return makeTargetedPass<GraphFusePass>(std::move(target), options);
}
