//===- GraphDeformConv.cpp - deformable convolution as sampling and a 1x1 conv ===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// A deformable convolution (ONNX DeformConv, torchvision's deform_conv2d)
/// reads each kernel tap at its regular position moved by a learned,
/// fractional offset, bilinearly, zero outside the image, scaled by an
/// optional mask. That is im2col with a moved grid: the columns are
/// graph.grid_sample of the input at every (tap, output position) of each
/// offset group, and the convolution is then a 1x1 convolution of the
/// columns [N, C * K, O...] by the weight [oC, C/group * K, 1...], as
/// mmcv's and torchvision's kernels gather columns and call a GEMM. Both
/// importers build through here.
///
/// grid_sample takes points normalized to [-1, 1]; they are computed in
/// float32 (float64 for f64 inputs), so rounding moves a point by up to
/// about 3e-8 x the row's length in pixels (6e-5 at 2000 wide), where
/// torchvision and onnxruntime add the offsets to pixel coordinates.
///
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphOps.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

FailureOr<Value> dfa::graph::buildDeformConv(OpBuilder &b, Location loc, Value x, Value w,
                                             Value offset, Value bias, Value mask,
                                             ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                                             ArrayRef<int64_t> dilations, int64_t group,
                                             int64_t offsetGroup, std::string &error) {
  llvm::raw_string_ostream os(error);
  auto xt = cast<RankedTensorType>(x.getType());
  auto wt = cast<RankedTensorType>(w.getType());
  auto ot = cast<RankedTensorType>(offset.getType());
  int64_t r = xt.getRank() - 2;
  if (r < 1 || wt.getRank() != r + 2 || ot.getRank() != r + 2 ||
      int64_t(strides.size()) != r || int64_t(dilations.size()) != r ||
      int64_t(pads.size()) != 2 * r) {
    os << "X " << xt << ", W " << wt << " and offset " << ot
       << " must have the same spatial rank, with a stride, a dilation and two pads a dim";
    return failure();
  }
  int64_t N = xt.getDimSize(0), C = xt.getDimSize(1), oC = wt.getDimSize(0);
  if (group < 1 || offsetGroup < 1 || C % group || oC % group ||
      wt.getDimSize(1) * group != C || C % offsetGroup) {
    os << "X's " << C << " channels do not fit W " << wt << " with group " << group
       << " and offset_group " << offsetGroup;
    return failure();
  }
  int64_t K = 1;
  SmallVector<int64_t> kernel(wt.getShape().drop_front(2)), out, size(xt.getShape().drop_front(2));
  for (int64_t d = 0; d < r; ++d) {
    int64_t span = dilations[d] * (kernel[d] - 1) + 1;
    int64_t padded = size[d] + pads[d] + pads[r + d];
    if (strides[d] < 1 || dilations[d] < 1 || pads[d] < 0 || pads[r + d] < 0) {
      os << "strides and dilations must be positive and pads not negative (spatial dim " << d
         << ": stride " << strides[d] << ", dilation " << dilations[d] << ", pads "
         << pads[d] << " and " << pads[r + d] << ")";
      return failure();
    }
    if (kernel[d] < 1 || size[d] < 1 || padded < span) {
      os << "the kernel does not fit the padded input in spatial dim " << d;
      return failure();
    }
    out.push_back((padded - span) / strides[d] + 1);
    K *= kernel[d];
  }
  int64_t G = offsetGroup, Cg = C / G, O = 1;
  for (int64_t o : out)
    O *= o;
  SmallVector<int64_t> want{N, G * K * r};
  want.append(out);
  if (ot.getShape() != ArrayRef<int64_t>(want)) {
    os << "offset " << ot << " must be [N, offset_group * kernel taps * " << r
       << ", output dims...] = " << RankedTensorType::get(want, ot.getElementType());
    return failure();
  }
  if (bias && cast<RankedTensorType>(bias.getType()).getShape() != ArrayRef<int64_t>{oC}) {
    os << "bias " << bias.getType() << " must be [" << oC << "], one value per output channel";
    return failure();
  }
  if (mask) {
    want[1] = G * K;
    if (cast<RankedTensorType>(mask.getType()).getShape() != ArrayRef<int64_t>(want)) {
      os << "mask " << mask.getType() << " must be [N, offset_group * kernel taps, output dims...]";
      return failure();
    }
  }
  Type elt = xt.getElementType();
  if (!isa<FloatType>(elt) || !isa<FloatType>(ot.getElementType()) ||
      wt.getElementType() != elt) {
    os << "X " << xt << ", W " << wt << " and offset " << ot
       << " must be floats, X and W of one type";
    return failure();
  }
  // The sampling points in float32 at least: a 16-bit coordinate is off by
  // up to a quarter of a pixel in a row of 512.
  Type pointElt = elt.getIntOrFloatBitWidth() > 32 ? elt : b.getF32Type();
  auto reshape = [&](Value v, ArrayRef<int64_t> shape) -> Value {
    return b.create<ReshapeOp>(
        loc, RankedTensorType::get(shape, cast<RankedTensorType>(v.getType()).getElementType()),
        v);
  };
  // In double when the points are (the constants' precision is theirs).
  auto constant = [&](ArrayRef<int64_t> shape, ArrayRef<double> values) -> Value {
    auto type = RankedTensorType::get(shape, pointElt);
    if (pointElt.isF64())
      return b.create<ConstantOp>(loc, DenseElementsAttr::get(type, values));
    SmallVector<float> narrow(values.begin(), values.end());
    Value c = b.create<ConstantOp>(
        loc, DenseElementsAttr::get(RankedTensorType::get(shape, b.getF32Type()),
                                    ArrayRef<float>(narrow)));
    return pointElt == b.getF32Type() ? c : b.create<CastOp>(loc, type, c);
  };
  if (ot.getElementType() != pointElt)
    offset = b.create<CastOp>(loc, RankedTensorType::get(ot.getShape(), pointElt), offset);

  // The grid: per offset group, tap and output position, the sampling point
  // (last spatial dim first, as grid_sample reads it), normalized without
  // aligned corners: g = (2 p + 1) / size - 1, so that a size of 1 divides
  // by nothing. The point is the tap's regular position plus its offset.
  SmallVector<int64_t> split{N, G, K, r};
  split.append(out);
  Value off = reshape(offset, split); // [N, G, K, r, O...]
  SmallVector<Value> parts;
  for (int64_t d = r - 1; d >= 0; --d) {
    SmallVector<int64_t> starts(r + 4, 0), steps(r + 4, 1), shape(split);
    starts[3] = d;
    shape[3] = 1;
    parts.push_back(b.create<SliceOp>(loc, RankedTensorType::get(shape, pointElt), off,
                                      b.getDenseI64ArrayAttr(starts),
                                      b.getDenseI64ArrayAttr(steps)));
  }
  Value coords = r == 1 ? parts.front() : b.create<ConcatOp>(loc, parts, b.getI64IntegerAttr(3));
  SmallVector<int64_t> perm{0, 1, 2};
  for (int64_t d = 0; d < r; ++d)
    perm.push_back(4 + d);
  perm.push_back(3);
  coords = b.create<TransposeOp>(loc, coords, b.getDenseI64ArrayAttr(perm)); // [N,G,K,O...,r]
  SmallVector<double> scale;
  for (int64_t d = r - 1; d >= 0; --d)
    scale.push_back(2.0 / double(size[d]));
  SmallVector<int64_t> baseShape{K};
  baseShape.append(out);
  baseShape.push_back(r);
  std::vector<double> base(size_t(K * O * r));
  for (int64_t k = 0; k < K; ++k)
    for (int64_t o = 0; o < O; ++o) {
      // Tap k's and output point o's index along each spatial dim.
      int64_t kr = k, orest = o;
      SmallVector<int64_t> kd(r), od(r);
      for (int64_t d = r - 1; d >= 0; --d) {
        kd[d] = kr % kernel[d];
        kr /= kernel[d];
        od[d] = orest % out[d];
        orest /= out[d];
      }
      for (int64_t d = 0; d < r; ++d) {
        double p = double(od[d] * strides[d] - pads[d] + kd[d] * dilations[d]);
        base[size_t((k * O + o) * r + (r - 1 - d))] = (2.0 * p + 1.0) / double(size[d]) - 1.0;
      }
    }
  SmallVector<int64_t> scaleShape(r + 3, 1);
  scaleShape.push_back(r);
  Value grid = b.create<AddOp>(loc, b.create<MulOp>(loc, coords, constant(scaleShape, scale)),
                               constant(baseShape, base));
  SmallVector<int64_t> gridShape{N * G, K * out[0]};
  gridShape.append(out.begin() + 1, out.end());
  gridShape.push_back(r);
  grid = reshape(grid, gridShape);

  SmallVector<int64_t> groups{N * G, Cg};
  groups.append(size);
  SmallVector<int64_t> sampledShape{N * G, Cg, K * out[0]};
  sampledShape.append(out.begin() + 1, out.end());
  Value cols = b.create<GridSampleOp>(loc, RankedTensorType::get(sampledShape, elt),
                                      reshape(x, groups), grid, b.getStringAttr("linear"),
                                      b.getStringAttr("zeros"), b.getBoolAttr(false));
  SmallVector<int64_t> perTap{N, G, Cg, K};
  perTap.append(out);
  cols = reshape(cols, perTap);
  if (mask) {
    SmallVector<int64_t> m{N, G, 1, K};
    m.append(out);
    if (cast<RankedTensorType>(mask.getType()).getElementType() != elt)
      mask = b.create<CastOp>(loc, RankedTensorType::get(want, elt), mask);
    cols = b.create<MulOp>(loc, cols, reshape(mask, m));
  }
  SmallVector<int64_t> colShape{N, C * K};
  colShape.append(out);
  cols = reshape(cols, colShape);
  SmallVector<int64_t> filter{oC, (C / group) * K};
  filter.append(r, 1);
  Value f = b.create<ReshapeOp>(loc, RankedTensorType::get(filter, wt.getElementType()), w);
  SmallVector<int64_t> ones(r, 1), zeros(2 * r, 0);
  return Value(b.create<ConvOp>(loc, cols, f, bias, b.getDenseI64ArrayAttr(ones),
                                b.getDenseI64ArrayAttr(zeros), b.getDenseI64ArrayAttr(ones),
                                b.getI64IntegerAttr(group)));
}
