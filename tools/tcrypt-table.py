#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn tcrypt skcipher speed output (modes 218/518) into SM4 tables.

Reads kernel log text (dmesg, a serial console capture, journalctl -k) from
the files given or from stdin and prints one table per driver in the layout
of doc/../published-benchmarks.md:

    sm4-generic  | 16    64    128   256   1024  1420  4096
    ECB enc      | 40.99 46.50 48.05 48.41 49.20 49.25 49.29

Figures are MB/s (10^6 bytes per second: "B bytes" / "S seconds" of
tcrypt's "N operations in S seconds (B bytes)" lines, sec=N runs) or
cycles per byte (tcrypt's "1 operation in N cycles (B bytes)", sec=0 runs).
When the same test appears several times (several runs, or busybox insmod
retrying a module whose init fails) the median is printed.

--check verifies that every SM4 mode x direction printed a result at every
size and that no transform failed to load; it exits 1 otherwise.
"""

import argparse
import csv
import re
import statistics
import sys

SIZES = [16, 64, 128, 256, 1024, 1420, 4096]

# tcrypt template name -> row label; order of the rows in a table.
MODES = [
    ("ecb(sm4)", "ECB"),
    ("cbc(sm4)", "CBC"),
    ("cfb(sm4)", "CFB"),
    ("ctr(sm4)", "CTR"),
    ("cts(cbc(sm4))", "CTS"),
    ("xts(sm4)", "XTS"),
]
MODE_LABEL = dict(MODES)
MODE_KEYS = {label.lower(): alg for alg, label in MODES}

# Kernel log decorations: "[   12.345678] ", "<6>", "sm4_tcrypt: ".
LOG_PREFIX = re.compile(r"^(?:<\d+>)?(?:\[\s*\d+\.\d+\]\s?)?(?:\w+:\s)?")
RE_HEADER = re.compile(
    r"testing speed of (sync|async) (\S+) \((.*)\) (encryption|decryption)")
RE_JIFFIES = re.compile(
    r"test (\d+) \((\d+) bit key, (\d+) byte blocks\): "
    r"(\d+) operations in (\d+) seconds \((\d+) bytes\)")
RE_CYCLES = re.compile(
    r"test (\d+) \((\d+) bit key, (\d+) byte blocks\): "
    r"1 operation in (\d+) cycles \((\d+) bytes\)")
RE_NOLOAD = re.compile(r"failed to load transform for (\S+): (-?\d+)")
RE_OPFAIL = re.compile(r"(encryption|decryption)\(\) failed flags=(\w+)")
RE_IMPL = re.compile(r"(sm4-[A-Za-z0-9_-]+)")


def size_column(nbytes):
    """Map the size tcrypt ran (rounded up to the block size) to a column."""
    for s in SIZES:
        if nbytes == s or nbytes == (s + 15) // 16 * 16:
            return s
    return nbytes


def impl_of(driver):
    """ "cts(cbc-sm4-aesni-avx)" -> "sm4-aesni-avx"; "cbc(sm4-generic)" ->
    "sm4-generic"; anything else unchanged."""
    m = RE_IMPL.search(driver)
    return m.group(1) if m else driver


class Results:
    def __init__(self):
        # (impl, api, alg, dir, size) -> [values]
        self.values = {}
        # (impl, api) -> set of full driver names seen
        self.drivers = {}
        self.unit = None
        self.errors = []
        self.seen_algs = set()

    def add(self, key, value, unit):
        if self.unit is None:
            self.unit = unit
        elif self.unit != unit:
            self.errors.append("mixed sec=N and sec=0 output; "
                               "ignoring the %s figures" % unit)
            return
        self.values.setdefault(key, []).append(value)

    def value(self, key):
        v = self.values.get(key)
        return statistics.median(v) if v else None

    def blocks(self):
        keys = sorted({(k[0], k[1]) for k in self.values},
                      key=lambda b: (b[1] != "sync", b[0] != "sm4-generic",
                                     b[0]))
        return keys


def parse(lines):
    res = Results()
    cur = None
    for raw in lines:
        line = raw.rstrip("\r\n")
        body = LOG_PREFIX.sub("", line, count=1)
        m = RE_HEADER.search(body)
        if m:
            api, alg, driver, direction = m.groups()
            cur = None
            if alg in MODE_LABEL:
                impl = impl_of(driver)
                cur = (impl, api, alg, "enc" if direction == "encryption"
                       else "dec")
                res.drivers.setdefault((impl, api), set()).add(driver)
                res.seen_algs.add(alg)
            continue
        m = RE_JIFFIES.search(body)
        if m and cur:
            secs, nbytes = int(m.group(5)), int(m.group(6))
            if secs > 0:
                res.add(cur + (size_column(int(m.group(3))),),
                        nbytes / secs / 1e6, "MB/s")
            continue
        m = RE_CYCLES.search(body)
        if m and cur:
            cycles, nbytes = int(m.group(4)), int(m.group(5))
            if nbytes > 0:
                res.add(cur + (size_column(int(m.group(3))),),
                        cycles / nbytes, "cycles/B")
            continue
        m = RE_NOLOAD.search(body)
        if m and m.group(1) in MODE_LABEL:
            res.errors.append("failed to load transform for %s: %s"
                              % (m.group(1), m.group(2)))
            cur = None
            continue
        m = RE_OPFAIL.search(body)
        if m and cur:
            res.errors.append("%s %s (%s): %s() failed flags=%s"
                              % (cur[2], cur[3], cur[0], m.group(1),
                                 m.group(2)))
    return res


def fmt(v):
    if v is None:
        return "-"
    return "%.2f" % v


def print_tables(res, out):
    if not res.values:
        out.write("no SM4 skcipher speed results found\n")
        return
    out.write("# unit: %s (%s)\n" % (res.unit,
              "bytes/seconds/10^6 from tcrypt sec=N runs"
              if res.unit == "MB/s" else "tcrypt sec=0 cycle counts"))
    for impl, api in res.blocks():
        title = impl if api == "sync" else "%s (async)" % impl
        rows = []
        for alg, label in MODES:
            for d in ("enc", "dec"):
                cells = [res.value((impl, api, alg, d, s)) for s in SIZES]
                if all(c is None for c in cells):
                    continue
                rows.append(("%s %s" % (label, d), [fmt(c) for c in cells]))
        head = [str(s) for s in SIZES]
        w0 = max([len(title)] + [len(r[0]) for r in rows])
        widths = [max([len(head[i])] + [len(r[1][i]) for r in rows])
                  for i in range(len(SIZES))]

        def line(first, cells):
            return ("%-*s | " % (w0, first) +
                    " ".join("%-*s" % (widths[i], c)
                             for i, c in enumerate(cells)).rstrip() + "\n")
        out.write("\n")
        out.write(line(title, head))
        for label, cells in rows:
            out.write(line(label, cells))
        drivers = sorted(res.drivers.get((impl, api), ()))
        out.write("# drivers: %s\n" % ", ".join(drivers))


def write_csv(res, path):
    with open(path, "w", newline="") as f:
        f.write("# SPDX-License-Identifier: GPL-2.0\n")
        w = csv.writer(f)
        w.writerow(["implementation", "api", "mode", "direction", "bytes",
                    "value", "unit", "samples"])
        for impl, api in res.blocks():
            for alg, label in MODES:
                for d in ("enc", "dec"):
                    for s in SIZES:
                        key = (impl, api, alg, d, s)
                        if key in res.values:
                            w.writerow([impl, api, label.lower(), d, s,
                                        "%.3f" % res.value(key), res.unit,
                                        len(res.values[key])])


def check(res, modes, drivers, out):
    """Return the number of problems found (0: everything printed)."""
    problems = []
    for e in dict.fromkeys(res.errors):
        n = res.errors.count(e)
        problems.append(e if n == 1 else "%s (%d times)" % (e, n))
    blocks = res.blocks()
    impls = drivers or sorted({b[0] for b in blocks})
    apis = sorted({b[1] for b in blocks}) or ["sync"]
    if not blocks:
        problems.append("no SM4 speed results at all")
    for api in apis:
        for alg in modes:
            for d in ("enc", "dec"):
                row = "%s %s %s" % (api, MODE_LABEL[alg], d)
                if drivers:
                    for i in drivers:
                        miss = [str(s) for s in SIZES
                                if res.value((i, api, alg, d, s)) is None]
                        if miss:
                            problems.append("%s: no result from %s for %s "
                                            "bytes" % (row, i,
                                                       " ".join(miss)))
                    continue
                miss = [str(s) for s in SIZES
                        if all(res.value((i, api, alg, d, s)) is None
                               for i in impls)]
                if miss:
                    problems.append("%s: no result for %s bytes"
                                    % (row, " ".join(miss)))
    for p in problems:
        out.write("CHECK FAIL: %s\n" % p)
    if not problems:
        out.write("CHECK OK: %d modes x 2 directions x %d sizes (%s; %s)\n"
                  % (len(modes), len(SIZES), ", ".join(apis),
                     ", ".join(impls)))
    return len(problems)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", help="kernel log files (default: "
                    "stdin)")
    ap.add_argument("--csv", help="also write the results as CSV")
    ap.add_argument("--check", action="store_true",
                    help="fail unless every mode printed a result")
    ap.add_argument("--modes", default="ecb,cbc,cfb,ctr,cts,xts",
                    help="modes --check requires (default: %(default)s)")
    ap.add_argument("--driver", action="append", default=[],
                    help="--check: require results from this implementation "
                    "(e.g. sm4-aesni-avx); repeatable")
    ap.add_argument("--quiet", action="store_true",
                    help="do not print the tables")
    args = ap.parse_args()

    modes = []
    for m in args.modes.split(","):
        m = m.strip().lower()
        if m not in MODE_KEYS:
            ap.error("unknown mode '%s' (known: %s)"
                     % (m, ", ".join(MODE_KEYS)))
        modes.append(MODE_KEYS[m])

    lines = []
    if args.files:
        for p in args.files:
            with open(p, errors="replace") as f:
                lines.extend(f)
    else:
        lines = sys.stdin.read().splitlines()
    res = parse(lines)
    if not args.quiet:
        print_tables(res, sys.stdout)
    if args.csv:
        write_csv(res, args.csv)
    if args.check:
        sys.stdout.write("\n" if not args.quiet else "")
        return 1 if check(res, modes, args.driver, sys.stdout) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
