#!/usr/bin/env bash
# Builds dfa with clang-19 under AddressSanitizer + UndefinedBehaviorSanitizer
# (and libFuzzer coverage, so scripts/fuzz.sh shares the tree) in
# ${DFA_SAN_BUILD_DIR:-build-san}, then runs the whole test suite
# (scripts/test.sh) on it. Any sanitizer report aborts the process that
# made it, so it fails a test; the script ends with test.sh's summary line
# and its exit status.
#   scripts/sanitize.sh                 build and run the suite
#   scripts/sanitize.sh --build-only [TARGET...]   build only
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${DFA_SAN_BUILD_DIR:-$root/build-san}"

"$root/scripts/setup.sh" clang-19 libclang-rt-19-dev
# NDEBUG as Debian's LLVM is built: some LLVM and MLIR classes change
# layout without it (statistics), which would break the ABI between dfa's
# objects and libMLIR.
if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  CC=clang-19 CXX=clang++-19 cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g -DNDEBUG" \
    -DDFA_SANITIZE=address,undefined -DDFA_FUZZ=ON \
    -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py \
    "${launcher[@]}" >/dev/null
fi

if [ "${1:-}" = --build-only ]; then
  shift
  if [ $# -gt 0 ]; then
    cmake --build "$build" --target "$@"
  else
    cmake --build "$build"
  fi
  exit 0
fi

cmake --build "$build"
# Reports abort (-fno-sanitize-recover), so a test that trips one fails.
# Leaks are reported too: every tool frees what it allocates.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons slabs from the
# inline code compiled into dfa but not from Debian's uninstrumented
# libMLIR, which then trips over its own allocations (false positives).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:allow_user_poisoning=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp}"
DFA_BUILD_DIR="$build" exec "$root/scripts/test.sh"
