#!/bin/sh
# t1127-subgraphs.sh: graph-qualified node names. A model whose If node has
# two branches (then_g, else_g) that each hold a MatMulV2 named mm
# (t/data/if_two_mm.json): the text table names the nodes then_g/mm and
# else_g/mm, node diagnostics carry the qualified name, --explain takes it
# and refuses the plain name that two nodes share (listing both), and
# [ByNodeName] matches the plain name as GE does (GE matches an op's own
# name, so `mm` reaches both branches and `then_g/mm` reaches none). A model
# with one graph keeps plain names.
test_description='graph-qualified node names for subgraphs'
. "$(dirname "$0")/test-lib.sh"

IFM="$top_srcdir/t/data/if_two_mm.json"
PY=${PYTHON3:-/usr/bin/python3}

test_expect_success 'setup: an ini naming mm, and then_g/mm' '
	printf "[ByNodeName]\nmm=enable_float_32_execution\nthen_g/mm=high_precision\n" >op.ini
'

test_expect_success 'the text table shows the graph: two distinct rows then_g/mm and else_g/mm' '
	gerules eval "$IFM" --chip Ascend910B1 --all-nodes -o OP_PRECISION_MODE=op.ini >out 2>err &&
	test_grep "^then_g/mm  *MatMulV2  *enable_float_32_execution (\\[ByNodeName\\])" out &&
	test_grep "^else_g/mm  *MatMulV2  *enable_float_32_execution (\\[ByNodeName\\])" out &&
	test $(grep -c "^mm " out) = 0 &&
	test_grep "^branch  *If " out
'

test_expect_success '[ByNodeName] then_g/mm matches nothing, as in GE, and suggests the name GE matches' '
	test_grep "then_g/mm=high_precision matches no node of that name in the graph; did you mean .mm. (then_g/mm)? \\[GE4004\\]" out
'

test_expect_success '--explain mm is ambiguous: exit 2, both qualified candidates listed' '
	test_must_fail --exit 2 gerules eval "$IFM" --chip Ascend910B1 --explain mm >out 2>err &&
	test_must_be_empty out &&
	test_grep "^gerules eval: error: .mm. names 2 nodes of .*if_two_mm.json; give the graph-qualified name of one: .then_g/mm., .else_g/mm.$" err
'

test_expect_success '--explain else_g/mm explains that node (its line in the file)' '
	gerules eval "$IFM" --chip Ascend910B1 --explain else_g/mm >out &&
	test_grep "^node mm (MatMulV2) in graph \"else_g\" at .*if_two_mm.json:14," out &&
	gerules eval "$IFM" --chip Ascend910B1 --explain then_g/mm >out &&
	test_grep "in graph \"then_g\" at .*if_two_mm.json:10," out
'

test_expect_success 'a node name used once needs no qualification; a typo gets the qualified name' '
	gerules eval "$IFM" --chip Ascend910B1 --explain branch >out &&
	test_grep "^node branch (If)" out &&
	test_must_fail --exit 2 gerules eval "$IFM" --chip Ascend910B1 --explain else_g/nm 2>err &&
	test_grep "did you mean .else_g/mm.?" err
'

test_expect_success 'tile --node takes the qualified name too' '
	gerules tile "$IFM" --chip Ascend910B1 --node else_g/mm --format json >t.json &&
	"$PY" -c "import json; d = json.load(open(\"t.json\")); assert [n[\"graph\"] for n in d[\"nodes\"]] == [\"else_g\"], d[\"nodes\"]" &&
	test_must_fail --exit 2 gerules tile "$IFM" --chip Ascend910B1 --node mm 2>err &&
	test_grep "names 2 nodes" err
'

test_expect_success 'node diagnostics carry the qualified name (JSON and a hook)' '
	cat >h.lua <<-\EOF &&
	gr.on_node({type_pattern = "MatMulV2"}, function(n)
	  gr.warning("XX0001", "hook saw this node", n)
	end)
	EOF
	gerules eval "$IFM" --chip Ascend910B1 --hook h.lua --format json >rep.json &&
	"$PY" - <<-\EOF
	import json
	d = json.load(open("rep.json"))
	nodes = sorted(x["node"] for x in d["diagnostics"] if x["message"] == "hook saw this node")
	assert nodes == ["else_g/mm", "then_g/mm"], nodes
	assert sorted((n["graph"], n["name"]) for n in d["nodes"] if n["type"] == "MatMulV2") == [("else_g", "mm"), ("then_g", "mm")]
	EOF
'

test_expect_success 'a model with one graph keeps plain names' '
	gerules eval "$top_srcdir/examples/llm_decoder.json" --chip Ascend910B1 --all-nodes >out &&
	test_grep "^layer0/attn/q_proj " out &&
	! grep -q "^llm_decoder/" out
'

test_done
