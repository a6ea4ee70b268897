#!/usr/bin/env python3
"""peer.py: the straightforward Python script a user would write instead of
gerules, used as the peer in bench/run. It does the same resolution for the
benchmark's configuration, honestly and plainly: json.load of the whole graph,
dict lookups, the same precedence.

  precision mode: [ByNodeName] > explicit ALLOW_HF32 (Conv/MatMul classes, HF32
                  chips) > [ByOpType] > impl-mode table (when OP_PRECISION_MODE
                  is not set) > default ALLOW_HF32 "10" (HF32 chips)
  tiling:         dynamic node -> host; value-dependent op: all value inputs
                  Const -> compile; device-produced value input with
                  TILING_SCHEDULE_OPTIMIZE=1 on a chip that supports it and a
                  sink-capable op in a static model -> device; otherwise host;
                  other static nodes -> compile

The operator tables are read from the rule files (tables.rules) so both tools
decide from the same data; chip facts come from the command line.

usage: peer.py GRAPH OUT.json [--rules DIR] [--hf32] [--tso-supported]
               [-o KEY=VALUE ...]
"""
import json
import re
import sys


def read_tables(path):
    """Parses the simple `table NAME ["desc"] { ... }` statements of a rule file."""
    text = open(path).read()
    text = re.sub(r"#[^\n]*", "", text)
    tables = {}
    for m in re.finditer(r'table\s+(\w+)\s*(?:"[^"]*")?\s*\{(.*?)\}', text, re.S):
        name, body = m.group(1), m.group(2)
        entries = re.findall(r'"([^"]*)"\s*(?::\s*("[^"]*"|\[[^\]]*\]|-?\d+))?', body)
        if any(v for _, v in entries):
            t = {}
            for k, v in entries:
                t[k] = json.loads(v) if v else None
            tables[name] = t
        else:
            tables[name] = {k: True for k, _ in entries}
    return tables


def read_ini(path):
    by = {"ByOpType": {}, "ByNodeName": {}}
    section = "ByOpType"
    for line in open(path):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        if "=" not in line:
            s = line.strip()
            if s in ("[ByOpType]", "[ByNodeName]"):
                section = s[1:-1]
            continue
        k, v = line.split("=", 1)
        k, v = k.strip(), v.strip()
        if k and v and k not in by[section]:
            by[section][k] = v
    return by


def main(argv):
    graph_path, out_path = argv[1], argv[2]
    rules, hf32, tso_supported, opts = "rules", False, False, {}
    i = 3
    while i < len(argv):
        a = argv[i]
        if a == "--rules":
            rules = argv[i + 1]; i += 1
        elif a == "--hf32":
            hf32 = True
        elif a == "--tso-supported":
            tso_supported = True
        elif a == "-o":
            k, v = argv[i + 1].split("=", 1)
            opts[k] = v; i += 1
        i += 1
    t = read_tables(rules + "/tables.rules")
    conv, matmul = t["conv_ops"], t["matmul_ops"]
    tiling_inputs, sink_ops, const_ops = t["tiling_inputs"], t["tiling_sink_ops"], t["const_ops"]
    allow_hf32 = opts.get("ALLOW_HF32", "")
    opm = opts.get("OP_PRECISION_MODE", "")
    impl = opts.get("OP_SELECT_IMPL_MODE", "") or "high_performance"
    tso = opts.get("TILING_SCHEDULE_OPTIMIZE", "0")
    ini = read_ini(opm) if opm else None
    impl_table = t.get("impl_" + impl, {})

    g = json.load(open(graph_path))
    graphs = g.get("graph", [])

    def dynamic(op):
        for desc in op.get("input_desc", []) + op.get("output_desc", []):
            for d in desc.get("shape", {}).get("dim", []):
                if d < 0:
                    return True
        return False

    model_dynamic = any(dynamic(op) for gr in graphs for op in gr.get("op", []))
    nodes = []
    for gr in graphs:
        ops = gr.get("op", [])
        types = {op.get("name", ""): op.get("type", "") for op in ops}
        for op in ops:
            name, typ = op.get("name", ""), op.get("type", "")
            cands = []
            if ini and name in ini["ByNodeName"]:
                cands.append(("by_node_name", ini["ByNodeName"][name]))
            if hf32 and allow_hf32:
                if typ in conv:
                    cands.append(("allow_hf32", t["hf32_conv_mode"][allow_hf32]))
                elif typ in matmul:
                    cands.append(("allow_hf32", t["hf32_matmul_mode"][allow_hf32]))
            if ini and typ in ini["ByOpType"]:
                cands.append(("by_op_type", ini["ByOpType"][typ]))
            if not ini and typ in impl_table:
                cands.append(("impl_mode_table", impl_table[typ]))
            if hf32 and not allow_hf32:
                if typ in conv:
                    cands.append(("allow_hf32_default", t["hf32_conv_mode"]["10"]))
                elif typ in matmul:
                    cands.append(("allow_hf32_default", t["hf32_matmul_mode"]["10"]))
            prov = [{"slot": "precision_mode", "source": s, "value": v, "won": k == 0}
                    for k, (s, v) in enumerate(cands)]
            dyn = dynamic(op)
            if dyn:
                tiling, src, why = "host", "tiling_dynamic_shape", "dynamic shape"
            elif typ in tiling_inputs:
                data = [s for s in op.get("input", []) if not s.endswith(":-1")]
                device = None
                for idx in tiling_inputs[typ]:
                    if idx < len(data) and data[idx]:
                        producer = data[idx].rsplit(":", 1)[0]
                        if types.get(producer) not in const_ops:
                            device = idx
                            break
                if device is None:
                    tiling, src, why = "compile", "tiling_const_inputs", "all value inputs are Const"
                elif model_dynamic:
                    tiling, src, why = "host", "tiling_dynamic_model", "the model has dynamic shapes"
                elif tso == "1" and tso_supported and typ in sink_ops:
                    tiling, src, why = "device", "tiling_sink", "input %d produced on the device" % device
                else:
                    tiling, src, why = "host", "tiling_sink_off", "tiling sink not possible"
            else:
                tiling, src, why = "compile", "tiling_static", "static shapes"
            prov.append({"slot": "tiling", "source": src, "value": tiling, "won": True, "reason": why})
            nodes.append({"name": name, "type": typ, "graph": gr.get("name", ""),
                          "precision_mode": cands[0][1] if cands else None,
                          "precision_source": cands[0][0] if cands else None,
                          "tiling": tiling, "tiling_source": src, "provenance": prov})
    with open(out_path, "w") as f:
        json.dump({"nodes": nodes, "summary": {"nodes": len(nodes)}}, f)


if __name__ == "__main__":
    main(sys.argv)
