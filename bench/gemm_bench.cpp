//===- gemm_bench.cpp - reference GEMM throughput vs a naive loop -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Prints GFLOP/s of the CPU reference's blocked GEMM and of the textbook
/// triple loop on square float32 problems, the median of several runs each.
///
//===----------------------------------------------------------------------===//

#include "Gemm.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

using namespace dfa::ref;

template <typename F> static double medianSeconds(int runs, F f) {
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    auto s = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> d(-1, 1);
  std::printf("%6s %14s %14s %8s\n", "n", "blocked GF/s", "naive GF/s", "ratio");
  for (int n : {128, 256, 512, 1024}) {
    std::vector<float> A(n * n), B(n * n), C(n * n);
    for (float &x : A) x = d(rng);
    for (float &x : B) x = d(rng);
    double flops = 2.0 * n * n * n;
    double tb = medianSeconds(5, [&] {
      gemm(n, n, n, A.data(), n, false, B.data(), n, false, C.data(), n);
    });
    double tn = medianSeconds(n >= 1024 ? 1 : 3, [&] {
      gemmNaive(n, n, n, A.data(), B.data(), C.data());
    });
    std::printf("%6d %14.2f %14.2f %7.1fx\n", n, flops / tb / 1e9,
                flops / tn / 1e9, tn / tb);
  }
  return 0;
}
