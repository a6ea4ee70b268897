#!/bin/sh
# t1100-golden.sh: the data-driven golden cases of `gerules eval`, run through
# `gerules test` itself (as jq runs tests/jq.test through its binary): the
# project's own cases (t/golden/*.case) and the rule set's (rules/tests/*.case,
# which t/golden does not repeat). The case format is defined once, in
# doc/vendor-guide.md ("Golden cases"). Every case is one TAP test; the
# coverage summary comes out as TAP comments. The runner is run from the source
# tree so that the test names read t/golden/NNN-what.case; its temporary files
# go to this script's trash directory.
test_description='golden cases of gerules eval (t/golden, rules/tests), run by gerules test'
. "$(dirname "$0")/test-lib.sh"

cd "$top_srcdir" || exit 1
TMPDIR=$TRASH "$GERULES" test --format tap t/golden rules/tests
