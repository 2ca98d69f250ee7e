//===- SplitDimsTest.cpp - how a split of a result splits the operands ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Transforms/SplitDims.h"

#include "dfa/Driver/Driver.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace mlir;
using namespace dfa;

namespace {
/// A parsed function whose ops are found by their location's name.
struct Graph {
  std::unique_ptr<MLIRContext> ctx = driver::createContext();
  OwningOpRef<ModuleOp> module;

  explicit Graph(const std::string &text) {
    module = parseSourceString<ModuleOp>(text, ctx.get());
    REQUIRE(module);
  }
  /// The operand dims of op `name` for a split of its result along `d`.
  std::optional<std::vector<int64_t>> dims(StringRef name, int64_t d) {
    Operation *found = nullptr;
    module->walk([&](Operation *op) {
      if (auto loc = dyn_cast<NameLoc>(op->getLoc()); loc && loc.getName() == name)
        found = op;
    });
    REQUIRE(found);
    std::optional<SmallVector<int64_t, 4>> s = splitOperandDims(found, d);
    if (!s)
      return std::nullopt;
    return std::vector<int64_t>(s->begin(), s->end());
  }
};

using Dims = std::vector<int64_t>;
} // namespace

TEST_CASE("attention's ops map heads and rows to their operands", "[splitdims]") {
  Graph g(R"(
func.func @main(%q: tensor<2x4x16x8xf32>, %kt: tensor<2x4x8x16xf32>, %mask: tensor<1x1x16x16xf32>, %v: tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32> {
  %s = graph.matmul %q, %kt : (tensor<2x4x16x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x16x16xf32> loc("scores")
  %m = graph.add %s, %mask : (tensor<2x4x16x16xf32>, tensor<1x1x16x16xf32>) -> tensor<2x4x16x16xf32> loc("masked")
  %p = graph.softmax %m {axis = 3 : i64} : tensor<2x4x16x16xf32> loc("probs")
  %o = graph.matmul %p, %v : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32> loc("context")
  return %o : tensor<2x4x16x8xf32>
})");
  // Heads: both products' operands split along their heads; the mask,
  // broadcast over them, is read whole.
  REQUIRE(g.dims("scores", 1) == Dims{1, 1});
  REQUIRE(g.dims("masked", 1) == Dims{1, kWholeOperand});
  REQUIRE(g.dims("probs", 1) == Dims{1});
  // Query rows: the queries and the mask's rows split, the keys whole.
  REQUIRE(g.dims("scores", 2) == Dims{2, kWholeOperand});
  REQUIRE(g.dims("masked", 2) == Dims{2, 2});
  REQUIRE(g.dims("context", 2) == Dims{2, kWholeOperand});
  // Along the softmax's axis there is no split.
  REQUIRE(!g.dims("probs", 3));
}

TEST_CASE("views and reductions keep a dim or refuse it", "[splitdims]") {
  Graph g(R"(
func.func @main(%x: tensor<8x16x32xf32>) -> (tensor<2x4x16x32xf32>, tensor<8x512xf32>, tensor<8x32xf32>, tensor<1x8x16x32xf32>) {
  %a = graph.reshape %x : (tensor<8x16x32xf32>) -> tensor<2x4x16x32xf32> loc("split_batch")
  %b = graph.reshape %x : (tensor<8x16x32xf32>) -> tensor<8x512xf32> loc("merge_rows")
  %c = graph.reduce_sum %x {axes = array<i64: 1>, keepdims = false} : (tensor<8x16x32xf32>) -> tensor<8x32xf32> loc("sum")
  %d = graph.reshape %x : (tensor<8x16x32xf32>) -> tensor<1x8x16x32xf32> loc("unsqueeze")
  return %a, %b, %c, %d : tensor<2x4x16x32xf32>, tensor<8x512xf32>, tensor<8x32xf32>, tensor<1x8x16x32xf32>
})");
  // Dim 2 of [2, 4, 16, 32] is dim 1 of the input; dims 0 and 1 cut the
  // input's dim 0 into blocks no one input dim holds.
  REQUIRE(g.dims("split_batch", 2) == Dims{1});
  REQUIRE(!g.dims("split_batch", 1));
  // [8, 512] keeps the batch; its merged dim is no input dim.
  REQUIRE(g.dims("merge_rows", 0) == Dims{0});
  REQUIRE(!g.dims("merge_rows", 1));
  // keepdims = false: result dim 1 is input dim 2.
  REQUIRE(g.dims("sum", 0) == Dims{0});
  REQUIRE(g.dims("sum", 1) == Dims{2});
  REQUIRE(g.dims("unsqueeze", 1) == Dims{0});
}
