//===- GraphToSched.cpp - kernels to a per-target schedule -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Lowers `main` (kernels that graph-fuse, graph-tile and graph-layout made)
// to a `sched.program`. Where each target keeps its tensors follows its
// compiler properties (`compiler` in the description, design §6):
//   placement shared      everything in the outer memory (HBM, DDR); with
//                         a dynamic plan (GPU, CPU) kernels run in stream
//                         order, no start cycles
//     + staging           (TPU, Spyre) each kernel stages its operands into
//                         the per-unit scratchpad (VMEM, LX per core) when
//                         they fit half of it (the other half takes the next
//                         kernel's prefetch: double buffering), else runs as
//                         chunks, else streams from the outer memory
//   placement spatial     (WSE) a layer pipeline: each kernel on its own PE
//                         rectangle, its weights in the rectangle's PE
//                         memory, activations sent over the fabric; under
//                         weight streaming, every kernel on the whole wafer
//                         in turn, its weights streamed from MemoryX
//   chip-partition        (LPU) everything in SRAM; MXM, VXM and SXM as
//                         units; kernels partitioned over chips by weight
//                         bytes when the weights exceed one chip, tensors
//                         crossing chips over C2C links
// Static targets get start cycles from a list scheduler over the token
// dependencies, the units each op uses and the DMA engines.
//
//===----------------------------------------------------------------------===//

#include "Chunk.h"
#include "SchedLowering.h"

#include "dfa/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

namespace dfa {
#define GEN_PASS_DEF_CONVERTGRAPHTOSCHEDPASS
#include "dfa/Conversion/Passes.h.inc"
} // namespace dfa

using namespace mlir;
using namespace dfa;
using namespace dfa::lowering;

/// The (input, output) pairs of `k` that are a KV-cache append by their
/// structure: output `o` is a graph result, yielded by a growth of the
/// kernel's input `i` (graph::cacheGrowth: a concat after it, or a
/// scatter of the new rows into it), a graph input that only the growth
/// reads. With `appendOnly`, nothing else in the kernel reads the grown
/// cache either (the kernel moves only the new rows).
static SmallVector<int64_t> cacheAppends(KernelOp k, bool appendOnly = false) {
  SmallVector<int64_t> pairs;
  Block &body = k.getBlock();
  auto yield = cast<YieldOp>(body.getTerminator());
  for (auto [o, r] : llvm::enumerate(k.getOutputs())) {
    if (llvm::none_of(r.getUsers(),
                      [](Operation *u) { return isa<func::ReturnOp>(u); }))
      continue;
    std::optional<graph::CacheGrowth> g = graph::cacheGrowth(yield.getValues()[o]);
    if (!g || g->cache.getOwner() != &body || !g->onlyGrowth)
      continue;
    BlockArgument arg = g->cache;
    Value in = k.getInputs()[arg.getArgNumber()];
    if (!isa<BlockArgument>(in) || !in.hasOneUse())
      continue;
    if (appendOnly && !g->writer->getResult(0).hasOneUse())
      continue;
    pairs.push_back(arg.getArgNumber());
    pairs.push_back(int64_t(o));
  }
  return pairs;
}

SmallVector<int64_t> Lowering::inPlacePairs(KernelOp k, const KernelPlan &p) {
  // Where kernels stage their operands, a kernel that reads the grown cache
  // beyond the append reads all of it: staged, as before, not in place
  // (it would otherwise be timed at the scratchpad's bandwidth).
  SmallVector<int64_t> pairs, all = cacheAppends(k, /*appendOnly=*/staging);
  for (size_t j = 0; j < all.size(); j += 2) {
    int64_t engine;
    if (copyTarget(homes[k.getInputs()[all[j]]], p, false, engine))
      continue; // the kernel reads a copy of it
    pairs.push_back(all[j]);
    pairs.push_back(all[j + 1]);
  }
  return pairs;
}

bool Lowering::leavesForHost(KernelOp k, int64_t o) const {
  // Activations in a chip-wide memory (an LPU's SRAM), sized against it.
  if (!t.hostLevel() || home->scope != "chip")
    return false;
  // One that fits a chip beside its kernel's operands stays in the chip's
  // memory, as a result stays in a GPU's HBM for the caller.
  Value r = k.getOutputs()[o];
  if (llvm::none_of(r.getUsers(), [](Operation *u) { return isa<func::ReturnOp>(u); }) ||
      llvm::any_of(r.getUsers(), [](Operation *u) { return isa<KernelOp>(u); }))
    return false;
  double need = double(layoutOf(r).bytes);
  llvm::SmallPtrSet<Value, 8> operands;
  for (Value v : k.getInputs())
    if (operands.insert(v).second)
      need += double(layoutOf(v).bytes);
  if (need <= home->capacityBytes.value && !partsFasterToHost(k, o))
    return false;
  SmallVector<int64_t> appends = cacheAppends(k);
  for (size_t j = 0; j < appends.size(); j += 2)
    if (appends[j + 1] == o)
      return false;
  return true;
}

/// The dims of `shape` other than those of size 1.
static SmallVector<int64_t> nonUnitDims(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> dims;
  for (int64_t d : shape)
    if (d != 1)
      dims.push_back(d);
  return dims;
}

Value Lowering::pieceOperand(KernelOp k, Value in) const {
  auto arg = dyn_cast<BlockArgument>(in);
  Value v = arg && arg.getOwner() == &k.getBlock() ? k.getInputs()[arg.getArgNumber()]
                                                   : Value();
  auto maker = v ? v.getDefiningOp<KernelOp>() : KernelOp();
  if (!maker || maker == k || !in.hasOneUse() || !v.hasOneUse() ||
      maker.getKindEnum() == KernelKind::Collective)
    return nullptr;
  return v;
}

bool Lowering::partsFasterToHost(KernelOp k, int64_t o) const {
  std::optional<ConcatResult> c = concatResult(k, o);
  std::optional<target::TransferPath> toHost = target::hostPath(t);
  if (!c || !toHost)
    return false;
  target::TransferPath link = target::transferPath(t, *home, 1, *home, 1, /*crossChip=*/true);
  // Gathered, the parts queue on the joining chip's link; to the host,
  // each goes from its own chip. The partition has not placed them yet:
  // the parts counted are those made from a weight of their own (one no
  // other part's kernel or `k` reads) that takes more than half a chip's
  // weight budget, so no two share a chip (a weight's pieces). Row pieces
  // beside one weight share its chip, and their results stay there (a
  // Gemm MLP's 16-row pieces on test-lpu-small 30.1 us, 35.0 when each
  // wrote its rows to the host); so do small heads joined into a result
  // (six [512, 512] f32 heads on groq-tsp, all on one chip: 5.9x slower
  // through the host). A part is a pieceOperand, as findAssemblies
  // writes only those where the result is.
  llvm::DenseMap<Value, int> readers;
  auto weightsOf = [](KernelOp maker) {
    SmallVector<Value> ws;
    for (Value w : maker.getInputs())
      if (w.getDefiningOp<WeightOp>() && !llvm::is_contained(ws, w))
        ws.push_back(w);
    return ws;
  };
  SmallVector<std::pair<Value, KernelOp>> parts;
  for (Value in : c->cat.getInputs()) {
    Value v = pieceOperand(k, in);
    if (!v)
      continue;
    auto maker = v.getDefiningOp<KernelOp>();
    parts.push_back({v, maker});
    for (Value w : weightsOf(maker))
      ++readers[w];
  }
  for (Value w : weightsOf(k))
    ++readers[w];
  double half = t.chipWeightBudget() / 2;
  double gather = 0, host = 0;
  for (auto [v, maker] : parts) {
    double own = 0;
    for (Value w : weightsOf(maker))
      if (readers[w] == 1)
        own += double(layoutOf(w).bytes);
    if (own <= half)
      continue;
    double bytes = double(layoutOf(v).bytes);
    gather += target::transferSeconds(t, link, bytes);
    host = std::max(host, target::transferSeconds(t, *toHost, bytes));
  }
  return gather > 0 && host < gather;
}

std::optional<Lowering::ConcatResult> Lowering::concatResult(KernelOp k,
                                                             int64_t o) const {
  Value y = cast<YieldOp>(k.getBlock().getTerminator()).getValues()[o];
  auto type = cast<RankedTensorType>(y.getType());
  if (!y.hasOneUse() || !type.hasStaticShape())
    return std::nullopt;
  ConcatResult c;
  Value v = y;
  while (auto view = v.getDefiningOp<ReshapeOp>()) {
    c.views.push_back(view);
    v = view.getInput();
    if (!v.hasOneUse())
      return std::nullopt;
  }
  c.cat = v.getDefiningOp<ConcatOp>();
  if (!c.cat)
    return std::nullopt;
  // Reshapes that only add or drop dims of size 1: the concat's axis is
  // the output dim at the same place among the dims larger than 1.
  auto catType = cast<RankedTensorType>(c.cat.getType());
  int64_t axis = int64_t(c.cat.getAxis());
  if (nonUnitDims(catType.getShape()) != nonUnitDims(type.getShape()) ||
      axis < 0 || axis >= catType.getRank() || catType.getDimSize(axis) == 1)
    return std::nullopt;
  int64_t nth = llvm::count_if(catType.getShape().take_front(axis),
                               [](int64_t d) { return d != 1; });
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.getDimSize(d) != 1 && nth-- == 0) {
      c.axis = d;
      return c;
    }
  return std::nullopt;
}

std::pair<SmallVector<int64_t>, RankedTensorType>
Lowering::regionOf(KernelOp k, int64_t o, const ConcatResult &c, size_t from,
                   size_t to) const {
  auto type = cast<RankedTensorType>(k.getOutputs()[o].getType());
  SmallVector<int64_t> offsets(type.getRank(), 0), shape(type.getShape());
  ConcatOp cat = c.cat;
  int64_t catAxis = int64_t(cat.getAxis());
  shape[c.axis] = 0;
  for (auto [j, in] : llvm::enumerate(cat.getInputs())) {
    int64_t size = cast<RankedTensorType>(in.getType()).getDimSize(catAxis);
    if (j < from)
      offsets[c.axis] += size;
    else if (j < to)
      shape[c.axis] += size;
  }
  return {offsets, type.clone(shape)};
}

void Lowering::findAssemblies(ArrayRef<KernelOp> kernels) {
  if (!t.hostLevel() || home->scope != "chip" || staging)
    return;
  for (KernelOp k : kernels) {
    for (int64_t o = 0, n = int64_t(k.getOutputs().size()); o < n; ++o) {
      std::optional<ConcatResult> c = concatResult(k, o);
      if (!c || !leavesForHost(k, o))
        continue;
      // The kernel's own operands (not pieces) must be one run: the region
      // its compute writes.
      SmallVector<std::pair<Value, size_t>> found;
      int64_t runs = 0;
      bool own = false;
      for (auto [j, in] : llvm::enumerate(c->cat.getInputs())) {
        Value v = pieceOperand(k, in);
        bool piece = bool(v);
        if (piece)
          found.push_back({v, j});
        else if (!own)
          ++runs;
        own = !piece;
      }
      // Nothing of its own to write: the kernel must be the concat alone.
      bool alone = runs == 0 && n == 1 && found.size() == k.getInputs().size();
      if (found.empty() || runs > 1 || (runs == 0 && !alone))
        continue;
      for (auto [v, j] : found) {
        auto [offsets, region] = regionOf(k, o, *c, j, j + 1);
        pieces[v] = Piece{k.getOutputs()[o], offsets, region};
      }
    }
  }
}

std::optional<std::pair<SmallVector<int64_t>, RankedTensorType>>
Lowering::ownRegion(KernelOp k, int64_t o) const {
  std::optional<ConcatResult> c = concatResult(k, o);
  if (!c)
    return std::nullopt;
  // findAssemblies made the own operands one run.
  size_t from = 0, to = 0;
  bool seen = false;
  for (auto [j, in] : llvm::enumerate(c->cat.getInputs())) {
    if (assembledOperand(k, in))
      continue;
    if (!seen)
      from = j;
    seen = true;
    to = j + 1;
  }
  if (!seen)
    return std::nullopt;
  return regionOf(k, o, *c, from, to);
}

bool Lowering::assembledOperand(KernelOp k, Value v) const {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && arg.getOwner() == &k.getBlock() &&
         assembledInput(k, arg.getArgNumber());
}

bool Lowering::assembledInput(KernelOp k, unsigned i) const {
  auto it = pieces.find(k.getInputs()[i]);
  return it != pieces.end() && llvm::is_contained(k.getOutputs(), it->second.result);
}

std::optional<unsigned> Lowering::overwrittenInput(KernelOp k) {
  KernelKind kind = k.getKindEnum();
  if ((kind != KernelKind::Pointwise && kind != KernelKind::Reduction) ||
      k.getOutputs().size() != 1)
    return std::nullopt;
  Value out = k.getOutputs()[0];
  auto type = cast<RankedTensorType>(out.getType());
  for (auto [i, v] : llvm::enumerate(k.getInputs())) {
    // Its one reader is this kernel, which a kernel (not the caller, not a
    // weight) wrote; a graph result stays where it was made.
    if (v.getType() != type || !v.hasOneUse() || !v.getDefiningOp<KernelOp>() ||
        layoutAttrOf(v) != layoutAttrOf(out))
      continue;
    bool rowLocal = true;
    for (int64_t d = 0; rowLocal && d + 1 < type.getRank(); ++d) {
      std::optional<KernelSplit> s = splitKernel(k, d);
      rowLocal = s && s->dim(k.getBlock().getArgument(i)) == d;
    }
    if (rowLocal)
      return unsigned(i);
  }
  return std::nullopt;
}

int64_t Lowering::residentBytesOf(KernelOp k, llvm::DenseSet<Value> &seen,
                                  int64_t &graphBytes) {
  int64_t n = 0;
  graphBytes = 0;
  for (Value v : k.getInputs()) {
    if (!seen.insert(v).second)
      continue;
    if (isResident(v))
      n += layoutOf(v).bytes;
    else if (isa<BlockArgument>(v)) // a graph input (a KV cache) lands here
      graphBytes += layoutOf(v).bytes;
  }
  // Graph results are never freed: they stay where they are made (unless
  // they leave for the host). A cache appended to is the cache (its
  // input) grown by this step's rows.
  SmallVector<int64_t> appends = cacheAppends(k);
  for (auto [o, v] : llvm::enumerate(k.getOutputs())) {
    if (llvm::none_of(v.getUsers(), [](Operation *u) { return isa<func::ReturnOp>(u); }) ||
        leavesForHost(k, int64_t(o)))
      continue;
    int64_t bytes = layoutOf(v).bytes;
    for (size_t j = 0; j < appends.size(); j += 2)
      if (appends[j + 1] == int64_t(o))
        bytes -= layoutOf(k.getInputs()[appends[j]]).bytes;
    graphBytes += std::max<int64_t>(0, bytes);
  }
  return n;
}

/// Where a chip that fills at kernel `full` ends: at `full`, or at an
/// earlier kernel of the chip where fewer bytes cross to the next one, as
/// a partitioner cuts a layer pipeline at its narrow activations (a Swin
/// block's residual, not its MLP's hidden layer four times wider). A cut
/// gives up weights of at most a tenth of the chip's weight budget, so the
/// chips stay nearly full (a chip that fills with activations, holding few
/// weights, may still move back past a layer's), and the kernels it moves
/// must fit the next chip together
/// with `full` (else they would sit on a chip of their own). The bytes a
/// cut sends are the activations made on the chip before it and read at
/// or after it.
size_t Lowering::bestCut(ArrayRef<KernelOp> kernels,
                         const DenseMap<Operation *, size_t> &order,
                         const ChipFill &fill, size_t full, double need,
                         double act, double packed, double cap) {
  auto crossing = [&](size_t cut) {
    double bytes = 0;
    for (size_t j = fill.first; j < cut; ++j)
      for (Value v : KernelOp(kernels[j]).getOutputs())
        if (!pieces.count(v) && llvm::any_of(v.getUsers(), [&](Operation *u) {
              auto it = order.find(u);
              return it != order.end() && it->second >= cut;
            }))
          bytes += double(layoutOf(v).bytes);
    return bytes;
  };
  size_t best = full;
  double bestBytes = crossing(full);
  double movedAct = act;
  for (size_t cut = full; cut-- > fill.first + 1;) {
    size_t at = cut - fill.first;
    double moved = fill.used - fill.usedBefore[at] + need;
    movedAct = std::max(movedAct, fill.act[at]);
    if (fill.usedBefore[at] < fill.used - 0.1 * packed || moved > packed ||
        moved + movedAct > cap)
      break;
    double bytes = crossing(cut);
    if (bytes < bestBytes) {
      best = cut;
      bestBytes = bytes;
    }
  }
  return best;
}

/// Units and chip of every kernel; fails when the weights fit no chip.
LogicalResult Lowering::planKernels(ArrayRef<KernelOp> kernels,
                                    DenseMap<Operation *, KernelPlan> &plans) {
  int64_t units = std::max<int64_t>(1, int64_t(t.units.value));
  if (chipPartition()) {
    double cap = home->capacityBytes.value;
    double budget = t.chipWeightBudget();
    // Kernels join a chip while its weights stay within this share of the
    // budget (less than all of it when a first try left the activations
    // no room); a kernel alone may use the whole budget.
    double packed = budget * opts.weightShare;
    int64_t chip = 0;
    // On the current chip: the weights (and graph inputs and results)
    // placed, and the largest working set of one of its kernels.
    double used = 0, working = 0;
    bool occupied = false; // the current chip has a kernel
    llvm::DenseSet<Value> seen;
    // The current chip's kernels from `first`, and the weights placed on
    // it before each: where a chip fills, its boundary may move back to
    // the cut that sends the fewest bytes to the next chip (bestCut).
    ChipFill fill;
    DenseMap<Operation *, size_t> order;
    for (auto [i, k] : llvm::enumerate(kernels))
      order[k] = i;
    // The activations a kernel reads and writes on the current chip. An
    // output written over its input takes no memory of its own, where the
    // input is made on this chip (one made on another arrives as a copy,
    // which emitKernel does not write over); nor does one that streams to
    // the host.
    auto workingSetOn = [&](KernelOp k, int64_t onChip) {
      double bytes = 0;
      for (auto [i, v] : llvm::enumerate(k.getInputs()))
        if (!isResident(v) && !assembledInput(k, unsigned(i)))
          bytes += double(layoutOf(v).bytes);
      std::optional<unsigned> over = overwrittenInput(k);
      if (over) {
        auto it = plans.find(k.getInputs()[*over].getDefiningOp());
        if (it == plans.end() || it->second.chip != onChip)
          over.reset();
      }
      if (!over)
        for (auto [o, v] : llvm::enumerate(k.getOutputs()))
          if (!leavesForHost(k, int64_t(o)) && !pieces.count(v))
            bytes += double(layoutOf(v).bytes);
      return bytes;
    };
    auto workingSet = [&](KernelOp k) { return workingSetOn(k, chip); };
    auto unitsOf = [&](KernelOp k, int64_t onChip) {
      KernelPlan p;
      p.chip = onChip;
      KernelKind kind = k.getKindEnum();
      if (isMatrixKind(kind)) {
        p.unitBegin = 0;
        p.unitEnd = std::clamp<int64_t>(int64_t(k.getMxmPlanes().value_or(1)), 1, kVXM);
      } else if (kind == KernelKind::Data || kind == KernelKind::Relayout) {
        p.unitBegin = kSXM;
        p.unitEnd = kSXM + 1;
      } else {
        p.unitBegin = kVXM;
        p.unitEnd = kVXM + 1;
      }
      return p;
    };
    // The chip each weight or constant was first placed on, and each
    // chip's weights and largest working set (the current one's are
    // `used` and `working`).
    DenseMap<Value, int64_t> residentChip;
    llvm::DenseSet<Operation *> wentBack;
    SmallVector<double> chipUsed, chipWorking;
    // The earlier chip that holds every weight `k` reads, where `k`
    // (a graph-shard piece of a chain cut into rows, a tied LM head) runs
    // beside them when its working set fits there and its weights
    // outweigh it: the smaller side moves, so the pieces of one layer
    // stream through the chips that hold its weights (a pipeline over
    // chips) instead of each piece placing them again, while a kernel
    // reading a small table (rotary angles) stays with its activations.
    auto earlierHome = [&](KernelOp k)
        -> std::optional<std::pair<int64_t, double>> {
      std::optional<int64_t> at;
      double weights = 0;
      bool resident = false;
      for (Value v : k.getInputs()) {
        if (isa<BlockArgument>(v))
          return std::nullopt;
        if (!isResident(v))
          continue;
        auto it = residentChip.find(v);
        if (it == residentChip.end() || it->second >= chip || (at && *at != it->second))
          return std::nullopt;
        at = it->second;
        resident = true;
        // (A constant, which the compiler may place on every chip that
        // reads it, such as a causal mask, does not draw its readers.)
        if (v.getDefiningOp<WeightOp>())
          weights += double(layoutOf(v).bytes);
      }
      // A kernel reading only what kernels that went back made (a piece's
      // activation after its product, an LM head's softmax) follows them.
      if (!resident)
        for (Value v : k.getInputs()) {
          auto it = plans.find(v.getDefiningOp());
          if (it == plans.end() || !wentBack.contains(v.getDefiningOp()) ||
              it->second.chip >= chip || (at && *at != it->second.chip))
            return std::nullopt;
          at = it->second.chip;
        }
      if (!at)
        return std::nullopt;
      // Its working set there: an input made on another chip arrives as a
      // copy, which its output does not overwrite.
      double act = workingSetOn(k, *at);
      if (resident && weights <= act)
        return std::nullopt;
      // A graph result it makes stays on that chip (a cache it appends to
      // is the partition's to place).
      if (!cacheAppends(k).empty())
        return std::nullopt;
      double results = 0;
      for (auto [o, v] : llvm::enumerate(k.getOutputs()))
        if (llvm::any_of(v.getUsers(), [](Operation *u) { return isa<func::ReturnOp>(u); }) &&
            !leavesForHost(k, int64_t(o)))
          results += double(layoutOf(v).bytes);
      if (chipUsed[*at] + results + std::max(chipWorking[*at], act) > cap)
        return std::nullopt;
      chipWorking[*at] = std::max(chipWorking[*at], act);
      return std::make_pair(*at, results);
    };
    for (size_t i = 0; i < kernels.size(); ++i) {
      KernelOp k = kernels[i];
      if (auto back = opts.backToWeights ? earlierHome(k) : std::nullopt) {
        auto [at, results] = *back;
        fill.usedBefore.push_back(used);
        fill.act.push_back(0);
        chipUsed[at] += results;
        plans[k] = unitsOf(k, at);
        wentBack.insert(k);
        if (opts.wentBack)
          *opts.wentBack = true;
        continue;
      }
      double act = workingSet(k);
      int64_t graphBytes = 0;
      double w = double(residentBytesOf(k, seen, graphBytes));
      if (w > budget)
        return k.emitError("does not fit: the weights of kernel '")
               << k.getSymName() << "' (" << int64_t(w)
               << " B) exceed the SRAM of one " << t.name << " chip ("
               << int64_t(budget) << " B usable of " << int64_t(cap) << " B)";
      // Graph inputs and results stay on the chip too; one larger than a
      // chip streams through it in chunks (and takes a chip of its own).
      double need = std::min(w + double(graphBytes), budget);
      // A chip is full when the weights pass the budget, or when they and
      // the largest working set pass its SRAM: the activations a kernel
      // reads and writes live beside the weights.
      if (occupied && (used + need > packed ||
                       used + need + std::max(working, act) > cap)) {
        fill.used = used;
        size_t cut = bestCut(kernels, order, fill, i, need, act, packed, cap);
        for (size_t j = cut; j < i; ++j) {
          plans.erase(kernels[j]);
          wentBack.erase(kernels[j]);
        }
        // (A weight first placed by a kernel moved to the next chip is
        // placed there.)
        for (auto it = residentChip.begin(); it != residentChip.end();) {
          auto next = std::next(it);
          if (it->second == chip && llvm::none_of(it->first.getUsers(), [&](Operation *u) {
                auto o = order.find(u);
                return o != order.end() && o->second < cut && plans.count(u);
              }))
            residentChip.erase(it);
          it = next;
        }
        chipUsed.push_back(used);
        chipWorking.push_back(working);
        ++chip;
        used = working = 0;
        fill = ChipFill();
        fill.first = i = cut;
        k = kernels[i];
        // A weight an earlier chip holds is placed again on this one when
        // a kernel here reads it (a tied embedding and LM head): counted
        // again.
        seen.clear();
        w = double(residentBytesOf(k, seen, graphBytes));
        need = std::min(w + double(graphBytes), budget);
        act = workingSet(k);
      }
      fill.usedBefore.push_back(used);
      fill.act.push_back(act);
      used += need;
      working = std::max(working, act);
      occupied = true;
      for (Value v : k.getInputs())
        if (isResident(v))
          residentChip.try_emplace(v, chip);
      plans[k] = unitsOf(k, chip);
    }
    chips = chip + 1;
    double chipsMax = t.limit("chips_max").value_or(1e9);
    if (double(chips) > chipsMax)
      return emitError(module.getLoc())
             << "does not fit: the weights need " << chips << " " << t.name
             << " chips; at most " << int64_t(chipsMax) << " connect";
    return success();
  }
  int64_t cursor = 0;
  for (KernelOp k : kernels) {
    KernelPlan p;
    int64_t used = std::clamp<int64_t>(int64_t(k.getUnits().value_or(1)), 1, units);
    if (spatial() && !weightStreaming) {
      // Layer pipeline: rectangles side by side; wrap around (and share
      // PEs in time) when the wafer is full.
      if (cursor + used > units)
        cursor = 0;
      p.unitBegin = cursor;
      p.unitEnd = cursor + used;
      cursor += used;
    } else {
      p.unitBegin = 0;
      p.unitEnd = used;
    }
    plans[k] = p;
  }
  return success();
}

Status Lowering::run() {
  auto func = module.lookupSymbol<func::FuncOp>("main");
  if (!func) {
    emitError(module.getLoc()) << "no function 'main' to schedule";
    return Status::InvalidModel;
  }
  outer = &t.outerLevel();
  scratch = t.scratchLevel();
  staging = t.caps.staging && scratch;
  weightStreaming = module->hasAttr(graph::kWeightStreamingAttr);
  home = &t.activationLevel();

  Block &fblock = func.getBody().front();
  SmallVector<KernelOp> kernels;
  for (Operation &op : fblock) {
    if (auto k = dyn_cast<KernelOp>(op)) {
      kernels.push_back(k);
      continue;
    }
    if (isa<func::ReturnOp, WeightOp, ConstantOp>(op))
      continue;
    op.emitOpError("is not in a kernel: run graph-fuse before scheduling");
    return Status::InvalidModel;
  }
  // Buffers are placed in the layouts graph-layout chose; none is derived
  // here again.
  for (KernelOp k : kernels) {
    auto missing = [&](ValueRange values, StringRef what) {
      for (auto [i, v] : llvm::enumerate(values))
        if (!layoutAttrOf(v)) {
          k.emitError("kernel '") << k.getSymName() << "': its " << what << " "
                                  << i << " has no layout: run graph-layout "
                                     "before scheduling";
          return true;
        }
      return false;
    };
    if (missing(k.getInputs(), "input") || missing(k.getOutputs(), "output"))
      return Status::InvalidModel;
  }
  findAssemblies(kernels);
  DenseMap<Operation *, KernelPlan> plans;
  if (failed(planKernels(kernels, plans)))
    return Status::DoesNotFit;

  // The program.
  Builder attrs(module.getContext());
  SmallVector<NamedAttribute> levels;
  for (const target::MemoryLevel &m : t.memory)
    levels.push_back(attrs.getNamedAttr(
        m.name, attrs.getI64IntegerAttr(int64_t(m.capacityBytes.value))));
  if (const target::MemoryLevel *host = t.hostLevel())
    levels.push_back(attrs.getNamedAttr(
        host->name, attrs.getI64IntegerAttr(int64_t(host->capacityBytes.value))));
  int64_t units = chipPartition() ? kLpuUnits : int64_t(t.units.value);
  auto targetAttr =
      sched::TargetAttr::get(module.getContext(), t.name, isStatic, units,
                             attrs.getDictionaryAttr(levels));
  b.setInsertionPoint(func);
  program =
      b.create<sched::ProgramOp>(func.getLoc(), func.getSymName(), targetAttr,
                                 IntegerAttr(), DenseI64ArrayAttr(),
                                 DictionaryAttr());
  body = new Block();
  program.getBody().push_back(body);
  b.setInsertionPointToEnd(body);
  weightsEnd = b.create<sched::BarrierOp>(
      func.getLoc(), sched::TokenType::get(b.getContext()), ValueRange{});
  // Under chip partition an input arrives on the chip of its first reader
  // (a layer's KV cache lives where the layer runs, and grows there),
  // where the partition counted it; other chips that read it copy it.
  DenseMap<Value, int64_t> firstReaderChip;
  if (chipPartition())
    for (KernelOp k : kernels)
      for (Value v : k.getInputs())
        if (isa<BlockArgument>(v))
          firstReaderChip.try_emplace(v, plans[k].chip);
  SmallVector<int64_t> inputChips;
  for (BlockArgument arg : fblock.getArguments()) {
    auto type = cast<RankedTensorType>(arg.getType());
    Value buf = body->addArgument(
        sched::BufferType::get(module.getContext(), outer->name, type),
        arg.getLoc());
    Home h;
    h.buffer = buf;
    h.chip = firstReaderChip.lookup(arg);
    inputChips.push_back(h.chip);
    homes[arg] = h;
  }
  if (llvm::any_of(inputChips, [](int64_t c) { return c != 0; }))
    program.setInputChipsAttr(b.getDenseI64ArrayAttr(inputChips));
  DenseMap<Value, int64_t> lastUse;
  for (auto [i, k] : llvm::enumerate(kernels))
    for (Value v : k.getInputs()) {
      lastUse[v] = i;
      if (chipPartition())
        lastReaderOnChip[{v, plans[k].chip}] = int64_t(i);
    }
  auto ret = cast<func::ReturnOp>(fblock.getTerminator());
  for (Value v : ret.getOperands())
    lastUse[v] = int64_t(kernels.size()); // never freed
  auto sharesWeight = [](KernelOp a, KernelOp b) {
    return llvm::any_of(a.getInputs(), [&](Value v) {
      return v.getDefiningOp<WeightOp>() && llvm::is_contained(b.getInputs(), v);
    });
  };
  // The index of the next kernel on each kernel's chip (none: the end).
  DenseMap<Operation *, int64_t> index, nextOnChip;
  if (chipPartition()) {
    std::map<int64_t, int64_t> next;
    for (int64_t i = int64_t(kernels.size()); i-- > 0;) {
      int64_t chip = plans[kernels[i]].chip;
      auto it = next.find(chip);
      nextOnChip[kernels[i]] = it == next.end() ? int64_t(kernels.size()) : it->second;
      next[chip] = i;
      index[kernels[i]] = i;
    }
  }
  if (chipPartition())
    for (KernelOp k : kernels)
      for (Value v : k.getOutputs()) {
        Operation *first = nullptr; // its first reader, in program order
        bool one = !v.use_empty();
        for (Operation *u : v.getUsers()) {
          auto it = plans.find(u);
          if (it == plans.end() || it->second.chip == plans[k].chip ||
              (first && plans[first].chip != it->second.chip)) {
            one = false;
            break;
          }
          if (!first || u->isBeforeInBlock(first))
            first = u;
        }
        // Only where the next kernel on its chip, before that reader, reads
        // a weight it reads too (the next row piece of a product beside
        // its weight). Sent ahead wherever its chip ran another kernel
        // first, a layer pipeline's activations all waited on their
        // readers' chips at once (the partials of a SwiGLU's gate and up
        // projections cut along K, on test-lpu-small: exit 9 where they
        // fitted), and their copies, planned first, took the links before
        // loads that were ready earlier (small decoders 2-8% slower).
        int64_t next = nextOnChip[k];
        if (one && next < index[first] && sharesWeight(k, kernels[next]))
          sentAhead[v] = {plans[first], cast<KernelOp>(first).getSymNameAttr()};
      }

  // Weights and constants are resident for the whole program: place them
  // all first, where their first reader runs.
  for (KernelOp k : kernels) {
    currentKernel = k.getSymNameAttr();
    for (Value v : k.getInputs())
      if (isResident(v) && failed(placeResident(v, plans[k]))) {
        program.erase();
        return Status::DoesNotFit;
      }
  }
  // A result no kernel computes (the graph folded it to a constant, or it
  // is a weight) is placed like any resident, where the outer memory is,
  // before the kernels' buffers: placed after them, it would take the
  // resident space as if nothing had been there.
  for (Value v : ret.getOperands())
    if (!homes.count(v) && isResident(v) &&
        failed(placeResident(v, KernelPlan()))) {
      program.erase();
      return Status::DoesNotFit;
    }
  for (auto [i, k] : llvm::enumerate(kernels)) {
    currentKernel = k.getSymNameAttr();
    if (failed(emitKernel(k, plans[k], lastUse, i))) {
      program.erase();
      return Status::DoesNotFit;
    }
  }
  currentKernel = {};
  // A recording leaves the lifetimes, not a program.
  if (opts.record) {
    program.erase();
    return Status::Ok;
  }
  // A fault planted once that found no place is a test that tests nothing.
  // (Faults of another pass, and those that change every copy or kernel,
  // are not planted here.)
  const Fault *known = faultNamed(fault.name);
  if (isHostLinkFault(fault.name))
    emitWarning(module.getLoc())
        << "--inject " << opts.inject
        << ": a fault of the host link, planted only where a graph that "
           "breaks runs in segments (this one is compiled whole)";
  else if (!planted && known && llvm::StringRef(known->pass) == "convert-graph-to-sched" &&
      fault.name != "tail-drop" && fault.name != "accum-f16")
    emitWarning(module.getLoc())
        << "--inject " << opts.inject << ": nothing to plant it in on "
        << t.name
        << (fault.name == "nan"
                ? " (no kernel computes '" + fault.node +
                      "'; cse merges a node identical to an earlier one "
                      "into it)"
                : std::string());
  SmallVector<Value> results;
  for (Value v : ret.getOperands())
    results.push_back(homes[v].buffer);
  b.create<sched::ReturnOp>(ret.getLoc(), results);
  if (weightsEnd->use_empty())
    weightsEnd->erase();

  if (chips > 1)
    program.setChipsAttr(b.getI64IntegerAttr(chips));
  finishStats(kernels);
  // The padding of what no kernel writes (weights, constants, the graph's
  // inputs) is the layout's too: a weight stored with a size-1 minor dim
  // in 320-element vectors takes 320 times its bytes.
  auto residentPad = [&](Value v) {
    if (layoutAttrOf(v)) {
      TensorLayout l = layoutOf(v);
      stats.padBytes += l.bytes - l.logicalBytes();
    }
  };
  for (BlockArgument arg : fblock.getArguments())
    if (isa<RankedTensorType>(arg.getType()))
      residentPad(arg);
  for (Operation &op : fblock)
    if (isa<WeightOp, ConstantOp>(op))
      residentPad(op.getResult(0));
  program->setAttr("stats", stats.toAttr(module.getContext()));
  func.erase();
  return Status::Ok;
}

void Lowering::finishStats(ArrayRef<KernelOp> kernels) {
  stats.kernels = int64_t(kernels.size());
  for (KernelOp k : kernels) {
    stats.padBytes += int64_t(k.getPadBytes().value_or(0));
    stats.padFlops += int64_t(k.getPadFlops().value_or(0));
    if (k.getKindEnum() == KernelKind::Relayout)
      ++stats.relayouts;
    for (Operation &op : k.getBlock().without_terminator())
      if (!isa<ConstantOp>(op))
        ++stats.ops;
  }
  stats.fusions = stats.ops - stats.kernels;
  stats.fusionsRefused = sched::CompileStats::refusalsFrom(
      module->getAttrOfType<ArrayAttr>(graph::kFusionsRefusedAttr));
  for (auto &[key, a] : arenas)
    stats.peakBytes[key.level] =
        std::max(stats.peakBytes[key.level], a.highWater());
  // GPU kernels manage their shared memory themselves: its peak is the
  // largest per-SM footprint a tile asked for.
  for (KernelOp k : kernels)
    if (int64_t smem = int64_t(k.getSmemBytes().value_or(0)))
      stats.peakBytes["SMEM"] = std::max(stats.peakBytes["SMEM"], smem);
  stats.chips = chips;
  stats.weightStreaming = weightStreaming;
  if (isStatic)
    stats.cycles = makespan;
}

namespace {
/// Where every retry failed: the full budget's first error gets, as notes,
/// the error of the retry that filled the chips least (and its notes) when
/// that one fails at another node. Packed full, a 120 M Llama's chip 0 runs out
/// beside seven layers' weights; spread out, its 196 MB logits (a graph
/// result, which stays where it is made) fit no chip at all: the second is
/// what the user has to change.
static void noteLeastFilled(std::vector<Diagnostic> &firstHeld,
                            std::vector<Diagnostic> &leastHeld, double share) {
  auto firstError = [](std::vector<Diagnostic> &ds) -> Diagnostic * {
    for (Diagnostic &d : ds)
      if (d.getSeverity() == DiagnosticSeverity::Error)
        return &d;
    return nullptr;
  };
  Diagnostic *full = firstError(firstHeld), *least = firstError(leastHeld);
  // The same node failing (on another chip) tells the user nothing new.
  if (!full || !least || full->getLocation() == least->getLocation())
    return;
  std::string what = least->str();
  llvm::StringRef rest(what);
  rest.consume_front("does not fit: ");
  full->attachNote(least->getLocation())
      << "spread over more chips (weights filled to " << int(share * 100)
      << "% of the budget), it does not fit here instead: " << rest;
  for (Diagnostic &n : least->getNotes())
    full->attachNote(n.getLocation()) << n.str();
}

struct ConvertGraphToSchedPass
    : dfa::impl::ConvertGraphToSchedPassBase<ConvertGraphToSchedPass>,
      TargetedPass {
  using ConvertGraphToSchedPassBase::ConvertGraphToSchedPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const target::Target *t = passTarget(module, targetName, targetDirs);
    if (!t)
      return signalPassFailure();
    ScheduleOptions options;
    options.remarks = remarks;
    options.inject = inject;
    FaultSpec fault;
    if (std::string err = parseFault(options.inject, fault); !err.empty()) {
      emitError(module.getLoc()) << err;
      given.fail(Status::Usage);
      return signalPassFailure();
    }
    // Under chip partition the weights fill each chip to a budget that
    // leaves room for the activations; where the activations live longer
    // than that room (a model's long-lived tensors), the lowering is run
    // again with the chips filled less, as a partitioner iterates. The
    // diagnostics of an attempt that is retried are held back; when every
    // attempt fails, the first one's (the full budget's) are the answer.
    // Each share is tried again, on any target, with the buffers placed by
    // an offline plan: the lowering places them first fit, as it goes, and
    // can leave the free bytes a tensor needs in two holes (a 120 M
    // Llama's 94 MB attention scores on an LPU chip with 136 MB free); a
    // first run records every buffer's lifetime, and the second places
    // them where planOffsets (largest first, best fit) says.
    bool partition = t->caps.placement == target::Placement::ChipPartition;
    static const double shares[] = {1.0, 0.8, 0.6, 0.4, 0.2, 0.1, 0.0};
    // Under chip partition each share is then tried again with every
    // kernel on the chip the partition is at (backToWeights off: no kernel
    // back beside its weights on an earlier chip, where the partition does
    // not count the activations that stay live), before the weights are
    // spread thinner; only where some try sent a kernel back (else it
    // would place the same).
    SmallVector<std::tuple<double, bool, bool>> attempts;
    for (double share : ArrayRef<double>(shares).take_front(partition ? std::size(shares) : 1))
      for (bool back : {true, false})
        for (bool planned : {false, true})
          if (partition || back)
            attempts.push_back({share, planned, back});
    Status s = Status::Ok, first = Status::Ok;
    std::vector<Diagnostic> firstHeld;
    // The diagnostics of the retry that filled the chips least and still
    // did not fit (and its share): where it fails, the model does not fit
    // however the weights are spread (a graph result larger than a chip),
    // which the full budget's error may not show.
    std::vector<Diagnostic> leastHeld;
    double leastShare = 1.0;
    // Whether any try sent a kernel back to its weights' chip: if none
    // did, the tries without going back would place the same.
    bool wentBack = false;
    auto runs = [&](size_t j) { return std::get<2>(attempts[j]) || wentBack; };
    for (size_t i = 0; i < attempts.size(); ++i) {
      if (!runs(i))
        continue;
      auto [share, planned, back] = attempts[i];
      std::vector<Diagnostic> held;
      {
        ScopedDiagnosticHandler hold(&getContext(), [&](Diagnostic &d) {
          held.push_back(std::move(d));
          return success();
        });
        options.weightShare = share;
        options.backToWeights = back;
        options.wentBack = &wentBack;
        ArenaLogs logs;
        ArenaPlans plans;
        s = Status::Ok;
        if (planned) {
          // The recording's own diagnostics are the next run's again.
          {
            ScopedDiagnosticHandler drop(&getContext(),
                                         [](Diagnostic &) { return success(); });
            options.record = &logs;
            s = Lowering(module, *t, options).run();
            options.record = nullptr;
          }
          // A recording that failed (not for memory: it has none) keeps
          // its status.
          for (auto &[key, log] : logs) {
            if (s != Status::Ok)
              break;
            std::optional<std::vector<int64_t>> p =
                planOffsets(log, log.capacity, log.align);
            if (!p)
              s = Status::DoesNotFit;
            else
              plans[key] = std::move(*p);
          }
          options.plan = &plans;
        }
        if (s == Status::Ok)
          s = Lowering(module, *t, options).run();
        options.plan = nullptr;
      }
      if (i == 0) {
        first = s;
        firstHeld = std::move(held);
        held.clear();
      }
      bool retry = s == Status::DoesNotFit &&
                   llvm::any_of(llvm::seq(i + 1, attempts.size()), runs);
      // (The notes come from the tries that go back to weights; one
      // without going back, at the same share, would only repeat them.)
      if (i > 0 && back && s == Status::DoesNotFit && !held.empty()) {
        leastHeld = std::move(held);
        leastShare = share;
      }
      if (retry)
        continue;
      if (s == Status::Ok || i == 0) {
        for (Diagnostic &d : i == 0 ? firstHeld : held)
          getContext().getDiagEngine().emit(std::move(d));
        if (i > 0 && remarks && share < 1.0)
          emitRemark(module.getLoc())
              << "chips filled with weights to " << int(share * 100)
              << "% of the " << int64_t(t->chipWeightBudget())
              << " B budget: at 100% the activations did not fit beside them";
        if (!back && remarks)
          emitRemark(module.getLoc())
              << "every kernel placed on the chip the partition was at: "
                 "back beside their weights on earlier chips, they did not "
                 "fit";
        if (planned && remarks)
          emitRemark(module.getLoc())
              << "buffers placed by an offline plan of their lifetimes: "
                 "first fit left no hole for one";
      } else {
        s = first;
        noteLeastFilled(firstHeld, leastHeld, leastShare);
        for (Diagnostic &d : firstHeld)
          getContext().getDiagEngine().emit(std::move(d));
      }
      break;
    }
    if (s != Status::Ok) {
      given.fail(s);
      signalPassFailure();
    }
  }
};
} // namespace

std::unique_ptr<Pass> dfa::createConvertGraphToSchedPass(PassTarget target,
                                    const ConvertGraphToSchedPassOptions &options) {
  return makeTargetedPass<ConvertGraphToSchedPass>(std::move(target), options);
}
