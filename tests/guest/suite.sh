#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In-guest test suite (busybox sh), started by /init.
#
# Phase 1 (first boot): the parts listed in $PARTS:
#   1 load the project modules, check /proc/crypto and name resolution
#   2 tcrypt mode=191 (distro tcrypt.ko and the patched sm4_tcrypt.ko)
#   3 AF_ALG known-answer and cross-driver tests (sm4-afalg), the
#     in-kernel cfb fuzz (sm4_cfb_fuzz.ko)
#   4 bad-input matrix (sm4-afalg) and the XTS weak-key test module
#   5 dm-crypt/LUKS2 with sm4-xts-plain64, cryptsetup benchmark
#   6 parallel AF_ALG stress (sm4-afalg)
#   7 rmmod/reload of every module, refusal while in use
#   9 tcrypt speed modes 218 and 518 (distro tcrypt.ko and the patched
#     sm4_tcrypt.ko); the host checks the results (tools/tcrypt-table.py)
#  fuzz (debug kernel, tests/guest/part-debug.sh) the crypto self-tests
#     and their fuzzer for every SM4 algorithm, before anything else
#  busy, nocpu (tests/guest/part-faults.sh) rmmod during dm-crypt I/O;
#     x86 drivers on a CPU/kernel without their features (after part 4)
#  10 fscrypt: ext4 with a v2 policy, contents SM4-XTS and filenames
#     SM4-CTS; files written, key removed, names and contents unreadable
#     (the host checks the raw disk for plaintext)
#  11 (first, nothing loaded yet) a distribution with SM4: upstream's
#     own modules in kernel/, ours in updates/ (tests/guest/part-distro-sm4.sh)
#  12 kernel TLS 1.3 SM4-GCM/CCM and IPsec ESP (tests/guest/part-net.sh)
# Phase 2 (second boot on the same disks, nothing loaded by hand):
#   5 reopen the LUKS2 volume and verify every file
#   8 the modules were autoloaded through crypto API module requests and
#     the best driver serves xts(sm4)
#  10 add the fscrypt key again, every file's SHA-256 and name intact
#
# Where the kernel has /proc/sys/crypto/af_alg_restrict (Linux 7.3+), the
# first phase shows that AF_ALG refuses SM4 while it is 1 and that
# dm-crypt and fscrypt do not care, then sets 0 for the AF_ALG parts.
#
# Parts 3, 5 and 10 count entries into the assembly entry points of every
# project driver (kprobe events, /sys/kernel/tracing/kprobe_profile): a
# driver that serves a mode there must show hits in that mode's code.
#
# Every check prints one "PASS: <arch> <what>", "FAIL: <arch> <what>" or
# "SKIP: <arch> <what>: <reason>" line on the console and on the verdict
# channel ($VERDICT), every part a "TIME: <arch> ..." line and, when it
# ends, "PART-END: <arch> phase=<n> part=<n>" (the host checks that every
# requested part ended).  Exit status: the number of failed checks.

: "${VERDICT:=/dev/null}" "${PHASE:=1}"
. /etc/sm4-test.conf
: "${TCRYPT_SEC:=0}"

KVER=$(uname -r)
MODDIR=/lib/modules/$KVER
KMODS=/opt/sm4/kmod
AFALG=/usr/local/bin/sm4-afalg
VECTORS=/opt/sm4/vectors.bin
TCRYPT_KO=/opt/sm4/tcrypt/sm4_tcrypt.ko
LUKS_KEY=/opt/sm4/luks.key
DATA=/opt/sm4/data
DISK=
RAWDISK=
MAPNAME=sm4test
MNT=/mnt/sm4
export DM_DISABLE_UDEV=1

FAILED=0
PASSED=0
SKIPPED=0
ASM_ENTRIES=/opt/sm4/asm-entries
FSCRYPT=/usr/local/bin/sm4-fscrypt
FSCRYPT_KEY=/opt/sm4/fscrypt.key
FSDATA=/opt/sm4/fsdata
FSDISK=
FSMNT=/mnt/sm4fs
TRACING=/sys/kernel/tracing
RESTRICT=/proc/sys/crypto/af_alg_restrict

# Debian's busybox prefers its applets to programs in PATH: call kmod's
# tools explicitly (busybox's modprobe/rmmod differ in behaviour and
# messages).
modprobe() { /sbin/modprobe "$@"; }
rmmod() { /sbin/rmmod "$@"; }
insmod() { /sbin/insmod "$@"; }
lsmod() { /bin/kmod list; }

say()
{
	echo "$*"
	echo "$*" >>"$VERDICT"
}

pass()
{
	PASSED=$((PASSED + 1))
	say "PASS: $ARCH $*"
}

fail()
{
	FAILED=$((FAILED + 1))
	say "FAIL: $ARCH $*"
}

# skip WHAT REASON: a check that could not run here, counted apart.
skip()
{
	SKIPPED=$((SKIPPED + 1))
	say "SKIP: $ARCH $1: $2"
}

# check WHAT CMD...: PASS if CMD succeeds, FAIL (with its output) if not;
# returns CMD's status.
check()
{
	local what=$1 rc

	shift
	"$@" >/tmp/check.out 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		pass "$what"
	else
		sed 's/^/  | /' /tmp/check.out | tail -n 30
		fail "$what"
	fi
	return $rc
}

uptime_s()
{
	cut -d' ' -f1 /proc/uptime
}

# elapsed START: seconds since START (an uptime value), two decimals.
elapsed()
{
	awk -v a="$1" -v b="$(uptime_s)" 'BEGIN { printf "%.2f", b - a }'
}

PART_T0=
PART_NAME=
PART_NUM=
part_begin()
{
	PART_NAME="part$1 ($2)"
	PART_NUM=$1
	PART_T0=$(uptime_s)
	echo "=== $ARCH phase $PHASE $PART_NAME"
}

part_end()
{
	say "TIME: $ARCH $PART_NAME $(elapsed "$PART_T0") s"
	say "PART-END: $ARCH phase=$PHASE part=$PART_NUM"
}

want_part()
{
	case ",$PARTS," in
	*",$1,"*) return 0 ;;
	esac
	return 1
}

# Run one sm4-afalg command; its PASS/FAIL lines go to the verdict with
# the arch and a prefix, its exit status is one more check.
afalg()
{
	local what=$1 rc line

	shift
	if [ ! -x "$AFALG" ]; then
		fail "$what: sm4-afalg missing (tests/guest/afalg not built)"
		return 1
	fi
	"$AFALG" "$@" >/tmp/afalg.out 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		PASS:*) PASSED=$((PASSED + 1))
			echo "PASS: $ARCH $what:${line#PASS:}" >>"$VERDICT" ;;
		FAIL:*) FAILED=$((FAILED + 1))
			echo "FAIL: $ARCH $what:${line#FAIL:}" >>"$VERDICT" ;;
		esac
	done </tmp/afalg.out
	# Keep the console readable: failures in full, the rest summarised.
	grep -v '^PASS:' /tmp/afalg.out | tail -n 60
	echo "($(grep -c '^PASS:' /tmp/afalg.out) PASS lines)"
	if [ $rc -eq 0 ]; then
		pass "$what: sm4-afalg $1 exit status 0"
	else
		fail "$what: sm4-afalg $1 exit status $rc"
	fi
	return $rc
}

# /proc/crypto as one line per algorithm:
# name driver module priority selftest type async internal
crypto_table()
{
	awk -F': ' '
	function flush() {
		if (n != "")
			print n, d, m, p, (s == "" ? "-" : s), t,
			      (a == "" ? "-" : a), (i == "" ? "-" : i)
		n = d = m = p = s = t = a = i = ""
	}
	{ k = $1; sub(/ +$/, "", k) }
	k == "name" { n = $2 } k == "driver" { d = $2 } k == "module" { m = $2 }
	k == "priority" { p = $2 } k == "selftest" { s = $2 } k == "type" { t = $2 }
	k == "async" { a = $2 } k == "internal" { i = $2 }
	/^$/ { flush() }
	END { flush() }' /proc/crypto
}

# best_driver NAME [TABLE]: driver and module of the highest-priority
# algorithm called NAME in /proc/crypto, or in TABLE (a saved
# crypto_table): what the crypto API hands out for NAME.
best_driver()
{
	if [ -n "${2:-}" ]; then cat "$2"; else crypto_table; fi | awk -v n="$1" '
	$1 == n && $8 != "yes" && $5 != "unknown" && ($4 + 0 > bp || bd == "") {
		bp = $4 + 0; bd = $2; bm = $3
	}
	END { if (bd != "") print bd, bm }'
}

# The project's modules in load order (library, generic, arch drivers).
project_modules()
{
	local f n

	echo sm4
	echo sm4_generic
	for f in $(find "$MODDIR/updates" -name '*.ko' -o -name '*.ko.xz' | sort); do
		n=$(basename "$f")
		n=${n%.xz}
		n=${n%.ko}
		case $n in
		sm4|sm4_generic) ;;
		*) echo "$n" ;;
		esac
	done
}

modname()
{
	echo "$1" | tr - _
}

cpu_has()
{
	local f

	for f in "$@"; do
		grep -m1 -E '^(flags|Features)[[:space:]]*:' /proc/cpuinfo |
			grep -qw -- "$f" || return 1
	done
	return 0
}

# CPU features an arch driver needs; the module must load exactly when
# the CPU has them and refuse with ENODEV otherwise.
driver_needs()
{
	case $1 in
	sm4-aesni-avx-x86_64) echo aes avx ;;
	sm4-aesni-avx2-x86_64) echo aes avx2 ;;
	sm4-vaes-avx2-x86_64) echo aes avx2 vaes ;;
	sm4-gfni-avx2-x86_64) echo gfni avx avx2 ;;
	sm4-gfni-avx512-x86_64)
		echo gfni avx512f avx512bw avx512vl vpclmulqdq avx avx2 ;;
	# /proc/cpuinfo shows no SM4 flag (X86_FEATURE_SM4 has no name in
	# 7.2, no bit in 6.1 and 6.12): "sm4" is never listed on x86, so
	# the check expects -ENODEV (as on TCG, which has no SM4-NI).
	sm4-ni-x86_64) echo sm4 avx avx2 ;;
	# The EVEX forms: AVX10.2 is not in /proc/cpuinfo of the supported
	# kernels either ("avx10_2" stands for it, never listed), so -ENODEV.
	sm4-ni-avx10-x86_64) echo sm4 avx10_2 avx512f avx512bw avx avx2 ;;
	sm4-neon) echo asimd ;;
	sm4-ce|sm4-ce-cipher|sm4-ce-ccm) echo sm4 ;;
	sm4-ce-gcm) echo sm4 pmull ;;
	*) echo "" ;;
	esac
}

LOADED=
# load_project_modules TAG [BEFORE [AFTER]]: modprobe every project
# module, checking that each loads exactly when the CPU supports it.
# BEFORE and AFTER (commands, given the module) run before each modprobe
# of a module the CPU supports and after it loaded.
load_project_modules()
{
	local tag=$1 before=${2:-:} after=${3:-:} m needs out lines

	LOADED=
	for m in $(project_modules); do
		needs=$(driver_needs "$m")
		# shellcheck disable=SC2086
		if cpu_has $needs; then
			$before "$m"
			if out=$(modprobe "$m" 2>&1); then
				pass "$tag modprobe $m"
				LOADED="$LOADED $(modname "$m")"
				$after "$m"
			else
				echo "  | $out"
				fail "$tag modprobe $m (${needs:-no CPU requirement})"
			fi
		else
			lines=$(dmesg | wc -l)
			if out=$(modprobe "$m" 2>&1); then
				fail "$tag $m loaded although the CPU lacks one of: $needs"
				LOADED="$LOADED $(modname "$m")"
			elif ! echo "$out" | grep -q 'No such device'; then
				echo "  | $out"
				fail "$tag $m refused, but not with ENODEV"
			elif ! refusal_logged "$m" "$lines"; then
				fail "$tag $m refused with ENODEV, but not with exactly one log line of its own"
			else
				# As it must; but the driver did not run here.
				skip "$tag $m" "not run: the CPU lacks one of: $needs (refused with ENODEV and one log line, as it must)"
			fi
		fi
	done
}

# refusal_logged MODULE LINES: the kernel log after its first LINES lines
# holds exactly one "driver not loaded" line, and it is MODULE's (its
# name without the -x86_64 suffix) or, for a module built on another
# driver module's exports (arm64 sm4-ce-ccm and sm4-ce-gcm use sm4-ce's,
# as upstream's do), that module's, which modprobe loads first.
refusal_logged()
{
	local all own names d

	names=${1%-x86_64}
	for d in $(/sbin/modinfo -F depends "$1" 2>/dev/null | tr , ' '); do
		case $d in
		sm4|sm4_generic) ;;
		sm4*) names="$names|$(echo "$d" | tr _ -)" ;;
		esac
	done
	all=$(dmesg | tail -n +"$(($2 + 1))" | grep 'driver not loaded')
	own=$(echo "$all" | grep -cE "(^|\\] )($names): ")
	if [ "$(echo "$all" | grep -c .)" -eq 1 ] && [ "$own" -eq 1 ]; then
		return 0
	fi
	echo "$all" | sed 's/^/  | /'
	return 1
}

is_loaded()
{
	[ -d "/sys/module/$(modname "$1")" ]
}

# selftests_pending: the drivers of sm4* modules whose self-test has not
# ended (6.12 and later run them in the background from registration, so
# a module just loaded may still be held by its test and an algorithm may
# still say "selftest: unknown"): neither passed nor logged as failed.
selftests_pending()
{
	crypto_table | awk '$3 ~ /^sm4/ && $5 != "passed" { print $1, $2 }' |
		while read -r name drv; do
			dmesg | grep -qF "alg: self-tests for $name using $drv failed" ||
				echo "$drv"
		done
}

# wait_done WHAT SECONDS STEP CMD...: run CMD every STEP seconds until it
# prints nothing (it prints what is still pending); after SECONDS FAIL
# "WHAT after N s: <what it printed last>".  WAITED: the seconds waited.
WAITED=0
wait_done()
{
	local what=$1 limit=$2 step=$3 left

	shift 3
	WAITED=0
	while left=$("$@" | tr '\n' ' '); [ -n "$left" ]; do
		if [ "$WAITED" -ge "$limit" ]; then
			fail "$what after $WAITED s: ${left% }"
			return 1
		fi
		sleep "$step"
		WAITED=$((WAITED + step))
	done
}

# wait_selftests WHAT [SECONDS]: wait (polling each second) until no
# self-test of an sm4* module is pending; after SECONDS (default 300)
# FAIL "WHAT: self-tests unfinished after N s" with their drivers.
wait_selftests()
{
	wait_done "$1: self-tests unfinished" "${2:-300}" 1 selftests_pending ||
		return 1
	[ "$WAITED" -eq 0 ] || echo "$1: waited $WAITED s for self-tests"
}

# check_proc_crypto TAG: every algorithm of the loaded project modules
# passed its self-test, is synchronous, and each arch driver module
# registered its algorithms.
check_proc_crypto()
{
	local tag=$1 m modes x n want

	wait_selftests "$tag"
	crypto_table >/tmp/crypto.tab
	selftests_run "$tag"
	if ! awk '$2 == "sm4-generic" && $1 == "sm4" && $3 == "sm4_generic" &&
		$5 == "passed" { f = 1 } END { exit !f }' /tmp/crypto.tab; then
		fail "$tag /proc/crypto: no sm4-generic with selftest passed"
	elif [ "$KSELFTESTS" = run ]; then
		pass "$tag /proc/crypto: sm4-generic selftest passed, priority $(awk '$2 == "sm4-generic" { print $4 }' /tmp/crypto.tab)"
	fi
	for m in $LOADED; do
		case $m in
		sm4) continue ;;
		esac
		n=$(awk -v m="$m" '$3 == m' /tmp/crypto.tab | wc -l)
		if [ "$n" -eq 0 ]; then
			fail "$tag /proc/crypto: module $m registered no algorithm"
			continue
		fi
		awk -v m="$m" '$3 == m' /tmp/crypto.tab >/tmp/crypto.mod
		if [ "$KSELFTESTS" != run ] &&
				awk '$5 == "passed" { n++ } END { exit !n }' /tmp/crypto.mod; then
			skip "$tag $m: selftest" "$(awk '$5 == "passed"' /tmp/crypto.mod | wc -l) algorithms say \"passed\", but this kernel runs no self-tests ($KSELFTESTS_WHY); parts 3-6 test them"
		fi
		while read -r name drv _ prio st type async internal; do
			if [ "$st" = passed ] && [ "$KSELFTESTS" != run ]; then
				:
			elif [ "$st" = passed ] &&
					dmesg | grep -qF "alg: No test for $name ($drv)"; then
				# testmgr marks an algorithm it has no vectors
				# for as passed: nothing was tested.
				skip "$tag $drv ($name, $type, priority $prio): selftest" \
					"this kernel's testmgr has no vectors for $name (\"alg: No test for $name ($drv)\"); parts 3-6 test it"
			elif [ "$st" = passed ]; then
				pass "$tag $drv ($name, $type, priority $prio): selftest passed"
			else
				fail "$tag $drv ($name, $type, priority $prio): selftest $st"
			fi
			if [ "$type" = skcipher ] || [ "$type" = aead ]; then
				if [ "$async" = no ] && [ "$internal" != yes ]; then
					pass "$tag $drv: async: no"
				else
					fail "$tag $drv: async: $async internal: $internal"
				fi
			fi
		done </tmp/crypto.mod
		# A multi-mode driver registers all five skciphers; the
		# AEAD/MAC modules what upstream's of that name do.
		case $m in
		sm4_generic|*_cipher) continue ;;
		sm4_ce_ccm) want="ccm" ;;
		sm4_ce_gcm) want="gcm" ;;
		sm4_ce) want="ecb cbc cfb ctr xts cbcmac cmac xcbc" ;;
		# x86 drivers with the serial CBC-MAC (all but gfni-avx512)
		sm4_aesni_avx_x86_64|sm4_aesni_avx2_x86_64|\
		sm4_vaes_avx2_x86_64|sm4_gfni_avx2_x86_64|sm4_ni_x86_64)
			want="ecb cbc cfb ctr xts cbcmac cmac xcbc ccm" ;;
		*) want="ecb cbc cfb ctr xts" ;;
		esac
		modes=
		for x in $want; do
			grep -q "^$x(sm4) " /tmp/crypto.mod || modes="$modes $x"
		done
		if [ -z "$modes" ]; then
			pass "$tag $m registers $(echo "$want" | tr ' ' /)(sm4)"
		else
			fail "$tag $m does not register:$modes"
		fi
		# cts(cbc(sm4)) comes from the shared glue for every
		# skcipher driver.
		case $m in
		sm4_ce_ccm|sm4_ce_gcm) continue ;;
		esac
		if grep -q '^cts(cbc(sm4)) cts-cbc-sm4-' /tmp/crypto.mod; then
			pass "$tag $m registers cts(cbc(sm4)) ($(awk '$1 == "cts(cbc(sm4))" { print $2; exit }' /tmp/crypto.mod))"
		else
			fail "$tag $m does not register cts(cbc(sm4))"
		fi
		check_gcm_registered "$tag" "$m"
	done
}

# check_gcm_registered TAG MODULE: the x86 drivers register gcm(sm4)
# exactly when the CPU multiplies carry-less (PCLMULQDQ for the AES-NI
# drivers, vaes-avx2 then taking its ymm GHASH where there is VPCLMULQDQ
# too; VPCLMULQDQ for gfni-avx2 and gfni-avx512, the latter needs it to
# load at all).
check_gcm_registered()
{
	local tag=$1 m=$2 flag= want have=no

	case $m in
	sm4_aesni_avx_x86_64|sm4_aesni_avx2_x86_64|sm4_vaes_avx2_x86_64)
		flag=pclmulqdq ;;
	sm4_gfni_avx2_x86_64|sm4_gfni_avx512_x86_64) flag=vpclmulqdq ;;
	*) return 0 ;;
	esac
	want=no
	[ -n "$flag" ] && grep -qw "$flag" /proc/cpuinfo && want=yes
	grep -q '^gcm(sm4) gcm-sm4-' /tmp/crypto.mod && have=yes
	if [ "$want" = "$have" ]; then
		pass "$tag $m gcm(sm4) registered: $have (CPU ${flag:-n/a}: $want)"
	else
		fail "$tag $m gcm(sm4) registered: $have, expected $want (CPU flag ${flag:-none})"
	fi
}

# ours NAME: whether one of this project's drivers registers NAME
# ("<x>(sm4)" as "<x>-sm4-*").
ours()
{
	crypto_table | awk -v n="$1" -v p="${1%%(*}-sm4-" '
		$1 == n && index($2, p) == 1 { f = 1 } END { exit !f }'
}

# check_resolution TAG: each generic name resolves to the
# highest-priority driver registered for it.
check_resolution()
{
	local tag=$1 x

	for x in "ecb(sm4)" "cbc(sm4)" "cfb(sm4)" "ctr(sm4)" "xts(sm4)" \
			"cts(cbc(sm4))"; do
		resolve_check "$tag" "$x"
	done
	# The MACs through hash sockets, gcm(sm4) and ccm(sm4) through AEAD
	# sockets, where one of this project's drivers registers them.
	for x in "cbcmac(sm4)" "cmac(sm4)" "xcbc(sm4)"; do
		ours "$x" && resolve_check "$tag" "$x" --hash
	done
	ours "gcm(sm4)" && check_rfc_over "$tag" gcm rfc4106
	ours "ccm(sm4)" && check_rfc_over "$tag" ccm rfc4309
	return 0
}

# check_rfc_over TAG AEAD RFC: AEAD(sm4) and RFC(AEAD(sm4)) resolve to
# their best drivers, and RFC's is the RFC template over AEAD's.
check_rfc_over()
{
	local tag=$1 aead=$2 rfc=$3 base got

	resolve_check "$tag" "$aead(sm4)" --aead
	resolve_check "$tag" "$rfc($aead(sm4))" --aead
	base=$(best_driver "$aead(sm4)" | cut -d' ' -f1)
	got=$(best_driver "$rfc($aead(sm4))" | cut -d' ' -f1)
	if [ "$got" = "$rfc($base)" ]; then
		pass "$tag $rfc($aead(sm4)) is the $rfc template over $base"
	else
		fail "$tag $rfc($aead(sm4)) is '${got:-?}', not the $rfc template over $base"
	fi
}

# resolve_check TAG NAME [--aead]: binding an AF_ALG socket (skcipher, or
# aead) to NAME gets the highest-priority driver registered for it.
resolve_check()
{
	local tag=$1 x=$2 got want

	shift 2
	if [ ! -x "$AFALG" ]; then
		fail "$tag resolve $x: sm4-afalg missing"
		return
	fi
	got=$("$AFALG" resolve -q "$@" "$x" 2>/tmp/resolve.err | head -n1)
	# Resolving instantiated any template; now read the table.
	want=$(best_driver "$x")
	if [ -n "$got" ] && [ "$got" = "${want%% *}" ]; then
		pass "$tag $x resolves to $got (module ${want#* })"
	else
		cat /tmp/resolve.err
		fail "$tag $x resolves to '${got:-?}', expected the highest-priority '${want%% *}'"
	fi
}

dmesg_mark()
{
	dmesg >/tmp/dmesg.before
}

# dmesg lines logged since dmesg_mark.
dmesg_new()
{
	dmesg >/tmp/dmesg.now
	awk 'NR == FNR { seen[$0] = 1; next } !seen[$0]' \
		/tmp/dmesg.before /tmp/dmesg.now
}

# tcrypt_run TAG NAME CMD...: load a tcrypt module with CMD; it runs its
# tests from its init function and then refuses to load with EAGAIN,
# which is success.  Its kernel messages end up in /tmp/tcrypt.log.
# Returns 0 if the module ended with EAGAIN.
tcrypt_run()
{
	local tag=$1 name=$2 out

	shift 2
	dmesg_mark
	out=$("$@" 2>&1)
	dmesg_new >/tmp/tcrypt.log
	if ! echo "$out" | grep -q 'Resource temporarily unavailable'; then
		echo "  | $out"
		fail "$tag $name did not end with EAGAIN"
		return 1
	fi
	return 0
}

# selftests_run TAG: whether this kernel runs its crypto self-tests at all
# (run-guest.sh read its configuration: KSELFTESTS).  Without them testmgr
# marks every algorithm "passed" and tcrypt mode=191 succeeds silently,
# so neither is evidence: a SKIP, and those checks are skipped too.
selftests_run()
{
	case ${KSELFTESTS:-unknown} in
	run) pass "$1 this kernel runs its crypto self-tests (${KSELFTESTS_WHY:-})" ;;
	off) skip "$1 crypto self-tests" "this kernel does not run them (${KSELFTESTS_WHY:-}): \"selftest: passed\" and tcrypt mode=191 test nothing here" ;;
	*) fail "$1 cannot tell whether this kernel runs its crypto self-tests: ${KSELFTESTS_WHY:-no KSELFTESTS in /etc/sm4-test.conf}" ;;
	esac
}

# run_tcrypt TAG: self-tests of every SM4 mode through tcrypt mode=191,
# the distribution's tcrypt.ko and the patched sm4_tcrypt.ko (which adds
# cts(cbc(sm4)) and xts(sm4)).  A transform the kernel's testmgr has no
# vectors for is only reported ("alg: No test for"), not checked there.
run_tcrypt()
{
	local tag=$1 name notest a

	if [ "${KSELFTESTS:-unknown}" != run ]; then
		skip "$tag tcrypt mode=191" "this kernel runs no self-tests (${KSELFTESTS_WHY:-unknown}): tcrypt would only call testmgr, which passes everything"
		return
	fi
	for name in tcrypt sm4_tcrypt; do
		if [ $name = tcrypt ]; then
			tcrypt_run "$tag" "tcrypt mode=191" \
				modprobe tcrypt mode=191 || continue
		elif [ -e "$TCRYPT_KO" ]; then
			tcrypt_run "$tag" "sm4_tcrypt mode=191" \
				insmod "$TCRYPT_KO" mode=191 || continue
		else
			fail "$tag $TCRYPT_KO missing (tools/build-tcrypt.sh failed on the host)"
			continue
		fi
		cat /tmp/tcrypt.log
		notest=$(sed -n 's/.*alg: No test for \([^ ]*\).*/\1/p' \
			/tmp/tcrypt.log | sort -u | tr '\n' ' ')
		if grep -qiE 'alg: .*fail|tcrypt: one or more tests failed|failed to load transform' \
				/tmp/tcrypt.log; then
			fail "$tag $name mode=191 reported failures"
		else
			# testmgr is silent about what passed; what it had no
			# vectors for it names, and that was not tested.
			pass "$tag $name mode=191: testmgr reported no failure"
			for a in $notest; do
				skip "$tag $name mode=191 $a" "this kernel's testmgr has no vectors for it (\"alg: No test for $a\")"
			done
		fi
	done
}

# --- entries into the assembly ---------------------------------------------

# $ASM_ENTRIES holds "module symbol" lines: the global functions of each
# driver's assembly objects (listed on the host from the built objects),
# named <driver>_<mode>[_enc|_dec] for the mode functions.  kp_arm loads
# sm4_entry_count.ko with a kprobe on each of them in the loaded modules;
# kp_expect reads its hit counts.  The crypto API falling back to the C
# code (or another driver serving the request) shows up as a driver
# without hits.
KPCOUNTS=/sys/module/sm4_entry_count/parameters/counts

kp_disarm()
{
	is_loaded sm4_entry_count && rmmod sm4_entry_count
}

# kp_arm TAG [SUFFIX]: new probes (counts from zero) on every loaded
# driver's entry points (only those whose names end in _SUFFIX, if given:
# a probe hit costs a trap, slow under TCG).
kp_arm()
{
	local tag=$1 only=${2:-} mod sym list= out

	kp_disarm
	if [ ! -s "$ASM_ENTRIES" ]; then
		fail "$tag entry counts: $ASM_ENTRIES is missing or empty"
		return 1
	fi
	while read -r mod sym; do
		[ -z "$only" ] || [ "${sym%_"$only"}" != "$sym" ] || continue
		is_loaded "$mod" && list="$list${list:+,}$sym"
	done <"$ASM_ENTRIES"
	[ -n "$list" ] || return 0
	if ! out=$(insmod "$KMODS/sm4_entry_count.ko" syms="$list" 2>&1); then
		dmesg | grep sm4_entry_count | tail -n 3
		fail "$tag entry counts: insmod sm4_entry_count.ko failed ($out)"
		return 1
	fi
	echo "counting entries into $(echo "$list" | tr , '\n' | wc -l) functions"
}

# kp_arm_counting TAG MODULE: new probes on every entry point of MODULE
# alone that are never disabled (stop_after=0), so that kp_hits counts
# every entry: for checks that compare counts before and after a few
# requests.
kp_arm_counting()
{
	local tag=$1 list out

	kp_disarm
	# MODULE:SYMBOL (the kernel's module name, "_" for "-"): sm4-ce and
	# sm4-ce-cipher both have an sm4_ce_expand_key, and a bare name is
	# whichever kallsyms finds first.
	list=$(awk -v m="$2" '$1 == m { k = m; gsub(/-/, "_", k)
		printf "%s%s:%s", s, k, $2; s = "," }' "$ASM_ENTRIES" 2>/dev/null)
	if [ -z "$list" ]; then
		fail "$tag entry counts: $2 has no assembly entry points listed"
		return 1
	fi
	if ! out=$(insmod "$KMODS/sm4_entry_count.ko" syms="$list" stop_after=0 2>&1); then
		dmesg | grep sm4_entry_count | tail -n 3
		fail "$tag entry counts: insmod sm4_entry_count.ko failed ($out)"
		return 1
	fi
}

# kp_hits MODULE MODE: hits since kp_arm on MODULE's functions for MODE
# (ecb, cbc_enc, cbc_dec, cfb_enc, cfb_dec, ctr, xts).
kp_hits()
{
	local mod=$1 mode=$2

	[ -r "$KPCOUNTS" ] || { echo 0; return; }
	awk -v m="$mod" -v mode="$mode" 'NR == FNR {
		if ($1 == m && ($2 ~ "_" mode "$" || $2 ~ "_" mode "_"))
			want[$2] = 1
		next
	}
	{ f = $1; sub(/^[^:]*:/, "", f) }
	f in want { n += $2 }
	END { print n + 0 }' "$ASM_ENTRIES" "$KPCOUNTS"
}

# kp_expect TAG MODULE MODE...: MODULE's code for every MODE ran.
kp_expect()
{
	local tag=$1 mod=$2 mode h got= miss=

	shift 2
	if ! grep -q "^$mod " "$ASM_ENTRIES" 2>/dev/null; then
		fail "$tag entry counts: $mod has no assembly entry points listed"
		return 1
	fi
	if [ $# -eq 0 ]; then
		fail "$tag entry counts: no mode of $mod to look for (nothing would be checked)"
		return 1
	fi
	for mode in "$@"; do
		h=$(kp_hits "$mod" "$mode")
		if [ "$h" -gt 0 ]; then
			got="$got $mode=$h"
		else
			miss="$miss $mode"
		fi
	done
	if [ -z "$miss" ]; then
		pass "$tag $mod's assembly ran:$got entries"
	else
		fail "$tag $mod serves$miss but its assembly for it was never entered (hits:${got:- none})"
	fi
}

# module_of DRIVER: the module of a driver name in /proc/crypto.
module_of()
{
	crypto_table | awk -v d="$1" '$2 == d { print $3; exit }'
}

# expect_served TAG ALG MODE...: the driver the crypto API hands out for
# ALG ran its assembly for every MODE since kp_arm.
expect_served()
{
	local tag=$1 alg=$2 best m

	shift 2
	best=$(best_driver "$alg")
	if [ -z "$best" ]; then
		fail "$tag no driver for $alg in /proc/crypto"
		return 1
	fi
	m=${best#* }
	# sm4-ce-ccm and sm4-ce-gcm run sm4-ce's assembly.
	case $m in
	sm4_ce_ccm|sm4_ce_gcm) m=sm4_ce ;;
	esac
	m=$(asm_module_name "$m")
	if [ -n "$m" ]; then
		kp_expect "$tag ($alg: ${best%% *})" "$m" "$@"
	else
		skip "$tag entry counts for $alg" "served by ${best%% *} of module ${best#* }, which has no assembly"
	fi
}

# asm_module_name MOD: MOD (underscores, as /proc/crypto says) as
# $ASM_ENTRIES names it (the .ko file name).
asm_module_name()
{
	awk -v m="$1" '{ k = $1; gsub("-", "_", k) } k == m { print $1; exit }' \
		"$ASM_ENTRIES"
}

# asm_modules: the loaded project modules with assembly mode functions
# (the skcipher drivers; not e.g. sm4-ce-cipher's single-block code).
asm_modules()
{
	local m

	[ -s "$ASM_ENTRIES" ] || return 0
	for m in $(awk '$2 ~ /_ecb$/ { print $1 }' "$ASM_ENTRIES" | sort -u); do
		is_loaded "$m" && echo "$m"
	done
}

# --- part 0 ---------------------------------------------------------------

# Linux 7.3+: AF_ALG serves only an allowlist while af_alg_restrict is 1
# (the default), and SM4 is not on it.  In-kernel users are not affected:
# dm-crypt and fscrypt run here with the restriction on, the AF_ALG parts
# after it is turned off.
part0()
{
	local table out

	part_begin 0 "AF_ALG allowlist ($RESTRICT)"
	load_project_modules part0 >/dev/null
	modprobe -a algif_skcipher dm_mod dm_crypt
	echo 1 >"$RESTRICT"
	if out=$("$AFALG" resolve -q "xts(sm4)" 2>&1); then
		fail "part0 af_alg_restrict=1: AF_ALG still hands out xts(sm4) ($out)"
	else
		pass "part0 af_alg_restrict=1: AF_ALG refuses xts(sm4) ($(echo "$out" | tail -n1))"
	fi
	if find_disks; then
		table="0 8192 crypt sm4-xts-plain64 $DMXTS_KEY $DMXTS_IV_OFFSET $RAWDISK 0"
		if dmsetup create sm4restrict --table "$table" &&
				dd if=/dev/mapper/sm4restrict of=/dev/null bs=4096 count=16 2>/dev/null; then
			pass "part0 af_alg_restrict=1: a dm-crypt sm4-xts-plain64 mapping works"
		else
			fail "part0 af_alg_restrict=1: dm-crypt sm4-xts-plain64 does not work"
		fi
		dmsetup remove sm4restrict 2>/dev/null
	else
		fail "part0 test disks not found"
	fi
	if want_part 10; then
		part_end
		part10
		FSCRYPT_DONE=1
		part_begin 0 "AF_ALG allowlist, end"
	fi
	echo 0 >"$RESTRICT"
	if [ "$(cat "$RESTRICT")" = 0 ] && "$AFALG" resolve -q "xts(sm4)" >/dev/null 2>&1; then
		pass "part0 af_alg_restrict=0: AF_ALG serves xts(sm4) again for the AF_ALG parts"
	else
		fail "part0 af_alg_restrict=0: AF_ALG still refuses xts(sm4)"
	fi
	part_end
}

# --- part 1 ---------------------------------------------------------------

part1()
{
	part_begin 1 "load modules, /proc/crypto"
	load_project_modules part1
	if [ "$BROKEN" = 1 ]; then
		if [ -e "$KMODS/sm4_broken_test.ko" ]; then
			# shellcheck disable=SC2086
			check "part1 insmod sm4_broken_test $BROKEN_ARGS (deliberately broken driver)" \
				insmod "$KMODS/sm4_broken_test.ko" $BROKEN_ARGS
			LOADED="$LOADED sm4_broken_test"
		else
			fail "part1 sm4_broken_test.ko missing (tests/guest/kmod not built)"
		fi
	fi
	check_proc_crypto part1
	modprobe algif_skcipher
	check_resolution part1
	part_end
}

# --- part 2 ---------------------------------------------------------------

# run_tcrypt_gcm TAG: the kernel's gcm(sm4) vectors through tcrypt mode=55
# on the driver gcm(sm4) resolves to; where that is one of this project's
# (gcm-sm4-*), its assembly (table set-up, GHASH, fused CTR+GHASH) must
# have run, not the portable fallback.
run_tcrypt_gcm()
{
	local tag=$1 best

	best=$(best_driver "gcm(sm4)" | cut -d' ' -f1)
	case $best in
	gcm-sm4-*) ;;
	*)
		skip "$tag tcrypt mode=55 (gcm(sm4))" "no gcm-sm4-* driver registered (best: ${best:-none})"
		return 0
		;;
	esac
	kp_arm "$tag" || return 0
	if tcrypt_run "$tag" "tcrypt mode=55" modprobe tcrypt mode=55; then
		cat /tmp/tcrypt.log
		if grep -qiE 'alg: .*fail|tcrypt: one or more tests failed|failed to load transform' \
				/tmp/tcrypt.log; then
			fail "$tag tcrypt mode=55 (gcm(sm4) on $best) reported failures"
		elif grep -qF 'alg: No test for gcm(sm4)' /tmp/tcrypt.log; then
			skip "$tag tcrypt mode=55 (gcm(sm4) on $best)" "this kernel's testmgr has no gcm(sm4) vectors"
		else
			pass "$tag tcrypt mode=55: gcm(sm4) self-tests passed on $best"
		fi
		# testmgr's gcm(sm4) vectors are a few blocks long: their
		# keystream comes with E_K(J0) from one ecb call (struct
		# sm4_gcm_ops' short_blocks), never from gcm_enc, which
		# glue_entry's longer requests must enter.
		expect_served "$tag" "gcm(sm4)" gcm_init ghash ecb
	fi
	kp_disarm
}

part2()
{
	part_begin 2 "tcrypt mode=191, mode=55"
	run_tcrypt part2
	run_tcrypt_gcm part2
	part_end
}

# --- part 3 ---------------------------------------------------------------

# The shortest requests, "PREFIX:LEN:OP:FUNCTION:REFERENCE": one block of
# ecb and cbc, and 31 bytes of cts(cbc) (an fscrypt filename of 16..31
# bytes) and of xts (ciphertext stealing), each of which must enter the
# driver's assembly FUNCTION (as kp_hits names it).
SHORT_REQUESTS="ecb:16:enc:ecb:ecb(sm4-generic)
cbc:16:dec:cbc_dec:cbc(sm4-generic)
cts-cbc:31:enc:cbc_enc:cts(cbc(sm4-generic))
cts-cbc:31:dec:cbc_dec:cts(cbc(sm4-generic))
xts:31:enc:xts:xts(ecb(sm4-generic))"

# The long requests: four pages (and a ragged tail where the mode takes
# one) of every mode function, each of which must enter it at least once
# per page: the glue calls a bulk function at least once per walk step,
# and a step never spans more than a page (SM4_SIMD_CHUNK), so fewer
# entries mean that part of the request ran in the portable C code, which
# the one-entry probes of part 3 and the short requests cannot see.
LONG_REQUESTS="ecb:16384:enc:ecb:ecb(sm4-generic)
cbc:16384:enc:cbc_enc:cbc(sm4-generic)
cbc:16384:dec:cbc_dec:cbc(sm4-generic)
cfb:16389:enc:cfb_enc:cfb(sm4-generic)
cfb:16389:dec:cfb_dec:cfb(sm4-generic)
ctr:16389:enc:ctr:ctr(sm4-generic)
xts:16389:enc:xts:xts(ecb(sm4-generic))
xts:16389:dec:xts:xts(ecb(sm4-generic))"

# short_request TAG MODULE NAME PREFIX LEN OP FUNCTION REFERENCE: one
# request of LEN bytes on PREFIX-sm4-NAME (sm4-afalg once, checked
# against REFERENCE) entered MODULE's FUNCTION, counted by the probes of
# kp_arm_counting: the portable C code leaves the count unchanged.  A
# request of P >= 1 whole pages must enter it at least P times (see
# LONG_REQUESTS).  The cfb template over sm4-generic is gone from 6.8:
# sm4_generic's own cfb-sm4-generic is the reference there.
short_request()
{
	local tag=$1 mod=$2 name=$3 drv="$4-sm4-$3" len=$5 op=$6 fn=$7 ref=$8
	local before after out rc pages=$(($5 / 4096)) kind="short requests"

	[ "$ref" = "cfb(sm4-generic)" ] &&
		crypto_table | awk '$2 == "cfb-sm4-generic" { f = 1 } END { exit !f }' &&
		ref=cfb-sm4-generic
	[ $pages -gt 0 ] && kind="long requests"
	before=$(kp_hits "$mod" "$fn")
	out=$("$AFALG" once "$drv" "$len" --op "$op" --ref "$ref" </dev/null 2>&1)
	rc=$?
	after=$(kp_hits "$mod" "$fn")
	if [ $rc -ne 0 ] || ! echo "$out" | grep -q '^PASS: once '; then
		echo "$out" | sed 's/^/  | /' | tail -n 5
		fail "$tag $kind: $drv $op $len bytes failed (sm4-afalg once, exit status $rc)"
	elif [ $pages -gt 0 ] && [ $((after - before)) -ge $pages ]; then
		pass "$tag $kind: $drv $op $len bytes entered $mod's $fn assembly $((after - before)) times, at least once for each of its $pages pages; output equals $ref's"
	elif [ $pages -gt 0 ]; then
		fail "$tag $kind: $drv $op $len bytes entered $mod's $fn assembly $((after - before)) times, fewer than its $pages pages (entries $before -> $after): part of the request ran in C"
	elif [ "$after" -gt "$before" ]; then
		pass "$tag $kind: $drv $op $len bytes entered $mod's $fn assembly ($((after - before)) entries), output equals $ref's"
	else
		fail "$tag $kind: $drv $op $len bytes never entered $mod's $fn assembly (entries $before -> $after): the request ran in C"
	fi
}

# sbox_aligned TAG: the portable code's S-box starts on a 64-byte boundary
# in the running kernel (what lets lib/sm4.c's touch of the table reach
# every cache line of it; tests/test-kbuild.sh checks the object).
sbox_aligned()
{
	local tag=$1 addr

	addr=$(awk '$3 == "crypto_sm4_sbox" { print $1; exit }' /proc/kallsyms)
	case $addr in
	"")
		skip "$tag S-box alignment" "no crypto_sm4_sbox in /proc/kallsyms (sm4 not loaded, or a kernel without CONFIG_KALLSYMS_ALL)"
		;;
	*[!0]*)
		if [ $((0x${addr#"${addr%??}"} % 64)) -eq 0 ]; then
			pass "$tag S-box alignment: crypto_sm4_sbox at $addr, a multiple of 64"
		else
			fail "$tag S-box alignment: crypto_sm4_sbox at $addr, not a multiple of 64: the touch of every line may miss one"
		fi
		;;
	*)
		skip "$tag S-box alignment" "/proc/kallsyms shows no addresses (kptr_restrict)"
		;;
	esac
}

# short_requests TAG: every SIMD driver serves the shortest requests in
# its assembly too (issue #22: no length leaves constant time for the
# table S-box of the portable code), and every page of a long request in
# every mode.  A driver the CPU lacks is a SKIP.
short_requests()
{
	local tag=$1 m name needs spec ifs=$IFS long

	long=$LONG_REQUESTS
	if [ ! -x "$AFALG" ] || [ ! -s "$ASM_ENTRIES" ]; then
		fail "$tag short requests: sm4-afalg or $ASM_ENTRIES missing"
		return 1
	fi
	# The debug kernel (part fuzz) repeats only the short ones: under
	# KASAN the short and long ones took 24-27 s per driver (most of it
	# the long ones and their references) on its lane, the run's last;
	# every guest cell runs them.
	if want_part fuzz; then
		long=
		skip "$tag long requests" "run in every guest cell, not on the debug kernel (under KASAN most of the 24-27 s per driver the requests took there, on the run's last lane)"
	fi
	for m in $(awk '$2 ~ /_ecb$/ { print $1 }' "$ASM_ENTRIES" | sort -u); do
		if ! is_loaded "$m"; then
			needs=$(driver_needs "$m")
			# shellcheck disable=SC2086
			if cpu_has $needs; then
				fail "$tag short requests: $m is not loaded although the CPU has ${needs:-what it needs}: not checked"
			else
				skip "$tag short requests on $m" "not run: the CPU lacks one of: $needs"
			fi
			continue
		fi
		name=$(crypto_table | awk -v m="$(modname "$m")" '
			$3 == m && $2 ~ /^ecb-sm4-/ { print substr($2, 9); exit }')
		if [ -z "$name" ]; then
			fail "$tag short requests: $m registered no ecb-sm4-* driver"
			continue
		fi
		kp_arm_counting "$tag short requests" "$m" || continue
		for spec in $SHORT_REQUESTS $long; do
			IFS=:
			# shellcheck disable=SC2086
			set -- $spec
			IFS=$ifs
			short_request "$tag" "$m" "$name" "$@"
		done
		kp_disarm
	done
}

# setkey_entry TAG MODULE TYPE DRIVER FUNCTION: an AF_ALG setkey alone
# (sm4-afalg setkey, no request) on DRIVER entered MODULE's FUNCTION (as
# kp_hits names it), counted by the probes of kp_arm_counting.
setkey_entry()
{
	local tag=$1 mod=$2 type=$3 drv=$4 fn=$5 before after out rc

	before=$(kp_hits "$mod" "$fn")
	out=$("$AFALG" setkey "$type" "$drv" </dev/null 2>&1)
	rc=$?
	after=$(kp_hits "$mod" "$fn")
	if [ $rc -ne 0 ] || ! echo "$out" | grep -q '^PASS: setkey '; then
		echo "$out" | sed 's/^/  | /' | tail -n 5
		fail "$tag setkey: $type $drv failed (sm4-afalg setkey, exit status $rc)"
	elif [ "$after" -gt "$before" ]; then
		pass "$tag setkey: $type $drv entered $mod's $fn assembly ($((after - before)) entries)"
	else
		fail "$tag setkey: $type $drv never entered $mod's $fn assembly (entries $before -> $after): the key met the table S-box in C"
	fi
}

# setkey_entries TAG: every loaded SIMD driver runs its assembly key
# expansion (an *_expand_key entry point: SM4EKEY on sm4-ce, the register
# S-box on sm4-neon, AES-NI/GFNI/SM4-NI on x86) for an skcipher's setkey,
# and one whose module registers gcm-sm4-* computes H = E_K(0) with its
# own ecb (issue #22: no key through the table S-box where SIMD is
# usable).  A driver without an *_expand_key entry point fails: its
# setkey would take the key through the table S-box.
setkey_entries()
{
	local tag=$1 m name

	if [ ! -x "$AFALG" ] || [ ! -s "$ASM_ENTRIES" ]; then
		fail "$tag setkey: sm4-afalg or $ASM_ENTRIES missing"
		return 1
	fi
	for m in $(awk '$2 ~ /_ecb$/ { print $1 }' "$ASM_ENTRIES" | sort -u); do
		is_loaded "$m" || continue	# short_requests says why
		name=$(crypto_table | awk -v m="$(modname "$m")" '
			$3 == m && $2 ~ /^ecb-sm4-/ { print substr($2, 9); exit }')
		[ -n "$name" ] || continue	# short_requests failed it
		kp_arm_counting "$tag setkey" "$m" || continue
		if awk -v m="$m" '$1 == m && $2 ~ /_expand_key$/ { f = 1 }
		    END { exit !f }' "$ASM_ENTRIES"; then
			setkey_entry "$tag" "$m" skcipher "ecb-sm4-$name" expand_key
		else
			fail "$tag setkey on $m: no *_expand_key entry point among its assembly's: its setkey expands keys with the table S-box"
		fi
		if crypto_table | awk -v d="gcm-sm4-$name" -v m="$(modname "$m")" '
		    $2 == d && $3 == m { f = 1 } END { exit !f }'; then
			modprobe algif_aead 2>/dev/null
			setkey_entry "$tag" "$m" aead "gcm-sm4-$name" ecb
		fi
		kp_disarm
	done
}

# kp_arm_first TAG MODULE FN...: new probes on MODULE's entry points for
# each FN (as kp_hits names it) alone, each disabled after its first entry
# (one trap): kp_hits then says whether it was entered since.
kp_arm_first()
{
	local tag=$1 mod=$2 list out

	shift 2
	kp_disarm
	list=$(awk -v m="$mod" -v fns=" $* " '$1 == m {
		k = m; gsub(/-/, "_", k)
		n = split(fns, want, " ")
		for (i = 1; i <= n; i++)
			if ($2 ~ "_" want[i] "$") {
				printf "%s%s:%s", s, k, $2; s = ","
			}
	}' "$ASM_ENTRIES" 2>/dev/null)
	if [ -z "$list" ]; then
		fail "$tag entry counts: $mod has none of $* among its assembly entry points"
		return 1
	fi
	if ! out=$(insmod "$KMODS/sm4_entry_count.ko" syms="$list" 2>&1); then
		dmesg | grep sm4_entry_count | tail -n 3
		fail "$tag entry counts: insmod sm4_entry_count.ko failed ($out)"
		return 1
	fi
}

# glue_entry TAG MODULE DRIVER: tests/guest/kmod's sm4_glue_test.ko on
# DRIVER (gcm-, ccm- or cmac-sm4-*: requests over scatterlists of many
# entries, against the portable code; gcm keyed where SIMD is not usable)
# passes, and its requests entered MODULE's assembly: gcm its table of H
# powers (gcm_init: made by the first request, since the setkey could
# not), its GHASH (ghash) and its fused encryption of texts longer than
# short_blocks (gcm_enc), ccm and cmac the CBC-MAC (cbcmac).  Requests on
# the portable code enter none of them.
glue_entry()
{
	local tag=$1 mod=$2 drv=$3 out rc fn f n ok=1 got= fns

	case $drv in
	gcm-*) fns="gcm_init ghash gcm_enc" ;;
	*) fns=cbcmac ;;
	esac
	kp_arm_first "$tag glue" "$mod" $(echo "$fns" | tr + ' ') || return 1
	dmesg_mark
	out=$(insmod "$KMODS/sm4_glue_test.ko" alg="$drv" 2>&1)
	rc=$?
	is_loaded sm4_glue_test && rmmod sm4_glue_test
	dmesg_new | grep 'sm4-gluetest:' >/tmp/gluetest.log
	if [ $rc -ne 0 ] || ! grep -q 'sm4-gluetest: PASS' /tmp/gluetest.log; then
		sed 's/^/  | /' /tmp/gluetest.log | tail -n 5
		fail "$tag glue: $drv: sm4_glue_test failed (insmod: ${out:-status $rc}): $(sed -n 's/.*sm4-gluetest: FAIL //p' /tmp/gluetest.log | head -n 1)"
		kp_disarm
		return 1
	fi
	for fn in $fns; do
		n=0
		for f in $(echo "$fn" | tr + ' '); do
			n=$((n + $(kp_hits "$mod" "$f")))
		done
		if [ "$n" -gt 0 ]; then
			got="$got $fn"
		else
			ok=0
			fail "$tag glue: $drv never entered $mod's $fn assembly (entries 0 -> 0): its requests ran the portable code"
		fi
	done
	kp_disarm
	[ $ok = 1 ] || return 1
	pass "$tag glue: $drv: $(sed -n 's/.*sm4-gluetest: PASS [^ ]* ([^)]*): //p' /tmp/gluetest.log | head -n 1); entered $mod's assembly:$got"
}

# glue_entries TAG: glue_entry for every gcm-, ccm- and cmac-sm4-* driver
# a loaded module of this project registers (issue #22: gcm's table made
# on the first request that can use SIMD; scatterlists of many entries
# hashed piece by piece).  sm4-ce-gcm and sm4-ce-ccm run sm4-ce's
# assembly.
glue_entries()
{
	local tag=$1 drv mod m n=0

	if [ ! -e "$KMODS/sm4_glue_test.ko" ]; then
		fail "$tag glue: sm4_glue_test.ko missing (tests/guest/kmod not built)"
		return 1
	fi
	crypto_table | awk '$2 ~ /^(gcm|ccm|cmac)-sm4-/ && $3 ~ /^sm4/ {
		print $2, $3 }' | sort -u >/tmp/glue.drivers
	while read -r drv mod; do
		case $mod in
		sm4_broken_test) continue ;;
		sm4_ce_gcm|sm4_ce_ccm) mod=sm4_ce ;;
		esac
		m=$(asm_module_name "$mod")
		if [ -z "$m" ]; then
			skip "$tag glue: $drv" "its module $mod has no assembly"
			continue
		fi
		glue_entry "$tag" "$m" "$drv" </dev/null
		n=$((n + 1))
	done </tmp/glue.drivers
	[ $n -gt 0 ] || skip "$tag glue" "no gcm-, ccm- or cmac-sm4-* driver with assembly is registered"
}

part3()
{
	part_begin 3 "AF_ALG vectors, $CASES cases per mode"
	modprobe algif_skcipher
	kp_arm part3
	if [ -e "$VECTORS" ]; then
		afalg part3 check "$VECTORS"
	else
		fail "part3 $VECTORS missing"
	fi
	afalg part3 cross ${CROSS_CASES:+--cases "$CROSS_CASES"}
	# Every driver was tested by its own name, both directions.
	for m in $(asm_modules); do
		kp_expect part3 "$m" ecb cbc_enc cbc_dec cfb_enc cfb_dec ctr xts
	done
	kp_disarm
	sbox_aligned part3
	short_requests part3
	setkey_entries part3
	glue_entries part3
	cfb_fuzz_check part3
	part_end
}

# cfb_fuzz_run ITERATIONS: tests/guest/kmod's sm4_cfb_fuzz.ko over every
# cfb(sm4) driver /proc/crypto lists (ITERATIONS random messages each,
# compared with CFB over the single-block sm4-generic: no kernel has a
# generic cfb(sm4) to fuzz against from 6.8 on, and testmgr no cfb(sm4)
# entry).  Its kernel lines go to /tmp/cfbfuzz.log, the drivers to
# /tmp/cfbfuzz.drivers; CFB_FUZZ_RC is insmod's status.  Returns 1 (after
# a FAIL) when it could not run.
CFB_FUZZ_RC=
cfb_fuzz_run()
{
	local drvs out

	: >/tmp/cfbfuzz.log
	crypto_table | awk '$1 == "cfb(sm4)" && $8 != "yes" { print $2 }' |
		sort -u >/tmp/cfbfuzz.drivers
	drvs=$(tr '\n' , </tmp/cfbfuzz.drivers)
	if [ ! -e "$KMODS/sm4_cfb_fuzz.ko" ]; then
		fail "cfb fuzz: sm4_cfb_fuzz.ko missing (tests/guest/kmod not built)"
		return 1
	fi
	if [ -z "$drvs" ]; then
		fail "cfb fuzz: no cfb(sm4) driver in /proc/crypto"
		return 1
	fi
	dmesg_mark
	out=$(insmod "$KMODS/sm4_cfb_fuzz.ko" drivers="${drvs%,}" \
		iterations="$1" seed="${SEED:-0}" 2>&1)
	CFB_FUZZ_RC=$?
	dmesg_new | grep 'sm4-cfb-fuzz:' | sed 's/^\[[ 0-9.]*\] //' >/tmp/cfbfuzz.log
	is_loaded sm4_cfb_fuzz && rmmod sm4_cfb_fuzz
	[ -z "$out" ] || echo "  | insmod sm4_cfb_fuzz: $out"
	return 0
}

# cfb_fuzz_result DRIVER: sm4_cfb_fuzz's verdict on DRIVER: "PASS text"
# or "FAIL text: first failing message", nothing if it gave none.
cfb_fuzz_result()
{
	local r

	r=$(grep -F -e "sm4-cfb-fuzz: PASS $1: " -e "sm4-cfb-fuzz: FAIL $1: " \
		/tmp/cfbfuzz.log | head -n 1 | sed 's/^sm4-cfb-fuzz: //')
	case $r in
	FAIL*) echo "$r: $(grep -F "sm4-cfb-fuzz: $1: message " /tmp/cfbfuzz.log |
		head -n 1 | sed "s/^sm4-cfb-fuzz: $1: //")" ;;
	*) echo "$r" ;;
	esac
}

# cfb_fuzz_check TAG: where part fuzz (the debug kernel) did not run it
# already, cfb_fuzz_run with CFB_FUZZ iterations, one PASS/FAIL per
# driver; a SKIP where the kernel has no switch to disable SIMD (the
# module says so: only kernels with the self-tests' fuzzer have it).
cfb_fuzz_check()
{
	local tag=$1 drv r t0

	want_part fuzz && return 0
	t0=$(uptime_s)
	cfb_fuzz_run "${CFB_FUZZ:-200}" || return
	say "TIME: $ARCH $tag cfb fuzz of every cfb(sm4) driver (${CFB_FUZZ:-200} messages each) $(elapsed "$t0") s"
	while read -r drv; do
		r=$(cfb_fuzz_result "$drv")
		case $r in
		PASS*) pass "$tag cfb fuzz $drv: ${r#"PASS $drv: "}" ;;
		FAIL*) fail "$tag cfb fuzz $drv: ${r#"FAIL $drv: "}" ;;
		*) fail "$tag cfb fuzz $drv: sm4_cfb_fuzz gave no result for it (insmod status $CFB_FUZZ_RC)" ;;
		esac
	done </tmp/cfbfuzz.drivers
	if grep -qE '^sm4-cfb-fuzz: FAIL: ' /tmp/cfbfuzz.log; then
		fail "$tag cfb fuzz: $(grep -m1 -E '^sm4-cfb-fuzz: FAIL: ' /tmp/cfbfuzz.log)"
	elif [ "$CFB_FUZZ_RC" -ne 0 ] && ! grep -q '^sm4-cfb-fuzz: FAIL ' /tmp/cfbfuzz.log; then
		fail "$tag cfb fuzz: insmod sm4_cfb_fuzz failed ($CFB_FUZZ_RC) with no driver failing"
	fi
	grep -q 'this kernel has no switch to disable it' /tmp/cfbfuzz.log &&
		skip "$tag cfb fuzz with SIMD disabled" \
			"this kernel has no crypto_simd_disabled_for_test (only kernels with the self-tests' fuzzer do): every message ran with SIMD usable"
}

# --- part 4 ---------------------------------------------------------------

part4()
{
	local out rc

	part_begin 4 "bad input, XTS weak keys"
	modprobe algif_skcipher
	afalg part4 badinput
	if [ -e "$KMODS/sm4_xts_weakkey_test.ko" ]; then
		dmesg_mark
		out=$(insmod "$KMODS/sm4_xts_weakkey_test.ko" 2>&1)
		rc=$?
		dmesg_new | grep 'sm4-weakkey:' >/tmp/weakkey.log
		cat /tmp/weakkey.log
		if [ $rc -eq 0 ] && grep -q PASS /tmp/weakkey.log &&
				! grep -q FAIL /tmp/weakkey.log; then
			pass "part4 sm4_xts_weakkey_test: $(grep -c PASS /tmp/weakkey.log) PASS lines, none failed"
		else
			echo "  | $out"
			fail "part4 sm4_xts_weakkey_test (insmod status $rc, $(grep -c FAIL /tmp/weakkey.log) FAIL lines)"
		fi
		is_loaded sm4_xts_weakkey_test && rmmod sm4_xts_weakkey_test
	else
		fail "part4 sm4_xts_weakkey_test.ko missing (tests/guest/kmod not built)"
	fi
	part_end
}

# --- part 5 ---------------------------------------------------------------

# find_disks: the LUKS disk and the raw dm-crypt disk, by their serials.
find_disks()
{
	local b i=0

	while [ $i -lt 50 ]; do
		for b in /sys/block/vd*; do
			[ -e "$b/serial" ] || continue
			case $(cat "$b/serial") in
			sm4luks) DISK=/dev/${b##*/} ;;
			sm4raw) RAWDISK=/dev/${b##*/} ;;
			sm4fs) FSDISK=/dev/${b##*/} ;;
			esac
		done
		[ -n "$DISK" ] && [ -n "$RAWDISK" ] && [ -n "$FSDISK" ] &&
			return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# A plain dm-crypt mapping with a key the host knows: what the guest
# writes, the host decrypts with libgcrypt after the boot; what the host
# encrypted, the guest must read back.
raw_dmcrypt()
{
	local table got

	table="0 8192 crypt sm4-xts-plain64 $DMXTS_KEY $DMXTS_IV_OFFSET $RAWDISK 0"
	if ! check "part5 dmsetup create crypt sm4-xts-plain64 (raw, host-known key)" \
			dmsetup create sm4raw --table "$table"; then
		return 1
	fi
	check "part5 raw mapping: write 1 MiB at sector 0 (the host checks it)" \
		dd if=/opt/sm4/dmA.bin of=/dev/mapper/sm4raw bs=65536 conv=fsync
	got=$(dd if=/dev/mapper/sm4raw bs=65536 skip=32 count=16 2>/dev/null |
		sha256sum | cut -d' ' -f1)
	if [ "$got" = "$(cat /opt/sm4/dmB.sha256)" ]; then
		pass "part5 raw mapping: reads back what the host encrypted with libgcrypt SM4-XTS"
	else
		fail "part5 raw mapping: data the host encrypted with libgcrypt reads back wrong"
	fi
	check "part5 dmsetup remove" dmsetup remove sm4raw
}

# xts_directions: XTS encryption and decryption run one assembly function
# per driver (decryption is encryption with the decryption key schedule),
# so a count over a mixed workload cannot tell them apart.  On a raw
# mapping of its own (1 MiB at 8 MiB into the raw disk, past what the
# host checks), direct writes enter the driver only to encrypt, direct
# reads only to decrypt: each must enter the assembly.  A control: the
# cfb functions, which no XTS request calls, must count nothing (the
# counts are per function, not of every entry).
xts_directions()
{
	local table sz m

	sz=$(blockdev --getsz "$RAWDISK" 2>/dev/null)
	if [ "${sz:-0}" -lt $((16384 + 2048)) ]; then
		fail "part5 xts directions: the raw disk has ${sz:-?} sectors, fewer than the 18432 needed"
		return
	fi
	table="0 2048 crypt sm4-xts-plain64 $DMXTS_KEY 0 $RAWDISK 16384"
	check "part5 xts directions: dmsetup create a second raw mapping" \
		dmsetup create sm4dir --table "$table" || return
	kp_arm "part5 xts encryption"
	check "part5 xts directions: 1 MiB of direct writes (encryption only)" \
		dd if=/opt/sm4/dmA.bin of=/dev/mapper/sm4dir bs=65536 count=16 oflag=direct
	expect_served "part5 xts encryption (direct writes only)" "xts(sm4)" xts
	kp_arm "part5 xts decryption"
	check "part5 xts directions: 1 MiB of direct reads (decryption only)" \
		dd if=/dev/mapper/sm4dir of=/dev/null bs=65536 count=16 iflag=direct
	expect_served "part5 xts decryption (direct reads only)" "xts(sm4)" xts
	m=$(best_driver "xts(sm4)")
	m=$(asm_module_name "${m#* }")
	if [ -n "$m" ] && grep -q "^$m .*_cfb_dec$" "$ASM_ENTRIES"; then
		if [ "$(kp_hits "$m" cfb_dec)" -eq 0 ]; then
			pass "part5 xts decryption: control: $m's cfb_dec, which XTS never calls, counted 0"
		else
			fail "part5 xts decryption: control: $m's cfb_dec counted $(kp_hits "$m" cfb_dec) entries during XTS-only I/O: the counts are not per function"
		fi
	fi
	kp_disarm
	check "part5 xts directions: dmsetup remove" dmsetup remove sm4dir
}

# raw_report LINE: "RAW-LINE" on the verdict channel only: data the host
# checks the ciphertext on the disk images with, after the boot, by a
# computation of its own (run-guest.sh: luks_raw_check, fscrypt_raw_check).
raw_report()
{
	echo "RAW-$*" >>"$VERDICT"
}

# luks_raw_report: the LUKS2 volume's key as cryptsetup dumps it, where
# its data segment starts, its sector size and dm table (without the
# key).  The host decrypts regions of the disk image with libgcrypt
# (luks_raw_regions).  A step that fails is a FAIL here; the comparison
# is the host's.
luks_raw_report()
{
	local vk=/tmp/luks.vk st off ssz

	rm -f "$vk"
	if ! cryptsetup luksDump --batch-mode --dump-volume-key \
			--volume-key-file "$vk" --key-file "$LUKS_KEY" "$DISK" \
			>/tmp/luks.dump 2>&1 &&
			! cryptsetup luksDump --batch-mode --dump-master-key \
			--master-key-file "$vk" --key-file "$LUKS_KEY" "$DISK" \
			>>/tmp/luks.dump 2>&1; then
		fail "part5 raw: cryptsetup luksDump --dump-volume-key (and --dump-master-key) failed: $(tail -n 1 /tmp/luks.dump)"
		return
	fi
	raw_report "LUKS key $(od -An -v -tx1 "$vk" | tr -d ' \n')"
	rm -f "$vk"
	if ! luks_open; then
		fail "part5 raw: cryptsetup open for the mapping's status"
		return
	fi
	st=$(cryptsetup status "$MAPNAME")
	off=$(echo "$st" | awk '$1 == "offset:" { print $2 }')
	ssz=$(echo "$st" | awk '$1 == "sector" && $2 == "size:" { print $3 }')
	raw_report "LUKS segment ${off:-?} ${ssz:-512}"
	raw_report "LUKS table $(dmsetup table "$MAPNAME" | awk '{ $5 = "-"; print }')"
	luks_close || fail "part5 raw: cryptsetup close after the dump"
}

# luks_raw_regions: the SHA-256 of three 64 KiB regions of the plaintext
# read through the mapping (the ext4 metadata at the start, the middle and
# the end of the volume), after the last part of the boot that writes to
# the volume (7: its mount after the reload changes the superblock).
luks_raw_regions()
{
	local size r sum

	if ! luks_close || ! luks_open; then
		fail "part5 raw: cryptsetup open for the plaintext regions"
		return
	fi
	size=$(blockdev --getsize64 "/dev/mapper/$MAPNAME")
	for r in 0 $((size / 2 / 65536 + 3)) $((size / 65536 - 1)); do
		if ! dd if="/dev/mapper/$MAPNAME" of=/tmp/luks.region bs=65536 \
				skip="$r" count=1 iflag=direct status=none; then
			fail "part5 raw: reading 64 KiB at block $r of the mapping"
			continue
		fi
		sum=$(sha256sum </tmp/luks.region | cut -d' ' -f1)
		raw_report "LUKS region $((r * 65536)) 65536 $sum"
	done
	rm -f /tmp/luks.region
	luks_close || fail "part5 raw: cryptsetup close after reading the regions"
}

luks_open()
{
	cryptsetup open --key-file "$LUKS_KEY" "$DISK" "$MAPNAME"
}

luks_close()
{
	if grep -q " $MNT " /proc/mounts; then
		umount "$MNT" || return 1
	fi
	if cryptsetup status "$MAPNAME" >/dev/null 2>&1; then
		cryptsetup close "$MAPNAME" || return 1
	fi
	return 0
}

# verify_files TAG: every file of $DATA is on the volume, byte-identical.
verify_files()
{
	local tag=$1 n

	n=$(wc -l <"$DATA.sha256")
	if ! grep -q " $MNT " /proc/mounts; then
		fail "$tag the encrypted volume is not mounted, nothing to verify"
		return 1
	fi
	if (cd "$MNT" && sha256sum -c "$DATA.sha256") >/tmp/verify.out 2>&1; then
		pass "$tag all $n files on the encrypted volume match their SHA-256"
	else
		cat /tmp/verify.out
		fail "$tag files differ from their SHA-256 (see console)"
	fi
}

part5()
{
	local st

	part_begin 5 "dm-crypt sm4-xts-plain64"
	modprobe -a dm_mod dm_crypt ext4 algif_skcipher
	mkdir -p "$MNT"
	if ! find_disks; then
		fail "part5 test disks (virtio serials sm4luks, sm4raw, sm4fs) not found"
		part_end
		return
	fi
	kp_arm part5
	raw_dmcrypt
	check "part5 luksFormat --type luks2 --cipher sm4-xts-plain64 --key-size 256" \
		cryptsetup luksFormat --batch-mode --type luks2 \
			--cipher sm4-xts-plain64 --key-size 256 \
			--pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
			--hash sha256 --key-file "$LUKS_KEY" "$DISK"
	check "part5 cryptsetup open" luks_open
	st=$(cryptsetup status "$MAPNAME" 2>&1)
	echo "$st"
	if echo "$st" | grep -qE 'cipher: +sm4-xts-plain64' &&
			echo "$st" | grep -qE 'keysize: +256 bits'; then
		pass "part5 mapping uses sm4-xts-plain64, 256-bit key"
	else
		fail "part5 mapping cipher is not sm4-xts-plain64/256"
	fi
	check "part5 mkfs.ext4 on the mapping" \
		mkfs.ext4 -q -F "/dev/mapper/$MAPNAME"
	if check "part5 mount" mount -t ext4 "/dev/mapper/$MAPNAME" "$MNT"; then
		cp -a "$DATA/." "$MNT/"
		sync
		verify_files "part5 first open:"
	fi
	check "part5 close" luks_close
	echo 3 >/proc/sys/vm/drop_caches
	check "part5 reopen" luks_open
	if check "part5 mount after reopen" \
			mount -t ext4 "/dev/mapper/$MAPNAME" "$MNT"; then
		verify_files "part5 after reopen:"
	fi
	check "part5 close after reopen" luks_close
	luks_raw_report
	expect_served part5 "xts(sm4)" xts
	kp_disarm
	xts_directions

	if cryptsetup benchmark --cipher sm4-xts-plain64 >/tmp/bench.out 2>&1 &&
			grep -q 'MiB/s' /tmp/bench.out; then
		cat /tmp/bench.out
		pass "part5 cryptsetup benchmark:$(grep 'MiB/s' /tmp/bench.out | tail -n1 | tr -s ' ')"
	else
		cat /tmp/bench.out
		fail "part5 cryptsetup benchmark --cipher sm4-xts-plain64"
	fi
	part_end
}

# Phase 2: the volume formatted by the first boot, reopened after a
# reboot.  Nothing is loaded by hand: cryptsetup's requests make the
# kernel load dm-crypt and the SM4 modules (part 8 checks which).
part5_second_boot()
{
	part_begin 5 "second boot: reopen and verify"
	mkdir -p "$MNT"
	find_disks || fail "part5 second boot: test disks not found"
	if ! check "part5 second boot: cryptsetup open" luks_open; then
		part_end
		return 1
	fi
	modprobe ext4
	if check "part5 second boot: mount" \
			mount -t ext4 "/dev/mapper/$MAPNAME" "$MNT"; then
		verify_files "part5 second boot:"
	fi
	part_end
}

# --- part 10 --------------------------------------------------------------

# fscrypt_impl MODE-NAME: the implementation fscrypt logged for its mode
# (it logs 'fscrypt: SM4-XTS using implementation "xts-sm4-ce"' when it
# first uses a mode).
fscrypt_impl()
{
	dmesg | sed -n "s/.*fscrypt: $1 using implementation \"\([^\"]*\)\".*/\1/p" |
		tail -n1
}

fs_mount()
{
	mkdir -p "$FSMNT"
	grep -q " $FSMNT " /proc/mounts || mount -t ext4 "$FSDISK" "$FSMNT"
}

fs_umount()
{
	! grep -q " $FSMNT " /proc/mounts || umount "$FSMNT"
}

# fs_verify TAG: the plaintext tree under $FSMNT/enc is the host's.
fs_verify()
{
	local tag=$1 n

	n=$(wc -l <"$FSDATA.sha256")
	if (cd "$FSMNT/enc" && sha256sum -c "$FSDATA.sha256") >/tmp/fsverify.out 2>&1; then
		pass "$tag all $n files in the encrypted directory match their SHA-256"
	else
		grep -v ': OK$' /tmp/fsverify.out | head -n 20
		fail "$tag files in the encrypted directory differ from their SHA-256"
	fi
}

# fscrypt_raw_report KEYID: for the host's check of the fscrypt disk
# image (run-guest.sh, fscrypt_raw_check), with the key present: the key
# identifier; a file whose plaintext the host knows (the first
# FSCRYPT_RAW_SIZE bytes of the vectors), with its nonce, the file
# system's block size and where its blocks are on the disk; the nonce
# and plaintext names of enc/ and of each directory in it, by inode
# number.  RAW-FSCRYPT lines; a step that fails is a FAIL here.
FSCRYPT_RAW_SIZE=13000
fscrypt_raw_report()
{
	local f="$FSMNT/enc/sm4-raw-check" n line

	if ! head -c "$FSCRYPT_RAW_SIZE" "$VECTORS" >"$f" || ! sync ||
			! n=$("$FSCRYPT" nonce "$f" 2>&1) ||
			! "$FSCRYPT" extents "$f" >/tmp/fs.ext 2>&1; then
		fail "part10 raw: writing ${f#"$FSMNT"/} or reading its nonce and extents: $n $(tail -n 1 /tmp/fs.ext 2>/dev/null)"
		return
	fi
	raw_report "FSCRYPT key $1"
	raw_report "FSCRYPT file $FSCRYPT_RAW_SIZE $n"
	while read -r line; do
		raw_report "FSCRYPT $line"
	done </tmp/fs.ext
	fscrypt_raw_names name
}

# fscrypt_raw_nokey: the key removed, the names enc/ and its directories
# list (fscrypt's no-key names: base64url of the dirhash and the
# ciphertext), by inode number, for the host to match with the ciphertext
# of the plaintext names.
fscrypt_raw_nokey()
{
	fscrypt_raw_names nokey
}

# fscrypt_raw_names KIND: "FSCRYPT KIND INO NAME" for every name of enc/
# and of each directory in it (INO: the directory's inode number); with
# the key (KIND name) each directory's "FSCRYPT dir INO NONCE" first.
fscrypt_raw_names()
{
	local d ino n

	for d in "$FSMNT/enc" $(find "$FSMNT/enc" -mindepth 1 -maxdepth 1 -type d); do
		ino=$(stat -c %i "$d")
		if [ "$1" = name ]; then
			if ! n=$("$FSCRYPT" nonce "$d" 2>&1); then
				fail "part10 raw: nonce of ${d#"$FSMNT"/}: $n"
				continue
			fi
			raw_report "FSCRYPT dir $ino $n"
		fi
		ls -A "$d" | while IFS= read -r n; do
			raw_report "FSCRYPT $1 $ino $n"
		done
	done
}

part10()
{
	local keyid out xts cts n want

	part_begin 10 "fscrypt SM4-XTS contents, SM4-CTS filenames"
	modprobe -a ext4 algif_skcipher
	if ! find_disks; then
		fail "part10 test disk (virtio serial sm4fs) not found"
		part_end
		return
	fi
	if ! check "part10 mkfs.ext4 -O encrypt" mkfs.ext4 -q -F -O encrypt "$FSDISK" ||
			! check "part10 mount" fs_mount; then
		part_end
		return
	fi
	mkdir -p "$FSMNT/enc"
	if ! keyid=$("$FSCRYPT" add-key "$FSMNT" "$FSCRYPT_KEY" 2>/tmp/fs.err); then
		cat /tmp/fs.err
		fail "part10 FS_IOC_ADD_ENCRYPTION_KEY"
		part_end
		return
	fi
	pass "part10 key added, identifier $keyid"
	kp_arm part10
	if ! out=$("$FSCRYPT" set-policy "$FSMNT/enc" "$keyid" 2>&1); then
		# A kernel whose fscrypt has no SM4 modes refuses them with
		# EINVAL and takes AES-256-XTS/-CTS (modes 1 and 4) on the
		# same file system.
		mkdir -p "$FSMNT/probe"
		if echo "$out" | grep -q 'Invalid argument' &&
				"$FSCRYPT" set-policy "$FSMNT/probe" "$keyid" 1 4 >/dev/null 2>&1; then
			skip "part10 fscrypt with SM4" "this kernel's fscrypt has no SM4 modes (policy 7/8: $out; AES 1/4 accepted)"
			echo "$out" >"$FSMNT/sm4-skipped"
		else
			fail "part10 v2 policy SM4-XTS (7) / SM4-CTS (8) refused: $out"
		fi
		kp_disarm
		fs_umount
		part_end
		return
	fi
	out=$("$FSCRYPT" get-policy "$FSMNT/enc" 2>&1)
	if [ "$out" = "v2 contents=7 filenames=8 flags=0x03 $keyid" ]; then
		pass "part10 policy on enc/: $out"
	else
		fail "part10 policy on enc/ reads back as '$out'"
	fi
	cp -a "$FSDATA/." "$FSMNT/enc/" && sync
	fs_verify "part10 with the key:"
	# Listing decrypts the names (lookups above only encrypt them).
	if ls -R "$FSMNT/enc" >/tmp/fs.ls 2>&1 && [ -s /tmp/fs.ls ]; then
		pass "part10 with the key: enc/ lists ($(wc -l </tmp/fs.ls) lines)"
	else
		fail "part10 with the key: listing enc/ failed: $(head -n 3 /tmp/fs.ls)"
	fi
	fscrypt_raw_report "$keyid"
	xts=$(fscrypt_impl SM4-XTS)
	cts=$(fscrypt_impl SM4-CBC-CTS)
	if [ -n "$xts" ] && [ "$xts" = "$(best_driver "xts(sm4)" | cut -d' ' -f1)" ]; then
		pass "part10 fscrypt SM4-XTS uses $xts (module $(module_of "$xts")), the best xts(sm4)"
	else
		fail "part10 fscrypt SM4-XTS uses '${xts:-?}', expected $(best_driver "xts(sm4)")"
	fi
	# The best cbc(sm4) driver's own cts-cbc-sm4-<name> (shared glue),
	# or the cts template over it where the driver has none.
	want=$(best_driver "cbc(sm4)" | cut -d' ' -f1)
	if crypto_table | awk -v d="cts-$want" '$2 == d { f = 1 } END { exit !f }'; then
		want=cts-$want
	else
		want="cts($want)"
	fi
	if [ -n "$cts" ] && [ "$cts" = "$want" ]; then
		pass "part10 fscrypt SM4-CBC-CTS uses $cts, the cts(cbc(sm4)) of the best cbc(sm4) driver"
	else
		fail "part10 fscrypt SM4-CBC-CTS uses '${cts:-?}', expected $want"
	fi
	# fscrypt takes only synchronous algorithms (from 6.17): it did take
	# them, and /proc/crypto says so.
	n=$(crypto_table | awk -v x="$xts" -v c="$cts" '($2 == x || $2 == c) && $7 == "no"' | wc -l)
	if [ "$n" = 2 ]; then
		pass "part10 both fscrypt transforms are synchronous (async: no)"
	else
		fail "part10 fscrypt transforms: $n of 2 are synchronous"
	fi
	expect_served part10 "xts(sm4)" xts
	expect_served part10 "cbc(sm4)" cbc_enc cbc_dec
	kp_disarm
	if check "part10 FS_IOC_REMOVE_ENCRYPTION_KEY" \
			"$FSCRYPT" remove-key "$FSMNT" "$keyid"; then
		out=$("$FSCRYPT" key-status "$FSMNT" "$keyid" 2>&1)
		if [ "$out" = absent ]; then
			pass "part10 key status after removal: absent"
		else
			fail "part10 key status after removal: $out"
		fi
	fi
	fscrypt_raw_nokey
	# Without the key: no plaintext name, no readable content.
	n=0
	for f in $(cd "$FSDATA" && ls); do
		[ -e "$FSMNT/enc/$f" ] && n=$((n + 1))
	done
	out=$(ls "$FSMNT/enc" | head -n 1)
	if [ $n -eq 0 ] && [ -n "$out" ] && ! ls "$FSMNT/enc" | grep -q sm4name; then
		pass "part10 without the key: no plaintext name in enc/ (e.g. '$out')"
	else
		fail "part10 without the key: $n plaintext names still visible in enc/"
	fi
	out=$(find "$FSMNT/enc" -type f -size +0 | head -n 1)
	if [ -z "$out" ]; then
		fail "part10 without the key: no non-empty file found in enc/"
	elif head -c 1 "$out" >/dev/null 2>/tmp/fs.err; then
		fail "part10 without the key: $out is readable"
	else
		pass "part10 without the key: reading ${out#"$FSMNT"/} fails ($(sed 's/.*: //' /tmp/fs.err | head -n1))"
	fi
	check "part10 umount" fs_umount
	n=$(grep -c -a "sm4name\|SM4-FSCRYPT-PLAINTEXT" "$FSDISK")
	if [ "$n" = 0 ]; then
		pass "part10 raw disk: no plaintext marker (names or contents)"
	else
		fail "part10 raw disk: $n lines with plaintext markers"
	fi
	part_end
}

part10_second_boot()
{
	local keyid out n

	part_begin 10 "fscrypt after a reboot"
	modprobe ext4
	if ! find_disks || ! check "part10 second boot: mount" fs_mount; then
		fail "part10 second boot: no fscrypt disk to mount"
		part_end
		return
	fi
	if [ -e "$FSMNT/sm4-skipped" ]; then
		skip "part10 second boot" "the first boot found no SM4 in this kernel's fscrypt"
		fs_umount
		part_end
		return
	fi
	n=0
	for f in $(cd "$FSDATA" && ls); do
		[ -e "$FSMNT/enc/$f" ] && n=$((n + 1))
	done
	if [ $n -eq 0 ]; then
		pass "part10 second boot: names unreadable before the key is added"
	else
		fail "part10 second boot: $n plaintext names visible without the key"
	fi
	if ! keyid=$("$FSCRYPT" add-key "$FSMNT" "$FSCRYPT_KEY" 2>/tmp/fs.err); then
		cat /tmp/fs.err
		fail "part10 second boot: FS_IOC_ADD_ENCRYPTION_KEY"
	else
		out=$("$FSCRYPT" key-status "$FSMNT" "$keyid" 2>&1)
		[ "$out" = present ] && pass "part10 second boot: key $keyid present" ||
			fail "part10 second boot: key status '$out'"
		fs_verify "part10 second boot:"
		"$FSCRYPT" remove-key "$FSMNT" "$keyid"
	fi
	check "part10 second boot: umount" fs_umount
	part_end
}

# --- part 6 ---------------------------------------------------------------

part6()
{
	part_begin 6 "AF_ALG stress, $STRESS_WORKERS workers"
	modprobe algif_skcipher
	afalg part6 stress --workers "$STRESS_WORKERS" --seconds "$STRESS_SECONDS"
	part_end
}

# --- part 7 ---------------------------------------------------------------

# try_rmmod_busy TAG MOD: rmmod must be refused and leave MOD loaded.
try_rmmod_busy()
{
	local tag=$1 m=$2 out

	if out=$(rmmod "$m" 2>&1); then
		fail "$tag rmmod $m succeeded while in use"
		return
	fi
	echo "  | $out"
	if is_loaded "$m" && echo "$out" | grep -qiE 'in use|temporarily unavailable'; then
		pass "$tag rmmod $m refused while in use"
	else
		fail "$tag rmmod $m failed oddly: $out"
	fi
}

part7()
{
	local tag=part7 mapped=0 best m mods rev held

	part_begin 7 "rmmod and reload"
	modprobe -a dm_mod dm_crypt ext4
	mkdir -p "$MNT"
	if want_part 5 && find_disks && luks_open; then
		mapped=1
		mount -t ext4 "/dev/mapper/$MAPNAME" "$MNT"
	fi
	best=$(best_driver "xts(sm4)")
	echo "xts(sm4) is served by: $best"
	if [ $mapped = 1 ]; then
		m=${best#* }
		# A template instance (e.g. xts(sm4-generic)) pins sm4_generic.
		case $m in
		sm4_*|sm4) ;;
		*) m=sm4_generic ;;
		esac
		try_rmmod_busy "$tag (dm-crypt mapping open)" "$m"
		[ "$m" != sm4_generic ] &&
			try_rmmod_busy "$tag (dm-crypt mapping open)" sm4_generic
		verify_files "$tag mapping still works after the refused rmmod:"
		check "$tag close the mapping" luks_close
	elif want_part 5; then
		fail "$tag could not open the LUKS volume for the in-use test"
	fi
	# Library and generic module are pinned by their users.
	for m in $LOADED; do
		case $m in
		sm4|sm4_generic) ;;
		*) try_rmmod_busy "$tag ($m loaded)" sm4_generic; break ;;
		esac
	done
	try_rmmod_busy "$tag (sm4_generic loaded)" sm4

	# Unload everything in reverse order of loading, each module once no
	# other module uses it (sm4-ce-ccm and sm4-ce-gcm use sm4-ce's
	# exports, and modprobe loads sm4-ce for them first); whatever is
	# still held when nothing more can go is tried anyway (and fails).
	rev=
	for m in $LOADED; do
		rev="$m $rev"
	done
	while [ -n "$rev" ]; do
		held=
		for m in $rev; do
			if [ -n "$(ls "/sys/module/$m/holders" 2>/dev/null)" ]; then
				held="$held $m"
			else
				check "$tag rmmod $m" rmmod "$m"
			fi
		done
		if [ "$held" = " $(echo $rev)" ]; then
			for m in $held; do
				check "$tag rmmod $m" rmmod "$m"
			done
			break
		fi
		rev=$held
	done
	mods=$(crypto_table | awk '$3 ~ /^sm4/ { print $2 }' | tr '\n' ' ')
	if [ -z "$mods" ]; then
		pass "$tag no SM4 algorithm left in /proc/crypto after unloading"
	else
		fail "$tag algorithms left after unloading: $mods"
	fi

	# Reload and check again.
	load_project_modules "$tag reload:"
	check_proc_crypto "$tag reload:"
	check_resolution "$tag reload:"
	run_tcrypt "$tag reload:"
	if [ $mapped = 1 ]; then
		if check "$tag reopen after reload" luks_open &&
				check "$tag mount after reload" \
				mount -t ext4 "/dev/mapper/$MAPNAME" "$MNT"; then
			verify_files "$tag after reload:"
		fi
		luks_close
	fi
	part_end
}

# --- part 8 ---------------------------------------------------------------

# Phase 2, after part5_second_boot: which modules the kernel loaded on
# its own, and whether the best driver for this CPU serves xts(sm4).
# alg_refcnt DRIVER: the reference count /proc/crypto gives DRIVER.
alg_refcnt()
{
	awk -v d="$1" '$1 == "driver" { cur = $3 }
		$1 == "refcnt" && cur == d { print $3; exit }' /proc/crypto
}

part8()
{
	local best m want wprio d prio rc_open rc_closed

	part_begin 8 "autoload through crypto API requests"
	if is_loaded sm4_generic || is_loaded sm4; then
		pass "part8 sm4 modules were loaded on demand: $(lsmod | awk '$1 ~ /^sm4/ { printf "%s ", $1 }')"
	else
		fail "part8 no sm4 module was autoloaded"
	fi
	best=$(best_driver "xts(sm4)")
	# The best xts(sm4) driver this CPU can run among the project's
	# drivers: the highest priority among the arch drivers that loaded
	# (nothing was loaded by hand, so the kernel's own requests made
	# this list).
	want=
	wprio=-1
	crypto_table >/tmp/crypto.tab
	while read -r name d m prio rest; do
		[ "$name" = "xts(sm4)" ] || continue
		if [ "$prio" -gt "$wprio" ]; then
			want=$d
			wprio=$prio
		fi
	done </tmp/crypto.tab
	# Every arch driver the CPU supports must have been loaded (the
	# AEAD modules only load on ccm(sm4)/gcm(sm4) requests).
	for m in $(project_modules); do
		case $m in
		sm4|sm4_generic|sm4-ce-cipher|sm4-ce-ccm|sm4-ce-gcm) continue ;;
		esac
		# shellcheck disable=SC2046
		if cpu_has $(driver_needs "$m"); then
			if is_loaded "$m"; then
				pass "part8 $m was autoloaded"
			else
				fail "part8 $m supported by the CPU but not autoloaded"
			fi
		fi
	done
	if [ -n "$best" ] && [ "${best%% *}" = "$want" ]; then
		pass "part8 xts(sm4) is served by ${best%% *} (module ${best#* })"
	else
		fail "part8 xts(sm4) served by '${best:-nothing}', expected '$want'"
	fi
	# That the mapping uses it: the algorithm's own reference count in
	# /proc/crypto (1 for its registration, one per transform), which
	# must drop when the mapping closes (a module's refcnt would not do:
	# sm4_generic's holds anyway, every driver module depends on it).
	rc_open=$(alg_refcnt "$want")
	check "part8 close the mapping" luks_close
	rc_closed=$(alg_refcnt "$want")
	if [ "${rc_open:-0}" -ge 2 ] && [ "${rc_closed:-0}" -lt "$rc_open" ]; then
		pass "part8 the open mapping held a transform of $want (its refcnt $rc_open while open, $rc_closed once closed)"
	else
		fail "part8 the open mapping did not hold a transform of $want (its refcnt '${rc_open}' while open, '${rc_closed}' once closed)"
	fi
	part_end
}

# --- part 9 ---------------------------------------------------------------

# impl_of DRIVER: the implementation part of a driver name, as
# tools/tcrypt-table.py names it: xts-sm4-ce -> sm4-ce,
# xts(sm4-generic) -> sm4-generic.
impl_of()
{
	echo "$1" | grep -o 'sm4-[A-Za-z0-9_-]*' | head -n1
}

# tcrypt_speed TAG MODES CMD...: one tcrypt speed run.  The kernel
# messages go to the verdict channel as "TCRYPT TAG: <line>", preceded by
# "TCRYPT-EXPECT: TAG IMPL MODES": the host checks with
# tools/tcrypt-table.py that every mode of MODES printed a result at every
# size, from IMPL (the driver the crypto API hands out here).
tcrypt_speed()
{
	local tag=$1 modes=$2 n

	shift 2
	if ! tcrypt_run part9 "$tag ($*)" "$@"; then
		cat /tmp/tcrypt.log
		return 1
	fi
	n=$(grep -c 'operation.* in ' /tmp/tcrypt.log)
	if grep -q 'failed to load transform' /tmp/tcrypt.log; then
		grep 'failed to load transform' /tmp/tcrypt.log
		fail "part9 $tag: a transform failed to load"
	elif [ "$n" -gt 0 ]; then
		pass "part9 $tag: $n speed results (the host checks them)"
	else
		cat /tmp/tcrypt.log
		fail "part9 $tag: no speed result in the kernel log"
	fi
	echo "TCRYPT-EXPECT: $tag $TCRYPT_IMPL $modes" >>"$VERDICT"
	sed "s/^/TCRYPT $tag: /" /tmp/tcrypt.log >>"$VERDICT"
}

part9()
{
	local drv

	part_begin 9 "tcrypt speed modes 218/518, sec=$TCRYPT_SEC"
	modprobe algif_skcipher
	drv=$("$AFALG" resolve -q "xts(sm4)" 2>/dev/null | head -n1)
	TCRYPT_IMPL=$(impl_of "$drv")
	if [ -n "$TCRYPT_IMPL" ]; then
		pass "part9 xts(sm4) is served by $drv: speed results must come from $TCRYPT_IMPL"
	else
		fail "part9 cannot tell which driver serves xts(sm4) ('$drv')"
		TCRYPT_IMPL=sm4-unknown
	fi
	# The distribution's tcrypt.ko measures the SM4 modes whose names it
	# holds (the host read them from the module: ECB/CBC/CFB/CTR on 6.1,
	# no CFB once the cfb template is gone), the patched one all six;
	# sec=0 runs count cycles (fast under TCG), sec=N runs each test N
	# seconds.
	tcrypt_speed distro-218 "$DISTRO_TCRYPT_MODES" \
		modprobe tcrypt mode=218 sec="$TCRYPT_SEC"
	tcrypt_speed distro-518 "$DISTRO_TCRYPT_MODES" \
		modprobe tcrypt mode=518 sec="$TCRYPT_SEC"
	if [ -e "$TCRYPT_KO" ]; then
		tcrypt_speed sm4_tcrypt-218 ecb,cbc,cfb,ctr,cts,xts \
			insmod "$TCRYPT_KO" mode=218 sec="$TCRYPT_SEC"
		tcrypt_speed sm4_tcrypt-518 ecb,cbc,cfb,ctr,cts,xts \
			insmod "$TCRYPT_KO" mode=518 sec="$TCRYPT_SEC"
	else
		fail "part9 $TCRYPT_KO missing (tools/build-tcrypt.sh failed on the host)"
	fi
	part_end
}

# --- main -----------------------------------------------------------------

# tests/guest/demo.sh sources this file for its helper functions.
[ "${SM4_SUITE_LIB:-0}" = 1 ] && return 0
[ -e /part-net.sh ] && . /part-net.sh

SUITE_T0=$(uptime_s)
# Parts kept in files of their own (tests/guest/part-*.sh).
for f in /part-faults.sh /part-debug.sh; do
	[ -e "$f" ] && . "$f"
done
TAINT0=$(cat /proc/sys/kernel/tainted)
say "TIME: $ARCH boot $PHASE: kernel start to /init ${INIT_UPTIME:-?} s"
echo "CPU: $(grep -m1 -E '^(flags|Features)' /proc/cpuinfo)"
if [ "$PHASE" = 1 ]; then
	FSCRYPT_DONE=0
	if want_part 11; then
		. /part-distro-sm4.sh
		part11
	fi
	if [ -e "$RESTRICT" ]; then
		part0
	else
		skip "part0 AF_ALG allowlist" "this kernel has no $RESTRICT (added in Linux 7.3)"
	fi
	want_part fuzz && part_fuzz
	want_part 1 && part1
	if ! want_part 1; then
		# Later parts need the modules all the same.
		load_project_modules setup >/dev/null
	fi
	want_part 2 && part2
	want_part 3 && part3
	want_part 4 && part4
	want_part busy && part_busy
	want_part nocpu && part_nocpu
	want_part 5 && part5
	want_part 10 && [ $FSCRYPT_DONE = 0 ] && part10
	want_part 6 && part6
	want_part 7 && part7
	want_part 5 && luks_raw_regions
	want_part 9 && part9
	want_part 12 && part12
else
	if want_part 5 || want_part 8 || want_part 10; then
		lsmod | grep -q '^sm4' &&
			fail "part8 sm4 modules loaded before anything asked for them"
	fi
	if want_part 5 || want_part 8; then
		part5_second_boot
		want_part 8 && part8
		luks_close
	fi
	want_part 10 && part10_second_boot
fi
# kmemleak_check: where the kernel has kmemleak (the debug kernel), scan
# after the runs: a suspected leak whose backtrace is in one of this
# project's modules (or a test module) fails.  Two scans apart (an object
# is reported once unreferenced for two, and older than 5 s).
kmemleak_check()
{
	local f=/sys/kernel/debug/kmemleak all ours

	[ -e "$f" ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	[ -e "$f" ] || return 0
	# No "clear": it would hide what kmemleak's own periodic scan found.
	echo scan >"$f" && sleep 6 && echo scan >"$f" ||
		{ fail "phase $PHASE: kmemleak: the scan could not run"; return; }
	cat "$f" >/tmp/kmemleak.txt
	all=$(grep -c '^unreferenced object' /tmp/kmemleak.txt)
	# Blocks of the report whose backtrace names an sm4 module (a frame
	# "func+0x../0x.. [module]", with or without a "[<address>]" before
	# it: 6.12 prints none).
	ours=$(awk '/^unreferenced object/ { if (hit) n++; hit = 0 }
		/\+0x[0-9a-f]+\/0x[0-9a-f]+ \[sm4[a-z0-9_]*\]/ { hit = 1 }
		END { if (hit) n++; print n + 0 }' /tmp/kmemleak.txt)
	if [ "$ours" -eq 0 ]; then
		# What the others are, for whoever reads the console.
		[ "$all" -eq 0 ] || head -n 20 /tmp/kmemleak.txt | sed 's/^/  kmemleak | /'
		pass "phase $PHASE: kmemleak scanned after the runs: no leak of this project's modules ($all suspected elsewhere)"
	else
		awk '/^unreferenced object/ { blk = $0; next } { blk = blk "\n" $0 }
			/\[sm4[a-z0-9_]*\]/ && !shown[blk]++ { print blk; exit }' /tmp/kmemleak.txt |
			sed 's/^/  | /'
		fail "phase $PHASE: kmemleak: $ours leak(s) allocated in this project's modules: $(grep -o '[a-z0-9_]*+0x[0-9a-f]*/0x[0-9a-f]* \[sm4[a-z0-9_]*\]' /tmp/kmemleak.txt | head -n 1)"
	fi
}
kmemleak_check

# Taint: loading this project's modules may add O (out-of-tree, 4096)
# and E (unsigned, 8192); any other new flag (W: a warning, D: an oops,
# ...) means the kernel complained.
TAINT1=$(cat /proc/sys/kernel/tainted)
if [ $(( (TAINT1 & ~TAINT0) & ~(4096 | 8192) )) -eq 0 ]; then
	pass "phase $PHASE: no new taint flag but O/E ($TAINT0 -> $TAINT1)"
else
	fail "phase $PHASE: kernel tainted $TAINT0 -> $TAINT1 (new flags $(( (TAINT1 & ~TAINT0) & ~(4096 | 8192) )))"
fi
# Anything the kernel complained about (the host scans the console too).
if dmesg | grep -qE 'WARNING:|BUG:|Oops|Call Trace:|kernel BUG|UBSAN:'; then
	dmesg | grep -E -A5 'WARNING:|BUG:|Oops|Call Trace:|kernel BUG|UBSAN:' | head -n 40
	fail "phase $PHASE: kernel log has a WARNING/BUG/Oops/UBSAN report"
fi
say "TIME: $ARCH phase $PHASE suite total $(elapsed "$SUITE_T0") s"
say "SUMMARY: $ARCH phase $PHASE passed=$PASSED failed=$FAILED skipped=$SKIPPED"
exit "$FAILED"
