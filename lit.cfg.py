# -*- Python -*-
# lit configuration for dfa. The test tree mirrors the source tree (test/).

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "dfa"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "regressions", "CMakeLists.txt", "lit.site.cfg.py", "unit",
                   "conformance", "models"]

config.test_source_root = os.path.join(os.path.dirname(__file__), "test")
config.test_exec_root = os.path.join(config.dfa_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%python", "/usr/bin/python3"))
config.substitutions.append(("%dfa_bin", config.dfa_tools_dir))
config.substitutions.append(("%dfa_src", os.path.dirname(os.path.abspath(__file__))))
# Test-only machine descriptions (frozen copies of the shipped ones, named
# test-*): pass tests name these, so tuning targets/*.json does not change
# what a pass test expects.
config.substitutions.append(("%with_test_targets", "env DFA_TARGET_PATH=" + os.path.join(config.test_source_root, "Inputs", "targets")))
config.substitutions.append(("%test_targets", os.path.join(config.test_source_root, "Inputs", "targets")))

llvm_config.use_default_substitutions()
llvm_config.with_system_environment(["HOME", "TMPDIR"])
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.dfa_tools_dir, append_path=True)
# A sanitized build (scripts/sanitize.sh) maps its shadow memory as data,
# so --max-memory's process limit is off there: `UNSUPPORTED: asan`.
if "address" in getattr(config, "dfa_sanitize", ""):
    config.available_features.add("asan")
# dfa-export-fx --method export needs torch.export (torch >= 2.1): the
# project's environment has it, Debian's torch 1.13 does not.
try:
    import re
    import subprocess
    out = subprocess.run([os.path.join(config.dfa_tools_dir, "dfa-export-fx"), "--version"],
                         capture_output=True, text=True, timeout=120).stdout
    m = re.search(r"torch (\d+)\.(\d+)", out)
    if m and (int(m.group(1)), int(m.group(2))) >= (2, 1):
        config.available_features.add("torch-export")
except (OSError, subprocess.SubprocessError):
    pass
# FileCheck variables do not leak across CHECK-LABELs.
config.environment["FILECHECK_OPTS"] = "-enable-var-scope"

tools = ["dfa-opt", "dfa-compile", "dfa-run", "dfa-roofline", "dfa-bisect"]
# DFA_VERIFY_ROUNDTRIP=1 makes every dfa-opt run check that its output
# parses back to the same IR (CIRCT's round-trip switch).
if os.environ.get("DFA_VERIFY_ROUNDTRIP"):
    config.substitutions.append(("dfa-opt", "dfa-opt --verify-roundtrip"))
llvm_config.add_tool_substitutions(tools, [config.dfa_tools_dir])
