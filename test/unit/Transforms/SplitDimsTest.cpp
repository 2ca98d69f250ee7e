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

TEST_CASE("a split keeps every dim but its axis", "[splitdims]") {
  Graph g(R"(
func.func @main(%y: tensor<1x64x48xf32>) -> (tensor<1x64x32xf32>, tensor<1x64x16xf32>) {
  %p:2 = graph.split %y {axis = 2 : i64, sizes = array<i64: 32, 16>} : (tensor<1x64x48xf32>) -> (tensor<1x64x32xf32>, tensor<1x64x16xf32>) loc("qkv")
  return %p#0, %p#1 : tensor<1x64x32xf32>, tensor<1x64x16xf32>
})");
  REQUIRE(g.dims("qkv", 1) == Dims{1});
  REQUIRE(g.dims("qkv", 0) == Dims{0});
  REQUIRE_FALSE(g.dims("qkv", 2));
}

namespace {
/// reshapeWindow of the window (start, size) of a result of shape `out`.
std::optional<std::pair<Dims, Dims>> window(ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                                            Dims start, Dims size) {
  Window w{SmallVector<int64_t>(start.begin(), start.end()),
           SmallVector<int64_t>(size.begin(), size.end())};
  std::optional<Window> iw = reshapeWindow(in, out, w);
  if (!iw)
    return std::nullopt;
  return std::make_pair(Dims(iw->start.begin(), iw->start.end()),
                        Dims(iw->size.begin(), iw->size.end()));
}
} // namespace

TEST_CASE("a reshape's window maps to one window of its input", "[splitdims]") {
  // GQA: 8 query heads are 2 key heads x 4 repeats ([1, 2, 4, T, D] ->
  // [1, 8, T, D]). One query head is one key head's one repeat.
  auto one = window({1, 2, 4, 16, 8}, {1, 8, 16, 8}, {0, 5, 0, 0}, {1, 1, 16, 8});
  REQUIRE(one);
  REQUIRE(one->first == Dims{0, 1, 1, 0, 0});
  REQUIRE(one->second == Dims{1, 1, 1, 16, 8});
  // Four heads from the fifth: key head 1, all its repeats.
  auto group = window({1, 2, 4, 16, 8}, {1, 8, 16, 8}, {0, 4, 0, 0}, {1, 4, 16, 8});
  REQUIRE(group);
  REQUIRE(group->first == Dims{0, 1, 0, 0, 0});
  REQUIRE(group->second == Dims{1, 1, 4, 16, 8});
  // Two heads from the third (repeats 2 and 3 of key head 0).
  auto pair = window({1, 2, 4, 16, 8}, {1, 8, 16, 8}, {0, 2, 0, 0}, {1, 2, 16, 8});
  REQUIRE(pair);
  REQUIRE(pair->first == Dims{0, 0, 2, 0, 0});
  REQUIRE(pair->second == Dims{1, 1, 2, 16, 8});
  // Heads 3 and 4 straddle two key heads: not one window.
  REQUIRE_FALSE(window({1, 2, 4, 16, 8}, {1, 8, 16, 8}, {0, 3, 0, 0}, {1, 2, 16, 8}));
  // A window of rows through the merge is fine where the heads are whole.
  auto rows = window({1, 2, 4, 16, 8}, {1, 8, 16, 8}, {0, 0, 4, 0}, {1, 8, 4, 8});
  REQUIRE(rows);
  REQUIRE(rows->first == Dims{0, 0, 0, 4, 0});
  REQUIRE(rows->second == Dims{1, 2, 4, 4, 8});
  // A split of one dim ([T, 64] -> [T, 8, 8]): rows, or one head's columns.
  auto cols = window({16, 64}, {16, 8, 8}, {0, 3, 0}, {16, 1, 8});
  REQUIRE(cols);
  REQUIRE(cols->first == Dims{0, 24});
  REQUIRE(cols->second == Dims{16, 8});
  // Two heads' columns at once, but only the first half of each: not an
  // interval of the 64.
  REQUIRE_FALSE(window({16, 64}, {16, 8, 8}, {0, 3, 0}, {16, 2, 4}));
  // Size-1 dims on either side (an unsqueeze).
  auto unsq = window({2, 16, 8}, {2, 1, 16, 8}, {1, 0, 0, 0}, {1, 1, 16, 8});
  REQUIRE(unsq);
  REQUIRE(unsq->first == Dims{1, 0, 0});
  REQUIRE(unsq->second == Dims{1, 16, 8});
  auto sq = window({2, 1, 16, 8}, {2, 16, 8}, {1, 4, 0}, {1, 4, 8});
  REQUIRE(sq);
  REQUIRE(sq->first == Dims{1, 0, 4, 0});
  REQUIRE(sq->second == Dims{1, 1, 4, 8});
}
