//===- Graph.h - the source graph, annotated and drawn ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// dfa-roofline --graph: the model's source graph (ONNX or FX nodes, grouped
/// by module path), each node annotated with its FLOPs, its bytes at each
/// memory level and its arithmetic intensity from a roofline report, and
/// coloured by the bound of the kernel that holds it; fused kernels are
/// clusters around their nodes and the critical path is drawn bold. With
/// two reports the graph is drawn twice, side by side, and the nodes whose
/// bound differs between the two targets are marked (the partition shift).
/// Graphviz's layout library lays it out in process.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_ROOFLINE_GRAPH_H
#define DFA_ROOFLINE_GRAPH_H

#include "dfa/Roofline/Roofline.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace dfa::roofline {

/// One source node: an ONNX or FX node (every graph op carrying its name),
/// a graph input or a graph output.
struct SourceNode {
  std::string name;
  std::string op;    // the graph op that does most of its work ("matmul")
  std::string group; // its module path ("" at the top): "/attn/qkv", "layer1.0"
  enum Kind { Node, Input, Output } kind = Node;
};

/// The source graph: nodes in program order, edges (producer, consumer)
/// in program order, each once.
struct SourceGraph {
  std::vector<SourceNode> nodes;
  std::vector<std::pair<size_t, size_t>> edges;
};

/// The source graph of an imported module's `main` function (graph
/// dialect): ops are folded into nodes by their source names; a value used
/// by another node is an edge. Weights and constants are not drawn.
SourceGraph sourceGraph(mlir::ModuleOp module);

/// The module path of a source node: FX records it in the location
/// (`node(module.path)`); an ONNX name that is a path ("/attn/qkv/MatMul")
/// gives its directory.
std::string sourceGroup(mlir::Location loc, llvm::StringRef name);

struct GraphOptions {
  /// Above this many nodes per target, the largest module groups are
  /// collapsed into one node each until the drawing fits.
  size_t maxNodes = 150;
  /// Module groups to keep expanded (and their parents).
  std::vector<std::string> expand;
};

/// Graphviz DOT for the graph, drawn once per report (the first two at
/// most; one cluster each, side by side); `drawn` gets the boxes drawn a
/// target (after folding).
std::string graphDot(const SourceGraph &g, llvm::ArrayRef<Report> reports,
                     llvm::StringRef title, const GraphOptions &options,
                     size_t *drawn = nullptr);

/// Every module group of the graph (and their parents), sorted.
std::vector<std::string> moduleGroups(const SourceGraph &g);

/// Graphviz lays out at most this many boxes a target: a graph with no
/// groups left to fold past it is written as DOT only.
constexpr size_t kMaxDrawnNodes = 2000;

/// Lays `dot` out with Graphviz's dot engine (libgvc) and renders SVG.
/// Returns false, with `error`, when Graphviz refuses it.
bool renderSvg(llvm::StringRef dot, std::string &svg, std::string &error);

} // namespace dfa::roofline

#endif // DFA_ROOFLINE_GRAPH_H
