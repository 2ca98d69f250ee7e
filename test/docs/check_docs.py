#!/usr/bin/env python3
"""Docs that cannot go stale: runs every ```console block of the README and
docs/ and compares what the commands print with what the block shows.

A console block is a shell session: each `$ ` line (with `\\` continuations)
is a command, and the lines up to the next command are what it prints
(stdout and stderr, in order). The block runs as one bash script in a fresh
folder holding links to the repository's examples/, test/, targets/, bench/
and docs/, and build/ (the build folder whose bin/ is given), with bin/ and
Debian's /usr/bin first on PATH, so that `build/bin/dfa-run` and `dfa-run`
both name the tools under test.

In what a block shows, `...` stands for any text within a line, and a line
that is only `...` for any number of lines. Wall-clock figures ("simulated
in 3.5 ms", "evaluated in 1.9 ms", event-loop rates) are not compared.
Blocks fenced as ```sh are illustrations and are not run.

usage: check_docs.py REPO BIN_DIR [FILE.md ...]
Prints a diff per disagreeing command and a closing line
'docs: N commands agree, N disagree'; exit 1 on any disagreement.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

MARK = "@@dfa-doc-command-done@@"
LINKS = ["examples", "test", "targets", "bench", "docs", "scripts"]
VOLATILE = [
    (re.compile(r"(simulated|evaluated) in [0-9.]+ [mµu]?s"), r"\1 in <time>"),
    (re.compile(r" \(event loop [0-9.]+ M events/s\)"), ""),
]


def blocks(path):
    """(line number, [(command, [expected lines])]) per console block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        start = i + 1
        i += 1
        body = []
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i])
            i += 1
        cmds = []
        j = 0
        while j < len(body):
            if body[j].startswith("$ "):
                cmd = body[j][2:]
                while cmd.endswith("\\") and j + 1 < len(body):
                    j += 1
                    cmd = cmd[:-1].rstrip() + " " + body[j].strip()
                cmds.append((cmd, []))
            elif cmds:
                cmds[-1][1].append(body[j])
            j += 1
        yield start, cmds


def normalize(text_lines):
    out = []
    for l in text_lines:
        l = l.rstrip()
        for pat, rep in VOLATILE:
            l = pat.sub(rep, l)
        out.append(l)
    while out and not out[-1]:
        out.pop()
    return out


def matches(want, got):
    """`want` lines (with ... wildcards) against `got` lines."""
    def line_ok(w, g):
        if "..." not in w:
            return w == g
        parts = [re.escape(p) for p in w.split("...")]
        return re.fullmatch(".*".join(parts), g) is not None

    memo = {}

    def at(i, j):
        if (i, j) in memo:
            return memo[i, j]
        if i == len(want):
            ok = j == len(got)
        elif want[i].strip() == "...":
            ok = any(at(i + 1, k) for k in range(j, len(got) + 1))
        else:
            ok = j < len(got) and line_ok(want[i], got[j]) and at(i + 1, j + 1)
        memo[i, j] = ok
        return ok

    return at(0, 0)


def run_block(repo, bin_dir, cmds):
    build = os.path.dirname(os.path.abspath(bin_dir))
    with tempfile.TemporaryDirectory(prefix="dfa-docs-") as tmp:
        for name in LINKS:
            os.symlink(os.path.join(repo, name), os.path.join(tmp, name))
        os.symlink(build, os.path.join(tmp, "build"))
        script = []
        for cmd, _ in cmds:
            script.append(cmd)
            script.append("__dfa_status=$?; echo %s; (exit $__dfa_status)" % MARK)
        # The caller's DFA_* settings (target paths, progress lines) are
        # not the docs'.
        env = {k: v for k, v in os.environ.items() if not k.startswith("DFA_")}
        env["PATH"] = "%s:/usr/bin:/bin" % os.path.abspath(bin_dir)
        p = subprocess.run(["bash", "-c", "\n".join(script)], cwd=tmp, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=900)
        outputs = p.stdout.split(MARK + "\n")
        return [o.split("\n") for o in outputs[:len(cmds)]] + \
            [["(no output: the block stopped)"]] * max(0, len(cmds) - len(outputs) + 1)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    repo, bin_dir = os.path.abspath(sys.argv[1]), sys.argv[2]
    files = sys.argv[3:] or [os.path.join(repo, "README.md")] + sorted(
        glob.glob(os.path.join(repo, "docs", "**", "*.md"), recursive=True))
    agree = disagree = 0
    for f in files:
        rel = os.path.relpath(f, repo)
        for line, cmds in blocks(f):
            if not cmds:
                continue
            outs = run_block(repo, bin_dir, cmds)
            for (cmd, want), got in zip(cmds, outs):
                w, g = normalize(want), normalize(got)
                if matches(w, g):
                    agree += 1
                    continue
                disagree += 1
                print("DISAGREE %s (block at line %d): $ %s" % (rel, line, cmd))
                print("  the docs show:")
                for l in w:
                    print("    | " + l)
                print("  the command prints:")
                for l in g:
                    print("    | " + l)
    print("docs: %d commands agree, %d disagree" % (agree, disagree))
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
