#!/usr/bin/env python3
"""gen_rules.py: writes a rule set made of the shipped rules plus N generated
extra rules, for the rule-count scaling rows of bench/run and for the
`gerules check` timing. The extra rules are realistic in kind:

  40%  per-op-type node rules        (`node.type == "X"`, often product-specific)
  30%  per-node-name precision sources in the precision_mode cascade
       (`node.name == "layers.K.attn.q_proj"`), like a site's op_precision table
  20%  product-specific global checks (`chip.product == "p310p" and option ...`)
  10%  per-option checks             (`for each option when option.key == ...`)

Op types and node names follow bench/gen_graph.py, so some of them match nodes
of the generated graphs and most do not, as in a real vendor bundle.

usage: gen_rules.py N OUTDIR [--rules DIR]
"""
import os
import random
import shutil
import sys

OP_TYPES = ["Add", "Mul", "Cast", "Swish", "RmsNorm", "MatMulV2", "BatchMatMulV2", "SoftmaxV2",
            "Reshape", "Transpose", "RotaryMul", "FusedInferAttentionScore", "IncreFlashAttention",
            "LayerNorm", "Gelu", "Conv2D", "MaxPool", "Relu", "Sigmoid", "Tanh", "GatherV2",
            "ScatterNdUpdate", "ReduceMean", "Exp", "Sqrt", "RealDiv", "Sub", "Neg", "Pow", "Tile"]
PRODUCTS = ["p950", "a3", "a2", "p310b", "p310p", "p910", "ipv350"]
PROJ = ["attn.q_proj", "attn.k_proj", "attn.v_proj", "attn.o_proj", "mlp.gate_proj",
        "mlp.up_proj", "mlp.down_proj", "input_layernorm", "post_attention_layernorm"]
MODES = ["high_precision", "high_performance", "keep_fp16", "support_out_of_bound_index"]
OPTIONS = ["ALLOW_HF32", "TILING_SCHEDULE_OPTIMIZE", "PRECISION_MODE", "OP_SELECT_IMPL_MODE"]


def main(argv):
    n = int(argv[1])
    out = argv[2]
    src = argv[argv.index("--rules") + 1] if "--rules" in argv else os.path.join(os.path.dirname(__file__), "..", "rules")
    rng = random.Random(n)
    if os.path.exists(out):
        shutil.rmtree(out)
    # the whole rule tree (the bundle includes oplib/ and other folders), less
    # the golden cases, which a bench run does not need
    shutil.copytree(src, out, ignore=shutil.ignore_patterns("tests"))
    lines = ["# %d generated extra rules (bench/gen_rules.py)" % n]
    sources = []
    for k in range(n):
        kind = rng.random()
        if kind < 0.4:
            typ = rng.choice(OP_TYPES) if rng.random() < 0.5 else "SiteOp%d" % rng.randrange(n)
            prod = rng.choice(PRODUCTS)
            lines.append('rule x_type_%d for each node when node.type == "%s" and chip.product == "%s" '
                         'then note GX%d "site check %d: {count} %s node(s), first {node.name}" once;'
                         % (k, typ, prod, 1000 + k, k, typ))
        elif kind < 0.7:
            name = "layers.%d.%s" % (rng.randrange(4000), rng.choice(PROJ))
            sources.append("x_name_%d" % k)
            lines.append('source x_name_%d for precision_mode when node.name == "%s" value "%s";'
                         % (k, name, rng.choice(MODES)))
        elif kind < 0.9:
            prod = rng.choice(PRODUCTS)
            opt = rng.choice(OPTIONS)
            lines.append('rule x_global_%d when chip.product == "%s" and option %s set '
                         'then warning GX%d "site policy %d: %s is discouraged on {chip.title}";'
                         % (k, prod, opt, 1000 + k, k, opt))
        else:
            lines.append('rule x_option_%d for each option when option.key == "site_option_%d" '
                         'then note GX%d "site option %d seen: {option.value}";' % (k, k, 1000 + k, k))
    # every diagnostic code needs its text in the rule set's code table
    # (rules/codes.rules; `gerules check` refuses a code without one): the
    # rows go at the top of the copied table (one bundle cannot extend itself)
    codes = sorted(set(int(w[2:]) for l in lines for w in l.split() if w.startswith("GX") and w[2:].isdigit()))
    if codes:
        path = os.path.join(out, "codes.rules")
        with open(path) as f:
            text = f.read()
        head = 'table diagnostic_codes "'
        at = text.index("{", text.index(head)) + 1
        rows = "".join('\n    "GX%d": ["site check %d", "a generated site rule holds", "bench/run", '
                       '"none: a benchmark rule"],' % (c, c) for c in codes)
        with open(path, "w") as f:
            f.write(text[:at] + rows + text[at:])
    if sources:
        # a site's per-node table sits between the user's [ByNodeName] and ALLOW_HF32
        lines.append("cascade precision_mode: by_node_name > " + " > ".join(sources) + " > allow_hf32;")
    with open(os.path.join(out, "extra.rules"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv)
