#!/usr/bin/env python3
"""same_decisions.py [--descriptors-differ] A.json B.json...: every gerules JSON report given holds the
same decisions as the first: the same nodes (name, type, graph, every slot's
value and source, the provenance entries) and the same diagnostics (code,
severity, message, node), whatever format each model was read from. Only what
depends on the file itself may differ: graph.file, graph.format, and the
line/col/file of node positions (binary formats have no lines). With
--descriptors-differ (an ONNX model against a GE graph dumped before
infershape), also the column dtype_detail picked and the per-tensor dtype pairs of dtype_detail (inputs, outputs: the descriptors' dtypes
before and after the judge): the ONNX reader infers every descriptor, a GE graph
dumped before infershape leaves output descriptors empty, so these echo the form
(and so does the reason of a dtype provenance entry, which names the first
input whose dtype is known).
The column can differ for that reason alone: an input descriptor without a
dtype constrains no column, and a node none of whose descriptors has a dtype
gets none (null) where the ONNX form decides one. Wherever the first report
decides a dtype, the others must decide the same (dtype, its source, strategy,
engine). Casts are not compared there either: a Cast is counted where a producer's
output dtype after the judge differs from the input's, and a producer whose output
descriptors are empty (the GE form) picks its column without them, so its output
dtype echoes the form too (PromptFlashAttention's first column gives int8 in the
decoder's GE form). Prints the first difference and exits 1."""
import json
import sys


def norm(report, loose):
    nodes = []
    for n in report["nodes"]:
        det = n.get("dtype_detail")
        if loose and det:
            n = dict(n)
            n["dtype_detail"] = {k: v for k, v in det.items() if k not in ("inputs", "outputs", "column", "casts")}
        if loose and "provenance" in n:
            n = dict(n)
            n["provenance"] = [{k: v for k, v in p.items() if not (p.get("slot") == "dtype" and k == "reason")}
                               for p in n["provenance"]]
        nodes.append(n)
    diags = []
    for d in report["diagnostics"]:
        if loose and d.get("code") in ("GE7004", "GE7002"):
            continue     # how many nodes have no dtype decision, or Casts: see above
        d = dict(d)
        for k in ("file", "line", "col", "column", "snippet"):
            d.pop(k, None)
        diags.append(d)
    return nodes, diags


def main():
    args = sys.argv[1:]
    loose = bool(args) and args[0] == "--descriptors-differ"
    if loose:
        args = args[1:]
    base = json.load(open(args[0]))
    bn, bd = norm(base, loose)
    for path in args[1:]:
        r = json.load(open(path))
        n, d = norm(r, loose)
        if len(n) != len(bn):
            print("%s: %d nodes, %s has %d" % (path, len(n), args[0], len(bn)))
            return 1
        for a, b in zip(bn, n):
            if loose and a.get("dtype") is None and a.get("dtype_source") is None:
                a = {k: v for k, v in a.items() if k not in ("dtype", "dtype_source", "dtype_detail")}
                b = {k: v for k, v in b.items() if k not in ("dtype", "dtype_source", "dtype_detail")}
                a["provenance"] = [p for p in a.get("provenance", []) if p.get("slot") != "dtype"]
                b["provenance"] = [p for p in b.get("provenance", []) if p.get("slot") != "dtype"]
            if a != b:
                print("%s: node differs:\n  %s\n  %s" % (path, json.dumps(a), json.dumps(b)))
                return 1
        if bd != d:
            print("%s: diagnostics differ:\n  %s\n  %s" % (path, json.dumps(bd), json.dumps(d)))
            return 1
        if r["graph"]["graphs"] != base["graph"]["graphs"] or r["graph"]["model"] != base["graph"]["model"]:
            print("%s: graph names or model differ" % path)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
