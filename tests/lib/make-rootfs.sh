#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-rootfs.sh ARCH
#
# Build (once, cached under .cache/rootfs/) the guest userland for ARCH
# (x86_64 or arm64): Debian 12 packages extracted by mmdebstrap, trimmed of
# documentation, as an uncompressed newc cpio archive.  Prints the path of
# that archive.  The kernel concatenates it with the per-run archive that
# carries /init, the modules and the test data.

set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -eq 1 ] || die "usage: $0 ARCH"
ARCH=$1
DARCH=$(deb_arch "$ARCH")
SUITE=bookworm
PKGS=busybox-static,kmod,cryptsetup-bin,e2fsprogs,iproute2
# The cache key changes whenever the package list or this script changes.
KEY=$( (echo "$SUITE $PKGS"; cat "$0") | sha256sum | cut -c1-12)
DIR="$CACHE/rootfs/$ARCH-$KEY"
OUT="$DIR/rootfs.cpio"

mkdir -p "$CACHE/rootfs"
exec 9>"$CACHE/rootfs/.$ARCH.lock"
flock 9
if [ ! -e "$OUT" ]; then
	ensure_pkgs mmdebstrap cpio
	rm -rf "$DIR"
	mkdir -p "$DIR"
	log "extracting $SUITE userland for $DARCH ($PKGS)"
	extract()
	{
		rm -rf "$DIR/root"
		timeout 1200 mmdebstrap --quiet --variant=extract \
			--architectures="$DARCH" --include="$PKGS" "$SUITE" \
			"$DIR/root" "$DEBIAN_MIRROR" >&2
	}
	retry 2 "mmdebstrap of the $SUITE userland" extract ||
		die "mmdebstrap of the $SUITE userland for $DARCH failed or took over 20 min"
	(
		cd "$DIR/root"
		rm -rf usr/share/doc usr/share/man usr/share/info \
			usr/share/locale usr/share/lintian usr/share/bug \
			usr/lib/*/gconv var/cache/apt var/lib/apt etc/apt \
			var/lib/dpkg var/log/*
		# Of iproute2 only ip (part 11: netns, veth, xfrm), without
		# the other tools and what only they (and debconf) need.
		rm -rf sbin/bridge sbin/dcb sbin/devlink sbin/rtacct sbin/rtmon \
			sbin/tc sbin/tipc sbin/vdpa bin/ss usr/bin/rdma \
			usr/sbin/arpd usr/sbin/genl usr/bin/debconf* \
			usr/share/perl5 usr/share/debconf usr/lib/*/libdb-5* \
			usr/lib/*/libkrb5* usr/lib/*/libgssapi_krb5* \
			usr/lib/*/libk5crypto* lib/*/libtirpc* usr/lib/*/libtirpc* \
			usr/lib/*/krb5 usr/lib/*/tc
		# A shell for scripts (#!/bin/sh); busybox provides the
		# rest of the small tools (the init script installs its
		# applet links under /bb).
		[ -e bin/sh ] || ln -s busybox bin/sh
		mkdir -p proc sys dev run tmp mnt root etc
		: >etc/fstab
		echo 'root:x:0:0:root:/root:/bin/sh' >etc/passwd
		echo 'root:x:0:' >etc/group
		find . -print0 | LC_ALL=C sort -z |
			cpio -0 -o -H newc -R 0:0 --quiet >"$OUT.tmp"
	)
	mv "$OUT.tmp" "$OUT"
fi
echo "$OUT"
