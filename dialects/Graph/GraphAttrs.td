//===- GraphAttrs.td - graph dialect attributes ------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DFA_GRAPH_ATTRS_TD
#define DFA_GRAPH_ATTRS_TD

include "dialects/Graph/GraphDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Graph_LayoutAttr : AttrDef<Graph_Dialect, "Layout"> {
  let mnemonic = "layout";
  let summary = "How a target stores a tensor: target::Layout's encoding";
  let description = [{
    What a stored layout is apart from the shape it applies to
    (`dfa/Target/Layout.h`): the kind, its granule or tile, and the physical
    order of the dims. `graph-layout` writes one for every value a kernel
    reads or writes (`layouts` on kernels, `graph.layout` on weights,
    constants and function arguments); the graph-to-sched lowering copies it
    onto the buffers it places (`layout` of `sched.alloc` and
    `sched.weight`), and the schedule verifier, the simulator and the
    bisector apply it to the buffer's shape. Nothing derives it again.

    ```mlir
    #graph.layout<row_major>
    #graph.layout<pe_slices>
    #graph.layout<stick 64>                  // Spyre: 64-element sticks
    #graph.layout<vector 320>                // Groq: 320-element vectors
    #graph.layout<tile [8, 128]>             // TPU (8,128) tiles
    #graph.layout<tile [8, 128] pack 2>      // XLA's T(8,128)(2,1): 16-bit, row pairs per 32-bit word
    #graph.layout<tile [2, 128]>             // a second-minor dim of 1-2 (XLA's compact tile)
    #graph.layout<stick 64 perm [0, 2, 3, 1]> // NCHW stored NHWC
    ```
  }];
  let parameters = (ins "::dfa::target::Layout::Kind":$kind,
                        "int64_t":$granule, "int64_t":$rows, "int64_t":$pack,
                        ArrayRefParameter<"int64_t", "physical dim order">:$perm);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The attribute of `encoding`.
    static LayoutAttr get(::mlir::MLIRContext *context,
                          const ::dfa::target::Layout::Encoding &encoding);
    ::dfa::target::Layout::Encoding getEncoding() const;
    /// The layout of a tensor of `shape` with `elemBytes`-byte elements.
    ::dfa::target::Layout apply(::llvm::ArrayRef<int64_t> shape,
                                int64_t elemBytes) const;
    /// The layout of a tensor of `type`.
    ::dfa::target::Layout apply(::mlir::ShapedType type) const;
    /// Why the layout stores no tensor of rank `rank`, or empty.
    std::string invalidFor(int64_t rank) const;
  }];
}

#endif // DFA_GRAPH_ATTRS_TD
