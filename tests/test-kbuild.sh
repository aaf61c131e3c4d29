#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-kbuild.sh ARCH: build every module for ARCH against the Debian
# kernel headers of this host's suite (6.1 on bookworm, 6.12 on trixie,
# sid's newest) with W=1 and sparse (C=2), out of the source tree, and
# check:
# no compiler, sparse or objtool warning; every expected module built;
# each has license GPL; the library's exports are in Module.symvers; the
# modules of the build's modules.order are exactly those dkms.conf lists
# for the architecture (sourced as DKMS does, with arch=x86_64 or
# aarch64), so that DKMS installs every module the Kbuild builds (also
# run once on a dkms.conf missing one driver, which must be caught).

set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib/common.sh"
. "$ROOT/tests/lib/dkms.sh"
ARCH=$1
OUT="$ROOT/build/kbuild-test/$ARCH"

case $ARCH in
x86_64)
	DKMS_ARCH=x86_64
	want="sm4 sm4_generic sm4-aesni-avx-x86_64 sm4-aesni-avx2-x86_64 sm4-gfni-avx2-x86_64 sm4-gfni-avx512-x86_64 sm4-ni-x86_64 sm4-ni-avx10-x86_64"
	;;
arm64)
	DKMS_ARCH=aarch64
	want="sm4 sm4_generic sm4-neon sm4-ce sm4-ce-ccm sm4-ce-gcm sm4-ce-cipher"
	;;
*)
	echo "usage: $0 x86_64|arm64" >&2
	exit 2
	;;
esac

check()
{
	if eval "$2"; then echo "PASS: kbuild $ARCH: $1"; else echo "FAIL: kbuild $ARCH: $1"; fi
}

ensure_pkgs sparse kmod
if ! SM4_MAKEFLAGS="W=1 C=2" "$ROOT/tests/lib/build-modules.sh" "$ARCH" "$OUT" >/dev/null; then
	echo "FAIL: kbuild $ARCH: build failed (log: $OUT/build.log)"
	exit 1
fi
echo "PASS: kbuild $ARCH: modules build against $(readlink "$OUT/kdir")"
warnings=$(grep -iE 'warning|error' "$OUT/build.log" | grep -v 'Skipping BTF')
check "no compiler, sparse or objtool warnings at W=1 C=2" '[ -z "$warnings" ]'
[ -z "$warnings" ] || echo "$warnings" | head -20
for m in $want; do
	ko="$OUT/modules/$m.ko"
	check "$m.ko built" '[ -f "$ko" ]'
	[ -f "$ko" ] || continue
	check "$m.ko has license GPL" \
		'[ "$(/sbin/modinfo -F license "$ko")" = GPL ]'
	# A driver that needs another driver module would, on a CPU that
	# one lacks, refuse with that module's error and log line.
	case $ARCH in
	x86_64)
		deps=$(/sbin/modinfo -F depends "$ko" | tr , ' ')
		check "$m.ko depends only on the library modules (depends: ${deps:-none})" \
			'[ -z "$(echo " $deps " | sed "s/ sm4_generic / /; s/ sm4 / /" | tr -d " ")" ]'
		;;
	esac
done
for sym in sm4_expandkey sm4_crypt_block crypto_sm4_fk crypto_sm4_ck \
		crypto_sm4_sbox sm4_skcipher_register sm4_generic_mode_ops; do
	check "Module.symvers exports $sym" \
		'grep -qP "\t$sym\t" "$OUT/src/Module.symvers"'
done

# One source of truth for the module list: DKMS installs what dkms.conf
# lists, so it must be what this build made (its modules.order).
order=$OUT/src/modules.order
kver="$(cat "$OUT/kernel.abi")-$(kernel_flavour "$ARCH")"
if [ ! -s "$order" ]; then
	fail "kbuild $ARCH: no modules.order in $OUT/src"
else
	built=$(modules_order_names "$order")
	compare_modules "kbuild $ARCH (dkms.conf with arch=$DKMS_ARCH)" "$built" \
		"$(dkms_conf_modules "$ROOT/dkms.conf" "$DKMS_ARCH" "$kver")"
	# The same comparison on a dkms.conf without the last driver of
	# modules.order must fail and name it.
	drop=$(sed -E 's|.*/||; s/\.(ko|o)$//' "$order" | grep -vxE 'sm4|sm4_generic' | tail -n1)
	broken=$(mktemp -d)
	grep -vxE "[[:space:]]*_sm4_module $drop" "$ROOT/dkms.conf" >"$broken/dkms.conf"
	out=$(compare_modules "broken" "$built" \
		"$(dkms_conf_modules "$broken/dkms.conf" "$DKMS_ARCH" "$kver")")
	if [ -n "$drop" ] && printf '%s\n' "$out" |
			grep -q "^FAIL: .*not in dkms.conf.*$drop"; then
		pass "kbuild $ARCH: a dkms.conf without $drop is caught: ${out#FAIL: }"
	else
		fail "kbuild $ARCH: a dkms.conf without ${drop:-a driver} went unnoticed: $out"
	fi
	rm -rf "$broken"
fi
