//===- ConvTest.cpp - the reference's convolutions ------------------------===//
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
#include <string>

using namespace mlir;
using namespace dfa;

namespace {
/// A convolution of `x` by `w` (no bias), the same stride and padding on
/// every spatial dim, through the reference.
ref::Tensor runConv(const ref::Tensor &x, const ref::Tensor &w,
                    const std::vector<int64_t> &outShape, int64_t group,
                    int64_t stride, int64_t pad) {
  size_t spatial = x.shape().size() - 2;
  auto ones = [&](int64_t v, size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i)
      s += std::string(i ? ", " : "") + std::to_string(v);
    return s;
  };
  std::vector<int64_t> xs(x.shape().begin(), x.shape().end()),
      ws(w.shape().begin(), w.shape().end());
  std::string in = test::tensorType(xs), wt = test::tensorType(ws),
              out = test::tensorType(outShape);
  std::string text =
      "func.func @main(%x: " + in + ", %w: " + wt + ") -> " + out +
      " {\n  %0 = graph.conv %x, %w {strides = array<i64: " + ones(stride, spatial) +
      ">, pads = array<i64: " + ones(pad, 2 * spatial) +
      ">, dilations = array<i64: " + ones(1, spatial) + ">, group = " +
      std::to_string(group) + " : i64} : (" + in + ", " + wt + ") -> " + out +
      "\n  return %0 : " + out + "\n}\n";
  auto ctx = driver::createContext();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, ctx.get());
  REQUIRE(module);
  ref::Evaluator ev;
  auto result = ev.run(module->lookupSymbol<func::FuncOp>("main"), {x, w});
  REQUIRE(succeeded(result));
  return (*result)[0];
}

ref::Tensor random(const std::vector<int64_t> &shape, uint32_t seed) {
  ref::Tensor t(ref::DType::F32, shape);
  for (int64_t i = 0, n = t.numElements(); i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    t.setDouble(i, double(seed >> 8) / double(1 << 24) - 0.5);
  }
  return t;
}
} // namespace

TEST_CASE("a convolution whose columns take several im2col blocks matches "
          "the direct sum, on any thread count",
          "[reference][conv]") {
  // 3-D, 32 channels, 3x3x3 taps over a 6x66x66 input, stride 2, pad 1:
  // 864 taps x 33 outputs a row is 114 kB, so the 8 MiB blocks hold 73 of
  // the 3 x 33 = 99 output rows (two blocks, the second partial). 2-D, 2
  // groups of 48 channels: 432 taps x 128 outputs a row is 221 kB, 37 of
  // the 128 rows a block (four blocks).
  struct Case {
    std::vector<int64_t> x, w, out;
    int64_t group, stride = 2, pad = 1;
  };
  for (const Case &c : {Case{{1, 32, 6, 66, 66}, {4, 32, 3, 3, 3}, {1, 4, 3, 33, 33}, 1},
                        Case{{1, 96, 256, 256}, {6, 48, 3, 3}, {1, 6, 128, 128}, 2},
                        // Depthwise 3-D over one depth position, padded in
                        // depth: three output planes (not the plane kernel's).
                        Case{{1, 4, 1, 9, 9}, {8, 1, 1, 3, 3}, {1, 8, 3, 9, 9}, 4, 1, 1},
                        // Depthwise 2-D at unit stride: the plane kernel.
                        Case{{1, 3, 14, 14}, {6, 1, 5, 5}, {1, 6, 12, 12}, 3, 1, 1},
                        // Depthwise 2-D at stride 2: the plane kernel on
                        // the image's four phases (odd and even sizes).
                        Case{{1, 3, 15, 15}, {6, 1, 5, 5}, {1, 6, 8, 8}, 3, 2, 2},
                        Case{{1, 4, 16, 16}, {4, 1, 3, 3}, {1, 4, 8, 8}, 4, 2, 1},
                        Case{{2, 2, 9, 9}, {2, 1, 3, 3}, {2, 2, 3, 3}, 2, 3, 0}}) {
    ref::Tensor x = random(c.x, 1), w = random(c.w, 2);
    setThreadCount(1);
    ref::Tensor one = runConv(x, w, c.out, c.group, c.stride, c.pad);
    setThreadCount(3);
    ref::Tensor three = runConv(x, w, c.out, c.group, c.stride, c.pad);
    setThreadCount(2);
    REQUIRE(one.byteSize() == three.byteSize());
    CHECK(std::memcmp(one.bytes(), three.bytes(), one.byteSize()) == 0);
    // The direct sum, in double.
    size_t sp = c.x.size() - 2;
    int64_t F = c.out[1], Cg = c.w[1], Fg = F / c.group;
    std::vector<int64_t> os(c.out.begin() + 2, c.out.end()),
        is(c.x.begin() + 2, c.x.end()), ks(c.w.begin() + 2, c.w.end());
    auto count = [](const std::vector<int64_t> &v) {
      int64_t n = 1;
      for (int64_t d : v)
        n *= d;
      return n;
    };
    int64_t O = count(os), I = count(is), K = count(ks);
    double worst = 0;
    for (int64_t f = 0; f < F; ++f)
      for (int64_t o = 0; o < O; ++o) {
        double acc = 0;
        int64_t g = f / Fg;
        for (int64_t ci = 0; ci < Cg; ++ci)
          for (int64_t t = 0; t < K; ++t) {
            int64_t xo = 0, oo = o, tt = t, inside = 1;
            for (size_t d = 0; d < sp; ++d) {
              int64_t inner = 1, kinner = 1;
              for (size_t e = d + 1; e < sp; ++e)
                inner *= os[e], kinner *= ks[e];
              int64_t od = oo / inner, kd = tt / kinner;
              oo %= inner, tt %= kinner;
              int64_t id = od * c.stride - c.pad + kd;
              inside &= id >= 0 && id < is[d];
              int64_t iinner = 1;
              for (size_t e = d + 1; e < sp; ++e)
                iinner *= is[e];
              xo += id * iinner;
            }
            if (inside)
              acc += x.getDouble((g * Cg + ci) * I + xo) *
                     w.getDouble((f * Cg + ci) * K + t);
          }
        worst = std::max(worst, std::abs(acc - one.getDouble(f * O + o)));
      }
    CHECK(worst < 1e-4);
  }
}
