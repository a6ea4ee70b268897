#!/bin/sh
# t4006-heap-hugepages.sh: the CLI puts the first 64 MiB of malloc's heap on
# transparent huge pages (src/base/util.c gr_heap_hugepages; off with
# GERULES_HUGEPAGES=0). What it is worth is a figure of bench/run, not a test
# here; what is tested is what it must never do: change an output, or make a
# run fail that works without it. Under an address-space limit (ulimit -v)
# the 64 MiB reserve may not fit: the run must then go on as without it.
test_description='the heap on huge pages changes no outcome'
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'reports are the same with and without the heap on huge pages' '
	for f in json sarif text; do
		gerules eval "$top_srcdir/examples/llm_decoder.json" --chip Ascend910B1 --format $f --all-nodes >huge.$f &&
		GERULES_HUGEPAGES=0 gerules eval "$top_srcdir/examples/llm_decoder.json" --chip Ascend910B1 --format $f --all-nodes >plain.$f &&
		test_cmp plain.$f huge.$f || return 1
	done &&
	gerules atc --model="$top_srcdir/examples/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 --output=x --log=error >huge.atc &&
	GERULES_HUGEPAGES=0 gerules atc --model="$top_srcdir/examples/llm_decoder.onnx" --framework=5 --soc_version=Ascend910B1 --output=x --log=error >plain.atc &&
	test_cmp plain.atc huge.atc
'

# Every limit from 30 MB to 100 MB in steps of 4 MB: wherever the run works on
# ordinary pages it must work, with the same report, with the reserve asked
# for. (A first version kept M_TOP_PAD at 64 MiB for every later growth of the
# heap, and runs failed under limits of 60 to 72 MB that suffice without it.)
# A sanitizer build reserves terabytes of shadow memory and cannot run under
# ulimit -v.
test_expect_success 'under an address-space limit the reserve gives way, the run does not' '
	if test -n "$GR_SAN_FLAGS"
	then
		say "sanitizer build: no ulimit -v"
	else
		worked=0 &&
		for lim in 30000 34000 38000 42000 46000 50000 54000 58000 62000 66000 70000 74000 78000 82000 86000 90000 94000 98000
		do
			if (ulimit -v $lim && GERULES_HUGEPAGES=0 gerules eval "$top_srcdir/examples/llm_decoder.json" --chip Ascend910B1 --format json >plain.$lim 2>/dev/null)
			then
				worked=$((worked + 1)) &&
				(ulimit -v $lim && gerules eval "$top_srcdir/examples/llm_decoder.json" --chip Ascend910B1 --format json >huge.$lim 2>err.$lim) &&
				test_must_be_empty err.$lim &&
				test_cmp plain.$lim huge.$lim || return 1
			fi
		done &&
		test $worked -gt 0
	fi
'

test_done
