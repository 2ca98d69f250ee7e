//===- GemmTest.cpp - the reference's GEMM against the naive loop -----------===//

#include "Gemm.h"

#include "dfa/Support/Parallel.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace dfa::ref;

namespace {
std::vector<float> randomMatrix(int64_t n, std::mt19937 &rng) {
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(rng);
  return v;
}

/// Transposes a rows x cols row-major matrix.
std::vector<float> transpose(const std::vector<float> &m, int64_t rows,
                             int64_t cols) {
  std::vector<float> t(m.size());
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      t[j * rows + i] = m[i * cols + j];
  return t;
}
} // namespace

TEST_CASE("gemm matches the triple loop", "[gemm]") {
  std::mt19937 rng(7);
  // Shapes that straddle BLAS block and micro-tile sizes, including
  // remainders of one.
  auto shape = GENERATE(std::make_tuple(1, 1, 1), std::make_tuple(5, 3, 7),
                        std::make_tuple(65, 513, 257),
                        std::make_tuple(130, 70, 300),
                        std::make_tuple(4, 1000, 3),
                        // One row: a matrix-vector product, B read as
                        // rows (transposed) or as columns.
                        std::make_tuple(1, 1000, 1280));
  auto [M, N, K] = shape;
  auto A = randomMatrix(M * K, rng), B = randomMatrix(K * N, rng);
  std::vector<float> ref(M * N), out(M * N);
  gemmNaive(M, N, K, A.data(), B.data(), ref.data());
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      auto a = ta ? transpose(A, M, K) : A;
      auto b = tb ? transpose(B, K, N) : B;
      gemm(M, N, K, a.data(), ta ? M : K, ta, b.data(), tb ? K : N, tb,
           out.data(), N);
      for (int64_t i = 0; i < M * N; ++i)
        REQUIRE(std::fabs(out[i] - ref[i]) <= 1e-4f * (1 + std::fabs(ref[i])));
    }
}

TEST_CASE("gemm writes only its ldc window", "[gemm]") {
  std::vector<float> A{1, 2, 3, 4}, B{1, 0, 0, 1};
  std::vector<float> C(2 * 3, -7.0f);
  gemm(2, 2, 2, A.data(), 2, false, B.data(), 2, false, C.data(), 3);
  REQUIRE(C[0] == 1);
  REQUIRE(C[1] == 2);
  REQUIRE(C[2] == -7.0f);
  REQUIRE(C[3] == 3);
  REQUIRE(C[4] == 4);
  REQUIRE(C[5] == -7.0f);
}

TEST_CASE("a narrow accumulator rounds every partial sum", "[gemm]") {
  // Summing 4096 ones in an f16 accumulator stalls at 2048: 2048 + 1 is a
  // tie between 2048 and 2050 and rounds to even. In f32 it reaches 4096.
  int64_t K = 4096;
  std::vector<float> A(K, 1.0f), B(K, 1.0f), C(1);
  gemmRounded(1, 1, K, A.data(), K, false, B.data(), 1, false, C.data(), 1,
              /*mantissaBits=*/10, /*exponentBits=*/5);
  REQUIRE(C[0] == 2048.0f);
  gemmRounded(1, 1, K, A.data(), K, false, B.data(), 1, false, C.data(), 1,
              23, 8);
  REQUIRE(C[0] == 4096.0f);
  // bf16 (7 mantissa bits) stalls at 256.
  gemmRounded(1, 1, K, A.data(), K, false, B.data(), 1, false, C.data(), 1,
              7, 8);
  REQUIRE(C[0] == 256.0f);
  // With an f32-wide format it agrees with the triple loop, transposes too.
  std::mt19937 rng(3);
  int64_t M = 5, N = 7, k = 33;
  auto X = randomMatrix(M * k, rng), Y = randomMatrix(k * N, rng);
  std::vector<float> want(M * N), got(M * N);
  gemmNaive(M, N, k, X.data(), Y.data(), want.data());
  auto Yt = transpose(Y, k, N);
  gemmRounded(M, N, k, X.data(), k, false, Yt.data(), k, true, got.data(), N,
              23, 8);
  for (int64_t i = 0; i < M * N; ++i)
    REQUIRE(std::fabs(got[i] - want[i]) <= 1e-5f);
}

TEST_CASE("an empty product is zeros", "[gemm]") {
  std::vector<float> C(6, -7.0f);
  gemm(2, 3, 0, nullptr, 1, false, nullptr, 3, false, C.data(), 3);
  for (float c : C)
    REQUIRE(c == 0.0f);
}

TEST_CASE("gemm is bit-identical for any thread count", "[gemm][threads]") {
  // The BLAS splits the output over threads, never k: every element's sum
  // runs in one order. Shapes big enough that OpenBLAS does use threads,
  // with edges that fall in different threads' ranges.
  std::mt19937 rng(11);
  auto shape = GENERATE(std::make_tuple(257, 263, 517),
                        std::make_tuple(1, 4099, 1031),
                        std::make_tuple(1031, 3, 777),
                        std::make_tuple(96, 96, 4096),
                        // Under two minimum tiles, in two halves.
                        std::make_tuple(192, 49, 1152));
  auto [M, N, K] = shape;
  auto A = randomMatrix(M * K, rng), B = randomMatrix(K * N, rng);
  std::vector<double> Ad(A.begin(), A.end()), Bd(B.begin(), B.end());
  int saved = dfa::threadCount();
  std::vector<float> one(M * N);
  std::vector<double> oneD(M * N);
  dfa::setThreadCount(1);
  gemm(M, N, K, A.data(), K, false, B.data(), N, false, one.data(), N);
  gemm(M, N, K, Ad.data(), K, false, Bd.data(), N, false, oneD.data(), N);
  for (int threads : {2, 3, 4}) {
    dfa::setThreadCount(threads);
    std::vector<float> many(M * N);
    std::vector<double> manyD(M * N);
    gemm(M, N, K, A.data(), K, false, B.data(), N, false, many.data(), N);
    gemm(M, N, K, Ad.data(), K, false, Bd.data(), N, false, manyD.data(), N);
    CAPTURE(threads);
    REQUIRE(std::memcmp(one.data(), many.data(), one.size() * sizeof(float)) == 0);
    REQUIRE(std::memcmp(oneD.data(), manyD.data(), oneD.size() * sizeof(double)) == 0);
  }
  dfa::setThreadCount(saved);
}
