#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the build and the tests need (idempotent:
# only what is missing is installed).  Run as root on a Debian 12
# (bookworm), 13 (trixie) or sid amd64 host: the packages are those of
# the host's suite (kernel headers and sources of its own kernel line).

set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

case $(dpkg --print-architecture) in
amd64) ;;
*) die "the test suite runs on Debian amd64 hosts only (found $(dpkg --print-architecture))" ;;
esac

# real_pkg PKG...: the first PKG this host's apt sources have as a real
# (not purely virtual) package.  sid has no qemu-user-static any more:
# its qemu-user is statically linked.
real_pkg()
{
	local p

	apt-cache show apt >/dev/null 2>&1 || _apt_update_once
	for p in "$@"; do
		case $(apt-cache show "$p" 2>/dev/null) in
		"Package: "*)
			echo "$p"
			return 0
			;;
		esac
	done
	die "none of the packages $* is in this host's apt sources (/etc/apt/sources.list*): run apt-get update"
}

PKGS=(
	build-essential bc bison flex libelf-dev libssl-dev kmod cpio rsync git
	linux-headers-amd64 linux-source libgcrypt20-dev sparse
	gcc-aarch64-linux-gnu "$(real_pkg qemu-user-static qemu-user)"
	qemu-system-x86 qemu-system-arm mmdebstrap arch-test
	dkms debhelper dh-dkms e2fsprogs gnuplot-nox python3 zstd xz-utils
	"$(real_pkg llvm-19 llvm)"
)
ensure_pkgs "${PKGS[@]}"
# The check: every package is installed now.
missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "PASS: deps: all ${#PKGS[@]} packages the tests need are installed"
else
	echo "FAIL: deps: not installed: ${missing[*]}"
	exit 1
fi
