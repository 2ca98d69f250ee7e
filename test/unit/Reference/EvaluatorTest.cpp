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
