//===- ONNXSignalOps.cpp - DFT and STFT as products with constant matrices -===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// ONNX's spectral ops (opset 17), imported as what a matrix machine runs
/// them as: a discrete Fourier transform of length L is the product of the
/// signal's real and imaginary parts with the L-point cos and sin matrices
/// (TPUs run FFTs of these sizes so; FNet's paper does the same on TPUs),
/// so every target sees two or four matmuls.
///   DFT (17, 20): real or complex input, any axis but the complex one
///     (an attribute before opset 20, an input after), dft_length padding
///     or truncating the signal, inverse (scaled by 1/L), onesided forward
///     (the first L/2 + 1 bins) and onesided inverse (irfft: a conjugate-
///     symmetric spectrum's real signal).
///   STFT (17): frames gathered at frame_step, the window applied, a DFT of
///     frame_length per frame, onesided by default.
/// The matrices are constants of L x K elements; lengths past 4096 points
/// are refused (their matrices would outweigh the model).
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Reference/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::onnximport;

namespace {

/// Mel bands a MelWeightMatrix may have (its [spectrum, bands] constant).
constexpr int64_t kMaxMelBins = 4096;

/// The DFT of `x` [..., 1 | 2] along `axis` (graph::buildDFT), its
/// refusal reported at the node.
FailureOr<Value> dft(NodeContext &c, Value x, int64_t axis, int64_t len, bool inverse,
                     bool onesided) {
  BuildError err;
  FailureOr<Value> y = buildDFT(c.b, c.loc, x, axis, len, inverse, onesided, err);
  if (failed(y))
    (err.unsupported ? c.unsupported() : c.error()) << err.message;
  return y;
}

/// MelWeightMatrix(num_mel_bins, dft_length, sample_rate, lower_edge_hertz,
/// upper_edge_hertz) (17): the [dft_length / 2 + 1, num_mel_bins]
/// triangular filter bank, a constant, computed as the ONNX reference does
/// (the edges' mels in the inputs' float32, then double; each band's bins
/// floor((dft_length + 1) f / sample_rate); rising and falling ramps, a
/// 1 where a band's rise is empty).
LogicalResult convertMelWeightMatrix(NodeContext &c, Results &r) {
  auto bins = c.constScalar(0, "num_mel_bins"), dft = c.constScalar(1, "dft_length"),
       rate = c.constScalar(2, "sample_rate"), lo = c.constScalar(3, "lower_edge_hertz"),
       hi = c.constScalar(4, "upper_edge_hertz");
  if (failed(bins) || failed(dft) || failed(rate) || failed(lo) || failed(hi))
    return failure();
  int64_t mels = int64_t(*bins), length = int64_t(*dft), sr = int64_t(*rate);
  if (mels < 1 || length < 1 || sr < 1 || mels > kMaxMelBins || length > 65536 ||
      !(*lo >= 0) || !(*hi > *lo)) {
    c.error() << "MelWeightMatrix of " << mels << " bins, dft_length " << length
              << ", sample_rate " << sr << ", edges [" << *lo << ", " << *hi
              << "]: needs positive sizes and 0 <= lower < upper";
    return failure();
  }
  Type elt = elementType(int(c.intAttr("output_datatype", 1)), c.ctx());
  if (!elt) {
    c.error() << "output_datatype must name a type dfa has";
    return failure();
  }
  // The reference: the edges' float32 inputs through float32 log1p.
  auto mel = [](double hz) {
    float m = 2595.0f * std::log1p(float(hz) / 700.0f);
    return double(m) / std::log(10.0);
  };
  double low = mel(*lo), step = (mel(*hi) - low) / double(mels + 2);
  std::vector<int64_t> edge(mels + 2);
  for (int64_t i = 0; i < mels + 2; ++i) {
    double f = 700 * std::expm1((double(i) * step + low) / 2595 * std::log(10.0));
    edge[i] = int64_t(std::floor(double(length + 1) * f / double(sr)));
  }
  int64_t spectrum = length / 2 + 1;
  std::vector<double> w(spectrum * mels, 0.0);
  auto set = [&](int64_t j, int64_t i, double v) {
    if (j >= 0 && j < spectrum)
      w[j * mels + i] = v;
  };
  for (int64_t i = 0; i < mels; ++i) {
    int64_t left = edge[i], center = edge[i + 1], right = edge[i + 2];
    if (center == left)
      set(center, i, 1);
    else
      for (int64_t j = left; j <= center; ++j)
        set(j, i, double(j - left) / double(center - left));
    if (right > center)
      for (int64_t j = center; j < right; ++j)
        set(j, i, double(right - j) / double(right - center));
  }
  r.push_back(c.cast(c.constant(ref::Tensor::fromDoubles(ref::DType::F64, {spectrum, mels}, w)),
                     elt));
  return success();
}

/// A one-element integer input as a number, or `dflt` when absent.
FailureOr<int64_t> scalarInput(NodeContext &c, size_t i, StringRef what, int64_t dflt) {
  if (!c.has(i))
    return dflt;
  auto v = c.constInts(i, what);
  if (failed(v))
    return failure();
  if (v->size() != 1) {
    c.error() << what << " must hold one value";
    return failure();
  }
  return (*v)[0];
}

bool signalType(NodeContext &c, RankedTensorType t, int64_t minRank) {
  if (isa<FloatType>(t.getElementType()) && t.hasStaticShape() && t.getRank() >= minRank &&
      (t.getShape().back() == 1 || t.getShape().back() == 2))
    return true;
  c.error() << "the signal must be a float tensor of static shape [..., 1 or 2] (real, or "
            << "real and imaginary parts) of rank " << minRank << " or more, got " << t;
  return false;
}

LogicalResult convertDFT(NodeContext &c, Results &r) {
  auto t = c.type(0);
  if (!signalType(c, t, 2))
    return failure();
  int64_t rank = t.getRank();
  FailureOr<int64_t> axis = c.opset >= 20 ? scalarInput(c, 2, "axis", -2)
                                          : FailureOr<int64_t>(c.intAttr("axis", 1));
  if (failed(axis))
    return failure();
  int64_t a = *axis < 0 ? *axis + rank : *axis;
  if (a < 0 || a >= rank - 1) {
    c.error() << "axis " << *axis << " must name a signal dim of " << t
              << " (in [" << -rank << ", -2] or [0, " << rank - 2 << "])";
    return failure();
  }
  bool inverse = c.intAttr("inverse", 0) != 0, onesided = c.intAttr("onesided", 0) != 0;
  int64_t n = t.getDimSize(a);
  auto len = scalarInput(c, 1, "dft_length", inverse && onesided ? 2 * (n - 1) : n);
  if (failed(len))
    return failure();
  auto y = dft(c, c.in(0), a, *len, inverse, onesided);
  if (failed(y))
    return failure();
  r.push_back(*y);
  return success();
}

LogicalResult convertSTFT(NodeContext &c, Results &r) {
  auto t = c.type(0);
  if (t.getRank() != 3) {
    c.error() << "the signal must be [batch, length, 1 or 2], got " << t;
    return failure();
  }
  if (!signalType(c, t, 3))
    return failure();
  int64_t length = t.getDimSize(1);
  auto step = scalarInput(c, 1, "frame_step", 0);
  if (failed(step))
    return failure();
  Value window = c.in(2);
  int64_t windowLen = window ? c.type(2).getNumElements() : length;
  if (window && c.type(2).getRank() != 1) {
    c.error() << "window must be 1-d, got " << window.getType();
    return failure();
  }
  auto frame = scalarInput(c, 3, "frame_length", windowLen);
  if (failed(frame))
    return failure();
  if (*step < 1 || *frame < 1 || *frame > length || (window && *frame != windowLen)) {
    c.error() << "frame_step " << *step << " and frame_length " << *frame
              << " must be positive, the frame within the signal's " << length
              << " samples and the window's length";
    return failure();
  }
  bool onesided = c.intAttr("onesided", 1) != 0;
  int64_t frames = 1 + (length - *frame) / *step;
  // Every frame's samples in one gather: [frames, frame_length] positions.
  std::vector<int64_t> at(frames * *frame);
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t i = 0; i < *frame; ++i)
      at[f * *frame + i] = f * *step + i;
  Value idx = c.constant(ref::Tensor::fromInts(ref::DType::I64, {frames, *frame}, at));
  Type elt = t.getElementType();
  Value x = c.b.create<GatherOp>(c.loc, c.in(0), idx, c.b.getI64IntegerAttr(1));
  if (window)
    x = c.b.create<MulOp>(c.loc, x, c.reshape(c.cast(window, elt), {1, 1, *frame, 1}));
  auto y = dft(c, x, 2, *frame, false, onesided);
  if (failed(y))
    return failure();
  r.push_back(*y);
  return success();
}
} // namespace

void dfa::onnximport::addSignalConverters(llvm::StringMap<Converter> &t) {
  t["DFT"] = convertDFT;
  t["MelWeightMatrix"] = convertMelWeightMatrix;
  t["STFT"] = convertSTFT;
}
