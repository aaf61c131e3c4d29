#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-version.sh [--package] [--modules DIR [--expect VERSION]]
#
# The version of sm4-crypto is written once, as PACKAGE_VERSION in
# dkms.conf; tools/version.sh derives the version of a build from it, and
# the Kbuild makes that every module's MODULE_VERSION.  This checks that
# everything else agrees, in the tree SM4_VERSION_ROOT (default: this
# script's checkout):
#
#  - a git checkout: its version (0.2.0~git<date>.<hash>) sorts above the
#    newest entry of debian/changelog (the last release, e.g. 0.1.0), so
#    that a snapshot package upgrades it;
#  - any other tree (a copy stamped by tools/make-deb.sh or
#    tools/dkms-src.sh, the unpacked source package): the newest entry of
#    debian/changelog (a native package: the same string) is its
#    PACKAGE_VERSION;
#  - dkms.conf's comments, README and debian/README.Debian name no
#    concrete version ("-v <version>", "sm4-crypto-<version>",
#    "sm4-crypto-dkms_<version>_all.deb" or globs instead), since the
#    version moves with every commit;
#  - with --modules DIR, "modinfo -F version" of every .ko* under DIR is
#    the version of the tree, or VERSION with --expect (a test that built
#    them at a commit the checkout has moved on from since).
#
# --package: only what a package build relies on (debian/rules runs it):
# the tree must be stamped (the changelog's newest entry is
# PACKAGE_VERSION, whether or not it is a git checkout; a checkout is
# built with tools/make-deb.sh, which stamps its copy); the README
# checks are left out (prose does not break a package).
# One PASS:/FAIL: line per check; exit status 1 if any failed.

set -uo pipefail
ROOT=${SM4_VERSION_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
VERSION_SH=$(dirname "$0")/version.sh
MODDIR=
PACKAGE=
EXPECT=
while [ $# -gt 0 ]; do
	case $1 in
	--modules) MODDIR=${2:?--modules needs a directory}; shift ;;
	--expect) EXPECT=${2:?--expect needs a version}; shift ;;
	--package) PACKAGE=1 ;;
	*) echo "usage: $0 [--package] [--modules DIR [--expect VERSION]]" >&2; exit 2 ;;
	esac
	shift
done

nfail=0
ok()
{
	echo "PASS: version: $*"
}
bad()
{
	echo "FAIL: version: $*"
	nfail=$((nfail + 1))
}

BASE=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$ROOT/dkms.conf")
if [ -z "$BASE" ]; then
	bad "no PACKAGE_VERSION in $ROOT/dkms.conf"
	exit 1
fi
if ! V=$("$VERSION_SH" "$ROOT"); then
	bad "tools/version.sh $ROOT failed"
	exit 1
fi
CL=$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -SVersion 2>/dev/null)

if [ -n "$PACKAGE" ] || [ "$V" = "$BASE" ]; then
	# A stamped tree: one version throughout.
	if [ "$CL" = "$BASE" ] && [ "$V" = "$BASE" ]; then
		ok "debian/changelog's newest entry is PACKAGE_VERSION $BASE"
	elif [ "$V" != "$BASE" ]; then
		bad "$ROOT is a git checkout (version $V) whose dkms.conf says '$BASE' and debian/changelog '$CL': build its package with tools/make-deb.sh (which stamps a copy)"
	else
		bad "debian/changelog's newest entry is '${CL}', dkms.conf says '$BASE' (not a stamped tree: build with tools/make-deb.sh)"
	fi
else
	# A git checkout: the snapshot sorts above the last release.
	if [ "$V" = "$BASE~${V#"$BASE"~}" ] && [ -n "$CL" ] &&
			dpkg --compare-versions "$V" gt "$CL"; then
		ok "the snapshot version $V sorts above debian/changelog's newest entry $CL"
	else
		bad "the snapshot version $V does not sort above debian/changelog's newest entry '${CL}' (raise PACKAGE_VERSION of dkms.conf above the last release)"
	fi
fi

# concrete FILE REGEX: the distinct concrete versions (starting with a
# digit) FILE names after REGEX, or nothing.
concrete()
{
	grep -oE -- "$2[0-9][0-9A-Za-z.+~]*[0-9A-Za-z]" "$1" |
		sed -E "s/^$2//" | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# no_concrete FILE REGEX WHAT: PASS if FILE names no concrete version.
no_concrete()
{
	local m

	if [ ! -f "$ROOT/$1" ]; then
		bad "no $1 in $ROOT"
		return
	fi
	m=$(concrete "$ROOT/$1" "$2")
	if [ -z "$m" ]; then
		ok "$1 names no concrete version in $3"
	else
		bad "$1 names the version(s) $m in $3 (write <version> or a glob: the version moves)"
	fi
}

no_concrete dkms.conf '-v ' '"-v VERSION"'
if [ -z "$PACKAGE" ]; then
	for f in README debian/README.Debian; do
		no_concrete "$f" '(sm4-crypto-|sm4-crypto-dkms_)' \
			"sm4-crypto-VERSION and sm4-crypto-dkms_VERSION"
	done
fi

if [ -n "$MODDIR" ]; then
	mods=$(find "$MODDIR" -name '*.ko*' | sort)
	[ -n "$mods" ] || bad "no modules under $MODDIR"
	want=${EXPECT:-$V}
	for ko in $mods; do
		m=$(modinfo -F version "$ko")
		if [ "$m" = "$want" ]; then
			ok "MODULE_VERSION of $(basename "$ko") is $want"
		else
			bad "MODULE_VERSION of $(basename "$ko") is '${m}', expected '$want'"
		fi
	done
fi
[ "$nfail" -eq 0 ]
