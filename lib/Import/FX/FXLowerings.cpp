//===- FXLowerings.cpp - lowerings shared by FX modules and functions -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FXImporter.h"

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::fximport;

FailureOr<Value> dfa::fximport::linear(FXNode &n, Value x, Value w, Value bias) {
  auto xt = n.type(x), wt = n.type(w);
  if (wt.getRank() != 2 || xt.getRank() < 1 ||
      xt.getShape().back() != wt.getDimSize(1)) {
    n.error() << "input " << x.getType() << " does not fit weight " << w.getType();
    return failure();
  }
  Value y = n.b.create<MatMulOp>(n.loc, x, n.transpose(w, {1, 0}));
  if (bias)
    y = n.b.create<AddOp>(n.loc, y, bias);
  return y;
}

namespace {
/// The spatial dims of a convolution of x by w (1 to 3), or -1 after an
/// error naming `what`.
int64_t spatialDims(FXNode &n, Value x, Value w, StringRef what) {
  auto xt = n.type(x), wt = n.type(w);
  int64_t s = xt.getRank() - 2;
  if (s < 1 || s > 3 || wt.getRank() != xt.getRank()) {
    n.error() << "input " << x.getType() << " and weight " << w.getType()
              << " do not make a 1-3 d " << what;
    return -1;
  }
  return s;
}

/// An unbatched convolution input ([C, spatial...], one dim fewer than the
/// weight) as a batch of one; null otherwise.
Value batchOfOne(FXNode &n, Value x, Value w) {
  auto xt = n.type(x);
  if (xt.getRank() + 1 != n.type(w).getRank() || xt.getRank() < 2)
    return Value();
  SmallVector<int64_t> shape{1};
  shape.append(xt.getShape().begin(), xt.getShape().end());
  return n.reshape(x, shape);
}

/// A batch of one's result without its batch dim.
FailureOr<Value> unbatch(FXNode &n, FailureOr<Value> y) {
  if (failed(y))
    return failure();
  return n.reshape(*y, n.type(*y).getShape().drop_front());
}

/// A per-spatial-dim list as torch takes it: empty for `dflt`, one value
/// for all dims. Whether it then has one value per dim.
bool perDim(std::vector<int64_t> &v, int64_t s, int64_t dflt) {
  if (v.empty())
    v.assign(s, dflt);
  else if (v.size() == 1)
    v.assign(s, v[0]);
  return int64_t(v.size()) == s;
}
} // namespace

FailureOr<Value> dfa::fximport::conv(FXNode &n, Value x, Value w, Value bias,
                                     std::vector<int64_t> stride,
                                     std::vector<int64_t> padding,
                                     std::vector<int64_t> dilation,
                                     int64_t groups) {
  auto xt = n.type(x), wt = n.type(w);
  int64_t s = spatialDims(n, x, w, "convolution");
  if (s < 0)
    return failure();
  auto fill = [&](std::vector<int64_t> &v, int64_t d) { perDim(v, s, d); };
  fill(stride, 1);
  fill(dilation, 1);
  fill(padding, 0);
  if ((int64_t)stride.size() != s || (int64_t)padding.size() != s ||
      (int64_t)dilation.size() != s) {
    n.error() << "stride, padding and dilation must have " << s << " entries";
    return failure();
  }
  if (groups < 1 || xt.getDimSize(1) != wt.getDimSize(1) * groups ||
      wt.getDimSize(0) % groups) {
    n.error() << "input channels " << xt.getDimSize(1) << " do not fit weight "
              << w.getType() << " with groups " << groups;
    return failure();
  }
  SmallVector<int64_t> pads(padding.begin(), padding.end());
  pads.append(padding.begin(), padding.end());
  for (int64_t i = 0; i < s; ++i)
    if (stride[i] < 1 || dilation[i] < 1 || padding[i] < 0) {
      n.error() << "strides and dilations must be positive, paddings non-negative";
      return failure();
    }
  for (int64_t i = 0; i < s; ++i)
    if (windowOutputSize(xt.getDimSize(i + 2), wt.getDimSize(i + 2), stride[i],
                         padding[i], padding[i], dilation[i], false) < 1) {
      n.error() << "the kernel does not fit spatial dim " << i;
      return failure();
    }
  return Value(n.b.create<ConvOp>(n.loc, x, w, bias,
                                  n.b.getDenseI64ArrayAttr(stride),
                                  n.b.getDenseI64ArrayAttr(pads),
                                  n.b.getDenseI64ArrayAttr(dilation),
                                  n.b.getI64IntegerAttr(groups)));
}

FailureOr<Value> dfa::fximport::convTranspose(FXNode &n, Value x, Value w, Value bias,
                                              std::vector<int64_t> stride,
                                              std::vector<int64_t> padding,
                                              std::vector<int64_t> outputPadding,
                                              std::vector<int64_t> dilation,
                                              int64_t groups) {
  if (Value one = batchOfOne(n, x, w))
    return unbatch(n, convTranspose(n, one, w, bias, stride, padding, outputPadding, dilation,
                                    groups));
  auto xt = n.type(x), wt = n.type(w);
  int64_t s = spatialDims(n, x, w, "transposed convolution");
  if (s < 0)
    return failure();
  auto fill = [&](std::vector<int64_t> &v, int64_t d) { return perDim(v, s, d); };
  if (!fill(stride, 1) || !fill(dilation, 1) || !fill(padding, 0) || !fill(outputPadding, 0)) {
    n.error() << "stride, padding, output_padding and dilation must have " << s << " entries";
    return failure();
  }
  // The weight is [C_in, C_out / groups, k...], as ONNX's ConvTranspose.
  if (groups < 1 || xt.getDimSize(1) != wt.getDimSize(0) || wt.getDimSize(0) % groups) {
    n.error() << "input channels " << xt.getDimSize(1) << " do not fit weight "
              << w.getType() << " with groups " << groups;
    return failure();
  }
  SmallVector<int64_t> out{xt.getDimSize(0), wt.getDimSize(1) * groups}, pads(padding.begin(),
                                                                             padding.end());
  pads.append(padding.begin(), padding.end());
  for (int64_t i = 0; i < s; ++i) {
    if (stride[i] < 1 || dilation[i] < 1 || padding[i] < 0 || outputPadding[i] < 0 ||
        outputPadding[i] >= std::max(stride[i], dilation[i])) {
      n.error() << "strides and dilations must be positive, paddings non-negative and "
                   "output_padding smaller than the stride or the dilation";
      return failure();
    }
    // torch: (in - 1) stride - 2 padding + dilation (k - 1) + output_padding + 1.
    out.push_back((xt.getDimSize(i + 2) - 1) * stride[i] - 2 * padding[i] +
                  dilation[i] * (wt.getDimSize(i + 2) - 1) + outputPadding[i] + 1);
    if (out.back() < 1) {
      n.error() << "the output of spatial dim " << i << " is empty";
      return failure();
    }
  }
  return Value(n.b.create<ConvTransposeOp>(
      n.loc, RankedTensorType::get(out, xt.getElementType()), x, w, bias,
      n.b.getDenseI64ArrayAttr(stride), n.b.getDenseI64ArrayAttr(pads),
      n.b.getDenseI64ArrayAttr(dilation), n.b.getI64IntegerAttr(groups)));
}

FailureOr<Value> dfa::fximport::batchNorm(FXNode &n, Value x, Value weight,
                                          Value bias, Value mean, Value var,
                                          double eps) {
  auto t = n.type(mean), xt = n.type(x);
  if (t.getRank() != 1 || n.type(var) != t || xt.getRank() < 2 ||
      xt.getDimSize(1) != t.getDimSize(0)) {
    n.error() << "input " << x.getType() << " and statistics " << mean.getType()
              << " do not agree on the channels";
    return failure();
  }
  auto fill = [&](Value v, double c) -> Value {
    return v ? v
             : Value(n.b.create<ConstantOp>(
                   n.loc, DenseElementsAttr::get(t, n.b.getFloatAttr(t.getElementType(), c))));
  };
  return Value(n.b.create<BatchNormOp>(n.loc, x, fill(weight, 1), fill(bias, 0),
                                       mean, var, n.b.getF64FloatAttr(eps)));
}

FailureOr<Value> dfa::fximport::convPadded(FXNode &n, Value x, Value w, Value bias,
                                           std::vector<int64_t> stride,
                                           std::optional<std::string> how,
                                           std::vector<int64_t> padding,
                                           std::vector<int64_t> dilation, int64_t groups,
                                           StringRef mode) {
  if (Value one = batchOfOne(n, x, w))
    return unbatch(n, convPadded(n, one, w, bias, stride, how, padding, dilation, groups,
                                 mode));
  int64_t s = n.type(x).getRank() - 2;
  if (s < 1 || n.type(w).getRank() != s + 2) {
    n.error() << "convolution of " << x.getType() << " by " << w.getType();
    return failure();
  }
  auto at = [](const std::vector<int64_t> &v, int64_t i) {
    return v.empty() ? 1 : v[std::min<size_t>(i, v.size() - 1)];
  };
  // Each spatial dim's (before, after) padding: the given ints, 'valid'
  // (none) or 'same' (the output keeps the input's size: d (k - 1) in all,
  // the extra one after, as torch pads it).
  std::vector<std::pair<int64_t, int64_t>> pads(s, {0, 0});
  if (how) {
    if (*how == "same") {
      for (int64_t i = 0; i < s; ++i) {
        if (at(stride, i) != 1) {
          n.error() << "padding='same' needs stride 1";
          return failure();
        }
        int64_t total = at(dilation, i) * (n.type(w).getDimSize(2 + i) - 1);
        pads[i] = {total / 2, total - total / 2};
      }
    } else if (*how != "valid") {
      n.error() << "padding '" << *how << "' (same or valid)";
      return failure();
    }
  } else {
    for (int64_t i = 0; i < s && !padding.empty(); ++i)
      pads[i] = {at(padding, i), at(padding, i)};
  }
  bool symmetric = llvm::all_of(pads, [](auto p) { return p.first == p.second; });
  if (mode == "zeros" && symmetric) {
    std::vector<int64_t> p;
    for (auto [a, b] : pads)
      p.push_back(a);
    return conv(n, x, w, bias, stride, p, dilation, groups);
  }
  // Padded first, as torch's _conv_forward does for a padding_mode (and
  // ONNX Conv's pads would for 'same' with an even kernel).
  std::vector<int64_t> torchPad;
  for (int64_t i = s - 1; i >= 0; --i) {
    torchPad.push_back(pads[i].first);
    torchPad.push_back(pads[i].second);
  }
  auto padded = padTensor(n, x, torchPad, mode == "zeros" ? "constant" : mode, 0);
  if (failed(padded))
    return failure();
  return conv(n, *padded, w, bias, stride, std::vector<int64_t>(s, 0), dilation, groups);
}

std::pair<Value, Value> dfa::fximport::batchStatistics(FXNode &n, Value x) {
  auto t = n.type(x);
  SmallVector<int64_t> axes, kept(t.getRank(), 1);
  for (int64_t d = 0; d < t.getRank(); ++d)
    if (d != 1)
      axes.push_back(d);
  kept[1] = t.getDimSize(1);
  auto mean = [&](Value v, bool keep) -> Value {
    return n.b.create<ReduceMeanOp>(n.loc, v, n.b.getDenseI64ArrayAttr(axes),
                                    n.b.getBoolAttr(keep));
  };
  Value m = mean(x, true);
  Value centered = n.b.create<SubOp>(n.loc, x, m);
  Value var = mean(n.b.create<MulOp>(n.loc, centered, centered), false);
  return {n.reshape(m, {t.getDimSize(1)}), var};
}

FailureOr<Value> dfa::fximport::layerNorm(FXNode &n, Value x,
                                          ArrayRef<int64_t> shape, Value w,
                                          Value bias, double eps) {
  auto xt = n.type(x);
  int64_t axis = xt.getRank() - (int64_t)shape.size();
  if (axis < 0 || xt.getShape().drop_front(axis) != shape) {
    n.error() << "normalized shape does not end the input " << x.getType();
    return failure();
  }
  if (!w)
    w = n.b.create<ConstantOp>(
        n.loc, DenseElementsAttr::get(RankedTensorType::get(shape, xt.getElementType()),
                                      n.b.getFloatAttr(xt.getElementType(), 1.0)));
  return Value(n.b.create<LayerNormOp>(n.loc, x, w, bias,
                                       n.b.getI64IntegerAttr(axis),
                                       n.b.getF64FloatAttr(eps)));
}

FailureOr<Value> dfa::fximport::softmax(FXNode &n, Value x, int64_t dim,
                                        bool log) {
  auto d = n.dim(dim, n.type(x).getRank());
  if (failed(d))
    return failure();
  auto axis = n.b.getI64IntegerAttr(n.type(x).getRank() ? *d : 0);
  if (log)
    return Value(n.b.create<LogSoftmaxOp>(n.loc, x, axis));
  return Value(n.b.create<SoftmaxOp>(n.loc, x, axis));
}

FailureOr<Value> dfa::fximport::attention(FXNode &n, Value q, Value k, Value v,
                                          Value mask, bool causal,
                                          Value *probs, bool safe,
                                          double scale) {
  auto qt = n.type(q), kt = n.type(k), vt = n.type(v);
  int64_t rank = qt.getRank();
  if (rank < 2 || kt.getRank() != rank || vt.getRank() != rank ||
      qt.getShape().drop_back(2) != kt.getShape().drop_back(2) ||
      qt.getShape().drop_back(2) != vt.getShape().drop_back(2) ||
      qt.getShape().back() != kt.getShape().back() ||
      kt.getDimSize(rank - 2) != vt.getDimSize(rank - 2)) {
    auto diag = n.error() << "query " << q.getType() << ", key " << k.getType()
                          << " and value " << v.getType() << " do not make an attention";
    if (rank >= 3 && kt.getRank() == rank && qt.getDimSize(rank - 3) != kt.getDimSize(rank - 3))
      diag << " (query heads that share a K/V head need enable_gqa=True)";
    return failure();
  }
  SmallVector<int64_t> scores(qt.getShape().drop_back(1));
  scores.push_back(kt.getDimSize(rank - 2));
  if (mask) {
    auto b = broadcastShapes(n.type(mask).getShape(), scores);
    if (failed(b) || ArrayRef<int64_t>(*b) != ArrayRef<int64_t>(scores)) {
      n.error() << "attention mask " << mask.getType()
                << " does not broadcast to the scores";
      return failure();
    }
    if (!n.type(mask).getElementType().isInteger(1))
      mask = n.b.create<CastOp>(n.loc, n.type(mask).clone(qt.getElementType()), mask);
  }
  if (std::isnan(scale))
    scale = 1.0 / std::sqrt((double)qt.getShape().back());
  Value out = n.b.create<AttentionOp>(n.loc, q, k, v, mask, n.b.getF64FloatAttr(scale),
                                      n.b.getBoolAttr(causal), n.b.getBoolAttr(safe));
  if (probs) // the weights themselves (nn.MultiheadAttention returns them)
    *probs = buildAttentionProbs(n.b, n.loc, q, k, mask, scale, causal);
  return out;
}
