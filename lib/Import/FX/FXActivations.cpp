//===- FXActivations.cpp - torch.nn activations, module and function --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The torch.nn activations beyond the plain unary ones, each one handler
/// for its three spellings: the module (nn.ELU, hyper-parameters from the
/// module record), the function (F.elu(x, alpha)) and the core ATen
/// operator (aten.elu.default). A hyper-parameter is read from the module
/// record for call_module nodes and from the arguments otherwise.
///
//===----------------------------------------------------------------------===//

#include "FXImporter.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::fximport;

namespace {
using R = PyValue;

/// A float hyper-parameter: argument `i` (or keyword `kw`) of a function,
/// the attribute `kw` of a module.
FailureOr<double> hyper(FXNode &n, size_t i, StringRef kw, double dflt) {
  if (n.module)
    return n.attrFloat(kw, dflt);
  return n.floatArg(i, kw, dflt);
}

FailureOr<int64_t> hyperInt(FXNode &n, size_t i, StringRef kw, int64_t dflt) {
  if (n.module)
    return n.attrInt(kw, dflt);
  return n.intArg(i, kw, dflt);
}

LogicalResult hardsigmoid(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  r = R::ofTensor(n.b.create<HardSigmoidOp>(n.loc, *x, n.b.getF64FloatAttr(1.0 / 6),
                                            n.b.getF64FloatAttr(0.5)));
  return success();
}

LogicalResult elu(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto alpha = hyper(n, 1, "alpha", 1.0);
  if (failed(x) || failed(alpha))
    return failure();
  double scale = 1, in = 1;
  if (!n.module) { // aten.elu's scale and input_scale (selu decomposes so)
    auto s = n.floatArg(2, "scale", 1), i = n.floatArg(3, "input_scale", 1);
    if (failed(s) || failed(i))
      return failure();
    scale = *s;
    in = *i;
  }
  Type elt = n.type(*x).getElementType();
  Value y;
  if (in == 1) {
    y = n.b.create<EluOp>(n.loc, *x, n.b.getF64FloatAttr(*alpha));
  } else {
    // alpha (exp(x input_scale) - 1) where x <= 0.
    Value e = n.b.create<ExpOp>(n.loc, n.b.create<MulOp>(n.loc, *x, n.scalar(elt, in)));
    Value neg = n.b.create<MulOp>(
        n.loc, n.b.create<SubOp>(n.loc, e, n.scalar(elt, 1)), n.scalar(elt, *alpha));
    Value pos = n.b.create<GreaterOp>(n.loc, *x, n.scalar(elt, 0));
    y = n.b.create<WhereOp>(n.loc, pos, *x, neg);
  }
  if (scale != 1)
    y = n.b.create<MulOp>(n.loc, y, n.scalar(elt, scale));
  r = R::ofTensor(y);
  return success();
}

LogicalResult selu(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  // torch's constants, in double.
  r = R::ofTensor(n.b.create<SeluOp>(n.loc, *x, n.b.getF64FloatAttr(1.6732632423543772),
                                     n.b.getF64FloatAttr(1.0507009873554805)));
  return success();
}

LogicalResult celu(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto alpha = hyper(n, 1, "alpha", 1.0);
  if (failed(x) || failed(alpha))
    return failure();
  r = R::ofTensor(n.b.create<CeluOp>(n.loc, *x, n.b.getF64FloatAttr(*alpha)));
  return success();
}

/// log(sigmoid(x)) = -softplus(-x), stable for large |x|.
LogicalResult logsigmoid(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Value neg = n.b.create<NegOp>(n.loc, *x);
  r = R::ofTensor(n.b.create<NegOp>(n.loc, n.b.create<SoftplusOp>(n.loc, neg)));
  return success();
}

/// softplus(x, beta, threshold) = log(1 + exp(beta x)) / beta, and x where
/// beta x > threshold.
LogicalResult softplus(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto beta = hyper(n, 1, "beta", 1.0), threshold = hyper(n, 2, "threshold", 20.0);
  if (failed(x) || failed(beta) || failed(threshold))
    return failure();
  Type elt = n.type(*x).getElementType();
  Value bx = *beta == 1 ? *x : Value(n.b.create<MulOp>(n.loc, *x, n.scalar(elt, *beta)));
  Value sp = n.b.create<SoftplusOp>(n.loc, bx);
  if (*beta != 1)
    sp = n.b.create<DivOp>(n.loc, sp, n.scalar(elt, *beta));
  Value big = n.b.create<GreaterOp>(n.loc, bx, n.scalar(elt, *threshold));
  r = R::ofTensor(n.b.create<WhereOp>(n.loc, big, *x, sp));
  return success();
}

/// glu(x, dim): the first half times the sigmoid of the second.
LogicalResult glu(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto d = hyperInt(n, 1, "dim", -1);
  if (failed(x) || failed(d))
    return failure();
  auto t = n.type(*x);
  auto dd = n.dim(*d, t.getRank());
  if (failed(dd))
    return failure();
  int64_t len = t.getDimSize(*dd);
  if (len % 2) {
    n.error() << "glu halves dim " << *dd << " of odd size " << len;
    return failure();
  }
  auto parts = n.b.create<SplitOp>(n.loc, *x, n.b.getI64IntegerAttr(*dd),
                                   n.b.getDenseI64ArrayAttr({len / 2, len / 2}));
  Value gate = n.b.create<SigmoidOp>(n.loc, parts.getResult(1));
  r = R::ofTensor(n.b.create<MulOp>(n.loc, parts.getResult(0), gate));
  return success();
}

/// prelu(x, weight): one slope, or one per channel (dim 1).
LogicalResult prelu(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  Value w = n.module ? n.requiredParam("weight") : n.optTensor(1, "weight");
  if (failed(x) || !w) {
    if (!n.module && succeeded(x))
      n.error() << "prelu needs a weight tensor";
    return failure();
  }
  auto t = n.type(*x);
  int64_t c = n.type(w).getNumElements();
  if (c != 1 && (t.getRank() < 2 || t.getDimSize(1) != c)) {
    n.error() << "prelu weight of " << c << " slopes for " << x->getType();
    return failure();
  }
  SmallVector<int64_t> shape;
  if (c != 1) {
    shape.assign(t.getRank() - 1, 1);
    shape[0] = c;
  }
  r = R::ofTensor(n.b.create<PReluOp>(n.loc, *x, n.reshape(w, shape)));
  return success();
}

LogicalResult softmin(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto d = hyperInt(n, 1, "dim", -1);
  if (failed(x) || failed(d))
    return failure();
  return setTensor(r, softmax(n, n.b.create<NegOp>(n.loc, *x), *d, false));
}

LogicalResult softmax2d(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  if (n.type(*x).getRank() < 3) {
    n.error() << "Softmax2d needs a 3-d or 4-d input";
    return failure();
  }
  return setTensor(r, softmax(n, *x, -3, false));
}

LogicalResult tanhshrink(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  r = R::ofTensor(n.b.create<SubOp>(n.loc, *x, n.b.create<TanhOp>(n.loc, *x)));
  return success();
}

/// hardshrink (0 inside [-lambd, lambd], x outside) and softshrink (x moved
/// towards 0 by lambd outside).
template <bool Soft> LogicalResult shrink(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto lambd = hyper(n, 1, "lambd", 0.5);
  if (failed(x) || failed(lambd))
    return failure();
  r = R::ofTensor(n.b.create<ShrinkOp>(n.loc, *x, n.b.getF64FloatAttr(Soft ? *lambd : 0.0),
                                       n.b.getF64FloatAttr(*lambd)));
  return success();
}

/// threshold(x, threshold, value): x where x > threshold, else value.
LogicalResult threshold(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto th = hyper(n, 1, "threshold", 0), v = hyper(n, 2, "value", 0);
  if (failed(x) || failed(th) || failed(v))
    return failure();
  Type elt = n.type(*x).getElementType();
  Value keep = n.b.create<GreaterOp>(n.loc, *x, n.scalar(elt, *th));
  r = R::ofTensor(n.b.create<WhereOp>(n.loc, keep, *x, n.scalar(elt, *v)));
  return success();
}

/// rrelu in eval mode: a leaky relu with the mean slope.
LogicalResult rrelu(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto lo = hyper(n, 1, "lower", 1.0 / 8), hi = hyper(n, 2, "upper", 1.0 / 3);
  if (failed(x) || failed(lo) || failed(hi))
    return failure();
  if (!n.module) {
    auto training = n.intArg(3, "training", 0);
    if (failed(training))
      return failure();
    if (*training) {
      n.unsupported() << "rrelu in training mode (random slopes)";
      return failure();
    }
  }
  r = R::ofTensor(n.b.create<LeakyReluOp>(n.loc, *x, n.b.getF64FloatAttr((*lo + *hi) / 2)));
  return success();
}

/// torchvision.ops.stochastic_depth(input, p, mode, training): the identity
/// in eval mode.
LogicalResult stochasticDepth(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto p = n.floatArg(1, "p", 0);
  auto training = n.intArg(3, "training", 1);
  if (failed(x) || failed(p) || failed(training))
    return failure();
  if (*training && *p > 0) {
    n.unsupported() << "stochastic depth in training mode (random drops)";
    return failure();
  }
  r = R::ofTensor(*x);
  return success();
}
} // namespace

void dfa::fximport::addActivationHandlers(llvm::StringMap<Handler> &table,
                                          bool modules) {
  struct Entry {
    Handler handler;
    std::initializer_list<const char *> functions, modules;
  };
  const Entry entries[] = {
      {hardsigmoid, {"hardsigmoid", "aten.hardsigmoid.default"}, {"Hardsigmoid"}},
      {elu, {"elu", "aten.elu.default"}, {"ELU"}},
      {selu, {"selu", "aten.selu.default"}, {"SELU"}},
      {celu, {"celu", "aten.celu.default"}, {"CELU"}},
      {logsigmoid, {"logsigmoid", "log_sigmoid"}, {"LogSigmoid"}},
      {softplus, {"softplus", "aten.softplus.default"}, {"Softplus"}},
      {glu, {"glu", "aten.glu.default"}, {"GLU"}},
      {prelu, {"prelu", "aten._prelu_kernel.default", "aten.prelu.default"}, {"PReLU"}},
      {softmin, {"softmin"}, {"Softmin"}},
      {softmax2d, {}, {"Softmax2d"}},
      {tanhshrink, {"tanhshrink"}, {"Tanhshrink"}},
      {shrink<false>, {"hardshrink", "aten.hardshrink.default"}, {"Hardshrink"}},
      {shrink<true>, {"softshrink", "aten.softshrink.default"}, {"Softshrink"}},
      {threshold, {"threshold", "_threshold", "aten.threshold.default"}, {"Threshold"}},
      {rrelu, {"rrelu"}, {"RReLU"}},
      {stochasticDepth, {"torchvision.ops.stochastic_depth.stochastic_depth"},
       {}},
  };
  for (const Entry &e : entries)
    for (const char *name : modules ? e.modules : e.functions)
      table[name] = e.handler;
}
