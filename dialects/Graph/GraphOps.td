//===- GraphOps.td - graph dialect operations --------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Ops are grouped by topic: sources (constants, weights), elementwise,
// contractions, windowed ops, normalizations, reductions, data movement.
// Every op is pure and carries the cost interface; the reference interface
// is attached by lib/Reference.
//
//===----------------------------------------------------------------------===//

#ifndef DFA_GRAPH_OPS_TD
#define DFA_GRAPH_OPS_TD

include "dialects/Graph/GraphDialect.td"
include "dialects/Graph/GraphAttrs.td"
include "dialects/Graph/GraphTypes.td"
include "dialects/Graph/GraphInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

defvar Graph_Tensor = AnyStaticShapeTensor;
defvar Graph_BoolTensor = StaticShapeTensorOf<[I1]>;
defvar Graph_IndexTensor = StaticShapeTensorOf<[AnyInteger]>;

class Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic,
         !listconcat(traits, [Pure, DeclareOpInterfaceMethods<Graph_CostOpInterface>])> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

def Graph_ConstantOp : Graph_Op<"constant", [ConstantLike, InferTypeOpAdaptor]> {
  let summary = "A tensor value held in the IR";
  let description = [{
    Small values (shapes, scalars, small tables) are held inline as a dense
    elements attribute; large values as a `DenseResourceElementsAttr`, or,
    preferably, as a `graph.weight`.
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Graph_WeightOp : Graph_Op<"weight"> {
  let summary = "A tensor read from a file by reference";
  let description = [{
    A weight is bytes in a file: raw little-endian elements of the result
    type, `offset` bytes into `file`, or, when `zstd_bytes` is set, one zstd
    frame of that many bytes there that decompresses to them. With
    `row_pitch` the weight is a window of columns of a wider matrix stored
    there: each row (the last dim's elements) starts `row_pitch` bytes
    after the previous one (graph-shard's column pieces of a [K, N]
    weight). Nothing is read at compile time. A weight with an empty
    `file` has no data (`--no-weights`): the graph can be compiled and
    profiled, not evaluated.

    ```mlir
    %w = graph.weight "fc.weight" at "model.onnx"[1024] : tensor<512x256xf32>
    %v = graph.weight "fc.bias" at "m.weights.bin"[96] zstd 211 : tensor<512xf32>
    %c = graph.weight "fc.weight.cols" at "model.onnx"[1536] pitch 1024 : tensor<512x128xf32>
    ```
  }];
  let arguments = (ins StrAttr:$sym_name, StrAttr:$file, I64Attr:$offset,
                       OptionalAttr<I64Attr>:$zstd_bytes,
                       OptionalAttr<I64Attr>:$row_pitch);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = [{
    $sym_name `at` $file `[` $offset `]` (`pitch` $row_pitch^)? (`zstd` $zstd_bytes^)? attr-dict `:` type($output)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$type, "::llvm::StringRef":$name,
                   "::llvm::StringRef":$file, "int64_t":$offset), [{
      build($_builder, $_state, type, $_builder.getStringAttr(name),
            $_builder.getStringAttr(file), $_builder.getI64IntegerAttr(offset),
            ::mlir::IntegerAttr(), ::mlir::IntegerAttr());
    }]>,
  ];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

class Graph_UnaryOp<string mnemonic, list<Trait> traits = []>
    : Graph_Op<mnemonic, !listconcat(traits, [Elementwise, SameOperandsAndResultType])> {
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($output)";
}

// Unary ops with no attributes.
def Graph_AbsOp : Graph_UnaryOp<"abs"> { let summary = "|x|"; }
def Graph_BitwiseNotOp : Graph_UnaryOp<"bitwise_not"> { let summary = "~x of integers"; }
def Graph_AcosOp : Graph_UnaryOp<"acos"> { let summary = "arc cosine"; }
def Graph_AcoshOp : Graph_UnaryOp<"acosh"> { let summary = "inverse hyperbolic cosine"; }
def Graph_AsinOp : Graph_UnaryOp<"asin"> { let summary = "arc sine"; }
def Graph_AsinhOp : Graph_UnaryOp<"asinh"> { let summary = "inverse hyperbolic sine"; }
def Graph_AtanOp : Graph_UnaryOp<"atan"> { let summary = "arc tangent"; }
def Graph_AtanhOp : Graph_UnaryOp<"atanh"> { let summary = "inverse hyperbolic tangent"; }
def Graph_CeilOp : Graph_UnaryOp<"ceil"> { let summary = "round up"; }
def Graph_CosOp : Graph_UnaryOp<"cos"> { let summary = "cosine"; }
def Graph_CoshOp : Graph_UnaryOp<"cosh"> { let summary = "hyperbolic cosine"; }
def Graph_ErfOp : Graph_UnaryOp<"erf"> { let summary = "error function"; }
def Graph_ExpOp : Graph_UnaryOp<"exp"> { let summary = "e^x"; }
def Graph_FloorOp : Graph_UnaryOp<"floor"> { let summary = "round down"; }
def Graph_HardSwishOp : Graph_UnaryOp<"hard_swish"> { let summary = "x * relu6(x + 3) / 6"; }
def Graph_LogOp : Graph_UnaryOp<"log"> { let summary = "natural logarithm"; }
def Graph_MishOp : Graph_UnaryOp<"mish"> { let summary = "x * tanh(softplus(x))"; }
def Graph_NegOp : Graph_UnaryOp<"neg"> { let summary = "-x"; }
def Graph_NotOp : Graph_UnaryOp<"not"> { let summary = "logical not"; }
def Graph_ReciprocalOp : Graph_UnaryOp<"reciprocal"> { let summary = "1 / x"; }
def Graph_ReluOp : Graph_UnaryOp<"relu"> { let summary = "max(x, 0)"; }
def Graph_RoundOp : Graph_UnaryOp<"round"> { let summary = "round half to even"; }
def Graph_SigmoidOp : Graph_UnaryOp<"sigmoid"> { let summary = "1 / (1 + e^-x)"; }
def Graph_SignOp : Graph_UnaryOp<"sign"> { let summary = "-1, 0 or 1"; }
def Graph_SiluOp : Graph_UnaryOp<"silu"> { let summary = "x * sigmoid(x)"; }
def Graph_SinOp : Graph_UnaryOp<"sin"> { let summary = "sine"; }
def Graph_SinhOp : Graph_UnaryOp<"sinh"> { let summary = "hyperbolic sine"; }
def Graph_SoftplusOp : Graph_UnaryOp<"softplus"> { let summary = "log(1 + e^x)"; }
def Graph_SoftsignOp : Graph_UnaryOp<"softsign"> { let summary = "x / (1 + |x|)"; }
def Graph_SqrtOp : Graph_UnaryOp<"sqrt"> { let summary = "square root"; }
def Graph_TanOp : Graph_UnaryOp<"tan"> { let summary = "tangent"; }
def Graph_TanhOp : Graph_UnaryOp<"tanh"> { let summary = "hyperbolic tangent"; }

// Unary ops with parameters.
def Graph_CeluOp : Graph_UnaryOp<"celu"> {
  let summary = "max(0, x) + min(0, alpha * (exp(x / alpha) - 1))";
  let arguments = (ins Graph_Tensor:$input, DefaultValuedAttr<F64Attr, "1.0">:$alpha);
}
def Graph_ClipOp : Graph_UnaryOp<"clip"> {
  let summary = "min(max(x, min), max)";
  let arguments = (ins Graph_Tensor:$input, OptionalAttr<F64Attr>:$min,
                       OptionalAttr<F64Attr>:$max);
}
def Graph_EluOp : Graph_UnaryOp<"elu"> {
  let summary = "x if x > 0 else alpha * (e^x - 1)";
  let arguments = (ins Graph_Tensor:$input, DefaultValuedAttr<F64Attr, "1.0">:$alpha);
}
def Graph_GeluOp : Graph_UnaryOp<"gelu"> {
  let summary = "Gaussian error linear unit (erf form, or tanh approximation)";
  let arguments = (ins Graph_Tensor:$input, DefaultValuedAttr<BoolAttr, "false">:$tanh_approx);
}
def Graph_HardSigmoidOp : Graph_UnaryOp<"hard_sigmoid"> {
  let summary = "max(0, min(1, alpha * x + beta))";
  let arguments = (ins Graph_Tensor:$input, DefaultValuedAttr<F64Attr, "0.2">:$alpha,
                       DefaultValuedAttr<F64Attr, "0.5">:$beta);
}
def Graph_LeakyReluOp : Graph_UnaryOp<"leaky_relu"> {
  let summary = "x if x >= 0 else alpha * x";
  let arguments = (ins Graph_Tensor:$input, DefaultValuedAttr<F64Attr, "0.01">:$alpha);
}
def Graph_SeluOp : Graph_UnaryOp<"selu"> {
  let summary = "gamma * (x if x > 0 else alpha * (e^x - 1))";
  let arguments = (ins Graph_Tensor:$input,
                       DefaultValuedAttr<F64Attr, "1.67326319217681884765625">:$alpha,
                       DefaultValuedAttr<F64Attr, "1.05070102214813232421875">:$gamma);
}
def Graph_ShrinkOp : Graph_UnaryOp<"shrink"> {
  let summary = "x + bias if x < -lambd, x - bias if x > lambd, else 0";
  let arguments = (ins Graph_Tensor:$input, DefaultValuedAttr<F64Attr, "0.0">:$bias,
                       DefaultValuedAttr<F64Attr, "0.5">:$lambd);
}
def Graph_ThresholdedReluOp : Graph_UnaryOp<"thresholded_relu"> {
  let summary = "x if x > alpha else 0";
  let arguments = (ins Graph_Tensor:$input, DefaultValuedAttr<F64Attr, "1.0">:$alpha);
}

// Predicates: float in, i1 out.
class Graph_PredicateOp<string mnemonic>
    : Graph_Op<mnemonic, [Elementwise, SameOperandsAndResultShape]> {
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_BoolTensor:$output);
}
def Graph_IsNaNOp : Graph_PredicateOp<"is_nan"> { let summary = "x is NaN"; }
def Graph_IsInfOp : Graph_PredicateOp<"is_inf"> {
  let summary = "x is an infinity of the selected signs";
  let arguments = (ins Graph_Tensor:$input,
                       DefaultValuedAttr<BoolAttr, "true">:$detect_positive,
                       DefaultValuedAttr<BoolAttr, "true">:$detect_negative);
}

// How graph.cast rounds a float to an E8M0 power of two (ONNX Cast's
// round_mode); ref::toE8M0 is the conversion.
def Graph_E8M0RoundingEnum : I32EnumAttr<"E8M0Rounding",
    "how a float becomes an E8M0 power of two", [
    I32EnumAttrCase<"Up", 0, "up">,
    I32EnumAttrCase<"Down", 1, "down">,
    I32EnumAttrCase<"Nearest", 2, "nearest">]> {
  let cppNamespace = "::dfa::graph";
  let genSpecializedAttr = 0;
}
def Graph_E8M0RoundingAttr
    : EnumAttr<Graph_Dialect, Graph_E8M0RoundingEnum, "e8m0_rounding"> {
  let assemblyFormat = "`<` $value `>`";
}

def Graph_CastOp : Graph_Op<"cast", [Elementwise, SameOperandsAndResultShape]> {
  let summary = "Converts elements to the result's element type";
  let description = [{
    Float to integer truncates toward zero; to `i1` tests for non-zero;
    float narrowing rounds to nearest even. The FP6 and FP4 minifloats
    saturate. To `!graph.f8E8M0FNU`, `round_mode` (default up) picks the
    power of two, and a value above 2^127 stays 2^127 unless
    `nonsaturating`, which makes it NaN; both are only valid for that
    result type.
  }];
  let arguments = (ins Graph_Tensor:$input,
                       OptionalAttr<Graph_E8M0RoundingAttr>:$round_mode,
                       UnitAttr:$nonsaturating);
  let results = (outs Graph_Tensor:$output);
  let builders = [
    OpBuilder<(ins "mlir::Type":$output, "mlir::Value":$input), [{
      build($_builder, $_state, output, input, nullptr, false);
    }]>];
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Graph_BitCastOp : Graph_Op<"bitcast", [Elementwise, SameOperandsAndResultShape]> {
  let summary = "Reinterprets each element's bits as the result's element type";
  let description = [{
    The bytes stay; only their type changes (ONNX BitCast). Both element
    types take the same number of bytes (`i1` one byte, as ONNX stores
    bool); sub-byte types are not bit-cast.
  }];
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

// Binary ops with numpy broadcasting.
class Graph_BinaryOp<string mnemonic, list<Trait> traits = []>
    : Graph_Op<mnemonic, !listconcat(traits, [InferTypeOpAdaptor])> {
  let arguments = (ins Graph_Tensor:$lhs, Graph_Tensor:$rhs);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}
def Graph_AddOp : Graph_BinaryOp<"add", [Commutative]> { let summary = "lhs + rhs"; }
def Graph_SubOp : Graph_BinaryOp<"sub"> { let summary = "lhs - rhs"; }
def Graph_MulOp : Graph_BinaryOp<"mul", [Commutative]> { let summary = "lhs * rhs"; }
def Graph_DivOp : Graph_BinaryOp<"div"> {
  let summary = "lhs / rhs (integers truncate toward zero)";
}
def Graph_PowOp : Graph_BinaryOp<"pow"> { let summary = "lhs ^ rhs"; }
def Graph_MaxOp : Graph_BinaryOp<"max", [Commutative]> { let summary = "max(lhs, rhs)"; }
def Graph_MinOp : Graph_BinaryOp<"min", [Commutative]> { let summary = "min(lhs, rhs)"; }
def Graph_ModOp : Graph_BinaryOp<"mod"> {
  let summary = "remainder: sign of the divisor, or of the dividend when fmod";
  let arguments = (ins Graph_Tensor:$lhs, Graph_Tensor:$rhs,
                       DefaultValuedAttr<BoolAttr, "false">:$fmod);
}
def Graph_PReluOp : Graph_BinaryOp<"prelu"> {
  let summary = "lhs if lhs >= 0 else rhs * lhs (rhs is the slope)";
}
def Graph_AndOp : Graph_BinaryOp<"and", [Commutative]> { let summary = "logical and"; }
def Graph_OrOp : Graph_BinaryOp<"or", [Commutative]> { let summary = "logical or"; }
def Graph_XorOp : Graph_BinaryOp<"xor", [Commutative]> { let summary = "logical xor"; }
def Graph_BitShiftOp : Graph_BinaryOp<"bit_shift"> {
  let summary = "lhs << rhs or lhs >> rhs";
  let arguments = (ins Graph_Tensor:$lhs, Graph_Tensor:$rhs, BoolAttr:$left);
}
def Graph_BitwiseOp : Graph_BinaryOp<"bitwise"> {
  let summary = "lhs & rhs, lhs | rhs or lhs ^ rhs of integers (`kind` and, or, xor)";
  let arguments = (ins Graph_Tensor:$lhs, Graph_Tensor:$rhs, StrAttr:$kind);
}

class Graph_CompareOp<string mnemonic, list<Trait> traits = []>
    : Graph_BinaryOp<mnemonic, traits> {
  let results = (outs Graph_BoolTensor:$output);
}
def Graph_EqualOp : Graph_CompareOp<"equal", [Commutative]> { let summary = "lhs == rhs"; }
def Graph_LessOp : Graph_CompareOp<"less"> { let summary = "lhs < rhs"; }
def Graph_LessEqualOp : Graph_CompareOp<"less_equal"> { let summary = "lhs <= rhs"; }
def Graph_GreaterOp : Graph_CompareOp<"greater"> { let summary = "lhs > rhs"; }
def Graph_GreaterEqualOp : Graph_CompareOp<"greater_equal"> { let summary = "lhs >= rhs"; }

def Graph_WhereOp : Graph_Op<"where", [InferTypeOpAdaptor]> {
  let summary = "Selects lhs where cond is true, else rhs (broadcasting)";
  let arguments = (ins Graph_BoolTensor:$cond, Graph_Tensor:$lhs, Graph_Tensor:$rhs);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

def Graph_MatMulOp : Graph_Op<"matmul", [InferTypeOpAdaptorWithIsCompatible]> {
  let summary = "numpy matmul: batched, broadcasting batch dimensions";
  let description = [{
    The result has the operands' element type, or a wider float type: a
    product that keeps its accumulator's precision (graph-shard's partial
    products of a product cut along K, summed in the target's accumulator
    format before one rounding to the product's type).
  }];
  let arguments = (ins Graph_Tensor:$lhs, Graph_Tensor:$rhs);
  let results = (outs Graph_Tensor:$output);
}

def Graph_GemmOp : Graph_Op<"gemm", [InferTypeOpAdaptorWithIsCompatible]> {
  let summary = "alpha * op(a) * op(b) + beta * c";
  let description = [{
    The result has `a`'s element type, or a wider float type, as
    `graph.matmul`'s may.
  }];
  let arguments = (ins Graph_Tensor:$a, Graph_Tensor:$b, Optional<Graph_Tensor>:$c,
                       DefaultValuedAttr<F64Attr, "1.0">:$alpha,
                       DefaultValuedAttr<F64Attr, "1.0">:$beta,
                       DefaultValuedAttr<BoolAttr, "false">:$trans_a,
                       DefaultValuedAttr<BoolAttr, "false">:$trans_b);
  let results = (outs Graph_Tensor:$output);
}

def Graph_GroupedMatMulOp : Graph_Op<"grouped_matmul", [InferTypeOpAdaptor]> {
  let summary = "Rows in groups, each group times its own matrix (MoE experts)";
  let description = [{
    `lhs` is [S, K], `rhs` [E, K, N], `offsets` [E] integers; the result is
    [S, N]. Group e is the rows from `offsets[e - 1]` (0 for the first) up
    to `offsets[e]`, clamped to [0, S], and row r of such a group is
    `lhs[r] x rhs[e]`; groups are applied in order, so where ranges overlap
    (offsets that decrease) the later group's row stands, and a row no
    group covers is 0. With E + 1 offsets the first is where group 0
    starts (graph-shard gives each chip's slice of the experts so). This is `torch._grouped_mm` with offsets (2-d by
    3-d) and the grouped product of a mixture of experts' dispatch, as
    `transformers` sorts the tokens' rows by expert and multiplies each
    expert's rows by its weights: `offsets` are the experts' cumulative
    row counts, known only at run time, while every shape is static.
    A target runs it as one kernel; its time assumes the rows spread
    evenly over the experts (`graph::groupedRows`, `graph::activeGroups`),
    each expert's weights read once. `groups_total` (absent: E) is the
    number of experts the rows spread over when this op holds a slice of
    them (graph-shard's split across chips): its share of the rows is
    S E / groups_total.
  }];
  let arguments = (ins Graph_Tensor:$lhs, Graph_Tensor:$rhs, Graph_IndexTensor:$offsets,
                       OptionalAttr<I64Attr>:$groups_total);
  let results = (outs Graph_Tensor:$output);
}

def Graph_AttentionOp : Graph_Op<"attention", [InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<Graph_DecomposeOpInterface>]> {
  let summary = "Scaled dot-product attention: softmax(q k^T * scale + mask) v";
  let description = [{
    `q` is [..., L, D], `k` [..., S, D], `v` [..., S, Dv] with equal leading
    (batch, head) dims; the result is [..., L, Dv]. An optional `mask`
    broadcasts to [..., L, S]: a bool mask keeps the positions where it is
    true, a float mask is added to the scores. `causal` keeps position j
    for query i only when j <= i. `safe_softmax`: a probability that comes
    out NaN is 0, so a row whose scores are all masked attends to nothing
    (torch's safe softmax, which its ONNX export of SDPA writes as
    where(isnan(p), 0, p); flash kernels zero such rows too).
    `empty_rows_zero`: a row whose mask keeps no key (a float mask -inf
    across it, a bool one false) is 0, whatever the scores hold
    (onnxruntime's Attention and GroupQueryAttention kernels, as dfa's
    import writes them: where(reduce_max(mask) == -inf, 0, p)). Targets
    with a fused attention kernel (flash attention) run it whole; the
    others decompose it.
  }];
  let arguments = (ins Graph_Tensor:$query, Graph_Tensor:$key, Graph_Tensor:$value,
                       Optional<Graph_Tensor>:$mask, F64Attr:$scale,
                       DefaultValuedAttr<BoolAttr, "false">:$causal,
                       DefaultValuedAttr<BoolAttr, "false">:$safe_softmax,
                       DefaultValuedAttr<BoolAttr, "false">:$empty_rows_zero);
  let results = (outs Graph_Tensor:$output);
}

//===----------------------------------------------------------------------===//
// Windowed ops: convolution and pooling (NCHW, any number of spatial dims)
//===----------------------------------------------------------------------===//

def Graph_ConvOp : Graph_Op<"conv", [InferTypeOpAdaptor]> {
  let summary = "N-d grouped convolution, NC[spatial] layout";
  let description = [{
    `pads` holds the begin pads of every spatial dim, then the end pads.
  }];
  let arguments = (ins Graph_Tensor:$input, Graph_Tensor:$filter, Optional<Graph_Tensor>:$bias,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$group);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

def Graph_ConvTransposeOp : Graph_Op<"conv_transpose"> {
  let summary = "N-d grouped transposed convolution, NC[spatial] layout";
  let description = [{
    The result type carries the output shape; `pads` are the begin pads of
    every spatial dim, then the end pads, as in ONNX.
  }];
  let arguments = (ins Graph_Tensor:$input, Graph_Tensor:$filter, Optional<Graph_Tensor>:$bias,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$group);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

class Graph_PoolOp<string mnemonic> : Graph_Op<mnemonic, [InferTypeOpAdaptor]> {
  let results = (outs Graph_Tensor:$output);
}
def Graph_MaxPoolOp : Graph_PoolOp<"max_pool"> {
  let summary = "N-d max pooling";
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);
}
def Graph_AvgPoolOp : Graph_PoolOp<"avg_pool"> {
  let summary = "N-d average pooling";
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                       DefaultValuedAttr<BoolAttr, "false">:$count_include_pad,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$dilations);
}
def Graph_LpPoolOp : Graph_PoolOp<"lp_pool"> {
  let summary = "N-d Lp-norm pooling";
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DefaultValuedAttr<I64Attr, "2">:$p,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$dilations);
}
def Graph_GlobalAvgPoolOp : Graph_PoolOp<"global_avg_pool"> {
  let summary = "mean over all spatial dims, kept as size 1";
  let arguments = (ins Graph_Tensor:$input);
}
def Graph_GlobalMaxPoolOp : Graph_PoolOp<"global_max_pool"> {
  let summary = "max over all spatial dims, kept as size 1";
  let arguments = (ins Graph_Tensor:$input);
}

def Graph_ResizeOp : Graph_Op<"resize"> {
  let summary = "Resamples the input to the result shape";
  let description = [{
    Nearest, linear or cubic interpolation, separable over the dims. For
    result index `o` in a dim, the source coordinate is given by
    `coordinate_mode` (ONNX's coordinate_transformation_mode) with
    `scales[d]` = output size / input size unless the model gave other
    scales; `roi` holds per-dim [start..., end...] for tf_crop_and_resize.
    Out-of-range taps repeat the edge (or, with `exclude_outside`, get no
    weight).
  }];
  let arguments = (ins Graph_Tensor:$input,
                       DefaultValuedAttr<StrAttr, "\"nearest\"">:$mode,
                       DefaultValuedAttr<StrAttr, "\"half_pixel\"">:$coordinate_mode,
                       DefaultValuedAttr<StrAttr, "\"round_prefer_floor\"">:$nearest_mode,
                       DefaultValuedAttr<F64Attr, "-0.75">:$cubic_coeff_a,
                       DefaultValuedAttr<BoolAttr, "false">:$exclude_outside,
                       DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value,
                       DenseF64ArrayAttr:$scales,
                       OptionalAttr<DenseF64ArrayAttr>:$roi);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Normalizations and softmax
//===----------------------------------------------------------------------===//

def Graph_GridSampleOp : Graph_Op<"grid_sample"> {
  let summary = "Samples the input at the grid's normalized coordinates";
  let description = [{
    ONNX GridSample: `input` is [N, C, D1..Dr], `grid` [N, O1..Or, r]
    holding, per output point, coordinates in [-1, 1] (the last spatial dim
    first); the result is [N, C, O1..Or]. `mode` is nearest (ties to even),
    linear or cubic (Keys, a = -0.75), separable over the dims;
    `padding_mode` (zeros, border, reflection) decides taps outside the
    input; `align_corners` maps -1 and 1 to the corner pixels' centres
    rather than their edges.
  }];
  let arguments = (ins Graph_Tensor:$input, Graph_Tensor:$grid,
                       DefaultValuedAttr<StrAttr, "\"linear\"">:$mode,
                       DefaultValuedAttr<StrAttr, "\"zeros\"">:$padding_mode,
                       DefaultValuedAttr<BoolAttr, "false">:$align_corners);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

def Graph_BatchNormOp : Graph_Op<"batch_norm", [InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<Graph_DecomposeOpInterface>]> {
  let summary = "inference batch normalization over dim 1";
  let arguments = (ins Graph_Tensor:$input, Graph_Tensor:$scale, Graph_Tensor:$bias,
                       Graph_Tensor:$mean, Graph_Tensor:$variance,
                       DefaultValuedAttr<F64Attr, "1e-5">:$epsilon);
  let results = (outs Graph_Tensor:$output);
}
def Graph_InstanceNormOp : Graph_Op<"instance_norm", [InferTypeOpAdaptor]> {
  let summary = "normalization over the spatial dims of each (n, c)";
  let arguments = (ins Graph_Tensor:$input, Graph_Tensor:$scale, Graph_Tensor:$bias,
                       DefaultValuedAttr<F64Attr, "1e-5">:$epsilon);
  let results = (outs Graph_Tensor:$output);
}
def Graph_LayerNormOp : Graph_Op<"layer_norm", [InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<Graph_DecomposeOpInterface>]> {
  let summary = "normalization over dims [axis, rank)";
  let arguments = (ins Graph_Tensor:$input, Graph_Tensor:$scale, Optional<Graph_Tensor>:$bias,
                       I64Attr:$axis, DefaultValuedAttr<F64Attr, "1e-5">:$epsilon);
  let results = (outs Graph_Tensor:$output);
}
def Graph_LpNormOp : Graph_Op<"lp_norm", [InferTypeOpAdaptor]> {
  let summary = "x / ||x||_p along axis";
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis, DefaultValuedAttr<I64Attr, "2">:$p);
  let results = (outs Graph_Tensor:$output);
}

class Graph_AxisOp<string mnemonic, list<Trait> traits = []>
    : Graph_Op<mnemonic, !listconcat(traits, [SameOperandsAndResultType])> {
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
  let assemblyFormat = "$input attr-dict `:` type($output)";
}
def Graph_SoftmaxOp : Graph_AxisOp<"softmax",
    [DeclareOpInterfaceMethods<Graph_DecomposeOpInterface>]> {
  let summary = "exp(x) / sum(exp(x)) along axis";
  let description = [{
    With `empty_rows_zero`, a row whose inputs are all -inf (every score
    masked) is 0 where the formula gives NaN: torch's `_safe_softmax`,
    which graph-raise reads from core ATen's guard around a softmax. A
    kernel finds such a row from the maximum it computes anyway.
  }];
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$empty_rows_zero);
  let builders = [
    OpBuilder<(ins "::mlir::Value":$input, "::mlir::IntegerAttr":$axis), [{
      build($_builder, $_state, input, axis, ::mlir::BoolAttr());
    }]>
  ];
}
def Graph_LogSoftmaxOp : Graph_AxisOp<"log_softmax",
    [DeclareOpInterfaceMethods<Graph_DecomposeOpInterface>]> {
  let summary = "x - log(sum(exp(x))) along axis";
}
def Graph_HardmaxOp : Graph_AxisOp<"hardmax"> {
  let summary = "1 at the first maximum along axis, 0 elsewhere";
}
def Graph_CumSumOp : Graph_AxisOp<"cumsum"> {
  let summary = "cumulative sum along axis";
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$exclusive,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
}
def Graph_CumProdOp : Graph_AxisOp<"cumprod"> {
  let summary = "cumulative product along axis";
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$exclusive,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Graph_ReduceOp<string mnemonic> : Graph_Op<mnemonic, [InferTypeOpAdaptor]> {
  let description = [{
    Reduces over `axes` (non-negative, sorted); an empty `axes` reduces
    nothing (an identity up to the op's elementwise part).
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$axes,
                       DefaultValuedAttr<BoolAttr, "true">:$keepdims);
  let results = (outs Graph_Tensor:$output);
}
def Graph_ReduceSumOp : Graph_ReduceOp<"reduce_sum"> { let summary = "sum"; }
def Graph_ReduceMeanOp : Graph_ReduceOp<"reduce_mean"> { let summary = "mean"; }
def Graph_ReduceMaxOp : Graph_ReduceOp<"reduce_max"> { let summary = "maximum"; }
def Graph_ReduceMinOp : Graph_ReduceOp<"reduce_min"> { let summary = "minimum"; }
def Graph_ReduceProdOp : Graph_ReduceOp<"reduce_prod"> { let summary = "product"; }
def Graph_ReduceL1Op : Graph_ReduceOp<"reduce_l1"> { let summary = "sum of |x|"; }
def Graph_ReduceL2Op : Graph_ReduceOp<"reduce_l2"> { let summary = "sqrt(sum(x^2))"; }
def Graph_ReduceSumSquareOp : Graph_ReduceOp<"reduce_sum_square"> { let summary = "sum(x^2)"; }
def Graph_ReduceLogSumOp : Graph_ReduceOp<"reduce_log_sum"> { let summary = "log(sum(x))"; }
def Graph_ReduceLogSumExpOp : Graph_ReduceOp<"reduce_log_sum_exp"> {
  let summary = "log(sum(exp(x)))";
}

class Graph_ArgOp<string mnemonic> : Graph_Op<mnemonic, [InferTypeOpAdaptor]> {
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "true">:$keepdims,
                       DefaultValuedAttr<BoolAttr, "false">:$select_last_index);
  let results = (outs StaticShapeTensorOf<[I64]>:$output);
}
def Graph_ArgMaxOp : Graph_ArgOp<"arg_max"> { let summary = "index of the maximum along axis"; }
def Graph_ArgMinOp : Graph_ArgOp<"arg_min"> { let summary = "index of the minimum along axis"; }

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Graph_ReshapeOp : Graph_Op<"reshape"> {
  let summary = "Same elements in row-major order, new shape";
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_ExpandOp : Graph_Op<"expand"> {
  let summary = "Broadcasts the input to the result shape";
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

def Graph_TransposeOp : Graph_Op<"transpose", [InferTypeOpAdaptor]> {
  let summary = "Permutes dims: result dim i is input dim perm[i]";
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Graph_Tensor:$output);
  let hasFolder = 1;
}

def Graph_ConcatOp : Graph_Op<"concat", [InferTypeOpAdaptor]> {
  let summary = "Joins tensors along axis";
  let arguments = (ins Variadic<Graph_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Graph_Tensor:$output);
  let hasFolder = 1;
}

def Graph_SplitOp : Graph_Op<"split", [InferTypeOpAdaptor]> {
  let summary = "Splits a tensor along axis into pieces of the given sizes";
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis, DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<Graph_Tensor>:$outputs);
}

def Graph_SliceOp : Graph_Op<"slice"> {
  let summary = "Strided window: result[i] = input[starts + i * steps]";
  let description = [{
    `starts` and `steps` have one entry per dim; the result type gives the
    number of elements taken in each dim. Steps are non-zero and may be
    negative.
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$steps);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

def Graph_GatherOp : Graph_Op<"gather", [InferTypeOpAdaptor]> {
  let summary = "Takes slices of input along axis at the given indices";
  let arguments = (ins Graph_Tensor:$input, Graph_IndexTensor:$indices, I64Attr:$axis);
  let results = (outs Graph_Tensor:$output);
}

def Graph_GatherElementsOp : Graph_Op<"gather_elements"> {
  let summary = "result[i][j] = input[index[i][j]][j] along axis";
  let arguments = (ins Graph_Tensor:$input, Graph_IndexTensor:$indices, I64Attr:$axis);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

def Graph_GatherNDOp : Graph_Op<"gather_nd"> {
  let summary = "Slices of input addressed by index tuples (the last dim of indices)";
  let description = [{
    With `b` = batch_dims and `k` = the last dim of `indices`, the result
    has shape input[:b] + indices[b:-1] + input[b+k:].
  }];
  let arguments = (ins Graph_Tensor:$input, Graph_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

def Graph_ScatterNDOp : Graph_Op<"scatter_nd", [AllTypesMatch<["input", "output"]>]> {
  let summary = "Copy of input with update slices written at index tuples";
  let arguments = (ins Graph_Tensor:$input, Graph_IndexTensor:$indices,
                       Graph_Tensor:$updates,
                       DefaultValuedAttr<StrAttr, "\"none\"">:$reduction);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

def Graph_ScatterElementsOp : Graph_Op<"scatter_elements", [InferTypeOpAdaptor]> {
  let summary = "Copy of input with updates written at indices along axis";
  let arguments = (ins Graph_Tensor:$input, Graph_IndexTensor:$indices,
                       Graph_Tensor:$updates, I64Attr:$axis,
                       DefaultValuedAttr<StrAttr, "\"none\"">:$reduction);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

def Graph_PadOp : Graph_Op<"pad", [InferTypeOpAdaptor]> {
  let summary = "Pads each dim: constant, reflect, edge or wrap";
  let description = [{
    `pads` holds the begin pads of every dim, then the end pads; negative
    pads crop.
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$pads,
                       DefaultValuedAttr<StrAttr, "\"constant\"">:$mode,
                       DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs Graph_Tensor:$output);
}

def Graph_TileOp : Graph_Op<"tile", [InferTypeOpAdaptor]> {
  let summary = "Repeats the input along each dim";
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$repeats);
  let results = (outs Graph_Tensor:$output);
}

def Graph_TriluOp : Graph_Op<"trilu", [SameOperandsAndResultType]> {
  let summary = "Keeps the upper or lower triangle of the last two dims";
  let arguments = (ins Graph_Tensor:$input, DefaultValuedAttr<BoolAttr, "true">:$upper,
                       DefaultValuedAttr<I64Attr, "0">:$k);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($output)";
}

def Graph_TopKOp : Graph_Op<"top_k", [InferTypeOpAdaptor]> {
  let summary = "The k largest (or smallest) values along axis, and their indices";
  let arguments = (ins Graph_Tensor:$input, I64Attr:$k, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "true">:$largest,
                       DefaultValuedAttr<BoolAttr, "true">:$sorted);
  let results = (outs Graph_Tensor:$values, StaticShapeTensorOf<[I64]>:$indices);
}

//===----------------------------------------------------------------------===//
// Collectives (made by graph-shard under tensor parallelism)
//===----------------------------------------------------------------------===//

def Graph_AllReduceOp : Graph_Op<"all_reduce", [SameOperandsAndResultType]> {
  let summary = "The sum of one tensor over the chips of a tensor-parallel group";
  let description = [{
    Under tensor parallelism (`graph-shard` with `tensor-parallel` N) the
    module is one chip's program of N that run alike (SPMD): each chip holds
    its slice of the weights and computes a partial result, and
    `all_reduce` makes every chip's copy the sum of the N partials. Its time
    is a ring all-reduce over the chip-to-chip links
    (`target::collectiveSeconds`); it has no reference value (one chip's
    program does not hold the others' partials).

    ```mlir
    %y = graph.all_reduce %partial {chips = 8} : tensor<4x1x8192xf16>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, I64Attr:$chips);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($output)";
  let hasVerifier = 1;
}

def Graph_AllGatherOp : Graph_Op<"all_gather"> {
  let summary = "Every chip's slice of a tensor, joined along axis on every chip";
  let description = [{
    The result is the input's shape with `axis` `chips` times longer: chip
    i's slice lands at the i-th place (the module is one chip's program of a
    tensor-parallel group; see `graph.all_reduce`). When each slice is held
    by several chips of the group (K/V heads fewer than the chips), `chips`
    counts the distinct slices: one chip of each gathers.

    ```mlir
    %y = graph.all_gather %x {axis = 2, chips = 8} : (tensor<4x1x4008xf16>) -> tensor<4x1x32064xf16>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis, I64Attr:$chips);
  let results = (outs Graph_Tensor:$output);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Fused groups and layout changes (made by graph-fuse and graph-layout)
//===----------------------------------------------------------------------===//

// What every graph op is, declared once (classify and numericsOf in
// GraphOpClass.cpp): its structure, which graph-fuse, graph-tile and the
// lowering look at, and its numerics, which dfa-bisect's tolerance model
// looks at.
def Graph_OpClass : I32EnumAttr<"OpClass", "the structure of a graph op", [
    I32EnumAttrCase<"Source", 0, "source">,
    I32EnumAttrCase<"Pointwise", 1, "pointwise">,
    I32EnumAttrCase<"Data", 2, "data">,
    I32EnumAttrCase<"Reduction", 3, "reduction">,
    I32EnumAttrCase<"Window", 4, "window">,
    I32EnumAttrCase<"Matmul", 5, "matmul">,
    I32EnumAttrCase<"Conv", 6, "conv">,
    I32EnumAttrCase<"Attention", 7, "attention">,
    I32EnumAttrCase<"Other", 8, "other">,
    // Moves (and sums) values between the chips of a tensor-parallel group.
    I32EnumAttrCase<"Collective", 9, "collective">]> {
  let cppNamespace = "::dfa::graph";
  let genSpecializedAttr = 0;
}

def Graph_Numerics : I32EnumAttr<"Numerics", "how a graph op's results are rounded", [
    // Moves or selects input values: copies, gathers, max pooling, top-k.
    I32EnumAttrCase<"Exact", 0, "exact">,
    // One correctly rounded operation per element: + - * /, sqrt, relu.
    I32EnumAttrCase<"Rounded", 1, "rounded">,
    // A library approximation per element: exp, log, tanh, erf, pow.
    I32EnumAttrCase<"Transcendental", 2, "transcendental">,
    // Sums over a reduction length K: matmuls, convolutions, means.
    I32EnumAttrCase<"Accumulated", 3, "accumulated">,
    // A reduction and transcendentals together: softmax, normalizations.
    I32EnumAttrCase<"Composite", 4, "composite">]> {
  let cppNamespace = "::dfa::graph";
  let genSpecializedAttr = 0;
}

// What a kernel is, by its anchor: declared once here, read as a typed enum
// (KernelOp::getKindEnum); the attribute stays its string spelling.
def Graph_KernelKind : I32EnumAttr<"KernelKind", "the class of a kernel's anchor", [
    I32EnumAttrCase<"Source", 0, "source">,
    I32EnumAttrCase<"Pointwise", 1, "pointwise">,
    I32EnumAttrCase<"Data", 2, "data">,
    I32EnumAttrCase<"Reduction", 3, "reduction">,
    I32EnumAttrCase<"Window", 4, "window">,
    I32EnumAttrCase<"Matmul", 5, "matmul">,
    I32EnumAttrCase<"Conv", 6, "conv">,
    I32EnumAttrCase<"Attention", 7, "attention">,
    I32EnumAttrCase<"Relayout", 8, "relayout">,
    I32EnumAttrCase<"Other", 9, "other">,
    I32EnumAttrCase<"Collective", 10, "collective">]> {
  let cppNamespace = "::dfa::graph";
  let genSpecializedAttr = 0;
}

def Graph_KernelOp : Graph_Op<"kernel", [IsolatedFromAbove,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "One fused group of ops: what a target runs as one kernel";
  let description = [{
    `graph-fuse` groups ops into kernels; the body's block arguments are
    the kernel's inputs, `graph.yield` names its outputs. Intermediate
    values of the body never reach memory outside the kernel. `kind` is the
    anchor of the group, one of `KernelKind` (`matmul`, `conv`,
    `attention`, `reduction`, `window`, `pointwise`, `data`, `relayout`,
    `source`, `collective`, `other`); later passes attach their decisions as attributes
    (`tile`, `units`, `layouts`, `padding`).

    ```mlir
    %y = graph.kernel "fc1" kind "matmul" (%x, %w) : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32> {
    ^bb0(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>):
      %m = graph.matmul %a, %b : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
      %r = graph.relu %m : tensor<8x4xf32>
      graph.yield %r : tensor<8x4xf32>
    }
    ```
  }];
  // What later passes decide, declared: graph-tile's `tile`, `grid` and
  // `units` (and, per tiling scheme, `waves`, `smem_bytes` and `split_k`
  // (K split over that many CTAs a tile, when more than one) for CTA
  // tiles, `vmem_bytes` for MXU tiles, `rect` and `pes` for PE rectangles,
  // `mxm_planes` for matrix planes, `split_dim` and `span_bytes` for a
  // split over cores); graph-layout's `layouts`, `pad_bytes`, `pad_flops`.
  // The lowering reads `units`, `mxm_planes`, `smem_bytes`, `pad_bytes` and
  // `pad_flops`; the others record the decision in the stage's IR.
  let arguments = (ins StrAttr:$sym_name, StrAttr:$kind, Variadic<Graph_Tensor>:$inputs,
                       OptionalAttr<DenseI64ArrayAttr>:$tile,
                       OptionalAttr<I64Attr>:$grid,
                       OptionalAttr<I64Attr>:$units,
                       OptionalAttr<I64Attr>:$waves,
                       OptionalAttr<I64Attr>:$smem_bytes,
                       OptionalAttr<I64Attr>:$split_k,
                       OptionalAttr<I64Attr>:$vmem_bytes,
                       OptionalAttr<DenseI64ArrayAttr>:$rect,
                       OptionalAttr<I64Attr>:$pes,
                       OptionalAttr<I64Attr>:$mxm_planes,
                       OptionalAttr<I64Attr>:$split_dim,
                       OptionalAttr<I64Attr>:$span_bytes,
                       OptionalAttr<TypedArrayAttrBase<Graph_LayoutAttr,
                           "one #graph.layout per output">>:$layouts,
                       OptionalAttr<I64Attr>:$pad_bytes,
                       OptionalAttr<I64Attr>:$pad_flops);
  let results = (outs Variadic<Graph_Tensor>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$outputs, "::llvm::StringRef":$name,
                   "::llvm::StringRef":$kind, "::mlir::ValueRange":$inputs), [{
      build($_builder, $_state, outputs, name, kind, inputs, nullptr, nullptr,
            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    }]>];
  let assemblyFormat = [{
    $sym_name `kind` $kind `(` $inputs `)` attr-dict-with-keyword `:` functional-type($inputs, $outputs) $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBlock() { return getBody().front(); }
    /// The kind as the enum (the verifier checks it is one).
    KernelKind getKindEnum() { return *symbolizeKernelKind(getKind()); }
    void setKindEnum(KernelKind k) { setKind(stringifyKernelKind(k)); }
  }];
}

def Graph_YieldOp : Graph_Op<"yield", [Terminator, HasParent<"KernelOp">]> {
  let summary = "The values a kernel writes out";
  let arguments = (ins Variadic<Graph_Tensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
}

def Graph_RelayoutOp : Graph_Op<"relayout", [SameOperandsAndResultType]> {
  let summary = "The same values in another memory layout";
  let description = [{
    Inserted by `graph-layout` where a producer's layout is not the one its
    consumer needs (Spyre restickify, a TPU relayout of the minor dims).
    Values are unchanged; the cost is the bytes moved.
  }];
  let arguments = (ins Graph_Tensor:$input, StrAttr:$from, StrAttr:$to);
  let results = (outs Graph_Tensor:$output);
  let assemblyFormat = "$input `from` $from `to` $to attr-dict `:` type($output)";
}

#endif // DFA_GRAPH_OPS_TD
