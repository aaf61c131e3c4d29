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
#     (K > 0; "[...]" is the driver that served the name);
#   - for every mode, some other driver passes "check" on the same vectors;
#   - no other FAIL: or ERROR: line, except the consequences of those
#     mismatches: "cross M ... DISAGREE (...)" naming M-sm4-S, and
#     "sm4-afalg check|cross exit status 1".  So a module that registered
#     nothing, a driver refused by its self-test, a bind error, a timeout
#     or a dead guest all FAIL.
# RUN_LOG (optional) is run-guest.sh's output; its FAIL: lines must pass
# the same filter, which catches the host's verdicts (QEMU exit status,
# timeout, kernel console, setup failures).

set -uo pipefail

MODES="ecb cbc cfb ctr xts"

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
	local m alt="" re

	for m in $MODES; do
		alt="$alt${alt:+|}$m"
	done
	re="^FAIL: [^ ]+ [^:]+: (check ($alt)(-sm4-$SUFFIX|\\(sm4\\)) \\[($alt)-sm4-$SUFFIX\\]: [0-9]+ of [0-9]+ cases failed: [1-9][0-9]* mismatches, 0 request errors( \\(0 wrote outside the output, 0 changed the source\\))?"
	re="$re|cross ($alt) [0-9]+ cases, [0-9]+ drivers DISAGREE \\((.* )?($alt)-sm4-$SUFFIX( .*)?\\) \\([0-9.]+ s\\)"
	re="$re|sm4-afalg (check|cross) exit status 1)\$"
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
	for name in "$m-sm4-$SUFFIX" "$m(sm4)"; do
		re=${name//(/\\(}
		re=${re//)/\\)}
		pat="^FAIL: [^ ]+ [^:]+: check $re \\[$m-sm4-$SUFFIX\\]: [0-9]+ of [0-9]+ cases failed: [1-9][0-9]* mismatches, 0 request errors( \\(0 wrote outside the output, 0 changed the source\\))?\$"
		grep -qE "$pat" <<<"$V" || missing="$missing $name"
	done
	correct=$(grep -E "^PASS: [^ ]+ [^:]+: check $m-sm4-[A-Za-z0-9_-]+ [0-9]+ cases \\[$m-sm4-" <<<"$V" |
		grep -v "check $m-sm4-$SUFFIX ")
	[ -n "$correct" ] || nocorrect="$nocorrect $m"
done
[ -z "$missing" ] ||
	verdict FAIL "no mismatch reported by sm4-afalg check for:$missing"
[ -z "$nocorrect" ] ||
	verdict FAIL "no correct driver passed sm4-afalg check on the same vectors for:$nocorrect"

verdict PASS "the $SUFFIX driver's mismatches are caught in every mode, by driver name and generic name (sm4-afalg check), and nothing else failed ($(grep -c '^FAIL:' <<<"$V") FAIL lines, $end)"
