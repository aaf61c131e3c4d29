#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-guest-faults.sh: the fault cases of tests/guest/part-faults.sh on
# the host suite's x86_64 kernel, three short boots sharing one module
# build:
#   1. -cpu max: part busy (rmmod of the driver serving xts(sm4), an
#      accelerated one, while dm-crypt I/O runs through it);
#   2. -cpu Nehalem (no AES-NI, no AVX): parts busy (sm4-generic serves)
#      and nocpu;
#   3. -cpu max booted with noxsave (no XSAVE, so no AVX state): nocpu.
# Each run's PASS/FAIL/SKIP lines are passed through; the exit status is
# 1 if any run failed.

set -uo pipefail
. "$(dirname "$0")/lib/common.sh"

RG="$REPO_ROOT/tests/guest/run-guest.sh"
SUITE=$(host_suite)
rc=0

# run ARGS...: one run-guest.sh run of the x86_64 guest.
run()
{
	"$RG" --arch x86_64 --suite "$SUITE" "$@" || rc=1
}

run --cpu max --parts busy
FIRST="$REPO_ROOT/build/guest/$SUITE-x86_64-max"
run --cpu Nehalem --parts busy,nocpu --reuse-modules "$FIRST"
run --cpu max --append noxsave --parts nocpu --reuse-modules "$FIRST"
exit $rc
