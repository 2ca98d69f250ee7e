//===- GraphDialect.h - graph dialect ---------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_GRAPH_GRAPHDIALECT_H
#define DIALECTS_GRAPH_GRAPHDIALECT_H

#include "dfa/Target/Layout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "dialects/Graph/GraphDialect.h.inc"

#include "dialects/Graph/GraphEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Graph/GraphAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Graph/GraphTypes.h.inc"

namespace dfa::graph {
/// The module attributes of the graph dialect, declared once; the
/// dialect's verifier checks each (GraphDialect::verifyOperationAttribute).
/// The model's file and opset, set by the importers.
inline constexpr llvm::StringLiteral kSourceAttr = "graph.source";
inline constexpr llvm::StringLiteral kOpsetAttr = "graph.opset";
/// What a compiled schedule assumed of its inputs, set by the ONNX
/// importer: each symbolic dim it bound (name, or `input[d]` for an unnamed
/// one) to its size, and each input fixed at compile time to
/// "specialized". A request that breaks one needs another compile.
inline constexpr llvm::StringLiteral kGuardsAttr = "graph.guards";
/// The target a module is compiled for, set by the first target pass.
inline constexpr llvm::StringLiteral kTargetAttr = "graph.target";
/// The `--set KEY=VALUE` overrides of that target's description, as given
/// (an array of strings), so that later stages, `--compile-from` and a
/// saved schedule load the same machine.
inline constexpr llvm::StringLiteral kTargetOverridesAttr =
    "graph.target_overrides";
/// Set by graph-tile when the weights stream from the outer memory.
inline constexpr llvm::StringLiteral kWeightStreamingAttr =
    "graph.weight_streaming";
/// Set by graph-shard's tensor-parallel mode: the module is one chip's
/// program of this many (an integer).
inline constexpr llvm::StringLiteral kTensorParallelAttr =
    "graph.tensor_parallel";
/// graph-fuse's refusals: [{op, kernel, reason}] (sched::CompileStats).
inline constexpr llvm::StringLiteral kFusionsRefusedAttr =
    "graph.fusions_refused";
/// A graph input's or output's name (on function arguments and results).
inline constexpr llvm::StringLiteral kNameAttr = "graph.name";
/// How a matrix op with f32 operands feeds them to the matrix units ("tf32",
/// "bf16" or "bf16x3"; absent: IEEE f32), set by graph-decompose's
/// fp32-matmul option (graph::setFp32Matmul) and read by the CPU reference
/// and the cost model.
inline constexpr llvm::StringLiteral kFp32MatmulAttr = "graph.fp32_matmul";
/// How the target stores a weight, a constant or a function argument (a
/// LayoutAttr, set by graph-layout; a kernel's outputs have `layouts`).
inline constexpr llvm::StringLiteral kLayoutAttr = "graph.layout";
/// On a graph.gather that checks a value at run time (an importer's range
/// check: a gather from a one-element table at 0 where the value lies in
/// [lo, hi), off the table at value - hi + 1 above it and value - lo - 1
/// below): {value = what the user gave, lo, hi, shape = the value's}. The reference reports
/// the value and its bounds from it, not the table's index.
inline constexpr llvm::StringLiteral kRangeCheckAttr = "graph.range_check";

/// A float element type: a builtin FloatType or one of the graph dialect's
/// minifloats (f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E8M0FNU).
bool isFloatElement(mlir::Type t);
} // namespace dfa::graph

#endif // DIALECTS_GRAPH_GRAPHDIALECT_H
