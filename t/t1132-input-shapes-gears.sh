#!/bin/sh
# t1132-input-shapes-gears.sh: ATC's shape flags in every command: eval and
# tile take --input_shape, --dynamic_batch_size, --dynamic_image_size,
# --dynamic_dims, --input_format, --input_shape_range and --out_nodes as
# --FLAG=VALUE and with -o (also GE's keys, -o ge.inputShape=...), read by
# the one ATC reader; the gear flags are checked with GE's codes and
# messages (hicann/ge compiler/api/aclgrph/option_utils.cc
# CheckDynamicInputParamValid, compiler/graph/preprocess/
# multi_batch_options.cc CheckDynamicParams); with gears every gear is
# evaluated as a static graph, and the reports say which decisions differ
# per gear (a site hook that depends on a dim makes them differ); every
# gear's diagnostics are reported, each once, tagged with its gears when
# not every gear gives it (text, JSON against the schema), and an error of
# a later gear makes the exit status 1.
test_description='input shapes and gears as ATC takes them'
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a model with a dynamic NCHW input, a hook that depends on its width' '
	cp "$top_srcdir/t/data/gears/det.json" det.json &&
	cat >big.lua <<-\EOF
	-- large images run Relu in high precision
	gr.on_node({type_pattern = "Relu"}, function(node)
	  local s = node:input(0).shape
	  if s[4] and s[4] > 700 then node:override("precision_mode", "high_precision", "large image") end
	end)
	EOF
'

test_expect_success 'eval --input_shape makes the dynamic nodes static (three spellings)' '
	gerules eval det.json --chip Ascend910B1 --format json >dyn.json &&
	gerules eval det.json --chip Ascend910B1 --input_shape=x:1,3,640,640 --format json >s1.json &&
	gerules eval det.json --chip Ascend910B1 --input_shape x:1,3,640,640 --format json >s2.json &&
	gerules eval det.json --chip Ascend910B1 -o input_shape=x:1,3,640,640 --format json >s3.json &&
	gerules eval det.json --chip Ascend910B1 -o ge.inputShape=x:1,3,640,640 --format json >s4.json &&
	"$PYTHON3" -c "
import json, sys
ex = lambda f: [n.get(\"execution\") for n in json.load(open(f))[\"nodes\"] if n[\"name\"] == \"relu\"][0]
print(ex(\"dyn.json\"), ex(\"s1.json\"), ex(\"s2.json\"), ex(\"s3.json\"), ex(\"s4.json\"))" >got &&
	"$PYTHON3" -c "
import json
ex = lambda f: [n.get(\"execution\") for n in json.load(open(f))[\"nodes\"] if n[\"name\"] == \"relu\"][0]
print(ex(\"dyn.json\"))" >d &&
	! grep -q "dynamic.*dynamic.*dynamic" got &&
	test "$(cat d)" = dynamic &&
	test "$(cut -d" " -f2- got)" = "$(ex=x; cut -d" " -f2 got) $(cut -d" " -f2 got) $(cut -d" " -f2 got) $(cut -d" " -f2 got)"
'

test_expect_success 'eval --input_shape errors as atc gives them' '
	test_must_fail --exit 2 gerules eval det.json --chip Ascend910B1 --input_shape=y:1,3,640,640 2>err &&
	test_grep "gerules eval: error: Op name y specified in --input_shape is not found in the model.*\[GE E10016\]" err
'

test_expect_success 'two gears whose decisions differ: text' '
	gerules eval det.json --chip Ascend910B1 --hook big.lua --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640;960,960" >g.txt &&
	sed -n "/^gears:/,\$p" g.txt >got &&
	cat >expect <<-\EOF &&
	gears: --dynamic_image_size=640,640;960,960, 2 static graphs as ATC builds them (the nodes above are gear 1'"'"'s)
	  gear 1 (640,640): --input_shape=x:1,3,640,640
	  gear 2 (960,960): --input_shape=x:1,3,960,960
	the same in every gear: every decision of 2 of 3 nodes; 1 node differs per gear:
	  gear 1 (640,640):
	    relu impl_mode=-
	  gear 2 (960,960):
	    relu impl_mode=high_precision
	EOF
	test_cmp expect got
'

test_expect_success 'two gears whose decisions differ: JSON (one entry per gear, only what differs)' '
	gerules eval det.json --chip Ascend910B1 --hook big.lua -o input_shape="x:1,3,-1,-1" \
		-o ge.dynamicImageSize="640,640;960,960" --format json >g.json &&
	"$PYTHON3" -c "
import json
g = json.load(open(\"g.json\"))[\"gears\"]
print(g[\"flag\"], g[\"nodes_differ\"])
for e in g[\"gears\"]: print(e[\"index\"], e[\"profile\"], e[\"inputs\"], e[\"nodes\"])" >got &&
	cat >expect <<-\EOF &&
	--dynamic_image_size 1
	1 640,640 [{'"'"'name'"'"': '"'"'x'"'"', '"'"'dims'"'"': [1, 3, 640, 640]}] [{'"'"'name'"'"': '"'"'relu'"'"', '"'"'decisions'"'"': {'"'"'precision_mode'"'"': None}}]
	2 960,960 [{'"'"'name'"'"': '"'"'x'"'"', '"'"'dims'"'"': [1, 3, 960, 960]}] [{'"'"'name'"'"': '"'"'relu'"'"', '"'"'decisions'"'"': {'"'"'precision_mode'"'"': '"'"'high_precision'"'"'}}]
	EOF
	test_cmp expect got
'

test_expect_success JSONSCHEMA 'the gears member follows eval.schema.json' '
	"$PYTHON3" -c "
import json, sys, jsonschema
s = json.load(open(sys.argv[1]))
jsonschema.validate(json.load(open(sys.argv[2])), s, cls=jsonschema.Draft202012Validator)" \
		"$top_srcdir/doc/schemas/eval.schema.json" g.json
'

test_expect_success 'setup: a hook whose diagnostics depend on the width' '
	cat >w.lua <<-\EOF
	-- a note every gear gives, warnings and an error some gears give
	gr.on_node({type_pattern = "Relu"}, function(node)
	  local s = node:input(0).shape
	  node:note("SITE1", "Relu checked")
	  if s[4] > 700 then node:warning("SITE2", "wide image: " .. s[4]) end
	  if s[4] < 700 then node:warning("SITE3", "narrow image") end
	  if s[4] > 1000 then node:error("SITE4", "too wide") end
	end)
	EOF
'

test_expect_success 'every gear'"'"'s diagnostics, each once, tagged with its gears when not every gear gives it: text' '
	test_must_fail --exit 1 gerules eval det.json --chip Ascend910B1 --hook w.lua --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640;960,960;1280,1280;600,600" >d.txt &&
	grep "^w.lua:\|^summary:" d.txt >got &&
	cat >expect <<-\EOF &&
	w.lua:4: note: Relu checked [SITE1]  (node relu)
	w.lua:6: warning: narrow image [gears 1, 4] [SITE3]  (node relu)
	w.lua:5: warning: wide image: 960 [gear 2] [SITE2]  (node relu)
	w.lua:5: warning: wide image: 1280 [gear 3] [SITE2]  (node relu)
	w.lua:7: error: too wide [gear 3] [SITE4]  (node relu)
	summary: 3 nodes, 1 error, 3 warnings, 2 notes
	EOF
	test_cmp expect got &&
	gerules eval det.json --chip Ascend910B1 --hook w.lua --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640;600,600;500,500;400,400;960,960" >r.txt &&
	test_grep "^w.lua:6: warning: narrow image \[gears 1-4\] \[SITE3\]" r.txt &&
	test_grep "^w.lua:5: warning: wide image: 960 \[gear 5\] \[SITE2\]" r.txt &&
	gerules eval det.json --chip Ascend910B1 --hook w.lua --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640;600,600" >s.txt &&
	test_grep "^w.lua:6: warning: narrow image \[SITE3\]" s.txt
'

test_expect_success 'every gear'"'"'s diagnostics: JSON (gears only where not every gear gives it)' '
	test_must_fail --exit 1 gerules eval det.json --chip Ascend910B1 --hook w.lua --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640;960,960;1280,1280;600,600" --format json >d.json &&
	"$PYTHON3" -c "
import json
r = json.load(open(\"d.json\"))
for d in r[\"diagnostics\"]:
    if d[\"rule\"].startswith(\"w.lua\"): print(d[\"code\"], d[\"message\"], d.get(\"gears\"))
print(r[\"summary\"])" >got &&
	cat >expect <<-\EOF &&
	SITE1 Relu checked None
	SITE3 narrow image [1, 4]
	SITE2 wide image: 960 [2]
	SITE2 wide image: 1280 [3]
	SITE4 too wide [3]
	{'"'"'nodes'"'"': 3, '"'"'errors'"'"': 1, '"'"'warnings'"'"': 3, '"'"'notes'"'"': 2}
	EOF
	test_cmp expect got
'

test_expect_success JSONSCHEMA 'the diagnostics'"'"' gears follow eval.schema.json' '
	"$PYTHON3" -c "
import json, sys, jsonschema
s = json.load(open(sys.argv[1]))
jsonschema.validate(json.load(open(sys.argv[2])), s, cls=jsonschema.Draft202012Validator)" \
		"$top_srcdir/doc/schemas/eval.schema.json" d.json
'

test_expect_success 'every gear'"'"'s diagnostics: SARIF results carry their gears, the run lists the gears; GitHub and JUnit say them' '
	gerules eval det.json --chip Ascend910B1 --hook w.lua --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640;960,960;1280,1280;600,600" --format sarif >d.sarif
	test $? = 1 &&
	"$PYTHON3" -c "
import json
run = json.load(open(\"d.sarif\"))[\"runs\"][0]
g = run[\"properties\"][\"gears\"]
print(g[\"flag\"], g[\"value\"], [(e[\"index\"], e[\"profile\"], e[\"inputs\"][0][\"dims\"]) for e in g[\"gears\"]])
for r in run[\"results\"]:
    if r[\"ruleId\"].startswith(\"SITE\"): print(r[\"ruleId\"], r[\"message\"][\"text\"], r[\"properties\"].get(\"gears\"))" >got &&
	cat >expect <<-\EOF &&
	--dynamic_image_size 640,640;960,960;1280,1280;600,600 [(1, '"'"'640,640'"'"', [1, 3, 640, 640]), (2, '"'"'960,960'"'"', [1, 3, 960, 960]), (3, '"'"'1280,1280'"'"', [1, 3, 1280, 1280]), (4, '"'"'600,600'"'"', [1, 3, 600, 600])]
	SITE1 Relu checked None
	SITE3 narrow image [gears 1, 4] [1, 4]
	SITE2 wide image: 960 [gear 2] [2]
	SITE2 wide image: 1280 [gear 3] [3]
	SITE4 too wide [gear 3] [3]
	EOF
	test_cmp expect got &&
	gerules eval det.json --chip Ascend910B1 --hook w.lua --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640;960,960;1280,1280;600,600" --format github >gh.txt
	test $? = 1 &&
	test_grep "^::error file=w.lua,line=7,title=SITE4::too wide \[gear 3\] (node relu)\$" gh.txt &&
	gerules eval det.json --chip Ascend910B1 --hook w.lua --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640;960,960;1280,1280;600,600" --format junit >j.xml
	test $? = 1 &&
	test_grep "warning: narrow image \[gears 1, 4\]" j.xml
'

test_expect_success SARIF 'the SARIF of gears passes the SARIF validator' '
	test_sarif_valid "$GR_NODE_MODULES/.bin/sarif-multitool" d.sarif
'

test_expect_success 'gears with the same decisions: said once; batch and dims gears by input order' '
	gerules eval det.json --chip Ascend910B1 --input_shape="x:-1,3,224,224" --dynamic_batch_size=1,4,8 >b.txt &&
	test_grep "^  gear 3 (8): --input_shape=x:8,3,224,224\$" b.txt &&
	test_grep "^every decision of every node (3) is the same in every gear\$" b.txt &&
	gerules eval det.json --chip Ascend910B1 --input_shape="x:1,3,-1,-1" --dynamic_dims="224,320;448,640" >n.txt &&
	test_grep "^  gear 2 (448,640): --input_shape=x:1,3,448,640\$" n.txt &&
	gerules eval det.json --chip Ascend910B1 --input_shape="x:1,-1,-1,3" --input_format=NHWC \
		--dynamic_image_size="64,64;128,96" >h.txt &&
	test_grep "^  gear 2 (128,96): --input_shape=x:1,128,96,3\$" h.txt
'

test_expect_success 'atc and tile take the gears and shapes too; no "not modelled" note for the gear flags' '
	gerules atc --model=det.json --soc_version=Ascend910B1 --output=o --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640;960,960" >a.txt &&
	test_grep "^gears: --dynamic_image_size=640,640;960,960, 2 static graphs" a.txt &&
	! grep -q "GE1020" a.txt &&
	gerules eval det.json --chip Ascend910B1 --input_shape="x:1,3,-1,-1" --dynamic_dims="1,2;3,4" --out_nodes=relu:0 >o.txt &&
	test_grep "ATC flag --out_nodes=relu:0 is not modelled" o.txt &&
	! grep -q "dynamic_dims.*not modelled" o.txt &&
	{ gerules tile det.json --chip Ascend910B1 --input_shape=x:1,3,64,64 >t.txt; test $? -le 1; } &&
	{ gerules tile det.json --chip Ascend910B1 -o input_shape=x:1,3,64,64 >t2.txt; test $? -le 1; } &&
	test_grep "output 0 has no shape gerules knows: the model gives it only as dynamic and --input_shape made its inputs static" t.txt &&
	test_grep "1 skipped (0 dynamic shapes, 1 shapes unknown)" t.txt &&
	test_cmp t.txt t2.txt
'

# each check of ATC, with its code: the code, then the flags (split at spaces)
n=0
while read -r code flags
do
	n=$((n + 1))
	printf "%s\n" $flags >args$n
	test_expect_success "ATC's gear checks: $code ($flags)" "
		set -- && while IFS= read -r a; do set -- \"\$@\" \"\$a\"; done <args$n &&
		test_must_fail --exit 2 gerules eval det.json --chip Ascend910B1 \"\$@\" 2>err &&
		grep -F '[GE $code]' err &&
		grep '^gerules eval: error: ' err
	"
done <<\EOF
E10009 --input_shape=x:1,3,-1,-1 --dynamic_image_size=640,640 --dynamic_batch_size=1,2
E10009 --input_shape=x:-1,3,224,224 --dynamic_batch_size=1,4 -o input_shape_range=x:[1~4,3,224,224]
E10040 --input_shape=x:1,3,1~2,-1 --dynamic_image_size=640,640
E10004 --dynamic_dims=1;2
E10031 --input_shape=x:1,3,224,224 --dynamic_batch_size=1,2
E10018 --input_shape=x:-1,-1,224,224 --dynamic_batch_size=1,2
E10003 --input_shape=x:-1,3,224,224 --dynamic_batch_size=1,a
E10019 --input_shape=x:1,-1,-1,3 --dynamic_image_size=640,640;960,960
E10003 --input_shape=x:1,3,-1,-1 --dynamic_image_size=640,640;960,960 --input_format=ND
E10020 --input_shape=x:1,3,-1,-1 --dynamic_image_size=640,640,3;960,960
E10035 --input_shape=x:1,3,-1,-1 --dynamic_image_size=640,640
E10039 --input_shape=x:1,3,-1,-1 --dynamic_image_size=640,640;640,640
E10001 --input_shape=x:1,3,224,224 --dynamic_dims=1;2
E10003 --input_shape=x:1,3,-1,-1 --dynamic_dims=1;2
E10001 --input_shape=x:1,3,-1,-1 --dynamic_dims=1,a;2,3
E10058 --input_shape=x:1,3,-1,-1 --dynamic_dims=;
EOF

test_expect_success 'the messages are ATC'"'"'s' '
	test_must_fail --exit 2 gerules eval det.json --chip Ascend910B1 --input_shape="x:1,3,-1,-1" \
		--dynamic_image_size="640,640" --dynamic_dims="1,2;3,4" 2>err &&
	echo "gerules eval: error: --dynamic_batch_size, --dynamic_image_size, --input_shape_range, and --dynamic_dims are mutually exclusive. [GE E10009]" >expect &&
	test_cmp expect err &&
	test_must_fail --exit 2 gerules atc --model=det.json --soc_version=Ascend910B1 --output=o \
		--input_shape="x:-1,3,224,224" --dynamic_batch_size=4 2>err &&
	echo "gerules atc: error: --dynamic_batch_size, --dynamic_image_size, or --dynamic_dims has 1 profiles, which is less than the minimum 2. [GE E10035]" >expect &&
	test_cmp expect err
'

test_done
