"""pydir.py: prints where the gerules Python module is installed for a prefix
(argv[1]), as configure's --with-python-dir default: a path under
${prefix} that this interpreter searches when the prefix is a system one.
Debian's python3 searches /usr/local/lib/python3.X/dist-packages (scheme
posix_local) and /usr/lib/python3/dist-packages (deb_system); other Pythons
the standard site-packages of the prefix."""
import sys
import sysconfig

prefix = sys.argv[1].rstrip("/") or "/"
schemes = sysconfig.get_scheme_names()
if prefix == "/usr/local" and "posix_local" in schemes:
    path = sysconfig.get_path("purelib", "posix_local", vars={"base": "/usr", "platbase": "/usr"})
elif prefix == "/usr" and "deb_system" in schemes:
    path = sysconfig.get_path("purelib", "deb_system", vars={"base": "/usr", "platbase": "/usr"})
else:
    path = sysconfig.get_path("purelib", "posix_prefix", vars={"base": prefix, "platbase": prefix})
if path.startswith(prefix + "/"):
    path = "${prefix}" + path[len(prefix):]
print(path)
