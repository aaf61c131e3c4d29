#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-deb.sh [--no-guest] [--no-chroot] [--no-autopkgtest]
#
# Test of the Debian package sm4-crypto-dkms (debian/, "make deb"):
#  1. the versions agree (tools/check-version.sh: a snapshot version
#     0.2.0~git<date>.<hash> above the last release), the package builds
#     out of the checkout, with that version or one given
#     (tools/make-deb.sh --version), lintian reports no error or warning,
#     and no maintainer script loads a module;
#  1b. the source package, unpacked (no git), builds in a minimal
#     bookworm root (mmdebstrap --variant=minbase, cached) holding only
#     what its Build-Depends pull in, and fails there without cpio;
#  2. "apt-get install ./sm4-crypto-dkms_VERSION_all.deb" on this machine
#     makes DKMS build and install every module for the installed
#     linux-headers (6.1), with the package version and, if DKMS has a
#     signing key, its signature; the files DKMS installed are copied to
#     build/deb-test/modules-KVER and booted in the x86_64 guest
#     (tests/guest/run-guest.sh --modules-dir) for a short suite;
#     "apt-get purge" then leaves no file it added;
#  3. the same in an overlay of the trixie chroot of
#     tests/test-kbuild-matrix.sh, against its 6.12 headers, and there
#     the autopkgtest of "Testsuite: autopkgtest-pkg-dkms" (the dkms
#     package's /usr/lib/dkms/dkms-autopkgtest) on the package.
# Each check that can be broken is also run once on a broken input (an
# older changelog, a package without copyright file, a postinst calling
# modprobe, a module without its signature or version, Build-Depends
# without cpio) and must fail.
# Nothing is loaded into this machine's kernel.  Prints PASS/FAIL/SKIP
# lines and "N passed, N failed, N skipped"; exit status 1 if any failed.

set -uo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/dkms.sh"

GUEST=1
CHROOT=1
AUTOPKGTEST=1
for a in "$@"; do
	case $a in
	--no-guest) GUEST= ;;
	--no-chroot) CHROOT= ;;
	--no-autopkgtest) AUTOPKGTEST= ;;
	*) die "usage: $0 [--no-guest] [--no-chroot] [--no-autopkgtest]" ;;
	esac
done
[ "$(id -u)" -eq 0 ] || die "installing packages needs root"

ARCH=$(uname -m)
KVER="$(detect_kver)-$(kernel_flavour "$ARCH")"
NAME=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' "$REPO_ROOT/dkms.conf")
VERSION=$("$REPO_ROOT/tools/version.sh") || die "tools/version.sh failed"
PKG=$NAME-dkms
OUT=$REPO_ROOT/build/deb-test
DEB=$OUT/${PKG}_${VERSION}_all.deb
LOGDIR=$OUT/logs
# Mounts an interrupted run left below $OUT (proc, /dev) go first.
findmnt -rn -o TARGET | grep -F "$OUT/" | sort -r | while read -r m; do
	umount "$m" 2>/dev/null || umount -l "$m"
done
rm -rf --one-file-system "$OUT"
mkdir -p "$LOGDIR"

ensure_pkgs dkms "linux-headers-$KVER" debhelper dh-dkms lintian openssl cpio \
	mmdebstrap

# --- helpers ----------------------------------------------------------

# as_checks CMD...: run CMD, whose PASS:/FAIL: lines become ours.
as_checks()
{
	local l

	"$@" >"$LOGDIR/checks.out" 2>&1
	while IFS= read -r l; do
		case $l in
		PASS:*) pass "${l#PASS: }" ;;
		FAIL:*) fail "${l#FAIL: }" ;;
		esac
	done <"$LOGDIR/checks.out"
}

# expect_caught WHAT PATTERN CMD...: CMD runs a check on a deliberately
# broken input; it must exit 1 with PATTERN in its output.
expect_caught()
{
	local what=$1 pattern=$2 rc

	shift 2
	"$@" >"$LOGDIR/broken.log" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && grep -q -- "$pattern" "$LOGDIR/broken.log"; then
		pass "$what is caught: $(grep -m1 -- "$pattern" "$LOGDIR/broken.log")"
	else
		fail "$what went unnoticed (exit $rc, no '$pattern'):"
		sed 's/^/    /' "$LOGDIR/broken.log" | tail -n 10
	fi
}

# lintian_check CHANGES|DEB [TAG...]: exit 1 (listing them) on error or
# warning tags other than the TAGs given; the other tags are printed as
# info.  LINTIAN (default lintian) is the command, e.g. one in a chroot.
lintian_check()
{
	local out f=$1 t

	shift
	out=$(${LINTIAN:-lintian} --pedantic -I -E --tag-display-limit 0 "$f" 2>&1 |
		grep -v 'running with root privileges')
	[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/lintian: /'
	for t; do
		out=$(printf '%s\n' "$out" | grep -vE "^[EW]: [^ ]+( source)?: $t( |\$)")
	done
	! printf '%s\n' "$out" | grep -q '^[EW]: '
}

# scripts_check DIR: exit 1 if a maintainer script in DIR loads a module.
scripts_check()
{
	local f bad=

	for f in "$1"/preinst "$1"/postinst "$1"/prerm "$1"/postrm; do
		[ -f "$f" ] || continue
		if grep -nE '(^|[^-[:alnum:]_])(modprobe|insmod)([^-[:alnum:]_]|$)|--modprobe-on-install' "$f"; then
			bad="$bad ${f##*/}"
		fi
	done
	[ -z "$bad" ] && return 0
	echo "loads a module:$bad"
	return 1
}

# sig_check CERT KO...: every module is signed (PKCS#7) by the key of the
# DER certificate CERT: its signer and key serial match the certificate.
sig_check()
{
	local cert=$1 ko cn serial bad=

	shift
	cn=$(openssl x509 -inform DER -in "$cert" -noout -subject -nameopt multiline |
		sed -n 's/^ *commonName *= *//p')
	serial=$(openssl x509 -inform DER -in "$cert" -noout -serial | sed 's/^serial=//')
	for ko; do
		[ "$(modinfo -F sig_id "$ko")" = "PKCS#7" ] &&
			[ "$(modinfo -F signer "$ko")" = "$cn" ] &&
			[ "$(modinfo -F sig_key "$ko" | tr -d ':\n' | tr a-f A-F)" = \
				"$(echo "$serial" | tr a-f A-F)" ] ||
			bad="$bad ${ko##*/}(sig_id=$(modinfo -F sig_id "$ko"),signer=$(modinfo -F signer "$ko"))"
	done
	if [ -n "$bad" ]; then
		echo "not signed by $cn ($serial):$bad"
		return 1
	fi
	echo "signed by $cn, key serial $serial: $*"
}

# strip_sig KO: remove the appended module signature of KO in place.
strip_sig()
{
	python3 - "$1" <<'EOF'
import sys
p = sys.argv[1]
d = open(p, 'rb').read()
magic = b'~Module signature appended~\n'
assert d.endswith(magic), 'not signed'
n = int.from_bytes(d[-len(magic) - 4:-len(magic)], 'big')
open(p, 'wb').write(d[:-(len(magic) + 12 + n)])
EOF
}

# set_modversion KO VERSION: rewrite the version= tag of KO (same length).
set_modversion()
{
	python3 - "$1" "$2" "$VERSION" <<'EOF'
import sys
p, new, old = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
assert len(new) == len(old)
d = open(p, 'rb').read()
assert d.count(b'\0version=' + old + b'\0') == 1
open(p, 'wb').write(d.replace(b'\0version=' + old + b'\0', b'\0version=' + new + b'\0'))
EOF
}

# snapshot ROOT FILE: the paths (not the contents) below ROOT where this
# package or DKMS can add files, sorted, into FILE (not all of /usr and
# /etc: other test scripts may install packages meanwhile; the package's
# own files are checked with its dpkg -L list).
snapshot()
{
	(cd "$1" && find usr/src usr/lib/modules usr/lib/dkms usr/share/doc \
		"usr/share/$PKG" var/lib/dkms etc/dkms etc/kernel etc/modprobe.d \
		etc/modules-load.d usr/lib/modprobe.d usr/lib/modules-load.d \
		boot -xdev 2>/dev/null) | sort >"$2"
}

# gone_check ROOT LIST WHAT: none of the files in LIST (dpkg -L of the
# package while installed) is left below ROOT (directories may be shared).
gone_check()
{
	local f left=

	while IFS= read -r f; do
		[ -e "$1$f" ] && [ ! -d "$1$f" ] && left="$left $f"
	done <"$2"
	if [ -z "$left" ]; then
		pass "$3: none of the $(wc -l <"$2") paths of dpkg -L $PKG is left but shared directories"
	else
		fail "$3: files of $PKG left after purge:$left"
	fi
}

# depmod's index files in a kernel's module directory: made by depmod
# when DKMS installs into a directory that had none (a kernel with
# headers but no image, as on this machine), owned by the kernel's image
# package elsewhere, and made again without the modules on removal.
DEPMOD_INDEX='^usr/lib/modules/[^/]+/modules\.[a-z.]+$'

# compare_snapshots ROOT BEFORE AFTER WHAT: PASS if nothing was added or
# removed, DKMS's own signing key (kept on purpose) and new depmod
# indexes (which must then name no sm4 module) apart.
compare_snapshots()
{
	local root=$1 added removed key index

	shift
	added=$(comm -13 "$1" "$2")
	removed=$(comm -23 "$1" "$2")
	key=$(printf '%s\n' "$added" | grep -xE 'var/lib/dkms/mok\.(key|pub)')
	index=$(printf '%s\n' "$added" | grep -E "$DEPMOD_INDEX")
	added=$(printf '%s\n' "$added" | grep -vxE 'var/lib/dkms/mok\.(key|pub)|' |
		grep -vE "$DEPMOD_INDEX")
	[ -z "$key" ] || echo "info: $3: DKMS created its signing key (kept by purge, as it belongs to DKMS): $(words "$key")"
	if [ -n "$index" ]; then
		echo "info: $3: depmod made the indexes of a kernel without image: $(words "$index" | cut -c1-300)"
		if (cd "$root" && grep -q sm4 $index); then
			fail "$3: depmod indexes still name sm4 modules after purge"
		else
			pass "$3: the depmod indexes name no sm4 module after purge"
		fi
	fi
	if [ -z "$added" ] && [ -z "$removed" ]; then
		pass "$3: apt-get purge left no file it added and removed none"
	else
		fail "$3: after purge, added: $(words "$added" | cut -c1-800); removed: $(words "$removed" | cut -c1-800)"
	fi
}

# clean_state: remove an installed package and "make dkms" state (both
# use /usr/src/NAME-VERSION and /var/lib/dkms/NAME).
clean_state()
{
	local d

	if dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q 'ok installed'; then
		log "purging $PKG left by an earlier run"
		_apt_locked env DEBIAN_FRONTEND=noninteractive \
			apt-get purge -y -qq "$PKG" >&2
	fi
	for d in /var/lib/dkms/"$NAME"/*/; do
		[ -d "$d" ] || continue
		d=${d%/}
		log "removing the make-dkms state of $NAME ${d##*/}"
		dkms remove -m "$NAME" -v "${d##*/}" --all >&2 || true
	done
	rm -rf "/var/lib/dkms/$NAME"
	for d in /usr/src/"$NAME"-*; do
		[ -e "$d" ] || continue
		dpkg -S "$d" >/dev/null 2>&1 && continue
		log "removing unpackaged $d (make dkms)"
		rm -rf "$d"
	done
}

sm4_loaded()
{
	grep -E '^sm4' /proc/modules
}

# --- 1. the package itself --------------------------------------------

dkms_lock
log "package test of $PKG $VERSION for $KVER ($ARCH), logs in $LOGDIR"

as_checks "$REPO_ROOT/tools/check-version.sh"
# version_tree DIR: the files check-version.sh reads, copied into DIR.
version_tree()
{
	mkdir -p "$1/debian"
	cp "$REPO_ROOT/dkms.conf" "$REPO_ROOT/README" "$1/"
	cp "$REPO_ROOT/debian/changelog" "$REPO_ROOT/debian/README.Debian" "$1/debian/"
}
# A stamped copy whose changelog is older than its dkms.conf.
vroot=$OUT/version-broken
version_tree "$vroot"
"$REPO_ROOT/tools/version.sh" --stamp "$vroot" "$VERSION"
sed -i "1s/($VERSION)/(0.0.1)/" "$vroot/debian/changelog"
expect_caught "a stamped tree whose debian/changelog says 0.0.1" \
	"FAIL: version: debian/changelog's newest entry is '0.0.1'" \
	env SM4_VERSION_ROOT="$vroot" "$REPO_ROOT/tools/check-version.sh" --package
# A README naming a concrete version.
cp "$REPO_ROOT/README" "$vroot/README"
echo "apt-get install ./sm4-crypto-dkms_9.9.9_all.deb" >>"$vroot/README"
expect_caught "a README naming sm4-crypto-dkms_9.9.9" \
	"FAIL: version: README names the version(s) .*9.9.9" \
	env SM4_VERSION_ROOT="$vroot" "$REPO_ROOT/tools/check-version.sh"
# A git checkout whose PACKAGE_VERSION is the last release: its
# snapshots would sort below that release.
groot=$OUT/version-git
version_tree "$groot"
sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$(dpkg-parsechangelog \
	-l "$REPO_ROOT/debian/changelog" -SVersion)\"/" "$groot/dkms.conf"
git -C "$groot" init -q && git -C "$groot" add -A &&
	git -C "$groot" -c user.name=t -c user.email=t@example.org \
		commit -q -m test
expect_caught "a checkout whose PACKAGE_VERSION is the last release" \
	"FAIL: version: the snapshot version .* does not sort above" \
	env SM4_VERSION_ROOT="$groot" "$REPO_ROOT/tools/check-version.sh"
rm -rf "$groot"

before=$(cd "$REPO_ROOT" && git status --porcelain --ignored | grep -v '^!! build/')
# The version is pinned: commits may land in the checkout while this runs.
if step "make deb" make -C "$REPO_ROOT" deb DEB_OUT="$OUT" DEB_VERSION="$VERSION"; then
	after=$(cd "$REPO_ROOT" && git status --porcelain --ignored | grep -v '^!! build/')
	if [ "$before" = "$after" ]; then
		pass "make deb wrote nothing into the checkout outside build/"
	else
		fail "make deb changed the checkout: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -n 5 | tr '\n' ' ')"
	fi
fi
if [ ! -f "$DEB" ]; then
	fail "no $DEB: nothing to install"
	echo "$npass passed, $nfail failed, $nskip skipped"
	exit 1
fi
pass "built ${DEB##*/} ($(dpkg-deb -f "$DEB" Depends); Recommends: $(dpkg-deb -f "$DEB" Recommends); Suggests: $(dpkg-deb -f "$DEB" Suggests))"

# deb_version_check DEB VERSION: the package's version, its /usr/src
# directory and the PACKAGE_VERSION of the dkms.conf there are VERSION.
deb_version_check()
{
	local deb=$1 v=$2 pv dirs

	pv=$(dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/$NAME-$v/dkms.conf" 2>/dev/null |
		sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p')
	dirs=$(dpkg-deb --fsys-tarfile "$deb" | tar -t |
		sed -n "s|^\./usr/src/\([^/]*\)/\$|\1|p" | tr '\n' ' ')
	if [ "$(dpkg-deb -f "$deb" Version)" = "$v" ] && [ "$pv" = "$v" ] &&
			[ "$dirs" = "$NAME-$v " ]; then
		echo "${deb##*/}: Version $v, /usr/src/$NAME-$v, PACKAGE_VERSION=\"$v\""
		return 0
	fi
	echo "${deb##*/}: Version $(dpkg-deb -f "$deb" Version), /usr/src: $dirs, PACKAGE_VERSION=\"$pv\"; expected $v"
	return 1
}
if out=$(deb_version_check "$DEB" "$VERSION"); then
	pass "versions agree: $out"
else
	fail "versions disagree: $out"
fi
# An explicit version (tools/make-deb.sh --version), higher than this one:
# what an upgrade test builds from the same checkout.
V2=$VERSION+1
if deb2=$("$REPO_ROOT/tools/make-deb.sh" --version "$V2" "$OUT/v2" 2>"$LOGDIR/make-deb-v2.log") &&
		out=$(deb_version_check "$deb2" "$V2") &&
		dpkg --compare-versions "$V2" gt "$VERSION"; then
	pass "tools/make-deb.sh --version $V2 (above $VERSION): $out"
else
	fail "tools/make-deb.sh --version $V2: ${out:-no package} (log: $LOGDIR/make-deb-v2.log)"
	tail -n 5 "$LOGDIR/make-deb-v2.log" | sed 's/^/    /'
fi
rm -rf "$OUT/v2"

# This machine's lintian (bookworm's 2.116) knows Debian Policy up to
# 4.6.2 and calls 4.7.2, trixie's, newer-standards-version: that tag
# alone is left to trixie's lintian (part 3), which checks it, unless
# there is no part 3.
allowed=
[ -z "$CHROOT" ] || allowed=newer-standards-version
if lintian_check "$OUT"/*.changes $allowed >"$LOGDIR/lintian.log"; then
	pass "lintian $(lintian --version | awk '{print $2}') --pedantic on the source and binary package: no error or warning${allowed:+ but $allowed (checked by the lintian of trixie)} ($(grep -c '^lintian: [IPX]:' "$LOGDIR/lintian.log") info/pedantic tags)"
else
	fail "lintian: $(grep -E '^lintian: [EW]:' "$LOGDIR/lintian.log" | tr '\n' ' ')"
fi
sed 's/^/info: /' "$LOGDIR/lintian.log"
bdir=$OUT/broken-deb
dpkg-deb -R "$DEB" "$bdir"
rm "$bdir/usr/share/doc/$PKG/copyright"
dpkg-deb -b "$bdir" "$OUT/broken.deb" >/dev/null
expect_caught "a package without copyright file" "E: .*no-copyright-file" \
	lintian_check "$OUT/broken.deb"

dpkg-deb -e "$DEB" "$OUT/control"
if out=$(scripts_check "$OUT/control"); then
	pass "maintainer scripts ($(cd "$OUT/control" && echo ./*inst ./*rm | sed 's|\./||g')) load no module"
else
	fail "maintainer scripts: $out"
fi
rm -rf "$bdir/DEBIAN.broken" && cp -a "$bdir/DEBIAN" "$bdir/DEBIAN.broken"
echo 'modprobe sm4_generic' >>"$bdir/DEBIAN.broken/postinst"
expect_caught "a postinst running modprobe" "loads a module: postinst" \
	scripts_check "$bdir/DEBIAN.broken"

# --- 1b. a build from the Build-Depends alone -------------------------

# A bookworm minbase root (Essential packages and apt: no build-essential),
# made once and cached as a tarball; each run unpacks a fresh copy, with
# apt's lists and downloads cached under $CACHE.
MINBASE=$CACHE/deb-test/bookworm-minbase.tar
MINAPT=$CACHE/deb-test/bookworm-minbase-apt
MR=$OUT/minroot

# in_minroot CMD...: run CMD in the minimal root $MR.
in_minroot()
{
	chroot "$MR" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"
}

# in_minroot_t SECONDS WHAT CMD...: in_minroot under a timeout, with a
# line naming WHAT if it fails or times out.
in_minroot_t()
{
	local t=$1 what=$2

	shift 2
	run_timeout "$t" "$what (minimal root)" chroot "$MR" env -i \
		PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"
}

# build_depends DIR: the Build-Depends of DIR/debian/control, on one line.
build_depends()
{
	perl -MDpkg::Control::Info -e \
		'my $s = Dpkg::Control::Info->new($ARGV[0])->get_source;
		 my $b = $s->{"Build-Depends"} // ""; $b =~ s/\s+/ /g; print $b, "\n"' \
		"$1/debian/control"
}

# minroot_build WHAT DIR: install the Build-Depends of the source tree
# DIR (a host path; copied to /build/WHAT in the root) with
# "apt-get satisfy", then dpkg-buildpackage -us -uc -d there: -d since
# dpkg-checkbuilddeps also asks for build-essential, which the root
# leaves out on purpose (nothing of it is needed; apt-get satisfy has
# installed exactly the Build-Depends).  Status 0 if a .deb appeared; the
# log is $(steplog "minimal root: WHAT").
minroot_build()
{
	local what=$1 src=$2 bd log

	log=$(steplog "minimal root: $what")
	bd=$(build_depends "$src")
	rm -rf "$MR/build/$what"
	mkdir -p "$MR/build"
	cp -a "$src" "$MR/build/$what"
	{
		echo "Build-Depends: $bd"
		in_minroot_t 600 "apt-get satisfy" \
			apt-get satisfy -y --no-install-recommends "$bd" || return 1
		in_minroot_t 600 dpkg-buildpackage \
			sh -c "cd /build/$what && dpkg-buildpackage -us -uc -d"
	} >"$log" 2>&1
	compgen -G "$MR/build/sm4-crypto-dkms_*_all.deb" >/dev/null
}

minroot_test()
{
	local dsc=$OUT/${NAME}_$VERSION.dsc src=$OUT/minsrc t0 out

	t0=$(date +%s)
	if [ ! -s "$MINBASE" ]; then
		log "making the bookworm minbase root (once, cached as $MINBASE)"
		mkdir -p "${MINBASE%/*}"
		if ! run_timeout 900 "mmdebstrap --variant=minbase bookworm" \
				mmdebstrap --variant=minbase \
				--aptopt='Acquire::Check-Valid-Until "false"' \
				bookworm "$MINBASE.new.tar" "$DEBIAN_MIRROR" \
				>"$LOGDIR/mmdebstrap.log" 2>&1; then
			fail "minimal root: mmdebstrap --variant=minbase bookworm failed or timed out (log: $LOGDIR/mmdebstrap.log)"
			return 1
		fi
		mv "$MINBASE.new.tar" "$MINBASE"
	fi
	# The source package as a user gets it: unpacked from the .dsc, no git.
	rm -rf "$src"
	if ! dpkg-source -x "$dsc" "$src" >"$LOGDIR/dpkg-source-x.log" 2>&1; then
		fail "minimal root: dpkg-source -x ${dsc##*/} failed (log: $LOGDIR/dpkg-source-x.log)"
		return 1
	fi
	[ ! -e "$src/.git" ] || { fail "minimal root: the source package holds .git"; return 1; }
	rm -rf "$MR"
	mkdir -p "$MR" "$MINAPT/lists/partial" "$MINAPT/archives/partial"
	tar -xf "$MINBASE" -C "$MR" || { fail "minimal root: cannot unpack $MINBASE"; return 1; }
	mount --bind "$MINAPT/lists" "$MR/var/lib/apt/lists" && MOUNTS+=("$MR/var/lib/apt/lists")
	mount --bind "$MINAPT/archives" "$MR/var/cache/apt/archives" && MOUNTS+=("$MR/var/cache/apt/archives")
	mount -t proc proc "$MR/proc" && MOUNTS+=("$MR/proc")
	mount --bind /dev "$MR/dev" && MOUNTS+=("$MR/dev")
	cp -L /etc/resolv.conf "$MR/etc/resolv.conf"
	step "minimal root: apt-get update" in_minroot_t 600 "apt-get update" \
		apt-get update -o Acquire::Check-Valid-Until=false || return 1
	echo "info: minimal root: $(in_minroot dpkg-query -W -f='${Package}\n' | wc -l) packages (minbase), no build-essential: $(in_minroot dpkg-query -W -f='${Status}' build-essential 2>/dev/null || echo absent)"

	# The fault first: the Build-Depends without cpio.  The same root
	# then gets the real Build-Depends, which add cpio alone.
	cp -a "$src" "$OUT/minsrc-nocpio"
	sed -i -E '/^Build-Depends:/s/(: *| *, *)cpio *(,|$)/\1/; /^Build-Depends:/s/, *$//; /^Build-Depends:/s/: *, */: /' \
		"$OUT/minsrc-nocpio/debian/control"
	if [ "$(build_depends "$OUT/minsrc-nocpio")" = "$(build_depends "$src")" ] ||
			build_depends "$OUT/minsrc-nocpio" | grep -qw cpio; then
		fail "minimal root: cannot remove cpio from Build-Depends ($(build_depends "$OUT/minsrc-nocpio"))"
	elif minroot_build nocpio "$OUT/minsrc-nocpio"; then
		fail "minimal root: Build-Depends without cpio ($(build_depends "$OUT/minsrc-nocpio")) went unnoticed: the package built"
	elif in_minroot dpkg-query -W -f='${Status}' cpio 2>/dev/null | grep -q 'ok installed'; then
		fail "minimal root: cpio came with the other Build-Depends: the fault cannot be seen"
	else
		out=$(grep -m1 -iE 'cpio: (command )?not found|cpio.*No such file' "$(steplog "minimal root: nocpio")")
		if [ -n "$out" ]; then
			pass "minimal root: Build-Depends without cpio are caught: the build fails: $out"
		else
			fail "minimal root: without cpio the build failed, but not for cpio (log: $(steplog "minimal root: nocpio"))"
			tail -n 10 "$(steplog "minimal root: nocpio")" | sed 's/^/    /'
		fi
	fi
	if minroot_build src "$src"; then
		pass "minimal root: the unpacked ${dsc##*/} (no git) builds from its Build-Depends ($(build_depends "$src")) alone: $(cd "$MR/build" && echo sm4-crypto-dkms_*_all.deb) in $(($(date +%s) - t0)) s"
		# Built without git, it must ship what the checkout's build does.
		out=$(diff <(dpkg-deb -c "$DEB" | awk '{print $1, $6}') \
			<(dpkg-deb -c "$MR"/build/sm4-crypto-dkms_*_all.deb | awk '{print $1, $6}'))
		if [ -z "$out" ]; then
			pass "minimal root: its package holds the same $(dpkg-deb -c "$DEB" | wc -l) paths (and modes) as the one make deb built"
		else
			fail "minimal root: its package differs from the one make deb built: $(echo "$out" | grep '^[<>]' | head -n 6 | tr '\n' ' ')"
		fi
	else
		fail "minimal root: the unpacked ${dsc##*/} does not build from its Build-Depends ($(build_depends "$src")) (log: $(steplog "minimal root: src")):"
		tail -n 15 "$(steplog "minimal root: src")" | sed 's/^/    /'
	fi
}

trap unmount_all EXIT
trap 'exit 130' INT TERM
minroot_test
unmount_all
rm -rf --one-file-system "$MR" "$OUT/minsrc" "$OUT/minsrc-nocpio"

# --- 2. on this machine (6.1 headers) ---------------------------------

INST=/lib/modules/$KVER/updates/dkms
INST_REAL=$(realpath -m "$INST")
MODS=$OUT/modules-$KVER

# host_install: install the package, check what DKMS built and installed,
# copy the modules to $MODS.
host_install()
{
	local want extra want_files m

	step "apt-get install ./${DEB##*/}" _apt_locked \
		env DEBIAN_FRONTEND=noninteractive \
		timeout 1800 apt-get install -y "$DEB" || return 1
	grep -E 'Building for|chroot|Building initial|Skipped' \
		"$(steplog "apt-get install ./${DEB##*/}")" | sed 's/^/info: postinst: /'
	# The running kernel of this machine is not Debian's, so DKMS's
	# postinst builds for every kernel in /lib/modules with headers.  On
	# a machine running another installed kernel it builds only for the
	# running and the newest one: then install for KVER explicitly.
	if dkms status -m "$NAME" -v "$VERSION" -k "$KVER" 2>/dev/null | grep -q ': installed'; then
		pass "the package's postinst built and installed $NAME $VERSION for $KVER"
	else
		echo "info: postinst did not build for $KVER: $(dkms status -m "$NAME" 2>&1 | tr '\n' ' ')"
		step "dkms install -k $KVER" dkms install -m "$NAME" -v "$VERSION" -k "$KVER" ||
			return 1
	fi
	# What the build linked (its modules.order) must be what dkms.conf
	# lists and what DKMS installed.
	want=$(dkms_built_modules / "$NAME" "$VERSION" "$KVER" "$ARCH")
	compare_modules "$KVER: the package's DKMS build" "$want" \
		"$(dkms_conf_modules "/usr/src/$NAME-$VERSION/dkms.conf" "$ARCH" "$KVER")"
	[ -n "$want" ] || want=$(dkms_conf_modules "/usr/src/$NAME-$VERSION/dkms.conf" "$ARCH" "$KVER")
	check_installed / "$KVER" "$want" || return 1
	as_checks "$REPO_ROOT/tools/check-version.sh" --modules "$INST" --expect "$VERSION"
	if [ -d "/usr/src/$NAME-$VERSION" ] &&
			dkms status -m "$NAME" -k "$KVER" 2>/dev/null | grep -q "^$NAME/$VERSION, $KVER, .*installed" &&
			[ "$(dpkg-query -W -f='${Version}' "$PKG")" = "$VERSION" ]; then
		pass "versions agree: dpkg $PKG $VERSION, /usr/src/$NAME-$VERSION, dkms status $(dkms status -m "$NAME" -k "$KVER" | head -n1)"
	else
		fail "versions disagree: dpkg $(dpkg-query -W -f='${Version}' "$PKG"), /usr/src: $(cd /usr/src && echo "$NAME"-*), dkms status: $(dkms status -m "$NAME" 2>&1 | tr '\n' ' ')"
	fi

	# The files the installation added besides the package's own: the
	# DKMS tree, the modules in updates/dkms, DKMS's key, nothing else.
	snapshot / "$OUT/host.installed"
	extra=$(comm -13 "$OUT/host.before" "$OUT/host.installed" |
		grep -vxF -f <(sed 's|^/||' "$OUT/host.pkgfiles") |
		grep -vE "^var/lib/dkms/($NAME(/|$)|mok\.(key|pub)$)" |
		grep -vE "$DEPMOD_INDEX" |
		grep -vxF -e "${INST_REAL#/}" -e "$(dirname "${INST_REAL#/}")")
	want_files=$(for m in $want; do compgen -G "$INST_REAL/$m.ko*"; done | sed 's|^/||' | sort)
	if [ "$extra" = "$want_files" ]; then
		pass "besides its own files and the DKMS tree the package added exactly: $(words "$extra")"
	else
		fail "the installation added: $(words "$extra"); expected $(words "$want_files")"
	fi

	mkdir -p "$MODS"
	for m in $want; do
		cp -a "$(compgen -G "$INST/$m.ko*" | head -n1)" "$MODS/"
	done
}

# module_checks: signatures and versions of the modules in $MODS, each
# check also run on a broken copy.
module_checks()
{
	local bad

	if [ -f /var/lib/dkms/mok.key ] && [ -f /var/lib/dkms/mok.pub ]; then
		if out=$(sig_check /var/lib/dkms/mok.pub "$MODS"/*); then
			pass "modinfo: $out"
		else
			fail "modinfo: $out"
		fi
		bad=$OUT/broken-ko
		mkdir -p "$bad"
		cp "$MODS/sm4.ko" "$bad/"
		strip_sig "$bad/sm4.ko"
		expect_caught "a module without its signature" "not signed by .*sm4.ko" \
			sig_check /var/lib/dkms/mok.pub "$bad/sm4.ko"
	else
		skip "no DKMS signing key (/var/lib/dkms/mok.key): signatures not checked"
	fi
	bad=$OUT/broken-version
	mkdir -p "$bad"
	cp "$MODS/sm4_generic.ko" "$bad/"
	if set_modversion "$bad/sm4_generic.ko" "$(echo "$VERSION" | tr 0-8 1-9)"; then
		expect_caught "a module with another MODULE_VERSION" \
			"FAIL: version: MODULE_VERSION of sm4_generic" \
			"$REPO_ROOT/tools/check-version.sh" --modules "$bad" --expect "$VERSION"
	else
		fail "cannot rewrite the version of sm4_generic.ko for the broken case"
	fi
}

# guest_boot: the short guest suite on exactly the files DKMS installed.
guest_boot()
{
	local rc

	if [ -z "$GUEST" ]; then
		skip "guest boot with the DKMS-built modules (--no-guest)"
		return 0
	fi
	if ! "$REPO_ROOT/tests/guest/run-guest.sh" --help 2>&1 | grep -q -- '--modules-dir'; then
		skip "guest boot with the DKMS-built modules: tests/guest/run-guest.sh has no --modules-dir option yet"
		return 0
	fi
	# 50 vector cases a mode (200 until CI's run of 495027e ran out of
	# its budget): this boot is about the files DKMS installed loading,
	# serving every mode and autoloading; the guest cells test the modes.
	log "booting the x86_64 guest with the modules DKMS installed ($MODS)"
	"$REPO_ROOT/tests/guest/run-guest.sh" --arch x86_64 --kver "${KVER%-*}" \
		--modules-dir "$MODS" --parts 1,3,5,8 --cases 50 \
		>"$LOGDIR/guest.log" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL): ' "$LOGDIR/guest.log" |
		sed -E 's/^(PASS|FAIL): /\1: guest on the DKMS-built modules: /' >"$LOGDIR/guest.checks"
	as_checks cat "$LOGDIR/guest.checks"
	if [ $rc -ne 0 ] && ! grep -q '^FAIL' "$LOGDIR/guest.checks"; then
		fail "guest run with --modules-dir exited $rc without a FAIL line (log: $LOGDIR/guest.log)"
		tail -n 15 "$LOGDIR/guest.log" | sed 's/^/    /'
	elif [ $rc -eq 0 ] && ! grep -q '^PASS' "$LOGDIR/guest.checks"; then
		fail "guest run with --modules-dir printed no check (log: $LOGDIR/guest.log)"
	fi
}

# host_purge: apt-get purge, then nothing the installation added is left.
host_purge()
{
	local left

	if step "apt-get purge $PKG" _apt_locked env DEBIAN_FRONTEND=noninteractive \
			timeout 600 apt-get purge -y "$PKG"; then
		left=$(compgen -G "$INST/*" || true)
		if [ -z "$left" ] && ! dkms status -m "$NAME" 2>/dev/null | grep -q . &&
				[ ! -e "/usr/src/$NAME-$VERSION" ]; then
			pass "purged: dkms status empty, no /usr/src/$NAME-$VERSION, nothing in $INST"
		else
			fail "after purge: dkms status: $(dkms status -m "$NAME" 2>&1 | tr '\n' ' '); in $INST: $(words "$left")"
		fi
	fi
	snapshot / "$OUT/host.after"
	gone_check "" "$OUT/host.pkgfiles" "$KVER (this machine)"
	compare_snapshots / "$OUT/host.before" "$OUT/host.after" "$KVER (this machine)"
}

clean_state
snapshot / "$OUT/host.before"
dpkg-deb --fsys-tarfile "$DEB" | tar -t | sed 's|^\./|/|; s|/$||' | grep -vx / >"$OUT/host.pkgfiles"
if [ -r /proc/modules ]; then
	loaded_before=$(sm4_loaded)
else
	loaded_before=none
fi
if host_install; then
	module_checks
	guest_boot
fi
if [ "$loaded_before" = none ]; then
	skip "this machine's kernel has no /proc/modules: cannot see loaded modules"
elif [ "$(sm4_loaded)" = "$loaded_before" ]; then
	pass "no sm4 module was loaded into this machine's kernel (/proc/modules)"
else
	fail "sm4 modules appeared in /proc/modules: $(sm4_loaded | awk '{print $1}' | tr '\n' ' ')"
fi
host_purge

# --- 3. trixie (6.12 headers) ------------------------------------------

trap unmount_all EXIT
trap 'exit 130' INT TERM

# in_chroot CMD...: run CMD in the overlay root $R.
in_chroot()
{
	chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"
}

chroot_test()
{
	local chr ov=$OUT/trixie m k tkver apt_cache

	# The build chroot of the kbuild matrix, made once if missing.
	if ! chr=$("$REPO_ROOT/tests/lib/make-chroot.sh" trixie); then
		fail "trixie: no chroot (tests/lib/make-chroot.sh trixie failed)"
		return 1
	fi
	# The chroot is shared with test-kbuild-matrix.sh: hold its lock shared and
	# change nothing in it: every change goes into an overlay.
	exec 9>"$CACHE/chroots/.trixie.lock"
	flock -s -w 3600 9 || { fail "trixie: the chroot stayed locked for an hour"; return 1; }
	R=$ov/root
	mkdir -p "$ov/upper" "$ov/work" "$R"
	if ! mount -t overlay overlay -o "lowerdir=$chr,upperdir=$ov/upper,workdir=$ov/work" "$R"; then
		fail "trixie: cannot mount an overlay of $chr"
		return 1
	fi
	MOUNTS+=("$R")
	mount -t proc proc "$R/proc" && MOUNTS+=("$R/proc")
	mount --bind /dev "$R/dev" && MOUNTS+=("$R/dev")
	# Package lists and downloads are cached, but apt-get update runs.
	apt_cache=$CACHE/deb-test/trixie-apt
	mkdir -p "$apt_cache/lists/partial" "$apt_cache/archives/partial"
	mount --bind "$apt_cache/lists" "$R/var/lib/apt/lists" && MOUNTS+=("$R/var/lib/apt/lists")
	mount --bind "$apt_cache/archives" "$R/var/cache/apt/archives" && MOUNTS+=("$R/var/cache/apt/archives")
	cp -L /etc/resolv.conf "$R/etc/resolv.conf"
	# The arm64 headers are unpacked there for cross builds only; an
	# amd64 trixie system has none (DKMS would try to build for them).
	for k in "$R"/lib/modules/*-arm64; do
		[ -e "$k" ] && rm -rf "$k"
	done
	tkver=$(cd "$R/lib/modules" && compgen -G '*-amd64' | head -n1)
	# A local apt repository holding the package, which the autopkgtest
	# installs by name (registered before the one apt-get update).
	mkdir -p "$R/srv/sm4-repo"
	cp "$DEB" "$R/srv/sm4-repo/"
	(cd "$R/srv/sm4-repo" && dpkg-scanpackages -m . >Packages 2>/dev/null)
	echo 'deb [trusted=yes] file:/srv/sm4-repo ./' >"$R/etc/apt/sources.list.d/sm4-local.list"

	step "trixie: apt-get update" in_chroot timeout 900 apt-get update \
		-o Acquire::Check-Valid-Until=false || return 1
	# openssl, as on most systems: DKMS makes its signing key with it;
	# lintian for trixie_lintian (one apt run for both).
	step "trixie: apt-get install dkms openssl lintian" in_chroot timeout 900 \
		apt-get install -y --no-install-recommends dkms openssl lintian || return 1
	echo "info: trixie: $(in_chroot dpkg-query -W -f='dkms ${Version}' dkms), headers $tkver"
	cp "$DEB" "$R/tmp/"
	snapshot "$R" "$OUT/trixie.before"
	step "trixie: apt-get install ./${DEB##*/}" in_chroot timeout 1800 \
		apt-get install -y "/tmp/${DEB##*/}"
	grep -E 'Building for|chroot|Skipped' "$(steplog "trixie: apt-get install ./${DEB##*/}")" |
		sed 's/^/info: trixie postinst: /'
	if in_chroot dkms status -m "$NAME" -v "$VERSION" -k "$tkver" | grep -q ': installed'; then
		pass "trixie: the package's postinst built and installed $NAME $VERSION for $tkver"
	else
		fail "trixie: not installed for $tkver: $(in_chroot dkms status -m "$NAME" 2>&1 | tr '\n' ' ')"
		m=$(compgen -G "$R/var/lib/dkms/$NAME/$VERSION/build/make.log" ||
			compgen -G "$R/var/lib/dkms/$NAME/$VERSION/$tkver/*/log/make.log")
		[ -n "$m" ] && tail -n 20 "$m" | sed 's/^/    /'
	fi
	m=$(dkms_built_modules "$R" "$NAME" "$VERSION" "$tkver" x86_64)
	compare_modules "trixie $tkver: the package's DKMS build" "$m" \
		"$(dkms_conf_modules "$R/usr/src/$NAME-$VERSION/dkms.conf" x86_64 "$tkver")"
	check_installed "$R" "$tkver" \
		"${m:-$(dkms_conf_modules "$R/usr/src/$NAME-$VERSION/dkms.conf" x86_64 "$tkver")}"
	CHECK_PREFIX="trixie: " as_checks "$REPO_ROOT/tools/check-version.sh" \
		--modules "$R/lib/modules/$tkver/updates/dkms" --expect "$VERSION"
	if in_chroot dkms status -m "$NAME" -k "$tkver" 2>/dev/null |
			grep -q "^$NAME/$VERSION, $tkver, .*installed" &&
			[ "$(in_chroot dpkg-query -W -f='${Version}' "$PKG")" = "$VERSION" ] &&
			[ -d "$R/usr/src/$NAME-$VERSION" ]; then
		pass "trixie: versions agree: dpkg $PKG $VERSION, /usr/src/$NAME-$VERSION, dkms status $(in_chroot dkms status -m "$NAME" -k "$tkver" | head -n1)"
	else
		fail "trixie: versions disagree: dpkg $(in_chroot dpkg-query -W -f='${Version}' "$PKG"), dkms status: $(in_chroot dkms status -m "$NAME" 2>&1 | tr '\n' ' ')"
	fi
	if [ -f "$R/var/lib/dkms/mok.pub" ]; then
		if out=$(sig_check "$R/var/lib/dkms/mok.pub" "$R/lib/modules/$tkver/updates/dkms"/*); then
			pass "trixie: modinfo: ${out//$R/}"
		else
			fail "trixie: modinfo: ${out//$R/}"
		fi
	else
		skip "trixie: DKMS made no signing key: signatures not checked"
	fi
	rm -f "$R/tmp/${DEB##*/}"
	if step "trixie: apt-get purge $PKG" in_chroot timeout 600 apt-get purge -y "$PKG"; then
		snapshot "$R" "$OUT/trixie.after"
		gone_check "$R" "$OUT/host.pkgfiles" "trixie $tkver"
		compare_snapshots "$R" "$OUT/trixie.before" "$OUT/trixie.after" "trixie $tkver"
	fi
	if [ -n "$AUTOPKGTEST" ]; then
		autopkgtest_dkms "$tkver"
	else
		skip "trixie: autopkgtest-pkg-dkms not run (--no-autopkgtest; about 3.4 minutes)"
	fi
	trixie_lintian
}

# trixie_lintian: trixie's lintian (it knows the current Debian Policy)
# on the source and binary package, no error or warning.
trixie_lintian()
{
	local f

	rm -rf "$R/tmp/lintian"
	mkdir -p "$R/tmp/lintian"
	for f in "$OUT"/*.changes "$OUT"/*.dsc "$OUT"/*.tar.* "$OUT"/*.buildinfo "$DEB"; do
		cp "$f" "$R/tmp/lintian/"
	done
	if LINTIAN="in_chroot lintian" lintian_check "/tmp/lintian/${NAME}_${VERSION}_amd64.changes" \
			>"$LOGDIR/lintian-trixie.log"; then
		pass "trixie: lintian $(in_chroot lintian --version | awk '{print $2}') --pedantic: no error or warning (Standards-Version $(sed -n 's/^Standards-Version: *//p' "$REPO_ROOT/debian/control"); $(grep -c '^lintian: [IPX]:' "$LOGDIR/lintian-trixie.log") info/pedantic tags)"
	else
		fail "trixie: lintian: $(grep -E '^lintian: [EW]:' "$LOGDIR/lintian-trixie.log" | tr '\n' ' ')"
	fi
	sed 's/^/info: trixie: /' "$LOGDIR/lintian-trixie.log"
}

# autopkgtest_dkms KVER: the test "Testsuite: autopkgtest-pkg-dkms"
# names (autodep8 runs the dkms package's dkms-autopkgtest on each
# package of the source): it installs the package by name from apt,
# here a local repository holding the .deb, then builds and installs the
# modules for every kernel with headers.  It must PASS for KVER.
autopkgtest_dkms()
{
	local kver=$1 t0 log

	t0=$(date +%s)
	if [ ! -x "$R/usr/lib/dkms/dkms-autopkgtest" ]; then
		fail "trixie: no /usr/lib/dkms/dkms-autopkgtest in $(in_chroot dpkg-query -W -f='dkms ${Version}' dkms)"
		return 1
	fi
	log=$(steplog "trixie: dkms-autopkgtest")
	in_chroot env AUTOPKGTEST_ARTIFACTS=/tmp timeout 1800 \
		/usr/lib/dkms/dkms-autopkgtest "$PKG" >"$log" 2>&1
	rc=$?
	# Its summary: "I: PASS KVER" (dkms 3.0), "I: PASS NAME/VERSION KVER" (3.2).
	if [ $rc -eq 0 ] && grep -E '^I: PASS ' "$log" | grep -qF -- " $kver" &&
			! grep -q '^I: FAIL' "$log"; then
		pass "trixie: autopkgtest-pkg-dkms (dkms-autopkgtest $PKG): $(grep -E '^I: (PASS|SKIP) ' "$log" | tr '\n' ' ')in $(($(date +%s) - t0)) s"
	else
		fail "trixie: autopkgtest-pkg-dkms (dkms-autopkgtest $PKG) exit $rc (log: $log):"
		grep -E '^(E|I: (PASS|FAIL|SKIP)) ' "$log" | sed 's/^/    /'
		tail -n 10 "$log" | sed 's/^/    /'
	fi
}

if [ -n "$CHROOT" ]; then
	chroot_test
	unmount_all
	exec 9>&-
	rm -rf "$OUT/trixie"
else
	skip "trixie chroot (--no-chroot)"
fi

echo "$npass passed, $nfail failed, $nskip skipped"
[ "$nfail" -eq 0 ]
