#!/usr/bin/env bash
# Installs the build into a temporary prefix and runs the main job
# (scripts/demo.sh) with the installed tools, from outside the checkout;
# then builds the .deb (cpack -G DEB), checks the Debian packages it
# declares, unpacks it with dpkg -x and lists the targets from there. The
# installed tools must find their descriptions under their own
# share/dfa/targets, not in the source tree. Prints 'N passed, N failed'.
#   scripts/install_check.sh [BUILD_DIR]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-${DFA_BUILD_DIR:-$root/build}}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { # description command...
  local what="$1"; shift
  if "$@" > "$tmp/log" 2>&1; then
    passed=$((passed + 1)); echo "ok: $what"
  else
    failed=$((failed + 1)); echo "FAILED: $what"; tail -5 "$tmp/log" | sed 's/^/  /'
  fi
}
# Every listed description is a file under DIR.
targets_under() { # bin_dir dir
  env -u DFA_TARGET_PATH "$1/dfa-compile" --list-targets --json |
    /usr/bin/python3 -c 'import json, sys; ts = json.load(sys.stdin)["targets"]; bad = [t["file"] for t in ts if not t["file"].startswith(sys.argv[1] + "/")]; sys.exit(1 if bad or len(ts) < 9 else 0)' "$2"
}

prefix="$tmp/prefix"
check "cmake --install into a prefix" cmake --install "$build" --prefix "$prefix"
check "the installed tools find the installed descriptions" \
  targets_under "$prefix/bin" "$prefix/share/dfa/targets"
check "the main job runs with the installed tools" \
  env -u DFA_TARGET_PATH DFA_BIN="$prefix/bin" DFA_DEMO_OUT="$tmp/demo" \
  bash -c "cd '$tmp' && '$root/scripts/demo.sh'"
check "the FX exporter is installed with its module" \
  test -x "$prefix/bin/dfa-export-fx" -a -f "$prefix/bin/dfa_fx.py"

check "cpack -G DEB" bash -c "cd '$build' && cpack -G DEB -B '$tmp/deb'"
deb="$(ls "$tmp"/deb/*.deb 2>/dev/null | head -1)"
check "the .deb declares its Debian dependencies" \
  bash -c "dpkg-deb -f '$deb' Depends | grep -q 'libmlir-19' && dpkg-deb -f '$deb' Depends | grep -q 'libonnx1'"
check "dpkg -x the .deb" dpkg -x "$deb" "$tmp/root"
check "the unpacked tools list their own descriptions" \
  targets_under "$tmp/root/usr/bin" "$tmp/root/usr/share/dfa/targets"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
