//===- Passes.td - dfa transformation passes ---------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Every dfa pass is declared here, grouped by pipeline stage.
//
//===----------------------------------------------------------------------===//

#ifndef DFA_TRANSFORMS_PASSES_TD
#define DFA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Decomposition
//===----------------------------------------------------------------------===//

def GraphDecomposePass : Pass<"graph-decompose", "::mlir::ModuleOp"> {
  let summary = "Rewrite composite graph ops into graph primitives";
  let description = [{
    Applies the `DecomposeOpInterface` of every composite op (attention,
    softmax, log-softmax, layer and batch normalization) that the target
    does not run whole, until none is left: with `target=NAME` the ops kept
    are the description's `native_ops` (a GPU keeps attention whole as a
    flash-attention kernel; a TPU splits softmax and layer norm into
    reductions and elementwise ops, as XLA does). `keep` adds ops to keep.
    With `remarks`, every decomposition is reported, and so is every op the
    target runs on its host (`host_fallback_ops`, e.g. Spyre).
    `fp32-matmul` (`ieee`, `tf32`, `bf16`, `bf16x3`) sets how matrix ops with
    f32 operands feed the matrix units (`graph.fp32_matmul`): the CPU
    reference rounds their operands so, and the cost model times them at
    that type's peak.

    ```mlir
    %y = graph.softmax %x {axis = 1 : i64} : tensor<2x8xf32>
    // becomes
    %m = graph.reduce_max %x {axes = array<i64: 1>} : ...
    %s = graph.sub %x, %m : ...
    %e = graph.exp %s : ...
    %t = graph.reduce_sum %e {axes = array<i64: 1>} : ...
    %y = graph.div %e, %t : ...
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target whose native ops are kept whole">,
    ListOption<"targetDirs", "target-dir", "std::string",
               "Extra directories of target descriptions">,
    ListOption<"keep", "keep", "std::string",
               "Op names (e.g. graph.softmax) to keep whole">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every decomposed op">,
    Option<"inject", "inject", "std::string", /*default=*/"\"\"",
           "A fault to plant for tests and teaching (var-unbiased: layer "
           "norms divide their variance by N - 1); others are the lowering's">,
    Option<"fp32Matmul", "fp32-matmul", "std::string", /*default=*/"\"ieee\"",
           "How f32 matrix ops compute: ieee, tf32, bf16 or bf16x3">,
  ];
  let statistics = [
    Statistic<"numDecomposed", "decomposed", "Number of ops decomposed">,
  ];
}

def GraphRaisePass : Pass<"graph-raise", "::mlir::ModuleOp"> {
  let summary = "Re-raise spelled-out composites the target runs whole";
  let description = [{
    Exporters write attention out as
    `matmul(softmax(mask(scale(matmul(q, transpose(k))))), v)`. On a target
    that runs `attention` whole (its `native_ops`; a GPU's flash-attention
    kernel), this pass recognizes that chain and replaces it with one
    `graph.attention`: the scale is a division or multiplication by a scalar
    constant, the mask a `where` that fills masked scores with -inf (or
    anything at most -1e4, such as finfo.min, whose softmax weight is 0) or
    an `add` of a float mask, in either order; a constant mask that keeps
    exactly j <= i (bool, or additive 0 / at most -1e4) becomes `causal`. Every
    intermediate must have no other user. Runs before `graph-decompose`,
    which would otherwise split the softmax. With `remarks`, every raise
    is reported with the source nodes it replaced. On every target, a
    product's operand broadcast by `graph.expand` along batch dims the
    other operand has (torch.export's `aten.matmul` of [B, M, K] by a
    [K, N] weight) is read unbroadcast: the product broadcasts it and
    reads it once; and torch's `_safe_softmax` guard as core ATen writes
    it (`where(not(reduce_max(not(S == -inf)) > 0), 0, softmax(S))`), left
    after attention is raised, folds into the softmax's `empty_rows_zero`;
    and a zero `graph.pad` of a convolution's spatial dims (TF-style "same"
    padding written as F.pad) folds into the convolution's own pads.

    ```mlir
    %kt = graph.transpose %k {perm = array<i64: 0, 1, 3, 2>} : ...
    %s = graph.matmul %q, %kt : ...
    %c = graph.div %s, %sqrt_d : ...
    %p = graph.softmax %c {axis = 3 : i64} : ...
    %o = graph.matmul %p, %v : ...
    // becomes
    %o = graph.attention %q, %k, %v {scale = 0.125 : f64} : ...
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target whose native ops are raised to (default: the module's "
           "graph.target; without one, attention is raised)">,
    ListOption<"targetDirs", "target-dir", "std::string",
               "Extra directories of target descriptions">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every raised op">,
  ];
  let statistics = [
    Statistic<"numRaised", "raised", "Number of composites raised">,
  ];
}

def GraphShardPass : Pass<"graph-shard", "::mlir::ModuleOp"> {
  let summary = "Split a layer whose weights exceed one chip across chips";
  let description = [{
    Tensor parallelism, for targets that partition a model over chips
    (`compiler.placement` chip-partition, the LPU): a matmul, Gemm or
    (ungrouped) convolution whose weight is larger than what one chip holds
    for weights (`Target::chipWeightBudget`, the SRAM less a tenth for
    activations) becomes as many pieces as it takes, each reading a
    contiguous slice of the weight (a `graph.weight` at a later offset of the
    same file, so no chip ever holds the whole weight). Where the slice cuts
    the output features (a Gemm with `trans_b`, a matmul of a transposed
    [N, K] weight, a convolution's filters) the pieces' results are
    concatenated; where it cuts the contraction (a matmul's [K, N] weight, a
    Gemm without `trans_b`) the input is split along K and the partial
    products are summed, in the product's type or, where the description's
    `compute.partial_sums` is `accumulator`, in its accumulator's format
    and rounded once after. A matmul's [K, N] weight that widens its input
    (N > K) and that it alone reads is cut along N instead where that takes
    no more pieces and no piece holds more (or more, padded, where its
    result is read by pointwise ops alone), each piece a window of its
    columns (a `graph.weight` with `row_pitch`), the results concatenated.
    Such a product's pieces are as many as also fit its activations beside
    each weight piece on a chip, where that takes at most 16 times as many.
    A matmul cut along K whose input is made from concatenations of column
    pieces through pointwise ops alone (a SwiGLU's down projection after
    its gate and up projections) is cut where they were (each part again
    into as few pieces as fit): each piece applies the pointwise ops to its
    parts and makes its partial, so the joined input is never made
    (Megatron's column- then row-parallel pair). A weight within the
    budget is cut too where its product's input and output do not fit one
    chip beside it and neither passes a third of the chip (such a chain is
    cut into rows instead, below). An embedding table's lookup (a gather of rows) is
    cut by rows: each piece looks up the indices in its rows and a chain of
    selects takes each index's row from its piece. The lowering places the
    pieces on successive chips, so the concatenation or the sums cross the
    chip-to-chip links. Other targets, weights that fit, and weights stored
    zstd-compressed (a frame is read whole) are left as they are.

    On the same targets, an activation whose stored image passes a third of
    a chip's SRAM (a long sequence's attention scores, [B, H, S, S]) cannot
    be read and written by one kernel beside the rest of a chip: the chain
    of ops joined through such activations (the scores' product, mask,
    softmax and the product that reads them) becomes pieces along a dim
    every op of it keeps (the heads or the query rows, whichever leaves the
    fewest bytes each piece reads whole; `splitOperandDims`, the rule the
    lowering's chunks use), each piece's largest activation at most an
    eighth of the chip; where that dim is too short for such pieces and a
    piece, read and written beside what every piece reads whole, passes
    half the chip (a long prompt's head), each piece is cut again along
    another dim. A weight, or one read through a transpose its product folds (a
    linear layer's [N, K] matrix), is the weight, not an activation of the
    chain: each piece reads it whole, taking its own view of it, and a dim
    that would slice a weight or such a view comes after every other. The chain's inputs are sliced, its
    outputs concatenated, and the lowering places the pieces on chips as
    they fit. A large graph input or result is left as it is.

    With `tensor-parallel` N > 1 (a deployment's choice: `--tensor-parallel`
    of the tools), on a target whose kernels share the chip and that has
    chip-to-chip links, the module becomes the program each of N chips runs
    (SPMD, as GSPMD and Megatron-LM partition a model): a matmul with a
    weight and a replicated input takes its chip's columns of the weight
    (column-parallel), one whose input is split along K its rows
    (row-parallel, a partial result); the splits flow through pointwise ops,
    views, softmax, reductions over other dims, attention and
    concatenations (a transformer's heads and MLP columns), and where a rule
    needs a whole value a `graph.all_gather` or `graph.all_reduce` is
    inserted (two all-reduces a transformer layer). Types become the chip's
    local shapes; a graph input every reader slices the same way becomes
    that slice (each chip holds its heads of a KV cache). The program's
    weights hold no data (their values are not simulated; time only).

    ```mlir
    %h = graph.matmul %x, %w1 : (tensor<8x1024xf16>, tensor<1024x4096xf16>) -> tensor<8x4096xf16>
    %y = graph.matmul (graph.gelu %h), %w2 : ... -> tensor<8x1024xf16>
    // becomes, with tensor-parallel=4
    %h = graph.matmul %x, %w1p : (tensor<8x1024xf16>, tensor<1024x1024xf16>) -> tensor<8x1024xf16>
    %p = graph.matmul (graph.gelu %h), %w2p : (tensor<8x1024xf16>, tensor<1024x1024xf16>) -> tensor<8x1024xf16>
    %y = graph.all_reduce %p {chips = 4} : tensor<8x1024xf16>
    ```

    ```mlir
    %y = graph.matmul %x, %w : (tensor<8x4096xf16>, tensor<4096x32768xf16>) -> ...
    // becomes, on chips of 220 MiB
    %x0, %x1 = graph.split %x {axis = 1, sizes = [2048, 2048]}
    %w0 = graph.weight "fc.weight.shard0" at "m.onnx"[off] : tensor<2048x32768xf16>
    %w1 = graph.weight "fc.weight.shard1" at "m.onnx"[off + 128 MiB] : ...
    %y = graph.add (graph.matmul %x0, %w0), (graph.matmul %x1, %w1)
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target description (default: the module's graph.target)">,
    ListOption<"targetDirs", "target-dir", "std::string",
               "Extra directories of target descriptions">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every layer split">,
    Option<"tensorParallel", "tensor-parallel", "int64_t", /*default=*/"1",
           "Chips of a tensor-parallel group: the module becomes one chip's "
           "program (1: none)">,
  ];
  let statistics = [
    Statistic<"numSharded", "sharded", "Number of layers split across chips">,
    Statistic<"numActivationSplits", "activation-splits",
              "Number of chains of activations split into pieces">,
    Statistic<"numPartitioned", "partitioned",
              "Ops split among the chips of a tensor-parallel group">,
    Statistic<"numCollectives", "collectives",
              "All-reduces and all-gathers inserted">,
  ];
}

//===----------------------------------------------------------------------===//
// Fusion, tiling, layout
//===----------------------------------------------------------------------===//

def GraphFusePass : Pass<"graph-fuse", "::mlir::ModuleOp"> {
  let summary = "Group ops into graph.kernel ops by the target's fusion policy";
  let description = [{
    Greedy producer-consumer fusion in program order: each op joins the
    newest group among its producers' groups when the target's policy
    allows, or starts a kernel of its own (so kernels stay acyclic). The
    policy is the description's `compiler.fusion` (defaults by family: docs/targets.md):
    GPU and Spyre fuse like Inductor
    (GEMM and convolution epilogues, pointwise chains, reductions with
    pointwise prologues); the TPU like XLA (loop, input and output fusion);
    the WSE into layer regions (one anchor op each); the LPU into stream
    chains (a consumer joins its producer when it is the only reader); the
    CPU reference not at all. Where the description gives a per-core
    working-set limit (Spyre `usable_lx_bytes_per_core`), an op that would
    add bytes to a group past that many a core is refused (a view, and a
    pointwise op writing over an intermediate it alone reads, add none). On
    a chip-partition target (LPU) a pointwise op or a product that would
    take a chain past one chip's memory is refused, the chain counted as
    the partition places a kernel: its weights and input activations and
    the results read outside it (its intermediates stream through). A
    refusal is recorded with its reason in the module's
    `graph.fusions_refused`. Kernels are named after their anchor's source
    node.
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target description (default: the module's graph.target)">,
    ListOption<"targetDirs", "target-dir", "std::string",
               "Extra directories of target descriptions">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every decision">,
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "Number of kernels formed">,
    Statistic<"numFused", "fused", "Number of ops fused into a producer's kernel">,
    Statistic<"numRefused", "refused", "Number of fusions refused">,
  ];
}

def GraphTilePass : Pass<"graph-tile", "::mlir::ModuleOp"> {
  let summary = "Choose each kernel's tile and the units it runs on";
  let description = [{
    Attaches `tile`, `grid` (number of tiles) and `units` to every
    `graph.kernel`, by the description's `compiler.tiling` scheme, with its
    own extras: GPU CTA tiles from
    `cta_tile`, shrunk until two stages of A and B tiles fit a block's
    shared memory, and `waves` over the SMs; TPU tiles in multiples of the
    layout tile and the MXU, with their double-buffered `vmem_bytes`; WSE
    PE rectangles (`rect`, `pes`) sized to the kernel's share of the FLOPs
    and to its weights (or the whole wafer under weight streaming, set on
    the module as `graph.weight_streaming` when the weights exceed half of
    the on-wafer SRAM); LPU `mxm_planes` of 320x320 and `vectors`; Spyre
    a split over the cores in whole sticks (`split_dim`) and the per-core
    `span_bytes`, which must not exceed `max_span_bytes_per_core`.
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target description (default: the module's graph.target)">,
    ListOption<"targetDirs", "target-dir", "std::string",
               "Extra directories of target descriptions">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every decision">,
  ];
  let statistics = [
    Statistic<"numTiled", "tiled", "Number of kernels tiled">,
  ];
}

def GraphLayoutPass : Pass<"graph-layout", "::mlir::ModuleOp"> {
  let summary = "Give every kernel tensor the target's layout; count padding; relayout";
  let description = [{
    Gives every value a kernel reads or writes the target's storage layout,
    a `#graph.layout` (`row_major`, `tile [8, 128]`, `tile [8, 128] pack 2`
    for 16-bit types, `stick 64` for fp16 on Spyre, `vector 320`,
    `pe_slices`, with `perm [...]` where a convolutional net is stored
    channels-last): kernels get `layouts` (one per output), weights,
    constants and function arguments `graph.layout`. The lowering places
    buffers in these layouts and derives none itself. Kernels also get
    `pad_bytes` (storage the padding wastes)
    and `pad_flops` (matmul work wasted padding M, N and K to the matrix
    unit: GPU `mma_tile`, TPU `matmul_pad`, LPU `mxm_plane`, Spyre sticks
    with K zero-padded) to every kernel. On targets whose layout is tied to
    the minor dim (Spyre sticks, TPU tiles), a transpose that moves the
    minor dim gets a `graph.relayout` on its input (a Spyre restickify), and
    its kernel becomes a `relayout` kernel.
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target description (default: the module's graph.target)">,
    ListOption<"targetDirs", "target-dir", "std::string",
               "Extra directories of target descriptions">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every decision">,
  ];
  let statistics = [
    Statistic<"numRelayouts", "relayouts", "Number of relayouts inserted">,
  ];
}

#endif // DFA_TRANSFORMS_PASSES_TD
