// A graph whose weights exceed one Groq chip (220 MiB of SRAM): three
// 4096x8192 f32 weights of 128 MiB each go to three chips, the activations
// cross chips over C2C links, and every op has a compile-time start cycle.
// A model that fits no memory of a target is an error (exit 9).
// The LPU run starts from the laid-out IR the pipeline hands the lowering
// (Inputs/chips.test-lpu.mlir, test/Inputs/make_stage_input.sh).
// RUN: %with_test_targets dfa-opt %S/Inputs/chips.test-lpu.mlir -convert-graph-to-sched | FileCheck %s --check-prefix=LPU
// RUN: %with_test_targets dfa-compile %s --target test-gpu --json | FileCheck %s --check-prefix=GPU
// RUN: not %with_test_targets dfa-compile %S/Inputs/too-big.mlir --target test-tpu-v5e -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFIT
// RUN: %with_test_targets dfa-compile %S/Inputs/too-big.mlir --target test-tpu-v5e -o /dev/null 2>/dev/null; test $? -eq 9
// RUN: %with_test_targets dfa-compile %S/Inputs/too-big.mlir --target test-gpu -o /dev/null

func.func @main(%x: tensor<16x4096xf32> {graph.name = "x"}) -> tensor<16x8192xf32> {
  %w0 = graph.weight "w0" at ""[0] : tensor<4096x8192xf32>
  %w1 = graph.weight "w1" at ""[0] : tensor<8192x4096xf32>
  %w2 = graph.weight "w2" at ""[0] : tensor<4096x8192xf32>
  %0 = graph.matmul %x, %w0 : (tensor<16x4096xf32>, tensor<4096x8192xf32>) -> tensor<16x8192xf32> loc("l0")
  %1 = graph.matmul %0, %w1 : (tensor<16x8192xf32>, tensor<8192x4096xf32>) -> tensor<16x4096xf32> loc("l1")
  %2 = graph.matmul %1, %w2 : (tensor<16x4096xf32>, tensor<4096x8192xf32>) -> tensor<16x8192xf32> loc("l2")
  return %2 : tensor<16x8192xf32>
}

// LPU-LABEL: sched.program @main target <name = "test-lpu", static_plan = true, units = 6, levels = {SRAM = 230686720 : i64, host = 281474976710656 : i64}> attributes {chips = 3 : i64
// LPU-DAG: sched.weight "w0" {{.*}}chip = 0 : i64
// LPU-DAG: sched.weight "w1" {{.*}}chip = 1 : i64
// LPU-DAG: sched.weight "w2" {{.*}}chip = 2 : i64
// LPU: sched.compute "l0" {{.*}}chip = 0 : i64
// LPU: sched.dma {{.*}}chip = 1 : i64, {{.*}}engine = 2 : i64
// LPU: sched.compute "l1" {{.*}}chip = 1 : i64
// LPU: sched.dma {{.*}}chip = 2 : i64, {{.*}}engine = 2 : i64
// LPU: sched.compute "l2" {{.*}}chip = 2 : i64

// The GPU holds everything in its 80 GB of HBM on one chip.
// GPU: "chips": 1,

// NOFIT: too-big.mlir:3:8: error: does not fit: HBM of test-tpu-v5e holds 17179869184 B; weight 'w' ('tensor<100000x100000xf32>', stored tile(8,128)) needs 40038400000 B with 0 B already live
