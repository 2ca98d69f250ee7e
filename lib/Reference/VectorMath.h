//===- VectorMath.h - the reference's vector libm (private) -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Transcendental functions over arrays of doubles or floats. Where glibc's vector
/// math library (libmvec) and the CPU's AVX2 are there, four double lanes at
/// a time (within 4 ulp of the exact value in double, well under a float's
/// rounding) or eight float lanes; elsewhere, or when `precise`, the scalar
/// libm. Every element
/// takes the same path whatever its position or the array's length (a
/// short tail is padded to a whole vector), so results do not depend on how
/// the work is split over threads.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_REFERENCE_VECTORMATH_H
#define LIB_REFERENCE_VECTORMATH_H

#include <cstdint>

namespace dfa::ref::vmath {

enum class Fn { Exp, Erf, Tanh, Log };

/// x[i] = fn(x[i]) for i < n. `precise` asks for the scalar libm: the
/// reference does so for float64 results, whose rounding would show the
/// vector routines' last bits.
void apply(Fn fn, double *x, int64_t n, bool precise);

/// x[i] = fn(x[i]) for i < n in float, eight lanes at a time where the CPU
/// has AVX2 and FMA (elsewhere the scalar float libm): exp inline (exp8 in
/// VectorMath.cpp), erf, tanh and log through libmvec's float routines; all
/// within 2 ulp of the correctly rounded float (VectorMathTest). The
/// reference's float32 transcendentals use it.
void applyF32(Fn fn, float *x, int64_t n);

/// s[i] = sigmoid(x[i]) in float, from e = exp(-|x|) so that nothing
/// overflows: 1 / (1 + e) for x >= 0, e / (1 + e) below (a tiny result stays
/// a denormal rather than 0). One pass, the exp of applyF32.
void sigmoidF32(const float *x, float *s, int64_t n);

/// y[i] = x[i] * sigmoid(x[i]): the sigmoid of sigmoidF32 rounded to float,
/// then the product, so the bytes of the two ops apart.
void siluF32(const float *x, float *y, int64_t n);

/// Whether apply() uses the vector routines on this machine.
bool vectorized();

} // namespace dfa::ref::vmath

#endif // LIB_REFERENCE_VECTORMATH_H
