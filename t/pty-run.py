#!/usr/bin/env python3
"""t/pty-run.py CMD [ARG...]: runs CMD with stdin, stdout and stderr on a
pseudo-terminal and prints everything the terminal received (stdout and
stderr mixed); exits with CMD's exit status. For the tests of output that
must appear only on a terminal (progress meters, colour)."""
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        b = os.read(fd, 65536)
    except OSError:
        break
    if not b:
        break
    out += b
_, st = os.waitpid(pid, 0)
sys.stdout.buffer.write(out)
sys.exit(os.waitstatus_to_exitcode(st))
