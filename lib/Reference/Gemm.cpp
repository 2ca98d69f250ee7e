//===- Gemm.cpp - blocked GEMM for the reference ----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Packs a KC x NC panel of B and an MC x KC block of A into contiguous
/// buffers, then runs a 4-row micro-kernel whose inner loop over N is a
/// plain multiply-add the compiler vectorizes (with an AVX2+FMA clone picked
/// at load time where the CPU has it).
///
//===----------------------------------------------------------------------===//

#include "Gemm.h"

#include "dfa/Reference/Tensor.h"

#include <algorithm>
#include <vector>

using namespace dfa::ref;

namespace {
constexpr int64_t MC = 64, KC = 256, NC = 512;

template <typename T>
void packA(int64_t m, int64_t k, const T *A, int64_t lda, bool trans, T *dst) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      dst[i * k + p] = trans ? A[p * lda + i] : A[i * lda + p];
}

template <typename T>
void packB(int64_t k, int64_t n, const T *B, int64_t ldb, bool trans, T *dst) {
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = 0; j < n; ++j)
      dst[p * n + j] = trans ? B[j * ldb + p] : B[p * ldb + j];
}

/// C[m,n] += Ap[m,k] * Bp[k,n], all packed row-major (C with stride ldc).
template <typename T>
inline __attribute__((always_inline)) void
microKernelT(int64_t m, int64_t n, int64_t k, const T *__restrict Ap,
            const T *__restrict Bp, T *__restrict C, int64_t ldc) {
  int64_t i = 0;
  for (; i + 4 <= m; i += 4) {
    T *c0 = C + i * ldc, *c1 = c0 + ldc, *c2 = c1 + ldc, *c3 = c2 + ldc;
    for (int64_t p = 0; p < k; ++p) {
      T a0 = Ap[i * k + p], a1 = Ap[(i + 1) * k + p];
      T a2 = Ap[(i + 2) * k + p], a3 = Ap[(i + 3) * k + p];
      const T *b = Bp + p * n;
      for (int64_t j = 0; j < n; ++j) {
        T bj = b[j];
        c0[j] += a0 * bj;
        c1[j] += a1 * bj;
        c2[j] += a2 * bj;
        c3[j] += a3 * bj;
      }
    }
  }
  for (; i < m; ++i) {
    T *c = C + i * ldc;
    for (int64_t p = 0; p < k; ++p) {
      T a = Ap[i * k + p];
      const T *b = Bp + p * n;
      for (int64_t j = 0; j < n; ++j)
        c[j] += a * b[j];
    }
  }
}

__attribute__((target_clones("arch=haswell", "default"))) void
microKernel(int64_t m, int64_t n, int64_t k, const float *Ap, const float *Bp,
            float *C, int64_t ldc) {
  microKernelT(m, n, k, Ap, Bp, C, ldc);
}

__attribute__((target_clones("arch=haswell", "default"))) void
microKernel(int64_t m, int64_t n, int64_t k, const double *Ap,
            const double *Bp, double *C, int64_t ldc) {
  microKernelT(m, n, k, Ap, Bp, C, ldc);
}

template <typename T>
void gemmImpl(int64_t M, int64_t N, int64_t K, const T *A, int64_t lda,
              bool transA, const T *B, int64_t ldb, bool transB, T *C,
              int64_t ldc) {
  for (int64_t i = 0; i < M; ++i)
    std::fill(C + i * ldc, C + i * ldc + N, T(0));
  std::vector<T> bp(KC * NC), ap(MC * KC);
  for (int64_t jc = 0; jc < N; jc += NC) {
    int64_t nc = std::min(NC, N - jc);
    for (int64_t pc = 0; pc < K; pc += KC) {
      int64_t kc = std::min(KC, K - pc);
      const T *bsrc = transB ? B + jc * ldb + pc : B + pc * ldb + jc;
      packB(kc, nc, bsrc, ldb, transB, bp.data());
      for (int64_t ic = 0; ic < M; ic += MC) {
        int64_t mc = std::min(MC, M - ic);
        const T *asrc = transA ? A + pc * lda + ic : A + ic * lda + pc;
        packA(mc, kc, asrc, lda, transA, ap.data());
        microKernel(mc, nc, kc, ap.data(), bp.data(), C + ic * ldc + jc, ldc);
      }
    }
  }
}
} // namespace

void dfa::ref::gemm(int64_t M, int64_t N, int64_t K, const float *A,
                    int64_t lda, bool transA, const float *B, int64_t ldb,
                    bool transB, float *C, int64_t ldc) {
  gemmImpl(M, N, K, A, lda, transA, B, ldb, transB, C, ldc);
}

void dfa::ref::gemm(int64_t M, int64_t N, int64_t K, const double *A,
                    int64_t lda, bool transA, const double *B, int64_t ldb,
                    bool transB, double *C, int64_t ldc) {
  gemmImpl(M, N, K, A, lda, transA, B, ldb, transB, C, ldc);
}

void dfa::ref::gemmRounded(int64_t M, int64_t N, int64_t K, const float *A,
                           int64_t lda, bool transA, const float *B,
                           int64_t ldb, bool transB, float *C, int64_t ldc,
                           int mantissaBits, int exponentBits) {
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < K; ++p) {
        double a = transA ? A[p * lda + i] : A[i * lda + p];
        double b = transB ? B[j * ldb + p] : B[p * ldb + j];
        acc = roundToFormat(acc + a * b, mantissaBits, exponentBits);
      }
      C[i * ldc + j] = float(acc);
    }
}

void dfa::ref::gemmNaive(int64_t M, int64_t N, int64_t K, const float *A,
                         const float *B, float *C) {
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0;
      for (int64_t p = 0; p < K; ++p)
        acc += A[i * K + p] * B[p * N + j];
      C[i * N + j] = acc;
    }
}
