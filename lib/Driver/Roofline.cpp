//===- Roofline.cpp - dfa-roofline: profile schedules against their roofs --===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// A model is imported once (shapes only: no weight data is needed) and
/// compiled per target; saved schedules are read as they are. Each schedule
/// is simulated for time (unless --analytic) and profiled (lib/Roofline).
/// A target that fails is reported and skipped; the exit code is the first
/// failure's.
///
//===----------------------------------------------------------------------===//

#include "ModelFlags.h"
#include "Pipeline.h"
#include "RooflineDriver.h"
#include "Partition.h"
#include "Requests.h"
#include "RunTarget.h"

#include "dfa/Roofline/Measured.h"
#include "dfa/Roofline/Roofline.h"
#include "dfa/Support/Progress.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

Status dfa::driver::profile(sched::ProgramOp program, const target::Target &t,
                           const RooflineOptions &opts, llvm::StringRef model,
                           std::vector<roofline::Report> &reports,
                           DiagnosticPrinter &printer) {
  sim::Result timing;
  if (!opts.analytic) {
    RunOptions ro;
    ro.timeOnly = true;
    if (Status s = simulateForRun(program, t, {}, ro, timing, printer);
        s != Status::Ok)
      return s;
  }
  reports.push_back(
      roofline::analyze(program, t, opts.analytic ? nullptr : &timing));
  reports.back().model = model.str();
  return Status::Ok;
}

namespace {

/// Writes `write(os)` to `path`, keeping no partial file on failure.
template <typename F>
Status writeFile(const std::string &path, DiagnosticPrinter &printer, F write) {
  std::string err;
  auto out = openOutputFile(path, &err);
  if (!out) {
    printer.error(err);
    return Status::IOError;
  }
  write(out->os());
  out->keep();
  return Status::Ok;
}

/// FILE for one target; FILE's stem + "-TARGET" + its extension for several.
std::string perTarget(llvm::StringRef file, llvm::StringRef target, bool several) {
  if (!several)
    return file.str();
  llvm::SmallString<128> p(file);
  std::string ext = llvm::sys::path::extension(file).str();
  llvm::sys::path::replace_extension(p, "");
  return (p + "-" + target + ext).str();
}

/// A model whose graph breaks: each target runs it in segments (with
/// seeded random inputs: the values decide the shapes), each device
/// segment is profiled, and the reports are joined with the host link's
/// and the host's time (roofline::joinSegments).
int profileSegments(const RooflineOptions &opts,
                    const std::vector<target::Target> &targets,
                    MLIRContext &ctx, const std::string &title,
                    DiagnosticPrinter &printer) {
  if (!opts.graph.empty() || !opts.dot.empty() || !opts.expand.empty()) {
    printer.error("the graph breaks at a value known only at run time: "
                  "--graph, --dot and --expand draw one compiled graph "
                  "(dfa-compile --check lists the breaks)");
    return exitCode(Status::Usage);
  }
  RunOptions ro;
  ro.model = opts.model;
  ro.targetDirs = opts.targetDirs;
  ro.overrides = opts.overrides;
  ro.inject = opts.inject;
  ro.fp32Matmul = opts.fp32Matmul;
  ro.tensorParallel = opts.tensorParallel;
  ro.timeOnly = true; // values come from the CPU reference
  PreparedRun prepared;
  if (Status s = prepareModelRun(ro, {}, {}, ctx, printer, prepared,
                                 /*segments=*/true);
      s != Status::Ok)
    return exitCode(s);
  std::vector<roofline::Report> reports;
  Status first = Status::Ok;
  { // the progress line ends before the results are printed
  progress::Task task("profiling", int64_t(targets.size()));
  for (const target::Target &t : targets) {
    task.advance(t.name);
    std::vector<roofline::SegmentReport> parts;
    SegmentedRun run;
    Status s = runInSegments(
        ro, prepared.inputsByName, &t, ctx, printer, run,
        [&](sched::ProgramOp program, const sim::Result &timing, int index,
            double start) {
          parts.push_back({roofline::analyze(program, t,
                                             opts.analytic ? nullptr : &timing),
                           index, start});
          parts.back().report.model = opts.model.model;
          return Status::Ok;
        });
    if (s != Status::Ok) {
      if (first == Status::Ok)
        first = s;
      continue;
    }
    double device = 0;
    for (const roofline::SegmentReport &p : parts)
      device += p.report.seconds; // the cost model's, with --analytic
    // The breaks' steps on the critical path (nothing overlaps them).
    std::vector<roofline::CriticalStep> between;
    for (const SegmentStep &st : run.steps)
      if (st.kind != SegmentStep::Device && !opts.analytic) {
        bool host = st.kind == SegmentStep::Host;
        between.push_back({host ? "compute" : "dma", host ? "host" : "host link",
                           "data", host ? "host" : "host link",
                           host ? st.name : st.detail, 0, st.start, st.seconds});
      }
    reports.push_back(roofline::joinSegments(
        std::move(parts), std::move(between),
        device + run.linkSeconds + run.hostSeconds,
        run.linkSeconds, run.linkBytes,
        t.host ? t.host->bandwidthBytesPerS.value : 0.0, run.hostSeconds));
    roofline::Report &rep = reports.back();
    rep.target = t.name;
    rep.overrides = t.overrides;
    rep.family = t.family;
    rep.model = opts.model.model;
  }
  }
  Status out = writeOutputs(reports, opts, title, printer);
  return exitCode(first != Status::Ok ? first : out);
}

} // namespace


Status dfa::driver::writeOutputs(const std::vector<roofline::Report> &reports,
                                 const RooflineOptions &opts,
                                 llvm::StringRef title,
                                 DiagnosticPrinter &printer,
                                 const roofline::LLMSweep *llm,
                                 const roofline::SourceGraph *graph) {
  Status first = Status::Ok;
  auto note = [&](Status s) {
    if (first == Status::Ok)
      first = s;
  };
  // The graph: one drawing for one or two targets, else one per target.
  // The DOT is written whatever Graphviz says; the report shows the first
  // drawing when it is readable (folded to GraphOptions::maxNodes).
  std::string htmlGraph;
  if (graph && (!opts.graph.empty() || !opts.dot.empty() || !opts.html.empty())) {
    std::vector<llvm::ArrayRef<roofline::Report>> drawings;
    if (reports.size() <= 2)
      drawings.push_back(reports);
    else
      for (size_t i = 0; i < reports.size(); ++i)
        drawings.push_back(llvm::ArrayRef(reports).slice(i, 1));
    bool several = drawings.size() > 1;
    roofline::GraphOptions go;
    go.expand = opts.expand;
    for (llvm::ArrayRef<roofline::Report> d : drawings) {
      if (d.empty())
        continue;
      size_t drawn = 0;
      std::string dot = roofline::graphDot(*graph, d, title, go, &drawn);
      if (!opts.dot.empty())
        note(writeFile(perTarget(opts.dot, d.front().target, several), printer,
                       [&](llvm::raw_ostream &os) { os << dot; }));
      bool forHtml = !opts.html.empty() && htmlGraph.empty() &&
                     (!opts.graph.empty() || drawn <= go.maxNodes);
      if (opts.graph.empty() && !forHtml)
        continue;
      if (drawn > roofline::kMaxDrawnNodes) {
        printer.error(llvm::formatv(
            "the graph has {0} nodes to draw a target and no module groups "
            "left to fold; Graphviz draws at most {1} (--dot writes its source)",
            drawn, roofline::kMaxDrawnNodes));
        note(Status::LimitExceeded);
        break;
      }
      std::string svg, err;
      if (!roofline::renderSvg(dot, svg, err)) {
        printer.error(err);
        note(Status::Internal);
        break;
      }
      if (!opts.graph.empty())
        note(writeFile(perTarget(opts.graph, d.front().target, several), printer,
                       [&](llvm::raw_ostream &os) { os << svg; }));
      if (forHtml)
        htmlGraph = std::move(svg); // the report shows the first drawing
    }
  }
  if (opts.json) {
    llvm::json::OStream j(llvm::outs(), 2);
    j.object([&] {
      j.attribute("schema", "dfa.roofline/1");
      j.attribute("model", title);
      j.attribute("scheduling_factor", roofline::kSchedulingFactor);
      if (llm)
        roofline::writeLLMJson(j, *llm);
      j.attributeArray("targets", [&] {
        for (const roofline::Report &r : reports)
          roofline::writeJson(j, r);
      });
    });
    llvm::outs() << "\n";
  } else if (llm) {
    roofline::printLLM(*llm, llvm::outs());
  } else {
    for (const roofline::Report &r : reports) {
      if (opts.byNode)
        roofline::printNodeTable(r, llvm::outs(), opts.top);
      else
        roofline::printTable(r, llvm::outs(), opts.top);
      if (opts.criticalPath && r.simulated) {
        llvm::outs() << "\n";
        roofline::printCriticalPath(r, llvm::outs(), opts.top);
      }
      if (r.measured) {
        llvm::outs() << "\n";
        roofline::printMeasured(r, llvm::outs(), opts.top);
      }
      llvm::outs() << "\n";
    }
  }
  if (!opts.csv.empty())
    note(writeFile(opts.csv, printer, [&](llvm::raw_ostream &os) {
      roofline::writeCsv(reports, os);
    }));
  if (!opts.svg.empty())
    for (const roofline::Report &r : reports)
      note(writeFile(perTarget(opts.svg, r.target, reports.size() > 1), printer,
                     [&](llvm::raw_ostream &os) { roofline::writeSvg(r, os); }));
  if (!opts.html.empty()) {
    note(writeFile(opts.html, printer, [&](llvm::raw_ostream &os) {
      roofline::writeHtml(reports, ("dfa-roofline: " + title).str(), os, llm,
                          htmlGraph);
    }));
    llvm::outs().flush();
    if (first == Status::Ok)
      llvm::errs() << "dfa-roofline: report in " << opts.html << "\n";
  }
  return first;
}

/// The first few groups, for an error message.
static std::string someGroups(const std::vector<std::string> &groups) {
  std::string s;
  for (size_t i = 0; i < groups.size() && i < 5; ++i)
    s += (i ? ", " : "") + groups[i];
  return s + (groups.size() > 5 ? ", ..." : "");
}

static bool isSchedule(llvm::StringRef path) {
  return path.ends_with(".sched.mlir");
}

Status dfa::driver::profileTargets(const RooflineOptions &opts,
                                   target::Registry &registry,
                                   std::vector<target::Target> &targets,
                                   DiagnosticPrinter &printer) {
  std::string err;
  if (Status s = registry.resolve(opts.target, targets, err); s != Status::Ok) {
    printer.error(err);
    return s;
  }
  // (The CPU, which `all` leaves out here anyway, is not worth a warning.)
  for (const std::string &why : registry.skipped())
    if (!llvm::StringRef(why).starts_with(std::string(target::kReferenceTarget) + ":"))
      printer.warning("left out " + why);
  if (opts.target == "all")
    llvm::erase_if(targets,
                   [](const target::Target &t) { return t.caps.reference; });
  for (const target::Target &t : targets)
    if (t.caps.reference) {
      printer.error("the cpu target runs the graph, not a schedule: nothing "
                    "to profile (name an accelerator, or --target all)");
      return Status::Usage;
    }
  return Status::Ok;
}

int dfa::driver::rooflineMain(const RooflineOptions &opts) {
  auto ctx = createContext();
  DiagnosticPrinter printer(*ctx, "dfa-roofline");
  // --measured: the trace is read (and refused) before any profiling.
  std::optional<roofline::Trace> trace;
  if (!opts.measured.empty()) {
    if (!opts.llm.empty()) {
      printer.error("--measured sets one step's trace against its report; "
                    "--llm sweeps many steps (profile the step with --dim)");
      return exitCode(Status::Usage);
    }
    auto buf = llvm::MemoryBuffer::getFile(opts.measured, /*IsText=*/true);
    if (!buf) {
      printer.error("cannot read trace '" + opts.measured +
                    "': " + buf.getError().message());
      return exitCode(Status::IOError);
    }
    trace.emplace();
    std::string err;
    if (Status s = roofline::readTrace(opts.measured, (*buf)->getBuffer(), *trace, err);
        s != Status::Ok) {
      printer.error(err);
      return exitCode(s);
    }
  }
  if (!opts.llm.empty())
    return llmMain(opts);
  target::Registry registry(opts.targetDirs, opts.overrides);
  std::vector<roofline::Report> reports;
  Status first = Status::Ok;
  auto note = [&](Status s) {
    if (first == Status::Ok)
      first = s;
  };
  std::string title = llvm::sys::path::filename(opts.model.model).str();

  // Saved schedules: each names its target.
  std::vector<std::string> schedules = opts.schedules;
  if (isSchedule(opts.model.model))
    schedules.insert(schedules.begin(), opts.model.model);
  else if (!schedules.empty()) {
    printer.error("give either one model or saved .sched.mlir files");
    return exitCode(Status::Usage);
  }
  if (!schedules.empty()) {
    if (trace) {
      printer.error("--measured maps a trace to the model's source nodes: "
                    "give the model, not saved schedules");
      return exitCode(Status::Usage);
    }
    if (!opts.graph.empty() || !opts.dot.empty()) {
      printer.error("--graph and --dot draw a model's source graph: give the "
                    "model, not saved schedules");
      return exitCode(Status::Usage);
    }
    if (opts.tensorParallel > 1) {
      printer.error(kSavedScheduleTensorParallel);
      return exitCode(Status::Usage);
    }
    for (const std::string &file : schedules) {
      if (!isSchedule(file)) {
        printer.error("'" + file + "' is not a saved schedule (.sched.mlir)");
        return exitCode(Status::Usage);
      }
      ImportResult parsed = loadModel(file, *ctx, {});
      if (parsed.status != Status::Ok)
        return exitCode(parsed.status);
      sched::ProgramOp program = findProgram(*parsed.module);
      if (!program) {
        printer.error("'" + file + "' holds no sched.program");
        return exitCode(Status::InvalidModel);
      }
      target::Target t;
      std::string err;
      if (Status s = scheduleTarget(program, opts.targetDirs, opts.overrides,
                                    t, err);
          s != Status::Ok) {
        printer.error(err);
        return exitCode(s);
      }
      note(profile(program, t, opts, file, reports, printer));
    }
    return exitCode(first != Status::Ok
                        ? first
                        : writeOutputs(reports, opts, title, printer));
  }

  std::vector<target::Target> targets;
  if (Status s = profileTargets(opts, registry, targets, printer);
      s != Status::Ok)
    return exitCode(s);
  ModelFlags flags = opts.model;
  flags.noWeights = true; // shapes are all a profile needs
  ONNXImportOptions importOpts;
  if (Status s = buildImportOptions(flags, {}, {}, importOpts, printer);
      s != Status::Ok)
    return exitCode(s);
  // --buckets: a profile per bucket and target.
  std::map<std::string, std::vector<int64_t>> buckets;
  if (Status s = parseBucketFlags(opts.model, importOpts, buckets, printer);
      s != Status::Ok)
    return exitCode(s);
  std::vector<BucketVariant> variants = bucketVariants(buckets);
  ImportResult r;
  {
    // An ONNX graph that breaks is profiled in segments: its error is held.
    bool onnx = modelKind(opts.model.model) == ModelKind::ONNX;
    HeldDiagnostics held;
    {
      std::unique_ptr<ScopedDiagnosticHandler> hold;
      if (onnx)
        hold = held.hold(ctx.get());
      ONNXImportOptions io = importOpts;
      for (auto &[name, v] : variants.front().dims)
        io.dims[name] = v;
      r = loadModel(opts.model.model, *ctx, io);
    }
    if (r.status != Status::Ok && r.graphBreak && onnx) {
      if (trace) {
        printer.error("--measured: the graph breaks and is profiled in "
                      "segments; a trace is set against a graph compiled whole");
        return exitCode(Status::Usage);
      }
      return profileSegments(opts, targets, *ctx, title, printer);
    }
    held.release();
  }
  if (r.status != Status::Ok)
    return exitCode(r.status);
  CompileOptions co;
  co.targetDirs = opts.targetDirs;
  co.overrides = opts.overrides;
  co.inject = opts.inject;
  co.fp32Matmul = opts.fp32Matmul;
  co.tensorParallel = opts.tensorParallel;
  if (!buckets.empty() && (!opts.graph.empty() || !opts.dot.empty())) {
    printer.error("--graph and --dot draw one model's graph; with --buckets "
                  "draw one bucket with --dim");
    return exitCode(Status::Usage);
  }
  { // the progress line ends before the results are printed
    progress::Task task("profiling", int64_t(targets.size() * variants.size()));
    for (const BucketVariant &variant : variants) {
      ImportResult bucketModel;
      double flopsWaste = 0, bytesWaste = 0;
      if (!buckets.empty())
        if (Status s = importBucket(opts.model.model, *ctx, importOpts, variant,
                                    bucketModel, flopsWaste, bytesWaste, printer);
            s != Status::Ok)
          return exitCode(s);
      ModuleOp source = buckets.empty() ? *r.module : *bucketModel.module;
      for (const target::Target &t : targets) {
        task.advance(t.name + (buckets.empty() ? std::string() : " " + variant.label()));
        OwningOpRef<ModuleOp> m = cast<ModuleOp>(source->clone());
        Status s = runPipeline(*m, t, 0, kSchedStage, co, printer);
        sched::ProgramOp program = s == Status::Ok ? findProgram(*m) : nullptr;
        if (s == Status::Ok && !program) {
          printer.error("no schedule for '" + t.name + "'");
          s = Status::Internal;
        }
        size_t before = reports.size();
        if (s == Status::Ok)
          s = profile(program, t, opts, opts.model.model, reports, printer);
        for (size_t i = before; i < reports.size(); ++i) {
          reports[i].bucket.insert(variant.dims.begin(), variant.dims.end());
          reports[i].bucketSmallest.insert(variant.smallest.begin(),
                                           variant.smallest.end());
          reports[i].worstFlopsWaste = flopsWaste;
          reports[i].worstBytesWaste = bytesWaste;
        }
        note(s);
      }
    }
  }
  roofline::SourceGraph graph = roofline::sourceGraph(*r.module);
  // --measured: the trace against each target's report.
  if (trace)
    for (roofline::Report &rep : reports)
      roofline::compareMeasured(rep, graph, *trace,
                                llvm::sys::path::filename(opts.measured));
  if (!opts.expand.empty()) {
    std::vector<std::string> groups = roofline::moduleGroups(graph);
    for (const std::string &e : opts.expand)
      if (!llvm::is_contained(groups, e)) {
        printer.error("--expand '" + e + "': the model has no such module group" +
                      (groups.empty() ? std::string(" (it has none)")
                                      : " (it has " + someGroups(groups) + ")"));
        return exitCode(Status::Usage);
      }
  }
  Status out = writeOutputs(reports, opts, title, printer, nullptr, &graph);
  return exitCode(first != Status::Ok ? first : out);
}
