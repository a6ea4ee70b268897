#!/usr/bin/env python3
"""Writes the example graphs of examples/ in the JSON form `atc --mode=1` produces
(a GE ModelDef: graph[].op[] with name, type, input "src:idx", attr key/value
arrays, input_desc/output_desc with dtype, shape.dim and layout).

  llm_decoder.json          two decoder layers: FusedInferAttentionScore (prefill) and
                            IncreFlashAttention (decode) whose actual_seq_lengths input is
                            computed on the device (a Cast of a Data)
  llm_decoder_const.json    the same with actual_seq_lengths coming from Const ops
  llm_decoder_dynamic.json  the same with a dynamic sequence dimension (-1)
  convnet.json              a small image classifier (Conv2D, Relu, MaxPool, MatMulV2, SoftmaxV2)

Run from anywhere: python3 examples/gen_examples.py [OUTDIR]
"""
import json
import os
import sys

F16, F32, I64 = "DT_FLOAT16", "DT_FLOAT", "DT_INT64"


class Graph:
    def __init__(self, name, dynamic=False):
        self.name = name
        self.ops = []
        self.out = {}          # op name -> list of output descs
        self.dynamic = dynamic

    def shape(self, dims):
        if self.dynamic:
            dims = [-1 if d == "S" else d for d in dims]
        else:
            dims = [128 if d == "S" else d for d in dims]
        return dims

    def op(self, name, typ, inputs=(), outs=(), attrs=None):
        op = {"name": name, "type": typ}
        if inputs:
            op["input"] = list(inputs)
        if attrs:
            op["attr"] = [{"key": k, "value": v} for k, v in attrs.items()]
        descs = []
        for src in inputs:
            if src == "" or src.endswith(":-1"):
                continue
            s, idx = src.rsplit(":", 1)
            descs.append(self.out[s][int(idx)])
        if descs:
            op["input_desc"] = descs
        od = [{"dtype": dt, "shape": {"dim": self.shape(dims)}, "layout": "ND"} for dt, dims in outs]
        if od:
            op["output_desc"] = od
        self.out[name] = od
        self.ops.append(op)
        return name + ":0"

    def const(self, name, dt, dims, value=None):
        attrs = {"value": {"t": {"desc": {"dtype": dt, "shape": {"dim": dims}}}}}
        if value is not None:
            attrs["_const_value"] = {"list": {"i": value, "val_type": "VT_LIST_INT"}}
        return self.op(name, "Const", (), [(dt, dims)], attrs)


def decoder(kind):
    dynamic = kind == "dynamic"
    g = Graph("llm_decoder" + ("" if kind == "device" else "_" + kind), dynamic)
    H, NH, D, FF = 4096, 32, 128, 11008
    x = g.op("hidden_states", "Data", (), [(F16, [1, "S", H])], {"index": {"i": 0}})
    seq = g.op("seq_len_host", "Data", (), [(I64, [1])], {"index": {"i": 1}})
    if kind == "const":
        seqlen = g.const("actual_seq_lengths", I64, [1], [128])
    else:
        # computed on the device: the tiling of the attention ops depends on it
        seqlen = g.op("actual_seq_lengths", "Cast", (seq,), [(I64, [1])], {"dst_type": {"i": 9}})
    mask = g.const("atten_mask", "DT_BOOL", [1, 1, 128, 128])
    for layer in range(2):
        p = "layer%d/" % layer
        ln1 = g.op(p + "input_norm", "RmsNorm", (x, g.const(p + "input_norm/gamma", F16, [H])),
                   [(F16, [1, "S", H]), (F32, [1, "S", 1])], {"epsilon": {"f": "1e-06"}})
        qkv = []
        for proj in ("q_proj", "k_proj", "v_proj"):
            w = g.const(p + "attn/%s/weight" % proj, F16, [H, H])
            qkv.append(g.op(p + "attn/" + proj, "MatMulV2", (ln1, w), [(F16, [1, "S", H])],
                            {"transpose_x1": {"b": False}, "transpose_x2": {"b": True}}))
        cos = g.const(p + "attn/rope_cos", F16, [1, "S", 1, D])
        sin = g.const(p + "attn/rope_sin", F16, [1, "S", 1, D])
        q = g.op(p + "attn/q_rope", "RotaryMul", (qkv[0], cos, sin), [(F16, [1, "S", H])])
        k = g.op(p + "attn/k_rope", "RotaryMul", (qkv[1], cos, sin), [(F16, [1, "S", H])])
        if layer == 0:
            # prefill attention: 31 inputs, 5 = actual_seq_lengths, 6 = actual_seq_lengths_kv
            ins = [q, k, qkv[2], "", mask, seqlen, seqlen]
            attn = g.op(p + "attn/fused_infer_attention", "FusedInferAttentionScore", ins,
                        [(F16, [1, "S", H]), (F32, [1, NH, "S", 1])],
                        {"num_heads": {"i": NH}, "input_layout": {"s": "BSH"},
                         "scale": {"f": "0.0883883"}, "num_key_value_heads": {"i": NH}})
        else:
            # decode attention: 5 = actual_seq_lengths
            ins = [q, k, qkv[2], "", mask, seqlen]
            attn = g.op(p + "attn/incre_flash_attention", "IncreFlashAttention", ins,
                        [(F16, [1, "S", H])],
                        {"num_heads": {"i": NH}, "input_layout": {"s": "BSH"}, "scale_value": {"f": "0.0883883"}})
        o = g.op(p + "attn/o_proj", "MatMulV2", (attn, g.const(p + "attn/o_proj/weight", F16, [H, H])),
                 [(F16, [1, "S", H])], {"transpose_x2": {"b": True}})
        res1 = g.op(p + "attn_residual", "Add", (x, o), [(F16, [1, "S", H])])
        ln2 = g.op(p + "post_attention_norm", "RmsNorm", (res1, g.const(p + "post_attention_norm/gamma", F16, [H])),
                   [(F16, [1, "S", H]), (F32, [1, "S", 1])], {"epsilon": {"f": "1e-06"}})
        gate = g.op(p + "mlp/gate_proj", "MatMulV2", (ln2, g.const(p + "mlp/gate_proj/weight", F16, [FF, H])),
                    [(F16, [1, "S", FF])], {"transpose_x2": {"b": True}})
        up = g.op(p + "mlp/up_proj", "MatMulV2", (ln2, g.const(p + "mlp/up_proj/weight", F16, [FF, H])),
                  [(F16, [1, "S", FF])], {"transpose_x2": {"b": True}})
        act = g.op(p + "mlp/act", "Swish", (gate,), [(F16, [1, "S", FF])], {"scale": {"f": "1"}})
        mul = g.op(p + "mlp/mul", "Mul", (act, up), [(F16, [1, "S", FF])])
        down = g.op(p + "mlp/down_proj", "MatMulV2", (mul, g.const(p + "mlp/down_proj/weight", F16, [H, FF])),
                    [(F16, [1, "S", H])], {"transpose_x2": {"b": True}})
        x = g.op(p + "mlp_residual", "Add", (res1, down), [(F16, [1, "S", H])])
    fin = g.op("final_norm", "RmsNorm", (x, g.const("final_norm/gamma", F16, [H])),
               [(F16, [1, "S", H]), (F32, [1, "S", 1])], {"epsilon": {"f": "1e-06"}})
    logits = g.op("lm_head", "MatMulV2", (fin, g.const("lm_head/weight", F16, [32000, H])),
                  [(F16, [1, "S", 32000])], {"transpose_x2": {"b": True}})
    g.op("output", "NetOutput", (logits,), [])
    return g


def convnet():
    g = Graph("convnet")
    x = g.op("image", "Data", (), [(F16, [8, 3, 224, 224])], {"index": {"i": 0}})
    chans = [(3, 32), (32, 64), (64, 128)]
    size = 224
    for i, (cin, cout) in enumerate(chans):
        w = g.const("conv%d/weight" % i, F16, [cout, cin, 3, 3])
        c = g.op("conv%d" % i, "Conv2D", (x, w), [(F16, [8, cout, size, size])],
                 {"strides": {"list": {"i": [1, 1, 1, 1], "val_type": "VT_LIST_INT"}},
                  "pads": {"list": {"i": [1, 1, 1, 1], "val_type": "VT_LIST_INT"}},
                  "data_format": {"s": "NCHW"}})
        b = g.op("conv%d/bias_add" % i, "BiasAdd", (c, g.const("conv%d/bias" % i, F16, [cout])),
                 [(F16, [8, cout, size, size])])
        r = g.op("conv%d/relu" % i, "Relu", (b,), [(F16, [8, cout, size, size])])
        size //= 2
        x = g.op("pool%d" % i, "MaxPool", (r,), [(F16, [8, cout, size, size])],
                 {"ksize": {"list": {"i": [1, 1, 2, 2], "val_type": "VT_LIST_INT"}}})
    dw = g.op("depthwise", "DepthwiseConv2D", (x, g.const("depthwise/weight", F16, [128, 1, 3, 3])),
              [(F16, [8, 128, size, size])])
    flat = g.op("flatten", "Flatten", (dw,), [(F16, [8, 128 * size * size])])
    fc = g.op("fc", "MatMulV2", (flat, g.const("fc/weight", F16, [128 * size * size, 1000])), [(F16, [8, 1000])])
    sm = g.op("softmax", "SoftmaxV2", (fc,), [(F16, [8, 1000])], {"axes": {"list": {"i": [-1], "val_type": "VT_LIST_INT"}}})
    g.op("output", "NetOutput", (sm,), [])
    return g


def write(g, path, model):
    doc = {"name": model, "version": 1,
           "attr": [{"key": "atc_version", "value": {"s": "8.1.RC1"}}],
           "graph": [{"name": g.name, "op": g.ops}]}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    write(decoder("device"), os.path.join(out, "llm_decoder.json"), "llama_2layer")
    write(decoder("const"), os.path.join(out, "llm_decoder_const.json"), "llama_2layer_const_seqlen")
    write(decoder("dynamic"), os.path.join(out, "llm_decoder_dynamic.json"), "llama_2layer_dynamic")
    write(convnet(), os.path.join(out, "convnet.json"), "small_convnet")


if __name__ == "__main__":
    main()
