//===- SchedLowering.h - state of the graph-to-sched lowering ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Conversion/GraphToSched. The lowering of kernels to a
/// sched.program, split over GraphToSched.cpp (placement decisions, the
/// pass, stats),
/// SchedEmit.cpp (memory, time, DMAs, kernels) and SchedChunk.cpp (kernels
/// run as chunks through the scratchpad).
///
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_GRAPHTOSCHED_SCHEDLOWERING_H
#define LIB_CONVERSION_GRAPHTOSCHED_SCHEDLOWERING_H

#include "Chunk.h"
#include "SchedPlan.h"
#include "dfa/Transforms/TargetModel.h"

#include "dfa/Target/Cost.h"
#include "dfa/Transforms/Faults.h"

#include "dialects/Graph/GraphOps.h"
#include "dialects/Sched/CompileStats.h"
#include "dialects/Sched/SchedOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

namespace dfa::lowering {

using namespace mlir;
using namespace dfa::graph;
using dfa::target::Target;

struct ScheduleOptions {
  /// Emit a remark for each placement decision.
  bool remarks = false;
  /// Under chip partition, the share of Target::chipWeightBudget a chip
  /// is filled to with weights (less when the activations did not fit).
  double weightShare = 1.0;
  /// Under chip partition, whether a kernel whose weights an earlier chip
  /// holds runs there (Lowering::planKernels); a last try places every
  /// kernel on the chip the partition is at.
  bool backToWeights = true;
  /// Set when a kernel went back to its weights' chip (else a try without
  /// going back would place the same).
  bool *wentBack = nullptr;
  /// A first run that records its arenas' blocks and lifetimes here, with
  /// no capacity, and leaves no program; a second that places the blocks
  /// at the offsets planned from that (planOffsets).
  ArenaLogs *record = nullptr;
  const ArenaPlans *plan = nullptr;
  /// A fault to plant, one of knownFaults() (parseFault's syntax).
  std::string inject;
};

enum : int64_t { kLoadEngine = 0, kStoreEngine = 1, kLinkEngine = 2 };
/// Under chip partition (the LPU), a chip's units are its functional
/// slices: MXM planes 0-3, VXM 4, SXM 5.
enum : int64_t { kVXM = 4, kSXM = 5, kLpuUnits = 6 };

/// Where a graph value lives.
struct Home {
  Value buffer;
  Value token;                   // the op that wrote it (null: resident)
  SmallVector<Value, 4> readers; // ops that read it
  int arena = -1;                // -1: not planned (a program input)
  int64_t offset = 0;
  int64_t chip = 0;
  int64_t unitBegin = 0, unitEnd = 0;
  bool perUnit = false; // in a per-unit memory, over [unitBegin, unitEnd)
};

struct KernelPlan {
  int64_t chip = 0, unitBegin = 0, unitEnd = 1;
};

struct Lowering {
  ModuleOp module;
  const Target &t;
  ScheduleOptions opts;
  bool isStatic;
  const target::MemoryLevel *outer = nullptr, *scratch = nullptr;
  const target::MemoryLevel *home = nullptr; // where activations live
  bool staging = false, weightStreaming = false;
  int64_t chips = 1;

  sched::ProgramOp program;
  OpBuilder b;
  Block *body = nullptr;
  Operation *weightsEnd = nullptr; // weights are placed before this op

  struct ArenaKey {
    std::string level;
    int64_t chip;
    bool operator<(const ArenaKey &o) const {
      return std::tie(level, chip) < std::tie(o.level, o.chip);
    }
  };
  std::map<ArenaKey, int> arenaIndex;
  std::vector<std::pair<ArenaKey, Arena>> arenas;
  /// What each live block holds, by (arena, offset, first unit): the
  /// "does not fit" error names the largest ones.
  struct LiveBlock {
    Location loc;
    std::string what;
    Type type;
    int64_t bytes, unitEnd;
  };
  std::map<std::tuple<int, int64_t, int64_t>, LiveBlock> liveBlocks;
  DenseMap<Value, Home> homes;
  /// Chip partition: a weight or constant read on chips other than its
  /// first reader's has a copy on each, placed at load (a tied embedding
  /// and LM head), not copied over the links every step.
  DenseMap<std::pair<Value, int64_t>, Home> residentOnChip;
  /// Chip partition: an activation copied over the links to a chip stays
  /// there for the later kernels on that chip that read it (copied once a
  /// chip, as a placement compiler routes it), freed after the last one
  /// (lastReaderOnChip: that kernel's index).
  DenseMap<std::pair<Value, int64_t>, Home> copiedToChip;
  DenseMap<std::pair<Value, int64_t>, int64_t> lastReaderOnChip;
  /// Chip partition: an activation that no kernel on its own chip reads,
  /// and kernels on one other chip do, goes there as it is made (the plan
  /// of its first reader there) where the next kernel on its chip, before
  /// that reader, reads a weight its maker reads: its chip keeps it no
  /// longer than the copy takes (the row pieces of a product beside a
  /// large weight each leave it, where held until their joining kernel
  /// ran they filled the chip).
  /// The copy is that reader's, as it was when the reader made it.
  DenseMap<Value, std::pair<KernelPlan, StringAttr>> sentAhead;
  int64_t emitting = -1; // the index of the kernel being emitted
  /// The home a kernel planned as `p` reads `v` from: its chip's copy of
  /// a resident, else homes[v].
  Home &homeFor(Value v, const KernelPlan &p);
  DenseMap<Value, int64_t> endOf;                     // token -> end cycle
  std::map<int64_t, Timeline> unitsBusy;                        // per chip
  std::map<std::pair<int64_t, int64_t>, Intervals> enginesBusy; // chip, engine
  int64_t makespan = 0;

  /// What the program records as its `stats` (filled as it is emitted,
  /// completed by finishStats).
  sched::CompileStats stats;
  /// The kernel whose copies are being emitted (stamped on each DMA).
  StringAttr currentKernel;

  /// Program order of the ops made in `body`: the prologue (weights,
  /// placed before `weightsEnd`) first, then the rest as appended. Kept by
  /// a builder listener because MLIR's isBeforeInBlock renumbers the whole
  /// block whenever appends left ops unnumbered: quadratic over a program
  /// of 10^5 ops.
  struct Sequencer : OpBuilder::Listener {
    Lowering &l;
    int64_t next = 0;
    DenseMap<Operation *, std::pair<int, int64_t>> position;
    explicit Sequencer(Lowering &l) : l(l) {}
    void notifyOperationInserted(Operation *op,
                                 OpBuilder::InsertPoint) override {
      if (op->getBlock() != l.body)
        return;
      bool prologue = l.weightsEnd && op->getNextNode() == l.weightsEnd;
      position[op] = {prologue ? 0 : 1, next++};
    }
  } sequencer{*this};

  Lowering(ModuleOp m, const Target &t, ScheduleOptions o)
      : module(m), t(t), opts(o), isStatic(t.caps.staticPlan),
        b(m.getContext()) {
    b.setListener(&sequencer);
    (void)parseFault(opts.inject, fault); // checked by the caller
  }

  //===--------------------------------------------------------------------===//
  // Memory
  //===--------------------------------------------------------------------===//

  int64_t alignment() const { return t.bufferAlignment(); }

  /// How graph-layout stores `v` (run() checks that every value the
  /// kernels touch has its layout).
  TensorLayout layoutOf(Value v) const {
    return layoutAttrOf(v).apply(cast<ShapedType>(v.getType()));
  }
  /// The same layout applied to a chunk of `v` of type `chunk`.
  TensorLayout layoutOf(Value v, RankedTensorType chunk) const {
    return layoutAttrOf(v).apply(chunk);
  }

  Arena &arena(int idx) { return arenas[idx].second; }

  int arenaFor(const target::MemoryLevel &level, int64_t chip);

  /// Bytes of `v` per unit when split over `units` in the target's layout.
  int64_t bytesPerUnit(Value v, int64_t units) {
    return ceilDiv(layoutOf(v).bytes, std::max<int64_t>(1, units));
  }

  /// Places a buffer for `v` in `level`; fails with a diagnostic.
  FailureOr<Home> place(Location loc, const target::MemoryLevel &level, Value v,
                        int64_t chip, int64_t ub, int64_t ue,
                        SmallVectorImpl<Value> &deps,
                        StringRef what = "this tensor");

  /// Places a buffer of `type`, stored as `layout`, in `level`.
  FailureOr<Home> placeType(Location loc, const target::MemoryLevel &level,
                            RankedTensorType type, const TensorLayout &layout,
                            int64_t chip, int64_t ub, int64_t ue,
                            SmallVectorImpl<Value> &deps,
                            StringRef what = "this tensor");

  void release(Home &h);

  //===--------------------------------------------------------------------===//
  // Time
  //===--------------------------------------------------------------------===//

  int64_t readyAt(ValueRange deps) {
    int64_t r = 0;
    for (Value d : deps)
      r = std::max(r, endOf.lookup(d));
    return r;
  }

  /// Streaming (sched `rows`, the layer pipeline): the rows of each
  /// streamed op's token, and the cycle its first slice is done.
  DenseMap<Value, int64_t> rowsOf, firstSliceOf;
  /// The rows the kernel being emitted streams (0: it does not).
  int64_t kernelRows = 0;
  /// The copy being emitted loads an activation from the outer memory into
  /// the kernel being lowered (it streams with the kernel's rows).
  bool streamFromOuter = false;
  /// Whether kernels form a layer pipeline: side by side on their own units
  /// (spatial placement, weights resident), each firing on its data.
  bool layerPipeline() const { return spatial() && !weightStreaming; }
  /// The rows kernel `k` streams in the layer pipeline (0: it does not),
  /// and in `whole` the inputs it needs whole before it starts. A kernel
  /// streams when each activation's stream dim (the rows it arrives in)
  /// can be followed through its body to its results: pointwise ops,
  /// products whose right operand is resident, reductions and
  /// normalizations along the last dim, splits of a row, and transposes
  /// and reshapes that keep the stream dim a dim of its own (an attention
  /// head split). A product whose right operand is streamed along the
  /// contracted dim or the columns (attention's q kT and p v) needs that
  /// operand whole: it streams out the left operand's rows once the right
  /// one has arrived; unless a constant causal mask (graph::isCausalMask)
  /// then keeps only the columns up to each row (see `Columns`), when row i
  /// needs the keys' and values' rows up to i and they stream in with the
  /// queries. Its results' stream dims are recorded
  /// (`streamDims`) for the kernels that read them. The rows are those its
  /// activations arrive in (all dims but the last of a graph input, the
  /// producer's rows for a kernel's result), which reshapes and transposes
  /// keep: heads split off a token's row arrive with it. An input of one
  /// row beside streamed ones is needed whole.
  int64_t streamRowsOf(KernelOp k, llvm::SmallBitVector &whole);
  /// How a streamed value's last dim (its columns) relates to its rows in
  /// causal attention. `Pending`: each column comes from another operand's
  /// rows (q kT: a key a column), so a row needs all of them. A causal mask
  /// makes the columns past each row `Masked` scores, which softmax turns
  /// into `Zeros`: row i of either needs only those operands' rows <= i,
  /// and so does p v for a p of `Zeros`.
  enum class Columns { None, Pending, Masked, Zeros };
  /// A streamed kernel result: its stream dim, the rows it arrives in, and
  /// its columns' causal state (a kernel boundary inside a softmax).
  struct StreamedResult {
    int64_t dim = -1;
    int64_t rows = 0;
    Columns columns = Columns::None;
  };
  DenseMap<Value, StreamedResult> streamDims;
  /// graph::isCausalMask of each constant mask (and negation) read so far.
  DenseMap<std::pair<Attribute, int>, bool> causalMasks;
  /// The copy being emitted carries an input its kernel needs whole: it
  /// does not stream into it.
  bool wholeOperand = false;
  /// The part of the operand being copied that its kernel reads
  /// (graph::readFraction: the experts a grouped product's rows reach);
  /// the copy moves that many of its bytes.
  double operandPart = 1;
  /// When `consumer`, streaming `rows` (0: does not), may start after
  /// `deps`, and the earliest cycle it may end, taking `cycles` from its
  /// start: it streams only from the deps that feed it (sched::feeds).
  std::pair<int64_t, int64_t> streamWindow(ValueRange deps, int64_t rows,
                                           int64_t cycles, Operation *consumer);
  /// Records the timing of a streamed op's token.
  void recordStream(Value token, int64_t rows, int64_t start, int64_t cycles);

  /// Times `op` taking `seconds`; with `hostLink`, it streams a result to
  /// the host over its chip's one host link, which it holds meanwhile (a
  /// second such kernel on the chip waits for it: hostLinkFree).
  void timeCompute(sched::ComputeOp op, double seconds, bool hostLink = false);
  DenseMap<int64_t, int64_t> hostLinkFree; // chip -> cycle

  /// A copy of all of `v` from `src` to `dst`.
  Value dma(Location loc, Value v, Value src, Value dst, ArrayRef<Value> deps,
            int64_t engine, int64_t chip);

  /// The fault `opts.inject` names, and whether it is in the program yet
  /// (the faults other than tail-drop and accum-f16 are planted once).
  FaultSpec fault;
  bool planted = false;
  /// drop-dep: the first op with dependencies loses them. True if planted.
  bool plantDependencyFault(SmallVectorImpl<Value> &deps);
  /// nan@NODE, ulp1, swap-strides, in a compute body just built.
  void plantBodyFault(Block &body);

  /// Plants the fault `opts.inject` names, if any, in a copy's `sizes`.
  void plantFaults(RankedTensorType type, const TensorLayout &layout,
                   SmallVectorImpl<int64_t> &sizes);

  /// A copy of the region `sizes` at `srcOffsets` of `src` to `dstOffsets`
  /// of `dst`, moving `bytes` in the target's layout, timed on the path
  /// between the two buffers (target::transferPath, as the simulator).
  Value dmaRegion(Location loc, Value src, Value dst,
                  ArrayRef<int64_t> srcOffsets, ArrayRef<int64_t> dstOffsets,
                  ArrayRef<int64_t> sizes, int64_t bytes, ArrayRef<Value> deps,
                  int64_t engine, int64_t chip);

  //===--------------------------------------------------------------------===//
  // Placement decided before emission
  //===--------------------------------------------------------------------===//

  static bool isResident(Value v) {
    Operation *def = v.getDefiningOp();
    return isa_and_nonnull<WeightOp, ConstantOp>(def);
  }

  /// Bytes of the weights a kernel reads first (kept on its chip for the
  /// whole program); `graphBytes`: the graph inputs it reads first and the
  /// graph results it makes, which stay there too.
  int64_t residentBytesOf(KernelOp k, llvm::DenseSet<Value> &seen,
                          int64_t &graphBytes);

  /// The chip planKernels fills: its kernels from `first`, the weights
  /// placed before each and each one's working set, and its weights.
  struct ChipFill {
    size_t first = 0;
    SmallVector<double> usedBefore, act;
    double used = 0;
  };
  /// Where a chip that fills at kernel `full` ends (GraphToSched.cpp).
  size_t bestCut(ArrayRef<KernelOp> kernels,
                 const DenseMap<Operation *, size_t> &order,
                 const ChipFill &fill, size_t full, double need, double act,
                 double packed, double cap);
  /// Units and chip of every kernel; fails when the weights fit no chip.
  LogicalResult planKernels(ArrayRef<KernelOp> kernels,
                            DenseMap<Operation *, KernelPlan> &plans);

  //===--------------------------------------------------------------------===//
  // Emission
  //===--------------------------------------------------------------------===//

  /// Places a weight or constant where its first consumer runs (and, in a
  /// chip partition, on each other chip that reads it: residentOnChip).
  LogicalResult placeResident(Value v, const KernelPlan &p);
  FailureOr<Home> placeResidentHome(Value v, const KernelPlan &p);

  /// Where a kernel planned as `p` needs a copy of the value at `h` (the
  /// scratchpad when `stage`, its rectangle or its chip), with the engine
  /// that moves it; null when it reads the buffer where it is.
  const target::MemoryLevel *copyTarget(const Home &h, const KernelPlan &p,
                                        bool stage, int64_t &engine) const;

  /// The KV-cache appends of kernel `k` that run in place, as (input,
  /// output) index pairs (sched.compute's `in_place`): an output that is a
  /// graph result made by a `graph.concat` whose first operand is a graph
  /// input that nothing else reads, held where the kernel can write it
  /// without a copy. The result then grows the input's buffer: a serving
  /// runtime allocates the cache once and writes each step's keys and
  /// values after the ones it holds.
  SmallVector<int64_t> inPlacePairs(KernelOp k, const KernelPlan &p);
  /// Whether kernel `k`'s output `o` is written to the host's memory
  /// (Target::hostLevel): on a device with no DRAM, a graph result that
  /// does not fit a chip beside its kernel's operands (its stored bytes and
  /// theirs, weights included, pass the SRAM: a long prompt's logits beside
  /// the LM head) and that no kernel reads, unless it is a KV cache grown
  /// by an append (cacheAppends: the runtime keeps the cache on the device
  /// for the next step). The chip partition does not count it on the chip,
  /// and the kernel streams it over its chip's host link as it makes it. A
  /// result that fits stays on the chip, as one stays in a GPU's HBM for
  /// the caller.
  bool leavesForHost(KernelOp k, int64_t o) const;
  /// Whether output `o` of `k`, a graph result joined from parts other
  /// kernels make from weights of their own, each past half a chip's
  /// weight budget (the pieces of a product cut across chips: an LM head;
  /// decided before the partition, so only parts no two of which share a
  /// chip count), reaches the host sooner from each part's chip than
  /// gathered on one chip over its link (a 128,256-wide f16 LM head at batch 64 on
  /// groq-tsp: 1.23 ms gathered, 144 us to the host; a small classifier's
  /// parts stay gathered): then it leaves for the host as a result larger
  /// than a chip does.
  bool partsFasterToHost(KernelOp k, int64_t o) const;
  /// The input of `k` that the concat operand `in` of its body reads,
  /// where another kernel (not a collective) makes it for this concat
  /// alone: a piece that can be written where the result is; else null.
  Value pieceOperand(KernelOp k, Value in) const;
  /// A kernel output written straight into a region of a graph result
  /// that leaves for the host (findAssemblies): one piece of the result's
  /// concatenation (a column block of an LM head split across chips),
  /// never a buffer of its own. `offsets`: where it lands, one per dim.
  struct Piece {
    Value result;
    SmallVector<int64_t> offsets;
    /// The piece's shape at the result's rank (the kernel reshapes what
    /// it makes to it: only dims of size 1 differ).
    RankedTensorType region;
  };
  /// Kernel `k`'s output `o` as a concatenation: the `graph.concat` it
  /// yields, through `views` (reshapes that only add or drop dims of size
  /// 1, each read by the next alone; the last yielded), and the output dim
  /// its axis is.
  struct ConcatResult {
    ConcatOp cat;
    SmallVector<ReshapeOp> views;
    int64_t axis = 0;
  };
  std::optional<ConcatResult> concatResult(KernelOp k, int64_t o) const;
  /// The offsets and shape, in output `o` of `k`, of operands [from, to)
  /// of its concatenation `c`.
  std::pair<SmallVector<int64_t>, RankedTensorType>
  regionOf(KernelOp k, int64_t o, const ConcatResult &c, size_t from,
           size_t to) const;
  DenseMap<Value, Piece> pieces;
  /// Finds the pieces: a graph result that leaves for the host
  /// (leavesForHost) and that its kernel yields as a `graph.concat` has its
  /// operands assembled where it lives, each written by the kernel that
  /// makes it over its own chip's host link (a shard's product beside its
  /// weights fits where the gathered result would not). An operand is
  /// such a piece when it arrives whole from another kernel and nothing
  /// else reads it; the concat's other operands, one contiguous run, are
  /// what its own kernel writes. The chip partition counts no piece on a
  /// chip, and the concat's kernel reads none.
  void findAssemblies(ArrayRef<KernelOp> kernels);
  /// The region of `k`'s output `o` that its concat's own operands (those
  /// not assembled pieces) are; nullopt where the output is no such
  /// concat.
  std::optional<std::pair<SmallVector<int64_t>, RankedTensorType>>
  ownRegion(KernelOp k, int64_t o) const;
  /// Whether input `i` of `k` is a piece written into one of `k`'s outputs
  /// where it lives: `k` does not read it.
  bool assembledInput(KernelOp k, unsigned i) const;
  /// The same for `v`, a value of `k`'s body: one of its block arguments.
  bool assembledOperand(KernelOp k, Value v) const;
  /// A result being assembled: its buffer (placed by its first writer) and
  /// the ops that wrote a region of it so far.
  struct Assembly {
    Home home;
    SmallVector<Value> writers;
  };
  DenseMap<Value, Assembly> assemblies;
  /// The writer of `a` that ends last (the first such in program order):
  /// the result's token. Nothing in the program reads such a result (it
  /// leaves for the host), so no barrier joins the writers.
  Value lastWriter(const Assembly &a) {
    Value last;
    for (Value w : a.writers)
      if (!last || endOf.lookup(w) > endOf.lookup(last))
        last = w;
    return last;
  }

  /// Where kernel `k`'s output `o` ends up once made: the host's memory
  /// (leavesForHost), else the outer memory.
  const target::MemoryLevel &resultLevel(KernelOp k, int64_t o) const {
    return leavesForHost(k, o) ? *t.hostLevel() : *outer;
  }

  /// The input whose memory kernel `k`'s one output takes, writing over it
  /// (the buffer sharing of XLA's buffer assignment, Inductor's in-place
  /// buffers, a statically allocated SRAM's): a pointwise or row-wise
  /// kernel (each row of the output computed from the same row of the
  /// input alone: splitKernel along every dim but the minor one) is its
  /// only reader, and the two are stored alike. None for any other.
  std::optional<unsigned> overwrittenInput(KernelOp k);

  /// The buffer a kernel reads `v` from, copying it where the kernel needs
  /// it; `deps` gets what the read waits for.
  FailureOr<Value> operand(Location loc, Value v, const KernelPlan &p,
                           SmallVectorImpl<Value> &deps,
                           SmallVectorImpl<std::pair<Home, Value>> &temps,
                           bool stage);

  /// A copy of `v` from its buffer `from` into a new buffer in `level`, by
  /// a DMA on `engine` that waits for `from`'s writer and for the bytes it
  /// reuses; the copy's token is the DMA.
  FailureOr<Home> copyOf(Location loc, Value v, Home &from,
                         const target::MemoryLevel &level, const KernelPlan &p,
                         int64_t engine);

  /// Does the kernel's working set fit half of the scratchpad per unit?
  /// (The caches of `inPlace`, pairs as inPlacePairs gives, stay out.)
  bool fitsStaged(KernelOp k, const KernelPlan &p,
                  ArrayRef<int64_t> inPlace = {});

  /// Deterministic: `deps` in program order, each once.
  void sortDeps(SmallVectorImpl<Value> &deps);

  /// The compute op of kernel `k` over `ins` and `outs`, its body a copy of
  /// the kernel's; with `split`, on a chunk of `extent` along the split.
  sched::ComputeOp buildCompute(KernelOp k, const KernelPlan &p, ValueRange ins,
                                ValueRange outs, SmallVectorImpl<Value> &deps,
                                const KernelSplit *split = nullptr,
                                int64_t extent = 0);

  /// Start and cycles of `compute` (all of `k`, or `fraction` of it for a
  /// chunk) reading from `src`.
  void timeKernel(KernelOp k, const KernelPlan &p, sched::ComputeOp compute,
                  const target::MemoryLevel &src, double fraction = 1.0);

  /// The cost model's work of kernel `k` computing `body` (the kernel's own
  /// block, or a compute op's on a chunk: `fraction` of the FLOPs) on
  /// `bytes` read and written in `src`.
  target::Work workOf(KernelOp k, const KernelPlan &p, Block &body,
                      double bytes, const target::MemoryLevel &src,
                      double fraction = 1.0);

  /// Frees what no kernel after `index` reads.
  void releaseDead(KernelOp k, const DenseMap<Value, int64_t> &lastUse,
                   int64_t index);

  /// A kernel run as chunks along one dim of its output (SchedChunk.cpp).
  struct ChunkChoice {
    KernelSplit split;
    int64_t extent = 0, count = 0;
    /// The split is of a matrix kernel's output columns.
    bool columns = false;
  };
  /// The split whose replicated operands plus two chunks in flight fit the
  /// scratchpad per unit, if any: the fewest chunks, or, where the compiler
  /// double-buffers (`compiler.double_buffering`), the count the pipeline
  /// runs fastest in (`pipelineSeconds`); for a kernel that `fits` whole,
  /// only when that beats running it unchunked.
  std::optional<ChunkChoice> chooseChunks(KernelOp k, const KernelPlan &p,
                                          bool fits = false);
  LogicalResult emitChunked(KernelOp k, const KernelPlan &p,
                            const ChunkChoice &c,
                            const DenseMap<Value, int64_t> &lastUse,
                            int64_t index);

  LogicalResult emitKernel(KernelOp k, const KernelPlan &p,
                           const DenseMap<Value, int64_t> &lastUse,
                           int64_t index);


  bool spatial() const {
    return t.caps.placement == target::Placement::Spatial;
  }
  bool chipPartition() const {
    return t.caps.placement == target::Placement::ChipPartition;
  }

  Status run();

  void finishStats(ArrayRef<KernelOp> kernels);
};

} // namespace dfa::lowering

#endif // LIB_CONVERSION_GRAPHTOSCHED_SCHEDLOWERING_H
