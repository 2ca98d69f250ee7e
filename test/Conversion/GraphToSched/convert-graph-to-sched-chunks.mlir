// A kernel whose operands exceed half the scratchpad runs as chunks along a
// dim of its output that the whole kernel can be split on: the operands the
// split does not touch are staged once, the others copied in slice by slice
// (region DMAs), each chunk computed on its slice and copied out. A kernel
// with no such dim streams from HBM and is reported as a spill.
// Each run starts from what graph-fuse, graph-tile and graph-layout made for
// its target (Inputs/chunks.<target>.mlir, test/Inputs/make_stage_input.sh).
// RUN: %with_test_targets dfa-opt %S/Inputs/chunks.test-tpu-v4.mlir -convert-graph-to-sched="remarks=true" 2>&1 | FileCheck %s
// RUN: %with_test_targets dfa-opt %S/Inputs/chunks.test-tpu-v4.mlir -convert-graph-to-sched | FileCheck %s --check-prefix=STATS
// RUN: %with_test_targets dfa-opt %S/Inputs/chunks.test-spyre.mlir -convert-graph-to-sched | FileCheck %s --check-prefix=SPYRE

// The graph the inputs were made from:
func.func @main(%x: tensor<128x1024xf32> {graph.name = "x"}, %b: tensor<8192xf32> {graph.name = "b"},
                %row: tensor<1x8388608xf32> {graph.name = "row"})
    -> (tensor<128x8192xf32>, tensor<1x8388608xf32>) {
  // 32 MiB of weight: the TPU v4's 2 x 16 MiB of VMEM takes it in column
  // blocks (half of each block per TensorCore).
  %w = graph.weight "w" at ""[0] : tensor<1024x8192xf32>
  %0 = graph.matmul %x, %w : (tensor<128x1024xf32>, tensor<1024x8192xf32>) -> tensor<128x8192xf32> loc("fc")
  %1 = graph.add %0, %b : (tensor<128x8192xf32>, tensor<8192xf32>) -> tensor<128x8192xf32> loc("bias")
  // A softmax over one 32 MiB row: no dim to split.
  %2 = graph.softmax %row {axis = 1 : i64} : tensor<1x8388608xf32> loc("sm")
  return %1, %2 : tensor<128x8192xf32>, tensor<1x8388608xf32>
}

// CHECK: remark: {{.*}}kernel 'fc': 4 chunks of 2048 along dim 1 through VMEM
// CHECK: remark: {{.*}}kernel 'sm': working set exceeds half of VMEM and no split of the output fits: operands stream from HBM
// x is staged once; the weight and bias come in 2048-column slices (16
// lane tiles of 128): the TPU's compiler double-buffers, so the count is
// the one its pipeline model runs fastest in (4, more than the 3 that
// would fit), each chunk as even as the tiles allow.
// CHECK: %[[X:.*]] = sched.alloc {{.*}} : !sched.buffer<"VMEM", tensor<128x1024xf32>>
// CHECK: sched.dma %arg0 to %[[X]]
// CHECK: %[[W0:.*]] = sched.alloc {{.*}} : !sched.buffer<"VMEM", tensor<1024x2048xf32>>
// CHECK: sched.dma %{{.*}} to %[[W0]] {bytes = 8388608 : i64, {{.*}}sizes = array<i64: 1024, 2048>, src_offsets = array<i64: 0, 0>
// CHECK: sched.alloc {{.*}} : !sched.buffer<"VMEM", tensor<2048xf32>>
// CHECK: %[[O0:.*]] = sched.alloc {{.*}} : !sched.buffer<"VMEM", tensor<128x2048xf32>>
// CHECK: %[[C0:.*]] = sched.compute "fc" ins(%[[X]], %[[W0]], %{{.*}} : {{.*}}) outs(%[[O0]] : {{.*}}) {{.*}}chunk = 0 : i64, chunks = 4 : i64
// CHECK: graph.matmul {{.*}} : (tensor<128x1024xf32>, tensor<1024x2048xf32>) -> tensor<128x2048xf32>
// CHECK: graph.add {{.*}} : (tensor<128x2048xf32>, tensor<2048xf32>) -> tensor<128x2048xf32>
// CHECK: %[[S0:.*]] = sched.dma %[[O0]] to %[[OUT:[^ ]*]] after(%[[C0]]
// CHECK-SAME: dst_offsets = array<i64: 0, 0>, engine = 1 : i64, kernel = "fc", sizes = array<i64: 128, 2048>
// The second chunk's weight slice starts at column 2048; its store waits for
// the first store, so the last store's token covers the whole result.
// CHECK: sizes = array<i64: 1024, 2048>, src_offsets = array<i64: 0, 2048>
// CHECK: sched.dma %{{.*}} to %[[OUT]] after(%[[S0]], %{{.*}}) {{.*}}dst_offsets = array<i64: 0, 2048>
// The last chunk: 3 * 2048 + 2048 = 8192.
// CHECK: chunk = 3 : i64
// CHECK: tensor<128x2048xf32>
// CHECK: dst_offsets = array<i64: 0, 6144>, engine = 1 : i64, kernel = "fc", sizes = array<i64: 128, 2048>
// STATS: chunked = [{chunks = 4 : i64, dim = 1 : i64, extent = 2048 : i64, kernel = "fc"}]
// STATS-SAME: spills = [{kernel = "sm", reason = "working set exceeds half of VMEM and no split of the output fits: operands stream from HBM"}]

// Spyre: rows or columns both take two chunks; a matrix kernel splits its
// columns, so each chunk brings only its half of the weight into LX.
// SPYRE: chunked = [{chunks = 2 : i64, dim = 1 : i64, extent = 4096 : i64, kernel = "fc"}]
