#!/bin/sh
# t5302-build-tree-trust.sh: a gerules built from source, then installed to
# its configured prefix (so that prefix's trust folder holds the release
# key), and run again from its build tree. The build-tree binary reads its
# tree's unsigned rules/ and must not take the installed trust folder, which
# is for the installed rules; an installed-like copy of the same binary (no
# build tree next to it) must take it, which shows the folder is live.
# `--trust none` / GERULES_TRUST=none verifies nothing, and only alone.
#
# The trust folder is the configured pkgdatadir/trust. When it already holds
# a key (gerules is installed on this machine) the test uses it as it is;
# otherwise it creates it with a key of its own and removes everything it
# created when it ends (CI runs as root on a fresh machine).
test_description='a build-tree gerules and the installed trust folder of its prefix'
. "${top_srcdir:-..}/t/test-lib.sh"

: "${top_builddir:=$(dirname "$(dirname "$GERULES")")}"
MAKE=${MAKE:-make}
unset GERULES_TRUST

printf 'gr-print-dirs:\n\t@echo "$(pkgdatadir)"\n' >print.mk
PKGDATADIR=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $MAKE -s --no-print-directory -C "$top_builddir" -f Makefile -f "$TRASH/print.mk" gr-print-dirs)
TRUSTDIR=$PKGDATADIR/trust

# the first missing ancestor of the trust folder: what this test creates
created=
if test -z "$(ls -A "$TRUSTDIR" 2>/dev/null)"
then
	d=$TRUSTDIR
	while ! test -e "$d"; do created=$d; d=$(dirname "$d"); done
	if mkdir -p "$TRUSTDIR" 2>/dev/null && gerules bundle keygen site >/dev/null &&
		cp site.pub "$TRUSTDIR/site.pub"
	then
		test -n "$created" || created=$TRUSTDIR/site.pub
		trap 'rm -rf "$created"; test -n "$GR_TEST_KEEP" || rm -rf "$TRASH"' EXIT
	else
		test_lazy_prereq TRUST_FOLDER 'false' "cannot create $TRUSTDIR (run as a user who can, as CI does)"
		test_skip_unless TRUST_FOLDER
	fi
fi

# an installed-like copy: the same binary with no build tree beside it
mkdir bin && cp "$GERULES" bin/gerules

test_expect_success 'the installed trust folder is live: an installed-like gerules refuses the unsigned tree rules' '
	test_must_fail --exit 2 bin/gerules --rules "$top_srcdir/rules" chips >out 2>err &&
	test_must_be_empty out &&
	test_grep "refusing the rule set" err
'

test_expect_success 'the build-tree gerules does not read it: the tree rules load, by path and by default' '
	gerules --rules "$top_srcdir/rules" chips >out 2>err &&
	test_grep "^a2  *Ascend910B1 " out &&
	test_must_be_empty err &&
	env -u GERULES_RULES "$GERULES" chips >out2 &&
	test_cmp out out2
'

test_expect_success 'the build-tree gerules evaluates the README example' '
	(cd "$top_srcdir" && "$GERULES" --rules rules eval examples/llm_decoder.json --chip Ascend910B1) >out &&
	test_grep "^summary: 63 nodes, 0 errors" out
'

test_expect_success 'bundle verify from the build tree says why there is no trust store' '
	test_must_fail --exit 2 gerules bundle verify "$top_srcdir/rules" 2>err &&
	test_grep "a gerules run from its build tree does not read the installed trust folder" err
'

test_expect_success '--trust none and GERULES_TRUST=none verify nothing, whatever the folder holds' '
	bin/gerules --trust none --rules "$top_srcdir/rules" chips >out &&
	test_grep "^a2  *Ascend910B1 " out &&
	GERULES_TRUST=none bin/gerules --rules "$top_srcdir/rules" chips >out &&
	test_grep "^a2  *Ascend910B1 " out
'

test_expect_success '"none" beside a real trust store is an error, not a file name' '
	gerules bundle keygen k2 >/dev/null &&
	test_must_fail --exit 2 bin/gerules --trust none --trust k2.pub --rules "$top_srcdir/rules" chips >out 2>err &&
	test_must_be_empty out &&
	test_grep "'"'"'none'"'"' (verify nothing) cannot be combined with a trust store" err &&
	test_must_fail --exit 2 env GERULES_TRUST="none:$TRASH/k2.pub" bin/gerules --rules "$top_srcdir/rules" chips 2>err &&
	test_grep "GERULES_TRUST: '"'"'none'"'"'" err
'

test_done
