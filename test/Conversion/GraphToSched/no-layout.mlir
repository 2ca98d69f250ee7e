// The lowering places buffers in the layouts graph-layout chose and derives
// none itself: a graph that has not been laid out is an error naming the
// kernel and the operand.
// RUN: %with_test_targets not dfa-opt %S/../../Transforms/Inputs/graph-layout.test-gpu.mlir -convert-graph-to-sched 2>&1 | FileCheck %s
// CHECK: error: kernel 'copy': its input 0 has no layout: run graph-layout before scheduling
