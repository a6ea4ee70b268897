#!/bin/sh
# t1131-conditions.sh: named conditions, `condition NAME(P, ...) = EXPR;`
# (doc/rule-language.md, named conditions; src/lang/check_cond.c). The
# checker inlines each call; what it refuses is one located error with the
# source line and caret, exit 2: an unknown name (with a suggestion), a wrong
# number of arguments, a name defined twice, a parameter named twice, a
# condition that calls itself directly or through another, an argument a
# binder of the body would capture, and a later layer redefining a condition
# without `override`. A condition used in a custom rule file decides exactly
# as the expression written out does, and changing its body changes the
# decision; explain prints the call, diff the inlined body (so a changed
# condition shows in every rule that uses it).

test_description='named conditions: inlining and located checker errors'
. "${top_srcdir:-..}/t/test-lib.sh"

MINI="$top_srcdir/t/data/mini.rules"
HOOKS="$top_srcdir/t/data/hooks"
L=$(($(wc -l <"$MINI") + 1))    # the line the statements under test start on

# bad NAME EXPECTED: the mini rule set plus the statements on stdin, in
# NAME.rules; `gerules check` gives exactly EXPECTED and "1 error", exit 2
bad () {
	{ cat "$MINI"; cat; } >"$1.rules" &&
	input_error "$1.rules:$2\ngerules check: 1 error" check "$1.rules"
}

test_expect_success 'conditions calling conditions, an unused parameter, a node argument: checks clean' '
	{ cat "$MINI" && cat <<-\EOF; } >good.rules &&
	condition is_mm(n) = n.type in matmul_ops;
	condition wide_mm(n, k, unused) = is_mm(n) and n.inputs >= k;
	rule wide for each node when wide_mm(node, 2, "x") and not is_mm(node.input[0].producer)
	    then note GE3901 "{count} wide MatMul node(s) such as {node.name}" once;
	EOF
	gerules check good.rules >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'an unknown condition, with the nearest name' '
	bad unk "$((L + 1)):27: error: unknown condition '"'"'is_nm'"'"'; did you mean '"'"'is_mm'"'"'?" <<-\EOF
	condition is_mm(n) = n.type in matmul_ops;
	rule r for each node when is_nm(node) then note GE3901 "x";
	EOF
'

test_expect_success 'a wrong number of arguments' '
	bad argc "$((L + 1)):27: error: condition '"'"'is_mm'"'"' takes 1 argument, not 2" <<-\EOF
	condition is_mm(n) = n.type in matmul_ops;
	rule r for each node when is_mm(node, 1) then note GE3901 "x";
	EOF
'

test_expect_success 'a condition defined twice' '
	bad dup "$((L + 1)):11: error: duplicate definition of condition '"'"'is_mm'"'"' (first defined at dup.rules:$L)" <<-\EOF
	condition is_mm(n) = n.type in matmul_ops;
	condition is_mm(n) = n.type == "MatMul";
	EOF
'

test_expect_success 'a parameter named twice' '
	bad twice "$L:20: error: condition '"'"'twice'"'"' names parameter '"'"'n'"'"' twice" <<-\EOF
	condition twice(n, n) = true;
	EOF
'

test_expect_success 'a condition that calls itself' '
	bad rec "$L:38: error: condition '"'"'loop'"'"' calls itself (a condition cannot be recursive)" <<-\EOF
	condition loop(n) = n.inputs > 1 and loop(n);
	rule r for each node when loop(node) then note GE3901 "x";
	EOF
'

test_expect_success 'a condition that calls itself through another' '
	bad rec2 "$((L + 1)):25: error: condition '"'"'pong'"'"' calls '"'"'ping'"'"', which calls '"'"'pong'"'"' again (a condition cannot be recursive)" <<-\EOF
	condition ping(n) = n.inputs > 1 and pong(n);
	condition pong(n) = not ping(n);
	rule r for each node when ping(node) then note GE3901 "x";
	EOF
'

test_expect_success 'an argument that a binder of the body would capture' '
	bad cap "$((L + 1)):53: error: this argument uses '"'"'i'"'"', which condition '"'"'some'"'"' binds where it uses '"'"'k'"'"' (rename the variable)" <<-\EOF
	condition some(n, k) = any i in [0, 1] : n.inputs > k;
	rule r for each node when any i in [2] : some(node, i) then note GE3901 "x";
	EOF
'

test_expect_success 'the body is type-checked where it is inlined: an error points into the body' '
	bad type "$L:20: error: an operand of an ordering comparison must be an int, not a string" <<-\EOF
	condition big(n) = n.name > 3;
	rule r for each node when big(node) then note GE3901 "x";
	EOF
'

test_expect_success 'conditions that double at each level stop at the node bound, located' '
	{ echo "condition c0(n) = n.inputs > 1;" &&
	  for i in $(seq 1 40); do echo "condition c$i(n) = c$((i - 1))(n) or c$((i - 1))(n);"; done &&
	  echo "rule r for each node when c40(node) then note GE3901 \"x\";"; } >exp.in &&
	bad exp "$((L + 1)):19: error: inlining condition '"'"'c0'"'"' here makes the rules more than 4194304 expression nodes (do conditions call each other too often?)" <exp.in
'

test_expect_success 'conditions nested past the depth bound, located' '
	{ echo "condition c0(n) = n.inputs > 1;" &&
	  for i in $(seq 1 600); do echo "condition c$i(n) = not c$((i - 1))(n);"; done &&
	  echo "rule r for each node when c600(node) then note GE3901 \"x\";"; } >deep.in &&
	bad deep "$((L + 345)):25: error: expression nested too deeply once its conditions are inlined (more than 512 levels)" <deep.in
'

test_expect_success 'a layer redefines a shipped condition only with override' '
	mkdir -p site && cat >site/site.rules <<-\EOF &&
	bundle "site" { version "1.0.0"; extends "ge-base"; }
	override condition constant_input(i) = node.input[i].producer.type in const_ops;
	EOF
	gerules check "$top_srcdir/rules" site >out 2>err &&
	mkdir -p site2 && cat >site2/site.rules <<-\EOF &&
	bundle "site2" { version "1.0.0"; extends "ge-base"; }
	condition constant_input(i) = node.input[i].producer.type in const_ops;
	EOF
	test_must_fail --exit 2 gerules check "$top_srcdir/rules" site2 2>err &&
	test_grep "site.rules:2:11: error: condition constant_input is already declared by bundle .ge-base. (.*partition.rules:[0-9]*); a layer changes it only with .override condition constant_input \.\.\.." err
'

# The hooks test rule set decides tiling = "device" (rule sink) when an
# input of tiling_inputs is connected and not constant: fia reads a Cast,
# fia2 a Const (t/data/hooks/g.json).
test_expect_success 'a condition decides exactly as the expression written out' '
	gerules --rules "$HOOKS/mini.rules" eval "$HOOKS/g.json" --chip Ascend910B1 -o TILING_SCHEDULE_OPTIMIZE=1 --all-nodes --format json >plain.json &&
	sed -e "s/not (node.input\[i\].producer.type in const_ops)/not constant_in(i)/" \
	    -e "\$a condition constant_in(j) = node.input[j].producer.type in const_ops;" "$HOOKS/mini.rules" >cond.rules &&
	test_grep "not constant_in(i)" cond.rules &&
	gerules --rules cond.rules eval "$HOOKS/g.json" --chip Ascend910B1 -o TILING_SCHEDULE_OPTIMIZE=1 --all-nodes --format json >cond.json &&
	sed "s|$HOOKS/mini.rules|RULES|g" plain.json >a && sed "s|cond.rules|RULES|g" cond.json >b &&
	test_cmp a b &&
	gerules --rules cond.rules eval "$HOOKS/g.json" --chip Ascend910B1 -o TILING_SCHEDULE_OPTIMIZE=1 --all-nodes >out &&
	test_grep "^fia  *FusedInferAttentionScore  *-  *device (sink)" out &&
	test_grep "^fia2  *FusedInferAttentionScore  *-  *compile (stat)" out
'

test_expect_success 'changing the body of the condition changes the decision' '
	sed "s/in const_ops;\$/in const_ops or node.input[j].producer.type == \"Cast\";/" cond.rules >cast.rules &&
	test_grep "== \"Cast\";" cast.rules &&
	gerules --rules cast.rules eval "$HOOKS/g.json" --chip Ascend910B1 -o TILING_SCHEDULE_OPTIMIZE=1 --all-nodes >out &&
	test_grep "^fia  *FusedInferAttentionScore  *-  *compile (stat)" out
'

# The evaluator keeps a pure condition's value per node and arguments
# (gr_eval_cond's memo): calls with other arguments, in other rules, under
# `not`, and inside a quantifier that must still bind its witness, decide as
# the expressions written out do. fia2's input 5 is the Const c, fia's is a Cast.
test_expect_success 'the same condition with other arguments in several rules: as written out' '
	{ cat "$HOOKS/mini.rules" && cat <<-\EOF; } >memo.rules &&
	condition from_const(k) = node.input[k].connected and node.input[k].producer.type in const_ops;
	rule c5 for each node when node.type == "FusedInferAttentionScore" and from_const(5) then note GE3901 "{node.name}: input 5 is constant";
	rule c0 for each node when node.type == "FusedInferAttentionScore" and not from_const(0) and from_const(5) then note GE3902 "{node.name}: input 0 is not, input 5 is";
	rule cany for each node when node.type == "FusedInferAttentionScore" and any i in [0, 1, 5] : from_const(i) then note GE3903 "{node.name}: input {i} is constant";
	rule call for each node when node.type == "FusedInferAttentionScore" and all i in [0, 5] : from_const(i) then note GE3904 "{node.name}: inputs 0 and 5 are constant";
	EOF
	sed -e "/^condition from_const/d" -e "s/from_const(\([^)]*\))/(node.input[\1].connected and node.input[\1].producer.type in const_ops)/g" memo.rules >plain.rules &&
	! grep from_const plain.rules &&
	gerules --rules memo.rules eval "$HOOKS/g.json" --chip Ascend910B1 -o TILING_SCHEDULE_OPTIMIZE=1 --all-nodes >memo.out &&
	gerules --rules plain.rules eval "$HOOKS/g.json" --chip Ascend910B1 -o TILING_SCHEDULE_OPTIMIZE=1 --all-nodes >plain.out &&
	sed "s/memo.rules/RULES/" memo.out >a && sed "s/plain.rules/RULES/" plain.out >b &&
	test_cmp a b &&
	grep "note: " memo.out | sed "s/.*note: //" >notes &&
	cat >expect <<-\EOF &&
	fia2: input 5 is constant [GE3901]  (node fia2)
	fia2: input 0 is not, input 5 is [GE3902]  (node fia2)
	fia2: input 5 is constant [GE3903]  (node fia2)
	EOF
	test_cmp expect notes
'

test_expect_success 'explain shows the call as the rule writes it; diff compares what is evaluated' '
	gerules --rules cond.rules explain sink >out &&
	test_grep "^  when .*node.input\[i\].connected and not constant_in(i))\$" out &&
	gerules diff cond.rules cast.rules >out &&
	test_grep "^~ source sink: branch 1 condition .*and not node.input\[i\].producer.type in const_ops) -> .*not (node.input\[i\].producer.type in const_ops or node.input\[i\].producer.type == \"Cast\"))\$" out &&
	test_grep "^0 added, 0 removed, 1 changed\$" out
'

test_done
