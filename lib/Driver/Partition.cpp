//===- Partition.cpp - dfa-run in segments (graph breaks) -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Partition.h"
#include "Format.h"
#include "ModelFlags.h"
#include "RunTarget.h"

#include "dfa/Bisect/Pattern.h"
#include "dfa/Reference/Evaluator.h"
#include "dfa/Roofline/Roofline.h"
#include "dfa/Target/Cost.h"
#include "dfa/Transforms/Faults.h"
#include "dialects/Graph/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

namespace {

/// Where a value is: a break moves it between the host and the device.
struct Where {
  bool host = false, device = false;
};

class SegmentRunner {
public:
  SegmentRunner(const RunOptions &opts, const target::Target *t,
                MLIRContext &ctx, DiagnosticPrinter &printer, SegmentedRun &out,
                const SegmentObserver &observe)
      : opts(opts), t(t), ctx(ctx), printer(printer), out(out), observe(observe) {
    if (t)
      link = target::hostPath(*t);
  }

  Status run(const std::map<std::string, ref::Tensor> &inputs);
  /// Every value the host knows, for SegmentedRun::values.
  std::map<std::string, ref::Tensor> takeValues() { return std::move(rv.values); }

private:
  const RunOptions &opts;
  const target::Target *t;
  MLIRContext &ctx;
  DiagnosticPrinter &printer;
  SegmentedRun &out;
  const SegmentObserver &observe;
  std::optional<target::TransferPath> link;
  /// The host's memory bandwidth (the `cpu` description), for the time of
  /// what the host computes; 0 when there is none.
  double hostBandwidth = 0;
  RuntimeValues rv;
  /// `--max-dim`: bounds of data-dependent dims, by name.
  std::map<std::string, int64_t> maxDims;
  std::map<std::string, Where> where;
  /// A value known under a second name (an alias) moves as its original.
  std::map<std::string, std::string> aliasOf;
  const std::string &original(const std::string &value) const {
    auto it = aliasOf.find(value);
    return it == aliasOf.end() ? value : it->second;
  }
  Where &whereOf(const std::string &value) { return where[original(value)]; }
  /// The device's copy of each value that crossed to it or that a device
  /// segment made (by original name); a constant is compiled in.
  std::map<std::string, ref::Tensor> deviceCopies;
  const ref::Tensor &deviceValue(const std::string &value) const {
    auto it = deviceCopies.find(original(value));
    return it != deviceCopies.end() ? it->second : rv.values.at(value);
  }
  /// A host-link fault to plant (`--inject`), until it is; the segments
  /// compile with `compileOpts`, which leaves it out.
  FaultSpec fault;
  RunOptions compileOpts;
  /// What lands on the device when the host sends `value`: the value, or
  /// what the planted fault makes of it.
  ref::Tensor landed(const std::string &value);
  double clock = 0;
  int deviceSegments = 0;

  /// Appends a step at the current time and moves the clock past it.
  void step(SegmentStep s);
  /// Moves `value` to the host (or the device) for `node`, once.
  void cross(const std::string &value, const std::string &node, bool toHost);
  void toHost(const std::string &value, const std::string &node) {
    cross(value, node, true);
  }
  void toDevice(const std::string &value, const std::string &node) {
    cross(value, node, false);
  }
  /// Imports the next segment (`host`: these nodes, on the host;
  /// `padded`: bounded values padded to their bounds).
  Status importSegment(const std::set<size_t> &host, SegmentInfo &seg,
                       OwningOpRef<ModuleOp> &module, bool padded = false);
  /// Runs a device segment: compiled and simulated on the target, or
  /// evaluated where there is no target (or nothing to compile). With
  /// `padded` (the same segment, its bounded values padded: `pseg`), the
  /// values are `module`'s and the time is `padded`'s.
  Status deviceSegment(ModuleOp module, SegmentInfo &seg, ModuleOp padded = {},
                       const SegmentInfo *pseg = nullptr);
  /// Runs the nodes no device segment can hold on the host.
  Status hostSegment(const std::set<size_t> &nodes);
  /// Evaluates `func` on the CPU reference.
  FailureOr<SmallVector<ref::Tensor>> evaluate(func::FuncOp func,
                                               ArrayRef<ref::Tensor> args);
  /// Records what a segment's import knew without running anything (its
  /// constants, on `constantsAt`, and aliases) and the nodes it ran.
  void known(const SegmentInfo &seg, Where constantsAt) {
    for (auto &[name, value] : seg.constants) {
      rv.values[name] = value;
      Where &w = where[name];
      w.host |= constantsAt.host;
      w.device |= constantsAt.device;
    }
    for (auto &[name, value] : seg.aliases) {
      rv.values[name] = rv.values.at(value);
      auto it = aliasOf.find(value);
      aliasOf[name] = it == aliasOf.end() ? value : it->second;
    }
    for (size_t i : seg.nodes)
      rv.done.insert(i);
  }
  double hostSeconds(double bytes) const {
    return hostBandwidth > 0 ? bytes / hostBandwidth : 0;
  }
};

void SegmentRunner::step(SegmentStep s) {
  s.start = clock;
  clock += s.seconds;
  switch (s.kind) {
  case SegmentStep::Device:
    out.deviceSeconds += s.seconds;
    break;
  case SegmentStep::Host:
    out.hostSeconds += s.seconds;
    break;
  case SegmentStep::ToHost:
  case SegmentStep::ToDevice:
    out.linkSeconds += s.seconds;
    out.linkBytes += s.bytes;
    break;
  }
  if (out.timed && s.kind != SegmentStep::Device) {
    // The host's work and the link's transfers, on tracks of their own.
    sim::OpRecord r;
    bool host = s.kind == SegmentStep::Host;
    r.name = host ? s.name : (s.kind == SegmentStep::ToHost ? "to host " : "to device ") + s.name;
    r.kind = host ? "host" : "host transfer";
    r.resource = host ? "host" : "host link";
    r.start = s.start;
    r.end = s.start + s.seconds;
    r.bytes = s.bytes;
    r.source = host ? s.name : s.detail;
    r.cause = out.timeline.ops.empty() ? -1 : int32_t(out.timeline.ops.size() - 1);
    r.wait = r.cause < 0 ? sim::Wait::None : sim::Wait::Data;
    out.timeline.criticalPath.push_back(
        {int32_t(out.timeline.ops.size()), r.start, r.end, r.wait});
    auto u = llvm::find_if(out.timeline.utilization, [&](const sim::Utilization &x) {
      return x.resource == r.resource;
    });
    if (u == out.timeline.utilization.end())
      out.timeline.utilization.push_back({r.resource, s.seconds});
    else
      u->busySeconds += s.seconds;
    out.timeline.ops.push_back(std::move(r));
  }
  out.steps.push_back(std::move(s));
}

ref::Tensor SegmentRunner::landed(const std::string &value) {
  const ref::Tensor &sent = rv.values.at(value);
  auto differs = [&](const ref::Tensor &x) {
    return std::memcmp(x.bytes(), sent.bytes(), sent.byteSize()) != 0;
  };
  // Planted on the first value it changes (a symmetric matrix read with
  // swapped strides, or zeros read for zeros, would plant nothing).
  if (fault.name == "host-layout") {
    // A matrix written with its two minor strides swapped.
    if (std::optional<ref::Tensor> swapped = bisect::swapMinorStrides(sent);
        swapped && differs(*swapped)) {
      fault = {};
      out.faulted = value;
      return *swapped;
    }
  } else if (fault.name == "host-stale") {
    // Read before the copy lands: the buffer holds what an earlier value
    // of its size left there (the allocator reuses it), else zeros.
    std::optional<ref::Tensor> stale;
    for (auto &[name, held] : deviceCopies)
      if (held.dtype() == sent.dtype() && held.shape() == sent.shape() &&
          differs(held)) {
        stale = held.clone();
        break;
      }
    if (!stale && differs(ref::Tensor(sent.dtype(), sent.shape())))
      stale = ref::Tensor(sent.dtype(), sent.shape());
    if (stale) {
      fault = {};
      out.faulted = value;
      return *stale;
    }
  }
  return sent;
}

void SegmentRunner::cross(const std::string &value, const std::string &node,
                          bool toHost) {
  Where &w = whereOf(value);
  bool &there = toHost ? w.host : w.device;
  if (there)
    return;
  there = true;
  if (!toHost)
    deviceCopies[original(value)] = landed(value);
  if (!link)
    return;
  double bytes = double(rv.values.at(value).byteSize());
  step({toHost ? SegmentStep::ToHost : SegmentStep::ToDevice, value, node,
        int64_t(bytes), 0, 0, 0, target::transferSeconds(*t, *link, bytes)});
}

Status SegmentRunner::importSegment(const std::set<size_t> &host,
                                    SegmentInfo &seg,
                                    OwningOpRef<ModuleOp> &module, bool padded) {
  rv.host = host;
  ONNXImportOptions io;
  io.runtime = &rv;
  io.segment = &seg;
  io.maxDims = maxDims;
  io.padBounded = padded;
  io.noWeights = opts.model.noWeights;
  // A host segment computes with what it reads, initializers included.
  if (!host.empty()) {
    io.inlineLimitBytes = int64_t(1) << 40;
    io.foldLimitElements = int64_t(1) << 40;
  }
  ImportResult r = importONNX(opts.model.model, ctx, io);
  if (r.status != Status::Ok)
    return r.status;
  module = std::move(r.module);
  return Status::Ok;
}

FailureOr<SmallVector<ref::Tensor>>
SegmentRunner::evaluate(func::FuncOp func, ArrayRef<ref::Tensor> args) {
  if (std::optional<graph::Fp32Matmul> mode = graph::fp32MatmulNamed(opts.fp32Matmul);
      mode && *mode != graph::Fp32Matmul::IEEE)
    graph::setFp32Matmul(func, *mode);
  ref::EvalOptions eo;
  eo.fp64Accumulate = opts.fp64Accumulate;
  ref::Evaluator evaluator(eo);
  return evaluator.run(func, args);
}


Status SegmentRunner::deviceSegment(ModuleOp module, SegmentInfo &seg,
                                    ModuleOp padded, const SegmentInfo *pseg) {
  auto func = module.lookupSymbol<func::FuncOp>("main");
  SmallVector<ref::Tensor> args;
  // Constants alone (what the host made, returned as it is) need no device.
  bool work = false;
  func.walk([&](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "graph" &&
        !isa<graph::ConstantOp, graph::WeightOp>(op))
      work = true;
  });
  int index = deviceSegments++;
  std::string name = "segment " + std::to_string(index);
  SegmentStep s{SegmentStep::Device, name, "", 0, 0, int64_t(seg.nodes.size()),
                0, 0};
  SmallVector<ref::Tensor> results;
  bool onDevice = t && work;
  // The results the schedule streamed to the host's memory (a device with
  // no DRAM: Target::hostLevel): they are on the host already, their
  // transfer in the segment's time.
  SmallVector<bool> streamedToHost(seg.results.size(), false);
  if (onDevice && padded) {
    for (const SegmentInfo::Made &m : seg.made)
      if (m.bound > 0)
        s.bounds.push_back({m.node, m.value, m.dim, m.bound, m.count});
    std::tie(s.exactFlops, s.exactBytes) = graphWork(func);
    std::tie(s.flops, s.bytesMoved) =
        graphWork(padded.lookupSymbol<func::FuncOp>("main"));
  }
  if (onDevice) {
    for (const std::string &arg : seg.args)
      toDevice(arg, name);
  }
  // What the segment reads: the device's copies (the host's own values
  // where it evaluates the segment).
  for (const std::string &arg : seg.args)
    args.push_back(onDevice ? deviceValue(arg) : rv.values.at(arg));
  if (out.keep && onDevice) {
    SegmentedRun::Segment kept;
    kept.index = index;
    kept.module = module.clone();
    kept.argNames = seg.args;
    kept.resultNames = seg.results;
    kept.args.assign(args.begin(), args.end());
    out.segments.push_back(std::move(kept));
  }
  if (onDevice) {
    // Values for the next segment's shapes even when only time is asked.
    if (opts.timeOnly) {
      auto values = evaluate(func, args);
      if (failed(values))
        return Status::RuntimeError;
      results = std::move(*values);
    }
    if (Status st = compileForRun(module, *t, compileOpts, printer); st != Status::Ok)
      return st;
    RunOptions so = opts;
    so.trace.clear();
    sim::Result r;
    if (Status st = simulateForRun(findProgram(module), *t, args, so, r, printer);
        st != Status::Ok)
      return st;
    if (!opts.timeOnly)
      results.assign(r.outputs.begin(), r.outputs.end());
    ModuleOp timed = module;
    if (padded) {
      // The time is the padded schedule's: the one compile a bounded
      // compiler keeps for every count up to the bounds.
      s.exactSeconds = r.seconds;
      if (Status st = compileForRun(padded, *t, compileOpts, printer); st != Status::Ok)
        return st;
      SmallVector<ref::Tensor> pargs;
      for (const std::string &name : pseg->args) {
        auto m = llvm::find_if(pseg->made, [&](const SegmentInfo::Made &x) {
          return x.value == name;
        });
        pargs.push_back(m != pseg->made.end() ? m->tensor : rv.values.at(name));
      }
      so.timeOnly = true;
      r = sim::Result();
      if (Status st = simulateForRun(findProgram(padded), *t, pargs, so, r, printer);
          st != Status::Ok)
        return st;
      timed = padded;
    }
    if (observe)
      if (Status st = observe(findProgram(timed), r, index, clock); st != Status::Ok)
        return st;
    if (const target::MemoryLevel *host = t->hostLevel()) {
      sched::ProgramOp program = findProgram(timed);
      auto ret = cast<sched::ReturnOp>(program.getBlock().getTerminator());
      for (auto [i, v] : llvm::enumerate(ret.getOutputs()))
        if (i < streamedToHost.size())
          streamedToHost[i] =
              cast<sched::BufferType>(v.getType()).getMemory() == host->name;
    }
    s.seconds = r.seconds;
    s.ops = int64_t(r.ops.size());
    // Its simulation on the run's clock.
    int32_t base = int32_t(out.timeline.ops.size());
    for (sim::OpRecord op : r.ops) {
      op.op = nullptr;
      op.start += clock;
      op.end += clock;
      if (op.plannedStart >= 0)
        op.plannedStart += clock;
      if (op.cause >= 0)
        op.cause += base;
      else if (base > 0)
        op.cause = base - 1, op.wait = sim::Wait::Data;
      out.timeline.ops.push_back(std::move(op));
    }
    for (sim::PathStep p : r.criticalPath) {
      if (p.op >= 0)
        p.op += base;
      p.start += clock;
      p.end += clock;
      out.timeline.criticalPath.push_back(p);
    }
    for (const sim::Utilization &u : r.utilization) {
      auto it = llvm::find_if(out.timeline.utilization,
                              [&](const sim::Utilization &x) { return x.resource == u.resource; });
      if (it == out.timeline.utilization.end())
        out.timeline.utilization.push_back(u);
      else
        it->busySeconds += u.busySeconds;
    }
    out.timeline.events += r.events;
  } else {
    auto values = evaluate(func, args);
    if (failed(values))
      return Status::RuntimeError;
    results = std::move(*values);
  }
  step(s);
  if (out.keep && onDevice)
    out.segments.back().results.assign(results.begin(), results.end());
  for (auto [name, value, streamed] :
       llvm::zip(seg.results, results, streamedToHost)) {
    rv.values[name] = value;
    // The reference is the host; a result streamed to the host is there
    // and not on the device (a later segment that reads it copies it in).
    where[name] = {!onDevice || streamed, !streamed};
    if (onDevice && !streamed)
      deviceCopies[name] = value;
  }
  return Status::Ok;
}

Status SegmentRunner::hostSegment(const std::set<size_t> &nodes) {
  SegmentInfo seg;
  OwningOpRef<ModuleOp> module;
  if (Status s = importSegment(nodes, seg, module); s != Status::Ok)
    return s;
  if (seg.nodes.empty()) { // nothing ran: the next round would stall again
    printer.error("the graph cannot be split: its breaks run neither on the "
                  "device nor on the host");
    return Status::Internal;
  }
  std::string names = llvm::join(seg.nodeNames, ", ");
  double bytes = 0;
  for (const SegmentInfo::Read &r : seg.reads) {
    toHost(r.value, names);
    bytes += double(rv.values.at(r.value).byteSize());
  }
  auto func = module->lookupSymbol<func::FuncOp>("main");
  auto results = evaluate(func, {});
  if (failed(results))
    return Status::RuntimeError;
  for (auto [name, value] : llvm::zip(seg.results, *results)) {
    bytes += double(value.byteSize());
    rv.values[name] = value;
    where[name] = {true, false};
  }
  // What folded at import is the host's too.
  for (auto &[name, value] : seg.constants)
    bytes += double(value.byteSize());
  known(seg, {true, false});
  std::vector<std::string> opTypes(seg.nodeOps);
  llvm::sort(opTypes);
  opTypes.erase(std::unique(opTypes.begin(), opTypes.end()), opTypes.end());
  step({SegmentStep::Host, names, llvm::join(opTypes, ", "),
        int64_t(bytes), 0, int64_t(seg.nodes.size()), 0, hostSeconds(bytes)});
  return Status::Ok;
}

Status SegmentRunner::run(const std::map<std::string, ref::Tensor> &inputs) {
  out.timed = link.has_value();
  if (out.timed) {
    // The host is the `cpu` description: what it computes is timed by its
    // memory bandwidth (a lower bound: the data-dependent ops stream).
    target::Target host;
    target::Registry registry(opts.targetDirs);
    std::string err;
    if (registry.find(target::kReferenceTarget, host, err) == Status::Ok)
      hostBandwidth = host.outerLevel().bandwidthBytesPerS.value;
  }
  if (Status s = parseMaxDims(opts.model, maxDims, printer); s != Status::Ok)
    return s;
  compileOpts = opts;
  if (t && parseFault(opts.inject, fault).empty() && isHostLinkFault(fault.name))
    compileOpts.inject.clear();
  else
    fault = {};
  rv.values = inputs;
  // The inputs are on the host and, as for any run, staged on the device.
  for (const auto &[name, value] : inputs) {
    where[name] = {true, true};
    deviceCopies[name] = value;
  }
  std::vector<std::string> outputs;
  for (size_t round = 0;; ++round) {
    SegmentInfo seg;
    OwningOpRef<ModuleOp> module;
    if (Status s = importSegment({}, seg, module); s != Status::Ok)
      return s;
    outputs = seg.outputs;
    for (const GraphBreak &b : seg.breaks)
      if (!llvm::any_of(out.breaks, [&](const GraphBreak &x) { return x.node == b.node; }))
        out.breaks.push_back(b);
    // What the import read (shape operands, conditions, the inputs of what
    // the host computed) reached the host before the segment was compiled.
    for (const SegmentInfo::Read &r : seg.reads)
      if (rv.values.count(r.value))
        toHost(r.value, r.node);
    // What the host computed from them, node by node.
    for (size_t i = 0; i < seg.made.size();) {
      const std::string &node = seg.made[i].node;
      double bytes = 0;
      for (const SegmentInfo::Read &r : seg.reads)
        if (r.node == node && rv.values.count(r.value))
          bytes += double(rv.values.at(r.value).byteSize());
      for (; i < seg.made.size() && seg.made[i].node == node; ++i) {
        const SegmentInfo::Made &m = seg.made[i];
        bytes += double(m.tensor.byteSize());
        rv.values[m.value] = m.tensor;
        where[m.value] = {true, false};
      }
      step({SegmentStep::Host, node, seg.made[i - 1].op,
            int64_t(bytes), 0, 1, 0, hostSeconds(bytes)});
    }
    // Bounded values (--max-dim): the segment again with them padded to
    // their bounds, for the schedule a bounded compiler keeps.
    OwningOpRef<ModuleOp> padded;
    SegmentInfo pseg;
    if (t && !seg.results.empty() &&
        llvm::any_of(seg.made, [](const SegmentInfo::Made &m) { return m.bound > 0; })) {
      const std::string &bounded =
          llvm::find_if(seg.made, [](const SegmentInfo::Made &m) {
            return m.bound > 0;
          })->node;
      // Its diagnostics are the exact import's, already shown.
      HeldDiagnostics held;
      Status ps;
      {
        auto holding = held.hold(&ctx);
        ps = importSegment({}, pseg, padded, /*padded=*/true);
      }
      if (ps != Status::Ok) {
        held.release(); // its own errors: the exact import had none
        return ps;
      }
      if (pseg.nodes != seg.nodes || pseg.args != seg.args ||
          pseg.results != seg.results) {
        printer.error("the bounds of --max-dim change what the segment after '" +
                      bounded +
                      "' holds (a node reads a padded size as data, or only "
                      "some of the node's outputs are bounded); bound every "
                      "output of the node, or run without --max-dim");
        return Status::Unsupported;
      }
    }
    if (!seg.results.empty())
      if (Status s = deviceSegment(*module, seg, padded ? *padded : ModuleOp(),
                                   padded ? &pseg : nullptr);
          s != Status::Ok) {
        out.failedSegment = deviceSegments - 1;
        return s;
      }
    known(seg, {true, true});
    if (seg.left == 0)
      break;
    if (seg.nodes.empty()) {
      // Nothing compiles with what is known: the nodes that broke run on
      // the host (a Loop whose condition the device computes each step).
      if (seg.breakNodes.empty()) {
        printer.error("the graph cannot be split: " + std::to_string(seg.left) +
                      " nodes wait for values no segment makes");
        return Status::Internal;
      }
      if (Status s = hostSegment({seg.breakNodes.begin(), seg.breakNodes.end()});
          s != Status::Ok)
        return s;
    }
  }
  for (const std::string &name : outputs) {
    auto it = rv.values.find(name);
    if (it == rv.values.end()) {
      printer.error("graph output '" + name + "' was not computed");
      return Status::Internal;
    }
    out.outputs.push_back(it->second);
    out.outNames.push_back(name);
  }
  out.seconds = clock;
  out.timeline.seconds = clock;
  if (!fault.name.empty())
    printer.warning("--inject " + opts.inject +
                    ": nothing to plant it in (no value crossed to the device "
                    "that it changes)");
  return Status::Ok;
}

} // namespace

Status dfa::driver::runInSegments(const RunOptions &opts,
                                  const std::map<std::string, ref::Tensor> &inputs,
                                  const target::Target *t, MLIRContext &ctx,
                                  DiagnosticPrinter &printer, SegmentedRun &out,
                                  const SegmentObserver &observe) {
  SegmentRunner runner(opts, t, ctx, printer, out, observe);
  Status s = runner.run(inputs);
  if (out.keep) // also when it failed: what reached the device until then
    out.values = runner.takeValues();
  return s;
}

static llvm::StringRef kindName(SegmentStep::Kind k) {
  switch (k) {
  case SegmentStep::Device:
    return "device";
  case SegmentStep::Host:
    return "host";
  case SegmentStep::ToHost:
    return "to-host";
  case SegmentStep::ToDevice:
    return "to-device";
  }
  return "";
}

void dfa::driver::printSegments(const SegmentedRun &run, llvm::StringRef target) {
  int64_t devices = llvm::count_if(run.steps, [](const SegmentStep &s) {
    return s.kind == SegmentStep::Device;
  });
  int64_t hosts = llvm::count_if(run.steps, [](const SegmentStep &s) {
    return s.kind == SegmentStep::Host;
  });
  int64_t transfers = int64_t(run.steps.size()) - devices - hosts;
  auto &os = llvm::errs();
  os << "dfa-run: " << target << ": " << run.breaks.size() << " graph break"
     << (run.breaks.size() == 1 ? "" : "s") << ", run in " << devices
     << " device segment" << (devices == 1 ? "" : "s") << " and " << hosts
     << " host step" << (hosts == 1 ? "" : "s");
  if (run.timed)
    os << ": " << humanSeconds(run.seconds) << " = device "
       << humanSeconds(run.deviceSeconds) << " + host link "
       << humanSeconds(run.linkSeconds) << " (" << transfers << " transfer"
       << (transfers == 1 ? "" : "s") << ", " << humanBytes(run.linkBytes)
       << ") + host " << humanSeconds(run.hostSeconds);
  os << "\n";
  for (const GraphBreak &b : run.breaks)
    os << "  break at '" << b.node << "' (" << b.op << ")\n";
  for (const SegmentStep &s : run.steps) {
    os << "  ";
    switch (s.kind) {
    case SegmentStep::Device:
      os << s.name << " on the device: " << s.nodes << " node"
         << (s.nodes == 1 ? "" : "s");
      if (run.timed)
        os << ", " << s.ops << " ops";
      break;
    case SegmentStep::Host:
      os << "host: '" << s.name << "' (" << s.detail << "), " << humanBytes(s.bytes);
      break;
    case SegmentStep::ToHost:
    case SegmentStep::ToDevice:
      os << (s.kind == SegmentStep::ToHost ? "to host: '" : "to device: '")
         << s.name << "' for " << (s.kind == SegmentStep::ToHost ? "'" : "")
         << s.detail << (s.kind == SegmentStep::ToHost ? "'" : "") << ", "
         << humanBytes(s.bytes);
      break;
    }
    if (run.timed)
      os << ", " << humanSeconds(s.seconds);
    os << "\n";
    if (s.bounds.empty())
      continue;
    // What the bounds cost: the padded schedule against the exact one.
    for (const SegmentStep::Bound &b : s.bounds)
      os << "    padded: '" << b.value << "' holds " << b.count << " of "
         << b.bound << " along dim " << b.dim << " (--max-dim on '" << b.node
         << "')\n";
    auto waste = [](double padded, double exact) {
      return padded > 0 ? 100 * (padded - exact) / padded : 0.0;
    };
    os << "    padding waste: " << llvm::format("%.1f", waste(s.flops, s.exactFlops))
       << "% of FLOPs (" << roofline::humanNumber(s.flops, "FLOP") << " padded, "
       << roofline::humanNumber(s.exactFlops, "FLOP") << " exact), "
       << llvm::format("%.1f", waste(s.bytesMoved, s.exactBytes)) << "% of bytes ("
       << humanBytes(int64_t(s.bytesMoved)) << ", " << humanBytes(int64_t(s.exactBytes))
       << "); the exact shapes' schedule: " << humanSeconds(s.exactSeconds) << "\n";
  }
}

void dfa::driver::segmentsJson(llvm::json::OStream &j, const SegmentedRun &run) {
  j.attributeObject("segments", [&] {
    if (run.timed) {
      j.attribute("seconds", run.seconds);
      j.attribute("device_seconds", run.deviceSeconds);
      j.attribute("link_seconds", run.linkSeconds);
      j.attribute("host_seconds", run.hostSeconds);
    }
    j.attribute("link_bytes", run.linkBytes);
    j.attributeArray("breaks", [&] {
      for (const GraphBreak &b : run.breaks)
        j.object([&] {
          j.attribute("node", b.node);
          j.attribute("op", b.op);
          j.attribute("reason", b.reason);
        });
    });
    j.attributeArray("steps", [&] {
      for (const SegmentStep &s : run.steps)
        j.object([&] {
          j.attribute("kind", kindName(s.kind));
          j.attribute("name", s.name);
          if (!s.detail.empty())
            j.attribute(s.kind == SegmentStep::Host ? "ops" : "for", s.detail);
          if (s.kind != SegmentStep::Device)
            j.attribute("bytes", s.bytes);
          else if (run.timed)
            j.attribute("schedule_ops", s.ops);
          if (s.kind == SegmentStep::Device || s.kind == SegmentStep::Host)
            j.attribute("nodes", s.nodes);
          if (!s.bounds.empty())
            j.attributeObject("padding", [&] {
              j.attributeArray("bounds", [&] {
                for (const SegmentStep::Bound &b : s.bounds)
                  j.object([&] {
                    j.attribute("node", b.node);
                    j.attribute("value", b.value);
                    j.attribute("dim", b.dim);
                    j.attribute("bound", b.bound);
                    j.attribute("count", b.count);
                  });
              });
              j.attribute("flops", s.flops);
              j.attribute("exact_flops", s.exactFlops);
              j.attribute("bytes", s.bytesMoved);
              j.attribute("exact_bytes", s.exactBytes);
              j.attribute("waste_flops", s.flops > 0 ? (s.flops - s.exactFlops) / s.flops : 0.0);
              j.attribute("waste_bytes", s.bytesMoved > 0
                                             ? (s.bytesMoved - s.exactBytes) / s.bytesMoved
                                             : 0.0);
              j.attribute("exact_seconds", s.exactSeconds);
            });
          if (run.timed) {
            j.attribute("start", s.start);
            j.attribute("seconds", s.seconds);
          }
        });
    });
  });
}
