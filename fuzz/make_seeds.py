#!/usr/bin/env python3
"""Writes the seed corpus of one fuzzer from the test suite's models.

usage: make_seeds.py NAME OUT_DIR BUILD_DIR
  onnx-import  the ONNX node-test models (libonnx-testdata), the hostile
               models of test/Import/Hostile and a small transformer
  fx-import    FX graphs exported from the test modules (dfa-export-fx)
               and the hostile graphs of test/Import/Hostile
  target       the shipped target descriptions
  topology-import  the SCALE-Sim topologies of test/Import/Topology
  scalesim-config  the SCALE-Sim configs of test/Target/Inputs
  trace        the traces test/tools/dfa-roofline/Inputs/gpu_trace.py writes
  requests     the request streams of test/tools/dfa-run/Inputs, and one
               written for the harness's signatures
  overrides    a shipped target's name and --set lines, one seed per
               kind of key (sourced numbers, strings, arrays, levels)
  sweep-spec   the specs of test/tools/dfa-sweep/Inputs, as JSON (first
               byte even) and YAML (odd)
  sched-run    schedules dfa-compile (from BUILD_DIR, a normal build)
               writes for small node-test models and the bisect inputs,
               on every target
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

name, out, build = sys.argv[1], sys.argv[2], sys.argv[3]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
py = "/usr/bin/python3"
node_tests = sorted(glob.glob("/usr/share/libonnx-testdata/data/node/*/model.onnx"))
os.makedirs(out, exist_ok=True)
work = tempfile.mkdtemp()


def keep(src, dst_name):
    shutil.copyfile(src, os.path.join(out, dst_name))


def quiet(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


if name == "onnx-import":
    for m in node_tests:
        keep(m, os.path.basename(os.path.dirname(m)) + ".onnx")
    quiet([py, os.path.join(root, "test/Import/Hostile/Inputs/make_onnx.py"), work])
    for m in glob.glob(os.path.join(work, "*.onnx")):
        keep(m, "hostile_" + os.path.basename(m))
    t = os.path.join(work, "gpt.onnx")
    quiet([py, os.path.join(root, "bench/make_transformer.py"), t, "--layers", "1",
           "--d-model", "32", "--seq", "8"])
    if os.path.exists(t):
        keep(t, "transformer.onnx")
elif name == "fx-import":
    quiet([py, os.path.join(root, "test/Import/Hostile/Inputs/make_fx.py"), work])
    for m in glob.glob(os.path.join(work, "fx", "*.fx.json")):
        keep(m, "hostile_" + os.path.basename(m))
    export = os.path.join(root, "tools/dfa-export-fx/dfa-export-fx")
    models = os.path.join(root, "test/Import/FX/Inputs/models.py")
    for factory, shape in [("net", "3,8"), ("masked", "3,8,8"), ("unsupported", "4,4")]:
        prefix = os.path.join(work, factory)
        quiet([py, export, models + ":" + factory, "--input-shape", shape, "-o", prefix])
        if os.path.exists(prefix + ".fx.json"):
            keep(prefix + ".fx.json", factory + ".fx.json")
    # Committed exports of the lit tests: a mixture of experts' dispatch
    # (histc, grouped products) and complex tensors (view_as_complex, polar).
    for rel in ["moe/moe.fx.json", "complex/rope.fx.json", "complex/rope-export.fx.json",
                "complex/spectral-export.fx.json"]:
        keep(os.path.join(root, "test/Import/FX/Inputs", rel), rel.replace("/", "_"))
    sys.path.insert(0, os.path.join(root, "test/models"))
    sys.path.insert(0, os.path.join(root, "tools/dfa-export-fx"))
    import torch_models  # noqa: E402
    import dfa_fx  # noqa: E402
    for model in ["mlp", "gpt_block", "mha", "resnet18"]:
        m, x = torch_models.build_extra(model)
        prefix = os.path.join(work, model)
        try:
            keep(dfa_fx.export(m, (x,), prefix), model + ".fx.json")
        except dfa_fx.ExportError:
            pass
elif name == "target":
    for t in glob.glob(os.path.join(root, "targets", "*.json")):
        keep(t, os.path.basename(t))
elif name == "overrides":
    seeds = {
        "units": "tpu-v5e\ncompute.units=2\n",
        "bandwidth": "gpu-h100\nmemory.HBM.bandwidth_bytes_per_s=6.7e12\nmemory.L2.capacity_bytes=1e8\n",
        "array": "tpu-v4\ncompute.matrix_unit.n=256\ncompute.systolic_model=scalesim-os\n",
        "index": "spyre\nmemory.0.latency_ns=200\nclock_hz=2e9\n",
        "layout": "tpu-v5e\nlayout.tile=[16, 128]\n",
        "wse": "wse-2\ncompute.units=1000\nmemory.1.capacity_bytes=98304\n",
        "groq": "groq-tsp\nnetwork.chip_to_chip.bandwidth_bytes_per_s=1e11\n",
    }
    for n, text in seeds.items():
        with open(os.path.join(out, n + ".txt"), "w") as f:
            f.write(text)
elif name == "sweep-spec":
    for t in glob.glob(os.path.join(root, "test/tools/dfa-sweep/Inputs/*")):
        kind = b"\x01" if t.endswith((".yaml", ".yml")) else b"\x00"
        with open(t, "rb") as f, open(os.path.join(out, os.path.basename(t)), "wb") as g:
            g.write(kind + f.read())
elif name == "topology-import":
    for t in glob.glob(os.path.join(root, "test/Import/Topology/Inputs/*.csv")) + \
            glob.glob(os.path.join(root, "test/Import/Topology/Inputs/bad/*.csv")):
        keep(t, os.path.basename(os.path.dirname(t)) + "_" + os.path.basename(t))
elif name == "scalesim-config":
    for t in glob.glob(os.path.join(root, "test/Target/Inputs/scalesim*/*.cfg")):
        keep(t, os.path.basename(os.path.dirname(t)) + "_" + os.path.basename(t))
elif name == "requests":
    for t in glob.glob(os.path.join(root, "test/tools/dfa-run/Inputs/*.jsonl")):
        keep(t, os.path.basename(t))
    seed = os.path.join(work, "decoder.jsonl")
    with open(seed, "w") as f:
        for n in (5, 17, 17, 64):
            f.write('{"shapes": {"tokens": [1, %d, 64], "mask": [1, 1, %d, %d], '
                    '"cache": [1, 4, 0, 16], "ids": [2, 3]}}\n' % (n, n, n))
    keep(seed, "decoder.jsonl")
elif name == "trace":
    gen = os.path.join(root, "test/tools/dfa-roofline/Inputs/gpu_trace.py")
    for flag in ("", "--kernels-only", "--cpu-only"):
        seed = os.path.join(work, "trace%s.json" % flag.replace("-", "_"))
        subprocess.run([sys.executable, gen, seed] + ([flag] if flag else []), check=True)
        keep(seed, os.path.basename(seed))
elif name == "sched-run":
    compile_ = os.path.join(build, "bin", "dfa-compile")
    small = [m for m in node_tests if os.path.getsize(m) < 400][::12]
    small += sorted(glob.glob(os.path.join(root, "test/tools/dfa-bisect/Inputs/*.mlir")))
    for m in small:
        base = os.path.basename(os.path.dirname(m)) if m.endswith("model.onnx") else \
            os.path.basename(m).split(".")[0]
        d = os.path.join(work, base)
        p = quiet([compile_, m, "--target", "all", "-o", d])
        if p.returncode != 0:
            continue
        for s in glob.glob(os.path.join(d, "*.sched.mlir")):
            if os.path.getsize(s) < 256 * 1024:
                keep(s, base + "." + os.path.basename(s))
    # A program over several chips whose inputs arrive on different chips
    # (input_chips): a decode step with a KV cache on 512 KiB LPU chips.
    # Its weights stay in the build folder, where the schedule reads them.
    os.makedirs(os.path.join(build, "fuzz"), exist_ok=True)
    kv = os.path.join(build, "fuzz", "kv.onnx")
    subprocess.run([sys.executable, os.path.join(root, "bench/make_transformer.py"), kv,
                    "--layers", "2", "--d-model", "64", "--heads", "2", "--ffn", "128",
                    "--kv-cache", "--random-weights", "1"], check=True, capture_output=True)
    sched = os.path.join(work, "kv.sched.mlir")
    if subprocess.run([compile_, kv, "--target", "groq-tsp", "--set",
                       "memory.SRAM.capacity_bytes=524288", "--dim", "batch=1",
                       "--dim", "seq=1", "--dim", "past=20", "-o", sched],
                      capture_output=True).returncode == 0:
        keep(sched, "kv.groq-tsp-512k.sched.mlir")
    # A result larger than a chip keeps, streamed to the host's memory (a
    # buffer in the level "host").
    host = os.path.join(work, "host-results.sched.mlir")
    if subprocess.run([compile_, os.path.join(
            root, "test/Conversion/GraphToSched/convert-graph-to-sched-host-results.mlir"),
            "--target", "groq-tsp", "--set", "memory.SRAM.capacity_bytes=524288",
            "-o", host], capture_output=True).returncode == 0:
        keep(host, "host-results.groq-tsp-512k.sched.mlir")
    # A result assembled in the host's memory from pieces on two chips
    # (out_offsets): an LM head split across chips. Its weights stay in
    # the build folder too.
    shard = os.path.join(build, "fuzz", "shard")
    subprocess.run([sys.executable, os.path.join(
        root, "test/Transforms/Inputs/make_shard_models.py"), shard],
        check=True, capture_output=True)
    assembled = os.path.join(work, "assembled.sched.mlir")
    if subprocess.run([compile_, os.path.join(shard, "head.onnx"), "--target", "groq-tsp",
                       "--set", "memory.SRAM.capacity_bytes=524288", "-o", assembled],
                      capture_output=True).returncode == 0:
        keep(assembled, "assembled.groq-tsp-512k.sched.mlir")
else:
    sys.exit("make_seeds.py: unknown fuzzer '%s'" % name)
print("make_seeds.py: %s: %d seeds in %s" % (name, len(os.listdir(out)), out))
shutil.rmtree(work)
