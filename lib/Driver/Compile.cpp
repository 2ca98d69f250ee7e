//===- Compile.cpp - dfa-compile --------------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ModelFlags.h"
#include "Format.h"
#include "Pipeline.h"
#include "Requests.h"
#include "RunTarget.h"

#include "dfa/Driver/Driver.h"
#include "dfa/Driver/Tools.h"

#include "dfa/Support/DimExpr.h"
#include "dfa/Support/Limits.h"
#include "dfa/Support/Progress.h"
#include "dfa/Target/Target.h"
#include "dfa/Pipeline/Pipeline.h"

#include "dialects/Sched/CompileStats.h"
#include "dialects/Sched/SchedOps.h"
#include "dfa/Transforms/TargetModel.h"

#include "mlir/Debug/Counter.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "mlir/IR/AsmState.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

static int listTargets(const CompileOptions &opts, DiagnosticPrinter &printer) {
  target::Registry registry(opts.targetDirs);
  std::vector<target::Target> targets;
  std::string err;
  if (Status s = registry.list(targets, err); s != Status::Ok) {
    printer.error(err);
    return exitCode(s);
  }
  if (opts.json) {
    llvm::json::OStream j(llvm::outs(), 2);
    j.object([&] {
      j.attribute("schema", "dfa.targets/1");
      j.attributeArray("targets", [&] {
        for (const auto &t : targets)
          j.object([&] {
            j.attribute("name", t.name);
            j.attribute("family", t.family);
            j.attribute("description", t.description);
            j.attribute("file", t.file);
            j.attributeObject("compiler", [&] {
              const target::Capabilities &c = t.caps;
              j.attribute("fusion", target::name(c.fusion));
              j.attribute("tiling", target::name(c.tiling));
              j.attribute("placement", target::name(c.placement));
              j.attribute("plan", c.staticPlan ? "static" : "dynamic");
              j.attribute("timing", c.cycleExact ? "cycle-exact" : "events");
              j.attribute("staging", c.staging);
              j.attribute("double_buffering", c.doubleBuffering);
              j.attribute("relayout_minor_dim", c.relayoutMinorDim);
              j.attribute("transpose_folding", c.transposeFolding);
              j.attribute("weight_streaming", c.weightStreaming);
              j.attribute("reference", c.reference);
              j.attribute("matrix_model", target::name(c.matrixModel));
            });
            j.attribute("clock_hz", t.clockHz.value);
            j.attribute("units", t.units.value);
            j.attributeObject("peak_flops", [&] {
              for (const auto &[dt, v] : t.peakFlops)
                j.attribute(dt, v.value);
            });
            j.attributeArray("memory", [&] {
              for (const auto &m : t.memory)
                j.object([&] {
                  j.attribute("name", m.name);
                  j.attribute("capacity_bytes", m.capacityBytes.value);
                  j.attribute("bandwidth_bytes_per_s", m.bandwidthBytesPerS.value);
                  j.attribute("scope", m.scope);
                });
            });
          });
      });
    });
    llvm::outs() << "\n";
    return 0;
  }
  for (const auto &t : targets)
    llvm::outs() << target::summary(t) << "\n";
  return 0;
}

namespace {

struct TargetResult {
  target::Target t;
  Status status = Status::Ok;
  std::string file;
  /// With --buckets: the bucket this schedule is for, and the padding of
  /// the smallest size it serves (FLOPs and bytes, padded against exact).
  std::optional<BucketVariant> bucket;
  double worstFlopsWaste = 0, worstBytesWaste = 0;
  /// The module's graph.guards: what the schedule assumed of its inputs.
  std::map<std::string, llvm::json::Value> guards;
  /// The schedule's `stats`, when one was made.
  std::optional<sched::CompileStats> stats;
};

std::string modelStem(llvm::StringRef path) {
  llvm::StringRef name = llvm::sys::path::filename(path);
  for (llvm::StringRef ext : {".fx.json", ".onnx", ".csv", ".mlir"})
    if (name.ends_with(ext))
      return name.drop_back(ext.size()).str();
  return name.str();
}

Status writeModule(ModuleOp m, llvm::StringRef path, bool locations,
                   DiagnosticPrinter &printer) {
  if (path == "-")
    progress::clear(); // stdout may share the terminal with the line
  std::string err;
  auto out = openOutputFile(path, &err);
  if (!out) {
    printer.error(err);
    return Status::IOError;
  }
  OpPrintingFlags flags;
  if (locations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  m->print(out->os(), flags);
  out->keep();
  return Status::Ok;
}


std::string humanCount(double v) {
  const char *units[] = {"", "K", "M", "G", "T", "P"};
  int u = 0;
  while (v >= 1000 && u < 5) {
    v /= 1000;
    ++u;
  }
  return u == 0 ? llvm::formatv("{0}", int64_t(v)).str()
                : llvm::formatv("{0:f1}{1}", v, units[u]).str();
}

/// The largest peak among the target's on-chip levels, and its name.
std::pair<std::string, int64_t> onChipPeak(const TargetResult &r) {
  std::pair<std::string, int64_t> best = {"-", 0};
  for (const target::MemoryLevel &m : r.t.memory) {
    if (m.kind == "dram")
      continue;
    auto it = r.stats->peakBytes.find(m.name);
    if (it != r.stats->peakBytes.end() && it->second > best.second)
      best = {m.name, it->second};
  }
  return best;
}

void printTable(llvm::raw_ostream &os, const std::vector<TargetResult> &results) {
  bool buckets = !results.empty() && results.front().bucket;
  if (buckets)
    os << llvm::formatv("{0,-16} ", "bucket");
  os << llvm::formatv("{0,-10} {1,7} {2,7} {3,7} {4,11} {5,10} {6,9} {7,6} "
                      "{8,18} {9,5} {10,12}",
                      "target", "kernels", "fusions", "refused", "pad bytes",
                      "pad FLOPs", "relayouts", "spills", "peak on-chip",
                      "chips", "cycles");
  os << (buckets ? "  worst padding (FLOPs, bytes)\n" : "\n");
  for (const TargetResult &r : results) {
    if (buckets)
      os << llvm::formatv("{0,-16} ", r.bucket->label());
    if (r.status != Status::Ok || !r.stats) {
      os << llvm::formatv("{0,-10} failed (exit {1})\n", r.t.name,
                          exitCode(r.status));
      continue;
    }
    const sched::CompileStats &s = *r.stats;
    auto [level, peak] = onChipPeak(r);
    std::string peakStr = peak ? humanBytes(peak) + " " + level : "-";
    std::string cycles =
        s.cycles ? humanCount(double(*s.cycles)) : std::string("dynamic");
    os << llvm::formatv("{0,-10} {1,7} {2,7} {3,7} {4,11} {5,10} {6,9} {7,6} "
                        "{8,18} {9,5} {10,12}",
                        r.t.name, s.kernels, s.fusions, s.fusionsRefused.size(),
                        humanBytes(s.padBytes), humanCount(double(s.padFlops)),
                        s.relayouts, s.spills.size(), peakStr, s.chips, cycles);
    if (buckets) {
      std::string from = formatDims(r.bucket->smallest);
      if (std::isnan(r.worstFlopsWaste))
        os << "  - (the model does not import at " << from << ")";
      else
        os << llvm::formatv("  {0,5:f1}%, {1,5:f1}% (from {2})",
                            100 * r.worstFlopsWaste, 100 * r.worstBytesWaste, from);
    }
    os << "\n";
  }
  for (const TargetResult &r : results)
    if (!r.t.overrides.empty())
      os << r.t.name << ": --set " << target::overridesText(r.t.overrides)
         << "\n";
}

/// The dfa.compile/1 summary. Written beside the schedules (`besideFiles`),
/// it names them relative to itself, so that the folder can move; printed
/// (--json), as they were written.
void writeSummary(llvm::raw_ostream &os, const CompileOptions &opts,
                  const std::vector<TargetResult> &results, bool besideFiles) {
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attribute("schema", "dfa.compile/1");
    j.attribute("model", opts.model.model);
    j.attributeArray("targets", [&] {
      for (const TargetResult &r : results)
        j.object([&] {
          j.attribute("target", r.t.name);
          target::writeOverrides(j, r.t.overrides);
          j.attribute("family", r.t.family);
          j.attribute("exit_code", exitCode(r.status));
          if (r.bucket)
            j.attributeObject("bucket", [&] {
              j.attributeObject("dims", [&] {
                for (auto &[name, v] : r.bucket->dims)
                  j.attribute(name, v);
              });
              j.attributeObject("smallest", [&] {
                for (auto &[name, v] : r.bucket->smallest)
                  j.attribute(name, v);
              });
              auto waste = [](double w) {
                return std::isnan(w) ? llvm::json::Value(nullptr) : llvm::json::Value(w);
              };
              j.attribute("worst_padding_waste_flops", waste(r.worstFlopsWaste));
              j.attribute("worst_padding_waste_bytes", waste(r.worstBytesWaste));
            });
          if (!r.file.empty())
            j.attribute("file", besideFiles
                                    ? llvm::sys::path::filename(r.file).str()
                                    : r.file);
          if (r.status != Status::Ok || !r.stats)
            return;
          const sched::CompileStats &s = *r.stats;
          j.attribute("kernels", s.kernels);
          j.attribute("ops", s.ops);
          j.attribute("fusions", s.fusions);
          j.attribute("relayouts", s.relayouts);
          j.attribute("dmas", s.dmas);
          j.attribute("dma_bytes", s.dmaBytes);
          j.attribute("chips", s.chips);
          j.attributeArray("fusions_refused", [&] {
            for (const sched::CompileStats::Refusal &f : s.fusionsRefused)
              j.object([&] {
                j.attribute("op", f.op);
                j.attribute("kernel", f.kernel);
                j.attribute("reason", f.reason);
              });
          });
          j.attributeObject("padding", [&] {
            j.attribute("bytes", s.padBytes);
            j.attribute("flops", s.padFlops);
          });
          j.attributeArray("spills", [&] {
            for (const sched::CompileStats::Spill &sp : s.spills)
              j.object([&] {
                j.attribute("kernel", sp.kernel);
                j.attribute("reason", sp.reason);
              });
          });
          j.attributeArray("chunked", [&] {
            for (const sched::CompileStats::Chunking &c : s.chunked)
              j.object([&] {
                j.attribute("kernel", c.kernel);
                j.attribute("dim", c.dim);
                j.attribute("chunks", c.chunks);
                j.attribute("extent", c.extent);
              });
          });
          j.attributeObject("peak_bytes", [&] {
            for (const auto &[level, bytes] : s.peakBytes)
              j.attribute(level, bytes);
          });
          j.attribute("weight_streaming", s.weightStreaming);
          j.attributeObject("guards", [&] {
            for (auto &[name, v] : r.guards)
              j.attribute(name, v);
          });
          if (s.cycles)
            j.attribute("cycles", *s.cycles);
          else
            j.attribute("cycles", nullptr);
        });
    });
  });
  os << "\n";
}
} // namespace

namespace {
/// Writes the IR after the last pass of each stage (`--dump-dir`).
class StageDumps : public PassInstrumentation {
public:
  StageDumps(llvm::ArrayRef<StageEnd> ends,
             std::function<Status(int)> dump, Status &status)
      : ends(ends.begin(), ends.end()), dump(std::move(dump)), status(status) {}

  void runAfterPass(Pass *pass, Operation *) override {
    for (const StageEnd &e : ends)
      if (e.pass == pass && status == Status::Ok)
        status = dump(int(e.stage));
  }

private:
  llvm::SmallVector<StageEnd> ends;
  std::function<Status(int)> dump;
  Status &status;
};
} // namespace

Status dfa::driver::runPipeline(ModuleOp module, const target::Target &t, int from, int to,
                   const CompileOptions &opts, DiagnosticPrinter &printer) {
  MLIRContext *ctx = module.getContext();
  if (to > from) {
    int64_t ops = 0;
    module.walk([&](Operation *) { ++ops; });
    double need = limits::kCompileBytesPerOp * (double)ops;
    if (!limits::fits(need)) {
      printer.error("compiling " + std::to_string(ops) + " ops for " + t.name +
                    " needs about " + limits::formatSize(need) + ", " +
                    limits::overBudget());
      return Status::LimitExceeded;
    }
  }
  // The graph stage's dump names its target too.
  setModuleTarget(module, t);
  auto dump = [&](int stage) -> Status {
    if (opts.dumpDir.empty())
      return Status::Ok;
    llvm::SmallString<256> dir(opts.dumpDir);
    llvm::sys::path::append(dir, t.name);
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      printer.error("cannot create '" + dir.str().str() + "': " + ec.message());
      return Status::IOError;
    }
    llvm::SmallString<256> file(dir);
    llvm::sys::path::append(file, llvm::formatv("{0:2}-{1}.mlir", stage,
                                                stageName(Stage(stage))).str());
    std::replace(file.begin(), file.end(), ' ', '0');
    return writeModule(module, file, opts.printLocations, printer);
  };
  if (from == 0)
    if (Status s = dump(0); s != Status::Ok)
      return s;
  if (to <= from)
    return Status::Ok;

  // One pass manager for the whole range: MLIR's pass-manager options
  // (--mlir-timing, IR printing, statistics, crash reproducers) see the
  // pipeline as one.
  PassManager pm(ctx);
  if (Status s = applyMlirOptions(pm); s != Status::Ok)
    return s;
  PassTarget target;
  target.target = std::make_shared<const target::Target>(t);
  target.failure = std::make_shared<Status>(Status::Ok);
  PipelineOptions options;
  options.targetDirs = opts.targetDirs;
  options.remarks = opts.remarks;
  options.inject = opts.inject;
  options.fp32Matmul = opts.fp32Matmul;
  options.tensorParallel = opts.tensorParallel;
  llvm::SmallVector<StageEnd> ends;
  buildPipeline(pm, target, Stage(from), Stage(to), options, &ends);
  Status dumped = Status::Ok;
  if (!opts.dumpDir.empty())
    pm.addInstrumentation(std::make_unique<StageDumps>(ends, dump, dumped));

  // Pass bisection: an MLIR debug counter stops the last stage's pass
  // executions after the limit; earlier stages run whole.
  std::optional<mlir::tracing::DebugCounter> counter;
  llvm::SmallPtrSet<const Pass *, 4> lastStage;
  if (opts.lastStagePassLimit >= 0) {
    size_t n = stagePasses(Stage(to)).size();
    for (Pass &p : llvm::drop_begin(pm.getPasses(), pm.size() - n))
      lastStage.insert(&p);
    counter.emplace();
    counter->addCounter("pass-execution", 0, opts.lastStagePassLimit);
    ctx->registerActionHandler([&](llvm::function_ref<void()> transform,
                                   const mlir::tracing::Action &action) {
      if (action.getTag() == PassExecutionAction::tag &&
          lastStage.contains(
              &static_cast<const PassExecutionAction &>(action).getPass()))
        (*counter)(transform, action);
      else
        transform();
    });
  }
  LogicalResult ran = pm.run(module);
  if (counter)
    ctx->registerActionHandler(nullptr);
  if (dumped != Status::Ok)
    return dumped;
  if (failed(ran))
    return *target.failure != Status::Ok ? *target.failure : Status::Internal;
  return Status::Ok;
}

int dfa::driver::compileMain(const CompileOptions &opts) {
  // MLIR's own options first: some apply to the context made next.
  if (Status s = parseMlirOptions("dfa-compile", opts.mlirOptions);
      s != Status::Ok)
    return exitCode(s);
  auto ctx = createContext();
  DiagnosticPrinter printer(*ctx, "dfa-compile");
  if (opts.listTargets)
    return listTargets(opts, printer);
  if (opts.model.model.empty()) {
    printer.error("no model given");
    return exitCode(Status::Usage);
  }
  if (opts.check)
    return checkMain(opts, *ctx, printer);
  std::string emit =
      opts.emit.empty()
          ? stageName(opts.target.empty() && opts.compileFrom.empty()
                          ? Stage::Graph
                          : Stage::Sched)
                .str()
          : opts.emit;
  int to = stageIndex(emit);
  int from = opts.compileFrom.empty() ? 0 : stageIndex(opts.compileFrom);
  if (to < 0 || from < 0) {
    printer.error("unknown stage '" + (to < 0 ? emit : opts.compileFrom) +
                  "' (stages: " + stageList() + ")");
    return exitCode(Status::Usage);
  }
  if (from >= to && !(from == 0 && to == 0)) {
    printer.error("--compile-from=" + opts.compileFrom + " must come before --emit=" + emit);
    return exitCode(Status::Usage);
  }
  // graph-shard partitions in the decomposed stage: a later stage is
  // already one chip's program or the whole model's.
  if (opts.tensorParallel > 1 && to < int(Stage::Decomposed) && to >= 0) {
    printer.error("--tensor-parallel partitions the model in the decomposed "
                  "stage (graph-shard); --emit=" + emit +
                  " stops before it");
    return exitCode(Status::Usage);
  }
  if (opts.tensorParallel > 1 && from >= int(Stage::Decomposed)) {
    printer.error("--tensor-parallel partitions the model in the decomposed "
                  "stage (graph-shard); --compile-from=" + opts.compileFrom +
                  " starts after it: its input was partitioned, or not, "
                  "when it was compiled");
    return exitCode(Status::Usage);
  }
  ONNXImportOptions importOpts;
  Status s = buildImportOptions(opts.model, {}, {}, importOpts, printer);
  if (s != Status::Ok)
    return exitCode(s);
  // --buckets: one schedule per bucket (each bucketed dim bound to one of
  // its sizes), else the one the flags bind.
  std::map<std::string, std::vector<int64_t>> buckets;
  if (Status st = parseBucketFlags(opts.model, importOpts, buckets, printer);
      st != Status::Ok)
    return exitCode(st);
  std::vector<BucketVariant> variants = bucketVariants(buckets);
  if (!buckets.empty() &&
      (opts.emit.empty() ? opts.target.empty() : stageIndex(opts.emit) == 0)) {
    printer.error("--buckets compiles a schedule per bucket: name the targets with --target");
    return exitCode(Status::Usage);
  }
  // With buckets, the first bucket's import (each is imported below).
  ImportResult r;
  double flopsWaste = 0, bytesWaste = 0;
  if (buckets.empty())
    r = loadModel(opts.model.model, *ctx, importOpts);
  else if (Status st = importBucket(opts.model.model, *ctx, importOpts,
                                    variants.front(), r, flopsWaste, bytesWaste,
                                    printer);
           st != Status::Ok)
    return exitCode(st);
  if (r.status != Status::Ok)
    return exitCode(r.status);

  // Targets: --target, or the one a resumed file was compiled for.
  std::string spec = opts.target;
  if (spec.empty())
    if (auto a = r.module->getOperation()->getAttrOfType<StringAttr>(graph::kTargetAttr))
      spec = a.str();
  // Overrides: --set, or those the resumed file's target was given (also
  // when --target names that same target again: its earlier stages were
  // compiled with them). Another target does not take them, with a warning.
  std::vector<std::string> overrides = opts.overrides;
  if (overrides.empty()) {
    std::vector<std::string> recorded = moduleTargetOverrides(*r.module);
    auto a = r.module->getOperation()->getAttrOfType<StringAttr>(graph::kTargetAttr);
    if (opts.target.empty() || (a && a.getValue() == opts.target))
      overrides = recorded;
    else if (!recorded.empty())
      printer.warning("the input was compiled for '" + (a ? a.str() : std::string("?")) +
                      "' with --set " + llvm::join(recorded, " --set ") +
                      "; --target " + opts.target + " does not take them");
  }
  std::vector<target::Target> targets;
  if (to > 0 || !spec.empty()) {
    if (spec.empty()) {
      printer.error("--emit=" + emit + " needs --target NAME[,NAME...]|all");
      return exitCode(Status::Usage);
    }
    target::Registry registry(opts.targetDirs, overrides);
    std::string err;
    if (Status st = registry.resolve(spec, targets, err); st != Status::Ok) {
      printer.error(err);
      return exitCode(st);
    }
    for (const std::string &why : registry.skipped())
      printer.warning("left out " + why);
  }

  // One output file, or a directory of them.
  bool toDir = false;
  if (opts.output != "-") {
    if (llvm::sys::fs::equivalent(opts.output, opts.model.model)) {
      printer.error("refusing to overwrite the input model '" + opts.model.model + "'");
      return exitCode(Status::Usage);
    }
    toDir = llvm::sys::fs::is_directory(opts.output) ||
            llvm::StringRef(opts.output).ends_with("/") || targets.size() > 1;
  }
  if (targets.empty()) // --emit=graph
    return exitCode(writeModule(*r.module, opts.output, opts.printLocations, printer));
  if (toDir)
    if (std::error_code ec = llvm::sys::fs::create_directories(opts.output)) {
      printer.error("cannot create '" + opts.output + "': " + ec.message());
      return exitCode(Status::IOError);
    }

  std::vector<TargetResult> results;
  Status first = Status::Ok;
  bool quietTable = targets.size() == 1 && !toDir && buckets.empty();
  if (!buckets.empty() && opts.output != "-" && !toDir) {
    toDir = true; // a schedule per bucket: a folder of them
    if (std::error_code ec = llvm::sys::fs::create_directories(opts.output)) {
      printer.error("cannot create '" + opts.output + "': " + ec.message());
      return exitCode(Status::IOError);
    }
  }
  { // the progress line ends before the results are printed
    progress::Task task("compiling", int64_t(targets.size() * variants.size()));
    for (const BucketVariant &variant : variants) {
    std::optional<BucketVariant> bucket;
    if (!buckets.empty()) {
      bucket = variant;
      if (variant.dims != variants.front().dims)
        if (Status st = importBucket(opts.model.model, *ctx, importOpts, variant,
                                     r, flopsWaste, bytesWaste, printer);
            st != Status::Ok)
          return exitCode(st);
    }
    std::map<std::string, llvm::json::Value> guards;
    if (auto g = r.module->getOperation()->getAttrOfType<DictionaryAttr>(graph::kGuardsAttr))
      for (NamedAttribute a : g) {
        if (auto i = dyn_cast<IntegerAttr>(a.getValue()))
          guards.emplace(a.getName().str(), i.getInt());
        else if (auto s = dyn_cast<StringAttr>(a.getValue()))
          guards.emplace(a.getName().str(), s.str());
      }
    for (const target::Target &t : targets) {
      task.advance(t.name + (bucket ? " " + bucket->label() : std::string()));
      TargetResult res;
      res.t = t;
      res.bucket = bucket;
      res.worstFlopsWaste = flopsWaste;
      res.worstBytesWaste = bytesWaste;
      res.guards = guards;
      OwningOpRef<ModuleOp> m = cast<ModuleOp>((*r.module)->clone());
      res.status = runPipeline(*m, t, from, to, opts, printer);
      // Several targets without -o: the summary only.
      // --json without -o: the summary only.
      bool write = toDir || opts.output != "-" || (targets.size() == 1 && !opts.json);
      if (res.status == Status::Ok)
        if (auto prog = m->lookupSymbol<sched::ProgramOp>("main"))
          res.stats = sched::CompileStats::fromAttr(prog.getStatsAttr());
      if (res.status == Status::Ok && write) {
        std::string path = opts.output;
        if (toDir) {
          llvm::SmallString<256> p(opts.output);
          std::string tag;
          if (bucket)
            for (auto &[name, v] : bucket->dims)
              tag += "." + name + std::to_string(v);
          llvm::sys::path::append(p, modelStem(opts.model.model) + "." + t.name +
                                         tag + "." + emit + ".mlir");
          path = p.str().str();
        }
        res.status = writeModule(*m, path, opts.printLocations, printer);
        if (toDir)
          res.file = path;
      }
      if (first == Status::Ok && res.status != Status::Ok)
        first = res.status;
      results.push_back(std::move(res));
    }
    }
  }
  if (emit != stageName(Stage::Sched))
    return exitCode(first);
  if (toDir) {
    llvm::SmallString<256> p(opts.output);
    llvm::sys::path::append(p, modelStem(opts.model.model) + ".compile.json");
    std::string err;
    auto out = openOutputFile(p, &err);
    if (!out) {
      printer.error(err);
      return exitCode(Status::IOError);
    }
    writeSummary(out->os(), opts, results, /*besideFiles=*/true);
    out->keep();
  }
  if (opts.json)
    writeSummary(llvm::outs(), opts, results, /*besideFiles=*/false);
  else if (!quietTable)
    printTable(llvm::outs(), results);
  return exitCode(first);
}
