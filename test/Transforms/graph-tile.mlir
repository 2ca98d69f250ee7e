// Tiles and units per target for a 512x1024x768 f16 GEMM and a pointwise op.
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" -graph-tile | FileCheck %s --check-prefix=GPU
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-tpu-v5e" -graph-tile | FileCheck %s --check-prefix=TPU
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-lpu" -graph-tile | FileCheck %s --check-prefix=LPU
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-spyre" -graph-tile | FileCheck %s --check-prefix=SPYRE
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-wse" -graph-tile | FileCheck %s --check-prefix=WSE
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" -graph-tile="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

func.func @main(%a: tensor<512x768xf16> {graph.name = "a"}, %b: tensor<768x1024xf16> {graph.name = "b"},
                %c: tensor<100x70xf16> {graph.name = "c"}) -> (tensor<512x1024xf16>, tensor<100x70xf16>) {
  %0 = graph.matmul %a, %b : (tensor<512x768xf16>, tensor<768x1024xf16>) -> tensor<512x1024xf16> loc("gemm")
  %1 = graph.exp %c : tensor<100x70xf16> loc("pw")
  return %0, %1 : tensor<512x1024xf16>, tensor<100x70xf16>
}

// 128x128x64 CTA tiles: 4 x 8 = 32 CTAs, one wave over 132 SMs; two
// stages of A and B tiles take 64 KiB of shared memory.
// GPU: graph.kernel "gemm" kind "matmul"
// GPU-SAME: grid = 32 : i64, smem_bytes = 65536 : i64, tile = array<i64: 128, 128, 64>, units = 32 : i64, waves = 1 : i64
// GPU: graph.kernel "pw" kind "pointwise"
// GPU-SAME: grid = 7 : i64, tile = array<i64: 1024>, units = 7 : i64, waves = 1 : i64

// TPU tiles are multiples of (16,128) for 16-bit types and of the MXU.
// TPU: graph.kernel "gemm" kind "matmul"
// TPU-SAME: grid = 2 : i64, tile = array<i64: 512, 512, 768>, units = 1 : i64
// TPU-SAME: vmem_bytes =

// The LPU uses 3 x 4 weight planes of 320x320 on the MXM.
// LPU: graph.kernel "gemm" kind "matmul"
// LPU-SAME: mxm_planes = 12 : i64
// LPU-SAME: tile = array<i64: 512, 320, 320>

// On Spyre, 512 rows over 32 cores, 16 rows each, in whole 64-element sticks;
// 70 columns are 2 sticks.
// SPYRE: graph.kernel "gemm" kind "matmul"
// SPYRE-SAME: split_dim = 0 : i64, tile = array<i64: 16, 1024>, units = 32 : i64
// SPYRE: graph.kernel "pw" kind "pointwise"
// SPYRE-SAME: tile = array<i64: 4, 128>, units = 32 : i64

// The WSE uses a rectangle of PEs sized to the work.
// WSE: graph.kernel "gemm" kind "matmul"
// WSE-SAME: rect = array<i64:

// REMARK: remark: {{.*}}kernel 'gemm': tile [128, 128, 64], 32 tiles on 32 SMs
