#!/usr/bin/env python3
"""Writes the node tests of the installed `onnx` package as test data.

The onnx wheel ships its node tests as Python cases
(onnx/backend/test/case/node), not as the model.onnx + test_data_set_N
directories that Debian's libonnx-testdata holds for ONNX 1.12. This writes
them in that layout, under OUT/node/<test>, so run_conformance.py runs both
suites alike:

    make_onnx_node_data.py OUT

It runs with the project's environment (scripts/pyenv.sh), whose onnx is
pinned. It is idempotent: OUT/VERSION names the onnx version the data was
made with, and nothing is rewritten when it matches. Exit 0 on success, 2
when onnx cannot be imported.
"""
import os
import shutil
import sys
import warnings


def write_value(path, value, type_proto, name):
    from onnx import TensorProto, numpy_helper
    if isinstance(value, TensorProto):
        data = value.SerializeToString()
    elif type_proto.HasField("sequence_type"):
        data = numpy_helper.from_list(value, name).SerializeToString()
    elif type_proto.HasField("optional_type"):
        data = numpy_helper.from_optional(value, name).SerializeToString()
    elif type_proto.HasField("map_type"):
        data = numpy_helper.from_dict(value, name).SerializeToString()
    else:
        data = numpy_helper.from_array(value, name).SerializeToString()
    with open(path, "wb") as f:
        f.write(data)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_onnx_node_data.py OUT")
    out = sys.argv[1]
    try:
        import onnx
        import onnx.backend.test.case.node as node_cases
    except ImportError as e:
        print("make_onnx_node_data.py: cannot import onnx (%s); run scripts/pyenv.sh" % e,
              file=sys.stderr)
        sys.exit(2)
    stamp = os.path.join(out, "VERSION")
    version = "onnx %s, opset %d\n" % (onnx.__version__, onnx.defs.onnx_opset_version())
    if os.path.exists(stamp) and open(stamp).read() == version:
        return
    node_dir = os.path.join(out, "node")
    if os.path.exists(node_dir):
        shutil.rmtree(node_dir)
    # The cases compute their expected outputs with numpy, some on purpose
    # from a division by zero; their warnings are not ours.
    warnings.simplefilter("ignore")
    cases = node_cases.collect_testcases()
    for case in cases:
        test = os.path.join(node_dir, case.name)
        os.makedirs(test)
        with open(os.path.join(test, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        graph = case.model.graph
        for i, (inputs, outputs) in enumerate(case.data_sets):
            ds = os.path.join(test, "test_data_set_%d" % i)
            os.makedirs(ds)
            for j, v in enumerate(inputs):
                write_value(os.path.join(ds, "input_%d.pb" % j), v, graph.input[j].type,
                            graph.input[j].name)
            for j, v in enumerate(outputs):
                write_value(os.path.join(ds, "output_%d.pb" % j), v, graph.output[j].type,
                            graph.output[j].name)
    with open(stamp, "w") as f:
        f.write(version)
    print("make_onnx_node_data.py: %d node tests of %s" % (len(cases), version.strip()))


if __name__ == "__main__":
    main()
