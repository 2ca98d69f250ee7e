//===- ConvertToSched.cpp - kernels to a per-target schedule ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Lowers `main` (kernels that graph-fuse, graph-tile and graph-layout made)
// to a `sched.program`. Where each target keeps its tensors (design §6):
//   gpu, cpu  everything in the outer memory (HBM, DDR); kernels in stream
//             order, no start cycles
//   tpu       tensors in HBM; each kernel stages its operands into VMEM
//             when they fit half of it (the other half takes the next
//             kernel's prefetch: double buffering), else streams from HBM
//   spyre     the same with LX per core (SPMD over the cores, per-core
//             sizes in whole sticks) and LPDDR5
//   wse       a layer pipeline: each kernel on its own PE rectangle, its
//             weights in the rectangle's PE memory, activations sent over
//             the fabric; under weight streaming, every kernel on the whole
//             wafer in turn, its weights streamed from MemoryX
//   lpu       everything in SRAM; MXM, VXM and SXM as units; kernels
//             partitioned over chips by weight bytes when the weights
//             exceed one chip, tensors crossing chips over C2C links
// Static targets get start cycles from a list scheduler over the token
// dependencies, the units each op uses and the DMA engines.
//
//===----------------------------------------------------------------------===//

#include "SchedPlan.h"
#include "TargetModel.h"

#include "dfa/Target/Cost.h"
#include "dfa/Transforms/Passes.h"
#include "dfa/Transforms/Schedule.h"

#include "dialects/Graph/GraphOps.h"
#include "dialects/Sched/SchedOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <map>

namespace dfa {
#define GEN_PASS_DEF_CONVERTGRAPHTOSCHEDPASS
#include "dfa/Transforms/Passes.h.inc"
} // namespace dfa

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using dfa::target::Target;

namespace {

enum : int64_t { kLoadEngine = 0, kStoreEngine = 1, kLinkEngine = 2 };
/// LPU functional units: MXM planes 0-3, VXM 4, SXM 5.
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
};

struct KernelPlan {
  int64_t chip = 0, unitBegin = 0, unitEnd = 1;
};

struct Lowering {
  ModuleOp module;
  const Target &t;
  ScheduleOptions opts;
  std::string family;
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
    int64_t chip, unitBegin, unitEnd;
    bool operator<(const ArenaKey &o) const {
      return std::tie(level, chip, unitBegin, unitEnd) <
             std::tie(o.level, o.chip, o.unitBegin, o.unitEnd);
    }
  };
  std::map<ArenaKey, int> arenaIndex;
  std::vector<std::pair<ArenaKey, Arena>> arenas;
  DenseMap<Value, Home> homes;
  DenseMap<Value, int64_t> endOf; // token -> end cycle
  std::map<int64_t, Timeline> unitsBusy, enginesBusy; // per chip
  int64_t makespan = 0;

  // Stats.
  int64_t numDmas = 0, dmaBytes = 0;
  SmallVector<Attribute> spills;

  Lowering(ModuleOp m, const Target &t, ScheduleOptions o)
      : module(m), t(t), opts(o), family(t.family), b(m.getContext()) {
    isStatic = family == "tpu" || family == "wse" || family == "lpu" ||
               family == "spyre";
  }

  //===--------------------------------------------------------------------===//
  // Memory
  //===--------------------------------------------------------------------===//

  int64_t alignment() const {
    if (auto s = t.layoutValue("stick_bytes"))
      return int64_t(*s);
    return int64_t(t.layoutValue("alignment_bytes").value_or(64));
  }

  Arena &arena(int idx) { return arenas[idx].second; }

  int arenaFor(const target::MemoryLevel &level, int64_t chip, int64_t ub,
               int64_t ue) {
    ArenaKey key{level.name, chip, level.scope == "unit" ? ub : 0,
                 level.scope == "unit" ? ue : 0};
    auto it = arenaIndex.find(key);
    if (it != arenaIndex.end())
      return it->second;
    int idx = arenas.size();
    arenas.push_back({key, Arena(int64_t(level.capacityBytes.value), alignment())});
    arenaIndex[key] = idx;
    return idx;
  }

  /// Bytes of `v` per unit when split over `units` in the target's layout.
  int64_t bytesPerUnit(Value v, int64_t units) {
    return ceilDiv(layoutOf(t, v).bytes, std::max<int64_t>(1, units));
  }

  /// Places a buffer for `v` in `level`; fails with a diagnostic.
  FailureOr<Home> place(Location loc, const target::MemoryLevel &level,
                        Value v, int64_t chip, int64_t ub, int64_t ue,
                        SmallVectorImpl<Value> &deps,
                        StringRef what = "this tensor") {
    auto type = cast<RankedTensorType>(v.getType());
    TensorLayout layout = layoutOf(t, v);
    bool perUnit = level.scope == "unit";
    int64_t units = perUnit ? ue - ub : 1;
    int64_t size = perUnit ? ceilDiv(layout.bytes, std::max<int64_t>(1, units))
                           : layout.bytes;
    int idx = arenaFor(level, chip, ub, ue);
    std::optional<int64_t> off = arena(idx).allocate(size, deps);
    if (!off) {
      emitError(loc) << "does not fit: " << level.name << " of " << t.name
                       << (chips > 1 ? " (chip " + std::to_string(chip) + ")" : "")
                       << " holds " << int64_t(level.capacityBytes.value)
                       << " B; " << what << " needs " << size << " B with "
                       << arena(idx).liveBytes() << " B already live";
      return failure();
    }
    Home h;
    h.arena = idx;
    h.offset = *off;
    h.chip = chip;
    h.unitBegin = ub;
    h.unitEnd = ue;
    auto bufType = sched::BufferType::get(b.getContext(), level.name, type);
    SmallVector<NamedAttribute> attrs = {
        b.getNamedAttr("offset", b.getI64IntegerAttr(*off)),
        b.getNamedAttr("size", b.getI64IntegerAttr(arena(idx).padded(size))),
        b.getNamedAttr("layout", b.getStringAttr(layout.name))};
    if (perUnit) {
      attrs.push_back(b.getNamedAttr("unit", b.getI64IntegerAttr(ub)));
      if (ue - ub > 1)
        attrs.push_back(b.getNamedAttr("unit_end", b.getI64IntegerAttr(ue)));
    }
    if (chips > 1)
      attrs.push_back(b.getNamedAttr("chip", b.getI64IntegerAttr(chip)));
    h.buffer = b.create<sched::AllocOp>(loc, TypeRange{bufType}, ValueRange{}, attrs)
                   .getBuffer();
    return h;
  }

  void release(Home &h) {
    if (h.arena < 0)
      return;
    SmallVector<Value> tokens(h.readers.begin(), h.readers.end());
    if (h.token)
      tokens.push_back(h.token);
    arena(h.arena).release(h.offset, tokens);
    h.arena = -1;
  }

  //===--------------------------------------------------------------------===//
  // Time
  //===--------------------------------------------------------------------===//

  int64_t readyAt(ValueRange deps) {
    int64_t r = 0;
    for (Value d : deps)
      r = std::max(r, endOf.lookup(d));
    return r;
  }

  void timeCompute(sched::ComputeOp op, double seconds) {
    if (!isStatic)
      return;
    int64_t chip = op.getChip() ? int64_t(*op.getChip()) : 0;
    int64_t ub = op.getUnitBegin(), ue = op.getUnitEnd();
    int64_t start = std::max(readyAt(op.getDeps()), unitsBusy[chip].freeAt(ub, ue));
    int64_t cycles = target::toCycles(t, seconds);
    op.setStartAttr(b.getI64IntegerAttr(start));
    op.setCyclesAttr(b.getI64IntegerAttr(cycles));
    unitsBusy[chip].occupy(ub, ue, start + cycles);
    endOf[op.getDone()] = start + cycles;
    makespan = std::max(makespan, start + cycles);
  }

  /// A copy of all of `v` from `src` to `dst`.
  Value dma(Location loc, Value v, Value src, Value dst, ArrayRef<Value> deps,
            int64_t engine, int64_t chip, double bandwidth, double latencyNs) {
    auto type = cast<sched::BufferType>(src.getType()).getTensor();
    SmallVector<int64_t> zeros(type.getRank(), 0);
    int64_t bytes = layoutOf(t, v).bytes;
    auto op = b.create<sched::DmaOp>(
        loc, sched::TokenType::get(b.getContext()), src, dst, deps, b.getDenseI64ArrayAttr(zeros),
        b.getDenseI64ArrayAttr(zeros), b.getDenseI64ArrayAttr(type.getShape()),
        b.getI64IntegerAttr(engine),
        chips > 1 ? b.getI64IntegerAttr(chip) : IntegerAttr(),
        b.getI64IntegerAttr(bytes), IntegerAttr(), IntegerAttr());
    ++numDmas;
    dmaBytes += bytes;
    if (isStatic) {
      int64_t start = std::max(readyAt(deps),
                               enginesBusy[chip].freeAt(engine, engine + 1));
      int64_t cycles = target::toCycles(
          t, target::transferSeconds(t, double(bytes), bandwidth, latencyNs));
      op.setStartAttr(b.getI64IntegerAttr(start));
      op.setCyclesAttr(b.getI64IntegerAttr(cycles));
      enginesBusy[chip].occupy(engine, engine + 1, start + cycles);
      endOf[op.getDone()] = start + cycles;
      makespan = std::max(makespan, start + cycles);
    }
    return op.getDone();
  }

  //===--------------------------------------------------------------------===//
  // Placement decided before emission
  //===--------------------------------------------------------------------===//

  static int64_t attrOr(Operation *op, StringRef name, int64_t dflt) {
    if (auto a = op->getAttrOfType<IntegerAttr>(name))
      return a.getInt();
    return dflt;
  }

  static bool isResident(Value v) {
    Operation *def = v.getDefiningOp();
    return isa_and_nonnull<WeightOp, ConstantOp>(def);
  }

  int64_t weightBytesOf(KernelOp k, llvm::DenseSet<Value> &seen) {
    int64_t n = 0;
    for (Value v : k.getInputs())
      if (isResident(v) && seen.insert(v).second)
        n += layoutOf(t, v).bytes;
    return n;
  }

  /// Units and chip of every kernel; fails when the weights fit no chip.
  LogicalResult planKernels(ArrayRef<KernelOp> kernels,
                            DenseMap<Operation *, KernelPlan> &plans) {
    int64_t units = std::max<int64_t>(1, int64_t(t.units.value));
    if (family == "lpu") {
      double cap = home->capacityBytes.value;
      // A tenth of each chip's SRAM stays free for activations.
      double budget = 0.9 * cap;
      int64_t chip = 0;
      double used = 0;
      llvm::DenseSet<Value> seen;
      for (KernelOp k : kernels) {
        double w = double(weightBytesOf(k, seen));
        if (w > budget)
          return k.emitError("does not fit: the weights of kernel '")
                 << k.getSymName() << "' (" << int64_t(w)
                 << " B) exceed the SRAM of one " << t.name << " chip ("
                 << int64_t(budget) << " B usable of " << int64_t(cap) << " B)";
        if (used + w > budget) {
          ++chip;
          used = 0;
        }
        used += w;
        KernelPlan p;
        p.chip = chip;
        StringRef kind = k.getKind();
        if (kind == "matmul" || kind == "conv" || kind == "attention") {
          p.unitBegin = 0;
          p.unitEnd = std::clamp<int64_t>(attrOr(k, "mxm_planes", 1), 1, kVXM);
        } else if (kind == "data" || kind == "relayout") {
          p.unitBegin = kSXM;
          p.unitEnd = kSXM + 1;
        } else {
          p.unitBegin = kVXM;
          p.unitEnd = kVXM + 1;
        }
        plans[k] = p;
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
      int64_t used = std::clamp<int64_t>(attrOr(k, "units", 1), 1, units);
      if (family == "wse" && !weightStreaming) {
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

  //===--------------------------------------------------------------------===//
  // Emission
  //===--------------------------------------------------------------------===//

  /// Places a weight or constant where its first consumer runs.
  LogicalResult placeResident(Value v, const KernelPlan &p) {
    if (homes.count(v))
      return success();
    const target::MemoryLevel &level = weightStreaming || !home ? *outer : *home;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(weightsEnd);
    SmallVector<Value> deps;
    std::string what = "a constant";
    if (auto w = v.getDefiningOp<WeightOp>())
      what = ("weight '" + w.getSymName() + "'").str();
    FailureOr<Home> h = place(v.getLoc(), level, v, p.chip, p.unitBegin,
                              p.unitEnd, deps, what);
    if (failed(h))
      return failure();
    auto alloc = cast<sched::AllocOp>(h->buffer.getDefiningOp());
    if (auto w = v.getDefiningOp<WeightOp>()) {
      auto op = b.create<sched::WeightOp>(
          w.getLoc(), alloc.getType(), w.getSymNameAttr(), w.getFileAttr(),
          w.getOffsetAttr(), w.getZstdBytesAttr(), alloc.getOffsetAttr(),
          alloc.getSizeAttr(), alloc.getUnitAttr(), alloc.getUnitEndAttr(),
          alloc.getChipAttr(), alloc.getLayoutAttr());
      alloc.replaceAllUsesWith(op.getBuffer());
      alloc.erase();
      h->buffer = op.getBuffer();
    } else {
      alloc.setInitAttr(cast<ElementsAttr>(v.getDefiningOp<ConstantOp>().getValue()));
    }
    h->token = Value();
    homes[v] = *h;
    return success();
  }

  /// The buffer a kernel reads `v` from, copying it where the kernel needs
  /// it; `deps` gets what the read waits for.
  FailureOr<Value> operand(Location loc, Value v, const KernelPlan &p,
                           SmallVectorImpl<Value> &deps,
                           SmallVectorImpl<std::pair<Home, Value>> &temps,
                           bool stage) {
    Home &h = homes[v];
    const target::MemoryLevel *want = nullptr;
    double bw = outer->bandwidthBytesPerS.value, lat = outer->latencyNs.value;
    int64_t engine = kLoadEngine;
    if (stage) {
      want = scratch;
    } else if (bool onWafer = cast<sched::BufferType>(h.buffer.getType())
                                  .getMemory() == home->name;
               family == "wse" && (!onWafer || h.unitBegin != p.unitBegin)) {
      // Over the fabric into this kernel's rectangle (or from MemoryX).
      want = home;
      if (t.onChip && onWafer) {
        bw = t.onChip->bandwidthBytesPerS.value;
        lat = t.onChip->latencyNs.value;
        engine = kLinkEngine;
      }
    } else if (family == "lpu" && h.chip != p.chip) {
      want = home;
      if (t.chipToChip) {
        bw = t.chipToChip->bandwidthBytesPerS.value;
        lat = t.chipToChip->latencyNs.value;
      }
      engine = kLinkEngine;
    }
    if (!want) {
      if (h.token)
        deps.push_back(h.token);
      return h.buffer;
    }
    SmallVector<Value> reuse;
    FailureOr<Home> copy = place(loc, *want, v, p.chip, p.unitBegin,
                                 p.unitEnd, reuse);
    if (failed(copy))
      return failure();
    SmallVector<Value> dmaDeps(reuse);
    if (h.token)
      dmaDeps.push_back(h.token);
    Value done = dma(loc, v, h.buffer, copy->buffer, dmaDeps, engine, p.chip, bw, lat);
    h.readers.push_back(done);
    copy->token = done;
    deps.push_back(done);
    temps.push_back({*copy, Value()});
    return copy->buffer;
  }

  /// Does the kernel's working set fit half of the scratchpad per unit?
  bool fitsStaged(KernelOp k, const KernelPlan &p) {
    if (!scratch)
      return false;
    int64_t units = p.unitEnd - p.unitBegin, total = 0;
    for (Value v : k.getInputs())
      total += bytesPerUnit(v, units);
    for (Value v : k.getOutputs())
      total += bytesPerUnit(v, units);
    return double(total) <= 0.5 * scratch->capacityBytes.value;
  }

  LogicalResult emitKernel(KernelOp k, const KernelPlan &p,
                           const DenseMap<Value, int64_t> &lastUse,
                           int64_t index) {
    Location loc = k.getLoc();
    bool stage = staging && fitsStaged(k, p);
    if (staging && !stage) {
      std::string reason = "working set exceeds half of " + scratch->name +
                           ": operands stream from " + outer->name;
      spills.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("kernel", k.getSymNameAttr()),
           b.getNamedAttr("reason", b.getStringAttr(reason))}));
      if (opts.remarks)
        emitRemark(loc) << "kernel '" << k.getSymName() << "': " << reason;
    }
    SmallVector<Value> deps, ins;
    SmallVector<std::pair<Home, Value>> temps;
    for (Value v : k.getInputs()) {
      FailureOr<Value> buf = operand(loc, v, p, deps, temps, stage);
      if (failed(buf))
        return failure();
      ins.push_back(*buf);
    }
    // Outputs: in the scratchpad when staged, else at home.
    const target::MemoryLevel &outLevel =
        stage ? *scratch : (family == "wse" || family == "lpu") ? *home : *outer;
    SmallVector<Value> outs;
    SmallVector<Home> outHomes;
    for (Value r : k.getOutputs()) {
      SmallVector<Value> reuse;
      FailureOr<Home> h =
          place(loc, outLevel, r, p.chip, p.unitBegin, p.unitEnd, reuse);
      if (failed(h))
        return failure();
      deps.append(reuse.begin(), reuse.end());
      outs.push_back(h->buffer);
      outHomes.push_back(*h);
    }
    // Deterministic: deps in the order their ops appear, each once.
    llvm::sort(deps, [](Value a, Value c) {
      return a.getDefiningOp()->isBeforeInBlock(c.getDefiningOp());
    });
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());

    auto compute = b.create<sched::ComputeOp>(
        loc, sched::TokenType::get(b.getContext()), k.getSymNameAttr(), ins, outs, deps,
        b.getI64IntegerAttr(p.unitBegin), b.getI64IntegerAttr(p.unitEnd),
        chips > 1 ? b.getI64IntegerAttr(p.chip) : IntegerAttr(), IntegerAttr(),
        IntegerAttr());
    compute->setAttr("kind", k.getKindAttr());
    for (StringRef name : {"tile", "grid", "waves", "pad_flops", "smem_bytes",
                           "vmem_bytes", "rect", "mxm_planes", "split_dim"})
      if (Attribute a = k->getAttr(name))
        compute->setAttr(name, a);
    Block *cb = new Block();
    compute.getBody().push_back(cb);
    IRMapping map;
    for (BlockArgument arg : k.getBlock().getArguments())
      map.map(arg, cb->addArgument(arg.getType(), arg.getLoc()));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(cb);
      for (Operation &op : k.getBlock().without_terminator())
        b.clone(op, map);
      SmallVector<Value> yielded;
      for (Value v : cast<YieldOp>(k.getBlock().getTerminator()).getValues())
        yielded.push_back(map.lookup(v));
      b.create<sched::YieldOp>(loc, yielded);
    }
    Value done = compute.getDone();

    // Time: FLOPs (with padding) against the units used, bytes against the
    // memory the operands come from.
    target::Work w;
    w.flops = double(cast<CostOpInterface>(k.getOperation()).getFlops() +
                     attrOr(k, "pad_flops", 0));
    for (Value v : k.getInputs())
      w.bytes += double(tensorBytes(v.getType()));
    for (Value v : k.getOutputs())
      w.bytes += double(tensorBytes(v.getType()));
    StringRef kind = k.getKind();
    w.matrix = kind == "matmul" || kind == "conv" || kind == "attention";
    if (!k.getOutputs().empty()) {
      Type et = cast<RankedTensorType>(k.getOutputs()[0].getType()).getElementType();
      std::string s;
      llvm::raw_string_ostream os(s);
      et.print(os);
      w.dtype = s;
    }
    w.units = family == "lpu" ? double(t.units.value) : double(p.unitEnd - p.unitBegin);
    const target::MemoryLevel &src = stage ? *scratch : outLevel;
    w.bandwidth = src.bandwidthBytesPerS.value *
                  (src.scope == "unit" ? double(p.unitEnd - p.unitBegin) : 1.0);
    timeCompute(compute, computeSecondsWithLaunch(w));

    for (Value v : k.getInputs())
      homes[v].readers.push_back(done);
    for (auto &[tmp, unused] : temps) {
      tmp.readers.push_back(done);
      release(tmp);
    }
    // Results: copied home when staged.
    for (auto [r, h] : llvm::zip(k.getOutputs(), outHomes)) {
      h.token = done;
      if (!stage) {
        homes[r] = h;
        continue;
      }
      SmallVector<Value> reuse;
      FailureOr<Home> back =
          place(loc, *outer, r, p.chip, p.unitBegin, p.unitEnd, reuse);
      if (failed(back))
        return failure();
      SmallVector<Value> dmaDeps(reuse);
      dmaDeps.push_back(done);
      Value stored = dma(loc, r, h.buffer, back->buffer, dmaDeps, kStoreEngine,
                         p.chip, outer->bandwidthBytesPerS.value,
                         outer->latencyNs.value);
      h.readers.push_back(stored);
      release(h);
      back->token = stored;
      homes[r] = *back;
    }
    // Free what no later kernel reads.
    for (Value v : k.getInputs()) {
      auto it = lastUse.find(v);
      if (it != lastUse.end() && it->second == index && !isResident(v))
        release(homes[v]);
    }
    for (Value r : k.getOutputs())
      if (!lastUse.count(r))
        release(homes[r]);
    return success();
  }

  /// A GPU launches every kernel; a static target launches its program
  /// once and synchronizes between kernels.
  double computeSecondsWithLaunch(const target::Work &w) {
    double overhead = isStatic ? t.syncNs.value : t.launchNs.value;
    return target::computeSeconds(t, w) + overhead * 1e-9;
  }

  const target::MemoryLevel *findLevel(bool (*pred)(const target::MemoryLevel &)) {
    for (const target::MemoryLevel &m : t.memory)
      if (pred(m))
        return &m;
    return nullptr;
  }

  Status run() {
    auto func = module.lookupSymbol<func::FuncOp>("main");
    if (!func) {
      emitError(module.getLoc()) << "no function 'main' to schedule";
      return Status::InvalidModel;
    }
    outer = findLevel([](const target::MemoryLevel &m) { return m.kind == "dram"; });
    if (!outer)
      outer = findLevel([](const target::MemoryLevel &m) { return m.scope == "chip"; });
    if (!outer)
      outer = &t.memory.front();
    scratch = findLevel([](const target::MemoryLevel &m) {
      return m.scope == "unit" && m.managed == "software" && m.kind != "registers";
    });
    staging = (family == "tpu" || family == "spyre") && scratch;
    weightStreaming = module->hasAttr("graph.weight_streaming");
    if (family == "wse")
      home = scratch ? scratch : outer;
    else if (family == "lpu")
      home = findLevel([](const target::MemoryLevel &m) { return m.kind == "sram"; });
    if (!home)
      home = outer;

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
    DenseMap<Operation *, KernelPlan> plans;
    if (failed(planKernels(kernels, plans)))
      return Status::DoesNotFit;

    // The program.
    Builder attrs(module.getContext());
    SmallVector<NamedAttribute> levels;
    for (const target::MemoryLevel &m : t.memory)
      levels.push_back(attrs.getNamedAttr(
          m.name, attrs.getI64IntegerAttr(int64_t(m.capacityBytes.value))));
    int64_t units = family == "lpu" ? kLpuUnits : int64_t(t.units.value);
    auto targetAttr = sched::TargetAttr::get(
        module.getContext(), t.name, isStatic, units,
        attrs.getDictionaryAttr(levels));
    b.setInsertionPoint(func);
    program = b.create<sched::ProgramOp>(func.getLoc(), func.getSymName(),
                                         targetAttr, IntegerAttr(), DictionaryAttr());
    body = new Block();
    program.getBody().push_back(body);
    b.setInsertionPointToEnd(body);
    weightsEnd = b.create<sched::BarrierOp>(
        func.getLoc(), sched::TokenType::get(b.getContext()), ValueRange{});
    for (BlockArgument arg : fblock.getArguments()) {
      auto type = cast<RankedTensorType>(arg.getType());
      Value buf = body->addArgument(
          sched::BufferType::get(module.getContext(), outer->name, type),
          arg.getLoc());
      Home h;
      h.buffer = buf;
      homes[arg] = h;
    }
    DenseMap<Value, int64_t> lastUse;
    for (auto [i, k] : llvm::enumerate(kernels))
      for (Value v : k.getInputs())
        lastUse[v] = i;
    auto ret = cast<func::ReturnOp>(fblock.getTerminator());
    for (Value v : ret.getOperands())
      lastUse[v] = int64_t(kernels.size()); // never freed

    // Weights and constants are resident for the whole program: place them
    // all first, where their first reader runs.
    for (KernelOp k : kernels)
      for (Value v : k.getInputs())
        if (isResident(v) && failed(placeResident(v, plans[k]))) {
          program.erase();
          return Status::DoesNotFit;
        }
    for (auto [i, k] : llvm::enumerate(kernels))
      if (failed(emitKernel(k, plans[k], lastUse, i))) {
        program.erase();
        return Status::DoesNotFit;
      }
    SmallVector<Value> results;
    for (Value v : ret.getOperands())
      results.push_back(homes[v].buffer);
    b.create<sched::ReturnOp>(ret.getLoc(), results);
    if (weightsEnd->use_empty())
      weightsEnd->erase();

    if (chips > 1)
      program.setChipsAttr(b.getI64IntegerAttr(chips));
    program->setAttr("stats", stats(kernels));
    func.erase();
    return Status::Ok;
  }

  DictionaryAttr stats(ArrayRef<KernelOp> kernels) {
    int64_t padBytes = 0, padFlops = 0, relayouts = 0, ops = 0;
    for (KernelOp k : kernels) {
      padBytes += attrOr(k, "pad_bytes", 0);
      padFlops += attrOr(k, "pad_flops", 0);
      if (k.getKind() == "relayout")
        ++relayouts;
      for (Operation &op : k.getBlock().without_terminator())
        if (!isa<ConstantOp>(op))
          ++ops;
    }
    std::map<std::string, int64_t> peak;
    for (auto &[key, a] : arenas)
      peak[key.level] = std::max(peak[key.level], a.highWater());
    // GPU kernels manage their shared memory themselves: its peak is the
    // largest per-SM footprint a tile asked for.
    for (KernelOp k : kernels)
      if (int64_t smem = attrOr(k, "smem_bytes", 0))
        peak["SMEM"] = std::max(peak["SMEM"], smem);
    SmallVector<NamedAttribute> peaks;
    for (auto &[name, bytes] : peak)
      peaks.push_back(b.getNamedAttr(name, b.getI64IntegerAttr(bytes)));
    auto refused = module->getAttrOfType<ArrayAttr>("graph.fusions_refused");
    SmallVector<NamedAttribute> s = {
        b.getNamedAttr("kernels", b.getI64IntegerAttr(kernels.size())),
        b.getNamedAttr("ops", b.getI64IntegerAttr(ops)),
        b.getNamedAttr("fusions", b.getI64IntegerAttr(ops - int64_t(kernels.size()))),
        b.getNamedAttr("fusions_refused", refused ? refused : b.getArrayAttr({})),
        b.getNamedAttr("pad_bytes", b.getI64IntegerAttr(padBytes)),
        b.getNamedAttr("pad_flops", b.getI64IntegerAttr(padFlops)),
        b.getNamedAttr("relayouts", b.getI64IntegerAttr(relayouts)),
        b.getNamedAttr("spills", b.getArrayAttr(spills)),
        b.getNamedAttr("dmas", b.getI64IntegerAttr(numDmas)),
        b.getNamedAttr("dma_bytes", b.getI64IntegerAttr(dmaBytes)),
        b.getNamedAttr("peak_bytes", b.getDictionaryAttr(peaks)),
        b.getNamedAttr("chips", b.getI64IntegerAttr(chips)),
        b.getNamedAttr("weight_streaming", b.getBoolAttr(weightStreaming))};
    if (isStatic)
      s.push_back(b.getNamedAttr("cycles", b.getI64IntegerAttr(makespan)));
    return b.getDictionaryAttr(s);
  }
};

struct ConvertGraphToSchedPass
    : dfa::impl::ConvertGraphToSchedPassBase<ConvertGraphToSchedPass> {
  using ConvertGraphToSchedPassBase::ConvertGraphToSchedPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<target::Target> t = loadPassTarget(
        module, targetName,
        std::vector<std::string>(targetDirs.begin(), targetDirs.end()));
    if (failed(t))
      return signalPassFailure();
    if (convertToSched(module, *t, {remarks}) != Status::Ok)
      signalPassFailure();
  }
};
} // namespace

Status dfa::convertToSched(ModuleOp module, const Target &t,
                           const ScheduleOptions &options) {
  Lowering l(module, t, options);
  return l.run();
}
