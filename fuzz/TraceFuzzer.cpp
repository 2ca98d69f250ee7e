//===- TraceFuzzer.cpp - libFuzzer harness: profiler traces (Chrome JSON) -===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Fuzzes the reader of `dfa-roofline --measured` traces (seeds: the GPU,
/// kernels-only and CPU traces test/tools/dfa-roofline/Inputs/gpu_trace.py
/// writes). A refused trace must say why; an accepted one must hold at
/// least one op, each timed by a finite, non-negative number of seconds.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "dfa/Roofline/Measured.h"

#include <cmath>

using namespace dfa;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  limits::setMaxMemory(fuzz::kFuzzMaxMemory);
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  roofline::Trace trace;
  std::string error;
  Status s = roofline::readTrace("fuzz.json", text, trace, error);
  if (s != Status::Ok) {
    if (error.empty())
      fuzz::bug("a trace was refused without a reason");
    if (s != Status::InvalidModel && s != Status::LimitExceeded)
      fuzz::bug("a trace was refused with an undocumented status");
    return 0;
  }
  if (trace.ops.empty())
    fuzz::bug("an accepted trace holds no op");
  for (const roofline::TraceOp &op : trace.ops)
    if (!std::isfinite(op.seconds) || op.seconds < 0 || op.kernels < 0)
      fuzz::bug("an op's time is not a finite, non-negative number");
  return 0;
}
