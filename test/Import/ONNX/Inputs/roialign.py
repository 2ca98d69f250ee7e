#!/usr/bin/env python3
"""A RoiAlign model and its expected output, the latter computed here with
numpy in float32 one operation at a time, as ONNX's reference does (so that
the test needs no onnx.reference, which Debian's onnx 1.12 lacks).

usage: roialign.py OUTDIR MODE SAMPLING_RATIO CTM N R
  writes OUTDIR/model.onnx, x.npy, rois.npy, batch.npy, want.npy
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

f32 = np.float32


def axis(v, size):
    """Two positions and weights along one axis (0 outside [-1, size])."""
    if v < -1.0 or v > size:
        return (0, 0), (f32(0), f32(0))
    v = max(v, f32(0))
    lo = int(v)
    if lo >= size - 1:
        lo = hi = size - 1
        v = f32(lo)
    else:
        hi = lo + 1
    l = f32(v - f32(lo))
    return (lo, hi), (f32(f32(1) - l), l)


def roi_align(x, rois, batch, oh, ow, ratio, scale, half, mode):
    n, c, h, w = x.shape
    out = np.zeros((len(rois), c, oh, ow), f32)
    off = f32(0.5) if half else f32(0)
    scale = f32(scale)
    for r, (roi, b) in enumerate(zip(rois, batch)):
        x0, y0 = f32(roi[0] * scale - off), f32(roi[1] * scale - off)
        x1, y1 = f32(roi[2] * scale - off), f32(roi[3] * scale - off)
        rw, rh = f32(x1 - x0), f32(y1 - y0)
        if not half:
            rw, rh = max(rw, f32(1)), max(rh, f32(1))
        bh, bw = f32(rh / f32(oh)), f32(rw / f32(ow))
        gh = ratio if ratio > 0 else int(np.ceil(f32(rh / f32(oh))))
        gw = ratio if ratio > 0 else int(np.ceil(f32(rw / f32(ow))))
        count = max(gh * gw, 1)
        for ph in range(oh):
            for pw in range(ow):
                vals = []
                for iy in range(gh):
                    yy = f32(f32(y0 + f32(f32(ph) * bh)) + f32(f32(f32(iy + 0.5) * bh) / f32(gh)))
                    for ix in range(gw):
                        xx = f32(f32(x0 + f32(f32(pw) * bw)) + f32(f32(f32(ix + 0.5) * bw) / f32(gw)))
                        (ylo, yhi), (wy0, wy1) = axis(yy, h)
                        (xlo, xhi), (wx0, wx1) = axis(xx, w)
                        corners = [(ylo, xlo, wy0 * wx0), (ylo, xhi, wy0 * wx1),
                                   (yhi, xlo, wy1 * wx0), (yhi, xhi, wy1 * wx1)]
                        vals.append([f32(wt) * x[b, :, yy_, xx_] for yy_, xx_, wt in corners])
                if not vals:
                    continue
                v = np.array(vals, f32)  # [samples, 4, c]
                if mode == "avg":
                    out[r, :, ph, pw] = v.sum(axis=(0, 1), dtype=np.float64) / count
                else:
                    out[r, :, ph, pw] = v.max(axis=1).max(axis=0)
    return out


def main():
    outdir, mode, ratio, ctm, n, r = sys.argv[1:7]
    ratio, n, r = int(ratio), int(n), int(r)
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((n, 3, 9, 11)).astype(f32)
    boxes = [[1.3, 2.2, 7.7, 6.1], [0, 0, 10, 8], [5.5, 3.1, 6.0, 3.2],
             [-3, -2, 14, 12], [2, 2, 9, 9]]
    rois = np.array(boxes[:r], f32).reshape(r, 4)
    batch = np.array([(3 * i + 2) % n for i in range(r)], np.int64)
    oh, ow, scale = 3, 4, 0.9
    node = helper.make_node("RoiAlign", ["x", "rois", "batch"], ["y"], mode=mode,
                            output_height=oh, output_width=ow, sampling_ratio=ratio,
                            spatial_scale=scale, coordinate_transformation_mode=ctm)
    g = helper.make_graph(
        [node], "roialign",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape)),
         helper.make_tensor_value_info("rois", TensorProto.FLOAT, [r, 4]),
         helper.make_tensor_value_info("batch", TensorProto.INT64, [r])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 16)]),
              os.path.join(outdir, "model.onnx"))
    np.save(os.path.join(outdir, "x.npy"), x)
    np.save(os.path.join(outdir, "rois.npy"), rois)
    np.save(os.path.join(outdir, "batch.npy"), batch)
    want = roi_align(x, rois, batch, oh, ow, ratio, scale, ctm == "half_pixel", mode)
    np.save(os.path.join(outdir, "want.npy"), want)


if __name__ == "__main__":
    main()
