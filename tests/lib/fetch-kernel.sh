#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh ARCH SUITE ABI
#
# Download Debian's kernel image of ABI (e.g. 6.12.117+deb13) for ARCH
# (x86_64 or arm64) from SUITE (bookworm, trixie, sid) and unpack it under
# .cache/kernel/ARCH-ABI (idempotent).  Prints that directory, which then
# holds:
#   kernel.env        KREL=<ABI>-<flavour> VMLINUZ=<path> MODDIR=<path>
#   lib/modules/KREL  the modules (a symlink where the package installs
#                     them under usr/lib/modules)
#
# Nothing about the package layout is assumed: the packages are the image
# package and whatever linux-image-/linux-binary-/linux-modules- packages
# it depends on (sid's 7.x splits the image into linux-binary-* and
# linux-modules-*), and the kernel and the modules are found through the
# file lists of those packages (dpkg-deb -c): bookworm installs
# /boot/vmlinuz-KREL and /lib/modules/KREL, trixie /usr/lib/modules, sid
# /usr/lib/modules/KREL/vmlinuz with .ko.xz modules.

set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -eq 3 ] || die "usage: $0 ARCH SUITE ABI"
ARCH=$1
SUITE=$2
ABI=$(norm_kver "$3")
DARCH=$(deb_arch "$ARCH")
FLAVOUR=$(kernel_flavour "$ARCH")
KREL=$ABI-$FLAVOUR
DEST="$CACHE/kernel/$ARCH-$ABI"

mkdir -p "$CACHE/kernel"
exec 9>"$CACHE/kernel/.$ARCH-$ABI.lock"
flock 9

# kernel_packages PKG: PKG and the kernel packages it depends on, one
# level at a time (names only, for DARCH).
kernel_packages()
{
	local todo=("$1") seen=" " p d

	while [ ${#todo[@]} -gt 0 ]; do
		p=${todo[0]}
		todo=("${todo[@]:1}")
		case $seen in *" $p "*) continue ;; esac
		seen="$seen$p "
		echo "$p"
		for d in $(suite_apt "$SUITE" apt-cache depends --no-recommends \
				--no-suggests --no-conflicts --no-breaks \
				--no-replaces --no-enhances "$p:$DARCH" 2>/dev/null |
				sed -n 's/^ *\(Pre\)\{0,1\}Depends: \([^ <>]*\).*/\2/p'); do
			d=${d%:"$DARCH"}
			case $d in
			linux-image-"$ABI"*|linux-binary-"$ABI"*|linux-modules-"$ABI"*)
				todo+=("$d") ;;
			esac
		done
	done
}

if [ ! -e "$DEST/.complete" ]; then
	rm -rf "$DEST"
	mkdir -p "$DEST"
	pkgs=$(kernel_packages "linux-image-$KREL")
	if ! suite_apt "$SUITE" apt-cache show "linux-image-$KREL:$DARCH" >/dev/null 2>&1; then
		die "$SUITE has no package linux-image-$KREL (the archive moved on? remove $CACHE/chroots/$SUITE to rebuild against its current kernel)"
	fi
	vmlinuz=
	moddir=
	for p in $pkgs; do
		deb=$(suite_download "$SUITE" "$p:$DARCH" "$CACHE/debs")
		list=$(dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's,^\./,,')
		v=$(echo "$list" | grep -Fx -e "boot/vmlinuz-$KREL" \
			-e "lib/modules/$KREL/vmlinuz" \
			-e "usr/lib/modules/$KREL/vmlinuz" | head -n1 || true)
		m=$(echo "$list" | grep -Fx -e "lib/modules/$KREL/kernel/" \
			-e "usr/lib/modules/$KREL/kernel/" | head -n1 || true)
		[ -n "$v" ] && vmlinuz=$v
		[ -n "$m" ] && moddir=${m%/kernel/}
		dpkg-deb -x "$deb" "$DEST" || die "cannot unpack $deb"
	done
	[ -n "$vmlinuz" ] && [ -e "$DEST/$vmlinuz" ] ||
		die "no kernel image (boot/vmlinuz-$KREL or lib/modules/$KREL/vmlinuz) in the packages $(echo "$pkgs" | tr '\n' ' ')(see dpkg-deb -c on them in $CACHE/debs)"
	[ -n "$moddir" ] ||
		die "no lib/modules/$KREL/kernel in the packages $(echo "$pkgs" | tr '\n' ' ')(see dpkg-deb -c on them in $CACHE/debs)"
	if [ "$moddir" != "lib/modules/$KREL" ]; then
		mkdir -p "$DEST/lib/modules"
		ln -sfn "../../$moddir" "$DEST/lib/modules/$KREL"
	fi
	cat >"$DEST/kernel.env" <<EOF
KREL=$KREL
VMLINUZ=$DEST/$vmlinuz
MODDIR=$DEST/lib/modules/$KREL
KPKGS='$(echo "$pkgs" | tr '\n' ' ')'
EOF
	touch "$DEST/.complete"
fi
echo "$DEST"
