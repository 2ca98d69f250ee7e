//===- GraphMaxPoolIndices.cpp - where each max-pooling window's max is ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The indices a max pooling returns beside its values (ONNX MaxPool's
/// second output, torch's return_indices), for MaxUnpool to put the
/// values back: each window's elements gathered from the flattened input
/// (a position in the padding reads -inf), the first largest taken, and
/// its flat position looked up in a constant table.
///
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphOps.h"

#include <limits>

using namespace mlir;
using namespace dfa::graph;

Value dfa::graph::buildMaxPoolIndices(OpBuilder &b, Location loc, MaxPoolOp pool,
                                      bool columnMajor, bool wholeTensor) {
  Value x = pool.getInput();
  auto xt = cast<RankedTensorType>(x.getType());
  auto ot = cast<RankedTensorType>(pool.getOutput().getType());
  int64_t r = xt.getRank() - 2, n = xt.getDimSize(0), c = xt.getDimSize(1);
  ArrayRef<int64_t> in = xt.getShape().drop_front(2), out = ot.getShape().drop_front(2);
  ArrayRef<int64_t> kernel = pool.getKernel(), strides = pool.getStrides(),
                    pads = pool.getPads(), dil = pool.getDilations();
  int64_t points = 1, outs = 1, taps = 1;
  for (int64_t d = 0; d < r; ++d) {
    points *= in[d];
    outs *= out[d];
    taps *= kernel[d];
  }
  // Per output position and tap: the input's row-major flat position (or
  // `points`, the -inf appended after it) and the position reported.
  std::vector<int64_t> read(outs * taps), reported(outs * taps);
  std::vector<int64_t> o(r, 0), j(r, 0);
  for (int64_t q = 0; q < outs; ++q) {
    for (int64_t d = r - 1, rest = q; d >= 0; --d) {
      o[d] = rest % out[d];
      rest /= out[d];
    }
    for (int64_t k = 0; k < taps; ++k) {
      for (int64_t d = r - 1, rest = k; d >= 0; --d) {
        j[d] = rest % kernel[d];
        rest /= kernel[d];
      }
      int64_t row = 0, col = 0, colStride = 1;
      bool inside = true;
      for (int64_t d = 0; d < r; ++d) {
        int64_t i = o[d] * strides[d] - pads[d] + j[d] * (dil.empty() ? 1 : dil[d]);
        inside &= i >= 0 && i < in[d];
        row = row * in[d] + i;
      }
      for (int64_t d = 0; d < r && inside; ++d) {
        int64_t i = o[d] * strides[d] - pads[d] + j[d] * (dil.empty() ? 1 : dil[d]);
        col += i * colStride;
        colStride *= in[d];
      }
      read[q * taps + k] = inside ? row : points;
      reported[q * taps + k] = inside ? (columnMajor ? col : row) : 0;
    }
  }
  auto i64 = [&](ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, b.getI64Type());
  };
  auto constant = [&](ArrayRef<int64_t> shape, ArrayRef<int64_t> values) -> Value {
    return b.create<ConstantOp>(loc, DenseElementsAttr::get(i64(shape), values));
  };
  Type elt = xt.getElementType();
  Value flat = b.create<ReshapeOp>(loc, RankedTensorType::get({n, c, points}, elt), x);
  auto lowest = RankedTensorType::get({n, c, 1}, elt);
  Value pad = b.create<ConstantOp>(
      loc, DenseElementsAttr::get(
               lowest, b.getFloatAttr(elt, -std::numeric_limits<double>::infinity())));
  Value padded = b.create<ConcatOp>(loc, RankedTensorType::get({n, c, points + 1}, elt),
                                    ValueRange{flat, pad}, b.getI64IntegerAttr(2));
  Value windows = b.create<GatherOp>(loc, RankedTensorType::get({n, c, outs, taps}, elt),
                                     padded, constant({outs, taps}, read),
                                     b.getI64IntegerAttr(2));
  // The first largest element of each window (ties to the lower tap).
  Value tap = b.create<ArgMaxOp>(loc, windows, b.getI64IntegerAttr(3),
                                 b.getBoolAttr(false), b.getBoolAttr(false));
  std::vector<int64_t> rowStart(outs);
  for (int64_t q = 0; q < outs; ++q)
    rowStart[q] = q * taps;
  Value entry = b.create<AddOp>(loc, i64({n, c, outs}), tap, constant({outs}, rowStart));
  Value index = b.create<GatherOp>(loc, i64({n, c, outs}), constant({outs * taps}, reported),
                                   entry, b.getI64IntegerAttr(0));
  if (wholeTensor) { // ONNX: over the whole tensor, N and C included
    std::vector<int64_t> base(n * c);
    for (int64_t p = 0; p < n * c; ++p)
      base[p] = p * points;
    index = b.create<AddOp>(loc, i64({n, c, outs}), index, constant({n, c, 1}, base));
  }
  SmallVector<int64_t> shape(ot.getShape());
  return b.create<ReshapeOp>(loc, i64(shape), index);
}
