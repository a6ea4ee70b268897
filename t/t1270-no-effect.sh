#!/bin/sh
test_description='decisions without effect: the rule language'"'"'s "no effect" clauses in text, JSON, --explain, HTML and the checker'
. "${top_srcdir:-..}/t/test-lib.sh"

# The shipped precision_mode slot says when an fp32/HF32 mode does not take
# effect (rules/precision.rules; hicann/ge @ffdcbc9f7
# docs/zh/user_guides/atc_tools/CLI_options/--allow_hf32.md, "关联参数": with
# PRECISION_MODE force_fp16 float32 operators are forced to float16 first, and
# ALLOW_HF32 needs a float32 input or output).
LLM=$top_srcdir/examples/llm_decoder.json
OPS=$top_srcdir/rules/tests/graphs/ops.json

JSPY=
for p in "${PYTHON3:-/usr/bin/python3}" /usr/bin/python3 python3; do
	if "$p" -c "import jsonschema" 2>/dev/null; then JSPY=$p; break; fi
done
json_py () { "${JSPY:-${PYTHON3:-python3}}" "$@"; }

test_expect_success 'text: force_fp16 + ALLOW_HF32=true on Ascend910B1, every ALLOW_HF32 row says no effect, under the warning' '
	gerules eval "$LLM" --chip Ascend910B1 --all-nodes -o ALLOW_HF32=true -o PRECISION_MODE=force_fp16 >out &&
	test_grep "warning: ALLOW_HF32=true has no effect while PRECISION_MODE is force_fp16" out &&
	# MatMulV2 has dtype lists (rules/oplib/dynamic_format.rules), so the reason is its decided dtype
	test_grep "^layer0/attn/k_proj  *MatMulV2  *enable_hi_float_32_execution (ALLOW_HF32) (no effect: the node computes in float16 (precision_mode))  *compile (static shapes)" out &&
	test "$(grep -c "(ALLOW_HF32) (no effect: the node computes in float16 (precision_mode))" out)" = 15 &&
	! grep "(ALLOW_HF32)  " out &&
	! grep "tiling_static) (no effect" out
'

test_expect_success 'text: the reason names PRECISION_MODE_V2 when it is the mode in force, and the graph dtypes under must_keep_origin_dtype' '
	gerules eval "$OPS" --chip Ascend910B1 --all-nodes --entry session -o ALLOW_HF32=11 -o PRECISION_MODE_V2=fp16 >v2 &&
	# FullyConnection has no dtype list on ascend910b (rules/oplib/dynamic_format.rules says why): the mode says it
	test_grep "^fc  *FullyConnection  *enable_hi_float_32_execution (ALLOW_HF32) (no effect: PRECISION_MODE_V2=fp16)" v2 &&
	test_grep "^mmv2  *MatMulV2  *enable_hi_float_32_execution (ALLOW_HF32) (no effect: the node computes in float16 (precision_mode))" v2 &&
	gerules eval "$LLM" --chip Ascend910B1 --all-nodes -o ALLOW_HF32=true -o PRECISION_MODE=must_keep_origin_dtype >keep &&
	test_grep "^lm_head  *MatMulV2  *enable_hi_float_32_execution (ALLOW_HF32) (no effect: the node computes in float16 (precision_mode))" keep &&
	! grep "warning: ALLOW_HF32" keep
'

test_expect_success 'text: where float32 is kept and the operator is float32, the decision takes effect (no annotation)' '
	gerules eval "$OPS" --chip Ascend910B1 --all-nodes -o ALLOW_HF32=true -o PRECISION_MODE=must_keep_origin_dtype >eff &&
	test_grep "^conv  *Conv2D  *enable_hi_float_32_execution (ALLOW_HF32)  *compile" eff &&
	gerules eval "$OPS" --chip Ascend910B1 --all-nodes -o ALLOW_HF32=true -o PRECISION_MODE=force_fp32 >f32 &&
	test_grep "^mmv2  *MatMulV2  *enable_hi_float_32_execution (ALLOW_HF32)  *compile" eff &&
	gerules eval "$OPS" --chip Ascend910B1 --all-nodes --run-mode training -o ALLOW_HF32=true >train &&
	! grep "no effect" eff train &&
	# force_fp32 keeps float32 except where FE picks a float16-in, float32-out cube
	# column (16in32out), whose float16 inputs HF32 cannot touch: Conv2DBackpropInputD on
	# ascend910b, and the cube ops of rules/oplib/dynamic_format.rules (MatMulV2, MatMul,
	# BatchMatMulV2, Conv2D, DepthwiseConv2D: CANN 8.1.RC1 util_gemm.py:902 and util_conv2d.py:1334-1338
	# list float16 inputs with a float32 output)
	grep "no effect" f32 >ne &&
	test "$(wc -l <ne)" = 8 &&
	test_grep "^conv_bp  *Conv2DBackpropInputD  *enable_hi_float_32_execution (ALLOW_HF32) (no effect: the node computes in float16 (precision_mode))" ne &&
	test_grep "^mmv2  *MatMulV2  *enable_hi_float_32_execution (ALLOW_HF32) (no effect: the node computes in float16 (precision_mode))" ne
'

# Nodes of one type whose tensors differ: gr_decision_effect evaluates the
# clauses once per signature (type, decisions, judge record, tensor dtypes:
# src/eval/detail.c), and the dtype and engine slots are decided once per
# (type, judge record) in a row (src/eval/eval.c, slot_memo), so the float32
# MatMulV2 after a float16 one must not take the float16 one's reason or dtype. Ascend910B1 with the judge's dtype, and Ascend950
# (no op library in CANN 8.1.RC1: rules/chips.rules table oplib_family) with the
# graph dtypes (rules/precision.rules, the clause on node.dtypes).
TWO=$top_srcdir/t/data/two_matmuls.json
test_expect_success 'text: same-type nodes with other dtypes keep their own effect (memoised clauses)' '
	gerules eval "$TWO" --chip Ascend910B1 --all-nodes -o ALLOW_HF32=true -o PRECISION_MODE=must_keep_origin_dtype >two &&
	grep "^mm" two | sed "s/  */ /g" >got &&
	cat >want <<-\EOF &&
	mm16 MatMulV2 enable_hi_float_32_execution (ALLOW_HF32) (no effect: the node computes in float16 (precision_mode)) compile (static shapes) static (static graph) float16 (precision mode) AIcoreEngine (AI Core)
	mm32 MatMulV2 enable_hi_float_32_execution (ALLOW_HF32) compile (static shapes) static (static graph) float32 (precision mode) AIcoreEngine (AI Core)
	mm16b MatMulV2 enable_hi_float_32_execution (ALLOW_HF32) (no effect: the node computes in float16 (precision_mode)) compile (static shapes) static (static graph) float16 (precision mode) AIcoreEngine (AI Core)
	mm32b MatMulV2 enable_hi_float_32_execution (ALLOW_HF32) compile (static shapes) static (static graph) float32 (precision mode) AIcoreEngine (AI Core)
	EOF
	test_cmp want got &&
	gerules eval "$TWO" --chip Ascend950 --all-nodes -o ALLOW_HF32=true -o PRECISION_MODE=must_keep_origin_dtype >two950 &&
	grep "^mm" two950 | sed "s/  */ /g" >got950 &&
	cat >want950 <<-\EOF &&
	mm16 MatMulV2 enable_hi_float_32_execution (ALLOW_HF32) (no effect: no float32 input or output) compile (static shapes) static (static graph) - -
	mm32 MatMulV2 enable_hi_float_32_execution (ALLOW_HF32) compile (static shapes) static (static graph) - -
	mm16b MatMulV2 enable_hi_float_32_execution (ALLOW_HF32) (no effect: no float32 input or output) compile (static shapes) static (static graph) - -
	mm32b MatMulV2 enable_hi_float_32_execution (ALLOW_HF32) compile (static shapes) static (static graph) - -
	EOF
	test_cmp want950 got950 &&
	# the dtype reasons too are written once per judge record (src/eval/judge.c, why_memo);
	# MatMulV2 columns 0 (float16) and 16 (float32): its ascend910b static-shape block in
	# rules/oplib/dynamic_format.rules (util_gemm.py:829-884, a conditional block: the reason names its line)
	gerules eval "$TWO" --chip Ascend910B1 --format json -o ALLOW_HF32=true -o PRECISION_MODE=must_keep_origin_dtype >two.json &&
	json_py -c "
import json
d = json.load(open(\"two.json\"))
why = {x[\"name\"]: [p[\"reason\"] for p in x[\"provenance\"] if p[\"slot\"] == \"dtype\"] for x in d[\"nodes\"]}
line = [i for i, l in enumerate(open(\"$GERULES_RULES/oplib/dynamic_format.rules\"), 1) if l.startswith(\"dtypes \") and \"aicore_ascend910b,\" in l and \"\\\"MatMulV2\\\" from\" in l and \"(static shape)\" in l]
assert len(line) == 1, line
line = line[0]
for n, dt in ((\"mm16\", \"float16\"), (\"mm32\", \"float32\"), (\"mm16b\", \"float16\"), (\"mm32b\", \"float32\")):
    assert len(why[n]) == 1, (n, why[n])
    assert why[n][0] == \"PRECISION_MODE=must_keep_origin_dtype, white op (origin): input 0 stays %s (column %d), dtypes from \\\"CANN 8.1.RC1 opp/built-in/op_impl/ai_core/tbe/impl/mat_mul.py:44-65 op_select_format (static shape) -> dynamic/mat_mul.py:96-97 -> util/util_gemm.py:829-884\\\" (dynamic_format.rules:%d)\" % (dt, 0 if dt == \"float16\" else 16, line), (n, why[n])
"
'

test_expect_success 'JSON: SLOT_effect and SLOT_no_effect_reason only where the value has no effect' '
	gerules eval "$LLM" --chip Ascend910B1 -o ALLOW_HF32=true -o PRECISION_MODE=force_fp16 --format json >r.json &&
	json_py -c "
import json, sys
d = json.load(open(\"r.json\"))
n = {x[\"name\"]: x for x in d[\"nodes\"]}
k = n[\"layer0/attn/k_proj\"]
assert k[\"precision_mode_effect\"] is False, k
assert k[\"precision_mode_no_effect_reason\"] == \"the node computes in float16 (precision_mode)\", k
q = n[\"layer0/attn/fused_infer_attention\"]
assert \"precision_mode_effect\" not in q and \"tiling_effect\" not in q, q
assert all(\"tiling_effect\" not in x for x in d[\"nodes\"])
assert sum(1 for x in d[\"nodes\"] if x.get(\"precision_mode_effect\") is False) == 15
" &&
	gerules eval "$OPS" --chip Ascend910B1 --run-mode training -o ALLOW_HF32=true --format json >t.json &&
	json_py -c "
import json
d = json.load(open(\"t.json\"))
conv = [x for x in d[\"nodes\"] if x[\"type\"] == \"Conv2D\"]
assert conv and all(x[\"precision_mode\"] == \"enable_hi_float_32_execution\" and \"precision_mode_effect\" not in x
                    and \"precision_mode_no_effect_reason\" not in x for x in conv), conv
"
'

test_expect_success 'JSON: the reports validate against the shipped eval-report schema' '
	test -n "$JSPY" &&
	cp "$top_srcdir/doc/schemas/eval.schema.json" schema.json &&
	gerules eval "$LLM" --chip Ascend910B1 -o ALLOW_HF32=true -o PRECISION_MODE=force_fp16 --format json >a.json &&
	gerules eval "$LLM" --chip Ascend910B1 -o ALLOW_HF32=true -o PRECISION_MODE=must_keep_origin_dtype --no-provenance --format json >b.json &&
	gerules eval "$OPS" --chip Ascend910B1 --entry session -o ALLOW_HF32=11 -o PRECISION_MODE_V2=fp16 --format json >c.json &&
	for f in a.json b.json c.json; do
		"$JSPY" -c "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))" schema.json $f || return 1
	done &&
	# the schema is not vacuous: a true or a number as SLOT_effect is rejected
	"$JSPY" -c "
import json, sys, jsonschema
s = json.load(open(\"schema.json\")); d = json.load(open(\"a.json\"))
for bad in (True, 1):
    d[\"nodes\"][0][\"precision_mode_effect\"] = bad
    try:
        jsonschema.validate(d, s)
    except jsonschema.ValidationError:
        continue
    sys.exit(\"accepted %r\" % (bad,))
"
'

test_expect_success '--explain: the slot line says (no effect: ...); the JSON form has effect and no_effect_reason' '
	gerules eval "$LLM" --chip Ascend910B1 -o ALLOW_HF32=true -o PRECISION_MODE=force_fp16 --explain layer0/attn/k_proj >x &&
	test_grep "^impl_mode = enable_hi_float_32_execution   from allow_hf32   (no effect: the node computes in float16 (precision_mode))\$" x &&
	test_grep "^tiling = compile   from tiling_static\$" x &&
	gerules eval "$LLM" --chip Ascend910B1 -o ALLOW_HF32=true -o PRECISION_MODE=force_fp16 --explain layer0/attn/k_proj --format json >x.json &&
	json_py -c "
import json
d = json.load(open(\"x.json\"))
s = {x[\"slot\"]: x for x in d[\"slots\"]}
assert s[\"precision_mode\"][\"effect\"] is False and s[\"precision_mode\"][\"no_effect_reason\"] == \"the node computes in float16 (precision_mode)\", s
assert s[\"tiling\"][\"effect\"] is True and s[\"tiling\"][\"no_effect_reason\"] is None, s
"
'

test_expect_success 'HTML: the page carries the reason and shows it beside the source' '
	gerules eval "$LLM" --chip Ascend910B1 -o ALLOW_HF32=true --format html >p.html &&
	test_grep "\"precision_mode_no_effect_reason\":\"the node computes in float16 (precision_mode)\"" p.html &&
	test_grep "no effect: " p.html
'

# ---- the language: `no effect when COND because "why";` in a slot block

cat >base.rules <<'EOF'
capability hf32 "HF32";
product p "P" { soc "S1" { caps hf32; } }
option MODE { key "m"; type enum; values "a", "b"; default "a"; supported on all; }
table slow_ops { "Slow" }
slot speed {
    values "fast", "slow";
    no effect when node.speed == "fast" and option MODE == "b" and node.type in slow_ops
        because "MODE={option MODE} makes {node.type} slow anyway";
}
source only for speed when node.type != "Data" value "fast";
cascade speed: only;
EOF
cat >g.json <<'EOF'
{"graph": [{"name": "g", "op": [
 {"name": "x", "type": "Data"},
 {"name": "s", "type": "Slow", "input": ["x:0"]},
 {"name": "q", "type": "Quick", "input": ["s:0"]}]}]}
EOF

test_expect_success 'a clause in a custom rule set: the first clause that holds gives the reason; options and node are read' '
	gerules --rules base.rules check >chk &&
	gerules --rules base.rules eval g.json --chip S1 -o MODE=b --all-nodes >o &&
	test_grep "^s  *Slow  *fast (only) (no effect: MODE=b makes Slow slow anyway)\$" o &&
	test_grep "^q  *Quick  *fast (only)\$" o &&
	gerules --rules base.rules eval g.json --chip S1 -o MODE=a --all-nodes >o2 &&
	! grep "no effect" o2
'

test_expect_success 'the checker: the condition must be boolean' '
	sed "s/no effect when node.speed == \"fast\" and option MODE == \"b\" and node.type in slow_ops/no effect when node.type/" base.rules >bad1.rules &&
	test_must_fail --exit 2 gerules --rules bad1.rules check 2>e1 &&
	test_grep "bad1.rules:7:20: error: .*no effect.* condition .*bool" e1
'

test_expect_success 'the checker: the template is type-checked; the because is required' '
	sed "s/{option MODE}/{option NOPE}/" base.rules >bad2.rules &&
	test_must_fail --exit 2 gerules --rules bad2.rules check 2>e2 &&
	test_grep "bad2.rules:8:[0-9]*: error: .*NOPE" e2 &&
	printf "slot t { values \"a\"; no effect when true; }\n" >bad3.rules &&
	test_must_fail --exit 2 gerules --rules bad3.rules check 2>e3 &&
	test_grep "bad3.rules:1:[0-9]*: error: syntax error" e3
'

test_expect_success 'the checker: a clause that can never hold is an error; outside a slot it is not allowed' '
	sed "s/option MODE == \"b\" and/option MODE == \"b\" and option MODE == \"a\" and/" base.rules >bad4.rules &&
	test_must_fail --exit 2 gerules --rules bad4.rules check 2>e4 &&
	test_grep "error: .no effect. clause of slot .speed. can never fire" e4 &&
	sed "s/default \"a\"; supported on all; }/default \"a\"; supported on all; no effect when true because \"x\"; }/" base.rules >bad5.rules &&
	test_must_fail --exit 2 gerules --rules bad5.rules check 2>e5 &&
	test_grep "bad5.rules:3:[0-9]*: error: .no effect clause. is not allowed in an option block" e5
'

test_expect_success 'the checker: a clause may read decided slots (a source may not)' '
	sed "s/value \"fast\";/value \"fast\" because \"{node.speed}\";/" base.rules >bad6.rules &&
	test_must_fail --exit 2 gerules --rules bad6.rules check 2>e6 &&
	test_grep "available to rules, not to sources" e6 &&
	gerules --rules base.rules check
'

test_expect_success 'the checker: no other slot may write the SLOT_effect / SLOT_no_effect_reason report fields' '
	cat base.rules >clash.rules &&
	printf "slot speed_effect { values \"x\"; }\nsource o2 for speed_effect when true value \"x\";\ncascade speed_effect: o2;\n" >>clash.rules &&
	test_must_fail --exit 2 gerules --rules clash.rules check 2>e7 &&
	test_grep "error: slot speed_effect would write the report field .speed_effect. that slot speed.s .no effect. clauses write" e7 &&
	sed "s/values \"fast\", \"slow\";/values \"fast\", \"slow\"; key \"speed_no_effect_reason\";/" base.rules >clash2.rules &&
	test_must_fail --exit 2 gerules --rules clash2.rules check 2>e8 &&
	test_grep "report field .speed_no_effect_reason." e8
'

test_expect_success 'the words no and effect still serve as names' '
	sed -e "s/table slow_ops/table no/" -e "s/in slow_ops/in no/" base.rules >kw.rules &&
	gerules --rules kw.rules check &&
	gerules --rules kw.rules eval g.json --chip S1 -o MODE=b --all-nodes >kw &&
	test_grep "(no effect: MODE=b makes Slow slow anyway)" kw
'

test_done
