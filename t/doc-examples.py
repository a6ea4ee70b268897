#!/usr/bin/env python3
"""doc-examples.py: runs the examples of a documentation page and compares
their output with what the page shows.

usage: doc-examples.py PAGE GERULES WORKDIR [--show | --update]

An example is a ```sh block whose command starts with `gerules`, followed by
a ```json block before the next ```sh block. The command runs in WORKDIR
(where the test put the example's input files) with `gerules` replaced by
GERULES. A JSON block that is one whole document is compared as JSON with
the output; a block that is an excerpt (it does not parse) is skipped and
counted. Two things are normalised on both sides because the page says they
vary: the version in "gerules": "..." and the line number of a rule
location (FILE.rules:N, FILE.lua:N). Prints one line per example
(ok/MISMATCH/skipped) and exits 1 on any mismatch; --show prints each
mismatching example's actual output; --update writes it into the page in
place of the old block (whole-document examples only; excerpts are kept up
by hand).
"""
import json
import re
import shlex
import subprocess
import sys

LOC = re.compile(r'([\w./-]+\.(?:rules|lua)):\d+')


def examples(text):
    """(line, command, json text or None) for each gerules example."""
    lines = text.split("\n")
    i, cur = 0, None
    out = []
    while i < len(lines):
        if lines[i].startswith("```sh"):
            j = i + 1
            body = []
            while j < len(lines) and not lines[j].startswith("```"):
                body.append(lines[j])
                j += 1
            cmd = " ".join(l.rstrip("\\").strip() for l in body).strip()
            cur = (i + 1, cmd) if cmd.startswith("gerules ") else None
            i = j + 1
            continue
        if lines[i].startswith("```json") and cur:
            j = i + 1
            body = []
            while j < len(lines) and not lines[j].startswith("```"):
                body.append(lines[j])
                j += 1
            out.append((cur[0], cur[1], "\n".join(body)))
            cur = None
            i = j + 1
            continue
        i += 1
    return out


def norm(v):
    if isinstance(v, dict):
        return {k: ("VERSION" if k == "gerules" and isinstance(x, str) else norm(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, str):
        return LOC.sub(r'\1:N', v)
    return v


def main(argv):
    page, gerules, work = argv[1], argv[2], argv[3]
    show = "--show" in argv
    update = "--update" in argv
    text = open(page, encoding="utf-8").read()
    new_text = text
    bad = 0
    for line, cmd, block in examples(text):
        try:
            want = json.loads(block)
        except ValueError:
            print("skipped %s:%d (an excerpt): %s" % (page, line, cmd))
            continue
        words = shlex.split(cmd)
        words[0] = gerules
        p = subprocess.run(words, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            got = json.loads(p.stdout)
        except ValueError:
            got = None
        if got is not None and norm(got) == norm(want):
            print("ok %s:%d: %s" % (page, line, cmd))
            continue
        bad += 1
        print("MISMATCH %s:%d (exit %d): %s" % (page, line, p.returncode, cmd))
        if got is None:
            print("  the output is not JSON; stderr: %s" % p.stderr.decode(errors="replace")[:500])
        elif isinstance(want, dict) and isinstance(got, dict):
            for k in sorted(set(want) | set(got)):
                if norm(want.get(k)) != norm(got.get(k)):
                    print("  member %r differs" % k)
        if show:
            sys.stdout.write(p.stdout.decode(errors="replace"))
        if update and got is not None:
            new_text = new_text.replace("```json\n" + block + "\n```",
                                        "```json\n" + p.stdout.decode().rstrip("\n") + "\n```", 1)
    if update and new_text != text:
        open(page, "w", encoding="utf-8").write(new_text)
        print("updated %s" % page)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
