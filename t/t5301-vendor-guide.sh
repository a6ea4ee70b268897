#!/bin/sh
# t5301-vendor-guide.sh: doc/vendor-guide.md as a vendor follows it. Installs
# this build with `make install DESTDIR=...` (the base bundle signed by the
# build's release key, its public key in the trust folder, the worked example
# installed), then runs every ```sh block of the guide, in order and as
# written, as one shell script from an empty directory with the installed
# gerules first on PATH: a vendor goes from a fresh install to a signed,
# verified layer that adds SoCs. Any failing command fails the test; so does
# a final `bundle verify` that does not verify. An output block the guide
# shows right after a command block (a plain ``` block) must be what that
# block printed. The only things the test provides are what the guide says
# comes from outside: GERULES_DATA (the staged install's DATADIR/gerules) and
# ASCEND_TOOLKIT_HOME (a CANN tree laid out from t/data, as CANN's set_env.sh
# would name one).

test_description='the vendor guide, every command, in order, against an installed gerules'
. "${top_srcdir:-..}/t/test-lib.sh"

: "${top_builddir:=$(dirname "$(dirname "$GERULES")")}"
MAKE=${MAKE:-make}
GUIDE="$top_srcdir/doc/vendor-guide.md"
STAGE=$TRASH/stage

# bindir and pkgdatadir as make expands them
printf 'gr-print-dirs:\n\t@echo "$(bindir)"; echo "$(pkgdatadir)"\n' >print.mk
{ read -r BINDIR && read -r PKGDATADIR; } <<EOF
$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $MAKE -s --no-print-directory -C "$top_builddir" -f Makefile -f "$TRASH/print.mk" gr-print-dirs)
EOF

# The guide's command blocks as one script (each block's output kept in
# block-N.out, its standard error in block-N.err) and each output block that
# follows a command block as want-N.
extract () {
	awk -v dir="$TRASH" '
		/^```sh[[:space:]]*$/ && !inblock { inblock = "sh"; n++; printf "echo \"## block %d\" >&2\n{\n", n; next }
		/^```[[:space:]]*$/ && !inblock {
			if (pending) { inblock = "out"; out = dir "/want-" n; printf "" > out; next }
			inblock = "other"; next
		}
		/^```/ && inblock {
			if (inblock == "sh") { printf "} >\"%s/block-%d.out\" 2>\"%s/block-%d.err\"\n", dir, n, dir, n; pending = 1 }
			else if (inblock == "out") { close(out); pending = 0 }
			inblock = ""; next
		}
		/^```/ && !inblock { inblock = "other"; pending = 0; next }
		inblock == "sh" { print; next }
		inblock == "out" { print > out; next }
		inblock == "other" { next }
		/^[[:space:]]*$/ { next }
		{ pending = 0 }
	' "$GUIDE"
}

test_expect_success 'make install DESTDIR=...: the base bundle signed, its key in the trust folder' '
	$MAKE -C "$top_builddir" install DESTDIR="$STAGE" >make.out 2>&1 &&
	D=$STAGE$PKGDATADIR &&
	test -f "$D/rules/MANIFEST" && test -f "$D/rules/MANIFEST.sig" &&
	ls "$D/trust" >keys && test -s keys &&
	test -f "$D/examples/vendor/acme/MANIFEST" &&
	test ! -e "$D/trust/ge-base-build.key" &&
	! grep -l "gerules-secret-key" "$D"/trust/* "$D"/rules/* 2>/dev/null
'

# installed ARGS...: the staged gerules with its own data and nothing else
installed () {
	env -u GERULES_RULES -u GERULES_CODES -u GERULES_TRUST GERULES_STATE="$TRASH/state" \
		"$STAGE$BINDIR/gerules" "$@"
}

test_expect_success 'the installed gerules verifies its base bundle by default' '
	installed bundle verify "$STAGE$PKGDATADIR/rules" >out 2>err &&
	test_must_be_empty err &&
	test_grep "ge-base [0-9.]* verified: .* signed by [0-9a-f]\{16\} (ge-base build key" out &&
	installed check >out 2>err &&
	test_grep "ok\$" out
'

test_expect_success '... and refuses a changed installed rule file' '
	cp -R "$STAGE" "$TRASH/tampered" &&
	echo "# changed" >>"$TRASH/tampered$PKGDATADIR/rules/chips.rules" &&
	test_must_fail --exit 2 env -u GERULES_RULES -u GERULES_CODES -u GERULES_TRUST GERULES_STATE="$TRASH/state" \
		"$TRASH/tampered$BINDIR/gerules" chips >out 2>err &&
	test_grep "chips.rules" err &&
	test_grep "refusing the rule set" err
'

test_expect_success '... and without its trust folder behaves as before: nothing verified' '
	cp -R "$STAGE" "$TRASH/notrust" &&
	rm -rf "$TRASH/notrust$PKGDATADIR/trust" &&
	echo "# changed" >>"$TRASH/notrust$PKGDATADIR/rules/chips.rules" &&
	env -u GERULES_RULES -u GERULES_CODES -u GERULES_TRUST GERULES_STATE="$TRASH/state" \
		"$TRASH/notrust$BINDIR/gerules" chips >out 2>err &&
	test_must_be_empty err &&
	test_must_fail --exit 2 env -u GERULES_RULES -u GERULES_CODES -u GERULES_TRUST \
		"$TRASH/notrust$BINDIR/gerules" bundle verify "$TRASH/notrust$PKGDATADIR/rules" 2>err &&
	test_grep "no trust store" err
'

# The release-key rotation of the guide's section 4, with packager keys given
# to make install (what configure --with-release-key and --with-release-trust
# substitute): co-signed by the old and the new key, the installed bundle is
# accepted by a trust store holding either; with the old key revoked, a
# bundle it still signs is refused, and one signed by the new key alone is not;
# make uninstall removes what the hook installed.
test_expect_success 'release keys of a packager: two keys sign at once, both public keys installed' '
	mkdir rkeys &&
	"$GERULES" bundle keygen --name "old release key" rkeys/old >/dev/null &&
	"$GERULES" bundle keygen --name "new release key" rkeys/new >/dev/null &&
	old=$(sed -n "s/^key \([0-9a-f]*\) .*/\1/p" rkeys/old.pub) &&
	new=$(sed -n "s/^key \([0-9a-f]*\) .*/\1/p" rkeys/new.pub) &&
	echo "revoked $old retired after the 2026 rotation" >rkeys/revoke-old &&
	$MAKE -C "$top_builddir" install DESTDIR="$TRASH/rot1" \
		RELEASE_KEYS="$TRASH/rkeys/old.key $TRASH/rkeys/new.key" >rot1.out 2>&1 &&
	R1=$TRASH/rot1$PKGDATADIR &&
	ls "$R1/trust" >got && printf "new.pub\nold.pub\n" >want && test_cmp want got &&
	grep "^signer $old\$" "$R1/rules/MANIFEST" && grep "^signer $new\$" "$R1/rules/MANIFEST" &&
	"$GERULES" --trust rkeys/old.pub bundle verify "$R1/rules" >out &&
	"$GERULES" --trust rkeys/new.pub bundle verify "$R1/rules" >out
'

test_expect_success '... the next release: the new key alone, the old one revoked' '
	old=$(sed -n "s/^key \([0-9a-f]*\) .*/\1/p" rkeys/old.pub) &&
	new=$(sed -n "s/^key \([0-9a-f]*\) .*/\1/p" rkeys/new.pub) &&
	R1=$TRASH/rot1$PKGDATADIR &&
	test_must_fail --exit 2 "$GERULES" --trust rkeys/new.pub --trust rkeys/revoke-old bundle verify "$R1/rules" 2>err &&
	test_grep "signed by key $old, which is revoked (.*revoke-old:1: retired after the 2026 rotation)" err &&
	$MAKE -C "$top_builddir" install DESTDIR="$TRASH/rot2" \
		RELEASE_KEYS="$TRASH/rkeys/new.key" RELEASE_TRUST="$TRASH/rkeys/revoke-old" >rot2.out 2>&1 &&
	R2=$TRASH/rot2$PKGDATADIR &&
	ls "$R2/trust" >got && printf "new.pub\nrevoke-old\n" >want && test_cmp want got &&
	env -u GERULES_RULES -u GERULES_CODES -u GERULES_TRUST GERULES_STATE="$TRASH/state" \
		"$TRASH/rot2$BINDIR/gerules" bundle verify "$R2/rules" >out &&
	test_grep "signed by $new (new release key)" out &&
	$MAKE -C "$top_builddir" uninstall DESTDIR="$TRASH/rot2" \
		RELEASE_KEYS="$TRASH/rkeys/new.key" RELEASE_TRUST="$TRASH/rkeys/revoke-old" >un.out 2>&1 &&
	test ! -e "$R2/rules/MANIFEST" && test ! -e "$R2/trust/new.pub" && test ! -e "$R2/trust/revoke-old"
'

test_expect_success 'the guide has command blocks, and output blocks after some of them' '
	extract >guide.sh &&
	grep -c "^## block\|^echo \"## block" guide.sh >nblocks &&
	test "$(cat nblocks)" -ge 8 &&
	ls want-* >wants && test -s wants
'

test_expect_success 'every command of the guide runs, in order, as written' '
	mkdir -p work home "cann" &&
	sh "$top_srcdir/t/data/cann-8.1.RC1-opinfo/tree.sh" "$TRASH/cann" &&
	echo "Version=8.1.RC1" >"$TRASH/cann/opp/version.info" &&
	(
		cd work &&
		PATH="$STAGE$BINDIR:$PATH" &&
		GERULES_DATA="$STAGE$PKGDATADIR" &&
		ASCEND_TOOLKIT_HOME="$TRASH/cann" &&
		HOME="$TRASH/home" &&
		export PATH GERULES_DATA ASCEND_TOOLKIT_HOME HOME &&
		unset GERULES_RULES GERULES_CODES GERULES_TRUST GERULES_STATE XDG_STATE_HOME &&
		sh -e ../guide.sh 2>../guide.err
	) || { tail -n 30 guide.err; for f in block-*.err; do echo "== $f"; tail -n 5 "$f"; done; false; }
'

test_expect_success 'the guide'"'"'s shown outputs are what its commands print' '
	for w in want-*
	do
		n=${w#want-} &&
		test_cmp "$w" "block-$n.out" || return 1
	done
'

test_expect_success 'the layer the guide ends with is signed by the vendor key and verifies' '
	(
		cd work &&
		env -u GERULES_RULES -u GERULES_CODES -u GERULES_TRUST HOME="$TRASH/home" \
			"$STAGE$BINDIR/gerules" --trust trust --rules rules --rules examples/vendor/acme \
			bundle verify examples/vendor/acme >../verify.out 2>../verify.err
	) &&
	test_must_be_empty verify.err &&
	id=$(sed -n "s/^key \([0-9a-f]*\) .*/\1/p" work/acme-release.pub) &&
	test -n "$id" &&
	test_grep "^examples/vendor/acme: acme 1.1.0 verified: 7 files, signed by $id (ACME release key 2026); expires 2036-01-01" verify.out &&
	grep "^signer $id\$" work/examples/vendor/acme/MANIFEST &&
	! grep -q "^signer 4479c26fd1b33412" work/examples/vendor/acme/MANIFEST
'

test_expect_success '... and its new SoCs are in the stack the installed gerules uses, the a2 line keeping its own' '
	(
		cd work &&
		env -u GERULES_RULES -u GERULES_CODES -u GERULES_TRUST HOME="$TRASH/home" GERULES_TRUST="$TRASH/work/trust" \
			"$STAGE$BINDIR/gerules" --rules rules --rules examples/vendor/acme chips >../chips.out 2>../chips.err
	) &&
	test_must_be_empty chips.err &&
	test_grep "^acme  *ACME_SOC_PRO " chips.out &&
	test_grep "^a2  *ACME_A2_BOARD " chips.out &&
	for soc in Ascend910B1 Ascend910B2 Ascend910B3 Ascend910B4
	do
		test_grep "^a2  *$soc " chips.out || return 1
	done
'

test_done
