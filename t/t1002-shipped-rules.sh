#!/bin/sh
test_description='the shipped GE rule set: checks clean and gives the support matrix of the GE docs'
. "${top_srcdir:-..}/t/test-lib.sh"

R=$GERULES_RULES

test_expect_success 'the shipped rules check clean, without a single warning' '
	"$GERULES" check "$R" >out 2>err &&
	test_must_be_empty err &&
	test_grep "^ge-base .*: ok$" out
'

test_expect_success 'bundle.rules loads the same rule set as the directory' '
	"$GERULES" check "$R/bundle.rules" >a &&
	"$GERULES" check "$R" >b &&
	sed "s/[0-9]* files*,//" a >a2 && sed "s/[0-9]* files*,//" b >b2 &&
	test_cmp a2 b2
'

# support(SOC, KIND, NAME): "true"/"false" from options --chip SOC --format json
support () {
	"$GERULES" --rules "$R" options --chip "$1" --format json >opts.json &&
	json_get opts.json "[x[\"supported\"] for x in d[\"$2\"] if x[\"name\"]==\"$3\"][0]"
}

# The GE docs performance_tuning page and GE docs product support: TILING_SCHEDULE_OPTIMIZE is supported
# on 950, A3, A2 and the Atlas inference series (310P), not on 310B, the Atlas
# training series (910) or IPV350; OP_PRECISION_MODE on every chip.
for row in \
	"Ascend950PR_9599 p950 true" \
	"Ascend910_9391 a3 true" \
	"Ascend910B1 a2 true" \
	"Ascend310B1 p310b false" \
	"Ascend310P3 p310p true" \
	"Ascend910A p910 false" \
	"Ascend035 ipv350 false"
do
	set -- $row
	test_expect_success "$1 ($2): TILING_SCHEDULE_OPTIMIZE supported=$3, OP_PRECISION_MODE supported" "
		echo $3 >expect &&
		support $1 options TILING_SCHEDULE_OPTIMIZE >actual &&
		test_cmp expect actual &&
		echo true >expect &&
		support $1 options OP_PRECISION_MODE >actual &&
		test_cmp expect actual &&
		json_get opts.json 'd[\"chip\"][\"product\"]' >product &&
		echo $2 >expect &&
		test_cmp expect product
	"
done

# The GE docs performance_tuning page: enable_float_32_execution only on A3 and A2 (and 950 in the
# GE repository); enable_hi_float_32_execution not supported in this release.
for row in \
	"Ascend910B1 true" \
	"Ascend910_9391 true" \
	"Ascend950PR_9599 true" \
	"Ascend310P3 false" \
	"Ascend310B1 false" \
	"Ascend910A false" \
	"Ascend035 false"
do
	set -- $row
	test_expect_success "$1: mode enable_float_32_execution supported=$2, enable_hi_float_32_execution never" "
		echo $2 >expect &&
		support $1 modes enable_float_32_execution >actual &&
		test_cmp expect actual &&
		echo false >expect &&
		support $1 modes enable_hi_float_32_execution >actual &&
		test_cmp expect actual
	"
done

test_expect_success 'chips lists Ascend910B1 with a 192 KiB UB' '
	"$GERULES" --rules "$R" chips --format json >chips.json &&
	echo 196608 >expect &&
	json_get chips.json "[c[\"ub_bytes\"] for c in d[\"chips\"] if c[\"soc\"]==\"Ascend910B1\"][0]" >actual &&
	test_cmp expect actual
'

test_expect_success 'the Ascend910B pitfall: without a digit it is the old training line' '
	"$GERULES" --rules "$R" options --chip Ascend910B --format json >o.json &&
	echo p910 >expect &&
	json_get o.json "d[\"chip\"][\"product\"]" >actual &&
	test_cmp expect actual
'

test_expect_success 'a SoC pattern family resolves (Ascend950DT_9581)' '
	"$GERULES" --rules "$R" options --chip Ascend950DT_9581 --format json >o.json &&
	echo p950 >expect &&
	json_get o.json "d[\"chip\"][\"product\"]" >actual &&
	test_cmp expect actual
'

test_expect_success 'no chip, option or operator name is written in C' '
	! grep -rn "Ascend\|MatMul\|Conv2D\|FusedInfer\|ALLOW_HF32\|ByNodeName" "$top_srcdir"/src/*.c "$top_srcdir"/src/*.h "$top_srcdir"/src/*.re "$top_srcdir"/grammar/*.y
'

test_expect_success 'the bf16 precision values are rejected off their product lines; the HiFloat8 ones are not' '
	"$GERULES" --rules "$R" options >out &&
	test_grep "^    \"allow_mix_precision_bf16\" supported: p950,p350,a3,a2,p310b (rejected elsewhere: the option then reads as its default)$" out &&
	test_grep "^    \"allow_fp32_to_bf16\" supported: p950,p350,a3,a2,p310b (rejected elsewhere" out &&
	test_grep "^    \"mixed_bfloat16\" supported: p950,p350,a3,a2,p310b (rejected elsewhere" out &&
	test_grep "^    \"mixed_hif8\" supported: p950,p350$" out &&
	"$GERULES" --rules "$R" explain PRECISION_MODE_V2 >ex &&
	test_grep "^  value \"mixed_bfloat16\": .* \[supported on p950,p350,a3,a2,p310b; rejected elsewhere\]$" ex &&
	test_grep "^  value \"cube_hif8\": .* \[supported on p950,p350\]$" ex
'

test_done
