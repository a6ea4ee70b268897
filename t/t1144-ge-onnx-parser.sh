#!/bin/sh
# t1144-ge-onnx-parser.sh: GE's own ONNX parser system tests
# (hicann/ge @ffdcbc9f7 tests/parser/st/testcase/test_onnx_parser.cc), one
# test each, titled with the GE test's name and line, on models of the same
# structure built by t/data/readers/ge_parser_models.py. GE's test asserts
# whether aclgrphParseONNX succeeds (and, for some, what the graph holds);
# here gerules must give the same outcome: exit 0 and the same nodes where
# GE parses the model, an error (exit 1) naming GE's reason where GE fails.
# The tests of parser internals without a model outcome (ToJson,
# FileConstant's ParseParams, SetExternalPath, the pre-check run mode) are
# listed in doc/ge-fidelity.md with their verdicts.
test_description='GE ONNX parser system tests'
. "$(dirname "$0")/test-lib.sh"

PY=${PYTHON3:-python3}
test_skip_unless ONNX

# ev MODEL [ARGS...]: gerules eval MODEL --chip Ascend910B1 --format json
# into MODEL.json; the exit status is gerules'
ev () { m=$1; shift; gerules eval "$m" --chip Ascend910B1 --format json "$@" >"$m.json"; }

test_expect_success 'build the models' '
	"$PY" "$top_srcdir/t/data/readers/ge_parser_models.py" . &&
	test -f conv2d.onnx && test -f int4_int32.onnx
'

test_expect_success 'onnx_parser_user_output_with_default (test_onnx_parser.cc:125): the unnamed Conv is Conv_0, the graph output' '
	ev conv2d.onnx &&
	test "$(json_get conv2d.onnx.json "[n[\"name\"] + \":\" + n[\"type\"] for n in d[\"nodes\"] if n[\"type\"] != \"Const\"]")" = "[\"x:Data\", \"Conv_0:Conv2D\"]"
'

# the model's output res is produced by the If and again by the Add that
# reads it: GE links the Add's input to the last producer, itself, and its
# topological sort fails ("has circle struct, topo sort failed")
test_expect_success 'onnx_parser_if_node (test_onnx_parser.cc:154): a tensor produced twice and read by its second producer is a cycle (GE8004)' '
	test_must_fail --exit 1 ev if_cycle.onnx &&
	test "$(json_get if_cycle.onnx.json "[(x[\"code\"], x[\"node\"]) for x in d[\"diagnostics\"] if x[\"severity\"] == \"error\"]")" = "[[\"GE8004\", \"Add_2\"]]" &&
	test_must_fail --exit 1 gerules eval if_cycle.onnx --chip Ascend910B1 >cyc.txt 2>cyc.err &&
	test_grep "error: node Add_2 reads res, which an earlier node and the node itself produce: GE.s parser links every reader to the last producer" cyc.txt
'

test_expect_success 'onnx_parser_expand_one_to_many (test_onnx_parser.cc:165): Clip-9 expands into its plugin subgraph' '
	ev clip_v9.onnx &&
	test "$(json_get clip_v9.onnx.json "[n[\"name\"] + \":\" + n[\"type\"] for n in d[\"nodes\"]]")" = "[\"X:Data\", \"PartitionedCall_Clip_0_data1_3:Const\", \"PartitionedCall_Clip_0_data2_4:Const\", \"PartitionedCall_Clip_0_cast_1:Cast\", \"PartitionedCall_Clip_0_ClipByValue_2:ClipByValue\"]"
'

test_expect_success 'onnx_parser_expand_one_to_many_with_stable_sort (test_onnx_parser.cc:179): the same under --topo_sorting_mode=3' '
	ev clip_v9.onnx -o --topo_sorting_mode=3 &&
	test "$(json_get clip_v9.onnx.json "len([n for n in d[\"nodes\"] if n[\"name\"].startswith(\"PartitionedCall_Clip_0_\")])")" = 4 &&
	test "$(json_get clip_v9.onnx.json "[x[\"code\"] for x in d[\"diagnostics\"] if x[\"severity\"] == \"error\"]")" = "[]"
'

test_expect_success 'onnx_parser_const_data_type (test_onnx_parser.cc:218): initializers of six dtypes parse, each keeping its dtype' '
	ev const_type.onnx &&
	test "$(json_get const_type.onnx.json "[n[\"dtype\"] for n in d[\"nodes\"] if n[\"type\"] == \"Const\"]")" = "[\"int64\", \"uint64\", \"complex64\", \"string\", \"float64\", \"complex128\"]" &&
	test "$(json_get const_type.onnx.json "[x[\"code\"] for x in d[\"diagnostics\"] if x[\"severity\"] == \"error\"]")" = "[]"
'

test_expect_success 'onnx_parser_if_node_with_const_input (test_onnx_parser.cc:228): an If without outputs whose branches hold Constants parses' '
	ev if_const.onnx &&
	test "$(json_get if_const.onnx.json "d[\"graph\"][\"graphs\"]")" = "[\"if_model\", \"if_model/If_0_0_then_branch\", \"if_model/If_0_1_else_branch\"]" &&
	test "$(json_get if_const.onnx.json "[x[\"code\"] for x in d[\"diagnostics\"] if x[\"severity\"] == \"error\"]")" = "[]"
'

test_expect_success 'onnx_test_PreChecker_not_support (test_onnx_parser.cc:279): an op type no plugin registers fails the pre-check (E13010)' '
	test_must_fail --exit 1 ev not_support.onnx &&
	test "$(json_get not_support.onnx.json "[(x[\"code\"], x[\"node\"]) for x in d[\"diagnostics\"] if x[\"severity\"] == \"error\"]")" = "[[\"E13010\", \"test\"]]"
'

test_expect_success 'onnx_parser_int4_const_raw_data (test_onnx_parser.cc:375): an INT4 Constant in raw_data is a Const of int4' '
	ev int4_raw.onnx &&
	test "$(json_get int4_raw.onnx.json "[n[\"name\"] + \":\" + n[\"dtype\"] for n in d[\"nodes\"] if n[\"type\"] == \"Const\"]")" = "[\"Constant_0:int4\"]"
'

test_expect_success 'onnx_parser_int4_const_int32_data (test_onnx_parser.cc:387): an INT4 Constant in int32_data is a Const of int4' '
	ev int4_int32.onnx &&
	test "$(json_get int4_int32.onnx.json "[n[\"name\"] + \":\" + n[\"dtype\"] for n in d[\"nodes\"] if n[\"type\"] == \"Const\"]")" = "[\"Constant_0:int4\"]"
'

test_done
