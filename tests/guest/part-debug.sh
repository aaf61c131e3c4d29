# SPDX-License-Identifier: GPL-2.0
#
# In-guest part for the debug kernel (tests/lib/build-debug-kernel.sh;
# sourced by tests/guest/suite.sh, busybox sh; uses its helpers).
#
# part fuzz: the crypto manager's self-tests with the fuzzer
#   (CONFIG_CRYPTO_MANAGER_EXTRA_TESTS: random lengths, scatterlist
#   splits, misalignments, SIMD disabled, compared with the generic
#   implementation, cryptomgr.fuzz_iterations rounds) for every SM4
#   algorithm the project's modules register:
#   - the kernel says the extra (up to 6.15) or full (6.16 on) tests are
#     on, and their switch (noextratests, noslowtests) is off;
#   - the generic reference instances (ecb/cbc/ctr(sm4-generic),
#     xts(ecb(sm4-generic))) are allocated and their own tests waited
#     for first (see fuzz_references);
#   - every module is loaded (ENODEV where the CPU lacks its features),
#     and the tests, which run in the background from registration, are
#     waited for: an algorithm is done when /proc/crypto says "selftest:
#     passed" or the kernel logged "alg: self-tests for NAME using DRIVER
#     failed";
#   - cfb(sm4), which testmgr has no entry for from 6.8 (and no generic
#     cfb to fuzz against): tests/guest/kmod's sm4_cfb_fuzz.ko over every
#     cfb(sm4) driver, CFB_FUZZ (default: fuzz_iterations) random
#     messages each against CFB over the single-block sm4-generic, a
#     quarter with SIMD disabled as testmgr disables it (suite.sh,
#     cfb_fuzz_run);
#   - per driver: PASS if passed with no "alg:" message naming it (a
#     cfb(sm4) driver: and sm4_cfb_fuzz passed it); SKIP if testmgr has
#     no vectors for it ("alg: No test for": nothing was tested, not a
#     pass); FAIL otherwise, with the kernel's first "alg:" message about
#     it (a fuzzer catch names a "random:" vector) or sm4_cfb_fuzz's;
#   - no "skipping comparison tests" (the fuzzer found no generic
#     implementation to compare with) and no "alg:" error about anything.
#
# With sm4_broken_test loaded ($BROKEN=1) its drivers are tested too:
# tests/test-debug-kernel.sh expects exactly their failures.

FUZZ_WAIT=${FUZZ_WAIT:-1200}

# fuzz_references TAG: the generic implementations the fuzzer compares
# with are template instances over sm4-generic, self-tested when first
# allocated, and an allocation waits at most 60 s for that test (the
# crypto API's larval timeout, then -ETIMEDOUT): under KASAN and TCG, with
# every driver's fuzzer running beside it, it can take longer, and the
# driver under test would fail with "error allocating xts(ecb(sm4-generic))
# ...: -110".  So every reference testmgr names for an SM4 algorithm is
# allocated first, before any driver of this project is loaded (AF_ALG
# binds side by side, retried until every test is done).  (Measured:
# 1000 iterations under a load of 25 made the test of
# xts(ecb(sm4-generic)) outlast the 60 s, failing xts-sm4-aesni-avx; a
# load of 7 did the same to the gcm and cts references before they were
# on this list.)  The GHASH of gcm's
# reference is the kernel's generic one: ghash-generic, or where GHASH is
# a library and no such shash exists (7.2), the name gcm_base takes for
# it, ghash-lib (without it 7.2's gcm-sm4-aesni-avx failed with -110).
# A retry does not rescue a reference whose test outlasted the wait: the
# test's result then finds no larval ("alg: Unexpected test result for
# gcm_base(ctr(sm4-generic),ghash-generic): 0", seen beside a loaded
# host), the instance stays untested, and every later bind waits its 60 s
# and fails, until FUZZ_WAIT.  What costs is the extra tests of the
# generic AEADs: not a comparison (the generic is compared with nothing)
# but fuzz_iterations * 8 inauthentic inputs of the kernel's own gcm and
# ccm templates.  So the references are tested with REF_FUZZ iterations
# (default 10; sm4_generic's own algorithms, the cipher and cfb, have no
# fuzz loop), and fuzz_iterations is put back before any driver of this
# project loads.  And made again before each driver module: an algorithm
# whose self-test passes removes the template instances over any
# lower-priority one of its name (crypto_alg_finish_registration: a
# driver's ctr(sm4) removes gcm_base(ctr(sm4-generic),...) and
# ccm_base(ctr(sm4-generic),...)), and from 6.12 tests run after
# registration, side by side, so the next module's gcm test would make
# the reference again, tested with the full fuzz_iterations beside all of
# that module's tests (seen: "error allocating gcm_base(ctr(sm4-generic),
# ghash-generic) (generic impl of gcm(sm4)): -110", the fourth driver
# module of the 6.12 lane).  Each module's tests are waited for before
# the next (fuzz_module_done), so no test of ours runs with REF_FUZZ.
FUZZ_REFS=0
fuzz_references()
{
	local tag=$1 gh p=/sys/module/cryptomgr/parameters/fuzz_iterations it rc

	gh=ghash-lib
	crypto_table | awk '$2 == "ghash-generic" { f = 1 } END { exit !f }' &&
		gh=ghash-generic
	set -- "skcipher ecb(sm4-generic)" "skcipher cbc(sm4-generic)" \
		"skcipher ctr(sm4-generic)" "skcipher xts(ecb(sm4-generic))" \
		"skcipher cts(cbc(sm4-generic))" "hash cbcmac(sm4-generic)" \
		"hash cmac(sm4-generic)" "hash xcbc(sm4-generic)" \
		"aead ccm_base(ctr(sm4-generic),cbcmac(sm4-generic))" \
		"aead gcm_base(ctr(sm4-generic),$gh)"
	it=$(cat "$p")
	echo "${REF_FUZZ:-10}" >"$p"
	wait_done "$tag reference implementations not ready" "$FUZZ_WAIT" 5 \
		fuzz_unbindable "$@"
	rc=$?
	echo "$it" >"$p"
	if [ "$(cat "$p")" != "$it" ]; then
		fail "$tag fuzz_iterations is $(cat "$p") after the references, not $it"
		return 1
	fi
	[ $rc = 0 ] || return 1
	FUZZ_REFS=$((FUZZ_REFS + 1))
	[ $FUZZ_REFS -gt 1 ] ||
		pass "$tag all $# generic references allocated and self-tested (fuzz_iterations=${REF_FUZZ:-10}) before any driver of this project loads (then fuzz_iterations=$it)"
}

# fuzz_module_done MODULE: its self-tests (and every other pending one)
# finished, with the full fuzz_iterations.
fuzz_module_done()
{
	wait_done "partfuzz self-tests unfinished after modprobe $1" "$FUZZ_WAIT" 5 \
		selftests_pending
}

# fuzz_unbindable "TYPE NAME"...: prints each NAME that an AF_ALG bind (to
# an skcipher, aead or hash) fails for.  The binds run side by side: each
# waits for its reference's self-test (one at a time they leave a vCPU
# idle).  6.12 makes ecb(...) over a cipher an lskcipher, for which
# resolve finds no skcipher entry, so only its "bind:" error counts.
fuzz_unbindable()
{
	local r i=0 opt pids=

	for r in "$@"; do
		i=$((i + 1))
		opt=
		[ "${r%% *}" = skcipher ] || opt=--${r%% *}
		# shellcheck disable=SC2086
		("$AFALG" resolve -q $opt "${r#* }" 2>&1 >/dev/null |
			grep -q ': bind: ' && echo "${r#* }") >/tmp/fuzzref.$i &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	wait $pids
	i=0
	for r in "$@"; do
		i=$((i + 1))
		cat /tmp/fuzzref.$i
		rm -f /tmp/fuzzref.$i
	done
}

part_fuzz()
{
	local tag=partfuzz p it t0 name drv mod st type msg off cfb
	local np=0 nf=0 ns=0

	part_begin fuzz "crypto self-tests and fuzzer"
	p=/sys/module/cryptomgr/parameters
	it=$(cat "$p/fuzz_iterations" 2>/dev/null)
	# Up to 6.15 CRYPTO_MANAGER_EXTRA_TESTS ("extra" tests, switch
	# noextratests), from 6.16 CRYPTO_SELFTESTS_FULL ("full" tests,
	# switch noslowtests): whichever switch this kernel has.
	off=$(cat "$p/noextratests" "$p/noslowtests" 2>/dev/null)
	if dmesg | grep -qE 'alg: (extra|full) crypto tests enabled' &&
			[ "$off" = N ] && [ -n "$it" ]; then
		pass "$tag the kernel runs the full self-tests with the fuzzer ($(dmesg |
			grep -oE 'alg: (extra|full) crypto tests enabled' | head -n1)), fuzz_iterations=$it"
	else
		fail "$tag no fuzzing self-tests in this kernel (no 'alg: extra/full crypto tests enabled', or noextratests/noslowtests not N: '$off')"
	fi
	say "FUZZ-ITERATIONS: $it"
	t0=$(uptime_s)
	modprobe -a sm4 sm4_generic algif_skcipher
	fuzz_references "$tag"
	say "TIME: $ARCH $tag reference implementations tested and ready $(elapsed "$t0") s"
	load_project_modules "$tag" "fuzz_references $tag" fuzz_module_done
	say "FUZZ-REFERENCES: made $FUZZ_REFS times"
	if [ "$BROKEN" = 1 ]; then
		fuzz_references "$tag"
		# shellcheck disable=SC2086
		check "$tag insmod sm4_broken_test $BROKEN_ARGS (deliberately broken driver)" \
			insmod "$KMODS/sm4_broken_test.ko" $BROKEN_ARGS
	fi
	wait_done "$tag self-tests unfinished" "$FUZZ_WAIT" 5 selftests_pending
	say "TIME: $ARCH $tag self-tests of every SM4 algorithm (fuzz_iterations=$it) $(elapsed "$t0") s"
	# cfb(sm4): no generic cfb to fuzz against from 6.8 on, and no
	# testmgr entry; sm4_cfb_fuzz.ko compares each driver with CFB over
	# the single-block sm4-generic, SIMD disabled for some messages.
	t0=$(uptime_s)
	cfb_fuzz_run "${CFB_FUZZ:-$it}"
	say "TIME: $ARCH $tag cfb fuzz of every cfb(sm4) driver (${CFB_FUZZ:-$it} messages each) $(elapsed "$t0") s"
	dmesg | grep 'alg:' >/tmp/alg.log
	crypto_table | awk '$3 ~ /^sm4/' >/tmp/fuzz.tab
	while read -r name drv mod _ st type _; do
		msg=$(grep -F " $drv " /tmp/alg.log | grep -vF "No test for" | head -n1 |
			sed 's/^\[[ 0-9.]*\] //')
		if [ "$name" = "cfb(sm4)" ]; then
			cfb=$(cfb_fuzz_result "$drv")
			case $cfb in
			PASS*) cfb="sm4_cfb_fuzz passed: ${cfb#"PASS $drv: "}" ;;
			FAIL*) cfb="sm4_cfb_fuzz: ${cfb#"FAIL $drv: "}" ;;
			*) cfb="sm4_cfb_fuzz gave no result (insmod status $CFB_FUZZ_RC)" ;;
			esac
		else
			cfb=
		fi
		if [ -n "$cfb" ] && [ "$st" = passed ] && [ -z "$msg" ] &&
				[ "${cfb#sm4_cfb_fuzz passed}" != "$cfb" ]; then
			if grep -qF "alg: No test for $name ($drv)" /tmp/alg.log; then
				pass "$tag $drv ($name, $type, $mod): testmgr has no vectors for it; $cfb"
			else
				pass "$tag $drv ($name, $type, $mod): self-test passed; $cfb"
			fi
			np=$((np + 1))
		elif [ -n "$cfb" ] && [ "$st" = passed ] && [ -z "$msg" ]; then
			fail "$tag $drv ($name, $type, $mod): $cfb"
			nf=$((nf + 1))
		elif [ "$st" = passed ] && grep -qF "alg: No test for $name ($drv)" /tmp/alg.log; then
			skip "$tag $drv ($name, $type, $mod): self-test" \
				"testmgr has no vectors for $name (\"alg: No test for $name ($drv)\"): neither tested nor fuzzed"
			ns=$((ns + 1))
		elif [ "$st" = passed ] && [ -z "$msg" ]; then
			if [ "$type" = cipher ]; then
				pass "$tag $drv ($name, cipher, $mod): self-test passed (single-block ciphers have no fuzzer)"
			else
				pass "$tag $drv ($name, $type, $mod): self-test and fuzzer passed"
			fi
			np=$((np + 1))
		else
			fail "$tag $drv ($name, $type, $mod): selftest $st: ${msg:-no alg: message}"
			nf=$((nf + 1))
		fi
	done </tmp/fuzz.tab
	if grep -q 'skipping comparison tests' /tmp/alg.log; then
		grep 'skipping comparison tests' /tmp/alg.log | sed 's/^/  | /'
		fail "$tag the fuzzer skipped comparisons (no generic implementation)"
	fi
	# Failures of algorithms that are not ours (or not in /proc/crypto).
	grep -E 'failed|overran|corrupted|unexpectedly|error' /tmp/alg.log |
		grep -vF -- '-sm4-' >/tmp/alg.other
	if [ -s /tmp/alg.other ]; then
		sed 's/^/  | /' /tmp/alg.other | head -n 10
		fail "$tag self-test errors of other algorithms in the kernel log"
	fi
	if grep -qE '^sm4-cfb-fuzz: FAIL: ' /tmp/cfbfuzz.log; then
		fail "$tag cfb fuzz: $(grep -m1 -E '^sm4-cfb-fuzz: FAIL: ' /tmp/cfbfuzz.log)"
	fi
	say "FUZZ-RESULT: $np passed, $nf failed, $ns without vectors"
	part_end
}
