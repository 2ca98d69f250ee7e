// Where the compiler double-buffers (compiler.double_buffering: the TPU),
// a kernel that fits the scratchpad whole still runs as a pipeline of
// chunks when the pipeline model says that is faster: a 1024 x 4096 by
// 4096 x 1024 f32 GEMM (the weight alone is 16 MiB of v5e's 128 MiB VMEM)
// copies the next chunk in while the MXU works on this one. A small
// elementwise kernel, whose copies in and out share the HBM's bandwidth
// and gain nothing from overlapping, runs whole. Spyre does not
// double-buffer: a GEMM that fits its cores' LX runs whole (the big one
// does not fit, and runs as chunks there too).
// RUN: %with_test_targets dfa-opt %s -dfa-pipeline="target=test-tpu-v5e remarks=true" 2>&1 | FileCheck %s --check-prefix=TPU
// RUN: %with_test_targets dfa-opt %s -dfa-pipeline="target=test-spyre remarks=true" 2>&1 | FileCheck %s --check-prefix=SPYRE
// Values through the pipelined schedule equal the reference's:
// RUN: %with_test_targets dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %s --target test-tpu-v5e --seed 3 --outputs %t.tpu > /dev/null
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t.ref/output_%%d.npy' %% i), np.load('%t.tpu/output_%%d.npy' %% i), rtol=1e-5, atol=1e-4) for i in (0, 1, 2)]"

// TPU: remark: {{.*}}kernel 'fc': {{[0-9]+}} chunks of {{[0-9]+}} along dim {{[01]}} through VMEM
// TPU-NOT: kernel 'act': {{.*}} chunks
// SPYRE: remark: {{.*}}kernel 'fc': {{[0-9]+}} chunks of {{[0-9]+}} along dim {{[01]}} through LX
// SPYRE-NOT: kernel 'mid': {{.*}} chunks

func.func @main(%x: tensor<1024x4096xf32> {graph.name = "x"}, %w: tensor<4096x1024xf32> {graph.name = "w"},
                %y: tensor<256x256xf32> {graph.name = "y"}, %a: tensor<64x256xf32> {graph.name = "a"},
                %b: tensor<256x64xf32> {graph.name = "b"})
    -> (tensor<1024x1024xf32>, tensor<256x256xf32>, tensor<64x64xf32>) {
  %0 = graph.matmul %x, %w : (tensor<1024x4096xf32>, tensor<4096x1024xf32>) -> tensor<1024x1024xf32> loc("fc")
  %1 = graph.exp %y : tensor<256x256xf32> loc("act")
  %2 = graph.matmul %a, %b : (tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32> loc("mid")
  return %0, %1, %2 : tensor<1024x1024xf32>, tensor<256x256xf32>, tensor<64x64xf32>
}
