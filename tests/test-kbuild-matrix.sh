#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-kbuild-matrix.sh [SUITE...]: build the modules for x86_64 and arm64
# against the kernel headers of other Debian suites (default: trixie,
# 6.12, and sid, 7.2), each inside an amd64 chroot of that suite so that
# each kernel is built with its own compiler, at W=1 with sparse (C=2);
# check for compiler, sparse and objtool warnings,
# for the expected modules and their license.
#
# Chroots are made once with mmdebstrap (amd64 + arm64 package lists) and
# cached under .cache/chroots/SUITE; .complete holds the recipe they were
# made with, a chroot made with another recipe is made again.  arm64 is a
# cross build: the suite's linux-headers-ABI-arm64 (Architecture: arm64)
# is downloaded, not installed, and unpacked into the chroot's root, where
# its scripts/tools symlinks (../../lib/linux-kbuild-ABI/...) land on the
# chroot's amd64 linux-kbuild-ABI; the cross compiler is the
# gcc-N-aarch64-linux-gnu of the gcc-N named by its .kernelvariables.
#
# Environment: SM4_DEBIAN_MIRROR (default http://deb.debian.org/debian),
# SM4_MATRIX_ARCHES (default "x86_64 arm64").

set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib/common.sh"
ensure_pkgs mmdebstrap

MIRROR=${SM4_DEBIAN_MIRROR:-http://deb.debian.org/debian}
ARCHES=${SM4_MATRIX_ARCHES:-x86_64 arm64}
SUITES=("$@")
[ ${#SUITES[@]} -gt 0 ] || SUITES=(trixie sid)
# Bump when the chroot contents below change: cached chroots are remade.
RECIPE="sm4-matrix-chroot v3: amd64,arm64 linux-headers-amd64 kmod sparse arm64-headers cross-gcc checker-valid"
rc=0

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

# Mounts made by this script, unmounted on any exit, after the build
# that may be running in them (its own process group) is stopped.
MOUNTS=()
BUILD_PID=
cleanup()
{
	local i

	if [ -n "$BUILD_PID" ]; then
		kill -TERM -- "-$BUILD_PID" 2>/dev/null
		wait "$BUILD_PID" 2>/dev/null
		BUILD_PID=
	fi
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}"
	done
	MOUNTS=()
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mount_proc()
{
	mountpoint -q "$1/proc" || mount -t proc proc "$1/proc" || return 1
	MOUNTS+=("$1/proc")
}

# umount_under DIR: unmount whatever an interrupted run left under DIR.
umount_under()
{
	local m

	findmnt -rn -o TARGET | grep -F "$1/" | sort -r | while read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
}

# make_chroot SUITE DIR: create the cached chroot (caller holds the lock).
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
	if ! mmdebstrap --variant=buildd --architectures=amd64,arm64 \
			--aptopt='Acquire::Check-Valid-Until "false"' \
			--skip=cleanup/apt/lists \
			--include=linux-headers-amd64,kmod,sparse "$suite" "$chr" \
			"$MIRROR" >"$log" 2>&1; then
		echo "mmdebstrap failed" >>"$log"
		return 1
	fi
	write_setup "$chr/tmp/sm4-setup.sh"
	if ! chroot "$chr" /bin/sh -e /tmp/sm4-setup.sh >>"$log" 2>&1; then
		echo "in-chroot setup failed" >>"$log"
		return 1
	fi
	rm -f "$chr/tmp/sm4-setup.sh"
	echo "$RECIPE" >"$chr/.complete"
}

# want_modules ARCH: the modules the sources must produce for ARCH.
want_modules()
{
	case $1 in
	x86_64)
		echo sm4 sm4_generic sm4-aesni-avx-x86_64 \
			sm4-aesni-avx2-x86_64 sm4-gfni-avx2-x86_64 sm4-gfni-avx512-x86_64
		;;
	arm64)
		echo sm4 sm4_generic sm4-neon sm4-ce
		if grep -q '^obj-m.*sm4-ce-cipher\.o' "$ROOT/arch/arm64/Kbuild.inc"; then
			echo sm4-ce-cipher
		fi
		;;
	esac
}

# build SUITE CHROOT ARCH: build and check one suite x arch.
build()
{
	local suite=$1 chr=$2 arch=$3 flav kdir ver dir log m ko w brc d
	local margs=()

	case $arch in
	x86_64) flav=amd64 ;;
	arm64) flav=arm64 margs=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) ;;
	*) echo "FAIL: kbuild $suite: unknown arch $arch"; return 1 ;;
	esac
	kdir=
	for d in "$chr"/usr/src/linux-headers-*[0-9]-"$flav"; do
		[ -f "$d/Makefile" ] && kdir=$d && break
	done
	if [ -z "$kdir" ]; then
		echo "FAIL: kbuild $suite $arch: no $flav headers in the chroot"
		return 1
	fi
	kdir=${kdir#"$chr"}
	ver=${kdir#/usr/src/linux-headers-}
	dir=/build/$arch
	log=$chr/build/$arch.log
	mkdir -p "$chr$dir"
	(cd "$ROOT" && git ls-files -co --exclude-standard -- Kbuild Makefile \
		lib crypto include arch |
		while read -r f; do [ -e "$f" ] && echo "$f"; done |
		cpio -pdm --quiet "$chr$dir")
	# In the background, so that a signal stops the script (and, through
	# the trap, the build) at once.
	setsid -w chroot "$chr" make -C "$kdir" M="$dir" W=1 C=2 -j"$(nproc)" \
		"${margs[@]}" modules >"$log" 2>&1 &
	BUILD_PID=$!
	wait "$BUILD_PID"
	brc=$?
	BUILD_PID=
	if [ $brc -ne 0 ]; then
		echo "FAIL: kbuild $suite $arch ($ver): build failed (log: $log)"
		grep -E 'error|Error|warning' "$log" | head -n 30
		tail -n 5 "$log"
		return 1
	fi
	echo "PASS: kbuild $suite $arch ($ver): modules build"
	w=$(grep -iE 'warning|error' "$log" | grep -v 'Skipping BTF')
	if [ -n "$w" ]; then
		echo "FAIL: kbuild $suite $arch ($ver): warnings at W=1 C=2 (sparse)"
		echo "$w" | head -n 30
		rc=1
	else
		echo "PASS: kbuild $suite $arch ($ver): no warnings at W=1 C=2 (sparse)"
	fi
	if grep -q '^  CHECK ' "$log"; then
		echo "PASS: kbuild $suite $arch ($ver): sparse ran"
	else
		echo "FAIL: kbuild $suite $arch ($ver): sparse ran"
		rc=1
	fi
	for m in $(want_modules "$arch"); do
		ko=$chr$dir/$m.ko
		if [ ! -f "$ko" ]; then
			echo "FAIL: kbuild $suite $arch ($ver): $m.ko built"
			rc=1
			continue
		fi
		if [ "$(chroot "$chr" modinfo -F license "$dir/$m.ko")" = GPL ]; then
			echo "PASS: kbuild $suite $arch ($ver): $m.ko built, license GPL"
		else
			echo "FAIL: kbuild $suite $arch ($ver): $m.ko license GPL"
			rc=1
		fi
	done
	return 0
}

mkdir -p "$CACHE/chroots"
for suite in "${SUITES[@]}"; do
	chr="$CACHE/chroots/$suite"
	# One user of a suite's chroot at a time (creation and builds).
	exec 9>"$CACHE/chroots/.$suite.lock"
	flock 9
	if ! make_chroot "$suite" "$chr"; then
		echo "FAIL: kbuild $suite: cannot create chroot (log: $CACHE/chroots/$suite.log)"
		tail -n 10 "$CACHE/chroots/$suite.log"
		rc=1
		exec 9>&-
		continue
	fi
	rm -rf "$chr/build"
	if ! mount_proc "$chr"; then	# objtool reads /proc
		echo "FAIL: kbuild $suite: cannot mount /proc in the chroot"
		rc=1
		exec 9>&-
		continue
	fi
	for arch in $ARCHES; do
		build "$suite" "$chr" "$arch" || rc=1
	done
	cleanup
	exec 9>&-
done
exit $rc
