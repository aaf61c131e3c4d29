#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# expect-broken.sh VERDICT_FILE DRIVER_SUFFIX [RUN_LOG]
#
# Judge a guest run made with --with-broken (tests/guest/kmod's
# sm4_broken_test.ko, drivers "<mode>-sm4-DRIVER_SUFFIX"): it passes only
# if the suite caught that driver, and for no other reason.  Prints one
# PASS: or FAIL: line; exit status 0 on PASS, 1 on FAIL.
#
# VERDICT_FILE is the guest's verdict channel (build/guest/<cell>-broken/
# verdict1.txt.clean).  PASS needs all of:
#   - the suite ran to the end: an "END: <arch> phase=1" line, and its
#     rc= (when given) is not 0;
#   - for every mode M: sm4-afalg check reports mismatches, and no request
#     errors, for the driver name and for the generic name served by it:
#       FAIL: <arch> <part>: check M-sm4-S [M-sm4-S]: N of N cases failed: K mismatches, 0 request errors
#       FAIL: <arch> <part>: check M(sm4) [M-sm4-S]: ...
#     (K > 0; "[...]" is the driver that served the name; for cts the
#     names are cts-cbc-sm4-S and cts(cbc(sm4)));
#   - for every mode, some other driver passes "check" on the same vectors;
#   - sm4_cfb_fuzz.ko (part 3: random messages, scatterlists and IV
#     chaining against CFB over the single-block sm4-generic) reports the
#     driver's cfb output wrong, and passes another cfb(sm4) driver:
#       FAIL: <arch> <part> cfb fuzz cfb-sm4-S: N of N messages differ from CFB over sm4-generic (...): message ...: output differs from the reference ...
#   - no other FAIL: or ERROR: line, except the consequences of those
#     mismatches: "cross M ... DISAGREE (...)" naming M-sm4-S, and
#     "sm4-afalg check|cross exit status 1".  So a module that registered
#     nothing, a driver refused by its self-test, a bind error, a timeout
#     or a dead guest all FAIL.
# RUN_LOG (optional) is run-guest.sh's output; its FAIL: lines must pass
# the same filter, which catches the host's verdicts (QEMU exit status,
# timeout, kernel console, setup failures).

set -uo pipefail

MODES="ecb cbc cfb ctr xts cts"

# The broken driver's name of mode $1, its generic name, and the driver
# name's prefix for any implementation.
prefix_of()
{
	if [ "$1" = cts ]; then echo cts-cbc-sm4-; else echo "$1-sm4-"; fi
}
generic_of()
{
	if [ "$1" = cts ]; then echo 'cts(cbc(sm4))'; else echo "$1(sm4)"; fi
}
# $1 as an extended regular expression (names hold only [a-z0-9()_-]).
ere()
{
	sed 's/[()]/\\&/g' <<<"$1"
}

# judge_begin OPTION LABEL WHAT $@: the common start of --fallback and
# --gcm: the arguments, V (the verdict) and L (the run log) without CRs,
# say LABEL, and a suite that ended with failures (WHAT: why none is
# wrong).
judge_begin()
{
	local opt=$1 label=$2 what=$3

	shift 3
	[ $# -eq 3 ] || { echo "usage: $0 $opt VERDICT_FILE RUN_LOG" >&2; exit 2; }
	V=$(tr -d '\r' 2>/dev/null <"$2")
	L=$(tr -d '\r' 2>/dev/null <"$3")
	eval "say() { echo \"\$1: $label: \$2\"; [ \"\$1\" = PASS ]; }"
	[ -n "$V" ] || { say FAIL "verdict file $2 missing or empty"; exit 1; }
	grep -qE '^END: [^ ]+ phase=1 .*rc=[1-9]' <<<"$V" ||
		{ say FAIL "the suite did not end with failures (no END phase=1 rc>0)$what"; exit 1; }
}

# expect-broken.sh --fallback VERDICT_FILE RUN_LOG: judge a part-3 run of
# modules built with -DSM4_TEST_SILENT_FALLBACK (run-guest.sh
# --silent-fallback: every request and setkey of every family, skciphers,
# gcm, ccm and the MACs, in the portable C code, the results correct):
# the entry counts must fail for every project driver with assembly,
# naming every skcipher mode, its five short and eight long requests, its
# setkey, and every gcm, ccm and cmac check of it (sm4_glue_test), while
# every AF_ALG check and every sm4_glue_test comparison passes; no other
# failure.
if [ "${1:-}" = --fallback ]; then
	judge_begin --fallback guest-fallback ": the silent fallback went unnoticed" "$@"
	re='^FAIL: [^ ]+ part3 [a-z0-9_-]+ serves ecb cbc_enc cbc_dec cfb_enc cfb_dec ctr xts but its assembly for it was never entered \(hits: none\)$'
	# suite.sh short_requests: five short requests per driver, each of
	# which must have run in C.
	short_re="^FAIL: [^ ]+ part3 short requests: [a-z-]+-sm4-[a-z0-9-]+ (enc|dec) [0-9]+ bytes never entered [a-z0-9_-]+'s [a-z_]+ assembly \\(entries [0-9]+ -> [0-9]+\\): the request ran in C$"
	# and eight long requests (four pages, every mode function), none of
	# whose pages may have entered the assembly.
	long_re="^FAIL: [^ ]+ part3 long requests: [a-z-]+-sm4-[a-z0-9-]+ (enc|dec) [0-9]+ bytes entered [a-z0-9_-]+'s [a-z_]+ assembly 0 times, fewer than its [0-9]+ pages \\(entries [0-9]+ -> [0-9]+\\): part of the request ran in C$"
	# suite.sh setkey_entries: the skcipher's key expansion, gcm's H.
	setkey_re="^FAIL: [^ ]+ part3 setkey: (skcipher|aead) [a-z-]+-sm4-[a-z0-9-]+ never entered [a-z0-9_-]+'s (expand_key|ecb) assembly \\(entries [0-9]+ -> [0-9]+\\): the key met the table S-box in C$"
	# suite.sh glue_entries: gcm's table and GHASH, ccm's and cmac's
	# CBC-MAC.
	glue_re="^FAIL: [^ ]+ part3 glue: (gcm|ccm|cmac)-sm4-[a-z0-9-]+ never entered [a-z0-9_-]+'s [a-z_+]+ assembly \\(entries [0-9]+ -> [0-9]+\\): its requests ran the portable code$"
	caught=$(grep -E "$re" <<<"$V" | awk '{ print $4 }' | sort -u | paste -sd' ')
	checks=$(grep -cE '^PASS: [^ ]+ part3: check ' <<<"$V")
	others=$(printf '%s\n%s\n' "$V" "$L" | grep -E '^(FAIL|ERROR):' |
		grep -vE "$re" | grep -vE "$short_re" | grep -vE "$long_re" |
		grep -vE "$setkey_re" | grep -vE "$glue_re" | sort -u)
	bad=0
	if [ -n "$caught" ]; then
		say PASS "the entry counts catch the fallback of every mode in: $caught"
	else
		say FAIL "no driver's entry counts failed for all seven modes"; bad=1
	fi
	# missed_of RE N: the caught drivers without exactly N lines of RE.
	missed_of()
	{
		local m out=

		for m in $caught; do
			[ "$(grep -E "$1" <<<"$V" | grep -cF " $m's ")" -eq "$2" ] ||
				out="$out $m"
		done
		echo "$out"
	}
	short_missed=$(missed_of "$short_re" 5)
	setkey_missed= glue_missed=
	for m in $caught; do
		grep -E "$setkey_re" <<<"$V" | grep -qF " $m's expand_key " ||
			setkey_missed="$setkey_missed $m"
		# Every glue check of m failed, none passed.
		if ! grep -E "$glue_re" <<<"$V" | grep -qF " $m's " ||
				grep -E '^PASS: [^ ]+ part3 glue: ' <<<"$V" | grep -qF "entered $m's assembly"; then
			glue_missed="$glue_missed $m"
		fi
	done
	if [ -n "$caught" ] && [ -z "$short_missed" ]; then
		say PASS "the short-request checks catch it too: all five short requests of every such driver ran in C"
	else
		say FAIL "the short-request checks did not fail five times for:${short_missed:- any driver}"; bad=1
	fi
	long_missed=$(missed_of "$long_re" 8)
	if [ -n "$caught" ] && [ -z "$long_missed" ]; then
		say PASS "the long-request counts catch it too: no page of the eight four-page requests of every such driver entered its assembly"
	else
		say FAIL "the long-request counts did not fail eight times for:${long_missed:- any driver}"; bad=1
	fi
	if [ -n "$caught" ] && [ -z "$setkey_missed" ]; then
		say PASS "the setkey checks catch it: every such driver's key expansion ran in C"
	else
		say FAIL "the setkey checks did not fail for:${setkey_missed:- any driver}"; bad=1
	fi
	families=$(grep -E "$glue_re" <<<"$V" | sed -E 's/.* part3 glue: ([a-z]+)-sm4-.*/\1/' | sort -u | paste -sd' ')
	if [ -n "$caught" ] && [ -z "$glue_missed" ] && [ "$families" = "ccm cmac gcm" ]; then
		say PASS "the glue checks catch it in gcm, ccm and cmac: every such check of every such driver failed, none passed"
	else
		say FAIL "the glue checks (gcm, ccm, cmac) missed the fallback: families caught '${families:-none}', drivers not caught:${glue_missed:- none}"; bad=1
	fi
	if [ "$checks" -gt 0 ] && ! grep -qE '^FAIL: [^ ]+ part3: check ' <<<"$V"; then
		say PASS "the results stayed correct: $checks AF_ALG checks passed, none failed"
	else
		say FAIL "AF_ALG checks: $checks passed, $(grep -cE '^FAIL: [^ ]+ part3: check ' <<<"$V") failed (expected all correct)"; bad=1
	fi
	if [ -z "$others" ]; then
		say PASS "nothing else failed"
	else
		say FAIL "failures not explained by the fallback: $(head -n 3 <<<"$others" | paste -sd ';')"; bad=1
	fi
	exit $bad
fi

# expect-broken.sh --gcm VERDICT_FILE RUN_LOG: judge a part-12 run with
# sm4_broken_test's gcm_bad_setkey=1 (gcm-sm4-broken serves gcm(sm4); its
# setkey fails once tested): kernel TLS must fail to key gcm(sm4), by
# name, AF_ALG's AEAD check of gcm(sm4) must fail on gcm-sm4-broken, ccm
# must still pass, and nothing that is not about that gcm may fail.
if [ "${1:-}" = --gcm ]; then
	judge_begin --gcm "guest-broken gcm" "" "$@"
	bad=0
	if grep -qE '^FAIL: [^ ]+ part12: tls gcm wire: SOL_TLS TLS_TX: Invalid argument \(the kernel.s TLS: sm4\) \[gcm\(sm4\): gcm-sm4-broken\]$' <<<"$V"; then
		say PASS "kernel TLS reports that it cannot key gcm(sm4) (gcm-sm4-broken: EINVAL), by name"
	else
		say FAIL "no \"tls gcm wire: SOL_TLS TLS_TX: Invalid argument\" FAIL naming gcm-sm4-broken"; bad=1
	fi
	if grep -qE '^FAIL: [^ ]+ part12 afalg: aead gcm\(sm4\) \[gcm-sm4-broken\]: [0-9]+ of [0-9]+ cases failed' <<<"$V"; then
		say PASS "AF_ALG's AEAD check of gcm(sm4) fails on gcm-sm4-broken"
	else
		say FAIL "AF_ALG's AEAD check of gcm(sm4) did not fail on gcm-sm4-broken"; bad=1
	fi
	if grep -qE '^PASS: [^ ]+ part12: tls ccm wire: ' <<<"$V"; then
		say PASS "kernel TLS with ccm(sm4) still passes beside it"
	else
		say FAIL "kernel TLS with ccm(sm4) did not pass beside the broken gcm"; bad=1
	fi
	others=$(printf '%s\n%s\n' "$V" "$L" | grep -E '^(FAIL|ERROR):' |
		grep -vE 'part12: tls gcm [a-z]+: SOL_TLS TLS_(TX|RX): Invalid argument .*gcm-sm4-broken\]$' |
		grep -vE 'part12 afalg: aead (gcm\(sm4\)|gcm-sm4-broken|rfc4106\((gcm\(sm4\)|gcm-sm4-broken)\)) \[(rfc4106\()?gcm-sm4-broken\)?\]: ' |
		grep -vE 'part12 afalg: .*sm4-afalg aead exit status 1' | sort -u)
	if [ -z "$others" ]; then
		say PASS "nothing else failed"
	else
		say FAIL "failures not explained by the broken gcm: $(head -n 3 <<<"$others" | paste -sd ';')"; bad=1
	fi
	exit $bad
fi

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 VERDICT_FILE DRIVER_SUFFIX [RUN_LOG]" >&2
	exit 2
fi
VERDICT=$1
SUFFIX=$2
RUNLOG=${3:-}
case $SUFFIX in
'' | *[!A-Za-z0-9_-]*)
	echo "$0: bad driver suffix '$SUFFIX'" >&2
	exit 2
	;;
esac

verdict()
{
	if [ "$1" = PASS ]; then
		echo "PASS: guest-broken: $2"
		exit 0
	fi
	echo "FAIL: guest-broken: $2"
	exit 1
}

[ -s "$VERDICT" ] ||
	verdict FAIL "verdict file $VERDICT missing or empty: the guest never reported (QEMU failed, or the guest died before its suite started)"
[ -z "$RUNLOG" ] || [ -s "$RUNLOG" ] ||
	verdict FAIL "run log $RUNLOG missing or empty"

V=$(tr -d '\r' <"$VERDICT")

end=$(grep -E '^END: [^ ]+ phase=1( |$)' <<<"$V" | tail -n 1)
[ -n "$end" ] ||
	verdict FAIL "the suite did not finish (no \"END: ... phase=1\" line in $VERDICT; last line: $(tail -n 1 <<<"$V")): the guest died, hung or hit the timeout"
case " $end " in
*" rc=0 "*) verdict FAIL "the suite ended with rc=0 ($end): nothing was caught" ;;
esac

# Failure lines the broken driver explains.
explained()
{
	local m alt="" drv="" gen="" re

	for m in $MODES; do
		alt="$alt${alt:+|}$m"
		drv="$drv${drv:+|}$(prefix_of "$m")$SUFFIX"
		gen="$gen${gen:+|}$(ere "$(generic_of "$m")")"
	done
	re="^FAIL: [^ ]+ [^:]+: (check ($drv|$gen) \\[($drv)\\]: [0-9]+ of [0-9]+ cases failed: [1-9][0-9]* mismatches, 0 request errors( \\(0 wrote outside the output, 0 changed the source\\))?"
	re="$re|cross ($alt) [0-9]+ cases, [0-9]+ drivers DISAGREE \\((.* )?($drv)( .*)?\\) \\([0-9.]+ s\\)"
	re="$re|sm4-afalg (check|cross) exit status 1)\$"
	re="$re|^FAIL: [^ ]+ [^ ]+ cfb fuzz cfb-sm4-$SUFFIX: [1-9][0-9]* of [0-9]+ messages differ from CFB over sm4-generic \\([^)]*seed [0-9]+\\): message [0-9]+: .*: output differs from the reference from byte [0-9]+ .*\$"
	grep -E "$re"
}

others=$(grep -E '^(FAIL|ERROR):' <<<"$V" | grep -vxF -f <(explained <<<"$V") )
if [ -n "$RUNLOG" ]; then
	others=$(printf '%s\n%s\n' "$others" \
		"$(tr -d '\r' <"$RUNLOG" | grep -E '^(FAIL|ERROR):' |
			grep -vxF -f <(tr -d '\r' <"$RUNLOG" | explained))" |
		grep -v '^$' | sort -u)
fi
[ -z "$others" ] ||
	verdict FAIL "failures other than the $SUFFIX driver's mismatches ($(grep -c . <<<"$others")): $(head -n 3 <<<"$others" | paste -sd ';' | sed 's/;/; /g')"

missing=
nocorrect=
for m in $MODES; do
	p=$(prefix_of "$m")
	for name in "$p$SUFFIX" "$(generic_of "$m")"; do
		pat="^FAIL: [^ ]+ [^:]+: check $(ere "$name") \\[$p$SUFFIX\\]: [0-9]+ of [0-9]+ cases failed: [1-9][0-9]* mismatches, 0 request errors( \\(0 wrote outside the output, 0 changed the source\\))?\$"
		grep -qE "$pat" <<<"$V" || missing="$missing $name"
	done
	correct=$(grep -E "^PASS: [^ ]+ [^:]+: check ${p}[A-Za-z0-9_-]+ [0-9]+ cases \\[$p" <<<"$V" |
		grep -v "check $p$SUFFIX ")
	[ -n "$correct" ] || nocorrect="$nocorrect $m"
done
[ -z "$missing" ] ||
	verdict FAIL "no mismatch reported by sm4-afalg check for:$missing"
[ -z "$nocorrect" ] ||
	verdict FAIL "no correct driver passed sm4-afalg check on the same vectors for:$nocorrect"
grep -qE "^FAIL: [^ ]+ [^:]+ cfb fuzz cfb-sm4-$SUFFIX: [1-9][0-9]* of [0-9]+ messages differ from CFB over sm4-generic .*: output differs from the reference " <<<"$V" ||
	verdict FAIL "sm4_cfb_fuzz did not report cfb-sm4-$SUFFIX's wrong output (no \"cfb fuzz cfb-sm4-$SUFFIX: N of M messages differ\" FAIL)"
grep -qE "^PASS: [^ ]+ [^:]+ cfb fuzz cfb[-(]sm4[-a-z0-9]*\)?: [0-9]+ messages " <<<"$V" ||
	verdict FAIL "sm4_cfb_fuzz passed no correct cfb(sm4) driver beside cfb-sm4-$SUFFIX"

verdict PASS "the $SUFFIX driver's mismatches are caught in every mode, by driver name and generic name (sm4-afalg check), its cfb by sm4_cfb_fuzz too, and nothing else failed ($(grep -c '^FAIL:' <<<"$V") FAIL lines, $end)"
