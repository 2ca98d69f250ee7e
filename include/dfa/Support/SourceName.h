//===- SourceName.h - the source node an op came from ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Importers name every op's location after its source node (an ONNX node
/// name, an FX node); passes that merge ops fuse the locations. These read
/// the names back.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_SUPPORT_SOURCENAME_H
#define DFA_SUPPORT_SOURCENAME_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"

#include <string>

namespace dfa {

/// The source node a location names: its name, or the first name of a
/// fused location; "" when it has none.
inline std::string sourceName(mlir::Location loc) {
  if (auto fused = mlir::dyn_cast<mlir::FusedLoc>(loc))
    for (mlir::Location l : fused.getLocations())
      if (mlir::isa<mlir::NameLoc>(l)) {
        loc = l;
        break;
      }
  if (auto name = mlir::dyn_cast<mlir::NameLoc>(loc))
    return name.getName().str();
  return "";
}

/// The source node an op came from ("" when its location names none).
inline std::string sourceName(mlir::Operation *op) {
  return sourceName(op->getLoc());
}

} // namespace dfa

#endif // DFA_SUPPORT_SOURCENAME_H
