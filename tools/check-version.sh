#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-version.sh [--modules DIR]
#
# The version of sm4-crypto is written once, as PACKAGE_VERSION in
# dkms.conf; the Kbuild passes it to every module's MODULE_VERSION.  This
# checks that everything else that names it agrees: the newest entry of
# debian/changelog (a native package: the same string), the "-v VERSION"
# examples in dkms.conf's comments, every "sm4-crypto-VERSION" and
# "sm4-crypto-dkms_VERSION" in README and debian/README.Debian, and with
# --modules DIR, "modinfo -F version" of every .ko* under DIR.
# One PASS:/FAIL: line per check; exit status 1 if any failed.

set -uo pipefail
ROOT=${SM4_VERSION_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
MODDIR=
case ${1-} in
--modules) MODDIR=${2:?--modules needs a directory} ;;
"") ;;
*) echo "usage: $0 [--modules DIR]" >&2; exit 2 ;;
esac

nfail=0
check()
{
	local what=$1 got=$2 want=$3

	if [ "$got" = "$want" ]; then
		echo "PASS: version: $what is $want"
	else
		echo "FAIL: version: $what is '${got}', dkms.conf says '$want'"
		nfail=$((nfail + 1))
	fi
}

V=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$ROOT/dkms.conf")
if [ -z "$V" ]; then
	echo "FAIL: version: no PACKAGE_VERSION in $ROOT/dkms.conf"
	exit 1
fi

check "debian/changelog" \
	"$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -SVersion)" "$V"

# mentions FILE REGEX: the distinct versions FILE names after REGEX
# (or "none" if it names none).
mentions()
{
	local m

	m=$(grep -oE -- "$2[0-9][0-9A-Za-z.+~]*[0-9A-Za-z]" "$1" |
		sed -E "s/^$2//" | sort -u | tr '\n' ' ')
	echo "${m:-none }" | sed 's/ $//'
}
check "every -v in dkms.conf comments" \
	"$(mentions "$ROOT/dkms.conf" '-v ')" "$V"
for f in README debian/README.Debian; do
	check "every sm4-crypto-<version> and sm4-crypto-dkms_<version> in $f" \
		"$(mentions "$ROOT/$f" '(sm4-crypto-|sm4-crypto-dkms_)')" "$V"
done

if [ -n "$MODDIR" ]; then
	mods=$(find "$MODDIR" -name '*.ko*' | sort)
	if [ -z "$mods" ]; then
		echo "FAIL: version: no modules under $MODDIR"
		nfail=$((nfail + 1))
	fi
	for ko in $mods; do
		check "MODULE_VERSION of $(basename "$ko")" \
			"$(modinfo -F version "$ko")" "$V"
	done
fi
[ "$nfail" -eq 0 ]
