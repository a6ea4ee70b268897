# test-lib.sh: the git-style harness for gerules' shell tests (t/t1xxx-*.sh).
# A script sets test_description, sources this file, runs test_expect_success
# blocks and ends with test_done. Output is TAP. Each script runs in its own
# trash directory, removed at exit unless GR_TEST_KEEP is set.
#
# Environment (set by `make check`, see Makefile.am): top_srcdir, GERULES (the
# binary under test), GERULES_RULES (the shipped rule set in the source tree).

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${GERULES:=$top_srcdir/src/gerules}"
: "${GERULES_RULES:=$top_srcdir/rules}"
: "${GERULES_CODES:=$top_srcdir/doc/gerules-codes.rules}"
export top_srcdir GERULES GERULES_RULES GERULES_CODES
LC_ALL=C; export LC_ALL

test_count=0
test_failures=0
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/gerules-test.XXXXXX") || exit 1
if test -z "$GR_TEST_KEEP"; then trap 'rm -rf "$TRASH"' EXIT; fi
cd "$TRASH" || exit 1

# gerules with the shipped rule set unless a test passes --rules itself.
gerules () { "$GERULES" "$@"; }

test_expect_success () {
	test_count=$((test_count + 1))
	if (eval "$2") >"$TRASH/.out" 2>&1
	then
		echo "ok $test_count - $1"
	else
		test_failures=$((test_failures + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out"
	fi
}

# test_expect_failure TITLE BODY: a known breakage (TAP TODO), as in git.
test_expect_failure () {
	test_count=$((test_count + 1))
	if (eval "$2") >"$TRASH/.out" 2>&1
	then echo "ok $test_count - $1 # TODO known breakage vanished"
	else echo "not ok $test_count - $1 # TODO known breakage"
	fi
}

# test_must_fail [--exit N] cmd...: the command must fail normally (no signal,
# no "command not found"); with --exit, with exactly status N.
test_must_fail () {
	want=
	if test "$1" = "--exit"; then want=$2; shift 2; fi
	"$@"
	rc=$?
	if test $rc -eq 0; then echo >&2 "test_must_fail: command succeeded: $*"; return 1; fi
	if test $rc -gt 128; then echo >&2 "test_must_fail: died by signal $((rc - 128)): $*"; return 1; fi
	if test $rc -eq 127; then echo >&2 "test_must_fail: command not found: $1"; return 1; fi
	if test -n "$want" && test $rc -ne "$want"; then
		echo >&2 "test_must_fail: exit status $rc, expected $want: $*"; return 1
	fi
	return 0
}

test_cmp () { diff -u "$1" "$2"; }

# test_grep PATTERN FILE: like grep, but shows the file when nothing matches.
test_grep () {
	if grep -e "$1" "$2" >/dev/null; then return 0; fi
	echo >&2 "test_grep: no line matching '$1' in $2:"; sed 's/^/| /' "$2" >&2; return 1
}

test_must_be_empty () {
	if test -s "$1"; then echo >&2 "'$1' is not empty:"; sed 's/^/| /' "$1" >&2; return 1; fi
}

# json_get FILE EXPR: evaluates a Python expression over the parsed JSON in `d`.
json_get () {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=eval(sys.argv[2]); print(json.dumps(v) if not isinstance(v,str) else v)' "$1" "$2"
}

test_done () {
	echo "1..$test_count"
	test "$test_failures" -eq 0
	exit $?
}
