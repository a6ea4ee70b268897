#!/bin/sh
# fuzz/build.sh: builds the libFuzzer targets with clang (ASan + UBSan +
# libFuzzer) from a configured build directory, which provides config.h and
# the generated lexer and parser.
#
# usage: fuzz/build.sh [BUILD_DIR] [OUT_DIR]      (defaults: _build, fuzz/bin)
# then:  fuzz/bin/fuzz-graph fuzz/corpus/graph -max_total_time=300
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/_build}" && pwd)
out=${2:-$top/fuzz/bin}
mkdir -p "$out"
make -C "$build" src/lang/lexer.c grammar/rules.c grammar/rules.h src/report/html_page.h src/model/ge_text.c src/model/ge_ir.pb-c.c >/dev/null
lexer=$build/src/lang/lexer.c; [ -f "$lexer" ] || lexer=$top/src/lang/lexer.c
parser=$build/grammar/rules.c; [ -f "$parser" ] || parser=$top/grammar/rules.c
cflags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$build -I$build/grammar -I$top/grammar -I$top/src -I$build/src $(pkg-config --cflags lua5.4 libprotobuf-c libsodium)"
libs="$(pkg-config --libs lua5.4 libprotobuf-c libsodium) -lm"
# every library source: all of src/ but the command line (new files need no edit here)
core=$(cd "$top/src" && find . -name '*.c' ! -path './cli/*' ! -name lexer.c | sed 's|^\./||; s|\.c$||' | sort)
srcs=
for f in $core; do srcs="$srcs $top/src/$f.c"; done
# generated in the build directory: the text-dump scanner (re2c), the ModelDef schema (protoc-c)
srcs="$srcs $build/src/model/ge_text.c $build/src/model/ge_ir.pb-c.c"
for t in graph model rules ini options bundle lpattern; do
	echo "fuzz/build.sh: fuzz-$t"
	clang $cflags -o "$out/fuzz-$t" "$top/fuzz/fuzz-$t.c" $srcs "$lexer" "$parser" $libs
done
