#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-debug-kernel.sh ARCH: build (once, cached) the debug kernel the
# crypto self-test fuzzer runs on, and print its directory.
#
# The source is Debian's own linux-source-6.12 (trixie); it is built in an
# overlay of the trixie build chroot (tests/lib/make-chroot.sh; the
# overlay adds flex, bison, bc and libelf-dev and leaves the chroot as it
# is) with trixie's gcc, from tinyconfig plus tests/lib/debug-kernel/
# ARCH.config: virtio, ext4 + fscrypt, dm-crypt, AF_ALG, modules and
# kprobes, the crypto manager with CRYPTO_MANAGER_EXTRA_TESTS (the
# fuzzer), KASAN, PROVE_LOCKING, DEBUG_ATOMIC_SLEEP, DEBUG_PREEMPT, and
# no CRYPTO_SM4*: this project's modules are the only SM4.  Every option
# of the fragment is checked in the final .config; one that olddefconfig
# dropped (a missing dependency) stops the build with its name.
#
# Cache: $CACHE/debug-kernel/ARCH-KEY, KEY a hash of the fragment, the
# RECIPE below and the source package's name.  Layout (the same paths inside
# the chroot, where $CACHE/debug-kernel is bind-mounted at its own path,
# so that out-of-tree modules can be built against out/ from a chroot):
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

[ $# -eq 1 ] || die "usage: $0 ARCH"
ARCH=$1
case $ARCH in
x86_64) KARCH=x86_64; IMAGE=arch/x86/boot/bzImage ;;
*) die "build-debug-kernel.sh: only x86_64 has a configuration (tests/lib/debug-kernel/)" ;;
esac
SERIES=6.12
FRAG="$REPO_ROOT/tests/lib/debug-kernel/$ARCH.config"
[ -f "$FRAG" ] || die "no configuration fragment $FRAG"
JOBS=${SM4_DEBUG_KERNEL_JOBS:-$(nproc)}

SRCDEB=$(suite_download trixie "linux-source-$SERIES" "$CACHE/debs") || exit 1
# Bump when the build steps below change: cached kernels are rebuilt.
RECIPE="sm4 debug kernel v1: tinyconfig + fragment, olddefconfig, all, modules_install"
KEY=$( (cat "$FRAG"; echo "$RECIPE"; basename "$SRCDEB") | sha256sum | cut -c1-12)
TOP="$CACHE/debug-kernel"
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
CHR=$("$(dirname "$0")/make-chroot.sh" trixie) ||
	die "no trixie build chroot (tests/lib/make-chroot.sh trixie)"
# Users of the chroot hold its lock shared (make-chroot.sh remakes it
# under the exclusive lock).
exec 8>"$CACHE/chroots/.trixie.lock"
flock -s 8
rm -rf "$D"
mkdir -p "$D"
LOG="$D/build.log"
log "debug kernel $ARCH-$KEY: cold build (log $LOG)"

# The source: the tarball inside linux-source-6.12.
tar=$(_upstream_tarball "$SERIES") || die "no linux-source-$SERIES tarball"
log "extracting $tar"
mkdir -p "$D/src"
run_timeout 900 "extracting $tar" nice tar -xf "$tar" -C "$D/src" \
	--strip-components=1 >>"$LOG" 2>&1 || die "cannot extract $tar (log $LOG)"

# The overlay root: the chroot below, the build packages in an upper
# directory kept with the kernel's cache (it is not the chroot's).
OV="$TOP/root-trixie"
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
	run_timeout 900 "apt-get in the trixie overlay" "${IN_ROOT[@]}" sh -c \
		"apt-get -q -o Acquire::Check-Valid-Until=false update &&
		 DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $PKGS &&
		 apt-get clean" >>"$LOG" 2>&1 ||
		die "cannot install $PKGS in the trixie overlay (log $LOG)"
fi

kmake()
{
	local t=$1

	shift
	run_timeout "$t" "make $*" "${IN_ROOT[@]}" nice make -C "$D/src" O="$D/out" \
		ARCH="$KARCH" -j"$JOBS" "$@" >>"$LOG" 2>&1
}

log "configuring: tinyconfig + $FRAG"
mkdir -p "$D/out"
kmake 300 tinyconfig || die "make tinyconfig failed (log $LOG)"
cat "$FRAG" >>"$D/out/.config"
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
done <"$FRAG"
if grep -E '^CONFIG_CRYPTO_SM4[A-Z0-9_]*=' "$D/out/.config" >&2; then
	missing=$((missing + 1))
	echo "config: an SM4 option is on (above): this project's modules must be the only SM4" >&2
fi
[ $missing -eq 0 ] ||
	die "debug kernel: $missing option(s) of $FRAG not as wanted after olddefconfig"
log "configuration checked: every option of $FRAG as wanted, no CRYPTO_SM4*"

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
