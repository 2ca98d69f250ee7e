// The wafer as a layer pipeline (placement spatial): each kernel on its own
// PE rectangle, side by side, with its weights resident in the rectangle's
// PE memory; the graph input comes from MemoryX by DMA, and an activation
// crosses from one rectangle to the next over the fabric (engine 2), with
// no DMA setup. Every op has a start cycle.
// The run starts from the laid-out IR the pipeline hands the lowering
// (Inputs/wse.test-wse.mlir, test/Inputs/make_stage_input.sh).
// RUN: %with_test_targets dfa-opt %S/Inputs/wse.test-wse.mlir -convert-graph-to-sched | FileCheck %s
// Tokens stream through the pipeline: both kernels consume their
// activations row by row, so each works through its 64 rows in order (rows
// = 64) and fc2 starts once the first rows of fc1 have crossed the fabric,
// not when fc1 is done; no barrier between the two. The simulator runs the
// plan as planned.
// RUN: %with_test_targets dfa-opt %S/Inputs/wse.test-wse.mlir -convert-graph-to-sched -o %t.sched.mlir
// RUN: %with_test_targets dfa-run %t.sched.mlir --time-only 2>&1 | FileCheck %s --check-prefix=SIM
// SIM: dfa-run: test-wse: [[T:[0-9.]+ us]] (plan [[T]])

// The graph the input was made from:
func.func @main(%x: tensor<64x256xf16> {graph.name = "x"}) -> tensor<64x256xf16> {
  %w0 = graph.weight "w0" at ""[0] : tensor<256x256xf16>
  %w1 = graph.weight "w1" at ""[0] : tensor<256x256xf16>
  %0 = graph.matmul %x, %w0 : (tensor<64x256xf16>, tensor<256x256xf16>) -> tensor<64x256xf16> loc("fc1")
  %1 = graph.relu %0 : tensor<64x256xf16> loc("act")
  %2 = graph.matmul %1, %w1 : (tensor<64x256xf16>, tensor<256x256xf16>) -> tensor<64x256xf16> loc("fc2")
  return %2 : tensor<64x256xf16>
}

// CHECK-LABEL: sched.program @main target <name = "test-wse", static_plan = true, units = 850000
// CHECK-SAME: kernels = 2 : i64
// CHECK-SAME: weight_streaming = false
// The weights rest in the PE memory of their kernel's rectangle; the two
// rectangles lie side by side.
// CHECK: %[[W0:[0-9]+]] = sched.weight "w0" {{.*}}unit = 0 : i64, unit_end = [[END0:[0-9]+]] : i64} : !sched.buffer<"PE-SRAM"
// CHECK: %[[W1:[0-9]+]] = sched.weight "w1" {{.*}}unit = [[END0]] : i64, unit_end = {{[0-9]+}} : i64} : !sched.buffer<"PE-SRAM"
// The input comes from MemoryX on the load engine (0, not printed), row by
// row: fc1 starts on its first slice of rows (cycle 128 = 8175 / 64), not
// when the whole load is done.
// CHECK: %[[IN:[0-9]+]] = sched.alloc {{.*}}unit = 0 : i64
// CHECK: %[[LOAD:[0-9]+]] = sched.dma %arg0 to %[[IN]] {bytes = 32768 : i64, cycles = 8175 : i64, dst_offsets = array<i64: 0, 0>, kernel = "fc1", rows = 64 : i64, {{.*}}start = 0 : i64} : !sched.buffer<"MemoryX"
// CHECK: %[[OUT1:[0-9]+]] = sched.alloc {{.*}}unit = 0 : i64
// Each kernel runs on its rectangle's PEs: [0, END0) and [END0, ...).
// CHECK: %[[FC1:[0-9]+]] = sched.compute "fc1" ins(%[[IN]], %[[W0]] : {{.*}}) outs(%[[OUT1]] : {{.*}}) after(%[[LOAD]]) {{.*}}cycles = 305 : i64, kind = "matmul"{{.*}}rows = 64 : i64, start = [[#S:]] : i64, unit_end = [[END0]] : i64}
// CHECK: graph.matmul
// CHECK-NEXT: graph.relu
// Over the fabric into fc2's rectangle: the link engine (2), no DMA setup,
// a couple of cycles for 32 KiB at the wafer's fabric bandwidth.
// CHECK: %[[IN2:[0-9]+]] = sched.alloc {{.*}}unit = [[END0]] : i64
// It starts once fc1's first slice of rows is done: fc1 takes 305 cycles,
// 101 of them its work on 102 x 102 PEs and 204 the fill across its
// rectangle (102 + 102 hops), so a slice of its 64 rows is 5 cycles.
// CHECK: %[[HOP:[0-9]+]] = sched.dma %[[OUT1]] to %[[IN2]] after(%[[FC1]]) {bytes = 32768 : i64, cycles = 2 : i64, {{.*}}engine = 2 : i64, kernel = "fc2", rows = 64 : i64, {{.*}}start = [[#S+5]] : i64}
// CHECK: sched.compute "fc2" ins(%[[IN2]], %[[W1]] : {{.*}} after(%[[HOP]]) {{.*}}rows = 64 : i64, start = [[#S+6]] : i64, unit_begin = [[END0]] : i64
// CHECK: sched.return
