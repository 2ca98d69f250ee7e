// RUN: dfa-opt %s -split-input-file -verify-diagnostics
// Every verifier message of the graph dialect.

func.func @no_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{operand shapes 'tensor<2x3xf32>' and 'tensor<4xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @mixed_types_verified(%a: tensor<3xf32>, %b: tensor<3xf16>) {
  // expected-error @+1 {{operand element types differ: 'tensor<3xf32>' and 'tensor<3xf16>'}}
  %0 = graph.mul %a, %b : (tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  return
}

// -----

func.func @wrong_result(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{'graph.sub' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>'}}
  // expected-error @+1 {{'graph.sub' op failed to infer returned types}}
  %0 = graph.sub %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @matmul_k(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{contracting dims differ: 3 vs 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @reshape_count(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reshape' op cannot reshape 6 elements into 'tensor<7xf32>'}}
  %0 = graph.reshape %a : (tensor<2x3xf32>) -> tensor<7xf32>
  return
}

// -----

func.func @conv_group(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op group 3 does not divide 4 input channels}}
  %0 = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 3 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<6x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op filter expects 3 input channels, input has 4}}
  %0 = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.softmax' op axis 2 out of range [0, 2)}}
  %0 = graph.softmax %x {axis = 2 : i64} : tensor<2x3xf32>
  return
}

// -----

func.func @slice_bounds(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.slice' op dim 0 reads [2, 6] outside [0, 4)}}
  %0 = graph.slice %x {starts = array<i64: 2>, steps = array<i64: 2>} : (tensor<4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @slice_step(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.slice' op step of dim 0 is zero}}
  %0 = graph.slice %x {starts = array<i64: 0>, steps = array<i64: 0>} : (tensor<4xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @expand(%x: tensor<3xf32>) {
  // expected-error @+1 {{'graph.expand' op cannot broadcast 'tensor<3xf32>' to 'tensor<2x4xf32>'}}
  %0 = graph.expand %x : (tensor<3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @split_sizes(%x: tensor<4x6xf32>) {
  // expected-error @+2 {{split sizes sum to 5, expected 6}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.split %x {axis = 1 : i64, sizes = array<i64: 2, 3>} : (tensor<4x6xf32>) -> (tensor<4x2xf32>, tensor<4x3xf32>)
  return
}

// -----

func.func @reduce_axes(%x: tensor<4x6xf32>) {
  // expected-error @+2 {{axes must be sorted, unique and in [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reduce_sum %x {axes = array<i64: 1, 0>} : (tensor<4x6xf32>) -> tensor<1x1xf32>
  return
}

// -----

func.func @transpose_perm(%x: tensor<4x6xf32>) {
  // expected-error @+2 {{invalid permutation}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.transpose %x {perm = array<i64: 0, 0>} : (tensor<4x6xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @pad_mode(%x: tensor<4xf32>) {
  // expected-error @+2 {{unknown pad mode 'circular'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x {pads = array<i64: 1, 1>, mode = "circular"} : (tensor<4xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @weight_offset() {
  // expected-error @+1 {{'graph.weight' op offset must be non-negative, got -4}}
  %0 = graph.weight "w" at "f.bin"[-4] : tensor<4xf32>
  return
}

// -----

func.func @weight_pitch_short() {
  // expected-error @+1 {{'graph.weight' op row_pitch 12 is shorter than a row of 16 bytes}}
  %0 = graph.weight "w" at "f.bin"[0] pitch 12 : tensor<2x4xf32>
  return
}

// -----

func.func @weight_pitch_zstd() {
  // expected-error @+1 {{'graph.weight' op a window of rows (row_pitch) cannot be a zstd frame}}
  %0 = graph.weight "w" at "f.bin"[0] pitch 32 zstd 10 : tensor<2x4xf32>
  return
}

// -----

func.func @weight_pitch_subbyte() {
  // expected-error @+1 {{'graph.weight' op row_pitch needs a static shape of whole-byte elements}}
  %0 = graph.weight "w" at "f.bin"[0] pitch 32 : tensor<2x4xi4>
  return
}

// -----

func.func @dynamic(%x: tensor<?xf32>) {
  // expected-error @+1 {{'graph.relu' op operand #0 must be statically shaped tensor of any type values}}
  %0 = graph.relu %x : tensor<?xf32>
  return
}

// -----

func.func @resize_mode(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.resize' op unknown mode 'bilinear'}}
  %0 = graph.resize %x {mode = "bilinear", scales = array<f64: 2.0>} : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @resize_roi(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.resize' op tf_crop_and_resize needs a roi}}
  %0 = graph.resize %x {coordinate_mode = "tf_crop_and_resize", scales = array<f64: 2.0>} : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @gather_nd_tuple(%x: tensor<2x3xf32>, %i: tensor<4x3xi64>) {
  // expected-error @+1 {{'graph.gather_nd' op index tuples of 3 entries do not fit 'tensor<2x3xf32>'}}
  %0 = graph.gather_nd %x, %i : (tensor<2x3xf32>, tensor<4x3xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @scatter_nd_updates(%x: tensor<2x3xf32>, %i: tensor<4x1xi64>, %u: tensor<4x2xf32>) {
  // expected-error @+1 {{'graph.scatter_nd' op updates must have shape 'tensor<4x3xf32>'}}
  %0 = graph.scatter_nd %x, %i, %u : (tensor<2x3xf32>, tensor<4x1xi64>, tensor<4x2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @attention_depth(%q: tensor<8x16xf32>, %k: tensor<8x12xf32>) {
  // expected-error @+2 {{query and key differ in depth: 16 vs 12}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.attention %q, %k, %k {scale = 1.0 : f64} : (tensor<8x16xf32>, tensor<8x12xf32>, tensor<8x12xf32>) -> tensor<8x12xf32>
  return
}

// -----

func.func @attention_mask(%q: tensor<8x16xf32>, %m: tensor<4x8xi1>) {
  // expected-error @+2 {{mask 'tensor<4x8xi1>' does not broadcast to the scores}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.attention %q, %q, %q, %m {scale = 1.0 : f64} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x8xi1>) -> tensor<8x16xf32>
  return
}

// -----

// A kernel whose body does not end in graph.yield is an error, not a crash.
func.func @kernel_no_yield(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.kernel' op body must end in graph.yield}}
  %y = graph.kernel "k" kind "pointwise" (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %r = graph.relu %a : tensor<4xf32>
    func.return %r : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

// A kernel's kind is one of KernelKind.
func.func @kernel_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.kernel' op kind 'fancy' is not a kernel kind}}
  %y = graph.kernel "k" kind "fancy" (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    graph.yield %a : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

// The module attributes stages hand each other are checked.
// expected-error @+1 {{'graph.weight_streaming' must be a unit attribute}}
module attributes {graph.weight_streaming = 1 : i64} {
}

// -----

// expected-error @+1 {{'graph.fusions_refused' entries must be {op, kernel, reason} strings}}
module attributes {graph.fusions_refused = [{op = "a", kernel = "k"}]} {
}

// -----

// expected-error @+1 {{'graph.target' must be a string}}
module attributes {graph.target = 3 : i64} {
}

// -----

// expected-error @+1 {{'graph.tiling' is not an attribute of the graph dialect}}
module attributes {graph.tiling = "fast"} {
}

// -----

// expected-error @+1 {{unknown layout 'zigzag': expected row_major, pe_slices, stick, vector or tile}}
func.func @layout_kind() attributes {l = #graph.layout<zigzag>} {
  return
}

// -----

// expected-error @+1 {{invalid layout: the granule must be at least 1}}
func.func @layout_granule() attributes {l = #graph.layout<stick 0>} {
  return
}

// -----

// expected-error @+1 {{invalid layout: not a permutation}}
func.func @layout_perm() attributes {l = #graph.layout<row_major perm [0, 0]>} {
  return
}

// -----

// A tile's rows are elements, `pack` of them to a 32-bit word (XLA's
// T(2,128)(4,1) does not exist: two rows cannot fill four).
// expected-error @+1 {{invalid layout: a tile's rows must be a multiple of its packing}}
func.func @layout_pack() attributes {l = #graph.layout<tile [2, 128] pack 4>} {
  return
}

// -----

// expected-error @+1 {{'graph.layout' of argument 0 does not fit it: the permutation has 2 dims, the tensor 1}}
func.func @layout_arg(%x: tensor<4xf32> {graph.layout = #graph.layout<row_major perm [1, 0]>}) {
  return
}

// -----

func.func @layout_op() {
  // expected-error @+1 {{'graph.layout' does not fit the result: the permutation has 2 dims, the tensor 1}}
  %c = graph.constant {graph.layout = #graph.layout<row_major perm [1, 0]>} dense<1.0> : tensor<4xf32>
  return
}

// -----

func.func @layouts_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.kernel' op has 2 layouts for 1 outputs}}
  %y = graph.kernel "k" kind "pointwise" (%x) attributes {layouts = [#graph.layout<row_major>, #graph.layout<row_major>]} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    graph.yield %a : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @fp32_matmul_mode(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'graph.fp32_matmul' must be "ieee", "tf32", "bf16" or "bf16x3"}}
  %0 = graph.matmul %a, %a {graph.fp32_matmul = "fp16"} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @fp32_matmul_op(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'graph.fp32_matmul' belongs on a matmul, gemm, convolution or attention}}
  %0 = graph.add %a, %a {graph.fp32_matmul = "tf32"} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @range_check_fields(%t: tensor<1xi64>, %i: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'graph.range_check' must be {value = string, lo = i64, hi = i64, shape = array<i64>}}}
  %0 = graph.gather %t, %i {axis = 0 : i64, graph.range_check = {value = "seqlens_k", lo = 0 : i64}} : (tensor<1xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @range_check_width(%t: tensor<1xi64>, %i: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'graph.range_check' must be {value = string, lo = i64, hi = i64, shape = array<i64>}}}
  %0 = graph.gather %t, %i {axis = 0 : i64, graph.range_check = {value = "seqlens_k", lo = 0 : i64, hi = 200 : ui8, shape = array<i64: 2>}} : (tensor<1xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @range_check_bounds(%t: tensor<1xi64>, %i: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'graph.range_check' must have lo < hi}}
  %0 = graph.gather %t, %i {axis = 0 : i64, graph.range_check = {value = "seqlens_k", lo = 4 : i64, hi = 4 : i64, shape = array<i64: 2>}} : (tensor<1xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @range_check_table(%t: tensor<3xi64>, %i: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'graph.range_check' belongs on a graph.gather from a one-element table}}
  %0 = graph.gather %t, %i {axis = 0 : i64, graph.range_check = {value = "seqlens_k", lo = 0 : i64, hi = 4 : i64, shape = array<i64: 2>}} : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// expected-error @+1 {{invalid layout: granule, rows and pack must be at most 2^20}}
func.func @layout_huge() attributes {l = #graph.layout<stick 4611686018427387904>} {
  return
}

// -----

func.func @bitcast_width(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{cannot bit-cast 'f32' to 'f16' (the types must take the same whole bytes)}}
  %0 = graph.bitcast %x : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @bitcast_fp4(%x: tensor<4x!graph.f4E2M1FN>) -> tensor<4xi4> {
  // expected-error @+1 {{cannot bit-cast '!graph.f4E2M1FN' to 'i4' (the types must take the same whole bytes)}}
  %0 = graph.bitcast %x : (tensor<4x!graph.f4E2M1FN>) -> tensor<4xi4>
  return %0 : tensor<4xi4>
}

// -----

func.func @cast_rounding_not_e8m0(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{round_mode and nonsaturating apply to an f8E8M0FNU result only}}
  %0 = graph.cast %x {round_mode = #graph.e8m0_rounding<nearest>} : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @cast_bad_rounding(%x: tensor<4xf32>) -> tensor<4x!graph.f8E8M0FNU> {
  // expected-error @+2 {{expected ::dfa::graph::E8M0Rounding to be one of: up, down, nearest}}
  // expected-error @+1 {{failed to parse Graph_E8M0RoundingAttr parameter 'value'}}
  %0 = graph.cast %x {round_mode = #graph.e8m0_rounding<sideways>} : (tensor<4xf32>) -> tensor<4x!graph.f8E8M0FNU>
  return %0 : tensor<4x!graph.f8E8M0FNU>
}

// -----

// expected-error @+1 {{unknown  type `f5E2M2` in dialect `graph`}}
func.func @unknown_minifloat(%x: tensor<4x!graph.f5E2M2>) {
  return
}

// -----

func.func @grid_sample_grid(%x: tensor<1x2x4x5xf32>, %g: tensor<1x3x6x3xf32>) -> tensor<1x2x3x6xf32> {
  // expected-error @+1 {{grid 'tensor<1x3x6x3xf32>' does not fit input 'tensor<1x2x4x5xf32>'}}
  %0 = graph.grid_sample %x, %g : (tensor<1x2x4x5xf32>, tensor<1x3x6x3xf32>) -> tensor<1x2x3x6xf32>
  return %0 : tensor<1x2x3x6xf32>
}

// -----

func.func @grid_sample_mode(%x: tensor<1x2x4x5xf32>, %g: tensor<1x3x6x2xf32>) -> tensor<1x2x3x6xf32> {
  // expected-error @+1 {{mode must be nearest, linear or cubic, not 'area'}}
  %0 = graph.grid_sample %x, %g {mode = "area"} : (tensor<1x2x4x5xf32>, tensor<1x3x6x2xf32>) -> tensor<1x2x3x6xf32>
  return %0 : tensor<1x2x3x6xf32>
}

// -----

func.func @grouped_matmul_ranks(%a: tensor<4x8xf32>, %w: tensor<8x6xf32>, %o: tensor<2xi32>) {
  // expected-error @+2 {{grouped_matmul takes [S, K] rows, [E, K, N] matrices and [E] offsets}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.grouped_matmul %a, %w, %o : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<2xi32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @grouped_matmul_groups(%a: tensor<4x8xf32>, %w: tensor<3x8x6xf32>, %o: tensor<2xi32>) {
  // expected-error @+2 {{2 offsets for 3 groups}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.grouped_matmul %a, %w, %o : (tensor<4x8xf32>, tensor<3x8x6xf32>, tensor<2xi32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @grouped_matmul_k(%a: tensor<4x8xf32>, %w: tensor<2x7x6xf32>, %o: tensor<2xi32>) {
  // expected-error @+2 {{contracting dims differ: 8 vs 7}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.grouped_matmul %a, %w, %o : (tensor<4x8xf32>, tensor<2x7x6xf32>, tensor<2xi32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @grouped_matmul_offsets(%a: tensor<4x8xf32>, %w: tensor<2x8x6xf32>, %o: tensor<2xf32>) {
  // expected-error @+1 {{operand #2 must be statically shaped tensor of integer values, but got 'tensor<2xf32>'}}
  %0 = graph.grouped_matmul %a, %w, %o : (tensor<4x8xf32>, tensor<2x8x6xf32>, tensor<2xf32>) -> tensor<4x6xf32>
  return
}
