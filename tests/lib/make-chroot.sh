#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-chroot.sh SUITE: make (once, cached) the build chroot of a Debian
# suite under .cache/chroots/SUITE and print its path.
#
# The chroot is amd64 with the suite's linux-headers-amd64, kmod and
# sparse, plus the suite's arm64 headers (downloaded, not installed: they
# depend on arm64 binaries) unpacked into its root, where their
# scripts/tools symlinks (../../lib/linux-kbuild-ABI/...) land on the
# chroot's amd64 linux-kbuild-ABI, and the gcc-N-aarch64-linux-gnu of the
# gcc-N named by their .kernelvariables: each kernel is built with its own
# compiler, for both architectures.  .complete holds the recipe the chroot
# was made with; a chroot made with another recipe is made again.  Users
# of a chroot hold the lock .cache/chroots/.SUITE.lock shared (flock -s)
# while they build in it, each in a directory of its own under
# /sm4-build; this script takes it exclusively to make the chroot.
#
# Environment: SM4_DEBIAN_MIRROR (default http://deb.debian.org/debian).

set -uo pipefail
. "$(dirname "$0")/common.sh"

[ $# -eq 1 ] || die "usage: $0 SUITE"
SUITE=$1
MIRROR=$DEBIAN_MIRROR
# Bump when the chroot contents below change: cached chroots are remade.
RECIPE="sm4-matrix-chroot v3: amd64,arm64 linux-headers-amd64 kmod sparse arm64-headers cross-gcc checker-valid"
# write_setup FILE: the in-chroot part of the chroot creation.
write_setup()
{
	cat >"$1" <<'EOF_SETUP'
# SPDX-License-Identifier: GPL-2.0
# Run by test-kbuild-matrix.sh inside a new chroot (sh -e).
hdr=$(ls -d /usr/src/linux-headers-*[0-9]-amd64 | head -n1)
abi=${hdr#/usr/src/linux-headers-}
abi=${abi%-amd64}
common=/usr/src/linux-headers-$abi-common

# arm64 headers (unpacked, not installed: they depend on arm64 binaries)
# and the cross compiler of the gcc version they were built with.
mkdir -p /var/cache/sm4-debs
cd /var/cache/sm4-debs
apt-get download -q "linux-headers-$abi-arm64:arm64"
dpkg-deb -x linux-headers-"$abi"-arm64_*_arm64.deb /
kv=/usr/src/linux-headers-$abi-arm64/.kernelvariables
gccv=$(sed -n 's/^CC *=.*gcc-\([0-9][0-9]*\).*/\1/p' "$kv")
[ -n "$gccv" ] || { echo "no gcc-N in $kv" >&2; exit 1; }
DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	--no-install-recommends "gcc-$gccv-aarch64-linux-gnu"
test -x "/usr/bin/aarch64-linux-gnu-gcc-$gccv"
test -x "/usr/src/linux-headers-$abi-arm64/scripts/basic/fixdep"

# Debian's 7.2 headers call scripts/checker-valid.sh for C=1/C=2 but do
# not ship it; without it kbuild turns sparse off (6.12 has no such check).
# The stand-in accepts the checker when it runs on a small file without
# an error (a checker too old for the headers shows up as warnings).
if grep -q 'scripts/checker-valid.sh' "$common/Makefile" &&
		[ ! -e "$common/scripts/checker-valid.sh" ]; then
	cat >"$common/scripts/checker-valid.sh" <<'EOF_CV'
#!/bin/sh
# Stand-in written by sm4-crypto's tests/test-kbuild-matrix.sh.
f=$(mktemp --suffix=.c)
trap 'rm -f "$f"' EXIT
echo 'static inline int sm4_probe(int x) { return x; }' >"$f"
out=$("$@" "$f" 2>&1) || { echo 0; exit 0; }
case $out in *error*) echo 0 ;; *) echo 1 ;; esac
EOF_CV
	chmod +x "$common/scripts/checker-valid.sh"
fi

apt-get clean
rm -rf /var/cache/sm4-debs /var/lib/apt/lists/*
EOF_SETUP
}

# umount_under DIR: unmount whatever an interrupted run left under DIR.
umount_under()
{
	local m

	findmnt -rn -o TARGET | grep -F "$1/" | sort -r | while read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
}

# make_chroot SUITE DIR: create the cached chroot (the lock is held).
make_chroot()
{
	local suite=$1 chr=$2 log="$CACHE/chroots/$1.log"

	if [ -e "$chr/.complete" ] && [ "$(cat "$chr/.complete")" = "$RECIPE" ]; then
		return 0
	fi
	log "creating the $suite chroot (once; a few minutes)"
	umount_under "$chr"
	rm -rf --one-file-system "$chr"
	# Archive snapshots may carry an expired Release file.  The package
	# lists are kept for the arm64 setup, which removes them itself.
	if ! timeout 1800 mmdebstrap --variant=buildd --architectures=amd64,arm64 \
			--aptopt='Acquire::Check-Valid-Until "false"' \
			--skip=cleanup/apt/lists \
			--include=linux-headers-amd64,kmod,sparse "$suite" "$chr" \
			"$MIRROR" >"$log" 2>&1; then
		echo "mmdebstrap failed or timed out (30 min)" >>"$log"
		return 1
	fi
	write_setup "$chr/tmp/sm4-setup.sh"
	if ! timeout 1200 chroot "$chr" /bin/sh -e /tmp/sm4-setup.sh >>"$log" 2>&1; then
		echo "in-chroot setup failed" >>"$log"
		return 1
	fi
	rm -f "$chr/tmp/sm4-setup.sh"
	echo "$RECIPE" >"$chr/.complete"
}


CHR="$CACHE/chroots/$SUITE"
# Made already: no lock needed (builds hold it for long).
if [ -e "$CHR/.complete" ] && [ "$(cat "$CHR/.complete")" = "$RECIPE" ]; then
	echo "$CHR"
	exit 0
fi
ensure_pkgs mmdebstrap
mkdir -p "$CACHE/chroots"
exec 9>"$CACHE/chroots/.$SUITE.lock"
flock 9
if ! make_chroot "$SUITE" "$CHR"; then
	tail -n 10 "$CACHE/chroots/$SUITE.log" >&2
	die "cannot create the $SUITE chroot (log: $CACHE/chroots/$SUITE.log)"
fi
echo "$CHR"
