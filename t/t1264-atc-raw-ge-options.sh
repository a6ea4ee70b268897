#!/bin/sh
# t1264-atc-raw-ge-options.sh: `gerules atc --raw_ge_options=FILE` reads the
# file of raw GE compile options as ATC does (hicann/ge @ffdcbc9f7
# api/atc/main_impl.cc:194-492, called right after the command line,
# :2358-2361; rules/atc.rules, the --raw_ge_options section;
# src/options/raw_ge_options.c). Each test ports one of GE's system tests
# tests/ge/st/testcase/test_atc.cc:2788-3216 (its title names it and its
# line). GE's tests convert a TensorFlow .pb, which gerules cannot read:
# every failure here happens in ATC before the model is read
# (LoadRawOptionsForAtc runs before CheckFlags and before the model), so
# the ports run on the ONNX example model with the same file and the same
# failure; a success is checked on what the report shows (the options
# line, the notes located in the file, or the same report as the flag on
# the command line). doc/ge-fidelity.md lists the rows.
test_description='gerules atc --raw_ge_options: the file of raw GE options'
. "$(dirname "$0")/test-lib.sh"

ex=$top_srcdir/examples
base="--model=$ex/llm_decoder.onnx --framework=5 --soc_version=Ascend910B1 --output=out"

# raw_graph KEY VALUE: a file raw.json with one option in the graph level
raw_graph () {
	printf "{\n  \"compile options\": {\n    \"graph\": {\n      \"%s\": \"%s\"\n    }\n  }\n}\n" "$1" "$2" >raw.json
}

test_expect_success 'GeFlags_raw_ge_options_unsupported_failed (test_atc.cc:2788): E10055' '
	raw_graph ge.unsupported.option 1 &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:4:7: error: The operation is not supported. Reason: RawGeOptions\[ge.unsupported.option:1\] in level \[graph\] is not supported in ATC. Please do not set it.. \[GE E10055\]" err
'

# GE fails in its stream allocator (E10056, compiler/graph/build/stream/
# logical_stream_allocator.cc:405-417), which gerules does not model, for
# the command-line form either: gerules reads the raw option as the flag
# and accepts it (the row says disagrees).
test_expect_success 'GeFlags_raw_multi_stream_parallel_mode_conflicts_with_enable_single_stream (test_atc.cc:2807): the raw mode is the flag (the conflict is not modelled)' '
	raw_graph ge.autoMultistreamParallelMode LoadBalance:8 &&
	gerules atc $base --raw_ge_options=raw.json --enable_single_stream=true >out 2>err &&
	test_grep "^raw.json:4:7: note: ATC flag --multi_stream_parallel_mode=LoadBalance:8 is not modelled" out
'

test_expect_success 'GeFlags_cli_empty_multi_stream_parallel_mode_overrides_raw_without_conflict (test_atc.cc:2848): the empty command-line flag wins' '
	raw_graph ge.autoMultistreamParallelMode LoadBalance:8 &&
	gerules atc $base --raw_ge_options=raw.json --multi_stream_parallel_mode= --enable_single_stream=true >out 2>err &&
	test_grep "<command line>: note: ATC flag --multi_stream_parallel_mode= is not modelled" out &&
	! grep LoadBalance out
'

test_expect_success 'an error in the file shows its line with a caret under the column' '
	raw_graph ge.unsupported.option 1 &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	cat >expect <<-\EOF &&
	raw.json:4:7: error: The operation is not supported. Reason: RawGeOptions[ge.unsupported.option:1] in level [graph] is not supported in ATC. Please do not set it.. [GE E10055]
	       "ge.unsupported.option": "1"
	       ^
	EOF
	test_cmp expect err
'

test_expect_success 'GeFlags_raw_ge_options_without_compile_options_failed (test_atc.cc:2874): E10032' '
	cat >raw.json <<-\EOF &&
	{"execute options": {"graph": {"ge.unsupported.option": "1"}}}
	EOF
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:1:1: error: Failed to parse JSON file raw.json. Reason: The options JSON file must contain an object under the key (key=compile options).. \[GE E10032\]" err
'

test_expect_success 'GeFlags_raw_ge_options_not_exist_failed (test_atc.cc:2887): the path check, E10001' '
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw_ge_options_not_exist.json >out 2>err &&
	test_grep "^gerules atc: error: Value raw_ge_options_not_exist.json for parameter --raw_ge_options is invalid. Reason: \[Errno 2\] No such file or directory \[GE E10001\]" err
'

test_expect_success 'GeFlags_raw_ge_options_invalid_json_failed (test_atc.cc:2894): E10032 Invalid JSON format' '
	printf "{ invalid json" >raw.json &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:1:3: error: Failed to parse JSON file raw.json. Reason: Invalid JSON format. \[GE E10032\]" err
'

test_expect_success 'GeFlags_raw_ge_options_unsupported_level_failed (test_atc.cc:2901): E10032' '
	cat >raw.json <<-\EOF &&
	{"compile options": {"execute": {"ge.jit_compile": "2"}}}
	EOF
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:1:22: error: Failed to parse JSON file raw.json. Reason: Unsupported compile options level (level=execute). Supported levels are \[global, session, graph\]. \[GE E10032\]" err
'

test_expect_success 'GeFlags_raw_ge_options_level_not_object_failed (test_atc.cc:2914): E10032' '
	cat >raw.json <<-\EOF &&
	{"compile options": {"graph": "ge.jit_compile=2"}}
	EOF
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:1:22: error: Failed to parse JSON file raw.json. Reason: Compile options level (level=graph) must be an object. \[GE E10032\]" err
'

test_expect_success 'GeFlags_raw_ge_options_empty_key_failed (test_atc.cc:2925): E10032' '
	raw_graph "" 1 &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:4:7: error: Failed to parse JSON file raw.json. Reason: Option key in level (level=graph) must not be empty. \[GE E10032\]" err
'

test_expect_success 'GeFlags_raw_ge_options_non_string_value_failed (test_atc.cc:2938): E10032' '
	cat >raw.json <<-\EOF &&
	{"compile options": {"graph": {"ge.jit_compile": 2}}}
	EOF
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:1:50: error: Failed to parse JSON file raw.json. Reason: Option (option=ge.jit_compile) in level (level=graph) must be a string. \[GE E10032\]" err
'

test_expect_success 'GeFlags_raw_ge_options_jit_compile_invalid_failed (test_atc.cc:2951): the parser check of --jit_compile, E10001' '
	raw_graph ge.jit_compile 3 &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:4:25: error: Value 3 for parameter --jit_compile is invalid. Reason: The value is not within the range of values. The valid range is \[0\] \[1\] \[2\] . \[GE E10001\]" err
'

test_expect_success 'GeFlags_raw_ge_options_static_model_ops_lower_limit_invalid (test_atc.cc:2964): the range [-1, INT64_MAX], E10001' '
	raw_graph ge.exec.static_model_ops_lower_limit -2 &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "error: Value -2 for parameter --static_model_ops_lower_limit is invalid. Reason: The current value is not within the valid range. The valid range is \[-1,9223372036854775807\]. \[GE E10001\]" err &&
	raw_graph ge.exec.static_model_ops_lower_limit "" &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "Reason: The value must be a non-empty integer. The valid range is \[-1,9223372036854775807\]. \[GE E10001\]" err
'

test_expect_success 'GeFlags_raw_ge_options_deterministic_invalid_failed (test_atc.cc:2977): E10006' '
	raw_graph ge.deterministic 2 &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:4:27: error: Value 2 for parameter --deterministic is invalid. The value must be either 1 or 0. \[GE E10006\]" err
'

test_expect_success 'GeFlags_raw_ge_options_virtual_type_invalid_failed (test_atc.cc:2990): E10001' '
	raw_graph ge.virtual_type 2 &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "error: Value 2 for parameter --virtual_type is invalid. Reason: The value is not within the range of values. The valid range is \[0\] \[1\] . \[GE E10001\]" err
'

# --allow_hf32 and --save_original_model are string flags the parser takes
# as they are: the raw value is set and CheckFlags refuses it, as it
# refuses the same flag on the command line (gerules: an error of the
# configuration, exit 1, as for the flag given there).
test_expect_success 'GeFlags_raw_ge_options_allow_hf32_invalid_failed (test_atc.cc:3003): CheckFlags refuses it, E10005' '
	raw_graph ge.exec.allow_hf32 maybe &&
	test_must_fail --exit 1 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:4:7: error: ATC accepts only true or false for allow_hf32, not .maybe.*\[GE E10005\]" out
'

test_expect_success 'GeFlags_raw_ge_options_save_original_model_invalid_failed (test_atc.cc:3016): CheckFlags refuses it, E10005' '
	raw_graph ge.saveOriginalModel yes &&
	test_must_fail --exit 1 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:4:7: error: ATC flag --save_original_model=yes: .*\[GE E10005\]" out
'

test_expect_success 'GeFlags_raw_ge_options_output_type_node_format_success (test_atc.cc:3029): accepted, --output_type set from the file' '
	raw_graph ge.outputDatatype add_test_1:0:FP16 &&
	gerules atc $base --raw_ge_options=raw.json --out_nodes=add_test_1:0 >out 2>err &&
	test_grep "^raw.json:4:7: note: ATC flag --output_type=add_test_1:0:FP16 is not modelled" out
'

test_expect_success 'GeFlags_raw_ge_options_input_shape_success (test_atc.cc:3058): ge.inputShape is --input_shape' '
	raw_graph ge.inputShape hidden_states:1,-1,4096 &&
	gerules atc $base --raw_ge_options=raw.json >raw.out 2>err &&
	gerules atc $base --input_shape=hidden_states:1,-1,4096 >cli.out 2>err &&
	test_cmp cli.out raw.out &&
	gerules atc $base >none.out 2>err &&
	! test_cmp none.out raw.out >/dev/null
'

test_expect_success 'GeFlags_raw_ge_options_ignore_unsupported_success (test_atc.cc:3071): a warning, the rest applied' '
	cat >raw.json <<-\EOF &&
	{"compile options": {"graph": {"ge.unsupported.option": "1", "ge.jit_compile": "2"}}}
	EOF
	gerules atc $base --raw_ge_options=raw.json --raw_ge_options_ignore_unsupported=true >out 2>err &&
	test_grep "^raw.json:1:32: warning: ignore unsupported option \[ge.unsupported.option\] in level \[graph\]. value: 1" err &&
	test_grep "^raw.json:1:62: note: ATC flag --jit_compile=2 is not modelled" out &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json --raw_ge_options_ignore_unsupported=false >out 2>err &&
	test_grep "\[GE E10055\]" err
'

test_expect_success 'GeFlags_raw_ge_options_graph_overrides_session_global (test_atc.cc:3086): graph over session over global' '
	cat >raw.json <<-\EOF &&
	{"compile options": {
	  "global": {"ge.exec.static_model_ops_lower_limit": "-2", "ge.exec.precision_mode": "force_fp16"},
	  "session": {"ge.exec.static_model_ops_lower_limit": "-2", "ge.exec.precision_mode": "allow_fp32_to_fp16"},
	  "graph": {"ge.exec.static_model_ops_lower_limit": "-1"}}}
	EOF
	gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^options: .*PRECISION_MODE=allow_fp32_to_fp16" out &&
	test_grep "^options: .*STATIC_MODEL_OPS_LOWER_LIMIT=-1" out
'

test_expect_success 'GeFlags_raw_ge_options_cli_overrides_raw (test_atc.cc:3105): the command line wins, its value unchecked' '
	raw_graph ge.socVersion InvalidSoc &&
	gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^chip:  Ascend910B1" out &&
	raw_graph ge.exec.precision_mode force_fp16 &&
	gerules atc $base --raw_ge_options=raw.json --precision_mode=force_fp32 >out 2>err &&
	test_grep "^options: .*PRECISION_MODE=force_fp32" out
'

test_expect_success 'GeFlags_raw_ge_options_required_soc_version_not_replaced_failed (test_atc.cc:3118): E10001, before CheckFlags' '
	raw_graph ge.socVersion Ascend310 &&
	test_must_fail --exit 2 gerules atc --model=$ex/llm_decoder.onnx --output=o --input_format=NCHW --raw_ge_options=raw.json --framework=5 >out 2>err &&
	test_grep "^raw.json:4:7: error: Value Ascend310 for parameter --soc_version is invalid. Reason: This option must be set explicitly by command line and cannot be replaced by raw_ge_options. \[GE E10001\]" err
'

test_expect_success 'GeFlags_raw_ge_options_required_framework_not_replaced_failed (test_atc.cc:3132): E10001, before the model is read' '
	raw_graph ge.frameworkType 3 &&
	test_must_fail --exit 2 gerules atc --model=add.pb --output=o --input_format=NCHW --raw_ge_options=raw.json --soc_version=Ascend310 --input_shape=Placeholder_1:1,256,256,3 >out 2>err &&
	test_grep "^raw.json:4:7: error: Value 3 for parameter --framework is invalid. Reason: This option must be set explicitly by command line and cannot be replaced by raw_ge_options. \[GE E10001\]" err
'

test_expect_success 'GeFlags_raw_ge_options_invalid_value_not_skipped_by_cli_failed (test_atc.cc:3146): checked although the command line wins' '
	raw_graph ge.jit_compile 3 &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json --jit_compile=2 >out 2>err &&
	test_grep "Value 3 for parameter --jit_compile is invalid.*\[GE E10001\]" err
'

test_expect_success 'GeFlags_raw_ge_options_execute_options_ignored (test_atc.cc:3160): only "compile options" is read' '
	cat >raw.json <<-\EOF &&
	{"compile options": {"graph": {"ge.jit_compile": "2"}},
	 "execute options": {"graph": {"ge.unsupported.option": "1"}}}
	EOF
	gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^summary: .* 0 errors" out
'

test_expect_success 'GeFlags_raw_ge_options_optimization_switch_success (test_atc.cc:3178): ge.optimizationSwitch is --optimization_switch' '
	raw_graph ge.optimizationSwitch PassA:on &&
	gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:4:7: note: ATC flag --optimization_switch=PassA:on is not modelled" out
'

test_expect_success 'GeFlags_raw_ge_options_display_model_info_success (test_atc.cc:3191): accepted' '
	raw_graph ge.display_model_info 0 &&
	gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^summary: .* 0 errors" out
'

test_expect_success 'GeFlags_raw_ge_options_om2_unsupported_option_failed (test_atc.cc:3204): a raw flag counts in the OM2 check, E10001' '
	raw_graph ge.saveOriginalModel true &&
	test_must_fail --exit 2 gerules atc $base --mode=7 --raw_ge_options=raw.json >out 2>err &&
	test_grep "Value true for parameter save_original_model is invalid. Reason: this option is not supported in om2 mode. \[GE E10001\]" err
'

# gerules checks of its own reading, each against main_impl.cc
test_expect_success 'a repeated key keeps its last value and an empty --raw_ge_options is no file (nlohmann::json; LoadRawGeOptions :477-480)' '
	cat >raw.json <<-\EOF &&
	{"compile options": {"graph": {"ge.exec.precision_mode": "force_fp16", "ge.exec.precision_mode": "force_fp32"}}}
	EOF
	gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^options: .*PRECISION_MODE=force_fp32" out &&
	gerules atc $base --raw_ge_options= >out 2>err &&
	test_grep "^summary: " out &&
	! grep raw_ge_options out
'

test_expect_success 'what nlohmann::json refuses is no JSON to ATC: a number that overflows a double, an empty file, a directory (E10032)' '
	cat >raw.json <<-\EOF &&
	{"compile options": {"graph": {"ge.jit_compile": "2"}}, "execute options": [1e400]}
	EOF
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:1:77: error: .*Reason: Invalid JSON format. \[GE E10032\]" err &&
	: >raw.json &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "Invalid JSON format. \[GE E10032\]" err &&
	mkdir -p dir &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=dir >out 2>err &&
	test_grep "Invalid JSON format. \[GE E10032\]" err
'

test_expect_success 'a visible optimization option runs its checker (CheckRawRegisteredOptimizationOptionValue :364-382), no error code' '
	raw_graph ge.oo.constantFolding x &&
	test_must_fail --exit 2 gerules atc $base --raw_ge_options=raw.json >out 2>err &&
	test_grep "^raw.json:4:32: error: option \[ge.oo.constantFolding\] value \[x\] is invalid. The value must be true, false or empty.$" err
'

test_done
