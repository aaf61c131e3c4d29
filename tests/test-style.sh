#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-style.sh: run the kernel's scripts/checkpatch.pl (from Debian's
# linux-source-6.1) over every kernel source file of the project; one
# PASS/FAIL line per file.  Checkpatch warnings count as failures.

set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib/common.sh"

ensure_pkgs linux-source-6.1
CP="$CACHE/checkpatch"
if [ ! -x "$CP/scripts/checkpatch.pl" ]; then
	mkdir -p "$CP"
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$CP" \
		--strip-components=1 linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch || exit 1
fi

cd "$ROOT" || exit 1
files=$(git ls-files -co --exclude-standard -- 'lib/*.c' 'crypto/*.c' \
	'include/*.h' 'arch/*.c' 'arch/*.h' 'arch/*.S' 'tests/guest/kmod/*.c' \
	'tests/guest/kmod-upstream/*.c' |
	sort -u)
# Checks that do not apply to a file, and why:
#  compat.h: its purpose is to compare LINUX_VERSION_CODE;
#  glue.h: MODULE_ALIAS_SM4_SKCIPHERS() expands to file-scope
#          declarations, which cannot be wrapped in do { } while (0).
ignore_for()
{
	case $1 in
	include/sm4/compat.h) echo LINUX_VERSION_CODE,CONSTANT_COMPARISON ;;
	include/sm4/glue.h) echo MULTISTATEMENT_MACRO_USE_DO_WHILE ;;
	esac
}

for f in $files; do
	[ -f "$f" ] || continue
	ign=FILE_PATH_CHANGES
	[ -z "$(ignore_for "$f")" ] || ign="$ign,$(ignore_for "$f")"
	out=$("$CP/scripts/checkpatch.pl" --no-tree --quiet --show-types \
		--ignore "$ign" -f "$f" 2>&1)
	if [ -z "$out" ]; then
		echo "PASS: checkpatch $f"
	else
		echo "FAIL: checkpatch $f"
		echo "$out" | head -20
	fi
done
