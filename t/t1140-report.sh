#!/bin/sh
# t1140-report.sh: the report a person reads (issue 28). `gerules explain
# CODE` from the build tree and for every GE code gerules can print; the
# default text report on look-alikes of real models built with python3-onnx
# (t/data/report/gen_models.py): the summary by op type with old -> new, the
# warning when OP_PRECISION_MODE switches off the built-in impl-mode table,
# the dynamic headline, readable and distinct names, one diagnostic per
# finding, and DOT's "no effect" marks.
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
	test_grep "(no effect: PRECISION_MODE=force_fp16)" kp &&
	test_grep "label=\"enable_hi_float_32_execution (no effect)\", fillcolor=\"#[0-9a-f]*\", color=\"#555b63\", fontcolor=\"[a-z]*\", style=\"filled,diagonals\"" g.dot &&
	! grep "label=\"layer0/attn/q_proj\\\\nMatMulV2\\\\nhigh_precision (no effect)" g.dot &&
	if command -v dot >/dev/null 2>&1; then dot -Tsvg g.dot >g.svg; fi
'

test_done
