//===- SchedRunFuzzer.cpp - libFuzzer harness: dfa-run on .sched.mlir -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Fuzzes dfa-run's saved-schedule path (seeds: the schedules dfa-compile
/// writes for the test models on every target; scripts/fuzz.sh sched-run):
/// the text is parsed and verified, the program's target looked up, seeded
/// inputs made and the schedule simulated with values, exactly as
/// `dfa-run FILE.sched.mlir --seed 1` does. Any documented exit code is a
/// good outcome; an internal error is a bug.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "dfa/Driver/Tools.h"
#include "dfa/Support/Status.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dfa::driver::RunOptions opts;
  opts.model.model = dfa::fuzz::writeInput(data, size, ".sched.mlir");
  opts.seed = 1;
  int code = dfa::driver::runMain(opts);
  if (code == dfa::exitCode(dfa::Status::Internal))
    dfa::fuzz::bug("dfa-run: internal error");
  return 0;
}
