#!/usr/bin/env python3
"""gen_models.py: ONNX look-alikes of the models issue 28 was found on, built
with python3-onnx so the report tests need no download:

  vad.onnx   Silero-VAD-like: an If whose branches hold nodes with long
             inlined names (spox_graph/If_0_0_then_branch/..._Inline_0_...)
             that differ only at their tail, a dynamic input x [?, 64].
  ocr.onnx   PaddleOCR-like conv net: Conv, Sigmoid, Mul, ReduceMean, Div,
             Sqrt, AveragePool, Softmax, Gemm with explicit attributes; static
             input x [1, 3, 48, 320].
  wide.onnx  N MatMuls (N from argv, default 10000) for the HTML load bench.

usage: gen_models.py OUTDIR [N]
"""
import sys
import onnx
from onnx import helper, TensorProto

OPSET = [helper.make_opsetid("", 16)]


def const(name, shape):
    n = 1
    for d in shape:
        n *= d
    return helper.make_tensor(name, TensorProto.FLOAT, shape, [0.0] * n)


def vad():
    # the branch graphs: long inlined names whose own tail tells them apart
    def branch(tag, n):
        pre = "If_0_%s_branch__Inline_0__/_model/" % tag
        nodes, inits, prev = [], [], "x"
        for i in range(n):
            w = pre + "encoder/encoder.%d/reparam_conv/weight" % i
            inits.append(const(w, [64, 64]))
            out = pre + "encoder/encoder.%d/reparam_conv/MatMul_output_0" % i
            nodes.append(helper.make_node("MatMul", [prev, w], [out], name=pre + "encoder/encoder.%d/reparam_conv/MatMul" % i))
            act = pre + "encoder/encoder.%d/activation/Relu_output_0" % i
            nodes.append(helper.make_node("Relu", [out], [act], name=pre + "encoder/encoder.%d/activation/Relu" % i))
            prev = act
        nodes.append(helper.make_node("Sigmoid", [prev], [tag + "_y"], name=pre + "decoder/decoder/Sigmoid"))
        return helper.make_graph(nodes, tag + "_branch", [], [helper.make_tensor_value_info(tag + "_y", TensorProto.FLOAT, ["batch", 64])], inits)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 64])
    sr = helper.make_tensor_value_info("sr", TensorProto.INT64, [1])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 64])
    nodes = [
        helper.make_node("Constant", [], ["k16000"], name="Constant_0",
                         value=helper.make_tensor("k", TensorProto.INT64, [1], [16000])),
        helper.make_node("Equal", ["sr", "k16000"], ["is16k"], name="Equal_0"),
        helper.make_node("Squeeze", ["is16k"], ["cond"], name="Squeeze_0"),
        helper.make_node("If", ["cond"], ["y"], name="If_0",
                         then_branch=branch("then", 4), else_branch=branch("else", 4)),
    ]
    g = helper.make_graph(nodes, "spox_graph", [x, sr], [y])
    return helper.make_model(g, opset_imports=OPSET, producer_name="spox")


def ocr():
    nodes, inits = [], []
    prev, c = "x", 3
    for i in range(6):
        w = "conv%d.w" % i
        inits.append(const(w, [16, c, 3, 3]))
        nodes.append(helper.make_node("Conv", [prev, w], ["c%d" % i], name="conv2d_%d" % i,
                                      kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1]))
        nodes.append(helper.make_node("Sigmoid", ["c%d" % i], ["s%d" % i], name="sigmoid_%d" % i))
        nodes.append(helper.make_node("Mul", ["c%d" % i, "s%d" % i], ["m%d" % i], name="swish_mul_%d" % i))
        prev, c = "m%d" % i, 16
    nodes += [
        helper.make_node("ReduceMean", [prev], ["rmean"], name="reduce_mean_0", axes=[2, 3], keepdims=1),
        helper.make_node("Sqrt", ["rmean"], ["sq"], name="sqrt_0"),
        helper.make_node("Div", [prev, "sq"], ["dv"], name="div_0"),
        helper.make_node("AveragePool", ["dv"], ["ap"], name="pool2d_0", kernel_shape=[48, 320]),
        helper.make_node("Flatten", ["ap"], ["fl"], name="flatten_0", axis=1),
    ]
    inits.append(const("fc.w", [16, 10]))
    inits.append(const("fc.b", [10]))
    nodes.append(helper.make_node("Gemm", ["fl", "fc.w", "fc.b"], ["fc"], name="linear_0",
                                  alpha=1.0, beta=1.0, transA=0, transB=0))
    nodes.append(helper.make_node("Softmax", ["fc"], ["y"], name="softmax_0", axis=-1))
    g = helper.make_graph(nodes, "paddle-ocr-cls", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 48, 320])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    return helper.make_model(g, opset_imports=OPSET, producer_name="PaddlePaddle")


def wide(n):
    nodes, inits, prev = [], [], "x"
    for i in range(n):
        w = "w%d" % i
        inits.append(const(w, [8, 8]))
        nodes.append(helper.make_node("MatMul", [prev, w], ["t%d" % i], name="block%d/mm" % i))
        prev = "t%d" % i
    nodes.append(helper.make_node("Identity", [prev], ["y"], name="out"))
    g = helper.make_graph(nodes, "wide", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, 8])], inits)
    return helper.make_model(g, opset_imports=OPSET)


if __name__ == "__main__":
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    for name, m in (("vad", vad()), ("ocr", ocr())):
        onnx.checker.check_model(m)
        onnx.save(m, "%s/%s.onnx" % (out, name))
    if n:
        onnx.save(wide(n), "%s/wide.onnx" % out)
