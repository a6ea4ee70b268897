#!/bin/sh
# t1266-report-tail-cache.sh: the JSON report's tail cache (src/report/report.c,
# tail_key_of) shares the bytes after a node's name between nodes of one key.
# Each test has two nodes of one op type whose decisions are the same and
# whose objects differ in one thing only: a beaten candidate, a reason that
# names the producer of an input, the split of the tensors into inputs and
# outputs. Merged under one key, the second node would print the first
# node's text; each test asserts that both nodes print their own.
test_description='JSON report: nodes that differ only in a beaten candidate, a per-node reason or their input and output counts keep their own provenance'
. "${top_srcdir:-..}/t/test-lib.sh"

PY=${PYTHON3:-python3}

# The graph: x_attr and x_plain are static Data nodes, x_attr with
# _is_unknown_shape; fia_a and fia_b read their actual_seq_lengths (input 5)
# from two Data nodes; relu_in2 has 2 inputs and 1 output, relu_out2 1 and 2.
test_expect_success 'setup: the graph' '
	"$PY" - <<-\EOF
	import json
	def d(dt, dims): return {"dtype": dt, "shape": {"dim": dims}, "layout": "ND"}
	H = d("DT_FLOAT16", [1, 128, 1024]); I = d("DT_INT64", [1]); S = d("DT_FLOAT16", [8, 16])
	def data(name, i, t, extra=()):
	    return {"name": name, "type": "Data", "attr": [{"key": "index", "value": {"i": i}}] + list(extra), "output_desc": [t]}
	ops = [
	    data("x_attr", 0, S, [{"key": "_is_unknown_shape", "value": {"b": True}}]),
	    data("x_plain", 1, S),
	    data("q", 2, H), data("seq_a", 3, I), data("seq_b", 4, I),
	    {"name": "fia_a", "type": "FusedInferAttentionScore", "input": ["q:0", "q:0", "q:0", "", "", "seq_a:0"],
	     "input_desc": [H, H, H, I], "output_desc": [H]},
	    {"name": "fia_b", "type": "FusedInferAttentionScore", "input": ["q:0", "q:0", "q:0", "", "", "seq_b:0"],
	     "input_desc": [H, H, H, I], "output_desc": [H]},
	    {"name": "relu_in2", "type": "Relu", "input": ["x_plain:0", "x_attr:0"], "input_desc": [S, S], "output_desc": [S]},
	    {"name": "relu_out2", "type": "Relu", "input": ["x_plain:0"], "input_desc": [S], "output_desc": [S, S]},
	    {"name": "out", "type": "NetOutput", "input": ["fia_a:0", "fia_b:0", "relu_in2:0", "relu_out2:0", "relu_out2:1"],
	     "input_desc": [H, H, S, S, S]},
	]
	json.dump({"name": "tail_cache", "graph": [{"name": "g", "op": ops}]}, open("g.json", "w"), indent=1)
	EOF
	gerules eval g.json --chip Ascend910B1 -o TILING_SCHEDULE_OPTIMIZE=1 --format json --all-nodes --output r.json
'

# hicann/ge @ffdcbc9f7 compiler/graph/partition/dynamic_shape_partition.cc:
# InitClusters :627-672 keeps a Data node out of every cluster (it wins
# execution_outside, "static", on both nodes); JudgeUnknowShapeWithAttr
# :957-970 makes a node with _is_unknown_shape unknown, so x_attr alone has
# the beaten execution_seed candidate (rules/partition.rules).
test_expect_success 'a beaten candidate: only the node that has it prints it' '
	"$PY" - <<-\EOF
	import json
	n = {x["name"]: x for x in json.load(open("r.json"))["nodes"]}
	a, p = n["x_attr"], n["x_plain"]
	for x in (a, p):
	    assert x["type"] == "Data" and x["execution"] == "static" and x["execution_source"] == "execution_outside", x
	lost = [e for e in a["provenance"] if not e["won"]]
	assert len(lost) == 1, a
	e = lost[0]
	assert e["slot"] == "execution" and e["source"] == "execution_seed" and e["value"] == "dynamic", e
	assert "_is_unknown_shape" in e["reason"] and "dynamic_shape_partition.cc:957-970" in e["reason"], e
	assert all(x["won"] for x in p["provenance"]), p
	assert [x for x in a["provenance"] if x["won"]] == p["provenance"], (a, p)
	EOF
'

# dynamic_shape_partition.cc:384-428 (MarkDynamicTilingDependNoe: a
# value-dependent input that is not constant) and :771-788 (a static
# cluster below the limit runs in the dynamic graph); FE sinks tiling only in
# a static owner graph (compiler/engines/nn_engine/utils/common/
# fe_gentask_utils.cc:39-49), so both tile on the host, and each reason
# names its own producer.
test_expect_success 'a reason that names the producer: each node names its own' '
	"$PY" - <<-\EOF
	import json
	n = {x["name"]: x for x in json.load(open("r.json"))["nodes"]}
	for name, prod in (("fia_a", "seq_a"), ("fia_b", "seq_b")):
	    x = n[name]
	    assert x["tiling"] == "host" and x["tiling_source"] == "tiling_dynamic_model", x
	    e = [e for e in x["provenance"] if e["slot"] == "tiling"]
	    assert len(e) == 1 and e[0]["won"], x
	    assert "value-dependent input 5 of FusedInferAttentionScore is produced on the device by " + repr(prod) in e[0]["reason"], e
	EOF
'

# The counts are the graph s own input_desc and output_desc; the dtypes are
# float16 throughout (PRECISION_MODE force_fp16, the default of an
# inference build: rules/precision.rules).
test_expect_success 'dtype_detail: each node prints its own inputs and outputs' '
	"$PY" - <<-\EOF
	import json
	n = {x["name"]: x for x in json.load(open("r.json"))["nodes"]}
	f = ["float16", "float16"]
	a, b = n["relu_in2"]["dtype_detail"], n["relu_out2"]["dtype_detail"]
	assert a["inputs"] == [f, f] and a["outputs"] == [f], a
	assert b["inputs"] == [f] and b["outputs"] == [f, f], b
	EOF
'

test_done
