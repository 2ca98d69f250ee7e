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
                                  int64_t batch, int64_t context,
                                  double kvBytesPerToken) {
  LLMPoint p;
  p.phase = phase.str();
  p.batch = batch;
  p.context = context;
  p.seconds = r.seconds;
  p.flops = r.flops;
  p.kvCacheBytes = kvBytesPerToken * double(batch) * double(context);
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
    llvm::sort(ran, [](auto *a, auto *b) { return a->batch < b->batch; });
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
         "reads take " + humanSeconds(c.memoryPerSequence) + ", its FLOPs " +
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

} // namespace

void dfa::roofline::printLLM(const LLMSweep &s, llvm::raw_ostream &os) {
  os << "LLM mode: batch dim '" << s.dims.batch << "', token dim '" << s.dims.seq
     << "'";
  if (!s.dims.past.empty())
    os << ", cache dim '" << s.dims.past << "'";
  os << "; KV cache " << humanNumber(s.kvBytesPerToken, "B")
     << " per token per sequence\n";
  for (const LLMTarget &t : s.targets) {
    os << "\n" << t.target << "\n";
    os << llvm::formatv("  {0,-8} {1,6} {2,8} {3,11} {4,13} {5,10} {6,9}  {7}\n",
                        "phase", "batch", "context", "TTFT/TPOT", "throughput",
                        "KV cache", "bw-bound", "bottlenecks");
    for (const LLMPoint &p : t.points) {
      os << llvm::formatv("  {0,-8} {1,6} {2,8} ", p.phase, p.batch, p.context);
      if (!p.error.empty()) {
        os << p.error << "\n";
        continue;
      }
      Report mixOnly;
      mixOnly.mix = p.mix;
      os << llvm::formatv("{0,11} {1,13} {2,10} {3,8:f0}%  {4}\n",
                          humanSeconds(p.seconds), tokensLine(p),
                          humanNumber(p.kvCacheBytes, "B"),
                          100 * p.bandwidthBoundShare, mixLine(mixOnly));
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
    });
    j.attribute("kv_cache_bytes_per_token", s.kvBytesPerToken);
    j.attributeObject("reference", [&] {
      j.attribute("phase", s.referencePhase);
      j.attribute("batch", s.referenceBatch);
      j.attribute("context", s.referenceContext);
    });
    j.attributeArray("targets", [&] {
      for (const LLMTarget &t : s.targets)
        j.object([&] {
          j.attribute("target", t.target);
          j.attributeArray("points", [&] {
            for (const LLMPoint &p : t.points)
              j.object([&] {
                j.attribute("phase", p.phase);
                j.attribute("batch", p.batch);
                j.attribute("context", p.context);
                if (!p.error.empty()) {
                  j.attribute("error", p.error);
                  return;
                }
                j.attribute("seconds", p.seconds);
                j.attribute("tokens_per_second", p.tokensPerSecond());
                j.attribute("flops", p.flops);
                j.attribute("kv_cache_bytes", p.kvCacheBytes);
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
                j.attribute("roof_batch", c.roofBatch
                                              ? llvm::json::Value(*c.roofBatch)
                                              : llvm::json::Value(nullptr));
                j.attribute("weight_batch",
                            c.weightBatch ? llvm::json::Value(*c.weightBatch)
                                          : llvm::json::Value(nullptr));
                j.attribute("compute_seconds_per_sequence",
                            c.computePerSequence);
                j.attribute("memory_seconds_per_sequence", c.memoryPerSequence);
              });
          });
        });
    });
  });
}

void dfa::roofline::writeLLMHtml(const LLMSweep &s, llvm::raw_ostream &os) {
  os << "<h2>LLM sweep</h2>\n<p>Prefill: <i>context</i> prompt tokens per "
        "sequence, empty cache (time to first token). Decode: one token per "
        "sequence against a cache of <i>context</i> tokens (time per output "
        "token). KV cache: "
     << humanNumber(s.kvBytesPerToken, "B")
     << " per token per sequence. bw-bound: the share of the time in kernels "
        "whose roofline bound is a memory level.</p>\n";
  os << "<table class=\"llm\">\n<tr><th>target</th><th>phase</th><th>batch</th>"
        "<th>context</th><th>TTFT/TPOT</th><th>throughput</th><th>KV cache</th>"
        "<th>bw-bound</th><th>bottlenecks</th></tr>\n";
  for (const LLMTarget &t : s.targets) {
    for (const LLMPoint &p : t.points) {
      os << "<tr class=\"llm-point\" data-target=\"" << xml(t.target)
         << "\" data-phase=\"" << p.phase << "\"><td>" << xml(t.target)
         << "</td><td>" << p.phase << "</td><td class=\"num\">" << p.batch
         << "</td><td class=\"num\">" << p.context << "</td>";
      if (!p.error.empty()) {
        os << "<td colspan=\"5\">" << xml(p.error) << "</td></tr>\n";
        continue;
      }
      Report mixOnly;
      mixOnly.mix = p.mix;
      os << "<td class=\"num\">" << humanSeconds(p.seconds)
         << "</td><td class=\"num\">" << tokensLine(p)
         << "</td><td class=\"num\">" << humanNumber(p.kvCacheBytes, "B")
         << "</td><td class=\"num\">"
         << llvm::formatv("{0:f0}%", 100 * p.bandwidthBoundShare) << "</td><td>"
         << xml(mixLine(mixOnly)) << "</td></tr>\n";
    }
    std::vector<Crossover> cs = t.crossovers();
    if (!cs.empty()) {
      os << "<tr class=\"crossover\"><td>" << xml(t.target)
         << "</td><td colspan=\"8\">decode stops being bandwidth-bound: ";
      for (size_t i = 0; i < cs.size(); ++i)
        os << (i ? "; " : "") << xml(crossoverLine(cs[i]));
      os << "</td></tr>\n";
    }
  }
  os << "</table>\n<p>The landscape below is the " << s.referencePhase
     << " step at batch " << s.referenceBatch << ", context "
     << s.referenceContext << ".</p>\n";
}
