//===- Importer.h - ONNX importer internals (private) -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIB_IMPORT_ONNX_IMPORTER_H
#define LIB_IMPORT_ONNX_IMPORTER_H

#include "dfa/Import/ONNX.h"

#include "dialects/Graph/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <functional>

#include <onnx/onnx_pb.h>

namespace dfa::onnximport {

/// A parsed model and where the raw bytes of its initializers sit in the
/// file, so that large ones are referenced rather than copied.
struct LoadedModel {
  std::string path;
  std::string dir;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  onnx::ModelProto model;
  /// Initializer name -> byte offset of its raw_data in the file.
  llvm::StringMap<uint64_t> rawDataOffsets;
};

Status loadModel(llvm::StringRef path, LoadedModel &out, std::string &error);

/// Replaces every call of a model-local function (ModelProto.functions), in
/// the main graph and its subgraphs, by the function's nodes, renamed
/// (ONNXFunctions.cpp). loadModel calls it.
Status inlineFunctions(onnx::ModelProto &model, std::string &error);

/// The element type of an ONNX TensorProto data type, or null.
mlir::Type elementType(int onnxType, mlir::MLIRContext *ctx);

/// TensorProto element types newer than libonnx's protobuf (ONNX 1.14 and
/// later), by number. The FP4, FP6 and E8M0 ones have no MLIR 19 type: they
/// import as the graph dialect's minifloats (!graph.f4E2M1FN, ...).
enum NewerOnnxType : int {
  kFloat8E4M3FN = 17, kFloat8E4M3FNUZ = 18, kFloat8E5M2 = 19,
  kFloat8E5M2FNUZ = 20, kUInt4 = 21, kInt4 = 22, kFloat4E2M1 = 23,
  kFloat8E8M0 = 24, kUInt2 = 25, kInt2 = 26, kFloat6E2M3 = 27, kFloat6E3M2 = 28,
};
/// Name of an ONNX data type ("FLOAT", "STRING", ...).
std::string onnxTypeName(int onnxType);

/// Decodes a TensorProto held in memory (raw or typed fields, or external
/// data relative to `dir`).
Status tensorFromProto(const onnx::TensorProto &proto, llvm::StringRef dir,
                       ref::Tensor &out, std::string &error);

/// Checks an external-data `location` as ONNX's checker does: a path
/// relative to the model's folder that does not climb out of it (no
/// absolute path, no ".."), so a model cannot make dfa read other files.
/// Returns "" or the problem.
std::string checkExternalLocation(llvm::StringRef location);

/// The `location`, `offset` and `length` (-1 when not given) keys of a
/// tensor's external data, as written; checkExternalLocation judges the
/// location.
struct ExternalRef {
  std::string location;
  int64_t offset = 0, length = -1;
};
ExternalRef externalRef(const onnx::TensorProto &proto);

/// The newest opset of the default domain dfa imports: the newest the
/// project's pinned onnx defines (OnnxSignatures.inc).
int64_t newestOpset();
/// The newest opset of the default domain that libonnx (its schemas and
/// shape inference) knows.
int64_t libonnxNewestOpset();
/// The version of default-domain operator `op` that opset `opset` uses (its
/// since_version), or 0 when the opset has no such operator.
int64_t operatorVersion(llvm::StringRef op, int64_t opset);
/// Checks `node` against its operator's signature in `opset` (input and
/// output counts, empty inputs, attribute names, types and required ones):
/// libonnx's schema up to its own newest opset, dfa's table after. Returns
/// what is wrong, or nullopt (also for an operator no ONNX opset defines).
std::optional<std::string> checkSignature(const onnx::NodeProto &node,
                                          int64_t opset);

/// A converter's results, one per node output (null for one not made).
using Results = llvm::SmallVectorImpl<mlir::Value>;
/// The ranked tensor type of a converted value.
inline mlir::RankedTensorType typeOf(mlir::Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType());
}

class NodeContext;
using Converter = mlir::LogicalResult (*)(NodeContext &ctx, Results &);

/// Converters by ONNX op type (default domain).
const llvm::StringMap<Converter> &converters();
/// Converters of onnxruntime's operators (ONNXContribOps.cpp), keyed
/// "com.microsoft.<op>", or by op type for the ops onnxruntime registers in
/// the default domain that no ONNX opset defines.
const llvm::StringMap<Converter> &contribConverters();
/// The converter of `node` (by its domain and op type), or null.
Converter converterFor(const onnx::NodeProto &node);
/// Checks a node of onnxruntime's operators against their schema (the
/// pinned onnxruntime's, ContribSignatures.inc) as checkSignature does.
std::optional<std::string> checkContribSignature(const onnx::NodeProto &node);
/// Adds the data-movement and shape converters to `table`.
void addShapeConverters(llvm::StringMap<Converter> &table);
/// Adds the ops imported as subgraphs (losses, OneHot, ...) to `table`.
void addCompositeConverters(llvm::StringMap<Converter> &table);
/// Adds Einsum (transposes, reshapes and a matmul) to `table`.
void addEinsumConverter(llvm::StringMap<Converter> &table);
/// Adds Attention, RMSNormalization, RotaryEmbedding and Swish (opsets 23+)
/// to `table`.
void addTransformerConverters(llvm::StringMap<Converter> &table);
/// Adds AffineGrid, Col2Im and MaxUnpool (a matmul or a scatter over
/// positions known at compile time) to `table`.
void addImageConverters(llvm::StringMap<Converter> &table);
/// Adds QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
/// QLinearMatMul, MatMulInteger, ConvInteger and QLinearConv (integer
/// types) to `table`.
void addQuantConverters(llvm::StringMap<Converter> &table);
/// Adds RNN, GRU, LSTM and LinearAttention (unrolled over the sequence)
/// and CausalConvWithState to `table`.
void addRecurrentConverters(llvm::StringMap<Converter> &table);
/// Adds DFT and STFT (products with constant cos and sin matrices) to `table`.
void addSignalConverters(llvm::StringMap<Converter> &table);

class NodeContext;
/// [B, S, N*H] -> [B, N, S, H]: a 3-d activation split into `heads` heads.
mlir::Value splitHeads(NodeContext &c, mlir::Value v, int64_t heads);
/// A constant [rows, cols] of `elt`: 0 where keep(i, j), -inf elsewhere
/// (an additive attention mask).
mlir::Value biasOf(NodeContext &c, mlir::Type elt, int64_t rows, int64_t cols,
                   llvm::function_ref<bool(int64_t, int64_t)> keep);
/// Conv's graph.conv of `x` (the node's input 0, whose spatial dims the
/// window attributes are resolved against) by `weight` plus an optional
/// `bias`, with the node's window attributes and group checked; the
/// integer convolutions call it with their centred operands.
mlir::FailureOr<mlir::Value> convolution(NodeContext &c, mlir::Value x,
                                         mlir::Value weight, mlir::Value bias);

/// The state handed to a converter for one node.
class NodeContext {
public:
  NodeContext(const onnx::NodeProto &node, mlir::Location loc,
              mlir::OpBuilder &b, int64_t opset,
              llvm::SmallVector<mlir::Value> inputs, Status &status,
              int64_t foldLimit)
      : node(node), loc(loc), b(b), opset(opset), inputs(std::move(inputs)),
        status(status), foldLimit(foldLimit) {}

  const onnx::NodeProto &node;
  mlir::Location loc;
  mlir::OpBuilder &b;
  int64_t opset;
  llvm::SmallVector<mlir::Value> inputs;

private:
  mutable llvm::StringSet<> readAttrs;

public:

  /// Input `i`, or null when absent.
  mlir::Value in(size_t i) const {
    return i < inputs.size() ? inputs[i] : mlir::Value();
  }
  bool has(size_t i) const { return static_cast<bool>(in(i)); }
  mlir::RankedTensorType type(size_t i) const {
    return mlir::cast<mlir::RankedTensorType>(in(i).getType());
  }
  mlir::MLIRContext *ctx() const { return b.getContext(); }

  /// An attribute of the node, or null. Every attribute a converter asks
  /// for is recorded as read: one it never asks for is one it would ignore,
  /// and the importer refuses the node rather than give a wrong answer.
  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  /// Marks attributes as read that have no effect on the values (a seed of
  /// an op run in inference mode, a hint).
  void ignoreAttrs(std::initializer_list<llvm::StringRef> names) const {
    for (llvm::StringRef n : names)
      readAttrs.insert(n);
  }
  /// The first attribute of the node no converter step read, or null.
  const onnx::AttributeProto *unreadAttr() const;
  int64_t intAttr(llvm::StringRef name, int64_t dflt) const;
  double floatAttr(llvm::StringRef name, double dflt) const;
  std::string strAttr(llvm::StringRef name, llvm::StringRef dflt) const;
  std::optional<std::vector<int64_t>> intsAttr(llvm::StringRef name) const;

  /// The value of input `i` when it is a compile-time constant; otherwise an
  /// error that says how to make it one.
  mlir::FailureOr<ref::Tensor> constInput(size_t i, llvm::StringRef what);
  mlir::FailureOr<std::vector<int64_t>> constInts(size_t i,
                                                  llvm::StringRef what);
  /// Like constInput, also reading a weight (an initializer imported by
  /// reference) from its file: for an op whose weights the import
  /// rewrites (onnxruntime's packed 4-bit MatMulNBits), also seen through
  /// reshapes (the same bytes in another shape). A weight without
  /// data (`--no-weights`) sets `noData` and gives no tensor.
  mlir::FailureOr<ref::Tensor> weightInput(size_t i, llvm::StringRef what,
                                           bool &noData);
  /// A one-element constant input as a double.
  mlir::FailureOr<double> constScalar(size_t i, llvm::StringRef what);
  /// Like constInput/constInts for an optional input: leaves `out` alone
  /// when the input is absent.
  mlir::LogicalResult optionalConst(size_t i, llvm::StringRef what,
                                    std::vector<int64_t> &out);
  mlir::LogicalResult optionalConst(size_t i, llvm::StringRef what,
                                    std::vector<double> &out);

  /// An error naming the node; the import stops with InvalidModel.
  mlir::InFlightDiagnostic error();
  /// An error for a valid model that uses something dfa does not support.
  mlir::InFlightDiagnostic unsupported();

  /// Converts `opType` of the default domain, at this context's opset or
  /// `minOpset` if later, on `inputs` (null for an absent one) with
  /// `attrs`, at this node's location: an op that another is made of
  /// (onnxruntime's SkipLayerNormalization of Add and LayerNormalization)
  /// reuses that op's converter. Its `numOutputs` results go to `results`.
  mlir::LogicalResult delegate(llvm::StringRef opType,
                               llvm::ArrayRef<mlir::Value> inputs,
                               llvm::ArrayRef<onnx::AttributeProto> attrs,
                               int numOutputs, Results &results,
                               int64_t minOpset = 0);

  /// Helpers to build ops at the node's location.
  mlir::Value constant(const ref::Tensor &t);
  /// A constant the host computes from the node's inputs (a sampling
  /// table): in a run in segments, where those inputs are run-time values,
  /// it crosses the host link like the host's other results.
  mlir::Value hostConstant(const ref::Tensor &t);
  llvm::SmallVector<mlir::Operation *, 2> hostConstants;
  mlir::Value scalar(mlir::Type elt, double v);
  mlir::Value reshape(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  /// Elements start, start + step, ... (`count` of them) of `v` along `dim`.
  mlir::Value slice(mlir::Value v, int64_t dim, int64_t start, int64_t count,
                    int64_t step = 1);
  mlir::Value cast(mlir::Value v, mlir::Type elt);
  /// Mean, x - mean and variance of `x` over `axes` (dims kept).
  struct Moments {
    mlir::Value mean, centered, variance;
  };
  Moments moments(mlir::Value x, llvm::ArrayRef<int64_t> axes);
  /// Normalizes an axis in [-rank, rank) to [0, rank), or fails.
  mlir::FailureOr<int64_t> axis(int64_t a, int64_t rank);
  /// Normalizes a list of distinct axes, in order, or fails.
  mlir::FailureOr<std::vector<int64_t>> axes(llvm::ArrayRef<int64_t> raw,
                                             int64_t rank);

  /// Receives the names of graph inputs needed as compile-time constants.
  std::vector<std::string> *wantSpecialized = nullptr;
  /// Set when the converter failed for want of a value known only at run
  /// time (constInput): the node is a graph break.
  bool needsRuntimeValue = false;
  /// A segment of a run in segments: the value of `v` when it is known at
  /// run time (a segment argument), recording that the host reads it; null
  /// otherwise. constInput asks it before giving up.
  std::function<const ref::Tensor *(mlir::Value)> runtimeValue;
  /// Set when constInput read a run-time value.
  bool readRuntime = false;
  /// Adds to `diag` the graph inputs `v` is computed from (with constants
  /// alone), as `--specialize` flags, and records them in wantSpecialized.
  void suggestSpecialize(mlir::Value v, mlir::InFlightDiagnostic &diag);
  /// Imports a subgraph's nodes in place (an If's branch, one step of a
  /// Loop's or Scan's body) with its declared inputs bound to `inputs`,
  /// reading the enclosing graph's values by name; gives its outputs.
  std::function<mlir::LogicalResult(const onnx::GraphProto &,
                                    llvm::ArrayRef<mlir::Value> inputs,
                                    llvm::SmallVectorImpl<mlir::Value> &)>
      importSubgraph;

private:
  Status &status;
  int64_t foldLimit;
};

} // namespace dfa::onnximport

#endif // LIB_IMPORT_ONNX_IMPORTER_H
