#!/bin/sh
# t4000-progress.sh: the progress meter of report/progress.c. Loading a model
# shows "loading FILE: NN% ..." on stderr when stderr is a terminal (a pty made
# by python3's pty module), erases its line at the end, and writes nothing at
# all when stderr is a file or a pipe. GERULES_PROGRESS_DELAY=0 removes the
# one-second delay so the test does not depend on the machine's speed.
test_description='progress on a terminal only'
. "$(dirname "$0")/test-lib.sh"

PY=${PYTHON3:-python3}
test_skip_unless PTY

# runs a command with stdin, stdout and stderr on a pseudo-terminal; prints
# everything the terminal received (stdout and stderr mixed), exit status kept
cp "$top_srcdir/t/pty-run.py" pty_run.py

test_expect_success 'a big model for the meter' '
	"$PY" "$top_srcdir/bench/gen_graph.py" --ops 20000 -o big.json &&
	test -s big.json
'

test_expect_success 'on a terminal, loading shows a meter and erases it' '
	GERULES_PROGRESS_DELAY=0 "$PY" pty_run.py "$GERULES" --rules "$GERULES_RULES" eval big.json --chip Ascend910B1 --format json --output out.json >tty.out &&
	tr "\r" "\n" <tty.out >tty.lines &&
	test_grep "^loading big.json: *[0-9]*% (.* MiB" tty.lines &&
	printf "\r\033[K" >expect &&
	tail -c 4 tty.out >last &&
	test_cmp expect last
'

test_expect_success 'the report is the same as without a terminal' '
	gerules eval big.json --chip Ascend910B1 --format json --output plain.json &&
	test_cmp plain.json out.json
'

test_expect_success 'stderr to a file: no meter, not a byte' '
	GERULES_PROGRESS_DELAY=0 gerules eval big.json --chip Ascend910B1 --format json --output o2.json 2>err &&
	test_must_be_empty err
'

test_expect_success 'stderr to a pipe: no meter' '
	{ GERULES_PROGRESS_DELAY=0 gerules eval big.json --chip Ascend910B1 --output o3.json --format json 2>&1 >/dev/null; echo "rc=$?"; } | cat >piped &&
	echo rc=0 >expect &&
	test_cmp expect piped
'

test_expect_success 'a terminal, but the work ends before the delay: nothing shown' '
	GERULES_PROGRESS_DELAY=3600 "$PY" pty_run.py "$GERULES" --rules "$GERULES_RULES" eval big.json --chip Ascend910B1 --format json --output small.json >tty2.out &&
	test_must_be_empty tty2.out
'

test_done
