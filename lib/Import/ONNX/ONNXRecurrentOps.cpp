//===- ONNXRecurrentOps.cpp - RNN, GRU and LSTM, unrolled over time -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// ONNX's recurrent layers, imported as the ops of their equations unrolled
/// over the (static) sequence, as a dataflow compiler lays a recurrence out
/// in time: per direction one GEMM projects every step's input at once
/// (X W^T plus both biases, as cuDNN does), then each step is a GEMM of
/// the previous hidden state with R^T whose C operand is that step's slice
/// of the projection, the gates' activations and the state update. Every
/// target and pass sees ops it already knows.
///   RNN, GRU (linear_before_reset either way), LSTM (peepholes); forward,
///   reverse and bidirectional; layout 0 and 1; initial states; the gates'
///   clip; every activation the spec names, with its alpha and beta (absent
///   ones default as the operator of that name does, as the spec says:
///   Affine 1 and 0, ScaledTanh 1 and 1, ThresholdedRelu 1; onnxruntime
///   defaults some of them otherwise);
///   sequence_lens (a run-time input too): past its length a sequence's
///   state is held and its outputs are 0, the reverse direction starts at
///   its last valid step, and a sequence of length 0 ends in zero states,
///   as onnxruntime computes them.
///   LSTM's input_forget is refused (onnxruntime and the ONNX reference
///   implement it differently or not at all).
/// The opset-27 state-space ops are imported the same way: LinearAttention's
/// recurrence step by step, CausalConvWithState as a depthwise convolution
/// over the past state and the input.
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Reference/Evaluator.h"

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::onnximport;

namespace {

/// One activation of the spec's list, with its alpha and beta.
struct Activation {
  std::string name;
  double alpha = 0, beta = 0;
};

/// The cell's kind: its gate count and default activations.
enum class Cell { RNN, GRU, LSTM };

int64_t gatesOf(Cell k) { return k == Cell::RNN ? 1 : k == Cell::GRU ? 3 : 4; }

/// Activations per direction: `activations` when given (forward's, then
/// reverse's), else the cell's defaults. Alphas and betas are consumed in
/// order by the activations that take them, as the spec lists them.
FailureOr<SmallVector<SmallVector<Activation>>> activationsOf(NodeContext &c, Cell kind,
                                                               int64_t dirs) {
  SmallVector<std::string> defaults =
      kind == Cell::RNN   ? SmallVector<std::string>{"Tanh"}
      : kind == Cell::GRU ? SmallVector<std::string>{"Sigmoid", "Tanh"}
                          : SmallVector<std::string>{"Sigmoid", "Tanh", "Tanh"};
  size_t per = defaults.size();
  SmallVector<std::string> names;
  if (const onnx::AttributeProto *a = c.attr("activations")) {
    for (const std::string &s : a->strings())
      names.push_back(s);
    if (names.size() != per * size_t(dirs)) {
      c.error() << "activations lists " << names.size() << " functions; "
                << per * dirs << " expected (" << per << " per direction)";
      return failure();
    }
  } else {
    for (int64_t d = 0; d < dirs; ++d)
      names.append(defaults.begin(), defaults.end());
  }
  std::vector<double> alphas, betas;
  if (const onnx::AttributeProto *a = c.attr("activation_alpha"))
    alphas.assign(a->floats().begin(), a->floats().end());
  if (const onnx::AttributeProto *a = c.attr("activation_beta"))
    betas.assign(a->floats().begin(), a->floats().end());
  size_t ai = 0, bi = 0;
  SmallVector<SmallVector<Activation>> out(dirs);
  for (size_t i = 0; i < names.size(); ++i) {
    Activation act{names[i]};
    // (name, default alpha, default beta; NaN: the function takes none)
    static const struct {
      const char *name;
      double alpha, beta;
    } known[] = {{"Relu", NAN, NAN},          {"Tanh", NAN, NAN},
                 {"Sigmoid", NAN, NAN},       {"Softsign", NAN, NAN},
                 {"Softplus", NAN, NAN},      {"Affine", 1.0, 0.0},
                 {"LeakyRelu", 0.01, NAN},    {"ThresholdedRelu", 1.0, NAN},
                 {"ScaledTanh", 1.0, 1.0},    {"HardSigmoid", 0.2, 0.5},
                 {"Elu", 1.0, NAN}};
    auto it = llvm::find_if(known, [&](const auto &k) {
      return llvm::StringRef(k.name).equals_insensitive(act.name);
    });
    if (it == std::end(known)) {
      c.unsupported() << "activation '" << act.name << "'";
      return failure();
    }
    act.name = it->name;
    if (!std::isnan(it->alpha))
      act.alpha = ai < alphas.size() ? alphas[ai++] : it->alpha;
    if (!std::isnan(it->beta))
      act.beta = bi < betas.size() ? betas[bi++] : it->beta;
    out[i / per].push_back(act);
  }
  return out;
}

Value activate(NodeContext &c, const Activation &a, Value x) {
  Type elt = cast<RankedTensorType>(x.getType()).getElementType();
  auto f64 = [&](double v) { return c.b.getF64FloatAttr(v); };
  const std::string &n = a.name;
  if (n == "Relu")
    return c.b.create<ReluOp>(c.loc, x);
  if (n == "Tanh")
    return c.b.create<TanhOp>(c.loc, x);
  if (n == "Sigmoid")
    return c.b.create<SigmoidOp>(c.loc, x);
  if (n == "Softsign")
    return c.b.create<SoftsignOp>(c.loc, x);
  if (n == "Softplus")
    return c.b.create<SoftplusOp>(c.loc, x);
  if (n == "LeakyRelu")
    return c.b.create<LeakyReluOp>(c.loc, x, f64(a.alpha));
  if (n == "ThresholdedRelu")
    return c.b.create<ThresholdedReluOp>(c.loc, x, f64(a.alpha));
  if (n == "HardSigmoid")
    return c.b.create<HardSigmoidOp>(c.loc, x, f64(a.alpha), f64(a.beta));
  if (n == "Elu")
    return c.b.create<EluOp>(c.loc, x, f64(a.alpha));
  if (n == "Affine")
    return c.b.create<AddOp>(c.loc, c.b.create<MulOp>(c.loc, x, c.scalar(elt, a.alpha)),
                             c.scalar(elt, a.beta));
  // ScaledTanh: alpha tanh(beta x).
  return c.b.create<MulOp>(
      c.loc, c.b.create<TanhOp>(c.loc, c.b.create<MulOp>(c.loc, x, c.scalar(elt, a.beta))),
      c.scalar(elt, a.alpha));
}

/// `v`[index] along dim 0, that dim dropped.
Value row(NodeContext &c, Value v, int64_t index) {
  return c.reshape(c.slice(v, 0, index, 1), typeOf(v).getShape().drop_front());
}

/// Columns [from, from + count) of a 2-d `v`.
Value columns(NodeContext &c, Value v, int64_t from, int64_t count) {
  return c.slice(v, 1, from, count);
}

/// Elements [from, from + count) of a 1-d `v` (a bias, the peepholes).
Value segment(NodeContext &c, Value v, int64_t from, int64_t count) {
  return c.slice(v, 0, from, count);
}

LogicalResult convertRecurrent(NodeContext &c, Results &r, Cell kind) {
  c.ignoreAttrs({"output_sequence"}); // opset 1: which outputs exist, not their values
  Value x = c.in(0), w = c.in(1), rw = c.in(2);
  auto xt = c.type(0), wt = c.type(1), rt = c.type(2);
  Type elt = xt.getElementType();
  if (!isa<FloatType>(elt) || xt.getRank() != 3 || wt.getRank() != 3 || rt.getRank() != 3 ||
      !xt.hasStaticShape() || !wt.hasStaticShape() || !rt.hasStaticShape()) {
    c.error() << "X, W and R must be 3-d float tensors of static shape, got " << x.getType()
              << ", " << w.getType() << " and " << rw.getType();
    return failure();
  }
  std::string direction = c.strAttr("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional") {
    c.error() << "direction must be forward, reverse or bidirectional, got '" << direction
              << "'";
    return failure();
  }
  int64_t dirs = direction == "bidirectional" ? 2 : 1;
  int64_t layout = c.intAttr("layout", 0);
  if (layout != 0 && layout != 1) {
    c.error() << "layout must be 0 or 1";
    return failure();
  }
  int64_t gates = gatesOf(kind), hidden = rt.getDimSize(2);
  int64_t hiddenAttr = c.intAttr("hidden_size", hidden);
  if (layout == 1)
    x = c.b.create<TransposeOp>(c.loc, x, c.b.getDenseI64ArrayAttr({1, 0, 2}));
  auto seqType = cast<RankedTensorType>(x.getType());
  int64_t steps = seqType.getDimSize(0), batch = seqType.getDimSize(1),
          input = seqType.getDimSize(2);
  if (hiddenAttr != hidden || wt.getDimSize(0) != dirs || rt.getDimSize(0) != dirs ||
      wt.getDimSize(1) != gates * hidden || wt.getDimSize(2) != input ||
      rt.getDimSize(1) != gates * hidden) {
    c.error() << "W " << w.getType() << " and R " << rw.getType() << " do not fit "
              << dirs << " direction(s) of " << gates << " gate(s) of hidden size "
              << hiddenAttr << " over inputs of " << input;
    return failure();
  }
  bool linearBeforeReset = kind == Cell::GRU && c.intAttr("linear_before_reset", 0) != 0;
  if (kind == Cell::LSTM && c.intAttr("input_forget", 0) != 0) {
    c.unsupported() << "input_forget=1";
    return failure();
  }
  double clip = c.floatAttr("clip", 0);
  auto acts = activationsOf(c, kind, dirs);
  if (failed(acts))
    return failure();

  // Optional inputs: B [dirs, 2 G H], sequence_lens [batch], initial_h and
  // initial_c [dirs, batch, H] (layout 1: [batch, dirs, H]), P [dirs, 3 H].
  auto expectShape = [&](size_t i, ArrayRef<int64_t> shape, StringRef what) {
    if (!c.has(i) || c.type(i).getShape() == shape)
      return success();
    auto diag = c.error() << what << " must be [";
    llvm::interleave(shape, diag, ", ");
    diag << "], got " << c.in(i).getType();
    return failure();
  };
  SmallVector<int64_t> stateShape =
      layout ? SmallVector<int64_t>{batch, dirs, hidden} : SmallVector<int64_t>{dirs, batch, hidden};
  if (failed(expectShape(3, {dirs, 2 * gates * hidden}, "B")) ||
      failed(expectShape(4, {batch}, "sequence_lens")) ||
      failed(expectShape(5, stateShape, "initial_h")) ||
      (kind == Cell::LSTM && (failed(expectShape(6, stateShape, "initial_c")) ||
                              failed(expectShape(7, {dirs, 3 * hidden}, "P")))))
    return failure();
  auto state = [&](size_t i) -> Value {
    if (!c.has(i))
      return Value();
    Value v = c.cast(c.in(i), elt);
    return layout ? Value(c.b.create<TransposeOp>(c.loc, v, c.b.getDenseI64ArrayAttr({1, 0, 2})))
                  : v;
  };
  Value h0 = state(5), c0 = kind == Cell::LSTM ? state(6) : Value();
  Value lens = c.has(4) ? c.in(4) : Value();
  if (lens && !isa<IntegerType>(cast<RankedTensorType>(lens.getType()).getElementType())) {
    c.error() << "sequence_lens must be integers, got " << lens.getType();
    return failure();
  }
  // Lengths known to be the whole sequence need no masks; others (a
  // run-time input too) mask each step.
  if (auto k = lens ? lens.getDefiningOp<graph::ConstantOp>() : nullptr) {
    std::vector<int64_t> n = ref::tensorFromAttr(k.getValue()).toInts();
    if (llvm::any_of(n, [&](int64_t v) { return v < 0 || v > steps; })) {
      c.error() << "sequence_lens must be in [0, " << steps << "]";
      return failure();
    }
    if (llvm::all_of(n, [&](int64_t v) { return v == steps; }))
      lens = Value();
  }

  Value flat = c.reshape(x, {steps * batch, input});
  auto zeros = c.scalar(elt, 0);
  auto clipped = [&](Value v) -> Value {
    if (clip <= 0)
      return v;
    return c.b.create<ClipOp>(c.loc, v, c.b.getF64FloatAttr(-clip), c.b.getF64FloatAttr(clip));
  };
  auto gemm = [&](Value a, Value b, Value bias) -> Value {
    auto at = cast<RankedTensorType>(a.getType());
    auto bt = cast<RankedTensorType>(b.getType());
    return c.b.create<GemmOp>(
        c.loc, RankedTensorType::get({at.getDimSize(0), bt.getDimSize(0)}, elt), a, b, bias,
        c.b.getF64FloatAttr(1.0), c.b.getF64FloatAttr(1.0), c.b.getBoolAttr(false),
        c.b.getBoolAttr(true));
  };

  SmallVector<Value> ys(dirs), hs(dirs), cs(dirs);
  for (int64_t d = 0; d < dirs; ++d) {
    const SmallVector<Activation> &act = (*acts)[d];
    Value wd = c.cast(row(c, w, d), elt), rd = c.cast(row(c, rw, d), elt);
    Value bw, br;
    if (c.has(3)) {
      Value bd = c.cast(row(c, c.in(3), d), elt);
      bw = segment(c, bd, 0, gates * hidden);
      br = segment(c, bd, gates * hidden, gates * hidden);
    }
    // GRU with linear_before_reset keeps the hidden gate's recurrent bias
    // inside the reset product; every other bias adds to the projection.
    Value projBias = bw && br && !linearBeforeReset ? Value(c.b.create<AddOp>(c.loc, bw, br))
                                                    : bw;
    Value proj = c.reshape(gemm(flat, wd, projBias), {steps, batch, gates * hidden});
    Value recBias = linearBeforeReset ? br : Value();
    Value p;
    if (kind == Cell::LSTM && c.has(7))
      p = c.cast(row(c, c.in(7), d), elt);
    Value h = h0 ? row(c, h0, d) : c.b.create<ExpandOp>(
                                        c.loc, RankedTensorType::get({batch, hidden}, elt), zeros)
                                        .getResult();
    Value cell;
    if (kind == Cell::LSTM)
      cell = c0 ? row(c, c0, d)
                : c.b.create<ExpandOp>(c.loc, RankedTensorType::get({batch, hidden}, elt), zeros)
                      .getResult();
    bool reverse = direction == "reverse" || d == 1;
    SmallVector<Value> outs(steps);
    for (int64_t i = 0; i < steps; ++i) {
      int64_t t = reverse ? steps - 1 - i : i;
      Value xw = row(c, proj, t);
      Value gatesPre, hNew, cNew;
      auto gate = [&](Value all, int64_t g) { return columns(c, all, g * hidden, hidden); };
      auto peep = [&](Value pre, int64_t which, Value state) -> Value {
        if (!p)
          return pre;
        Value pv = segment(c, p, which * hidden, hidden);
        return c.b.create<AddOp>(c.loc, pre, c.b.create<MulOp>(c.loc, pv, state));
      };
      if (kind == Cell::RNN) {
        hNew = activate(c, act[0], clipped(gemm(h, rd, xw)));
      } else if (kind == Cell::LSTM) {
        Value all = gemm(h, rd, xw); // gates i, o, f, c
        Value in = activate(c, act[0], clipped(peep(gate(all, 0), 0, cell)));
        Value fg = activate(c, act[0], clipped(peep(gate(all, 2), 2, cell)));
        Value cand = activate(c, act[1], clipped(gate(all, 3)));
        cNew = c.b.create<AddOp>(c.loc, c.b.create<MulOp>(c.loc, fg, cell),
                                 c.b.create<MulOp>(c.loc, in, cand));
        Value out = activate(c, act[0], clipped(peep(gate(all, 1), 1, cNew)));
        hNew = c.b.create<MulOp>(c.loc, out, activate(c, act[2], cNew));
      } else {
        // GRU: gates z, r, h. z and r from the whole recurrent product;
        // the hidden gate's recurrent term is r * (H R_h^T + Rb_h) with
        // linear_before_reset, else (r * H) R_h^T.
        Value rZR = c.slice(rd, 0, 0, 2 * hidden);
        Value rH = c.slice(rd, 0, 2 * hidden, hidden);
        Value zrIn = columns(c, xw, 0, 2 * hidden);
        if (linearBeforeReset && recBias)
          zrIn = c.b.create<AddOp>(c.loc, zrIn, segment(c, recBias, 0, 2 * hidden));
        Value zr = gemm(h, rZR, zrIn);
        Value z = activate(c, act[0], clipped(columns(c, zr, 0, hidden)));
        Value rg = activate(c, act[0], clipped(columns(c, zr, hidden, hidden)));
        Value xh = gate(xw, 2);
        Value pre;
        if (linearBeforeReset) {
          Value rb = recBias ? segment(c, recBias, 2 * hidden, hidden) : Value();
          pre = c.b.create<AddOp>(c.loc, xh,
                                  c.b.create<MulOp>(c.loc, rg, gemm(h, rH, rb)));
        } else {
          pre = gemm(c.b.create<MulOp>(c.loc, rg, h), rH, xh);
        }
        Value cand = activate(c, act[1], clipped(pre));
        // (1 - z) cand + z H = cand + z (H - cand)
        hNew = c.b.create<AddOp>(
            c.loc, cand, c.b.create<MulOp>(c.loc, z, c.b.create<SubOp>(c.loc, h, cand)));
      }
      Value y = hNew;
      if (lens) {
        // Step t of a sequence shorter than t + 1: its state is held, its
        // output 0.
        Type lt = cast<RankedTensorType>(lens.getType()).getElementType();
        Value live = c.reshape(c.b.create<LessOp>(c.loc, c.scalar(lt, double(t)), lens),
                               {batch, 1});
        hNew = c.b.create<WhereOp>(c.loc, live, hNew, h);
        if (cNew)
          cNew = c.b.create<WhereOp>(c.loc, live, cNew, cell);
        y = c.b.create<WhereOp>(c.loc, live, hNew, zeros);
      }
      outs[t] = c.reshape(y, {1, 1, batch, hidden});
      h = hNew;
      if (cNew)
        cell = cNew;
    }
    ys[d] = steps == 1 ? outs[0]
                       : Value(c.b.create<ConcatOp>(c.loc, outs, c.b.getI64IntegerAttr(0)));
    // A sequence of length 0 ends in zero states, not its initial ones
    // (onnxruntime's answer; the spec is silent).
    if (lens) {
      Type lt = cast<RankedTensorType>(lens.getType()).getElementType();
      Value some = c.reshape(c.b.create<GreaterOp>(c.loc, lens, c.scalar(lt, 0)), {batch, 1});
      h = c.b.create<WhereOp>(c.loc, some, h, zeros);
      if (cell)
        cell = c.b.create<WhereOp>(c.loc, some, cell, zeros);
    }
    hs[d] = c.reshape(h, {1, batch, hidden});
    if (cell)
      cs[d] = c.reshape(cell, {1, batch, hidden});
  }
  auto join = [&](ArrayRef<Value> v, int64_t dim) -> Value {
    return v.size() == 1 ? v[0] : Value(c.b.create<ConcatOp>(c.loc, v, c.b.getI64IntegerAttr(dim)));
  };
  Value y = join(ys, 1), yh = join(hs, 0), yc = kind == Cell::LSTM ? join(cs, 0) : Value();
  if (layout) {
    y = c.b.create<TransposeOp>(c.loc, y, c.b.getDenseI64ArrayAttr({2, 0, 1, 3}));
    yh = c.b.create<TransposeOp>(c.loc, yh, c.b.getDenseI64ArrayAttr({1, 0, 2}));
    if (yc)
      yc = c.b.create<TransposeOp>(c.loc, yc, c.b.getDenseI64ArrayAttr({1, 0, 2}));
  }
  r.push_back(y);
  r.push_back(yh);
  if (kind == Cell::LSTM)
    r.push_back(yc);
  return success();
}

LogicalResult convertRNN(NodeContext &c, Results &r) { return convertRecurrent(c, r, Cell::RNN); }
LogicalResult convertGRU(NodeContext &c, Results &r) { return convertRecurrent(c, r, Cell::GRU); }
LogicalResult convertLSTM(NodeContext &c, Results &r) {
  return convertRecurrent(c, r, Cell::LSTM);
}
/// CausalConvWithState (opset 27; Mamba's and Gated DeltaNet's short
/// convolution): the past state (zeros when absent) before the input, a
/// depthwise convolution over the concatenation without padding, SiLU when
/// asked (in f32, as the reference), and the last k - 1 positions as the
/// present state.
LogicalResult convertCausalConvWithState(NodeContext &c, Results &r) {
  auto xt = c.type(0), wt = c.type(1);
  if (xt.getRank() != 3 || wt.getRank() != 3) {
    c.error() << "input and weight must be rank 3, got " << c.in(0).getType() << " and "
              << c.in(1).getType();
    return failure();
  }
  int64_t batch = xt.getDimSize(0), channels = xt.getDimSize(1), len = xt.getDimSize(2);
  int64_t k = wt.getDimSize(2);
  if (wt.getDimSize(0) != channels || wt.getDimSize(1) != 1 || k < 1) {
    c.error() << "weight " << c.in(1).getType() << " must be (" << channels << ", 1, k)";
    return failure();
  }
  std::string act = c.strAttr("activation", "none");
  if (act != "none" && act != "silu" && act != "swish") {
    c.error() << "unknown activation '" << act << "' (none, silu or swish)";
    return failure();
  }
  Type elt = xt.getElementType();
  Value padded = c.in(0);
  if (k > 1) {
    Value past;
    if (c.has(3)) {
      if (c.type(3).getShape() != ArrayRef<int64_t>{batch, channels, k - 1}) {
        c.error() << "past_state " << c.in(3).getType() << " must be (" << batch << ", "
                  << channels << ", " << k - 1 << ")";
        return failure();
      }
      past = c.in(3);
    } else {
      past = c.b.create<ExpandOp>(c.loc, RankedTensorType::get({batch, channels, k - 1}, elt),
                                  c.reshape(c.scalar(elt, 0), {1, 1, 1}));
    }
    padded = c.b.create<ConcatOp>(c.loc, ValueRange{past, c.in(0)}, c.b.getI64IntegerAttr(2));
  }
  if (c.has(2) && c.type(2).getShape() != ArrayRef<int64_t>{channels}) {
    c.error() << "bias " << c.in(2).getType() << " must hold one value per channel";
    return failure();
  }
  Value y = c.b.create<ConvOp>(c.loc, padded, c.in(1), c.in(2), c.b.getDenseI64ArrayAttr({1}),
                               c.b.getDenseI64ArrayAttr({0, 0}),
                               c.b.getDenseI64ArrayAttr({1}),
                               c.b.getI64IntegerAttr(channels));
  if (act != "none") {
    Value f = c.cast(y, c.b.getF32Type());
    y = c.cast(c.b.create<MulOp>(c.loc, f, c.b.create<SigmoidOp>(c.loc, f)), elt);
  }
  r.push_back(y);
  r.push_back(c.slice(padded, 2, len, k - 1));
  return success();
}

/// LinearAttention (opset 27): the recurrence of linear attention, gated
/// linear attention, DeltaNet and Gated DeltaNet (update_rule), unrolled
/// over the (static) sequence in f32 as the spec's reference runs it. Per
/// step and K/V head the state S [d_k, d_v] decays by exp(g_t) (per head
/// or per key dim), the delta rule replaces v_t by beta_t (v_t - S^T k_t),
/// S gains k_t v_t^T, and the step's output is scale q_t^T S for each
/// query head the K/V head serves (GQA: query heads h reads K/V head
/// h / (q_num_heads / kv_num_heads)).
LogicalResult convertLinearAttention(NodeContext &c, Results &r) {
  c.ignoreAttrs({"chunk_size"}); // a tuning hint: the values do not depend on it
  std::string rule = c.strAttr("update_rule", "gated_delta");
  if (rule != "linear" && rule != "gated" && rule != "delta" && rule != "gated_delta") {
    c.error() << "unknown update_rule '" << rule << "' (linear, gated, delta or gated_delta)";
    return failure();
  }
  bool gated = rule == "gated" || rule == "gated_delta";
  bool delta = rule == "delta" || rule == "gated_delta";
  int64_t hq = c.intAttr("q_num_heads", 0), hkv = c.intAttr("kv_num_heads", 0);
  if (hq <= 0 || hkv <= 0 || hq % hkv != 0) {
    c.error() << "q_num_heads (" << hq << ") must be a positive multiple of kv_num_heads ("
              << hkv << ")";
    return failure();
  }
  if (gated != c.has(4) || delta != c.has(5)) {
    c.error() << "update_rule '" << rule << "' " << (gated ? "requires" : "forbids")
              << " decay and " << (delta ? "requires" : "forbids") << " beta";
    return failure();
  }
  for (int i : {0, 1, 2})
    if (c.type(i).getRank() != 3) {
      c.error() << "query, key and value must be rank 3 (B, T, H*D), got "
                << c.in(i).getType();
      return failure();
    }
  int64_t batch = c.type(0).getDimSize(0), steps = c.type(0).getDimSize(1);
  int64_t dk = c.type(0).getDimSize(2) / hq, dv = c.type(2).getDimSize(2) / hkv;
  if (dk * hq != c.type(0).getDimSize(2) || dv * hkv != c.type(2).getDimSize(2) ||
      c.type(1).getShape() != ArrayRef<int64_t>{batch, steps, hkv * dk} ||
      c.type(2).getDimSize(0) != batch || c.type(2).getDimSize(1) != steps) {
    c.error() << "query " << c.in(0).getType() << ", key " << c.in(1).getType()
              << " and value " << c.in(2).getType() << " do not split into " << hq
              << " query and " << hkv << " key/value heads";
    return failure();
  }
  Type f32 = c.b.getF32Type(), outElt = c.type(0).getElementType();
  Type stateElt = c.has(3) ? c.type(3).getElementType() : outElt;
  int64_t group = hq / hkv;
  // [B, T, H*D] -> [B, H, T, D] in f32.
  auto heads = [&](Value v, int64_t h, int64_t d) {
    return c.b.create<TransposeOp>(c.loc, c.reshape(c.cast(v, f32), {batch, steps, h, d}),
                                   c.b.getDenseI64ArrayAttr({0, 2, 1, 3}));
  };
  Value q = heads(c.in(0), hq, dk), key = heads(c.in(1), hkv, dk), val = heads(c.in(2), hkv, dv);
  Value decay, beta;
  if (gated) {
    int64_t last = c.type(4).getRank() == 3 ? c.type(4).getDimSize(2) : -1;
    if (last != hkv && last != hkv * dk) {
      c.error() << "decay " << c.in(4).getType() << " must be (B, T, " << hkv << ") or (B, T, "
                << hkv * dk << ")";
      return failure();
    }
    decay = heads(c.in(4), hkv, last / hkv); // [B, Hkv, T, 1 or d_k]
  }
  if (delta) {
    int64_t last = c.type(5).getRank() == 3 ? c.type(5).getDimSize(2) : -1;
    if (last != hkv && last != 1) {
      c.error() << "beta " << c.in(5).getType() << " must be (B, T, " << hkv << ") or (B, T, 1)";
      return failure();
    }
    beta = heads(c.in(5), last, 1); // [B, Hkv or 1, T, 1]
  }
  Value state;
  if (c.has(3)) {
    if (c.type(3).getShape() != ArrayRef<int64_t>{batch, hkv, dk, dv}) {
      c.error() << "past_state " << c.in(3).getType() << " must be (" << batch << ", " << hkv
                << ", " << dk << ", " << dv << ")";
      return failure();
    }
    state = c.cast(c.in(3), f32);
  } else {
    state = c.b.create<ExpandOp>(c.loc, RankedTensorType::get({batch, hkv, dk, dv}, f32),
                                 c.reshape(c.scalar(f32, 0), {1, 1, 1, 1}));
  }
  double scale = c.floatAttr("scale", 0);
  if (scale == 0)
    scale = 1 / std::sqrt(double(dk));
  // Step t of a [B, H, T, D] value: [B, H, 1, D].
  auto at = [&](Value v, int64_t t) { return c.slice(v, 2, t, 1); };
  SmallVector<Value> outs;
  for (int64_t t = 0; t < steps; ++t) {
    Value kt = at(key, t), vt = at(val, t);
    if (gated) // [B, Hkv, 1, 1 or d_k] -> a factor per row of S
      state = c.b.create<MulOp>(
          c.loc, state,
          c.b.create<TransposeOp>(c.loc, c.b.create<ExpOp>(c.loc, at(decay, t)),
                                  c.b.getDenseI64ArrayAttr({0, 1, 3, 2})));
    if (delta) {
      Value retrieved = c.b.create<MatMulOp>(c.loc, kt, state); // [B, Hkv, 1, d_v]
      vt = c.b.create<MulOp>(c.loc, at(beta, t), c.b.create<SubOp>(c.loc, vt, retrieved));
    }
    Value kT = c.b.create<TransposeOp>(c.loc, kt, c.b.getDenseI64ArrayAttr({0, 1, 3, 2}));
    state = c.b.create<AddOp>(c.loc, state, c.b.create<MatMulOp>(c.loc, kT, vt));
    // The query heads of each K/V head as rows of one product.
    Value qt = c.reshape(at(q, t), {batch, hkv, group, dk});
    Value o = c.b.create<MatMulOp>(c.loc, qt, state); // [B, Hkv, G, d_v]
    outs.push_back(c.reshape(o, {batch, 1, hq * dv}));
  }
  Value out = outs.size() == 1 ? outs[0]
                               : Value(c.b.create<ConcatOp>(c.loc, outs, c.b.getI64IntegerAttr(1)));
  out = c.b.create<MulOp>(c.loc, out, c.scalar(f32, scale));
  r.push_back(c.cast(out, outElt));
  r.push_back(c.cast(state, stateElt));
  return success();
}
} // namespace

void dfa::onnximport::addRecurrentConverters(llvm::StringMap<Converter> &t) {
  t["RNN"] = convertRNN;
  t["GRU"] = convertGRU;
  t["LSTM"] = convertLSTM;
  t["CausalConvWithState"] = convertCausalConvWithState;
  t["LinearAttention"] = convertLinearAttention;
}
