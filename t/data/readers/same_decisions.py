#!/usr/bin/env python3
"""same_decisions.py A.json B.json...: every gerules JSON report given holds the
same decisions as the first: the same nodes (name, type, graph, every slot's
value and source, the provenance entries) and the same diagnostics (code,
severity, message, node), whatever format each model was read from. Only what
depends on the file itself may differ: graph.file, graph.format, and the
line/col/file of node positions (binary formats have no lines). Prints the
first difference and exits 1."""
import json
import sys


def norm(report):
    nodes = report["nodes"]
    diags = []
    for d in report["diagnostics"]:
        d = dict(d)
        for k in ("file", "line", "col", "column", "snippet"):
            d.pop(k, None)
        diags.append(d)
    return nodes, diags


def main():
    base = json.load(open(sys.argv[1]))
    bn, bd = norm(base)
    for path in sys.argv[2:]:
        r = json.load(open(path))
        n, d = norm(r)
        if len(n) != len(bn):
            print("%s: %d nodes, %s has %d" % (path, len(n), sys.argv[1], len(bn)))
            return 1
        for a, b in zip(bn, n):
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
