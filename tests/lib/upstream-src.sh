# SPDX-License-Identifier: GPL-2.0
#
# Upstream Linux SM4 sources of a Debian kernel series, for tests that
# build upstream's own modules as a reference (sourced, not executed;
# needs tests/lib/common.sh).  Nothing extracted here is committed: it is
# read and built under $CACHE only.
#
# Provides:
#   upstream_src SERIES   extract the SM4 files of linux-source-SERIES
#                         (6.1: the host's package; 6.12: trixie's; 7.2:
#                         sid's, downloaded with a private apt
#                         configuration) into $CACHE/upstream-src/SERIES
#                         once, and print the directory (a kernel tree
#                         holding only those files).

# shellcheck shell=bash

# The Debian suite that ships linux-source-SERIES.
_upstream_suite()
{
	case $1 in
	6.1) echo bookworm ;;
	6.12) echo trixie ;;
	7.*) echo sid ;;
	*) die "no Debian suite known for linux-source-$1" ;;
	esac
}

# _upstream_tarball SERIES: print the path of linux-source-SERIES.tar.xz.
_upstream_tarball()
{
	local series=$1 suite deb tar

	suite=$(_upstream_suite "$series")
	if [ "$suite" = bookworm ]; then
		ensure_pkgs "linux-source-$series"
		echo "/usr/src/linux-source-$series.tar.xz"
		return
	fi
	deb=$(suite_download "$suite" "linux-source-$series" "$CACHE/debs") || exit 1
	tar="$CACHE/upstream-src/$series/linux-source-$series.tar.xz"
	mkdir -p "${tar%/*}"
	# One unpacker at a time (the debug kernels' and the ABI's builds
	# may ask for the same tarball at once).
	(
		flock 6
		[ -e "$tar" ] && exit 0
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xO "./usr/src/linux-source-$series.tar.xz" >"$tar.tmp" ||
			die "cannot unpack $deb"
		mv "$tar.tmp" "$tar"
	) 6>"$tar.lock" || exit 1
	echo "$tar"
}

upstream_src()
{
	local series=$1 root="$CACHE/upstream-src/$1" tar top

	top=$root/linux-source-$series
	mkdir -p "$root"
	exec 7>"$root/.lock"
	flock 7
	if [ ! -e "$root/.complete" ]; then
		tar=$(_upstream_tarball "$series")
		rm -rf "$top"
		log "extracting the SM4 sources of $tar"
		timeout 600 tar -xf "$tar" -C "$root" --wildcards \
			"linux-source-$series/crypto/sm4*" \
			"linux-source-$series/include/crypto/sm4.h" \
			"linux-source-$series/arch/x86/crypto/sm4*" \
			"linux-source-$series/arch/arm64/crypto/sm4*" ||
			die "cannot extract the SM4 sources from $tar"
		echo "$tar" >"$root/.complete"
	fi
	flock -u 7
	exec 7>&-
	echo "$top"
}
