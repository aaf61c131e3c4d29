#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms-src.sh [--version VERSION] [DEST]
#
# Copy the sources DKMS needs (the Kbuild and Makefile, dkms.conf, and the
# module sources under include/ lib/ crypto/ arch/) into DEST, by default
# /usr/src/sm4-crypto-<VERSION>, which is where
# "dkms add -m sm4-crypto -v <VERSION>" looks for them, and stamp VERSION
# (default: what tools/version.sh prints for this tree) into the copy's
# dkms.conf, whose Kbuild makes it every module's MODULE_VERSION.  DEST
# is replaced, not merged, so a file deleted from the tree does not
# survive there.  Prints DEST.  Tests, tools and caches are not copied.

set -euo pipefail
. "$(dirname "$0")/../tests/lib/common.sh"

version_args DEST "$@"
NAME=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' "$REPO_ROOT/dkms.conf")
[ -n "$NAME" ] || die "cannot read PACKAGE_NAME from dkms.conf"
DEST=${ARG:-/usr/src/$NAME-$VERSION}

# list_sources: NUL-separated relative paths of the files to ship: the
# tracked and untracked, non-ignored files if REPO_ROOT is the top of a
# git checkout, else every file (a copy, e.g. the package build under
# build/deb, which git would see as ignored files), under the paths
# below, filtered by name.
list_sources()
{
	local paths=(Kbuild Makefile dkms.conf include lib crypto arch)

	if [ "$(git -C "$REPO_ROOT" rev-parse --show-toplevel 2>/dev/null)" = \
			"$REPO_ROOT" ]; then
		git -C "$REPO_ROOT" ls-files -z -c -o --exclude-standard -- \
			"${paths[@]}"
	else
		(cd "$REPO_ROOT" && find "${paths[@]}" -type f -print0)
	fi | grep -z -E '(^|/)(Kbuild[^/]*|Makefile|dkms\.conf|[^/.][^/]*\.[chS])$'
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
"$REPO_ROOT/tools/version.sh" --stamp "$TMP" "$VERSION" >&2 ||
	die "cannot stamp version $VERSION into $TMP/dkms.conf"
rm -rf "$DEST"
mv "$TMP" "$DEST"
echo "$DEST"
