//===- VectorMath.h - the reference's vector libm (private) -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Transcendental functions over arrays of doubles or floats. Where glibc's vector
/// math library (libmvec) and the CPU's AVX2 are there, four lanes at a
/// time (within 4 ulp of the exact value in double, well under a float's
/// rounding); elsewhere, or when `precise`, the scalar libm. Every element
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

/// x[i] = fn(x[i]) for i < n in float: eight lanes at a time through
/// libmvec's float routines where the CPU has AVX2 (within 2 ulp of the
/// correctly rounded float, VectorMathTest), elsewhere the scalar float
/// libm. The
/// reference's float32 transcendentals use it.
void applyF32(Fn fn, float *x, int64_t n);

/// Whether apply() uses the vector routines on this machine.
bool vectorized();

} // namespace dfa::ref::vmath

#endif // LIB_REFERENCE_VECTORMATH_H
