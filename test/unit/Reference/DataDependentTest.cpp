//===- DataDependentTest.cpp - NonZero and NonMaxSuppression ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Reference/DataDependent.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace dfa::ref;

TEST_CASE("NonZero lists indices row-major, NaN included", "[reference][nonzero]") {
  Tensor x = Tensor::fromDoubles(DType::F32, {2, 3}, {0, 2, 0, -1, 0, NAN});
  Tensor y = nonZero(x);
  REQUIRE(y.shape() == llvm::ArrayRef<int64_t>{2, 3});
  CHECK(y.toInts() == std::vector<int64_t>{0, 1, 1, 1, 0, 2});
  // A scalar has no dims to index (the ONNX reference's [0, count]).
  CHECK(nonZero(Tensor::fromDoubles(DType::F32, {}, {5})).shape() ==
        llvm::ArrayRef<int64_t>{0, 1});
  CHECK(nonZero(Tensor::fromDoubles(DType::F32, {}, {0})).shape() ==
        llvm::ArrayRef<int64_t>{0, 0});
}

TEST_CASE("NonMaxSuppression keeps boxes by score unless a kept one overlaps",
          "[reference][nms]") {
  // The ONNX suite's six boxes (corners, [y1, x1, y2, x2]): three near
  // x=0 stacked by 0.1 and 0.1 apart, three far away.
  Tensor boxes = Tensor::fromDoubles(
      DType::F32, {1, 6, 4},
      {0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, -0.1, 1, 0.9,
       0, 10, 1, 11, 0, 10.1, 1, 11.1, 0, 100, 1, 101});
  Tensor scores = Tensor::fromDoubles(DType::F32, {1, 1, 6},
                                      {0.9, 0.75, 0.6, 0.95, 0.5, 0.3});
  NmsOptions o;
  o.maxPerClass = 3;
  o.iouThreshold = 0.5;
  o.scoreThreshold = 0.0;
  std::string err;
  Tensor y = nonMaxSuppression(boxes, scores, o, err);
  REQUIRE(err.empty());
  REQUIRE(y.shape() == llvm::ArrayRef<int64_t>{3, 3});
  CHECK(y.toInts() == std::vector<int64_t>{0, 0, 3, 0, 0, 0, 0, 0, 5});
  // A score threshold drops the low ones; max 0 keeps nothing.
  o.scoreThreshold = 0.4;
  CHECK(nonMaxSuppression(boxes, scores, o, err).shape()[0] == 2);
  o.maxPerClass = 0;
  CHECK(nonMaxSuppression(boxes, scores, o, err).shape()[0] == 0);
  // Ties go to the lower index; a flipped diagonal is the same box.
  Tensor two = Tensor::fromDoubles(DType::F32, {1, 2, 4}, {1, 1, 0, 0, 0, 0, 1, 1});
  Tensor same = Tensor::fromDoubles(DType::F32, {1, 1, 2}, {0.5, 0.5});
  o = NmsOptions();
  o.maxPerClass = 2;
  o.iouThreshold = 0.5;
  Tensor t = nonMaxSuppression(two, same, o, err);
  CHECK(t.toInts() == std::vector<int64_t>{0, 0, 0});
  // Shapes that do not fit are an error.
  nonMaxSuppression(two, Tensor::fromDoubles(DType::F32, {1, 1, 3}, {0, 0, 0}), o, err);
  CHECK(!err.empty());
}

TEST_CASE("Unique: sorted or by first occurrence, flat or along an axis",
          "[reference][unique]") {
  Tensor x = Tensor::fromDoubles(DType::F32, {6}, {2, 1, 1, 3, 4, 3});
  UniqueResult s = unique(x, std::nullopt, /*sorted=*/true);
  CHECK(s.y.toDoubles() == std::vector<double>{1, 2, 3, 4});
  CHECK(s.indices.toInts() == std::vector<int64_t>{1, 0, 3, 4});
  CHECK(s.inverse.toInts() == std::vector<int64_t>{1, 0, 0, 2, 3, 2});
  CHECK(s.counts.toInts() == std::vector<int64_t>{2, 1, 2, 1});
  UniqueResult f = unique(x, std::nullopt, /*sorted=*/false);
  CHECK(f.y.toDoubles() == std::vector<double>{2, 1, 3, 4});
  CHECK(f.indices.toInts() == std::vector<int64_t>{0, 1, 3, 4});
  CHECK(f.inverse.toInts() == std::vector<int64_t>{0, 1, 1, 2, 3, 2});
  // Rows of a matrix (axis 0): [1 0 0] twice and [2 3 4].
  Tensor m = Tensor::fromDoubles(DType::I32, {3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4});
  UniqueResult rows = unique(m, 0, true);
  REQUIRE(rows.y.shape() == llvm::ArrayRef<int64_t>{2, 3});
  CHECK(rows.y.toInts() == std::vector<int64_t>{1, 0, 0, 2, 3, 4});
  CHECK(rows.counts.toInts() == std::vector<int64_t>{2, 1});
  // Columns (axis 1): [1 1 2], [0 0 3], [0 0 4], sorted lexicographically.
  UniqueResult cols = unique(m, 1, true);
  REQUIRE(cols.y.shape() == llvm::ArrayRef<int64_t>{3, 3});
  CHECK(cols.y.toInts() == std::vector<int64_t>{0, 0, 1, 0, 0, 1, 3, 4, 2});
  CHECK(cols.inverse.toInts() == std::vector<int64_t>{2, 0, 1});
  // NaN sorts last; flat, the NaNs are one value (numpy 2: [1, 3, nan]).
  Tensor n = Tensor::fromDoubles(DType::F32, {4}, {3, NAN, 1, NAN});
  UniqueResult nu = unique(n, std::nullopt, true);
  REQUIRE(nu.y.numElements() == 3);
  CHECK(nu.indices.toInts() == std::vector<int64_t>{2, 0, 1});
  CHECK(nu.inverse.toInts() == std::vector<int64_t>{1, 2, 0, 2});
  CHECK(nu.counts.toInts() == std::vector<int64_t>{1, 1, 2});
  // Along an axis, rows holding a NaN stay distinct.
  Tensor rn = Tensor::fromDoubles(DType::F32, {2, 1}, {NAN, NAN});
  CHECK(unique(rn, 0, true).y.numElements() == 2);
}
