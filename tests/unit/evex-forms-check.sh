#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# evex-forms-check.sh OBJ...: every EVEX-encoded instruction of the
# objects (the AVX-512 and AVX10 backends, as the harness assembles them)
# is one whose mnemonic tests/unit/evex_emu.c has a form for.  The
# emulated runs only reach the forms a host without AVX-512 executes; on
# a host with AVX-512 those runs do not happen at all, so a form the
# emulator lacks (VPXORQ, VPANDQ and VMOVDQU64 from e7abec2 on) shows
# only on the next host without it.  This reads the objects instead.
#
# The disassembler is LLVM's (GNU objdump loses the instruction stream
# at the EVEX SM4 forms); those it cannot name either (<unknown>) are
# named here from their bytes: map 0F38, opcode DA, prefix F3 VSM4KEY4
# and F2 VSM4RNDS4.  Comparison aliases (VPCMPLTUQ, ...) count as their
# base form.  One PASS or FAIL line; exit status 1 on a FAIL.

set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
EMU=$ROOT/tests/unit/evex_emu.c

dis=
for d in llvm-objdump-21 llvm-objdump-20 llvm-objdump-19 llvm-objdump; do
	if command -v "$d" >/dev/null 2>&1; then
		dis=$d
		break
	fi
done
if [ -z "$dis" ]; then
	echo "FAIL: unit: evex forms: no llvm-objdump (package llvm, tests/install-deps.sh)"
	exit 1
fi
if [ $# -eq 0 ]; then
	echo "FAIL: unit: evex forms: no object given"
	exit 1
fi

forms=$(grep -o 'FORM("[a-z0-9]*"' "$EMU" | sed 's/FORM("//; s/"//' | sort -u)
if [ -z "$forms" ]; then
	echo "FAIL: unit: evex forms: no FORM(...) lines in $EMU"
	exit 1
fi

used=
for o in "$@"; do
	if [ ! -s "$o" ]; then
		echo "FAIL: unit: evex forms: $o missing"
		exit 1
	fi
	# Field 1: "addr: bytes", field 2: the mnemonic (tab-separated).
	used+=$("$dis" -d "$o" | awk -F'\t' -v hex=0123456789abcdef '
		$1 ~ /^ *[0-9a-f]+: 62 / {
			m = $2
			if (m == "<unknown>") {
				split($1, f, ": ")
				n = split(f[2], b, " ")
				# b[1] = 62, b[2..4] = P0..P2, b[5] = opcode;
				# P0 bits 2:0 the map, P1 bits 1:0 the prefix
				# (low hex digits, mawk has no bit operations)
				mm = (index(hex, substr(b[2], 2, 1)) - 1) % 8
				pp = (index(hex, substr(b[3], 2, 1)) - 1) % 4
				# LLVM 14 knows no EVEX length for some
				# forms: it prints "62" alone and resyncs
				if (n < 5)
					m = "undecodable"
				else if (mm == 2 && b[5] == "da")
					m = pp == 2 ? "vsm4key4" : \
					    pp == 3 ? "vsm4rnds4" : m
			}
			sub(/^vpcmp(eq|lt|le|neq|nlt|nle|false|true)u/, "vpcmpu", m)
			print m
		}')$'\n'
done
used=$(printf '%s' "$used" | sed '/^$/d')
count=$(printf '%s\n' "$used" | grep -c .)
names=$(printf '%s\n' "$used" | sort -u)
if [ "$count" -eq 0 ]; then
	echo "FAIL: unit: evex forms: no EVEX instruction found in $* (disassembler $dis)"
	exit 1
fi
if printf '%s\n' "$names" | grep -qx undecodable; then
	echo "FAIL: unit: evex forms: $dis cannot decode every EVEX instruction of $(basename -a "$@" | tr '\n' ' ')(it prints a lone 62 byte: LLVM 19 or newer is needed, package llvm-19, tests/install-deps.sh)"
	exit 1
fi
missing=$(comm -23 <(printf '%s\n' "$names") <(printf '%s\n' "$forms") | tr '\n' ' ')
if [ -n "$missing" ]; then
	echo "FAIL: unit: evex forms: EVEX instructions of $(basename -a "$@" | tr '\n' ' ')with no form in tests/unit/evex_emu.c: $missing"
	exit 1
fi
echo "PASS: unit: evex forms: all $count EVEX instructions of $(basename -a "$@" | tr '\n' ' ')($(printf '%s\n' "$names" | grep -c .) mnemonics) have a form in tests/unit/evex_emu.c ($dis)"
