#!/usr/bin/env python3
"""Writes broken variants of Inputs/good/mychip.json, one per directory:
make_bad.py OUT_DIR."""
import copy
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
good = json.load(open(os.path.join(here, "good", "mychip.json")))
out = sys.argv[1]


def write(case, doc, raw=None):
    d = os.path.join(out, case)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "mychip.json"), "w") as f:
        f.write(raw if raw is not None else json.dumps(doc))


d = copy.deepcopy(good); del d["clock_hz"]; write("missing-clock", d)
d = copy.deepcopy(good); d["compute"]["units"] = {"value": 4}; write("no-source", d)
d = copy.deepcopy(good); d["family"] = "fpga"; write("bad-family", d)
d = copy.deepcopy(good); d["memory"][0]["capacity_bytes"]["value"] = -1; write("negative", d)
d = copy.deepcopy(good); d["name"] = "other"; write("wrong-name", d)
d = copy.deepcopy(good); d["memory"] = []; write("no-memory", d)
write("not-json", None, raw='{"schema": "dfa.target/1", ')
# Keys the passes of a family read (checked after the generic schema).
d = copy.deepcopy(good); del d["layout"]; write("tpu-no-tile", d)
d = copy.deepcopy(good); d["layout"]["tile"] = [8, 0]; write("tpu-zero-tile", d)
d = copy.deepcopy(good); d["layout"]["small_second_minor_tiles"] = [[2, 128], [4]]; write("tpu-bad-small-tiles", d)
d = copy.deepcopy(good); d["layout"]["small_second_minor_tiles"] = [[2, 64]]; write("tpu-narrow-small-tile", d)
d = copy.deepcopy(good); d["family"] = "spyre"; d["layout"] = {"stick_bytes": {"value": 0, "source": "x"}}; write("spyre-zero-stick", d)
d = copy.deepcopy(good); d["family"] = "spyre"; d["layout"] = {"stick_bytes": {"value": 128, "source": "x"}}; write("spyre-no-lx", d)
d = copy.deepcopy(good); d["family"] = "lpu"; d["layout"] = {"vector_elems": 320, "mxm_plane": [320, 320]}; write("lpu-bare-number", d)
d = copy.deepcopy(good); d["compute"]["accumulator"] = "fp12"; write("bad-accumulator", d)
# The tiled GEMM model (compute.matrix_model "tiled", the gpu family's)
# chooses among compute.cta_tiles: without them, or with a bad tile, exit 8.
d = copy.deepcopy(good); d["compute"]["matrix_model"] = "tiled"
d["limits"] = {"smem_bytes_per_block_max": {"value": 232448, "source": "x"},
               "registers_per_unit": {"value": 65536, "source": "x"}}
write("tiled-no-tiles", d)
d["compute"]["cta_tiles"] = {"shapes": [[128, 0]], "source": "x"}; write("tiled-bad-tile", d)
# The operand widths a matrix unit reads transposed: a list of bit widths.
d = copy.deepcopy(good)
d["compute"].setdefault("matrix_unit", {"m": {"value": 64, "source": "x"}, "n": {"value": 256, "source": "x"}})
d["compute"]["matrix_unit"]["mn_major_bits"] = {"value": [16, 12], "source": "x"}
write("bad-mn-major-bits", d)
# Compiler properties (docs/targets.md): a family dfa does not ship must
# give them all; values and keys are checked.
d = copy.deepcopy(good); d["family"] = "fpga"; d["compiler"] = {"fusion": "magic"}; write("bad-fusion", d)
d = copy.deepcopy(good); d["compiler"] = {"plan": "dynamic", "timing": "cycle-exact"}; write("cycle-exact-dynamic", d)
d = copy.deepcopy(good); d["compiler"] = {"placement": "spatial", "timing": "cycle-exact"}; write("cycle-exact-spatial", d)
d = copy.deepcopy(good); d["compiler"] = {"fusoin": "none"}; write("misspelt-property", d)
d = copy.deepcopy(good); d["compiler"] = {"staging": "yes"}; write("staging-not-bool", d)
# Not broken: a family of the user's own whose properties are the tpu
# family's, which compiles exactly as the tpu family does; and a tpu whose
# fusion policy is overridden.
d = copy.deepcopy(good); d["family"] = "my-npu"
d["compiler"] = {"fusion": "xla", "tiling": "mxu", "placement": "shared", "plan": "static",
                 "timing": "events", "staging": True, "double_buffering": True,
                 "relayout_minor_dim": True,
                 "transpose_folding": True}
d["compute"]["matrix_model"] = "systolic"; write("new-family", d)
d = copy.deepcopy(good); d["compiler"] = {"fusion": "none"}; write("no-fusion", d)
# A description that stands for the host running the CPU reference.
d = copy.deepcopy(good); d["compiler"] = {"reference": True}; write("host-reference", d)
# Not broken: the same chip with an f16 accumulator (dfa-run's accumulator test).
d = copy.deepcopy(good); d["compute"]["accumulator"] = "f16"; write("f16-accumulator", d)
