#!/bin/sh
# t1106-hardening-trust.sh: hardening round 3 (issue 30), the trust store and
# the bounded inputs, each reproduction as it was attacked:
#  - no file gerules creates or replaces is opened through a symbolic link:
#    a planted S.lock -> victim creates nothing, a symlinked or non-regular
#    state file is refused (never silently replaced);
#  - versions never wrap: an overflowing recorded version is an error;
#  - every input is checked to be a regular file before any blocking read: a
#    FIFO as MANIFEST, state, --trust, graph or atc --model is refused at once,
#    and a file that cannot be mapped is an error, never read whole;
#  - a MANIFEST of 300,000 lines is verified (linear growth and lookups).
# The verify-what-you-parse rule (one read per bundle file) is t/t0501.
test_description='hardening: state file links, version overflow, FIFOs and sparse files'
. "$(dirname "$0")/test-lib.sh"

GERULES_STATE="$TRASH/st/S"; export GERULES_STATE
unset GERULES_TRUST

# load TRUST BUNDLE: loads BUNDLE under TRUST (the chips command)
load () { gerules --trust "$1" --rules "$2" chips; }

test_expect_success 'setup: a small signed bundle' '
	gerules bundle keygen k >/dev/null &&
	mkdir b st &&
	echo "bundle \"mini\" { version \"1.0.0\"; }" >b/bundle.rules &&
	gerules bundle sign --key k.key --expires 2099-01-01 b >/dev/null &&
	load k.pub b >out &&
	test_grep "^mini 1.0.0\$" "$GERULES_STATE"
'

# ---- files gerules creates or replaces: never through a link ----

test_expect_success 'a planted S.lock symlink is refused and creates nothing' '
	rm -f st/S st/S.lock &&
	ln -s "$TRASH/victim" st/S.lock &&
	load k.pub b >out 2>err &&
	test_grep "st/S.lock: warning: the anti-rollback lock is a symbolic link: refusing to follow it" err &&
	test_grep "the anti-rollback state was not updated" err &&
	test ! -e victim && test -L st/S.lock && test ! -e st/S
'

test_expect_success 'a symlinked state file is refused, not read through nor replaced' '
	rm -f st/S st/S.lock &&
	echo "mini 9.0.0" >elsewhere &&
	ln -s "$TRASH/elsewhere" st/S &&
	test_must_fail --exit 2 load k.pub b >out 2>err &&
	test_must_be_empty out &&
	test_grep "st/S: error: the anti-rollback state is a symbolic link, not a regular file: refusing it" err &&
	test -L st/S && test "$(cat elsewhere)" = "mini 9.0.0"
'

test_expect_success 'a FIFO as the state file is refused at once (no writer: no hang)' '
	rm -f st/S st/S.lock && mkfifo st/S &&
	test_must_fail --exit 2 load k.pub b >out 2>err &&
	test_grep "st/S: error: the anti-rollback state is a FIFO, not a regular file" err &&
	test -p st/S
'

test_expect_success 'the replaced state file is a fresh regular file of mode 600 and no temporary is left' '
	rm -f st/S st/S.lock &&
	load k.pub b >/dev/null &&
	test -f st/S && ! test -L st/S && test "$(stat -c %a st/S)" = 600 &&
	ls -a st >list && test "$(grep -c tmp list)" = 0
'

# ---- versions compared without overflow ----

test_expect_success 'an overflowing recorded version is an error, never a wrap below 1.0.0' '
	printf "mini 99999999999999999999999.0.0\n" >st/S &&
	test_must_fail --exit 2 load k.pub b >out 2>err &&
	test_must_be_empty out &&
	test_grep "st/S:1:6: error: malformed version .99999999999999999999999.0.0. in the anti-rollback state" err &&
	test_grep "refusing the rule set" err
'

test_expect_success 'an 18-digit component is compared exactly: the bundle is older' '
	printf "mini 999999999999999999.0.0\n" >st/S &&
	test_must_fail --exit 2 load k.pub b >out 2>err &&
	test_grep "is older than version 999999999999999999.0.0 accepted before" err
'

test_expect_success 'a UTF-8 BOM before the state file is accepted' '
	printf "\357\273\277mini 0.9.0\n" >st/S &&
	load k.pub b >out &&
	test_grep "^mini 1.0.0\$" st/S
'

# ---- regular files only, before any blocking read ----

test_expect_success 'a FIFO as MANIFEST is refused at once' '
	cp -R b fifo && rm fifo/MANIFEST && mkfifo fifo/MANIFEST &&
	test_must_fail --exit 2 load k.pub fifo >out 2>err &&
	test_grep "fifo/MANIFEST: error: cannot read the manifest: not a regular file (a FIFO)" err
'

test_expect_success 'a FIFO or /dev/zero as --trust is refused at once' '
	mkfifo trust.fifo &&
	test_must_fail --exit 2 load trust.fifo b >out 2>err &&
	test_grep "trust.fifo: error: .*not a regular file (a FIFO)" err &&
	test_must_fail --exit 2 load /dev/zero b >out 2>err &&
	test_grep "/dev/zero: error: .*not a regular file (a character device)" err
'

test_expect_success 'a FIFO or /dev/zero as the graph is refused at once' '
	mkfifo graph.fifo &&
	test_must_fail --exit 2 gerules eval graph.fifo --chip Ascend910B1 >out 2>err &&
	test_must_be_empty out &&
	test_grep "^graph.fifo: error: not a regular file (a FIFO)" err &&
	test_must_fail --exit 2 gerules eval /dev/zero --chip Ascend910B1 >out 2>err &&
	test_grep "^/dev/zero: error: not a regular file (a character device)" err &&
	test_must_fail --exit 2 gerules eval - --chip Ascend910B1 </dev/zero >out 2>err &&
	test_grep "^<stdin>: error: not a regular file (a character device)" err
'

# An endless pipe as the graph: read up to the 2 GiB stream cap, never more
# (the buffer grows to the cap, not past it), then the error with the byte
# offset; exit 2, never an abort for memory.
test_expect_success 'an endless pipe as the graph stops at the stream cap with the byte offset' '
	{ yes " " | gerules eval - --chip Ascend910B1 >out 2>err; rc=$?; } &&
	test $rc = 2 && test_must_be_empty out &&
	echo "<stdin>: error: at byte 2147483648: the file is larger than the limit of 2147483648 bytes for this kind of input" >expect &&
	test_cmp expect err
'

test_expect_success 'a FIFO or /dev/zero as atc --model is refused at once' '
	test_must_fail --exit 2 gerules atc --model=graph.fifo --framework=5 --soc_version=Ascend910B1 --output=x >out 2>err &&
	test_grep "graph.fifo: error: not a regular file (a FIFO)" err &&
	test_must_fail --exit 2 gerules atc --model=/dev/zero --framework=5 --soc_version=Ascend910B1 --output=x >out 2>err &&
	test_grep "/dev/zero: error: not a regular file (a character device)" err
'

# A sparse file larger than the address space left under a ulimit: mapping
# it fails, and that is an error, never a fallback that reads it whole. (A
# sanitizer build reserves terabytes of shadow memory and cannot run under
# ulimit -v: there the files map and are refused by their content.)
test_expect_success 'a sparse 1 TB graph and a 64 GiB .om that cannot be mapped are errors, not read whole' '
	if truncate -s 1T big.json 2>/dev/null && truncate -s 64G big.om 2>/dev/null
	then
		printf IMOD | dd of=big.om conv=notrunc 2>/dev/null &&
		if test -n "$GR_SAN_FLAGS"; then lim=unlimited; else lim=4000000; fi &&
		(ulimit -v $lim && gerules eval big.json --chip Ascend910B1) >out 2>err
		test $? = 2 && test_must_be_empty out &&
		if test $lim != unlimited; then
			test_grep "^big.json: error: cannot map the file (1099511627776 bytes)" err
		fi &&
		(ulimit -v $lim && gerules eval big.om --chip Ascend910B1) >out 2>err
		test $? = 2 && test_must_be_empty out &&
		if test $lim != unlimited; then
			test_grep "^big.om: error: cannot map the file (68719476736 bytes)" err
		fi
	else
		say "no sparse files here"
	fi
'

test_expect_success 'a MANIFEST of 300,000 file lines is parsed and compared (every file reported missing)' '
	cp -R b many && chmod -R u+w many &&
	awk "BEGIN { print \"gerules-manifest 1\"; print \"bundle mini\"; print \"version 1.0.0\";
		print \"expires 2099-01-01T00:00:00Z\"; print \"signer 0123456789abcdef\";
		for (i = 0; i < 300000; i++) printf \"file %064x f%07d.rules\\n\", i, i }" >many/MANIFEST &&
	test_must_fail --exit 2 gerules --trust k.pub bundle verify many >out 2>err &&
	test "$(grep -c "removed since the bundle was signed" err)" = 300000
'

test_done
