//===- ONNXImageOps.cpp - GridSample, DeformConv, Col2Im, RoiAlign, ... ===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// GridSample (graph.grid_sample), and spatial ops whose definitions are a
/// matmul or a scatter over positions known at compile time, imported as
/// those ops:
///   - AffineGrid: a constant grid of normalized coordinates, times each
///     batch's affine matrix (one batched matmul);
///   - Col2Im: each column entry added into its image position, one
///     product with a constant 0/1 matrix per spatial dim
///     (graph::buildCol2Im, shared with F.fold);
///   - DeformConv: columns grid-sampled at the moved taps, then a grouped
///     1x1 convolution (graph::buildDeformConv, shared with torchvision's
///     deform_conv2d);
///   - MaxUnpool: each value written at its flat index into zeros (a
///     ScatterElements), then padded to output_shape;
///   - RoiAlign: with the regions known (compile time, or read by the host
///     in a run in segments), the host computes the sampling as ONNX's
///     reference does. Averaging is separable: a sample's weight is its
///     row weight times its column weight (out-of-range rows and columns
///     weigh 0), so each region's bins are Ay X Ax^T, two matmuls against
///     per-region row and column tables (as matmul-based crop-and-resize on
///     systolic arrays), without a gathered copy of the samples. Max
///     pooling gathers the four bilinear corners of every sample from a
///     table and takes the largest weighted one.
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Reference/Evaluator.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::onnximport;

namespace {

/// AffineGrid(theta [N, r, r+1], size [N, C, spatial...], align_corners).
LogicalResult convertAffineGrid(NodeContext &c, Results &r) {
  auto tt = c.type(0);
  auto size = c.constInts(1, "size");
  if (failed(size))
    return failure();
  int64_t rank = (int64_t)size->size() - 2;
  if ((rank != 2 && rank != 3) || tt.getRank() != 3 || tt.getDimSize(1) != rank ||
      tt.getDimSize(2) != rank + 1 || tt.getDimSize(0) != (*size)[0]) {
    c.error() << "theta " << tt << " does not fit size of " << size->size()
              << " dims (theta must be [N, 2, 3] for 2-d, [N, 3, 4] for 3-d)";
    return failure();
  }
  bool align = c.intAttr("align_corners", 0);
  SmallVector<int64_t> spatial(size->begin() + 2, size->end());
  int64_t points = 1;
  for (int64_t s : spatial) {
    if (s < 1) {
      c.error() << "size has an empty spatial dim";
      return failure();
    }
    points *= s;
  }
  // Normalized coordinates per dim: [-1, 1] through the corner pixels'
  // centres (align_corners), else through their edges.
  auto coord = [&](int64_t i, int64_t n) {
    if (align)
      return n == 1 ? -1.0 : -1.0 + 2.0 * i / double(n - 1);
    return -1.0 + (2.0 * i + 1.0) / double(n);
  };
  // The homogeneous grid [points, rank + 1]: (x, y[, z], 1), x along the
  // last spatial dim.
  auto dt = ref::dtypeOf(tt.getElementType());
  if (!dt || !ref::isFloat(*dt)) {
    c.error() << "theta must be a float tensor";
    return failure();
  }
  ref::Tensor grid(*dt, {points, rank + 1});
  for (int64_t p = 0; p < points; ++p) {
    int64_t rest = p;
    SmallVector<double> pos(rank);
    for (int64_t d = rank - 1; d >= 0; --d) {
      pos[d] = coord(rest % spatial[d], spatial[d]);
      rest /= spatial[d];
    }
    for (int64_t k = 0; k < rank; ++k)
      grid.setDouble(p * (rank + 1) + k, pos[rank - 1 - k]);
    grid.setDouble(p * (rank + 1) + rank, 1.0);
  }
  Value base = c.reshape(c.constant(grid), {1, points, rank + 1});
  Value thetaT = c.b.create<TransposeOp>(c.loc, c.in(0), c.b.getDenseI64ArrayAttr({0, 2, 1}));
  Value out = c.b.create<MatMulOp>(c.loc, base, thetaT); // [N, points, rank]
  SmallVector<int64_t> shape{(*size)[0]};
  shape.append(spatial.begin(), spatial.end());
  shape.push_back(rank);
  r.push_back(c.reshape(out, shape));
  return success();
}

Value zeros(NodeContext &c, ArrayRef<int64_t> shape, Type elt) {
  auto type = RankedTensorType::get(shape, elt);
  return c.b.create<ConstantOp>(c.loc, DenseElementsAttr::get(type, c.b.getZeroAttr(elt)));
}

/// Col2Im(input [N, C * prod(block), L], image_shape, block_shape): one
/// product with a constant 0/1 matrix per spatial dim (graph::buildCol2Im).
LogicalResult convertCol2Im(NodeContext &c, Results &r) {
  auto image = c.constInts(1, "image_shape");
  auto block = c.constInts(2, "block_shape");
  if (failed(image) || failed(block))
    return failure();
  size_t rank = image->size();
  std::vector<int64_t> dil = c.intsAttr("dilations").value_or(std::vector<int64_t>(rank, 1));
  std::vector<int64_t> stride = c.intsAttr("strides").value_or(std::vector<int64_t>(rank, 1));
  std::vector<int64_t> pads = c.intsAttr("pads").value_or(std::vector<int64_t>(2 * rank, 0));
  std::string why;
  FailureOr<Value> img = buildCol2Im(c.b, c.loc, c.in(0), *image, *block, dil, stride, pads, why);
  if (failed(img)) {
    c.error() << why;
    return failure();
  }
  r.push_back(*img);
  return success();
}

/// DeformConv(X, W, offset, [B], [mask]): grid-sampled columns and a
/// grouped 1x1 convolution (graph::buildDeformConv, shared with
/// torchvision's deform_conv2d).
LogicalResult convertDeformConv(NodeContext &c, Results &r) {
  auto wt = c.type(1);
  size_t rank = std::max<int64_t>(wt.getRank() - 2, 0);
  if (auto k = c.intsAttr("kernel_shape");
      k && ArrayRef<int64_t>(*k) != wt.getShape().drop_front(std::min<size_t>(2, wt.getRank()))) {
    c.error() << "kernel_shape does not match W " << wt;
    return failure();
  }
  std::vector<int64_t> dil = c.intsAttr("dilations").value_or(std::vector<int64_t>(rank, 1));
  std::vector<int64_t> stride = c.intsAttr("strides").value_or(std::vector<int64_t>(rank, 1));
  std::vector<int64_t> pads = c.intsAttr("pads").value_or(std::vector<int64_t>(2 * rank, 0));
  std::string why;
  FailureOr<Value> y = buildDeformConv(c.b, c.loc, c.in(0), c.in(1), c.in(2), c.in(3), c.in(4),
                                       stride, pads, dil, c.intAttr("group", 1),
                                       c.intAttr("offset_group", 1), why);
  if (failed(y)) {
    c.error() << why;
    return failure();
  }
  r.push_back(*y);
  return success();
}

/// MaxUnpool(X, I, [output_shape]) with kernel_shape, pads and strides.
LogicalResult convertMaxUnpool(NodeContext &c, Results &r) {
  auto xt = c.type(0);
  int64_t rank = xt.getRank() - 2;
  auto kernel = c.intsAttr("kernel_shape");
  if (!kernel || (int64_t)kernel->size() != rank || rank < 1) {
    c.error() << "kernel_shape must have one value per spatial dim";
    return failure();
  }
  std::vector<int64_t> stride = c.intsAttr("strides").value_or(std::vector<int64_t>(rank, 1));
  std::vector<int64_t> pads = c.intsAttr("pads").value_or(std::vector<int64_t>(2 * rank, 0));
  if ((int64_t)stride.size() != rank || (int64_t)pads.size() != 2 * rank) {
    c.error() << "strides and pads must match the " << rank << " spatial dims";
    return failure();
  }
  if (c.type(1).getShape() != xt.getShape()) {
    c.error() << "indices " << c.type(1) << " must have the shape of X " << xt;
    return failure();
  }
  SmallVector<int64_t> inferred{xt.getDimSize(0), xt.getDimSize(1)};
  int64_t total = xt.getDimSize(0) * xt.getDimSize(1);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t o = (xt.getDimSize(2 + d) - 1) * stride[d] - (pads[d] + pads[rank + d]) + (*kernel)[d];
    if (o < 1) {
      c.error() << "the unpooled dim " << d << " would be empty";
      return failure();
    }
    inferred.push_back(o);
    total *= o;
  }
  std::vector<int64_t> want(inferred.begin(), inferred.end());
  if (failed(c.optionalConst(2, "output_shape", want)))
    return failure();
  if ((int64_t)want.size() != rank + 2) {
    c.error() << "output_shape must have " << rank + 2 << " dims";
    return failure();
  }
  for (int64_t d = 0; d < rank + 2; ++d)
    if (want[d] < inferred[d] || (d < 2 && want[d] != inferred[d])) {
      c.error() << "output_shape is smaller than the unpooled shape in dim " << d;
      return failure();
    }
  Type elt = xt.getElementType();
  Value flat = zeros(c, {total}, elt);
  Value idx = c.reshape(c.cast(c.in(1), c.b.getI64Type()), {xt.getNumElements()});
  Value vals = c.reshape(c.in(0), {xt.getNumElements()});
  Value y = c.b.create<ScatterElementsOp>(c.loc, flat.getType(), flat, idx, vals,
                                          c.b.getI64IntegerAttr(0), c.b.getStringAttr("none"));
  y = c.reshape(y, inferred);
  if (ArrayRef<int64_t>(want) != ArrayRef<int64_t>(inferred)) {
    SmallVector<int64_t> p(2 * (rank + 2), 0);
    for (int64_t d = 0; d < rank + 2; ++d)
      p[rank + 2 + d] = want[d] - inferred[d];
    y = c.b.create<PadOp>(c.loc, RankedTensorType::get(want, elt), y,
                          c.b.getDenseI64ArrayAttr(p), c.b.getStringAttr("constant"),
                          c.b.getF64FloatAttr(0));
  }
  r.push_back(y);
  return success();
}
/// GridSample(X, grid): opset 16's mode names (bilinear, bicubic) are opset
/// 20's linear and cubic.
LogicalResult convertGridSample(NodeContext &c, Results &r) {
  auto xt = c.type(0), gt = c.type(1);
  std::string mode = c.strAttr("mode", c.opset >= 20 ? "linear" : "bilinear");
  if (mode == "bilinear")
    mode = "linear";
  else if (mode == "bicubic")
    mode = "cubic";
  std::string pad = c.strAttr("padding_mode", "zeros");
  bool align = c.intAttr("align_corners", 0);
  int64_t rank = xt.getRank() - 2;
  if (rank < 1 || gt.getRank() != rank + 2 || gt.getDimSize(rank + 1) != rank ||
      gt.getDimSize(0) != xt.getDimSize(0)) {
    c.error() << "grid " << gt << " does not fit X " << xt
              << " (it must be [N, O1..Or, r] for r spatial dims)";
    return failure();
  }
  if (mode != "nearest" && mode != "linear" && mode != "cubic") {
    c.error() << "unknown mode '" << mode << "'";
    return failure();
  }
  if (pad != "zeros" && pad != "border" && pad != "reflection") {
    c.error() << "unknown padding_mode '" << pad << "'";
    return failure();
  }
  SmallVector<int64_t> shape{xt.getDimSize(0), xt.getDimSize(1)};
  shape.append(gt.getShape().begin() + 1, gt.getShape().end() - 1);
  r.push_back(c.b.create<GridSampleOp>(c.loc, xt.clone(shape), c.in(0), c.in(1),
                                       c.b.getStringAttr(mode), c.b.getStringAttr(pad),
                                       c.b.getBoolAttr(align)));
  return success();
}
/// RoiAlign(X [N, C, H, W], rois [R, 4], batch_indices [R]).
LogicalResult convertRoiAlign(NodeContext &c, Results &r) {
  auto xt = c.type(0);
  auto rois = c.constInput(1, "the regions: their sampling points are a table the host computes");
  auto batch = c.constInts(2, "batch_indices");
  if (failed(rois) || failed(batch))
    return failure();
  std::string mode = c.strAttr("mode", "avg");
  // Opset 10 sampled as "output_half_pixel" does; opset 16 added the
  // attribute with "half_pixel" as its default.
  std::string ctm = c.opset >= 16
                        ? c.strAttr("coordinate_transformation_mode", "half_pixel")
                        : "output_half_pixel";
  int64_t oh = c.intAttr("output_height", 1), ow = c.intAttr("output_width", 1);
  int64_t ratio = c.intAttr("sampling_ratio", 0);
  double scale = c.floatAttr("spatial_scale", 1.0);
  if (xt.getRank() != 4 || rois->rank() != 2 || rois->shape()[1] != 4 ||
      (int64_t)batch->size() != rois->shape()[0]) {
    c.error() << "X must be [N, C, H, W], rois [R, 4] and batch_indices [R]";
    return failure();
  }
  if ((mode != "avg" && mode != "max") ||
      (ctm != "half_pixel" && ctm != "output_half_pixel") || oh < 1 || ow < 1 ||
      ratio < 0) {
    c.error() << "mode must be avg or max, coordinate_transformation_mode "
                 "half_pixel or output_half_pixel, the output sizes positive "
                 "and sampling_ratio not negative";
    return failure();
  }
  int64_t N = xt.getDimSize(0), C = xt.getDimSize(1), H = xt.getDimSize(2),
          W = xt.getDimSize(3), R = rois->shape()[0];
  if (H < 1 || W < 1 || oh > (1 << 16) || ow > (1 << 16)) {
    c.error() << "X's height and width must be positive and the output at "
                 "most 65536 x 65536 bins";
    return failure();
  }
  bool half = ctm == "half_pixel";
  // The sampling arithmetic in the regions' precision, one rounding an
  // operation, as ONNX's reference does it (float32 regions: float32).
  bool single = rois->dtype() != ref::DType::F64;
  auto fl = [single](double v) { return single ? double(float(v)) : v; };
  // Each roi's sampling grid (the adaptive one follows its size).
  struct Roi {
    double y0, x0, binH, binW;
    int64_t gh, gw;
  };
  std::vector<Roi> grid(R);
  int64_t samples = 1;
  double work = 0; // sample points the tables take
  for (int64_t i = 0; i < R; ++i) {
    if ((*batch)[i] < 0 || (*batch)[i] >= N) {
      c.error() << "batch index " << (*batch)[i] << " of roi " << i
                << " is outside [0, " << N << ")";
      return failure();
    }
    double off = half ? 0.5 : 0.0;
    double x0 = fl(fl(rois->getDouble(4 * i) * scale) - off);
    double y0 = fl(fl(rois->getDouble(4 * i + 1) * scale) - off);
    double w = fl(fl(fl(rois->getDouble(4 * i + 2) * scale) - off) - x0);
    double h = fl(fl(fl(rois->getDouble(4 * i + 3) * scale) - off) - y0);
    if (!half) {
      w = std::max(w, 1.0);
      h = std::max(h, 1.0);
    }
    double gh = ratio > 0 ? double(ratio) : std::ceil(fl(h / double(oh)));
    double gw = ratio > 0 ? double(ratio) : std::ceil(fl(w / double(ow)));
    if (!std::isfinite(h) || !std::isfinite(w) || !(gh <= (1 << 16)) ||
        !(gw <= (1 << 16))) {
      c.error() << "roi " << i << " gives a sampling grid of " << gh << " x "
                << gw << " points a bin";
      return failure();
    }
    grid[i] = {y0, x0, fl(h / double(oh)), fl(w / double(ow)),
               std::max<int64_t>(int64_t(gh), 0), std::max<int64_t>(int64_t(gw), 0)};
    samples = std::max(samples, std::max<int64_t>(grid[i].gh, 1) *
                                    std::max<int64_t>(grid[i].gw, 1));
    work += double(oh) * double(grid[i].gh) + double(ow) * double(grid[i].gw);
  }
  // Tables and work the host can hold: the avg path's row and column
  // tables, the max path's corners (with their gathered channels).
  double avgTable = double(R) * (double(oh) * double(H) + double(W) * double(ow));
  double maxTable = double(R) * double(oh) * double(ow) * double(samples) * 4 *
                    double(std::max<int64_t>(C, 1));
  if (work > double(1 << 30) ||
      (mode == "avg" ? avgTable : maxTable) > double(1 << 28)) {
    c.unsupported() << R << " regions of " << oh << " x " << ow << " bins and up to "
                    << samples << " samples a bin make tables too large";
    return failure();
  }
  Type elt = xt.getElementType();
  std::optional<ref::DType> dt = ref::dtypeOf(elt);
  if (!dt || !isa<FloatType>(elt)) {
    c.unsupported() << "X must be a float tensor";
    return failure();
  }
  // Sample `i` of `g` in bin `p` along one axis: start + p * bin +
  // (i + 0.5) * bin / g, as the reference evaluates it.
  auto sampleAt = [&fl](double start, int64_t p, double bin, int64_t i, int64_t g) {
    return fl(fl(start + fl(double(p) * bin)) + fl(fl((double(i) + 0.5) * bin) / double(g)));
  };
  // A sample's bilinear weights along one axis of `size` positions: the
  // two positions and weights, both 0 outside [-1, size].
  auto axisWeights = [&fl](double v, int64_t size, int64_t pos[2], double w[2]) {
    pos[0] = pos[1] = 0;
    w[0] = w[1] = 0;
    if (v < -1.0 || v > double(size))
      return;
    v = std::max(v, 0.0);
    int64_t lo = int64_t(v), hi;
    if (lo >= size - 1) {
      hi = lo = size - 1;
      v = double(lo);
    } else {
      hi = lo + 1;
    }
    pos[0] = lo;
    pos[1] = hi;
    w[1] = fl(v - double(lo));
    w[0] = fl(1 - w[1]);
  };
  if (R == 0) { // no regions (none at this pyramid level)
    r.push_back(c.constant(ref::Tensor(*dt, {0, C, oh, ow})));
    return success();
  }
  if (mode == "avg") {
    // Per batch image, its regions' row table Ay [Rn * oh, H] and column
    // table Ax [Rn, ow, W], each sample's 1/count split over the two. The
    // channels stay the minor dim of every intermediate (a 7- or 10-wide
    // minor dim fills a whole vector, tile or stick on a target that ties
    // its layout to it).
    SmallVector<Value> groups;
    std::vector<int64_t> order; // the regions, grouped by image
    for (int64_t n = 0; n < N; ++n) {
      std::vector<int64_t> mine;
      for (int64_t i = 0; i < R; ++i)
        if ((*batch)[i] == n)
          mine.push_back(i);
      if (mine.empty())
        continue;
      int64_t Rn = int64_t(mine.size());
      ref::Tensor ay(*dt, {Rn * oh, H}), ax(*dt, {Rn, ow, W});
      std::vector<double> ayv(size_t(Rn * oh * H), 0.0), axv(size_t(Rn * W * ow), 0.0);
      for (int64_t j = 0; j < Rn; ++j) {
        const Roi &g = grid[mine[j]];
        for (int64_t ph = 0; ph < oh; ++ph)
          for (int64_t iy = 0; iy < g.gh; ++iy) {
            double y = sampleAt(g.y0, ph, g.binH, iy, g.gh);
            int64_t pos[2];
            double w[2];
            axisWeights(y, H, pos, w);
            for (int q = 0; q < 2; ++q)
              ayv[size_t((j * oh + ph) * H + pos[q])] += w[q] / double(std::max<int64_t>(g.gh, 1));
          }
        for (int64_t pw = 0; pw < ow; ++pw)
          for (int64_t ix = 0; ix < g.gw; ++ix) {
            double x = sampleAt(g.x0, pw, g.binW, ix, g.gw);
            int64_t pos[2];
            double w[2];
            axisWeights(x, W, pos, w);
            for (int q = 0; q < 2; ++q)
              axv[size_t((j * ow + pw) * W + pos[q])] += w[q] / double(std::max<int64_t>(g.gw, 1));
          }
      }
      for (size_t k = 0; k < ayv.size(); ++k)
        ay.setDouble(int64_t(k), ayv[k]);
      for (size_t k = 0; k < axv.size(); ++k)
        ax.setDouble(int64_t(k), axv[k]);
      // X[n] as [H, W * C]; rows first: [Rn * oh, W * C].
      Value xn = c.in(0);
      if (N > 1)
        xn = c.b.create<SliceOp>(c.loc, RankedTensorType::get({1, C, H, W}, elt), xn,
                                 c.b.getDenseI64ArrayAttr({n, 0, 0, 0}),
                                 c.b.getDenseI64ArrayAttr({1, 1, 1, 1}));
      xn = c.b.create<TransposeOp>(c.loc, c.reshape(xn, {C, H, W}),
                                   c.b.getDenseI64ArrayAttr({1, 2, 0}));
      Value rowsDone = c.b.create<MatMulOp>(c.loc, c.hostConstant(ay),
                                            c.reshape(xn, {H, W * C}));
      // [Rn, W, oh * C], then the columns: [Rn, ow, oh * C].
      rowsDone = c.b.create<TransposeOp>(c.loc, c.reshape(rowsDone, {Rn, oh, W, C}),
                                         c.b.getDenseI64ArrayAttr({0, 2, 1, 3}));
      Value bins = c.b.create<MatMulOp>(c.loc, c.hostConstant(ax),
                                        c.reshape(rowsDone, {Rn, W, oh * C}));
      // [Rn, ow, oh, C] to [Rn, C, oh, ow].
      groups.push_back(c.b.create<TransposeOp>(c.loc, c.reshape(bins, {Rn, ow, oh, C}),
                                               c.b.getDenseI64ArrayAttr({0, 3, 2, 1})));
      order.insert(order.end(), mine.begin(), mine.end());
    }
    Value out = groups.size() == 1
                    ? groups.front()
                    : Value(c.b.create<ConcatOp>(c.loc, groups, c.b.getI64IntegerAttr(0)));
    // Back to the regions' order.
    bool sorted = std::is_sorted(order.begin(), order.end());
    if (!sorted) {
      ref::Tensor back(ref::DType::I64, {R});
      for (int64_t k = 0; k < R; ++k)
        back.setInt(order[size_t(k)], k);
      out = c.b.create<GatherOp>(c.loc, out, c.constant(back), c.b.getI64IntegerAttr(0));
    }
    r.push_back(out);
    return success();
  }
  // Max: four corners a sample, the row of X (as [N * H * W, C]) each reads
  // and its weight; a bin's unused samples repeat its first.
  int64_t K = samples * 4, bins = R * oh * ow; // checked above
  ref::Tensor rows(ref::DType::I64, {bins * K}), weights(*dt, {bins * K, 1});
  for (int64_t i = 0; i < R; ++i) {
    const Roi &g = grid[i];
    int64_t base = (*batch)[i] * H * W;
    for (int64_t ph = 0; ph < oh; ++ph)
      for (int64_t pw = 0; pw < ow; ++pw) {
        int64_t at = ((i * oh + ph) * ow + pw) * K, k = 0;
        for (int64_t iy = 0; iy < g.gh; ++iy)
          for (int64_t ix = 0; ix < g.gw; ++ix) {
            double y = sampleAt(g.y0, ph, g.binH, iy, g.gh);
            double x = sampleAt(g.x0, pw, g.binW, ix, g.gw);
            int64_t py[2], px[2];
            double wy[2], wx[2];
            axisWeights(y, H, py, wy);
            axisWeights(x, W, px, wx);
            for (int q = 0; q < 4; ++q, ++k) {
              rows.setInt(at + k, base + py[q / 2] * W + px[q % 2]);
              weights.setDouble(at + k, fl(wy[q / 2] * wx[q % 2]));
            }
          }
        for (; k < K; ++k) { // padding: the bin's first corners again
          rows.setInt(at + k, rows.getInt(at + k % 4));
          weights.setDouble(at + k, weights.getDouble(at + k % 4));
        }
      }
  }
  // X as rows of channels, the corners gathered and weighed.
  Value x = c.reshape(c.in(0), {N, C, H * W});
  x = c.b.create<TransposeOp>(c.loc, x, c.b.getDenseI64ArrayAttr({0, 2, 1}));
  x = c.reshape(x, {N * H * W, C});
  Value corners = c.b.create<GatherOp>(c.loc, x, c.hostConstant(rows),
                                       c.b.getI64IntegerAttr(0));
  Value weighed = c.b.create<MulOp>(c.loc, corners, c.hostConstant(weights));
  weighed = c.reshape(weighed, {bins, K, C});
  auto axis = c.b.getDenseI64ArrayAttr({1});
  auto noKeep = c.b.getBoolAttr(false);
  Value pooled = c.b.create<ReduceMaxOp>(c.loc, weighed, axis, noKeep);
  pooled = c.reshape(pooled, {R, oh, ow, C});
  r.push_back(c.b.create<TransposeOp>(c.loc, pooled, c.b.getDenseI64ArrayAttr({0, 3, 1, 2})));
  return success();
}
} // namespace

void dfa::onnximport::addImageConverters(llvm::StringMap<Converter> &t) {
  t["RoiAlign"] = convertRoiAlign;
  t["GridSample"] = convertGridSample;
  t["AffineGrid"] = convertAffineGrid;
  t["Col2Im"] = convertCol2Im;
  t["DeformConv"] = convertDeformConv;
  t["MaxUnpool"] = convertMaxUnpool;
}
