//===- Roofline.h - hierarchical rooflines of a schedule ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// dfa-roofline's engine. For each kernel of a `sched.program`: its FLOPs,
/// the bytes it moves at each memory level (its compute's operands where
/// they live, and both ends of the DMAs the compiler made for it), the
/// arithmetic intensity per level, the roofline bound
/// max(FLOPs / peak, bytes_l / bandwidth_l), the time it took in the
/// simulation (or the cost model's, analytic) and the bottleneck: compute,
/// memory at a level, or scheduling, with where the time beyond the bound
/// went (launch overhead, pipeline bubbles, DMA waits, dependency waits,
/// bandwidth contention).
///
//===----------------------------------------------------------------------===//

#ifndef DFA_ROOFLINE_ROOFLINE_H
#define DFA_ROOFLINE_ROOFLINE_H

#include "dfa/Sim/Sim.h"
#include "dfa/Target/Target.h"

#include "dialects/Sched/SchedOps.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dfa::roofline {

/// A kernel is scheduling-bound when its time exceeds its roofline bound
/// by more than this factor.
constexpr double kSchedulingFactor = 1.1;

/// Traffic of one kernel at one memory level.
struct LevelTraffic {
  std::string level;
  double bytes = 0;     // read plus written there
  double bandwidth = 0; // bytes/s the kernel's units have there
  double seconds() const { return bandwidth > 0 ? bytes / bandwidth : 0; }
};

/// Where a kernel's time beyond its bound went (seconds).
struct Waits {
  double launch = 0;     // per-op launch or sync overhead
  double bubbles = 0;    // matrix-unit fill and drain, padding, efficiency
  double dma = 0;        // its copies ran and nothing computed
  double deps = 0;       // nothing ran: it waited on other work or chips
  double contention = 0; // the rest: shared units and bandwidth
};

enum class Bottleneck { Compute, Memory, Scheduling };

struct KernelRoof {
  std::string name, kind, dtype;
  /// The matrix units' arithmetic when --fp32-matmul chose one for f32
  /// operands ("tf32", "bf16", "bf16x3"; empty: dtype's).
  std::string mathType;
  int64_t chip = 0, units = 0;
  /// Source nodes (fusion provenance) and the FLOPs of each.
  std::vector<std::pair<std::string, double>> sources;
  double flops = 0;    // useful, from the graph ops
  double padFlops = 0; // on padding (tiles, sticks, arrays)
  double peak = 0;     // FLOP/s roof of the units it holds
  std::vector<LevelTraffic> levels;
  double computeSeconds = 0;      // flops / peak
  double modelComputeSeconds = 0; // the cost model's compute time
  int64_t computeCycles = 0;      // the same in target cycles (exact)
  double launchSeconds = 0;       // its ops' launch or sync overhead
  double boundSeconds = 0;        // max(compute, every level)
  /// Its time: computing (simulated, or the cost model's when analytic)
  /// plus the DMA and dependency waits charged to it.
  double seconds = 0;
  /// Its part of the total: intervals where several kernels compute are
  /// split among them, so the parts add up to the total.
  double attributed = 0;
  int64_t computeOps = 0, dmas = 0;
  Waits waits;
  Bottleneck bottleneck = Bottleneck::Compute;
  std::string level;  // the binding level, for Memory
  std::string reason; // for Scheduling: the largest wait
  /// Simulated: the least slack of its ops (how much later it could end
  /// without delaying the makespan) and its seconds on the critical path.
  double slack = 0, criticalSeconds = 0;
  double attainable() const; // min(peak, AI_l * BW_l) FLOP/s
  double efficiency() const { return seconds > 0 ? boundSeconds / seconds : 0; }
  /// "compute", "memory:HBM" or "scheduling".
  std::string bottleneckName() const;
  /// The roofline bound alone, against the ridge of each level: "compute"
  /// or "memory:LEVEL", whichever of its compute time and level times is
  /// largest (scheduling aside).
  std::string boundName() const;
};

/// One step of the critical path (sim::PathStep, named).
struct CriticalStep {
  std::string kind;   // "compute", "dma" or "wait"
  std::string kernel; // the kernel the op is for ("" for a wait)
  std::string via;    // how the path reached it (sim::name(Wait))
  std::string resource, source;
  int64_t chip = 0;
  double start = 0, seconds = 0;
};

/// The chain of ops and waits that sets the makespan.
struct CriticalPath {
  std::vector<CriticalStep> steps; // in time order
  double seconds = 0;              // the steps' sum: the makespan
  /// Seconds of the path by what took them: "compute", "memory" (copies,
  /// and compute ops of memory-bound kernels), "wait:<why>" (compute ops of
  /// scheduling-bound kernels, by their largest wait; gaps, by the plan).
  std::map<std::string, double> shares;
};

/// One memory level's roof on the chart (whole chip).
struct LevelRoof {
  std::string name;
  double bandwidth = 0; // bytes/s
};

/// A measured trace set against the report (dfa-roofline --measured,
/// dfa/Roofline/Measured.h): each measured op mapped to the source nodes
/// whose time it is, worst gap first.
struct MeasuredRow {
  std::string op;     // "aten::linear", or a kernel's name
  std::string module; // the nn.Module chain it ran in ("GPTBlock_0/Linear_0")
  int64_t index = 0;  // its place among the trace's ops
  double measuredSeconds = 0, predictedSeconds = 0;
  int64_t kernels = 0; // device kernels it launched (0: a CPU trace)
  std::vector<std::string> nodes; // dfa's source nodes it maps to
  double flops = 0, bytes = 0;    // dfa's, of those nodes
  std::string cause;
  double gap() const; // measured / predicted (inf when predicted is 0)
};
struct MeasuredReport {
  std::string file;
  /// "device" (kernel events) or "host" (CPU op durations).
  std::string clock;
  int64_t ops = 0, matched = 0, viewsLeftOut = 0;
  double matchedFraction() const { return ops ? double(matched) / double(ops) : 0; }
  double measuredSeconds = 0;  // the ops' times summed
  double predictedSeconds = 0; // the report's
  /// Matched rows, largest gap first; then the ops nothing matched.
  std::vector<MeasuredRow> rows, unmatched;
};

struct Report {
  std::string model, target, family;
  /// The target description's `--set` overrides.
  std::vector<target::Override> overrides;
  bool simulated = true;
  double seconds = 0; // total
  double flops = 0, padFlops = 0;
  int64_t padBytes = 0;
  std::string dtype;   // the type most FLOPs are in
  double peak = 0;     // chip FLOP/s for it (the chart's flat roof)
  std::vector<LevelRoof> roofs;
  std::vector<KernelRoof> kernels; // by time, largest first
  std::map<std::string, int64_t> memoryPeaks;
  /// Share of the total time per bottleneck name.
  std::map<std::string, double> mix;
  /// Simulated reports: the critical path.
  CriticalPath critical;
  /// With --buckets: the bucket this schedule is for (dim -> size), the
  /// smallest size it serves, and that size's padding waste (FLOPs and
  /// bytes, padded against exact).
  std::map<std::string, int64_t> bucket, bucketSmallest;
  double worstFlopsWaste = 0, worstBytesWaste = 0;
  /// "seq=128" (empty without --buckets).
  std::string bucketLabel() const;
  /// With --measured: the trace set against this report.
  std::optional<MeasuredReport> measured;
};

/// A source node's part of the schedule: the kernels it was fused into,
/// its FLOPs, and its part of their time and bytes (a kernel's split among
/// its sources by FLOPs; evenly when it has none).
struct NodeRoof {
  std::string name;
  double flops = 0;
  double seconds = 0; // its part of the attributed time
  std::vector<std::pair<std::string, double>> bytes; // per level
  std::vector<std::string> kernels;
  /// The kernel that holds most of its time, its bottleneck and its
  /// roofline bound (KernelRoof::boundName).
  std::string kernel, bottleneck, bound;
};

/// The source node names of a location (a fused one has several): each
/// NameLoc's name, or file:line for a bare file location.
void sourceNames(mlir::Location loc, llvm::SmallVectorImpl<std::string> &out);

/// Every source node of `r`, by time, largest first.
std::vector<NodeRoof> byNode(const Report &r);
/// A table of the `top` source nodes (0: all) by share of time.
void printNodeTable(const Report &r, llvm::raw_ostream &os, size_t top = 20);

/// A model that runs in segments (a graph that breaks): each device
/// segment's report with its start on the run's clock, and the time the
/// host link and the host took between them.
struct SegmentReport {
  Report report;
  int index = 0; // the run's device segment number
  double start = 0;
};
/// One report for the whole run: the segments' kernels (named "sN: kernel"),
/// their critical paths on the run's clock with the breaks' `steps` (the
/// transfers and the host's work, on the path since nothing overlaps
/// them), and two more rows: "host link"
/// (its own bottleneck, memory at the level "host link": `linkBytes` in
/// `linkSeconds`, bound by `linkBandwidth`; the rest is the transfers'
/// latency) and "host" (scheduling: the device waits on the host).
/// `seconds` is the run's; the mix is over every row.
Report joinSegments(std::vector<SegmentReport> parts,
                    std::vector<CriticalStep> steps, double seconds,
                    double linkSeconds, int64_t linkBytes, double linkBandwidth,
                    double hostSeconds);

/// Profiles `program` for `t`: with `timing` (dfa-run's time-only
/// simulation) the kernels' times are the simulation's, the total split
/// among kernels by what was running (a kernel computing first, then its
/// copies, then idle gaps to the kernel that starts next); without, the
/// cost model's planned times.
Report analyze(sched::ProgramOp program, const target::Target &t,
               const sim::Result *timing);

/// A table sorted by share of time (the `top` largest kernels; 0: all).
void printTable(const Report &r, llvm::raw_ostream &os, size_t top = 20);
/// The critical path: its shares, then its steps in time order (the `top`
/// longest; 0: all).
void printCriticalPath(const Report &r, llvm::raw_ostream &os, size_t top = 20);
/// One report as a `dfa.roofline/1` target object.
void writeJson(llvm::json::OStream &j, const Report &r);
/// One row per kernel of every report.
void writeCsv(llvm::ArrayRef<Report> reports, llvm::raw_ostream &os);
/// A log-log chart: a roof and ridge point per memory level, a point per
/// kernel and level coloured by bottleneck and sized by time.
void writeSvg(const Report &r, llvm::raw_ostream &os);
/// A self-contained page (no fetches): the landscape, a row per target
/// (time, mix of bottlenecks, top kernels, padding, memory peaks), then each
/// target's chart and table.
struct LLMSweep;
/// With `llm`, the page opens with the sweep's tables (LLM mode); with
/// `graphSvg` (Graphviz's SVG of the source graph), it has a section for it.
void writeHtml(llvm::ArrayRef<Report> reports, llvm::StringRef title,
               llvm::raw_ostream &os, const LLMSweep *llm = nullptr,
               llvm::StringRef graphSvg = "");

/// "4.19 GFLOP": SI prefixes, three significant digits (every report's
/// FLOP and byte counts; dfa-run's padding waste too).
std::string humanNumber(double x, const char *unit);

} // namespace dfa::roofline

#endif // DFA_ROOFLINE_ROOFLINE_H
