#!/bin/sh
# t1143-dynamic-format.sh: the hand-kept dtype lists of dynamicFormat ops
# (rules/oplib/dynamic_format.rules). Every dtypes block names an op of a
# generated store that is marked dynamic_format and has no lists of its own,
# is bound to it (import-oplib --dump shows its citation), cites the impl's
# op_select_format in its from string and carries a comment naming the
# platform file or Python it was read from; the check itself can fail. A site
# that regenerates the op library as a layer (import-oplib --layer) keeps the
# lists: its stores replace the base's and the blocks bind to them.

test_description='hand-kept dtype lists of dynamicFormat ops: each names a generated op, cites its source, and composes with a regenerated layer'
. "${top_srcdir:-..}/t/test-lib.sh"

R=$GERULES_RULES
F="$R/oplib/dynamic_format.rules"
DATA="$top_srcdir/t/data/cann-8.1.RC1-opinfo"

test_skip_unless PYTHON3

cat >blocks.py <<-\EOF
import re, sys
# every dtypes block of FILE: store, op, from string, the comment lines right above it
# (printed once per store and op: an op may have several conditional blocks)
rules = sys.argv[1]
lines = open(sys.argv[2]).read().split("\n")
bad = 0
for i, l in enumerate(lines):
    # a block, or a conditional block (its when line follows)
    m = re.match(r'^dtypes (\S+(?:, \S+)*) "([^"]+)" from "([^"]+)"(?: \{| when .* \{)?$', l)
    if not m:
        continue
    stores, op, cite = m.groups()
    com, j = [], i - 1
    while j >= 0 and lines[j].startswith("#"):
        com.insert(0, lines[j]); j -= 1
    for store in stores.split(", "):
        why = []
        if not cite.startswith("CANN 8.1.RC1 opp/built-in/op_impl/ai_core/tbe/impl/") or "op_select_format" not in cite:
            why.append("from does not cite the impl's op_select_format")
        if not any(".ini" in c or ".py" in c for c in com):
            why.append("no comment naming the platform ini or Python it was read from")
        fam = store[len("aicore_"):]
        gen = open("%s/oplib/%s.rules" % (rules, store)).read()
        g = re.search(r'^    op "%s" ([^{]*)\{\n((?:        .*\n)*)    \}' % re.escape(op), gen, re.M)
        if g is None:
            why.append("no op %s in the generated %s.rules" % (op, store))
        else:
            if "dynamic_format" not in g.group(1).split():
                why.append("op %s of %s is not dynamic_format" % (op, store))
            if '" format "' in g.group(2) or re.search(r'(required|optional|dynamic) "', g.group(2)):
                why.append("op %s of %s has lists of its own" % (op, store))
        print("%s\t%s" % (store, op))
        for w in why:
            bad += 1
            sys.stderr.write("%s:%d: %s %s: %s\n" % (sys.argv[2], i + 1, store, op, w))
sys.exit(1 if bad else 0)
EOF

test_expect_success 'every block names a generated dynamic_format op without lists, cites op_select_format and has a source comment' '
	python3 blocks.py "$R" "$F" >blocks 2>err &&
	test_must_be_empty err &&
	test $(wc -l <blocks) -ge 30 &&
	test $(grep -c "	LayerNorm\$" blocks) -eq 24 &&
	test $(grep -c "	PadV3\$" blocks) -eq 10 &&
	test_grep "^aicore_ascend910b	MatMulV2\$" blocks &&
	test_grep "^aicore_ascend910b	Conv2D\$" blocks &&
	test_grep "^aicore_ascend910b	Add\$" blocks
'

test_expect_success 'the check can fail: a block without its comment, an op with lists' '
	sed "/^# ascend910b: Short_SoC_version Ascend910B: f322bf16f/,/^dtypes/{/^#/d}" "$F" >nocomment.rules &&
	test_must_fail python3 blocks.py "$R" nocomment.rules >/dev/null 2>err &&
	test_grep "aicore_ascend910b Add: no comment naming" err &&
	printf "# Exp: impl/dynamic/exp.py\ndtypes aicore_ascend910b \"Exp\" from \"CANN 8.1.RC1 opp/built-in/op_impl/ai_core/tbe/impl/dynamic/exp.py op_select_format\" {\n}\n" >exp.rules &&
	test_must_fail python3 blocks.py "$R" exp.rules >/dev/null 2>err &&
	test_grep "op Exp of aicore_ascend910b is not dynamic_format" err
'

test_expect_success 'every block is bound: import-oplib --dump gives its citation for exactly these ops' '
	gerules --rules "$R" import-oplib --dump >dump &&
	awk -F"\t" "\$10 != \"\" { print \$1 \"\t\" \$2 }" dump | LC_ALL=C sort -u >bound &&
	test_grep "^aicore_ascend310p	LayerNorm	.*	when: CANN 8.1.RC1 opp/built-in/op_impl/ai_core/tbe/impl/dynamic/layer_norm.py:236-301 " dump &&
	LC_ALL=C sort -u blocks >want &&
	test_cmp want bound
'

cat >mm.json <<-\EOF
{"name": "m", "graph": [{"name": "main", "op": [
 {"name": "x0", "type": "Data", "attr": [{"key": "index", "value": {"i": 0}}], "output_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [16, 16]}, "layout": "ND"}]},
 {"name": "x1", "type": "Data", "attr": [{"key": "index", "value": {"i": 1}}], "output_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [16, 16]}, "layout": "ND"}]},
 {"name": "n", "type": "MatMulV2", "input": ["x0:0", "x1:0"], "input_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [16, 16]}, "layout": "ND"}, {"dtype": "DT_FLOAT", "shape": {"dim": [16, 16]}, "layout": "ND"}], "output_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [16, 16]}, "layout": "ND"}]},
 {"name": "out", "type": "NetOutput", "input": ["n:0"], "input_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [16, 16]}, "layout": "ND"}]}]}]}
EOF

test_expect_success 'a site regenerates the op library as a layer: it checks clean and MatMulV2 keeps its lists' '
	sh "$DATA/tree.sh" c81 &&
	mkdir site &&
	gerules --rules "$R" import-oplib --layer --cann-root c81 --output site --release 8.1.RC1 2>/dev/null &&
	echo "bundle \"site-oplib\" { version \"1.0.0\"; extends \"ge-base\"; }" >site/bundle.rules &&
	test_grep "^override oplib aicore_ascend910b " site/aicore_ascend910b.rules &&
	gerules --rules "$R" --rules site check >out 2>err &&
	! grep "dtypes block" err &&
	gerules --rules "$R" --rules site eval mm.json --chip Ascend910B1 -o PRECISION_MODE=must_keep_origin_dtype --all-nodes >eval &&
	test_grep "^n  *MatMulV2 .* float32 (precision mode)  *AIcoreEngine" eval &&
	! grep GE7004 eval
'

# A layer with a conditional block after an unconditional one for the same op
# and store: the conditional one can never be reached, and check says so at
# its condition, with the caret under it (check_oplib.c bind_one).
test_expect_success 'a conditional block after an unconditional one: a located error with a caret' '
	mkdir unreach &&
	cat >unreach/bundle.rules <<-\EOT &&
	bundle "unreach" { version "1.0.0"; extends "ge-base"; }
	EOT
	cat >unreach/cent.rules <<-\EOT &&
	# Centralization: two blocks, the unconditional one first
	dtypes aicore_ascend910b "Centralization" from "CANN 8.1.RC1 opp/built-in/op_impl/ai_core/tbe/impl/dynamic/centralization.py op_select_format" {
	    input "x" "float16"; output "y" "float16";
	}
	dtypes aicore_ascend910b "Centralization" from "CANN 8.1.RC1 opp/built-in/op_impl/ai_core/tbe/impl/dynamic/centralization.py op_select_format"
	    when node.attr["mode"] == "constant" {
	    input "x" "float32"; output "y" "float32";
	}
	EOT
	test_must_fail --exit 2 gerules --rules "$R" --rules unreach check >out 2>err &&
	test_grep "cent.rules:6:10: error: this conditional dtypes block is never used: the dtypes block of op .Centralization. of store .aicore_ascend910b. at .*cent.rules:2 has no condition" err &&
	test_grep "^ *when node.attr..mode.. == .constant. {\$" err &&
	test_grep "^          ^\$" err
'

test_expect_success 'a dtypes condition is a boolean over the node, and reads no judge field: located' '
	mkdir badcond &&
	cat >badcond/bundle.rules <<-\EOT &&
	bundle "badcond" { version "1.0.0"; extends "ge-base"; }
	EOT
	cat >badcond/cent.rules <<-\EOT &&
	dtypes aicore_ascend910b "Centralization" from "CANN 8.1.RC1 opp/built-in/op_impl/ai_core/tbe/impl/dynamic/centralization.py op_select_format"
	    when node.input[0].rank + node.judge_dtype {
	    input "x" "float16"; output "y" "float16";
	}
	EOT
	test_must_fail --exit 2 gerules --rules "$R" --rules badcond check >out 2>err &&
	test_grep "cent.rules:2:10: error: the condition of a dtypes block must be a bool, not an int" err &&
	test_grep "cent.rules:2:36: error: a dtypes block.s condition is tested while the judge decides: it cannot read .judge_dtype." err
'

# SoftmaxV2 on ascend310p, a whitelisted shape: float16 alone when the node
# reduces over its last axis alone (softmax_v2.py :185-186, :247-258), else
# float16 and float32 (:271-282). A Softmax read from ONNX keeps ONNX's axis;
# GE's plugin makes axes [axis], by default [1] at opsets 8-12 and [-1] at 13
# and later (ops-nn softmax_onnx_plugin.cpp :63, :71). Under
# must_keep_origin_dtype a float32 x stays on AI Core only when the list has
# float32; otherwise the AI CPU takes the node. Models built by python3-onnx.
test_expect_success ONNX 'SoftmaxV2 on ascend310p, whitelisted shape: ONNX axis and opset decide the list' '
	cat >softmax.py <<-\EOF &&
	import sys
	import onnx
	from onnx import helper, TensorProto
	# NAME OPSET AXIS(or none) DIMS
	name, opset, axis, dims = sys.argv[1], int(sys.argv[2]), sys.argv[3], [int(d) for d in sys.argv[4].split(",")]
	attrs = {} if axis == "none" else {"axis": int(axis)}
	node = helper.make_node("Softmax", ["x"], ["y"], name="sm", **attrs)
	graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, dims)],
	                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, dims)])
	model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
	onnx.checker.check_model(model)
	onnx.save(model, name)
	EOF
	cat >cases <<-\EOF &&
	13 none 96,50,50 DNN_VM_AICPU_ASCEND
	13 -1 96,50,50 DNN_VM_AICPU_ASCEND
	13 2 96,50,50 DNN_VM_AICPU_ASCEND
	13 1 96,50,50 AIcoreEngine
	11 none 96,50,50 AIcoreEngine
	11 2 96,50,50 DNN_VM_AICPU_ASCEND
	11 -1 1024,12,49,49 DNN_VM_AICPU_ASCEND
	11 2 1024,12,49,49 AIcoreEngine
	13 none 8,50,50 AIcoreEngine
	EOF
	while read opset axis dims engine; do
		"$PYTHON3" softmax.py m.onnx $opset $axis $dims &&
		gerules --rules "$R" eval m.onnx --chip Ascend310P3 -o PRECISION_MODE=must_keep_origin_dtype --format json >rep.json &&
		! grep GE7004 rep.json &&
		echo "$opset $axis $dims $(json_get rep.json "[n[\"engine\"] for n in d[\"nodes\"] if n[\"name\"] == \"sm\"][0]")" || return 1
	done <cases >got &&
	test_cmp cases got
'

test_done
