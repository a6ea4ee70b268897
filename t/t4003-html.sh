#!/bin/sh
# t4003-html.sh: `gerules eval --format html` in a real browser. Headless
# Chromium (driven by t/html/check_page.js through playwright-core) loads the
# page from a file: no console error, no request for anything but the page
# itself, the node count shown is the JSON report's, the canvas shows every
# colour of the precision-mode legend (values without effect hatched, and
# said so), clicking a node shows the same explain
# chain as `--explain`, search, sort, filter and the diagnostics' node links
# work; on a partially dynamic model every node's left band has the colour
# of its execution decision, as the band legend says; a 10,000-node model
# (bench/gen_graph.py) loads too (its load time is
# printed, not asserted); model strings that look like markup stay text.
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
	for c in res["colours"]:
	    want = data["slots"][0]["colours"].get(c["value"], data["none_colour"])
	    assert c["colour"] == want, (c, want)
	it = res["interact"]
	assert it["clicked"] == probe, it["clicked"]
	# the page's panel holds the explain chain; the judge's per-tensor steps that
	# --explain prints after it ("dtype and engine judge:") are not in the page yet
	explain = explain.split("dtype and engine judge:\n")[0]
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
	# every node on the canvas shows its own decision in its band
	by = {n["name"]: n["execution"] for n in rep["nodes"]}
	assert len(m["bands"]) == len(rep["nodes"]), (len(m["bands"]), len(rep["nodes"]))
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
