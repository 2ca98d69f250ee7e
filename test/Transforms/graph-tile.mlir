// Tiles and units per target for a 512x1024x768 f16 GEMM and a pointwise op.
// The input is what graph-fuse made for each target.
// RUN: %with_test_targets dfa-opt %s -split-input-file -graph-tile | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -split-input-file -graph-tile="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

module attributes {graph.fusions_refused = [], graph.target = "test-gpu"} {
  func.func @main(%arg0: tensor<512x768xf16> {graph.name = "a"}, %arg1: tensor<768x1024xf16> {graph.name = "b"}, %arg2: tensor<100x70xf16> {graph.name = "c"}) -> (tensor<512x1024xf16>, tensor<100x70xf16>) {
    %0 = graph.kernel "gemm" kind "matmul"(%arg0, %arg1) : (tensor<512x768xf16>, tensor<768x1024xf16>) -> tensor<512x1024xf16> {
    ^bb0(%arg3: tensor<512x768xf16>, %arg4: tensor<768x1024xf16>):
      %2 = graph.matmul %arg3, %arg4 : (tensor<512x768xf16>, tensor<768x1024xf16>) -> tensor<512x1024xf16>
      graph.yield %2 : tensor<512x1024xf16>
    }
    %1 = graph.kernel "pw" kind "pointwise"(%arg2) : (tensor<100x70xf16>) -> tensor<100x70xf16> {
    ^bb0(%arg3: tensor<100x70xf16>):
      %2 = graph.exp %arg3 : tensor<100x70xf16>
      graph.yield %2 : tensor<100x70xf16>
    }
    return %0, %1 : tensor<512x1024xf16>, tensor<100x70xf16>
  }
}

// CHECK-LABEL: module attributes {{.*}}graph.target = "test-gpu"
// 128x128x64 CTA tiles: 4 x 8 = 32 CTAs, one wave over 132 SMs; two
// stages of A and B tiles take 64 KiB of shared memory.
// CHECK: graph.kernel "gemm" kind "matmul"
// CHECK-SAME: grid = 32 : i64, smem_bytes = 65536 : i64, tile = array<i64: 128, 128, 64>, units = 32 : i64, waves = 1 : i64
// CHECK: graph.kernel "pw" kind "pointwise"
// CHECK-SAME: grid = 7 : i64, tile = array<i64: 1024>, units = 7 : i64, waves = 1 : i64

// -----

module attributes {graph.fusions_refused = [], graph.target = "test-tpu-v5e"} {
  func.func @main(%arg0: tensor<512x768xf16> {graph.name = "a"}, %arg1: tensor<768x1024xf16> {graph.name = "b"}, %arg2: tensor<100x70xf16> {graph.name = "c"}) -> (tensor<512x1024xf16>, tensor<100x70xf16>) {
    %0 = graph.kernel "gemm" kind "matmul"(%arg0, %arg1) : (tensor<512x768xf16>, tensor<768x1024xf16>) -> tensor<512x1024xf16> {
    ^bb0(%arg3: tensor<512x768xf16>, %arg4: tensor<768x1024xf16>):
      %2 = graph.matmul %arg3, %arg4 : (tensor<512x768xf16>, tensor<768x1024xf16>) -> tensor<512x1024xf16>
      graph.yield %2 : tensor<512x1024xf16>
    }
    %1 = graph.kernel "pw" kind "pointwise"(%arg2) : (tensor<100x70xf16>) -> tensor<100x70xf16> {
    ^bb0(%arg3: tensor<100x70xf16>):
      %2 = graph.exp %arg3 : tensor<100x70xf16>
      graph.yield %2 : tensor<100x70xf16>
    }
    return %0, %1 : tensor<512x1024xf16>, tensor<100x70xf16>
  }
}

// CHECK-LABEL: module attributes {{.*}}graph.target = "test-tpu-v5e"
// TPU tiles are multiples of the 16-bit register's rows and of the MXU.
// CHECK: graph.kernel "gemm" kind "matmul"
// CHECK-SAME: grid = 2 : i64, tile = array<i64: 512, 512, 768>, units = 1 : i64
// CHECK-SAME: vmem_bytes =

// -----

module attributes {graph.fusions_refused = [], graph.target = "test-lpu"} {
  func.func @main(%arg0: tensor<512x768xf16> {graph.name = "a"}, %arg1: tensor<768x1024xf16> {graph.name = "b"}, %arg2: tensor<100x70xf16> {graph.name = "c"}) -> (tensor<512x1024xf16>, tensor<100x70xf16>) {
    %0 = graph.kernel "gemm" kind "matmul"(%arg0, %arg1) : (tensor<512x768xf16>, tensor<768x1024xf16>) -> tensor<512x1024xf16> {
    ^bb0(%arg3: tensor<512x768xf16>, %arg4: tensor<768x1024xf16>):
      %2 = graph.matmul %arg3, %arg4 : (tensor<512x768xf16>, tensor<768x1024xf16>) -> tensor<512x1024xf16>
      graph.yield %2 : tensor<512x1024xf16>
    }
    %1 = graph.kernel "pw" kind "pointwise"(%arg2) : (tensor<100x70xf16>) -> tensor<100x70xf16> {
    ^bb0(%arg3: tensor<100x70xf16>):
      %2 = graph.exp %arg3 : tensor<100x70xf16>
      graph.yield %2 : tensor<100x70xf16>
    }
    return %0, %1 : tensor<512x1024xf16>, tensor<100x70xf16>
  }
}

// CHECK-LABEL: module attributes {{.*}}graph.target = "test-lpu"
// The LPU uses 3 x 4 weight planes of 320x320 on the MXM.
// CHECK: graph.kernel "gemm" kind "matmul"
// CHECK-SAME: mxm_planes = 12 : i64
// CHECK-SAME: tile = array<i64: 512, 320, 320>

// -----

module attributes {graph.fusions_refused = [], graph.target = "test-spyre"} {
  func.func @main(%arg0: tensor<512x768xf16> {graph.name = "a"}, %arg1: tensor<768x1024xf16> {graph.name = "b"}, %arg2: tensor<100x70xf16> {graph.name = "c"}) -> (tensor<512x1024xf16>, tensor<100x70xf16>) {
    %0 = graph.kernel "gemm" kind "matmul"(%arg0, %arg1) : (tensor<512x768xf16>, tensor<768x1024xf16>) -> tensor<512x1024xf16> {
    ^bb0(%arg3: tensor<512x768xf16>, %arg4: tensor<768x1024xf16>):
      %2 = graph.matmul %arg3, %arg4 : (tensor<512x768xf16>, tensor<768x1024xf16>) -> tensor<512x1024xf16>
      graph.yield %2 : tensor<512x1024xf16>
    }
    %1 = graph.kernel "pw" kind "pointwise"(%arg2) : (tensor<100x70xf16>) -> tensor<100x70xf16> {
    ^bb0(%arg3: tensor<100x70xf16>):
      %2 = graph.exp %arg3 : tensor<100x70xf16>
      graph.yield %2 : tensor<100x70xf16>
    }
    return %0, %1 : tensor<512x1024xf16>, tensor<100x70xf16>
  }
}

// CHECK-LABEL: module attributes {{.*}}graph.target = "test-spyre"
// On Spyre, 512 rows over 32 cores, 16 rows each, in whole 64-element sticks;
// 70 columns are 2 sticks.
// CHECK: graph.kernel "gemm" kind "matmul"
// CHECK-SAME: split_dim = 0 : i64, tile = array<i64: 16, 1024>, units = 32 : i64
// CHECK: graph.kernel "pw" kind "pointwise"
// CHECK-SAME: tile = array<i64: 4, 128>, units = 32 : i64

// -----

module attributes {graph.fusions_refused = [], graph.target = "test-wse"} {
  func.func @main(%arg0: tensor<512x768xf16> {graph.name = "a"}, %arg1: tensor<768x1024xf16> {graph.name = "b"}, %arg2: tensor<100x70xf16> {graph.name = "c"}) -> (tensor<512x1024xf16>, tensor<100x70xf16>) {
    %0 = graph.kernel "gemm" kind "matmul"(%arg0, %arg1) : (tensor<512x768xf16>, tensor<768x1024xf16>) -> tensor<512x1024xf16> {
    ^bb0(%arg3: tensor<512x768xf16>, %arg4: tensor<768x1024xf16>):
      %2 = graph.matmul %arg3, %arg4 : (tensor<512x768xf16>, tensor<768x1024xf16>) -> tensor<512x1024xf16>
      graph.yield %2 : tensor<512x1024xf16>
    }
    %1 = graph.kernel "pw" kind "pointwise"(%arg2) : (tensor<100x70xf16>) -> tensor<100x70xf16> {
    ^bb0(%arg3: tensor<100x70xf16>):
      %2 = graph.exp %arg3 : tensor<100x70xf16>
      graph.yield %2 : tensor<100x70xf16>
    }
    return %0, %1 : tensor<512x1024xf16>, tensor<100x70xf16>
  }
}

// CHECK-LABEL: module attributes {{.*}}graph.target = "test-wse"}
// The WSE uses a rectangle of PEs sized to the work.
// CHECK: graph.kernel "gemm" kind "matmul"
// CHECK-SAME: rect = array<i64:

// -----

// Weights over half of the on-wafer SRAM (256 KiB in all on test-wse-small,
// 256 KiB of weights): the module streams them from MemoryX and the kernel
// takes the whole fabric. (The split above, without weights, does not.)
module attributes {graph.fusions_refused = [], graph.target = "test-wse-small"} {
  func.func @main(%arg0: tensor<64x512xf16> {graph.name = "x"}) -> tensor<64x256xf16> {
    %0 = graph.weight "w" at ""[0] : tensor<512x256xf16>
    %1 = graph.kernel "fc" kind "matmul"(%arg0, %0) : (tensor<64x512xf16>, tensor<512x256xf16>) -> tensor<64x256xf16> {
    ^bb0(%arg1: tensor<64x512xf16>, %arg2: tensor<512x256xf16>):
      %2 = graph.matmul %arg1, %arg2 : (tensor<64x512xf16>, tensor<512x256xf16>) -> tensor<64x256xf16>
      graph.yield %2 : tensor<64x256xf16>
    }
    return %1 : tensor<64x256xf16>
  }
}

// CHECK-LABEL: module attributes {{.*}}graph.target = "test-wse-small", graph.weight_streaming}
// CHECK: graph.kernel "fc" kind "matmul"
// CHECK-SAME: rect = array<i64: 757, 922>, tile = array<i64: 1>, units = 697954 : i64

// REMARK: remark: {{.*}}kernel 'gemm': tile [128, 128, 64], 32 tiles on 32 SMs
// REMARK: remark: weights of 262144 B exceed half the on-wafer SRAM (262144 B): weight streaming

// -----

// On a description with `compute.cta_tiles` (the tiled model), the GEMM's
// tile, stages and split of K are the ones the model times
// (target::gemmTiling): a 256x256 output over K = 4096 takes 64x128 tiles,
// K split 4 ways (8 tiles x 4 = 32 CTAs), nine stages of (64 + 128) x 64
// bf16 elements in shared memory.
module attributes {graph.fusions_refused = [], graph.target = "gpu-h100"} {
  func.func @main(%arg0: tensor<256x4096xbf16> {graph.name = "a"}, %arg1: tensor<4096x256xbf16> {graph.name = "b"}) -> tensor<256x256xbf16> {
    %0 = graph.kernel "longk" kind "matmul"(%arg0, %arg1) : (tensor<256x4096xbf16>, tensor<4096x256xbf16>) -> tensor<256x256xbf16> {
    ^bb0(%arg2: tensor<256x4096xbf16>, %arg3: tensor<4096x256xbf16>):
      %1 = graph.matmul %arg2, %arg3 : (tensor<256x4096xbf16>, tensor<4096x256xbf16>) -> tensor<256x256xbf16>
      graph.yield %1 : tensor<256x256xbf16>
    }
    return %0 : tensor<256x256xbf16>
  }
}

// CHECK-LABEL: module attributes {{.*}}graph.target = "gpu-h100"
// CHECK: graph.kernel "longk" kind "matmul"
// CHECK-SAME: grid = 32 : i64, smem_bytes = 221184 : i64, split_k = 4 : i64, tile = array<i64: 64, 128, 64>, units = 32 : i64, waves = 1 : i64

// REMARK: remark: {{.*}}kernel 'longk': tile [64, 128, 64], 8 tiles, K split 4 ways: 32 CTAs on 32 SMs
