#!/bin/sh
# t4001-capi-install.sh: libgerules as a user gets it. `make install` into a
# staging DESTDIR, then the example program examples/c/decisions.c is built
# against the installed header and library with `pkg-config --cflags --libs
# gerules` (PKG_CONFIG_SYSROOT_DIR points pkg-config at the staging tree),
# run, and its decisions compared with the JSON report of the gerules
# command for the same inputs. Also: only gerules_* symbols are exported, the
# library is versioned, and the .pc file's version is the package's.
test_description='the installed C library, its header and pkg-config file'
. "$(dirname "$0")/test-lib.sh"

test_skip_unless PKGCONFIG
CC=${GR_CC:-cc}
dest=$TRASH/dest
ex=$top_srcdir/examples

test_expect_success 'make install into a staging directory' '
	(cd "$top_builddir" && ${GR_MAKE:-make} install DESTDIR="$dest") >install.log 2>&1 ||
	{ tail -20 install.log; false; } &&
	pc=$(find "$dest" -name gerules.pc) && test -n "$pc" &&
	echo "$(dirname "$pc")" >pcdir &&
	hdr=$(find "$dest" -name gerules.h) && test -n "$hdr" &&
	find "$dest" -name "libgerules.so.1" | grep . &&
	rules=$(find "$dest" -type d -path "*/gerules/rules") && test -n "$rules" && echo "$rules" >rulesdir
'

pkgc () { PKG_CONFIG_PATH=$(cat pcdir) PKG_CONFIG_SYSROOT_DIR=$dest pkg-config "$@"; }

test_expect_success 'pkg-config knows gerules, in its own version' '
	pkgc --cflags --libs gerules >flags &&
	test_grep "^-I$dest/.* -L$dest/.* -lgerules" flags &&
	pkgc --modversion gerules >v &&
	gerules --version | sed "s/^gerules //" >expect &&
	test_cmp expect v
'

test_expect_success 'the library exports the public API only' '
	lib=$(find "$dest" -name "libgerules.so.1.*" -type f) &&
	nm -D --defined-only "$lib" | awk "{print \$3}" | grep -v "^gerules_" >others;
	test_must_be_empty others &&
	nm -D --defined-only "$lib" | grep " gerules_evaluate$" &&
	objdump -p "$lib" | test_grep "SONAME *libgerules.so.1" -
'

test_expect_success 'the example builds against the installed library with pkg-config' '
	$CC -std=c11 -Wall -Wextra -Werror $GR_SAN_FLAGS "$ex/c/decisions.c" $(pkgc --cflags --libs gerules) -o decisions &&
	test -x decisions
'

run_example () {
	libdir=$(pkgc --variable=libdir gerules) && # pkg-config adds the sysroot
	LD_LIBRARY_PATH=$libdir GERULES_RULES=$(cat rulesdir) ./decisions "$@"
}

test_expect_success 'it prints the decisions the gerules command reports' '
	{ run_example "$ex/llm_decoder.json" Ascend910B1 OP_PRECISION_MODE="$ex/op_precision.ini" ALLOW_HF32=true >got 2>got.err; echo $? >got.rc; } &&
	{ gerules eval "$ex/llm_decoder.json" --chip Ascend910B1 -o OP_PRECISION_MODE="$ex/op_precision.ini" -o ALLOW_HF32=true --format json >want.json 2>/dev/null; echo $? >want.rc; } &&
	test_cmp want.rc got.rc &&
	"$PYTHON3" - got want.json <<-\PYEOF
	import json, sys
	got = {}
	for line in open(sys.argv[1]):
	    f = line.rstrip("\n").split("\t")
	    slots = {}
	    for cell in f[2:]:
	        slot, rest = cell.split("=", 1)
	        rest, _, why = rest.partition(" [no effect: ")
	        val, _, src = rest.partition(" (")
	        slots[slot] = (None if val == "-" else val, src[:-1] if src else None, why[:-1] if why else None)
	    got[f[0]] = (f[1], slots)
	d = json.load(open(sys.argv[2]))
	assert len(got) == d["summary"]["nodes"] == len(d["nodes"]), (len(got), d["summary"])
	sources, reasons = set(), set()
	for n in d["nodes"]:
	    typ, slots = got[n["name"]]
	    assert typ == n["type"], n
	    for slot, srckey in (("precision_mode", "precision_source"), ("tiling", "tiling_source")):
	        want = (n[slot], n[srckey], n.get(slot + "_no_effect_reason"))
	        assert slots[slot] == want, (n["name"], slot, slots[slot], want)
	        assert (n.get(slot + "_effect") is False) == (want[2] is not None), n
	        sources.add(n[srckey])
	        if want[2]: reasons.add(want[2])
	assert len(sources) >= 4, sources     # several rules decided: not a trivial model
	assert reasons == {"the node computes in float16 (precision_mode)"}, reasons   # gerules_decision carries the no-effect reason
	PYEOF
'

test_expect_success 'errors come back as located diagnostics and exit status 2' '
	printf "{\"graph\": [{\"op\": [{\"name\": 5}]}]}\n" >bad.json &&
	{ run_example bad.json Ascend910B1 >out 2>err; echo $? >rc; } &&
	echo 2 >expect && test_cmp expect rc &&
	test_must_be_empty out &&
	test_grep "^bad.json:1:[0-9]*: error: " err
'

test_expect_success 'an unknown chip is a diagnostic with a suggestion' '
	{ run_example "$ex/convnet.json" Ascend999 >out 2>err; echo $? >rc; } &&
	echo 2 >expect && test_cmp expect rc &&
	test_grep "error: unknown chip .Ascend999.; did you mean" err
'

test_done
