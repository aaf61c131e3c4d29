# SPDX-License-Identifier: GPL-2.0
#
# Host side of part 12 (tests/guest/part-net.sh), sourced by run-guest.sh.
#
# net_prepare: the AEAD/MAC vectors (gen-vectors --aead, 40 per
# algorithm); builds tests/guest/net-oracle (libgcrypt), computes the
# TLS 1.3 records of both SM4 suites for keys derived from the seed,
# draws the ESP keys and stages them, sm4-net and the part under
# $STAGE/opt/sm4/net.  The expected records are made here rather than
# the wire bytes judged here: the guest then also feeds them to kTLS RX
# (and flips bits in them), which needs them before the boot.
#
# net_check VERDICT: decrypts the ESP packets the guest captured (NET-ESP
# lines) with libgcrypt: ICV, SM4-CBC, trailer, UDP payload.

NET_TLS_SIZES=0,1,15,16,17,255,4096,9000,16383,16384

net_prepare()
{
	local dir="$STAGE/opt/sm4/net" c keys

	mkdir -p "$dir"
	gcc -O2 -Wall -I"$REPO_ROOT/tests/common" -o "$WORK/net-oracle" \
		"$REPO_ROOT/tests/guest/net-oracle.c" -lgcrypt ||
		setup_fail "build tests/guest/net-oracle"
	"$WORK/gen-vectors" --aead "$dir/aead.bin" 40 "$SEED" ||
		setup_fail "gen-vectors --aead"
	: >"$dir/tls.keys"
	for c in gcm ccm; do
		keys=$("$WORK/net-oracle" tls $c "$SEED" "$NET_TLS_SIZES" "$dir") ||
			setup_fail "net-oracle: TLS records for $c"
		echo "$c $keys" >>"$dir/tls.keys"
	done
	rnd_hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }
	NET_ENC_AB=$(rnd_hex 16)
	NET_AUTH_AB=$(rnd_hex 32)
	NET_ENC_BA=$(rnd_hex 16)
	NET_AUTH_BA=$(rnd_hex 32)
	NET_MARKER="SM4-ESP-PAYLOAD-$SEED"
	cat >"$dir/net.conf" <<EOF
NET_TLS_SIZES=$NET_TLS_SIZES
NET_ENC_AB=$NET_ENC_AB
NET_AUTH_AB=$NET_AUTH_AB
NET_ENC_BA=$NET_ENC_BA
NET_AUTH_BA=$NET_AUTH_BA
NET_GCM_AB=$(rnd_hex 20)
NET_GCM_BA=$(rnd_hex 20)
NET_MARKER=$NET_MARKER
EOF
	[ -x "$WORK/tools/sm4-net" ] &&
		install -m 755 "$WORK/tools/sm4-net" "$STAGE/usr/local/bin/sm4-net"
	install -m 644 "$REPO_ROOT/tests/guest/part-net.sh" "$STAGE/part-net.sh"
}

net_check()
{
	local ver=$1 line out

	# Only the guest's own SKIP of cbc(sm4) ESP (or of all IPsec) excuses
	# the missing packets; an rfc4106 SKIP does not.
	if grep -qE "^SKIP: $ARCH part12 ipsec( cbc)?: " "$ver" &&
			! grep -q '^NET-ESP cbc ' "$ver"; then
		echo "SKIP: $ARCH part12 host: ESP decryption: the guest ran no cbc(sm4) ESP traffic"
		N_SKIP=$((N_SKIP + 1))
		return
	fi
	out=$(grep '^NET-ESP cbc ' "$ver" | "$WORK/net-oracle" esp "$NET_MARKER" \
		"5a4:$NET_ENC_AB:$NET_AUTH_AB" "5b4:$NET_ENC_BA:$NET_AUTH_BA")
	[ -n "$out" ] || out="FAIL: esp: net-oracle printed no verdict"
	while IFS= read -r line; do
		case $line in
		PASS:*) pass "part12 host:${line#PASS:}" ;;
		*) fail "part12 host:${line#FAIL:}" ;;
		esac
	done <<<"$out"
}
