//===- ReductionTest.cpp - the reference's reductions against a naive walk --===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Driver/Driver.h"
#include "dfa/Reference/Evaluator.h"
#include "dfa/Support/Parallel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "TensorTypes.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace mlir;
using namespace dfa;

namespace {
/// The sum (or max) of every output of a reduction over `axes`, walking the
/// input in row-major order and accumulating in double: the order the
/// reference promises.
std::vector<double> naive(const std::vector<float> &x,
                          const std::vector<int64_t> &shape,
                          const std::vector<int64_t> &axes, bool isMax) {
  std::vector<int64_t> kept = shape;
  for (int64_t a : axes)
    kept[a] = 1;
  int64_t n = 1;
  for (int64_t d : kept)
    n *= d;
  std::vector<double> acc(n, isMax ? -INFINITY : 0.0);
  std::vector<int64_t> idx(shape.size(), 0);
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t o = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      o = o * kept[d] + (kept[d] == 1 ? 0 : idx[d]);
    double v = x[i];
    acc[o] = isMax ? (std::isnan(v) || v > acc[o] ? v : acc[o]) : acc[o] + v;
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  return acc;
}
} // namespace

TEST_CASE("reductions over every set of axes sum in row-major order, on any "
          "thread count",
          "[reference][reduction]") {
  // Large enough that the outputs split over three threads (ranges of
  // about 32k additions) for most sets of axes.
  std::vector<int64_t> shape = {4, 6, 33, 260};
  std::vector<float> x(4 * 6 * 33 * 260);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> d(-1e4f, 1e4f);
  for (float &v : x)
    v = d(rng);
  ref::Tensor input(ref::DType::F32, shape);
  std::memcpy(input.bytes(), x.data(), x.size() * sizeof(float));
  auto ctx = driver::createContext();
  for (int mask = 1; mask < 16; ++mask)
    for (bool isMax : {false, true}) {
      std::vector<int64_t> axes, outShape = shape;
      std::string list;
      for (int a = 0; a < 4; ++a)
        if (mask & (1 << a)) {
          axes.push_back(a);
          outShape[a] = 1;
          list += (list.empty() ? "" : ", ") + std::to_string(a);
        }
      std::string in = test::tensorType(shape), out = test::tensorType(outShape);
      std::string text = "func.func @main(%x: " + in + ") -> " + out +
                         " {\n  %r = graph." +
                         (isMax ? "reduce_max" : "reduce_sum") +
                         " %x {axes = array<i64: " + list +
                         ">, keepdims = true} : (" + in + ") -> " + out +
                         "\n  return %r : " + out + "\n}\n";
      OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, ctx.get());
      REQUIRE(module);
      auto func = module->lookupSymbol<func::FuncOp>("main");
      std::vector<double> want = naive(x, shape, axes, isMax);
      for (int threads : {1, 3}) {
        setThreadCount(threads);
        ref::Evaluator ev;
        auto got = ev.run(func, {input});
        REQUIRE(succeeded(got));
        INFO("axes {" << list << "} " << (isMax ? "max" : "sum") << " on "
                      << threads << " threads");
        REQUIRE((*got)[0].numElements() == int64_t(want.size()));
        for (size_t i = 0; i < want.size(); ++i)
          REQUIRE((*got)[0].data<float>()[i] == float(want[i]));
      }
    }
  setThreadCount(1);
}
