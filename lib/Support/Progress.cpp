//===- Progress.cpp - progress lines on a terminal --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Support/Progress.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace dfa;

namespace {

struct State {
  bool on = false;
  double delay = 2.0, interval = 0.1;
  bool everyUpdate = false;
  std::string tool;
  bool shown = false;
  double lastShown = -1;
  progress::Task *current = nullptr;
  /// The task whose line is shown.
  const progress::Task *owner = nullptr;
};

State &state() {
  static State s;
  return s;
}

double now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

} // namespace

void progress::init(llvm::StringRef tool, bool quiet) {
  State &s = state();
  s.tool = tool.str();
  const char *env = std::getenv("DFA_PROGRESS");
  llvm::StringRef mode = env ? env : "";
  if (mode == "always") {
    s.on = !quiet;
    s.delay = s.interval = 0;
    s.everyUpdate = true;
  } else if (mode == "never") {
    s.on = false;
  } else {
    s.on = !quiet && llvm::sys::Process::StandardErrIsDisplayed();
  }
}

bool progress::enabled() { return state().on; }

void progress::clear() {
  State &s = state();
  if (!s.shown)
    return;
  llvm::errs() << "\r\033[K";
  llvm::errs().flush();
  s.shown = false;
  s.owner = nullptr;
}

progress::Task::Task(llvm::StringRef what, int64_t total, uint64_t sampleEvery)
    : on(state().on), what(what.str()), total(total),
      sampleMask(state().everyUpdate || sampleEvery <= 1
                     ? 0
                     : llvm::PowerOf2Ceil(sampleEvery) - 1),
      start(now()), outer(state().current) {
  if (on)
    state().current = this;
}

progress::Task::~Task() {
  if (!on)
    return;
  State &s = state();
  s.current = outer;
  // An inner task that never showed leaves the outer's line alone.
  if (s.owner == this)
    clear();
}

void progress::Task::maybeShow() {
  State &s = state();
  if (s.current != this)
    return;
  double t = now();
  if (t - start < s.delay || (s.shown && t - s.lastShown < s.interval))
    return;
  char buf[64];
  std::snprintf(buf, sizeof buf, " %.1f s", t - start);
  std::string line = s.tool + ": " + what;
  if (!item.empty())
    line += " " + item;
  if (total > 0)
    line += " [" + std::to_string(done) + "/" + std::to_string(total) + "]";
  else if (done > 0)
    line += " [" + std::to_string(done) + "]";
  line += buf;
  if (rate && total > 0 && done > base && t > start) {
    double perSecond = double(done - base) / (t - start);
    std::snprintf(buf, sizeof buf, ", %.1f/s, ETA %.0f s", perSecond,
                  double(total - done) / perSecond);
    line += buf;
  }
  llvm::errs() << "\r\033[K" << line;
  llvm::errs().flush();
  s.shown = true;
  s.owner = this;
  s.lastShown = t;
}
