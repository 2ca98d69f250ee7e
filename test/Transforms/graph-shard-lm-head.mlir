// An LM head stored [K, N] (torch's linear as ONNX exporters write it:
// [4096, 128256] f16, 1.05 GB) whose result is the graph's: cut along N
// into column windows, each piece making its columns, which go to the
// host from its chip (Lowering::partsFasterToHost), though its padded
// windows hold more bytes than pieces cut along K, which passed a partial
// of the whole [8, 128256] result from chip to chip (batch 8 on groq-tsp
// 485 -> 17.1 us, batch 128 14.3 ms -> 251 us: as fast as the same head
// stored [128256, 4096] and read transposed).
// RUN: dfa-opt %s -graph-shard="target=groq-tsp remarks=true" 2>&1 | FileCheck %s
// CHECK: remark: loc("lm_head"): split across 6 chips: its weight 'W' (1051197440 B stored) exceeds the 207618048 B one chip holds for weights
// CHECK-COUNT-6: graph.weight "W.shard{{[0-5]}}" at ""[0] : tensor<4096x21376xf16>
// CHECK-NOT: graph.add
// CHECK: graph.concat {{.*}} {axis = 1 : i64} {{.*}} -> tensor<8x128256xf16>
// CHECK-NOT: graph.add

func.func @main(%x: tensor<8x4096xf16> {graph.name = "x"}) -> tensor<8x128256xf16> {
  %w = graph.weight "W" at ""[0] : tensor<4096x128256xf16> loc("W")
  %y = graph.matmul %x, %w : (tensor<8x4096xf16>, tensor<4096x128256xf16>) -> tensor<8x128256xf16> loc("lm_head")
  return %y : tensor<8x128256xf16>
}
