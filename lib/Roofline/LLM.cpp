//===- LLM.cpp - prefill and decode sweeps of a decoder model --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Format.h"

#include "dfa/Roofline/LLM.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace dfa;
using namespace dfa::roofline;

double LLMPoint::tokensPerSecond() const {
  if (seconds <= 0)
    return 0;
  double tokens = phase == "prefill" ? double(batch) * double(context)
                                     : double(batch);
  return tokens / seconds;
}

LLMPoint dfa::roofline::summarize(const Report &r, llvm::StringRef phase,
                                  int64_t batch, int64_t context) {
  LLMPoint p;
  p.phase = phase.str();
  p.batch = batch;
  p.context = context;
  p.seconds = r.seconds;
  p.longestStepSeconds = r.seconds;
  p.flops = r.flops;
  p.mix = r.mix;
  double bandwidthBound = 0;
  for (const KernelRoof &k : r.kernels) {
    double memory = 0;
    for (const LevelTraffic &l : k.levels)
      memory = std::max(memory, l.seconds());
    p.computeRoofSeconds += k.computeSeconds;
    p.memoryRoofSeconds += memory;
    if (memory > k.computeSeconds)
      bandwidthBound += k.attributed;
  }
  p.bandwidthBoundShare = r.seconds > 0 ? bandwidthBound / r.seconds : 0;
  return p;
}

LLMPoint dfa::roofline::combine(llvm::ArrayRef<LLMPoint> steps) {
  LLMPoint p = steps.front();
  if (steps.size() == 1)
    return p;
  p.seconds = p.flops = p.computeRoofSeconds = p.memoryRoofSeconds = 0;
  p.longestStepSeconds = 0;
  p.mix.clear();
  double bound = 0;
  for (const LLMPoint &s : steps) {
    p.seconds += s.seconds;
    p.flops += s.flops;
    p.computeRoofSeconds += s.computeRoofSeconds;
    p.memoryRoofSeconds += s.memoryRoofSeconds;
    p.longestStepSeconds = std::max(p.longestStepSeconds, s.seconds);
    // A first chunk has no cache to grow; the later ones do.
    p.inPlaceAppends = std::max(p.inPlaceAppends, s.inPlaceAppends);
    bound += s.bandwidthBoundShare * s.seconds;
    for (auto &[name, share] : s.mix)
      p.mix[name] += share * s.seconds;
  }
  p.steps = int64_t(steps.size());
  p.bandwidthBoundShare = p.seconds > 0 ? bound / p.seconds : 0;
  for (auto &[name, share] : p.mix)
    share = p.seconds > 0 ? share / p.seconds : 0;
  return p;
}

namespace {
/// Tokens a sequence's own part of the cache takes and the prefix the
/// batch shares, in token slots.
struct Slots {
  int64_t shared = 0, own = 0, held = 0, tableEntries = 0;
};
Slots slotsFor(const KVServing &kv, int64_t context) {
  int64_t block = std::max<int64_t>(1, kv.block);
  Slots s;
  s.shared = std::min(kv.prefix, context) / block * block;
  s.own = context - s.shared;
  s.held = (s.own + block - 1) / block * block;
  s.tableEntries = kv.block > 0 ? (context + block - 1) / block : 0;
  return s;
}
constexpr double kBlockTableEntryBytes = 4; // an int32 block id (vLLM)
} // namespace

int64_t dfa::roofline::sharedPrefix(const KVServing &kv, int64_t context) {
  return slotsFor(kv, context).shared;
}

CacheSize dfa::roofline::cacheSize(const KVShape &shape, const KVServing &kv,
                                   int64_t batch, int64_t context) {
  Slots s = slotsFor(kv, context);
  double held = double(s.shared) + double(batch) * double(s.held);
  double used = double(s.shared) + double(batch) * double(s.own);
  CacheSize c;
  c.tableBytes = double(batch) * double(s.tableEntries) * kBlockTableEntryBytes;
  c.bytes = shape.bytesPerToken * held + c.tableBytes + double(batch) * shape.windowBytes;
  c.fragmentation = held > 0 ? (held - used) / held : 0;
  return c;
}

int64_t dfa::roofline::maxBatch(const KVShape &shape, const KVServing &kv,
                                int64_t context, double capacityBytes) {
  Slots s = slotsFor(kv, context);
  double perSequence = shape.bytesPerToken * double(s.held) +
                       double(s.tableEntries) * kBlockTableEntryBytes + shape.windowBytes;
  double room = capacityBytes - shape.bytesPerToken * double(s.shared);
  if (perSequence <= 0 || room < perSequence)
    return 0;
  return int64_t(std::floor(room / perSequence));
}

std::vector<Crossover> LLMTarget::crossovers() const {
  std::vector<Crossover> out;
  for (const LLMPoint &p : points) {
    if (p.phase != "decode" ||
        llvm::any_of(out, [&](const Crossover &c) { return c.context == p.context; }))
      continue;
    Crossover c;
    c.context = p.context;
    std::vector<const LLMPoint *> ran;
    for (const LLMPoint &q : points)
      if (q.phase == "decode" && q.context == p.context && q.error.empty())
        ran.push_back(&q);
    llvm::stable_sort(ran, [](auto *a, auto *b) { return a->batch < b->batch; });
    c.ran = int64_t(ran.size());
    c.largestBatch = ran.empty() ? 0 : ran.back()->batch;
    for (const LLMPoint *q : ran)
      if (!q->bandwidthBound()) {
        c.sweptBatch = q->batch;
        break;
      }
    if (ran.size() >= 2) {
      const LLMPoint &a = *ran[ran.size() - 2], &b = *ran.back();
      double db = double(b.batch - a.batch);
      double cs = (b.computeRoofSeconds - a.computeRoofSeconds) / db;
      double ms = (b.memoryRoofSeconds - a.memoryRoofSeconds) / db;
      double c0 = b.computeRoofSeconds - cs * double(b.batch);
      double m0 = b.memoryRoofSeconds - ms * double(b.batch);
      c.computePerSequence = cs;
      c.memoryPerSequence = ms;
      // Compute grows faster than memory: they cross where c0 + cs x =
      // m0 + ms x (at or before a batch of 1 when compute already binds).
      if (cs > ms * 1.0001)
        c.roofBatch = std::max(1.0, (m0 - c0) / (cs - ms));
      if (cs > 0 && m0 > c0)
        c.weightBatch = std::max(1.0, (m0 - c0) / cs);
    }
    out.push_back(c);
  }
  return out;
}

LLMDims dfa::roofline::guessLLMDims(llvm::ArrayRef<std::string> symbolicDims) {
  static const char *batchNames[] = {"batch", "batch_size", "batchsize", "bs",
                                     "b", "n", "num_sequences"};
  static const char *seqNames[] = {"seq",        "seq_len",    "seqlen",
                                   "sequence",   "sequence_length",
                                   "tokens",     "num_tokens", "q_len",
                                   "query_length", "t",        "s"};
  static const char *pastNames[] = {
      "past",        "past_len",      "past_seq_len", "past_sequence_length",
      "past_length", "past_key_values_length", "context", "cache_len",
      "kv_len",      "cache_length",  "p"};
  static const char *totalNames[] = {"total_sequence_length", "total_seq_len",
                                     "total_seq_length", "total_length",
                                     "total_len", "total"};
  LLMDims d;
  auto pick = [&](std::string &role, llvm::ArrayRef<const char *> names) {
    for (const char *n : names)
      for (const std::string &s : symbolicDims)
        if (role.empty() && llvm::StringRef(s).equals_insensitive(n))
          role = s;
  };
  pick(d.batch, batchNames);
  pick(d.seq, seqNames);
  pick(d.past, pastNames);
  pick(d.total, totalNames);
  return d;
}

namespace {

std::string crossoverLine(const Crossover &c) {
  std::string s = "context " + std::to_string(c.context) + ": ";
  if (c.ran == 0)
    return s + "no decode step ran";
  if (c.sweptBatch)
    s += "at batch " + std::to_string(*c.sweptBatch);
  else
    s += "not by batch " + std::to_string(c.largestBatch);
  if (c.ran < 2)
    return s + " (one step ran: too few to fit the roofs)";
  if (c.roofBatch)
    s += llvm::formatv("; the roofs cross near batch {0:f0}", *c.roofBatch).str();
  else if (c.memoryPerSequence > 0)
    s += "; the roofs never cross: per sequence its cache and activation "
         "reads take " + humanSeconds(c.memoryPerSequence) +
         ", its compute (the matrix tiles it fills, padding included) " +
         humanSeconds(c.computePerSequence);
  if (c.weightBatch)
    s += llvm::formatv("; compute matches the weight reads near batch {0:f0}",
                       *c.weightBatch)
             .str();
  return s;
}

std::string tokensLine(const LLMPoint &p) {
  return humanNumber(p.tokensPerSecond(), "") + "tok/s";
}

/// A prefill's chunks; a decode step's time behind a new prompt's prefill.
std::string stepNote(const LLMPoint &p) {
  std::string s;
  if (p.steps > 1)
    s += " (" + std::to_string(p.steps) + " chunks, longest " +
         humanSeconds(p.longestStepSeconds) + ")";
  if (p.stallSeconds)
    s += " (behind a new prompt's prefill: " +
         humanSeconds(p.seconds + *p.stallSeconds) + ")";
  return s;
}

/// "HBM", "HBM + 2.1 GB to host", "SRAM + 3 chips", "does not fit".
std::string placementLine(const LLMPoint &p) {
  if (p.spilledBytes > 0)
    return p.placement + " + " + humanNumber(p.spilledBytes, "B") + " to host";
  if (p.extraChips > 0)
    return p.placement + " + " + std::to_string(p.extraChips) + " chips";
  return p.placement;
}

std::string kvLine(const LLMSweep &s) {
  const KVShape &kv = s.kv;
  std::string windows = humanNumber(kv.windowBytes, "B") + " per sequence in " +
                        std::to_string(kv.windowInputs.size()) + " window-sized caches";
  if (kv.inputs.empty() && !kv.windowInputs.empty())
    return "KV cache " + windows;
  std::string line = "KV cache " + humanNumber(kv.bytesPerToken, "B") +
                     " per token per sequence";
  if (kv.layers > 0 && kv.kvHeads > 0)
    line += llvm::formatv(" (2 x {0} layers x {1} kv heads x {2} x {3} B)",
                          kv.layers, kv.kvHeads, kv.headDim, kv.elementBytes)
                .str();
  if (!kv.windowInputs.empty())
    line += ", and " + windows;
  return line;
}

std::string servingLine(const KVServing &kv) {
  std::string line = kv.block > 0 ? "paged in blocks of " +
                                        std::to_string(kv.block) + " tokens"
                                  : "contiguous per sequence";
  if (kv.prefix > 0)
    line += "; " + std::to_string(kv.prefix) + "-token prefix shared and cached";
  if (kv.chunk > 0)
    line += "; prefill in chunks of " + std::to_string(kv.chunk) + " tokens";
  return line;
}

std::string homeLine(const LLMTarget &t, double weightBytes) {
  std::string line = "cache in " + t.cacheLevel;
  if (t.chips > 1)
    line += " of " + std::to_string(t.chips) + " chips";
  line += ": " + humanNumber(t.cacheCapacityBytes, "B") + " free beside " +
          (t.chipWeightBytes > 0
               ? humanNumber(t.chipWeightBytes, "B") + " of weights a chip"
               : humanNumber(weightBytes, "B") + " of weights");
  line += t.spill == "host"    ? "; spills to host memory at " +
                                     humanNumber(t.spillBandwidth, "B/s")
          : t.spill == "chips" ? "; beyond it needs more chips (" +
                                     humanNumber(t.chipBytes, "B") + " each)"
                               : "; nothing beyond it";
  return line;
}

/// Whether the model holds a KV cache: growing or window-sized.
bool holdsCache(const KVShape &kv) {
  return !kv.inputs.empty() || !kv.windowInputs.empty();
}

/// How many caches the first decode step that ran grew in place.
std::optional<std::string> inPlaceLine(const LLMSweep &s, const LLMTarget &t) {
  if (s.kv.inputs.empty())
    return std::nullopt;
  for (const LLMPoint &p : t.points)
    if (p.phase == "decode" && p.error.empty())
      return "decode appends in place: " + std::to_string(p.inPlaceAppends) +
             " of " + std::to_string(s.kv.inputs.size()) +
             " cache inputs" +
             (p.inPlaceAppends < int64_t(s.kv.inputs.size())
                  ? " (the others are copied whole into the grown cache)"
                  : std::string());
  return std::nullopt;
}

std::string maxBatchLine(const LLMTarget &t) {
  std::string line = "largest batch that fits, by context:";
  for (auto [context, batch] : t.maxBatchByContext)
    line += " " + std::to_string(context) + ": " + std::to_string(batch) + ",";
  line.pop_back();
  return line;
}

} // namespace

void dfa::roofline::printLLM(const LLMSweep &s, llvm::raw_ostream &os) {
  os << "LLM mode: batch dim '" << s.dims.batch << "', token dim '" << s.dims.seq
     << "'";
  if (!s.dims.past.empty())
    os << ", cache dim '" << s.dims.past << "'";
  if (!s.dims.total.empty())
    os << ", total dim '" << s.dims.total << "' (cache + tokens)";
  os << "; " << kvLine(s) << "\n";
  os << "KV cache " << servingLine(s.serving) << "\n";
  for (const LLMTarget &t : s.targets) {
    os << "\n" << t.target << "\n";
    if (!t.cacheLevel.empty() && holdsCache(s.kv))
      os << "  " << homeLine(t, s.weightBytes) << "\n  " << maxBatchLine(t)
         << "\n";
    if (std::optional<std::string> l = inPlaceLine(s, t))
      os << "  " << *l << "\n";
    os << llvm::formatv("  {0,-8} {1,6} {2,8} {3,11} {4,13} {5,10} {6,-14} {7,9}  {8}\n",
                        "phase", "batch", "context", "TTFT/TPOT", "throughput",
                        "KV cache", "held in", "bw-bound", "bottlenecks");
    for (const LLMPoint &p : t.points) {
      os << llvm::formatv("  {0,-8} {1,6} {2,8} ", p.phase, p.batch, p.context);
      if (!p.error.empty()) {
        os << p.error << "\n";
        continue;
      }
      Report mixOnly;
      mixOnly.mix = p.mix;
      os << llvm::formatv("{0,11} {1,13} {2,10} {3,-14} {4,8:f0}%  {5}",
                          humanSeconds(p.seconds), tokensLine(p),
                          humanNumber(p.kvCacheBytes, "B"), placementLine(p),
                          100 * p.bandwidthBoundShare, mixLine(mixOnly));
      os << stepNote(p) << "\n";
    }
    std::vector<Crossover> cs = t.crossovers();
    if (!cs.empty()) {
      os << "  decode stops being bandwidth-bound:";
      for (const Crossover &c : cs)
        os << "\n    " << crossoverLine(c);
      os << "\n";
    }
  }
  os << "\n(--json, --csv, --svg and --html also hold the full report of the "
     << s.referencePhase << " step at batch " << s.referenceBatch
     << ", context " << s.referenceContext << ")\n";
}

void dfa::roofline::writeLLMJson(llvm::json::OStream &j, const LLMSweep &s) {
  auto optional = [](const std::optional<double> &v) {
    return v ? llvm::json::Value(*v) : llvm::json::Value(nullptr);
  };
  j.attributeObject("llm", [&] {
    j.attributeArray("phases", [&] {
      for (const std::string &p : s.phases)
        j.value(p);
    });
    j.attributeArray("batches", [&] {
      for (int64_t b : s.batches)
        j.value(b);
    });
    j.attributeArray("contexts", [&] {
      for (int64_t c : s.contexts)
        j.value(c);
    });
    j.attributeObject("dims", [&] {
      j.attribute("batch", s.dims.batch);
      j.attribute("seq", s.dims.seq);
      j.attribute("past", s.dims.past);
      j.attribute("total", s.dims.total);
    });
    j.attribute("kv_cache_bytes_per_token", s.kv.bytesPerToken);
    j.attributeObject("kv_cache", [&] {
      j.attributeArray("inputs", [&] {
        for (const std::string &n : s.kv.inputs)
          j.value(n);
      });
      j.attribute("layers", s.kv.layers > 0 ? llvm::json::Value(s.kv.layers)
                                            : llvm::json::Value(nullptr));
      j.attribute("kv_heads", s.kv.kvHeads > 0 ? llvm::json::Value(s.kv.kvHeads)
                                               : llvm::json::Value(nullptr));
      j.attribute("head_dim", s.kv.headDim > 0 ? llvm::json::Value(s.kv.headDim)
                                               : llvm::json::Value(nullptr));
      j.attribute("element_bytes", s.kv.elementBytes);
      j.attribute("bytes_per_token", s.kv.bytesPerToken);
      j.attributeArray("window_inputs", [&] {
        for (const std::string &n : s.kv.windowInputs)
          j.value(n);
      });
      j.attribute("window_bytes_per_sequence", s.kv.windowBytes);
    });
    j.attributeObject("serving", [&] {
      j.attribute("kv_block", s.serving.block);
      j.attribute("prefix_tokens", s.serving.prefix);
      j.attribute("prefill_chunk", s.serving.chunk);
    });
    j.attribute("weight_bytes", s.weightBytes);
    j.attributeObject("reference", [&] {
      j.attribute("phase", s.referencePhase);
      j.attribute("batch", s.referenceBatch);
      j.attribute("context", s.referenceContext);
    });
    j.attributeArray("targets", [&] {
      for (const LLMTarget &t : s.targets)
        j.object([&] {
          j.attribute("target", t.target);
          target::writeOverrides(j, t.overrides);
          j.attributeObject("cache", [&] {
            j.attribute("level", t.cacheLevel);
            j.attribute("chips", t.chips);
            j.attribute("capacity_bytes", t.cacheCapacityBytes);
            j.attribute("spill", t.spill.empty() ? llvm::json::Value(nullptr)
                                                 : llvm::json::Value(t.spill));
            if (t.spill == "host")
              j.attribute("spill_bandwidth", t.spillBandwidth);
            if (t.spill == "chips")
              j.attribute("chip_bytes", t.chipBytes);
            if (t.chipWeightBytes > 0)
              j.attribute("weight_bytes_per_chip", t.chipWeightBytes);
          });
          if (!holdsCache(s.kv))
            j.attribute("max_batch_by_context", nullptr);
          else
            j.attributeObject("max_batch_by_context", [&] {
              for (auto [context, batch] : t.maxBatchByContext)
                j.attribute(std::to_string(context), batch);
            });
          j.attributeArray("points", [&] {
            for (const LLMPoint &p : t.points)
              j.object([&] {
                j.attribute("phase", p.phase);
                j.attribute("batch", p.batch);
                j.attribute("context", p.context);
                j.attribute("kv_cache_bytes", p.kvCacheBytes);
                j.attribute("fragmentation", p.fragmentation);
                j.attribute("placement", p.placement);
                j.attribute("spilled_bytes", p.spilledBytes);
                j.attribute("extra_chips", p.extraChips);
                if (!p.error.empty()) {
                  j.attribute("error", p.error);
                  return;
                }
                j.attribute("seconds", p.seconds);
                j.attribute("tokens_per_second", p.tokensPerSecond());
                j.attribute("in_place_appends", p.inPlaceAppends);
                j.attribute("flops", p.flops);
                if (p.phase == "prefill") {
                  j.attribute("steps", p.steps);
                  j.attribute("longest_step_seconds", p.longestStepSeconds);
                } else {
                  j.attribute("stall_seconds", optional(p.stallSeconds));
                  j.attribute("tpot_with_prefill_seconds",
                              optional(p.stallSeconds
                                           ? std::optional<double>(
                                                 p.seconds + *p.stallSeconds)
                                           : std::nullopt));
                }
                j.attribute("compute_roof_seconds", p.computeRoofSeconds);
                j.attribute("memory_roof_seconds", p.memoryRoofSeconds);
                j.attribute("bandwidth_bound_share", p.bandwidthBoundShare);
                j.attributeObject("mix", [&] {
                  for (auto &[name, share] : p.mix)
                    j.attribute(name, share);
                });
              });
          });
          j.attributeArray("decode_crossovers", [&] {
            for (const Crossover &c : t.crossovers())
              j.object([&] {
                j.attribute("context", c.context);
                j.attribute("decode_steps_ran", c.ran);
                j.attribute("swept_batch", c.sweptBatch
                                               ? llvm::json::Value(*c.sweptBatch)
                                               : llvm::json::Value(nullptr));
                j.attribute("roof_batch", optional(c.roofBatch));
                j.attribute("weight_batch", optional(c.weightBatch));
                j.attribute("compute_seconds_per_sequence",
                            c.computePerSequence);
                j.attribute("memory_seconds_per_sequence", c.memoryPerSequence);
              });
          });
        });
    });
  });
}

namespace {

/// TPOT against the context, a line per target, at the sweep's smallest
/// batch: an SVG chart (log-scaled context when it spans a factor of 4).
void writeTpotChart(const LLMSweep &s, llvm::raw_ostream &os) {
  int64_t batch = s.batches.front();
  struct Line {
    std::string target;
    std::vector<std::pair<double, double>> points; // context, seconds
  };
  std::vector<Line> lines;
  double ymax = 0;
  for (const LLMTarget &t : s.targets) {
    Line l{t.target, {}};
    for (const LLMPoint &p : t.points)
      if (p.phase == "decode" && p.batch == batch && p.error.empty()) {
        l.points.push_back({double(p.context), p.seconds});
        ymax = std::max(ymax, p.seconds);
      }
    if (!l.points.empty())
      lines.push_back(std::move(l));
  }
  if (lines.empty() || ymax <= 0)
    return;
  double x0 = double(s.contexts.front()), x1 = double(s.contexts.back());
  bool logX = x1 >= 4 * x0;
  const double W = 640, H = 320, L = 70, R = 150, T = 20, B = 40;
  auto xOf = [&](double c) {
    if (x1 <= x0)
      return L + (W - L - R) / 2;
    double f = logX ? std::log(c / x0) / std::log(x1 / x0) : (c - x0) / (x1 - x0);
    return L + f * (W - L - R);
  };
  auto yOf = [&](double sec) { return H - B - sec / ymax * (H - T - B); };
  static const char *colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                  "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
  os << "<h3>TPOT against context (batch " << batch << ")</h3>\n"
     << "<svg class=\"tpot-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
     << W << "\" height=\"" << H << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  os << llvm::formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#444\"/>\n",
                      L, H - B, W - R);
  os << llvm::formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#444\"/>\n",
                      L, T, H - B);
  for (int64_t c : s.contexts)
    os << llvm::formatv("<text x=\"{0:f1}\" y=\"{1}\" text-anchor=\"middle\">{2}</text>\n",
                        xOf(double(c)), H - B + 14, c);
  for (int i = 0; i <= 4; ++i) {
    double v = ymax * i / 4;
    os << llvm::formatv("<text x=\"{0}\" y=\"{1:f1}\" text-anchor=\"end\">{2}</text>\n",
                        L - 4, yOf(v) + 4, xmlEscape(humanSeconds(v)));
  }
  os << llvm::formatv("<text x=\"{0:f1}\" y=\"{1}\" text-anchor=\"middle\">context "
                      "(tokens{2})</text>\n",
                      L + (W - L - R) / 2, H - 6, logX ? ", log scale" : "");
  for (auto [i, l] : llvm::enumerate(lines)) {
    const char *colour = colours[i % std::size(colours)];
    os << "<polyline class=\"tpot-line\" data-target=\"" << xmlEscape(l.target)
       << "\" fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"";
    for (auto [c, sec] : l.points)
      os << llvm::formatv("{0:f1},{1:f1} ", xOf(c), yOf(sec));
    os << "\"/>\n";
    for (auto [c, sec] : l.points)
      os << llvm::formatv("<circle cx=\"{0:f1}\" cy=\"{1:f1}\" r=\"3\" fill=\"{2}\">"
                          "<title>{3} context {4}: {5}</title></circle>\n",
                          xOf(c), yOf(sec), colour, xmlEscape(l.target), int64_t(c),
                          xmlEscape(humanSeconds(sec)));
    os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" fill=\"{2}\">{3}</text>\n",
                        W - R + 10, T + 14 * (i + 1), colour, xmlEscape(l.target));
  }
  os << "</svg>\n";
}

} // namespace

void dfa::roofline::writeLLMHtml(const LLMSweep &s, llvm::raw_ostream &os) {
  os << "<h2>LLM sweep</h2>\n<p>Prefill: <i>context</i> prompt tokens per "
        "sequence, empty cache (time to first token). Decode: one token per "
        "sequence against a cache of <i>context</i> tokens (time per output "
        "token). "
     << xmlEscape(kvLine(s)) << "; " << xmlEscape(servingLine(s.serving))
     << ". bw-bound: the share of the time in kernels "
        "whose roofline bound is a memory level.</p>\n";
  os << "<ul class=\"kv-homes\">\n";
  for (const LLMTarget &t : s.targets)
    if (!t.cacheLevel.empty() && holdsCache(s.kv)) {
      os << "<li>" << xmlEscape(t.target) << ": " << xmlEscape(homeLine(t, s.weightBytes))
         << "; " << xmlEscape(maxBatchLine(t));
      if (std::optional<std::string> l = inPlaceLine(s, t))
        os << "; " << xmlEscape(*l);
      os << "</li>\n";
    }
  os << "</ul>\n";
  if (llvm::is_contained(s.phases, "decode"))
    writeTpotChart(s, os);
  os << "<table class=\"llm\">\n<tr><th>target</th><th>phase</th><th>batch</th>"
        "<th>context</th><th>TTFT/TPOT</th><th>throughput</th><th>KV cache</th>"
        "<th>held in</th><th>bw-bound</th><th>bottlenecks</th></tr>\n";
  for (const LLMTarget &t : s.targets) {
    for (const LLMPoint &p : t.points) {
      os << "<tr class=\"llm-point\" data-target=\"" << xmlEscape(t.target)
         << "\" data-phase=\"" << p.phase << "\"><td>" << xmlEscape(t.target)
         << "</td><td>" << p.phase << "</td><td class=\"num\">" << p.batch
         << "</td><td class=\"num\">" << p.context << "</td>";
      if (!p.error.empty()) {
        os << "<td colspan=\"6\">" << xmlEscape(p.error) << "</td></tr>\n";
        continue;
      }
      Report mixOnly;
      mixOnly.mix = p.mix;
      os << "<td class=\"num\">" << humanSeconds(p.seconds)
         << "</td><td class=\"num\">" << tokensLine(p)
         << "</td><td class=\"num\">" << humanNumber(p.kvCacheBytes, "B")
         << "</td><td>" << xmlEscape(placementLine(p)) << "</td><td class=\"num\">"
         << llvm::formatv("{0:f0}%", 100 * p.bandwidthBoundShare) << "</td><td>"
         << xmlEscape(mixLine(mixOnly)) << xmlEscape(stepNote(p)) << "</td></tr>\n";
    }
    std::vector<Crossover> cs = t.crossovers();
    if (!cs.empty()) {
      os << "<tr class=\"crossover\"><td>" << xmlEscape(t.target)
         << "</td><td colspan=\"9\">decode stops being bandwidth-bound: ";
      for (size_t i = 0; i < cs.size(); ++i)
        os << (i ? "; " : "") << xmlEscape(crossoverLine(cs[i]));
      os << "</td></tr>\n";
    }
  }
  os << "</table>\n<p>The landscape below is the " << s.referencePhase
     << " step at batch " << s.referenceBatch << ", context "
     << s.referenceContext << ".</p>\n";
}
