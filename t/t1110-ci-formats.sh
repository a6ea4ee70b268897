#!/bin/sh
# t1110-ci-formats.sh: gerules as a compiler and a CI step. Text diagnostics
# follow gcc (`file:line:col: severity: message [CODE]`, the source line of
# the ini, options or graph file and a caret), colour only on a terminal or
# with --color=always (NO_COLOR respected), --fail-on and -q decide the exit
# status and the volume, --format sarif is judged by Microsoft's SARIF
# validator (node_modules/.bin/sarif-multitool; skipped with a reason when
# it is not installed) and --format github writes workflow commands.
test_description='gcc-style diagnostics, colour, --fail-on, -q, SARIF and GitHub annotations'
. "$(dirname "$0")/test-lib.sh"

LLM="$top_srcdir/examples/llm_decoder.json"
PY=/usr/bin/python3
test -x "$PY" || PY=python3

# a run with warnings and notes and no error
warn_run () { gerules eval "$LLM" --chip Ascend910B1 -o OP_PRECISION_MODE=mistakes.ini "$@"; }

test_expect_success 'setup: an ini with a misspelt node name, a misspelt mode and an empty value' '
	printf "[ByNodeName]\nlayer0/attn/q_prj=high_precision\nlayer0/attn/o_proj=high_precison\nlm_head=\n" >mistakes.ini
'

test_expect_success 'ini diagnostics: gcc layout, code last, the source line and a caret under the column' '
	warn_run >out 2>err &&
	cat >expect <<-\EOF &&
	mistakes.ini:2:19: warning: [ByNodeName] layer0/attn/q_prj=high_precision matches no node of that name in the graph; did you mean '"'"'layer0/attn/q_proj'"'"'? [GE4004]  (option OP_PRECISION_MODE)
	 layer0/attn/q_prj=high_precision
	                   ^
	EOF
	grep -A2 "^mistakes.ini:2:19:" out >actual &&
	test_cmp expect actual &&
	grep -A2 "^mistakes.ini:3:20:" out >actual &&
	test_grep "^ layer0/attn/o_proj=high_precison$" actual &&
	test_grep "^                    \\^$" actual
'

test_expect_success 'the location is not repeated inside any message' '
	! grep "(mistakes.ini:[0-9]" out
'

test_expect_success 'a graph diagnostic shows the graph line' '
	grep -A2 "llm_decoder.json:[0-9]*:[0-9]*: note: .*\\[GE3001\\]" out >actual &&
	test $(wc -l <actual) = 3 &&
	test_grep "^ *\\^$" actual
'

test_expect_success 'an options-file error is located with its line and a caret' '
	printf "{\n  \"PRECISION_MODE\": \"force_fp16\",\n  \"ALLOW_HF32\" true\n}\n" >bad.json &&
	test_must_fail --exit 2 gerules eval "$LLM" --chip Ascend910B1 --options bad.json >out 2>err &&
	test_grep "^bad.json:3:16: error: malformed JSON" err
'

test_expect_success 'an error in an options file given by value gets a caret too' '
	printf "PRECISION_MODE=force_fp23\n" >o.txt &&
	test_must_fail --exit 1 gerules eval "$LLM" --chip Ascend910B1 --options o.txt >out 2>err &&
	grep -A2 "^o.txt:1:[0-9]*: error: .*\\[GE1002\\]" out >actual &&
	test_grep "^ PRECISION_MODE=force_fp23$" actual &&
	test_grep "^ *\\^$" actual
'

test_expect_success 'no colour into a file or a pipe; --color=always colours; --color=never does not' '
	warn_run >out 2>err && ! grep -q "$(printf "\033")" out &&
	warn_run --color=always >out 2>err &&
	test_grep "$(printf "\033\\[1;35mwarning:")" out &&
	test_grep "$(printf "\033\\[1mmistakes.ini:2:19:\033\\[m")" out &&
	warn_run --color never >out 2>err && ! grep -q "$(printf "\033")" out &&
	test_must_fail --exit 2 gerules --color=sometimes eval "$LLM" --chip Ascend910B1 2>err &&
	test_grep "--color is auto, always or never" err
'

test_expect_success 'on a terminal: colour by default, none with NO_COLOR' '
	if ! "$PY" -c "import pty" 2>/dev/null; then echo "# no pty module: nothing to test"; exit 0; fi
	cp "$top_srcdir/t/pty-run.py" pty_run.py &&
	env -u NO_COLOR TERM=xterm "$PY" pty_run.py "$GERULES" eval "$LLM" --chip Ascend910B1 -o OP_PRECISION_MODE=mistakes.ini >tty.out &&
	test_grep "$(printf "\033\\[1;35mwarning:")" tty.out &&
	NO_COLOR=1 TERM=xterm "$PY" pty_run.py "$GERULES" eval "$LLM" --chip Ascend910B1 -o OP_PRECISION_MODE=mistakes.ini >tty.out &&
	test_grep "warning:" tty.out && ! grep -q "$(printf "\033\\[")" tty.out
'

test_expect_success '--fail-on: warnings pass by default, fail with warning, nothing fails with never' '
	warn_run >/dev/null &&
	test_must_fail --exit 1 warn_run --fail-on warning >/dev/null &&
	test_must_fail --exit 1 warn_run --fail-on=warning --format json >/dev/null &&
	test_must_fail --exit 1 gerules eval "$LLM" --chip Ascend910B1 -o PRECISION_MODE=bogus >/dev/null &&
	gerules eval "$LLM" --chip Ascend910B1 -o PRECISION_MODE=bogus --fail-on never >/dev/null &&
	test_must_fail --exit 2 warn_run --fail-on sometimes 2>err &&
	test_grep "fail-on is error, warning, never or a list of codes" err
'

test_expect_success '-q: the diagnostics and the summary, nothing else' '
	warn_run -q >out &&
	! grep -q "^gerules \\|^chip: \\|^graph: \\|^NODE " out &&
	test_grep "^mistakes.ini:2:19: warning:" out &&
	tail -n 1 out >last && test_grep "^summary: 63 nodes, 0 errors, 3 warnings, 1 note$" last &&
	gerules eval "$LLM" --chip Ascend910B1 --quiet >out &&
	# the int64->int64 Cast gets no engine (GE deletes it before placement), so no GE7001
	echo "summary: 63 nodes, 0 errors, 0 warnings, 1 note" >expect1 &&
	grep -v "^ \\|: note: " out >actual && test_cmp expect1 actual
'

test_expect_success 'sarif: one result per diagnostic, rules with help, physical and logical locations' '
	warn_run --format sarif >r.sarif &&
	warn_run --format json >r.json &&
	"$PY" - r.sarif r.json <<-\EOF
	import json, sys
	s = json.load(open(sys.argv[1])); j = json.load(open(sys.argv[2]))
	assert s["version"] == "2.1.0", s["version"]
	run = s["runs"][0]
	drv = run["tool"]["driver"]
	assert drv["name"] == "gerules" and drv["version"], drv
	ext = run["tool"]["extensions"][0]
	assert ext["name"] == "ge-base" and ext["version"] == "1.0.0", ext
	res = run["results"]
	assert len(res) == len(j["diagnostics"]), (len(res), len(j["diagnostics"]))
	ids = [r["id"] for r in drv["rules"]]
	for r, d in zip(res, j["diagnostics"]):
	    assert r["ruleId"] == d["code"], (r, d)
	    assert ids[r["ruleIndex"]] == r["ruleId"]
	    assert r["level"] == {"error": "error", "warning": "warning", "note": "note"}[d["severity"]]
	for rule in drv["rules"]:
	    assert rule["help"]["text"] and rule["shortDescription"]["text"], rule
	g = [r for r in res if r["ruleId"] == "GE4004"][0]
	pl = g["locations"][0]["physicalLocation"]
	assert pl["artifactLocation"]["uri"] == "mistakes.ini" and pl["artifactLocation"]["uriBaseId"] == "SRCROOT", pl
	assert pl["region"] == {"startLine": 2, "startColumn": 19}, pl["region"]
	assert g["locations"][0]["logicalLocations"][0]["name"] == "OP_PRECISION_MODE"
	n = [r for r in res if r["ruleId"] == "GE3001"][0]
	assert n["locations"][0]["logicalLocations"][0]["name"] == "layer0/attn/fused_infer_attention", n
	assert n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("llm_decoder.json")
	assert "(mistakes.ini:" not in json.dumps(res)
	EOF
'

test_expect_success SARIF 'sarif: the SARIF validator finds no error (warnings, notes, errors, odd file names)' '
	warn_run --format sarif >r.sarif &&
	cp mistakes.ini "odd name%.ini" &&
	gerules eval "$LLM" --chip Ascend910B1 -o "OP_PRECISION_MODE=odd name%.ini" -o PRECISION_MODE=bogus --format sarif >r2.sarif
	test $? = 1 &&
	test_sarif_valid "$GR_NODE_MODULES/.bin/sarif-multitool" r.sarif r2.sarif
'

test_expect_success 'github: workflow commands with file, line, column and title, data escaped' '
	warn_run --format github >gh.txt &&
	test_grep "^::warning file=mistakes.ini,line=2,col=19,title=GE4004::\\[ByNodeName\\] layer0/attn/q_prj=high_precision matches no node" gh.txt &&
	test_grep "^::notice file=.*llm_decoder.json,line=[0-9]*,col=[0-9]*,title=GE3001::" gh.txt &&
	test $(grep -c "^::" gh.txt) = $(wc -l <gh.txt) &&
	# no GE7004 note since MatMulV2 has dtype lists (rules/oplib/dynamic_format.rules)
	test $(wc -l <gh.txt) = 4 &&
	printf "[ByNodeName]\nx%%0A::error::forged=high_precision\n" >esc.ini &&
	gerules eval "$LLM" --chip Ascend910B1 -o OP_PRECISION_MODE=esc.ini --format github >gh2.txt &&
	test_grep "x%250A::error::forged" gh2.txt && test $(wc -l <gh2.txt) = 2
'

test_done
