//===- Topology.h - SCALE-Sim topology CSVs as models -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Imports a SCALE-Sim v2 topology file (docs/scalesim.md) into a `graph`
/// module, one independent layer per row, as SCALE-Sim runs them:
///
/// - a GEMM topology (header `Layer, M, N, K`): `graph.matmul` of an
///   ifmap [M, K] by a filter [K, N];
/// - a convolution topology (header `Layer name, IFMAP Height, IFMAP Width,
///   Filter Height, Filter Width, Channels, Num Filter, Strides`, one or two
///   strides): `graph.conv` of an ifmap [1, C, H, W] by a filter
///   [F, C, R, S] giving SCALE-Sim's ceil((H - R + S) / S) output rows
///   and columns (the end padded by what a last partial window reads past
///   the ifmap); a layer whose name contains `DP` is depthwise
///   (SCALE-Sim runs one single-channel layer per channel: a conv of C
///   groups).
///
/// Elements are i8 (SCALE-Sim's word is one byte). A topology holds shapes
/// only: the filters are weights without data, so the model compiles,
/// profiles and times, and `dfa-run` evaluates it with `--time-only`.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_IMPORT_TOPOLOGY_H
#define DFA_IMPORT_TOPOLOGY_H

#include "dfa/Import/Import.h"

namespace dfa {

ImportResult importTopology(llvm::StringRef path, mlir::MLIRContext &ctx);

/// The op coverage of a topology (every row it parses is supported).
ImportResult checkTopology(llvm::StringRef path, mlir::MLIRContext &ctx,
                           OpCoverage &coverage);

/// Names of the model's inputs (each layer's `<layer>.ifmap`), in order.
Status topologyInputs(llvm::StringRef path, std::vector<std::string> &names,
                      std::string &error);

} // namespace dfa

#endif // DFA_IMPORT_TOPOLOGY_H
