#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-compare.sh [-r ROUNDS] [-o OUTDIR] [BASE_REV] [-- sm4-bench options]
#
# The review's measurement (doc/performance.md, "Review method"): this
# tree's drivers and, with BASE_REV, an older commit's, each against
# libgcrypt's path for the same instructions, in ROUNDS interleaved
# rounds (default 3) of sm4-bench pinned to one CPU, every cell the
# fastest of its runs (-b), outputs and tags checked against libgcrypt
# before timing.  Defaults: 4 KiB requests, ECB/CBC/CTR/XTS/gcm, 15 runs
# of 2 ms per cell (sm4-bench -s 4096 -m ecb,cbc,ctr,xts,gcm -r 15).
#
# Both builds link libgcrypt statically, so that they run on this host
# whichever chroot built them: with BENCH_CHROOT=SUITE (trixie: libgcrypt
# 1.11 with its GFNI paths) they are built in that chroot (its lock taken
# only to install libgcrypt there) and run outside it.  BASE_REV is exported with git archive, with this
# tree's tests/bench/sm4-bench.c (the program, not what it measures).
#
# Prints per cell the best of the rounds' values (TSC ticks per byte),
# the spread over the rounds ((max - min) / min of the per-round values),
# this tree against BASE_REV, and every driver against its libgcrypt
# path (the ratio of the bests, and the range of the per-round ratios).
# OUTDIR (default .cache/bench-compare) keeps each round's CSV; -a only
# prints the tables again from them.

set -euo pipefail
. "$(dirname "$0")/../tests/lib/common.sh"

ROUNDS=3
OUTDIR=$CACHE/bench-compare
AGG_ONLY=
while getopts r:o:a opt; do
	case $opt in
	a) AGG_ONLY=1 ;;
	r) ROUNDS=$OPTARG ;;
	o) OUTDIR=$OPTARG ;;
	*) die "usage: $0 [-a] [-r ROUNDS] [-o OUTDIR] [BASE_REV] [-- sm4-bench options]" ;;
	esac
done
# getopts consumes a "--" right after the options: then there is no
# BASE_REV, only sm4-bench options.
DASHDASH=
if [ "$OPTIND" -gt 1 ]; then
	LASTOPT=$((OPTIND - 1))
	[ "${!LASTOPT}" != "--" ] || DASHDASH=1
fi
shift $((OPTIND - 1))
BASE=
if [ -z "$DASHDASH" ] && [ $# -gt 0 ] && [ "$1" != "--" ]; then
	BASE=$1
	shift
fi
[ "${1:-}" != "--" ] || shift
BOPTS=("$@")
[ ${#BOPTS[@]} -gt 0 ] || BOPTS=(-s 4096 -m ecb,cbc,ctr,xts,gcm -r 15)

# Print the tables from the rounds' CSVs in OUTDIR; key = implementation,
# mode, direction, size.
aggregate()
{
awk -F, -v rounds="$ROUNDS" '
/^#/ || $1 == "implementation" { next }
{
	split(FILENAME, p, "/"); f = p[length(p)]
	build = f; sub(/-[0-9]+\.csv$/, "", build)
	round = f; sub(/^.*-/, "", round); sub(/\.csv$/, "", round)
	key = $1 "," $2 "," $3 "," $4
	if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
	v[build, key, round] = $7
	if (!((build, key) in best) || $7 < best[build, key]) best[build, key] = $7
	if (!((build, key) in worst) || $7 > worst[build, key]) worst[build, key] = $7
}
function path_of(impl) {
	if (impl == "sm4-gfni-avx512") return "libgcrypt GFNI/AVX-512"
	if (impl == "sm4-gfni-avx2") return "libgcrypt GFNI/AVX2"
	if (impl == "sm4-aesni-avx2" || impl == "sm4-vaes-avx2") return "libgcrypt AES-NI/AVX2"
	if (impl == "sm4-aesni-avx") return "libgcrypt AES-NI/AVX"
	return ""
}
END {
	printf "\n## TSC ticks/B, best of %d rounds (spread over rounds)\n", rounds
	printf "%-24s %-4s %-3s %5s | %14s | %14s | %8s\n", "implementation", "mode", "dir", "size", "new", "base", "new/base"
	for (k = 1; k <= nk; k++) {
		key = keys[k]; split(key, a, ",")
		if (a[1] ~ /^template/) continue
		n = (("new", key) in best) ? best["new", key] : 0
		b = (("base", key) in best) ? best["base", key] : 0
		sn = n > 0 ? sprintf("%6.3f (%4.1f%%)", n, 100 * (worst["new", key] - n) / n) : "-"
		sb = b > 0 ? sprintf("%6.3f (%4.1f%%)", b, 100 * (worst["base", key] - b) / b) : "-"
		sr = (n > 0 && b > 0) ? sprintf("%+7.1f%%", 100 * (b / n - 1)) : "-"
		printf "%-24s %-4s %-3s %5s | %14s | %14s | %8s\n", a[1], a[2], a[3], a[4], sn, sb, sr
	}
	printf "\n## Speed against libgcrypt'"'"'s path for the same instructions (>1: faster): ratio of the bests [range of per-round ratios]\n"
	for (bi = 0; bi < 2; bi++) {
		build = bi ? "base" : "new"
		for (k = 1; k <= nk; k++) {
			key = keys[k]; split(key, a, ",")
			gp = path_of(a[1]); if (gp == "") continue
			gkey = gp "," a[2] "," a[3] "," a[4]
			if (!((build, key) in best) || !((build, gkey) in best)) continue
			lo = 1e9; hi = 0
			for (r = 1; r <= rounds; r++) {
				if (!((build, key, r) in v) || !((build, gkey, r) in v)) continue
				q = v[build, gkey, r] / v[build, key, r]
				if (q < lo) lo = q
				if (q > hi) hi = q
			}
			printf "%-5s %-20s / %-24s %-4s %-3s %5s: %5.2fx [%.2f-%.2f]\n", build, a[1], gp, a[2], a[3], a[4], best[build, gkey] / best[build, key], lo, hi
		}
	}
}' "$OUTDIR"/*-[0-9]*.csv
}

[ "$(uname -m)" = x86_64 ] || die "x86_64 only"
[ -z "$AGG_ONLY" ] || { aggregate; exit; }
ensure_pkgs gcc make libgcrypt20-dev libgpg-error-dev

# Trees to build, relative to REPO_ROOT (the chroot sees REPO_ROOT).
WORK=.bench-compare
rm -rf "${REPO_ROOT:?}/$WORK"
mkdir -p "$REPO_ROOT/$WORK" "$OUTDIR"
rm -f "$OUTDIR"/*-[0-9]*.csv "$OUTDIR"/*-[0-9]*.txt
trap 'rm -rf "${REPO_ROOT:?}/$WORK"' EXIT
TREES=(.)
NAMES=(new)
if [ -n "$BASE" ]; then
	mkdir -p "$REPO_ROOT/$WORK/base"
	git -C "$REPO_ROOT" archive "$BASE" | tar -x -C "$REPO_ROOT/$WORK/base"
	cp "$REPO_ROOT/tests/bench/sm4-bench.c" "$REPO_ROOT/$WORK/base/tests/bench/"
	TREES=(. "$WORK/base")
	NAMES=(new base)
fi

# Build each tree's sm4-bench (static) with make run as "$@" ... make.
build()
{
	local root=$1 t

	shift
	for t in "${TREES[@]}"; do
		"$@" make -s -C "$root/$t/tests/unit" BUILD_DIR=build-bench-static \
			LDFLAGS=-static LDLIBS="-lgcrypt -lgpg-error" \
			build-bench-static/sm4-bench >&2
	done
}

if [ -n "${BENCH_CHROOT:-}" ]; then
	chr=$CACHE/chroots/$BENCH_CHROOT
	[ -f "$chr/.complete" ] ||
		die "no $BENCH_CHROOT chroot in $CACHE/chroots (tests/test-kbuild-matrix.sh $BENCH_CHROOT makes it)"
	# Installing takes the chroot's lock; building only reads the chroot
	# (through a bind mount in a mount namespace of its own).
	if ! chroot "$chr" dpkg -s libgcrypt20-dev libgpg-error-dev >/dev/null 2>&1; then
		(
			exec 9>"$CACHE/chroots/.$BENCH_CHROOT.lock"
			timeout 3600 flock 9 || die "the $BENCH_CHROOT chroot stayed locked for an hour"
			timeout 900 chroot "$chr" sh -c 'export DEBIAN_FRONTEND=noninteractive
				apt-get update -qq && apt-get install -y -qq libgcrypt20-dev libgpg-error-dev gcc make' >&2
		) || die "cannot install libgcrypt20-dev in the $BENCH_CHROOT chroot"
	fi
	mnt=/mnt/sm4-bench
	mkdir -p "$chr$mnt"
	export -f build
	export TREES_LIST="${TREES[*]}"
	unshare -m --propagation private bash -c '
		set -e
		TREES=($TREES_LIST)
		mount --bind "$1" "$2$3"
		build "$3" chroot "$2"' _ "$REPO_ROOT" "$chr" "$mnt" ||
		die "building in the $BENCH_CHROOT chroot failed"
else
	build "$REPO_ROOT"
fi

CPU=${BENCH_CPU:-$(($(nproc) - 1))}
log "load before: $(uptime)"
for ((r = 1; r <= ROUNDS; r++)); do
	for k in "${!TREES[@]}"; do
		csv=$OUTDIR/${NAMES[$k]}-$r.csv
		taskset -c "$CPU" "$REPO_ROOT/${TREES[$k]}/tests/unit/build-bench-static/sm4-bench" \
			-c "$CPU" -b -o "$csv" "${BOPTS[@]}" >"$OUTDIR/${NAMES[$k]}-$r.txt" ||
			die "round $r of ${NAMES[$k]} failed: $(grep -h MISMATCH "$OUTDIR/${NAMES[$k]}-$r.txt" | head -3)"
		log "round $r ${NAMES[$k]}: $(tail -1 "$OUTDIR/${NAMES[$k]}-$r.txt")"
	done
done
log "load after: $(uptime)"
head -8 "$OUTDIR/new-1.txt" | grep '^#'

aggregate
