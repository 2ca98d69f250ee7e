//===- GraphDialect.td - graph dialect definition ----------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_GRAPH_DIALECT_TD
#define DFA_GRAPH_DIALECT_TD

include "mlir/IR/OpBase.td"

def Graph_Dialect : Dialect {
  let name = "graph";
  let cppNamespace = "::dfa::graph";
  let summary = "Tensor-level dataflow graph imported from ONNX or PyTorch FX";
  let description = [{
    The `graph` dialect holds a whole model as a dataflow graph of ranked,
    statically shaped tensors. There is one op per semantic operation
    (elementwise unary and binary ops with numpy broadcasting, matmul and
    gemm, convolution and pooling, reductions, normalizations, data
    movement). Every op's location names the source node it came from.

    Weights are never required to compile: `graph.weight` refers to bytes in
    a file by offset, and `graph.constant` holds small values inline.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // The module attributes stages hand each other (GraphDialect.h), checked.
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
}

#endif // DFA_GRAPH_DIALECT_TD
