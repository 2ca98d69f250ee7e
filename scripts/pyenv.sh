#!/usr/bin/env bash
# Creates the project's own Python environment, idempotently, and prints
# its interpreter: $DFA_VENV, by default .venv at the top of the checkout,
# with every package of scripts/python-requirements.txt at its pinned
# version (torch 2.x, torchvision, onnx, onnxscript, onnxruntime,
# transformers, timm, scalesim). Built on Debian's python3 (never whichever
# python3 is first on PATH). When the environment already matches the
# requirements it changes nothing and touches no network; when they change,
# pip brings it to the new pins. Exit 0 with the interpreter's path on
# stdout, 1 when it cannot be built (the reason on stderr).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${DFA_VENV:-$root/.venv}"
req="$root/scripts/python-requirements.txt"
stamp="$venv/dfa-requirements.txt"

if [ -x "$venv/bin/python" ] && cmp -s "$req" "$stamp"; then
  echo "$venv/bin/python"
  exit 0
fi

"$root/scripts/setup.sh" python3-venv >&2
if [ ! -x "$venv/bin/python" ]; then
  echo "pyenv: creating $venv" >&2
  /usr/bin/python3 -m venv "$venv" >&2
fi
echo "pyenv: installing the pinned packages into $venv (first time: a few minutes)" >&2
if ! "$venv/bin/python" -m pip install --disable-pip-version-check --no-input -q \
      -r "$req" >&2; then
  echo "pyenv: error: pip could not install $req into $venv" >&2
  exit 1
fi
cp "$req" "$stamp"
echo "$venv/bin/python"
