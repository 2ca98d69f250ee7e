// Tensor parallelism with fewer K/V heads than chips (GQA): each chip
// computes and caches the K/V head its query heads read, a copy of it on
// chips / KV-heads chips, as vLLM and TensorRT-LLM replicate K/V heads;
// the query heads, the attention and the output product split as usual
// and nothing is gathered. Two K/V heads, eight query heads:
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=4" | FileCheck %s --check-prefix=FOUR
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=8" | FileCheck %s --check-prefix=EIGHT
// Replicas never reach past a chip per part: two chips hold the two heads.
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=2" | FileCheck %s --check-prefix=TWO
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=8 remarks=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// Nothing is gathered anywhere, at any of these chip counts:
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=4" | FileCheck %s --check-prefix=NOGATHER
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=8" | FileCheck %s --check-prefix=NOGATHER
// NOGATHER-NOT: graph.all_gather

// A fused QKV product: the chip's columns are its query heads' and its
// copy of their K/V head's (8 x 16 / 4 + 2 x 2 x 16 / 2 = 64 over four
// chips, 16 + 2 x 16 = 48 over eight). The repeat of the K/V heads for
// their query heads repeats them only for the chip's query heads.
// FOUR-LABEL: func.func @fused(%arg0: tensor<2x8x128xf16> {graph.name = "x"}, %arg1: tensor<2x1x8x16xf16> {graph.name = "past_k"}, %arg2: tensor<2x1x8x16xf16> {graph.name = "past_v"})
// FOUR-SAME: -> (tensor<2x8x128xf16>, tensor<2x1x16x16xf16>, tensor<2x1x16x16xf16>)
// FOUR: graph.weight "qkv.tp-cols" at ""[0] : tensor<128x64xf16>
// FOUR: graph.split %{{.*}} {axis = 2 : i64, sizes = array<i64: 32, 16, 16>} : (tensor<2x8x64xf16>)
// FOUR: graph.concat %arg1, %{{.*}} {axis = 2 : i64} : (tensor<2x1x8x16xf16>, tensor<2x1x8x16xf16>) -> tensor<2x1x16x16xf16>
// FOUR: graph.expand %{{.*}} : (tensor<2x1x1x16x16xf16>) -> tensor<2x1x2x16x16xf16>
// FOUR-NOT: graph.slice
// FOUR: graph.attention {{.*}} : (tensor<2x2x8x16xf16>, tensor<2x2x16x16xf16>, tensor<2x2x16x16xf16>) -> tensor<2x2x8x16xf16>
// FOUR: graph.weight "o.tp-rows" at ""[0] : tensor<32x128xf16>
// FOUR: graph.all_reduce %{{.*}} {chips = 4 : i64}
// FOUR-NOT: graph.all_
// FOUR: return

// EIGHT-LABEL: func.func @fused(%arg0: tensor<2x8x128xf16> {graph.name = "x"}, %arg1: tensor<2x1x8x16xf16> {graph.name = "past_k"}, %arg2: tensor<2x1x8x16xf16> {graph.name = "past_v"})
// EIGHT-SAME: -> (tensor<2x8x128xf16>, tensor<2x1x16x16xf16>, tensor<2x1x16x16xf16>)
// EIGHT: graph.weight "qkv.tp-cols" at ""[0] : tensor<128x48xf16>
// EIGHT: graph.split %{{.*}} {axis = 2 : i64, sizes = array<i64: 16, 16, 16>} : (tensor<2x8x48xf16>)
// EIGHT: graph.attention {{.*}} : (tensor<2x1x8x16xf16>, tensor<2x1x16x16xf16>, tensor<2x1x16x16xf16>) -> tensor<2x1x8x16xf16>
// EIGHT: graph.all_reduce %{{.*}} {chips = 8 : i64}
// EIGHT-NOT: graph.all_
// EIGHT: return

// TWO-LABEL: func.func @fused(%arg0: tensor<2x8x128xf16> {graph.name = "x"}, %arg1: tensor<2x1x8x16xf16> {graph.name = "past_k"}, %arg2: tensor<2x1x8x16xf16> {graph.name = "past_v"})
// TWO: graph.weight "qkv.tp-cols" at ""[0] : tensor<128x96xf16>
// TWO: graph.expand %{{.*}} : (tensor<2x1x1x16x16xf16>) -> tensor<2x1x4x16x16xf16>

func.func @fused(%x: tensor<2x8x128xf16> {graph.name = "x"}, %pk: tensor<2x2x8x16xf16> {graph.name = "past_k"},
                 %pv: tensor<2x2x8x16xf16> {graph.name = "past_v"})
    -> (tensor<2x8x128xf16>, tensor<2x2x16x16xf16>, tensor<2x2x16x16xf16>) {
  %wqkv = graph.weight "qkv" at "m.bin"[0] : tensor<128x192xf16>
  %qkv = graph.matmul %x, %wqkv : (tensor<2x8x128xf16>, tensor<128x192xf16>) -> tensor<2x8x192xf16>
  %q, %k, %v = graph.split %qkv {axis = 2 : i64, sizes = array<i64: 128, 32, 32>} : (tensor<2x8x192xf16>) -> (tensor<2x8x128xf16>, tensor<2x8x32xf16>, tensor<2x8x32xf16>)
  %q4 = graph.reshape %q : (tensor<2x8x128xf16>) -> tensor<2x8x8x16xf16>
  %qt = graph.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x8x16xf16>) -> tensor<2x8x8x16xf16>
  %k4 = graph.reshape %k : (tensor<2x8x32xf16>) -> tensor<2x8x2x16xf16>
  %kt = graph.transpose %k4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x2x16xf16>) -> tensor<2x2x8x16xf16>
  %kc = graph.concat %pk, %kt {axis = 2 : i64} : (tensor<2x2x8x16xf16>, tensor<2x2x8x16xf16>) -> tensor<2x2x16x16xf16>
  %v4 = graph.reshape %v : (tensor<2x8x32xf16>) -> tensor<2x8x2x16xf16>
  %vt = graph.transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x2x16xf16>) -> tensor<2x2x8x16xf16>
  %vc = graph.concat %pv, %vt {axis = 2 : i64} : (tensor<2x2x8x16xf16>, tensor<2x2x8x16xf16>) -> tensor<2x2x16x16xf16>
  %k5 = graph.reshape %kc : (tensor<2x2x16x16xf16>) -> tensor<2x2x1x16x16xf16>
  %ke = graph.expand %k5 : (tensor<2x2x1x16x16xf16>) -> tensor<2x2x4x16x16xf16>
  %kr = graph.reshape %ke : (tensor<2x2x4x16x16xf16>) -> tensor<2x8x16x16xf16>
  %v5 = graph.reshape %vc : (tensor<2x2x16x16xf16>) -> tensor<2x2x1x16x16xf16>
  %ve = graph.expand %v5 : (tensor<2x2x1x16x16xf16>) -> tensor<2x2x4x16x16xf16>
  %vr = graph.reshape %ve : (tensor<2x2x4x16x16xf16>) -> tensor<2x8x16x16xf16>
  %a = graph.attention %qt, %kr, %vr {scale = 0.25 : f64} : (tensor<2x8x8x16xf16>, tensor<2x8x16x16xf16>, tensor<2x8x16x16xf16>) -> tensor<2x8x8x16xf16>
  %at = graph.transpose %a {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x8x16xf16>) -> tensor<2x8x8x16xf16>
  %a2 = graph.reshape %at : (tensor<2x8x8x16xf16>) -> tensor<2x8x128xf16>
  %wo = graph.weight "o" at "m.bin"[49152] : tensor<128x128xf16>
  %o = graph.matmul %a2, %wo : (tensor<2x8x128xf16>, tensor<128x128xf16>) -> tensor<2x8x128xf16>
  %y = graph.add %x, %o : (tensor<2x8x128xf16>, tensor<2x8x128xf16>) -> tensor<2x8x128xf16>
  return %y, %kc, %vc : tensor<2x8x128xf16>, tensor<2x2x16x16xf16>, tensor<2x2x16x16xf16>
}

// Separate products, attention written out as two batched products (an
// unraised export): the K/V products take the chip's copy of its K/V head
// (16 of 32 columns over four chips); the scores' K^T, a transpose of the
// repeat, is a transpose of the smaller repeat.
// FOUR-LABEL: func.func @separate(%arg0: tensor<2x8x128xf16> {graph.name = "x"})
// FOUR: graph.weight "k.tp-cols" at ""[0] : tensor<128x16xf16>
// FOUR-NOT: graph.slice
// FOUR: graph.expand %{{.*}} : (tensor<2x1x1x8x16xf16>) -> tensor<2x1x2x8x16xf16>
// FOUR-NOT: graph.slice
// FOUR: graph.transpose %{{.*}} {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x2x8x16xf16>) -> tensor<2x2x16x8xf16>
// FOUR: graph.matmul %{{.*}} : (tensor<2x2x8x16xf16>, tensor<2x2x16x8xf16>) -> tensor<2x2x8x8xf16>
// FOUR: graph.all_reduce %{{.*}} {chips = 4 : i64}
// FOUR-NOT: graph.all_
// FOUR: return

// Each product whose parts several chips hold says so, at its node:
// REMARK: gqa.mlir:{{[0-9]+}}:10: remark: fused product's pieces: 8 parts, 2 parts each held by 4 chips, 2 parts each held by 4 chips
// REMARK: gqa.mlir:{{[0-9]+}}:8: remark: columns in 2 parts of 16, each held by 4 chips
// REMARK: remark: fused product's pieces: 4 parts each held by 2 chips, whole on every chip, whole on every chip
// One all-reduce a function, nothing gathered:
// REMARK: remark: tensor parallelism over 8 chips: {{[0-9]+}} ops partitioned, 11 collectives

func.func @separate(%x: tensor<2x8x128xf16> {graph.name = "x"}) -> tensor<2x8x128xf16> {
  %wq = graph.weight "q" at "m.bin"[0] : tensor<128x128xf16>
  %wk = graph.weight "k" at "m.bin"[32768] : tensor<128x32xf16>
  %wv = graph.weight "v" at "m.bin"[40960] : tensor<128x32xf16>
  %q = graph.matmul %x, %wq : (tensor<2x8x128xf16>, tensor<128x128xf16>) -> tensor<2x8x128xf16>
  %k = graph.matmul %x, %wk : (tensor<2x8x128xf16>, tensor<128x32xf16>) -> tensor<2x8x32xf16>
  %v = graph.matmul %x, %wv : (tensor<2x8x128xf16>, tensor<128x32xf16>) -> tensor<2x8x32xf16>
  %q4 = graph.reshape %q : (tensor<2x8x128xf16>) -> tensor<2x8x8x16xf16>
  %qt = graph.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x8x16xf16>) -> tensor<2x8x8x16xf16>
  %k4 = graph.reshape %k : (tensor<2x8x32xf16>) -> tensor<2x8x2x16xf16>
  %kt = graph.transpose %k4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x2x16xf16>) -> tensor<2x2x8x16xf16>
  %k5 = graph.reshape %kt : (tensor<2x2x8x16xf16>) -> tensor<2x2x1x8x16xf16>
  %ke = graph.expand %k5 : (tensor<2x2x1x8x16xf16>) -> tensor<2x2x4x8x16xf16>
  %kr = graph.reshape %ke : (tensor<2x2x4x8x16xf16>) -> tensor<2x8x8x16xf16>
  %kT = graph.transpose %kr {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x8x8x16xf16>) -> tensor<2x8x16x8xf16>
  %s = graph.matmul %qt, %kT : (tensor<2x8x8x16xf16>, tensor<2x8x16x8xf16>) -> tensor<2x8x8x8xf16>
  %p = graph.softmax %s {axis = 3 : i64} : tensor<2x8x8x8xf16>
  %v4 = graph.reshape %v : (tensor<2x8x32xf16>) -> tensor<2x8x2x16xf16>
  %vt = graph.transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x2x16xf16>) -> tensor<2x2x8x16xf16>
  %v5 = graph.reshape %vt : (tensor<2x2x8x16xf16>) -> tensor<2x2x1x8x16xf16>
  %ve = graph.expand %v5 : (tensor<2x2x1x8x16xf16>) -> tensor<2x2x4x8x16xf16>
  %vr = graph.reshape %ve : (tensor<2x2x4x8x16xf16>) -> tensor<2x8x8x16xf16>
  %a = graph.matmul %p, %vr : (tensor<2x8x8x8xf16>, tensor<2x8x8x16xf16>) -> tensor<2x8x8x16xf16>
  %at = graph.transpose %a {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x8x16xf16>) -> tensor<2x8x8x16xf16>
  %a2 = graph.reshape %at : (tensor<2x8x8x16xf16>) -> tensor<2x8x128xf16>
  %wo = graph.weight "o" at "m.bin"[49152] : tensor<128x128xf16>
  %o = graph.matmul %a2, %wo : (tensor<2x8x128xf16>, tensor<128x128xf16>) -> tensor<2x8x128xf16>
  return %o : tensor<2x8x128xf16>
}

// Anything else between the repeat and its reader (here a scaling of the
// repeated keys): each chip slices its query heads' share out of the
// repeat it holds, still without a transfer.
// FOUR-LABEL: func.func @scaled(%arg0: tensor<2x8x128xf16> {graph.name = "x"})
// FOUR: graph.mul %{{.*}} : (tensor<2x4x8x16xf16>, tensor<f16>) -> tensor<2x4x8x16xf16>
// FOUR: graph.slice %{{.*}} : (tensor<2x4x8x16xf16>) -> tensor<2x2x8x16xf16>
// FOUR: graph.attention {{.*}} -> tensor<2x2x8x16xf16>
// FOUR: graph.all_reduce %{{.*}} {chips = 4 : i64}
// FOUR-NOT: graph.all_
// FOUR: return

func.func @scaled(%x: tensor<2x8x128xf16> {graph.name = "x"}) -> tensor<2x8x128xf16> {
  %wq = graph.weight "q" at "m.bin"[0] : tensor<128x128xf16>
  %wkv = graph.weight "kv" at "m.bin"[32768] : tensor<128x32xf16>
  %q = graph.matmul %x, %wq : (tensor<2x8x128xf16>, tensor<128x128xf16>) -> tensor<2x8x128xf16>
  %k = graph.matmul %x, %wkv : (tensor<2x8x128xf16>, tensor<128x32xf16>) -> tensor<2x8x32xf16>
  %q4 = graph.reshape %q : (tensor<2x8x128xf16>) -> tensor<2x8x8x16xf16>
  %qt = graph.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x8x16xf16>) -> tensor<2x8x8x16xf16>
  %k4 = graph.reshape %k : (tensor<2x8x32xf16>) -> tensor<2x8x2x16xf16>
  %kt = graph.transpose %k4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x2x16xf16>) -> tensor<2x2x8x16xf16>
  %k5 = graph.reshape %kt : (tensor<2x2x8x16xf16>) -> tensor<2x2x1x8x16xf16>
  %ke = graph.expand %k5 : (tensor<2x2x1x8x16xf16>) -> tensor<2x2x4x8x16xf16>
  %kr = graph.reshape %ke : (tensor<2x2x4x8x16xf16>) -> tensor<2x8x8x16xf16>
  %c = graph.constant dense<5.000000e-01> : tensor<f16>
  %ks = graph.mul %kr, %c : (tensor<2x8x8x16xf16>, tensor<f16>) -> tensor<2x8x8x16xf16>
  %a = graph.attention %qt, %ks, %kr {scale = 0.25 : f64} : (tensor<2x8x8x16xf16>, tensor<2x8x8x16xf16>, tensor<2x8x8x16xf16>) -> tensor<2x8x8x16xf16>
  %at = graph.transpose %a {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x8x16xf16>) -> tensor<2x8x8x16xf16>
  %a2 = graph.reshape %at : (tensor<2x8x8x16xf16>) -> tensor<2x8x128xf16>
  %wo = graph.weight "o" at "m.bin"[49152] : tensor<128x128xf16>
  %o = graph.matmul %a2, %wo : (tensor<2x8x128xf16>, tensor<128x128xf16>) -> tensor<2x8x128xf16>
  return %o : tensor<2x8x128xf16>
}

// MQA: one K/V head, computed and cached whole on every chip (as vLLM
// replicates it), beside the chip's query heads in the fused product's
// columns; the repeat for the chip's query heads is a smaller repeat.
// FOUR-LABEL: func.func @mqa(%arg0: tensor<2x8x64xf16> {graph.name = "x"}, %arg1: tensor<2x1x8x16xf16> {graph.name = "past_k"})
// FOUR: graph.weight "qkv.tp-cols" at ""[0] : tensor<64x48xf16>
// FOUR: graph.split %{{.*}} {axis = 2 : i64, sizes = array<i64: 16, 16, 16>}
// FOUR: graph.expand %{{.*}} : (tensor<2x1x1x16x16xf16>) -> tensor<2x1x1x16x16xf16>
// FOUR-NOT: graph.slice
// FOUR: graph.attention {{.*}} : (tensor<2x1x8x16xf16>, tensor<2x1x16x16xf16>, tensor<2x1x16x16xf16>) -> tensor<2x1x8x16xf16>
// FOUR: graph.all_reduce %{{.*}} {chips = 4 : i64}
// FOUR: return

func.func @mqa(%x: tensor<2x8x64xf16> {graph.name = "x"}, %pk: tensor<2x1x8x16xf16> {graph.name = "past_k"})
    -> (tensor<2x8x64xf16>, tensor<2x1x16x16xf16>) {
  %wqkv = graph.weight "qkv" at "m.bin"[0] : tensor<64x96xf16>
  %qkv = graph.matmul %x, %wqkv : (tensor<2x8x64xf16>, tensor<64x96xf16>) -> tensor<2x8x96xf16>
  %q, %k, %v = graph.split %qkv {axis = 2 : i64, sizes = array<i64: 64, 16, 16>} : (tensor<2x8x96xf16>) -> (tensor<2x8x64xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>)
  %q4 = graph.reshape %q : (tensor<2x8x64xf16>) -> tensor<2x8x4x16xf16>
  %qt = graph.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x4x16xf16>) -> tensor<2x4x8x16xf16>
  %k4 = graph.reshape %k : (tensor<2x8x16xf16>) -> tensor<2x8x1x16xf16>
  %kt = graph.transpose %k4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x1x16xf16>) -> tensor<2x1x8x16xf16>
  %kc = graph.concat %pk, %kt {axis = 2 : i64} : (tensor<2x1x8x16xf16>, tensor<2x1x8x16xf16>) -> tensor<2x1x16x16xf16>
  %v4 = graph.reshape %v : (tensor<2x8x16xf16>) -> tensor<2x8x1x16xf16>
  %vt = graph.transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x1x16xf16>) -> tensor<2x1x8x16xf16>
  %vc = graph.concat %pk, %vt {axis = 2 : i64} : (tensor<2x1x8x16xf16>, tensor<2x1x8x16xf16>) -> tensor<2x1x16x16xf16>
  %k5 = graph.reshape %kc : (tensor<2x1x16x16xf16>) -> tensor<2x1x1x16x16xf16>
  %ke = graph.expand %k5 : (tensor<2x1x1x16x16xf16>) -> tensor<2x1x4x16x16xf16>
  %kr = graph.reshape %ke : (tensor<2x1x4x16x16xf16>) -> tensor<2x4x16x16xf16>
  %v5 = graph.reshape %vc : (tensor<2x1x16x16xf16>) -> tensor<2x1x1x16x16xf16>
  %ve = graph.expand %v5 : (tensor<2x1x1x16x16xf16>) -> tensor<2x1x4x16x16xf16>
  %vr = graph.reshape %ve : (tensor<2x1x4x16x16xf16>) -> tensor<2x4x16x16xf16>
  %a = graph.attention %qt, %kr, %vr {scale = 0.25 : f64} : (tensor<2x4x8x16xf16>, tensor<2x4x16x16xf16>, tensor<2x4x16x16xf16>) -> tensor<2x4x8x16xf16>
  %at = graph.transpose %a {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x8x16xf16>) -> tensor<2x8x4x16xf16>
  %a2 = graph.reshape %at : (tensor<2x8x4x16xf16>) -> tensor<2x8x64xf16>
  %wo = graph.weight "o" at "m.bin"[12288] : tensor<64x64xf16>
  %o = graph.matmul %a2, %wo : (tensor<2x8x64xf16>, tensor<64x64xf16>) -> tensor<2x8x64xf16>
  return %o, %kc : tensor<2x8x64xf16>, tensor<2x1x16x16xf16>
}

// Three K/V heads a chip (six over four chips, two chips each): a chip's
// query heads read K/V heads 0, 0, 1 of its three, which no smaller repeat
// gives, so it slices them out of the repeat it holds.
// FOUR-LABEL: func.func @several(%arg0: tensor<2x8x192xf16> {graph.name = "x"})
// FOUR: graph.weight "k.tp-cols" at ""[0] : tensor<192x48xf16>
// FOUR: graph.expand %{{.*}} : (tensor<2x3x1x8x16xf16>) -> tensor<2x3x2x8x16xf16>
// FOUR: graph.slice %{{.*}} : (tensor<2x6x8x16xf16>) -> tensor<2x3x8x16xf16>
// FOUR: graph.attention {{.*}} -> tensor<2x3x8x16xf16>
// FOUR: return

func.func @several(%x: tensor<2x8x192xf16> {graph.name = "x"}) -> tensor<2x8x192xf16> {
  %wq = graph.weight "q" at "m.bin"[0] : tensor<192x192xf16>
  %wk = graph.weight "k" at "m.bin"[73728] : tensor<192x96xf16>
  %q = graph.matmul %x, %wq : (tensor<2x8x192xf16>, tensor<192x192xf16>) -> tensor<2x8x192xf16>
  %k = graph.matmul %x, %wk : (tensor<2x8x192xf16>, tensor<192x96xf16>) -> tensor<2x8x96xf16>
  %q4 = graph.reshape %q : (tensor<2x8x192xf16>) -> tensor<2x8x12x16xf16>
  %qt = graph.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x12x16xf16>) -> tensor<2x12x8x16xf16>
  %k4 = graph.reshape %k : (tensor<2x8x96xf16>) -> tensor<2x8x6x16xf16>
  %kt = graph.transpose %k4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x6x16xf16>) -> tensor<2x6x8x16xf16>
  %k5 = graph.reshape %kt : (tensor<2x6x8x16xf16>) -> tensor<2x6x1x8x16xf16>
  %ke = graph.expand %k5 : (tensor<2x6x1x8x16xf16>) -> tensor<2x6x2x8x16xf16>
  %kr = graph.reshape %ke : (tensor<2x6x2x8x16xf16>) -> tensor<2x12x8x16xf16>
  %a = graph.attention %qt, %kr, %kr {scale = 0.25 : f64} : (tensor<2x12x8x16xf16>, tensor<2x12x8x16xf16>, tensor<2x12x8x16xf16>) -> tensor<2x12x8x16xf16>
  %at = graph.transpose %a {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x12x8x16xf16>) -> tensor<2x8x12x16xf16>
  %a2 = graph.reshape %at : (tensor<2x8x12x16xf16>) -> tensor<2x8x192xf16>
  %wo = graph.weight "o" at "m.bin"[110592] : tensor<192x192xf16>
  %o = graph.matmul %a2, %wo : (tensor<2x8x192xf16>, tensor<192x192xf16>) -> tensor<2x8x192xf16>
  return %o : tensor<2x8x192xf16>
}

// A Gemm after a split whose parts two chips hold (two heads over four
// chips): each chip takes its half of its part, then its rows of the
// weight, and one all-reduce sums them.
// FOUR-LABEL: func.func @gemm(%arg0: tensor<8x128xf16> {graph.name = "x"})
// FOUR: graph.weight "up.tp-cols" at ""[0] : tensor<128x16xf16>
// FOUR: graph.slice %{{.*}} : (tensor<8x16xf16>) -> tensor<8x8xf16>
// FOUR: graph.weight "down.tp-rows" at ""[0] : tensor<8x128xf16>
// FOUR: graph.gemm %{{.*}} : (tensor<8x8xf16>, tensor<8x128xf16>) -> tensor<8x128xf16>
// FOUR: graph.all_reduce %{{.*}} {chips = 4 : i64}

func.func @gemm(%x: tensor<8x128xf16> {graph.name = "x"}) -> tensor<8x128xf16> {
  %w1 = graph.weight "up" at "m.bin"[0] : tensor<128x32xf16>
  %h = graph.matmul %x, %w1 : (tensor<8x128xf16>, tensor<128x32xf16>) -> tensor<8x32xf16>
  %h3 = graph.reshape %h : (tensor<8x32xf16>) -> tensor<8x2x16xf16>
  %r = graph.relu %h3 : tensor<8x2x16xf16>
  %h2 = graph.reshape %r : (tensor<8x2x16xf16>) -> tensor<8x32xf16>
  %w2 = graph.weight "down" at "m.bin"[8192] : tensor<32x128xf16>
  %o = graph.gemm %h2, %w2 : (tensor<8x32xf16>, tensor<32x128xf16>) -> tensor<8x128xf16>
  return %o : tensor<8x128xf16>
}

// A split whose parts would reach a row-parallel product whose rows do not
// divide among the chips (six over four) is not taken: the up product
// stays whole rather than be gathered (the down product's columns split,
// its result returned as the chip's part).
// FOUR-LABEL: func.func @rows(%arg0: tensor<2x8x128xf16> {graph.name = "x"})
// FOUR: graph.weight "up" at "m.bin"[0] : tensor<128x6xf16>
// FOUR: graph.matmul %arg0, %{{.*}} : (tensor<2x8x128xf16>, tensor<128x6xf16>) -> tensor<2x8x6xf16>
// FOUR: graph.weight "down.tp-cols" at ""[0] : tensor<6x32xf16>
// FOUR: return
func.func @rows(%x: tensor<2x8x128xf16> {graph.name = "x"}) -> tensor<2x8x128xf16> {
  %w1 = graph.weight "up" at "m.bin"[0] : tensor<128x6xf16>
  %u = graph.matmul %x, %w1 : (tensor<2x8x128xf16>, tensor<128x6xf16>) -> tensor<2x8x6xf16>
  %g = graph.relu %u : tensor<2x8x6xf16>
  %w2 = graph.weight "down" at "m.bin"[2048] : tensor<6x128xf16>
  %d = graph.matmul %g, %w2 : (tensor<2x8x6xf16>, tensor<6x128xf16>) -> tensor<2x8x128xf16>
  %y = graph.add %x, %d : (tensor<2x8x128xf16>, tensor<2x8x128xf16>) -> tensor<2x8x128xf16>
  return %y : tensor<2x8x128xf16>
}

// MQA with attention as two batched products: V's one head is not split
// along its head dim (the probabilities, split by query heads, would then
// need it gathered): V and the caches stay whole, each chip takes its
// query heads' share of the repeat, and only the output product reduces.
// FOUR-LABEL: func.func @mqa_unraised(%arg0: tensor<2x1x64xf16> {graph.name = "x"}, %arg1: tensor<2x1x32x16xf16> {graph.name = "past_k"}, %arg2: tensor<2x1x32x16xf16> {graph.name = "past_v"})
// FOUR: graph.weight "qkv.tp-cols" at ""[0] : tensor<64x48xf16>
// FOUR: graph.matmul %{{.*}} : (tensor<2x1x1x33xf16>, tensor<2x1x33x16xf16>) -> tensor<2x1x1x16xf16>
// FOUR: graph.all_reduce
// FOUR: return

func.func @mqa_unraised(%x: tensor<2x1x64xf16> {graph.name = "x"}, %pk: tensor<2x1x32x16xf16> {graph.name = "past_k"}, %pv: tensor<2x1x32x16xf16> {graph.name = "past_v"})
    -> (tensor<2x1x64xf16>, tensor<2x1x33x16xf16>, tensor<2x1x33x16xf16>) {
  %wqkv = graph.weight "qkv" at "m.bin"[0] : tensor<64x96xf16>
  %qkv = graph.matmul %x, %wqkv : (tensor<2x1x64xf16>, tensor<64x96xf16>) -> tensor<2x1x96xf16>
  %q, %k, %v = graph.split %qkv {axis = 2 : i64, sizes = array<i64: 64, 16, 16>} : (tensor<2x1x96xf16>) -> (tensor<2x1x64xf16>, tensor<2x1x16xf16>, tensor<2x1x16xf16>)
  %q4 = graph.reshape %q : (tensor<2x1x64xf16>) -> tensor<2x1x4x16xf16>
  %qt = graph.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x4x16xf16>) -> tensor<2x4x1x16xf16>
  %k4 = graph.reshape %k : (tensor<2x1x16xf16>) -> tensor<2x1x1x16xf16>
  %kt = graph.transpose %k4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x1x16xf16>) -> tensor<2x1x1x16xf16>
  %kc = graph.concat %pk, %kt {axis = 2 : i64} : (tensor<2x1x32x16xf16>, tensor<2x1x1x16xf16>) -> tensor<2x1x33x16xf16>
  %v4 = graph.reshape %v : (tensor<2x1x16xf16>) -> tensor<2x1x1x16xf16>
  %vt = graph.transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x1x16xf16>) -> tensor<2x1x1x16xf16>
  %vc = graph.concat %pv, %vt {axis = 2 : i64} : (tensor<2x1x32x16xf16>, tensor<2x1x1x16xf16>) -> tensor<2x1x33x16xf16>
  %k5 = graph.reshape %kc : (tensor<2x1x33x16xf16>) -> tensor<2x1x1x33x16xf16>
  %ke = graph.expand %k5 : (tensor<2x1x1x33x16xf16>) -> tensor<2x1x4x33x16xf16>
  %kr = graph.reshape %ke : (tensor<2x1x4x33x16xf16>) -> tensor<2x4x33x16xf16>
  %kT = graph.transpose %kr {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x33x16xf16>) -> tensor<2x4x16x33xf16>
  %s = graph.matmul %qt, %kT : (tensor<2x4x1x16xf16>, tensor<2x4x16x33xf16>) -> tensor<2x4x1x33xf16>
  %p = graph.softmax %s {axis = 3 : i64} : tensor<2x4x1x33xf16>
  %v5 = graph.reshape %vc : (tensor<2x1x33x16xf16>) -> tensor<2x1x1x33x16xf16>
  %ve = graph.expand %v5 : (tensor<2x1x1x33x16xf16>) -> tensor<2x1x4x33x16xf16>
  %vr = graph.reshape %ve : (tensor<2x1x4x33x16xf16>) -> tensor<2x4x33x16xf16>
  %a = graph.matmul %p, %vr : (tensor<2x4x1x33xf16>, tensor<2x4x33x16xf16>) -> tensor<2x4x1x16xf16>
  %at = graph.transpose %a {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x1x16xf16>) -> tensor<2x1x4x16xf16>
  %a2 = graph.reshape %at : (tensor<2x1x4x16xf16>) -> tensor<2x1x64xf16>
  %wo = graph.weight "o" at "m.bin"[12288] : tensor<64x64xf16>
  %o = graph.matmul %a2, %wo : (tensor<2x1x64xf16>, tensor<64x64xf16>) -> tensor<2x1x64xf16>
  return %o, %kc, %vc : tensor<2x1x64xf16>, tensor<2x1x33x16xf16>, tensor<2x1x33x16xf16>
}

// An FP8 fused product's epilogue (its result cast back, a bias added)
// between it and its split: the cast and the bias take the chip's columns
// of each piece too (the bias's as the weight's).
// FOUR-LABEL: func.func @epilogue(%arg0: tensor<2x8x128xf16> {graph.name = "x"})
// FOUR: graph.weight "qkv.tp-cols" at ""[0] : tensor<128x64xf8E4M3FN>
// FOUR: graph.weight "qkvb.tp-cols" at ""[0] : tensor<64xf16>
// FOUR: graph.cast %{{.*}} : (tensor<2x8x64xf8E4M3FN>) -> tensor<2x8x64xf16>
// FOUR: graph.add %{{.*}} : (tensor<2x8x64xf16>, tensor<64xf16>) -> tensor<2x8x64xf16>
// FOUR: graph.split %{{.*}} {axis = 2 : i64, sizes = array<i64: 32, 16, 16>}
// FOUR: graph.attention {{.*}} -> tensor<2x2x8x16xf16>

func.func @epilogue(%x: tensor<2x8x128xf16> {graph.name = "x"}) -> tensor<2x8x128xf16> {
  %wqkv = graph.weight "qkv" at "m.bin"[0] : tensor<128x192xf8E4M3FN>
  %bqkv = graph.weight "qkvb" at "m.bin"[24576] : tensor<192xf16>
  %x8 = graph.cast %x : (tensor<2x8x128xf16>) -> tensor<2x8x128xf8E4M3FN>
  %qkv8 = graph.matmul %x8, %wqkv : (tensor<2x8x128xf8E4M3FN>, tensor<128x192xf8E4M3FN>) -> tensor<2x8x192xf8E4M3FN>
  %qkvh = graph.cast %qkv8 : (tensor<2x8x192xf8E4M3FN>) -> tensor<2x8x192xf16>
  %qkv = graph.add %qkvh, %bqkv : (tensor<2x8x192xf16>, tensor<192xf16>) -> tensor<2x8x192xf16>
  %q, %k, %v = graph.split %qkv {axis = 2 : i64, sizes = array<i64: 128, 32, 32>} : (tensor<2x8x192xf16>) -> (tensor<2x8x128xf16>, tensor<2x8x32xf16>, tensor<2x8x32xf16>)
  %q4 = graph.reshape %q : (tensor<2x8x128xf16>) -> tensor<2x8x8x16xf16>
  %qt = graph.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x8x16xf16>) -> tensor<2x8x8x16xf16>
  %k4 = graph.reshape %k : (tensor<2x8x32xf16>) -> tensor<2x8x2x16xf16>
  %kt = graph.transpose %k4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x2x16xf16>) -> tensor<2x2x8x16xf16>
  %k5 = graph.reshape %kt : (tensor<2x2x8x16xf16>) -> tensor<2x2x1x8x16xf16>
  %ke = graph.expand %k5 : (tensor<2x2x1x8x16xf16>) -> tensor<2x2x4x8x16xf16>
  %kr = graph.reshape %ke : (tensor<2x2x4x8x16xf16>) -> tensor<2x8x8x16xf16>
  %v4 = graph.reshape %v : (tensor<2x8x32xf16>) -> tensor<2x8x2x16xf16>
  %vt = graph.transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x2x16xf16>) -> tensor<2x2x8x16xf16>
  %v5 = graph.reshape %vt : (tensor<2x2x8x16xf16>) -> tensor<2x2x1x8x16xf16>
  %ve = graph.expand %v5 : (tensor<2x2x1x8x16xf16>) -> tensor<2x2x4x8x16xf16>
  %vr = graph.reshape %ve : (tensor<2x2x4x8x16xf16>) -> tensor<2x8x8x16xf16>
  %a = graph.attention %qt, %kr, %vr {scale = 0.25 : f64} : (tensor<2x8x8x16xf16>, tensor<2x8x8x16xf16>, tensor<2x8x8x16xf16>) -> tensor<2x8x8x16xf16>
  %at = graph.transpose %a {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x8x16xf16>) -> tensor<2x8x8x16xf16>
  %a2 = graph.reshape %at : (tensor<2x8x8x16xf16>) -> tensor<2x8x128xf16>
  %wo = graph.weight "o" at "m.bin"[24960] : tensor<128x128xf16>
  %o = graph.matmul %a2, %wo : (tensor<2x8x128xf16>, tensor<128x128xf16>) -> tensor<2x8x128xf16>
  return %o : tensor<2x8x128xf16>
}

// GPT-2's Gemms with their biases: the up product takes its columns of the
// weight and of the bias; the down product its rows, without its bias,
// which is added once after the all-reduce (Megatron-LM's
// RowParallelLinear).
// FOUR-LABEL: func.func @gemm_bias(%arg0: tensor<16x64xf16> {graph.name = "x"})
// FOUR: graph.weight "w1.tp-cols" at ""[0] : tensor<64x64xf16>
// FOUR: graph.weight "b1.tp-cols" at ""[0] : tensor<64xf16>
// FOUR-NOT: graph.slice
// FOUR: graph.gemm %arg0, %{{.*}}, %{{.*}} : (tensor<16x64xf16>, tensor<64x64xf16>, tensor<64xf16>) -> tensor<16x64xf16>
// FOUR: graph.weight "w2.tp-rows" at ""[0] : tensor<64x64xf16>
// FOUR: %[[P:.*]] = graph.gemm %{{.*}}, %{{.*}} : (tensor<16x64xf16>, tensor<64x64xf16>) -> tensor<16x64xf16>
// FOUR: %[[R:.*]] = graph.all_reduce %[[P]] {chips = 4 : i64}
// FOUR: graph.add %[[R]], %{{.*}} : (tensor<16x64xf16>, tensor<64xf16>) -> tensor<16x64xf16>
// FOUR: return

func.func @gemm_bias(%x: tensor<16x64xf16> {graph.name = "x"}) -> tensor<16x64xf16> {
  %w1 = graph.weight "w1" at "m.bin"[0] : tensor<64x256xf16>
  %b1 = graph.weight "b1" at "m.bin"[32768] : tensor<256xf16>
  %h = graph.gemm %x, %w1, %b1 : (tensor<16x64xf16>, tensor<64x256xf16>, tensor<256xf16>) -> tensor<16x256xf16>
  %g = graph.gelu %h : tensor<16x256xf16>
  %w2 = graph.weight "w2" at "m.bin"[33280] : tensor<256x64xf16>
  %b2 = graph.weight "b2" at "m.bin"[66048] : tensor<64xf16>
  %y = graph.gemm %g, %w2, %b2 : (tensor<16x256xf16>, tensor<256x64xf16>, tensor<64xf16>) -> tensor<16x64xf16>
  return %y : tensor<16x64xf16>
}

// GPTBigCode's MQA: the fused product's bias, then a reshape adding a unit
// dim, then the split: found through both.
// FOUR-LABEL: func.func @bigcode(%arg0: tensor<2x8x64xf16> {graph.name = "x"})
// FOUR: graph.weight "qkv.tp-cols" at ""[0] : tensor<64x48xf16>
// FOUR: graph.reshape %{{.*}} : (tensor<2x8x48xf16>) -> tensor<2x1x8x48xf16>
// FOUR: graph.split %{{.*}} {axis = 3 : i64, sizes = array<i64: 16, 16, 16>}
// FOUR: graph.attention {{.*}} -> tensor<2x1x8x16xf16>

func.func @bigcode(%x: tensor<2x8x64xf16> {graph.name = "x"}) -> tensor<2x8x64xf16> {
  %wqkv = graph.weight "qkv" at "m.bin"[0] : tensor<64x96xf16>
  %bqkv = graph.weight "qkvb" at "m.bin"[12288] : tensor<96xf16>
  %qkv0 = graph.matmul %x, %wqkv : (tensor<2x8x64xf16>, tensor<64x96xf16>) -> tensor<2x8x96xf16>
  %qkvb = graph.add %qkv0, %bqkv : (tensor<2x8x96xf16>, tensor<96xf16>) -> tensor<2x8x96xf16>
  %qkv = graph.reshape %qkvb : (tensor<2x8x96xf16>) -> tensor<2x1x8x96xf16>
  %q, %k, %v = graph.split %qkv {axis = 3 : i64, sizes = array<i64: 64, 16, 16>} : (tensor<2x1x8x96xf16>) -> (tensor<2x1x8x64xf16>, tensor<2x1x8x16xf16>, tensor<2x1x8x16xf16>)
  %q3 = graph.reshape %q : (tensor<2x1x8x64xf16>) -> tensor<2x8x4x16xf16>
  %qt = graph.transpose %q3 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x4x16xf16>) -> tensor<2x4x8x16xf16>
  %k5 = graph.reshape %k : (tensor<2x1x8x16xf16>) -> tensor<2x1x1x8x16xf16>
  %ke = graph.expand %k5 : (tensor<2x1x1x8x16xf16>) -> tensor<2x1x4x8x16xf16>
  %kr = graph.reshape %ke : (tensor<2x1x4x8x16xf16>) -> tensor<2x4x8x16xf16>
  %v5 = graph.reshape %v : (tensor<2x1x8x16xf16>) -> tensor<2x1x1x8x16xf16>
  %ve = graph.expand %v5 : (tensor<2x1x1x8x16xf16>) -> tensor<2x1x4x8x16xf16>
  %vr = graph.reshape %ve : (tensor<2x1x4x8x16xf16>) -> tensor<2x4x8x16xf16>
  %a = graph.attention %qt, %kr, %vr {scale = 0.25 : f64} : (tensor<2x4x8x16xf16>, tensor<2x4x8x16xf16>, tensor<2x4x8x16xf16>) -> tensor<2x4x8x16xf16>
  %at = graph.transpose %a {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x8x16xf16>) -> tensor<2x8x4x16xf16>
  %a2 = graph.reshape %at : (tensor<2x8x4x16xf16>) -> tensor<2x8x64xf16>
  %wo = graph.weight "o" at "m.bin"[12480] : tensor<64x64xf16>
  %o = graph.matmul %a2, %wo : (tensor<2x8x64xf16>, tensor<64x64xf16>) -> tensor<2x8x64xf16>
  return %o : tensor<2x8x64xf16>
}

// A column-parallel product's bias added after it: the chip holds its
// columns of the bias as a weight of their own, not a slice of the whole.
// FOUR-LABEL: func.func @matmul_bias(%arg0: tensor<2x8x64xf16> {graph.name = "x"})
// FOUR: graph.weight "b1.tp-cols" at ""[0] : tensor<64xf16>
// FOUR-NOT: graph.slice
// FOUR: graph.add %{{.*}} : (tensor<2x8x64xf16>, tensor<64xf16>) -> tensor<2x8x64xf16>
// FOUR: return
func.func @matmul_bias(%x: tensor<2x8x64xf16> {graph.name = "x"}) -> tensor<2x8x64xf16> {
  %w1 = graph.weight "w1" at "m.bin"[0] : tensor<64x256xf16>
  %b1 = graph.weight "b1" at "m.bin"[32768] : tensor<256xf16>
  %h = graph.matmul %x, %w1 : (tensor<2x8x64xf16>, tensor<64x256xf16>) -> tensor<2x8x256xf16>
  %hb = graph.add %h, %b1 : (tensor<2x8x256xf16>, tensor<256xf16>) -> tensor<2x8x256xf16>
  %r = graph.relu %hb : tensor<2x8x256xf16>
  %w2 = graph.weight "w2" at "m.bin"[33280] : tensor<256x64xf16>
  %y = graph.matmul %r, %w2 : (tensor<2x8x256xf16>, tensor<256x64xf16>) -> tensor<2x8x64xf16>
  return %y : tensor<2x8x64xf16>
}
