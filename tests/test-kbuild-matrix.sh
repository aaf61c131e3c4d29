#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-kbuild-matrix.sh SUITE...: build the modules for x86_64 against
# the kernel headers of other Debian suites (trixie: 6.12, sid: 7.2),
# each inside a chroot of that suite so that each kernel is built with
# its own compiler, at W=1; check for warnings and for the expected
# modules.  Chroots are made with mmdebstrap (about 40 s each) and cached
# under .cache/chroots.

set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib/common.sh"
ensure_pkgs mmdebstrap

MIRROR=${SM4_DEBIAN_MIRROR:-http://deb.debian.org/debian}
want="sm4 sm4_generic sm4-aesni-avx-x86_64 sm4-aesni-avx2-x86_64 sm4-gfni-avx512-x86_64"
rc=0

for suite in "${@:-trixie sid}"; do
	chr="$CACHE/chroots/$suite"
	if [ ! -e "$chr/.complete" ]; then
		rm -rf "$chr"
		mkdir -p "$CACHE/chroots"
		# Archive snapshots may carry an expired Release file.
		if ! mmdebstrap --variant=buildd \
				--aptopt='Acquire::Check-Valid-Until "false"' \
				--include=linux-headers-amd64,kmod "$suite" "$chr" \
				"$MIRROR" >"$CACHE/chroots/$suite.log" 2>&1; then
			echo "FAIL: kbuild $suite: cannot create chroot (log: $CACHE/chroots/$suite.log)"
			rc=1
			continue
		fi
		touch "$chr/.complete"
	fi
	kdir=$(ls -d "$chr"/usr/src/linux-headers-*-amd64 | head -n1)
	kdir=${kdir#"$chr"}
	rm -rf "$chr/build"
	mkdir -p "$chr/build"
	(cd "$ROOT" && git ls-files -co --exclude-standard -- Kbuild Makefile \
		lib crypto include arch | cpio -pdm --quiet "$chr/build")
	mount -t proc proc "$chr/proc"	# objtool reads /proc
	chroot "$chr" make -C "$kdir" M=/build W=1 -j"$(nproc)" modules \
		>"$chr/build.log" 2>&1
	brc=$?
	umount "$chr/proc"
	ver=${kdir#/usr/src/linux-headers-}
	if [ $brc -ne 0 ]; then
		echo "FAIL: kbuild $suite ($ver): build failed"
		tail -n 20 "$chr/build.log"
		rc=1
		continue
	fi
	echo "PASS: kbuild $suite ($ver): modules build"
	if grep -iE 'warning|error' "$chr/build.log" | grep -v 'Skipping BTF'; then
		echo "FAIL: kbuild $suite ($ver): warnings at W=1"
		rc=1
	else
		echo "PASS: kbuild $suite ($ver): no warnings at W=1"
	fi
	for m in $want; do
		if [ -f "$chr/build/$m.ko" ]; then
			echo "PASS: kbuild $suite ($ver): $m.ko built"
		else
			echo "FAIL: kbuild $suite ($ver): $m.ko built"
			rc=1
		fi
	done
done
exit $rc
