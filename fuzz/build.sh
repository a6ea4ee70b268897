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
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -DGR_PARSER_ASSERTS"   # lemon's asserts too (grammar/rules.y)
# what Makefile.am passes on the command line: the default rule set is the tree's own
defs="-DGR_PKGDATADIR=\"$top\" -DGR_BINDIR=\"$build/src\""
inc="$defs -I$build -I$build/grammar -I$top/grammar -I$top/src -I$build/src $(pkg-config --cflags lua5.4 libprotobuf-c libsodium)"
libs="$(pkg-config --libs lua5.4 libprotobuf-c libsodium) -lm"
# every library source: all of src/ but the command line (new files need no edit here)
core=$(cd "$top/src" && find . -name '*.c' ! -path './cli/*' ! -name lexer.c | sed 's|^\./||; s|\.c$||' | sort)
srcs=
for f in $core; do srcs="$srcs $top/src/$f.c"; done
# generated in the build directory: the text-dump scanner (re2c), the ModelDef schema (protoc-c)
srcs="$srcs $build/src/model/ge_text.c $build/src/model/ge_ir.pb-c.c $lexer $parser"
# the library is compiled once (instrumented for coverage, fuzzer-no-link) and
# archived; each target then compiles only its own file: seven full compiles
# of src/ cost minutes of CPU on a shared machine
obj=$out/obj
rm -rf "$obj" && mkdir -p "$obj"
echo "fuzz/build.sh: the library"
for f in $srcs; do
	o=$obj/$(echo "$f" | sed "s|^$top/||; s|^$build/|build/|; s|/|_|g; s|\.c$|.o|")
	clang -g -O1 -fsanitize=fuzzer-no-link $san $inc -c -o "$o" "$f"
done
rm -f "$out/libgrfuzz.a"
ar rcs "$out/libgrfuzz.a" "$obj"/*.o
for t in graph model rules ini options bundle lpattern atc hook baseline oplib-json dtype-files; do
	echo "fuzz/build.sh: fuzz-$t"
	clang -g -O1 -fsanitize=fuzzer $san $inc -o "$out/fuzz-$t" "$top/fuzz/fuzz-$t.c" "$out/libgrfuzz.a" $libs
done
