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
    Applies the `DecomposeOpInterface` of every composite op (softmax,
    log-softmax, layer and batch normalization) unless the op is kept. Each
    decomposition is reported as a remark when `remarks` is set.

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
