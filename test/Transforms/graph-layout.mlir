// Layouts and padding per target, and relayouts where a transpose moves the
// minor dim on a target whose layout is tied to it.
// Each run starts from what graph-fuse and graph-tile made for its target
// (Inputs/graph-layout.<target>.mlir, test/Inputs/make_stage_input.sh).
// RUN: %with_test_targets dfa-opt %S/Inputs/graph-layout.test-spyre.mlir -graph-layout="remarks=true" 2>&1 | FileCheck %s --check-prefix=SPYRE
// RUN: %with_test_targets dfa-opt %S/Inputs/graph-layout.test-tpu-v5e.mlir -graph-layout | FileCheck %s --check-prefix=TPU
// RUN: %with_test_targets dfa-opt %S/Inputs/graph-layout.test-lpu.mlir -graph-layout | FileCheck %s --check-prefix=LPU
// RUN: %with_test_targets dfa-opt %S/Inputs/graph-layout.test-gpu.mlir -graph-layout | FileCheck %s --check-prefix=GPU

// The graph the inputs were made from:
func.func @main(%x: tensor<65xf16> {graph.name = "x"}, %a: tensor<10x100xf16> {graph.name = "a"},
                %b: tensor<100x30xf16> {graph.name = "b"}) -> (tensor<65xf16>, tensor<30x10xf16>) {
  %0 = graph.reshape %x : (tensor<65xf16>) -> tensor<65xf16> loc("copy")
  %1 = graph.matmul %a, %b : (tensor<10x100xf16>, tensor<100x30xf16>) -> tensor<10x30xf16> loc("mm")
  %2 = graph.transpose %1 {perm = array<i64: 1, 0>} : (tensor<10x30xf16>) -> tensor<30x10xf16> loc("t")
  return %0, %2 : tensor<65xf16>, tensor<30x10xf16>
}

// On Spyre 65 f16 values take two 64-element sticks, 63 of them padding.
// SPYRE: kernel 'copy' laid out as stick(64): 126 B and 0 FLOPs of padding
// K = 100 is zero-padded to 128 (two sticks), N = 30 to 64.
// SPYRE: kernel 'mm' laid out as stick(64)
// SPYRE-SAME: 103840 FLOPs of padding
// SPYRE: remark: {{.*}}relayout inserted in kernel 't': the transpose moves the minor dim (stick(64) on dim 1 -> stick(64) on dim 0)
// SPYRE: graph.kernel "copy" kind "data"
// SPYRE-SAME: layouts = [#graph.layout<stick 64>], pad_bytes = 126 : i64
// SPYRE: graph.kernel "t" kind "relayout"
// SPYRE: graph.relayout %{{.*}} from "stick(64) on dim 1" to "stick(64) on dim 0" : tensor<10x30xf16>
// SPYRE-NEXT: graph.transpose

// On the TPU 16-bit tiles are (8,128)(2,1), two rows a 32-bit word; the MXU
// pads K and N to 128.
// TPU: graph.kernel "mm" kind "matmul"
// TPU-SAME: layouts = [#graph.layout<tile [8, 128] pack 2>]
// TPU-SAME: pad_flops = 464288 : i64
// TPU: graph.kernel "t" kind "relayout"

// On the LPU the minor dim is in 320-element vectors; K and N padded to the plane.
// LPU: graph.kernel "copy" kind "data"
// LPU-SAME: layouts = [#graph.layout<vector 320>], pad_bytes = 510 : i64

// The GPU pads to the wgmma shape m64n8k16 and never relayouts.
// GPU: graph.kernel "mm" kind "matmul"
// GPU-SAME: layouts = [#graph.layout<row_major>], pad_bytes = 0 : i64, pad_flops = 
// GPU-NOT: graph.relayout
