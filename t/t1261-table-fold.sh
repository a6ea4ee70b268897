#!/bin/sh
# t1261-table-fold.sh: tables declared `fold lower` / `fold upper` (GE
# compares some option values after std::transform tolower / toupper). `in`
# folds the looked-up value against a set table's keys and a map table's list
# values, and only there (a map's keys and T[e] stay exact); the checker
# refuses a string in the other case, a fold word it does not know, and a
# fold on `extend table`; explain and diff show the fold.
test_description='rule language: fold lower / fold upper tables'
. "$(dirname "$0")/test-lib.sh"

MINI="$top_srcdir/t/data/mini.rules"
GRAPH="$top_srcdir/rules/tests/graphs/ops.json"

test_expect_success 'setup: the mini rule set and three tables with rules reading them' '
	cp "$MINI" r.rules &&
	cat >>r.rules <<-\EOF
	table low_set "set, lower" fold lower { "true", "false" }
	table up_map fold upper { "fmt": ["NCHW", "ND"] }
	table exact_map { "fmt": ["NCHW", "ND"] }
	rule fold_set for each option
	    when option.key == "ge.exec.precision_mode" and option.value in low_set
	    then warning GE9001 "in low_set: {option.value}";
	rule fold_map for each option
	    when option.key == "ge.exec.precision_mode" and option.value in up_map["fmt"]
	    then warning GE9002 "in up_map: {option.value}";
	rule exact for each option
	    when option.key == "ge.exec.precision_mode" and option.value in exact_map["fmt"]
	    then warning GE9003 "in exact_map: {option.value}";
	EOF
'

# fired VALUE: the codes of GE900x the rules give for precision_mode=VALUE
fired () {
	gerules --rules r.rules eval "$GRAPH" --chip Ascend910B1 -o ge.exec.precision_mode="$1" >out 2>err
	sed -n "s/.*\\[\\(GE900[0-9]\\)\\].*/\\1/p" out | sort | tr "\\n" " " && echo
}

test_expect_success 'in folds the value: a set table of fold lower takes TrUe' '
	echo "GE9001 " >expect && fired TrUe >actual && test_cmp expect actual
'

test_expect_success 'in folds the value: a list value of fold upper takes nchw, the exact table does not' '
	echo "GE9002 " >expect && fired nchw >actual && test_cmp expect actual &&
	echo "GE9002 GE9003 " >expect && fired NCHW >actual && test_cmp expect actual &&
	echo >expect && fired nchx >actual && test_cmp expect actual
'

test_expect_success 'explain shows the fold, in text and JSON' '
	gerules --rules r.rules explain up_map >out &&
	test_grep "^  fold upper: .in. compares a value with its letters in upper case$" out &&
	gerules --rules r.rules explain up_map --format json >out.json &&
	json_get out.json "d[\"matches\"][0][\"fold\"]" >actual &&
	echo upper >expect && test_cmp expect actual &&
	gerules --rules r.rules explain exact_map --format json >out.json &&
	json_get out.json "\"fold\" in d[\"matches\"][0]" >actual &&
	echo false >expect && test_cmp expect actual
'

test_expect_success 'the checker refuses a string in the other case and unknown fold words' '
	cat >e.rules <<-\EOF &&
	table t "d" fold lower { "k": ["ok", "TRUE"] }
	table s fold upper { "nd" }
	table u fold sideways { "a" }
	table v "d" flod lower { "a" }
	EOF
	cat >expect <<-\EOF &&
	e.rules:1:38: error: table '"'"'t'"'"' folds to lower case: "TRUE" can never match (write it in lower case)
	 table t "d" fold lower { "k": ["ok", "TRUE"] }
	                                      ^
	e.rules:2:22: error: table '"'"'s'"'"' folds to upper case: "nd" can never match (write it in upper case)
	 table s fold upper { "nd" }
	                      ^
	e.rules:3:14: error: table '"'"'u'"'"': '"'"'fold sideways'"'"' is neither '"'"'fold lower'"'"' nor '"'"'fold upper'"'"'
	 table u fold sideways { "a" }
	              ^
	e.rules:4:13: error: unexpected '"'"'flod'"'"' after the name of table '"'"'v'"'"' (a table takes a description and '"'"'fold lower'"'"' or '"'"'fold upper'"'"')
	 table v "d" flod lower { "a" }
	             ^
	gerules check: 4 errors
	EOF
	test_must_fail --exit 2 gerules check e.rules >out 2>err &&
	test_must_be_empty out &&
	test_cmp expect err
'

test_expect_success 'layers: extend keeps the fold (and its case rule), override changes it, diff shows it' '
	mkdir b0 l1 l2 &&
	printf "bundle \"b0\" { version \"1.0\"; }\ntable t \"d\" fold lower { \"a\" }\n" >b0/bundle.rules &&
	printf "bundle \"l1\" { version \"1.0\"; extends \"b0\"; }\nextend table t fold lower { \"b\" }\n" >l1/bundle.rules &&
	test_must_fail --exit 2 gerules --rules b0 --rules l1 check >out 2>err &&
	test_grep "extend table t adds entries only: the table keeps its own fold" err &&
	printf "bundle \"l1\" { version \"1.0\"; extends \"b0\"; }\nextend table t { \"B\" }\n" >l1/bundle.rules &&
	test_must_fail --exit 2 gerules --rules b0 --rules l1 check >out 2>err &&
	test_grep "table .t. folds to lower case: \"B\" can never match" err &&
	printf "bundle \"l2\" { version \"1.0\"; extends \"b0\"; }\noverride table t \"d\" { \"B\" }\n" >l2/bundle.rules &&
	gerules diff b0 b0:l2 >out &&
	test_grep "^    fold: lower -> none$" out
'

test_done
