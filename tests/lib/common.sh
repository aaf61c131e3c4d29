# SPDX-License-Identifier: GPL-2.0
#
# Shell helpers shared by the test scripts (sourced, not executed).
#
# Provides: REPO_ROOT, CACHE, log/die, pass/fail/skip, run_timeout, ensure_pkgs, detect_kver,
# deb_arch, kernel_flavour, ensure_foreign_arch, apt_download, unpack_deb,
# host_suite, version_args, suite_apt, suite_download, MOUNTS/unmount_all, CHROOT_NS,
# run_lanes.

# shellcheck shell=bash

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${SM4_CACHE:-$REPO_ROOT/.cache}

log()
{
	printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

die()
{
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# pass/fail/skip WHAT: a PASS:/FAIL:/SKIP: line for tests/run-all (WHAT
# after $CHECK_PREFIX), counted in npass/nfail/nskip.
npass=0
nfail=0
nskip=0
CHECK_PREFIX=${CHECK_PREFIX:-}
pass()
{
	echo "PASS: $CHECK_PREFIX$*"
	npass=$((npass + 1))
}
fail()
{
	echo "FAIL: $CHECK_PREFIX$*"
	nfail=$((nfail + 1))
}
skip()
{
	echo "SKIP: $CHECK_PREFIX$*"
	nskip=$((nskip + 1))
}

# run_timeout SECONDS WHAT CMD...: run CMD under a timeout; on a timeout
# or a failure print one line naming WHAT and return CMD's status.
run_timeout()
{
	local t=$1 what=$2 rc

	shift 2
	timeout -k 10 "$t" "$@"
	rc=$?
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		printf 'error: %s: no result after %s s (timed out)\n' "$what" "$t" >&2
	elif [ $rc -ne 0 ]; then
		printf 'error: %s failed (status %s)\n' "$what" "$rc" >&2
	fi
	return $rc
}

# retry N WHAT CMD...: run CMD up to N times, 10 s apart (downloads).
retry()
{
	local n=$1 what=$2 i=1

	shift 2
	while :; do
		"$@" && return 0
		[ $i -ge "$n" ] && break
		log "$what failed (try $i of $n), retrying in 10 s"
		sleep 10
		i=$((i + 1))
	done
	return 1
}

# Serialise apt/dpkg calls of concurrent test scripts on this machine.
_apt_locked()
{
	mkdir -p "$CACHE"
	flock "$CACHE/.apt.lock" "$@"
}

_apt_updated=
_apt_update_once()
{
	[ -n "$_apt_updated" ] && return 0
	retry 3 "apt-get update" _apt_locked timeout 600 apt-get update -qq >&2 ||
		die "apt-get update failed 3 times (the Debian archive is unreachable?)"
	_apt_updated=1
}

# ensure_pkgs PKG...: install the Debian packages that are not installed.
ensure_pkgs()
{
	local missing=() p

	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	if ! _apt_locked timeout 1800 env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq "${missing[@]}" >&2; then
		_apt_update_once
		retry 2 "apt-get install ${missing[*]}" _apt_locked timeout 1800 \
			env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq "${missing[@]}" >&2 ||
			die "cannot install ${missing[*]} (apt-get install failed or took over 30 min)"
	fi
}

# detect_kver: the ABI version (e.g. 6.1.0-57, 6.12.117+deb13) of the
# linux-headers-amd64 meta-package of this host's suite (installed when
# missing).
detect_kver()
{
	local dep

	ensure_pkgs linux-headers-amd64
	dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null) ||
		die "linux-headers-amd64 is not installed (apt-get install linux-headers-amd64) or pass KVER explicitly"
	# The linux-headers-ABI-amd64 among the dependencies (sid's 7.x
	# lists linux-base-amd64 first).
	dep=$(echo "$dep" | tr ',' '\n' |
		sed -n 's/^ *linux-headers-\([^ ]*\)-amd64\( .*\)\{0,1\}$/\1/p' | head -n1)
	[ -n "$dep" ] ||
		die "linux-headers-amd64 depends on no linux-headers-ABI-amd64 (dpkg -s linux-headers-amd64): pass KVER explicitly"
	echo "$dep"
}

# norm_kver KVER: accept 6.1.0-57 as well as 6.1.0-57-amd64.
norm_kver()
{
	local k=$1

	k=${k%-amd64}
	echo "${k%-arm64}"
}

# deb_arch ARCH: Debian architecture name for x86_64/arm64.
deb_arch()
{
	case $1 in
	x86_64|amd64) echo amd64 ;;
	arm64|aarch64) echo arm64 ;;
	*) die "unsupported architecture '$1' (x86_64 or arm64)" ;;
	esac
}

# kernel_flavour ARCH: Debian kernel flavour (amd64 / arm64).
kernel_flavour()
{
	deb_arch "$1"
}

ensure_foreign_arch()
{
	local a=$1

	[ "$a" = "$(dpkg --print-architecture)" ] && return 0
	dpkg --print-foreign-architectures | grep -qx "$a" && return 0
	log "enabling dpkg architecture $a"
	_apt_locked dpkg --add-architecture "$a"
	_apt_updated=
	_apt_update_once
}

# apt_download PKG[:ARCH] DIR: fetch the .deb into DIR (cached), print
# its path.
apt_download()
{
	local pkg=$1 dir=$2 name arch f

	name=${pkg%%:*}
	arch=${pkg#*:}
	[ "$arch" = "$pkg" ] && arch=$(dpkg --print-architecture)
	mkdir -p "$dir"
	f=$(ls "$dir/${name}_"*"_${arch}.deb" "$dir/${name}_"*"_all.deb" \
		2>/dev/null | head -n1)
	if [ -z "$f" ]; then
		log "downloading $pkg"
		if ! (cd "$dir" && timeout 900 apt-get download -qq -o APT::Sandbox::User=root "$pkg" >&2); then
			_apt_update_once
			retry 3 "apt-get download $pkg" sh -c 'cd "$1" && timeout 900 apt-get download -qq -o APT::Sandbox::User=root "$2" >&2' sh "$dir" "$pkg" ||
				die "apt-get download $pkg failed 3 times"
		fi
		f=$(ls "$dir/${name}_"*"_${arch}.deb" \
			"$dir/${name}_"*"_all.deb" 2>/dev/null | head -n1)
	fi
	[ -n "$f" ] || die "no .deb for $pkg in $dir"
	echo "$f"
}

# unpack_deb DEB DIR: dpkg-deb -x into DIR, once (stamp file per .deb).
unpack_deb()
{
	local deb=$1 dir=$2 stamp

	stamp="$dir/.unpacked-$(basename "$deb")"
	[ -e "$stamp" ] && return 0
	mkdir -p "$dir"
	dpkg-deb -x "$deb" "$dir" || die "cannot unpack $deb"
	touch "$stamp"
}

# version_args WHAT ARGS...: the arguments "[--version VERSION] [WHAT]"
# of tools/dkms-src.sh and tools/make-deb.sh.  Sets VERSION (default: what
# tools/version.sh prints) and ARG (WHAT, or empty); dies with the usage
# on anything else.
version_args()
{
	local what=$1

	shift
	VERSION=
	if [ "${1-}" = --version ]; then
		[ $# -ge 2 ] || die "usage: $0 [--version VERSION] [$what]"
		VERSION=$2
		shift 2
	fi
	case $#:${1-} in
	0:|1:[!-]*) ;;
	*) die "usage: $0 [--version VERSION] [$what]" ;;
	esac
	ARG=${1-}
	[ -n "$VERSION" ] || VERSION=$("$REPO_ROOT/tools/version.sh") ||
		die "tools/version.sh failed"
}

# host_suite: the Debian suite of this machine (bookworm, trixie, sid).
host_suite()
{
	local v

	v=$(cat /etc/debian_version 2>/dev/null)
	case $v in
	*/sid|sid) echo sid; return ;;
	esac
	v=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	[ -n "$v" ] || die "cannot tell the Debian suite of this machine (/etc/os-release)"
	echo "$v"
}

DEBIAN_MIRROR=${SM4_DEBIAN_MIRROR:-http://deb.debian.org/debian}
DEBIAN_SECURITY_MIRROR=${SM4_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

# suite_apt SUITE apt-get|apt-cache ARGS...: run apt with a private
# configuration for SUITE (amd64 and arm64 package lists under
# $CACHE/apt/SUITE; the host's sources and dpkg state are not used), so
# that any suite's packages can be looked up and downloaded from any
# Debian host.  The lists are refreshed once per SM4_APT_MAXAGE seconds
# (default 6 hours).
suite_apt()
{
	local suite=$1 d="$CACHE/apt/$1" kr=/usr/share/keyrings/debian-archive-keyring.gpg
	local age opts

	shift
	opts=(-o Dir::Etc::SourceList="$d/sources.list"
	      -o Dir::Etc::SourceParts=/dev/null
	      -o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache"
	      -o Dir::State::status="$d/status"
	      -o APT::Architecture=amd64 -o APT::Architectures::=amd64
	      -o APT::Architectures::=arm64
	      -o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root)
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	: >>"$d/status"
	if [ ! -s "$d/sources.list" ]; then
		{
			echo "deb [signed-by=$kr] $DEBIAN_MIRROR $suite main"
			case $suite in
			sid|unstable) ;;
			*)
				echo "deb [signed-by=$kr] $DEBIAN_MIRROR $suite-updates main"
				echo "deb [signed-by=$kr] $DEBIAN_SECURITY_MIRROR $suite-security main"
				;;
			esac
		} >"$d/sources.list"
	fi
	(
		flock 9
		age=$(($(date +%s) - $(stat -c %Y "$d/.updated" 2>/dev/null || echo 0)))
		if [ "$age" -gt "${SM4_APT_MAXAGE:-21600}" ]; then
			log "refreshing the $suite package lists"
			retry 3 "apt-get update ($suite)" timeout 600 \
				apt-get "${opts[@]}" update -qq >&2 ||
				die "apt-get update for $suite failed 3 times (is $DEBIAN_MIRROR reachable?)"
			touch "$d/.updated"
		fi
	) 9>"$d/.lock" || return 1
	"$@" "${opts[@]}"
}

_suite_dl()
{
	(cd "$3" && suite_apt "$1" timeout 900 apt-get download -qq "$2" >&2)
}

# suite_download SUITE PKG[:ARCH] DIR: download PKG (exact name) from
# SUITE into DIR unless a .deb of it is there; print its path.
suite_download()
{
	local suite=$1 pkg=$2 dir=$3 name arch f lk

	name=${pkg%%:*}
	arch=${pkg#*:}
	[ "$arch" = "$pkg" ] && arch=amd64
	mkdir -p "$dir"
	# One downloader of PKG into DIR at a time: the others wait and find
	# its .deb (apt-get download into the same file at once fails).
	exec {lk}>"$dir/.$name-$arch.lock"
	flock "$lk"
	f=$(ls "$dir/${name}_"*"_${arch}.deb" "$dir/${name}_"*"_all.deb" 2>/dev/null | head -n1)
	if [ -z "$f" ]; then
		log "downloading $pkg ($suite)"
		retry 3 "download of $pkg from $suite" _suite_dl "$suite" "$pkg" "$dir" ||
			die "cannot download $pkg from $suite"
		f=$(ls "$dir/${name}_"*"_${arch}.deb" "$dir/${name}_"*"_all.deb" 2>/dev/null | head -n1)
	fi
	exec {lk}>&-
	[ -n "$f" ] || die "no .deb for $pkg in $dir"
	echo "$f"
}

# run_lanes DIR FUNC...: run each FUNC (a shell function, in a subshell)
# side by side, its output in DIR/FUNC.log; then print the logs in the
# order given.  Fails if any FUNC failed.
run_lanes()
{
	local dir=$1 f rc=0 pids=()

	shift
	mkdir -p "$dir"
	for f in "$@"; do
		("$f") >"$dir/$f.log" 2>&1 &
		pids+=($!)
	done
	for f in "${pids[@]}"; do
		wait "$f" || rc=1
	done
	for f in "$@"; do
		cat "$dir/$f.log"
	done
	return $rc
}

# "${CHROOT_NS[@]}" DIR CMD...: run CMD chrooted in DIR, in a mount
# namespace of its own with its own /proc (objtool reads it) and, if
# CHROOT_BIND (exported) names a host directory, that directory
# bind-mounted at the same path inside.  The users of a suite chroot share
# it (tests/lib/make-chroot.sh): none of them mounts anything where the
# others would see it, or unmounts it under them.
# shellcheck disable=SC2016
CHROOT_NS=(unshare -m --propagation private sh -c
	'mount -t proc proc "$0/proc" &&
	 if [ -n "$CHROOT_BIND" ]; then
		mkdir -p "$0$CHROOT_BIND" &&
			mount --bind "$CHROOT_BIND" "$0$CHROOT_BIND" || exit 1
	 fi &&
	 exec chroot "$0" "$@"')

# Mounts made by a script: append each mount point to MOUNTS after
# mounting it; unmount_all (e.g. from an EXIT trap) unmounts them in
# reverse order, lazily if a plain umount fails.
MOUNTS=()
unmount_all()
{
	local i

	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}"
	done
	MOUNTS=()
}
