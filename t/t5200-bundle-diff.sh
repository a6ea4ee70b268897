#!/bin/sh
# t5200-bundle-diff.sh: `gerules diff OLD NEW`. A copy of the shipped rules
# with a known list of edits must diff to exactly those edits (text and
# JSON, the JSON parsed by Python's json module), an identical copy to none,
# and with --graph the nodes and diagnostics whose outcome changes, with both
# outcomes (a node line names the slot by its column label, JSON by name).

test_description='gerules diff: declarations and outcomes'
. "${top_srcdir:-..}/t/test-lib.sh"

GRAPH="$top_srcdir/examples/llm_decoder.json"
PY=/usr/bin/python3
test -x "$PY" || PY=python3

test_expect_success 'setup: OLD is the shipped rules, NEW the same with five edits' '
	cp -R "$top_srcdir/rules" old && cp -R "$top_srcdir/rules" new && chmod -R u+w old new &&
	sed -i "s/version \"1.0.0\"/version \"1.1.0\"/" new/bundle.rules &&
	sed -i "/soc \"Ascend950PR_957c\"/s/ub_bytes 253952/ub_bytes 262144/" new/chips.rules &&
	sed -i "/soc \"Ascend950PR_950z\"/{p;s/Ascend950PR_950z/Ascend950PR_999x/}" new/chips.rules &&
	sed -i "s/\"FusedInferAttentionScore\", \"IncreFlashAttention\"/\"IncreFlashAttention\", \"MyAttention\"/" new/tables.rules &&
	sed -i "/^rule value_unsupported/,/then/s/then error GE1004/then warning GE1004/" new/checks.rules &&
	! cmp -s old/tables.rules new/tables.rules && ! cmp -s old/checks.rules new/checks.rules &&
	gerules check new >/dev/null
'

test_expect_success 'diff lists exactly the edits' '
	gerules diff old new >out &&
	cat >want <<-\EOF &&
	gerules diff: ge-base 1.0.0 (old) -> ge-base 1.1.0 (new)
	declarations:
	~ bundle ge-base: version 1.0.0 -> 1.1.0
	~ soc Ascend950PR_957c: hardware ub_bytes 253952 -> 262144
	+ soc Ascend950PR_999x
	~ table tiling_sink_ops:
	    entry "FusedInferAttentionScore" removed
	    entry "MyAttention" added
	~ rule value_unsupported: severity error -> warning
	1 added, 0 removed, 4 changed
	EOF
	test_cmp want out
'

test_expect_success 'a value that stops being rejected elsewhere is a change' '
	cp -R "$top_srcdir/rules" rej && chmod -R u+w rej &&
	sed -i "/value \"mixed_bfloat16\"/s/ rejected elsewhere;//" rej/options.rules &&
	! cmp -s "$top_srcdir/rules/options.rules" rej/options.rules &&
	gerules diff "$top_srcdir/rules" rej >out &&
	test_grep "^~ option PRECISION_MODE_V2: value \"mixed_bfloat16\" rejected elsewhere: yes -> no\$" out &&
	test_grep "^0 added, 0 removed, 1 changed\$" out
'

test_expect_success 'identical rule sets: no changes' '
	gerules diff old "$top_srcdir/rules" >out &&
	test_grep "^(no changes)\$" out
'

test_expect_success 'JSON: the same changes, machine-readable' '
	gerules diff --format json old new >out.json &&
	"$PY" -c "
import json, sys
d = json.load(open(\"out.json\"))
assert d[\"old\"][\"version\"] == \"1.0.0\" and d[\"new\"][\"version\"] == \"1.1.0\", d[\"old\"]
got = [(c[\"change\"], c[\"kind\"], c[\"name\"], c.get(\"details\")) for c in d[\"changes\"]]
want = [(\"changed\", \"bundle\", \"ge-base\", [\"version 1.0.0 -> 1.1.0\"]),
        (\"changed\", \"soc\", \"Ascend950PR_957c\", [\"hardware ub_bytes 253952 -> 262144\"]),
        (\"added\", \"soc\", \"Ascend950PR_999x\", None),
        (\"changed\", \"table\", \"tiling_sink_ops\", [\"entry \\\"FusedInferAttentionScore\\\" removed\", \"entry \\\"MyAttention\\\" added\"]),
        (\"changed\", \"rule\", \"value_unsupported\", [\"severity error -> warning\"])]
assert got == want, got
assert \"outcomes\" not in d
"
'

test_expect_success 'with --graph: the nodes and diagnostics whose outcome changes, with both outcomes' '
	gerules diff old new --graph "$GRAPH" --chip Ascend910B1 -o ge.tiling_schedule_optimize=1 >out &&
	sed -n "/^outcomes for /,\$p" out >outcomes &&
	test_grep "^outcomes for .*llm_decoder.json on Ascend910B1:\$" outcomes &&
	test_grep "^~ node layer0/attn/fused_infer_attention: tiling: device (tiling_sink) -> host (tiling_op_cannot_sink)\$" outcomes &&
	test_grep "^+ diagnostic note GE3002 (checks.rules:[0-9]*): layer0/attn/fused_infer_attention: " outcomes &&
	! grep "^~ node layer0/attn/q_proj: tiling" outcomes &&
	# the FIA now cannot sink, so it is dynamic and the graph gets partitioned (rules/partition.rules)
	test_grep "^~ node layer0/attn/q_proj: execution: static (execution_static_graph) -> static (execution_cluster)\$" outcomes &&
	gerules diff --format json old new --graph "$GRAPH" --chip Ascend910B1 -o ge.tiling_schedule_optimize=1 >out.json &&
	"$PY" -c "
import json
d = json.load(open(\"out.json\"))[\"outcomes\"]
assert d[\"chip\"] == \"Ascend910B1\"
n = [c for c in d[\"changes\"] if c[\"kind\"] == \"node\"]
assert {\"change\": \"changed\", \"kind\": \"node\", \"name\": \"layer0/attn/fused_infer_attention\", \"slot\": \"tiling\",
        \"old\": \"device (tiling_sink)\", \"new\": \"host (tiling_op_cannot_sink)\"} in n, n
g = [c for c in d[\"changes\"] if c[\"kind\"] == \"diagnostic\"]
assert any(c[\"change\"] == \"added\" and c[\"diagnostic\"][\"code\"] == \"GE3002\" for c in g), g
"
'

test_expect_success 'the same graph and options under identical rules: no outcome changes' '
	gerules diff old "$top_srcdir/rules" --graph "$GRAPH" --chip Ascend910B1 >out &&
	sed -n "/^outcomes for /,\$p" out >outcomes &&
	test_grep "^(no changes)\$" outcomes
'

test_expect_success 'a slot'"'"'s column label: a declaration change; node lines say the label, JSON the name' '
	cp "$top_srcdir/t/data/mini.rules" lab-old.rules &&
	sed -e "/^slot precision_mode {/a\\    column \"op_mode\";" \
	    -e "s/\"10\": \"enable_hi_float_32_execution\"/\"10\": \"enable_float_32_execution\"/" lab-old.rules >lab-new.rules &&
	ops=$top_srcdir/rules/tests/graphs/ops.json &&
	gerules diff lab-old.rules lab-new.rules --graph "$ops" --chip Ascend910B1 >out &&
	test_grep "^~ slot precision_mode: column \"precision_mode\" -> \"op_mode\"\$" out &&
	test_grep "^~ node conv: op_mode: enable_hi_float_32_execution (allow_hf32) -> enable_float_32_execution (allow_hf32)\$" out &&
	gerules diff --format json lab-old.rules lab-new.rules --graph "$ops" --chip Ascend910B1 >out.json &&
	json_get out.json "[c[\"slot\"] for c in d[\"outcomes\"][\"changes\"] if c[\"name\"] == \"conv\"]" >actual &&
	echo "[\"precision_mode\"]" >expect && test_cmp expect actual
'

test_expect_success 'errors: usage, a broken side, a missing graph' '
	test_must_fail --exit 2 gerules diff old 2>err && test_grep "give two rule sets" err &&
	test_must_fail --exit 2 gerules diff old new --chip Ascend910B1 2>err && test_grep "go with --graph" err &&
	mkdir bad && echo "nonsense" >bad/x.rules &&
	test_must_fail --exit 2 gerules diff old bad >out 2>err && test_must_be_empty out &&
	test_grep "bad/x.rules:1:" err &&
	test_must_fail --exit 2 gerules diff old new --graph missing.json --chip Ascend910B1 >out 2>err &&
	test_must_be_empty out && test_grep "missing.json" err
'

test_done
