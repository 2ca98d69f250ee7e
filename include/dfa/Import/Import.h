//===- Import.h - what every importer returns -------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_IMPORT_IMPORT_H
#define DFA_IMPORT_IMPORT_H

#include "dfa/Support/Status.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <string>
#include <vector>

namespace dfa {

/// A node the import cannot compile without a value known only at run
/// time: where a compiler with a host fallback splits the graph.
struct GraphBreak {
  std::string node, op;
  std::string reason; // the import's message
  /// Graph inputs that, specialized, resolve it at compile time.
  std::vector<std::string> specialize;
  /// What a run in segments (dfa-run) does there.
  std::string fallback;
};

/// The outcome of an import: the module, or the status that says why not
/// (diagnostics have been emitted through the context).
struct ImportResult {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  Status status = Status::Ok;
  /// Graph inputs whose values the import needed at compile time (shape
  /// operands); `--specialize` on them lets the import go through.
  std::vector<std::string> wantSpecialized;
  /// With ONNXImportOptions::collectBreaks: every graph break, in order,
  /// and how many nodes depend on one (compiled only once its values are
  /// known); the module is then not built.
  std::vector<GraphBreak> breaks;
  int64_t nodesAfterBreaks = 0;
  /// The import failed at a graph break: a node needed a value known only
  /// at run time (a run in segments goes through).
  bool graphBreak = false;
  /// The graph inputs as imported (name and type), known even when the
  /// import failed past them.
  std::vector<std::pair<std::string, mlir::Type>> inputTypes;
};

/// A graph input as the model declares it, read without importing the graph.
struct GraphInputSignature {
  std::string name;
  /// Bytes per element; 0 for a type without a fixed size.
  int64_t elementBytes = 0;
  /// Each dim as written: its size in decimal, its symbolic name (ONNX's
  /// `dim_param`, a torch.export Dim's name; possibly an expression such as
  /// "past + seq"), or "" when it is neither. Empty when the input declares
  /// no shape.
  std::vector<std::string> dims;
  /// A window-sized KV cache (a past input of onnxruntime's
  /// GroupQueryAttention with sliding_window_cache): the attention's
  /// window, the fewest rows its dim `windowAxis` may hold; 0 for any
  /// other input.
  int64_t window = 0;
  size_t windowAxis = 2;
};

/// What `dfa-compile --check` reports: op types used, and those dfa does not
/// support, with their counts and the nodes that use them.
struct OpCoverage {
  int64_t opset = 0;
  int64_t numNodes = 0;
  std::map<std::string, int64_t> supported;
  std::map<std::string, std::vector<std::string>> unsupported;
};

} // namespace dfa

#endif // DFA_IMPORT_IMPORT_H
