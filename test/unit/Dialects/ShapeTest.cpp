//===- ShapeTest.cpp - broadcasting and window arithmetic -------------------===//

#include "dialects/Graph/GraphOps.h"

#include <catch2/catch.hpp>

using namespace dfa::graph;

TEST_CASE("numpy broadcasting", "[shape]") {
  auto s = broadcastShapes({2, 1, 4}, {3, 1});
  REQUIRE(succeeded(s));
  REQUIRE((*s == llvm::SmallVector<int64_t>{2, 3, 4}));
  REQUIRE(succeeded(broadcastShapes({}, {5})));
  REQUIRE(failed(broadcastShapes({2, 3}, {4})));
  auto z = broadcastShapes({0, 1}, {1, 3});
  REQUIRE((*z == llvm::SmallVector<int64_t>{0, 3}));
}

TEST_CASE("window output sizes", "[shape]") {
  // ResNet stem: 224, k7, s2, p3 -> 112.
  REQUIRE(windowOutputSize(224, 7, 2, 3, 3, 1, false) == 112);
  // Max pool k3 s2 p1 on 112 -> 56.
  REQUIRE(windowOutputSize(112, 3, 2, 1, 1, 1, false) == 56);
  // ceil mode adds the partial window ...
  REQUIRE(windowOutputSize(5, 2, 2, 0, 0, 1, true) == 3);
  REQUIRE(windowOutputSize(5, 2, 2, 0, 0, 1, false) == 2);
  // ... but not one that starts in the end padding.
  REQUIRE(windowOutputSize(4, 2, 2, 0, 1, 1, true) == 2);
  // Dilation widens the window.
  REQUIRE(windowOutputSize(7, 3, 1, 0, 0, 2, false) == 3);
}
