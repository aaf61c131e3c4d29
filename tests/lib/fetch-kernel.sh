#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh ARCH [KVER]
#
# Download Debian's linux-image-KVER-FLAVOUR for ARCH (x86_64 or arm64) and
# unpack it under .cache/kernel/ARCH-KVER (idempotent).  Prints that
# directory; the kernel is boot/vmlinuz-KVER-FLAVOUR and the modules are
# in lib/modules/KVER-FLAVOUR.  KVER defaults to the version of the
# installed linux-headers-amd64.

set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 ARCH [KVER]"
ARCH=$1
KVER=$(norm_kver "${2:-$(detect_kver)}")
DARCH=$(deb_arch "$ARCH")
FLAVOUR=$(kernel_flavour "$ARCH")
DEST="$CACHE/kernel/$ARCH-$KVER"

mkdir -p "$CACHE/kernel"
exec 9>"$CACHE/kernel/.$ARCH-$KVER.lock"
flock 9

if [ ! -e "$DEST/.complete" ]; then
	ensure_foreign_arch "$DARCH"
	deb=$(apt_download "linux-image-$KVER-$FLAVOUR:$DARCH" "$CACHE/debs")
	rm -rf "$DEST"
	unpack_deb "$deb" "$DEST"
	[ -e "$DEST/boot/vmlinuz-$KVER-$FLAVOUR" ] ||
		die "$deb has no boot/vmlinuz-$KVER-$FLAVOUR"
	[ -d "$DEST/lib/modules/$KVER-$FLAVOUR/kernel" ] ||
		die "$deb has no lib/modules/$KVER-$FLAVOUR"
	touch "$DEST/.complete"
fi
echo "$DEST"
