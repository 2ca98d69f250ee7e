// Weight streaming on the wafer: when the weights exceed half of the
// on-wafer SRAM (test-wse-small has 256 KiB; these weights take 256 KiB),
// graph-tile marks the module (graph.weight_streaming) and gives every
// kernel the whole wafer; the lowering keeps the weights in MemoryX and
// streams each into the wafer before its kernel runs.
// The run starts from the laid-out IR the pipeline hands the lowering
// (Inputs/weight-streaming.test-wse-small.mlir, test/Inputs/make_stage_input.sh).
// RUN: %with_test_targets dfa-opt %S/Inputs/weight-streaming.test-wse-small.mlir -convert-graph-to-sched | FileCheck %s
// RUN: FileCheck %s --check-prefix=INPUT < %S/Inputs/weight-streaming.test-wse-small.mlir

// The graph the input was made from:
func.func @main(%x: tensor<64x256xf16> {graph.name = "x"}) -> tensor<64x256xf16> {
  %w0 = graph.weight "w0" at ""[0] : tensor<256x256xf16>
  %w1 = graph.weight "w1" at ""[0] : tensor<256x256xf16>
  %0 = graph.matmul %x, %w0 : (tensor<64x256xf16>, tensor<256x256xf16>) -> tensor<64x256xf16> loc("fc1")
  %1 = graph.relu %0 : tensor<64x256xf16> loc("act")
  %2 = graph.matmul %1, %w1 : (tensor<64x256xf16>, tensor<256x256xf16>) -> tensor<64x256xf16> loc("fc2")
  return %2 : tensor<64x256xf16>
}

// graph-tile decided: the module streams, and both kernels take the whole
// fabric (757 x 922 PEs).
// INPUT: module attributes {{.*}}graph.weight_streaming
// INPUT: graph.kernel "fc1" {{.*}}rect = array<i64: 757, 922>, {{.*}}units = 697954
// INPUT: graph.kernel "fc2" {{.*}}rect = array<i64: 757, 922>, {{.*}}units = 697954

// CHECK-LABEL: sched.program @main target <name = "test-wse-small"
// CHECK-SAME: weight_streaming = true
// The weights stay in MemoryX.
// CHECK: %[[W0:[0-9]+]] = sched.weight "w0" {{.*}} : !sched.buffer<"MemoryX", tensor<256x256xf16>>
// CHECK: %[[W1:[0-9]+]] = sched.weight "w1" {{.*}} : !sched.buffer<"MemoryX", tensor<256x256xf16>>
// Each streams into the wafer before its kernel, after the input.
// CHECK: %[[LOAD:[0-9]+]] = sched.dma %arg0 to
// CHECK: %[[S0BUF:[0-9]+]] = sched.alloc {{.*}}unit = 0 : i64, unit_end = 697954 : i64} : !sched.buffer<"PE-SRAM", tensor<256x256xf16>>
// CHECK: %[[S0:[0-9]+]] = sched.dma %[[W0]] to %[[S0BUF]] {bytes = 131072 : i64, {{.*}}kernel = "fc1"
// CHECK: %[[FC1:[0-9]+]] = sched.compute "fc1" ins(%{{[0-9]+}}, %[[S0BUF]] : {{.*}} after(%[[LOAD]], %[[S0]])
// The second weight reuses the bytes of the first kernel's input, so its
// stream waits for the first kernel to have read them.
// CHECK: %[[S1BUF:[0-9]+]] = sched.alloc {{.*}} : !sched.buffer<"PE-SRAM", tensor<256x256xf16>>
// CHECK: %[[S1:[0-9]+]] = sched.dma %[[W1]] to %[[S1BUF]] after(%[[LOAD]], %[[FC1]]) {bytes = 131072 : i64, {{.*}}kernel = "fc2"
// CHECK: sched.compute "fc2" ins(%{{[0-9]+}}, %[[S1BUF]] : {{.*}} after({{.*}}%[[S1]])
