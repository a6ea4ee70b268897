#!/bin/sh
# t1130-atc.sh: `gerules atc --output=out ATC-FLAGS...` on the shipped example models: a
# real ATC command line gives the decisions of the equivalent `gerules eval`
# (the JSON node decisions compared), flags gerules does not model are
# listed once as notes, ATC's --output is never written, both value forms
# and ATC's spellings (-flag, dashes in names, unique prefixes) are read as
# ATC's parser reads them, flags and values ATC refuses are refused with
# ATC's code and wording, --input_shape makes inputs static or dynamic;
# and `gerules eval` takes an option alias as --FLAG=VALUE directly.
test_description='gerules atc'
. "$(dirname "$0")/test-lib.sh"

ex=$top_srcdir/examples

# decisions FILE: the node decisions of a JSON report, one JSON line per node
decisions () {
	python3 -c 'import json,sys; [print(json.dumps(n, sort_keys=True)) for n in json.load(open(sys.argv[1]))["nodes"]]' "$1"
}
# codes FILE: "severity code option" of every diagnostic of a JSON report
codes () {
	python3 -c 'import json,sys; [print(x["severity"], x["code"], x["option"]) for x in json.load(open(sys.argv[1]))["diagnostics"]]' "$1"
}
# test_must_be_empty_dir DIR
test_must_be_empty_dir () { test -z "$(ls -A "$1")"; }
# tiling FILE NODE: "tiling source" of one node
tiling () {
	python3 -c 'import json,sys; [print(n["tiling"], n["tiling_source"]) for n in json.load(open(sys.argv[1]))["nodes"] if n["name"]==sys.argv[2]]' "$1" "$2"
}

test_expect_success 'a real ATC command line (ONNX model, eight flags) runs with no error' '
	cp "$ex/op_precision.ini" . &&
	gerules atc --format json --model="$ex/llm_decoder.onnx" --framework=5 --output=out/llm \
		--soc_version=Ascend910B1 --input_shape="hidden_states:1,128,4096;seq_len_host:1" \
		--precision_mode=force_fp32 --op_precision_mode=op_precision.ini --log=error >atc.json 2>err &&
	test "$(json_get atc.json "d[\"summary\"][\"errors\"]")" = 0 &&
	test "$(json_get atc.json "d[\"chip\"][\"soc\"]")" = Ascend910B1 &&
	test "$(json_get atc.json "d[\"graph\"][\"format\"]")" = onnx
'

test_expect_success 'the flags gerules does not model are listed once, as notes; those that cannot change a decision are not' '
	! codes atc.json | grep GE1020 &&
	gerules atc --format json --model="$ex/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 \
		--log=info --log=error --fusion_switch_file=k.cfg --fusion_switch_file=k2.cfg --buffer_optimize=l2_optimize --output=o >twice.json &&
	codes twice.json | grep GE1020 >got &&
	printf "note GE1020 --fusion_switch_file\nnote GE1020 --buffer_optimize\n" >expect &&
	test_cmp expect got &&
	test_grep "ATC flag --fusion_switch_file=k2.cfg is not modelled" twice.json
'

test_expect_success 'the same decisions as the equivalent gerules eval' '
	gerules eval "$ex/llm_decoder.onnx" --format json --chip Ascend910B1 \
		-o PRECISION_MODE=force_fp32 -o ge.exec.op_precision_mode=op_precision.ini >eval.json &&
	decisions atc.json >atc.dec &&
	decisions eval.json >eval.dec &&
	test "$(wc -l <atc.dec)" -eq 64 &&
	test_cmp eval.dec atc.dec &&
	test_grep "op_precision.ini" atc.dec
'

test_expect_success 'the ATC JSON of the model (no --framework) gives the eval decisions too' '
	gerules atc --format json --model "$ex/llm_decoder.json" --soc_version Ascend910B1 --output out/llm \
		--precision_mode must_keep_origin_dtype --allow_hf32 true --log error >j.json &&
	gerules eval "$ex/llm_decoder.json" --format json --chip Ascend910B1 \
		--precision_mode=must_keep_origin_dtype --allow_hf32=true >je.json &&
	decisions j.json >j.dec && decisions je.json >je.dec &&
	test_cmp je.dec j.dec &&
	test_grep "hi_float_32\|hf32" j.dec
'

test_expect_success 'ATC --output is never written' '
	test ! -e out && test ! -e out/llm.om &&
	mkdir out2 &&
	gerules atc --model="$ex/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 --output=out2/m -q &&
	test_must_be_empty_dir out2 &&
	gerules atc --report rep.txt --model="$ex/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 --output=out2/m &&
	test_grep "^summary: 64 nodes" rep.txt &&
	test_must_be_empty_dir out2
'

test_expect_success 'the --flag value form, -flag and dashes in names read as ATC reads them' '
	gerules atc --format json --model "$ex/llm_decoder.onnx" --framework 5 --output out/llm \
		--soc_version Ascend910B1 --input_shape "hidden_states:1,128,4096;seq_len_host:1" \
		--precision_mode force_fp32 --op_precision_mode op_precision.ini --log error >sp.json &&
	decisions sp.json >sp.dec && test_cmp atc.dec sp.dec &&
	gerules atc --output=out --format json -model "$ex/llm_decoder.onnx" -framework=5 -soc-version=Ascend910B1 \
		--precision-mode=force_fp32 --op_precision=op_precision.ini >dash.json &&
	decisions dash.json >dash.dec && test_cmp atc.dec dash.dec
'

test_expect_success 'an unknown flag is ATC error, with a suggestion' '
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=5 \
		--soc_version=Ascend910B1 --input_shap="hidden_states:1,128,4096" >out.txt 2>err &&
	test_must_be_empty out.txt &&
	test_grep "error: unknown command line flag .input_shap.; did you mean .--input_shape.?" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=5 --mod=0 2>err &&
	test_grep "unknown command line flag .mod.; did you mean .--mode.?" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=5 extra 2>err &&
	test_grep "Non-option parameter: extra" err &&
	test_must_fail --exit 2 gerules atc --output=out --framework=5 --model 2>err &&
	test_grep "flag .--model. is missing its argument" err &&
	test_must_fail --exit 2 gerules atc --output=out --framework=5 --soc_version=Ascend910B1 2>err &&
	test_grep "The required parameter --model for ATC is empty.*\[GE E10054\]" err
'

test_expect_success 'values the ATC parser refuses, with its codes' '
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=5 --log=verbose 2>err &&
	test_grep "Value verbose for parameter --log is invalid. \[GE E10010\]" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=5 --status_check=2 2>err &&
	test_grep "must be either 1 or 0. \[GE E10006\]" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=2 2>err &&
	test_grep "framework is required. The value must be 0(Caffe) or 1(MindSpore) or 3(TensorFlow) or 5(Onnx). \[GE E10007\]" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=5 --op_debug_level=x 2>err &&
	test_grep "The valid range is \[0\] \[1\] \[2\] \[3\] \[4\] . \[GE E10001\]" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=5 --sparsity=1 --virtual_type=01x 2>err &&
	test_grep "virtual_type" err
'

test_expect_success 'frameworks: the reader ATC uses, and a clear error where gerules has none' '
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --soc_version=Ascend910B1 2>err &&
	test_grep "\[GE E10007\]" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=3 --soc_version=Ascend910B1 2>err &&
	test_grep "gerules cannot read TensorFlow models; convert the model with .atc --mode=1 --framework=3" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=0 --soc_version=Ascend910B1 2>err &&
	test_grep "cannot read Caffe models" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=1 --soc_version=Ascend910B1 2>err &&
	test_grep "framework=1 reads MindSpore models, but .*llm_decoder.onnx is not one (gerules reads it as onnx)" err
'

test_expect_success '--input_shape makes the named input dynamic or static, as ATC' '
	gerules atc --output=out --format json --model="$ex/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 \
		--input_shape="hidden_states:1,-1,4096" >dyn.json &&
	tiling dyn.json layer0/attn/q_proj >got &&
	echo "host tiling_dynamic_shape" >expect && test_cmp expect got &&
	tiling dyn.json hidden_states >got && test_cmp expect got &&
	tiling atc.json layer0/attn/q_proj >got &&
	echo "compile tiling_static" >expect && test_cmp expect got &&
	gerules atc --output=out --format json --model="$ex/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 \
		--input_shape="hidden_states:1~8,128,4096" >range.json &&
	tiling range.json layer0/attn/q_proj >got &&
	echo "host tiling_dynamic_shape" >expect && test_cmp expect got &&
	gerules atc --output=out --format json --model="$ex/llm_decoder_dynamic.json" --soc_version=Ascend910B1 >d0.json &&
	tiling d0.json layer0/attn/q_proj >got && test_cmp expect got &&
	gerules atc --output=out --format json --model="$ex/llm_decoder_dynamic.json" --soc_version=Ascend910B1 \
		--input_shape="hidden_states:1,128,4096" >d1.json &&
	tiling d1.json layer0/attn/q_proj >got &&
	echo "compile tiling_static" >expect && test_cmp expect got &&
	gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 --all-nodes \
		--input_shape="hidden_states:1,-1,4096" >dyn.txt &&
	test_grep "^layer0/attn/q_proj .* host (unknown dims)" dyn.txt
'

test_expect_success '--input_shape errors as ATC gives them' '
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 \
		--input_shape="hiden_states:1,128,4096" >out.txt 2>err &&
	test_must_be_empty out.txt &&
	test_grep "Op name hiden_states specified in --input_shape is not found in the model.*\[GE E10016\]; did you mean .hidden_states.?" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.json" --soc_version=Ascend910B1 \
		--input_shape="atten_mask:1,1,128,128" 2>err &&
	test_grep "Input Op atten_mask specified in --input_shape is invalid. The Op type must be Data. \[GE E10017\]" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.json" --soc_version=Ascend910B1 \
		--input_shape="hidden_states:1,0,4096" 2>err &&
	test_grep "Shape values must be positive integers. The error value in the shape is 0. \[GE E10011\]" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.json" --soc_version=Ascend910B1 \
		--input_shape="hidden_states:1,1.5,4096" 2>err &&
	test_grep "The float number is unsupported.*\[GE E10002\]" err &&
	test_must_fail --exit 2 gerules atc --output=out --model="$ex/llm_decoder.json" --soc_version=Ascend910B1 \
		--input_shape="1,128,4096" 2>err &&
	test_grep "The shape must contain two parts: name and value.*\[GE E10002\]" err
'

test_expect_success 'modelled option values are judged by the rule set, as in eval' '
	test_must_fail --exit 1 gerules atc --output=out --model="$ex/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 \
		--precision_mode=force_fp23 >out.txt 2>&1 &&
	test_grep "GE1002" out.txt &&
	test_grep "force_fp32" out.txt
'

test_expect_success 'eval takes an option alias as --FLAG=VALUE or --FLAG VALUE' '
	gerules eval "$ex/llm_decoder.onnx" --format json --chip Ascend910B1 --precision_mode=force_fp32 \
		--op_precision_mode op_precision.ini >ev2.json &&
	decisions ev2.json >ev2.dec && test_cmp eval.dec ev2.dec &&
	test_must_fail --exit 2 gerules eval "$ex/llm_decoder.onnx" --chip Ascend910B1 --precision_mode 2>err &&
	test_grep "needs a value" err &&
	test_must_fail --exit 2 gerules eval "$ex/llm_decoder.onnx" --chip Ascend910B1 --log=info 2>err &&
	test_grep "unknown option" err
'

test_expect_success 'an options file with a real ATC flag set: notes, not unknown options' '
	printf -- "--model=m.onnx\n--output=out/m\n--log=info\n--fusion_switch_file=k.cfg\n--buffer_optimize=l2_optimize\n--op_debug_level=0\n--precision_mode=force_fp32\n" >atc.opts &&
	gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 --options atc.opts --format json >o.json &&
	test "$(json_get o.json "d[\"summary\"][\"errors\"]")" = 0 &&
	test "$(codes o.json | grep -c GE1020)" = 4 &&
	printf -- "--input_shap=x:1\n" >typo.opts &&
	test_must_fail --exit 1 gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 --options typo.opts >o.txt 2>&1 &&
	test_grep "unknown option .--input_shap.*did you mean .--input_shape.?" o.txt
'

test_expect_success 'every option alias that is an ATC flag is in atc_flags' '
	grep -h "alias \"--" "$top_srcdir"/rules/*.rules | sed "s/.*alias \"\\(--[a-z0-9_]*\\)\".*/\\1/" | sort -u >aliases &&
	test -s aliases &&
	while read f; do grep -q "^    \"$f\": \\[" "$top_srcdir/rules/atc.rules" || { echo >&2 "missing $f"; exit 1; }; done <aliases
'

test_done
