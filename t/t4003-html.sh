#!/bin/sh
# t4003-html.sh: `gerules eval --format html` in a real browser. Headless
# Chromium (driven by t/html/check_page.js through playwright-core) loads the
# page from a file: no console error, no request for anything but the page
# itself, the node count shown is the JSON report's, the canvas shows every
# colour of the precision-mode legend (values without effect hatched, and
# said so), clicking a node shows the same explain
# chain as `--explain`, search, sort, filter and the diagnostics' node links
# work; on a partially dynamic model every drawn node's left band has the
# colour of its execution decision, as the band legend says; at "fit" an
# 800-node model's boxes show their op types (text pixels really drawn);
# constants are folded into their consumers (no box, listed in the panel);
# a model with If subgraphs shows one graph at a time, the graph list and the
# breadcrumb change the graph shown, the panel links the subgraphs; the panel
# shows shapes, dtypes before and after conversion, engine and attributes;
# switching "colour by" to dtype or engine repaints every box in its value's
# colour, and --colour-by picks the first colouring; the panel's explain chain
# is --explain's, the dtype and engine judge's steps included; a 10,000-node model (bench/gen_graph.py) loads too (its load time
# is printed, not asserted: bench/run times it); model strings that look
# like markup stay text; with ATC's gears a gear list shows one gear's
# decisions at a time (the nodes a gear changes recoloured, on the canvas
# too, the panel saying gear 1's value) and dims the diagnostics of the other
# gears. The screenshots of each run are kept in the trash
# directory for a person to look at.
# Skipped, saying why, only when chromium, node or playwright-core is absent.
test_description='the HTML report in headless Chromium'
. "$(dirname "$0")/test-lib.sh"

PY=${PYTHON3:-python3}
test_skip_unless CHROMIUM,NODE,PLAYWRIGHT
GR_CHROMIUM=${GR_CHROMIUM:-/usr/bin/chromium}; export GR_CHROMIUM
ex=$top_srcdir/examples
probe=layer0/attn/q_proj
opts="-o OP_PRECISION_MODE=$ex/op_precision.ini -o ALLOW_HF32=true"

check () { node "$top_srcdir/t/html/check_page.js" "$@"; }

test_expect_success 'the page of an example model' '
	gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 $opts --format html --output page.html &&
	gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 $opts --format json >report.json &&
	gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 $opts --explain "$probe" >explain.txt &&
	test_grep "<script type=\"application/json\" id=\"gr-data\">" page.html &&
	! grep -i "<script[^>]* src=\|<link \|https\?://" page.html
'

test_expect_success 'the page carries every node of the JSON report, each tail once' '
	"$PY" - page.html report.json <<-\PYEOF
	import json, re, sys
	page = open(sys.argv[1]).read(); rep = json.load(open(sys.argv[2]))
	data = json.loads(re.search(r"<script type=\"application/json\" id=\"gr-data\">(.*?)</script>", page, re.S).group(1))
	r = data["report"]
	assert "nodes" not in r, "the page writes nodes as names and shared tails (src/report/html.c)"
	nodes = [dict(name=nm, **r["node_tails"][t]) for nm, t in zip(r["node_names"], r["node_tail"])]
	# the page has no provenance; all else is as in the JSON report
	want = [{k: v for k, v in n.items() if k not in ("provenance", "dtype_detail")} for n in rep["nodes"]]
	assert nodes == want, [(a, b) for a, b in zip(nodes, want) if a != b][:2]
	# each distinct tail once, and fewer tails than nodes
	tails = [json.dumps(t, sort_keys=True) for t in r["node_tails"]]
	assert len(set(tails)) == len(tails) < len(nodes), (len(tails), len(nodes))
	PYEOF
'

test_expect_success 'it loads in Chromium and works' '
	check page.html shot.png --interact "$probe" >result.json &&
	"$PY" - result.json report.json explain.txt page.html "$probe" <<-\PYEOF
	import json, re, sys
	res = json.load(open(sys.argv[1])); rep = json.load(open(sys.argv[2]))
	explain = open(sys.argv[3]).read(); page = open(sys.argv[4]).read(); probe = sys.argv[5]
	assert res["errors"] == [], res["errors"]
	assert res["requests"] == [], res["requests"]
	assert res["nodeCount"] == str(rep["summary"]["nodes"]) == str(len(rep["nodes"])), res["nodeCount"]
	assert res["field"] == "precision_mode", res["field"]
	# the legend is the precision modes of the report, each drawn on the canvas
	modes = {n["precision_mode"] or "" for n in rep["nodes"]}
	assert {c["value"] for c in res["colours"]} == modes, (res["colours"], modes)
	assert all(c["pixels"] > 0 for c in res["colours"]), res["colours"]
	assert len({c["colour"] for c in res["colours"]}) == len(modes) >= 3, res["colours"]
	# the legend says "no effect" where the rule set does (every HF32 MatMul under force_fp16)
	ne = [c for c in res["colours"] if c["noEffect"]]
	assert [c["value"] for c in ne] == ["enable_hi_float_32_execution"], res["colours"]
	assert ne[0]["text"] == "enable_hi_float_32_execution, no effect (%d)" % sum(1 for x in rep["nodes"] if x.get("precision_mode_effect") is False), ne
	# the page colours are the rules-declared ones (shared with the DOT report)
	data = json.loads(re.search(r"<script type=\"application/json\" id=\"gr-data\">(.*?)</script>", page, re.S).group(1))
	# the page shows a slot by its column label; its name stays the key of the node members
	assert (data["slots"][0]["name"], data["slots"][0]["column"]) == ("precision_mode", "impl_mode"), data["slots"][0]
	for c in res["colours"]:
	    want = data["slots"][0]["colours"].get(c["value"], data["none_colour"])
	    assert c["colour"] == want, (c, want)
	it = res["interact"]
	assert it["clicked"] == probe, it["clicked"]
	# the page's panel holds the explain chain, the dtype and engine judge's
	# per-tensor steps included, as --explain prints them
	assert "dtype and engine judge:" in explain
	assert it["explain"] == explain, "explain chain differs from --explain"
	assert it["searched"] == probe, it["searched"]
	assert it["firstDesc"] == max(n["name"] for n in rep["nodes"]), it["firstDesc"]
	assert probe in it["filtered"] and all(probe in f for f in it["filtered"]), it["filtered"]
	assert it["linkNode"] and it["linkSelected"] == it["linkNode"], it
	PYEOF
'

test_expect_success 'each node is marked by its execution (left band), with a legend' '
	gerules eval "$ex/llm_decoder_partition.json" --chip Ascend910B1 -o TILING_SCHEDULE_OPTIMIZE=1 --format html --output part.html &&
	gerules eval "$ex/llm_decoder_partition.json" --chip Ascend910B1 -o TILING_SCHEDULE_OPTIMIZE=1 --format json >part.json &&
	check part.html part.png >part.out &&
	"$PY" - part.out part.json part.html <<-\PYEOF
	import json, re, sys
	r = json.load(open(sys.argv[1])); rep = json.load(open(sys.argv[2])); page = open(sys.argv[3]).read()
	assert r["errors"] == [], r["errors"]
	m = r["mark"]
	assert m["field"] == "execution" and "execution" in m["label"], m["field"]
	data = json.loads(re.search(r"<script type=\"application/json\" id=\"gr-data\">(.*?)</script>", page, re.S).group(1))
	colours = [s for s in data["slots"] if s["name"] == "execution"][0]["colours"]
	assert colours["static"] != colours["dynamic"], colours
	# the legend: each execution value of the report, in its colour
	assert {e["value"] for e in m["legend"]} == {"static", "dynamic"} == {n["execution"] for n in rep["nodes"]}, m["legend"]
	assert all(e["colour"] == colours[e["value"]] for e in m["legend"]), m["legend"]
	# every node drawn on the canvas shows its own decision in its band;
	# constants are drawn inside their consumers, not as boxes
	by = {n["name"]: n["execution"] for n in rep["nodes"]}
	types = {n["name"]: n["type"] for n in rep["nodes"]}
	g0 = rep["graph"]["graphs"][0]
	graph = {n["name"]: n["graph"] for n in rep["nodes"]}
	folded = ("Const", "Constant", "FileConstant")     # rules/report.rules report_folded_ops
	assert m["drawn"] and not [d for d in m["drawn"] if types[d] in folded or graph[d] != g0], m["drawn"]
	assert set(m["drawn"]) == {n["name"] for n in rep["nodes"] if n["type"] not in folded and n["graph"] == g0}, m["drawn"]
	assert len(m["bands"]) == len(m["drawn"]), (len(m["bands"]), len(m["drawn"]))
	bad = [b for b in m["bands"] if not (b["got"] == b["want"] == colours[by[b["name"]]])]
	assert not bad, bad[:5]
	PYEOF
'

test_expect_success 'the screenshot is a PNG of the first screen' '
	"$PY" -c "import sys; b = open(\"shot.png\", \"rb\").read(); sys.exit(not (b[:8] == b\"\\x89PNG\\r\\n\\x1a\\n\" and len(b) > 20000))"
'

test_expect_success 'model strings that look like markup stay text' '
	"$PY" - "$ex/convnet.json" evil.json <<-\PYEOF &&
	import json, sys
	m = json.load(open(sys.argv[1]))
	evil = "</script><script>window.pwned=1</script><!--\u2028&amp;"
	for g in m["graph"]:
	    for op in g["op"]:
	        if op["name"] == "conv0":
	            op["name"] = evil
	        op["input"] = [evil + i[5:] if i.startswith("conv0:") else i for i in op.get("input", [])]
	json.dump(m, open(sys.argv[2], "w"))
	PYEOF
	gerules eval evil.json --chip Ascend910B1 --format html --output evil.html &&
	check evil.html evil.png --interact "</script><script>window.pwned=1</script><!--$(printf "\342\200\250")&amp;" >evil.out &&
	"$PY" - evil.out <<-\PYEOF
	import json, sys
	r = json.load(open(sys.argv[1]))
	assert r["errors"] == [], r["errors"]
	assert r["interact"]["clicked"].startswith("</script><script>window.pwned=1"), r["interact"]
	assert r["nodeCount"] == "26", r["nodeCount"]
	PYEOF
'

test_expect_success 'at fit, an 800-node model shows the op type in every box in view' '
	"$PY" "$top_srcdir/bench/gen_graph.py" --ops 800 -o mid.json &&
	gerules eval mid.json --chip Ascend910B1 --format html --output mid.html &&
	gerules eval mid.json --chip Ascend910B1 --format json >mid.report.json &&
	check mid.html mid.png --views layers.0.attn.q_proj >mid.out &&
	"$PY" - mid.out mid.report.json <<-\PYEOF
	import json, sys
	r = json.load(open(sys.argv[1])); rep = json.load(open(sys.argv[2])); v = r["views"]
	assert r["errors"] == [], r["errors"]
	assert len(rep["nodes"]) >= 800, len(rep["nodes"])
	# fit never goes below the scale that shows op types
	assert v["scale"] >= 0.7, v["scale"]
	L = v["labels"]
	assert len(L) >= 10, len(L)
	for l in L:
	    assert l["px"] >= 10, l
	    t, s = l["type"], l["shown"]
	    assert s == t or ("\u2026" in s and t.startswith(s.split("\u2026")[0]) and t.endswith(s.split("\u2026")[1])), l
	    assert l["ink"] >= 8, l          # the text is on the canvas, not only in a list
	# every drawn box has its colour
	bad = [f for f in v["fillsAtFit"] if f["got"] != f["want"] and not f["hatched"]]
	assert v["fillsAtFit"] and not bad, bad[:5]
	PYEOF
'

test_expect_success 'subgraphs: one graph at a time, a list, a breadcrumb; the panel: tensors, dtypes, engine, attributes' '
	"$PY" - sub.json <<-\PYEOF &&
	import json, sys
	# a GE graph with an If whose branches have long inlined names (as ONNX
	# exporters write them), one branch holding a nested If
	def d(dt, dims): return {"dtype": dt, "shape": {"dim": dims}, "layout": "ND"}
	def op(name, typ, inputs=(), outs=1, dt="DT_FLOAT", dims=(1, 64), attr=(), sub=()):
	    o = {"name": name, "type": typ, "input": list(inputs), "output_desc": [d(dt, list(dims))] * outs,
	         "input_desc": [d(dt, list(dims)) for _ in inputs], "attr": list(attr)}
	    if sub: o["subgraph_name"] = list(sub)
	    return o
	P = "spox_graph/If_0_0_then_branch/If_0_then_branch__Inline_0__/decoder"
	main = [op("x", "Data", attr=[{"key": "index", "value": {"i": 0}}]),
	        op("w", "Const", dt="DT_FLOAT", dims=(64, 64)),
	        op("mm", "MatMulV2", ["x:0", "w:0"], attr=[{"key": "transpose_x1", "value": {"b": False}}]),
	        op("cond", "Const", dt="DT_BOOL", dims=()),
	        op("if0", "If", ["cond:0", "mm:0"], sub=["then0", "else0"]),
	        op("out", "NetOutput", ["if0:0"])]
	def branch(name, nested):
	    ops = [op(P + "/" + name + "/in", "Data", attr=[{"key": "index", "value": {"i": 0}}, {"key": "_parent_node_index", "value": {"i": 1}}]),
	           op(P + "/" + name + "/relu", "Relu", [P + "/" + name + "/in:0"]),
	           op(P + "/" + name + "/sig", "Sigmoid", [P + "/" + name + "/relu:0"])]
	    last = P + "/" + name + "/sig:0"
	    if nested:
	        ops.append(op(P + "/" + name + "/c2", "Const", dt="DT_BOOL", dims=()))
	        ops.append(op(P + "/" + name + "/if1", "If", [P + "/" + name + "/c2:0", last], sub=["inner_then", "inner_else"]))
	        last = P + "/" + name + "/if1:0"
	    ops.append(op(P + "/" + name + "/o", "NetOutput", [last]))
	    return {"name": name, "op": ops}
	graphs = [{"name": "main", "op": main}, branch("then0", True), branch("else0", False),
	          branch("inner_then", False), branch("inner_else", False)]
	json.dump({"name": "subgraphs", "graph": graphs}, open(sys.argv[1], "w"))
	PYEOF
	gerules eval sub.json --chip Ascend910B1 --format html --output sub.html &&
	gerules eval sub.json --chip Ascend910B1 --format json >sub.report.json &&
	check sub.html sub.png --views if0 >sub.out &&
	"$PY" - sub.out sub.report.json <<-\PYEOF
	import json, sys
	r = json.load(open(sys.argv[1])); rep = json.load(open(sys.argv[2])); v = r["views"]
	assert r["errors"] == [], r["errors"]
	names = {n["name"]: n for n in rep["nodes"]}
	gl = v["graphs"]["list"]
	assert len(gl) == 5 and gl[0].startswith("main") and "inner_then" in gl[3], gl
	assert v["graphs"]["shown"] == 0, v["graphs"]
	# the root graph draws its own nodes only, its constants folded
	g0 = v["perGraph"][0]
	assert set(g0["drawn"]) == {"x", "mm", "if0", "out"}, g0["drawn"]
	# each graph of the list is shown alone: its nodes and no other
	for k, pg in enumerate(v["perGraph"]):
	    assert pg["shown"] == k, pg
	    assert pg["drawn"] and all(names[d]["graph"] == rep["graph"]["graphs"][k] for d in pg["drawn"]), pg
	    bad = [f for f in pg["fills"] if f["got"] != f["want"] and not f["hatched"]]
	    assert pg["fills"] and not bad, (k, bad[:3])
	assert v["perGraph"][1]["drawn"] != v["perGraph"][2]["drawn"]
	# the breadcrumb of a nested graph names its ancestors and the If nodes
	c = v["perGraph"][3]["crumbs"]
	assert c.startswith("main") and "if0 (If)" in c and "then0" in c and "if1 (If)" in c and c.endswith("inner_then"), c
	# the If node panel: its subgraphs, its tensors, attributes and decisions
	p = v["panel"]
	assert p["graph"] == 0 and p["subs"] == [1, 2], p
	assert v["afterSubLink"]["shown"] == 1 and v["afterSubLink"]["crumbs"].startswith("main"), v["afterSubLink"]
	assert v["afterCrumb"] == 0, v["afterCrumb"]
	assert p["rows"]["type"] == "If", p["rows"]
	for slot in ("dtype", "engine"):
	    want = names["if0"][slot]
	    assert p["rows"][slot].startswith(want if want is not None else "-"), (slot, p["rows"][slot], want)
	assert p["rows"]["shape"] == "static", p["rows"]
	ins = [t for t in p["io"] if t[0] == "in"]
	assert [t[2].split(" ")[0] for t in ins] == ["cond", "mm"], ins
	assert "(Const, folded)" in ins[0][2] and ins[1][4] == "[1,64]", ins
	# a folded constant selected: the frame is drawn around each box it feeds, not at its own
	# place in the layout (the first cell, where another box usually is)
	ff = v["foldedFrame"]
	assert ff and ff["feeds"] and names[ff["name"]]["type"] == "Const", ff
	assert all(f["px"] == [0, 0, 0, 255] for f in ff["feeds"]) and ff["own"] != [0, 0, 0, 255], ff
	assert "If" in p["explain"] and "engine" in p["explain"], p["explain"][:300]
	PYEOF
'

test_expect_success 'the panel shows each tensor dtype before and after conversion; colour by dtype and by engine' '
	gerules eval sub.json --chip Ascend910B1 -o PRECISION_MODE=force_fp16 --format html --output fp16.html &&
	gerules eval sub.json --chip Ascend910B1 -o PRECISION_MODE=force_fp16 --format json >fp16.json &&
	check fp16.html fp16.png --views mm >fp16.out &&
	"$PY" - fp16.out fp16.json mm <<-\PYEOF
	import json, sys
	r = json.load(open(sys.argv[1])); rep = json.load(open(sys.argv[2])); v = r["views"]; probe = sys.argv[3]
	assert r["errors"] == [], r["errors"]
	nd = [n for n in rep["nodes"] if n["name"] == probe][0]
	p = v["panel"]
	assert p["rows"]["dtype"].startswith(nd["dtype"]) and p["rows"]["engine"].startswith(nd["engine"]), p["rows"]
	# a float32 MatMul under force_fp16: inputs converted, said as before -> after
	assert nd["dtype"] == "float16", nd
	assert any(t[3] == "float32 \u2192 float16" for t in p["io"]), p["io"]
	assert all(t[4].startswith("[") for t in p["io"]), p["io"]
	assert p["attrs"], p
	# colour by: every drawn box takes its value colour in the new slot
	for slot in ("dtype", "engine"):
	    cb = v["colourBy"][slot]
	    assert cb["field"] == slot, cb["field"]
	    bad = [f for f in cb["fills"] if f["got"] != f["want"] and not f["hatched"]]
	    assert cb["fills"] and not bad, (slot, bad[:5])
	    vals = {n[slot] for n in rep["nodes"] if n["type"] != "Const" and n["graph"] == "main"}
	    assert len(cb["legend"]) == len(vals), (cb["legend"], vals)
	# and the fills changed from the precision_mode picture to the engine one
	before = {f["node"]: f["got"] for f in v["fillsAtFit"]}
	after = {f["node"]: f["got"] for f in v["colourBy"]["engine"]["fills"]}
	assert any(before[k] != after[k] for k in before if k in after), "colour by engine changed no fill"
	PYEOF
'

test_expect_success '--colour-by picks the first colouring' '
	gerules eval sub.json --chip Ascend910B1 --colour-by engine --format html --output byengine.html &&
	check byengine.html byengine.png >byengine.out &&
	"$PY" - byengine.out <<-\PYEOF
	import json, sys
	r = json.load(open(sys.argv[1]))
	assert r["errors"] == [] and r["field"] == "engine", (r["errors"], r["field"])
	assert all(c["pixels"] > 0 for c in r["colours"]), r["colours"]
	PYEOF
'

test_expect_success 'gears: a gear list; each gear recolours the nodes its decisions change, the panel says so, its diagnostics stand out' '
	cp "$top_srcdir/t/data/gears/det.json" det.json &&
	cat >big.lua <<-\EOF &&
	-- large images run Relu in high precision, and say so
	gr.on_node({type_pattern = "Relu"}, function(node)
	  local w = node:input(0).shape[4]
	  if w > 700 then node:override("precision_mode", "high_precision", "large image") end
	  if w > 700 then node:warning("SITE2", "wide image: " .. w) end
	end)
	EOF
	gerules eval det.json --chip Ascend910B1 --hook big.lua --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640;960,960;1280,1280" --format html --output gears.html &&
	gerules eval det.json --chip Ascend910B1 --hook big.lua --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640;960,960;1280,1280" --format json >gears.json &&
	check gears.html gears.png --gear relu >result.json &&
	"$PY" - result.json gears.json <<-\PYEOF
	import json, sys
	res = json.load(open(sys.argv[1])); rep = json.load(open(sys.argv[2]))
	assert res["errors"] == [], res["errors"]
	g = res["gears"]
	assert g["pickVisible"], g
	assert g["list"] == ["gear 1 (640,640): x:1,3,640,640", "gear 2 (960,960): x:1,3,960,960",
	                     "gear 3 (1280,1280): x:1,3,1280,1280"], g["list"]
	assert [s["gear"] for s in g["shown"]] == [0, 1, 2], g["shown"]
	# each gear colours relu by its own precision mode (the JSON report'"'"'s gears), on the canvas too
	want = [e["nodes"][0]["decisions"]["precision_mode"] for e in rep["gears"]["gears"]]
	assert want == [None, "high_precision", "high_precision"], want
	s1, s2, s3 = g["shown"]
	assert s1["colour"] != s2["colour"] and s2["colour"] == s3["colour"], g["shown"]
	assert all(s["pixel"] == s["colour"] for s in g["shown"]), g["shown"]
	assert all(s["label"] == "impl_mode" for s in g["shown"]), g["shown"]
	assert s1["row"] == "-", s1["row"]
	assert s2["row"] == "high_precision  (gear 2; gear 1: -)", s2["row"]
	assert s1["legend"] == ["no decision (3)"], s1["legend"]
	assert sorted(s2["legend"]) == ["high_precision (1)", "no decision (2)"], s2["legend"]
	# the diagnostics: each tagged with its gear, dimmed when not of the gear shown
	wide = [d["message"] + " [gear %d]" % d["gears"][0] for d in rep["diagnostics"] if d["code"] == "SITE2"]
	assert wide == ["wide image: 960 [gear 2]", "wide image: 1280 [gear 3]"], wide
	assert [x for x in s1["dimmed"] if "SITE2" in x] and all("SITE2" in x for x in s1["dimmed"]) and len(s1["dimmed"]) == 2, s1["dimmed"]
	assert len(s2["dimmed"]) == 1 and wide[1] in s2["dimmed"][0], s2["dimmed"]
	assert len(s3["dimmed"]) == 1 and wide[0] in s3["dimmed"][0], s3["dimmed"]
	PYEOF
'

test_expect_success 'a 10,000-node model loads (load time printed)' '
	"$PY" "$top_srcdir/bench/gen_graph.py" --ops 10000 -o big.json &&
	gerules eval big.json --chip Ascend910B1 -o ALLOW_HF32=true --format html --output big.html &&
	check big.html big.png --interact layers.20.attn.q_proj >big.out &&
	"$PY" - big.out <<-\PYEOF
	import json, sys
	r = json.load(open(sys.argv[1]))
	assert r["errors"] == [], r["errors"]
	assert r["nodeCount"] == "10000", r["nodeCount"]
	assert r["interact"]["clicked"] == "layers.20.attn.q_proj", r["interact"]
	assert any(c["pixels"] > 0 and c["value"] for c in r["colours"]), r["colours"]
	print("10000-node page: graph drawn %.0f ms after navigation start" % r["readyMs"])
	PYEOF
'
grep "10000-node page" "$TRASH/.out" 2>/dev/null | sed 's/^/# /'

test_done
