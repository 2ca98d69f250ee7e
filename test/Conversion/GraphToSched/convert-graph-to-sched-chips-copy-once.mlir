// An activation copied over the links to a chip is copied once for that
// chip: a later kernel there that reads it too reads the same copy (l3
// beside l1 on chip 1), freed after it, not copied again per reader.
// RUN: %with_test_targets dfa-compile %s --target test-lpu -o - | FileCheck %s

// CHECK: sched.compute "l0" {{.*}}chip = 0 : i64
// CHECK: %[[COPY:.*]] = sched.alloc {chip = 1 : i64
// CHECK-NEXT: %[[DMA:.*]] = sched.dma %{{.*}} to %[[COPY]] {{.*}}chip = 1 : i64
// CHECK-NOT: sched.dma
// CHECK: sched.compute "l1" ins(%[[COPY]], {{.*}} after(%[[DMA]]) {{.*}}chip = 1 : i64
// CHECK-NOT: sched.dma
// CHECK: sched.compute "l3" ins(%[[COPY]], {{.*}} after(%[[DMA]]) {{.*}}chip = 1 : i64

func.func @main(%x: tensor<16x4096xf32> {graph.name = "x"}) -> (tensor<16x4096xf32>, tensor<16x64xf32>) {
  %w0 = graph.weight "w0" at ""[0] : tensor<4096x8192xf32>
  %w1 = graph.weight "w1" at ""[0] : tensor<8192x4096xf32>
  %w3 = graph.weight "w3" at ""[0] : tensor<8192x64xf32>
  %0 = graph.matmul %x, %w0 : (tensor<16x4096xf32>, tensor<4096x8192xf32>) -> tensor<16x8192xf32> loc("l0")
  %1 = graph.matmul %0, %w1 : (tensor<16x8192xf32>, tensor<8192x4096xf32>) -> tensor<16x4096xf32> loc("l1")
  %3 = graph.matmul %0, %w3 : (tensor<16x8192xf32>, tensor<8192x64xf32>) -> tensor<16x64xf32> loc("l3")
  return %1, %3 : tensor<16x4096xf32>, tensor<16x64xf32>
}
