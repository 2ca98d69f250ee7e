//===- SchedOps.td - sched dialect: per-target schedules ---*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A per-target schedule: explicit buffers in named memory levels, DMAs that
// copy exact regions, compute ops that run a kernel body (graph ops) on
// their tiles, barriers; dependencies as SSA tokens. Static targets carry
// compile-time start cycles.
//
//===----------------------------------------------------------------------===//

#ifndef DFA_SCHED_OPS_TD
#define DFA_SCHED_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/SymbolInterfaces.td"
include "dialects/Graph/GraphAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Sched_Dialect : Dialect {
  let name = "sched";
  let cppNamespace = "::dfa::sched";
  let summary = "Per-target schedules: buffers, DMAs, compute, tokens";
  let description = [{
    A `sched.program` is what one target's compiler emits for a model: a
    flat list of ops in issue order over explicit buffers. Memory is
    explicit (a buffer lives in a named level at an offset), movement is
    explicit (a DMA copies exactly the region it names), and work is
    explicit (a compute op runs its kernel body, graph ops, on its tiles on
    the units it names). Dependencies are `!sched.token` values, so the
    schedule is itself a dataflow graph.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::dfa::graph::GraphDialect"];
}

class Sched_Type<string name, string typeMnemonic> : TypeDef<Sched_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def Sched_TokenType : Sched_Type<"Token", "token"> {
  let summary = "Completion of a scheduled op";
}

def Sched_BufferType : Sched_Type<"Buffer", "buffer"> {
  let summary = "A tensor stored in one memory level";
  let parameters = (ins StringRefParameter<"memory level">:$memory,
                        "::mlir::RankedTensorType":$tensor);
  let assemblyFormat = "`<` $memory `,` $tensor `>`";
}

def Sched_TargetAttr : AttrDef<Sched_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "The target a program is for, with what its verifier needs";
  let description = [{
    `levels` maps each memory level to its capacity in bytes (per unit for
    per-unit levels); `static_plan` says whether ops carry compile-time
    start cycles (TPU, WSE, LPU, Spyre) or run in stream order (GPU, CPU).
  }];
  let parameters = (ins StringRefParameter<"target name">:$name,
                        "bool":$static_plan, "int64_t":$units,
                        "::mlir::DictionaryAttr":$levels);
  let assemblyFormat = "`<` struct(params) `>`";
}

class Sched_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sched_Dialect, mnemonic, traits>;

def Sched_ProgramOp : Sched_Op<"program", [Symbol, IsolatedFromAbove,
    SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "One target's schedule of a model";
  let description = [{
    The block arguments are the model's inputs, as buffers in the
    outermost memory; weights are `sched.weight` buffers, resident before
    the program starts; `sched.return` names the output buffers. Ops appear
    in issue order. `chips` is the number of chips a multi-chip program
    spans (ops and buffers then name their `chip`); `input_chips`, one
    entry per block argument, the chip each input arrives on (absent:
    chip 0; a KV cache lives on the chip of the layer that reads it);
    `stats` holds what the compiler decided (kernels, fusions, padding,
    relayouts, spills, peak memory per level).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Sched_TargetAttr:$target,
                       OptionalAttr<I64Attr>:$chips,
                       OptionalAttr<DenseI64ArrayAttr>:$input_chips,
                       OptionalAttr<DictionaryAttr>:$stats);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name `target` $target attr-dict-with-keyword $body";
  // The program's checks read its ops' attributes: they run once those ops
  // have verified.
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBlock() { return getBody().front(); }
  }];
}

def Sched_ReturnOp : Sched_Op<"return", [Terminator, HasParent<"ProgramOp">]> {
  let summary = "The program's output buffers";
  let arguments = (ins Variadic<Sched_BufferType>:$outputs);
  let assemblyFormat = "attr-dict ($outputs^ `:` type($outputs))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
}

// Where a buffer lives: both sched.alloc and sched.weight place one, and
// everything that reads a placement (the program verifier, the simulator's
// memories, the cost of a copy) reads it through this interface.
def Sched_PlacedBufferOpInterface : OpInterface<"PlacedBufferOpInterface"> {
  let cppNamespace = "::dfa::sched";
  let description = [{
    A buffer at `offset` of its memory level, `size` bytes (per unit for a
    per-unit level), over units [`unit`, `unit_end`) of a per-unit level
    (`unit` alone: one unit; neither: a chip-wide level), on chip `chip`
    of a multi-chip program, stored in `layout` (a `#graph.layout`, as
    graph-layout chose it; absent: dense row-major).
  }];
  let methods = [
    InterfaceMethod<"Byte offset in the level", "uint64_t", "getOffset">,
    InterfaceMethod<"Bytes placed (per unit)", "uint64_t", "getSize">,
    InterfaceMethod<"First unit, in a per-unit level",
                    "std::optional<uint64_t>", "getUnit">,
    InterfaceMethod<"One past the last unit, when more than one",
                    "std::optional<uint64_t>", "getUnitEnd">,
    InterfaceMethod<"The chip, in a multi-chip program",
                    "std::optional<uint64_t>", "getChip">,
    InterfaceMethod<"The stored layout (null: dense row-major)",
                    "::dfa::graph::LayoutAttr", "getLayoutAttr">,
    InterfaceMethod<"The buffer", "::mlir::TypedValue<::dfa::sched::BufferType>",
                    "getBuffer">,
  ];
}

def Sched_AllocOp : Sched_Op<"alloc", [Sched_PlacedBufferOpInterface]> {
  let summary = "A buffer at an offset of a memory level (of one unit)";
  let description = [{
    `size` bytes at `offset` of the level; for a per-unit level, in unit
    `unit`, or, with `unit_end`, at the same offset of every unit in
    [`unit`, `unit_end`) (an SPMD buffer split over those units, `size` per
    unit). `chip` places it on one chip of a multi-chip program. `init`
    holds the value of a constant buffer, resident before the program
    starts.
  }];
  let arguments = (ins I64Attr:$offset, I64Attr:$size,
                       OptionalAttr<I64Attr>:$unit, OptionalAttr<I64Attr>:$unit_end,
                       OptionalAttr<I64Attr>:$chip,
                       OptionalAttr<Graph_LayoutAttr>:$layout,
                       OptionalAttr<ElementsAttr>:$init);
  let results = (outs Sched_BufferType:$buffer);
  let assemblyFormat = "attr-dict `:` qualified(type($buffer))";
  let hasVerifier = 1;
}

def Sched_WeightOp : Sched_Op<"weight", [Sched_PlacedBufferOpInterface]> {
  let summary = "A buffer holding a weight read from a file, resident at start";
  let description = [{
    Placed like `sched.alloc` (`offset`, `size`, optional `unit`,
    `unit_end`, `chip`); its contents are the bytes of `file` at
    `file_offset` (one zstd frame of `zstd_bytes` when set; rows
    `row_pitch` bytes apart when set), as for `graph.weight`. An empty `file` means the model was compiled without
    weights.
  }];
  let arguments = (ins StrAttr:$sym_name, StrAttr:$file, I64Attr:$file_offset,
                       OptionalAttr<I64Attr>:$zstd_bytes,
                       I64Attr:$offset, I64Attr:$size,
                       OptionalAttr<I64Attr>:$unit, OptionalAttr<I64Attr>:$unit_end,
                       OptionalAttr<I64Attr>:$chip,
                       OptionalAttr<Graph_LayoutAttr>:$layout,
                       OptionalAttr<I64Attr>:$row_pitch);
  let results = (outs Sched_BufferType:$buffer);
  let assemblyFormat = [{
    $sym_name `at` $file `[` $file_offset `]` (`pitch` $row_pitch^)? (`zstd` $zstd_bytes^)? attr-dict `:` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def Sched_DmaOp : Sched_Op<"dma"> {
  let summary = "Copies a region of one buffer into a region of another";
  let description = [{
    The source region starts at `src_offsets` and the destination region at
    `dst_offsets` (elements, one per dim); both have the extent `sizes`.
    Exactly that region moves: a region smaller than the tensor leaves the
    rest of the destination as it was. `engine` is the DMA engine (or link)
    it uses, on chip `chip`; `bytes`, when set, is what the transfer moves
    in the layout of the buffers (whole sticks, tiles or vectors, padding
    included). `kernel` names the kernel whose operand or result it moves
    (for profiles: dfa-roofline charges its bytes and waits there). `rows`,
    when set, streams the copy in that many slices (see `sched.compute`).
  }];
  let arguments = (ins Sched_BufferType:$source, Sched_BufferType:$dest,
                       Variadic<Sched_TokenType>:$deps,
                       DenseI64ArrayAttr:$src_offsets, DenseI64ArrayAttr:$dst_offsets,
                       DenseI64ArrayAttr:$sizes,
                       DefaultValuedAttr<I64Attr, "0">:$engine,
                       OptionalAttr<I64Attr>:$chip, OptionalAttr<I64Attr>:$bytes,
                       OptionalAttr<I64Attr>:$start, OptionalAttr<I64Attr>:$cycles,
                       OptionalAttr<StrAttr>:$kernel, OptionalAttr<I64Attr>:$rows);
  let results = (outs Sched_TokenType:$done);
  let assemblyFormat = [{
    $source `to` $dest (`after` `(` $deps^ `)`)? attr-dict `:` qualified(type($source)) `->` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Sched_ComputeOp : Sched_Op<"compute", [AttrSizedOperandSegments,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "Runs a kernel body on input buffers into output buffers";
  let description = [{
    The body's block arguments are the tensors held by `inputs`; it yields
    one tensor per `outputs` buffer. The op runs on units
    [`unit_begin`, `unit_end`) (SMs, cores, PEs) and, in a static plan,
    starts at cycle `start` for `cycles`. A matrix kernel whose products
    accumulate in a float format narrower than f32 names it in
    `accumulator` (a format of the target: "f16", "bf16", ...).

    `rows`, when set, streams the op: it works through its result in that
    many slices of rows (tokens), in order, each needing only the slices
    of its operands up to it. An op that streams and waits for another
    that streams may start once that one's first slice is done, and ends
    no earlier than one of its own slices after that one ends
    (`target::streamStart`, `target::streamEnd`): a layer pipeline with
    flow control, as on a wafer whose layers are side by side. Values do
    not depend on it.

    `in_place`, pairs (input index, output index), marks outputs that are
    their input grown in place: the output yields a `graph.concat` whose
    first operand is the input (a KV cache and this step's keys or
    values). The output buffer already holds the input's elements (a
    serving runtime allocates the cache once, with room to grow), so the
    op writes only the appended ones and does not read the input for the
    concat (`sched::movedBytes`). Values do not depend on it.

    `out_offsets`, when set, holds for each output (in order) one offset
    per dim of its buffer: the tensor the body yields for it is a region of
    the buffer, of the yielded tensor's shape, written at those offsets;
    the rest of the buffer is left as other ops wrote it. The pieces of a
    concatenation are so assembled where the result lives (each piece's
    kernel writes its columns, on its own chip, into one buffer in the
    host's memory) instead of being gathered. An output written whole has
    zero offsets and yields the buffer's tensor.
  }];
  let arguments = (ins StrAttr:$kernel, Variadic<Sched_BufferType>:$inputs,
                       Variadic<Sched_BufferType>:$outputs,
                       Variadic<Sched_TokenType>:$deps,
                       DefaultValuedAttr<I64Attr, "0">:$unit_begin,
                       DefaultValuedAttr<I64Attr, "1">:$unit_end,
                       OptionalAttr<I64Attr>:$chip,
                       OptionalAttr<I64Attr>:$start, OptionalAttr<I64Attr>:$cycles,
                       OptionalAttr<StrAttr>:$accumulator,
                       OptionalAttr<I64Attr>:$rows,
                       OptionalAttr<DenseI64ArrayAttr>:$in_place,
                       OptionalAttr<DenseI64ArrayAttr>:$out_offsets);
  let results = (outs Sched_TokenType:$done);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kernel (`ins` `(` $inputs^ `:` type($inputs) `)`)? `outs` `(` $outputs `:` type($outputs) `)`
    (`after` `(` $deps^ `)`)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def Sched_YieldOp : Sched_Op<"yield", [Terminator, HasParent<"ComputeOp">]> {
  let summary = "The tensors a kernel body writes to its outputs";
  let arguments = (ins Variadic<AnyRankedTensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
}

def Sched_BarrierOp : Sched_Op<"barrier"> {
  let summary = "Completes when all its dependencies have";
  let arguments = (ins Variadic<Sched_TokenType>:$deps);
  let results = (outs Sched_TokenType:$done);
  let assemblyFormat = "(`after` `(` $deps^ `)`)? attr-dict";
}

#endif // DFA_SCHED_OPS_TD
