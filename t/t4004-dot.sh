#!/bin/sh
# t4004-dot.sh: `gerules eval --format dot` rendered by Graphviz. `dot -Tsvg`
# must accept it; the SVG must parse as XML and have one node per model node
# (plus the legends), each filled with its precision mode's colour and
# outlined with its tiling placement's colour, the same colours as the HTML
# report's data (a fill without effect keeps its colour, drawn with
# diagonals, "(no effect)" in the label, the reason in the tooltip, a
# legend entry of its own); every edge of the model must be drawn;
# --colour-by dtype and --colour-by engine fill each node by that slot's
# colour, an unknown slot is an error; slots are named by their column
# labels (impl_mode) in the title, legends and tooltips. Names that need DOT escaping
# (quotes, backslashes) must survive. With ATC's gears the picture is gear
# 1's, a node a later gear decides otherwise has a double outline and a
# label line per such gear, and a legend lists the gears.
test_description='the Graphviz report'
. "$(dirname "$0")/test-lib.sh"

PY=${PYTHON3:-python3}
test_skip_unless DOT
ex=$top_srcdir/examples
opts="-o OP_PRECISION_MODE=$ex/op_precision.ini -o ALLOW_HF32=true -o TILING_SCHEDULE_OPTIMIZE=1"

test_expect_success 'dot renders it' '
	gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 $opts --format dot >g.dot &&
	dot -Tsvg g.dot >g.svg 2>dot.err &&
	test_must_be_empty dot.err &&
	gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 $opts --format json >report.json &&
	gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 $opts --format html --output page.html
'

check_svg () {
	"$PY" - "$1" "$2" page.html <<-\PYEOF
	import json, re, sys
	import xml.etree.ElementTree as ET
	ns = {"s": "http://www.w3.org/2000/svg"}
	svg = ET.parse(sys.argv[1]).getroot()
	rep = json.load(open(sys.argv[2]))
	page = open(sys.argv[3]).read() if len(sys.argv) > 3 else None
	data = json.loads(re.search(r"id=\"gr-data\">(.*?)</script>", page, re.S).group(1))
	col = [s["colours"] for s in data["slots"]]
	none = data["none_colour"]
	nodes = {}
	for g in svg.iter("{http://www.w3.org/2000/svg}g"):
	    if g.get("class") != "node":
	        continue
	    title = g.find("s:title", ns).text
	    # inside the tooltip's <a>; a polygon when the fill has no effect (diagonals)
	    path = next(e for e in g.iter() if e.tag in ("{http://www.w3.org/2000/svg}path", "{http://www.w3.org/2000/svg}polygon"))
	    nodes[title] = (path.get("fill"), path.get("stroke"))
	model = [t for t in nodes if re.fullmatch(r"n\d+", t)]
	assert len(model) == len(rep["nodes"]), (len(model), len(rep["nodes"]))
	for i, n in enumerate(rep["nodes"]):
	    fill, stroke = nodes["n%d" % i]
	    want_fill = col[0].get(n["precision_mode"], none) if n["precision_mode"] else none
	    want_stroke = col[1].get(n["tiling"], none) if n["tiling"] else none
	    assert (fill, stroke) == (want_fill, want_stroke), (n["name"], fill, stroke, want_fill, want_stroke)
	assert len({nodes["n%d" % i][0] for i in range(len(rep["nodes"]))}) >= 3   # several precision modes
	edges = sum(1 for g in svg.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "edge")
	print("nodes", len(model), "edges", edges)
	PYEOF
}

test_expect_success 'every node has its precision colour (fill) and tiling colour (outline)' '
	check_svg g.svg report.json >counts &&
	grep "; fill: impl_mode; outline: tiling; outline style: execution\"\];\$" g.dot &&
	grep "^    label=\"impl_mode (fill)\";" g.dot &&
	grep "tooltip=\"layer0/attn/q_proj (MatMulV2); impl_mode=high_precision (by_node_name); tiling=" g.dot &&
	cat counts
'

test_expect_success 'every model edge is drawn' '
	"$PY" - "$top_srcdir/examples/llm_decoder.json" g.dot <<-\PYEOF
	import json, re, sys
	m = json.load(open(sys.argv[1]))
	ops = [op for g in m["graph"] for op in g["op"]]
	idx = {op["name"]: i for i, op in enumerate(ops)}
	want = set()
	for i, op in enumerate(ops):
	    for inp in op.get("input", []):
	        if inp:
	            src = inp.rsplit(":", 1)[0]
	            want.add((str(idx[src]), str(i)))
	dot = open(sys.argv[2]).read()
	drawn = set(re.findall(r"^  n(\d+) -> n(\d+)", dot, re.M))
	assert drawn == want, (len(drawn), len(want), sorted(want - drawn)[:5], sorted(drawn - want)[:5])
	PYEOF
'

test_expect_success 'the outline style marks each node'"'"'s execution (dashed: dynamic), with its legend' '
	gerules eval "$ex/llm_decoder_partition.json" --chip Ascend910B1 -o TILING_SCHEDULE_OPTIMIZE=1 --format dot >p.dot &&
	gerules eval "$ex/llm_decoder_partition.json" --chip Ascend910B1 -o TILING_SCHEDULE_OPTIMIZE=1 --format json >p.json &&
	dot -Tsvg p.dot >p.svg 2>dot.err &&
	test_must_be_empty dot.err &&
	"$PY" - p.svg p.json <<-\PYEOF
	import json, re, sys
	import xml.etree.ElementTree as ET
	S = "{http://www.w3.org/2000/svg}"
	svg = ET.parse(sys.argv[1]).getroot()
	rep = json.load(open(sys.argv[2]))
	dashed, legend = {}, None
	for g in svg.iter(S + "g"):
	    if g.get("class") == "node":
	        path = next(e for e in g.iter() if e.tag in (S + "path", S + "polygon"))
	        dashed[g.find(S + "title").text] = path.get("stroke-dasharray") is not None
	    elif g.get("class") == "cluster" and any(t.text == "execution (outline style)" for t in g.iter(S + "text")):
	        legend = g
	ex = [n["execution"] for n in rep["nodes"]]
	assert "static" in ex and "dynamic" in ex, ex
	for i, n in enumerate(rep["nodes"]):
	    assert dashed["n%d" % i] == (n["execution"] == "dynamic"), (n["name"], n["execution"], dashed["n%d" % i])
	assert legend is not None, "no execution legend"
	keys = [k for k in dashed if k.startswith("legend_2_")]
	assert len(keys) == 2, keys
	svgtext = open(sys.argv[1]).read()
	for k in keys:
	    label = re.search(r"<title>%s</title>.*?<text[^>]*>([^<]*)</text>" % k, svgtext, re.S).group(1)
	    assert dashed[k] == (label == "dynamic"), (k, label, dashed[k])
	PYEOF
'

test_expect_success 'a decision without effect is said so: label, tooltip, diagonals, its own legend entry' '
	"$PY" - g.dot report.json <<-\PYEOF
	import json, re, sys
	dot = open(sys.argv[1]).read(); rep = json.load(open(sys.argv[2]))
	ne = [i for i, n in enumerate(rep["nodes"]) if n.get("precision_mode_effect") is False]
	assert ne, "the example has HF32 decisions without effect"
	for i in ne:
	    line = re.search(r"^    n%d \[label=.*$" % i, dot, re.M).group(0)
	    n = rep["nodes"][i]
	    assert "%s (no effect)" % n["precision_mode"] in line, line
	    assert "diagonals" in line and "no effect: " + n["precision_mode_no_effect_reason"] in line, line
	assert re.search(r"legend_0_\d+\" \[label=\"[^\"]+ \(no effect\)\".*diagonals", dot), "no legend entry for no effect"
	PYEOF
'

for slot in dtype engine
do
	test_expect_success "--colour-by $slot fills every node by its $slot" '
		gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 $opts --colour-by '$slot' --format dot >by.dot &&
		dot -Tsvg by.dot >by.svg &&
		grep "fill: '$slot';" by.dot &&
		"$PY" - by.svg report.json page.html '$slot' <<-\PYEOF
		import json, re, sys
		import xml.etree.ElementTree as ET
		ns = {"s": "http://www.w3.org/2000/svg"}
		svg = ET.parse(sys.argv[1]).getroot(); rep = json.load(open(sys.argv[2])); slot = sys.argv[4]
		data = json.loads(re.search(r"id=\"gr-data\">(.*?)</script>", open(sys.argv[3]).read(), re.S).group(1))
		col = [s for s in data["slots"] if s["name"] == slot][0]["colours"]
		fills = {}
		for g in svg.iter("{http://www.w3.org/2000/svg}g"):
		    if g.get("class") == "node":
		        path = next(e for e in g.iter() if e.tag in ("{http://www.w3.org/2000/svg}path", "{http://www.w3.org/2000/svg}polygon"))
		        fills[g.find("s:title", ns).text] = path.get("fill")
		for i, n in enumerate(rep["nodes"]):
		    want = col.get(n[slot], data["none_colour"]) if n[slot] else data["none_colour"]
		    assert fills["n%d" % i] == want, (n["name"], n[slot], fills["n%d" % i], want)
		assert len({fills["n%d" % i] for i in range(len(rep["nodes"]))}) >= 2
		PYEOF
	'
done

test_expect_success 'gears: the picture is gear 1'"'"'s; a node that differs in another gear has a double outline and a line per such gear; a legend of the gears' '
	cp "$top_srcdir/t/data/gears/det.json" det.json &&
	cat >big.lua <<-\EOF &&
	-- large images run Relu in high precision
	gr.on_node({type_pattern = "Relu"}, function(node)
	  if node:input(0).shape[4] > 700 then node:override("precision_mode", "high_precision", "large image") end
	end)
	EOF
	gerules eval det.json --chip Ascend910B1 --hook big.lua --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640;960,960;1280,1280" --format dot >gears.dot &&
	dot -Tsvg gears.dot >gears.svg 2>dot.err &&
	test_must_be_empty dot.err &&
	"$PY" - gears.svg <<-\PYEOF
	import sys
	import xml.etree.ElementTree as ET
	S = "{http://www.w3.org/2000/svg}"
	svg = ET.parse(sys.argv[1]).getroot()
	title = [t.text for t in svg.find(S + "g").findall(S + "text")]
	assert any("gear 1 of 3 (--dynamic_image_size=640,640;960,960;1280,1280)" in t for t in title), title
	nodes = {}
	for g in svg.iter(S + "g"):
	    if g.get("class") != "node": continue
	    a = [x for x in g.iter("{http://www.w3.org/2000/svg}a")]
	    nodes[g.find(S + "title").text] = {
	        "outlines": len([p for p in g.iter() if p.tag in (S + "path", S + "polygon")]),
	        "text": [t.text for t in g.iter(S + "text")],
	        "tip": a[0].get("{http://www.w3.org/1999/xlink}title") if a else ""}
	relu = nodes["n1"]
	assert relu["outlines"] == 2 and nodes["n0"]["outlines"] == 1 and nodes["n2"]["outlines"] == 1, nodes
	assert relu["text"][-2:] == ["gear 2: impl_mode=high_precision", "gear 3: impl_mode=high_precision"], relu["text"]
	assert not any(t.startswith("gear ") for t in nodes["n0"]["text"] + nodes["n2"]["text"]), nodes
	assert relu["tip"].endswith("; gear 2: impl_mode=high_precision; gear 3: impl_mode=high_precision"), relu["tip"]
	assert nodes["legend_gears"]["text"][1:] == ["gear 1 (640,640): x:1,3,640,640", "gear 2 (960,960): x:1,3,960,960",
	                                            "gear 3 (1280,1280): x:1,3,1280,1280"], nodes["legend_gears"]
	PYEOF
'

test_expect_success '--colour-by takes a slot by the label the reports show (impl_mode) as by its name' '
	gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 --colour-by precision_mode --format dot >by-name.dot &&
	gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 --colour-by impl_mode --format dot >by-label.dot &&
	grep "fill: impl_mode;" by-label.dot &&
	test_cmp by-name.dot by-label.dot &&
	gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 --colour-by engine --format dot >by-engine.dot &&
	! cmp -s by-name.dot by-engine.dot
'

test_expect_success '--colour-by names a slot of the rule set' '
	test_must_fail --exit 2 gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 --colour-by dtypes --format dot >out 2>err &&
	test_grep "no slot .dtypes. (its slots: precision_mode, tiling, execution, dtype, engine)" err
'

test_expect_success 'names with quotes and backslashes survive' '
	"$PY" - "$ex/convnet.json" odd.json <<-\PYEOF &&
	import json, sys
	m = json.load(open(sys.argv[1]))
	odd = "conv\"0\\\\x\\n{}<&>"
	for g in m["graph"]:
	    for op in g["op"]:
	        if op["name"] == "conv0":
	            op["name"] = odd
	        op["input"] = [odd + i[5:] if i.startswith("conv0:") else i for i in op.get("input", [])]
	json.dump(m, open(sys.argv[2], "w"))
	PYEOF
	gerules eval odd.json --chip Ascend910B1 --format dot >odd.dot &&
	dot -Tsvg odd.dot >odd.svg &&
	"$PY" -c "import sys, xml.etree.ElementTree as ET; t = ET.parse(sys.argv[1]); s = \"\".join(t.getroot().itertext()); assert \"conv\\\"0\\\\\\\\x\\\\n{}<&>\" in s, s[:500]" odd.svg
'

test_done
