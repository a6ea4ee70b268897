#!/bin/sh
# t3000-tile.sh: `gerules tile`: plans, validation, --execute and placement on
# the example LLM decoder for a 192 KiB UB chip (Ascend910B1) and a 256 KiB UB
# chip (Ascend310P3), filters, JSON schema names, Lua tiling functions (good
# and wrong ones), the shipped rule set, and usage / input errors.
# Rules: t/data/tiling/fixture.rules unless a test says otherwise.

test_description='gerules tile'
. "$top_srcdir/t/test-lib.sh"

FIX="$top_srcdir/t/data/tiling"
LLM="$top_srcdir/examples/llm_decoder.json"
tile () { "$GERULES" --rules "$FIX/fixture.rules" tile "$@"; }

test_expect_success 'LLM decoder on Ascend910B1: every supported node validates and executes with matching results' '
	tile "$LLM" --chip Ascend910B1 --execute --format json >a2.json &&
	test "$(json_get a2.json "d[\"summary\"][\"planned\"]")" = 31 &&
	test "$(json_get a2.json "d[\"summary\"][\"invalid\"]")" = 0 &&
	test "$(json_get a2.json "d[\"summary\"][\"mismatched\"]")" = 0 &&
	test "$(json_get a2.json "all(n[\"valid\"] and n[\"execute\"][\"match\"] and n[\"execute\"][\"tiles_executed\"] > 0 for n in d[\"nodes\"] if n[\"class\"])")" = true
'

test_expect_success 'JSON keeps the documented names' '
	test "$(json_get a2.json "d[\"chip\"][\"soc\"]")" = Ascend910B1 &&
	test "$(json_get a2.json "d[\"chip\"][\"ub_bytes\"]")" = 196608 &&
	json_get a2.json "[n for n in d[\"nodes\"] if n[\"name\"]==\"layer0/attn/q_proj\"][0]" >qp.json &&
	json_get qp.json "sorted(d[\"plan\"].keys())" >keys &&
	for k in block_dim tile_shape tiles_total loops_per_core ub_bytes_used l1_bytes_used l0a_bytes_used l0b_bytes_used l0c_bytes_used
	do grep "\"$k\"" keys || return 1; done &&
	test "$(json_get qp.json "sorted(d[\"execute\"].keys())")" = "[\"match\", \"max_abs_err\", \"max_rel_err\", \"mismatches\", \"scale\", \"scaled\", \"scaled_tile_shape\", \"scaled_tiles_total\", \"tiles_executed\", \"tolerance\"]" &&
	test "$(json_get qp.json "d[\"execute\"][\"scaled\"]")" = true &&
	test "$(json_get qp.json "d[\"class\"]")" = matmul &&
	test "$(json_get qp.json "d[\"tiling\"]")" = compile &&
	test "$(json_get qp.json "d[\"plan\"][\"tile_shape\"]")" = "[1, 128, 176]"
'

test_expect_success 'nodes without a strategy are listed with class null' '
	test "$(json_get a2.json "sorted(set(n[\"type\"] for n in d[\"nodes\"] if n[\"class\"] is None))")" = "[\"Const\", \"Data\", \"NetOutput\", \"RotaryMul\"]" &&
	test "$(json_get a2.json "len(d[\"nodes\"])")" = 63
'

test_expect_success 'Ascend310P3 (256 KiB UB) gives different tile sizes that still validate and execute' '
	tile "$LLM" --chip Ascend310P3 --execute --format json >p.json &&
	test "$(json_get p.json "d[\"chip\"][\"ub_bytes\"]")" = 262144 &&
	test "$(json_get p.json "d[\"summary\"][\"invalid\"]")" = 0 &&
	test "$(json_get p.json "d[\"summary\"][\"mismatched\"]")" = 0 &&
	json_get a2.json "{n[\"name\"]: n[\"plan\"][\"tile_shape\"] for n in d[\"nodes\"] if n[\"class\"]}" >a2.tiles &&
	json_get p.json "{n[\"name\"]: n[\"plan\"][\"tile_shape\"] for n in d[\"nodes\"] if n[\"class\"]}" >p.tiles &&
	! test_cmp a2.tiles p.tiles >/dev/null &&
	test "$(json_get p.json "[n[\"plan\"][\"tile_shape\"] for n in d[\"nodes\"] if n[\"name\"]==\"layer0/attn/q_proj\"][0]")" = "[1, 128, 256]" &&
	test "$(json_get p.json "[n[\"plan\"][\"tile_shape\"] for n in d[\"nodes\"] if n[\"name\"]==\"layer0/attn_residual\"][0]")" != \
	     "$(json_get a2.json "[n[\"plan\"][\"tile_shape\"] for n in d[\"nodes\"] if n[\"name\"]==\"layer0/attn_residual\"][0]")"
'

test_expect_success 'text report: plan, memory, execution and summary lines' '
	tile "$LLM" --chip Ascend910B1 --execute >out &&
	test_grep "^layer0/input_norm (RmsNorm)  class rms_norm \[reduce_last\]  tiling compile" out &&
	test_grep "plan     43 cores, tile \[3, 4096\] over \[128, 4096\]" out &&
	test_grep "x 2x24576 + y 2x24576" out &&
	test_grep "scaled down: batch x M x N x K 1 x 128 x 32000 x 4096" out &&
	test_grep "^summary: 31 nodes planned (11 distinct plans), 31 valid, 0 invalid; 31 executed (11 distinct executions), 31 match, 0 mismatch" out &&
	test_grep "^32 nodes without a tiling strategy: Data x2, Const x25, RotaryMul x4, NetOutput x1" out
'

# the JSON Schema of the tile report, the file doc/schemas/ ships
tile_schema () {
	cat "$top_srcdir/doc/schemas/tile.schema.json"
}
JSPY=
for p in /usr/bin/python3 python3; do
	if "$p" -c "import jsonschema" 2>/dev/null; then JSPY=$p; break; fi
done

test_expect_success 'the JSON report (plans, execution, skipped and invalid nodes, codes) validates against the documented schema' '
	test -n "$JSPY" &&
	tile_schema "$JSPY" >schema.json &&
	tile "$LLM" --chip Ascend910B1 --execute --format json >v1.json &&
	test_must_fail --exit 1 tile "$FIX/custom.json" --chip Ascend910B1 --hook "$FIX/overlap.lua" --format json >v2.json &&
	for f in v1.json v2.json; do
		"$JSPY" -c "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))" schema.json $f || return 1
	done &&
	test "$(json_get v1.json "d[\"summary\"][\"distinct_plans\"]")" = 11 &&
	test "$(json_get v1.json "d[\"summary\"][\"distinct_executions\"]")" = 11 &&
	test "$(json_get v2.json "sorted(set(p[\"code\"] for n in d[\"nodes\"] if n[\"class\"] for p in n[\"problems\"]))")" = "[\"GR0306\"]"
'

test_expect_success 'placement comes from the evaluator and follows the options' '
	tile "$LLM" --chip Ascend910B1 --type FusedInferAttentionScore --format json >def.json &&
	test "$(json_get def.json "[n[\"tiling\"] for n in d[\"nodes\"]]")" = "[\"host\"]" &&
	tile "$LLM" --chip Ascend910B1 --type FusedInferAttentionScore -o TILING_SCHEDULE_OPTIMIZE=1 --format json >sink.json &&
	test "$(json_get sink.json "[n[\"tiling\"] for n in d[\"nodes\"]]")" = "[\"device\"]"
'

test_expect_success '--node and --type select nodes' '
	tile "$LLM" --chip Ascend910B1 --node lm_head --format json >one.json &&
	test "$(json_get one.json "[n[\"name\"] for n in d[\"nodes\"]]")" = "[\"lm_head\"]" &&
	tile "$LLM" --chip Ascend910B1 --type RmsNorm --format json >rms.json &&
	test "$(json_get rms.json "len(d[\"nodes\"])")" = 5
'

test_expect_success 'a chip whose memories are too small: the failed checks are errors with numbers, exit 1' '
	test_must_fail --exit 1 tile "$LLM" --chip TinyUB >tiny &&
	test_grep "error: memory: no block of 16 query rows x 16 key rows (head dim 128) fits the memories of TinyUB" tiny &&
	test_grep "INVALID" tiny
'

test_expect_success 'the same run twice gives the same bytes (seeded inputs)' '
	tile "$LLM" --chip Ascend310P3 --execute --type Swish --format json >r1 &&
	tile "$LLM" --chip Ascend310P3 --execute --type Swish --format json >r2 &&
	test_cmp r1 r2
'

test_expect_success 'convnet: three Conv2D (conv2d class, t3001), softmax, a scaled FC matmul and element-wise nodes execute' '
	tile "$top_srcdir/examples/convnet.json" --chip Ascend910B1 --execute --format json >cv.json &&
	test "$(json_get cv.json "d[\"summary\"][\"executed\"]")" = 8 &&
	test "$(json_get cv.json "d[\"summary\"][\"mismatched\"]")" = 0
'

test_expect_success 'Lua tiling: a correct function is run and validated on both chips' '
	tile "$FIX/custom.json" --chip Ascend910B1 --hook "$FIX/good.lua" --node scale --format json >g1.json &&
	test "$(json_get g1.json "d[\"nodes\"][0][\"class\"]")" = custom &&
	test "$(json_get g1.json "d[\"nodes\"][0][\"valid\"]")" = true &&
	test "$(json_get g1.json "d[\"nodes\"][0][\"plan\"][\"tile_shape\"]")" = "[240, 100]" &&
	tile "$FIX/custom.json" --chip Ascend310P3 --hook "$FIX/good.lua" --node scale --format json >g2.json &&
	test "$(json_get g2.json "d[\"nodes\"][0][\"plan\"][\"tile_shape\"]")" = "[320, 100]" &&
	test "$(json_get g2.json "d[\"nodes\"][0][\"valid\"]")" = true
'

test_expect_success 'Lua tiling: a tile bigger than the UB is caught' '
	test_must_fail --exit 1 tile "$FIX/custom.json" --chip Ascend910B1 --hook "$FIX/toobig.lua" >big &&
	test_grep "error: memory: the ub working set of tile \[4096, 100\] is 3276800 bytes" big
'

test_expect_success 'Lua tiling: overlapping tiles are caught' '
	test_must_fail --exit 1 tile "$FIX/custom.json" --chip Ascend910B1 --hook "$FIX/overlap.lua" >ov &&
	test_grep "error: coverage: tiles 0 \[0:16, 0:100\] and 1 \[15:31, 0:100\] overlap at element \[15, 0\]" ov
'

test_expect_success 'Lua tiling: a missed tail is caught' '
	test_must_fail --exit 1 tile "$FIX/custom.json" --chip Ascend910B1 --hook "$FIX/tail.lua" >tl &&
	test_grep "error: coverage: element \[4080, 0\] of the output \[4096, 100\] is covered by no tile" tl &&
	test_grep "1600 of 409600 output elements are never computed" tl
'

test_expect_success 'Lua tiling: a failing function is a located error, the other nodes still planned' '
	test_must_fail --exit 1 tile "$FIX/custom.json" --chip Ascend910B1 --hook "$FIX/broken.lua" >br &&
	test_grep "error: hook: .*broken.lua:4: attempt to index a nil value" br &&
	test_grep "^relu (Relu)" br
'

test_expect_success 'usage and input errors exit 2 with nothing on stdout' '
	test_must_fail --exit 2 tile >o 2>e && test_must_be_empty o && test_grep "no graph file" e &&
	test_must_fail --exit 2 tile "$LLM" --chip Ascend910B1 --bogus >o 2>e && test_must_be_empty o &&
	test_must_fail --exit 2 tile "$LLM" --chip Ascend910B1 --node nope >o 2>e && test_must_be_empty o &&
	test_grep "no node named" e &&
	test_must_fail --exit 2 tile "$LLM" --chip NoSuchChip >o 2>e && test_must_be_empty o &&
	test_must_fail --exit 2 tile "$LLM" --chip Ascend910B1 --hook nope.lua >o 2>e && test_must_be_empty o &&
	printf "bundle \"x\" { version \"1\"; cann \"8\"; description \"x\"; }\nhardware ub_bytes \"u\";\nproduct p \"p\" { soc \"S\" { ub_bytes 1; } }\n" >norole.rules &&
	test_must_fail --exit 2 "$GERULES" --rules norole.rules tile "$LLM" --chip S >o 2>e && test_must_be_empty o &&
	test_grep "no table .tiling_roles." e
'

test_expect_success '--output writes the report to a file' '
	tile "$LLM" --chip Ascend910B1 --type Add --output rep.json --format json >o &&
	test_must_be_empty o &&
	test "$(json_get rep.json "len(d[\"nodes\"])")" = 4
'

test_expect_success 'the shipped rule set: the LLM decoder validates and executes on Ascend910B1 and Ascend310P3' '
	"$GERULES" --rules "$GERULES_RULES" tile "$LLM" --chip Ascend910B1 --execute >s1 &&
	test_grep "^summary: 31 nodes planned (11 distinct plans), 31 valid, 0 invalid; 31 executed (11 distinct executions), 31 match, 0 mismatch" s1 &&
	"$GERULES" --rules "$GERULES_RULES" tile "$LLM" --chip Ascend310P3 --execute >s2 &&
	test_grep "^summary: 31 nodes planned (11 distinct plans), 31 valid, 0 invalid; 31 executed (11 distinct executions), 31 match, 0 mismatch" s2
'

# issue 10 classes 1, 2 and 13 (t/data/tiling/hardening.json): shapes near
# INT64_MAX, batch dims whose product overflows, a huge K, element-wise, batch
# and row counts whose tiles are too many to enumerate, and the SoftmaxV2
# [128, 4096] float32 node whose 310P3 plan used to fail its own balance check
for chip in Ascend310P3 Ascend910B1; do
test_expect_success "hardening on $chip: limits are located errors, the rest plans, validates and executes" '
	test_must_fail --exit 1 "$GERULES" --rules "$GERULES_RULES" tile "$FIX/hardening.json" --chip '$chip' --execute --format json >h.json 2>h.err &&
	test_grep "6 invalid plans, 0 mismatched" h.err &&
	test "$(json_get h.json "[n[\"name\"] for n in d[\"nodes\"] if n[\"valid\"]]")" = "[\"softmax_310\", \"mm_huge_k\"]" &&
	test "$(json_get h.json "all(n[\"execute\"][\"match\"] for n in d[\"nodes\"] if n[\"valid\"])")" = true &&
	test "$(json_get h.json "[n[\"execute\"][\"scaled\"] for n in d[\"nodes\"] if n[\"name\"]==\"mm_huge_k\"][0]")" = true &&
	test "$(json_get h.json "sorted(set(p[\"code\"] + \" \" + p[\"check\"] for n in d[\"nodes\"] if not n[\"valid\"] for p in n[\"problems\"]))")" = "[\"GR0312 limit\"]" &&
	test "$(json_get h.json "[len(n[\"problems\"]) for n in d[\"nodes\"] if not n[\"valid\"]]")" = "[1, 1, 1, 1, 1, 1]" &&
	test_grep "needs 1073741824 tiles, more than the 1048576" h.json &&
	test_grep "a dim of the output is 9223372036854775807" h.json
'
done

# progress: shown on a terminal only (a pty made by python3's pty module);
# GERULES_PROGRESS_DELAY=0 removes the meter's one-second delay, so nothing
# here depends on the machine's speed
PY=${PYTHON3:-python3}
cp "$top_srcdir/t/pty-run.py" pty_run.py

test_expect_success 'progress: a graph of 20000 nodes' '
	"$PY" "$top_srcdir/bench/gen_graph.py" --ops 20000 -o big.json
'

test_expect_success 'progress: stderr not a terminal (a file, a pipe): not a byte' '
	GERULES_PROGRESS_DELAY=0 "$GERULES" --rules "$GERULES_RULES" tile big.json --chip Ascend910B1 --type Add --output o1.txt 2>err &&
	test_must_be_empty err &&
	{ GERULES_PROGRESS_DELAY=0 "$GERULES" --rules "$GERULES_RULES" tile big.json --chip Ascend910B1 --type Add --output o2.txt 2>&1 >/dev/null; echo "rc=$?"; } | cat >piped &&
	echo rc=0 >expect &&
	test_cmp expect piped
'

test_expect_success 'progress: on a terminal, "tile: NN% (done of total nodes ...)" and the line is erased' '
	GERULES_PROGRESS_DELAY=0 "$PY" pty_run.py "$GERULES" --rules "$GERULES_RULES" tile big.json --chip Ascend910B1 --type Add --output o3.txt >tty.out &&
	tr "\r" "\n" <tty.out >tty.lines &&
	test_grep "^tile: *[0-9]*% ([0-9]* of [0-9]* nodes" tty.lines &&
	printf "\r\033[K" >expect &&
	tail -c 4 tty.out >last &&
	test_cmp expect last &&
	test_cmp o1.txt o3.txt
'

test_done
