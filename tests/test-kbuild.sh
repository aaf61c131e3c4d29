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
	want="sm4 sm4_generic sm4-aesni-avx-x86_64 sm4-aesni-avx2-x86_64 sm4-vaes-avx2-x86_64 sm4-gfni-avx2-x86_64 sm4-gfni-avx512-x86_64 sm4-ni-x86_64 sm4-ni-avx10-x86_64"
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
# Exports: upstream's ABI (the names tests/test-abi.sh compares) without
# a namespace, everything else this project exports in its own namespace
# (include/sm4/compat.h), so that no kernel symbol of the same name can
# ever collide with ours.
SYMVERS=$OUT/src/Module.symvers
SM4_NS=SM4_CRYPTO
abi_syms="sm4_expandkey sm4_crypt_block crypto_sm4_fk crypto_sm4_ck crypto_sm4_sbox"
[ "$ARCH" = arm64 ] && abi_syms+=" sm4_ce_expand_key sm4_ce_crypt_block sm4_ce_cbc_enc"

# export_ns FILE SYM: the namespace column of SYM's line in the
# Module.symvers FILE, "-" for none, nothing if SYM is not exported.
export_ns()
{
	awk -F'\t' -v s="$2" '$2 == s { print ($5 == "" ? "-" : $5) }' "$1"
}

# stray_exports FILE: the exports of FILE outside upstream's ABI that are
# not in SM4_NS.
stray_exports()
{
	awk -F'\t' -v abi=" $abi_syms " -v ns="$SM4_NS" \
		'index(abi, " " $2 " ") == 0 && $5 != ns { print $2 }' "$1" |
		tr '\n' ' ' | sed 's/ $//'
}

for sym in $abi_syms; do
	check "Module.symvers exports $sym without a namespace (upstream's ABI)" \
		'[ "$(export_ns "$SYMVERS" "$sym")" = - ]'
done
for sym in sm4_driver_register sm4_generic_mode_ops; do
	check "Module.symvers exports $sym in namespace $SM4_NS" \
		'[ "$(export_ns "$SYMVERS" "$sym")" = "$SM4_NS" ]'
done
stray=$(stray_exports "$SYMVERS")
check "every export outside upstream's ABI is in namespace $SM4_NS ($(wc -l <"$SYMVERS") exports${stray:+; not: $stray})" \
	'[ -s "$SYMVERS" ] && [ -z "$stray" ]'
# The same check on a Module.symvers in which sm4_driver_register lost
# its namespace must name it.
broken=$(mktemp)
awk -F'\t' -v OFS='\t' '$2 == "sm4_driver_register" { $5 = "" } 1' \
	"$SYMVERS" >"$broken"
stray=$(stray_exports "$broken")
if [ "$stray" = sm4_driver_register ]; then
	pass "kbuild $ARCH: an export without the namespace is caught: $stray"
else
	fail "kbuild $ARCH: sm4_driver_register without the namespace went unnoticed (found: ${stray:-nothing})"
fi
rm -f "$broken"

# The S-box of the portable code starts on a 64-byte boundary (lib/sm4.c:
# what makes sm4_touch_sbox() reach every cache line): its offset in its
# section and the section's alignment, which the module loader keeps,
# are multiples of 64.
sbox_alignment()
{
	local ko=$1 val ndx al

	read -r val ndx < <(readelf -sW "$ko" |
		awk '$8 == "crypto_sm4_sbox" && $4 == "OBJECT" { print $2, $7 }')
	[ -n "${ndx:-}" ] || { echo "no crypto_sm4_sbox object"; return 1; }
	al=$(readelf -SW "$ko" | sed -n 's/^ *\[ *\([0-9]*\)\] /\1 /p' |
		awk -v n="$ndx" '$1 == n { print $NF }')
	echo "offset $((0x$val)) in section $ndx, section aligned to ${al:-?}"
	[ -n "$al" ] && [ $((0x$val % 64)) -eq 0 ] && [ $((al % 64)) -eq 0 ]
}
if [ -f "$OUT/modules/sm4.ko" ]; then
	if why=$(sbox_alignment "$OUT/modules/sm4.ko"); then
		pass "kbuild $ARCH: crypto_sm4_sbox is 64-byte aligned in sm4.ko ($why)"
	else
		fail "kbuild $ARCH: crypto_sm4_sbox is not 64-byte aligned in sm4.ko ($why): sm4_touch_sbox() may miss one of its cache lines"
	fi
fi

# sm4-gfni-avx512's short requests (arch/x86/sm4_x86_drivers.h, "zmm
# policy" in doc/drivers.md): its small_ops take CBC and CFB encryption
# from its own file, whose serial functions (and the one-block core they
# call) have no 512-bit instruction, and every other mode from its ymm
# copy of sm4-gfni-avx2's code.
# small_ops_fns OBJ: the functions sm4_x86_small_ops of OBJ points to,
# in the order of struct sm4_mode_ops.
small_ops_fns()
{
	local off

	off=$(objdump -t "$1" | awk '$NF == "sm4_x86_small_ops" && $4 == ".rodata" { print $1 }')
	[ -n "$off" ] || return 0
	objdump -r -j .rodata "$1" | awk -v o=$((16#$off)) '
		function hex(s,  i, n) {
			for (i = 1; i <= length(s); i++)
				n = 16 * n + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n
		}
		$2 == "R_X86_64_64" { a = hex($1)
			if (a >= o && a < o + 64) f[(a - o) / 8] = $3 }
		END { for (i = 0; i < 8; i++) printf "%s%s", (i ? " " : ""), f[i] }'
}
# zmm_in OBJ FN...: "N functions, M instructions on zmm" for those of
# FN... that OBJ defines.
zmm_in()
{
	local obj=$1

	shift
	objdump -d --no-show-raw-insn "$obj" | awk -v fns=" $* " '
		/^[0-9a-f]+ <[^>]+>:$/ { n = substr($2, 2, length($2) - 3)
			f = index(fns, " " n " ") > 0; nf += f; next }
		f && /zmm/ { z++ }
		END { printf "%d functions, %d instructions on zmm", nf, z }'
}
if [ "$ARCH" = x86_64 ]; then
	g=sm4_gfni_avx512
	got=$(small_ops_fns "$OUT/src/arch/x86/sm4_x86_glue_gfni_avx512.o")
	want="${g}_ymm_ecb ${g}_cbc_enc ${g}_ymm_cbc_dec ${g}_cfb_enc ${g}_ymm_cfb_dec ${g}_ymm_ctr ${g}_ymm_xts ${g}_ymm_xts"
	check "sm4-gfni-avx512's short requests: CBC and CFB encryption on its own serial code, the other modes on its ymm copy (small_ops: ${got:-not found})" \
		'[ "$got" = "$want" ]'
	zmm=$(zmm_in "$OUT/src/arch/x86/sm4-gfni-avx512-asm_64.o" \
		${g}_cbc_enc ${g}_cfb_enc __sm4_gfni_blk1)
	check "sm4-gfni-avx512's serial encryption executes no 512-bit instruction ($zmm)" \
		'[ "$zmm" = "3 functions, 0 instructions on zmm" ]'
fi

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
