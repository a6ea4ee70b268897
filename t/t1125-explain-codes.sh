#!/bin/sh
# t1125-explain-codes.sh: `gerules explain CODE`. Every diagnostic code the
# shipped rules can produce (found in the rule files' `then SEVERITY CODE`
# and relations) and every code the C sources raise (a "GRnnnn" string
# literal under src/) has a text: what it means, when it fires, an example
# and the fix, in text and JSON. The checker refuses a rule set that
# declares diagnostic_codes but leaves a code without a row, or a row of the
# wrong shape. A mistyped code gets the nearest one suggested. The SARIF
# help of a run points at `gerules explain` for a code that has a text.
test_description='gerules explain CODE: a text for every code'
. "$(dirname "$0")/test-lib.sh"

PY=${PYTHON3:-/usr/bin/python3}

test_expect_success 'setup: the codes the rules and the C code can produce' '
	cat "$top_srcdir"/rules/*.rules |
		grep -oE "then +(error|warning|note) +[A-Z]+[0-9]+" | awk "{print \$3}" | sort -u >rule-codes &&
	test $(wc -l <rule-codes) -ge 30 &&
	find "$top_srcdir/src" -name "*.[ch]" -exec cat {} + |
		grep -oE "\"GR[0-9]{4}\"" | tr -d "\"" | sort -u >c-codes &&
	test $(wc -l <c-codes) -ge 15 &&
	cat rule-codes c-codes >all-codes
'

test_expect_success 'every code has a text with all four parts' '
	while read -r code
	do
		gerules explain "$code" >out 2>err || { echo "explain $code failed:"; cat err; return 1; }
		head -n 1 out | grep -q "^$code: [[a-zA-Z]" || { echo "$code: no title"; cat out; return 1; }
		for part in "When it fires:" "Example:" "Fix:"
		do
			grep -qx "$part" out || { echo "$code: no \"$part\""; cat out; return 1; }
		done
	done <all-codes
'

test_expect_success 'GE2004 names the rule that raises it and what to do' '
	gerules explain GE2004 >out &&
	test_grep "^GE2004: ALLOW_HF32 has no effect under PRECISION_MODE$" out &&
	test_grep "raised by rule allow_hf32_no_fp32_v1 (warning) at checks.rules:[0-9]*$" out &&
	test_grep "must_keep_origin_dtype or force_fp32" out
'

test_expect_success 'EZ3002 (GE engine placement): GE'"'"'s message and the rule reporting it per refusing kernel' '
	gerules explain EZ3002 >out &&
	test_grep "^EZ3002: GE error code: an ops kernel does not support the op$" out &&
	test_grep "raised by rule kernel_refuses (warning) at engines.rules:[0-9]*, reported as GE7006 \[GE EZ3002\]$" out &&
	test_grep "Optype \[%s\] of Ops kernel \[%s\] is unsupported. Reason: %s." out &&
	gerules explain GE7006 >out &&
	test_grep "^GE7006: " out
'

test_expect_success 'a relation code names the relation; a GR code says gerules raises it' '
	gerules explain GE1103 >out &&
	test_grep "raised by relation conflicts (error)" out &&
	gerules explain GR0201 >out &&
	test_grep "raised by gerules itself" out &&
	test_grep "ByNodename" out
'

test_expect_success 'explain CODE --format json carries every part' '
	while read -r code
	do
		gerules explain "$code" --format json >"$code.json" || return 1
	done <all-codes &&
	"$PY" - all-codes <<-\EOF
	import json, sys
	for code in open(sys.argv[1]).read().split():
	    d = json.load(open(code + ".json"))
	    assert d["schema_version"] == 1 and d["name"] == code, code
	    (m,) = d["matches"]
	    assert m["kind"] == "code" and m["code"] == code, code
	    for k in ("title", "fires", "example", "fix", "defined_at"):
	        assert isinstance(m[k], str) and m[k], (code, k)
	    assert m["origin"] == ("gerules" if code.startswith("GR") else "rules"), code
	    assert (m["raised_by"] != []) == (m["origin"] == "rules"), code
	EOF
'

test_expect_success 'a mistyped code: exit 2 and the nearest code (a transposition is one edit)' '
	test_must_fail --exit 2 gerules explain GE2040 >out 2>err &&
	test_must_be_empty out &&
	test_grep "no diagnostic code GE2040 .*did you mean .GE2004.?" err &&
	test_must_fail --exit 2 gerules explain GR0240 2>err &&
	test_grep "did you mean .GR0204.?" err
'

test_expect_success 'without the file of gerules codes, a GR code is an error naming the file' '
	GERULES_CODES=$TRASH/none.rules test_must_fail --exit 2 gerules explain GR0101 2>err &&
	test_grep "none.rules" err &&
	GERULES_CODES=$TRASH/none.rules gerules explain GE2004 >out &&
	test_grep "^GE2004:" out
'

test_expect_success 'setup: a rule set with a code table' '
	mkdir rs &&
	cat >rs/a.rules <<-\EOF
	option X { key "x"; type bool; supported on all; }
	product p "P" { soc "S1" { } }
	rule r1 when option X == "true" then warning AB0001 "x is on";
	rule r2 when option X == "false" then note AB0002 "x is off";
	table diagnostic_codes { "AB0001": ["x on", "when x is true", "-o x=true", "set x=false"] }
	EOF
	test_must_fail gerules check rs >out 2>err
'

test_expect_success 'the checker names the code without a text, at its location' '
	test_grep "^rs/a.rules:4:44: error: diagnostic code AB0002 has no text in table diagnostic_codes" err
'

test_expect_success 'the checker refuses a row that is not four non-empty strings' '
	sed -i "s/\"AB0001\": \\[.*\\]/\"AB0001\": [\"x on\", \"when\"], \"AB0002\": [\"a\", \"b\", \"\", \"d\"]/" rs/a.rules &&
	test_must_fail gerules check rs >out 2>err &&
	test_grep "diagnostic_codes\\[\"AB0001\"\\] must be a list of four strings" err &&
	test_grep "diagnostic_codes\\[\"AB0002\"\\]: none of the four texts may be empty" err
'

test_expect_success 'a layer above adds its codes with extend table' '
	sed -i "s/\"AB0001\": \\[.*\\]/\"AB0001\": [\"x on\", \"when x is true\", \"-o x=true\", \"set x=false\"], \"AB0002\": [\"x off\", \"when x is false\", \"-o x=false\", \"nothing\"]/" rs/a.rules &&
	printf "bundle \"base\" { version \"1.0.0\"; }\n" >rs/b.rules &&
	gerules check rs >out 2>err &&
	mkdir up &&
	cat >up/u.rules <<-\EOF
	bundle "up" { version "1.0.0"; }
	rule r3 when option X == "true" then note CD0001 "also on";
	extend table diagnostic_codes { "CD0001": ["also", "x is true", "-o x=true", "none"] }
	EOF
	gerules --rules rs --rules up check >out 2>err &&
	gerules --rules rs --rules up explain CD0001 >out &&
	test_grep "^CD0001: also$" out &&
	test_grep "raised by rule r3 (note) at up/u.rules:2" out
'

test_expect_success 'a rule set without the table: a code explains with its rules only' '
	rm rs/a.rules.bak 2>/dev/null; sed -i "/^table diagnostic_codes/d" rs/a.rules &&
	gerules --rules rs explain AB0002 >out &&
	test_grep "raised by rule r2 (note)" out &&
	test_grep "declares no text for AB0002" out
'

test_expect_success 'SARIF: a code with a text gets its title and fix as the rule help' '
	printf "[ByNodeName]\nnot_a_node=high_precision\n" >m.ini &&
	gerules eval "$top_srcdir/examples/llm_decoder.json" --chip Ascend910B1 -o OP_PRECISION_MODE=m.ini --format sarif >s.json &&
	"$PY" - <<-\EOF
	import json
	d = json.load(open("s.json"))
	rules = {r["id"]: r for r in d["runs"][0]["tool"]["driver"]["rules"]}
	r = rules["GE4004"]
	assert r["shortDescription"]["text"] == "[ByNodeName] entry matches no node", r
	assert "gerules explain GE4004" in r["help"]["text"], r
	EOF
'

test_done
