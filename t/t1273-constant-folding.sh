#!/bin/sh
# t1273-constant-folding.sh: nodes GE's constant folding replaces by a Const
# before it places engines (rules/engines.rules engine_folded_ops,
# engine_folded_shape_ops): hicann/ge @ffdcbc9f7 runs DimensionComputePass and
# ConstantFoldingPass in GraphPrepare::InferShapeForPreprocess
# (compiler/graph/preprocess/graph_prepare.cc:2433-2438), before FE's judge
# (compiler/graph/manager/graph_manager.cc:1132-1136). A folded node gets no
# engine, tiling or execution; a chain folds to its end; a Cast folds for the
# dtype pairs its built-in kernel converts (base/common/datatype_transfer/
# datatype_transfer.cc:52-73); a Shape folds when its input shape is static
# (host_kernels/array_ops/shape_kernel.cc:25-54). t/golden/870 pins what it
# does to a tiling input.

test_description='constant folding before engine placement'
. "${top_srcdir:-..}/t/test-lib.sh"

PY=${PYTHON3:-python3}

# check_engines_edit DIR SED: gerules check fails (exit 2) on a copy of the
# shipped rules in DIR whose engines.rules SED edits; its stderr in err
check_engines_edit () {
	cp -R "$top_srcdir/rules" "$1" &&
	sed -i "$2" "$1/engines.rules" &&
	test_must_fail --exit 2 gerules --rules "$1" check >out 2>err
}

# fold.onnx: a Constant int32 -> Cast int64 -> Cast int32 (a chain: both
# fold); an initializer float32 -> Cast float16 (folds); an initializer
# int64 -> Cast float32 (int64>float32 is no pair of CastKernel: kept); a
# Cast of the graph input (kept); a Shape of x, static (folds), and of y,
# whose first dim is symbolic (kept).
test_expect_success 'setup: the model' '
	"$PY" - <<-\EOF
	import onnx
	from onnx import helper as h, TensorProto as T
	x = h.make_tensor_value_info("x", T.FLOAT, [2, 8])
	y = h.make_tensor_value_info("y", T.FLOAT, ["N", 8])
	outs = [h.make_tensor_value_info(n, t, None) for n, t in
	        (("o_chain", T.INT32), ("o_add", T.FLOAT16), ("o_keep", T.FLOAT), ("o_s1", T.INT64), ("o_s2", T.INT64))]
	g = h.make_graph([
	    h.make_node("Constant", [], ["c"], name="c_i32", value=h.make_tensor("cv", T.INT32, [1], [3])),
	    h.make_node("Cast", ["c"], ["c64"], name="fold_cast", to=T.INT64),
	    h.make_node("Cast", ["c64"], ["o_chain"], name="fold_chain", to=T.INT32),
	    h.make_node("Cast", ["w"], ["w16"], name="fold_w", to=T.FLOAT16),
	    h.make_node("Cast", ["x"], ["x16"], name="cast_x", to=T.FLOAT16),
	    h.make_node("Add", ["x16", "w16"], ["o_add"], name="add16"),
	    h.make_node("Cast", ["big"], ["o_keep"], name="keep_pair", to=T.FLOAT),
	    h.make_node("Shape", ["x"], ["o_s1"], name="shape_static"),
	    h.make_node("Shape", ["y"], ["o_s2"], name="shape_dyn"),
	], "g", [x, y], outs, [h.make_tensor("w", T.FLOAT, [8], [0.5] * 8), h.make_tensor("big", T.INT64, [1], [7])])
	onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), "fold.onnx")
	EOF
'

test_expect_success 'folded: the Cast chain, the Cast of an initializer, the static Shape; the rest placed' '
	gerules eval fold.onnx --chip Ascend910B1 --format json --all-nodes >fold.json &&
	"$PY" - <<-\EOF
	import json
	d = json.load(open("fold.json"))
	n = {x["name"]: x for x in d["nodes"]}
	for k in ("fold_cast", "fold_chain", "fold_w", "shape_static"):
	    x = n[k]
	    assert x["engine"] is None and x["tiling"] is None and x["execution"] is None, x
	    assert x["dtype_source"] == "model_dtype", x
	    why = [p["reason"] for p in x["provenance"] if p["slot"] == "dtype" and p["won"]]
	    assert why == ["GE\x27s constant folding replaces this %s by a Const before it places engines: the model\x27s dtype"
	                   % x["type"]], why
	for k in ("cast_x", "keep_pair", "shape_dyn", "add16"):
	    assert n[k]["engine"] is not None, n[k]
	notes = [g for g in d["diagnostics"] if g["code"] == "GE7009"]
	assert len(notes) == 1 and notes[0]["severity"] == "note", notes
	assert notes[0]["message"].startswith("4 node(s) become Consts before GE places engines, such as \x27fold_cast\x27 (Cast)"), notes
	EOF
'

test_expect_success '--explain says which table folds each, and why' '
	gerules eval fold.onnx --chip Ascend910B1 --explain fold_chain >ex1 &&
	test_grep "replaces this Cast by a Const before it places engines: every input is a constant (table engine_folded_ops)" ex1 &&
	gerules eval fold.onnx --chip Ascend910B1 --explain shape_static >ex2 &&
	test_grep "replaces this Shape by a Const before it places engines: its input shapes are static (table engine_folded_shape_ops)" ex2 &&
	gerules eval fold.onnx --chip Ascend910B1 --explain keep_pair >ex3 &&
	! grep "constant folding" ex3
'

test_expect_success 'ge.oo.constantFolding=false and ATC --oo_constant_folding=false fold nothing' '
	gerules eval fold.onnx --chip Ascend910B1 --entry session -o ge.oo.constantFolding=false --format json --all-nodes >off.json &&
	gerules atc --model=fold.onnx --framework=5 --soc_version=Ascend910B1 --output=o1 --oo_constant_folding=false \
		--format json --all-nodes >atc-off.json &&
	gerules atc --model=fold.onnx --framework=5 --soc_version=Ascend910B1 --output=o1 --format json --all-nodes >atc-on.json &&
	for f in off.json atc-off.json; do
		test "$(json_get $f "len([x for x in d[\"nodes\"] if x[\"type\"] in (\"Cast\", \"Shape\") and x[\"engine\"] is None])")" = 0 &&
		test "$(json_get $f "len([g for g in d[\"diagnostics\"] if g[\"code\"] == \"GE7009\"])")" = 0 || return 1
	done &&
	test "$(json_get atc-on.json "\" \".join(sorted(x[\"name\"] for x in d[\"nodes\"] if x[\"engine\"] is None and x[\"type\"] != \"NetOutput\"))")" = \
		"fold_cast fold_chain fold_w shape_static"
'

# The tiling sources skip folded nodes with `not (node.judge_engine_by in
# [...])`, which the evaluator compiles to a bit test (src/eval/eval.c
# compile_part_test): a node the judge never saw (no op library for the
# chip: judge_engine_by null) is in no list, so it keeps its tiling.
test_expect_success 'without an op library for the chip nothing folds, and every node keeps its tiling' '
	gerules eval fold.onnx --chip Ascend950PR_9599 --format json --all-nodes >950.json; test $? -le 1 &&
	test "$(json_get 950.json "len([x for x in d[\"nodes\"] if x[\"type\"] in (\"Cast\", \"Shape\") and x[\"tiling\"] is None])")" = 0 &&
	test "$(json_get 950.json "len([g for g in d[\"diagnostics\"] if g[\"code\"] == \"GE7009\"])")" = 0
'

# ATC JSON: a Const without a weight (no attribute `value`) gives GE nothing
# to fold with (GetWeightsFromNodes, constant_folding_pass.cc:59-64); a node
# with no_need_constant_folding stays (folding_pass.cc:53-56).
test_expect_success 'a Const without a weight, and no_need_constant_folding, keep the Cast' '
	cat >kept.json <<-\EOF &&
	{"name": "m", "graph": [{"name": "main", "op": [
	 {"name": "nw", "type": "Const", "output_desc": [{"dtype": "DT_INT32", "shape": {"dim": [1]}}]},
	 {"name": "cw", "type": "Const", "attr": [{"key": "value", "value": {"t": {"desc": {"dtype": "DT_INT32", "shape": {"dim": [1]}}, "data": "AQAAAA=="}}}],
	  "output_desc": [{"dtype": "DT_INT32", "shape": {"dim": [1]}}]},
	 {"name": "c_nw", "type": "Cast", "input": ["nw:0"], "attr": [{"key": "dst_type", "value": {"i": 9}}],
	  "input_desc": [{"dtype": "DT_INT32", "shape": {"dim": [1]}}], "output_desc": [{"dtype": "DT_INT64", "shape": {"dim": [1]}}]},
	 {"name": "c_kept", "type": "Cast", "input": ["cw:0"], "attr": [{"key": "dst_type", "value": {"i": 9}}, {"key": "no_need_constant_folding", "value": {"b": true}}],
	  "input_desc": [{"dtype": "DT_INT32", "shape": {"dim": [1]}}], "output_desc": [{"dtype": "DT_INT64", "shape": {"dim": [1]}}]},
	 {"name": "c_fold", "type": "Cast", "input": ["cw:0"], "attr": [{"key": "dst_type", "value": {"i": 9}}],
	  "input_desc": [{"dtype": "DT_INT32", "shape": {"dim": [1]}}], "output_desc": [{"dtype": "DT_INT64", "shape": {"dim": [1]}}]},
	 {"name": "out", "type": "NetOutput", "input": ["c_nw:0", "c_kept:0", "c_fold:0"],
	  "input_desc": [{"dtype": "DT_INT64", "shape": {"dim": [1]}}, {"dtype": "DT_INT64", "shape": {"dim": [1]}}, {"dtype": "DT_INT64", "shape": {"dim": [1]}}]}
	]}]}
	EOF
	gerules eval kept.json --chip Ascend910B1 --format json --all-nodes >kept.out &&
	test "$(json_get kept.out "\" \".join(x[\"name\"] for x in d[\"nodes\"] if x[\"type\"] == \"Cast\" and x[\"engine\"] is None)")" = c_fold
'

# GE's unit tests of the pass (hicann/ge @ffdcbc9f7 tests/ge/ut/ge/graph/
# passes/constant_folding_pass_unittest.cc), each graph as ATC JSON. The
# tests register their own kernels: AddNYes, AddYes and HuberLossYes fold
# (:44-109), AddNNo, ShapeNo and DataNo have none; a layer lists the three
# in engine_folded_ops (any dtype), and Add for the two tests on GE's own Add
# kernel. Their Consts get a weight (SetWeightForConstNode :213-222: attr
# value). doc/ge-fidelity.md lists each test and its verdict.
test_expect_success 'GE unit tests of ConstantFoldingPass: which nodes fold' '
	mkdir ut &&
	printf "bundle \"fold-ut\" { version \"1.0.0\"; extends \"ge-base\"; }\n" >ut/bundle.rules &&
	sed -n "/^table engine_folded_ops/,/^}/p" "$top_srcdir/rules/engines.rules" |
		sed "s/^table/override table/;s/^}/    \"AddNYes\": [], \"AddYes\": [], \"HuberLossYes\": [], \"Add\": [],\n}/" >ut/fold.rules &&
	gerules --rules "$top_srcdir/rules" --rules ut check >/dev/null &&
	"$PY" - <<-\EOF &&
	import json
	W = [{"key": "value", "value": {"t": {"desc": {"dtype": "DT_UINT8", "shape": {"dim": [9]}}, "data": "AQIDBAUGBwgJ"}}}]
	def op(name, typ, ins=(), nout=1, attrs=None, weight=False):
	    o = {"name": name, "type": typ}
	    if ins: o["input"] = list(ins)
	    a = (W if weight else []) + (attrs or [])
	    if a: o["attr"] = a
	    if ins: o["input_desc"] = [{"dtype": "DT_UINT8", "shape": {"dim": [9]}} for i in ins if not i.endswith(":-1")]
	    if nout: o["output_desc"] = [{"dtype": "DT_UINT8", "shape": {"dim": [9]}}] * nout
	    return o
	def const(n): return op(n, "Const", weight=True)
	def save(name, ops):
	    json.dump({"name": name, "graph": [{"name": "g", "op": ops}]}, open(name + ".json", "w"))
	out = lambda *i: op("netoutput", "NetOutput", i, 0)
	# BuildGraph1 (:231), folding_addn (constant_folding_pass_unittest.cc:742)
	save("g1", [const("const1"), const("const2"), op("addn1", "AddNYes", ["const1:0", "const2:0"]),
	            op("shape1", "ShapeNo", ["addn1:0"]), out("shape1:0")])
	# BuildGraph1 with _do_not_constant_folding true on addn1, Don_Not_Constat_Folding (constant_folding_pass_unittest.cc:1048);
	# and false, which does not keep it (IsUserSpecifiedSkipConstantFold reads the bool)
	for v, nm in ((True, "g1dn"), (False, "g1df")):
	    save(nm, [const("const1"), const("const2"),
	              op("addn1", "AddNYes", ["const1:0", "const2:0"], attrs=[{"key": "_do_not_constant_folding", "value": {"b": v}}]),
	              op("shape1", "ShapeNo", ["addn1:0"]), out("shape1:0")])
	# BuildGraph2 (:260), folding_without_one_const (constant_folding_pass_unittest.cc:760)
	save("g2", [const("const1"), const("const2"), op("addn1", "AddNYes", ["const1:0", "const2:0"]),
	            op("shape1", "ShapeNo", ["addn1:0"]), op("shape2", "ShapeNo", ["const2:0"]), op("netoutput", "DataNo", ["shape1:0"], 0)])
	# BuildGraph5 (:291), folding_with_const_control_edges (constant_folding_pass_unittest.cc:781)
	save("g5", [const("const1"), op("data1", "DataNo"), op("data2", "DataNo"), dict(const("const2"), input=["data2:-1"]),
	            op("addn1", "AddNYes", ["const1:0", "const2:0", "data1:-1"]), op("shape1", "ShapeNo", ["addn1:0"]), out("shape1:0")])
	# BuildGraph6 (:326), continues_fold (constant_folding_pass_unittest.cc:800)
	save("g6", [const("const1"), const("const2"), const("const3"), const("const4"),
	            op("addn1", "AddNYes", ["const1:0", "const2:0", "const4:0"]), op("add1", "AddYes", ["addn1:0", "const3:0"]),
	            op("shape1", "ShapeNo", ["add1:0"]), out("shape1:0")])
	# BuildGraph7 (:363), multiple_output (constant_folding_pass_unittest.cc:818)
	save("g7", [const("const1"), const("const2"), const("const3"),
	            op("huberLoss1", "HuberLossYes", ["const1:0", "const2:0", "const3:0"], 2),
	            op("shape1", "ShapeNo", ["huberLoss1:0"]), op("shape2", "ShapeNo", ["huberLoss1:1"]), out("shape1:0", "shape2:0")])
	# BuildGraph8 (:398), not_change1 (constant_folding_pass_unittest.cc:846)
	save("g8", [const("const1"), const("const2"), op("addn1", "AddNNo", ["const1:0", "const2:0"]),
	            op("shape1", "ShapeNo", ["addn1:0"]), out("shape1:0")])
	# BuildGraph9 (:427), not_change2 (constant_folding_pass_unittest.cc:856)
	save("g9", [const("const1"), op("data1", "DataNo"), op("addn1", "AddNYes", ["const1:0", "data1:0"]),
	            op("shape1", "ShapeNo", ["addn1:0"]), out("shape1:0")])
	# BuildWrongGraph7 (:595), not_constant_input_ignore_pass (constant_folding_pass_unittest.cc:918)
	save("w7", [op("input1", "Data", attrs=[{"key": "index", "value": {"i": 0}}]), op("input2", "Data", attrs=[{"key": "index", "value": {"i": 1}}]),
	            op("add", "Add", ["input1:0", "input2:0"]), out("add:0")])
	# BuildWrongGraph8 (:615), attr_need_ignore_pass (constant_folding_pass_unittest.cc:926)
	save("w8", [const("input1"), const("input2"),
	            op("add", "Add", ["input1:0", "input2:0"], attrs=[{"key": "no_need_constant_folding", "value": {"b": True}}]), out("add:0")])
	EOF
	for g in g1 g1dn g1df g2 g5 g6 g7 g8 g9 w7 w8; do
		gerules --rules "$top_srcdir/rules" --rules ut eval $g.json --chip Ascend910B1 --format json --all-nodes >$g.out; test $? -le 1 &&
		echo "$g $(json_get $g.out "\" \".join(x[\"name\"] for x in d[\"nodes\"] if x[\"dtype_source\"] == \"model_dtype\" and \"constant folding\" in [p[\"reason\"] for p in x[\"provenance\"] if p[\"slot\"] == \"dtype\"][0])")" || return 1
	done >got &&
	cat >want <<-\EOF &&
	g1 addn1
	g1dn 
	g1df addn1
	g2 addn1
	g5 addn1
	g6 addn1 add1
	g7 huberLoss1
	g8 
	g9 
	w7 
	w8 
	EOF
	test_cmp want got
'

test_expect_success 'engine_folded_ops: an unknown dtype or "unless black" in a pair is an error with a caret' '
	check_engines_edit bad1 "s/\"Cast\": \[\"float32>float16\",/\"Cast\": [\"float32>float17\",/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_folded_ops\[\"Cast\"\].*float17" err &&
	grep "^ *\^" err &&
	check_engines_edit bad2 "s/\"Cast\": \[\"float32>float16\",/\"Cast\": [\"float32>float16 unless black\",/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_folded_ops\[\"Cast\"\]: a dtype pair reads .FROM>TO." err
'

test_expect_success 'engine_const_weight_attrs: a value that is not a list is an error with a caret' '
	check_engines_edit bad3 "s/\"value\": \[\], \"_onnx_op\"/\"value\": 1, \"_onnx_op\"/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_const_weight_attrs\[\"value\"\]: expected a list of values" err &&
	grep "^ *\^" err
'

test_done
