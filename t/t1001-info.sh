#!/bin/sh
# t1001-info.sh: the commands that read only the rule set (`chips`,
# `options`, `explain`), `--version`, `--help` and usage errors, on the
# fixture t/data/mini.rules (not on the shipped rules/).

test_description='gerules chips, options, explain, --version, --help, usage errors'
. "${top_srcdir:-..}/t/test-lib.sh"

MINI="$top_srcdir/t/data/mini.rules"
g () { "$GERULES" --rules "$MINI" "$@"; }

test_expect_success 'chips lists every soc with its hardware and caps, then the product lines' '
	g chips >out 2>err &&
	test_must_be_empty err &&
	cat >expect <<-\EOF &&
	PRODUCT  SOC                ai_cores  ub_bytes  caps
	a2       Ascend910B1              24    196608  bf16,hf32,cube_fp32
	a2       /Ascend910B[2-4]/        20    196608  bf16,hf32
	p310     Ascend310P3               8    262144  -

	a2       Atlas A2 series
	p310     Atlas 300I
	EOF
	test_cmp expect out
'

test_expect_success 'chips --format json' '
	g chips --format json >out.json 2>err &&
	test_must_be_empty err &&
	test "$(json_get out.json "len(d[\"chips\"])")" = 3 &&
	test "$(json_get out.json "d[\"chips\"][1][\"soc\"]")" = "Ascend910B[2-4]" &&
	test "$(json_get out.json "d[\"chips\"][1][\"pattern\"]")" = true &&
	test "$(json_get out.json "d[\"chips\"][0][\"caps\"]")" = "[\"bf16\", \"hf32\", \"cube_fp32\"]" &&
	test "$(json_get out.json "d[\"chips\"][2][\"ub_bytes\"]")" = 262144 &&
	test "$(json_get out.json "d[\"chips\"][2][\"product_title\"]")" = "Atlas 300I"
'

test_expect_success 'chips --format=json is the same as --format json' '
	g chips --format json >a.json &&
	g chips --format=json >b.json &&
	test_cmp a.json b.json
'

test_expect_success 'options lists keys, aliases, values, defaults in order and support' '
	g options >out 2>err &&
	test_must_be_empty err &&
	sed -n "1,9p" out >head &&
	cat >expect <<-\EOF &&
	PRECISION_MODE  (enum)
	  key:       ge.exec.precision_mode
	  aliases:   --precision_mode
	  values:    "force_fp16", "force_fp32", "allow_mix_precision_bf16"
	  default:   "force_fp32" when run_mode == "training" and chip has cube_fp32
	  default:   "force_fp16"
	  supported: all
	    "allow_mix_precision_bf16" supported: a2

	EOF
	test_cmp expect head &&
	test_grep "^  supported: a2$" out &&
	test_grep "^  deprecated: use the default$" out &&
	test_grep "^  high_precision  *none: not in this release$" out
'

test_expect_success 'options --format json' '
	g options --format json >out.json 2>err &&
	test_must_be_empty err &&
	test "$(json_get out.json "d[\"products\"]")" = "[\"a2\", \"p310\"]" &&
	test "$(json_get out.json "[o[\"name\"] for o in d[\"options\"]]")" = \
		"[\"PRECISION_MODE\", \"ALLOW_HF32\", \"OP_PRECISION_MODE\", \"BUFFER_OPTIMIZE\", \"OP_DEBUG_LEVEL\"]" &&
	test "$(json_get out.json "d[\"options\"][1][\"aliases\"]")" = "[\"--allow_hf32\", \"allow_hf32\"]" &&
	test "$(json_get out.json "d[\"options\"][3][\"supported_on\"]")" = "[\"a2\"]" &&
	test "$(json_get out.json "d[\"options\"][0][\"values\"][2][\"supported_on\"]")" = "[\"a2\"]" &&
	test "$(json_get out.json "d[\"options\"][0][\"defaults\"][1][\"when\"]")" = null &&
	test "$(json_get out.json "d[\"options\"][3][\"deprecated\"]")" = "use the default" &&
	test "$(json_get out.json "d[\"options\"][4][\"type\"]")" = int &&
	test "$(json_get out.json "d[\"modes\"][3]")" = "{\"name\": \"high_precision\", \"supported_on\": [], \"reason\": \"not in this release\"}"
'

test_expect_success 'options --chip gives the verdict and the defaults for that chip' '
	g options --chip Ascend310P3 >out 2>err &&
	test_must_be_empty err &&
	cat >expect <<-\EOF &&
	chip Ascend310P3: Atlas 300I (p310), run mode inference

	OPTION                        SUPPORTED    DEFAULT                 VALUES NOT SUPPORTED HERE
	PRECISION_MODE                yes          "force_fp16"            allow_mix_precision_bf16
	ALLOW_HF32                    no           -                       10, 01, 11, 00
	OP_PRECISION_MODE             yes          -                       -
	BUFFER_OPTIMIZE               no           "l2_optimize"           l1_optimize, l2_optimize, off_optimize
	OP_DEBUG_LEVEL                yes          "0"                     -

	MODE                          SUPPORTED
	enable_float_32_execution     no
	enable_hi_float_32_execution  no
	high_performance              yes
	high_precision                no: not in this release
	EOF
	test_cmp expect out
'

test_expect_success 'options --chip: a conditional default depends on chip and run mode' '
	g options --chip Ascend910B1 --run-mode training >out &&
	test_grep "^PRECISION_MODE  *yes  *\"force_fp32\"  *-$" out &&
	g options --chip Ascend910B1 >out &&
	test_grep "^PRECISION_MODE  *yes  *\"force_fp16\"" out &&
	g options --chip Ascend910B3 --run-mode training >out &&
	test_grep "^chip Ascend910B3: Atlas A2 series (a2), run mode training$" out &&
	test_grep "^PRECISION_MODE  *yes  *\"force_fp16\"" out &&
	test_grep "^ALLOW_HF32  *yes  *\"10\"" out
'

test_expect_success 'options --chip --format json' '
	g options --chip Ascend910B2 --format json >out.json 2>err &&
	test_must_be_empty err &&
	test "$(json_get out.json "d[\"chip\"]")" = "{\"soc\": \"Ascend910B2\", \"product\": \"a2\", \"product_title\": \"Atlas A2 series\"}" &&
	test "$(json_get out.json "d[\"run_mode\"]")" = inference &&
	test "$(json_get out.json "[o[\"default\"] for o in d[\"options\"]]")" = \
		"[\"force_fp16\", \"10\", null, \"l2_optimize\", \"0\"]" &&
	test "$(json_get out.json "[m[\"supported\"] for m in d[\"modes\"]]")" = "[true, true, true, false]"
'

test_expect_success 'options --chip with an unknown chip is a usage error with a suggestion' '
	test_must_fail --exit 2 g options --chip Ascend910B9 >out 2>err &&
	test_must_be_empty out &&
	cat >expect <<-\EOF &&
	gerules options: error: unknown chip '"'"'Ascend910B9'"'"'; did you mean '"'"'Ascend910B1'"'"'? (see '"'"'gerules chips'"'"')
	(try '"'"'gerules options --help'"'"')
	EOF
	test_cmp expect err
'

test_expect_success 'options --run-mode accepts only inference and training' '
	test_must_fail --exit 2 g options --run-mode train >out 2>err &&
	test_must_be_empty out &&
	test_grep "^gerules options: error: --run-mode is inference or training, not '"'"'train'"'"'$" err
'

test_expect_success 'explain an option by name' '
	g explain PRECISION_MODE >out 2>err &&
	test_must_be_empty err &&
	cat >expect <<-\EOF &&
	option PRECISION_MODE (enum)
	  global precision mode of the graph
	  GE key: ge.exec.precision_mode
	  also written: --precision_mode
	  value "force_fp16"
	  value "force_fp32"
	  value "allow_mix_precision_bf16": automatic mixed bf16 [supported on a2]
	  default: "force_fp32" when run_mode == "training" and chip has cube_fp32
	  default: "force_fp16"
	  supported on: all
	EOF
	echo "  defined at $MINI:39" >>expect &&
	test_cmp expect out
'

test_expect_success 'explain an option by GE key and by ATC flag with and without --' '
	g explain ALLOW_HF32 >by-name &&
	g explain ge.exec.allow_hf32 >by-key &&
	g explain --allow_hf32 >by-flag &&
	test_cmp by-name by-key &&
	test_cmp by-name by-flag &&
	g explain --op_precision_mode >out &&
	test_grep "^option OP_PRECISION_MODE (file)$" out &&
	g explain op_precision_mode >out &&
	test_grep "^option OP_PRECISION_MODE (file)$" out &&
	test_grep "^  relation: exclusive OP_PRECISION_MODE over ALLOW_HF32 (GE1101, .*mini.rules:135)$" by-name
'

test_expect_success 'explain a name shared by an option alias and a source shows both' '
	g explain allow_hf32 >out &&
	test_grep "^option ALLOW_HF32 (enum)$" out &&
	test_grep "^source allow_hf32 for precision_mode (place 2 in its cascade)$" out
'

test_expect_success 'explain a mode' '
	g explain enable_float_32_execution >out 2>err &&
	test_must_be_empty err &&
	cat >expect <<-EOF &&
	mode enable_float_32_execution
	  compute in FP32 inside the operator
	  supported on: a2
	  defined at $MINI:28
	EOF
	test_cmp expect out
'

test_expect_success 'explain a slot shows its cascade' '
	g explain precision_mode >out &&
	test_grep "^slot precision_mode$" out &&
	test_grep "^  cascade: by_node_name > allow_hf32 > by_op_type$" out
'

test_expect_success 'explain finds a slot by its column label too, and says the label' '
	sed "/^slot precision_mode {/a\\    column \"impl_mode\";" "$MINI" >labelled.rules &&
	"$GERULES" --rules labelled.rules explain impl_mode >out &&
	test_grep "^slot precision_mode\$" out &&
	test_grep "^  column: impl_mode (the label the text report, --explain, HTML and DOT show)\$" out &&
	"$GERULES" --rules labelled.rules explain precision_mode --format json >out.json &&
	json_get out.json "[m[\"column\"] for m in d[\"matches\"] if m[\"kind\"] == \"slot\"]" >actual &&
	echo "[\"impl_mode\"]" >expect && test_cmp expect actual &&
	g explain precision_mode >plain &&
	! grep "column:" plain &&
	g explain precision_mode --format json >plain.json &&
	json_get plain.json "[m[\"column\"] for m in d[\"matches\"] if m[\"kind\"] == \"slot\"]" >actual &&
	echo "[\"precision_mode\"]" >expect && test_cmp expect actual
'

test_expect_success 'explain a table, a product line and socs (exact and by pattern)' '
	g explain conv_ops >out &&
	printf "table conv_ops (2 entries)\n  Conv-class operators\n  \"Conv2D\"\n  \"Conv3D\"\n" >expect &&
	test_cmp expect out &&
	g explain a2 >out &&
	printf "product line a2: Atlas A2 series\n  Ascend 910B\n  soc Ascend910B1\n  soc /Ascend910B[2-4]/\n" >expect &&
	test_cmp expect out &&
	g explain Ascend910B4 >out &&
	cat >expect <<-\EOF &&
	soc Ascend910B4: product line a2 (Atlas A2 series)
	  matched by /Ascend910B[2-4]/
	  ai_cores: 20
	  ub_bytes: 196608
	  capabilities: bf16,hf32
	EOF
	test_cmp expect out &&
	g explain Ascend910B1 >out &&
	test_grep "^  capabilities: bf16,hf32,cube_fp32$" out &&
	! grep "matched by" out
'

test_expect_success 'explain a rule' '
	g explain dynamic_matmul >out &&
	test_grep "^rule dynamic_matmul for each node: note GE3001$" out &&
	test_grep "^  when node.dynamic and node.type in matmul_ops$" out
'

test_expect_success 'explain an unknown name fails with a did-you-mean' '
	test_must_fail --exit 2 g explain enable_float32_execution >out 2>err &&
	test_must_be_empty out &&
	echo "gerules explain: error: '"'"'enable_float32_execution'"'"' is not an option, mode, slot, source, rule, table, product, SoC or ONNX op; did you mean '"'"'enable_float_32_execution'"'"'?" >expect &&
	test_cmp expect err
'

test_expect_success 'explain a name nothing resembles fails without a suggestion' '
	test_must_fail --exit 2 g explain zzzz >out 2>err &&
	test_must_be_empty out &&
	echo "gerules explain: error: '"'"'zzzz'"'"' is not an option, mode, slot, source, rule, table, product, SoC or ONNX op" >expect &&
	test_cmp expect err
'

test_expect_success 'explain needs exactly one name' '
	test_must_fail --exit 2 g explain >out 2>err &&
	test_must_be_empty out &&
	test_grep "^gerules explain: error: expected a NAME$" err &&
	test_must_fail --exit 2 g explain a2 p310 >out 2>err &&
	test_must_be_empty out &&
	test_grep "^gerules explain: error: expected exactly one NAME, got '"'"'a2'"'"' and '"'"'p310'"'"'$" err
'

test_expect_success 'explain --format json' '
	g explain PRECISION_MODE --format json >out.json 2>err &&
	test_must_be_empty err &&
	test "$(json_get out.json "d[\"name\"]")" = PRECISION_MODE &&
	test "$(json_get out.json "[m[\"kind\"] for m in d[\"matches\"]]")" = "[\"option\"]" &&
	test "$(json_get out.json "d[\"matches\"][0][\"key\"]")" = ge.exec.precision_mode &&
	test "$(json_get out.json "d[\"matches\"][0][\"values\"][2][\"supported_on\"]")" = "[\"a2\"]" &&
	g explain allow_hf32 --format json >out.json &&
	test "$(json_get out.json "[m[\"kind\"] for m in d[\"matches\"]]")" = "[\"option\", \"source\"]"
'

test_expect_success '--version prints the version on stdout' '
	"$GERULES" --version >out 2>err &&
	test_must_be_empty err &&
	test_grep "^gerules [0-9][0-9.]*$" out &&
	test "$(wc -l <out)" -eq 1
'

test_expect_success '--help and -h print the usage on stdout and exit 0' '
	"$GERULES" --help >out 2>err &&
	test_must_be_empty err &&
	test_grep "^usage: gerules \[--rules PATH\] COMMAND \[ARGS\]$" out &&
	test_grep "^  explain NAME " out &&
	"$GERULES" -h >out2 &&
	test_cmp out out2
'

test_expect_success 'no command prints the usage on stderr and exits 2' '
	test_must_fail --exit 2 "$GERULES" >out 2>err &&
	test_must_be_empty out &&
	test_grep "^usage: gerules" err
'

test_expect_success 'an unknown command exits 2 with a did-you-mean' '
	test_must_fail --exit 2 g chps >out 2>err &&
	test_must_be_empty out &&
	printf "gerules: error: unknown command '"'"'chps'"'"'; did you mean '"'"'chips'"'"'?\n(try '"'"'gerules --help'"'"')\n" >expect &&
	test_cmp expect err &&
	test_must_fail --exit 2 g frobnicate 2>err &&
	test_grep "^gerules: error: unknown command '"'"'frobnicate'"'"'$" err
'

test_expect_success 'an unknown global option exits 2' '
	test_must_fail --exit 2 "$GERULES" --frobnicate chips >out 2>err &&
	test_must_be_empty out &&
	printf "gerules: error: unknown option '"'"'--frobnicate'"'"'\n(try '"'"'gerules --help'"'"')\n" >expect &&
	test_cmp expect err
'

test_expect_success '--rules without a path exits 2' '
	test_must_fail --exit 2 "$GERULES" chips --rules >out 2>err &&
	test_must_be_empty out &&
	test_grep "^gerules: error: --rules needs a path$" err
'

test_expect_success 'unknown arguments and formats of the info commands exit 2' '
	test_must_fail --exit 2 g chips --bogus 2>err &&
	test_grep "^gerules chips: error: unknown option '"'"'--bogus'"'"'$" err &&
	test_must_fail --exit 2 g chips --format xml 2>err &&
	test_grep "^gerules chips: error: unknown format '"'"'xml'"'"' (text or json)$" err &&
	test_must_fail --exit 2 g options --format 2>err &&
	test_grep "^gerules options: error: --format needs a value (text or json)$" err &&
	test_must_fail --exit 2 g options --chip 2>err &&
	test_grep "^gerules options: error: --chip needs a SoC$" err
'

test_expect_success 'the global --rules may follow the command' '
	"$GERULES" chips --rules "$MINI" >out &&
	g chips >expect &&
	test_cmp expect out
'

test_expect_success 'command --help prints that command usage' '
	g chips --help >out &&
	test_grep "^usage: gerules chips" out &&
	g options --help >out &&
	test_grep "^usage: gerules options" out &&
	g explain --help >out &&
	test_grep "^usage: gerules explain NAME" out
'

test_done
