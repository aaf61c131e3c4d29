# SPDX-License-Identifier: GPL-2.0
#
# In-guest fault cases (sourced by tests/guest/suite.sh, busybox sh; uses
# its helpers: pass, fail, skip, check, best_driver, project_modules,
# driver_needs, cpu_has, is_loaded, modname, dmesg_mark, dmesg_new,
# find_disks, try_rmmod_busy and the kmod wrappers).  Both run on the
# disk with serial sm4fs, before part 10 formats it.
#
# part busy: rmmod of the module serving xts(sm4) (and of sm4_generic)
#   while direct I/O runs through a dm-crypt sm4-xts-plain64 mapping:
#   every attempt is refused as "in use" while the I/O is running, the
#   module stays loaded, every round of data reads back with its SHA-256,
#   and once the mapping is gone the module unloads and loads again.
#
# part nocpu: for a guest whose CPU or kernel lacks the x86 drivers'
#   features (QEMU -cpu Nehalem: no AVX; -cpu max with noxsave or
#   clearcpuid=: no XSAVE/AVX state): every x86 accelerated module
#   refuses with ENODEV and exactly one kernel log line of its own, every
#   mode resolves to sm4-generic, and a dm-crypt mapping round-trips.

BUSY_MAP=sm4busy
BUSY_MB=2

# busy_map NAME: a dm-crypt sm4-xts-plain64 mapping NAME over the first
# 32 MiB of the sm4fs disk with a random 256-bit key.
busy_map()
{
	local key

	key=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
	dmsetup create "$1" --table "0 65536 crypt sm4-xts-plain64 $key 0 $FSDISK 0"
}

# busy_rounds MAP N: rounds of writing /tmp/busy.bin with direct I/O and
# reading it back, N of them or (N = 0) until /tmp/busy.stop exists; one
# line per round ("ok" or "bad") in /tmp/busy.res.
busy_rounds()
{
	local i=0 want got

	want=$(sha256sum </tmp/busy.bin | cut -d' ' -f1)
	: >/tmp/busy.res
	while :; do
		dd if=/tmp/busy.bin of="/dev/mapper/$1" bs=1M oflag=direct 2>/dev/null
		got=$(dd if="/dev/mapper/$1" bs=1M count=$BUSY_MB iflag=direct 2>/dev/null |
			sha256sum | cut -d' ' -f1)
		if [ "$got" = "$want" ]; then
			echo ok >>/tmp/busy.res
		else
			echo bad >>/tmp/busy.res
		fi
		i=$((i + 1))
		if [ "$2" = 0 ]; then
			[ -e /tmp/busy.stop ] && break
		else
			[ $i -ge "$2" ] && break
		fi
	done
}

# busy_roundtrip TAG: write and read back BUSY_MB MiB through a fresh
# mapping, checked with SHA-256.
busy_roundtrip()
{
	local tag=$1

	head -c $((BUSY_MB * 1048576)) /dev/urandom >/tmp/busy.bin
	if ! check "$tag dmsetup create crypt sm4-xts-plain64 on $FSDISK" busy_map "$BUSY_MAP"; then
		return 1
	fi
	busy_rounds "$BUSY_MAP" 1
	if [ "$(cat /tmp/busy.res)" = ok ]; then
		pass "$tag $BUSY_MB MiB written and read back through dm-crypt (direct I/O), SHA-256 matches"
	else
		fail "$tag data read back through dm-crypt differs from what was written"
	fi
	check "$tag dmsetup remove" dmsetup remove "$BUSY_MAP"
}

part_busy()
{
	local tag="partbusy" best m pid n=0 refused=0 alive=0 bad rounds out st

	part_begin busy "rmmod while dm-crypt I/O runs"
	modprobe -a dm_mod dm_crypt
	if ! find_disks; then
		fail "$tag test disks not found"
		part_end
		return
	fi
	head -c $((BUSY_MB * 1048576)) /dev/urandom >/tmp/busy.bin
	if ! check "$tag dmsetup create crypt sm4-xts-plain64 on $FSDISK" busy_map "$BUSY_MAP"; then
		part_end
		return
	fi
	best=$(best_driver "xts(sm4)")
	m=${best#* }
	# A template instance (xts(ecb(...))) pins sm4_generic.
	case $m in
	sm4_*|sm4) ;;
	*) m=sm4_generic ;;
	esac
	echo "xts(sm4) is served by $best; unloading $m while I/O runs"
	rm -f /tmp/busy.stop
	busy_rounds "$BUSY_MAP" 0 &
	pid=$!
	sleep 1
	while [ $n -lt 6 ]; do
		n=$((n + 1))
		kill -0 "$pid" 2>/dev/null || break
		out=$(rmmod "$m" 2>&1)
		st=$?
		kill -0 "$pid" 2>/dev/null && alive=$((alive + 1))
		if [ $st -ne 0 ] && is_loaded "$m" &&
				echo "$out" | grep -qiE 'in use|temporarily unavailable'; then
			refused=$((refused + 1))
		else
			echo "  | rmmod $m: status $st: $out"
		fi
		[ $n = 1 ] && [ "$m" != sm4_generic ] &&
			try_rmmod_busy "$tag (I/O running)" sm4_generic
		sleep 0.5
	done
	touch /tmp/busy.stop
	wait "$pid"
	if [ $refused -eq $n ] && [ $alive -eq $n ]; then
		pass "$tag rmmod $m refused as in use all $n times, the dm-crypt I/O running before and after each"
	else
		fail "$tag rmmod $m during dm-crypt I/O: $refused of $n attempts refused as in use, I/O running after $alive"
	fi
	if is_loaded "$m"; then
		pass "$tag $m still loaded after the refused attempts"
	else
		fail "$tag $m was unloaded under a live dm-crypt mapping"
	fi
	rounds=$(grep -c . /tmp/busy.res)
	bad=$(grep -vc '^ok$' /tmp/busy.res)
	if [ "$rounds" -ge 1 ] && [ "$bad" = 0 ]; then
		pass "$tag all $rounds rounds of $BUSY_MB MiB read back with their SHA-256 (data intact)"
	else
		fail "$tag data through dm-crypt damaged: $(tr '\n' ' ' </tmp/busy.res)"
	fi
	check "$tag dmsetup remove" dmsetup remove "$BUSY_MAP"
	if [ "$m" != sm4_generic ]; then
		check "$tag rmmod $m once the mapping is gone" rmmod "$m" &&
			check "$tag modprobe $m again" modprobe "$m"
	else
		skip "$tag rmmod and modprobe of sm4_generic not tried: it serves xts(sm4), and every loaded driver module depends on it"
	fi
	busy_roundtrip "$tag after the reload:"
	part_end
}

part_nocpu()
{
	local tag="partnocpu" m needs out st n drv x got dep re

	part_begin nocpu "x86 drivers without their CPU/OS features"
	if [ "$ARCH" != x86_64 ]; then
		skip "$tag" "x86 only"
		part_end
		return
	fi
	echo "kernel command line: $(cat /proc/cmdline)"
	echo "CPU flags avx/avx2/xsave/osxsave present: $(for f in avx avx2 xsave osxsave; do cpu_has $f && printf '%s ' $f; done)"
	# Library and generic first: their loading logs the taint lines.
	check "$tag modprobe sm4_generic" modprobe sm4_generic
	for m in $(project_modules); do
		needs=$(driver_needs "$m")
		[ -n "$needs" ] || continue
		# shellcheck disable=SC2086
		if cpu_has $needs; then
			fail "$tag the CPU has every feature $m needs ($needs): this part wants a CPU or kernel without them"
			continue
		fi
		drv=${m%-x86_64}
		dmesg_mark
		out=$(modprobe "$m" 2>&1)
		st=$?
		dmesg_new >/tmp/nocpu.new
		n=$(grep -c . /tmp/nocpu.new)
		if [ $st -ne 0 ] && ! is_loaded "$m" && echo "$out" | grep -q 'No such device'; then
			pass "$tag $m refused with ENODEV"
		else
			echo "  | $out"
			fail "$tag $m: modprobe status $st, not refused with ENODEV"
			is_loaded "$m" && rmmod "$m"
		fi
		# The line is the module's own, or that of the module it
		# depends on when modprobe stopped at that one.
		dep=$(/sbin/modinfo -F depends "$m" 2>/dev/null | tr , '\n' |
			grep -v '^sm4\(_generic\)\{0,1\}$' | head -n1)
		re="$drv"
		[ -n "$dep" ] && re="($drv|$(echo "$dep" | sed 's/[-_]x86_64$//' | tr _ -))"
		if [ "$n" = 1 ] && grep -qE "$re: (CPU feature [A-Z0-9_]+ missing|OS does not enable .*), driver not loaded" /tmp/nocpu.new; then
			pass "$tag $m logged exactly one line${dep:+ (modprobe loads $dep first)}: $(sed 's/^\[[^]]*\] //' /tmp/nocpu.new)"
		else
			sed 's/^/  | /' /tmp/nocpu.new
			fail "$tag $m logged $n kernel lines, wanted exactly one '$drv: ... driver not loaded'"
		fi
	done
	modprobe algif_skcipher
	for x in ecb cbc cfb ctr xts; do
		got=$("$AFALG" resolve -q "$x(sm4)" 2>/dev/null | head -n1)
		# sm4_generic's own skciphers or a template over its cipher.
		case $got in
		*sm4-generic*)
			pass "$tag $x(sm4) is served by $got" ;;
		*)
			fail "$tag $x(sm4) resolves to '${got:-?}', wanted sm4-generic's" ;;
		esac
	done
	modprobe -a dm_mod dm_crypt
	if find_disks; then
		busy_roundtrip "$tag (sm4-generic)"
	else
		fail "$tag test disks not found"
	fi
	part_end
}
