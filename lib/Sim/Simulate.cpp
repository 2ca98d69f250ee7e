//===- Simulate.cpp - values and time of a schedule, and its trace --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Machine.h"
#include "Timing.h"

#include "dfa/Support/Limits.h"

#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::sim;

Status dfa::sim::simulate(sched::ProgramOp program, const target::Target &t,
                          ArrayRef<ref::Tensor> inputs, const Options &options,
                          Result &result) {
  if (Status s = timeProgram(program, t, options, result); s != Status::Ok)
    return s;
  if (!options.values)
    return Status::Ok;
  Executor ex(t, options.arithmetic);
  FailureOr<double> need = ex.hostBytes(program);
  if (failed(need))
    return Status::RuntimeError;
  if (!limits::fits(*need)) {
    program.emitError() << "simulating the values needs about "
                        << limits::formatSize(*need)
                        << " of host memory for the target's memories, "
                        << limits::overBudget()
                        << "; --time-only needs none";
    return Status::LimitExceeded;
  }
  SmallVector<ref::Tensor> outputs;
  if (failed(ex.run(program, inputs, outputs)))
    return Status::RuntimeError;
  result.outputs.assign(outputs.begin(), outputs.end());
  return Status::Ok;
}

void dfa::sim::writeTrace(const Result &r, const target::Target &t,
                          llvm::raw_ostream &os) {
  // One process per chip, one thread per resource, in order of appearance.
  std::map<std::pair<int64_t, std::string>, int> tids;
  for (const OpRecord &op : r.ops)
    tids.try_emplace({op.chip, op.resource}, int(tids.size()) + 1);
  llvm::json::OStream j(os);
  j.object([&] {
    j.attribute("displayTimeUnit", "ns");
    j.attributeArray("traceEvents", [&] {
      std::set<int64_t> chips;
      for (auto &entry : tids) {
        const auto &key = entry.first;
        int tid = entry.second;
        if (chips.insert(key.first).second)
          j.object([&] {
            j.attribute("ph", "M");
            j.attribute("name", "process_name");
            j.attribute("pid", key.first);
            j.attributeObject("args", [&] {
              j.attribute("name", t.name + " chip " + std::to_string(key.first));
            });
          });
        j.object([&] {
          j.attribute("ph", "M");
          j.attribute("name", "thread_name");
          j.attribute("pid", key.first);
          j.attribute("tid", tid);
          j.attributeObject("args", [&] { j.attribute("name", key.second); });
        });
      }
      std::vector<bool> critical(r.ops.size());
      for (const PathStep &s : r.criticalPath)
        if (s.op >= 0)
          critical[s.op] = true;
      for (auto [i, op] : llvm::enumerate(r.ops))
        j.object([&] {
          j.attribute("ph", "X");
          j.attribute("name", op.name);
          j.attribute("cat", op.kind);
          j.attribute("pid", op.chip);
          j.attribute("tid", tids[{op.chip, op.resource}]);
          j.attribute("ts", op.start * 1e6);
          j.attribute("dur", (op.end - op.start) * 1e6);
          j.attributeObject("args", [&] {
            j.attribute("source", op.source);
            if (op.bytes)
              j.attribute("bytes", op.bytes);
            if (op.plannedStart >= 0)
              j.attribute("planned_start_us", op.plannedStart * 1e6);
            j.attribute("slack_us", op.slack * 1e6);
            if (op.cause >= 0 || op.wait != Wait::None)
              j.attribute("waited_for", name(op.wait));
            if (critical[i])
              j.attribute("critical", true);
          });
        });
      // The critical path as flow arrows from each op on it to the next,
      // at the middle of each one's step: the steps tile the run, so the
      // arrows go forward in time, and a step lies inside its op's slice.
      int flow = 0;
      const PathStep *prev = nullptr;
      for (const PathStep &s : r.criticalPath) {
        if (s.op < 0)
          continue;
        if (prev && prev->op != s.op)
          for (const PathStep *at : {prev, &s})
            j.object([&] {
              const OpRecord &op = r.ops[at->op];
              j.attribute("ph", at == prev ? "s" : "f");
              if (at != prev)
                j.attribute("bp", "e");
              j.attribute("name", "critical path");
              j.attribute("cat", "critical");
              j.attribute("id", flow);
              j.attribute("pid", op.chip);
              j.attribute("tid", tids[{op.chip, op.resource}]);
              j.attribute("ts", 0.5 * (at->start + at->end) * 1e6);
            });
        if (prev && prev->op != s.op)
          ++flow;
        prev = &s;
      }
    });
  });
  os << "\n";
}
