#!/usr/bin/env python3
"""onnx_plugin_rows.py: one single-node ONNX model per attribute- or input-dependent row of the
one-to-many plugins of rules/onnx.rules (Resize 10 and 11-18, Upsample, Slice 8-9, MaxPool
big kernel / 1-D / storage_order, ArgMin, BitShift, Min, Pad, ReduceLogSumExp/Max/Min/Prod/LogSum),
and the plugins spelled out node by node (LpNormalization, ThresholdedRelu, Xor, OneHot, Multinomial, Bernoulli, Col2Im,
EyeLike, LpPool, MaxUnpool, Unique),
written with python3-onnx into the current directory for t/t1108-onnx-plugin-rows.sh. Each
node is named as the test expects (rs, up, sl, mp, am, bs, mn, pd, rd)."""
import sys, onnx
from onnx import helper as h, TensorProto as T
def vi(n, shape): return h.make_tensor_value_info(n, T.FLOAT, shape)
def save(name, node, ins, opset, inits=()):
    g = h.make_graph([node], name, [vi(i, [1, 3, 32, 32]) for i in ins], [vi(node.output[0], None)], initializer=list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    onnx.save(m, name + ".onnx")
f = lambda n, v: h.make_tensor(n, T.FLOAT, [len(v)], v)
i64 = lambda n, v: h.make_tensor(n, T.INT64, [len(v)], v)
sc = [f("sc", [1, 1, 2, 2])]; roi = [f("roi", [])]; sz = [i64("sz", [1, 3, 64, 64])]
R = lambda ins, **a: h.make_node("Resize", ins, ["y"], name="rs", **a)
save("resize10_nearest", R(["x", "sc"]), ["x"], 10, sc)
save("resize10_linear", R(["x", "sc"], mode="linear"), ["x"], 10, sc)
save("resize10_cubic", R(["x", "sc"], mode="cubic"), ["x"], 10, sc)
save("resize13_nearest_scales", R(["x", "", "sc"], mode="nearest"), ["x"], 13, sc)
save("resize11_nearest_roi_scales", R(["x", "roi", "sc"]), ["x"], 11, sc + roi)
save("resize13_nearest_sizes", R(["x", "", "", "sz"], mode="nearest"), ["x"], 13, sz)
save("resize11_nearest_all", R(["x", "roi", "sc", "sz"], mode="nearest"), ["x"], 11, sc + roi + sz)
save("resize13_linear_scales", R(["x", "", "sc"], mode="linear"), ["x"], 13, sc)
save("resize11_cubic_roi_sizes", R(["x", "roi", "", "sz"], mode="cubic"), ["x"], 11, roi + sz)
save("resize13_area", R(["x", "", "sc"], mode="area"), ["x"], 13, sc)
U = lambda **a: h.make_node("Upsample", ["x", "sc"], ["y"], name="up", **a)
save("upsample9_nearest", U(), ["x"], 9, sc)
save("upsample9_linear", U(mode="linear"), ["x"], 9, sc)
save("upsample9_bilinear", U(mode="bilinear"), ["x"], 9, sc)
S = lambda **a: h.make_node("Slice", ["x"], ["y"], name="sl", **a)
save("slice9_axes", S(starts=[0], ends=[2], axes=[1]), ["x"], 9)
save("slice9", S(starts=[0, 0], ends=[1, 2]), ["x"], 9)
save("slice9_nostarts", S(ends=[1]), ["x"], 9)
st = [i64("st", [0]), i64("en", [2])]
save("slice13", h.make_node("Slice", ["x", "st", "en"], ["y"], name="sl"), ["x"], 13, st)
M = lambda **a: h.make_node("MaxPool", ["x"], ["y"], name="mp", **a)
save("maxpool_small", M(kernel_shape=[3, 3]), ["x"], 13)
save("maxpool_255", M(kernel_shape=[15, 17]), ["x"], 13)
save("maxpool_big", M(kernel_shape=[16, 16]), ["x"], 13)
save("maxpool_big_pads", M(kernel_shape=[16, 16], pads=[1, 1, 1, 1]), ["x"], 13)
save("maxpool_stride", M(kernel_shape=[2, 2], strides=[64, 1]), ["x"], 13)
save("maxpool_1d_big", M(kernel_shape=[300], pads=[0, 2]), ["x"], 13)
save("maxpool_1d", M(kernel_shape=[3]), ["x"], 13)
save("maxpool_storage", M(kernel_shape=[3, 3], storage_order=1), ["x"], 13)
# the rest of the attribute- and input-dependent rows: ArgMin by keepdims, BitShift by
# direction (int inputs), Min by input count, Pad 10 by mode and 11+, the Reduce ops
# (LogSumExp, Max, Min, Prod, LogSum) at opset 12 and at 13 with the axes as attribute or input
AM = lambda **a: h.make_node("ArgMin", ["x"], ["y"], name="am", **a)
save("argmin_keep0", AM(axis=1, keepdims=0), ["x"], 13)
save("argmin_keep1", AM(axis=1), ["x"], 13)
def save_int(name, node, ins, opset):
    g = h.make_graph([node], name, [h.make_tensor_value_info(i, T.UINT32, [4]) for i in ins],
                     [h.make_tensor_value_info(node.output[0], T.UINT32, None)])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", opset)]), name + ".onnx")
save_int("bitshift_right", h.make_node("BitShift", ["x", "s"], ["y"], name="bs", direction="RIGHT"), ["x", "s"], 11)
save_int("bitshift_left", h.make_node("BitShift", ["x", "s"], ["y"], name="bs", direction="LEFT"), ["x", "s"], 11)
for k in (1, 2, 3, 4):
    ins = ["x%d" % i for i in range(k)]
    save("min%d" % k, h.make_node("Min", ins, ["y"], name="mn"), ins, 13)
P = lambda **a: h.make_node("Pad", ["x"], ["y"], name="pd", pads=[0, 0, 1, 1, 0, 0, 1, 1], **a)
save("pad10_reflect", P(mode="reflect"), ["x"], 10)
save("pad10_constant", P(), ["x"], 10)
save("pad11", h.make_node("Pad", ["x", "p"], ["y"], name="pd"), ["x"], 11, [i64("p", [0, 0, 1, 1, 0, 0, 1, 1])])
for op in ("ReduceLogSumExp", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceLogSum"):
    low = op[6:].lower()
    save("reduce%s12" % low, h.make_node(op, ["x"], ["y"], name="rd", axes=[1]), ["x"], 12)
    save("reduce%s13_attr" % low, h.make_node(op, ["x"], ["y"], name="rd", axes=[1]), ["x"], 13)
    save("reduce%s18_input" % low, h.make_node(op, ["x", "ax"], ["y"], name="rd"), ["x"], 18, [i64("ax", [1])])
# the plugins whose Consts rules/onnx.rules gives a dtype (`output "DTYPE" [DIMS]`) that the
# models above do not cover: Clip 9 (bounds attributes), GlobalMaxPool, Gather, TopK 9,
# Transpose, Split 11 with split, ConvTranspose 2-D, LayerNormalization without beta, and
# ConstantOfShape (whose _data1 gets no dtype: the plugin takes it from the value attribute)
def const_dtypes():
    save("clip9", h.make_node("Clip", ["x"], ["y"], name="cl", min=0.0, max=6.0), ["x"], 9)
    save("globalmaxpool", h.make_node("GlobalMaxPool", ["x"], ["y"], name="gm"), ["x"], 13)
    save("gather13", h.make_node("Gather", ["x", "ix"], ["y"], name="ga", axis=1), ["x"], 13, [i64("ix", [0, 2])])
    save("topk9", h.make_node("TopK", ["x"], ["y", "i"], name="tk", k=2), ["x"], 9)
    save("transpose13", h.make_node("Transpose", ["x"], ["y"], name="tp", perm=[0, 2, 3, 1]), ["x"], 13)
    save("split11", h.make_node("Split", ["x"], ["y", "z"], name="sp", axis=1, split=[1, 2]), ["x"], 11)
    w = h.make_tensor("w", T.FLOAT, [3, 4, 3, 3], [0.0] * 108)
    save("convtranspose13", h.make_node("ConvTranspose", ["x", "w"], ["y"], name="ct", kernel_shape=[3, 3]), ["x"], 13, [w])
    g = h.make_tensor("g", T.FLOAT, [32], [1.0] * 32)
    save("layernorm17", h.make_node("LayerNormalization", ["x", "g"], ["y"], name="ln", axis=-1), ["x"], 17, [g])
    v = h.make_tensor("v", T.INT32, [1], [7])
    sh = i64("sh", [2, 3])
    g2 = h.make_graph([h.make_node("ConstantOfShape", ["sh"], ["y"], name="cs", value=v)], "constantofshape",
                      [], [vi("y", None)], initializer=[sh])
    onnx.save(h.make_model(g2, opset_imports=[h.make_opsetid("", 13)]), "constantofshape13.onnx")
const_dtypes()
# the random ops (ops-math random_normal, random_uniform, random_normal_like and
# random_uniform_like plugins): RandomNormal by dtype (none, float16, and int32, which the plugin
# refuses) and without shape (refused), RandomUniform by dtype (none: floats; int32: the int
# branch), the Like ops with and without dtype, each node's output read by nothing else
def random_ops():
    def save0(name, node, out_type):
        g = h.make_graph([node], name, [], [h.make_tensor_value_info(node.output[0], out_type, None)])
        onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), name + ".onnx")
    RN = lambda **a: h.make_node("RandomNormal", [], ["y"], name="rn", **a)
    save0("randomnormal", RN(shape=[2, 3]), T.FLOAT)
    save0("randomnormal_f16", RN(shape=[2, 3], dtype=10), T.FLOAT16)
    save0("randomnormal_i32", RN(shape=[2, 3], dtype=6), T.INT32)
    save0("randomnormal_noshape", RN(), T.FLOAT)
    RU = lambda **a: h.make_node("RandomUniform", [], ["y"], name="ru", **a)
    save0("randomuniform", RU(shape=[2, 3]), T.FLOAT)
    save0("randomuniform_i32", RU(shape=[2, 3], dtype=6, low=0.0, high=10.0), T.INT32)
    save("randomnormallike", h.make_node("RandomNormalLike", ["x"], ["y"], name="rl"), ["x"], 13)
    save("randomuniformlike_f16", h.make_node("RandomUniformLike", ["x"], ["y"], name="rl", dtype=10), ["x"], 13)
random_ops()
# plugins spelled out node by node whose rows take no condition: LpNormalization and
# ThresholdedRelu (an Identity feeding two ops), Xor (Casts to int32 and back to bool), OneHot
# (Identities, Add, Mod, a Split of the values along a Const), Multinomial (a Const sample size),
# Bernoulli (Const seed and offset), Col2Im (a Cast of the image shape to int32), EyeLike (a Split
# of x's shape, a Fill cast to the dtype attribute's type, a MatrixDiagV2)
def spelled_out():
    save("lpnorm", h.make_node("LpNormalization", ["x"], ["y"], name="lp", axis=1), ["x"], 13)
    save("thresholdedrelu", h.make_node("ThresholdedRelu", ["x"], ["y"], name="tr", alpha=0.5), ["x"], 13)
    b = lambda n: h.make_tensor_value_info(n, T.BOOL, [4])
    g = h.make_graph([h.make_node("Xor", ["a", "b"], ["y"], name="xo")], "xor", [b("a"), b("b")],
                     [h.make_tensor_value_info("y", T.BOOL, None)])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), "xor.onnx")
    g = h.make_graph([h.make_node("OneHot", ["ix", "depth", "vals"], ["y"], name="oh", axis=-1)], "onehot",
                     [h.make_tensor_value_info("ix", T.INT64, [4])], [vi("y", None)],
                     initializer=[h.make_tensor("depth", T.INT64, [], [5]), f("vals", [0.0, 1.0])])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), "onehot.onnx")
    g = h.make_graph([h.make_node("Multinomial", ["x"], ["y"], name="mu", sample_size=3)], "multinomial",
                     [vi("x", [2, 5])], [h.make_tensor_value_info("y", T.INT32, None)])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), "multinomial.onnx")
    save("bernoulli", h.make_node("Bernoulli", ["x"], ["y"], name="be", seed=3.0), ["x"], 15)
    g = h.make_graph([h.make_node("Col2Im", ["x", "img", "blk"], ["y"], name="ci")], "col2im", [vi("x", [1, 4, 9])],
                     [vi("y", None)], initializer=[i64("img", [4, 4]), i64("blk", [2, 2])])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 18)]), "col2im.onnx")
    # EyeLike without and with a dtype attribute (the plugin's Cast takes its type, float by default)
    save("eyelike", h.make_node("EyeLike", ["x"], ["y"], name="ey", k=1), ["x"], 13)
    save("eyelike_f16", h.make_node("EyeLike", ["x"], ["y"], name="ey", dtype=T.FLOAT16), ["x"], 13)
    # LpPool (lp) by kernel rank, big kernel or stride, pads; x of rank 2 + the kernel's
    def lppool(name, xshape, **a):
        g = h.make_graph([h.make_node("LpPool", ["x"], ["y"], name="lp", p=2, **a)], name, [vi("x", xshape)], [vi("y", None)])
        onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), name + ".onnx")
    lppool("lppool_2d", [1, 3, 32, 32], kernel_shape=[3, 3])
    lppool("lppool_1d", [1, 3, 32], kernel_shape=[3])
    lppool("lppool_3d", [1, 3, 8, 8, 8], kernel_shape=[2, 2, 2])
    lppool("lppool_big", [1, 3, 32, 32], kernel_shape=[16, 16])
    lppool("lppool_big_pads", [1, 3, 32, 32], kernel_shape=[16, 16], pads=[1, 1, 1, 1])
    lppool("lppool_stride", [1, 3, 128, 32], kernel_shape=[2, 2], strides=[64, 1])
    lppool("lppool_1d_big", [1, 3, 600], kernel_shape=[300], pads=[0, 2])
    lppool("lppool_1d_stride", [1, 3, 256], kernel_shape=[2], strides=[64])
    lppool("lppool_4d", [1, 3, 4, 4, 4, 4], kernel_shape=[2, 2, 2, 2])
    # MaxUnpool (mu) with the output shape computed (two inputs) or given (three), 2-D and 1-D
    def maxunpool(name, xshape, inputs, inits=(), **a):
        g = h.make_graph([h.make_node("MaxUnpool", inputs, ["y"], name="mu", **a)], name,
                         [vi("x", xshape), h.make_tensor_value_info("i", T.INT64, xshape)], [vi("y", None)],
                         initializer=list(inits))
        onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), name + ".onnx")
    maxunpool("maxunpool", [1, 3, 16, 16], ["x", "i"], kernel_shape=[2, 2], strides=[2, 2])
    maxunpool("maxunpool_1d", [1, 3, 16], ["x", "i"], kernel_shape=[2], strides=[2])
    maxunpool("maxunpool_shape", [1, 3, 16, 16], ["x", "i", "os"], [i64("os", [1, 3, 32, 32])],
              kernel_shape=[2, 2], strides=[2, 2])
    # Unique (un) with one to four outputs, and one whose outputs 1-3 are read (Casts)
    for n in (1, 2, 3, 4):
        outs = ["y", "idx", "inv", "cnt"][:n]
        g = h.make_graph([h.make_node("Unique", ["x"], outs, name="un")], "unique%d" % n, [vi("x", [16])],
                         [h.make_tensor_value_info(o, T.FLOAT if o == "y" else T.INT64, None) for o in outs])
        onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), "unique%d.onnx" % n)
    nodes = [h.make_node("Unique", ["x"], ["y", "idx", "inv", "cnt"], name="un")] + \
            [h.make_node("Cast", [t], [t + "f"], name="c_" + t, to=T.FLOAT) for t in ("idx", "inv", "cnt")]
    g = h.make_graph(nodes, "unique_used", [vi("x", [16])], [vi(o, None) for o in ("y", "idxf", "invf", "cntf")])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), "unique_used.onnx")
spelled_out()
