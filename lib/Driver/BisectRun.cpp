//===- BisectRun.cpp - dfa-bisect's executions ----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "BisectRun.h"
#include "Capture.h"
#include "Pipeline.h"
#include "RunTarget.h"

#include "dfa/Reference/Evaluator.h"
#include "dfa/Support/SourceName.h"
#include "dfa/Sim/Sim.h"

#include "dialects/Graph/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;

namespace {

std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

func::FuncOp mainOf(ModuleOp m) { return m.lookupSymbol<func::FuncOp>("main"); }

/// Runs `body` with its diagnostics kept in `e`: the first error of the
/// execution, naming its source node, and every warning (a bisection's
/// many runs print nothing).
template <typename F>
void keepDiagnostics(MLIRContext &ctx, Execution &e, F body) {
  Captured c;
  driver::capturing(ctx, c, body);
  if (e.message.empty() && !c.message.empty())
    e.message = c.located();
  e.warnings.insert(e.warnings.end(), c.warnings.begin(), c.warnings.end());
}

void simulateInto(BisectEnv &env, sched::ProgramOp program,
                  ArrayRef<ref::Tensor> args, Execution &e) {
  sim::Options so;
  sim::Result r;
  Status s = Status::Ok;
  keepDiagnostics(env.ctx, e, [&] {
    s = sim::simulate(program, env.target, args, so, r);
  });
  if (s == Status::Ok) {
    e.outputs.assign(r.outputs.begin(), r.outputs.end());
    e.message.clear();
    return;
  }
  e.failedStage = stageName(Stage::Sched).str();
  e.failure = s == Status::ScheduleConflict ? "race"
              : s == Status::Deadlock       ? "deadlock"
                                            : "runtime";
}

} // namespace

bisect::Format dfa::driver::storedFormat(const target::Target &t, Type elt) {
  std::string n = typeName(elt);
  bisect::Format f;
  f.name = n;
  if (const target::StorageFormat *d = t.deviceFormat(n)) {
    f.name = t.storageFormats.at(n).device;
    f.mantissaBits = d->mantissaBits;
    f.exponentBits = d->exponentBits;
  } else if (std::optional<target::StorageFormat> s = t.floatFormat(n)) {
    f.mantissaBits = s->mantissaBits;
    f.exponentBits = s->exponentBits;
  } else if (auto ft = dyn_cast<FloatType>(elt)) {
    // A type the description does not name is kept as it is.
    f.mantissaBits = int(ft.getFPMantissaWidth()) - 1;
    f.exponentBits = int(ft.getWidth()) - f.mantissaBits - 1;
  }
  return f;
}

bisect::Budget dfa::driver::budgetOf(const target::Target &t,
                                     Operation *producer, Type type,
                                     const bisect::Profile &p,
                                     bool accumulated,
                                     bisect::ProducerFn producerOf) {
  int64_t k = 1;
  bisect::OpClass cls = producer ? bisect::classOf(producer, k, producerOf)
                                 : bisect::OpClass::Movement;
  bisect::Format stored =
      storedFormat(t, cast<RankedTensorType>(type).getElementType());
  bisect::Format acc;
  acc.name = "f32";
  if (std::optional<target::StorageFormat> a = t.floatFormat(
          t.accumulator.empty() ? "f32" : t.accumulator)) {
    acc.name = t.accumulator.empty() ? "f32" : t.accumulator;
    acc.mantissaBits = a->mantissaBits;
    acc.exponentBits = a->exponentBits;
  }
  return bisect::budgetFor(cls, k, p, stored, acc, accumulated);
}

Execution dfa::driver::execute(BisectEnv &env, ModuleOp graph, int stage,
                               ArrayRef<ref::Tensor> args, int passLimit) {
  Execution e;
  e.module = cast<ModuleOp>(graph->clone());
  for (int s = 1; s <= stage; ++s) {
    CompileOptions co = env.compile;
    if (s == stage)
      co.lastStagePassLimit = passLimit;
    Status st = Status::Ok;
    keepDiagnostics(env.ctx, e, [&] {
      st = runPipeline(*e.module, env.target, s - 1, s, co, env.printer);
    });
    if (st != Status::Ok) {
      e.failure = "compile";
      e.failedStage = stageName(Stage(s));
      if (e.message.empty())
        e.message = "the " + std::string(stageName(Stage(s))) + " stage failed";
      return e;
    }
  }
  if (stage == kSchedStage) {
    sched::ProgramOp program = findProgram(*e.module);
    if (!program) {
      e.failure = "compile";
      e.failedStage = stageName(Stage::Sched).str();
      e.message = "no schedule";
      return e;
    }
    simulateInto(env, program, args, e);
    return e;
  }
  ref::Evaluator ev;
  FailureOr<SmallVector<ref::Tensor>> out;
  keepDiagnostics(env.ctx, e, [&] { out = ev.run(mainOf(*e.module), args); });
  if (failed(out)) {
    e.failure = "runtime";
    e.failedStage = stageName(Stage(stage));
    return e;
  }
  for (const ref::Tensor &t : *out)
    e.outputs.push_back(sim::toDeviceFormat(env.target, t));
  return e;
}

Execution dfa::driver::rerun(BisectEnv &env, ModuleOp compiled,
                             ArrayRef<ref::Tensor> args) {
  Execution e;
  if (sched::ProgramOp program = findProgram(compiled))
    simulateInto(env, program, args, e);
  return e;
}

std::string dfa::driver::nodeName(Operation *op) {
  std::string name = sourceName(op);
  return name.empty() ? op->getName().getStringRef().str() : name;
}

std::vector<Operation *> dfa::driver::nodesOf(func::FuncOp main) {
  std::vector<Operation *> nodes;
  for (Operation &op : main.getBody().front().without_terminator())
    if (op.getNumResults() > 0 && !isa<graph::ConstantOp, graph::WeightOp>(op))
      nodes.push_back(&op);
  return nodes;
}

OwningOpRef<ModuleOp> dfa::driver::prefix(ModuleOp graph, size_t index) {
  OwningOpRef<ModuleOp> m = cast<ModuleOp>(graph->clone());
  func::FuncOp main = mainOf(*m);
  Operation *node = nodesOf(main)[index];
  Operation *ret = main.getBody().front().getTerminator();
  ret->setOperands(node->getResults());
  main.setType(FunctionType::get(m->getContext(), main.getArgumentTypes(),
                                 node->getResultTypes()));
  main.removeResAttrsAttr();
  // Everything the prefix no longer needs (graph ops are pure).
  SmallVector<Operation *> ops;
  for (Operation &op : main.getBody().front().without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty())
      op->erase();
  return m;
}

OwningOpRef<ModuleOp> dfa::driver::isolate(Operation *op,
                                           SmallVectorImpl<Value> &argsOf) {
  MLIRContext *ctx = op->getContext();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> m = ModuleOp::create(op->getLoc());
  if (Attribute src = op->getParentOfType<ModuleOp>()->getAttr(graph::kSourceAttr))
    (*m)->setAttr(graph::kSourceAttr, src);
  SmallVector<Type> argTypes;
  for (Value v : op->getOperands())
    if (!isa_and_nonnull<graph::ConstantOp, graph::WeightOp>(v.getDefiningOp()) &&
        !llvm::is_contained(argsOf, v)) {
      argsOf.push_back(v);
      argTypes.push_back(v.getType());
    }
  b.setInsertionPointToEnd(m->getBody());
  auto f = b.create<func::FuncOp>(op->getLoc(), "main",
                                  b.getFunctionType(argTypes, op->getResultTypes()));
  Block *entry = f.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  IRMapping map;
  for (auto [v, arg] : llvm::zip(argsOf, entry->getArguments()))
    map.map(v, arg);
  for (Value v : op->getOperands())
    if (!map.contains(v))
      map.map(v, b.clone(*v.getDefiningOp())->getResult(0));
  Operation *c = b.clone(*op, map);
  b.create<func::ReturnOp>(op->getLoc(), c->getResults());
  return m;
}

bisect::Comparison dfa::driver::compareValue(
    BisectEnv &env, llvm::StringRef name, Operation *producer, Type type,
    const ref::Tensor &got, const ref::Tensor &want, const ref::Tensor &oracle,
    bool accumulated) {
  bisect::Comparison c;
  c.name = name.str();
  // A value an op that only moves values makes from one operand (a
  // widening cast, a view) carries the rounding of the op before it, and
  // is held to that op's budget in its format: an f16 product's result
  // cast to f32 is off by its f16 ulps, not by f32's.
  auto movesOnly = [](Operation *op) {
    if (graph::numericsOf(op) == graph::Numerics::Exact)
      return true;
    // A cast to a float format that holds every value of its input's.
    if (!isa<graph::CastOp>(op))
      return false;
    auto from = dyn_cast<FloatType>(getElementTypeOrSelf(op->getOperand(0).getType()));
    auto to = dyn_cast<FloatType>(getElementTypeOrSelf(op->getResult(0).getType()));
    return from && to && to.getFPMantissaWidth() >= from.getFPMantissaWidth() &&
           to.getWidth() - to.getFPMantissaWidth() >= from.getWidth() - from.getFPMantissaWidth();
  };
  Operation *rounding = producer;
  Type roundedType = type;
  while (rounding && rounding->getNumOperands() == 1 && rounding->getNumResults() == 1 &&
         movesOnly(rounding) && rounding->getOperand(0).getDefiningOp() &&
         isa<RankedTensorType>(rounding->getOperand(0).getType())) {
    roundedType = rounding->getOperand(0).getType();
    rounding = rounding->getOperand(0).getDefiningOp();
  }
  bisect::Budget b = budgetOf(env.target, rounding, type, env.profile, accumulated);
  if (rounding != producer) {
    bisect::Format f =
        storedFormat(env.target, cast<RankedTensorType>(roundedType).getElementType());
    if (f.mantissaBits < b.stored.mantissaBits)
      b.stored = f;
  }
  c.cls = b.cls;
  c.op = producer ? producer->getName().getStringRef().str() : "input";
  auto tt = cast<RankedTensorType>(type);
  c.dtype = typeName(tt.getElementType());
  c.shape.assign(tt.getShape().begin(), tt.getShape().end());
  c.storedFormat = b.stored.name;
  // By the value's name, or the node that makes it (an output's producer).
  for (const std::string &key :
       {c.name, producer ? nodeName(producer) : std::string()}) {
    auto over = env.nodeUlps.find(key);
    if (!key.empty() && over != env.nodeUlps.end())
      b.ulps = over->second;
  }
  c.metrics = bisect::compare(got, want, oracle, b);
  bisect::DeviceLayout layout;
  layout.granule = env.target.minorGranule(int64_t(ref::dtypeSize(want.dtype())),
                                           &layout.granuleName);
  c.pattern = bisect::findPattern(c.metrics, got, want, layout);
  return c;
}
