// A graph input read by two kernels on the wafer (a residual): it is loaded
// from MemoryX once, into the first reader's rectangle, and the second
// reader takes it from there over the fabric (engine 2), as it would an
// activation made on the wafer, instead of reading MemoryX again and queueing
// behind the first load on the load engine. The wafer copy lives until the
// last reader is done.
// RUN: %with_test_targets dfa-opt %S/Inputs/wse-fanout.test-wse.mlir -convert-graph-to-sched | FileCheck %s
// RUN: %with_test_targets dfa-opt %S/Inputs/wse-fanout.test-wse.mlir -convert-graph-to-sched -o %t.sched.mlir
// RUN: %with_test_targets dfa-run %t.sched.mlir --time-only 2>&1 | FileCheck %s --check-prefix=SIM
// SIM: dfa-run: test-wse: [[T:[0-9.]+ us]] (plan [[T]])

// The graph the input was made from:
func.func @main(%x: tensor<64x256xf16> {graph.name = "x"}) -> tensor<64x256xf16> {
  %w0 = graph.weight "w0" at ""[0] : tensor<256x256xf16>
  %w1 = graph.weight "w1" at ""[0] : tensor<256x256xf16>
  %0 = graph.matmul %x, %w0 : (tensor<64x256xf16>, tensor<256x256xf16>) -> tensor<64x256xf16> loc("fc1")
  %1 = graph.relu %0 : tensor<64x256xf16> loc("act")
  %2 = graph.matmul %1, %w1 : (tensor<64x256xf16>, tensor<256x256xf16>) -> tensor<64x256xf16> loc("fc2")
  %3 = graph.add %2, %x : (tensor<64x256xf16>, tensor<64x256xf16>) -> tensor<64x256xf16> loc("residual")
  return %3 : tensor<64x256xf16>
}

// CHECK-LABEL: sched.program @main
// One load from MemoryX in the whole program, into fc1's rectangle.
// CHECK: %[[IN:[0-9]+]] = sched.alloc {{.*}}unit = 0 : i64
// CHECK: %[[LOAD:[0-9]+]] = sched.dma %arg0 to %[[IN]] {{.*}}kernel = "fc1"
// CHECK-NOT: sched.dma %arg0
// CHECK: sched.compute "fc1"
// fc2 reads x from fc1's rectangle over the fabric, after the load.
// CHECK: %[[X2:[0-9]+]] = sched.dma %[[IN]] to %{{[0-9]+}} after(%[[LOAD]]) {{.*}}engine = 2 : i64, kernel = "fc2"
// CHECK: sched.compute "fc2" ins({{.*}}%[[X2]]
// CHECK-NOT: sched.dma %arg0
// CHECK: sched.return
