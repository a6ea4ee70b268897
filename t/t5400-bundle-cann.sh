#!/bin/sh
# t5400-bundle-cann.sh: choosing among installed releases of one bundle by
# the CANN release in use. Stages this build's binary and rules the way
# `make install DESTDIR=...` lays them out (bindir, pkgdatadir/rules), with
# three releases of the example vendor bundle in pkgdatadir/bundles, each
# describing different CANN releases; then `--rules acme` takes the newest
# release whose range holds --cann, or the graph's atc_version/opp_version,
# says which, and warns naming the nearest when no release covers it.

test_description='installed bundle releases chosen by CANN release'
. "${top_srcdir:-..}/t/test-lib.sh"

: "${top_builddir:=$(dirname "$(dirname "$GERULES")")}"
MAKE=${MAKE:-make}
ACME="$top_srcdir/examples/vendor/acme"
unset GERULES_TRUST

# bindir and pkgdatadir as make expands them
printf 'gr-print-dirs:\n\t@echo "$(bindir)"; echo "$(pkgdatadir)"\n' >print.mk
{ read -r BINDIR && read -r PKGDATADIR; } <<EOF
$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $MAKE -s --no-print-directory -C "$top_builddir" -f Makefile -f "$TRASH/print.mk" gr-print-dirs)
EOF
STAGE=$TRASH/stage
BIN=$STAGE$BINDIR/gerules
DATA=$STAGE$PKGDATADIR

# release VERSION RANGE [DIR]: installs the example bundle as that release
release () {
	d=$DATA/bundles/${3:-acme-$1}
	mkdir -p "$d/tests" &&
	sed -e "s/^    version \"[^\"]*\";/    version \"$1\";/" -e "s/^    cann \"[^\"]*\";/    cann \"$2\";/" \
		"$ACME/acme.rules" >"$d/acme.rules" &&
	cp "$ACME"/tests/* "$d/tests/"
}

# staged ARGS...: the staged binary, with no hint of the rules' place
staged () { env -u GERULES_RULES "$BIN" "$@"; }

# model ATTR VALUE: the vendor's test model, recording a CANN release
model () {
	sed "1s/^{\$/{ \"attr\": [{\"key\": \"$1\", \"value\": {\"s\": \"$2\"}}],/" "$ACME/tests/acme_model.json"
}

test_expect_success 'stage a binary, the rules and three releases of a vendor bundle' '
	test -n "$BINDIR" && test -n "$PKGDATADIR" &&
	mkdir -p "$(dirname "$BIN")" && cp "$GERULES" "$BIN" &&
	mkdir -p "$DATA" && cp -R "$top_srcdir/rules" "$DATA/rules" &&
	release 1.0.0 ">=8.0.RC2, <8.1.RC1" &&
	release 1.1.0 ">=8.1.RC1, <=9.1" &&
	release 1.2.0 ">=9.2, <10" &&
	model atc_version 8.0.RC3 >m803.json &&
	model opp_version 9.3.0 >m930.json &&
	cp "$ACME/tests/acme_model.json" plain.json &&
	staged --rules "$DATA/rules" --rules acme check >out &&
	test_grep "acme 1.2.0" out
'

test_expect_success '--cann picks the newest release whose range holds it, and says so' '
	staged --cann 8.0.RC3 --rules "$DATA/rules" --rules acme eval plain.json --chip ACME_SOC >out 2>err &&
	test_grep "^gerules: note: bundle .acme.: using 1.0.0 ($DATA/bundles/acme-1.0.0), the newest of 3 installed releases whose CANN range (>=8.0.RC2, <8.1.RC1) contains 8.0.RC3 (--cann)\$" err &&
	head -n 1 out >h && test_grep "+ acme 1.0.0 ($DATA/bundles/acme-1.0.0)\$" h &&
	staged --rules "$DATA/rules" --rules acme --cann=9.1 chips >out 2>err &&
	test_grep "using 1.1.0 .* contains 9.1 (--cann)" err &&
	staged --cann 9.5 --rules "$DATA/rules" --rules acme chips --format json >out 2>err &&
	test_grep "using 1.2.0 .* contains 9.5 (--cann)" err
'

test_expect_success 'without --cann, the graph atc_version or opp_version chooses' '
	staged --rules "$DATA/rules" --rules acme eval m803.json --chip ACME_SOC >out 2>err &&
	test_grep "using 1.0.0 .* contains 8.0.RC3 (the atc_version of m803.json)\$" err &&
	head -n 1 out >h && test_grep "+ acme 1.0.0 " h &&
	staged --rules "$DATA/rules" --rules acme tile m930.json --chip ACME_SOC >out 2>err &&
	test_grep "using 1.2.0 .* contains 9.3.0 (the opp_version of m930.json)\$" err
'

test_expect_success 'gerules atc: the model named by --model chooses, said once' '
	staged --rules "$DATA/rules" --rules acme atc --output=out --model=m803.json --soc_version=ACME_SOC >out 2>err &&
	grep "^gerules: note: bundle .acme.: using" err >notes &&
	test $(wc -l <notes) = 1 &&
	test_grep "using 1.0.0 .* contains 8.0.RC3 (the atc_version of m803.json)\$" notes &&
	head -n 1 out >h && test_grep "+ acme 1.0.0 " h &&
	staged --rules "$DATA/rules" --rules acme atc --output=out -model m930.json --soc_version ACME_SOC >out 2>err &&
	test $(grep -c "^gerules: note: bundle .acme.: using" err) = 1 &&
	test_grep "using 1.2.0 .* contains 9.3.0 (the opp_version of m930.json)\$" err &&
	staged --cann 8.1.RC1 --rules "$DATA/rules" --rules acme atc --output=out --model=m803.json --soc_version=ACME_SOC >out 2>err &&
	test $(grep -c "^gerules: note: bundle .acme.: using" err) = 1 &&
	test_grep "using 1.1.0 .* contains 8.1.RC1 (--cann)\$" err &&
	staged --rules "$DATA/rules" --rules acme atc --output=out --model=plain.json --soc_version=ACME_SOC >out 2>err &&
	test_grep "the newest of 3 installed releases (no --cann, and the graph records no CANN release)\$" err
'

test_expect_success '--cann wins over the graph' '
	staged --cann 8.1.RC1 --rules "$DATA/rules" --rules acme eval m803.json --chip ACME_SOC >out 2>err &&
	test_grep "using 1.1.0 .* contains 8.1.RC1 (--cann)\$" err &&
	! grep -q "atc_version" err
'

test_expect_success 'no CANN release known: the newest, said so' '
	staged --rules "$DATA/rules" --rules acme eval plain.json --chip ACME_SOC >out 2>err &&
	test_grep "^gerules: note: bundle .acme.: using 1.2.0 (.*acme-1.2.0), the newest of 3 installed releases (no --cann, and the graph records no CANN release)\$" err &&
	staged --rules "$DATA/rules" --rules acme chips >out 2>err &&
	test_grep "the newest of 3 installed releases (no --cann)\$" err
'

test_expect_success 'a release no installed bundle covers: a warning naming the nearest' '
	staged --cann 7.0.0 --rules "$DATA/rules" --rules acme eval plain.json --chip ACME_SOC >out 2>err &&
	test_grep "^gerules: warning: no installed release of bundle .acme. describes CANN 7.0.0 (--cann); using the nearest, 1.0.0 (.*acme-1.0.0, CANN >=8.0.RC2, <8.1.RC1)\$" err &&
	head -n 1 out >h && test_grep "+ acme 1.0.0 " h &&
	staged --cann 9.1.5 --rules "$DATA/rules" --rules acme chips >out 2>err &&
	test_grep "describes CANN 9.1.5 (--cann); using the nearest, 1.1.0 " err &&
	staged --cann 11.0 --rules "$DATA/rules" --rules acme chips >out 2>err &&
	test_grep "describes CANN 11.0 (--cann); using the nearest, 1.2.0 " err &&
	model atc_version 10.1.RC1 >m10.json &&
	staged --rules "$DATA/rules" --rules acme eval m10.json --chip ACME_SOC >out 2>err &&
	test_grep "describes CANN 10.1.RC1 (the atc_version of m10.json); using the nearest, 1.2.0 " err
'

test_expect_success 'a malformed --cann is a usage error' '
	test_must_fail --exit 2 staged --cann 8.x..1 --rules acme chips >out 2>err &&
	test_must_be_empty out &&
	test_grep "error: --cann: .8.x..1. is not a CANN release" err
'

test_expect_success 'one installed release: silent without --cann, a warning when it does not cover it' '
	rm -rf "$DATA/bundles" && release 1.1.0 ">=8.1.RC1, <=9.1" acme &&
	staged --rules "$DATA/rules" --rules acme eval m803.json --chip ACME_SOC >out 2>err &&
	test_must_be_empty err &&
	staged --cann 8.0.RC3 --rules "$DATA/rules" --rules acme chips >out 2>err &&
	test_grep "no installed release of bundle .acme. describes CANN 8.0.RC3 (--cann); using the nearest, 1.1.0 ($DATA/bundles/acme, " err
'

test_done
