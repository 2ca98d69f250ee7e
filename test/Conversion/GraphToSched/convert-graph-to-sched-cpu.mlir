// The CPU reference target (fusion none, placement shared, plan dynamic):
// one op per kernel, everything in DDR, no copies, kernels in stream order
// with their estimated cycles and no start cycles; the weight is resident
// in DDR.
// The run starts from the laid-out IR the pipeline hands the lowering
// (Inputs/cpu.test-cpu.mlir, test/Inputs/make_stage_input.sh).
// RUN: %with_test_targets dfa-opt %S/Inputs/cpu.test-cpu.mlir -convert-graph-to-sched | FileCheck %s

// The graph the input was made from:
func.func @main(%x: tensor<4x8xf32> {graph.name = "x"}) -> tensor<4x8xf32> {
  %w = graph.weight "w" at ""[0] : tensor<8x8xf32>
  %0 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("mm")
  %1 = graph.relu %0 : tensor<4x8xf32> loc("act")
  %2 = graph.add %1, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("res")
  return %2 : tensor<4x8xf32>
}

// CHECK-LABEL: sched.program @main target <name = "test-cpu", static_plan = false, units = 2
// No planned makespan (no `cycles` in the stats) and no copies:
// CHECK-SAME: chunked = [], dma_bytes = 0 : i64, dmas = 0 : i64
// CHECK-SAME: kernels = 3 : i64
// CHECK: %[[W:[0-9]+]] = sched.weight "w" {{.*}}offset = 0 : i64, size = 256 : i64} : !sched.buffer<"DDR", tensor<8x8xf32>>
// CHECK: %[[MMOUT:[0-9]+]] = sched.alloc {offset = 256 : i64, size = 128 : i64} : !sched.buffer<"DDR"
// CHECK: %[[MM:[0-9]+]] = sched.compute "mm" ins(%arg0, %[[W]] : {{.*}}) outs(%[[MMOUT]] : {{.*}}) attributes {{{.*}}cycles = {{[0-9]+}} : i64{{.*}}kind = "matmul"
// CHECK-NOT: start =
// act, pointwise, is mm's output's only reader: it writes over it, and res
// over act's (convert-graph-to-sched-overwrite.mlir).
// CHECK: %[[ACT:[0-9]+]] = sched.compute "act" ins(%[[MMOUT]] : {{.*}}) outs(%[[MMOUT]] : {{.*}} after(%[[MM]])
// CHECK-NOT: sched.alloc
// CHECK: sched.compute "res" ins(%[[MMOUT]], %arg0 : {{.*}}) outs(%[[MMOUT]] : {{.*}}) after(%[[ACT]])
// CHECK-NOT: sched.dma
// CHECK: sched.return %[[MMOUT]]
