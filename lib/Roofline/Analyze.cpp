//===- Analyze.cpp - kernel traffic, roofs and bottlenecks ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Traffic: a kernel's compute reads its inputs and writes its outputs in
/// the levels those buffers live in (dense bytes), and each DMA the
/// compiler made for it (its `kernel` attribute) moves its bytes out of one
/// level and into another (layout bytes, padding included). The roofs are
/// the kernel's share of the target: the FLOP/s of the units it holds and
/// the bandwidth of each level to them (per-unit levels times its units).
///
/// Time, when simulated: the total is split among kernels by what ran in
/// each interval — kernels computing share it; if none computes, the
/// kernels whose copies run share it (DMA waits); if nothing runs, it goes
/// to the kernel whose op starts next (dependency waits). So the kernels'
/// times add up to the total.
///
//===----------------------------------------------------------------------===//

#include "dfa/Roofline/Roofline.h"
#include "dfa/Target/Cost.h"

#include "dialects/Graph/GraphInterfaces.h"
#include "dialects/Graph/GraphOps.h"
#include "dialects/Sched/CompileStats.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::roofline;

void dfa::roofline::sourceNames(Location loc, SmallVectorImpl<std::string> &out) {
  if (auto n = dyn_cast<NameLoc>(loc)) {
    out.push_back(n.getName().str());
  } else if (auto f = dyn_cast<FusedLoc>(loc)) {
    for (Location l : f.getLocations())
      sourceNames(l, out);
  } else if (auto c = dyn_cast<CallSiteLoc>(loc)) {
    sourceNames(c.getCallee(), out);
  } else if (auto fl = dyn_cast<FileLineColLoc>(loc)) {
    out.push_back(fl.getFilename().str() + ":" + std::to_string(fl.getLine()));
  }
}

namespace {

double denseBytes(Value buffer) {
  return double(graph::tensorBytes(
      cast<sched::BufferType>(buffer.getType()).getTensor()));
}

std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

class Analyzer {
public:
  Analyzer(sched::ProgramOp program, const target::Target &t)
      : program(program), t(t),
        cycle(1.0 / std::max(1.0, t.clockHz.value)),
        pipeline(layerPipeline(program, t)) {}

  /// Whether the program's kernels form a layer pipeline (spatial
  /// placement, weights resident): they fire on their data, no barrier.
  static bool layerPipeline(sched::ProgramOp program, const target::Target &t) {
    if (t.caps.placement != target::Placement::Spatial)
      return false;
    auto stats = program->getAttrOfType<DictionaryAttr>("stats");
    return !(stats && sched::CompileStats::fromAttr(stats).weightStreaming);
  }

  Report run(const sim::Result *timing);

private:
  KernelRoof &kernel(StringRef name) {
    auto [it, inserted] = index.try_emplace(name, kernels.size());
    if (inserted) {
      kernels.emplace_back();
      kernels.back().name = name.str();
    }
    return kernels[it->second];
  }
  void addBytes(KernelRoof &k, StringRef level, double bytes) {
    for (LevelTraffic &l : k.levels)
      if (l.level == level) {
        l.bytes += bytes;
        return;
      }
    k.levels.push_back({level.str(), bytes, 0});
  }
  void addCompute(sched::ComputeOp c);
  void addDma(sched::DmaOp d);
  void finishRoofs(KernelRoof &k);
  void attribute(const sim::Result &timing);
  void classify(KernelRoof &k) const;
  static void criticalPath(const sim::Result &timing, Report &r);

  sched::ProgramOp program;
  const target::Target &t;
  double cycle;
  /// A layer pipeline: a kernel's overhead is its rectangle's fill, not a
  /// launch or a barrier.
  bool pipeline;
  std::vector<KernelRoof> kernels;
  llvm::StringMap<size_t> index;
  llvm::StringMap<double> flopsByType;
};

void Analyzer::addCompute(sched::ComputeOp c) {
  KernelRoof &k = kernel(c.getKernel());
  if (auto kind = c->getAttrOfType<StringAttr>("kind"))
    k.kind = kind.str();
  k.units = std::max(k.units, int64_t(c.getUnitEnd() - c.getUnitBegin()));
  k.chip = c.getChip().value_or(0);
  if (k.dtype.empty() && !c.getOutputs().empty())
    k.dtype = typeName(graph::arithmeticType(
        c.getBody().front(), cast<sched::BufferType>(c.getOutputs()[0].getType())
                                 .getTensor()
                                 .getElementType()));
  for (Operation &op : c.getBody().front()) {
    if (graph::Fp32Matmul mode = graph::fp32MatmulOf(&op);
        mode != graph::Fp32Matmul::IEEE && k.dtype == "f32")
      k.mathType = graph::name(mode).str();
    auto cost = dyn_cast<graph::CostOpInterface>(&op);
    if (!cost)
      continue;
    double f = double(cost.getFlops());
    k.flops += f;
    SmallVector<std::string> names;
    sourceNames(op.getLoc(), names);
    if (names.empty())
      names.push_back(k.name);
    for (const std::string &n : names) {
      auto it = llvm::find_if(k.sources, [&](auto &s) { return s.first == n; });
      if (it == k.sources.end())
        k.sources.push_back({n, f / double(names.size())});
      else
        it->second += f / double(names.size());
    }
  }
  // Padding is the kernel's (each chunk carries the whole kernel's figure).
  if (k.computeOps == 0)
    if (auto pad = c->getAttrOfType<IntegerAttr>("pad_flops"))
      k.padFlops = double(pad.getInt());
  // What streams to the host's memory counts as stored, as it is timed.
  const target::MemoryLevel *host = t.hostLevel();
  for (auto [level, bytes] :
       sched::levelBytes(c, host ? StringRef(host->name) : StringRef()))
    addBytes(k, level, bytes);
  // A collective's roof is the chip-to-chip links: the bytes each chip
  // sends over them (finishRoofs gives the level its bandwidth).
  if (std::optional<target::Collective> work = sched::collectiveOf(c);
      work && t.chipToChip) {
    addBytes(k, t.chipToChip->kind, target::collectiveLinkBytes(*work));
    // The ring's steps each wait a link latency: time beyond the roof
    // that classify() names as such.
    k.modelComputeSeconds += double(target::collectiveSteps(*work)) *
                             t.chipToChip->latencyNs.value * 1e-9;
  }
  if (auto cc = c->getAttrOfType<IntegerAttr>("compute_cycles")) {
    k.modelComputeSeconds += double(cc.getInt()) * cycle;
    k.computeCycles += cc.getInt();
  }
  k.launchSeconds += target::kernelOverheadSeconds(
      t, pipeline, int64_t(c.getUnitEnd() - c.getUnitBegin()));
  ++k.computeOps;
  // Analytic time: the cost model's, kernel after kernel.
  if (std::optional<int64_t> cycles = c.getCycles())
    k.seconds += double(*cycles) * cycle;
}

void Analyzer::addDma(sched::DmaOp d) {
  KernelRoof &k = kernel(d.getKernel() ? *d.getKernel() : "(copies)");
  if (k.kind.empty() && !d.getKernel())
    k.kind = "dma";
  double bytes = d.getBytes() ? double(*d.getBytes()) : denseBytes(d.getSource());
  addBytes(k, cast<sched::BufferType>(d.getSource().getType()).getMemory(), bytes);
  addBytes(k, cast<sched::BufferType>(d.getDest().getType()).getMemory(), bytes);
  ++k.dmas;
}

void Analyzer::finishRoofs(KernelRoof &k) {
  std::optional<graph::KernelKind> kind = graph::symbolizeKernelKind(k.kind);
  bool matrix = kind && graph::isMatrixKind(*kind);
  double share = target::unitShare(t, k.units);
  std::string type = matrix && !k.mathType.empty() ? k.mathType
                    : k.dtype.empty()                ? std::string("f32")
                                                     : k.dtype;
  k.peak = target::peakRate(t, matrix, type) * share;
  k.computeSeconds = k.peak > 0 ? k.flops / k.peak : 0;
  k.boundSeconds = k.computeSeconds;
  for (LevelTraffic &l : k.levels) {
    if (const target::MemoryLevel *m = t.level(l.level))
      l.bandwidth = target::bandwidthOf(*m, k.units);
    else if (t.chipToChip && l.level == t.chipToChip->kind)
      l.bandwidth = target::collectiveBandwidth(t);
    k.boundSeconds = std::max(k.boundSeconds, l.seconds());
  }
  // Levels in the order of the description (outermost first), the host's
  // memory before them.
  llvm::stable_sort(k.levels, [&](const LevelTraffic &a, const LevelTraffic &b) {
    auto pos = [&](StringRef n) {
      if (t.hostLevel() && t.hostLevel()->name == n)
        return size_t(0);
      for (size_t i = 0; i < t.memory.size(); ++i)
        if (t.memory[i].name == n)
          return i + 1;
      return t.memory.size() + 1;
    };
    return pos(a.level) < pos(b.level);
  });
  if (!k.dtype.empty())
    flopsByType[k.dtype] += k.flops;
}

void Analyzer::attribute(const sim::Result &timing) {
  for (KernelRoof &k : kernels) {
    k.seconds = k.attributed = 0;
    k.waits = Waits();
  }
  struct Edge {
    double time;
    bool start;
    bool compute;
    size_t kernel;
  };
  std::vector<Edge> edges;
  for (const sim::OpRecord &r : timing.ops) {
    if (!r.op)
      continue;
    StringRef name;
    bool compute = false;
    if (auto c = dyn_cast<sched::ComputeOp>(r.op)) {
      name = c.getKernel();
      compute = true;
    } else if (auto d = dyn_cast<sched::DmaOp>(r.op)) {
      name = d.getKernel() ? *d.getKernel() : "(copies)";
    } else {
      continue;
    }
    auto it = index.find(name);
    if (it == index.end())
      continue;
    edges.push_back({r.start, true, compute, it->second});
    edges.push_back({r.end, false, compute, it->second});
  }
  // Ends before starts at one instant; then program order.
  llvm::stable_sort(edges, [](const Edge &a, const Edge &b) {
    return a.time != b.time ? a.time < b.time : (!a.start && b.start);
  });
  std::vector<int> computing(kernels.size()), copying(kernels.size());
  int nComputing = 0, nCopying = 0;
  double prev = 0, idle = 0;
  for (const Edge &e : edges) {
    double span = e.time - prev;
    if (span > 0) {
      if (nComputing > 0 || nCopying > 0) {
        bool c = nComputing > 0;
        const std::vector<int> &active = c ? computing : copying;
        int n = 0;
        for (size_t i = 0; i < kernels.size(); ++i)
          n += active[i] > 0;
        for (size_t i = 0; i < kernels.size(); ++i)
          if (active[i] > 0) {
            kernels[i].attributed += span / n;
            kernels[i].seconds += c ? span : span / n;
            if (!c)
              kernels[i].waits.dma += span / n;
          }
      } else {
        idle += span;
      }
      prev = e.time;
    }
    if (e.start && idle > 0) {
      kernels[e.kernel].seconds += idle;
      kernels[e.kernel].attributed += idle;
      kernels[e.kernel].waits.deps += idle;
      idle = 0;
    }
    int d = e.start ? 1 : -1;
    if (e.compute) {
      nComputing += d;
      computing[e.kernel] += d;
    } else {
      nCopying += d;
      copying[e.kernel] += d;
    }
  }
}

void Analyzer::classify(KernelRoof &k) const {
  // The time it spent computing beyond its bound: launch overhead first,
  // then what the cost model charges over the peak (fill and drain,
  // padding, efficiency), then contention.
  double computing = k.seconds - k.waits.dma - k.waits.deps;
  double excess = std::max(0.0, computing - k.boundSeconds);
  k.waits.launch = std::min(excess, k.launchSeconds);
  excess -= k.waits.launch;
  k.waits.bubbles =
      std::min(excess, std::max(0.0, k.modelComputeSeconds - k.computeSeconds));
  k.waits.contention = excess - k.waits.bubbles;
  if (k.seconds > kSchedulingFactor * k.boundSeconds) {
    k.bottleneck = Bottleneck::Scheduling;
    // Copies beyond what the memory bound explains.
    double dma = std::max(
        0.0, k.waits.dma - std::max(0.0, k.boundSeconds - computing));
    std::pair<double, const char *> why[] = {
        {k.waits.launch, pipeline ? "fabric fill" : "launch overhead"},
        {k.waits.bubbles, k.kind == "collective" ? "link latency"
                                                  : "pipeline bubbles"},
        {dma, "DMA waits"},
        {k.waits.deps, "dependency waits"},
        {k.waits.contention, "contention"}};
    k.reason = std::max_element(std::begin(why), std::end(why),
                                [](auto &a, auto &b) { return a.first < b.first; })
                   ->second;
    return;
  }
  std::string name = k.boundName();
  StringRef bound = name;
  k.bottleneck = bound.consume_front("memory:") ? Bottleneck::Memory
                                                : Bottleneck::Compute;
  if (k.bottleneck == Bottleneck::Memory)
    k.level = bound.str();
}

Report Analyzer::run(const sim::Result *timing) {
  for (Operation &op : program.getBlock()) {
    if (auto c = dyn_cast<sched::ComputeOp>(op))
      addCompute(c);
    else if (auto d = dyn_cast<sched::DmaOp>(op))
      addDma(d);
  }
  for (KernelRoof &k : kernels)
    finishRoofs(k);
  Report r;
  r.target = t.name;
  r.overrides = t.overrides;
  r.family = t.family;
  r.simulated = timing != nullptr;
  if (timing)
    attribute(*timing);
  for (KernelRoof &k : kernels) {
    if (!timing)
      k.attributed = k.seconds;
    classify(k);
    r.flops += k.flops;
    r.padFlops += k.padFlops;
    r.seconds += k.attributed;
  }
  if (timing)
    r.seconds = timing->seconds;
  // The chart's roofs: the whole chip.
  double most = -1;
  for (auto &kv : flopsByType)
    if (kv.second > most || (kv.second == most && kv.first() < r.dtype)) {
      most = kv.second;
      r.dtype = kv.first().str();
    }
  r.peak = target::peakRate(t, true, r.dtype.empty() ? "f32" : r.dtype);
  // The host's memory is a roof where results stream to it.
  if (const target::MemoryLevel *host = t.hostLevel())
    if (llvm::any_of(kernels, [&](const KernelRoof &k) {
          return llvm::any_of(k.levels, [&](const LevelTraffic &l) {
            return l.level == host->name && l.bytes > 0;
          });
        }))
      r.roofs.push_back({host->name, target::bandwidthOf(*host, 1)});
  for (const target::MemoryLevel &m : t.memory)
    if (m.bandwidthBytesPerS.value > 0)
      r.roofs.push_back(
          {m.name, target::bandwidthOf(m, int64_t(t.units.value))});
  if (auto attr = program.getStatsAttr()) {
    sched::CompileStats stats = sched::CompileStats::fromAttr(attr);
    r.padBytes = stats.padBytes;
    if (!timing)
      for (const auto &[level, bytes] : stats.peakBytes)
        r.memoryPeaks[level] = bytes;
  }
  if (timing)
    for (const sim::Occupancy &o : timing->memory)
      r.memoryPeaks[o.level] = std::max(r.memoryPeaks[o.level], o.peakBytes);
  llvm::stable_sort(kernels, [](const KernelRoof &a, const KernelRoof &b) {
    return a.attributed > b.attributed;
  });
  for (const KernelRoof &k : kernels)
    if (r.seconds > 0)
      r.mix[k.bottleneckName()] += k.attributed / r.seconds;
  r.kernels = std::move(kernels);
  if (timing)
    criticalPath(*timing, r);
  return r;
}

/// The kernel an op of the schedule is for.
static StringRef kernelOf(Operation *op) {
  if (auto c = dyn_cast_or_null<sched::ComputeOp>(op))
    return c.getKernel();
  if (auto d = dyn_cast_or_null<sched::DmaOp>(op))
    return d.getKernel() ? *d.getKernel() : "(copies)";
  return "";
}

void Analyzer::criticalPath(const sim::Result &timing, Report &r) {
  llvm::StringMap<size_t> byName;
  for (auto [i, k] : llvm::enumerate(r.kernels)) {
    byName[k.name] = i;
    k.slack = timing.seconds;
  }
  for (const sim::OpRecord &op : timing.ops) {
    auto it = byName.find(kernelOf(op.op));
    if (it != byName.end())
      r.kernels[it->second].slack = std::min(r.kernels[it->second].slack, op.slack);
  }
  CriticalPath &path = r.critical;
  for (const sim::PathStep &s : timing.criticalPath) {
    CriticalStep step;
    step.via = sim::name(s.via).str();
    step.start = s.start;
    step.seconds = s.end - s.start;
    std::string share;
    if (s.op < 0) {
      step.kind = "wait";
      share = "wait:" + step.via;
    } else {
      const sim::OpRecord &op = timing.ops[s.op];
      step.kind = isa<sched::ComputeOp>(op.op) ? "compute" : "dma";
      step.kernel = kernelOf(op.op).str();
      step.resource = op.resource;
      step.source = op.source;
      step.chip = op.chip;
      share = "memory";
      auto it = byName.find(step.kernel);
      if (it != byName.end()) {
        KernelRoof &k = r.kernels[it->second];
        k.criticalSeconds += step.seconds;
        if (step.kind == "compute")
          share = k.bottleneck == Bottleneck::Compute  ? "compute"
                  : k.bottleneck == Bottleneck::Memory ? "memory"
                                                       : "wait:" + k.reason;
      }
    }
    path.shares[share] += step.seconds;
    path.seconds += step.seconds;
    path.steps.push_back(std::move(step));
  }
}
} // namespace

double KernelRoof::attainable() const {
  double a = peak;
  for (const LevelTraffic &l : levels)
    if (l.bytes > 0 && l.bandwidth > 0)
      a = std::min(a, flops / l.bytes * l.bandwidth);
  return a;
}

std::string KernelRoof::boundName() const {
  std::string name = "compute";
  double most = computeSeconds;
  for (const LevelTraffic &l : levels)
    if (l.seconds() > most) {
      most = l.seconds();
      name = "memory:" + l.level;
    }
  return name;
}

Report roofline::joinSegments(std::vector<SegmentReport> parts,
                              std::vector<CriticalStep> steps, double seconds,
                              double linkSeconds, int64_t linkBytes,
                              double linkBandwidth, double hostSeconds) {
  Report r;
  r.seconds = seconds;
  // The chart's roof: the type most FLOPs are in, over every segment.
  std::map<std::string, std::pair<double, double>> byType; // FLOPs, peak
  for (const SegmentReport &part : parts)
    for (const KernelRoof &k : part.report.kernels)
      if (k.flops > 0) {
        auto &[flops, peak] = byType[k.dtype];
        flops += k.flops;
        peak = std::max(peak, part.report.dtype == k.dtype ? part.report.peak : 0.0);
      }
  for (const auto &[type, fp] : byType)
    if (r.dtype.empty() || fp.first > byType[r.dtype].first) {
      r.dtype = type;
      r.peak = fp.second;
    }
  for (size_t i = 0; i < parts.size(); ++i) {
    Report &p = parts[i].report;
    std::string prefix = "s" + std::to_string(parts[i].index) + ": ";
    if (r.roofs.empty()) {
      r.simulated = p.simulated;
      r.roofs = p.roofs;
    } else {
      // A roof only a later segment has (the host's memory, where that
      // segment streams a result to it) goes before the others.
      for (const LevelRoof &roof : llvm::reverse(p.roofs))
        if (llvm::none_of(r.roofs, [&](const LevelRoof &x) { return x.name == roof.name; }))
          r.roofs.insert(r.roofs.begin(), roof);
    }
    if (r.peak == 0 && p.dtype == r.dtype)
      r.peak = p.peak;
    r.flops += p.flops;
    r.padFlops += p.padFlops;
    r.padBytes += p.padBytes;
    for (const auto &[level, bytes] : p.memoryPeaks)
      r.memoryPeaks[level] = std::max(r.memoryPeaks[level], bytes);
    for (KernelRoof &k : p.kernels) {
      k.name = prefix + k.name;
      r.kernels.push_back(std::move(k));
    }
    for (CriticalStep step : p.critical.steps) {
      step.start += parts[i].start;
      if (!step.kernel.empty())
        step.kernel = prefix + step.kernel;
      r.critical.steps.push_back(std::move(step));
    }
    for (const auto &[what, share] : p.critical.shares)
      r.critical.shares[what] += share;
    r.critical.seconds += p.critical.seconds;
  }
  // The breaks' own rows: the run waits on each in turn.
  auto row = [&](const std::string &name, double secs) -> KernelRoof & {
    KernelRoof k;
    k.name = name;
    k.kind = name;
    k.seconds = k.attributed = secs;
    r.kernels.push_back(std::move(k));
    return r.kernels.back();
  };
  if (linkSeconds > 0) {
    KernelRoof &k = row("host link", linkSeconds);
    k.bottleneck = Bottleneck::Memory;
    k.level = "host link";
    k.levels.push_back({"host link", double(linkBytes), linkBandwidth});
    k.boundSeconds = k.levels.back().seconds();
    r.critical.shares["memory"] += linkSeconds;
  }
  if (hostSeconds > 0) {
    KernelRoof &k = row("host", hostSeconds);
    k.bottleneck = Bottleneck::Scheduling;
    k.reason = "host";
    r.critical.shares["wait:host"] += hostSeconds;
  }
  r.critical.seconds += linkSeconds + hostSeconds;
  for (CriticalStep &step : steps)
    r.critical.steps.push_back(std::move(step));
  llvm::stable_sort(r.critical.steps, [](const CriticalStep &a, const CriticalStep &b) {
    return a.start < b.start;
  });
  // Nothing overlaps a break's rows: all of them is on the path.
  for (KernelRoof &k : r.kernels)
    if (k.name == "host link" || k.name == "host")
      k.criticalSeconds = k.seconds;
  llvm::stable_sort(r.kernels, [](const KernelRoof &a, const KernelRoof &b) {
    return a.attributed > b.attributed;
  });
  for (const KernelRoof &k : r.kernels)
    if (r.seconds > 0)
      r.mix[k.bottleneckName()] += k.attributed / r.seconds;
  return r;
}

std::string KernelRoof::bottleneckName() const {
  switch (bottleneck) {
  case Bottleneck::Compute:
    return "compute";
  case Bottleneck::Memory:
    return "memory:" + level;
  case Bottleneck::Scheduling:
    return "scheduling";
  }
  return "";
}

Report dfa::roofline::analyze(sched::ProgramOp program, const target::Target &t,
                              const sim::Result *timing) {
  return Analyzer(program, t).run(timing);
}
