#!/bin/sh
# t1150-ci-failure-junit-gates.sh: gerules eval as a CI step. When the input
# fails (exit 2) every CI format still writes its document, to stdout or
# atomically to --output: SARIF with executionSuccessful false and the
# reason as a tool notification (judged by Microsoft's SARIF validator when
# node_modules has it), JSON per doc/schemas/eval-failure.schema.json
# (python3-jsonschema), GitHub `::error file=...` commands and JUnit XML.
# --format junit is read back by Debian's python3-junitparser and checked
# well-formed by xmllint. The per-code gates (-Werror=CODE, -Wno-CODE,
# --fail-on CODE) and --baseline (a previous JSON report, or a suppression
# file with reasons and expiry dates) decide the exit status and show in
# every format.
test_description='CI formats on failure, JUnit, per-code gates and baselines'
. "$(dirname "$0")/test-lib.sh"

LLM="$top_srcdir/examples/llm_decoder.json"
PY=/usr/bin/python3
test -x "$PY" || PY=python3
MT="$GR_NODE_MODULES/.bin/sarif-multitool"
SD="$top_srcdir/doc/schemas"

warn_run () { gerules eval "$LLM" --chip Ascend910B1 -o OP_PRECISION_MODE=mistakes.ini "$@"; }

test_expect_success 'setup: an ini with three warnings' '
	printf "[ByNodeName]\nlayer0/attn/q_prj=high_precision\nlayer0/attn/o_proj=high_precison\nlm_head=\n" >mistakes.ini
'

test_expect_success 'a missing model: every CI format writes its document to --output, exit 2' '
	for f in sarif json github junit
	do
		test_must_fail --exit 2 gerules eval missing.onnx --chip Ascend910B1 --format $f --output out.$f 2>err &&
		test_grep "missing.onnx: error: cannot open" err &&
		test -s out.$f || return 1
	done &&
	test_grep "^::error file=missing.onnx::cannot open: No such file or directory$" out.github &&
	test $(wc -l <out.github) = 1
'

test_expect_success 'the same on stdout; html and dot write nothing' '
	test_must_fail --exit 2 gerules eval missing.onnx --chip Ascend910B1 --format json >stdout.json 2>err &&
	cmp stdout.json out.json &&
	test_must_fail --exit 2 gerules eval missing.onnx --chip Ascend910B1 --format html >page.html 2>err &&
	test_must_be_empty page.html &&
	test_must_fail --exit 2 gerules eval missing.onnx --chip Ascend910B1 --format text >t.txt 2>err &&
	test_must_be_empty t.txt
'

test_expect_success 'sarif on failure: executionSuccessful false, a located notification, no results' '
	"$PY" - <<-\EOF
	import json
	run = json.load(open("out.sarif"))["runs"][0]
	inv = run["invocations"][0]
	assert inv["executionSuccessful"] is False and inv["exitCode"] == 2, inv
	n = inv["toolExecutionNotifications"]
	assert len(n) == 1 and n[0]["level"] == "error", n
	assert "cannot open" in n[0]["message"]["text"], n
	assert n[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "missing.onnx", n
	assert run["results"] == [], run["results"]
	EOF
'

test_expect_success 'sarif on success: executionSuccessful true' '
	warn_run --format sarif >ok.sarif &&
	"$PY" -c "import json; r = json.load(open(\"ok.sarif\"))[\"runs\"][0]; assert r[\"invocations\"][0][\"executionSuccessful\"] is True; assert len(r[\"results\"]) == 4"
'

test_expect_success 'a bad ini file and an unknown chip fail with a document too' '
	test_must_fail --exit 2 gerules eval "$LLM" --chip Ascend910B1 -o OP_PRECISION_MODE=nothere.ini --format json --output bad.out 2>err &&
	test "$(json_get bad.out "d[\"diagnostics\"][0][\"file\"]")" = nothere.ini &&
	test "$(json_get bad.out "d[\"chip\"]")" = Ascend910B1 &&
	test_must_fail --exit 2 gerules eval "$LLM" --chip Ascend999 --format sarif --output chip.sarif 2>err &&
	test_grep "executionSuccessful\": false" chip.sarif &&
	test_must_fail --exit 2 gerules eval "$LLM" --chip Ascend999 --format github >chip.gh 2>err &&
	test_grep "^::error" chip.gh
'

test_expect_success 'a rule set that does not load: the document says so' '
	printf "option X { type nonsense; }\n" >broken.rules &&
	test_must_fail --exit 2 gerules --rules broken.rules eval "$LLM" --chip Ascend910B1 --format json --output rs.json 2>err &&
	test "$(json_get rs.json "d[\"status\"]")" = failed &&
	test "$(json_get rs.json "d[\"rules\"]")" = null &&
	test_grep "broken.rules" rs.json &&
	test_must_fail --exit 2 gerules --rules broken.rules eval "$LLM" --chip Ascend910B1 --format sarif --output rs.sarif 2>err &&
	test_grep "broken.rules" rs.sarif
'

test_expect_success '--output never replaces the model even on failure' '
	cp "$LLM" m.json && cp m.json m.orig &&
	test_must_fail --exit 2 gerules eval m.json --chip Ascend999 --format json --output m.json 2>err &&
	cmp m.json m.orig
'

test_expect_success JSONSCHEMA 'the JSON failure documents follow eval-failure.schema.json' '
	printf "{\"schema_version\": 1, \"suppressions\": [{\"code\": \"GE4004\", \"reason\": \"r\"}]}\n" >s.json &&
	"$PY" "$top_srcdir/t/data/validate_schemas.py" "$SD" eval-failure=out.json eval-failure=bad.out \
		eval-failure=rs.json suppressions=s.json 2>&1 | grep -v "schemas no document" >v.out;
	test_must_be_empty v.out ||
	{ cat v.out; false; }
'

test_expect_success SARIF 'the SARIF validator finds no error in the failure and success logs' '
	test_sarif_valid "$MT" out.sarif chip.sarif rs.sarif ok.sarif
'

test_expect_success 'junit: well-formed per xmllint, for success, findings and failure' '
	warn_run --format junit >ok.xml &&
	test_must_fail --exit 1 warn_run --format junit --fail-on warning >warn.xml &&
	printf "[ByNodeName]\nx\\001\\377<&\"=high_precision\n" >odd.ini &&
	gerules eval "$LLM" --chip Ascend910B1 -o OP_PRECISION_MODE=odd.ini --format junit >odd.xml &&
	xmllint --noout ok.xml warn.xml odd.xml out.junit
'

test_expect_success JUNITPARSER 'junit: junitparser reads a case per diagnostic, failures for errors and gated warnings' '
	test_must_fail --exit 1 warn_run -o PRECISION_MODE=bogus --format junit >err.xml &&
	"$PY" - <<-\EOF
	from junitparser import JUnitXml, Failure, Error
	def cases(path):
	    x = JUnitXml.fromfile(path)
	    return [c for s in x for c in s]
	ok = cases("ok.xml")
	assert len(ok) == 4, len(ok)   # no GE7004: MatMulV2 has dtype lists (rules/oplib/dynamic_format.rules); no GE7001: GE deletes the int64->int64 Cast before placement
	assert all(c.is_passed for c in ok), [c.result for c in ok]
	assert sorted(c.classname for c in ok) == ["GE3001", "GE4004", "GR0203", "GR0204"], [c.classname for c in ok]
	q = [c for c in ok if c.classname == "GE4004"][0]
	assert q.name == "mistakes.ini:2:19 option OP_PRECISION_MODE", q.name
	assert "q_prj" in q.system_out, q.system_out
	w = cases("warn.xml")
	failed = sorted(c.classname for c in w if not c.is_passed)
	assert failed == ["GE4004", "GR0203", "GR0204"], failed
	e = cases("err.xml")
	bad = [c for c in e if not c.is_passed]
	assert len(bad) == 1 and isinstance(bad[0].result[0], Failure), [(c.classname, c.result) for c in e]
	assert bad[0].result[0].type == bad[0].classname
	f = cases("out.junit")
	assert len(f) == 1 and isinstance(f[0].result[0], Error), f[0].result
	assert "cannot open" in f[0].result[0].message
	suite = list(JUnitXml.fromfile("err.xml"))[0]
	assert suite.tests == len(e) and suite.failures == 1, (suite.tests, suite.failures)
	EOF
'

test_expect_success '-Werror=CODE makes that warning an error (exit 1), shown in every format' '
	test_must_fail --exit 1 warn_run -Werror=GE4004 >out 2>err &&
	test_grep "^mistakes.ini:2:19: error: .*\\[raised by -Werror=GE4004\\] \\[GE4004\\]" out &&
	test_must_fail --exit 1 warn_run -Werror=GE4004 --format json >w.json 2>err &&
	test "$(json_get w.json "[x[\"changed_by\"] for x in d[\"diagnostics\"] if x[\"code\"] == \"GE4004\"][0]")" = "-Werror=GE4004" &&
	test "$(json_get w.json "d[\"summary\"][\"errors\"]")" = 1 &&
	test_must_fail --exit 1 warn_run -Werror=GE9999,GR0203 --format github >w.gh &&
	test_grep "^::error file=mistakes.ini,line=4,col=1,title=GR0203::" w.gh &&
	warn_run -Werror=GE3001 >out 2>err
'

test_expect_success '-Wno-CODE leaves warnings out; errors stay' '
	warn_run -Wno-GE4004 -Wno-GR0203,GR0204,GE7001 --format json >n.json &&
	test "$(json_get n.json "\",\".join(x[\"code\"] for x in d[\"diagnostics\"])")" = GE3001 &&
	test "$(json_get n.json "d[\"summary\"][\"warnings\"]")" = 0 &&
	test_must_fail --exit 1 gerules eval "$LLM" --chip Ascend910B1 -o PRECISION_MODE=bogus -Wno-GE1002 >out 2>err &&
	test_grep "error: .*\\[GE1002\\]" out
'

test_expect_success '--fail-on CODE[,CODE]: any finding with one of the codes fails' '
	test_must_fail --exit 1 warn_run --fail-on GE3001 >out 2>err &&
	test_grep "error: .*\\[raised by --fail-on GE3001\\]" out &&
	test_must_fail --exit 1 warn_run --fail-on GR0204,GE9999 >out 2>err &&
	warn_run --fail-on GE9999 >out 2>err
'

test_expect_success 'gate usage errors name the bad code' '
	test_must_fail --exit 2 warn_run -Werror=ge4004 2>err &&
	test_grep "is not a diagnostic code" err &&
	test_must_fail --exit 2 warn_run -Werror= 2>err &&
	test_grep "needs a diagnostic code" err &&
	test_must_fail --exit 2 warn_run --fail-on sometimes 2>err &&
	test_grep "fail-on is error, warning, never or a list of codes" err
'

test_expect_success '--baseline REPORT: findings of a previous report do not fail; new ones do' '
	warn_run --format json >accepted.json &&
	warn_run --fail-on warning --baseline accepted.json >out 2>err &&
	test_grep "note: .*q_prj.*\\[downgraded by accepted.json:[0-9]*: in the baseline report\\]" out &&
	test_must_fail --exit 1 warn_run -o PRECISION_MODE=bogus --baseline accepted.json >out 2>err &&
	test_grep "error: .*\\[GE1002\\]" out
'

test_expect_success 'the CI job of the issue: a failure SARIF upload with a baseline' '
	warn_run -Werror=GE4004 --baseline accepted.json --format sarif --output r.sarif &&
	"$PY" -c "import json; r = json.load(open(\"r.sarif\"))[\"runs\"][0]; assert all(x[\"level\"] != \"error\" for x in r[\"results\"]), r[\"results\"]"
'

test_expect_success '--baseline SUPPRESSIONS: a reason, matching by code and node or option' '
	cat >sup.json <<-\EOF &&
	{"suppressions": [
	  {"code": "GE4004", "option": "OP_PRECISION_MODE", "reason": "the ini is shared with the 7B model", "expires": "2999-12-31"},
	  {"code": "GR0204", "message": "high_precison", "reason": "fixed upstream in the next drop"}
	]}
	EOF
	warn_run -Werror=GE4004 -Werror=GR0204 --baseline sup.json >out 2>err &&
	test_grep "note: .*q_prj.*\\[downgraded by sup.json:2: the ini is shared with the 7B model\\]" out &&
	test_grep "note: unknown mode .*\\[downgraded by sup.json:3: fixed upstream in the next drop\\]" out &&
	printf "{\"suppressions\": [{\"code\": \"GE4004\", \"node\": \"other\", \"reason\": \"r\"}]}\n" >sup2.json &&
	test_must_fail --exit 1 warn_run -Werror=GE4004 --baseline sup2.json >out 2>err
'

test_expect_success 'an expired suppression accepts nothing and is an error at its line' '
	cat >old.json <<-\EOF &&
	{"suppressions": [
	  {"code": "GE4004", "reason": "until the spring release", "expires": "2001-03-31"}
	]}
	EOF
	test_must_fail --exit 1 warn_run --baseline old.json >out 2>err &&
	test_grep "^old.json:2:3: error: the suppression of GE4004 expired on 2001-03-31 (reason given: until the spring release); fix the finding or renew the suppression \\[GR0401\\]" out &&
	test_grep "warning: .*q_prj" out
'

test_expect_success 'a malformed baseline is a located input error (exit 2)' '
	printf "{\"suppressions\": [{\"code\": \"GE4004\"}]}\n" >nr.json &&
	test_must_fail --exit 2 warn_run --baseline nr.json >out 2>err &&
	test_grep "^nr.json:1:19: error: the suppression of GE4004 needs a \"reason\"" err &&
	printf "{\"suppressions\": [{\"code\": \"GE4004\", \"reason\": \"r\", \"expires\": \"2026-02-30\"}]}\n" >bd.json &&
	test_must_fail --exit 2 warn_run --baseline bd.json >out 2>err &&
	test_grep "\"expires\" is a date YYYY-MM-DD, not .2026-02-30." err &&
	printf "{\"suppressions\": [{\"code\": \"GE4004\", \"reason\": \"r\", \"nod\": \"x\"}]}\n" >uk.json &&
	test_must_fail --exit 2 warn_run --baseline uk.json >out 2>err &&
	test_grep "unknown member .nod. of a suppression" err &&
	printf "{\"x\": 1}\n" >none.json &&
	test_must_fail --exit 2 warn_run --baseline none.json >out 2>err &&
	test_grep "neither \"diagnostics\"" err &&
	test_must_fail --exit 2 warn_run --baseline nothere.json >out 2>err &&
	test_grep "nothere.json" err &&
	test_must_be_empty out
'

test_done
