#!/bin/sh
# t1141-import-oplib.sh: `gerules import-oplib`. On a small fake CANN tree
# (a built-in AI Core store, two custom vendor stores in config.ini's
# load_priority order, one overriding a built-in op, AI CPU stores): the
# stores written, their order, header and SHA-256, the generated files
# checking clean as a layer; file mode; the errors (malformed JSON located
# file:line:col, a load_priority line without '=', an unknown family). On
# the shipped CANN 8.1.RC1 files (t/data/cann-8.1.RC1-opinfo): the committed
# rules/oplib/ is exactly what the importer writes, and every column of every
# op of the JSON (read by python3) is what the rule set gives (--dump).

test_description='gerules import-oplib: a fake CANN tree, errors, and the round trip on CANN 8.1.RC1'
. "${top_srcdir:-..}/t/test-lib.sh"

R=$GERULES_RULES
DATA="$top_srcdir/t/data/cann-8.1.RC1-opinfo"
CFG=opp/built-in/op_impl/ai_core/tbe/config

make_tree () {
	mkdir -p "cann/$CFG/fam1" cann/opp/vendors/acme/op_impl/ai_core/tbe/config/fam1 \
		cann/opp/vendors/zeta/op_impl/ai_core/tbe/config/fam1 \
		cann/opp/built-in/op_impl/aicpu/aicpu_kernel/config &&
	cat >"cann/$CFG/fam1/aic-fam1-ops-info.json" <<-\EOF &&
	{
	    "Exp": {
	        "input0": {"name": "x", "paramType": "required", "dtype": "float16,float", "format": "ND,ND"},
	        "output0": {"name": "y", "paramType": "required", "dtype": "float16,float", "format": "ND,ND"},
	        "dynamicShapeSupport": {"flag": "true"},
	        "opFile": {"value": "exp"}
	    },
	    "Conv2D": {
	        "input10": {"name": "late", "paramType": "optional"},
	        "input2": {"name": "bias", "paramType": "optional"},
	        "input0": {"name": "x", "paramType": "required"},
	        "input1": {"name": "filter", "paramType": "required"},
	        "output0": {"name": "y", "paramType": "required"},
	        "precision_reduce": {"flag": "true"},
	        "dynamicFormat": {"flag": "true"},
	        "dynamicShapeSupport": {"flag": "False"}
	    },
	    "Reshape": {
	        "input0": {"name": "x", "paramType": "required", "dtype": "float16,qint9"},
	        "output0": {"name": "y", "paramType": "required", "dtype": "float16,int8"},
	        "opFile": {"value": "Null"},
	        "precision_reduce": {"flag": "false"}
	    }
	}
	EOF
	cat >cann/opp/vendors/acme/op_impl/ai_core/tbe/config/fam1/aic-fam1-ops-info.json <<-\EOF &&
	{"Exp": {"input0": {"name": "x", "paramType": "required", "dtype": "float16"},
	         "output0": {"name": "y", "paramType": "required", "dtype": "float16"},
	         "precision_reduce": {"flag": "true"}}}
	EOF
	cat >cann/opp/vendors/zeta/op_impl/ai_core/tbe/config/fam1/aic-fam1-ops-info.json <<-\EOF &&
	{"ZetaOp": {"input0": {"name": "x", "paramType": "dynamic", "dtype": "int8"}}}
	EOF
	printf 'load_priority=zeta, acme\n' >cann/opp/vendors/config.ini &&
	cat >cann/opp/built-in/op_impl/aicpu/aicpu_kernel/config/aicpu_kernel.json <<-\EOF
	{"GatherV2": {"dynamic_input1": {"name": "rest", "type": "DT_FLOAT"},
	              "input0": {"name": "x", "type": "DT_DOUBLE,DT_FLOAT64,DT_FLOAT16"},
	              "output0": {"name": "y", "type": ""},
	              "opInfo": {"engine": "DNN_VM_AICPU", "opKernelLib": "AICPUKernel"}}}
	EOF
}

test_expect_success 'a fake CANN tree: one file per store, custom stores first' '
	make_tree &&
	mkdir out &&
	echo "bundle \"site-oplib\" { version \"1.0.0\"; extends \"ge-base\"; }" >out/bundle.rules &&
	"$GERULES" --rules "$R" import-oplib --layer --cann-root cann --output out --release 9.9.T1 2>err &&
	(cd out && ls) >got &&
	printf "%s\n" aicore_acme_fam1.rules aicore_fam1.rules aicore_zeta_fam1.rules aicpu_kernel.rules bundle.rules >want &&
	test_cmp want got
'

test_expect_success 'the header names the importer, the release, each source and its SHA-256' '
	sha=$(sha256sum "cann/$CFG/fam1/aic-fam1-ops-info.json" | cut -d" " -f1) &&
	test_grep "importer version 1) from CANN 9.9.T1" out/aicore_fam1.rules &&
	test_grep "^#   opp/built-in/op_impl/ai_core/tbe/config/fam1/aic-fam1-ops-info.json  $sha\$" out/aicore_fam1.rules &&
	test_grep "from \"CANN 9.9.T1 opp/built-in/op_impl/ai_core/tbe/config/fam1/aic-fam1-ops-info.json\" sha256 \"$sha\";" out/aicore_fam1.rules
'

test_expect_success 'engines, kinds and priorities from table oplib_stores; load_priority order' '
	test_grep "engine \"AIcoreEngine\";" out/aicore_fam1.rules &&
	test_grep "priority 1000;" out/aicore_fam1.rules &&
	test_grep "priority 0;" out/aicore_zeta_fam1.rules &&
	test_grep "priority 1;" out/aicore_acme_fam1.rules &&
	test_grep "engine \"DNN_VM_AICPU_ASCEND\";" out/aicpu_kernel.rules &&
	test_grep "kind kernel;" out/aicpu_kernel.rules &&
	test_grep "family \"fam1\";" out/aicore_acme_fam1.rules &&
	! grep family out/aicpu_kernel.rules
'

test_expect_success 'ops: policy and flags, tensors in input0..N order, spellings mapped' '
	test_grep "op \"Exp\" gray dynamic_shape {" out/aicore_fam1.rules &&
	test_grep "input \"x\" required \"float16,float32\" format \"ND,ND\";" out/aicore_fam1.rules &&
	test_grep "op \"Conv2D\" white dynamic_format {" out/aicore_fam1.rules &&
	test_grep "dynamicShapeSupport is \"False\", not \"true\": not set" out/aicore_fam1.rules &&
	sed -n "/op \"Conv2D\"/,/^    }/p" out/aicore_fam1.rules | grep -o "input \"[a-z]*\"" >got &&
	printf "%s\n" "input \"x\"" "input \"filter\"" "input \"bias\"" "input \"late\"" >want &&
	test_cmp want got &&
	test_grep "op \"Reshape\" black ge_op {" out/aicore_fam1.rules
'

test_expect_success 'an unmapped spelling: its AI Core column is left out, with a comment' '
	test_grep "column 2 left out: input \"x\" spells it \"qint9\"" out/aicore_fam1.rules &&
	test_grep "input \"x\" required \"float16\";" out/aicore_fam1.rules &&
	test_grep "output \"y\" required \"float16\";" out/aicore_fam1.rules
'

test_expect_success 'AI CPU: file order, dynamic inputs, entries left out one by one, empty lists said' '
	sed -n "/op \"GatherV2\"/,/^    }/p" out/aicpu_kernel.rules >g &&
	grep -v "^ *#" g | sed -n 2p | grep "input \"rest\" dynamic \"float32\";" &&
	grep "input \"x\" required \"float64,float16\";   # left out, not mapped by table oplib_dtype_spelling: \"DT_FLOAT64\"" g &&
	grep "output \"y\": the file gives an empty type list" g &&
	grep "output \"y\" required;" g
'

test_expect_success 'the generated files check clean as a layer, and the custom Exp is consulted first' '
	"$GERULES" --rules "$R" --rules out check >/dev/null &&
	"$GERULES" --rules "$R" --rules out import-oplib --dump >dump &&
	grep "^aicore_zeta_fam1	\|^aicore_acme_fam1	\|^aicore_fam1	" dump | cut -f1,2,3 | uniq >got &&
	printf "aicore_zeta_fam1\tZetaOp\tgray\naicore_acme_fam1\tExp\twhite\naicore_fam1\tExp\tgray\naicore_fam1\tConv2D\twhite\naicore_fam1\tReshape\tblack\n" >want &&
	test_cmp want got
'

test_expect_success '--layer writes override oplib for the stores the rule set has, only those' '
	test_grep "^override oplib aicpu_kernel " out/aicpu_kernel.rules &&
	test_grep "^oplib aicore_fam1 " out/aicore_fam1.rules &&
	mkdir out2 &&
	"$GERULES" --rules "$R" import-oplib --cann-root cann --output out2 --family fam1 2>/dev/null &&
	test_grep "^oplib aicpu_kernel " out2/aicpu_kernel.rules
'

test_expect_success 'file mode writes one store to stdout' '
	"$GERULES" --rules "$R" import-oplib --store my_cpu --kind tf_kernel \
		cann/opp/built-in/op_impl/aicpu/aicpu_kernel/config/aicpu_kernel.json >one.rules &&
	test_grep "^oplib my_cpu \"my_cpu\" {" one.rules &&
	test_grep "engine \"DNN_VM_AICPU\";" one.rules
'

test_expect_success 'malformed JSON: file:line:col, exit 2, nothing written' '
	printf "{\"Exp\": {\"input0\": {\"name\": \"x\",, }}}\n" >"cann/$CFG/fam1/aic-fam1-ops-info-2.json" &&
	mkdir out3 &&
	test_must_fail --exit 2 "$GERULES" --rules "$R" import-oplib --cann-root cann --output out3 2>err &&
	test_grep "aic-fam1-ops-info-2.json:1:33: error: " err &&
	test -z "$(ls out3)" &&
	rm "cann/$CFG/fam1/aic-fam1-ops-info-2.json"
'

test_expect_success 'an op given by two merged files of one store is an error' '
	printf "{\"Exp\": {}}\n" >"cann/$CFG/fam1/aic-fam1-ops-info-3.json" &&
	test_must_fail --exit 2 "$GERULES" --rules "$R" import-oplib --cann-root cann --output out3 2>err &&
	test_grep "aic-fam1-ops-info.json:2:5: error: op Exp is also in .*aic-fam1-ops-info-3.json, merged into the same store .aicore_fam1." err &&
	test -z "$(ls out3)" &&
	rm "cann/$CFG/fam1/aic-fam1-ops-info-3.json"
'

test_expect_success 'a kept field of the wrong type, a tensor without name: located' '
	printf "{\n  \"Exp\": {\"precision_reduce\": {\"flag\": true}}}\n" >bad1.json &&
	test_must_fail --exit 2 "$GERULES" --rules "$R" import-oplib --store s --kind aicore bad1.json 2>err &&
	test_grep "bad1.json:2:40: error: .flag. of .precision_reduce. of op Exp must be a string" err &&
	printf "{\"Exp\": {\"input0\": {\"dtype\": \"float16\"}}}\n" >bad2.json &&
	test_must_fail --exit 2 "$GERULES" --rules "$R" import-oplib --store s --kind aicore bad2.json 2>err &&
	test_grep "bad2.json:1:10: error: input0 of op Exp has no .name." err
'

test_expect_success 'a load_priority line without = is refused, located' '
	printf "# vendors\nload_priority zeta\n" >cann/opp/vendors/config.ini &&
	test_must_fail --exit 2 "$GERULES" --rules "$R" import-oplib --cann-root cann --output out3 2>err &&
	test_grep "config.ini:2:1: error: a load_priority line needs" err &&
	printf "load_priority=zeta,acme\n" >cann/opp/vendors/config.ini
'

test_expect_success 'an unknown family, with a suggestion; usage errors' '
	test_must_fail --exit 2 "$GERULES" --rules "$R" import-oplib --cann-root cann --output out3 --family fam2 2>err &&
	test_grep "family .fam2.: no directory .*did you mean .fam1." err &&
	test_must_fail --exit 2 "$GERULES" --rules "$R" import-oplib --cann-root cann 2>err &&
	test_grep "needs --output DIR" err &&
	test_must_fail --exit 2 "$GERULES" --rules "$R" import-oplib 2>err &&
	test_must_fail --exit 2 "$GERULES" --rules "$R" import-oplib --cann-root nowhere --output out3 2>err &&
	test_grep "not a CANN installation" err
'

test_expect_success 'the shipped CANN 8.1.RC1 files: the importer writes rules/oplib/ exactly' '
	sh "$DATA/tree.sh" c81 &&
	mkdir gen &&
	"$GERULES" --rules "$R/dtypes.rules" --rules "$R/oplib/stores.rules" import-oplib --cann-root c81 --output gen --release 8.1.RC1 2>/dev/null &&
	for f in gen/*.rules
	do
		test_cmp "$R/oplib/$(basename "$f")" "$f" || return 1
	done &&
	test $(ls gen | wc -l) -eq 11
'

# The JSON side of the round trip: the canonical line of every tensor of every
# op, as --dump prints it, computed by python3 from the files themselves.
cat >render.py <<-\EOF
import json, re, sys
top, rules = sys.argv[1], sys.argv[2]
text = open(rules + "/dtypes.rules").read()
table = text[text.index("table oplib_dtype_spelling"):]
table = table[:table.index("}")]
spell = dict(re.findall(r'"([^"]+)": "([^"]+)"', table))
flags = [("dynamicShapeSupport", "true", "dynamic_shape"), ("dynamicRankSupport", "true", "dynamic_rank"),
         ("dynamicRankSupport", "upgrade_to_dynamic_rank", "dynamic_rank_upgrade"),
         ("dynamicCompileStatic", "true", "dynamic_compile_static"), ("dynamicFormat", "true", "dynamic_format")]
def split(s):
    return [x.strip() for x in s.split(",")] if s else []
def render(store, path, kernel):
    d = json.load(open(path))
    for op, v in d.items():
        if kernel:
            pol, fl = "gray", ""
            keys = [k for k in v if re.match(r"^(dynamic_)?(input|output)\d+$", k) and "name" in v[k]]
        else:
            pr = v.get("precision_reduce", {}).get("flag")
            pol = {"true": "white", "false": "black"}.get(pr, "gray")
            f = [w for k, val, w in flags if v.get(k, {}).get("flag") == val]
            if v.get("opFile", {}).get("value") in ("Null", "AICore_Null"): f.append("ge_op")
            if v.get("heavyOp", {}).get("flag") == "true": f.append("heavy")
            if v.get("needCheckSupport", {}).get("flag") == "true": f.append("need_check_support")
            fl = ",".join(f)
            keys = sorted([k for k in v if re.match(r"^(input|output)\d+$", k)],
                          key=lambda k: (k.startswith("output"), int(re.sub(r"\D", "", k))))
        if not keys:
            print("\t".join([store, op, pol, fl, "-", "", "", "", ""]))
        lists = {k: split(v[k].get("type" if kernel else "dtype", "")) for k in keys}
        drop = set()
        if not kernel:
            for k in keys:
                drop |= {i for i, x in enumerate(lists[k]) if x not in spell}
        for k in keys:
            t = v[k]
            if kernel and "name" not in t:
                continue
            if kernel:
                dts = [spell[x] for x in lists[k] if x in spell]
                fmts = []
                param = "dynamic" if k.startswith("dynamic_") else "required"
            else:
                dts = [spell[x] for i, x in enumerate(lists[k]) if i not in drop]
                fm = split(t.get("format", ""))
                fmts = [x for i, x in enumerate(fm) if i not in drop] if dts else []
                param = t["paramType"]
            print("\t".join([store, op, pol, fl, "output" if "output" in k else "input", t["name"], param,
                             ",".join(dts), ",".join(fmts)]))
opp = top + "/opp/built-in/op_impl"
for fam in ["ascend035", "ascend310b", "ascend310p", "ascend910", "ascend910_93", "ascend910b"]:
    render("aicore_" + fam, "%s/ai_core/tbe/config/%s/aic-%s-ops-info.json" % (opp, fam, fam), False)
for fam in ["ascend910_93", "ascend910b"]:
    render("dsa_" + fam, "%s/dsa_core/config/%s/dsa-%s-ops-info.json" % (opp, fam, fam), False)
render("aicpu_kernel", opp + "/aicpu/aicpu_kernel/config/aicpu_kernel.json", True)
render("host_cpu_kernel", opp + "/aicpu/aicpu_kernel/config/host_cpu_kernel.json", True)
render("tf_kernel", opp + "/aicpu/tf_kernel/config/tf_kernel.json", True)
EOF

test_expect_success 'round trip: every column of every op of the JSON is what the rule set gives' '
	python3 render.py c81 "$R" | LC_ALL=C sort >json.txt &&
	"$GERULES" --rules "$R" import-oplib --dump >dump.txt &&
	awk -F"\t" "BEGIN{OFS=\"\t\"} { if (\$10 != \"\") { \$8 = \"\"; \$9 = \"\" } NF = 9; print }" dump.txt | LC_ALL=C sort >rules.txt &&
	test $(wc -l <json.txt) -gt 20000 &&
	test_cmp json.txt rules.txt
'

test_expect_success 'round trip can fail: one changed column is found' '
	sed "0,/\tfloat16,float32,bfloat16\t/s//\tfloat16,float32\t/" rules.txt >changed.txt &&
	! cmp -s json.txt changed.txt
'

test_done
