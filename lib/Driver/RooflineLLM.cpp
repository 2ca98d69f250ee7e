//===- RooflineLLM.cpp - dfa-roofline --llm: prefill and decode sweeps ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The model is a decoder step with symbolic dims (as Hugging Face Optimum
/// exports them): a batch, the new tokens, and the cached context that the
/// past key/value inputs carry. Each (phase, context, batch) binds them
/// (prefill: `context` new tokens, an empty cache; decode: one new token, a
/// cache of `context`), imports the model's shapes, and compiles, simulates
/// and profiles it per target. A step that does not fit a target is a
/// result of the sweep, not a failure: it is reported with the reason.
///
//===----------------------------------------------------------------------===//

#include "ModelFlags.h"
#include "Pipeline.h"
#include "RooflineDriver.h"
#include "RunTarget.h"

#include "dfa/Import/ONNX.h"
#include "dfa/Support/DimExpr.h"
#include "dfa/Support/Progress.h"

#include "dialects/Graph/GraphInterfaces.h"
#include "dialects/Graph/GraphOps.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

namespace {


std::string list(llvm::ArrayRef<std::string> names) {
  return names.empty() ? "none" : "'" + llvm::join(names, "', '") + "'";
}

/// The dims that size window-sized caches' rows (GraphInputSignature::
/// window), with the first such input.
std::map<std::string, std::string>
windowDimsOf(llvm::ArrayRef<GraphInputSignature> inputs) {
  std::map<std::string, std::string> dims;
  for (const GraphInputSignature &in : inputs)
    if (in.window > 0 && in.windowAxis < in.dims.size() && isDimName(in.dims[in.windowAxis]))
      dims.emplace(in.dims[in.windowAxis], in.name);
  return dims;
}

/// Fills the roles from the names and --llm-dims; checks what LLM mode
/// needs. A dim that sizes window-sized caches (which keep their window
/// whatever the context) is no role: a guessed cache dim that only they
/// carry is dropped, one that growing caches carry too is an error.
Status assignRoles(const RooflineOptions &opts, llvm::ArrayRef<std::string> names,
                   llvm::ArrayRef<GraphInputSignature> inputs,
                   roofline::LLMDims &dims, DiagnosticPrinter &printer) {
  dims = roofline::guessLLMDims(names);
  std::map<std::string, std::string> windowDims = windowDimsOf(inputs);
  if (auto w = windowDims.find(dims.past); w != windowDims.end()) {
    bool grows = llvm::any_of(inputs, [&](const GraphInputSignature &in) {
      return in.window <= 0 && llvm::is_contained(in.dims, dims.past);
    });
    if (!grows)
      dims.past.clear();
  }
  for (const std::string &arg : opts.llmDims) {
    auto [role, name] = llvm::StringRef(arg).split('=');
    std::string *slot = role == "batch" ? &dims.batch
                        : role == "seq" ? &dims.seq
                        : role == "past"  ? &dims.past
                        : role == "total" ? &dims.total
                                          : nullptr;
    if (!slot || name.empty()) {
      printer.error("--llm-dims expects batch=NAME, seq=NAME, past=NAME or "
                    "total=NAME, got '" + arg + "'");
      return Status::Usage;
    }
    if (!llvm::is_contained(names, name)) {
      printer.error("--llm-dims " + arg + ": the model has no symbolic dim '" +
                    name + "' (its symbolic dims: " + list(names) + ")");
      return Status::Usage;
    }
    *slot = name.str();
  }
  for (const std::string *role : {&dims.batch, &dims.seq, &dims.past, &dims.total})
    if (auto w = windowDims.find(*role); w != windowDims.end()) {
      printer.error("--llm: '" + *role + "' sizes the window-sized cache '" + w->second +
                    "' (its rows stay the window's whatever the context), so it "
                    "cannot be the batch, the new tokens, the cached context or "
                    "the whole length; give the growing caches a dim of their own");
      return Status::Usage;
    }
  if (dims.batch.empty() || dims.seq.empty()) {
    printer.error("--llm: cannot tell which of the model's symbolic dims (" +
                  list(names) + ") is the batch and which the new tokens; "
                  "name them: --llm-dims batch=NAME,seq=NAME,past=NAME");
    return Status::Usage;
  }
  auto same = [&](const std::string &a, const std::string &b, const char *ra,
                  const char *rb) {
    if (a.empty() || a != b)
      return false;
    printer.error("--llm-dims: '" + a + "' cannot be both " + ra + " and " + rb);
    return true;
  };
  if (same(dims.batch, dims.seq, "the batch", "the new tokens") ||
      same(dims.batch, dims.past, "the batch", "the cached context") ||
      same(dims.seq, dims.past, "the new tokens", "the cached context") ||
      same(dims.total, dims.batch, "the whole length", "the batch") ||
      same(dims.total, dims.seq, "the whole length", "the new tokens") ||
      same(dims.total, dims.past, "the whole length", "the cached context"))
    return Status::Usage;
  if (dims.past.empty() && windowDims.empty() && llvm::is_contained(opts.llm, "decode")) {
    printer.error("--llm decode needs a KV cache, and no symbolic dim of the "
                  "model (" + list(names) + ") is the cached context; name it "
                  "with --llm-dims past=NAME");
    return Status::Usage;
  }
  return Status::Ok;
}

/// Sizes the window-sized caches' rows that --dim leaves unsized: each
/// holds its window (the GenAI runtime's default, with no slack).
void sizeWindowCaches(llvm::ArrayRef<GraphInputSignature> inputs,
                      std::map<std::string, int64_t> &bound) {
  std::map<std::string, int64_t> rows;
  for (const auto &entry : windowDimsOf(inputs))
    if (const std::string &dim = entry.first; !bound.count(dim))
      for (const GraphInputSignature &in : inputs)
        if (in.window > 0 && in.windowAxis < in.dims.size() && in.dims[in.windowAxis] == dim)
          rows[dim] = std::max(rows[dim], in.window);
  bound.insert(rows.begin(), rows.end());
}

/// The cache as the graph defines it: the inputs that carry the cache
/// dim, with the batch at 1 and the cache at one token, and the
/// window-sized caches, whole, with the batch at 1.
Status kvShape(llvm::ArrayRef<GraphInputSignature> inputs,
               const roofline::LLMDims &dims,
               const std::map<std::string, int64_t> &bound,
               roofline::KVShape &kv, DiagnosticPrinter &printer) {
  kv = {};
  // Bytes of `in` with the batch at 1, the cache dim too unless `window`.
  auto bytesOf = [&](const GraphInputSignature &in, bool window,
                     std::vector<int64_t> &rest) -> std::optional<double> {
    double n = double(in.elementBytes);
    for (auto [axis, d] : llvm::enumerate(in.dims)) {
      int64_t v = 1;
      if (d == dims.batch || (!window && d == dims.past))
        continue;
      if (llvm::StringRef(d).getAsInteger(10, v)) {
        auto it = bound.find(d);
        if (it == bound.end()) {
          printer.error("input '" + in.name + "': dim '" + d +
                        "' has no size; pass --dim " + d + "=N");
          return std::nullopt;
        }
        v = it->second;
      }
      n *= double(v);
      if (!window || axis != in.windowAxis)
        rest.push_back(v);
    }
    return n;
  };
  for (const GraphInputSignature &in : inputs) {
    if (in.window <= 0)
      continue;
    std::vector<int64_t> rest;
    std::optional<double> n = bytesOf(in, /*window=*/true, rest);
    if (!n)
      return Status::Usage;
    kv.windowInputs.push_back(in.name);
    kv.windowBytes += *n;
  }
  if (dims.past.empty())
    return Status::Ok;
  std::optional<std::pair<int64_t, int64_t>> heads; // one shape for all
  bool uniform = true;
  for (const GraphInputSignature &in : inputs) {
    // The cache: inputs with the cache dim but not the new tokens' (an
    // attention mask [batch, 1, seq, past + seq] is not cache).
    if (in.window > 0 || !llvm::is_contained(in.dims, dims.past) ||
        llvm::is_contained(in.dims, dims.seq))
      continue;
    std::vector<int64_t> rest; // the dims besides batch and context
    std::optional<double> n = bytesOf(in, /*window=*/false, rest);
    if (!n)
      return Status::Usage;
    kv.inputs.push_back(in.name);
    kv.bytesPerToken += *n;
    if (kv.elementBytes && kv.elementBytes != in.elementBytes)
      uniform = false;
    kv.elementBytes = in.elementBytes;
    std::pair<int64_t, int64_t> hd =
        rest.size() == 2 ? std::make_pair(rest[0], rest[1])
                         : std::make_pair<int64_t, int64_t>(0, 0);
    if (rest.size() != 2 || (heads && *heads != hd))
      uniform = false;
    heads = hd;
  }
  // K and V per layer, when every cache input has one shape and type.
  if (uniform && heads && kv.inputs.size() % 2 == 0) {
    kv.layers = int64_t(kv.inputs.size() / 2);
    kv.kvHeads = heads->first;
    kv.headDim = heads->second;
  }
  return Status::Ok;
}

/// Bytes of the weights and constants the module holds.
double weightBytesOf(ModuleOp m) {
  double bytes = 0;
  m.walk([&](Operation *op) {
    if (isa<graph::WeightOp, graph::ConstantOp>(op))
      bytes += double(graph::tensorBytes(op->getResult(0).getType()));
  });
  return bytes;
}

/// The shapes of the graph inputs named `names` (the KV cache) in `m`.
std::map<std::string, SmallVector<int64_t>>
inputShapesOf(ModuleOp m, llvm::ArrayRef<std::string> names) {
  std::map<std::string, SmallVector<int64_t>> shapes;
  m.walk([&](func::FuncOp f) {
    for (BlockArgument a : f.getArguments())
      if (auto n = f.getArgAttrOfType<StringAttr>(a.getArgNumber(), graph::kNameAttr))
        if (llvm::is_contained(names, n.getValue().str()))
          shapes[n.getValue().str()] = SmallVector<int64_t>(
              cast<RankedTensorType>(a.getType()).getShape());
  });
  return shapes;
}

/// In how many parts a tensor-parallel program (`part`) holds the cache
/// inputs of `whole`: the ratio of their sizes, dim by dim (a prefill
/// step's cache has no context yet, so its bytes cannot say); 1 when the
/// cache is whole on every chip.
double cacheShardsOf(ModuleOp whole, ModuleOp part,
                     llvm::ArrayRef<std::string> names) {
  auto a = inputShapesOf(whole, names), b = inputShapesOf(part, names);
  double shards = 0;
  for (auto &[name, shape] : a) {
    auto it = b.find(name);
    if (it == b.end() || it->second.size() != shape.size())
      return 1;
    double ratio = 1;
    for (auto [g, l] : llvm::zip(shape, it->second))
      if (l > 0 && g != l)
        ratio *= double(g) / double(l);
    shards = shards == 0 ? ratio : std::min(shards, ratio);
  }
  return shards > 0 ? shards : 1;
}

/// The cache's size and home at one point of the sweep.
void placeCache(const roofline::LLMSweep &s, const roofline::LLMTarget &t,
                roofline::LLMPoint &p) {
  roofline::CacheSize c =
      roofline::cacheSize(s.kv, s.serving, p.batch, p.context);
  p.kvCacheBytes = c.bytes;
  p.fragmentation = c.fragmentation;
  p.placement = t.cacheLevel;
  if (t.cacheLevel.empty()) // no step imported: nowhere known
    return;
  double over = c.bytes - t.cacheCapacityBytes;
  if (over <= 0)
    return;
  if (t.spill == "host") {
    p.spilledBytes = over;
  } else if (t.spill == "chips" && t.chipBytes > 0) {
    p.extraChips = int64_t(std::ceil(over / t.chipBytes));
  } else {
    p.placement = "does not fit";
  }
}

} // namespace

int dfa::driver::llmMain(const RooflineOptions &opts) {
  auto ctx = createContext();
  DiagnosticPrinter printer(*ctx, "dfa-roofline");
  const std::string &path = opts.model.model;
  if (!opts.schedules.empty()) {
    printer.error("--llm needs a decoder whose inputs have symbolic batch, "
                  "token and cache dims (an ONNX model, or an FX export "
                  "with --dynamic-dim); a saved schedule's shapes are static");
    return exitCode(Status::Usage);
  }
  if (!opts.graph.empty() || !opts.dot.empty()) {
    printer.error("--graph and --dot draw one model's graph; --llm sweeps many "
                  "steps (draw one step with --dim and no --llm)");
    return exitCode(Status::Usage);
  }
  std::vector<GraphInputSignature> inputs;
  std::string err;
  if (Status s = modelInputSignatures(path, inputs, err); s != Status::Ok) {
    printer.error(err);
    return exitCode(s);
  }
  std::vector<std::string> names;
  for (const GraphInputSignature &in : inputs)
    for (const std::string &d : in.dims)
      if (isDimName(d) && !llvm::is_contained(names, d))
        names.push_back(d);

  roofline::LLMSweep sweep;
  if (Status s = assignRoles(opts, names, inputs, sweep.dims, printer); s != Status::Ok)
    return exitCode(s);
  ModelFlags flags = opts.model;
  flags.noWeights = true;
  ONNXImportOptions base;
  if (Status s = buildImportOptions(flags, {}, {}, base, printer);
      s != Status::Ok)
    return exitCode(s);
  for (const std::string &role :
       {sweep.dims.batch, sweep.dims.seq, sweep.dims.past, sweep.dims.total})
    if (!role.empty() && base.dims.count(role)) {
      printer.error("--dim " + role + ": LLM mode sets the batch, token and "
                    "cache dims (--batch, --context)");
      return exitCode(Status::Usage);
    }
  sizeWindowCaches(inputs, base.dims);
  if (Status s = kvShape(inputs, sweep.dims, base.dims, sweep.kv, printer);
      s != Status::Ok)
    return exitCode(s);
  sweep.serving = {opts.kvBlock, opts.prefixTokens, opts.prefillChunk};

  target::Registry registry(opts.targetDirs, opts.overrides);
  std::vector<target::Target> targets;
  if (Status s = profileTargets(opts, registry, targets, printer);
      s != Status::Ok)
    return exitCode(s);

  for (const char *phase : {"prefill", "decode"})
    if (llvm::is_contained(opts.llm, phase))
      sweep.phases.push_back(phase);
  // Sorted, each once: the crossover fit needs distinct batches.
  auto distinct = [](std::vector<int64_t> v) {
    llvm::sort(v);
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  };
  sweep.batches = distinct(opts.batches);
  sweep.contexts = distinct(opts.contexts);
  if (sweep.serving.prefix > 0 && sweep.serving.prefix >= sweep.contexts.front()) {
    printer.error("--prefix-tokens " + std::to_string(sweep.serving.prefix) +
                  " leaves no tokens of its own to a context of " +
                  std::to_string(sweep.contexts.front()) +
                  "; every --context must be longer than the shared prefix");
    return exitCode(Status::Usage);
  }
  if (sweep.serving.prefix > 0 && sweep.serving.block == 0) {
    printer.error("--prefix-tokens shares the prefix's cache blocks among the "
                  "sequences; contiguous per-sequence caches cannot share "
                  "them: give the block size with --kv-block N");
    return exitCode(Status::Usage);
  }
  if ((sweep.serving.prefix > 0 || sweep.serving.chunk > 0) &&
      sweep.dims.past.empty()) {
    printer.error("--prefix-tokens and --prefill-chunk run prefill against "
                  "a cache, and no symbolic dim of the model is the cached "
                  "context; name it with --llm-dims past=NAME");
    return exitCode(Status::Usage);
  }
  sweep.referencePhase = sweep.phases.back();
  sweep.referenceBatch = sweep.batches.front();
  sweep.referenceContext = sweep.contexts.front();
  for (const target::Target &t : targets)
    sweep.targets.push_back({t.name, t.overrides, {}});

  CompileOptions co;
  co.targetDirs = opts.targetDirs;
  co.overrides = opts.overrides;
  co.inject = opts.inject;
  co.fp32Matmul = opts.fp32Matmul;
  co.tensorParallel = opts.tensorParallel;
  std::vector<roofline::Report> reference;
  Status first = Status::Ok;
  // A step that does not fit is an answer; anything else is a failure.
  auto note = [&](Status s) {
    if (first == Status::Ok && s != Status::DoesNotFit)
      first = s;
  };
  // The steps of one point: (new tokens, cached tokens) each. Prefill
  // computes the context less the reused prefix, in chunks; decode one
  // token against the whole context.
  auto stepsOf = [&](bool prefill, int64_t context) {
    std::vector<std::pair<int64_t, int64_t>> steps;
    if (!prefill)
      return std::vector<std::pair<int64_t, int64_t>>{{1, context}};
    int64_t shared = roofline::sharedPrefix(sweep.serving, context);
    int64_t n = context - shared;
    int64_t chunk = sweep.serving.chunk > 0 ? sweep.serving.chunk : n;
    for (int64_t off = 0; off < n; off += chunk)
      steps.push_back({std::min(chunk, n - off), shared + off});
    return steps;
  };
  int64_t total = 0;
  for (const std::string &phase : sweep.phases)
    for (int64_t context : sweep.contexts)
      total += int64_t(stepsOf(phase == "prefill", context).size() *
                       sweep.batches.size());
  bool homesKnown = false;
  { // the progress line ends before the results are printed
    progress::Task task("sweeping", total);
    for (const std::string &phase : sweep.phases)
      for (int64_t context : sweep.contexts)
        for (int64_t batch : sweep.batches) {
          bool prefill = phase == "prefill";
          bool isReference = phase == sweep.referencePhase &&
                             batch == sweep.referenceBatch &&
                             context == sweep.referenceContext;
          // Per target: each step's point, or the first error.
          std::vector<std::vector<roofline::LLMPoint>> done(targets.size());
          std::vector<std::string> errors(targets.size());
          auto steps = stepsOf(prefill, context);
          for (auto [stepIndex, step] : llvm::enumerate(steps)) {
            task.advance(phase + " batch " + std::to_string(batch) +
                         " context " + std::to_string(context) +
                         (steps.size() > 1 ? " chunk " + std::to_string(stepIndex + 1)
                                           : std::string()));
            ONNXImportOptions io = base;
            io.dims[sweep.dims.batch] = batch;
            io.dims[sweep.dims.seq] = step.first;
            if (!sweep.dims.past.empty())
              io.dims[sweep.dims.past] = step.second;
            if (!sweep.dims.total.empty())
              io.dims[sweep.dims.total] = step.first + step.second;
            // The first error of each step is its answer, not a message.
            std::string captured;
            ScopedDiagnosticHandler capture(ctx.get(), [&](Diagnostic &d) {
              if (d.getSeverity() != DiagnosticSeverity::Error)
                return failure();
              if (captured.empty())
                captured = d.str();
              return success();
            });
            ImportResult r = loadModel(path, *ctx, io);
            if (r.status != Status::Ok) {
              note(r.status);
              for (std::string &e : errors)
                if (e.empty())
                  e = captured.empty() ? "the import failed" : captured;
              break;
            }
            if (!homesKnown) {
              // The weights (and constants) of the first step imported:
              // dims change only the small constants folded from them.
              homesKnown = true;
              sweep.weightBytes = weightBytesOf(*r.module);
              for (auto [i, t] : llvm::enumerate(targets)) {
                // Under tensor parallelism a chip holds its program's
                // weights and its part of the cache: both read from the
                // partitioned module (the replicated weights, an
                // embedding, on every chip; with fewer KV heads than
                // chips each chip holds its query heads' KV head, a copy
                // of it on chips / KV-heads chips, as vLLM keeps them).
                // (A target the partition refuses is sized as one chip;
                // its steps report the refusal.)
                double chipWeights = sweep.weightBytes, cacheShards = 1;
                int64_t chips = 1;
                if (opts.tensorParallel > 1) {
                  OwningOpRef<ModuleOp> part =
                      cast<ModuleOp>((*r.module)->clone());
                  if (runPipeline(*part, t, 0, int(Stage::Decomposed), co,
                                  printer) == Status::Ok) {
                    chipWeights = weightBytesOf(*part);
                    cacheShards = cacheShardsOf(*r.module, *part, sweep.kv.inputs);
                    chips = opts.tensorParallel;
                  }
                }
                target::CacheHome h =
                    target::cacheHome(t, chipWeights, chips, cacheShards);
                roofline::LLMTarget &lt = sweep.targets[i];
                lt.cacheLevel = h.level->name;
                lt.chips = h.chips;
                lt.cacheCapacityBytes = h.capacityBytes;
                lt.spill = h.spill;
                lt.spillBandwidth = h.spillBandwidth;
                lt.chipBytes = h.chipBytes;
                if (chips > 1)
                  lt.chipWeightBytes = chipWeights;
                for (int64_t c : sweep.contexts)
                  lt.maxBatchByContext[c] = roofline::maxBatch(
                      sweep.kv, sweep.serving, c, h.capacityBytes);
              }
            }
            for (auto [i, t] : llvm::enumerate(targets)) {
              if (!errors[i].empty())
                continue;
              captured.clear();
              OwningOpRef<ModuleOp> m = cast<ModuleOp>((*r.module)->clone());
              Status s = runPipeline(*m, t, 0, kSchedStage, co, printer);
              sched::ProgramOp program = s == Status::Ok ? findProgram(*m) : nullptr;
              std::vector<roofline::Report> one;
              if (s == Status::Ok && program)
                s = profile(program, t, opts, path, one, printer);
              else if (s == Status::Ok)
                s = Status::Internal;
              note(s);
              if (s != Status::Ok) {
                errors[i] = captured.empty() ? "failed (exit " +
                                                   std::to_string(exitCode(s)) + ")"
                                             : captured;
                continue;
              }
              done[i].push_back(roofline::summarize(one.front(), phase, batch, context));
              program.walk([&](sched::ComputeOp c) {
                if (std::optional<ArrayRef<int64_t>> pairs = c.getInPlace())
                  done[i].back().inPlaceAppends += int64_t(pairs->size() / 2);
              });
              if (isReference && stepIndex == 0)
                reference.push_back(std::move(one.front()));
            }
          }
          for (size_t i = 0; i < targets.size(); ++i) {
            roofline::LLMPoint p;
            if (errors[i].empty()) {
              p = roofline::combine(done[i]);
            } else {
              p.phase = phase;
              p.batch = batch;
              p.context = context;
              p.error = errors[i];
            }
            sweep.targets[i].points.push_back(std::move(p));
          }
        }
  }
  // The cache of every point, once the homes are known (the first import
  // that succeeded sized the weights).
  for (roofline::LLMTarget &t : sweep.targets)
    for (roofline::LLMPoint &p : t.points)
      placeCache(sweep, t, p);
  // A decode step behind a new prompt: it waits for that prompt's longest
  // prefill step at the sweep's smallest batch and the same context.
  for (roofline::LLMTarget &t : sweep.targets)
    for (roofline::LLMPoint &d : t.points) {
      if (d.phase != "decode" || !d.error.empty())
        continue;
      for (const roofline::LLMPoint &p : t.points)
        if (p.phase == "prefill" && p.error.empty() &&
            p.batch == sweep.batches.front() && p.context == d.context)
          d.stallSeconds = p.longestStepSeconds;
    }
  std::string title = llvm::sys::path::filename(path).str();
  Status out = writeOutputs(reference, opts, title, printer, &sweep);
  return exitCode(first != Status::Ok ? first : out);
}
