#!/bin/sh
# t1100-golden.sh: the data-driven golden tests of `gerules eval`. Every
# t/golden/*.case file is one TAP test; t/golden-run.py documents the case
# format, runs the cases and speaks TAP itself. This wrapper only sets up the
# environment of test-lib.sh (GERULES, GERULES_RULES, top_srcdir, a trash
# directory as the temporary directory) and reports the runner's status.
test_description='golden cases of gerules eval (t/golden/*.case)'
. "$(dirname "$0")/test-lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not available"
	exit 0
fi
TMPDIR=$TRASH python3 "$top_srcdir/t/golden-run.py" "$top_srcdir/t/golden"
