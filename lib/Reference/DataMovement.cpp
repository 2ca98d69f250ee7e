//===- DataMovement.cpp - reference data movement and sources ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <cstring>

#include <zstd.h>

using namespace mlir;
using namespace dfa;
using namespace dfa::ref;
using namespace dfa::graph;

namespace {
template <typename T>
void gatherTyped(const uint8_t *in, int64_t base, ArrayRef<int64_t> strides,
                 ArrayRef<int64_t> outShape, uint8_t *out) {
  const T *src = reinterpret_cast<const T *>(in) + base;
  T *dst = reinterpret_cast<T *>(out);
  forEachOffset2(outShape, strides, strides,
                 [&](int64_t i, int64_t o, int64_t) { dst[i] = src[o]; });
}

/// Copies element `from` of `src` to element `to` of `dst` (same dtype).
inline void copyElement(const Tensor &src, int64_t from, Tensor &dst,
                        int64_t to) {
  size_t es = dtypeSize(src.dtype());
  std::memcpy(dst.bytes() + to * es, src.bytes() + from * es, es);
}

int64_t normalizeIndex(int64_t i, int64_t dim) { return i < 0 ? i + dim : i; }
} // namespace

Tensor dfa::ref::stridedCopy(const Tensor &in, int64_t base,
                             ArrayRef<int64_t> strides,
                             ArrayRef<int64_t> outShape) {
  Tensor out(in.dtype(), outShape);
  switch (dtypeSize(in.dtype())) {
  case 1: gatherTyped<uint8_t>(in.bytes(), base, strides, outShape, out.bytes()); break;
  case 2: gatherTyped<uint16_t>(in.bytes(), base, strides, outShape, out.bytes()); break;
  case 4: gatherTyped<uint32_t>(in.bytes(), base, strides, outShape, out.bytes()); break;
  default: gatherTyped<uint64_t>(in.bytes(), base, strides, outShape, out.bytes()); break;
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

template <>
LogicalResult dfa::ref::evalOp<ConstantOp>(ConstantOp op, Evaluator &ev) {
  ev.set(op.getOutput(), tensorFromAttr(op.getValue()));
  return success();
}

bool dfa::ref::readWeight(llvm::StringRef file, uint64_t offset,
                          std::optional<uint64_t> zstdBytes,
                          std::optional<uint64_t> rowPitch, Tensor &t,
                          std::string &error) {
  // A window of columns: its rows span (rows - 1) pitches and one row.
  uint64_t rowBytes = t.shape().empty() ? t.byteSize()
                                        : uint64_t(t.shape().back()) * dtypeSize(t.dtype());
  uint64_t rows = rowBytes ? t.byteSize() / rowBytes : 0;
  bool window = rowPitch && *rowPitch != rowBytes && rows > 0;
  if (window && (zstdBytes || *rowPitch < rowBytes ||
                 (rows > 1 && *rowPitch > (UINT64_MAX - rowBytes) / (rows - 1)))) {
    error = "row pitch " + std::to_string(*rowPitch) + " does not fit rows of " +
            std::to_string(rowBytes) + " bytes" + (zstdBytes ? " in a zstd frame" : "");
    return false;
  }
  size_t want = zstdBytes ? *zstdBytes
                : window  ? (rows - 1) * *rowPitch + rowBytes
                          : t.byteSize();
  // The file's size first: a mapping past its end would fault when read.
  uint64_t size = 0;
  if (std::error_code ec = llvm::sys::fs::file_size(file, size)) {
    error = "cannot read '" + file.str() + "': " + ec.message();
    return false;
  }
  if (offset > size || want > size - offset) {
    error = "needs " + std::to_string(want) + " bytes at offset " + std::to_string(offset) +
            " of '" + file.str() + "', file is too short";
    return false;
  }
  // A private (copy-on-write) mapping where LLVM maps the slice: the
  // weight's pages come straight from the page cache, read once by the
  // kernel that uses them, and a writer gets its own copy.
  auto buf = llvm::WritableMemoryBuffer::getFileSlice(file, want, offset,
                                                      /*IsVolatile=*/false);
  if (!buf) {
    error = "cannot read '" + file.str() + "': " + buf.getError().message();
    return false;
  }
  if ((*buf)->getBufferSize() != want) {
    error = "needs " + std::to_string(want) + " bytes at offset " +
            std::to_string(offset) + " of '" + file.str() +
            "', file is too short";
    return false;
  }
  if (window) {
    const char *start = (*buf)->getBufferStart();
    for (uint64_t r = 0; r < rows; ++r)
      std::memcpy(t.bytes() + r * rowBytes, start + r * *rowPitch, rowBytes);
    return true;
  }
  if (!zstdBytes) {
    uint8_t *start = reinterpret_cast<uint8_t *>((*buf)->getBufferStart());
    if (want > 0 && reinterpret_cast<uintptr_t>(start) % dtypeSize(t.dtype()) == 0) {
      std::shared_ptr<llvm::WritableMemoryBuffer> owner(std::move(*buf));
      t = Tensor::adopt(t.dtype(), t.shape(),
                        std::shared_ptr<uint8_t[]>(owner, start));
      return true;
    }
    std::memcpy(t.bytes(), start, t.byteSize());
    return true;
  }
  size_t n = ZSTD_decompress(t.bytes(), t.byteSize(), (*buf)->getBufferStart(),
                             *zstdBytes);
  if (ZSTD_isError(n) || n != t.byteSize()) {
    error = "the zstd frame at offset " + std::to_string(offset) + " of '" +
            file.str() + "' does not decompress to " +
            std::to_string(t.byteSize()) + " bytes" +
            (ZSTD_isError(n) ? std::string(": ") + ZSTD_getErrorName(n) : "");
    return false;
  }
  return true;
}

template <>
LogicalResult dfa::ref::evalOp<WeightOp>(WeightOp op, Evaluator &ev) {
  if (const Tensor *kept = ev.keptWeight(op)) {
    ev.set(op.getOutput(), *kept);
    return success();
  }
  auto type = cast<RankedTensorType>(op.getType());
  Tensor t = Tensor::uninitialized(dtypeOfValue(op.getOutput()), type.getShape());
  if (op.getFile().empty())
    return op.emitOpError("weight '")
           << op.getSymName()
           << "' has no data (the model was imported without weights)";
  std::string err;
  if (!readWeight(op.getFile(), op.getOffset(), op.getZstdBytes(), op.getRowPitch(), t,
                  err))
    return op.emitOpError("weight '") << op.getSymName() << "': " << err;
  if (ev.options().keepWeights)
    ev.keepWeight(op, t);
  ev.set(op.getOutput(), std::move(t));
  return success();
}

//===----------------------------------------------------------------------===//
// Views: reshape, expand, transpose, slice
//===----------------------------------------------------------------------===//

template <>
LogicalResult dfa::ref::evalOp<ReshapeOp>(ReshapeOp op, Evaluator &ev) {
  ev.set(op.getOutput(), ev.get(op.getInput()).reshaped(shapeOf(op.getOutput())));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<ExpandOp>(ExpandOp op, Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  auto out = shapeOf(op.getOutput());
  ev.set(op.getOutput(), stridedCopy(in, 0, broadcastStrides(in.shape(), out), out));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<TransposeOp>(TransposeOp op, Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  Shape inStrides = rowMajorStrides(in.shape()), strides;
  for (int64_t p : op.getPerm())
    strides.push_back(inStrides[p]);
  ev.set(op.getOutput(), stridedCopy(in, 0, strides, shapeOf(op.getOutput())));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<SliceOp>(SliceOp op, Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  Shape inStrides = rowMajorStrides(in.shape()), strides;
  int64_t base = 0;
  for (int64_t d = 0; d < in.rank(); ++d) {
    base += op.getStarts()[d] * inStrides[d];
    strides.push_back(op.getSteps()[d] * inStrides[d]);
  }
  ev.set(op.getOutput(), stridedCopy(in, base, strides, shapeOf(op.getOutput())));
  return success();
}

//===----------------------------------------------------------------------===//
// Concat and split
//===----------------------------------------------------------------------===//

template <>
LogicalResult dfa::ref::evalOp<ConcatOp>(ConcatOp op, Evaluator &ev) {
  auto outShape = shapeOf(op.getOutput());
  int64_t axis = op.getAxis();
  Tensor out(dtypeOfValue(op.getOutput()), outShape);
  auto [outer, len, inner] = around(outShape, axis);
  size_t es = dtypeSize(out.dtype());
  int64_t at = 0;
  for (Value v : op.getInputs()) {
    const Tensor &t = ev.get(v);
    int64_t piece = t.shape()[axis] * inner * es;
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(out.bytes() + (o * len * inner + at * inner) * es,
                  t.bytes() + o * piece, piece);
    at += t.shape()[axis];
  }
  ev.set(op.getOutput(), std::move(out));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<SplitOp>(SplitOp op, Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  int64_t axis = op.getAxis();
  auto [outer, len, inner] = around(in.shape(), axis);
  size_t es = dtypeSize(in.dtype());
  int64_t at = 0;
  for (Value r : op.getOutputs()) {
    Tensor t(in.dtype(), shapeOf(r));
    int64_t piece = t.shape()[axis] * inner * es;
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(t.bytes() + o * piece,
                  in.bytes() + (o * len * inner + at * inner) * es, piece);
    at += t.shape()[axis];
    ev.set(r, std::move(t));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

/// A range check's failure (graph::kRangeCheckAttr): the value the index
/// stands for (index - 1 + hi above, index + 1 + lo below) and its bounds,
/// with the element's position when the gather sees the whole value (a
/// tiled kernel's gather sees a part).
static LogicalResult rangeCheckFailed(GatherOp op, DictionaryAttr check,
                                      int64_t index, int64_t element) {
  int64_t lo = check.getAs<IntegerAttr>("lo").getInt();
  int64_t hi = check.getAs<IntegerAttr>("hi").getInt();
  // The check computed value - hi + 1 or value - lo - 1 in wrapping int64
  // arithmetic; undone the same way, the side whose value lies outside the
  // range is the one it came from (a value near INT64_MIN wraps to a
  // positive index).
  auto wrap = [](int64_t a, int64_t b) {
    return int64_t(uint64_t(a) + uint64_t(b));
  };
  int64_t above = wrap(wrap(index, hi), -1), below = wrap(wrap(index, lo), 1);
  int64_t value = above >= hi && !(index < 0 && below < lo) ? above : below;
  InFlightDiagnostic d = op->emitError()
                         << check.getAs<StringAttr>("value").getValue();
  auto shape = cast<ShapedType>(op.getIndices().getType()).getShape();
  auto whole = check.getAs<DenseI64ArrayAttr>("shape");
  if (!shape.empty() && whole && whole.asArrayRef() == shape) {
    SmallVector<int64_t> at(shape.size());
    for (int64_t i = shape.size() - 1, rest = element; i >= 0; --i) {
      at[i] = rest % shape[i];
      rest /= shape[i];
    }
    d << " at [";
    llvm::interleaveComma(at, d);
    d << "]";
  }
  d << " is " << value << ", out of range [" << lo << ", " << hi << ")";
  return d;
}

template <>
LogicalResult dfa::ref::evalOp<GatherOp>(GatherOp op, Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  std::vector<int64_t> idx = ev.get(op.getIndices()).toInts();
  int64_t axis = op.getAxis();
  auto [outer, len, inner] = around(in.shape(), axis);
  Tensor out(in.dtype(), shapeOf(op.getOutput()));
  size_t es = dtypeSize(in.dtype());
  int64_t n = idx.size();
  for (int64_t j = 0; j < n; ++j) {
    int64_t k = normalizeIndex(idx[j], len);
    if (k < 0 || k >= len) {
      if (auto check = op->getAttrOfType<DictionaryAttr>(graph::kRangeCheckAttr))
        return rangeCheckFailed(op, check, idx[j], j);
      return op.emitOpError("index ") << idx[j] << " out of range [-" << len
                                      << ", " << len << ")";
    }
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(out.bytes() + ((o * n + j) * inner) * es,
                  in.bytes() + ((o * len + k) * inner) * es, inner * es);
  }
  ev.set(op.getOutput(), std::move(out));
  return success();
}

/// Element offsets of `in` addressed by each element of `indices` along
/// `axis` (GatherElements / ScatterElements addressing).
static FailureOr<std::vector<int64_t>>
elementOffsets(Operation *op, ArrayRef<int64_t> inShape,
               ArrayRef<int64_t> idxShape, const std::vector<int64_t> &idx,
               int64_t axis) {
  Shape inStrides = rowMajorStrides(inShape);
  Shape walk = inStrides;
  walk[axis] = 0;
  std::vector<int64_t> offs(idx.size());
  bool ok = true;
  forEachOffset2(idxShape, walk, walk, [&](int64_t i, int64_t base, int64_t) {
    int64_t k = normalizeIndex(idx[i], inShape[axis]);
    ok &= k >= 0 && k < inShape[axis];
    offs[i] = base + k * inStrides[axis];
  });
  if (!ok)
    return op->emitOpError("index out of range along axis ") << axis;
  return offs;
}

template <>
LogicalResult dfa::ref::evalOp<GatherElementsOp>(GatherElementsOp op,
                                                 Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  const Tensor &ti = ev.get(op.getIndices());
  auto offs = elementOffsets(op, in.shape(), ti.shape(), ti.toInts(), op.getAxis());
  if (failed(offs))
    return failure();
  Tensor out(in.dtype(), ti.shape());
  for (size_t i = 0; i < offs->size(); ++i)
    copyElement(in, (*offs)[i], out, i);
  ev.set(op.getOutput(), std::move(out));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<GatherNDOp>(GatherNDOp op, Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  const Tensor &ti = ev.get(op.getIndices());
  std::vector<int64_t> idx = ti.toInts();
  int64_t b = op.getBatchDims(), k = ti.shape().back();
  int64_t batches = numElements(in.shape().take_front(b));
  int64_t tuples = numElements(ti.shape().drop_back().drop_front(b));
  int64_t slice = numElements(in.shape().drop_front(b + k));
  int64_t batchStride = numElements(in.shape().drop_front(b));
  Shape strides = rowMajorStrides(in.shape().drop_front(b));
  Tensor out(in.dtype(), shapeOf(op.getOutput()));
  size_t es = dtypeSize(in.dtype());
  for (int64_t bi = 0; bi < batches; ++bi)
    for (int64_t t = 0; t < tuples; ++t) {
      int64_t off = bi * batchStride;
      for (int64_t j = 0; j < k; ++j) {
        int64_t dim = in.shape()[b + j];
        int64_t i = normalizeIndex(idx[(bi * tuples + t) * k + j], dim);
        if (i < 0 || i >= dim)
          return op.emitOpError("index ") << idx[(bi * tuples + t) * k + j]
                                          << " out of range for dim " << b + j;
        off += i * strides[j];
      }
      std::memcpy(out.bytes() + (bi * tuples + t) * slice * es,
                  in.bytes() + off * es, slice * es);
    }
  ev.set(op.getOutput(), std::move(out));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<ScatterNDOp>(ScatterNDOp op, Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  const Tensor &ti = ev.get(op.getIndices());
  const Tensor &up = ev.get(op.getUpdates());
  std::vector<int64_t> idx = ti.toInts();
  int64_t k = ti.shape().back();
  int64_t tuples = numElements(ti.shape().drop_back());
  int64_t slice = numElements(in.shape().drop_front(k));
  Shape strides = rowMajorStrides(in.shape());
  Tensor out = in.clone();
  StringRef red = op.getReduction();
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t off = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t dim = in.shape()[j];
      int64_t i = normalizeIndex(idx[t * k + j], dim);
      if (i < 0 || i >= dim)
        return op.emitOpError("index ") << idx[t * k + j]
                                        << " out of range for dim " << j;
      off += i * strides[j];
    }
    for (int64_t e = 0; e < slice; ++e) {
      int64_t o = off + e, u = t * slice + e;
      if (red == "none")
        copyElement(up, u, out, o);
      else if (red == "add")
        out.setDouble(o, out.getDouble(o) + up.getDouble(u));
      else if (red == "mul")
        out.setDouble(o, out.getDouble(o) * up.getDouble(u));
      else if (red == "max")
        out.setDouble(o, std::max(out.getDouble(o), up.getDouble(u)));
      else
        out.setDouble(o, std::min(out.getDouble(o), up.getDouble(u)));
    }
  }
  ev.set(op.getOutput(), std::move(out));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<ScatterElementsOp>(ScatterElementsOp op,
                                                  Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  const Tensor &ti = ev.get(op.getIndices());
  const Tensor &up = ev.get(op.getUpdates());
  auto offs = elementOffsets(op, in.shape(), ti.shape(), ti.toInts(), op.getAxis());
  if (failed(offs))
    return failure();
  Tensor out = in.clone();
  StringRef red = op.getReduction();
  for (size_t i = 0; i < offs->size(); ++i) {
    int64_t o = (*offs)[i];
    if (red == "none")
      copyElement(up, i, out, o);
    else if (red == "add")
      out.setDouble(o, out.getDouble(o) + up.getDouble(i));
    else if (red == "mul")
      out.setDouble(o, out.getDouble(o) * up.getDouble(i));
    else if (red == "max")
      out.setDouble(o, std::max(out.getDouble(o), up.getDouble(i)));
    else if (red == "min")
      out.setDouble(o, std::min(out.getDouble(o), up.getDouble(i)));
    else
      return op.emitOpError("unknown reduction '") << red << "'";
  }
  ev.set(op.getOutput(), std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// Pad, tile, trilu
//===----------------------------------------------------------------------===//

/// Copies out[i] = in[src(i)] where src is given per dim by `maps` (-1 means
/// "no source": the element is left as `fill`).
static Tensor remap(const Tensor &in, ArrayRef<int64_t> outShape,
                    ArrayRef<std::vector<int64_t>> maps, double fill) {
  Tensor out(in.dtype(), outShape);
  int64_t n = out.numElements(), rank = outShape.size();
  if (n == 0)
    return out;
  Shape inStrides = rowMajorStrides(in.shape()), idx(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    bool pad = false;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t s = maps[d][idx[d]];
      pad |= s < 0;
      off += s * inStrides[d];
    }
    if (pad)
      out.setDouble(i, fill);
    else
      copyElement(in, off, out, i);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < outShape[d])
        break;
      idx[d] = 0;
    }
  }
  return out;
}

template <>
LogicalResult dfa::ref::evalOp<PadOp>(PadOp op, Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  auto outShape = shapeOf(op.getOutput());
  int64_t rank = in.rank();
  StringRef mode = op.getMode();
  std::vector<std::vector<int64_t>> maps(rank);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t n = in.shape()[d], begin = op.getPads()[d];
    if (n == 0 && mode != "constant" && outShape[d] > 0)
      return op.emitOpError("cannot ") << mode << "-pad an empty dim";
    for (int64_t o = 0; o < outShape[d]; ++o) {
      int64_t i = o - begin;
      if (i < 0 || i >= n) {
        if (mode == "constant") {
          i = -1;
        } else if (mode == "edge") {
          i = std::clamp<int64_t>(i, 0, n - 1);
        } else if (mode == "wrap") { // opset 19: the dim repeats
          i = ((i % n) + n) % n;
        } else { // reflect, possibly several times over
          int64_t period = std::max<int64_t>(2 * (n - 1), 1);
          i = ((i % period) + period) % period;
          if (i >= n)
            i = period - i;
        }
      }
      maps[d].push_back(i);
    }
  }
  ev.set(op.getOutput(),
         remap(in, outShape, maps, op.getValue().convertToDouble()));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<TileOp>(TileOp op, Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  auto outShape = shapeOf(op.getOutput());
  std::vector<std::vector<int64_t>> maps(in.rank());
  for (int64_t d = 0; d < in.rank(); ++d)
    for (int64_t o = 0; o < outShape[d]; ++o)
      maps[d].push_back(o % in.shape()[d]);
  ev.set(op.getOutput(), remap(in, outShape, maps, 0));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<TriluOp>(TriluOp op, Evaluator &ev) {
  Tensor out = ev.get(op.getInput()).clone();
  int64_t rank = out.rank();
  if (rank < 2)
    return op.emitOpError("needs rank >= 2");
  int64_t M = out.shape()[rank - 2], N = out.shape()[rank - 1];
  int64_t k = op.getK(), batches = out.numElements() / std::max<int64_t>(M * N, 1);
  bool upper = op.getUpper();
  size_t es = dtypeSize(out.dtype());
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        bool keep = upper ? j - i >= k : j - i <= k;
        if (!keep)
          std::memset(out.bytes() + ((b * M + i) * N + j) * es, 0, es);
      }
  ev.set(op.getOutput(), std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// Kernels and layout changes
//===----------------------------------------------------------------------===//

template <>
LogicalResult dfa::ref::evalOp<KernelOp>(KernelOp op, Evaluator &ev) {
  SmallVector<Tensor> args;
  for (Value v : op.getInputs())
    args.push_back(ev.get(v));
  Evaluator inner(ev.options());
  FailureOr<SmallVector<Tensor>> results = inner.runBlock(op.getBlock(), args);
  if (failed(results))
    return failure();
  for (auto [r, t] : llvm::zip(op.getOutputs(), *results))
    ev.set(r, std::move(t));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<YieldOp>(YieldOp op, Evaluator &) {
  return op.emitOpError("is evaluated by its kernel");
}

template <>
LogicalResult dfa::ref::evalOp<RelayoutOp>(RelayoutOp op, Evaluator &ev) {
  ev.set(op.getOutput(), ev.get(op.getInput()));
  return success();
}

// A collective's value needs every chip's operand; a tensor-parallel module
// is one chip's program and holds only its own.
template <>
LogicalResult dfa::ref::evalOp<AllReduceOp>(AllReduceOp op, Evaluator &) {
  return op.emitOpError("has no reference value: the program is one chip's of ")
         << op.getChips()
         << " (tensor parallelism); simulate its time only (--time-only)";
}

template <>
LogicalResult dfa::ref::evalOp<AllGatherOp>(AllGatherOp op, Evaluator &) {
  return op.emitOpError("has no reference value: the program is one chip's of "
                        "a tensor-parallel group (gathering ")
         << op.getChips()
         << " slices); simulate its time only (--time-only)";
}
