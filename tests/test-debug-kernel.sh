#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-debug-kernel.sh [--fuzz-iterations N] [--cases N]
#                      [--fault-run-only WORKDIR]: the project's
# modules on the debug kernels (tests/lib/build-debug-kernel.sh: trixie's
# 6.12 source, and with SM4_DEBUG_SUITES="trixie sid" sid's too (7.2
# now); the crypto self-test fuzzer, KASAN, lockdep, DEBUG_ATOMIC_SLEEP,
# DEBUG_PREEMPT; x86_64), in QEMU runs side by side, each in a lane of
# its own (printed in order when all have ended):
#
# 1. On each kernel of SM4_DEBUG_SUITES (default trixie: CI's 2-core
#    budget holds one cold debug-kernel build, see doc/testing.md), on 6.12
#    (CRYPTO_MANAGER_EXTRA_TESTS) tests/guest/run-guest.sh --debug-kernel
#    --parts fuzz,3,4,5: every SM4 algorithm's self-test and fuzzer
#    (cryptomgr.fuzz_iterations=N; cfb(sm4), which testmgr no longer
#    has, by tests/guest/kmod's sm4_cfb_fuzz with N random messages per
#    driver, a quarter with SIMD disabled), then AF_ALG vectors (sm4-afalg check
#    with --cases, default 200, cross with 100: KASAN makes it slow; the
#    matrix's cells run thousands), bad input and dm-crypt/LUKS2; on sid's
#    (CRYPTO_SELFTESTS_FULL, its successor from 6.16) parts fuzz,5.  The
#    console must hold no KASAN, lockdep, might-sleep, BUG or WARNING
#    report.  Must pass.  FUZZ (default 300, three times the kernel's
#    default: what CI's budget holds with four x86 drivers under TCG and
#    the modules tested one at a time, see tests/guest/README.md;
#    SM4_FUZZ_ITERATIONS) fuzz iterations.  No second boot (run-guest.sh
#    skips it on a debug kernel).
# 2. The fault run: the 6.12 kernel (100 fuzz iterations: enough to meet
#    the fault, once; the real drivers had theirs in run 1) with
#    tests/guest/kmod's sm4_broken_test loaded with corrupt_from=33
#    before_test=1 sleep_in_atomic=1: a driver that is wrong only on
#    lengths above every fixed test vector (so only the fuzzer's random
#    vectors meet the fault) and that calls might_sleep() with preemption
#    off.  Must fail, for exactly those reasons: each of
#    ecb/cbc/ctr/xts-sm4-broken and cts-cbc-sm4-broken fails its
#    self-test on a "random:" vector, cfb-sm4-broken (testmgr has no cfb
#    vectors from 6.8) fails tests/guest/kmod's sm4_cfb_fuzz, the console
#    check reports "BUG: sleeping function called from invalid context",
#    every real driver still passes, and nothing else fails.
#
# What it does not run is said by SKIP lines (not_run): sid's debug
# kernel unless SM4_DEBUG_SUITES names it, and any arm64 debug kernel.
#
# --fault-run-only WORKDIR: only run 2, with the modules of the run-guest.sh
# work directory WORKDIR (an earlier run 1).
#
# Prints PASS:/FAIL: lines (run 1's own, then this script's judgement of
# run 2) and TIME: lines; the cold build of the kernel is the first
# run's "build the debug kernel" time.

set -uo pipefail
. "$(dirname "$0")/lib/common.sh"

FUZZ=${SM4_FUZZ_ITERATIONS:-300}
SUITES=${SM4_DEBUG_SUITES:-trixie}
BROKEN_FUZZ=100
CASES=200
FIRST=
while [ $# -gt 0 ]; do
	case $1 in
	--fault-run-only) FIRST=$2; shift 2 ;;
	--fuzz-iterations) FUZZ=$2; shift 2 ;;
	--cases) CASES=$2; shift 2 ;;
	*) die "usage: $0 [--fuzz-iterations N] [--cases N] [--fault-run-only WORKDIR]" ;;
	esac
done
RG="$REPO_ROOT/tests/guest/run-guest.sh"

# debug_kernel SUITE: build (or find cached) SUITE's debug kernel, say
# how long that took.
debug_kernel()
{
	local t0=$(date +%s) d

	d=$("$REPO_ROOT/tests/lib/build-debug-kernel.sh" x86_64 "$1") || {
		echo "FAIL: debug-kernel: the $1 debug kernel did not build"
		return 1
	}
	echo "TIME: debug-kernel $1 ($(cat "$d/kernel.release")) build (or cache hit) $(($(date +%s) - t0)) s; its cold build took $(cat "$d/time") s"
}

# run1 SUITE: run 1 on SUITE's debug kernel: on 6.12 parts fuzz,3,4,5; on
# the newest kernel (CRYPTO_SELFTESTS_FULL) the fuzzer and dm-crypt (the
# budget: AF_ALG vectors and bad input under KASAN on one kernel).
run1()
{
	local parts=fuzz,3,4,5

	debug_kernel "$1" || return 1
	[ "$1" = trixie ] || parts=fuzz,5
	"$RG" --arch x86_64 --suite "$1" --debug-kernel --fuzz-iterations "$FUZZ" \
		--cases "$CASES" --cross-cases 100 --parts "$parts" --timeout 3000
}

# fault_run: run 2 (with the modules of the run-guest.sh work directory
# FIRST if set, else with modules built for it).  Its own FAIL lines are
# expected; this script judges them.
fault_run()
{
	local brc bad=0 m g other reports d n
	local log="$REPO_ROOT/build/guest/debug-broken.log"
	local ver="$REPO_ROOT/build/guest/trixie-x86_64-max-broken-debug/verdict1.txt.clean"

	rm -f "$ver"
	mkdir -p "${log%/*}"
	"$RG" --arch x86_64 --suite trixie --debug-kernel --fuzz-iterations "$BROKEN_FUZZ" \
		--with-broken --broken-args "corrupt_from=33 before_test=1 sleep_in_atomic=1 leak=1" \
		--parts fuzz --cases 100 ${FIRST:+--reuse-modules "$FIRST"} --timeout 3000 >"$log" 2>&1
	brc=$?
	if [ $brc -ne 1 ] || [ ! -s "$ver" ]; then
		echo "FAIL: debug-kernel fault run: run-guest.sh exited with $brc (expected 1) or left no verdict (log $log)"
		tail -n 20 "$log"
		return 1
	fi
	# Each mode the kernel has vectors for (not cfb), and cts(cbc(sm4)),
	# which the shared glue registers over the broken cbc.
	for m in ecb cbc ctr xts cts-cbc; do
		g="${m/-/\\(}\\(sm4\\)"
		[ "$m" = cts-cbc ] && g="$g\\)"
		if grep -qE "^FAIL: x86_64 partfuzz $m-sm4-broken \($g, skcipher, sm4_broken_test\): selftest unknown: (\[[ 0-9.]*\] )?alg: skcipher: $m-sm4-broken (en|de)cryption test failed \(wrong result\) on test vector \"random:" "$ver"; then
			pass "debug-kernel fault run: the fuzzer caught $m-sm4-broken on a random vector ($(grep -oE "partfuzz $m-sm4-broken .*random: len=[0-9]+" "$ver" | sed 's/.*random: //'))"
		else
			fail "debug-kernel fault run: $m-sm4-broken was not caught by the fuzzer on a random vector"
			bad=1
		fi
	done
	# cfb: no testmgr vectors from 6.8 on; sm4_cfb_fuzz.ko (part fuzz)
	# compares each cfb(sm4) driver with CFB over the single-block
	# sm4-generic, and must name the broken one for its output.
	if grep -qE '^FAIL: x86_64 partfuzz cfb-sm4-broken \(cfb\(sm4\), skcipher, sm4_broken_test\): sm4_cfb_fuzz: [1-9][0-9]* of [0-9]+ messages differ from CFB over sm4-generic .*: output differs from the reference ' "$ver"; then
		pass "debug-kernel fault run: sm4_cfb_fuzz caught cfb-sm4-broken ($(grep -oE 'partfuzz cfb-sm4-broken .* messages differ' "$ver" | grep -oE '[0-9]+ of [0-9]+ messages'))"
	else
		fail "debug-kernel fault run: sm4_cfb_fuzz did not report cfb-sm4-broken's wrong output"
		bad=1
	fi
	if grep -qE '^FAIL: x86_64 boot 1: kernel console is clean \(found: .*BUG: sleeping function called from invalid context' "$log"; then
		pass "debug-kernel fault run: the console check reports the injected might_sleep() in atomic context"
	else
		fail "debug-kernel fault run: the injected might_sleep() in atomic context was not reported"
		bad=1
	fi
	# The console check and the suite's kernel-log and taint checks fail
	# on any report, so they are accepted only if every report of the
	# console is the injected one: a "sleeping function" BUG at a line of
	# sm4_broken_test.c or whose call trace is in its bulk functions (the
	# trace's lines can follow another CPU's report: the console of the
	# cold run of 5e593ce had testmgr's WARNING between the BUG and it).  A KASAN, UBSAN,
	# lockdep or other report, of our drivers or not, fails the run.
	# The suite prints kernel log lines again (its own kernel-log check):
	# a timestamped line seen before is skipped.  testmgr's WARNINGs for
	# failed self-tests are the broken driver's while they are no more
	# than the algorithms whose self-test failed on a *-sm4-broken driver
	# (counted, not matched by position: the self-test threads of two
	# CPUs interleave their lines), and a self-test that failed on any
	# other driver is a report of its own.
	reports=$(awk '
		function flush() {
			if (rep != "") { n++; if (!(inj && mine)) { bad++; if (first == "") first = rep } }
			rep = ""; inj = 0; mine = 0
		}
		/^\[ *[0-9]+\.[0-9]+\]/ && seen[$0]++ { next }
		/alg: self-tests for .* using [a-z0-9-]+ failed/ {
			t = $0; sub(/^.*alg: self-tests for /, "", t); sub(/ failed.*/, "", t)
			if (t ~ / using [a-z-]+-sm4-broken$/) {
				if (!(t in brk)) { brk[t] = 1; nbrk++ }
			} else if (!(t in other)) {
				other[t] = 1; n++; bad++; if (first == "") first = $0
			}
		}
		/^\[ *[0-9]+\.[0-9]+\].*(BUG:|WARNING:|UBSAN:|Oops|kernel BUG|general protection fault)/ {
			flush(); rep = $0; inj = /BUG: sleeping function called from invalid context/
			# The BUG line names the might_sleep() site itself: the
			# call trace may come after the report of another CPU began.
			if (/BUG: sleeping function called from invalid context at [^ ]*\/tests\/guest\/kmod\/sm4_broken_test\.c:[0-9]+/)
				mine = 1
			if (/WARNING: .* at crypto\/testmgr\.c:[0-9]+ alg_test/) {
				inj = mine = 1; ntw++
				if (ntw == nbrk + 1) tw1 = $0
			}
			next
		}
		/---\[ end trace/ { flush(); next }
		rep != "" && /sm4_broken_(ecb|cbc|cfb|ctr|xts|flip)/ { mine = 1 }
		END {
			flush()
			if (ntw > nbrk) { bad += ntw - nbrk; if (first == "") first = tw1 }
			printf "%d %d %s\n", n, bad + 0, first
		}' "${ver%/*}/console1.log" 2>/dev/null)
	set -- $reports
	if [ "${1:-0}" -gt 0 ] && [ "${2:-1}" -eq 0 ]; then
		pass "debug-kernel fault run: each of the console's $1 kernel reports is the injected one (sleeping function called from invalid context, in sm4_broken_test)"
	else
		fail "debug-kernel fault run: of ${1:-0} kernel reports on the console, ${2:-?} are not the injected one: ${reports#* * }"
		bad=1
	fi
	# kmemleak found the injected leak, by its backtrace.
	if grep -qE '^FAIL: x86_64 phase 1: kmemleak: [1-9][0-9]* leak\(s\) allocated in this project.s modules: sm4_broken_leak\+' "$ver"; then
		pass "debug-kernel fault run: kmemleak's scan reports the injected leak ($(grep -oE 'kmemleak: [0-9]+ leak\(s\).*' "$ver" | head -n 1))"
	else
		fail "debug-kernel fault run: the injected leak (sm4_broken_test leak=1) was not reported by the kmemleak scan"
		bad=1
	fi
	# Every real driver's own fuzz lines: each passed for some algorithm,
	# its cfb(sm4) sm4_cfb_fuzz's.
	for d in generic aesni-avx aesni-avx2; do
		n=$(grep -cE "^PASS: x86_64 partfuzz ([a-z-]+-)?sm4-$d \(" "$ver")
		if [ "$n" -gt 0 ] && grep -qE "^PASS: x86_64 partfuzz cfb-sm4-$d \(cfb\(sm4\), .*sm4_cfb_fuzz passed: " "$ver"; then
			pass "debug-kernel fault run: sm4-$d's own self-tests and fuzzer passed beside the broken driver ($n algorithms, cfb(sm4) by sm4_cfb_fuzz)"
		else
			fail "debug-kernel fault run: sm4-$d: $n algorithms passed their self-test and fuzzer beside the broken driver, and its cfb(sm4) $(grep -qE "^PASS: x86_64 partfuzz cfb-sm4-$d \(" "$ver" || echo "not ")by sm4_cfb_fuzz"
			bad=1
		fi
	done
	# Nothing else failed: the expected lines above, the suite's own
	# kernel-log and taint checks (the reports just attributed), the
	# host's summary.
	other=$(grep -E '^FAIL: ' "$log" | grep -vE \
		-e 'partfuzz (ecb|cbc|ctr|xts|cts-cbc)-sm4-broken ' \
		-e 'partfuzz cfb-sm4-broken \(cfb\(sm4\), skcipher, sm4_broken_test\): sm4_cfb_fuzz: [0-9]+ of [0-9]+ messages differ from CFB over sm4-generic .*: output differs from the reference ' \
		-e 'boot 1: kernel console is clean \(found: .*BUG: sleeping function' \
		-e 'phase 1: kernel log has a WARNING/BUG/Oops' \
		-e 'phase 1: kmemleak: [0-9]+ leak\(s\) allocated in this project.s modules: sm4_broken_leak\+' \
		-e 'phase 1: kernel tainted ' )
	if [ -z "$other" ]; then
		pass "debug-kernel fault run: nothing else failed"
	else
		echo "$other" | sed 's/^/  | /'
		fail "debug-kernel fault run: other checks failed too"
		bad=1
	fi
	[ $bad = 0 ]
}

# not_run: what this stage leaves out, as SKIP lines in its output
# (tests/run-all counts them and lists their reasons).  sid's debug
# kernel: a second cold build (about 1,600 core-seconds for 7.2, measured
# beside the stages) on top of the 6.12 one (about 700).  An arm64 debug
# kernel: none is configured; estimated from the x86_64 figures, a
# cross-built 6.12 debug kernel (about 700-800 core-seconds) and its TCG
# guest under KASAN (the x86_64 lane's 400 s of about 1.5 cores: about
# 600 core-seconds) would add about 1,400 core-seconds, 11-12 minutes of a
# packed 2-core run that is at ~67 of its 75 minutes.
not_run()
{
	local series

	case " $SUITES " in
	*" sid "*) ;;
	*)
		series=$(ls -d "$CACHE"/chroots/sid/usr/src/linux-headers-*-common 2>/dev/null |
			sed -n 's,.*/linux-headers-\([0-9]*\.[0-9]*\)\..*,\1,p' | sort -V | tail -n1)
		skip "debug-kernel sid${series:+ ($series)}: its debug kernel (the self-tests' fuzzer, KASAN, lockdep) is not built or run: a second cold kernel build (about 1,600 core-seconds for 7.2) does not fit CI's 75-minute budget on 2 cores; SM4_DEBUG_SUITES=\"trixie sid\" tests/run-all --only debug-kernel runs it"
		;;
	esac
	skip "debug-kernel arm64: no arm64 debug kernel: a cross-built 6.12 debug kernel (about 750 core-seconds) and its TCG guest under KASAN (about 600) would add about 1,400 core-seconds, 11-12 minutes of a 2-core run already at ~67 of its 75; sm4-ce and sm4-neon run only in the guest cells (AF_ALG vectors against libgcrypt, the cfb fuzz) and the unit harness, never under KASAN, lockdep or the self-tests' fuzzer"
}

# The runs side by side, each in a lane of its own (each guest keeps
# about one core and a half busy under TCG): run 1 on each kernel of
# SUITES, the fault run (its modules built for itself).
lane_trixie() { run1 trixie; }
lane_sid() { run1 sid; }
lane_fault() { debug_kernel trixie && fault_run; }
if [ -z "$FIRST" ]; then
	lanes=()
	for suite in $SUITES; do
		case $suite in
		trixie|sid) lanes+=("lane_$suite") ;;
		*) die "SM4_DEBUG_SUITES: unknown suite $suite (trixie, sid)" ;;
		esac
	done
	not_run
	run_lanes "$REPO_ROOT/build/guest/debug-lanes" "${lanes[@]}" lane_fault
else
	fault_run
fi
