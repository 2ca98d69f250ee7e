module attributes {graph.fusions_refused = [], graph.opset = 13 : i64, graph.source = "/usr/share/libonnx-testdata/data/node/test_sce_mean_weight_ii_4d/model.onnx", graph.target = "cpu"} {
  sched.program @main target <name = "cpu", static_plan = false, units = 2, levels = {DDR = 68719476736 : i64, L1 = 32768 : i64, L2 = 524288 : i64, L3 = 8388608 : i64}> attributes {stats = {chips = 1 : i64, chunked = [], dma_bytes = 0 : i64, dmas = 0 : i64, fusions = 0 : i64, fusions_refused = [], kernels = 15 : i64, ops = 15 : i64, pad_bytes = 0 : i64, pad_flops = 0 : i64, peak_bytes = {DDR = 1888 : i64}, relayouts = 0 : i64, spills = [], weight_streaming = false}} {
  ^bb0(%arg0: !sched.buffer<"DDR", tensor<3x5x2x7xf32>>, %arg1: !sched.buffer<"DDR", tensor<3x2x7xi64>>, %arg2: !sched.buffer<"DDR", tensor<5xf32>>):
    %0 = sched.alloc {offset = 0 : i64, size = 864 : i64} : !sched.buffer<"DDR", tensor<3x5x2x7xf32>>
    %1 = sched.compute "SoftmaxCrossEntropyLoss_0" ins(%arg0 : !sched.buffer<"DDR", tensor<3x5x2x7xf32>>) outs(%0 : !sched.buffer<"DDR", tensor<3x5x2x7xf32>>) attributes {compute_cycles = 33 : i64, cycles = 3253 : i64, grid = 1 : i64, kind = "reduction", memory_cycles = 252 : i64, pad_flops = 0 : i64, tile = array<i64: 210>} {
    ^bb0(%arg3: tensor<3x5x2x7xf32>):
      %30 = graph.log_softmax %arg3 {axis = 1 : i64} : tensor<3x5x2x7xf32>
      sched.yield %30 : tensor<3x5x2x7xf32>
    }
    %2 = sched.alloc {offset = 864 : i64, size = 64 : i64} : !sched.buffer<"DDR", tensor<3x2x7xi1>>
    %3 = sched.compute "SoftmaxCrossEntropyLoss_0.1" ins(%arg1 : !sched.buffer<"DDR", tensor<3x2x7xi64>>) outs(%2 : !sched.buffer<"DDR", tensor<3x2x7xi1>>) attributes {compute_cycles = 2 : i64, cycles = 3057 : i64, grid = 1 : i64, kind = "pointwise", memory_cycles = 57 : i64, pad_flops = 0 : i64, tile = array<i64: 42>} {
    ^bb0(%arg3: tensor<3x2x7xi64>):
      %30 = graph.constant dense<2> : tensor<i64>
      %31 = graph.equal %arg3, %30 : (tensor<3x2x7xi64>, tensor<i64>) -> tensor<3x2x7xi1>
      sched.yield %31 : tensor<3x2x7xi1>
    }
    %4 = sched.alloc {offset = 928 : i64, size = 64 : i64} : !sched.buffer<"DDR", tensor<3x2x7xi1>>
    %5 = sched.compute "SoftmaxCrossEntropyLoss_0.2" ins(%2 : !sched.buffer<"DDR", tensor<3x2x7xi1>>) outs(%4 : !sched.buffer<"DDR", tensor<3x2x7xi1>>) after(%3) attributes {compute_cycles = 2 : i64, cycles = 3013 : i64, grid = 1 : i64, kind = "pointwise", memory_cycles = 13 : i64, pad_flops = 0 : i64, tile = array<i64: 42>} {
    ^bb0(%arg3: tensor<3x2x7xi1>):
      %30 = graph.not %arg3 : tensor<3x2x7xi1>
      sched.yield %30 : tensor<3x2x7xi1>
    }
    %6 = sched.alloc {offset = 992 : i64, size = 352 : i64} : !sched.buffer<"DDR", tensor<3x2x7xi64>>
    %7 = sched.compute "SoftmaxCrossEntropyLoss_0.3" ins(%4, %arg1 : !sched.buffer<"DDR", tensor<3x2x7xi1>>, !sched.buffer<"DDR", tensor<3x2x7xi64>>) outs(%6 : !sched.buffer<"DDR", tensor<3x2x7xi64>>) after(%5) attributes {compute_cycles = 2 : i64, cycles = 3108 : i64, grid = 1 : i64, kind = "pointwise", memory_cycles = 108 : i64, pad_flops = 0 : i64, tile = array<i64: 42>} {
    ^bb0(%arg3: tensor<3x2x7xi1>, %arg4: tensor<3x2x7xi64>):
      %30 = graph.constant dense<0> : tensor<i64>
      %31 = graph.where %arg3, %arg4, %30 : (tensor<3x2x7xi1>, tensor<3x2x7xi64>, tensor<i64>) -> tensor<3x2x7xi64>
      sched.yield %31 : tensor<3x2x7xi64>
    }
    %8 = sched.alloc {offset = 1344 : i64, size = 352 : i64} : !sched.buffer<"DDR", tensor<3x1x2x7xi64>>
    %9 = sched.compute "SoftmaxCrossEntropyLoss_0.4" ins(%6 : !sched.buffer<"DDR", tensor<3x2x7xi64>>) outs(%8 : !sched.buffer<"DDR", tensor<3x1x2x7xi64>>) after(%7) attributes {compute_cycles = 1 : i64, cycles = 3101 : i64, grid = 1 : i64, kind = "data", memory_cycles = 101 : i64, pad_flops = 0 : i64, tile = array<i64: 42>} {
    ^bb0(%arg3: tensor<3x2x7xi64>):
      %30 = graph.reshape %arg3 : (tensor<3x2x7xi64>) -> tensor<3x1x2x7xi64>
      sched.yield %30 : tensor<3x1x2x7xi64>
    }
    %10 = sched.alloc {offset = 1696 : i64, size = 192 : i64} : !sched.buffer<"DDR", tensor<3x1x2x7xf32>>
    %11 = sched.compute "SoftmaxCrossEntropyLoss_0.5" ins(%0, %8 : !sched.buffer<"DDR", tensor<3x5x2x7xf32>>, !sched.buffer<"DDR", tensor<3x1x2x7xi64>>) outs(%10 : !sched.buffer<"DDR", tensor<3x1x2x7xf32>>) after(%1, %9) attributes {compute_cycles = 1 : i64, cycles = 3202 : i64, grid = 1 : i64, kind = "data", memory_cycles = 202 : i64, pad_flops = 0 : i64, tile = array<i64: 42>} {
    ^bb0(%arg3: tensor<3x5x2x7xf32>, %arg4: tensor<3x1x2x7xi64>):
      %30 = graph.gather_elements %arg3, %arg4 {axis = 1 : i64} : (tensor<3x5x2x7xf32>, tensor<3x1x2x7xi64>) -> tensor<3x1x2x7xf32>
      sched.yield %30 : tensor<3x1x2x7xf32>
    }
    %12 = sched.alloc {offset = 0 : i64, size$ = 192 : i64} : !sched.buffer<"DDR", tensor<3x2x7xf32>>
    %13 = sched.compute "SoftmaxCrossEntropyLoss_0.6" ins(%10 : !sched.buffer<"DDR", tensor<3x1x2x7xf32>>) outs(%12 : !sched.buffer<"DDR", tensor<3x2x7xf32>>) after(%1, %11) attributes {compute_cycles = 1 : i64, cycles = 3051 : i64, grid = 1 : i64, kind = "data", memory_cycles = 51 : i64, pad_flops = 0 : i64, tile = array<i64: 42>} {
    ^bb0(%arg3: tensor<3x1x2x7xf32>):
      %30 = graph.reshape %arg3 : (tensor<3x1x2x7xf32>) -> tensor<3x2x7xf32>
      sched.yield %30 : tensor<3x2x7xf32>
    }
    %14 = sched.alloc {offset = 192 : i64, size = 192 : i64} : !sched.buffer<"DDR", tensor<3x2x7xf32>>
    %15 = sched.compute "SoftmaxCrossEntropyLoss_0.7" ins(%12 : !sched.buffer<"DDR", tensor<3x2x7xf32>>) outs(%14 : !sched.buffer<"DDR", tensor<3x2x7xf32>>) after(%1, %11, %13) attributes {compute_cycles = 2 : i64, cycles = 3051 : i64, grid = 1 : i64, kind = "pointwise", memory_cycles = 51 : i64, pad_flops = 0 : i64, tile = array<i64: 42>} {
    ^bb0(%arg3: tensor<3x2x7xf32>):
      %30 = graph.neg %arg3 : tensor<3x2x7xf32>
      sched.yield %30 : tensor<3x2x7xf32>
    }
    %16 = sched.alloc {offset = 0 : i64, size = 192 : i64} : !sched.buffer<"DDR", tensor<3x2x7xf32>>
    %17 = sched.compute "SoftmaxCrossEntropyLoss_0.8" ins(%arg2, %6 : !sched.buffer<"DDR", tensor<5xf32>>, !sched.buffer<"DDR", tensor<3x2x7xi64>>) outs(%16 : !sched.buffer<"DDR", tensor<3x2x7xf32>>) after(%1, %7, %11, %13, %15) attributes {compute_cycles = 1 : i64, cycles = 3079 : i64, grid = 1 : i64, kind = "data", memory_cycles = 79 : i64, pad_flops = 0 : i64, tile = array<i64: 42>} {
    ^bb0(%arg3: tensor<5xf32>, %arg4: tensor<3x2x7xi64>):
      %30 = graph.gather %arg3, %arg4 {axis = 0 : i64} : (tensor<5xf32>, tensor<3x2x7xi64>) -> tensor<3x2x7xf32>
      sched.yield %30 : tensor<3x2x7xf32>
    }
    %18 = sched.alloc {offset = 384 : i64, size = 192 : i64} : !sched.buffer<"DDR", tensor<3x2x7xf32>>
    %19 = sched.compute "SoftmaxCrossEntropyLoss_0.9" ins(%14, %16 : !sched.buffer<"DDR", tensor<3x2x7xf32>>, !sched.buffer<"DDR", tensor<3x2x7xf32>>) outs(%18 : !sched.buffer<"DDR", tensor<3x2x7xf32>>) after(%1, %11, %15, %17) attributes {compute_cycles = 2 : i64, cycles = 3076 : i64, grid = 1 : i64, kind = "pointwise", memory_cycles = 76 : i64, pad_flops = 0 : i64, tile = array<i64: 42>} {
    ^bb0(%arg3: tensor<3x2x7xf32>, %arg4: tensor<3x2x7xf32>):
      %30 = graph.mul %arg3, %arg4 : (tensor<3x2x7xf32>, tensor<3x2x7xf32>) -> tensor<3x2x7xf32>
      sched.yield %30 : tensor<3x2x7xf32>
    }
    %20 = sched.alloc {offset = 192 : i64, size = 192 : i64} : !sched.buffer<"DDR", tensor<3x2x7xf32>>
    %21 = sched.compute "SoftmaxCrossEntropyLoss_0.10" ins(%4, %18 : !sched.buffer<"DDR", tensor<3x2x7xi1>>, !sched.buffer<"DDR", tensor<3x2x7xf32>>) outs(%20 : !sched.buffer<"DDR", tensor<3x2x7xf32>>) after(%1, %5, %11, %15, %19) attributes {compute_cycles = 2 : i64, cycles = 3057 : i64, grid = 1 : i64, kind = "pointwise", memory_cycles = 57 : i64, pad_flops = 0 : i64, tile = array<i64: 42>} {
    ^bb0(%arg3: tensor<3x2x7xi1>, %arg4: tensor<3x2x7xf32>):
      %30 = graph.constant dense<0.000000e+00> : tensor<f32>
      %31 = graph.where %arg3, %arg4, %30 : (tensor<3x2x7xi1>, tensor<3x2x7xf32>, tensor<f32>) -> tensor<3x2x7xf32>
      sched.yield %31 : tensor<3x2x7xf32>
    }
    %22 = sched.alloc {offset = 384 : i64, size = 192 : i64} : !sched.buffer<"DDR", tensor<3x2x7xf32>>
    %23 = sched.compute "SoftmaxCrossEntropyLoss_0.11" ins(%4, %16 : !sched.buffer<"DDR", tensor<3x2x7xi1>>, !sched.buffer<"DDR", tensor<3x2x7xf32>>) outs(%22 : !sched.buffer<"DDR", tensor<3x2x7xf32>>) after(%1, %5, %11, %17, %19, %21) attributes {compute_cycles = 2 : i64, cycles = 3057 : i64, grid = 1 : i64, kind = "pointwise", memory_cycles = 57 : i64, pad_flops = 0 : i64, tile = array<i64: 42>} {
    ^bb0(%arg3: tensor<3x2x7xi1>, %arg4: tensor<3x2x7xf32>):
      %30 = graph.constant dense<0.000000e+00> : tensor<f32>
      %31 = graph.where %arg3, %arg4, %30 : (tensor<3x2x7xi1>, tensor<3x2x7xf32>, tensor<f32>) -> tensor<3x2x7xf32>
      sched.yield %31 : tensor<3x2x7xf32>
    }
    %24 = sched.alloc {offset = 0 : i64, size = 32 : i64} : !sched.buffer<"DDR", tensor<f32>>
    %25 = sched.compute "SoftmaxCrossEntropyLoss_0.12" ins(%22 : !sched.buffer<"DDR", tensor<3x2x7xf32>>) outs(%24 : !sched.buffer<"DDR", tensor<f32>>) after(%1, %11, %17, %19, %23) attributes {compute_cycles = 2 : i64, cycles = 3026 : i64, grid = 1 : i64, kind = "reduction", memory_cycles = 26 : i64, pad_flops = 0 : i64, tile = array<i64: 1>} {
    ^bb0(%arg3: tensor<3x2x7xf32>):
      %30 = graph.reduce_sum %arg3 {axes = array<i64: 0, 1, 2>, keepdims = false} : (tensor<3x2x7xf32>) -> tensor<f32>
      sched.yield %30 : tensor<f32>
    }
    %26 = sched.alloc {offset = 32 : i64, size = 32 : i64} : !sched.buffer<"DDR", tensor<f32>>
    %27 = sched.compute "SoftmaxCrossEntropyLoss_0.13" ins(%20 : !sched.buffer<"DDR", tensor<3x2x7xf32>>) outs(%26 : !sched.buffer<"DDR", tensor<f32>>) after(%1, %11, %17, %19, %21, %23) attributes {compute_cycles = 2 : i64, cycles = 3026 : i64, grid = 1 : i64, kind = "reduction", memory_cycles = 26 : i64, pad_flops = 0 : i64, tile = array<i64: 1>} {
    ^bb0(%arg3: tensor<3x2x7xf32>):
      %30 = graph.reduce_sum %arg3 {axes = array<i64: 0, 1, 2>, keepdims = false} : (tensor<3x2x7xf32>) -> tensor<f32>
      sched.yield %30 : tensor<f32>
    }
    %28 = sched.alloc {offset = 64 : i64, size = 32 : i64} : !sched.buffer<"DDR", tensor<f32>>
    %29 = sched.compute "SoftmaxCrossEntropyLoss_0.14" ins(%26, %24 : !sched.buffer<"DDR", tensor<f32>>, !sched.buffer<"DDR", tensor<f32>>) outs(%28 : !sched.buffer<"DDR", tensor<f32>>) after(%1, %11, %17, %19, %23, %25, %27) attributes {compute_cycles = 1 : i64, cycles = 3002 : i64, grid = 1 : i64, kind = "pointwise", memory_cycles = 2 : i64, pad_flops = 0 : i64, tile = array<i64: 1>} {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %30 = graph.div %arg3, %arg4 : (tensor<f32>, tensor<f32>) -> tensor<f32>
      sched.yield %30 : tensor<f32>
    }
    sched.return %28 : !sched.buffer<"DDR", tensor<f32>>
  }
}
