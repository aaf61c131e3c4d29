#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-debug-kernel.sh ARCH [SUITE]: build (once, cached) the debug
# kernel the crypto self-test fuzzer runs on, and print its directory.
#
# The source is Debian's own linux-source-X.Y of SUITE (trixie, the
# default: 6.12; sid: its kernel's series, 7.2 now), X.Y the series of
# the headers in SUITE's build chroot (tests/lib/make-chroot.sh).  It is
# built in an overlay of that chroot (the overlay adds flex, bison, bc and
# libelf-dev and leaves the chroot as it is) with SUITE's gcc, from
# tinyconfig plus tests/lib/debug-kernel/ARCH.config: virtio, ext4 +
# fscrypt, dm-crypt, AF_ALG, modules and kprobes, the crypto manager,
# KASAN, PROVE_LOCKING, DEBUG_ATOMIC_SLEEP, DEBUG_PREEMPT, and no
# CRYPTO_SM4*: this project's modules are the only SM4.  Then the
# self-tests with their fuzzer (and tcrypt), by what the source's Kconfig
# offers: CRYPTO_SELFTESTS_FULL (6.16 on, selftests-full.config) or
# CRYPTO_MANAGER_EXTRA_TESTS (up to 6.15, selftests-extra.config).  Every
# option of the fragments is checked in the final .config; one that
# olddefconfig dropped (a missing dependency) stops the build with its
# name.
#
# Cache: $CACHE/debug-kernel/ARCH-KEY, KEY a hash of the fragments, the
# RECIPE below and the source package's name.  Layout (the same paths inside
# the chroot, where $CACHE/debug-kernel is bind-mounted at its own path,
# so that out-of-tree modules can be built against out/ from SUITE's chroot):
#   src/        the kernel source
#   out/        the build tree (O=): modules are built with -C out
#   image       the boot image (arch/x86/boot/bzImage)
#   mods/       modules_install: lib/modules/KREL (modules.builtin, ...)
#   kernel.release, build.log, time (seconds the build took)
#   .complete   written last
# Environment: SM4_DEBUG_KERNEL_JOBS (make -j, default nproc).

set -uo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/upstream-src.sh"

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 ARCH [SUITE]"
ARCH=$1
SUITE=${2:-trixie}
case $ARCH in
x86_64) KARCH=x86_64; IMAGE=arch/x86/boot/bzImage ;;
*) die "build-debug-kernel.sh: only x86_64 has a configuration (tests/lib/debug-kernel/)" ;;
esac
FRAGDIR="$REPO_ROOT/tests/lib/debug-kernel"
FRAG="$FRAGDIR/$ARCH.config"
[ -f "$FRAG" ] || die "no configuration fragment $FRAG"
JOBS=${SM4_DEBUG_KERNEL_JOBS:-$(nproc)}

CHR=$("$(dirname "$0")/make-chroot.sh" "$SUITE") ||
	die "no $SUITE build chroot (tests/lib/make-chroot.sh $SUITE)"
# The series of the chroot's kernel headers (linux-headers-X.Y.Z...-common).
SERIES=$(ls -d "$CHR"/usr/src/linux-headers-*-common 2>/dev/null |
	sed -n 's,.*/linux-headers-\([0-9]*\.[0-9]*\)\..*,\1,p' | sort -V | tail -n1)
[ -n "$SERIES" ] || die "no kernel headers in the $SUITE chroot $CHR"
SRCDEB=$(suite_download "$SUITE" "linux-source-$SERIES" "$CACHE/debs") || exit 1
# Which fuzzer option the source has: Debian's configuration of it (in
# the headers) names every option its Kconfig has, set or not.
if grep -qE '^(# )?CONFIG_CRYPTO_SELFTESTS_FULL[= ]' \
		"$CHR"/usr/src/linux-headers-"$SERIES".*/.config 2>/dev/null; then
	FRAG2="$FRAGDIR/selftests-full.config"
else
	FRAG2="$FRAGDIR/selftests-extra.config"
fi
# Bump when the build steps below change: cached kernels are rebuilt.
RECIPE="sm4 debug kernel v2: tinyconfig + fragments, olddefconfig, all, modules_install"
KEY=$( (cat "$FRAG" "$FRAG2"; echo "$RECIPE"; basename "$SRCDEB") | sha256sum | cut -c1-12)
# The canonical path: the tree's generated files (out/Makefile, out/source)
# name the source by this path, and the module builds bind-mount that very
# path into the suite's chroot, where a symlinked $CACHE (SM4_CACHE pointing
# at a link) does not resolve (seen: "No rule to make target .../src/Makefile").
TOP=$(realpath -m "$CACHE/debug-kernel")
D="$TOP/$ARCH-$KEY"
if [ -e "$D/.complete" ]; then
	echo "$D"
	exit 0
fi

mkdir -p "$TOP"
exec 9>"$TOP/.$ARCH-$KEY.lock"
flock 9
if [ -e "$D/.complete" ]; then
	echo "$D"
	exit 0
fi
T0=$(date +%s)
# Users of the chroot hold its lock shared (make-chroot.sh remakes it
# under the exclusive lock).
exec 8>"$CACHE/chroots/.$SUITE.lock"
flock -s 8
rm -rf "$D"
mkdir -p "$D"
LOG="$D/build.log"
log "debug kernel $ARCH-$KEY ($SUITE, $SERIES): cold build (log $LOG)"
tar=$(_upstream_tarball "$SERIES") || die "no linux-source-$SERIES tarball"

# The source: the tarball inside linux-source-X.Y.
log "extracting $tar"
mkdir -p "$D/src"
run_timeout 900 "extracting $tar" nice tar -xf "$tar" -C "$D/src" \
	--strip-components=1 >>"$LOG" 2>&1 || die "cannot extract $tar (log $LOG)"

# The overlay root: the chroot below, the build packages in an upper
# directory kept with the kernel's cache (it is not the chroot's).
OV="$TOP/root-$SUITE"
R="$OV/merged"
mkdir -p "$OV/upper" "$OV/work" "$R"
cleanup()
{
	unmount_all
}
trap cleanup EXIT
mount -t overlay overlay -o "lowerdir=$CHR,upperdir=$OV/upper,workdir=$OV/work" "$R" ||
	die "cannot mount an overlay of $CHR at $R"
MOUNTS+=("$R")
mount -t proc proc "$R/proc" || die "cannot mount /proc in $R"
MOUNTS+=("$R/proc")
mkdir -p "$R$TOP"
mount --bind "$TOP" "$R$TOP" || die "cannot bind-mount $TOP in $R"
MOUNTS+=("$R$TOP")
[ -e /etc/resolv.conf ] && cp /etc/resolv.conf "$R/etc/resolv.conf"

IN_ROOT=(chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8)

PKGS="flex bison bc libelf-dev libssl-dev python3"
# shellcheck disable=SC2086
if ! "${IN_ROOT[@]}" dpkg-query -W $PKGS >/dev/null 2>&1; then
	log "installing $PKGS in the overlay"
	run_timeout 900 "apt-get in the $SUITE overlay" "${IN_ROOT[@]}" sh -c \
		"apt-get -q -o Acquire::Check-Valid-Until=false update &&
		 DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $PKGS &&
		 apt-get clean" >>"$LOG" 2>&1 ||
		die "cannot install $PKGS in the $SUITE overlay (log $LOG)"
fi

kmake()
{
	local t=$1

	shift
	run_timeout "$t" "make $*" "${IN_ROOT[@]}" nice make -C "$D/src" O="$D/out" \
		ARCH="$KARCH" -j"$JOBS" "$@" >>"$LOG" 2>&1
}

log "configuring: tinyconfig + $FRAG + $FRAG2"
mkdir -p "$D/out"
kmake 300 tinyconfig || die "make tinyconfig failed (log $LOG)"
cat "$FRAG" "$FRAG2" >>"$D/out/.config"
kmake 300 olddefconfig || die "make olddefconfig failed (log $LOG)"

# Every option of the fragment, as the final configuration has it.
missing=0
while read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" "$D/out/.config" && continue
		echo "config: wanted $line, have: $(grep -E "^(# )?${line%%=*}[= ]" "$D/out/.config" || echo absent)" >&2
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		grep -qE "^$opt=" "$D/out/.config" || continue
		echo "config: wanted $opt unset, have: $(grep -E "^$opt=" "$D/out/.config")" >&2
		;;
	*) continue ;;
	esac
	missing=$((missing + 1))
done < <(cat "$FRAG" "$FRAG2")
if grep -E '^CONFIG_CRYPTO_SM4[A-Z0-9_]*=' "$D/out/.config" >&2; then
	missing=$((missing + 1))
	echo "config: an SM4 option is on (above): this project's modules must be the only SM4" >&2
fi
[ $missing -eq 0 ] ||
	die "debug kernel: $missing option(s) of $FRAG $FRAG2 not as wanted after olddefconfig"
log "configuration checked: every option of $FRAG $FRAG2 as wanted, no CRYPTO_SM4*"

log "building the kernel (make -j$JOBS; a cold build takes a while)"
kmake 3600 all || { tail -n 30 "$LOG" >&2; die "debug kernel build failed (log $LOG)"; }
kmake 600 modules_install INSTALL_MOD_PATH="$D/mods" INSTALL_MOD_STRIP=1 ||
	die "modules_install failed (log $LOG)"
cp "$D/out/$IMAGE" "$D/image" || die "no $IMAGE in $D/out"
cat "$D/out/include/config/kernel.release" >"$D/kernel.release"
echo $(($(date +%s) - T0)) >"$D/time"
log "debug kernel $(cat "$D/kernel.release") built in $(cat "$D/time") s"
touch "$D/.complete"
echo "$D"
