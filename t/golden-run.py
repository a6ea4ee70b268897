#!/usr/bin/env python3
"""golden-run.py: the data-driven golden tests of `gerules eval` (t/golden/*.case).

Each case runs `gerules eval GRAPH --format json` with a chip, a run mode and
options, and compares the exit status and a SUBSET of the JSON report with
what the case expects. Output is TAP, one line per case; `-v` also prints the
command of every case. Python 3 standard library only.

usage: golden-run.py [-v] [--gerules BIN] [--srcdir DIR] [CASE-OR-DIR ...]
       (default: every t/golden/*.case; BIN from $GERULES, the rule set from
       $GERULES_RULES as gerules itself reads it)

Case file format
----------------
    # One or more comment lines first: the description (required). The first
    # line is the TAP test name; the rest says what the case proves and why
    # (cite the upstream source, as doc/sources.md does).
    graph: examples/llm_decoder.json     a path relative to the source tree, or
                                         `inline` (then a `--- graph` block)
    chip: Ascend910B1                    --chip (optional: SOC_VERSION may name it)
    run-mode: training                   --run-mode (optional, default inference)
    option: KEY=VALUE                    one -o each (repeatable)
    arg: --options {opts.json}           raw extra argument(s), split on blanks
                                         (option/arg lines keep their order)
    exit: 0                              expected exit status (required)
    stderr: TEXT                         stderr must contain TEXT (optional)
    --- ini [NAME]                       file NAME.ini (default op_precision.ini) in a
    ...lines, verbatim...                temp dir; {NAME} (default {ini}) is its path
    --- file NAME                        any other temp file; {NAME} is its path
    --- graph                            the inline graph (JSON)
    --- expect                           the expected JSON subset (see below)

Header lines are `key: value`; blank lines and `#` comments between them are
ignored. A block runs until the next line starting with `--- `. `{ini}`,
`{NAME}` and `{tmp}` are substituted in option/arg lines and in every expected
string.

Expected JSON subset
--------------------
    {"chip": {"product": "a2"},                          any top-level key: subset match
     "nodes": {"conv": {"precision_mode": "...",         a node by name ...
                        "provenance": [{"source": "by_op_type", "won": false}],
                        "provenance!": [{"source": "allow_hf32"}]},
               "type:MatMulV2": {...}},                  ... or every node of a type
     "options": {"ALLOW_HF32": {"value": "10", "source": "default"},
                 "PRECISION_MODE_V2": null},             null: not in the report
     "diagnostics": [{"code": "GE1002", "severity": "error", "option": "...",
                      "message~": "substring", "#": 1}], "#": exact number of matches
     "absent": ["GE1003", {"code": "GE1003", "option": "X"}],   no such diagnostic
     "summary": {"errors": 1}}

Matching: an object matches when every expected key matches (`key~`: the
actual string contains the expected one; `key!`: a list of which NO expected
item matches an actual element); a list matches when every expected element
matches some actual element; scalars must be equal; null means null.

Every case also checks, whatever it expects: stdout is one JSON document (or
empty when the exit status is 2), the summary counts equal the diagnostics,
the exit status is 1 exactly when there is an error, a second run gives
byte-identical output (reports are deterministic), and stderr carries no
sanitizer report (for runs against the ASan build).
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


class CaseError(Exception):
    pass


def parse_case(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    case = {"path": path, "desc": [], "argv": [], "blocks": [], "graph": None,
            "chip": None, "run_mode": None, "exit": None, "stderr": [], "expect": None, "inline_graph": None}
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        case["desc"].append(lines[i].lstrip("#").strip())
        i += 1
    case["desc"] = [d for d in case["desc"] if d]
    if not case["desc"]:
        raise CaseError("%s: a case starts with a description comment" % path)
    while i < len(lines) and not lines[i].startswith("--- "):
        ln = lines[i].strip()
        i += 1
        if not ln or ln.startswith("#"):
            continue
        if ":" not in ln:
            raise CaseError("%s:%d: expected 'key: value'" % (path, i))
        k, v = ln.split(":", 1)
        k, v = k.strip(), v.strip()
        if k == "graph":
            case["graph"] = v
        elif k == "chip":
            case["chip"] = v
        elif k == "run-mode":
            case["run_mode"] = v
        elif k == "option":
            case["argv"] += ["-o", v]
        elif k == "arg":
            case["argv"] += shlex.split(v)
        elif k == "exit":
            case["exit"] = int(v)
        elif k == "stderr":
            case["stderr"].append(v)
        else:
            raise CaseError("%s:%d: unknown header '%s'" % (path, i, k))
    while i < len(lines):
        head = lines[i].split()
        start = i + 1
        i += 1
        while i < len(lines) and not lines[i].startswith("--- "):
            i += 1
        body = "\n".join(lines[start:i]) + "\n"
        kind = head[1] if len(head) > 1 else ""
        name = head[2] if len(head) > 2 else None
        if kind == "ini":
            case["blocks"].append((name or "ini", (name or "op_precision") + ".ini", body))
        elif kind == "file":
            if not name:
                raise CaseError("%s:%d: '--- file' needs a name" % (path, start))
            case["blocks"].append((name, name, body))
        elif kind == "graph":
            case["inline_graph"] = body
        elif kind == "expect":
            try:
                case["expect"] = json.loads(body)
            except ValueError as e:
                raise CaseError("%s:%d: the expect block is not JSON: %s" % (path, start, e))
        else:
            raise CaseError("%s:%d: unknown block '%s'" % (path, start, " ".join(head)))
    if case["graph"] is None:
        raise CaseError("%s: no 'graph:' line" % path)
    if case["graph"] == "inline" and case["inline_graph"] is None:
        raise CaseError("%s: 'graph: inline' needs a '--- graph' block" % path)
    if case["exit"] is None:
        raise CaseError("%s: no 'exit:' line" % path)
    if case["expect"] is None and case["exit"] != 2:
        raise CaseError("%s: no '--- expect' block" % path)
    return case


def substitute(obj, subst):
    if isinstance(obj, str):
        for k, v in subst.items():
            obj = obj.replace("{" + k + "}", v)
        return obj
    if isinstance(obj, list):
        return [substitute(x, subst) for x in obj]
    if isinstance(obj, dict):
        return {substitute(k, subst): substitute(v, subst) for k, v in obj.items()}
    return obj


def short(v, n=300):
    s = json.dumps(v, sort_keys=True)
    return s if len(s) <= n else s[:n] + "..."


def match(exp, act, where, errs):
    """Appends to errs why act does not match exp; returns whether it matched."""
    n0 = len(errs)
    if isinstance(exp, dict):
        if not isinstance(act, dict):
            errs.append("%s: expected an object, got %s" % (where, short(act)))
            return False
        for k, ev in exp.items():
            if k == "#":
                continue
            if k.endswith("!"):
                key = k[:-1]
                items = act.get(key) or []
                for e in ev:
                    for a in items:
                        if match(e, a, where, []):
                            errs.append("%s.%s: unexpected element matching %s: %s" % (where, key, short(e), short(a)))
                            break
                continue
            if k.endswith("~"):
                key = k[:-1]
                av = act.get(key)
                if not isinstance(av, str) or ev not in av:
                    errs.append("%s.%s: expected a string containing %s, got %s" % (where, key, short(ev), short(av)))
                continue
            if k not in act:
                errs.append("%s.%s: missing (expected %s)" % (where, k, short(ev)))
                continue
            match(ev, act[k], where + "." + k, errs)
    elif isinstance(exp, list):
        if not isinstance(act, list):
            errs.append("%s: expected a list, got %s" % (where, short(act)))
            return False
        for j, e in enumerate(exp):
            if not any(match(e, a, where, []) for a in act):
                errs.append("%s[%d]: no element matches %s; have %s" % (where, j, short(e), short(act, 2000)))
    elif exp != act or isinstance(exp, bool) != isinstance(act, bool):
        errs.append("%s: expected %s, got %s" % (where, short(exp), short(act)))
    return len(errs) == n0


def diag_matcher(m):
    return {"code": m} if isinstance(m, str) else m


def check_report(exp, rep, errs):
    for key, ev in exp.items():
        if key == "nodes":
            by_name = {n["name"]: n for n in rep.get("nodes", [])}
            for sel, nexp in ev.items():
                if sel.startswith("type:"):
                    typ = sel[5:]
                    nodes = [n for n in rep.get("nodes", []) if n.get("type") == typ]
                    if not nodes:
                        errs.append("nodes[%s]: no node of type %s" % (sel, typ))
                    for n in nodes:
                        match(nexp, n, "nodes[%s]" % n["name"], errs)
                elif sel not in by_name:
                    errs.append("nodes[%s]: no such node" % sel)
                else:
                    match(nexp, by_name[sel], "nodes[%s]" % sel, errs)
        elif key == "options":
            by_name = {o["name"]: o for o in rep.get("options", [])}
            for name, oexp in ev.items():
                if oexp is None:
                    if name in by_name:
                        errs.append("options[%s]: expected absent, got %s" % (name, short(by_name[name])))
                elif name not in by_name:
                    errs.append("options[%s]: not in the report" % name)
                else:
                    match(oexp, by_name[name], "options[%s]" % name, errs)
        elif key == "diagnostics":
            diags = rep.get("diagnostics", [])
            for j, m in enumerate(ev):
                m = diag_matcher(m)
                hits = [d for d in diags if match(m, d, "", [])]
                if "#" in m:
                    if len(hits) != m["#"]:
                        errs.append("diagnostics[%d]: %d diagnostic(s) match %s, expected %d; have %s"
                                    % (j, len(hits), short(m), m["#"], short(diags, 3000)))
                elif not hits:
                    errs.append("diagnostics[%d]: none matches %s; have %s" % (j, short(m), short(diags, 3000)))
        elif key == "absent":
            for m in ev:
                m = diag_matcher(m)
                for d in rep.get("diagnostics", []):
                    if match(m, d, "", []):
                        errs.append("absent: diagnostic matching %s is present: %s" % (short(m), short(d)))
        else:
            match({key: ev}, rep, "", errs)


def sanity(rep, rc, errs):
    diags = rep.get("diagnostics", [])
    summ = rep.get("summary", {})
    for sev, key in (("error", "errors"), ("warning", "warnings"), ("note", "notes")):
        n = sum(1 for d in diags if d.get("severity") == sev)
        if summ.get(key) != n:
            errs.append("summary.%s is %s but there are %d %s diagnostics" % (key, summ.get(key), n, sev))
    if summ.get("nodes") != len(rep.get("nodes", [])):
        errs.append("summary.nodes is %s but the report lists %d nodes" % (summ.get("nodes"), len(rep.get("nodes", []))))
    want = 1 if summ.get("errors") else 0
    if rc != want:
        errs.append("exit status %d but the report has %s error(s) (expected exit %d)" % (rc, summ.get("errors"), want))


def run_case(case, gerules, srcdir, verbose):
    errs = []
    with tempfile.TemporaryDirectory(prefix="gerules-golden.") as tmp:
        subst = {"tmp": tmp}
        for name, fname, body in case["blocks"]:
            p = os.path.join(tmp, fname)
            with open(p, "w", encoding="utf-8") as f:
                f.write(body)
            subst[name] = p
        graph = case["graph"]
        if graph == "inline":
            graph = os.path.join(tmp, "graph.json")
            with open(graph, "w", encoding="utf-8") as f:
                f.write(case["inline_graph"])
        cmd = [gerules, "eval", graph, "--format", "json"]
        if case["chip"]:
            cmd += ["--chip", case["chip"]]
        if case["run_mode"]:
            cmd += ["--run-mode", case["run_mode"]]
        cmd += [substitute(a, subst) for a in case["argv"]]
        if verbose:
            print("# " + " ".join(shlex.quote(c) for c in cmd))
        outs = []
        for _ in range(2):
            p = subprocess.run(cmd, cwd=srcdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
            outs.append(p)
        p = outs[0]
        stderr = p.stderr.decode("utf-8", "replace")
        if p.returncode != case["exit"]:
            errs.append("exit status %d, expected %d" % (p.returncode, case["exit"]))
        if p.returncode < 0 or p.returncode > 2:
            errs.append("abnormal exit status %d" % p.returncode)
        if outs[1].stdout != p.stdout or outs[1].returncode != p.returncode:
            errs.append("a second run gave different output (not deterministic)")
        for bad in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"):
            if bad in stderr:
                errs.append("sanitizer report on stderr (%s)" % bad)
        for s in case["stderr"]:
            s = substitute(s, subst)
            if s not in stderr:
                errs.append("stderr does not contain %r" % s)
        if p.returncode == 2:
            # nothing (a usage error), or the failure document of --format json
            if p.stdout:
                try:
                    doc = json.loads(p.stdout.decode("utf-8"))
                    if doc.get("status") != "failed" or not doc.get("diagnostics"):
                        errs.append("exit status 2 but stdout is not a failure document")
                except ValueError:
                    errs.append("exit status 2 but stdout is neither empty nor JSON")
        else:
            try:
                rep = json.loads(p.stdout.decode("utf-8"))
            except ValueError as e:
                errs.append("stdout is not one JSON document: %s" % e)
                rep = None
            if rep is not None:
                sanity(rep, p.returncode, errs)
                if case["expect"] is not None:
                    check_report(substitute(case["expect"], subst), rep, errs)
        if errs and stderr.strip():
            errs.append("stderr: " + stderr.strip().replace("\n", "\n#     "))
    return errs


def main(argv):
    verbose = False
    gerules = os.environ.get("GERULES")
    srcdir = os.environ.get("top_srcdir") or os.path.dirname(HERE)
    paths = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "-v":
            verbose = True
        elif a == "--gerules":
            i += 1
            gerules = argv[i]
        elif a == "--srcdir":
            i += 1
            srcdir = argv[i]
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            paths.append(a)
        i += 1
    srcdir = os.path.abspath(srcdir)
    if not gerules:
        cands = [os.path.join(srcdir, "src", "gerules"), os.path.join(srcdir, "_build", "src", "gerules")]
        if os.environ.get("top_builddir"):
            cands.insert(0, os.path.join(os.environ["top_builddir"], "src", "gerules"))
        gerules = next((c for c in cands if os.path.isfile(c) and os.access(c, os.X_OK)), None)
    if not gerules:
        print("Bail out! no gerules binary (set GERULES)")
        return 2
    gerules = os.path.abspath(gerules)
    if not paths:
        paths = [os.path.join(HERE, "golden")]
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".case"))
        else:
            files.append(p)
    print("1..%d" % len(files))
    failed = 0
    for n, f in enumerate(files, 1):
        name = os.path.basename(f)
        title = "(unreadable case)"
        try:
            case = parse_case(f)
            title = case["desc"][0]
            errs = run_case(case, gerules, srcdir, verbose)
        except (CaseError, OSError, subprocess.SubprocessError) as e:
            errs = [str(e)]
        if errs:
            failed += 1
            print("not ok %d - %s: %s" % (n, name, title))
            for e in errs:
                print("#   " + e)
        else:
            print("ok %d - %s: %s" % (n, name, title))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
