//===- FXMath.cpp - FX math, norms, scans and distances ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// torch functions that are compositions of graph ops: the elementwise math
/// the graph dialect has no single op for (atan2, hypot, logaddexp, lerp,
/// ...), vector norms and distances (linalg.vector_norm, cosine_similarity,
/// cdist, pdist), the cumulative scans (cummax, cummin, logcumsumexp),
/// order statistics (median, kthvalue, bucketize), the normalizations and
/// poolings that nn modules call (instance_norm, local_response_norm,
/// rms_norm, adaptive and power-average pooling), and the table-building
/// functions (one_hot, diag, meshgrid, embedding_bag). The function, method
/// and ATen forms share a handler where their arguments agree.
///
//===----------------------------------------------------------------------===//

#include "FXImporter.h"

#include "dfa/Reference/Evaluator.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::fximport;

namespace {
using R = PyValue;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// An i64 constant of `shape`.
Value indexConstant(FXNode &n, ArrayRef<int64_t> shape, ArrayRef<int64_t> values) {
  auto t = RankedTensorType::get(shape, n.b.getI64Type());
  return n.b.create<ConstantOp>(n.loc, DenseElementsAttr::get(t, values));
}

/// `x` in the default float dtype when it is an integer or bool tensor (the
/// transcendental functions promote so in torch).
Value floating(FXNode &n, Value x) {
  return isa<FloatType>(n.type(x).getElementType()) ? x : n.cast(x, n.b.getF32Type());
}

Value unsqueezed(FXNode &n, Value x, int64_t at) {
  SmallVector<int64_t> shape(n.type(x).getShape());
  shape.insert(shape.begin() + at, 1);
  return n.reshape(x, shape);
}

/// Two tensor (or number) arguments as float tensors of one type.
FailureOr<std::pair<Value, Value>> floatPair(FXNode &n, StringRef a, StringRef b) {
  const R *x = n.arg(0, a), *y = n.arg(1, b);
  if (!x || !y || (x->kind != R::Tensor && y->kind != R::Tensor)) {
    n.error() << "needs two tensor operands";
    return failure();
  }
  // torch's promotion of the operands, then the default float type for
  // integers and bools.
  Value like = x->kind == R::Tensor ? x->tensor : y->tensor;
  Type elt = x->kind == R::Tensor && y->kind == R::Tensor
                 ? promotedType(x->tensor, y->tensor)
                 : n.type(like).getElementType();
  if (!isa<FloatType>(elt))
    elt = n.b.getF32Type();
  auto number = [&](const R *v) -> FailureOr<Value> {
    if (!v->isNumber()) {
      n.error() << "expected a tensor or a number, got " << v->describe();
      return failure();
    }
    return n.scalar(elt, v->number());
  };
  auto tx = x->kind == R::Tensor ? FailureOr<Value>(x->tensor) : number(x);
  auto ty = y->kind == R::Tensor ? FailureOr<Value>(y->tensor) : number(y);
  if (failed(tx) || failed(ty))
    return failure();
  Value l = n.cast(*tx, elt), r = n.cast(*ty, elt);
  if (failed(broadcastShapes(n.type(l).getShape(), n.type(r).getShape()))) {
    n.error() << "operand shapes " << l.getType() << " and " << r.getType()
              << " do not broadcast";
    return failure();
  }
  return std::make_pair(l, r);
}

/// Both operands broadcast to one shape (torch expands them first).
FailureOr<std::pair<Value, Value>> broadcastPair(FXNode &n, Value a, Value b) {
  auto shape = broadcastShapes(n.type(a).getShape(), n.type(b).getShape());
  if (failed(shape)) {
    n.error() << "operand shapes " << a.getType() << " and " << b.getType()
              << " do not broadcast";
    return failure();
  }
  auto grow = [&](Value v) -> Value {
    auto t = n.type(v);
    if (t.getShape() == ArrayRef<int64_t>(*shape))
      return v;
    SmallVector<int64_t> ones(shape->size() - t.getRank(), 1);
    ones.append(t.getShape().begin(), t.getShape().end());
    return n.b.create<ExpandOp>(n.loc, RankedTensorType::get(*shape, t.getElementType()),
                                n.reshape(v, ones));
  };
  return std::make_pair(grow(a), grow(b));
}

//===----------------------------------------------------------------------===//
// Elementwise math
//===----------------------------------------------------------------------===//

/// exp2(x) = exp(x log 2).
LogicalResult exp2(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Value v = floating(n, *x);
  r = R::ofTensor(n.b.create<ExpOp>(
      n.loc, n.b.create<MulOp>(n.loc, v, n.scalar(n.type(v).getElementType(), std::log(2.0)))));
  return success();
}

/// log2 and log10: log(x) / log(base).
template <int Base> LogicalResult logBase(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Value v = floating(n, *x);
  Type elt = n.type(v).getElementType();
  r = R::ofTensor(n.b.create<DivOp>(n.loc, n.b.create<LogOp>(n.loc, v),
                                    n.scalar(elt, std::log(double(Base)))));
  return success();
}

/// isinf (Kind 0), isposinf (1), isneginf (2), isfinite (3).
template <int Kind> LogicalResult infinity(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  auto t = n.type(*x);
  auto bools = t.clone(n.b.getI1Type());
  if (!isa<FloatType>(t.getElementType())) {
    r = R::ofTensor(n.filled(t.getShape(), n.b.getI1Type(), Kind == 3));
    return success();
  }
  if (Kind == 3) {
    Value bad = n.b.create<OrOp>(n.loc, n.b.create<IsInfOp>(n.loc, bools, *x),
                                 n.b.create<IsNaNOp>(n.loc, bools, *x));
    r = R::ofTensor(n.b.create<NotOp>(n.loc, bad));
    return success();
  }
  r = R::ofTensor(n.b.create<IsInfOp>(n.loc, bools, *x, n.b.getBoolAttr(Kind != 2),
                                      n.b.getBoolAttr(Kind != 1)));
  return success();
}

/// frac(x) = x - trunc(x).
LogicalResult frac(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Type elt = n.type(*x).getElementType();
  if (!isa<FloatType>(elt)) {
    n.error() << "frac of " << x->getType();
    return failure();
  }
  Value t = n.b.create<WhereOp>(n.loc, n.b.create<LessOp>(n.loc, *x, n.scalar(elt, 0)),
                                n.b.create<CeilOp>(n.loc, *x), n.b.create<FloorOp>(n.loc, *x));
  r = R::ofTensor(n.b.create<SubOp>(n.loc, *x, t));
  return success();
}

/// square(x) = x * x (integers stay integers; bools become int64).
LogicalResult square(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Value v = n.type(*x).getElementType().isInteger(1) ? n.cast(*x, n.b.getI64Type()) : *x;
  r = R::ofTensor(n.b.create<MulOp>(n.loc, v, v));
  return success();
}

/// atan2(y, x) as C's atan2 (signed zeros and infinities included):
/// atan(y / x), turned by +-pi (y's sign) where x is negative or -0; on an
/// axis or at infinity the value the standard lists.
LogicalResult atan2(FXNode &n, R &r) {
  auto yx = floatPair(n, "input", "other");
  if (failed(yx))
    return failure();
  auto bp = broadcastPair(n, yx->first, yx->second);
  if (failed(bp))
    return failure();
  Value y = bp->first, x = bp->second;
  auto t = n.type(y);
  Type elt = t.getElementType();
  auto bools = t.clone(n.b.getI1Type());
  Value zero = n.scalar(elt, 0);
  // The sign bit, -0 included (1 / -0 is -inf).
  auto negative = [&](Value v) -> Value {
    Value inv = n.b.create<DivOp>(n.loc, n.scalar(elt, 1), v);
    return n.b.create<OrOp>(n.loc, n.b.create<LessOp>(n.loc, v, zero),
                            n.b.create<AndOp>(n.loc, n.b.create<EqualOp>(n.loc, v, zero),
                                              n.b.create<LessOp>(n.loc, inv, zero)));
  };
  Value sy = negative(y), sx = negative(x);
  auto signed_ = [&](double v) -> Value { // v with y's sign
    return n.b.create<WhereOp>(n.loc, sy, n.scalar(elt, -v), n.scalar(elt, v));
  };
  Value a = n.b.create<AtanOp>(n.loc, n.b.create<DivOp>(n.loc, y, x));
  a = n.b.create<WhereOp>(n.loc, sx, n.b.create<AddOp>(n.loc, a, signed_(M_PI)), a);
  Value x0 = n.b.create<EqualOp>(n.loc, x, zero), y0 = n.b.create<EqualOp>(n.loc, y, zero);
  Value xInf = n.b.create<IsInfOp>(n.loc, bools, x), yInf = n.b.create<IsInfOp>(n.loc, bools, y);
  // On the x axis (y = +-0): +-0 toward +x (x > 0 or +0), +-pi toward -x.
  a = n.b.create<WhereOp>(n.loc, y0,
                          n.b.create<WhereOp>(n.loc, sx, signed_(M_PI), signed_(0.0)), a);
  // On the y axis (x = +-0, y not): +-pi/2; so with y infinite, x finite.
  a = n.b.create<WhereOp>(
      n.loc, n.b.create<OrOp>(n.loc, n.b.create<AndOp>(n.loc, x0, n.b.create<NotOp>(n.loc, y0)),
                              n.b.create<AndOp>(n.loc, yInf, n.b.create<NotOp>(n.loc, xInf))),
      signed_(M_PI / 2), a);
  // Both infinite: +-pi/4 toward +x, +-3pi/4 toward -x.
  a = n.b.create<WhereOp>(n.loc, n.b.create<AndOp>(n.loc, xInf, yInf),
                          n.b.create<WhereOp>(n.loc, sx, signed_(3 * M_PI / 4), signed_(M_PI / 4)),
                          a);
  Value nan = n.b.create<OrOp>(n.loc, n.b.create<IsNaNOp>(n.loc, bools, x),
                               n.b.create<IsNaNOp>(n.loc, bools, y));
  r = R::ofTensor(n.b.create<WhereOp>(n.loc, nan, n.scalar(elt, std::nan("")), a));
  return success();
}

/// hypot(a, b) = sqrt(a^2 + b^2) without overflow, as C's hypot: the
/// larger magnitude m times sqrt(1 + (small / m)^2); 0 when both are 0, inf
/// when either is infinite (a NaN beside it too), else NaN with a NaN.
LogicalResult hypot(FXNode &n, R &r) {
  auto ab = floatPair(n, "input", "other");
  if (failed(ab))
    return failure();
  auto [a, b] = *ab;
  auto t = n.type(a);
  Type elt = t.getElementType();
  Value x = n.b.create<AbsOp>(n.loc, a), y = n.b.create<AbsOp>(n.loc, b);
  Value big = n.b.create<MaxOp>(n.loc, x, y), small = n.b.create<MinOp>(n.loc, x, y);
  Value q = n.b.create<DivOp>(n.loc, small, big);
  Value v = n.b.create<MulOp>(
      n.loc, big,
      n.b.create<SqrtOp>(n.loc, n.b.create<AddOp>(n.loc, n.scalar(elt, 1),
                                                  n.b.create<MulOp>(n.loc, q, q))));
  v = n.b.create<WhereOp>(n.loc, n.b.create<EqualOp>(n.loc, big, n.scalar(elt, 0)),
                          n.scalar(elt, 0), v);
  Value nan = n.b.create<OrOp>(n.loc, n.b.create<IsNaNOp>(n.loc, t.clone(n.b.getI1Type()), a),
                               n.b.create<IsNaNOp>(n.loc, n.type(b).clone(n.b.getI1Type()), b));
  v = n.b.create<WhereOp>(n.loc, nan, n.scalar(elt, std::nan("")), v);
  Value inf = n.b.create<OrOp>(n.loc, n.b.create<IsInfOp>(n.loc, t.clone(n.b.getI1Type()), a),
                               n.b.create<IsInfOp>(n.loc, n.type(b).clone(n.b.getI1Type()), b));
  r = R::ofTensor(n.b.create<WhereOp>(n.loc, inf, n.scalar(elt, kInf), v));
  return success();
}

/// log(exp(a) + exp(b)) (Base e) or log2(2^a + 2^b), as max + log(1 +
/// exp(-|a - b|)); equal operands (infinities among them) give a + log 2.
Value logAddExp(FXNode &n, Value a, Value b, bool base2) {
  Type elt = n.type(a).getElementType();
  double ln2 = std::log(2.0);
  if (base2) {
    a = n.b.create<MulOp>(n.loc, a, n.scalar(elt, ln2));
    b = n.b.create<MulOp>(n.loc, b, n.scalar(elt, ln2));
  }
  Value m = n.b.create<MaxOp>(n.loc, a, b);
  Value d = n.b.create<AbsOp>(n.loc, n.b.create<SubOp>(n.loc, a, b));
  Value tail = n.b.create<LogOp>(
      n.loc, n.b.create<AddOp>(n.loc, n.scalar(elt, 1),
                               n.b.create<ExpOp>(n.loc, n.b.create<NegOp>(n.loc, d))));
  Value v = n.b.create<WhereOp>(n.loc, n.b.create<EqualOp>(n.loc, a, b),
                                n.b.create<AddOp>(n.loc, a, n.scalar(elt, ln2)),
                                n.b.create<AddOp>(n.loc, m, tail));
  return base2 ? Value(n.b.create<DivOp>(n.loc, v, n.scalar(elt, ln2))) : v;
}

template <bool Base2> LogicalResult logaddexp(FXNode &n, R &r) {
  auto ab = floatPair(n, "input", "other");
  if (failed(ab))
    return failure();
  r = R::ofTensor(logAddExp(n, ab->first, ab->second, Base2));
  return success();
}

/// lerp(start, end, weight), as ATen computes it: start + w (end - start)
/// for |w| < 0.5, else end - (end - start)(1 - w).
LogicalResult lerp(FXNode &n, R &r) {
  auto a = n.tensor(0, "input"), b = n.tensor(1, "end");
  const R *w = n.arg(2, "weight");
  if (failed(a) || failed(b) || !w)
    return failure();
  auto wt = n.asTensor(*w, *a);
  if (failed(wt))
    return failure();
  Type elt = n.type(*a).getElementType();
  Value diff = n.b.create<SubOp>(n.loc, *b, *a);
  Value low = n.b.create<AddOp>(n.loc, *a, n.b.create<MulOp>(n.loc, *wt, diff));
  Value high = n.b.create<SubOp>(
      n.loc, *b,
      n.b.create<MulOp>(n.loc, diff, n.b.create<SubOp>(n.loc, n.scalar(elt, 1), *wt)));
  if (w->isNumber()) {
    r = R::ofTensor(std::abs(w->number()) < 0.5 ? low : high);
    return success();
  }
  Value small = n.b.create<LessOp>(n.loc, n.b.create<AbsOp>(n.loc, *wt), n.scalar(elt, 0.5));
  r = R::ofTensor(n.b.create<WhereOp>(n.loc, small, low, high));
  return success();
}

} // namespace

/// clamp(x, min, max) with a tensor bound: maximum then minimum.
LogicalResult dfa::fximport::clampTensor(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Value v = *x;
  // The result's type: torch promotes x with tensor bounds (and with a
  // float number bound of an integer x).
  SmallVector<Value> operands{v};
  bool floatNumber = false;
  for (auto [i, kw] : {std::pair<size_t, const char *>{1, "min"}, {2, "max"}}) {
    const R *b = n.arg(i, kw);
    if (b && b->kind == R::Tensor)
      operands.push_back(b->tensor);
    floatNumber |= b && b->kind == R::Float;
  }
  Type elt = promotedType(operands);
  if (floatNumber && !isa<FloatType>(elt))
    elt = n.b.getF32Type();
  v = n.cast(v, elt);
  for (auto [i, kw] : {std::pair<size_t, const char *>{1, "min"}, {2, "max"}}) {
    const R *b = n.arg(i, kw);
    if (!b || b->kind == R::None)
      continue;
    if (!b->isNumber() && b->kind != R::Tensor) {
      n.error() << "clamp bound " << b->describe();
      return failure();
    }
    Value bound = n.cast(b->kind == R::Tensor ? b->tensor : n.scalar(elt, b->number()), elt);
    if (failed(broadcastShapes(n.type(v).getShape(), n.type(bound).getShape()))) {
      n.error() << "clamp bound " << bound.getType() << " does not broadcast with "
                << v.getType();
      return failure();
    }
    v = i == 1 ? Value(n.b.create<MaxOp>(n.loc, v, bound))
               : Value(n.b.create<MinOp>(n.loc, v, bound));
  }
  r = R::ofTensor(v);
  return success();
}

namespace {

//===----------------------------------------------------------------------===//
// Norms and distances
//===----------------------------------------------------------------------===//

/// The vector norm of x of order `ord` over `dims` (every dim when empty):
/// 2 and 1 as their reductions, +-inf as the max/min of |x|, 0 as the count
/// of non-zeros, any other p as (sum |x|^p)^(1/p).
Value vectorNorm(FXNode &n, Value x, double ord, ArrayRef<int64_t> dims, bool keep) {
  x = floating(n, x);
  Type elt = n.type(x).getElementType();
  auto axes = n.b.getDenseI64ArrayAttr(dims);
  auto kd = n.b.getBoolAttr(keep);
  if (ord == 2)
    return n.b.create<ReduceL2Op>(n.loc, x, axes, kd);
  if (ord == 1)
    return n.b.create<ReduceL1Op>(n.loc, x, axes, kd);
  Value a = n.b.create<AbsOp>(n.loc, x);
  if (ord == kInf)
    return n.b.create<ReduceMaxOp>(n.loc, a, axes, kd);
  if (ord == -kInf)
    return n.b.create<ReduceMinOp>(n.loc, a, axes, kd);
  if (ord == 0) {
    Value nz = n.b.create<NotOp>(n.loc, n.b.create<EqualOp>(n.loc, x, n.scalar(elt, 0)));
    return n.b.create<ReduceSumOp>(n.loc, n.cast(nz, elt), axes, kd);
  }
  Value s = n.b.create<ReduceSumOp>(
      n.loc, n.b.create<PowOp>(n.loc, a, n.scalar(elt, ord)), axes, kd);
  return n.b.create<PowOp>(n.loc, s, n.scalar(elt, 1.0 / ord));
}

/// An order argument: a number, inf, or absent/None for `dflt`.
FailureOr<double> orderArg(FXNode &n, size_t i, StringRef kw, double dflt, bool *fro = nullptr) {
  const R *o = n.arg(i, kw);
  if (!o || o->kind == R::None)
    return dflt;
  if (o->isNumber())
    return o->number();
  if (o->kind == R::Str && o->s == "fro" && fro) {
    *fro = true;
    return 2.0;
  }
  n.unsupported() << "norm order " << o->describe();
  return failure();
}

/// linalg.vector_norm(x, ord=2, dim=None, keepdim=False, dtype=None).
LogicalResult linalgVectorNorm(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto ord = orderArg(n, 1, "ord", 2);
  auto keep = n.intArg(3, "keepdim", 0);
  if (failed(x) || failed(ord) || failed(keep))
    return failure();
  Value v = *x;
  if (Type want = n.dtypeArg())
    v = n.cast(v, want);
  auto dims = reduceDims(n, v, n.arg(2, "dim"));
  if (failed(dims))
    return failure();
  r = R::ofTensor(vectorNorm(n, v, *ord, *dims, *keep));
  return success();
}

/// linalg.norm(x, ord=None, dim=None, keepdim=False) and torch.norm /
/// x.norm(p='fro', dim=None, keepdim=False): vector norms, and the
/// Frobenius norm (the 2-norm of the entries) of matrices; the spectral and
/// nuclear matrix norms need a decomposition and are refused.
template <bool Linalg> LogicalResult norm(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  bool fro = false;
  const R *o = n.arg(1, Linalg ? "ord" : "p");
  auto ord = orderArg(n, 1, Linalg ? "ord" : "p", 2, &fro);
  auto keep = n.intArg(3, "keepdim", 0);
  if (failed(ord) || failed(keep))
    return failure();
  const R *d = n.arg(2, "dim");
  auto dims = reduceDims(n, *x, d);
  if (failed(dims))
    return failure();
  // linalg.norm with an order over two dims is a matrix norm.
  bool matrix = Linalg && o && o->kind != R::None && !fro &&
                (dims->size() == 2 || ((!d || d->kind == R::None) && n.type(*x).getRank() == 2));
  if (matrix) {
    std::string order = std::isfinite(*ord) && *ord == std::floor(*ord)
                            ? std::to_string(int64_t(*ord))
                            : llvm::formatv("{0}", *ord).str();
    n.unsupported() << "matrix norm of order " << order << " (only the Frobenius norm)";
    return failure();
  }
  Value v = *x;
  if (Type want = n.dtypeArg())
    v = n.cast(v, want);
  r = R::ofTensor(vectorNorm(n, v, *ord, *dims, *keep));
  return success();
}

/// cosine_similarity(x1, x2, dim=1, eps=1e-8): each vector over its norm
/// clamped below by eps, then their dot product (ATen's formula).
LogicalResult cosineSimilarity(FXNode &n, R &r) {
  auto ab = floatPair(n, "x1", "x2");
  auto dim = n.intArg(2, "dim", 1);
  auto eps = n.floatArg(3, "eps", 1e-8);
  if (failed(ab) || failed(dim) || failed(eps))
    return failure();
  auto bp = broadcastPair(n, ab->first, ab->second);
  if (failed(bp))
    return failure();
  auto [a, b] = *bp;
  auto d = n.dim(*dim, n.type(a).getRank());
  if (failed(d))
    return failure();
  Type elt = n.type(a).getElementType();
  auto unit = [&](Value v) -> Value {
    Value norm = vectorNorm(n, v, 2, {*d}, true);
    return n.b.create<DivOp>(n.loc, v, n.b.create<MaxOp>(n.loc, norm, n.scalar(elt, *eps)));
  };
  r = R::ofTensor(n.b.create<ReduceSumOp>(n.loc, n.b.create<MulOp>(n.loc, unit(a), unit(b)),
                                          n.b.getDenseI64ArrayAttr({*d}),
                                          n.b.getBoolAttr(false)));
  return success();
}

/// pairwise_distance(x1, x2, p=2, eps=1e-6, keepdim=False): the p-norm of
/// x1 - x2 + eps over the last dim.
LogicalResult pairwiseDistance(FXNode &n, R &r) {
  auto ab = floatPair(n, "x1", "x2");
  auto p = n.floatArg(2, "p", 2), eps = n.floatArg(3, "eps", 1e-6);
  auto keep = n.intArg(4, "keepdim", 0);
  if (failed(ab) || failed(p) || failed(eps) || failed(keep))
    return failure();
  Type elt = n.type(ab->first).getElementType();
  Value diff = n.b.create<AddOp>(n.loc, n.b.create<SubOp>(n.loc, ab->first, ab->second),
                                 n.scalar(elt, *eps));
  int64_t last = n.type(diff).getRank() - 1;
  if (last < 0) {
    n.error() << "pairwise distance of 0-d tensors";
    return failure();
  }
  r = R::ofTensor(vectorNorm(n, diff, *p, {last}, *keep));
  return success();
}

/// The p-distances between the rows of x1 [..., P, M] and x2 [..., R, M]:
/// [..., P, R]. Euclidean distances by a product (`mm`) as ATen computes
/// them for more than 25 rows: [-2 x1, |x1|^2, 1] . [x2, 1, |x2|^2],
/// clamped at 0 before the square root; else from the differences.
FailureOr<Value> pDistances(FXNode &n, Value x1, Value x2, double p, bool mm) {
  auto t1 = n.type(x1), t2 = n.type(x2);
  if (t1.getRank() < 2 || t2.getRank() < 2 ||
      t1.getShape().back() != t2.getShape().back()) {
    n.error() << "cdist needs [..., P, M] and [..., R, M], got " << x1.getType() << " and "
              << x2.getType();
    return failure();
  }
  int64_t rank = t1.getRank();
  Type elt = t1.getElementType();
  if (mm && p == 2) {
    auto ones = [&](Value v) {
      SmallVector<int64_t> s(n.type(v).getShape());
      s.back() = 1;
      return n.filled(s, elt, 1);
    };
    auto sq = [&](Value v) -> Value {
      return n.b.create<ReduceSumSquareOp>(n.loc, v,
                                           n.b.getDenseI64ArrayAttr({n.type(v).getRank() - 1}),
                                           n.b.getBoolAttr(true));
    };
    Value a = n.b.create<ConcatOp>(
        n.loc, ValueRange{n.b.create<MulOp>(n.loc, x1, n.scalar(elt, -2)), sq(x1), ones(x1)},
        n.b.getI64IntegerAttr(rank - 1));
    Value b = n.b.create<ConcatOp>(n.loc, ValueRange{x2, ones(x2), sq(x2)},
                                   n.b.getI64IntegerAttr(t2.getRank() - 1));
    SmallVector<int64_t> perm;
    for (int64_t i = 0; i < t2.getRank(); ++i)
      perm.push_back(i);
    std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
    Value d2 = n.b.create<MatMulOp>(n.loc, a, n.transpose(b, perm));
    return Value(n.b.create<SqrtOp>(n.loc, n.b.create<MaxOp>(n.loc, d2, n.scalar(elt, 0))));
  }
  Value diff = n.b.create<SubOp>(n.loc, unsqueezed(n, x1, rank - 1),
                                 unsqueezed(n, x2, t2.getRank() - 2));
  return vectorNorm(n, diff, p, {n.type(diff).getRank() - 1}, false);
}

/// cdist(x1, x2, p=2, compute_mode=...) and ATen's _cdist_forward(x1, x2,
/// p, compute_mode: None, 1 use mm, 2 do not).
template <bool Aten> LogicalResult cdist(FXNode &n, R &r) {
  auto a = n.tensor(0, "x1"), b = n.tensor(1, "x2");
  auto p = n.floatArg(2, "p", 2);
  if (failed(a) || failed(b) || failed(p))
    return failure();
  Value x1 = floating(n, *a), x2 = floating(n, *b);
  Type elt = promotedType(n.type(x1).getElementType(), n.type(x2).getElementType());
  std::pair<Value, Value> pair{n.cast(x1, elt), n.cast(x2, elt)};
  auto *ab = &pair;
  if (*p < 0) {
    n.error() << "cdist's p must be non-negative, got " << *p;
    return failure();
  }
  const R *mode = n.arg(3, "compute_mode");
  auto t1 = n.type(ab->first), t2 = n.type(ab->second);
  bool many = t1.getRank() >= 2 && t2.getRank() >= 2 &&
              (t1.getShape()[t1.getRank() - 2] > 25 || t2.getShape()[t2.getRank() - 2] > 25);
  bool mm = many;
  if (mode && mode->kind == R::Int && Aten)
    mm = mode->i == 1 ? true : mode->i == 2 ? false : many;
  else if (mode && mode->kind == R::Str)
    mm = mode->s == "use_mm_for_euclid_dist" ? true
       : mode->s == "donot_use_mm_for_euclid_dist" ? false : many;
  return setTensor(r, pDistances(n, ab->first, ab->second, *p, mm));
}

/// pdist(x, p=2): the distances between the rows of [N, M] x, i < j in
/// row-major order.
LogicalResult pdist(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto p = n.floatArg(1, "p", 2);
  if (failed(x) || failed(p))
    return failure();
  Value v = floating(n, *x);
  auto t = n.type(v);
  if (t.getRank() != 2) {
    n.error() << "pdist needs a 2-d input, got " << x->getType();
    return failure();
  }
  auto all = pDistances(n, v, v, *p, false);
  if (failed(all))
    return failure();
  int64_t rows = t.getDimSize(0);
  std::vector<int64_t> idx;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = i + 1; j < rows; ++j)
      idx.push_back(i * rows + j);
  Value flat = n.reshape(*all, {rows * rows});
  r = R::ofTensor(n.b.create<GatherOp>(n.loc, flat,
                                       indexConstant(n, {int64_t(idx.size())}, idx),
                                       n.b.getI64IntegerAttr(0)));
  return success();
}

//===----------------------------------------------------------------------===//
// Normalizations
//===----------------------------------------------------------------------===//

/// Instance norm of [N, C, ...] x (each channel of each sample over its
/// spatial positions), with a per-channel affine (ones and zeros when absent).
FailureOr<Value> instanceNorm(FXNode &n, Value x, Value w, Value b, double eps) {
  auto t = n.type(x);
  if (t.getRank() < 3) {
    n.error() << "instance norm needs [N, C, spatial...], got " << x.getType();
    return failure();
  }
  Type elt = t.getElementType();
  int64_t c = t.getDimSize(1);
  w = w ? n.cast(w, elt) : n.filled({c}, elt, 1);
  b = b ? n.cast(b, elt) : n.filled({c}, elt, 0);
  return Value(n.b.create<InstanceNormOp>(n.loc, x, w, b, n.b.getF64FloatAttr(eps)));
}

/// instance_norm(x, running_mean, running_var, weight, bias,
/// use_input_stats=True, momentum, eps): the running statistics when
/// use_input_stats is false (batch norm).
LogicalResult instanceNormFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  Value mean = n.optTensor(1, "running_mean"), var = n.optTensor(2, "running_var");
  auto own = n.intArg(5, "use_input_stats", 1);
  auto eps = n.floatArg(7, "eps", 1e-5);
  if (failed(x) || failed(own) || failed(eps))
    return failure();
  Value w = n.optTensor(3, "weight"), b = n.optTensor(4, "bias");
  if (!*own) {
    if (!mean || !var) {
      n.error() << "instance norm without input statistics needs running_mean and running_var";
      return failure();
    }
    return setTensor(r, batchNorm(n, *x, w, b, mean, var, *eps));
  }
  return setTensor(r, instanceNorm(n, *x, w, b, *eps));
}

/// nn.InstanceNorm1d/2d/3d: its own statistics, or in eval mode with
/// track_running_stats the running ones; unbatched inputs too.
template <int Spatial> LogicalResult instanceNormModule(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Value v = *x;
  auto t = n.type(v);
  bool unbatched = t.getRank() == Spatial + 1;
  if (unbatched)
    v = unsqueezed(n, v, 0);
  Value w = n.param("weight"), b = n.param("bias");
  double eps = n.attrFloat("eps", 1e-5);
  FailureOr<Value> y;
  if (n.attrInt("track_running_stats", 0) && n.param("running_mean") && n.param("running_var"))
    y = batchNorm(n, v, w, b, n.param("running_mean"), n.param("running_var"), eps);
  else
    y = instanceNorm(n, v, w, b, eps);
  if (failed(y))
    return failure();
  return setTensor(r, unbatched ? n.reshape(*y, t.getShape()) : *y);
}

/// local_response_norm(x, size, alpha=1e-4, beta=0.75, k=1): x over (k +
/// alpha * mean of x^2 over `size` neighbouring channels)^beta, the window
/// zero-padded by size/2 before and (size-1)/2 after (torch's).
LogicalResult localResponseNorm(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto size = n.intArg(1, "size", 0);
  auto alpha = n.floatArg(2, "alpha", 1e-4), beta = n.floatArg(3, "beta", 0.75),
       k = n.floatArg(4, "k", 1.0);
  if (failed(x) || failed(size) || failed(alpha) || failed(beta) || failed(k))
    return failure();
  auto t = n.type(*x);
  if (t.getRank() < 3 || *size < 1 || !isa<FloatType>(t.getElementType())) {
    n.error() << "local response norm needs a float [N, C, ...] input and a positive size, "
                 "got " << x->getType() << " and size " << *size;
    return failure();
  }
  int64_t rest = t.getNumElements() / (t.getDimSize(0) * t.getDimSize(1));
  Value sq = n.reshape(n.b.create<MulOp>(n.loc, *x, *x),
                       {t.getDimSize(0), 1, t.getDimSize(1), rest});
  Value avg = n.b.create<AvgPoolOp>(
      n.loc, sq, n.b.getDenseI64ArrayAttr({*size, 1}), n.b.getDenseI64ArrayAttr({1, 1}),
      n.b.getDenseI64ArrayAttr({*size / 2, 0, (*size - 1) / 2, 0}), n.b.getBoolAttr(false),
      n.b.getBoolAttr(true), n.b.getDenseI64ArrayAttr({}));
  Type elt = t.getElementType();
  Value div = n.b.create<PowOp>(
      n.loc,
      n.b.create<AddOp>(n.loc, n.b.create<MulOp>(n.loc, n.reshape(avg, t.getShape()),
                                                 n.scalar(elt, *alpha)),
                        n.scalar(elt, *k)),
      n.scalar(elt, *beta));
  r = R::ofTensor(n.b.create<DivOp>(n.loc, *x, div));
  return success();
}

/// rms_norm(x, normalized_shape, weight=None, eps=None): x over the root
/// mean square of its last dims (eps the dtype's machine epsilon when None).
LogicalResult rmsNorm(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto shape = n.intList(1, "normalized_shape", false);
  if (failed(x) || failed(shape))
    return failure();
  auto t = n.type(*x);
  Type elt = t.getElementType();
  int64_t k = shape->size();
  if (!isa<FloatType>(elt) || k > t.getRank() ||
      !llvm::equal(*shape, t.getShape().take_back(k))) {
    n.error() << "rms norm over " << k << " trailing dims of " << x->getType();
    return failure();
  }
  // ATen computes in the op-math type (f32 for f16 and bf16), its machine
  // epsilon when eps is None, and converts back before the weight.
  Type math = elt.isF64() ? elt : n.b.getF32Type();
  double eps = std::ldexp(1.0, 1 - int(APFloat::semanticsPrecision(
                                cast<FloatType>(math).getFloatSemantics())));
  if (const R *e = n.arg(3, "eps"); e && e->isNumber())
    eps = e->number();
  SmallVector<int64_t> dims;
  for (int64_t d = t.getRank() - k; d < t.getRank(); ++d)
    dims.push_back(d);
  Value xm = n.cast(*x, math);
  Value ms = n.b.create<ReduceMeanOp>(n.loc, n.b.create<MulOp>(n.loc, xm, xm),
                                      n.b.getDenseI64ArrayAttr(dims), n.b.getBoolAttr(true));
  Value y = n.cast(n.b.create<MulOp>(
                       n.loc, xm,
                       n.b.create<ReciprocalOp>(
                           n.loc, n.b.create<SqrtOp>(
                                      n.loc, n.b.create<AddOp>(n.loc, ms, n.scalar(math, eps))))),
                   elt);
  if (Value w = n.optTensor(2, "weight"))
    y = n.b.create<MulOp>(n.loc, y, n.cast(w, elt));
  r = R::ofTensor(y);
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// Adaptive max pooling over the last `spatial` dims of [N, C, ...] (or
/// unbatched) x: output i of a dim is the max of inputs floor(i in / out)
/// to ceil((i + 1) in / out); a max over a box is the max over each of its
/// dims in turn, so one dim at a time (a pooling when the sizes divide).
FailureOr<Value> adaptiveMaxPool(FXNode &n, Value x, std::vector<int64_t> out,
                                 int64_t spatial) {
  auto t = n.type(x);
  int64_t rank = t.getRank();
  if ((rank != spatial + 1 && rank != spatial + 2) || out.empty()) {
    n.error() << "adaptive max pooling over " << spatial << " dims of " << x.getType();
    return failure();
  }
  if (out.size() == 1)
    out.assign(spatial, out[0]);
  if (int64_t(out.size()) != spatial) {
    n.error() << "adaptive max pooling of " << x.getType() << " needs " << spatial
              << " output sizes";
    return failure();
  }
  Value v = x;
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t d = rank - spatial + i, in = t.getDimSize(d),
            o = out[i] < 0 ? in : out[i];
    if (o < 1) {
      n.error() << "adaptive max pooling to a size of " << o;
      return failure();
    }
    if (o == in)
      continue;
    auto axes = n.b.getDenseI64ArrayAttr({d});
    if (in % o == 0 && in / o > 1) {
      // Equal bins: one max over a reshaped dim.
      SmallVector<int64_t> split(n.type(v).getShape());
      split[d] = o;
      split.insert(split.begin() + d + 1, in / o);
      v = n.b.create<ReduceMaxOp>(n.loc, n.reshape(v, split),
                                  n.b.getDenseI64ArrayAttr({d + 1}), n.b.getBoolAttr(false));
      continue;
    }
    SmallVector<Value> bins;
    for (int64_t j = 0; j < o; ++j) {
      int64_t start = (j * in) / o, end = ((j + 1) * in + o - 1) / o;
      bins.push_back(n.b.create<ReduceMaxOp>(n.loc, sliceDim(n, v, d, start, end, 1),
                                             axes, n.b.getBoolAttr(true)));
    }
    v = n.b.create<ConcatOp>(n.loc, bins, n.b.getI64IntegerAttr(d));
  }
  return v;
}

/// adaptive_max_pool1d/2d/3d(x, output_size, return_indices=False) and the
/// ATen forms (values and unread indices).
template <int Spatial, bool Aten> LogicalResult adaptiveMaxPoolFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  if (auto idx = n.intArg(2, "return_indices", 0); failed(idx) || *idx) {
    if (succeeded(idx))
      n.unsupported() << "return_indices=True";
    return failure();
  }
  const R *o = n.arg(1, "output_size");
  std::vector<int64_t> out;
  if (o && o->kind == R::Int)
    out.push_back(o->i);
  else if (o && o->kind == R::List)
    for (const R &e : o->list)
      out.push_back(e.kind == R::Int ? e.i : -1);
  auto v = adaptiveMaxPool(n, *x, out, Spatial);
  if (failed(v))
    return failure();
  r = Aten ? R::ofList({R::ofTensor(*v), R()}) : R::ofTensor(*v);
  return success();
}

/// lp_pool1d/2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
/// (sum over the window of x^p)^(1/p), as torch computes it from the
/// average: (sign(a) relu(|a|) * k)^(1/p).
template <int Spatial> LogicalResult lpPool(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto p = n.floatArg(1, "norm_type", 2);
  auto k = n.optIntList(2, "kernel_size", {}), s = n.optIntList(3, "stride", {});
  auto ceil = n.intArg(4, "ceil_mode", 0);
  if (failed(x) || failed(p) || failed(k) || failed(s) || failed(ceil))
    return failure();
  Type elt = n.type(*x).getElementType();
  Value pw = n.b.create<PowOp>(n.loc, *x, n.scalar(elt, *p));
  auto avg = pool(n, pw, false, Spatial, *k, *s, {0}, {1}, *ceil, true);
  if (failed(avg))
    return failure();
  int64_t window = 1;
  for (int64_t i = 0; i < Spatial; ++i)
    window *= (*k)[k->size() == 1 ? 0 : i];
  Value a = *avg;
  Value kept = n.b.create<MulOp>(n.loc, n.b.create<SignOp>(n.loc, a),
                                 n.b.create<ReluOp>(n.loc, n.b.create<AbsOp>(n.loc, a)));
  r = R::ofTensor(n.b.create<PowOp>(
      n.loc, n.b.create<MulOp>(n.loc, kept, n.scalar(elt, double(window))),
      n.scalar(elt, 1.0 / *p)));
  return success();
}

//===----------------------------------------------------------------------===//
// Scans and order statistics
//===----------------------------------------------------------------------===//

/// v shifted `by` places along `dim` toward higher indices, `fill(shape)`
/// (a constant) in front.
template <typename Fill> Value shifted(FXNode &n, Value v, int64_t dim, int64_t by, Fill fill) {
  auto t = n.type(v);
  SmallVector<int64_t> front(t.getShape());
  front[dim] = by;
  return n.b.create<ConcatOp>(
      n.loc, ValueRange{fill(front), sliceDim(n, v, dim, 0, t.getDimSize(dim) - by, 1)},
      n.b.getI64IntegerAttr(dim));
}

/// cummax / cummin(x, dim) -> (values, indices): a log-step scan (each
/// step combines every prefix with the one `2^i` before it). On ties the
/// later index wins and a NaN, once seen, stays (torch's kernel).
template <bool IsMax> LogicalResult cumExtreme(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto dim = n.intArg(1, "dim", 0);
  if (failed(x) || failed(dim))
    return failure();
  auto t = n.type(*x);
  if (t.getRank() == 0) {
    r = R::ofList({R::ofTensor(*x), R::ofTensor(n.filled({}, n.b.getI64Type(), 0))});
    return success();
  }
  auto d = n.dim(*dim, t.getRank());
  if (failed(d))
    return failure();
  int64_t len = t.getDimSize(*d);
  Type elt = t.getElementType();
  bool isFloat = isa<FloatType>(elt);
  // Positions along the dim, broadcast over the others.
  std::vector<int64_t> pos(len);
  for (int64_t i = 0; i < len; ++i)
    pos[i] = i;
  SmallVector<int64_t> posShape(t.getRank(), 1);
  posShape[*d] = len;
  Value idx = n.b.create<ExpandOp>(n.loc, t.clone(n.b.getI64Type()),
                                   indexConstant(n, posShape, pos));
  Value v = *x;
  auto bools = t.clone(n.b.getI1Type());
  for (int64_t by = 1; by < len; by *= 2) {
    // The fill loses to (or ties with) every value: the type's extreme.
    Value pv = shifted(n, v, *d, by,
                       [&](ArrayRef<int64_t> s) { return n.extreme(s, elt, IsMax); });
    Value pi = shifted(n, idx, *d, by, [&](ArrayRef<int64_t> s) {
      return n.filled(s, n.b.getI64Type(), 0);
    });
    Value keep;
    if (elt.isInteger(1))
      keep = IsMax ? Value(n.b.create<OrOp>(n.loc, v, n.b.create<NotOp>(n.loc, pv)))
                   : Value(n.b.create<OrOp>(n.loc, n.b.create<NotOp>(n.loc, v), pv));
    else
      keep = IsMax ? Value(n.b.create<GreaterEqualOp>(n.loc, v, pv))
                   : Value(n.b.create<LessEqualOp>(n.loc, v, pv));
    if (isFloat) {
      Value nanHere = n.b.create<IsNaNOp>(n.loc, bools, v),
            nanBefore = n.b.create<IsNaNOp>(n.loc, bools, pv);
      keep = n.b.create<OrOp>(
          n.loc, nanHere, n.b.create<AndOp>(n.loc, keep, n.b.create<NotOp>(n.loc, nanBefore)));
    }
    v = n.b.create<WhereOp>(n.loc, keep, v, pv);
    idx = n.b.create<WhereOp>(n.loc, keep, idx, pi);
  }
  r = R::ofList({R::ofTensor(v), R::ofTensor(idx)});
  return success();
}

/// logcumsumexp(x, dim): the log-step scan of logaddexp.
LogicalResult logcumsumexp(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto dim = n.intArg(1, "dim", 0);
  if (failed(x) || failed(dim))
    return failure();
  Value v = floating(n, *x);
  auto t = n.type(v);
  if (t.getRank() == 0) {
    r = R::ofTensor(v);
    return success();
  }
  auto d = n.dim(*dim, t.getRank());
  if (failed(d))
    return failure();
  for (int64_t by = 1; by < t.getDimSize(*d); by *= 2)
    v = logAddExp(n, v,
                  shifted(n, v, *d, by,
                          [&](ArrayRef<int64_t> s) {
                            return n.filled(s, t.getElementType(), -kInf);
                          }),
                  false);
  r = R::ofTensor(v);
  return success();
}

/// The k-th smallest along `dim` (1-based) and its index: the last of a
/// sorted smallest-k top-k.
std::pair<Value, Value> kthSmallest(FXNode &n, Value x, int64_t k, int64_t dim, bool keep) {
  auto top = n.b.create<TopKOp>(n.loc, x, n.b.getI64IntegerAttr(k), n.b.getI64IntegerAttr(dim),
                                n.b.getBoolAttr(false), n.b.getBoolAttr(true));
  auto last = [&](Value v) {
    Value s = sliceDim(n, v, dim, k - 1, k, 1);
    if (keep)
      return s;
    SmallVector<int64_t> shape(n.type(s).getShape());
    shape.erase(shape.begin() + dim);
    return n.reshape(s, shape);
  };
  return {last(top.getValues()), last(top.getIndices())};
}

/// median(x) (the lower median of all) / median(x, dim, keepdim) ->
/// (values, indices); kthvalue(x, k, dim=-1, keepdim) -> (values, indices).
template <bool Kth> LogicalResult orderStatistic(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  int64_t k = 0;
  if (Kth) {
    auto kk = n.intArg(1, "k", 1);
    if (failed(kk))
      return failure();
    k = *kk;
  }
  size_t at = Kth ? 2 : 1;
  const R *d = n.arg(at, "dim");
  auto keep = n.intArg(at + 1, "keepdim", 0);
  if (failed(keep))
    return failure();
  Value v = *x;
  bool whole = !Kth && (!d || d->kind == R::None);
  int64_t dim = -1;
  if (whole) {
    v = n.reshape(v, {n.type(v).getNumElements()});
    dim = 0;
  } else {
    auto dd = n.dim(d && d->kind == R::Int ? d->i : -1,
                    std::max<int64_t>(n.type(v).getRank(), 1));
    if (failed(dd))
      return failure();
    dim = *dd;
  }
  if (n.type(v).getRank() == 0) {
    r = R::ofList({R::ofTensor(v), R::ofTensor(n.filled({}, n.b.getI64Type(), 0))});
    return success();
  }
  int64_t len = n.type(v).getDimSize(dim);
  if (!Kth)
    k = (len + 1) / 2;
  if (k < 1 || k > len) {
    n.error() << "k = " << k << " is out of range for a dim of " << len;
    return failure();
  }
  auto [vals, idx] = kthSmallest(n, v, k, dim, whole ? false : *keep);
  if (!Kth && isa<FloatType>(n.type(v).getElementType())) {
    // median is NaN where its row holds a NaN, at the first NaN's index.
    Type elt = n.type(v).getElementType();
    Value isNan = n.b.create<IsNaNOp>(n.loc, n.type(v).clone(n.b.getI1Type()), v);
    Value flag = n.cast(isNan, n.b.getI32Type());
    bool kd = whole ? false : *keep;
    Value any = n.b.create<GreaterOp>(
        n.loc,
        n.b.create<ReduceMaxOp>(n.loc, flag, n.b.getDenseI64ArrayAttr({dim}), n.b.getBoolAttr(kd)),
        n.scalar(n.b.getI32Type(), 0));
    vals = n.b.create<WhereOp>(n.loc, any, n.scalar(elt, std::nan("")), vals);
    Value first = n.b.create<ArgMaxOp>(n.loc, flag, n.b.getI64IntegerAttr(dim),
                                       n.b.getBoolAttr(kd), n.b.getBoolAttr(false));
    idx = n.b.create<WhereOp>(n.loc, any, first, idx);
  }
  r = whole ? R::ofTensor(vals) : R::ofList({R::ofTensor(vals), R::ofTensor(idx)});
  return success();
}

/// bucketize(x, boundaries, out_int32=False, right=False) and
/// searchsorted(sorted_sequence, values, out_int32=False, right=False,
/// side=None): per value the count of boundaries below it (at or below
/// with `right`), the boundaries one sorted 1-d list or one per row.
template <bool Search> LogicalResult bucketize(FXNode &n, R &r) {
  auto first = n.tensor(0, Search ? "sorted_sequence" : "input");
  const R *second = n.arg(1, Search ? "input" : "boundaries");
  if (!second && Search)
    second = n.arg(1, "values");
  auto i32 = n.intArg(2, "out_int32", 0), right = n.intArg(3, "right", 0);
  if (failed(first) || !second || failed(i32) || failed(right))
    return failure();
  bool rightSide = *right;
  if (const R *side = n.arg(4, "side"); side && side->kind == R::Str)
    rightSide = side->s == "right";
  if (Search && n.arg(5, "sorter") && n.arg(5, "sorter")->kind == R::Tensor) {
    n.unsupported() << "searchsorted with a sorter";
    return failure();
  }
  Value seq = Search ? *first : Value();
  Value vals;
  if (Search) {
    auto vt = n.asTensor(*second, seq);
    if (failed(vt))
      return failure();
    vals = *vt;
  } else {
    if (second->kind != R::Tensor) {
      n.error() << "boundaries must be a tensor";
      return failure();
    }
    seq = second->tensor;
    vals = *first;
  }
  auto st = n.type(seq), vt = n.type(vals);
  Type elt = promotedType(st.getElementType(), vt.getElementType());
  seq = n.cast(seq, elt);
  vals = n.cast(vals, elt);
  Value below;
  if (st.getRank() == 1) {
    // [..., 1] against [M].
    Value col = unsqueezed(n, vals, vt.getRank());
    below = rightSide ? Value(n.b.create<LessEqualOp>(n.loc, seq, col))
                      : Value(n.b.create<LessOp>(n.loc, seq, col));
  } else {
    if (st.getRank() != vt.getRank() ||
        st.getShape().drop_back() != vt.getShape().drop_back()) {
      n.error() << "searchsorted of " << vals.getType() << " in rows of " << seq.getType()
                << ": the leading dims must agree";
      return failure();
    }
    Value col = unsqueezed(n, vals, vt.getRank());
    Value rows = unsqueezed(n, seq, st.getRank() - 1);
    below = rightSide ? Value(n.b.create<LessEqualOp>(n.loc, rows, col))
                      : Value(n.b.create<LessOp>(n.loc, rows, col));
  }
  Type out = *i32 ? n.b.getI32Type() : n.b.getI64Type();
  Value count = n.b.create<ReduceSumOp>(n.loc, n.cast(below, out),
                                        n.b.getDenseI64ArrayAttr({vt.getRank()}),
                                        n.b.getBoolAttr(false));
  if (isa<FloatType>(elt)) // a NaN sorts after every boundary
    count = n.b.create<WhereOp>(
        n.loc, n.b.create<IsNaNOp>(n.loc, n.type(vals).clone(n.b.getI1Type()), vals),
        n.scalar(out, double(n.type(seq).getShape().back())), count);
  r = R::ofTensor(count);
  return success();
}

//===----------------------------------------------------------------------===//
// Tables: one_hot, count_nonzero, diag, meshgrid, ...
//===----------------------------------------------------------------------===//

/// one_hot(x, num_classes): x == arange(num_classes) as int64; -1 (the
/// largest value plus one) depends on the data and is refused.
LogicalResult oneHot(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto c = n.intArg(1, "num_classes", -1);
  if (failed(x) || failed(c))
    return failure();
  if (*c < 0) {
    n.unsupported() << "one_hot without num_classes (the count depends on the values)";
    return failure();
  }
  auto t = n.type(*x);
  if (!isa<IntegerType>(t.getElementType()) || t.getElementType().isInteger(1)) {
    n.error() << "one_hot of " << x->getType() << " (integer class indices)";
    return failure();
  }
  std::vector<int64_t> classes(*c);
  for (int64_t i = 0; i < *c; ++i)
    classes[i] = i;
  Value eq = n.b.create<EqualOp>(n.loc, unsqueezed(n, n.cast(*x, n.b.getI64Type()), t.getRank()),
                                 indexConstant(n, {*c}, classes));
  r = R::ofTensor(n.cast(eq, n.b.getI64Type()));
  return success();
}

/// histc(input, bins=100, min=0, max=0): counts of a float tensor's
/// elements in `bins` equal bins over [min, max] (the data's own range when
/// min == max, widened by 1 each side when that is one value; NaN counts
/// where torch raises, a range that is not finite), in the input's dtype. As ATen computes it: bin floor((x - min) * bins / (max -
/// min)) in the input's type, the last bin closed, elements outside the
/// range (and NaN) not counted.
LogicalResult histc(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto bins = n.intArg(1, "bins", 100);
  auto lo = n.floatArg(2, "min", 0), hi = n.floatArg(3, "max", 0);
  if (failed(x) || failed(bins) || failed(lo) || failed(hi))
    return failure();
  Type elt = n.type(*x).getElementType();
  if (!isa<FloatType>(elt)) {
    n.error() << "histc of " << x->getType() << ": torch counts floating-point tensors only";
    return failure();
  }
  if (*bins <= 0) {
    n.error() << "histc with " << *bins << " bins: bins must be > 0";
    return failure();
  }
  if (std::isnan(*lo) || std::isnan(*hi) || std::isinf(*lo) || std::isinf(*hi) || *lo > *hi) {
    n.error() << "histc range [" << *lo << ", " << *hi
              << "]: min and max must be finite and min <= max";
    return failure();
  }
  int64_t count = n.type(*x).getNumElements();
  Value flat = n.reshape(*x, {count});
  Value left, right;
  if (*lo == *hi && count > 0) {
    // The data's extremes, then widened when they are one value.
    auto axes = n.b.getDenseI64ArrayAttr({0});
    Value mn = n.b.create<ReduceMinOp>(n.loc, flat, axes, n.b.getBoolAttr(false));
    Value mx = n.b.create<ReduceMaxOp>(n.loc, flat, axes, n.b.getBoolAttr(false));
    Value same = n.b.create<EqualOp>(n.loc, mn, mx);
    Value one = n.scalar(elt, 1);
    left = n.b.create<WhereOp>(n.loc, same, n.b.create<SubOp>(n.loc, mn, one), mn);
    right = n.b.create<WhereOp>(n.loc, same, n.b.create<AddOp>(n.loc, mx, one), mx);
  } else {
    double l = *lo, h = *hi;
    if (l == h) {
      l -= 1;
      h += 1;
    }
    left = n.scalar(elt, l);
    right = n.scalar(elt, h);
  }
  Value valid = n.b.create<AndOp>(n.loc, n.b.create<GreaterEqualOp>(n.loc, flat, left),
                                  n.b.create<LessEqualOp>(n.loc, flat, right));
  Value q = n.b.create<DivOp>(
      n.loc, n.b.create<MulOp>(n.loc, n.b.create<SubOp>(n.loc, flat, left),
                               n.scalar(elt, double(*bins))),
      n.b.create<SubOp>(n.loc, right, left));
  // Out-of-range elements (and NaN) are not counted: bin 0 stands in
  // before the cast, so no infinity is converted.
  q = n.b.create<WhereOp>(n.loc, valid, q, n.scalar(elt, 0));
  Value pos = n.b.create<MinOp>(n.loc, n.cast(n.b.create<FloorOp>(n.loc, q), n.b.getI64Type()),
                                indexConstant(n, {}, {*bins - 1}));
  std::vector<int64_t> ids(*bins);
  for (int64_t i = 0; i < *bins; ++i)
    ids[i] = i;
  Value hit = n.b.create<AndOp>(
      n.loc,
      n.b.create<EqualOp>(n.loc, unsqueezed(n, pos, 1), indexConstant(n, {1, *bins}, ids)),
      unsqueezed(n, valid, 1));
  Value counts = n.b.create<ReduceSumOp>(n.loc, n.cast(hit, elt), n.b.getDenseI64ArrayAttr({0}),
                                         n.b.getBoolAttr(false));
  if (*lo == *hi && count > 0) {
    // torch refuses a data range that is not finite (a NaN or an infinity
    // in the data); the counts are NaN then, not a silent answer.
    Value finite = n.b.create<AndOp>(
        n.loc, n.b.create<EqualOp>(n.loc, n.b.create<SubOp>(n.loc, left, left), n.scalar(elt, 0)),
        n.b.create<EqualOp>(n.loc, n.b.create<SubOp>(n.loc, right, right), n.scalar(elt, 0)));
    counts = n.b.create<WhereOp>(n.loc, finite, counts, n.scalar(elt, std::nan("")));
  }
  r = R::ofTensor(counts);
  return success();
}

/// torch._grouped_mm(mat_a, mat_b, offs=None, bias=None, out_dtype=None),
/// F.grouped_mm and transformers' grouped_mm_fallback(input, weight,
/// offs): rows [S, K] in groups ending at `offs`, each group times its
/// matrix of [E, K, N] (a mixture of experts' grouped product); without
/// offsets, 3-d by 3-d, a batched product.
LogicalResult groupedMm(FXNode &n, R &r) {
  auto a = n.tensor(0, "mat_a");
  if (failed(a))
    return failure();
  const R *second = n.arg(1, "mat_b");
  if (!second)
    second = n.arg(1, "weight");
  if (!second || second->kind != R::Tensor) {
    n.error() << "grouped_mm needs a second tensor";
    return failure();
  }
  Value w = second->tensor;
  Value offs = n.optTensor(2, "offs");
  if (n.optTensor(3, "bias")) {
    n.unsupported() << "grouped_mm with a bias";
    return failure();
  }
  Type outType = n.dtypeArg("out_dtype");
  auto at = n.type(*a), wt = n.type(w);
  Type elt = at.getElementType();
  if (elt != wt.getElementType()) {
    n.error() << "grouped_mm of " << a->getType() << " by " << w.getType()
              << ": the operands' dtypes differ";
    return failure();
  }
  Value out;
  if (offs && at.getRank() == 2 && wt.getRank() == 3) {
    auto ot = n.type(offs);
    if (ot.getRank() != 1 || ot.getDimSize(0) != wt.getDimSize(0) ||
        !isa<IntegerType>(ot.getElementType()) || at.getDimSize(1) != wt.getDimSize(1)) {
      n.error() << "grouped_mm of " << a->getType() << " by " << w.getType() << " with offsets "
                << offs.getType() << ": expected [S, K] rows, [E, K, N] matrices and [E] "
                << "integer offsets";
      return failure();
    }
    out = n.b.create<GroupedMatMulOp>(n.loc, *a, w, offs, IntegerAttr());
  } else if (!offs && at.getRank() == 3 && wt.getRank() == 3 &&
             at.getDimSize(0) == wt.getDimSize(0) && at.getDimSize(2) == wt.getDimSize(1)) {
    out = n.b.create<MatMulOp>(n.loc, *a, w);
  } else {
    n.unsupported() << "grouped_mm of " << a->getType() << " by " << w.getType()
                    << (offs ? " with offsets" : " without offsets")
                    << " (dfa takes 2-d rows by 3-d matrices with offsets, or 3-d by 3-d "
                       "without)";
    return failure();
  }
  r = R::ofTensor(outType ? n.cast(out, outType) : out);
  return success();
}

/// count_nonzero(x, dim=None): int64 counts.
LogicalResult countNonzero(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  auto dims = reduceDims(n, *x, n.arg(1, "dim"));
  if (failed(dims))
    return failure();
  Type elt = n.type(*x).getElementType();
  Value nz = elt.isInteger(1) ? *x
                              : Value(n.b.create<NotOp>(
                                    n.loc, n.b.create<EqualOp>(n.loc, *x, n.scalar(elt, 0))));
  r = R::ofTensor(n.b.create<ReduceSumOp>(n.loc, n.cast(nz, n.b.getI64Type()),
                                          n.b.getDenseI64ArrayAttr(*dims),
                                          n.b.getBoolAttr(false)));
  return success();
}

/// logical_xor(a, b): (a != 0) xor (b != 0).
LogicalResult logicalXor(FXNode &n, R &r) {
  auto a = n.tensor(0, "input");
  const R *b = n.arg(1, "other");
  if (failed(a) || !b)
    return failure();
  auto bt = n.asTensor(*b, *a);
  if (failed(bt))
    return failure();
  auto truth = [&](Value v) -> Value {
    Type elt = n.type(v).getElementType();
    if (elt.isInteger(1))
      return v;
    return n.b.create<NotOp>(n.loc, n.b.create<EqualOp>(n.loc, v, n.scalar(elt, 0)));
  };
  r = R::ofTensor(n.b.create<XorOp>(n.loc, truth(*a), truth(*bt)));
  return success();
}

/// tril_indices / triu_indices(row, col, offset=0): the [2, N] int64 row
/// and column indices of the lower (upper) triangle, row-major.
template <bool Upper> LogicalResult triangleIndices(FXNode &n, R &r) {
  auto rows = n.intArg(0, "row", 0), cols = n.intArg(1, "col", 0),
       off = n.intArg(2, "offset", 0);
  if (failed(rows) || failed(cols) || failed(off))
    return failure();
  std::vector<int64_t> is, js;
  for (int64_t i = 0; i < *rows; ++i)
    for (int64_t j = 0; j < *cols; ++j)
      if (Upper ? j - i >= *off : j - i <= *off) {
        is.push_back(i);
        js.push_back(j);
      }
  if (is.empty()) {
    n.unsupported() << "an empty triangle (dfa's tensors are not empty)";
    return failure();
  }
  is.insert(is.end(), js.begin(), js.end());
  Value c = indexConstant(n, {2, int64_t(js.size())}, is);
  if (Type want = n.dtypeArg())
    c = n.cast(c, want);
  r = R::ofTensor(c);
  return success();
}

/// [..., n] -> [..., m, m] with the values on diagonal `offset` (m = n +
/// |offset|), zeros elsewhere: a gather of constant indices under a mask.
Value embedDiagonal(FXNode &n, Value x, int64_t offset) {
  auto t = n.type(x);
  int64_t len = t.getShape().back(), m = len + std::abs(offset);
  std::vector<int64_t> idx(m * m);
  std::vector<char> on(m * m);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < m; ++j) {
      int64_t e = offset >= 0 ? i : j;
      on[i * m + j] = j - i == offset;
      idx[i * m + j] = std::clamp<int64_t>(e, 0, len - 1);
    }
  Value g = n.b.create<GatherOp>(n.loc, x, indexConstant(n, {m, m}, idx),
                                 n.b.getI64IntegerAttr(t.getRank() - 1));
  SmallVector<bool> bits(on.begin(), on.end());
  auto maskType = RankedTensorType::get({m, m}, n.b.getI1Type());
  Value mask = n.b.create<ConstantOp>(n.loc, DenseElementsAttr::get(maskType, bits));
  return n.b.create<WhereOp>(n.loc, mask, g, n.filled({}, t.getElementType(), 0));
}

/// Diagonal `offset` of the matrices over dims a and b of x, as a last dim
/// (torch.diagonal): the two dims moved last and flattened, then a gather
/// of constant positions.
FailureOr<Value> diagonalOf(FXNode &n, Value x, int64_t offset, int64_t a, int64_t b) {
  auto t = n.type(x);
  SmallVector<int64_t> perm, lead;
  for (int64_t i = 0; i < t.getRank(); ++i)
    if (i != a && i != b) {
      perm.push_back(i);
      lead.push_back(t.getDimSize(i));
    }
  perm.append({a, b});
  int64_t h = t.getDimSize(a), w = t.getDimSize(b);
  std::vector<int64_t> idx;
  for (int64_t i = std::max<int64_t>(0, -offset); i < h && i + offset < w; ++i)
    idx.push_back(i * w + i + offset);
  if (idx.empty()) {
    n.unsupported() << "an empty diagonal (offset " << offset << " of " << h << "x" << w << ")";
    return failure();
  }
  SmallVector<int64_t> flat(lead);
  flat.push_back(h * w);
  Value v = n.reshape(n.transpose(x, perm), flat);
  return Value(n.b.create<GatherOp>(n.loc, v, indexConstant(n, {int64_t(idx.size())}, idx),
                                    n.b.getI64IntegerAttr(lead.size())));
}

/// diag(x, diagonal=0): of a vector, the matrix with it on the diagonal; of
/// a matrix, its diagonal.
LogicalResult diag(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto k = n.intArg(1, "diagonal", 0);
  if (failed(x) || failed(k))
    return failure();
  auto t = n.type(*x);
  if (t.getRank() == 1) {
    r = R::ofTensor(embedDiagonal(n, *x, *k));
    return success();
  }
  if (t.getRank() != 2) {
    n.error() << "diag of " << x->getType() << " (1-d or 2-d)";
    return failure();
  }
  return setTensor(r, diagonalOf(n, *x, *k, 0, 1));
}

/// diagonal(x, offset=0, dim1=0, dim2=1).
LogicalResult diagonal(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto k = n.intArg(1, "offset", 0), d1 = n.intArg(2, "dim1", 0), d2 = n.intArg(3, "dim2", 1);
  if (failed(x) || failed(k) || failed(d1) || failed(d2))
    return failure();
  int64_t rank = n.type(*x).getRank();
  auto a = n.dim(*d1, rank), b = n.dim(*d2, rank);
  if (failed(a) || failed(b))
    return failure();
  if (*a == *b) {
    n.error() << "diagonal's dims must differ";
    return failure();
  }
  return setTensor(r, diagonalOf(n, *x, *k, *a, *b));
}

/// diag_embed(x, offset=0, dim1=-2, dim2=-1).
LogicalResult diagEmbed(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto k = n.intArg(1, "offset", 0), d1 = n.intArg(2, "dim1", -2), d2 = n.intArg(3, "dim2", -1);
  if (failed(x) || failed(k) || failed(d1) || failed(d2))
    return failure();
  int64_t rank = n.type(*x).getRank() + 1;
  auto a = n.dim(*d1, rank), b = n.dim(*d2, rank);
  if (failed(a) || failed(b))
    return failure();
  if (*a != rank - 2 || *b != rank - 1) {
    n.unsupported() << "diag_embed into dims other than the last two";
    return failure();
  }
  if (n.type(*x).getRank() == 0) {
    n.error() << "diag_embed of a 0-d tensor";
    return failure();
  }
  r = R::ofTensor(embedDiagonal(n, *x, *k));
  return success();
}

/// meshgrid(*tensors, indexing='ij'): each 1-d input expanded along its
/// own dim; 'xy' swaps the first two dims of the grid.
LogicalResult meshgrid(FXNode &n, R &r) {
  auto ts = tensorList(n, 0, "tensors", /*varargs=*/true);
  if (failed(ts))
    return failure();
  const R *ix = n.arg(99, "indexing");
  bool xy = ix && ix->kind == R::Str && ix->s == "xy";
  if (ix && ix->kind == R::Str && ix->s != "xy" && ix->s != "ij") {
    n.error() << "indexing must be 'ij' or 'xy', not '" << ix->s << "'";
    return failure();
  }
  int64_t k = ts->size();
  SmallVector<int64_t> shape;
  for (Value v : *ts) {
    if (n.type(v).getRank() > 1) {
      n.error() << "meshgrid takes 0-d or 1-d tensors, got " << v.getType();
      return failure();
    }
    shape.push_back(n.type(v).getNumElements());
  }
  if (xy && k >= 2)
    std::swap(shape[0], shape[1]);
  std::vector<R> outs;
  for (int64_t i = 0; i < k; ++i) {
    int64_t at = xy && k >= 2 && i < 2 ? 1 - i : i;
    SmallVector<int64_t> one(k, 1);
    one[at] = shape[at];
    Value v = (*ts)[i];
    outs.push_back(R::ofTensor(n.b.create<ExpandOp>(
        n.loc, RankedTensorType::get(shape, n.type(v).getElementType()), n.reshape(v, one))));
  }
  r = R::ofList(outs);
  return success();
}

/// block_diag(*tensors): each (as a matrix) padded with zeros to the full
/// width at its column offset, stacked by rows.
LogicalResult blockDiag(FXNode &n, R &r) {
  auto ts = tensorList(n, 0, "tensors", /*varargs=*/true);
  if (failed(ts))
    return failure();
  SmallVector<Value> mats;
  int64_t width = 0;
  Type elt = n.type((*ts)[0]).getElementType();
  for (Value v : *ts) // torch promotes the blocks to one type
    elt = promotedType(elt, n.type(v).getElementType());
  for (Value v : *ts) {
    auto t = n.type(v);
    if (t.getRank() > 2) {
      n.error() << "block_diag takes tensors of at most 2 dims, got " << v.getType();
      return failure();
    }
    int64_t rows = t.getRank() == 2 ? t.getDimSize(0) : 1;
    int64_t cols = t.getRank() == 0 ? 1 : t.getShape().back();
    mats.push_back(n.cast(n.reshape(v, {rows, cols}), elt));
    width += cols;
  }
  SmallVector<Value> rows;
  int64_t at = 0;
  for (Value m : mats) {
    int64_t h = n.type(m).getDimSize(0), w = n.type(m).getDimSize(1);
    SmallVector<Value> parts;
    if (at)
      parts.push_back(n.filled({h, at}, elt, 0));
    parts.push_back(m);
    if (width - at - w)
      parts.push_back(n.filled({h, width - at - w}, elt, 0));
    rows.push_back(parts.size() == 1 ? m
                                     : Value(n.b.create<ConcatOp>(n.loc, parts,
                                                                  n.b.getI64IntegerAttr(1))));
    at += w;
  }
  r = R::ofTensor(rows.size() == 1 ? rows[0]
                                   : Value(n.b.create<ConcatOp>(n.loc, rows,
                                                                n.b.getI64IntegerAttr(0))));
  return success();
}

/// outer(a, b) / ger: a[:, None] * b[None, :].
LogicalResult outer(FXNode &n, R &r) {
  auto a = n.tensor(0, "input"), b = n.tensor(1, "vec2");
  if (failed(a) || failed(b))
    return failure();
  if (n.type(*a).getRank() != 1 || n.type(*b).getRank() != 1) {
    n.error() << "outer takes two vectors, got " << a->getType() << " and " << b->getType();
    return failure();
  }
  Type elt = promotedType(n.type(*a).getElementType(), n.type(*b).getElementType());
  r = R::ofTensor(n.b.create<MulOp>(n.loc, unsqueezed(n, n.cast(*a, elt), 1),
                                    unsqueezed(n, n.cast(*b, elt), 0)));
  return success();
}

/// cross(a, b, dim) / linalg.cross(a, b, dim=-1): the 3-vector cross
/// product along `dim` (torch.cross without dim: the first dim of size 3).
template <bool Linalg> LogicalResult cross(FXNode &n, R &r) {
  auto a = n.tensor(0, "input"), b = n.tensor(1, "other");
  if (failed(a) || failed(b))
    return failure();
  auto bp = broadcastPair(n, *a, *b);
  if (failed(bp))
    return failure();
  auto [x, y] = *bp;
  auto t = n.type(x);
  const R *d = n.arg(2, "dim");
  int64_t dim = -1;
  if (d && d->kind == R::Int) {
    auto dd = n.dim(d->i, t.getRank());
    if (failed(dd))
      return failure();
    dim = *dd;
  } else if (Linalg) {
    dim = t.getRank() - 1;
  } else {
    for (int64_t i = 0; i < t.getRank() && dim < 0; ++i)
      if (t.getDimSize(i) == 3)
        dim = i;
  }
  if (dim < 0 || dim >= t.getRank() || t.getDimSize(dim) != 3) {
    n.error() << "cross product needs a dim of size 3 in " << x.getType();
    return failure();
  }
  auto rot = [&](Value v, ArrayRef<int64_t> order) -> Value {
    return n.b.create<GatherOp>(n.loc, v, indexConstant(n, {3}, order),
                                n.b.getI64IntegerAttr(dim));
  };
  Value l = n.b.create<MulOp>(n.loc, rot(x, {1, 2, 0}), rot(y, {2, 0, 1}));
  Value rr = n.b.create<MulOp>(n.loc, rot(x, {2, 0, 1}), rot(y, {1, 2, 0}));
  r = R::ofTensor(n.b.create<SubOp>(n.loc, l, rr));
  return success();
}

/// rot90(x, k=1, dims=[0, 1]): k quarter turns from dims[0] toward dims[1].
LogicalResult rot90(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto k = n.intArg(1, "k", 1);
  auto dims = n.optIntList(2, "dims", {0, 1});
  if (failed(x) || failed(k) || failed(dims))
    return failure();
  int64_t rank = n.type(*x).getRank();
  if (dims->size() != 2 || rank < 2) {
    n.error() << "rot90 needs two dims of a tensor of rank 2 or more";
    return failure();
  }
  auto a = n.dim((*dims)[0], rank), b = n.dim((*dims)[1], rank);
  if (failed(a) || failed(b) || *a == *b) {
    if (succeeded(a) && succeeded(b))
      n.error() << "rot90's dims must differ";
    return failure();
  }
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < rank; ++i)
    perm.push_back(i == *a ? *b : i == *b ? *a : i);
  int64_t turns = ((*k % 4) + 4) % 4;
  Value v = *x;
  if (turns == 1)
    v = n.transpose(flipped(n, v, {*b}), perm);
  else if (turns == 2)
    v = flipped(n, v, {*a, *b});
  else if (turns == 3)
    v = n.transpose(flipped(n, v, {*a}), perm);
  r = R::ofTensor(v);
  return success();
}

/// diff(x, n=1, dim=-1, prepend=None, append=None): x[1:] - x[:-1], n
/// times (for bools, !=).
LogicalResult diff(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto times = n.intArg(1, "n", 1), dim = n.intArg(2, "dim", -1);
  if (failed(x) || failed(times) || failed(dim))
    return failure();
  auto d = n.dim(*dim, n.type(*x).getRank());
  if (failed(d))
    return failure();
  SmallVector<Value> parts;
  if (Value p = n.optTensor(3, "prepend"))
    parts.push_back(p);
  parts.push_back(*x);
  if (Value a = n.optTensor(4, "append"))
    parts.push_back(a);
  Value v = parts.size() == 1
                ? *x
                : Value(n.b.create<ConcatOp>(n.loc, parts, n.b.getI64IntegerAttr(*d)));
  bool isBool = n.type(v).getElementType().isInteger(1);
  for (int64_t i = 0; i < *times && n.type(v).getDimSize(*d) > 0; ++i) {
    int64_t len = n.type(v).getDimSize(*d);
    Value hi = sliceDim(n, v, *d, 1, len, 1), lo = sliceDim(n, v, *d, 0, len - 1, 1);
    v = isBool ? Value(n.b.create<XorOp>(n.loc, hi, lo)) : Value(n.b.create<SubOp>(n.loc, hi, lo));
  }
  r = R::ofTensor(v);
  return success();
}

/// narrow(x, dim, start, length).
LogicalResult narrow(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto dim = n.intArg(1, "dim", 0), start = n.intArg(2, "start", 0),
       len = n.intArg(3, "length", 0);
  if (failed(x) || failed(dim) || failed(start) || failed(len))
    return failure();
  auto d = n.dim(*dim, n.type(*x).getRank());
  if (failed(d))
    return failure();
  int64_t size = n.type(*x).getDimSize(*d), s = *start < 0 ? *start + size : *start;
  if (s < 0 || *len < 0 || s + *len > size) {
    n.error() << "narrow of " << *len << " from " << *start << " exceeds a dim of " << size;
    return failure();
  }
  r = R::ofTensor(sliceDim(n, *x, *d, s, s + *len, 1));
  return success();
}

/// tile(x, dims): repeat with the reps padded (or x's shape) by leading ones.
LogicalResult tile(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto reps = n.intList(1, "dims", true);
  if (failed(x) || failed(reps))
    return failure();
  auto t = n.type(*x);
  std::vector<int64_t> rp = *reps;
  while (int64_t(rp.size()) < t.getRank())
    rp.insert(rp.begin(), 1);
  SmallVector<int64_t> shape(rp.size() - t.getRank(), 1);
  shape.append(t.getShape().begin(), t.getShape().end());
  Value v = n.reshape(*x, shape);
  if (llvm::any_of(rp, [](int64_t e) { return e < 0; })) {
    n.error() << "tile's repetitions must be non-negative";
    return failure();
  }
  r = R::ofTensor(n.b.create<TileOp>(n.loc, v, n.b.getDenseI64ArrayAttr(rp)));
  return success();
}

/// channel_shuffle(x, groups): [N, g, C/g, ...] -> [N, C/g, g, ...].
LogicalResult channelShuffle(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto g = n.intArg(1, "groups", 1);
  if (failed(x) || failed(g))
    return failure();
  auto t = n.type(*x);
  if (t.getRank() < 3 || *g < 1 || t.getDimSize(1) % *g) {
    n.error() << "channel shuffle of " << x->getType() << " in " << *g << " groups";
    return failure();
  }
  SmallVector<int64_t> split{t.getDimSize(0), *g, t.getDimSize(1) / *g};
  split.append(t.getShape().begin() + 2, t.getShape().end());
  SmallVector<int64_t> perm{0, 2, 1};
  for (int64_t i = 3; i < int64_t(split.size()); ++i)
    perm.push_back(i);
  r = R::ofTensor(n.reshape(n.transpose(n.reshape(*x, split), perm), t.getShape()));
  return success();
}

/// unflatten(x, dim, sizes): dim split into sizes (one may be -1).
LogicalResult unflatten(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto dim = n.intArg(1, "dim", 0);
  auto sizes = n.intList(2, "sizes", false);
  if (failed(x) || failed(dim) || failed(sizes))
    return failure();
  auto t = n.type(*x);
  auto d = n.dim(*dim, t.getRank());
  if (failed(d))
    return failure();
  int64_t known = 1, unknown = -1;
  for (auto [i, s] : llvm::enumerate(*sizes)) {
    if (s == -1 && unknown < 0)
      unknown = i;
    else if (s < 0) {
      n.error() << "unflatten sizes may hold one -1";
      return failure();
    } else
      known *= s;
  }
  std::vector<int64_t> sz = *sizes;
  int64_t size = t.getDimSize(*d);
  if (unknown >= 0 && known > 0 && size % known == 0)
    sz[unknown] = size / known;
  int64_t total = 1;
  for (int64_t s : sz)
    total *= s;
  if (total != size || sz.empty()) {
    n.error() << "cannot unflatten a dim of " << size << " into the given sizes";
    return failure();
  }
  SmallVector<int64_t> shape(t.getShape().take_front(*d));
  shape.append(sz.begin(), sz.end());
  shape.append(t.getShape().begin() + *d + 1, t.getShape().end());
  r = R::ofTensor(n.reshape(*x, shape));
  return success();
}

//===----------------------------------------------------------------------===//
// Embedding bags and sampling
//===----------------------------------------------------------------------===//

/// The bags of an embedding bag reduced: `rows` [N, D] (the looked-up
/// rows, weighted), `member` [B, N] (row j is in bag b), `mode` 0 sum, 1
/// mean, 2 max; an empty bag gives zeros.
Value reduceBags(FXNode &n, Value rows, Value member, int64_t mode) {
  Type elt = n.type(rows).getElementType();
  Value m = n.cast(member, elt);
  if (mode != 2) {
    Value sum = n.b.create<MatMulOp>(n.loc, m, rows);
    if (mode == 0)
      return sum;
    Value count = n.b.create<ReduceSumOp>(n.loc, m, n.b.getDenseI64ArrayAttr({1}),
                                          n.b.getBoolAttr(true));
    return n.b.create<DivOp>(n.loc, sum, n.b.create<MaxOp>(n.loc, count, n.scalar(elt, 1)));
  }
  // [B, N, 1] against [1, N, D]: the max over the bag's rows.
  Value inBag = unsqueezed(n, member, 2);
  Value cand = n.b.create<WhereOp>(n.loc, inBag, unsqueezed(n, rows, 0), n.scalar(elt, -kInf));
  Value mx = n.b.create<ReduceMaxOp>(n.loc, cand, n.b.getDenseI64ArrayAttr({1}),
                                     n.b.getBoolAttr(false));
  Value any = n.b.create<ReduceMaxOp>(n.loc, n.cast(member, elt), n.b.getDenseI64ArrayAttr({1}),
                                      n.b.getBoolAttr(true));
  return n.b.create<WhereOp>(n.loc, n.b.create<GreaterOp>(n.loc, any, n.scalar(elt, 0)), mx,
                             n.scalar(elt, 0));
}

/// An embedding bag: `indices` (1-d with `offsets`, or 2-d of equal bags)
/// into `weight` [V, D], rows weighted by `psw` (sum only), rows equal to
/// `paddingIdx` left out.
FailureOr<Value> embeddingBag(FXNode &n, Value weight, Value indices, Value offsets,
                              int64_t mode, Value psw, bool includeLast,
                              std::optional<int64_t> paddingIdx) {
  auto wt = n.type(weight), it = n.type(indices);
  if (wt.getRank() != 2 || it.getRank() < 1 || it.getRank() > 2 ||
      !isa<IntegerType>(it.getElementType()) || mode < 0 || mode > 2) {
    n.error() << "embedding bag of " << indices.getType() << " into " << weight.getType();
    return failure();
  }
  if (psw && mode != 0) {
    n.error() << "per_sample_weights are only for mode 'sum'";
    return failure();
  }
  Value idx = n.cast(indices, n.b.getI64Type());
  int64_t count = it.getNumElements();
  SmallVector<int64_t> flatShape{count};
  Value flat = n.reshape(idx, flatShape);
  Value rows = n.b.create<GatherOp>(n.loc, weight, flat, n.b.getI64IntegerAttr(0));
  Type elt = wt.getElementType();
  if (psw)
    rows = n.b.create<MulOp>(n.loc, rows, n.reshape(n.cast(psw, elt), {count, 1}));
  // member[b, j]: entry j belongs to bag b.
  Value member;
  std::vector<int64_t> pos(count);
  for (int64_t j = 0; j < count; ++j)
    pos[j] = j;
  if (it.getRank() == 2) {
    int64_t bags = it.getDimSize(0), per = it.getDimSize(1);
    std::vector<int64_t> bagOf(count), bagIds(bags);
    for (int64_t j = 0; j < count; ++j)
      bagOf[j] = j / std::max<int64_t>(per, 1);
    for (int64_t b = 0; b < bags; ++b)
      bagIds[b] = b;
    member = n.b.create<EqualOp>(n.loc, indexConstant(n, {bags, 1}, bagIds),
                                 indexConstant(n, {1, count}, bagOf));
  } else {
    if (!offsets || n.type(offsets).getRank() != 1) {
      n.error() << "a 1-d embedding bag input needs 1-d offsets";
      return failure();
    }
    Value off = n.cast(offsets, n.b.getI64Type());
    int64_t bags = n.type(off).getDimSize(0);
    if (includeLast) {
      if (bags < 1) {
        n.error() << "include_last_offset needs at least one offset";
        return failure();
      }
      --bags;
    }
    // Bag b holds offsets[b] <= j < offsets[b + 1] (the last to the end,
    // or to the final offset with include_last_offset).
    Value start = sliceDim(n, off, 0, 0, bags, 1);
    if (bags < 1) {
      n.error() << "an embedding bag needs at least one bag";
      return failure();
    }
    Value end = includeLast ? sliceDim(n, off, 0, 1, bags + 1, 1)
                : bags == 1 ? indexConstant(n, {1}, {count})
                            : Value(n.b.create<ConcatOp>(
                                  n.loc, ValueRange{sliceDim(n, off, 0, 1, bags, 1),
                                                    indexConstant(n, {1}, {count})},
                                  n.b.getI64IntegerAttr(0)));
    Value j = indexConstant(n, {1, count}, pos);
    member = n.b.create<AndOp>(
        n.loc, n.b.create<LessEqualOp>(n.loc, n.reshape(start, {bags, 1}), j),
        n.b.create<LessOp>(n.loc, j, n.reshape(end, {bags, 1})));
  }
  if (paddingIdx) {
    Value keep = n.b.create<NotOp>(
        n.loc, n.b.create<EqualOp>(n.loc, n.reshape(flat, {1, count}),
                                   n.filled({}, n.b.getI64Type(), double(*paddingIdx))));
    member = n.b.create<AndOp>(n.loc, member, keep);
  }
  return reduceBags(n, rows, member, mode);
}

std::optional<int64_t> paddingIndex(const R *p, int64_t rows) {
  if (!p || p->kind != R::Int)
    return std::nullopt;
  return p->i < 0 ? p->i + rows : p->i;
}

/// F.embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2,
/// scale_grad_by_freq=False, mode='mean', sparse=False,
/// per_sample_weights=None, include_last_offset=False, padding_idx=None).
LogicalResult embeddingBagFn(FXNode &n, R &r) {
  auto in = n.tensor(0, "input"), w = n.tensor(1, "weight");
  if (failed(in) || failed(w))
    return failure();
  if (const R *mn = n.arg(3, "max_norm"); mn && mn->kind != R::None) {
    n.unsupported() << "embedding_bag with max_norm (it renormalizes the table)";
    return failure();
  }
  const R *m = n.arg(6, "mode");
  int64_t mode = 1;
  if (m && m->kind == R::Str)
    mode = m->s == "sum" ? 0 : m->s == "mean" ? 1 : m->s == "max" ? 2 : -1;
  auto last = n.intArg(9, "include_last_offset", 0);
  if (failed(last))
    return failure();
  return setTensor(r, embeddingBag(n, *w, *in, n.optTensor(2, "offsets"), mode,
                                   n.optTensor(8, "per_sample_weights"), *last,
                                   paddingIndex(n.arg(10, "padding_idx"),
                                                n.type(*w).getDimSize(0))));
}

/// ATen's _embedding_bag(_forward_only)(weight, indices, offsets,
/// scale_grad_by_freq, mode (0 sum, 1 mean, 2 max), sparse,
/// per_sample_weights, include_last_offset, padding_idx) -> (output and
/// three tensors inference never reads).
LogicalResult atenEmbeddingBag(FXNode &n, R &r) {
  auto w = n.tensor(0, "weight"), in = n.tensor(1, "indices");
  auto mode = n.intArg(4, "mode", 0), last = n.intArg(7, "include_last_offset", 0);
  if (failed(w) || failed(in) || failed(mode) || failed(last))
    return failure();
  auto out = embeddingBag(n, *w, *in, n.optTensor(2, "offsets"), *mode,
                          n.optTensor(6, "per_sample_weights"), *last,
                          paddingIndex(n.arg(8, "padding_idx"), n.type(*w).getDimSize(0)));
  if (failed(out))
    return failure();
  r = R::ofList({R::ofTensor(*out), R(), R(), R()});
  return success();
}

/// grid_sample(input, grid, mode='bilinear', padding_mode='zeros',
/// align_corners=None (False)) and ATen's grid_sampler_2d/3d(input, grid,
/// interpolation (0 bilinear, 1 nearest, 2 bicubic), padding (0 zeros, 1
/// border, 2 reflection), align_corners).
template <bool Aten> LogicalResult gridSample(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), g = n.tensor(1, "grid");
  if (failed(x) || failed(g))
    return failure();
  std::string mode = "linear", pad = "zeros";
  bool align = false;
  if (Aten) {
    auto m = n.intArg(2, "interpolation_mode", 0), p = n.intArg(3, "padding_mode", 0),
         a = n.intArg(4, "align_corners", 0);
    if (failed(m) || failed(p) || failed(a))
      return failure();
    if (*m < 0 || *m > 2 || *p < 0 || *p > 2) {
      n.error() << "grid sampler modes " << *m << ", " << *p;
      return failure();
    }
    mode = *m == 0 ? "linear" : *m == 1 ? "nearest" : "cubic";
    pad = *p == 0 ? "zeros" : *p == 1 ? "border" : "reflection";
    align = *a;
  } else {
    const R *m = n.arg(2, "mode"), *p = n.arg(3, "padding_mode"), *a = n.arg(4, "align_corners");
    if (m && m->kind == R::Str)
      mode = m->s == "bilinear" ? "linear" : m->s == "bicubic" ? "cubic" : m->s;
    if (p && p->kind == R::Str)
      pad = p->s;
    align = a && a->kind != R::None && a->i;
    if (mode != "linear" && mode != "nearest" && mode != "cubic") {
      n.error() << "grid_sample mode '" << m->s << "'";
      return failure();
    }
    if (pad != "zeros" && pad != "border" && pad != "reflection") {
      n.error() << "grid_sample padding_mode '" << pad << "'";
      return failure();
    }
  }
  if (mode == "cubic" && pad == "border") {
    // torch clamps each of the 16 taps to the border, ONNX's GridSample
    // (graph.grid_sample) the coordinate first: they differ off the grid.
    n.unsupported() << "bicubic grid_sample with padding_mode 'border' (torch clamps each tap, "
                       "not the coordinate)";
    return failure();
  }
  auto xt = n.type(*x), gt = n.type(*g);
  int64_t k = xt.getRank() - 2;
  if (k < 1 || gt.getRank() != k + 2 || gt.getDimSize(0) != xt.getDimSize(0) ||
      gt.getShape().back() != k || (mode == "cubic" && k != 2)) {
    n.error() << "grid_sample of " << x->getType() << " at " << g->getType();
    return failure();
  }
  SmallVector<int64_t> out{xt.getDimSize(0), xt.getDimSize(1)};
  out.append(gt.getShape().begin() + 1, gt.getShape().end() - 1);
  r = R::ofTensor(n.b.create<GridSampleOp>(
      n.loc, RankedTensorType::get(out, xt.getElementType()), *x,
      n.cast(*g, xt.getElementType()), n.b.getStringAttr(mode), n.b.getStringAttr(pad),
      n.b.getBoolAttr(align)));
  return success();
}

/// bilinear(x1, x2, weight [O, I1, I2], bias=None): x1^T W_o x2 per output
/// o, as (x1 [.., I1] @ W reshaped [I1, O I2]) then a product with x2.
LogicalResult bilinear(FXNode &n, R &r) {
  auto a = n.tensor(0, "input1"), b = n.tensor(1, "input2"), w = n.tensor(2, "weight");
  if (failed(a) || failed(b) || failed(w))
    return failure();
  auto at = n.type(*a), bt = n.type(*b), wt = n.type(*w);
  if (wt.getRank() != 3 || at.getRank() < 1 || at.getShape().back() != wt.getDimSize(1) ||
      bt.getShape().back() != wt.getDimSize(2) ||
      at.getShape().drop_back() != bt.getShape().drop_back()) {
    n.error() << "bilinear of " << a->getType() << " and " << b->getType() << " with "
              << w->getType();
    return failure();
  }
  int64_t o = wt.getDimSize(0), i1 = wt.getDimSize(1), i2 = wt.getDimSize(2);
  int64_t rows = at.getNumElements() / i1;
  Value wm = n.reshape(n.transpose(*w, {1, 0, 2}), {i1, o * i2});
  Value t = n.reshape(n.b.create<MatMulOp>(n.loc, n.reshape(*a, {rows, i1}), wm),
                      {rows, o, i2});
  Value y = n.b.create<MatMulOp>(n.loc, t, n.reshape(*b, {rows, i2, 1}));
  SmallVector<int64_t> shape(at.getShape().drop_back());
  shape.push_back(o);
  Value v = n.reshape(y, shape);
  if (Value bias = n.optTensor(3, "bias"))
    v = n.b.create<AddOp>(n.loc, v, bias);
  r = R::ofTensor(v);
  return success();
}
} // namespace

void dfa::fximport::addMathHandlers(llvm::StringMap<Handler> &t) {
  t["log2"] = logBase<2>;
  t["log10"] = logBase<10>;
  t["isinf"] = infinity<0>;
  t["isposinf"] = infinity<1>;
  t["isneginf"] = infinity<2>;
  t["isfinite"] = infinity<3>;
  t["frac"] = frac;
  t["square"] = square;
  t["atan2"] = atan2;
  t["arctan2"] = atan2;
  t["hypot"] = hypot;
  t["logaddexp"] = logaddexp<false>;
  t["logaddexp2"] = logaddexp<true>;
  t["lerp"] = lerp;
  t["linalg_vector_norm"] = linalgVectorNorm;
  t["vector_norm"] = linalgVectorNorm;
  t["linalg_norm"] = norm<true>;
  t["norm"] = norm<false>;
  t["cosine_similarity"] = cosineSimilarity;
  t["pairwise_distance"] = pairwiseDistance;
  t["cdist"] = cdist<false>;
  t["pdist"] = pdist;
  t["instance_norm"] = instanceNormFn;
  t["local_response_norm"] = localResponseNorm;
  t["rms_norm"] = rmsNorm;
  t["adaptive_max_pool1d"] = adaptiveMaxPoolFn<1, false>;
  t["adaptive_max_pool2d"] = adaptiveMaxPoolFn<2, false>;
  t["adaptive_max_pool3d"] = adaptiveMaxPoolFn<3, false>;
  t["lp_pool1d"] = lpPool<1>;
  t["lp_pool2d"] = lpPool<2>;
  t["lp_pool3d"] = lpPool<3>;
  t["cummax"] = cumExtreme<true>;
  t["cummin"] = cumExtreme<false>;
  t["logcumsumexp"] = logcumsumexp;
  t["median"] = orderStatistic<false>;
  t["kthvalue"] = orderStatistic<true>;
  t["bucketize"] = bucketize<false>;
  t["searchsorted"] = bucketize<true>;
  t["one_hot"] = oneHot;
  t["count_nonzero"] = countNonzero;
  t["diag"] = diag;
  t["diag_embed"] = diagEmbed;
  t["diagonal"] = diagonal;
  t["logical_xor"] = logicalXor;
  t["tril_indices"] = triangleIndices<false>;
  t["triu_indices"] = triangleIndices<true>;
  t["exp2"] = exp2;
  t["meshgrid"] = meshgrid;
  t["block_diag"] = blockDiag;
  t["outer"] = outer;
  t["ger"] = outer;
  t["cross"] = cross<false>;
  t["linalg_cross"] = cross<true>;
  t["rot90"] = rot90;
  t["diff"] = diff;
  t["narrow"] = narrow;
  t["tile"] = tile;
  t["channel_shuffle"] = channelShuffle;
  t["native_channel_shuffle"] = channelShuffle;
  t["unflatten"] = unflatten;
  t["embedding_bag"] = embeddingBagFn;
  t["grid_sample"] = gridSample<false>;
  t["bilinear"] = bilinear;
  t["histc"] = histc;
  t["grouped_mm"] = groupedMm;
  t["_grouped_mm"] = groupedMm;

  // ATen forms with the torch function's arguments.
  for (const char *f : {"log2", "log10", "isinf", "frac", "atan2", "hypot", "logaddexp",
                        "logaddexp2", "cummax", "cummin", "logcumsumexp",
                        "kthvalue", "diag_embed", "channel_shuffle", "native_channel_shuffle",
                        "isposinf", "isneginf", "rot90", "one_hot", "diagonal", "exp2"})
    t[(std::string("aten.") + f + ".default").c_str()] = t.lookup(f);
  t["aten.linalg_vector_norm.default"] = linalgVectorNorm;
  t["aten.diagonal_copy.default"] = diagonal;
  t["aten.clamp.Tensor"] = clampTensor;
  t["aten.median.dim"] = orderStatistic<false>;
  t["aten.median.default"] = orderStatistic<false>;
  t["aten.bucketize.Tensor"] = bucketize<false>;
  t["aten.searchsorted.Tensor"] = bucketize<true>;
  t["aten.searchsorted.Scalar"] = bucketize<true>;
  t["aten.logical_xor.default"] = logicalXor;
  t["aten.tril_indices.default"] = triangleIndices<false>;
  t["aten.triu_indices.default"] = triangleIndices<true>;
  t["aten._cdist_forward.default"] = cdist<true>;
  t["aten._pdist_forward.default"] = pdist;
  t["aten.adaptive_max_pool2d.default"] = adaptiveMaxPoolFn<2, true>;
  t["aten.adaptive_max_pool3d.default"] = adaptiveMaxPoolFn<3, true>;
  t["aten._embedding_bag_forward_only.default"] = atenEmbeddingBag;
  t["aten._embedding_bag.default"] = atenEmbeddingBag;
  t["aten.grid_sampler_2d.default"] = gridSample<true>;
  t["aten.grid_sampler_3d.default"] = gridSample<true>;
  t["aten.histc.default"] = histc;
  t["aten._grouped_mm.default"] = groupedMm;
  t["transformers.grouped_mm_fallback.default"] = groupedMm;
}

void dfa::fximport::addMathModuleHandlers(llvm::StringMap<Handler> &t) {
  t["InstanceNorm1d"] = instanceNormModule<1>;
  t["InstanceNorm2d"] = instanceNormModule<2>;
  t["InstanceNorm3d"] = instanceNormModule<3>;
}
