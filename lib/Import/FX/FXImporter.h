//===- FXImporter.h - FX importer internals (private) -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIB_IMPORT_FX_FXIMPORTER_H
#define LIB_IMPORT_FX_FXIMPORTER_H

#include "dfa/Import/FX.h"

#include "dialects/Graph/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <map>

namespace dfa::fximport {

/// A Python value flowing through the FX graph: a tensor (an SSA value),
/// or a number, bool, string, None, list (tuples too) or slice that shape
/// code computes with. A complex tensor (Complex) is its real view: the SSA
/// value has one more dim of 2 (real, imaginary), as torch.view_as_real
/// gives; only the handlers of complexHandlers() take one.
struct PyValue {
  enum Kind { None, Tensor, Int, Float, Bool, Str, List, Slice, Ellipsis, DType, Complex };
  Kind kind = None;
  mlir::Value tensor;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<PyValue> list;

  static PyValue ofTensor(mlir::Value v) {
    PyValue p;
    p.kind = Tensor;
    p.tensor = v;
    return p;
  }
  static PyValue ofComplex(mlir::Value pairs) {
    PyValue p;
    p.kind = Complex;
    p.tensor = pairs;
    return p;
  }
  /// Whether this value, or an element of it (a list), is complex.
  bool hasComplex() const {
    if (kind == Complex)
      return true;
    for (const PyValue &e : list)
      if (e.hasComplex())
        return true;
    return false;
  }
  static PyValue ofInt(int64_t v) {
    PyValue p;
    p.kind = Int;
    p.i = v;
    return p;
  }
  static PyValue ofFloat(double v) {
    PyValue p;
    p.kind = Float;
    p.f = v;
    return p;
  }
  static PyValue ofList(std::vector<PyValue> l) {
    PyValue p;
    p.kind = List;
    p.list = std::move(l);
    return p;
  }
  bool isNumber() const { return kind == Int || kind == Float || kind == Bool; }
  double number() const { return kind == Float ? f : (double)i; }
  std::string describe() const;
};

class FXImporter;

/// What a handler sees of one node.
class FXNode {
public:
  FXNode(FXImporter &imp, mlir::OpBuilder &b, mlir::Location loc,
         std::string name, std::string target, std::vector<PyValue> args,
         std::map<std::string, PyValue> kwargs, const llvm::json::Object *module)
      : imp(imp), b(b), loc(loc), name(std::move(name)),
        target(std::move(target)), args(std::move(args)),
        kwargs(std::move(kwargs)), module(module) {}

  FXImporter &imp;
  mlir::OpBuilder &b;
  mlir::Location loc;
  std::string name, target;
  std::vector<PyValue> args;
  std::map<std::string, PyValue> kwargs;
  /// The module record for call_module nodes.
  const llvm::json::Object *module;

  /// Argument by position or keyword, or null.
  const PyValue *arg(size_t i, llvm::StringRef kw = "") const;
  mlir::FailureOr<mlir::Value> tensor(size_t i, llvm::StringRef kw = "");
  mlir::Value optTensor(size_t i, llvm::StringRef kw = "");
  mlir::FailureOr<int64_t> intArg(size_t i, llvm::StringRef kw, int64_t dflt);
  mlir::FailureOr<double> floatArg(size_t i, llvm::StringRef kw, double dflt);
  /// An int list given as a list, a single int, or varargs from `i` on.
  mlir::FailureOr<std::vector<int64_t>> intList(size_t i, llvm::StringRef kw,
                                                bool varargs);
  /// An int list argument, or `dflt` when it is absent or None.
  mlir::FailureOr<std::vector<int64_t>> optIntList(size_t i, llvm::StringRef kw,
                                                   std::vector<int64_t> dflt);
  /// The element type a dtype argument names, or null when `v` is not one.
  /// Null for no dtype; a dtype dfa does not import (the OCP minifloats)
  /// is reported as unsupported and gives null too.
  mlir::Type dtypeOf(const PyValue *v);
  /// The element type of the `dtype` keyword, or null when there is none.
  mlir::Type dtypeArg(llvm::StringRef kw = "dtype");

  /// Module attributes and parameters (call_module).
  const llvm::json::Value *attr(llvm::StringRef name) const;
  int64_t attrInt(llvm::StringRef name, int64_t dflt) const;
  double attrFloat(llvm::StringRef name, double dflt) const;
  std::vector<int64_t> attrInts(llvm::StringRef name, size_t n) const;
  /// A module attribute as the value a call would pass (None when absent).
  mlir::FailureOr<PyValue> attrValue(llvm::StringRef name);
  /// A parameter or buffer of the module, or null if it has none by that name.
  mlir::Value param(llvm::StringRef name);
  /// A parameter the module must have; an error names it when it has not.
  mlir::Value requiredParam(llvm::StringRef name);

  mlir::InFlightDiagnostic error();
  mlir::InFlightDiagnostic unsupported();

  // Builders at the node's location.
  mlir::RankedTensorType type(mlir::Value v) const {
    return mlir::cast<mlir::RankedTensorType>(v.getType());
  }
  mlir::Value scalar(mlir::Type elt, double v);
  /// A constant of `shape` filled with `v`.
  mlir::Value filled(llvm::ArrayRef<int64_t> shape, mlir::Type elt, double v);
  /// A constant of `shape` filled with the type's lowest (or highest) value:
  /// -inf/+inf for floats, the exact integer bounds (which a double cannot
  /// hold for 64 bits), false/true for bools.
  mlir::Value extreme(llvm::ArrayRef<int64_t> shape, mlir::Type elt, bool lowest);
  /// `v` converted to element type `elt` (itself when it has it).
  mlir::Value cast(mlir::Value v, mlir::Type elt);
  mlir::Value reshape(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  mlir::Value transpose(mlir::Value v, llvm::ArrayRef<int64_t> perm);
  mlir::FailureOr<int64_t> dim(int64_t d, int64_t rank);
  /// A tensor for `v` when it is a number (of the element type of `like`).
  mlir::FailureOr<mlir::Value> asTensor(const PyValue &v, mlir::Value like);
};

using Handler = mlir::LogicalResult (*)(FXNode &n, PyValue &result);

/// Handlers of call_function and call_method nodes by canonical name
/// ("add", "relu", "view", ...), and of call_module nodes by module type.
const llvm::StringMap<Handler> &functionHandlers();
const llvm::StringMap<Handler> &moduleHandlers();
/// Handlers of the nodes that take a complex tensor (FXComplex.cpp): the
/// importer uses these instead of functionHandlers() for such a node.
const llvm::StringMap<Handler> &complexHandlers();
/// torch.view_as_complex, view_as_real, polar and complex, which make or
/// take apart complex tensors from real ones.
void addComplexHandlers(llvm::StringMap<Handler> &table);

void addShapeHandlers(llvm::StringMap<Handler> &table);
void addReductionHandlers(llvm::StringMap<Handler> &table);
/// Core ATen operators (torch.export graphs); after the others, whose
/// handlers the ATen forms of torch functions share.
void addAtenHandlers(llvm::StringMap<Handler> &table);
/// Math, norms, scans, distances and tables that are compositions of graph
/// ops (FXMath.cpp); their module forms (InstanceNorm1d/2d/3d).
void addMathHandlers(llvm::StringMap<Handler> &table);
void addMathModuleHandlers(llvm::StringMap<Handler> &table);
/// clamp(x, min, max) where a bound is a tensor (a maximum and a minimum).
mlir::LogicalResult clampTensor(FXNode &n, PyValue &result);
/// torch's type promotion of two element types: float beats integer beats
/// bool; among floats or among integers the wider wins.
mlir::Type promotedType(mlir::Type a, mlir::Type b);
/// The element type torch gives an op of tensors a and b: promotedType,
/// but a 0-d tensor does not widen a dimensioned one of its category (f16
/// + a 0-d f32 is f16); of a higher category it sets the type.
mlir::Type promotedType(mlir::Value a, mlir::Value b);
mlir::Type promotedType(llvm::ArrayRef<mlir::Value> operands);
/// PT2E's quantize and dequantize operators (`quantized_decomposed`).
void addQuantizedHandlers(llvm::StringMap<Handler> &table);
/// The torch.nn activations: their function and ATen names, or with
/// `modules` their module class names.
void addActivationHandlers(llvm::StringMap<Handler> &table, bool modules);

/// The element type of a torch dtype name ("float32", "bfloat16", ...);
/// null for one dfa does not import (the OCP FP4/FP6/E8M0 minifloats: torch
/// exports them packed or not at all, and the FX converters assume builtin
/// types).
mlir::Type fxElementType(llvm::StringRef dtype, mlir::MLIRContext *ctx);
/// The component dtype of a complex dtype name ("complex64": "float32",
/// "complex128": "float64"); nullopt for any other name.
std::optional<llvm::StringRef> complexComponent(llvm::StringRef dtype);

/// The canonical name of a call_function or call_method target.
std::string canonicalTarget(llvm::StringRef op, llvm::StringRef target);

/// Stores a lowering's tensor into `result`; fails when the lowering did.
inline mlir::LogicalResult setTensor(PyValue &result,
                                     mlir::FailureOr<mlir::Value> v) {
  if (mlir::failed(v))
    return mlir::failure();
  result = PyValue::ofTensor(*v);
  return mlir::success();
}

/// x[..., start:end:step, ...] along `dim` (Python's bounds, clamped).
mlir::Value sliceDim(FXNode &n, mlir::Value x, int64_t dim, int64_t start, int64_t end,
                     int64_t step);
/// x reversed along each of `dims` (a slice with step -1).
mlir::Value flipped(FXNode &n, mlir::Value x, llvm::ArrayRef<int64_t> dims);
/// A non-empty list of tensors: argument `i` as a list, or with `varargs`
/// the arguments from i on (torch.meshgrid(a, b)).
mlir::FailureOr<llvm::SmallVector<mlir::Value>> tensorList(FXNode &n, size_t i,
                                                           llvm::StringRef kw,
                                                           bool varargs = false);
/// Shared lowerings that module and functional forms both use.
mlir::FailureOr<mlir::Value> flattenDims(FXNode &n, mlir::Value x,
                                         int64_t start, int64_t end);
mlir::FailureOr<mlir::Value> linear(FXNode &n, mlir::Value x, mlir::Value w,
                                    mlir::Value bias);
mlir::FailureOr<mlir::Value> conv(FXNode &n, mlir::Value x, mlir::Value w,
                                  mlir::Value bias,
                                  std::vector<int64_t> stride,
                                  std::vector<int64_t> padding,
                                  std::vector<int64_t> dilation, int64_t groups);
/// torch's transposed convolution (weight [C_in, C_out / groups, k...]):
/// the output grows by output_padding at the end of each spatial dim.
mlir::FailureOr<mlir::Value> convTranspose(FXNode &n, mlir::Value x, mlir::Value w,
                                           mlir::Value bias, std::vector<int64_t> stride,
                                           std::vector<int64_t> padding,
                                           std::vector<int64_t> outputPadding,
                                           std::vector<int64_t> dilation, int64_t groups);
/// Inference batch norm over dim 1; absent weight/bias mean 1/0.
mlir::FailureOr<mlir::Value> batchNorm(FXNode &n, mlir::Value x,
                                       mlir::Value weight, mlir::Value bias,
                                       mlir::Value mean, mlir::Value var,
                                       double eps);
mlir::FailureOr<mlir::Value> layerNorm(FXNode &n, mlir::Value x,
                                       llvm::ArrayRef<int64_t> shape,
                                       mlir::Value w, mlir::Value b, double eps);
mlir::FailureOr<mlir::Value> softmax(FXNode &n, mlir::Value x, int64_t dim,
                                     bool log);
/// torch's max or average pooling over the last `spatial` (1 to 3) dims
/// of x, batched ([N, C, ...]) or not; one int (or none) in a window
/// argument stands for every spatial dim, an empty stride for the kernel.
mlir::FailureOr<mlir::Value> pool(FXNode &n, mlir::Value x, bool isMax, int64_t spatial,
                                  std::vector<int64_t> kernel, std::vector<int64_t> stride,
                                  std::vector<int64_t> padding, std::vector<int64_t> dilation,
                                  bool ceil, bool countIncludePad);
/// (values, indices) of a max pooling whose values `values` are (a
/// graph.max_pool, or its reshape for an unbatched input): the indices in
/// each [N, C] plane, as torch's return_indices gives them.
mlir::LogicalResult withPoolIndices(FXNode &n, mlir::Value values, PyValue &result);
/// The dims a reduction's `dim` argument names: an int or a list; absent,
/// None or an empty list mean every dim (torch's rule).
mlir::FailureOr<llvm::SmallVector<int64_t>> reduceDims(FXNode &n, mlir::Value x,
                                                       const PyValue *dim);
/// torch's adaptive average pooling over the last `spatial` (1 to 3) dims
/// of x, batched or not, to `out` (one size for all, or one per dim; -1
/// keeps the input's): a pooling when every dim divides (2-d), else per
/// dim a product with a constant averaging matrix.
mlir::FailureOr<mlir::Value> adaptiveAvgPool(FXNode &n, mlir::Value x,
                                             std::vector<int64_t> out, int64_t spatial);
/// `safe`: a row whose scores are all masked attends to nothing (0), as
/// torch's scaled_dot_product_attention returns it since torch 2.5 (its
/// safe softmax). `scale`: the scores' factor, 1/sqrt(head dim) when NaN.
mlir::FailureOr<mlir::Value> attention(FXNode &n, mlir::Value q, mlir::Value k,
                                       mlir::Value v, mlir::Value mask,
                                       bool causal, mlir::Value *probs,
                                       bool safe = false,
                                       double scale = std::nan(""));

/// A convolution with torch's padding: ints, or `how` 'same' / 'valid',
/// in padding_mode `mode` (zeros, reflect, replicate, circular); an
/// asymmetric or non-zero padding is a pad before the convolution.
mlir::FailureOr<mlir::Value> convPadded(FXNode &n, mlir::Value x, mlir::Value w,
                                        mlir::Value bias, std::vector<int64_t> stride,
                                        std::optional<std::string> how,
                                        std::vector<int64_t> padding,
                                        std::vector<int64_t> dilation, int64_t groups,
                                        llvm::StringRef mode);

/// The batch's own statistics of [N, C, ...] `x` (training-mode batch
/// norm): the mean and the biased variance of each channel, [C] each.
std::pair<mlir::Value, mlir::Value> batchStatistics(FXNode &n, mlir::Value x);

/// F.unfold / nn.Unfold (im2col): [N, C, H, W] (or unbatched) to the
/// columns [N, C k_h k_w, L]; one int stands for both spatial dims.
mlir::FailureOr<mlir::Value> unfoldTensor(FXNode &n, mlir::Value x,
                                          std::vector<int64_t> kernel,
                                          std::vector<int64_t> dilation,
                                          std::vector<int64_t> padding,
                                          std::vector<int64_t> stride);
/// F.pixel_shuffle (`shuffle`) / pixel_unshuffle of x by `factor`.
mlir::FailureOr<mlir::Value> pixelShuffleTensor(FXNode &n, mlir::Value x, int64_t factor,
                                                bool shuffle);
/// F.fold / nn.Fold (col2im): the columns [N, C k_h k_w, L] (or unbatched)
/// summed into images of `size`; one int stands for both spatial dims.
mlir::FailureOr<mlir::Value> foldTensor(FXNode &n, mlir::Value x, std::vector<int64_t> size,
                                        std::vector<int64_t> kernel,
                                        std::vector<int64_t> dilation,
                                        std::vector<int64_t> padding,
                                        std::vector<int64_t> stride);

/// `x` padded by torch's `pad` (pairs from the last dim backwards) in torch's
/// `mode` (constant, reflect, replicate, circular).
mlir::FailureOr<mlir::Value> padTensor(FXNode &n, mlir::Value x,
                                       llvm::ArrayRef<int64_t> pad, llvm::StringRef mode,
                                       double value);
/// F.interpolate on a 2-d NCHW tensor (nearest or bilinear).
mlir::LogicalResult interpolateTensor(FXNode &n, mlir::Value x, const PyValue *size,
                                      const PyValue *scale, llvm::StringRef mode, bool align,
                                      bool recompute, bool antialias, PyValue &r);

/// Advanced indexing: `perDim[d]` indexes dim d with an integer tensor, or
/// is null for the whole dim. The index tensors broadcast together; their
/// dims replace the indexed ones where those are adjacent, else they come
/// first (numpy's rule).
mlir::FailureOr<mlir::Value> advancedIndex(FXNode &n, mlir::Value x,
                                           llvm::ArrayRef<mlir::Value> perDim);

/// The importer: values by node name, weights by tensor name.
class FXImporter {
public:
  FXImporter(llvm::StringRef path, mlir::MLIRContext &ctx,
             const FXImportOptions &options)
      : path(path.str()), ctx(ctx), opts(options), b(&ctx) {}

  ImportResult run();
  mlir::LogicalResult coverage(OpCoverage &cov);
  mlir::LogicalResult load(std::string &error, Status &status);
  const llvm::json::Array *nodes() const;

  /// A graph.weight (cached) for the tensor `name` of the weights table
  /// (a complex tensor's real view).
  mlir::Value weight(llvm::StringRef name, mlir::Location loc);
  /// Whether the weights table records tensor `name` as complex.
  bool isComplexWeight(llvm::StringRef name) const;
  /// A JSON argument (or module attribute) as the Python value it records.
  mlir::FailureOr<PyValue> decode(const llvm::json::Value &v);
  Status status = Status::Ok;
  /// Whether torch recorded `v`'s storage as other than row-major from
  /// offset 0 (a strided view), which as_strided cannot read.
  bool isStrided(mlir::Value v) const { return strided.contains(v); }

private:
  mlir::LogicalResult importNode(const llvm::json::Object &node);

  std::string path, weightsFile;
  bool zstd = false;
  mlir::MLIRContext &ctx;
  const FXImportOptions &opts;
  mlir::OpBuilder b;
  llvm::json::Value doc = nullptr;
  std::map<std::string, PyValue> values;
  llvm::StringMap<mlir::Value> weights;
  mlir::Operation *lastWeight = nullptr;
  bool sawOutput = false;
  mlir::func::FuncOp func;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<mlir::Type> resultTypes;
  llvm::DenseSet<mlir::Value> strided;
};

} // namespace dfa::fximport

#endif // LIB_IMPORT_FX_FXIMPORTER_H
