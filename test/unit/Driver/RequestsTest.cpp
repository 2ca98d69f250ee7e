//===- RequestsTest.cpp - request streams, buckets and their suggestion ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/Requests.h"

#include <catch2/catch.hpp>

#include <random>

using namespace dfa;
using namespace dfa::driver;

namespace {
/// Padded elements of `counts` rounded up to `buckets`.
int64_t padding(const std::map<int64_t, int64_t> &counts,
                const std::vector<int64_t> &buckets) {
  int64_t p = 0;
  for (auto [v, n] : counts)
    p += n * (*std::lower_bound(buckets.begin(), buckets.end(), v) - v);
  return p;
}
} // namespace

TEST_CASE("suggested buckets pad least of every choice", "[driver][requests]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 40; ++round) {
    std::map<int64_t, int64_t> counts;
    int distinct = 1 + int(rng() % 9);
    for (int i = 0; i < distinct; ++i)
      counts[1 + int64_t(rng() % 200)] += 1 + int64_t(rng() % 5);
    std::vector<int64_t> values;
    for (auto [v, n] : counts)
      values.push_back(v);
    for (int64_t k = 1; k <= 4; ++k) {
      std::vector<int64_t> got = suggestBuckets(counts, k);
      REQUIRE(!got.empty());
      CHECK(int64_t(got.size()) <= k);
      CHECK(got.back() == values.back());
      CHECK(std::is_sorted(got.begin(), got.end()));
      // Brute force over every subset of k - 1 sizes below the largest.
      int64_t best = INT64_MAX;
      size_t m = values.size() - 1;
      for (uint32_t mask = 0; mask < (1u << m); ++mask) {
        if (__builtin_popcount(mask) > k - 1)
          continue;
        std::vector<int64_t> b;
        for (size_t i = 0; i < m; ++i)
          if (mask & (1u << i))
            b.push_back(values[i]);
        b.push_back(values.back());
        best = std::min(best, padding(counts, b));
      }
      CHECK(padding(counts, got) == best);
    }
  }
}

TEST_CASE("bucketing rounds up, and past the largest keeps the size",
          "[driver][requests]") {
  std::map<std::string, std::vector<int64_t>> b{{"seq", {64, 128}}};
  CHECK(bucketed({{"seq", 1}, {"batch", 3}}, b) == GuardKey{{"seq", 64}, {"batch", 3}});
  CHECK(bucketed({{"seq", 64}}, b) == GuardKey{{"seq", 64}});
  CHECK(bucketed({{"seq", 65}}, b) == GuardKey{{"seq", 128}});
  CHECK(bucketed({{"seq", 300}}, b) == GuardKey{{"seq", 300}});
  std::vector<BucketVariant> v = bucketVariants({{"seq", {64, 128}}, {"batch", {1, 8}}});
  REQUIRE(v.size() == 4);
  CHECK(v[0].label() == "batch=1,seq=64");
  CHECK(v[3].smallest == GuardKey{{"batch", 2}, {"seq", 65}});
}

TEST_CASE("a stream binds the model's dims, line by line", "[driver][requests]") {
  std::vector<GraphInputSignature> inputs = {
      {"tokens", 2, {"batch", "seq", "64"}},
      {"mask", 2, {"batch", "1", "seq", "past + seq"}},
      {"ids", 8, {"", "3"}},
  };
  std::vector<Request> out;
  std::string error;
  REQUIRE(parseRequests("s.jsonl",
                        "{\"shapes\": {\"tokens\": [2, 5, 64], \"mask\": [2, 1, 5, 9], "
                        "\"ids\": [4, 3]}}\n\n",
                        inputs, {{"past", 4}}, out, error) == Status::Ok);
  REQUIRE(out.size() == 1);
  CHECK(out[0].line == 1);
  CHECK(out[0].dims == GuardKey{{"batch", 2}, {"seq", 5}, {"ids[0]", 4}});
  auto refused = [&](const char *text, const char *why) {
    std::vector<Request> none;
    std::string e;
    CHECK(parseRequests("s.jsonl", text, inputs, {{"past", 4}}, none, e) ==
          Status::BadInput);
    CHECK_THAT(e, Catch::Contains(why));
  };
  refused("{\"shapes\": {\"tokens\": [2, 5, 63]}}", "the model fixes it at 64");
  refused("{\"shapes\": {\"tokens\": [2, 5, 64], \"mask\": [2, 1, 5, 8], \"ids\": [1, 3]}}",
          "which the other sizes make 9");
  refused("{\"shapes\": {\"tokens\": [2, 5, 64], \"mask\": [3, 1, 5, 9], \"ids\": [1, 3]}}",
          "dim 'batch' is 2 in 'tokens' and 3 in 'mask'");
  refused("{\"shapes\": {\"tokens\": [2, 5, 64], \"mask\": [2, 1, 5, 9]}}",
          "no shape gives dim 0 of 'ids'");
  refused("[1, 2]", "a request is a JSON object");
}

TEST_CASE("a dim_param that is not a plain name binds whole", "[driver][requests]") {
  std::vector<GraphInputSignature> inputs = {{"x", 4, {"batch", "seq-len", "8"}}};
  std::vector<Request> out;
  std::string error;
  REQUIRE(parseRequests("s.jsonl", "{\"shapes\": {\"x\": [1, 5, 8]}}", inputs, {},
                        out, error) == Status::Ok);
  CHECK(out[0].dims == GuardKey{{"batch", 1}, {"seq-len", 5}});
  std::vector<Request> none;
  CHECK(parseRequests("s.jsonl", "{\"shapes\": {\"y\": [1]}}",
                      {{"x", 4, {"batch", "seq-len", "8"}}, {"y", 4, {"n"}}}, {}, none,
                      error) == Status::BadInput);
  CHECK_THAT(error, Catch::Contains("no shape gives dim 'batch'"));
}
