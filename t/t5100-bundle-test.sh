#!/bin/sh
# t5100-bundle-test.sh: `gerules test`, golden cases for bundle authors. The
# base bundle's own cases (rules/tests/) pass with at least 90% coverage;
# TAP output is judged by automake's TAP driver format (plan, one line per
# case); a failing case, a coverage below --min-coverage and malformed case
# files give exit 1, 1 and 2 with the reasons; every feature of the case
# format (inline graph, ini and file blocks, {tmp}, stderr, exit 2, `type:`
# selectors, `~`, `!`, `#`, absent) is exercised by a case that passes and by
# one that must fail.

test_description='gerules test: case files, TAP, coverage'
. "${top_srcdir:-..}/t/test-lib.sh"

test_expect_success 'the base bundle ships cases that pass with coverage >= 90%' '
	gerules test --min-coverage 90 >out 2>err &&
	test_grep "^[0-9]* cases: \([0-9]*\) passed, 0 failed\$" out &&
	test_grep "^coverage: sources [0-9]*/[0-9]* (.*), cascade branches .*, rules .*; branches and rules .*" out &&
	test_must_be_empty err &&
	n=$(ls "$top_srcdir"/rules/tests/*.case | wc -l) && test "$n" -ge 20 &&
	test "$(grep -c "^PASS " out)" = "$n"
'

test_expect_success 'TAP output: a plan, one ok line per case, coverage as comments' '
	gerules test --format tap >tap &&
	n=$(ls "$top_srcdir"/rules/tests/*.case | wc -l) &&
	head -n 1 tap >plan && echo "1..$n" >want && test_cmp want plan &&
	test "$(grep -c "^ok [0-9]* - " tap)" = "$n" &&
	! grep -v "^ok \|^# \|^1\.\." tap
'

test_expect_success '--min-coverage fails (exit 1) below the threshold and says so' '
	test_must_fail --exit 1 gerules test --min-coverage 100 >out 2>err &&
	test_grep "is below --min-coverage 100" err &&
	test_grep "0 failed" out
'

test_expect_success '--coverage lists what no case hits, by file and line' '
	gerules test --coverage "$top_srcdir/rules/tests/070-tiling-sink-a2.case" >out &&
	test_grep "^not hit: rule [a-z_0-9]* (checks.rules:[0-9]*)\$" out &&
	test_grep "^not hit: source [a-z_0-9]*, branch [0-9]* ([a-z_]*.rules:[0-9]*)\$" out
'

mkdir -p cases
cat >cases/good.case <<'EOF'
# every feature of the case format, passing
# (a second description line)
graph: inline
chip: Ascend910B1
run-mode: training
option: ge.exec.op_precision_mode={ini}
arg: --options '{opts}'
arg: --entry session
exit: 0
--- ini
[ByNodeName]
mm1=high_precision
--- file opts
{"ge.exec.allow_hf32": "10"}
--- graph
{"name": "g", "graph": [{"name": "g", "op": [
  {"name": "mm1", "type": "MatMulV2", "input_desc": [], "output_desc": []},
  {"name": "mm2", "type": "MatMulV2", "input_desc": [], "output_desc": []}]}]}
--- expect
{"chip": {"soc": "Ascend910B1"},
 "nodes": {"mm1": {"precision_mode": "high_precision", "provenance!": [{"source": "nonexistent"}]},
           "type:MatMulV2": {"precision_source~": "_"}},
 "options": {"OP_PRECISION_MODE": {"value": "{ini}"}, "NO_SUCH_OPTION": null},
 "diagnostics": [],
 "absent": ["GE9999"],
 "summary": {"errors": 0}}
EOF
cat >cases/exit2.case <<'EOF'
# an unreadable graph is exit 2 with the message on stderr
graph: {tmp}/missing.json
chip: Ascend910B1
exit: 2
stderr: missing.json
EOF
cat >cases/bad.case <<'EOF'
# a case that must fail in several ways
graph: inline
chip: Ascend910B1
exit: 0
stderr: this text is not on stderr
--- graph
{"name": "g", "graph": [{"name": "g", "op": [
  {"name": "mm1", "type": "MatMulV2", "input_desc": [], "output_desc": []}]}]}
--- expect
{"nodes": {"mm1": {"precision_mode": "no_such_mode"}, "ghost": {}, "type:Conv2D": {}},
 "diagnostics": [{"code": "GE1234"}, {"severity": "error", "#": 3}],
 "options": {"GRAPH_RUN_MODE": null},
 "chip": {"product~": "zzz"}}
EOF

test_expect_success 'a passing case file using every feature of the format' '
	gerules test cases/good.case cases/exit2.case >out 2>err &&
	test_grep "^PASS cases/good.case: every feature of the case format, passing\$" out &&
	test_grep "^PASS cases/exit2.case: " out &&
	test_grep "^2 cases: 2 passed, 0 failed\$" out
'

test_expect_success 'a failing case: exit 1, every reason listed under it' '
	test_must_fail --exit 1 gerules test cases/bad.case >out 2>err &&
	test_grep "^FAIL cases/bad.case: a case that must fail in several ways\$" out &&
	test_grep "^    stderr does not contain \"this text is not on stderr\"" out &&
	test_grep "^    nodes\[mm1\].precision_mode: expected \"no_such_mode\", got " out &&
	test_grep "^    nodes\[ghost\]: no such node\$" out &&
	test_grep "^    nodes\[type:Conv2D\]: no node of type Conv2D\$" out &&
	test_grep "^    diagnostics\[0\]: none matches {\"code\": \"GE1234\"}" out &&
	test_grep "^    diagnostics\[1\]: 0 diagnostic(s) match .*expected 3" out &&
	test_grep "^    options\[GRAPH_RUN_MODE\]: expected absent" out &&
	test_grep "^    .chip.product: expected a string containing \"zzz\"" out &&
	test_grep "1 of 1 case failed" err
'

test_expect_success 'a directory runs its *.case files in name order' '
	test_must_fail --exit 1 gerules test --format tap cases >tap &&
	grep "^ok \|^not ok " tap | sed "s/ - .*//" >got &&
	printf "not ok 1\nok 2\nok 3\n" >want && test_cmp want got
'

test_expect_success 'malformed case files: located errors, exit 2, nothing run' '
	mkdir broken &&
	printf "graph: x.json\nexit: 0\n" >broken/nodesc.case &&
	printf "# t\ngraph: x.json\nbogus: 1\nexit: 7\n--- expect\n{\"a\": [1,}\n" >broken/many.case &&
	test_must_fail --exit 2 gerules test broken >out 2>err &&
	test_must_be_empty out &&
	test_grep "^broken/nodesc.case:1:1: error: a case starts with a description comment" err &&
	test_grep "^broken/many.case:3:1: error: unknown header .bogus." err &&
	test_grep "^broken/many.case:4:7: error: the exit status is 0, 1 or 2" err &&
	test_grep "^gerules test: 4 errors in the case files" err &&
	test_grep "^broken/many.case:6:10: error: the expect block is not JSON" err
'

test_expect_success 'usage errors' '
	test_must_fail --exit 2 gerules test --min-coverage 120 2>err &&
	test_grep "percentage from 0 to 100" err &&
	test_must_fail --exit 2 gerules test --format xml 2>err &&
	test_must_fail --exit 2 gerules test no-such-dir 2>err &&
	test_grep "no-such-dir" err &&
	mkdir norules && printf "bundle \"n\" { version \"1.0.0\"; }\n" >norules/bundle.rules &&
	test_must_fail --exit 2 gerules --rules norules test 2>err &&
	test_grep "no tests/ folder" err
'

test_done
