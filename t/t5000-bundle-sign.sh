#!/bin/sh
# t5000-bundle-sign.sh: signed bundles (`gerules bundle keygen|sign|verify`)
# and the tamper matrix: with a trust store configured, every command that
# reads a rule set refuses each kind of tampered, unsigned, expired, unknown,
# revoked or rolled-back bundle (exit 2, nothing on stdout, a message naming
# the file and the reason), and the untouched signed bundle passes every one.

test_description='bundle signatures, trust store and anti-rollback'
. "${top_srcdir:-..}/t/test-lib.sh"

GRAPH="$top_srcdir/examples/llm_decoder.json"
GERULES_STATE="$TRASH/state"; export GERULES_STATE
unset GERULES_TRUST

# every command that loads a rule set, as "NAME:ARGS..." (the rule set comes
# from --rules; @ stands for the bundle)
COMMANDS="eval:eval $GRAPH --chip Ascend910B1
tile:tile $GRAPH --chip Ascend910B1
check:check
chips:chips
options:options --chip Ascend910B1
explain:explain PRECISION_MODE
test:test @/tests/070-tiling-sink-a2.case
diff:diff @ @"

# run_all BUNDLE TRUST EXPECT_RC GREP...: runs every command with --rules BUNDLE
# --trust TRUST; each must exit EXPECT_RC; when refused (2), stdout must be
# empty and stderr must contain every GREP pattern.
run_all () {
	bundle=$1 trust=$2 want=$3
	shift 3
	echo "$COMMANDS" | while IFS=: read -r name args
	do
		rc=0
		args=$(echo "$args" | sed "s|@|$bundle|g")
		# shellcheck disable=SC2086
		"$GERULES" --trust "$trust" --rules "$bundle" $args >"$TRASH/out.$name" 2>"$TRASH/err.$name" || rc=$?
		if test "$rc" -ne "$want"; then
			echo "$name: exit $rc, expected $want"; sed 's/^/| /' "$TRASH/err.$name"; return 1
		fi
		if test "$want" -eq 2; then
			test_must_be_empty "$TRASH/out.$name" || return 1
			test_grep "refusing the rule set" "$TRASH/err.$name" || return 1
			for pat in "$@"; do test_grep "$pat" "$TRASH/err.$name" || return 1; done
		fi
	done
}

test_expect_success 'keygen writes a private secret key and a public trust line' '
	gerules bundle keygen --name "release key 1" k1 >out &&
	gerules bundle keygen --name "release key 2" k2 >>out &&
	gerules bundle keygen k3 >>out &&
	test "$(stat -c %a k1.key)" = 600 &&
	id1=$(cut -d" " -f2 k1.pub) && test ${#id1} -eq 16 &&
	test_grep "^key $id1 [A-Za-z0-9+/=]* release key 1\$" k1.pub &&
	test_grep "key $id1: secret key k1.key" out &&
	test_must_fail --exit 2 gerules bundle keygen k1 2>err &&
	test_grep "never overwritten" err
'

test_expect_success 'sign writes a manifest of every file and one signature per key' '
	cp -R "$top_srcdir/rules" good &&
	chmod -R u+w good &&
	gerules bundle sign --key k1.key --key k2.key --expires 2099-01-01 good >out &&
	test_grep "signed ge-base 1.0.0 (good) with keys" out &&
	test_grep "^bundle ge-base\$" good/MANIFEST &&
	test_grep "^version 1.0.0\$" good/MANIFEST &&
	test_grep "^cann " good/MANIFEST &&
	test_grep "^expires 2099-01-01T00:00:00Z\$" good/MANIFEST &&
	test "$(grep -c "^signer " good/MANIFEST)" = 2 &&
	test "$(grep -c "^signature " good/MANIFEST.sig)" = 2 &&
	(cd good && find . -type f ! -name "MANIFEST*" | sed "s|^\./||" | LC_ALL=C sort) >files &&
	sed -n "s/^file [0-9a-f]\{64\} //p" good/MANIFEST >listed &&
	test_cmp files listed &&
	(cd good && sha256sum chips.rules) | cut -d" " -f1 >want &&
	sed -n "s/^file \([0-9a-f]*\) chips.rules\$/\1/p" good/MANIFEST >got &&
	test_cmp want got
'

test_expect_success 'verify accepts the untouched bundle and records nothing' '
	gerules --trust k1.pub bundle verify good >out &&
	test_grep "good: ge-base 1.0.0 verified: [0-9]* files, signed by $(cut -d" " -f2 k1.pub) (release key 1); expires 2099" out &&
	test ! -e "$GERULES_STATE"
'

test_expect_success 'the untouched signed bundle passes every command' '
	run_all good k1.pub 0 &&
	test_grep "^ge-base 1.0.0\$" "$GERULES_STATE"
'

test_expect_success 'key rotation: either key of a doubly signed bundle is enough' '
	run_all good k2.pub 0 &&
	cat k1.pub k2.pub >both.pub && run_all good both.pub 0
'

test_expect_success 'the trust store: a directory, GERULES_TRUST, and a located error' '
	mkdir tdir && cp k3.pub k2.pub tdir/ &&
	run_all good tdir 0 &&
	GERULES_TRUST="$TRASH/k3.pub:$TRASH/k1.pub" gerules --rules good chips >/dev/null &&
	GERULES_TRUST="$TRASH/k3.pub" test_must_fail --exit 2 gerules --rules good chips >out 2>err &&
	test_must_be_empty out && test_grep "unknown key" err &&
	printf "key 0123456789abcdef AAAA broken\n" >bad.pub &&
	test_must_fail --exit 2 gerules --trust bad.pub --rules good chips >out 2>err &&
	test_must_be_empty out &&
	test_grep "^bad.pub:1:22: error: malformed public key" err
'

# tamper CASE: makes the directory CASE from a copy of good and breaks it
tamper () {
	rm -rf "$1" && cp -R good "$1" && chmod -R u+w "$1"
}

test_expect_success 'tamper: unsigned bundle' '
	tamper unsigned && rm unsigned/MANIFEST unsigned/MANIFEST.sig &&
	run_all unsigned k1.pub 2 "unsigned: error: the bundle is not signed"
'

test_expect_success 'tamper: signatures removed' '
	tamper nosig && rm nosig/MANIFEST.sig &&
	run_all nosig k1.pub 2 "nosig/MANIFEST.sig: error: the bundle is not signed"
'

test_expect_success 'tamper: signature bytes changed' '
	tamper badsig &&
	awk "NR==2 { \$4 = substr(\$4, 1, 10) (substr(\$4, 11, 1) == \"A\" ? \"B\" : \"A\") substr(\$4, 12) } { print }" \
		good/MANIFEST.sig >badsig/MANIFEST.sig &&
	! cmp -s good/MANIFEST.sig badsig/MANIFEST.sig &&
	run_all badsig k1.pub 2 "badsig/MANIFEST.sig:2:1: error: the signature by key .* does not match MANIFEST"
'

test_expect_success 'tamper: manifest edited after signing' '
	tamper edited && sed -i "s/^expires .*/expires 2199-01-01T00:00:00Z/" edited/MANIFEST &&
	run_all edited k1.pub 2 "edited/MANIFEST.sig:2:1: error: the signature by key .* does not match MANIFEST"
'

test_expect_success 'tamper: a file changed' '
	tamper changed && echo "# one more line" >>changed/chips.rules &&
	run_all changed k1.pub 2 "changed/chips.rules: error: changed since the bundle was signed"
'

test_expect_success 'tamper: a file added (even one the loader would not read)' '
	tamper added && echo "notes" >added/notes.txt &&
	run_all added k1.pub 2 "added/notes.txt: error: added since the bundle was signed"
'

test_expect_success 'tamper: a file removed' '
	tamper removed && rm removed/checks.rules &&
	run_all removed k1.pub 2 "removed/checks.rules: error: removed since the bundle was signed"
'

test_expect_success 'tamper: a file renamed' '
	tamper renamed && mv renamed/tiling_classes.rules renamed/zz.rules &&
	run_all renamed k1.pub 2 "renamed/tiling_classes.rules: error: renamed to zz.rules" \
		"renamed/zz.rules: error: not in the signed manifest .*renamed from tiling_classes.rules"
'

test_expect_success 'tamper: a symbolic link in the bundle' '
	tamper linked && ln -s chips.rules linked/more.txt &&
	run_all linked k1.pub 2 "linked/more.txt: error: a symbolic link in the bundle"
'

test_expect_success 'tamper: an expired bundle' '
	tamper expired && gerules bundle sign --key k1.key --expires 2001-01-01 expired >/dev/null &&
	run_all expired k1.pub 2 "expired/MANIFEST: error: bundle ge-base 1.0.0 expired on 2001-01-01T00:00:00Z"
'

test_expect_success 'tamper: signed by an unknown key' '
	tamper unknown && gerules bundle sign --key k3.key unknown >/dev/null &&
	run_all unknown k1.pub 2 "unknown/MANIFEST.sig: error: signed only by unknown key $(cut -d" " -f2 k3.pub)"
'

test_expect_success 'tamper: signed by a revoked key (even with a trusted co-signer)' '
	{ cat k1.pub k2.pub; echo "revoked $(cut -d" " -f2 k2.pub) key leaked"; } >revoking.pub &&
	run_all good revoking.pub 2 "good/MANIFEST.sig: error: signed by key $(cut -d" " -f2 k2.pub), which is revoked (revoking.pub:3: key leaked)"
'

test_expect_success 'tamper: an include that leaves the bundle' '
	echo "# outside the bundle" >outside.rules &&
	tamper escape && echo "include \"../outside.rules\";" >>escape/bundle.rules &&
	gerules bundle sign --key k1.key escape >/dev/null &&
	run_all escape k1.pub 2 "outside.rules: error: outside every signed bundle"
'

test_expect_success 'anti-rollback: an older version than one accepted before' '
	tamper newer && sed -i "s/version \"1.0.0\"/version \"1.1.0\"/" newer/bundle.rules &&
	gerules bundle sign --key k1.key newer >/dev/null &&
	run_all newer k1.pub 0 &&
	test_grep "^ge-base 1.1.0\$" "$GERULES_STATE" &&
	run_all good k1.pub 2 "good/MANIFEST: error: bundle ge-base 1.0.0 is older than version 1.1.0 accepted before" \
		"allow the downgrade to use it anyway (--allow-downgrade; gerules_load_options_set_allow_downgrade in C; Rules(allow_downgrade=True) in Python)"
'

test_expect_success '--allow-downgrade accepts the older bundle explicitly and keeps the newest recorded' '
	gerules --allow-downgrade --trust k1.pub --rules good chips >out &&
	test -s out &&
	test_grep "^ge-base 1.1.0\$" "$GERULES_STATE" &&
	gerules --trust k1.pub bundle verify good >out 2>err; test $? -eq 2 &&
	test_grep "older than version 1.1.0" err
'

test_expect_success 'a refused bundle changes nothing: the last verified one stays usable' '
	tamper newer2 && sed -i "s/version \"1.0.0\"/version \"2.0.0\"/" newer2/bundle.rules &&
	gerules bundle sign --key k1.key newer2 >/dev/null &&
	echo "# tampered" >>newer2/modes.rules &&
	run_all newer2 k1.pub 2 "newer2/modes.rules: error: changed since" &&
	test_grep "^ge-base 1.1.0\$" "$GERULES_STATE" &&
	run_all newer k1.pub 0
'

test_expect_success 'the state file is replaced whole, one line per bundle name' '
	sed "/^#/d" "$GERULES_STATE" >lines &&
	echo "ge-base 1.1.0" >want &&
	test_cmp want lines &&
	test "$(stat -c %a "$GERULES_STATE")" = 600
'

test_expect_success 'without a trust store nothing is verified (unsigned bundles load)' '
	gerules --rules unsigned chips >out && test -s out
'

test_expect_success 'sign refuses a bundle with errors and a bundle without a semantic version' '
	mkdir broken && printf "bundle \"b\" { version \"1\"; }\n" >broken/bundle.rules &&
	test_must_fail --exit 2 gerules bundle sign --key k1.key broken 2>err &&
	test_grep "semantic version" err &&
	test ! -e broken/MANIFEST &&
	printf "bundle \"b\" { version \"1.0.0\"; }\nnonsense\n" >broken/bundle.rules &&
	test_must_fail --exit 2 gerules bundle sign --key k1.key broken 2>err &&
	test_grep "broken/bundle.rules:2:" err && test ! -e broken/MANIFEST
'

test_done
