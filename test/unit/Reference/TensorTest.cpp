//===- TensorTest.cpp - host tensor and number formats ----------------------===//

#include "dfa/Reference/Tensor.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace dfa::ref;

TEST_CASE("float16 round trip is exact for every finite half", "[tensor]") {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00)
      continue; // Inf/NaN checked below
    REQUIRE(floatToHalf(halfToFloat(h)) == h);
  }
}

TEST_CASE("float16 rounds to nearest even and saturates to infinity", "[tensor]") {
  REQUIRE(halfToFloat(floatToHalf(1.0f)) == 1.0f);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0).
  REQUIRE(floatToHalf(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);
  // Just above the tie rounds up.
  REQUIRE(floatToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)) == 0x3c01);
  REQUIRE(floatToHalf(65504.0f) == 0x7bff);
  REQUIRE(floatToHalf(65520.0f) == 0x7c00);
  REQUIRE(floatToHalf(-1e9f) == 0xfc00);
  // Smallest subnormal, and half of it rounds to zero (even).
  REQUIRE(floatToHalf(std::ldexp(1.0f, -24)) == 0x0001);
  REQUIRE(floatToHalf(std::ldexp(1.0f, -25)) == 0x0000);
  REQUIRE(std::isnan(halfToFloat(floatToHalf(NAN))));
}

TEST_CASE("bfloat16 rounds to nearest even", "[tensor]") {
  REQUIRE(bf16ToFloat(floatToBF16(1.0f)) == 1.0f);
  float tie = 1.0f + std::ldexp(1.0f, -8); // halfway between 1 and 1+2^-7
  REQUIRE(floatToBF16(tie) == 0x3f80);
  REQUIRE(std::isnan(bf16ToFloat(floatToBF16(NAN))));
}

TEST_CASE("integer stores truncate toward zero and wrap", "[tensor]") {
  Tensor t(DType::I8, {3});
  t.setDouble(0, -2.7);
  t.setInt(1, 300);
  t.setDouble(2, NAN);
  REQUIRE(t.getInt(0) == -2);
  REQUIRE(t.getInt(1) == 44);
  REQUIRE(t.getInt(2) == 0);
}

TEST_CASE("reshaped shares storage, clone does not", "[tensor]") {
  Tensor t = Tensor::fromInts(DType::I32, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor v = t.reshaped({3, 2});
  Tensor c = t.clone();
  t.setInt(0, 42);
  REQUIRE(v.getInt(0) == 42);
  REQUIRE(c.getInt(0) == 1);
  REQUIRE(v.shape()[0] == 3);
}

TEST_CASE("row-major strides", "[tensor]") {
  Shape s = rowMajorStrides({2, 3, 4});
  REQUIRE(s[0] == 12);
  REQUIRE(s[1] == 4);
  REQUIRE(s[2] == 1);
  REQUIRE(numElements({}) == 1);
  REQUIRE(shapeString({2, 3}) == "2x3");
}

TEST_CASE("rounding to a storage format", "[reference][format]") {
  // IEEE f16 (10, 5) and dfp16 (9, 6): 1 + 2^-10 survives in f16 only.
  double x = 1.0 + std::ldexp(1.0, -10);
  REQUIRE(roundToFormat(x, 10, 5) == x);
  REQUIRE(roundToFormat(x, 9, 6) == 1.0); // a tie, to even
  REQUIRE(roundToFormat(1.0 + 3 * std::ldexp(1.0, -10), 9, 6) ==
          1.0 + std::ldexp(1.0, -8));
  // Overflow to infinity past the largest f16 (65504); dfp16 reaches
  // further with its sixth exponent bit.
  REQUIRE(std::isinf(roundToFormat(70000.0, 10, 5)));
  REQUIRE(roundToFormat(70000.0, 9, 6) == 70016.0);
  // Subnormals keep a fixed quantum.
  REQUIRE(roundToFormat(std::ldexp(1.0, -24), 10, 5) == std::ldexp(1.0, -24));
  REQUIRE(roundToFormat(std::ldexp(1.0, -26), 10, 5) == 0.0);
  REQUIRE(std::isnan(roundToFormat(NAN, 9, 6)));
}
