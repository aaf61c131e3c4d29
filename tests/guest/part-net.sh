# SPDX-License-Identifier: GPL-2.0
#
# Part 12 of the guest suite (sourced by tests/guest/suite.sh): SM4 through
# its network users, and their AEADs and MACs through AF_ALG.
#
# AF_ALG: sm4-afalg aead/hash on the libgcrypt vectors of gcm(sm4),
# ccm(sm4), rfc4106(gcm(sm4)), cmac/xcbc/cbcmac(sm4), by generic name and
# by every driver registered under it (see tests/guest/afalg/).  The host (tests/guest/part-net-host.sh) put under
# /opt/sm4/net the TLS records libgcrypt computed and the ESP keys, and
# decrypts the ESP packets this part captures (NET-ESP lines).
#
# Kernel TLS 1.3 with TLS_CIPHER_SM4_GCM and _CCM (sm4-net tls, over
# loopback TCP): kTLS TX's wire bytes equal libgcrypt's records, kTLS
# TX -> RX, libgcrypt's records -> kTLS RX, a flipped bit -> EBADMSG.
#
# IPsec: namespaces sm4a and sm4b joined by a veth pair, ESP transport
# mode both ways with cbc(sm4) + hmac(sha256) (then rfc4106(gcm(sm4)) if
# xfrm takes it): ping and UDP datagrams both ways whose every packet the
# SA counters of both ends account for, then a TCP stream; the ESP
# packets of the ping/UDP phase are captured for the host.
#
# Every PASS line names the driver that served (the highest-priority
# gcm(sm4)/ccm(sm4)/authenc instance in /proc/crypto after the run).

NET=/opt/sm4/net
NETTOOL=/usr/local/bin/sm4-net
NET_A=10.213.0.1
NET_B=10.213.0.2
NET_PINGS=3
NET_DGRAMS=3

# iproute2's ip (busybox's shell would run its own ip applet, which has
# no netns or xfrm).
ip()
{
	if [ -x /sbin/ip ]; then
		/sbin/ip "$@"
	else
		/bin/ip "$@"
	fi
}

# served NAME: the driver the crypto API hands out for NAME, or "none".
served()
{
	local d

	d=$(best_driver "$1")
	echo "${d%% *}" | sed 's/^$/none/'
}

# net_run WHAT NAME CMD...: run CMD, forward its PASS/FAIL/SKIP lines with
# the driver serving NAME (none for "-"); a non-zero exit without a FAIL
# line is one.
net_run()
{
	local what=$1 name=$2 rc line drv

	shift 2
	"$@" >/tmp/net.out 2>&1
	rc=$?
	drv=
	[ "$name" = - ] || drv=" [$name: $(served "$name")]"
	while IFS= read -r line; do
		case $line in
		PASS:*) pass "$what:${line#PASS:}$drv" ;;
		FAIL:*) fail "$what:${line#FAIL:}$drv" ;;
		SKIP:*) line=${line#SKIP: }
			skip "$what ${line%%: *}" "${line#*: }" ;;
		*) echo "  | $line" ;;
		esac
	done </tmp/net.out
	if [ $rc -ne 0 ] && ! grep -q '^FAIL:' /tmp/net.out; then
		fail "$what: $1 $2 exit status $rc$drv"
	fi
	return $rc
}

# tls_modes AEAD: the assembly modes (kp_hits names) of the driver serving
# AEAD(sm4) that kernel TLS records must enter: of gcm's one-pass
# encryption, GHASH and CTR (its decryption), or ccm's own entry points
# (sm4-ce) else CBC-MAC and CTR, those the serving module has.
tls_modes()
{
	local best m mode cands

	best=$(best_driver "$1(sm4)")
	m=${best#* }
	case $m in
	sm4_ce_ccm|sm4_ce_gcm) m=sm4_ce ;;
	esac
	m=$(asm_module_name "$m")
	case $1 in
	gcm) cands="gcm_enc ghash ctr" ;;
	ccm) if grep -q "^$m .*_ccm_" "$ASM_ENTRIES"; then
		cands=ccm
	     else
		cands="cbcmac ctr"
	     fi ;;
	esac
	for mode in $cands; do
		awk -v m="$m" -v mode="$mode" '$1 == m && ($2 ~ "_" mode "$" || $2 ~ "_" mode "_") { f = 1 }
			END { exit !f }' "$ASM_ENTRIES" && echo "$mode"
	done
}

net_tls()
{
	local c key iv salt seq drv np nk nf

	# What sm4-net may excuse (run-guest.sh read it from the tls module).
	export SM4_NET_TLS=${KERNEL_TLS:-unknown}
	echo "  | kernel TLS: $SM4_NET_TLS"
	while read -r c key iv salt seq; do
		# Probes on every loaded driver's entry points: kTLS's records
		# must run the serving driver's assembly, not the C fallback.
		ours "$c(sm4)" && kp_arm "part12 tls $c"
		net_run part12 "$c(sm4)" "$NETTOOL" tls "$c" "$key" "$iv" \
			"$salt" "$seq" "$NET_TLS_SIZES" "$NET/tls-$c.plain" \
			"$NET/tls-$c.tx" "$NET/tls-$c.rx"
		np=$(grep -c '^PASS:' /tmp/net.out)
		nk=$(grep -c '^SKIP:' /tmp/net.out)
		nf=$(grep -c '^FAIL:' /tmp/net.out)
		ours "$c(sm4)" || continue
		# Where this project registers the AEAD, kTLS must have got
		# it (the crypto API hands out the highest priority), and its
		# assembly must have run for the records: only after the
		# records went through (no check skipped, none failed).
		if [ "$np" -eq 0 ] || [ "$nk" -ne 0 ] || [ "$nf" -ne 0 ]; then
			skip "part12 tls $c driver" "kernel TLS did not run all its checks ($np passed, $nk skipped, $nf failed): nothing to attribute to a driver"
			kp_disarm
			continue
		fi
		drv=$(served "$c(sm4)")
		case $drv in
		"$c"-sm4-*) pass "part12 tls $c: kTLS's $c(sm4) is this project's $drv" ;;
		*) fail "part12 tls $c: kTLS's $c(sm4) is $drv, though a $c-sm4-* driver is registered" ;;
		esac
		# shellcheck disable=SC2046
		expect_served "part12 tls $c" "$c(sm4)" $(tls_modes "$c")
		kp_disarm
	done <"$NET/tls.keys"
}

nsx()
{
	local ns=$1

	shift
	ip netns exec "$ns" "$@"
}

net_topology()
{
	ip netns add sm4a && ip netns add sm4b &&
	ip link add sm4va type veth peer name sm4vb &&
	ip link set sm4va netns sm4a && ip link set sm4vb netns sm4b &&
	ip -n sm4a addr add "$NET_A/24" dev sm4va &&
	ip -n sm4b addr add "$NET_B/24" dev sm4vb &&
	for ns in sm4a sm4b; do
		# IPv4 only: no neighbour discovery in the counters.
		nsx $ns sh -c 'for f in /proc/sys/net/ipv6/conf/*/disable_ipv6; do
			[ -e "$f" ] && echo 1 >"$f"; done; true' &&
		ip -n $ns link set lo up || return 1
	done
	ip -n sm4a link set sm4va up && ip -n sm4b link set sm4vb up
}

# xfrm_add ALGSPEC_AB ALGSPEC_BA: one transport-mode SA per direction
# (SPIs 0x5a4 and 0x5b4) in both namespaces, policies both ways.
xfrm_add()
{
	local ns

	for ns in sm4a sm4b; do
		# shellcheck disable=SC2086
		ip -n $ns xfrm state add src $NET_A dst $NET_B proto esp \
			spi 0x5a4 reqid 1 mode transport $1 || return 1
		# shellcheck disable=SC2086
		ip -n $ns xfrm state add src $NET_B dst $NET_A proto esp \
			spi 0x5b4 reqid 2 mode transport $2 || return 1
	done
}

xfrm_policies()
{
	ip -n sm4a xfrm policy add src $NET_A dst $NET_B dir out \
		tmpl src $NET_A dst $NET_B proto esp reqid 1 mode transport &&
	ip -n sm4a xfrm policy add src $NET_B dst $NET_A dir in \
		tmpl src $NET_B dst $NET_A proto esp reqid 2 mode transport &&
	ip -n sm4b xfrm policy add src $NET_B dst $NET_A dir out \
		tmpl src $NET_B dst $NET_A proto esp reqid 2 mode transport &&
	ip -n sm4b xfrm policy add src $NET_A dst $NET_B dir in \
		tmpl src $NET_A dst $NET_B proto esp reqid 1 mode transport
}

# xfrm_counts NS: "SPI PACKETS FAILED" per SA of NS.
xfrm_counts()
{
	ip -n "$1" -s xfrm state | awk '
	/ spi 0x/ { for (i = 1; i <= NF; i++) if ($i == "spi") spi = $(i + 1)
		    sub(/\(.*/, "", spi) }
	/lifetime current:/ { getline; split($2, a, "("); pk[spi] = a[1] }
	/replay-window .* failed/ { for (i = 1; i <= NF; i++) if ($i == "failed") f[spi] = $(i + 1) }
	END { for (s in pk) print s, pk[s], (f[s] == "" ? 0 : f[s]) }' | sort
}

# await_ready FILE: the background receiver printed READY.
await_ready()
{
	local i=0

	while ! grep -q '^READY' "$1" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# net_ping FROM TO: NET_PINGS echo requests, every reply back.
net_ping()
{
	nsx "$1" ping -c $NET_PINGS -i 0.2 -W 2 "$2" >/tmp/ping.out 2>&1
	grep -q "$NET_PINGS packets transmitted, $NET_PINGS packets received" /tmp/ping.out
}

# net_udp TAG FROM TO: NET_DGRAMS datagrams carrying the marker.
net_udp()
{
	local tag=$1 rpid

	# A fresh file: READY must come from this receiver.
	rm -f /tmp/udp.out
	nsx "$3" "$NETTOOL" udp-recv 5514 $NET_DGRAMS 10 "$NET_MARKER" >/tmp/udp.out 2>&1 &
	rpid=$!
	await_ready /tmp/udp.out
	nsx "$2" "$NETTOOL" udp-send "$(ns_addr "$3")" 5514 $NET_DGRAMS "$NET_MARKER"
	wait $rpid
	net_run "part12 ipsec $tag $2->$3" "$ALG_NAME" cat /tmp/udp.out
}

ns_addr()
{
	case $1 in
	sm4a) echo $NET_A ;;
	*) echo $NET_B ;;
	esac
}

# net_traffic TAG CAPTURE: pings and datagrams both ways, counted in the
# SAs of both ends (CAPTURE=1: their ESP packets go to the host), then a
# TCP stream A -> B, counted the same at both ends.
net_traffic()
{
	local tag=$1 cpid want=$((2 * NET_PINGS + NET_DGRAMS)) ca cb rpid i t

	if [ "$2" = 1 ]; then
		rm -f /tmp/esp.cap
		nsx sm4b "$NETTOOL" capture sm4vb $((2 * want)) 30 >/tmp/esp.cap 2>&1 &
		cpid=$!
		i=0
		while ! grep -q CAPTURE-READY /tmp/esp.cap && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	fi
	t=$(uptime_s)
	if net_ping sm4a $NET_B && net_ping sm4b $NET_A; then
		pass "part12 ipsec $tag: ping -c $NET_PINGS both ways, every reply back [$ALG_NAME: $(served "$ALG_NAME")]"
	else
		sed 's/^/  | /' /tmp/ping.out
		fail "part12 ipsec $tag: ping through ESP lost packets [$ALG_NAME: $(served "$ALG_NAME")]"
	fi
	net_udp "$tag" sm4a sm4b
	net_udp "$tag" sm4b sm4a
	if [ "$2" = 1 ]; then
		wait $cpid
		grep ESP-PACKET /tmp/esp.cap | sed "s/^/NET-ESP $tag /" >>"$VERDICT"
		pass "part12 ipsec $tag: captured $(grep -c ESP-PACKET /tmp/esp.cap) ESP packets on sm4vb for the host (libgcrypt)"
	fi
	# Both ends count every packet of both SAs: A->B carries the
	# requests of A's pings, the replies to B's and A's datagrams.
	ca=$(xfrm_counts sm4a | tr '\n' ' ')
	cb=$(xfrm_counts sm4b | tr '\n' ' ')
	if [ "$ca" = "0x000005a4 $want 0 0x000005b4 $want 0 " ] && [ "$ca" = "$cb" ]; then
		pass "part12 ipsec $tag: ip -s xfrm state counts $want packets per SA at both ends, none failed ($ca)"
	else
		fail "part12 ipsec $tag: SA counters (SPI packets failed) sm4a: $ca sm4b: $cb; expected $want packets per SA, 0 failed, at both ends"
	fi
	say "TIME: $ARCH part12 ipsec $tag ping, UDP, counters $(elapsed "$t") s"
	t=$(uptime_s)
	rm -f /tmp/tcp.out
	nsx sm4b "$NETTOOL" tcp-recv 5515 65536 30 >/tmp/tcp.out 2>&1 &
	rpid=$!
	await_ready /tmp/tcp.out
	nsx sm4a "$NETTOOL" tcp-send $NET_B 5515 65536
	wait $rpid
	net_run "part12 ipsec $tag A->B" "$ALG_NAME" cat /tmp/tcp.out
	ca=$(xfrm_counts sm4a | tr '\n' ' ')
	cb=$(xfrm_counts sm4b | tr '\n' ' ')
	# shellcheck disable=SC2086
	set -- $ca
	if [ "$ca" = "$cb" ] && [ "${2:-0}" -gt $want ] && [ "${5:-0}" -gt $want ] &&
			[ "$3" = 0 ] && [ "$6" = 0 ]; then
		pass "part12 ipsec $tag: after 64 KiB over TCP both ends count the same packets per SA, more than before, none failed ($ca)"
	else
		fail "part12 ipsec $tag: after the TCP stream the SA counters differ, did not grow or failed: sm4a: $ca sm4b: $cb"
	fi
	say "TIME: $ARCH part12 ipsec $tag TCP $(elapsed "$t") s"
}

# xfrm_refused TAG ALG OUTPUT: "ip xfrm state add" refused ALG.  Only a
# kernel whose algorithm table has no ALG (run-guest.sh read the table
# from xfrm_algo: XFRM_SM4) explains that (a SKIP); otherwise it is a
# FAIL, whatever the error (the driver could not be allocated or keyed).
xfrm_refused()
{
	case " ${XFRM_SM4:-unknown} " in
	*" unknown "*|*" $2 "*)
		fail "$1: ip xfrm state add of $2 failed (xfrm_algo's table: ${XFRM_SM4:-unknown}): $(echo "$3" | head -n1)" ;;
	*)	skip "$1" "this kernel's xfrm_algo table has no $2 (it names: ${XFRM_SM4:-unknown}): $(echo "$3" | head -n1)" ;;
	esac
}

net_ipsec()
{
	local out t

	if ! out=$(ip xfrm state list 2>&1); then
		skip "part12 ipsec" "no ip (iproute2) or no xfrm in this guest: $(echo "$out" | head -n1)"
		return
	fi
	t=$(uptime_s)
	if ! check "part12 ipsec: namespaces sm4a/sm4b joined by veth" net_topology ||
			! check "part12 ipsec: xfrm policies both ways" xfrm_policies; then
		return
	fi
	say "TIME: $ARCH part12 ipsec setup (namespaces, veth, policies) $(elapsed "$t") s"
	ALG_NAME="authenc(hmac(sha256),cbc(sm4))"
	if out=$(xfrm_add "enc cbc(sm4) 0x$NET_ENC_AB auth-trunc hmac(sha256) 0x$NET_AUTH_AB 128" \
			"enc cbc(sm4) 0x$NET_ENC_BA auth-trunc hmac(sha256) 0x$NET_AUTH_BA 128" 2>&1); then
		pass "part12 ipsec cbc: xfrm took ESP states cbc(sm4) + hmac(sha256)-128 both ways"
		net_traffic cbc 1
	else
		xfrm_refused "part12 ipsec cbc" "cbc(sm4)" "$out"
	fi
	ip -n sm4a xfrm state flush
	ip -n sm4b xfrm state flush
	ALG_NAME="rfc4106(gcm(sm4))"
	if out=$(xfrm_add "aead rfc4106(gcm(sm4)) 0x$NET_GCM_AB 128" \
			"aead rfc4106(gcm(sm4)) 0x$NET_GCM_BA 128" 2>&1); then
		pass "part12 ipsec rfc4106: xfrm took ESP states aead rfc4106(gcm(sm4)) 128 both ways"
		net_traffic rfc4106 0
	else
		xfrm_refused "part12 ipsec rfc4106" "rfc4106(gcm(sm4))" "$out"
	fi
	ip netns del sm4a
	ip netns del sm4b
}

part12()
{
	local m t

	part_begin 12 "network: kernel TLS 1.3 SM4-GCM/CCM, IPsec ESP"
	if [ ! -x "$NETTOOL" ] || [ ! -e "$NET/net.conf" ]; then
		fail "part12 sm4-net or $NET missing (tests/guest/part-net-host.sh)"
		part_end
		return
	fi
	. "$NET/net.conf"
	for m in algif_aead algif_hash cmac xcbc tls gcm ccm ghash_generic authenc \
			drbg jitterentropy_rng esp4 xfrm_user veth; do
		modprobe "$m" 2>/dev/null
	done
	# IPsec first: it instantiates no gcm/ccm, whose kernel self-test
	# (a WARNING, fatal with panic_on_warn) is what catches a broken
	# ctr(sm4) of short vectors first.
	t=$(uptime_s)
	net_ipsec
	say "TIME: $ARCH part12 IPsec $(elapsed "$t") s"
	check "part12 loopback interface up" ip link set lo up
	t=$(uptime_s)
	net_tls
	say "TIME: $ARCH part12 kernel TLS $(elapsed "$t") s"
	t=$(uptime_s)
	# Where this project's drivers serve ccm(sm4) and the MACs, their
	# CBC-MAC assembly must have run in these AEAD and hash socket tests
	# (only ccm uses it among the AEADs), not the portable code.  Only
	# the *_cbcmac entry points are probed.
	kp_arm "part12 afalg aead" cbcmac
	net_run "part12 afalg" - "$AFALG" aead "$NET/aead.bin"
	ours "ccm(sm4)" &&
		expect_served "part12 afalg aead" "ccm(sm4)" cbcmac
	kp_arm "part12 afalg hash" cbcmac
	net_run "part12 afalg" - "$AFALG" hash "$NET/aead.bin"
	ours "cmac(sm4)" &&
		expect_served "part12 afalg hash" "cmac(sm4)" cbcmac
	kp_disarm
	say "TIME: $ARCH part12 AF_ALG aead/hash $(elapsed "$t") s"
	part_end
}
