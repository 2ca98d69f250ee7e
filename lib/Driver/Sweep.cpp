//===- Sweep.cpp - dfa-sweep: points run on a pool of workers -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The parent reads the spec and the results so far, forks the workers
// before it makes any context or thread, hands each one point at a time
// over a pipe and appends every answer to the results file as it comes
// (so a killed sweep loses only the points in flight). Each worker imports
// a model once (per model and dims) and reuses it for every target point:
// a point clones the graph, loads the target with the point's overrides,
// compiles it to a schedule and simulates its time. At the end the file is
// rewritten in point order, with its CSV, so that any run, resumed or
// sharded, leaves the same bytes.
//
//===----------------------------------------------------------------------===//

#include "Pipeline.h"
#include "RunTarget.h"

#include "ModelFlags.h"

#include "dfa/Driver/Tools.h"
#include "dfa/Support/Parallel.h"
#include "dfa/Support/Progress.h"
#include "dfa/Sweep/Sweep.h"

#include "dialects/Sched/CompileStats.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace dfa;
using namespace dfa::driver;
namespace json = llvm::json;

namespace {

/// What a worker keeps between points: its context and each model
/// imported once (per model file and dims).
struct Worker {
  const sweep::Spec &spec;
  std::unique_ptr<MLIRContext> ctx;
  struct Model {
    ImportResult imported;
    Status status = Status::Ok;
    std::string error;
    double flops = 0;
  };
  std::map<std::string, Model> models;

  /// Where a point's stderr goes while it runs.
  std::string errPath;

  Worker(const sweep::Spec &spec, std::string errPath)
      : spec(spec), ctx(createContext()), errPath(std::move(errPath)) {}

  /// A file the spec names, found relative to the spec.
  std::string modelPath(const std::string &m) const {
    if (llvm::sys::path::is_absolute(m) || spec.dir.empty())
      return m;
    llvm::SmallString<256> p(spec.dir);
    llvm::sys::path::append(p, m);
    return p.str().str();
  }

  /// Runs one point; its error messages (as the tools print them) are
  /// what the point records.
  sweep::Result run(const sweep::Point &p);
};

/// Reads what the code between `begin()` and `end()` writes to stderr, in
/// the file `path` (named, so that the parent can read what a worker that
/// died wrote: its assertion or fatal error).
class StderrCapture {
public:
  explicit StderrCapture(std::string path) : path(std::move(path)) {}
  void begin() {
    llvm::errs().flush();
    fflush(stderr);
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    saved = dup(2);
    if (fd >= 0 && saved >= 0)
      dup2(fd, 2);
    if (fd >= 0)
      ::close(fd);
  }
  std::string end() {
    llvm::errs().flush();
    fflush(stderr);
    if (saved >= 0) {
      dup2(saved, 2);
      close(saved);
      saved = -1;
    }
    return readFile(path);
  }
  /// At most 64 KiB of the file.
  static std::string readFile(const std::string &path) {
    std::string text;
    if (FILE *f = std::fopen(path.c_str(), "rb")) {
      char buf[4096];
      size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && text.size() < (1 << 16))
        text.append(buf, n);
      std::fclose(f);
    }
    return text;
  }

private:
  std::string path;
  int saved = -1;
};

/// The message of a failed point: its first `error:` line (the cause;
/// later ones follow from it), without the tool's prefix, else its last
/// line.
std::string errorLine(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', -1, false);
  std::string found;
  for (llvm::StringRef l : lines) {
    size_t at = l.find("error: ");
    if (at != llvm::StringRef::npos && found.empty())
      found = l.substr(at + 7).trim().str();
  }
  if (found.empty() && !lines.empty())
    found = lines.back().trim().str();
  return found;
}

sweep::Result Worker::run(const sweep::Point &p) {
  sweep::Result res;
  res.index = p.index;
  res.point = p.describe();
  StderrCapture capture(errPath);
  capture.begin();
  DiagnosticPrinter printer(*ctx, "dfa-sweep");
  auto fail = [&](Status s) {
    std::string text = capture.end();
    res.exitCode = exitCode(s);
    res.error = errorLine(text);
    if (res.error.empty())
      res.error = "failed (exit " + std::to_string(res.exitCode) + ")";
    return res;
  };
  // The model, imported once per file and dims.
  std::string key = p.model + "\n" + llvm::join(p.dims, ",");
  auto [it, fresh] = models.try_emplace(key);
  Model &m = it->second;
  if (fresh) {
    ModelFlags flags;
    flags.model = modelPath(p.model);
    flags.noWeights = true;
    for (const std::string &d : p.dims)
      flags.dims.push_back(d);
    ONNXImportOptions importOpts;
    m.status = buildImportOptions(flags, {}, {}, importOpts, printer);
    if (m.status == Status::Ok) {
      m.imported = loadModel(flags.model, *ctx, importOpts);
      m.status = m.imported.status;
    }
    if (m.status == Status::Ok) {
      auto func = m.imported.module->lookupSymbol<func::FuncOp>("main");
      if (!func) {
        printer.error("'" + p.model + "' has no @main graph to compile");
        m.status = Status::InvalidModel;
      } else {
        m.flops = graphWork(func).first;
      }
    }
    if (m.status != Status::Ok)
      m.error = errorLine(capture.end()), capture.begin();
  }
  if (m.status != Status::Ok) {
    capture.end();
    res.exitCode = exitCode(m.status);
    res.error = m.error.empty() ? "the model does not import" : m.error;
    return res;
  }
  // The target, with the point's overrides.
  target::Registry registry(spec.targetDirs, p.overrides);
  target::Target t;
  std::string err;
  llvm::StringRef name(p.target);
  bool isFile = name.contains('/') || name.ends_with(".json") || name.ends_with(".cfg");
  if (Status s = registry.find(isFile ? modelPath(p.target) : p.target, t, err);
      s != Status::Ok) {
    printer.error(err);
    return fail(s);
  }
  if (t.caps.reference) {
    printer.error("'" + t.name + "' runs the graph on the CPU reference: it "
                  "has no schedule to time (sweep an accelerator)");
    return fail(Status::Usage);
  }
  OwningOpRef<ModuleOp> module = cast<ModuleOp>(m.imported.module->clone());
  CompileOptions co;
  co.targetDirs = spec.targetDirs;
  co.overrides = p.overrides;
  if (Status s = runPipeline(*module, t, 0, kSchedStage, co, printer);
      s != Status::Ok)
    return fail(s);
  sched::ProgramOp program = findProgram(*module);
  if (!program) {
    printer.error("the compile left no schedule");
    return fail(Status::Internal);
  }
  sim::Options so;
  so.values = false;
  sim::Result sr;
  if (Status s = sim::simulate(program, t, {}, so, sr); s != Status::Ok)
    return fail(s);
  capture.end();
  sched::CompileStats stats =
      sched::CompileStats::fromAttr(program.getStatsAttr());
  const target::MemoryLevel &outer = t.outerLevel();
  double peakOnChip = 0, onChip = 0;
  for (const target::MemoryLevel &l : t.memory) {
    if (l.name == outer.name)
      continue;
    double units = l.scope == "unit" ? t.units.value : 1;
    onChip += l.capacityBytes.value * units;
    auto pk = stats.peakBytes.find(l.name);
    if (pk != stats.peakBytes.end())
      peakOnChip += double(pk->second) * units;
  }
  std::map<std::string, double> all = {
      {"seconds", sr.seconds},
      {"flops", m.flops},
      {"kernels", double(stats.kernels)},
      {"fusions", double(stats.fusions)},
      {"chips", double(stats.chips)},
      {"dma_bytes", double(stats.dmaBytes)},
      {"peak_onchip_bytes", peakOnChip},
      {"onchip_bytes", onChip},
      {"peak_flops", t.peak("bf16")},
      {"outer_bandwidth", outer.bandwidthBytesPerS.value},
      {"achieved_flops", sr.seconds > 0 ? m.flops / sr.seconds : 0}};
  for (const std::string &name : spec.metrics)
    res.metrics[name] = all[name];
  return res;
}

/// Writes all of `s` to `fd` (a pipe), retrying short writes.
bool writeAll(int fd, llvm::StringRef s) {
  while (!s.empty()) {
    ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    s = s.drop_front(size_t(n));
  }
  return true;
}

/// A worker process's end: reads point indices, one a line, and answers
/// each with its result line.
[[noreturn]] void workerMain(const sweep::Spec &spec,
                             const std::vector<sweep::Point> &all, int in,
                             int out, const std::string &errPath) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  signal(SIGPIPE, SIG_DFL);
  setThreadCount(1);
  Worker w(spec, errPath);
  std::string pending;
  char buf[256];
  while (true) {
    size_t nl;
    while ((nl = pending.find('\n')) == std::string::npos) {
      ssize_t n = ::read(in, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        _exit(0);
      pending.append(buf, size_t(n));
    }
    int64_t index = std::stoll(pending.substr(0, nl));
    pending.erase(0, nl + 1);
    sweep::Result r = w.run(all[size_t(index)]);
    if (!writeAll(out, r.line() + "\n"))
      _exit(1);
  }
}

/// Parses --shard I/N.
bool parseShard(llvm::StringRef s, int64_t &i, int64_t &n) {
  auto [a, b] = s.split('/');
  return !a.getAsInteger(10, i) && !b.getAsInteger(10, n) && n >= 1 && i >= 0 &&
         i < n;
}

std::string defaultResults(llvm::StringRef spec) {
  llvm::SmallString<256> p(spec);
  llvm::sys::path::replace_extension(p, "");
  p += ".results.jsonl";
  return p.str().str();
}

/// The Slurm job array: one task per shard, each into its own file.
int submitSlurm(const SweepOptions &opts, const sweep::Spec &spec,
                const std::string &results, size_t points,
                DiagnosticPrinter &printer) {
  int64_t tasks = opts.slurmTasks > 0 ? opts.slurmTasks
                                      : std::max<int64_t>(1, std::min<int64_t>(int64_t(points), 16));
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::SmallString<256> specAbs(spec.file), resultsAbs(results);
  llvm::sys::fs::make_absolute(specAbs);
  llvm::sys::fs::make_absolute(resultsAbs);
  std::string script = resultsAbs.str().str() + ".sbatch";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(script, ec);
    if (ec) {
      printer.error("cannot write '" + script + "': " + ec.message());
      return exitCode(Status::IOError);
    }
    // Single-quoted for the shell (a quote in a path closes and reopens).
    auto quote = [](llvm::StringRef v) {
      std::string q = "'";
      for (char c : v)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
      return q + "'";
    };
    os << "#!/bin/sh\n"
       << "#SBATCH --job-name=dfa-sweep\n"
       << "#SBATCH --array=0-" << tasks - 1 << "\n"
       << "#SBATCH --ntasks=1\n"
       << "#SBATCH --cpus-per-task=" << std::max(1, opts.jobs) << "\n"
       << "#SBATCH --output=\""
       << [&] { // Slurm expands '%' in the path
            std::string o;
            for (char c : resultsAbs.str())
              o += c == '%' ? std::string("%%") : std::string(1, c);
            return o;
          }()
       << ".%a.log\"\n"
       << "# Each array task runs its shard of the points into its own file;\n"
       << "# `dfa-sweep merge` joins them.\n"
       << "exec " << quote(exe) << " " << quote(specAbs.str()) << " --shard "
       << "\"$SLURM_ARRAY_TASK_ID/" << tasks << "\" --jobs "
       << std::max(1, opts.jobs) << " --quiet -o "
       << quote((resultsAbs.str() + ".shard").str()) << "\"$SLURM_ARRAY_TASK_ID\""
       << quote(".jsonl") << "\n";
  }
  llvm::outs() << "dfa-sweep: " << script << ": " << tasks << " array tasks of "
               << points << " points\n";
  if (opts.slurmNoSubmit)
    return 0;
  std::string sbatch = opts.sbatch.empty() ? "sbatch" : opts.sbatch;
  llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName(sbatch);
  if (!path) {
    printer.error("cannot run '" + sbatch + "': not found (install Slurm, or "
                  "submit " + script + " yourself)");
    return exitCode(Status::IOError);
  }
  llvm::SmallVector<llvm::StringRef> args = {*path, "--parsable"};
  std::vector<std::string> extra = opts.slurmArgs;
  for (const std::string &a : extra)
    args.push_back(a);
  args.push_back(script);
  std::string errMsg;
  int rc = llvm::sys::ExecuteAndWait(*path, args, std::nullopt, {}, 0, 0, &errMsg);
  if (rc != 0) {
    printer.error("sbatch failed (exit " + std::to_string(rc) + ")" +
                  (errMsg.empty() ? "" : ": " + errMsg));
    return exitCode(Status::IOError);
  }
  llvm::outs() << "dfa-sweep: submitted; when the job is done: dfa-sweep merge "
               << resultsAbs.str() << ".shard*.jsonl -o " << resultsAbs.str() << "\n";
  return 0;
}

} // namespace

int dfa::driver::sweepMain(const SweepOptions &opts) {
  auto ctx0 = std::make_unique<MLIRContext>(MLIRContext::Threading::DISABLED);
  DiagnosticPrinter printer(*ctx0, "dfa-sweep");
  std::string err;
  if (!llvm::sys::fs::exists(opts.spec)) {
    printer.error("cannot read '" + opts.spec + "': No such file or directory");
    return exitCode(Status::IOError);
  }
  std::optional<sweep::Spec> spec = sweep::readSpec(opts.spec, err);
  if (!spec) {
    printer.error(err);
    return exitCode(Status::BadInput);
  }
  std::vector<sweep::Point> all = sweep::points(*spec);
  int64_t shard = 0, shards = 1;
  if (!opts.shard.empty() && !parseShard(opts.shard, shard, shards)) {
    printer.error("--shard '" + opts.shard + "': expected I/N with 0 <= I < N");
    return exitCode(Status::Usage);
  }
  std::string results = opts.output.empty() ? defaultResults(opts.spec) : opts.output;
  if (opts.slurm)
    return submitSlurm(opts, *spec, results, all.size(), printer);

  // What the file holds already: each line must be this sweep's point.
  std::vector<sweep::Result> done;
  uint64_t complete = 0;
  if (Status s = sweep::readResults(results, done, complete, err); s != Status::Ok) {
    printer.error(err);
    return exitCode(s);
  }
  std::vector<bool> have(all.size(), false);
  for (const sweep::Result &r : done) {
    if (r.index >= int64_t(all.size()) ||
        json::Value(json::Object(r.point)) !=
            json::Value(all[size_t(r.index)].describe())) {
      printer.error("'" + results + "' holds point " + std::to_string(r.index) +
                    " of another sweep (its point differs from this spec's); "
                    "write to another file with -o");
      return exitCode(Status::Usage);
    }
    have[size_t(r.index)] = true;
  }
  std::vector<int64_t> todo;
  for (const sweep::Point &p : all)
    if (p.index % shards == shard && !have[size_t(p.index)])
      todo.push_back(p.index);
  int64_t mine = 0;
  for (const sweep::Point &p : all)
    mine += p.index % shards == shard;

  // Append as points finish; a cut-off last line (an interrupted append)
  // is dropped first.
  if (llvm::sys::fs::exists(results)) {
    uint64_t size = 0;
    (void)llvm::sys::fs::file_size(results, size);
    if (size != complete) {
      // Only what an interrupted append leaves: the start of a results
      // line. Anything else is not this tool's file.
      // Results lines start {"error": or {"index": (keys sorted).
      char head[9] = {};
      size_t got = 0;
      if (FILE *f = std::fopen(results.c_str(), "rb")) {
        if (std::fseek(f, long(complete), SEEK_SET) == 0)
          got = std::fread(head, 1, sizeof head, f);
        std::fclose(f);
      }
      llvm::StringRef tail(head, got);
      if (!llvm::StringRef("{\"error\":").starts_with(tail) &&
          !llvm::StringRef("{\"index\":").starts_with(tail)) {
        printer.error("'" + results + "' ends in a line that is not a "
                      "dfa-sweep results line; write to another file with -o");
        return exitCode(Status::Usage);
      }
    }
    if (size != complete && ::truncate(results.c_str(), off_t(complete)) != 0) {
      printer.error("cannot write '" + results + "': " + std::strerror(errno));
      return exitCode(Status::IOError);
    }
  }
  int fd = ::open(results.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    printer.error("cannot write '" + results + "': " + std::strerror(errno));
    return exitCode(Status::IOError);
  }
  if (!todo.empty() && int64_t(done.size()) > 0 && !opts.quiet)
    llvm::errs() << "dfa-sweep: resuming: " << (mine - int64_t(todo.size()))
                 << " of " << mine << " points already in " << results << "\n";

  int jobs = opts.jobs > 0 ? opts.jobs : threadCount();
  jobs = int(std::max<int64_t>(1, std::min<int64_t>(jobs, int64_t(todo.size()))));
  progress::Task task("points", mine);
  task.showRate(/*from=*/mine - int64_t(todo.size()));
  task.set(mine - int64_t(todo.size()));
  int64_t failed = 0, ran = 0;
  // A line that does not read back (a non-finite metric prints as `inf`,
  // which is not JSON) is recorded as its point's error, so that the file
  // stays readable.
  auto record = [&](const sweep::Point &p, std::string line) {
    std::optional<sweep::Result> r = sweep::parseResult(line);
    if (!r) {
      sweep::Result e;
      e.index = p.index;
      e.point = p.describe();
      e.exitCode = exitCode(Status::Internal);
      e.error = "a metric is not a finite number";
      line = e.line();
      r = e;
    }
    if (!writeAll(fd, line + "\n"))
      return false;
    if (r->exitCode != 0 || !r->error.empty())
      ++failed;
    ++ran;
    task.advance();
    return true;
  };

  // Every point runs in a worker process, so that a point that crashes
  // (an assertion, a fatal error, the kernel's OOM killer) fails alone: it
  // is recorded with what the worker wrote last, and a new worker takes
  // its place.
  struct Child {
    pid_t pid = -1;
    int to = -1, from = -1;
    std::string buffer, errPath;
    int64_t current = -1; // the point in work
  };
  std::vector<Child> children(size_t(todo.empty() ? 0 : jobs));
  std::string tmpDir = "/tmp";
  if (const char *t = std::getenv("TMPDIR"))
    tmpDir = t;
  for (size_t k = 0; k < children.size(); ++k)
    children[k].errPath = tmpDir + "/dfa-sweep-" + std::to_string(getpid()) +
                          "-" + std::to_string(k) + ".err";
  auto spawn = [&](Child &c) {
    int down[2], up[2];
    if (pipe2(down, O_CLOEXEC) != 0 || pipe2(up, O_CLOEXEC) != 0)
      return false;
    llvm::errs().flush();
    pid_t pid = fork();
    if (pid < 0)
      return false;
    if (pid == 0) {
      ::close(down[1]);
      ::close(up[0]);
      ::close(fd);
      for (Child &o : children)
        if (o.to >= 0)
          ::close(o.to), ::close(o.from);
      workerMain(*spec, all, down[0], up[1], c.errPath);
    }
    ::close(down[0]);
    ::close(up[1]);
    c.pid = pid;
    c.to = down[1];
    c.from = up[0];
    c.buffer.clear();
    c.current = -1;
    return true;
  };
  signal(SIGPIPE, SIG_IGN); // a worker gone is seen at its pipe's end
  size_t next = 0;
  auto give = [&](Child &c) {
    if (next < todo.size() && c.to >= 0) {
      c.current = todo[next++];
      if (!writeAll(c.to, std::to_string(c.current) + "\n"))
        return; // it died: its pipe's end says so
    } else if (c.to >= 0) {
      ::close(c.to); // no more: the worker exits
      c.to = -1;
    }
  };
  for (Child &c : children) {
    if (!spawn(c)) {
      printer.error(std::string("cannot start workers: ") + std::strerror(errno));
      ::close(fd);
      return exitCode(Status::IOError);
    }
    give(c);
  }
  int64_t outstanding = int64_t(todo.size());
  bool writeFailed = false;
  while (outstanding > 0 && !writeFailed) {
    std::vector<pollfd> fds;
    for (Child &c : children)
      fds.push_back({c.from, short(c.from >= 0 ? POLLIN : 0), 0});
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR)
        continue;
      printer.error(std::string("waiting for workers: ") + std::strerror(errno));
      break;
    }
    for (size_t k = 0; k < children.size() && !writeFailed; ++k) {
      Child &c = children[k];
      if (c.from < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      char buf[65536];
      ssize_t n = ::read(c.from, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n > 0) {
        c.buffer.append(buf, size_t(n));
        size_t nl;
        while ((nl = c.buffer.find('\n')) != std::string::npos) {
          std::string line = c.buffer.substr(0, nl);
          c.buffer.erase(0, nl + 1);
          writeFailed |= !record(all[size_t(c.current)], line);
          --outstanding;
          c.current = -1;
          give(c);
        }
        continue;
      }
      // The worker is gone: after its last point (it was told to stop),
      // or in the middle of one.
      ::close(c.from);
      c.from = -1;
      if (c.to >= 0)
        ::close(c.to), c.to = -1;
      int status = 0;
      waitpid(c.pid, &status, 0);
      if (c.current < 0)
        continue;
      sweep::Result e;
      e.index = c.current;
      e.point = all[size_t(c.current)].describe();
      e.exitCode = exitCode(Status::Internal);
      std::string said = errorLine(StderrCapture::readFile(c.errPath));
      e.error = "the worker running this point died (" +
                (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                     : "exit " + std::to_string(WEXITSTATUS(status))) +
                ")" + (said.empty() ? "" : ": " + said);
      writeFailed |= !record(all[size_t(c.current)], e.line());
      --outstanding;
      if (outstanding > 0 && next < todo.size()) {
        if (!spawn(c)) {
          printer.error(std::string("cannot start a worker: ") + std::strerror(errno));
          break;
        }
        give(c);
      }
    }
  }
  for (Child &c : children) {
    if (c.to >= 0)
      ::close(c.to);
    if (c.from >= 0)
      ::close(c.from);
    if (c.pid > 0) {
      if (outstanding > 0)
        kill(c.pid, SIGTERM);
      int status = 0;
      waitpid(c.pid, &status, 0);
    }
    ::unlink(c.errPath.c_str());
  }
  signal(SIGPIPE, SIG_DFL);
  ::close(fd);
  if (writeFailed) {
    printer.error("cannot write '" + results + "': " + std::strerror(errno));
    return exitCode(Status::IOError);
  }
  if (outstanding > 0) {
    printer.error("the workers stopped with " + std::to_string(outstanding) +
                  " points unfinished; the results so far are in " + results +
                  " (run again to resume)");
    return exitCode(Status::Internal);
  }
  progress::clear();

  // The file in point order, and its CSV.
  std::vector<sweep::Result> final;
  if (Status s = sweep::readResults(results, final, complete, err); s != Status::Ok) {
    printer.error(err);
    return exitCode(s);
  }
  if (Status s = sweep::writeResults(results, sweep::csvPathFor(results), final, err);
      s != Status::Ok) {
    printer.error(err);
    return exitCode(s);
  }
  if (!opts.quiet) {
    llvm::errs() << "dfa-sweep: " << mine << " points (" << ran << " run now";
    if (shards > 1)
      llvm::errs() << ", shard " << shard << "/" << shards;
    llvm::errs() << "), " << failed << " failed now; " << results << ", "
                 << sweep::csvPathFor(results) << "\n";
  }
  return 0;
}

int dfa::driver::sweepReportMain(const SweepOptions &opts) {
  auto ctx0 = std::make_unique<MLIRContext>(MLIRContext::Threading::DISABLED);
  DiagnosticPrinter printer(*ctx0, "dfa-sweep");
  std::vector<sweep::Result> results;
  std::string err;
  if (Status s = sweep::merge(opts.files, results, err); s != Status::Ok) {
    printer.error(err);
    return exitCode(s);
  }
  std::string out = opts.output;
  if (out.empty()) {
    llvm::SmallString<256> p(opts.files.front());
    llvm::sys::path::replace_extension(p, ".html");
    out = p.str().str();
  }
  sweep::ReportOptions ro;
  ro.x = opts.x;
  ro.y = opts.y;
  ro.title = opts.title;
  std::string html;
  llvm::raw_string_ostream os(html);
  if (Status s = sweep::writeReport(os, results, ro, err); s != Status::Ok) {
    printer.error(err);
    return exitCode(s);
  }
  std::error_code ec;
  llvm::raw_fd_ostream file(out, ec);
  if (ec) {
    printer.error("cannot write '" + out + "': " + ec.message());
    return exitCode(Status::IOError);
  }
  file << html;
  if (!opts.quiet)
    llvm::errs() << "dfa-sweep: " << out << " (" << results.size() << " points)\n";
  return 0;
}

int dfa::driver::sweepMergeMain(const SweepOptions &opts) {
  auto ctx0 = std::make_unique<MLIRContext>(MLIRContext::Threading::DISABLED);
  DiagnosticPrinter printer(*ctx0, "dfa-sweep");
  if (opts.output.empty()) {
    printer.error("merge needs -o RESULTS.jsonl");
    return exitCode(Status::Usage);
  }
  for (const std::string &f : opts.files)
    if (llvm::sys::fs::equivalent(f, opts.output)) {
      printer.error("merge would overwrite its input '" + f + "': write to "
                    "another file with -o");
      return exitCode(Status::Usage);
    }
  std::vector<sweep::Result> results;
  std::string err;
  if (Status s = sweep::merge(opts.files, results, err); s != Status::Ok) {
    printer.error(err);
    return exitCode(s);
  }
  if (Status s = sweep::writeResults(opts.output, sweep::csvPathFor(opts.output),
                                     results, err);
      s != Status::Ok) {
    printer.error(err);
    return exitCode(s);
  }
  // Points missing between the first and the last: a shard that did not
  // finish (a Slurm task out of time).
  std::vector<int64_t> gaps;
  int64_t expect = 0;
  for (const sweep::Result &r : results) {
    for (; expect < r.index && gaps.size() < 10; ++expect)
      gaps.push_back(expect);
    expect = r.index + 1;
  }
  if (!gaps.empty()) {
    std::string list;
    for (int64_t g : gaps)
      list += (list.empty() ? "" : ", ") + std::to_string(g);
    printer.warning("points " + list + (gaps.size() == 10 ? ", ..." : "") +
                    " are in none of the files: a shard that did not finish? "
                    "(run it again with its --shard to fill them in)");
  }
  if (!opts.quiet)
    llvm::errs() << "dfa-sweep: " << opts.output << " (" << results.size()
                 << " points from " << opts.files.size() << " files)\n";
  return 0;
}
