#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the build and the tests need (idempotent:
# only what is missing is installed).  Run as root on Debian 12.

set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

PKGS=(
	build-essential bc bison flex libelf-dev libssl-dev kmod cpio rsync
	linux-headers-amd64 libgcrypt20-dev sparse
	gcc-aarch64-linux-gnu qemu-user-static
	qemu-system-x86 qemu-system-arm busybox-static mmdebstrap arch-test
	linux-source-6.1 dkms gnuplot-nox python3 zstd xz-utils
)
case $(dpkg --print-architecture) in
amd64) ;;
*) die "the test suite runs on Debian amd64 hosts only (found $(dpkg --print-architecture))" ;;
esac
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
