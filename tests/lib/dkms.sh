# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the DKMS tests (tests/dkms-test.sh, tests/test-deb.sh,
# tests/test-kbuild.sh), sourced after common.sh (which has
# pass/fail/skip).  Provides: step, words, dkms_conf_modules,
# modules_order_names, compare_modules, dkms_built_modules,
# check_installed, dkms_lock.

# shellcheck shell=bash

# steplog NAME: the log file of step NAME.
steplog()
{
	echo "$LOGDIR/$(printf '%s' "$1" | tr -c 'A-Za-z0-9.-' _).log"
}

# step NAME CMD...: run CMD with its output in $(steplog NAME); PASS if
# it succeeds, else FAIL with the end of the log.
step()
{
	local name=$1 rc log

	shift
	log=$(steplog "$name")
	"$@" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		pass "$name"
		return 0
	fi
	fail "$name (exit $rc; log:)"
	sed 's/^/    /' "$log" | tail -n 30
	return 1
}

# words TEXT: TEXT on one line.
words()
{
	echo "$1" | tr '\n' ' ' | sed 's/ $//'
}

# dkms_conf_modules CONF ARCH KVER: the modules dkms.conf CONF lists for
# ARCH (uname -m style) and kernel KVER, sorted, one a line.
dkms_conf_modules()
{
	(
		# shellcheck disable=SC2034
		arch=$2 kernelver=$3
		# shellcheck disable=SC1090
		. "$1" >/dev/null
		printf '%s\n' "${BUILT_MODULE_NAME[@]}"
	) | sort
}

# modules_order_names FILE: the module names of a build's modules.order
# (6.1: paths of .ko files; 6.3 and later: of .o files), sorted, one a
# line.
modules_order_names()
{
	sed -E 's|.*/||; s/\.(ko|o)$//' "$1" | grep -v '^$' | sort
}

# compare_modules WHAT BUILT LISTED: BUILT (what a build's modules.order
# names) and LISTED (what dkms.conf lists), one a line each, must be the
# same set.  One PASS or FAIL line, which names every module on one side
# only; status 1 if they differ.
compare_modules()
{
	local what=$1 built=$2 listed=$3 only_built only_listed

	if [ -z "$built" ] || [ -z "$listed" ]; then
		fail "$what: empty module list (built: $(words "$built"); dkms.conf: $(words "$listed"))"
		return 1
	fi
	only_built=$(comm -23 <(printf '%s\n' "$built" | sort) <(printf '%s\n' "$listed" | sort))
	only_listed=$(comm -13 <(printf '%s\n' "$built" | sort) <(printf '%s\n' "$listed" | sort))
	if [ -z "$only_built" ] && [ -z "$only_listed" ]; then
		pass "$what: dkms.conf lists exactly the modules of modules.order: $(words "$listed")"
		return 0
	fi
	fail "$what: dkms.conf and modules.order differ:${only_built:+ built but not in dkms.conf (DKMS would not install them): $(words "$only_built")}${only_built:+${only_listed:+;}}${only_listed:+ in dkms.conf but not built: $(words "$only_listed")}"
	return 1
}

# dkms_built_modules ROOT NAME VERSION KVER ARCH: the modules the DKMS
# build of NAME VERSION for KVER/ARCH under ROOT (/ or a chroot) linked,
# one a line, sorted; status 1 (nothing printed) without a build log.
# DKMS removes its build directory, modules.order with it, after a
# build, but keeps the build's make.log, where Kbuild's modfinal step
# prints one "LD [M]" line for each entry of modules.order.
dkms_built_modules()
{
	local mlog=$1/var/lib/dkms/$2/$3/$4/$5/log/make.log

	[ -s "$mlog" ] || return 1
	sed -n 's/.*LD \[M\] *\(.*\)\.ko$/\1/p' "$mlog" | sed 's|.*/||' | sort -u
}

# check_installed ROOT KVER MODULES: every module of MODULES (one a
# line; callers pass what the build linked, dkms_built_modules, where
# they can) is in ROOT/lib/modules/KVER/updates/dkms, with vermagic KVER and
# in modules.dep, and nothing else is there.  ROOT is / or a chroot (its
# own modinfo is used).  One PASS or FAIL line.
check_installed()
{
	local root=$1 kver=$2 want=$3 inst m ko vm bad='' have

	if [ -z "$want" ]; then
		fail "$kver: no module list to check"
		return 1
	fi
	inst=$root/lib/modules/$kver/updates/dkms
	for m in $want; do
		ko=$(compgen -G "$inst/$m.ko*" | head -n1)
		if [ -z "$ko" ]; then
			bad="$bad $m:missing"
			continue
		fi
		vm=$(chroot "$root" modinfo -F vermagic "${ko#"$root"}" | awk '{print $1}')
		[ "$vm" = "$kver" ] || bad="$bad $m:vermagic=$vm"
		grep -q "^updates/dkms/$m\.ko[^:]*:" "$root/lib/modules/$kver/modules.dep" ||
			bad="$bad $m:not-in-modules.dep"
	done
	have=$(cd "$inst" 2>/dev/null && ls | sed 's/\.ko.*//' | sort)
	[ "$have" = "$want" ] || bad="$bad files-in-updates/dkms=($(words "$have"))"
	if [ -z "$bad" ]; then
		pass "$kver: $(words "$want") in updates/dkms with vermagic $kver and in modules.dep, nothing else there"
	else
		fail "$kver: install check:$bad"
	fi
}

# dkms_lock: one DKMS test at a time on this machine (make dkms state and
# the package share /usr/src/sm4-crypto-VERSION and /var/lib/dkms).
dkms_lock()
{
	mkdir -p "$CACHE"
	exec 8>"$CACHE/.dkms.lock"
	flock -w 3600 8 || die "another DKMS test holds $CACHE/.dkms.lock"
}
