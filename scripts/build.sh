#!/usr/bin/env bash
# Configures (once) and builds dfa into ${DFA_BUILD_DIR:-build}.
# Extra arguments are passed to `cmake --build` (for example a target name).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${DFA_BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh"

if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE="${DFA_BUILD_TYPE:-Release}" \
    -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py \
    "${launcher[@]}" >/dev/null
fi

if [ $# -gt 0 ]; then
  cmake --build "$build" --target "$@"
else
  cmake --build "$build"
fi
