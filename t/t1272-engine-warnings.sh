#!/bin/sh
# t1272-engine-warnings.sh: the warnings of GE's engine search, in GE's order
# (hicann/ge @ffdcbc9f7 compiler/engines/manager/engine_manager/
# dnnengine_manager.cc:339-428): W11001 as each kernel lib refuses a node
# (GE7007, rules/engines.rules), also when a later engine takes it; one
# EZ3002 per refusing kernel lib only when none took it (GE7006), then
# EZ3003 (GE7003). What each engine decides is pinned by the golden cases
# t/golden/770 and 831-833; this file checks the order and the formats.

test_description='engine search warnings: W11001, EZ3002, EZ3003 in GE order'
. "${top_srcdir:-..}/t/test-lib.sh"

G=$top_srcdir/t/golden
PY=${PYTHON3:-python3}

# check_engines_edit DIR SED: gerules check fails (exit 2) on a copy of the
# shipped rules in DIR whose engines.rules SED edits; its stderr in err
check_engines_edit () {
	cp -R "$top_srcdir/rules" "$1" &&
	sed -i "$2" "$1/engines.rules" &&
	test_must_fail --exit 2 gerules --rules "$1" check >out 2>err
}

# graph NAME CASE: the inline graph of golden case CASE, as NAME.json
graph () {
	sed -n '/^--- graph$/,/^--- /p' "$G/$2" | sed '1d;$d' >"$1.json"
}

test_expect_success 'Acos int16 on Ascend910B1: W11001 per kernel lib, then EZ3002 per kernel lib, then EZ3003' '
	graph acos 770-acos-int16-refused-by-every-kernel-ez3002.case &&
	gerules eval acos.json --chip Ascend910B1 >out &&
	sed -n "s/.*Ops kernel \[\([a-zA-Z_]*\)\].*\[\(GE70[0-9][0-9]\)\] \[GE \([A-Z0-9]*\)\].*/\2 \3 \1/p;s/.*\[GE7003\] \[GE EZ3003\].*/GE7003 EZ3003/p" out >got &&
	cat >want <<-\EOF &&
	GE7007 W11001 AIcoreEngine
	GE7007 W11001 aicpu_ascend_kernel
	GE7007 W11001 aicpu_tf_kernel
	GE7006 EZ3002 AIcoreEngine
	GE7006 EZ3002 aicpu_ascend_kernel
	GE7006 EZ3002 aicpu_tf_kernel
	GE7003 EZ3003
	EOF
	test_cmp want got
'

test_expect_success 'NonZero int64 on Ascend310P3: one W11001 (the AI Core), no EZ3002, the node on the AI CPU' '
	graph nz 831-w11001-aicore-refuses-aicpu-takes.case &&
	gerules eval nz.json --chip Ascend310P3 --format json >nz.out &&
	"$PY" - nz.out <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	codes = [(x["code"], x["ge_code"], x["node"]) for x in d["diagnostics"]]
	assert codes.count(("GE7007", "W11001", "n")) == 1, codes
	assert not any(c[0] in ("GE7006", "GE7003") for c in codes), codes
	n = [x for x in d["nodes"] if x["name"] == "n"][0]
	assert n["engine"] == "DNN_VM_AICPU_ASCEND", n
	EOF
'

test_expect_success 'SARIF and github formats carry W11001 with the node' '
	gerules eval nz.json --chip Ascend310P3 --format sarif >nz.sarif &&
	"$PY" - nz.sarif <<-\EOF &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	res = [r for r in d["runs"][0]["results"] if r["ruleId"] == "GE7007"]
	assert len(res) == 1, res
	assert res[0]["level"] == "warning", res
	assert "Op [n] does not hit the high-priority operator information library" in res[0]["message"]["text"], res
	EOF
	gerules eval nz.json --chip Ascend310P3 --format github >nz.gh &&
	test_grep "^::warning .*Op \[n\] does not hit the high-priority operator information library" nz.gh
'

test_expect_success 'a rule layer can read node.judge_refusal_ge_op only for each refusal' '
	cat >bad.rules <<-\EOF &&
	rule r for each node when node.judge_refusal_ge_op then note X0001 "x";
	EOF
	test_must_fail --exit 2 gerules check bad.rules 2>err &&
	test_grep "judge_refusal_ge_op. is the refusing engine.s: only .node.judge_refusal_ge_op. in rules .for each refusal." err
'

# table engine_fused_ops (rules/engines.rules): a type FE's fusion pass
# replaces before the judge is judged and placed as the type it becomes
test_expect_success 'GlobalAveragePool is judged as ReduceMeanD, and both reasons name Globalavgpoolpass' '
	graph gap 845-fused-globalaveragepool-judged-as-reducemeand.case &&
	gerules eval gap.json --chip Ascend910B1 --format json --all-nodes >gap.out &&
	"$PY" - gap.out <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	n = [x for x in d["nodes"] if x["name"] == "gap"][0]
	why = {p["slot"]: p["reason"] for p in n["provenance"] if p["won"]}
	pre = "FE\x27s fusion pass Globalavgpoolpass makes this GlobalAveragePool a ReduceMeanD before it judges it (table engine_fused_ops); "
	assert n["type"] == "GlobalAveragePool", n["type"]
	assert why["engine"] == pre + "op store aicore_ascend910b takes ReduceMeanD", why["engine"]
	assert why["dtype"].startswith(pre + "PRECISION_MODE=force_fp16, black op: input 0 float32 -> float16"), why["dtype"]
	assert not [x for x in d["diagnostics"] if x["code"] == "GE7003"], d["diagnostics"]
	EOF
'

test_expect_success 'engine_fused_ops: a value that is not [type, pass], or an op fused into itself, is an error with a caret' '
	check_engines_edit fused "s/\"GlobalAveragePool\": \[\"ReduceMeanD\", \"Globalavgpoolpass\"\]/\"GlobalAveragePool\": \"ReduceMeanD\"/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_fused_ops\[\"GlobalAveragePool\"\]: expected \[\"TYPE\", \"PASS\"\]" err &&
	grep "^ *\^" err &&
	check_engines_edit self "s/\"GlobalAveragePool\": \[\"ReduceMeanD\",/\"GlobalAveragePool\": [\"GlobalAveragePool\",/" &&
	grep "error: engine_fused_ops\[\"GlobalAveragePool\"\]: an op fused into its own type" err
'

# ONNX LSTM becomes CommonLSTM (hicann/ops-nn common/src/framework/
# lstm_onnx_plugin.cpp), which no op store of CANN 8.1.RC1 has: FE's
# CommonLSTMFusionPass makes it a DynamicRNN (rules/engines.rules,
# engine_fused_ops), whose inputs take the node's as table
# engine_fused_inputs says: x 0, W 1 (R folded into it), B 2, initial_h 4,
# initial_c 5, and sequence_lens none (the pass feeds seq_length a float16
# mask made from it). Ascend910B1: DynamicRNN's lists are float32 and
# float16 for every input (hicann/ops-nn rnn/dynamic_rnn/op_host/
# dynamic_rnn_def.cpp:34-76; rules/oplib/dynamic_format.rules), white: the
# default force_fp16 takes column 1 (float16), must_keep_origin_dtype column
# 0; an int32 sequence_lens checked against seq_length would refuse both.
# Ascend310P3: x lists float16 only (aic-ascend310p-ops-info.json
# DynamicRNN input0), so must_keep_origin_dtype refuses a float32 LSTM and,
# with no AI CPU kernel for DynamicRNN, no engine takes it (EZ3003). An int32
# tensor at initial_h's position (5, after an empty sequence_lens) is checked
# against init_h's float16 list and refused: positions are GE's, not the
# count of the inputs given (counted, it would be sequence_lens, which no
# column checks). The build before placed no LSTM:
# "AI Core's op information library for ascend910b has no CommonLSTM".
test_expect_success 'CommonLSTM: judged and placed as the DynamicRNN CommonLSTMFusionPass makes it' '
	"$PY" "$top_srcdir/t/data/readers/onnx_models.py" . >/dev/null &&
	"$PY" - <<-\EOF &&
	import numpy as np, onnx
	from onnx import helper as h, TensorProto as T
	vi = h.make_tensor_value_info
	def const(n, s):
	    return h.make_tensor(n, T.FLOAT, s, np.zeros(int(np.prod(s)), dtype=np.float32).tobytes(), raw=True)
	g = h.make_graph([h.make_node("LSTM", ["xs", "lw", "lr", "lb", "", "h0"], ["ly"], name="lstm_i32h", hidden_size=2)], "g",
	                 [vi("xs", T.FLOAT, [3, 1, 4]), vi("h0", T.INT32, [1, 1, 2])], [vi("ly", T.FLOAT, None)],
	                 [const("lw", [1, 8, 4]), const("lr", [1, 8, 2]), const("lb", [1, 16])])
	m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)]); m.ir_version = 8
	onnx.save(m, "lstm_i32h.onnx")
	EOF
	for pm in force_fp16 must_keep_origin_dtype; do
		gerules eval lstm_fused.onnx --chip Ascend910B1 -o PRECISION_MODE=$pm --format json >b-$pm.json &&
		gerules eval lstm_fused.onnx --chip Ascend310P3 -o PRECISION_MODE=$pm --format json >p-$pm.json || return 1
	done &&
	gerules eval lstm_i32h.onnx --chip Ascend310P3 --format json >i32.json &&
	gerules eval lstm_fused.onnx --chip Ascend910B1 --explain lstm_seq >ex.out &&
	test_grep "^  input 2: no input of DynamicRNN takes it (table engine_fused_inputs)" ex.out &&
	test_grep "^  input 4: no input of DynamicRNN takes it (table engine_fused_inputs)" ex.out &&
	test_grep "^  input 5 float32: row .* -> column 1" ex.out &&
	"$PY" - <<-\EOF
	import json
	def nodes(f):
	    d = json.load(open(f))
	    return {x["name"]: x for x in d["nodes"]}, d["diagnostics"]
	pre = "FE\x27s fusion pass CommonLSTMFusionPass makes this CommonLSTM a DynamicRNN before it judges it (table engine_fused_ops); "
	for pm, dt, col in (("force_fp16", "float16", 1), ("must_keep_origin_dtype", "float32", 0)):
	    n, diags = nodes("b-%s.json" % pm)
	    for name in ("lstm_seq", "lstm_gap"):
	        x = n[name]
	        why = {p["slot"]: p["reason"] for p in x["provenance"] if p["won"]}
	        assert x["type"] == "CommonLSTM" and x["engine"] == "AIcoreEngine" and x["dtype"] == dt, (pm, x)
	        assert x["dtype_detail"]["column"] == col, (pm, x["dtype_detail"])
	        assert why["engine"] == pre + "op store aicore_ascend910b takes DynamicRNN", why["engine"]
	    assert not [d for d in diags if d["code"] in ("GE7003", "GE7006")], diags
	n, diags = nodes("p-force_fp16.json")
	assert n["lstm_seq"]["engine"] == "AIcoreEngine" and n["lstm_seq"]["dtype"] == "float16", n["lstm_seq"]
	n, diags = nodes("p-must_keep_origin_dtype.json")
	assert n["lstm_seq"]["engine"] is None and n["lstm_gap"]["engine"] is None, n
	assert [d for d in diags if d["code"] == "GE7003" and d.get("node") == "lstm_seq" and "no engine takes DynamicRNN" in d["message"]], diags
	n, diags = nodes("i32.json")
	assert n["lstm_i32h"]["engine"] is None, n["lstm_i32h"]
	EOF
'

# ONNX GRU becomes CommonGRU (hicann/ops-nn common/src/framework/
# gru_onnx_plugin.cpp), in no op store of CANN 8.1.RC1: CommonGRUFusionPass
# makes it a DynamicGRUV2 (fusion_config.json:100), whose inputs take x, W, R,
# B, sequence_lens and initial_h at 0, 1, 2, 3 (bias_input), 5 (seq_length)
# and 6 (init_h) (engine_fused_inputs; GRUFusionPass::Fusion). A static
# DynamicGRUV2 gets impl/dynamic_gru_v2.py's op_select_format lists
# (dynamic_format.rules): x float16 only, seq_length float16 or int32 (columns
# 2 and 3), bias float32 or float16. Ascend910B1, force_fp16: x rises to
# float16, the int32 sequence lengths keep columns 2 and 3, and force_fp16's
# float16 for the bias leaves column 3 (dynamic_gru_v2.py:66-68): AI Core,
# float16. must_keep_origin_dtype keeps x float32, which no column lists, and
# no other store has DynamicGRUV2: no engine (EZ3003). Positionally the int32
# sequence lengths would meet bias_hidden's float lists and the node would be
# refused under force_fp16 too. The build before placed no GRU.
test_expect_success 'CommonGRU: judged and placed as the DynamicGRUV2 CommonGRUFusionPass makes it' '
	"$PY" "$top_srcdir/t/data/readers/onnx_models.py" . >/dev/null &&
	gerules eval gru_fused.onnx --chip Ascend910B1 --format json >g16.json &&
	gerules eval gru_fused.onnx --chip Ascend910B1 -o PRECISION_MODE=must_keep_origin_dtype --format json >g32.json &&
	"$PY" - <<-\EOF
	import json
	pre = "FE\x27s fusion pass CommonGRUFusionPass makes this CommonGRU a DynamicGRUV2 before it judges it (table engine_fused_ops); "
	d = json.load(open("g16.json"))
	x = [n for n in d["nodes"] if n["name"] == "gru_seq"][0]
	why = {p["slot"]: p["reason"] for p in x["provenance"] if p["won"]}
	assert x["type"] == "CommonGRU" and x["engine"] == "AIcoreEngine" and x["dtype"] == "float16", x
	assert x["dtype_detail"]["column"] == 3, x["dtype_detail"]
	assert why["engine"] == pre + "op store aicore_ascend910b takes DynamicGRUV2", why["engine"]
	d = json.load(open("g32.json"))
	x = [n for n in d["nodes"] if n["name"] == "gru_seq"][0]
	assert x["engine"] is None, x
	assert [g for g in d["diagnostics"] if g["code"] == "GE7003" and g.get("node") == "gru_seq"], d["diagnostics"]
	EOF
'

# ONNX TopK becomes IR TopK (hicann/ops-nn common/src/framework/
# topk_onnx_plugin.cpp; opsets 8-9 through a PartitionedCall with an int32
# Const k), which no AI Core store of CANN 8.1.RC1 has, and whose AI CPU
# kernel lists only an int32 k (aicpu_kernel.json TopK input1): the build
# before said "No supported Ops kernel and engine are found" (GE7003) for
# every ONNX TopK. TopKFusionPass (top_k_fusion_pass.cc @83709c7a8 :533,
# :599-634, :734; rules/engines.rules) makes one whose k is a constant a
# TopKD, on the AI Core of ascend910b with x float16, float32 or bfloat16
# (aic-ascend910b-ops-info.json TopKD); its other paths (k computed: :732; a
# TopKD the AI Core refuses, such as an int64 x: :628) are not modelled, so
# such a node has no engine and no dtype, with note GE7004 and no EZ3003.
test_expect_success 'TopK: a TopKD on the AI Core when k is a constant, else neither engine nor dtype' '
	"$PY" - <<-\EOF &&
	import onnx
	from onnx import helper as h, TensorProto as T
	vi = h.make_tensor_value_info
	k5 = h.make_tensor("k", T.INT64, [1], [5])
	def save(name, x_t, opset, inits, extra_in=(), **attrs):
	    ins = ["x"] if opset < 10 else ["x", "k"]
	    g = h.make_graph([h.make_node("TopK", ins, ["v", "i"], name="topk", axis=-1, **attrs)], "g",
	                     [vi("x", x_t, [4, 100])] + list(extra_in), [vi("v", x_t, [4, 5]), vi("i", T.INT64, [4, 5])], inits)
	    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", opset)]), name + ".onnx")
	save("topk_const", T.FLOAT, 11, [k5])
	save("topk_data", T.FLOAT, 11, [], [vi("k", T.INT64, [1])])
	save("topk_i64", T.INT64, 11, [k5])
	save("topk_v9", T.FLOAT, 9, [], k=5)
	EOF
	for m in topk_const topk_data topk_i64 topk_v9; do
		gerules eval $m.onnx --chip Ascend910B1 -o PRECISION_MODE=must_keep_origin_dtype --format json >$m.json || return 1
	done &&
	gerules eval topk_data.onnx --chip Ascend910B1 --explain topk >ex.out &&
	test_grep "^  FE.s fusion pass TopKFusionPass makes this TopK a TopKD only when input 1 is a constant" ex.out &&
	"$PY" - <<-\EOF
	import json
	def node(f, name):
	    d = json.load(open(f))
	    return [x for x in d["nodes"] if x["name"] == name][0], d["diagnostics"]
	pre = "FE\x27s fusion pass TopKFusionPass makes this TopK a TopKD before it judges it (table engine_fused_ops); "
	for f, name in (("topk_const.json", "topk"), ("topk_v9.json", "PartitionedCall_topk_TopK_1")):
	    x, diags = node(f, name)
	    why = {p["slot"]: p["reason"] for p in x["provenance"] if p["won"]}
	    assert x["type"] == "TopK" and x["engine"] == "AIcoreEngine" and x["dtype"] == "float32", (f, x)
	    assert why["engine"] == pre + "op store aicore_ascend910b takes TopKD", why["engine"]
	    assert not [d for d in diags if d["code"] in ("GE7003", "GE7004", "GE7006", "GE7007")], diags
	head = ("FE\x27s fusion pass TopKFusionPass makes this TopK a TopKD only when input 1 is a constant and the AI Core "
	        "takes the TopKD (tables engine_fused_const_inputs, engine_fused_checked_ops), and ")
	tail = ": what the pass makes of the node then is not modelled, so gerules decides neither its engine nor its dtype"
	for f, mid in (("topk_data.json", "input 1 is not a constant"),
	               ("topk_i64.json", "the AI Core\x27s op information library does not take a TopKD with this node\x27s dtypes and shapes")):
	    x, diags = node(f, "topk")
	    assert x["engine"] is None and x["dtype"] is None and "dtype_detail" not in x, (f, x)
	    notes = [d for d in diags if d["code"] == "GE7004"]
	    assert len(notes) == 1 and notes[0]["message"].endswith(head + mid + tail), notes
	    assert not [d for d in diags if d["code"] in ("GE7002", "GE7003", "GE7006", "GE7007")], diags
	EOF
'

test_expect_success 'engine_fused_const_inputs: a type not in engine_fused_ops, an empty list or a negative index is an error with a caret' '
	check_engines_edit fci "s/^    \"TopK\": \[1\],$/    \"TopKV3\": [1], \"TopK\": [-1], \"CommonLSTM\": [],/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_fused_const_inputs\[\"TopKV3\"\]: not an op type of table engine_fused_ops" err &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_fused_const_inputs\[\"TopK\"\]: entry 0: expected an input index from 0 to 254" err &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_fused_const_inputs\[\"CommonLSTM\"\]: expected a non-empty list" err &&
	grep "^ *\^" err
'

test_expect_success 'engine_fused_checked_ops: a type not in engine_fused_ops, or a map, is an error with a caret' '
	check_engines_edit fck "/^table engine_fused_checked_ops/,/^}/s/^    \"TopK\", \"Conv2DTranspose\", \"Split\", \"SplitV\", \"ReduceSum\"$/    \"TopK\", \"TopKV3\"/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_fused_checked_ops: \"TopKV3\" is not an op type of table engine_fused_ops" err &&
	grep "^ *\^" err &&
	check_engines_edit fck2 "/^table engine_fused_checked_ops/,/^}/s/^    \"TopK\", \"Conv2DTranspose\", \"Split\", \"SplitV\", \"ReduceSum\"$/    \"TopK\": 1/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: table engine_fused_checked_ops must be a set of op types" err
'

# ONNX NonMaxSuppression is GE's plugin subgraph with a NonMaxSuppressionV6
# (hicann/ops-cv @6ae876534 non_max_suppression_onnx_plugin.cpp), which only
# ascend310p's AI Core has: the build before warned that no engine takes it
# (GE7003, EZ3003) on every other family, for every exported detection model.
# NonMaxSuppressionV6Fusion (non_max_suppression_fusion_pass.cc @83709c7a8
# :174-208) makes it a NonMaxSuppressionV7, with max_output_size int32, on
# every SoC; that op is on the AI Core of ascend910b (aic-ascend910b-ops-info.json
# NonMaxSuppressionV7: boxes float16 or float32) with no dynamicShapeSupport,
# and GE's InferShape of NonMaxSuppressionV6 gives a static
# [min(batch * classes * max_output_size, scores), 3] when max_output_size is
# a constant (nn_detect_ops.cc:1752-1791 of the same mirror): here
# min(1 * 2 * 10, 200) = 20. Without that constant (a graph input) the pass
# fails, and gerules models neither: no engine, no dtype, note GE7004. With
# a dynamic batch the V7 is dynamic, and the AI Core refuses it: GE7003 and
# GE7006, which name the NonMaxSuppressionV7 GE places.
test_expect_success 'NonMaxSuppression: a static NonMaxSuppressionV7 on the AI Core of ascend910b, when max_output_size is a constant' '
	"$PY" - <<-\EOF &&
	import onnx
	from onnx import helper as h, TensorProto as T
	vi = h.make_tensor_value_info
	def save(name, batch, const):
	    ins = [vi("boxes", T.FLOAT, [batch, 100, 4]), vi("scores", T.FLOAT, [batch, 2, 100])]
	    inits = [h.make_tensor("iou", T.FLOAT, [1], [0.5])]
	    if const: inits.append(h.make_tensor("maxk", T.INT64, [1], [10]))
	    else: ins.append(vi("maxk", T.INT64, [1]))
	    g = h.make_graph([h.make_node("NonMaxSuppression", ["boxes", "scores", "maxk", "iou"], ["sel"], name="nms"),
	                      h.make_node("Transpose", ["sel"], ["t"], name="tr", perm=[1, 0])], "g",
	                     ins, [vi("t", T.INT64, None)], inits)
	    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), name + ".onnx")
	save("nms_const", 1, True)
	save("nms_data", 1, False)
	save("nms_dyn", "n", True)
	EOF
	for m in nms_const nms_data nms_dyn; do
		gerules eval $m.onnx --chip Ascend910B1 --format json --all-nodes >$m.json || return 1
	done &&
	gerules eval nms_const.onnx --chip Ascend910B1 --explain PartitionedCall_nms_NonMaxSuppressionV6_4 >ex.out &&
	test_grep "because FE.s fusion pass NonMaxSuppressionV6Fusion makes this NonMaxSuppressionV6 a NonMaxSuppressionV7 before it judges it" ex.out &&
	test_grep "^  input 2: no input of NonMaxSuppressionV7 takes it (table engine_fused_inputs)" ex.out &&
	"$PY" - <<-\EOF
	import json
	def load(f):
	    d = json.load(open(f))
	    return {x["name"]: x for x in d["nodes"]}, d["diagnostics"]
	v6 = "PartitionedCall_nms_NonMaxSuppressionV6_4"
	n, diags = load("nms_const.json")
	x = n[v6]
	why = {p["slot"]: p["reason"] for p in x["provenance"] if p["won"]}
	assert (x["engine"], x["dtype"], x["execution"], x["tiling"]) == ("AIcoreEngine", "float16", "static", "compile"), x
	assert why["engine"].endswith("op store aicore_ascend910b takes NonMaxSuppressionV7"), why["engine"]
	# max_output_size (int64 in the model) is made int32 by the pass: not matched, not cast
	assert x["dtype_detail"]["inputs"][2] == ["int64", "int64"], x["dtype_detail"]
	assert not [d for d in diags if d["code"] in ("GE7003", "GE7004", "GE7006", "GE7007")], diags
	n, diags = load("nms_data.json")
	x = n[v6]
	assert x["engine"] is None and x["dtype"] is None, x
	notes = [d for d in diags if d["code"] == "GE7004"]
	assert len(notes) == 1 and "NonMaxSuppressionV7 only when input 2 is a constant (table engine_fused_const_inputs), and input 2 is not a constant" in notes[0]["message"], notes
	assert not [d for d in diags if d["code"] in ("GE7003", "GE7006", "GE7007")], diags
	n, diags = load("nms_dyn.json")
	x = n[v6]
	assert x["engine"] is None and x["execution"] == "dynamic", x
	warn = [d for d in diags if d["code"] == "GE7003" and d["node"] == v6]
	# GE names the type it places (node.judge_type), not the node type of the model
	assert warn and "optype [NonMaxSuppressionV7]: " in warn[0]["message"], diags
	ez2 = [d for d in diags if d["code"] == "GE7006" and d["node"] == v6]
	assert ez2 and ez2[0]["message"].startswith("Optype [NonMaxSuppressionV7] of Ops kernel [AIcoreEngine] is unsupported"), diags
	assert not [d for d in diags if d["code"] == "GE7004"], diags
	EOF
'

# ONNX ConvTranspose becomes a Conv2DTranspose with an int64 Const
# input_size (hicann/ops-nn conv_transpose_onnx_plugin.cpp). ConstToAttrPass
# (const2attr_fusion_pass.cc @83709c7a8 :82-126, registration :242-245)
# makes a static one a Conv2DTransposeD once the AI Core takes that, and
# leaves a dynamic one, and one whose Conv2DTransposeD the AI Core refuses,
# a Conv2DTranspose. On ascend310b the Conv2DTranspose lists only an int32
# input_size (aic-ascend310b-ops-info.json Conv2DTranspose input0): the
# build before warned that no engine takes an ONNX ConvTranspose there
# (GE7003); its Conv2DTransposeD (x float16, int4, int8, float32) runs on the
# AI Core. A dynamic node is left, so on ascend310b no engine takes it; on
# ascend910b the Conv2DTranspose (dynamicShapeSupport, input_size int64)
# does. ascend035 has no Conv2DTransposeD: the static node is left, and the
# Conv2DTranspose, float16 only there, refuses float32 under
# must_keep_origin_dtype.
test_expect_success 'ConvTranspose: the Conv2DTransposeD of ConstToAttrPass when static, else the Conv2DTranspose it leaves' '
	"$PY" - <<-\EOF &&
	import onnx, numpy as np
	from onnx import helper as h, TensorProto as T, numpy_helper as nh
	vi = h.make_tensor_value_info
	for name, b in (("ct_static", 1), ("ct_dyn", "n")):
	    g = h.make_graph([h.make_node("ConvTranspose", ["x", "w"], ["y"], name="up", kernel_shape=[2, 2], strides=[2, 2])], "g",
	                     [vi("x", T.FLOAT, [b, 4, 8, 8])], [vi("y", T.FLOAT, None)],
	                     [nh.from_array(np.ones((4, 2, 2, 2), np.float32), "w")])
	    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), name + ".onnx")
	EOF
	for m in ct_static ct_dyn; do
		for c in Ascend310B1 Ascend910B1; do
			gerules eval $m.onnx --chip $c --format json >$m-$c.json || return 1
		done
	done &&
	gerules eval ct_static.onnx --chip Ascend035 -o PRECISION_MODE=must_keep_origin_dtype --format json >ct_static-035.json &&
	gerules eval ct_static.onnx --chip Ascend310B1 --explain PartitionedCall_up_Conv2DTranspose_2 >ex.out &&
	test_grep "^  input 0: no input of Conv2DTransposeD takes it (table engine_fused_inputs)" ex.out &&
	"$PY" - <<-\EOF
	import json
	def load(f):
	    d = json.load(open(f))
	    x = [n for n in d["nodes"] if n["name"] == "PartitionedCall_up_Conv2DTranspose_2"][0]
	    return x, {p["slot"]: p["reason"] for p in x["provenance"] if p["won"]}, d["diagnostics"]
	made = "FE\x27s fusion pass ConstToAttrPass makes this static Conv2DTranspose a Conv2DTransposeD before it judges it (table engine_fused_ops); "
	for chip, store in (("Ascend310B1", "ascend310b"), ("Ascend910B1", "ascend910b")):
	    x, why, diags = load("ct_static-%s.json" % chip)
	    assert (x["engine"], x["dtype"]) == ("AIcoreEngine", "float16"), x
	    assert why["engine"] == made + "op store aicore_%s takes Conv2DTransposeD" % store, why["engine"]
	    assert not [d for d in diags if d["code"] in ("GE7003", "GE7004", "GE7006", "GE7007")], diags
	left = "FE\x27s fusion pass ConstToAttrPass leaves this dynamic Conv2DTranspose as it is (table engine_fused_ops); "
	x, why, diags = load("ct_dyn-Ascend910B1.json")
	assert (x["engine"], x["execution"]) == ("AIcoreEngine", "dynamic"), x
	assert why["engine"] == left + "op store aicore_ascend910b takes Conv2DTranspose", why["engine"]
	x, why, diags = load("ct_dyn-Ascend310B1.json")
	warn = [d for d in diags if d["code"] == "GE7003"]
	assert x["engine"] is None and warn and "optype [Conv2DTranspose]: " + left in warn[0]["message"], diags
	assert "lists no int64 for input 0 (input_size) of Conv2DTranspose" in warn[0]["message"], warn
	x, why, diags = load("ct_static-035.json")
	warn = [d for d in diags if d["code"] == "GE7003"]
	assert x["engine"] is None and warn, diags
	assert ("FE\x27s fusion pass ConstToAttrPass leaves this Conv2DTranspose as it is, since the AI Core\x27s op information "
	        "library does not take a Conv2DTransposeD with this node\x27s dtypes and shapes (table engine_fused_checked_ops); ") in warn[0]["message"], warn
	assert not [d for d in diags if d["code"] == "GE7004"], diags
	EOF
'

# ONNX Split becomes a Split (equal parts) or a SplitV (sizes) with int32
# and int64 Consts (split_onnx_plugin.cpp). ZSplitFusionPass and
# ZSplitVFusionPass (split_fusion_pass.cc, splitv_fusion_pass.cc @83709c7a8)
# make a static one a SplitD or SplitVD once the AI Core takes that, and
# leave a dynamic one, or one whose sizes are computed, as it is. On
# ascend035 the SplitV lists float16 and int8 only (aic-ascend035-ops-info.json
# SplitV input0), its SplitVD float32 too (impl/dynamic/split_v_d.py
# op_select_format): under must_keep_origin_dtype a static float32 Split
# stays on the AI Core as a SplitVD, a dynamic one leaves it for the AI CPU.
# The build before judged every node as the Split or SplitV of the model.
test_expect_success 'Split: the SplitD or SplitVD of ZSplit(V)FusionPass when static, else the node it leaves' '
	"$PY" - <<-\EOF &&
	import onnx
	from onnx import helper as h, TensorProto as T
	vi = h.make_tensor_value_info
	sizes = h.make_tensor("s", T.INT64, [2], [3, 5])
	def save(name, xdims, opset, ins, inits=(), extra=()):
	    g = h.make_graph([h.make_node("Split", list(ins), ["y0", "y1"], name="sp", axis=1)], "g",
	                     [vi("x", T.FLOAT, xdims)] + list(extra), [vi("y0", T.FLOAT, None), vi("y1", T.FLOAT, None)], list(inits))
	    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", opset)]), name + ".onnx")
	save("spv", [2, 8, 4], 13, ("x", "s"), [sizes])
	save("spv_dyn", ["n", 8, 4], 13, ("x", "s"), [sizes])
	save("spv_computed", [2, 8, 4], 13, ("x", "s"), extra=[vi("s", T.INT64, [2])])
	save("sp_equal", [2, 8, 4], 13, ("x",))
	EOF
	for m in spv spv_dyn spv_computed sp_equal; do
		gerules eval $m.onnx --chip Ascend910B1 --format json >$m-910b.json &&
		gerules eval $m.onnx --chip Ascend035 -o PRECISION_MODE=must_keep_origin_dtype --format json >$m-035.json || return 1
	done &&
	"$PY" - <<-\EOF
	import json
	def load(f, name):
	    d = json.load(open(f))
	    x = [n for n in d["nodes"] if n["name"] == name][0]
	    return x, {p["slot"]: p["reason"] for p in x["provenance"] if p["won"]}, d["diagnostics"]
	V, S = "PartitionedCall_sp_SplitV_2", "PartitionedCall_sp_Split_1"
	made = "FE\x27s fusion pass ZSplitVFusionPass makes this static SplitV a SplitVD before it judges it (table engine_fused_ops); "
	for chip, store, dt in (("910b", "ascend910b", "float16"), ("035", "ascend035", "float32")):
	    x, why, diags = load("spv-%s.json" % chip, V)
	    assert (x["engine"], x["dtype"], x["execution"]) == ("AIcoreEngine", dt, "static"), x
	    assert why["engine"] == made + "op store aicore_%s takes SplitVD" % store, why["engine"]
	    assert not [d for d in diags if d["code"] in ("GE7001", "GE7003", "GE7004")], diags
	    x, why, diags = load("sp_equal-%s.json" % chip, S)
	    assert (x["engine"], x["dtype"]) == ("AIcoreEngine", dt), x
	    assert why["engine"] == ("FE\x27s fusion pass ZSplitFusionPass makes this static Split a SplitD before it judges it "
	                             "(table engine_fused_ops); op store aicore_%s takes SplitD" % store), why["engine"]
	left = "FE\x27s fusion pass ZSplitVFusionPass leaves this dynamic SplitV as it is (table engine_fused_ops); "
	x, why, diags = load("spv_dyn-910b.json", V)
	assert (x["engine"], x["execution"]) == ("AIcoreEngine", "dynamic"), x
	assert why["engine"] == left + "op store aicore_ascend910b takes SplitV", why["engine"]
	# float32 is in no column of ascend035 SplitV: its rank is known, so that is the reason
	x, why, diags = load("spv_dyn-035.json", V)
	assert x["engine"] == "DNN_VM_AICPU_ASCEND", x
	assert why["engine"].startswith(left + "AI Core op information library, ascend035 (built-in) lists no float32 for input 0 (x) of SplitV"), why["engine"]
	assert [d for d in diags if d["code"] == "GE7001"], diags
	x, why, diags = load("spv_computed-910b.json", V)
	assert x["engine"] == "AIcoreEngine", x
	assert why["engine"] == ("FE\x27s fusion pass ZSplitVFusionPass leaves this SplitV as it is, since input 1 is not a constant "
	                         "(table engine_fused_const_inputs); op store aicore_ascend910b takes SplitV"), why["engine"]
	EOF
'

# ONNX ReduceSum becomes a ReduceSum with its axes as input 1: an int32
# Const, empty ([0]) without axes (reduce_sum_onnx_plugin.cpp), or the
# model's own input. ConstToAttrReduceSumFusion (reduce_sum_fusion_pass.cc
# @83709c7a8) makes it a ReduceSumD when the axes are a non-empty constant
# and the AI Core takes the ReduceSumD, static or dynamic alike, and leaves
# it otherwise (table engine_fused_leaving_ops). On ascend910b ReduceSum is
# on the black list and ReduceSumD on the gray one: under
# allow_mix_precision, after a MatMul that computes in float16, a
# ReduceSumD follows it into float16 where the build before kept the
# ReduceSum in float32 behind a Cast. A node of unknown rank is refused as a
# ReduceSumD (no dynamicRankSupport) and left a ReduceSum, which the AI
# Core takes. The nodes without axes are dynamic: AReduceSumFusionPass,
# which runs first and is not modelled, deletes a static one
# (a_reduce_sum_fusion_pass.cc @83709c7a8 :85, :127-146; rules/engines.rules).
test_expect_success 'ReduceSum: the ReduceSumD of ConstToAttrReduceSumFusion, static or dynamic, else the ReduceSum it leaves' '
	"$PY" - <<-\EOF &&
	import onnx, numpy as np
	from onnx import helper as h, TensorProto as T, numpy_helper as nh
	vi = h.make_tensor_value_info
	def save(name, opset, ins, inits=(), xdims=(2, 8, 4), extra=(), tile=False, **attrs):
	    # tile: a Tile between, whose shape is not inferred: of unknown rank after a dynamic input
	    r = "t" if tile else "r"
	    nodes = [h.make_node("MatMul", ["x", "w"], ["r"], name="mm")] + \
	            ([h.make_node("Tile", ["r", "reps"], ["t"], name="tile")] if tile else []) + \
	            [h.make_node("ReduceSum", [r] + list(ins), ["y"], name="rs", **attrs), h.make_node("Abs", ["y"], ["z"], name="abs")]
	    g = h.make_graph(nodes, "g", [vi("x", T.FLOAT, xdims)] + list(extra), [vi("z", T.FLOAT, None)],
	                     [nh.from_array(np.ones((4, 4), np.float32), "w"), h.make_tensor("reps", T.INT64, [3], [1, 2, 1])] + list(inits))
	    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", opset)]), name + ".onnx")
	ax = h.make_tensor("ax", T.INT64, [1], [1])
	save("rs", 13, ["ax"], [ax])
	save("rs_attr", 11, [], axes=[1])
	save("rs_dyn", 13, ["ax"], [ax], xdims=("n", 8, 4))
	save("rs_rank", 13, ["ax"], [ax], xdims=("n", 8, 4), tile=True)
	save("rs_all", 13, [], xdims=("n", 8, 4))
	save("rs_all11", 11, [], xdims=("n", 8, 4))
	save("rs_computed", 13, ["ax"], extra=[vi("ax", T.INT64, [1])])
	EOF
	for m in rs rs_attr rs_dyn rs_rank rs_all rs_all11 rs_computed; do
		gerules eval $m.onnx --chip Ascend910B1 -o PRECISION_MODE=allow_mix_precision --format json >$m.json || return 1
	done &&
	"$PY" - <<-\EOF
	import json
	def load(f):
	    d = json.load(open(f))
	    x = [n for n in d["nodes"] if n["type"] == "ReduceSum"][0]
	    a = [n for n in d["nodes"] if n["name"] == "abs"][0]
	    return x, a, {p["slot"]: p["reason"] for p in x["provenance"] if p["won"]}, d["diagnostics"]
	made = "FE\x27s fusion pass ConstToAttrReduceSumFusion makes this ReduceSum a ReduceSumD before it judges it (table engine_fused_ops); "
	for m, ex in (("rs", "static"), ("rs_attr", "static"), ("rs_dyn", "dynamic")):
	    x, a, why, diags = load(m + ".json")
	    assert (x["engine"], x["dtype"], x["execution"], x["dtype_detail"]["casts"]) == ("AIcoreEngine", "float16", ex, 0), (m, x)
	    assert why["engine"] == made + "op store aicore_ascend910b takes ReduceSumD", (m, why["engine"])
	    assert why["dtype"].startswith(made + "PRECISION_MODE=allow_mix_precision, gray op"), (m, why["dtype"])
	    assert a["dtype"] == "float16", (m, a)
	    assert not [d for d in diags if d["code"] in ("GE7003", "GE7004")], (m, diags)
	left = "FE\x27s fusion pass ConstToAttrReduceSumFusion leaves this ReduceSum as it is, since "
	for m, because in (("rs_all", "input 1 is an empty constant (table engine_fused_const_inputs); "),
	                   ("rs_all11", "input 1 is an empty constant (table engine_fused_const_inputs); "),
	                   ("rs_computed", "input 1 is not a constant (table engine_fused_const_inputs); "),
	                   ("rs_rank", "the AI Core\x27s op information library does not take a ReduceSumD with this node\x27s dtypes "
	                               "and shapes (table engine_fused_checked_ops); ")):
	    x, a, why, diags = load(m + ".json")
	    assert (x["engine"], x["dtype"]) == ("AIcoreEngine", "float32"), (m, x)
	    assert why["engine"] == left + because + "op store aicore_ascend910b takes ReduceSum", (m, why["engine"])
	    assert why["dtype"].startswith(left + because + "PRECISION_MODE=allow_mix_precision, black op"), (m, why["dtype"])
	    assert not [d for d in diags if d["code"] in ("GE7003", "GE7004")], (m, diags)
	x, a, why, diags = load("rs_all.json")
	assert x["dtype_detail"]["casts"] == 1 and a["dtype"] == "float32", (x, a)
	EOF
'

test_expect_success 'engine_fused_leaving_ops: a type not in engine_fused_ops, one dynamic nodes make another type, or a map, is an error with a caret' '
	check_engines_edit fl "/^table engine_fused_leaving_ops/,/^}/s/^    \"ReduceSum\"$/    \"ReduceSum\", \"ReduceMax\"/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_fused_leaving_ops: \"ReduceMax\" is not an op type of table engine_fused_ops" err &&
	grep "^ *\^" err &&
	check_engines_edit fl2 "/^table engine_fused_leaving_ops/,/^}/s/^    \"ReduceSum\"$/    \"ReduceSum\", \"StridedSliceV2\"/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_fused_leaving_ops: \"StridedSliceV2\" becomes StridedSliceV3 when dynamic" err &&
	check_engines_edit fl3 "/^table engine_fused_leaving_ops/,/^}/s/^    \"ReduceSum\"$/    \"ReduceSum\": 1/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: table engine_fused_leaving_ops must be a set of op types" err
'

# ONNX Hardmax and Einsum become HardMax and Einsum, in no store of CANN
# 8.1.RC1: the build before warned that no engine takes them (GE7003, EZ3003).
# HardMaxPass replaces a HardMax by an ArgMaxD and a OneHotD; EinsumPass
# rewrites the equations it knows into Reshape, Transpose, BatchMatMul and
# ReduceSumD nodes (hard_max_fusion_pass.cc, einsum_fusion_pass.cc
# @83709c7a8; table engine_fused_unmodelled_ops): gerules models neither, so
# the node has no engine and no dtype, with note GE7004 naming the pass. Its
# outputs have no known dtype: under the default force_fp16 the Relu after it
# computes in float16 and no Cast is claimed before it (GE7002); under
# allow_mix_precision the gray Relu follows its producer's dtype, so it has
# none either.
test_expect_success 'HardMax and Einsum: replaced by a fusion pass not modelled, no engine, no dtype, no EZ3003' '
	"$PY" - <<-\EOF &&
	import onnx
	from onnx import helper as h, TensorProto as T
	vi = h.make_tensor_value_info
	g = h.make_graph([h.make_node("Einsum", ["a", "b"], ["e"], name="ein", equation="bij,bjk->bik"),
	                  h.make_node("Hardmax", ["e"], ["m"], name="hm", axis=-1),
	                  h.make_node("Relu", ["m"], ["y"], name="relu")], "g",
	                 [vi("a", T.FLOAT, [2, 3, 4]), vi("b", T.FLOAT, [2, 4, 5])], [vi("y", T.FLOAT, [2, 3, 5])])
	onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), "einhm.onnx")
	EOF
	gerules eval einhm.onnx --chip Ascend910B1 --format json >einhm.json &&
	gerules eval einhm.onnx --chip Ascend910B1 --precision_mode=allow_mix_precision --format json >einhm-mix.json &&
	gerules eval einhm.onnx --chip Ascend910B1 --explain hm >ex.out &&
	test_grep "^  FE.s fusion pass HardMaxPass replaces this HardMax before GE places engines" ex.out &&
	"$PY" - <<-\EOF
	import json
	d = json.load(open("einhm-mix.json"))
	n = {x["name"]: x for x in d["nodes"]}
	assert n["relu"]["dtype"] is None and n["relu"]["engine"] == "AIcoreEngine", n["relu"]
	d = json.load(open("einhm.json"))
	n = {x["name"]: x for x in d["nodes"]}
	for name in ("ein", "hm"):
	    assert n[name]["dtype"] is None and n[name]["engine"] is None, n[name]
	assert n["relu"]["dtype"] == "float16" and n["relu"]["engine"] == "AIcoreEngine", n["relu"]
	assert n["relu"]["dtype_detail"]["casts"] == 0, n["relu"]
	notes = [x for x in d["diagnostics"] if x["code"] == "GE7004"]
	assert len(notes) == 1 and notes[0]["node"] == "ein", notes
	assert notes[0]["message"].endswith("FE\x27s fusion pass EinsumPass replaces this Einsum before GE places engines (table "
	    "engine_fused_unmodelled_ops), and what it makes of the node is not modelled, so gerules decides neither its engine "
	    "nor its dtype"), notes
	assert not [x for x in d["diagnostics"] if x["code"] in ("GE7002", "GE7003", "GE7006", "GE7007")], d["diagnostics"]
	EOF
'

test_expect_success 'engine_fused_unmodelled_ops: a type engine_fused_ops has, or a value that is no string, is an error with a caret' '
	check_engines_edit fun "s/^    \"HardMax\": \"HardMaxPass\",$/    \"HardMax\": 1, \"TopK\": \"TopKFusionPass\",/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_fused_unmodelled_ops\[\"HardMax\"\]: expected the name of the fusion pass" err &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_fused_unmodelled_ops\[\"TopK\"\]: also in table engine_fused_ops" err &&
	grep "^ *\^" err
'

# A node GE's ONNX parser cannot convert stops ATC before engine placement:
# an opset-7 And has no plugin (E13010: ops-math similar_opp_onnx_plugin.cpp
# registers And from opset 8), a Clip-13 without min or max fails its plugin
# (E11010: ops-math conversion/clip_by_value/framework/clip_onnx_plugin.cpp,
# ParseParamsClipV11 "At least 'min' or 'max' must not be None or Empty").
# (Not too starts at opset 8.) The build before added GE7003 (EZ3003) for
# each, the same failure in other words.
test_expect_success 'a node GE cannot parse gets its parser error and no engine-search warning' '
	"$PY" - <<-\EOF &&
	import onnx
	from onnx import helper as h, TensorProto as T
	vi = h.make_tensor_value_info
	g = h.make_graph([h.make_node("And", ["a", "b"], ["y"], name="and7"), h.make_node("Not", ["y"], ["z"], name="not7")], "g",
	                 [vi("a", T.BOOL, [4]), vi("b", T.BOOL, [4])], [vi("z", T.BOOL, [4])])
	onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 7)]), "and7.onnx")
	g = h.make_graph([h.make_node("Clip", ["x"], ["y"], name="clip")], "g", [vi("x", T.FLOAT, [4])], [vi("y", T.FLOAT, [4])])
	onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), "clip13.onnx")
	EOF
	for m in and7 clip13; do
		test_must_fail --exit 1 gerules eval $m.onnx --chip Ascend910B1 --format json >$m.json || return 1
	done &&
	"$PY" - <<-\EOF
	import json
	for f, want in (("and7.json", [("E13010", "and7"), ("E13010", "not7")]), ("clip13.json", [("E11010", "clip")])):
	    d = json.load(open(f))
	    got = sorted((x["code"], x["node"]) for x in d["diagnostics"] if x["severity"] != "note")
	    assert got == want, (f, got)
	EOF
'

test_expect_success 'engine_fused_inputs: a type not in engine_fused_ops, or an index below -1, is an error with a caret' '
	check_engines_edit fin "s/\"CommonLSTM\": \[0, 1, -1, 2, -1, 4, 5, -1\]/\"CommonRNN\": [0], \"CommonLSTM\": [0, 1, -2, 2]/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_fused_inputs\[\"CommonRNN\"\]: not an op type of table engine_fused_ops" err &&
	grep "engines.rules:[0-9]*:[0-9]*: error: engine_fused_inputs\[\"CommonLSTM\"\]: entry 2: expected an input index from 0 to 254, or -1" err &&
	grep "^ *\^" err
'

# table engine_removed_identity_ops (rules/engines.rules): GE's IdentityPass
# deletes an Identity before placement unless it is next to a subgraph's
# boundary (hicann/ge compiler/graph/passes/memory_conflict/identity_pass.cc)
test_expect_success 'Identity: deleted between two Relus, kept after an If and inside its branch' '
	"$PY" - <<-\EOF &&
	import onnx
	from onnx import helper as h, TensorProto as T
	x = h.make_tensor_value_info("x", T.FLOAT, [2, 8])
	y = h.make_tensor_value_info("y", T.FLOAT, [2, 8])
	then_g = h.make_graph([h.make_node("Identity", ["r2"], ["t"], name="then_id")], "then", [],
	                      [h.make_tensor_value_info("t", T.FLOAT, [2, 8])])
	else_g = h.make_graph([h.make_node("Neg", ["r2"], ["e"], name="else_neg")], "else", [],
	                      [h.make_tensor_value_info("e", T.FLOAT, [2, 8])])
	g = h.make_graph([h.make_node("Relu", ["x"], ["r1"], name="r1"),
	                  h.make_node("Identity", ["r1"], ["i1"], name="id_mid"),
	                  h.make_node("Relu", ["i1"], ["r2"], name="r2"),
	                  h.make_node("ReduceSum", ["r2"], ["s"], name="sum", keepdims=0),
	                  h.make_node("Greater", ["s", "zero"], ["c"], name="gt"),
	                  h.make_node("If", ["c"], ["o"], name="branch", then_branch=then_g, else_branch=else_g),
	                  h.make_node("Identity", ["o"], ["y"], name="id_out")],
	                 "g", [x], [y], [h.make_tensor("zero", T.FLOAT, [], [0.0])])
	onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), "ids.onnx")
	EOF
	gerules eval ids.onnx --chip Ascend910B1 --format json --all-nodes >ids.out &&
	"$PY" - ids.out <<-\EOF &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	n = {x["name"].rsplit("/", 1)[-1]: x for x in d["nodes"]}
	mid = n["id_mid"]
	assert mid["engine"] is None and mid["engine_source"] is None, mid
	why = [p["reason"] for p in mid["provenance"] if p["slot"] == "dtype"]
	assert why == ["GE deletes this Identity before it places engines: the model\x27s dtype"], why
	for k in ("id_out", "then_id"):
	    assert n[k]["engine"] is not None, n[k]
	EOF
	gerules eval ids.onnx --chip Ascend910B1 --explain id_mid >ex &&
	test_grep "no subgraph.s input or output is next to it, and it has none of the attributes that keep it (table engine_removed_identity_ops)" ex &&
	gerules atc --model=ids.onnx --framework=5 --soc_version=Ascend910B1 --output=o1 --oo_level=O1 --format json --all-nodes >o1.out &&
	test "$(json_get o1.out "[x[\"engine\"] is not None for x in d[\"nodes\"] if x[\"name\"] == \"id_mid\"]")" = "[true]"
'

# table engine_removed_same_shape_ops (rules/engines.rules): GE's
# NoUseReshapeRemovePass deletes a Reshape whose input 0 and output 0 shapes
# are known, static and equal before FE judges it (hicann/ge @ffdcbc9f7
# compiler/graph/passes/shape_optimize/no_use_reshape_remove_pass.cc:29-86),
# at O3 only (:106). The graphs are those of GE's unit tests:
#   node_to_be_delete_success (no_use_reshape_remove_pass_unittest.cc:112),
#     make_reshape_graph (:73): Reshape_4 ({2,2,2,2} in and out) goes,
#     Reshape_1 ({2,1,2,2} to {2,2,2,2}) stays;
#   test_exception (no_use_reshape_remove_pass_unittest.cc:133): a dim -1,
#     or another rank, keeps it;
#   reshape_same_dims_deleted_no_shape_anchor (no_use_reshape_remove_pass_unittest.cc:171): goes;
#   reshape_dims_not_equal_keep (no_use_reshape_remove_pass_unittest.cc:182): stays.
test_expect_success 'Reshape that changes no shape: deleted (GE unit tests of NoUseReshapeRemovePass); kept at O1' '
	"$PY" - <<-\EOF &&
	import json
	def desc(d, layout="NCHW"): return {"dtype": "DT_FLOAT", "shape": {"dim": d}, "layout": layout}
	def op(name, typ, ins, ind, outd, attrs=None):
	    o = {"name": name, "type": typ, "output_desc": [desc(d) for d in outd]}
	    if ins: o["input"], o["input_desc"] = ins, [desc(d) for d in ind]
	    if attrs: o["attr"] = attrs
	    return o
	data = lambda n, d, i=0: op(n, "Data", [], [], [d], [{"key": "index", "value": {"i": i}}])
	ops = [data("Data4D", [2, 2, 2, 2]),
	       op("ExpandDim", "ExpandDims", ["Data4D:0"], [[2, 2, 2, 2]], [[2, 2, 2, 2]]),
	       op("Reshape_1", "Reshape", ["ExpandDim:0"], [[2, 1, 2, 2]], [[2, 2, 2, 2]]),
	       op("Squeeze", "Squeeze", ["Reshape_1:0"], [[2, 2, 2, 2]], [[2, 1, 2, 2]]),
	       dict(op("const", "Const", [], [], [[2, 2, 2, 2]]), attr=[{"key": "value", "value": {"t": {"desc": desc([4])}}}]),
	       op("Reshape_4", "Reshape", ["Squeeze:0", "const:0"], [[2, 2, 2, 2], [2, 2, 2, 2]], [[2, 2, 2, 2]]),
	       op("sinh", "Sinh", ["Reshape_4:0"], [[2, 2, 2, 2]], [[2, 1, 2, 2]]),
	       data("d1", [-1, 2, 2, 2], 1), op("r_unknown", "Reshape", ["d1:0"], [[-1, 2, 2, 2]], [[-1, 2, 2, 2]]),
	       op("r_rank", "Reshape", ["Data4D:0"], [[2, 2, 2, 2]], [[2, 2, 2]]),
	       op("r_same", "Reshape", ["Data4D:0"], [[2, 2, 2, 2]], [[2, 2, 2, 2]]),
	       op("r_dims", "Reshape", ["Data4D:0"], [[2, 2, 2, 2]], [[4, 2, 2, 2]])]
	json.dump({"name": "m", "graph": [{"name": "g", "op": ops}]}, open("rs.json", "w"))
	EOF
	gerules eval rs.json --chip Ascend910B1 --format json --all-nodes >rs.out; test $? -le 1 &&
	test "$(json_get rs.out "\" \".join(x[\"name\"] for x in d[\"nodes\"] if x[\"type\"] == \"Reshape\" and x[\"engine\"] is None)")" = "Reshape_4 r_same" &&
	gerules eval rs.json --chip Ascend910B1 --explain Reshape_4 >ex; test $? -le 1 &&
	test_grep "GE deletes this Reshape before it places engines: its input and output have the same static shape (table engine_removed_same_shape_ops)" ex &&
	gerules atc --model=rs.json --framework=1 --soc_version=Ascend910B1 --output=o1 --oo_level=O1 --format json --all-nodes >o1.out; test $? -le 1 &&
	test "$(json_get o1.out "len([x for x in d[\"nodes\"] if x[\"type\"] == \"Reshape\" and x[\"engine\"] is None])")" = 0
'

# table engine_removed_inference_ops (rules/engines.rules): GE's DropOutPass
# deletes every Dropout of a graph that is not a training graph before FE
# judges it (hicann/ge @ffdcbc9f7 compiler/graph/passes/standard_optimize/
# remove_unsupported_op/dropout_pass.cc:25-42, added in
# compiler/graph/preprocess/graph_prepare.cc:2498-2503 when train_graph_flag
# is false; graph_manager.cc:2611-2622 sets it from ge.graphRunMode >= 1).
# The Sigmoid after it reads the Relu's output, so under force_fp16 (float16
# both) GE inserts no Cast before it; a training graph keeps the Dropout,
# which no op store of CANN 8.1.RC1 has (EZ3003).
test_expect_success 'Dropout: deleted from an inference graph, its consumer relinked; kept in a training graph' '
	"$PY" "$top_srcdir/t/data/readers/onnx_models.py" . >/dev/null &&
	gerules eval dropout.onnx --chip Ascend910B1 --format json --all-nodes >inf.json &&
	gerules eval dropout.onnx --chip Ascend910B1 --run-mode training --format json --all-nodes >tr.json &&
	gerules eval dropout.onnx --chip Ascend910B1 -o GRAPH_RUN_MODE=1 -o PRECISION_MODE=force_fp16 --format json --all-nodes >tr16.json &&
	"$PY" - <<-\EOF &&
	import json
	def nodes(f):
	    d = json.load(open(f))
	    return d, {x["name"]: x for x in d["nodes"]}
	d, n = nodes("inf.json")
	drop, sig = n["d_drop"], n["d_sig"]
	assert drop["engine"] is None and drop["tiling"] is None and drop["execution"] is None, drop
	why = {p["slot"]: p["reason"] for p in drop["provenance"] if p["won"]}
	assert why["dtype"] == "GE deletes this Dropout before it places engines: the model\x27s dtype", why
	assert not [g for g in d["diagnostics"] if g["code"] == "GE7003"], d["diagnostics"]
	assert sig["dtype"] == "float16" and n["d_relu"]["dtype"] == "float16", (sig, n["d_relu"])
	assert sig["dtype_detail"]["casts"] == 0 and n["d_relu"]["dtype_detail"]["casts"] == 1, (sig, n["d_relu"])
	for f in ("tr.json", "tr16.json"):
	    d, n = nodes(f)
	    assert n["d_drop"]["engine"] is None, n["d_drop"]
	    assert [g for g in d["diagnostics"] if g["code"] == "GE7003" and g.get("node") == "d_drop"], d["diagnostics"]
	_, n = nodes("tr16.json")
	assert n["d_sig"]["dtype_detail"]["casts"] == 1, n["d_sig"]
	EOF
	gerules eval dropout.onnx --chip Ascend910B1 --explain d_drop >ex &&
	test_grep "GE deletes this Dropout before it places engines: the graph is not a training graph (table engine_removed_inference_ops)" ex &&
	gerules eval dropout.onnx --chip Ascend910B1 --explain d_sig >ex2 &&
	test_grep "dtype = float16" ex2 &&
	! grep "GE inserts a Cast" ex2
'

test_expect_success 'engine_removed_inference_kept_by: an unknown option is an error with a caret' '
	check_engines_edit rik "s/\"GRAPH_RUN_MODE\": \[\"1\"\]/\"GRAPH_RUN_MOD\": [\"1\"]/" &&
	grep "engines.rules:[0-9]*:[0-9]*: error: .*GRAPH_RUN_MOD" err &&
	grep "GRAPH_RUN_MODE" err &&
	grep "^ *\^" err
'

test_done
