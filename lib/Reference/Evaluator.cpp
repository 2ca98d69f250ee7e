//===- Evaluator.cpp - CPU reference interpreter ----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Reference/Evaluator.h"

#include "Kernels.h"

#include "dfa/Support/Progress.h"

#include "llvm/ADT/SmallPtrSet.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinDialect.h"

#include <cstring>

using namespace mlir;
using namespace dfa;
using namespace dfa::ref;
using namespace dfa::graph;

std::optional<DType> dfa::ref::dtypeOf(Type t) {
  if (t.isF64()) return DType::F64;
  if (t.isF32()) return DType::F32;
  if (t.isF16()) return DType::F16;
  if (t.isBF16()) return DType::BF16;
  if (t.isFloat8E4M3FN()) return DType::F8E4M3FN;
  if (t.isFloat8E4M3FNUZ()) return DType::F8E4M3FNUZ;
  if (t.isFloat8E5M2()) return DType::F8E5M2;
  if (t.isFloat8E5M2FNUZ()) return DType::F8E5M2FNUZ;
  if (isa<Float4E2M1FNType>(t)) return DType::F4E2M1FN;
  if (isa<Float6E2M3FNType>(t)) return DType::F6E2M3FN;
  if (isa<Float6E3M2FNType>(t)) return DType::F6E3M2FN;
  if (isa<Float8E8M0FNUType>(t)) return DType::F8E8M0FNU;
  auto i = dyn_cast<IntegerType>(t);
  if (!i)
    return std::nullopt;
  bool u = i.isUnsigned();
  switch (i.getWidth()) {
  case 1: return DType::Bool;
  case 2: return u ? DType::U2 : DType::I2;
  case 4: return u ? DType::U4 : DType::I4;
  case 8: return u ? DType::U8 : DType::I8;
  case 16: return u ? DType::U16 : DType::I16;
  case 32: return u ? DType::U32 : DType::I32;
  case 64: return u ? DType::U64 : DType::I64;
  default: return std::nullopt;
  }
}

Type dfa::ref::mlirTypeOf(DType t, MLIRContext *ctx) {
  Builder b(ctx);
  auto u = [&](unsigned w) {
    return IntegerType::get(ctx, w, IntegerType::Unsigned);
  };
  switch (t) {
  case DType::F64: return b.getF64Type();
  case DType::F32: return b.getF32Type();
  case DType::F16: return b.getF16Type();
  case DType::BF16: return b.getBF16Type();
  case DType::I64: return b.getI64Type();
  case DType::I32: return b.getI32Type();
  case DType::I16: return b.getI16Type();
  case DType::I8: return b.getI8Type();
  case DType::U64: return u(64);
  case DType::U32: return u(32);
  case DType::U16: return u(16);
  case DType::U8: return u(8);
  case DType::Bool: return b.getI1Type();
  case DType::F8E4M3FN: return b.getFloat8E4M3FNType();
  case DType::F8E4M3FNUZ: return b.getFloat8E4M3FNUZType();
  case DType::F8E5M2: return b.getFloat8E5M2Type();
  case DType::F8E5M2FNUZ: return b.getFloat8E5M2FNUZType();
  case DType::I4: return b.getIntegerType(4);
  case DType::I2: return b.getIntegerType(2);
  case DType::U4: return u(4);
  case DType::U2: return u(2);
  case DType::F4E2M1FN: return Float4E2M1FNType::get(ctx);
  case DType::F6E2M3FN: return Float6E2M3FNType::get(ctx);
  case DType::F6E3M2FN: return Float6E3M2FNType::get(ctx);
  case DType::F8E8M0FNU: return Float8E8M0FNUType::get(ctx);
  }
  return {};
}

DType dfa::ref::dtypeOfValue(Value v) {
  return *dtypeOf(cast<ShapedType>(v.getType()).getElementType());
}

ArrayRef<int64_t> dfa::ref::shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

Tensor dfa::ref::tensorFromAttr(ElementsAttr attr) {
  auto type = cast<ShapedType>(attr.getType());
  DType dt = *dtypeOf(type.getElementType());
  Tensor t(dt, type.getShape());
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dt == DType::Bool) {
      int64_t i = 0;
      for (bool b : dense.getValues<bool>())
        t.data<uint8_t>()[i++] = b;
    } else if (isFloat(dt)) {
      int64_t i = 0;
      for (APFloat f : dense.getValues<APFloat>()) {
        if (dt == DType::F16 || dt == DType::BF16)
          t.data<uint16_t>()[i++] =
              (uint16_t)f.bitcastToAPInt().getZExtValue();
        else if (dtypeSize(dt) == 1) // the 8-bit floats, bit for bit
          t.data<uint8_t>()[i++] = (uint8_t)f.bitcastToAPInt().getZExtValue();
        else
          t.setDouble(i++, f.convertToDouble());
      }
    } else {
      int64_t i = 0;
      for (APInt v : dense.getValues<APInt>())
        t.setInt(i++, isUnsigned(dt) ? (int64_t)v.getZExtValue()
                                     : v.getSExtValue());
    }
    return t;
  }
  if (auto res = dyn_cast<DenseResourceElementsAttr>(attr)) {
    if (AsmResourceBlob *blob = res.getRawHandle().getBlob()) {
      ArrayRef<char> data = blob->getData();
      std::memcpy(t.bytes(), data.data(),
                  std::min<size_t>(data.size(), t.byteSize()));
    }
    return t;
  }
  return t;
}

ElementsAttr dfa::ref::tensorToAttr(const Tensor &t, MLIRContext *ctx) {
  Type elt = mlirTypeOf(t.dtype(), ctx);
  auto type = RankedTensorType::get(t.shape(), elt);
  int64_t n = t.numElements();
  if (!isa<IntegerType, FloatType>(elt)) {
    // A graph minifloat: dense elements hold builtin types only, so the
    // codes (one per byte, as the reference holds them) go into a blob.
    ArrayRef<char> bytes(reinterpret_cast<const char *>(t.bytes()), t.byteSize());
    return DenseResourceElementsAttr::get(
        type, "minifloat", HeapAsmResourceBlob::allocateAndCopyInferAlign(bytes));
  }
  if (t.dtype() == DType::Bool) {
    SmallVector<bool> v(n);
    for (int64_t i = 0; i < n; ++i)
      v[i] = t.data<uint8_t>()[i] != 0;
    return DenseElementsAttr::get(type, v);
  }
  // Raw little-endian bytes are the dense storage format for all other types.
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(reinterpret_cast<const char *>(t.bytes()),
                           t.byteSize()));
}

const Tensor &Evaluator::get(Value v) const {
  auto it = values.find(v);
  assert(it != values.end() && "value used before it was computed");
  return it->second;
}

void Evaluator::set(Value v, Tensor t) { values[v] = std::move(t); }

static LogicalResult checkTensor(Location loc, const Tensor &t, Type expected,
                                 StringRef what) {
  auto type = cast<ShapedType>(expected);
  auto dt = dtypeOf(type.getElementType());
  if (!dt || *dt != t.dtype() || t.shape() != type.getShape())
    return emitError(loc) << what << " is " << dtypeName(t.dtype()) << "["
                          << shapeString(t.shape()) << "], expected " << type;
  return success();
}

FailureOr<SmallVector<Tensor>> Evaluator::run(func::FuncOp func,
                                              ArrayRef<Tensor> args) {
  Block &body = func.getBody().front();
  if (args.size() != body.getNumArguments())
    return emitError(func.getLoc()) << "expected " << body.getNumArguments()
                                    << " inputs, got " << args.size();
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    auto name = func.getArgAttrOfType<StringAttr>(i, graph::kNameAttr);
    std::string what = "input " + std::to_string(i);
    if (name)
      what += " '" + name.str() + "'";
    if (failed(checkTensor(func.getLoc(), args[i], arg.getType(), what)))
      return failure();
    values[arg] = args[i];
  }

  return runBlock(body);
}

/// The values each op of `body` uses for the last time: the evaluator frees
/// them after it.
static DenseMap<Operation *, SmallVector<Value>> lastUsesIn(Block &body) {
  DenseMap<Operation *, SmallVector<Value>> lastUses;
  DenseMap<Value, Operation *> lastUser;
  for (Operation &op : body)
    for (Value v : op.getOperands())
      lastUser[v] = &op;
  for (auto &[v, op] : lastUser)
    lastUses[op].push_back(v);
  return lastUses;
}

static double valueBytes(Value v) { return staticTensorBytes(v.getType()); }

double dfa::ref::staticTensorBytes(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  std::optional<DType> dt = t ? dtypeOf(t.getElementType()) : std::nullopt;
  if (!dt || !t.hasStaticShape())
    return 0;
  double n = (double)dtypeSize(*dt);
  for (int64_t d : t.getShape())
    n *= (double)d;
  return n;
}

Operation *dfa::ref::firstUnevaluable(Block &body) {
  for (Operation &op : body)
    if (!op.hasTrait<OpTrait::IsTerminator>() && !isa<ReferenceOpInterface>(op))
      return &op;
  return nullptr;
}

double dfa::ref::peakLiveBytes(Block &body, bool keepValues, Operation **at) {
  // The evaluator's own policy (runBlock): a value is freed after the op
  // that uses it last.
  DenseMap<Operation *, SmallVector<Value>> lastUses;
  if (!keepValues)
    lastUses = lastUsesIn(body);
  double live = 0;
  for (BlockArgument a : body.getArguments())
    live += valueBytes(a);
  double peak = live;
  if (at)
    *at = nullptr;
  for (Operation &op : body) {
    for (Value r : op.getResults())
      live += valueBytes(r);
    if (live > peak) {
      peak = live;
      if (at)
        *at = &op;
    }
    for (Value v : lastUses.lookup(&op))
      if (v.getParentBlock() == &body)
        live -= valueBytes(v);
  }
  return peak;
}

FailureOr<SmallVector<Tensor>> Evaluator::runBlock(Block &body,
                                                   ArrayRef<Tensor> args) {
  for (auto [arg, t] : llvm::zip(body.getArguments(), args))
    values[arg] = t;
  // Free every value after its last use so that peak memory stays near the
  // largest live set, not the sum of all activations.
  DenseMap<Operation *, SmallVector<Value>> lastUses = lastUsesIn(body);
  // Pairs computed in one pass (fusedConsumer): the producer's value is
  // never stored, so not when every value is kept. The producer's operands
  // live until the consumer has run.
  DenseMap<Operation *, Operation *> fusedProducer;
  llvm::SmallPtrSet<Operation *, 16> fusedAway;
  if (!opts.keepValues)
    for (Operation &op : body)
      if (Operation *consumer = fusedConsumer(&op)) {
        fusedProducer[consumer] = &op;
        fusedAway.insert(&op);
      }
  progress::Task task("evaluating", int64_t(body.getOperations().size()));
  for (Operation &op : body) {
    task.advance();
    if (fusedAway.contains(&op))
      continue; // computed with its consumer
    if (Operation *producer = fusedProducer.lookup(&op)) {
      if (failed(evalFused(producer, &op, *this)))
        return failure();
      for (Operation *done : {producer, &op})
        for (Value v : lastUses.lookup(done))
          values.erase(v);
      continue;
    }
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      SmallVector<Tensor> results;
      for (Value v : op.getOperands())
        results.push_back(get(v));
      if (!opts.keepValues)
        values.clear();
      return results;
    }
    auto iface = dyn_cast<ReferenceOpInterface>(op);
    if (!iface)
      return op.emitOpError("has no reference implementation");
    if (failed(iface.evaluate(*this)))
      return failure();
    if (!opts.keepValues)
      for (Value v : lastUses.lookup(&op))
        values.erase(v);
  }
  return emitError(body.getParentOp()->getLoc()) << "block has no terminator";
}

const Tensor *Evaluator::keptWeight(Operation *op) const {
  auto it = weights.find(op);
  return it == weights.end() ? nullptr : &it->second;
}

void Evaluator::keepWeight(Operation *op, const Tensor &t) {
  weights.try_emplace(op, t);
}

FailureOr<SmallVector<Tensor>>
Evaluator::evaluateOp(Operation *op, ArrayRef<Tensor> operands,
                      EvalOptions options) {
  auto iface = dyn_cast<ReferenceOpInterface>(op);
  if (!iface)
    return op->emitOpError("has no reference implementation");
  Evaluator ev(options);
  for (auto [v, t] : llvm::zip(op->getOperands(), operands))
    ev.values[v] = t;
  if (failed(iface.evaluate(ev)))
    return failure();
  SmallVector<Tensor> results;
  for (Value r : op->getResults())
    results.push_back(ev.get(r));
  return results;
}

void dfa::ref::foldConstantOps(Block &block, Block::iterator from, int64_t limitElements,
                               DenseMap<Value, Value> *replaced) {
  for (Operation &op : llvm::make_early_inc_range(llvm::make_range(from, block.end()))) {
    if (isa<ConstantOp, WeightOp>(op) || op.getNumResults() == 0)
      continue;
    // A constant stored in a narrow type (int8, float8) widened to a float
    // is a dequantization: kept, so that the product reading it reads the
    // narrow weight (graph::dequantizedOperand), as a large weight does.
    if (auto c = dyn_cast<CastOp>(op);
        c && isNarrow(cast<ShapedType>(c.getInput().getType()).getElementType()) &&
        isa<FloatType>(cast<ShapedType>(c.getResult().getType()).getElementType()))
      continue;
    SmallVector<Tensor> operands;
    bool allConst = true;
    for (Value v : op.getOperands()) {
      auto c = v.getDefiningOp<ConstantOp>();
      if (!c) {
        allConst = false;
        break;
      }
      operands.push_back(tensorFromAttr(c.getValue()));
    }
    if (!allConst || llvm::any_of(op.getResultTypes(), [&](Type t) {
          return tensorElements(t) > limitElements;
        }))
      continue;
    // Evaluation errors leave the op in place; the reference reports them
    // again when the graph runs.
    ScopedDiagnosticHandler silence(op.getContext(), [](Diagnostic &) { return success(); });
    auto results = Evaluator::evaluateOp(&op, operands);
    if (failed(results))
      continue;
    OpBuilder fb(&op);
    for (auto [res, t] : llvm::zip(op.getResults(), *results)) {
      Value c = fb.create<ConstantOp>(op.getLoc(), tensorToAttr(t, op.getContext()));
      res.replaceAllUsesWith(c);
      if (replaced)
        (*replaced)[res] = c;
    }
    op.erase();
  }
}

namespace {
template <typename OpT>
struct ReferenceModel
    : ReferenceOpInterface::ExternalModel<ReferenceModel<OpT>, OpT> {
  LogicalResult evaluate(Operation *op, Evaluator &state) const {
    return evalOp<OpT>(cast<OpT>(op), state);
  }
};

template <typename... Ops> void attachAll(MLIRContext *ctx) {
  (Ops::template attachInterface<ReferenceModel<Ops>>(*ctx), ...);
}
} // namespace

void dfa::ref::registerReferenceInterfaces(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, GraphDialect *) {
    attachAll<
#define GET_OP_LIST
#include "dialects/Graph/GraphOps.cpp.inc"
        >(ctx);
  });
}
