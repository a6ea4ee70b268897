#!/bin/sh
# t1101-eval-errors.sh: every input and usage error of `gerules eval`. Each
# one must end with exit status 2, nothing on stdout and exactly the expected
# message on stderr: `file:line:col: error: ...` for malformed input (line and
# column of the offending byte or value, 1-based), `file: error: ...` for a
# file that cannot be read, `gerules eval: error: ...` for usage errors. Also:
# `-` reads the graph from stdin, input files are never modified, and --output
# is written atomically (doc/gerules.1, EXIT STATUS and --output).
test_description='gerules eval: input errors, stdin, untouched inputs, atomic --output'
. "$(dirname "$0")/test-lib.sh"


OK_GRAPH='{"graph": [{"name": "g", "op": [{"name": "a", "type": "Data"}, {"name": "b", "type": "Relu", "input": ["a:0"]}]}]}'

test_expect_success 'setup' '
	printf "%s\n" "$OK_GRAPH" >ok.json &&
	printf "[ByOpType]\nRelu=high_precision\n" >op_precision.ini
'

# ---- malformed graph JSON ----

test_expect_success 'truncated graph JSON: premature EOF at the end of the file' '
	printf "{\n  \"graph\": [\n    {\"name\": \"g\", \"op\": [\n      {\"name\": \"a\", \"type\": \"Data\"},\n" >truncated.json &&
	eval_error "truncated.json:5:1: error: unexpected end of input" truncated.json --chip Ascend910B1
'

test_expect_success 'graph JSON with trailing garbage: located at the garbage' '
	printf "%s\n}\n" "$OK_GRAPH" >trailing.json &&
	eval_error "trailing.json:2:1: error: trailing characters after the top-level value" trailing.json --chip Ascend910B1
'

test_expect_success 'graph JSON with a bad literal: located at the start of the literal' '
	printf "{\"graph\": [{\"name\": \"g\",\n  \"op\": [{\"name\": \"a\", \"type\": nul}]}]}\n" >literal.json &&
	eval_error "literal.json:2:32: error: invalid literal (expected true, false or null)" literal.json --chip Ascend910B1
'

test_expect_success 'graph JSON with a trailing comma in an object' '
	printf "{\"graph\": [],}" >comma.json &&
	msg=$(printf "comma.json:1:14: error: expected a string key after \047,\047, found \047}\047") &&
	eval_error "$msg" comma.json --chip Ascend910B1
'

test_expect_success 'an empty graph file' '
	: >empty.json &&
	eval_error "empty.json: error: empty file (expected ATC JSON (a GE ModelDef), a GE protobuf text dump (ge_proto_*.txt), a binary GE ModelDef, an .om offline model or an ONNX model)" empty.json --chip Ascend910B1
'

test_expect_success 'a graph file whose top level is an array' '
	printf "[]" >array.json &&
	eval_error "array.json:1:1: error: top level is not an object (expected a GE ModelDef: {\"name\": ..., \"graph\": [...]})" array.json --chip Ascend910B1
'

# ---- JSON that is not a GE ModelDef, and files that are no model at all:
# never an empty report with exit 0 ----

test_expect_success '{} is not a GE ModelDef' '
	printf "{}" >empty-object.json &&
	eval_error "empty-object.json:1:1: error: not a GE ModelDef: the top-level object has no \"graph\" member (expected the ModelDef JSON that \`atc --mode=1\` writes from an .om or a ge_proto dump: {\"name\": ..., \"graph\": [{\"op\": [...]}]})" empty-object.json --chip Ascend910B1
'

test_expect_success 'a ModelDef whose graph array is empty' '
	printf "{\"name\": \"m\",\n \"graph\": []}" >no-graphs.json &&
	eval_error "no-graphs.json:1:1: error: not a GE ModelDef: its \"graph\" array is empty (expected the ModelDef JSON that \`atc --mode=1\` writes from an .om or a ge_proto dump: {\"name\": ..., \"graph\": [{\"op\": [...]}]})" no-graphs.json --chip Ascend910B1
'

test_expect_success 'the ONNX GraphProto JSON of atc --mode=1 --framework=5 is named' '
	printf "{\"name\": \"torch_jit\",\n \"node\": [{\"input\": [\"x\"], \"output\": [\"y\"], \"op_type\": \"Relu\"}],\n \"input\": [{\"name\": \"x\"}]}\n" >onnx-graph.json &&
	eval_error "onnx-graph.json:2:2: error: not a GE ModelDef: this is the ONNX GraphProto JSON that \`atc --mode=1 --framework=5\` writes (expected the ModelDef JSON that \`atc --mode=1\` writes from an .om or a ge_proto dump; give gerules the .onnx model itself)" onnx-graph.json --chip Ascend910B1
'

test_expect_success 'a TensorFlow GraphDef in JSON is named' '
	printf "{\"node\": [{\"name\": \"a\", \"op\": \"Placeholder\"}], \"versions\": {\"producer\": 27}}" >tf.json &&
	eval_error "tf.json:1:2: error: not a GE ModelDef: this is a TensorFlow GraphDef in JSON (\"node\" entries with \"op\") (expected the ModelDef JSON that \`atc --mode=1\` writes from an .om or a ge_proto dump)" tf.json --chip Ascend910B1
'

test_expect_success 'a zip-based OM2 model gets a clear error' '
	printf "PK\003\004\024\000\000\000" >model.om &&
	eval_error "model.om: error: this is a zip archive, such as a zip-based OM2 model (\`atc --mode=7\`); gerules reads classic .om files (magic \"IMOD\"), not OM2: give it the model the OM2 was built from" model.om --chip Ascend910B1
'

test_expect_success 'bytes that are no model format' '
	printf "\001\002\003garbage" >junk.bin &&
	eval_error "junk.bin: error: unrecognised model format (first bytes 01 02 03 67 61 72 62 61): expected ATC JSON (a GE ModelDef), a GE protobuf text dump (ge_proto_*.txt), a binary GE ModelDef, an .om offline model or an ONNX model; --input-format names the format when detection fails" junk.bin --chip Ascend910B1
'

test_expect_success '--input-format json forces the JSON reader' '
	printf "IMOD" >notjson.om &&
	eval_error "notjson.om:1:1: error: expected a JSON value, found '"'"'I'"'"'" notjson.om --chip Ascend910B1 --input-format json
'

test_expect_success '--input-format rejects an unknown format' '
	eval_error "gerules eval: error: --input-format is one of auto, json, ge-text, ge-binary, om, onnx, not '"'"'pb'"'"'\n(try '"'"'gerules eval --help'"'"')" ok.json --chip Ascend910B1 --input-format pb
'

# ---- wrong field types (located at the value) ----

test_expect_success 'op type is a number' '
	printf "{\"graph\": [{\"name\": \"g\",\n  \"op\": [{\"name\": \"a\", \"type\": \"Data\"},\n         {\"name\": \"b\", \"type\": 7}]}]}\n" >type-type.json &&
	eval_error "type-type.json:3:32: error: expected a string for \"type\"" type-type.json --chip Ascend910B1
'

test_expect_success 'op input is a string, not an array' '
	printf "{\"graph\": [{\"name\": \"g\",\n  \"op\": [{\"name\": \"a\", \"type\": \"Data\", \"input\": \"x:0\"}]}]}\n" >type-input.json &&
	eval_error "type-input.json:2:49: error: expected an array for \"input\"" type-input.json --chip Ascend910B1
'

test_expect_success 'a shape dim is a string' '
	printf "{\"graph\": [{\"name\": \"g\", \"op\": [{\"name\": \"a\", \"type\": \"Data\",\n  \"output_desc\": [{\"shape\": {\"dim\": [\"1\"]}}]}]}]}\n" >type-dim.json &&
	eval_error "type-dim.json:2:38: error: expected an integer in \"dim\"" type-dim.json --chip Ascend910B1
'

test_expect_success 'graph is an object, not an array' '
	printf "{\"graph\": {\"name\": \"g\"}}\n" >type-graph.json &&
	eval_error "type-graph.json:1:11: error: expected an array for \"graph\"" type-graph.json --chip Ascend910B1
'

test_expect_success 'op name is a number' '
	printf "{\"graph\": [{\"name\": \"g\", \"op\": [{\"name\": 5, \"type\": \"Data\"}]}]}\n" >type-name.json &&
	eval_error "type-name.json:1:42: error: expected a string for \"name\"" type-name.json --chip Ascend910B1
'

# ---- graph structure ----

test_expect_success 'an edge from an unknown op: located at the op' '
	printf "{\"graph\": [{\"name\": \"g\", \"op\": [\n  {\"name\": \"a\", \"type\": \"Data\"},\n  {\"name\": \"b\", \"type\": \"Relu\", \"input\": [\"a:0\", \"zz:0\"]}]}]}\n" >edge.json &&
	eval_error "edge.json:3:3: error: op '"'"'b'"'"' input 1 (\"zz:0\") refers to unknown op '"'"'zz'"'"'" edge.json --chip Ascend910B1
'

test_expect_success 'a duplicate op name: located at the second op, naming the first' '
	printf "{\"graph\": [{\"name\": \"g\", \"op\": [\n  {\"name\": \"a\", \"type\": \"Data\"},\n  {\"name\": \"b\", \"type\": \"Relu\", \"input\": [\"a:0\"]},\n  {\"name\": \"a\", \"type\": \"Relu\"}]}]}\n" >dup.json &&
	eval_error "dup.json:4:3: error: duplicate op name '"'"'a'"'"' (first defined at line 2)" dup.json --chip Ascend910B1
'

# ---- unreadable graph files ----

test_expect_success 'a missing graph file' '
	eval_error "missing.json: error: cannot open: No such file or directory" missing.json --chip Ascend910B1
'

test_expect_success 'the graph is a directory' '
	mkdir graphdir &&
	eval_error "graphdir: error: not a regular file (a directory)" graphdir --chip Ascend910B1
'

# ---- --options files ----

test_expect_success '--options: truncated JSON is located at the end of the file' '
	printf "{\n  \"ge.exec.precision_mode\": \"force_fp16\",\n  \"ge.exec.allow_hf32\": \n" >o-trunc.json &&
	eval_error "o-trunc.json:4:1: error: malformed JSON: unexpected end of input" ok.json --chip Ascend910B1 --options o-trunc.json
'

test_expect_success '--options: a trailing comma is located at the closing brace' '
	printf "{\"ge.exec.allow_hf32\": \"11\",}\n" >o-comma.json &&
	eval_error "o-comma.json:1:29: error: malformed JSON: expected a string key after '"'"','"'"', found '"'"'}'"'"'" ok.json --chip Ascend910B1 --options o-comma.json
'

test_expect_success '--options: an object as a value' '
	printf "{\n  \"ge.exec.allow_hf32\": {\"conv\": true}\n}\n" >o-nested.json &&
	eval_error "o-nested.json:2:25: error: option values must be strings, numbers or booleans, not objects" ok.json --chip Ascend910B1 --options o-nested.json
'

test_expect_success '--options: an array as a value' '
	printf "{\"ge.exec.allow_hf32\": [\"1\", \"1\"]}\n" >o-arrval.json &&
	eval_error "o-arrval.json:1:24: error: option values must be strings, numbers or booleans, not arrays" ok.json --chip Ascend910B1 --options o-arrval.json
'

test_expect_success '--options: a JSON array instead of an object' '
	printf "[\n  {\"ge.exec.allow_hf32\": \"11\"}\n]\n" >o-array.json &&
	eval_error "o-array.json:1:1: error: a JSON options file must be an object of \"key\": value pairs" ok.json --chip Ascend910B1 --options o-array.json
'

test_expect_success '--options: KEY=VALUE file with a line without =, located at its first character' '
	printf "# options\nge.exec.allow_hf32=11\n   precision_mode force_fp16\n" >o-noeq.txt &&
	eval_error "o-noeq.txt:3:4: error: expected KEY=VALUE" ok.json --chip Ascend910B1 --options o-noeq.txt
'

test_expect_success '--options: KEY=VALUE file with an empty key' '
	printf "ge.exec.allow_hf32=11\n = 3\n" >o-nokey.txt &&
	eval_error "o-nokey.txt:2:2: error: empty option name before '"'"'='"'"'" ok.json --chip Ascend910B1 --options o-nokey.txt
'

test_expect_success '--options: a missing file' '
	eval_error "nope.txt: error: cannot open: No such file or directory" ok.json --chip Ascend910B1 --options nope.txt
'

# ---- the op_precision.ini of OP_PRECISION_MODE ----

test_expect_success 'a missing op_precision ini file is an input error' '
	eval_error "missing.ini: error: cannot open: No such file or directory (the file given to OP_PRECISION_MODE)" \
		ok.json --chip Ascend910B1 -o ge.exec.op_precision_mode=missing.ini
'

test_expect_success 'an op_precision ini that is a directory is an input error' '
	mkdir inidir &&
	eval_error "inidir: error: not a regular file (a directory) (the file given to OP_PRECISION_MODE)" \
		ok.json --chip Ascend910B1 -o --op_precision_mode=inidir
'

# ---- chip ----

test_expect_success 'an unknown chip, with a suggestion' '
	eval_error "gerules eval: error: unknown chip '"'"'Asend910B1'"'"'; did you mean '"'"'Ascend910B1'"'"'? (see '"'"'gerules chips'"'"')" \
		ok.json --chip Asend910B1
'

test_expect_success 'an unknown chip given through SOC_VERSION, with a suggestion' '
	eval_error "gerules eval: error: unknown chip '"'"'Ascend310p3'"'"'; did you mean '"'"'Ascend310P3'"'"'? (see '"'"'gerules chips'"'"')" \
		ok.json -o ge.socVersion=Ascend310p3
'

test_expect_success 'no chip at all' '
	eval_error "gerules eval: error: no chip given: use --chip SOC (see '"'"'gerules chips'"'"')" ok.json
'

test_expect_success '--chip without a value' '
	eval_error "gerules eval: error: --chip needs a value\n(try '"'"'gerules eval --help'"'"')" ok.json --chip
'

# ---- usage ----

test_expect_success 'a bad --run-mode' '
	eval_error "gerules eval: error: --run-mode is inference or training, not '"'"'train'"'"'\n(try '"'"'gerules eval --help'"'"')" \
		ok.json --chip Ascend910B1 --run-mode train
'

test_expect_success 'a bad --format' '
	eval_error "gerules eval: error: unknown format '"'"'yaml'"'"' (text, json, sarif, github, junit, html or dot)\n(try '"'"'gerules eval --help'"'"')" \
		ok.json --chip Ascend910B1 --format yaml
'

test_expect_success '-o without =' '
	eval_error "gerules eval: error: -o expects KEY=VALUE, got '"'"'ge.exec.allow_hf32'"'"'\n(try '"'"'gerules eval --help'"'"')" \
		ok.json --chip Ascend910B1 -o ge.exec.allow_hf32
'

test_expect_success '-o with an empty key' '
	eval_error "gerules eval: error: -o expects KEY=VALUE, got '"'"'=11'"'"'\n(try '"'"'gerules eval --help'"'"')" \
		ok.json --chip Ascend910B1 -o=11
'

test_expect_success '-o as the last argument' '
	eval_error "gerules eval: error: -o needs KEY=VALUE\n(try '"'"'gerules eval --help'"'"')" ok.json --chip Ascend910B1 -o
'

test_expect_success 'an unknown eval option' '
	eval_error "gerules eval: error: unknown option '"'"'--chips'"'"'; did you mean '"'"'--chip'"'"'?\n(try '"'"'gerules eval --help'"'"')" ok.json --chips Ascend910B1
'

test_expect_success '--explain names an unknown node' '
	eval_error "gerules eval: error: no node named '"'"'zz'"'"' in ok.json" ok.json --chip Ascend910B1 --explain zz
'

test_expect_success 'two graph files' '
	cp ok.json ok2.json &&
	eval_error "gerules eval: error: only one graph per run ('"'"'ok.json'"'"' and '"'"'ok2.json'"'"')\n(try '"'"'gerules eval --help'"'"')" \
		ok.json ok2.json --chip Ascend910B1
'

test_expect_success 'no graph file' '
	eval_error "gerules eval: error: no graph file given\n(try '"'"'gerules eval --help'"'"')" --chip Ascend910B1
'

# ---- stdin ----

test_expect_success '- reads the graph from stdin' '
	gerules eval - --chip Ascend910B1 --format json <ok.json >out 2>err &&
	test_must_be_empty err &&
	test "$(json_get out "d[\"graph\"][\"file\"]")" = "<stdin>" &&
	test "$(json_get out "[n[\"name\"] for n in d[\"nodes\"]]")" = "[\"a\", \"b\"]" &&
	gerules eval ok.json --chip Ascend910B1 --format json >file.out &&
	sed "s/\"<stdin>\"/\"ok.json\"/" out >stdin.out &&
	test_cmp file.out stdin.out
'

test_expect_success 'a malformed graph on stdin is located as <stdin>' '
	printf "{\"graph\": [\n" | eval_error "<stdin>:2:1: error: unexpected end of input" - --chip Ascend910B1
'

# ---- inputs are never modified ----

test_expect_success 'input files are never modified, whatever the outcome' '
	cp "$top_srcdir/examples/llm_decoder.json" graph.json &&
	cp "$top_srcdir/examples/op_precision_mistakes.ini" mistakes.ini &&
	printf "{\"ge.exec.allow_hf32\": \"11\", \"ge.tiling_schedule_optimize\": \"1\"}\n" >opts.json &&
	printf "ge.exec.precision_mode=bogus\n" >opts.txt &&
	chmod 0644 graph.json mistakes.ini opts.json opts.txt &&
	touch -d "2001-01-01 00:00:00" graph.json mistakes.ini opts.json opts.txt &&
	ls -l --time-style=full-iso graph.json mistakes.ini opts.json opts.txt >before.ls &&
	cksum graph.json mistakes.ini opts.json opts.txt >before.sum &&
	gerules eval graph.json --chip Ascend910B1 --entry session -o ge.exec.op_precision_mode=mistakes.ini --options opts.json --format json >/dev/null &&
	gerules eval graph.json --chip Ascend910B1 --entry session -o ge.exec.op_precision_mode=mistakes.ini --options opts.json --output graph.json.out &&
	test_must_fail --exit 1 gerules eval graph.json --chip Ascend310P3 -o ge.exec.op_precision_mode=mistakes.ini --options opts.txt >/dev/null &&
	test_must_fail --exit 2 gerules eval graph.json --chip Ascend910B1 --options opts.json --format nope 2>/dev/null &&
	test_must_fail --exit 2 gerules eval graph.json --chip Ascend910B1 --explain nope 2>/dev/null &&
	gerules eval - --chip Ascend910B1 -o ge.exec.op_precision_mode=mistakes.ini <graph.json >/dev/null &&
	cksum graph.json mistakes.ini opts.json opts.txt >after.sum &&
	ls -l --time-style=full-iso graph.json mistakes.ini opts.json opts.txt >after.ls &&
	test_cmp before.sum after.sum &&
	test_cmp before.ls after.ls
'

# ---- --output is atomic ----

test_expect_success '--output writes the report to the file, nothing to stdout' '
	gerules eval ok.json --chip Ascend910B1 --format json --output report.json >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	gerules eval ok.json --chip Ascend910B1 --format json >expect.json &&
	test_cmp expect.json report.json
'

test_expect_success '--output on a configuration error still writes the full report (exit 1)' '
	test_must_fail --exit 1 gerules eval ok.json --chip Ascend910B1 -o ge.exec.precision_mode=bogus --format json --output cfg.json >out 2>err &&
	test_must_be_empty out &&
	test "$(json_get cfg.json "d[\"summary\"][\"errors\"]")" = 1 &&
	ls -A >names && ! grep "^\\.cfg\\.json\\." names
'

test_expect_success '--output on an input error leaves no file and keeps an existing one' '
	mkdir outdir &&
	echo old >outdir/report.json &&
	test_must_fail --exit 2 gerules eval truncated.json --chip Ascend910B1 --output outdir/report.json 2>err &&
	test_must_fail --exit 2 gerules eval ok.json --chip Ascend910B1 --options o-trunc.json --output outdir/new.json 2>>err &&
	test_must_fail --exit 2 gerules eval ok.json --chip Nope --output outdir/new.json 2>>err &&
	echo old >expect &&
	test_cmp expect outdir/report.json &&
	ls -A outdir >names && echo report.json >expect && test_cmp expect names
'

test_expect_success '--output to a directory fails cleanly and leaves no temporary file' '
	mkdir -p outdir2/target.json &&
	eval_error "gerules eval: error: will not write outdir2/target.json: it is not a regular file (a directory)" ok.json --chip Ascend910B1 --output outdir2/target.json &&
	ls -A outdir2 >names && echo target.json >expect && test_cmp expect names
'

test_expect_success '--output into a missing directory fails cleanly' '
	eval_error "gerules eval: error: cannot write nodir/report.json: No such file or directory" ok.json --chip Ascend910B1 --output nodir/report.json &&
	! test -e nodir
'

test_done
