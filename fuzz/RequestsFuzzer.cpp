//===- RequestsFuzzer.cpp - libFuzzer harness: request streams (JSONL) ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Fuzzes the reader of `dfa-run --requests` streams against a decoder's
/// input signatures (tokens [batch, seq, 64], a mask [batch, 1, seq,
/// past + seq], a cache [batch, 4, past, 16] and an input with an unnamed
/// dim), as parseRequests binds them; seeds: test/tools/dfa-run/Inputs.
/// A refused stream must say why; an accepted one must bind every dim the
/// model leaves open to a size in [0, 2^40], and bucketing and the
/// suggested buckets must keep their invariants (every size at or under
/// its bucket, the largest size a bucket, at most K).
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "lib/Driver/Requests.h"

using namespace dfa;
using namespace dfa::driver;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::vector<GraphInputSignature> inputs = {
      {"tokens", 2, {"batch", "seq", "64"}},
      {"mask", 2, {"batch", "1", "seq", "past + seq"}},
      {"cache", 2, {"batch", "4", "past", "16"}},
      {"ids", 8, {"", "3"}},
  };
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  std::vector<Request> requests;
  std::string error;
  Status s = parseRequests("/nonexistent/fuzz.jsonl", text, inputs, {},
                           requests, error);
  if (s != Status::Ok) {
    if (error.empty())
      fuzz::bug("a stream was refused without a reason");
    if (s != Status::BadInput && s != Status::LimitExceeded)
      fuzz::bug("a stream was refused with an undocumented status");
    return 0;
  }
  std::map<int64_t, int64_t> counts;
  for (const Request &r : requests) {
    for (const char *dim : {"batch", "seq", "past", "ids[0]"})
      if (!r.dims.count(dim))
        fuzz::bug("an accepted request leaves a dim unbound");
    for (auto &[name, v] : r.dims)
      if (v < 0 || v > (int64_t(1) << 40))
        fuzz::bug("an accepted request binds a size out of range");
    ++counts[r.dims.at("seq")];
  }
  for (int64_t k : {1, 2, 4}) {
    std::vector<int64_t> b = suggestBuckets(counts, k);
    if (b.empty() || int64_t(b.size()) > k || b.back() != counts.rbegin()->first ||
        !std::is_sorted(b.begin(), b.end()))
      fuzz::bug("suggested buckets break their invariants");
    std::map<std::string, std::vector<int64_t>> buckets{{"seq", b}};
    for (const Request &r : requests) {
      GuardKey key = bucketed(r.dims, buckets);
      if (key.at("seq") < r.dims.at("seq") || key.at("past") != r.dims.at("past"))
        fuzz::bug("a request was bucketed below its size, or another dim moved");
    }
  }
  return 0;
}
