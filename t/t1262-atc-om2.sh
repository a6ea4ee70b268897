#!/bin/sh
# t1262-atc-om2.sh: `gerules atc --mode=7` (OM2) refuses the flags ATC's
# CheckFlags refuses in that mode (hicann/ge @ffdcbc9f7 api/atc/main_impl.cc:
# 133-154 kOm2UnsuppotedFlag, 839-858 CheckOm2UserOptionsValid, 1009-1013),
# given with a value or empty, with E10001 and ATC's reason; the same flags
# pass in other modes, and other flags pass in mode 7 (rules/atc.rules,
# table atc_mode_refused_flags).
test_description='gerules atc --mode=7: the flags OM2 mode refuses'
. "$(dirname "$0")/test-lib.sh"

ex=$top_srcdir/examples
model="--model=$ex/llm_decoder.onnx --framework=5 --soc_version=Ascend910B1 --output=out"

test_expect_success '--mode=7 --om=x is refused with E10001 (not supported in om2 mode)' '
	test_must_fail --exit 2 gerules atc $model --mode=7 --om=x >out 2>err &&
	test_grep "Value x for parameter om is invalid. Reason: this option is not supported in om2 mode. \[GE E10001\]" err
'

test_expect_success 'a refused flag given empty is refused too (it is still a user option)' '
	test_must_fail --exit 2 gerules atc $model --mode=7 --enable_attr_compression= >out 2>err &&
	test_grep "for parameter enable_attr_compression is invalid. Reason: this option is not supported in om2 mode" err
'

test_expect_success 'the first refused flag of the command line is named' '
	test_must_fail --exit 2 gerules atc $model --mode=7 --virtual_type=0 --static_model_ops_lower_limit=4 >out 2>err &&
	test_grep "parameter virtual_type is invalid" err
'

test_expect_success 'other flags pass in mode 7, and the refused ones pass in mode 0' '
	gerules atc $model --mode=7 --log=info --precision_mode=force_fp16 >out 2>err &&
	gerules atc $model --mode=0 --static_model_ops_lower_limit=4 >out 2>err &&
	gerules atc $model --static_model_ops_lower_limit=4 >out 2>err
'

test_done
