//===- Kernels.h - reference kernels (private) ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// `evalOp<OpT>` is specialized once per graph op in the kernel files; a
/// missing specialization is a link error, so every op has a reference.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_REFERENCE_KERNELS_H
#define LIB_REFERENCE_KERNELS_H

#include "dfa/Reference/Evaluator.h"
#include "dfa/Support/Parallel.h"

#include "dialects/Graph/GraphOps.h"

#include <algorithm>
#include <memory>
#include <tuple>

namespace dfa::ref {

template <typename OpT> mlir::LogicalResult evalOp(OpT op, Evaluator &ev);

/// The consumer that `producer` is computed together with when a whole
/// block runs, or null: a pair whose one pass writes the very bytes the two
/// ops write apart (a NaN's sign and payload aside: which operand's NaN a
/// product keeps is the compiler's choice), so that the producer's value,
/// used by nothing else, is
/// never stored. x * sigmoid(x) in float32 (SiLU as ONNX exporters spell
/// it: EfficientNet's sixty-five) is one. The evaluator skips the producer
/// and calls evalFused at the consumer.
mlir::Operation *fusedConsumer(mlir::Operation *producer);
mlir::LogicalResult evalFused(mlir::Operation *producer,
                              mlir::Operation *consumer, Evaluator &ev);

/// Element type of a tensor-typed value.
DType dtypeOfValue(mlir::Value v);
/// Shape of a tensor-typed value.
llvm::ArrayRef<int64_t> shapeOf(mlir::Value v);

/// Iterates over the indices [begin, end) of `shape` (row-major), calling
/// f(outIndex, offA, offB) where offA/offB advance by the given strides (in
/// elements; 0 for a broadcast dim).
template <typename F>
void forEachOffset2In(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> sa,
                      llvm::ArrayRef<int64_t> sb, int64_t begin, int64_t end,
                      F f) {
  int64_t rank = shape.size();
  if (begin >= end)
    return;
  if (rank == 0) {
    f(0, 0, 0);
    return;
  }
  Shape idx(rank, 0);
  int64_t rem = begin, offA = 0, offB = 0;
  for (int64_t d = rank - 1; d >= 0; --d) {
    idx[d] = rem % shape[d];
    rem /= shape[d];
    offA += idx[d] * sa[d];
    offB += idx[d] * sb[d];
  }
  int64_t inner = shape[rank - 1], ia = sa[rank - 1], ib = sb[rank - 1];
  // offA/offB: the offsets of the current row's first element.
  offA -= idx[rank - 1] * ia;
  offB -= idx[rank - 1] * ib;
  for (int64_t i = begin;;) {
    int64_t j0 = idx[rank - 1], stop = std::min(inner, j0 + (end - i));
    // The common stride pairs get loops of their own, which the compiler
    // vectorizes when f is simple.
    if (ia == 1 && ib == 1)
      for (int64_t j = j0; j < stop; ++j)
        f(i + j - j0, offA + j, offB + j);
    else if (ia == 1 && ib == 0)
      for (int64_t j = j0; j < stop; ++j)
        f(i + j - j0, offA + j, offB);
    else if (ia == 0 && ib == 1)
      for (int64_t j = j0; j < stop; ++j)
        f(i + j - j0, offA, offB + j);
    else
      for (int64_t j = j0; j < stop; ++j)
        f(i + j - j0, offA + j * ia, offB + j * ib);
    i += stop - j0;
    if (i >= end)
      return;
    idx[rank - 1] = 0;
    for (int64_t d = rank - 2; d >= 0; --d) {
      offA += sa[d];
      offB += sb[d];
      if (++idx[d] < shape[d])
        break;
      offA -= sa[d] * shape[d];
      offB -= sb[d] * shape[d];
      idx[d] = 0;
    }
  }
}

/// Merges adjacent dims of `shape` that both stride vectors walk as one
/// (sa[d] == sa[d+1] * shape[d+1], likewise sb), and drops dims of size 1:
/// the same offsets for every row-major index, in longer rows.
inline void coalesceDims(Shape &shape, Shape &sa, Shape &sb) {
  Shape s, a, b;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1)
      continue;
    if (!s.empty() && a.back() == sa[d] * shape[d] &&
        b.back() == sb[d] * shape[d]) {
      s.back() *= shape[d];
      a.back() = sa[d];
      b.back() = sb[d];
      continue;
    }
    s.push_back(shape[d]);
    a.push_back(sa[d]);
    b.push_back(sb[d]);
  }
  if (s.empty() && numElements(shape) == 1) {
    s.push_back(1);
    a.push_back(0);
    b.push_back(0);
  }
  if (numElements(shape) == 0) // keep an empty shape empty
    return;
  shape = std::move(s);
  sa = std::move(a);
  sb = std::move(b);
}

/// forEachOffset2In over every index of `shape`.
template <typename F>
void forEachOffset2(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> sa,
                    llvm::ArrayRef<int64_t> sb, F f) {
  forEachOffset2In(shape, sa, sb, 0, numElements(shape), f);
}

/// forEachOffset2 with the indices split over the threads in contiguous
/// ranges; `f` must write only output element outIndex. `cost`: simple
/// operations per element, which sizes the ranges.
template <typename F>
void parallelForEachOffset2(llvm::ArrayRef<int64_t> shape,
                            llvm::ArrayRef<int64_t> sa,
                            llvm::ArrayRef<int64_t> sb, int64_t cost, F f) {
  parallelFor(numElements(shape), grainFor(cost),
              [&](int64_t begin, int64_t end) {
                forEachOffset2In(shape, sa, sb, begin, end, f);
              });
}

/// Strides (in elements) that read an input of `inShape` broadcast to
/// `outShape` (numpy rules, right-aligned): 0 on broadcast dims.
Shape broadcastStrides(llvm::ArrayRef<int64_t> inShape,
                       llvm::ArrayRef<int64_t> outShape);

/// Copies elements of `in` read at base + sum(idx[d] * strides[d]) into a new
/// tensor of `outShape` (strides in elements, may be 0 or negative).
Tensor stridedCopy(const Tensor &in, int64_t base,
                   llvm::ArrayRef<int64_t> strides,
                   llvm::ArrayRef<int64_t> outShape);

/// Splits `shape` around `axis` into (outer, axis size, inner).
inline std::tuple<int64_t, int64_t, int64_t>
around(llvm::ArrayRef<int64_t> shape, int64_t axis) {
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t d = axis + 1; d < (int64_t)shape.size(); ++d)
    inner *= shape[d];
  return {outer, shape.empty() ? 1 : shape[axis], inner};
}

/// A window over 1 to 3 spatial dims, padded to three (D, H, W) with unit
/// dims so that one loop nest serves Conv1d, Conv2d and Conv3d.
struct Window3 {
  int64_t in[3], out[3], k[3], stride[3], pad[3], dil[3];
  int64_t inSize() const { return in[0] * in[1] * in[2]; }
  int64_t outSize() const { return out[0] * out[1] * out[2]; }
  int64_t kSize() const { return k[0] * k[1] * k[2]; }
};

inline Window3 window3(llvm::ArrayRef<int64_t> inShape,
                       llvm::ArrayRef<int64_t> outShape,
                       llvm::ArrayRef<int64_t> kernel,
                       llvm::ArrayRef<int64_t> strides,
                       llvm::ArrayRef<int64_t> pads,
                       llvm::ArrayRef<int64_t> dilations) {
  Window3 w;
  int64_t s = inShape.size() - 2, off = 3 - s;
  for (int i = 0; i < 3; ++i) {
    w.in[i] = w.out[i] = w.k[i] = w.stride[i] = w.dil[i] = 1;
    w.pad[i] = 0;
  }
  for (int64_t i = 0; i < s; ++i) {
    w.in[off + i] = inShape[2 + i];
    w.out[off + i] = outShape[2 + i];
    w.k[off + i] = kernel[i];
    w.stride[off + i] = strides[i];
    w.pad[off + i] = pads[i];
    w.dil[off + i] = dilations.empty() ? 1 : dilations[i];
  }
  return w;
}

/// Scratch memory for a kernel's temporaries (im2col columns): a buffer per
/// thread, kept between calls, so that a model's hundred convolutions do not
/// each fault in fresh pages. One Scratch at a time per thread takes the
/// kept buffer (a nested one gets its own); a buffer past 256 MiB is freed
/// when its Scratch ends rather than kept.
template <typename T> class Scratch {
public:
  explicit Scratch(size_t n) : bytes(n * sizeof(T)) {
    Kept &k = kept();
    if (!k.busy) {
      k.busy = true;
      owner = true;
      if (k.size < bytes) {
        k.buffer.reset();
        k.buffer.reset(new uint8_t[bytes]);
        k.size = bytes;
      }
      ptr = reinterpret_cast<T *>(k.buffer.get());
    } else {
      own.reset(new uint8_t[bytes]);
      ptr = reinterpret_cast<T *>(own.get());
    }
  }
  ~Scratch() {
    if (!owner)
      return;
    Kept &k = kept();
    k.busy = false;
    if (k.size > (size_t(256) << 20)) {
      k.buffer.reset();
      k.size = 0;
    }
  }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  T *data() { return ptr; }

private:
  struct Kept {
    std::unique_ptr<uint8_t[]> buffer;
    size_t size = 0;
    bool busy = false;
  };
  static Kept &kept() {
    static thread_local Kept k;
    return k;
  }
  size_t bytes;
  bool owner = false;
  std::unique_ptr<uint8_t[]> own;
  T *ptr = nullptr;
};

} // namespace dfa::ref

#endif // LIB_REFERENCE_KERNELS_H
