#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [OUTDIR] [-- sm4-bench options]
#
# Native userspace benchmark of every SM4 implementation this CPU runs,
# next to libgcrypt (tests/bench/sm4-bench.c).  Builds the benchmark with
# the unit-test harness objects, runs it pinned to one CPU and writes
#   OUTDIR/results.txt   the tables as printed
#   OUTDIR/results.csv   one line per implementation x mode x size
#   OUTDIR/chart.png     MB/s against request size, one panel per mode
# OUTDIR defaults to doc/bench (the committed latest results).
# Environment: BENCH_CPU (CPU to pin to; default the last one);
# BENCH_CHROOT=SUITE: build and run inside the cached chroot of that
# Debian suite (.cache/chroots/SUITE, made by tests/test-kbuild-matrix.sh),
# against its libgcrypt (trixie: 1.11, with GFNI/AVX2 and GFNI/AVX-512
# SM4 paths; libgcrypt20-dev is installed there at run time), holding the
# chroot's lock as the kbuild tests do.

set -euo pipefail
. "$(dirname "$0")/../tests/lib/common.sh"

OUTDIR=$REPO_ROOT/doc/bench
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
	OUTDIR=$1
	shift
fi
[ "${1:-}" != "--" ] || shift
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)

case $(uname -m) in
x86_64|aarch64) ;;
*) die "unsupported host $(uname -m)" ;;
esac
pkgs=(gcc make libgcrypt20-dev)
command -v gnuplot >/dev/null || pkgs+=(gnuplot-nox)
ensure_pkgs "${pkgs[@]}"

RUN=()
BDIR=build
if [ -n "${BENCH_CHROOT:-}" ]; then
	chr=$CACHE/chroots/$BENCH_CHROOT
	[ -f "$chr/.complete" ] ||
		die "no $BENCH_CHROOT chroot in $CACHE/chroots (tests/test-kbuild-matrix.sh $BENCH_CHROOT makes it)"
	exec 9>"$CACHE/chroots/.$BENCH_CHROOT.lock"
	timeout 3600 flock 9 || die "the $BENCH_CHROOT chroot stayed locked for an hour"
	mnt=/mnt/sm4-bench
	mkdir -p "$chr$mnt"
	mount --bind "$REPO_ROOT" "$chr$mnt" || die "cannot bind-mount the sources"
	mountpoint -q "$chr/proc" || { mount -t proc proc "$chr/proc" && pmnt=1; }
	trap 'umount "$chr$mnt"; [ -z "${pmnt:-}" ] || umount "$chr/proc"' EXIT
	timeout 900 chroot "$chr" sh -c 'export DEBIAN_FRONTEND=noninteractive
		dpkg -s libgcrypt20-dev >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get install -y -qq libgcrypt20-dev gcc make; }' >&2 ||
		die "cannot install libgcrypt20-dev in the $BENCH_CHROOT chroot"
	RUN=(chroot "$chr")
	BDIR=build-$BENCH_CHROOT
	make_root=$mnt
else
	make_root=$REPO_ROOT
fi
"${RUN[@]}" make -s -C "$make_root/tests/unit" BUILD_DIR="$BDIR" "$BDIR/sm4-bench" >&2
BENCH=$make_root/tests/unit/$BDIR/sm4-bench

CPU=${BENCH_CPU:-$(($(nproc) - 1))}
CSV=$OUTDIR/results.csv
TXT=$OUTDIR/results.txt
rm -f "$CSV"
# Where the benchmark writes the CSV, as it sees the file system.
CSV_RUN=$CSV
if [ -n "${BENCH_CHROOT:-}" ]; then
	case $CSV in
	"$REPO_ROOT"/*) CSV_RUN=$make_root${CSV#"$REPO_ROOT"} ;;
	*) die "with BENCH_CHROOT, OUTDIR must lie inside $REPO_ROOT" ;;
	esac
fi
set +e
{
	echo "# SPDX-License-Identifier: GPL-2.0"
	"${RUN[@]}" taskset -c "$CPU" "$BENCH" -c "$CPU" -o "$CSV_RUN" "$@"
} | tee "$TXT"
rc=${PIPESTATUS[0]}
set -e
[ -s "$CSV" ] || die "the benchmark wrote no results"

# Chart: one gnuplot datablock per (mode, implementation), so that each
# line only joins the sizes of its own series.
PLT=$OUTDIR/.chart.gp
model=$(sed -n 's/^# sm4-bench: \(.*\), \(pinned\|not pinned\).*/\1/p' "$TXT")
awk -F, -v out="$OUTDIR/chart.png" -v model="$model" '
/^#/ || $1 == "implementation" { next }
{
	row = toupper($2) ($2 == "ctr" || $2 == "cmac" ? "" : " " $3)
	if (!(row in rseen)) { rseen[row] = 1; rows[++nr] = row }
	if (!($1 in iseen)) { iseen[$1] = 1; impls[++ni] = $1 }
	key = row SUBSEP $1
	data[key] = data[key] $5 " " $6 "\n"
}
END {
	print "set terminal pngcairo size 1500,1150 font \",10\""
	print "set output \"" out "\""
	print "set logscale x 2"
	print "set xrange [12:1400000]"
	print "set xtics (\"16\" 16, \"64\" 64, \"256\" 256, \"1K\" 1024, \"4K\" 4096, \"16K\" 16384, \"64K\" 65536, \"256K\" 262144, \"1M\" 1048576)"
	print "set grid"
	print "set xlabel \"request size (bytes)\""
	print "set ylabel \"MB/s (log scale)\""
	print "set logscale y 10"
	print "set format y \"%g\""
	# Baselines: sm4-generic grey, libgcrypt black dashed; SIMD in colour.
	split("#1b9e77 #2c7fb8 #d95f02 #e7298a #7570b3 #66a61e", pal, " ")
	np = 0
	for (i = 1; i <= ni; i++) {
		if (impls[i] == "sm4-generic")
			style[i] = "lc rgb \"#888888\" dt 1"
		else if (impls[i] == "libgcrypt")
			style[i] = "lc rgb \"#000000\" dt 2"
		else
			style[i] = "lc rgb \"" pal[(np++ % 6) + 1] "\" dt 1"
	}
	for (r = 1; r <= nr; r++)
		for (i = 1; i <= ni; i++) {
			printf "$d%d_%d << EOD\n%sEOD\n", r, i, data[rows[r] SUBSEP impls[i]]
		}
	# Panels placed by hand (origin/size) so that a full-width strip
	# under the title can hold one legend for all of them, in one row.
	cols = 3
	rws = int((nr + cols - 1) / cols)
	top = 0.90
	ph = top / rws
	printf "set multiplot title \"SM4 throughput, %s (userspace, one core)\" font \",13\"\n", model
	print "unset key"
	for (r = 1; r <= nr; r++) {
		printf "set origin %f,%f\n", ((r - 1) % cols) / cols, top - (int((r - 1) / cols) + 1) * ph
		printf "set size %f,%f\n", 1 / cols, ph
		printf "set title \"%s\"\n", rows[r]
		printf "plot "
		for (i = 1; i <= ni; i++)
			printf "%s$d%d_%d using 1:2 with linespoints %s lw 2 pt 7 ps 0.6 notitle", (i > 1 ? ", " : ""), r, i, style[i]
		printf "\n"
	}
	# The legend: an empty full-width plot that only draws its key.
	printf "set origin 0,%f\nset size 1,%f\n", top, 0.95 - top
	print "unset title; unset xlabel; unset ylabel; unset tics; unset border; unset grid"
	print "unset logscale; set xrange [0:1]; set yrange [0:1]"
	print "set key horizontal center center font \",11\" samplen 3 width 2"
	printf "plot "
	for (i = 1; i <= ni; i++)
		printf "%sNaN with linespoints %s lw 2 pt 7 ps 0.6 title \"%s\"", (i > 1 ? ", " : ""), style[i], impls[i]
	printf "\n"
	print "unset multiplot"
}' "$CSV" >"$PLT"
gnuplot "$PLT" || die "gnuplot failed (script: $PLT)"
rm -f "$PLT"
log "wrote $TXT, $CSV and $OUTDIR/chart.png"
exit "$rc"
