//===- FXFunctions.cpp - handlers of call_function and call_method ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// One handler per canonical target name; the functional form
/// (torch.relu(x), F.relu(x)) and the method form (x.relu()) share it, self
/// being argument 0. Python numbers flow through shape arithmetic
/// (x.size(0) * 2) as values, never as IR.
///
//===----------------------------------------------------------------------===//

#include "FXImporter.h"

#include "dfa/Reference/Evaluator.h"

#include <cmath>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;
using namespace dfa::fximport;

/// Float beats integer beats bool; among floats the wider wins.
Type dfa::fximport::promotedType(Type a, Type b) {
  if (a == b)
    return a;
  bool fa = isa<FloatType>(a), fb = isa<FloatType>(b);
  if (fa != fb)
    return fa ? a : b;
  if (a.isInteger(1) || b.isInteger(1))
    return a.isInteger(1) ? b : a;
  // f16 with bf16: neither holds the other, torch gives f32.
  if (fa && a.getIntOrFloatBitWidth() == b.getIntOrFloatBitWidth())
    return Float32Type::get(a.getContext());
  return a.getIntOrFloatBitWidth() >= b.getIntOrFloatBitWidth() ? a : b;
}

Type dfa::fximport::promotedType(ArrayRef<Value> operands) {
  // The dimensioned operands' type; 0-d ones count only when of a higher
  // category (bool < integer < float).
  auto category = [](Type t) { return isa<FloatType>(t) ? 2 : t.isInteger(1) ? 0 : 1; };
  Type dim, zero;
  for (Value v : operands) {
    auto t = cast<RankedTensorType>(v.getType());
    Type &acc = t.getRank() == 0 ? zero : dim;
    acc = acc ? promotedType(acc, t.getElementType()) : t.getElementType();
  }
  if (!dim)
    return zero;
  return zero && category(zero) > category(dim) ? zero : dim;
}

Type dfa::fximport::promotedType(Value a, Value b) { return promotedType({a, b}); }

namespace {
using R = PyValue;

/// Both operands as tensors of one element type that broadcast.
FailureOr<std::pair<Value, Value>> operands(FXNode &n, const R &a, const R &b) {
  Value like = a.kind == R::Tensor ? a.tensor : b.tensor;
  // A Python number of another kind than the tensor promotes as torch
  // does: a float with an integer or bool tensor to the default float
  // dtype (f32), an int with a bool tensor to int64.
  Type elt = n.type(like).getElementType();
  auto number = [&](const R &v) -> FailureOr<Value> {
    if (v.kind == R::Float && !isa<FloatType>(elt))
      return n.scalar(n.b.getF32Type(), v.number());
    if (v.kind == R::Int && elt.isInteger(1))
      return n.scalar(n.b.getI64Type(), v.number());
    return n.asTensor(v, like);
  };
  auto x = number(a), y = number(b);
  if (failed(x) || failed(y))
    return failure();
  elt = a.kind == R::Tensor && b.kind == R::Tensor
            ? promotedType(*x, *y)
            : promotedType(n.type(*x).getElementType(), n.type(*y).getElementType());
  Value l = n.cast(*x, elt), r = n.cast(*y, elt);
  if (failed(broadcastShapes(n.type(l).getShape(), n.type(r).getShape()))) {
    n.error() << "operand shapes " << l.getType() << " and " << r.getType()
              << " do not broadcast";
    return failure();
  }
  return std::make_pair(l, r);
}

/// Arithmetic on Python numbers (shape code).
FailureOr<R> pyArith(FXNode &n, StringRef op, const R &a, const R &b) {
  op.consume_front("__");
  op.consume_back("__");
  if ((op == "add" || op == "iadd") && a.kind == R::List && b.kind == R::List) {
    std::vector<R> l = a.list;
    l.insert(l.end(), b.list.begin(), b.list.end());
    return R::ofList(l);
  }
  static const char *const known[] = {"add", "iadd", "radd", "sub", "isub",
                                      "mul", "imul", "rmul", "floordiv",
                                      "truediv", "div", "mod", "pow", "eq",
                                      "ne", "lt", "le", "gt", "ge", "sym_max",
                                      "sym_min"};
  if (!a.isNumber() || !b.isNumber() || !llvm::is_contained(known, op)) {
    n.unsupported() << "'" << op << "' on " << a.describe() << " and "
                    << b.describe();
    return failure();
  }
  if (op == "radd" || op == "rmul")
    op = op.drop_front();
  if (op == "div")
    op = "truediv";
  bool ints = a.kind != R::Float && b.kind != R::Float;
  double x = a.number(), y = b.number();
  if ((op == "floordiv" || op == "truediv" || op == "mod") && y == 0) {
    n.error() << "'" << op << "' by zero";
    return failure();
  }
  R r;
  r.kind = ints ? R::Int : R::Float;
  auto set = [&](double v) {
    if (ints)
      r.i = (int64_t)v;
    else
      r.f = v;
  };
  if (op == "add" || op == "iadd")
    set(x + y);
  else if (op == "sub" || op == "isub")
    set(x - y);
  else if (op == "mul" || op == "imul")
    set(x * y);
  else if (op == "floordiv") {
    set(std::floor(x / y));
  } else if (op == "truediv") {
    r.kind = R::Float;
    r.f = x / y;
  } else if (op == "mod") {
    set(x - std::floor(x / y) * y);
  } else if (op == "pow") {
    if (x == 0 && y < 0) {
      n.error() << "0 raised to a negative power";
      return failure();
    }
    if (ints && y < 0) { // Python: an int to a negative int power is a float
      r.kind = R::Float;
      r.f = std::pow(x, y);
    } else {
      set(std::pow(x, y));
    }
  } else if (op == "sym_max" || op == "sym_min") {
    set(op == "sym_max" ? std::max(x, y) : std::min(x, y));
  } else {
    r.kind = R::Bool;
    r.i = op == "eq" ? x == y : op == "ne" ? x != y : op == "lt" ? x < y
        : op == "le" ? x <= y : op == "gt" ? x > y : x >= y;
  }
  return r;
}

template <typename OpT> LogicalResult binary(FXNode &n, R &r) {
  const R *a = n.arg(0, "input"), *b = n.arg(1, "other");
  if (!a || !b) {
    n.error() << "needs two operands";
    return failure();
  }
  if (a->kind != R::Tensor && b->kind != R::Tensor) {
    auto v = pyArith(n, canonicalTarget("call_function", n.target), *a, *b);
    if (failed(v))
      return failure();
    r = *v;
    return success();
  }
  auto ops = operands(n, *a, *b);
  if (failed(ops))
    return failure();
  Value rhs = ops->second;
  // torch.add/sub(x, y, alpha=a) computes x + a * y.
  if (const R *alpha = n.arg(2, "alpha"); alpha && alpha->isNumber() &&
                                          alpha->number() != 1.0)
    rhs = n.b.create<MulOp>(n.loc, rhs,
                            n.scalar(n.type(rhs).getElementType(), alpha->number()));
  r = R::ofTensor(n.b.create<OpT>(n.loc, ops->first, rhs));
  return success();
}

/// A float tensor rounded toward zero (no graph op does it alone).
Value truncated(FXNode &n, Value v) {
  Type elt = n.type(v).getElementType();
  return n.b.create<WhereOp>(n.loc, n.b.create<LessOp>(n.loc, v, n.scalar(elt, 0)),
                             n.b.create<CeilOp>(n.loc, v), n.b.create<FloorOp>(n.loc, v));
}

/// x / y under torch's rounding modes: true division ("": integers and
/// bools promote to the default float dtype, f32), "trunc" (toward zero)
/// or "floor" (down: Python's //). Integer trunc is C's division; integer
/// floor is (x - mod(x, y)) / y, whose division is exact.
LogicalResult division(FXNode &n, R &r, StringRef mode) {
  const R *a = n.arg(0, "input"), *b = n.arg(1, "other");
  if (!a || !b) {
    n.error() << "needs two operands";
    return failure();
  }
  if (a->kind != R::Tensor && b->kind != R::Tensor) {
    auto v = pyArith(n, mode.empty() ? "truediv" : "floordiv", *a, *b);
    if (failed(v))
      return failure();
    if (mode == "trunc" && a->isNumber() && b->isNumber()) {
      double q = std::trunc(a->number() / b->number());
      *v = a->kind == R::Float || b->kind == R::Float ? R::ofFloat(q) : R::ofInt(int64_t(q));
    }
    r = *v;
    return success();
  }
  auto ops = operands(n, *a, *b);
  if (failed(ops))
    return failure();
  auto [x, y] = *ops;
  Type elt = n.type(x).getElementType();
  if (mode.empty()) {
    if (!isa<FloatType>(elt)) {
      x = n.cast(x, n.b.getF32Type());
      y = n.cast(y, n.b.getF32Type());
    }
    r = R::ofTensor(n.b.create<DivOp>(n.loc, x, y));
    return success();
  }
  if (elt.isInteger(1)) {
    n.unsupported() << "division of bool tensors with rounding_mode '" << mode << "'";
    return failure();
  }
  Value q;
  if (isa<FloatType>(elt)) {
    q = n.b.create<DivOp>(n.loc, x, y);
    q = mode == "floor" ? Value(n.b.create<FloorOp>(n.loc, q)) : truncated(n, q);
  } else if (mode == "trunc") {
    q = n.b.create<DivOp>(n.loc, x, y);
  } else {
    Value rem = n.b.create<ModOp>(n.loc, x, y);
    q = n.b.create<DivOp>(n.loc, n.b.create<SubOp>(n.loc, x, rem), y);
  }
  r = R::ofTensor(q);
  return success();
}

LogicalResult floordiv(FXNode &n, R &r) { return division(n, r, "floor"); }

LogicalResult trunc(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  r = R::ofTensor(isa<FloatType>(n.type(*x).getElementType()) ? truncated(n, *x) : *x);
  return success();
}

/// fmod: C's remainder, the dividend's sign (remainder and % are mod's,
/// Python's, the divisor's sign).
LogicalResult fmod(FXNode &n, R &r) {
  if (failed(binary<ModOp>(n, r)))
    return failure();
  if (r.kind == R::Tensor)
    r.tensor.getDefiningOp<ModOp>().setFmod(true);
  return success();
}

LogicalResult rsub(FXNode &n, R &r) {
  if (n.args.size() < 2) {
    n.error() << "needs two operands";
    return failure();
  }
  std::swap(n.args[0], n.args[1]);
  return binary<SubOp>(n, r);
}

LogicalResult truediv(FXNode &n, R &r) {
  const R *mode = n.arg(2, "rounding_mode");
  if (!mode || mode->kind == R::None)
    return division(n, r, "");
  if (mode->kind != R::Str || (mode->s != "floor" && mode->s != "trunc")) {
    n.error() << "rounding_mode must be None, 'floor' or 'trunc'";
    return failure();
  }
  return division(n, r, mode->s);
}

template <typename OpT> LogicalResult compare(FXNode &n, R &r) {
  return binary<OpT>(n, r);
}

LogicalResult ne(FXNode &n, R &r) {
  if (failed(binary<EqualOp>(n, r)))
    return failure();
  if (r.kind == R::Tensor)
    r.tensor = n.b.create<NotOp>(n.loc, r.tensor);
  return success();
}

template <typename OpT> LogicalResult unary(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Value v = *x;
  // The transcendental ones (and reciprocal) of an integer or bool tensor
  // are computed in the default float dtype, as torch promotes them.
  constexpr bool floating =
      llvm::is_one_of<OpT, ExpOp, LogOp, SqrtOp, SinOp, CosOp, ErfOp, SigmoidOp, TanhOp,
                      ReciprocalOp, SiluOp, MishOp, HardSwishOp, TanOp, AsinOp, AcosOp, AtanOp,
                      SinhOp, CoshOp, AsinhOp, AcoshOp, AtanhOp>::value;
  if (floating && !isa<FloatType>(n.type(v).getElementType()))
    v = n.cast(v, n.b.getF32Type());
  r = R::ofTensor(n.b.create<OpT>(n.loc, v));
  return success();
}

/// bitwise_and/or/xor: of bools, the logical op; of integers, the bits.
template <int Kind> LogicalResult bitwise(FXNode &n, R &r) {
  // Python ints and bools (shape code).
  if (n.args.size() >= 2 && n.args[0].kind != R::Tensor && n.args[1].kind != R::Tensor) {
    const R &a = n.args[0], &b = n.args[1];
    if ((a.kind != R::Int && a.kind != R::Bool) || (b.kind != R::Int && b.kind != R::Bool)) {
      n.unsupported() << "bitwise op on " << a.describe() << " and " << b.describe();
      return failure();
    }
    r.kind = a.kind == R::Bool && b.kind == R::Bool ? R::Bool : R::Int;
    r.i = Kind == 0 ? (a.i & b.i) : Kind == 1 ? (a.i | b.i) : (a.i ^ b.i);
    return success();
  }
  // A number on the left (12 & x): the ops commute.
  if (n.args.size() >= 2 && n.args[0].kind != R::Tensor && n.args[1].kind == R::Tensor)
    std::swap(n.args[0], n.args[1]);
  auto a = n.tensor(0, "input");
  const R *b = n.arg(1, "other");
  if (failed(a) || !b)
    return failure();
  auto bt = n.asTensor(*b, *a);
  if (failed(bt))
    return failure();
  // A bool with an integer tensor is the integer type (torch's promotion).
  Type elt = b->kind == R::Tensor ? promotedType(*a, *bt) : n.type(*a).getElementType();
  a = n.cast(*a, elt);
  Value rhs = n.cast(*bt, elt);
  if (failed(broadcastShapes(n.type(*a).getShape(), n.type(rhs).getShape()))) {
    n.error() << "operand shapes " << a->getType() << " and " << rhs.getType()
              << " do not broadcast";
    return failure();
  }
  if (elt.isInteger(1)) {
    r = R::ofTensor(Kind == 0   ? Value(n.b.create<AndOp>(n.loc, *a, rhs))
                    : Kind == 1 ? Value(n.b.create<OrOp>(n.loc, *a, rhs))
                                : Value(n.b.create<XorOp>(n.loc, *a, rhs)));
    return success();
  }
  if (!isa<IntegerType>(elt)) {
    n.error() << "bitwise ops take integer or bool tensors, not " << a->getType();
    return failure();
  }
  r = R::ofTensor(n.b.create<BitwiseOp>(n.loc, *a, rhs,
                                        n.b.getStringAttr(Kind == 0   ? "and"
                                                          : Kind == 1 ? "or"
                                                                      : "xor")));
  return success();
}

/// ~x: of bools, not; of integers, their bits flipped.
LogicalResult bitwiseNot(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Type elt = n.type(*x).getElementType();
  if (elt.isInteger(1)) {
    r = R::ofTensor(n.b.create<NotOp>(n.loc, *x));
    return success();
  }
  if (!isa<IntegerType>(elt)) {
    n.error() << "bitwise not of " << x->getType();
    return failure();
  }
  r = R::ofTensor(n.b.create<BitwiseNotOp>(n.loc, *x));
  return success();
}

/// logical_not(x): x == 0, as bools.
LogicalResult logicalNot(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  Type elt = n.type(*x).getElementType();
  if (elt.isInteger(1)) {
    r = R::ofTensor(n.b.create<NotOp>(n.loc, *x));
    return success();
  }
  r = R::ofTensor(n.b.create<EqualOp>(n.loc, n.type(*x).clone(n.b.getI1Type()), *x,
                                      n.scalar(elt, 0)));
  return success();
}

LogicalResult rsqrt(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  r = R::ofTensor(n.b.create<ReciprocalOp>(n.loc, n.b.create<SqrtOp>(n.loc, *x)));
  return success();
}

LogicalResult gelu(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  const R *approx = n.arg(1, "approximate");
  bool tanh = approx && approx->kind == R::Str && approx->s == "tanh";
  r = R::ofTensor(n.b.create<GeluOp>(n.loc, *x, n.b.getBoolAttr(tanh)));
  return success();
}

LogicalResult clampTo(FXNode &n, R &r, Value x, std::optional<double> lo,
                      std::optional<double> hi) {
  r = R::ofTensor(n.b.create<ClipOp>(
      n.loc, x, lo ? n.b.getF64FloatAttr(*lo) : FloatAttr(),
      hi ? n.b.getF64FloatAttr(*hi) : FloatAttr()));
  return success();
}

LogicalResult clamp(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  const R *lo = n.arg(1, "min"), *hi = n.arg(2, "max");
  if ((lo && lo->kind == R::Tensor) || (hi && hi->kind == R::Tensor))
    return clampTensor(n, r);
  auto num = [](const R *v) -> std::optional<double> {
    return v && v->isNumber() ? std::optional<double>(v->number()) : std::nullopt;
  };
  // An integer tensor clamped to a float bound is a float tensor (torch's
  // promotion with a Python float).
  Value in = *x;
  if (((lo && lo->kind == R::Float) || (hi && hi->kind == R::Float)) &&
      isa<IntegerType>(n.type(in).getElementType()))
    in = n.cast(in, n.b.getF32Type());
  return clampTo(n, r, in, num(lo), num(hi));
}

LogicalResult relu6(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  return failed(x) ? failure() : clampTo(n, r, *x, 0.0, 6.0);
}

LogicalResult hardtanh(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto lo = n.floatArg(1, "min_val", -1), hi = n.floatArg(2, "max_val", 1);
  if (failed(x) || failed(lo) || failed(hi))
    return failure();
  return clampTo(n, r, *x, *lo, *hi);
}

LogicalResult leakyRelu(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto a = n.floatArg(1, "negative_slope", 0.01);
  if (failed(x) || failed(a))
    return failure();
  r = R::ofTensor(n.b.create<LeakyReluOp>(n.loc, *x, n.b.getF64FloatAttr(*a)));
  return success();
}

LogicalResult where(FXNode &n, R &r) {
  auto c = n.tensor(0, "condition");
  if (failed(c))
    return failure();
  if (!n.arg(1, "input") || !n.arg(2, "other")) {
    n.error() << "needs a condition and two values";
    return failure();
  }
  auto ops = operands(n, *n.arg(1, "input"), *n.arg(2, "other"));
  if (failed(ops))
    return failure();
  r = R::ofTensor(n.b.create<WhereOp>(n.loc, *c, ops->first, ops->second));
  return success();
}

LogicalResult maskedFill(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), m = n.tensor(1, "mask");
  const R *v = n.arg(2, "value");
  if (failed(x) || failed(m) || !v)
    return failure();
  auto val = n.asTensor(*v, *x);
  if (failed(val))
    return failure();
  if (!n.type(*m).getElementType().isInteger(1) ||
      failed(broadcastShapes(n.type(*m).getShape(), n.type(*x).getShape()))) {
    n.error() << "mask " << m->getType() << " is not a bool tensor that "
              << "broadcasts to " << x->getType();
    return failure();
  }
  r = R::ofTensor(n.b.create<WhereOp>(n.loc, *m, n.cast(*val, n.type(*x).getElementType()), *x));
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

LogicalResult matmul(FXNode &n, R &r) {
  auto a = n.tensor(0, "input"), b = n.tensor(1, "other");
  if (failed(a) || failed(b))
    return failure();
  auto at = n.type(*a), bt = n.type(*b);
  if (at.getRank() < 1 || bt.getRank() < 1) {
    n.error() << "matmul operands must have rank >= 1";
    return failure();
  }
  int64_t ka = at.getShape().back();
  int64_t kb = bt.getRank() == 1 ? bt.getDimSize(0) : bt.getDimSize(bt.getRank() - 2);
  if (ka != kb || at.getElementType() != bt.getElementType() ||
      failed(broadcastShapes(at.getShape().drop_back(std::min<int64_t>(2, at.getRank())),
                             bt.getShape().drop_back(std::min<int64_t>(2, bt.getRank()))))) {
    n.error() << "cannot multiply " << a->getType() << " by " << b->getType();
    return failure();
  }
  r = R::ofTensor(n.b.create<MatMulOp>(n.loc, *a, *b));
  return success();
}

LogicalResult linearFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), w = n.tensor(1, "weight");
  if (failed(x) || failed(w))
    return failure();
  return setTensor(r, linear(n, *x, *w, n.optTensor(2, "bias")));
}

LogicalResult addmm(FXNode &n, R &r) {
  auto c = n.tensor(0, "input"), a = n.tensor(1, "mat1"), b = n.tensor(2, "mat2");
  auto beta = n.floatArg(3, "beta", 1), alpha = n.floatArg(4, "alpha", 1);
  if (failed(c) || failed(a) || failed(b) || failed(beta) || failed(alpha))
    return failure();
  auto ct = n.type(*c);
  int64_t m = n.type(*a).getDimSize(0), nn = n.type(*b).getDimSize(1);
  auto bc = broadcastShapes(ct.getShape(), {m, nn});
  if (n.type(*a).getRank() != 2 || n.type(*b).getRank() != 2 ||
      n.type(*a).getDimSize(1) != n.type(*b).getDimSize(0) || failed(bc)) {
    n.error() << "addmm operands do not fit";
    return failure();
  }
  r = R::ofTensor(n.b.create<GemmOp>(n.loc, *a, *b, *c, n.b.getF64FloatAttr(*alpha),
                                     n.b.getF64FloatAttr(*beta), n.b.getBoolAttr(false),
                                     n.b.getBoolAttr(false)));
  return success();
}

/// einsum(equation, *operands) or einsum(equation, [operands]).
LogicalResult einsum(FXNode &n, R &r) {
  const R *eq = n.arg(0, "equation");
  if (!eq || eq->kind != R::Str) {
    n.error() << "einsum needs an equation string";
    return failure();
  }
  SmallVector<Value> operands;
  for (size_t i = 1; i < n.args.size(); ++i) {
    const R &a = n.args[i];
    for (const R &e : a.kind == R::List ? a.list : std::vector<R>{a}) {
      if (e.kind != R::Tensor) {
        n.error() << "einsum operand is " << e.describe();
        return failure();
      }
      operands.push_back(e.tensor);
    }
  }
  BuildError err;
  auto v = buildEinsum(n.b, n.loc, eq->s, operands, err);
  if (failed(v)) {
    (err.unsupported ? n.unsupported() : n.error()) << err.message;
    return failure();
  }
  r = R::ofTensor(*v);
  return success();
}

/// A runtime check (torch._assert): nothing to compute.
LogicalResult runtimeCheck(FXNode &, R &r) {
  r = R();
  return success();
}

//===----------------------------------------------------------------------===//
// Shapes as values
//===----------------------------------------------------------------------===//

R shapeList(ArrayRef<int64_t> shape) {
  std::vector<R> l;
  for (int64_t d : shape)
    l.push_back(R::ofInt(d));
  return R::ofList(l);
}

LogicalResult size(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  auto t = n.type(*x);
  const R *d = n.arg(1, "dim");
  if (!d || d->kind == R::None) {
    r = shapeList(t.getShape());
    return success();
  }
  auto dd = n.dim(d->i, t.getRank());
  if (failed(dd))
    return failure();
  r = R::ofInt(t.getDimSize(*dd));
  return success();
}

LogicalResult getattrFn(FXNode &n, R &r) {
  const R *obj = n.arg(0), *attr = n.arg(1);
  // torch.return_types (topk, sort, max/min over a dim, ...): values and
  // indices by name.
  if (obj && obj->kind == R::List && obj->list.size() == 2 && attr && attr->kind == R::Str &&
      (attr->s == "values" || attr->s == "indices" || attr->s == "min" || attr->s == "max")) {
    r = obj->list[attr->s == "values" || attr->s == "min" ? 0 : 1]; // aminmax: (min, max)
    return success();
  }
  if (!obj || obj->kind != R::Tensor || !attr || attr->kind != R::Str) {
    n.unsupported() << "getattr on " << (obj ? obj->describe() : "nothing");
    return failure();
  }
  auto t = n.type(obj->tensor);
  if (attr->s == "shape") {
    r = shapeList(t.getShape());
  } else if (attr->s == "ndim") {
    r = R::ofInt(t.getRank());
  } else if (attr->s == "dtype") {
    r.kind = R::DType;
    r.s = ref::dtypeName(*ref::dtypeOf(t.getElementType())).str();
  } else if (attr->s == "device") {
    r.kind = R::Str;
    r.s = "cpu";
  } else if (attr->s == "T" && t.getRank() == 2) {
    r = R::ofTensor(n.transpose(obj->tensor, {1, 0}));
  } else {
    n.unsupported() << "tensor attribute '" << attr->s << "'";
    return failure();
  }
  return success();
}

LogicalResult dimFn(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  r = R::ofInt(n.type(*x).getRank());
  return success();
}

/// Python's math module on the numbers shape code computes.
template <int Fn> LogicalResult mathFn(FXNode &n, R &r) {
  const R *x = n.arg(0);
  if (!x || !x->isNumber()) {
    n.error() << "math function of " << (x ? x->describe() : "nothing");
    return failure();
  }
  double v = x->number();
  r.kind = Fn >= 3 ? R::Int : R::Float;
  double out = Fn == 0 ? std::sqrt(v) : Fn == 1 ? std::exp(v) : Fn == 2 ? std::log(v)
             : Fn == 3 ? std::floor(v) : std::ceil(v);
  if (r.kind == R::Int)
    r.i = (int64_t)out;
  else
    r.f = out;
  return success();
}

LogicalResult numel(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  r = R::ofInt(n.type(*x).getNumElements());
  return success();
}

/// torch.flip(x, dims) / x.flip(*dims).
LogicalResult flip(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto dims = n.intList(1, "dims", true);
  if (failed(x) || failed(dims))
    return failure();
  SmallVector<int64_t> ds;
  for (int64_t d : *dims) {
    auto dd = n.dim(d, n.type(*x).getRank());
    if (failed(dd))
      return failure();
    ds.push_back(*dd);
  }
  r = R::ofTensor(flipped(n, *x, ds));
  return success();
}

/// torch.roll(x, shifts, dims): per dim the last `shift` elements first (a
/// slice of each part and a concat); without dims, of the flattened x.
LogicalResult roll(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto shifts = n.intList(1, "shifts", false);
  auto dims = n.optIntList(2, "dims", {});
  if (failed(x) || failed(shifts) || failed(dims))
    return failure();
  auto t = n.type(*x);
  Value v = *x;
  std::vector<int64_t> ds = *dims;
  if (ds.empty()) {
    if (shifts->size() != 1) {
      n.error() << "roll without dims takes one shift";
      return failure();
    }
    v = n.reshape(v, {t.getNumElements()});
    ds = {0};
  }
  if (ds.size() != shifts->size()) {
    n.error() << "roll needs one shift per dim";
    return failure();
  }
  for (auto [d, shift] : llvm::zip(ds, *shifts)) {
    auto vt = n.type(v);
    auto dd = n.dim(d, vt.getRank());
    if (failed(dd))
      return failure();
    int64_t len = vt.getDimSize(*dd);
    int64_t k = len ? ((shift % len) + len) % len : 0;
    if (k == 0)
      continue;
    auto part = [&](int64_t from, int64_t count) {
      SmallVector<int64_t> starts(vt.getRank(), 0), steps(vt.getRank(), 1),
          shape(vt.getShape());
      starts[*dd] = from;
      shape[*dd] = count;
      return Value(n.b.create<SliceOp>(n.loc, vt.clone(shape), v,
                                       n.b.getDenseI64ArrayAttr(starts),
                                       n.b.getDenseI64ArrayAttr(steps)));
    };
    v = n.b.create<ConcatOp>(n.loc, ValueRange{part(len - k, k), part(0, len - k)},
                             n.b.getI64IntegerAttr(*dd));
  }
  r = R::ofTensor(n.reshape(v, t.getShape()));
  return success();
}

/// torch.addcmul(input, t1, t2, value=1): input + value * t1 * t2.
LogicalResult addcmul(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), a = n.tensor(1, "tensor1"), b = n.tensor(2, "tensor2");
  auto value = n.floatArg(3, "value", 1.0);
  if (failed(x) || failed(a) || failed(b) || failed(value))
    return failure();
  Value prod = n.b.create<MulOp>(n.loc, *a, *b);
  if (*value != 1.0)
    prod = n.b.create<MulOp>(n.loc, prod, n.scalar(n.type(prod).getElementType(), *value));
  r = R::ofTensor(n.b.create<AddOp>(n.loc, *x, prod));
  return success();
}

/// torch.baddbmm / addbmm-free form: beta * input + alpha * (b1 @ b2).
LogicalResult baddbmm(FXNode &n, R &r) {
  auto x = n.tensor(0, "input"), a = n.tensor(1, "batch1"), b = n.tensor(2, "batch2");
  auto beta = n.floatArg(99, "beta", 1.0), alpha = n.floatArg(99, "alpha", 1.0);
  if (failed(x) || failed(a) || failed(b) || failed(beta) || failed(alpha))
    return failure();
  Type elt = n.type(*a).getElementType();
  Value prod = n.b.create<MatMulOp>(n.loc, *a, *b);
  if (*alpha != 1.0)
    prod = n.b.create<MulOp>(n.loc, prod, n.scalar(elt, *alpha));
  if (*beta == 0.0) { // torch ignores input (even NaN) when beta is 0
    r = R::ofTensor(prod);
    return success();
  }
  Value in = *x;
  if (*beta != 1.0)
    in = n.b.create<MulOp>(n.loc, in, n.scalar(elt, *beta));
  r = R::ofTensor(n.b.create<AddOp>(n.loc, prod, in));
  return success();
}

/// torch.logsumexp(x, dim, keepdim): max + log(sum(exp(x - max))), the
/// max taken as 0 where it is infinite (torch's guard).
LogicalResult logsumexp(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto dims = n.intList(1, "dim", false);
  auto keep = n.intArg(2, "keepdim", 0);
  if (failed(x) || failed(dims) || failed(keep))
    return failure();
  auto t = n.type(*x);
  SmallVector<int64_t> axes;
  for (int64_t d : *dims) {
    auto dd = n.dim(d, t.getRank());
    if (failed(dd))
      return failure();
    axes.push_back(*dd);
  }
  Value in = isa<FloatType>(t.getElementType()) ? *x : n.cast(*x, n.b.getF32Type());
  Type elt = n.type(in).getElementType();
  auto a = n.b.getDenseI64ArrayAttr(axes);
  Value m = n.b.create<ReduceMaxOp>(n.loc, in, a, n.b.getBoolAttr(true));
  Value inf = n.b.create<IsInfOp>(n.loc, n.type(m).clone(n.b.getI1Type()), m,
                                  n.b.getBoolAttr(true), n.b.getBoolAttr(true));
  m = n.b.create<WhereOp>(n.loc, inf, n.filled({}, elt, 0), m);
  Value sum = n.b.create<ReduceSumOp>(n.loc, n.b.create<ExpOp>(n.loc, n.b.create<SubOp>(n.loc, in, m)),
                                      a, n.b.getBoolAttr(*keep));
  if (!*keep)
    m = n.b.create<ReduceMaxOp>(n.loc, m, a, n.b.getBoolAttr(false));
  r = R::ofTensor(n.b.create<AddOp>(n.loc, n.b.create<LogOp>(n.loc, sum), m));
  return success();
}

/// torch.nan_to_num(x, nan=0, posinf=max, neginf=lowest of x's type).
LogicalResult nanToNum(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  auto t = n.type(*x);
  auto ft = dyn_cast<FloatType>(t.getElementType());
  if (!ft) { // integers have no NaN or infinity
    r = R::ofTensor(*x);
    return success();
  }
  double big = llvm::APFloat::getLargest(ft.getFloatSemantics()).convertToDouble();
  auto num = [&](size_t i, StringRef kw, double dflt) -> FailureOr<double> {
    const R *v = n.arg(i, kw);
    return v && v->isNumber() ? v->number() : dflt;
  };
  auto nan = num(1, "nan", 0), pos = num(2, "posinf", big), neg = num(3, "neginf", -big);
  Value y = n.b.create<WhereOp>(
      n.loc, n.b.create<IsNaNOp>(n.loc, t.clone(n.b.getI1Type()), *x), n.filled({}, ft, *nan), *x);
  Value inf = n.filled({}, ft, INFINITY);
  y = n.b.create<WhereOp>(n.loc, n.b.create<EqualOp>(n.loc, y, inf), n.filled({}, ft, *pos), y);
  y = n.b.create<WhereOp>(n.loc, n.b.create<EqualOp>(n.loc, y, n.b.create<NegOp>(n.loc, inf)),
                          n.filled({}, ft, *neg), y);
  r = R::ofTensor(y);
  return success();
}

template <bool Shuffle> LogicalResult pixelShuffle(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  auto f = n.intArg(1, Shuffle ? "upscale_factor" : "downscale_factor", 1);
  if (failed(x) || failed(f))
    return failure();
  return setTensor(r, pixelShuffleTensor(n, *x, *f, Shuffle));
}

/// torch.isnan(x).
LogicalResult isnan(FXNode &n, R &r) {
  auto x = n.tensor(0, "input");
  if (failed(x))
    return failure();
  if (!isa<FloatType>(n.type(*x).getElementType())) {
    r = R::ofTensor(n.filled(n.type(*x).getShape(), n.b.getI1Type(), 0));
    return success();
  }
  r = R::ofTensor(n.b.create<IsNaNOp>(n.loc, n.type(*x).clone(n.b.getI1Type()), *x));
  return success();
}
} // namespace

/// F.pixel_shuffle / pixel_unshuffle: [..., C r^2, H, W] <-> [..., C, H r,
/// W r] as a reshape, a transpose and a reshape (leading dims as one batch).
Value dfa::fximport::flipped(FXNode &n, Value x, ArrayRef<int64_t> dims) {
  auto t = n.type(x);
  SmallVector<int64_t> starts(t.getRank(), 0), steps(t.getRank(), 1);
  for (int64_t d : dims) {
    starts[d] = std::max<int64_t>(t.getDimSize(d) - 1, 0);
    steps[d] = -1;
  }
  return n.b.create<SliceOp>(n.loc, t, x, n.b.getDenseI64ArrayAttr(starts),
                             n.b.getDenseI64ArrayAttr(steps));
}

FailureOr<Value> dfa::fximport::pixelShuffleTensor(FXNode &n, Value x, int64_t k, bool shuffle) {
  auto t = n.type(x);
  int64_t rank = t.getRank();
  if (rank < 3 || k < 1 ||
      (shuffle ? t.getDimSize(rank - 3) % (k * k)
               : (t.getDimSize(rank - 2) % k) | (t.getDimSize(rank - 1) % k))) {
    n.error() << "pixel " << (shuffle ? "shuffle" : "unshuffle") << " by " << k
              << " does not fit " << x.getType();
    return failure();
  }
  int64_t N = 1;
  for (int64_t d = 0; d < rank - 3; ++d)
    N *= t.getDimSize(d);
  int64_t C = t.getDimSize(rank - 3), H = t.getDimSize(rank - 2), W = t.getDimSize(rank - 1);
  SmallVector<int64_t> lead(t.getShape().drop_back(3)), out(lead);
  Value v;
  if (shuffle) {
    v = n.transpose(n.reshape(x, {N, C / (k * k), k, k, H, W}), {0, 1, 4, 2, 5, 3});
    out.append({C / (k * k), H * k, W * k});
  } else {
    v = n.transpose(n.reshape(x, {N, C, H / k, k, W / k, k}), {0, 1, 3, 5, 2, 4});
    out.append({C * k * k, H / k, W / k});
  }
  return n.reshape(v, out);
}

const llvm::StringMap<Handler> &dfa::fximport::functionHandlers() {
  static const llvm::StringMap<Handler> table = [] {
    llvm::StringMap<Handler> t;
    for (const char *k : {"add", "iadd", "__add__", "__radd__"})
      t[k] = binary<AddOp>;
    for (const char *k : {"sub", "isub", "__sub__"})
      t[k] = binary<SubOp>;
    t["rsub"] = rsub;
    t["flip"] = flip;
    t["roll"] = roll;
    t["addcmul"] = addcmul;
    t["baddbmm"] = baddbmm;
    t["logsumexp"] = logsumexp;
    t["nan_to_num"] = nanToNum;
    t["pixel_shuffle"] = pixelShuffle<true>;
    t["pixel_unshuffle"] = pixelShuffle<false>;
    t["isnan"] = isnan;
    for (const char *k : {"mul", "imul", "__mul__", "__rmul__"})
      t[k] = binary<MulOp>;
    for (const char *k : {"truediv", "div", "__truediv__", "divide"})
      t[k] = truediv;
    t["pow"] = binary<PowOp>;
    t["floordiv"] = floordiv;
    t["floor_divide"] = floordiv;
    t["trunc"] = trunc;
    t["fix"] = trunc;
    t["mod"] = binary<ModOp>;
    t["remainder"] = binary<ModOp>;
    t["fmod"] = fmod;
    t["maximum"] = binary<MaxOp>;
    t["minimum"] = binary<MinOp>;
    // torch.export's max and min of sizes (torch.sym_max/sym_min).
    t["sym_max"] = binary<MaxOp>;
    t["sym_min"] = binary<MinOp>;
    t["eq"] = compare<EqualOp>;
    t["ne"] = ne;
    t["lt"] = compare<LessOp>;
    t["le"] = compare<LessEqualOp>;
    t["gt"] = compare<GreaterOp>;
    t["ge"] = compare<GreaterEqualOp>;
    t["and_"] = bitwise<0>; // a & b: logical of bools, bitwise of integers
    t["logical_and"] = binary<AndOp>;
    t["or_"] = bitwise<1>;
    t["xor"] = bitwise<2>;
    t["logical_or"] = binary<OrOp>;
    t["invert"] = bitwiseNot;
    t["bitwise_and"] = bitwise<0>;
    t["bitwise_or"] = bitwise<1>;
    t["bitwise_xor"] = bitwise<2>;
    t["logical_not"] = logicalNot;
    t["bitwise_not"] = bitwiseNot;
    t["neg"] = unary<NegOp>;
    t["relu"] = unary<ReluOp>;
    t["relu_"] = unary<ReluOp>;
    t["silu"] = unary<SiluOp>;
    t["sigmoid"] = unary<SigmoidOp>;
    t["tanh"] = unary<TanhOp>;
    t["exp"] = unary<ExpOp>;
    t["log"] = unary<LogOp>;
    t["sqrt"] = unary<SqrtOp>;
    t["rsqrt"] = rsqrt;
    t["abs"] = unary<AbsOp>;
    t["sign"] = unary<SignOp>;
    t["floor"] = unary<FloorOp>;
    t["ceil"] = unary<CeilOp>;
    t["round"] = unary<RoundOp>;
    t["erf"] = unary<ErfOp>;
    t["sin"] = unary<SinOp>;
    t["cos"] = unary<CosOp>;
    t["reciprocal"] = unary<ReciprocalOp>;
    for (auto [name, h] : {std::pair<const char *, Handler>{"tan", unary<TanOp>},
                           {"asin", unary<AsinOp>}, {"acos", unary<AcosOp>},
                           {"atan", unary<AtanOp>}, {"sinh", unary<SinhOp>},
                           {"cosh", unary<CoshOp>}, {"asinh", unary<AsinhOp>},
                           {"acosh", unary<AcoshOp>}, {"atanh", unary<AtanhOp>}}) {
      t[name] = h;
      if (name[0] == 'a') // torch.arcsin, arccosh, ...
        t[std::string("arc") + (name + 1)] = h;
    }
    t["hardswish"] = unary<HardSwishOp>;
    t["mish"] = unary<MishOp>;
    t["gelu"] = gelu;
    t["relu6"] = relu6;
    t["hardtanh"] = hardtanh;
    t["leaky_relu"] = leakyRelu;
    t["clamp"] = clamp;
    t["clip"] = clamp;
    t["where"] = where;
    t["masked_fill"] = maskedFill;
    t["matmul"] = matmul;
    t["mm"] = matmul;
    t["bmm"] = matmul;
    t["linear"] = linearFn;
    t["addmm"] = addmm;
    t["einsum"] = einsum;
    t["_assert"] = runtimeCheck;
    t["size"] = size;
    t["getattr"] = getattrFn;
    t["dim"] = dimFn;
    t["numel"] = numel;
    t["math.sqrt"] = mathFn<0>;
    t["math.exp"] = mathFn<1>;
    t["math.log"] = mathFn<2>;
    t["math.floor"] = mathFn<3>;
    t["math.ceil"] = mathFn<4>;
    addShapeHandlers(t);
    addReductionHandlers(t);
    addActivationHandlers(t, /*modules=*/false);
    addAtenHandlers(t);
    addQuantizedHandlers(t);
    addMathHandlers(t);
    addComplexHandlers(t);
    return t;
  }();
  return table;
}
