#!/usr/bin/env python3
"""gen_graph.py: writes a synthetic transformer-like model graph in the JSON
form that `atc --mode=1` produces (a GE ModelDef: {"name", "graph": [{"name",
"op": [...]}]}), for the graph-loader and evaluator benchmarks. Decoder
layers use realistic GE op types (Const weights, RmsNorm, MatMulV2, RotaryMul,
FusedInferAttentionScore / IncreFlashAttention with actual_seq_lengths fed by
a device-side Cast of a Data op, an unfused BatchMatMulV2/SoftmaxV2 attention
every fourth layer, Swish-gated MLP, residual Adds), each op with input_desc /
output_desc (dtype, shape.dim, layout) and a few attributes. The output is
streamed (never built in memory), deterministic for a given --seed, has
exactly --ops ops (padded at the end) and averages about 285 bytes per op.

usage: python3 bench/gen_graph.py --ops N [--dynamic] [--seed S] -o FILE
"""
import argparse
import random
import sys

F16 = "DT_FLOAT16"
I64 = "DT_INT64"
I32 = "DT_INT32"
F32 = "DT_FLOAT"


def desc(dtype, dims, layout=""):
    # Like a real dump, most descs say "ND"; keep that default implicit to
    # stay near 285 bytes per op (a missing layout reads as "").
    lay = ',"layout":"%s"' % layout if layout else ""
    return ('{"dtype":"%s","shape":{"dim":[%s]}%s}'
            % (dtype, ",".join(str(d) for d in dims), lay))


def a_b(k, v):
    return '{"key":"%s","value":{"b":%s}}' % (k, "true" if v else "false")


def a_i(k, v):
    return '{"key":"%s","value":{"i":%d}}' % (k, v)


def a_f(k, v):
    return '{"key":"%s","value":{"f":"%s"}}' % (k, v)


def a_s(k, v):
    return '{"key":"%s","value":{"s":"%s"}}' % (k, v)


def a_li(k, v):
    return ('{"key":"%s","value":{"list":{"val_type":"VT_LIST_INT","i":[%s]}}}'
            % (k, ",".join(str(x) for x in v)))


class Writer:
    """Counts ops and streams them; stops accepting ops at the limit."""

    def __init__(self, out, limit):
        self.out = out
        self.limit = limit
        self.n = 0
        self.buf = []

    def full(self):
        return self.n >= self.limit

    def op(self, name, typ, inputs=(), ins=(), outs=(), attrs=()):
        if self.n >= self.limit:
            raise RuntimeError("op limit exceeded")
        parts = ['{"name":"%s","type":"%s"' % (name, typ)]
        if inputs:
            parts.append(',"input":[%s]' % ",".join('"%s"' % i for i in inputs))
        if attrs:
            parts.append(',"attr":[%s]' % ",".join(attrs))
        if ins:
            parts.append(',"input_desc":[%s]' % ",".join(ins))
        if outs:
            parts.append(',"output_desc":[%s]' % ",".join(outs))
        parts.append("}")
        self.buf.append(("," if self.n else "") + "".join(parts))
        self.n += 1
        if len(self.buf) >= 4096:
            self.flush()
        return name + ":0"

    def flush(self):
        self.out.write("".join(self.buf))
        self.buf = []


LAYER_OPS = 44      # upper bound of ops one decoder layer emits
TAIL_OPS = 4        # final norm weight, norm, lm_head weight+matmul... see tail()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ops", type=int, required=True, help="exact number of ops")
    ap.add_argument("--dynamic", action="store_true", help="use -1 for the sequence dim")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", dest="output", required=True, help="output file ('-' = stdout)")
    a = ap.parse_args()
    if a.ops < 1:
        ap.error("--ops must be at least 1")
    rnd = random.Random(a.seed)
    hidden = rnd.choice([2048, 4096, 5120])
    heads = hidden // 128
    kv_heads = rnd.choice([heads, heads // 4, 8])
    inter = hidden * 8 // 3 // 256 * 256
    vocab = rnd.choice([32000, 65536, 151936])
    S = -1 if a.dynamic else rnd.choice([128, 512, 2048])
    kvh = kv_heads * 128

    out = sys.stdout if a.output == "-" else open(a.output, "w", encoding="ascii")
    out.write('{"name":"synthetic_llm_%d","graph":[{"name":"main_graph","op":[' % a.seed)
    w = Writer(out, a.ops)

    act = [1, S, hidden]

    def tiny_graph():
        # Fewer ops than one layer needs: a plain chain.
        prev = None
        for k in range(a.ops):
            if prev is None:
                prev = w.op("input_%d" % k, "Data", attrs=[a_i("index", 0)], outs=[desc(F16, act)])
            else:
                prev = w.op("chain_%d" % k, "Cast", [prev], [desc(F16, act)], [desc(F32, act)],
                            [a_i("dst_type", 0)])

    globals_n = 7
    if a.ops < globals_n + TAIL_OPS + LAYER_OPS:
        tiny_graph()
    else:
        x = w.op("hidden_states", "Data", attrs=[a_i("index", 0)], outs=[desc(F16, act)])
        cos = w.op("rope_cos", "Data", attrs=[a_i("index", 1)], outs=[desc(F16, [1, S, 1, 128])])
        sin = w.op("rope_sin", "Data", attrs=[a_i("index", 2)], outs=[desc(F16, [1, S, 1, 128])])
        mask = w.op("atten_mask", "Data", attrs=[a_i("index", 3)], outs=[desc("DT_BOOL", [1, 1, S, S])])
        seq = w.op("actual_seq_len", "Data", attrs=[a_i("index", 4)], outs=[desc(I32, [1])])
        seqc = w.op("actual_seq_len_cast", "Cast", [seq], [desc(I32, [1])], [desc(I64, [1])],
                    [a_i("dst_type", 9)])
        w.op("qkv_shape", "Const", outs=[desc(I64, [4])],
                   attrs=['{"key":"value","value":{"t":{"desc":{"dtype":"DT_INT64","shape":{"dim":[4]}}}}}'])
        layer = 0
        while w.n + LAYER_OPS + TAIL_OPS <= a.ops:
            x = decoder_layer(w, layer, x, cos, sin, mask, seqc, act, S, hidden, heads,
                              kv_heads, kvh, inter, rnd)
            layer += 1
        k = 0
        while w.n + TAIL_OPS < a.ops:
            typ = ("Cast", "Mul", "Add")[k % 3]
            ins = [x] if typ == "Cast" else [x, x]
            x = w.op("pad.%d" % k, typ, ins, [desc(F16, act)] * len(ins), [desc(F16, act)])
            k += 1
        nw = w.op("final_norm.weight", "Const", outs=[desc(F16, [hidden])])
        x = w.op("final_norm", "RmsNorm", [x, nw], [desc(F16, act), desc(F16, [hidden])],
                 [desc(F16, act), desc(F32, [1, S, 1])], [a_f("epsilon", "1e-06")])
        hw = w.op("lm_head.weight", "Const", outs=[desc(F16, [vocab, hidden], "FRACTAL_NZ")])
        w.op("lm_head", "MatMulV2", [x, hw], [desc(F16, act), desc(F16, [vocab, hidden])],
             [desc(F16, [1, S, vocab])], [a_b("transpose_x1", False), a_b("transpose_x2", True)])
    w.flush()
    if w.n != a.ops:
        raise RuntimeError("generated %d ops instead of %d" % (w.n, a.ops))
    out.write("]}]}\n")
    if out is not sys.stdout:
        out.close()


def decoder_layer(w, l, x, cos, sin, mask, seqc, act, S, hidden, heads, kv_heads, kvh,
                  inter, rnd):
    p = "layers.%d." % l
    h16 = desc(F16, act)
    q4 = [1, S, heads, 128]
    k4 = [1, S, kv_heads, 128]
    wdesc = lambda r, c: desc(F16, [r, c])

    def const(name, dims, dtype=F16):
        return w.op(p + name, "Const", outs=[desc(dtype, dims)])

    def mm(name, a, b, r, c, tb=True):
        return w.op(p + name, "MatMulV2", [a, b], [desc(F16, [1, S, c if tb else r]), wdesc(r, c)],
                    [desc(F16, [1, S, r if tb else c])],
                    [a_b("transpose_x1", False), a_b("transpose_x2", tb)])

    ln_w = const("input_layernorm.weight", [hidden])
    qw = const("attn.q_proj.weight", [hidden, hidden])
    kw = const("attn.k_proj.weight", [kvh, hidden])
    vw = const("attn.v_proj.weight", [kvh, hidden])
    ow = const("attn.o_proj.weight", [hidden, hidden])
    pln_w = const("post_attention_layernorm.weight", [hidden])
    gw = const("mlp.gate_proj.weight", [inter, hidden])
    uw = const("mlp.up_proj.weight", [inter, hidden])
    dw = const("mlp.down_proj.weight", [hidden, inter])

    ctrl = [x[:-2] + ":-1"] if l % 2 == 1 else []
    n = w.op(p + "input_layernorm", "RmsNorm", [x, ln_w] + ctrl, [h16, desc(F16, [hidden])],
             [h16, desc(F32, [1, S, 1])], [a_f("epsilon", "1e-06")])
    q = mm("attn.q_proj", n, qw, hidden, hidden)
    k = mm("attn.k_proj", n, kw, kvh, hidden)
    v = mm("attn.v_proj", n, vw, kvh, hidden)
    # Each Reshape gets its own shape Const, as in real GE graphs.
    shp = const("attn.q_reshape.shape", [4], I64)
    q = w.op(p + "attn.q_reshape", "Reshape", [q, shp], [desc(F16, [1, S, hidden]), desc(I64, [4])],
             [desc(F16, q4)], [a_i("axis", 0)])
    shp = const("attn.k_reshape.shape", [4], I64)
    k = w.op(p + "attn.k_reshape", "Reshape", [k, shp], [desc(F16, [1, S, kvh]), desc(I64, [4])],
             [desc(F16, k4)])
    shp = const("attn.v_reshape.shape", [4], I64)
    v = w.op(p + "attn.v_reshape", "Reshape", [v, shp], [desc(F16, [1, S, kvh]), desc(I64, [4])],
             [desc(F16, k4)])
    q = w.op(p + "attn.q_rope", "RotaryMul", [q, cos, sin],
             [desc(F16, q4), desc(F16, [1, S, 1, 128]), desc(F16, [1, S, 1, 128])], [desc(F16, q4)])
    k = w.op(p + "attn.k_rope", "RotaryMul", [k, cos, sin],
             [desc(F16, k4), desc(F16, [1, S, 1, 128]), desc(F16, [1, S, 1, 128])], [desc(F16, k4)])
    qt = [1, heads, S, 128]
    kt = [1, kv_heads, S, 128]
    q = w.op(p + "attn.q_transpose", "Transpose", [q], [desc(F16, q4)], [desc(F16, qt, "NCHW")],
             [a_li("perm", [0, 2, 1, 3])])
    k = w.op(p + "attn.k_transpose", "Transpose", [k], [desc(F16, k4)], [desc(F16, kt, "NCHW")],
             [a_li("perm", [0, 2, 1, 3])])
    v = w.op(p + "attn.v_transpose", "Transpose", [v], [desc(F16, k4)], [desc(F16, kt, "NCHW")],
             [a_li("perm", [0, 2, 1, 3])])
    if l % 4 == 3:
        # Unfused attention: BatchMatMulV2 -> Mul(scale) -> Add(mask) -> SoftmaxV2 -> Cast -> BMM.
        sc = [1, heads, S, S]
        s_ = w.op(p + "attn.qk_bmm", "BatchMatMulV2", [q, k], [desc(F16, qt, "NCHW"), desc(F16, kt, "NCHW")],
                  [desc(F16, sc, "NCHW")], [a_b("adj_x1", False), a_b("adj_x2", True)])
        scale = w.op(p + "attn.scale", "Const", outs=[desc(F16, [1])])
        s_ = w.op(p + "attn.scale_mul", "Mul", [s_, scale], [desc(F16, sc), desc(F16, [1])], [desc(F16, sc)])
        s_ = w.op(p + "attn.mask_add", "Add", [s_, mask], [desc(F16, sc), desc("DT_BOOL", [1, 1, S, S])],
                  [desc(F16, sc)])
        s_ = w.op(p + "attn.softmax", "SoftmaxV2", [s_], [desc(F16, sc)], [desc(F32, sc)],
                  [a_li("axes", [-1])])
        s_ = w.op(p + "attn.probs_cast", "Cast", [s_], [desc(F32, sc)], [desc(F16, sc)], [a_i("dst_type", 1)])
        o = w.op(p + "attn.pv_bmm", "BatchMatMulV2", [s_, v], [desc(F16, sc, "NCHW"), desc(F16, kt, "NCHW")],
                 [desc(F16, qt, "NCHW")], [a_b("adj_x1", False), a_b("adj_x2", False)])
    elif l % 2 == 0:
        ins = [q, k, v, "", mask, seqc, seqc] + [""] * 24
        o = w.op(p + "attn.fia", "FusedInferAttentionScore", ins,
                 [desc(F16, qt, "NCHW"), desc(F16, kt, "NCHW"), desc(F16, kt, "NCHW"),
                  desc("DT_BOOL", [1, 1, S, S]), desc(I64, [1]), desc(I64, [1])],
                 [desc(F16, qt, "NCHW"), desc(F32, [1, heads, S, 1])],
                 [a_i("num_heads", heads), a_f("scale", "0.0883883"), a_s("input_layout", "BNSD"),
                  a_i("num_key_value_heads", kv_heads), a_i("sparse_mode", 0)])
    else:
        ins = [q, k, v, "", mask, seqc]
        o = w.op(p + "attn.ifa", "IncreFlashAttention", ins,
                 [desc(F16, qt, "NCHW"), desc(F16, kt, "NCHW"), desc(F16, kt, "NCHW"),
                  desc("DT_BOOL", [1, 1, S, S]), desc(I64, [1])],
                 [desc(F16, qt, "NCHW")],
                 [a_i("num_heads", heads), a_f("scale_value", "0.0883883"), a_s("input_layout", "BNSD"),
                  a_i("num_key_value_heads", kv_heads)])
    o = w.op(p + "attn.o_transpose", "Transpose", [o], [desc(F16, qt, "NCHW")], [desc(F16, q4)],
             [a_li("perm", [0, 2, 1, 3])])
    shp = const("attn.o_reshape.shape", [3], I64)
    o = w.op(p + "attn.o_reshape", "Reshape", [o, shp], [desc(F16, q4), desc(I64, [3])], [h16])
    o = mm("attn.o_proj", o, ow, hidden, hidden)
    h = w.op(p + "attn.residual_add", "Add", [x, o], [h16, h16], [h16])
    n = w.op(p + "post_attention_layernorm", "RmsNorm", [h, pln_w], [h16, desc(F16, [hidden])],
             [h16, desc(F32, [1, S, 1])], [a_f("epsilon", "1e-06")])
    g = mm("mlp.gate_proj", n, gw, inter, hidden)
    u = mm("mlp.up_proj", n, uw, inter, hidden)
    i16 = desc(F16, [1, S, inter])
    g = w.op(p + "mlp.act", "Swish", [g], [i16], [i16], [a_f("scale", "1")])
    g = w.op(p + "mlp.mul", "Mul", [g, u], [i16, i16], [i16])
    d = mm("mlp.down_proj", g, dw, hidden, inter)
    if rnd.random() < 0.5:
        d = w.op(p + "mlp.out_cast", "Cast", [d], [h16], [h16], [a_i("dst_type", 1)])
    return w.op(p + "mlp.residual_add", "Add", [h, d], [h16, h16], [h16])


if __name__ == "__main__":
    main()
