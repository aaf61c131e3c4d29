#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-tcrypt.sh [KDIR] [OUTDIR]
#
# Build the kernel's crypto/tcrypt.c, with this project's patches from
# tcrypt-patches/<major.minor>/ applied, as an out-of-tree module for the
# kernel tree KDIR (default: /lib/modules/$(uname -r)/build).
#
# The module is called sm4_tcrypt.ko so that it never shadows or replaces
# the distribution's tcrypt.ko: load it by path in a test guest, e.g.
#   insmod sm4_tcrypt.ko mode=218 sec=1
# Like tcrypt.ko it runs the tests from its init function and then fails
# to load on purpose (-EAGAIN), so nothing stays resident.  Its messages
# start with "sm4_tcrypt: "; tools/tcrypt-table.py parses them.
#
# The sources come from Debian's linux-source-<major.minor> package
# (installed when missing); only crypto/tcrypt.c and the headers of crypto/
# are extracted, into
# $SM4_CACHE/tcrypt-src (default .cache/tcrypt-src).  Everything else is
# built in OUTDIR (default .cache/tcrypt/<arch>-<kernel release>); the
# module ends up at OUTDIR/sm4_tcrypt.ko and its path is printed.
#
# TCRYPT_SOURCE=<linux-source-X.Y .deb or .tar.xz>: use that instead of the
# installed package (for a series the apt sources do not carry).
# TCRYPT_PREPARE_ONLY=1: stop after patching and print the directory to
# build with "make -C KDIR M=<dir> modules" (e.g. inside a chroot that has
# the compiler the kernel was built with).
#
# Cross builds: pass ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- in the
# environment and the arm64 headers as KDIR (tests/lib/build-modules.sh
# prepares them under .cache/headers/).

set -euo pipefail
. "$(dirname "$0")/../tests/lib/common.sh"

[ $# -le 2 ] || die "usage: $0 [KDIR] [OUTDIR]"
KDIR=${1:-/lib/modules/$(uname -r)/build}
[ -f "$KDIR/Makefile" ] || die "no kernel build tree at $KDIR"
KDIR=$(cd "$KDIR" && pwd)

# Kernel version of KDIR: "6.1.192" -> series "6.1".
kernel_version()
{
	local f v

	f="$KDIR/include/config/kernel.release"
	if [ -f "$f" ]; then
		v=$(cat "$f")
	else
		f="$KDIR/include/generated/uapi/linux/version.h"
		[ -f "$f" ] || die "cannot tell the kernel version of $KDIR"
		v=$(awk '/LINUX_VERSION_MAJOR/ { M = $3 }
			 /LINUX_VERSION_PATCHLEVEL/ { m = $3 }
			 END { print M "." m }' "$f")
	fi
	echo "$v"
}

KREL=$(kernel_version)
SERIES=$(echo "$KREL" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
[ -n "$SERIES" ] || die "cannot parse kernel version '$KREL' of $KDIR"
PATCHDIR="$REPO_ROOT/tcrypt-patches/$SERIES"
[ -d "$PATCHDIR" ] || die "no tcrypt patches for Linux $SERIES (expected $PATCHDIR)"

MAKE_ARCH=${ARCH:-$(uname -m)}
case $MAKE_ARCH in
aarch64) MAKE_ARCH=arm64 ;;
esac
UTS=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
	"$KDIR/include/generated/utsrelease.h" 2>/dev/null || true)
OUTDIR=${2:-$CACHE/tcrypt/$MAKE_ARCH-${UTS:-$KREL}}
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)

# Extract crypto/tcrypt.c and the headers of crypto/ from the distribution
# source, once per package version.  TCRYPT_SOURCE may name the
# linux-source-<series> .deb (or the .tar.xz inside it) for a kernel
# series this system's apt sources do not have (e.g. 7.2 on Debian 12).
PKG=linux-source-$SERIES
ensure_pkgs xz-utils patch
if [ -n "${TCRYPT_SOURCE:-}" ]; then
	[ -f "$TCRYPT_SOURCE" ] || die "TCRYPT_SOURCE=$TCRYPT_SOURCE: no such file"
	PKGVER=$(basename "$TCRYPT_SOURCE")
	PKGVER=${PKGVER#"$PKG"_}
	PKGVER=${PKGVER%%_*}
	PKGVER=${PKGVER%.tar.xz}
	TARBALL=$TCRYPT_SOURCE
else
	ensure_pkgs "$PKG"
	PKGVER=$(dpkg-query -W -f='${Version}' "$PKG")
	TARBALL=/usr/src/linux-source-$SERIES.tar.xz
	[ -f "$TARBALL" ] || die "$PKG is installed but $TARBALL is missing"
fi
ORIG="$CACHE/tcrypt-src/$SERIES-$PKGVER"
mkdir -p "$CACHE/tcrypt-src"
exec 7>"$CACHE/tcrypt-src/.$SERIES.lock"
flock 7
if [ ! -e "$ORIG/.complete" ]; then
	log "extracting crypto/tcrypt.c and crypto/*.h from $TARBALL"
	rm -rf "$ORIG"
	mkdir -p "$ORIG"
	# tcrypt.c includes local headers ("tcrypt.h"; "internal.h" since
	# 6.x): take every header of crypto/ itself, they are small.
	members=("linux-source-$SERIES/crypto/tcrypt.c"
		 "linux-source-$SERIES/crypto/*.h")
	case $TARBALL in
	*.deb)
		dpkg-deb --fsys-tarfile "$TARBALL" |
			tar -xO "./usr/src/linux-source-$SERIES.tar.xz" |
			tar -xJ -C "$ORIG" --strip-components=1 \
				--wildcards --no-wildcards-match-slash \
				"${members[@]}"
		;;
	*)
		tar -xJf "$TARBALL" -C "$ORIG" --strip-components=1 \
			--wildcards --no-wildcards-match-slash "${members[@]}"
		;;
	esac
	[ -f "$ORIG/crypto/tcrypt.c" ] && [ -f "$ORIG/crypto/tcrypt.h" ] ||
		die "no crypto/tcrypt.[ch] in $TARBALL"
	touch "$ORIG/.complete"
fi
flock -u 7

# Fresh patched copy: a tree layout as in the kernel so that the patches
# apply with -p1 exactly as on the full source.
SRC="$OUTDIR/src"
rm -rf "$SRC"
mkdir -p "$SRC/crypto"
cp "$ORIG"/crypto/tcrypt.c "$ORIG"/crypto/*.h "$SRC/crypto/"
npatches=0
for p in "$PATCHDIR"/*.patch; do
	[ -e "$p" ] || continue
	log "applying $(basename "$p")"
	patch -d "$SRC" -p1 --forward --batch --quiet <"$p" ||
		die "$(basename "$p") does not apply to $PKG $PKGVER"
	npatches=$((npatches + 1))
done
[ "$npatches" -gt 0 ] || die "no patches in $PATCHDIR"

cat >"$SRC/crypto/Kbuild" <<'EOF'
# SPDX-License-Identifier: GPL-2.0
# Generated by tools/build-tcrypt.sh.
obj-m := sm4_tcrypt.o
sm4_tcrypt-y := tcrypt.o
EOF

if [ -n "${TCRYPT_PREPARE_ONLY:-}" ]; then
	# The caller builds (e.g. inside a chroot with the kernel's compiler).
	echo "$SRC/crypto"
	exit 0
fi

MAKEARGS=(-C "$KDIR" M="$SRC/crypto" -j"$(nproc)")
STRIP="strip"
if [ -n "${ARCH:-}" ]; then
	MAKEARGS+=(ARCH="$ARCH")
fi
if [ -n "${CROSS_COMPILE:-}" ]; then
	MAKEARGS+=(CROSS_COMPILE="$CROSS_COMPILE")
	STRIP=${CROSS_COMPILE}strip
fi

LOG="$OUTDIR/build.log"
log "building sm4_tcrypt.ko for $KREL ($MAKE_ARCH) against $KDIR"
if ! make "${MAKEARGS[@]}" modules >"$LOG" 2>&1; then
	tail -n 40 "$LOG" >&2
	die "tcrypt build failed (full log: $LOG)"
fi
cp "$SRC/crypto/sm4_tcrypt.ko" "$OUTDIR/sm4_tcrypt.ko"
"$STRIP" --strip-debug "$OUTDIR/sm4_tcrypt.ko"
echo "$OUTDIR/sm4_tcrypt.ko"
