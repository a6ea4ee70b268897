#!/bin/sh
# t1109-onnx-backend-nodes.sh: the ONNX backend node tests of python3-onnx
# (one model per operator case, about 900: the suite ONNX runtimes are
# tested with; t/data/readers/onnx_node_tests.py writes them) through
# `gerules eval` on Ascend910B1. Every one is a valid ONNX model, so each run
# must end with status 0 or 1 and a report that validates against
# doc/schemas/eval.schema.json (python3-jsonschema), and its only errors may
# be those of GE's ONNX parser: E13010 (no plugin at the model's opset, such
# as the opset-7 logic ops and Loop, which no plugin registers) and E11010
# (the plugin refuses the node, such as a Clip-13 without bounds). A node
# with such an error gets no engine-search warning (GE7003, GE7006, GE7007):
# ATC stops before it places engines. Found this way: that last rule, and
# the TopK, HardMax and Einsum rows of rules/engines.rules.
test_description='the ONNX backend node tests through gerules eval'
. "$(dirname "$0")/test-lib.sh"

PY=${PYTHON3:-python3}
test_skip_unless ONNX,JSONSCHEMA

test_expect_success 'write the node test models' '
	"$PY" "$top_srcdir/t/data/readers/onnx_node_tests.py" >count &&
	test "$(cat count)" -ge 900 &&
	test -f test_abs.onnx && test -f test_top_k.onnx && test -f test_clip_default_inbounds.onnx
'

test_expect_success 'every model: status 0 or 1, a report' '
	for m in test_*.onnx; do
		gerules eval "$m" --chip Ascend910B1 --format json >"${m%.onnx}.json" 2>"${m%.onnx}.err"
		rc=$?
		if test $rc -gt 1
		then
			echo "$m: exit $rc: $(cat "${m%.onnx}.err")"
			return 1
		fi
	done
'

test_expect_success 'every report validates; errors only from GE.s ONNX parser; none with an engine-search warning' '
	"$PY" - "$top_srcdir/doc/schemas/eval.schema.json" test_*.json <<-\EOF
	import json, sys
	import jsonschema
	schema = json.load(open(sys.argv[1]))
	v = jsonschema.Draft202012Validator(schema)
	bad, errors, parsers = [], 0, {"E13010": 0, "E11010": 0}
	for f in sys.argv[2:]:
	    d = json.load(open(f))
	    problems = sorted(v.iter_errors(d), key=str)
	    if problems:
	        bad.append("%s: schema: %s" % (f, problems[0].message))
	        continue
	    unparsed = set()
	    for x in d["diagnostics"]:
	        if x["severity"] != "error":
	            continue
	        errors += 1
	        if x["code"] not in parsers:
	            bad.append("%s: error %s: %s" % (f, x["code"], x["message"]))
	        else:
	            parsers[x["code"]] += 1
	            unparsed.add(x["node"])
	    for x in d["diagnostics"]:
	        if x["code"] in ("GE7003", "GE7006", "GE7007") and x["node"] in unparsed:
	            bad.append("%s: %s on %s, which GE cannot parse" % (f, x["code"], x["node"]))
	assert not bad, "\n".join(bad[:20])
	# both kinds occur in the suite (opset-7 And, Clip-13 without bounds)
	assert parsers["E13010"] and parsers["E11010"], parsers
	print("# %d reports, %d parser errors %s" % (len(sys.argv) - 2, errors, parsers))
	EOF
'

test_done
