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
  /// The KV cache the sequences hold at this step (cacheSize), and the
  /// share of its token slots that hold no token (paged blocks' tails).
  double kvCacheBytes = 0, fragmentation = 0;
  /// Where the cache is (CacheHome's level), and what does not fit there:
  /// bytes spilled to the host, or the chips a deployment would add.
  std::string placement;
  double spilledBytes = 0;
  int64_t extraChips = 0;
  /// Cache inputs the step's schedule grows in place (sched.compute
  /// `in_place`); the others it copies whole into the grown cache.
  int64_t inPlaceAppends = 0;
  /// Prefill: the steps it ran (chunks; 1 without --prefill-chunk) and the
  /// longest of them.
  int64_t steps = 1;
  double longestStepSeconds = 0;
  /// Decode, when prefill was swept too: how long a decode step waits
  /// behind a new prompt's prefill at this context, at the sweep's smallest
  /// batch (its longest step: all of it unchunked, one chunk chunked).
  std::optional<double> stallSeconds;
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

/// The point for `r`, a report of one step (its cache fields unset).
LLMPoint summarize(const Report &r, llvm::StringRef phase, int64_t batch,
                   int64_t context);
/// Steps run one after another (the chunks of a prefill) as one point:
/// times, FLOPs and roofs summed, shares weighted by time, the most
/// caches any step grew in place.
LLMPoint combine(llvm::ArrayRef<LLMPoint> steps);

/// The KV cache as the graph's own cache inputs define it: the inputs
/// with the cached-context dim (not the new tokens'), K and V per layer.
struct KVShape {
  std::vector<std::string> inputs;
  int64_t layers = 0; // inputs / 2
  /// Key/value heads and head size, when every cache input has exactly
  /// two dims besides the batch and the context (0 otherwise).
  int64_t kvHeads = 0, headDim = 0;
  int64_t elementBytes = 0;
  /// Bytes one sequence adds per token: all cache inputs, per token.
  double bytesPerToken = 0;
  /// Window-sized caches (sliding-window layers that keep their window
  /// only): a sequence holds `windowBytes` in them whatever its context.
  std::vector<std::string> windowInputs;
  double windowBytes = 0;
};

/// How the serving runtime holds the cache (dfa-roofline's --kv-block,
/// --prefix-tokens, --prefill-chunk).
struct KVServing {
  int64_t block = 0;  // tokens per paged block; 0: contiguous
  int64_t prefix = 0; // tokens of a prefix shared by the batch
  int64_t chunk = 0;  // prefill chunk in tokens; 0: one step
};

/// A batch's cache at a context (the tokens before the step's own): the
/// shared prefix once (whole blocks of it; sharing needs paged blocks),
/// each sequence's other tokens rounded up to whole blocks, and a block
/// table of 4-byte entries per sequence, and each sequence's window-sized
/// caches.
struct CacheSize {
  double bytes = 0, tableBytes = 0;
  /// Share of the token slots held that hold no token.
  double fragmentation = 0;
};
CacheSize cacheSize(const KVShape &shape, const KVServing &kv, int64_t batch,
                    int64_t context);
/// The prefix tokens whose cache a sequence reuses at `context`: the
/// shared prefix, in whole blocks when paged. Prefill computes the rest.
int64_t sharedPrefix(const KVServing &kv, int64_t context);
/// The largest batch whose cache at `context` fits `capacityBytes` (0
/// when not even one sequence does).
int64_t maxBatch(const KVShape &shape, const KVServing &kv, int64_t context,
                 double capacityBytes);

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
  std::vector<target::Override> overrides;
  std::vector<LLMPoint> points;
  /// Where the cache lives (target::cacheHome): the level, the chips, the
  /// bytes it has for the cache, where a larger one goes.
  std::string cacheLevel, spill;
  int64_t chips = 1;
  double cacheCapacityBytes = 0, spillBandwidth = 0, chipBytes = 0;
  /// Under tensor parallelism, the weights each chip's program holds
  /// beside its part of the cache (its parts of the split ones, the
  /// replicated ones whole); 0 otherwise.
  double chipWeightBytes = 0;
  /// Per swept context, the largest batch whose cache fits there.
  std::map<int64_t, int64_t> maxBatchByContext;
  /// One per swept context that has decode points.
  std::vector<Crossover> crossovers() const;
};

/// Which symbolic dims of the model are the batch, the new tokens, the
/// cached context and their sum, the attention's whole length (the GenAI
/// model builder's `total_sequence_length`) ("" when it has none).
struct LLMDims {
  std::string batch, seq, past, total;
};

/// Guesses the roles from the names: Hugging Face Optimum's
/// `batch_size`, `sequence_length`, `past_sequence_length`, the GenAI
/// builder's `total_sequence_length` and the usual short forms.
/// Expressions ("past + seq") are never a role.
LLMDims guessLLMDims(llvm::ArrayRef<std::string> symbolicDims);

struct LLMSweep {
  std::vector<std::string> phases;
  std::vector<int64_t> batches, contexts;
  LLMDims dims;
  KVShape kv;
  KVServing serving;
  /// Bytes of the weights (they share the cache's memory on most targets).
  double weightBytes = 0;
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
