// A layer whose weight is larger than one chip holds for weights (the
// test LPU's 512 KiB SRAM less a tenth) is split across chips by slices of
// its weight's leading dim, each a weight at a later offset of the same
// file: a [K, N] matmul weight by K (the input split, the partial products
// summed), a Gemm's [N, K] weight and a conv's filters by N (the results
// joined). A [K, N] matmul weight that widens its input (N > K) is cut by
// N instead, each piece a window of its columns (rows `pitch` bytes
// apart), its product making its columns of the output. Weights that fit, zstd frames (read whole) and targets that do
// not partition chips are left alone.
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-lpu-small remarks=true" 2>&1 | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-tpu-v4" | FileCheck %s --check-prefix=TPU

// CHECK: remark: loc("proj"): split across 6 chips: its weight 'proj.w' (2457600 B stored) exceeds the 471859 B one chip holds for weights
// CHECK: remark: loc("fc"): split across 3 chips: its weight 'fc.w' (1228800 B stored)
// CHECK: remark: loc("wide"): split across 3 chips: its weight 'wide.w' (1228800 B stored)
// CHECK-LABEL: func.func @main
// The slices stand where the weight stood, 160 rows of 2560 B apart.
// CHECK: graph.weight "proj.w.shard0" at "m.bin"[1024] : tensor<160x640xf32>
// CHECK: graph.weight "proj.w.shard1" at "m.bin"[410624] : tensor<160x640xf32>
// CHECK: graph.weight "proj.w.shard5" at "m.bin"[2049024] : tensor<160x640xf32>
// CHECK-NOT: graph.weight "proj.w" at
// CHECK: graph.weight "fc.w.shard0" at "m.bin"[4000000] : tensor<320x320xf32>
// CHECK: graph.weight "fc.w.shard2" at "m.bin"[4819200] : tensor<320x320xf32>
// Columns 0, 320 and 640 of rows 3840 B apart.
// CHECK: graph.weight "wide.w.shard0" at "m.bin"[6000000] pitch 3840 : tensor<320x320xf32>
// CHECK: graph.weight "wide.w.shard1" at "m.bin"[6001280] pitch 3840 : tensor<320x320xf32>
// CHECK: graph.weight "wide.w.shard2" at "m.bin"[6002560] pitch 3840 : tensor<320x320xf32>
// CHECK-NOT: graph.weight "wide.w" at
// CHECK: %[[XS:.*]]:6 = graph.split %arg0 {axis = 1 : i64, sizes = array<i64: 160, 160, 160, 160, 160, 160>}
// CHECK: %[[P0:.*]] = graph.matmul %[[XS]]#0, %{{.*}} : (tensor<4x160xf32>, tensor<160x640xf32>) -> tensor<4x640xf32>
// CHECK-COUNT-5: graph.matmul
// Pairwise: (0 + 1) + (2 + 3), (4 + 5), then the rest.
// CHECK-COUNT-5: graph.add
// CHECK: graph.gemm %arg1, %{{.*}} {trans_b = true} : (tensor<3x320xf32>, tensor<320x320xf32>) -> tensor<3x320xf32>
// CHECK: graph.concat {{.*}} {axis = 1 : i64} : (tensor<3x320xf32>, tensor<3x320xf32>, tensor<3x320xf32>) -> tensor<3x960xf32>
// A weight that fits, and one stored as a zstd frame, stay whole.
// CHECK: graph.matmul %arg2, %{{.*}} : (tensor<2x64xf32>, tensor<64x64xf32>)
// CHECK: graph.matmul %arg3, %{{.*}} : (tensor<2x960xf32>, tensor<960x640xf32>)
// CHECK-COUNT-3: graph.matmul %arg4, %{{.*}} : (tensor<4x320xf32>, tensor<320x320xf32>) -> tensor<4x320xf32>
// CHECK: graph.concat {{.*}} {axis = 1 : i64} : (tensor<4x320xf32>, tensor<4x320xf32>, tensor<4x320xf32>) -> tensor<4x960xf32>

// TPU-NOT: shard
// TPU-NOT: graph.split

func.func @main(%x: tensor<4x960xf32> {graph.name = "x"}, %a: tensor<3x320xf32> {graph.name = "a"},
                %s: tensor<2x64xf32> {graph.name = "s"}, %z: tensor<2x960xf32> {graph.name = "z"},
                %y: tensor<4x320xf32> {graph.name = "y"})
    -> (tensor<4x640xf32>, tensor<3x960xf32>, tensor<2x64xf32>, tensor<2x640xf32>, tensor<4x960xf32>) {
  %w = graph.weight "proj.w" at "m.bin"[1024] : tensor<960x640xf32> loc("proj.w")
  %f = graph.weight "fc.w" at "m.bin"[4000000] : tensor<960x320xf32> loc("fc.w")
  %small = graph.weight "small.w" at "m.bin"[0] : tensor<64x64xf32> loc("small.w")
  %packed = graph.weight "packed.w" at "m.bin"[9000000] zstd 1000 : tensor<960x640xf32> loc("packed.w")
  %wide = graph.weight "wide.w" at "m.bin"[6000000] : tensor<320x960xf32> loc("wide.w")
  %0 = graph.matmul %x, %w : (tensor<4x960xf32>, tensor<960x640xf32>) -> tensor<4x640xf32> loc("proj")
  %1 = graph.gemm %a, %f {trans_b = true} : (tensor<3x320xf32>, tensor<960x320xf32>) -> tensor<3x960xf32> loc("fc")
  %2 = graph.matmul %s, %small : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32> loc("small")
  %3 = graph.matmul %z, %packed : (tensor<2x960xf32>, tensor<960x640xf32>) -> tensor<2x640xf32> loc("packed")
  %4 = graph.matmul %y, %wide : (tensor<4x320xf32>, tensor<320x960xf32>) -> tensor<4x960xf32> loc("wide")
  return %0, %1, %2, %3, %4 : tensor<4x640xf32>, tensor<3x960xf32>, tensor<2x64xf32>, tensor<2x640xf32>, tensor<4x960xf32>
}
