#!/bin/sh
# t1151-project-config.sh: the project config of gerules eval. A file
# .gerules.conf in the working directory or a parent (an options file:
# KEY=VALUE lines or a JSON object) gives rules, chip, options, gates,
# baseline and output, so that a CI line is `gerules eval model.json`; the
# command line beats it setting by setting; --print-config shows the merged
# settings with where each came from; --config FILE and --no-config choose.
test_description='the project config file (.gerules.conf) and --print-config'
. "$(dirname "$0")/test-lib.sh"

LLM="$top_srcdir/examples/llm_decoder.json"
PY=/usr/bin/python3
test -x "$PY" || PY=python3

test_expect_success 'setup: a project with a config, an ini and an accepted-findings file' '
	mkdir -p proj/ci/deep proj/rules-copy &&
	cp -R "$top_srcdir/rules/." proj/rules-copy/ &&
	printf "[ByNodeName]\nlayer0/attn/q_prj=high_precision\n" >proj/mistakes.ini &&
	cat >proj/.gerules.conf <<-\EOF &&
	# the project'"'"'s gerules settings
	rules = rules-copy
	chip = Ascend910B1
	option = OP_PRECISION_MODE=mistakes.ini
	option = ALLOW_HF32=true
	Werror = GE4004
	format = sarif
	output = r.sarif
	EOF
	cp "$LLM" proj/model.json
'

test_expect_success 'the CI line of the issue: gerules eval model.json, settings from the config' '
	(cd proj && test_must_fail --exit 1 env -u GERULES_RULES "$GERULES" eval model.json) &&
	"$PY" - <<-\EOF
	import json
	run = json.load(open("proj/r.sarif"))["runs"][0]
	assert run["properties"]["chip"] == "Ascend910B1", run["properties"]
	lv = {r["ruleId"]: r["level"] for r in run["results"]}
	assert lv["GE4004"] == "error" and lv["GE2004"] == "warning", lv
	EOF
'

test_expect_success 'found from a subdirectory; its paths are relative to the config file' '
	(cd proj/ci/deep && "$GERULES" eval ../../model.json --print-config >../../../pc.out) &&
	test_grep "^# config: .*/proj/.gerules.conf$" pc.out &&
	test_grep "^rules = .*/proj/rules-copy	# .*/proj/.gerules.conf:2$" pc.out &&
	test_grep "^output = .*/proj/r.sarif	# .*.gerules.conf:8$" pc.out
'

test_expect_success 'the command line wins, setting by setting; --print-config says which' '
	(cd proj && "$GERULES" eval model.json --print-config --chip Ascend310P3 -o ALLOW_HF32=false --format json >../pc2.out) &&
	test_grep "^# chip = Ascend910B1	# .*:3, overridden by the command line$" pc2.out &&
	test_grep "^# option = ALLOW_HF32=true	# .*:5, overridden by the command line$" pc2.out &&
	test_grep "^option = OP_PRECISION_MODE=mistakes.ini	# " pc2.out &&
	test_grep "^chip = Ascend310P3	# command line$" pc2.out &&
	test_grep "^format = json	# command line$" pc2.out &&
	(cd proj && test_must_fail --exit 1 "$GERULES" eval model.json --format json --output o.json -o ALLOW_HF32=false) &&
	test "$(json_get proj/o.json "[o[\"value\"] for o in d[\"options\"] if o[\"name\"] == \"ALLOW_HF32\"][0]")" = false &&
	test "$(json_get proj/o.json "len([x for x in d[\"diagnostics\"] if x[\"code\"] == \"GR0101\"])")" = 0
'

test_expect_success '--rules on the command line replaces the config stack' '
	(cd proj && "$GERULES" --rules "$top_srcdir/rules" eval model.json --print-config >../pc3.out) &&
	test_grep "^# rules = rules-copy	# .*, overridden by the command line$" pc3.out &&
	test_grep "^rules = $top_srcdir/rules	# command line$" pc3.out
'

test_expect_success '--no-config and --config FILE' '
	(cd proj && "$GERULES" eval --no-config --print-config >../pc4.out) &&
	test_grep "^# config: (none" pc4.out &&
	printf "chip = Ascend310P3\nformat = json\n" >other.conf &&
	(cd proj && "$GERULES" eval model.json --config ../other.conf --output ../other.json) &&
	test "$(json_get other.json "d[\"chip\"][\"soc\"]")" = Ascend310P3
'

test_expect_success 'a JSON config works too (the options-file reader takes both)' '
	printf "{\"chip\": \"Ascend910B1\", \"format\": \"github\"}\n" >j.conf &&
	"$GERULES" eval "$LLM" --config j.conf -o PRECISION_MODE=bogus >gh.out; test $? = 1 &&
	test_grep "^::error .*title=GE1002::" gh.out
'

test_expect_success 'a bad config is a located error with a suggestion (exit 2)' '
	printf "chip = Ascend910B1\nfail_on = warning\n" >bad.conf &&
	test_must_fail --exit 2 "$GERULES" eval "$LLM" --config bad.conf 2>err &&
	test_grep "^bad.conf:2:1: error: unknown setting .fail_on.; did you mean .fail-on.?" err &&
	printf "chip =\n" >empty.conf &&
	test_must_fail --exit 2 "$GERULES" eval "$LLM" --config empty.conf 2>err &&
	test_grep "^empty.conf:1:1: error: .chip. needs a value" err &&
	printf "chip Ascend910B1\n" >noeq.conf &&
	test_must_fail --exit 2 "$GERULES" eval "$LLM" --config noeq.conf 2>err &&
	test_grep "^noeq.conf:1:1: error: expected KEY=VALUE" err &&
	test_must_fail --exit 2 "$GERULES" eval "$LLM" --config nothere.conf 2>err &&
	test_grep "nothere.conf" err
'

test_done
