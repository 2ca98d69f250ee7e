//===- Gemm.h - the reference's GEMM (private) ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIB_REFERENCE_GEMM_H
#define LIB_REFERENCE_GEMM_H

#include <cstdint>

namespace dfa::ref {

/// C[M,N] = op(A)[M,K] * op(B)[K,N] (C is overwritten). Row-major with
/// leading dimensions lda/ldb/ldc; `transA` reads A as [K,M], `transB` reads
/// B as [N,K]. OpenBLAS's sgemm/dgemm, called serially on output tiles
/// fixed by the shape and shared by threadCount() threads: every element
/// sums its products in the same order whatever the count.
void gemm(int64_t M, int64_t N, int64_t K, const float *A, int64_t lda,
          bool transA, const float *B, int64_t ldb, bool transB, float *C,
          int64_t ldc);
void gemm(int64_t M, int64_t N, int64_t K, const double *A, int64_t lda,
          bool transA, const double *B, int64_t ldb, bool transB, double *C,
          int64_t ldc);

/// As gemm, with the sum of products kept in a narrower float format of
/// `mantissaBits` and `exponentBits`: products are added to the accumulator
/// in order of k, each sum rounded to nearest even, as a matrix unit with
/// that accumulator does. No BLAS rounds each partial sum, so this is a
/// loop of its own, split over rows.
void gemmRounded(int64_t M, int64_t N, int64_t K, const float *A, int64_t lda,
                 bool transA, const float *B, int64_t ldb, bool transB,
                 float *C, int64_t ldc, int mantissaBits, int exponentBits);

/// The textbook triple loop, for tests.
void gemmNaive(int64_t M, int64_t N, int64_t K, const float *A,
               const float *B, float *C);

} // namespace dfa::ref

#endif // LIB_REFERENCE_GEMM_H
