#!/bin/sh
# t1102-hardening.sh: the input and output classes of the hardening round
# (issue 10 classes 4, 9, 10 and 11), each as it was attacked:
#  - unbounded reads: devices are refused where a file is expected, every
#    text input has a byte cap, a sparse terabyte graph is no reservation;
#  - --output never destroys an input, a device, a FIFO or a symlink target,
#    and its temporary is a fresh exclusive file beside the target; a report
#    of many buffers gives the same bytes to a file, a pipe and a descriptor,
#    a full device is a write error and a closed pipe ends it quietly;
#  - the text reports (eval and tile) escape control bytes and cap their column widths;
#  - NUL bytes in option names or KEY=VALUE files are located errors, and a
#    --seed out of range is an error, not clamped.
test_description='hardening: bounded reads, safe --output, terminal-safe text, exact option acceptance'
. "$(dirname "$0")/test-lib.sh"

OK_GRAPH='{"graph": [{"name": "g", "op": [{"name": "a", "type": "Data"}, {"name": "b", "type": "Relu", "input": ["a:0"]}]}]}'

test_expect_success 'setup' '
	printf "%s\n" "$OK_GRAPH" >ok.json &&
	printf "[ByOpType]\nRelu=high_precision\n" >op.ini
'

# ---- class 4: unbounded reads ----

test_expect_success 'an ini option value that is a device is refused, not read forever' '
	input_error "/dev/zero: error: not a regular file (a character device) (the file given to OP_PRECISION_MODE)" \
		eval ok.json --chip Ascend910B1 -o OP_PRECISION_MODE=/dev/zero
'

test_expect_success '--options /dev/zero is refused' '
	input_error "/dev/zero: error: not a regular file (a character device)" \
		eval ok.json --chip Ascend910B1 --options /dev/zero
'

test_expect_success '--hook /dev/zero is refused' '
	gerules eval ok.json --chip Ascend910B1 --hook /dev/zero >out 2>err
	test $? = 2 && test_must_be_empty out &&
	test_grep "^/dev/zero: error: not a regular file (a character device)" err
'

test_expect_success 'an endless pipe as --options stops at the 16 MiB cap with the byte offset' '
	{ yes "PRECISION_MODE=force_fp16" | gerules eval ok.json --chip Ascend910B1 --options - >out 2>err; rc=$?; } &&
	test $rc = 2 && test_must_be_empty out &&
	echo "-: error: at byte 16777216: the file is larger than the limit of 16777216 bytes for this kind of input" >expect &&
	test_cmp expect err
'

test_expect_success 'a FIFO as an ini file is refused before any read (no writer: no hang)' '
	mkfifo fifo.ini &&
	input_error "fifo.ini: error: not a regular file (a FIFO) (the file given to OP_PRECISION_MODE)" \
		eval ok.json --chip Ascend910B1 -o OP_PRECISION_MODE=fifo.ini
'

test_expect_success 'a sparse 1 TB graph file is a located error, not a terabyte reservation' '
	if truncate -s 1T sparse.json 2>/dev/null
	then
		# the source line is shown as a window of 150 bytes, escaped, then the caret
		zeros=$(printf "\\\\\\\\x00%.0s" $(seq 150)) &&
		input_error_exact "sparse.json:1:1: error: expected a JSON value, found byte 0x00\n $zeros...\n ^" \
			eval sparse.json --chip Ascend910B1 --input-format json
	else
		echo "# the file system refuses a 1 TB sparse file; nothing to test"
	fi
'

test_expect_success 'a sparse 1 TB graph that starts like JSON is read without a huge reservation' '
	if truncate -s 1T sparse2.json 2>/dev/null
	then
		printf "{\"graph\": [" | dd of=sparse2.json conv=notrunc 2>/dev/null &&
		zeros=$(printf "\\\\\\\\x00%.0s" $(seq 139)) &&
		input_error_exact "sparse2.json:1:12: error: expected a value or '"'"']'"'"', found byte 0x00\n {\"graph\": [$zeros...\n            ^" \
			eval sparse2.json --chip Ascend910B1 --input-format json
	else
		echo "# the file system refuses a 1 TB sparse file; nothing to test"
	fi
'

# ---- class 9: --output ----

test_expect_success '--output naming the input graph is refused and the graph is untouched' '
	cp ok.json keep.json &&
	input_error "gerules eval: error: will not write ok.json: it is one of the inputs (ok.json)" \
		eval ok.json --chip Ascend910B1 --output ok.json &&
	test_cmp keep.json ok.json
'

test_expect_success '--output naming the input through another path (a hard link) is refused' '
	ln ok.json hard.json &&
	input_error "gerules eval: error: will not write hard.json: it is one of the inputs (ok.json)" \
		eval ok.json --chip Ascend910B1 --output hard.json &&
	test_cmp keep.json ok.json
'

test_expect_success '--output naming the ini file given to an option is refused' '
	cp op.ini keep.ini &&
	input_error "gerules eval: error: will not write op.ini: it is one of the inputs (op.ini)" \
		eval ok.json --chip Ascend910B1 -o OP_PRECISION_MODE=op.ini --output op.ini &&
	test_cmp keep.ini op.ini
'

test_expect_success '--output naming an --options file or a hook is refused' '
	echo "PRECISION_MODE=force_fp16" >o.txt && cp o.txt keep.txt &&
	input_error "gerules eval: error: will not write o.txt: it is one of the inputs (o.txt)" \
		eval ok.json --chip Ascend910B1 --options o.txt --output o.txt &&
	test_cmp keep.txt o.txt &&
	echo "-- nothing" >h.lua && cp h.lua keep.lua &&
	input_error "gerules eval: error: will not write h.lua: it is one of the inputs (h.lua)" \
		eval ok.json --chip Ascend910B1 --hook h.lua --output h.lua &&
	test_cmp keep.lua h.lua
'

test_expect_success '--output of tile naming the graph is refused too' '
	input_error "gerules tile: error: will not write ok.json: it is one of the inputs (ok.json)" \
		tile ok.json --chip Ascend910B1 --output ok.json &&
	test_cmp keep.json ok.json
'

test_expect_success '--output to a symlink is refused and its target untouched' '
	echo precious >target && ln -s target link.json &&
	input_error "gerules eval: error: will not write link.json: it is a symbolic link (give the file it points to)" \
		eval ok.json --chip Ascend910B1 --output link.json &&
	echo precious >expect && test_cmp expect target && test -L link.json
'

test_expect_success '--output to a character device or a FIFO is refused; the device stays one' '
	input_error "gerules eval: error: will not write /dev/null: it is not a regular file (a character device)" \
		eval ok.json --chip Ascend910B1 --output /dev/null &&
	test -c /dev/null &&
	mkfifo out.fifo &&
	input_error "gerules eval: error: will not write out.fifo: it is not a regular file (a FIFO)" \
		eval ok.json --chip Ascend910B1 --output out.fifo &&
	test -p out.fifo
'

test_expect_success '--output: a new file gets the umask mode, a replaced one keeps its mode, no temporary is left' '
	mkdir od &&
	(umask 022 && gerules eval ok.json --chip Ascend910B1 --output od/new.txt) &&
	test "$(stat -c %a od/new.txt)" = 644 &&
	echo old >od/old.txt && chmod 640 od/old.txt &&
	gerules eval ok.json --chip Ascend910B1 --output od/old.txt &&
	test "$(stat -c %a od/old.txt)" = 640 &&
	test_grep "^summary:" od/old.txt &&
	ls -A od >names && printf "new.txt\nold.txt\n" >expect && test_cmp expect names
'

test_expect_success '--output: the temporary is not a predictable name a planted symlink could catch' '
	mkdir od2 && echo precious >victim &&
	for p in $(seq 1 400); do ln -s ../victim "od2/r.json.tmp.$p"; ln -s ../victim "od2/.r.json.tmp.$p"; done &&
	gerules eval ok.json --chip Ascend910B1 --output od2/r.json &&
	echo precious >expect && test_cmp expect victim &&
	test_grep "^summary:" od2/r.json && ! test -L od2/r.json
'

# Reports of many output buffers (256 KiB each, report/out.c).
test_expect_success 'a big report: the same bytes to a file, a pipe and a file descriptor' '
	"${PYTHON3:-python3}" "$top_srcdir/bench/gen_graph.py" --ops 4000 -o big.json &&
	gerules eval big.json --chip Ascend910B1 --format json --all-nodes --output big.out &&
	test "$(wc -c <big.out)" -gt 1000000 &&
	gerules eval big.json --chip Ascend910B1 --format json --all-nodes >big.fd &&
	gerules eval big.json --chip Ascend910B1 --format json --all-nodes | cat >big.pipe &&
	test_cmp big.out big.fd && test_cmp big.out big.pipe &&
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"summary\"][\"nodes\"] == len(d[\"nodes\"]) == 4000" big.out
'

test_expect_success 'a big report to a full device is a write error, exit 2, for small reports too' '
	test -c /dev/full &&
	{ gerules eval big.json --chip Ascend910B1 --format json --all-nodes >/dev/full 2>err; test $? = 2; } &&
	echo "gerules eval: error: write error: No space left on device" >expect && test_cmp expect err &&
	{ gerules eval ok.json --chip Ascend910B1 >/dev/full 2>err; test $? = 2; } &&
	test_cmp expect err
'

test_expect_success 'a big report into a pipe its reader closed ends quietly by SIGPIPE' '
	{ gerules eval big.json --chip Ascend910B1 --format json --all-nodes 2>err; echo $? >rc; } | head -c 10 >first &&
	test "$(cat rc)" = 141 &&
	test_must_be_empty err &&
	printf "{\n  \"schem" >expect && test_cmp expect first
'

# ---- class 10: terminal-safe text ----

test_expect_success 'node names with escape sequences and newlines are escaped in the text report' '
	printf "{\"graph\": [{\"name\": \"g\", \"op\": [{\"name\": \"a\", \"type\": \"Data\"}, {\"name\": \"evil\\\\u001b[2J\\\\nx.json:1:1: error: forged\", \"type\": \"MatMulV2\", \"input\": [\"a:0\"]}]}]}\n" >evil.json &&
	gerules eval evil.json --chip Ascend910B1 --all-nodes >out 2>err &&
	! grep "$(printf "\033")" out &&
	! grep "^x.json:1:1:" out &&
	test_grep "evil\\\\x1b\\[2J\\\\nx.json:1:1: error: forged" out &&
	gerules eval evil.json --chip Ascend910B1 --explain "$(printf "evil\033[2J\nx.json:1:1: error: forged")" >out2 &&
	! grep "$(printf "\033")" out2 && ! grep "^x.json:1:1:" out2
'

test_expect_success 'a 16 MB op type does not make --all-nodes write hundreds of MB' '
	/usr/bin/python3 -c "
import json
t = \"X\" * (16 << 20)
ops = [{\"name\": \"n%d\" % i, \"type\": t if i == 0 else \"Relu\"} for i in range(32)]
json.dump({\"graph\": [{\"name\": \"g\", \"op\": ops}]}, open(\"wide.json\", \"w\"))
" &&
	gerules eval wide.json --chip Ascend910B1 --all-nodes >out 2>err &&
	test $(wc -c <out) -lt 20000 &&
	test_grep "^n0  *XXXXXXXXXX*\\.\\.\\. " out &&
	test $(grep "^n[0-9]* " out | awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }") -lt 300 &&
	test $(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" out) -lt 3000
'

test_expect_success 'the tile text report escapes node names, op types and the graph path too' '
	/usr/bin/python3 -c "
import json
d = lambda s: [{\"dtype\": \"DT_FLOAT16\", \"shape\": {\"dim\": s}, \"layout\": \"ND\"}]
ops = [{\"name\": \"a\", \"type\": \"Data\", \"output_desc\": d([4, 64])},
       {\"name\": \"evil\x1b[2J\nx.json:1:1: error: forged\", \"type\": \"Add\", \"input\": [\"a:0\", \"a:0\"],
        \"input_desc\": d([4, 64]) + d([4, 64]), \"output_desc\": d([4, 64])},
       {\"name\": \"N\" * 100000, \"type\": \"Add\", \"input\": [\"a:0\", \"a:0\"],
        \"input_desc\": d([4, 64]) + d([4, 64]), \"output_desc\": d([4, 64])},
       {\"name\": \"odd\", \"type\": \"Odd\x1b]0;owned\x07\nx.json:2:2: error: forged\", \"input\": [\"a:0\"]}]
json.dump({\"graph\": [{\"name\": \"g\", \"op\": ops}]}, open(\"tevil\x1b[1m.json\", \"w\"))
" &&
	gerules tile "$(printf "tevil\033[1m.json")" --chip Ascend910B1 >out 2>err &&
	! grep "$(printf "\033")" out &&
	! grep "$(printf "\007")" out &&
	! grep "^x.json:" out &&
	test_grep "^graph tevil\\\\x1b\\[1m.json, 4 nodes" out &&
	test_grep "^evil\\\\x1b\\[2J\\\\nx.json:1:1: error: forged (Add)  class " out &&
	test_grep "without a tiling strategy: Data x1, Odd\\\\x1b\\]0;owned\\\\x07\\\\nx.json:2:2: erro\\.\\.\\. x1$" out &&
	test_grep "^NNNNNNNNNN*\\.\\.\\. (Add)  class " out &&
	test $(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" out) -lt 300
'

# ---- class 11: exact acceptance, located errors ----

test_expect_success 'a JSON options key with an escaped NUL is not taken for the name before it' '
	printf "{\n  \"ALLOW_HF32\\\\u0000junk\": \"true\"\n}\n" >nul.json &&
	input_error "nul.json:2:3: error: an option name cannot contain a NUL byte (\\\\u0000)" \
		eval ok.json --chip Ascend910B1 --options nul.json
'

test_expect_success 'a JSON options value with an escaped NUL is refused too' '
	printf "{\"PRECISION_MODE\": \"force_fp16\\\\u0000x\"}\n" >nulv.json &&
	input_error "nulv.json:1:20: error: an option value cannot contain a NUL byte (\\\\u0000)" \
		eval ok.json --chip Ascend910B1 --options nulv.json
'

test_expect_success 'a NUL byte in a KEY=VALUE options file is located' '
	printf "PRECISION_MODE=force_fp16\nALLOW\000HF32=true\n" >nul.txt &&
	input_error_exact "nul.txt:2:6: error: a NUL byte (an options file is text)\n ALLOW\\\\x00HF32=true\n      ^" \
		eval ok.json --chip Ascend910B1 --options nul.txt
'

test_expect_success '--seed 2^64 is an error, 2^64-1 is accepted' '
	input_error "gerules tile: error: --seed expects an integer from 0 to 18446744073709551615, got '"'"'18446744073709551616'"'"'\n(try '"'"'gerules tile --help'"'"')" \
		tile ok.json --chip Ascend910B1 --seed 18446744073709551616 &&
	gerules tile ok.json --chip Ascend910B1 --seed 18446744073709551615 --type Data >out &&
	test_grep "^summary: 0 nodes planned" out &&
	test_must_fail --exit 2 gerules tile ok.json --chip Ascend910B1 --seed " 5" 2>err
'

test_done
