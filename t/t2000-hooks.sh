#!/bin/sh
# t2000-hooks.sh: `gerules eval --hook` from the command line: print goes to
# stderr as located log lines; syntax errors, runtime errors, exceeded limits
# and wrong return types give "file:line: error:" with exit 2 and nothing on
# stdout; overrides show as source "hook" with file:line in the text, JSON
# and --explain reports; bundle hooks run before command-line hooks, which
# run in order; the four examples in examples/hooks/ on the shipped rules.

test_description='Lua hooks on the command line and the examples'
. "${top_srcdir:-..}/t/test-lib.sh"

D="$top_srcdir/t/data/hooks"
EX="$top_srcdir/examples/hooks"
m () { "$GERULES" --rules "$D/mini.rules" eval "$D/g.json" --chip Ascend910B1 "$@"; }
ex () { "$GERULES" eval "$D/ex.json" "$@"; }

test_expect_success 'print goes to stderr as file:line: text, never to the report' '
	cat >p.lua <<-\EOF &&
	print("loaded", 1 + 1)
	gr.on_end(function()
	  print("nodes:", gr.graph().nodes)
	end)
	EOF
	m --hook p.lua >out 2>err &&
	printf "p.lua:1: loaded\t2\np.lua:3: nodes:\t6\n" >expect &&
	test_cmp expect err &&
	! grep -q "loaded" out &&
	test_grep "^summary:" out
'

test_expect_success 'hooks run once (not again for the text report baseline)' '
	m --hook p.lua >out 2>err &&
	test "$(grep -c nodes: err)" = 1
'

test_expect_success 'a syntax error: file:line: error: and the line, exit 2, nothing on stdout' '
	printf "local a = 1\nlocal b = = 2\n" >syn.lua &&
	test_must_fail --exit 2 m --hook syn.lua >out 2>err &&
	test_must_be_empty out &&
	echo "syn.lua:2: error: unexpected symbol near '"'"'='"'"'" >expect &&
	test_add_source expect &&
	test_cmp expect err
'

test_expect_success 'a runtime error in a node callback has a traceback' '
	cat >rt.lua <<-\EOF &&
	gr.on_node("Conv2D", function(node)
	  local t = nil
	  return t.field
	end)
	EOF
	test_must_fail --exit 2 m --hook rt.lua >out 2>err &&
	test_must_be_empty out &&
	test_grep "^rt.lua:3: error: attempt to index a nil value (local '"'"'t'"'"')" err &&
	test_grep "^  stack traceback:" err &&
	test_grep "rt.lua:3: in function" err
'

test_expect_success 'a runtime error while loading' '
	printf "\n\nerror(\"refused by site policy\")\n" >top.lua &&
	test_must_fail --exit 2 m --hook top.lua >out 2>err &&
	test_must_be_empty out &&
	test_grep "^top.lua:3: error: refused by site policy" err
'

test_expect_success 'a callback returning a value is an error at its definition' '
	printf "\ngr.on_node(function(n)\n  return 1\nend)\n" >ret.lua &&
	test_must_fail --exit 2 m --hook ret.lua >out 2>err &&
	test_must_be_empty out &&
	test_grep "^ret.lua:2: error: the node callback defined here returned a number; callbacks return nothing" err
'

test_expect_success 'an infinite loop stops at the instruction budget' '
	printf "gr.on_begin(function()\n  while true do end\nend)\n" >loop.lua &&
	test_must_fail --exit 2 m --hook loop.lua --hook-instructions 1000000 --hook-timeout 86400 >out 2>err &&
	test_must_be_empty out &&
	test_grep "^loop.lua:2: error: instruction budget exceeded" err
'

test_expect_success 'a catastrophic pattern stops at --hook-timeout' '
	printf "gr.on_begin(function()\n  return string.find(string.rep(\"a\", 5e4), \".-.-.-.-.-.-.-.-b\")\nend)\n" >cat.lua &&
	test_must_fail --exit 2 m --hook cat.lua --hook-timeout 1 --hook-instructions 1000000000000000000 >out 2>err &&
	test_must_be_empty out &&
	test_grep "^cat.lua:2: error: time limit exceeded" err
'

test_expect_success 'a memory bomb stops at --hook-memory' '
	printf "gr.on_end(function()\n  local s = string.rep(\"x\", 2^30)\nend)\n" >mem.lua &&
	test_must_fail --exit 2 m --hook mem.lua --hook-memory 8 --hook-timeout 86400 --hook-instructions 1000000000000000000 >out 2>err &&
	test_must_be_empty out &&
	test_grep "^mem.lua:2: error: memory limit exceeded: a hook may use 8 MiB" err
'

test_expect_success 'sandbox escapes fail cleanly' '
	for code in "io.open(\"/etc/passwd\")" "os.exit(0)" "require(\"os\")" "debug.getinfo(1)" \
	            "string.dump(print)" "dofile(\"/etc/passwd\")" "loadfile(\"/etc/passwd\")()" \
	            "assert(load(\"\\27Lua\"))()" "collectgarbage()" "coroutine.create(print)" \
	            "setmetatable({}, {__gc = print})" "getmetatable(\"\").__index = {}"
	do
		echo "$code" >esc.lua &&
		test_must_fail --exit 2 m --hook esc.lua >out 2>err &&
		test_must_be_empty out &&
		test_grep "^esc.lua:1: error: " err || return 1
	done
'

test_expect_success 'a bad gr.on_node filter is a located error; what is checked is what is registered' '
	for f in "{\"Conv2D\", nil, \"Cast\"}" "{\"Conv2D\", [3] = \"Cast\"}" "{[1.5] = \"Cast\"}" \
	         "{\"Conv2D\", 7}" "{type = {\"Conv2D\", 7}}" "{typ = \"Conv2D\"}" "{[true] = 1}" "42"
	do
		echo "gr.on_node($f, function(n) end)" >flt.lua &&
		test_must_fail --exit 2 m --hook flt.lua >out 2>err &&
		test_must_be_empty out &&
		test_grep "^flt.lua:1: error: .*on_node" err || return 1
	done &&
	echo "gr.on_node({\"Conv2D\", nil, \"Cast\"}, function(n) end)" >flt.lua &&
	test_must_fail --exit 2 m --hook flt.lua 2>err &&
	test_grep "^flt.lua:1: error: gr.on_node: op types in a filter list must be strings, listed from 1 without holes$" err &&
	cat >seen.lua <<-\EOF &&
	local seen = {}
	gr.on_node({"Conv2D", "Cast", type = {"Const"}}, function(n) seen[#seen + 1] = n.name end)
	gr.on_end(function() print(table.concat(seen, " ")) end)
	EOF
	m --hook seen.lua >out 2>err &&
	echo "seen.lua:3: len c conv1" >expect && test_cmp expect err
'

test_expect_success 'bad limit values and a missing hook file are usage errors' '
	test_must_fail --exit 2 m --hook-memory 0 >out 2>err &&
	test_grep "hook-memory expects a positive integer" err &&
	test_must_fail --exit 2 m --hook-instructions -5 >out 2>err &&
	test_must_fail --exit 2 m --hook-timeout abc >out 2>err &&
	test_grep "hook-timeout expects a positive number" err &&
	test_must_fail --exit 2 m --hook nosuch.lua >out 2>err &&
	test_must_be_empty out &&
	test_grep "^nosuch.lua: error: " err &&
	test_must_fail --exit 2 m --hook >out 2>err
'

cat >a.lua <<\EOF
gr.on_node("Conv2D", function(n) n:override("precision_mode", "enable_float_32_execution", "from a") end)
gr.on_end(function() print("a end") end)
EOF
cat >b.lua <<\EOF
gr.on_node({name = "conv"}, function(n)
  n:override("precision_mode", "high_precision", "from b")
end)
gr.on_end(function() print("b end") end)
EOF

test_expect_success 'command-line hooks run in order; the last override wins' '
	m --hook a.lua --hook b.lua --all-nodes >out 2>err &&
	test_grep "^conv1 .*high_precision (hook)" out &&
	printf "a.lua:2: a end\nb.lua:4: b end\n" >expect && test_cmp expect err &&
	m --hook b.lua --hook a.lua --all-nodes >out 2>err &&
	test_grep "^conv1 .*enable_float_32_execution (hook)" out &&
	printf "b.lua:4: b end\na.lua:2: a end\n" >expect && test_cmp expect err
'

test_expect_success 'several hooks are deterministic' '
	m --hook a.lua --hook b.lua --format json >one.json 2>/dev/null &&
	m --hook a.lua --hook b.lua --format json >two.json 2>/dev/null &&
	test_cmp one.json two.json
'

test_expect_success 'the JSON report shows the override with file:line and what it replaced' '
	m --hook b.lua --format json -o ge.exec.op_precision_mode="$D/p.ini" >o.json 2>/dev/null &&
	test "$(json_get o.json "[n for n in d[\"nodes\"] if n[\"name\"]==\"conv1\"][0][\"precision_source\"]")" = hook &&
	test "$(json_get o.json "[n for n in d[\"nodes\"] if n[\"name\"]==\"conv1\"][0][\"provenance\"][0][\"rule\"]")" = b.lua:2 &&
	test "$(json_get o.json "[n for n in d[\"nodes\"] if n[\"name\"]==\"conv1\"][0][\"provenance\"][0][\"reason\"]")" = "from b" &&
	test "$(json_get o.json "[n for n in d[\"nodes\"] if n[\"name\"]==\"conv1\"][0][\"provenance\"][1][\"source\"]")" = by_node_name
'

test_expect_success '--explain names the hook and its line' '
	m --hook b.lua --explain conv1 >out 2>err &&
	test_grep "^precision_mode = high_precision   from a hook" out &&
	test_grep "hook at b.lua:2 set precision_mode = high_precision (the cascade gave null): from b" out
'

test_expect_success 'hook diagnostics are located at the script line; a downgrade says so' '
	cat >diag.lua <<-\EOF &&
	gr.on_end(function()
	  local i = gr.error("SITE9", "a site error", gr.node("conv1"))
	  gr.set_severity(i, "warning",
	                  "waived until the next release")
	  for _, d in ipairs(gr.diagnostics()) do
	    if d.code == "GE4002" then gr.set_severity(d.index, "error") end
	  end
	end)
	EOF
	m --hook diag.lua -o ge.exec.op_precision_mode="$D/p.ini" >out 2>err;
	test $? = 1 &&
	test_grep "^diag.lua:2: warning: a site error \[downgraded by diag.lua:3: waived until the next release\] \[SITE9\]  (node conv1)" out &&
	test_grep "error: .*\[raised by diag.lua:6\] \[GE4002\]" out &&
	m --hook diag.lua -o ge.exec.op_precision_mode="$D/p.ini" --format json >d.json 2>/dev/null;
	test "$(json_get d.json "[x for x in d[\"diagnostics\"] if x[\"code\"]==\"SITE9\"][0][\"rule\"]")" = diag.lua:2 &&
	test "$(json_get d.json "[x for x in d[\"diagnostics\"] if x[\"code\"]==\"SITE9\"][0][\"original_severity\"]")" = error
'

test_expect_success 'bundle hooks run before command-line hooks' '
	mkdir -p bundle &&
	sed "s/^bundle \"test\" {/bundle \"test\" { hook \"site.lua\";/" "$D/mini.rules" >bundle/mini.rules &&
	echo "print(\"bundle hook\")" >bundle/site.lua &&
	echo "print(\"command-line hook\")" >cl.lua &&
	"$GERULES" --rules bundle/mini.rules eval "$D/g.json" --chip Ascend910B1 --hook cl.lua >out 2>err &&
	printf "bundle/site.lua:1: bundle hook\ncl.lua:1: command-line hook\n" >expect &&
	test_cmp expect err
'

# ---- the examples, on the shipped rules ----

test_expect_success 'example no_keep_fp16: an error for each keep_fp16 node' '
	printf "[ByNodeName]\nrelu=keep_fp16\n" >keep.ini &&
	test_must_fail --exit 1 ex --chip Ascend910B1 -o ge.exec.op_precision_mode=keep.ini --hook "$EX/no_keep_fp16.lua" >out 2>err &&
	test_grep "no_keep_fp16.lua:18: error: node '"'"'relu'"'"' (Relu) runs keep_fp16 (set by by_node_name).* \[SITE001\]" out &&
	ex --chip Ascend910B1 --hook "$EX/no_keep_fp16.lua" >out 2>err &&
	! grep -q SITE001 out
'

test_expect_success 'example softmax_high_precision: every Softmax-class op runs high_precision' '
	ex --chip Ascend910B1 --hook "$EX/softmax_high_precision.lua" --format json >s.json 2>err &&
	for n in sm lsm; do
		test "$(json_get s.json "[x for x in d[\"nodes\"] if x[\"name\"]==\"$n\"][0][\"precision_mode\"]")" = high_precision &&
		test "$(json_get s.json "[x for x in d[\"nodes\"] if x[\"name\"]==\"$n\"][0][\"precision_source\"]")" = hook || return 1
	done &&
	test "$(json_get s.json "[x for x in d[\"nodes\"] if x[\"name\"]==\"mm\"][0][\"precision_source\"]")" != hook
'

test_expect_success 'example attention_must_sink: an error on A3 for an attention op that does not sink' '
	test_must_fail --exit 1 ex --chip Ascend910_9391 -o TILING_SCHEDULE_OPTIMIZE=1 --hook "$EX/attention_must_sink.lua" >out 2>err &&
	test_grep "error: attention op '"'"'ifa'"'"' (IncreFlashAttention) on Ascend910_9391 must sink.* \[SITE003\]" out &&
	! grep -q "'"'"'fia'"'"'.*SITE003" out &&
	test_must_fail --exit 1 ex --chip Ascend910_9391 --hook "$EX/attention_must_sink.lua" >out 2>err &&
	test_grep "'"'"'fia'"'"'.*its tiling is host.*SITE003" out &&
	ex --chip Ascend910B1 --hook "$EX/attention_must_sink.lua" >out 2>err &&
	! grep -q SITE003 out
'

test_expect_success 'example moe_like_matmul: MyFusedMoe gets what a MatMulV2 gets' '
	for allow in 00 01 10 11; do
		ex --chip Ascend910_9391 --entry session -o ALLOW_HF32=$allow -o PRECISION_MODE=must_keep_origin_dtype \
		   --hook "$EX/moe_like_matmul.lua" --format json >moe.json 2>err &&
		mm=$(json_get moe.json "[x for x in d[\"nodes\"] if x[\"name\"]==\"mm\"][0][\"precision_mode\"]") &&
		for n in moe0 moe1; do
			test "$(json_get moe.json "[x for x in d[\"nodes\"] if x[\"name\"]==\"$n\"][0][\"precision_mode\"]")" = "$mm" &&
			test "$(json_get moe.json "[x for x in d[\"nodes\"] if x[\"name\"]==\"$n\"][0][\"precision_source\"]")" = hook || return 1
		done || return 1
	done
'

test_expect_success 'example moe_like_matmul: without a MatMulV2 it follows ALLOW_HF32; by-name entries stay' '
	cat >moe.json <<-\EOF &&
	{"graph":[{"name":"g","op":[{"name":"x","type":"Data"},
	  {"name":"e1","type":"MyFusedMoe","input":["x:0"]},{"name":"e2","type":"MyFusedMoe","input":["x:0"]}]}]}
	EOF
	printf "[ByNodeName]\ne2=high_precision\n" >moe.ini &&
	"$GERULES" eval moe.json --chip Ascend910B1 --entry session -o ALLOW_HF32=01 -o ge.exec.op_precision_mode=moe.ini \
	   --hook "$EX/moe_like_matmul.lua" --all-nodes >out 2>err &&
	test_grep "^e1 .*enable_hi_float_32_execution (hook)" out &&
	test_grep "^e2 .*high_precision (\\[ByNodeName\\])" out &&
	"$GERULES" eval moe.json --chip Ascend310P3 --hook "$EX/moe_like_matmul.lua" --all-nodes >out 2>err &&
	test_grep "^e1 .*- " out
'

# issue 10 class 12: Lua seeds its string hash and math.random from the clock
# and addresses; two processes must still give byte-identical reports
test_expect_success 'reports from hooks are deterministic (pairs order, math.random)' '
	cat >det.lua <<-\EOF &&
	gr.on_end(function()
	  local t = {}
	  for i = 1, 64 do t["key" .. i * 7919 % 1000] = i end
	  t[3] = "three"; t[1.5] = "x"; t[true] = "yes"
	  local order = {}
	  for k, v in pairs(t) do order[#order + 1] = tostring(k) end
	  gr.note("DET1", table.concat(order, " "))
	  gr.note("DET2", math.random(1, 1000000) .. " " .. math.random())
	  math.randomseed()
	  gr.note("DET3", tostring(math.random(1, 1000000)))
	end)
	EOF
	m --hook det.lua --format json >run1.json 2>err1 &&
	m --hook det.lua --format json >run2.json 2>err2 &&
	test_cmp run1.json run2.json &&
	test_grep "1.5 3 key" run1.json &&
	test_grep "1.5 3 key[0-9 key]* true\"" run1.json
'

test_done
