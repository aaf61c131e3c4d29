#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-deb.sh [--version VERSION] [OUTDIR]
#
# Build the Debian package sm4-crypto-dkms (debian/, dh-dkms) out of the
# checkout, as version VERSION (default: what tools/version.sh prints,
# 0.2.0~git<YYYYMMDD>.<hash> from a git checkout): the tracked and
# untracked, non-ignored files are copied to OUTDIR/sm4-crypto-VERSION
# (default OUTDIR: build/deb of the checkout, which git ignores), VERSION
# is stamped into the copy (PACKAGE_VERSION of its dkms.conf, and a new
# newest entry of its debian/changelog: tools/version.sh --stamp) and
# dpkg-buildpackage runs there, so nothing is written into the checkout.
# A test can thus build a version and a higher one from one checkout.
# The .deb, the native source package (.dsc, .tar.xz), .buildinfo and
# .changes land in OUTDIR; prints the path of the .deb.  Needs the
# Build-Depends of debian/control: "make deb" does not install them.

set -euo pipefail
. "$(dirname "$0")/../tests/lib/common.sh"

version_args OUTDIR "$@"
OUTDIR=$(mkdir -p "${ARG:-$REPO_ROOT/build/deb}" && cd "${ARG:-$REPO_ROOT/build/deb}" && pwd)

SRC=$OUTDIR/sm4-crypto-$VERSION
rm -rf "$SRC" "$OUTDIR"/sm4-crypto*_"$VERSION"[._]*
mkdir -p "$SRC"
# The tracked and untracked, non-ignored files of a git checkout; every
# file of anything else (the unpacked source package; a copy inside a
# checkout's ignored build/ is not the checkout).
if [ "$(git -C "$REPO_ROOT" rev-parse --show-toplevel 2>/dev/null)" = "$REPO_ROOT" ]; then
	git -C "$REPO_ROOT" ls-files -z -c -o --exclude-standard
else
	(cd "$REPO_ROOT" && find . -path ./.cache -prune -o -path ./build \
		-prune -o -type f -print0)
fi | (cd "$REPO_ROOT" && xargs -0 -r sh -c \
	'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh) |
	(cd "$REPO_ROOT" && cpio -0 -pdm --quiet "$SRC")

"$REPO_ROOT/tools/version.sh" --stamp "$SRC" "$VERSION" ||
	die "cannot stamp version $VERSION into $SRC"
SM4_VERSION_ROOT=$SRC "$REPO_ROOT/tools/check-version.sh" --package >&2 ||
	die "the versions of $SRC disagree (see the FAIL lines above)"

(cd "$SRC" && dpkg-checkbuilddeps) >&2 ||
	die "install the Build-Depends above (apt-get build-dep $SRC)"
log "dpkg-buildpackage in $SRC"
(cd "$SRC" && timeout 600 dpkg-buildpackage -us -uc) \
	>"$OUTDIR/build.log" 2>&1 || {
	tail -n 30 "$OUTDIR/build.log" >&2
	die "dpkg-buildpackage failed or timed out (log: $OUTDIR/build.log)"
}
DEB=$OUTDIR/sm4-crypto-dkms_${VERSION}_all.deb
[ -f "$DEB" ] || die "no $DEB after the build (log: $OUTDIR/build.log)"
echo "$DEB"
