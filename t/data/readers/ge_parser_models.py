#!/usr/bin/env python3
"""ge_parser_models.py OUTDIR: builds, with the ONNX project's own library
(python3-onnx), models of the same structure as those GE's ONNX parser system
tests read (hicann/ge tests/parser/st/testcase/test_onnx_parser.cc and its
origin_models/), for t/t1144-ge-onnx-parser.sh. The structures are read from
the tests; the files are written here, none is copied:

  conv2d.onnx       an unnamed Conv (x, W, B): GE names it Conv_0 and makes it the
                    graph's output (onnx_parser_user_output_with_default)
  if_cycle.onnx     an unnamed If whose output 'res' an Add after it produces
                    again from 'res' (onnx_parser_if_node: GE fails, a cycle)
  clip_v9.onnx      an unnamed Clip-9 with min and max, expanded by its plugin into
                    several nodes (onnx_parser_expand_one_to_many)
  const_type.onnx   six initializers of int64, uint64, complex64, string, double
                    and complex128, each added to an int64 input
                    (onnx_parser_const_data_type)
  if_const.onnx     an If with no output whose branches hold a Constant, and a
                    Constant (onnx_parser_if_node_with_const_input)
  not_support.onnx  two Constants and a node of op type Test, which no plugin
                    registers (onnx_test_PreChecker_not_support)
  int4_raw.onnx     a Constant of INT4 in raw_data next to an Identity
                    (onnx_parser_int4_const_raw_data)
  int4_int32.onnx   the same in int32_data (onnx_parser_int4_const_int32_data)
"""
import os
import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h


def save(graph, out, name, opset):
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    onnx.save(m, os.path.join(out, name))


def vi(name, shape, t=T.FLOAT):
    return h.make_tensor_value_info(name, t, shape)


def main():
    out = sys.argv[1]
    N = h.make_node
    # nodes without names: GE names them <op_type>_<n>, n counting the
    # unnamed nodes (onnx_parser.cc AdaptAndFindAllOnnxGraph)
    save(h.make_graph([N("Conv", ["x", "W", "B"], ["y"], dilations=[1, 1], group=1, kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1], strides=[1, 1])], "Conv", [vi("x", [1, 1, 5, 5])], [vi("y", None)],
                      [h.make_tensor("W", T.FLOAT, [1, 1, 3, 3], [0.0] * 9), h.make_tensor("B", T.FLOAT, [1], [0.0])]),
         out, "conv2d.onnx", 11)
    then_g = h.make_graph([N("Identity", ["add_out"], ["then_out"])], "then_body", [], [vi("then_out", [5])])
    else_g = h.make_graph([N("Identity", ["add_out"], ["else_out"])], "else_body", [], [vi("else_out", [5])])
    save(h.make_graph([N("Add", ["then_in", "else_in"], ["add_out"]),
                       N("If", ["cond"], ["res"], then_branch=then_g, else_branch=else_g),
                       N("Add", ["add_out", "res"], ["res"])], "test_if",
                      [vi("cond", []), vi("else_in", [5]), vi("then_in", [5])], [vi("res", [5])]),
         out, "if_cycle.onnx", 11)
    save(h.make_graph([N("Clip", ["X"], ["Y"], max=1.0, min=-1.0)], "test_clip_case_V9", [vi("X", [3, 4, 5])],
                      [vi("Y", [3, 4, 5])]), out, "clip_v9.onnx", 9)
    inits = [h.make_tensor("B0", T.INT64, [1, 2], [1, 2]), h.make_tensor("B1", T.UINT64, [1, 2], [1, 2]),
             h.make_tensor("B2", T.COMPLEX64, [1, 2], [1 + 2j, 3 + 4j]), h.make_tensor("B3", T.STRING, [1, 2], [b"a", b"b"]),
             h.make_tensor("B4", T.DOUBLE, [1, 2], [1.0, 2.0]), h.make_tensor("B5", T.COMPLEX128, [1, 2], [1 + 2j, 3 + 4j])]
    save(h.make_graph([N("Add", ["A", "B%d" % i], ["C%d" % i], name="test_add_%d" % i) for i in range(6)], "test_const",
                      [vi("A", [1, 2], T.INT64)], [vi("C%d" % i, [1, 2], T.INT64) for i in range(6)], inits),
         out, "const_type.onnx", 11)
    konst = lambda o: N("Constant", [], [o], value=h.make_tensor("v", T.FLOAT, [5], [1.0] * 5))
    save(h.make_graph([N("If", ["X"], [], then_branch=h.make_graph([konst("then_out")], "then_body", [], [vi("then_out", [5])]),
                         else_branch=h.make_graph([konst("else_out")], "else_body", [], [vi("else_out", [5])])),
                       konst("Y")], "if_model", [vi("X", [5])], [vi("Y", [5])]), out, "if_const.onnx", 11)
    save(h.make_graph([N("Constant", [], ["c1"], value=h.make_tensor("v", T.FLOAT, [1], [1.0])),
                       N("Constant", [], ["c2"], value=h.make_tensor("v", T.FLOAT, [1], [2.0])),
                       N("Test", ["c1", "c2"], ["t"], name="test")], "g", [], [vi("t", None)]),
         out, "not_support.onnx", 11)
    for name, raw in (("int4_raw.onnx", True), ("int4_int32.onnx", False)):
        t = onnx.TensorProto()
        t.name, t.data_type = "v", 22       # INT4 (onnx 1.16; this onnx library may predate it)
        t.dims.append(8)
        if raw:
            t.raw_data = bytes([0x10, 0x32, 0x54, 0x76])
        else:
            t.int32_data.append(0x76543210)
        save(h.make_graph([N("Constant", [], ["const_int4_out"], value=t), N("Identity", ["A"], ["Y"])], "g",
                          [vi("A", [8])], [vi("Y", [8])]), out, name, 11)


if __name__ == "__main__":
    main()
