#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-deb.sh [OUTDIR]
#
# Build the Debian package sm4-crypto-dkms (debian/, dh-dkms) out of the
# checkout: the tracked and untracked, non-ignored files are copied to
# OUTDIR/sm4-crypto-<version> (default OUTDIR: build/deb of the checkout,
# which git ignores) and dpkg-buildpackage runs there, so nothing is
# written into the checkout.  The .deb, the native source package (.dsc,
# .tar.xz), .buildinfo and .changes land in OUTDIR; prints the path of the .deb.  Needs the Build-Depends of
# debian/control (debhelper, dh-dkms): "make deb" does not install them.

set -euo pipefail
. "$(dirname "$0")/../tests/lib/common.sh"

[ $# -le 1 ] || die "usage: $0 [OUTDIR]"
OUTDIR=$(mkdir -p "${1:-$REPO_ROOT/build/deb}" && cd "${1:-$REPO_ROOT/build/deb}" && pwd)
VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$REPO_ROOT/dkms.conf")
[ -n "$VERSION" ] || die "cannot read PACKAGE_VERSION from dkms.conf"
"$REPO_ROOT/tools/check-version.sh" >&2 ||
	die "the versions disagree (see the FAIL lines above)"

SRC=$OUTDIR/sm4-crypto-$VERSION
rm -rf "$SRC" "$OUTDIR"/sm4-crypto*_"$VERSION"[._]*
mkdir -p "$SRC"
if git -C "$REPO_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$REPO_ROOT" ls-files -z -c -o --exclude-standard
else
	(cd "$REPO_ROOT" && find . -path ./.cache -prune -o -path ./build \
		-prune -o -type f -print0)
fi | (cd "$REPO_ROOT" && xargs -0 -r sh -c \
	'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh) |
	(cd "$REPO_ROOT" && cpio -0 -pdm --quiet "$SRC")

(cd "$SRC" && dpkg-checkbuilddeps) >&2 ||
	die "install the Build-Depends above (apt-get install debhelper dh-dkms)"
log "dpkg-buildpackage in $SRC"
(cd "$SRC" && timeout 600 dpkg-buildpackage -us -uc) \
	>"$OUTDIR/build.log" 2>&1 || {
	tail -n 30 "$OUTDIR/build.log" >&2
	die "dpkg-buildpackage failed or timed out (log: $OUTDIR/build.log)"
}
DEB=$OUTDIR/sm4-crypto-dkms_${VERSION}_all.deb
[ -f "$DEB" ] || die "no $DEB after the build (log: $OUTDIR/build.log)"
echo "$DEB"
