#!/bin/sh
# t4005-python-package.sh: the gerules Python package as pip users get it,
# offline (no package index is reachable): the wheel is built from
# pyproject.toml with Debian's setuptools and wheel (pip wheel
# --no-build-isolation --no-index) over this build's uninstalled library
# (GERULES_LIBDIR=$top_builddir/.libs), installed with --no-index into a fresh
# `python3 -m venv` (its pip from Debian's ensurepip), and used from there:
# a small evaluation with asserted outcomes (t/python/wheel_smoke.py), the
# library lookup order ($GERULES_LIBRARY, the recorded libdir, the loader's
# search), mypy --strict on the installed package and on a user's program, and
# typing.get_type_hints on every public function (t/python/type_hints.py).
# The package sources are copied out first: pip builds in the source
# directory, and distcheck's is read-only.
test_description='the Python package: wheel, venv, types'
. "$(dirname "$0")/test-lib.sh"

test_lazy_prereq PIP '"$PYTHON3" -m pip --version' "$PYTHON3 has no pip; Debian: python3-pip"
test_lazy_prereq SETUPTOOLS '"$PYTHON3" -c "import setuptools, wheel"' "$PYTHON3 has no setuptools and wheel; Debian: python3-setuptools python3-wheel"
test_lazy_prereq VENV '"$PYTHON3" -c "import ensurepip, venv"' "$PYTHON3 cannot make a venv with pip; Debian: python3-venv"
test_lazy_prereq MYPY 'command -v mypy' 'mypy; Debian: mypy'
test_skip_unless PYTHON3,PIP,SETUPTOOLS,VENV

PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PIP_NO_INPUT=1 PIP_ROOT_USER_ACTION=ignore
export PIP_DISABLE_PIP_VERSION_CHECK PIP_NO_CACHE_DIR PIP_NO_INPUT PIP_ROOT_USER_ACTION
# no pip configuration (an index, find-links) from the machine: offline means from nothing
PIP_CONFIG_FILE=/dev/null; export PIP_CONFIG_FILE
unset PIP_FIND_LINKS PIP_INDEX_URL PIP_EXTRA_INDEX_URL
unset GERULES_LIBRARY GERULES_LIBDIR PYTHONPATH
libs=$top_builddir/.libs
venv=$TRASH/venv
vpy=$venv/bin/python

# runs the venv's python on a program that loads the library (a sanitizer
# build's library needs its runtime loaded first, as in t4002)
vrun () {
	if test -n "$GR_SAN_FLAGS"; then
		LD_PRELOAD="$(${GR_CC:-cc} -print-file-name=libasan.so) $(${GR_CC:-cc} -print-file-name=libubsan.so)" \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 "$vpy" -B "$@"
	else
		"$vpy" -B "$@"
	fi
}

# the library file a python process has mapped after `import gerules`
loaded='import gerules
print([l.split()[-1] for l in open("/proc/self/maps") if "libgerules.so" in l][0])'

# wheel LIBDIR OUT: builds a wheel recording LIBDIR into OUT, from a copy of the sources
wheel () {
	rm -rf "$TRASH/src" && mkdir -p "$TRASH/src/python/gerules" "$TRASH/src/doc" &&
	cp "$top_srcdir/pyproject.toml" "$top_srcdir/setup.py" "$top_srcdir/configure.ac" "$TRASH/src/" &&
	cp "$top_srcdir/doc/python.md" "$TRASH/src/doc/" &&
	cp "$top_srcdir/python/gerules/__init__.py.in" "$top_srcdir/python/gerules/py.typed" "$TRASH/src/python/gerules/" &&
	GERULES_LIBDIR=$1 "$PYTHON3" -m pip wheel --no-build-isolation --no-index --no-deps -w "$2" "$TRASH/src" >"$2.log" 2>&1 ||
	{ cat "$2.log"; return 1; }
}

test_expect_success 'the wheel builds offline over the build tree library' '
	wheel "$libs" "$TRASH/dist" &&
	whl=$(ls "$TRASH"/dist/gerules-*-py3-none-any.whl) &&
	"$PYTHON3" -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); n = z.namelist(); print(n)
assert \"gerules/py.typed\" in n and \"gerules/__init__.py.in\" not in n
src = z.read(\"gerules/__init__.py\").decode()
assert \"_LIBDIR = \\\"%s\\\"\" % sys.argv[2] in src, sys.argv[2]
assert \"@VERSION@\" not in src" "$whl" "$(cd "$libs" && pwd)"
'

test_expect_success 'pip installs it offline into a fresh venv' '
	"$PYTHON3" -m venv "$venv" &&
	"$venv/bin/pip" install --no-index "$TRASH"/dist/gerules-*.whl &&
	"$venv/bin/pip" show -f gerules >show.out &&
	grep "^Name: gerules" show.out &&
	grep "gerules/py.typed" show.out &&
	(cd "$TRASH" && vrun -c "import gerules; print(gerules.__file__)") >where.out &&
	grep "^$venv/lib/python3[^/]*/site-packages/gerules/__init__.py\$" where.out
'

test_expect_success 'an evaluation through the installed package: nodes, impl modes, dtypes, engines, codes' '
	(cd "$TRASH" && vrun "$top_srcdir/t/python/wheel_smoke.py" "$top_srcdir") >smoke.out 2>&1 ||
	{ cat smoke.out; false; } &&
	cat smoke.out &&
	grep "^8 checks, 0 failed\$" smoke.out
'

test_expect_success 'the library: the recorded libdir, then $GERULES_LIBRARY over it' '
	(cd "$TRASH" && vrun -c "$loaded") >rec.out &&
	test "$(cat rec.out)" = "$(readlink -f "$libs/libgerules.so.1")" &&
	mkdir -p other && cp "$libs/libgerules.so.1" other/libgerules.so.1 &&
	(cd "$TRASH" && GERULES_LIBRARY=$TRASH/other/libgerules.so.1 vrun -c "$loaded
print(gerules.library_path())") >env.out &&
	printf "%s\n" "$TRASH/other/libgerules.so.1" "$TRASH/other/libgerules.so.1" >env.want &&
	test_cmp env.want env.out
'

test_expect_success 'a wheel with no libdir finds the library by the loader search' '
	wheel "" "$TRASH/dist2" &&
	"$venv/bin/pip" install --no-index --force-reinstall "$TRASH"/dist2/gerules-*.whl &&
	grep "^_LIBDIR = \"\"\$" "$venv"/lib/python3*/site-packages/gerules/__init__.py &&
	(cd "$TRASH" && LD_LIBRARY_PATH=$libs vrun -c "$loaded") >ld.out &&
	test "$(cat ld.out)" = "$(readlink -f "$libs/libgerules.so.1")" &&
	"$venv/bin/pip" install --no-index --force-reinstall "$TRASH"/dist/gerules-*.whl
'

test_expect_success 'get_type_hints resolves every public function, method and property' '
	(cd "$TRASH" && vrun "$top_srcdir/t/python/type_hints.py") >hints.out 2>&1 ||
	{ cat hints.out; false; } &&
	grep " checked; 0 gaps\$" hints.out
'

# mypy reads the venv's site-packages (PEP 561: the package's py.typed)
mypy_venv () {
	mypy --strict --cache-dir "$TRASH/.mypy_cache" --python-executable "$vpy" "$@"
}

test_expect_success MYPY 'mypy --strict passes the installed package' '
	mypy_venv -p gerules
'

test_expect_success MYPY 'mypy --strict passes a program using it, and catches a misuse' '
	mypy_venv "$top_srcdir/t/python/wheel_smoke.py" &&
	cat >misuse.py <<-\EOF &&
	import gerules
	ev = gerules.Rules().evaluate("m.json", chip="Ascend910B1")
	n: int = ev.node("x").dtype
	ev.decision("x", 1.5)
	EOF
	test_must_fail mypy_venv misuse.py >misuse.out &&
	cat misuse.out &&
	grep "misuse.py:3: error: Incompatible types in assignment (expression has type \"Optional\[str\]\", variable has type \"int\")" misuse.out &&
	grep "misuse.py:4: error: Argument 2 to \"decision\" of \"Evaluation\" has incompatible type \"float\"" misuse.out
'

test_done
