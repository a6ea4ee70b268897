#!/usr/bin/env python3
"""Writes the two-layer decoder of examples/llm_decoder.json as the ONNX model an
exporter would give ATC, and, next to it, the GE graph GE's ONNX parser builds from
it, as ATC JSON, so the two can be compared:

  llm_decoder.onnx        opset 16; MatMul projections, NPURmsNorm, NPURotaryMul,
                          NPUPromptFlashAttention (prefill) and NPUIncreFlashAttention
                          (decode) whose actual_seq_lengths input is a Cast computed on
                          the device, SiLU as Sigmoid * Mul, weights as initializers
                          (zeros, 256 bytes each: the shapes are the model's, the data
                          is cut short, as gerules never reads it)
  llm_decoder_onnx.json   the GE graph of llm_decoder.onnx as `atc --mode=1` would write
                          it after parsing: Data for the inputs, Const <name>_Initializer_<k>
                          for the initializers (k in sorted name order), every node under
                          its Ascend IR type (MatMul -> BatchMatMulV2, NPURmsNorm -> RmsNorm,
                          ...), with the _onnx_node/_onnx_op provenance attributes

The mapping used here is written out by hand from rules/onnx.rules on purpose: the test
compares gerules' reading of the ONNX file with this independent expectation.

Needs python3-onnx (Debian). Run: python3 examples/gen_onnx_example.py [OUTDIR]
"""
import json
import os
import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h

OPSET = 16
IR = {"Cast": "Cast", "MatMul": "BatchMatMulV2", "NPURmsNorm": "RmsNorm", "NPURotaryMul": "RotaryMul",
      "NPUPromptFlashAttention": "PromptFlashAttention", "NPUIncreFlashAttention": "IncreFlashAttention",
      "Add": "Add", "Mul": "Mul", "Sigmoid": "Sigmoid"}
ONNX_DT = {"DT_FLOAT16": T.FLOAT16, "DT_FLOAT": T.FLOAT, "DT_INT64": T.INT64, "DT_BOOL": T.BOOL}


class Model:
    def __init__(self):
        self.nodes, self.inputs, self.inits = [], [], []
        self.names = {}           # ONNX tensor name -> (GE op, index, desc)

    def data(self, name, dt, dims):
        self.inputs.append((name, dt, dims))
        return name

    def init(self, name, dt, dims):
        self.inits.append((name, dt, dims))
        return name

    def op(self, op_type, ins, nout=1, name=None, **attrs):
        outs = [name + (":%d" % i if i else "") for i in range(nout)]
        self.nodes.append((op_type, list(ins), outs, name, attrs))
        return outs if nout > 1 else outs[0]

    def onnx_model(self):
        inputs = [h.make_tensor_value_info(n, ONNX_DT[dt], dims) for n, dt, dims in self.inputs]
        inits = []
        for n, dt, dims in self.inits:
            t = onnx.TensorProto()
            t.name, t.data_type = n, ONNX_DT[dt]
            t.dims.extend(dims)
            t.raw_data = b"\0" * 256
            inits.append(t)
        nodes = [h.make_node(op, ins, outs, name=name, **attrs) for op, ins, outs, name, attrs in self.nodes]
        last = self.nodes[-1][2][0]
        g = h.make_graph(nodes, "llm_decoder", inputs, [h.make_tensor_value_info(last, T.FLOAT16, None)],
                         initializer=inits)
        m = h.make_model(g, opset_imports=[h.make_opsetid("", OPSET)], producer_name="gerules-example")
        m.ir_version = 8
        return m

    def ge_json(self):
        ops, where = [], {}

        def desc(dt, dims):
            return {"dtype": dt, "shape": {"dim": dims}}

        for k, (n, dt, dims) in enumerate(sorted(self.inits)):
            nm = "%s_Initializer_%d" % (n, k)
            ops.append({"name": nm, "type": "Const",
                        "attr": [{"key": "_onnx_node", "value": {"s": n}},
                                 {"key": "_onnx_op", "value": {"s": "initializer"}}],
                        "output_desc": [desc(dt, dims)]})
            where[n] = (nm, 0, desc(dt, dims))
        for i, (n, dt, dims) in enumerate(self.inputs):
            ops.append({"name": n, "type": "Data", "attr": [{"key": "index", "value": {"i": i}}],
                        "output_desc": [desc(dt, dims)]})
            where[n] = (n, 0, desc(dt, dims))
        for op, ins, outs, name, attrs in self.nodes:
            o = {"name": name, "type": IR[op], "input": [], "input_desc": []}
            for x in ins:
                if x == "":
                    o["input"].append("")
                    continue
                src, idx, d = where[x]
                o["input"].append("%s:%d" % (src, idx))
                o["input_desc"].append(d)
            o["attr"] = [{"key": "_onnx_node", "value": {"s": name}},
                         {"key": "_onnx_op", "value": {"s": "ai.onnx::%d::%s" % (OPSET, op)}}]
            for k, v in attrs.items():
                o["attr"].append({"key": k, "value": {"i": v} if isinstance(v, int) else {"s": v}})
            o["output_desc"] = [{} for _ in outs]
            if op == "Cast":     # GE's Cast infers its output: the input's shape in dtype `to`
                dt = {v: k for k, v in ONNX_DT.items()}[attrs["to"]]
                o["output_desc"] = [desc(dt, where[ins[0]][2]["shape"]["dim"])]
            for i, x in enumerate(outs):
                where[x] = (name, i, o["output_desc"][i])
            ops.append(o)
        return {"graph": [{"name": "llm_decoder", "op": ops}]}   # ONNX has no model name


def decoder():
    m = Model()
    H, NH, D, FF, S = 4096, 32, 128, 11008, 128
    x = m.data("hidden_states", "DT_FLOAT16", [1, S, H])
    seq = m.data("seq_len_host", "DT_INT64", [1])
    seqlen = m.op("Cast", [seq], name="actual_seq_lengths", to=T.INT64)
    mask = m.init("atten_mask", "DT_BOOL", [1, 1, S, S])
    for layer in range(2):
        p = "layer%d/" % layer
        ln1 = m.op("NPURmsNorm", [x, m.init(p + "input_norm/gamma", "DT_FLOAT16", [H])], 2, name=p + "input_norm")[0]
        qkv = [m.op("MatMul", [ln1, m.init(p + "attn/%s/weight" % pr, "DT_FLOAT16", [H, H])], name=p + "attn/" + pr)
               for pr in ("q_proj", "k_proj", "v_proj")]
        cos = m.init(p + "attn/rope_cos", "DT_FLOAT16", [1, S, 1, D])
        sin = m.init(p + "attn/rope_sin", "DT_FLOAT16", [1, S, 1, D])
        q = m.op("NPURotaryMul", [qkv[0], cos, sin], name=p + "attn/q_rope")
        k = m.op("NPURotaryMul", [qkv[1], cos, sin], name=p + "attn/k_rope")
        if layer == 0:
            attn = m.op("NPUPromptFlashAttention", [q, k, qkv[2], "", mask, seqlen], name=p + "attn/prompt_flash_attention",
                        num_heads=NH, input_layout="BSH")
        else:
            attn = m.op("NPUIncreFlashAttention", [q, k, qkv[2], "", mask, seqlen], name=p + "attn/incre_flash_attention",
                        num_heads=NH, input_layout="BSH")
        o = m.op("MatMul", [attn, m.init(p + "attn/o_proj/weight", "DT_FLOAT16", [H, H])], name=p + "attn/o_proj")
        res1 = m.op("Add", [x, o], name=p + "attn_residual")
        ln2 = m.op("NPURmsNorm", [res1, m.init(p + "post_attention_norm/gamma", "DT_FLOAT16", [H])], 2,
                   name=p + "post_attention_norm")[0]
        gate = m.op("MatMul", [ln2, m.init(p + "mlp/gate_proj/weight", "DT_FLOAT16", [H, FF])], name=p + "mlp/gate_proj")
        up = m.op("MatMul", [ln2, m.init(p + "mlp/up_proj/weight", "DT_FLOAT16", [H, FF])], name=p + "mlp/up_proj")
        sig = m.op("Sigmoid", [gate], name=p + "mlp/act_sigmoid")
        act = m.op("Mul", [gate, sig], name=p + "mlp/act")
        mul = m.op("Mul", [act, up], name=p + "mlp/mul")
        down = m.op("MatMul", [mul, m.init(p + "mlp/down_proj/weight", "DT_FLOAT16", [FF, H])], name=p + "mlp/down_proj")
        x = m.op("Add", [res1, down], name=p + "mlp_residual")
    fin = m.op("NPURmsNorm", [x, m.init("final_norm/gamma", "DT_FLOAT16", [H])], 2, name="final_norm")[0]
    m.op("MatMul", [fin, m.init("lm_head/weight", "DT_FLOAT16", [H, 32000])], name="lm_head")
    return m


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    m = decoder()
    onnx.save(m.onnx_model(), os.path.join(out, "llm_decoder.onnx"))
    with open(os.path.join(out, "llm_decoder_onnx.json"), "w") as f:
        json.dump(m.ge_json(), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
