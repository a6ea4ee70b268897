#!/bin/sh
# t1126-suggestions.sh: "did you mean" where people mistype most, each typo
# of issue 14 with the suggestion it must get: a node name in [ByNodeName]
# and after --explain, an op type in [ByOpType] (among this model's op
# types, and for an ONNX model the ONNX op a key names), an ini section
# header, a command flag of every subcommand and a global option, and an
# option value with a transposition (one edit in Damerau-Levenshtein).
test_description='did-you-mean for node names, op types, ONNX ops, sections and flags'
. "$(dirname "$0")/test-lib.sh"

LLM="$top_srcdir/examples/llm_decoder.json"
ONNX="$top_srcdir/examples/llm_decoder.onnx"

test_expect_success 'setup: an ini with a misspelt node name, op type and section' '
	printf "[ByNodename]\nlayer0/attn/o_proj=high_precision\n[ByNodeName]\nlayer0/attn/q_prj=high_precision\n[ByOpType]\nmatmulv2=high_precision\n" >typos.ini &&
	gerules eval "$LLM" --chip Ascend910B1 -o OP_PRECISION_MODE=typos.ini -q >out 2>err
'

test_expect_success '[ByNodeName] layer0/attn/q_prj: did you mean layer0/attn/q_proj' '
	test_grep "^typos.ini:4:19: warning: \\[ByNodeName\\] layer0/attn/q_prj=high_precision matches no node of that name in the graph; did you mean .layer0/attn/q_proj.? \\[GE4004\\]" out
'

test_expect_success '[ByOpType] matmulv2: did you mean MatMulV2, an op type of this model' '
	test_grep "^typos.ini:6:10: warning: \\[ByOpType\\] matmulv2=high_precision matches no node of that op type in the graph; did you mean .MatMulV2. (an op type of this model)?" out
'

test_expect_success '[ByNodename]: did you mean [ByNodeName]' '
	test_grep "^typos.ini:1:1: warning: unknown section .\\[ByNodename\\]. is ignored; its entries stay in the current section; did you mean .\\[ByNodeName\\].? \\[GR0201\\]" out
'

test_expect_success 'an entry with no close name gets no suggestion' '
	printf "[ByNodeName]\nzzzzzzzzzz=high_precision\n" >far.ini &&
	gerules eval "$LLM" --chip Ascend910B1 -o OP_PRECISION_MODE=far.ini -q >out 2>err &&
	test_grep "zzzzzzzzzz=high_precision matches no node of that name in the graph \\[GE4004\\]" out
'

test_expect_success 'an ONNX model: a key near an ONNX op type gets the IR type GE gives it' '
	printf "[ByOpType]\nMatmul=high_precision\n" >onnx.ini &&
	gerules eval "$ONNX" --chip Ascend910B1 -o OP_PRECISION_MODE=onnx.ini -q >out 2>err &&
	test_grep "Matmul=high_precision matches no node of that op type in the graph; did you mean .BatchMatMulV2. (the IR type GE.s ONNX parser gives this model.s MatMul nodes)?" out
'

test_expect_success '--explain layer0/attn/q_prj: did you mean layer0/attn/q_proj' '
	test_must_fail --exit 2 gerules eval "$LLM" --chip Ascend910B1 --explain layer0/attn/q_prj >out 2>err &&
	test_must_be_empty out &&
	test_grep "^gerules eval: error: no node named .layer0/attn/q_prj. in .*llm_decoder.json; did you mean .layer0/attn/q_proj.?$" err
'

test_expect_success 'tile --node gets the same suggestion' '
	test_must_fail --exit 2 gerules tile "$LLM" --chip Ascend910B1 --node layer0/attn/q_prj >out 2>err &&
	test_grep "^gerules tile: error: no node named .layer0/attn/q_prj. .*did you mean .layer0/attn/q_proj.?$" err
'

test_expect_success '--all-node: did you mean --all-nodes' '
	test_must_fail --exit 2 gerules eval "$LLM" --chip Ascend910B1 --all-node >out 2>err &&
	test_grep "^gerules eval: error: unknown option .--all-node.; did you mean .--all-nodes.?$" err
'

test_expect_success 'every subcommand suggests its own flags' '
	for c in "tile $LLM --exeute:--execute" "check --quite:--quiet" "chips --fromat:--format" "options --chipp:--chip" \
		"test --min-coverag:--min-coverage" "diff a b --grpah:--graph" "bundle sign --kye:--key"
	do
		args=${c%%:*}; sug=${c#*:}
		test_must_fail --exit 2 gerules $args >out 2>err || return 1
		if test -n "$sug"
		then
			grep -q "did you mean .$sug.?" err || { echo "gerules $args:"; cat err; return 1; }
		else
			! grep -q "did you mean" err || { echo "gerules $args:"; cat err; return 1; }
		fi
	done
'

test_expect_success 'a global option: --rulez gets --rules' '
	test_must_fail --exit 2 gerules --rulez x check 2>err &&
	test_grep "unknown option .--rulez.; did you mean .--rules.?" err
'

test_expect_success 'a transposition is one edit: force_fp23 suggests force_fp32' '
	test_must_fail gerules eval "$LLM" --chip Ascend910B1 -o precision_mode=force_fp23 >out 2>err &&
	test_grep "did you mean .force_fp32.?" out
'

# issue 25: KEEP_DTYPE and CUSTOMIZE_DTYPES lines suggest among this graph's
# op types and node names (an op library type that is in no node would match
# nothing either), and never the line's own text
test_expect_success 'KEEP_DTYPE: a node name and an op type get the closest of this graph' '
	printf "OpType::MatMulV3\nlayer0/attn/q_prj\n" >keep.cfg &&
	gerules eval "$LLM" --chip Ascend910B1 -o KEEP_DTYPE=keep.cfg -q >out 2>err &&
	test_grep "^keep.cfg:1:9: warning: KEEP_DTYPE: op type .MatMulV3. matches no node of the graph; did you mean .MatMulV2.?" out &&
	test_grep "^keep.cfg:2:1: warning: KEEP_DTYPE: node name .layer0/attn/q_prj. matches no node of the graph; did you mean .layer0/attn/q_proj.?" out &&
	! grep "did you mean .MatMulV3." out
'

test_expect_success 'CUSTOMIZE_DTYPES: the same suggestions' '
	printf "layer0/attn/q_prj::InputDtype:float16,float16\nOpType::MatMulV3:InputDtype:float16,float16\n" >cust.cfg &&
	gerules eval "$LLM" --chip Ascend910B1 -o CUSTOMIZE_DTYPES=cust.cfg -q >out 2>err &&
	test_grep "^cust.cfg:1:1: warning: CUSTOMIZE_DTYPES: node name .layer0/attn/q_prj. matches no node of the graph; did you mean .layer0/attn/q_proj.?" out &&
	test_grep "^cust.cfg:2:9: warning: CUSTOMIZE_DTYPES: op type .MatMulV3. matches no node of the graph; did you mean .MatMulV2.?" out
'

test_done
