#!/bin/sh
# t1142-report.sh: the report a person reads (issue 28). `gerules explain
# CODE` from the build tree and for every GE code gerules can print; the
# default text report on look-alikes of real models built with python3-onnx
# (t/data/report/gen_models.py): the summary by op type with old -> new, the
# warning when OP_PRECISION_MODE switches off the built-in impl-mode table,
# the dynamic headline, readable and distinct names, one diagnostic per
# finding, DOT's "no effect" marks, and a slot shown by the `column` label
# its rules give (the shipped precision_mode is impl_mode) while JSON keeps
# its name.
test_description='the report a person reads'
. "$(dirname "$0")/test-lib.sh"

PY=${PYTHON3:-python3}

test_expect_success 'explain CODE works from the build tree, without GERULES_RULES or GERULES_CODES' '
	test -f "$(dirname "$GERULES")/gerules.srcdir" &&
	(unset GERULES_RULES GERULES_CODES; "$GERULES" explain GR0205 >own.txt && "$GERULES" explain E10016 >ge.txt) &&
	test_grep "^GR0205: " own.txt &&
	test_grep "^E10016: GE error code: --input_shape names an op that is not in the model" ge.txt &&
	test_grep "GE.s message: Op name {opname} specified in" ge.txt
'

test_expect_success 'the header lists the options the user set that are not in effect, and a refused value is judged as its default' '
	cat >conv.json <<-\EOF &&
	{"name": "m", "graph": [{"name": "main", "op": [{"name": "x", "type": "Data", "attr": [{"key": "index", "value": {"i": 0}}], "output_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [1, 16, 8, 8]}, "layout": "NCHW"}]}, {"name": "w", "type": "Const", "output_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [16, 16, 3, 3]}, "layout": "NCHW"}]}, {"name": "conv", "type": "Conv2D", "input": ["x:0", "w:0"], "attr": [{"key": "strides", "value": {"list": {"i": [1, 1, 1, 1]}}}, {"key": "pads", "value": {"list": {"i": [1, 1, 1, 1]}}}, {"key": "dilations", "value": {"list": {"i": [1, 1, 1, 1]}}}], "input_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [1, 16, 8, 8]}, "layout": "NCHW"}, {"dtype": "DT_FLOAT", "shape": {"dim": [16, 16, 3, 3]}, "layout": "NCHW"}], "output_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [1, 16, 8, 8]}, "layout": "NCHW"}]}, {"name": "out", "type": "NetOutput", "input": ["conv:0"], "input_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [1, 16, 8, 8]}, "layout": "NCHW"}]}]}]}
	EOF
	test_must_fail --exit 1 gerules eval conv.json --chip Ascend310P3 --precision_mode=allow_mix_precision_bf16 --all-nodes \
		-o ALLOW_HF32=true -o ALLOW_HF32=false -o OP_SELECT_IMPL_MODE=bogus -o NO_SUCH_OPTION=1 >out.txt 2>err.txt &&
	grep "^options: " out.txt >header &&
	echo "options: 1 given (ALLOW_HF32=false); not in effect: PRECISION_MODE=allow_mix_precision_bf16, ALLOW_HF32=true, OP_SELECT_IMPL_MODE=bogus" >expect &&
	test_cmp expect header &&
	test_grep "GE2001" out.txt &&
	test_grep "the nodes show the build without it (PRECISION_MODE reads as its default)" out.txt &&
	! grep -E "GE700[367]" out.txt &&
	test_grep "^conv  *Conv2D .* float16 (precision mode)  *AIcoreEngine (AI Core)$" out.txt
'

test_expect_success 'explain knows every GE code gerules can print (rules ge_code, ATC checks, rule codes)' '
	{ grep -ho "ge_code \"[A-Z0-9]*\"" "$top_srcdir"/rules/*.rules | sed "s/ge_code //" &&
	  grep -ho "\"E[0-9]\{5\}\"" "$top_srcdir"/src/options/*.c "$top_srcdir"/src/cli/*.c &&
	  sed -n "/^table atc_flag_value_errors/,/^}/p" "$top_srcdir"/rules/atc.rules | grep -o "\"E[0-9]\{5\}\"" &&
	  grep -ho "then [a-z]* E[A-Z]*[0-9]\{4,5\}" "$top_srcdir"/rules/*.rules | sed "s/.* //"
	} | tr -d "\"" | sort -u >codes &&
	test "$(wc -l <codes)" -ge 15 &&
	while read code; do
		gerules explain "$code" >out.txt 2>err.txt || { echo "explain $code failed"; cat err.txt; exit 1; }
		grep -q "^$code: " out.txt || { echo "explain $code: no title"; exit 1; }
	done <codes &&
	gerules explain E10001 >e1.txt &&
	test_grep "raised by rule invalid_value_ge (error) at checks.rules:[0-9]*, reported as GE1002 \[GE E10001\]" e1.txt &&
	gerules explain E10001 --format json >e1.json &&
	"$PY" -c "import json,sys; d=json.load(open(\"e1.json\"))[\"matches\"][0]; assert d[\"origin\"]==\"ge\" and d[\"ge_message\"].startswith(\"Value {value}\"), d; assert any(r.get(\"as\")==\"GE1002\" for r in d[\"raised_by\"]), d"
'

test_expect_success 'DOT marks decisions without effect: label, tooltip reason, white fill, legend' '
	ex=$top_srcdir/examples &&
	gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 -o OP_PRECISION_MODE=$ex/op_precision.ini -o ALLOW_HF32=true --format dot >g.dot &&
	grep "^    n[0-9]* \[label=\"layer0/attn/k_proj\\\\nMatMulV2\\\\nenable_hi_float_32_execution (no effect)" g.dot >kp &&
	test_grep "style=\"filled,rounded,diagonals\"" kp &&
	test_grep "(no effect: the node computes in float16 (precision_mode))" kp &&
	test_grep "label=\"enable_hi_float_32_execution (no effect)\", fillcolor=\"#[0-9a-f]*\", color=\"#555b63\", fontcolor=\"[a-z]*\", style=\"filled,diagonals\"" g.dot &&
	! grep "label=\"layer0/attn/q_proj\\\\nMatMulV2\\\\nhigh_precision (no effect)" g.dot &&
	if command -v dot >/dev/null 2>&1; then dot -Tsvg g.dot >g.svg; fi
'

test_expect_success 'a slot is shown by the column label its rules give (text, --explain); JSON keeps its name' '
	graph=$top_srcdir/rules/tests/graphs/ops.json &&
	sed "/^slot precision_mode {/a\\    column \"op_mode\";" "$top_srcdir/t/data/mini.rules" >labelled.rules &&
	test_grep "^    column \"op_mode\";\$" labelled.rules &&
	gerules --rules labelled.rules eval "$graph" --chip Ascend910B1 --all-nodes >all &&
	test_grep "^NODE  *TYPE  *op_mode\$" all &&
	test_grep "^conv  *Conv2D  *enable_hi_float_32_execution (allow_hf32)\$" all &&
	gerules --rules labelled.rules eval "$graph" --chip Ascend910B1 -o ALLOW_HF32=01 >changes &&
	test_grep "^Conv2D x2  op_mode: enable_hi_float_32_execution (allow_hf32) -> enable_float_32_execution (allow_hf32)\$" changes &&
	test_grep "^conv  *Conv2D  op_mode: enable_hi_float_32_execution (allow_hf32) -> enable_float_32_execution (allow_hf32)\$" changes &&
	gerules --rules labelled.rules eval "$graph" --chip Ascend910B1 --explain conv >x &&
	test_grep "^op_mode = enable_hi_float_32_execution   from allow_hf32\$" x &&
	! grep precision_mode all changes x &&
	gerules --rules labelled.rules eval "$graph" --chip Ascend910B1 --format json >j &&
	json_get j "[n[\"precision_mode\"] for n in d[\"nodes\"] if n[\"name\"] == \"conv\"][0]" >actual &&
	echo enable_hi_float_32_execution >expect && test_cmp expect actual &&
	! grep op_mode j
'

# The models are built with python3-onnx; without it these tests are left out
# as one skipped test saying why (a failure under CI).
if test_have_prereq ONNX; then

test_expect_success 'setup: look-alikes of PaddleOCR and Silero VAD (python3-onnx)' '
	"$PY" "$top_srcdir/t/data/report/gen_models.py" . &&
	printf "[ByOpType]\nSoftmaxV2=high_precision\n" >softmax.ini
'

test_expect_success 'OP_PRECISION_MODE switching off the built-in table is a warning, and the summary gives old -> new by op type' '
	gerules eval ocr.onnx --chip Ascend910B1 -o OP_PRECISION_MODE=softmax.ini >out &&
	test_grep "^defaults: the same model, chip, run mode and entry point with no option given" out &&
	test_grep "^ocr.onnx: warning: OP_PRECISION_MODE is set, so GE switches off the built-in high_performance table of OP_SELECT_IMPL_MODE: 10 node(s) such as .sigmoid_0. (Sigmoid) lose the mode .*\[GE4011\]" out &&
	test_grep "^summary: 36 nodes, 0 errors, 1 warning, 1 note" out &&
	sed -n "/^what GE does/,\$p" out >got &&
	cat >expect <<-\EOF &&
	what GE does differently, by op type (old -> new):
	Sigmoid x6     impl_mode: high_precision (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)  tiling: compile  execution: static  dtype: float16  engine: AIcoreEngine
	ReduceMean x1  impl_mode: high_performance (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)  tiling: compile  execution: static  dtype: float16  engine: AIcoreEngine
	Sqrt x1        impl_mode: high_performance (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)  tiling: compile  execution: static  dtype: float16  engine: AIcoreEngine
	RealDiv x1     impl_mode: high_performance (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)  tiling: compile  execution: static  dtype: float16  engine: AIcoreEngine
	AvgPoolV2 x1   impl_mode: high_performance (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)  tiling: compile  execution: static  dtype: float16  engine: AIcoreEngine
	SoftmaxV2 x1   impl_mode: high_performance (built-in table) -> high_precision ([ByOpType])  tiling: compile  execution: static  dtype: float16  engine: AIcoreEngine

	11 nodes differ from the defaults (--all-nodes lists every node):
	NODE                                        TYPE        CHANGES
	sigmoid_0                                   Sigmoid     impl_mode: high_precision (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)
	sigmoid_1                                   Sigmoid     impl_mode: high_precision (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)
	sigmoid_2                                   Sigmoid     impl_mode: high_precision (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)
	sigmoid_3                                   Sigmoid     impl_mode: high_precision (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)
	sigmoid_4                                   Sigmoid     impl_mode: high_precision (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)
	sigmoid_5                                   Sigmoid     impl_mode: high_precision (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)
	PartitionedCall_reduce_mean_0_ReduceMean_1  ReduceMean  impl_mode: high_performance (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)
	sqrt_0                                      Sqrt        impl_mode: high_performance (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)
	div_0                                       RealDiv     impl_mode: high_performance (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)
	pool2d_0                                    AvgPoolV2   impl_mode: high_performance (built-in table) -> - (built-in table needs: not option OP_PRECISION_MODE set)
	softmax_0                                   SoftmaxV2   impl_mode: high_performance (built-in table) -> high_precision ([ByOpType])
	EOF
	test_cmp expect got
'

test_expect_success 'a mostly dynamic model: a one-line headline naming the input with unknown dims' '
	gerules eval vad.onnx --chip Ascend910B1 >out &&
	test_grep "^mostly dynamic: 21 of 21 nodes run with execution dynamic; model inputs with unknown dims: x: give them fixed shapes with --input_shape" out &&
	test_grep "^0 nodes differ from the defaults" out &&
	gerules eval ocr.onnx --chip Ascend910B1 >out2 &&
	! grep "^mostly" out2
'

test_expect_success 'long inlined names are cut in the middle, keep their tail, and no two rows share a label' '
	COLUMNS=80 gerules eval vad.onnx --chip Ascend910B1 --all-nodes >out &&
	sed -n "/^NODE /,\$p" out | tail -n +2 >rows &&
	test "$(wc -l <rows)" = 34 &&
	sed "s/  .*//" rows >labels &&
	test "$(sort labels | uniq -d | wc -l)" = 0 &&
	test "$(grep -c "^spox_gr[^ ]*\.\.\.[^ ]*er\.2/reparam_conv/MatMul  *BatchMatMulV2" rows)" = 2 &&
	test_grep "^spox_graph/If_0_1_el\.\.\.[^ ]*/decoder/Sigmoid  *Sigmoid" rows &&
	awk "{ if (length(\$1) > 50) exit 1 }" labels &&
	gerules eval vad.onnx --chip Ascend910B1 --all-nodes --wide >wide &&
	test_grep "^spox_graph/If_0_1_else_branch/If_0_else_branch__Inline_0__/_model/encoder/encoder.2/reparam_conv/MatMul  *BatchMatMulV2" wide &&
	! grep "^spox.*\.\.\." wide &&
	gerules eval vad.onnx --chip Ascend910B1 --all-nodes >plain &&
	sed -n "/^NODE /,\$p" plain | tail -n +2 | sed "s/  .*//" >labels60 &&
	test "$(sort labels60 | uniq -d | wc -l)" = 0 &&
	awk "{ if (length(\$0) > 60) exit 1 }" labels60
'

test_expect_success 'Data and Const rows carry no tiling; source ids become plain words in text, stay ids in JSON' '
	gerules eval vad.onnx --chip Ascend910B1 --all-nodes >out &&
	test_grep "^x  *Data  *-  *dynamic (outside the partition)  *float32 (the model.s dtype)  *DNN_VM_GE_LOCAL (no AI Core op)\$" out &&
	test_grep "^Constant_0  *Const  *-  *static (outside the partition)  " out &&
	test_grep "^If_0  *If  *-  *host (unknown dims)  *dynamic (dynamic node)  " out &&
	! grep "execution_seed\|tiling_dynamic_shape\|execution_subgraph\|model_dtype" out &&
	gerules eval vad.onnx --chip Ascend910B1 --format json >out.json &&
	"$PY" -c "import json; d=json.load(open(\"out.json\")); n=[x for x in d[\"nodes\"] if x[\"name\"]==\"If_0\"][0]; assert n[\"execution_source\"]==\"execution_seed\" and n[\"tiling\"]==\"host\", n"
'

test_expect_success 'every source of the shipped rules has its plain words in report_source_words' '
	sed -n "s/^source \([a-z0-9_]*\) for .*/\1/p" "$top_srcdir"/rules/*.rules | sort -u >sources &&
	test "$(wc -l <sources)" -gt 30 &&
	sed -n "/^table report_source_words/,/^}/s/^ *\"\([a-z0-9_]*\)\": .*/\1/p" "$top_srcdir/rules/report.rules" | sort -u >worded &&
	comm -23 sources worded >missing &&
	test_must_be_empty missing
'

test_expect_success 'one diagnostic per finding: GE4010 without GE4003 for an ONNX op type key' '
	printf "[ByOpType]\nMatMul=high_precision\n" >mm.ini &&
	gerules eval vad.onnx --chip Ascend910B1 -o OP_PRECISION_MODE=mm.ini >out &&
	test_grep "mm.ini:2:8: warning: \[ByOpType\] MatMul=high_precision .*\[GE4010\]" out &&
	! grep "GE4003" out
'

test_expect_success '--explain locates an ONNX node by its place and its ONNX node, not FILE:0' '
	gerules eval ocr.onnx --chip Ascend910B1 --explain PartitionedCall_linear_0_MatMulV2_6 >out &&
	test_grep "^node PartitionedCall_linear_0_MatMulV2_6 (MatMulV2) in graph \"paddle-ocr-cls\" of ocr.onnx, node [0-9]* of 36 (ONNX node \"linear_0\", ai.onnx::16::Gemm), chip Ascend910B1\$" out &&
	! grep "ocr.onnx:0" out
'

test_expect_success '--explain with the name of an ONNX node GE splits names its parts' '
	test_must_fail --exit 2 gerules eval ocr.onnx --chip Ascend910B1 --explain linear_0 >out 2>err &&
	echo "gerules eval: error: no node named '"'"'linear_0'"'"' in ocr.onnx: GE'"'"'s parser split that ONNX node into PartitionedCall_linear_0_MatMulV2_6, PartitionedCall_linear_0_add_7; give one of those names" >expect &&
	test_cmp expect err &&
	test_must_be_empty out
'
else
	test_expect_success ONNX 'the report of ONNX look-alikes of PaddleOCR and Silero VAD' 'false'
fi

test_done
