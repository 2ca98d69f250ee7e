//===- OpClassTest.cpp - the one table of op classes -------------------------===//

#include "dfa/Bisect/Compare.h"
#include "dialects/Graph/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace mlir;
using namespace dfa::graph;

namespace {
/// An unverified op of each registered graph op name: the table looks only
/// at the op's name and traits.
Operation *bare(MLIRContext &ctx, StringRef name) {
  OperationState state(UnknownLoc::get(&ctx), name);
  return Operation::create(state);
}
} // namespace

TEST_CASE("every graph op is classified", "[dialect][opclass]") {
  MLIRContext ctx;
  ctx.loadDialect<GraphDialect, func::FuncDialect>();
  int ops = 0;
  for (RegisteredOperationName name : ctx.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "graph")
      continue;
    Operation *op = bare(ctx, name.getStringRef());
    ++ops;
    INFO(name.getStringRef().str());
    // Only the structural ops fall through to Other: a new op has to be
    // given its class in GraphOpClass.cpp.
    bool structural = isa<KernelOp, YieldOp>(op);
    CHECK((classify(op) == OpClass::Other) == structural);
    // Elementwise ops are pointwise for the compiler.
    if (op->hasTrait<OpTrait::Elementwise>())
      CHECK(classify(op) == OpClass::Pointwise);
    // Sources and data movement never round.
    if (classify(op) == OpClass::Source || classify(op) == OpClass::Data)
      CHECK(numericsOf(op) == Numerics::Exact);
    // Matrix ops accumulate over K.
    if (isMatrixKind(kernelKindOf(classify(op))))
      CHECK(numericsOf(op) == Numerics::Accumulated);
    op->destroy();
  }
  CHECK(ops > 100);
}

TEST_CASE("dfa-bisect's tolerance class follows the table", "[dialect][opclass]") {
  MLIRContext ctx;
  ctx.loadDialect<GraphDialect, func::FuncDialect>();
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%a: tensor<4x32xf32>, %b: tensor<32x8xf32>, %x: tensor<2x3x5x5xf32>, %w: tensor<6x3x3x3xf32>) {
      %0 = graph.matmul %a, %b : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
      %1 = graph.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<2x3x5x5xf32>, tensor<6x3x3x3xf32>) -> tensor<2x6x3x3xf32>
      %2 = graph.exp %a : tensor<4x32xf32>
      %3 = graph.softmax %a {axis = 1 : i64} : tensor<4x32xf32>
      %4 = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<4x32xf32>) -> tensor<32x4xf32>
      %5 = graph.relu %a : tensor<4x32xf32>
      %6 = graph.less %a, %a : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xi1>
      return
    })mlir", &ctx);
  REQUIRE(m);
  std::vector<std::pair<dfa::bisect::OpClass, int64_t>> want = {
      {dfa::bisect::OpClass::Reduction, 32},     // K of the matmul
      {dfa::bisect::OpClass::Reduction, 27},     // 3 channels x 3 x 3
      {dfa::bisect::OpClass::Transcendental, 1},
      {dfa::bisect::OpClass::Composite, 32},     // over the softmax axis
      {dfa::bisect::OpClass::Movement, 1},
      {dfa::bisect::OpClass::Elementwise, 1},
      {dfa::bisect::OpClass::Exact, 1},          // a bool result
  };
  auto fn = *m->getOps<func::FuncOp>().begin();
  size_t i = 0;
  for (Operation &op : fn.getBody().front()) {
    if (isa<func::ReturnOp>(op))
      continue;
    INFO(op.getName().getStringRef().str());
    REQUIRE(i < want.size());
    int64_t k = 0;
    CHECK(dfa::bisect::classOf(&op, k) == want[i].first);
    CHECK(k == want[i].second);
    ++i;
  }
  CHECK(i == want.size());
}
