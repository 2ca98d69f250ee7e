//===- ModelFlags.h - model flags to import options (private) ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DRIVER_MODELFLAGS_H
#define LIB_DRIVER_MODELFLAGS_H

#include "dfa/Driver/Driver.h"
#include "dfa/Driver/Tools.h"

namespace dfa::driver {

/// Fills `out` from --shape and --specialize. `--specialize NAME=FILE` reads
/// the value from FILE; a bare `NAME` takes it from `inputs` (by input name).
Status buildImportOptions(const ModelFlags &flags,
                          const std::map<std::string, ref::Tensor> &inputs,
                          const std::vector<std::string> &extraSpecialize,
                          ONNXImportOptions &out, DiagnosticPrinter &printer);

/// Fills `out` from --max-dim NAME=N.
Status parseMaxDims(const ModelFlags &flags, std::map<std::string, int64_t> &out,
                    DiagnosticPrinter &printer);

} // namespace dfa::driver

#endif // LIB_DRIVER_MODELFLAGS_H
