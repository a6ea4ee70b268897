"""test_gerules.py: unittest tests of the installed gerules Python module
(python/gerules.py.in), run by t/t4002-python.sh against a staging install.
Reports are compared with the gerules command's own output for the same
inputs; errors must carry located diagnostics. Run directly, it prints TAP.

Environment: GERULES (the command), GERULES_RULES, top_srcdir, and the
module's location on PYTHONPATH with GERULES_LIBRARY naming the library."""

import json
import os
import subprocess
import sys
import threading
import unittest

import gerules

SRC = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))
EX = os.path.join(SRC, "examples")
CLI = os.environ.get("GERULES", "gerules")
LLM = os.path.join(EX, "llm_decoder.json")
CONV = os.path.join(EX, "convnet.json")
INI = os.path.join(EX, "op_precision.ini")


def cli(*args):
    p = subprocess.run([CLI] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


class EvalTest(unittest.TestCase):
    def test_report_is_the_commands_json(self):
        rep = gerules.eval(LLM, chip="Ascend910B1", options={"OP_PRECISION_MODE": INI, "ALLOW_HF32": "true"})
        rc, out, _ = cli("eval", LLM, "--chip", "Ascend910B1", "-o", "OP_PRECISION_MODE=" + INI,
                         "-o", "ALLOW_HF32=true", "--format", "json")
        self.assertEqual(rc, 0)
        self.assertEqual(rep, json.loads(out))
        self.assertEqual(rep["summary"]["nodes"], 63)

    def test_decisions_follow_the_options(self):
        rep = gerules.eval(LLM, chip="Ascend910B1", options={"OP_PRECISION_MODE": INI})
        sources = {n["precision_source"] for n in rep["nodes"]}
        self.assertTrue(any(s and "name" in s for s in sources), sources)   # a [ByNodeName] entry won somewhere
        rep2 = gerules.eval(LLM, chip="Ascend910B1")
        self.assertNotEqual([n["precision_mode"] for n in rep["nodes"]],
                            [n["precision_mode"] for n in rep2["nodes"]])

    def test_onnx_model_is_the_commands(self):
        try:
            import onnx  # noqa: F401  (the models are built with the ONNX project's library)
        except ImportError:
            self.skipTest("no onnx module (Debian: python3-onnx)")
        out = os.path.join(os.environ.get("TMPDIR", "/tmp"), "onnx")
        os.makedirs(out, exist_ok=True)
        subprocess.run([sys.executable, os.path.join(SRC, "t", "data", "readers", "onnx_models.py"), out], check=True,
                       stdout=subprocess.DEVNULL)
        m = os.path.join(out, "matmul.onnx")
        rep = gerules.eval(m, chip="Ascend910B1", options={"ALLOW_HF32": "true"})
        rc, js, _ = cli("eval", m, "--chip", "Ascend910B1", "-o", "ALLOW_HF32=true", "--format", "json")
        self.assertLessEqual(rc, 1)
        self.assertEqual(rep, json.loads(js))
        self.assertEqual(rep["graph"]["format"], "onnx")

    def test_bool_option_and_pairs(self):
        a = gerules.eval(LLM, chip="Ascend910B1", options={"ALLOW_HF32": True})
        b = gerules.eval(LLM, chip="Ascend910B1", options=[("ALLOW_HF32", "true")])
        self.assertEqual(a, b)

    def test_no_provenance(self):
        rep = gerules.eval(CONV, chip="Ascend910B1", provenance=False)
        self.assertTrue(all("provenance" not in n for n in rep["nodes"]))

    def test_configuration_errors_are_in_the_report(self):
        rep = gerules.eval(CONV, chip="Ascend910B1", options={"PRECISION_MODE": "bogus"})
        self.assertEqual(rep["summary"]["errors"], 1)
        with self.assertRaises(gerules.ConfigError) as cm:
            gerules.eval(CONV, chip="Ascend910B1", options={"PRECISION_MODE": "bogus"}, fail_on_error=True)
        e = cm.exception
        self.assertEqual(e.status, 1)
        self.assertEqual(e.errors[0]["code"], "GE1002")
        self.assertEqual(e.errors[0]["option"], "PRECISION_MODE")
        self.assertIn("[GE1002]", str(e))
        self.assertIn(": error: ", str(e))
        self.assertEqual(e.report["summary"]["errors"], 1)


class ErrorTest(unittest.TestCase):
    def setUp(self):
        self.dir = os.environ.get("TMPDIR", "/tmp")

    def write(self, name, text):
        p = os.path.join(self.dir, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def test_malformed_model_is_located(self):
        p = self.write("bad.json", '{"graph": [{"op": [\n  {"name": "a", "type": 7}]}]}\n')
        with self.assertRaises(gerules.InputError) as cm:
            gerules.eval(p, chip="Ascend910B1")
        e = cm.exception
        self.assertEqual(e.status, 2)
        d = e.diagnostics[0]
        self.assertEqual((d["severity"], d.file, d.line), ("error", p, 2))
        self.assertGreater(d.column, 0)
        rc, _, err = cli("eval", p, "--chip", "Ascend910B1")
        self.assertEqual(rc, 2)
        self.assertEqual(str(e), err.strip())          # the same message as the command's

    def test_missing_model(self):
        with self.assertRaises(gerules.InputError) as cm:
            gerules.eval(os.path.join(self.dir, "no-such-model.json"), chip="Ascend910B1")
        self.assertIn("cannot open", str(cm.exception))

    def test_unknown_chip_suggests(self):
        with self.assertRaises(gerules.InputError) as cm:
            gerules.eval(CONV, chip="Ascend999")
        self.assertIn("did you mean", str(cm.exception))

    def test_malformed_options_file_is_located(self):
        p = self.write("opts.json", '{"ALLOW_HF32": "true",\n "x": }\n')
        with self.assertRaises(gerules.InputError) as cm:
            gerules.eval(CONV, chip="Ascend910B1", options_files=[p])
        d = cm.exception.diagnostics[0]
        self.assertEqual((d.file, d.line), (p, 2))

    def test_broken_rule_set(self):
        with self.assertRaises(gerules.RulesError) as cm:
            gerules.Rules(os.path.join(SRC, "t", "broken", "bad-code.rules"))
        self.assertTrue(cm.exception.errors)
        self.assertIn("bad-code.rules:", str(cm.exception))

    def test_model_format(self):
        with self.assertRaises(gerules.InputError) as cm:     # JSON read as a GE text dump
            gerules.eval(CONV, chip="Ascend910B1", model_format="ge-text")
        self.assertEqual(cm.exception.diagnostics[0].file, CONV)
        self.assertEqual(gerules.eval(CONV, chip="Ascend910B1", model_format="json")["summary"]["nodes"], 26)
        with self.assertRaises(ValueError):
            gerules.eval(CONV, chip="Ascend910B1", model_format="pdf")

    def test_bad_run_mode(self):
        with self.assertRaises(ValueError):
            gerules.eval(CONV, chip="Ascend910B1", run_mode="sometimes")


class RulesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rules = gerules.Rules()

    def test_metadata(self):
        self.assertIn("precision_mode", self.rules.slots)
        self.assertIn("tiling", self.rules.slots)
        self.assertTrue(self.rules.name)
        self.assertEqual(gerules.version(), gerules.__version__)

    def test_decision_and_explain(self):
        ev = self.rules.evaluate(LLM, chip="Ascend910B1", options={"OP_PRECISION_MODE": INI})
        self.assertEqual(ev.status, 0)
        rep = ev.json()
        for n in rep["nodes"]:
            d = ev.decision(n["name"], "precision_mode")
            self.assertEqual((d["value"], d["source"]), (n["precision_mode"], n["precision_source"]))
            t = ev.decision(n["name"], "tiling")
            self.assertEqual((t["value"], t["source"]), (n["tiling"], n["tiling_source"]))
        won = [d for d in (ev.decision(i, "precision_mode") for i in range(len(ev.nodes))) if d["input"]]
        self.assertTrue(won and won[0]["input"].startswith(INI + ":"), won[:1])
        name = "layer0/attn/q_proj"
        rc, out, _ = cli("eval", LLM, "--chip", "Ascend910B1", "-o", "OP_PRECISION_MODE=" + INI, "--explain", name)
        self.assertEqual(ev.explain(name), out)
        self.assertEqual(ev.explain(name, json=True)["node"], name)
        with self.assertRaises(KeyError):
            ev.decision("no such node", "tiling")
        with self.assertRaises(KeyError):
            ev.decision(name, "no such slot")

    def test_decision_effect(self):
        # ALLOW_HF32=true under ATC's default force_fp16: GE records HF32 but it has no effect
        # (rules/precision.rules `no effect` clauses; doc/json-schema.md SLOT_effect)
        ev = self.rules.evaluate(LLM, chip="Ascend910B1", options={"ALLOW_HF32": "true"})
        rep = ev.json()
        seen = 0
        for n in rep["nodes"]:
            d = ev.decision(n["name"], "precision_mode")
            self.assertEqual(d["effect"], n.get("precision_mode_effect", True))
            self.assertEqual(d["no_effect_reason"], n.get("precision_mode_no_effect_reason"))
            seen += not d["effect"]
        self.assertEqual(seen, 15)
        self.assertEqual(ev.decision("lm_head", "precision_mode")["no_effect_reason"], "the node computes in float16 (precision_mode)")
        t = ev.decision("lm_head", "tiling")
        self.assertEqual((t["effect"], t["no_effect_reason"]), (True, None))

    def test_text_report_is_the_commands(self):
        ev = self.rules.evaluate(LLM, chip="Ascend910B1", options={"ALLOW_HF32": "true"})
        rc, out, _ = cli("eval", LLM, "--chip", "Ascend910B1", "-o", "ALLOW_HF32=true")
        self.assertEqual(ev.report("text"), out)
        with self.assertRaises(ValueError):
            ev.report("pdf")

    def test_text_width_and_colour_by_are_the_commands(self):
        import tempfile
        with open(LLM) as f:
            g = json.load(f)
        pre = "encoder_stack/transformer_block_scope/"
        for op in g["graph"][0]["op"]:
            op["name"] = pre + op["name"]
            if "input" in op:
                op["input"] = [i if not i else ("^" + pre + i[1:]) if i.startswith("^") else pre + i
                               for i in op["input"]]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "long_names.json")
            with open(path, "w") as f:
                json.dump(g, f)
            texts = {}
            for width, env, extra in ((30, {"COLUMNS": "30"}, []), (-1, {}, ["--wide"])):
                ev = self.rules.evaluate(path, chip="Ascend910B1", options={"ALLOW_HF32": "true"}, text_width=width)
                p = subprocess.run([CLI, "eval", path, "--chip", "Ascend910B1", "-o", "ALLOW_HF32=true"] + extra,
                                   stdout=subprocess.PIPE, env=dict(os.environ, **env))
                texts[width] = ev.report("text")
                self.assertEqual(texts[width], p.stdout.decode())
            self.assertNotEqual(texts[30], texts[-1])
            self.assertIn(pre + "layer0", texts[-1])
            ev = self.rules.evaluate(path, chip="Ascend910B1", colour_by="engine")
            p = subprocess.run([CLI, "eval", path, "--chip", "Ascend910B1", "--format", "dot", "--colour-by", "engine"],
                               stdout=subprocess.PIPE)
            self.assertEqual(ev.report("dot"), p.stdout.decode())
            self.assertNotEqual(ev.report("dot"), self.rules.evaluate(path, chip="Ascend910B1").report("dot"))
        with self.assertRaises(KeyError) as e:
            self.rules.evaluate(LLM, chip="Ascend910B1", colour_by="engin")
        self.assertIn("engine", str(e.exception))
        with self.assertRaises(ValueError):
            self.rules.evaluate(LLM, chip="Ascend910B1", text_width=-2)

    def test_hook_log(self):
        hook = os.path.join(os.environ.get("TMPDIR", "/tmp"), "say.lua")
        with open(hook, "w") as f:
            f.write('gr.on_end(function() print("hello from the hook") end)\n')
        ev = self.rules.evaluate(CONV, chip="Ascend910B1", hooks=[hook])
        self.assertEqual(ev.status, 0, ev.diagnostics_text)
        self.assertIn("hello from the hook", ev.log)

    def test_threads_share_one_rule_set(self):
        cases = [(LLM, {"OP_PRECISION_MODE": INI}), (CONV, {}), (LLM, {"ALLOW_HF32": "true"})]
        want = [self.rules.evaluate(m, chip="Ascend910B1", options=o).report("json") for m, o in cases]
        bad = []

        def work(k):
            for r in range(3):
                i = (k + r) % len(cases)
                got = self.rules.evaluate(cases[i][0], chip="Ascend910B1", options=cases[i][1]).report("json")
                if got != want[i]:
                    bad.append(i)
        ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(bad, [])


class LifetimeTest(unittest.TestCase):
    """Issue 30 class 4 and 6: closing the rule set (also by __del__, maybe at
    interpreter exit) while an evaluation is alive is defined, and strings
    with a NUL never reach C cut short."""

    def test_rules_closed_before_the_evaluation(self):
        rules = gerules.Rules()
        ev = rules.evaluate(LLM, chip="Ascend910B1")
        want = ev.report("json")
        d = ev.decision("lm_head", "precision_mode")
        rules.close()
        del rules                       # the parent object may go too
        self.assertEqual(ev.report("json"), want)
        self.assertEqual(ev.decision("lm_head", "precision_mode"), d)
        ev.close()
        with self.assertRaises(ValueError):
            ev.report("json")

    def test_closed_rules_refuse_use(self):
        rules = gerules.Rules()
        rules.close()
        with self.assertRaises(ValueError):
            rules.evaluate(LLM, chip="Ascend910B1")
        with self.assertRaises(ValueError):
            rules.slots

    def test_nul_in_strings_is_a_value_error(self):
        rules = gerules.Rules()
        for kw in ({"options": {"PRECISION_MODE\0x": "force_fp16"}},
                   {"options": {"PRECISION_MODE": "force_fp16\0x"}},
                   {"chip": "Ascend910B1\0x"},
                   {"options_files": [INI + "\0x"]},
                   {"hooks": ["h.lua\0x"]}):
            with self.assertRaises(ValueError, msg=repr(kw)):
                rules.evaluate(LLM, **dict({"chip": "Ascend910B1"}, **kw))
        with self.assertRaises(ValueError):
            rules.evaluate(LLM + "\0.json", chip="Ascend910B1")
        with self.assertRaises(ValueError):
            gerules.Rules(SRC + "/rules\0x")
        ev = rules.evaluate("m\u00e9.json", chip="Ascend910B1", model_data=open(LLM, "rb").read())
        self.assertEqual(ev.status, 0)  # model_data goes with its length: NULs in it are the reader's business


class TrustTest(unittest.TestCase):
    """The module verifies bundles as the command does: the shipped rules,
    signed with a fresh key, load under that trust store; the same bundle
    with one file changed is refused with the command's diagnostics."""

    @classmethod
    def setUpClass(cls):
        import shutil
        cls.dir = os.path.join(os.environ.get("TMPDIR", "/tmp"), "trust")
        shutil.rmtree(cls.dir, ignore_errors=True)
        os.makedirs(cls.dir)
        cls.good = os.path.join(cls.dir, "good")
        shutil.copytree(os.path.join(SRC, "rules"), cls.good)
        for d, _, fs in os.walk(cls.good):
            for f in fs:
                os.chmod(os.path.join(d, f), 0o644)
        cls.key = os.path.join(cls.dir, "k")
        cls.state = os.path.join(cls.dir, "state")
        for args in (("bundle", "keygen", cls.key), ("bundle", "sign", "--key", cls.key + ".key", "--expires", "2099-01-01", cls.good)):
            rc, out, err = cli(*args)
            assert rc == 0, err
        cls.bad = os.path.join(cls.dir, "bad")
        shutil.copytree(cls.good, cls.bad)
        with open(os.path.join(cls.bad, "chips.rules"), "a") as f:
            f.write("# tampered\n")

    def test_signed_bundle_loads(self):
        r = gerules.Rules(self.good, trust=self.key + ".pub", state_file=self.state)
        self.assertEqual(r.name, "ge-base")
        r.close()

    def test_tampered_bundle_is_refused(self):
        with self.assertRaises(gerules.RulesError) as cm:
            gerules.Rules(self.bad, trust=self.key + ".pub", state_file=self.state)
        e = cm.exception
        bad_file = os.path.join(self.bad, "chips.rules")
        self.assertTrue(any(d.severity == "error" and d.file == bad_file and "changed since the bundle was signed" in d.message
                            for d in e.diagnostics), e.diagnostics)
        self.assertIn("refusing the rule set", e.diagnostics[-1].message)
        # the command refuses it with the same diagnostics
        rc, out, err = cli("--trust", self.key + ".pub", "--rules", self.bad, "chips")
        self.assertEqual((rc, out), (2, ""))
        for d in e.diagnostics:
            self.assertIn(d.message, err)

    def test_trust_none_verifies_nothing(self):
        # the tampered bundle loads when no trust store is configured on purpose
        gerules.Rules(self.bad, trust="none", state_file=self.state).close()
        with self.assertRaises(gerules.RulesError) as cm:
            gerules.Rules(self.bad, trust=["none", self.key + ".pub"], state_file=self.state)
        self.assertIn("'none' (verify nothing) cannot be combined", cm.exception.diagnostics[0].message)

    def test_environment_trust_store(self):
        old = os.environ.get("GERULES_TRUST")
        os.environ["GERULES_TRUST"] = self.key + ".pub"
        try:
            with self.assertRaises(gerules.RulesError):
                gerules.Rules(self.bad, state_file=self.state)
            gerules.Rules(self.good, state_file=self.state).close()
        finally:
            if old is None:
                del os.environ["GERULES_TRUST"]
            else:
                os.environ["GERULES_TRUST"] = old


class RecordTest(unittest.TestCase):
    """Nodes, decisions and diagnostics are dataclasses that still read as
    the dicts they were; the reports stay plain JSON objects."""

    @classmethod
    def setUpClass(cls):
        cls.rules = gerules.Rules()
        cls.ev = cls.rules.evaluate(LLM, chip="Ascend910B1", options={"ALLOW_HF32": "true"})

    def test_records_are_dataclasses(self):
        import dataclasses
        d = self.ev.decision("lm_head", "precision_mode")
        for rec in (d, self.ev.node("lm_head"), self.ev.diagnostics[0]):
            self.assertTrue(dataclasses.is_dataclass(rec), rec)
        self.assertEqual(d.value, d["value"])
        self.assertEqual(dataclasses.asdict(d), dict(d))
        self.assertEqual(d, dict(d))                      # equal to the dict it used to be
        self.assertEqual(sorted(d), sorted(["slot", "value", "source", "rule", "reason", "input", "effect",
                                            "no_effect_reason"]))
        self.assertEqual(d.get("no such key", 7), 7)
        diag = self.ev.diagnostics[0]
        self.assertEqual(list(diag), ["severity", "code", "message", "file", "line", "column", "option", "node", "rule"])
        self.assertEqual((diag.code, diag["code"], diag.get("code")), (diag.code,) * 3)

    def test_nodes_read_as_the_reports_nodes(self):
        rep = self.ev.json()
        self.assertEqual(self.ev.nodes, [n["name"] for n in rep["nodes"]])
        got = list(self.ev.iter_nodes())
        self.assertEqual(len(got), 63)
        for node, js in zip(got, rep["nodes"]):
            self.assertEqual(dict(node), {k: js[k] for k in node})       # name, type, every slot's value
            self.assertEqual(list(node), ["name", "type"] + self.rules.slots)
            for slot in self.rules.slots:
                self.assertEqual(node.decisions[slot], self.ev.decision(node.index, slot))
                self.assertEqual(node.value(slot), js[slot])
            self.assertEqual((node.dtype, node.engine, node.tiling), (js["dtype"], js["engine"], js["tiling"]))
        self.assertEqual(self.ev.node("atten_mask").engine, "DNN_VM_GE_LOCAL")

    def test_unknown_node_suggests_as_the_command_does(self):
        for model, word in ((LLM, "lm_haed"), (LLM, "LM_HEAD"), (LLM, "layer0/attn/q_prj"), (CONV, "conv"),
                            (CONV, "softmx"), (CONV, "xyz"), (CONV, "POOL1")):
            ev = self.rules.evaluate(model, chip="Ascend910B1")
            with self.assertRaises(KeyError) as cm:
                ev.decision(word, "tiling")
            e = cm.exception
            self.assertIsInstance(e, gerules.UnknownNameError)
            rc, _, err = cli("eval", model, "--chip", "Ascend910B1", "--explain", word)
            self.assertEqual(rc, 2)
            self.assertEqual(str(e).split(": ", 1)[1], err.strip().split(": error: ", 1)[1])
            if "did you mean" in err:
                self.assertEqual("'%s'?" % e.suggestion, err.split("did you mean ")[1].strip())
            else:
                self.assertIsNone(e.suggestion)
            with self.assertRaises(KeyError):
                ev.explain(word)

    def test_unknown_slot_suggests(self):
        with self.assertRaises(KeyError) as cm:
            self.ev.decision("lm_head", "precison_mode")
        self.assertEqual(cm.exception.suggestion, "precision_mode")
        self.assertIn("did you mean 'precision_mode'?", str(cm.exception))
        with self.assertRaises(KeyError) as cm:
            self.ev.node("lm_head").value("dtyp")
        self.assertEqual(cm.exception.suggestion, "dtype")

    def test_every_public_function_has_type_hints(self):
        import type_hints                                 # beside this file
        checked, gaps = type_hints.gaps()
        self.assertEqual(gaps, [])
        self.assertIn("Evaluation.node", checked)


class TAPResult(unittest.TextTestResult):
    """Prints one TAP line per test."""
    n = 0

    def _line(self, ok, test, extra=""):
        TAPResult.n += 1
        print("%sok %d - %s%s" % ("" if ok else "not ", TAPResult.n, test.id().split(".", 1)[-1], extra))
        sys.stdout.flush()

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(True, test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line(False, test)
        print("# " + self._exc_info_to_string(err, test).replace("\n", "\n# "))

    def addError(self, test, err):
        super().addError(test, err)
        self._line(False, test)
        print("# " + self._exc_info_to_string(err, test).replace("\n", "\n# "))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(True, test, " # SKIP " + reason)


if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    res = unittest.TextTestRunner(stream=open(os.devnull, "w"), resultclass=TAPResult).run(suite)
    print("1..%d" % TAPResult.n)
    sys.exit(0 if res.wasSuccessful() else 1)
