#!/bin/sh
# t1121-check-limits.sh: the checker on pathological rule files (issue 10
# class 8): 80,000 errors are reported as the first 100 then one "too many
# errors" note (each snippet from a line index built once per file, so the
# run is linear; the test asserts the output, never the time), and nesting
# too deep for the parser or for the expression limit is a located error.
test_description='gerules check: error cap, line index, located "nested too deeply"'
. "$(dirname "$0")/test-lib.sh"

test_expect_success '80,000 duplicate definitions: the first 100 errors, then one note, exit 2' '
	awk "BEGIN { for (i = 0; i <= 80000; i++) print \"hardware ai_cores \\\"x\\\";\" }" >dup.rules &&
	test $(wc -l <dup.rules) = 80001 &&
	test_must_fail --exit 2 gerules check dup.rules >out 2>err &&
	test_must_be_empty out &&
	test $(grep -c ": error: duplicate definition of hardware property" err) = 100 &&
	test $(grep -c "^ hardware ai_cores" err) = 100 &&
	test_grep "^dup.rules:2:10: error: duplicate definition of hardware property .ai_cores. (first defined at dup.rules:1)$" err &&
	test_grep "^dup.rules:101:10: error: " err &&
	! grep "^dup.rules:102:" err &&
	tail -n 2 err >tail &&
	cat >expect <<-\EOF &&
	note: too many errors; stopping (only the first 100 are reported)
	gerules check: 100 errors
	EOF
	test_cmp expect tail &&
	test $(wc -l <err) = 302
'

test_expect_success 'the cap also counts the errors of the expression checker' '
	awk "BEGIN { for (i = 0; i < 150; i++) print \"rule r\" i \" when option NOPE_\" i \" set then error E1 \\\"x\\\";\" }" >many.rules &&
	test_must_fail --exit 2 gerules check many.rules >out 2>err &&
	test $(grep -c ": error: " err) = 100 &&
	test $(grep -c "^note: too many errors; stopping" err) = 1
'

test_expect_success 'fewer than 100 errors: all reported, no note' '
	head -n 100 dup.rules >dup99.rules &&
	test_must_fail --exit 2 gerules check dup99.rules >out 2>err &&
	test $(grep -c ": error: " err) = 99 &&
	! grep "too many errors" err
'

# deep FILE N OPEN MIDDLE CLOSE: a rule whose condition is N times OPEN,
# then MIDDLE, then N times CLOSE, on line 3 of FILE
deep () {
	awk -v n="$2" -v o="$3" -v m="$4" -v c="$5" "BEGIN {
		printf \"# nesting\n\n\"; s = \"rule r when \"
		for (i = 0; i < n; i++) s = s o; s = s m; for (i = 0; i < n; i++) s = s c
		print s \" then error E1 \\\"x\\\";\" }" >"$1"
}

test_expect_success 'parentheses deeper than the parser: a located "nested too deeply"' '
	deep paren.rules 2000 "(" "true" ")" &&
	test_must_fail --exit 2 gerules check paren.rules >out 2>err &&
	head -n 1 err >first &&
	echo "paren.rules:3:1007: error: nested too deeply (the parser holds at most 1000 open constructs)" >expect &&
	test_cmp expect first &&
	sed -n 3p err | grep "^ *\\^$"
'

test_expect_success 'an expression deeper than the evaluator allows: a located "nested too deeply"' '
	deep not.rules 600 "not " "true" "" &&
	test_must_fail --exit 2 gerules check not.rules >out 2>err &&
	head -n 1 err >first &&
	echo "not.rules:3:361: error: expression nested too deeply (more than 512 levels)" >expect &&
	test_cmp expect first
'

test_expect_success 'inside a message template too' '
	awk "BEGIN { s = \"rule r when true then error E1 \\\"x {\"; for (i = 0; i < 3000; i++) s = s \"(\";
		s = s \"1\"; for (i = 0; i < 3000; i++) s = s \")\"; print \"\"; print s \"}\\\";\" }" >tmpl.rules &&
	test_must_fail --exit 2 gerules check tmpl.rules >out 2>err &&
	test_grep "^tmpl.rules:2:[0-9][0-9]*: error: nested too deeply" err
'

test_done
