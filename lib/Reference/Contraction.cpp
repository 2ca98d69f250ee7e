//===- Contraction.cpp - reference matmul, gemm and convolution -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Float32, float16 and bfloat16 contract in float32 (the accumulation of
/// tensor cores and the CPU alike) and round once on store, or in a
/// narrower accumulator format when the options name one; float64, integer
/// inputs and the fp64-accumulation option contract in double. Convolutions
/// go through im2col (none for a pointwise window) and the BLAS.
///
//===----------------------------------------------------------------------===//

#include "Gemm.h"
#include "Kernels.h"

#include "dfa/Support/Parallel.h"

#include <array>
#include <cstring>
#include <memory>
#include <cmath>
#include <limits>
#include <optional>

using namespace mlir;
using namespace dfa;
using namespace dfa::ref;
using namespace dfa::graph;

namespace {
template <typename T> std::vector<T> valuesOf(const Tensor &t);
template <> std::vector<float> valuesOf<float>(const Tensor &t) {
  return t.toFloats();
}
template <> std::vector<double> valuesOf<double>(const Tensor &t) {
  return t.toDoubles();
}

Tensor fromValues(DType dt, ArrayRef<int64_t> shape, const std::vector<float> &v) {
  return Tensor::fromFloats(dt, shape, v);
}
Tensor fromValues(DType dt, ArrayRef<int64_t> shape, const std::vector<double> &v) {
  return Tensor::fromDoubles(dt, shape, v);
}

template <typename T> constexpr DType dtypeFor() {
  return std::is_same_v<T, float> ? DType::F32 : DType::F64;
}

/// A tensor's elements as T: its own buffer when it holds T, else one
/// converted copy (float16 and bfloat16 widen to float32 in one pass).
template <typename T> class Operand {
public:
  explicit Operand(const Tensor &t) {
    if (t.dtype() == dtypeFor<T>()) {
      ptr = t.data<T>();
    } else {
      copy = valuesOf<T>(t);
      ptr = copy.data();
    }
  }
  const T *data() const { return ptr; }

private:
  std::vector<T> copy;
  const T *ptr;
};

/// A result computed in T: written straight into its tensor when that
/// holds T, else rounded to the storage type once at the end. Its elements
/// start as zeros only when `zeroed`; otherwise the kernel writes them all.
template <typename T> class Result {
public:
  Result(DType dt, ArrayRef<int64_t> shape, bool zeroed = false)
      : dt(dt), shape(shape) {
    if (dt == dtypeFor<T>()) {
      out = zeroed ? Tensor(dt, shape) : Tensor::uninitialized(dt, shape);
      ptr = out.data<T>();
    } else {
      buf.resize(numElements(shape));
      ptr = buf.data();
    }
  }
  T *data() { return ptr; }
  Tensor take() { return out.defined() ? out : fromValues(dt, shape, buf); }

private:
  DType dt;
  Shape shape;
  Tensor out;
  std::vector<T> buf;
  T *ptr;
};

bool wantDouble(DType dt, const Evaluator &ev) {
  return dt == DType::F64 || !isFloat(dt) || ev.options().fp64Accumulate;
}

/// gemm, in the accumulator format of `o` when it names a narrower one.
template <typename T>
void contractIeee(const EvalOptions &o, int64_t M, int64_t N, int64_t K,
                  const T *A, int64_t lda, bool transA, const T *B, int64_t ldb,
                  bool transB, T *C, int64_t ldc) {
  if constexpr (std::is_same_v<T, float>)
    if (o.accumulatorMantissaBits > 0)
      return gemmRounded(M, N, K, A, lda, transA, B, ldb, transB, C, ldc,
                         o.accumulatorMantissaBits, o.accumulatorExponentBits);
  gemm(M, N, K, A, lda, transA, B, ldb, transB, C, ldc);
}

/// A copy of the `rows` x `cols` matrix at `x` (leading dim `ld`), each
/// element through `round`.
template <typename T, typename F>
std::vector<T> roundedCopy(const T *x, int64_t rows, int64_t cols, int64_t ld,
                           F round) {
  std::vector<T> v(rows * ld, T(0));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      v[r * ld + c] = T(round(double(x[r * ld + c])));
  return v;
}

double toBf16(double x) { return roundToFormat(x, 7, 8); }

/// The bf16 low part of `x` whose high part is `hi`: none where the high
/// part is not finite (an inf or NaN operand, or one past bf16's range),
/// which would otherwise make inf - inf a NaN.
template <typename T> T lowPart(T x, T hi) {
  return std::isfinite(double(hi)) ? T(toBf16(double(x) - double(hi))) : T(0);
}
double toTf32(double x) { return roundToFormat(x, 10, 8); }

/// gemm as a matrix op of precision `p` (graph.fp32_matmul) computes it:
/// TF32 and bf16 round the operands (to nearest even) before f32 products;
/// bf16x3 splits each operand into bf16 high and low parts and adds three
/// bf16 products, lo*hi + hi*lo, then hi*hi, each accumulated in f32.
template <typename T>
void contract(const EvalOptions &o, int64_t M, int64_t N, int64_t K,
              const T *A, int64_t lda, bool transA, const T *B, int64_t ldb,
              bool transB, T *C, int64_t ldc,
              Fp32Matmul p = Fp32Matmul::IEEE) {
  if (p == Fp32Matmul::IEEE || o.ieeeMatmul)
    return contractIeee(o, M, N, K, A, lda, transA, B, ldb, transB, C, ldc);
  int64_t aRows = transA ? K : M, aCols = transA ? M : K;
  int64_t bRows = transB ? N : K, bCols = transB ? K : N;
  if (p != Fp32Matmul::BF16x3) {
    auto round = p == Fp32Matmul::TF32 ? toTf32 : toBf16;
    std::vector<T> a = roundedCopy(A, aRows, aCols, lda, round);
    std::vector<T> b = roundedCopy(B, bRows, bCols, ldb, round);
    return contractIeee(o, M, N, K, a.data(), lda, transA, b.data(), ldb,
                        transB, C, ldc);
  }
  std::vector<T> aHi = roundedCopy(A, aRows, aCols, lda, toBf16);
  std::vector<T> bHi = roundedCopy(B, bRows, bCols, ldb, toBf16);
  std::vector<T> aLo(aHi.size()), bLo(bHi.size());
  for (int64_t r = 0; r < aRows; ++r)
    for (int64_t c = 0; c < aCols; ++c)
      aLo[r * lda + c] = lowPart(A[r * lda + c], aHi[r * lda + c]);
  for (int64_t r = 0; r < bRows; ++r)
    for (int64_t c = 0; c < bCols; ++c)
      bLo[r * ldb + c] = lowPart(B[r * ldb + c], bHi[r * ldb + c]);
  std::vector<T> loHi(M * N), hiLo(M * N), hiHi(M * N);
  contractIeee(o, M, N, K, aLo.data(), lda, transA, bHi.data(), ldb, transB,
               loHi.data(), N);
  contractIeee(o, M, N, K, aHi.data(), lda, transA, bLo.data(), ldb, transB,
               hiLo.data(), N);
  contractIeee(o, M, N, K, aHi.data(), lda, transA, bHi.data(), ldb, transB,
               hiHi.data(), N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      C[i * ldc + j] = (loHi[i * N + j] + hiLo[i * N + j]) + hiHi[i * N + j];
}

//===----------------------------------------------------------------------===//
// MatMul
//===----------------------------------------------------------------------===//

template <typename T>
Tensor matmul(const EvalOptions &o, const Tensor &a, const Tensor &b, DType rt,
              ArrayRef<int64_t> outShape, Fp32Matmul p) {
  Shape sa(a.shape()), sb(b.shape());
  if (sa.size() == 1)
    sa.insert(sa.begin(), 1);
  if (sb.size() == 1)
    sb.push_back(1);
  int64_t M = sa[sa.size() - 2], K = sa.back(), N = sb.back();
  ArrayRef<int64_t> batchA = ArrayRef<int64_t>(sa).drop_back(2);
  ArrayRef<int64_t> batchB = ArrayRef<int64_t>(sb).drop_back(2);
  Shape batch(*graph::broadcastShapes(batchA, batchB));
  // Strides of whole matrices over the batch dims.
  Shape stA = broadcastStrides(batchA, batch), stB = broadcastStrides(batchB, batch);
  Operand<T> va(a), vb(b);
  Result<T> out(rt, outShape);
  // One B for the whole batch and an A of its own per entry (a linear layer
  // on [seq, batch, d]): the batch's rows are one [batch * M, K] matrix, one
  // product instead of a thin one per entry, each repacking B.
  int64_t entries = numElements(batch);
  Shape dense = rowMajorStrides(batch);
  bool denseA = true;
  for (size_t d = 0; d < batch.size(); ++d)
    denseA &= batch[d] == 1 || stA[d] == dense[d];
  if (entries > 1 && llvm::all_of(stB, [](int64_t s) { return s == 0; }) &&
      denseA) {
    contract(o, entries * M, N, K, va.data(), K, false, vb.data(), N, false,
             out.data(), N, p);
    return out.take();
  }
  // Each matrix of the batch is one serial contraction (its own tiles run
  // in order inside the batch's thread): the same sums whatever the count.
  std::vector<std::array<int64_t, 3>> jobs;
  forEachOffset2(batch, stA, stB, [&](int64_t i, int64_t ia, int64_t ib) {
    jobs.push_back({i, ia, ib});
  });
  parallelFor(int64_t(jobs.size()), grainFor(2 * M * N * K),
              [&](int64_t begin, int64_t end) {
                for (int64_t j = begin; j < end; ++j) {
                  auto [i, ia, ib] = jobs[j];
                  contract(o, M, N, K, va.data() + ia * M * K, K, false,
                           vb.data() + ib * K * N, N, false,
                           out.data() + i * M * N, N, p);
                }
              });
  return out.take();
}

template <typename T>
Tensor gemmOp(const EvalOptions &o, GemmOp op, const Tensor &a, const Tensor &b, const Tensor *c) {
  auto outShape = shapeOf(op.getOutput());
  int64_t M = outShape[0], N = outShape[1];
  int64_t K = a.shape()[op.getTransA() ? 0 : 1];
  Operand<T> va(a), vb(b);
  Result<T> res(dtypeOfValue(op.getOutput()), outShape);
  T *out = res.data();
  contract(o, M, N, K, va.data(), a.shape()[1], op.getTransA(), vb.data(),
           b.shape()[1], op.getTransB(), out, N, fp32MatmulOf(op));
  T alpha = op.getAlpha().convertToDouble(), beta = op.getBeta().convertToDouble();
  std::optional<Operand<T>> vc;
  Shape st;
  if (c) {
    vc.emplace(*c);
    st = broadcastStrides(c->shape(), outShape);
  }
  parallelFor(M, grainFor(2 * N), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r)
      for (int64_t j = 0; j < N; ++j) {
        T &x = out[r * N + j];
        if (alpha != T(1))
          x *= alpha;
        if (c) {
          x += beta * vc->data()[r * st[0] + j * st[1]];
        }
      }
  });
  return res.take();
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

/// The outputs [lo, hi) of a window axis whose tap reads input o * stride +
/// offset inside [0, in): the ones that need no padding.
std::pair<int64_t, int64_t> insideRange(int64_t out, int64_t in, int64_t stride,
                                        int64_t offset) {
  int64_t lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  int64_t hi = in - offset <= 0 ? 0 : (in - offset + stride - 1) / stride;
  lo = std::min(lo, out);
  hi = std::clamp(hi, lo, out);
  return {lo, hi};
}

/// Calls f(kidx, dst row offset o, source offset, count) for every run of
/// outputs along W that tap kidx = (kd, kh, kw) of window `w` reads from
/// inside the input (an element o + j reads source + j * stride[2]), and
/// z(o, count) for the runs it reads from padding.
template <typename F, typename Z>
void forEachTapRun(const Window3 &w, int64_t kd, int64_t kh, int64_t kw, F f,
                   Z z, int64_t firstRow = 0, int64_t endRow = -1) {
  auto [lo, hi] = insideRange(w.out[2], w.in[2], w.stride[2],
                              kw * w.dil[2] - w.pad[2]);
  if (endRow < 0)
    endRow = w.out[0] * w.out[1];
  int64_t od = firstRow / w.out[1], oh = firstRow % w.out[1];
  for (int64_t r = firstRow; r < endRow; ++r, ++oh) {
    if (oh == w.out[1])
      oh = 0, ++od;
    int64_t id = od * w.stride[0] - w.pad[0] + kd * w.dil[0];
    {
      int64_t ih = oh * w.stride[1] - w.pad[1] + kh * w.dil[1];
      int64_t row = (r - firstRow) * w.out[2];
      if (id < 0 || id >= w.in[0] || ih < 0 || ih >= w.in[1] || lo == hi) {
        z(row, w.out[2]);
        continue;
      }
      z(row, lo);
      f(row + lo, (id * w.in[1] + ih) * w.in[2] + lo * w.stride[2] + kw * w.dil[2] - w.pad[2],
        hi - lo);
      z(row + hi, w.out[2] - hi);
    }
  }
}

/// col[c*K + kidx][o] = x[c][o*stride - pad + kidx*dil] (0 outside) for
/// the outputs of output rows (the two outer spatial dims) [firstRow,
/// endRow), the rows of col split over the threads.
template <typename T>
void im2col(const T *x, int64_t channels, const Window3 &w, T *col,
            int64_t firstRow, int64_t endRow) {
  int64_t O = (endRow - firstRow) * w.out[2], I = w.inSize(), K = w.kSize();
  parallelFor(channels * K, grainFor(O), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      int64_t c = r / K, t = r % K;
      int64_t kd = t / (w.k[1] * w.k[2]), kh = t / w.k[2] % w.k[1], kw = t % w.k[2];
      T *dst = col + r * O;
      const T *src = x + c * I;
      forEachTapRun(
          w, kd, kh, kw,
          [&](int64_t o, int64_t from, int64_t n) {
            if (w.stride[2] == 1) {
              std::memcpy(dst + o, src + from, n * sizeof(T));
              return;
            }
            for (int64_t j = 0; j < n; ++j)
              dst[o + j] = src[from + j * w.stride[2]];
          },
          [&](int64_t o, int64_t n) { std::fill(dst + o, dst + o + n, T(0)); },
          firstRow, endRow);
    }
  });
}

/// The output rows each im2col block covers: columns of at most 8 MiB
/// (one row at least). A whole 3-D convolution's columns ran to 173 MB
/// (r3d_18's first layer, 1728 taps x 25088 outputs); in blocks they stay
/// near the caches, each a product over the full reduction length (the
/// outputs of seven torchvision models and r3d_18 kept their bytes). From
/// the shape alone, never the threads.
int64_t im2colRows(const Window3 &w, int64_t K, size_t elementBytes) {
  int64_t rowBytes = std::max<int64_t>(1, K * w.out[2] * int64_t(elementBytes));
  return std::clamp<int64_t>((int64_t(8) << 20) / rowBytes, 1,
                             std::max<int64_t>(1, w.out[0] * w.out[1]));
}

/// A convolution whose groups each read one input channel (depthwise, with
/// a channel multiplier Fg): each output channel adds its taps, in order of
/// the filter's elements, straight from the input. The same sums as its
/// im2col product in order of k; no BLAS call of one row per channel.
template <typename T>
void depthwise(const T *x, const T *filter, int64_t N, int64_t C, int64_t Fg,
               const Window3 &w, T *out) {
  int64_t O = w.outSize(), I = w.inSize(), K = w.kSize(), F = C * Fg;
  parallelFor(N * F, grainFor(O * K), [&](int64_t begin, int64_t end) {
    for (int64_t nf = begin; nf < end; ++nf) {
      int64_t n = nf / F, f = nf % F, c = f / Fg;
      const T *src = x + (n * C + c) * I;
      T *dst = out + nf * O;
      std::fill(dst, dst + O, T(0));
      for (int64_t t = 0; t < K; ++t) {
        T wt = filter[f * K + t];
        int64_t kd = t / (w.k[1] * w.k[2]), kh = t / w.k[2] % w.k[1], kw = t % w.k[2];
        forEachTapRun(
            w, kd, kh, kw,
            [&](int64_t o, int64_t from, int64_t cnt) {
              int64_t s = w.stride[2];
              T *d = dst + o;
              const T *x = src + from;
              if (s == 1) // a loop of its own, which vectorizes
                for (int64_t j = 0; j < cnt; ++j)
                  d[j] += wt * x[j];
              else
                for (int64_t j = 0; j < cnt; ++j)
                  d[j] += wt * x[j * s];
            },
            [](int64_t, int64_t) {});
      }
    }
  });
}

/// 32 bytes of T as one vector (GCC's and Clang's vector extension: AVX2
/// registers where the reference is built for them, pairs of SSE ones
/// elsewhere); its arithmetic is the scalar's, lane by lane.
template <typename T> struct Lanes {
  typedef T type __attribute__((vector_size(32)));
};
template <typename V, typename T>
__attribute__((always_inline)) inline V loadLanes(const T *p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// Depthwise over a plane (a 1-D or 2-D window): the channel's plane is
/// copied once into a zero-padded image whose rows are as wide as the
/// window needs, and the output is summed at that row pitch, so each tap is
/// one multiply-add over the whole plane rather than a short one per row
/// (EfficientNet's 7x7 and 14x14 planes spent most of their time in row
/// set-up and scalar tails); the columns past the output's width are
/// dropped. With strides s1 x s2 the padded image is split into its
/// s1 x s2 phases (rows i = ph (mod s1), columns j = pw (mod s2)), in which
/// every tap reads at unit stride: tap (y, x) of the dilated window reads
/// phase (y mod s1, x mod s2) shifted by (y / s1, x / s2). Each output adds
/// its taps in the order of the filter's elements, as `depthwise` and the
/// im2col product do. A padded tap adds w * 0, as the im2col product does:
/// with finite weights the bytes are `depthwise`'s, and an infinite or NaN
/// weight makes the border outputs NaN (zero padding times infinity), where
/// `depthwise`, which skips padded taps, did not.
template <typename T>
void depthwisePlane(const T *x, const T *filter, int64_t N, int64_t C,
                    int64_t Fg, const Window3 &w, T *out) {
  int64_t OH = w.out[1], OW = w.out[2], H = w.in[1], W = w.in[2];
  int64_t KW = w.k[2], K = w.k[1] * KW, F = C * Fg;
  int64_t s1 = w.stride[1], s2 = w.stride[2];
  // The padded image the window covers, and each phase's extent.
  int64_t Hp = (OH - 1) * s1 + (w.k[1] - 1) * w.dil[1] + 1,
          Wp = (OW - 1) * s2 + (KW - 1) * w.dil[2] + 1;
  int64_t Hq = (Hp + s1 - 1) / s1, Wq = (Wp + s2 - 1) / s2, phase = Hq * Wq;
  int64_t span = (OH - 1) * Wq + OW; // the accumulated run
  // Where each tap of the dilated window starts in the phase images.
  SmallVector<int64_t, 49> tapAt(K);
  for (int64_t t = 0; t < K; ++t) {
    int64_t y = (t / KW) * w.dil[1], xx = (t % KW) * w.dil[2];
    tapAt[t] = ((y % s1) * s2 + xx % s2) * phase + (y / s1) * Wq + xx / s2;
  }
  using V = typename Lanes<T>::type;
  constexpr int64_t kLanes = sizeof(V) / sizeof(T), kRun = 4 * kLanes;
  int64_t images = s1 * s2 * phase, runs = (span + kRun - 1) / kRun * kRun;
  parallelFor(N * F, grainFor(span * K), [&](int64_t begin, int64_t end) {
    // The phase images, kRun zeros after them (read by the last run's
    // lanes past the span, whose sums are dropped), the sums, and one
    // padded input row.
    Scratch<T> scratch(images + kRun + runs + Wq * s2);
    T *image = scratch.data(), *acc = image + images + kRun,
      *padded = acc + runs;
    std::fill(image + images, acc, T(0));
    int64_t loaded = -1;
    for (int64_t nf = begin; nf < end; ++nf) {
      int64_t n = nf / F, f = nf % F, plane = n * C + f / Fg;
      if (plane != loaded) {
        const T *src = x + plane * H * W;
        for (int64_t ph = 0; ph < s1; ++ph)
          for (int64_t r = 0; r < Hq; ++r) {
            T *row = image + ph * s2 * phase + r * Wq; // phase (ph, 0)
            int64_t ih = ph + r * s1 - w.pad[1];
            if (ih < 0 || ih >= H) {
              for (int64_t pw = 0; pw < s2; ++pw)
                std::fill(row + pw * phase, row + pw * phase + Wq, T(0));
              continue;
            }
            // Padded column j reads input column j - pad; phase pw's
            // column c is padded column c * s2 + pw.
            int64_t len = Wq * s2;
            T *buf = s2 == 1 ? row : padded;
            int64_t lo = std::clamp<int64_t>(w.pad[2], 0, len);
            int64_t hi = std::clamp<int64_t>(w.pad[2] + W, lo, len);
            std::fill(buf, buf + lo, T(0));
            std::copy(src + ih * W + lo - w.pad[2],
                      src + ih * W + hi - w.pad[2], buf + lo);
            std::fill(buf + hi, buf + len, T(0));
            if (s2 == 2) {
              T *r0 = row, *r1 = row + phase;
              for (int64_t c = 0; c < Wq; ++c) {
                r0[c] = buf[2 * c];
                r1[c] = buf[2 * c + 1];
              }
            } else if (s2 > 2) {
              for (int64_t pw = 0; pw < s2; ++pw)
                for (int64_t c = 0; c < Wq; ++c)
                  row[pw * phase + c] = buf[c * s2 + pw];
            }
          }
        loaded = plane;
      }
      // Outputs kRun at a time, held in registers while every tap adds to
      // them (one load per tap, none of the sums'); each output still adds
      // its taps in order, from zero.
      const T *wf = filter + f * K;
      for (int64_t i = 0; i < span; i += kRun) {
        V a0{}, a1{}, a2{}, a3{};
        for (int64_t t = 0; t < K; ++t) {
          const T *tap = image + tapAt[t] + i;
          T wt = wf[t];
          a0 += wt * loadLanes<V>(tap);
          a1 += wt * loadLanes<V>(tap + kLanes);
          a2 += wt * loadLanes<V>(tap + 2 * kLanes);
          a3 += wt * loadLanes<V>(tap + 3 * kLanes);
        }
        std::memcpy(acc + i, &a0, sizeof(V));
        std::memcpy(acc + i + kLanes, &a1, sizeof(V));
        std::memcpy(acc + i + 2 * kLanes, &a2, sizeof(V));
        std::memcpy(acc + i + 3 * kLanes, &a3, sizeof(V));
      }
      T *dst = out + nf * OH * OW;
      for (int64_t oh = 0; oh < OH; ++oh)
        std::copy(acc + oh * Wq, acc + oh * Wq + OW, dst + oh * OW);
    }
  });
}

/// The adjoint of im2col: x[c][...] += col[c*K + kidx][o].
template <typename T>
void col2im(const T *col, int64_t channels, const Window3 &w, T *x) {
  int64_t O = w.outSize(), I = w.inSize();
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t kd = 0; kd < w.k[0]; ++kd)
      for (int64_t kh = 0; kh < w.k[1]; ++kh)
        for (int64_t kw = 0; kw < w.k[2]; ++kw) {
          const T *src =
              col + ((c * w.k[0] + kd) * w.k[1] + kh) * w.k[2] * O + kw * O;
          T *dst = x + c * I;
          for (int64_t od = 0; od < w.out[0]; ++od) {
            int64_t id = od * w.stride[0] - w.pad[0] + kd * w.dil[0];
            if (id < 0 || id >= w.in[0])
              continue;
            for (int64_t oh = 0; oh < w.out[1]; ++oh) {
              int64_t ih = oh * w.stride[1] - w.pad[1] + kh * w.dil[1];
              if (ih < 0 || ih >= w.in[1])
                continue;
              const T *row = src + (od * w.out[1] + oh) * w.out[2];
              for (int64_t ow = 0; ow < w.out[2]; ++ow) {
                int64_t iw = ow * w.stride[2] - w.pad[2] + kw * w.dil[2];
                if (iw >= 0 && iw < w.in[2])
                  dst[(id * w.in[1] + ih) * w.in[2] + iw] += row[ow];
              }
            }
          }
        }
}

/// A window that reads each input element once, in place: 1x1, stride 1,
/// no padding. Its im2col is the input itself.
bool isPointwise(const Window3 &w) {
  for (int i = 0; i < 3; ++i)
    if (w.k[i] != 1 || w.stride[i] != 1 || w.pad[i] != 0 || w.in[i] != w.out[i])
      return false;
  return true;
}

/// out[n][c][i] += bias[c] over N images of F channels of `size` elements.
template <typename T>
void addChannelBias(const Tensor &bias, int64_t N, int64_t F, int64_t size,
                    T *out) {
  Operand<T> vb(bias);
  parallelFor(N * F, grainFor(size), [&](int64_t begin, int64_t end) {
    for (int64_t nc = begin; nc < end; ++nc)
      for (int64_t i = 0; i < size; ++i)
        out[nc * size + i] += vb.data()[nc % F];
  });
}

/// A convolution as one contraction per image and group.
template <typename T>
void convGroups(const EvalOptions &o, ConvOp op, const T *x, const T *f,
                int64_t N, int64_t C, int64_t F, int64_t G, const Window3 &w,
                T *out) {
  int64_t Cg = C / G, Fg = F / G;
  int64_t K = Cg * w.kSize(), O = w.outSize(), I = w.inSize();
  bool pointwise = isPointwise(w);
  // One contraction per image and group; each runs serially in its thread
  // (a single one spreads its own tiles), so the sums do not depend on the
  // thread count.
  int64_t jobs = N * G;
  int64_t rows = w.out[0] * w.out[1];
  int64_t block = pointwise ? rows : im2colRows(w, K, sizeof(T));
  parallelFor(jobs, grainFor(2 * Fg * O * K), [&](int64_t begin, int64_t end) {
    Scratch<T> col(pointwise ? 0 : K * block * w.out[2]);
    for (int64_t j = begin; j < end; ++j) {
      int64_t n = j / G, g = j % G;
      const T *in = x + (n * C + g * Cg) * I;
      T *dst = out + (n * F + g * Fg) * O;
      if (pointwise) {
        contract(o, Fg, O, K, f + g * Fg * K, K, false, in, O, false, dst, O,
                 fp32MatmulOf(op));
        continue;
      }
      for (int64_t r0 = 0; r0 < rows; r0 += block) {
        int64_t r1 = std::min(rows, r0 + block), P = (r1 - r0) * w.out[2];
        im2col(in, Cg, w, col.data(), r0, r1);
        contract(o, Fg, P, K, f + g * Fg * K, K, false, col.data(), P, false,
                 dst + r0 * w.out[2], O, fp32MatmulOf(op));
      }
    }
  });
}

template <typename T>
Tensor conv(const EvalOptions &o, ConvOp op, const Tensor &x, const Tensor &f, const Tensor *bias) {
  auto outShape = shapeOf(op.getOutput());
  Window3 w = window3(x.shape(), outShape, f.shape().drop_front(2),
                      op.getStrides(), op.getPads(), op.getDilations());
  int64_t N = x.shape()[0], C = x.shape()[1], F = f.shape()[0];
  int64_t G = op.getGroup(), Cg = C / G, Fg = F / G;
  int64_t O = w.outSize();
  Operand<T> vx(x), vf(f);
  Result<T> res(x.dtype(), outShape);
  T *out = res.data();
  bool plain = (fp32MatmulOf(op) == Fp32Matmul::IEEE || o.ieeeMatmul) &&
               o.accumulatorMantissaBits == 0;
  // A plane: one depth position in and out (Conv1d, Conv2d, or a Conv3d
  // of depth 1 without depth padding), whose phase images stay near the
  // input's size (strides no wider than the window: a stride past the
  // window would copy columns no tap reads).
  bool plane = w.in[0] == 1 && w.k[0] == 1 && w.out[0] == 1 &&
               w.pad[0] == 0 && w.stride[1] <= (w.k[1] - 1) * w.dil[1] + 1 &&
               w.stride[2] <= (w.k[2] - 1) * w.dil[2] + 1;
  if (Cg == 1 && plain && plane) {
    depthwisePlane(vx.data(), vf.data(), N, C, Fg, w, out);
  } else if (Cg == 1 && plain) {
    depthwise(vx.data(), vf.data(), N, C, Fg, w, out);
  } else {
    convGroups(o, op, vx.data(), vf.data(), N, C, F, G, w, out);
  }
  if (bias)
    addChannelBias(*bias, N, F, O, out);
  return res.take();
}

template <typename T>
Tensor convTranspose(const EvalOptions &o, ConvTransposeOp op, const Tensor &x, const Tensor &f,
                     const Tensor *bias) {
  auto outShape = shapeOf(op.getOutput());
  // The transposed conv is the adjoint of a conv from the output back to the
  // input: its "input" window is the output tensor.
  Window3 w = window3(outShape, x.shape(), f.shape().drop_front(2),
                      op.getStrides(), op.getPads(), op.getDilations());
  int64_t N = x.shape()[0], C = x.shape()[1], G = op.getGroup();
  int64_t Cg = C / G, Fg = f.shape()[1], F = Fg * G;
  int64_t K = Fg * w.kSize(), O = w.outSize(), I = w.inSize();
  Operand<T> vx(x), vf(f);
  Result<T> res(x.dtype(), outShape, /*zeroed=*/true); // col2im adds into it
  T *out = res.data();
  parallelFor(N * G, grainFor(2 * K * O * Cg), [&](int64_t begin, int64_t end) {
    Scratch<T> col(K * O);
    for (int64_t j = begin; j < end; ++j) {
      int64_t n = j / G, g = j % G;
      // col[K, O] = W_g^T[K, Cg] * x_g[Cg, O]
      contract(o, K, O, Cg, vf.data() + g * Cg * K, K, true,
               vx.data() + (n * C + g * Cg) * O, O, false, col.data(), O,
               fp32MatmulOf(op));
      col2im(col.data(), Fg, w, out + (n * F + g * Fg) * I);
    }
  });
  if (bias)
    addChannelBias(*bias, N, F, I, out);
  return res.take();
}
/// Rows [S, K] in groups by `offs`, each group times its own [K, N] matrix
/// (GroupedMatMulOp): groups in order, a later group's rows standing
/// where ranges overlap, rows of no group 0.
template <typename T>
Tensor groupedMatmul(const EvalOptions &o, const Tensor &a, const Tensor &w,
                     const Tensor &offs, DType rt, Fp32Matmul p) {
  int64_t S = a.shape()[0], K = a.shape()[1], E = w.shape()[0], N = w.shape()[2];
  Operand<T> va(a), vw(w);
  Result<T> out(rt, {S, N}, /*zeroed=*/true);
  // E + 1 offsets: the first is group 0's start.
  int64_t first = offs.numElements() > E ? 1 : 0;
  int64_t start = first ? std::clamp<int64_t>(offs.getInt(0), 0, S) : 0;
  for (int64_t e = 0; e < E; ++e) {
    int64_t end = std::clamp<int64_t>(offs.getInt(e + first), 0, S);
    if (end > start)
      contract(o, end - start, N, K, va.data() + start * K, K, false,
               vw.data() + e * K * N, N, false, out.data() + start * N, N, p);
    start = end;
  }
  return out.take();
}

template <typename T>
Tensor attention(const EvalOptions &o, AttentionOp op, const Tensor &q, const Tensor &k,
                 const Tensor &v, const Tensor *mask) {
  int64_t r = q.rank();
  int64_t L = q.shape()[r - 2], D = q.shape()[r - 1], S = k.shape()[r - 2],
          Dv = v.shape()[r - 1];
  int64_t batches = numElements(q.shape().drop_back(2));
  Shape scoreShape(q.shape().drop_back(1));
  scoreShape.push_back(S);
  Operand<T> vq(q), vk(k), vv(v);
  Result<T> res(q.dtype(), shapeOf(op.getOutput()));
  T *out = res.data();
  std::vector<double> vm;
  std::vector<int64_t> maskOff;
  bool boolMask = mask && mask->dtype() == DType::Bool;
  if (mask) {
    vm = mask->toDoubles();
    Shape st = broadcastStrides(mask->shape(), scoreShape);
    maskOff.resize(numElements(scoreShape));
    forEachOffset2(scoreShape, st, st,
                   [&](int64_t i, int64_t o, int64_t) { maskOff[i] = o; });
  }
  T scale = op.getScale().convertToDouble();
  bool causal = op.getCausal(), safe = op.getSafeSoftmax(),
       emptyZero = op.getEmptyRowsZero() && mask;
  // One batch entry (a head) per thread at a time, each with its scores.
  parallelFor(batches, grainFor(2 * L * S * (D + Dv)), [&](int64_t b0, int64_t b1) {
    std::vector<T> scores(L * S);
    for (int64_t b = b0; b < b1; ++b) {
      contract(o, L, S, D, vq.data() + b * L * D, D, false,
               vk.data() + b * S * D, D, /*transB=*/true, scores.data(), S,
               fp32MatmulOf(op));
      for (int64_t i = 0; i < L; ++i) {
        T *row = scores.data() + i * S;
        T maxv = -std::numeric_limits<T>::infinity();
        bool keeps = false; // the mask keeps some key of the row
        for (int64_t j = 0; j < S; ++j) {
          T s = row[j] * scale;
          if (causal && j > i)
            s = -std::numeric_limits<T>::infinity();
          if (mask) {
            double m = vm[maskOff[(b * L + i) * S + j]];
            keeps |= boolMask ? m != 0 : m != -std::numeric_limits<double>::infinity();
            if (boolMask)
              s = m != 0 ? s : -std::numeric_limits<T>::infinity();
            else
              s += (T)m;
          }
          row[j] = s;
          maxv = std::max(maxv, s);
        }
        if (emptyZero && !keeps) {
          std::fill(row, row + S, T(0));
          continue;
        }
        T sum = 0;
        for (int64_t j = 0; j < S; ++j)
          sum += (row[j] = std::exp(row[j] - maxv));
        for (int64_t j = 0; j < S; ++j) {
          row[j] /= sum;
          if (safe && std::isnan(row[j]))
            row[j] = 0;
        }
      }
      contract(o, L, Dv, S, scores.data(), S, false, vv.data() + b * S * Dv,
               Dv, false, out + b * L * Dv, Dv, fp32MatmulOf(op));
    }
  });
  return res.take();
}
} // namespace

template <>
LogicalResult dfa::ref::evalOp<AttentionOp>(AttentionOp op, Evaluator &ev) {
  const Tensor &q = ev.get(op.getQuery()), &k = ev.get(op.getKey()),
               &v = ev.get(op.getValue());
  const Tensor *m = op.getMask() ? &ev.get(op.getMask()) : nullptr;
  ev.set(op.getOutput(), wantDouble(q.dtype(), ev)
                             ? attention<double>(ev.options(), op, q, k, v, m)
                             : attention<float>(ev.options(), op, q, k, v, m));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<MatMulOp>(MatMulOp op, Evaluator &ev) {
  const Tensor &a = ev.get(op.getLhs()), &b = ev.get(op.getRhs());
  DType rt = dtypeOfValue(op.getOutput());
  auto shape = shapeOf(op.getOutput());
  ev.set(op.getOutput(), wantDouble(a.dtype(), ev)
                             ? matmul<double>(ev.options(), a, b, rt, shape, fp32MatmulOf(op))
                             : matmul<float>(ev.options(), a, b, rt, shape, fp32MatmulOf(op)));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<GroupedMatMulOp>(GroupedMatMulOp op, Evaluator &ev) {
  const Tensor &a = ev.get(op.getLhs()), &w = ev.get(op.getRhs()),
               &offs = ev.get(op.getOffsets());
  DType rt = dtypeOfValue(op.getOutput());
  ev.set(op.getOutput(),
         wantDouble(a.dtype(), ev)
             ? groupedMatmul<double>(ev.options(), a, w, offs, rt, fp32MatmulOf(op))
             : groupedMatmul<float>(ev.options(), a, w, offs, rt, fp32MatmulOf(op)));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<GemmOp>(GemmOp op, Evaluator &ev) {
  const Tensor &a = ev.get(op.getA()), &b = ev.get(op.getB());
  const Tensor *c = op.getC() ? &ev.get(op.getC()) : nullptr;
  ev.set(op.getOutput(), wantDouble(a.dtype(), ev) ? gemmOp<double>(ev.options(), op, a, b, c)
                                                   : gemmOp<float>(ev.options(), op, a, b, c));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<ConvOp>(ConvOp op, Evaluator &ev) {
  if (shapeOf(op.getInput()).size() > 5)
    return op.emitOpError("reference supports 1 to 3 spatial dims");
  const Tensor &x = ev.get(op.getInput()), &f = ev.get(op.getFilter());
  const Tensor *b = op.getBias() ? &ev.get(op.getBias()) : nullptr;
  ev.set(op.getOutput(), wantDouble(x.dtype(), ev) ? conv<double>(ev.options(), op, x, f, b)
                                                   : conv<float>(ev.options(), op, x, f, b));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<ConvTransposeOp>(ConvTransposeOp op,
                                                Evaluator &ev) {
  if (shapeOf(op.getInput()).size() > 5)
    return op.emitOpError("reference supports 1 to 3 spatial dims");
  const Tensor &x = ev.get(op.getInput()), &f = ev.get(op.getFilter());
  const Tensor *b = op.getBias() ? &ev.get(op.getBias()) : nullptr;
  ev.set(op.getOutput(), wantDouble(x.dtype(), ev)
                             ? convTranspose<double>(ev.options(), op, x, f, b)
                             : convTranspose<float>(ev.options(), op, x, f, b));
  return success();
}
