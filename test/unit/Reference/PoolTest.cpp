//===- PoolTest.cpp - the reference's max and average pooling --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TensorTypes.h"

#include "dfa/Driver/Driver.h"
#include "dfa/Reference/Evaluator.h"
#include "dfa/Support/Parallel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

using namespace mlir;
using namespace dfa;

namespace {
struct Case {
  int64_t k[2], s[2], d[2], pads[4]; // pads: top, left, bottom, right
  bool ceil = false;
};

int64_t outSize(int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb,
                int64_t pe, bool ceil) {
  int64_t span = in + pb + pe - d * (k - 1) - 1;
  return (ceil ? (span + s - 1) / s : span / s) + 1;
}

std::string list(std::initializer_list<int64_t> v) {
  std::string s;
  for (int64_t x : v)
    s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

/// Pools by the definition: each output visits its window's in-bounds
/// inputs in order of (kh, kw).
float naive(const ref::Tensor &x, int64_t nc, int64_t H, int64_t W,
            const Case &c, int64_t oh, int64_t ow, bool isMax,
            bool includePad) {
  double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
  int64_t valid = 0;
  for (int64_t kh = 0; kh < c.k[0]; ++kh)
    for (int64_t kw = 0; kw < c.k[1]; ++kw) {
      int64_t ih = oh * c.s[0] - c.pads[0] + kh * c.d[0];
      int64_t iw = ow * c.s[1] - c.pads[1] + kw * c.d[1];
      if (ih < 0 || ih >= H || iw < 0 || iw >= W)
        continue;
      ++valid;
      double v = x.getDouble((nc * H + ih) * W + iw);
      acc = isMax ? (std::isnan(v) || v > acc ? v : acc) : acc + v;
    }
  if (isMax)
    return float(acc);
  // Padded counts per axis, as ONNX's count_include_pad multiplies them.
  int64_t ph = 0, pw = 0;
  for (int64_t kh = 0; kh < c.k[0]; ++kh) {
    int64_t ih = oh * c.s[0] - c.pads[0] + kh * c.d[0];
    ph += ih >= -c.pads[0] && ih < H + c.pads[2];
  }
  for (int64_t kw = 0; kw < c.k[1]; ++kw) {
    int64_t iw = ow * c.s[1] - c.pads[1] + kw * c.d[1];
    pw += iw >= -c.pads[1] && iw < W + c.pads[3];
  }
  return float(acc / double(includePad ? ph * pw : std::max<int64_t>(valid, 1)));
}
} // namespace

TEST_CASE("max and average pooling match the definition, on any thread count",
          "[reference][pool]") {
  const int64_t C = 5, H = 13, W = 11;
  ref::Tensor x(ref::DType::F32, {1, C, H, W});
  uint32_t seed = 7;
  for (int64_t i = 0; i < x.numElements(); ++i) {
    seed = seed * 1664525u + 1013904223u;
    x.setDouble(i, double(seed >> 8) / double(1 << 24) - 0.5);
  }
  x.setDouble(17, std::nan("")); // a NaN wins a max
  x.setDouble(40, -std::numeric_limits<double>::infinity());
  Case cases[] = {
      {{3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}},        // Inception's average pool
      {{3, 3}, {2, 2}, {1, 1}, {0, 0, 0, 0}},        // its max pool
      {{3, 3}, {2, 2}, {1, 1}, {0, 0, 0, 0}, true},  // ceil mode
      {{2, 3}, {1, 2}, {2, 1}, {1, 0, 0, 2}},        // dilated, uneven pads
      {{5, 5}, {1, 1}, {1, 1}, {2, 2, 2, 2}},        // a wide window
      {{1, 4}, {1, 3}, {1, 1}, {0, 1, 0, 1}, true},  // one row of taps
  };
  auto ctx = driver::createContext();
  for (const Case &c : cases)
    for (int kind = 0; kind < 3; ++kind) { // max, avg, avg counting pads
      bool isMax = kind == 0, includePad = kind == 2;
      int64_t OH = outSize(H, c.k[0], c.s[0], c.d[0], c.pads[0], c.pads[2], c.ceil);
      int64_t OW = outSize(W, c.k[1], c.s[1], c.d[1], c.pads[1], c.pads[3], c.ceil);
      std::string in = test::tensorType({1, C, H, W}),
                  out = test::tensorType({1, C, OH, OW});
      std::string attrs = "kernel = array<i64: " + list({c.k[0], c.k[1]}) +
                          ">, strides = array<i64: " + list({c.s[0], c.s[1]}) +
                          ">, pads = array<i64: " +
                          list({c.pads[0], c.pads[1], c.pads[2], c.pads[3]}) +
                          ">, dilations = array<i64: " + list({c.d[0], c.d[1]}) +
                          ">, ceil_mode = " + (c.ceil ? "true" : "false");
      if (!isMax)
        attrs += std::string(", count_include_pad = ") + (includePad ? "true" : "false");
      std::string text = "func.func @main(%x: " + in + ") -> " + out +
                         " {\n  %0 = graph." + (isMax ? "max_pool" : "avg_pool") +
                         " %x {" + attrs + "} : (" + in + ") -> " + out +
                         "\n  return %0 : " + out + "\n}\n";
      OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, ctx.get());
      REQUIRE(module);
      for (int threads : {1, 3}) {
        setThreadCount(threads);
        ref::Evaluator ev;
        auto got = ev.run(module->lookupSymbol<func::FuncOp>("main"), {x});
        REQUIRE(succeeded(got));
        const float *y = (*got)[0].data<float>();
        for (int64_t nc = 0; nc < C; ++nc)
          for (int64_t oh = 0; oh < OH; ++oh)
            for (int64_t ow = 0; ow < OW; ++ow) {
              float want = naive(x, nc, H, W, c, oh, ow, isMax, includePad);
              float have = y[(nc * OH + oh) * OW + ow];
              INFO("kind " << kind << " k " << c.k[0] << "x" << c.k[1] << " s "
                           << c.s[0] << "x" << c.s[1] << " at " << nc << ","
                           << oh << "," << ow << " on " << threads);
              REQUIRE(std::memcmp(&want, &have, sizeof(float)) == 0);
            }
      }
    }
  setThreadCount(2);
}
