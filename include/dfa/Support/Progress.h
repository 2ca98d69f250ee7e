//===- Progress.h - progress lines on a terminal -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// A long step (importing a large model, compiling for several targets,
/// simulating, an LLM sweep) shows one line on stderr, rewritten in place:
///
///   dfa-compile: compiling tpu-v4 [3/9] 4.1 s
///
/// only when stderr is a terminal, only once the step has run 2 s, at most
/// ten times a second, and never with --quiet. Pipes, files and CI get
/// nothing. DFA_PROGRESS=always shows every update at once on any stderr
/// (for tests),
/// DFA_PROGRESS=never never. Every other message on stderr erases the line
/// first (clear()), so it never garbles an error.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_SUPPORT_PROGRESS_H
#define DFA_SUPPORT_PROGRESS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace dfa::progress {

/// Decides, once per process, whether lines are shown for `tool`.
void init(llvm::StringRef tool, bool quiet);

/// Whether lines are on (init decided so).
bool enabled();

/// Erases the line, if one is shown.
void clear();

/// One step: `what` with `done` of `total` (0: unknown). Nested tasks
/// show the innermost; the outer resumes when it ends.
class Task {
public:
  /// `sampleEvery`: look at the clock every that many updates (1 for a
  /// loop over heavy items; more for a hot loop such as an event queue).
  Task(llvm::StringRef what, int64_t total = 0, uint64_t sampleEvery = 1);
  ~Task();
  Task(const Task &) = delete;
  Task &operator=(const Task &) = delete;

  /// Moves to `done` (of the total), naming the item now in work.
  void set(int64_t done, llvm::StringRef item = {}) {
    if (!on)
      return;
    this->done = done;
    if (!item.empty() || !this->item.empty())
      this->item = item.str();
    if ((++calls & sampleMask) == 0 || !item.empty())
      maybeShow();
  }
  /// One more done.
  void advance(llvm::StringRef item = {}) { set(done + 1, item); }
  /// Also show the rate since the task began and the time left at it
  /// (`[37/1000] 3.2 s, 11.5/s, ETA 84 s`): for a total of like items, of
  /// which `from` were done before it began (a resumed run).
  void showRate(int64_t from = 0) {
    rate = true;
    base = from;
  }

private:
  void maybeShow();
  bool on, rate = false;
  std::string what, item;
  int64_t total, done = 0, base = 0;
  uint64_t calls = 0;
  /// Looks at the clock every sampleMask + 1 calls (a power of two less
  /// one; 0 under DFA_PROGRESS=always).
  uint64_t sampleMask;
  double start;
  Task *outer;
};

} // namespace dfa::progress

#endif // DFA_SUPPORT_PROGRESS_H
