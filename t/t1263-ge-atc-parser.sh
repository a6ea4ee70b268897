#!/bin/sh
# t1263-ge-atc-parser.sh: GE's own unit tests of ATC's command-line parser
# and of CheckFlags' required flags (hicann/ge @ffdcbc9f7
# tests/ge/ut/ge/session/main_unittest.cc and tests/ge/st/testcase/test_atc.cc,
# GeFlags_* and a few MainImplTest_*), run through `gerules atc`, which
# reproduces that parser (src/options/atc_cmdline.c with rules/atc.rules);
# each title names the GE test, its file and line. A test that only parses
# (ParseCommandLine) is run here on a full command line (the example model,
# --framework, --soc_version, --output): "accepted" means gerules atc reads it
# and evaluates. --help: GE's ParseCommandLine returns non-zero after the
# usage text, gerules atc prints its usage and exits 0; either way nothing is
# built. Tests whose argv lacks a comma ("atc" "--singleop=...") pass the
# rest of argv to ATC; so does this file. doc/ge-fidelity.md lists the rows.
test_description='GE unit tests of the ATC command line, through gerules atc'
. "$(dirname "$0")/test-lib.sh"

ex=$top_srcdir/examples
base="--model=$ex/llm_decoder.onnx --framework=5 --soc_version=Ascend910B1 --output=out"

# The three outcomes most of GE's tests check, each after `gerules atc $base ARGS`:
# atc_accepts ARGS: evaluates the model (a report with its summary);
atc_accepts () {
	gerules atc $base "$@" >out 2>err &&
	test_grep "^summary: " out
}
# atc_prints_help ARGS: prints the usage and evaluates nothing;
atc_prints_help () {
	gerules atc $base "$@" >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
}
# atc_refuses PATTERN ARGS: exits 2 with an error matching PATTERN.
atc_refuses () {
	_gr_pat=$1; shift
	test_must_fail --exit 2 gerules atc $base "$@" >out 2>err &&
	test_grep "$_gr_pat" err
}

test_expect_success 'GeFlags_param_ok01 (main_unittest.cc:662)' '
	atc_accepts --virtual_type=0
'

test_expect_success 'GeFlags_param_ok02 (main_unittest.cc:668)' '
	atc_accepts --virtual_type=1
'

test_expect_success 'GeFlags_param_ok03 (main_unittest.cc:675)' '
	gerules atc --model="$ex/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 --output=out >out 2>err &&
	test_grep "^graph: .*llm_decoder.onnx" out
'

test_expect_success 'GeFlags_param_ok04 (main_unittest.cc:682)' '
	gerules atc --model "$ex/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 --output=out >out 2>err &&
	test_grep "^graph: .*llm_decoder.onnx" out
'

test_expect_success 'GeFlags_param_help01 (main_unittest.cc:689)' '
	atc_prints_help --help
'

test_expect_success 'GeFlags_param_help02 (main_unittest.cc:697)' '
	atc_prints_help -help
'

test_expect_success 'GeFlags_param_help03 (main_unittest.cc:705)' '
	atc_prints_help -h
'

test_expect_success 'GeFlags_param_help04 (main_unittest.cc:713)' '
	atc_prints_help --help=true
'

test_expect_success 'GeFlags_param_help05 (main_unittest.cc:721)' '
	atc_prints_help --help=True
'

test_expect_success 'GeFlags_param_help06 (main_unittest.cc:729)' '
	atc_prints_help --help=T
'

test_expect_success 'GeFlags_param_help07 (main_unittest.cc:737)' '
	atc_prints_help --help=y
'

test_expect_success 'GeFlags_param_help08 (main_unittest.cc:745)' '
	atc_prints_help --help=yes
'

test_expect_success 'GeFlags_param_help09 (main_unittest.cc:753)' '
	atc_prints_help --help=1
'

test_expect_success 'GeFlags_param_help10 (main_unittest.cc:761)' '
	atc_accepts --help=false
'

test_expect_success 'GeFlags_param_help11 (main_unittest.cc:769)' '
	atc_accepts --help=f
'

test_expect_success 'GeFlags_param_help12 (main_unittest.cc:777)' '
	atc_accepts --help=n
'

test_expect_success 'GeFlags_param_help13 (main_unittest.cc:785)' '
	atc_accepts --help=no
'

test_expect_success 'GeFlags_param_help14 (main_unittest.cc:793)' '
	atc_accepts --help=0
'

test_expect_success 'GeFlags_param_help15 (main_unittest.cc:801)' '
	atc_refuses "Value invalid_bool for parameter --help is invalid. Reason: The value type must be \[bool\]. \[GE E10003\]" --help=invalid_bool
'

test_expect_success 'GeFlags_param_include_dash (main_unittest.cc:809)' '
	atc_accepts --virtual-type=0
'

test_expect_success 'GeFlags_param_single_minus (main_unittest.cc:815)' '
	atc_accepts -virtual_type=0
'

test_expect_success 'GeFlags_flag_value_empty01 (main_unittest.cc:821)' '
	atc_refuses "Value  for parameter --virtual_type is invalid.*\[GE E10001\]" --virtual_type=
'

test_expect_success 'GeFlags_flag_value_empty02 (main_unittest.cc:827)' '
	atc_refuses "The required parameter --model for ATC is empty.*\[GE E10054\]" --model=
'

test_expect_success 'GeFlags_no_flag_value (main_unittest.cc:833)' '
	atc_refuses "flag .--virtual_type. is missing its argument" --virtual_type
'

test_expect_success 'GeFlags_data_type_error (main_unittest.cc:839)' '
	atc_refuses "Value string_value for parameter --virtual_type is invalid.*\[GE E10001\]" --virtual_type=string_value
'

test_expect_success 'GeFlags_flag_name_error01 (main_unittest.cc:845)' '
	atc_refuses "unknown command line flag .virtual_type_err." --virtual_type_err=0
'

test_expect_success 'GeFlags_flag_name_error02 (main_unittest.cc:851)' '
	atc_refuses "unknown command line flag .virtual_type_err." --virtual_type_err
'

test_expect_success 'GeFlags_non_option_parameter01 (main_unittest.cc:857)' '
	atc_refuses "Non-option parameter: virtual_type=0" virtual_type=0
'

test_expect_success 'GeFlags_non_option_parameter02 (main_unittest.cc:863)' '
	atc_refuses "Non-option parameter: virtual_type=0" virtual_type=0 --mode=0 --framework=5
'

test_expect_success 'GeFlags_mode_1_framework_error (main_unittest.cc:899)' '
	test_must_fail --exit 2 gerules atc --mode=1 --framework=1 >out 2>err &&
	test_grep "The required parameter --model for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_framework_0_weight_error (main_unittest.cc:924)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=0 '"'"'--weight=***'"'"' --soc_version=Ascend310 >out 2>err &&
	test_grep "The required parameter --output for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_framework_0_weight_none (main_unittest.cc:930)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=0 --soc_version=Ascend310 >out 2>err &&
	test_grep "The required parameter --output for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_framework_3_weight_warn (main_unittest.cc:936)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=3 --weight=add.pb --soc_version=Ascend310 >out 2>err &&
	test_grep "The required parameter --output for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_framework_5_weight_warn (main_unittest.cc:944)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=5 --weight=add.pb --soc_version=Ascend310 >out 2>err &&
	test_grep "The required parameter --output for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_param_ok01 (test_atc.cc:2703)' '
	atc_accepts --virtual_type=0
'

test_expect_success 'GeFlags_param_ok02 (test_atc.cc:2709)' '
	atc_accepts --virtual_type=1
'

test_expect_success 'GeFlags_param_ok03 (test_atc.cc:2716)' '
	gerules atc --model="$ex/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 --output=out >out 2>err &&
	test_grep "^graph: .*llm_decoder.onnx" out
'

test_expect_success 'GeFlags_param_ok04 (test_atc.cc:2723)' '
	gerules atc --model "$ex/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 --output=out >out 2>err &&
	test_grep "^graph: .*llm_decoder.onnx" out
'

test_expect_success 'GeFlags_param_help01 (test_atc.cc:3292)' '
	atc_prints_help --help
'

test_expect_success 'GeFlags_param_help02 (test_atc.cc:3300)' '
	atc_prints_help -help
'

test_expect_success 'GeFlags_param_help03 (test_atc.cc:3309)' '
	atc_prints_help -h
'

test_expect_success 'GeFlags_param_help04 (test_atc.cc:3319)' '
	atc_prints_help --help=true
'

test_expect_success 'GeFlags_param_help05 (test_atc.cc:3327)' '
	atc_prints_help --help=True
'

test_expect_success 'GeFlags_param_help06 (test_atc.cc:3335)' '
	atc_prints_help --help=T
'

test_expect_success 'GeFlags_param_help07 (test_atc.cc:3343)' '
	atc_prints_help --help=y
'

test_expect_success 'GeFlags_param_help08 (test_atc.cc:3351)' '
	atc_prints_help --help=yes
'

test_expect_success 'GeFlags_param_help09 (test_atc.cc:3359)' '
	atc_prints_help --help=1
'

test_expect_success 'GeFlags_param_help10 (test_atc.cc:3367)' '
	atc_accepts --help=false
'

test_expect_success 'GeFlags_param_help11 (test_atc.cc:3375)' '
	atc_accepts --help=f
'

test_expect_success 'GeFlags_param_help12 (test_atc.cc:3383)' '
	atc_accepts --help=n
'

test_expect_success 'GeFlags_param_help13 (test_atc.cc:3391)' '
	atc_accepts --help=no
'

test_expect_success 'GeFlags_param_help14 (test_atc.cc:3399)' '
	atc_accepts --help=0
'

test_expect_success 'GeFlags_param_help15 (test_atc.cc:3407)' '
	atc_refuses "Value invalid_bool for parameter --help is invalid. Reason: The value type must be \[bool\]. \[GE E10003\]" --help=invalid_bool
'

test_expect_success 'GeFlags_param_include_dash (test_atc.cc:3415)' '
	atc_accepts --virtual-type=0
'

test_expect_success 'GeFlags_param_single_minus (test_atc.cc:3421)' '
	atc_accepts -virtual_type=0
'

test_expect_success 'GeFlags_flag_value_empty01 (test_atc.cc:3427)' '
	atc_refuses "Value  for parameter --virtual_type is invalid.*\[GE E10001\]" --virtual_type=
'

test_expect_success 'GeFlags_flag_value_empty02 (test_atc.cc:3433)' '
	atc_refuses "The required parameter --model for ATC is empty.*\[GE E10054\]" --model=
'

test_expect_success 'GeFlags_no_flag_value (test_atc.cc:3439)' '
	atc_refuses "flag .--virtual_type. is missing its argument" --virtual_type
'

test_expect_success 'GeFlags_data_type_error (test_atc.cc:3445)' '
	atc_refuses "Value string_value for parameter --virtual_type is invalid.*\[GE E10001\]" --virtual_type=string_value
'

test_expect_success 'GeFlags_flag_name_error01 (test_atc.cc:3451)' '
	atc_refuses "unknown command line flag .virtual_type_err." --virtual_type_err=0
'

test_expect_success 'GeFlags_flag_name_error02 (test_atc.cc:3457)' '
	atc_refuses "unknown command line flag .virtual_type_err." --virtual_type_err
'

test_expect_success 'GeFlags_non_option_parameter01 (test_atc.cc:3463)' '
	atc_refuses "Non-option parameter: virtual_type=0" virtual_type=0
'

test_expect_success 'GeFlags_non_option_parameter02 (test_atc.cc:3469)' '
	atc_refuses "Non-option parameter: virtual_type=0" virtual_type=0 --mode=0 --framework=5
'

test_expect_success 'GeFlags_mode_1_framework_error (test_atc.cc:3475)' '
	test_must_fail --exit 2 gerules atc --mode=1 --framework=1 >out 2>err &&
	test_grep "The required parameter --model for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_framework_0_weight_error (test_atc.cc:3485)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=0 '"'"'--weight=***'"'"' --soc_version=Ascend310 >out 2>err &&
	test_grep "The required parameter --output for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_framework_0_weight_none (test_atc.cc:3491)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=0 --soc_version=Ascend310 >out 2>err &&
	test_grep "The required parameter --output for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_framework_3_weight_warn (test_atc.cc:3497)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=3 --weight=add.pb --soc_version=Ascend310 >out 2>err &&
	test_grep "The required parameter --output for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_framework_5_weight_warn (test_atc.cc:3505)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=5 --weight=add.pb --soc_version=Ascend310 >out 2>err &&
	test_grep "The required parameter --output for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_framework_0_version_error (main_unittest.cc:909)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=0 --weight=add.pb --soc_version=Ascend910B1 >out 2>err &&
	test_grep "The required parameter --output for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlagsFramework0_Fail_UnsupportedVersion (main_unittest.cc:916)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=0 --weight=add.pb --soc_version=Ascend910_9391 >out 2>err &&
	test_grep "The required parameter --output for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_oo_help (main_unittest.cc:1322)' '
	atc_prints_help --help
'

test_expect_success 'MainImplTest_raw_ge_options_file_not_found (main_unittest.cc:2107)' '
	test_must_fail --exit 2 gerules atc --raw_ge_options=/nonexistent/options.json >out 2>err &&
	test_grep "Value /nonexistent/options.json for parameter --raw_ge_options is invalid. Reason: \[Errno 2\] No such file or directory \[GE E10001\]" err
'

test_expect_success 'GeFlags_param_jit_compile_ok (test_atc.cc:2730)' '
	atc_accepts --jit_compile=2
'

test_expect_success 'GeFlags_param_optimization_switch_ok (test_atc.cc:2737)' '
	atc_accepts '"'"'--optimization_switch=PassA:on;PassB:off'"'"'
'

test_expect_success 'GeFlags_param_static_model_ops_lower_limit_ok (test_atc.cc:2744)' '
	atc_accepts --static_model_ops_lower_limit=-1
'

test_expect_success 'GeFlags_param_raw_ge_options_ok (test_atc.cc:2751)' '
	echo "{\"compile options\": {}}" >options.json &&
	atc_accepts --raw_ge_options=options.json
'

test_expect_success 'GeFlags_param_raw_ge_options_ignore_unsupported_ok (test_atc.cc:2758)' '
	atc_accepts --raw_ge_options_ignore_unsupported=true
'

test_expect_success 'GeFlags_param_bool_type_error (test_atc.cc:3266)' '
	atc_refuses "Value invalid_bool for parameter --help is invalid. Reason: The value type must be \[bool\]. \[GE E10003\]" --help=invalid_bool
'

test_expect_success 'GeFlags_no_param_framework_error (test_atc.cc:3513)' '
	test_must_fail --exit 2 gerules atc  >out 2>err &&
	test_grep "The required parameter --soc_version for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_singleop_framework_error (test_atc.cc:3519)' '
	test_must_fail --exit 2 gerules atc --framework=5 >out 2>err &&
	test_grep "The required parameter --soc_version for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_singleop_mode_error (test_atc.cc:3528)' '
	test_must_fail --exit 2 gerules atc --mode=1 >out 2>err &&
	test_grep "The required parameter --model for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_singleop_insertopconf_error (test_atc.cc:3537)' '
	test_must_fail --exit 2 gerules atc --insert_op_conf=op.cfg >out 2>err &&
	test_grep "The required parameter --soc_version for ATC is empty.*\[GE E10054\]" err
'

test_done
