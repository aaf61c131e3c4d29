#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-unit.sh ARCH [CASES]: build and run the userspace harness.
#   x86_64:  natively, against libgcrypt, every backend this CPU has;
#            then check that the harness reports a deliberately broken
#            implementation's mismatches in every mode (and nothing else).
#            On a CPU without GFNI, gfni-avx2 again with GFNI emulated
#            (GFNI_EMU_CASES random cases per mode, default 100).
#            gcm(sm4) and cts(cbc(sm4)) of every backend against
#            libgcrypt (sm4-gcm-test), and that it catches a broken
#            GHASH and a broken CBC.
#            On a CPU without Intel's SM4 instructions, sm4ni-avx2 with
#            them emulated (tests/unit/sm4ni_emu.c; SM4NI_EMU_CASES
#            random cases per mode, default 400, and every length of the lengths suite).
#            On a CPU without AVX-512, the AVX-512 emulator's own check
#            (evex-emu-test: every instruction form of gfni-avx512
#            against native VEX twins or scalar models), then
#            gfni-avx512 with its AVX-512 instructions emulated
#            (tests/unit/evex_emu.c; AVX512_EMU_CASES random cases per
#            mode, default 300, plus every length of the lengths suite)
#            and its gcm(sm4) and cts(cbc(sm4)) in sm4-gcm-test.
#            On a CPU with AVX-512, the same gfni-avx512 runs (20 random
#            cases per mode, every 7th length and every length of the
#            last two block counts) under user-mode QEMU -cpu max
#            (AVX2, no AVX-512, no GFNI), so that the emulators run as on
#            a CPU without them: trixie's qemu-x86_64 (static; bookworm's
#            7.2 keeps no XSAVE state in its signal frames, which the
#            emulators read), downloaded once into the cache.  Not
#            evex-emu-test: its oracles are the CPU's own VEX twins, and
#            QEMU's TCG has no VPCLMULQDQ on ymm.
#            Without both (AVX10.2 is not in /proc/cpuinfo), sm4ni-avx10
#            with the SM4 instructions emulated, and the AVX-512 ones
#            too on a CPU without AVX-512 (with it, they run natively and
#            only the EVEX SM4 forms are emulated, on the real zmm state)
#            (SM4NI_AVX10_EMU_CASES random cases per mode, default 600).
#   aarch64: cross-built, run under qemu-aarch64(-static) with -cpu max
#            (NEON and the SM4 instructions) and -cpu cortex-a57 (no SM4)
#            against vectors computed by libgcrypt on the host (the modes,
#            and gen-vectors --mac: cbcmac, cmac, xcbc, ccm).
#   Both: every request between guard bytes; on x86_64 a broken
#   implementation writing past its output, and one changing its source,
#   must each fail the guard check, and one that never runs (reported
#   unsupported) must fail every check that counts what ran.

set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib/common.sh"	# run_lanes
ARCH=$1
CASES=${2:-10000}
make -s -C "$ROOT/tests/unit" -j"$(nproc)" >&2

# expect_broken CMD...: CMD runs the harness on its deliberately broken
# implementation only.  It must finish (its "N passed, N failed" line,
# exit status 1) with a "diff: broken MODE: ... K mismatches" failure,
# K > 0, for every mode, and fail nothing that does not name "broken".
expect_broken()
{
	local log="$ROOT/tests/unit/build/broken.log" rc=0 why='' m last nfail

	"$@" >"$log" 2>&1 || rc=$?
	last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1) || true
	nfail=$(grep -c '^FAIL: ' "$log") || true
	if [ -z "$last" ]; then
		why="the harness did not finish (exit status $rc, no \"N passed, N failed\" line)"
	elif [ "$rc" -ne 1 ]; then
		why="exit status $rc, expected 1 (failed checks)"
	elif [ "${last#* passed, }" != "$nfail failed" ]; then
		why="its summary \"$last\" disagrees with its $nfail FAIL lines"
	elif grep '^FAIL: ' "$log" | grep -qv ': broken[ :]'; then
		why="failures not of the broken implementation: $(grep '^FAIL: ' "$log" |
			grep -v ': broken[ :]' | head -n 3 | tr '\n' ' ')"
	else
		for m in ecb cbc cfb ctr xts; do
			grep -qE "^FAIL: diff: broken $m: [0-9]+ cases vs libgcrypt, [1-9][0-9]* mismatches$" \
				"$log" || why="$why $m"
		done
		for m in cbcmac cmac xcbc ccm; do
			grep -qE "^FAIL: mac: broken $m: [0-9]+ cases vs libgcrypt, [1-9][0-9]* mismatches$" \
				"$log" || why="$why $m"
		done
		[ -z "$why" ] || why="no mismatch reported for broken$why"
	fi
	if [ -n "$why" ]; then
		echo "FAIL: unit: the harness does not catch the deliberately broken implementation in every mode: $why (log: $log)"
		tail -n 5 "$log" | sed 's/^/  | /'
		return 1
	fi
	echo "PASS: unit: the harness catches the deliberately broken implementation: $(grep -c '^FAIL: diff: broken ' "$log") modes and $(grep -c '^FAIL: mac: broken ' "$log") MAC/CCM algorithms mismatch libgcrypt, nothing else fails"
}
# expect_guard FAULT REGEX: the harness on its broken implementation with
# FAULT (overrun, srcwrite), whose results are right, must fail
# the guard check, with REGEX, blaming "broken" (its KAT, lengths and diff
# checks fail too: a request that breaks a guard fails).
expect_guard()
{
	local log="$ROOT/tests/unit/build/broken-$1.log" line

	"$ROOT/tests/unit/build/sm4-test" --cases 100 --with-broken="$1" \
		--impl broken >"$log" 2>&1 || true
	line=$(grep -E "^FAIL: guard: .*$2.*: by broken$" "$log") || true
	if [ -n "$line" ]; then
		echo "PASS: unit: --with-broken=$1 is caught by the guard check: ${line#FAIL: }"
	else
		echo "FAIL: unit: --with-broken=$1 went unnoticed by the guard check (log: $log)"
		return 1
	fi
}
# expect_unsupported: the harness on an implementation that reports
# itself unsupported (an SM4-instruction one, SM4 emulated) runs nothing:
# the checks that count what ran must fail for it, each with its reason.
expect_unsupported()
{
	local log="$ROOT/tests/unit/build/broken-unsupported.log" re why=''

	"$ROOT/tests/unit/build/sm4-test" --cases 10 --emulate-sm4ni \
		--with-broken=unsupported --impl broken >"$log" 2>&1 || true
	for re in '^FAIL: guard: 0 of 0 requests .*\(no requests: nothing was checked\)$' \
		  '^FAIL: impl: --impl broken never ran: ' \
		  '^FAIL: emulated: 0 SM4 instructions for broken \(skipped'; do
		grep -qE "$re" "$log" || why="$why no line /$re/;"
	done
	grep -qE '^[0-9]+ passed, 3 failed$' "$log" || why="$why not exactly 3 failures;"
	if [ -n "$why" ]; then
		echo "FAIL: unit: an implementation that never ran is not a failure:$why (log: $log)"
		return 1
	fi
	echo "PASS: unit: an implementation that never ran fails the counting checks: $(grep '^FAIL: ' "$log" | cut -d: -f2 | tr -d ' ' | tr '\n' ' ')"
}
# expect_gcm_broken: sm4-gcm-test on its broken implementation must fail
# both suites for it (wrong cases counted) and nothing else.
expect_gcm_broken()
{
	local log="$ROOT/tests/unit/build/gcm-broken.log" rc=0 s why=''

	"$ROOT/tests/unit/build/sm4-gcm-test" --with-broken --impl broken \
		--cases 50 >"$log" 2>&1 || rc=$?
	[ "$rc" -eq 1 ] || why="exit status $rc, expected 1;"
	for s in gcm cts; do
		grep -qE "^FAIL: $s broken: [0-9]+ cases .*, [1-9][0-9]* wrong$" \
			"$log" || why="$why no $s failure;"
	done
	! grep '^FAIL: ' "$log" | grep -qv '^FAIL: [a-z]* broken: ' ||
		why="$why other failures;"
	if [ -n "$why" ]; then
		echo "FAIL: unit: sm4-gcm-test does not catch its broken GHASH/CBC: $why (log: $log)"
		return 1
	fi
	echo "PASS: unit: sm4-gcm-test catches the broken GHASH and CBC: $(grep -h '^FAIL: ' "$log" | sed 's/^FAIL: //; s/ (.*), / /' | tr '\n' ';')"
}

# emulated LABEL SECONDS CMD...: an emulated run, its PASS/FAIL/SKIP
# lines tagged "[LABEL emulated]"; one that times out, dies or ends
# without its "N passed, N failed" line gets a FAIL line of its own.
emulated()
{
	local label=$1 t=$2 log rc=0

	shift 2
	log="$ROOT/tests/unit/build/emulated-$label-${EMU_NAME:-${1##*/}}.log"
	timeout -k 10 "$t" "$@" >"$log" 2>&1 || rc=$?
	sed "s/^\(PASS\|FAIL\|SKIP\): /\1: [$label emulated] /" "$log"
	if ! grep -qE '^[0-9]+ passed, [0-9]+ failed$' "$log"; then
		echo "FAIL: unit: [$label emulated] ${EMU_NAME:-${1##*/}} did not finish (exit status $rc, 124: timed out after $t s; log: $log)"
		[ "$rc" -ne 0 ] || rc=1
	fi
	return "$rc"
}

case $ARCH in
x86_64)
	"$ROOT/tests/unit/build/sm4-test" --cases "$CASES"
	"$ROOT/tests/unit/build/sm4-gcm-test" --cases 1000
	expect_gcm_broken
	expect_broken "$ROOT/tests/unit/build/sm4-test" --cases 100 \
		--with-broken --impl broken
	expect_guard overrun "[1-9][0-9]* of [0-9]+ requests wrote outside their output buffer"
	expect_guard srcwrite "[1-9][0-9]* of [0-9]+ out-of-place requests modified their source"
	expect_unsupported
	# Every EVEX instruction of the AVX-512/AVX10 objects has a form in
	# the emulator, whatever this CPU runs natively.
	"$ROOT/tests/unit/evex-forms-check.sh" \
		"$ROOT/tests/unit/build/arch/x86/sm4-gfni-avx512-asm_64.o" \
		"$ROOT/tests/unit/build/arch/x86/sm4-ni-avx10-asm_64.o" || true
	# The emulated runs are single-threaded: two lanes run side by side
	# (each into its own file, printed in order when both have ended).
	lane_a()
	{
		# Without GFNI, gfni-avx2 runs with its GFNI instructions emulated
		# (a signal each, so fewer random cases; every length still runs).
		if ! grep -qw gfni /proc/cpuinfo; then
			echo "--- gfni-avx2 with GFNI emulated (tests/unit/gfni_emu.c)"
			timeout 1800 "$ROOT/tests/unit/build/sm4-test" --emulate-gfni \
				--impl gfni-avx2 --cases "${GFNI_EMU_CASES:-100}" |
				sed 's/^\(PASS\|FAIL\): /\1: [gfni emulated] /'
			timeout 1800 "$ROOT/tests/unit/build/sm4-gcm-test" \
				--emulate-gfni --impl gfni-avx2 --grid 20 --cases 30 |
				sed 's/^\(PASS\|FAIL\): /\1: [gfni emulated] /'
		fi
		# No CPU here has the SM4 instructions: sm4ni-avx2 runs with them
		# emulated (one signal per run of SM4 instructions).  On a CPU with
		# them the first run above covered it natively.
		if ! grep -qw sm4 /proc/cpuinfo; then
			echo "--- sm4ni-avx2 with the SM4 instructions emulated (tests/unit/sm4ni_emu.c)"
			timeout 1800 "$ROOT/tests/unit/build/sm4-test" --emulate-sm4ni \
				--impl sm4ni-avx2 --cases "${SM4NI_EMU_CASES:-400}" |
				sed 's/^\(PASS\|FAIL\): /\1: [sm4ni emulated] /'
		fi
		qemu_avx512
	}
	lane_b()
	{
		# Without AVX-512, gfni-avx512 runs with its AVX-512 and opmask
		# instructions emulated (tests/unit/evex_emu.c), after the emulator's
		# own check (whose failure ends the stage); on a CPU with AVX-512 and
		# GFNI the first run above covered it natively.  About two minutes
		# on this project's 2-core Zen 3 host (sm4-gcm-test: the full grid
		# of AAD x text lengths, boundaries and 200 random cases, ~45 s).
		if ! grep -qw avx512f /proc/cpuinfo; then
			echo "--- gfni-avx512 with AVX-512 emulated (tests/unit/evex_emu.c)"
			emulated avx512 300 "$ROOT/tests/unit/build/evex-emu-test"
			# --emulate-gfni too: its key expansion is VEX GFNI
			# on xmm (SM4_GFNI_EXPAND_KEY_BODY), unlike its EVEX code.
			emulated avx512 900 "$ROOT/tests/unit/build/sm4-test" \
				--emulate-avx512 --emulate-gfni --impl gfni-avx512 \
				--cases "${AVX512_EMU_CASES:-300}"
			emulated avx512 300 "$ROOT/tests/unit/build/sm4-gcm-test" \
				--emulate-avx512 --emulate-gfni --impl gfni-avx512 \
				--cases 200
		fi
		# Nor the EVEX SM4 forms (AVX10.2): sm4ni-avx10 runs with the SM4
		# instructions emulated by sm4ni_emu.c and everything EVEX, SM4
		# included, by evex_emu.c; on a CPU with AVX-512 only the EVEX
		# instructions it lacks, on its real zmm state.
		if ! grep -qw avx512f /proc/cpuinfo || ! grep -qw sm4 /proc/cpuinfo; then
			if grep -qw avx512f /proc/cpuinfo; then
				echo "--- sm4ni-avx10 with AVX-512 native, the SM4 instructions and their EVEX forms emulated (tests/unit/sm4ni_emu.c, evex_emu.c)"
			else
				echo "--- sm4ni-avx10 with SM4 and AVX-512 emulated (tests/unit/sm4ni_emu.c, evex_emu.c)"
			fi
			# 600 cases (3000 until CI's run of df2c851 ran out of
			# its 90 minutes): 23 s alone on a Zen 5 host, 68 s at
			# 3000; nearly all of it system time (a signal per
			# emulated instruction run), which a CI virtual
			# machine pays several times over.  The timeout is a
			# hang guard, not a speed check.
			emulated sm4ni-avx10 1200 "$ROOT/tests/unit/build/sm4-test" \
				--emulate-sm4ni --emulate-avx512 --impl sm4ni-avx10 \
				--cases "${SM4NI_AVX10_EMU_CASES:-600}"
		fi
	}
	# gfni-avx512 with both emulators on a CPU that has AVX-512 (see the
	# top): user-mode QEMU without them.  In lane A, after sm4ni-avx2:
	# a third lane beside the others starved them under the cold run's
	# background stages (the 600 s of sm4ni-avx10 ran out).
	qemu_avx512()
	{
		local deb dir q
		grep -qw avx512f /proc/cpuinfo || return 0
		echo "--- gfni-avx512 under qemu-x86_64 -cpu max: AVX-512 and GFNI emulated (tests/unit/evex_emu.c, gfni_emu.c)"
		dir="$CACHE/qemu-user-trixie"
		q="$dir/root/usr/bin/qemu-x86_64"
		if [ ! -x "$q" ]; then
			if ! deb=$(suite_download trixie qemu-user "$dir"); then
				echo "FAIL: unit: [qemu avx512 emulated] cannot download trixie's qemu-user"
				return 1
			fi
			rm -rf "$dir/root.new"
			mkdir -p "$dir/root.new"
			if ! dpkg-deb --fsys-tarfile "$deb" |
					tar -x -C "$dir/root.new" ./usr/bin/qemu-x86_64; then
				echo "FAIL: unit: [qemu avx512 emulated] no usr/bin/qemu-x86_64 in $deb"
				return 1
			fi
			rm -rf "$dir/root"
			mv "$dir/root.new" "$dir/root"
		fi
		"$q" --version | head -n1
		EMU_NAME=sm4-test emulated qemu-avx512 900 "$q" -cpu max \
			"$ROOT/tests/unit/build/sm4-test" --emulate-avx512 \
			--emulate-gfni --impl gfni-avx512 --cases 20 \
			--lengths-stride 7
		EMU_NAME=sm4-gcm-test emulated qemu-avx512 300 "$q" -cpu max \
			"$ROOT/tests/unit/build/sm4-gcm-test" --emulate-avx512 \
			--emulate-gfni --impl gfni-avx512 --grid 20 --cases 30
	}
	run_lanes "$ROOT/tests/unit/build/lanes" lane_a lane_b
	;;
aarch64)
	make -s -C "$ROOT/tests/unit" ARCH=aarch64 -j"$(nproc)" >&2
	vec="$ROOT/tests/unit/build-aarch64/vectors.bin"
	"$ROOT/tests/unit/build/gen-vectors" "$vec" "$CASES" 7 4200
	macvec="$ROOT/tests/unit/build-aarch64/mac-vectors.bin"
	"$ROOT/tests/unit/build/gen-vectors" --mac "$macvec" "$CASES" 7
	# bookworm's static user-mode QEMU is qemu-aarch64-static
	# (qemu-user-static); from trixie on qemu-user's qemu-aarch64 is.
	qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64) || {
		echo "FAIL: unit aarch64: no qemu-aarch64-static or qemu-aarch64 (run tests/install-deps.sh)"
		exit 1
	}
	rc=0
	for cpu in max cortex-a57; do
		echo "--- $qemu -cpu $cpu"
		"$qemu" -cpu "$cpu" \
			"$ROOT/tests/unit/build-aarch64/sm4-test" \
			--vectors "$vec" --mac-vectors "$macvec" --cases "$CASES" | sed "s/^\(PASS\|FAIL\): /\1: [cpu $cpu] /" || rc=1
	done
	exit $rc
	;;
*)
	echo "usage: $0 x86_64|aarch64 [CASES]" >&2
	exit 2
	;;
esac
