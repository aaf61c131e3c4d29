#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-sm4ni-insn.sh [CHROOT]: check the byte encodings of Intel's SM4
# instructions that arch/x86/sm4-ni.h emits (sm4ni_rnds4, sm4ni_key4)
# against a binutils that knows the mnemonics (2.42 or later for VEX,
# 2.44 or later for EVEX: trixie's, sid's; Debian 12's 2.40 knows
# neither).  With CHROOT, its gcc and binutils are used (e.g.
# .cache/chroots/trixie), else the host's.
#
# Every register triple, xmm and ymm (VEX, registers 0-15, 16^3) and zmm
# (EVEX.512, registers 0-31, 32^3), both instructions, 81,920
# instructions: assembled once through the macros and once from the
# mnemonics; the two .text sections must be byte for byte equal, and the
# disassembly of the macro-built object must be exactly the expected
# mnemonic list.  Prints PASS:/FAIL: lines; exit status 1 on a failure.

set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CHR=${1:-}
if [ -n "$CHR" ]; then
	run() { chroot "$CHR" "$@"; }
else
	run() { "$@"; }
fi
rel=$(mktemp -d "${CHR:-}/tmp/sm4ni-insn.XXXXXX") || exit 1
trap 'rm -rf "$rel"' EXIT
dir=${rel#"${CHR:-}"}
tag="check-sm4ni-insn${CHR:+ ($(basename "$CHR"))}"

if ! printf 'vsm4rnds4 %%ymm1,%%ymm2,%%ymm3\nvsm4rnds4 %%zmm1,%%zmm2,%%zmm30\n' |
		run as -o /dev/null - 2>/dev/null; then
	echo "FAIL: $tag: this binutils ($(run as --version | head -n 1)) does not know the SM4 instructions on ymm and zmm: use one from 2.44 on"
	exit 1
fi
cp "$ROOT/arch/x86/sm4-ni.h" "$rel/"
{
	echo '#include "sm4-ni.h"'
	echo '.text'
} >"$rel/macro.S"
for op in rnds4 key4; do
	for l in 0 1 2; do
		case $l in
		0) v=xmm n=15 ;;
		1) v=ymm n=15 ;;
		2) v=zmm n=31 ;;
		esac
		for a in $(seq 0 $n); do
			for b in $(seq 0 $n); do
				for c in $(seq 0 $n); do
					echo "sm4ni_$op $l, $a, $b, $c" >&3
					echo "vsm4$op %$v$a,%$v$b,%$v$c"
				done
			done
		done
	done
done >"$rel/mnem.s" 3>>"$rel/macro.S"
cp "$rel/mnem.s" "$rel/expect.txt"
if ! run gcc -D__ASSEMBLY__ -c -o "$dir/macro.o" "$dir/macro.S" ||
   ! run as -o "$dir/mnem.o" "$dir/mnem.s"; then
	echo "FAIL: $tag: assembling failed"
	exit 1
fi
run objcopy -O binary -j .text "$dir/macro.o" "$dir/macro.bin"
run objcopy -O binary -j .text "$dir/mnem.o" "$dir/mnem.bin"
rc=0
n=$(wc -l <"$rel/expect.txt")
if cmp -s "$rel/macro.bin" "$rel/mnem.bin"; then
	echo "PASS: $tag: $n encodings of sm4-ni.h equal $(run as --version | head -n 1)'s ($(stat -c %s "$rel/macro.bin") bytes)"
else
	echo "FAIL: $tag: sm4-ni.h's encodings differ from the assembler's: $(cmp "$rel/macro.bin" "$rel/mnem.bin" | head -n 1)"
	rc=1
fi
run objdump -d --no-show-raw-insn "$dir/macro.o" |
	sed -n 's/^ *[0-9a-f]*:[[:space:]]*\(vsm4.*\)$/\1/p' | tr -s ' \t' ' ' |
	sed 's/ *$//; s/ /\t/' | tr '\t' ' ' >"$rel/disasm.txt"
if diff -q "$rel/expect.txt" "$rel/disasm.txt" >/dev/null; then
	echo "PASS: $tag: objdump disassembles all $n as the intended instructions"
else
	echo "FAIL: $tag: objdump disassembles sm4-ni.h's bytes differently:"
	diff "$rel/expect.txt" "$rel/disasm.txt" | head -n 6
	rc=1
fi
exit $rc
