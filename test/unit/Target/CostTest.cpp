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
/// A sourced number of a description.
std::string num(double v) {
  return "{\"value\": " + std::to_string(v) + ", \"source\": \"test\"}";
}

/// The description `text` (of `file`), parsed; the test fails if it does not.
Target parsed(const std::string &file, const std::string &text) {
  std::string error;
  std::optional<Target> t = parseTarget(file, text, error);
  INFO(error);
  REQUIRE(t);
  return *t;
}

/// A two-level machine: `far` (dram, chip-wide) and `near` (a per-unit
/// scratchpad), with a fabric and chip-to-chip links; `compiler` is the
/// description's compiler object.
Target machine(const std::string &family, const std::string &compiler = "") {
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
  return parsed("m.json", text);
}

/// A one-level chip whose only network is `chipToChip` (the JSON object's
/// members).
std::string linkedChip(const std::string &chipToChip) {
  return "{\"schema\": \"dfa.target/1\", \"name\": \"m\", \"family\": \"cpu\", "
         "\"clock_hz\": " + num(1e9) +
         ", \"compute\": {\"unit_name\": \"core\", \"units\": " + num(8) +
         ", \"peak_flops\": {\"f32\": " + num(8e12) + "}},"
         " \"memory\": [{\"name\": \"far\", \"kind\": \"dram\", \"scope\": "
         "\"chip\", \"managed\": \"software\", \"capacity_bytes\": " + num(1e9) +
         ", \"bandwidth_bytes_per_s\": " + num(1e11) + ", \"latency_ns\": " +
         num(500) + "}], \"network\": {\"chip_to_chip\": {" + chipToChip +
         "}}, \"overheads\": {\"launch_ns\": " + num(0) +
         ", \"dma_setup_ns\": " + num(0) + ", \"sync_ns\": " + num(0) + "}}";
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

namespace {
/// A GPU of `sms` SMs at 1 GHz, 1 TFLOP/s of bf16 (0.25 of IEEE f32, on
/// its CUDA cores) per SM, 128 KiB of shared
/// memory per CTA, 64K registers per SM, an L2 and an HBM of the given
/// bandwidths, and one 128x128 CTA tile (`tiles` overrides the shapes);
/// `mnMajorBits`, when given, is `compute.matrix_unit.mn_major_bits`;
/// `expRate`, when positive, `compute.peak_flops_vector.exp`.
Target gpu(int sms, double l2Bw, double hbmBw,
           const std::string &tiles = "[[128, 128]]",
           const std::string &mnMajorBits = "", double expRate = 0) {
  std::string unit =
      mnMajorBits.empty()
          ? ""
          : ", \"matrix_unit\": {\"m\": " + num(64) + ", \"n\": " + num(256) +
                ", \"mn_major_bits\": {\"value\": " + mnMajorBits +
                ", \"source\": \"test\"}}";
  if (expRate > 0)
    unit += ", \"peak_flops_vector\": {\"exp\": " + num(expRate) + "}";
  std::string text =
      "{\"schema\": \"dfa.target/1\", \"name\": \"g\", \"family\": \"gpu\", "
      "\"clock_hz\": " + num(1e9) +
      ", \"compute\": {\"unit_name\": \"SM\", \"units\": " + num(sms) +
      ", \"peak_flops\": {\"bf16\": " + num(sms * 1e12) +
      ", \"f32\": " + num(sms * 2.5e11) + "},"
      " \"cta_tiles\": {\"shapes\": " + tiles +
      ", \"k_bytes\": 128, \"cluster\": 1, \"source\": \"test\"}" + unit + "},"
      " \"memory\": ["
      "{\"name\": \"HBM\", \"kind\": \"dram\", \"scope\": \"chip\", "
      "\"managed\": \"hardware\", \"capacity_bytes\": " + num(1e10) +
      ", \"bandwidth_bytes_per_s\": " + num(hbmBw) +
      ", \"latency_ns\": " + num(500) + "},"
      "{\"name\": \"L2\", \"kind\": \"cache\", \"scope\": \"chip\", "
      "\"managed\": \"hardware\", \"capacity_bytes\": " + num(5e7) +
      ", \"bandwidth_bytes_per_s\": " + num(l2Bw) +
      ", \"latency_ns\": " + num(200) + "},"
      "{\"name\": \"SMEM\", \"kind\": \"scratchpad\", \"scope\": \"unit\", "
      "\"managed\": \"software\", \"capacity_bytes\": " + num(131072) +
      ", \"bandwidth_bytes_per_s\": " + num(1e11) +
      ", \"latency_ns\": " + num(20) + "}],"
      " \"layout\": {\"cta_tile\": [128, 128, 64], \"mma_tile\": [64, 8, 16]},"
      " \"limits\": {\"smem_bytes_per_block_max\": " + num(131072) +
      ", \"registers_per_unit\": " + num(65536) + "},"
      " \"overheads\": {\"launch_ns\": " + num(1000) + ", \"dma_setup_ns\": " +
      num(50) + ", \"sync_ns\": " + num(100) + "}}";
  return parsed("g.json", text);
}

Work gemm(int64_t m, int64_t n, int64_t k) {
  Work w;
  w.matrix = true;
  w.dtype = "bf16";
  w.elementBytes = 2;
  w.m = m;
  w.n = n;
  w.k = k;
  w.flops = 2.0 * double(m) * double(n) * double(k);
  return w;
}
} // namespace

TEST_CASE("the tiled GEMM model: one wave of 128x128 tiles, compute-bound",
          "[target][cost][gpu]") {
  // 4 SMs, 4 tiles of 128x128, K = 4096: 64 k-steps of 128x128x64 MMAs,
  // 2 MFLOP each at 1 TFLOP/s per SM = 2.097 us a step; the bandwidths are
  // ample. Fill: 500 ns + 4 CTAs x 32 KiB over the L2; epilogue: 4 tiles
  // of 32 KiB stored over the HBM.
  Target t = gpu(4, 1e15, 1e15);
  KernelTime k = kernelTime(t, gemm(256, 256, 4096));
  double step = 2.0 * 128 * 128 * 64 / 1e12;
  double fill = 500e-9 + 4 * 256 * 64 * 2 / 1e15;
  double epilogue = 4 * 128 * 128 * 2 / 1e15;
  CHECK(k.compute == Approx(64 * step + fill + epilogue).epsilon(1e-9));
  CHECK(k.seconds() == Approx(k.compute));
}

TEST_CASE("the tiled GEMM model quantizes tiles and waves",
          "[target][cost][gpu]") {
  Target t = gpu(4, 1e15, 1e15);
  // 4 tiles fill one wave; M = 257 makes 6 tiles: two waves of 64 k-steps,
  // or, split in two along K, 12 CTAs in three waves of 32 steps, which the
  // model prefers: 1.5 times the time, not twice.
  double one = kernelTime(t, gemm(256, 256, 4096)).seconds();
  double two = kernelTime(t, gemm(257, 256, 4096)).seconds();
  CHECK(two == Approx(1.5 * one).epsilon(0.03));
  // Within a tile the time does not change.
  CHECK(kernelTime(t, gemm(250, 250, 4096)).seconds() == Approx(one));
}

TEST_CASE("the tiled GEMM model splits K when the output has few tiles",
          "[target][cost][gpu]") {
  // One output tile on 8 SMs: split 8 ways, each CTA walks an eighth of K,
  // plus the fp32 partial tiles written and read back through the L2.
  Target t = gpu(8, 1e15, 1e15);
  double split = kernelTime(t, gemm(128, 128, 8192)).seconds();
  double step = 2.0 * 128 * 128 * 64 / 1e12;
  CHECK(split < 128 * step / 7);
  CHECK(split > 128 * step / 8);
}

TEST_CASE("a split tile's last CTA reduces the partial tiles itself",
          "[target][cost][gpu]") {
  // One 128x128 tile, K = 8192 (128 k-steps of 2.1 us), on 8 SMs whose L2
  // gives each SM 0.1 TB/s: split 8 ways (16 steps a CTA), the slices
  // write their fp32 partial tiles and the tile's last CTA reads the other
  // seven back, 8 x 64 KiB through its share of the L2 (5.2 us), after one
  // L2 round trip. The HBM is slow enough (1 TB/s) that the epilogue
  // pins one stored tile, not eight.
  Target t = gpu(8, 8e11, 1e12);
  double step = 2.0 * 128 * 128 * 64 / 1e12;
  double fixup = 8 * 128 * 128 * 4 / 1e11 + 200e-9;
  double fill = 500e-9 + 8 * 256 * 64 * 2 / 8e11;
  double epilogue = 128 * 128 * 2 / 1e12;
  CHECK(kernelTime(t, gemm(128, 128, 8192)).seconds() ==
        Approx(16 * step + fixup + epilogue + fill).epsilon(1e-9));
  // K = 512 is 8 steps: split in two it saves 4 steps (8.4 us). With 0.1
  // TB/s of L2 per SM the fixup costs 2 x 0.66 + 0.2 us, and K splits;
  // with 10 GB/s it would cost 13.3 us, and K stays whole (the whole L2's
  // bandwidth, 80 GB/s, moves both partial tiles in 1.6 us: charged
  // against it, the split would still win).
  double split2 = 4 * step + 2 * 128 * 128 * 4 / 1e11 + 200e-9 + 500e-9 +
                  2 * 256 * 64 * 2 / 8e11 + epilogue;
  CHECK(kernelTime(t, gemm(128, 128, 512)).seconds() ==
        Approx(split2).epsilon(1e-9));
  Target slowL2 = gpu(8, 8e10, 1e12);
  double whole = 8 * step + 500e-9 + 256 * 64 * 2 / 8e10 + epilogue;
  CHECK(kernelTime(slowL2, gemm(128, 128, 512)).seconds() ==
        Approx(whole).epsilon(1e-9));
}

TEST_CASE("an IEEE f32 product of few rows takes a tile of its rows",
          "[target][cost][gpu]") {
  // A decode step's GEMV, 2 x 4096 by 4096 x 1024 in f32 on 8 SMs: the
  // CUDA cores have no MMA shape to fill, so the tile is the product's 2
  // rows (not 128, 64 times the FMAs: 537 us at 2 TFLOP/s) and the kernel
  // streams the 16 MiB weight at the HBM's 1 TB/s.
  Target t = gpu(8, 1e15, 1e12);
  Work w = gemm(2, 1024, 4096);
  w.dtype = "f32";
  w.elementBytes = 4;
  std::optional<GemmTiling> g = gemmTiling(t, w);
  REQUIRE(g);
  CHECK(g->rows == 2);
  double weight = 4096.0 * 1024 * 4 / 1e12;
  CHECK(g->time.seconds() > weight);
  CHECK(g->time.seconds() < 1.2 * weight);
  // Three rows take a tile of four; bf16 on the tensor cores pads to the
  // tile (its MMAs have a shape).
  w.m = 3;
  CHECK(gemmTiling(t, w)->rows == 4);
  CHECK(gemmTiling(t, gemm(2, 1024, 4096))->rows == 128);
}

TEST_CASE("the tiled GEMM model is bound by the L2 when panels outrun it",
          "[target][cost][gpu]") {
  // 1 TB/s of L2 for 4 SMs each loading (128 + 128) x 64 x 2 B = 32 KiB per
  // 2.1 us step: 62 GB/s needed per SM, ample; at 10 GB/s of L2 the steps
  // take 4 x 32 KiB / 10 GB/s = 13.1 us each and the kernel is memory-bound.
  Target slow = gpu(4, 1e10, 1e15);
  KernelTime k = kernelTime(slow, gemm(256, 256, 4096));
  double step = 4 * 256 * 64 * 2 / 1e10;
  CHECK(k.memory > k.compute);
  CHECK(k.seconds() > 64 * step);
  CHECK(k.seconds() < 64 * step * 1.1);
  // A tile that does not fit shared memory in two stages is never chosen:
  // 512x512x64 x 2 B = 128 KiB a stage.
  Target big = gpu(4, 1e15, 1e15, "[[512, 512], [128, 128]]");
  CHECK(kernelTime(big, gemm(256, 256, 4096)).seconds() ==
        Approx(kernelTime(gpu(4, 1e15, 1e15), gemm(256, 256, 4096)).seconds()));
}

TEST_CASE("the tiled GEMM model waits for an operand it must transpose",
          "[target][cost][gpu]") {
  // 64 k-steps of 2.1 us MMAs (the compute-bound case above). An operand
  // stored MN-major at a width the matrix unit reads transposed costs
  // nothing; at another width every k-step waits one L2 round trip (200 ns)
  // for it, off the copy pipeline.
  Work w = gemm(256, 256, 4096);
  double base = kernelTime(gpu(4, 1e15, 1e15), w).seconds();
  w.mnMajorOperand = true;
  CHECK(kernelTime(gpu(4, 1e15, 1e15), w).seconds() == Approx(base));
  CHECK(kernelTime(gpu(4, 1e15, 1e15, "[[128, 128]]", "[16]"), w).seconds() ==
        Approx(base));
  KernelTime slow = kernelTime(gpu(4, 1e15, 1e15, "[[128, 128]]", "[8, 32]"), w);
  CHECK(slow.seconds() == Approx(base + 64 * 200e-9).epsilon(1e-9));
  // The wait is data movement, not the MMAs' roof.
  CHECK(slow.memory > slow.compute);
  // A K-major operand never waits.
  w.mnMajorOperand = false;
  CHECK(kernelTime(gpu(4, 1e15, 1e15, "[[128, 128]]", "[8, 32]"), w).seconds() ==
        Approx(base));
}

namespace {
/// Flash attention over `heads` (batch x heads) of `queries` x `keys`,
/// head dim 64, bf16.
Work attention(int64_t heads, int64_t queries, int64_t keys, bool causal = false) {
  Work w = gemm(queries, 64, 64);
  w.batch = heads;
  w.kvLen = keys;
  w.causal = causal;
  w.flops = 4.0 * double(heads * queries * keys) * 64;
  return w;
}
} // namespace

TEST_CASE("the tiled model times flash attention by key blocks",
          "[target][cost][gpu]") {
  // 4 (batch, head) pairs of 128 queries: 4 CTAs of a 128 x 128 tile, one
  // wave on 4 SMs, each walking 8 blocks of 128 keys: per block S = Q K^T
  // and P V, 2 x 128 x 128 x (64 + 64) FLOP at 1 TFLOP/s per SM. Fill: the
  // HBM's 500 ns and the 4 query tiles over the L2; epilogue: 4 output
  // tiles over the HBM.
  Target t = gpu(4, 1e15, 1e15);
  KernelTime k = kernelTime(t, attention(4, 128, 1024));
  double block = 2.0 * 128 * 128 * 128 / 1e12;
  double fill = 500e-9 + 4 * 128 * 64 * 2 / 1e15;
  double epilogue = 4 * 128 * 64 * 2 / 1e15;
  CHECK(k.compute == Approx(8 * block + fill + epilogue).epsilon(1e-9));
  CHECK(k.seconds() == Approx(k.compute));
  // A block's softmax sits between its two products: 128 x 128
  // exponentials at the special-function rate add to every block.
  KernelTime e = kernelTime(gpu(4, 1e15, 1e15, "[[128, 128]]", "", 4 * 1e10),
                            attention(4, 128, 1024));
  CHECK(e.seconds() == Approx(k.seconds() + 8 * 128 * 128 / 1e10).epsilon(1e-9));
  // Causal: query block i walks blocks 0..i, 4.5 of 8 on average (5 per
  // CTA in the schedule's whole blocks).
  double full = kernelTime(t, attention(1, 1024, 1024)).seconds();
  double causal = kernelTime(t, attention(1, 1024, 1024, true)).seconds();
  CHECK(causal < 0.7 * full);
  CHECK(causal > 0.55 * full);
  // One query (a decode step) of 2 heads on 4 SMs: the keys split in two,
  // as flash decoding does, so every SM works.
  double decode = kernelTime(t, attention(2, 1, 8192)).seconds();
  double oneSplit = 64 * 2.0 * 16 * 128 * 128 / 1e12;
  CHECK(decode < 0.6 * oneSplit);
  // Eight query heads on one K/V head (GQA), one query each: packed into
  // one tile, the K/V blocks are walked once for the group, not per head.
  Work grouped = attention(8, 1, 8192);
  double apart = kernelTime(t, grouped).seconds();
  grouped.kvGroup = 8;
  CHECK(kernelTime(t, grouped).seconds() < 0.25 * apart);
}

TEST_CASE("a wide attention head walks narrower key blocks",
          "[target][cost][gpu]") {
  // Head dim 256, bf16, 128 KiB of shared memory: the 64 KiB query tile
  // leaves room for two stages of 32-key blocks (32 x 512 x 2 B), not of
  // 128 or 64; the kernel is timed by those blocks, not at the peak.
  Target t = gpu(4, 1e15, 1e15);
  AttentionTile tile = attentionTile(t, 128, 1024, 256, 256, 2);
  CHECK(tile.rows == 128);
  CHECK(tile.cols == 32);
  CHECK(tile.stages == 2);
  Work w = attention(4, 128, 1024);
  w.k = w.n = 256;
  w.flops = 4.0 * 4 * 128 * 1024 * 256;
  double blocks = 32 * 2.0 * 128 * 32 * 512 / 1e12;
  CHECK(kernelTime(t, w).compute > blocks);
  CHECK(kernelTime(t, w).compute < 1.05 * blocks);
}

namespace {
/// One R x C systolic array at 1 GHz, timed as SCALE-Sim's `dataflow`.
Target systolicArray(int rows, int cols, const std::string &dataflow) {
  std::string text =
      "{\"schema\": \"dfa.target/1\", \"name\": \"s\", \"family\": \"tpu\", "
      "\"clock_hz\": " + num(1.05e9) +
      ", \"compute\": {\"unit_name\": \"core\", \"units\": " + num(1) +
      ", \"peak_flops\": {\"bf16\": " + num(1e12) + "},"
      " \"matrix_unit\": {\"m\": " + num(rows) + ", \"n\": " + num(cols) +
      ", \"k\": " + num(rows) + "}, \"systolic_model\": \"scalesim-" +
      dataflow + "\"},"
      " \"memory\": [{\"name\": \"HBM\", \"kind\": \"dram\", \"scope\": \"chip\", "
      "\"managed\": \"software\", \"capacity_bytes\": " + num(1e9) +
      ", \"bandwidth_bytes_per_s\": " + num(1e12) +
      ", \"latency_ns\": " + num(500) + "},"
      "{\"name\": \"VMEM\", \"kind\": \"scratchpad\", \"scope\": \"unit\", "
      "\"managed\": \"software\", \"capacity_bytes\": " + num(1.6e7) +
      ", \"bandwidth_bytes_per_s\": " + num(1e13) +
      ", \"latency_ns\": " + num(10) + "}],"
      " \"layout\": {\"tile\": [8, 128]},"
      " \"limits\": {\"mxu_count\": " + num(1) + "},"
      " \"overheads\": {\"launch_ns\": " + num(1000) + ", \"dma_setup_ns\": " +
      num(50) + ", \"sync_ns\": " + num(100) + "}}";
  return parsed("s.json", text);
}
} // namespace

TEST_CASE("systolic dataflows give SCALE-Sim v2's cycles", "[target][cost][systolic]") {
  // The scalesim 2.0.2 package's COMPUTE_REPORT for these GEMMs on one 8x8
  // array (no stalls): os 143 and 344, ws 167 and 329, is 203 and 389.
  struct Case {
    const char *dataflow;
    int64_t m, n, k, cycles;
  } cases[] = {{"os", 20, 12, 10, 143}, {"os", 33, 17, 9, 344},
               {"ws", 20, 12, 10, 167}, {"ws", 33, 17, 9, 329},
               {"is", 20, 12, 10, 203}, {"is", 33, 17, 9, 389}};
  for (const Case &c : cases) {
    INFO(c.dataflow << " " << c.m << "x" << c.n << "x" << c.k);
    Target t = systolicArray(8, 8, c.dataflow);
    Work w;
    w.matrix = true;
    w.dtype = "bf16";
    w.m = c.m;
    w.n = c.n;
    w.k = c.k;
    w.flops = 2.0 * double(c.m * c.n * c.k);
    // Whole cycles survive the trip through seconds (1.05 GHz).
    CHECK(toCycles(t, kernelTime(t, w).compute) == c.cycles);
  }
}

TEST_CASE("a batch of products is SCALE-Sim's layers, each less one cycle",
          "[target][cost][systolic]") {
  // A depthwise conv of 6 channels is six SCALE-Sim layers of 3x3 windows
  // on 8x8 outputs with 2 filters each; the package reports 123 cycles for
  // each on an 8x8 ws array (test/Target/scalesim.test), 738 for the six.
  Target t = systolicArray(8, 8, "ws");
  Work w;
  w.matrix = true;
  w.dtype = "bf16";
  w.batch = 6;
  w.m = 8 * 5;
  w.n = 2;
  w.k = 9;
  w.flops = 2.0 * double(w.batch * w.m * w.n * w.k);
  CHECK(toCycles(t, kernelTime(t, w).compute) == 738);
  w.batch = 1;
  CHECK(toCycles(t, kernelTime(t, w).compute) == 123);
}

TEST_CASE("element types as MLIR prints them find their peak",
          "[target][cost]") {
  // Every float8 variant is the description's "f8"; f80 is not a float8
  // and, with no key of its own, falls back as any unknown type does;
  // unsigned integers take their signed width's rate.
  Target t = machine("cpu");
  t.peakFlops["f8"].value = 4e15;
  t.peakFlops["i8"].value = 3e15;
  t.peakFlops["bf16"].value = 2e15;
  for (const char *f8 : {"f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ"})
    CHECK(t.peak(f8) == 4e15);
  CHECK(t.peak("f80") == 2e15);
  CHECK(t.peak("ui8") == 3e15);
  CHECK(t.peak("i8") == 3e15);
  CHECK(t.peak("f32") == 8e12);
}

TEST_CASE("collectives are rings over every chip-to-chip link",
          "[target][cost][collective]") {
  // No `links` given: one link of 10 GB/s, 700 ns.
  Target t = machine("cpu");
  CHECK(collectiveBandwidth(t) == Approx(1e10));
  Collective reduce{Collective::AllReduce, 8e6, 4};
  // Reduce-scatter then all-gather: 2 x 3 steps, each sending a quarter.
  CHECK(collectiveSteps(reduce) == 6);
  CHECK(collectiveLinkBytes(reduce) == Approx(6 * 2e6));
  CHECK(collectiveSeconds(t, reduce) == Approx(6 * 700e-9 + 12e6 / 1e10));
  Collective gather{Collective::AllGather, 8e6, 4};
  CHECK(collectiveSteps(gather) == 3);
  CHECK(collectiveSeconds(t, gather) == Approx(3 * 700e-9 + 6e6 / 1e10));
  // One chip has nothing to exchange.
  CHECK(collectiveSeconds(t, Collective{Collective::AllReduce, 8e6, 1}) == 0);
  // A large all-reduce's bus bandwidth (2 (N-1)/N bytes over the time)
  // tends to the links' total; the shipped H100's is 18 x 25 GB/s.
  Target many = parsed(
      "m.json", linkedChip("\"kind\": \"nvlink\", \"links\": " + num(18) +
                           ", \"bandwidth_bytes_per_s\": " + num(25e9) +
                           ", \"latency_ns\": " + num(1000)));
  CHECK(collectiveBandwidth(many) == Approx(450e9));
  Collective big{Collective::AllReduce, 8e9, 8};
  double busBandwidth = 2.0 * 7 / 8 * 8e9 / collectiveSeconds(many, big);
  CHECK(busBandwidth == Approx(450e9).epsilon(0.001));
}

TEST_CASE("a torus ring drives the links of one axis", "[target][cost][collective]") {
  std::string text = linkedChip(
      "\"kind\": \"ici\", \"links\": " + num(4) + ", \"collective_links\": " +
      num(2) + ", \"bandwidth_bytes_per_s\": " + num(5e10));
  CHECK(collectiveBandwidth(parsed("m.json", text)) == Approx(1e11));
  // More than the chip has is an error naming the key.
  std::string more = text;
  more.replace(more.find("\"collective_links\": ") + 20, num(2).size(), num(6));
  std::string error;
  CHECK_FALSE(parseTarget("m.json", more, error));
  CHECK(error.find("collective_links") != std::string::npos);
}

TEST_CASE("a device without DRAM hands large results to the host's memory",
          "[target][cost][host]") {
  auto chip = [](const std::string &level, const std::string &kind) {
    return "{\"schema\": \"dfa.target/1\", \"name\": \"m\", \"family\": \"cpu\", "
           "\"clock_hz\": " + num(1e9) +
           ", \"compute\": {\"unit_name\": \"core\", \"units\": " + num(4) +
           ", \"peak_flops\": {\"f32\": " + num(8e12) + "}},"
           " \"memory\": [{\"name\": \"" + level + "\", \"kind\": \"" + kind +
           "\", \"scope\": \"chip\", \"managed\": \"software\", "
           "\"capacity_bytes\": " + num(1e8) +
           ", \"bandwidth_bytes_per_s\": " + num(1e13) + ", \"latency_ns\": " +
           num(5) + "}], \"network\": {\"host\": {\"kind\": \"pcie\", "
           "\"bandwidth_bytes_per_s\": " + num(3e10) + ", \"latency_ns\": " +
           num(1000) + "}}, \"overheads\": {\"launch_ns\": " + num(0) +
           ", \"dma_setup_ns\": " + num(0) + ", \"sync_ns\": " + num(0) + "}}";
  };
  Target sram = parsed("m.json", chip("SRAM", "sram"));
  const MemoryLevel *host = sram.hostLevel();
  REQUIRE(host);
  CHECK(host->name == kHostLevel);
  CHECK(sram.level(kHostLevel) == host);
  CHECK(host->bandwidthBytesPerS.value == Approx(3e10));
  CHECK(host->latencyNs.value == Approx(1000));
  // Not one of the device's levels: the outer memory is still the SRAM.
  CHECK(sram.memory.size() == 1);
  CHECK(sram.outerLevel().name == "SRAM");
  // A copy to or from it goes at the host link's pace, over the link of
  // the chip that copies, whichever chip the buffer names.
  TransferPath p = transferPath(sram, sram.memory[0], 1, *host, 1, false);
  CHECK(p.bandwidth == Approx(3e10));
  CHECK(p.level == host);
  p = transferPath(sram, *host, 1, sram.memory[0], 1, /*crossChip=*/true);
  CHECK(p.kind == TransferPath::Memory);
  CHECK(p.bandwidth == Approx(3e10));
  CHECK(p.latencyNs == Approx(1000));
  // A device with DRAM keeps its results there.
  CHECK_FALSE(parsed("m.json", chip("DDR", "dram")).hostLevel());
  // A level of the device may not take the host's name.
  std::string error;
  CHECK_FALSE(parseTarget("m.json", chip("host", "sram"), error));
  CHECK(error.find("'host' names the host's memory") != std::string::npos);
}
