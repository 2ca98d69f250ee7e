//===- FXModules.cpp - handlers of call_module nodes ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Leaf modules of torch.nn, by class name. Their hyper-parameters come
/// from the module record the exporter wrote, their parameters are weight
/// references, and they lower through the same helpers as the functional
/// forms.
///
//===----------------------------------------------------------------------===//

#include "FXImporter.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::fximport;

namespace {
using R = PyValue;

LogicalResult linearModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  Value w = n.requiredParam("weight");
  if (failed(x) || !w)
    return failure();
  return setTensor(r, linear(n, *x, w, n.param("bias")));
}

LogicalResult convModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  Value w = n.requiredParam("weight");
  if (failed(x) || !w)
    return failure();
  int64_t s = n.type(*x).getRank() - 2;
  const auto *pad = n.attr("padding");
  const auto *modeAttr = n.attr("padding_mode");
  std::string mode = modeAttr && modeAttr->getAsString() ? modeAttr->getAsString()->str() : "zeros";
  std::optional<std::string> how;
  if (pad && pad->getAsString())
    how = pad->getAsString()->str();
  return setTensor(r, convPadded(n, *x, w, n.param("bias"), n.attrInts("stride", s), how,
                                 n.attrInts("padding", s), n.attrInts("dilation", s),
                                 n.attrInt("groups", 1), mode));
}

/// nn.ConvTranspose1d/2d/3d (zeros padding only, as torch allows).
LogicalResult convTransposeModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  Value w = n.requiredParam("weight");
  if (failed(x) || !w)
    return failure();
  int64_t s = n.type(w).getRank() - 2;
  std::vector<int64_t> stride = n.attrInts("stride", s), padding = n.attrInts("padding", s),
                       outPad = n.attrInts("output_padding", s),
                       dilation = n.attrInts("dilation", s);
  // A call's output_size picks the output padding (torch's _output_padding:
  // the size over the smallest one, less than the stride).
  if (const R *os = n.arg(1, "output_size"); os && os->kind == R::List) {
    auto xt = n.type(*x);
    int64_t given = os->list.size();
    if (given < s || stride.size() != size_t(s) || padding.size() != size_t(s) ||
        dilation.size() != size_t(s)) {
      n.error() << "output_size needs " << s << " spatial sizes";
      return failure();
    }
    outPad.assign(s, 0);
    for (int64_t i = 0; i < s; ++i) {
      const R &e = os->list[given - s + i];
      int64_t in = xt.getDimSize(xt.getRank() - s + i);
      int64_t least = (in - 1) * stride[i] - 2 * padding[i] +
                      dilation[i] * (n.type(w).getDimSize(2 + i) - 1) + 1;
      if (e.kind != R::Int || e.i < least || e.i >= least + stride[i]) {
        n.error() << "output_size " << e.describe() << " of spatial dim " << i
                  << " is not between " << least << " and " << least + stride[i] - 1;
        return failure();
      }
      outPad[i] = e.i - least;
    }
  }
  return setTensor(r, convTranspose(n, *x, w, n.param("bias"), stride, padding, outPad,
                                    dilation, n.attrInt("groups", 1)));
}

LogicalResult batchNormModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  Value mean = n.param("running_mean"), var = n.param("running_var");
  if (failed(x))
    return failure();
  if (!mean || !var) {
    n.unsupported() << "batch norm without running statistics";
    return failure();
  }
  return setTensor(r, batchNorm(n, *x, n.param("weight"), n.param("bias"), mean,
                                var, n.attrFloat("eps", 1e-5)));
}

LogicalResult layerNormModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  return setTensor(r, layerNorm(n, *x, n.attrInts("normalized_shape", 1), n.param("weight"),
                           n.param("bias"), n.attrFloat("eps", 1e-5)));
}

LogicalResult embeddingModule(FXNode &n, R &r) {
  auto idx = n.tensor(0, "input");
  Value w = n.requiredParam("weight");
  if (failed(idx) || !w)
    return failure();
  if (!isa<IntegerType>(n.type(*idx).getElementType())) {
    n.error() << "embedding indices must be integers";
    return failure();
  }
  r = R::ofTensor(n.b.create<GatherOp>(n.loc, w, *idx, n.b.getI64IntegerAttr(0)));
  return success();
}

LogicalResult passThrough(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  r = R::ofTensor(*x);
  return success();
}

template <typename OpT> LogicalResult unaryModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  r = R::ofTensor(n.b.create<OpT>(n.loc, *x));
  return success();
}

LogicalResult geluModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  const auto *a = n.attr("approximate");
  bool tanh = a && a->getAsString() == "tanh";
  r = R::ofTensor(n.b.create<GeluOp>(n.loc, *x, n.b.getBoolAttr(tanh)));
  return success();
}

LogicalResult clipModule(FXNode &n, R &r, double lo, double hi) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  r = R::ofTensor(n.b.create<ClipOp>(n.loc, *x, n.b.getF64FloatAttr(lo),
                                     n.b.getF64FloatAttr(hi)));
  return success();
}

LogicalResult relu6Module(FXNode &n, R &r) { return clipModule(n, r, 0, 6); }
LogicalResult hardtanhModule(FXNode &n, R &r) {
  return clipModule(n, r, n.attrFloat("min_val", -1), n.attrFloat("max_val", 1));
}

LogicalResult leakyReluModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  r = R::ofTensor(n.b.create<LeakyReluOp>(
      n.loc, *x, n.b.getF64FloatAttr(n.attrFloat("negative_slope", 0.01))));
  return success();
}

template <bool Log> LogicalResult softmaxModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  const auto *d = n.attr("dim");
  if (failed(x))
    return failure();
  if (!d || !d->getAsInteger()) {
    n.unsupported() << "softmax without an explicit dim";
    return failure();
  }
  return setTensor(r, softmax(n, *x, *d->getAsInteger(), Log));
}

LogicalResult flattenModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  return setTensor(r, flattenDims(n, *x, n.attrInt("start_dim", 1),
                                  n.attrInt("end_dim", -1)));
}

template <bool IsMax> LogicalResult poolModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  std::vector<int64_t> stride = n.attrInts("stride", 2);
  auto y = pool(n, *x, IsMax, 2, n.attrInts("kernel_size", 2), stride, n.attrInts("padding", 2),
                IsMax ? n.attrInts("dilation", 2) : std::vector<int64_t>{1},
                n.attrInt("ceil_mode", 0), n.attrInt("count_include_pad", 1));
  if (failed(y) || !IsMax || !n.attrInt("return_indices", 0))
    return setTensor(r, y);
  return withPoolIndices(n, *y, r);
}

/// nn.AdaptiveAvgPool1d/2d/3d: output_size an int or a list whose null
/// entries (None) keep the input's size.
template <int Spatial> LogicalResult adaptiveAvgPoolModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  std::vector<int64_t> out;
  if (const auto *a = n.attr("output_size")) {
    if (auto i = a->getAsInteger())
      out.push_back(*i);
    else if (const auto *arr = a->getAsArray())
      for (const auto &e : *arr)
        out.push_back(e.getAsInteger().value_or(-1));
  }
  return setTensor(r, adaptiveAvgPool(n, *x, out, Spatial));
}

/// nn.MultiheadAttention: packed in-projection, per-head scaled dot-product
/// attention, out-projection; the head-averaged weights when requested.
LogicalResult mhaModule(FXNode &n, R &r) {
  auto q = n.tensor(0, "query"), k = n.tensor(1, "key"), v = n.tensor(2, "value");
  if (failed(q) || failed(k) || failed(v))
    return failure();
  Value inW = n.param("in_proj_weight"), inB = n.param("in_proj_bias");
  Value outW = n.param("out_proj.weight"), outB = n.param("out_proj.bias");
  if (!inW || !outW) {
    n.unsupported() << "separate q/k/v projection weights (kdim/vdim != embed_dim)";
    return failure();
  }
  int64_t E = n.attrInt("embed_dim", 0), H = n.attrInt("num_heads", 1);
  bool batchFirst = n.attrInt("batch_first", 0);
  // bias_k/bias_v append a learned key and value to every sequence, and
  // add_zero_attn a zero one: not imported, refused rather than ignored.
  if (n.param("bias_k") || n.param("bias_v") || n.attrInt("add_zero_attn", 0)) {
    n.unsupported() << "add_bias_kv=True or add_zero_attn=True";
    return failure();
  }
  auto need = n.intArg(4, "need_weights", 1);
  auto average = n.intArg(7, "average_attn_weights", 1);
  if (failed(need) || failed(average))
    return failure();
  if (H < 1 || E % H || n.type(*q).getRank() != 3 || n.type(*q).getDimSize(2) != E) {
    n.error() << "query " << q->getType() << " does not fit embed_dim " << E
              << " and " << H << " heads";
    return failure();
  }
  Type elt = n.type(*q).getElementType();
  auto toBatchFirst = [&](Value x) { return batchFirst ? x : n.transpose(x, {1, 0, 2}); };
  auto rows = [&](Value w, int64_t i, ArrayRef<int64_t> shape) -> Value {
    SmallVector<int64_t> starts(shape.size(), 0), steps(shape.size(), 1);
    starts[0] = i * E;
    return n.b.create<SliceOp>(n.loc, RankedTensorType::get(shape, elt), w,
                               n.b.getDenseI64ArrayAttr(starts),
                               n.b.getDenseI64ArrayAttr(steps));
  };
  int64_t hd = E / H;
  SmallVector<Value> heads;
  for (auto [i, x] : llvm::enumerate(SmallVector<Value>{*q, *k, *v})) {
    Value xb = toBatchFirst(x);
    auto p = linear(n, xb, rows(inW, i, {E, E}), inB ? rows(inB, i, {E}) : Value());
    if (failed(p))
      return failure();
    auto t = n.type(*p);
    Value split = n.reshape(*p, {t.getDimSize(0), t.getDimSize(1), H, hd});
    heads.push_back(n.transpose(split, {0, 2, 1, 3}));
  }
  int64_t N = n.type(heads[0]).getDimSize(0), L = n.type(heads[0]).getDimSize(2),
          S = n.type(heads[1]).getDimSize(2);
  Value mask = n.optTensor(5, "attn_mask");
  if (mask && n.type(mask).getRank() == 3)
    mask = n.reshape(mask, {N, H, L, S});
  if (mask && n.type(mask).getElementType().isInteger(1))
    mask = n.b.create<NotOp>(n.loc, mask); // True masks a position out
  if (Value kpm = n.optTensor(3, "key_padding_mask")) {
    if (!n.type(kpm).getElementType().isInteger(1)) {
      n.unsupported() << "a float key_padding_mask";
      return failure();
    }
    Value keep = n.b.create<NotOp>(n.loc, n.reshape(kpm, {N, 1, 1, S}));
    if (mask && !n.type(mask).getElementType().isInteger(1)) {
      n.unsupported() << "a float attn_mask together with a key_padding_mask";
      return failure();
    }
    mask = mask ? Value(n.b.create<AndOp>(n.loc, mask, keep)) : keep;
  }
  // A query whose keys are all masked: torch's fast path
  // (_native_multi_head_attention: eval, no grad, batch_first,
  // self-attention, an even head count, in-projection biases, no float
  // mask) and its need_weights=True path give NaN; otherwise
  // need_weights=False runs scaled_dot_product_attention, whose safe
  // softmax gives 0 (torch >= 2.5).
  Value given = n.optTensor(5, "attn_mask");
  bool floatMask = given && isa<FloatType>(n.type(given).getElementType());
  bool fastPath = batchFirst && *q == *k && *k == *v && H % 2 == 0 && inB && !floatMask;
  Value probs;
  auto att = attention(n, heads[0], heads[1], heads[2], mask, false, &probs,
                       /*safe=*/!*need && !fastPath);
  if (failed(att))
    return failure();
  Value merged = n.reshape(n.transpose(*att, {0, 2, 1, 3}), {N, L, E});
  auto out = linear(n, merged, outW, outB);
  if (failed(out))
    return failure();
  R weights;
  if (*need) {
    Value w = probs;
    if (*average)
      w = n.b.create<ReduceMeanOp>(n.loc, probs, n.b.getDenseI64ArrayAttr({1}),
                                   n.b.getBoolAttr(false));
    weights = R::ofTensor(w);
  }
  r = R::ofList({R::ofTensor(toBatchFirst(*out)), weights});
  return success();
}
/// nn.PixelShuffle / nn.PixelUnshuffle.
template <bool Shuffle> LogicalResult pixelShuffleModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  return setTensor(r, pixelShuffleTensor(
                          n, *x, n.attrInt(Shuffle ? "upscale_factor" : "downscale_factor", 1),
                          Shuffle));
}

/// nn.Fold / nn.Unfold: F.fold / F.unfold with the module's sizes.
template <bool Fold> LogicalResult foldModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  auto ints = [&](StringRef a, int64_t dflt) {
    std::vector<int64_t> v = n.attrInts(a, 2);
    return v.empty() ? std::vector<int64_t>{dflt} : v;
  };
  if (!Fold)
    return setTensor(r, unfoldTensor(n, *x, n.attrInts("kernel_size", 2), ints("dilation", 1),
                                     ints("padding", 0), ints("stride", 1)));
  return setTensor(r, foldTensor(n, *x, n.attrInts("output_size", 2),
                                 n.attrInts("kernel_size", 2), ints("dilation", 1),
                                 ints("padding", 0), ints("stride", 1)));
}

/// nn.Upsample / UpsamplingNearest2d / UpsamplingBilinear2d: F.interpolate.
LogicalResult upsampleModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  auto size = n.attrValue("size"), scale = n.attrValue("scale_factor"),
       mode = n.attrValue("mode");
  if (failed(size) || failed(scale) || failed(mode))
    return failure();
  bool align = n.attrInt("align_corners", 0) != 0;
  bool recompute = n.attrInt("recompute_scale_factor", 0) != 0;
  return interpolateTensor(n, *x, &*size, &*scale,
                           mode->kind == R::Str ? StringRef(mode->s) : "nearest", align,
                           recompute, false, r);
}
} // namespace

const llvm::StringMap<Handler> &dfa::fximport::moduleHandlers() {
  static const llvm::StringMap<Handler> table = [] {
    llvm::StringMap<Handler> t;
    addActivationHandlers(t, /*modules=*/true);
    t["Linear"] = linearModule;
    t["NonDynamicallyQuantizableLinear"] = linearModule;
    t["Conv1d"] = convModule;
    t["Conv2d"] = convModule;
    t["Conv3d"] = convModule;
    t["ConvTranspose1d"] = convTransposeModule;
    t["ConvTranspose2d"] = convTransposeModule;
    t["ConvTranspose3d"] = convTransposeModule;
    t["Upsample"] = upsampleModule;
    t["Fold"] = foldModule<true>;
    t["Unfold"] = foldModule<false>;
    t["PixelShuffle"] = pixelShuffleModule<true>;
    t["PixelUnshuffle"] = pixelShuffleModule<false>;
    t["UpsamplingNearest2d"] = upsampleModule;
    t["UpsamplingBilinear2d"] = upsampleModule;
    t["BatchNorm1d"] = batchNormModule;
    t["BatchNorm2d"] = batchNormModule;
    t["BatchNorm3d"] = batchNormModule;
    addMathModuleHandlers(t);
    t["LayerNorm"] = layerNormModule;
    t["Embedding"] = embeddingModule;
    for (const char *k : {"Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
                          "FeatureAlphaDropout"})
      t[k] = passThrough;
    t["Identity"] = passThrough;
    t["ReLU"] = unaryModule<ReluOp>;
    t["SiLU"] = unaryModule<SiluOp>;
    t["Sigmoid"] = unaryModule<SigmoidOp>;
    t["Tanh"] = unaryModule<TanhOp>;
    t["Hardswish"] = unaryModule<HardSwishOp>;
    t["Mish"] = unaryModule<MishOp>;
    t["Softsign"] = unaryModule<SoftsignOp>;
    t["GELU"] = geluModule;
    t["ReLU6"] = relu6Module;
    t["Hardtanh"] = hardtanhModule;
    t["LeakyReLU"] = leakyReluModule;
    t["Softmax"] = softmaxModule<false>;
    t["LogSoftmax"] = softmaxModule<true>;
    t["Flatten"] = flattenModule;
    t["MaxPool2d"] = poolModule<true>;
    t["AvgPool2d"] = poolModule<false>;
    t["AdaptiveAvgPool1d"] = adaptiveAvgPoolModule<1>;
    t["AdaptiveAvgPool2d"] = adaptiveAvgPoolModule<2>;
    t["AdaptiveAvgPool3d"] = adaptiveAvgPoolModule<3>;
    t["MultiheadAttention"] = mhaModule;
    return t;
  }();
  return table;
}
