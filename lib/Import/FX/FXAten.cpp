//===- FXAten.cpp - handlers of core ATen operators (torch.export) ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// `dfa-export-fx --method export` writes torch.export graphs decomposed to
/// core ATen: targets such as `aten.convolution.default`, keyed here by
/// their full overload name. Where an ATen operator takes its arguments as
/// the torch function of the same name does (aten.add.Tensor and
/// torch.add), it shares that function's handler; the rest are lowered
/// here on the shared lowerings (conv, batchNorm, layerNorm, pool, ...).
/// Operators with several results (native_layer_norm's mean and rstd,
/// max_pool2d_with_indices' indices) give None for the results inference
/// never reads; a graph that reads one fails at that node.
///
//===----------------------------------------------------------------------===//

#include "FXImporter.h"

#include "dfa/Reference/Evaluator.h"

#include "llvm/ADT/StringSwitch.h"

#include <array>
#include <optional>

#include <cmath>
#include <functional>
#include <limits>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::fximport;

namespace {
using R = PyValue;

/// The list of `first` and Nones for the results inference does not use.
R withUnused(Value first, int unused) {
  std::vector<R> l{R::ofTensor(first)};
  l.resize(1 + unused);
  return R::ofList(l);
}

LogicalResult noResult(FXNode &, R &r) {
  r = R();
  return success();
}

LogicalResult convolution(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), w = n.tensor(1, "weight");
  auto stride = n.optIntList(3, "stride", {}), padding = n.optIntList(4, "padding", {}),
       dilation = n.optIntList(5, "dilation", {});
  auto transposed = n.intArg(6, "transposed", 0);
  auto outPad = n.optIntList(7, "output_padding", {});
  auto groups = n.intArg(8, "groups", 1);
  if (failed(x) || failed(w) || failed(stride) || failed(padding) ||
      failed(dilation) || failed(transposed) || failed(outPad) || failed(groups))
    return failure();
  if (*transposed)
    return setTensor(r, convTranspose(n, *x, *w, n.optTensor(2, "bias"), *stride, *padding,
                                      *outPad, *dilation, *groups));
  return setTensor(r, conv(n, *x, *w, n.optTensor(2, "bias"), *stride,
                           *padding, *dilation, *groups));
}

/// _native_batch_norm_legit_no_training(x, w, b, mean, var, momentum, eps)
/// -> (y, save_mean, save_invstd).
LogicalResult batchNormNoTraining(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), mean = n.tensor(3, "running_mean"),
       var = n.tensor(4, "running_var");
  auto eps = n.floatArg(6, "eps", 1e-5);
  if (failed(x) || failed(mean) || failed(var) || failed(eps))
    return failure();
  auto y = batchNorm(n, *x, n.optTensor(1, "weight"), n.optTensor(2, "bias"),
                     *mean, *var, *eps);
  if (failed(y))
    return failure();
  r = withUnused(*y, 2);
  return success();
}

/// _native_batch_norm_legit (x, w, b, running_mean, running_var, training,
/// momentum, eps) and its .no_stats form (x, w, b, training, momentum,
/// eps): training mode normalizes by the batch's statistics.
template <bool NoStats> LogicalResult batchNormLegit(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto training = n.intArg(NoStats ? 3 : 5, "training", 1);
  auto eps = n.floatArg(NoStats ? 5 : 7, "eps", 1e-5);
  if (failed(x) || failed(training) || failed(eps))
    return failure();
  if (n.type(*x).getRank() < 2) {
    n.error() << "batch norm needs [N, C, ...], got " << x->getType();
    return failure();
  }
  Value mean = NoStats ? Value() : n.optTensor(3, "running_mean"),
        var = NoStats ? Value() : n.optTensor(4, "running_var");
  if (*training || !mean || !var)
    std::tie(mean, var) = batchStatistics(n, *x);
  auto y = batchNorm(n, *x, n.optTensor(1, "weight"), n.optTensor(2, "bias"), mean, var, *eps);
  if (failed(y))
    return failure();
  r = withUnused(*y, 2);
  return success();
}

/// An ATen op that is torch function `fn` (same arguments) with `unused`
/// more results that inference never reads: native_layer_norm is
/// layer_norm plus (mean, rstd), max_pool2d_with_indices max_pool2d plus
/// the indices.
LogicalResult firstResultOf(FXNode &n, R &r, StringRef fn, int unused) {
  if (failed(functionHandlers().lookup(fn)(n, r)))
    return failure();
  r = withUnused(r.tensor, unused);
  return success();
}
LogicalResult nativeLayerNorm(FXNode &n, R &r) {
  return firstResultOf(n, r, "layer_norm", 2);
}
/// max_pool2d/3d_with_indices(self, kernel_size, stride, padding, dilation,
/// ceil_mode): the function with return_indices.
template <int Spatial> LogicalResult maxPoolWithIndices(FXNode &n, R &r) {
  std::vector<R> args(n.args);
  std::map<std::string, R> kwargs(n.kwargs);
  R yes = R::ofInt(1);
  yes.kind = R::Bool;
  kwargs["return_indices"] = yes; // ATen's form has six arguments at most
  FXNode call(n.imp, n.b, n.loc, n.name, n.target, std::move(args), std::move(kwargs),
              n.module);
  return functionHandlers().lookup(Spatial == 3 ? "max_pool3d" : "max_pool2d")(call, r);
}

/// native_group_norm(x, w, b, N, C, HxW, group, eps) -> (y, mean, rstd),
/// as the reshape, normalization over each group and per-channel affine
/// that defines it.
/// x normalized over each of `groups` channel groups, then the per-channel
/// affine: torch's group norm.
FailureOr<Value> groupNorm(FXNode &n, Value x, int64_t groups, Value w, Value b,
                           double eps) {
  auto t = n.type(x);
  if (t.getRank() < 2 || groups < 1 || t.getDimSize(1) % groups) {
    n.error() << "group norm of " << x.getType() << " in " << groups << " groups";
    return failure();
  }
  int64_t c = t.getDimSize(1), per = t.getNumElements() / (t.getDimSize(0) * groups);
  Value g = n.reshape(x, {t.getDimSize(0), groups, per});
  auto norm = layerNorm(n, g, {per}, Value(), Value(), eps);
  if (failed(norm))
    return failure();
  Value y = n.reshape(*norm, t.getShape());
  SmallVector<int64_t> chan(t.getRank(), 1);
  chan[1] = c;
  if (w)
    y = n.b.create<MulOp>(n.loc, y, n.reshape(w, chan));
  if (b)
    y = n.b.create<AddOp>(n.loc, y, n.reshape(b, chan));
  return y;
}

LogicalResult nativeGroupNorm(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto groups = n.intArg(6, "group", 1);
  auto eps = n.floatArg(7, "eps", 1e-5);
  if (failed(x) || failed(groups) || failed(eps))
    return failure();
  auto y = groupNorm(n, *x, *groups, n.optTensor(1, "weight"), n.optTensor(2, "bias"), *eps);
  if (failed(y))
    return failure();
  r = withUnused(*y, 2);
  return success();
}

/// F.group_norm(input, num_groups, weight, bias, eps).
LogicalResult groupNormFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto groups = n.intArg(1, "num_groups", 1);
  auto eps = n.floatArg(4, "eps", 1e-5);
  if (failed(x) || failed(groups) || failed(eps))
    return failure();
  return setTensor(r, groupNorm(n, *x, *groups, n.optTensor(2, "weight"),
                                n.optTensor(3, "bias"), *eps));
}

/// F.normalize(input, p, dim, eps): x / max(||x||_p over dim, eps).
LogicalResult normalizeFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto p = n.floatArg(1, "p", 2.0);
  auto d = n.intArg(2, "dim", 1);
  auto eps = n.floatArg(3, "eps", 1e-12);
  if (failed(x) || failed(p) || failed(d) || failed(eps))
    return failure();
  auto dd = n.dim(*d, n.type(*x).getRank());
  if (failed(dd))
    return failure();
  if (!(*p > 0) && !std::isinf(*p)) {
    n.unsupported() << "normalize with p = " << *p;
    return failure();
  }
  Type elt = n.type(*x).getElementType();
  Value a = n.b.create<AbsOp>(n.loc, *x);
  if (std::isinf(*p)) { // the largest (p = inf) or smallest (-inf) magnitude
    auto axes = n.b.getDenseI64ArrayAttr({*dd});
    Value m = *p > 0 ? Value(n.b.create<ReduceMaxOp>(n.loc, a, axes, n.b.getBoolAttr(true)))
                     : Value(n.b.create<ReduceMinOp>(n.loc, a, axes, n.b.getBoolAttr(true)));
    m = n.b.create<MaxOp>(n.loc, m, n.scalar(elt, *eps));
    r = R::ofTensor(n.b.create<DivOp>(n.loc, *x, m));
    return success();
  }
  Value powered = *p == 1 ? a
                  : *p == 2 ? Value(n.b.create<MulOp>(n.loc, a, a))
                            : Value(n.b.create<PowOp>(n.loc, a, n.scalar(elt, *p)));
  Value sum = n.b.create<ReduceSumOp>(n.loc, powered, n.b.getDenseI64ArrayAttr({*dd}),
                                      n.b.getBoolAttr(true));
  Value norm = *p == 1 ? sum
               : *p == 2 ? Value(n.b.create<SqrtOp>(n.loc, sum))
                         : Value(n.b.create<PowOp>(n.loc, sum, n.scalar(elt, 1 / *p)));
  norm = n.b.create<MaxOp>(n.loc, norm, n.scalar(elt, *eps));
  r = R::ofTensor(n.b.create<DivOp>(n.loc, *x, norm));
  return success();
}

/// repeat_interleave(x, repeats, dim): each element (or slice along dim)
/// `repeats` times in a row, as a broadcast of a unit dim then a merge;
/// without dim, of the flattened x. Per-element counts (a tensor of
/// repeats) make the shape data-dependent: refused.
LogicalResult repeatInterleave(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  const R *reps = n.arg(1, "repeats");
  const R *dimArg = n.arg(2, "dim");
  if (failed(x))
    return failure();
  if (!reps || reps->kind != R::Int) {
    n.unsupported() << "repeat_interleave with per-element repeats (a data-dependent shape)";
    return failure();
  }
  if (reps->i < 0) {
    n.error() << "repeats must not be negative";
    return failure();
  }
  Value v = *x;
  int64_t d = 0;
  if (!dimArg || dimArg->kind == R::None) {
    v = n.reshape(v, {n.type(v).getNumElements()});
  } else {
    auto dd = n.intArg(2, "dim", 0);
    if (failed(dd))
      return failure();
    auto nd = n.dim(*dd, n.type(v).getRank());
    if (failed(nd))
      return failure();
    d = *nd;
  }
  auto t = n.type(v);
  SmallVector<int64_t> unit(t.getShape());
  unit.insert(unit.begin() + d + 1, 1);
  SmallVector<int64_t> wide(unit), merged(t.getShape());
  wide[d + 1] = reps->i;
  merged[d] *= reps->i;
  Value e = n.b.create<ExpandOp>(n.loc, t.clone(wide), n.reshape(v, unit));
  r = R::ofTensor(n.reshape(e, merged));
  return success();
}

/// Tensor.unfold(dimension, size, step): the windows of `size` every
/// `step` along a dim, that dim their count and a new last dim their
/// elements (one gather of constant positions); F.unfold, im2col, by
/// its target.
/// F.unfold (im2col) of [N, C, H, W]: [N, C k_h k_w, L], each column one
/// window's elements, channel-major then kernel row and column: the padded
/// image flattened and gathered at constant positions.
FailureOr<Value> im2colOf(FXNode &n, Value x, std::vector<int64_t> k,
                          std::vector<int64_t> dil, std::vector<int64_t> pad,
                          std::vector<int64_t> str) {
  Value in = x;
  bool unbatched = n.type(in).getRank() == 3;
  if (unbatched) // [C, H, W]: one image
    in = n.reshape(in, [&] {
      SmallVector<int64_t> s{1};
      s.append(n.type(x).getShape().begin(), n.type(x).getShape().end());
      return s;
    }());
  auto t = n.type(in);
  auto two = [](std::vector<int64_t> v) {
    return v.size() == 1 ? std::vector<int64_t>{v[0], v[0]} : v;
  };
  std::vector<int64_t> kk = two(k), dd = two(dil), pp = two(pad), ss = two(str);
  if (t.getRank() != 4 || kk.size() != 2 || dd.size() != 2 || pp.size() != 2 ||
      ss.size() != 2) {
    n.error() << "F.unfold needs a 3-d or 4-d input and 2-d kernel, dilation, padding and stride";
    return failure();
  }
  int64_t N = t.getDimSize(0), C = t.getDimSize(1);
  int64_t hp = t.getDimSize(2) + 2 * pp[0], wp = t.getDimSize(3) + 2 * pp[1];
  int64_t oh = (hp - dd[0] * (kk[0] - 1) - 1) / std::max<int64_t>(ss[0], 1) + 1,
          ow = (wp - dd[1] * (kk[1] - 1) - 1) / std::max<int64_t>(ss[1], 1) + 1;
  if (kk[0] < 1 || kk[1] < 1 || ss[0] < 1 || ss[1] < 1 || dd[0] < 1 || dd[1] < 1 ||
      pp[0] < 0 || pp[1] < 0 || oh < 1 || ow < 1) {
    n.error() << "F.unfold's kernel does not fit " << x.getType();
    return failure();
  }
  Value v = in;
  if (pp[0] || pp[1]) {
    auto padded = padTensor(n, v, {pp[1], pp[1], pp[0], pp[0]}, "constant", 0);
    if (failed(padded))
      return failure();
    v = *padded;
  }
  v = n.reshape(v, {N, C, hp * wp});
  int64_t kn = kk[0] * kk[1], L = oh * ow;
  ref::Tensor idx(ref::DType::I64, {kn, L});
  for (int64_t i = 0; i < kk[0]; ++i)
    for (int64_t j = 0; j < kk[1]; ++j)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xx = 0; xx < ow; ++xx)
          idx.setInt((i * kk[1] + j) * L + y * ow + xx,
                     (y * ss[0] + i * dd[0]) * wp + xx * ss[1] + j * dd[1]);
  Value c = n.b.create<ConstantOp>(n.loc, ref::tensorToAttr(idx, n.b.getContext()));
  Value g = n.b.create<GatherOp>(n.loc, v, c, n.b.getI64IntegerAttr(2)); // [N, C, kn, L]
  return unbatched ? n.reshape(g, {C * kn, L}) : n.reshape(g, {N, C * kn, L});
}

LogicalResult im2col(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto k = n.intList(1, "kernel_size", false);
  auto dil = n.optIntList(2, "dilation", {1}), pad = n.optIntList(3, "padding", {0}),
       str = n.optIntList(4, "stride", {1});
  if (failed(x) || failed(k) || failed(dil) || failed(pad) || failed(str))
    return failure();
  return setTensor(r, im2colOf(n, *x, *k, *dil, *pad, *str));
}

/// torchvision::deform_conv2d(input, weight, offset, mask, bias, stride_h,
/// stride_w, pad_h, pad_w, dilation_h, dilation_w, groups, offset_groups,
/// use_mask), what torchvision.ops.deform_conv2d and DeformConv2d call:
/// graph::buildDeformConv, which ONNX's DeformConv shares.
LogicalResult deformConv2d(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), w = n.tensor(1, "weight"), off = n.tensor(2, "offset");
  if (failed(x) || failed(w) || failed(off))
    return failure();
  Value mask = n.optTensor(3, "mask"), bias = n.optTensor(4, "bias");
  static const char *const names[] = {"stride_h",   "stride_w",   "pad_h",  "pad_w",
                                      "dilation_h", "dilation_w", "groups", "offset_groups",
                                      "use_mask"};
  SmallVector<int64_t> v;
  for (auto [i, name] : llvm::enumerate(names)) {
    const R *a = n.arg(5 + i, name);
    if (!a || (a->kind != R::Int && a->kind != R::Bool)) {
      n.error() << "argument " << 5 + i << " (" << name << ") must be an int";
      return failure();
    }
    v.push_back(a->i);
  }
  std::string why;
  FailureOr<Value> y = graph::buildDeformConv(
      n.b, n.loc, *x, *w, *off, bias, v[8] ? mask : Value(), {v[0], v[1]},
      {v[2], v[3], v[2], v[3]}, {v[4], v[5]}, v[6], v[7], why);
  if (failed(y)) {
    n.error() << why;
    return failure();
  }
  r = R::ofTensor(*y);
  return success();
}

/// F.fold / nn.Fold / aten.col2im (the inverse of F.unfold, summing where
/// windows overlap): [N, C k_h k_w, L] or unbatched [C k_h k_w, L] into
/// [N, C, output_size]; graph::buildCol2Im, which ONNX's Col2Im shares.
FailureOr<Value> fold(FXNode &n, Value x, std::vector<int64_t> size, std::vector<int64_t> k,
                      std::vector<int64_t> dil, std::vector<int64_t> pad,
                      std::vector<int64_t> str) {
  auto two = [](std::vector<int64_t> v) {
    return v.size() == 1 ? std::vector<int64_t>{v[0], v[0]} : v;
  };
  size = two(size), k = two(k), dil = two(dil), pad = two(pad), str = two(str);
  auto t = n.type(x);
  bool unbatched = t.getRank() == 2;
  if ((t.getRank() != 3 && !unbatched) || size.size() != 2 || k.size() != 2 ||
      dil.size() != 2 || pad.size() != 2 || str.size() != 2) {
    n.error() << "F.fold needs a 2-d or 3-d input and 2-d output_size, kernel_size, "
                 "dilation, padding and stride, got "
              << x.getType();
    return failure();
  }
  Value in = unbatched ? n.reshape(x, {1, t.getDimSize(0), t.getDimSize(1)}) : x;
  std::string why;
  FailureOr<Value> img = graph::buildCol2Im(n.b, n.loc, in, size, k, dil, str,
                                            {pad[0], pad[1], pad[0], pad[1]}, why);
  if (failed(img)) {
    n.error() << why;
    return failure();
  }
  if (!unbatched)
    return img;
  auto it = n.type(*img);
  return n.reshape(*img, it.getShape().drop_front());
}

LogicalResult foldFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto size = n.intList(1, "output_size", false), k = n.intList(2, "kernel_size", false);
  auto dil = n.optIntList(3, "dilation", {1}), pad = n.optIntList(4, "padding", {0}),
       str = n.optIntList(5, "stride", {1});
  if (failed(x) || failed(size) || failed(k) || failed(dil) || failed(pad) || failed(str))
    return failure();
  return setTensor(r, fold(n, *x, *size, *k, *dil, *pad, *str));
}

LogicalResult unfoldFn(FXNode &n, R &r) {
  if (StringRef(n.target).starts_with("torch.nn.functional"))
    return im2col(n, r);
  auto x = n.tensor(0, "input");
  auto dim = n.intArg(1, "dimension", 0), size = n.intArg(2, "size", 1),
       step = n.intArg(3, "step", 1);
  if (failed(x) || failed(dim) || failed(size) || failed(step))
    return failure();
  auto t = n.type(*x);
  int64_t rank = std::max<int64_t>(t.getRank(), 1);
  auto d = n.dim(*dim, rank);
  if (failed(d))
    return failure();
  Value v = t.getRank() == 0 ? n.reshape(*x, {1}) : *x;
  int64_t len = n.type(v).getDimSize(*d);
  if (*size < 0 || *size > len || *step < 1) {
    n.error() << "unfold of " << *size << " every " << *step << " along a dim of " << len;
    return failure();
  }
  int64_t windows = (len - *size) / *step + 1;
  std::vector<int64_t> at(windows * *size);
  for (int64_t w = 0; w < windows; ++w)
    for (int64_t i = 0; i < *size; ++i)
      at[w * *size + i] = w * *step + i;
  ref::Tensor idx(ref::DType::I64, {windows, *size});
  for (size_t i = 0; i < at.size(); ++i)
    idx.setInt(int64_t(i), at[i]);
  Value c = n.b.create<ConstantOp>(n.loc, ref::tensorToAttr(idx, n.b.getContext()));
  Value g = n.b.create<GatherOp>(n.loc, v, c, n.b.getI64IntegerAttr(*d));
  // [..., windows, size, rest...] -> [..., windows, rest..., size]
  int64_t gr = n.type(g).getRank();
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < gr; ++i)
    if (i != *d + 1)
      perm.push_back(i);
  perm.push_back(*d + 1);
  r = R::ofTensor(n.transpose(g, perm));
  return success();
}

/// x.type(dtype) as x.to(dtype); x.type('torch.IntTensor'), the legacy
/// tensor-type names, by the dtype they name.
LogicalResult typeFn(FXNode &n, R &r) {
  const R *a = n.arg(1, "dtype");
  if (a && a->kind == R::Str) {
    static const std::pair<const char *, const char *> names[] = {
        {"FloatTensor", "float32"}, {"DoubleTensor", "float64"}, {"HalfTensor", "float16"},
        {"BFloat16Tensor", "bfloat16"}, {"ByteTensor", "uint8"}, {"CharTensor", "int8"},
        {"ShortTensor", "int16"}, {"IntTensor", "int32"}, {"LongTensor", "int64"},
        {"BoolTensor", "bool"}};
    StringRef s = a->s;
    s.consume_front("torch.");
    s.consume_front("cuda.");
    auto it = llvm::find_if(names, [&](const auto &p) { return s == p.first; });
    Type elt = it != std::end(names) ? fxElementType(it->second, n.b.getContext()) : Type();
    auto x = n.tensor(0, "input");
    if (failed(x))
      return failure();
    if (!elt) {
      n.unsupported() << "tensor type '" << a->s << "'";
      return failure();
    }
    r = R::ofTensor(n.cast(*x, elt));
    return success();
  }
  return functionHandlers().lookup("to")(n, r);
}

/// reshape_as(other): x in other's shape.
LogicalResult reshapeAs(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), other = n.tensor(1, "other");
  if (failed(x) || failed(other))
    return failure();
  if (n.type(*x).getNumElements() != n.type(*other).getNumElements()) {
    n.error() << "cannot reshape " << x->getType() << " as " << other->getType();
    return failure();
  }
  r = R::ofTensor(n.reshape(*x, n.type(*other).getShape()));
  return success();
}

/// _safe_softmax: a softmax whose rows that are all -inf give 0, not NaN
/// (a row with a NaN or +inf stays NaN, as torch's): the softmax's
/// `empty_rows_zero`.
LogicalResult safeSoftmax(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto d = n.intArg(1, "dim", -1);
  if (failed(x) || failed(d))
    return failure();
  auto s = softmax(n, *x, *d, false);
  if (failed(s))
    return failure();
  s->getDefiningOp<SoftmaxOp>().setEmptyRowsZero(true);
  r = R::ofTensor(*s);
  return success();
}

/// embedding(weight, indices, ...): the table comes first, unlike
/// F.embedding.
LogicalResult embedding(FXNode &n, R &r) {
  auto w = n.tensor(0, "weight"), idx = n.tensor(1, "indices");
  if (failed(w) || failed(idx))
    return failure();
  if (!isa<IntegerType>(n.type(*idx).getElementType()) || n.type(*w).getRank() != 2) {
    n.error() << "embedding needs a 2-d table and integer indices";
    return failure();
  }
  r = R::ofTensor(n.b.create<GatherOp>(n.loc, *w, *idx, n.b.getI64IntegerAttr(0)));
  return success();
}

/// any/all over bool (or numbers, nonzero): a max/min over 0/1.
template <bool Any> LogicalResult anyAll(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  auto dims = reduceDims(n, *x, n.arg(1, "dim"));
  auto keep = n.intArg(2, "keepdim", 0);
  if (failed(dims) || failed(keep))
    return failure();
  auto t = n.type(*x);
  Value v = *x;
  if (!t.getElementType().isInteger(1))
    v = n.b.create<NotOp>(n.loc, t.clone(n.b.getI1Type()),
                          n.b.create<EqualOp>(n.loc, t.clone(n.b.getI1Type()), v,
                                              n.scalar(t.getElementType(), 0)));
  Value f = n.b.create<CastOp>(n.loc, t.clone(n.b.getF32Type()), v);
  auto axes = n.b.getDenseI64ArrayAttr(*dims);
  Value red = Any ? Value(n.b.create<ReduceMaxOp>(n.loc, f, axes, n.b.getBoolAttr(*keep)))
                  : Value(n.b.create<ReduceMinOp>(n.loc, f, axes, n.b.getBoolAttr(*keep)));
  // > 0 rather than a cast: over nothing the max is -inf (any: false) and
  // the min +inf (all: true), as torch gives.
  r = R::ofTensor(n.b.create<GreaterOp>(n.loc, red, n.scalar(n.b.getF32Type(), 0)));
  return success();
}

/// var.correction(x, dims, correction=, keepdim=) and var_mean.
/// The variance of x over `dims` with Bessel's `correction`, and the mean
/// (dims kept when `keep`).
FailureOr<std::pair<Value, Value>> varianceOf(FXNode &n, Value x, ArrayRef<int64_t> dims,
                                              double correction, bool keep) {
  auto t = n.type(x);
  if (!isa<FloatType>(t.getElementType())) {
    n.error() << "variance of a non-float tensor";
    return failure();
  }
  int64_t count = 1;
  for (int64_t d : dims)
    count *= t.getDimSize(d);
  auto axes = n.b.getDenseI64ArrayAttr(dims);
  Value mean = n.b.create<ReduceMeanOp>(n.loc, x, axes, n.b.getBoolAttr(true));
  Value dev = n.b.create<SubOp>(n.loc, x, mean);
  Value sq = n.b.create<ReduceSumSquareOp>(n.loc, dev, axes, n.b.getBoolAttr(keep));
  Value var = n.b.create<DivOp>(
      n.loc, sq, n.scalar(t.getElementType(), std::max(0.0, count - correction)));
  Value m = keep ? mean
                 : Value(n.b.create<ReduceMeanOp>(n.loc, x, axes, n.b.getBoolAttr(false)));
  return std::make_pair(var, m);
}

template <bool WithMean> LogicalResult variance(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  auto dims = reduceDims(n, *x, n.arg(1, "dim"));
  auto corr = n.floatArg(99, "correction", 1);
  auto keep = n.intArg(99, "keepdim", 0);
  if (failed(dims) || failed(corr) || failed(keep))
    return failure();
  auto vm = varianceOf(n, *x, *dims, *corr, *keep);
  if (failed(vm))
    return failure();
  r = WithMean ? R::ofList({R::ofTensor(vm->first), R::ofTensor(vm->second)})
               : R::ofTensor(vm->first);
  return success();
}

/// std_mean.correction(x, dims, correction=, keepdim=) -> (std, mean).
LogicalResult varianceStd(FXNode &n, R &r) {
  if (failed(variance<true>(n, r)))
    return failure();
  r.list[0] = R::ofTensor(n.b.create<SqrtOp>(n.loc, r.list[0].tensor));
  return success();
}

/// aminmax(x, *, dim=None, keepdim=False) -> (min, max).
LogicalResult aminmax(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto keep = n.intArg(2, "keepdim", 0);
  if (failed(x) || failed(keep))
    return failure();
  auto dims = reduceDims(n, *x, n.arg(1, "dim"));
  if (failed(dims))
    return failure();
  auto axes = n.b.getDenseI64ArrayAttr(*dims);
  r = R::ofList({R::ofTensor(n.b.create<ReduceMinOp>(n.loc, *x, axes, n.b.getBoolAttr(*keep))),
                 R::ofTensor(n.b.create<ReduceMaxOp>(n.loc, *x, axes, n.b.getBoolAttr(*keep)))});
  return success();
}

/// torch.var / torch.std (and the methods): var(x, dim=None, unbiased=True,
/// keepdim=False) or with correction=; std is its square root. With
/// `WithMean` (var_mean, std_mean) the mean too.
template <bool Std, bool WithMean> LogicalResult varStd(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  const R *d = n.arg(1, "dim");
  // var(x, False): the old unbiased-only form.
  const R *unbiased = d && d->kind == R::Bool ? d : n.arg(2, "unbiased");
  if (d && d->kind == R::Bool)
    d = nullptr;
  auto dims = reduceDims(n, *x, d);
  auto keep = n.intArg(3, "keepdim", 0);
  if (failed(dims) || failed(keep))
    return failure();
  double corr = 1;
  if (const R *c = n.arg(99, "correction"); c && c->isNumber())
    corr = c->number();
  else if (unbiased && unbiased->kind != R::None)
    corr = unbiased->i ? 1 : 0;
  auto vm = varianceOf(n, *x, *dims, corr, *keep);
  if (failed(vm))
    return failure();
  Value v = Std ? Value(n.b.create<SqrtOp>(n.loc, vm->first)) : vm->first;
  r = WithMean ? R::ofList({R::ofTensor(v), R::ofTensor(vm->second)}) : R::ofTensor(v);
  return success();
}

LogicalResult argMaxMin(FXNode &n, R &r, bool isMax) {
  auto x = n.tensor(0, "input");
  auto keep = n.intArg(2, "keepdim", 0);
  if (failed(x) || failed(keep))
    return failure();
  Value v = *x;
  int64_t axis = 0;
  const R *d = n.arg(1, "dim");
  if (!d || d->kind == R::None) {
    v = n.reshape(v, {n.type(v).getNumElements()});
  } else {
    auto dd = n.dim(d->i, n.type(v).getRank());
    if (failed(dd))
      return failure();
    axis = *dd;
  }
  auto ax = n.b.getI64IntegerAttr(axis);
  bool all = !d || d->kind == R::None;
  auto k = n.b.getBoolAttr(*keep && !all);
  Value out = isMax ? Value(n.b.create<ArgMaxOp>(n.loc, v, ax, k, n.b.getBoolAttr(false)))
                    : Value(n.b.create<ArgMinOp>(n.loc, v, ax, k, n.b.getBoolAttr(false)));
  if (all && *keep) // every dim kept, as size 1
    out = n.reshape(out, SmallVector<int64_t>(n.type(*x).getRank(), 1));
  r = R::ofTensor(out);
  return success();
}
LogicalResult argMax(FXNode &n, R &r) { return argMaxMin(n, r, true); }
LogicalResult argMin(FXNode &n, R &r) { return argMaxMin(n, r, false); }

/// Python bounds of a slice over a dim of `len`.
std::pair<int64_t, int64_t> clampBounds(int64_t start, int64_t end, int64_t len) {
  auto norm = [&](int64_t i) {
    return std::clamp<int64_t>(i < 0 ? i + len : i, 0, len);
  };
  int64_t s = norm(start), e = norm(end);
  return {s, std::max(s, e)};
}

} // namespace

/// x sliced on one dim.
Value dfa::fximport::sliceDim(FXNode &n, Value x, int64_t dim, int64_t start, int64_t end,
                              int64_t step) {
  auto t = n.type(x);
  auto [s, e] = clampBounds(start, end, t.getDimSize(dim));
  SmallVector<int64_t> starts(t.getRank(), 0), steps(t.getRank(), 1),
      shape(t.getShape());
  starts[dim] = s < t.getDimSize(dim) ? s : 0;
  steps[dim] = step;
  shape[dim] = e > s ? (e - s - 1) / step + 1 : 0;
  if (ArrayRef<int64_t>(shape) == t.getShape())
    return x;
  return n.b.create<SliceOp>(n.loc, t.clone(shape), x,
                             n.b.getDenseI64ArrayAttr(starts),
                             n.b.getDenseI64ArrayAttr(steps));
}

namespace {

/// slice.Tensor(x, dim=0, start=None, end=None, step=1).
LogicalResult slice(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto d = n.intArg(1, "dim", 0);
  auto start = n.intArg(2, "start", 0), step = n.intArg(4, "step", 1);
  auto end = n.intArg(3, "end", INT64_MAX);
  if (failed(x) || failed(d) || failed(start) || failed(end) || failed(step))
    return failure();
  auto dd = n.dim(*d, n.type(*x).getRank());
  if (failed(dd))
    return failure();
  if (*step < 1) {
    n.error() << "slice step must be positive, got " << *step;
    return failure();
  }
  r = R::ofTensor(sliceDim(n, *x, *dd, *start, *end, *step));
  return success();
}

/// select.int(x, dim, index): one index along dim, the dim dropped.
LogicalResult select(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto d = n.intArg(1, "dim", 0), i = n.intArg(2, "index", 0);
  if (failed(x) || failed(d) || failed(i))
    return failure();
  auto t = n.type(*x);
  auto dd = n.dim(*d, t.getRank());
  if (failed(dd))
    return failure();
  int64_t len = t.getDimSize(*dd), k = *i < 0 ? *i + len : *i;
  if (k < 0 || k >= len) {
    n.error() << "index " << *i << " is out of range for dim " << *dd
              << " of size " << len;
    return failure();
  }
  Value s = sliceDim(n, *x, *dd, k, k + 1, 1);
  SmallVector<int64_t> shape(t.getShape());
  shape.erase(shape.begin() + *dd);
  r = R::ofTensor(n.reshape(s, shape));
  return success();
}

/// squeeze.dims(x, dims): the listed dims of size 1 dropped.
LogicalResult squeezeDims(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto dims = n.intList(1, "dim", false);
  if (failed(x) || failed(dims))
    return failure();
  auto t = n.type(*x);
  SmallVector<bool> drop(t.getRank(), false);
  for (int64_t d : *dims) {
    auto dd = n.dim(d, std::max<int64_t>(t.getRank(), 1));
    if (failed(dd))
      return failure();
    if (t.getRank() > 0 && t.getDimSize(*dd) == 1)
      drop[*dd] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < t.getRank(); ++i)
    if (!drop[i])
      shape.push_back(t.getDimSize(i));
  r = R::ofTensor(n.reshape(*x, shape));
  return success();
}

Value toIndex(FXNode &n, Value idx) { return n.cast(idx, n.b.getI64Type()); }

/// The list of optional index tensors of index / index_put (argument 1):
/// a null Value for None.
FailureOr<SmallVector<Value>> indexList(FXNode &n) {
  const R *l = n.arg(1, "indices");
  if (!l || l->kind != R::List) {
    n.error() << "a list of indices is needed";
    return failure();
  }
  SmallVector<Value> perDim;
  for (auto [i, e] : llvm::enumerate(l->list)) {
    if (e.kind != R::None && e.kind != R::Tensor) {
      n.error() << "index " << i << " is " << e.describe();
      return failure();
    }
    perDim.push_back(e.kind == R::Tensor ? e.tensor : Value());
  }
  return perDim;
}

/// index.Tensor(x, [i0, None, i2, ...]).
LogicalResult indexTensor(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto perDim = indexList(n);
  if (failed(x) || failed(perDim))
    return failure();
  return setTensor(r, advancedIndex(n, *x, *perDim));
}

LogicalResult indexSelect(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), idx = n.tensor(2, "index");
  auto d = n.intArg(1, "dim", 0);
  if (failed(x) || failed(idx) || failed(d))
    return failure();
  if (n.type(*x).getRank() == 0) {
    n.unsupported() << "index_select of a 0-d tensor";
    return failure();
  }
  auto dd = n.dim(*d, n.type(*x).getRank());
  if (failed(dd))
    return failure();
  Value i = toIndex(n, *idx);
  if (n.type(i).getRank() == 0) // a 0-d index keeps the dim, as size 1
    i = n.reshape(i, {1});
  r = R::ofTensor(n.b.create<GatherOp>(n.loc, *x, i, n.b.getI64IntegerAttr(*dd)));
  return success();
}

LogicalResult gatherFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), idx = n.tensor(2, "index");
  auto d = n.intArg(1, "dim", 0);
  if (failed(x) || failed(idx) || failed(d))
    return failure();
  auto dd = n.dim(*d, n.type(*x).getRank());
  if (failed(dd))
    return failure();
  r = R::ofTensor(n.b.create<GatherElementsOp>(n.loc, n.type(*idx).clone(n.type(*x).getElementType()), *x, toIndex(n, *idx),
                                               n.b.getI64IntegerAttr(*dd)));
  return success();
}

/// scatter(x, dim, index, src or value[, reduce]), scatter_add and
/// scatter_reduce(x, dim, index, src, reduce, include_self=True): one
/// ScatterElements. src's elements at index's positions are written (src
/// may be larger than index); reduce is none, sum/add, prod/multiply,
/// amax or amin (mean, and include_self=False, are refused).
template <int Kind> // 0 scatter, 1 scatter_add, 2 scatter_reduce
LogicalResult scatterFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), idx = n.tensor(2, "index");
  auto d = n.intArg(1, "dim", 0);
  if (failed(x) || failed(idx) || failed(d))
    return failure();
  auto t = n.type(*x), it = n.type(*idx);
  auto dd = n.dim(*d, t.getRank());
  if (failed(dd))
    return failure();
  if (it.getRank() != t.getRank()) {
    n.error() << "index " << idx->getType() << " must have the rank of " << x->getType();
    return failure();
  }
  const R *src = n.arg(3, "src");
  if (Kind == 0 && (!src || src->kind == R::None))
    src = n.arg(3, "value");
  Value updates;
  if (src && src->kind == R::Tensor) {
    updates = n.cast(src->tensor, t.getElementType());
    auto st = n.type(updates);
    if (st.getShape() != it.getShape()) {
      bool fits = st.getRank() == it.getRank();
      for (int64_t i = 0; fits && i < it.getRank(); ++i)
        fits = st.getDimSize(i) >= it.getDimSize(i);
      if (!fits) {
        n.error() << "src " << src->tensor.getType() << " is smaller than index "
                  << idx->getType();
        return failure();
      }
      SmallVector<int64_t> zeros(it.getRank(), 0), ones(it.getRank(), 1);
      updates = n.b.create<SliceOp>(n.loc, it.clone(t.getElementType()), updates,
                                    n.b.getDenseI64ArrayAttr(zeros),
                                    n.b.getDenseI64ArrayAttr(ones));
    }
  } else if (src && src->isNumber()) {
    updates = n.filled(it.getShape(), t.getElementType(), src->number());
  } else {
    n.error() << "scatter needs a src tensor or a value";
    return failure();
  }
  std::string reduce = Kind == 1 ? "add" : "none";
  bool mean = false;
  if (const R *red = n.arg(4, "reduce"); red && red->kind == R::Str) {
    mean = Kind == 2 && red->s == "mean";
    reduce = red->s == "sum" || red->s == "add" || mean ? "add"
             : red->s == "prod" || red->s == "multiply" ? "mul"
             : red->s == "amax"                          ? "max"
             : red->s == "amin"                          ? "min"
                                                         : "";
    if (reduce.empty()) {
      n.unsupported() << "scatter reduction '" << red->s << "'";
      return failure();
    }
  }
  Value index = toIndex(n, *idx);
  auto scatterInto = [&](Value into, Value upd, StringRef how) -> Value {
    return n.b.create<ScatterElementsOp>(n.loc, n.type(into), into, index, upd,
                                         n.b.getI64IntegerAttr(*dd), n.b.getStringAttr(how));
  };
  bool self = true;
  if (Kind == 2) {
    auto inc = n.intArg(5, "include_self", 1);
    if (failed(inc))
      return failure();
    self = *inc;
  }
  Type elt = t.getElementType();
  Value base = *x, touched;
  if (!self) {
    // The positions some index writes start from the reduction's identity
    // instead of their own value.
    touched = n.b.create<GreaterOp>(
        n.loc, scatterInto(n.filled(t.getShape(), elt, 0), n.filled(it.getShape(), elt, 1), "none"),
        n.scalar(elt, 0));
    Value ident = reduce == "max"   ? n.extreme({}, elt, /*lowest=*/true)
                  : reduce == "min" ? n.extreme({}, elt, /*lowest=*/false)
                                    : n.scalar(elt, reduce == "mul" ? 1 : 0);
    base = n.b.create<WhereOp>(n.loc, touched, ident, *x);
  }
  Value out = scatterInto(base, updates, reduce);
  if (mean) {
    // Each position over the count of what it summed: its own value (when
    // included, or untouched) and each update.
    Value one = n.scalar(elt, 1);
    Value counts = self ? n.filled(t.getShape(), elt, 1)
                        : Value(n.b.create<WhereOp>(n.loc, touched, n.scalar(elt, 0), one));
    counts = scatterInto(counts, n.filled(it.getShape(), elt, 1), "add");
    if (isa<FloatType>(elt)) {
      out = n.b.create<DivOp>(n.loc, out, counts);
    } else { // torch divides integers rounding down
      Value rem = n.b.create<ModOp>(n.loc, out, counts);
      out = n.b.create<DivOp>(n.loc, n.b.create<SubOp>(n.loc, out, rem), counts);
    }
  }
  r = R::ofTensor(out);
  return success();
}

/// cumsum / cumprod(x, dim, dtype=None): integers and bools in int64.
template <typename OpT> LogicalResult cumulative(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto d = n.intArg(1, "dim", 0);
  if (failed(x) || failed(d))
    return failure();
  auto dd = n.dim(*d, std::max<int64_t>(n.type(*x).getRank(), 1));
  if (failed(dd))
    return failure();
  Value v = *x;
  if (n.type(v).getRank() == 0) // a scalar's scan is itself, as 1 element
    v = n.reshape(v, {1});
  if (Type want = n.dtypeArg()) {
    v = n.cast(v, want);
  } else if (isa<IntegerType>(n.type(v).getElementType()) &&
             !n.type(v).getElementType().isInteger(64)) {
    // torch sums and multiplies integers (and bools) in int64.
    v = n.cast(v, n.b.getI64Type());
  }
  Value out = n.b.create<OpT>(n.loc, v, n.b.getI64IntegerAttr(*dd),
                                  n.b.getBoolAttr(false), n.b.getBoolAttr(false));
  r = R::ofTensor(n.reshape(out, n.type(*x).getShape()));
  return success();
}

/// x padded by torch's `pad` (pairs from the last dim backwards) in `mode`
/// (constant, reflect, replicate or circular, ONNX's constant, reflect,
/// edge and wrap); negative constant pads crop.
FailureOr<Value> padTorch(FXNode &n, Value x, ArrayRef<int64_t> pad, StringRef mode,
                          double value) {
  auto t = n.type(x);
  int64_t rank = t.getRank();
  if (pad.size() % 2 || (int64_t)pad.size() / 2 > rank) {
    n.error() << "pad has " << pad.size() << " values for a rank-" << rank << " tensor";
    return failure();
  }
  StringRef onnxMode = llvm::StringSwitch<StringRef>(mode)
                           .Case("constant", "constant")
                           .Case("reflect", "reflect")
                           .Case("replicate", "edge")
                           .Case("circular", "wrap")
                           .Default("");
  if (onnxMode.empty()) {
    n.error() << "pad mode '" << mode << "' (constant, reflect, replicate or circular)";
    return failure();
  }
  // Outside constant mode a negative pad crops before the others pad.
  if (mode != "constant" && llvm::any_of(pad, [](int64_t p) { return p < 0; })) {
    SmallVector<int64_t> starts(rank, 0), steps(rank, 1), kept(t.getShape());
    std::vector<int64_t> rest(pad.begin(), pad.end());
    for (size_t i = 0; i < pad.size() / 2; ++i) {
      int64_t d = rank - 1 - i;
      int64_t lo = std::min<int64_t>(pad[2 * i], 0), hi = std::min<int64_t>(pad[2 * i + 1], 0);
      starts[d] = -lo;
      kept[d] += lo + hi;
      rest[2 * i] = std::max<int64_t>(pad[2 * i], 0);
      rest[2 * i + 1] = std::max<int64_t>(pad[2 * i + 1], 0);
      if (kept[d] < 1) {
        n.error() << "pad crops dim " << d << " to nothing";
        return failure();
      }
    }
    Value cropped = n.b.create<SliceOp>(n.loc, t.clone(kept), x,
                                        n.b.getDenseI64ArrayAttr(starts),
                                        n.b.getDenseI64ArrayAttr(steps));
    return padTorch(n, cropped, rest, mode, value);
  }
  SmallVector<int64_t> pads(2 * rank, 0), shape(t.getShape());
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    int64_t d = rank - 1 - i;
    pads[d] = pad[2 * i];
    pads[rank + d] = pad[2 * i + 1];
    shape[d] += pads[d] + pads[rank + d];
    if (shape[d] < 0) {
      n.error() << "pad crops dim " << d << " below zero";
      return failure();
    }
    if (mode == "reflect" && (pads[d] >= t.getDimSize(d) || pads[rank + d] >= t.getDimSize(d))) {
      n.error() << "reflect padding of " << pads[d] << " and " << pads[rank + d]
                << " must be less than dim " << d << "'s size " << t.getDimSize(d);
      return failure();
    }
  }
  return Value(n.b.create<PadOp>(n.loc, t.clone(shape), x, n.b.getDenseI64ArrayAttr(pads),
                                 n.b.getStringAttr(onnxMode), n.b.getF64FloatAttr(value)));
}

/// constant_pad_nd(x, pad, value).
LogicalResult constantPad(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto pad = n.intList(1, "pad", false);
  auto v = n.floatArg(2, "value", 0);
  if (failed(x) || failed(pad) || failed(v))
    return failure();
  return setTensor(r, padTorch(n, *x, *pad, "constant", *v));
}

/// F.pad(input, pad, mode, value).
LogicalResult padFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto pad = n.intList(1, "pad", false);
  const R *mode = n.arg(2, "mode");
  auto v = n.floatArg(3, "value", 0);
  if (failed(x) || failed(pad) || failed(v))
    return failure();
  std::string m = mode && mode->kind == R::Str ? mode->s : "constant";
  return setTensor(r, padTorch(n, *x, *pad, m, *v));
}

/// copy(self, src): src broadcast to self's shape, in self's dtype.
LogicalResult copy(FXNode &n, R &r) {
  auto self = n.tensor(0, "input"), src = n.tensor(1, "src");
  if (failed(self) || failed(src))
    return failure();
  auto t = n.type(*self);
  Value v = n.cast(*src, t.getElementType());
  if (n.type(v).getShape() != t.getShape()) {
    auto s = broadcastShapes(n.type(v).getShape(), t.getShape());
    if (failed(s) || ArrayRef<int64_t>(*s) != t.getShape()) {
      n.error() << "cannot copy " << src->getType() << " into " << self->getType();
      return failure();
    }
    v = n.b.create<ExpandOp>(n.loc, t, v);
  }
  r = R::ofTensor(v);
  return success();
}

/// self with src written over self[start:end:step] along dim.
FailureOr<Value> scatterSlice(FXNode &n, Value self, Value src, int64_t dim,
                              int64_t start, int64_t end, int64_t step) {
  auto t = n.type(self);
  int64_t len = t.getDimSize(dim);
  auto [s, e] = clampBounds(start, end, len);
  int64_t count = e > s ? (e - s - 1) / step + 1 : 0;
  SmallVector<int64_t> want(t.getShape());
  want[dim] = count;
  if (n.type(src).getShape() != ArrayRef<int64_t>(want)) {
    n.error() << "source " << src.getType() << " does not fit the slice "
              << RankedTensorType::get(want, t.getElementType());
    return failure();
  }
  src = n.cast(src, t.getElementType());
  if (count == 0)
    return self;
  if (step == 1) {
    SmallVector<Value> parts;
    if (s > 0)
      parts.push_back(sliceDim(n, self, dim, 0, s, 1));
    parts.push_back(src);
    if (e < len)
      parts.push_back(sliceDim(n, self, dim, e, len, 1));
    return parts.size() == 1
               ? src
               : Value(n.b.create<ConcatOp>(n.loc, parts, n.b.getI64IntegerAttr(dim)));
  }
  // A strided slice: scatter along dim from constant positions.
  ref::Tensor pos(ref::DType::I64, want);
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < t.getRank(); ++d)
    inner *= want[d];
  for (int64_t i = 0; i < pos.numElements(); ++i)
    pos.setDouble(i, s + ((i / inner) % count) * step);
  Value idx = n.b.create<ConstantOp>(n.loc, ref::tensorToAttr(pos, n.b.getContext()));
  return Value(n.b.create<ScatterElementsOp>(n.loc, t, self, idx, src,
                                             n.b.getI64IntegerAttr(dim),
                                             n.b.getStringAttr("none")));
}

/// slice_scatter(self, src, dim=0, start=None, end=None, step=1).
LogicalResult sliceScatter(FXNode &n, R &r) {
  auto self = n.tensor(0, "input"), src = n.tensor(1, "src");
  auto d = n.intArg(2, "dim", 0), start = n.intArg(3, "start", 0),
       end = n.intArg(4, "end", INT64_MAX), step = n.intArg(5, "step", 1);
  if (failed(self) || failed(src) || failed(d) || failed(start) || failed(end) ||
      failed(step))
    return failure();
  auto dd = n.dim(*d, n.type(*self).getRank());
  if (failed(dd))
    return failure();
  if (*step < 1) {
    n.error() << "slice step must be positive, got " << *step;
    return failure();
  }
  return setTensor(r, scatterSlice(n, *self, *src, *dd, *start, *end, *step));
}

/// select_scatter(self, src, dim, index).
LogicalResult selectScatter(FXNode &n, R &r) {
  auto self = n.tensor(0, "input"), src = n.tensor(1, "src");
  auto d = n.intArg(2, "dim", 0), i = n.intArg(3, "index", 0);
  if (failed(self) || failed(src) || failed(d) || failed(i))
    return failure();
  auto t = n.type(*self);
  auto dd = n.dim(*d, t.getRank());
  if (failed(dd))
    return failure();
  int64_t len = t.getDimSize(*dd), k = *i < 0 ? *i + len : *i;
  if (k < 0 || k >= len) {
    n.error() << "index " << *i << " is out of range for dim " << *dd;
    return failure();
  }
  SmallVector<int64_t> shape(n.type(*src).getShape());
  shape.insert(shape.begin() + std::min<int64_t>(*dd, shape.size()), 1);
  return setTensor(r, scatterSlice(n, *self, n.reshape(*src, shape), *dd, k,
                                   k + 1, 1));
}

/// as_strided(x, size, stride, offset) over x's elements in row-major
/// order: a reshape when it reads them in order, else a gather. The graph
/// records when x's storage is not row-major, and that is refused.
LogicalResult asStrided(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto size = n.intList(1, "size", false), stride = n.intList(2, "stride", false);
  auto offset = n.intArg(3, "storage_offset", 0);
  if (failed(x) || failed(size) || failed(stride) || failed(offset))
    return failure();
  if (size->size() != stride->size()) {
    n.error() << "size and stride differ in length";
    return failure();
  }
  if (n.imp.isStrided(*x)) {
    n.unsupported() << "as_strided of a tensor whose storage is not "
                       "row-major (a view); its elements' order is unknown";
    return failure();
  }
  auto t = n.type(*x);
  int64_t total = 1;
  for (int64_t s : *size)
    total *= s;
  ref::Tensor pos(ref::DType::I64, {total});
  bool inOrder = *offset == 0;
  SmallVector<int64_t> at(size->size(), 0);
  for (int64_t i = 0; i < total; ++i) {
    int64_t p = *offset;
    for (size_t d = 0; d < at.size(); ++d)
      p += at[d] * (*stride)[d];
    if (p < 0 || p >= t.getNumElements()) {
      n.error() << "as_strided reads element " << p << " of " << t.getNumElements();
      return failure();
    }
    inOrder &= p == i;
    pos.setDouble(i, p);
    for (int64_t d = (int64_t)at.size() - 1; d >= 0; --d) {
      if (++at[d] < (*size)[d])
        break;
      at[d] = 0;
    }
  }
  Value flat = n.reshape(*x, {t.getNumElements()});
  if (!inOrder) {
    if (total > (1 << 22)) {
      n.unsupported() << "as_strided gathering " << total << " elements";
      return failure();
    }
    Value idx = n.b.create<ConstantOp>(n.loc, ref::tensorToAttr(pos, n.b.getContext()));
    flat = n.b.create<GatherOp>(n.loc, flat, idx, n.b.getI64IntegerAttr(0));
  } else if (total != t.getNumElements()) {
    flat = sliceDim(n, flat, 0, 0, total, 1);
  }
  r = R::ofTensor(n.reshape(flat, *size));
  return success();
}

/// scalar_tensor(v, dtype=): a 0-d tensor.
LogicalResult scalarTensor(FXNode &n, R &r) {
  const R *v = n.arg(0, "s");
  if (!v || !v->isNumber()) {
    n.error() << "scalar_tensor needs a number";
    return failure();
  }
  Type elt = n.dtypeArg() ? n.dtypeArg() : n.b.getF32Type();
  r = R::ofTensor(n.filled({}, elt, v->number()));
  return success();
}

/// full_like(x, v, dtype=) and fill.Scalar(x, v).
LogicalResult fullLike(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto v = n.floatArg(1, "fill_value", 0);
  if (failed(x) || failed(v))
    return failure();
  auto t = n.type(*x);
  Type elt = n.dtypeArg() ? n.dtypeArg() : t.getElementType();
  r = R::ofTensor(n.filled(t.getShape(), elt, *v));
  return success();
}

/// new_zeros/new_ones/new_full/new_empty(x, size, [value]); the methods
/// take the size as varargs too (x.new_zeros(2, 3)), but new_full.
template <int Fill> LogicalResult newFilled(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto shape = n.intList(1, "size", /*varargs=*/Fill >= 0);
  if (failed(x) || failed(shape))
    return failure();
  double v = Fill;
  if (Fill < 0) {
    auto f = n.floatArg(2, "fill_value", 0);
    if (failed(f))
      return failure();
    v = *f;
  }
  Type elt = n.dtypeArg() ? n.dtypeArg() : n.type(*x).getElementType();
  r = R::ofTensor(n.filled(*shape, elt, v));
  return success();
}

/// x.new_tensor(data, dtype=None): a constant of nested lists of numbers,
/// in x's dtype unless given.
LogicalResult newTensor(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  const R *data = n.arg(1, "data");
  if (failed(x) || !data)
    return failure();
  SmallVector<int64_t> shape;
  std::vector<double> values;
  std::function<bool(const R &, size_t)> walk = [&](const R &v, size_t depth) {
    if (v.isNumber()) {
      if (depth != shape.size())
        return false;
      values.push_back(v.number());
      return true;
    }
    if (v.kind != R::List)
      return false;
    if (depth == shape.size())
      shape.push_back(v.list.size());
    else if (shape[depth] != int64_t(v.list.size()))
      return false;
    for (const R &e : v.list)
      if (!walk(e, depth + 1))
        return false;
    return true;
  };
  if (!walk(*data, 0)) {
    n.error() << "new_tensor's data must be a number or nested lists of equal lengths, got "
              << data->describe();
    return failure();
  }
  Type elt = n.dtypeArg() ? n.dtypeArg() : n.type(*x).getElementType();
  ref::Tensor c(*ref::dtypeOf(elt), shape);
  for (auto [i, v] : llvm::enumerate(values))
    c.setDouble(i, v);
  r = R::ofTensor(n.b.create<ConstantOp>(n.loc, ref::tensorToAttr(c, n.b.getContext())));
  return success();
}

/// empty.memory_format(size, dtype=): zeros (torch leaves it unset; a
/// deterministic value keeps runs reproducible).
LogicalResult emptyFn(FXNode &n, R &r) {
  auto shape = n.intList(0, "size", false);
  if (failed(shape))
    return failure();
  Type elt = n.dtypeArg() ? n.dtypeArg() : n.b.getF32Type();
  r = R::ofTensor(n.filled(*shape, elt, 0));
  return success();
}

/// expm1 and log1p, as exp(x) - 1 and log(1 + x).
template <bool Exp> LogicalResult plusMinusOne(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Value one = n.scalar(n.type(*x).getElementType(), 1);
  r = R::ofTensor(Exp ? Value(n.b.create<SubOp>(n.loc, n.b.create<ExpOp>(n.loc, *x), one))
                      : Value(n.b.create<LogOp>(n.loc, n.b.create<AddOp>(n.loc, *x, one))));
  return success();
}

/// rrelu_with_noise_functional(x, noise, lower, upper, training) in eval
/// mode: a leaky relu with the mean slope, and the noise unchanged.
LogicalResult rreluWithNoise(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), noise = n.tensor(1, "noise");
  auto lo = n.floatArg(2, "lower", 1.0 / 8), hi = n.floatArg(3, "upper", 1.0 / 3);
  auto training = n.intArg(4, "training", 0);
  if (failed(x) || failed(noise) || failed(lo) || failed(hi) || failed(training))
    return failure();
  if (*training) {
    n.unsupported() << "rrelu in training mode (random slopes)";
    return failure();
  }
  Value y = n.b.create<LeakyReluOp>(n.loc, *x, n.b.getF64FloatAttr((*lo + *hi) / 2));
  r = R::ofList({R::ofTensor(y), R::ofTensor(*noise)});
  return success();
}

template <bool Min> LogicalResult clampOne(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  const R *b = n.arg(1, Min ? "min" : "max");
  if (failed(x) || !b)
    return failure();
  if (b->kind == R::Tensor) {
    auto ops = n.asTensor(*b, *x);
    if (failed(ops))
      return failure();
    r = R::ofTensor(Min ? Value(n.b.create<MaxOp>(n.loc, *x, *ops))
                        : Value(n.b.create<MinOp>(n.loc, *x, *ops)));
    return success();
  }
  if (!b->isNumber()) {
    n.error() << "bound must be a number";
    return failure();
  }
  auto lim = n.b.getF64FloatAttr(b->number());
  r = R::ofTensor(n.b.create<ClipOp>(n.loc, *x, Min ? lim : FloatAttr(),
                                     Min ? FloatAttr() : lim));
  return success();
}

/// topk(x, k, dim=-1, largest=True, sorted=True) -> (values, indices).
LogicalResult topk(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto k = n.intArg(1, "k", 1), d = n.intArg(2, "dim", -1),
       largest = n.intArg(3, "largest", 1), sorted = n.intArg(4, "sorted", 1);
  if (failed(x) || failed(k) || failed(d) || failed(largest) || failed(sorted))
    return failure();
  auto t = n.type(*x);
  if (t.getRank() == 0) {
    n.unsupported() << "topk of a 0-d tensor";
    return failure();
  }
  auto dd = n.dim(*d, t.getRank());
  if (failed(dd))
    return failure();
  if (*k < 0 || *k > t.getDimSize(*dd)) {
    n.error() << "k=" << *k << " exceeds dim " << *dd << " of " << x->getType();
    return failure();
  }
  SmallVector<int64_t> shape(t.getShape());
  shape[*dd] = *k;
  auto op = n.b.create<TopKOp>(n.loc, t.clone(shape),
                               RankedTensorType::get(shape, n.b.getI64Type()), *x,
                               n.b.getI64IntegerAttr(*k), n.b.getI64IntegerAttr(*dd),
                               n.b.getBoolAttr(*largest), n.b.getBoolAttr(true));
  r = R::ofList({R::ofTensor(op.getValues()), R::ofTensor(op.getIndices())});
  return success();
}

/// sort(x, dim=-1, descending=False) -> (values, indices), and argsort:
/// a top-k of the whole dim, sorted; ties keep their order (the smaller
/// index first, as a stable sort and ONNX's TopK do).
template <bool ArgOnly> LogicalResult sortFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  // sort.stable(x, *, stable, dim, descending) takes them as keywords.
  const R *d = n.arg(1, "dim"), *desc = n.arg(2, "descending");
  if (d && d->kind == R::Bool) // sort(x, stable=...) written positionally
    d = n.arg(99, "dim");
  int64_t dim = d && d->isNumber() ? int64_t(d->number()) : -1;
  bool descending = desc && desc->isNumber() && desc->number() != 0;
  auto t = n.type(*x);
  if (t.getRank() == 0) {
    r = ArgOnly ? R::ofTensor(n.filled({}, n.b.getI64Type(), 0))
                : R::ofList({R::ofTensor(*x), R::ofTensor(n.filled({}, n.b.getI64Type(), 0))});
    return success();
  }
  auto dd = n.dim(dim, t.getRank());
  if (failed(dd))
    return failure();
  auto op = n.b.create<TopKOp>(n.loc, t, RankedTensorType::get(t.getShape(), n.b.getI64Type()),
                               *x, n.b.getI64IntegerAttr(t.getDimSize(*dd)),
                               n.b.getI64IntegerAttr(*dd), n.b.getBoolAttr(descending),
                               n.b.getBoolAttr(true));
  r = ArgOnly ? R::ofTensor(op.getIndices())
              : R::ofList({R::ofTensor(op.getValues()), R::ofTensor(op.getIndices())});
  return success();
}

/// repeat(x, repeats): tiles, with leading dims added as torch does.
LogicalResult repeat(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto reps = n.intList(1, "repeats", true); // x.repeat(2, 1) or a list
  if (failed(x) || failed(reps))
    return failure();
  auto t = n.type(*x);
  int64_t lead = (int64_t)reps->size() - t.getRank();
  if (lead < 0) {
    n.error() << "repeat has fewer dims than the input";
    return failure();
  }
  SmallVector<int64_t> shape(lead, 1), out;
  shape.append(t.getShape().begin(), t.getShape().end());
  Value v = n.reshape(*x, shape);
  for (size_t i = 0; i < reps->size(); ++i)
    out.push_back(shape[i] * (*reps)[i]);
  r = R::ofTensor(n.b.create<TileOp>(n.loc, t.clone(out), v,
                                     n.b.getDenseI64ArrayAttr(*reps)));
  return success();
}

/// How a resize interpolates: torch's nearest, nearest-exact,
/// (bi/tri)linear or bicubic.
enum class Interp { Nearest, NearestExact, Linear, Cubic };

/// x [N, C, spatial...] resized over its 1 to 3 spatial dims to `size`
/// (when given) or by `scales`: nearest (torch's floor(o * in / out)),
/// (bi/tri)linear or bicubic (half-pixel, or align_corners; bicubic's
/// taps are clamped to the edge with torch's A = -0.75, which is ONNX's
/// cubic without exclude_outside).
FailureOr<Value> resizeSpatial(FXNode &n, Value x, std::optional<SmallVector<int64_t>> size,
                               SmallVector<double> scales, Interp interp, bool align) {
  bool linear = interp != Interp::Nearest && interp != Interp::NearestExact;
  auto t = n.type(x);
  int64_t k = t.getRank() - 2;
  if (k < 1 || k > 3) {
    n.unsupported() << "resizing a " << t.getRank()
                    << "-d input (1-d to 3-d spatial resizing is imported), got " << x.getType();
    return failure();
  }
  SmallVector<int64_t> out(t.getShape());
  SmallVector<double> sc(t.getRank(), 1.0);
  for (int64_t i = 0; i < k; ++i) {
    if (size) {
      out[2 + i] = (*size)[i];
      sc[2 + i] = (double)out[2 + i] / t.getDimSize(2 + i);
    } else {
      sc[2 + i] = scales[i];
      out[2 + i] = (int64_t)std::floor(t.getDimSize(2 + i) * sc[2 + i]);
      // align_corners maps by the sizes alone ((in - 1) / (out - 1)), as
      // torch does whatever scale was given: the resize's scale is then
      // the output's size over the input's.
      if (linear && align)
        sc[2 + i] = (double)out[2 + i] / t.getDimSize(2 + i);
    }
    if (out[2 + i] < 1 || !(sc[2 + i] > 0)) {
      n.error() << "resizing " << x.getType() << " to an empty size";
      return failure();
    }
  }
  if (interp == Interp::Nearest && size) {
    // torch's nearest with a size: source index floor(o * in / out), in
    // integers (a double scale can land just below a whole number).
    Value v = x;
    for (int64_t d = 2; d < t.getRank(); ++d) {
      int64_t in = t.getDimSize(d), o = out[d];
      if (in == o)
        continue;
      ref::Tensor idx(ref::DType::I64, {o});
      for (int64_t i = 0; i < o; ++i)
        idx.setInt(i, std::min((i * in) / o, in - 1));
      Value c = n.b.create<ConstantOp>(n.loc, ref::tensorToAttr(idx, n.b.getContext()));
      v = n.b.create<GatherOp>(n.loc, v, c, n.b.getI64IntegerAttr(d));
    }
    return v;
  }
  if (interp == Interp::NearestExact) {
    // torch's nearest-exact: source index floor((o + 0.5) * scale) (at
    // most in - 1), with the scale in single precision: in / out, or one
    // over a given scale factor.
    Value v = x;
    for (int64_t d = 2; d < t.getRank(); ++d) {
      int64_t in = t.getDimSize(d), o = out[d];
      float scale = size ? float(in) / float(o) : float(1.0 / scales[d - 2]);
      ref::Tensor idx(ref::DType::I64, {o});
      for (int64_t i = 0; i < o; ++i)
        idx.setInt(i, std::min<int64_t>(int64_t(std::floor(float((i + 0.5) * double(scale)))),
                                        in - 1));
      Value c = n.b.create<ConstantOp>(n.loc, ref::tensorToAttr(idx, n.b.getContext()));
      v = n.b.create<GatherOp>(n.loc, v, c, n.b.getI64IntegerAttr(d));
    }
    return v;
  }
  StringRef coord = linear ? (align ? "align_corners" : "half_pixel") : "asymmetric";
  StringRef mode = interp == Interp::Cubic ? "cubic" : linear ? "linear" : "nearest";
  return Value(n.b.create<ResizeOp>(
      n.loc, t.clone(out), x, n.b.getStringAttr(mode),
      n.b.getStringAttr(coord), n.b.getStringAttr("floor"), n.b.getF64FloatAttr(-0.75),
      n.b.getBoolAttr(false), n.b.getF64FloatAttr(0), n.b.getDenseF64ArrayAttr(sc),
      DenseF64ArrayAttr()));
}

/// A size or scale given as one number or one per spatial dim (None:
/// absent).
template <typename T>
LogicalResult perDim(FXNode &n, const R *v, StringRef what, int64_t k,
                     std::optional<SmallVector<T>> &out) {
  if (!v || v->kind == R::None)
    return success();
  if (v->isNumber()) {
    out = SmallVector<T>(k, T(v->number()));
    return success();
  }
  if (v->kind == R::List && int64_t(v->list.size()) == k &&
      llvm::all_of(v->list, [](const R &e) { return e.isNumber(); })) {
    out = SmallVector<T>();
    for (const R &e : v->list)
      out->push_back(T(e.number()));
    return success();
  }
  n.error() << what << " must be a number or " << k << " for a " << k << "-d resize";
  return failure();
}

/// upsample_nearest2d.vec / upsample_bilinear2d.vec /
/// upsample_bicubic2d.vec(x, output_size, [align_corners,] scale_factors).
template <bool Linear, bool Cubic = false> LogicalResult upsample(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  bool align = false;
  if (Linear) {
    auto a = n.intArg(2, "align_corners", 0);
    if (failed(a))
      return failure();
    align = *a;
  }
  int64_t k = n.type(*x).getRank() - 2;
  std::optional<SmallVector<int64_t>> size;
  std::optional<SmallVector<double>> scales;
  if (failed(perDim(n, n.arg(1, "output_size"), "output_size", k, size)) ||
      failed(perDim(n, n.arg(Linear ? 3 : 2, "scale_factors"), "scale_factors", k, scales)))
    return failure();
  if (!size && !scales) {
    n.error() << "upsampling needs an output size or scale factors";
    return failure();
  }
  return setTensor(r, resizeSpatial(n, *x, size, scales.value_or(SmallVector<double>(k, 1.0)),
                                    Cubic    ? Interp::Cubic
                                    : Linear ? Interp::Linear
                                             : Interp::Nearest,
                                    align));
}

/// torch's antialiased bilinear (`cubic` false) or bicubic resize of one
/// dim from `in` to `out` as an [in, out] matrix: each output i averages
/// the inputs within `support` of its centre scale (i + 0.5) by a triangle
/// or a Keys cubic (a = -0.5) widened by the scale when it shrinks,
/// normalized (ATen's _compute_weights_aa; `scale` is in / out, one over a
/// given scale factor, or (in - 1) / (out - 1) with align_corners).
std::vector<float> antialiasWeights(int64_t in, int64_t out, double scale, bool cubic) {
  auto filter = [&](double x) {
    x = std::abs(x);
    if (!cubic)
      return x < 1 ? 1 - x : 0.0;
    const double a = -0.5;
    if (x < 1)
      return ((a + 2) * x - (a + 3)) * x * x + 1;
    if (x < 2)
      return (((x - 5) * x + 8) * x - 4) * a;
    return 0.0;
  };
  double interp = cubic ? 4 : 2;
  double support = scale >= 1 ? interp * 0.5 * scale : interp * 0.5;
  double invscale = scale >= 1 ? 1 / scale : 1;
  int64_t widest = int64_t(std::ceil(support)) * 2 + 1;
  std::vector<float> m(in * out, 0.0f);
  for (int64_t i = 0; i < out; ++i) {
    double center = scale * (i + 0.5);
    int64_t lo = std::max<int64_t>(int64_t(center - support + 0.5), 0);
    int64_t size = std::clamp<int64_t>(std::min<int64_t>(int64_t(center + support + 0.5), in) - lo,
                                       0, widest);
    std::vector<double> w(size);
    double total = 0;
    for (int64_t j = 0; j < size; ++j)
      total += w[j] = filter((j + lo - center + 0.5) * invscale);
    for (int64_t j = 0; j < size; ++j)
      m[(lo + j) * out + i] = float(total != 0 ? w[j] / total : w[j]);
  }
  return m;
}

/// x [N, C, H, W] resized to `out` by torch's antialiased bilinear or
/// bicubic filter, per dim a product with antialiasWeights; `scales` (when
/// given, and not recomputed) set the filter's scale, as ATen's
/// area_pixel_compute_scale does, else the sizes' ratio.
FailureOr<Value> antialiasResize(FXNode &n, Value x, ArrayRef<int64_t> out,
                                 ArrayRef<double> scales, bool align, bool cubic) {
  auto t = n.type(x);
  if (t.getRank() != 4 || out.size() != 2 || (!scales.empty() && scales.size() != 2)) {
    n.error() << "antialiased resizing needs a 4-d input and two sizes, got " << x.getType();
    return failure();
  }
  Value v = x;
  for (int64_t i = 0; i < 2; ++i) {
    int64_t in = t.getDimSize(2 + i), o = out[i];
    if (o < 1) {
      n.error() << "resizing " << x.getType() << " to an empty size";
      return failure();
    }
    double scale = align ? (o > 1 ? double(in - 1) / double(o - 1) : 0.0)
                   : !scales.empty() && scales[i] > 0 ? 1.0 / scales[i]
                                                      : double(in) / double(o);
    v = buildMixAlongDim(n.b, n.loc, v, 2 + i, antialiasWeights(in, o, scale, cubic));
  }
  return v;
}

/// F.interpolate / nn.Upsample's arguments: size or scale_factor, mode
/// (nearest on 1 to 3 spatial dims, linear on 1, bilinear and bicubic on
/// 2, trilinear on 3, area: adaptive average pooling to the size),
/// align_corners, recompute_scale_factor (a scale then gives the size it
/// rounds to), antialias (bilinear and bicubic on 2 dims: per dim a product
/// with torch's antialiasing weights).
LogicalResult interpolate(FXNode &n, Value x, const R *sizeArg, const R *scaleArg,
                          StringRef mode, bool align, bool recompute, bool antialias,
                          R &r) {
  auto t = n.type(x);
  int64_t k = t.getRank() - 2;
  int64_t dims = mode == "linear" ? 1
                 : mode == "bilinear" || mode == "bicubic" ? 2
                 : mode == "trilinear" ? 3
                                       : 0;
  bool area = mode == "area", exact = mode == "nearest-exact";
  bool aa = antialias && (mode == "bilinear" || mode == "bicubic");
  if ((mode != "nearest" && !exact && !area && !dims) || (antialias && !aa)) {
    n.unsupported() << "interpolation mode '" << mode << "'"
                    << (antialias ? " with antialias" : "")
                    << " (nearest, nearest-exact, linear, bilinear, bicubic, trilinear and area "
                       "are imported)";
    return failure();
  }
  if (dims && dims != k) {
    n.error() << "mode '" << mode << "' needs a " << dims + 2 << "-d input, got "
              << x.getType();
    return failure();
  }
  std::optional<SmallVector<int64_t>> size;
  std::optional<SmallVector<double>> scales;
  if (k >= 1 && (failed(perDim(n, sizeArg, "size", k, size)) ||
                 failed(perDim(n, scaleArg, "scale_factor", k, scales))))
    return failure();
  if (k >= 1 && !size == !scales) {
    n.error() << "interpolate needs exactly one of size and scale_factor";
    return failure();
  }
  // area's size from a scale is rounded down whatever recompute says.
  if (scales && (recompute || area)) {
    size = SmallVector<int64_t>();
    for (int64_t i = 0; i < k; ++i)
      size->push_back(int64_t(std::floor(t.getDimSize(2 + i) * (*scales)[i])));
  }
  if (area)
    return setTensor(r, adaptiveAvgPool(n, x, std::vector<int64_t>(size->begin(), size->end()),
                                        k));
  if (aa) {
    SmallVector<int64_t> out;
    for (int64_t i = 0; i < k; ++i)
      out.push_back(size ? (*size)[i] : int64_t(std::floor(t.getDimSize(2 + i) * (*scales)[i])));
    return setTensor(r, antialiasResize(n, x, out,
                                        scales && !recompute ? *scales : SmallVector<double>(),
                                        align, mode == "bicubic"));
  }
  Interp interp = mode == "bicubic" ? Interp::Cubic
                  : dims            ? Interp::Linear
                  : exact           ? Interp::NearestExact
                                    : Interp::Nearest;
  return setTensor(r, resizeSpatial(n, x, size,
                                    scales.value_or(SmallVector<double>(std::max<int64_t>(k, 0), 1.0)),
                                    interp, align));
}

/// _upsample_bilinear2d_aa / _upsample_bicubic2d_aa: `.vec`(x,
/// output_size, align_corners, scale_factors) or `.default`(x, output_size,
/// align_corners, scales_h, scales_w); a size and scales may both be given
/// (the scales then set the filter's).
template <bool Cubic, bool Vec> LogicalResult upsampleAntialias(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto align = n.intArg(2, "align_corners", 0);
  if (failed(x) || failed(align))
    return failure();
  std::optional<SmallVector<int64_t>> size;
  std::optional<SmallVector<double>> scales;
  if (failed(perDim(n, n.arg(1, "output_size"), "output_size", 2, size)))
    return failure();
  if (Vec) {
    if (failed(perDim(n, n.arg(3, "scale_factors"), "scale_factors", 2, scales)))
      return failure();
  } else {
    const R *h = n.arg(3, "scales_h"), *w = n.arg(4, "scales_w");
    if (h && w && h->isNumber() && w->isNumber())
      scales = SmallVector<double>{h->number(), w->number()};
  }
  SmallVector<int64_t> out;
  for (int64_t i = 0; i < 2; ++i) {
    if (!size && !scales) {
      n.error() << "upsampling needs an output size or scale factors";
      return failure();
    }
    out.push_back(size ? (*size)[i]
                       : int64_t(std::floor(n.type(*x).getDimSize(2 + i) * (*scales)[i])));
  }
  return setTensor(r, antialiasResize(n, *x, out, scales.value_or(SmallVector<double>()),
                                      *align, Cubic));
}

LogicalResult interpolateFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  const R *mode = n.arg(3, "mode");
  auto align = n.intArg(4, "align_corners", 0);
  auto recompute = n.intArg(5, "recompute_scale_factor", 0);
  auto antialias = n.intArg(6, "antialias", 0);
  if (failed(align) || failed(recompute) || failed(antialias))
    return failure();
  return interpolate(n, *x, n.arg(1, "size"), n.arg(2, "scale_factor"),
                     mode && mode->kind == R::Str ? StringRef(mode->s) : "nearest", *align,
                     *recompute, *antialias, r);
}
} // namespace

FailureOr<Value> dfa::fximport::unfoldTensor(FXNode &n, Value x, std::vector<int64_t> kernel,
                                             std::vector<int64_t> dilation,
                                             std::vector<int64_t> padding,
                                             std::vector<int64_t> stride) {
  return im2colOf(n, x, kernel, dilation, padding, stride);
}

FailureOr<Value> dfa::fximport::foldTensor(FXNode &n, Value x, std::vector<int64_t> size,
                                           std::vector<int64_t> kernel,
                                           std::vector<int64_t> dilation,
                                           std::vector<int64_t> padding,
                                           std::vector<int64_t> stride) {
  return fold(n, x, size, kernel, dilation, padding, stride);
}

FailureOr<Value> dfa::fximport::padTensor(FXNode &n, Value x, ArrayRef<int64_t> pad,
                                          StringRef mode, double value) {
  return padTorch(n, x, pad, mode, value);
}

LogicalResult dfa::fximport::interpolateTensor(FXNode &n, Value x, const PyValue *size,
                                               const PyValue *scale, StringRef mode, bool align,
                                               bool recompute, bool antialias, PyValue &r) {
  return interpolate(n, x, size, scale, mode, align, recompute, antialias, r);
}

namespace {
/// The integer index tensors of an advanced index (x[i0, :, i2]): the dims
/// they index, in order, and the indices as i64; `bshape` their broadcast
/// shape and `stacked` them broadcast and stacked on a new last dim,
/// [bshape..., dims] (ScatterND's and GatherND's index tuples).
struct AdvancedIndex {
  SmallVector<int64_t> dims, bshape;
  SmallVector<Value> idx;
  Value stacked;
  /// Where the indexed dims' result goes in x[indices]: first, or, when
  /// they are adjacent, in place of the first (numpy's rule).
  int64_t resultAt() const {
    bool adjacent = dims.back() - dims.front() + 1 == int64_t(dims.size());
    return adjacent ? dims.front() : 0;
  }
};

FailureOr<AdvancedIndex> advancedIndices(FXNode &n, Value x, ArrayRef<Value> perDim) {
  auto t = n.type(x);
  if ((int64_t)perDim.size() > t.getRank()) {
    n.error() << "too many indices for " << x.getType();
    return failure();
  }
  AdvancedIndex a;
  for (auto [i, e] : llvm::enumerate(perDim)) {
    if (!e)
      continue;
    Type ie = n.type(e).getElementType();
    if (ie.isInteger(1) || (ie.isInteger(8) && ie.isUnsignedInteger())) {
      // torch reads a uint8 index as a mask too.
      n.unsupported() << "indexing with a mask (a data-dependent shape)";
      return failure();
    }
    if (!isa<IntegerType>(n.type(e).getElementType())) {
      n.error() << "index tensor " << e.getType() << " is not of integers";
      return failure();
    }
    a.dims.push_back(i);
    a.idx.push_back(toIndex(n, e));
  }
  if (a.idx.empty())
    return a;
  for (Value v : a.idx) {
    auto s = broadcastShapes(a.bshape, n.type(v).getShape());
    if (failed(s)) {
      n.error() << "index shapes do not broadcast";
      return failure();
    }
    a.bshape.assign(s->begin(), s->end());
  }
  SmallVector<Value> cols;
  SmallVector<int64_t> colShape(a.bshape);
  colShape.push_back(1);
  for (Value v : a.idx) {
    if (n.type(v).getShape() != ArrayRef<int64_t>(a.bshape))
      v = n.b.create<ExpandOp>(n.loc, n.type(v).clone(a.bshape), v);
    cols.push_back(n.reshape(v, colShape));
  }
  a.stacked = cols.size() == 1 ? cols[0]
                               : Value(n.b.create<ConcatOp>(
                                     n.loc, cols, n.b.getI64IntegerAttr(a.bshape.size())));
  return a;
}

/// The permutation that moves x's indexed dims to the front, the others
/// after them in order.
SmallVector<int64_t> indexedFirst(const AdvancedIndex &a, int64_t rank) {
  SmallVector<int64_t> perm(a.dims.begin(), a.dims.end());
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(a.dims, d))
      perm.push_back(d);
  return perm;
}

/// Moves `count` dims at `at` of a [before..., moved..., after...] value to
/// the front, or (`back`) the front ones back to `at`.
Value moveDims(FXNode &n, Value v, int64_t at, int64_t count, bool back) {
  if (at == 0)
    return v;
  int64_t rank = n.type(v).getRank();
  SmallVector<int64_t> perm;
  if (back) {
    for (int64_t i = 0; i < at; ++i)
      perm.push_back(count + i);
    for (int64_t i = 0; i < count; ++i)
      perm.push_back(i);
  } else {
    for (int64_t i = 0; i < count; ++i)
      perm.push_back(at + i);
    for (int64_t i = 0; i < at; ++i)
      perm.push_back(i);
  }
  for (int64_t i = at + count; i < rank; ++i)
    perm.push_back(i);
  return n.transpose(v, perm);
}

/// index_put(x, [i0, None, i2, ...], values, accumulate): x with
/// x[indices] = values (+= when accumulating, duplicates summed), values
/// broadcast to x[indices]'s shape; one ScatterND on x with its indexed
/// dims moved to the front.
LogicalResult indexPut(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), values = n.tensor(2, "values");
  auto perDim = indexList(n);
  auto accumulate = n.intArg(3, "accumulate", 0);
  if (failed(x) || failed(values) || failed(accumulate) || failed(perDim))
    return failure();
  FailureOr<AdvancedIndex> a = advancedIndices(n, *x, *perDim);
  if (failed(a))
    return failure();
  auto t = n.type(*x);
  if (a->dims.empty()) {
    n.unsupported() << "index_put without an index tensor";
    return failure();
  }
  // x[indices]'s shape, and the updates ScatterND takes: [bshape..., rest...].
  SmallVector<int64_t> perm = indexedFirst(*a, t.getRank()), updates(a->bshape);
  for (int64_t d : ArrayRef<int64_t>(perm).drop_front(a->dims.size()))
    updates.push_back(t.getDimSize(d));
  int64_t at = a->resultAt(), b = a->bshape.size();
  SmallVector<int64_t> result(updates.begin() + b, updates.begin() + b + at);
  result.append(a->bshape);
  result.append(updates.begin() + b + at, updates.end());
  Value v = n.cast(*values, t.getElementType());
  auto vt = n.type(v);
  auto bs = broadcastShapes(vt.getShape(), result);
  if (failed(bs) || ArrayRef<int64_t>(*bs) != ArrayRef<int64_t>(result)) {
    n.error() << "values " << values->getType() << " do not broadcast to the indexed shape";
    return failure();
  }
  if (vt.getRank() < int64_t(result.size())) {
    SmallVector<int64_t> ones(result.size() - vt.getRank(), 1);
    ones.append(vt.getShape().begin(), vt.getShape().end());
    v = n.reshape(v, ones);
  }
  if (n.type(v).getShape() != ArrayRef<int64_t>(result))
    v = n.b.create<ExpandOp>(n.loc, RankedTensorType::get(result, t.getElementType()), v);
  v = moveDims(n, v, at, b, /*back=*/false);
  Value moved = n.transpose(*x, perm);
  Value put = n.b.create<ScatterNDOp>(n.loc, moved.getType(), moved, a->stacked, v,
                                      n.b.getStringAttr(*accumulate ? "add" : "none"));
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  r = R::ofTensor(n.transpose(put, inverse));
  return success();
}
} // namespace

/// Advanced indexing (x[i0, :, i2]): the index
/// tensors broadcast together; their dims replace the indexed dims where
/// those are adjacent, else they come first (numpy's rule).
FailureOr<Value> dfa::fximport::advancedIndex(FXNode &n, Value x,
                                              ArrayRef<Value> perDim) {
  FailureOr<AdvancedIndex> a = advancedIndices(n, x, perDim);
  if (failed(a))
    return failure();
  if (a->dims.empty())
    return x;
  if (a->dims.size() == 1 && n.type(a->idx[0]).getShape() == ArrayRef<int64_t>(a->bshape))
    return Value(n.b.create<GatherOp>(n.loc, x, a->idx[0],
                                      n.b.getI64IntegerAttr(a->dims[0])));
  // The indexed dims moved to the front and gathered with GatherND.
  auto t = n.type(x);
  SmallVector<int64_t> perm = indexedFirst(*a, t.getRank()), outShape(a->bshape);
  for (int64_t d : ArrayRef<int64_t>(perm).drop_front(a->dims.size()))
    outShape.push_back(t.getDimSize(d));
  Value g = n.b.create<GatherNDOp>(
      n.loc, RankedTensorType::get(outShape, t.getElementType()), n.transpose(x, perm),
      a->stacked, n.b.getI64IntegerAttr(0));
  // Adjacent indexed dims: the dims before them go back in front.
  return moveDims(n, g, a->resultAt(), a->bshape.size(), /*back=*/true);
}

void dfa::fximport::addAtenHandlers(llvm::StringMap<Handler> &t) {
  // ATen operators that take the torch function's arguments.
  auto same = [&](std::initializer_list<const char *> names, StringRef torchName) {
    Handler h = t.lookup(torchName);
    assert(h && "aliasing an unknown handler");
    for (const char *name : names)
      t[name] = h;
  };
  same({"aten.add.Tensor", "aten.add.Scalar"}, "add");
  same({"aten.sub.Tensor", "aten.sub.Scalar"}, "sub");
  same({"aten.rsub.Scalar", "aten.rsub.Tensor"}, "rsub");
  same({"aten.mul.Tensor", "aten.mul.Scalar"}, "mul");
  same({"aten.div.Tensor", "aten.div.Scalar", "aten.div.Tensor_mode", "aten.div.Scalar_mode"},
       "div");
  same({"aten.floor_divide.default", "aten.floor_divide.Scalar"}, "floor_divide");
  same({"aten.trunc.default"}, "trunc");
  same({"aten.pow.Tensor_Scalar", "aten.pow.Tensor_Tensor", "aten.pow.Scalar"}, "pow");
  same({"aten.eq.Scalar", "aten.eq.Tensor"}, "eq");
  same({"aten.ne.Scalar", "aten.ne.Tensor"}, "ne");
  same({"aten.lt.Scalar", "aten.lt.Tensor"}, "lt");
  same({"aten.le.Scalar", "aten.le.Tensor"}, "le");
  same({"aten.gt.Scalar", "aten.gt.Tensor"}, "gt");
  same({"aten.ge.Scalar", "aten.ge.Tensor"}, "ge");
  same({"aten.fmod.Scalar", "aten.fmod.Tensor"}, "fmod");
  same({"aten.remainder.Scalar", "aten.remainder.Tensor"}, "remainder");
  same({"aten.maximum.default"}, "maximum");
  same({"aten.minimum.default"}, "minimum");
  same({"aten.logical_and.default"}, "logical_and");
  same({"aten.logical_or.default"}, "logical_or");
  same({"aten.bitwise_and.Tensor", "aten.bitwise_and.Scalar"}, "bitwise_and");
  same({"aten.bitwise_or.Tensor", "aten.bitwise_or.Scalar"}, "bitwise_or");
  same({"aten.bitwise_xor.Tensor", "aten.bitwise_xor.Scalar"}, "bitwise_xor");
  same({"aten.logical_not.default"}, "logical_not");
  same({"aten.bitwise_not.default"}, "bitwise_not");
  for (const char *op : {"neg", "relu", "sign", "floor", "ceil", "round", "silu", "sigmoid", "tanh", "exp", "log",
                         "sqrt", "rsqrt", "abs", "erf", "sin", "cos",
                         "reciprocal", "hardswish", "mish", "softplus", "gelu",
                         "hardtanh", "leaky_relu", "clamp", "tril", "triu", "tan", "asin",
                         "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh"})
    same({(std::string("aten.") + op + ".default").c_str()}, op);
  same({"aten.where.self"}, "where");
  same({"aten.masked_fill.Scalar", "aten.masked_fill.Tensor"}, "masked_fill");
  same({"aten.mm.default", "aten.bmm.default", "aten.matmul.default"}, "matmul");
  same({"aten.addmm.default"}, "addmm");
  same({"aten.linear.default"}, "linear");
  same({"aten.view.default", "aten._unsafe_view.default", "aten.reshape.default"}, "view");
  same({"aten.permute.default"}, "permute");
  same({"aten.t.default"}, "t");
  same({"aten.transpose.int"}, "transpose");
  same({"aten.clone.default", "aten.alias.default", "aten.detach.default",
        "aten.lift_fresh_copy.default", "aten.contiguous.default",
        "aten.dropout.default"},
       "clone");
  same({"aten.unsqueeze.default"}, "unsqueeze");
  same({"aten.squeeze.dim", "aten.squeeze.default"}, "squeeze");
  same({"aten.expand.default"}, "expand");
  same({"aten.cat.default"}, "cat");
  same({"aten.stack.default"}, "stack");
  same({"aten.unbind.int"}, "unbind");
  same({"aten.split_with_sizes.default", "aten.split.Tensor"}, "split");
  same({"aten.sym_size.int"}, "size");
  same({"aten.sym_numel.default"}, "numel");
  same({"aten._to_copy.default", "aten.to.dtype"}, "to");
  same({"aten.full.default"}, "full");
  same({"aten.arange.start_step", "aten.arange.default", "aten.arange.start"}, "arange");
  same({"aten.zeros_like.default"}, "zeros_like");
  same({"aten.ones_like.default"}, "ones_like");
  same({"aten.zeros.default"}, "zeros");
  same({"aten.ones.default"}, "ones");

  // Shape-checking nodes of the exported program: no value.
  for (const char *k : {"aten._assert_tensor_metadata.default", "aten._assert_scalar.default",
                        "aten.sym_constrain_range_for_size.default",
                        "aten.sym_constrain_range.default", "aten._assert_async.msg"})
    t[k] = noResult;

  t["aten.convolution.default"] = convolution;
  t["aten._native_batch_norm_legit_no_training.default"] = batchNormNoTraining;
  t["aten.native_layer_norm.default"] = nativeLayerNorm;
  t["aten.native_group_norm.default"] = nativeGroupNorm;
  t["aten._native_batch_norm_legit.default"] = batchNormLegit<false>;
  t["aten._native_batch_norm_legit.no_stats"] = batchNormLegit<true>;
  // _softmax(x, dim, half_to_float): softmax's first two arguments.
  t["aten._softmax.default"] = t.lookup("softmax");
  t["aten._log_softmax.default"] = t.lookup("log_softmax");
  t["aten._safe_softmax.default"] = safeSoftmax;
  t["aten.max_pool2d_with_indices.default"] = maxPoolWithIndices<2>;
  t["aten.max_pool3d_with_indices.default"] = maxPoolWithIndices<3>;
  same({"aten.avg_pool2d.default"}, "avg_pool2d");
  same({"aten.avg_pool3d.default"}, "avg_pool3d");
  t["aten._adaptive_avg_pool2d.default"] = t.lookup("adaptive_avg_pool2d");
  t["aten.adaptive_avg_pool2d.default"] = t.lookup("adaptive_avg_pool2d");
  t["aten.adaptive_avg_pool1d.default"] = t.lookup("adaptive_avg_pool1d");
  t["aten._adaptive_avg_pool3d.default"] = t.lookup("adaptive_avg_pool3d");
  t["aten.adaptive_avg_pool3d.default"] = t.lookup("adaptive_avg_pool3d");
  t["aten.embedding.default"] = embedding;
  same({"aten.sum.dim_IntList", "aten.sum.default"}, "sum");
  same({"aten.mean.dim", "aten.mean.default"}, "mean");
  same({"aten.amax.default"}, "amax");
  same({"aten.amin.default"}, "amin");
  same({"aten.prod.dim_int", "aten.prod.default"}, "prod");
  t["aten.any.dim"] = anyAll<true>;
  t["aten.any.dims"] = anyAll<true>;
  t["aten.any.default"] = anyAll<true>;
  t["aten.all.dim"] = anyAll<false>;
  t["aten.all.default"] = anyAll<false>;
  t["aten.var.correction"] = variance<false>;
  t["var"] = varStd<false, false>;
  t["std"] = varStd<true, false>;
  t["aten.std.correction"] = varStd<true, false>;
  t["aten.var_mean.correction"] = variance<true>;
  t["aten.std_mean.correction"] = varianceStd;
  t["var_mean"] = varStd<false, true>;
  t["std_mean"] = varStd<true, true>;
  t["aminmax"] = aminmax;
  t["aten.aminmax.default"] = aminmax;
  t["aten.argmax.default"] = argMax;
  t["aten.argmin.default"] = argMin;
  t["aten.max.dim"] = t.lookup("max");
  t["aten.min.dim"] = t.lookup("min");
  t["aten.slice.Tensor"] = slice;
  t["aten.select.int"] = select;
  t["aten.squeeze.dims"] = squeezeDims;
  t["aten.index.Tensor"] = indexTensor;
  t["aten.index_put.default"] = indexPut;
  t["aten.index_put_.default"] = indexPut;
  t["aten._unsafe_index_put.default"] = indexPut;
  t["index_put"] = indexPut; // x.index_put(indices, values, accumulate)
  t["index_put_"] = indexPut;
  t["aten.index_select.default"] = indexSelect;
  t["aten.gather.default"] = gatherFn;
  for (const char *k : {"scatter", "aten.scatter.src", "aten.scatter.value",
                        "aten.scatter.reduce", "aten.scatter.value_reduce"})
    t[k] = scatterFn<0>;
  t["scatter_add"] = scatterFn<1>;
  t["aten.scatter_add.default"] = scatterFn<1>;
  t["scatter_reduce"] = scatterFn<2>;
  t["aten.scatter_reduce.two"] = scatterFn<2>;
  t["aten.cumsum.default"] = cumulative<CumSumOp>;
  t["aten.cumprod.default"] = cumulative<CumProdOp>;
  t["cumprod"] = cumulative<CumProdOp>;
  t["aten.constant_pad_nd.default"] = constantPad;
  t["aten.copy.default"] = copy;
  t["aten.slice_scatter.default"] = sliceScatter;
  t["aten.select_scatter.default"] = selectScatter;
  t["aten.as_strided.default"] = asStrided;
  t["aten.scalar_tensor.default"] = scalarTensor;
  t["aten.full_like.default"] = fullLike;
  t["full_like"] = fullLike;
  t["aten.fill.Scalar"] = fullLike;
  t["aten.new_zeros.default"] = newFilled<0>;
  t["aten.new_ones.default"] = newFilled<1>;
  t["aten.new_full.default"] = newFilled<-1>;
  t["aten.new_empty.default"] = newFilled<0>;
  t["aten.empty.memory_format"] = emptyFn;
  t["aten.clamp_min.default"] = clampOne<true>;
  t["aten.clamp_max.default"] = clampOne<false>;
  t["aten.topk.default"] = topk;
  t["sort"] = sortFn<false>;
  t["argsort"] = sortFn<true>;
  t["aten.sort.default"] = sortFn<false>;
  t["aten.sort.stable"] = sortFn<false>;
  t["aten.argsort.default"] = sortFn<true>;
  t["aten.argsort.stable"] = sortFn<true>;
  for (const char *f : {"flip", "roll", "addcmul", "baddbmm", "logsumexp", "nan_to_num",
                        "pixel_shuffle", "pixel_unshuffle", "isnan"})
    same({("aten." + std::string(f) + ".default").c_str()}, f);
  // The torch functions and methods whose arguments are the ATen op's.
  for (auto [torchName, aten] :
       {std::pair<const char *, const char *>{"gather", "aten.gather.default"},
        {"topk", "aten.topk.default"},
        {"argmax", "aten.argmax.default"},
        {"argmin", "aten.argmin.default"},
        {"all", "aten.all.dim"},
        {"any", "aten.any.dim"}})
    if (!t.count(torchName))
      t[torchName] = t.lookup(aten);
  t["aten.expm1.default"] = plusMinusOne<true>;
  t["aten.log1p.default"] = plusMinusOne<false>;
  t["expm1"] = plusMinusOne<true>;
  t["log1p"] = plusMinusOne<false>;
  t["clamp_min"] = clampOne<true>;
  t["clamp_max"] = clampOne<false>;
  t["new_zeros"] = newFilled<0>;
  t["new_ones"] = newFilled<1>;
  t["new_full"] = newFilled<-1>;
  t["new_empty"] = newFilled<0>;
  t["new_tensor"] = newTensor;
  t["empty_like"] = t.lookup("zeros_like");
  t["aten.empty_like.default"] = t.lookup("zeros_like");
  t["aten.empty_permuted.default"] = emptyFn;
  t["aten.rrelu_with_noise_functional.default"] = rreluWithNoise;
  t["aten.repeat.default"] = repeat;
  t["repeat"] = repeat;
  t["cumsum"] = cumulative<CumSumOp>;
  t["index_select"] = indexSelect;
  t["pad"] = padFn;
  t["group_norm"] = groupNormFn;
  t["normalize"] = normalizeFn;
  t["reshape_as"] = reshapeAs;
  t["type"] = typeFn;
  t["repeat_interleave"] = repeatInterleave;
  t["aten.repeat_interleave.self_int"] = repeatInterleave;
  t["unfold"] = unfoldFn;
  t["fold"] = foldFn;
  t["aten.col2im.default"] = foldFn;
  for (const char *k : {"ops.torchvision.deform_conv2d", "torchvision.deform_conv2d.default"})
    t[k] = deformConv2d;
  t["aten.unfold.default"] = unfoldFn;
  t["interpolate"] = interpolateFn;
  t["upsample"] = interpolateFn;
  t["aten.upsample_nearest2d.vec"] = upsample<false>;
  t["aten.upsample_bilinear2d.vec"] = upsample<true>;
  t["aten.upsample_nearest1d.vec"] = upsample<false>;
  t["aten.upsample_nearest3d.vec"] = upsample<false>;
  t["aten.upsample_linear1d.vec"] = upsample<true>;
  t["aten.upsample_trilinear3d.vec"] = upsample<true>;
  t["aten.upsample_bicubic2d.vec"] = upsample<true, true>;
  t["aten._upsample_bilinear2d_aa.vec"] = upsampleAntialias<false, true>;
  t["aten._upsample_bicubic2d_aa.vec"] = upsampleAntialias<true, true>;
  t["aten._upsample_bilinear2d_aa.default"] = upsampleAntialias<false, false>;
  t["aten._upsample_bicubic2d_aa.default"] = upsampleAntialias<true, false>;

  // The *_copy forms functionalization writes for views compute the same
  // values as the views.
  for (const char *view : {"aten.view.default", "aten.permute.default", "aten.t.default",
                           "aten.transpose.int", "aten.unsqueeze.default",
                           "aten.squeeze.dim", "aten.squeeze.dims", "aten.squeeze.default",
                           "aten.expand.default", "aten.alias.default",
                           "aten.slice.Tensor", "aten.select.int",
                           "aten.split_with_sizes.default", "aten.split.Tensor",
                           "aten.unbind.int", "aten.as_strided.default",
                           "aten._unsafe_view.default"}) {
    StringRef name(view);
    auto [op, overload] = name.drop_front(5).split('.');
    t[("aten." + op + "_copy." + overload).str()] = t.lookup(view);
  }
}
