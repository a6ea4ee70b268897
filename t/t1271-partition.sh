#!/bin/sh
# t1271-partition.sh: the `partition` statement of the rule language
# (doc/rule-language.md 7.1) and its clustering (src/eval/partition.c): the
# checker's located errors, a layer overriding the shipped partition, and the
# clustering on a deep and a wide graph. What the shipped partition decides
# on GE graphs is pinned by t/golden/120-128 (each citing
# hicann/ge compiler/graph/partition/dynamic_shape_partition.cc).

test_description='partition: checker errors, layers, deep and wide graphs'
. "${top_srcdir:-..}/t/test-lib.sh"

MINI="$top_srcdir/t/data/mini.rules"
EX="$top_srcdir/examples"
R=$GERULES_RULES
PY=${PYTHON3:-python3}

# broken NAME: the mini rule set plus the text on stdin, checked; stderr in NAME.err
broken () {
	{ cat "$MINI"; cat; } >"$1.rules" &&
	test_must_fail --exit 2 "$GERULES" check "$1.rules" >out 2>"$1.err" &&
	test_must_be_empty out
}

test_expect_success 'a partition without seeds is an error at its name' '
	broken noseed <<-\EOF &&
	partition p {
	    neutral when node.type == "Data";
	}
	EOF
	test_grep "^noseed.rules:[0-9]*:11: error: partition p has no seed" noseed.err
'

test_expect_success 'two seeds of one name, a limit that depends on the node' '
	broken twoseeds <<-\EOF &&
	partition p {
	    seed a when node.dynamic;
	    seed a when node.static;
	    limit node.inputs;
	}
	EOF
	test_grep "error: partition p has two seeds named .a. (first at twoseeds.rules:" twoseeds.err &&
	test_grep "error: .node. is only available in sources" twoseeds.err
'

test_expect_success 'a seed cannot read a partition; unknown partitions and fields are located' '
	broken selfref <<-\EOF &&
	partition p {
	    seed a when partition(p).dynamic;
	}
	slot s { values "x"; }
	source t for s when partition(q).dynamic value "x";
	source u for s when partition(p).colour == 1 value "x";
	cascade s: t > u;
	EOF
	test_grep "error: a partition.s seeds, neutral conditions and limits cannot read a partition.s outcome" selfref.err &&
	test_grep "selfref.rules:[0-9]*:[0-9]*: error: unknown partition .q." selfref.err &&
	test_grep "error: a partition has no field .colour." selfref.err
'

test_expect_success 'cause and seed are compared only with words they can have' '
	broken words <<-\EOF &&
	partition p {
	    seed a when node.dynamic;
	}
	slot s { values "x"; }
	source t for s when partition(p).cause == "merged" value "x";
	source u for s when partition(p).seed == "b" value "x";
	cascade s: t > u;
	EOF
	test_grep "error: partition(p).cause is .neutral., .seed., .* never .merged." words.err &&
	test_grep "error: partition p has no seed .b." words.err
'

test_expect_success 'subgraph, weak seed, group and threshold clauses: located errors' '
	broken clauses <<-\EOF &&
	partition p {
	    weak seed w when node.dynamic;
	    subgraph seed o;
	    subgraph seed o2;
	    subgraph colour when node.dynamic;
	    threshold node.inputs;
	}
	EOF
	test_grep "error: partition p has two .subgraph seed. lines" clauses.err &&
	test_grep "clauses.rules:[0-9]*:14: error: .subgraph colour when .... is not a partition clause" clauses.err &&
	test_grep "error: .node. is only available in sources" clauses.err &&
	test_grep "error: partition p has no seed: nothing could ever be on its dynamic side" clauses.err &&
	! test_grep "two seeds named" clauses.err
'

test_expect_success 'partition() outside a node scope is an error' '
	broken scope <<-\EOF &&
	partition p {
	    seed a when node.dynamic;
	}
	rule r when partition(p).dynamic then note GR9001 "x";
	EOF
	test_grep "error: .partition(p). is a node.s outcome" scope.err
'

test_expect_success 'a layer overrides the shipped partition: limit 2 keeps the 3-node island static' '
	mkdir -p site &&
	cat >site/site.rules <<-\EOF &&
	bundle "site" { version "1.0.0"; extends "ge-base"; }
	override partition dynamic_shape {
	    seed unknown_shape when node.dynamic;
	    seed unknown_attr when node.attr["_force_unknown_shape"] == true;
	    seed tiling_cannot_sink when node.type == "NoSuchOp";
	    seed forced_hccl when node.type == "NoSuchOp";
	    seed no_addr_refresh when node.type == "NoSuchOp";
	    subgraph seed unknown_subgraph;
	    weak seed no_tiling_reverted when node.type == "NoSuchOp";
	    limit 2;
	}
	EOF
	"$GERULES" --rules "$R" --rules site eval "$EX/llm_decoder_partition.json" --chip Ascend910B1 \
		-o TILING_SCHEDULE_OPTIMIZE=1 --all-nodes >out &&
	test_grep "^post/scale  *Mul .* static (static cluster)" out &&
	test_grep "^post/ifa  *IncreFlashAttention .* dynamic (dynamic node)" out
'

# A chain of 200000 static nodes with one dynamic node at each end, and a
# fan of 2000 static nodes between them: the topological passes are
# iterative (no recursion depth), and every node gets an outcome.
test_expect_success 'a deep chain and a wide fan: path absorption through 200000 nodes' '
	"$PY" - >deep.json <<-\EOF &&
	import json
	ops = [{"name": "x", "type": "Data", "output_desc": [{"shape": {"dim": [-1]}}]},
	       {"name": "d0", "type": "Relu", "input": ["x:0"], "output_desc": [{"shape": {"dim": [-1]}}]}]
	prev = "d0"
	for i in range(200000):
	    ops.append({"name": "c%d" % i, "type": "Cast", "input": [prev + ":0"], "output_desc": [{"shape": {"dim": [4]}}]})
	    prev = "c%d" % i
	fan = ["f%d" % i for i in range(2000)]
	for f in fan:
	    ops.append({"name": f, "type": "Cast", "input": ["d0:0"], "output_desc": [{"shape": {"dim": [4]}}]})
	ops.append({"name": "d1", "type": "Add", "input": ["d0:0", prev + ":0"] + [f + ":0" for f in fan],
	            "output_desc": [{"shape": {"dim": [-1]}}]})
	print(json.dumps({"name": "deep", "graph": [{"name": "deep", "op": ops}]}))
	EOF
	"$GERULES" eval deep.json --chip Ascend910B1 --format json --no-provenance >deep.out &&
	"$PY" - <<-\EOF
	import json
	n = {x["name"]: x for x in json.load(open("deep.out"))["nodes"]}
	assert len(n) == 202003, len(n)
	for k in ("c0", "c199999", "f0", "f1999"):
	    assert n[k]["execution"] == "dynamic" and n[k]["execution_source"] == "execution_path", (k, n[k])
	assert n["d1"]["execution_source"] == "execution_seed", n["d1"]
	EOF
'

test_done
