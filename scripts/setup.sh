#!/usr/bin/env bash
# Installs every Debian package dfa needs, only when something is missing.
# Idempotent: when all packages are present it changes nothing and touches no
# network. Runs `apt-get update` only when it must install. Extra package
# names on the command line are installed too (scripts/sanitize.sh asks for
# clang-19 and libclang-rt-19-dev).
set -euo pipefail

packages=(
  cmake ninja-build ccache g++
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  libprotobuf-dev protobuf-compiler libonnx-dev libonnx-testdata
  libcli11-dev libzstd-dev catch2 libgraphviz-dev pkg-config
  libopenblas-openmp-dev
  python3 python3-numpy python3-onnx python3-torch python3-torchvision
  python3-zstandard chromium
  slurm-wlm munge
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
