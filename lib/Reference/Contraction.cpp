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
/// go through im2col and the blocked GEMM.
///
//===----------------------------------------------------------------------===//

#include "Gemm.h"
#include "Kernels.h"

#include <cmath>
#include <limits>

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
  std::vector<T> va = valuesOf<T>(a), vb = valuesOf<T>(b);
  std::vector<T> out(numElements(batch) * M * N);
  forEachOffset2(batch, stA, stB, [&](int64_t i, int64_t ia, int64_t ib) {
    contract(o, M, N, K, va.data() + ia * M * K, K, false,
             vb.data() + ib * K * N, N, false, out.data() + i * M * N, N, p);
  });
  return fromValues(rt, outShape, out);
}

template <typename T>
Tensor gemmOp(const EvalOptions &o, GemmOp op, const Tensor &a, const Tensor &b, const Tensor *c) {
  auto outShape = shapeOf(op.getOutput());
  int64_t M = outShape[0], N = outShape[1];
  int64_t K = a.shape()[op.getTransA() ? 0 : 1];
  std::vector<T> va = valuesOf<T>(a), vb = valuesOf<T>(b), out(M * N);
  contract(o, M, N, K, va.data(), a.shape()[1], op.getTransA(), vb.data(),
           b.shape()[1], op.getTransB(), out.data(), N, fp32MatmulOf(op));
  T alpha = op.getAlpha().convertToDouble(), beta = op.getBeta().convertToDouble();
  if (alpha != T(1))
    for (T &x : out)
      x *= alpha;
  if (c) {
    std::vector<T> vc = valuesOf<T>(*c);
    Shape st = broadcastStrides(c->shape(), outShape);
    forEachOffset2(outShape, st, st, [&](int64_t i, int64_t ic, int64_t) {
      out[i] += beta * vc[ic];
    });
  }
  return fromValues(a.dtype(), outShape, out);
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

/// col[c*K + kidx][o] = x[c][o*stride - pad + kidx*dil] (0 outside).
template <typename T>
void im2col(const T *x, int64_t channels, const Window3 &w, T *col) {
  int64_t O = w.outSize(), I = w.inSize();
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t kd = 0; kd < w.k[0]; ++kd)
      for (int64_t kh = 0; kh < w.k[1]; ++kh)
        for (int64_t kw = 0; kw < w.k[2]; ++kw) {
          T *dst = col + ((c * w.k[0] + kd) * w.k[1] + kh) * w.k[2] * O + kw * O;
          const T *src = x + c * I;
          for (int64_t od = 0; od < w.out[0]; ++od) {
            int64_t id = od * w.stride[0] - w.pad[0] + kd * w.dil[0];
            for (int64_t oh = 0; oh < w.out[1]; ++oh) {
              int64_t ih = oh * w.stride[1] - w.pad[1] + kh * w.dil[1];
              T *row = dst + (od * w.out[1] + oh) * w.out[2];
              bool inside = id >= 0 && id < w.in[0] && ih >= 0 && ih < w.in[1];
              for (int64_t ow = 0; ow < w.out[2]; ++ow) {
                int64_t iw = ow * w.stride[2] - w.pad[2] + kw * w.dil[2];
                row[ow] = inside && iw >= 0 && iw < w.in[2]
                              ? src[(id * w.in[1] + ih) * w.in[2] + iw]
                              : T(0);
              }
            }
          }
        }
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

template <typename T>
Tensor conv(const EvalOptions &o, ConvOp op, const Tensor &x, const Tensor &f, const Tensor *bias) {
  auto outShape = shapeOf(op.getOutput());
  Window3 w = window3(x.shape(), outShape, f.shape().drop_front(2),
                      op.getStrides(), op.getPads(), op.getDilations());
  int64_t N = x.shape()[0], C = x.shape()[1], F = f.shape()[0];
  int64_t G = op.getGroup(), Cg = C / G, Fg = F / G;
  int64_t K = Cg * w.kSize(), O = w.outSize(), I = w.inSize();
  std::vector<T> vx = valuesOf<T>(x), vf = valuesOf<T>(f);
  std::vector<T> out(N * F * O), col(K * O);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < G; ++g) {
      im2col(vx.data() + (n * C + g * Cg) * I, Cg, w, col.data());
      contract(o, Fg, O, K, vf.data() + g * Fg * K, K, false, col.data(), O,
               false, out.data() + (n * F + g * Fg) * O, O, fp32MatmulOf(op));
    }
  if (bias) {
    std::vector<T> vb = valuesOf<T>(*bias);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < F; ++c)
        for (int64_t o = 0; o < O; ++o)
          out[(n * F + c) * O + o] += vb[c];
  }
  return fromValues(x.dtype(), outShape, out);
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
  std::vector<T> vx = valuesOf<T>(x), vf = valuesOf<T>(f);
  std::vector<T> out(N * F * I, T(0)), col(K * O);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < G; ++g) {
      // col[K, O] = W_g^T[K, Cg] * x_g[Cg, O]
      contract(o, K, O, Cg, vf.data() + g * Cg * K, K, true,
               vx.data() + (n * C + g * Cg) * O, O, false, col.data(), O,
               fp32MatmulOf(op));
      col2im(col.data(), Fg, w, out.data() + (n * F + g * Fg) * I);
    }
  if (bias) {
    std::vector<T> vb = valuesOf<T>(*bias);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < F; ++c)
        for (int64_t i = 0; i < I; ++i)
          out[(n * F + c) * I + i] += vb[c];
  }
  return fromValues(x.dtype(), outShape, out);
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
  std::vector<T> vq = valuesOf<T>(q), vk = valuesOf<T>(k), vv = valuesOf<T>(v);
  std::vector<T> out(batches * L * Dv), scores(L * S);
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
  bool causal = op.getCausal();
  for (int64_t b = 0; b < batches; ++b) {
    contract(o, L, S, D, vq.data() + b * L * D, D, false,
             vk.data() + b * S * D, D, /*transB=*/true, scores.data(), S,
             fp32MatmulOf(op));
    for (int64_t i = 0; i < L; ++i) {
      T *row = scores.data() + i * S;
      T maxv = -std::numeric_limits<T>::infinity();
      for (int64_t j = 0; j < S; ++j) {
        T s = row[j] * scale;
        if (causal && j > i)
          s = -std::numeric_limits<T>::infinity();
        if (mask) {
          double m = vm[maskOff[(b * L + i) * S + j]];
          if (boolMask)
            s = m != 0 ? s : -std::numeric_limits<T>::infinity();
          else
            s += (T)m;
        }
        row[j] = s;
        maxv = std::max(maxv, s);
      }
      T sum = 0;
      for (int64_t j = 0; j < S; ++j)
        sum += (row[j] = std::exp(row[j] - maxv));
      for (int64_t j = 0; j < S; ++j)
        row[j] /= sum;
    }
    contract(o, L, Dv, S, scores.data(), S, false, vv.data() + b * S * Dv, Dv,
             false, out.data() + b * L * Dv, Dv, fp32MatmulOf(op));
  }
  return fromValues(q.dtype(), shapeOf(op.getOutput()), out);
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
