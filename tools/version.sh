#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# version.sh [ROOT]
# version.sh --stamp DIR VERSION
#
# The version of sm4-crypto.  It is written once, as PACKAGE_VERSION in
# dkms.conf of the checkout: the base version of the next release (0.2.0).
# The version of a build is derived from it:
#
#  - ROOT (default: this script's checkout) is the top of a git
#    checkout: BASE~gitYYYYMMDD.HASH, the commit date of HEAD (UTC) and
#    its abbreviated hash, e.g. 0.2.0~git20261202.18b080f.  The "~" sorts
#    it below the release BASE and above the release before it (0.1.0).
#  - anything else (a copy made by tools/dkms-src.sh or tools/make-deb.sh,
#    a source package, a tarball): the PACKAGE_VERSION stamped in its
#    dkms.conf, as it is.
#
# The first form prints that version.  The second stamps VERSION into
# the copy DIR (never into a checkout): PACKAGE_VERSION of DIR/dkms.conf
# becomes VERSION, and if DIR has a debian/changelog whose newest entry
# is older than VERSION, an entry for VERSION is put on top of it (with
# the maintainer and distribution of the newest entry, and the commit
# date of HEAD as its date when this script runs from a git checkout).
# A VERSION older than the newest changelog entry is refused.

set -uo pipefail

die()
{
	printf 'error: %s\n' "$*" >&2
	exit 1
}

SELF_ROOT=$(cd "$(dirname "$0")/.." && pwd)

# conf_version ROOT: PACKAGE_VERSION of ROOT/dkms.conf.
conf_version()
{
	sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$1/dkms.conf"
}

# is_checkout ROOT: ROOT is the top directory of a git work tree (a copy
# inside one, such as build/deb/..., is not).
is_checkout()
{
	local top

	command -v git >/dev/null 2>&1 || return 1
	top=$(git -C "$1" rev-parse --show-toplevel 2>/dev/null) || return 1
	[ "$(cd "$top" && pwd -P)" = "$(cd "$1" && pwd -P)" ] &&
		git -C "$1" rev-parse -q --verify HEAD >/dev/null 2>&1
}

# valid VERSION: a version dpkg accepts for a native package (no "-").
valid()
{
	[[ $1 =~ ^[0-9][A-Za-z0-9.+~]*$ ]]
}

print_version()
{
	local root=$1 base date hash

	[ -f "$root/dkms.conf" ] || die "no dkms.conf in $root"
	base=$(conf_version "$root")
	valid "$base" || die "no valid PACKAGE_VERSION in $root/dkms.conf ('$base')"
	if is_checkout "$root"; then
		date=$(TZ=UTC0 git -C "$root" log -1 --format=%cd \
			--date=format-local:%Y%m%d HEAD) &&
			hash=$(git -C "$root" rev-parse --short=7 HEAD) ||
			die "cannot read HEAD of the git checkout $root"
		echo "$base~git$date.$hash"
	else
		echo "$base"
	fi
}

# stamp DIR VERSION: see the head of this file.
stamp()
{
	local dir=$1 v=$2 cl top dist maint date what

	valid "$v" || die "invalid version '$v' (digits first; letters, digits and . + ~ only)"
	[ -f "$dir/dkms.conf" ] || die "no dkms.conf in $dir"
	! is_checkout "$dir" || die "$dir is a git checkout: stamp copies only"
	grep -q '^PACKAGE_VERSION="' "$dir/dkms.conf" ||
		die "no PACKAGE_VERSION line in $dir/dkms.conf"
	sed -i "s/^PACKAGE_VERSION=\".*\"\$/PACKAGE_VERSION=\"$v\"/" "$dir/dkms.conf"
	[ "$(conf_version "$dir")" = "$v" ] || die "stamping $dir/dkms.conf failed"

	cl=$dir/debian/changelog
	[ -f "$cl" ] || return 0
	top=$(dpkg-parsechangelog -l "$cl" -SVersion) ||
		die "cannot parse $cl"
	[ "$top" = "$v" ] && return 0
	dpkg --compare-versions "$v" gt "$top" ||
		die "version $v is older than $top, the newest entry of debian/changelog"
	dist=$(dpkg-parsechangelog -l "$cl" -SDistribution)
	maint=$(dpkg-parsechangelog -l "$cl" -SMaintainer)
	if is_checkout "$SELF_ROOT"; then
		date=$(git -C "$SELF_ROOT" log -1 --format=%cD HEAD)
		what="Build of git commit $(git -C "$SELF_ROOT" rev-parse --short=12 HEAD)"
	else
		date=$(LC_ALL=C date -R -u ${SOURCE_DATE_EPOCH:+-d "@$SOURCE_DATE_EPOCH"})
		what="Build of a source tree without git history"
	fi
	{
		printf 'sm4-crypto (%s) %s; urgency=medium\n\n' "$v" "$dist"
		printf '  * %s, version %s\n' "$what" "$v"
		printf '    (entry written by tools/version.sh --stamp).\n\n'
		printf ' -- %s  %s\n\n' "$maint" "$date"
		cat "$cl"
	} >"$cl.new" && mv "$cl.new" "$cl"
	[ "$(dpkg-parsechangelog -l "$cl" -SVersion)" = "$v" ] ||
		die "stamping $cl failed"
}

case ${1-} in
--stamp)
	[ $# -eq 3 ] || die "usage: $0 --stamp DIR VERSION"
	stamp "$2" "$3"
	;;
-*)
	die "usage: $0 [ROOT] | $0 --stamp DIR VERSION"
	;;
*)
	[ $# -le 1 ] || die "usage: $0 [ROOT] | $0 --stamp DIR VERSION"
	print_version "${1:-$SELF_ROOT}"
	;;
esac
