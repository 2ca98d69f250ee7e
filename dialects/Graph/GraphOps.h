//===- GraphOps.h - graph dialect operations --------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_GRAPH_GRAPHOPS_H
#define DIALECTS_GRAPH_GRAPHOPS_H

#include "dialects/Graph/GraphDialect.h"
#include "dialects/Graph/GraphInterfaces.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace dfa::graph {
/// Whether a kernel of this kind runs on the matrix units: matmul, conv
/// and attention.
bool isMatrixKind(KernelKind k);

/// The structure of `op` (GraphOpClass.cpp, the one table of op classes).
OpClass classify(mlir::Operation *op);
/// How `op`'s results are rounded (the same table).
Numerics numericsOf(mlir::Operation *op);
/// The kind of a kernel anchored by an op of class `c`.
KernelKind kernelKindOf(OpClass c);
/// Anchors start a kernel of their own: matmul, conv, attention, windows.
bool isAnchor(OpClass c);
/// The element type a kernel body's arithmetic runs in: the first operand's
/// of its first product (matmul, convolution, attention: float8 operands
/// whose result is cast back to f16 run at the float8 rate; two operands
/// dequantized in the body from narrow types of one kind, int8 or float8,
/// run at the narrow type's rate, the scales applied to the sum as
/// TensorRT's and cuBLASLt's quantized GEMMs do), else
/// `fallback` (the kernel's first result's), which an integer result (a
/// quantized product) also keeps. The lowering times a kernel at that
/// type's peak, and the roofline draws its roof there.
mlir::Type arithmeticType(mlir::Block &body, mlir::Type fallback);

/// A type products read quantized: an integer of 2 to 8 bits, an 8-bit float.
bool isNarrow(mlir::Type t);

/// Checks a weight's `row_pitch` (graph.weight and sched.weight: a window
/// of columns of a wider matrix in the file): whole-byte elements, a static
/// shape, no zstd frame, and rows no closer than a row's bytes.
mlir::LogicalResult verifyRowPitch(mlir::Operation *op, mlir::RankedTensorType type,
                                   std::optional<uint64_t> rowPitch, bool zstd);

/// A product's operand dequantized from a narrow type (ONNX's
/// DequantizeLinear as the importer spells it, cast(x) [- zero point] *
/// scale, then views, transposes or a float cast), each value of the chain
/// read only by the next: `ops` from the cast of the narrow value to the
/// op the product reads, in program order; `narrow` the stored type (an
/// integer of at most 8 bits or an 8-bit float). A scale or zero point
/// that varies along a dim the product contracts (a block of K rows each)
/// cannot leave the sum: such an operand is one only when the other
/// operand is not (a weight-only product, which applies the scales to each
/// weight tile and multiplies in the other operand's float type).
struct DequantizedOperand {
  mlir::Type narrow;
  llvm::SmallVector<mlir::Operation *> ops;
};
/// Operand `index` of matrix op `product` (matmul, gemm: 0 and 1; conv:
/// input and filter) as such a chain, or nullopt. With `shared`, values of
/// the chain may have other readers too (a dequantization several
/// products share, which graph-fuse copies for each).
std::optional<DequantizedOperand> dequantizedOperand(mlir::Operation *product,
                                                     unsigned index,
                                                     bool shared = false);
/// The narrow type `product` multiplies in when both its operands are
/// dequantized from narrow types of one kind (int8 x int8, float8 x
/// float8): the wider of the two. Nullopt otherwise.
std::optional<mlir::Type> quantizedProductType(mlir::Operation *product);

/// The collective a kernel body performs (a `graph.all_reduce` or
/// `graph.all_gather`): whether it gathers, the bytes of its result (what
/// each chip holds afterwards) and the chips of its group.
struct CollectiveOf {
  bool gather = false;
  int64_t bytes = 0, chips = 1;
};
std::optional<CollectiveOf> collectiveOf(mlir::Block &body);
} // namespace dfa::graph

#define GET_OP_CLASSES
#include "dialects/Graph/GraphOps.h.inc"

namespace dfa::graph {

/// How f32 matrix work is computed (`--fp32-matmul`, as torch's
/// set_float32_matmul_precision and XLA's dot algorithms): IEEE f32; TF32
/// (operands rounded to 10 mantissa bits); bf16 (rounded to 7); bf16x3
/// (each operand split into a bf16 high and low part, three bf16 products:
/// hi*lo + lo*hi + hi*hi, about f32 accuracy at three times the bf16 work).
/// Products accumulate in f32 in every mode.
enum class Fp32Matmul { IEEE, TF32, BF16, BF16x3 };
/// The mode called `name` ("ieee", "tf32", "bf16", "bf16x3").
std::optional<Fp32Matmul> fp32MatmulNamed(llvm::StringRef name);
llvm::StringRef name(Fp32Matmul mode);
/// The mode of matrix op `op` (its graph.fp32_matmul; IEEE when absent).
Fp32Matmul fp32MatmulOf(mlir::Operation *op);
/// Gives every matrix op (matmul, gemm, conv, attention) of `root` whose
/// operands are f32 the mode `mode` (IEEE: removes it), but for products
/// of dequantized int8 or float8 operands (`quantizedProductType`), which
/// multiply in the narrow type. Returns the count.
int64_t setFp32Matmul(mlir::Operation *root, Fp32Matmul mode);

/// The rows a grouped_matmul is assumed to multiply: all S, or its share
/// S E / groups_total when it holds a slice of the experts. Which rows go
/// to which group is data; every timing of the op (its FLOPs, its GEMM
/// shape, the bytes of its matrices it reads) takes this one assumption,
/// that rows spread evenly over the experts.
int64_t groupedRows(GroupedMatMulOp op);
/// The groups those rows reach: min(E, groupedRows) (R rows can touch at
/// most R groups).
int64_t activeGroups(GroupedMatMulOp op);
/// The fraction of `v`'s bytes its readers touch: 1 but for the [E, K, N]
/// matrices of a grouped_matmul (directly, or through transposes, views,
/// casts and elementwise ops that keep dim 0: a dequantization of the
/// experts' codes), of which activeGroups / E are read. The elementwise
/// work of such a chain is done for those groups alone too.
double readFraction(mlir::Value v);

/// How a kernel body's value grows a KV cache in place: `cache` is the
/// block argument it grows and `writer` the op that writes the new rows
/// (a graph.concat after the cache; or a graph.scatter_nd or
/// scatter_elements into it, possibly padded at the end with a constant
/// first), which `updates` (null for a concat) holds. Only an
/// end-padding of zeros may come between, used by the writer alone.
struct CacheGrowth {
  mlir::BlockArgument cache;
  mlir::Operation *writer = nullptr;
  mlir::Value updates;
  /// Whether the cache feeds nothing but the growth.
  bool onlyGrowth = false;
};
std::optional<CacheGrowth> cacheGrowth(mlir::Value v);

/// The layout graph-layout gave `v`: a kernel output's entry of `layouts`,
/// a function argument's or an op's `graph.layout`; null when none.
LayoutAttr layoutAttrOf(mlir::Value v);

/// Shape of the numpy broadcast of `a` and `b`, or failure when they do not
/// broadcast.
mlir::FailureOr<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// Output size of a window of `kernel` (dilated) over `in` with the pads and
/// stride; `ceilMode` rounds the last partial window up.
int64_t windowOutputSize(int64_t in, int64_t kernel, int64_t stride,
                         int64_t padBegin, int64_t padEnd, int64_t dilation,
                         bool ceilMode);

/// Checks that every tensor `op` produces has non-negative dims and at most
/// 2^40 elements (1 Ti); emits an error at `op` otherwise.
mlir::LogicalResult verifyTensorSizes(mlir::Operation *op);

/// While alive (on this thread), op builders whose result type inference
/// fails get a placeholder type instead of aborting the process; the error
/// is still emitted and the op fails verification. Importers build inside
/// one, then verify what they built.
class LenientInference {
public:
  LenientInference();
  ~LenientInference();
  LenientInference(const LenientInference &) = delete;
  LenientInference &operator=(const LenientInference &) = delete;
  static bool active();
};

/// A score at or below this is masked out: its softmax weight, e^(s - max),
/// is exactly 0 in every float format for any score a model produces. Covers
/// -inf, finfo.min (-65504 in f16, -3.4e38 in f32) and the common -1e4/-1e9.
constexpr double kMaskedScore = -1e4;

/// Whether `values` is a causal attention mask over its two minor dims (L x
/// L, L >= 2), the same for every leading index: a bool mask keeping exactly
/// j <= i (its complement when `negated`), or a float mask adding 0 where
/// j <= i and a masked score (<= kMaskedScore) elsewhere.
bool isCausalMask(mlir::ElementsAttr values, bool negated = false);

/// softmax(q k^T * scale + mask) over the last dim, causal if asked: the
/// attention probabilities, as graph ops (AttentionOp's decomposition).
mlir::Value buildAttentionProbs(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value q, mlir::Value k, mlir::Value mask,
                                double scale, bool causal);

/// Why a composite (an einsum, a DFT) could not be built: invalid
/// arguments, or ones dfa does not lower (`unsupported`: an einsum of more
/// than two operands, a DFT too long for its constant matrices).
struct BuildError {
  std::string message;
  bool unsupported = false;
};

/// einsum(`equation`, operands) over one or two operands as reductions,
/// transposes, reshapes and a batched matmul; fails with `error` set.
mlir::FailureOr<mlir::Value> buildEinsum(mlir::OpBuilder &b, mlir::Location loc,
                                         llvm::StringRef equation,
                                         mlir::ValueRange operands,
                                         BuildError &error);

/// The discrete Fourier transform of `x` [..., 1 | 2] (real, or real and
/// imaginary parts last) along `axis` (not the last), of `len` points (the
/// axis zero-padded or truncated to it), as products with its constant
/// cosine and sine matrices (GraphDFT.cpp). `inverse` scales by 1 / len;
/// `onesided` keeps len / 2 + 1 bins of a forward transform, or reads
/// them for an inverse whose result is real [..., len, 1]. Fails with
/// `error` set above 4096 points (the matrices would outweigh a model).
mlir::FailureOr<mlir::Value> buildDFT(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                                      int64_t axis, int64_t len, bool inverse, bool onesided,
                                      BuildError &error);

/// The indices of max pooling `pool`'s values ([N, C, out...] i64): each
/// window's first largest element's flat position in its [N, C] plane,
/// row-major (torch's return_indices) or, with `columnMajor`, column-major
/// (ONNX's storage_order 1); with `wholeTensor`, in the whole tensor (ONNX
/// MaxPool's Indices: plane p's positions start at p times its size).
/// A window's elements are gathered, the padding reading -inf
/// (GraphMaxPoolIndices.cpp).
mlir::Value buildMaxPoolIndices(mlir::OpBuilder &b, mlir::Location loc, MaxPoolOp pool,
                                bool columnMajor, bool wholeTensor);

/// x with dim `dim` (of size in) mapped by the constant [in, out] row-major
/// `weights`: out[..., j, ...] = sum_i x[..., i, ...] weights[i * out + j],
/// one product with the dim moved last and back (GraphMixAlongDim.cpp).
/// Adaptive pooling, antialiased resizing and Col2Im are such products.
mlir::Value buildMixAlongDim(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                             int64_t dim, llvm::ArrayRef<float> weights);

/// Col2Im / F.fold: `cols` [N, C * prod(block), L] summed into the image
/// [N, C, image...] (pads: begin..., end...), as one product with a
/// constant 0/1 matrix per spatial dim (GraphCol2Im.cpp); fails with
/// `error` set when the sizes do not fit.
mlir::FailureOr<mlir::Value> buildCol2Im(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::Value cols, llvm::ArrayRef<int64_t> image,
                                         llvm::ArrayRef<int64_t> block,
                                         llvm::ArrayRef<int64_t> dilations,
                                         llvm::ArrayRef<int64_t> strides,
                                         llvm::ArrayRef<int64_t> pads, std::string &error);

/// A deformable convolution (ONNX DeformConv, torchvision's deform_conv2d):
/// x [N, C, S...], w [oC, C/group, k...], offset [N, offset_group * taps *
/// r, O...] (per offset group and tap, the r spatial dims' offsets), an
/// optional mask [N, offset_group * taps, O...] and bias [oC]; built as
/// graph.grid_sample columns and a grouped 1x1 graph.conv
/// (GraphDeformConv.cpp). Fails with `error` set when the shapes do not fit.
mlir::FailureOr<mlir::Value>
buildDeformConv(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value w,
                mlir::Value offset, mlir::Value bias, mlir::Value mask,
                llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> pads,
                llvm::ArrayRef<int64_t> dilations, int64_t group, int64_t offsetGroup,
                std::string &error);

} // namespace dfa::graph

#endif // DIALECTS_GRAPH_GRAPHOPS_H
