#!/bin/sh
# t5101-bundle-test-update.sh: `gerules test --update` and coverage per layer.
# --update on a stale case rewrites only its exit line and expect block (the
# description, comments, inputs and blocks stay byte for byte; a diagnostic
# matcher whose severity changed is refreshed, not dropped), lists each
# change, and the case then passes; a case without expectations is recorded;
# a case that is current is left alone; a case whose input fails to evaluate
# is refused with exit 2 and no file is written, not even the other cases'.
# The coverage summary has a line per layer of the stack besides the stack's,
# and --min-coverage NAME:PERCENT gates one layer.

test_description='gerules test --update; coverage per layer'
. "${top_srcdir:-..}/t/test-lib.sh"

# the part of a case file --update must not touch: all but the exit line and
# the expect block
inputs_of () { sed -e '/^exit:/d' -e '/^--- expect/,/^--- /{/^--- [^e]/!d}' "$1"; }

cat >stale.case <<'EOF'
# a stale case: the mode, the count and the exit status it expects are old
# (a comment line that must survive)
graph: inline
chip: Ascend910B1
option: ge.exec.op_precision_mode={ini}
exit: 1

# a comment between header lines
--- ini
[ByNodeName]
mm1=high_precision
--- graph
{"name": "g", "graph": [{"name": "g", "op": [
  {"name": "mm1", "type": "MatMulV2", "input_desc": [], "output_desc": []},
  {"name": "mm2", "type": "MatMulV2", "input_desc": [], "output_desc": []}]}]}
--- expect
{"nodes": {"mm1": {"precision_mode": "high_performance", "precision_source": "by_node_name"},
           "gone": {"precision_mode": "x"}},
 "options": {"OP_PRECISION_MODE": {"value": "{ini}"}},
 "diagnostics": [{"code": "GE7004", "#": 3}, {"code": "GE7004", "severity": "warning", "node": "mm1"}],
 "summary": {"errors": 1}}
EOF

test_expect_success 'the stale case fails before the update' '
	test_must_fail --exit 1 gerules test stale.case >out 2>err &&
	test_grep "^FAIL stale.case" out
'

test_expect_success '--update rewrites it, says what changed, and the case passes' '
	cp stale.case stale.before &&
	gerules test --update stale.case >out 2>err &&
	test_must_be_empty err &&
	cat >want <<-\EOF &&
	updated stale.case
	    exit: 1 -> 0
	    nodes[mm1].precision_mode: "high_performance" -> "high_precision"
	    nodes[gone]: dropped (no such node now)
	    diagnostics[0]: {"code": "GE7004", "#": 3}: "#": 3 -> 1
	    diagnostics[1].severity: "warning" -> "note"
	    .summary.errors: 1 -> 0
	1 case: 1 updated, 0 unchanged
	EOF
	test_cmp want out &&
	gerules test stale.case >out &&
	test_grep "^PASS stale.case" out
'

test_expect_success '--update leaves the description, comments and inputs untouched' '
	inputs_of stale.before >want &&
	inputs_of stale.case >got &&
	test_cmp want got &&
	grep "^exit: 0\$" stale.case &&
	cat >want <<-\EOF &&
	--- expect
	{
	  "nodes": {"mm1": {"precision_mode": "high_precision", "precision_source": "by_node_name"}},
	  "options": {"OP_PRECISION_MODE": {"value": "{ini}"}},
	  "diagnostics": [{"code": "GE7004", "#": 1}, {"code": "GE7004", "severity": "note", "node": "mm1"}],
	  "summary": {"errors": 0}
	}
	EOF
	sed -n "/^--- expect/,\$p" stale.case >got &&
	test_cmp want got
'

test_expect_success 'a current case is left alone: same bytes, "unchanged"' '
	cp stale.case current.before &&
	gerules test --update stale.case >out &&
	printf "unchanged stale.case\n1 case: 0 updated, 1 unchanged\n" >want &&
	test_cmp want out &&
	cmp stale.case current.before
'

test_expect_success 'the rewrite is atomic: the mode is kept, no temporary file is left' '
	chmod 640 stale.case &&
	sed -i "s/^exit: 0/exit: 1/" stale.case &&
	gerules test --update stale.case >out &&
	test_grep "^    exit: 1 -> 0\$" out &&
	test "$(stat -c %a stale.case)" = 640 &&
	ls >files && ! grep "stale.case\\." files
'

test_expect_success 'a case without exit and expect is recorded, then passes' '
	cat >new.case <<-\EOF &&
	# a new case, recorded
	graph: inline
	chip: Ascend910B1
	option: ge.exec.op_precision_mode={ini}
	--- ini
	[ByNodeName]
	mm1=high_precision
	--- graph
	{"name": "g", "graph": [{"name": "g", "op": [
	  {"name": "mm1", "type": "MatMulV2", "input_desc": [], "output_desc": []}]}]}
	EOF
	cp new.case new.before &&
	test_must_fail --exit 2 gerules test new.case 2>err &&
	test_grep "no .exit:. line" err &&
	gerules test --update new.case >out &&
	test_grep "^    exit: recorded 0\$" out &&
	test_grep "^    expect: recorded from the report (1 node(s), [0-9]* diagnostic matcher(s), the summary)\$" out &&
	inputs_of new.before >want && inputs_of new.case >got && test_cmp want got &&
	test_grep "^    \"mm1\": {\"precision_mode\": \"high_precision\", \"precision_source\": \"by_node_name\"" new.case &&
	test_grep "^  \"summary\": {\"errors\": 0, " new.case &&
	gerules test new.case >out &&
	test_grep "^PASS new.case" out
'

test_expect_success 'a case whose input fails to evaluate: exit 2, no file written' '
	printf "# the graph is gone\ngraph: missing.json\nchip: Ascend910B1\nexit: 0\n--- expect\n{\"summary\": {\"errors\": 0}}\n" >broken.case &&
	cp broken.case broken.before &&
	sed -i "s/^exit: 0/exit: 1/" stale.case && cp stale.case stale.before &&
	test_must_fail --exit 2 gerules test --update broken.case stale.case >out 2>err &&
	test_must_be_empty out &&
	cat >want <<-\EOF &&
	broken.case:2:8: error: the case'"'"'s input fails to evaluate (gerules eval exits 2); nothing recorded
	    missing.json: error: cannot open: No such file or directory
	gerules test: 1 case refused; no file written
	EOF
	test_cmp want err &&
	cmp broken.case broken.before &&
	cmp stale.case stale.before
'

test_expect_success 'a case that expects exit 2 and still passes is left alone' '
	printf "# a failure case\ngraph: missing.json\nchip: Ascend910B1\nexit: 2\nstderr: cannot open\n" >fails.case &&
	cp fails.case fails.before &&
	gerules test --update fails.case >out &&
	printf "unchanged fails.case\n1 case: 0 updated, 1 unchanged\n" >want &&
	test_cmp want out &&
	cmp fails.case fails.before &&
	sed -i "s/cannot open/no such text/" fails.case && cp fails.case fails.before &&
	test_must_fail --exit 2 gerules test --update fails.case >out 2>err &&
	test_grep "^fails.case:2:8: error: the case expects exit 2 and fails; a failure case is edited by hand" err &&
	cmp fails.case fails.before
'

test_expect_success '--update takes no --format or --min-coverage' '
	test_must_fail --exit 2 gerules test --update --format tap stale.case 2>err &&
	test_grep "takes no --format" err &&
	test_must_fail --exit 2 gerules test --update --min-coverage 10 stale.case 2>err
'

ACME=$top_srcdir/examples/vendor/acme
test_expect_success 'coverage per layer: a line for the stack, then one per layer' '
	gerules --rules "$GERULES_RULES" --rules "$ACME" test "$ACME/tests" >out &&
	grep "^coverage" out | sed "s/: sources.*branches and rules \([0-9]*\)\/\([0-9]*\) .*/: \1 of \2/" >got &&
	b=$(grep "^coverage of layer ge-base" out | sed "s/.*branches and rules [0-9]*\/\([0-9]*\).*/\1/") &&
	a=$(grep "^coverage: " out | sed "s/.*branches and rules [0-9]*\/\([0-9]*\).*/\1/") &&
	test "$a" -gt "$b" &&
	test_grep "^coverage of layer acme 1.1.0: sources 1/1 (100.0%), cascade branches 1/1 (100.0%), rules 0/0 (100.0%); branches and rules 1/1 (100.0%)\$" out &&
	test "$(grep -c "^coverage of layer " out)" = 2
'

test_expect_success '--min-coverage NAME:PERCENT gates one layer' '
	gerules --rules "$GERULES_RULES" --rules "$ACME" test --min-coverage acme:100 "$ACME/tests" >out &&
	test_must_fail --exit 1 gerules --rules "$GERULES_RULES" --rules "$ACME" test --min-coverage ge-base:90 "$ACME/tests" >out 2>err &&
	test_grep "^gerules test: coverage of layer ge-base [0-9.]*% is below --min-coverage ge-base:90\$" err &&
	test_must_fail --exit 2 gerules --rules "$GERULES_RULES" --rules "$ACME" test --min-coverage nosuch:10 "$ACME/tests" 2>err &&
	test_grep "no layer of the stack is named so" err
'

test_expect_success 'JSON: coverage.layers, one entry per layer' '
	gerules --rules "$GERULES_RULES" --rules "$ACME" test --format json "$ACME/tests" >out.json &&
	"$PYTHON3" -c "
import json, sys
d = json.load(open(\"out.json\"))
L = d[\"coverage\"][\"layers\"]
assert [x[\"name\"] for x in L] == [\"ge-base\", \"acme\"], L
assert L[1][\"branches\"] == {\"hit\": 1, \"of\": 1} and L[1][\"percent\"] == 100.0, L[1]
assert L[0][\"branches\"][\"of\"] + L[1][\"branches\"][\"of\"] == d[\"coverage\"][\"branches\"][\"of\"]
"
'

test_done
