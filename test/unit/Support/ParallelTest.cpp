//===- ParallelTest.cpp - the reference's parallel loops --------------------===//

#include "Kernels.h"

#include "dfa/Support/Parallel.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <random>
#include <vector>

using namespace dfa;
using namespace dfa::ref;

TEST_CASE("parallelFor covers every item once in contiguous ranges",
          "[parallel]") {
  int saved = threadCount();
  for (int threads : {1, 2, 3, 7}) {
    setThreadCount(threads);
    for (int64_t n : {0, 1, 5, 1000, 12345}) {
      for (int64_t grain : {1, 7, 100000}) {
        std::vector<int> hits(n, 0);
        std::atomic<int64_t> ranges{0}, empty{0};
        parallelFor(n, grain, [&](int64_t b, int64_t e) {
          empty += b >= e; // Catch2's REQUIRE is not for other threads
          ++ranges;
          for (int64_t i = b; i < e; ++i)
            ++hits[i];
        });
        for (int h : hits)
          REQUIRE(h == 1);
        // Never more ranges than threads, none of them empty.
        REQUIRE(empty == 0);
        REQUIRE(ranges <= std::max<int64_t>(1, threads));
      }
    }
  }
  setThreadCount(saved);
}

TEST_CASE("a range of forEachOffset2 matches the whole walk", "[parallel]") {
  std::mt19937 rng(5);
  std::vector<Shape> shapes = {{}, {7}, {3, 1, 5}, {2, 3, 4, 5}, {4, 0, 3}};
  for (const Shape &shape : shapes) {
    Shape sa = rowMajorStrides(shape), sb(shape.size(), 0);
    if (!shape.empty())
      sb.back() = 3; // a broadcast operand read with its own stride
    int64_t n = numElements(shape);
    std::vector<std::pair<int64_t, int64_t>> whole(n);
    forEachOffset2(shape, sa, sb, [&](int64_t i, int64_t a, int64_t b) {
      whole[i] = {a, b};
    });
    for (int trial = 0; trial < 20 && n > 0; ++trial) {
      int64_t b = std::uniform_int_distribution<int64_t>(0, n)(rng);
      int64_t e = std::uniform_int_distribution<int64_t>(b, n)(rng);
      int64_t next = b;
      forEachOffset2In(shape, sa, sb, b, e, [&](int64_t i, int64_t a, int64_t o) {
        REQUIRE(i == next++);
        REQUIRE(whole[i] == std::make_pair(a, o));
      });
      REQUIRE(next == e);
    }
  }
}

TEST_CASE("thread counts parse as --threads and DFA_THREADS take them",
          "[parallel]") {
  std::string error;
  REQUIRE(parseThreadCount("4", error) == 4);
  REQUIRE(parseThreadCount(" 1024 ", error) == 1024);
  REQUIRE_FALSE(parseThreadCount("0", error));
  REQUIRE(error.find("'0' is not a thread count") != std::string::npos);
  REQUIRE_FALSE(parseThreadCount("1025", error));
  REQUIRE_FALSE(parseThreadCount("-2", error));
  REQUIRE_FALSE(parseThreadCount("two", error));
  REQUIRE_FALSE(parseThreadCount("", error));
}
