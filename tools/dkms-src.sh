#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms-src.sh [DEST]
#
# Copy the sources DKMS needs (the Kbuild and Makefile, dkms.conf, and the
# module sources under include/ lib/ crypto/ arch/) into DEST, by default
# /usr/src/sm4-crypto-<PACKAGE_VERSION of dkms.conf>, which is where
# "dkms add -m sm4-crypto -v <version>" looks for them.  DEST is replaced,
# not merged, so a file deleted from the tree does not survive there.
# Prints DEST.  Tests, tools and caches are not copied.

set -euo pipefail
. "$(dirname "$0")/../tests/lib/common.sh"

[ $# -le 1 ] || die "usage: $0 [DEST]"
VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$REPO_ROOT/dkms.conf")
NAME=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' "$REPO_ROOT/dkms.conf")
[ -n "$VERSION" ] && [ -n "$NAME" ] || die "cannot read dkms.conf"
DEST=${1:-/usr/src/$NAME-$VERSION}

# list_sources: NUL-separated relative paths of the files to ship.
list_sources()
{
	if git -C "$REPO_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$REPO_ROOT" ls-files -z -c -o --exclude-standard -- \
			Kbuild Makefile dkms.conf VERSION 'LICENSE*' COPYING \
			'README*' include lib crypto arch |
			grep -z -E '(^|/)(Kbuild[^/]*|Makefile|dkms\.conf|VERSION|LICENSE[^/]*|COPYING|README[^/]*|[^/.][^/]*\.[chS])$'
	else
		(cd "$REPO_ROOT" && find Kbuild Makefile dkms.conf include lib \
			crypto arch -type f \
			\( -name '*.[chS]' -o -name 'Kbuild*' -o -name Makefile \
			   -o -name dkms.conf \) -print0)
	fi
}

TMP="$DEST.tmp.$$"
rm -rf "$TMP"
mkdir -p "$TMP"
list_sources |
	(cd "$REPO_ROOT" && xargs -0 -r sh -c \
		'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh) |
	(cd "$REPO_ROOT" && cpio -0 -pdm --quiet "$TMP")
[ -f "$TMP/dkms.conf" ] && [ -f "$TMP/Kbuild" ] ||
	die "source copy in $TMP is incomplete"
rm -rf "$DEST"
mv "$TMP" "$DEST"
echo "$DEST"
