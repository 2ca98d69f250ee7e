//===- GraphCol2Im.cpp - Col2Im / fold as two small products per image ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Col2Im (ONNX) and F.fold / nn.Fold (torch) sum each column entry into
/// its image position. The position is separable: along spatial dim d,
/// block offset k at block position l lands at l * stride + k * dilation of
/// the padded image. So the columns, viewed as [N, C, k_0 l_0, k_1 l_1,
/// ...], are multiplied along each (k_d, l_d) axis by a constant 0/1 matrix
/// [k_d l_d, padded_d] with a 1 where the entry lands; the pads are then cut
/// off. Per dim one product with a small constant, as a matrix machine runs
/// it (no scatter, no index tensor of the image's size). Both importers
/// build through here.
///
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphOps.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

FailureOr<Value> dfa::graph::buildCol2Im(OpBuilder &b, Location loc, Value cols,
                                         ArrayRef<int64_t> image, ArrayRef<int64_t> block,
                                         ArrayRef<int64_t> dilations, ArrayRef<int64_t> strides,
                                         ArrayRef<int64_t> pads, std::string &error) {
  llvm::raw_string_ostream os(error);
  auto ct = cast<RankedTensorType>(cols.getType());
  int64_t rank = image.size();
  if (rank < 1 || int64_t(block.size()) != rank || int64_t(dilations.size()) != rank ||
      int64_t(strides.size()) != rank || int64_t(pads.size()) != 2 * rank ||
      ct.getRank() != 3) {
    os << "the image, block, dilations, strides and pads must have one value per spatial "
          "dim (pads two), and the input must be [N, C * prod(block), L]";
    return failure();
  }
  int64_t K = 1, L = 1;
  SmallVector<int64_t> positions(rank), padded(rank);
  for (int64_t d = 0; d < rank; ++d) {
    padded[d] = image[d] + pads[d] + pads[rank + d];
    int64_t span = dilations[d] * (block[d] - 1) + 1;
    if (image[d] < 1 || block[d] < 1 || strides[d] < 1 || dilations[d] < 1 || pads[d] < 0 ||
        pads[rank + d] < 0 || padded[d] < span) {
      os << "the block does not fit the padded image in spatial dim " << d;
      return failure();
    }
    positions[d] = (padded[d] - span) / strides[d] + 1;
    K *= block[d];
    L *= positions[d];
  }
  int64_t N = ct.getDimSize(0);
  if (ct.getDimSize(1) % K || ct.getDimSize(2) != L) {
    os << "the input " << ct << " must be [N, C * " << K << ", " << L << "]";
    return failure();
  }
  int64_t C = ct.getDimSize(1) / K;
  Type elt = ct.getElementType();
  auto reshape = [&](Value v, ArrayRef<int64_t> shape) -> Value {
    if (cast<RankedTensorType>(v.getType()).getShape() == shape)
      return v;
    return b.create<ReshapeOp>(loc, RankedTensorType::get(shape, elt), v);
  };
  // [N, C, k..., l...] -> [N, C, k_0, l_0, k_1, l_1, ...] -> [N, C, k_0 l_0, ...].
  SmallVector<int64_t> split{N, C}, perm{0, 1}, merged{N, C};
  split.append(block.begin(), block.end());
  split.append(positions.begin(), positions.end());
  for (int64_t d = 0; d < rank; ++d) {
    perm.push_back(2 + d);
    perm.push_back(2 + rank + d);
    merged.push_back(block[d] * positions[d]);
  }
  Value v = b.create<TransposeOp>(loc, reshape(cols, split), b.getDenseI64ArrayAttr(perm));
  v = reshape(v, merged);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t rows = block[d] * positions[d];
    std::vector<float> m(rows * padded[d], 0.0f);
    for (int64_t k = 0; k < block[d]; ++k)
      for (int64_t l = 0; l < positions[d]; ++l)
        m[(k * positions[d] + l) * padded[d] + l * strides[d] + k * dilations[d]] = 1.0f;
    v = buildMixAlongDim(b, loc, v, 2 + d, m);
  }
  SmallVector<int64_t> starts(rank + 2, 0), steps(rank + 2, 1), out{N, C};
  bool cut = false;
  for (int64_t d = 0; d < rank; ++d) {
    starts[2 + d] = pads[d];
    out.push_back(image[d]);
    cut |= image[d] != padded[d];
  }
  if (cut)
    v = b.create<SliceOp>(loc, RankedTensorType::get(out, elt), v,
                          b.getDenseI64ArrayAttr(starts), b.getDenseI64ArrayAttr(steps));
  return v;
}
