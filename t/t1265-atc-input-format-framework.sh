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
test_description='ATC tests GE runs on models gerules cannot read: --input_format against --framework through gerules atc, and add.pb tests on a JSON model'
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

# test_atc.cc tests on st_run_data/origin_model/add.pb, ported onto an ATC
# JSON model with the same node names (Placeholder_1 -> add_test_1); the
# checks are framework-independent (CheckFlags, omg.cc). The keep_dtype files
# are those of tests/ge/st/st_run_data/config/.
test_expect_success 'setup: add.pb as an ATC JSON model, the keep_dtype files' '
	cat >add.json <<-\EOF &&
	{"name": "add", "graph": [{"name": "add", "op": [{"name": "Placeholder_1", "type": "Data", "attr": [{"key": "index", "value": {"i": 0}}], "output_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [1, 256, 256, 3]}, "layout": "NHWC"}]}, {"name": "add_test_1", "type": "Add", "input": ["Placeholder_1:0", "Placeholder_1:0"], "input_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [1, 256, 256, 3]}, "layout": "NHWC"}, {"dtype": "DT_FLOAT", "shape": {"dim": [1, 256, 256, 3]}, "layout": "NHWC"}], "output_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [1, 256, 256, 3]}, "layout": "NHWC"}]}, {"name": "netoutput", "type": "NetOutput", "input": ["add_test_1:0"], "input_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [1, 256, 256, 3]}, "layout": "NHWC"}]}]}]}
	EOF
	echo "generator/conv/conv2d/Conv2D" >keep_dtype.cfg &&
	echo "OpType::invalid_node_type" >keep_dtype_invalid_nodetype.cfg
'

# A node name no node has: GE warns and builds (the keep_dtype pass skips it).
test_expect_success 'keep_dtype_has_invalid_node (test_atc.cc:632)' '
	gerules eval add.json --chip Ascend910B2 --out_nodes=add_test_1:0 --soc_version=Ascend910B2 --output_type=FP32 \
		--input_shape=Placeholder_1:1,256,256,3 --keep_dtype=keep_dtype.cfg -o --sparsity=1 --allow_hf32=true \
		-o --status_check=0 >out &&
	test_grep "node name .generator/conv/conv2d/Conv2D. matches no node of the graph" out
'

# An op type that is no op type: GE fails (E10003).
test_expect_success 'keep_dtype_has_invalid_node_type (test_atc.cc:658)' '
	test_must_fail --exit 2 gerules eval add.json --chip Ascend910B2 --out_nodes=add_test_1:0 --soc_version=Ascend910B2 \
		--output_type=FP32 --input_shape=Placeholder_1:1,256,256,3 --keep_dtype=keep_dtype_invalid_nodetype.cfg \
		-o --sparsity=1 --allow_hf32=true -o --status_check=0 >out 2>err &&
	test_grep "keep_dtype_invalid_nodetype.cfg:1:9: error: KEEP_DTYPE: op type .invalid_node_type. matches no node and is not a valid op type.*E10003" err
'

# --keep_dtype=invalid (no such file) and --output_type=add_test_1:0 (not
# name:index:dtype): GE fails on the file first (CheckFlags,
# option_utils.cc:1078-1086), gerules on --output_type (ParseOutputType,
# omg.cc:355-404, checked with the model, before the option rules).
test_expect_success 'pb_keep_dtype_invalid (test_atc.cc:567)' '
	test_must_fail --exit 2 gerules eval add.json --chip Ascend310 --keep_dtype=invalid --out_nodes=add_test_1:0 \
		--output_type=add_test_1:0 --input_shape=Placeholder_1:1,256,256,3 -o --display_model_info=1 \
		--precision_mode=force_fp16 --input_fp16_nodes=Placeholder_1 -o --save_original_model=true 2>err &&
	test_grep "Value add_test_1:0 for parameter --output_type is invalid.*E10001" err
'

# Succeeds: Placeholder_1 is an input op (CheckInputFp16Nodes); the layout
# flags are accepted. The check report and node count it asserts are out of
# scope.
test_expect_success 'pb_model_input_fp16_and_NCIHWC0 (test_atc.cc:597)' '
	gerules eval add.json --chip Ascend310 --out_nodes=add_test_1:0 --output_type=FP32 \
		--input_shape=Placeholder_1:1,256,256,3 --input_fp16_nodes=Placeholder_1 -o --is_input_adjust_hw_layout=true \
		-o --is_output_adjust_hw_layout=true -o --status_check=0 >out &&
	test_grep "^summary: 3 nodes, 0 errors" out
'

# A shape-range error is located where the range was written (an options
# file); GE E10048 (option_utils.cc:230-269 ParseShapeRangePair).
test_expect_success 'a bad --input_shape_range from an options file is located at its line' '
	printf "%s\n" "--input_format=NCHW" "--input_shape_range=Placeholder_1:[1~-1,256,256,3]" >opts.ini &&
	test_must_fail --exit 2 gerules eval add.json --chip Ascend310 --options opts.ini 2>err &&
	test_grep "^opts.ini:2:1: error: Value 1~-1,256,256,3 for parameter --input_shape_range or dynamic_inputs_shape_range is invalid.* \[GE E10048\]$" err
'

test_expect_success 'the formats the ONNX parser takes are accepted (example model, --framework=5)' '
	for f in NCHW ND NCDHW; do
		gerules atc --model="$top_srcdir/examples/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 \
			--output=out --input_format=$f >out.txt 2>err &&
		test_grep "^summary: " out.txt || return 1
	done
'

test_done
