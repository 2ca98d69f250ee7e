//===- NodeContext.cpp - helpers for node converters ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Reference/Evaluator.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::onnximport;

const onnx::AttributeProto *NodeContext::attr(llvm::StringRef name) const {
  readAttrs.insert(name);
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

const onnx::AttributeProto *NodeContext::unreadAttr() const {
  for (const auto &a : node.attribute())
    if (!readAttrs.contains(a.name()))
      return &a;
  return nullptr;
}

int64_t NodeContext::intAttr(llvm::StringRef name, int64_t dflt) const {
  const auto *a = attr(name);
  return a ? a->i() : dflt;
}

double NodeContext::floatAttr(llvm::StringRef name, double dflt) const {
  const auto *a = attr(name);
  return a ? a->f() : dflt;
}

std::string NodeContext::strAttr(llvm::StringRef name,
                                 llvm::StringRef dflt) const {
  const auto *a = attr(name);
  return a ? a->s() : dflt.str();
}

std::optional<std::vector<int64_t>>
NodeContext::intsAttr(llvm::StringRef name) const {
  const auto *a = attr(name);
  if (!a)
    return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

InFlightDiagnostic NodeContext::error() {
  status = Status::InvalidModel;
  return emitError(loc) << "'" << node.op_type() << "' node '"
                        << mlir::cast<NameLoc>(loc).getName().str() << "': ";
}

LogicalResult NodeContext::delegate(llvm::StringRef opType,
                                    ArrayRef<Value> args,
                                    ArrayRef<onnx::AttributeProto> attrs,
                                    int numOutputs, Results &results,
                                    int64_t minOpset) {
  onnx::NodeProto sub;
  sub.set_op_type(opType.str());
  sub.set_name(node.name());
  for (auto [i, v] : llvm::enumerate(args))
    sub.add_input(v ? "in" + std::to_string(i) : "");
  for (int i = 0; i < numOutputs; ++i)
    sub.add_output("out" + std::to_string(i));
  for (const onnx::AttributeProto &a : attrs)
    *sub.add_attribute() = a;
  int64_t at = std::max(opset, minOpset);
  Converter convert = converters().lookup(opType);
  assert(convert && "delegate to an op without a converter");
  if (std::optional<std::string> what = checkSignature(sub, at)) {
    error() << "as " << opType << " (opset " << at << "): " << *what;
    return failure();
  }
  NodeContext c(sub, loc, b, at, SmallVector<Value>(args), status, foldLimit);
  c.wantSpecialized = wantSpecialized;
  c.runtimeValue = runtimeValue;
  c.importSubgraph = importSubgraph;
  LogicalResult converted = convert(c, results);
  hostConstants.append(c.hostConstants);
  needsRuntimeValue |= c.needsRuntimeValue;
  readRuntime |= c.readRuntime;
  return converted;
}

InFlightDiagnostic NodeContext::unsupported() {
  status = Status::Unsupported;
  return emitError(loc) << "'" << node.op_type() << "' node '"
                        << mlir::cast<NameLoc>(loc).getName().str()
                        << "' is not supported: ";
}

FailureOr<ref::Tensor> NodeContext::constInput(size_t i, llvm::StringRef what) {
  Value v = in(i);
  if (auto c = v ? v.getDefiningOp<graph::ConstantOp>() : nullptr)
    return ref::tensorFromAttr(c.getValue());
  if (v && runtimeValue)
    if (const ref::Tensor *t = runtimeValue(v)) {
      readRuntime = true;
      return *t;
    }
  needsRuntimeValue |= v != nullptr;
  auto diag = unsupported();
  diag << "input " << i << " (" << what
       << ") must be known at compile time";
  if (v)
    suggestSpecialize(v, diag);
  return failure();
}

FailureOr<ref::Tensor> NodeContext::weightInput(size_t i, llvm::StringRef what,
                                               bool &noData) {
  noData = false;
  // A weight seen through reshapes (the GenAI builder's tied embedding
  // reads the LM head's packed weights reshaped): the same bytes.
  Value v = in(i);
  while (auto r = v ? v.getDefiningOp<graph::ReshapeOp>() : nullptr)
    v = r.getInput();
  auto w = v ? v.getDefiningOp<graph::WeightOp>() : nullptr;
  if (!w)
    return constInput(i, what);
  if (w.getFile().empty()) {
    noData = true;
    return ref::Tensor();
  }
  std::optional<ref::DType> dt = ref::dtypeOf(typeOf(v).getElementType());
  if (!dt) {
    error() << "input " << i << " (" << what << ") has an element type dfa "
            << "cannot read";
    return failure();
  }
  ref::Tensor t(*dt, typeOf(v).getShape());
  std::string err;
  std::optional<uint64_t> zstd;
  if (w.getZstdBytes())
    zstd = uint64_t(*w.getZstdBytes());
  std::optional<uint64_t> pitch;
  if (w.getRowPitch())
    pitch = uint64_t(*w.getRowPitch());
  if (!ref::readWeight(w.getFile(), uint64_t(w.getOffset()), zstd, pitch, t, err)) {
    status = Status::IOError;
    emitError(loc) << "'" << node.op_type() << "' node '"
                   << mlir::cast<NameLoc>(loc).getName().str() << "': " << err;
    return failure();
  }
  return v == in(i) ? t : t.reshaped(typeOf(in(i)).getShape());
}

void NodeContext::suggestSpecialize(Value v, InFlightDiagnostic &diag) {
  // The graph inputs it is computed from (with constants alone): fixing
  // them at compile time makes it a constant too, by import-time folding.
  SmallVector<BlockArgument> args;
  SmallVector<Value> work{v};
  llvm::SmallPtrSet<Operation *, 32> seen;
  bool fromInputs = true;
  while (!work.empty() && fromInputs) {
    Value x = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(x)) {
      if (!llvm::is_contained(args, arg))
        args.push_back(arg);
      continue;
    }
    Operation *def = x.getDefiningOp();
    if (isa<graph::ConstantOp>(def) || !seen.insert(def).second)
      continue;
    // Weights are data the folding does not read; a large slice is not a
    // shape computation.
    if (isa<graph::WeightOp>(def) || seen.size() > 256) {
      fromInputs = false;
      break;
    }
    work.append(def->operand_begin(), def->operand_end());
  }
  if (!fromInputs || args.empty())
    return;
  auto func = mlir::cast<func::FuncOp>(args.front().getOwner()->getParentOp());
  SmallVector<StringRef> names;
  for (BlockArgument arg : args)
    if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      graph::kNameAttr))
      names.push_back(name.getValue());
  if (names.size() != args.size())
    return;
  llvm::sort(names);
  if (isa<BlockArgument>(v))
    diag << "; it is graph input '" << names.front() << "'";
  else
    diag << "; it is computed from graph input" << (names.size() > 1 ? "s " : " ")
         << "'" << llvm::join(names, "', '") << "'";
  diag << ": pass";
  for (StringRef n : names) {
    diag << " --specialize " << n;
    if (wantSpecialized)
      wantSpecialized->push_back(n.str());
  }
}

FailureOr<std::vector<int64_t>> NodeContext::constInts(size_t i,
                                                       llvm::StringRef what) {
  auto t = constInput(i, what);
  if (failed(t))
    return failure();
  return t->toInts();
}

LogicalResult NodeContext::optionalConst(size_t i, llvm::StringRef what,
                                         std::vector<int64_t> &out) {
  if (!has(i))
    return success();
  auto v = constInts(i, what);
  if (failed(v))
    return failure();
  out = std::move(*v);
  return success();
}

LogicalResult NodeContext::optionalConst(size_t i, llvm::StringRef what,
                                         std::vector<double> &out) {
  if (!has(i))
    return success();
  auto v = constInput(i, what);
  if (failed(v))
    return failure();
  out = v->toDoubles();
  return success();
}

NodeContext::Moments NodeContext::moments(Value x, llvm::ArrayRef<int64_t> axes) {
  auto a = b.getDenseI64ArrayAttr(axes);
  auto keep = b.getBoolAttr(true);
  Moments m;
  m.mean = b.create<graph::ReduceMeanOp>(loc, x, a, keep);
  m.centered = b.create<graph::SubOp>(loc, x, m.mean);
  m.variance = b.create<graph::ReduceMeanOp>(
      loc, b.create<graph::MulOp>(loc, m.centered, m.centered), a, keep);
  return m;
}

FailureOr<std::vector<int64_t>> NodeContext::axes(llvm::ArrayRef<int64_t> raw,
                                                  int64_t rank) {
  std::vector<int64_t> out;
  for (int64_t a : raw) {
    FailureOr<int64_t> n = axis(a, rank);
    if (failed(n))
      return failure();
    if (llvm::is_contained(out, *n)) {
      error() << "axis " << a << " appears twice in axes";
      return failure();
    }
    out.push_back(*n);
  }
  return out;
}

Value NodeContext::constant(const ref::Tensor &t) {
  return b.create<graph::ConstantOp>(loc, ref::tensorToAttr(t, ctx()));
}

Value NodeContext::hostConstant(const ref::Tensor &t) {
  Value v = constant(t);
  hostConstants.push_back(v.getDefiningOp());
  return v;
}

Value NodeContext::scalar(Type elt, double v) {
  auto type = RankedTensorType::get({}, elt);
  Attribute a = isa<FloatType>(elt) ? Attribute(b.getFloatAttr(elt, v))
                                    : Attribute(b.getIntegerAttr(elt, (int64_t)v));
  return b.create<graph::ConstantOp>(loc, DenseElementsAttr::get(type, a));
}

Value NodeContext::reshape(Value v, llvm::ArrayRef<int64_t> shape) {
  auto t = mlir::cast<RankedTensorType>(v.getType());
  if (t.getShape() == shape)
    return v;
  return b.create<graph::ReshapeOp>(
      loc, RankedTensorType::get(shape, t.getElementType()), v);
}

Value NodeContext::slice(Value v, int64_t dim, int64_t start, int64_t count,
                         int64_t step) {
  auto t = mlir::cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> starts(t.getRank(), 0), steps(t.getRank(), 1), shape(t.getShape());
  starts[dim] = start;
  steps[dim] = step;
  shape[dim] = count;
  return b.create<graph::SliceOp>(loc, RankedTensorType::get(shape, t.getElementType()), v,
                                  b.getDenseI64ArrayAttr(starts),
                                  b.getDenseI64ArrayAttr(steps));
}

Value NodeContext::cast(Value v, Type elt) {
  auto t = mlir::cast<RankedTensorType>(v.getType());
  if (t.getElementType() == elt)
    return v;
  return b.create<graph::CastOp>(loc, t.clone(elt), v);
}

FailureOr<int64_t> NodeContext::axis(int64_t a, int64_t rank) {
  if (a < -rank || a >= rank) {
    error() << "axis " << a << " out of range for rank " << rank;
    return failure();
  }
  return a < 0 ? a + rank : a;
}

FailureOr<double> NodeContext::constScalar(size_t i, llvm::StringRef what) {
  auto t = constInput(i, what);
  if (failed(t))
    return failure();
  if (t->numElements() != 1) {
    error() << what << " must hold one value, it holds " << t->numElements();
    return failure();
  }
  return t->getDouble(0);
}
