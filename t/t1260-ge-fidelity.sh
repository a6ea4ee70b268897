#!/bin/sh
test_description='the shipped rules match GE code and data: impl_mode tables, platform files, docs-versus-code'
. "${top_srcdir:-..}/t/test-lib.sh"

R=$GERULES_RULES
D=$top_srcdir/t/data

# The four built-in impl_mode tables are the files of CANN 8.1.RC1
# (github.com/leideng/CANN-8.1.RC1 @4332a013 Ascend/ascend-toolkit/8.1.RC1/opp/
# built-in/op_impl/ai_core/tbe/impl_mode/*.ini), line for line, in file order.
# t/data/cann-8.1.RC1-impl_mode/ holds those files (trailing newline normalised).
for f in high_performance high_precision high_precision_for_all high_performance_for_all
do
	test_expect_success "table impl_$f is $f.ini of CANN 8.1.RC1 line for line" "
		\"\$GERULES\" --rules \"\$R\" explain impl_$f >out &&
		sed -n 's/^  \"\\([^\"]*\\)\": \"\\([^\"]*\\)\"\$/\\1=\\2/p' out >actual &&
		test_cmp \"\$D/cann-8.1.RC1-impl_mode/$f.ini\" actual
	"
done

test_expect_success 'ReduceLogSum* and ReduceMeanWithCount are in every table; EmbeddingDenseGrad only in *_for_all' '
	for t in impl_high_performance impl_high_precision impl_high_precision_for_all impl_high_performance_for_all; do
		"$GERULES" --rules "$R" explain $t >$t.out || return 1
		for op in ReduceLogSum ReduceLogSumExp ReduceMeanWithCount; do
			test_grep "^  \"$op\": " $t.out || return 1
		done
	done &&
	! grep "EmbeddingDenseGrad" impl_high_performance.out &&
	! grep "EmbeddingDenseGrad" impl_high_precision.out &&
	! grep "RotaryMulGrad" impl_high_precision_for_all.out
'

# Every SoC platform file of hicann/runtime @681ef7610
# src/platform/platform_config/{cann,cann-dev}/ is a chip with that file's numbers.
test_expect_success 'gerules chips lists every SoC of the runtime platform files with its numbers' '
	"$GERULES" --rules "$R" chips --format json >chips.json &&
	python3 -c "
import json, sys
chips = {c[\"soc\"]: c for c in json.load(open(\"chips.json\"))[\"chips\"] if not c[\"pattern\"]}
keys = [\"ai_cores\", \"cube_cores\", \"vector_cores\", \"ai_cpus\", \"ub_bytes\", \"l1_bytes\",
        \"l0a_bytes\", \"l0b_bytes\", \"l0c_bytes\", \"l2_bytes\", \"cube_mhz\", \"prefetch_num\"]
bad = n = 0
for line in open(sys.argv[1]):
    if line.startswith(\"#\"): continue
    f = line.split(); n += 1
    c = chips.get(f[0])
    if c is None: print(\"missing\", f[0]); bad += 1; continue
    got = [str(c[k]) for k in keys]
    if got != f[1:13]: print(f[0], \"has\", got, \"want\", f[1:13]); bad += 1
    if (\"ffts_plus\" in c[\"caps\"]) != (f[13] == \"ffts-plus\"): print(f[0], \"ffts_plus wrong\"); bad += 1
    if \"family_defaults\" in c[\"caps\"]: print(f[0], \"has a platform file but family_defaults\"); bad += 1
print(n, \"files\")
sys.exit(1 if bad or n != 67 else 0)
" "$D/platform-config-socs.txt" >out &&
	test_grep "^67 files$" out
'

test_expect_success 'the 950 spellings are exact: 95A1 with an upper-case A, the x-suffixed names, the Ascend350 line' '
	for soc in Ascend950DT_95A1 Ascend950DT_95A2 Ascend950PR_957bx Ascend950DT_9581x Ascend950DT_9582x; do
		json_get chips.json "[c[\"product\"] for c in d[\"chips\"] if c[\"soc\"]==\"$soc\"][0]" >p &&
		echo p950 >expect && test_cmp expect p || return 1
	done &&
	for soc in Ascend350_354f Ascend350_355e; do
		json_get chips.json "[c[\"product\"] for c in d[\"chips\"] if c[\"soc\"]==\"$soc\"][0]" >p &&
		echo p350 >expect && test_cmp expect p || return 1
	done
'

# An SoC only a family pattern matches: a warning that its numbers are defaults.
test_expect_success 'Ascend950PR_9579 has its own 28 cores and no family warning' '
	"$GERULES" --rules "$R" eval "$top_srcdir/rules/tests/graphs/ops.json" --chip Ascend950PR_9579 --format json >o.json &&
	json_get o.json "[x[\"code\"] for x in d[\"diagnostics\"] if x[\"code\"]==\"GE1009\"]" >codes &&
	echo "[]" >expect && test_cmp expect codes
'

for soc in Ascend950PR_9570 Ascend950DT_95a1 Ascend910_9399 Ascend350_356a
do
	test_expect_success "$soc is matched only by a family pattern: GE1009 warning" "
		\"\$GERULES\" --rules \"\$R\" eval \"\$top_srcdir/rules/tests/graphs/ops.json\" --chip $soc >out 2>err &&
		test_grep 'warning: $soc is not one of the SoCs whose platform files this rule set lists.* \\[GE1009\\]\$' out &&
		test_grep 'are family defaults' out
	"
done

# doc/ge-fidelity.md maps GE's own unit tests to golden cases (t/golden, or
# rules/tests for the rule set's own): every case it
# names exists and cites the test by name and file.
test_expect_success 'every golden case of the GE unit-test table exists and names its test' '
	python3 - "$top_srcdir" <<-\EOF
	import glob, re, sys
	top = sys.argv[1]
	bad = n = 0
	for line in open(top + "/doc/ge-fidelity.md"):
	    m = re.match(r"\| `([^`]+)` \| (\w+) \(:\d+\) \| `(t/golden|rules/tests)/(\d+)-\*\.case`", line)
	    if not m: continue
	    n += 1
	    files = glob.glob("%s/%s/%s-*.case" % (top, m.group(3), m.group(4)))
	    if len(files) != 1: print("no case", m.group(3)); bad += 1; continue
	    head = "".join(l for l in open(files[0]) if l.startswith("#"))
	    if m.group(2) not in head or m.group(1).split("/")[-1] not in head:
	        print(files[0], "does not name", m.group(2), m.group(1)); bad += 1
	print(n, "rows")
	sys.exit(1 if bad or n < 25 else 0)
	EOF
'

# Rows whose case is a test script (t/tNNNN-*.sh, for what golden cases
# cannot run, such as `gerules atc`): the script exists and names the test
# with its file and line.
test_expect_success 'every test script of the GE unit-test table exists and names its test' '
	python3 - "$top_srcdir" <<-\EOF
	import re, sys
	top = sys.argv[1]
	bad = n = 0
	for line in open(top + "/doc/ge-fidelity.md"):
	    m = re.match(r"\| `([^`]+)` \| (\w+) \(:(\d+)\) \| `(t/t\d+-[\w-]+\.sh)`", line)
	    if not m: continue
	    n += 1
	    try: text = open("%s/%s" % (top, m.group(4))).read()
	    except OSError: print("no script", m.group(4)); bad += 1; continue
	    if "%s (%s:%s)" % (m.group(2), m.group(1).split("/")[-1], m.group(3)) not in text:
	        print(m.group(4), "does not name", m.group(2), m.group(1), m.group(3)); bad += 1
	print(n, "rows")
	sys.exit(1 if bad or n == 0 else 0)
	EOF
'

test_done
