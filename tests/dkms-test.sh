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
. "$(dirname "$0")/lib/upstream-src.sh"

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
VERSION=$("$REPO_ROOT/tools/version.sh") || die "tools/version.sh failed"
ARCH=$(uname -m)
DKMS_DIR=/var/lib/dkms/$NAME/$VERSION
INST=/lib/modules/$KVER/updates/dkms
LOGDIR=$(mktemp -d /tmp/dkms-test.XXXXXX)

# The modules dkms.conf lists for this architecture.
conf_modules()
{
	dkms_conf_modules "/usr/src/$NAME-$VERSION/dkms.conf" "$ARCH" "$KVER"
}

# The modules the DKMS build linked (its modules.order, as logged).
built_modules()
{
	dkms_built_modules / "$NAME" "$VERSION" "$KVER" "$ARCH"
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

# The version is pinned: other commits may land while this runs.
step stage-sources "$REPO_ROOT/tools/dkms-src.sh" --version "$VERSION"
step dkms-add dkms add -m "$NAME" -v "$VERSION"
if step dkms-build dkms build -m "$NAME" -v "$VERSION" -k "$KVER"; then
	# Every module the Kbuild built must be listed in dkms.conf and the
	# other way round (DKMS itself only fails for a listed one missing).
	compare_modules "DKMS build for $KVER" "$(built_modules)" "$(conf_modules)"
fi

if step dkms-install dkms install -m "$NAME" -v "$VERSION" -k "$KVER"; then
	check_installed / "$KVER" "$(built_modules || conf_modules)"
	as_version=$("$REPO_ROOT/tools/check-version.sh" --modules "$INST" \
		--expect "$VERSION" 2>&1 |
		grep -c '^FAIL: version: MODULE_VERSION')
	if [ "$as_version" -eq 0 ] &&
			[ "$(modinfo -F version "$INST/sm4.ko"* | head -n1)" = "$VERSION" ]; then
		pass "modinfo -F version of every installed module is $VERSION"
	else
		fail "modinfo -F version: $as_version installed modules are not $VERSION"
	fi
	signer=$(modinfo -F signer "$INST/sm4.ko"* 2>/dev/null | head -n1)
	echo "info: module signer: ${signer:-<unsigned>}"
	if dkms status -m "$NAME" -v "$VERSION" -k "$KVER" 2>/dev/null | grep -q installed; then
		pass "dkms status: $NAME/$VERSION installed"
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

# headers_copy VALUE: a copy of the headers of $KVER with CONFIG_CRYPTO_SM4
# set to VALUE (y or m) in .config and include/config/auto.conf, as a
# kernel that ships SM4 would have them; prints its path.
headers_copy()
{
	local src="/usr/src/linux-headers-$KVER" dst="$LOGDIR/headers-sm4$1" f l

	cp -a "$src" "$dst"
	for l in scripts tools; do	# relative links into linux-kbuild
		[ -L "$src/$l" ] && ln -sfn "$(readlink -f "$src/$l")" "$dst/$l"
	done
	for f in "$dst/.config" "$dst/include/config/auto.conf"; do
		sed -i '/^# CONFIG_CRYPTO_SM4 is not set$/d; /^CONFIG_CRYPTO_SM4=/d' "$f"
		echo "CONFIG_CRYPTO_SM4=$1" >>"$f"
	done
	echo "$dst"
}

# Built-in SM4 (=y): DKMS declines through BUILD_EXCLUSIVE_CONFIG (exit
# 77) with dkms.conf's one line; a plain make stops with the Kbuild's.
# The release is made up (a supported series) so that no real build of
# it exists.
fake=${KVER/-[0-9]*-/-98-}
hy=$(headers_copy y)
dkms build -m "$NAME" -v "$VERSION" -k "$fake" --kernelsourcedir "$hy" \
	>"$LOGDIR/builtin.log" 2>&1
rc=$?
line=$(grep -m1 '^sm4-crypto: .*CONFIG_CRYPTO_SM4=y' "$LOGDIR/builtin.log")
if [ $rc -eq 77 ] && [ -n "$line" ] &&
		grep -q BUILD_EXCLUSIVE "$LOGDIR/builtin.log" &&
		! grep -q 'LD \[M\]\|CC \[M\]' "$LOGDIR/builtin.log"; then
	pass "SM4 built in (CONFIG_CRYPTO_SM4=y): dkms declines (exit 77): $line"
else
	fail "SM4 built in: dkms build exit $rc, expected 77 with the sm4-crypto line"
	sed 's/^/    /' "$LOGDIR/builtin.log" | tail -n 10
fi
# The same with Debian 13's dkms (3.2), run from its package with trees
# of its own, so that the installed DKMS state is not touched.
if deb=$(suite_download trixie dkms "$CACHE/debs" 2>"$LOGDIR/dkms32-download.log"); then
	d32="$LOGDIR/dkms-trixie"
	mkdir -p "$d32/pkg"
	dpkg-deb -x "$deb" "$d32/pkg"
	mkdir -p "$d32/src" "$d32/tree"
	cp -a "/usr/src/$NAME-$VERSION" "$d32/src/"
	"$d32/pkg/usr/sbin/dkms" add -m "$NAME" -v "$VERSION" \
		--sourcetree "$d32/src" --dkmstree "$d32/tree" >"$LOGDIR/builtin32.log" 2>&1
	"$d32/pkg/usr/sbin/dkms" build -m "$NAME" -v "$VERSION" -k "$fake" \
		--kernelsourcedir "$hy" --sourcetree "$d32/src" \
		--dkmstree "$d32/tree" >>"$LOGDIR/builtin32.log" 2>&1
	rc=$?
	v=$("$d32/pkg/usr/sbin/dkms" --version 2>/dev/null)
	if [ $rc -eq 77 ] && grep -q '^sm4-crypto: .*CONFIG_CRYPTO_SM4=y' "$LOGDIR/builtin32.log" &&
			grep -q BUILD_EXCLUSIVE "$LOGDIR/builtin32.log"; then
		pass "SM4 built in: Debian 13's $v declines too (exit 77)"
	else
		fail "SM4 built in: Debian 13's ${v:-dkms}: exit $rc, expected 77 with the sm4-crypto line"
		sed 's/^/    /' "$LOGDIR/builtin32.log" | tail -n 10
	fi
	rm -rf "$d32"
else
	fail "cannot download Debian 13's dkms (log: $LOGDIR/dkms32-download.log)"
fi
make -C "$hy" M="/usr/src/$NAME-$VERSION" modules >"$LOGDIR/builtin-make.log" 2>&1
rc=$?
if [ $rc -ne 0 ] &&
		grep -q 'sm4-crypto: this kernel has SM4 built in' "$LOGDIR/builtin-make.log" &&
		! grep -q 'CC \[M\]' "$LOGDIR/builtin-make.log"; then
	pass "SM4 built in: a plain make stops before compiling: $(grep -m1 -o 'sm4-crypto: this kernel.*build' "$LOGDIR/builtin-make.log")"
else
	fail "SM4 built in: make exit $rc without the Kbuild's message"
	sed 's/^/    /' "$LOGDIR/builtin-make.log" | tail -n 10
fi
# SM4 as modules (=m): not declined, ours shadow the in-tree ones.
hm=$(headers_copy m)
excl=$(
	# shellcheck disable=SC2034
	arch=$ARCH kernelver=$fake kernel_source_dir=$hm kernel_config=$hm/include/config/auto.conf
	# shellcheck disable=SC1090
	. "/usr/src/$NAME-$VERSION/dkms.conf" 2>&1
	echo "BUILD_EXCLUSIVE_CONFIG=${BUILD_EXCLUSIVE_CONFIG:-}"
)
if [ "$excl" = "BUILD_EXCLUSIVE_CONFIG=" ]; then
	pass "SM4 as modules (CONFIG_CRYPTO_SM4=m): dkms.conf does not decline"
else
	fail "SM4 as modules: dkms.conf says: $(words "$excl")"
fi
rm -rf "$hy" "$hm"

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
