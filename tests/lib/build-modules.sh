#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-modules.sh ARCH [KVER] OUTDIR [--suite SUITE] [--kdir DIR]
#                  [--tcrypt] [--extra RELDIR]...
#
# Build this project's kernel modules for ARCH (x86_64 or arm64) against
# Debian's linux-headers-KVER-FLAVOUR, out of the source tree: the sources
# (tracked plus untracked, non-ignored files) are copied to OUTDIR/src and
# built there, so builds for different architectures never collide and
# nothing is written into the checkout.  KVER defaults to the version of
# the installed linux-headers-amd64 (e.g. 6.1.0-57).
#
# --suite SUITE   build for the kernel of that Debian suite: on a host of
#                 that suite as above, otherwise inside its build chroot
#                 (tests/lib/make-chroot.sh) with the suite's own compiler
#                 and headers (KVER is then the chroot's and must not be
#                 given).
# --kdir DIR      build against the kernel build tree DIR (e.g. the debug
#                 kernel's out/, tests/lib/build-debug-kernel.sh) instead
#                 of Debian's headers; KVER is its kernel.release.  With
#                 --suite, DIR's parent directory (which must hold the
#                 tree's source too) is bind-mounted at its own path in
#                 the chroot.
# --tcrypt        also build the patched tcrypt (tools/build-tcrypt.sh)
#                 into OUTDIR/tcrypt/sm4_tcrypt.ko.
#
# --extra RELDIR  also build the external modules in RELDIR (a directory
#                 of the repository with its own Kbuild, e.g.
#                 tests/guest/kmod) inside OUTDIR/src/RELDIR, with
#                 KBUILD_EXTRA_SYMBOLS pointing at our Module.symvers and
#                 SM4_SRC=OUTDIR/src on the make command line.
#
# Results: OUTDIR/modules/*.ko (debug info stripped), OUTDIR/extra/*.ko,
# OUTDIR/kdir (symlink to the headers used), OUTDIR/kernel.abi (the KVER
# built for), OUTDIR/build.log.
# Environment: SM4_MAKEFLAGS (extra make arguments, e.g. W=1).

set -euo pipefail
. "$(dirname "$0")/common.sh"

usage()
{
	die "usage: $0 ARCH [KVER] OUTDIR [--suite SUITE] [--tcrypt] [--extra RELDIR]..."
}

[ $# -ge 2 ] || usage
ARCH=$1
shift
KVER=
if [ $# -ge 2 ] && [ "${2#--}" = "$2" ]; then
	KVER=$(norm_kver "$1")
	shift
fi
OUTDIR=$1
shift
EXTRAS=()
SUITE=
TCRYPT=0
KDIR_OPT=
while [ $# -gt 0 ]; do
	case $1 in
	--extra)
		[ $# -ge 2 ] || usage
		EXTRAS+=("$2")
		shift 2
		;;
	--suite)
		[ $# -ge 2 ] || usage
		SUITE=$2
		shift 2
		;;
	--kdir)
		[ $# -ge 2 ] || usage
		KDIR_OPT=$(cd "$2" && pwd -P) || die "--kdir $2: no such directory"
		shift 2
		;;
	--tcrypt)
		TCRYPT=1
		shift
		;;
	*)
		usage
		;;
	esac
done

DARCH=$(deb_arch "$ARCH")
FLAVOUR=$(kernel_flavour "$ARCH")
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
LOG="$OUTDIR/build.log"
: >"$LOG"
# Every message, errors included, also goes to the log that callers name.
exec 2> >(tee -a "$LOG" >&2)
ensure_pkgs make cpio
CHR=
if [ -n "$SUITE" ] && [ "$SUITE" != "$(host_suite)" ]; then
	[ -z "$KVER" ] || die "--suite $SUITE builds against the chroot's headers: give no KVER"
	CHR=$("$(dirname "$0")/make-chroot.sh" "$SUITE") ||
		die "no $SUITE build chroot (tests/lib/make-chroot.sh $SUITE; its log: $CACHE/chroots/$SUITE.log)"
	for d in "$CHR"/usr/src/linux-headers-*[0-9]-"$FLAVOUR"; do
		[ -f "$d/Makefile" ] && KVER=${d##*/linux-headers-} && break
	done
	[ -n "$KVER" ] || die "no $FLAVOUR headers in the $SUITE chroot $CHR"
	KVER=$(norm_kver "$KVER")
fi
if [ -n "$KDIR_OPT" ]; then
	[ -z "$KVER" ] || [ -n "$CHR" ] || die "--kdir builds for the tree's own release: give no KVER"
	[ $TCRYPT = 0 ] || die "--kdir: no --tcrypt (the tree has its own tcrypt module)"
	KVER=$(cat "$KDIR_OPT/include/config/kernel.release") ||
		die "--kdir $KDIR_OPT: no include/config/kernel.release (not a built kernel tree)"
fi
[ -n "$KVER" ] || KVER=$(detect_kver)
KSERIES=${KVER%%-*}		# 6.1.0
KSERIES=${KSERIES%.*}		# 6.1

# kbuild_pkg: the linux-kbuild package the scripts symlink of the
# headers in $hdir points into (../../lib/linux-kbuild-X/scripts as
# packaged, /usr/lib/linux-kbuild-X/scripts once prepared).
kbuild_pkg()
{
	local kb

	kb=$(readlink "$hdir/scripts")
	kb=${kb%/scripts}
	kb=${kb##*/}
	case $kb in
	linux-kbuild-*) echo "$kb" ;;
	*) die "$hdir/scripts points into no linux-kbuild package (remove $root to unpack the headers again)" ;;
	esac
}

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
	# programs; only the configuration and headers are per-arch): the
	# package the headers' scripts symlink names (linux-kbuild-6.1 on
	# bookworm, linux-kbuild-ABI from 6.12), and the cross compiler of
	# the gcc-N their .kernelvariables name.
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
		kb=$(kbuild_pkg)
		for d in scripts tools; do
			rm -f "$hdir/$d"
			ln -s "/usr/lib/$kb/$d" "$hdir/$d"
		done
		touch "$root/.complete"
	fi
	flock -u 8
	gccv=$(sed -n 's/^CC *=.*gcc-\([0-9][0-9]*\).*/\1/p' "$hdir/.kernelvariables")
	[ -n "$gccv" ] || die "no gcc-N in $hdir/.kernelvariables (remove $root to unpack the headers again)"
	ensure_pkgs "$(kbuild_pkg)" "gcc-$gccv-aarch64-linux-gnu"
	echo "$hdir"
}

if [ -n "$KDIR_OPT" ]; then
	KDIR=$KDIR_OPT
	ln -sfn "$KDIR" "$OUTDIR/kdir"
elif [ -n "$CHR" ]; then
	KDIR=/usr/src/linux-headers-$KVER-$FLAVOUR
	[ -f "$CHR$KDIR/Makefile" ] || die "no kernel headers at $CHR$KDIR"
	ln -sfn "$CHR$KDIR" "$OUTDIR/kdir"
else
	KDIR=$(prepare_kdir)
	[ -f "$KDIR/Makefile" ] || die "no kernel headers at $KDIR"
	ln -sfn "$KDIR" "$OUTDIR/kdir"
fi
echo "$KVER" >"$OUTDIR/kernel.abi"

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
# In a chroot, SRC is the chroot's view of BSRC.
if [ -n "$CHR" ]; then
	SRC=/sm4-build/$(echo "$OUTDIR" | sha256sum | cut -c1-16)
	BSRC=$CHR$SRC
	rm -rf "$BSRC"
	ln -sfn "$BSRC" "$OUTDIR/src"
else
	SRC="$OUTDIR/src"
	BSRC=$SRC
	rm -rf "$SRC"
fi
rm -rf "$OUTDIR/modules" "$OUTDIR/extra" "$OUTDIR/tcrypt"
mkdir -p "$BSRC" "$OUTDIR/modules" "$OUTDIR/extra"
if git -C "$REPO_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$REPO_ROOT" ls-files -z -c -o --exclude-standard |
		(cd "$REPO_ROOT" && xargs -0 -r sh -c \
			'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
		(cd "$REPO_ROOT" && cpio -0 -pdm --quiet "$BSRC")
else
	rsync -a --exclude=.git --exclude=.cache --exclude=build \
		--exclude='*.o' --exclude='*.ko' --exclude='*.cmd' \
		"$REPO_ROOT/" "$BSRC/"
fi
# The copy carries the build's version (0.2.0~git<date>.<hash>), as the
# package's does: unstamped, its modules would say the base version.
"$REPO_ROOT/tools/version.sh" --stamp "$BSRC" "$("$REPO_ROOT/tools/version.sh")" >/dev/null ||
	die "cannot stamp the version into $BSRC"

# kmake ARGS...: make for the target kernel, in the chroot if there is
# one (CHROOT_NS: its own /proc for objtool, in a private mount
# namespace), under a timeout.  The --kdir tree's parent is bind-mounted
# at its own path there.
CHROOT_BIND=
[ -n "$KDIR_OPT" ] && [ -n "$CHR" ] && CHROOT_BIND=${KDIR_OPT%/*}
export CHROOT_BIND
kmake()
{
	if [ -n "$CHR" ]; then
		(
			flock -s 8
			timeout -k 10 1800 "${CHROOT_NS[@]}" "$CHR" make "$@"
		) 8>"$CACHE/chroots/.$SUITE.lock"
	else
		timeout -k 10 1800 make "$@"
	fi
}

log "building modules for $ARCH against $KDIR"
if ! kmake "${MAKEARGS[@]}" M="$SRC" modules >>"$LOG" 2>&1; then
	tail -n 40 "$LOG" >&2
	die "module build failed for $ARCH (full log: $LOG)"
fi
found=0
while read -r ko; do
	[ -n "$ko" ] || continue
	ko=${ko#"$SRC"/}		# 6.1: absolute paths of .ko files
	case $ko in *.o) ko=${ko%.o}.ko ;; esac	# 6.3+: .o
	cp "$BSRC/$ko" "$OUTDIR/modules/"
	found=$((found + 1))
done <"$BSRC/modules.order"
[ "$found" -gt 0 ] || die "no modules built"

for rel in "${EXTRAS[@]}"; do
	[ -d "$BSRC/$rel" ] || die "--extra $rel: no such directory in the sources"
	log "building extra modules in $rel"
	if ! kmake "${MAKEARGS[@]}" M="$SRC/$rel" SM4_SRC="$SRC" \
			KBUILD_EXTRA_SYMBOLS="$SRC/Module.symvers" \
			modules >>"$LOG" 2>&1; then
		tail -n 40 "$LOG" >&2
		die "extra module build failed in $rel (full log: $LOG)"
	fi
	while read -r ko; do
		[ -n "$ko" ] || continue
		ko=${ko#"$SRC/$rel"/}
		case $ko in *.o) ko=${ko%.o}.ko ;; esac
		cp "$BSRC/$rel/$ko" "$OUTDIR/extra/"
	done <"$BSRC/$rel/modules.order"
done

if [ $TCRYPT = 1 ]; then
	# tools/build-tcrypt.sh patches tcrypt.c of the kernel's source
	# package (of the suite, for a chroot build); the build runs here.
	log "building sm4_tcrypt.ko"
	tsrc=()
	if [ -n "$CHR" ]; then
		tsrc=(TCRYPT_SOURCE="$(suite_download "$SUITE" "linux-source-$KSERIES" "$CACHE/debs")")
	fi
	if ! tdir=$(env "${tsrc[@]}" TCRYPT_PREPARE_ONLY=1 \
			"$REPO_ROOT/tools/build-tcrypt.sh" "$OUTDIR/kdir" \
			"$BSRC/tcrypt" 2>>"$LOG"); then
		tail -n 20 "$LOG" >&2
		die "preparing sm4_tcrypt failed (full log: $LOG)"
	fi
	if ! kmake "${MAKEARGS[@]}" M="${tdir#"$CHR"}" modules >>"$LOG" 2>&1; then
		tail -n 40 "$LOG" >&2
		die "sm4_tcrypt build failed (full log: $LOG)"
	fi
	mkdir -p "$OUTDIR/tcrypt"
	cp "$tdir/sm4_tcrypt.ko" "$OUTDIR/tcrypt/"
fi

for ko in "$OUTDIR"/modules/*.ko "$OUTDIR"/extra/*.ko "$OUTDIR"/tcrypt/*.ko; do
	[ -e "$ko" ] || continue
	"$STRIP" --strip-debug "$ko"
done
(cd "$OUTDIR" && find modules extra -name '*.ko' | sort)
