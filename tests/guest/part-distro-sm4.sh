# SPDX-License-Identifier: GPL-2.0
#
# In-guest checks of the simulated "distribution with SM4" (sourced by
# tests/guest/suite.sh, busybox sh; uses its helpers: pass, fail, check,
# crypto_table, best_driver, dmesg_mark, dmesg_new, cpu_has, is_loaded,
# modname, modprobe/rmmod/lsmod wrappers, $MODDIR).
#
# The image holds upstream's own SM4 modules, built from the kernel's
# source package by tests/lib/build-upstream-sm4.sh, where a distribution
# installs them (/lib/modules/KVER/kernel/..., the test module
# sm4_upstream_abi_test under extra/), this project's under updates/, and
# depmod has run; $DISTRO_SM4_LIST is build-upstream-sm4.sh's
# modules.list ("NAME RELPATH" per upstream module).
#
# part_distro_sm4 checks, with nothing of SM4 loaded beforehand:
#   - every upstream module name that this project also ships resolves to
#     ours (updates/), the others (sm4-ce-ccm, sm4-ce-gcm) stay in-tree;
#   - crypto API requests (the crypto-* aliases) load only our drivers,
#     and every SM4 algorithm name is served by one of ours;
#   - upstream-built users load against our library and sm4-ce and pass
#     their self-tests: sm4-ce-ccm and sm4-ce-gcm (arm64, 6.2+, on CPUs
#     with the SM4 instructions) and sm4_upstream_abi_test;
#   - nothing logs a duplicate registration, an unknown symbol or a
#     symbol version disagreement;
#   - modprobe -r of everything leaves no SM4 algorithm behind.

: "${DISTRO_SM4_LIST:=/opt/sm4/upstream/modules.list}"

# _distro_path NAME: the file modprobe would load for module NAME.
_distro_path()
{
	/sbin/modinfo -F filename "$1" 2>/dev/null | head -n1
}

# _distro_ours NAME: NAME resolves to a module under updates/.
_distro_ours()
{
	case $(_distro_path "$1") in
	"$MODDIR"/updates/*) return 0 ;;
	esac
	return 1
}

part_distro_sm4()
{
	local name rel path x best m users n tag=distro-sm4

	part_begin D "distribution with SM4: upstream's modules in kernel/, ours in updates/"
	if [ ! -r "$DISTRO_SM4_LIST" ]; then
		fail "$tag no list of upstream modules ($DISTRO_SM4_LIST)"
		part_end
		return
	fi
	if lsmod | grep -q '^sm4'; then
		fail "$tag SM4 modules loaded before the checks: $(lsmod | awk '/^sm4/ { printf "%s ", $1 }')"
	fi

	# Name resolution: shadowed by ours, or still in-tree.
	users=
	while read -r name rel; do
		[ -n "$name" ] || continue
		if [ ! -e "$MODDIR/$rel" ]; then
			fail "$tag upstream's $name is not installed at $rel"
			continue
		fi
		path=$(_distro_path "$name")
		if compgen_updates "$name"; then
			if _distro_ours "$name"; then
				pass "$tag $name resolves to ours (${path#"$MODDIR"/}), upstream's in $rel is shadowed"
			else
				fail "$tag $name resolves to ${path:-nothing}, not to ours in updates/"
			fi
		else
			case $path in
			"$MODDIR/$rel"*)
				pass "$tag $name is not shipped by this project and stays in-tree ($rel)"
				# Upstream's own users of our exports (the
				# test module, in extra/, is checked below).
				case $rel in
				kernel/*) users="$users $name" ;;
				esac
				;;
			*) fail "$tag $name resolves to '${path:-nothing}', expected upstream's $rel" ;;
			esac
		fi
	done <"$DISTRO_SM4_LIST"

	# What the crypto API's requests load.
	dmesg_mark
	for x in sm4 "ecb(sm4)" "cbc(sm4)" "cfb(sm4)" "ctr(sm4)" "xts(sm4)"; do
		modprobe "crypto-$x" >/dev/null 2>&1
	done
	for m in $(lsmod | awk '/^sm4/ { print $1 }'); do
		if _distro_ours "$m"; then
			pass "$tag crypto-* requests loaded $m: ours"
		else
			fail "$tag crypto-* requests loaded $m from $(_distro_path "$m"), not ours"
		fi
	done
	for x in sm4 "ecb(sm4)" "cbc(sm4)" "cfb(sm4)" "ctr(sm4)" "xts(sm4)"; do
		best=$(best_driver "$x")
		m=${best#* }
		if [ -n "$best" ] && _distro_ours "$m"; then
			pass "$tag $x is served by ${best%% *} (module $m, ours)"
		else
			fail "$tag $x is served by '${best:-nothing}', not by one of ours"
		fi
	done

	# Upstream-built users on our exports.
	for name in $users sm4_upstream_abi_test; do
		case $name in
		sm4-ce-ccm|sm4-ce-gcm)
			if ! cpu_has sm4; then
				if modprobe "$name" >/tmp/distro.out 2>&1; then
					fail "$tag upstream's $name loaded on a CPU without SM4"
				elif grep -q 'No such device' /tmp/distro.out; then
					pass "$tag upstream's $name refused with ENODEV (no SM4 instructions)"
				else
					sed 's/^/  | /' /tmp/distro.out
					fail "$tag upstream's $name refused, but not with ENODEV"
				fi
				continue
			fi
			;;
		esac
		if ! check "$tag modprobe upstream-built $name" modprobe "$name"; then
			continue
		fi
		for m in $(/sbin/modinfo -F depends "$name" | tr , ' '); do
			case $m in
			sm4*)
				if _distro_ours "$m" && [ -e "/sys/module/$(modname "$m")/holders/$(modname "$name")" ]; then
					pass "$tag upstream-built $name runs on our $m"
				else
					fail "$tag upstream-built $name: its dependency $m is not ours"
				fi
				;;
			esac
		done
	done
	crypto_table >/tmp/crypto.tab
	for name in $users; do
		# ccm-sm4-ce, gcm-sm4-ce: the crypto manager's self-tests.
		case $name in
		sm4-ce-ccm|sm4-ce-gcm) ;;
		*) continue ;;
		esac
		x=${name#sm4-ce-}
		is_loaded "$name" || continue
		if awk -v d="$x-sm4-ce" '$2 == d && $5 == "passed" { f = 1 } END { exit !f }' \
				/tmp/crypto.tab; then
			pass "$tag upstream's $x-sm4-ce passed its self-test on our sm4-ce"
		else
			fail "$tag upstream's $x-sm4-ce: no passed self-test in /proc/crypto"
		fi
	done
	if dmesg_new | grep -q 'sm4_upstream_abi_test: passed'; then
		pass "$tag sm4_upstream_abi_test (built on upstream's <crypto/sm4.h>) passed on our sm4"
	else
		fail "$tag sm4_upstream_abi_test did not report passed"
	fi
	n=$(dmesg_new | grep -ciE 'disagrees about version|unknown symbol|already registered|duplicate|exports duplicate symbol|registering .* failed|EEXIST')
	if [ "$n" -eq 0 ]; then
		pass "$tag no duplicate registration, unknown symbol or version disagreement logged"
	else
		dmesg_new | grep -iE 'disagrees about version|unknown symbol|already registered|duplicate|registering .* failed|EEXIST' | head -n 10
		fail "$tag $n kernel messages about duplicates or symbols"
	fi

	# Unload everything, users first.
	for name in sm4_upstream_abi_test $users; do
		is_loaded "$name" && modprobe -r "$name"
	done
	for x in 1 2 3; do
		for m in $(lsmod | awk '/^sm4/ { print $1 }'); do
			modprobe -r "$m" >/dev/null 2>&1
		done
	done
	if lsmod | grep -q '^sm4'; then
		fail "$tag modules left after modprobe -r: $(lsmod | awk '/^sm4/ { printf "%s ", $1 }')"
	else
		pass "$tag modprobe -r unloaded every SM4 module"
	fi
	x=$(crypto_table | awk 'tolower($1 $2) ~ /sm4/ { printf "%s ", $2 }')
	if [ -z "$x" ]; then
		pass "$tag no SM4 algorithm left in /proc/crypto"
	else
		fail "$tag SM4 algorithms left in /proc/crypto: $x"
	fi
	part_end
}

# compgen_updates NAME: this project ships a module called NAME.
compgen_updates()
{
	local f

	for f in "$MODDIR"/updates/"$1".ko* "$MODDIR"/updates/*/"$1".ko* \
			"$MODDIR"/updates/"$(modname "$1")".ko*; do
		[ -e "$f" ] && return 0
	done
	return 1
}
