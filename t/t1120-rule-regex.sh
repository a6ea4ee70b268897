#!/bin/sh
# t1120-rule-regex.sh: regular expressions in rule files (issue 10 class 7),
# through the CLI: the checker refuses back-references (exponential in
# glibc), nested bounded repetition (memory) and unbalanced groups, each at
# the construct with a caret and exit 2; an unbalanced `x)|(.*`, which once
# matched every chip under ^(...)$ wrapping, is refused; and ordinary soc and
# option patterns still match exactly their whole subject.
test_description='rule-file regular expressions: the safe subset, anchoring on the match span'
. "$(dirname "$0")/test-lib.sh"

MINI="$top_srcdir/t/data/mini.rules"

# soc_rules PATTERN: a one-product rule file whose only soc is /PATTERN/
soc_rules () {
	printf 'hardware ai_cores "AI cores";\nproduct a2 "A2" {\n    soc /%s/ { ai_cores 20; }\n}\n' "$1" >r.rules
}

# check_error: `gerules check r.rules` exits 2, prints nothing on stdout and
# exactly the file `expect` on stderr.
check_error () {
	gerules check r.rules >out 2>err
	rc=$?
	if test $rc -ne 2; then echo "exit status $rc, expected 2"; sed 's/^/| /' err; return 1; fi
	test_must_be_empty out &&
	test_cmp expect err
}

test_expect_success 'a back-reference is refused at the backslash' '
	soc_rules "Ascend(a)\\1" &&
	cat >expect <<-\EOF &&
	r.rules:3:19: error: invalid pattern /Ascend(a)\1/: back-references (\1 ... \9) are not supported: they make matching exponential
	     soc /Ascend(a)\1/ { ai_cores 20; }
	                   ^
	gerules check: 1 error
	EOF
	check_error
'

test_expect_success 'nested bounded repetition is refused at the outer bound' '
	soc_rules "((a{1,100}){1,100}){1,100}" &&
	cat >expect <<-\EOF &&
	r.rules:3:21: error: invalid pattern /((a{1,100}){1,100}){1,100}/: nested bounded repetition (a {n,m} applied to a group that holds one) is not supported
	     soc /((a{1,100}){1,100}){1,100}/ { ai_cores 20; }
	                     ^
	gerules check: 1 error
	EOF
	check_error
'

test_expect_success 'an option pattern goes through the same check' '
	cat >r.rules <<-\EOF &&
	option OUT_NODES {
	    key "ge.outputNodes";
	    type string;
	    pattern /x\/(a{2}b){3}/;
	    supported on all;
	}
	EOF
	cat >expect <<-\EOF &&
	r.rules:4:24: error: invalid pattern /x/(a{2}b){3}/: nested bounded repetition (a {n,m} applied to a group that holds one) is not supported
	     pattern /x\/(a{2}b){3}/;
	                        ^
	gerules check: 1 error
	EOF
	check_error
'

test_expect_success 'x)|(.* is refused as unbalanced, so it cannot match every chip' '
	soc_rules "x)|(.*" &&
	cat >expect <<-\EOF &&
	r.rules:3:11: error: invalid pattern /x)|(.*/: unmatched '"'"')'"'"'
	     soc /x)|(.*/ { ai_cores 20; }
	           ^
	gerules check: 1 error
	EOF
	check_error &&
	test_must_fail --exit 2 gerules --rules r.rules options --chip Anything >out 2>err &&
	test_must_be_empty out &&
	test_grep "unmatched" err
'

test_expect_success 'a patterned soc matches its chips, and only whole names' '
	"$GERULES" --rules "$MINI" options --chip Ascend910B3 >out 2>err &&
	test_must_be_empty err &&
	test_grep "^chip Ascend910B3: Atlas A2 series (a2)" out &&
	for chip in Ascend910B3x xAscend910B3 Ascend910B Ascend910B5; do
		test_must_fail --exit 2 "$GERULES" --rules "$MINI" options --chip $chip >out 2>err &&
		test_grep "unknown chip '"'"'$chip'"'"'" err || return 1
	done
'

test_expect_success 'an option pattern is anchored as a whole (leftmost-longest), not per branch' '
	cp "$MINI" m.rules &&
	cat >>m.rules <<-\EOF &&
	option OUT_NODES {
	    key "ge.outputNodes";
	    type string;
	    pattern /a|ab/;
	    default "ab";
	    supported on all;
	}
	EOF
	printf "%s\n" "{\"graph\": [{\"name\": \"g\", \"op\": [{\"name\": \"a\", \"type\": \"Data\"}]}]}" >ok.json &&
	for v in a ab ba abc aab; do
		"$GERULES" --rules m.rules eval ok.json --chip Ascend910B3 -o OUT_NODES=$v --format json >out.json 2>err &&
		json_get out.json "[o[\"effective\"] for o in d[\"options\"] if o[\"name\"]==\"OUT_NODES\"][0]" >>got || return 1
	done &&
	printf "true\ntrue\nfalse\nfalse\nfalse\n" >expect &&
	test_cmp expect got
'

test_expect_success 'a default outside the pattern is a located error' '
	cp "$MINI" r.rules &&
	cat >>r.rules <<-\EOF &&
	option OUT_NODES {
	    key "ge.outputNodes";
	    type string;
	    pattern /a|ab/;
	    default "abc";
	    supported on all;
	}
	EOF
	line=$(grep -n "default \"abc\"" r.rules | cut -d: -f1) &&
	gerules check r.rules >out 2>err; test $? = 2 &&
	test_grep "^r.rules:$line:13: error: bad default '"'"'abc'"'"' for option OUT_NODES: expected text matching /a|ab/" err
'

test_expect_success 'the shipped rules still check, and their patterned socs resolve' '
	gerules check "$GERULES_RULES" >out 2>err &&
	test_grep ": ok$" out &&
	gerules options --chip Ascend910_9391 >out 2>err &&
	test_grep "^chip Ascend910_9391:" out
'

test_done
