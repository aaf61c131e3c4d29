#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-unit.sh ARCH [CASES]: build and run the userspace harness.
#   x86_64:  natively, against libgcrypt, every backend this CPU has;
#            then check that a deliberately broken implementation fails;
#            on a CPU without GFNI, gfni-avx2 again with GFNI emulated
#            (GFNI_EMU_CASES random cases per mode, default 100).
#   aarch64: cross-built, run under qemu-aarch64-static with -cpu max
#            (NEON and the SM4 instructions) and -cpu cortex-a57 (no SM4)
#            against vectors computed by libgcrypt on the host.

set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ARCH=$1
CASES=${2:-10000}
make -s -C "$ROOT/tests/unit" -j"$(nproc)" >&2
case $ARCH in
x86_64)
	"$ROOT/tests/unit/build/sm4-test" --cases "$CASES"
	if "$ROOT/tests/unit/build/sm4-test" --cases 100 --with-broken \
			--impl broken >/dev/null 2>&1; then
		echo "FAIL: unit: the harness missed a deliberately broken implementation"
		exit 1
	fi
	echo "PASS: unit: the harness catches a deliberately broken implementation"
	# Without GFNI, gfni-avx2 runs with its GFNI instructions emulated
	# (a signal each, so fewer random cases; every length still runs).
	if ! grep -qw gfni /proc/cpuinfo; then
		echo "--- gfni-avx2 with GFNI emulated (tests/unit/gfni_emu.c)"
		timeout 1800 "$ROOT/tests/unit/build/sm4-test" --emulate-gfni \
			--impl gfni-avx2 --cases "${GFNI_EMU_CASES:-100}" |
			sed 's/^\(PASS\|FAIL\): /\1: [gfni emulated] /'
	fi
	;;
aarch64)
	make -s -C "$ROOT/tests/unit" ARCH=aarch64 -j"$(nproc)" >&2
	vec="$ROOT/tests/unit/build-aarch64/vectors.bin"
	"$ROOT/tests/unit/build/gen-vectors" "$vec" "$CASES" 7 4200
	rc=0
	for cpu in max cortex-a57; do
		echo "--- qemu-aarch64-static -cpu $cpu"
		qemu-aarch64-static -cpu "$cpu" \
			"$ROOT/tests/unit/build-aarch64/sm4-test" \
			--vectors "$vec" --cases "$CASES" | sed "s/^\(PASS\|FAIL\): /\1: [cpu $cpu] /" || rc=1
	done
	exit $rc
	;;
*)
	echo "usage: $0 x86_64|aarch64 [CASES]" >&2
	exit 2
	;;
esac
