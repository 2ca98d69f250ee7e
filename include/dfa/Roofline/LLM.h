//===- LLM.h - prefill and decode sweeps of a decoder model -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// dfa-roofline's LLM mode. A decoder step with a KV cache is profiled at
/// every (phase, batch, context) of a sweep: prefill runs `context` prompt
/// tokens per sequence with an empty cache (its time is the time to first
/// token), decode runs one token per sequence against a cache of `context`
/// tokens (its time is the time per output token). Each point keeps the
/// report's totals; per target the sweep finds the batch at which decode
/// stops being bandwidth-bound.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_ROOFLINE_LLM_H
#define DFA_ROOFLINE_LLM_H

#include "dfa/Roofline/Roofline.h"

#include <optional>

namespace dfa::roofline {

/// One step of the sweep on one target.
struct LLMPoint {
  std::string phase; // "prefill" or "decode"
  int64_t batch = 0, context = 0;
  /// Why the step has no time (it does not fit, it failed to compile);
  /// empty when it ran.
  std::string error;
  double seconds = 0; // prefill: time to first token; decode: per token
  double flops = 0;
  /// The KV cache the sequences hold at this step.
  double kvCacheBytes = 0;
  /// Shares of the time by bottleneck (as Report::mix).
  std::map<std::string, double> mix;
  /// The kernels' roofline bounds summed: compute (FLOPs / peak) and
  /// memory (their binding level's bytes / bandwidth).
  double computeRoofSeconds = 0, memoryRoofSeconds = 0;
  /// Share of the time in kernels whose roofline bound is a memory level.
  double bandwidthBoundShare = 0;

  /// Prompt tokens per second (prefill) or generated tokens per second
  /// over the batch (decode).
  double tokensPerSecond() const;
  bool bandwidthBound() const { return bandwidthBoundShare > 0.5; }
};

/// The point for `r`, a report of one step.
LLMPoint summarize(const Report &r, llvm::StringRef phase, int64_t batch,
                   int64_t context, double kvBytesPerToken);

/// Where decode at one context stops being bandwidth-bound.
struct Crossover {
  int64_t context = 0;
  /// The decode steps at this context that ran, and the largest batch.
  int64_t ran = 0, largestBatch = 0;
  /// The smallest swept batch whose decode is not bandwidth-bound.
  std::optional<int64_t> sweptBatch;
  /// The batch where the summed compute and memory roofs cross, from the
  /// two largest swept batches (both roofs are linear in the batch); none
  /// when the memory roof grows as fast as the compute roof (the KV reads
  /// of long contexts) or fewer than two batches ran.
  std::optional<double> roofBatch;
  /// The batch where compute matches the reads every step makes whatever
  /// the batch (the weights): where the weight GEMMs alone turn
  /// compute-bound.
  std::optional<double> weightBatch;
  /// Per sequence: the roofs' growth with the batch (seconds).
  double computePerSequence = 0, memoryPerSequence = 0;
};

struct LLMTarget {
  std::string target;
  std::vector<LLMPoint> points;
  /// One per swept context that has decode points.
  std::vector<Crossover> crossovers() const;
};

/// Which symbolic dims of the model are the batch, the new tokens and the
/// cached context ("" when it has none).
struct LLMDims {
  std::string batch, seq, past;
};

/// Guesses the roles from the names: Hugging Face Optimum's
/// `batch_size`, `sequence_length`, `past_sequence_length` and the usual
/// short forms. Expressions ("past + seq") are never a role.
LLMDims guessLLMDims(llvm::ArrayRef<std::string> symbolicDims);

struct LLMSweep {
  std::vector<std::string> phases;
  std::vector<int64_t> batches, contexts;
  LLMDims dims;
  /// KV-cache bytes one sequence adds per token (all layers, K and V).
  double kvBytesPerToken = 0;
  std::vector<LLMTarget> targets;
  /// The step whose full reports go with the sweep (the landscape, the
  /// charts and the per-kernel tables): the first decode step, else the
  /// first prefill step.
  std::string referencePhase;
  int64_t referenceBatch = 0, referenceContext = 0;
};

/// A table per target and where decode stops being bandwidth-bound.
void printLLM(const LLMSweep &s, llvm::raw_ostream &os);
/// The sweep as the `llm` attribute of a `dfa.roofline/1` report.
void writeLLMJson(llvm::json::OStream &j, const LLMSweep &s);
/// The sweep's section of the HTML report.
void writeLLMHtml(const LLMSweep &s, llvm::raw_ostream &os);

} // namespace dfa::roofline

#endif // DFA_ROOFLINE_LLM_H
