#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of tools/demo (busybox sh).  run-guest.sh --demo installs
# this file as /suite.sh and the test suite as /suite-lib.sh, whose helper
# functions it uses.  It writes a report meant for a person to the verdict
# channel, which the host prints as it arrives:
#
#   - the guest's kernel and the CPU features the SM4 drivers use,
#   - loading the project's modules (drivers the CPU cannot run refuse),
#   - the SM4 algorithms in /proc/crypto and which driver the crypto API
#     picks for each mode (sm4-afalg resolve),
#   - a LUKS2 volume with sm4-xts-plain64 on a virtio disk: a file
#     written, the volume closed and reopened, the file read back,
#   - a tcrypt speed run (mode=218) whose kernel messages go to the host
#     as "TCRYPT ..." lines; the host turns them into a table.
#
# Failures are "ERROR: ..." lines; the exit status is their number.

# shellcheck disable=SC2034  # read by /suite-lib.sh
SM4_SUITE_LIB=1
# shellcheck source=suite.sh
. /suite-lib.sh

ERRORS=0
DEMO_FILE_SIZE=4194304
MARKER="SM4 demo plaintext: this sentence must never appear on the raw disk"

out()
{
	echo "$*"
	echo "$*" >>"$VERDICT"
}

err()
{
	ERRORS=$((ERRORS + 1))
	out "ERROR: $*"
}

heading()
{
	out ""
	out "== $*"
}

# The suite's helpers report through pass/fail: successes stay quiet
# here, failures become errors.
pass()
{
	:
}

fail()
{
	err "$*"
}

# --- the guest -------------------------------------------------------------

show_guest()
{
	local f have='' lack='' list

	heading "Guest"
	out "  kernel:  Linux $(uname -r) ($(uname -m)), booted by QEMU with TCG (emulated CPU)"
	case $ARCH in
	x86_64)
		out "  CPU:     $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
		list="aes avx avx2 gfni avx512f avx512bw avx512vl vpclmulqdq"
		;;
	*)
		list="asimd aes pmull sm3 sm4"
		;;
	esac
	for f in $list; do
		if cpu_has "$f"; then
			have="$have $f"
		else
			lack="$lack $f"
		fi
	done
	out "  CPU features the SM4 drivers use:${have:- none}"
	[ -n "$lack" ] && out "  missing:$lack"
}

# --- modules ------------------------------------------------------------------

load_modules()
{
	local m needs msg f lack

	heading "Loading the sm4-crypto modules (modprobe)"
	for m in $(project_modules); do
		needs=$(driver_needs "$m")
		# shellcheck disable=SC2086
		if msg=$(modprobe "$m" 2>&1); then
			out "  $(printf '%-24s' "$m") loaded"
		elif echo "$msg" | grep -q 'No such device' && ! cpu_has $needs; then
			lack=
			for f in $needs; do
				cpu_has "$f" || lack="$lack $f"
			done
			out "  $(printf '%-24s' "$m") not loaded (No such device): the CPU lacks$lack"
		else
			err "modprobe $m: $msg"
		fi
	done
}

show_algorithms()
{
	heading "SM4 algorithms registered (/proc/crypto)"
	# Asking for the generic names instantiates any template they need
	# (e.g. xts(sm4-generic) when no arch driver loaded): list those too.
	modprobe algif_skcipher
	"$AFALG" resolve -q "ecb(sm4)" "cbc(sm4)" "cfb(sm4)" "ctr(sm4)" \
		"xts(sm4)" >/dev/null 2>&1
	out "  $(printf '%-12s %-24s %-8s %-26s %s' name driver priority module selftest)"
	# Generic names first, then by priority, highest first.
	crypto_table | awk '$2 ~ /sm4/ && $8 != "yes"' |
		sort -k1,1 -k4,4nr >/tmp/demo.algs
	while read -r name drv mod prio st _; do
		out "  $(printf '%-12s %-24s %-8s %-26s %s' "$name" "$drv" "$prio" "$mod" "$st")"
		[ "$st" = passed ] || err "$drv: self-test $st"
	done </tmp/demo.algs
}

show_resolution()
{
	local x drv want prio

	heading "Which driver the crypto API hands out for each mode (sm4-afalg resolve)"
	for x in ecb cbc cfb ctr xts; do
		drv=$("$AFALG" resolve -q "$x(sm4)" 2>/tmp/resolve.err | head -n1)
		want=$(best_driver "$x(sm4)")
		prio=$(crypto_table | awk -v d="$drv" '$2 == d { print $4; exit }')
		if [ -z "$drv" ]; then
			err "$x(sm4) cannot be allocated: $(cat /tmp/resolve.err)"
		elif [ "$drv" != "${want%% *}" ]; then
			err "$x(sm4) is served by $drv, not by the highest-priority ${want%% *}"
		else
			out "  $(printf '%-9s -> %-24s' "$x(sm4)" "$drv") priority $prio, module ${want#* }"
		fi
	done
}

# --- dm-crypt -----------------------------------------------------------------

find_luks_disk()
{
	local b i=0

	while [ $i -lt 50 ]; do
		for b in /sys/block/vd*; do
			[ -e "$b/serial" ] || continue
			if [ "$(cat "$b/serial")" = sm4luks ]; then
				DISK=/dev/${b##*/}
				return 0
			fi
		done
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# run WHAT CMD...: CMD quietly; on failure its output and an error.
run()
{
	local what=$1

	shift
	if "$@" >/tmp/run.out 2>&1; then
		return 0
	fi
	sed 's/^/  | /' /tmp/run.out | tail -n 10 | while IFS= read -r l; do
		out "$l"
	done
	err "$what failed"
	return 1
}

dmcrypt_demo()
{
	local size before after best mod st

	heading "dm-crypt: a LUKS2 volume encrypted with SM4-XTS"
	modprobe -a dm_mod dm_crypt ext4
	if ! find_luks_disk; then
		err "the virtio disk for the volume (serial sm4luks) is missing"
		return
	fi
	size=$(($(cat "/sys/block/${DISK#/dev/}/size") / 2048))
	out "  disk: $DISK (virtio, $size MiB)"
	out "  \$ cryptsetup luksFormat --type luks2 --cipher sm4-xts-plain64 --key-size 256 $DISK"
	out "    (key file; PBKDF2 with few iterations to keep the demo quick)"
	run "cryptsetup luksFormat" \
		cryptsetup luksFormat --batch-mode --type luks2 \
			--cipher sm4-xts-plain64 --key-size 256 \
			--pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
			--hash sha256 --key-file "$LUKS_KEY" "$DISK" || return
	out "  \$ cryptsetup open $DISK $MAPNAME"
	run "cryptsetup open" luks_open || return
	st=$(cryptsetup status "$MAPNAME" 2>&1)
	out "  mapping /dev/mapper/$MAPNAME: cipher $(echo "$st" | sed -n 's/^ *cipher: *//p'), key $(echo "$st" | sed -n 's/^ *keysize: *//p')"
	best=$(best_driver "xts(sm4)")
	mod=${best#* }
	case $mod in
	sm4*) ;;
	*) mod=sm4_generic ;;
	esac
	out "  the kernel serves its xts(sm4) with ${best%% *} (module $mod, now used by $(cat "/sys/module/$mod/refcnt" 2>/dev/null || echo '?'))"
	run "mkfs.ext4" mkfs.ext4 -q -F "/dev/mapper/$MAPNAME" || return
	mkdir -p "$MNT"
	run "mount" mount -t ext4 "/dev/mapper/$MAPNAME" "$MNT" || return

	head -c "$DEMO_FILE_SIZE" /dev/urandom >/tmp/demo.bin
	echo "$MARKER" >/tmp/demo.txt
	before=$(cat /tmp/demo.txt /tmp/demo.bin | sha256sum | cut -d' ' -f1)
	cp /tmp/demo.txt /tmp/demo.bin "$MNT/"
	sync
	out "  wrote demo.txt and demo.bin ($((DEMO_FILE_SIZE / 1048576)) MiB of random data) to the volume"
	out "    sha256 of what was written: $before"
	run "close the volume" luks_close || return
	echo 3 >/proc/sys/vm/drop_caches
	if grep -q -F "$MARKER" "$DISK"; then
		err "the plaintext of demo.txt is readable on the raw disk $DISK"
	else
		out "  volume closed: the text of demo.txt is nowhere on the raw disk $DISK"
	fi
	out "  \$ cryptsetup open $DISK $MAPNAME   (page cache dropped, read from disk)"
	run "cryptsetup open (again)" luks_open || return
	run "mount (again)" mount -t ext4 "/dev/mapper/$MAPNAME" "$MNT" || return
	after=$(cat "$MNT/demo.txt" "$MNT/demo.bin" | sha256sum | cut -d' ' -f1)
	out "    sha256 of what was read:    $after"
	if [ "$before" = "$after" ]; then
		out "  identical: the data went through SM4-XTS encryption and decryption intact"
	else
		err "the files read back differ from what was written"
	fi
	run "close the volume" luks_close
}

# --- tcrypt -----------------------------------------------------------------

tcrypt_demo()
{
	local drv

	heading "tcrypt speed test (patched tcrypt: insmod sm4_tcrypt.ko mode=218 sec=$TCRYPT_SEC)"
	if [ "$TCRYPT_SEC" = 0 ] && [ "$ARCH" = arm64 ]; then
		out "  Unit: \"cycles\" per byte as tcrypt counts them (sec=0); on arm64 these are"
		out "  ticks of the architected timer, not CPU cycles."
	elif [ "$TCRYPT_SEC" = 0 ]; then
		out "  Unit: CPU cycles per byte, as tcrypt counts them (sec=0: TSC)."
	else
		out "  Unit: MB/s (10^6 bytes per second, sec=$TCRYPT_SEC)."
	fi
	out "  NOTE: this guest's CPU is emulated by QEMU (TCG).  These figures measure"
	out "  the emulator, not SM4: they are meaningless as performance numbers."
	if [ ! -e "$TCRYPT_KO" ]; then
		err "$TCRYPT_KO missing (tools/build-tcrypt.sh failed on the host)"
		return
	fi
	drv=$("$AFALG" resolve -q "xts(sm4)" 2>/dev/null | head -n1)
	TCRYPT_IMPL=$(impl_of "$drv")
	[ -n "$TCRYPT_IMPL" ] || TCRYPT_IMPL=sm4-unknown
	tcrypt_speed demo-218 ecb,cbc,cfb,ctr,cts,xts \
		insmod "$TCRYPT_KO" mode=218 sec="$TCRYPT_SEC"
}

# --- main -----------------------------------------------------------------

show_guest
load_modules
show_algorithms
show_resolution
dmcrypt_demo
tcrypt_demo
exit "$ERRORS"
