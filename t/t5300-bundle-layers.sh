#!/bin/sh
# t5300-bundle-layers.sh: a rule set as a stack of bundles. The example vendor
# bundle (examples/vendor/acme) on top of the shipped rules: its new chip is
# used, the report header lists both bundles, --explain names the vendor
# bundle where its rule won, its own cases pass, and `gerules diff` between
# its two releases lists exactly what 1.1.0 changed; then every layering
# error is a located error of `gerules check`.

test_description='bundle layers: extends, override, extend table, replace cascade'
. "${top_srcdir:-..}/t/test-lib.sh"

ACME="$top_srcdir/examples/vendor/acme"
ACME10="$top_srcdir/examples/vendor/acme-1.0"
MODEL="$ACME/tests/acme_model.json"
BASE="$top_srcdir/rules"

test_expect_success 'the stack checks, and check names both bundles' '
	gerules check "$BASE" "$ACME" >out &&
	test_grep "^ge-base [0-9.]* + acme 1.1.0: .*: ok\$" out
'

test_expect_success 'eval on the vendor chip: new chip used, the header lists the stack' '
	gerules --rules "$BASE" --rules "$ACME" eval "$MODEL" --chip ACME_SOC -o ge.tiling_schedule_optimize=1 >out &&
	head -n 1 out >header &&
	test_grep "rules ge-base [0-9.]* (.*rules) + acme 1.1.0 (.*examples/vendor/acme)\$" header &&
	test_grep "^chip:  ACME_SOC, ACME NPU series (acme)" out &&
	test_grep "^attn  *AcmeAttention  *tiling: host (sink off) -> device (acme_firmware_tiling)" out
'

test_expect_success '--explain names the vendor bundle where its rule won' '
	gerules --rules "$BASE" --rules "$ACME" eval "$MODEL" --chip ACME_SOC -o ge.tiling_schedule_optimize=1 --explain attn >out &&
	test_grep "^tiling = device   from acme_firmware_tiling" out &&
	test_grep "acme_firmware_tiling  *won  *device   \[acme/acme.rules:[0-9]*, bundle acme 1.1.0\]" out &&
	test_grep "tiling_sink  *beaten .*bundle ge-base " out &&
	gerules --rules "$BASE" --rules "$ACME" eval "$MODEL" --chip ACME_SOC -o ge.tiling_schedule_optimize=1 \
		--explain attn --format json >out.json &&
	json_get out.json "[b[\"bundle\"] for s in d[\"slots\"] for b in s[\"candidates\"] if b[\"status\"] == \"won\" and s[\"slot\"] == \"tiling\"]" >won &&
	echo "[\"acme 1.1.0\"]" >want && test_cmp want won
'

test_expect_success 'JSON reports carry the stack; GERULES_RULES takes a colon-separated stack' '
	GERULES_RULES="$BASE:$ACME" gerules eval "$MODEL" --chip ACME_SOC --format json >out.json &&
	json_get out.json "[(x[\"bundle\"], x[\"version\"]) for x in d[\"rules\"][\"stack\"]][1]" >got &&
	echo "[\"acme\", \"1.1.0\"]" >want && test_cmp want got
'

test_expect_success 'the override changed the base option only for the stack' '
	gerules --rules "$BASE" --rules "$ACME" explain TILING_SCHEDULE_OPTIMIZE >out &&
	test_grep "acme" out &&
	gerules explain TILING_SCHEDULE_OPTIMIZE >base &&
	! grep -q "acme" base
'

test_expect_success 'the vendor cases pass on the stack' '
	gerules --rules "$BASE" --rules "$ACME" test "$ACME/tests" >out &&
	test_grep "^5 cases: 5 passed, 0 failed\$" out
'

test_expect_success 'diff between the two releases lists exactly what 1.1.0 changed' '
	gerules diff "$BASE:$ACME10" "$BASE:$ACME" >out &&
	sed -n "2,\$p" out | sed "s/^~ slot tiling: cascade .*/~ slot tiling: cascade (changed)/" >got &&
	cat >want <<-\EOF &&
	declarations:
	~ bundle acme: version 1.0.0 -> 1.1.0
	~ soc ACME_SOC: hardware ub_bytes 196608 -> 262144
	+ soc ACME_A2_BOARD
	+ soc ACME_SOC_PRO
	~ option TILING_SCHEDULE_OPTIMIZE: on acme: unsupported -> supported
	~ table tiling_sink_ops: entry "AcmeAttention" added
	~ slot tiling: cascade (changed)
	+ source acme_firmware_tiling
	3 added, 0 removed, 5 changed
	EOF
	test_cmp want got &&
	head -n 1 out >h && test_grep "^gerules diff: acme 1.0.0 (.*) -> acme 1.1.0 (.*)\$" h
'

test_expect_success 'diff with the graph: the node whose decision changes, with both outcomes' '
	gerules diff "$BASE:$ACME10" "$BASE:$ACME" --graph "$MODEL" --chip ACME_SOC -o ge.tiling_schedule_optimize=1 >out &&
	test_grep "^~ node attn: tiling: host (tiling_op_cannot_sink) -> device (acme_firmware_tiling)\$" out &&
	test_grep "^~ node attn: execution: dynamic (execution_seed) -> static (execution_static_graph)\$" out &&
	test_grep "^- diagnostic warning GE1003 " out
'

# layering errors: each a located error of gerules check
mkdir -p bad
layer () {  # layer NAME TEXT: a one-file bundle bad/NAME
	mkdir -p "bad/$1" && printf "%b" "$2" >"bad/$1/site.rules"
}
layer redef 'bundle "site" { version "1.0.0"; extends "ge-base"; }\noption TILING_SCHEDULE_OPTIMIZE { type bool; default "0"; }\n'
layer socdup 'bundle "site" { version "1.0.0"; }\nproduct x "X" { soc "Ascend910B2" { ai_cores 1; } }\n'
layer missing 'bundle "site" { version "1.0.0"; }\noverride soc "NoSuchSoc" { ai_cores 1; }\nextend table no_table { "x", }\nreplace cascade nope: a > b;\n'
layer extends 'bundle "site" { version "1.0.0"; extends "ge-base" >= 99.0, < 100; extends "other"; }\n'
layer ranges 'bundle "site" { version "1.0.0";\n  extends "ge-base" >= 1.0, <= 01.5;\n  extends "ge-base" >= 2, < 1.5;\n  extends "ge-base" ">=1.0";\n  extends "ge-base" >= 1.2.3.4; }\n'
layer rangesyntax 'bundle "site" { version "1.0.0"; extends "ge-base" >= ; }\n'
layer wrongmod 'bundle "site" { version "1.0.0"; }\nextend option PRECISION_MODE { type bool; }\noverride cascade tiling: tiling_static;\n'
SOC910='ai_cores 2; cube_cores 24; vector_cores 48; ai_cpus 6; ub_bytes 196608; l1_bytes 524288; l0a_bytes 65536; l0b_bytes 65536; l0c_bytes 131072; l2_bytes 201326592; cube_mhz 1850; prefetch_num 8;'
layer one "bundle \"one\" { version \"1.0.0\"; }\noverride soc \"Ascend910B1\" { $SOC910 }\n"
layer two "bundle \"two\" { version \"1.0.0\"; }\noverride soc \"Ascend910B1\" { $SOC910 }\n"
layer three "bundle \"three\" { version \"1.0.0\"; extends \"one\"; }\noverride soc \"Ascend910B1\" { $SOC910 }\n"

test_expect_success 'a redefinition without override fails check with a located error' '
	test_must_fail --exit 2 gerules check "$BASE" bad/redef >out 2>err &&
	test_must_be_empty out &&
	test_grep "^bad/redef/site.rules:2:8: error: option TILING_SCHEDULE_OPTIMIZE is already declared by bundle .ge-base. (.*options.rules:[0-9]*); a layer changes it only with .override option TILING_SCHEDULE_OPTIMIZE" err &&
	test_grep "^ option TILING_SCHEDULE_OPTIMIZE" err &&
	test_must_fail --exit 2 gerules check "$BASE" bad/socdup 2>err &&
	test_grep "^bad/socdup/site.rules:2:21: error: soc \"Ascend910B2\" is already declared by bundle .ge-base." err
'

test_expect_success 'override, extend and replace of names no earlier bundle declares' '
	test_must_fail --exit 2 gerules check "$BASE" bad/missing 2>err &&
	test_grep "^bad/missing/site.rules:2:14: error: override of soc NoSuchSoc, which no earlier bundle declares" err &&
	test_grep "^bad/missing/site.rules:3:14: error: extension of table no_table, which no earlier bundle declares" err &&
	test_grep "^bad/missing/site.rules:4:17: error: replacement of cascade nope, which no earlier bundle declares" err
'

test_expect_success 'an unsatisfied extends: version out of range, bundle not below' '
	test_must_fail --exit 2 gerules check "$BASE" bad/extends 2>err &&
	test_grep "^bad/extends/site.rules:1:52: error: bundle .site. needs .ge-base. >=99.0, <100, but the stack has version" err &&
	test_grep "^bad/extends/site.rules:1:76: error: bundle .site. extends .other., which is not below it in the stack" err
'

test_expect_success 'a version range is grammar: malformed, empty, quoted ranges are located errors' '
	test_must_fail --exit 2 gerules check "$BASE" bad/ranges >out 2>err &&
	test_must_be_empty out &&
	test_grep "^bad/ranges/site.rules:2:32: error: malformed version .01.5. in the range of extends \"ge-base\"" err &&
	test_grep "^bad/ranges/site.rules:3:21: error: the range .>=2, <1.5. of extends \"ge-base\" holds no version\$" err &&
	test_grep "^bad/ranges/site.rules:4:21: error: a version range is written without quotes: extends \"ge-base\" >=1.0;\$" err &&
	test_grep "^bad/ranges/site.rules:5:24: error: malformed version .1.2.3.4." err &&
	test_must_fail --exit 2 gerules check "$BASE" bad/rangesyntax 2>err &&
	test_grep "^bad/rangesyntax/site.rules:1:55: error: syntax error near .;." err
'

test_expect_success 'extend only tables, replace only cascades' '
	test_must_fail --exit 2 gerules check "$BASE" bad/wrongmod 2>err &&
	test_grep "^bad/wrongmod/site.rules:2:1: error: only a table or a product line can be extended" err &&
	test_grep "^bad/wrongmod/site.rules:3:1: error: a cascade is changed with .replace cascade tiling" err
'

test_expect_success 'two layers overriding the same SoC need an order (extends)' '
	gerules --rules "$BASE" --rules bad/one chips >out && test_grep "^a2  *Ascend910B1  *2 " out &&
	test_must_fail --exit 2 gerules check "$BASE" bad/one bad/two 2>err &&
	test_grep "^bad/two/site.rules:2:1: error: bundles .two. and .one. (bad/one/site.rules:2) both change soc Ascend910B1, and .two. does not extend .one." err &&
	gerules check "$BASE" bad/one bad/three >out &&
	test_grep "^ge-base [0-9.]* + one 1.0.0 + three 1.0.0: " out
'

test_expect_success 'the base bundle cannot override, and files without a bundle statement join the layer before' '
	mkdir -p alone && printf "bundle \"b\" { version \"1.0.0\"; }\noverride table t { \"x\", }\n" >alone/b.rules &&
	test_must_fail --exit 2 gerules check alone 2>err &&
	test_grep "^alone/b.rules:2:1: error: the base bundle cannot override" err &&
	gerules check "$BASE/bundle.rules" "$BASE/chips.rules" >out &&
	test_grep "^ge-base [0-9.]*: " out
'

test_expect_success 'the shipped signature of the example verifies; both layers must be signed' '
	GERULES_STATE="$TRASH/state"; export GERULES_STATE &&
	cp -R "$BASE" sbase && chmod -R u+w sbase && rm -rf sbase/MANIFEST sbase/MANIFEST.sig &&
	gerules bundle keygen site >/dev/null && gerules bundle sign --key site.key sbase >/dev/null &&
	cat site.pub "$top_srcdir/examples/vendor/acme-release.pub" >trust &&
	gerules --trust trust --rules sbase bundle verify "$ACME" >out &&
	test_grep "acme 1.1.0 verified: .*signed by [0-9a-f]* (ACME release key" out &&
	gerules --trust trust --rules sbase --rules "$ACME" bundle verify "$ACME" >out2 &&
	test $(grep -c "acme 1.1.0 verified" out2) = 1 && test $(grep -c "^sbase: ge-base .* verified" out2) = 1 &&
	test $(wc -l <out2) = 2 &&
	gerules --trust trust --rules sbase --rules "$ACME" eval "$MODEL" --chip ACME_SOC >/dev/null &&
	test_must_fail --exit 2 gerules --trust trust --rules "$BASE" --rules "$ACME" chips >/dev/null 2>err &&
	test_grep "the bundle is not signed" err &&
	cp -R "$ACME" acme && chmod -R u+w acme && echo "# changed" >>acme/acme.rules &&
	test_must_fail --exit 2 gerules --trust trust --rules sbase --rules acme chips >/dev/null 2>err &&
	test_grep "^acme/acme.rules: error: changed since the bundle was signed" err
'

# ---- product lines: extend adds SoCs and caps; override restating a line warns
# about the SoCs and caps it drops (issue 29) ----

test_expect_success 'setup: one SoC block with every hardware property of the base' '
	sed -n "s/^ *soc \"Ascend910B1\" *\(.*\)\$/\1/p" "$BASE/chips.rules" >soc.txt &&
	test "$(wc -l <soc.txt)" = 1
'

test_expect_success 'extend product adds a SoC to a base line, which inherits the line'"'"'s caps' '
	mkdir -p ext && {
		echo "bundle \"acme-soc\" { version \"1.0.0\"; extends \"ge-base\"; }" &&
		echo "extend product a2 {" && echo "    soc \"Ascend910B9\" $(cat soc.txt)" && echo "}"
	} >ext/l.rules &&
	gerules check "$BASE" ext >out &&
	test_grep "^ge-base [0-9.]* + acme-soc 1.0.0: .* 75 SoCs, .*: ok\$" out &&
	gerules --rules "$BASE" --rules ext chips >chips &&
	test_grep "^a2  *Ascend910B1 " chips &&
	test_grep "^a2  *Ascend910B9  *24 .* bf16,hf32,cube_fp32" chips &&
	gerules --rules "$BASE" --rules ext eval "$top_srcdir/examples/llm_decoder.json" --chip Ascend910B9 >ev &&
	test_grep "^chip:  Ascend910B9, Atlas A2 training / inference series (a2)" ev
'

test_expect_success 'override product that restates a line with fewer SoCs and caps warns, naming them' '
	mkdir -p ov && {
		echo "bundle \"acme-ov\" { version \"1.0.0\"; extends \"ge-base\"; }" &&
		echo "override product a2 \"Atlas A2 (acme)\" {" && echo "    caps bf16;" &&
		echo "    soc \"Ascend910B1\" $(cat soc.txt)" && echo "}"
	} >ov/l.rules &&
	gerules check "$BASE" ov >out 2>&1 &&
	cat >expect <<-\EOF &&
	ov/l.rules:2:1: warning: override product a2 drops 5 SoC(s) that bundle '"'"'ge-base'"'"' declares (Ascend910B2, Ascend910B2C, Ascend910B3, Ascend910B4, ...): they are no longer known; '"'"'extend product a2 { soc ...; }'"'"' adds SoCs without dropping any
	ov/l.rules:2:1: warning: override product a2 drops 4 cap(s) that bundle '"'"'ge-base'"'"' gives the line (hf32, cube_fp32, ffts_plus, tiling_key_sink); '"'"'extend product a2 { caps ...; }'"'"' adds caps without dropping any
	EOF
	grep "warning:" out >warnings &&
	test_cmp expect warnings &&
	test_grep ": ok (2 warnings)\$" out
'

test_expect_success 'extend product: a title, other items, an existing SoC and extend of an option are located errors' '
	mkdir -p bad1 bad2 && {
		echo "bundle \"acme-bad\" { version \"1.0.0\"; extends \"ge-base\"; }" &&
		echo "extend product a2 \"title\" { description \"x\"; }" &&
		echo "extend option PRECISION_MODE { }"
	} >bad1/l.rules &&
	test_must_fail --exit 2 gerules check "$BASE" bad1 >out 2>err &&
	grep "error:" err >errors &&
	cat >expect <<-\EOF &&
	bad1/l.rules:2:19: error: extend product a2 takes no title: it adds SoCs and caps to the line; '"'"'override product'"'"' changes the rest
	bad1/l.rules:2:29: error: extend product a2 adds only '"'"'soc'"'"' and '"'"'caps'"'"'; '"'"'override product a2'"'"' changes the rest
	bad1/l.rules:3:1: error: only a table or a product line can be extended (extend table NAME { ... }, extend product NAME { ... })
	EOF
	test_cmp expect errors &&
	{
		echo "bundle \"acme-bad\" { version \"1.0.0\"; extends \"ge-base\"; }" &&
		echo "extend product a2 {" && echo "    soc \"Ascend910B2\" $(cat soc.txt)" && echo "}"
	} >bad2/l.rules &&
	test_must_fail --exit 2 gerules check "$BASE" bad2 >out 2>err &&
	test_grep "^bad2/l.rules:3:9: error: soc \"Ascend910B2\" is already declared by bundle '"'"'ge-base'"'"' (.*chips.rules:[0-9]*); a layer changes it only with '"'"'override soc \"Ascend910B2\" { ... }'"'"'" err
'

test_expect_success 'a change of a name no bundle below declares suggests the nearest one of its kind' '
	mkdir -p dym && cat >dym/l.rules <<-\EOF &&
	bundle "dm" { version "1.0.0"; extends "ge-base"; }
	extend table tiling_input { "X": 1 }
	replace cascade tilng: tiling_static;
	override option PRECISON_MODE { key "x"; }
	extend product a3x { }
	EOF
	test_must_fail --exit 2 gerules check "$BASE" dym >out 2>err &&
	grep "error:" err >errors &&
	cat >expect <<-\EOF &&
	dym/l.rules:2:14: error: extension of table tiling_input, which no earlier bundle declares; did you mean '"'"'tiling_inputs'"'"'?
	dym/l.rules:3:17: error: replacement of cascade tilng, which no earlier bundle declares; did you mean '"'"'tiling'"'"'?
	dym/l.rules:4:17: error: override of option PRECISON_MODE, which no earlier bundle declares; did you mean '"'"'PRECISION_MODE'"'"'?
	dym/l.rules:5:16: error: extension of product a3x, which no earlier bundle declares; did you mean '"'"'a3'"'"'?
	EOF
	test_cmp expect errors
'

test_done
