# conv_cnn.py: writes small ONNX CNNs the way exporters write them (opset 13,
# ONNX attribute forms, shapes inferred by onnx): cnn.onnx with a strided
# conv with asymmetric pads, a depthwise conv (group = channels), a dilated
# conv and a 1x1 conv with auto_pad SAME_UPPER; wide.onnx, one 3x3 fp32 conv
# over a 1024-wide image whose feature-map rows do not fit a 64 KiB L1.
# Usage: python3 conv_cnn.py OUTDIR
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

out = sys.argv[1]
rng = np.random.default_rng(1)

def w(name, shape):
    return numpy_helper.from_array(rng.uniform(-1, 1, shape).astype(np.float32), name)

def save(nodes, inits, shape, name):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)
    y = helper.make_tensor_value_info(nodes[-1].output[0], TensorProto.FLOAT, None)
    g = helper.make_graph(nodes, "g", [x], [y], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(onnx.shape_inference.infer_shapes(m), out + "/" + name)

save([
    helper.make_node("Conv", ["x", "w1"], ["c1"], name="stem", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 2, 1, 2]),
    helper.make_node("Relu", ["c1"], ["r1"], name="stem/relu"),
    helper.make_node("Conv", ["r1", "w2"], ["c2"], name="dw", kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=16),
    helper.make_node("Conv", ["c2", "w3"], ["c3"], name="dilated", kernel_shape=[3, 3], dilations=[2, 2], pads=[2, 2, 2, 2]),
    helper.make_node("Conv", ["c3", "w4"], ["c4"], name="pw", kernel_shape=[1, 1], auto_pad="SAME_UPPER"),
], [w("w1", (16, 3, 3, 3)), w("w2", (16, 1, 3, 3)), w("w3", (24, 16, 3, 3)), w("w4", (40, 24, 1, 1))], [1, 3, 33, 47], "cnn.onnx")

save([helper.make_node("Conv", ["x", "w1"], ["c1"], name="wide", kernel_shape=[3, 3], pads=[1, 1, 1, 1])],
     [w("w1", (16, 3, 3, 3))], [1, 3, 8, 1024], "wide.onnx")
