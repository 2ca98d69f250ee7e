//===- FXNN.cpp - FX reductions and torch.nn.functional targets -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FXImporter.h"

#include "dfa/Reference/Evaluator.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::fximport;

namespace {
using R = PyValue;
} // namespace

FailureOr<SmallVector<int64_t>> dfa::fximport::reduceDims(FXNode &n, Value x,
                                                          const R *d) {
  int64_t rank = n.type(x).getRank();
  std::vector<int64_t> raw;
  if (d && d->kind == R::Int)
    raw.push_back(d->i);
  else if (d && d->kind == R::List)
    for (const R &e : d->list) {
      if (e.kind != R::Int) {
        n.error() << "dims must be ints, got " << e.describe();
        return failure();
      }
      raw.push_back(e.i);
    }
  SmallVector<int64_t> dims;
  if (raw.empty())
    for (int64_t i = 0; i < rank; ++i)
      dims.push_back(i);
  for (int64_t v : raw) {
    auto dd = n.dim(v, rank);
    if (failed(dd))
      return failure();
    if (rank > 0)
      dims.push_back(*dd);
  }
  llvm::sort(dims);
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  return dims;
}

namespace {

/// sum, mean, amax, ... over `dim` (all when absent), in the `dtype=` type
/// when given; torch sums and multiplies integers and bools in int64.
template <typename OpT> LogicalResult reduce(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  auto dims = reduceDims(n, *x, n.arg(1, "dim"));
  auto keep = n.intArg(2, "keepdim", 0);
  if (failed(dims) || failed(keep))
    return failure();
  Value v = *x;
  if (Type want = n.dtypeArg())
    v = n.cast(v, want);
  else if (isa<IntegerType>(n.type(v).getElementType()) &&
           (std::is_same_v<OpT, ReduceSumOp> || std::is_same_v<OpT, ReduceProdOp>))
    v = n.cast(v, n.b.getI64Type());
  r = R::ofTensor(n.b.create<OpT>(n.loc, v, n.b.getDenseI64ArrayAttr(*dims),
                                  n.b.getBoolAttr(*keep)));
  return success();
}

/// torch.max(x) / torch.max(x, dim, keepdim) -> (values, indices) /
/// torch.max(x, other).
template <bool IsMax> LogicalResult maxMin(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  const R *d = n.arg(1, "dim");
  if (d && d->kind == R::Tensor) {
    if (IsMax)
      return r = R::ofTensor(n.b.create<MaxOp>(n.loc, *x, d->tensor)), success();
    return r = R::ofTensor(n.b.create<MinOp>(n.loc, *x, d->tensor)), success();
  }
  auto keep = n.intArg(2, "keepdim", 0);
  auto dims = reduceDims(n, *x, d);
  if (failed(keep) || failed(dims))
    return failure();
  auto axes = n.b.getDenseI64ArrayAttr(*dims);
  Value vals = IsMax ? Value(n.b.create<ReduceMaxOp>(n.loc, *x, axes, n.b.getBoolAttr(*keep)))
                     : Value(n.b.create<ReduceMinOp>(n.loc, *x, axes, n.b.getBoolAttr(*keep)));
  if (!d || d->kind == R::None) {
    r = R::ofTensor(vals);
    return success();
  }
  if (dims->size() != 1) {
    n.error() << (IsMax ? "max" : "min")
              << " with values and indices takes one dim, not "
              << dims->size();
    return failure();
  }
  auto axis = n.b.getI64IntegerAttr((*dims)[0]);
  Value idx = IsMax ? Value(n.b.create<ArgMaxOp>(n.loc, *x, axis, n.b.getBoolAttr(*keep),
                                                 n.b.getBoolAttr(false)))
                    : Value(n.b.create<ArgMinOp>(n.loc, *x, axis, n.b.getBoolAttr(*keep),
                                                 n.b.getBoolAttr(false)));
  r = R::ofList({R::ofTensor(vals), R::ofTensor(idx)});
  return success();
}

template <bool Log> LogicalResult softmaxFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto d = n.intArg(1, "dim", -1);
  if (failed(x) || failed(d))
    return failure();
  auto v = softmax(n, *x, *d, Log);
  if (failed(v))
    return failure();
  r = R::ofTensor(*v);
  return success();
}

LogicalResult layerNormFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto shape = n.intList(1, "normalized_shape", false);
  auto eps = n.floatArg(4, "eps", 1e-5);
  if (failed(x) || failed(shape) || failed(eps))
    return failure();
  auto v = layerNorm(n, *x, *shape, n.optTensor(2, "weight"), n.optTensor(3, "bias"), *eps);
  if (failed(v))
    return failure();
  r = R::ofTensor(*v);
  return success();
}

LogicalResult embeddingFn(FXNode &n, R &r) {
  auto idx = n.tensor(0, "input"), w = n.tensor(1, "weight");
  if (failed(idx) || failed(w))
    return failure();
  if (!isa<IntegerType>(n.type(*idx).getElementType()) || n.type(*w).getRank() != 2) {
    n.error() << "embedding needs integer indices and a 2-d table";
    return failure();
  }
  r = R::ofTensor(n.b.create<GatherOp>(n.loc, *w, *idx, n.b.getI64IntegerAttr(0)));
  return success();
}


LogicalResult convFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), w = n.tensor(1, "weight");
  if (failed(x) || failed(w))
    return failure();
  const R *pad = n.arg(4, "padding");
  std::optional<std::string> how;
  if (pad && pad->kind == R::Str)
    how = pad->s;
  auto stride = n.optIntList(3, "stride", {}),
       padding = how ? FailureOr<std::vector<int64_t>>(std::vector<int64_t>())
                     : n.optIntList(4, "padding", {}),
       dilation = n.optIntList(5, "dilation", {});
  auto groups = n.intArg(6, "groups", 1);
  if (failed(stride) || failed(padding) || failed(dilation) || failed(groups))
    return failure();
  auto v = convPadded(n, *x, *w, n.optTensor(2, "bias"), *stride, how, *padding, *dilation,
                      *groups, "zeros");
  if (failed(v))
    return failure();
  r = R::ofTensor(*v);
  return success();
}

/// F.conv_transpose1d/2d/3d(input, weight, bias, stride, padding,
/// output_padding, groups, dilation).
LogicalResult convTransposeFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), w = n.tensor(1, "weight");
  auto stride = n.optIntList(3, "stride", {}), padding = n.optIntList(4, "padding", {}),
       outPad = n.optIntList(5, "output_padding", {}),
       dilation = n.optIntList(7, "dilation", {});
  auto groups = n.intArg(6, "groups", 1);
  if (failed(x) || failed(w) || failed(stride) || failed(padding) || failed(outPad) ||
      failed(dilation) || failed(groups))
    return failure();
  return setTensor(r, convTranspose(n, *x, *w, n.optTensor(2, "bias"), *stride, *padding,
                                    *outPad, *dilation, *groups));
}

/// F.batch_norm: with the running statistics, or in training mode (or
/// without them) with the batch's own, as timm's weight standardization
/// calls it; the update of the running statistics is a side effect no
/// output reads.
LogicalResult batchNormFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  Value mean = n.optTensor(1, "running_mean"), var = n.optTensor(2, "running_var");
  auto training = n.intArg(5, "training", 0);
  auto eps = n.floatArg(7, "eps", 1e-5);
  if (failed(x) || failed(training) || failed(eps))
    return failure();
  if (n.type(*x).getRank() < 2) {
    n.error() << "batch norm needs [N, C, ...], got " << x->getType();
    return failure();
  }
  if (*training || !mean || !var)
    std::tie(mean, var) = batchStatistics(n, *x);
  return setTensor(r, batchNorm(n, *x, n.optTensor(3, "weight"),
                                n.optTensor(4, "bias"), mean, var, *eps));
}
} // namespace

/// Pooling shared with the modules.
FailureOr<Value> dfa::fximport::pool(FXNode &n, Value x, bool isMax, int64_t spatial,
                                     std::vector<int64_t> k, std::vector<int64_t> s,
                                     std::vector<int64_t> p, std::vector<int64_t> d, bool ceil,
                                     bool countIncludePad) {
  auto t = n.type(x);
  if (t.getRank() == spatial + 1) { // unbatched: one image
    SmallVector<int64_t> batched{1};
    batched.append(t.getShape().begin(), t.getShape().end());
    auto y = pool(n, n.reshape(x, batched), isMax, spatial, k, s, p, d, ceil, countIncludePad);
    if (failed(y))
      return failure();
    return n.reshape(*y, n.type(*y).getShape().drop_front());
  }
  if (t.getRank() != spatial + 2) {
    n.error() << spatial << "-d pooling needs a [N, C, " << (spatial == 1 ? "L" : "spatial...")
              << "] input, got " << x.getType();
    return failure();
  }
  // One int (or none) stands for every spatial dim.
  auto each = [&](std::vector<int64_t> &v, int64_t dflt) {
    if (v.empty())
      v.assign(spatial, dflt);
    else if (v.size() == 1)
      v.assign(spatial, v[0]);
    return int64_t(v.size()) == spatial;
  };
  bool ok = each(k, 1);
  if (s.empty())
    s = k;
  ok &= each(s, 1) && each(p, 0) && each(d, 1);
  if (!ok) {
    n.error() << "window attributes do not match " << spatial << " spatial dims";
    return failure();
  }
  for (int64_t i = 0; i < spatial; ++i) {
    if (k[i] < 1 || s[i] < 1 || d[i] < 1 || p[i] < 0) {
      n.error() << "kernel, strides and dilations must be positive and padding not negative";
      return failure();
    }
    if (windowOutputSize(t.getDimSize(i + 2), k[i], s[i], p[i], p[i], d[i], ceil) < 1) {
      n.error() << "the pooling window does not fit " << x.getType();
      return failure();
    }
  }
  SmallVector<int64_t> pads(p.begin(), p.end());
  pads.append(p.begin(), p.end());
  if (isMax)
    return Value(n.b.create<MaxPoolOp>(n.loc, x, n.b.getDenseI64ArrayAttr(k),
                                       n.b.getDenseI64ArrayAttr(s), n.b.getDenseI64ArrayAttr(pads),
                                       n.b.getDenseI64ArrayAttr(d), n.b.getBoolAttr(ceil)));
  return Value(n.b.create<AvgPoolOp>(n.loc, x, n.b.getDenseI64ArrayAttr(k),
                                     n.b.getDenseI64ArrayAttr(s), n.b.getDenseI64ArrayAttr(pads),
                                     n.b.getBoolAttr(ceil), n.b.getBoolAttr(countIncludePad),
                                     n.b.getDenseI64ArrayAttr({})));
}

FailureOr<Value> dfa::fximport::adaptiveAvgPool(FXNode &n, Value x, std::vector<int64_t> out,
                                                int64_t spatial) {
  auto t = n.type(x);
  if (spatial < 1 || spatial > 3 || (t.getRank() != spatial + 1 && t.getRank() != spatial + 2) ||
      out.empty()) {
    n.error() << "adaptive pooling over " << spatial << " spatial dims needs a "
              << spatial + 1 << "-d or " << spatial + 2 << "-d input and an output size, got "
              << x.getType();
    return failure();
  }
  if (t.getRank() == spatial + 1) { // unbatched: one image
    SmallVector<int64_t> batched{1};
    batched.append(t.getShape().begin(), t.getShape().end());
    auto y = adaptiveAvgPool(n, n.reshape(x, batched), out, spatial);
    if (failed(y))
      return failure();
    return n.reshape(*y, n.type(*y).getShape().drop_front());
  }
  int64_t k = spatial;
  if (out.size() == 1)
    out.assign(k, out[0]);
  // A size of None (-1 here) keeps the input's.
  for (size_t i = 0; i < out.size() && int64_t(i) < k; ++i)
    if (out[i] < 0)
      out[i] = t.getDimSize(2 + i);
  if (int64_t(out.size()) != k || llvm::any_of(out, [](int64_t o) { return o < 1; })) {
    n.error() << "adaptive pooling of " << x.getType() << " needs " << k
              << " positive output sizes";
    return failure();
  }
  if (llvm::all_of(out, [](int64_t o) { return o == 1; }) && k == 2)
    return Value(n.b.create<GlobalAvgPoolOp>(n.loc, x));
  bool whole = true;
  for (int64_t i = 0; i < k; ++i)
    whole &= t.getDimSize(2 + i) % out[i] == 0;
  if (whole && k == 2) {
    int64_t h = t.getDimSize(2), w = t.getDimSize(3);
    return pool(n, x, false, 2, {h / out[0], w / out[1]}, {h / out[0], w / out[1]}, {0, 0},
                {1, 1}, false, false);
  }
  // Otherwise each dim separately: output i averages the inputs from
  // floor(i * in / out) to ceil((i + 1) * in / out), windows that may
  // overlap, a product with a constant [in, out] matrix of 1 / count.
  Value v = x;
  for (int64_t i = 0; i < k; ++i) {
    int64_t d = 2 + i, in = t.getDimSize(d), o = out[i];
    if (in == o)
      continue;
    std::vector<float> m(in * o, 0.0f);
    for (int64_t j = 0; j < o; ++j) {
      int64_t start = (j * in) / o, end = ((j + 1) * in + o - 1) / o;
      for (int64_t e = start; e < end; ++e)
        m[e * o + j] = float(1.0 / double(end - start));
    }
    v = buildMixAlongDim(n.b, n.loc, v, d, m);
  }
  return v;
}

LogicalResult dfa::fximport::withPoolIndices(FXNode &n, Value values, PyValue &r) {
  auto reshape = values.getDefiningOp<ReshapeOp>(); // an unbatched input
  auto op = (reshape ? reshape.getInput() : values).getDefiningOp<MaxPoolOp>();
  if (!op) {
    n.error() << "max pooling with indices did not lower to one max_pool";
    return failure();
  }
  Value indices = buildMaxPoolIndices(n.b, n.loc, op, false, false);
  if (reshape)
    indices = n.reshape(indices, n.type(values).getShape());
  r = PyValue::ofList({PyValue::ofTensor(values), PyValue::ofTensor(indices)});
  return success();
}

/// max_unpool1d/2d/3d(input, indices, kernel_size, stride=None, padding=0,
/// output_size=None): each value written into zeros at its index in its
/// [N, C] plane (the indices a max pooling returned).
template <int Spatial> LogicalResult maxUnpoolFn(FXNode &n, PyValue &r) {
  auto x = n.tensor(0, "input"), idx = n.tensor(1, "indices");
  auto k = n.optIntList(2, "kernel_size", {}), s = n.optIntList(3, "stride", {}),
       p = n.optIntList(4, "padding", {0}), size = n.optIntList(5, "output_size", {});
  if (failed(x) || failed(idx) || failed(k) || failed(s) || failed(p) || failed(size))
    return failure();
  auto t = n.type(*x);
  bool batched = t.getRank() == Spatial + 2;
  if ((!batched && t.getRank() != Spatial + 1) || n.type(*idx).getShape() != t.getShape() ||
      !isa<IntegerType>(n.type(*idx).getElementType())) {
    n.error() << "max_unpool of " << x->getType() << " with indices " << idx->getType();
    return failure();
  }
  auto each = [&](std::vector<int64_t> &v, int64_t dflt) {
    if (v.empty())
      v.assign(Spatial, dflt);
    else if (v.size() == 1)
      v.assign(Spatial, v[0]);
    return int64_t(v.size()) == Spatial;
  };
  bool ok = each(*k, 1);
  if (s->empty())
    *s = *k;
  ok &= each(*s, 1) && each(*p, 0);
  SmallVector<int64_t> out;
  int64_t lead = t.getRank() - Spatial;
  for (int64_t d = 0; d < Spatial; ++d)
    out.push_back((t.getDimSize(lead + d) - 1) * (*s)[d] - 2 * (*p)[d] + (*k)[d]);
  if (!size->empty()) { // the last Spatial entries are the spatial size
    if (int64_t(size->size()) < Spatial) {
      n.error() << "max_unpool output_size needs " << Spatial << " spatial sizes";
      return failure();
    }
    out.assign(size->end() - Spatial, size->end());
  }
  int64_t planes = 1, in = 1, total = 1;
  for (int64_t d = 0; d < lead; ++d)
    planes *= t.getDimSize(d);
  for (int64_t d = 0; d < Spatial; ++d) {
    in *= t.getDimSize(lead + d);
    if (!ok || out[d] < 1) {
      n.error() << "max_unpool window attributes or sizes do not fit " << x->getType();
      return failure();
    }
    total *= out[d];
  }
  Type elt = t.getElementType();
  auto zt = RankedTensorType::get({planes, total}, elt);
  Value zeros = n.b.create<ConstantOp>(n.loc, DenseElementsAttr::get(zt, n.b.getZeroAttr(elt)));
  Value y = n.b.create<ScatterElementsOp>(
      n.loc, zt, zeros, n.reshape(n.cast(*idx, n.b.getI64Type()), {planes, in}),
      n.reshape(*x, {planes, in}), n.b.getI64IntegerAttr(1), n.b.getStringAttr("none"));
  SmallVector<int64_t> shape(t.getShape().take_front(lead));
  shape.append(out.begin(), out.end());
  r = PyValue::ofTensor(n.reshape(y, shape));
  return success();
}

/// aten.max_unpool2d(self, indices, output_size) and aten.max_unpool3d(self,
/// indices, output_size, stride, padding): the output size given.
template <int Spatial> LogicalResult atenMaxUnpool(FXNode &n, PyValue &r) {
  std::vector<PyValue> args = {n.args.size() > 0 ? n.args[0] : PyValue(),
                               n.args.size() > 1 ? n.args[1] : PyValue(), PyValue(),
                               PyValue(), PyValue(),
                               n.args.size() > 2 ? n.args[2] : PyValue()};
  if (Spatial == 3 && n.args.size() > 4) {
    args[3] = n.args[3];
    args[4] = n.args[4];
    args[2] = n.args[3]; // a kernel is not needed with the size given
  } else {
    args[2] = PyValue::ofInt(1);
  }
  FXNode call(n.imp, n.b, n.loc, n.name, n.target, std::move(args), {}, n.module);
  return maxUnpoolFn<Spatial>(call, r);
}

namespace {
/// max_pool1d/2d/3d(x, kernel_size, stride, padding, dilation, ceil_mode,
/// return_indices).
template <int Spatial> LogicalResult maxPoolFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto k = n.optIntList(1, "kernel_size", {}), s = n.optIntList(2, "stride", {}),
       p = n.optIntList(3, "padding", {0}), d = n.optIntList(4, "dilation", {1});
  auto ceil = n.intArg(5, "ceil_mode", 0), idx = n.intArg(6, "return_indices", 0);
  if (failed(x) || failed(k) || failed(s) || failed(p) || failed(d) || failed(ceil) ||
      failed(idx))
    return failure();
  auto y = pool(n, *x, true, Spatial, *k, *s, *p, *d, *ceil, false);
  if (failed(y) || !*idx)
    return setTensor(r, y);
  return withPoolIndices(n, *y, r);
}

/// F.max_pool1d/2d/3d_with_indices (what F.max_poolNd(..., return_indices=
/// True) calls): the same arguments, the indices always returned.
template <int Spatial> LogicalResult maxPoolWithIndicesFn(FXNode &n, R &r) {
  std::vector<R> args(n.args);
  std::map<std::string, R> kwargs(n.kwargs);
  R yes = R::ofInt(1);
  yes.kind = R::Bool;
  if (args.size() > 6)
    args[6] = yes;
  else
    kwargs["return_indices"] = yes;
  FXNode call(n.imp, n.b, n.loc, n.name, n.target, std::move(args), std::move(kwargs),
              n.module);
  return maxPoolFn<Spatial>(call, r);
}

/// avg_pool1d/2d/3d(x, kernel_size, stride, padding, ceil_mode,
/// count_include_pad[, divisor_override]).
template <int Spatial> LogicalResult avgPoolFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto k = n.optIntList(1, "kernel_size", {}), s = n.optIntList(2, "stride", {}),
       p = n.optIntList(3, "padding", {0});
  auto ceil = n.intArg(4, "ceil_mode", 0), cip = n.intArg(5, "count_include_pad", 1);
  if (failed(x) || failed(k) || failed(s) || failed(p) || failed(ceil) || failed(cip))
    return failure();
  if (const R *div = Spatial > 1 ? n.arg(6, "divisor_override") : nullptr;
      div && div->kind != R::None) {
    n.unsupported() << "divisor_override";
    return failure();
  }
  return setTensor(r, pool(n, *x, false, Spatial, *k, *s, *p, {1}, *ceil, *cip));
}

/// adaptive_avg_pool1d/2d/3d(x, output_size): an int, or a list whose None
/// entries keep the input's size.
template <int Spatial> LogicalResult adaptiveAvgPoolFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  const R *o = n.arg(1, "output_size");
  std::vector<int64_t> out;
  if (o && o->kind == R::Int) {
    out.push_back(o->i);
  } else if (o && o->kind == R::List) {
    for (const R &e : o->list) {
      if (e.kind != R::Int && e.kind != R::None) {
        n.error() << "output_size holds " << e.describe();
        return failure();
      }
      out.push_back(e.kind == R::None ? -1 : e.i);
    }
  }
  return setTensor(r, adaptiveAvgPool(n, *x, out, Spatial));
}

LogicalResult sdpa(FXNode &n, R &r) {
  auto q = n.tensor(0, "query"), k = n.tensor(1, "key"), v = n.tensor(2, "value");
  auto dropout = n.floatArg(4, "dropout_p", 0.0);
  auto causal = n.intArg(5, "is_causal", 0);
  auto scale = n.floatArg(6, "scale", std::nan(""));
  auto gqa = n.intArg(7, "enable_gqa", 0);
  if (failed(q) || failed(k) || failed(v) || failed(dropout) || failed(causal) ||
      failed(scale) || failed(gqa))
    return failure();
  // The functional applies dropout whenever dropout_p > 0 (it knows no
  // eval mode): random, not a function of the inputs.
  if (*dropout != 0.0) {
    n.error() << "scaled_dot_product_attention with dropout_p = " << *dropout
              << " is random; export the model with dropout_p = 0 (eval)";
    return failure();
  }
  // enable_gqa: each K/V head serves a group of query heads (dim -3), as
  // torch repeat_interleaves it; written as HF's repeat_kv (a broadcast of a
  // unit dim, then a reshape), which graph-raise and the fusion take as a
  // repeat the attention kernel reads in place.
  Value key = *k, value = *v;
  if (*gqa) {
    auto qt = n.type(*q);
    for (Value *kv : {&key, &value}) {
      auto t = n.type(*kv);
      int64_t rank = t.getRank();
      if (rank < 3 || qt.getRank() != rank || t.getDimSize(rank - 3) < 1 ||
          qt.getDimSize(rank - 3) % t.getDimSize(rank - 3)) {
        n.error() << "enable_gqa: query " << q->getType() << " has "
                  << (qt.getRank() >= 3 ? qt.getDimSize(qt.getRank() - 3) : 0)
                  << " heads (dim -3), not a whole multiple of the " << t.getDimSize(rank - 3)
                  << " of " << kv->getType();
        return failure();
      }
      int64_t heads = t.getDimSize(rank - 3), group = qt.getDimSize(rank - 3) / heads;
      if (group == 1)
        continue;
      SmallVector<int64_t> unit(t.getShape());
      unit.insert(unit.begin() + (rank - 2), 1);
      SmallVector<int64_t> wide(unit);
      wide[rank - 2] = group;
      Value x = n.b.create<ExpandOp>(n.loc, RankedTensorType::get(wide, t.getElementType()),
                                     n.reshape(*kv, unit));
      SmallVector<int64_t> merged(t.getShape());
      merged[rank - 3] = heads * group;
      *kv = n.reshape(x, merged);
    }
  }
  auto out = attention(n, *q, key, value, n.optTensor(3, "attn_mask"), *causal, nullptr,
                       /*safe=*/true, *scale);
  return setTensor(r, out);
}
} // namespace

void dfa::fximport::addReductionHandlers(llvm::StringMap<Handler> &t) {
  t["mean"] = reduce<ReduceMeanOp>;
  t["sum"] = reduce<ReduceSumOp>;
  t["amax"] = reduce<ReduceMaxOp>;
  t["amin"] = reduce<ReduceMinOp>;
  t["prod"] = reduce<ReduceProdOp>;
  t["max"] = maxMin<true>;
  t["min"] = maxMin<false>;
  t["softmax"] = softmaxFn<false>;
  t["log_softmax"] = softmaxFn<true>;
  t["layer_norm"] = layerNormFn;
  t["embedding"] = embeddingFn;
  t["conv1d"] = convFn;
  t["conv2d"] = convFn;
  t["conv3d"] = convFn;
  t["conv_transpose1d"] = convTransposeFn;
  t["conv_transpose2d"] = convTransposeFn;
  t["conv_transpose3d"] = convTransposeFn;
  t["batch_norm"] = batchNormFn;
  t["max_pool1d"] = maxPoolFn<1>;
  t["max_pool2d"] = maxPoolFn<2>;
  t["max_pool3d"] = maxPoolFn<3>;
  t["max_pool1d_with_indices"] = maxPoolWithIndicesFn<1>;
  t["max_pool2d_with_indices"] = maxPoolWithIndicesFn<2>;
  t["max_pool3d_with_indices"] = maxPoolWithIndicesFn<3>;
  t["max_unpool1d"] = maxUnpoolFn<1>;
  t["max_unpool2d"] = maxUnpoolFn<2>;
  t["max_unpool3d"] = maxUnpoolFn<3>;
  t["aten.max_unpool2d.default"] = atenMaxUnpool<2>;
  t["aten.max_unpool3d.default"] = atenMaxUnpool<3>;
  t["avg_pool1d"] = avgPoolFn<1>;
  t["avg_pool2d"] = avgPoolFn<2>;
  t["avg_pool3d"] = avgPoolFn<3>;
  t["adaptive_avg_pool1d"] = adaptiveAvgPoolFn<1>;
  t["adaptive_avg_pool2d"] = adaptiveAvgPoolFn<2>;
  t["adaptive_avg_pool3d"] = adaptiveAvgPoolFn<3>;
  t["scaled_dot_product_attention"] = sdpa;
}
