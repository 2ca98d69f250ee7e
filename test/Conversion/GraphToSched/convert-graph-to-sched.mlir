// Schedules per target. The [65] f16 copy on Spyre: the input in LPDDR5
// as two 64-element sticks (63 pad elements), staged into LX by a DMA that
// moves both sticks, the copy kernel on the cores, and the copy back.
// Each run starts from the laid-out IR the pipeline hands the lowering for
// its target (Inputs/convert-graph-to-sched.<target>.mlir,
// test/Inputs/make_stage_input.sh).
// RUN: %with_test_targets dfa-opt %S/Inputs/convert-graph-to-sched.test-spyre.mlir -convert-graph-to-sched | FileCheck %s --check-prefix=SPYRE
// RUN: %with_test_targets dfa-opt %S/Inputs/convert-graph-to-sched.test-gpu.mlir -convert-graph-to-sched | FileCheck %s --check-prefix=GPU
// RUN: %with_test_targets dfa-opt %S/Inputs/convert-graph-to-sched.test-tpu-v5e.mlir -convert-graph-to-sched | FileCheck %s --check-prefix=TPU

// The graph the inputs were made from:
func.func @main(%x: tensor<65xf16> {graph.name = "x"}) -> tensor<65xf16> {
  %0 = graph.reshape %x : (tensor<65xf16>) -> tensor<65xf16> loc("copy")
  return %0 : tensor<65xf16>
}

// SPYRE-LABEL: sched.program @main target <name = "test-spyre", static_plan = true, units = 32, levels = {LPDDR5 = 128000000000 : i64, LX = 2097152 : i64}>
// SPYRE: ^bb0(%[[IN:.*]]: !sched.buffer<"LPDDR5", tensor<65xf16>>):
// The LX buffer is split over the 2 cores that hold a stick each.
// SPYRE: %[[LX:.*]] = sched.alloc {layout = #graph.layout<stick 64>, offset = 0 : i64, size = 128 : i64, unit = 0 : i64, unit_end = 2 : i64} : !sched.buffer<"LX", tensor<65xf16>>
// SPYRE: %[[LOAD:.*]] = sched.dma %[[IN]] to %[[LX]] {bytes = 256 : i64, cycles = {{[0-9]+}} : i64, dst_offsets = array<i64: 0>, kernel = "copy", sizes = array<i64: 65>, src_offsets = array<i64: 0>, start = 0 : i64}
// SPYRE: %[[OUT:.*]] = sched.alloc {layout = #graph.layout<stick 64>, offset = 128 : i64, size = 128 : i64, unit = 0 : i64, unit_end = 2 : i64} : !sched.buffer<"LX", tensor<65xf16>>
// SPYRE: %[[KERN:.*]] = sched.compute "copy" ins(%[[LX]] : {{.*}}) outs(%[[OUT]] : {{.*}}) after(%[[LOAD]])
// SPYRE-SAME: unit_end = 2 : i64
// SPYRE: %[[HOME:.*]] = sched.alloc {layout = #graph.layout<stick 64>, offset = 0 : i64, size = 256 : i64} : !sched.buffer<"LPDDR5", tensor<65xf16>>
// SPYRE: sched.dma %[[OUT]] to %[[HOME]] after(%[[KERN]]) {bytes = 256 : i64
// SPYRE-SAME: engine = 1 : i64
// SPYRE: sched.return %[[HOME]]

// The GPU runs kernels in stream order from HBM: no DMAs, no start cycles.
// GPU-LABEL: sched.program @main target <name = "test-gpu", static_plan = false, units = 132
// GPU-NOT: sched.dma
// GPU: sched.compute "copy"
// GPU-NOT: start =

// The TPU stages through VMEM in (8,128)(2,1) tiles: 65 f16 take 128 x 16.
// TPU: sched.alloc {layout = #graph.layout<tile [8, 128] pack 2>, offset = 0 : i64, size = 256 : i64, unit = 0 : i64} : !sched.buffer<"VMEM", tensor<65xf16>>
// TPU: sched.dma
