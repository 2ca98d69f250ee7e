//===- ChunkTest.cpp - splitting kernels into chunks ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/GraphToSched/Chunk.h"

#include "dfa/Driver/Driver.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

namespace {
/// Parses `body` as the one kernel of a module and returns it.
struct Kernel {
  std::unique_ptr<MLIRContext> ctx = driver::createContext();
  OwningOpRef<ModuleOp> module;
  KernelOp k;

  explicit Kernel(const std::string &text) {
    module = parseSourceString<ModuleOp>(text, ctx.get());
    REQUIRE(module);
    module->walk([&](KernelOp op) { k = op; });
    REQUIRE(k);
  }
  /// The split dims of the kernel's inputs for a split of output dim `d`.
  std::optional<std::vector<int64_t>> inputs(int64_t d) {
    std::optional<KernelSplit> s = splitKernel(k, d);
    if (!s)
      return std::nullopt;
    std::vector<int64_t> dims;
    for (BlockArgument arg : k.getBlock().getArguments())
      dims.push_back(s->dim(arg));
    return dims;
  }
};

using Dims = std::vector<int64_t>;
} // namespace

TEST_CASE("matmul with a bias epilogue splits rows or columns", "[chunk]") {
  Kernel k(R"(
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = graph.kernel "fc" kind "matmul"(%x, %w, %b) : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<8x32xf32> {
  ^bb0(%a: tensor<8x16xf32>, %c: tensor<16x32xf32>, %d: tensor<32xf32>):
    %1 = graph.matmul %a, %c : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %2 = graph.add %1, %d : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
    graph.yield %2 : tensor<8x32xf32>
  }
  return %0 : tensor<8x32xf32>
})");
  // Rows: x split, weight and bias whole. Columns: weight and bias split.
  REQUIRE(k.inputs(0) == Dims{0, -1, -1});
  REQUIRE(k.inputs(1) == Dims{-1, 1, 0});
}

TEST_CASE("softmax splits off its axis only", "[chunk]") {
  Kernel k(R"(
func.func @main(%x: tensor<4x6x8xf32>) -> tensor<4x8x6xf32> {
  %0 = graph.kernel "sm" kind "reduction"(%x) : (tensor<4x6x8xf32>) -> tensor<4x8x6xf32> {
  ^bb0(%a: tensor<4x6x8xf32>):
    %1 = graph.softmax %a {axis = 2 : i64} : tensor<4x6x8xf32>
    %2 = graph.transpose %1 {perm = array<i64: 0, 2, 1>} : (tensor<4x6x8xf32>) -> tensor<4x8x6xf32>
    graph.yield %2 : tensor<4x8x6xf32>
  }
  return %0 : tensor<4x8x6xf32>
})");
  REQUIRE(k.inputs(0) == Dims{0});
  // Output dim 1 is the softmax axis (through the transpose): no split.
  REQUIRE(!k.inputs(1));
  REQUIRE(k.inputs(2) == Dims{1});
}

TEST_CASE("reshape keeps a dim only when it survives whole", "[chunk]") {
  Kernel k(R"(
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = graph.kernel "r" kind "data"(%x) : (tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  ^bb0(%a: tensor<2x3x4xf32>):
    %1 = graph.reshape %a : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    graph.yield %1 : tensor<6x4xf32>
  }
  return %0 : tensor<6x4xf32>
})");
  // Rows of 6 merge two input dims: not one block. The 4 survive.
  REQUIRE(!k.inputs(0));
  REQUIRE(k.inputs(1) == Dims{2});
}

TEST_CASE("a value needed two ways cannot be split", "[chunk]") {
  Kernel k(R"(
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = graph.kernel "t" kind "data"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
  ^bb0(%a: tensor<8x8xf32>):
    %1 = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = graph.add %1, %a : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    graph.yield %2 : tensor<8x8xf32>
  }
  return %0 : tensor<8x8xf32>
})");
  // a + a^T: row i of the result needs row i and column i of a.
  REQUIRE(!k.inputs(0));
  REQUIRE(!k.inputs(1));
}

TEST_CASE("causal attention splits heads, not query rows", "[chunk]") {
  Kernel k(R"(
func.func @main(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = graph.kernel "a" kind "attention"(%q, %k, %v) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  ^bb0(%a: tensor<2x4x8xf32>, %b: tensor<2x4x8xf32>, %c: tensor<2x4x8xf32>):
    %1 = graph.attention %a, %b, %c {causal = true, scale = 0.5 : f64} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    graph.yield %1 : tensor<2x4x8xf32>
  }
  return %0 : tensor<2x4x8xf32>
})");
  REQUIRE(k.inputs(0) == Dims{0, 0, 0});
  REQUIRE(!k.inputs(1));
  REQUIRE(!k.inputs(2));
}

TEST_CASE("chunk types replace one dim", "[chunk]") {
  MLIRContext ctx;
  auto t = RankedTensorType::get({8, 32}, Float32Type::get(&ctx));
  REQUIRE(chunkType(t, 1, 5).getShape() == ArrayRef<int64_t>{8, 5});
  REQUIRE(chunkType(t, -1, 5) == t);
}

TEST_CASE("an expand splits its kept dims and keeps its broadcast ones whole",
          "[chunk]") {
  // GQA's repeat of the KV heads taken into its reader's kernel: a chunk of
  // the KV heads or the keys reads that chunk of the cache; a chunk of the
  // repeat dim (size 1 in the input) reads the cache whole.
  Kernel k(R"(
func.func @main(%c: tensor<1x2x1x4x8xf32>, %b: tensor<1x2x2x4x8xf32>) -> tensor<1x2x2x4x8xf32> {
  %0 = graph.kernel "gqa" kind "pointwise"(%c, %b) : (tensor<1x2x1x4x8xf32>, tensor<1x2x2x4x8xf32>) -> tensor<1x2x2x4x8xf32> {
  ^bb0(%x: tensor<1x2x1x4x8xf32>, %y: tensor<1x2x2x4x8xf32>):
    %1 = graph.expand %x : (tensor<1x2x1x4x8xf32>) -> tensor<1x2x2x4x8xf32>
    %2 = graph.add %1, %y : (tensor<1x2x2x4x8xf32>, tensor<1x2x2x4x8xf32>) -> tensor<1x2x2x4x8xf32>
    graph.yield %2 : tensor<1x2x2x4x8xf32>
  }
  return %0 : tensor<1x2x2x4x8xf32>
})");
  REQUIRE(k.inputs(1) == Dims{1, 1});
  REQUIRE(k.inputs(2) == Dims{-1, 2});
  REQUIRE(k.inputs(3) == Dims{3, 3});
}

TEST_CASE("a grouped product splits its columns, not its rows", "[chunk]") {
  Kernel k(R"(
func.func @main(%x: tensor<8x16xf32>, %w: tensor<4x16x32xf32>, %o: tensor<4xi32>) -> tensor<8x32xf32> {
  %0 = graph.kernel "moe" kind "matmul"(%x, %w, %o) : (tensor<8x16xf32>, tensor<4x16x32xf32>, tensor<4xi32>) -> tensor<8x32xf32> {
  ^bb0(%a: tensor<8x16xf32>, %c: tensor<4x16x32xf32>, %d: tensor<4xi32>):
    %1 = graph.grouped_matmul %a, %c, %d : (tensor<8x16xf32>, tensor<4x16x32xf32>, tensor<4xi32>) -> tensor<8x32xf32>
    graph.yield %1 : tensor<8x32xf32>
  }
  return %0 : tensor<8x32xf32>
})");
  // The offsets number rows of the whole: rows stay together. Columns cut
  // every expert's matrix.
  REQUIRE(!k.inputs(0));
  REQUIRE(k.inputs(1) == Dims{-1, 2, -1});
}
