//===- GraphTypes.td - graph dialect element types ---------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Element types ONNX has and MLIR 19's builtin types do not: the OCP
// microscaling formats. They are tensor element types only; every op that
// moves bytes takes them, and arithmetic converts through graph.cast.
//
//===----------------------------------------------------------------------===//

#ifndef DFA_GRAPH_TYPES_TD
#define DFA_GRAPH_TYPES_TD

include "dialects/Graph/GraphDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Graph_MinifloatType<string name, string typeMnemonic, int width,
                          string format>
    : TypeDef<Graph_Dialect, name> {
  let mnemonic = typeMnemonic;
  let summary = format;
  let description = !strconcat(
      "One code per byte in the CPU reference, in the low bits; ONNX files ",
      "pack the 4- and 6-bit formats. An element costs ", !cast<string>(width),
      " bits on a target.");
  let extraClassDeclaration = !strconcat(
      "static constexpr unsigned kWidth = ", !cast<string>(width), ";");
}

def Graph_Float4E2M1FNType
    : Graph_MinifloatType<"Float4E2M1FN", "f4E2M1FN", 4,
                          "OCP FP4: 1 sign, 2 exponent, 1 mantissa bits, "
                          "finite only (largest 6)">;
def Graph_Float6E2M3FNType
    : Graph_MinifloatType<"Float6E2M3FN", "f6E2M3FN", 6,
                          "OCP FP6: 1 sign, 2 exponent, 3 mantissa bits, "
                          "finite only (largest 7.5)">;
def Graph_Float6E3M2FNType
    : Graph_MinifloatType<"Float6E3M2FN", "f6E3M2FN", 6,
                          "OCP FP6: 1 sign, 3 exponent, 2 mantissa bits, "
                          "finite only (largest 28)">;
def Graph_Float8E8M0FNUType
    : Graph_MinifloatType<"Float8E8M0FNU", "f8E8M0FNU", 8,
                          "OCP E8M0 scale: a power of two 2^(code-127), "
                          "unsigned, no zero, NaN at 0xFF">;

#endif // DFA_GRAPH_TYPES_TD
