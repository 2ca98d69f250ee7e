//===- EvaluatorTest.cpp - the reference evaluator's value store ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Driver/Driver.h"
#include "dfa/Reference/Evaluator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>

using namespace mlir;
using namespace dfa;

TEST_CASE("an op with many results reads its operand while setting them",
          "[reference][evaluator]") {
  // A split sets its results one by one while it holds its operand; the
  // value store grows meanwhile (a regression: a DenseMap moved the
  // operand away and maxvit_t's splits crashed now and then).
  const int parts = 300;
  std::string types, names;
  for (int i = 0; i < parts; ++i) {
    types += std::string(i ? ", " : "") + "tensor<1x2xf32>";
    names += (i ? ", %r#" : "%r#") + std::to_string(i);
  }
  std::string text = "func.func @main(%x: tensor<" + std::to_string(parts) +
                     "x2xf32>) -> (" + types + ") {\n  %r:" + std::to_string(parts) +
                     " = graph.split %x {axis = 0 : i64, sizes = array<i64: " +
                     [&] {
                       std::string s;
                       for (int i = 0; i < parts; ++i)
                         s += std::string(i ? ", " : "") + "1";
                       return s;
                     }() +
                     ">} : (tensor<" + std::to_string(parts) + "x2xf32>) -> (" + types +
                     ")\n  return " + names + " : " + types + "\n}\n";
  auto ctx = driver::createContext();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, ctx.get());
  REQUIRE(module);
  auto func = module->lookupSymbol<func::FuncOp>("main");
  ref::Tensor x(ref::DType::F32, {parts, 2});
  for (int64_t i = 0; i < 2 * parts; ++i)
    x.setDouble(i, i);
  ref::Evaluator ev;
  auto out = ev.run(func, {x});
  REQUIRE(succeeded(out));
  REQUIRE(out->size() == (size_t)parts);
  for (int i = 0; i < parts; ++i) {
    CHECK((*out)[i].getDouble(0) == 2 * i);
    CHECK((*out)[i].getDouble(1) == 2 * i + 1);
  }
}

TEST_CASE("x * sigmoid(x) computed in one pass has the two ops' bytes",
          "[reference][evaluator]") {
  // %a: the pair (mul's operands either way round) runs as one pass when a
  // whole block runs; keepValues stores every value, so there each op runs
  // on its own. %c: a sigmoid with two uses is not fused. Values span
  // large, tiny (a denormal sigmoid), zero, infinite and NaN inputs.
  std::string text = R"(
func.func @main(%x: tensor<4x97xf32>) -> (tensor<4x97xf32>, tensor<4x97xf32>, tensor<4x97xf32>) {
  %s = graph.sigmoid %x : tensor<4x97xf32>
  %a = graph.mul %x, %s : (tensor<4x97xf32>, tensor<4x97xf32>) -> tensor<4x97xf32>
  %t = graph.sigmoid %x : tensor<4x97xf32>
  %b = graph.mul %t, %x : (tensor<4x97xf32>, tensor<4x97xf32>) -> tensor<4x97xf32>
  %u = graph.sigmoid %x : tensor<4x97xf32>
  %m = graph.mul %u, %x : (tensor<4x97xf32>, tensor<4x97xf32>) -> tensor<4x97xf32>
  %c = graph.add %m, %u : (tensor<4x97xf32>, tensor<4x97xf32>) -> tensor<4x97xf32>
  return %a, %b, %c : tensor<4x97xf32>, tensor<4x97xf32>, tensor<4x97xf32>
}
)";
  auto ctx = driver::createContext();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, ctx.get());
  REQUIRE(module);
  auto func = module->lookupSymbol<func::FuncOp>("main");
  ref::Tensor x(ref::DType::F32, {4, 97});
  for (int64_t i = 0; i < x.numElements(); ++i)
    x.setDouble(i, (i % 2 ? -1.0 : 1.0) * std::pow(1.37, double(i % 60) - 20));
  x.setDouble(0, 0.0);
  x.setDouble(1, -100.0);
  x.setDouble(2, INFINITY);
  x.setDouble(3, -INFINITY);
  x.setDouble(4, NAN);
  ref::Evaluator fused;
  auto one = fused.run(func, {x});
  ref::EvalOptions apart;
  apart.keepValues = true;
  ref::Evaluator separate(apart);
  auto two = separate.run(func, {x});
  REQUIRE(succeeded(one));
  REQUIRE(succeeded(two));
  for (int r = 0; r < 3; ++r) {
    INFO("result " << r);
    REQUIRE((*one)[r].byteSize() == (*two)[r].byteSize());
    // The same bytes; a NaN the same NaN up to sign and payload.
    for (int64_t i = 0; i < (*one)[r].numElements(); ++i) {
      float p = (*one)[r].data<float>()[i], q = (*two)[r].data<float>()[i];
      if (std::isnan(p) || std::isnan(q))
        CHECK((std::isnan(p) && std::isnan(q)));
      else
        CHECK(std::memcmp(&p, &q, sizeof p) == 0);
    }
  }
  // The values: x * sigmoid(x) within a few float ulps of the exact value.
  for (int64_t i = 5; i < x.numElements(); ++i) {
    double v = x.getDouble(i), want = v / (1 + std::exp(-v));
    CHECK(std::abs((*one)[0].getDouble(i) - want) <= 4e-7 * std::abs(want) + 1e-45);
  }
  CHECK((*one)[0].getDouble(0) == 0);
  CHECK((*one)[0].getDouble(1) < 0); // -100 * a denormal sigmoid, not -0
  CHECK((*one)[0].getDouble(2) == INFINITY);
  CHECK(std::isnan((*one)[0].getDouble(3))); // -inf * 0
  CHECK(std::isnan((*one)[0].getDouble(4)));
}
