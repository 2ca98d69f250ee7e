#!/usr/bin/env bash
# Writes the IR a pass receives, for a pass test that starts there:
#   make_stage_input.sh BIN_DIR SOURCE.mlir TARGET "PASSES" OUT.mlir
# runs SOURCE (a test's graph; its // lines are dropped) through the dfa-opt
# PASSES (shell words) for TARGET, a test-only description of
# test/Inputs/targets; @T in PASSES stands for TARGET. For example
# "-graph-fuse=target=@T -graph-tile", or
# "-dfa-pipeline='target=@T to=laid-out'" for what dfa-compile hands the
# lowering. Kept for the record of how the Inputs/*.<target>.mlir files were
# made; tests do not run it.
set -euo pipefail
bin="$1" src="$2" target="$3" passes="${4//@T/$3}" out="$5"
here="$(cd "$(dirname "$0")" && pwd)"
{
  echo "// The input of a pass test: $(basename "$src") through $passes"
  echo "// (test/Inputs/make_stage_input.sh)."
  grep -v '^//' "$src" | eval "DFA_TARGET_PATH=\"$here/targets\" \"$bin/dfa-opt\" - $passes"
} > "$out"
