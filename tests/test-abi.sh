#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-abi.sh [SERIES...]: the exports of this project's modules must be
# upstream's, symbol by symbol: name, modversions CRC, export kind,
# namespace and exporting module.  For each kernel series (default: 6.1
# with the host's headers, 6.12 and 7.2 inside the trixie and sid chroots
# of tests/test-kbuild-matrix.sh) and each of x86_64 and arm64, upstream's
# own modules are built out of tree from that kernel's linux-source
# package (tests/lib/upstream-src.sh) against the same headers as this
# project, and the two Module.symvers files are compared:
#
#   sm4      crypto/sm4.c: crypto_sm4_fk/ck/sbox, sm4_expandkey,
#            sm4_crypt_block (upstream users: every SM4 module);
#   sm4-ce   arm64 only, arch/arm64/crypto/sm4-ce-glue.c + sm4-ce-core.S:
#            the helpers sm4-ce-ccm and sm4-ce-gcm call (from 6.2 on;
#            a series whose sm4-ce exports nothing is a SKIP).
#
# Distribution check (SM4_ABI_DISTRO, default "6.1-x86_64 6.12-arm64
# 7.2-arm64"): tests/lib/build-upstream-sm4.sh builds all of upstream's
# SM4 modules and an upstream-built user of <crypto/sm4.h> for that
# kernel; they are installed into a scratch module tree as a distribution
# would (kernel/, extra/), ours into updates/, and depmod -e runs over it
# with the kernel's Module.symvers: no module may disagree about the
# version of a symbol or miss one, every name we ship must resolve to
# ours, upstream's remaining users (sm4-ce-ccm, sm4-ce-gcm, the test
# module) must depend on our modules only, and every SM4 crypto alias
# must lead to ours.  Nothing is loaded.  On 6.1 x86_64 the same tree
# with the sized-declaration sm4.ko of the self-test must make depmod
# report crypto_sm4_fk.
#
# Self-test: on the first series and architecture the library is built
# once more with sized array declarations in include/sm4/sm4.h (the
# defect this test was written for); the comparison must fail and name
# crypto_sm4_fk.
#
# Environment: SM4_ABI_ARCHES (default "x86_64 arm64").

set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib/common.sh"
. "$ROOT/tests/lib/upstream-src.sh"

SERIES=("$@")
[ ${#SERIES[@]} -gt 0 ] || SERIES=(6.1 6.12 7.2)
ARCHES=${SM4_ABI_ARCHES:-x86_64 arm64}
DISTRO=${SM4_ABI_DISTRO-6.1-x86_64 6.12-arm64 7.2-arm64}
KDIR_HOST=		# the headers of the current build, as the host sees them
WORK="$CACHE/abi"
SELFTEST_DONE=

# compare LABEL REF OURS: every export of REF (upstream's Module.symvers)
# must appear in OURS with the same CRC, kind, namespace and module name.
# Prints one PASS/FAIL line per symbol; returns 1 if any failed.
compare()
{
	local label=$1 ref=$2 ours=$3 crc sym mod kind ns line n=0 bad=0
	local ocrc osym omod okind ons want have

	if [ ! -s "$ref" ]; then
		fail "$label: upstream's Module.symvers is empty ($ref)"
		return 1
	fi
	while IFS=$'\t' read -r crc sym mod kind ns; do
		n=$((n + 1))
		line=$(awk -F'\t' -v s="$sym" '$2 == s' "$ours")
		if [ -z "$line" ]; then
			fail "$label: $sym ($crc $kind) is not exported by this project"
			bad=1
			continue
		fi
		IFS=$'\t' read -r ocrc osym omod okind ons <<<"$line"
		want="$crc ${kind} ${mod##*/} ns=${ns:-none}"
		have="$ocrc ${okind} ${omod##*/} ns=${ons:-none}"
		if [ "$want" = "$have" ]; then
			pass "$label: $sym $want"
		else
			fail "$label: $sym: upstream $want, this project $have"
			bad=1
		fi
	done <"$ref"
	[ "$n" -gt 0 ] || { fail "$label: no symbols compared"; return 1; }
	return "$bad"
}

# kbuild_file DIR SERIES LINES...: write DIR/Kbuild.
kbuild_file()
{
	local dir=$1

	shift
	mkdir -p "$dir"
	printf '# Written by tests/test-abi.sh: upstream reference build.\n' >"$dir/Kbuild"
	printf '%s\n' "$@" >>"$dir/Kbuild"
}

# stage_refs UPSTREAM DIR ARCH: lay out the upstream reference builds
# under DIR (ref-sm4, and ref-sm4-ce on arm64 if sm4-ce exports symbols).
stage_refs()
{
	local up=$1 dir=$2 arch=$3

	rm -rf "$dir/ref-sm4" "$dir/ref-sm4-ce"
	kbuild_file "$dir/ref-sm4" 'obj-m := sm4.o'
	cp "$up/crypto/sm4.c" "$dir/ref-sm4/"
	if [ "$arch" = arm64 ] &&
			grep -q '^EXPORT_SYMBOL' "$up/arch/arm64/crypto/sm4-ce-glue.c"; then
		kbuild_file "$dir/ref-sm4-ce" 'obj-m := sm4-ce.o' \
			'sm4-ce-y := sm4-ce-glue.o sm4-ce-core.o'
		cp "$up"/arch/arm64/crypto/sm4-ce-glue.c \
			"$up"/arch/arm64/crypto/sm4-ce-core.S "$dir/ref-sm4-ce/"
		cp "$up"/arch/arm64/crypto/sm4-ce*.h "$dir/ref-sm4-ce/" 2>/dev/null
	fi
	return 0
}

# stage_ours DIR: copy this project's module sources to DIR/ours.
stage_ours()
{
	rm -rf "$1/ours"
	mkdir -p "$1/ours"
	(cd "$ROOT" && git ls-files -co --exclude-standard -- Kbuild Makefile \
		dkms.conf lib crypto include arch |
		while read -r f; do [ -e "$f" ] && echo "$f"; done |
		cpio -pdm --quiet "$1/ours")
}

# build_and_compare LABEL HDIR RDIR ARCH MAKE...: build what stage_refs
# and stage_ours laid out in HDIR, which MAKE (a make command line, maybe
# run through chroot) sees as RDIR, and compare the Module.symvers files.
build_and_compare()
{
	local label=$1 hdir=$2 rdir=$3 arch=$4 ours=$5 mcrc
	shift 5
	local run=("$@") log="$hdir/build.log" d

	: >"$log"
	for d in ref-sm4 "$ours"; do
		if ! timeout 1200 "${run[@]}" M="$rdir/$d" modules >>"$log" 2>&1; then
			fail "$label: building $d failed or timed out (log: $log)"
			tail -n 15 "$log"
			return 1
		fi
	done
	mcrc=$(awk -F'\t' '$2 == "sm4_expandkey" { print $1 }' "$hdir/ref-sm4/Module.symvers")
	[ "$mcrc" = 0x00000000 ] &&
		echo "info: $label: CONFIG_MODVERSIONS is off in these headers: CRCs are all 0, names/kinds/modules still compared"
	compare "$label sm4" "$hdir/ref-sm4/Module.symvers" "$hdir/$ours/Module.symvers"
	if [ "$arch" != arm64 ]; then
		:
	elif [ -d "$hdir/ref-sm4-ce" ]; then
		if timeout 1200 "${run[@]}" M="$rdir/ref-sm4-ce" \
				KBUILD_EXTRA_SYMBOLS="$rdir/ref-sm4/Module.symvers" \
				modules >>"$log" 2>&1; then
			compare "$label sm4-ce" "$hdir/ref-sm4-ce/Module.symvers" \
				"$hdir/$ours/Module.symvers"
		else
			fail "$label: building upstream's sm4-ce failed (log: $log)"
			tail -n 15 "$log"
		fi
	else
		skip "$label sm4-ce: upstream's sm4-ce exports nothing on this kernel (no sm4-ce-ccm/gcm users)"
	fi
	if [ -z "$SELFTEST_DONE" ]; then
		selftest "$label" "$hdir" "$rdir" "$ours" "${run[@]}"
		FAULT_SM4=$hdir/fault/sm4.ko
	fi
	case " $DISTRO " in
	*" $SERIES_NOW-$arch "*)
		distro_check "$label" "$hdir" "$hdir/$ours"
		;;
	esac
}

# distro_check LABEL HDIR OURS: the scratch "distribution with SM4" of the
# header comment, for the headers in $KDIR_HOST and our modules in OURS.
FAULT_SM4=
distro_check()
{
	local label="$1 distro" hdir=$2 ours=$3 root kver mdir n rel d m bad
	local out="$2/upstream"

	if ! SM4_CHROOT_LOCKED=1 bash "$ROOT/tests/lib/build-upstream-sm4.sh" \
			"$KDIR_HOST" "$out" >"$hdir/upstream.log" 2>&1; then
		fail "$label: building upstream's SM4 modules failed (log: $hdir/upstream.log)"
		tail -n 10 "$hdir/upstream.log"
		return
	fi
	root=$hdir/distro
	kver=$SERIES_NOW.0-sm4-distro
	mdir=$root/lib/modules/$kver
	rm -rf "$root"
	mkdir -p "$mdir/updates"
	while read -r n rel; do
		mkdir -p "$mdir/${rel%/*}"
		cp "$out/modules/$n.ko" "$mdir/$rel"
	done <"$out/modules.list"
	cp "$ours"/*.ko "$mdir/updates/"
	if distro_depmod "$root" "$kver"; then
		pass "$label: depmod -e: no symbol version disagreement, no unknown symbol"
	else
		fail "$label: depmod -e complains (above)"
	fi
	while read -r n rel; do
		if [ -e "$mdir/updates/$n.ko" ]; then
			if grep -q "^updates/$n\.ko:" "$mdir/modules.dep" &&
					! grep -q "^$rel:" "$mdir/modules.dep"; then
				pass "$label: $n resolves to ours, upstream's $rel is shadowed"
			else
				fail "$label: $n: upstream's $rel is not shadowed by updates/$n.ko"
			fi
			continue
		fi
		d=$(sed -n "s|^$rel: *||p" "$mdir/modules.dep")
		bad=
		for m in $d; do
			case $m in updates/*) ;; *) bad="$bad $m" ;; esac
		done
		if grep -q "^$rel:" "$mdir/modules.dep" && [ -n "$d" ] && [ -z "$bad" ]; then
			pass "$label: upstream-built $n runs on ours: $d"
		else
			fail "$label: upstream-built $n depends on${bad:- nothing of ours}"
		fi
	done <"$out/modules.list"
	# Every SM4 crypto alias, with the file of the module it names.
	set -- $(awk 'NR == FNR {
			sub(/:.*/, ""); b = $0; sub(/.*\//, "", b)
			sub(/\.ko.*$/, "", b); gsub("-", "_", b); path[b] = $0; next
		}
		$1 == "alias" && $2 ~ /^crypto-.*sm4/ {
			n++; p = path[$3]
			if (p !~ /^updates\// && p !~ /\/sm4-ce-(ccm|gcm)\.ko$/)
				bad = bad " " $2 "->" (p == "" ? $3 : p)
		}
		END { print n + 0, bad }' "$mdir/modules.dep" "$mdir/modules.alias")
	n=$1
	shift
	if [ "$n" -gt 0 ] && [ $# -eq 0 ]; then
		pass "$label: all $n SM4 crypto aliases lead to our modules (or upstream's unshadowed AEADs)"
	else
		fail "$label: $n SM4 crypto aliases, leading elsewhere:${*:- none}"
	fi
	if [ -n "$FAULT_SM4" ] && [ "$SERIES_NOW-$arch_now" = 6.1-x86_64 ]; then
		cp "$FAULT_SM4" "$mdir/updates/sm4.ko"
		if ! distro_depmod "$root" "$kver" >"$hdir/distro-fault.out" &&
				grep -q 'disagrees about version of symbol crypto_sm4_fk' "$hdir/distro-fault.out"; then
			pass "abi self-test: depmod reports the sized-declaration sm4.ko: $(grep -m1 -o 'sm4_upstream_abi_test.ko disagrees about version of symbol crypto_sm4_[a-z]*' "$hdir/distro-fault.out")"
		else
			fail "abi self-test: depmod did not report the sized-declaration sm4.ko"
		fi
	fi
}

# distro_depmod ROOT KVER: depmod -e over the scratch tree with the
# kernel's Module.symvers; returns 1, printing its complaints, if a module
# disagrees about a symbol version or misses a symbol.
distro_depmod()
{
	local w

	w=$(depmod -b "$1" -e -E "$KDIR_HOST/Module.symvers" "$2" 2>&1 |
		grep -E 'disagrees about version|unknown symbol|needs unknown')
	[ -z "$w" ] && return 0
	echo "$w" | sed "s|$1/lib/modules/$2/||" | head -n 20
	return 1
}

# selftest LABEL HDIR RDIR OURS MAKE...: a sized declaration of the
# tables (as before the fix) must make the comparison fail, naming
# crypto_sm4_fk.
selftest()
{
	local label=$1 hdir=$2 rdir=$3 ours=$4 out
	shift 4

	SELFTEST_DONE=1
	rm -rf "$hdir/fault"
	cp -a "$hdir/$ours" "$hdir/fault"
	# Nothing of the first build may survive into this one.
	find "$hdir/fault" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' \
		-o -name '*.mod*' -o -name Module.symvers \) -delete
	sed -i -e 's/crypto_sm4_fk\[\]/crypto_sm4_fk[4]/' \
		-e 's/crypto_sm4_ck\[\]/crypto_sm4_ck[32]/' \
		-e 's/crypto_sm4_sbox\[\]/crypto_sm4_sbox[256]/' \
		"$hdir/fault/include/sm4/sm4.h"
	if cmp -s "$hdir/$ours/include/sm4/sm4.h" "$hdir/fault/include/sm4/sm4.h"; then
		fail "abi self-test: could not inject the sized declarations"
		return
	fi
	if ! timeout 1200 "$@" M="$rdir/fault" modules >"$hdir/fault.log" 2>&1; then
		fail "abi self-test: the faulty build failed (log: $hdir/fault.log)"
		return
	fi
	out=$(compare "$label sm4 (fault)" "$hdir/ref-sm4/Module.symvers" \
		"$hdir/fault/Module.symvers")
	echo "$out" | sed 's/^\(PASS\|FAIL\): /  self-test | \1 /'
	if echo "$out" | grep -q '^FAIL: .* crypto_sm4_fk: upstream'; then
		pass "abi self-test: sized declarations in include/sm4/sm4.h are caught ($(echo "$out" | grep -m1 'crypto_sm4_fk' | sed 's/^FAIL: [^:]*: //'))"
	else
		fail "abi self-test: sized declarations in include/sm4/sm4.h went unnoticed"
	fi
}

# --- 6.1: the host's headers (arm64 cross, as tests/lib/build-modules.sh) ---
host_series()
{
	local series=$1 up=$2 arch dir kdir margs

	for arch in $ARCHES; do
		dir="$WORK/$series-$arch"
		mkdir -p "$dir"
		# build-modules.sh prepares the headers (arm64: unpacked
		# under .cache) and builds ours; its kdir link is reused.
		if ! bash "$ROOT/tests/lib/build-modules.sh" "$arch" \
				"$dir/bm" >"$dir/bm.log" 2>&1; then
			fail "abi $series $arch: tests/lib/build-modules.sh failed (log: $dir/bm.log)"
			tail -n 10 "$dir/bm.log"
			continue
		fi
		kdir=$(readlink -f "$dir/bm/kdir")
		margs=()
		[ "$arch" = arm64 ] &&
			margs=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
		stage_refs "$up" "$dir" "$arch"
		SERIES_NOW=$series arch_now=$arch KDIR_HOST=$kdir
		build_and_compare "abi $series $arch (${kdir##*/linux-headers-})" \
			"$dir" "$dir" "$arch" bm/src \
			make -C "$kdir" -j"$(nproc)" "${margs[@]}"
	done
}

# --- 6.12, 7.2: inside the suite's chroot, shared with its other users ---
# (its lock held shared, in a directory of its own, /proc in a mount
# namespace of the build's own: tests/lib/make-chroot.sh).
CHR_WORK=
trap '[ -z "$CHR_WORK" ] || rm -rf "$CHR_WORK"' EXIT
trap 'exit 130' INT TERM

chroot_series()
{
	local series=$1 up=$2 suite chr arch flav kdir d margs rdir

	suite=$(_upstream_suite "$series")
	chr="$CACHE/chroots/$suite"
	if [ ! -e "$chr/.complete" ]; then
		fail "abi $series: no $suite chroot (run tests/test-kbuild-matrix.sh $suite first)"
		return
	fi
	exec 9>"$CACHE/chroots/.$suite.lock"
	flock -s 9
	rdir=/sm4-build/abi-$$
	CHR_WORK=$chr$rdir
	for arch in $ARCHES; do
		case $arch in
		x86_64) flav=amd64 margs=() ;;
		arm64) flav=arm64 margs=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) ;;
		esac
		kdir=
		for d in "$chr"/usr/src/linux-headers-*[0-9]-"$flav"; do
			[ -f "$d/Makefile" ] && kdir=${d#"$chr"} && break
		done
		if [ -z "$kdir" ]; then
			fail "abi $series $arch: no $flav headers in the $suite chroot"
			continue
		fi
		case ${kdir#/usr/src/linux-headers-} in
		"$series".*) ;;
		*)
			fail "abi $series $arch: the $suite headers ($kdir) are not $series"
			continue
			;;
		esac
		stage_refs "$up" "$CHR_WORK/$arch" "$arch"
		stage_ours "$CHR_WORK/$arch"
		SERIES_NOW=$series arch_now=$arch KDIR_HOST=$chr$kdir
		build_and_compare "abi $series $arch (${kdir#/usr/src/linux-headers-})" \
			"$CHR_WORK/$arch" "$rdir/$arch" "$arch" ours \
			"${CHROOT_NS[@]}" "$chr" make -C "$kdir" -j"$(nproc)" "${margs[@]}"
	done
	rm -rf "$CHR_WORK"
	CHR_WORK=
	exec 9>&-
}

mkdir -p "$WORK"
for series in "${SERIES[@]}"; do
	if ! up=$(upstream_src "$series"); then
		fail "abi $series: cannot get upstream's sources (linux-source-$series)"
		continue
	fi
	if [ "$(_upstream_suite "$series")" = bookworm ]; then
		host_series "$series" "$up"
	else
		chroot_series "$series" "$up"
	fi
done

echo "$npass passed, $nfail failed, $nskip skipped"
[ "$nfail" -eq 0 ]
