//===- LLMTest.cpp - LLM-mode roles and crossovers -------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Roofline/LLM.h"

#include <catch2/catch.hpp>

using namespace dfa::roofline;

TEST_CASE("roles from Optimum's and short dim names", "[roofline][llm]") {
  LLMDims d = guessLLMDims({"batch_size", "sequence_length",
                            "past_sequence_length + 1", "past_sequence_length"});
  CHECK(d.batch == "batch_size");
  CHECK(d.seq == "sequence_length");
  CHECK(d.past == "past_sequence_length");
  d = guessLLMDims({"B", "T", "cache_len"});
  CHECK(d.batch == "B");
  CHECK(d.seq == "T");
  CHECK(d.past == "cache_len");
  // torch.export's Dims as a user names them: the mask's "total".
  d = guessLLMDims({"batch", "seq", "past", "total"});
  CHECK(d.past == "past");
  CHECK(d.total == "total");
  d = guessLLMDims({"batch_size", "total_sequence_length"});
  CHECK(d.total == "total_sequence_length");
  d = guessLLMDims({"width", "height"});
  CHECK(d.batch.empty());
  CHECK(d.seq.empty());
  CHECK(d.past.empty());
  CHECK(d.total.empty());
}

namespace {
LLMPoint decode(int64_t batch, double computeRoof, double memoryRoof,
                double share) {
  LLMPoint p;
  p.phase = "decode";
  p.batch = batch;
  p.context = 512;
  p.seconds = memoryRoof;
  p.computeRoofSeconds = computeRoof;
  p.memoryRoofSeconds = memoryRoof;
  p.bandwidthBoundShare = share;
  return p;
}
} // namespace

TEST_CASE("decode crossover from the roofs' lines", "[roofline][llm]") {
  // Weights: 4 ms of reads at any batch; per sequence 10 us of compute and
  // 2 us of cache reads. The roofs cross at 4000 / (10 - 2) = 500; compute
  // matches the weight reads alone at 4000 / 10 = 400.
  LLMTarget t;
  t.target = "x";
  for (int64_t b : {1, 8, 32})
    t.points.push_back(decode(b, 10e-6 * b, 4e-3 + 2e-6 * b, 1.0));
  std::vector<Crossover> cs = t.crossovers();
  REQUIRE(cs.size() == 1);
  CHECK(cs[0].context == 512);
  CHECK_FALSE(cs[0].sweptBatch);
  REQUIRE(cs[0].roofBatch);
  CHECK(*cs[0].roofBatch == Approx(500));
  REQUIRE(cs[0].weightBatch);
  CHECK(*cs[0].weightBatch == Approx(400));
  CHECK(cs[0].computePerSequence == Approx(10e-6));
  CHECK(cs[0].memoryPerSequence == Approx(2e-6));

  // Cache reads grow faster than compute: the roofs never cross.
  t.points.clear();
  for (int64_t b : {1, 8, 32})
    t.points.push_back(decode(b, 10e-6 * b, 4e-3 + 50e-6 * b, 1.0));
  cs = t.crossovers();
  CHECK_FALSE(cs[0].roofBatch);
  CHECK(*cs[0].weightBatch == Approx(400));

  // The first swept batch that is not bandwidth-bound; failed steps are
  // left out of the fit.
  t.points.clear();
  t.points.push_back(decode(1, 1, 2, 0.9));
  t.points.push_back(decode(8, 8, 3, 0.3));
  LLMPoint failed = decode(32, 0, 0, 0);
  failed.error = "does not fit";
  t.points.push_back(failed);
  cs = t.crossovers();
  REQUIRE(cs[0].sweptBatch);
  CHECK(*cs[0].sweptBatch == 8);
}

TEST_CASE("tokens per second per phase", "[roofline][llm]") {
  LLMPoint p = decode(8, 0, 0, 0);
  p.seconds = 0.02;
  CHECK(p.tokensPerSecond() == Approx(400));
  p.phase = "prefill";
  CHECK(p.tokensPerSecond() == Approx(8 * 512 / 0.02));
}

TEST_CASE("KV cache sizes: contiguous, paged, a shared prefix", "[roofline][llm]") {
  // 1000 B per token. Contiguous: batch x context.
  KVShape kv;
  kv.bytesPerToken = 1000;
  CacheSize c = cacheSize(kv, KVServing{}, 4, 100);
  CHECK(c.bytes == 4 * 100 * 1000);
  CHECK(c.fragmentation == 0);
  CHECK(maxBatch(kv, KVServing{}, 100, 1e6) == 10);
  CHECK(maxBatch(kv, KVServing{}, 100, 99999) == 0);
  // Blocks of 48: 100 tokens hold 3 blocks (144 slots), 3 table entries.
  KVServing paged{48, 0, 0};
  c = cacheSize(kv, paged, 2, 100);
  CHECK(c.tableBytes == 2 * 3 * 4);
  CHECK(c.bytes == 2 * 144 * 1000 + 24);
  CHECK(c.fragmentation == Approx(2.0 * 44 / (2 * 144)));
  CHECK(maxBatch(kv, paged, 100, 1e6) == int64_t(1e6 / (144 * 1000 + 12)));
  // A 100-token prefix shares 2 whole blocks (96 tokens) once.
  KVServing prefix{48, 100, 0};
  CHECK(sharedPrefix(prefix, 200) == 96);
  c = cacheSize(kv, prefix, 3, 200);
  // Each sequence's own 104 tokens take 3 blocks; 5 table entries each.
  CHECK(c.bytes == (96 + 3 * 144) * 1000.0 + 3 * 5 * 4);
}

TEST_CASE("window-sized caches: a fixed share per sequence", "[roofline][llm]") {
  // 1000 B per token in full layers, 64 kB per sequence in window-sized
  // ones, whatever the context.
  KVShape kv;
  kv.bytesPerToken = 1000;
  kv.windowBytes = 64000;
  CHECK(cacheSize(kv, KVServing{}, 4, 100).bytes == 4 * (100 * 1000 + 64000));
  CHECK(cacheSize(kv, KVServing{}, 4, 1000).bytes == 4 * (1000 * 1000 + 64000));
  CHECK(maxBatch(kv, KVServing{}, 100, 1e6) == 6); // 164 kB a sequence
  CHECK(maxBatch(kv, KVServing{}, 100, 163999) == 0);
  // Paged blocks hold the full layers' tokens; the windows stay whole.
  KVServing paged{48, 0, 0};
  CHECK(cacheSize(kv, paged, 2, 100).bytes == 2 * (144 * 1000 + 12 + 64000));
}

TEST_CASE("steps run one after another combine", "[roofline][llm]") {
  LLMPoint a, b;
  a.phase = b.phase = "prefill";
  a.seconds = 1;
  b.seconds = 3;
  a.flops = 10;
  b.flops = 30;
  a.bandwidthBoundShare = 1;
  b.bandwidthBoundShare = 0;
  a.mix = {{"compute", 1.0}};
  b.mix = {{"memory:HBM", 1.0}};
  b.inPlaceAppends = 4; // the first chunk has no cache to grow
  LLMPoint c = combine({a, b});
  CHECK(c.inPlaceAppends == 4);
  CHECK(c.seconds == 4);
  CHECK(c.flops == 40);
  CHECK(c.steps == 2);
  CHECK(c.longestStepSeconds == 3);
  CHECK(c.bandwidthBoundShare == Approx(0.25));
  CHECK(c.mix["compute"] == Approx(0.25));
  CHECK(c.mix["memory:HBM"] == Approx(0.75));
}
