#!/bin/sh
# t1107-hardening-readers.sh: hardening round 3 (issue 30), the model readers:
#  - names are never cut at a NUL: a binary ModelDef (and the .om around it)
#    with op `x\0y` or type `Re\0lu` is an error at the NUL's byte offset,
#    the text dump's `\000` in a name is located at line:col;
#  - the text reader rejects enum number 2147483648 and a string over the
#    16 MiB cap at line:col;
#  - format detection sends JSON-like text to the JSON reader (its
#    file:line:col), a UTF-8 BOM is accepted before JSON, a text dump, a JSON
#    options file and an ini file;
#  - binary-reader errors carry byte offsets (ONNX: no graph, more than 64
#    opset entries).
test_description='hardening: NUL in names, enum range, format detection, BOMs, byte offsets'
. "$(dirname "$0")/test-lib.sh"

PY=${PYTHON3:-python3}
CONV="$PY $top_srcdir/examples/ge_convert.py"
EVAL="eval --chip Ascend910B1"

test_expect_success 'setup' '
	printf "{\"graph\": [{\"name\": \"g\", \"op\": [{\"name\": \"a\", \"type\": \"Data\"}, {\"name\": \"b\", \"type\": \"Relu\", \"input\": [\"a:0\"]}]}]}" >ok.json &&
	printf "{\"graph\": [{\"name\": \"g\", \"op\": [{\"name\": \"a\", \"type\": \"Data\"}, {\"name\": \"x\\\\u0000y\", \"type\": \"Relu\", \"input\": [\"a:0\"]}]}]}" >nulname.json &&
	printf "{\"graph\": [{\"name\": \"g\", \"op\": [{\"name\": \"a\", \"type\": \"Data\"}, {\"name\": \"b\", \"type\": \"Re\\\\u0000lu\", \"input\": [\"a:0\"]}]}]}" >nultype.json &&
	$CONV nulname.json --binary nulname.pb --om nulname.om --text nulname.txt &&
	$CONV nultype.json --binary nultype.pb
'

# ---- names: length-counted, or a NUL is a located error ----

test_expect_success 'binary ModelDef: op x\0y is an error at the NUL, not op x' '
	test_must_fail --exit 2 gerules $EVAL nulname.pb >out 2>err &&
	test_must_be_empty out &&
	echo "nulname.pb: error: malformed ModelDef at byte 21: a NUL byte inside the string field OpDef.name (a name is never cut short at a NUL)" >expect &&
	test_cmp expect err
'

test_expect_success 'binary ModelDef: type Re\0lu is an error, not judged as op type Re' '
	test_must_fail --exit 2 gerules $EVAL nultype.pb >out 2>err &&
	test_must_be_empty out &&
	test_grep "^nultype.pb: error: malformed ModelDef at byte [0-9]*: a NUL byte inside the string field OpDef.type" err
'

test_expect_success 'binary ModelDef, not compressed: an attribute key \0x is an error at the NUL, not an attribute named ""' '
	printf "{\"graph\": [{\"name\": \"g\", \"op\": [{\"name\": \"a\", \"type\": \"Data\"}, {\"name\": \"b\", \"type\": \"Relu\", \"input\": [\"a:0\"], \"attr\": [{\"key\": \"\\\\u0000x\", \"value\": {\"i\": 1}}]}]}]}" >nulkey.json &&
	$CONV nulkey.json --binary nulkey.pb &&
	test_must_fail --exit 2 gerules $EVAL nulkey.pb >out 2>err &&
	test_must_be_empty out &&
	echo "nulkey.pb: error: malformed ModelDef at byte 36: an attribute key begins with a NUL byte, which only a compressed model (om_compress_version 1) writes, and this model is not compressed" >expect &&
	test_cmp expect err &&
	test "$(od -An -tx1 -j 36 -N2 nulkey.pb | tr -d " ")" = 0078
'

test_expect_success 'the same ModelDef inside an .om: the offset counts from the start of the .om' '
	test_must_fail --exit 2 gerules $EVAL nulname.om >out 2>err &&
	test_grep "^nulname.om: error: malformed ModelDef at byte [0-9]*: a NUL byte inside the string field OpDef.name" err &&
	at=$(sed -n "s/.*at byte \([0-9]*\):.*/\1/p" err) &&
	test "$(od -An -tx1 -j "$at" -N1 nulname.om | tr -d " ")" = 00
'

test_expect_success 'text dump: a \000 in a name is located at the string' '
	test_must_fail --exit 2 gerules $EVAL nulname.txt >out 2>err &&
	test_grep "^nulname.txt:8:11: error: string contains a NUL character" err
'

# ---- the text reader: enum range and the string cap ----

test_expect_success 'text dump: enum number 2147483648 is refused at line:col, 2147483647 read' '
	printf "graph {\n  name: \"g\"\n  op {\n    name: \"a\"\n    type: \"Data\"\n    output_desc { dtype: 2147483648 }\n  }\n}\n" >enum.txt &&
	test_must_fail --exit 2 gerules $EVAL enum.txt >out 2>err &&
	test_grep "^enum.txt:6:26: error: enum number 2147483648 out of range (a DataType is a 32-bit enum)" err &&
	sed "s/2147483648/2147483647/" enum.txt >enum_ok.txt &&
	gerules $EVAL enum_ok.txt >out
'

test_expect_success 'text dump: a string over 16 MiB is refused at its line:col' '
	{ printf "graph {\n  name: \"g\"\n  op {\n    name: \"" &&
	  head -c 16777217 /dev/zero | tr "\\000" a &&
	  printf "\"\n    type: \"Data\"\n  }\n}\n"; } >long.txt &&
	test_must_fail --exit 2 gerules $EVAL long.txt >out 2>err &&
	test_grep "^long.txt:4:11: error: string longer than 16777216 bytes (16 MiB)" err
'

# ---- format detection and BOMs ----

test_expect_success 'JSON-like text gets the JSON reader and its file:line:col' '
	printf "// a comment\n{\"graph\": []}\n" >comment.json &&
	test_must_fail --exit 2 gerules $EVAL comment.json >out 2>err &&
	test_grep "^comment.json:1:1: error: expected a JSON value, found ./." err &&
	printf "{\"graph\": [{\"name\": \"g\", \"op\": [{\"name\": \"a\\000b\", \"type\": \"Data\"}]}]}" >rawnul.json &&
	test_must_fail --exit 2 gerules $EVAL rawnul.json >out 2>err &&
	test_grep "^rawnul.json:1:44: error: unescaped control character 0x00 in string" err &&
	printf "\"just a string\"" >string.json &&
	test_must_fail --exit 2 gerules $EVAL string.json >out 2>err &&
	test_grep "^string.json:1:1: error: top level is not an object" err
'

test_expect_success 'a UTF-8 BOM is accepted before JSON (file and stdin) and a text dump' '
	gerules $EVAL ok.json --format json >want.out &&
	{ printf "\357\273\277" && cat ok.json; } >bom.json &&
	gerules $EVAL bom.json --format json >got.out &&
	sed "s/bom.json/ok.json/g" got.out >got2.out && test_cmp want.out got2.out &&
	gerules $EVAL bom.json --input-format json >/dev/null &&
	gerules $EVAL - <bom.json >/dev/null &&
	$CONV ok.json --text ok.txt && { printf "\357\273\277" && cat ok.txt; } >bom.txt &&
	gerules $EVAL bom.txt >/dev/null
'

test_expect_success 'a UTF-8 BOM is accepted before a JSON options file, a KEY=VALUE file and an ini file' '
	printf "\357\273\277{\"PRECISION_MODE\": \"allow_fp32_to_fp16\"}" >bom.opts.json &&
	gerules $EVAL ok.json --options bom.opts.json --format json >out &&
	test_grep "allow_fp32_to_fp16" out &&
	printf "\357\273\277PRECISION_MODE=allow_fp32_to_fp16\n" >bom.opts &&
	gerules $EVAL ok.json --options bom.opts --format json >out &&
	test_grep "allow_fp32_to_fp16" out &&
	printf "\357\273\277[ByOpType]\nRelu=high_precision\n" >bom.ini &&
	gerules $EVAL ok.json -o OP_PRECISION_MODE=bom.ini >out 2>err &&
	test_must_be_empty err
'

# ---- byte offsets on binary-reader errors ----

test_expect_success 'ONNX without a graph: the byte offset (the end of the model)' '
	printf "\010\007\102\002\020\021" >nograph.onnx &&
	test_must_fail --exit 2 gerules $EVAL nograph.onnx >out 2>err &&
	test_grep "^nograph.onnx: error: at byte 6 (the end): the ONNX model has no graph" err
'

test_expect_success 'ONNX with 65 opset_import entries: the byte offset of the 65th' '
	{ printf "\010\007" && i=0 && while test $i -lt 65; do printf "\102\002\020\021"; i=$((i + 1)); done; } >opsets.onnx &&
	test_must_fail --exit 2 gerules $EVAL opsets.onnx >out 2>err &&
	test_grep "^opsets.onnx: error: at byte 260: more than 64 opset_import entries" err
'

test_done
