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
#   suite_download SUITE PKG DIR
#                         download PKG (amd64 or all) from Debian SUITE
#                         into DIR once, print the .deb's path.

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

# _suite_apt SUITE ARGS...: apt-get with a private configuration that sees
# only SUITE's main archive (amd64 and all), lists under $CACHE.
_suite_apt()
{
	local suite=$1 dir="$CACHE/apt-$1"

	shift
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
		"${SM4_DEBIAN_MIRROR:-http://deb.debian.org/debian}" "$suite" \
		>"$dir/sources.list"
	timeout 600 apt-get -q \
		-o Dir::Etc::SourceList="$dir/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$dir/lists" \
		-o Dir::Cache="$dir/cache" \
		-o APT::Architectures=amd64 -o Acquire::Languages=none \
		-o Acquire::Check-Valid-Until=false \
		-o APT::Sandbox::User=root "$@"
}

suite_download()
{
	local suite=$1 pkg=$2 dir=$3 deb

	mkdir -p "$dir"
	deb=$(ls "$dir/${pkg}_"*_all.deb "$dir/${pkg}_"*_amd64.deb 2>/dev/null | tail -n1)
	if [ -z "$deb" ]; then
		log "downloading $pkg from $suite"
		_suite_apt "$suite" update >&2 ||
			die "apt-get update for $suite failed or timed out"
		(cd "$dir" && _suite_apt "$suite" download "$pkg" >&2) ||
			die "downloading $pkg from $suite failed or timed out"
		deb=$(ls "$dir/${pkg}_"*_all.deb "$dir/${pkg}_"*_amd64.deb 2>/dev/null | tail -n1)
	fi
	[ -n "$deb" ] || die "no .deb of $pkg in $dir"
	echo "$deb"
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
	if [ ! -e "$tar" ]; then
		mkdir -p "${tar%/*}"
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xO "./usr/src/linux-source-$series.tar.xz" >"$tar.tmp" ||
			die "cannot unpack $deb"
		mv "$tar.tmp" "$tar"
	fi
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
		nice timeout 600 tar -xf "$tar" -C "$root" --wildcards \
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
