#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""uop-count.py [--mcpu CPU] [--func NAME] [--base OBJ] OBJ...

Every hot loop of the x86 assembly, counted by LLVM's machine-code
analyser (llvm-mca): for each function of each object, each backward
conditional jump closes a loop; its body (from the jump's target to the
jump) is fed to llvm-mca, which models its steady state on the named CPU
(default sapphirerapids; alderlake for a ymm-only view, znver4 for AMD).
Printed per loop: the instructions and uops of one iteration, the cycles
per iteration llvm-mca's scheduling model reaches (Total Cycles /
Iterations), its throughput bound (Block RThroughput: the busiest port),
and the uops the model puts on each vector port.

These are model figures for a CPU this machine may not have: they show
where the uops go and what a change saves, not a speed.  Speed is
measured natively (tools/bench.sh).

--base OBJ compares: every loop of OBJ (an older build of the same file)
is matched to the same function's loop of the same rank, and the change
in uops and cycles is printed beside it.

The objects are those of the userspace harness (make -C tests/unit:
tests/unit/build/arch/x86/*.o), which the kernel build assembles from
the same sources.  Needs llvm-mca-19 and llvm-objdump-19 (llvm-19; GNU
objdump 2.40 cannot decode the SM4 instructions).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

MCA_CANDIDATES = ("llvm-mca-19", "llvm-mca")
FUNC_RE = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
INSN_RE = re.compile(r"^\s*([0-9a-f]+):\s+(.*)$")
JCC_RE = re.compile(r"^(j[a-z]+)\s+(?:0x)?([0-9a-f]+)\s+<([^>+]+)(\+0x[0-9a-f]+)?>")


def llvm_tool(names):
    """The first of NAMES on PATH that is LLVM 19 or later, or None."""
    for name in names:
        path = shutil.which(name)
        if path:
            out = subprocess.run([path, "--version"], capture_output=True,
                                 text=True).stdout
            m = re.search(r"version (\d+)", out)
            if m and int(m.group(1)) >= 19:
                return path
    return None


def find_mca():
    path = llvm_tool(MCA_CANDIDATES)
    if not path:
        sys.exit("uop-count.py: llvm-mca 19 or later not found "
                 "(apt-get install llvm-19)")
    return path


def disassembler():
    """llvm-objdump 19 where there is one (it knows the SM4 and AVX10
    instructions binutils 2.40 decodes as "(bad)"), else objdump."""
    path = llvm_tool(("llvm-objdump-19", "llvm-objdump"))
    if path:
        return [path, "-d", "--no-show-raw-insn"]
    return ["objdump", "-d", "--no-show-raw-insn", "-M", "att"]


def functions(obj):
    """{name: [(address, text)]} of OBJ's code, AT&T syntax."""
    out = subprocess.run(disassembler() + [obj], capture_output=True,
                         text=True, check=True)
    funcs, cur = {}, None
    for line in out.stdout.splitlines():
        m = FUNC_RE.match(line)
        if m:
            cur = funcs.setdefault(m.group(2), [])
            continue
        m = INSN_RE.match(line)
        if m and cur is not None:
            text = m.group(2).split("#")[0].strip()
            if text:
                cur.append((int(m.group(1), 16), text))
    return funcs


def loops(insns):
    """[(start, end index)] of the loops closed by backward jumps."""
    found = []
    for i, (addr, text) in enumerate(insns):
        m = JCC_RE.match(text)
        if not m or m.group(1) == "jmp":
            continue
        target = int(m.group(2), 16)
        if target >= addr:
            continue
        for j in range(i):
            if insns[j][0] == target:
                found.append((j, i))
                break
    return found


def called_by_loops(funcs):
    """The functions some loop of FUNCS calls."""
    names = set()
    for insns in funcs.values():
        for start, end in loops(insns):
            for _, text in insns[start:end]:
                m = re.match(r"call\S*\s+\S+\s+<([^>+]+)", text)
                if m:
                    names.add(m.group(1))
    return names


def mca_text(insns, start, end):
    """The loop body as llvm-mca input, and the functions it calls: its
    hot path, conditional branches not taken and forward jumps followed.
    The branches themselves are left out (their targets are addresses;
    they would only add a port-6 uop), and calls: a mode loop's call of
    the block function is counted apart (that function's own loop), the
    rest is the mode's work around it."""
    body, calls = [], []
    index = {a: i for i, (a, _) in enumerate(insns)}
    i = start
    while i < end:
        text = insns[i][1]
        i += 1
        # The hot path: conditional branches not taken (the loops'
        # rare cases, such as a counter carry, branch off), forward
        # jumps followed (over those cases' code).
        m = JCC_RE.match(text)
        if m and m.group(1) == "jmp":
            target = int(m.group(2), 16)
            if target in index and index[target] > i - 1:
                i = index[target]
            continue
        if text.startswith("j") or text.startswith("ret"):
            continue
        if text.startswith("call"):
            m = re.search(r"<([^>+]+)", text)
            calls.append(m.group(1) if m else text)
            continue
        # objdump's "0x40(%r11){1to16}" is llvm-mc's too; "(bad)" is not.
        if "(bad)" in text:
            raise ValueError("objdump could not decode: " + text)
        body.append(text)
    return "\n".join(body) + "\n", calls


RIP_RE = re.compile(r"(?:0x[0-9a-f]+|-?\d+)?\(%rip\)(\{1to\d+\})?")
VREG_RE = re.compile(r"%[xyz]mm(\d+)")


def hoist_constants(text):
    """TEXT with each rip-relative operand (a constant of .rodata) read
    from a vector register the loop never names, one per constant, or
    None when there are not enough free registers (llvm-mca then refuses
    the forms that have no register operand: the caller leaves it).  llvm-mca charges a
    load-op instruction's load latency to its register operands too
    (12 cycles for a GF2P8AFFINEINVQB with a memory operand on
    Sapphire Rapids' model, against 5 from the register), which makes
    every loop whose S-box matrices are memory operands look latency
    bound; a real core loads the constant off the dependency chain.  The
    register is chosen from 16-31 (EVEX encodings, which the Intel server
    models and Zen 4 accept), of the width the instruction works on."""
    used = {int(n) for n in VREG_RE.findall(text)}
    free = [n for n in range(31, 15, -1) if n not in used]
    regs, out = {}, []
    for line in text.splitlines():
        m = RIP_RE.search(line)
        if m:
            key = (line.split()[0], m.group(0))
            if key not in regs:
                if not free:
                    return None
                regs[key] = free.pop(0)
            widths = re.findall(r"%([xyz])mm", line)
            w = max(widths, key="xyz".index) if widths else "x"
            line = line[:m.start()] + "%%%smm%d" % (w, regs[key]) + line[m.end():]
        out.append(line)
    return "\n".join(out) + "\n"


def run_mca(mca, mcpu, text):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        out = subprocess.run([mca, "-mtriple=x86_64-unknown-linux-gnu",
                              "-mcpu=" + mcpu, "-iterations=200", path],
                             capture_output=True, text=True)
    finally:
        os.unlink(path)
    if out.returncode != 0:
        errs = [l for l in out.stderr.splitlines() if "error:" in l]
        raise ValueError(errs[0] if errs else out.stderr.strip())
    res = {}
    for key, pat in (("iters", r"^Iterations:\s+(\d+)"),
                     ("insns", r"^Instructions:\s+(\d+)"),
                     ("cycles", r"^Total Cycles:\s+(\d+)"),
                     ("uops", r"^Total uOps:\s+(\d+)"),
                     ("rthru", r"^Block RThroughput:\s+([\d.]+)")):
        m = re.search(pat, out.stdout, re.M)
        if not m:
            raise ValueError("llvm-mca printed no " + key)
        res[key] = float(m.group(1))
    # Resource pressure per iteration: the header names the resources
    # ([0] ... [n]), the next line gives the uops each one takes.
    ports = {}
    lines = out.stdout.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Resource pressure per iteration:"):
            names = re.findall(r"\[(\d+)\]", lines[i + 1])
            vals = lines[i + 2].split()
            legend = dict(re.findall(r"^\[(\d+)\]\s+-\s+(\S+)", out.stdout, re.M))
            for n, v in zip(names, vals):
                if v != "-":
                    ports[legend.get(n, n)] = float(v)
            break
    res["ports"] = ports
    return res


def vector_ports(ports):
    """The pressure on the ports that take vector uops, as 'p0 5.0 ...'."""
    keep = []
    for name, val in sorted(ports.items()):
        m = re.search(r"Port0?(\d+)$", name)
        if m and m.group(1) in ("0", "1", "5"):
            keep.append("p%s %.1f" % (m.group(1), val))
        elif re.search(r"(FP|Vec)", name) and "Port" not in name:
            keep.append("%s %.1f" % (name, val))
    return " ".join(keep)


def analyse(mca, mcpu, obj, only):
    """Rows (function, rank, address, llvm-mca figures, error) for every
    loop, and for every loop-free function a loop calls (a straight-line
    block core, such as the SM4-instruction ones), its whole body as
    rank "all"."""
    rows = []
    funcs = functions(obj)
    for name, insns in funcs.items():
        if only and name not in only:
            continue
        found = loops(insns)
        if not found and name in called_by_loops(funcs):
            found = [(0, len(insns))]
            whole = True
        else:
            whole = False
        for rank, (start, end) in enumerate(found):
            if whole:
                rank = "all"
            try:
                text, calls = mca_text(insns, start, end)
                res = run_mca(mca, mcpu, text)
                hoisted = hoist_constants(text)
                try:
                    res["hoisted"] = (run_mca(mca, mcpu, hoisted)
                                      if hoisted else None)
                except ValueError:
                    # An instruction without a register form there
                    # (a broadcast source, VPCLMULQDQ's memory operand).
                    res["hoisted"] = None
            except ValueError as e:
                rows.append((name, rank, insns[start][0], None, str(e)))
                continue
            res["calls"] = calls
            rows.append((name, rank, insns[start][0], res, None))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mcpu", default="sapphirerapids")
    ap.add_argument("--func", action="append", default=[],
                    help="only this function (repeatable)")
    ap.add_argument("--base", help="an older build of the object, to compare")
    ap.add_argument("objs", nargs="+")
    args = ap.parse_args()
    mca = find_mca()
    if args.base and len(args.objs) != 1:
        sys.exit("uop-count.py: --base compares one object")
    base = {}
    if args.base:
        for name, rank, _, res, _ in analyse(mca, args.mcpu, args.base, args.func):
            base[(name, rank)] = res
    failed = 0
    print("# llvm-mca -mcpu=%s, steady state of each loop body (200 iterations)"
          % args.mcpu)
    for obj in args.objs:
        print("%s:" % obj)
        rows = analyse(mca, args.mcpu, obj, args.func)
        if not rows:
            print("  no loop found")
            failed = 1
        for name, rank, addr, res, err in rows:
            where = "%s loop %s (+0x%x)" % (name, rank, addr)
            if err:
                print("  %-44s ERROR: %s" % (where, err))
                failed = 1
                continue
            it = res["iters"]
            h = res["hoisted"]
            line = "  %-44s %4d insns %4d uops %7.2f cycles %s(bound %6.2f)  %s" % (
                where, res["insns"] / it, res["uops"] / it,
                res["cycles"] / it,
                "[%.2f consts in regs] " % (h["cycles"] / h["iters"]) if h else
                "[consts: not in regs] ",
                res["rthru"], vector_ports(res["ports"]))
            if res["calls"]:
                line += "  + calls " + " ".join(sorted(set(res["calls"])))
            old = base.get((name, rank))
            if old:
                oh = old["hoisted"]
                line += "  [was %d uops %.2f cycles%s]" % (
                    old["uops"] / old["iters"], old["cycles"] / old["iters"],
                    ", %.2f consts in regs" % (oh["cycles"] / oh["iters"])
                    if oh else "")
            print(line)
    return failed


if __name__ == "__main__":
    sys.exit(main())
