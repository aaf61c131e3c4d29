#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-upstream-sm4.sh KDIR OUTDIR
#
# Build upstream Linux's own SM4 modules, from the linux-source package
# of KDIR's kernel series (tests/lib/upstream-src.sh), against the Debian
# headers in KDIR, as a distribution that enables SM4 would ship them:
# the simulated "distribution with SM4" of the guest tests.  Also builds
# tests/guest/kmod-upstream (a user of <crypto/sm4.h>) against upstream's
# sm4.ko, so that its modversions CRCs are upstream's.
#
#   x86_64: sm4 sm4_generic sm4-aesni-avx-x86_64 sm4-aesni-avx2-x86_64
#   arm64:  sm4 sm4_generic sm4-neon sm4-ce-cipher sm4-ce, and from 6.2
#           sm4-ce-ccm sm4-ce-gcm
#
# KDIR is Debian's linux-headers-*-amd64 or -arm64 tree: on the host (6.1;
# arm64 cross, as tests/lib/build-modules.sh unpacks it) or inside a suite
# chroot of tests/test-kbuild-matrix.sh ($CACHE/chroots/SUITE/usr/src/...),
# where the build then runs (under the chroot's lock; a caller that holds
# it already sets SM4_CHROOT_LOCKED=1).
#
# Results: OUTDIR/modules/*.ko (debug info stripped), OUTDIR/modules.list
# ("NAME RELPATH" per module: where a distribution installs it under
# /lib/modules/KVER/, e.g. "sm4-ce kernel/arch/arm64/crypto/sm4-ce.ko";
# the test module's RELPATH is "extra/..."), OUTDIR/build.log.
#
# The results are kept under $CACHE/upstream-sm4, keyed by a hash of
# everything that goes into them (this script, the test module's source,
# upstream's SM4 sources, the headers' configuration, Module.symvers and
# release), so that the abi stage and the guest cells of one kernel build
# them once; a cold cache only costs the build.

set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/upstream-src.sh"

[ $# -eq 2 ] || die "usage: $0 KDIR OUTDIR"
KDIR=$(readlink -f "$1")
mkdir -p "$2"
OUTDIR=$(cd "$2" && pwd)
[ -f "$KDIR/Makefile" ] && [ -f "$KDIR/.config" ] ||
	die "$KDIR is not a kernel headers tree"

if grep -qx 'CONFIG_ARM64=y' "$KDIR/.config"; then
	ARCH=arm64
elif grep -qx 'CONFIG_X86_64=y' "$KDIR/.config"; then
	ARCH=x86_64
else
	die "$KDIR: neither an x86_64 nor an arm64 configuration"
fi
# Series from the headers' directory name (linux-headers-6.12.117+deb13-arm64).
SERIES=$(basename "$KDIR" | sed -n 's/^linux-headers-\([0-9]*\.[0-9]*\)[.-].*/\1/p')
[ -n "$SERIES" ] || die "cannot tell the kernel series of $KDIR"
UP=$(upstream_src "$SERIES")

# The cached build of these exact inputs, if any.
KEY=$( {
	cat "$0" "$REPO_ROOT"/tests/guest/kmod-upstream/*
	(cd "$UP" && find . -type f | LC_ALL=C sort | xargs cat)
	cat "$KDIR/.config" "$KDIR/Module.symvers" \
		"$KDIR/include/config/kernel.release" 2>/dev/null
} | sha256sum | cut -c1-16)
CACHED=$CACHE/upstream-sm4/$ARCH-$SERIES-$KEY
# One build per kernel and architecture at a time: a second caller waits
# and takes the first one's results from the cache.
mkdir -p "$CACHE/upstream-sm4"
exec 6>"$CACHE/upstream-sm4/.$ARCH-$SERIES.lock"
flock 6
if [ -e "$CACHED/.complete" ]; then
	rm -rf "$OUTDIR/modules"
	cp -a "$CACHED/modules" "$OUTDIR/"
	cp "$CACHED/modules.list" "$OUTDIR/"
	echo "upstream's $SERIES SM4 modules for $ARCH: cached build $CACHED" >"$OUTDIR/build.log"
	cat "$OUTDIR/modules.list"
	exit 0
fi

# The chroot KDIR lives in, if any.
CHROOT=
case $KDIR in
"$(readlink -f "$CACHE/chroots")"/*/usr/src/*)
	CHROOT=${KDIR%%/usr/src/*}
	;;
esac

# module NAME DIR FILE...: one upstream module, if its sources exist.
MODULES=()
STAGE=
module()
{
	local name=$1 dir=$2 f objs=()

	shift 2
	for f in "$@"; do
		[ -f "$UP/$dir/$f" ] || return 0
	done
	for f in "$@"; do
		cp "$UP/$dir/$f" "$STAGE/"
		objs+=("${f%.*}.o")
	done
	{
		echo "obj-m += $name.o"
		[ $# -eq 1 ] && [ "${1%.*}" = "$name" ] ||
			echo "$name-y := ${objs[*]}"
	} >>"$STAGE/Kbuild"
	MODULES+=("$name kernel/$dir/$name.ko")
}

if [ -n "$CHROOT" ]; then
	suite=${CHROOT##*/}
	# Shared with the chroot's other users, in a directory of its own.
	if [ -z "${SM4_CHROOT_LOCKED:-}" ]; then
		exec 9>"$CACHE/chroots/.$suite.lock"
		flock -s 9
	fi
	RSTAGE=/sm4-build/upstream-$ARCH-$$
	STAGE=$CHROOT$RSTAGE
	RUN=("${CHROOT_NS[@]}" "$CHROOT")
	RKDIR=${KDIR#"$CHROOT"}
else
	STAGE=$OUTDIR/src
	RUN=()
	RKDIR=$KDIR
	RSTAGE=$STAGE
fi
rm -rf "$STAGE" "$OUTDIR/modules"
mkdir -p "$STAGE" "$OUTDIR/modules"
echo "# Written by tests/lib/build-upstream-sm4.sh: upstream's SM4 modules." >"$STAGE/Kbuild"

module sm4 crypto sm4.c
module sm4_generic crypto sm4_generic.c
case $ARCH in
x86_64)
	cp "$UP"/arch/x86/crypto/sm4-avx.h "$STAGE/"
	module sm4-aesni-avx-x86_64 arch/x86/crypto \
		sm4-aesni-avx-asm_64.S sm4_aesni_avx_glue.c
	module sm4-aesni-avx2-x86_64 arch/x86/crypto \
		sm4-aesni-avx2-asm_64.S sm4_aesni_avx2_glue.c
	;;
arm64)
	cp "$UP"/arch/arm64/crypto/sm4-ce*.h "$STAGE/" 2>/dev/null || true
	module sm4-neon arch/arm64/crypto sm4-neon-glue.c sm4-neon-core.S
	module sm4-ce-cipher arch/arm64/crypto \
		sm4-ce-cipher-glue.c sm4-ce-cipher-core.S
	module sm4-ce arch/arm64/crypto sm4-ce-glue.c sm4-ce-core.S
	module sm4-ce-ccm arch/arm64/crypto sm4-ce-ccm-glue.c sm4-ce-ccm-core.S
	module sm4-ce-gcm arch/arm64/crypto sm4-ce-gcm-glue.c sm4-ce-gcm-core.S
	;;
esac
mkdir -p "$STAGE/abi-test"
cp "$REPO_ROOT"/tests/guest/kmod-upstream/* "$STAGE/abi-test/"

MARGS=(-C "$RKDIR" -j"$(nproc)")
[ "$ARCH" = arm64 ] && MARGS+=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
LOG=$OUTDIR/build.log
: >"$LOG"
[ -z "$CHROOT" ] || trap 'rm -rf "$STAGE"' EXIT

log "building upstream's $SERIES SM4 modules for $ARCH against $KDIR"
if ! timeout 1800 "${RUN[@]}" make "${MARGS[@]}" M="$RSTAGE" modules >>"$LOG" 2>&1 ||
		! timeout 600 "${RUN[@]}" make "${MARGS[@]}" M="$RSTAGE/abi-test" \
			KBUILD_EXTRA_SYMBOLS="$RSTAGE/Module.symvers" modules >>"$LOG" 2>&1; then
	tail -n 40 "$LOG" >&2
	die "building upstream's SM4 modules failed or timed out (log: $LOG)"
fi
MODULES+=("sm4_upstream_abi_test extra/sm4_upstream_abi_test.ko")
cp "$STAGE/abi-test/sm4_upstream_abi_test.ko" "$OUTDIR/modules/"

STRIP=strip
[ "$ARCH" = arm64 ] && STRIP=aarch64-linux-gnu-strip
: >"$OUTDIR/modules.list"
for m in "${MODULES[@]}"; do
	name=${m%% *}
	[ -f "$OUTDIR/modules/$name.ko" ] || cp "$STAGE/$name.ko" "$OUTDIR/modules/"
	"$STRIP" --strip-debug "$OUTDIR/modules/$name.ko"
	echo "$m" >>"$OUTDIR/modules.list"
done
[ -z "$CHROOT" ] || rm -rf "$STAGE"
# Kept for the next caller (one build per kernel and architecture).
rm -rf "$CACHE/upstream-sm4/$ARCH-$SERIES"-*
mkdir -p "$CACHED.tmp$$"
cp -a "$OUTDIR/modules" "$OUTDIR/modules.list" "$CACHED.tmp$$/"
touch "$CACHED.tmp$$/.complete"
mv "$CACHED.tmp$$" "$CACHED"
cat "$OUTDIR/modules.list"
