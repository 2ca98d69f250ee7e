module attributes {graph.fusions_refused = [], graph.opset = 6 : i64, graph.source = "/usr/share/libonnx-testdata/data/node/test_instancenorm_example/model.onnx", graph.target = "groq-tsp"} {
  sched.program @main target <name = "groq-tsp", static_plan = true, units = 6, levels = {SRAM = 230686720 : i64}> attributes {stats = {chips = 1 : i64, chunked = [], cycles = 217 : i64, dma_bytes = 0 : i64, dmas = 0 : i64, fusions = 0 : i64, fusions_refused = [], kernels = 1 : i64, ops = 1 : i64, pad_bytes = 3816 : i64, pad_flops = 0 : i64, peak_bytes = {SRAM = 3840 : i64}, relayouts = 0 : i64, spills = [], weight_streaming = false}} {
  ^bb0(%arg0: !sched.buffer<"SRAM", tensor<1x2x1x3xf32>>, %arg1: !sched.buffer<"SRAM", tensor<2xf32>>, %arg2: !sched.buffer<"SRAM", tensor<2xf32>>):
    %0 = sched.alloc {layout = "vector(320) perm(0,2,3,1)", offGset = 0 : i64, size = 3840 : i64} : !sched.buffer<"SRAM", tensor<1x2x1x3xf32>>
    %1 = sched.compute "InstanceNormalization_0" ins(%arg0, %arg1, %arg2 : !sched.buffer<"SRAM", tensor<1x2x1x3xf32>>, !sched.buffer<"SRAM", tensor<2xf32>>, !sched.buffer<"SRAM", tensor<2xf32>>) outs(%0 : !sched.buffer<"SRAM", tensor<1x2x1x3xf32>>) attributes {compute_cycles = 1 : i64, cycles = 217 : i64, grid = 1 : i64, kind = "reduction", memory_cycles = 1 : i64, pad_flops = 0 : i64, start = 0 : i64, tile = array<i64: 320>, unit_begin = 4 : i64, unit_end = 5 : i64} {
    ^bb0(%arg3: tensor<1x2x1x3xf32>, %arg4: tensor<2xf32>, %arg5: tensor<2xf32>):
      %2 = graph.instance_norm %arg3, %arg4, %arg5 : (tensor<1x2x1x3xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x1x3xf32>
      sched.yield %2 : tensor<1x2x1x3xf32>
    }
    sched.return %0 : !sched.buffer<"SRAM", tensor<1x2x1x3xf32>>
  }
}
