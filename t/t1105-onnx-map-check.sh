#!/bin/sh
# t1105-onnx-map-check.sh: what `gerules check` refuses in the ONNX op
# mapping statements (`onnx "domain::op_type" { opset ... [when ...] becomes
# ...; }`, doc/rule-language.md 6.1, src/lang/check_onnx.c): each malformed
# construct is one error at its exact token, with the source line and caret,
# and exit 2. Also: a layer overrides a shipped mapping, and the old form of
# the mapping (a table of strings) is refused rather than silently ignored.

test_description='onnx mapping: located checker errors'
. "${top_srcdir:-..}/t/test-lib.sh"

MINI="$top_srcdir/t/data/mini.rules"
PY=${PYTHON3:-python3}
L=$(($(wc -l <"$MINI") + 1))    # the line the statement under test starts on

# bad NAME EXPECTED: the mini rule set plus the statement on stdin, in
# NAME.rules; `gerules check` gives exactly EXPECTED (a located error, its
# source line and caret) and "1 error", exit 2
bad () {
	{ cat "$MINI"; cat; } >"$1.rules" &&
	input_error "$1.rules:$2\ngerules check: 1 error" check "$1.rules"
}

test_expect_success 'a well-formed mapping with every kind of condition checks clean' '
	{ cat "$MINI" && cat <<-\EOF; } >good.rules &&
	onnx "ai.onnx::Conv" {
	    opset 1, 8..12 when len(node.attr["kernel_shape"]) == 1 and node.inputs >= 2
	        becomes Unsqueeze "/unsqueeze" (0), Conv2D(@0, 1, 2), Squeeze "/squeeze" (@1:0);
	    opset 8..18 when node.attr["kernel_shape"] == null and node.attr["group"] != null becomes Conv2D;
	    opset 8..18 when node.attr["auto_pad"] == "VALID" and node.attr["group"] != 1 becomes Conv2D;
	    opset 8..18 becomes Conv3D();
	}
	EOF
	gerules check good.rules >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'a key that is not domain::op_type' '
	bad key "$L:6: error: onnx \"Relu\": the key is \"domain::op_type\" (\"ai.onnx::Relu\")" <<-\EOF
	onnx "Relu" { opset 8..18 becomes Relu; }
	EOF
'

test_expect_success 'a key mapped twice' '
	bad dup "$((L + 1)):6: error: duplicate definition of onnx mapping '"'"'ai.onnx::Relu'"'"' (first defined at dup.rules:$L)" <<-\EOF
	onnx "ai.onnx::Relu" { opset 8..18 becomes Relu; }
	onnx "ai.onnx::Relu" { opset 19 becomes Relu; }
	EOF
'

test_expect_success 'a mapping without rows' '
	bad norow "$L:6: error: onnx \"ai.onnx::Relu\" has no row (opset ... becomes ...;)" <<-\EOF
	onnx "ai.onnx::Relu" { }
	EOF
'

test_expect_success 'an empty opset range, at its end' '
	bad range "$L:34: error: empty opset range 18..8" <<-\EOF
	onnx "ai.onnx::Relu" { opset 18..8 becomes Relu; }
	EOF
'

test_expect_success 'opset 0' '
	bad zero "$L:30: error: opset 0: an opset version is 1 or more" <<-\EOF
	onnx "ai.onnx::Relu" { opset 0..8 becomes Relu; }
	EOF
'

test_expect_success 'an opset listed twice in one row, at the second listing' '
	bad twice "$L:37: error: opset 10 is listed twice in this row" <<-\EOF
	onnx "ai.onnx::Relu" { opset 8..12, 10..18 becomes Relu; }
	EOF
'

test_expect_success 'an unknown condition kind' '
	bad kind "$L:42: error: an onnx mapping condition cannot test node.type: it tests node.inputs, node.outputs, node.attr[\"A\"] and len(node.attr[\"A\"])" <<-\EOF &&
	onnx "ai.onnx::Relu" { opset 8 when node.type == "Relu" becomes Relu; }
	EOF
	bad kind2 "$L:37: error: unknown condition kind in an onnx mapping row: expected node.inputs OP N, node.outputs OP N, node.inputs[N] == null or != null, node.attr[\"A\"] == null or != null, node.attr[\"A\"] == VALUE or != VALUE, len(node.attr[\"A\"]) OP N, prod(node.attr[\"A\"]) OP N, max(node.attr[\"A\"]) OP N, chip has CAP, not chip has CAP" <<-\EOF
	onnx "ai.onnx::Relu" { opset 8 when node.dynamic becomes Relu; }
	EOF
'

test_expect_success 'prod(...) and max(...) take one attribute and compare with an integer' '
	{ cat "$MINI" && cat <<-\EOF; } >good2.rules &&
	onnx "ai.onnx::MaxPool" { opset 8 when prod(node.attr["k"]) > 255 and max(node.attr["s"]) >= 64 becomes MaxPool; }
	EOF
	gerules check good2.rules >out 2>err &&
	test_must_be_empty err &&
	bad prod2 "$L:40: error: prod(...) in an onnx mapping row takes one int list attribute: prod(node.attr[\"NAME\"])" <<-\EOF &&
	onnx "ai.onnx::MaxPool" { opset 8 when prod(node.attr["k"], 2) > 255 becomes MaxPool; }
	EOF
	bad maxin "$L:40: error: max(...) in an onnx mapping row takes one int list attribute: max(node.attr[\"NAME\"])" <<-\EOF &&
	onnx "ai.onnx::MaxPool" { opset 8 when max(node.inputs) > 63 becomes MaxPool; }
	EOF
	bad maxstr "$L:62: error: max(...) compares with an integer" <<-\EOF
	onnx "ai.onnx::MaxPool" { opset 8 when max(node.attr["s"]) > "x" becomes MaxPool; }
	EOF
'

test_expect_success 'chip has CAP and not chip has CAP: a declared capability; not only before chip has' '
	{ cat "$MINI" && cat <<-\EOF; } >good3.rules &&
	onnx "ai.onnx::MaxPool" {
	    opset 8 when not chip has hf32 and prod(node.attr["k"]) > 255 becomes TransposeD "_in" @1 (0), MaxPool "_m" @2 (@0) in 3;
	    opset 8 when chip has bf16 becomes MaxPoolV3;
	}
	EOF
	gerules check good3.rules >out 2>err &&
	test_must_be_empty err &&
	bad capunk "$L:53: error: unknown capability '"'"'hf23'"'"'; did you mean '"'"'hf32'"'"'?" <<-\EOF &&
	onnx "ai.onnx::MaxPool" { opset 8 when not chip has hf23 becomes MaxPoolV3; }
	EOF
	bad notother "$L:37: error: an onnx mapping condition is tests joined by '"'"'and'"'"' ('"'"'not'"'"' is not allowed: write one row per case)" <<-\EOF
	onnx "ai.onnx::Relu" { opset 8 when not node.inputs == 1 becomes Relu; }
	EOF
'

test_expect_success 'a whole sub-node name (=NAME) only in a renamed plugin subgraph, never empty' '
	bad eqempty "$L:47: error: \"=\" needs the sub-node'"'"'s whole name after it (\"=begin\")" <<-\EOF &&
	onnx "ai.onnx::Slice" { opset 8 becomes Const "=" @2 (), StridedSliceV2 "_s" @1 (0, @0) in 3; }
	EOF
	bad eqplain "$L:47: error: \"=begin\": a whole sub-node name (=NAME) is for a plugin subgraph of several ops, which GE renames PartitionedCall_NAME_<counter>" <<-\EOF
	onnx "ai.onnx::Slice" { opset 8 becomes Const "=begin", StridedSliceV2 "_s" (0, @0); }
	EOF
'

test_expect_success 'a plugin subgraph row (in N): places, sub-node names, the node count' '
	bad place "$L:68: error: place @4 is outside the row'"'"'s subgraph of 4 nodes (@0 to @3)" <<-\EOF &&
	onnx "ai.onnx::Gemm" { opset 8 becomes MatMulV2 "_m" @3, Add "_a" @4 in 4; }
	EOF
	bad place2 "$L:68: error: place @1 is already the IR op MatMulV2'"'"'s in this row" <<-\EOF &&
	onnx "ai.onnx::Gemm" { opset 8 becomes MatMulV2 "_m" @1, Add "_a" @1 in 4; }
	EOF
	bad subname "$L:58: error: Add needs GE'"'"'s sub-node name and place (Add \"_NAME\" @P): with more than one node besides Data, GE renames every node of the plugin'"'"'s subgraph PartitionedCall_<node><_NAME>_<counter>" <<-\EOF &&
	onnx "ai.onnx::Gemm" { opset 8 becomes MatMulV2 "_m" @1, Add "_a" in 4; }
	EOF
	bad count "$L:52: error: in 0: a plugin subgraph of 1 IR ops has 1 to 1000 nodes (Data included)" <<-\EOF &&
	onnx "ai.onnx::Gemm" { opset 8 becomes MatMulV2 in 0; }
	EOF
	bad noin "$L:55: error: @1 places an op in GE'"'"'s plugin subgraph: the row must end with \`in N\` (the subgraph'"'"'s node count)" <<-\EOF &&
	onnx "ai.onnx::Gemm" { opset 8 becomes MatMulV2 "_m" @1; }
	EOF
	bad innull "$L:53: error: node.inputs[1] compares with == null (input empty or absent) or != null (named)" <<-\EOF &&
	onnx "ai.onnx::Clip" { opset 11 when node.inputs[1] == 2 becomes Minimum; }
	EOF
	{ cat "$MINI" && cat <<-\EOF; } >sub.rules &&
	onnx "ai.onnx::Clip" { opset 11 when node.inputs[1] == null and node.outputs == 1 becomes Minimum "_Minimum" in 2; }
	EOF
	gerules check sub.rules >out 2>err &&
	test_must_be_empty err
'

test_expect_success '"or" in a condition, at the operator' '
	bad or "$L:54: error: an onnx mapping condition is tests joined by '"'"'and'"'"' ('"'"'or'"'"' is not allowed: write one row per case)" <<-\EOF
	onnx "ai.onnx::Clip" { opset 8 when node.inputs == 1 or node.inputs == 3 becomes Clip; }
	EOF
'

test_expect_success 'an ordering comparison of an attribute' '
	bad attrlt "$L:55: error: an attribute compares with == or != only (use len(node.attr[\"axes\"]) < N for a list'"'"'s length)" <<-\EOF
	onnx "ai.onnx::Relu" { opset 8 when node.attr["axes"] < 2 becomes Relu; }
	EOF
'

test_expect_success 'an attribute named by something else than a string' '
	bad attrname "$L:47: error: the attribute of an onnx mapping condition is named by a non-empty string: node.attr[\"NAME\"]" <<-\EOF
	onnx "ai.onnx::Relu" { opset 8 when node.attr[1] == 2 becomes Relu; }
	EOF
'

test_expect_success 'len() of something else than an attribute' '
	bad len "$L:41: error: len(...) in an onnx mapping row counts the elements of a list attribute: len(node.attr[\"NAME\"])" <<-\EOF
	onnx "ai.onnx::Relu" { opset 8 when len(node.inputs) == 1 becomes Relu; }
	EOF
'

test_expect_success 'len() outside an onnx mapping' '
	bad lenrule "$L:27: error: len(...) tests an ONNX node'"'"'s list attribute: only in the condition of an onnx mapping row" <<-\EOF
	rule r for each node when len(node.attr["axes"]) == 1 then note X1001 "x";
	EOF
'

test_expect_success 'a row an earlier row always beats' '
	bad unreach "$((L + 2)):5: error: this row of onnx \"ai.onnx::ArgMax\" is never used: the row at unreach.rules:$((L + 1)) matches first at every one of its opsets" <<-\EOF
	onnx "ai.onnx::ArgMax" {
	    opset 8..18 when node.attr["keepdims"] == 0 becomes ArgMaxV2;
	    opset 11 when node.attr["keepdims"] == 0 and node.inputs == 1 becomes ArgMaxV2;
	    opset 8..18 becomes ArgMaxV2, ExpandDims "/expand_dims";
	}
	EOF
'

test_expect_success 'an empty IR list, at becomes' '
	bad empty "$L:32: error: no IR op after '"'"'becomes'"'"': a row of onnx \"ai.onnx::Relu\" names the ops the node becomes" <<-\EOF
	onnx "ai.onnx::Relu" { opset 8 becomes; }
	EOF
'

test_expect_success 'two IR ops that would both keep the node name, or share a suffix' '
	bad keep "$L:56: error: a second IR op without a suffix: only one op of a row keeps the ONNX node'"'"'s name (write Add \"/SUFFIX\")" <<-\EOF &&
	onnx "ai.onnx::Gemm" { opset 8 becomes MatMulV2(0, 1), Add(@0, 2); }
	EOF
	bad suffix "$L:60: error: suffix \"/m\" is already used by the IR op Muls of this row" <<-\EOF
	onnx "ai.onnx::Gemm" { opset 8 becomes Muls "/m" (0), Muls "/m" (1), Add(@0, @1); }
	EOF
'

test_expect_success 'an input @K that is not an earlier op of the row' '
	bad wire "$L:84: error: @2 does not name an earlier IR op of this row (@0 to @1, counted from 0)" <<-\EOF &&
	onnx "ai.onnx::Gemm" { opset 8 becomes MatMulV2(0, 1), Muls "/m" (@0), Add "/add" (@2, 2); }
	EOF
	bad wire0 "$L:52: error: @0: the first IR op of a row has no earlier op to take an output from" <<-\EOF &&
	onnx "ai.onnx::Gemm" { opset 8 becomes MatMulV2(0, @0); }
	EOF
	bad wireout "$L:67: error: output -1: an output number is 0 to 1000" <<-\EOF
	onnx "ai.onnx::Gemm" { opset 8 becomes Muls "/m" (0), MatMulV2(@0:-1, 1); }
	EOF
'

test_expect_success 'a node input out of range' '
	bad input "$L:45: error: node input 1001: an input is 0 to 1000" <<-\EOF
	onnx "ai.onnx::Relu" { opset 8 becomes Relu(1001); }
	EOF
'

test_expect_success 'a syntax error inside a row is located like any other; the old arrow names the row syntax' '
	bad syntax "$L:36: error: syntax error near '"'"'=>'"'"': the rule language has no '"'"'=>'"'"'; an onnx row reads '"'"'opset A..B [when CONDITION] becomes IR, ...;'"'"'" <<-\EOF
	onnx "ai.onnx::Relu" { opset 8..18 => Relu; }
	EOF
'

test_expect_success 'the former table onnx_ops is refused, not silently ignored' '
	mkdir oldform && cp "$top_srcdir"/rules/*.rules oldform/ && cp -r "$top_srcdir"/rules/oplib oldform/ &&
	printf "table onnx_ops { \"ai.onnx::Relu\": [\"8-18 => Relu\"] }\n" >>oldform/onnx.rules &&
	test_must_fail --exit 2 gerules check oldform 2>err &&
	test_grep "onnx.rules:[0-9]*:[0-9]*: error: table onnx_ops is not read: the ONNX op mapping is written as onnx" err
'

test_expect_success 'a layer overrides a shipped mapping; a plain redefinition is refused' '
	mkdir -p site && cat >site/site.rules <<-\EOF &&
	bundle "site" { version "1.0.0"; extends "ge-base"; }
	override onnx "ai.onnx::Relu" { opset 8..19 becomes Relu; }
	EOF
	gerules check "$top_srcdir/rules" site >out 2>err &&
	mkdir -p site2 && cat >site2/site.rules <<-\EOF &&
	bundle "site2" { version "1.0.0"; extends "ge-base"; }
	onnx "ai.onnx::Relu" { opset 8..19 becomes Relu; }
	EOF
	test_must_fail --exit 2 gerules check "$top_srcdir/rules" site2 2>err &&
	test_grep "site.rules:2:6: error: onnx \"ai.onnx::Relu\" is already declared by bundle .ge-base. (.*onnx.rules:[0-9]*); a layer changes it only with .override onnx \"ai.onnx::Relu\" \.\.\.." err &&
	mkdir -p site3 && cat >site3/site.rules <<-\EOF &&
	bundle "site3" { version "1.0.0"; extends "ge-base"; }
	override onnx "ai.onnx::NoSuchOp" { opset 8 becomes Relu; }
	EOF
	test_must_fail --exit 2 gerules check "$top_srcdir/rules" site3 2>err &&
	test_grep "site.rules:2:15: error: override of onnx \"ai.onnx::NoSuchOp\", which no earlier bundle declares" err
'

test_expect_success 'gerules explain shows a key'"'"'s rows as written, first match first; a near miss is suggested' '
	gerules explain ai.onnx::ArgMax >out &&
	cat >expect <<-\EOF &&
	onnx "ai.onnx::ArgMax" (2 rows, first match wins)
	  opset 8..18 when node.attr["keepdims"] == 0 becomes Const "_const_data" @2 () output "int32" [], ArgMaxV2 "_ArgMaxV2" @1 (0, @0) in 3;    # RULES
	  opset 8..18 becomes Const "_const_data" @3 () output "int32" [], ArgMaxV2 "_ArgMaxV2" @1 (0, @0) output "int64", Const "_data1" @4 () output "int32" [], ExpandDims "_ExpandDims" @2 (@1, @2) in 5;    # RULES
	EOF
	sed "s|# .*onnx.rules:[0-9]*\$|# RULES|" out >got &&
	test_cmp expect got &&
	gerules explain ai.onnx::Gemm --format json >g.json &&
	"$PY" -c "
import json
d = json.load(open(\"g.json\"))
m = d[\"matches\"][0]
assert m[\"kind\"] == \"onnx\" and m[\"name\"] == \"ai.onnx::Gemm\", m
assert m[\"rows\"][2][\"row\"] == \"opset 8..18 when node.inputs >= 3 becomes MatMulV2 \\\"_MatMulV2\\\" @3 (0, 1), Add \\\"_add\\\" @4 (@0, 2) in 5;\", m
" &&
	test_must_fail --exit 2 gerules explain ai.onnx::Gem 2>err &&
	test_grep "did you mean .ai.onnx::Gemm.?" err
'

test_done
