//===- GraphMixAlongDim.cpp - a per-dim product with a constant matrix -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Several separable operators are, along each dim they touch, a linear map
/// of that dim alone with weights known at compile time: adaptive average
/// pooling to a size that does not divide the input, antialiased resizing
/// (torch's and ONNX's filters), Col2Im's scatter of block entries. Each is
/// one product with a constant [in, out] matrix, the dim moved last and
/// back, as a matrix machine runs it: no gather of index tensors, and the
/// product's cost is what the targets' cost models time. The importers
/// build their weights and call here.
///
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphOps.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

Value dfa::graph::buildMixAlongDim(OpBuilder &b, Location loc, Value x, int64_t dim,
                                   ArrayRef<float> weights) {
  auto t = cast<RankedTensorType>(x.getType());
  int64_t rank = t.getRank(), in = t.getDimSize(dim);
  assert(in > 0 && weights.size() % in == 0 && "weights must be [in, out]");
  int64_t out = weights.size() / in;
  Type elt = t.getElementType();
  auto mt = RankedTensorType::get({in, out}, b.getF32Type());
  Value mat = b.create<ConstantOp>(loc, DenseElementsAttr::get(mt, weights));
  if (elt != b.getF32Type())
    mat = b.create<CastOp>(loc, RankedTensorType::get({in, out}, elt), mat);
  int64_t last = rank - 1;
  SmallVector<int64_t> swap;
  for (int64_t i = 0; i < rank; ++i)
    swap.push_back(i == dim ? last : i == last ? dim : i);
  Value v = x;
  if (dim != last)
    v = b.create<TransposeOp>(loc, v, b.getDenseI64ArrayAttr(swap));
  v = b.create<MatMulOp>(loc, v, mat);
  if (dim != last)
    v = b.create<TransposeOp>(loc, v, b.getDenseI64ArrayAttr(swap));
  return v;
}
