//===- Gemm.cpp - the reference's GEMM ----------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// float32 and float64 products are OpenBLAS's, called serially on output
/// tiles that the process's threads share; docs/architecture.md gives the
/// measurements that chose it over the hand-written blocked GEMM it
/// replaced (26% of OpenBLAS on one thread).
///
//===----------------------------------------------------------------------===//

#include "Gemm.h"

#include "dfa/Reference/Tensor.h"
#include "dfa/Support/Parallel.h"

#include <cblas.h>

#include <algorithm>

using namespace dfa::ref;

namespace {
/// An empty product (K == 0) is zeros; BLAS leaves C alone when K is 0 only
/// with beta 1, so it is written here.
template <typename T>
bool emptyProduct(int64_t M, int64_t N, int64_t K, T *C, int64_t ldc) {
  if (M > 0 && N > 0 && K > 0)
    return false;
  for (int64_t i = 0; i < M; ++i)
    std::fill(C + i * ldc, C + i * ldc + N, T(0));
  return true;
}
CBLAS_TRANSPOSE op(bool trans) { return trans ? CblasTrans : CblasNoTrans; }

/// How a product is split into output tiles: along the rows of C or its
/// columns, `count` tiles of whole 16-wide micro-tiles (the last one
/// holding the remainder). The split depends on the shape alone, never on
/// the thread count, so each element is computed by the same serial BLAS
/// call (its blocking, its micro-kernel, its summation order) whatever the
/// count. Each tile repacks the whole other operand's panel, so tiles hold
/// at least 256 rows or columns once the side reaches 1024 (measured on
/// 2048^3, one thread: 16 tiles of 128 rows ran 13% below one call, 8 of
/// 256 rows 4% above), 128 below that, and about 4 MFLOP; at most 64, and
/// an even number of them (a multiple of four from eight), so that two or
/// four threads share them evenly: three tiles on two threads left one
/// idle a third of the time (Inception's 8x8 maps). At least two once the
/// side reaches 64 and the work 8 MFLOP.
struct Tiling {
  bool byRows;
  int64_t side, count;
  /// The first row (column) of tile i; tile i ends where i + 1 begins.
  int64_t begin(int64_t i) const {
    int64_t units = (side + 15) / 16;
    return std::min(side, 16 * (units * i / count));
  }
};
Tiling tilingOf(int64_t M, int64_t N, int64_t K) {
  constexpr int64_t kMaxTiles = 64;
  constexpr double kMinFlops = 4.0e6;
  bool byRows = M >= N;
  int64_t side = byRows ? M : N;
  int64_t kMinSide = side >= 1024 ? 256 : 128;
  double flops = 2.0 * double(M) * double(N) * double(K);
  int64_t count = std::min({side / kMinSide, int64_t(flops / kMinFlops), kMaxTiles});
  // A product of at least two tiles' work whose side is under two minimum
  // tiles still gets two halves: EfficientNet's pointwise convolutions on
  // 7x7 and 14x14 maps (192 x 49 x 1152) ran on one thread of two.
  if (count < 2 && side >= 64 && flops >= 2 * kMinFlops)
    count = 2;
  if (count <= 1)
    return {byRows, side, 1};
  return {byRows, side, count >= 8 ? count / 4 * 4 : count / 2 * 2};
}

/// C = op(A) op(B) over the tiles of tilingOf, in parallel; `blas` is the
/// serial sgemm or dgemm, `gemv` sgemv or dgemv for a single row of C (a
/// classifier's head on one image: the GEMM packed the whole weight for
/// one row: EfficientNet's 1000x1280 head took 1.1 ms, where the
/// matrix-vector product streams the weight once).
template <typename T, typename Blas, typename Gemv>
void tiledGemm(int64_t M, int64_t N, int64_t K, const T *A, int64_t lda,
               bool transA, const T *B, int64_t ldb, bool transB, T *C,
               int64_t ldc, Blas blas, Gemv gemv) {
  if (emptyProduct(M, N, K, C, ldc))
    return;
  Tiling t = tilingOf(M, N, K);
  if (M == 1) {
    // C[j] = sum_p a[p] op(B)[p][j], with a read at stride lda when A is
    // transposed (a K x 1 column).
    blasint incA = blasint(transA ? std::max<int64_t>(1, lda) : 1);
    blasint ldB = blasint(std::max<int64_t>(1, ldb));
    dfa::parallelFor(t.count, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        int64_t first = t.begin(i), n = t.begin(i + 1) - first;
        if (transB) // B is N x K: its rows first.. are the outputs' dots
          gemv(CblasRowMajor, CblasNoTrans, blasint(n), blasint(K), T(1),
               B + first * ldb, ldB, A, incA, T(0), C + first, 1);
        else // B is K x N: its columns first..
          gemv(CblasRowMajor, CblasTrans, blasint(K), blasint(n), T(1),
               B + first, ldB, A, incA, T(0), C + first, 1);
      }
    });
    return;
  }
  dfa::parallelFor(t.count, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      int64_t first = t.begin(i), n = t.begin(i + 1) - first;
      if (t.byRows)
        blas(CblasRowMajor, op(transA), op(transB), blasint(n), blasint(N),
             blasint(K), T(1), transA ? A + first : A + first * lda,
             blasint(std::max<int64_t>(1, lda)), B,
             blasint(std::max<int64_t>(1, ldb)), T(0), C + first * ldc,
             blasint(std::max<int64_t>(1, ldc)));
      else
        blas(CblasRowMajor, op(transA), op(transB), blasint(M), blasint(n),
             blasint(K), T(1), A, blasint(std::max<int64_t>(1, lda)),
             transB ? B + first * ldb : B + first,
             blasint(std::max<int64_t>(1, ldb)), T(0), C + first,
             blasint(std::max<int64_t>(1, ldc)));
    }
  });
}
} // namespace

void dfa::ref::gemm(int64_t M, int64_t N, int64_t K, const float *A,
                    int64_t lda, bool transA, const float *B, int64_t ldb,
                    bool transB, float *C, int64_t ldc) {
  tiledGemm(M, N, K, A, lda, transA, B, ldb, transB, C, ldc, cblas_sgemm,
            cblas_sgemv);
}

void dfa::ref::gemm(int64_t M, int64_t N, int64_t K, const double *A,
                    int64_t lda, bool transA, const double *B, int64_t ldb,
                    bool transB, double *C, int64_t ldc) {
  tiledGemm(M, N, K, A, lda, transA, B, ldb, transB, C, ldc, cblas_dgemm,
            cblas_dgemv);
}

void dfa::ref::gemmRounded(int64_t M, int64_t N, int64_t K, const float *A,
                           int64_t lda, bool transA, const float *B,
                           int64_t ldb, bool transB, float *C, int64_t ldc,
                           int mantissaBits, int exponentBits) {
  dfa::parallelFor(M, dfa::grainFor(N * K * 8), [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < K; ++p) {
          double a = transA ? A[p * lda + i] : A[i * lda + p];
          double b = transB ? B[j * ldb + p] : B[p * ldb + j];
          acc = roundToFormat(acc + a * b, mantissaBits, exponentBits);
        }
        C[i * ldc + j] = float(acc);
      }
  });
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
