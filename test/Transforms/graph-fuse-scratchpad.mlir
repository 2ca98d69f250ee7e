// A fusion Spyre refuses for scratchpad pressure and the GPU accepts: a
// 2048x4096x4096 f16 GEMM touches 64 MiB, 2 MiB per Spyre core, more than
// the usable LX (1625216 B), so the schedule runs it in chunks. Its relu
// joins anyway: it writes over the product's output in place (as
// torch-spyre's LX planner reuses a pointwise op's input), adding nothing,
// and so does a view that keeps the minor dim.
// The residual add reads another 16 MiB (2.5 MiB per core in all) and is
// refused; the GPU keeps the whole epilogue in registers. A smaller GEMM
// fuses on both.
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-spyre remarks=true" 2>&1 | FileCheck %s --check-prefix=SPYRE
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" | FileCheck %s --check-prefix=GPU
// RUN: %with_test_targets dfa-compile %s --target test-spyre,test-gpu --json | FileCheck %s --check-prefix=JSON

func.func @main(%x: tensor<2048x4096xf16> {graph.name = "x"}, %w: tensor<4096x4096xf16> {graph.name = "w"},
                %r: tensor<1x2048x4096xf16> {graph.name = "r"},
                %s: tensor<64x128xf16> {graph.name = "s"}, %v: tensor<128x128xf16> {graph.name = "v"})
    -> (tensor<1x2048x4096xf16>, tensor<64x128xf16>) {
  %0 = graph.matmul %x, %w : (tensor<2048x4096xf16>, tensor<4096x4096xf16>) -> tensor<2048x4096xf16> loc("big")
  %1 = graph.relu %0 : tensor<2048x4096xf16> loc("big.relu")
  %5 = graph.reshape %1 : (tensor<2048x4096xf16>) -> tensor<1x2048x4096xf16> loc("big.view")
  %4 = graph.add %5, %r : (tensor<1x2048x4096xf16>, tensor<1x2048x4096xf16>) -> tensor<1x2048x4096xf16> loc("big.res")
  %2 = graph.matmul %s, %v : (tensor<64x128xf16>, tensor<128x128xf16>) -> tensor<64x128xf16> loc("small")
  %3 = graph.relu %2 : tensor<64x128xf16> loc("small.relu")
  return %4, %3 : tensor<1x2048x4096xf16>, tensor<64x128xf16>
}

// SPYRE-NOT: remark: {{.*}}big.{{relu|view}}{{.*}}refused
// SPYRE: remark: {{.*}}big.res{{.*}}: fusion of 'graph.add' into kernel 'big' refused: working set 2621440 B per core exceeds the usable LX of 1625216 B
// SPYRE: graph.fusions_refused = [{kernel = "big", op = "graph.add", reason = "working set 2621440 B per core exceeds the usable LX of 1625216 B"}]
// SPYRE: graph.kernel "big" kind "matmul"
// SPYRE: graph.relu
// SPYRE: graph.reshape
// SPYRE-NOT: graph.add
// SPYRE: graph.kernel "big.res" kind "pointwise"
// SPYRE: graph.add
// SPYRE: graph.kernel "small" kind "matmul"
// SPYRE: graph.relu

// GPU: graph.fusions_refused = []
// GPU: graph.kernel "big" kind "matmul"
// GPU: graph.relu
// GPU: graph.add
// GPU: graph.kernel "small" kind "matmul"
// GPU: graph.relu

// JSON: "target": "test-spyre"
// JSON: "fusions_refused": [
// JSON-NEXT: {
// JSON-NEXT: "op": "graph.add",
// JSON-NEXT: "kernel": "big",
// JSON: "target": "test-gpu"
// JSON: "fusions_refused": [],
