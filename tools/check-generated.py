#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-generated.py: what each tools/gen-*.py derives against the copy
in the sources.

The generators derive the project's constants and check their own models;
the values live on as copies in headers and tables.  This runs every
generator and compares:
  gen-sm4-ghash-consts.py   its #define lines = the SM4_GHASH_* ones of
                            arch/x86/sm4-ghash.h
  gen-sm4-gfni-consts.py    its #define lines = the SM4_GFNI_* ones of
                            arch/x86/sm4-gfni.h
  gen-sm4-aesni-tables.py   every table it prints (a .L label and its
                            lines) = the table of that label in
                            arch/x86/sm4-aesni-modes.S
  gen-sm4-tables.py         crypto_sm4_sbox and crypto_sm4_ck: the same
                            values in lib/sm4.c
One PASS or FAIL line each, with what differs; exit status 1 on a FAIL.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(
    os.path.abspath(__file__)), ".."))


def run(gen):
    res = subprocess.run([sys.executable, os.path.join(ROOT, "tools", gen)],
                         capture_output=True, text=True, timeout=600,
                         check=False)
    if res.returncode:
        raise RuntimeError("%s exited %d: %s" % (gen, res.returncode,
                                                 res.stderr.strip()[-300:]))
    return res.stdout


def source(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def defines(text, prefix):
    """name -> value text (blanks collapsed) of the #define lines of prefix."""
    out = {}
    for m in re.finditer(r"^#define\s+(%s\w*(?:\([^)]*\))?)\s+(.+?)\s*$" %
                         prefix, text, re.M):
        out[m.group(1)] = re.sub(r"\s+", " ", m.group(2))
    return out


def compare_defines(gen, path, prefix):
    got, want = defines(run(gen), prefix), defines(source(path), prefix)
    if not got:
        return False, "%s printed no %s #define" % (gen, prefix)
    diff = sorted(n for n in set(got) | set(want) if got.get(n) != want.get(n))
    if diff:
        return False, "; ".join("%s: %s printed %s, %s has %s" %
                                (n, gen, got.get(n, "nothing"), path,
                                 want.get(n, "nothing")) for n in diff)
    return True, "%s: %d constants as %s prints them" % (path, len(got), gen)


def label_blocks(text):
    """.L label -> its lines (blanks collapsed), up to the next label."""
    out, cur = {}, None
    for line in text.splitlines():
        t = re.sub(r"\s+", " ", line.split("/*")[0]).strip()
        if not t or t.startswith("*"):
            continue
        m = re.match(r"^(\.L\w+):$", t)
        if m:
            cur = m.group(1)
            out[cur] = []
        elif t.startswith(".section"):
            cur = None
        elif cur and not t.startswith((".balign", ".align")):
            out[cur].append(t)
    return out


def compare_tables(gen, path):
    got, want = label_blocks(run(gen)), label_blocks(source(path))
    if not got:
        return False, "%s printed no table" % gen
    diff = sorted(k for k in got if got[k] != want.get(k))
    if diff:
        return False, "%s: %s differ from %s's" % (path, ", ".join(diff), gen)
    return True, "%s: its %d tables as %s prints them" % (path, len(got), gen)


def c_array(text, name):
    m = re.search(r"\b%s\[\d+\][^={]*=\s*\{([^}]*)\}" % name, text)
    return [int(v, 16) for v in re.findall(r"0x[0-9a-fA-F]+", m.group(1))] \
        if m else None


def compare_c_arrays(gen, path, names):
    out, src = run(gen), source(path)
    for name in names:
        got, want = c_array(out, name), c_array(src, name)
        if not got:
            return False, "%s printed no %s" % (gen, name)
        if got != want:
            return False, "%s: %s differs from %s's" % (path, name, gen)
    return True, "%s: %s as %s prints them" % (path, ", ".join(names), gen)


CHECKS = [
    ("gen-sm4-ghash-consts.py", compare_defines,
     ("arch/x86/sm4-ghash.h", "SM4_GHASH_")),
    ("gen-sm4-gfni-consts.py", compare_defines,
     ("arch/x86/sm4-gfni.h", "SM4_GFNI_")),
    ("gen-sm4-aesni-tables.py", compare_tables,
     ("arch/x86/sm4-aesni-modes.S",)),
    ("gen-sm4-tables.py", compare_c_arrays,
     ("lib/sm4.c", ("crypto_sm4_sbox", "crypto_sm4_ck"))),
]


def main():
    failed = 0
    for gen, fn, args in CHECKS:
        try:
            ok, what = fn(gen, *args)
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
            ok, what = False, str(e)
        print("%s: generated constants: %s" % ("PASS" if ok else "FAIL", what))
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
