"""dfa-export-fx: export a PyTorch module to dfa's FX graph format.

usage: dfa-export-fx FILE.py:FACTORY --input-shape 1,3,224,224 [--input-shape ...]
                     [--input-dtype float32] [--method auto|symbolic_trace|export]
                     [--dynamic-dim I:D=NAME[:MIN:MAX] ...] -o OUT [--compress]

FACTORY is a function (or class) in FILE.py that returns the module; it is
called with no arguments. Writes OUT.fx.json and OUT.weights.bin.
Exit codes: 0 ok, 2 usage (or no Python with torch: the launcher), 3 the
module cannot be exported (the message names the module and the reason), 5 a
file cannot be read or written.

Run through the `dfa-export-fx` launcher, which picks the interpreter.
"""
import argparse
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))


class _Version(argparse.Action):
    """--version names the torch the exporter runs with (lit's torch-export
    feature reads it)."""

    def __call__(self, parser, namespace, values, option_string=None):
        import torch
        print("dfa-export-fx 0.1.0 (torch %s)" % torch.__version__)
        parser.exit()


def main():
    ap = argparse.ArgumentParser(prog="dfa-export-fx",
                                 description="Export a torch.nn.Module to dfa.fx/1")
    ap.add_argument("factory", help="FILE.py:FUNCTION returning the module")
    ap.add_argument("--input-shape", action="append", required=True,
                    help="shape of one example input, e.g. 1,3,224,224 (repeat per input)")
    ap.add_argument("--input-dtype", action="append", default=[],
                    help="dtype of each input (default float32; int64 inputs get values in [0, 8))")
    ap.add_argument("-o", "--output", required=True, help="output prefix")
    ap.add_argument("--compress", action="store_true", help="zstd-compress each weight")
    ap.add_argument("--seed", type=int, default=0, help="seed for the example inputs")
    ap.add_argument("--method", choices=["auto", "symbolic_trace", "export"], default="auto",
                    help="capture: torch.fx.symbolic_trace, torch.export to core ATen, or "
                         "auto (symbolic_trace, torch.export where tracing fails)")
    ap.add_argument("--dynamic-dim", action="append", default=[], metavar="I:D=NAME[:MIN:MAX]",
                    help="with --method export: dim D of input I is the symbolic size NAME "
                         "(a torch.export.Dim, range MIN..MAX); repeat per dim")
    ap.add_argument("--version", action=_Version, nargs=0,
                    help="print the version and the torch it runs with, and exit")
    args = ap.parse_args()

    import torch
    import dfa_fx

    path, _, fn = args.factory.rpartition(":")
    if not path or not fn:
        ap.error("factory must be FILE.py:FUNCTION")
    if not os.path.exists(path):
        print("dfa-export-fx: error: cannot read '%s'" % path, file=sys.stderr)
        return 5
    spec = importlib.util.spec_from_file_location("dfa_user_module", path)
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
        factory = getattr(mod, fn)
    except AttributeError:
        print("dfa-export-fx: error: '%s' defines no '%s'" % (path, fn), file=sys.stderr)
        return 2
    torch.manual_seed(args.seed)
    inputs = []
    for i, s in enumerate(args.input_shape):
        try:
            shape = [int(d) for d in s.split(",")]
        except ValueError:
            ap.error("--input-shape expects D0,D1,..., got '%s'" % s)
        dt = args.input_dtype[i] if i < len(args.input_dtype) else "float32"
        dtype = getattr(torch, dt, None)
        if not isinstance(dtype, torch.dtype):
            ap.error("unknown dtype '%s'" % dt)
        if dtype.is_floating_point:
            inputs.append(torch.randn(shape).to(dtype))
        else:
            inputs.append(torch.randint(0, 8, shape, dtype=dtype))
    dynamic = None
    if args.dynamic_dim:
        if args.method != "export":
            ap.error("--dynamic-dim needs --method export")
        dynamic = [dict() for _ in inputs]
        dims = {}
        for spec in args.dynamic_dim:
            try:
                where, _, rest = spec.partition("=")
                i, d = (int(v) for v in where.split(":"))
                parts = rest.split(":")
                name = parts[0]
                lo = int(parts[1]) if len(parts) > 1 and parts[1] else None
                hi = int(parts[2]) if len(parts) > 2 and parts[2] else None
                if not name.isidentifier() or len(parts) > 3:
                    raise ValueError
            except ValueError:
                ap.error("--dynamic-dim expects INPUT:DIM=NAME[:MIN:MAX], got '%s'" % spec)
            if not 0 <= i < len(inputs) or not 0 <= d < len(inputs[i].shape):
                ap.error("--dynamic-dim '%s': input %d has no dim %d" % (spec, i, d))
            if name not in dims:
                kw = {k: v for k, v in (("min", lo), ("max", hi)) if v is not None}
                dims[name] = torch.export.Dim(name, **kw)
            dynamic[i][d] = dims[name]
        dynamic = tuple(x or None for x in dynamic)
    try:
        module = factory()
        out = dfa_fx.export(module, tuple(inputs), args.output, compress=args.compress,
                            method=args.method, dynamic_shapes=dynamic)
    except dfa_fx.ExportError as e:
        print("dfa-export-fx: error: %s" % e, file=sys.stderr)
        return 3
    except OSError as e:
        print("dfa-export-fx: error: %s" % e, file=sys.stderr)
        return 5
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
