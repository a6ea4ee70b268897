"""type_hints.py: every public function, method and property of the gerules
package (its __all__, and each class's own public members) has resolvable
type hints for each parameter and its return value, as
typing.get_type_hints reads them at run time (so a hint naming something the
module does not define fails here even where mypy is absent); the records
(Node, Decision, Diagnostic) are dataclasses with a hint per field.
Run by t/t4005-python-package.sh with a venv's python, and imported by
t/python/test_gerules.py. Prints what it checked; exits 1 on a gap.

Usage: python type_hints.py"""

import dataclasses
import inspect
import sys
import typing

import gerules

# members a class gets from Python itself (Exception's, Mapping's) are not the package's
SKIP = {"with_traceback", "add_note", "args"}


def _function_gaps(name, fn):
    gaps = []
    try:
        hints = typing.get_type_hints(fn)
    except Exception as e:   # an unresolvable hint: NameError, TypeError, ...
        return ["%s: get_type_hints fails: %s: %s" % (name, type(e).__name__, e)]
    sig = inspect.signature(fn)
    for p in sig.parameters.values():
        if p.name in ("self", "cls"):
            continue
        if p.name not in hints:
            gaps.append("%s: parameter %s has no hint" % (name, p.name))
    if "return" not in hints:
        gaps.append("%s: no return hint" % name)
    return gaps


def gaps():
    """(what was checked, the gaps found)."""
    checked, out = [], []
    for name in gerules.__all__:
        obj = getattr(gerules, name)
        if inspect.isfunction(obj):
            checked.append(name)
            out += _function_gaps(name, obj)
        elif inspect.isclass(obj):
            checked.append(name)
            if dataclasses.is_dataclass(obj):
                hints = typing.get_type_hints(obj)
                out += ["%s.%s: no hint" % (name, f.name) for f in dataclasses.fields(obj) if f.name not in hints]
            for mname, m in vars(obj).items():
                if (mname.startswith("_") and mname != "__init__") or mname in SKIP:
                    continue
                qual = "%s.%s" % (name, mname)
                if isinstance(m, property):
                    checked.append(qual)
                    out += _function_gaps(qual, m.fget)
                elif inspect.isfunction(m):
                    checked.append(qual)
                    out += _function_gaps(qual, m)
    return checked, out


def main():
    checked, out = gaps()
    for g in out:
        print("gap: " + g)
    print("%d public functions, classes, methods and properties checked; %d gaps" % (len(checked), len(out)))
    for want in ("eval", "Rules.evaluate", "Evaluation.node", "Evaluation.decision", "Node.dtype", "version"):
        if want not in checked:
            print("gap: %s was not checked" % want)
            return 1
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
