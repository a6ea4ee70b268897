#!/bin/sh
# t1265-atc-input-format-framework.sh: GE's own tests of ATC's CheckInputFormat
# (hicann/ge @ffdcbc9f7 api/atc/main_impl.cc:1180-1227, run by
# PrepareOmGeneration :2043-2047 before CheckFlags): a given --input_format
# must be one the --framework's parser takes (rules/atc.rules
# atc_framework_input_formats), else E10001. Each test runs the GE test's own
# argv through gerules atc, which refuses it before it needs the model, as
# ATC does (the main_unittest.cc tests give neither --model nor --output:
# CheckInputFormat fails first). Each title names the GE test, its file and
# line; doc/ge-fidelity.md lists the rows.
test_description='ATC --input_format against --framework, through gerules atc'
. "$(dirname "$0")/test-lib.sh"

# main_impl.cc:73-76, the reasons of kCaffeFormatSupport, kTFFormatSupport,
# kONNXFormatSupport
test_expect_success 'MainImplTest_input_format_invalid_tf (main_unittest.cc:1799)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=3 --soc_version=Ascend310 --input_format=ABCD 2>err &&
	test_grep "Value ABCD for parameter --input_format is invalid. Reason: The value must be NCHW, NHWC, ND, NCDHW or NDHWC in TF model. \[GE E10001\]" err
'

test_expect_success 'MainImplTest_input_format_invalid_caffe (main_unittest.cc:1814)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=0 --soc_version=Ascend310 --input_format=ABCD 2>err &&
	test_grep "Reason: The value must be NCHW or ND in Caffe model. \[GE E10001\]" err
'

test_expect_success 'MainImplTest_input_format_invalid_onnx (main_unittest.cc:1831)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=5 --soc_version=Ascend310 --input_format=ABCD 2>err &&
	test_grep "Reason: The value must be NCHW, ND or NCDHW in ONNX model. \[GE E10001\]" err
'

# The model test.onnx need not exist: ATC refuses NC1HWC0 before reading it.
test_expect_success 'onnx_model_input_format_invalid (test_atc.cc:1211)' '
	test_must_fail --exit 2 gerules atc --model=st_run_data/origin_model/test.onnx --output=out --framework=5 \
		--weight=st_run_data/not_exist "--out_nodes=Conv_0:0;Add_0:0" --soc_version=Ascend310 \
		--input_format=NC1HWC0 "--output_type=Conv_0:0:FP32;Add_0:0:FP16" --input_shape=x:1,3,640,640 2>err &&
	test_grep "Value NC1HWC0 for parameter --input_format is invalid. Reason: The value must be NCHW, ND or NCDHW in ONNX model. \[GE E10001\]" err
'

# Two tests whose argv gives no --output: ATC stops in CheckFlags
# (main_impl.cc:873-889, E10054) before the gear flags matter, and so does
# gerules atc (rules/atc.rules atc_required_flags).
test_expect_success 'MainImplTest_atc_options_with_dynamic_dims (main_unittest.cc:2113)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=3 --soc_version=Ascend310 --input_format=NCHW \
		--input_shape=data:-1,32,32,3 "--dynamic_dims=1;2;4" 2>err &&
	test_grep "The required parameter --output for ATC is empty.* \[GE E10054\]" err
'

test_expect_success 'MainImplTest_atc_options_with_dynamic_image_size (main_unittest.cc:2130)' '
	test_must_fail --exit 2 gerules atc --mode=0 --framework=3 --soc_version=Ascend310 --input_format=NCHW \
		--input_shape=data:1,3,-1,-1 "--dynamic_image_size=32,32;64,64" 2>err &&
	test_grep "The required parameter --output for ATC is empty.* \[GE E10054\]" err
'

test_expect_success 'the formats the ONNX parser takes are accepted (example model, --framework=5)' '
	for f in NCHW ND NCDHW; do
		gerules atc --model="$top_srcdir/examples/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 \
			--output=out --input_format=$f >out.txt 2>err &&
		test_grep "^summary: " out.txt || return 1
	done
'

test_done
