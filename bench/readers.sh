#!/bin/sh
# bench/readers.sh: the model readers' figures, as ratios measured in one run
# (no threshold is enforced here; doc/performance.md records the figures):
#   - each reader against its baseline on a 100K-op model: the binary ModelDef
#     and the .om against protobuf-c's bare unpack of the same ModelDef, the
#     text dump and ONNX (hand-written readers) against reading the file;
#   - peak RSS loading an ONNX model with 1 GB of inline weights (target:
#     64 MB + 5% of the file size), next to protobuf-c's unpack of the same
#     file with onnx.proto (the measured reason the ONNX reader is a
#     hand-written zero-copy walker).
# usage: bench/readers.sh [BUILD_DIR] [OPS] [WEIGHT_MB]   (defaults _build 100000 1024)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/_build}" && pwd)
ops=${2:-100000}
mb=${3:-1024}
py=${PYTHON3:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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
echo "generating a $ops-op model in every format ..." >&2
"$py" "$top/bench/gen_graph.py" --ops "$ops" -o "$tmp/m.json" >/dev/null
"$py" "$top/examples/ge_convert.py" "$tmp/m.json" --binary "$tmp/m.pb" --text "$tmp/m.txt" --om "$tmp/m.om"
"$py" "$top/bench/gen_onnx.py" --ops "$ops" -o "$tmp/m.onnx"
echo "generating an ONNX model with $mb MB of inline weights ..." >&2
"$py" "$top/bench/gen_onnx.py" --weights "$mb" -o "$tmp/w.onnx"

# best of 3 wall-clock seconds, and the peak RSS of that run
best () {
	b=; r=
	for i in 1 2 3; do
		out=$("$@"); t=${out%% *}; rest=${out#* }; k=${rest%% *}
		if test -z "$b" || awk "BEGIN{exit !($t < $b)}"; then b=$t; r=$k; fi
	done
	echo "$b $r"
}
run () { best "$rm" "$@"; }
row () {    # label reader-time baseline-time
	printf '| %s | %.3f s | %.3f s | %.2fx |\n' "$1" "$2" "$3" "$(awk "BEGIN{print $2 / $3}")"
}
R=$top/rules
printf '| reader (%s ops) | reader | baseline | ratio |\n|---|---|---|---|\n' "$ops"
set -- $(run pb-modeldef "$tmp/m.pb"); base=$1
set -- $(run reader "$tmp/m.pb" "$R"); row "binary ModelDef vs protobuf-c unpack" "$1" "$base"
set -- $(run reader "$tmp/m.om" "$R"); row ".om vs protobuf-c unpack of its ModelDef" "$1" "$base"
set -- $(run read "$tmp/m.txt"); base=$1
set -- $(run reader "$tmp/m.txt" "$R"); row "ge_proto text dump vs reading the file" "$1" "$base"
set -- $(run read "$tmp/m.onnx"); base=$1
set -- $(run reader "$tmp/m.onnx" "$R"); row "ONNX vs reading the file" "$1" "$base"
size=$(wc -c <"$tmp/w.onnx")
set -- $("$rm" reader "$tmp/w.onnx" "$R"); rss=$2
limit=$(awk "BEGIN{print 64 * 1024 + 0.05 * $size / 1024}")
printf '\n| ONNX with inline weights (%d MB file) | peak RSS | target (64 MB + 5%%) | ratio |\n|---|---|---|---|\n' "$((size >> 20))"
printf '| gerules ONNX reader | %d MB | %d MB | %.2fx |\n' "$((rss / 1024))" "$(awk "BEGIN{print int($limit / 1024)}")" "$(awk "BEGIN{print $rss / $limit}")"
if test -n "$extra"; then
	set -- $("$rm" pb-onnx "$tmp/w.onnx"); prss=$2
	printf '| protobuf-c unpack (onnx.proto) | %d MB | %d MB | %.2fx |\n' "$((prss / 1024))" "$(awk "BEGIN{print int($limit / 1024)}")" "$(awk "BEGIN{print $prss / $limit}")"
fi
