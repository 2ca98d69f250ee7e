//===- VectorMathTest.cpp - the reference's vector libm against libm --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "VectorMath.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace dfa::ref;

namespace {
double reference(vmath::Fn fn, double x) {
  switch (fn) {
  case vmath::Fn::Exp: return std::exp(x);
  case vmath::Fn::Erf: return std::erf(x);
  case vmath::Fn::Tanh: return std::tanh(x);
  case vmath::Fn::Log: return std::log(x);
  }
  return x;
}

/// Distance in units in the last place of double.
double ulps(double got, double want) {
  if (got == want || (std::isnan(got) && std::isnan(want)))
    return 0;
  return std::fabs(got - want) / std::max(std::fabs(std::nextafter(want, INFINITY) - want),
                                          std::numeric_limits<double>::denorm_min());
}
} // namespace

TEST_CASE("vector exp, erf, tanh and log stay within 4 ulp of libm",
          "[reference][vmath]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> wide(-30, 30), positive(1e-6, 1e6);
  for (vmath::Fn fn : {vmath::Fn::Exp, vmath::Fn::Erf, vmath::Fn::Tanh,
                       vmath::Fn::Log}) {
    std::vector<double> x(1003);
    for (double &v : x)
      v = fn == vmath::Fn::Log ? positive(rng) : wide(rng);
    std::vector<double> y = x;
    vmath::apply(fn, y.data(), int64_t(y.size()), /*precise=*/false);
    double worst = 0;
    int64_t floatDiffers = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      double want = reference(fn, x[i]);
      worst = std::max(worst, ulps(y[i], want));
      floatDiffers += float(y[i]) != float(want);
    }
    INFO("function " << int(fn) << " worst " << worst << " ulp");
    CHECK(worst <= 4);
    // Rounded to float32 (what the reference stores) the results agree.
    CHECK(floatDiffers == 0);
    // `precise` is libm itself.
    std::vector<double> z = x;
    vmath::apply(fn, z.data(), int64_t(z.size()), /*precise=*/true);
    for (size_t i = 0; i < x.size(); ++i)
      REQUIRE(ulps(z[i], reference(fn, x[i])) == 0);
  }
}

TEST_CASE("an element's vector result does not depend on its position or "
          "the array's length",
          "[reference][vmath]") {
  // A thread's range may start and end anywhere: the tail of a range goes
  // through the same routine as the body.
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> d(-8, 8);
  std::vector<double> x(37);
  for (double &v : x)
    v = d(rng);
  std::vector<double> whole = x;
  vmath::apply(vmath::Fn::Erf, whole.data(), int64_t(whole.size()), false);
  for (int64_t start = 0; start < 8; ++start)
    for (int64_t len = 1; start + len <= int64_t(x.size()); len += 3) {
      std::vector<double> part(x.begin() + start, x.begin() + start + len);
      vmath::apply(vmath::Fn::Erf, part.data(), len, false);
      for (int64_t i = 0; i < len; ++i)
        REQUIRE(std::memcmp(&part[i], &whole[start + i], sizeof(double)) == 0);
    }
}

TEST_CASE("special values pass through the vector routines",
          "[reference][vmath]") {
  std::vector<double> x = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1000, -1000};
  std::vector<double> e = x;
  vmath::apply(vmath::Fn::Exp, e.data(), int64_t(e.size()), false);
  CHECK(e[0] == 1);
  CHECK(e[2] == INFINITY);
  CHECK(e[3] == 0);
  CHECK(std::isnan(e[4]));
  CHECK(e[5] == INFINITY);
  CHECK(e[6] == 0);
  std::vector<double> t = x;
  vmath::apply(vmath::Fn::Tanh, t.data(), int64_t(t.size()), false);
  CHECK(t[2] == 1);
  CHECK(t[3] == -1);
  CHECK(std::signbit(t[1]));
  std::vector<double> l = {0.0, -1.0, 1.0, INFINITY};
  vmath::apply(vmath::Fn::Log, l.data(), int64_t(l.size()), false);
  CHECK(l[0] == -INFINITY);
  CHECK(std::isnan(l[1]));
  CHECK(l[2] == 0);
  CHECK(l[3] == INFINITY);
}

namespace {
/// How many floats apart `got` is from the correctly rounded value (glibc's
/// measure of its routines' ulps).
double ulpsF32(float got, double want) {
  float w = float(want);
  if (got == w || (std::isnan(got) && std::isnan(w)))
    return 0;
  auto ordered = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, sizeof i);
    return i < 0 ? int64_t(INT32_MIN) - i : int64_t(i);
  };
  return double(std::llabs(ordered(got) - ordered(w)));
}
} // namespace

TEST_CASE("float exp, erf, tanh and log stay within 2 ulp",
          "[reference][vmath]") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> wide(-87, 88), narrow(-6, 6),
      positive(1e-30f, 1e30f);
  for (vmath::Fn fn : {vmath::Fn::Exp, vmath::Fn::Erf, vmath::Fn::Tanh,
                       vmath::Fn::Log}) {
    std::vector<float> x(4099);
    for (float &v : x)
      v = fn == vmath::Fn::Log   ? positive(rng)
          : fn == vmath::Fn::Exp ? wide(rng)
                                 : narrow(rng);
    std::vector<float> y = x;
    vmath::applyF32(fn, y.data(), int64_t(y.size()));
    double worst = 0;
    for (size_t i = 0; i < x.size(); ++i)
      worst = std::max(worst, ulpsF32(y[i], reference(fn, double(x[i]))));
    INFO("function " << int(fn) << " worst " << worst << " ulp");
    CHECK(worst <= 2);
  }
}

TEST_CASE("float results do not depend on position, length or special values",
          "[reference][vmath]") {
  std::vector<float> x = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1000, -1000,
                          -100, 3, -3, 0.5f};
  std::vector<float> whole = x;
  vmath::applyF32(vmath::Fn::Exp, whole.data(), int64_t(whole.size()));
  CHECK(whole[0] == 1);
  CHECK(whole[2] == INFINITY);
  CHECK(whole[3] == 0);
  CHECK(std::isnan(whole[4]));
  CHECK(whole[5] == INFINITY);
  CHECK(whole[6] == 0);
  CHECK(whole[7] > 0); // a denormal, not flushed to zero
  for (int64_t start = 0; start < 4; ++start)
    for (int64_t len = 1; start + len <= int64_t(x.size()); ++len) {
      std::vector<float> part(x.begin() + start, x.begin() + start + len);
      vmath::applyF32(vmath::Fn::Exp, part.data(), len);
      for (int64_t i = 0; i < len; ++i)
        REQUIRE(std::memcmp(&part[i], &whole[start + i], sizeof(float)) == 0);
    }
}
