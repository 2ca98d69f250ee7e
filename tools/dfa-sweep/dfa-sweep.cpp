//===- dfa-sweep.cpp - design-space sweeps ----------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Driver/ToolFlags.h"
#include "dfa/Driver/Tools.h"
#include "dfa/Support/Status.h"

#include <CLI/CLI.hpp>

int main(int argc, char **argv) {
  dfa::driver::SweepOptions o;
  CLI::App app{"dfa-sweep: run a model over many targets and what-if machines, "
               "resumably, locally or on Slurm; report the Pareto front"};
  app.set_version_flag("--version", "dfa-sweep " DFA_VERSION);
  app.require_subcommand(0, 1);
  app.add_option("spec", o.spec, "Sweep spec (dfa.sweep/1, .json or .yaml)");
  app.add_option("-o,--output", o.output,
                 "Results file (JSONL, the CSV beside it; default: the spec's "
                 "name with .results.jsonl). Points already in it are skipped");
  app.add_option("-j,--jobs", o.jobs,
                 "Worker processes (default: DFA_THREADS, else every core)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--shard", o.shard,
                 "Run only the points whose index is I modulo N (I/N)");
  app.add_flag("--slurm", o.slurm,
               "Write a Slurm job array (one shard of the points per task, "
               "each into RESULTS.shardI.jsonl) and submit it with sbatch");
  app.add_option("--slurm-tasks", o.slurmTasks,
                 "Array tasks of --slurm (default: the points, at most 16)")
      ->check(CLI::Range(int64_t(1), int64_t(100000)));
  app.add_flag("--no-submit", o.slurmNoSubmit,
               "With --slurm: write the script, do not submit it");
  app.add_option("--sbatch", o.sbatch, "The sbatch to run (default: sbatch)");
  app.add_option("--slurm-arg", o.slurmArgs,
                 "An extra argument for sbatch (repeatable)")
      ->take_all();
  bool quiet = false;
  app.add_flag("--quiet", quiet, "No progress line or summary");

  CLI::App *report = app.add_subcommand(
      "report", "Write a self-contained HTML report of results files: the "
                "Pareto front, the sensitivity to each swept key, a table");
  report->add_option("results", o.files, "Results files (JSONL)")
      ->required()
      ->check(CLI::ExistingFile);
  report->add_option("-o,--output", o.output,
                     "The HTML (default: the first file's name with .html)");
  report->add_option("--x", o.x,
                     "The front's x: a metric or a swept key (default: "
                     "onchip_bytes)");
  report->add_option("--y", o.y, "The front's y (default: seconds)");
  report->add_option("--title", o.title, "The report's title");
  report->add_flag("--quiet", quiet, "No summary line");

  CLI::App *merge = app.add_subcommand(
      "merge", "Join results files (the shards of a Slurm sweep) into one, "
               "in point order");
  merge->add_option("results", o.files, "Results files (JSONL)")->required();
  merge->add_option("-o,--output", o.output, "The merged results file")
      ->required();
  merge->add_flag("--quiet", quiet, "No summary line");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : dfa::exitCode(dfa::Status::Usage);
  }
  o.quiet = quiet;
  if (!dfa::ref::checkCpu("dfa-sweep"))
    return dfa::exitCode(dfa::Status::Usage);
  dfa::progress::init("dfa-sweep", o.quiet);
  if (report->parsed())
    return dfa::driver::sweepReportMain(o);
  if (merge->parsed())
    return dfa::driver::sweepMergeMain(o);
  if (o.spec.empty()) {
    llvm::errs() << "dfa-sweep: error: give a spec, or report or merge (see "
                    "--help)\n";
    return dfa::exitCode(dfa::Status::Usage);
  }
  // The workers: -j, else DFA_THREADS (checked as every tool checks it),
  // else every core (sweepMain takes threadCount()).
  dfa::driver::ModelFlags threads;
  threads.threads = o.jobs;
  if (!dfa::driver::applyThreads(threads, "dfa-sweep"))
    return dfa::exitCode(dfa::Status::Usage);
  return dfa::driver::sweepMain(o);
}
