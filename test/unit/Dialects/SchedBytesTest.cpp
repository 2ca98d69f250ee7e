//===- SchedBytesTest.cpp - the bytes a kernel moves, per level -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Driver/Driver.h"

#include "dialects/Sched/SchedOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace mlir;
using namespace dfa;

namespace {
/// Two kernels writing the column halves of one [4, 640] f32 buffer in the
/// host's memory, stored in 320-element vectors (the LPU's layout), from a
/// [4, 320] input in SRAM; a third writes a whole [4, 100] buffer there
/// (100 columns stored in one 320-element vector).
const char *kProgram = R"(
sched.program @main target <name = "test-lpu", static_plan = false, units = 6, levels = {SRAM = 100000 : i64, host = 100000 : i64}> {
^bb0(%in: !sched.buffer<"SRAM", tensor<4x320xf32>>):
  %a = sched.alloc {offset = 0, size = 10240, layout = #graph.layout<vector 320>} : !sched.buffer<"host", tensor<4x640xf32>>
  %b = sched.alloc {offset = 10240, size = 5120, layout = #graph.layout<vector 320>} : !sched.buffer<"host", tensor<4x100xf32>>
  %t0 = sched.compute "left" ins(%in : !sched.buffer<"SRAM", tensor<4x320xf32>>) outs(%a : !sched.buffer<"host", tensor<4x640xf32>>) attributes {out_offsets = array<i64: 0, 0>} {
  ^bb0(%x: tensor<4x320xf32>):
    %y = graph.relu %x : tensor<4x320xf32>
    sched.yield %y : tensor<4x320xf32>
  }
  %t1 = sched.compute "right" ins(%in : !sched.buffer<"SRAM", tensor<4x320xf32>>) outs(%a : !sched.buffer<"host", tensor<4x640xf32>>) attributes {out_offsets = array<i64: 0, 320>} {
  ^bb0(%x: tensor<4x320xf32>):
    %y = graph.neg %x : tensor<4x320xf32>
    sched.yield %y : tensor<4x320xf32>
  }
  %t2 = sched.compute "narrow" ins(%in : !sched.buffer<"SRAM", tensor<4x320xf32>>) outs(%b : !sched.buffer<"host", tensor<4x100xf32>>) {
  ^bb0(%x: tensor<4x320xf32>):
    %y = graph.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 100>, axes = array<i64: 0, 1>, steps = array<i64: 1, 1>} : (tensor<4x320xf32>) -> tensor<4x100xf32>
    sched.yield %y : tensor<4x100xf32>
  }
  sched.return %a, %b : !sched.buffer<"host", tensor<4x640xf32>>, !sched.buffer<"host", tensor<4x100xf32>>
}
)";
} // namespace

TEST_CASE("a kernel writing a region moves the region's bytes", "[sched]") {
  std::unique_ptr<MLIRContext> ctx = driver::createContext();
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(kProgram, ctx.get());
  REQUIRE(m);
  REQUIRE(succeeded(verify(*m)));
  SmallVector<sched::ComputeOp> ops;
  m->walk([&](sched::ComputeOp c) { ops.push_back(c); });
  REQUIRE(ops.size() == 3);
  auto [left, right, narrow] = std::tie(ops[0], ops[1], ops[2]);

  // The region each writes, and whether it is the whole buffer.
  REQUIRE(sched::writtenType(left, 0).getShape() == ArrayRef<int64_t>{4, 320});
  REQUIRE_FALSE(sched::writesWhole(right, 0));
  REQUIRE(sched::writesWhole(narrow, 0));

  // Moved bytes: the input, then the region (4 x 320 f32), not the buffer.
  SmallVector<double> moved = sched::movedBytes(right);
  REQUIRE(moved.size() == 2);
  CHECK(moved[0] == 4 * 320 * 4);
  CHECK(moved[1] == 4 * 320 * 4);

  // Host bytes: a region's share of the stored image, so the halves add
  // up to the buffer's 10,240 B; a whole buffer counts its padding (100
  // columns in a 320-element vector: 5,120 B).
  CHECK(sched::hostBytes(left, "host") + sched::hostBytes(right, "host") == 10240);
  CHECK(sched::hostBytes(narrow, "host") == 5120);
  CHECK(sched::hostBytes(narrow, "SRAM") == 0);

  // Per level: the SRAM input, then the host's stored bytes; with no host
  // level named, the host buffer counts its moved bytes like any other.
  auto levels = sched::levelBytes(narrow, "host");
  REQUIRE(levels.size() == 2);
  CHECK(levels[0].first == "SRAM");
  CHECK(levels[0].second == 4 * 320 * 4);
  CHECK(levels[1].first == "host");
  CHECK(levels[1].second == 5120);
  auto plain = sched::levelBytes(narrow, "");
  REQUIRE(plain.size() == 2);
  CHECK(plain[1].second == 4 * 100 * 4);
}
