#!/usr/bin/env python3
"""onnx_models.py OUTDIR [--corpus]: builds ONNX models with the ONNX project's own
library (python3-onnx) for t/t1104-onnx.sh, one per class of mapping row:

  direct.onnx        1:1 renames (Add, Div -> RealDiv, Where -> SelectV2)
  conditional.onnx   rows chosen by a condition (Conv by kernel rank, Resize by mode, Concat by inputs)
  decomposed.onnx    a PartitionedCall plugin expanded into several IR ops (Gemm with C)
  branches.onnx      every row of a conditional mapping picked once: ArgMax by an int
                     attribute, Gemm by input count and attribute presence, Clip by
                     input count, AveragePool by a list attribute's length, and a
                     Transpose without perm that no row fits
  opset19.onnx       an op registered only up to opset 18, in an opset-19 model (E13010)
  unmapped.onnx      an op no plugin handles (Loop; E13010) next to mapped ones
  dynamic.onnx       dim_param and unset dims (-1), a scalar input
  init.onnx          initializers (Const, sorted-name numbering), one graph input backed by one
  external.onnx      an initializer with external data (FileConstant; the data file is absent)
  if.onnx            If with then/else branches capturing an outer value (subgraphs)
  if_out.onnx        an If whose output dtype only its branches declare, read by a Relu
  lstm_out.onnx      an LSTM whose Y_h (output 1) is read by a Relu, without value_info
  lstm_fused.onnx    two LSTMs with bias and initial states: one with sequence lengths, one without
  gru_fused.onnx     a GRU with bias, sequence lengths and an initial state
  dropout.onnx       a Relu, a Dropout with a ratio input, a Sigmoid of the Dropout's output
  if_dynamic.onnx    an If whose branches capture a dynamic input
  deep_capture.onnx  an If in an If's branch whose branches read a graph input that the outer
                     branch's own nodes do not, and a Relu of a name nothing produces
  unsorted.onnx      a Relu before the Relu producing its input (nodes out of order)
  twice.onnx         two Relus producing the same name, read by a Neg after both
  cycle_twice.onnx   y produced by Relu 'a', read by an unnamed Neg, whose output an Add 'c'
                     reads to produce y again: GE links the Neg to 'c', a cycle of two nodes
  cycle_unsorted.onnx  two Relus, each reading the other's output (nodes out of order, a cycle)
  cycle_long.onnx    y produced by Relu 'first', read by a chain of 11 Relus whose end 'close'
                     produces y again: a cycle of 12 nodes
  cycle_capture.onnx an If whose then-branch reads v, which a later Sigmoid 'late' makes from
                     the If's output: GE makes v an input of the If, a cycle of two nodes
  if_nested.onnx     an If inside an If's branch, no branch declaring its output's type, the
                     outer If read by a Relu
  fill.onnx          ConstantOfShape without value_info: with an int64 value, without a value,
                     and of a computed shape with a float16 value, each read by an op
  typed.onnx         Mish, MeanVarianceNormalization, IsNaN, IsInf, Range and BitShift, each read by an op
  scatter.onnx       a Scatter (opset 10) read by a Relu
  nonzero.onnx       a NonZero of a static input read by a Transpose
  nms.onnx           NonMaxSuppression with five inputs read by a Transpose, and with two
  compress.onnx      Compress along an axis and of the flattened data, each read by a Relu
  argmax.onnx        ArgMax keeping and dropping its axis, and an ArgMin, each read by an Add
  topk.onnx          TopK whose indices the model declares int64, read by a Cast and a Gather
  value_info.onnx    a Det whose output only value_info types, read by a Relu
  roialign.onnx      RoiAlign of a feature map by 5 rois, read by a Relu
  unique.onnx        Unique of a static input, its output 0 read by a Relu
  size.onnx          a Size of a dynamic input read by an Equal with an int64 constant
  matmul.onnx        a MatMul (BatchMatMulV2) next to a Gemm (MatMulV2), for the advice test
  plugins.onnx       one-to-many plugins as a PyTorch export writes them (opset 13, a dim by
                     name, Gemm with alpha=1.0 and beta=1.0 explicit): GE's PartitionedCall_
                     names and counter, in its builder's breadth-first order (a Transpose fed by
                     the input is expanded before one written earlier), Gemm with beta 0.5,
                     Split, Clip-11 bounds, ReduceMean axes, ConvTranspose, Max, Mean, Gather,
                     ConstantOfShape, and a MaxPool with Indices no form fits
  layernorm.onnx     LayerNormalization (opset 17), with and without beta
  convt1d.onnx       a ConvTranspose with a 1-D kernel on float16 (Unsqueeze, Conv2DTranspose, Squeeze)
  gridsample.onnx    GridSample (opset 16) of a 4-D x, and of an x without a shape
  maxpool3d.onnx     a MaxPool with a 3-D kernel (MaxPool3D) on float32
  shapes.onnx        shape inference: Conv, MaxPool, Reshape by a constant, MatMul, Transpose,
                     ReduceMean, Flatten, Concat, Gather, Cast, a dynamic MatMul, and an op with
                     no shape function (Expand), each ending in a tiled op whose plan shows it
  dtypes.onnx        float32 through ops whose shape is not inferred (no value_info, as a
                     PaddleOCR export): a Reshape by a computed shape, then Transpose, Slice,
                     Squeeze, Mul and Expand; each must keep the dtype, and the Relu after them
                     gets no tiling plan (its shape is not known, not a scalar); two Relus of
                     real scalars (a 0-d graph input, a 0-d initializer) plan one element
  resize_rank.onnx   a dynamic input Resized to sizes computed at run time, then Conv,
                     GlobalAveragePool and BatchNormalization; a Resize by constant scales;
                     a ConvTranspose: each output has a known rank (dims -1 where unknown)

With --corpus, also corpus/*.onnx: one model per operator schema the onnx library knows,
with the schema's minimal inputs and outputs, at opsets 11, 17 and 19 (where the schema
exists), to show that every such model loads without a crash or a hang.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h


def save(model, out, name):
    onnx.save(model, os.path.join(out, name))


def model(nodes, inputs, outputs, inits=(), opset=17, extra_opsets=()):
    g = h.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    ops = [h.make_opsetid("", opset)] + [h.make_opsetid(d, v) for d, v in extra_opsets]
    m = h.make_model(g, opset_imports=ops)
    m.ir_version = 8
    return m


def vi(name, shape, t=T.FLOAT):
    return h.make_tensor_value_info(name, t, shape)


def const(name, shape, t=T.FLOAT):
    n = int(np.prod(shape)) if shape else 1
    return h.make_tensor(name, t, shape, np.zeros(n, dtype=np.float32).tobytes(), raw=True)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    x = vi("x", [2, 4])
    save(model([h.make_node("Add", ["x", "x"], ["a"], name="add"),
                h.make_node("Div", ["a", "x"], ["d"], name="div"),
                h.make_node("Greater", ["d", "x"], ["c"], name="gt"),
                h.make_node("Where", ["c", "d", "x"], ["y"], name="where")],
               [x], [vi("y", [2, 4])]), out, "direct.onnx")
    save(model([h.make_node("Conv", ["img", "k2"], ["c2"], name="conv2d", kernel_shape=[3, 3]),
                h.make_node("Conv", ["vol", "k3"], ["c3"], name="conv3d", kernel_shape=[3, 3, 3]),
                h.make_node("Conv", ["seq", "k1"], ["c1"], name="conv1d", kernel_shape=[3]),
                h.make_node("Resize", ["img", "", "scales"], ["rl"], name="resize_linear", mode="linear"),
                h.make_node("Resize", ["img", "", "scales"], ["rn"], name="resize_nearest"),
                h.make_node("Concat", ["c2"], ["cc1"], name="concat1", axis=1),
                h.make_node("Concat", ["c2", "c2"], ["cc2"], name="concat2", axis=1)],
               [vi("img", [1, 3, 8, 8]), vi("vol", [1, 3, 4, 8, 8]), vi("seq", [1, 3, 16])],
               [vi("c3", None), vi("c1", None), vi("rl", None), vi("rn", None), vi("cc1", None), vi("cc2", None)],
               [const("k2", [8, 3, 3, 3]), const("k3", [8, 3, 3, 3, 3]), const("k1", [8, 3, 3]), const("scales", [4])]),
         out, "conditional.onnx")
    save(model([h.make_node("Gemm", ["x", "w", "b"], ["y"], name="fc", transB=1),
                h.make_node("Gemm", ["x", "w"], ["y2"], name="fc_nobias", transB=1)],
               [x], [vi("y", None), vi("y2", None)], [const("w", [4, 4]), const("b", [4])]), out, "decomposed.onnx")
    N = h.make_node
    save(model([N("ArgMax", ["x"], ["am0"], name="argmax_flat", keepdims=0),
                N("ArgMax", ["x"], ["am1"], name="argmax_kept"),
                N("Gemm", ["x", "w", "b"], ["g1"], name="gemm_plain", transB=1),
                N("Gemm", ["x", "w", "b"], ["g2"], name="gemm_scaled", alpha=2.0),
                N("Gemm", ["x", "w"], ["g3"], name="gemm_nobias"),
                N("Clip", ["x", "lo", "hi"], ["c1"], name="clip_both"),
                N("Clip", ["x", "lo"], ["c2"], name="clip_min"),
                N("AveragePool", ["seq"], ["p1"], name="pool1d", kernel_shape=[2]),
                N("AveragePool", ["img"], ["p2"], name="pool2d", kernel_shape=[2, 2]),
                N("AveragePool", ["vol"], ["p3"], name="pool3d", kernel_shape=[2, 2, 2]),
                N("Transpose", ["x"], ["t"], name="transpose_noperm")],
               [x, vi("seq", [1, 3, 16]), vi("img", [1, 3, 8, 8]), vi("vol", [1, 3, 4, 8, 8])],
               [vi(o, None) for o in ("am0", "am1", "g1", "g2", "g3", "c1", "c2", "p1", "p2", "p3", "t")],
               [const("w", [4, 4]), const("b", [4]), const("lo", []), const("hi", [])]), out, "branches.onnx")
    save(model([h.make_node("Relu", ["x"], ["r"], name="relu"),
                h.make_node("Add", ["r", "x"], ["y"], name="add")],
               [x], [vi("y", None)], opset=19), out, "opset19.onnx")
    body = h.make_graph([h.make_node("Identity", ["cond_in"], ["cond_out"])], "body",
                        [vi("i", [], T.INT64), vi("cond_in", [], T.BOOL)], [vi("cond_out", [], T.BOOL)])
    save(model([h.make_node("Relu", ["x"], ["r"], name="relu"),
                h.make_node("Loop", ["trip", "cond"], [], name="loop", body=body),
                h.make_node("Sigmoid", ["r"], ["y"], name="sigmoid")],
               [x, vi("trip", [], T.INT64), vi("cond", [], T.BOOL)], [vi("y", None)]), out, "unmapped.onnx")
    save(model([h.make_node("Relu", ["x"], ["r"], name="relu"),
                h.make_node("Relu", ["s"], ["r2"], name="relu_scalar"),
                h.make_node("Relu", ["u"], ["r3"], name="relu_unset")],
               [vi("x", ["batch", 4]), vi("s", None),
                h.make_tensor_value_info("u", T.FLOAT, [3, None])],
               [vi("r", None), vi("r2", None), vi("r3", None)]), out, "dynamic.onnx")
    save(model([h.make_node("MatMul", ["x", "zw"], ["m"], name="mm"),
                h.make_node("Add", ["m", "ab"], ["y"], name="add")],
               [x, vi("ab", [4])], [vi("y", None)], [const("zw", [4, 4]), const("ab", [4])]), out, "init.onnx")
    ext = onnx.TensorProto()
    ext.name, ext.data_type = "big", T.FLOAT
    ext.dims.extend([4, 4])
    ext.data_location = T.EXTERNAL
    for k, v in (("location", "weights.bin"), ("offset", "0"), ("length", "64")):
        e = ext.external_data.add()
        e.key, e.value = k, v
    save(model([h.make_node("MatMul", ["x", "big"], ["y"], name="mm")], [x], [vi("y", None)], [ext]),
         out, "external.onnx")
    then_g = h.make_graph([h.make_node("Relu", ["x"], ["t"], name="then_relu")], "then", [], [vi("t", None)])
    else_g = h.make_graph([h.make_node("Neg", ["x"], ["e"], name="else_neg")], "else", [], [vi("e", None)])
    save(model([h.make_node("ReduceSum", ["x"], ["s"], name="sum", keepdims=0),
                h.make_node("Greater", ["s", "zero"], ["c"], name="gt"),
                h.make_node("If", ["c"], ["y"], name="branch", then_branch=then_g, else_branch=else_g)],
               [x], [vi("y", None)], [const("zero", [])]), out, "if.onnx")
    # the If's output is no graph output and has no value_info: its dtype is the branches' (float16)
    then_h = h.make_graph([h.make_node("Cast", ["x"], ["t"], name="then_cast", to=T.FLOAT16)], "then", [],
                          [vi("t", None, T.FLOAT16)])
    else_h = h.make_graph([h.make_node("Cast", ["x"], ["e"], name="else_cast", to=T.FLOAT16)], "else", [],
                          [vi("e", None, T.FLOAT16)])
    save(model([h.make_node("ReduceSum", ["x"], ["s"], name="sum", keepdims=0),
                h.make_node("Greater", ["s", "zero"], ["c"], name="gt"),
                h.make_node("If", ["c"], ["y"], name="branch", then_branch=then_h, else_branch=else_h),
                h.make_node("Relu", ["y"], ["r"], name="after")],
               [x], [vi("r", None, T.FLOAT16)], [const("zero", [])]), out, "if_out.onnx")
    # no branch declares a type (elem_type 0): the outer If's output has the
    # type the inner branches' Casts give, known only once the inner If's is
    untyped = lambda name: h.make_tensor_value_info(name, T.UNDEFINED, None)
    inner = lambda tag: h.make_node("If", ["c"], ["i" + tag], name="inner_" + tag,
                                    then_branch=h.make_graph([h.make_node("Cast", ["x"], ["t" + tag], name="t_cast_" + tag, to=T.FLOAT16)],
                                                             "t", [], [untyped("t" + tag)]),
                                    else_branch=h.make_graph([h.make_node("Cast", ["x"], ["e" + tag], name="e_cast_" + tag, to=T.FLOAT16)],
                                                             "e", [], [untyped("e" + tag)]))
    save(model([h.make_node("ReduceSum", ["x"], ["s"], name="sum", keepdims=0),
                h.make_node("Greater", ["s", "zero"], ["c"], name="gt"),
                h.make_node("If", ["c"], ["y"], name="outer",
                            then_branch=h.make_graph([inner("a")], "then", [], [untyped("ia")]),
                            else_branch=h.make_graph([inner("b")], "else", [], [untyped("ib")])),
                h.make_node("Relu", ["y"], ["r"], name="after")],
               [x], [untyped("r")], [const("zero", [])]), out, "if_nested.onnx")
    # GE passes into a branch only what its own nodes read: the outer
    # branch reads c (for the inner If's condition) but not x, which only the
    # inner branches read; "ghost" names no tensor at all
    inner_x = h.make_node("If", ["c"], ["ix"], name="inner",
                          then_branch=h.make_graph([h.make_node("Relu", ["x"], ["tr"], name="t_relu")], "t", [], [vi("tr", None)]),
                          else_branch=h.make_graph([h.make_node("Neg", ["x"], ["en"], name="e_neg")], "e", [], [vi("en", None)]))
    save(model([h.make_node("ReduceSum", ["x"], ["s"], name="sum", keepdims=0),
                h.make_node("Greater", ["s", "zero"], ["c"], name="gt"),
                h.make_node("If", ["c"], ["y"], name="outer",
                            then_branch=h.make_graph([inner_x], "then", [], [vi("ix", None)]),
                            else_branch=h.make_graph([h.make_node("Identity", ["s"], ["es"], name="e_id")], "else", [],
                                                     [vi("es", None)])),
                h.make_node("Relu", ["ghost"], ["g"], name="ghost_relu")],
               [x], [vi("y", None), vi("g", None)], [const("zero", [])]), out, "deep_capture.onnx")
    # ONNX forbids both: a node before the producer of its input, a name produced twice
    save(model([h.make_node("Relu", ["a"], ["b"], name="r2"), h.make_node("Relu", ["x"], ["a"], name="r1")],
               [x], [vi("b", None)]), out, "unsorted.onnx")
    save(model([h.make_node("Relu", ["x"], ["y"], name="first"), h.make_node("Sigmoid", ["x"], ["y"], name="second"),
                h.make_node("Neg", ["y"], ["n"], name="reader")], [x], [vi("n", None)]), out, "twice.onnx")
    # GE links every reader to a name's last producer, wherever it is: cycles ONNX forbids
    save(model([h.make_node("Relu", ["x"], ["y"], name="a"), h.make_node("Neg", ["y"], ["z"]),
                h.make_node("Add", ["z", "x"], ["y"], name="c")], [x], [vi("y", None)]), out, "cycle_twice.onnx")
    save(model([h.make_node("Relu", ["a"], ["b"], name="r2"), h.make_node("Relu", ["b"], ["a"], name="r1")],
               [x], [vi("b", None)]), out, "cycle_unsorted.onnx")
    chain = [h.make_node("Relu", ["x"], ["y"], name="first"), h.make_node("Relu", ["y"], ["t0"], name="r0")]
    chain += [h.make_node("Relu", ["t%d" % (i - 1)], ["t%d" % i], name="r%d" % i) for i in range(1, 11)]
    chain.append(h.make_node("Relu", ["t10"], ["y"], name="close"))
    save(model(chain, [x], [vi("y", None)]), out, "cycle_long.onnx")
    # an If's branch reads v, which a later node makes from the If's output:
    # GE's parser makes v an input of the If (its captures), a cycle of two
    save(model([h.make_node("ReduceSum", ["x"], ["s"], name="sum", keepdims=0),
                h.make_node("Greater", ["s", "zero"], ["c"], name="gt"),
                h.make_node("If", ["c"], ["y"], name="branch",
                            then_branch=h.make_graph([h.make_node("Relu", ["v"], ["tr"], name="t_relu")], "t", [], [vi("tr", None)]),
                            else_branch=h.make_graph([h.make_node("Neg", ["x"], ["en"], name="e_neg")], "e", [], [vi("en", None)])),
                h.make_node("Sigmoid", ["y"], ["v"], name="late")],
               [x], [vi("v", None)], [const("zero", [])]), out, "cycle_capture.onnx")
    # an LSTM's Y_h (output 1) read by a Relu, without value_info: every output of an LSTM is of x's type T
    xs = vi("xs", [3, 1, 4])
    save(model([h.make_node("LSTM", ["xs", "lw", "lr"], ["ly", "lh"], name="lstm", hidden_size=2),
                h.make_node("Relu", ["lh"], ["r"], name="after_h")],
               [xs], [vi("r", None)], [const("lw", [1, 8, 4]), const("lr", [1, 8, 2])]), out, "lstm_out.onnx")
    # LSTMs that FE's CommonLSTMFusionPass makes DynamicRNNs: one with a bias,
    # per-batch sequence lengths (int32) and initial states, one with an empty
    # sequence_lens between its bias and its initial states (an unconnected
    # position in GE's graph)
    save(model([h.make_node("LSTM", ["xs", "lw", "lr", "lb", "sl", "h0", "c0"], ["ly"], name="lstm_seq", hidden_size=2),
                h.make_node("LSTM", ["xs", "lw", "lr", "lb", "", "h0", "c0"], ["ly2"], name="lstm_gap", hidden_size=2)],
               [xs, vi("sl", [1], T.INT32), vi("h0", [1, 1, 2]), vi("c0", [1, 1, 2])], [vi("ly", None), vi("ly2", None)],
               [const("lw", [1, 8, 4]), const("lr", [1, 8, 2]), const("lb", [1, 16])]), out, "lstm_fused.onnx")
    # an If whose branches read a dynamic input they capture (GE's parser makes
    # it an input of the If, a Data with _parent_node_index in each branch)
    save(model([h.make_node("ReduceSum", ["xd"], ["sd"], name="sum_d", keepdims=0),
                h.make_node("Greater", ["sd", "zero"], ["cd"], name="gt_d"),
                h.make_node("If", ["cd"], ["yd"], name="branch_d",
                            then_branch=h.make_graph([h.make_node("Relu", ["xd"], ["tr"], name="t_relu")], "t", [], [vi("tr", None)]),
                            else_branch=h.make_graph([h.make_node("Neg", ["xd"], ["en"], name="e_neg")], "e", [], [vi("en", None)]))],
               [vi("xd", ["n", 4])], [vi("yd", None)], [const("zero", [])]), out, "if_dynamic.onnx")
    # a GRU with bias, sequence lengths (int32) and an initial state, which
    # CommonGRUFusionPass makes a DynamicGRUV2
    save(model([h.make_node("GRU", ["xs", "gw", "gr", "gb", "sl", "h0"], ["gy"], name="gru_seq", hidden_size=2)],
               [xs, vi("sl", [1], T.INT32), vi("h0", [1, 1, 2])], [vi("gy", None)],
               [const("gw", [1, 6, 4]), const("gr", [1, 6, 2]), const("gb", [1, 12])]), out, "gru_fused.onnx")
    # a Dropout as a PyTorch export in eval mode writes it (opset 13: data and
    # ratio, no training_mode): ONNX Dropout becomes IR Dropout, which GE's
    # DropOutPass deletes from an inference graph
    save(model([h.make_node("Relu", ["xs"], ["dr"], name="d_relu"),
                h.make_node("Dropout", ["dr", "ratio"], ["dd"], name="d_drop"),
                h.make_node("Sigmoid", ["dd"], ["dy"], name="d_sig")],
               [xs], [vi("dy", None)], [const("ratio", [])]), out, "dropout.onnx")
    # ConstantOfShape with no value_info: the Const GE's plugin makes holds the
    # `value` attribute's type (float32 without one), the output has that type
    # and the dims of the shape input (unknown dims of a computed one)
    x23 = vi("x", [2, 3])
    save(model([h.make_node("ConstantOfShape", ["shp"], ["ci"], name="cos_i",
                            value=h.make_tensor("v", T.INT64, [1], [7])),
                h.make_node("Add", ["ci", "ci"], ["ai"], name="add_i"),
                h.make_node("ConstantOfShape", ["shp"], ["cf"], name="cos_f"),
                h.make_node("Mul", ["cf", "x"], ["y"], name="mul_f"),
                h.make_node("Shape", ["x"], ["xs"], name="shape_x"),
                h.make_node("ConstantOfShape", ["xs"], ["cd"], name="cos_d",
                            value=h.make_tensor("v", T.FLOAT16, [1], [1.0])),
                h.make_node("Relu", ["cd"], ["rd"], name="relu_d")],
               [x23], [vi("ai", None, T.INT64), vi("y", None), vi("rd", None, T.FLOAT16)],
               [h.make_tensor("shp", T.INT64, [2], [2, 3])]), out, "fill.onnx")
    # ops whose output ONNX's types fix, each read by an op, no value_info
    # (table onnx_shapes): Mish and MeanVarianceNormalization keep x's dtype,
    # IsNaN and IsInf give bool, Range start's dtype, BitShift x's
    x4 = vi("x", [1, 2, 3, 3])
    save(model([h.make_node("Mish", ["x"], ["m"], name="mish"),
                h.make_node("Relu", ["m"], ["rm"], name="relu_m"),
                h.make_node("MeanVarianceNormalization", ["x"], ["mv"], name="mvn"),
                h.make_node("Relu", ["mv"], ["rmv"], name="relu_mv"),
                h.make_node("IsNaN", ["x"], ["nan"], name="isnan"),
                h.make_node("Not", ["nan"], ["nnan"], name="not_nan"),
                h.make_node("IsInf", ["x"], ["inf"], name="isinf"),
                h.make_node("Not", ["inf"], ["ninf"], name="not_inf"),
                h.make_node("Range", ["r0", "r9", "r1"], ["rg"], name="range"),
                h.make_node("Add", ["rg", "rg"], ["ar"], name="add_r"),
                h.make_node("BitShift", ["u", "u"], ["sh"], name="shift", direction="RIGHT"),
                h.make_node("Add", ["sh", "sh"], ["as_"], name="add_s")],
               [x4, vi("u", [4], T.UINT8)],
               [vi("rm", None), vi("rmv", None), vi("nnan", None, T.BOOL), vi("ninf", None, T.BOOL),
                vi("ar", None, T.INT64), vi("as_", None, T.UINT8)],
               [h.make_tensor(n, T.INT64, [], [v]) for n, v in (("r0", 0), ("r9", 9), ("r1", 1))], opset=18),
         out, "typed.onnx")
    # Scatter (opset 9-10; ScatterElements since 11): data's dtype
    save(model([h.make_node("Scatter", ["x", "ix", "x"], ["sc"], name="scatter"),
                h.make_node("Relu", ["sc"], ["rs"], name="relu_s")],
               [vi("x", [2, 3])], [vi("rs", None)], [h.make_tensor("ix", T.INT64, [2, 3], [0] * 6)], opset=10),
         out, "scatter.onnx")
    # NonZero of a static input, read by a Transpose: the indices' count is
    # known only at run time
    save(model([h.make_node("NonZero", ["x"], ["nz"], name="nonzero"),
                h.make_node("Transpose", ["nz"], ["t"], name="tr", perm=[1, 0])],
               [vi("x", [4, 4])], [vi("t", None, T.INT64)], opset=13), out, "nonzero.onnx")
    # NonMaxSuppression with all five inputs (a torchvision export), read by a
    # Transpose, and with boxes and scores only: GE's plugin subgraph, the
    # kept boxes' count known only at run time
    save(model([h.make_node("NonMaxSuppression", ["boxes", "scores", "maxk", "iou", "thr"], ["sel"], name="nms"),
                h.make_node("Transpose", ["sel"], ["t"], name="tr", perm=[1, 0]),
                h.make_node("NonMaxSuppression", ["boxes", "scores"], ["sel2"], name="nms2")],
               [vi("boxes", [1, 100, 4]), vi("scores", [1, 1, 100])], [vi("t", None, T.INT64), vi("sel2", None, T.INT64)],
               [h.make_tensor("maxk", T.INT64, [1], [10]), h.make_tensor("iou", T.FLOAT, [1], [0.5]),
                h.make_tensor("thr", T.FLOAT, [1], [0.2])], opset=13), out, "nms.onnx")
    # Compress along an axis and of the flattened data, each read by a Relu:
    # as many elements as the condition's true values
    save(model([h.make_node("Compress", ["x", "cond"], ["ca"], name="cmp_axis", axis=1),
                h.make_node("Relu", ["ca"], ["ra"], name="relu_axis"),
                h.make_node("Compress", ["x", "cond"], ["cf"], name="cmp_flat"),
                h.make_node("Relu", ["cf"], ["rf"], name="relu_flat")],
               [vi("x", [4, 6]), vi("cond", [6], T.BOOL)], [vi("ra", None), vi("rf", None)], opset=13),
         out, "compress.onnx")
    # ArgMax keeping its axis and dropping it, each read by an Add; an ArgMin
    # keeping it, read by an Add, whose output the model declares int64 (the
    # dtype GE's plugin gives it is int32 on most SoCs)
    save(model([h.make_node("ArgMax", ["x"], ["ak"], name="am_keep", axis=1),
                h.make_node("Add", ["ak", "ak"], ["sk"], name="add_keep"),
                h.make_node("ArgMax", ["x"], ["ad"], name="am_drop", axis=-1, keepdims=0),
                h.make_node("Add", ["ad", "ad"], ["sd"], name="add_drop"),
                h.make_node("ArgMin", ["x"], ["an"], name="amin_keep", axis=2),
                h.make_node("Add", ["an", "an"], ["sn"], name="add_min")],
               [vi("x", [2, 5, 7])], [vi("sk", None, T.INT64), vi("sd", None, T.INT64), vi("an", None, T.INT64),
                                      vi("sn", None, T.INT64)],
               opset=13), out, "argmax.onnx")
    # TopK's indices, declared int64 by the model, read by a Cast and a
    # Gather; and an Equal's output read by a Not (no value_info)
    m = model([h.make_node("TopK", ["x", "k"], ["v", "ti"], name="topk", axis=1),
               h.make_node("Cast", ["ti"], ["ci"], name="cast_i", to=T.FLOAT),
               h.make_node("Gather", ["x", "ti"], ["gi"], name="gather_i", axis=1)],
              [vi("x", [2, 10])], [vi("ci", None), vi("gi", None)], [h.make_tensor("k", T.INT64, [1], [3])], opset=13)
    m.graph.value_info.extend([vi("ti", [2, 3], T.INT64), vi("v", [2, 3])])
    save(m, out, "topk.onnx")
    # value_info declares the dtype of an output no shape function infers (a
    # Det's): the Relu reading it has that dtype
    m = model([h.make_node("Det", ["x"], ["d"], name="det"),
               h.make_node("Relu", ["d"], ["r"], name="relu_d")],
              [vi("x", [2, 3, 3])], [vi("r", None)], opset=13)
    m.graph.value_info.extend([vi("d", [2])])
    save(m, out, "value_info.onnx")
    # RoiAlign of a feature map, 5 rois and their batch indices, read by a Relu
    save(model([h.make_node("RoiAlign", ["fm", "rois", "bi"], ["ra"], name="roi", output_height=7, output_width=7),
                h.make_node("Relu", ["ra"], ["r"], name="relu_roi")],
               [vi("fm", [2, 16, 32, 32]), vi("rois", [5, 4]), vi("bi", [5], T.INT64)], [vi("r", None)], opset=13),
         out, "roialign.onnx")
    # Unique of a static input, its distinct values read by a Relu
    save(model([h.make_node("Unique", ["x"], ["u"], name="uniq"),
                h.make_node("Relu", ["u"], ["r"], name="relu_u")],
               [vi("x", [4, 6])], [vi("r", None)], opset=13), out, "unique.onnx")
    # Size of an input with a dim by name, compared with an int64 constant
    # (Silero VAD's rnn/Equal), no value_info: the Size is an int64 scalar
    xd = h.make_tensor_value_info("x", T.FLOAT, ["n", 3])
    save(model([h.make_node("Size", ["x"], ["sz"], name="size_x"),
                h.make_node("Equal", ["sz", "six"], ["eq"], name="eq_six"),
                h.make_node("Not", ["eq"], ["ne"], name="not_eq")],
               [xd], [vi("ne", None, T.BOOL)], [h.make_tensor("six", T.INT64, [], [6])]), out, "size.onnx")
    save(model([h.make_node("MatMul", ["x", "w"], ["m"], name="attn_q"),
                h.make_node("Gemm", ["m", "w"], ["y"], name="fc")],
               [x], [vi("y", None)], [const("w", [4, 4])]), out, "matmul.onnx")
    i64 = lambda name, vals: h.make_tensor(name, T.INT64, [len(vals)], vals)
    N = h.make_node
    save(model([N("Conv", ["x", "cw"], ["c"], name="conv", pads=[1, 1, 1, 1], strides=[2, 2]),
                N("Relu", ["c"], ["r"], name="relu"),
                N("MaxPool", ["r"], ["p"], name="pool", kernel_shape=[2, 2], strides=[2, 2]),
                N("Reshape", ["p", "flat"], ["f"], name="reshape"),
                N("MatMul", ["f", "w2"], ["m"], name="mm"),
                N("Transpose", ["m"], ["mt"], name="transpose", perm=[1, 0]),
                N("MatMul", ["mt", "w3"], ["m2"], name="mm_t"),
                N("ReduceMean", ["p"], ["rm"], name="mean", axes=[2, 3], keepdims=1),
                N("Flatten", ["rm"], ["fl"], name="flatten"),
                N("MatMul", ["fl", "w4"], ["m3"], name="mm_mean"),
                N("Concat", ["m", "m"], ["cc"], name="concat", axis=1),
                N("Relu", ["cc"], ["ccr"], name="relu_concat"),
                N("Gather", ["w2", "idx"], ["g"], name="gather", axis=0),
                N("MatMul", ["g", "w5"], ["m4"], name="mm_gather"),
                N("Cast", ["f"], ["f16"], name="cast", to=T.FLOAT16),
                N("Relu", ["f16"], ["f16r"], name="relu_cast"),
                N("MatMul", ["t", "w6"], ["m5"], name="mm_dyn"),
                N("Expand", ["x", "eshape"], ["e"], name="expand"),
                N("Relu", ["e"], ["er"], name="relu_expand")],
               [vi("x", [1, 3, 32, 32]), vi("t", ["n", 16])],
               [vi(o, None) for o in ("m2", "m3", "ccr", "m4", "f16r", "m5", "er")],
               [const("cw", [8, 3, 3, 3]), i64("flat", [1, -1]), const("w2", [512, 10]), const("w3", [1, 4]),
                const("w4", [8, 6]), const("w5", [10, 7]), const("w6", [16, 4]),
                h.make_tensor("idx", T.INT64, [2, 3], [0, 1, 2, 3, 4, 5]), i64("eshape", [1, 3, 32, 32])]),
         out, "shapes.onnx")
    # opset 13 (Squeeze's axes an input); shp -> cat is a computed shape, so the
    # Reshape's output shape is unknown while its dtype is x's
    save(model([N("Shape", ["x"], ["shp"], name="shape"),
                N("Slice", ["shp", "s0", "s2"], ["lead"], name="shape_lead"),
                N("Concat", ["lead", "minus1"], ["cat"], name="concat", axis=0),
                N("Reshape", ["x", "cat"], ["r"], name="reshape"),
                N("Transpose", ["r"], ["rt"], name="transpose", perm=[1, 0, 2]),
                N("Slice", ["rt", "s0", "s1"], ["sl"], name="slice"),
                N("Squeeze", ["sl", "ax0"], ["sq"], name="squeeze"),
                N("Mul", ["sq", "two"], ["m"], name="mul"),
                N("Expand", ["m", "eshape"], ["e"], name="expand"),
                N("Relu", ["e"], ["y"], name="relu"),
                N("Relu", ["xs"], ["ys"], name="relu_scalar_in"),
                N("Relu", ["two"], ["yt"], name="relu_scalar_init")],
               [vi("x", [2, 3, 4, 5]), vi("xs", [])], [vi("y", None), vi("ys", []), vi("yt", [])],
               [i64("s0", [0]), i64("s1", [1]), i64("s2", [2]), i64("minus1", [-1]), i64("ax0", [0]),
                const("two", []), i64("eshape", [2, 1, 20])], opset=13),
         out, "dtypes.onnx")
    N = h.make_node
    save(model([N("Gemm", ["x", "w1", "b1"], ["g"], name="/fc1/Gemm", alpha=1.0, beta=1.0, transB=1),
                N("Relu", ["g"], ["r"], name="/relu/Relu"),
                N("Transpose", ["r"], ["t1"], name="/t1/Transpose", perm=[1, 0]),
                N("Transpose", ["x"], ["t2"], name="/t2/Transpose", perm=[1, 0]),
                N("Gemm", ["x", "w1", "b1"], ["gs"], name="/fc2/Gemm", alpha=1.0, beta=0.5, transB=1),
                N("Split", ["x"], ["s0", "s1"], name="/split", axis=1),
                N("Split", ["x", "sizes"], ["s2", "s3"], name="/splitv", axis=1),
                N("Clip", ["x", "", "hi"], ["c1"], name="/clip_max"),
                N("Clip", ["x", "lo", "hi"], ["c2"], name="/clip_both"),
                N("ReduceMean", ["x"], ["m1"], name="/mean_attr", axes=[1]),
                N("ReduceSum", ["x", "axes"], ["m2"], name="/sum_input"),
                N("ConvTranspose", ["img", "kt"], ["ct"], name="/deconv", kernel_shape=[2, 2], strides=[2, 2]),
                N("Max", ["x", "x", "x"], ["mx"], name="/max3"),
                N("Max", ["x", "x"], ["mx2"], name="/max2"),
                N("Mean", ["x", "x"], ["mn"], name="/mean2"),
                N("Gather", ["x", "idx"], ["ga"], name="/gather", axis=0),
                N("ConstantOfShape", ["shp"], ["cs"], name="/cos"),
                N("MaxPool", ["img"], ["mp", "mpi"], name="/pool_idx", kernel_shape=[2, 2])],
               [vi("x", ["batch", 64]), vi("img", [1, 3, 8, 8])],
               [vi(o, None) for o in ("t1", "t2", "gs", "s0", "s1", "s2", "s3", "c1", "c2", "m1", "m2", "ct", "mx",
                                      "mx2", "mn", "ga", "cs", "mp")],
               [const("w1", [32, 64]), const("b1", [32]), const("lo", []), const("hi", []), const("kt", [3, 4, 2, 2]),
                h.make_tensor("sizes", T.INT64, [2], [32, 32]), h.make_tensor("axes", T.INT64, [1], [1]),
                h.make_tensor("idx", T.INT64, [2], [0, 1]), h.make_tensor("shp", T.INT64, [2], [2, 2])],
               opset=13), out, "plugins.onnx")
    # a dynamic input resized to sizes computed at run time (as PaddleOCR det's
    # FPN): the output's rank is X's, its dims -1, and the ops after it keep
    # the rank (GE's InferShape knows it); a Resize by constant scales has
    # dims where X's are known
    f32 = lambda name, vals: h.make_tensor(name, T.FLOAT, [len(vals)], vals)
    save(model([N("Shape", ["x"], ["shp"], name="shape"),
                N("Slice", ["shp", "s0", "s2"], ["nc"], name="shape_nc"),
                N("Slice", ["shp", "s2", "s4"], ["hw"], name="shape_hw"),
                N("Mul", ["hw", "two"], ["hw2"], name="hw_twice"),
                N("Concat", ["nc", "hw2"], ["sizes"], name="sizes", axis=0),
                N("Resize", ["x", "", "", "sizes"], ["r"], name="resize", mode="nearest"),
                N("Conv", ["r", "cw"], ["c"], name="conv", pads=[1, 1, 1, 1]),
                N("GlobalAveragePool", ["c"], ["g"], name="gap"),
                N("Relu", ["g"], ["gr"], name="relu_gap"),
                N("BatchNormalization", ["r", "bs", "bb", "bm", "bv"], ["bn"], name="bn"),
                N("Resize", ["x", "", "scales"], ["rs"], name="resize_scales", mode="nearest"),
                N("Relu", ["rs"], ["rsr"], name="relu_scales"),
                N("ConvTranspose", ["x", "kt"], ["ct"], name="deconv", kernel_shape=[2, 2], strides=[2, 2]),
                N("Relu", ["ct"], ["ctr"], name="relu_deconv")],
               [vi("x", ["n", 8, 16, "w"])], [vi(o, None) for o in ("gr", "bn", "rsr", "ctr")],
               [i64("s0", [0]), i64("s2", [2]), i64("s4", [4]), i64("two", [2]), const("cw", [8, 8, 3, 3]),
                const("bs", [8]), const("bb", [8]), const("bm", [8]), const("bv", [8]),
                f32("scales", [1.0, 1.0, 2.0, 0.5]), const("kt", [8, 4, 2, 2])], opset=13),
         out, "resize_rank.onnx")
    save(model([N("LayerNormalization", ["x", "gamma", "beta"], ["y1"], name="/ln", axis=-1, epsilon=1e-5),
                N("LayerNormalization", ["x", "gamma"], ["y2"], name="/ln_nobeta", axis=-1)],
               [vi("x", ["batch", 4])], [vi("y1", None), vi("y2", None)], [const("gamma", [4]), const("beta", [4])]),
         out, "layernorm.onnx")
    save(model([N("ConvTranspose", ["xh", "wh"], ["yh"], name="/ct1d", kernel_shape=[3], strides=[2])],
               [vi("xh", [1, 4, 5], T.FLOAT16)], [vi("yh", None)], [h.make_tensor("wh", T.FLOAT16, [4, 2, 3], np.zeros(24, dtype=np.float16).tobytes(), raw=True)]),
         out, "convt1d.onnx")
    save(model([N("GridSample", ["gx", "gg"], ["gy"], name="/gs"), N("GridSample", ["gu", "gg"], ["gz"], name="/gs_unknown")],
               [vi("gx", [1, 3, 8, 8]), vi("gg", [1, 4, 4, 2]), vi("gu", None)], [vi("gy", None), vi("gz", None)], opset=16),
         out, "gridsample.onnx")
    save(model([N("MaxPool", ["mx"], ["my"], name="/mp3", kernel_shape=[2, 2, 2], strides=[2, 2, 2])],
               [vi("mx", [1, 4, 8, 8, 8])], [vi("my", None)], opset=13),
         out, "maxpool3d.onnx")
    if "--corpus" in sys.argv:
        corpus(os.path.join(out, "corpus"))


def corpus(out):
    """One node per operator schema, at opsets 11, 17 and 19."""
    os.makedirs(out, exist_ok=True)
    n = 0
    seen = set()
    for s in sorted(onnx.defs.get_all_schemas(), key=lambda s: (s.domain, s.name)):
        if s.domain not in ("", "ai.onnx"):
            continue
        for opset in (11, 17, 19):
            try:
                sch = onnx.defs.get_schema(s.name, opset, s.domain)
            except Exception:
                continue
            if (s.name, sch.since_version, opset) in seen:
                continue
            seen.add((s.name, sch.since_version, opset))
            nin = max(sch.min_input, 1 if sch.inputs else 0)
            nout = max(sch.min_output, 1)
            ins = ["in%d" % i for i in range(nin)]
            outs = ["out%d" % i for i in range(nout)]
            attrs = {}
            for a in sch.attributes.values():
                if a.required:
                    t = a.type
                    if t == onnx.defs.OpSchema.AttrType.INT:
                        attrs[a.name] = 1
                    elif t == onnx.defs.OpSchema.AttrType.FLOAT:
                        attrs[a.name] = 1.0
                    elif t == onnx.defs.OpSchema.AttrType.STRING:
                        attrs[a.name] = "a"
                    elif t == onnx.defs.OpSchema.AttrType.INTS:
                        attrs[a.name] = [1]
                    elif t == onnx.defs.OpSchema.AttrType.FLOATS:
                        attrs[a.name] = [1.0]
                    elif t == onnx.defs.OpSchema.AttrType.STRINGS:
                        attrs[a.name] = ["a"]
                    elif t == onnx.defs.OpSchema.AttrType.GRAPH:
                        attrs[a.name] = h.make_graph([], "sub", [], [])
                    elif t == onnx.defs.OpSchema.AttrType.TENSOR:
                        attrs[a.name] = h.make_tensor("t", T.FLOAT, [1], [0.0])
            try:
                node = h.make_node(s.name, ins, outs, name="n_" + s.name, **attrs)
                m = model([node], [vi(i, ["d", 2]) for i in ins], [vi(o, None) for o in outs], opset=opset)
            except Exception:
                continue
            onnx.save(m, os.path.join(out, "%s_%d.onnx" % (s.name, opset)))
            n += 1
    print(n)


if __name__ == "__main__":
    main()
