//===- CostTest.cpp - the one cost model ----------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Target/Cost.h"
#include "dfa/Target/Target.h"

#include <catch2/catch.hpp>

using namespace dfa::target;

namespace {
/// A two-level machine: `far` (dram, chip-wide) and `near` (a per-unit
/// scratchpad), with a fabric and chip-to-chip links; `compiler` is the
/// description's compiler object.
Target machine(const std::string &family, const std::string &compiler = "") {
  auto num = [](double v) {
    return "{\"value\": " + std::to_string(v) + ", \"source\": \"test\"}";
  };
  std::string text =
      "{\"schema\": \"dfa.target/1\", \"name\": \"m\", \"family\": \"" +
      family + "\", \"clock_hz\": " + num(1e9) +
      ", \"compute\": {\"unit_name\": \"core\", \"units\": " + num(8) +
      ", \"peak_flops\": {\"f32\": " + num(8e12) + "}},"
      " \"memory\": ["
      "{\"name\": \"far\", \"kind\": \"dram\", \"scope\": \"chip\", "
      "\"managed\": \"software\", \"capacity_bytes\": " + num(1e9) +
      ", \"bandwidth_bytes_per_s\": " + num(1e11) +
      ", \"latency_ns\": " + num(500) + "},"
      "{\"name\": \"near\", \"kind\": \"scratchpad\", \"scope\": \"unit\", "
      "\"managed\": \"software\", \"capacity_bytes\": " + num(1e6) +
      ", \"bandwidth_bytes_per_s\": " + num(3e10) +
      ", \"latency_ns\": " + num(2) + "}],"
      " \"network\": {\"on_chip\": {\"kind\": \"mesh\", "
      "\"bandwidth_bytes_per_s\": " + num(1e13) + ", \"latency_ns\": " +
      num(10) + "}, \"chip_to_chip\": {\"kind\": \"c2c\", "
      "\"bandwidth_bytes_per_s\": " + num(1e10) + ", \"latency_ns\": " +
      num(700) + "}},"
      " \"overheads\": {\"launch_ns\": " + num(4000) + ", \"dma_setup_ns\": " +
      num(50) + ", \"sync_ns\": " + num(100) + "}" + compiler + "}";
  std::string error;
  std::optional<Target> t = parseTarget("m.json", text, error);
  INFO(error);
  REQUIRE(t);
  return *t;
}
} // namespace

TEST_CASE("a copy between levels is bounded by the slower side",
          "[target][cost]") {
  Target t = machine("cpu");
  const MemoryLevel &far = *t.level("far"), &near = *t.level("near");
  // One unit's scratchpad (30 GB/s) is slower than the DRAM (100 GB/s):
  // its bandwidth bounds the copy; four units' (120 GB/s) are not.
  TransferPath one = transferPath(t, far, 1, near, 1, false);
  CHECK(one.kind == TransferPath::Memory);
  CHECK(one.level == &near);
  CHECK_FALSE(one.sourceBound);
  CHECK(one.bandwidth == Approx(3e10));
  TransferPath four = transferPath(t, far, 1, near, 4, false);
  CHECK(four.level == &far);
  CHECK(four.sourceBound);
  CHECK(four.bandwidth == Approx(1e11));
  // Latency is the farther memory's, whichever side bounds the bandwidth;
  // a DRAM endpoint makes it a DMA that pays the setup.
  CHECK(one.latencyNs == Approx(500));
  CHECK(one.dma);
  CHECK(transferSeconds(t, four, 1e6) == Approx((50 + 500) * 1e-9 + 1e6 / 1e11));
  // Symmetric.
  TransferPath back = transferPath(t, near, 4, far, 1, false);
  CHECK(back.bandwidth == Approx(four.bandwidth));
  CHECK(back.latencyNs == Approx(four.latencyNs));
}

TEST_CASE("copies within a level use the fabric, between chips the link",
          "[target][cost]") {
  Target t = machine("cpu");
  const MemoryLevel &far = *t.level("far"), &near = *t.level("near");
  TransferPath fabric = transferPath(t, near, 2, near, 3, false);
  CHECK(fabric.kind == TransferPath::Fabric);
  CHECK(fabric.bandwidth == Approx(1e13));
  CHECK(fabric.latencyNs == Approx(10));
  CHECK_FALSE(fabric.dma);
  CHECK(transferSeconds(t, fabric, 1e3) == Approx(10e-9 + 1e3 / 1e13));
  TransferPath link = transferPath(t, near, 1, near, 1, true);
  CHECK(link.kind == TransferPath::Link);
  CHECK(link.bandwidth == Approx(1e10));
  CHECK(link.latencyNs == Approx(700));
  // A DRAM endpoint pays the DMA setup on a link too.
  CHECK(transferPath(t, far, 1, far, 1, true).dma);
}

TEST_CASE("a kernel's share of the chip and its overhead follow the "
          "target's properties", "[target][cost]") {
  Target shared = machine("cpu");
  CHECK(unitShare(shared, 2) == Approx(0.25));
  CHECK(unitShare(shared, 0) == Approx(0.125)); // at least one unit
  CHECK(unitShare(shared, 100) == Approx(1.0));
  CHECK(bandwidthOf(*shared.level("near"), 4) == Approx(1.2e11));
  CHECK(bandwidthOf(*shared.level("far"), 4) == Approx(1e11));
  // Dynamic plans launch every kernel; static plans synchronize.
  CHECK(kernelOverheadSeconds(shared) == Approx(4000e-9));
  Target staticPlan = machine("cpu", ", \"compiler\": {\"plan\": \"static\"}");
  CHECK(kernelOverheadSeconds(staticPlan) == Approx(100e-9));
  // Under chip partition a kernel's units are functional slices: it has the
  // whole chip's compute.
  Target partitioned =
      machine("cpu", ", \"compiler\": {\"placement\": \"chip-partition\"}");
  CHECK(unitShare(partitioned, 1) == Approx(1.0));
  CHECK(kernelUnits(partitioned, 1) == Approx(8));
  Work w;
  w.flops = 8e12;
  w.units = 1;
  CHECK(kernelTime(partitioned, w).compute == Approx(1.0));
  CHECK(kernelTime(shared, w).compute == Approx(8.0));
}
