// Where a tile spans the two minor dims (a TPU's (8,128)), a size-1 dim is
// stored major instead of filling one row of every tile: a decode step's
// [B, 1, K] activations tile over (B, K), padding-free, where (1, K) rows
// would pad them 2x (8x but for the 2-row small tile). Moving a size-1 dim moves no element, so no kernel
// relayouts for it. A size-1 dim that is the minor dim stays (moving it
// would change which dim fills the lanes), and a rank-2 [1, K] has no
// other dim to fill the rows: it takes XLA's 2-row tile (a second-minor
// dim of 1-2 tiles by (2,128), of 3-4 by (4,128): the description's
// layout.small_second_minor_tiles). Targets without tiles keep their order.
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-tpu-v5e" -graph-layout | FileCheck %s --check-prefix=TPU
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-spyre" -graph-layout | FileCheck %s --check-prefix=SPYRE
// Values through the TPU's schedule equal the reference's:
// RUN: %with_test_targets dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %s --target test-tpu-v5e --seed 3 --outputs %t.tpu > /dev/null
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t.ref/output_%%d.npy' %% i), np.load('%t.tpu/output_%%d.npy' %% i)) for i in (0, 1, 2, 3, 4)]"

// TPU: %arg0: tensor<16x1x256xf32> {graph.layout = #graph.layout<tile [8, 128] perm [1, 0, 2]>
// TPU-SAME: %arg2: tensor<1x16x256xf32> {graph.layout = #graph.layout<tile [8, 128]>
// TPU-SAME: %arg3: tensor<16x4x1x128xf32> {graph.layout = #graph.layout<tile [4, 128] perm [2, 0, 1, 3]>
// TPU-SAME: %arg4: tensor<16x128x1xf32> {graph.layout = #graph.layout<tile [8, 128]>
// TPU-SAME: %arg5: tensor<1x256xf32> {graph.layout = #graph.layout<tile [2, 128]>
// TPU: graph.kernel "proj" kind "matmul"{{.*}}layouts = [#graph.layout<tile [8, 128] perm [1, 0, 2]>], pad_bytes = 0
// TPU: graph.kernel "rows" kind "pointwise"{{.*}}layouts = [#graph.layout<tile [8, 128]>], pad_bytes = 0
// The other dims keep their order (moving them would move elements): the
// 4 heads are the second-minor dim and fill a (4,128) tile.
// TPU: graph.kernel "heads" kind "pointwise"{{.*}}layouts = [#graph.layout<tile [4, 128] perm [2, 0, 1, 3]>], pad_bytes = 0
// TPU: graph.kernel "lanes" kind "pointwise"(%arg4, %0){{.*}}layouts = [#graph.layout<tile [8, 128] perm [1, 0, 2]>], pad_bytes = 0
// One row pads to two, not to eight.
// TPU: graph.kernel "row" kind "pointwise"{{.*}}layouts = [#graph.layout<tile [2, 128]>], pad_bytes = 1024
// A cache grown in place keeps the cache's layout: 4 cached rows take a
// (4,128) tile, and so do the 5 of the grown cache (one buffer).
// TPU: graph.kernel "append" kind {{.*}}layouts = [#graph.layout<tile [4, 128]>]

// SPYRE-NOT: perm [1, 0, 2]
// SPYRE-NOT: perm [2, 0, 1, 3]

func.func @main(%x: tensor<16x1x256xf32> {graph.name = "x"}, %w: tensor<256x128xf32> {graph.name = "w"},
                %r: tensor<1x16x256xf32> {graph.name = "r"}, %h: tensor<16x4x1x128xf32> {graph.name = "h"},
                %l: tensor<16x128x1xf32> {graph.name = "l"}, %v: tensor<1x256xf32> {graph.name = "v"},
                %past: tensor<2x4x128xf32> {graph.name = "past"}, %new: tensor<2x1x128xf32> {graph.name = "new"})
    -> (tensor<16x1x128xf32>, tensor<1x16x256xf32>, tensor<16x4x1x128xf32>, tensor<1x256xf32>, tensor<2x5x128xf32>) {
  %0 = graph.matmul %x, %w : (tensor<16x1x256xf32>, tensor<256x128xf32>) -> tensor<16x1x128xf32> loc("proj")
  %1 = graph.relu %r : tensor<1x16x256xf32> loc("rows")
  %2 = graph.exp %h : tensor<16x4x1x128xf32> loc("heads")
  %3 = graph.exp %l : tensor<16x128x1xf32> loc("lanes")
  %4 = graph.reshape %3 : (tensor<16x128x1xf32>) -> tensor<16x1x128xf32> loc("lanes.view")
  %5 = graph.add %0, %4 : (tensor<16x1x128xf32>, tensor<16x1x128xf32>) -> tensor<16x1x128xf32> loc("sum")
  %6 = graph.tanh %v : tensor<1x256xf32> loc("row")
  %7 = graph.concat %past, %new {axis = 1 : i64} : (tensor<2x4x128xf32>, tensor<2x1x128xf32>) -> tensor<2x5x128xf32> loc("append")
  return %5, %1, %2, %6, %7 : tensor<16x1x128xf32>, tensor<1x16x256xf32>, tensor<16x4x1x128xf32>, tensor<1x256xf32>, tensor<2x5x128xf32>
}
