# SPDX-License-Identifier: GPL-2.0
#
# Part 11 of tests/guest/suite.sh (sourced by it, busybox sh; uses its
# helpers): the simulated "distribution with SM4".
#
# run-guest.sh installs upstream's own SM4 modules, built from the
# kernel's source package by tests/lib/build-upstream-sm4.sh, where a
# distribution has them (/lib/modules/KVER/kernel/..., the test module
# sm4_upstream_abi_test, a user of upstream's <crypto/sm4.h>, under
# extra/), this project's under updates/, and runs depmod;
# $DISTRO_LIST is build-upstream-sm4.sh's modules.list ("NAME RELPATH"
# per upstream module).  With nothing of SM4 loaded beforehand, part11:
#   - loads upstream's own modules on each other (insmod of the kernel/
#     files) to learn the driver names each registers, and unloads them;
#   - every upstream name this project also ships must resolve to ours
#     (updates/) and our module must register every driver name
#     upstream's does (but for $DISTRO_DROPPED, whose algorithm names
#     must then be served over our drivers); every other upstream name
#     stays in-tree, is one of "the users": it must load against our
#     library and pass its self-tests (sm4-ce-ccm and sm4-ce-gcm on arm64
#     6.2+ while this project has no module of that name);
#   - crypto-* requests load only ours, every SM4 name is served by ours;
#   - the installed set (every module name, whichever file modprobe
#     picks) loads together, no module refused with EEXIST, and no
#     driver name appears twice in /proc/crypto: no two modules register
#     the same driver name;
#   - sm4_upstream_abi_test passes on our sm4;
#   - nothing logs a duplicate registration, an unknown symbol or a
#     symbol version disagreement;
#   - modprobe -r of everything leaves no SM4 algorithm behind.

DISTRO_LIST=/opt/sm4/upstream/modules.list
# Driver names of upstream's sm4-ce (6.12+) that ours leaves to the
# kernel's cts, cmac, xcbc and ccm templates (doc/distro-sm4.md, the table of
# shadowed modules).
DISTRO_DROPPED="cts-cbc-sm4-ce cmac-sm4-ce xcbc-sm4-ce cbcmac-sm4-ce"

# _d_path NAME: the file modprobe loads for module NAME, relative to
# $MODDIR (depmod lists only the file that wins for each name); from
# /tmp/distro.paths, which part11 writes once (kmod's tools are slow
# under TCG).
_d_path()
{
	awk -v n="$1" 'BEGIN { gsub("-", "_", n) } $1 == n { print $2; exit }' /tmp/distro.paths
}

# _d_ours NAME: modprobe's file for module NAME is under updates/.
_d_ours()
{
	case $(_d_path "$1") in
	updates/*) return 0 ;;
	esac
	return 1
}

# _d_rel NAME: where upstream's module NAME is installed (nothing if
# NAME is none of upstream's).
_d_rel()
{
	awk -v n="$1" 'BEGIN { gsub("-", "_", n) }
		{ m = $1; gsub("-", "_", m) } m == n { print $2 }' "$DISTRO_LIST"
}

# _d_shipped NAME: this project ships a module called NAME ($D_SHIPPED
# has each name with - and with _).
_d_shipped()
{
	case " $D_SHIPPED " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

_d_sm4_loaded()
{
	lsmod | awk '/^sm4/ { printf "%s ", $1 }'
}

# _d_up_load NAME: insmod upstream's own module NAME after its
# dependencies (upstream's files for upstream's names, modprobe for the
# kernel's others); prepends what it loaded to UP_LOADED.  On failure
# /tmp/distro-insmod.out says why.
UP_LOADED=
_d_up_load()
{
	local rel d

	is_loaded "$1" && return 0
	rel=$(_d_rel "$1")
	for d in $(/sbin/modinfo -F depends "$MODDIR/$rel" | tr , ' '); do
		if [ -n "$(_d_rel "$d")" ]; then
			_d_up_load "$d" || return 1
		else
			modprobe "$d" >/tmp/distro-insmod.out 2>&1 || return 1
		fi
	done
	insmod "$MODDIR/$rel" >/tmp/distro-insmod.out 2>&1 || return 1
	UP_LOADED="$(modname "$1") $UP_LOADED"
}

# _d_has_alg NAME TYPE: ask the crypto API for algorithm NAME of
# /proc/crypto type TYPE: tcrypt's alg= mode instantiates templates and
# ends with EAGAIN if the crypto API has NAME.
_d_has_alg()
{
	local t

	case $2 in
	cipher) t="type=1 mask=15" ;;
	aead) t="type=3 mask=15" ;;
	skcipher) t="type=5 mask=14" ;;
	shash|ahash) t="type=14 mask=14" ;;
	*) return 1 ;;
	esac
	# shellcheck disable=SC2086
	modprobe tcrypt alg="$1" $t 2>&1 | grep -q 'Resource temporarily unavailable'
}

part11()
{
	local name rel path x best m n inner users shadowed nodev up_nodev
	local miss ok drv alg type tag=part11

	part_begin 11 "distribution with SM4: upstream's modules in kernel/, ours in updates/"
	if [ ! -r "$DISTRO_LIST" ]; then
		fail "$tag no list of upstream modules ($DISTRO_LIST)"
		part_end
		return
	fi
	x=$(_d_sm4_loaded)
	[ -z "$x" ] || fail "$tag SM4 modules loaded before the checks: $x"
	awk -F: '{ b = $1; sub(/.*\//, "", b); sub(/\.ko.*$/, "", b); gsub("-", "_", b)
		print b, $1 }' "$MODDIR/modules.dep" >/tmp/distro.paths
	D_SHIPPED=$(project_modules | awk '{ print; gsub("-", "_"); print }' | tr '\n' ' ')

	# What upstream's own modules register, on each other.
	UP_LOADED=
	up_nodev=
	while read -r name rel; do
		case $rel in
		kernel/*) ;;
		*) continue ;;
		esac
		_d_up_load "$name" && continue
		if grep -q 'No such device' /tmp/distro-insmod.out; then
			up_nodev="$up_nodev $name"
		else
			sed 's/^/  | /' /tmp/distro-insmod.out
			fail "$tag upstream's own $name does not load on upstream's modules"
		fi
	done <"$DISTRO_LIST"
	# Their self-tests hold them until they end.
	wait_selftests "$tag upstream's own modules"
	crypto_table | awk '$8 != "yes"' >/tmp/distro-up.tab
	for m in $UP_LOADED; do
		rmmod "$m" || fail "$tag rmmod of upstream's own $m"
	done
	x=$(_d_sm4_loaded)
	if [ -n "$UP_LOADED" ] && [ -z "$x" ]; then
		pass "$tag upstream's own modules loaded and unloaded ($UP_LOADED), $(awk '$3 ~ /^sm4/' /tmp/distro-up.tab | wc -l) algorithms${up_nodev:+, not on this CPU:$up_nodev}"
	else
		fail "$tag upstream's own modules: loaded '$UP_LOADED', left '$x'"
	fi

	echo "part11: name resolution at $(uptime_s)"
	# Name resolution: shadowed by ours, or still in-tree.
	users=
	shadowed=
	while read -r name rel; do
		if [ ! -e "$MODDIR/$rel" ]; then
			fail "$tag upstream's $name is not installed at $rel"
			continue
		fi
		path=$(_d_path "$name")
		if _d_shipped "$name"; then
			shadowed="$shadowed $name"
			if _d_ours "$name"; then
				pass "$tag $name resolves to ours ($path), upstream's $rel is shadowed"
			else
				fail "$tag $name resolves to ${path:-nothing}, not to ours in updates/"
			fi
		elif [ "$path" = "$rel" ]; then
			pass "$tag $name is not shipped by this project and stays in-tree ($rel)"
			# The test module (extra/) is checked on its own.
			case $rel in
			kernel/*) users="$users $name" ;;
			esac
		else
			fail "$tag $name resolves to '${path:-nothing}', expected upstream's $rel"
		fi
	done <"$DISTRO_LIST"

	# What the crypto API's requests load, and who serves the names.
	dmesg_mark
	for x in sm4 "ecb(sm4)" "cbc(sm4)" "cfb(sm4)" "ctr(sm4)" "xts(sm4)"; do
		modprobe "crypto-$x" >/dev/null 2>&1
	done
	wait_selftests "$tag crypto-* requests"
	for m in $(_d_sm4_loaded); do
		if _d_ours "$m"; then
			pass "$tag crypto-* requests loaded $m: ours"
		else
			fail "$tag crypto-* requests loaded $m from $(_d_path "$m"), not ours"
		fi
	done
	crypto_table >/tmp/crypto.tab
	for x in sm4 "ecb(sm4)" "cbc(sm4)" "cfb(sm4)" "ctr(sm4)" "xts(sm4)"; do
		best=$(best_driver "$x" /tmp/crypto.tab)
		m=${best#* }
		if [ -n "$best" ] && _d_ours "$m"; then
			pass "$tag $x is served by ${best%% *} (module $m, ours)"
		else
			fail "$tag $x is served by '${best:-nothing}', not by one of ours"
		fi
	done

	echo "part11: installed set at $(uptime_s)"
	# The installed set, loaded together: a module registering a
	# driver name another has already registered fails with EEXIST.
	nodev=
	n=0
	for name in $({ project_modules; cut -d' ' -f1 "$DISTRO_LIST"; } | awk '!seen[$0]++'); do
		is_loaded "$name" && continue
		if modprobe "$name" >/tmp/distro.out 2>&1; then
			:
		elif grep -q 'No such device' /tmp/distro.out; then
			nodev="$nodev $name"
		elif grep -q 'File exists' /tmp/distro.out; then
			n=$((n + 1))
			sed 's/^/  | /' /tmp/distro.out
			fail "$tag installed set: $name refused with EEXIST: a driver name it registers is taken"
		else
			sed 's/^/  | /' /tmp/distro.out
			fail "$tag installed set: modprobe $name failed"
		fi
	done
	wait_selftests "$tag installed set"
	crypto_table >/tmp/crypto.tab
	awk '$8 != "yes"' /tmp/crypto.tab >/tmp/distro-ours.tab
	# The crypto API refuses a driver name only while its first owner
	# is still being tested: two modules may well register one name.
	x=$(awk '$6 != "larval" { n[$2]++; m[$2] = m[$2] " " $3 }
		END { for (d in n) if (n[d] > 1) printf "%s (%s ) ", d, m[d] }' /tmp/crypto.tab)
	if [ -n "$x" ]; then
		fail "$tag installed set: driver names registered more than once: $x"
	elif [ "$n" -eq 0 ]; then
		pass "$tag installed set loaded together: $(_d_sm4_loaded | wc -w) modules, $(awk '$3 ~ /^sm4/' /tmp/crypto.tab | wc -l) SM4 algorithms, every driver name registered once"
	fi
	if [ -n "$nodev" ]; then
		skip "$tag installed set: driver names of$nodev" "refused with ENODEV on this CPU, so not loaded with the others"
	fi

	# Ours register every driver name upstream's of the same name do:
	# per shadowed module "MODULE|ours too|missing", then a
	# "DROPPED DRIVER ALG TYPE" line per doc/distro-sm4.md exception (one awk: each
	# process costs under TCG).
	echo "part11: driver names at $(uptime_s)"
	awk -v sh="$(echo "$shadowed" | tr - _)" -v nodev="$(echo "$up_nodev" | tr - _)" \
			-v dropped="$DISTRO_DROPPED" '
	BEGIN {
		n = split(sh, a, " ")
		for (i = 1; i <= n; i++)
			want[a[i]] = 1
		n = split(nodev, a, " ")
		for (i = 1; i <= n; i++)
			delete want[a[i]]
		n = split(dropped, a, " ")
		for (i = 1; i <= n; i++)
			dr[a[i]] = 1
	}
	FILENAME == ARGV[1] { have[$3 " " $2] = 1; next }
	!($3 in want) { next }
	($3 " " $2) in have { ok[$3] = ok[$3] " " $2; next }
	$2 in dr { print "DROPPED", $2, $1, $6; next }
	{ miss[$3] = miss[$3] " " $2 }
	END {
		for (m in want)
			if (ok[m] miss[m] != "")
				print m "|" ok[m] "|" miss[m]
	}' /tmp/distro-ours.tab /tmp/distro-up.tab >/tmp/distro.cmp
	for name in $up_nodev; do
		_d_shipped "$name" &&
			skip "$tag $name: upstream's driver names" "upstream's $name refused with ENODEV on this CPU"
	done
	while IFS='|' read -r m ok miss; do
		case $m in
		DROPPED*) continue ;;
		esac
		if [ -z "$miss" ]; then
			pass "$tag our $m registers upstream's driver names:$ok"
		else
			fail "$tag our $m lacks upstream's driver names:$miss"
		fi
	done </tmp/distro.cmp
	# The exceptions' algorithm names, instantiated through tcrypt's
	# alg= mode, must be served over one of our drivers.
	grep '^DROPPED ' /tmp/distro.cmp >/tmp/distro.dropped
	while read -r _ drv alg type; do
		_d_has_alg "$alg" "$type"
	done </tmp/distro.dropped
	crypto_table >/tmp/crypto2.tab
	while read -r _ drv alg type; do
		best=$(best_driver "$alg" /tmp/crypto2.tab)
		inner=${best%% *}
		inner=${inner#*(}
		inner=${inner%)}
		m=$(awk -v d="$inner" '$2 == d { print $3; exit }' /tmp/distro-ours.tab)
		if [ -n "$best" ] && [ -n "$m" ] && _d_ours "$m"; then
			pass "$tag upstream's $drv is not ours (doc/distro-sm4.md), and $alg is served by ${best%% *} over our $inner"
		else
			fail "$tag upstream's $drv is not ours and $alg is served by '${best:-nothing}', not over one of ours"
		fi
	done </tmp/distro.dropped

	echo "part11: users at $(uptime_s)"
	# Upstream-built users: on our exports, self-tests passed.
	for name in $users; do
		case " $nodev " in
		*" $name "*)
			if cpu_has sm4; then
				fail "$tag upstream's $name refused with ENODEV on a CPU with the SM4 instructions"
			else
				pass "$tag upstream's $name refused with ENODEV (no SM4 instructions)"
			fi
			continue
			;;
		esac
		is_loaded "$name" || continue
		for m in $(/sbin/modinfo -F depends "$MODDIR/$(_d_path "$name")" | tr , ' '); do
			case $m in
			sm4*)
				if _d_ours "$m" && [ -e "/sys/module/$(modname "$m")/holders/$(modname "$name")" ]; then
					pass "$tag upstream-built $name runs on our $m"
				else
					fail "$tag upstream-built $name: its dependency $m is not ours"
				fi
				;;
			esac
		done
		awk -v m="$(modname "$name")" '$3 == m { print $2, $5 }' /tmp/crypto.tab >/tmp/distro.st
		if [ -s /tmp/distro.st ] && ! grep -qv ' passed$' /tmp/distro.st; then
			pass "$tag upstream's $name on ours: self-tests passed ($(cut -d' ' -f1 /tmp/distro.st | paste -sd' '))"
		else
			fail "$tag upstream's $name on ours: $(tr '\n' ' ' </tmp/distro.st | sed 's/ $//'): not all self-tests passed"
		fi
	done
	if dmesg_new | grep -q 'sm4_upstream_abi_test: passed'; then
		pass "$tag sm4_upstream_abi_test (built on upstream's <crypto/sm4.h>) passed on our sm4"
	else
		fail "$tag sm4_upstream_abi_test did not report passed"
	fi
	x='disagrees about version|unknown symbol|already registered|duplicate|registering .* failed|EEXIST'
	n=$(dmesg_new | grep -ciE "$x")
	if [ "$n" -eq 0 ]; then
		pass "$tag no duplicate registration, unknown symbol or version disagreement logged"
	else
		dmesg_new | grep -iE "$x" | head -n 10
		fail "$tag $n kernel messages about duplicates or symbols (first: $(dmesg_new | grep -m1 -iE "$x" | sed 's/^\[[^]]*\] *//'))"
	fi

	echo "part11: unloading at $(uptime_s)"
	wait_selftests "$tag before unloading"
	# Unload everything, users first.
	for name in sm4_upstream_abi_test $users; do
		is_loaded "$name" && modprobe -r "$name"
	done
	for x in 1 2 3; do
		for m in $(_d_sm4_loaded); do
			modprobe -r "$m" >/dev/null 2>&1
		done
	done
	x=$(_d_sm4_loaded)
	if [ -z "$x" ]; then
		pass "$tag modprobe -r unloaded every SM4 module"
	else
		fail "$tag modules left after modprobe -r: $x"
	fi
	x=$(crypto_table | awk 'tolower($1 $2) ~ /sm4/ { printf "%s ", $2 }')
	if [ -z "$x" ]; then
		pass "$tag no SM4 algorithm left in /proc/crypto"
	else
		fail "$tag SM4 algorithms left in /proc/crypto: $x"
	fi
	part_end
}
