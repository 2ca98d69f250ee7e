//===- FXNode.cpp - argument access and builders for FX handlers ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FXImporter.h"

#include "dfa/Reference/Evaluator.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::fximport;

const PyValue *FXNode::arg(size_t i, StringRef kw) const {
  if (i < args.size())
    return &args[i];
  if (!kw.empty()) {
    auto it = kwargs.find(kw.str());
    if (it != kwargs.end())
      return &it->second;
  }
  return nullptr;
}

InFlightDiagnostic FXNode::error() {
  if (imp.status == Status::Ok)
    imp.status = Status::InvalidModel;
  return emitError(loc) << "node '" << name << "' (" << target << "): ";
}

InFlightDiagnostic FXNode::unsupported() {
  imp.status = Status::Unsupported;
  return emitError(loc) << "node '" << name << "' (" << target
                        << ") is not supported: ";
}

FailureOr<Value> FXNode::tensor(size_t i, StringRef kw) {
  const PyValue *v = arg(i, kw);
  if (!v || v->kind != PyValue::Tensor) {
    error() << "argument " << i << (kw.empty() ? "" : " (" + kw.str() + ")")
            << " must be a tensor, got " << (v ? v->describe() : "nothing");
    return failure();
  }
  return v->tensor;
}

Value FXNode::optTensor(size_t i, StringRef kw) {
  const PyValue *v = arg(i, kw);
  return v && v->kind == PyValue::Tensor ? v->tensor : Value();
}

FailureOr<int64_t> FXNode::intArg(size_t i, StringRef kw, int64_t dflt) {
  const PyValue *v = arg(i, kw);
  if (!v || v->kind == PyValue::None)
    return dflt;
  if (v->kind == PyValue::Int || v->kind == PyValue::Bool)
    return v->i;
  error() << "argument " << i << " must be an int, got " << v->describe();
  return failure();
}

FailureOr<double> FXNode::floatArg(size_t i, StringRef kw, double dflt) {
  const PyValue *v = arg(i, kw);
  if (!v || v->kind == PyValue::None)
    return dflt;
  if (v->isNumber())
    return v->number();
  error() << "argument " << i << " must be a number, got " << v->describe();
  return failure();
}

FailureOr<std::vector<int64_t>> FXNode::intList(size_t i, StringRef kw,
                                                bool varargs) {
  const PyValue *v = arg(i, kw);
  std::vector<int64_t> out;
  auto bad = [&](const PyValue &e) {
    error() << "expected ints, got " << e.describe();
    return failure();
  };
  if (!v)
    return out;
  if (v->kind == PyValue::List) {
    for (const auto &e : v->list) {
      if (e.kind != PyValue::Int)
        return bad(e);
      out.push_back(e.i);
    }
    return out;
  }
  if (v->kind != PyValue::Int)
    return bad(*v);
  if (!varargs)
    return std::vector<int64_t>{v->i};
  for (size_t j = i; j < args.size(); ++j) {
    if (args[j].kind != PyValue::Int)
      return bad(args[j]);
    out.push_back(args[j].i);
  }
  return out;
}

const llvm::json::Value *FXNode::attr(StringRef a) const {
  const auto *attrs = module ? module->getObject("attrs") : nullptr;
  return attrs ? attrs->get(a) : nullptr;
}

int64_t FXNode::attrInt(StringRef a, int64_t dflt) const {
  const auto *v = attr(a);
  if (!v)
    return dflt;
  if (auto b = v->getAsBoolean())
    return *b;
  return v->getAsInteger().value_or(dflt);
}

double FXNode::attrFloat(StringRef a, double dflt) const {
  const auto *v = attr(a);
  return v ? v->getAsNumber().value_or(dflt) : dflt;
}

std::vector<int64_t> FXNode::attrInts(StringRef a, size_t n) const {
  const auto *v = attr(a);
  std::vector<int64_t> out;
  if (v && v->getAsArray())
    for (const auto &e : *v->getAsArray())
      out.push_back(e.getAsInteger().value_or(0));
  else if (v && v->getAsInteger())
    out.assign(n, *v->getAsInteger());
  return out;
}

FailureOr<PyValue> FXNode::attrValue(StringRef a) {
  const auto *v = attr(a);
  return v ? imp.decode(*v) : FailureOr<PyValue>(PyValue());
}

Value FXNode::param(StringRef p) {
  const auto *tensors = module ? module->getObject("tensors") : nullptr;
  auto tname = tensors ? tensors->getString(p) : std::nullopt;
  if (!tname)
    return Value();
  // A module computes on real parameters only.
  if (imp.isComplexWeight(*tname)) {
    unsupported() << "its parameter '" << p << "' is complex";
    return Value();
  }
  return imp.weight(*tname, loc);
}

Value FXNode::requiredParam(StringRef p) {
  Value v = param(p);
  if (!v && imp.status == Status::Ok) // weight() says why when it fails
    error() << "module has no parameter '" << p << "'";
  return v;
}

Value FXNode::scalar(Type elt, double v) {
  auto type = RankedTensorType::get({}, elt);
  Attribute a;
  if (isa<FloatType>(elt))
    a = b.getFloatAttr(elt, v);
  else if (elt.isInteger(1))
    a = b.getBoolAttr(v != 0);
  else
    a = b.getIntegerAttr(elt, (int64_t)v);
  return b.create<graph::ConstantOp>(loc, DenseElementsAttr::get(type, a));
}

Value FXNode::reshape(Value v, ArrayRef<int64_t> shape) {
  auto t = type(v);
  if (t.getShape() == shape)
    return v;
  return b.create<graph::ReshapeOp>(loc, RankedTensorType::get(shape, t.getElementType()), v);
}

Value FXNode::transpose(Value v, ArrayRef<int64_t> perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != (int64_t)i)
      return b.create<graph::TransposeOp>(loc, v, b.getDenseI64ArrayAttr(perm));
  return v;
}

FailureOr<int64_t> FXNode::dim(int64_t d, int64_t rank) {
  int64_t r = std::max<int64_t>(rank, 1);
  if (d < -r || d >= r) {
    error() << "dim " << d << " out of range for rank " << rank;
    return failure();
  }
  return d < 0 ? d + r : d;
}

FailureOr<Value> FXNode::asTensor(const PyValue &v, Value like) {
  if (v.kind == PyValue::Tensor)
    return v.tensor;
  if (!v.isNumber()) {
    error() << "expected a tensor or a number, got " << v.describe();
    return failure();
  }
  Type elt = type(like).getElementType();
  if (v.kind == PyValue::Float && !isa<FloatType>(elt)) {
    unsupported() << "mixing an integer tensor with a float scalar";
    return failure();
  }
  return scalar(elt, v.number());
}

FailureOr<std::vector<int64_t>> FXNode::optIntList(size_t i, StringRef kw,
                                                   std::vector<int64_t> dflt) {
  if (!arg(i, kw) || arg(i, kw)->kind == PyValue::None)
    return dflt;
  return intList(i, kw, false);
}

Type FXNode::dtypeOf(const PyValue *v) {
  if (!v || v->kind != PyValue::DType)
    return {};
  Type t = fxElementType(v->s, b.getContext());
  if (!t && ref::dtypeFromName(v->s))
    unsupported() << "dtype " << v->s;
  return t;
}

Type FXNode::dtypeArg(StringRef kw) {
  auto it = kwargs.find(kw.str());
  return it == kwargs.end() ? Type() : dtypeOf(&it->second);
}

Value FXNode::extreme(ArrayRef<int64_t> shape, Type elt, bool lowest) {
  auto t = RankedTensorType::get(shape, elt);
  Attribute a;
  if (auto f = llvm::dyn_cast<FloatType>(elt))
    a = b.getFloatAttr(elt, APFloat::getInf(f.getFloatSemantics(), lowest));
  else if (elt.isInteger(1))
    a = b.getBoolAttr(!lowest);
  else {
    auto it = llvm::cast<IntegerType>(elt);
    unsigned w = it.getWidth();
    APInt v = it.isUnsigned() ? (lowest ? APInt::getMinValue(w) : APInt::getMaxValue(w))
                              : (lowest ? APInt::getSignedMinValue(w) : APInt::getSignedMaxValue(w));
    a = b.getIntegerAttr(elt, v);
  }
  return b.create<graph::ConstantOp>(loc, DenseElementsAttr::get(t, a));
}

Value FXNode::filled(ArrayRef<int64_t> shape, Type elt, double v) {
  auto t = RankedTensorType::get(shape, elt);
  Attribute a = isa<FloatType>(elt) ? Attribute(b.getFloatAttr(elt, v))
              : elt.isInteger(1)   ? Attribute(b.getBoolAttr(v != 0))
                                   : Attribute(b.getIntegerAttr(elt, (int64_t)v));
  return b.create<graph::ConstantOp>(loc, DenseElementsAttr::get(t, a));
}

Value FXNode::cast(Value v, Type elt) {
  auto t = type(v);
  if (t.getElementType() == elt)
    return v;
  return b.create<graph::CastOp>(loc, t.clone(elt), v);
}
