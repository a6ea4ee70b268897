#!/bin/sh
# t1104-onnx.sh: the ONNX reader and the ONNX to Ascend IR mapping of
# rules/onnx.rules, on models built by t/data/readers/onnx_models.py with the
# ONNX project's own library (python3-onnx): one model per class of mapping
# row (direct, conditional, decomposed, unregistered opset, unmapped op,
# dynamic dims, initializers, external data, If, whose branches have the If as
# their parent), each checked in the JSON
# report (IR types, names, provenance, E13010 diagnostics); then a corpus of
# one model per operator schema at several opsets, every one of which must
# give a report (exit 0 or 1), never a crash, a hang or exit 2.
test_description='ONNX reader and mapping'
. "$(dirname "$0")/test-lib.sh"

PY=${PYTHON3:-python3}
test_skip_unless ONNX

# types MODEL: "name:type" of every node, one per line (the report in rep.json)
types () { test_node_types "$1" rep.json; }

test_expect_success 'build the models' '
	"$PY" "$top_srcdir/t/data/readers/onnx_models.py" . --corpus >ncorpus &&
	test "$(cat ncorpus)" -ge 300
'

test_expect_success 'direct mappings rename ONNX ops' '
	types direct.onnx >got &&
	printf "x:Data\nadd:Add\ndiv:RealDiv\ngt:Greater\nwhere:SelectV2\n" >expect &&
	test_cmp expect got &&
	test "$(json_get rep.json "d[\"graph\"][\"format\"]")" = onnx &&
	test "$(json_get rep.json "d[\"graph\"][\"onnx_opset\"]")" = 17
'

test_expect_success 'conditional mappings: Conv by kernel rank, Resize by mode, Concat by inputs' '
	types conditional.onnx | grep -v Initializer >got &&
	printf "%s\n" img:Data vol:Data seq:Data conv2d:Conv2D conv3d:Conv3D \
		PartitionedCall_conv1d_UnsqueezeX_24:Unsqueeze PartitionedCall_conv1d_UnsqueezeW_25:Unsqueeze \
		PartitionedCall_conv1d_Conv2D_26:Conv2D PartitionedCall_conv1d_SqueezeY_27:Squeeze \
		PartitionedCall_resize_linear_roi_1:Const PartitionedCall_resize_linear_x_3:Identity \
		PartitionedCall_resize_linear_scales_5:Identity PartitionedCall_resize_linear_Shape_6:Shape \
		PartitionedCall_resize_linear_Cast0_9:Cast PartitionedCall_resize_linear_Mul_8:Mul \
		PartitionedCall_resize_linear_Cast1_7:Cast PartitionedCall_resize_linear_Resize_4:Resize \
		PartitionedCall_resize_nearest_x_11:Identity PartitionedCall_resize_nearest_Shape_12:Shape \
		PartitionedCall_resize_nearest_Cast0_14:Cast PartitionedCall_resize_nearest_scales_20:Identity \
		PartitionedCall_resize_nearest_Mul_16:Mul PartitionedCall_resize_nearest_Cast1_19:Cast \
		PartitionedCall_resize_nearest_data_offsets_17:Const PartitionedCall_resize_nearest_data_size_18:Const \
		PartitionedCall_resize_nearest_Slice_15:Slice \
		PartitionedCall_resize_nearest_ResizeNearestNeighborV2_13:ResizeNearestNeighborV2 \
		concat1:Identity concat2:ConcatD >expect &&
	test_cmp expect got
'

test_expect_success 'each row of a conditional mapping is picked: int attribute, input count, attribute presence, list length' '
	types branches.onnx | grep -v "Initializer\|:Data$" >got; test $? -le 1 &&
	printf "%s\n" PartitionedCall_argmax_flat_const_data_2:Const PartitionedCall_argmax_flat_ArgMaxV2_1:ArgMaxV2 \
		PartitionedCall_argmax_kept_const_data_6:Const PartitionedCall_argmax_kept_ArgMaxV2_4:ArgMaxV2 \
		PartitionedCall_argmax_kept_data1_7:Const PartitionedCall_argmax_kept_ExpandDims_5:ExpandDims \
		PartitionedCall_gemm_plain_MatMulV2_11:MatMulV2 PartitionedCall_gemm_plain_add_12:Add \
		PartitionedCall_gemm_scaled_MatMulV2_16:MatMulV2 PartitionedCall_gemm_scaled_Muls1_18:Muls \
		PartitionedCall_gemm_scaled_Muls2_17:Muls PartitionedCall_gemm_scaled_add_19:Add \
		gemm_nobias:MatMulV2 clip_both:ClipByValue clip_min:Maximum \
		PartitionedCall_pool1d_UnsqueezeX_21:Unsqueeze PartitionedCall_pool1d_AvgPoolV2_22:AvgPoolV2 \
		PartitionedCall_pool1d_SqueezeAvgpoolv2_23:Squeeze pool2d:AvgPoolV2 pool3d:AvgPool3D \
		transpose_noperm:Transpose >expect &&
	test_cmp expect got &&
	"$PY" -c "
import json
d = json.load(open(\"rep.json\"))
e = [x for x in d[\"diagnostics\"] if x[\"severity\"] == \"error\"]
assert [(x[\"code\"], x[\"node\"]) for x in e] == [(\"E11010\", \"transpose_noperm\")], e
assert \"ai.onnx::17::Transpose\" in e[0][\"message\"], e
"
'

test_expect_success 'a decomposition names its ops as GE does (PartitionedCall_<sub node>_<n>) and keeps the ONNX node' '
	types decomposed.onnx | grep -v Initializer >got &&
	printf "x:Data\nPartitionedCall_fc_MatMulV2_3:MatMulV2\nPartitionedCall_fc_add_4:Add\nfc_nobias:MatMulV2\n" >expect &&
	test_cmp expect got &&
	gerules eval decomposed.onnx --chip Ascend910B1 --explain PartitionedCall_fc_add_4 >explain &&
	test_grep "PartitionedCall_fc_add_4" explain &&
	"$PY" -c "
import json; d = json.load(open(\"rep.json\"))
n = [x for x in d[\"nodes\"] if x[\"name\"] == \"PartitionedCall_fc_add_4\"][0]
assert n[\"graph\"] == \"g\", n
"
'

test_expect_success 'Gemm: A and B feed MatMulV2, the bias C feeds the Add (GE gemm_onnx_plugin)' '
	gerules eval decomposed.onnx --chip Ascend910B1 --format dot >g.dot &&
	"$PY" -c "
import re
t = open(\"g.dot\").read()
name = dict(re.findall(r\"(n[0-9]+) \\[label=\\\"([^\\\\\\\"]+)\", t))
ins = {}
for a, b in re.findall(r\"(n[0-9]+) -> (n[0-9]+);\", t): ins.setdefault(name[b], []).append(name[a])
assert ins[\"PartitionedCall_fc_MatMulV2_3\"] == [\"x\", \"w_Initializer_1\"], ins
assert ins[\"PartitionedCall_fc_add_4\"] == [\"PartitionedCall_fc_MatMulV2_3\", \"b_Initializer_0\"], ins
assert ins[\"fc_nobias\"] == [\"x\", \"w_Initializer_1\"], ins
"
'

test_expect_success 'an op past its registered opsets gets E13010 naming the node; the rest is reported' '
	gerules eval opset19.onnx --chip Ascend910B1 --format json >rep.json; test $? = 1 &&
	"$PY" -c "
import json; d = json.load(open(\"rep.json\"))
codes = sorted((x[\"code\"], x[\"message\"].split(\":\")[1].split(\",\")[0].strip()) for x in d[\"diagnostics\"] if x[\"code\"] == \"E13010\")
assert codes == [(\"E13010\", \"add\"), (\"E13010\", \"relu\")], codes
assert any(\"ai.onnx::19::Relu\" in x[\"message\"] for x in d[\"diagnostics\"])
assert len(d[\"nodes\"]) == 3
"
'

test_expect_success 'an op no plugin handles gets E13010; mapped neighbours keep their IR type' '
	types unmapped.onnx >got &&
	test_grep "^loop:Loop$" got && test_grep "^sigmoid:Sigmoid$" got &&
	test "$(json_get rep.json "[x[\"code\"] for x in d[\"diagnostics\"] if x[\"severity\"] == \"error\"]")" = "[\"E13010\"]" &&
	test_grep "ai.onnx::17::Loop" rep.json
'

test_expect_success 'dim_param and unset dims are dynamic; no shape is a static scalar' '
	gerules eval dynamic.onnx --chip Ascend910B1 --format json >rep.json &&
	test "$(json_get rep.json "[n[\"tiling_source\"] for n in d[\"nodes\"] if n[\"name\"] in (\"x\", \"s\", \"u\")]")" = "[\"tiling_dynamic_shape\", \"tiling_static\", \"tiling_dynamic_shape\"]"
'

test_expect_success 'initializers become Const named in sorted order; an initializer-backed input is no Data' '
	types init.onnx >got &&
	printf "ab_Initializer_0:Const\nzw_Initializer_1:Const\nx:Data\nmm:BatchMatMulV2\nadd:Add\n" >expect &&
	test_cmp expect got
'

test_expect_success 'external data becomes FileConstant and is never opened' '
	types external.onnx >got &&
	test_grep "^big_Initializer_0:FileConstant$" got &&
	! test -e weights.bin
'

test_expect_success 'If branches become subgraphs with the captured value as Data' '
	gerules eval if.onnx --chip Ascend910B1 --format json >rep.json &&
	test "$(json_get rep.json "d[\"graph\"][\"graphs\"]")" = "[\"g\", \"g/branch_0_then_branch\", \"g/branch_1_else_branch\"]" &&
	test "$(json_get rep.json "[n[\"name\"] + \":\" + n[\"type\"] for n in d[\"nodes\"] if n[\"graph\"] != \"g\"]")" = "[\"g/branch_0_then_branch/x:Data\", \"g/branch_0_then_branch/then_relu:Relu\", \"g/branch_1_else_branch/x:Data\", \"g/branch_1_else_branch/else_neg:Neg\"]"
'

# ONNX gives an If's outputs the types its branches declare (onnx
# Operators.md, If): the Relu after it reads float16 although the model has
# no value_info for the If's output
test_expect_success 'an If output takes the dtype its branch graphs declare' '
	gerules eval if_out.onnx --chip Ascend910B1 --format json >ifo.json &&
	test "$(json_get ifo.json "[n[\"dtype_detail\"][\"inputs\"] for n in d[\"nodes\"] if n[\"name\"] == \"after\"][0]")" = "[[\"float16\", \"float16\"]]" &&
	test "$(json_get ifo.json "[n[\"dtype\"] for n in d[\"nodes\"] if n[\"name\"] == \"after\"][0]")" = float16
'

# where no branch declares it (elem_type 0), an If's output has the type its
# branch's output gets; an If in a branch is typed the same way first, so
# the Relu after the outer If reads the float16 of the inner Casts
test_expect_success 'an If output takes the dtype its branch computes, through a nested If' '
	gerules eval if_nested.onnx --chip Ascend910B1 --format json >ifn.json &&
	test "$(json_get ifn.json "[n[\"dtype_detail\"][\"inputs\"] for n in d[\"nodes\"] if n[\"name\"] == \"after\"][0]")" = "[[\"float16\", \"float16\"]]" &&
	test "$(json_get ifn.json "[n[\"dtype\"] for n in d[\"nodes\"] if n[\"name\"] == \"after\"][0]")" = float16 &&
	test "$(json_get ifn.json "d[\"graph\"][\"graphs\"]")" = "[\"g\", \"g/outer_0_then_branch\", \"g/outer_1_else_branch\", \"g/outer_0_then_branch/inner_a_0_then_branch\", \"g/outer_0_then_branch/inner_a_1_else_branch\", \"g/outer_1_else_branch/inner_b_0_then_branch\", \"g/outer_1_else_branch/inner_b_1_else_branch\"]"
'

# GE's IfSubgraphAdapter passes into a branch the names its own nodes read,
# graph by graph: x, read only inside the inner If, is no input of the outer
# branch, so the inner If's input x is unconnected and its branches' Data x
# has no producer (and no dtype); a Relu of a name nothing produces too
test_expect_success 'a value captured from two graphs up, and an input naming nothing, are unconnected (GE8001)' '
	gerules eval deep_capture.onnx --chip Ascend910B1 --format json >dc.json &&
	test "$(json_get dc.json "sorted(x[\"message\"].split(\",\")[0] for x in d[\"diagnostics\"] if x[\"code\"] == \"GE8001\")")" = "[\"Unknown input: ghost for node: ghost_relu\", \"Unknown input: x for node: g/outer_0_then_branch/inner\"]" &&
	test "$(json_get dc.json "[n[\"name\"] + \":\" + str(n[\"dtype\"]) for n in d[\"nodes\"] if n[\"type\"] == \"Data\" and n[\"graph\"] != \"g\"]")" = "[\"g/outer_0_then_branch/c:bool\", \"g/outer_0_then_branch/s:float32\", \"g/outer_1_else_branch/c:bool\", \"g/outer_1_else_branch/s:float32\", \"g/outer_0_then_branch/inner_0_then_branch/x:None\", \"g/outer_0_then_branch/inner_1_else_branch/x:None\"]" &&
	gerules eval deep_capture.onnx --chip Ascend910B1 >dc.txt &&
	test_grep "warning: Unknown input: x for node: g/outer_0_then_branch/inner, which maybe option input: GE.s ONNX parser leaves this input unconnected" dc.txt
'

# ONNX requires nodes in topological order and each name produced once;
# GE's parser links inputs by name regardless of order, to the last producer
# of a name: where gerules' file-order reading differs, it says so
test_expect_success 'an input produced by a later node (GE8002), a name produced twice (GE8003)' '
	gerules eval unsorted.onnx --chip Ascend910B1 --format json >uns.json &&
	test "$(json_get uns.json "[(x[\"code\"], x[\"node\"]) for x in d[\"diagnostics\"] if x[\"code\"].startswith(\"GE800\")]")" = "[[\"GE8002\", \"r2\"]]" &&
	gerules eval twice.onnx --chip Ascend910B1 --format json >tw.json &&
	test "$(json_get tw.json "[(x[\"code\"], x[\"node\"]) for x in d[\"diagnostics\"] if x[\"code\"].startswith(\"GE800\")]")" = "[[\"GE8003\", \"second\"]]" &&
	test "$(json_get tw.json "[x[\"message\"] for x in d[\"diagnostics\"] if x[\"code\"] == \"GE8003\"][0]")" = "output y of node second is produced by an earlier node too: ONNX names every tensor once; GE'"'"'s parser links each reader of it to the last producer, gerules to the first, so what it reports for the readers may differ from GE'"'"'s"
'

# Any loop those links close fails GE's topological sort: error GE8005 on the
# loop's last node in the node list, naming the nodes on it (an unnamed one as
# gerules names it; a long loop shortened); a graph with no loop gets none
test_expect_success 'a cycle GE links through a name produced twice, inputs produced later or an If capture is error GE8005' '
	test_must_fail --exit 1 gerules eval cycle_twice.onnx --chip Ascend910B1 --format json >ct.json &&
	test "$(json_get ct.json "[(x[\"code\"], x[\"severity\"], x[\"node\"]) for x in d[\"diagnostics\"] if x[\"code\"].startswith(\"GE800\")]")" = "[[\"GE8003\", \"warning\", \"c\"], [\"GE8005\", \"error\", \"c\"]]" &&
	test "$(json_get ct.json "[x[\"message\"] for x in d[\"diagnostics\"] if x[\"code\"] == \"GE8005\"][0]")" = "node c is on a cycle of the graph GE'"'"'s parser builds: c -> Neg_0 -> c. GE links every input to the node that produces the name, the last one when several do, wherever it is in the node list, so its topological sort fails" &&
	test "$(json_get ct.json "[n[\"name\"] for n in d[\"nodes\"] if n[\"type\"] == \"Neg\"]")" = "[\"Neg_0\"]" &&
	test_must_fail --exit 1 gerules eval cycle_unsorted.onnx --chip Ascend910B1 --format json >cu.json &&
	test "$(json_get cu.json "[(x[\"code\"], x[\"node\"]) for x in d[\"diagnostics\"] if x[\"code\"].startswith(\"GE800\")]")" = "[[\"GE8002\", \"r2\"], [\"GE8005\", \"r1\"]]" &&
	test_grep "node r1 is on a cycle of the graph GE.s parser builds: r1 -> r2 -> r1\." cu.json &&
	test_must_fail --exit 1 gerules eval cycle_long.onnx --chip Ascend910B1 --format json >cl.json &&
	test_grep "node close is on a cycle of the graph GE.s parser builds: close -> r0 -> r1 -> r2 -> r3 -> r4 -> r5 -> r6 -> \.\.\. (4 more nodes) -> close\." cl.json &&
	test_must_fail --exit 1 gerules eval cycle_capture.onnx --chip Ascend910B1 --format json >cc.json &&
	test "$(json_get cc.json "[(x[\"code\"], x[\"node\"]) for x in d[\"diagnostics\"] if x[\"code\"].startswith(\"GE800\")]")" = "[[\"GE8002\", \"branch\"], [\"GE8005\", \"late\"]]" &&
	test_grep "node late is on a cycle of the graph GE.s parser builds: late -> branch -> late\." cc.json &&
	for m in twice unsorted deep_capture if_nested if if_out; do
		gerules eval $m.onnx --chip Ascend910B1 --format json >nc.json &&
		test "$(json_get nc.json "[x[\"code\"] for x in d[\"diagnostics\"] if x[\"code\"] == \"GE8005\"]")" = "[]" || return 1
	done
'

# ONNX's LSTM gives Y, Y_h and Y_c one type T, x's (Operators.md, LSTM):
# table onnx_shapes "dtype_outputs"; the Relu reading Y_h sees float32
test_expect_success 'every output of an LSTM has the dtype of its x' '
	gerules eval lstm_out.onnx --chip Ascend910B1 --format json >lo.json &&
	test "$(json_get lo.json "[n[\"dtype_detail\"][\"inputs\"][0][0] for n in d[\"nodes\"] if n[\"name\"] == \"after_h\"][0]")" = float32
'

# What a hook sees of input 0 of each node of the given types in MODEL
# (Ascend910B1): "name DTYPE [dims]" ("nil" for a shape gerules does not
# know), sorted, as a JSON list.
input0_seen () {
	model=$1 &&
	shift &&
	types=$(printf '["%s"] = true, ' "$@") &&
	cat >seen.lua <<-EOF &&
	local want = { $types }
	gr.on_node({}, function(node)
	  if not want[node.type] then return end
	  local i = node:input(0)
	  local s = i.shape
	  node:note("SITE1", node.name .. " " .. tostring(i.dtype) .. " " .. (s == nil and "nil" or ("[" .. table.concat(s, ",") .. "]")))
	end)
	EOF
	gerules eval "$model" --chip "${seen_chip:-Ascend910B1}" --hook seen.lua --format json >seen.json &&
	json_get seen.json "sorted(x[\"message\"] for x in d[\"diagnostics\"] if x[\"code\"] == \"SITE1\")"
}

# GE's ConstantOfShape plugin makes a Const of the `value` attribute's type
# (DT_FLOAT without one; hicann/ops-nn constantofshape_onnx_plugin.cpp
# 87-111); ONNX gives the output that type and input 0's values as dims
# (Operators.md): without value_info, the ops reading it still see both
test_expect_success 'ConstantOfShape: the value attribute gives the dtype, the shape input the dims' '
	gerules eval fill.onnx --chip Ascend910B1 --format json >fill.json &&
	"$PY" -c "
import json; d = json.load(open(\"fill.json\"))
c = {n[\"name\"].split(\"_data1_\")[0]: n[\"dtype\"] for n in d[\"nodes\"] if \"_data1_\" in n[\"name\"]}
assert c == {\"PartitionedCall_cos_i\": \"int64\", \"PartitionedCall_cos_f\": \"float32\", \"PartitionedCall_cos_d\": \"float16\"}, c
n = {x[\"name\"]: x for x in d[\"nodes\"]}
assert n[\"add_i\"][\"dtype_detail\"][\"inputs\"] == [[\"int64\", \"int64\"], [\"int64\", \"int64\"]], n[\"add_i\"]
assert n[\"mul_f\"][\"dtype_detail\"][\"inputs\"][0][0] == \"float32\", n[\"mul_f\"]
assert n[\"relu_d\"][\"dtype_detail\"][\"inputs\"] == [[\"float16\", \"float16\"]], n[\"relu_d\"]
" &&
	test "$(input0_seen fill.onnx Add Mul Relu)" = "[\"add_i DT_INT64 [2,3]\", \"mul_f DT_FLOAT [2,3]\", \"relu_d DT_FLOAT16 [-1,-1]\"]"
'

# The ops whose output type ONNX's type constraints fix (Operators.md) get a
# shape function (rules/onnx.rules, table onnx_shapes): without value_info the
# op reading each output still sees its dtype (IsInf and IsNan output
# DT_BOOL: CANN 8.1.RC1 opp/built-in/op_proto/inc/math_ops.h:754, 813)
test_expect_success 'Mish, MVN, IsNaN, IsInf, Range, BitShift and Scatter give their outputs a dtype' '
	gerules eval typed.onnx --chip Ascend910B1 --format json >typed.json &&
	gerules eval scatter.onnx --chip Ascend910B1 --format json >scatter.json &&
	"$PY" -c "
import json
n = {x[\"name\"]: x for f in (\"typed.json\", \"scatter.json\") for x in json.load(open(f))[\"nodes\"]}
got = {k: n[k][\"dtype_detail\"][\"inputs\"][0][0] for k in (\"relu_m\", \"relu_mv\", \"not_nan\", \"not_inf\", \"add_r\", \"add_s\", \"relu_s\")}
assert got == {\"relu_m\": \"float32\", \"relu_mv\": \"float32\", \"not_nan\": \"bool\", \"not_inf\": \"bool\",
               \"add_r\": \"int64\", \"add_s\": \"uint8\", \"relu_s\": \"float32\"}, got
" &&
	test "$(input0_seen typed.onnx LogicalNot)" = "[\"not_inf DT_BOOL [1,2,3,3]\", \"not_nan DT_BOOL [1,2,3,3]\"]"
'

# NonZero's output is int64 [rank, count], the count known only at run time
# (Operators.md, NonZero; rules/onnx.rules, table onnx_shapes "nonzero"): GE's
# InferShape leaves it -1, so the NonZero and what reads it are dynamic even
# where the input is static. The build before read the shape as one GE knows
# (static) and tiled both at compile time.
test_expect_success 'NonZero: int64 [rank, -1], so the graph is dynamic' '
	gerules eval nonzero.onnx --chip Ascend910B1 --format json >nz.json &&
	"$PY" -c "
import json; d = json.load(open(\"nz.json\"))
n = {x[\"name\"]: x for x in d[\"nodes\"]}
t = [x for x in d[\"nodes\"] if x[\"type\"] == \"Transpose\"][0]
assert (n[\"nonzero\"][\"execution\"], n[\"nonzero\"][\"tiling\"]) == (\"dynamic\", \"host\"), n[\"nonzero\"]
assert (t[\"execution\"], t[\"dtype_detail\"][\"inputs\"][0][0]) == (\"dynamic\", \"int64\"), t
" &&
	test "$(input0_seen nonzero.onnx Transpose)" = "[\"PartitionedCall_tr_Transpose_1 DT_INT64 [2,-1]\"]"
'

# NonMaxSuppression is GE's plugin subgraph (hicann/ops-cv @6ae876534
# objdetect/non_max_suppression_v6/framework/non_max_suppression_onnx_plugin.cpp):
# one Data per input, NonMaxSuppressionV6, whose selected_indices is int32
# (CANN 8.1.RC1 op_proto/inc/nn_detect_ops.h:1880-1889), and a Cast to int64;
# renamed, the counter advancing by 7 and 4. A row per box kept (Operators.md,
# NonMaxSuppression), as many as GE's InferShape of NonMaxSuppressionV6 fixes
# when max_output_boxes_per_class is a constant: batch * classes * it, at most
# the number of scores (CANN's ops repository, mirror
# dengguojie/vue-element-admin @83709c7a8 ops/built-in/op_proto/
# nn_detect_ops.cc:1752-1791): min(1 * 1 * 10, 100) = 10, static. Without it
# (nms2) the count is -1, and nms2 dynamic; the static cluster of nms is
# too small to stay apart, so GE runs it in the dynamic graph too, tiled at
# compile time. The build before mapped the node
# to a NonMaxSuppressionV6 alone under the ONNX name, its output without a
# shape; the one before this change gave both [-1, 3], ONNX's count.
test_expect_success 'NonMaxSuppression: GE'"'"'s subgraph and names, int32 then int64 [10, 3] with a constant count, else [-1, 3]' '
	types nms.onnx | grep -v "Initializer\|:Data$" >got; test $? -le 1 &&
	printf "%s\n" PartitionedCall_nms_NonMaxSuppressionV6_5:NonMaxSuppressionV6 PartitionedCall_nms_Cast_6:Cast \
		PartitionedCall_tr_Const_13:Const PartitionedCall_tr_Transpose_12:Transpose \
		PartitionedCall_nms2_NonMaxSuppressionV6_9:NonMaxSuppressionV6 PartitionedCall_nms2_Cast_10:Cast >expect &&
	test_cmp expect got &&
	gerules eval nms.onnx --chip Ascend910B1 --format json >nms.json &&
	"$PY" -c "
import json; d = json.load(open(\"nms.json\"))
n = {x[\"name\"]: x for x in d[\"nodes\"]}
for k in (\"PartitionedCall_nms_NonMaxSuppressionV6_5\", \"PartitionedCall_nms_Cast_6\", \"PartitionedCall_tr_Transpose_12\"):
    assert (n[k][\"execution_source\"], n[k][\"tiling\"]) == (\"execution_small\", \"compile\"), n[k]
for k in (\"PartitionedCall_nms2_NonMaxSuppressionV6_9\", \"PartitionedCall_nms2_Cast_10\"):
    assert (n[k][\"execution\"], n[k][\"tiling\"]) == (\"dynamic\", \"host\"), n[k]
assert n[\"PartitionedCall_nms_Cast_6\"][\"dtype_detail\"][\"inputs\"][0][0] == \"int32\", n[\"PartitionedCall_nms_Cast_6\"]
" &&
	test "$(input0_seen nms.onnx Transpose Cast)" = "[\"PartitionedCall_nms2_Cast_10 DT_INT32 [-1,3]\", \"PartitionedCall_nms_Cast_6 DT_INT32 [10,3]\", \"PartitionedCall_tr_Transpose_12 DT_INT64 [10,3]\"]"
'

# The count GE's InferShape of NonMaxSuppressionV6 gives (nn_detect_ops.cc
# @83709c7a8 :1752-1791): batch * classes * max_output_size, at most the
# number of scores, the constant read as its first 32 bits: an int32 7 over
# scores [2, 3, 50] gives 42; an int64 2^32 + 5 over [1, 2, 100] gives 10;
# 0 gives an empty [0, 3]; a negative count is no shape GE can use: -1.
test_expect_success 'NonMaxSuppression: the count from max_output_size as GE reads it' '
	"$PY" - <<-\EOF &&
	import onnx
	from onnx import helper as h, TensorProto as T
	vi = h.make_tensor_value_info
	def save(name, sdims, maxv, mdt):
	    g = h.make_graph([h.make_node("NonMaxSuppression", ["boxes", "scores", "maxk"], ["sel"], name="nms")], "g",
	                     [vi("boxes", T.FLOAT, [sdims[0], sdims[2], 4]), vi("scores", T.FLOAT, sdims)],
	                     [vi("sel", T.INT64, None)], [h.make_tensor("maxk", mdt, [1], [maxv])])
	    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 11)]), name + ".onnx")
	save("nms_i32", [2, 3, 50], 7, T.INT32)
	save("nms_wide", [1, 2, 100], (1 << 32) + 5, T.INT64)
	save("nms_zero", [1, 2, 100], 0, T.INT64)
	save("nms_neg", [1, 2, 100], -5, T.INT64)
	EOF
	test "$(input0_seen nms_i32.onnx Cast)" = "[\"PartitionedCall_nms_Cast_4 DT_INT32 [42,3]\"]" &&
	test "$(input0_seen nms_wide.onnx Cast)" = "[\"PartitionedCall_nms_Cast_4 DT_INT32 [10,3]\"]" &&
	test "$(input0_seen nms_zero.onnx Cast)" = "[\"PartitionedCall_nms_Cast_4 DT_INT32 [0,3]\"]" &&
	test "$(input0_seen nms_neg.onnx Cast)" = "[\"PartitionedCall_nms_Cast_4 DT_INT32 [-1,3]\"]"
'

# Split's outputs (shape function "split", rules/onnx.rules): input 0's
# dims with dim axis each output's part, from the split attribute (opset
# 11), a constant input 1 (13), an equal share (the last one smaller with
# opset 18's num_outputs), -1 where the split dim is; a dim before opset 18
# that does not divide, or sizes computed in the graph, leave the shape
# unknown. The build before gave every output an unknown shape, and a
# dynamic Split an unknown rank.
test_expect_success 'Split: each output its part of the split dim' '
	"$PY" - <<-\EOF &&
	import onnx
	from onnx import helper as h, TensorProto as T
	vi = h.make_tensor_value_info
	def save(name, xdims, opset, ins=("x",), inits=(), extra=(), nout=2, **attrs):
	    outs = ["y%d" % i for i in range(nout)]
	    nodes = [h.make_node("Split", list(ins), outs, name="sp", **attrs)]
	    nodes += [h.make_node("Relu", [o], ["r" + o], name="relu%d" % i) for i, o in enumerate(outs)]
	    g = h.make_graph(nodes, "g", [vi("x", T.FLOAT, xdims)] + list(extra),
	                     [vi("r" + o, T.FLOAT, None) for o in outs], list(inits))
	    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", opset)]), name + ".onnx")
	sizes = h.make_tensor("s", T.INT64, [2], [3, 5])
	save("sp_attr", [2, 8, 4], 11, axis=1, split=[3, 5])
	save("sp_input", [2, 8, 4], 13, ins=("x", "s"), inits=[sizes], axis=-2)
	save("sp_equal", [2, 8, 4], 11, axis=1)
	save("sp_odd", [2, 7, 4], 11, axis=1)
	save("sp_num", [2, 8, 4], 18, nout=3, axis=1, num_outputs=3)
	save("sp_dyn", ["n", 8, 4], 13, ins=("x", "s"), inits=[sizes], axis=1)
	save("sp_dynaxis", [2, "n", 4], 11, axis=1)
	save("sp_computed", [2, 8, 4], 13, ins=("x", "s"), extra=[vi("s", T.INT64, [2])], axis=1)
	EOF
	test "$(input0_seen sp_attr.onnx Relu)" = "[\"relu0 DT_FLOAT [2,3,4]\", \"relu1 DT_FLOAT [2,5,4]\"]" &&
	test "$(input0_seen sp_input.onnx Relu)" = "[\"relu0 DT_FLOAT [2,3,4]\", \"relu1 DT_FLOAT [2,5,4]\"]" &&
	test "$(input0_seen sp_equal.onnx Relu)" = "[\"relu0 DT_FLOAT [2,4,4]\", \"relu1 DT_FLOAT [2,4,4]\"]" &&
	test "$(input0_seen sp_odd.onnx Relu)" = "[\"relu0 DT_FLOAT nil\", \"relu1 DT_FLOAT nil\"]" &&
	test "$(input0_seen sp_num.onnx Relu)" = "[\"relu0 DT_FLOAT [2,3,4]\", \"relu1 DT_FLOAT [2,3,4]\", \"relu2 DT_FLOAT [2,2,4]\"]" &&
	test "$(input0_seen sp_dyn.onnx Relu)" = "[\"relu0 DT_FLOAT [-1,3,4]\", \"relu1 DT_FLOAT [-1,5,4]\"]" &&
	test "$(input0_seen sp_dynaxis.onnx Relu)" = "[\"relu0 DT_FLOAT [2,-1,4]\", \"relu1 DT_FLOAT [2,-1,4]\"]" &&
	test "$(input0_seen sp_computed.onnx Relu)" = "[\"relu0 DT_FLOAT nil\", \"relu1 DT_FLOAT nil\"]"
'

# Compress is GE's plugin subgraph (hicann/ops-nn @e5c3fa932
# index/gather_v2/framework/compress_onnx_plugin.cpp): Where of the condition,
# Squeeze, GatherV2 along a Const axis, the data flattened first without
# `axis`. Where's output is int64 (CANN 8.1.RC1 op_proto/inc/array_ops.h:
# 1198-1201), a row per true element: [-1, 1]; the Compress's output has the
# count in dim `axis` (all of it flattened). The build before mapped the node
# to Where, Flatten and GatherV2 named <node>/flatten, <node>/gather_v2, all
# static.
test_expect_success 'Compress: GE'"'"'s subgraph and names, the count of true conditions -1' '
	types compress.onnx | grep -v "Initializer\|:Data$" >got; test $? -le 1 &&
	printf "%s\n" PartitionedCall_cmp_axis_axis_data_2:Const PartitionedCall_cmp_axis_compress_condition_4:Where \
		PartitionedCall_cmp_axis_squeeze_where_5:Squeeze PartitionedCall_cmp_axis_compress_3:GatherV2 relu_axis:Relu \
		PartitionedCall_cmp_flat_axis_data_8:Const PartitionedCall_cmp_flat_compress_flatten_9:Flatten \
		PartitionedCall_cmp_flat_compress_condition_10:Where PartitionedCall_cmp_flat_squeeze_12:Squeeze \
		PartitionedCall_cmp_flat_squeeze_where_13:Squeeze PartitionedCall_cmp_flat_compress_11:GatherV2 relu_flat:Relu >expect &&
	test_cmp expect got &&
	gerules eval compress.onnx --chip Ascend910B1 --format json >cmp.json &&
	"$PY" -c "
import json; d = json.load(open(\"cmp.json\"))
n = {x[\"name\"]: x for x in d[\"nodes\"]}
for k in (\"PartitionedCall_cmp_axis_compress_condition_4\", \"PartitionedCall_cmp_axis_squeeze_where_5\",
          \"PartitionedCall_cmp_axis_compress_3\", \"relu_axis\", \"PartitionedCall_cmp_flat_compress_11\", \"relu_flat\"):
    assert (n[k][\"execution\"], n[k][\"tiling\"]) == (\"dynamic\", \"host\"), n[k]
assert n[\"PartitionedCall_cmp_flat_compress_flatten_9\"][\"tiling\"] == \"compile\", n[\"PartitionedCall_cmp_flat_compress_flatten_9\"]
" &&
	test "$(input0_seen compress.onnx Relu Squeeze GatherV2)" = "[\"PartitionedCall_cmp_axis_compress_3 DT_FLOAT [4,6]\", \"PartitionedCall_cmp_axis_squeeze_where_5 DT_INT64 [-1,1]\", \"PartitionedCall_cmp_flat_compress_11 DT_FLOAT nil\", \"PartitionedCall_cmp_flat_squeeze_12 DT_FLOAT nil\", \"PartitionedCall_cmp_flat_squeeze_where_13 DT_INT64 [-1,1]\", \"relu_axis DT_FLOAT [4,-1]\", \"relu_flat DT_FLOAT [-1]\"]"
'

# ArgMax gives int64 (ONNX's, and the DT_INT64 GE's plugin sets on ArgMaxV2:
# hicann/ops-math @c41933244 math/arg_max_v2/framework/argmax_onnx_plugin.cpp:82),
# its axis kept as 1 or dropped (Operators.md, ArgMax; rules/onnx.rules, table
# onnx_shapes "argmax"): without value_info the Adds after it had no input
# dtype and no shape. GE's ArgMin before an ExpandDims gives int32, int64 on a
# regbase SoC (argmin_onnx_plugin.cpp:105-108), and so does the node's output
# after the ExpandDims, where the model declares int64; the build before gave
# both inner ops the input's float32, and the Add after the ArgMin int64.
test_expect_success 'ArgMax: int64, the axis kept or dropped; ArgMin gives GE'"'"'s index dtype, int32 unless regbase' '
	test "$(input0_seen argmax.onnx Add ExpandDims)" = "[\"PartitionedCall_am_keep_ExpandDims_2 DT_INT64 nil\", \"PartitionedCall_amin_keep_ExpandDims_10 DT_INT32 nil\", \"add_drop DT_INT64 [2,5]\", \"add_keep DT_INT64 [2,1,7]\", \"add_min DT_INT32 [2,5,1]\"]" &&
	seen_chip=Ascend950PR_9599 &&
	test "$(input0_seen argmax.onnx ExpandDims Add)" = "[\"PartitionedCall_am_keep_ExpandDims_2 DT_INT64 nil\", \"PartitionedCall_amin_keep_ExpandDims_10 DT_INT64 nil\", \"add_drop DT_INT64 [2,5]\", \"add_keep DT_INT64 [2,1,7]\", \"add_min DT_INT64 [2,5,1]\"]" &&
	seen_chip=
'

# An output whose dtype the IR op's prototype fixes has it in GE's graph,
# whatever the model declares (rules/onnx.rules, table onnx_ir_output_dtypes):
# TopK's indices are DT_INT32 (CANN 8.1.RC1 op_proto/inc/selection_ops.h:
# 1207-1215) where the model's value_info says int64, so the Cast and the
# Gather reading them see int32. The build before gave them no dtype at all
# (it never read value_info, and no shape function gives output 1).
test_expect_success 'TopK: its indices are int32, as its prototype fixes, whatever the model declares' '
	test "$(input0_seen topk.onnx Cast)" = "[\"cast_i DT_INT32 nil\"]" &&
	gerules eval topk.onnx --chip Ascend910B1 --format json >topk.json &&
	"$PY" -c "
import json; d = json.load(open(\"topk.json\"))
g = [x for x in d[\"nodes\"] if x[\"type\"] == \"GatherV2\"][0]
assert g[\"dtype_detail\"][\"inputs\"][1] == [\"int32\", \"int32\"], g
"
'

# GraphProto's value_info is field 13 (onnx/onnx onnx/onnx.proto; field 10 is
# doc_string): the dtype it declares for an output no shape function infers
# reaches the op reading it. The build before read field 10, so value_info
# was never taken and the Relu had no input dtype.
test_expect_success 'value_info: the dtype it declares for an output not inferred reaches its reader' '
	test "$(input0_seen value_info.onnx Relu)" = "[\"relu_d DT_FLOAT nil\"]"
'

# RoiAlign is GE's plugin subgraph (hicann/ops-cv @6ae876534
# objdetect/roi_align/framework/roi_align_onnx_plugin.cpp): the batch indices
# unsqueezed and both them and the rois cast to float32, concatenated along a
# Const axis, then ROIAlign; renamed in GE's walk (the Concat reached as
# ROIAlign's producer). Its output is [num_rois, C, output_height,
# output_width] of X's type (Operators.md, RoiAlign; table onnx_shapes
# "roi_align"). The build before made a Concat and a ROIAlign named
# <node>/r_o_i_align, and the Relu after it had no input shape.
test_expect_success 'RoiAlign: GE'"'"'s subgraph and names; [num_rois, C, h, w] of X'"'"'s type' '
	types roialign.onnx | grep -v "Initializer\|:Data$" >got; test $? -le 1 &&
	printf "%s\n" PartitionedCall_roi_concat_dim_8:Const PartitionedCall_roi_unsqueeze_5:Unsqueeze PartitionedCall_roi_cast_7:Cast \
		PartitionedCall_roi_cast1_4:Cast PartitionedCall_roi_concat_6:Concat PartitionedCall_roi_roialign_3:ROIAlign relu_roi:Relu >expect &&
	test_cmp expect got &&
	test "$(input0_seen roialign.onnx Relu ROIAlign)" = "[\"PartitionedCall_roi_roialign_3 DT_FLOAT [2,16,32,32]\", \"relu_roi DT_FLOAT [5,16,7,7]\"]" &&
	gerules eval roialign.onnx --chip Ascend910B1 --format json >roi.json &&
	"$PY" -c "
import json; d = json.load(open(\"roi.json\"))
n = {x[\"name\"]: x for x in d[\"nodes\"]}
r = n[\"PartitionedCall_roi_roialign_3\"]
assert r[\"engine\"] == \"AIcoreEngine\" and r[\"dtype_detail\"][\"inputs\"][1][0] == \"float32\", r
"
'

# A Unique's output 0 has as many elements as the input has distinct values,
# known only at run time (Operators.md, Unique; table onnx_shapes "unique"):
# [-1] without axis, so the Relu reading it is dynamic. The build before read
# the output as a shape GE's InferShape knows (static).
test_expect_success 'Unique: output 0 is [-1], so what reads it is dynamic' '
	test "$(input0_seen unique.onnx Relu)" = "[\"relu_u DT_FLOAT [-1]\"]" &&
	gerules eval unique.onnx --chip Ascend910B1 --format json >uq.json &&
	test "$(json_get uq.json "[x[\"execution\"] for x in d[\"nodes\"] if x[\"name\"] == \"relu_u\"][0]")" = dynamic
'

# ONNX's Size gives an int64 scalar whatever its input (Operators.md, Size;
# GE's plugin sets its dtype attribute to DT_INT64: hicann/ops-nn @e5c3fa932
# common/src/framework/size_onnx_plugin.cpp:22-24; rules/onnx.rules, table
# onnx_shapes "size"): the Equal after it sees int64 and a static input where
# the model has no value_info. On Ascend035 AI Core's Equal lists no int64
# (aic-ascend035-ops-info.json), so the node runs on AI CPU in the model's
# dtype; before the size function its input 0 had no dtype and the node none.
test_expect_success 'Size: an int64 scalar, so the Equal after it has a dtype' '
	gerules eval size.onnx --chip Ascend910B1 --format json >size.json &&
	"$PY" -c "
import json; d = json.load(open(\"size.json\"))
n = {x[\"name\"]: x for x in d[\"nodes\"]}
assert n[\"size_x\"][\"dtype\"] == \"float32\", n[\"size_x\"]
assert n[\"eq_six\"][\"dtype_detail\"][\"inputs\"] == [[\"int64\", \"int64\"], [\"int64\", \"int64\"]], n[\"eq_six\"]
assert n[\"eq_six\"][\"engine\"] == \"AIcoreEngine\", n[\"eq_six\"]
" &&
	gerules eval size.onnx --chip Ascend035 --format json >size035.json &&
	"$PY" -c "
import json; d = json.load(open(\"size035.json\"))
n = {x[\"name\"]: x for x in d[\"nodes\"]}
assert (n[\"eq_six\"][\"dtype\"], n[\"eq_six\"][\"engine\"]) == (\"int64\", \"DNN_VM_AICPU_ASCEND\"), n[\"eq_six\"]
assert not [x for x in d[\"diagnostics\"] if x[\"code\"] == \"GE7004\"], d[\"diagnostics\"]
" &&
	test "$(input0_seen size.onnx Equal)" = "[\"eq_six DT_INT64 []\"]"
'

test_expect_success 'the If is the parent of its branches (node.parent, read by a layer'"'"'s rule)' '
	mkdir -p site &&
	cat >site/site.rules <<-\EOF &&
	bundle "site" { version "1.0.0"; extends "ge-base"; }
	extend table diagnostic_codes {
	    "SITE1": ["node in a subgraph", "A node of a subgraph, with the node owning it.", "gerules eval if.onnx", "Nothing to fix."],
	}
	rule show_parent for each node
	    when node.parent != null
	    then note SITE1 "{node.parent.name} ({node.parent.type}) owns {node.graph}";
	EOF
	GERULES_RULES="$GERULES_RULES:site" gerules eval if.onnx --chip Ascend910B1 --format json >par.json &&
	test "$(json_get par.json "sorted(set(x[\"message\"] for x in d[\"diagnostics\"] if x[\"code\"] == \"SITE1\"))")" = "[\"branch (If) owns g/branch_0_then_branch\", \"branch (If) owns g/branch_1_else_branch\"]" &&
	test "$(json_get par.json "len([x for x in d[\"diagnostics\"] if x[\"code\"] == \"SITE1\"])")" = 4
'

test_expect_success 'the decoder example: the GE graph as JSON, .om and text dump decide alike, and the ONNX model too (its descriptors are inferred)' '
	EX=$top_srcdir/examples &&
	OPTS="--chip Ascend910B1 -o OP_PRECISION_MODE=$EX/op_precision.ini -o ALLOW_HF32=true -o TILING_SCHEDULE_OPTIMIZE=1 --format json" &&
	"$PY" "$EX/ge_convert.py" "$EX/llm_decoder_onnx.json" --om dec.om --text dec.txt --binary dec.pb &&
	gerules eval "$EX/llm_decoder_onnx.json" $OPTS >dec.json.out &&
	gerules eval "$EX/llm_decoder.onnx" $OPTS >dec.onnx.out &&
	gerules eval dec.om $OPTS >dec.om.out &&
	gerules eval dec.txt $OPTS >dec.txt.out &&
	gerules eval dec.pb $OPTS >dec.pb.out &&
	"$PY" "$top_srcdir/t/data/readers/same_decisions.py" dec.json.out dec.om.out dec.txt.out dec.pb.out &&
	"$PY" "$top_srcdir/t/data/readers/same_decisions.py" --descriptors-differ dec.json.out dec.onnx.out &&
	test "$(json_get dec.onnx.out "d[\"graph\"][\"onnx_opset\"]")" = 16 &&
	test "$(json_get dec.onnx.out "sorted(set(n[\"type\"] for n in d[\"nodes\"] if n[\"name\"].endswith(\"_proj\")))")" = "[\"BatchMatMulV2\"]"
'

test_expect_success 'the committed ONNX example is what examples/gen_onnx_example.py writes' '
	mkdir regen && "$PY" "$top_srcdir/examples/gen_onnx_example.py" regen &&
	cmp regen/llm_decoder.onnx "$top_srcdir/examples/llm_decoder.onnx" &&
	cmp regen/llm_decoder_onnx.json "$top_srcdir/examples/llm_decoder_onnx.json"
'

test_expect_success 'advice: an [ByOpType] entry for MatMulV2 on a model whose ONNX MatMul became BatchMatMulV2' '
	printf "[ByOpType]\nMatMulV2=enable_float_32_execution\n" >mm.ini &&
	gerules eval init.onnx --chip Ascend910B1 -o OP_PRECISION_MODE=mm.ini --format json >rep.json &&
	test "$(json_get rep.json "[x[\"code\"] for x in d[\"diagnostics\"] if x[\"code\"] == \"GE4010\"]")" = "[\"GE4010\"]" &&
	test_grep "this model has BatchMatMulV2 nodes" rep.json &&
	gerules eval "$top_srcdir/examples/convnet.json" --chip Ascend910B1 -o OP_PRECISION_MODE=mm.ini --format json >rep2.json &&
	test "$(json_get rep2.json "[x[\"code\"] for x in d[\"diagnostics\"] if x[\"code\"] == \"GE4010\"]")" = "[]"
'

test_expect_success 'one-to-many plugins: GE'"'"'s PartitionedCall_ names, counter in its builder'"'"'s walk order' '
	types plugins.onnx | grep -v "Initializer\|:Data$" >got; test $? -le 1 &&
	cat >expect <<-\EOF &&
	PartitionedCall_/fc1/Gemm_MatMulV2_3:MatMulV2
	PartitionedCall_/fc1/Gemm_add_4:Add
	/relu/Relu:Relu
	PartitionedCall_/t1/Transpose_Const_44:Const
	PartitionedCall_/t1/Transpose_Transpose_43:Transpose
	PartitionedCall_/t2/Transpose_Const_7:Const
	PartitionedCall_/t2/Transpose_Transpose_6:Transpose
	PartitionedCall_/fc2/Gemm_MatMulV2_11:MatMulV2
	PartitionedCall_/fc2/Gemm_Muls1_13:Muls
	PartitionedCall_/fc2/Gemm_Muls2_12:Muls
	PartitionedCall_/fc2/Gemm_add_14:Add
	PartitionedCall_/split_split_dim_17:Const
	PartitionedCall_/split_Split_16:Split
	PartitionedCall_/splitv_split_dim_21:Const
	PartitionedCall_/splitv_SplitV_20:SplitV
	/clip_max:Minimum
	/clip_both:ClipByValue
	PartitionedCall_/mean_attr_data1_24:Const
	PartitionedCall_/mean_attr_ReduceMean_23:ReduceMean
	/sum_input:ReduceSum
	PartitionedCall_/deconv_Const_41:Const
	PartitionedCall_/deconv_Conv2DTranspose_40:Conv2DTranspose
	PartitionedCall_/max3_Maximum_1_28:Maximum
	PartitionedCall_/max3_Maximum_2_29:Maximum
	/max2:Maximum
	PartitionedCall_/mean2_AccumulateNV2_32:AccumulateNV2
	PartitionedCall_/mean2_Muls_33:Muls
	PartitionedCall_/gather_const_data_36:Const
	PartitionedCall_/gather_gatherv2_37:GatherV2
	PartitionedCall_/cos_data1_47:Const
	PartitionedCall_/cos_Fill_46:Fill
	/pool_idx:MaxPool
	EOF
	test_cmp expect got &&
	"$PY" -c "
import json
d = json.load(open(\"rep.json\"))
e = [(x[\"code\"], x[\"node\"]) for x in d[\"diagnostics\"] if x[\"severity\"] == \"error\"]
assert e == [(\"E11010\", \"/pool_idx\")], e
" &&
	mkdir -p dd &&
	cat >dd/dd.rules <<-\EOF &&
	bundle "dd" { version "1.0.0"; extends "ge-base"; }
	extend table diagnostic_codes {
	    "DD1": ["node of a plugin subgraph", "Shows _datadump_original_op_names and transB.", "gerules eval plugins.onnx", "Nothing to fix."],
	}
	rule show_dd for each node
	    when node.attr["_datadump_original_op_names"] != null
	    then note DD1 "{node.name} <- {node.attr[\"_datadump_original_op_names\"]} transB={node.attr[\"transB\"]}";
	EOF
	GERULES_RULES="$GERULES_RULES:dd" gerules eval plugins.onnx --chip Ascend910B1 --format json >dd.json; test $? -le 1 &&
	"$PY" -c "
import json
m = [x[\"message\"] for x in json.load(open(\"dd.json\"))[\"diagnostics\"] if x[\"code\"] == \"DD1\"]
assert any(x.startswith(\"PartitionedCall_/fc1/Gemm_MatMulV2_3 <- \") and \"/fc1/Gemm\" in x and x.endswith(\"transB=1\") for x in m), m
assert any(x.startswith(\"/max2 <- \") for x in m), m
assert not any(x.startswith(\"/relu/Relu \") for x in m), m
"
'

test_expect_success 'LayerNormalization: 13 nodes besides Data, renamed; an absent beta is a Const' '
	types layernorm.onnx | grep -v "Initializer\|:Data$" >got &&
	cat >expect <<-\EOF &&
	PartitionedCall_/lnidentity_0_3:Identity
	PartitionedCall_/ln_shape_6:Shape
	PartitionedCall_/lnidentity_1_4:Identity
	PartitionedCall_/ln_broadcastto1_8:BroadcastTo
	PartitionedCall_/lnidentity_2_5:Identity
	PartitionedCall_/ln_broadcastto2_9:BroadcastTo
	PartitionedCall_/ln_LayerNorm_7:LayerNorm
	PartitionedCall_/ln_nobetaidentity_0_19:Identity
	PartitionedCall_/ln_nobeta_shape_22:Shape
	PartitionedCall_/ln_nobetaidentity_1_20:Identity
	PartitionedCall_/ln_nobeta_broadcastto1_24:BroadcastTo
	PartitionedCall_/ln_nobeta_beta_18:Const
	PartitionedCall_/ln_nobetaidentity_2_21:Identity
	PartitionedCall_/ln_nobeta_broadcastto2_25:BroadcastTo
	PartitionedCall_/ln_nobeta_LayerNorm_23:LayerNorm
	EOF
	test_cmp expect got
'

# What the plugin sets (hicann/ops-nn common/src/framework/
# layer_normalization_onnx_plugin.cpp): the Shape's dtype attribute DT_INT32
# (:97), so both BroadcastTo take an int32 shape, which their AI Core lists
# have; LayerNorm's begin_norm_axis from axis (-1 without it, :45-59) and
# begin_params_axis its prototype's 0 (CANN 8.1.RC1 nn_norm_ops.h:708),
# which choose its op_select_format branch (rules/oplib/dynamic_format.rules,
# layer_norm.py:236-301). The Identity of x is shaped like the node's
# output, so the LayerNorm has x's rank (2) although x's batch is unknown:
# on Ascend310P3, whose LayerNorm does not set dynamicRankSupport, it stays
# on the AI Core. Before, the Shape gave float32 (no engine took either
# BroadcastTo), the LayerNorm had no attributes (dtype unknown, GE7004) and
# an unknown rank (refused on 310P3, GE7003).
test_expect_success 'LayerNormalization: the dtypes, attributes and ranks of the plugin subgraph reach the judge' '
	for chip in Ascend910B1 Ascend310P3; do
		gerules eval layernorm.onnx --chip $chip --format json --all-nodes >ln-$chip.json || return 1
	done &&
	"$PY" - <<-\EOF
	import json
	for chip in ("Ascend910B1", "Ascend310P3"):
	    d = json.load(open("ln-%s.json" % chip))
	    codes = [g["code"] for g in d["diagnostics"]]
	    assert "GE7003" not in codes and "GE7004" not in codes, (chip, d["diagnostics"])
	    for n in d["nodes"]:
	        if n["type"] == "BroadcastTo":
	            assert n["engine"] == "AIcoreEngine", (chip, n)
	            assert n["dtype_detail"]["inputs"][1] == ["int32", "int32"], (chip, n["dtype_detail"])
	        if n["type"] == "LayerNorm":
	            assert n["engine"] == "AIcoreEngine" and n["dtype"] == "float16", (chip, n)
	            why = [p["reason"] for p in n["provenance"] if p["slot"] == "dtype" and p["won"]][0]
	            assert "layer_norm.py:236-301 op_select_format (begin_params_axis 0" in why, (chip, why)
	EOF
'

# ConvTranspose with a 1-D kernel: Unsqueeze x and W, Conv2DTranspose of
# the int64 input_size Const, x and W, Squeeze (hicann/ops-nn
# conv_transpose_onnx_plugin.cpp). Its first input is that size, so the
# Conv2DTranspose's output must be given x's dtype (rules/onnx.rules, output
# input 0); with the size's int64 no engine took it (GE7003).
test_expect_success 'ConvTranspose 1-D: the inner Conv2DTranspose gives the dtype of x, not of its size input' '
	gerules eval convt1d.onnx --chip Ascend910B1 -o PRECISION_MODE=must_keep_origin_dtype --format json --all-nodes >ct.json &&
	"$PY" - <<-\EOF
	import json
	d = json.load(open("ct.json"))
	assert "GE7003" not in [g["code"] for g in d["diagnostics"]], d["diagnostics"]
	n = {x["type"]: x for x in d["nodes"]}
	ct, sq = n["Conv2DTranspose"], n["Squeeze"]
	assert ct["engine"] == "AIcoreEngine" and ct["dtype"] == "float16", ct
	assert ct["dtype_detail"]["outputs"] == [["float16", "float16"]], ct["dtype_detail"]
	assert sq["dtype_detail"]["inputs"][0] == ["float16", "float16"], sq["dtype_detail"]
	EOF
'

# GridSampler2D's op_select_format lists float32 only (CANN 8.1.RC1
# opp/built-in/op_impl/ai_core/tbe/impl/dynamic/grid_sampler_2d.py:38-87,
# rules/oplib/dynamic_format.rules) and reads x_shape[1], so a node whose x
# has no known shape keeps its dtype unknown (GE7004) rather than a guess.
# Under force_fp16 the float32 x stays float32 (no float16 column).
test_expect_success 'GridSample: GridSampler2D computes in float32; without x shape its dtype stays unknown' '
	gerules eval gridsample.onnx --chip Ascend910B1 --format json --all-nodes >gs.json &&
	"$PY" - <<-\EOF
	import json
	d = json.load(open("gs.json"))
	n = {x["name"]: x for x in d["nodes"]}
	gs, gu = n["/gs"], n["/gs_unknown"]
	assert gs["type"] == "GridSampler2D" and gs["dtype"] == "float32" and gs["engine"] == "AIcoreEngine", gs
	assert gs["dtype_detail"]["strategy"] == "force_fp16", gs["dtype_detail"]
	why = [p["reason"] for p in gs["provenance"] if p["slot"] == "dtype" and p["won"]][0]
	assert "grid_sampler_2d.py:38-87" in why, why
	assert gu["dtype"] is None, gu
	assert [g for g in d["diagnostics"] if g["code"] == "GE7004" and "/gs_unknown" in g["message"]], d["diagnostics"]
	EOF
'

# MaxPool3D's op_select_format (CANN 8.1.RC1 opp/built-in/op_impl/ai_core/
# tbe/impl/max_pool3d.py:448-488, rules/oplib/dynamic_format.rules) lists
# float16 and float32 where the chip has Intrinsic_vcopy (Ascend910B1.ini:165)
# and float16 alone elsewhere (Ascend310P3.ini lists none): a float32 node
# kept float32 runs on the AI Core of 910B1 (column 1) and on no engine of
# 310P3 (no AI CPU kernel either: EZ3003); force_fp16 takes float16 on both.
test_expect_success 'MaxPool3D: float16 and float32 where the chip has vcopy, float16 alone elsewhere' '
	for chip in Ascend910B1 Ascend310P3; do
		for pm in force_fp16 must_keep_origin_dtype; do
			gerules eval maxpool3d.onnx --chip $chip -o PRECISION_MODE=$pm --format json --all-nodes >mp-$chip-$pm.json || return 1
		done
	done &&
	"$PY" - <<-\EOF
	import json
	def node(chip, pm):
	    d = json.load(open("mp-%s-%s.json" % (chip, pm)))
	    return d, [x for x in d["nodes"] if x["type"] == "MaxPool3D"][0]
	for chip in ("Ascend910B1", "Ascend310P3"):
	    _, m = node(chip, "force_fp16")
	    assert m["dtype"] == "float16" and m["engine"] == "AIcoreEngine" and m["dtype_detail"]["column"] == 0, (chip, m)
	_, m = node("Ascend910B1", "must_keep_origin_dtype")
	assert m["dtype"] == "float32" and m["engine"] == "AIcoreEngine" and m["dtype_detail"]["column"] == 1, m
	d, m = node("Ascend310P3", "must_keep_origin_dtype")
	assert m["engine"] is None, m
	assert [g for g in d["diagnostics"] if g["code"] == "GE7003"], d["diagnostics"]
	EOF
'

test_expect_success '[ByNodeName] naming an ONNX node GE split: a located warning listing the parts (GE4021)' '
	printf "[ByNodeName]\n/fc1/Gemm=high_precision\n/relu/Relu=high_precision\nPartitionedCall_/fc1/Gemm_MatMulV2_3=high_precision\n" >prec.ini &&
	gerules eval plugins.onnx --chip Ascend910B1 -o op_precision_mode=prec.ini --format json >p.json; test $? -le 1 &&
	"$PY" -c "
import json
d = json.load(open(\"p.json\"))
w = [x for x in d[\"diagnostics\"] if x[\"code\"] in (\"GE4021\", \"GE4004\")]
assert [x[\"code\"] for x in w] == [\"GE4021\"], w
assert w[0][\"line\"] == 2, w
assert \"PartitionedCall_/fc1/Gemm_MatMulV2_3, PartitionedCall_/fc1/Gemm_add_4\" in w[0][\"message\"], w
n = {x[\"name\"]: x for x in d[\"nodes\"]}
assert n[\"PartitionedCall_/fc1/Gemm_MatMulV2_3\"][\"precision_mode\"] == \"high_precision\", n[\"PartitionedCall_/fc1/Gemm_MatMulV2_3\"]
"
'

test_expect_success 'shape inference: output shapes from the inputs, attributes and constant shapes' '
	gerules tile shapes.onnx --chip Ascend910B1 --format json >tile.json; test $? -le 1 &&
	"$PY" -c "
import json; d = json.load(open(\"tile.json\"))
n = {x[\"name\"]: x for x in d[\"nodes\"]}
space = lambda k: n[k][\"plan\"][\"index_space\"]
assert space(\"relu\") == [1 * 8 * 16 * 16], space(\"relu\")           # Conv 32x32, pads 1, stride 2
assert space(\"mm\") == [1, 1, 10], space(\"mm\")                       # MaxPool 2/2, Reshape [1,-1] = [1,512]; plans show [batch, M, N]
assert space(\"mm_t\") == [1, 10, 4], space(\"mm_t\")                      # Transpose perm [1,0]
assert space(\"mm_mean\") == [1, 1, 6], space(\"mm_mean\")                 # ReduceMean keepdims, Flatten
assert space(\"relu_concat\") == [20], space(\"relu_concat\")           # Concat axis 1
assert space(\"mm_gather\") == [1, 6, 7], space(\"mm_gather\")          # Gather [512,10] by [2,3]: [2,3,10], rows 2*3
assert space(\"relu_cast\") == [512], space(\"relu_cast\")
assert n[\"mm_dyn\"][\"skipped\"] and n[\"mm_dyn\"][\"tiling\"] == \"host\", n[\"mm_dyn\"]          # [n,16] x [16,4]
r = n[\"relu_expand\"]                                            # Expand: its dtype, no shape: not a scalar
assert r[\"plan\"] is None and r[\"skipped\"] and not r[\"valid\"], r
assert [p[\"severity\"] for p in r[\"problems\"]] == [\"note\"], r
assert r[\"problems\"][0][\"message\"].startswith(\"input 0 has no shape gerules knows: the ONNX reader did not infer it\"), r
assert \"onnx-simplifier\" in r[\"problems\"][0][\"message\"], r
assert d[\"summary\"][\"skipped\"] == 2, d[\"summary\"]                   # mm_dyn, relu_expand
" &&
	gerules eval shapes.onnx --chip Ascend910B1 --format json >rep.json &&
	test "$(json_get rep.json "[n[\"tiling_source\"] for n in d[\"nodes\"] if n[\"name\"] in (\"mm\", \"mm_dyn\", \"relu_expand\")]")" = "[\"tiling_static\", \"tiling_dynamic_shape\", \"tiling_static\"]"
'

# GE infers every tensor's dtype before FE judges dtypes; an export without
# value_info (PaddleOCR's) must not leave the nodes after a Reshape by a
# computed shape, or after a Slice, without one (GE7004)
test_expect_success 'dtypes: known through ops whose output shape is not inferred' '
	gerules eval dtypes.onnx --chip Ascend910B1 -o PRECISION_MODE=must_keep_origin_dtype --format json >dt.json; test $? -le 1 &&
	"$PY" -c "
import json; d = json.load(open(\"dt.json\"))
n = {x[\"name\"]: x for x in d[\"nodes\"]}
n[\"transpose\"] = n[\"PartitionedCall_transpose_Transpose_1\"]          # its perm became a Const (GE transpose plugin)
for k in (\"reshape\", \"transpose\", \"slice\", \"squeeze\", \"mul\", \"expand\", \"relu\"):
    assert n[k][\"dtype\"] == \"float32\", (k, n[k][\"dtype\"], n[k].get(\"dtype_detail\"))
for k in (\"reshape\", \"transpose\", \"mul\", \"expand\", \"relu\"):       # slice, squeeze: AI CPU, FE judges no dtype
    assert n[k][\"dtype_detail\"][\"inputs\"][0] == [\"float32\", \"float32\"], (k, n[k][\"dtype_detail\"])
# x is static: GE folds its Shape into a Const (rules/engines.rules engine_folded_shape_ops)
assert n[\"shape\"][\"engine\"] is None and n[\"shape\"][\"tiling\"] is None, n[\"shape\"]
assert not [x for x in d[\"diagnostics\"] if x[\"code\"] == \"GE7004\"], [x[\"message\"] for x in d[\"diagnostics\"]]
"
'

# a dtype without a shape is not a scalar: the tiler must not plan the Relu
# after the Expand as one element; a real scalar still is one
test_expect_success 'tiling: a shape not inferred gets a note, not a plan; a 0-d input or initializer plans one element' '
	gerules tile dtypes.onnx --chip Ascend910B1 --format json >tdt.json; test $? -le 1 &&
	gerules tile dtypes.onnx --chip Ascend910B1 --node relu >tdt.txt; test $? -le 1 &&
	"$PY" -c "
import json; d = json.load(open(\"tdt.json\"))
n = {x[\"name\"]: x for x in d[\"nodes\"]}
for k in (\"mul\", \"relu\"):
    assert n[k][\"plan\"] is None and n[k][\"skipped\"], n[k]
    assert [p[\"severity\"] for p in n[k][\"problems\"]] == [\"note\"], n[k]
    assert \"input 0 has no shape gerules knows\" in n[k][\"problems\"][0][\"message\"], n[k]
for k in (\"relu_scalar_in\", \"relu_scalar_init\"):
    assert n[k][\"valid\"] and n[k][\"plan\"][\"index_space\"] == [1], n[k]
" &&
	test_grep "note:  shape: input 0 has no shape gerules knows" tdt.txt &&
	test_grep "skipped (shape unknown)" tdt.txt &&
	test_grep "1 skipped (0 dynamic shapes, 1 shapes unknown)" tdt.txt &&
	gerules eval dtypes.onnx --chip Ascend910B1 --format html >dt.html; test $? -le 1 &&
	grep -F "float32\\tfloat32\\tunknown\\t" dt.html >/dev/null
'

test_expect_success 'a shape not inferred: a hook reads a nil shape; a scalar is {}' '
	cat >sh.lua <<-\EOF &&
	gr.on_node({type_pattern = "Relu"}, function(node)
	  local s = node:input(0).shape
	  node:note("SITE1", node.name .. " " .. (s == nil and "nil" or ("#" .. #s)))
	end)
	EOF
	gerules eval dtypes.onnx --chip Ascend910B1 --hook sh.lua --format json >hk.json; test $? -le 1 &&
	"$PY" -c "
import json; d = json.load(open(\"hk.json\"))
m = sorted(x[\"message\"] for x in d[\"diagnostics\"] if x[\"code\"] == \"SITE1\")
assert m == [\"relu nil\", \"relu_scalar_in #0\", \"relu_scalar_init #0\"], m
"
'

# a Resize to sizes computed at run time (PaddleOCR det's FPN) gives X's rank
# with unknown dims, not an unknown rank [-2]: the ops after it keep a rank,
# so the AI Core takes GlobalAveragePool (ReduceMeanD) and BatchNorm, which
# do not set dynamicRankSupport (no EZ3003, no AI CPU)
test_expect_success 'Resize by computed sizes of a dynamic input: a known rank with dims -1, the ops after it stay on the AI Core' '
	cat >rk.lua <<-\EOF &&
	gr.on_node({}, function(node)
	  local i = node:input(0)
	  local s = i and i.shape
	  if s then node:note("RANK1", node.name .. " " .. table.concat(s, ",")) end
	end)
	EOF
	gerules eval resize_rank.onnx --chip Ascend910B1 --hook rk.lua --format json >rr.json; test $? -le 1 &&
	gerules eval resize_rank.onnx --chip Ascend910B1 --input_shape x:2,8,16,16 --format json >rri.json; test $? -le 1 &&
	"$PY" -c "
import json; d = json.load(open(\"rr.json\"))
sh = dict(x[\"message\"].split(\" \", 1) for x in d[\"diagnostics\"] if x[\"code\"] == \"RANK1\")
want = {\"conv\": \"-1,-1,-1,-1\",                # Resize by computed sizes: X rank, every dim -1
        \"bn\": \"-1,-1,-1,-1\",
        \"gap\": \"-1,8,-1,-1\",                  # Conv: C from W
        \"relu_gap\": \"-1,8,1,1\",               # GlobalAveragePool: rank kept, spatial dims 1
        \"relu_scales\": \"-1,8,32,-1\",          # constant scales 1,1,2,0.5 on n,8,16,w
        \"relu_deconv\": \"-1,4,32,-1\"}          # ConvTranspose 2x2 stride 2, W 8,4,2,2
for k, v in want.items():
    assert sh.get(k) == v, (k, sh.get(k))
for f in (\"rr.json\", \"rri.json\"):
    d = json.load(open(f))
    e = {x[\"name\"]: x[\"engine\"] for x in d[\"nodes\"]}
    assert e[\"gap\"] == \"AIcoreEngine\" and e[\"bn\"] == \"AIcoreEngine\", (f, e[\"gap\"], e[\"bn\"])
    assert not [k for k, v in e.items() if (v or \"\").startswith(\"DNN_VM_AICPU\")], (f, e)
    assert not [x for x in d[\"diagnostics\"] if x.get(\"ge_code\") == \"EZ3003\"], (f, [x[\"message\"] for x in d[\"diagnostics\"]])
# x fixed: no node is dynamic. The build before left 16 dynamic: every inner
# op of the Resize subgraphs had [-2] once x was dynamic at read time (the
# Identity of the constant scales too), which --input_shape never reached
d = json.load(open(\"rri.json\"))
dyn = [x[\"name\"] for x in d[\"nodes\"] if x[\"execution\"] == \"dynamic\"]
assert dyn == [], dyn
"
'

# --input_shape reaches into subgraphs as GE's InferShape does: a branch's
# Data (_parent_node_index K) takes the shape of what feeds its If's input
# K (src/model/input_dims.c). The build before stopped at the If: the
# branches' Data, Relu and Neg kept [-1, 4], so the If, owning dynamic
# nodes, ran dynamic.
test_expect_success 'If: --input_shape reaches the branches through the values they capture' '
	gerules eval if_dynamic.onnx --chip Ascend910B1 --format json >ifd.json; test $? -le 1 &&
	gerules eval if_dynamic.onnx --chip Ascend910B1 --input_shape xd:2,4 --format json >ifs.json; test $? -le 1 &&
	"$PY" -c "
import json
ex = lambda f: {x[\"name\"].split(\"/\")[-1]: x[\"execution\"] for x in json.load(open(f))[\"nodes\"]}
d, s = ex(\"ifd.json\"), ex(\"ifs.json\")
assert d[\"branch_d\"] == \"dynamic\" and d[\"t_relu\"] == \"dynamic\" and d[\"e_neg\"] == \"dynamic\", d
assert [k for k, v in s.items() if v == \"dynamic\"] == [], s
"
'

test_expect_success 'a truncated ONNX model is a located error' '
	head -c 60 conditional.onnx >trunc.onnx &&
	gerules eval trunc.onnx --chip Ascend910B1 >out 2>err; test $? = 2 &&
	test_grep "^trunc.onnx: error: malformed ONNX model at byte [0-9]*: " err
'

test_expect_success 'every operator schema at opsets 11, 17 and 19 loads: a report, never exit 2' '
	: >bad &&
	for f in corpus/*.onnx; do
		gerules eval "$f" --chip Ascend910B1 >/dev/null 2>err; rc=$?
		test $rc -le 1 || echo "$f: $rc $(cat err)" >>bad
	done &&
	test_must_be_empty bad
'

test_done
