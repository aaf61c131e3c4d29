#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-tools.sh ARCH OUTDIR: build the guest's static test programs for
# ARCH (x86_64 or arm64/aarch64) into OUTDIR: sm4-afalg (the AF_ALG
# tester), sm4-fscrypt (the fscrypt ioctls) and sm4-net (kernel TLS,
# ESP capture).  Installs the (cross)
# compiler it needs.  Environment: CFLAGS (extra compiler flags).

set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/common.sh"

[ $# -eq 2 ] || die "usage: $0 ARCH OUTDIR"
ARCH=$1
OUTDIR=$2

case $(deb_arch "$ARCH") in
amd64)
	CC=gcc
	ensure_pkgs gcc libc6-dev
	;;
arm64)
	if [ "$(dpkg --print-architecture)" = arm64 ]; then
		CC=gcc
		ensure_pkgs gcc libc6-dev
	else
		CC=aarch64-linux-gnu-gcc
		ensure_pkgs gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	fi
	;;
esac

mkdir -p "$OUTDIR"
# shellcheck disable=SC2086
"$CC" -static -O2 -g0 -Wall -Wextra -Werror ${CFLAGS:-} \
	-I"$HERE/../common" \
	-o "$OUTDIR/sm4-afalg" \
	"$HERE/afalg/sm4-afalg.c" "$HERE/afalg/sm4-afalg-aead.c" \
	"$HERE/../common/sm4-vectors.c"
# shellcheck disable=SC2086
"$CC" -static -O2 -g0 -Wall -Wextra -Werror ${CFLAGS:-} \
	-o "$OUTDIR/sm4-fscrypt" "$HERE/fscrypt/sm4-fscrypt.c"
# shellcheck disable=SC2086
"$CC" -static -O2 -g0 -Wall -Wextra -Werror ${CFLAGS:-} \
	-o "$OUTDIR/sm4-net" "$HERE/net/sm4-net.c"
echo "$OUTDIR/sm4-afalg"
echo "$OUTDIR/sm4-fscrypt"
echo "$OUTDIR/sm4-net"
