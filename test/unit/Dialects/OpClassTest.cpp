//===- OpClassTest.cpp - the one table of op classes -------------------------===//

#include "dfa/Bisect/Compare.h"
#include "dfa/Transforms/TargetModel.h"
#include "dialects/Graph/GraphInterfaces.h"
#include "dialects/Graph/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
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
      %7 = graph.matmul %a, %b : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
      %8 = graph.add %0, %7 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
      %9 = graph.add %8, %0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
      %10 = graph.relu %0 : tensor<4x8xf32>
      %11 = graph.add %9, %10 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
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
      {dfa::bisect::OpClass::Reduction, 32},
      // A sum of products (a product cut along K, its partials summed)
      // reduces over all their K, through a tree of adds ...
      {dfa::bisect::OpClass::Reduction, 64},
      {dfa::bisect::OpClass::Reduction, 96},
      {dfa::bisect::OpClass::Elementwise, 1},
      // ... but not where anything else is added.
      {dfa::bisect::OpClass::Elementwise, 1},
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

namespace {
/// The products of `fn`'s body, in order.
SmallVector<Operation *> productsOf(func::FuncOp fn) {
  SmallVector<Operation *> out;
  for (Operation &op : fn.getBody().front())
    if (isMatrixKind(kernelKindOf(classify(&op))))
      out.push_back(&op);
  return out;
}
} // namespace

TEST_CASE("a product reads an operand dequantized from int8 or float8", "[dialect][opclass][quant]") {
  MLIRContext ctx;
  ctx.loadDialect<GraphDialect, func::FuncDialect>();
  // DequantizeLinear as the importer spells it: cast, minus the zero point,
  // times the scale.
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%xq: tensor<4x32xi8>, %wq: tensor<32x8xi8>, %sx: tensor<f32>, %zx: tensor<f32>,
                 %sw: tensor<1x8xf32>, %sk: tensor<32x1xf32>, %fq: tensor<8x32xf8E4M3FN>,
                 %h: tensor<4x32xf16>, %sf: tensor<f32>, %a: tensor<4x32xf32>) {
      // int8 x int8, a zero point on the activation, per-column weight scales.
      %0 = graph.cast %xq : (tensor<4x32xi8>) -> tensor<4x32xf32>
      %1 = graph.sub %0, %zx : (tensor<4x32xf32>, tensor<f32>) -> tensor<4x32xf32>
      %2 = graph.mul %1, %sx : (tensor<4x32xf32>, tensor<f32>) -> tensor<4x32xf32>
      %3 = graph.cast %wq : (tensor<32x8xi8>) -> tensor<32x8xf32>
      %4 = graph.mul %3, %sw : (tensor<32x8xf32>, tensor<1x8xf32>) -> tensor<32x8xf32>
      %5 = graph.matmul %2, %4 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
      // A scale per K row cannot leave the sum: the product stays float.
      %6 = graph.cast %xq : (tensor<4x32xi8>) -> tensor<4x32xf32>
      %7 = graph.cast %wq : (tensor<32x8xi8>) -> tensor<32x8xf32>
      %8 = graph.mul %sk, %7 : (tensor<32x1xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
      %9 = graph.matmul %6, %8 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
      // Weight-only: an f16 activation and a float8 weight stored [N, K],
      // transposed to [K, N], its scale cast to f16: the product runs in f16.
      %10 = graph.cast %fq : (tensor<8x32xf8E4M3FN>) -> tensor<8x32xf32>
      %11 = graph.mul %10, %sf : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
      %12 = graph.cast %11 : (tensor<8x32xf32>) -> tensor<8x32xf16>
      %13 = graph.transpose %12 {perm = array<i64: 1, 0>} : (tensor<8x32xf16>) -> tensor<32x8xf16>
      %14 = graph.matmul %h, %13 : (tensor<4x32xf16>, tensor<32x8xf16>) -> tensor<4x8xf16>
      // A dequantized value read twice is no product's own.
      %15 = graph.cast %wq : (tensor<32x8xi8>) -> tensor<32x8xf32>
      %16 = graph.matmul %a, %15 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
      %17 = graph.matmul %a, %15 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
      return
    })mlir", &ctx);
  REQUIRE(m);
  auto fn = *m->getOps<func::FuncOp>().begin();
  SmallVector<Operation *> p = productsOf(fn);
  REQUIRE(p.size() == 5);

  std::optional<DequantizedOperand> a = dequantizedOperand(p[0], 0), b = dequantizedOperand(p[0], 1);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->narrow.isInteger(8));
  CHECK(a->ops.size() == 3); // cast, sub, mul in program order
  CHECK(isa<CastOp>(a->ops.front()));
  CHECK(a->ops.back() == p[0]->getOperand(0).getDefiningOp());
  CHECK(b->ops.size() == 2);

  CHECK(dequantizedOperand(p[1], 0));
  CHECK_FALSE(dequantizedOperand(p[1], 1));

  CHECK_FALSE(dequantizedOperand(p[2], 0));
  std::optional<DequantizedOperand> f = dequantizedOperand(p[2], 1);
  REQUIRE(f);
  CHECK(isa<Float8E4M3FNType>(f->narrow));
  CHECK(f->ops.size() == 4);

  CHECK_FALSE(dequantizedOperand(p[3], 1));

  // The arithmetic type of a kernel body holding each product: its block
  // is the function's, so each product is checked in a body of its own.
  auto typeOf = [&](Operation *product) {
    OpBuilder b(&ctx);
    Block body;
    IRMapping map;
    for (Value v : fn.getArguments())
      map.map(v, body.addArgument(v.getType(), v.getLoc()));
    b.setInsertionPointToEnd(&body);
    SmallVector<Operation *> chain;
    for (unsigned i : {0u, 1u})
      if (std::optional<DequantizedOperand> d = dequantizedOperand(product, i))
        chain.append(d->ops.begin(), d->ops.end());
    llvm::sort(chain, [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
    for (Operation *op : chain)
      b.clone(*op, map);
    // Operands produced outside a chain (a shared dequantization) are
    // the body's inputs, as a kernel's are.
    for (Value v : product->getOperands())
      if (!map.contains(v))
        map.map(v, body.addArgument(v.getType(), v.getLoc()));
    b.clone(*product, map);
    Type t = arithmeticType(body, b.getF32Type());
    body.dropAllReferences();
    return t;
  };
  CHECK(typeOf(p[0]).isInteger(8));
  CHECK(typeOf(p[1]).isF32());
  CHECK(typeOf(p[2]).isF16());
  CHECK(typeOf(p[3]).isF32());

  // --fp32-matmul leaves the int8 product alone: it is not f32 work.
  CHECK(setFp32Matmul(fn, Fp32Matmul::TF32) == 3);
  CHECK(fp32MatmulOf(p[0]) == Fp32Matmul::IEEE);
  CHECK(fp32MatmulOf(p[1]) == Fp32Matmul::TF32);
}

TEST_CASE("a grouped product reads the experts its rows can reach", "[dialect][opclass][moe]") {
  MLIRContext ctx;
  ctx.loadDialect<GraphDialect, func::FuncDialect>();
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%d: tensor<2x64xbf16>, %p: tensor<32x64xbf16>, %w: tensor<8x64x16xbf16>,
                 %wt: tensor<8x16x64xbf16>, %o: tensor<8xi32>) {
      // Decode: 2 rows reach at most 2 of the 8 experts.
      %0 = graph.grouped_matmul %d, %w, %o : (tensor<2x64xbf16>, tensor<8x64x16xbf16>, tensor<8xi32>) -> tensor<2x16xbf16>
      // Experts stored [E, N, K], read through a transpose that keeps E.
      %1 = graph.transpose %wt {perm = array<i64: 0, 2, 1>} : (tensor<8x16x64xbf16>) -> tensor<8x64x16xbf16>
      %2 = graph.grouped_matmul %d, %1, %o : (tensor<2x64xbf16>, tensor<8x64x16xbf16>, tensor<8xi32>) -> tensor<2x16xbf16>
      return
    }
    func.func @g(%p: tensor<32x64xbf16>, %w: tensor<8x64x16xbf16>, %o: tensor<8xi32>) {
      // A prefill's 32 rows may reach every expert; a second reader of the
      // experts (a plain product) reads them whole.
      %0 = graph.grouped_matmul %p, %w, %o : (tensor<32x64xbf16>, tensor<8x64x16xbf16>, tensor<8xi32>) -> tensor<32x16xbf16>
      return
    }
    func.func @k(%p: tensor<32x64xbf16>, %w: tensor<8x64x16xbf16>, %o: tensor<9xi32>) {
      // A slice of 8 of 16 experts (graph-shard's piece): half the rows.
      %0 = graph.grouped_matmul %p, %w, %o {groups_total = 16 : i64} : (tensor<32x64xbf16>, tensor<8x64x16xbf16>, tensor<9xi32>) -> tensor<32x16xbf16>
      return
    }
    func.func @h(%d: tensor<2x64xbf16>, %w: tensor<8x64x16xbf16>, %o: tensor<8xi32>, %x: tensor<8x4x64xbf16>) {
      %0 = graph.grouped_matmul %d, %w, %o : (tensor<2x64xbf16>, tensor<8x64x16xbf16>, tensor<8xi32>) -> tensor<2x16xbf16>
      %1 = graph.matmul %x, %w : (tensor<8x4x64xbf16>, tensor<8x64x16xbf16>) -> tensor<8x4x16xbf16>
      return
    })mlir", &ctx);
  REQUIRE(m);
  auto fn = [&](StringRef name) { return m->lookupSymbol<func::FuncOp>(name); };
  auto first = [](func::FuncOp f) { return *f.getOps<GroupedMatMulOp>().begin(); };
  CHECK(activeGroups(first(fn("f"))) == 2);
  CHECK(activeGroups(first(fn("g"))) == 8);
  CHECK(readFraction(fn("f").getArgument(2)) == 0.25);
  CHECK(readFraction(fn("f").getArgument(3)) == 0.25);
  CHECK(readFraction(fn("f").getArgument(0)) == 1);
  CHECK(readFraction(fn("g").getArgument(1)) == 1);
  CHECK(readFraction(fn("h").getArgument(1)) == 1);
  // Its GEMM: the active experts' products of S / experts rows each, with
  // 2 S K N FLOPs and dfa-bisect's reduction over K.
  std::optional<dfa::MatmulShape> s = dfa::matmulShape(first(fn("g")));
  REQUIRE(s);
  CHECK(s->batch == 8);
  CHECK(s->m == 4);
  CHECK(s->k == 64);
  CHECK(s->n == 16);
  CHECK(classify(first(fn("g"))) == OpClass::Matmul);
  CHECK(cast<CostOpInterface>(first(fn("g")).getOperation()).getFlops() == 2 * 32 * 64 * 16);
  s = dfa::matmulShape(first(fn("f")));
  CHECK(s->batch == 2);
  CHECK(s->m == 1);
  GroupedMatMulOp piece = first(fn("k"));
  CHECK(groupedRows(piece) == 16);
  CHECK(activeGroups(piece) == 8);
  CHECK(cast<CostOpInterface>(piece.getOperation()).getFlops() == 2 * 16 * 64 * 16);
  CHECK(dfa::matmulShape(piece)->m == 2);
}

TEST_CASE("a KV cache grows by a concat after it or a scatter into it", "[dialect]") {
  MLIRContext ctx;
  ctx.loadDialect<GraphDialect, func::FuncDialect>();
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(R"mlir(
    func.func @concat(%c: tensor<1x4x8xf32>, %n: tensor<1x1x8xf32>) -> tensor<1x5x8xf32> {
      %0 = graph.concat %c, %n {axis = 1 : i64} : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x5x8xf32>
      return %0 : tensor<1x5x8xf32>
    }
    func.func @padded(%c: tensor<1x4x8xf32>, %i: tensor<1x1x2xi64>, %n: tensor<1x1x8xf32>) -> tensor<1x5x8xf32> {
      %0 = graph.pad %c {pads = array<i64: 0, 0, 0, 0, 1, 0>} : (tensor<1x4x8xf32>) -> tensor<1x5x8xf32>
      %1 = graph.scatter_nd %0, %i, %n : (tensor<1x5x8xf32>, tensor<1x1x2xi64>, tensor<1x1x8xf32>) -> tensor<1x5x8xf32>
      return %1 : tensor<1x5x8xf32>
    }
    func.func @front(%c: tensor<1x4x8xf32>, %i: tensor<1x1x2xi64>, %n: tensor<1x1x8xf32>) -> tensor<1x5x8xf32> {
      %0 = graph.pad %c {pads = array<i64: 0, 1, 0, 0, 0, 0>} : (tensor<1x4x8xf32>) -> tensor<1x5x8xf32>
      %1 = graph.scatter_nd %0, %i, %n : (tensor<1x5x8xf32>, tensor<1x1x2xi64>, tensor<1x1x8xf32>) -> tensor<1x5x8xf32>
      return %1 : tensor<1x5x8xf32>
    }
    func.func @self(%c: tensor<1x4x8xf32>) -> tensor<1x8x8xf32> {
      %0 = graph.concat %c, %c {axis = 1 : i64} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x8x8xf32>
      return %0 : tensor<1x8x8xf32>
    }
    func.func @inner(%c: tensor<1x4x8xf32>, %n: tensor<1x4x1xf32>) -> tensor<1x4x9xf32> {
      %0 = graph.concat %c, %n {axis = 2 : i64} : (tensor<1x4x8xf32>, tensor<1x4x1xf32>) -> tensor<1x4x9xf32>
      return %0 : tensor<1x4x9xf32>
    }
    func.func @innerpad(%c: tensor<1x4x8xf32>, %i: tensor<1x4x1xi64>, %n: tensor<1x4x1xf32>) -> tensor<1x4x9xf32> {
      %0 = graph.pad %c {pads = array<i64: 0, 0, 0, 0, 0, 1>} : (tensor<1x4x8xf32>) -> tensor<1x4x9xf32>
      %1 = graph.scatter_elements %0, %i, %n {axis = 2 : i64} : (tensor<1x4x9xf32>, tensor<1x4x1xi64>, tensor<1x4x1xf32>) -> tensor<1x4x9xf32>
      return %1 : tensor<1x4x9xf32>
    }
    func.func @read(%c: tensor<1x4x8xf32>, %i: tensor<1x1x2xi64>, %n: tensor<1x1x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>) {
      %0 = graph.scatter_nd %c, %i, %n : (tensor<1x4x8xf32>, tensor<1x1x2xi64>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
      %1 = graph.relu %c : tensor<1x4x8xf32>
      return %0, %1 : tensor<1x4x8xf32>, tensor<1x4x8xf32>
    }
  )mlir", &ctx);
  REQUIRE(m);
  auto grown = [&](StringRef name) {
    auto f = m->lookupSymbol<func::FuncOp>(name);
    Value v = f.front().getTerminator()->getOperand(0);
    return std::make_pair(f, cacheGrowth(v));
  };
  auto [f1, g1] = grown("concat");
  REQUIRE(g1);
  CHECK(g1->cache == f1.getArgument(0));
  CHECK(!g1->updates);
  CHECK(g1->onlyGrowth);
  auto [f2, g2] = grown("padded");
  REQUIRE(g2);
  CHECK(g2->cache == f2.getArgument(0));
  CHECK(g2->updates == f2.getArgument(2));
  CHECK(g2->onlyGrowth);
  // Room before the cache moves its rows: no growth.
  CHECK(!grown("front").second);
  // Growth along the innermost dim moves every row: none.
  CHECK(!grown("inner").second);
  CHECK(!grown("innerpad").second);
  // A concat of the cache with itself reads it beyond the growth.
  auto [f5, g5] = grown("self");
  REQUIRE(g5);
  CHECK(!g5->onlyGrowth);
  // A scatter into a cache something else reads too grows it, but not alone.
  auto [f4, g4] = grown("read");
  REQUIRE(g4);
  CHECK(g4->cache == f4.getArgument(0));
  CHECK(!g4->onlyGrowth);
}
