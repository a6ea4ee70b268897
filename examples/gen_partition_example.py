#!/usr/bin/env python3
"""gen_partition_example.py: writes examples/llm_decoder_partition.json, a
small decoder graph in the JSON form of `atc --mode=1` that exercises GE's
dynamic-shape partition (rules/partition.rules):

  - a dynamic-shape embedding lookup in front (GatherV2 with a -1 sequence
    dimension, padded to a fixed length by PadV3): the dynamic part;
  - a static attention block (RmsNorm, q/k/v MatMulV2, FusedInferAttentionScore,
    o_proj, residual Add) whose FusedInferAttentionScore reads its sequence
    lengths from a device op (Cast): a static cluster of 8 nodes;
  - a second FusedInferAttentionScore whose sequence lengths come from a
    FileConstant: constant at compile time;
  - an IncreFlashAttention carrying _force_unknown_shape, then a 3-node static
    island (Mul, Add, Cast) before a NonZero with a dynamic output: the island
    is below the limit of 4 and merged into the dynamic graph.

Python 3 standard library only; run from the source tree:
    python3 examples/gen_partition_example.py
"""
import json
import os

H = 512
S = 128


def desc(dt, dims):
    return {"dtype": dt, "shape": {"dim": list(dims)}, "layout": "ND"}


class Graph:
    def __init__(self):
        self.ops = []
        self.outs = {}

    def op(self, name, typ, inputs=(), outs=(), attrs=None):
        o = {"name": name, "type": typ}
        if inputs:
            o["input"] = [i if i == "" else (i if ":" in i else i + ":0") for i in inputs]
            o["input_desc"] = [self.outs[i.split(":")[0]][int(i.split(":")[1]) if ":" in i else 0]
                               for i in inputs if i != ""]
        if typ in ("Const", "Constant") and outs:
            # the weight GE reads (ATTR_NAME_WEIGHTS "value"): without it a
            # Const is not constant (constant_utils.cc:44-48)
            attrs = dict(attrs or {}, value={"t": {"desc": desc(*outs[0])}})
        if attrs:
            o["attr"] = [{"key": k, "value": v} for k, v in attrs.items()]
        if outs:
            o["output_desc"] = [desc(dt, dims) for dt, dims in outs]
        self.outs[name] = o.get("output_desc", [])
        self.ops.append(o)
        return name


def build():
    g = Graph()
    f16 = "DT_FLOAT16"
    # the dynamic front: embedding lookup with a dynamic sequence length
    g.op("input_ids", "Data", outs=[("DT_INT64", [1, -1])], attrs={"index": {"i": 0}})
    g.op("seq_len", "Data", outs=[("DT_INT32", [1])], attrs={"index": {"i": 1}})
    g.op("embed/weight", "Const", outs=[(f16, [32000, H])])
    g.op("embed/axis", "Const", outs=[("DT_INT32", [1])])
    g.op("embed/lookup", "GatherV2", ["embed/weight", "input_ids", "embed/axis"], outs=[(f16, [1, -1, H])])
    g.op("embed/pad_to", "Const", outs=[("DT_INT64", [6])])
    g.op("embed/pad", "PadV3", ["embed/lookup", "embed/pad_to"], outs=[(f16, [1, S, H])])
    # the static attention block
    g.op("seq_len_dev", "Cast", ["seq_len"], outs=[("DT_INT64", [1])], attrs={"dst_type": {"i": 9}})
    g.op("attn/norm/gamma", "Const", outs=[(f16, [H])])
    g.op("attn/norm", "RmsNorm", ["embed/pad", "attn/norm/gamma"], outs=[(f16, [1, S, H]), ("DT_FLOAT", [1, S, 1])])
    for p in ("q", "k", "v"):
        g.op("attn/%s_proj/weight" % p, "Const", outs=[(f16, [H, H])])
        g.op("attn/%s_proj" % p, "MatMulV2", ["attn/norm", "attn/%s_proj/weight" % p], outs=[(f16, [1, S, H])])
    g.op("attn/fia", "FusedInferAttentionScore",
         ["attn/q_proj", "attn/k_proj", "attn/v_proj", "", "", "seq_len_dev"],
         outs=[(f16, [1, S, H]), ("DT_FLOAT", [1, 8, S, 1])],
         attrs={"num_heads": {"i": 8}, "input_layout": {"s": "BSH"}})
    g.op("attn/o_proj/weight", "Const", outs=[(f16, [H, H])])
    g.op("attn/o_proj", "MatMulV2", ["attn/fia", "attn/o_proj/weight"], outs=[(f16, [1, S, H])])
    g.op("attn/residual", "Add", ["embed/pad", "attn/o_proj"], outs=[(f16, [1, S, H])])
    # a FileConstant-fed attention op: its sequence lengths are a weight file
    g.op("cache/seq_lens", "FileConstant", outs=[("DT_INT64", [1])],
         attrs={"location": {"s": "cache_seq_lens.bin"}, "shape": {"list": {"i": [1], "val_type": "VT_LIST_INT"}}})
    g.op("cache/fia", "FusedInferAttentionScore",
         ["attn/residual", "attn/residual", "attn/residual", "", "", "cache/seq_lens"],
         outs=[(f16, [1, S, H]), ("DT_FLOAT", [1, 8, S, 1])],
         attrs={"num_heads": {"i": 8}, "input_layout": {"s": "BSH"}})
    # a node forced dynamic by an earlier pass, a 3-node static island, a dynamic output
    g.op("post/ifa", "IncreFlashAttention",
         ["attn/residual", "attn/residual", "attn/residual", "", "", "seq_len_dev"],
         outs=[(f16, [1, S, H])],
         attrs={"num_heads": {"i": 8}, "_force_unknown_shape": {"b": True}})
    g.op("post/scale/value", "Const", outs=[(f16, [1])])
    g.op("post/scale", "Mul", ["post/ifa", "post/scale/value"], outs=[(f16, [1, S, H])])
    g.op("post/bias/value", "Const", outs=[(f16, [1])])
    g.op("post/bias", "Add", ["post/scale", "post/bias/value"], outs=[(f16, [1, S, H])])
    g.op("post/cast", "Cast", ["post/bias"], outs=[("DT_FLOAT", [1, S, H])], attrs={"dst_type": {"i": 0}})
    g.op("post/nonzero", "NonZero", ["post/cast"], outs=[("DT_INT64", [-1, 3])])
    g.op("output", "NetOutput", ["post/nonzero", "cache/fia"])
    return g


def main():
    g = build()
    model = {"name": "decoder_partition", "version": 1, "graph": [{"name": "decoder_partition", "op": g.ops}]}
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "llm_decoder_partition.json")
    with open(out, "w") as f:
        json.dump(model, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
