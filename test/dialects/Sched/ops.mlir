// RUN: dfa-opt %s | dfa-opt | FileCheck %s
// Round trip of the sched dialect. The first program is the [65] f16 copy
// on Spyre: the input in LPDDR5, staged into LX as two 64-element sticks
// (63 pad elements), a DMA that covers all 65 elements, an elementwise
// kernel on one core, and the copy back.

// CHECK-LABEL: sched.program @copy65 target <name = "spyre", static_plan = true, units = 32, levels = {LPDDR5 = 128000000000 : i64, LX = 1625216 : i64}>
sched.program @copy65 target <name = "spyre", static_plan = true, units = 32, levels = {LX = 1625216 : i64, LPDDR5 = 128000000000 : i64}> {
^bb0(%in: !sched.buffer<"LPDDR5", tensor<65xf16>>, %out: !sched.buffer<"LPDDR5", tensor<65xf16>>):
  // CHECK: sched.alloc {layout = #graph.layout<stick 64>, offset = 0 : i64, size = 256 : i64, unit = 0 : i64} : !sched.buffer<"LX", tensor<128xf16>>
  %lx = sched.alloc {offset = 0, size = 256, unit = 0, layout = #graph.layout<stick 64>} : !sched.buffer<"LX", tensor<128xf16>>
  %r = sched.alloc {offset = 256, size = 256, unit = 0, layout = #graph.layout<stick 64>} : !sched.buffer<"LX", tensor<128xf16>>
  // CHECK: sched.dma %{{.*}} to %{{.*}} {cycles = 10 : i64, dst_offsets = array<i64: 0>, sizes = array<i64: 65>, src_offsets = array<i64: 0>, start = 0 : i64}
  %t0 = sched.dma %in to %lx {src_offsets = array<i64: 0>, dst_offsets = array<i64: 0>, sizes = array<i64: 65>, start = 0, cycles = 10} : !sched.buffer<"LPDDR5", tensor<65xf16>> -> !sched.buffer<"LX", tensor<128xf16>>
  // CHECK: sched.compute "relu" ins(%{{.*}} : !sched.buffer<"LX", tensor<128xf16>>) outs(%{{.*}} : !sched.buffer<"LX", tensor<128xf16>>) after(%{{.*}})
  %t1 = sched.compute "relu" ins(%lx : !sched.buffer<"LX", tensor<128xf16>>) outs(%r : !sched.buffer<"LX", tensor<128xf16>>) after(%t0) attributes {start = 10, cycles = 4} {
  ^bb0(%x: tensor<128xf16>):
    %y = graph.relu %x : tensor<128xf16>
    sched.yield %y : tensor<128xf16>
  }
  %t2 = sched.dma %r to %out after(%t1) {src_offsets = array<i64: 0>, dst_offsets = array<i64: 0>, sizes = array<i64: 65>, start = 14, cycles = 10} : !sched.buffer<"LX", tensor<128xf16>> -> !sched.buffer<"LPDDR5", tensor<65xf16>>
  // CHECK: sched.barrier after(%{{.*}}, %{{.*}})
  %done = sched.barrier after(%t1, %t2)
  sched.return %out : !sched.buffer<"LPDDR5", tensor<65xf16>>
}

// A GPU program runs in stream order: no start cycles.
// CHECK-LABEL: sched.program @stream
sched.program @stream target <name = "gpu-h100", static_plan = false, units = 132, levels = {HBM = 80000000000 : i64}> {
^bb0(%a: !sched.buffer<"HBM", tensor<4x4xf32>>):
  %c = sched.alloc {offset = 0, size = 64} : !sched.buffer<"HBM", tensor<4x4xf32>>
  // CHECK: sched.compute "gemm" {{.*}} attributes {unit_end = 132 : i64}
  %t = sched.compute "gemm" ins(%a, %a : !sched.buffer<"HBM", tensor<4x4xf32>>, !sched.buffer<"HBM", tensor<4x4xf32>>) outs(%c : !sched.buffer<"HBM", tensor<4x4xf32>>) attributes {unit_end = 132} {
  ^bb0(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>):
    %z = graph.matmul %x, %y : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    sched.yield %z : tensor<4x4xf32>
  }
  sched.return %c : !sched.buffer<"HBM", tensor<4x4xf32>>
}

// A KV cache grown in place: the output is the input with rows appended.
// CHECK-LABEL: sched.program @append
// CHECK: sched.compute "append" {{.*}} attributes {in_place = array<i64: 0, 0>}
sched.program @append target <name = "gpu-h100", static_plan = false, units = 132, levels = {HBM = 100000 : i64}> {
^bb0(%cache: !sched.buffer<"HBM", tensor<4x2xf32>>, %new: !sched.buffer<"HBM", tensor<1x2xf32>>):
  %a = sched.alloc {offset = 0, size = 64} : !sched.buffer<"HBM", tensor<5x2xf32>>
  %t = sched.compute "append" ins(%cache, %new : !sched.buffer<"HBM", tensor<4x2xf32>>, !sched.buffer<"HBM", tensor<1x2xf32>>) outs(%a : !sched.buffer<"HBM", tensor<5x2xf32>>) attributes {in_place = array<i64: 0, 0>} {
  ^bb0(%x: tensor<4x2xf32>, %y: tensor<1x2xf32>):
    %z = graph.concat %x, %y {axis = 0 : i64} : (tensor<4x2xf32>, tensor<1x2xf32>) -> tensor<5x2xf32>
    sched.yield %z : tensor<5x2xf32>
  }
  sched.return %a : !sched.buffer<"HBM", tensor<5x2xf32>>
}

// A result assembled where it lives: two kernels, on two chips, each write
// a region of one buffer in the host's memory (out_offsets).
// CHECK-LABEL: sched.program @assembled
// CHECK: sched.compute "left" {{.*}} attributes {chip = 0 : i64, out_offsets = array<i64: 0, 0>}
// CHECK: ^bb0(%{{.*}}: tensor<2x4xf32>):
// CHECK: sched.compute "right" {{.*}} attributes {chip = 1 : i64, out_offsets = array<i64: 0, 4>}
sched.program @assembled target <name = "test-lpu", static_plan = false, units = 6, levels = {SRAM = 100000 : i64, host = 100000 : i64}> attributes {chips = 2 : i64} {
^bb0(%in: !sched.buffer<"SRAM", tensor<2x4xf32>>):
  %a = sched.alloc {offset = 0, size = 64} : !sched.buffer<"host", tensor<2x8xf32>>
  %b = sched.alloc {offset = 0, size = 32, chip = 1} : !sched.buffer<"SRAM", tensor<2x4xf32>>
  %t0 = sched.compute "left" ins(%in : !sched.buffer<"SRAM", tensor<2x4xf32>>) outs(%a : !sched.buffer<"host", tensor<2x8xf32>>) attributes {chip = 0, out_offsets = array<i64: 0, 0>} {
  ^bb0(%x: tensor<2x4xf32>):
    %y = graph.relu %x : tensor<2x4xf32>
    sched.yield %y : tensor<2x4xf32>
  }
  %t1 = sched.dma %in to %b {src_offsets = array<i64: 0, 0>, dst_offsets = array<i64: 0, 0>, sizes = array<i64: 2, 4>, chip = 0} : !sched.buffer<"SRAM", tensor<2x4xf32>> -> !sched.buffer<"SRAM", tensor<2x4xf32>>
  %t2 = sched.compute "right" ins(%b : !sched.buffer<"SRAM", tensor<2x4xf32>>) outs(%a : !sched.buffer<"host", tensor<2x8xf32>>) after(%t1) attributes {chip = 1, out_offsets = array<i64: 0, 4>} {
  ^bb0(%x: tensor<2x4xf32>):
    %y = graph.neg %x : tensor<2x4xf32>
    sched.yield %y : tensor<2x4xf32>
  }
  sched.return %a : !sched.buffer<"host", tensor<2x8xf32>>
}
