//===- Elementwise.cpp - reference elementwise kernels ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Float elementwise ops compute in double and round once to the storage
/// type, which for a single IEEE operation equals computing in that type.
/// Integer ops compute in int64 and wrap to the storage width.
///
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "VectorMath.h"

#include <cmath>
#include <cstring>
#include <type_traits>

using namespace mlir;
using namespace dfa;
using namespace dfa::ref;
using namespace dfa::graph;

Shape dfa::ref::broadcastStrides(ArrayRef<int64_t> inShape,
                                 ArrayRef<int64_t> outShape) {
  Shape strides(outShape.size(), 0);
  Shape inStrides = rowMajorStrides(inShape);
  size_t offset = outShape.size() - inShape.size();
  for (size_t i = 0; i < inShape.size(); ++i)
    strides[offset + i] = inShape[i] == 1 ? 0 : inStrides[i];
  return strides;
}

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

/// out[i] = f(a[ia], b[ib]) in double over the indices [begin, end) of
/// `shape`, read and rounded through the tensors' types: float32 and
/// float64 directly, every other type through getDouble/setDouble.
template <typename F>
static void mapDoubles(const Tensor &a, ArrayRef<int64_t> sa, const Tensor &b,
                       ArrayRef<int64_t> sb, Tensor &out,
                       ArrayRef<int64_t> shape, int64_t begin, int64_t end,
                       F f) {
  DType ta = a.dtype(), tb = b.dtype(), to = out.dtype();
  if (ta == DType::F32 && tb == DType::F32 && to == DType::F32) {
    const float *x = a.data<float>(), *y = b.data<float>();
    float *r = out.data<float>();
    forEachOffset2In(shape, sa, sb, begin, end,
                     [&](int64_t i, int64_t ia, int64_t ib) {
                       r[i] = float(f(double(x[ia]), double(y[ib])));
                     });
  } else if (ta == DType::F64 && tb == DType::F64 && to == DType::F64) {
    const double *x = a.data<double>(), *y = b.data<double>();
    double *r = out.data<double>();
    forEachOffset2In(shape, sa, sb, begin, end,
                     [&](int64_t i, int64_t ia, int64_t ib) {
                       r[i] = f(x[ia], y[ib]);
                     });
  } else {
    forEachOffset2In(shape, sa, sb, begin, end,
                     [&](int64_t i, int64_t ia, int64_t ib) {
                       out.setDouble(i, f(a.getDouble(ia), b.getDouble(ib)));
                     });
  }
}

/// Float unary ops compute in double and round once to the result type, a
/// block of elements at a time: `block(x, tmp, n, precise)` maps x[0..n) in
/// place (tmp is scratch of the same length; `precise` for float64
/// results, vmath::apply). The elements are split over the threads.
///
/// With `blockF`, a float32 input and result are mapped in float instead:
/// `blockF(x, tmp, n)` on floats (the transcendental ops, through
/// vmath::applyF32, as PyTorch's CPU kernels compute them); a `blockF` of
/// (const float *in, float *out, n) maps from the input straight into the
/// result.
template <typename B, typename BF = std::nullptr_t>
static LogicalResult unaryBlocks(Value input, Value result, Evaluator &ev,
                                 B block, BF blockF = nullptr) {
  const Tensor &in = ev.get(input);
  Tensor out = Tensor::uninitialized(dtypeOfValue(result), in.shape());
  constexpr int64_t kBlock = 256;
  if constexpr (!std::is_same_v<BF, std::nullptr_t>) {
    if (in.dtype() == DType::F32 && out.dtype() == DType::F32) {
      parallelFor(in.numElements(), grainFor(16), [&](int64_t begin, int64_t end) {
        float tmp[kBlock];
        for (int64_t b = begin; b < end; b += kBlock) {
          int64_t n = std::min(kBlock, end - b);
          float *x = out.data<float>() + b;
          if constexpr (std::is_invocable_v<BF, const float *, float *,
                                            int64_t>) {
            blockF(in.data<float>() + b, x, n);
          } else {
            std::memcpy(x, in.data<float>() + b, n * sizeof(float));
            blockF(x, tmp, n);
          }
        }
      });
      ev.set(result, std::move(out));
      return success();
    }
  }
  bool precise = out.dtype() == DType::F64;
  parallelFor(in.numElements(), grainFor(16), [&](int64_t begin, int64_t end) {
    double x[kBlock], tmp[kBlock];
    for (int64_t b = begin; b < end; b += kBlock) {
      int64_t n = std::min(kBlock, end - b);
      if (in.dtype() == DType::F32)
        for (int64_t i = 0; i < n; ++i)
          x[i] = in.data<float>()[b + i];
      else if (in.dtype() == DType::F64)
        std::memcpy(x, in.data<double>() + b, n * sizeof(double));
      else
        for (int64_t i = 0; i < n; ++i)
          x[i] = in.getDouble(b + i);
      block(x, tmp, n, precise);
      if (out.dtype() == DType::F32)
        for (int64_t i = 0; i < n; ++i)
          out.data<float>()[b + i] = float(x[i]);
      else if (out.dtype() == DType::F64)
        std::memcpy(out.data<double>() + b, x, n * sizeof(double));
      else
        for (int64_t i = 0; i < n; ++i)
          out.setDouble(b + i, x[i]);
    }
  });
  ev.set(result, std::move(out));
  return success();
}

/// unaryBlocks over an op's one operand and result.
template <typename B, typename BF = std::nullptr_t>
static LogicalResult unaryBlocks(Operation *op, Evaluator &ev, B block,
                                 BF blockF = nullptr) {
  return unaryBlocks(op->getOperand(0), op->getResult(0), ev, block, blockF);
}

/// A unary op of a scalar function f.
template <typename F>
static LogicalResult unary(Operation *op, Evaluator &ev, F f) {
  return unaryBlocks(op, ev, [&](double *x, double *, int64_t n, bool) {
    for (int64_t i = 0; i < n; ++i)
      x[i] = f(x[i]);
  });
}

static double softplus(double x) {
  return x > 20 ? x : std::log1p(std::exp(x));
}

#define DFA_UNARY(OP, ...)                                                     \
  template <> LogicalResult dfa::ref::evalOp<OP>(OP op, Evaluator & ev) {     \
    return unary(op, ev, [&](double x) -> double { return __VA_ARGS__; });        \
  }

/// A unary op of a vmath function, x = fn(x).
#define DFA_UNARY_VMATH(OP, FN)                                                \
  template <> LogicalResult dfa::ref::evalOp<OP>(OP op, Evaluator & ev) {     \
    return unaryBlocks(                                                        \
        op, ev,                                                                \
        [](double *x, double *, int64_t n, bool p) {                           \
          vmath::apply(vmath::Fn::FN, x, n, p);                                \
        },                                                                     \
        [](float *x, float *, int64_t n) {                                     \
          vmath::applyF32(vmath::Fn::FN, x, n);                                \
        });                                                                    \
  }
DFA_UNARY_VMATH(ErfOp, Erf)
DFA_UNARY_VMATH(ExpOp, Exp)
DFA_UNARY_VMATH(LogOp, Log)
DFA_UNARY_VMATH(TanhOp, Tanh)
#undef DFA_UNARY_VMATH

/// x = 1 / (1 + exp(-x)).
template <>
LogicalResult dfa::ref::evalOp<SigmoidOp>(SigmoidOp op, Evaluator &ev) {
  return unaryBlocks(
      op, ev,
      [](double *x, double *, int64_t n, bool p) {
        for (int64_t i = 0; i < n; ++i)
          x[i] = -x[i];
        vmath::apply(vmath::Fn::Exp, x, n, p);
        for (int64_t i = 0; i < n; ++i)
          x[i] = 1.0 / (1.0 + x[i]);
      },
      [](const float *x, float *y, int64_t n) { vmath::sigmoidF32(x, y, n); });
}

/// x = x * sigmoid(x) = x * (1 / (1 + exp(-x))), from `input` into
/// `result`: in float32 the sigmoid rounded to float, then the product, the
/// bytes of graph.sigmoid and graph.mul apart (a NaN's sign and payload
/// aside: which operand's NaN a product keeps is the compiler's choice).
static LogicalResult silu(Value input, Value result, Evaluator &ev) {
  return unaryBlocks(
      input, result, ev,
      [](double *x, double *e, int64_t n, bool p) {
        for (int64_t i = 0; i < n; ++i)
          e[i] = -x[i];
        vmath::apply(vmath::Fn::Exp, e, n, p);
        for (int64_t i = 0; i < n; ++i)
          x[i] = x[i] * (1.0 / (1.0 + e[i]));
      },
      [](const float *x, float *y, int64_t n) { vmath::siluF32(x, y, n); });
}

template <>
LogicalResult dfa::ref::evalOp<SiluOp>(SiluOp op, Evaluator &ev) {
  return silu(op.getInput(), op.getOutput(), ev);
}

Operation *dfa::ref::fusedConsumer(Operation *producer) {
  // x * sigmoid(x), float32 throughout and of one shape: silu()'s float
  // path computes the sigmoid's float and the product's rounding.
  auto sig = dyn_cast<SigmoidOp>(producer);
  if (!sig || !sig.getOutput().hasOneUse())
    return nullptr;
  auto mul = dyn_cast<MulOp>(*sig.getOutput().getUsers().begin());
  if (!mul)
    return nullptr;
  Value x = sig.getInput();
  bool pair = (mul.getLhs() == x && mul.getRhs() == sig.getOutput()) ||
              (mul.getRhs() == x && mul.getLhs() == sig.getOutput());
  Type t = x.getType();
  bool f32 = isa<RankedTensorType>(t) &&
             cast<RankedTensorType>(t).getElementType().isF32();
  if (!pair || !f32 || sig.getOutput().getType() != t ||
      mul.getOutput().getType() != t || mul->getBlock() != sig->getBlock())
    return nullptr;
  return mul;
}

LogicalResult dfa::ref::evalFused(Operation *producer, Operation *consumer,
                                  Evaluator &ev) {
  assert(fusedConsumer(producer) == consumer && "not a fused pair");
  return silu(cast<SigmoidOp>(producer).getInput(),
              cast<MulOp>(consumer).getOutput(), ev);
}

/// x = 0.5 x (1 + erf(x / sqrt 2)), or with tanh's approximation
/// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
template <>
LogicalResult dfa::ref::evalOp<GeluOp>(GeluOp op, Evaluator &ev) {
  bool tanhApprox = op.getTanhApprox();
  return unaryBlocks(
      op, ev,
      [&](double *x, double *t, int64_t n, bool p) {
        if (tanhApprox) {
          for (int64_t i = 0; i < n; ++i)
            t[i] = std::sqrt(2 / M_PI) * (x[i] + 0.044715 * x[i] * x[i] * x[i]);
          vmath::apply(vmath::Fn::Tanh, t, n, p);
        } else {
          for (int64_t i = 0; i < n; ++i)
            t[i] = x[i] / std::sqrt(2.0);
          vmath::apply(vmath::Fn::Erf, t, n, p);
        }
        for (int64_t i = 0; i < n; ++i)
          x[i] = 0.5 * x[i] * (1 + t[i]);
      },
      [&](float *x, float *t, int64_t n) {
        if (tanhApprox) {
          const float k = float(std::sqrt(2 / M_PI));
          for (int64_t i = 0; i < n; ++i)
            t[i] = k * (x[i] + 0.044715f * x[i] * x[i] * x[i]);
          vmath::applyF32(vmath::Fn::Tanh, t, n);
        } else {
          const float k = float(M_SQRT1_2);
          for (int64_t i = 0; i < n; ++i)
            t[i] = x[i] * k;
          vmath::applyF32(vmath::Fn::Erf, t, n);
        }
        for (int64_t i = 0; i < n; ++i)
          x[i] = 0.5f * x[i] * (1.0f + t[i]);
      });
}

template <>
LogicalResult dfa::ref::evalOp<BitwiseNotOp>(BitwiseNotOp op, Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  std::vector<int64_t> v = in.toInts();
  for (int64_t &x : v)
    x = ~x;
  ev.set(op.getOutput(), Tensor::fromInts(in.dtype(), in.shape(), v));
  return success();
}

DFA_UNARY(AbsOp, std::fabs(x))
DFA_UNARY(AcosOp, std::acos(x))
DFA_UNARY(AcoshOp, std::acosh(x))
DFA_UNARY(AsinOp, std::asin(x))
DFA_UNARY(AsinhOp, std::asinh(x))
DFA_UNARY(AtanOp, std::atan(x))
DFA_UNARY(AtanhOp, std::atanh(x))
DFA_UNARY(CeilOp, std::ceil(x))
DFA_UNARY(CosOp, std::cos(x))
DFA_UNARY(CoshOp, std::cosh(x))
DFA_UNARY(FloorOp, std::floor(x))
DFA_UNARY(HardSwishOp, x * std::max(0.0, std::min(1.0, x / 6.0 + 0.5)))
DFA_UNARY(MishOp, x * std::tanh(softplus(x)))
DFA_UNARY(NegOp, -x)
DFA_UNARY(NotOp, x == 0 ? 1.0 : 0.0)
DFA_UNARY(ReciprocalOp, 1.0 / x)
DFA_UNARY(ReluOp, x > 0 ? x : (std::isnan(x) ? x : 0.0))
DFA_UNARY(RoundOp, std::nearbyint(x))
DFA_UNARY(SignOp, x > 0 ? 1.0 : (x < 0 ? -1.0 : x))
DFA_UNARY(SinOp, std::sin(x))
DFA_UNARY(SinhOp, std::sinh(x))
DFA_UNARY(SoftplusOp, softplus(x))
DFA_UNARY(SoftsignOp, x / (1.0 + std::fabs(x)))
DFA_UNARY(SqrtOp, std::sqrt(x))
DFA_UNARY(TanOp, std::tan(x))

DFA_UNARY(CeluOp, [&] {
  double a = op.getAlpha().convertToDouble();
  return std::max(0.0, x) + std::min(0.0, a * (std::exp(x / a) - 1.0));
}())
DFA_UNARY(EluOp, x > 0 ? x : op.getAlpha().convertToDouble() * (std::exp(x) - 1))
DFA_UNARY(HardSigmoidOp,
          std::max(0.0, std::min(1.0, op.getAlpha().convertToDouble() * x +
                                          op.getBeta().convertToDouble())))
DFA_UNARY(LeakyReluOp, x >= 0 ? x : op.getAlpha().convertToDouble() * x)
DFA_UNARY(SeluOp, op.getGamma().convertToDouble() *
                      (x > 0 ? x
                             : op.getAlpha().convertToDouble() *
                                   (std::exp(x) - 1)))
DFA_UNARY(ShrinkOp, [&] {
  double l = op.getLambd().convertToDouble(), b = op.getBias().convertToDouble();
  return x < -l ? x + b : (x > l ? x - b : 0.0);
}())
DFA_UNARY(ThresholdedReluOp, x > op.getAlpha().convertToDouble() ? x : 0.0)
DFA_UNARY(ClipOp, [&] {
  double r = x;
  if (op.getMin() && r < op.getMin()->convertToDouble())
    r = op.getMin()->convertToDouble();
  if (op.getMax() && r > op.getMax()->convertToDouble())
    r = op.getMax()->convertToDouble();
  return r;
}())
DFA_UNARY(IsNaNOp, std::isnan(x) ? 1.0 : 0.0)
DFA_UNARY(IsInfOp, std::isinf(x) && ((x > 0 && op.getDetectPositive()) ||
                                      (x < 0 && op.getDetectNegative()))
                       ? 1.0
                       : 0.0)
#undef DFA_UNARY

template <>
LogicalResult dfa::ref::evalOp<CastOp>(CastOp op, Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  DType to = dtypeOfValue(op.getOutput());
  Tensor out(to, in.shape());
  int64_t n = in.numElements();
  if (to == DType::F8E8M0FNU) {
    // graph::E8M0Rounding is the attribute's spelling of ref::E8M0Rounding.
    static_assert(int(graph::E8M0Rounding::Nearest) == int(E8M0Rounding::Nearest));
    auto mode = static_cast<E8M0Rounding>(
        op.getRoundMode().value_or(graph::E8M0Rounding::Up));
    for (int64_t i = 0; i < n; ++i)
      out.data<uint8_t>()[i] =
          toE8M0(float(in.getDouble(i)), mode, !op.getNonsaturating());
  } else if (isFloat(in.dtype()) || isFloat(to)) {
    for (int64_t i = 0; i < n; ++i)
      out.setDouble(i, in.getDouble(i));
  } else {
    for (int64_t i = 0; i < n; ++i)
      out.setInt(i, in.getInt(i));
  }
  ev.set(op.getOutput(), std::move(out));
  return success();
}

template <>
LogicalResult dfa::ref::evalOp<BitCastOp>(BitCastOp op, Evaluator &ev) {
  const Tensor &in = ev.get(op.getInput());
  Tensor out(dtypeOfValue(op.getOutput()), in.shape());
  std::memcpy(out.bytes(), in.bytes(), std::min(out.byteSize(), in.byteSize()));
  if (out.dtype() == DType::Bool) // any non-zero byte is true
    for (int64_t i = 0; i < out.numElements(); ++i)
      out.data<uint8_t>()[i] = out.data<uint8_t>()[i] != 0;
  ev.set(op.getOutput(), std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// Binary with broadcasting
//===----------------------------------------------------------------------===//

template <typename F>
static std::vector<int64_t> broadcastApply(const std::vector<int64_t> &a,
                                           ArrayRef<int64_t> sa,
                                           const std::vector<int64_t> &b,
                                           ArrayRef<int64_t> sb,
                                           ArrayRef<int64_t> out, F f) {
  std::vector<int64_t> r(numElements(out));
  Shape ta = broadcastStrides(sa, out), tb = broadcastStrides(sb, out);
  forEachOffset2(out, ta, tb, [&](int64_t i, int64_t ia, int64_t ib) {
    r[i] = f(a[ia], b[ib]);
  });
  return r;
}

/// Evaluates a binary op: `ff` on doubles when the operands are floats
/// (split over the threads), `fi` on int64 otherwise.
template <typename FF, typename FI>
static LogicalResult binary(Operation *op, Evaluator &ev, FF ff, FI fi) {
  const Tensor &a = ev.get(op->getOperand(0));
  const Tensor &b = ev.get(op->getOperand(1));
  Value res = op->getResult(0);
  DType rt = dtypeOfValue(res);
  ArrayRef<int64_t> out = shapeOf(res);
  if (isFloat(a.dtype())) {
    Tensor r = Tensor::uninitialized(rt, out);
    Shape ta = broadcastStrides(a.shape(), out), tb = broadcastStrides(b.shape(), out);
    Shape dims(out);
    coalesceDims(dims, ta, tb);
    parallelFor(numElements(out), grainFor(16), [&](int64_t begin, int64_t end) {
      mapDoubles(a, ta, b, tb, r, dims, begin, end, ff);
    });
    ev.set(res, std::move(r));
  } else {
    auto r = broadcastApply(a.toInts(), a.shape(), b.toInts(), b.shape(), out,
                            fi);
    ev.set(res, Tensor::fromInts(rt, out, r));
  }
  return success();
}

#define DFA_BINARY(OP, FEXPR, IEXPR)                                           \
  template <> LogicalResult dfa::ref::evalOp<OP>(OP op, Evaluator & ev) {     \
    return binary(                                                            \
        op, ev, [&](double x, double y) -> double { return FEXPR; },           \
        [&](int64_t x, int64_t y) -> int64_t { return IEXPR; });              \
  }

// x / -1 and x % -1 trap for INT64_MIN; both are well defined here.
static int64_t idiv(int64_t x, int64_t y) {
  return y == 0 ? 0 : y == -1 ? (int64_t)(0 - (uint64_t)x) : x / y;
}
static int64_t imod(int64_t x, int64_t y, bool fmod) {
  if (y == 0 || y == -1)
    return 0;
  int64_t r = x % y;
  if (!fmod && r != 0 && ((r < 0) != (y < 0)))
    r += y;
  return r;
}
static double fmodSigned(double x, double y, bool fmod) {
  double r = std::fmod(x, y);
  if (!fmod && r != 0 && ((r < 0) != (y < 0)))
    r += y;
  // Floor semantics: a zero remainder takes the divisor's sign (Mod-28).
  if (!fmod && r == 0)
    r = std::copysign(0.0, y);
  return r;
}
/// BitShift on a `bits`-wide integer (BitShift-28): an arithmetic right
/// shift for signed types; a shift by a negative amount or by the width or
/// more leaves only the sign fill (-1 for a negative X shifted right).
static int64_t bitShift(int64_t x, int64_t y, bool left, int64_t bits,
                        bool isSigned) {
  if (y < 0 || y >= bits)
    return !left && isSigned && x < 0 ? -1 : 0;
  if (left)
    return (int64_t)((uint64_t)x << y);
  return isSigned ? x >> y : (int64_t)((uint64_t)x >> y);
}
static int64_t ipow(int64_t x, int64_t y) {
  if (y < 0)
    return x == 1 ? 1 : (x == -1 ? (y % 2 ? -1 : 1) : 0);
  int64_t r = 1;
  while (y) {
    if (y & 1)
      r *= x;
    x *= x;
    y >>= 1;
  }
  return r;
}

static double fmaxNaN(double x, double y) {
  return std::isnan(x) || std::isnan(y) ? NAN : std::max(x, y);
}
static double fminNaN(double x, double y) {
  return std::isnan(x) || std::isnan(y) ? NAN : std::min(x, y);
}

DFA_BINARY(AddOp, x + y, (int64_t)((uint64_t)x + (uint64_t)y))
DFA_BINARY(SubOp, x - y, (int64_t)((uint64_t)x - (uint64_t)y))
DFA_BINARY(MulOp, x * y, (int64_t)((uint64_t)x * (uint64_t)y))
DFA_BINARY(DivOp, x / y, idiv(x, y))
DFA_BINARY(PowOp, std::pow(x, y), ipow(x, y))
DFA_BINARY(MaxOp, fmaxNaN(x, y), std::max(x, y))
DFA_BINARY(MinOp, fminNaN(x, y), std::min(x, y))
DFA_BINARY(ModOp, fmodSigned(x, y, op.getFmod()), imod(x, y, op.getFmod()))
DFA_BINARY(PReluOp, x >= 0 ? x : x * y, x >= 0 ? x : x * y)
DFA_BINARY(AndOp, (x != 0 && y != 0), (x != 0 && y != 0))
DFA_BINARY(OrOp, (x != 0 || y != 0), (x != 0 || y != 0))
DFA_BINARY(XorOp, ((x != 0) != (y != 0)), ((x != 0) != (y != 0)))
DFA_BINARY(BitShiftOp, 0.0,
           bitShift(x, y, op.getLeft(),
                    8 * int64_t(dtypeSize(dtypeOfValue(op.getResult()))),
                    !isUnsigned(dtypeOfValue(op.getResult()))))
DFA_BINARY(BitwiseOp, 0.0,
           op.getKind() == "and" ? (x & y) : op.getKind() == "or" ? (x | y) : (x ^ y))
DFA_BINARY(EqualOp, x == y, x == y)
DFA_BINARY(LessOp, x < y, x < y)
DFA_BINARY(LessEqualOp, x <= y, x <= y)
DFA_BINARY(GreaterOp, x > y, x > y)
DFA_BINARY(GreaterEqualOp, x >= y, x >= y)
#undef DFA_BINARY

template <>
LogicalResult dfa::ref::evalOp<WhereOp>(WhereOp op, Evaluator &ev) {
  const Tensor &c = ev.get(op.getCond());
  const Tensor &a = ev.get(op.getLhs());
  const Tensor &b = ev.get(op.getRhs());
  ArrayRef<int64_t> out = shapeOf(op.getOutput());
  Tensor r(a.dtype(), out);
  Shape sc = broadcastStrides(c.shape(), out);
  Shape sa = broadcastStrides(a.shape(), out);
  Shape sb = broadcastStrides(b.shape(), out);
  // First pick the source per element, then copy the element bytes.
  std::vector<int64_t> pickA(numElements(out)), offA(pickA.size());
  forEachOffset2(out, sc, sa, [&](int64_t i, int64_t ic, int64_t ia) {
    pickA[i] = c.data<uint8_t>()[ic] != 0;
    offA[i] = ia;
  });
  size_t es = dtypeSize(a.dtype());
  forEachOffset2(out, sb, sb, [&](int64_t i, int64_t ib, int64_t) {
    const uint8_t *src = pickA[i] ? a.bytes() + offA[i] * es
                                  : b.bytes() + ib * es;
    std::memcpy(r.bytes() + i * es, src, es);
  });
  ev.set(op.getOutput(), std::move(r));
  return success();
}
