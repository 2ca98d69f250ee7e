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
  ];
  let statistics = [
    Statistic<"numDecomposed", "decomposed", "Number of ops decomposed">,
  ];
}

#endif // DFA_TRANSFORMS_PASSES_TD
