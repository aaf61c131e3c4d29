#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-style.sh: run the kernel's scripts/checkpatch.pl (from Debian's
# linux-source-6.1, the same on every host: installed on bookworm,
# downloaded from bookworm elsewhere) over every kernel source file of the
# project; one PASS/FAIL line per file.  Checkpatch warnings count as
# failures.  Then tools/check-generated.py: each generator's constants
# against their copies in the sources.

set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib/common.sh"

CP="$CACHE/checkpatch"
if [ ! -x "$CP/scripts/checkpatch.pl" ]; then
	ensure_pkgs git perl xz-utils
	members=(linux-source-6.1/scripts/checkpatch.pl
		 linux-source-6.1/scripts/spelling.txt
		 linux-source-6.1/scripts/const_structs.checkpatch)
	mkdir -p "$CP"
	if [ "$(host_suite)" = bookworm ]; then
		ensure_pkgs linux-source-6.1
		tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$CP" \
			--strip-components=1 "${members[@]}"
	else
		deb=$(suite_download bookworm linux-source-6.1 "$CACHE/debs") &&
			dpkg-deb --fsys-tarfile "$deb" |
			tar -xO ./usr/src/linux-source-6.1.tar.xz |
			tar -xJ -C "$CP" --strip-components=1 "${members[@]}"
	fi || {
		rm -rf "$CP"
		echo "FAIL: style: cannot extract checkpatch.pl from linux-source-6.1"
		exit 1
	}
fi

cd "$ROOT" || exit 1
files=$(git ls-files -co --exclude-standard -- 'lib/*.c' 'crypto/*.c' \
	'include/*.h' 'arch/*.c' 'arch/*.h' 'arch/*.S' 'tests/guest/kmod/*.c' \
	'tests/guest/kmod-upstream/*.c' |
	sort -u)
# Checks that do not apply to a file, and why:
#  compat.h: its purpose is to compare LINUX_VERSION_CODE;
#  glue.h: MODULE_ALIAS_SM4_SKCIPHERS() and the other alias macros
#          expand to file-scope declarations, which cannot be wrapped in
#          do { } while (0).
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

# The constants the generators in tools/ derive, against their copies in
# the sources (tools/check-generated.py: one line per generator).
ensure_pkgs python3
ngen=$(ls tools/gen-*.py | wc -l)
out=$(timeout 900 python3 tools/check-generated.py 2>&1)
echo "$out" | grep -E '^(PASS|FAIL): '
lines=$(echo "$out" | grep -cE '^(PASS|FAIL): ')
[ "$lines" -eq "$ngen" ] ||
	echo "FAIL: generated constants: $lines results for the $ngen generators in tools/ (tools/check-generated.py said: $(echo "$out" | grep -vE '^(PASS|FAIL): ' | tail -3 | tr '\n' ' '))"
