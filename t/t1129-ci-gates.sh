#!/bin/sh
# t1129-ci-gates.sh: --fail-on, -q and --format sarif beyond eval, where
# they make sense: check (a rule set with warnings), tile (plan findings and
# the evaluation's warnings) and test (-q). The SARIF outputs are judged by
# Microsoft's SARIF validator (node_modules/.bin/sarif-multitool; skipped
# with a reason when it is not installed).
test_description='check, tile and test as CI gates: --fail-on, -q, SARIF'
. "$(dirname "$0")/test-lib.sh"

LLM="$top_srcdir/examples/llm_decoder.json"
FIX="$top_srcdir/t/data/tiling"
PY=${PYTHON3:-/usr/bin/python3}
MT="$GR_NODE_MODULES/.bin/sarif-multitool"

test_expect_success 'setup: a rule set with one warning (an option without a support statement)' '
	printf "option X { key \"x\"; type bool; }\nproduct p \"P\" { soc \"S1\" { } }\n" >w.rules &&
	gerules check w.rules >out 2>err &&
	test_grep "warning: option X states no product support" err
'

test_expect_success 'check --fail-on: warning exits 1, error (default) and never exit 0' '
	test_must_fail --exit 1 gerules check w.rules --fail-on warning >out 2>err &&
	gerules check w.rules --fail-on error >out 2>err &&
	gerules check w.rules --fail-on never >out 2>err &&
	test_must_fail --exit 2 gerules check w.rules --fail-on sometimes 2>err &&
	test_grep "fail-on is error, warning or never" err
'

test_expect_success 'check -q: the diagnostics only, no summary line' '
	gerules check w.rules -q >out 2>err &&
	test_must_be_empty out &&
	test_grep "states no product support" err &&
	gerules check w.rules >out 2>err &&
	test_grep ": ok (1 warning)$" out
'

test_expect_success 'check --format sarif: one result per diagnostic, located in the rule file' '
	gerules check w.rules --format sarif >c.sarif &&
	printf "option X { type nonsense; }\n" >bad.rules &&
	test_must_fail --exit 2 gerules check bad.rules --format sarif >c2.sarif &&
	"$PY" - <<-\EOF
	import json
	r = json.load(open("c.sarif"))["runs"][0]["results"]
	assert len(r) == 1 and r[0]["level"] == "warning", r
	loc = r[0]["locations"][0]["physicalLocation"]
	assert loc["artifactLocation"]["uri"] == "w.rules" and loc["region"]["startLine"] == 1, loc
	r2 = json.load(open("c2.sarif"))["runs"][0]
	assert [x["level"] for x in r2["results"]][:2] == ["error", "error"], r2["results"]
	assert "extensions" not in r2["tool"] or r2["tool"]["extensions"] == [], r2["tool"]
	EOF
'

test_expect_success 'tile --fail-on: an invalid plan exits 1 by default and 0 with never' '
	test_must_fail --exit 1 gerules tile "$FIX/custom.json" --chip Ascend910B1 --hook "$FIX/overlap.lua" >out 2>err &&
	gerules tile "$FIX/custom.json" --chip Ascend910B1 --hook "$FIX/overlap.lua" --fail-on never >out 2>err
'

test_expect_success 'tile --fail-on warning: the evaluation'"'"'s warnings fail the run' '
	gerules tile "$LLM" --chip Ascend910B1 -o ALLOW_HF32=true -o PRECISION_MODE=force_fp16 >out 2>err &&
	test_must_fail --exit 1 gerules tile "$LLM" --chip Ascend910B1 -o ALLOW_HF32=true -o PRECISION_MODE=force_fp16 --fail-on warning >out 2>err
'

test_expect_success 'tile -q: only the nodes with findings' '
	gerules tile "$FIX/custom.json" --chip Ascend910B1 --hook "$FIX/overlap.lua" --fail-on never >full &&
	gerules tile "$FIX/custom.json" --chip Ascend910B1 --hook "$FIX/overlap.lua" --fail-on never -q >quiet &&
	test $(wc -l <quiet) -lt $(wc -l <full) &&
	test_grep "GR0306\\|coverage" quiet
'

test_expect_success 'tile --format sarif: the plan findings, each at its node' '
	test_must_fail --exit 1 gerules tile "$FIX/custom.json" --chip Ascend910B1 --hook "$FIX/overlap.lua" --format sarif >t.sarif &&
	"$PY" - <<-\EOF
	import json
	run = json.load(open("t.sarif"))["runs"][0]
	res = [r for r in run["results"] if r["ruleId"] == "GR0306"]
	assert res and res[0]["level"] == "error", run["results"]
	assert res[0]["locations"][0]["logicalLocations"][0]["name"] == "scale", res[0]
	assert res[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("custom.json")
	assert run["properties"]["chip"] == "Ascend910B1"
	EOF
'

test_expect_success 'test -q: the summary only when every case passes' '
	gerules test -q >out 2>err &&
	test $(wc -l <out) = 2 &&
	test_grep "cases: .* passed, 0 failed" out
'

test_expect_success SARIF 'the SARIF validator finds no error in the check and tile logs' '
	test_sarif_valid "$MT" c.sarif c2.sarif t.sarif
'

test_done
