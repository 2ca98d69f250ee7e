//===- GraphInterfaces.td - graph op interfaces ------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_GRAPH_INTERFACES_TD
#define DFA_GRAPH_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Graph_CostOpInterface : OpInterface<"CostOpInterface"> {
  let cppNamespace = "::dfa::graph";
  let description = [{
    The arithmetic work of an op and the bytes it touches. FLOPs count one
    multiply-add as two operations. Bytes are the sizes of the tensors read
    and written once each (the compulsory traffic); the roofline and the
    simulator add the traffic a tiling introduces.
  }];
  let methods = [
    InterfaceMethod<"Floating-point (or integer) operations the op performs.",
      "int64_t", "getFlops", (ins), [{}], [{
        return ::dfa::graph::defaultFlops($_op);
      }]>,
    InterfaceMethod<"Bytes read from operand `index`.",
      "int64_t", "getBytesRead", (ins "unsigned":$index), [{}], [{
        return ::dfa::graph::tensorBytes($_op->getOperand(index).getType());
      }]>,
    InterfaceMethod<"Bytes written to result `index`.",
      "int64_t", "getBytesWritten", (ins "unsigned":$index), [{}], [{
        return ::dfa::graph::tensorBytes($_op->getResult(index).getType());
      }]>,
  ];
}

def Graph_ReferenceOpInterface : OpInterface<"ReferenceOpInterface"> {
  let cppNamespace = "::dfa::graph";
  let description = [{
    Evaluation of the op on the CPU reference. The dialect only declares the
    interface; `lib/Reference` attaches an implementation to every op as an
    external model, so the IR layer does not depend on the interpreter.
  }];
  let methods = [
    InterfaceMethod<[{
        Computes the op's results from the operand values held by `state`
        and stores them back into `state`.
      }], "::mlir::LogicalResult", "evaluate",
      (ins "::dfa::ref::Evaluator &":$state)>,
  ];
}

def Graph_DecomposeOpInterface : OpInterface<"DecomposeOpInterface"> {
  let cppNamespace = "::dfa::graph";
  let description = [{
    Rewrites a composite op (softmax, a normalization, gemm, an activation
    with a closed form) into simpler `graph` primitives. Returns failure when
    the op has no decomposition for its attributes.
  }];
  let methods = [
    InterfaceMethod<"Replaces the op by primitives using `rewriter`.",
      "::mlir::LogicalResult", "decompose",
      (ins "::mlir::RewriterBase &":$rewriter)>,
  ];
}

#endif // DFA_GRAPH_INTERFACES_TD
