#!/bin/sh
# t1000-check.sh: `gerules check`. Every broken rule file under t/broken/
# (one error class each) must fail with exit status 2, print nothing on
# stdout and print exactly t/broken/NAME.err on stderr; a file with several
# errors reports all of them; directories, includes, --rules, warnings.

test_description='gerules check: broken rule files, directories, includes, --rules'
. "${top_srcdir:-..}/t/test-lib.sh"

BROKEN="$top_srcdir/t/broken"
MINI="$top_srcdir/t/data/mini.rules"


test_expect_success 'there are at least 35 broken rule files, each with its .err' '
	n=0 &&
	for f in "$BROKEN"/*.rules
	do
		test -f "${f%.rules}.err" || { echo "no .err for $f"; return 1; }
		n=$((n + 1))
	done &&
	test "$n" -ge 35
'

for f in "$BROKEN"/*.rules
do
	name=$(basename "$f" .rules)
	test_expect_success "broken/$name: exit 2, nothing on stdout, the expected errors" '
		(
			cd "$BROKEN" &&
			test_must_fail --exit 2 "$GERULES" check "$name.rules" >"$TRASH/out" 2>"$TRASH/err"
		) &&
		test_must_be_empty out &&
		test_cmp "$BROKEN/$name.err" err
	'
done

test_expect_success 'a file with several errors reports all of them and counts them' '
	(
		cd "$BROKEN" &&
		test_must_fail --exit 2 "$GERULES" check multi-error.rules >/dev/null 2>"$TRASH/err"
	) &&
	test "$(grep -c "^multi-error.rules:[0-9]*:[0-9]*: error: " err)" = 7 &&
	test "$(tail -n 1 err)" = "gerules check: 7 errors"
'

test_expect_success 'the valid fixture passes without warnings' '
	"$GERULES" check "$MINI" >out 2>err &&
	test_must_be_empty err &&
	echo "mini 0.1: 1 file, 2 product lines, 3 SoCs, 5 options, 4 modes, 3 tables, 1 slot, 3 sources, 3 rules, 1 relation: ok" >expect &&
	test_cmp expect out
'

test_expect_success 'check of a directory loads every *.rules file below it, sorted' '
	mkdir -p set/sub &&
	printf "capability b \"b\";\n" >set/b.rules &&
	printf "capability a \"a\";\n" >set/sub/a.rules &&
	printf "not a rule file {\n" >set/README &&
	"$GERULES" check set >out 2>err &&
	test_must_be_empty err &&
	echo "rules: 2 files, 0 product lines, 0 SoCs, 0 options, 0 modes, 0 tables, 0 slots, 0 sources, 0 rules, 0 relations: ok" >expect &&
	test_cmp expect out
'

test_expect_success 'check of a directory reports the file that has the error' '
	mkdir -p bad &&
	printf "capability a \"a\";\n" >bad/a.rules &&
	printf "capability a \"again\";\n" >bad/b.rules &&
	test_must_fail --exit 2 "$GERULES" check bad >out 2>err &&
	test_must_be_empty out &&
	cat >expect <<-\EOF &&
	bad/b.rules:1:12: error: duplicate definition of capability '"'"'a'"'"' (first defined at bad/a.rules:1)
	 capability a "again";
	            ^
	gerules check: 1 error
	EOF
	test_cmp expect err
'

test_expect_success 'several paths are checked as one rule set' '
	printf "capability a \"a\";\n" >p1.rules &&
	printf "product p \"P\" { caps a; soc \"S\" { } }\n" >p2.rules &&
	"$GERULES" check p1.rules p2.rules >out 2>err &&
	test_must_be_empty err &&
	test_grep "^rules: 2 files, 1 product line, 1 SoC," out
'

test_expect_success 'an empty directory is an error' '
	mkdir empty &&
	test_must_fail --exit 2 "$GERULES" check empty >out 2>err &&
	test_must_be_empty out &&
	printf "error: empty: no .rules file in this directory\ngerules check: 1 error\n" >expect &&
	test_cmp expect err
'

test_expect_success 'a missing path is an error' '
	test_must_fail --exit 2 "$GERULES" check nope.rules >out 2>err &&
	test_must_be_empty out &&
	printf "error: nope.rules: cannot open: No such file or directory\ngerules check: 1 error\n" >expect &&
	test_cmp expect err
'

test_expect_success 'a file included by two files is read once' '
	mkdir inc &&
	printf "capability common \"c\";\n" >inc/common.inc &&
	printf "include \"common.inc\";\ncapability a \"a\";\n" >inc/a.rules &&
	printf "include \"common.inc\";\nproduct p \"P\" { caps common, a; soc \"S\" { } }\n" >inc/b.rules &&
	"$GERULES" check inc >out 2>err &&
	test_must_be_empty err &&
	test_grep "^rules: 3 files, 1 product line, 1 SoC," out
'

test_expect_success 'an include is relative to the including file' '
	mkdir -p rel/lib &&
	printf "capability a \"a\";\n" >rel/lib/caps.inc &&
	printf "include \"lib/caps.inc\";\nproduct p \"P\" { caps a; soc \"S\" { } }\n" >rel/top.rules &&
	"$GERULES" check rel/top.rules >out 2>err &&
	test_must_be_empty err &&
	test_grep "^rules: 2 files," out
'

test_expect_success 'a nested include is relative to the file that contains it' '
	mkdir -p nest/sub &&
	printf "include \"sub/b.rules\";\n" >nest/top.rules &&
	printf "include \"c.rules\";\n" >nest/sub/b.rules &&
	printf "capability c \"c\";\n" >nest/sub/c.rules &&
	"$GERULES" check nest/top.rules >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'an include cycle through two files is reported once' '
	printf "include \"cy2.inc\";\n" >cy1.rules &&
	printf "include \"cy1.rules\";\n" >cy2.inc &&
	test_must_fail --exit 2 "$GERULES" check cy1.rules 2>err &&
	test "$(grep -c "include cycle" err)" = 1
'

test_expect_success 'warnings do not fail check' '
	printf "option W { key \"w\"; type string; }\n" >warn.rules &&
	"$GERULES" check warn.rules >out 2>err &&
	cat >expect <<-\EOF &&
	warn.rules:1:8: warning: option W states no product support (assumed supported on every product line)
	 option W { key "w"; type string; }
	        ^
	EOF
	test_cmp expect err &&
	test_grep ": ok (1 warning)$" out
'

test_expect_success 'check without a path checks the rule set named by --rules' '
	"$GERULES" --rules "$MINI" check >out 2>err &&
	test_must_be_empty err &&
	test_grep "^mini 0.1: 1 file," out &&
	(cd "$BROKEN" && test_must_fail --exit 2 "$GERULES" --rules dup-table.rules check >/dev/null 2>"$TRASH/err") &&
	test_cmp "$BROKEN/dup-table.err" err
'

test_expect_success 'check without a path checks $GERULES_RULES' '
	GERULES_RULES="$MINI" "$GERULES" check >out 2>err &&
	test_grep "^mini 0.1: 1 file," out
'

for cmd in chips options "explain PRECISION_MODE" "options --chip Ascend910B1"
do
	test_expect_success "--rules with a broken set makes '$cmd' exit 2" '
		(cd "$BROKEN" && test_must_fail --exit 2 "$GERULES" --rules dup-option.rules $cmd >"$TRASH/out" 2>"$TRASH/err") &&
		test_must_be_empty out &&
		cp "$BROKEN/dup-option.err" expect &&
		sed "\$d" expect >expect.diags &&
		echo "gerules: the rule set dup-option.rules has errors (run '"'"'gerules check dup-option.rules'"'"')" >>expect.diags &&
		test_cmp expect.diags err
	'
done

test_expect_success 'check rejects an unknown option' '
	test_must_fail --exit 2 "$GERULES" check --strict "$MINI" >out 2>err &&
	test_must_be_empty out &&
	test_grep "^gerules check: error: unknown option '"'"'--strict'"'"'" err
'

test_expect_success 'check --help prints its usage on stdout' '
	"$GERULES" check --help >out 2>err &&
	test_must_be_empty err &&
	test_grep "^usage: gerules check" out
'

# Known checker problems (see the report of the test author): each of these
# should fail `gerules check` with exactly one error.
test_expect_success 'a table value that is not a mode cannot feed a "values mode" slot' '
	cat >tabval.rules <<-\EOF &&
	mode m1 { supported on all; }
	option A { key "a"; type enum; values "10", "00"; supported on all; }
	table t { "10": "not_a_mode", "00": "m1" }
	slot precision_mode { values mode; }
	source s for precision_mode when option A set value t[option A];
	EOF
	test_must_fail --exit 2 "$GERULES" check tabval.rules 2>err &&
	test "$(grep -c ": error: " err)" = 1
'

test_expect_success 'the default of a soc option must be a declared soc' '
	cat >socopt.rules <<-\EOF &&
	product a2 "A2" { soc "Ascend910B1" { } }
	option SOC_VERSION { key "ge.socVersion"; type soc; default "Ascend999"; supported on all; }
	EOF
	test_must_fail --exit 2 "$GERULES" check socopt.rules 2>err &&
	test "$(grep -c ": error: " err)" = 1
'

test_expect_success 'the default of a list option may only hold allowed elements' '
	cat >listdef.rules <<-\EOF &&
	option L { key "l"; type list; values "a", "b"; default "a,c"; supported on all; }
	EOF
	test_must_fail --exit 2 "$GERULES" check listdef.rules 2>err &&
	test "$(grep -c ": error: " err)" = 1
'

test_expect_success 'engine_removed_same_dtype_kept_by maps keys to lists of strings, each misuse with a caret' '
	cp -R "$top_srcdir/rules" kept &&
	"$PYTHON3" - kept/engines.rules <<-\PYEOF &&
	import sys
	p = sys.argv[1]; s = open(p).read()
	old = "    \"--oo_level\": [\"O1\"],\n    \"ge.oo.level\": [\"O1\"],"
	assert old in s
	open(p, "w").write(s.replace(old, "    \"--oo_level\": \"O1\",\n    \"ge.oo.level\": [\"O1\", 3],"))
	PYEOF
	test_must_fail --exit 2 "$GERULES" check kept 2>err &&
	test_grep "engines.rules:[0-9]*:19: error: engine_removed_same_dtype_kept_by\[\"--oo_level\"\]: expected a list of values" err &&
	test_grep "engines.rules:[0-9]*:27: error: engine_removed_same_dtype_kept_by\[\"ge.oo.level\"\]: expected a string" err &&
	test "$(grep -c "^ *\^\$" err)" = 2
'

test_expect_success 'a long and-chain does not overflow the checker stack' '
	awk "BEGIN { printf \"rule r when true\"; for (i = 0; i < 60000; i++) printf \" and true\"; print \" then note GE3001 \\\"m\\\";\" }" >long.rules &&
	test "$(wc -c <long.rules)" -gt 500000 &&
	{ "$GERULES" check long.rules >out 2>err; rc=$?; } &&
	{ test $rc -eq 0 || test $rc -eq 2; }
'

test_done
