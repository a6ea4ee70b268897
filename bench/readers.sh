#!/bin/sh
# bench/readers.sh: the model readers' figures, as paired ratios measured in
# one run (no threshold is enforced here; doc/performance.md records them):
#   - each reader against its library's bare parse of the same 100K-op model:
#     the binary ModelDef and the .om against protobuf-c's unpack of the
#     ModelDef; the text dump against Google's protobuf TextFormat parser
#     (libprotobuf, through `protoc-c --encode`, the whole process: it is the
#     parser GE itself prints and reads the dumps with); ONNX against
#     protobuf-c's unpack of the ModelProto with onnx.proto from python3-onnx;
#     and, for the two hand-written readers, against reading the file;
#   - peak RSS loading an ONNX model with 1 GB of inline weights (target:
#     64 MB + 5% of the file size), next to protobuf-c's unpack of the same
#     file with onnx.proto (the measured reason the ONNX reader is a
#     hand-written zero-copy walker).
# Each row runs the reader and its baseline alternately ROUNDS times, so that
# the machine's load drifts over both alike, and prints the median CPU time
# of each (this process's user+sys time over the work: wall-clock on a shared
# machine measures the other users), the median of the per-round ratios and
# their spread (min..max). Wall-clock medians are printed too.
# usage: bench/readers.sh [BUILD_DIR] [OPS] [WEIGHT_MB] [ROUNDS]
#        (defaults _build 100000 1024 5); READERS_CACHE=DIR keeps the
#        generated models there (generation takes minutes) and reuses them.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/_build}" && pwd)
ops=${2:-100000}
mb=${3:-1024}
rounds=${4:-5}
py=${PYTHON3:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cache=${READERS_CACHE:-$tmp}
mkdir -p "$cache"
onnx_proto=$("$py" -c 'import onnx, os; print(os.path.join(os.path.dirname(onnx.__file__), "onnx.proto"))' 2>/dev/null || true)
extra=
if test -n "$onnx_proto" && test -f "$onnx_proto"; then
	cp "$onnx_proto" "$tmp/onnx.proto" && (cd "$tmp" && protoc-c --c_out=. onnx.proto) &&
	extra="-DHAVE_ONNX_PBC -I$tmp $tmp/onnx.pb-c.c"
fi
make -C "$build" >/dev/null
cc -O2 -I"$build" -I"$build/src" -I"$top/src" $(pkg-config --cflags libprotobuf-c lua5.4) \
	-o "$tmp/read-model" "$top/bench/read-model.c" $extra "$build/.libs/libgrcore.a" \
	$(pkg-config --libs libprotobuf-c lua5.4) -lpthread -lm
rm=$tmp/read-model
# The schema the text baseline parses with: the readers' subset of ge_ir.proto
# plus what a dump holds beyond it (the ListValueType enum by name, the
# TensorDef of a Const's value), so that TextFormat accepts the whole file.
sed -e 's|^    int64 dt = 15;|    int64 dt = 15;\n    TensorDef t = 12;|' \
    -e 's|int32 val_type = 20;.*|enum ListValueType { VT_LIST_NONE = 0; VT_LIST_STRING = 1; VT_LIST_INT = 2; VT_LIST_FLOAT = 3; VT_LIST_BOOL = 4; VT_LIST_BYTES = 5; VT_LIST_TENSOR_DESC = 6; VT_LIST_TENSOR = 7; VT_LIST_GRAPH = 8; VT_LIST_NAMED_ATTRS = 9; VT_LIST_DATA_TYPE = 10; }\n    ListValueType val_type = 20;|' \
    "$top/src/model/ge_ir.proto" >"$tmp/ge_text.proto"
echo 'message TensorDef { TensorDescriptor desc = 1; bytes data = 2; }' >>"$tmp/ge_text.proto"

m=$cache/m$ops
if ! test -s "$m.onnx"; then
	echo "generating a $ops-op model in every format into $cache ..." >&2
	"$py" "$top/bench/gen_graph.py" --ops "$ops" -o "$m.json" >/dev/null
	"$py" "$top/examples/ge_convert.py" "$m.json" --binary "$m.pb" --text "$m.txt" --om "$m.om"
	"$py" "$top/bench/gen_onnx.py" --ops "$ops" -o "$m.onnx.part" && mv "$m.onnx.part" "$m.onnx"
fi
w=$cache/w$mb.onnx
if ! test -s "$w"; then
	echo "generating an ONNX model with $mb MB of inline weights ..." >&2
	"$py" "$top/bench/gen_onnx.py" --weights "$mb" -o "$w.part" && mv "$w.part" "$w"
fi

# one measurement: "WALL CPU" of a read-model run, or of a whole process
rmrun () { "$rm" "$@" | awk '{print $1, $4}'; }
textformat () {
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" protoc-c --encode=ge.proto.ModelDef -I"$tmp" "$tmp/ge_text.proto" <"$1" >/dev/null
	awk '{print $1, $2 + $3}' "$tmp/time"
}
# median of the numbers on stdin
median () { sort -g | awk '{v[NR]=$1} END{print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

# row LABEL "READER CMD" "BASELINE CMD": ROUNDS alternate runs of both
row () {
	label=$1; a=$2; b=$3
	: >"$tmp/ra"; : >"$tmp/rb"; : >"$tmp/ratio"
	i=0
	while test $i -lt "$rounds"; do
		ra=$(eval "$a"); rb=$(eval "$b")
		echo "$ra" >>"$tmp/ra"; echo "$rb" >>"$tmp/rb"
		echo "$ra $rb" | awk '{printf "%.4f\n", ($4 > 0 ? $2 / $4 : 0)}' >>"$tmp/ratio"
		i=$((i + 1))
	done
	ca=$(awk '{print $2}' "$tmp/ra" | median); cb=$(awk '{print $2}' "$tmp/rb" | median)
	wa=$(awk '{print $1}' "$tmp/ra" | median); wb=$(awk '{print $1}' "$tmp/rb" | median)
	r=$(median <"$tmp/ratio"); lo=$(sort -g "$tmp/ratio" | head -1); hi=$(sort -g "$tmp/ratio" | tail -1)
	printf '| %s | %.3f s (%.3f) | %.3f s (%.3f) | %.2fx | %.2f..%.2f |\n' "$label" "$ca" "$wa" "$cb" "$wb" "$r" "$lo" "$hi"
}
R=$top/rules
sz () { echo "$(( ($(wc -c <"$1") + 524288) >> 20 )) MB"; }
printf '%s ops, %s rounds; CPU seconds (wall-clock in parentheses), medians\n\n' "$ops" "$rounds"
printf '| reader vs baseline | reader | baseline | ratio (median) | spread |\n|---|---|---|---|---|\n'
row "binary ModelDef ($(sz "$m.pb")) vs protobuf-c unpack" "rmrun reader $m.pb $R" "rmrun pb-modeldef $m.pb"
row ".om ($(sz "$m.om")) vs protobuf-c unpack of its ModelDef" "rmrun reader $m.om $R" "rmrun pb-modeldef $m.pb"
row "ge_proto text dump ($(sz "$m.txt")) vs libprotobuf TextFormat" "rmrun reader $m.txt $R" "textformat $m.txt"
if test -n "$extra"; then
	row "ONNX ($(sz "$m.onnx")) vs protobuf-c unpack (onnx.proto)" "rmrun reader $m.onnx $R" "rmrun pb-onnx $m.onnx"
fi
row "ge_proto text dump vs reading the file" "rmrun reader $m.txt $R" "rmrun read $m.txt"
row "ONNX vs reading the file" "rmrun reader $m.onnx $R" "rmrun read $m.onnx"

size=$(wc -c <"$w")
set -- $("$rm" reader "$w" "$R"); rss=$2
limit=$(awk "BEGIN{print 64 * 1024 + 0.05 * $size / 1024}")
printf '\n| ONNX with inline weights (%d MB file) | peak RSS | target (64 MB + 5%%) | ratio |\n|---|---|---|---|\n' "$((size >> 20))"
printf '| gerules ONNX reader | %d MB | %d MB | %.2fx |\n' "$((rss / 1024))" "$(awk "BEGIN{print int($limit / 1024)}")" "$(awk "BEGIN{print $rss / $limit}")"
if test -n "$extra"; then
	set -- $("$rm" pb-onnx "$w"); prss=$2
	printf '| protobuf-c unpack (onnx.proto) | %d MB | %d MB | %.2fx |\n' "$((prss / 1024))" "$(awk "BEGIN{print int($limit / 1024)}")" "$(awk "BEGIN{print $prss / $limit}")"
fi
