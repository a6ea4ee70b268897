"""setup.py: the one step pyproject.toml cannot declare: the package's
__init__.py is made from python/gerules/__init__.py.in (the file make install
installs too) with the libdir and version filled in, as Makefile.am does.

The version is configure.ac's AC_INIT. The libdir where the package looks
for libgerules.so.1 first (after $GERULES_LIBRARY): $GERULES_LIBDIR when set
(empty: none; a build tree's .libs for the uninstalled library), else
`pkg-config --variable=libdir gerules` (an installed libgerules), else none:
the dynamic linker's search (LD_LIBRARY_PATH, ld.so.cache) at import."""

import os
import re
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "python", "gerules", "__init__.py.in")


def version():
    with open(os.path.join(HERE, "configure.ac")) as f:
        m = re.search(r"AC_INIT\(\[gerules\],\s*\[([^\]]+)\]", f.read())
    if not m:
        raise SystemExit("setup.py: no AC_INIT([gerules], [VERSION]) in configure.ac")
    return m.group(1)


def libdir():
    if "GERULES_LIBDIR" in os.environ:
        return os.path.abspath(os.environ["GERULES_LIBDIR"]) if os.environ["GERULES_LIBDIR"] else ""
    try:
        p = subprocess.run(["pkg-config", "--variable=libdir", "gerules"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True)
    except OSError:
        return ""
    return p.stdout.strip() if p.returncode == 0 else ""


class BuildPy(build_py):
    """build_py, then gerules/__init__.py made from its .in (replacing any
    copy an in-tree `make` left beside it)."""

    def run(self):
        super().run()
        with open(SOURCE) as f:
            text = f.read()
        lib = libdir()
        print("gerules: libdir recorded in the package: %s" % (lib or "none (the loader's search)"))
        text = text.replace("@LIBDIR@", lib).replace("@VERSION@", version())
        out = os.path.join(self.build_lib, "gerules", "__init__.py")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w") as f:
            f.write(text)


setup(version=version(), packages=["gerules"], package_dir={"": "python"},
      package_data={"gerules": ["py.typed"]}, include_package_data=False,
      cmdclass={"build_py": BuildPy})
