//===- gemm_bench.cpp - the reference's GEMM against OpenBLAS -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Prints GFLOP/s of float32 GEMM on square and transformer-shaped problems,
/// in one run, on 1 thread and on every core:
///   - dfa: the reference's graph.matmul as the evaluator runs it (the
///     tensor in, the contraction, the tensor out), which is what every
///     kernel body of a simulation costs;
///   - OpenBLAS: cblas_sgemm called directly on the same buffers;
/// and the ratio dfa / OpenBLAS (the goal: >= 0.9 at each count).
/// The median of several runs each.
///
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphDialect.h"
#include "dfa/Reference/Evaluator.h"
#include "dfa/Support/Parallel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace dfa;

/// The median of `runs` timed calls after one untimed one (the first call on
/// a thread pages in OpenBLAS's buffers).
template <typename F> static double medianSeconds(int runs, F f) {
  f();
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    auto s = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

namespace {
struct Shape {
  int64_t m, n, k;
  const char *what;
};

/// A func of one graph.matmul [m,k] x [k,n].
std::string matmulFunc(const Shape &s) {
  std::string a = std::to_string(s.m) + "x" + std::to_string(s.k) + "xf32";
  std::string b = std::to_string(s.k) + "x" + std::to_string(s.n) + "xf32";
  std::string c = std::to_string(s.m) + "x" + std::to_string(s.n) + "xf32";
  return "func.func @mm(%a: tensor<" + a + ">, %b: tensor<" + b +
         ">) -> tensor<" + c + "> {\n  %c = graph.matmul %a, %b : (tensor<" +
         a + ">, tensor<" + b + ">) -> tensor<" + c +
         ">\n  return %c : tensor<" + c + ">\n}\n";
}
} // namespace

int main() {
  mlir::DialectRegistry registry;
  registry.insert<graph::GraphDialect, mlir::func::FuncDialect>();
  ref::registerReferenceInterfaces(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> d(-1, 1);
  int cores = dfa::threadCount();
  std::vector<Shape> shapes = {{256, 256, 256, "square"},
                               {512, 512, 512, "square"},
                               {1024, 1024, 1024, "square"},
                               {2048, 2048, 2048, "square"},
                               {128, 4096, 4096, "prefill 128 x d4096"},
                               {1, 4096, 4096, "decode x d4096"},
                               {3136, 64, 576, "conv 3x3 (im2col)"}};
  std::printf("float32 GEMM, GFLOP/s (median of 5): dfa = graph.matmul through "
              "the reference's evaluator, OpenBLAS = cblas_sgemm called directly\n");
  std::printf("%-22s %16s %8s %9s %6s %8s %9s %6s\n", "shape m x n x k", "",
              "dfa 1t", "blas 1t", "ratio", "dfa " , "blas", "ratio");
  std::printf("%-22s %16s %8s %9s %6s %7dt %8dt %6s\n", "", "", "", "", "", cores,
              cores, "");
  for (const Shape &s : shapes) {
    std::string text = matmulFunc(s);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
    if (!module) {
      std::fprintf(stderr, "gemm_bench: cannot parse the matmul\n");
      return 1;
    }
    auto func = *module->getOps<mlir::func::FuncOp>().begin();
    ref::Tensor A(ref::DType::F32, {s.m, s.k}), B(ref::DType::F32, {s.k, s.n});
    for (int64_t i = 0; i < s.m * s.k; ++i)
      A.data<float>()[i] = d(rng);
    for (int64_t i = 0; i < s.k * s.n; ++i)
      B.data<float>()[i] = d(rng);
    std::vector<float> C(s.m * s.n);
    double flops = 2.0 * s.m * s.n * s.k;
    int runs = flops > 4e9 ? 3 : 5;
    double gf[2][2];
    for (int t = 0; t < 2; ++t) {
      dfa::setThreadCount(t == 0 ? 1 : cores);
      ref::Tensor args[2] = {A, B};
      double td = medianSeconds(runs, [&] {
        ref::Evaluator ev;
        (void)ev.run(func, args);
      });
      // OpenBLAS on its own threads (the reference keeps it serial and
      // splits products itself).
      openblas_set_num_threads(t == 0 ? 1 : cores);
      double tb = medianSeconds(runs, [&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k,
                    1.0f, A.data<float>(), s.k, B.data<float>(), s.n, 0.0f,
                    C.data(), s.n);
      });
      dfa::setThreadCount(t == 0 ? 1 : cores);
      gf[t][0] = flops / td / 1e9;
      gf[t][1] = flops / tb / 1e9;
    }
    std::string dims = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                       std::to_string(s.k);
    std::printf("%-22s %16s %8.1f %9.1f %5.2fx %8.1f %9.1f %5.2fx\n",
                dims.c_str(), s.what, gf[0][0], gf[0][1], gf[0][0] / gf[0][1],
                gf[1][0], gf[1][1], gf[1][0] / gf[1][1]);
  }
  return 0;
}
