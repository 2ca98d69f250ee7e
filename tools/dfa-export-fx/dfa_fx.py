"""dfa_fx: export a torch.nn.Module to dfa's FX graph format (dfa.fx/1).

The graph goes to ``<out>.fx.json`` and the parameters and buffers to
``<out>.weights.bin``: raw little-endian tensors at the byte offsets the JSON
gives, or, with ``compress=True``, one zstd frame per tensor. The format is
specified in docs/fx-format.md.

    import dfa_fx
    dfa_fx.export(model, (torch.randn(1, 3, 224, 224),), "out/resnet")

The graph is captured with ``torch.fx.symbolic_trace`` followed by shape
propagation on the example inputs (what Debian's torch 1.13 has, and what
torch 2.x keeps); the aten-level graphs of ``torch.export`` are not mapped
yet.
"""

import contextlib
import dis
import inspect
import json
import operator
import os
import traceback

import torch
import torch.fx
from torch.fx.node import _get_qualified_name

SCHEMA = "dfa.fx/1"

_DTYPES = {
    torch.float64: "float64", torch.float32: "float32", torch.float16: "float16",
    torch.bfloat16: "bfloat16", torch.int64: "int64", torch.int32: "int32",
    torch.int16: "int16", torch.int8: "int8", torch.uint8: "uint8", torch.bool: "bool",
}

# Module attributes the importer needs, by module class name.
_MODULE_ATTRS = {
    "Linear": ["in_features", "out_features"],
    "Conv1d": ["stride", "padding", "dilation", "groups", "padding_mode"],
    "Conv2d": ["stride", "padding", "dilation", "groups", "padding_mode"],
    "BatchNorm1d": ["eps", "affine", "track_running_stats"],
    "BatchNorm2d": ["eps", "affine", "track_running_stats"],
    "LayerNorm": ["normalized_shape", "eps", "elementwise_affine"],
    "Embedding": ["num_embeddings", "embedding_dim", "padding_idx"],
    "Dropout": ["p"],
    "GELU": ["approximate"],
    "Softmax": ["dim"],
    "LogSoftmax": ["dim"],
    "LeakyReLU": ["negative_slope"],
    "Hardtanh": ["min_val", "max_val"],
    "ReLU6": [],
    "MaxPool2d": ["kernel_size", "stride", "padding", "dilation", "ceil_mode"],
    "AvgPool2d": ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad"],
    "AdaptiveAvgPool2d": ["output_size"],
    "Flatten": ["start_dim", "end_dim"],
    "MultiheadAttention": ["embed_dim", "num_heads", "batch_first", "dropout"],
}


class ExportError(Exception):
    """An export failure with the module and the reason."""


def _dtype(dt, where):
    if dt not in _DTYPES:
        raise ExportError("%s has unsupported dtype %s (dfa supports %s)"
                          % (where, dt, ", ".join(sorted(_DTYPES.values()))))
    return _DTYPES[dt]


def _meta(val, where):
    """Tensor metadata (or a list of it for tuple results)."""
    if isinstance(val, torch.Tensor):
        # An intermediate of a dtype dfa lacks is recorded as torch names it;
        # the importer reports it at the node that needs it.
        dt = _DTYPES.get(val.dtype, str(val.dtype).replace("torch.", ""))
        return {"shape": list(val.shape), "dtype": dt, "stride": list(val.stride())}
    if isinstance(val, (tuple, list)) and any(isinstance(v, torch.Tensor) for v in val):
        return [_meta(v, where) for v in val]
    return None


def _encode(arg):
    """JSON for an FX argument: node references, literals and containers."""
    if isinstance(arg, torch.fx.Node):
        return {"node": arg.name}
    if arg is None or isinstance(arg, (bool, int, float, str)):
        if isinstance(arg, float) and (arg != arg or arg in (float("inf"), float("-inf"))):
            return {"float": repr(arg)}
        return arg
    if isinstance(arg, (list, tuple)):
        return [_encode(a) for a in arg]
    if isinstance(arg, dict):
        return {"dict": {str(k): _encode(v) for k, v in arg.items()}}
    if isinstance(arg, slice):
        return {"slice": [_encode(arg.start), _encode(arg.stop), _encode(arg.step)]}
    if arg is Ellipsis:
        return {"ellipsis": True}
    if isinstance(arg, torch.dtype):
        return {"dtype": _dtype(arg, "argument")}
    if isinstance(arg, (torch.device, torch.memory_format, torch.layout)):
        return {"opaque": str(arg)}
    raise ExportError("cannot encode argument %r of type %s" % (arg, type(arg).__name__))


class _Recorder(torch.fx.Interpreter):
    """Runs the graph on the example inputs, recording each node's value
    metadata, and names the node (and module) that fails."""

    def __init__(self, gm):
        super().__init__(gm)
        self.meta = {}

    def run_node(self, n):
        try:
            result = super().run_node(n)
        except ExportError:
            raise
        except Exception as e:  # torch raises many types; keep its message
            where = "node '%s'" % n.name
            if n.op == "call_module":
                mod = self.module.get_submodule(n.target)
                where = "module '%s' (%s)" % (n.target, type(mod).__name__)
            msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ExportError("%s failed on the example inputs: %s" % (where, msg))
        self.meta[n.name] = _meta(result, "node '%s'" % n.name)
        return result


def _stack(node):
    trace = node.meta.get("stack_trace")
    if not trace:
        return None
    lines = [l.strip() for l in trace.strip().splitlines() if l.strip().startswith("File")]
    return lines[-1] if lines else None


@contextlib.contextmanager
def _unpacking_fix():
    """torch < 2.0 finds the UNPACK_SEQUENCE of `a, b = proxy` by indexing
    the instruction list with f_lasti // 2, which Python 3.11's inline
    caches break; look the instruction up by its offset instead."""
    Proxy = torch.fx.proxy.Proxy
    original = Proxy.__iter__

    def __iter__(self):
        frame = inspect.currentframe().f_back
        for inst in dis.get_instructions(frame.f_code):
            if inst.offset == frame.f_lasti:
                if inst.opname == "UNPACK_SEQUENCE":
                    return (self[i] for i in range(inst.argval))
                break
        return self.tracer.iter(self)

    patch = tuple(int(v) for v in torch.__version__.split(".")[:2]) < (2, 0)
    if patch:
        Proxy.__iter__ = __iter__
    try:
        yield
    finally:
        if patch:
            Proxy.__iter__ = original


class _Tracer(torch.fx.Tracer):
    """symbolic_trace's tracer, but buffers read in forward become get_attr
    nodes too (torch < 2.0 proxies parameters only), so that shape code can
    slice them (self.mask[:, :, :t, :t])."""

    def getattr(self, attr, attr_val, parameter_proxy_cache):
        if isinstance(attr_val, torch.Tensor) and not isinstance(attr_val, torch.nn.Parameter):
            for name, buf in self.root.named_buffers():
                if attr_val is buf:
                    if name not in parameter_proxy_cache:
                        parameter_proxy_cache[name] = self.create_proxy("get_attr", name, (), {})
                    return parameter_proxy_cache[name]
        return super().getattr(attr, attr_val, parameter_proxy_cache)


def _trace(module, root_name):
    try:
        with _unpacking_fix():
            tracer = _Tracer()
            graph = tracer.trace(module)
            return torch.fx.GraphModule(tracer.root, graph, root_name)
    except torch.fx.proxy.TraceError as e:
        raise ExportError("module '%s' (%s) cannot be traced: %s (data-dependent "
                          "control flow: make the branch a static choice or "
                          "mark the function torch.fx.wrap)"
                          % (root_name, type(module).__name__, e))
    except Exception as e:
        raise ExportError("module '%s' (%s) cannot be traced: %s"
                          % (root_name, type(module).__name__, e))


def export(module, example_inputs, out, *, compress=False, method="auto"):
    """Exports `module` run on `example_inputs` (a tuple of tensors) to
    `out`.fx.json and `out`.weights.bin. Returns the JSON path."""
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    root_name = type(module).__name__
    # The importer maps symbolic_trace graphs (torch-level targets). torch 2.x
    # still has symbolic_trace, so "auto" uses it everywhere; the aten-level
    # graphs of torch.export are not mapped yet.
    if method == "export":
        raise ExportError("method 'export' (torch.export, aten-level graphs) is "
                          "not supported by this dfa version; torch here is %s"
                          % torch.__version__)
    if method not in ("auto", "symbolic_trace"):
        raise ExportError("unknown capture method '%s'" % method)
    module = module.eval()
    for i, x in enumerate(example_inputs):
        if not isinstance(x, torch.Tensor):
            raise ExportError("example input %d is a %s, not a tensor" % (i, type(x).__name__))
        _dtype(x.dtype, "example input %d" % i)
    gm = _trace(module, root_name)

    # Parameters and buffers, in state-dict order.
    named = list(gm.named_parameters()) + list(gm.named_buffers())
    tensors, blobs, offset = {}, [], 0
    cctx = None
    if compress:
        import zstandard
        cctx = zstandard.ZstdCompressor(level=3)
    for name, t in named:
        dt = _dtype(t.dtype, "parameter '%s'" % name)
        data = t.detach().contiguous().cpu().numpy().tobytes()
        entry = {"dtype": dt, "shape": list(t.shape), "offset": offset, "nbytes": len(data)}
        if cctx is not None:
            data = cctx.compress(data)
            entry["stored_bytes"] = len(data)
        tensors[name] = entry
        blobs.append(data)
        offset += len(data)

    rec = _Recorder(gm)
    try:
        with torch.no_grad():
            rec.run(*example_inputs)
    except ExportError as e:
        # torch.fx appends the node's trace to the message; keep ours.
        raise ExportError(str(e).split("\n\nWhile executing")[0].strip()) from None

    modules = {}
    nodes = []
    for n in gm.graph.nodes:
        entry = {"name": n.name, "op": n.op}
        if n.op == "call_function":
            entry["target"] = _get_qualified_name(n.target)
        elif n.op in ("call_module", "get_attr", "call_method", "placeholder"):
            entry["target"] = str(n.target)
        entry["args"] = _encode(n.args)
        entry["kwargs"] = {k: _encode(v) for k, v in n.kwargs.items()}
        if n.op == "call_module":
            mod = gm.get_submodule(n.target)
            kind = type(mod).__name__
            entry["module_type"] = "%s.%s" % (type(mod).__module__, kind)
            if n.target not in modules:
                attrs = {}
                for a in _MODULE_ATTRS.get(kind, []):
                    v = getattr(mod, a)
                    attrs[a] = list(v) if isinstance(v, tuple) else v
                params = {p: "%s.%s" % (n.target, p)
                          for p, _ in list(mod.named_parameters()) +
                          list(mod.named_buffers())}
                modules[n.target] = {"type": kind, "attrs": attrs, "tensors": params}
        entry["module_path"] = n.target if n.op == "call_module" else \
            n.meta.get("nn_module_stack", None) and list(n.meta["nn_module_stack"])[-1]
        if entry["module_path"] is None:
            del entry["module_path"]
        meta = rec.meta.get(n.name)
        if meta is not None:
            entry["meta"] = meta
        stack = _stack(n)
        if stack:
            entry["stack"] = stack
        nodes.append(entry)

    doc = {
        "schema": SCHEMA,
        "producer": {"torch": torch.__version__, "method": "symbolic_trace",
                     "module": root_name},
        "weights": {"file": os.path.basename(out) + ".weights.bin",
                    "compression": "zstd" if compress else "none",
                    "byte_order": "little"},
        "tensors": tensors,
        "modules": modules,
        "nodes": nodes,
    }
    d = os.path.dirname(os.path.abspath(out))
    os.makedirs(d, exist_ok=True)
    with open(out + ".weights.bin", "wb") as f:
        for b in blobs:
            f.write(b)
    path = out + ".fx.json"
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")
    return path
