//===- ONNX.h - ONNX model importer -----------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Imports an ONNX model (opsets 7 to 17) into a `graph` module. This is the
/// only library that links protobuf and libonnx.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_IMPORT_ONNX_H
#define DFA_IMPORT_ONNX_H

#include "dfa/Import/Import.h"
#include "dfa/Reference/Tensor.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace dfa {

/// A run in segments (the host fallback behind dfa-run): what is known at
/// run time when the next segment is imported.
struct RuntimeValues {
  /// Values by name: the graph inputs' and what earlier segments made.
  std::map<std::string, ref::Tensor> values;
  /// Main-graph nodes already run, by index in the model.
  std::set<size_t> done;
  /// Empty: a device segment, every node not done that can be imported
  /// without a value computed in the segment itself; the values above are
  /// its arguments, read as constants where a node needs one (a shape
  /// operand, a condition: the host reads them). Else a host segment: only
  /// these nodes, every value they use a constant, for the CPU reference.
  std::set<size_t> host;
};

/// What one segment of a run in segments covers.
struct SegmentInfo {
  /// Main-graph nodes imported, by index in the model, with their names
  /// and op types.
  std::vector<size_t> nodes;
  std::vector<std::string> nodeNames, nodeOps;
  /// Run-time values the import read as constants, with the node that read
  /// each (the host must have them: a device value crosses the host link).
  struct Read {
    std::string value, node;
  };
  std::vector<Read> reads;
  /// Values the host computed from run-time values while importing (the
  /// outputs of NonZero, Unique, NonMaxSuppression on device values): the
  /// segment takes them as arguments.
  struct Made {
    std::string value, node, op;
    ref::Tensor tensor;
    /// A data-dependent dim (NonZero's count, NonMaxSuppression's kept
    /// boxes, Unique's distinct values) bounded with `--max-dim`: which dim,
    /// its bound and its size in this run (-1, 0, 0: none).
    int64_t dim = -1, bound = 0, count = 0;
  };
  std::vector<Made> made;
  /// The segment function's argument and result names, in order.
  std::vector<std::string> args, results;
  /// Values that are another run-time value under a new name (a Reshape to
  /// the same shape, an Identity): name and the value it is.
  std::vector<std::pair<std::string, std::string>> aliases;
  /// Values later segments read that are compile-time constants (folded,
  /// or small initializers): known without running anything.
  std::vector<std::pair<std::string, ref::Tensor>> constants;
  /// The graph breaks met: nodes left for a later segment, and the
  /// main-graph nodes (by index) that broke or hold a subgraph that did.
  std::vector<GraphBreak> breaks;
  std::vector<size_t> breakNodes;
  /// Main-graph nodes neither run before nor imported now.
  size_t left = 0;
  /// The graph's output names, in order.
  std::vector<std::string> outputs;
};

struct ONNXImportOptions {
  /// Static shapes for graph inputs, overriding the model's (`--shape`).
  std::map<std::string, std::vector<int64_t>> shapes;
  /// Sizes of symbolic dims by name (`--dim`): an input dim whose
  /// `dim_param` is a bound name, or a sum of products of names and
  /// integers ("past_sequence_length + sequence_length"), takes its value.
  std::map<std::string, int64_t> dims;
  /// Shapes of the values given for graph inputs (dfa-run's `--inputs`): a
  /// dynamic input dim that neither `shapes` nor `dims` sizes takes its
  /// size from them, and a symbolic name so sized holds for every input
  /// that carries it.
  std::map<std::string, std::vector<int64_t>> valueShapes;
  /// Graph inputs whose values are fixed at compile time (`--specialize`):
  /// they become constants, and shape computations on them fold.
  std::map<std::string, ref::Tensor> specialized;
  /// Import shapes only: weights carry no file (`--no-weights`).
  bool noWeights = false;
  /// Initializers of at most this many bytes are held inline as constants;
  /// larger ones become `graph.weight` references into the file.
  int64_t inlineLimitBytes = 1024;
  /// Nodes whose inputs are all constants are evaluated at import when their
  /// results have at most this many elements.
  int64_t foldLimitElements = 1 << 16;
  /// Past a node that needs a value known only at run time (a graph break),
  /// go on: record it, skip what depends on it, and report them all in
  /// ImportResult::breaks instead of a module (`dfa-compile --check`).
  bool collectBreaks = false;
  /// Bounds of data-dependent dims (`--max-dim NAME=N`), by the name of a
  /// NonZero, NonMaxSuppression or Unique node or of one of its outputs:
  /// in a run in segments, the count must not exceed it (else exit 7).
  std::map<std::string, int64_t> maxDims;
  /// A device segment: pad each bounded value the host made to its bound
  /// along its data-dependent dim (zeros: valid indices), as a compiler
  /// with bounded dynamic shapes (XLA) keeps it; the segment is then
  /// compiled for those shapes, once for any count up to the bound.
  bool padBounded = false;
  /// A segment of a run in segments (implies collectBreaks for a device
  /// segment); importONNX then fills `segment`.
  const RuntimeValues *runtime = nullptr;
  SegmentInfo *segment = nullptr;
};

ImportResult importONNX(llvm::StringRef path, mlir::MLIRContext &ctx,
                        const ONNXImportOptions &options);

/// Reads the model's nodes without importing them.
ImportResult checkONNX(llvm::StringRef path, mlir::MLIRContext &ctx,
                       OpCoverage &coverage);

/// Names of the graph inputs a caller must feed (initializers excluded), in
/// order.
Status onnxGraphInputs(llvm::StringRef path, std::vector<std::string> &names,
                       std::string &error);

/// The signatures of the graph inputs a caller must feed, in order.
Status onnxInputSignatures(llvm::StringRef path,
                           std::vector<GraphInputSignature> &inputs,
                           std::string &error);

/// The ONNX op types dfa imports.
std::vector<std::string> supportedONNXOps();

/// Reads an ONNX TensorProto file (`input_0.pb`). Sets `name` to the
/// tensor's name when it has one.
Status readTensorProtoFile(llvm::StringRef path, ref::Tensor &tensor,
                           std::string &name, std::string &error);

} // namespace dfa

#endif // DFA_IMPORT_ONNX_H
