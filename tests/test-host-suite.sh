#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-host-suite.sh SUITE [STAGES]
#
# The README's two commands on a fresh Debian SUITE (trixie, sid) amd64
# host, run on this machine: a minimal SUITE root made with mmdebstrap,
# with /proc, /sys, /dev (and /dev/pts, /dev/shm, a tmpfs /run) of this
# machine bound into it, the project cloned inside from this checkout's
# committed HEAD, then, inside, as root:
#   tools/demo --arch x86_64
#   tests/run-all --only STAGES --quick   (default deps,kbuild-x86_64,unit-x86_64)
# and the inner run's closing "N passed, 0 failed, N skipped" must say so.
# QEMU runs under TCG (no /dev/kvm needed).  Nothing is loaded into this
# machine's kernel.
#
# The pristine root is made once per recipe and cached under
# .cache/hosts/SUITE/root; every run works on a fresh overlay of it
# (.cache/hosts/SUITE/run, removed after a passing run), so each run
# starts from the same fresh system.  Downloads made inside (apt's archives, the inner checkout's
# .cache) are kept under .cache/hosts/SUITE and reused, never needed.
# Everything runs in a private mount namespace and is unmounted on any
# exit; every step runs under a timeout.
#
# Prints PASS:/FAIL:/SKIP: lines (the inner run's FAIL and SKIP lines are
# repeated, prefixed with the stage) and exits 1 when anything failed.

set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib/common.sh"

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 SUITE [STAGE,...]"
SUITE=$1
STAGES=${2:-deps,kbuild-x86_64,unit-x86_64}
[ "$(id -u)" = 0 ] || die "$0 needs root (mmdebstrap, mounts, chroot)"

# A private mount namespace: whatever happens, no mount outlives the run.
if [ -z "${SM4_HOST_SUITE_NS:-}" ]; then
	SM4_HOST_SUITE_NS=1 exec unshare -m --propagation private "$0" "$@"
	die "unshare -m failed: cannot make a private mount namespace"
fi

ensure_pkgs mmdebstrap git
H="$CACHE/hosts/$SUITE"
BASE="$H/root"
RUN="$H/run"
R="$RUN/merged"
CLONE=/root/sm4-crypto
# Bump when the root's recipe changes: a cached root of another recipe
# is made again.
RECIPE="sm4-host-root v3: $SUITE amd64 minbase +git,ca-certificates; main, -updates, -security; no Recommends; no Valid-Until"
CHECK_PREFIX="host-$SUITE: "

# abort WHAT: a setup step failed; the run cannot go on.
abort()
{
	fail "$*"
	exit 1
}

# Mounts go to MOUNTS (common.sh); the cleanup unmounts them.
cleanup()
{
	unmount_all
	if findmnt -rn -o TARGET | grep -qF "$R"; then
		echo "error: still mounted under $R:" >&2
		findmnt -rn -o TARGET | grep -F "$R" >&2
	fi
}
trap cleanup EXIT
# A signal stops the running step (timeout passes it on to the step's
# whole process group), then the cleanup unmounts.
exec 3>&1
CHILD=
STEP=setup
on_signal()
{
	[ -z "$CHILD" ] || kill -TERM "$CHILD" 2>/dev/null
	wait
	fail "interrupted by a signal during: $STEP" >&3
	exit 130
}
trap on_signal INT TERM

# mnt WHAT ARGS... TARGET: mount, remembered for the cleanup.
mnt()
{
	local what=$1

	shift
	run_timeout 60 "mount $what" mount "$@" || abort "cannot mount $what on ${*: -1}"
	MOUNTS+=("${*: -1}")
}

# step_timeout TIMEOUT WHAT CMD...: CMD under a timeout, in the
# background so that a signal reaches on_signal at once; on a failure or
# a timeout print one line naming WHAT (on fd 3, this script's stdout,
# whatever the caller redirects).
step_timeout()
{
	local t=$1 rc

	STEP=$2
	shift 2
	timeout -k 10 "$t" "$@" &
	CHILD=$!
	wait "$CHILD"
	rc=$?
	CHILD=
	case $rc in
	0) ;;
	124|137) echo "error: $STEP: no result after $t s (timed out)" >&3 ;;
	*) echo "error: $STEP failed (status $rc)" >&3 ;;
	esac
	return $rc
}

# inroot TIMEOUT WHAT LOG CMD: run the shell command CMD as root in the
# root, in a clean login environment, output in LOG.
inroot()
{
	step_timeout "$1" "$2 (in the $SUITE root)" chroot "$R" /usr/bin/env -i \
		HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "$4" >"$3" 2>&1 </dev/null
}

mkdir -p "$H"
exec 9>"$CACHE/hosts/.$SUITE.lock"
flock 9

# --- the cached pristine root ---------------------------------------------
t0=$(date +%s)
if [ "$(cat "$BASE/.sm4-recipe" 2>/dev/null)" != "$RECIPE" ]; then
	log "making a fresh $SUITE root with mmdebstrap (once per recipe; log $H/mmdebstrap.log)"
	rm -rf --one-file-system "$BASE"
	sources=("deb $DEBIAN_MIRROR $SUITE main")
	case $SUITE in
	sid|unstable) ;;
	*) sources+=("deb $DEBIAN_MIRROR $SUITE-updates main"
		     "deb $DEBIAN_SECURITY_MIRROR $SUITE-security main") ;;
	esac
	# Without Recommends (as in many minimal installs): the scripts
	# must name every package they need, and the installs are quicker.
	# Archive snapshots may carry an expired Release file (sid's).
	if ! step_timeout 1800 "mmdebstrap $SUITE" mmdebstrap --variant=minbase \
			--architectures=amd64 --include=git,ca-certificates \
			--aptopt='APT::Install-Recommends "false"' \
			--aptopt='Acquire::Check-Valid-Until "false"' \
			"$SUITE" "$BASE" "${sources[@]}" \
			</dev/null >"$H/mmdebstrap.log" 2>&1; then
		tail -n 10 "$H/mmdebstrap.log"
		abort "mmdebstrap could not make a $SUITE root (log: $H/mmdebstrap.log)"
	fi
	echo "$RECIPE" >"$BASE/.sm4-recipe"
	pass "fresh $SUITE root made with mmdebstrap ($(($(date +%s) - t0)) s)"
else
	pass "fresh $SUITE root (cached: $BASE, recipe '$RECIPE')"
fi

# --- a fresh overlay of it, this machine's /proc, /sys, /dev --------------
rm -rf --one-file-system "$RUN"
mkdir -p "$RUN/upper" "$RUN/work" "$R" "$H/apt-archives" "$H/sm4-cache"
mnt "the $SUITE root overlay" -t overlay overlay \
	-o "lowerdir=$BASE,upperdir=$RUN/upper,workdir=$RUN/work" "$R"
mnt /proc --bind /proc "$R/proc"
mnt /sys --bind /sys "$R/sys"
mnt /dev --bind /dev "$R/dev"
mnt /dev/pts --bind /dev/pts "$R/dev/pts"
mnt /dev/shm -t tmpfs tmpfs "$R/dev/shm"
mnt /run -t tmpfs tmpfs "$R/run"
mnt "apt's archive cache" --bind "$H/apt-archives" "$R/var/cache/apt/archives"
cp -L /etc/resolv.conf "$R/etc/resolv.conf" ||
	abort "cannot copy /etc/resolv.conf into $R"

# --- the project, cloned inside -------------------------------------------
rev=$(git -C "$ROOT" rev-parse --short HEAD) ||
	abort "$ROOT is not a git checkout: nothing to clone"
git -C "$ROOT" bundle create "$R/tmp/sm4.bundle" HEAD >"$H/clone.log" 2>&1 ||
	abort "git bundle of $ROOT failed (log: $H/clone.log)"
if ! inroot 300 "git clone" "$H/clone.log" \
		"git clone -q /tmp/sm4.bundle $CLONE && git -C $CLONE log --oneline -1"; then
	tail -n 5 "$H/clone.log"
	abort "git clone inside the $SUITE root failed (log: $H/clone.log)"
fi
pass "project cloned inside the root at commit $rev"
mkdir -p "$R$CLONE/.cache"
mnt "the inner download cache" --bind "$H/sm4-cache" "$R$CLONE/.cache"

# --- tools/demo -----------------------------------------------------------
t0=$(date +%s)
DEMOLOG="$H/demo.log"
if inroot 3600 "tools/demo" "$DEMOLOG" "cd $CLONE && tools/demo --arch x86_64"; then
	rc=0
else
	rc=$?
fi
dt=$(($(date +%s) - t0))
serves=$(sed -n 's/.*the kernel serves its xts(sm4) with \([^ ]*\) .*/\1/p' "$DEMOLOG" | head -n1)
if [ $rc -ne 0 ]; then
	tail -n 15 "$DEMOLOG"
	why=$(grep -m1 -E '^ *(ERROR|error|demo: error): ' "$DEMOLOG" | sed 's/^ *//')
	fail "tools/demo --arch x86_64 failed (status $rc, $dt s${why:+: $why}; log: $DEMOLOG)"
elif ! grep -q 'cipher sm4-xts-plain64' "$DEMOLOG" ||
		! grep -q '^  Everything worked' "$DEMOLOG"; then
	fail "tools/demo --arch x86_64 exited 0 but shows no working sm4-xts-plain64 volume (log: $DEMOLOG)"
elif [ "${serves#*sm4}" = "$serves" ]; then
	fail "tools/demo: xts(sm4) of the LUKS2 volume is not served by an SM4 driver ('$serves'; log: $DEMOLOG)"
else
	pass "tools/demo --arch x86_64: LUKS2 sm4-xts-plain64 volume served by $serves ($dt s)"
fi

# --- tests/run-all --------------------------------------------------------
t0=$(date +%s)
RALOG="$H/run-all.log"
inroot 4800 "tests/run-all" "$RALOG" \
	"cd $CLONE && tests/run-all --quick --only $STAGES"
rc=$?
dt=$(($(date +%s) - t0))
# run-all ends with "N passed, N failed, N skipped".
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$RALOG" | tail -n1)
np=${summary%% passed*}
nf=${summary#* passed, }
nf=${nf%% failed*}
nk=${summary##*failed, }
nk=${nk%% skipped}
grep -E '^  FAIL: ' "$RALOG" | sed "s/^  FAIL: /FAIL: host-$SUITE: run-all: /"
nfl=$(grep -c '^  FAIL: ' "$RALOG")
nfail=$((nfail + nfl))
grep -E '^  SKIP: ' "$RALOG" | sed "s/^  SKIP: /SKIP: host-$SUITE: run-all: /"
missing=
for s in ${STAGES//,/ }; do
	grep -qxF "=== $s" "$RALOG" || missing="$missing $s"
done
if [ -z "$summary" ]; then
	tail -n 15 "$RALOG"
	fail "tests/run-all printed no 'N passed, N failed' line (status $rc; log: $RALOG)"
elif [ -n "$missing" ]; then
	fail "tests/run-all did not run the stage(s)$missing (log: $RALOG)"
elif [ "$nf" -ne 0 ] || [ $rc -ne 0 ]; then
	[ "$nfl" -gt 0 ] || fail "tests/run-all: $nf failed, status $rc (log: $RALOG)"
elif [ "$np" -eq 0 ]; then
	fail "tests/run-all passed nothing (log: $RALOG)"
else
	pass "tests/run-all --quick --only $STAGES: $np passed, 0 failed, $nk skipped ($dt s)"
fi

echo "$npass passed, $nfail failed"
# A passing run's overlay (gigabytes of installed packages) goes; a
# failing one stays for a look until the next run.
if [ "$nfail" -eq 0 ]; then
	cleanup
	rm -rf --one-file-system "$RUN"
fi
[ "$nfail" -eq 0 ]
