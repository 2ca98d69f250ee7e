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

#if defined(__x86_64__)
#include <immintrin.h>

namespace {
bool hasAvx2() {
  static const bool has =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}

/// exp of eight floats, inline: x = n ln2 + r with |r| <= ln2/2 (ln2 in two
/// parts, Cody and Waite), exp(r) = 1 + r + r^2 P(r) with Cephes' degree-5
/// P, then times 2^n. Every float in [-104, 89] comes within 1 ulp of the
/// correctly rounded exp, 99.2% of them exact (checked exhaustively). Where
/// any lane's 2^n is not a normal float (a result near or below FLT_MIN, or
/// past FLT_MAX) the whole vector takes 2^n as two powers of two, each normal,
/// so a denormal result is rounded once; the clamp to [-104, 89] makes
/// that +inf and 0 beyond the range. The two ways give the same bits where
/// both apply. A NaN goes through the arithmetic as a NaN. A fixed sequence
/// of IEEE operations with FMA: the same bits for an element wherever it
/// sits.
__attribute__((target("avx2,fma"))) inline __m256 exp8(__m256 x) {
  // max(lo, x) and min(hi, .) return x's NaN (their second operand's).
  __m256 c = _mm256_min_ps(_mm256_set1_ps(89.0f),
                           _mm256_max_ps(_mm256_set1_ps(-104.0f), x));
  __m256 n = _mm256_round_ps(
      _mm256_mul_ps(c, _mm256_set1_ps(1.44269504088896341f)),
      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), c);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  __m256 y = _mm256_add_ps(
      _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r), _mm256_set1_ps(1.0f));
  // A NaN lane's n converts to INT_MIN, whose scale below is 1.0: y's NaN
  // goes out as it is.
  __m256i ni = _mm256_cvtps_epi32(n);
  __m256i bias = _mm256_set1_epi32(127);
  __m256 outside = _mm256_or_ps(
      _mm256_cmp_ps(n, _mm256_set1_ps(-126.0f), _CMP_LT_OQ),
      _mm256_cmp_ps(n, _mm256_set1_ps(127.0f), _CMP_GT_OQ));
  if (_mm256_movemask_ps(outside) == 0)
    return _mm256_mul_ps(y, _mm256_castsi256_ps(_mm256_slli_epi32(
                                _mm256_add_epi32(ni, bias), 23)));
  // n is in [-150, 128]: 2^n = 2^n1 2^n2 with n1, n2 in [-75, 64].
  __m256i n1 = _mm256_srai_epi32(ni, 1);
  __m256i n2 = _mm256_sub_epi32(ni, n1);
  __m256 s1 = _mm256_castsi256_ps(
      _mm256_slli_epi32(_mm256_add_epi32(n1, bias), 23));
  __m256 s2 = _mm256_castsi256_ps(
      _mm256_slli_epi32(_mm256_add_epi32(n2, bias), 23));
  return _mm256_mul_ps(_mm256_mul_ps(y, s1), s2);
}

/// sigmoid of eight floats from e = exp(-|x|): 1 / (1 + e) for x >= 0,
/// e / (1 + e) below.
__attribute__((target("avx2,fma"))) inline __m256 sigmoid8(__m256 x) {
  __m256 one = _mm256_set1_ps(1.0f);
  __m256 e = exp8(_mm256_or_ps(x, _mm256_set1_ps(-0.0f)));
  __m256 num = _mm256_blendv_ps(
      e, one, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GE_OQ));
  return _mm256_div_ps(num, _mm256_add_ps(one, e));
}

/// y[i] = f(x[i]) for i < n, eight at a time; a short tail is padded with
/// `pad` and goes through the same f.
template <typename F>
__attribute__((target("avx2,fma"))) inline void map8(const float *x, float *y,
                                                     int64_t n, float pad,
                                                     F f) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(y + i, f(_mm256_loadu_ps(x + i)));
  if (i == n)
    return;
  alignas(32) float lanes[8] = {pad, pad, pad, pad, pad, pad, pad, pad};
  std::memcpy(lanes, x + i, (n - i) * sizeof(float));
  _mm256_store_ps(lanes, f(_mm256_load_ps(lanes)));
  std::memcpy(y + i, lanes, (n - i) * sizeof(float));
}

// The functions map8 applies (a lambda would not take the target
// attribute under GCC).
struct Exp8 {
  __attribute__((target("avx2,fma"))) __m256 operator()(__m256 v) const {
    return exp8(v);
  }
};
struct Sigmoid8 {
  __attribute__((target("avx2,fma"))) __m256 operator()(__m256 v) const {
    return sigmoid8(v);
  }
};
struct Silu8 {
  __attribute__((target("avx2,fma"))) __m256 operator()(__m256 v) const {
    return _mm256_mul_ps(v, sigmoid8(v));
  }
};

__attribute__((target("avx2,fma"))) void exp8Array(float *x, int64_t n) {
  map8(x, x, n, 1.0f, Exp8());
}
__attribute__((target("avx2,fma"))) void sigmoid8Array(const float *x,
                                                       float *s, int64_t n) {
  map8(x, s, n, 0.0f, Sigmoid8());
}
__attribute__((target("avx2,fma"))) void silu8Array(const float *x, float *y,
                                                    int64_t n) {
  map8(x, y, n, 0.0f, Silu8());
}
} // namespace
#endif

#if defined(DFA_HAVE_LIBMVEC) && defined(__x86_64__)
// glibc's AVX2 variants (the vector function ABI's 'd' ISA, 4 doubles).
extern "C" {
__m256d _ZGVdN4v_exp(__m256d);
__m256d _ZGVdN4v_erf(__m256d);
__m256d _ZGVdN4v_tanh(__m256d);
__m256d _ZGVdN4v_log(__m256d);
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
  case vmath::Fn::Exp: return exp8(v);
  case vmath::Fn::Erf: return _ZGVdN8v_erff(v);
  case vmath::Fn::Tanh: return _ZGVdN8v_tanhf(v);
  case vmath::Fn::Log: return _ZGVdN8v_logf(v);
  }
  return v;
}

__attribute__((target("avx2,fma"))) void apply8(vmath::Fn fn, float *x,
                                                int64_t n) {
  struct Call8 {
    vmath::Fn fn;
    __attribute__((target("avx2,fma"))) __m256 operator()(__m256 v) const {
      return call8(fn, v);
    }
  };
  map8(x, x, n, 1.0f, Call8{fn});
}
} // namespace

bool vmath::vectorized() { return hasAvx2(); }

void vmath::apply(Fn fn, double *x, int64_t n, bool precise) {
  if (!precise && hasAvx2())
    return apply4(fn, x, n);
  for (int64_t i = 0; i < n; ++i)
    x[i] = scalar(fn, x[i]);
}
#else
bool vmath::vectorized() { return false; }

void vmath::apply(Fn fn, double *x, int64_t n, bool) {
  for (int64_t i = 0; i < n; ++i)
    x[i] = scalar(fn, x[i]);
}
#endif

void vmath::applyF32(Fn fn, float *x, int64_t n) {
#if defined(__x86_64__)
  // exp inline; erf, tanh and log through libmvec where it is there.
  if (fn == Fn::Exp && hasAvx2())
    return exp8Array(x, n);
#if defined(DFA_HAVE_LIBMVEC)
  if (hasAvx2())
    return apply8(fn, x, n);
#endif
#endif
  for (int64_t i = 0; i < n; ++i)
    x[i] = scalarF32(fn, x[i]);
}

namespace {
float sigmoidScalar(float x) {
  float e = std::exp(-std::fabs(x));
  return (x >= 0 ? 1.0f : e) / (1.0f + e);
}
} // namespace

void vmath::sigmoidF32(const float *x, float *s, int64_t n) {
#if defined(__x86_64__)
  if (hasAvx2())
    return sigmoid8Array(x, s, n);
#endif
  for (int64_t i = 0; i < n; ++i)
    s[i] = sigmoidScalar(x[i]);
}

void vmath::siluF32(const float *x, float *y, int64_t n) {
#if defined(__x86_64__)
  if (hasAvx2())
    return silu8Array(x, y, n);
#endif
  for (int64_t i = 0; i < n; ++i)
    y[i] = x[i] * sigmoidScalar(x[i]);
}
