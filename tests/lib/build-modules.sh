#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-modules.sh ARCH [KVER] OUTDIR [--extra RELDIR]...
#
# Build this project's kernel modules for ARCH (x86_64 or arm64) against
# Debian's linux-headers-KVER-FLAVOUR, out of the source tree: the sources
# (tracked plus untracked, non-ignored files) are copied to OUTDIR/src and
# built there, so builds for different architectures never collide and
# nothing is written into the checkout.  KVER defaults to the version of
# the installed linux-headers-amd64 (e.g. 6.1.0-57).
#
# --extra RELDIR  also build the external modules in RELDIR (a directory
#                 of the repository with its own Kbuild, e.g.
#                 tests/guest/kmod) inside OUTDIR/src/RELDIR, with
#                 KBUILD_EXTRA_SYMBOLS pointing at our Module.symvers and
#                 SM4_SRC=OUTDIR/src on the make command line.
#
# Results: OUTDIR/modules/*.ko (debug info stripped), OUTDIR/extra/*.ko,
# OUTDIR/kdir (symlink to the headers used), OUTDIR/build.log.
# Environment: SM4_MAKEFLAGS (extra make arguments, e.g. W=1).

set -euo pipefail
. "$(dirname "$0")/common.sh"

usage()
{
	die "usage: $0 ARCH [KVER] OUTDIR [--extra RELDIR]..."
}

[ $# -ge 2 ] || usage
ARCH=$1
shift
if [ $# -ge 2 ] && [ "${2#--}" = "$2" ]; then
	KVER=$(norm_kver "$1")
	shift
else
	KVER=$(detect_kver)
fi
OUTDIR=$1
shift
EXTRAS=()
while [ $# -gt 0 ]; do
	case $1 in
	--extra)
		[ $# -ge 2 ] || usage
		EXTRAS+=("$2")
		shift 2
		;;
	*)
		usage
		;;
	esac
done

DARCH=$(deb_arch "$ARCH")
FLAVOUR=$(kernel_flavour "$ARCH")
KSERIES=${KVER%%-*}		# 6.1.0
KSERIES=${KSERIES%.*}		# 6.1
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)

# prepare_kdir: echo the headers directory for ARCH/KVER.
prepare_kdir()
{
	local hdir common root deb d

	if [ "$DARCH" = "$(dpkg --print-architecture)" ]; then
		ensure_pkgs "linux-headers-$KVER-$FLAVOUR"
		echo "/usr/src/linux-headers-$KVER-$FLAVOUR"
		return
	fi

	# Foreign architecture: unpack the headers under .cache and use
	# the host's linux-kbuild tools (fixdep, modpost, ... are host
	# programs; only the configuration and headers are per-arch).
	ensure_pkgs "linux-kbuild-$KSERIES" "gcc-$(gcc -dumpversion | cut -d. -f1)-aarch64-linux-gnu"
	root="$CACHE/headers/$ARCH-$KVER"
	hdir="$root/usr/src/linux-headers-$KVER-$FLAVOUR"
	mkdir -p "$CACHE/headers"
	exec 8>"$CACHE/headers/.$ARCH-$KVER.lock"
	flock 8
	if [ ! -e "$root/.complete" ]; then
		ensure_foreign_arch "$DARCH"
		rm -rf "$root"
		deb=$(apt_download "linux-headers-$KVER-$FLAVOUR:$DARCH" "$CACHE/debs")
		unpack_deb "$deb" "$root"
		common="/usr/src/linux-headers-$KVER-common"
		if [ ! -f "$common/Makefile" ]; then
			# The -common package is Architecture: all.
			deb=$(apt_download "linux-headers-$KVER-common" "$CACHE/debs")
			unpack_deb "$deb" "$root"
			common="$root/usr/src/linux-headers-$KVER-common"
		fi
		printf 'include %s/Makefile\n' "$common" >"$hdir/Makefile"
		for d in scripts tools; do
			rm -f "$hdir/$d"
			ln -s "/usr/lib/linux-kbuild-$KSERIES/$d" "$hdir/$d"
		done
		touch "$root/.complete"
	fi
	flock -u 8
	echo "$hdir"
}

KDIR=$(prepare_kdir)
[ -f "$KDIR/Makefile" ] || die "no kernel headers at $KDIR"
ln -sfn "$KDIR" "$OUTDIR/kdir"

MAKEARGS=(-C "$KDIR" -j"$(nproc)")
STRIP="strip"
if [ "$DARCH" != "$(dpkg --print-architecture)" ]; then
	MAKEARGS+=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
	STRIP=aarch64-linux-gnu-strip
fi
# shellcheck disable=SC2206
MAKEARGS+=(${SM4_MAKEFLAGS:-})

# Fresh copy of the sources (a deleted or renamed file must not survive
# in the copy: the arch Kbuild.inc files test for sources with wildcard).
SRC="$OUTDIR/src"
rm -rf "$SRC" "$OUTDIR/modules" "$OUTDIR/extra"
mkdir -p "$SRC" "$OUTDIR/modules" "$OUTDIR/extra"
if git -C "$REPO_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$REPO_ROOT" ls-files -z -c -o --exclude-standard |
		(cd "$REPO_ROOT" && xargs -0 -r sh -c \
			'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
		(cd "$REPO_ROOT" && cpio -0 -pdm --quiet "$SRC")
else
	rsync -a --exclude=.git --exclude=.cache --exclude=build \
		--exclude='*.o' --exclude='*.ko' --exclude='*.cmd' \
		"$REPO_ROOT/" "$SRC/"
fi

LOG="$OUTDIR/build.log"
: >"$LOG"
log "building modules for $ARCH against $KDIR"
if ! make "${MAKEARGS[@]}" M="$SRC" modules >>"$LOG" 2>&1; then
	tail -n 40 "$LOG" >&2
	die "module build failed for $ARCH (full log: $LOG)"
fi
found=0
while read -r ko; do
	[ -n "$ko" ] || continue
	ko=${ko#"$SRC"/}		# 6.1: absolute paths of .ko files
	case $ko in *.o) ko=${ko%.o}.ko ;; esac	# 6.3+: .o
	cp "$SRC/$ko" "$OUTDIR/modules/"
	found=$((found + 1))
done <"$SRC/modules.order"
[ "$found" -gt 0 ] || die "no modules built"

for rel in "${EXTRAS[@]}"; do
	[ -d "$SRC/$rel" ] || die "--extra $rel: no such directory in the sources"
	log "building extra modules in $rel"
	if ! make "${MAKEARGS[@]}" M="$SRC/$rel" SM4_SRC="$SRC" \
			KBUILD_EXTRA_SYMBOLS="$SRC/Module.symvers" \
			modules >>"$LOG" 2>&1; then
		tail -n 40 "$LOG" >&2
		die "extra module build failed in $rel (full log: $LOG)"
	fi
	while read -r ko; do
		[ -n "$ko" ] || continue
		ko=${ko#"$SRC/$rel"/}
		case $ko in *.o) ko=${ko%.o}.ko ;; esac
		cp "$SRC/$rel/$ko" "$OUTDIR/extra/"
	done <"$SRC/$rel/modules.order"
done

for ko in "$OUTDIR"/modules/*.ko "$OUTDIR"/extra/*.ko; do
	[ -e "$ko" ] || continue
	"$STRIP" --strip-debug "$ko"
done
(cd "$OUTDIR" && find modules extra -name '*.ko' | sort)
