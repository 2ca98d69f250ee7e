//===- CompareTest.cpp - output comparison ----------------------------------===//

#include "dfa/Driver/Driver.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace dfa;
using namespace dfa::driver;

TEST_CASE("allclose semantics with NaN parity", "[compare]") {
  auto a = ref::Tensor::fromDoubles(ref::DType::F32, {4}, {1.0, NAN, 3.0, 100.0});
  auto b = ref::Tensor::fromDoubles(ref::DType::F32, {4}, {1.0005, NAN, 3.0, 100.05});
  Comparison c = compare(a, b, 1e-3, 1e-7);
  REQUIRE(c.ok);
  auto d = ref::Tensor::fromDoubles(ref::DType::F32, {4}, {1.0, 0.0, 3.0, 101.0});
  c = compare(a, d, 1e-3, 1e-7);
  REQUIRE(!c.ok);
  REQUIRE(c.mismatches == 2);
  REQUIRE(std::isinf(c.worstActual - c.worstExpected) == false);
  REQUIRE(c.worstIndex == 1); // the NaN counts as the worst
}

TEST_CASE("integers compare exactly; shapes and dtypes must agree", "[compare]") {
  auto a = ref::Tensor::fromInts(ref::DType::I64, {2}, {1, 2});
  auto b = ref::Tensor::fromInts(ref::DType::I64, {2}, {1, 3});
  REQUIRE(!compare(a, b, 1, 1).ok);
  auto c = ref::Tensor::fromInts(ref::DType::I32, {2}, {1, 2});
  REQUIRE(!compare(a, c, 0, 0).problem.empty());
  auto d = ref::Tensor::fromInts(ref::DType::I64, {1, 2}, {1, 2});
  REQUIRE(!compare(a, d, 0, 0).problem.empty());
  REQUIRE(indexString({2, 3}, 5) == "[1, 2]");
}
