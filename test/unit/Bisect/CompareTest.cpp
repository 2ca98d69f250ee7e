//===- CompareTest.cpp - dfa-bisect's tolerance model and patterns --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Bisect/Pattern.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace dfa;
using namespace dfa::bisect;

namespace {

ref::Tensor f32(std::vector<int64_t> shape, std::vector<double> values) {
  ref::Tensor t(ref::DType::F32, shape);
  for (size_t i = 0; i < values.size(); ++i)
    t.setDouble(int64_t(i), values[i]);
  return t;
}

Format ieee32() { return {"f32", 23, 8}; }
Format ieee16() { return {"f16", 10, 5}; }

} // namespace

TEST_CASE("ulp of a format", "[bisect]") {
  CHECK(ulp(1.0, ieee32()) == std::ldexp(1.0, -23));
  CHECK(ulp(1.5, ieee16()) == std::ldexp(1.0, -10));
  CHECK(ulp(1024.0, ieee16()) == 1.0);
  // Below the smallest normal the spacing stays that of the subnormals.
  CHECK(ulp(0.0, ieee16()) == std::ldexp(1.0, -24));
}

TEST_CASE("movement is bit-exact, arithmetic in ulps", "[bisect]") {
  ref::Tensor want = f32({4}, {1, 2, 3, 4});
  ref::Tensor got = f32({4}, {1, 2, 3, 4 + std::ldexp(4.0, -23)}); // 1 ulp
  Budget move = budgetFor(OpClass::Movement, 1, strictProfile(), ieee32(),
                          ieee32(), false);
  Metrics m = compare(got, want, ref::Tensor(), move);
  REQUIRE(m.bad.size() == 1);
  CHECK(m.bad[0] == 3);
  CHECK_FALSE(m.bitExact);
  CHECK(m.maxUlp == Approx(1));
  // One ulp is over the strict elementwise budget (half an ulp) and within
  // the lenient one (two).
  Budget strict = budgetFor(OpClass::Elementwise, 1, strictProfile(), ieee32(),
                            ieee32(), false);
  Budget lenient = budgetFor(OpClass::Elementwise, 1, lenientProfile(),
                             ieee32(), ieee32(), false);
  CHECK(compare(got, want, ref::Tensor(), strict).failed());
  CHECK_FALSE(compare(got, want, ref::Tensor(), lenient).failed());
}

TEST_CASE("reductions get a sqrt(K) budget", "[bisect]") {
  // |error| 1e-4 on values ~1: over 0.5 ulp of f32, but within
  // 4 sqrt(4096) 2^-24 max(|y|, rms) = 1.5e-5 ... times y = 100.
  ref::Tensor want = f32({2}, {100, 100});
  ref::Tensor got = f32({2}, {100.0001, 100});
  Budget b = budgetFor(OpClass::Reduction, 4096, strictProfile(), ieee32(),
                       ieee32(), false);
  CHECK_FALSE(compare(got, want, ref::Tensor(), b).failed());
  Budget k1 = budgetFor(OpClass::Reduction, 1, strictProfile(), ieee32(),
                        ieee32(), false);
  CHECK(compare(got, want, ref::Tensor(), k1).failed());
}

TEST_CASE("accumulated mode admits the reference's own error", "[bisect]") {
  ref::Tensor oracle = f32({2}, {1.0, 2.0});
  ref::Tensor want = f32({2}, {1.0 + 1e-6, 2.0});
  ref::Tensor got = f32({2}, {1.0 - 1e-6, 2.0});
  Budget b = budgetFor(OpClass::Elementwise, 1, strictProfile(), ieee32(),
                       ieee32(), false);
  CHECK(compare(got, want, oracle, b).failed());
  b.accumulated = true;
  Metrics m = compare(got, want, oracle, b);
  CHECK_FALSE(m.failed());
  CHECK(m.referenceRmseVsOracle == Approx(1e-6 / std::sqrt(2.0)).epsilon(0.1));
}

TEST_CASE("expected values from elsewhere: their rounding, not their answer",
          "[bisect]") {
  // The device agrees with the same-format reference; the expected values
  // (another implementation) are off the oracle by rounding, element 0 by
  // about as much as the reference, element 1 by far more.
  ref::Tensor oracle = f32({4}, {1.0, 2.0, 3.0, 4.0});
  ref::Tensor same = f32({4}, {1.0 + 4e-7, 2.0, 3.0, 4.0});
  ref::Tensor got = same;
  ref::Tensor want = f32({4}, {1.0 - 4e-7, 2.0, 3.0, 4.0});
  Budget b = budgetFor(OpClass::Elementwise, 1, strictProfile(), ieee32(),
                       ieee32(), true);
  // With the same-format reference standing for the device's carried
  // error, the expected value's rounding is admitted up to that scale.
  Metrics m = compare(got, want, oracle, b, same);
  CHECK_FALSE(m.failed());
  // A different answer is never admitted, however far the expected value
  // is from the oracle ...
  ref::Tensor wrong = f32({4}, {1.5, 2.0, 3.0, 4.0});
  // ... where taken as the reference's own error, it would be.
  CHECK_FALSE(compare(got, wrong, oracle, b).failed());
  m = compare(got, wrong, oracle, b, same);
  REQUIRE(m.failed());
  CHECK(m.worstRatioIndex == 0);
  CHECK(m.ulpsAtWorst > 1e5);
  CHECK(m.allowedUlpsAtWorst < 100);
}

TEST_CASE("the expected side's rounding along the chain", "[bisect]") {
  // Three ulps off: over one op's strict budget, within it when the output
  // is six rounding ops deep on the other implementation's side.
  ref::Tensor want = f32({2}, {1.0, 1.0});
  ref::Tensor got = f32({2}, {1.0 + 3 * std::ldexp(1.0, -23), 1.0});
  Budget b = budgetFor(OpClass::Elementwise, 1, strictProfile(), ieee32(),
                       ieee32(), true);
  Metrics m = compare(got, want, ref::Tensor(), b);
  REQUIRE(m.failed());
  CHECK(m.ulpsAtWorst == Approx(3));
  CHECK(m.allowedUlpsAtWorst == Approx(0.5));
  b.referenceUlps = 6 * strictProfile().elementwiseUlps;
  CHECK_FALSE(compare(got, want, ref::Tensor(), b).failed());
}

TEST_CASE("NaN where the reference has a number always fails", "[bisect]") {
  ref::Tensor want = f32({3}, {1, 2, 3});
  ref::Tensor got = f32({3}, {1, NAN, 3});
  Budget b = budgetFor(OpClass::Transcendental, 1, lenientProfile(), ieee32(),
                       ieee32(), true);
  Metrics m = compare(got, want, want, b);
  CHECK(m.nanMismatches == 1);
  Pattern p = findPattern(m, got, want, DeviceLayout());
  CHECK(p.kind == "nan");
}

TEST_CASE("the tail past the last whole stick", "[bisect]") {
  std::vector<double> v(65);
  for (int i = 0; i < 65; ++i)
    v[size_t(i)] = i;
  ref::Tensor want = f32({65}, v);
  v[64] = NAN;
  ref::Tensor got = f32({65}, v);
  Metrics m = compare(got, want, ref::Tensor(),
                      budgetFor(OpClass::Movement, 1, strictProfile(),
                                ieee32(), ieee32(), false));
  DeviceLayout sticks{64, "stick", 1};
  Pattern p = findPattern(m, got, want, sticks);
  CHECK(p.kind == "tail");
  CHECK(p.structural());
  CHECK(p.where.find("minor index 64, past the last whole stick") != std::string::npos);
  // The same element is no tail when a granule covers all 65.
  DeviceLayout none;
  CHECK(findPattern(m, got, want, none).kind == "nan");
}

TEST_CASE("one position of every stick, a permutation, strides swapped",
          "[bisect]") {
  std::vector<double> v(256);
  for (int i = 0; i < 256; ++i)
    v[size_t(i)] = i + 1;
  ref::Tensor want = f32({256}, v);
  std::vector<double> w = v;
  for (int i = 5; i < 256; i += 64)
    w[size_t(i)] = 0;
  ref::Tensor got = f32({256}, w);
  Budget exact = budgetFor(OpClass::Movement, 1, strictProfile(), ieee32(),
                           ieee32(), false);
  Metrics m = compare(got, want, ref::Tensor(), exact);
  CHECK(findPattern(m, got, want, {64, "stick", 1}).kind == "tile-boundary");

  // [2, 3] read as [3, 2] transposed.
  ref::Tensor a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  ref::Tensor t = f32({2, 3}, {1, 3, 5, 2, 4, 6});
  Metrics mt = compare(t, a, ref::Tensor(), exact);
  CHECK(findPattern(mt, t, a, DeviceLayout()).kind == "transposed");
  ref::Tensor shuffled = f32({2, 3}, {2, 1, 3, 4, 6, 5});
  Metrics ms = compare(shuffled, a, ref::Tensor(), exact);
  CHECK(findPattern(ms, shuffled, a, DeviceLayout()).kind == "permutation");
}

TEST_CASE("aggregates hide the one dropped element", "[bisect]") {
  // bisect.md 6.4: arange(65) with element 64 lost passes a cosine gate
  // of 0.97; the elementwise check does not.
  std::vector<double> v(65);
  for (int i = 0; i < 65; ++i)
    v[size_t(i)] = i;
  ref::Tensor want = f32({65}, v);
  v[64] = 0;
  ref::Tensor got = f32({65}, v);
  Metrics m = compare(got, want, ref::Tensor(),
                      budgetFor(OpClass::Movement, 1, lenientProfile(),
                                ieee32(), ieee32(), false));
  CHECK(m.cosine > 0.97);
  CHECK(m.failed());
  CHECK(m.zerosWhereNonzero == 1);
}

TEST_CASE("an infinite reference admits only the same infinity", "[bisect]") {
  ref::Tensor want = f32({3}, {INFINITY, 1, -INFINITY});
  ref::Tensor got = f32({3}, {-INFINITY, 1, -INFINITY});
  ref::Tensor oracle = f32({3}, {1e30, 1, -INFINITY});
  Budget b = budgetFor(OpClass::Reduction, 4096, lenientProfile(), ieee32(),
                       ieee32(), /*accumulated=*/true);
  Metrics m = compare(got, want, oracle, b);
  REQUIRE(m.bad.size() == 1);
  CHECK(m.bad[0] == 0);
  CHECK(m.infMismatches == 1);
}
