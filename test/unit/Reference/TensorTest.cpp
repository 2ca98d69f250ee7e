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

TEST_CASE("every 8-bit float survives a round trip through double", "[tensor][float8]") {
  for (DType t : {DType::F8E4M3FN, DType::F8E4M3FNUZ, DType::F8E5M2, DType::F8E5M2FNUZ}) {
    INFO(dtypeName(t).str());
    for (int bits = 0; bits < 256; ++bits) {
      double v = minifloatToDouble(t, (uint8_t)bits);
      if (std::isnan(v))
        continue;
      CHECK(doubleToMinifloat(t, v) == bits);
    }
  }
}

TEST_CASE("8-bit floats round to nearest even and overflow by format", "[tensor][float8]") {
  CHECK(minifloatMax(DType::F8E4M3FN) == 448);
  CHECK(minifloatMax(DType::F8E4M3FNUZ) == 240);
  CHECK(minifloatMax(DType::F8E5M2) == 57344);
  // 0.3 lies between 0.28125 and 0.3125 in E4M3: nearer the upper.
  CHECK(minifloatToDouble(DType::F8E4M3FN, doubleToMinifloat(DType::F8E4M3FN, 0.3)) == 0.3125);
  // 464 is halfway between 448 (mantissa 110, even) and 480 (E4M3FN's NaN
  // encoding): the tie goes to 448; anything above overflows to NaN.
  CHECK(minifloatToDouble(DType::F8E4M3FN, doubleToMinifloat(DType::F8E4M3FN, 464)) == 448);
  CHECK(std::isnan(minifloatToDouble(DType::F8E4M3FN, doubleToMinifloat(DType::F8E4M3FN, 470))));
  CHECK(std::isinf(minifloatToDouble(DType::F8E5M2, doubleToMinifloat(DType::F8E5M2, 1e6))));
  CHECK(std::isnan(minifloatToDouble(DType::F8E5M2FNUZ, doubleToMinifloat(DType::F8E5M2FNUZ, 1e6))));
  // The FNUZ formats have no negative zero.
  CHECK(std::signbit(minifloatToDouble(DType::F8E4M3FN, doubleToMinifloat(DType::F8E4M3FN, -0.0))));
  CHECK(!std::signbit(minifloatToDouble(DType::F8E4M3FNUZ, doubleToMinifloat(DType::F8E4M3FNUZ, -0.0))));
}

TEST_CASE("every FP6 and FP4 code survives a round trip, and they saturate", "[tensor][minifloat]") {
  for (DType t : {DType::F4E2M1FN, DType::F6E2M3FN, DType::F6E3M2FN}) {
    INFO(dtypeName(t).str());
    unsigned codes = 1u << dtypeBits(t);
    for (unsigned bits = 0; bits < codes; ++bits)
      CHECK(doubleToMinifloat(t, minifloatToDouble(t, (uint8_t)bits)) == bits);
  }
  CHECK(minifloatMax(DType::F4E2M1FN) == 6);
  CHECK(minifloatMax(DType::F6E2M3FN) == 7.5);
  CHECK(minifloatMax(DType::F6E3M2FN) == 28);
  auto f4 = [](double v) {
    return minifloatToDouble(DType::F4E2M1FN, doubleToMinifloat(DType::F4E2M1FN, v));
  };
  // E2M1 holds 0, 0.5, 1, 1.5, 2, 3, 4, 6: ties go to the even mantissa.
  CHECK(f4(0.25) == 0);
  CHECK(f4(0.26) == 0.5);
  CHECK(f4(1.25) == 1);
  CHECK(f4(2.5) == 2);
  CHECK(f4(5) == 4);
  CHECK(f4(7) == 6);
  CHECK(f4(1e9) == 6);
  CHECK(f4(-INFINITY) == -6);
  // No NaN: a zero of the opposite sign (ml_dtypes, the ONNX reference).
  CHECK(doubleToMinifloat(DType::F4E2M1FN, NAN) == 0x8);
  CHECK(doubleToMinifloat(DType::F4E2M1FN, -NAN) == 0x0);
  CHECK(doubleToMinifloat(DType::F6E3M2FN, NAN) == 0x20);
}

TEST_CASE("E8M0 takes the float32 exponent and rounds by mode", "[tensor][minifloat]") {
  CHECK(minifloatToDouble(DType::F8E8M0FNU, 127) == 1.0);
  CHECK(minifloatToDouble(DType::F8E8M0FNU, 0) == std::ldexp(1.0, -127));
  CHECK(std::isnan(minifloatToDouble(DType::F8E8M0FNU, 0xFF)));
  using R = E8M0Rounding;
  CHECK(toE8M0(1.0f, R::Up, true) == 127);
  CHECK(toE8M0(1.1f, R::Up, true) == 128);
  CHECK(toE8M0(1.1f, R::Down, true) == 127);
  CHECK(toE8M0(1.4f, R::Nearest, true) == 127);
  CHECK(toE8M0(1.5f, R::Nearest, true) == 128);
  CHECK(toE8M0(-4.0f, R::Up, true) == 129); // the sign is dropped
  CHECK(toE8M0(0.0f, R::Up, true) == 0);
  CHECK(toE8M0(1e-40f, R::Up, true) == 1);  // a subnormal rounds up
  CHECK(toE8M0(1e-40f, R::Nearest, true) == 0);
  CHECK(toE8M0(INFINITY, R::Up, true) == 0xFF);
  CHECK(toE8M0(NAN, R::Down, true) == 0xFF);
  // Above 2^127: saturating stays at 2^127, else the next code is NaN.
  float big = std::ldexp(1.5f, 127);
  CHECK(toE8M0(big, R::Up, true) == 254);
  CHECK(toE8M0(big, R::Up, false) == 255);
  // The generic conversion is ml_dtypes': the nearest power of two, exact
  // for every code; no zero or sign (NaN).
  for (int code = 0; code < 255; ++code)
    CHECK(doubleToMinifloat(DType::F8E8M0FNU,
                            minifloatToDouble(DType::F8E8M0FNU, uint8_t(code))) == code);
  CHECK(doubleToMinifloat(DType::F8E8M0FNU, 0.124) == 124);
  CHECK(doubleToMinifloat(DType::F8E8M0FNU, 1.4) == 127);
  CHECK(doubleToMinifloat(DType::F8E8M0FNU, 1.5) == 128);
  CHECK(doubleToMinifloat(DType::F8E8M0FNU, 3.0) == 129);
  CHECK(doubleToMinifloat(DType::F8E8M0FNU, 0.0) == 0xFF);
  CHECK(doubleToMinifloat(DType::F8E8M0FNU, -2.0) == 0xFF);
  CHECK(doubleToMinifloat(DType::F8E8M0FNU, std::ldexp(1.0, -140)) == 0);
  CHECK(doubleToMinifloat(DType::F8E8M0FNU, std::ldexp(1.5, 127)) == 0xFF);
}

TEST_CASE("sub-byte integers wrap from integers and zero out-of-range floats", "[tensor][int4]") {
  Tensor t(DType::I4, {4});
  t.setInt(0, 7);
  t.setInt(1, 8);   // wraps to -8
  t.setInt(2, -9);  // wraps to 7
  t.setDouble(3, 7.9);
  CHECK(t.getInt(0) == 7);
  CHECK(t.getInt(1) == -8);
  CHECK(t.getInt(2) == 7);
  CHECK(t.getInt(3) == 7);
  t.setDouble(0, 8.0);  // outside [-8, 7]: 0, as the ONNX reference converts
  t.setDouble(1, -8.5); // truncates to -8, inside
  CHECK(t.getInt(0) == 0);
  CHECK(t.getInt(1) == -8);
  Tensor u(DType::U2, {2});
  u.setInt(0, 5); // wraps to 1
  u.setDouble(1, 3.5);
  CHECK(u.getInt(0) == 1);
  CHECK(u.getInt(1) == 3);
  CHECK(dtypeBits(DType::I4) == 4);
  CHECK(dtypeSize(DType::I4) == 1);
}
