#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms-test.sh [KVER] [--keep]
#
# Package test: stage the sources in /usr/src/sm4-crypto-<version>, then
# dkms add, build and install them for kernel KVER (default: the installed
# linux-headers-amd64/arm64 ABI of this machine, e.g. 6.1.0-57-amd64),
# check what landed in /lib/modules/KVER/updates/dkms, check that an
# unsupported kernel is skipped, and dkms remove everything again (unless
# --keep).  Nothing is loaded: this only builds and installs files.
# Idempotent: a previous add/build/install of the same version is removed
# first.  Prints PASS/FAIL lines and "N passed, N failed"; exit status 1 if
# anything failed.

set -uo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/dkms.sh"

KEEP=
KVER=
for a in "$@"; do
	case $a in
	--keep) KEEP=1 ;;
	-*) die "usage: $0 [KVER] [--keep]" ;;
	*) KVER=$a ;;
	esac
done
if [ -z "$KVER" ]; then
	KVER="$(detect_kver)-$(kernel_flavour "$(uname -m)")"
fi
[ "$(id -u)" -eq 0 ] || die "dkms needs root"
ensure_pkgs dkms "linux-headers-$KVER"

NAME=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' "$REPO_ROOT/dkms.conf")
VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$REPO_ROOT/dkms.conf")
ARCH=$(uname -m)
DKMS_DIR=/var/lib/dkms/$NAME/$VERSION
INST=/lib/modules/$KVER/updates/dkms
LOGDIR=$(mktemp -d /tmp/dkms-test.XXXXXX)

# The modules dkms.conf lists for this architecture.
conf_modules()
{
	dkms_conf_modules "/usr/src/$NAME-$VERSION/dkms.conf" "$ARCH" "$KVER"
}

cleanup()
{
	dkms remove -m "$NAME" -v "$VERSION" --all >/dev/null 2>&1 || true
	rm -rf "${DKMS_DIR%/*}"
}

log "dkms test of $NAME $VERSION for $KVER ($ARCH), logs in $LOGDIR"
dkms_lock
# The Debian package (tests/test-deb.sh) owns the same /usr/src directory
# and DKMS tree: a package left by an interrupted run goes first.
if dpkg-query -W -f='${Status}' "$NAME-dkms" 2>/dev/null | grep -q 'ok installed'; then
	log "purging the $NAME-dkms package first"
	_apt_locked env DEBIAN_FRONTEND=noninteractive \
		apt-get purge -y -qq "$NAME-dkms" >&2 ||
		die "cannot purge the $NAME-dkms package"
fi
cleanup

step stage-sources "$REPO_ROOT/tools/dkms-src.sh"
step dkms-add dkms add -m "$NAME" -v "$VERSION"
if step dkms-build dkms build -m "$NAME" -v "$VERSION" -k "$KVER"; then
	# Every module the Kbuild built must be listed in dkms.conf and the
	# other way round.
	built=$(sed -n 's/.*LD \[M\] *\(.*\)\.ko$/\1/p' \
		"$DKMS_DIR/$KVER/$ARCH/log/make.log" | xargs -r -n1 basename | sort)
	listed=$(conf_modules)
	if [ -n "$built" ] && [ "$built" = "$listed" ]; then
		pass "dkms.conf lists exactly the built modules: $(words "$listed")"
	else
		fail "built modules ($(words "$built")) != dkms.conf ($(words "$listed"))"
	fi
fi

if step dkms-install dkms install -m "$NAME" -v "$VERSION" -k "$KVER"; then
	check_installed / "$KVER" "$(conf_modules)"
	signer=$(modinfo -F signer "$INST/sm4.ko"* 2>/dev/null | head -n1)
	echo "info: module signer: ${signer:-<unsigned>}"
	if dkms status -m "$NAME" -v "$VERSION" -k "$KVER" 2>/dev/null | grep -q installed; then
		pass "dkms status: installed"
	else
		fail "dkms status does not say installed"
	fi
fi

# An unsupported kernel release is skipped (exit 77), not a build failure.
dkms build -m "$NAME" -v "$VERSION" -k 5.10.0-99-amd64 \
	>"$LOGDIR/exclusive.log" 2>&1
rc=$?
if [ $rc -eq 77 ] && grep -q BUILD_EXCLUSIVE "$LOGDIR/exclusive.log"; then
	pass "unsupported kernel 5.10 skipped by BUILD_EXCLUSIVE_KERNEL (exit 77)"
else
	fail "unsupported kernel 5.10: exit $rc, expected 77"
	sed 's/^/    /' "$LOGDIR/exclusive.log" | tail -n 10
fi

# Remove everything again unless --keep.
if [ -z "$KEEP" ]; then
	if step dkms-remove dkms remove -m "$NAME" -v "$VERSION" --all; then
		left=$(compgen -G "$INST/sm4*" || true)
		if [ -z "$left" ] && ! dkms status -m "$NAME" 2>/dev/null | grep -q .; then
			pass "removed: nothing left in $INST, dkms status empty"
		else
			fail "after remove: left in $INST: $left"
		fi
	fi
	rm -rf "/usr/src/$NAME-$VERSION"
fi

echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
