// A fusion Spyre refuses for scratchpad pressure and the GPU accepts: a
// 2048x4096x4096 f16 GEMM with a relu epilogue touches 80 MiB, 2.5 MiB per
// Spyre core, more than the usable LX (1625216 B); the GPU keeps its
// epilogue in registers. A smaller GEMM fuses on both.
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-spyre remarks=true" 2>&1 | FileCheck %s --check-prefix=SPYRE
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" | FileCheck %s --check-prefix=GPU
// RUN: %with_test_targets dfa-compile %s --target test-spyre,test-gpu --json | FileCheck %s --check-prefix=JSON

func.func @main(%x: tensor<2048x4096xf16> {graph.name = "x"}, %w: tensor<4096x4096xf16> {graph.name = "w"},
                %s: tensor<64x128xf16> {graph.name = "s"}, %v: tensor<128x128xf16> {graph.name = "v"})
    -> (tensor<2048x4096xf16>, tensor<64x128xf16>) {
  %0 = graph.matmul %x, %w : (tensor<2048x4096xf16>, tensor<4096x4096xf16>) -> tensor<2048x4096xf16> loc("big")
  %1 = graph.relu %0 : tensor<2048x4096xf16> loc("big.relu")
  %2 = graph.matmul %s, %v : (tensor<64x128xf16>, tensor<128x128xf16>) -> tensor<64x128xf16> loc("small")
  %3 = graph.relu %2 : tensor<64x128xf16> loc("small.relu")
  return %1, %3 : tensor<2048x4096xf16>, tensor<64x128xf16>
}

// SPYRE: remark: {{.*}}big.relu{{.*}}: fusion of 'graph.relu' into kernel 'big' refused: working set 2621440 B per core exceeds the usable LX of 1625216 B
// SPYRE: graph.fusions_refused = [{kernel = "big", op = "graph.relu", reason = "working set 2621440 B per core exceeds the usable LX of 1625216 B"}]
// SPYRE: graph.kernel "big" kind "matmul"
// SPYRE-NOT: graph.relu
// SPYRE: graph.kernel "big.relu" kind "pointwise"
// SPYRE: graph.kernel "small" kind "matmul"
// SPYRE: graph.relu

// GPU: graph.fusions_refused = []
// GPU: graph.kernel "big" kind "matmul"
// GPU: graph.relu
// GPU: graph.kernel "small" kind "matmul"
// GPU: graph.relu

// JSON: "target": "test-spyre"
// JSON: "fusions_refused": [
// JSON-NEXT: {
// JSON-NEXT: "op": "graph.relu",
// JSON-NEXT: "kernel": "big",
// JSON: "target": "test-gpu"
// JSON: "fusions_refused": [],
