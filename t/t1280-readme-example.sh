#!/bin/sh
test_description='the README'"'"'s first example: the command it gives prints the output it shows'
. "${top_srcdir:-..}/t/test-lib.sh"

README=$top_srcdir/README.md

# The first ```sh block ends with the gerules command (after the install and
# build steps); the first ```text block is what the README says it prints.
# The rule-set path of the first output line depends on where the tree is.
test_expect_success 'the README has its first command and its output' '
	awk "/^\`\`\`sh\$/{n++; next} /^\`\`\`/{if(n==1) exit} n==1" "$README" >block &&
	sed -n "s|.*&& \\(\\./src/gerules --rules rules eval .*\\)\$|\\1|p" block >cmd &&
	test "$(wc -l <cmd)" -eq 1 &&
	awk "/^\`\`\`text\$/{t=1; next} /^\`\`\`/{if(t) exit} t" "$README" >expect.raw &&
	test -s expect.raw
'

test_expect_success 'the command prints exactly the output the README shows' '
	args=$(sed "s|^\\./src/gerules ||" cmd) &&
	(cd "$top_srcdir" && eval "\"\$GERULES\" $args") >actual.raw &&
	sed "1s|(/.*/rules)\$|(RULES)|" expect.raw >expect &&
	sed "1s|(/.*)\$|(RULES)|" actual.raw >actual &&
	test_cmp expect actual
'

test_expect_success 'the example does not contradict itself: no ALLOW_HF32 change without its "no effect" under the warning' '
	test_grep "warning: ALLOW_HF32=true has no effect while PRECISION_MODE is force_fp16" expect &&
	grep -- "-> enable_hi_float_32_execution (ALLOW_HF32)" expect >rows &&
	test "$(wc -l <rows)" -eq 15 &&
	# MatMulV2 has dtype lists (rules/oplib/dynamic_format.rules): the reason is its decided dtype
	! grep -v "(ALLOW_HF32) (no effect: the node computes in float16 (precision_mode))" rows &&
	test_grep "^MatMulV2 x14 " expect &&
	test_grep "^34 nodes differ from the defaults" expect
'

test_done
