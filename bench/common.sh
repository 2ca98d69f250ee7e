# Sourced by the bench/*.sh scripts: where things are, the work folder
# (the first argument, else a new temporary one), the number of runs
# ($RUNS, default 5) and `median`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${DFA_BUILD_DIR:-$root/build}/bin"
work="${1:-$(mktemp -d)}"
runs="${RUNS:-5}"
mkdir -p "$work"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
