#!/bin/sh
# t4002-python.sh: the gerules Python package as a user gets it: `make install`
# into a staging DESTDIR, then Debian's python3 (configure's PYTHON3) imports
# the installed package (PYTHONPATH at the staged directory holding gerules/,
# GERULES_LIBRARY at the staged library, as doc/python.md says for a prefix
# the interpreter does not search) and runs t/python/test_gerules.py, whose
# unittest cases print TAP themselves.
test_description='the Python module over libgerules'
. "$(dirname "$0")/test-lib.sh"

PY=${PYTHON3:-python3}
test_skip_unless PYTHON3
dest=$TRASH/dest
if ! (cd "$top_builddir" && ${GR_MAKE:-make} install DESTDIR="$dest") >install.log 2>&1; then
	echo "not ok 1 - make install into a staging directory"
	sed 's/^/# /' install.log | tail -20
	echo "1..1"
	exit 1
fi
mod=$(find "$dest" -path "*/gerules/__init__.py" | head -1)
lib=$(find "$dest" -name "libgerules.so.1" | head -1)
if test -z "$mod" || test -z "$lib" || ! test -f "$(dirname "$mod")/py.typed"; then
	echo "not ok 1 - the package (with py.typed) and the library are installed ($mod, $lib)"
	echo "1..1"
	exit 1
fi
# a sanitizer build's library needs its runtime loaded first in python3
if test -n "$GR_SAN_FLAGS"; then
	LD_PRELOAD="$(${GR_CC:-cc} -print-file-name=libasan.so) $(${GR_CC:-cc} -print-file-name=libubsan.so)"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0   # after the caller's: Python and numpy leak by design
	export LD_PRELOAD ASAN_OPTIONS
fi
PYTHONPATH=$(dirname "$(dirname "$mod")") GERULES_LIBRARY=$lib TMPDIR=$TRASH \
	exec "$PY" -B "$top_srcdir/t/python/test_gerules.py"
