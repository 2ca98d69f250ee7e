//===- VectorMath.cpp - the reference's vector libm -------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "VectorMath.h"

#include <cmath>
#include <cstring>

using namespace dfa::ref;

namespace {
double scalar(vmath::Fn fn, double x) {
  switch (fn) {
  case vmath::Fn::Exp: return std::exp(x);
  case vmath::Fn::Erf: return std::erf(x);
  case vmath::Fn::Tanh: return std::tanh(x);
  case vmath::Fn::Log: return std::log(x);
  }
  return x;
}
float scalarF32(vmath::Fn fn, float x) {
  switch (fn) {
  case vmath::Fn::Exp: return std::exp(x);
  case vmath::Fn::Erf: return std::erf(x);
  case vmath::Fn::Tanh: return std::tanh(x);
  case vmath::Fn::Log: return std::log(x);
  }
  return x;
}
} // namespace

#if defined(DFA_HAVE_LIBMVEC) && defined(__x86_64__)
#include <immintrin.h>

// glibc's AVX2 variants (the vector function ABI's 'd' ISA, 4 doubles).
extern "C" {
__m256d _ZGVdN4v_exp(__m256d);
__m256d _ZGVdN4v_erf(__m256d);
__m256d _ZGVdN4v_tanh(__m256d);
__m256d _ZGVdN4v_log(__m256d);
__m256 _ZGVdN8v_expf(__m256);
__m256 _ZGVdN8v_erff(__m256);
__m256 _ZGVdN8v_tanhf(__m256);
__m256 _ZGVdN8v_logf(__m256);
}

namespace {
__attribute__((target("avx2,fma"))) __m256d call4(vmath::Fn fn, __m256d v) {
  switch (fn) {
  case vmath::Fn::Exp: return _ZGVdN4v_exp(v);
  case vmath::Fn::Erf: return _ZGVdN4v_erf(v);
  case vmath::Fn::Tanh: return _ZGVdN4v_tanh(v);
  case vmath::Fn::Log: return _ZGVdN4v_log(v);
  }
  return v;
}

__attribute__((target("avx2,fma"))) void apply4(vmath::Fn fn, double *x,
                                                int64_t n) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4)
    _mm256_storeu_pd(x + i, call4(fn, _mm256_loadu_pd(x + i)));
  if (i == n)
    return;
  // The tail goes through the same routine, padded with ones (valid for
  // every function here).
  alignas(32) double lanes[4] = {1, 1, 1, 1};
  std::memcpy(lanes, x + i, (n - i) * sizeof(double));
  _mm256_store_pd(lanes, call4(fn, _mm256_load_pd(lanes)));
  std::memcpy(x + i, lanes, (n - i) * sizeof(double));
}

__attribute__((target("avx2,fma"))) __m256 call8(vmath::Fn fn, __m256 v) {
  switch (fn) {
  case vmath::Fn::Exp: return _ZGVdN8v_expf(v);
  case vmath::Fn::Erf: return _ZGVdN8v_erff(v);
  case vmath::Fn::Tanh: return _ZGVdN8v_tanhf(v);
  case vmath::Fn::Log: return _ZGVdN8v_logf(v);
  }
  return v;
}

__attribute__((target("avx2,fma"))) void apply8(vmath::Fn fn, float *x,
                                                int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(x + i, call8(fn, _mm256_loadu_ps(x + i)));
  if (i == n)
    return;
  alignas(32) float lanes[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  std::memcpy(lanes, x + i, (n - i) * sizeof(float));
  _mm256_store_ps(lanes, call8(fn, _mm256_load_ps(lanes)));
  std::memcpy(x + i, lanes, (n - i) * sizeof(float));
}

bool hasAvx2() {
  static const bool has =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}
} // namespace

bool vmath::vectorized() { return hasAvx2(); }

void vmath::apply(Fn fn, double *x, int64_t n, bool precise) {
  if (!precise && hasAvx2())
    return apply4(fn, x, n);
  for (int64_t i = 0; i < n; ++i)
    x[i] = scalar(fn, x[i]);
}
void vmath::applyF32(Fn fn, float *x, int64_t n) {
  if (hasAvx2())
    return apply8(fn, x, n);
  for (int64_t i = 0; i < n; ++i)
    x[i] = scalarF32(fn, x[i]);
}
#else
bool vmath::vectorized() { return false; }

void vmath::applyF32(Fn fn, float *x, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    x[i] = scalarF32(fn, x[i]);
}

void vmath::apply(Fn fn, double *x, int64_t n, bool) {
  for (int64_t i = 0; i < n; ++i)
    x[i] = scalar(fn, x[i]);
}
#endif
