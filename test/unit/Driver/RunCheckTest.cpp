//===- RunCheckTest.cpp - how dfa-run judges --expect ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/RunCheck.h"

#include "dfa/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

namespace {
/// modelJudge's budgets for @main of `src` on a target that stores every
/// format as it is (f16 as IEEE half).
std::vector<bisect::Budget> budgetsOf(const char *src) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(src, &ctx);
  REQUIRE(m);
  auto main = *m->getOps<func::FuncOp>().begin();
  target::Target t;
  RunOptions opts; // lenient: 2 ulps a rounding
  return modelJudge(opts, t, main, {}).budgets;
}
} // namespace

TEST_CASE("the expected side's chain counts each rounding in its own format",
          "[driver][runcheck]") {
  // Two f32 roundings: 2 ulps x sqrt(2).
  std::vector<bisect::Budget> f32 = budgetsOf(R"mlir(
    func.func @main(%a: tensor<4x32xf32>, %b: tensor<32x8xf32>) -> tensor<4x8xf32> {
      %0 = graph.matmul %a, %b : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
      %1 = graph.relu %0 : tensor<4x8xf32>
      return %1 : tensor<4x8xf32>
    })mlir");
  REQUIRE(f32.size() == 1);
  CHECK(f32[0].referenceUlps == Approx(2 * std::sqrt(2.0)));
  // An f16 product cast to f32: its rounding is f16's, 2^13 f32 ulps (the
  // cast to the wider type rounds nothing it can be charged for beyond
  // one f32 ulp).
  std::vector<bisect::Budget> widened = budgetsOf(R"mlir(
    func.func @main(%a: tensor<4x32xf16>, %b: tensor<32x8xf16>) -> tensor<4x8xf32> {
      %0 = graph.matmul %a, %b : (tensor<4x32xf16>, tensor<32x8xf16>) -> tensor<4x8xf16>
      %1 = graph.cast %0 : (tensor<4x8xf16>) -> tensor<4x8xf32>
      return %1 : tensor<4x8xf32>
    })mlir");
  REQUIRE(widened.size() == 1);
  CHECK(widened[0].referenceUlps == Approx(2 * std::sqrt(8192.0 * 8192.0 + 1)));
  CHECK(widened[0].stored.name == "f32");
}

TEST_CASE("an f64 product passes its accumulation on to its readers",
          "[driver][runcheck]") {
  // The oracle is f64 too and cannot measure the product's reassociation
  // (a split along K), so the relu after it carries c sqrt(K) units of
  // f64 (lenient: c = 8... as the profile says) besides the two roundings;
  // the product itself is judged by its own reduction budget.
  std::vector<bisect::Budget> f64 = budgetsOf(R"mlir(
    func.func @main(%a: tensor<4x64xf64>, %b: tensor<64x8xf64>) -> (tensor<4x8xf64>, tensor<4x8xf64>) {
      %0 = graph.matmul %a, %b : (tensor<4x64xf64>, tensor<64x8xf64>) -> tensor<4x8xf64>
      %1 = graph.relu %0 : tensor<4x8xf64>
      return %0, %1 : tensor<4x8xf64>, tensor<4x8xf64>
    })mlir");
  REQUIRE(f64.size() == 2);
  bisect::Profile p = bisect::lenientProfile();
  double r = p.reductionC / p.elementwiseUlps * std::sqrt(64.0) * 0.5;
  CHECK(f64[0].referenceUlps == Approx(p.elementwiseUlps * std::sqrt(1.0)));
  CHECK(f64[1].referenceUlps == Approx(p.elementwiseUlps * std::sqrt(2.0 + r * r)));
  // In f32 the oracle measures it: nothing is carried analytically.
  std::vector<bisect::Budget> f32 = budgetsOf(R"mlir(
    func.func @main(%a: tensor<4x64xf32>, %b: tensor<64x8xf32>) -> tensor<4x8xf32> {
      %0 = graph.matmul %a, %b : (tensor<4x64xf32>, tensor<64x8xf32>) -> tensor<4x8xf32>
      %1 = graph.relu %0 : tensor<4x8xf32>
      return %1 : tensor<4x8xf32>
    })mlir");
  CHECK(f32[0].referenceUlps == Approx(p.elementwiseUlps * std::sqrt(2.0)));
}

TEST_CASE("a sum of products is judged as the reduction over all their K",
          "[driver][runcheck]") {
  std::vector<bisect::Budget> b = budgetsOf(R"mlir(
    func.func @main(%a: tensor<4x32xf32>, %b: tensor<32x8xf32>, %c: tensor<4x16xf32>, %d: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
      %0 = graph.matmul %a, %b : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
      %1 = graph.matmul %c, %d : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
      %2 = graph.add %0, %1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
      return %2, %0 : tensor<4x8xf32>, tensor<4x8xf32>
    })mlir");
  REQUIRE(b.size() == 2);
  CHECK(b[0].cls == bisect::OpClass::Reduction);
  CHECK(b[0].reductionLength == 48);
  CHECK(b[1].reductionLength == 32);
}
