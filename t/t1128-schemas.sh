#!/bin/sh
# t1128-schemas.sh: every JSON output of gerules validates against the JSON
# Schema (draft 2020-12) shipped for it in doc/schemas/, judged by Debian's
# python3-jsonschema: eval (a clean run, a run with errors and hooks, one
# read from stdin, an ONNX model with subgraphs), eval --explain, tile (with
# --execute and an invalid plan), chips, options (both forms), explain (every
# kind of name, a GE and a GR code), check (a clean and a broken rule set),
# diff (declarations and outcomes) and test. Every document carries the
# schema_version its schema states, and every schema file is exercised. The
# whole-document examples of doc/json-schema.md are run (inputs in
# t/data/doc/) and must be what gerules prints (t/doc-examples.py).
test_description='JSON outputs against the shipped schemas'
. "$(dirname "$0")/test-lib.sh"

PY=${PYTHON3:-/usr/bin/python3}
test_skip_unless JSONSCHEMA
EX="$top_srcdir/examples"
LLM="$EX/llm_decoder.json"
SD="$top_srcdir/doc/schemas"

test_expect_success 'eval reports (clean, errors and hooks, stdin, subgraphs)' '
	gerules eval "$LLM" --chip Ascend910B1 -o OP_PRECISION_MODE="$EX/op_precision.ini" -o ALLOW_HF32=true --format json >e1.json &&
	test_must_fail --exit 1 gerules eval "$LLM" --chip Ascend310P3 -o PRECISION_MODE=allow_mix_precision_bf16 \
		--hook "$EX/hooks/softmax_high_precision.lua" --format json >e2.json &&
	gerules eval - --chip Ascend910B1 --run-mode training --no-provenance --format json <"$LLM" >e3.json &&
	gerules eval "$top_srcdir/t/data/if_two_mm.json" --chip Ascend910B1 --format json >e4.json &&
	gerules eval "$LLM" --chip Ascend910B1 -o OP_PRECISION_MODE="$EX/op_precision.ini" -o ALLOW_HF32=true --format json \
		--provenance-table >e5.json &&
	gerules eval "$EX/convnet.json" --chip Ascend910B1 --hook "$EX/hooks/softmax_high_precision.lua" --format json \
		--provenance-table >e6.json &&
	gerules eval "$EX/convnet.json" --chip Ascend910B1 --hook "$EX/hooks/softmax_high_precision.lua" --format json >e7.json &&
	gerules eval "$LLM" --chip Ascend910B1 --explain layer0/attn/q_proj --format json >x1.json
'

test_expect_success 'tile reports' '
	gerules tile "$LLM" --chip Ascend910B1 --execute --format json >t1.json &&
	gerules tile "$top_srcdir/t/data/if_two_mm.json" --chip Ascend910B1 --format json >t2.json
'

test_expect_success 'chips, options, explain' '
	gerules chips --format json >c1.json &&
	gerules options --format json >o1.json &&
	gerules options --chip Ascend310P3 --run-mode training --format json >o2.json &&
	n=0 && for name in precision_mode OP_SELECT_IMPL_MODE enable_float_32_execution tiling_static unknown_option \
		hf32_conv_mode a2 Ascend910B3 Ascend910_9300 GE2004 GE1103 GR0204 ai.onnx::Gemm ai.onnx::Conv
	do
		n=$((n + 1)) && gerules explain "$name" --format json >n$n.json || return 1
	done
'

test_expect_success 'check (clean and broken), diff, test' '
	gerules check --format json >k1.json &&
	printf "option X { type bool; }\nrule r when option Y == \"1\" then error AB1 \"x\";\n" >bad.rules &&
	test_must_fail --exit 2 gerules check bad.rules --format json >k2.json &&
	cp -R "$top_srcdir/rules" new && sed -i "s/then warning GE2004/then error GE2004/" new/checks.rules &&
	gerules diff "$top_srcdir/rules" new --format json >d1.json &&
	gerules diff "$top_srcdir/rules" new --graph "$LLM" --chip Ascend910B1 -o ALLOW_HF32=true -o PRECISION_MODE=force_fp16 --format json >d2.json &&
	gerules test --format json >s1.json &&
	test_must_fail --exit 2 gerules eval missing.json --chip Ascend910B1 --format json >f1.json 2>err &&
	printf "{\"schema_version\": 1, \"suppressions\": [{\"code\": \"GE4004\", \"reason\": \"r\", \"expires\": \"2999-01-01\"}]}\n" >b1.json &&
	gerules eval "$LLM" --chip Ascend910B1 --baseline b1.json >/dev/null
'

test_expect_success 'every document validates against its schema; every schema is exercised' '
	set -- eval=e1.json eval=e2.json eval=e3.json eval=e4.json eval=e5.json eval=e6.json eval=e7.json eval-explain=x1.json tile=t1.json tile=t2.json \
		chips=c1.json options=o1.json options=o2.json check=k1.json check=k2.json diff=d1.json diff=d2.json test=s1.json \
		eval-failure=f1.json suppressions=b1.json &&
	for f in n*.json; do set -- "$@" explain=$f; done &&
	"$PY" "$top_srcdir/t/data/validate_schemas.py" "$SD" "$@"
'

test_expect_success 'the documents say something: sanity of what was validated' '
	test "$(json_get k2.json "d[\"ok\"]")" = false &&
	test "$(json_get d1.json "len(d[\"changes\"])")" = 1 &&
	test "$(json_get d2.json "d[\"outcomes\"][\"changes\"][0][\"kind\"]")" = diagnostic &&
	test "$(json_get s1.json "d[\"summary\"][\"failed\"]")" = 0 &&
	test "$(json_get n10.json "d[\"matches\"][0][\"kind\"]")" = code
'

# what the schema cannot say: with --provenance-table a node's provenance
# indexes the table (src/report/report.c, json_prov_table), which holds each
# entry once and nothing no node uses, and resolved it is the inline form
# entry for entry (a hook's entries included); without the flag there is
# no table, and without the provenance neither
test_expect_success 'the provenance table: every index in range, every entry used, none twice, the inline entries' '
	"$PY" - e1.json e5.json e7.json e6.json <<-\EOF &&
	import json, sys
	a = sys.argv[1:]
	for inline, table in zip(a[0::2], a[1::2]):
	    i, d = json.load(open(inline)), json.load(open(table))
	    assert "provenance_entries" not in i, inline
	    t = d["provenance_entries"]
	    used = {k for n in d["nodes"] for k in n["provenance"]}
	    assert used == set(range(len(t))), (table, used, len(t))
	    assert len({json.dumps(e, sort_keys=True) for e in t}) == len(t), table
	    assert len(t) < sum(len(n["provenance"]) for n in d["nodes"]), table
	    for x, y in zip(i["nodes"], d["nodes"]):
	        assert [t[k] for k in y.pop("provenance")] == x.pop("provenance"), x["name"]
	        assert x == y, x["name"]
	    assert i["diagnostics"] == d["diagnostics"], table
	    assert any(e["source"] == "hook" for e in t) == (table == "e6.json"), table
	EOF
	test "$(json_get e3.json "\"provenance_entries\" in d or any(\"provenance\" in n for n in d[\"nodes\"])")" = false
'

test_expect_success 'a schema catches a wrong document (the validator is not vacuous)' '
	"$PY" -c "import json; d = json.load(open(\"c1.json\")); d[\"chips\"][0][\"pattern\"] = \"no\"; json.dump(d, open(\"c1bad.json\", \"w\"))" &&
	test_must_fail "$PY" "$top_srcdir/t/data/validate_schemas.py" "$SD" chips=c1bad.json >out &&
	test_grep "is not of type .boolean." out
'

test_expect_success 'the whole-document examples of doc/json-schema.md are what gerules prints' '
	mkdir docex &&
	cp "$top_srcdir"/t/data/doc/* "$top_srcdir/t/data/hooks/g.json" "$EX/convnet.json" \
		"$EX/hooks/softmax_high_precision.lua" docex/ &&
	cp "$top_srcdir/t/data/hooks/mini.rules" docex/a.rules &&
	ln -s "$top_srcdir/rules" docex/rules && ln -s "$EX" docex/examples && ln -s "$top_srcdir/t" docex/t &&
	"$PY" "$top_srcdir/t/doc-examples.py" "$top_srcdir/doc/json-schema.md" "$GERULES" docex >ex.out &&
	cat ex.out &&
	! grep -q MISMATCH ex.out &&
	test "$(grep -c "^ok " ex.out)" -ge 6
'

test_expect_success 'a stale example is caught (the comparison is not vacuous)' '
	sed "s/\"errors\": 1,/\"errors\": 7,/" "$top_srcdir/doc/json-schema.md" >stale.md &&
	! cmp -s stale.md "$top_srcdir/doc/json-schema.md" &&
	test_must_fail "$PY" "$top_srcdir/t/doc-examples.py" stale.md "$GERULES" docex >stale.out &&
	test_grep "^MISMATCH stale.md:[0-9]*.*a.rules eval g.json" stale.out
'

test_done
