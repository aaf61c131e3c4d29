# SPDX-License-Identifier: GPL-2.0
#
# Shell helpers shared by the test scripts (sourced, not executed).
#
# Provides: REPO_ROOT, CACHE, log/die, ensure_pkgs, detect_kver, deb_arch,
# kernel_flavour, ensure_foreign_arch, apt_download, unpack_deb.

# shellcheck shell=bash

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${SM4_CACHE:-$REPO_ROOT/.cache}

log()
{
	printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

die()
{
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# Serialise apt/dpkg calls of concurrent test scripts on this machine.
_apt_locked()
{
	mkdir -p "$CACHE"
	flock "$CACHE/.apt.lock" "$@"
}

_apt_updated=
_apt_update_once()
{
	[ -n "$_apt_updated" ] && return 0
	_apt_locked apt-get update -qq >&2 || die "apt-get update failed"
	_apt_updated=1
}

# ensure_pkgs PKG...: install the Debian packages that are not installed.
ensure_pkgs()
{
	local missing=() p

	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	if ! _apt_locked env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq "${missing[@]}" >&2; then
		_apt_update_once
		_apt_locked env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq "${missing[@]}" >&2 ||
			die "cannot install ${missing[*]}"
	fi
}

# detect_kver: the ABI version (e.g. 6.1.0-57) of the installed
# linux-headers-amd64 meta-package.
detect_kver()
{
	local dep

	dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null) ||
		die "linux-headers-amd64 is not installed: pass KVER explicitly"
	dep=${dep%% *}
	dep=${dep#linux-headers-}
	echo "${dep%-amd64}"
}

# norm_kver KVER: accept 6.1.0-57 as well as 6.1.0-57-amd64.
norm_kver()
{
	local k=$1

	k=${k%-amd64}
	echo "${k%-arm64}"
}

# deb_arch ARCH: Debian architecture name for x86_64/arm64.
deb_arch()
{
	case $1 in
	x86_64|amd64) echo amd64 ;;
	arm64|aarch64) echo arm64 ;;
	*) die "unsupported architecture '$1' (x86_64 or arm64)" ;;
	esac
}

# kernel_flavour ARCH: Debian kernel flavour (amd64 / arm64).
kernel_flavour()
{
	deb_arch "$1"
}

ensure_foreign_arch()
{
	local a=$1

	[ "$a" = "$(dpkg --print-architecture)" ] && return 0
	dpkg --print-foreign-architectures | grep -qx "$a" && return 0
	log "enabling dpkg architecture $a"
	_apt_locked dpkg --add-architecture "$a"
	_apt_updated=
	_apt_update_once
}

# apt_download PKG[:ARCH] DIR: fetch the .deb into DIR (cached), print
# its path.
apt_download()
{
	local pkg=$1 dir=$2 name arch f

	name=${pkg%%:*}
	arch=${pkg#*:}
	[ "$arch" = "$pkg" ] && arch=$(dpkg --print-architecture)
	mkdir -p "$dir"
	f=$(ls "$dir/${name}_"*"_${arch}.deb" "$dir/${name}_"*"_all.deb" \
		2>/dev/null | head -n1)
	if [ -z "$f" ]; then
		log "downloading $pkg"
		if ! (cd "$dir" && apt-get download -qq -o APT::Sandbox::User=root "$pkg" >&2); then
			_apt_update_once
			(cd "$dir" && apt-get download -qq -o APT::Sandbox::User=root "$pkg" >&2) ||
				die "apt-get download $pkg failed"
		fi
		f=$(ls "$dir/${name}_"*"_${arch}.deb" \
			"$dir/${name}_"*"_all.deb" 2>/dev/null | head -n1)
	fi
	[ -n "$f" ] || die "no .deb for $pkg in $dir"
	echo "$f"
}

# unpack_deb DEB DIR: dpkg-deb -x into DIR, once (stamp file per .deb).
unpack_deb()
{
	local deb=$1 dir=$2 stamp

	stamp="$dir/.unpacked-$(basename "$deb")"
	[ -e "$stamp" ] && return 0
	mkdir -p "$dir"
	dpkg-deb -x "$deb" "$dir" || die "cannot unpack $deb"
	touch "$stamp"
}
