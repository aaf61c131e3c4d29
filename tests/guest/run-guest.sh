#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-guest.sh --arch x86_64|arm64 [options]
#
# The in-kernel test run for one architecture on Debian's kernel: builds
# the modules (cross-built for arm64) and the guest test tools, packs an
# initramfs (Debian 12 userland, the needed distro modules, ours under
# /lib/modules/KVER/updates), boots Debian's kernel image in QEMU (TCG),
# runs tests/guest/suite.sh, then boots a second time on the same disk to
# check that the dm-crypt volume survived.  Prints one PASS:/FAIL: line per
# check and TIME: lines for every step.  Part 9's tcrypt speed results
# are checked here with tools/tcrypt-table.py and printed as tables.
#
# --demo boots once with tests/guest/demo.sh instead of the suite and
# prints its human-readable report (what tools/demo runs).
#
# Options:
#   --cpu MODEL          QEMU CPU model (default max)
#   --cases N            test-vector cases per mode for part 3 (10000)
#   --parts LIST         parts to run, e.g. 1,2,5 (default 1,...,11; see
#                        tests/guest/suite.sh; 11, the simulated
#                        "distribution with SM4", also installs upstream's
#                        own SM4 modules in kernel/, built here by
#                        tests/lib/build-upstream-sm4.sh; 12, kernel TLS and
#                        IPsec, tests/guest/part-net.sh)
#   --with-broken        also load tests/guest/kmod's sm4_broken_test.ko;
#                        the run must then fail
#   --broken-args ARGS   module parameters for it (e.g. corrupt_from=1)
#   --silent-fallback    build the modules with -DSM4_TEST_SILENT_FALLBACK
#                        (crypto/sm4_core.c: every request and setkey of a
#                        SIMD driver, in every family, in the portable C
#                        code, results correct); the run must then fail
#                        the entry counts
#   --fallback-from N    with --silent-fallback: only requests of at least
#                        N bytes (e.g. 4097: the long requests of part 3)
#   --suite SUITE        Debian suite whose kernel boots: bookworm (6.1),
#                        trixie (6.12), sid (newest); default: this host's.
#                        Modules are built with that suite's compiler (in
#                        its chroot, tests/lib/make-chroot.sh, unless it is
#                        the host's suite)
#   --kver KVER          Debian kernel ABI, host suite only (default: the
#                        installed linux-headers-amd64)
#   --modules-dir DIR    boot this project's modules from DIR (*.ko or
#                        *.ko.xz, e.g. what DKMS installed) instead of the
#                        ones built here, installed as updates/dkms; every
#                        file's vermagic must be the booted kernel's (the
#                        test modules and tcrypt are still built here)
#   --seed N             seed of the test vectors (default: random)
#   --stress-seconds N   duration of part 6 (20)
#   --tcrypt-sec N       tcrypt speed runs (part 9, demo): sec=N
#                        (default 0: cycle counts, fast under TCG)
#   --demo               the demo instead of the suite (see tools/demo)
#   --timeout N          hard timeout of the first boot in seconds (1500)
#   --debug-kernel       boot the debug kernel (tests/lib/build-debug-kernel.sh:
#                        the suite's own kernel source, trixie's 6.12 or
#                        sid's, with the self-test fuzzer, KASAN,
#                        lockdep; x86_64) with the modules built
#                        against it; no panic_on_warn (the console check
#                        reports warnings); part "fuzz" needs it
#   --fuzz-iterations N  cryptomgr.fuzz_iterations=N (debug kernel)
#   --cross-cases N      cases per mode of part 3's sm4-afalg cross
#                        (default: its own, 2000)
#   --cfb-fuzz N         random messages per cfb(sm4) driver of
#                        tests/guest/kmod's sm4_cfb_fuzz.ko (part 3; part
#                        fuzz on the debug kernel; default 200, with
#                        part fuzz the fuzz iterations)
#   --append ARGS        more kernel command-line arguments (e.g. noxsave)
#   --reuse-modules DIR  take the modules DIR/modules of an earlier run
#                        (its work directory) instead of building them
#   --verbose            copy the guest console to stdout
#
# Exit status: 0 every check passed; 1 some check failed; 2 the run could
# not be set up (build failure, missing tool for --with-broken, ...).

set -uo pipefail
. "$(dirname "$0")/../lib/common.sh"

ARCH=
CPU=max
CASES=10000
PARTS=1,2,3,4,5,6,7,8,9,10,11,12
BROKEN=0
FALLBACK=0
FALLBACK_FROM=
BROKEN_ARGS=
KVER=
SUITE=
MODULES_DIR=
SEED=
STRESS_SECONDS=20
STRESS_WORKERS=4
TCRYPT_SEC=0
DEMO=0
TIMEOUT=1500
TIMEOUT2=600
VERBOSE=0
DEBUG_KERNEL=0
FUZZ_ITERATIONS=
CROSS_CASES=
CFB_FUZZ=
APPEND=
REUSE=

# usage [STATUS]: the header above as help; exit STATUS (2: a usage error).
usage()
{
	awk 'NR >= 4 && !/^#/ { exit } NR >= 4' "$0" | sed 's/^# \{0,1\}//' >&2
	exit "${1:-2}"
}

while [ $# -gt 0 ]; do
	case $1 in
	--arch) ARCH=$2; shift 2 ;;
	--cpu) CPU=$2; shift 2 ;;
	--cases) CASES=$2; shift 2 ;;
	--parts) PARTS=$2; shift 2 ;;
	--with-broken) BROKEN=1; shift ;;
	--silent-fallback) FALLBACK=1; shift ;;
	--fallback-from) FALLBACK_FROM=$2; shift 2 ;;
	--broken-args) BROKEN_ARGS=$2; shift 2 ;;
	--kver) KVER=$2; shift 2 ;;
	--suite) SUITE=$2; shift 2 ;;
	--modules-dir) MODULES_DIR=$2; shift 2 ;;
	--seed) SEED=$2; shift 2 ;;
	--stress-seconds) STRESS_SECONDS=$2; shift 2 ;;
	--tcrypt-sec) TCRYPT_SEC=$2; shift 2 ;;
	--demo) DEMO=1; shift ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--verbose) VERBOSE=1; shift ;;
	--debug-kernel) DEBUG_KERNEL=1; shift ;;
	--fuzz-iterations) FUZZ_ITERATIONS=$2; shift 2 ;;
	--cross-cases) CROSS_CASES=$2; shift 2 ;;
	--cfb-fuzz) CFB_FUZZ=$2; shift 2 ;;
	--append) APPEND=$2; shift 2 ;;
	--reuse-modules) REUSE=$2; shift 2 ;;
	-h|--help) usage 0 ;;
	*) echo "unknown option $1" >&2; usage ;;
	esac
done
case $ARCH in
x86_64|arm64) ;;
*) usage ;;
esac
[ $DEMO = 1 ] && PARTS=demo
if [ $DEMO = 0 ]; then
	for p in $(echo "$PARTS" | tr , ' '); do
		case $p in
		[1-9]|1[012]|busy|nocpu) ;;
		fuzz) [ $DEBUG_KERNEL = 1 ] ||
			{ echo "part fuzz needs --debug-kernel" >&2; exit 2; } ;;
		*) echo "unknown part '$p' in --parts $PARTS (parts are 1 to 12, busy, nocpu, fuzz)" >&2; exit 2 ;;
		esac
	done
fi
case ",$PARTS," in
*,8,*)
	# Part 8 runs on the volume part 5 formats.
	case ",$PARTS," in
	*,5,*) ;;
	*) PARTS="$PARTS,5" ;;
	esac
	;;
esac
[ -n "$SUITE" ] || SUITE=$(host_suite)
[ -n "$SEED" ] || SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
FLAVOUR=$(kernel_flavour "$ARCH")
WORK="$REPO_ROOT/build/guest/$SUITE-$ARCH-$(echo "$CPU" | tr -c 'A-Za-z0-9_.\n-' _)"
[ $BROKEN = 1 ] && WORK="$WORK-broken"
[ $FALLBACK = 1 ] && WORK="$WORK-fallback"
[ $DEMO = 1 ] && WORK="$WORK-demo"
[ $DEBUG_KERNEL = 1 ] && WORK="$WORK-debug"
[ -n "$APPEND" ] && WORK="$WORK-$(echo "$APPEND" | tr -c 'A-Za-z0-9_.\n-' _)"
T_START=$(date +%s.%N)

# The demo prints for a person: no PASS/TIME protocol lines, and the
# host tools' chatter goes to a log file (see below).
N_PASS=0
N_FAIL=0
N_SKIP=0
pass()
{
	N_PASS=$((N_PASS + 1))
	if [ $DEMO = 1 ]; then
		echo "  $*"
	else
		echo "PASS: $ARCH $*"
	fi
}

fail()
{
	N_FAIL=$((N_FAIL + 1))
	if [ $DEMO = 1 ]; then
		echo "  ERROR: $*"
	else
		echo "FAIL: $ARCH $*"
	fi
}

HOSTLOG=
# Setup failures end the run with status 2.
setup_fail()
{
	if [ $DEMO = 1 ]; then
		echo "error: $*"
		if [ -n "$HOSTLOG" ] && [ -s "$HOSTLOG" ]; then
			echo "last lines of $HOSTLOG:"
			tail -n 15 "$HOSTLOG" | sed 's/^/  | /'
		fi
		exit 2
	fi
	echo "FAIL: $ARCH $*"
	echo "SUMMARY: $ARCH could not be set up"
	exit 2
}

since()
{
	awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'
}

T_STEP=
# quiet_pass: a check the demo does not mention when it passes.
quiet_pass()
{
	if [ $DEMO = 1 ]; then
		N_PASS=$((N_PASS + 1))
	else
		pass "$@"
	fi
}

step()
{
	T_STEP=$(date +%s.%N)
	log "$ARCH: $*"
	if [ $DEMO = 1 ]; then
		echo "- $*"
	fi
}

step_done()
{
	if [ $DEMO = 1 ]; then
		echo "  ($(since "$T_STEP") s)"
	else
		echo "TIME: $ARCH host $* $(since "$T_STEP") s"
	fi
}

want_part()
{
	case ",$PARTS," in
	*",$1,"*) return 0 ;;
	esac
	return 1
}

case $ARCH in
x86_64)
	QEMU=qemu-system-x86_64
	QEMU_PKG=qemu-system-x86
	CONSOLE=ttyS0
	VERDICT_DEV=/dev/ttyS1
	;;
arm64)
	QEMU=qemu-system-aarch64
	QEMU_PKG=qemu-system-arm
	CONSOLE=ttyAMA0
	VERDICT_DEV=/dev/hvc0
	;;
esac

rm -rf "$WORK"
mkdir -p "$WORK"
if [ $DEMO = 1 ]; then
	HOSTLOG="$WORK/host.log"
	exec 2>>"$HOSTLOG"
fi

ensure_pkgs "$QEMU_PKG" cpio kmod libgcrypt20-dev gcc python3
command -v "$QEMU" >/dev/null ||
	setup_fail "QEMU ($QEMU) not found: install the Debian package $QEMU_PKG"

if [ $DEMO = 1 ]; then
	echo "== Host: building the modules and the guest's initramfs"
	echo "  guest: $ARCH, Debian $SUITE kernel, $QEMU -cpu $CPU (TCG emulation)"
	echo "  work directory: $WORK"
fi

# --- host side: modules, kernel, tools, data ---------------------------------

# The modules first: the build (in the suite's chroot unless it is the
# host's suite) tells the kernel ABI whose image boots.  The patched
# tcrypt (tools/build-tcrypt.sh) comes from the same build: part 2 runs
# its mode=191, parts 7 and 9 and the demo its speed modes.
step "building modules"
BARGS=(--suite "$SUITE")
TCRYPT_KO=
if [ $DEMO = 1 ] || want_part 2 || want_part 9 || want_part 7; then
	BARGS+=(--tcrypt)
fi
if [ $DEMO = 0 ] && { [ -e "$REPO_ROOT/tests/guest/kmod/Kbuild" ] ||
		[ -e "$REPO_ROOT/tests/guest/kmod/Makefile" ]; }; then
	BARGS+=(--extra tests/guest/kmod)
fi
DBGK=
if [ $DEBUG_KERNEL = 1 ]; then
	case $SUITE in
	trixie|sid) ;;
	*) setup_fail "--debug-kernel is built from trixie's or sid's source: use --suite trixie or sid" ;;
	esac
	DBGK=$("$REPO_ROOT/tests/lib/build-debug-kernel.sh" "$ARCH" "$SUITE") ||
		setup_fail "build the debug kernel (tests/lib/build-debug-kernel.sh $ARCH $SUITE)"
	echo "INFO: $ARCH debug kernel $DBGK ($(cat "$DBGK/kernel.release"), cold build took $(cat "$DBGK/time") s)"
	# Its own tcrypt.ko is built in; the patched one is not made for it.
	b=()
	for a in "${BARGS[@]}"; do
		[ "$a" = --tcrypt ] || b+=("$a")
	done
	BARGS=("${b[@]}" --kdir "$DBGK/out")
fi
if [ -n "$REUSE" ]; then
	[ -e "$REUSE/modules/kernel.abi" ] || setup_fail "--reuse-modules $REUSE: no modules/kernel.abi there"
	if ! cp -a "$REUSE/modules" "$WORK/modules" ||
			! cp "$REUSE/modules.list" "$WORK/modules.list"; then
		setup_fail "--reuse-modules: cannot copy $REUSE/modules"
	fi
else
	[ $FALLBACK = 1 ] &&
		export SM4_MAKEFLAGS="${SM4_MAKEFLAGS:-} KCFLAGS=-DSM4_TEST_SILENT_FALLBACK${FALLBACK_FROM:+=$FALLBACK_FROM}"
	"$REPO_ROOT/tests/lib/build-modules.sh" "$ARCH" ${KVER:+"$(norm_kver "$KVER")"} \
		"$WORK/modules" "${BARGS[@]}" >"$WORK/modules.list" ||
		setup_fail "build modules for $SUITE (see $WORK/modules/build.log)"
fi
KVER=$(cat "$WORK/modules/kernel.abi")
KREL=$KVER-$FLAVOUR
[ -n "$DBGK" ] && KREL=$KVER
if [ -e "$WORK/modules/tcrypt/sm4_tcrypt.ko" ]; then
	TCRYPT_KO="$WORK/modules/tcrypt/sm4_tcrypt.ko"
fi
if [ $DEMO = 1 ]; then
	pass "built against $(readlink "$WORK/modules/kdir"): $(sed 's,.*/,,' "$WORK/modules.list" | paste -sd' ')"
else
	echo "INFO: $ARCH $SUITE kernel $KREL, cpu $CPU, parts $PARTS, $CASES cases/mode, seed $SEED, work dir $WORK"
	pass "modules built for $KREL: $(grep -c . "$WORK/modules.list") .ko files ($(tr '\n' ' ' <"$WORK/modules.list"))"
fi
if [ -n "$MODULES_DIR" ]; then
	[ -d "$MODULES_DIR" ] || setup_fail "--modules-dir $MODULES_DIR: no such directory"
	n=0
	for ko in "$MODULES_DIR"/*.ko "$MODULES_DIR"/*.ko.xz; do
		[ -e "$ko" ] || continue
		vm=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
		[ "$vm" = "$KREL" ] ||
			setup_fail "--modules-dir: $ko is for kernel '${vm:-?}', the guest boots $KREL"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || setup_fail "--modules-dir $MODULES_DIR holds no .ko or .ko.xz file"
	pass "--modules-dir: $n prebuilt modules for $KREL from $MODULES_DIR"
fi
step_done "build modules"

# Part 11: upstream's own SM4 modules for this kernel, built against the
# same headers (a cached build when the abi stage or an earlier run made
# it), to be installed where a distribution that enables SM4 has them.
UPSTREAM=
if want_part 11; then
	step "building upstream's SM4 modules (part 11)"
	UPSTREAM=$WORK/upstream
	"$REPO_ROOT/tests/lib/build-upstream-sm4.sh" "$(readlink -f "$WORK/modules/kdir")" \
		"$UPSTREAM" >"$WORK/upstream.log" 2>&1 ||
		setup_fail "build upstream's SM4 modules (tests/lib/build-upstream-sm4.sh; see $WORK/upstream.log)"
	pass "upstream's SM4 modules for part 11: $(cut -d' ' -f1 "$UPSTREAM/modules.list" | paste -sd' ') ($(head -n1 "$UPSTREAM/build.log" | grep -q '^upstream.*cached build' && echo cached || echo built))"
	step_done "build upstream modules"
fi

step "fetching Debian's kernel image $KREL ($SUITE)"
if [ -n "$DBGK" ]; then
	KROOT=$DBGK/mods
else
	KROOT=$("$REPO_ROOT/tests/lib/fetch-kernel.sh" "$ARCH" "$SUITE" "$KVER") ||
		setup_fail "fetch Debian kernel image $KREL from $SUITE"
fi
# A "make clean" in the checkout (kbuild deletes every *.ko below M=,
# .cache included) leaves the unpacked image without its modules:
# unpack it again.
if [ -z "$(find -L "$KROOT/lib/modules/$KREL/kernel" -name '*.ko*' -print -quit)" ]; then
	log "$ARCH: $KROOT has lost its modules, unpacking the image again"
	rm -f "$KROOT/.complete"
	KROOT=$("$REPO_ROOT/tests/lib/fetch-kernel.sh" "$ARCH" "$SUITE" "$KVER") ||
		setup_fail "fetch Debian kernel image $KREL from $SUITE"
fi
if [ -n "$DBGK" ]; then
	VMLINUZ=$DBGK/image
else
	VMLINUZ=$(. "$KROOT/kernel.env" && echo "$VMLINUZ")
fi
[ -f "$VMLINUZ" ] || setup_fail "no kernel image $VMLINUZ (from $KROOT/kernel.env)"
step_done "fetch kernel"

if [ $BROKEN = 1 ] && [ ! -e "$WORK/modules/extra/sm4_broken_test.ko" ]; then
	setup_fail "--with-broken: sm4_broken_test.ko was not built (tests/guest/kmod)"
fi

step "building guest tools"
AFALG_BIN=
FSCRYPT_BIN=
if "$REPO_ROOT/tests/guest/build-tools.sh" "$ARCH" "$WORK/tools" \
		>"$WORK/tools.log" 2>&1 && [ -x "$WORK/tools/sm4-afalg" ] &&
		[ -x "$WORK/tools/sm4-fscrypt" ]; then
	AFALG_BIN="$WORK/tools/sm4-afalg"
	FSCRYPT_BIN="$WORK/tools/sm4-fscrypt"
	quiet_pass "guest tools built (sm4-afalg, sm4-fscrypt)"
else
	tail -n 20 "$WORK/tools.log"
	fail "guest tools build (tests/guest/build-tools.sh, log $WORK/tools.log)"
fi
if [ $DEMO = 0 ]; then
	gcc -O2 -Wall -o "$WORK/gen-vectors" "$REPO_ROOT/tests/common/gen-vectors.c" \
		"$REPO_ROOT/tests/common/sm4-vectors.c" \
		"$REPO_ROOT/tests/common/sm4-mac-vectors.c" -lgcrypt ||
		setup_fail "build tests/common/gen-vectors"
	gcc -O2 -Wall -o "$WORK/dm-xts" "$REPO_ROOT/tests/guest/dm-xts.c" -lgcrypt ||
		setup_fail "build tests/guest/dm-xts"
	gcc -O2 -Wall -o "$WORK/fscrypt-oracle" \
		"$REPO_ROOT/tests/guest/fscrypt-oracle.c" -lgcrypt ||
		setup_fail "build tests/guest/fscrypt-oracle"
	"$WORK/gen-vectors" "$WORK/vectors.bin" "$CASES" "$SEED" >/dev/null ||
		setup_fail "generate test vectors"
fi
step_done "build tools and vectors"

step "making initramfs"
ROOTFS_CPIO=$("$REPO_ROOT/tests/lib/make-rootfs.sh" "$ARCH") ||
	setup_fail "guest userland (mmdebstrap)"

# Distro modules the suite needs (their dependencies are resolved
# below).  crc32c: ext4 asks for it; virtio_console: arm64's verdict
# channel; hmac, sha512: fscrypt's key derivation; gcm, ccm (their
# rfc4106/rfc4309 templates), algif_aead, algif_hash: gcm/ccm(sm4) and
# the SM4 MACs through AEAD and hash sockets.  A name this kernel
# has neither as a module nor built in (cfb is gone from 6.8, crc32c_intel
# became a library) is left out: the suite checks what it uses.
KMODS_WANTED="virtio_pci virtio_blk virtio_console virtio_rng dm_mod dm_crypt
	xts ecb cbc ctr cfb cts tcrypt af_alg algif_skcipher crypto_user ext4
	crc32c_generic crc32c hmac sha512_generic sha512 gcm ccm algif_aead
	algif_hash"
# Part 12: kernel TLS, IPsec ESP between namespaces (tests/guest/part-net.sh).
want_part 12 && KMODS_WANTED="$KMODS_WANTED algif_aead algif_hash cmac xcbc
	tls gcm ccm ghash_generic authenc
	seqiv echainiv drbg jitterentropy_rng esp4 xfrm_user veth"
# Part 3: sm4_glue_test.ko's references, the kernel's gcm, ccm and cmac
# templates over sm4-generic (gcm's GHASH: ghash-generic up to 6.x).
want_part 3 && KMODS_WANTED="$KMODS_WANTED gcm ccm cmac ghash_generic"
[ "$ARCH" = x86_64 ] && KMODS_WANTED="$KMODS_WANTED crc32c_intel"
# Part 11: what upstream's modules need from the kernel (crypto_simd,
# cryptd, ...; upstream's own SM4 modules come from $UPSTREAM), and the
# templates that serve what our sm4-ce does not register (cmac, xcbc,
# ccm's cbcmac).
if [ -n "$UPSTREAM" ]; then
	for ko in "$UPSTREAM"/modules/*.ko; do
		for m in $(modinfo -F depends "$ko" | tr , ' '); do
			grep -q "^$m " "$UPSTREAM/modules.list" ||
				KMODS_WANTED="$KMODS_WANTED $m"
		done
	done
	KMODS_WANTED="$KMODS_WANTED cmac xcbc ccm"
fi

if [ ! -e "$KROOT/lib/modules/$KREL/modules.dep" ]; then
	depmod -b "$KROOT" "$KREL" || setup_fail "depmod of the distro modules"
fi
STAGE="$WORK/stage"
MODS_STAGE="$STAGE/lib/modules/$KREL"
mkdir -p "$MODS_STAGE/updates" "$STAGE/opt/sm4/kmod" "$STAGE/etc" \
	"$STAGE/usr/local/bin" "$STAGE/opt/sm4/data" "$STAGE/opt/sm4/tcrypt"
for m in $KMODS_WANTED; do
	if ! deps=$(modprobe -d "$KROOT" -S "$KREL" -C /dev/null --show-depends "$m" 2>&1); then
		log "$ARCH: $KREL has no module $m ($deps)"
		continue
	fi
	for ko in $(echo "$deps" | awk '$1 == "insmod" { print $2 }'); do
		rel=${ko#"$(readlink -f "$KROOT/lib/modules/$KREL")"/}
		rel=${rel#"$KROOT"/lib/modules/"$KREL"/}
		mkdir -p "$MODS_STAGE/$(dirname "$rel")"
		cp "$ko" "$MODS_STAGE/$rel" ||
			setup_fail "distro module $m: cannot copy $ko"
	done
done
cp "$KROOT/lib/modules/$KREL"/modules.{order,builtin,builtin.modinfo} "$MODS_STAGE/"
# distro_module_text NAME OUT: the distribution's module NAME as staged
# (.ko, .ko.xz or .ko.zst), uncompressed into OUT; fails if it is not
# staged.
distro_module_text()
{
	local ko

	ko=$(find "$MODS_STAGE/kernel" -name "$1.ko*" | head -n1)
	[ -n "$ko" ] || return 1
	case $ko in
	*.xz) xz -dc "$ko" ;;
	*.zst) zstd -dcq "$ko" ;;
	*) cat "$ko" ;;
	esac >"$2"
}
# The SM4 modes the distribution's tcrypt.ko measures: the names it holds.
DISTRO_TCRYPT_MODES=
if distro_module_text tcrypt "$WORK/tcrypt.ko.plain"; then
	for x in ecb cbc cfb ctr; do
		grep -qaF "$x(sm4)" "$WORK/tcrypt.ko.plain" &&
			DISTRO_TCRYPT_MODES="$DISTRO_TCRYPT_MODES${DISTRO_TCRYPT_MODES:+,}$x"
	done
fi
# What the kernel's TLS can do, for part 12 (tests/guest/net/sm4-net.c):
# read from its tls module's cipher table (the AEAD names it allocates),
# not from the version number.  "absent": no tls module, not built in;
# "no-sm4": a tls module without gcm(sm4)/ccm(sm4); "sm4": both.
KERNEL_TLS=unknown
if distro_module_text tls "$WORK/tls.ko.plain"; then
	KERNEL_TLS=no-sm4
	grep -qaF 'gcm(sm4)' "$WORK/tls.ko.plain" &&
		grep -qaF 'ccm(sm4)' "$WORK/tls.ko.plain" && KERNEL_TLS=sm4
elif ! grep -q '/tls\.ko' "$KROOT/lib/modules/$KREL/modules.builtin" 2>/dev/null; then
	KERNEL_TLS=absent
fi
# Which SM4 algorithms IPsec's algorithm table (xfrm_algo) names, for
# part 12: a name it lacks is refused by "ip xfrm state add" (a SKIP), a
# name it has must work.  "unknown" when the table is built in.
XFRM_SM4=unknown
if distro_module_text xfrm_algo "$WORK/xfrm_algo.ko.plain"; then
	XFRM_SM4=
	for x in "cbc(sm4)" "rfc4106(gcm(sm4))"; do
		grep -qaF "$x" "$WORK/xfrm_algo.ko.plain" && XFRM_SM4="$XFRM_SM4 $x"
	done
	XFRM_SM4=${XFRM_SM4# }
	XFRM_SM4=${XFRM_SM4:-none}
fi
# Whether the kernel runs the crypto self-tests at all (testmgr marks
# every algorithm "passed" when they are disabled): its configuration,
# under either name (CRYPTO_MANAGER_DISABLE_TESTS until 6.15,
# CRYPTO_SELFTESTS from 6.16).  "run", "off" or "unknown", and the line.
KSELFTESTS=unknown KSELFTESTS_WHY="no kernel configuration found"
# Debian's packages have /boot/config-KREL (7.x: in the modules
# directory, which the kernel root fetched here lacks); the headers the
# modules were built against carry the same .config; the debug kernel
# has its build's .config.
for kc in "$KROOT/boot/config-$KREL" "$KROOT/lib/modules/$KREL/config" \
		"$KROOT/usr/lib/modules/$KREL/config" "$KROOT/../out/.config" \
		"$WORK/modules/kdir/.config"; do
	[ -r "$kc" ] || continue
	if grep -q '^CONFIG_CRYPTO_MANAGER_DISABLE_TESTS=y' "$kc"; then
		KSELFTESTS=off KSELFTESTS_WHY="CONFIG_CRYPTO_MANAGER_DISABLE_TESTS=y"
	elif grep -q '^CONFIG_CRYPTO_SELFTESTS=y' "$kc"; then
		KSELFTESTS=run KSELFTESTS_WHY="CONFIG_CRYPTO_SELFTESTS=y"
	elif grep -q '^# CONFIG_CRYPTO_SELFTESTS is not set' "$kc"; then
		KSELFTESTS=off KSELFTESTS_WHY="CONFIG_CRYPTO_SELFTESTS is not set"
	elif grep -q '^# CONFIG_CRYPTO_MANAGER_DISABLE_TESTS is not set' "$kc" &&
			grep -q '^CONFIG_CRYPTO_MANAGER=[ym]' "$kc"; then
		KSELFTESTS=run KSELFTESTS_WHY="CONFIG_CRYPTO_MANAGER_DISABLE_TESTS is not set"
	else
		KSELFTESTS_WHY="neither option in $(basename "$kc")"
	fi
	break
done
if [ -n "$MODULES_DIR" ]; then
	mkdir -p "$MODS_STAGE/updates/dkms"
	cp "$MODULES_DIR"/*.ko* "$MODS_STAGE/updates/dkms/"
else
	cp "$WORK"/modules/modules/*.ko "$MODS_STAGE/updates/"
fi
cp "$WORK"/modules/extra/*.ko "$STAGE/opt/sm4/kmod/" 2>/dev/null
if [ -n "$UPSTREAM" ]; then
	mkdir -p "$STAGE/opt/sm4/upstream"
	while read -r m rel; do
		mkdir -p "$MODS_STAGE/${rel%/*}"
		cp "$UPSTREAM/modules/$m.ko" "$MODS_STAGE/$rel"
	done <"$UPSTREAM/modules.list"
	cp "$UPSTREAM/modules.list" "$STAGE/opt/sm4/upstream/"
	install -m 644 "$REPO_ROOT/tests/guest/part-distro-sm4.sh" "$STAGE/part-distro-sm4.sh"
fi
[ -n "$TCRYPT_KO" ] && cp "$TCRYPT_KO" "$STAGE/opt/sm4/tcrypt/"
depmod -b "$STAGE" "$KREL" || setup_fail "depmod of the staged modules"

install -m 755 "$REPO_ROOT/tests/guest/init.sh" "$STAGE/init"
# /init runs /suite.sh: the test suite, or for --demo the demo script
# (which uses the suite's helper functions, installed as /suite-lib.sh).
if [ $DEMO = 1 ]; then
	install -m 755 "$REPO_ROOT/tests/guest/demo.sh" "$STAGE/suite.sh"
	install -m 644 "$REPO_ROOT/tests/guest/suite.sh" "$STAGE/suite-lib.sh"
else
	install -m 755 "$REPO_ROOT/tests/guest/suite.sh" "$STAGE/suite.sh"
	install -m 644 "$REPO_ROOT/tests/guest/part-faults.sh" \
		"$REPO_ROOT/tests/guest/part-debug.sh" "$STAGE/"
fi
[ -n "$AFALG_BIN" ] && install -m 755 "$AFALG_BIN" "$STAGE/usr/local/bin/sm4-afalg"
[ -n "$FSCRYPT_BIN" ] && install -m 755 "$FSCRYPT_BIN" "$STAGE/usr/local/bin/sm4-fscrypt"
head -c 64 /dev/urandom >"$STAGE/opt/sm4/luks.key"
# The assembly entry points of every driver module (the global functions
# of the objects assembled from .S files that went into each .ko): the
# guest counts entries into them.
: >"$STAGE/opt/sm4/asm-entries"
for ko in "$WORK"/modules/modules/*.ko; do
	m=$(basename "$ko" .ko)
	for o in "$WORK"/modules/src/arch/*/*.o; do
		[ -e "${o%.o}.S" ] || continue
		nm --defined-only "$o" | awk '$2 == "T" { print $3 }'
	done | sort -u >"$WORK/asm-syms"
	nm --defined-only "$ko" | awk '$2 == "T" { print $3 }' | sort -u |
		comm -12 - "$WORK/asm-syms" | sed "s/^/$m /"
done >"$STAGE/opt/sm4/asm-entries"
if [ $DEMO = 0 ] && [ ! -s "$STAGE/opt/sm4/asm-entries" ]; then
	setup_fail "no assembly entry points found in the built modules ($WORK/modules/src/arch)"
fi
if [ $DEMO = 0 ]; then
	cp "$WORK/vectors.bin" "$STAGE/opt/sm4/vectors.bin"
	# Files of known SHA-256 for the encrypted volume: empty, one byte,
	# around a block and a page, and a few MiB.
	for spec in empty:0 one:1 block:4095 page:4096 odd:65543 big:3145851; do
		head -c "${spec#*:}" /dev/urandom >"$STAGE/opt/sm4/data/${spec%%:*}.bin"
	done
	mkdir -p "$STAGE/opt/sm4/data/dir/sub"
	head -c 12345 /dev/urandom >"$STAGE/opt/sm4/data/dir/sub/nested.bin"
	(cd "$STAGE/opt/sm4/data" && find . -type f | sort | xargs sha256sum) \
		>"$STAGE/opt/sm4/data.sha256"
	# The fscrypt tree (part 10): sizes around the block and page
	# boundaries, a few MiB of random data, names near NAME_MAX, and
	# plaintext markers the host looks for on the raw disk afterwards.
	FSDATA="$STAGE/opt/sm4/fsdata"
	long=$(printf 'sm4name-%0240d' 0 | head -c 248)
	mkdir -p "$FSDATA/sm4name-tree/$long-d/sub-sm4name-dir"
	for n in 0 1 15 16 4095 4096 4097; do
		{ printf 'SM4-FSCRYPT-PLAINTEXT %s ' "$SEED"; head -c "$n" /dev/zero | tr '\0' x; } |
			head -c "$n" >"$FSDATA/sm4name-size-$n"
	done
	head -c 3145728 /dev/urandom >"$FSDATA/sm4name-random"
	yes "SM4-FSCRYPT-PLAINTEXT $SEED" | head -c 200000 >"$FSDATA/sm4name-tree/$long-d/sub-sm4name-dir/${long}-f"
	echo "SM4-FSCRYPT-PLAINTEXT small" >"$FSDATA/sm4name-tree/sm4name-small.txt"
	(cd "$FSDATA" && find . -type f | sort | xargs sha256sum) \
		>"$STAGE/opt/sm4/fsdata.sha256"
	cp "$FSDATA/sm4name-random" "$WORK/fs-random.bin"
	head -c 64 /dev/urandom >"$STAGE/opt/sm4/fscrypt.key"
	truncate -s 64M "$WORK/disk3.img"
	# Raw dm-crypt check on a second disk, with a key and IV offset the host
	# knows: the guest writes dmA.bin through dm-crypt at sector 0 (the host
	# decrypts it with libgcrypt after the boot), and reads back at sector
	# 4096 what the host encrypted with libgcrypt (dmB.bin).  The IV offset
	# makes the plain64 sector numbers cross 2^32.
	DMXTS_KEY=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
	DMXTS_IV_OFFSET=4294966296
	head -c 1048576 /dev/urandom >"$WORK/dmA.bin"
	head -c 1048576 /dev/urandom >"$WORK/dmB.bin"
	cp "$WORK/dmA.bin" "$STAGE/opt/sm4/dmA.bin"
	sha256sum <"$WORK/dmB.bin" | cut -d' ' -f1 >"$STAGE/opt/sm4/dmB.sha256"
	truncate -s 10M "$WORK/disk2.img"
	"$WORK/dm-xts" enc "$DMXTS_KEY" $((DMXTS_IV_OFFSET + 4096)) <"$WORK/dmB.bin" |
		dd of="$WORK/disk2.img" bs=512 seek=4096 conv=notrunc status=none ||
		setup_fail "dm-xts: prepare the raw dm-crypt disk"
fi
if want_part 12; then
	. "$REPO_ROOT/tests/guest/part-net-host.sh"
	net_prepare
fi
cat >"$STAGE/etc/sm4-test.conf" <<EOF
ARCH=$ARCH
PARTS=$PARTS
CASES=$CASES
CROSS_CASES=$CROSS_CASES
CFB_FUZZ=$CFB_FUZZ
SEED=$SEED
BROKEN=$BROKEN
BROKEN_ARGS='$BROKEN_ARGS'
STRESS_SECONDS=$STRESS_SECONDS
STRESS_WORKERS=$STRESS_WORKERS
VERDICT_DEV=$VERDICT_DEV
DMXTS_KEY=${DMXTS_KEY:-}
DMXTS_IV_OFFSET=${DMXTS_IV_OFFSET:-}
TCRYPT_SEC=$TCRYPT_SEC
DISTRO_TCRYPT_MODES=$DISTRO_TCRYPT_MODES
KERNEL_TLS=$KERNEL_TLS
XFRM_SM4='$XFRM_SM4'
KSELFTESTS=$KSELFTESTS
KSELFTESTS_WHY='$KSELFTESTS_WHY'
EOF
(cd "$STAGE" && find . -print0 | LC_ALL=C sort -z |
	cpio -0 -o -H newc -R 0:0 --quiet) >"$WORK/overlay.cpio" ||
	setup_fail "pack the initramfs"
cat "$ROOTFS_CPIO" "$WORK/overlay.cpio" >"$WORK/initrd.cpio"
pass "initramfs $(($(stat -c %s "$WORK/initrd.cpio") / 1048576)) MiB ($(find "$MODS_STAGE/kernel" -name '*.ko*' | wc -l) distro modules)"
step_done "make initramfs"

truncate -s 96M "$WORK/disk.img"

# --- boots --------------------------------------------------------------------

# phase_parts N: the parts that run in boot N (see tests/guest/suite.sh).
phase_parts()
{
	local p

	[ $DEMO = 1 ] && return 0
	for p in $(echo "$PARTS" | tr , ' '); do
		case $1:$p in
		1:8|2:[1234679]|2:1[12]|2:fuzz|2:busy|2:nocpu) ;;
		*) echo "$p" ;;
		esac
	done
}

# fscrypt_raw_check VERDICT: the disk fscrypt wrote holds no plaintext:
# no name or content marker, no 64-byte piece of the random file; and
# what is there is what fscrypt's key derivation and SM4-XTS/CTS give,
# computed here with libgcrypt from the master key alone (fscrypt-oracle,
# on the guest's RAW-FSCRYPT report: a file's blocks, every name of enc/
# and of its directories).
fscrypt_raw_check()
{
	local ver=$1 r line out

	r=$(python3 - "$WORK/disk3.img" "$WORK/fs-random.bin" <<'EOF_PY'
import sys
disk = open(sys.argv[1], 'rb').read()
rnd = open(sys.argv[2], 'rb').read()
found = [m for m in (b'sm4name', b'SM4-FSCRYPT-PLAINTEXT') if m in disk]
pieces = [rnd[o:o + 64] for o in range(0, len(rnd), 65536)]
hits = sum(1 for p in pieces if p in disk)
print('%s %d %d' % (','.join(m.decode() for m in found) or '-', hits, len(pieces)))
EOF_PY
)
	set -- $r
	if [ "$1" = - ] && [ "$2" = 0 ]; then
		pass "part10 host: the fscrypt disk holds no plaintext (no name/content marker, none of $3 samples of the random file)"
	else
		fail "part10 host: plaintext on the fscrypt disk (markers: $1; $2 of $3 samples of the random file)"
	fi
	out=$(sed -n 's/^RAW-FSCRYPT //p' "$ver" |
		"$WORK/fscrypt-oracle" "$STAGE/opt/sm4/fscrypt.key" \
			"$WORK/vectors.bin" "$WORK/disk3.img" 2>&1)
	grep -qE '^(PASS|FAIL): ' <<<"$out" ||
		out="FAIL: fscrypt-oracle gave no verdict: $(tail -n 1 <<<"$out")"
	while IFS= read -r line; do
		case $line in
		PASS:*) pass "part10 host:${line#PASS:}" ;;
		FAIL:*) fail "part10 host:${line#FAIL:}" ;;
		[0-9]*' passed, '*) ;;
		*) fail "part10 host: fscrypt-oracle: $line" ;;
		esac
	done <<<"$out"
}

# luks_raw_check VERDICT: the LUKS2 volume's data area on the disk image,
# decrypted here with libgcrypt (dm-xts) with the volume key cryptsetup
# dumped in the guest, gives what the guest read through the mapping
# (luks_raw_report in suite.sh: three 64 KiB regions, by SHA-256).
luks_raw_check()
{
	local key seg tbl off ssz r len sum got n=0 bad=0 why=

	key=$(sed -n 's/^RAW-LUKS key //p' "$1")
	seg=$(sed -n 's/^RAW-LUKS segment //p' "$1")
	tbl=$(sed -n 's/^RAW-LUKS table //p' "$1")
	read -r off ssz _ <<<"$seg"
	if ! [[ $key =~ ^[0-9a-f]{64}$ ]] || ! [[ ${off:-} =~ ^[0-9]+$ ]]; then
		fail "part5 host: LUKS2 data area: the guest reported no 256-bit volume key (${#key} hex digits) or no data segment ('$seg')"
		return
	fi
	if [ "$ssz" != 512 ] || [[ $tbl == *iv_large_sectors* ]]; then
		fail "part5 host: LUKS2 data area: sector size $ssz ($tbl): dm-xts decrypts 512-byte sectors only"
		return
	fi
	while read -r r len sum; do
		n=$((n + 1))
		got=$(dd if="$WORK/disk.img" bs=512 skip=$((off + r / 512)) \
				count=$((len / 512)) status=none |
			"$WORK/dm-xts" dec "$key" $((r / 512)) | sha256sum |
			cut -d' ' -f1)
		if [ "$got" != "$sum" ]; then
			bad=$((bad + 1))
			why="$why region at $r;"
		fi
	done < <(sed -n 's/^RAW-LUKS region //p' "$1")
	if [ $n -eq 3 ] && [ $bad -eq 0 ]; then
		pass "part5 host: the LUKS2 volume's data area on the disk image decrypts with libgcrypt SM4-XTS (the volume key luksDump dumped, plain64 from the segment at sector $off) to what the guest read through the mapping: 3 of 3 regions of 64 KiB"
	else
		fail "part5 host: LUKS2 data area: $bad of $n regions (3 expected) decrypt with libgcrypt to something else than the guest read through the mapping:$why"
	fi
}

# early_crash_line CONSOLE: the first kernel crash line of CONSOLE.
early_crash_line()
{
	tr -d '\r' <"$1" |
		grep -m1 -E '\[ *[0-9]+\.[0-9]{6}\].*(Oops|Kernel panic|kernel BUG|BUG:|general protection fault|Unable to handle kernel)'
}

# early_crash CONSOLE VERDICT: the guest kernel crashed before it started
# /init: a crash line on CONSOLE, no "Run /init as init process" there,
# nothing on the VERDICT channel.  Nothing of this project can have run
# (the suite, started by /init, loads the modules): a fault of the kernel
# or of QEMU's TCG (seen once in stock 6.12, an int3 Oops in
# enqueue_timer at 2.9 s, no module loaded), for which boot() boots once
# more.  A crash after /init started is never retried.
early_crash()
{
	[ ! -s "$2" ] || return 1
	! tr -d '\r' <"$1" | grep -q 'Run /init as init process' || return 1
	[ -n "$(early_crash_line "$1")" ]
}

# boot N TIMEOUT: run the guest for phase N (once more if its kernel
# crashed before /init: early_crash); evaluates the verdict and the
# console.
boot()
{
	local n=$1 tmo=$2 con="$WORK/console$1.log" ver="$WORK/verdict$1.txt"
	local cmdline args rc t0 qpid end src nf p try

	cmdline="console=$CONSOLE panic_on_warn=1 panic=-1 rdinit=/init sm4_phase=$n mitigations=off"
	# The debug kernel: a warning (lockdep, a failed self-test) must not
	# stop the suite; the console check below reports it.
	# pci=noacpi: the BIOS's IRQ routing table; the ACPI _PRT loop is
	# too slow under KASAN and TCG (it times out after 30 s per device).
	# no_timer_check: the IO-APIC timer test can fail on a loaded host.
	[ -n "$DBGK" ] && cmdline="${cmdline/panic_on_warn=1 /} pci=noacpi no_timer_check"
	[ -n "$FUZZ_ITERATIONS" ] && cmdline="$cmdline cryptomgr.fuzz_iterations=$FUZZ_ITERATIONS"
	[ -n "$APPEND" ] && cmdline="$cmdline $APPEND"
	# shellcheck disable=SC2054
	args=(-accel tcg,thread=multi -smp 2 -m 2048 -nodefaults -display none
	      -no-reboot -kernel "$VMLINUZ" -initrd "$WORK/initrd.cpio"
	      -append "$cmdline"
	      -drive "file=$WORK/disk.img,format=raw,if=none,id=disk0,cache=writeback"
	      -device virtio-blk-pci,drive=disk0,serial=sm4luks
	      -device virtio-rng-pci)
	if [ -e "$WORK/disk2.img" ]; then
		# shellcheck disable=SC2054
		args+=(-drive "file=$WORK/disk2.img,format=raw,if=none,id=disk1,cache=writeback"
		       -device virtio-blk-pci,drive=disk1,serial=sm4raw)
	fi
	if [ -e "$WORK/disk3.img" ]; then
		# shellcheck disable=SC2054
		args+=(-drive "file=$WORK/disk3.img,format=raw,if=none,id=disk2,cache=writeback"
		       -device virtio-blk-pci,drive=disk2,serial=sm4fs)
	fi
	if [ $VERBOSE = 1 ]; then
		args+=(-chardev "stdio,id=con0,logfile=$con,signal=off")
	else
		args+=(-chardev "file,id=con0,path=$con")
	fi
	case $ARCH in
	x86_64)
		args+=(-cpu "$CPU" -serial chardev:con0
		       -chardev "file,id=verdict,path=$ver" -serial chardev:verdict)
		;;
	arm64)
		# Pointer authentication with QEMU's own algorithm: the
		# architected one is very slow under TCG.
		local cpu=$CPU
		[ "$cpu" = max ] && cpu=max,pauth-impdef=on
		# shellcheck disable=SC2054
		args+=(-M virt -cpu "$cpu" -serial chardev:con0
		       -device virtio-serial-pci
		       -chardev "file,id=verdict,path=$ver"
		       -device virtconsole,chardev=verdict)
		;;
	esac
	for try in 1 2; do
		: >"$ver"
		log "$ARCH: boot $n (timeout ${tmo}s)"
		t0=$(date +%s.%N)
		timeout -k 10 "$tmo" "$QEMU" "${args[@]}" </dev/null 2>"$WORK/qemu$n.err" &
		qpid=$!
		# Live progress: the verdict channel as it is written (tail
		# ends when QEMU does).  The demo's report is all of it but the
		# raw tcrypt lines (turned into a table below) and the
		# BEGIN/END marks.
		if [ $DEMO = 1 ]; then
			tail -n +1 -F --pid="$qpid" "$ver" 2>/dev/null | tr -d '\r' |
				grep --line-buffered -vE '^(TCRYPT|BEGIN:|END:|PART-END:)'
		else
			tail -n +1 -F --pid="$qpid" "$ver" 2>/dev/null | tr -d '\r' |
				grep --line-buffered -E '^(PASS|FAIL|SKIP|TIME|SUMMARY):'
		fi
		wait "$qpid"
		rc=$?
		[ $DEMO = 1 ] || echo "TIME: $ARCH host boot $n (QEMU wall time) $(since "$t0") s"
		[ $try = 1 ] && early_crash "$con" "$ver" || break
		cp "$con" "$WORK/console$n.early-crash.log"
		echo "RETRY: $ARCH boot $n: the kernel crashed before it started /init, so before anything of this project ran ($(early_crash_line "$con")); booting once more (console kept as console$n.early-crash.log)"
	done

	tr -d '\r' <"$ver" >"$ver.clean" 2>/dev/null
	N_PASS=$((N_PASS + $(grep -c '^PASS:' "$ver.clean")))
	N_FAIL=$((N_FAIL + $(grep -c -E '^(FAIL|ERROR):' "$ver.clean")))
	N_SKIP=$((N_SKIP + $(grep -c '^SKIP:' "$ver.clean")))
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		fail "boot $n hit the ${tmo}s timeout"
	elif [ $rc -ne 0 ]; then
		fail "boot $n: QEMU exited with status $rc"
		sed 's/^/  | /' "$WORK/qemu$n.err"
	fi
	if [ ! -s "$con" ]; then
		fail "boot $n: no console capture ($con is missing or empty)"
	fi
	# The suite's exit status is its number of failed checks: it must
	# match the FAIL lines that reached the host.
	end=$(grep "^END: $ARCH phase=$n " "$ver.clean" | tail -n1)
	if [ -z "$end" ]; then
		fail "boot $n: suite did not finish (no END on the verdict channel; console $con)"
		tail -n 30 "$con" | tr -d '\r' | sed 's/^/  | /'
	else
		src=${end##*rc=}
		nf=$(grep -c '^FAIL:' "$ver.clean")
		if [ "$src" = $((nf % 256)) ]; then
			quiet_pass "boot $n: suite ran to the end (exit status $src, $nf FAIL lines)"
		else
			fail "boot $n: suite exit status $src but $nf FAIL lines reached the host"
		fi
	fi
	# Every part asked for in this phase reported its end.
	for p in $(phase_parts "$n"); do
		if ! grep -q "^PART-END: $ARCH phase=$n part=$p\$" "$ver.clean"; then
			fail "boot $n: part $p did not report its end (PART-END missing; console $con)"
		fi
	done
	# The sectors the guest wrote through dm-crypt, decrypted here.
	if [ "$n" = 1 ] && want_part 10; then
		if grep -q "^SKIP: $ARCH part10 fscrypt with SM4:" "$ver.clean"; then
			echo "SKIP: $ARCH part10 host: raw fscrypt disk check: the guest's fscrypt has no SM4"
			N_SKIP=$((N_SKIP + 1))
		else
			fscrypt_raw_check "$ver.clean"
		fi
	fi
	if [ "$n" = 1 ] && want_part 5; then
		if dd if="$WORK/disk2.img" bs=512 count=2048 status=none |
				"$WORK/dm-xts" dec "$DMXTS_KEY" "$DMXTS_IV_OFFSET" |
				cmp -s - "$WORK/dmA.bin"; then
			pass "part5 host: sectors the guest wrote through dm-crypt decrypt to the data with libgcrypt SM4-XTS (plain64 IVs across 2^32)"
		else
			fail "part5 host: sectors the guest wrote through dm-crypt do not decrypt to the data with libgcrypt SM4-XTS"
		fi
		luks_raw_check "$ver.clean"
	fi
	# Kernel messages only (they carry printk timestamps): the suite's
	# and the tools' own output is not the kernel's.
	if tr -d '\r' <"$con" |
			grep -E '\[ *[0-9]+\.[0-9]{6}\].*(Oops|BUG:|WARNING:|UBSAN:|Call [Tt]race|Kernel panic|kernel BUG|general protection fault|Unable to handle kernel|blocked for more than|soft lockup|rcu_.*stall)' \
			>"$WORK/console$n.bad"; then
		fail "boot $n: kernel console is clean (found: $(head -n 3 "$WORK/console$n.bad" | tr '\n' ' '))"
	else
		quiet_pass "boot $n: kernel console is clean (no Oops/BUG/WARNING/call trace/panic)"
	fi
}

# tcrypt_tables VERDICT: the tcrypt speed runs the guest reported (each
# "TCRYPT-EXPECT: TAG IMPL MODES" followed by its kernel log lines
# "TCRYPT TAG: ..."): tools/tcrypt-table.py --check must find a result
# for every mode of MODES, both directions, all sizes, served by IMPL,
# through the API the tcrypt mode uses (218: sync, 518: async); the
# tables are printed.
tcrypt_tables()
{
	local ver=$1 tag impl modes api log n=0 t0

	t0=$(date +%s.%N)
	while read -r _ tag impl modes; do
		n=$((n + 1))
		log="$WORK/tcrypt-$tag.log"
		sed -n "s/^TCRYPT $tag: //p" "$ver" >"$log"
		case $tag in
		*-518) api=async ;;
		*) api=sync ;;
		esac
		python3 "$REPO_ROOT/tools/tcrypt-table.py" --check \
			--modes "$modes" --driver "$impl" "$log" \
			>"$log.table" 2>&1
		if [ $DEMO = 1 ]; then
			grep -v '^CHECK' "$log.table" | sed '/^$/d; s/^/  /'
		else
			echo "tcrypt $tag ($api API), results from $impl:"
			sed 's/^/  | /' "$log.table"
		fi
		if grep -q "^CHECK OK: .*($api; $impl)" "$log.table" &&
				! grep -q '^CHECK FAIL' "$log.table"; then
			quiet_pass "part9 host: tcrypt $tag: $modes x enc/dec x 7 sizes, all from $impl ($api API)"
		else
			grep '^CHECK' "$log.table"
			fail "part9 host: tcrypt $tag: not every $modes x enc/dec x size result came from $impl ($api API)"
		fi
	done < <(grep '^TCRYPT-EXPECT: ' "$ver")
	if [ $n -eq 0 ]; then
		fail "part9 host: no tcrypt speed results on the verdict channel"
	fi
	[ $DEMO = 1 ] || echo "TIME: $ARCH host part9 tcrypt tables $(since "$t0") s"
}

if [ $DEMO = 1 ]; then
	echo "- booting the guest: QEMU runs Debian's kernel, the guest prints the rest"
fi
boot 1 "$TIMEOUT"
if [ $DEMO = 1 ] || want_part 9; then
	tcrypt_tables "$WORK/verdict1.txt.clean"
fi
[ $DEMO = 0 ] && want_part 12 && net_check "$WORK/verdict1.txt.clean"
if [ $DEMO = 1 ]; then
	echo
	echo "== Result"
	if [ $N_FAIL -eq 0 ]; then
		echo "  Everything worked ($(since "$T_START") s; guest console log: $WORK/console1.log)."
	else
		echo "  $N_FAIL error(s) ($(since "$T_START") s; logs in $WORK: console1.log, host.log)."
	fi
	[ $N_FAIL -eq 0 ]
	exit
fi
case ",$PARTS," in
*,5,*|*,8,*|*,10,*)
	# Not on the debug kernel: its run is the drivers under the fuzzer
	# and the sanitizers, boot 1; a second boot would take CI's budget
	# to run every self-test again at the raised fuzz_iterations (and
	# dm-crypt's allocation waits only 60 s for one: at 1000 iterations
	# "cryptsetup open" failed there).  Every guest cell runs boot 2.
	if [ $DEBUG_KERNEL = 1 ]; then
		echo "SKIP: $ARCH boot 2 (parts $PARTS after a reboot): not run on the debug kernel (its self-tests and fuzzer ran in boot 1; every guest cell reboots)"
		N_SKIP=$((N_SKIP + 1))
	else
		boot 2 "$TIMEOUT2"
	fi
	;;
esac

echo "TIME: $ARCH total wall time $(since "$T_START") s"
if [ $N_FAIL -gt 0 ]; then
	# What a replay needs: the vectors come from the seed, the keys are
	# random per run.
	echo "REPLAY: $0 --arch $ARCH --suite $SUITE --cpu $CPU --parts $PARTS --cases $CASES --seed $SEED"
	echo "REPLAY: LUKS key $(od -An -tx1 "$STAGE/opt/sm4/luks.key" | tr -d ' \n')"
	[ -e "$STAGE/opt/sm4/fscrypt.key" ] &&
		echo "REPLAY: fscrypt key $(od -An -tx1 "$STAGE/opt/sm4/fscrypt.key" | tr -d ' \n')"
	[ -n "${DMXTS_KEY:-}" ] && echo "REPLAY: raw dm-crypt key $DMXTS_KEY, IV offset $DMXTS_IV_OFFSET"
fi
echo "SUMMARY: $ARCH $SUITE $N_PASS passed, $N_FAIL failed, $N_SKIP skipped (console logs and verdicts in $WORK)"
[ $N_FAIL -eq 0 ]
