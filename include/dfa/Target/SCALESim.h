//===- SCALESim.h - a SCALE-Sim config as a target ---------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// SCALE-Sim v2's `.cfg` files describe one systolic array, its three
/// SRAMs and its interface bandwidth. `--target path/x.cfg` reads one as a
/// target: this translates it into the dfa.target/1 description that
/// parseTarget then checks like any other (docs/scalesim.md has the
/// mapping, key by key).
///
//===----------------------------------------------------------------------===//

#ifndef DFA_TARGET_SCALESIM_H
#define DFA_TARGET_SCALESIM_H

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace dfa::target {

/// The dfa.target/1 description of the SCALE-Sim config `text` read from
/// `file` (the target is named after the file's stem), or nullopt with
/// `error` naming the file, line or key.
std::optional<llvm::json::Value> scalesimDescription(llvm::StringRef file,
                                                     llvm::StringRef text,
                                                     std::string &error);

} // namespace dfa::target

#endif // DFA_TARGET_SCALESIM_H
