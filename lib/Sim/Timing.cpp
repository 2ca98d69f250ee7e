//===- Timing.cpp - discrete-event simulation of a schedule ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Timing.h"

#include "dialects/Sched/CompileStats.h"

#include "dfa/Support/Progress.h"
#include "dfa/Target/Cost.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"

#include <chrono>
#include <queue>

using namespace mlir;
using namespace dfa;
using namespace dfa::sim;

namespace {

enum class Kind : uint8_t { Compute, Dma, Barrier };

struct Task {
  Operation *op = nullptr;
  Kind kind = Kind::Barrier;
  int64_t chip = 0, ub = 0, ue = 0; // compute units
  int64_t engine = 0;               // DMA engine
  int path = -1;                    // bandwidth resource of a DMA
  double fixed = 0;                 // compute time, or DMA setup + latency
  double bytes = 0;                 // DMA bytes
  double planned = -1;              // planned start (s); -1: none
  llvm::SmallVector<int32_t, 4> deps, users;
  int32_t waiting = 0;              // deps not done
  double start = -1, end = -1, remaining = 0;
  // Streaming (sched `rows`): the op works through `rows` slices; its
  // streamed deps count as ready at their first slice, and it ends no
  // earlier than one slice after each of them ends (target::streamStart,
  // streamEnd).
  int64_t rows = 0;
  double seconds = 0;                     // its own time, uncontended
  llvm::SmallVector<int32_t, 2> streamUsers; // users that stream from it
  llvm::SmallVector<int32_t, 2> streamDeps;
  int32_t tailWait = 0;                   // streamed deps not ended
  double tailFloor = 0;                   // the earliest it may end
  bool bodyDone = false;
  // The critical path: what it waited for last before it started (a task;
  // -1: nothing) and how; the ops that held its units or engine at its
  // last failed start; the streamed dep whose end set its tail floor.
  int32_t cause = -1;
  Wait wait = Wait::None;
  double readyAt = 0, firstSlice = -1, bodyEnd = -1;
  llvm::SmallVector<int32_t, 2> blockers;
  int32_t tailCause = -1;
  double slack = 0;
  int64_t order = -1; // when it started, among all tasks (its causes before)
};

/// A bandwidth shared by the DMAs on it.
struct Path {
  std::string name;
  double bandwidth = 1;
  std::vector<int32_t> active;
  double updated = 0;
  uint64_t version = 0;
};

struct Event {
  double time;
  uint64_t seq;
  enum : uint8_t { Ready, ComputeDone, FlowStart, PathCheck, Watchdog,
                   FirstSlice, TailDone } type;
  int32_t id;       // task, or path for PathCheck
  uint64_t version; // PathCheck: the path's version when scheduled
  bool operator>(const Event &o) const {
    return time != o.time ? time > o.time : seq > o.seq;
  }
};

/// Ranges of at most this many units are broken down per unit.
constexpr int64_t kListedUnits = 1024;

std::string unitRange(const target::Target &t, int64_t ub, int64_t ue) {
  return t.unitName + " " + std::to_string(ub) +
         (ue - ub > 1 ? "-" + std::to_string(ue - 1) : "");
}

std::string shortNumber(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

std::string sourceOf(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->getLoc().print(os);
  return s;
}

class Simulator {
public:
  Simulator(sched::ProgramOp program, const target::Target &t,
            const Options &o, Result &r)
      : program(program), t(t), opts(o), r(r) {
    cycle = 1.0 / std::max(t.clockHz.value, 1.0);
    cycleExact = t.caps.cycleExact;
  }

  Status run() {
    if (Status s = build(); s != Status::Ok)
      return s;
    auto start = std::chrono::steady_clock::now();
    Status s = cycleExact ? runCycleExact() : runEvents();
    r.eventLoopSeconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
    if (s != Status::Ok)
      return s;
    if (Status d = checkFinished(); d != Status::Ok)
      return d;
    record();
    return Status::Ok;
  }

private:
  //===------------------------------------------------------------------===//
  // Tasks from the program
  //===------------------------------------------------------------------===//

  const target::MemoryLevel *levelOf(Value buffer) {
    return t.level(cast<sched::BufferType>(buffer.getType()).getMemory());
  }
  /// The bandwidth resource a DMA's bytes share, and its fixed time (DMA
  /// setup and latency): the path the scheduler costs it on
  /// (target::transferPath). Copies on one link, one chip's fabric, or one
  /// memory level of a chip (of one unit range, for a per-unit level) share
  /// its bandwidth.
  int pathOf(sched::DmaOp d, double &fixedSeconds) {
    sched::BufferSite from = sched::siteOf(d.getSource()),
                      to = sched::siteOf(d.getDest());
    const target::MemoryLevel *src = levelOf(d.getSource());
    const target::MemoryLevel *dst = levelOf(d.getDest());
    int64_t chip = d.getChip() ? int64_t(*d.getChip()) : 0;
    // build() checked that both memories are the target's.
    target::TransferPath p = target::transferPath(
        t, *src, from.units(), *dst, to.units(), from.chip != to.chip);
    fixedSeconds = target::transferSeconds(t, p, 0);
    std::string key;
    switch (p.kind) {
    case target::TransferPath::Link:
      key = "link " + std::to_string(from.chip) + "->" + std::to_string(to.chip);
      break;
    case target::TransferPath::Fabric:
      key = "fabric (chip " + std::to_string(chip) + ")";
      break;
    case target::TransferPath::Host: // not a path inside one schedule
      key = "host link";
      break;
    case target::TransferPath::Memory: {
      key = p.level->name + " (chip " + std::to_string(chip) + ")";
      // Of a per-unit level, the units of the side that bounds the copy.
      const sched::BufferSite &s = p.sourceBound ? from : to;
      if (p.level->scope == "unit")
        key += " " + unitRange(t, s.unitBegin, s.unitEnd);
      break;
    }
    }
    auto [it, inserted] = pathIndex.try_emplace(key, int(paths.size()));
    if (inserted) {
      paths.push_back({key, std::max(p.bandwidth, 1.0), {}, 0, 0});
    }
    return it->second;
  }

  Status build() {
    llvm::DenseMap<Value, int32_t> producer;
    for (Operation &op : program.getBlock()) {
      Task task;
      task.op = &op;
      ValueRange deps;
      if (auto c = dyn_cast<sched::ComputeOp>(op)) {
        task.kind = Kind::Compute;
        task.chip = c.getChip() ? int64_t(*c.getChip()) : 0;
        task.ub = c.getUnitBegin();
        task.ue = c.getUnitEnd();
        task.fixed = c.getCycles() ? double(*c.getCycles()) * cycle : 0;
        if (c.getStart())
          task.planned = double(*c.getStart()) * cycle;
        task.rows = c.getRows() ? int64_t(*c.getRows()) : 0;
        task.seconds = task.fixed;
        deps = c.getDeps();
      } else if (auto d = dyn_cast<sched::DmaOp>(op)) {
        task.kind = Kind::Dma;
        task.chip = d.getChip() ? int64_t(*d.getChip()) : 0;
        task.engine = d.getEngine();
        if (!levelOf(d.getSource()) || !levelOf(d.getDest())) {
          d.emitOpError() << "copies between memories " << t.name
                          << " does not have";
          return Status::InvalidModel;
        }
        task.path = pathOf(d, task.fixed);
        task.bytes = d.getBytes() ? double(*d.getBytes()) : 0;
        if (d.getStart())
          task.planned = double(*d.getStart()) * cycle;
        task.rows = d.getRows() ? int64_t(*d.getRows()) : 0;
        task.seconds = task.fixed + task.bytes / paths[task.path].bandwidth;
        deps = d.getDeps();
      } else if (auto b = dyn_cast<sched::BarrierOp>(op)) {
        deps = b.getDeps();
      } else {
        continue;
      }
      int32_t id = tasks.size();
      for (Value dep : deps) {
        auto it = producer.find(dep);
        if (it == producer.end()) {
          op.emitOpError("waits for a token no op produces");
          return Status::InvalidModel;
        }
        task.deps.push_back(it->second);
      }
      producer[op.getResult(0)] = id;
      tasks.push_back(std::move(task));
    }
    for (auto [id, task] : llvm::enumerate(tasks)) {
      task.waiting = task.deps.size();
      for (int32_t d : task.deps) {
        if (task.rows > 1 && tasks[d].rows > 1 &&
            sched::feeds(tasks[d].op, task.op)) {
          tasks[d].streamUsers.push_back(id);
          task.streamDeps.push_back(d);
        } else {
          tasks[d].users.push_back(id);
        }
      }
      task.tailWait = task.streamDeps.size();
    }
    return Status::Ok;
  }

  //===------------------------------------------------------------------===//
  // Event-driven: dynamic and static-order targets
  //===------------------------------------------------------------------===//

  void push(double time, decltype(Event::Ready) type, int32_t id,
            uint64_t version = 0) {
    events.push({time, seq++, type, id, version});
  }

  /// Whether the running compute task `other` holds some of `task`'s units.
  bool overlaps(const Task &task, int32_t other) const {
    return tasks[other].chip == task.chip && tasks[other].ub < task.ue &&
           task.ub < tasks[other].ue;
  }

  /// Whether the task's units (compute) or engine (DMA) are free; if not,
  /// the tasks that hold them become its blockers.
  bool resourcesFree(Task &task) {
    llvm::SmallVector<int32_t, 2> holders;
    if (task.kind == Kind::Compute) {
      for (int32_t other : running)
        if (overlaps(task, other))
          holders.push_back(other);
    } else if (task.kind == Kind::Dma) {
      auto it = busyEngines.find({task.chip, task.engine});
      if (it != busyEngines.end())
        holders.push_back(it->second);
    }
    if (holders.empty())
      return true; // the blockers of its last failed attempt stay
    task.blockers = std::move(holders);
    return false;
  }

  /// A task starts `now`: if it was ready before, it waited for its units
  /// or engine, and the holder that let go last is its cause.
  void noteStart(Task &task, double now) {
    if (now > task.readyAt && !task.blockers.empty()) {
      int32_t last = task.blockers.front();
      for (int32_t b : task.blockers)
        if (tasks[b].end >= tasks[last].end)
          last = b;
      task.cause = last;
      task.wait = task.kind == Kind::Compute ? Wait::Units : Wait::Engine;
    }
    task.blockers.clear();
  }

  /// Starts what can start now, in plan order.
  void dispatch(double now) {
    for (auto it = ready.begin(); it != ready.end();) {
      Task &task = tasks[it->second];
      if (!resourcesFree(task)) {
        ++it;
        continue;
      }
      int32_t id = it->second;
      it = ready.erase(it);
      noteStart(task, now);
      task.order = started++;
      task.start = now;
      if (!task.streamUsers.empty())
        push(target::streamStart(now, task.seconds, task.rows), Event::FirstSlice, id);
      if (task.kind != Kind::Barrier)
        push(now + opts.watchdogSeconds, Event::Watchdog, id);
      if (task.kind == Kind::Compute) {
        running.push_back(id);
        push(now + task.fixed, Event::ComputeDone, id);
      } else if (task.kind == Kind::Dma) {
        busyEngines[{task.chip, task.engine}] = id;
        task.remaining = task.bytes;
        push(now + task.fixed, Event::FlowStart, id);
      } else {
        finish(id, now);
      }
    }
  }

  /// The op's own work is done: it ends now, or once its streamed deps
  /// have ended and one more slice of its own has passed.
  void bodyDone(int32_t id, double now) {
    Task &task = tasks[id];
    if (!task.bodyDone)
      task.bodyEnd = now; // not again when its last streamed dep ends
    task.bodyDone = true;
    // A streamed copy holds its engine while its own bytes move, not while
    // it waits for its producer's last rows: other copies go in between.
    if (task.kind == Kind::Dma) {
      auto it = busyEngines.find({task.chip, task.engine});
      if (it != busyEngines.end() && it->second == id)
        busyEngines.erase(it);
    }
    if (task.tailWait > 0)
      return;
    if (task.tailFloor > now)
      push(task.tailFloor, Event::TailDone, id);
    else
      finish(id, now);
  }

  void finish(int32_t id, double now) {
    Task &task = tasks[id];
    task.end = now;
    if (task.kind == Kind::Compute)
      llvm::erase(running, id);
    else if (task.kind == Kind::Dma) {
      auto it = busyEngines.find({task.chip, task.engine});
      if (it != busyEngines.end() && it->second == id)
        busyEngines.erase(it);
    }
    for (int32_t u : task.users)
      if (--tasks[u].waiting == 0)
        makeReady(u, id, Wait::Data, now);
    for (int32_t u : task.streamUsers) {
      Task &user = tasks[u];
      double floor = target::streamEnd(now, user.seconds, user.rows);
      if (floor >= user.tailFloor) {
        user.tailFloor = floor;
        user.tailCause = id;
      }
      if (--user.tailWait == 0 && user.bodyDone)
        bodyDone(u, now);
    }
  }

  /// `id`'s last wait is over: `cause` finished (or streamed its first
  /// slice) at `now`.
  void makeReady(int32_t id, int32_t cause, Wait how, double now) {
    tasks[id].cause = cause;
    tasks[id].wait = how;
    push(now, Event::Ready, id);
  }

  /// Advances a path's transfers to `now` at their shared rate.
  void advance(Path &p, double now) {
    if (!p.active.empty()) {
      double moved = (now - p.updated) * p.bandwidth / double(p.active.size());
      for (int32_t id : p.active)
        tasks[id].remaining = std::max(0.0, tasks[id].remaining - moved);
    }
    p.updated = now;
  }

  /// Schedules the path's next completion at the current share.
  void reschedule(int pi, double now) {
    Path &p = paths[pi];
    ++p.version;
    if (p.active.empty())
      return;
    double least = INFINITY;
    for (int32_t id : p.active)
      least = std::min(least, tasks[id].remaining);
    double rate = p.bandwidth / double(p.active.size());
    push(now + least / rate, Event::PathCheck, pi, p.version);
  }

  Status runEvents() {
    for (auto [id, task] : llvm::enumerate(tasks))
      if (task.waiting == 0)
        push(0, Event::Ready, id);
    progress::Task task("simulating time", 0, /*sampleEvery=*/1024);
    while (!events.empty()) {
      Event e = events.top();
      events.pop();
      ++r.events;
      task.set(r.events);
      double now = e.time;
      switch (e.type) {
      case Event::Ready: {
        Task &task = tasks[e.id];
        task.readyAt = now;
        double key = task.planned >= 0 ? task.planned : double(e.id);
        ready.insert({{key, e.id}, e.id});
        break;
      }
      case Event::ComputeDone:
        bodyDone(e.id, now);
        break;
      case Event::FirstSlice:
        tasks[e.id].firstSlice = now;
        for (int32_t u : tasks[e.id].streamUsers)
          if (--tasks[u].waiting == 0)
            makeReady(u, e.id, Wait::Stream, now);
        break;
      case Event::TailDone:
        finish(e.id, now);
        break;
      case Event::FlowStart: {
        Task &task = tasks[e.id];
        Path &p = paths[task.path];
        advance(p, now);
        p.active.push_back(e.id);
        reschedule(task.path, now);
        break;
      }
      case Event::Watchdog: {
        const Task &task = tasks[e.id];
        if (task.end >= 0)
          break;
        task.op->emitError("watchdog: ")
            << (task.kind == Kind::Dma ? "DMA" : "op") << " started at "
            << shortNumber(task.start) << " s is still running after "
            << shortNumber(opts.watchdogSeconds) << " s";
        return Status::Deadlock;
      }
      case Event::PathCheck: {
        Path &p = paths[e.id];
        if (e.version != p.version)
          break;
        advance(p, now);
        // Done: what has nothing left, up to rounding (a picosecond's worth
        // of bytes at the current share).
        double slack = 1e-12 * p.bandwidth / double(p.active.size());
        SmallVector<int32_t> done;
        for (int32_t id : p.active)
          if (tasks[id].remaining <=
              std::max(slack, 1e-9 * std::max(1.0, tasks[id].bytes)))
            done.push_back(id);
        for (int32_t id : done) {
          llvm::erase(p.active, id);
          bodyDone(id, now);
        }
        reschedule(e.id, now);
        break;
      }
      }
      dispatch(now);
    }
    return Status::Ok;
  }

  //===------------------------------------------------------------------===//
  // Cycle-exact: every op at its planned cycle
  //===------------------------------------------------------------------===//

  std::string nameOf(const Task &task) const {
    if (auto c = dyn_cast<sched::ComputeOp>(task.op))
      return "'" + c.getKernel().str() + "'";
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "the " << task.op->getName() << " at " << task.op->getLoc();
    return s;
  }

  Status runCycleExact() {
    std::vector<int32_t> order(tasks.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
      return tasks[a].planned < tasks[b].planned;
    });
    for (int32_t id : order) {
      Task &task = tasks[id];
      double start = std::max(task.planned, 0.0);
      for (int32_t d : task.deps) {
        const Task &dep = tasks[d];
        if (dep.end < 0 || dep.end > start + 0.5 * cycle) {
          task.op->emitError("scheduling conflict: ")
              << nameOf(task) << " starts at cycle "
              << int64_t(start / cycle + 0.5) << " but reads what "
              << nameOf(dep) << " finishes writing at cycle "
              << int64_t(std::max(dep.end, 0.0) / cycle + 0.5);
          return Status::ScheduleConflict;
        }
      }
      if (task.kind == Kind::Compute)
        for (int32_t o : running) {
          const Task &other = tasks[o];
          if (other.chip == task.chip && other.ub < task.ue &&
              task.ub < other.ue && other.end > start + 0.5 * cycle) {
            task.op->emitError("scheduling conflict: ")
                << nameOf(task) << " and " << nameOf(other) << " both use "
                << unitRange(t, std::max(task.ub, other.ub),
                             std::min(task.ue, other.ue))
                << " at cycle " << int64_t(start / cycle + 0.5);
            return Status::ScheduleConflict;
          }
        }
      // What it waited for last: the latest of its deps and of the ops that
      // held its units; the plan when that ended before its cycle.
      for (int32_t d : task.deps)
        if (task.cause < 0 || tasks[d].end >= tasks[task.cause].end) {
          task.cause = d;
          task.wait = Wait::Data;
        }
      if (task.kind == Kind::Compute)
        for (int32_t o : running)
          if (overlaps(task, o) &&
              (task.cause < 0 || tasks[o].end >= tasks[task.cause].end)) {
            task.cause = o;
            task.wait = Wait::Units;
          }
      if (start > (task.cause < 0 ? 0.0 : tasks[task.cause].end) + 0.5 * cycle)
        task.wait = Wait::Plan;
      task.start = start;
      task.order = started++;
      double dur = task.fixed;
      if (task.kind == Kind::Dma)
        dur += task.bytes / paths[task.path].bandwidth;
      task.end = start + dur;
      task.bodyEnd = task.end;
      ++r.events;
      if (task.kind == Kind::Compute) {
        llvm::erase_if(running, [&](int32_t o) { return tasks[o].end <= start; });
        running.push_back(id);
      }
    }
    return Status::Ok;
  }

  //===------------------------------------------------------------------===//
  // Results
  //===------------------------------------------------------------------===//

  /// Every task ran; else the chain of waits that never completes.
  Status checkFinished() {
    for (const Task &task : tasks) {
      if (task.end >= 0)
        continue;
      std::string chain = nameOf(task);
      const Task *at = &task;
      for (int hops = 0; hops < 16; ++hops) {
        auto next = llvm::find_if(at->deps, [&](int32_t d) { return tasks[d].end < 0; });
        if (next == at->deps.end())
          break;
        at = &tasks[*next];
        chain += " waits for " + nameOf(*at);
      }
      task.op->emitError("deadlock: ")
          << chain << (at->start >= 0 ? ", which never completes"
                                      : ", which can never start");
      return Status::Deadlock;
    }
    return Status::Ok;
  }

  void record();

  sched::ProgramOp program;
  const target::Target &t;
  const Options &opts;
  Result &r;
  double cycle = 1e-9;
  bool cycleExact = false;

  std::vector<Task> tasks;
  std::vector<Path> paths;
  std::map<std::string, int> pathIndex;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events;
  uint64_t seq = 0;
  std::map<std::pair<double, int32_t>, int32_t> ready;
  std::vector<int32_t> running;
  int64_t started = 0;
  /// The copy that holds each (chip, engine).
  std::map<std::pair<int64_t, int64_t>, int32_t> busyEngines;

  void criticalPath(const std::vector<int32_t> &record);
  void slacks(double makespan);
};

void Simulator::record() {
  double total = 0;
  for (const Task &task : tasks)
    total = std::max(total, task.end);
  r.seconds = total;
  slacks(total);
  // Tasks to records (barriers have none).
  std::vector<int32_t> recordOf(tasks.size(), -1);
  {
    int32_t n = 0;
    for (size_t i = 0; i < tasks.size(); ++i)
      if (tasks[i].kind != Kind::Barrier)
        recordOf[i] = n++;
  }
  double planned = 0;
  std::map<std::string, double> busy;
  for (const Task &task : tasks) {
    if (task.kind == Kind::Barrier)
      continue;
    OpRecord rec;
    rec.op = task.op;
    rec.chip = task.chip;
    rec.start = task.start;
    rec.end = task.end;
    rec.plannedStart = task.planned;
    rec.source = sourceOf(task.op);
    rec.slack = task.slack;
    // Through barriers to the op behind them.
    const Task *at = &task;
    rec.wait = task.wait;
    while (at->cause >= 0 && tasks[at->cause].kind == Kind::Barrier)
      at = &tasks[at->cause];
    rec.cause = at->cause >= 0 ? recordOf[at->cause] : -1;
    if (auto c = dyn_cast<sched::ComputeOp>(task.op)) {
      rec.name = c.getKernel().str();
      auto kind = c->getAttrOfType<StringAttr>("kind");
      rec.kind = kind ? kind.str() : "compute";
      rec.resource = unitRange(t, task.ub, task.ue);
      if (c.getCycles() && task.planned >= 0)
        planned = std::max(planned, task.planned + task.fixed);
    } else {
      auto d = cast<sched::DmaOp>(task.op);
      rec.name = "dma";
      rec.kind = "dma";
      rec.bytes = int64_t(task.bytes);
      if (std::optional<StringRef> k = d.getKernel())
        rec.kernel = k->str();
      rec.resource = "dma engine " + std::to_string(task.engine);
      if (d.getCycles() && task.planned >= 0)
        planned = std::max(planned, task.planned + double(*d.getCycles()) * cycle);
    }
    // Utilization per unit where units are few enough to list (cores, SMs,
    // the LPU's functional units), per unit range on a wafer of PEs; per
    // DMA engine.
    std::string chipName =
        t.chipToChip || task.chip ? "chip " + std::to_string(task.chip) + " " : "";
    // A copy holds its engine until its own bytes have moved (bodyDone).
    double d = (task.kind == Kind::Dma && task.bodyEnd >= 0 ? task.bodyEnd
                                                             : task.end) -
               task.start;
    if (task.kind == Kind::Compute && task.ue - task.ub <= kListedUnits)
      for (int64_t u = task.ub; u < task.ue; ++u)
        busy[chipName + unitRange(t, u, u + 1)] += d;
    else
      busy[chipName + rec.resource] += d;
    r.ops.push_back(std::move(rec));
  }
  // The plan's own end where the compiler recorded it: it counts the tails
  // of streamed ops (a kernel ends a slice after its producer), which their
  // planned starts and own times do not.
  if (DictionaryAttr stats = program.getStatsAttr())
    if (std::optional<int64_t> cycles = sched::CompileStats::fromAttr(stats).cycles)
      planned = std::max(planned, double(*cycles) * cycle);
  r.plannedSeconds = planned;
  criticalPath(recordOf);
  for (auto &[name, seconds] : busy)
    r.utilization.push_back({name, seconds});

  // Memory: a buffer is live from the first op that touches it to the end
  // of the last; weights and constants for the whole program.
  llvm::DenseMap<Value, std::pair<double, double>> live;
  for (const Task &task : tasks)
    for (Value v : task.op->getOperands())
      if (isa<sched::BufferType>(v.getType())) {
        auto [it, inserted] = live.try_emplace(v, task.start, task.end);
        it->second.first = std::min(it->second.first, task.start);
        it->second.second = std::max(it->second.second, task.end);
      }
  std::map<std::string, std::vector<std::pair<double, int64_t>>> deltas;
  for (Operation &op : program.getBlock()) {
    Value buf;
    int64_t size = 0, units = 1;
    bool resident = false;
    if (auto a = dyn_cast<sched::AllocOp>(op)) {
      buf = a.getBuffer();
      size = a.getSize();
      units = a.getUnitEnd() ? int64_t(*a.getUnitEnd()) - int64_t(*a.getUnit()) : 1;
      resident = bool(a.getInit());
    } else if (auto w = dyn_cast<sched::WeightOp>(op)) {
      buf = w.getBuffer();
      size = w.getSize();
      units = w.getUnitEnd() ? int64_t(*w.getUnitEnd()) - int64_t(*w.getUnit()) : 1;
      resident = true;
    } else {
      continue;
    }
    auto it = live.find(buf);
    double from = resident || it == live.end() ? 0 : it->second.first;
    double to = resident || it == live.end() ? total : it->second.second;
    std::string level = cast<sched::BufferType>(buf.getType()).getMemory().str();
    deltas[level].push_back({from, size * units});
    deltas[level].push_back({to, -size * units});
  }
  for (auto &[level, ds] : deltas) {
    llvm::stable_sort(ds, [](auto &a, auto &b) {
      return a.first != b.first ? a.first < b.first : a.second < b.second;
    });
    Occupancy occ;
    occ.level = level;
    int64_t bytes = 0;
    for (auto &[time, delta] : ds) {
      bytes += delta;
      if (!occ.steps.empty() && occ.steps.back().first == time)
        occ.steps.back().second = bytes;
      else
        occ.steps.push_back({time, bytes});
      occ.peakBytes = std::max(occ.peakBytes, bytes);
    }
    r.memory.push_back(std::move(occ));
  }
}
void Simulator::slacks(double makespan) {
  // Latest ends, successors first: in reverse of the order tasks started
  // (whatever a task waited for started before it).
  std::vector<std::vector<int32_t>> handedTo(tasks.size());
  for (auto [id, task] : llvm::enumerate(tasks))
    if (task.cause >= 0 && (task.wait == Wait::Units || task.wait == Wait::Engine))
      handedTo[task.cause].push_back(id);
  std::vector<int32_t> order(tasks.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::sort(order, [&](int32_t a, int32_t b) {
    return tasks[a].order > tasks[b].order;
  });
  for (int32_t id : order) {
    Task &task = tasks[id];
    double latestEnd = makespan;
    for (int32_t u : task.users)
      latestEnd = std::min(latestEnd, tasks[u].start + tasks[u].slack);
    // A copy hands its engine on when its bytes have moved, which may be
    // before it ends (a streamed copy waits for its producer's last rows).
    double held = task.kind == Kind::Dma && task.bodyEnd >= 0
                      ? task.end - task.bodyEnd
                      : 0.0;
    for (int32_t u : handedTo[id])
      latestEnd = std::min(latestEnd, tasks[u].start + tasks[u].slack + held);
    // A streaming user starts once the first slice is out, and ends one of
    // its own slices after this ends.
    double firstSlice = task.firstSlice >= 0 ? task.firstSlice : task.end;
    for (int32_t u : task.streamUsers) {
      const Task &user = tasks[u];
      latestEnd = std::min(latestEnd, user.start + user.slack + (task.end - firstSlice));
      latestEnd = std::min(latestEnd, user.end + user.slack -
                                          user.seconds / double(std::max<int64_t>(1, user.rows)));
    }
    task.slack = std::max(0.0, latestEnd - task.end);
  }
}

void Simulator::criticalPath(const std::vector<int32_t> &recordOf) {
  if (tasks.empty())
    return;
  int32_t cur = 0;
  for (int32_t i = 1; i < int32_t(tasks.size()); ++i)
    if (tasks[i].end >= tasks[cur].end)
      cur = i;
  double until = tasks[cur].end;
  double eps = 0.5 * cycle;
  std::vector<PathStep> steps; // last first
  auto step = [&](int32_t id, double from, double to, Wait via) {
    if (id >= 0 && tasks[id].kind == Kind::Barrier)
      return; // no time of its own
    steps.push_back({id >= 0 ? recordOf[id] : -1, from, to, via});
  };
  while (cur >= 0) {
    const Task &task = tasks[cur];
    // Its end was its streamed producer's end plus one slice of its own.
    if (task.tailCause >= 0 && until >= task.end && task.end > task.bodyEnd + eps) {
      double from = tasks[task.tailCause].end;
      step(cur, from, until, Wait::Stream);
      until = from;
      cur = task.tailCause;
      continue;
    }
    step(cur, task.start, until, task.wait);
    int32_t p = task.cause;
    if (p < 0) {
      if (task.start > 0)
        step(-1, 0, task.start, Wait::Plan);
      break;
    }
    double pEnd = task.wait == Wait::Stream ? task.start : tasks[p].end;
    if (pEnd < task.start)
      step(-1, pEnd, task.start, task.wait == Wait::Plan ? Wait::Plan : task.wait);
    until = std::min(pEnd, task.start);
    cur = p;
  }
  std::reverse(steps.begin(), steps.end());
  r.criticalPath = std::move(steps);
}
} // namespace

llvm::StringRef dfa::sim::name(Wait w) {
  switch (w) {
  case Wait::None: return "start";
  case Wait::Data: return "data";
  case Wait::Stream: return "stream";
  case Wait::Units: return "units";
  case Wait::Engine: return "engine";
  case Wait::Plan: return "plan";
  }
  return "";
}

Status dfa::sim::timeProgram(sched::ProgramOp program, const target::Target &t,
                             const Options &options, Result &r) {
  Simulator s(program, t, options, r);
  return s.run();
}
