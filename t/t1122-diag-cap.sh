#!/bin/sh
# t1122-diag-cap.sh: warnings and notes are capped per input file (issue 10,
# classes 4-5: an input of many tiny bad lines must not turn into tens of
# millions of diagnostic records). A 64 MB ini of lines without '=' made
# 31 million warnings and a 14.8 GB process; now each file lists its first
# 1000 warnings and notes, then one note says the rest are not listed.
# Errors keep their own cap (t1121); diagnostics without a file are not
# capped. The test asserts the output, never the time or the memory.
test_description='per-file cap on warnings and notes'
. "$(dirname "$0")/test-lib.sh"

graph="$top_srcdir/examples/llm_decoder.json"
PY=${PYTHON3:-/usr/bin/python3}

test_expect_success '5000 bad ini lines: 1000 warnings, then one note naming the file' '
	{ echo "[ByOpType]" && awk "BEGIN { for (i = 0; i < 5000; i++) print \"bad\" i }"; } >many.ini &&
	gerules eval "$graph" --chip Ascend910B1 -o OP_PRECISION_MODE=many.ini -q >out 2>err &&
	test $(grep -c "^many.ini:[0-9]*:1: warning: line without .=. is ignored" out) = 1000 &&
	test_grep "^many.ini:1001:1: warning: line without .=. is ignored: .bad999. " out &&
	! grep "^many.ini:1002:" out &&
	grep "^many.ini: note: too many warnings and notes for this file; only the first 1000 are listed$" out >notes &&
	test $(wc -l <notes) = 1 &&
	test_grep "^summary: 63 nodes, 0 errors, 1000 warnings, " out
'

test_expect_success 'the JSON report carries the same 1000 warnings and the note' '
	gerules eval "$graph" --chip Ascend910B1 -o OP_PRECISION_MODE=many.ini --format json >out.json &&
	"$PY" -c "
import json, sys
d = json.load(open(\"out.json\"))
ds = [x for x in d[\"diagnostics\"] if x.get(\"file\") == \"many.ini\"]
w = [x for x in ds if x[\"severity\"] == \"warning\"]
n = [x for x in ds if x[\"severity\"] == \"note\" and x[\"message\"].startswith(\"too many warnings\")]
assert len(w) == 1000 and len(n) == 1, (len(w), len(n))
"
'

test_expect_success 'unknown op types beyond the cap: the evaluator'"'"'s own warnings count too' '
	{ echo "[ByOpType]" && awk "BEGIN { for (i = 0; i < 1500; i++) print \"NoSuchOp\" i \"=high_precision\" }"; } >types.ini &&
	gerules eval "$graph" --chip Ascend910B1 -o OP_PRECISION_MODE=types.ini -q >out 2>err &&
	test $(grep -c "^types.ini:[0-9]*:[0-9]*: warning: " out) = 1000 &&
	test $(grep -c "^types.ini: note: too many warnings and notes" out) = 1
'

test_expect_success 'below the cap nothing is dropped and there is no note' '
	{ echo "[ByOpType]" && awk "BEGIN { for (i = 0; i < 999; i++) print \"bad\" i }"; } >few.ini &&
	gerules eval "$graph" --chip Ascend910B1 -o OP_PRECISION_MODE=few.ini -q >out 2>err &&
	test $(grep -c "^few.ini:[0-9]*:1: warning: " out) = 999 &&
	! grep "too many warnings" out
'

test_done
