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

test_expect_success 'GeFlags_param_ok01 (main_unittest.cc:662)' '
	gerules atc $base --virtual_type=0 >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_ok02 (main_unittest.cc:668)' '
	gerules atc $base --virtual_type=1 >out 2>err &&
	test_grep "^summary: " out
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
	gerules atc $base --help >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help02 (main_unittest.cc:697)' '
	gerules atc $base -help >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help03 (main_unittest.cc:705)' '
	gerules atc $base -h >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help04 (main_unittest.cc:713)' '
	gerules atc $base --help=true >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help05 (main_unittest.cc:721)' '
	gerules atc $base --help=True >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help06 (main_unittest.cc:729)' '
	gerules atc $base --help=T >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help07 (main_unittest.cc:737)' '
	gerules atc $base --help=y >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help08 (main_unittest.cc:745)' '
	gerules atc $base --help=yes >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help09 (main_unittest.cc:753)' '
	gerules atc $base --help=1 >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help10 (main_unittest.cc:761)' '
	gerules atc $base --help=false >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_help11 (main_unittest.cc:769)' '
	gerules atc $base --help=f >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_help12 (main_unittest.cc:777)' '
	gerules atc $base --help=n >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_help13 (main_unittest.cc:785)' '
	gerules atc $base --help=no >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_help14 (main_unittest.cc:793)' '
	gerules atc $base --help=0 >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_help15 (main_unittest.cc:801)' '
	test_must_fail --exit 2 gerules atc $base --help=invalid_bool >out 2>err &&
	test_grep "Value invalid_bool for parameter --help is invalid. Reason: The value type must be \[bool\]. \[GE E10003\]" err
'

test_expect_success 'GeFlags_param_include_dash (main_unittest.cc:809)' '
	gerules atc $base --virtual-type=0 >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_single_minus (main_unittest.cc:815)' '
	gerules atc $base -virtual_type=0 >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_flag_value_empty01 (main_unittest.cc:821)' '
	test_must_fail --exit 2 gerules atc $base --virtual_type= >out 2>err &&
	test_grep "Value  for parameter --virtual_type is invalid.*\[GE E10001\]" err
'

test_expect_success 'GeFlags_flag_value_empty02 (main_unittest.cc:827)' '
	test_must_fail --exit 2 gerules atc $base --model= >out 2>err &&
	test_grep "The required parameter --model for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_no_flag_value (main_unittest.cc:833)' '
	test_must_fail --exit 2 gerules atc $base --virtual_type >out 2>err &&
	test_grep "flag .--virtual_type. is missing its argument" err
'

test_expect_success 'GeFlags_data_type_error (main_unittest.cc:839)' '
	test_must_fail --exit 2 gerules atc $base --virtual_type=string_value >out 2>err &&
	test_grep "Value string_value for parameter --virtual_type is invalid.*\[GE E10001\]" err
'

test_expect_success 'GeFlags_flag_name_error01 (main_unittest.cc:845)' '
	test_must_fail --exit 2 gerules atc $base --virtual_type_err=0 >out 2>err &&
	test_grep "unknown command line flag .virtual_type_err." err
'

test_expect_success 'GeFlags_flag_name_error02 (main_unittest.cc:851)' '
	test_must_fail --exit 2 gerules atc $base --virtual_type_err >out 2>err &&
	test_grep "unknown command line flag .virtual_type_err." err
'

test_expect_success 'GeFlags_non_option_parameter01 (main_unittest.cc:857)' '
	test_must_fail --exit 2 gerules atc $base virtual_type=0 >out 2>err &&
	test_grep "Non-option parameter: virtual_type=0" err
'

test_expect_success 'GeFlags_non_option_parameter02 (main_unittest.cc:863)' '
	test_must_fail --exit 2 gerules atc $base virtual_type=0 --mode=0 --framework=5 >out 2>err &&
	test_grep "Non-option parameter: virtual_type=0" err
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
	gerules atc $base --virtual_type=0 >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_ok02 (test_atc.cc:2709)' '
	gerules atc $base --virtual_type=1 >out 2>err &&
	test_grep "^summary: " out
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
	gerules atc $base --help >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help02 (test_atc.cc:3300)' '
	gerules atc $base -help >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help03 (test_atc.cc:3309)' '
	gerules atc $base -h >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help04 (test_atc.cc:3319)' '
	gerules atc $base --help=true >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help05 (test_atc.cc:3327)' '
	gerules atc $base --help=True >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help06 (test_atc.cc:3335)' '
	gerules atc $base --help=T >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help07 (test_atc.cc:3343)' '
	gerules atc $base --help=y >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help08 (test_atc.cc:3351)' '
	gerules atc $base --help=yes >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help09 (test_atc.cc:3359)' '
	gerules atc $base --help=1 >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'GeFlags_param_help10 (test_atc.cc:3367)' '
	gerules atc $base --help=false >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_help11 (test_atc.cc:3375)' '
	gerules atc $base --help=f >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_help12 (test_atc.cc:3383)' '
	gerules atc $base --help=n >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_help13 (test_atc.cc:3391)' '
	gerules atc $base --help=no >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_help14 (test_atc.cc:3399)' '
	gerules atc $base --help=0 >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_help15 (test_atc.cc:3407)' '
	test_must_fail --exit 2 gerules atc $base --help=invalid_bool >out 2>err &&
	test_grep "Value invalid_bool for parameter --help is invalid. Reason: The value type must be \[bool\]. \[GE E10003\]" err
'

test_expect_success 'GeFlags_param_include_dash (test_atc.cc:3415)' '
	gerules atc $base --virtual-type=0 >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_single_minus (test_atc.cc:3421)' '
	gerules atc $base -virtual_type=0 >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_flag_value_empty01 (test_atc.cc:3427)' '
	test_must_fail --exit 2 gerules atc $base --virtual_type= >out 2>err &&
	test_grep "Value  for parameter --virtual_type is invalid.*\[GE E10001\]" err
'

test_expect_success 'GeFlags_flag_value_empty02 (test_atc.cc:3433)' '
	test_must_fail --exit 2 gerules atc $base --model= >out 2>err &&
	test_grep "The required parameter --model for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_no_flag_value (test_atc.cc:3439)' '
	test_must_fail --exit 2 gerules atc $base --virtual_type >out 2>err &&
	test_grep "flag .--virtual_type. is missing its argument" err
'

test_expect_success 'GeFlags_data_type_error (test_atc.cc:3445)' '
	test_must_fail --exit 2 gerules atc $base --virtual_type=string_value >out 2>err &&
	test_grep "Value string_value for parameter --virtual_type is invalid.*\[GE E10001\]" err
'

test_expect_success 'GeFlags_flag_name_error01 (test_atc.cc:3451)' '
	test_must_fail --exit 2 gerules atc $base --virtual_type_err=0 >out 2>err &&
	test_grep "unknown command line flag .virtual_type_err." err
'

test_expect_success 'GeFlags_flag_name_error02 (test_atc.cc:3457)' '
	test_must_fail --exit 2 gerules atc $base --virtual_type_err >out 2>err &&
	test_grep "unknown command line flag .virtual_type_err." err
'

test_expect_success 'GeFlags_non_option_parameter01 (test_atc.cc:3463)' '
	test_must_fail --exit 2 gerules atc $base virtual_type=0 >out 2>err &&
	test_grep "Non-option parameter: virtual_type=0" err
'

test_expect_success 'GeFlags_non_option_parameter02 (test_atc.cc:3469)' '
	test_must_fail --exit 2 gerules atc $base virtual_type=0 --mode=0 --framework=5 >out 2>err &&
	test_grep "Non-option parameter: virtual_type=0" err
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
	gerules atc $base --help >out 2>err &&
	test_grep "^usage: gerules atc" out &&
	! grep "^summary: " out
'

test_expect_success 'MainImplTest_raw_ge_options_file_not_found (main_unittest.cc:2107)' '
	test_must_fail --exit 2 gerules atc --raw_ge_options=/nonexistent/options.json >out 2>err &&
	test_grep "The required parameter --soc_version for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_param_jit_compile_ok (test_atc.cc:2730)' '
	gerules atc $base --jit_compile=2 >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_optimization_switch_ok (test_atc.cc:2737)' '
	gerules atc $base '"'"'--optimization_switch=PassA:on;PassB:off'"'"' >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_static_model_ops_lower_limit_ok (test_atc.cc:2744)' '
	gerules atc $base --static_model_ops_lower_limit=-1 >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_raw_ge_options_ok (test_atc.cc:2751)' '
	gerules atc $base --raw_ge_options=/tmp/options.json >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_param_raw_ge_options_ignore_unsupported_ok (test_atc.cc:2758)' '
	gerules atc $base --raw_ge_options_ignore_unsupported=true >out 2>err &&
	test_grep "^summary: " out
'

test_expect_success 'GeFlags_raw_ge_options_required_soc_version_not_replaced_failed (test_atc.cc:3118)' '
	test_must_fail --exit 2 gerules atc --model=add.pb --output=o --input_format=NCHW --raw_ge_options=raw.json --framework=3 --input_shape=Placeholder_1:1,256,256,3 >out 2>err &&
	test_grep "The required parameter --soc_version for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'GeFlags_param_bool_type_error (test_atc.cc:3266)' '
	test_must_fail --exit 2 gerules atc $base --help=invalid_bool >out 2>err &&
	test_grep "Value invalid_bool for parameter --help is invalid. Reason: The value type must be \[bool\]. \[GE E10003\]" err
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
