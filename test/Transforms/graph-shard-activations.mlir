// An activation whose stored image passes a third of an LPU chip's SRAM
// (here the attention scores, 2 heads x 1024 x 1024 f32 stored 10 MiB, on
// a chip set to 24 MiB) cannot be read and written by one kernel beside
// the rest of the chip: graph-shard splits the chain of ops joined through
// such activations (the scores' product, mask, softmax and the product
// that reads them) into pieces, each piece's largest activation at most an
// eighth of the chip, along the dim whose pieces read the fewest bytes
// whole: here the query rows (each piece reads K^T and V whole, 3.3 MB,
// and its rows of the mask; along the heads each would read the whole
// 5.2 MB mask, broadcast over them). Without a mask the heads split it
// (nothing read whole); a head's scores (5.2 MB) pass an eighth of the
// chip, but read and written (10.5 MB) they stay under half of it, so the
// heads are not cut again (a long prompt's are: 32 heads of 68 MB at 4,096
// tokens of Llama-3-8B, beside a 34 MB mask). The chain's inputs are
// sliced, its output is concatenated, and the values are the unsplit
// schedule's: bit for bit along the heads, within rounding along the rows
// (a product over 256 rows may sum its dot products in another order than
// one over 1024).
// At the chip's real size, and on a target that does not partition chips,
// nothing changes.
// RUN: %with_test_targets dfa-compile %s --target test-lpu --set memory.SRAM.capacity_bytes=25165824 --emit decomposed --remarks -o - 2>&1 | FileCheck %s
// RUN: %with_test_targets dfa-compile %S/Inputs/shard-activations-heads.mlir --target test-lpu --set memory.SRAM.capacity_bytes=25165824 --emit decomposed --remarks -o - 2>&1 | FileCheck %s --check-prefix=HEADS
// RUN: %with_test_targets dfa-compile %S/Inputs/shard-activations-twice.mlir --target test-lpu --set memory.SRAM.capacity_bytes=25165824 --emit decomposed --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: %with_test_targets dfa-compile %S/Inputs/shard-activations-twice.mlir --target test-lpu --set memory.SRAM.capacity_bytes=25165824 -o /dev/null
// RUN: %with_test_targets dfa-compile %s --target test-lpu --emit decomposed -o - | FileCheck %s --check-prefix=WHOLE
// RUN: %with_test_targets dfa-compile %s --target test-tpu-v5e --set memory.HBM.capacity_bytes=25165824 --emit decomposed -o - | FileCheck %s --check-prefix=WHOLE
// RUN: %with_test_targets dfa-run %s --target test-lpu --set memory.SRAM.capacity_bytes=25165824 --seed 3 --outputs %t.split > /dev/null
// RUN: %with_test_targets dfa-run %s --target test-lpu --seed 3 --outputs %t.whole > /dev/null
// RUN: %python -c "import numpy as np; np.testing.assert_allclose(np.load('%t.split/output_0.npy'), np.load('%t.whole/output_0.npy'), rtol=1e-5, atol=2e-6)"
// RUN: %with_test_targets dfa-run %S/Inputs/shard-activations-heads.mlir --target test-lpu --set memory.SRAM.capacity_bytes=25165824 --seed 3 --outputs %t.hsplit > /dev/null
// RUN: %with_test_targets dfa-run %S/Inputs/shard-activations-heads.mlir --target test-lpu --seed 3 --outputs %t.hwhole > /dev/null
// RUN: %python -c "import numpy as np; np.testing.assert_array_equal(np.load('%t.hsplit/output_0.npy'), np.load('%t.hwhole/output_0.npy'))"
// With GQA (four query heads over two key/value heads, repeated by an
// expand) each head's piece takes its window of the unrepeated keys and
// values and broadcasts it itself, which its product's kernel reads
// (graph-fuse), where a slice of the repeated tensor had the repeat
// written out whole (8x the cache under Llama-3-70B's GQA; at 4,096 tokens
// its keys and values no longer pass a groq-tsp chip beside the queries).
// RUN: %with_test_targets dfa-compile %S/Inputs/shard-activations-gqa.mlir --target test-lpu --set memory.SRAM.capacity_bytes=25165824 --emit decomposed --remarks -o - 2>&1 | FileCheck %s --check-prefix=GQA
// RUN: %with_test_targets dfa-run %S/Inputs/shard-activations-gqa.mlir --target test-lpu --set memory.SRAM.capacity_bytes=25165824 --seed 3 --outputs %t.gsplit > /dev/null
// RUN: %with_test_targets dfa-run %S/Inputs/shard-activations-gqa.mlir --target test-lpu --seed 3 --outputs %t.gwhole > /dev/null
// RUN: %python -c "import numpy as np; np.testing.assert_array_equal(np.load('%t.gsplit/output_0.npy'), np.load('%t.gwhole/output_0.npy'))"
// The keys read both transposed and as they are (a broadcast and its own
// view, each windowed: erasing the unread view must not look at the
// transpose's input after erasing it with the transpose).
// RUN: sed -e 's/graph.matmul %%p, %%vr/graph.matmul %%p, %%kr/' %S/Inputs/shard-activations-gqa.mlir > %t.kk.mlir
// RUN: %with_test_targets dfa-run %t.kk.mlir --target test-lpu --set memory.SRAM.capacity_bytes=25165824 --seed 3 --outputs %t.kksplit > /dev/null
// RUN: %with_test_targets dfa-run %t.kk.mlir --target test-lpu --seed 3 --outputs %t.kkwhole > /dev/null
// RUN: %python -c "import numpy as np; np.testing.assert_array_equal(np.load('%t.kksplit/output_0.npy'), np.load('%t.kkwhole/output_0.npy'))"

// CHECK: 'scores': remark: split into 4 pieces along dim 2 with the 8 ops around it: its result (10485760 B stored) passes a third of a chip's 25165824 B SRAM
// CHECK: %[[KT:.*]] = graph.transpose %arg1
// CHECK: %[[Q0:.*]] = graph.slice %arg0 {starts = array<i64: 0, 0, 0, 0>{{.*}} -> tensor<1x2x256x64xf32>
// CHECK: %[[S0:.*]] = graph.matmul %[[Q0]], %[[KT]] {{.*}} -> tensor<1x2x256x1024xf32>
// CHECK: %[[M0:.*]] = graph.slice %arg3 {starts = array<i64: 0, 0, 0, 0>{{.*}} -> tensor<1x1x256x1024xf32>
// CHECK: graph.add %[[S0]], %[[M0]]
// CHECK: %[[P0:.*]] = graph.div
// CHECK: %[[O0:.*]] = graph.matmul %[[P0]], %arg2
// CHECK: graph.slice %arg0 {starts = array<i64: 0, 0, 256, 0>
// CHECK: graph.slice %arg3 {starts = array<i64: 0, 0, 256, 0>
// CHECK: graph.slice %arg0 {starts = array<i64: 0, 0, 512, 0>
// CHECK: graph.slice %arg0 {starts = array<i64: 0, 0, 768, 0>
// CHECK: graph.concat %[[O0]], %{{.*}}, %{{.*}}, %{{.*}} {axis = 2 : i64} : ({{.*}}) -> tensor<1x2x1024x64xf32>
// CHECK-NOT: tensor<1x2x1024x1024xf32>

// HEADS: 'scores': remark: split into 2 pieces along dim 1 with the 7 ops around it
// HEADS: %[[KT:.*]] = graph.transpose %arg1
// HEADS: %[[Q0:.*]] = graph.slice %arg0 {starts = array<i64: 0, 0, 0, 0>{{.*}} -> tensor<1x1x1024x64xf32>
// HEADS: %[[K0:.*]] = graph.slice %[[KT]] {starts = array<i64: 0, 0, 0, 0>{{.*}} -> tensor<1x1x64x1024xf32>
// HEADS: graph.matmul %[[Q0]], %[[K0]] {{.*}} -> tensor<1x1x1024x1024xf32>
// HEADS: graph.slice %arg2 {starts = array<i64: 0, 0, 0, 0>{{.*}} -> tensor<1x1x1024x64xf32>
// HEADS: graph.slice %arg0 {starts = array<i64: 0, 1, 0, 0>
// HEADS: graph.concat {{.*}} {axis = 1 : i64} : (tensor<1x1x1024x64xf32>, tensor<1x1x1024x64xf32>) -> tensor<1x2x1024x64xf32>

// GQA: 'scores': remark: split into 4 pieces along dim 1 with the 7 ops around it
// GQA: %[[KU:.*]] = graph.reshape %arg1 : (tensor<1x2x1024x64xf32>) -> tensor<1x2x1x1024x64xf32>
// GQA-NOT: graph.expand {{.*}} -> tensor<1x2x2x1024x64xf32>
// GQA: %[[K0:.*]] = graph.slice %[[KU]] {starts = array<i64: 0, 0, 0, 0, 0>{{.*}} -> tensor<1x1x1x1024x64xf32>
// GQA: %[[E0:.*]] = graph.expand %[[K0]]
// GQA: %[[R0:.*]] = graph.reshape %[[E0]] {{.*}} -> tensor<1x1x1024x64xf32>
// GQA: graph.transpose %[[R0]]
// GQA: graph.slice %arg0 {starts = array<i64: 0, 1, 0, 0>
// GQA-NEXT: graph.slice %[[KU]] {starts = array<i64: 0, 0, 0, 0, 0>
// GQA: graph.slice %arg0 {starts = array<i64: 0, 2, 0, 0>
// GQA-NEXT: graph.slice %[[KU]] {starts = array<i64: 0, 1, 0, 0, 0>
// GQA: graph.slice %arg0 {starts = array<i64: 0, 3, 0, 0>
// GQA-NEXT: graph.slice %[[KU]] {starts = array<i64: 0, 1, 0, 0, 0>
// GQA-NOT: graph.expand {{.*}} -> tensor<1x2x2x1024x64xf32>

// TWICE: 'scores0': remark: split into 2 pieces along dim 1
// TWICE-COUNT-2: 'scores0': remark: split into 6 pieces along dim 2
// TWICE: 'scores1': remark: split into 2 pieces along dim 1
// TWICE-COUNT-2: 'scores1': remark: split into 6 pieces along dim 2
// TWICE-NOT: split into

// WHOLE-NOT: graph.slice
// WHOLE: graph.matmul {{.*}} -> tensor<1x2x1024x1024xf32>
// WHOLE-NOT: graph.concat

func.func @main(%q: tensor<1x2x1024x64xf32> {graph.name = "q"}, %k: tensor<1x2x1024x64xf32> {graph.name = "k"},
                %v: tensor<1x2x1024x64xf32> {graph.name = "v"}, %mask: tensor<1x1x1024x1024xf32> {graph.name = "mask"})
    -> tensor<1x1024x128xf32> {
  %kt = graph.transpose %k {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x1024x64xf32>) -> tensor<1x2x64x1024xf32> loc("kt")
  %s = graph.matmul %q, %kt : (tensor<1x2x1024x64xf32>, tensor<1x2x64x1024xf32>) -> tensor<1x2x1024x1024xf32> loc("scores")
  %m = graph.add %s, %mask : (tensor<1x2x1024x1024xf32>, tensor<1x1x1024x1024xf32>) -> tensor<1x2x1024x1024xf32> loc("masked")
  %p = graph.softmax %m {axis = 3 : i64} : tensor<1x2x1024x1024xf32> loc("probs")
  %o = graph.matmul %p, %v : (tensor<1x2x1024x1024xf32>, tensor<1x2x1024x64xf32>) -> tensor<1x2x1024x64xf32> loc("context")
  %t = graph.transpose %o {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x2x1024x64xf32>) -> tensor<1x1024x2x64xf32> loc("heads")
  %r = graph.reshape %t : (tensor<1x1024x2x64xf32>) -> tensor<1x1024x128xf32> loc("merge")
  return %r : tensor<1x1024x128xf32>
}
