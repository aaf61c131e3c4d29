#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-kbuild-matrix.sh [SUITE...]: build the modules for x86_64 and arm64
# against the kernel headers of other Debian suites (default: trixie,
# 6.12, and sid, 7.2), each inside an amd64 chroot of that suite so that
# each kernel is built with its own compiler, at W=1 with sparse (C=2);
# check for compiler, sparse and objtool warnings,
# for the expected modules and their license, and the namespace of the
# exports.
#
# The chroots come from tests/lib/make-chroot.sh (cached under
# .cache/chroots/SUITE; arm64 is a cross build with the compiler the arm64
# kernel was built with).
#
# Environment: SM4_DEBIAN_MIRROR (default http://deb.debian.org/debian),
# SM4_MATRIX_ARCHES (default "x86_64 arm64").

set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib/common.sh"

ARCHES=${SM4_MATRIX_ARCHES:-x86_64 arm64}
SUITES=("$@")
[ ${#SUITES[@]} -gt 0 ] || SUITES=(trixie sid)
rc=0

# The build that may be running (its own process group), stopped on any
# exit.
BUILD_PID=
cleanup()
{
	if [ -n "$BUILD_PID" ]; then
		kill -TERM -- "-$BUILD_PID" 2>/dev/null
		wait "$BUILD_PID" 2>/dev/null
		BUILD_PID=
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# want_modules ARCH: the modules the sources must produce for ARCH.
want_modules()
{
	case $1 in
	x86_64)
		echo sm4 sm4_generic sm4-aesni-avx-x86_64 \
			sm4-aesni-avx2-x86_64 sm4-vaes-avx2-x86_64 sm4-gfni-avx2-x86_64 \
			sm4-gfni-avx512-x86_64 \
			sm4-ni-x86_64 sm4-ni-avx10-x86_64
		;;
	arm64)
		echo sm4 sm4_generic sm4-neon sm4-ce sm4-ce-ccm sm4-ce-gcm
		if grep -q '^obj-m.*sm4-ce-cipher\.o' "$ROOT/arch/arm64/Kbuild.inc"; then
			echo sm4-ce-cipher
		fi
		;;
	esac
}

# neon_state CHROOT KDIR DIR TAG: the per-CPU NEON state buffer of
# sm4_simd_begin() (include/sm4/compat.h) is defined exactly once, in
# sm4_generic.ko, where the kernel's kernel_neon_begin() takes one (its
# prototype in KDIR's <asm/neon.h>; the build itself proves the probe of
# arch/arm64/Kbuild.inc right, as a wrong answer does not compile), and
# nowhere where it takes none.  A copy per compilation unit (the
# buffer defined static in the header) shows as several definitions.
neon_state()
{
	local chr=$1 kdir=$2 dir=$3 tag=$4 src want ko n defs= total=0

	# Debian's arch header directory includes the common one's Makefile
	# (the kernel's srctree, which holds asm/neon.h).
	src=$chr$(sed -n 's|^include \(/.*\)/Makefile$|\1|p' "$chr$kdir/Makefile")
	[ "$src" != "$chr" ] || src=$chr$kdir
	if [ -f "$src/arch/arm64/include/asm/neon.h" ] &&
	   grep -Eq 'kernel_neon_begin\([[:space:]]*struct[[:space:]]+user_fpsimd_state' \
		"$src/arch/arm64/include/asm/neon.h"; then
		want=1
	elif [ -f "$src/arch/arm64/include/asm/neon.h" ]; then
		want=0
	else
		echo "FAIL: kbuild $tag: no arch/arm64/include/asm/neon.h under $src: the NEON state check ran on nothing"
		return 1
	fi
	for ko in "$chr$dir"/*.ko; do
		n=$(readelf -sW "$ko" | awk '$8 == "sm4_softirq_fpsimd_state" &&
			$7 != "UND" { n++ } END { print n + 0 }')
		[ "$n" -gt 0 ] || continue
		total=$((total + n))
		defs="$defs $(basename "$ko") ($n)"
	done
	if [ "$want" = 1 ] && [ "$total" = 1 ] && [ "$defs" = " sm4_generic.ko (1)" ]; then
		echo "PASS: kbuild $tag: kernel_neon_begin() takes a state buffer; the per-CPU one is defined once, in sm4_generic.ko"
	elif [ "$want" = 0 ] && [ "$total" = 0 ]; then
		echo "PASS: kbuild $tag: kernel_neon_begin() takes no state buffer; no module defines one"
	else
		echo "FAIL: kbuild $tag: per-CPU NEON state buffer: want $([ "$want" = 1 ] && echo "one definition, in sm4_generic.ko" || echo none), found $total:${defs:- none}"
		return 1
	fi
}

# build SUITE CHROOT ARCH: build and check one suite x arch.
build()
{
	local suite=$1 chr=$2 arch=$3 flav kdir ver dir log m ko w brc d
	local sv ns abi_ns imp
	local margs=()

	case $arch in
	x86_64) flav=amd64 ;;
	arm64) flav=arm64 margs=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) ;;
	*) echo "FAIL: kbuild $suite: unknown arch $arch"; return 1 ;;
	esac
	kdir=
	for d in "$chr"/usr/src/linux-headers-*[0-9]-"$flav"; do
		[ -f "$d/Makefile" ] && kdir=$d && break
	done
	if [ -z "$kdir" ]; then
		echo "FAIL: kbuild $suite $arch: no $flav headers in the chroot"
		return 1
	fi
	kdir=${kdir#"$chr"}
	ver=${kdir#/usr/src/linux-headers-}
	dir=$BDIR/$arch
	log=$chr$BDIR/$arch.log
	mkdir -p "$chr$dir"
	(cd "$ROOT" && git ls-files -co --exclude-standard -- Kbuild Makefile dkms.conf \
		lib crypto include arch |
		while read -r f; do [ -e "$f" ] && echo "$f"; done |
		cpio -pdm --quiet "$chr$dir")
	# In the background, so that a signal stops the script (and, through
	# the trap, the build) at once.
	setsid -w timeout -k 10 1800 "${CHROOT_NS[@]}" "$chr" make -C "$kdir" M="$dir" W=1 C=2 -j"$(nproc)" \
		"${margs[@]}" modules >"$log" 2>&1 &
	BUILD_PID=$!
	wait "$BUILD_PID"
	brc=$?
	BUILD_PID=
	if [ $brc -ne 0 ]; then
		echo "FAIL: kbuild $suite $arch ($ver): build failed or took over 30 min (log: $log)"
		grep -E 'error|Error|warning' "$log" | head -n 30
		tail -n 5 "$log"
		return 1
	fi
	echo "PASS: kbuild $suite $arch ($ver): modules build"
	w=$(grep -iE 'warning|error' "$log" | grep -v 'Skipping BTF')
	if [ -n "$w" ]; then
		echo "FAIL: kbuild $suite $arch ($ver): warnings at W=1 C=2 (sparse)"
		echo "$w" | head -n 30
		rc=1
	else
		echo "PASS: kbuild $suite $arch ($ver): no warnings at W=1 C=2 (sparse)"
	fi
	if grep -q '^  CHECK ' "$log"; then
		echo "PASS: kbuild $suite $arch ($ver): sparse ran"
	else
		echo "FAIL: kbuild $suite $arch ($ver): sparse ran"
		rc=1
	fi
	for m in $(want_modules "$arch"); do
		ko=$chr$dir/$m.ko
		if [ ! -f "$ko" ]; then
			echo "FAIL: kbuild $suite $arch ($ver): $m.ko built"
			rc=1
			continue
		fi
		if [ "$(chroot "$chr" modinfo -F license "$dir/$m.ko")" = GPL ]; then
			echo "PASS: kbuild $suite $arch ($ver): $m.ko built, license GPL"
		else
			echo "FAIL: kbuild $suite $arch ($ver): $m.ko license GPL"
			rc=1
		fi
	done
	# Exports (the namespace macros differ: include/sm4/compat.h):
	# upstream's ABI without a namespace, the project's own in
	# SM4_CRYPTO, which a driver module imports.
	sv=$chr$dir/Module.symvers
	ns=$(awk -F'\t' '$2 == "sm4_driver_register" { print $5 }' "$sv")
	abi_ns=$(awk -F'\t' '$2 == "sm4_expandkey" { print ($5 == "" ? "-" : $5) }' "$sv")
	m=$(want_modules "$arch" | awk 'NR == 1 { print $3 }')
	imp=$(chroot "$chr" modinfo -F import_ns "$dir/$m.ko" 2>/dev/null)
	if [ "$ns" = SM4_CRYPTO ] && [ "$abi_ns" = - ] && [ "$imp" = SM4_CRYPTO ]; then
		echo "PASS: kbuild $suite $arch ($ver): sm4_driver_register exported in namespace $ns, sm4_expandkey in none, $m.ko imports $imp"
	else
		echo "FAIL: kbuild $suite $arch ($ver): namespaces: sm4_driver_register '${ns:-none}' (want SM4_CRYPTO), sm4_expandkey '${abi_ns:-not exported}' (want -), $m.ko imports '${imp:-nothing}' (want SM4_CRYPTO)"
		rc=1
	fi
	[ "$arch" = arm64 ] && { neon_state "$chr" "$kdir" "$dir" "$suite $arch ($ver)" || rc=1; }
	# The SM4 instructions are bytes (arch/x86/sm4-ni.h): check them
	# against this suite's binutils, which knows the mnemonics.
	if [ "$arch" = x86_64 ]; then
		"$ROOT/tools/check-sm4ni-insn.sh" "$chr" | sed "s/^\(PASS\|FAIL\): /\1: kbuild $suite: /" || rc=1
	fi
	return 0
}

mkdir -p "$CACHE/chroots"
for suite in "${SUITES[@]}"; do
	if ! chr=$("$ROOT/tests/lib/make-chroot.sh" "$suite"); then
		echo "FAIL: kbuild $suite: cannot create chroot (log: $CACHE/chroots/$suite.log)"
		rc=1
		continue
	fi
	# Builds share the chroot (each in its own directory); making it
	# again takes the lock exclusively.
	exec 9>"$CACHE/chroots/.$suite.lock"
	flock -s 9
	BDIR=/sm4-build/matrix-$$
	rm -rf "$chr$BDIR"
	for arch in $ARCHES; do
		build "$suite" "$chr" "$arch" || rc=1
	done
	cleanup
	[ $rc -eq 0 ] && rm -rf "$chr$BDIR"
	exec 9>&-
done
exit $rc
