"""wheel_smoke.py: a small program as a user of the gerules wheel writes it,
run by t/t4005-python-package.sh twice: by mypy --strict against the package
installed in a fresh venv (so every hint it relies on is checked, py.typed
included), and by the venv's python, where it asserts real outcomes of one
evaluation of examples/convnet.json on Ascend910B1 with OP_SELECT_IMPL_MODE:
node types, precision modes (the impl-mode table's), dtypes, engines,
diagnostic codes, the did-you-mean of an unknown node, and the errors.
Prints a line per check ("pass: ..." or "FAIL: ..."); exits 1 when one
fails.

Usage: python wheel_smoke.py TOP_SRCDIR"""

import os
import sys
from typing import Any, Callable, Dict, List, Optional

import gerules

checks = 0
failed = 0


def check(title: str, fn: Callable[[], object]) -> None:
    global checks, failed
    checks += 1
    try:
        fn()
    except Exception as e:  # a failed assertion or an unexpected error: both fail the check
        failed += 1
        print("FAIL: %s: %s: %s" % (title, type(e).__name__, e))
    else:
        print("pass: %s" % title)


def eq(got: object, want: object) -> None:
    if got != want:
        raise AssertionError("got %r, want %r" % (got, want))


SRC = sys.argv[1] if len(sys.argv) > 1 else "."
CONV = os.path.join(SRC, "examples", "convnet.json")
rules = gerules.Rules(os.path.join(SRC, "rules"))
ev: gerules.Evaluation = rules.evaluate(CONV, chip="Ascend910B1", options={"OP_SELECT_IMPL_MODE": "high_precision"})


def nodes() -> None:
    eq(ev.status, 0)
    eq(len(ev.nodes), 26)
    soft: gerules.Node = ev.node("softmax")
    eq((soft.type, soft.precision_mode, soft.engine), ("SoftmaxV2", "high_precision", "AIcoreEngine"))
    d: gerules.Decision = soft.decisions["precision_mode"]
    eq((d.source, d.effect), ("impl_mode_table", True))
    relu = ev.node("conv0/relu")
    dtype: Optional[str] = relu.dtype
    eq((relu.type, dtype, relu.engine, relu.tiling, relu.execution), ("Relu", "float16", "AIcoreEngine", "compile", "static"))
    eq((ev.node("image").engine, ev.node("image")["dtype"]), ("DNN_VM_GE_LOCAL", "float16"))
    eq(ev.node(0).name, "image")


def impl_mode_changes() -> None:
    perf = rules.evaluate(CONV, chip="Ascend910B1", options=[("OP_SELECT_IMPL_MODE", "high_performance")])
    eq(perf.decision("softmax", "precision_mode").value, "high_performance")
    eq(perf.decision("softmax", "precision_mode")["source"], "impl_mode_table")


def diagnostics() -> None:
    codes: List[Optional[str]] = [d.code for d in ev.diagnostics]
    eq(codes, ["GE1005"])
    w: gerules.Diagnostic = ev.diagnostics[0]
    eq((w.severity, w.option), ("warning", "OP_SELECT_IMPL_MODE"))
    eq(w["code"], "GE1005")                       # dict access, as before the dataclasses


def did_you_mean() -> None:
    try:
        ev.node("sofmax")
    except gerules.UnknownNameError as e:
        eq((e.kind, e.name, e.suggestion), ("node", "sofmax", "softmax"))
        eq(str(e), "gerules: no node named 'sofmax' in %s; did you mean 'softmax'?" % CONV)
        if not isinstance(e, KeyError):
            raise AssertionError("not a KeyError")
    else:
        raise AssertionError("no error")


def config_error() -> None:
    rep: Dict[str, Any] = gerules.eval(CONV, chip="Ascend910B1", options={"PRECISION_MODE": "bogus"}, rules=rules)
    eq(rep["summary"]["errors"], 1)
    try:
        gerules.eval(CONV, chip="Ascend910B1", options={"PRECISION_MODE": "bogus"}, rules=rules, fail_on_error=True)
    except gerules.ConfigError as e:
        eq((e.status, e.errors[0].code, e.errors[0].option), (1, "GE1002", "PRECISION_MODE"))
    else:
        raise AssertionError("no ConfigError")


def input_error() -> None:
    try:
        gerules.eval(CONV, chip="Ascend999", rules=rules)
    except gerules.InputError as e:
        eq(e.status, 2)
        if "did you mean" not in str(e):
            raise AssertionError(str(e))
    else:
        raise AssertionError("no InputError")


def explain() -> None:
    text: str = ev.explain("softmax")
    chain: Dict[str, Any] = ev.explain("softmax", json=True)
    eq(chain["node"], "softmax")
    if "impl_mode_table" not in text:
        raise AssertionError(text)


def versions() -> None:
    eq(gerules.version(), gerules.__version__)


check("nodes: types, impl-mode precision, dtypes, engines", nodes)
check("OP_SELECT_IMPL_MODE=high_performance changes the softmax's mode", impl_mode_changes)
check("diagnostic codes", diagnostics)
check("an unknown node name is a KeyError with a suggestion", did_you_mean)
check("configuration errors: the report, or ConfigError", config_error)
check("an unknown chip is an InputError with a suggestion", input_error)
check("explain as text and as objects", explain)
check("the package's version is the library's", versions)
ev.close()
rules.close()
print("%d checks, %d failed" % (checks, failed))
sys.exit(1 if failed else 0)
