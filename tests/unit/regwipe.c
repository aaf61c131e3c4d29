// SPDX-License-Identifier: GPL-2.0
/*
 * regwipe: no vector register keeps anything of a call into a backend's
 * assembly.  Before each call (every bulk function at block counts that
 * reach each of its batch paths, the GCM and MAC functions, the key
 * expansion) regwipe-<arch>.S fills every vector register with a fresh
 * random pattern, and right after it stores them all: each 64-bit half
 * must then be zero or still the pattern.  A block, keystream, tweak,
 * round key or GHASH value left behind shows as anything else.
 *
 * x86-64: zmm0-31 where the CPU has AVX-512F, else ymm0-15 (then the
 * AVX-512 emulator's registers beyond ymm0-15 are not seen); arm64
 * (qemu-aarch64): v0-v31, of which the functions that save d8-d15 leave
 * v8-v15 as the caller had them (the pattern's low half, zero above).
 * The portable C implementations are not checked: the compiler owns
 * their registers.
 *
 * The stack too: the trampoline paints SM4_RW_STACK bytes below its
 * stack pointer (where the function's frame will be) and reads them back
 * after the call.  Each 64-bit word there must then be the paint, zero, a
 * small number (a length or count), within 1 MiB of the stack pointer,
 * of the program's code or of a pointer argument (saved frame pointers,
 * return addresses, spilled pointers), or a half of the registers'
 * pattern (callee-saved registers the function saved): a frame not wiped
 * shows its round keys, blocks or tweaks as anything else.
 *
 * And, on arm64, the general registers after a key expansion, where
 * every value derived from the key is secret: the trampoline zeroes
 * x6-x18 before the call and stores x0-x18 after it; each must then be
 * zero, a small number, within 1 MiB of the stack pointer or of a pointer
 * argument, or inside the program's image (pointers into its tables).
 * A round key or key word left in one shows as anything else.  (The bulk
 * functions may leave public values there, a counter or a length.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sm4/compat.h>
#include <sm4/modes.h>
#include <sm4/mac.h>
#include <sm4/gcm.h>
#include "impl.h"
#include "sm4-vectors.h"
#include "regwipe.h"

/* Shared with the trampolines (regwipe-<arch>.S). */
u64 sm4_regwipe_paint, sm4_regwipe_sp;
u64 sm4_regwipe_stack[SM4_RW_STACK / 8];
/* x0-x18 after the call (regwipe-aarch64.S); unused on x86-64. */
u64 sm4_regwipe_gprs[SM4_RW_GPRS];
extern const char __executable_start[], etext[], _end[];

typedef void (*regwipe_fn)(void);

/*
 * regwipe-<arch>.S: load @marks into the vector registers, call @fn with
 * the six @args, store the vector registers into @after.
 */
void sm4_regwipe_call(regwipe_fn fn, const u64 *args, const u8 *marks,
		      u8 *after);
#if defined(__x86_64__)
void sm4_regwipe_call_zmm(regwipe_fn fn, const u64 *args, const u8 *marks,
			  u8 *after);
#define REGS_MAX	32
#define REG_BYTES_MAX	64
#else
#define REGS_MAX	32
#define REG_BYTES_MAX	16
#endif

static struct {
	unsigned int nregs, bytes;	/* registers seen, bytes of each */
	const char *what;
	bool zmm;
	bool gprs;	/* the trampoline stores x0-x18 (sm4_regwipe_gprs) */
} rw;

static uint64_t rw_rng = 0x7265677769706521ull;
static unsigned long rw_details;

static bool rw_near(u64 w, u64 p)
{
	return w - p + (1u << 20) < (2u << 20);
}

/*
 * The words of sm4_regwipe_stack that are none of what a frame may keep
 * (see the top of this file); the offset below the stack pointer of the
 * first in *@at.
 */
static unsigned int rw_stack_left(const u64 *args, const u8 *marks,
				  unsigned int *at)
{
	unsigned int i, j, bad = 0;

	for (i = 0; i < SM4_RW_STACK / 8; i++) {
		u64 w = sm4_regwipe_stack[i];
		bool ok = w == sm4_regwipe_paint || w < (1u << 20) ||
			  rw_near(w, sm4_regwipe_sp) ||
			  (w >= (u64)(uintptr_t)__executable_start &&
			   w < (u64)(uintptr_t)etext);

		for (j = 0; !ok && j < 6; j++)
			ok = args[j] >= (1u << 20) && rw_near(w, args[j]);
		for (j = 0; !ok && j < REGS_MAX * REG_BYTES_MAX; j += 8)
			ok = !memcmp(&w, marks + j, 8);
		if (ok)
			continue;
		if (!bad++)
			*at = SM4_RW_STACK - 8 * i;
	}
	return bad;
}

/*
 * The general registers of sm4_regwipe_gprs that hold none of what a key
 * expansion may leave (see the top of this file), as " x<n>" in @regs.
 */
static unsigned int rw_gprs_left(const u64 *args, char *regs, size_t size)
{
	unsigned int r, j, bad = 0;

	for (r = 0; r < SM4_RW_GPRS; r++) {
		u64 w = sm4_regwipe_gprs[r];
		bool ok = w < (1u << 20) || rw_near(w, sm4_regwipe_sp) ||
			  (w >= (u64)(uintptr_t)__executable_start &&
			   w < (u64)(uintptr_t)_end);

		for (j = 0; !ok && j < 6; j++)
			ok = args[j] >= (1u << 20) && rw_near(w, args[j]);
		if (ok)
			continue;
		bad++;
		if (strlen(regs) < size - 8)
			snprintf(regs + strlen(regs), size - strlen(regs),
				 " x%u", r);
	}
	return bad;
}

/*
 * Call @fn(@a0 .. @a5) between the pattern and the dump; true if every
 * half of every register is zero or the pattern (and, with @gprs where
 * the trampoline stores them, no general register holds data of the
 * call).  Details for @name.
 */
static bool rw_call(const char *impl, const char *name, unsigned int n,
		    bool gprs, regwipe_fn fn, u64 a0, u64 a1, u64 a2, u64 a3,
		    u64 a4, u64 a5)
{
	static u8 marks[REGS_MAX * REG_BYTES_MAX];
	static u8 after[REGS_MAX * REG_BYTES_MAX];
	const u64 args[6] = { a0, a1, a2, a3, a4, a5 };
	unsigned int r, h, bad = 0, words, at = 0, nx = 0;
	char regs[256] = "", xregs[128] = "";

	sm4_vec_fill(&rw_rng, marks, sizeof(marks));
	sm4_vec_fill(&rw_rng, (u8 *)&sm4_regwipe_paint, 8);
	memset(after, 0x5a, sizeof(after));
#if defined(__x86_64__)
	if (rw.zmm)
		sm4_regwipe_call_zmm(fn, args, marks, after);
	else
#endif
		sm4_regwipe_call(fn, args, marks, after);
	for (r = 0; r < rw.nregs; r++) {
		bool left = false;

		for (h = 0; h < rw.bytes; h += 8) {
			const u8 *m = marks + r * rw.bytes + h;
			const u8 *a = after + r * rw.bytes + h;
			static const u8 zero[8];

			if (memcmp(a, zero, 8) && memcmp(a, m, 8))
				left = true;
		}
		if (!left)
			continue;
		bad++;
		if (strlen(regs) < sizeof(regs) - 8)
			snprintf(regs + strlen(regs), sizeof(regs) - strlen(regs),
				 " %u", r);
	}
	if (bad && rw_details++ < 8)
		fprintf(stderr, "regwipe detail: %s %s (%u blocks): %u registers keep data of the call:%s\n",
			impl, name, n, bad, regs);
	words = rw_stack_left(args, marks, &at);
	if (words && rw_details++ < 8)
		fprintf(stderr, "regwipe detail: %s %s (%u blocks): %u words of its stack frame keep data of the call, the first %u bytes below the caller's stack pointer\n",
			impl, name, n, words, at);
	if (gprs && rw.gprs)
		nx = rw_gprs_left(args, xregs, sizeof(xregs));
	if (nx && rw_details++ < 8)
		fprintf(stderr, "regwipe detail: %s %s: %u general registers keep data of the call:%s\n",
			impl, name, nx, xregs);
	return !bad && !words && !nx;
}

#define RW(fn, ...)	((regwipe_fn)(fn)), __VA_ARGS__
#define P(x)		((u64)(uintptr_t)(x))

void sm4_test_regwipe(void)
{
	static const unsigned int counts[] = {
		1, 2, 3, 4, 5, 8, 9, 16, 17, 31, 32, 33, 63, 64, 65, 100,
		128, 200,
	};
	enum { MAXB = 200 };
	static u8 src[MAXB * 16], dst[MAXB * 16];
	static u8 table[SM4_GCM_TABLE_SIZE];
	struct sm4_test_impl *impl;
	u8 key[16], iv[16], h[16], mac[16];
	struct sm4_ctx ctx, ctx2;
	struct sm4_ghash gh;

#if defined(__x86_64__)
	__builtin_cpu_init();
	rw.zmm = __builtin_cpu_supports("avx512f");
	rw.nregs = rw.zmm ? 32 : 16;
	rw.bytes = rw.zmm ? 64 : 32;
	rw.what = rw.zmm ? "zmm0-31" : "ymm0-15";
#else
	rw.nregs = 32;
	rw.bytes = 16;
	rw.what = "v0-v31 (and x0-x18 after a key expansion)";
	rw.gprs = true;
#endif
	sm4_vec_fill(&rw_rng, key, sizeof(key));
	sm4_vec_fill(&rw_rng, src, sizeof(src));
	sm4_expandkey(&ctx, key, sizeof(key));
	sm4_crypt_block(ctx.rkey_enc, h, (const u8 [16]){ 0 });

	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		const struct sm4_mode_ops *o = impl->ops;
		unsigned long calls = 0, bad = 0;
		unsigned int i;

		if (!strcmp(impl->name, "generic") ||
		    !strcmp(impl->name, "broken"))
			continue;
		if (!sm4_test_impl_selected(impl))
			continue;
		for (i = 0; i < ARRAY_SIZE(counts); i++) {
			unsigned int n = counts[i];
			const struct {
				const char *name;
				sm4_chain_fn fn;
				const u32 *rk;
			} chain[] = {
				{ "cbc_enc", o->cbc_enc, ctx.rkey_enc },
				{ "cbc_dec", o->cbc_dec, ctx.rkey_dec },
				{ "cfb_enc", o->cfb_enc, ctx.rkey_enc },
				{ "cfb_dec", o->cfb_dec, ctx.rkey_enc },
				{ "ctr", o->ctr, ctx.rkey_enc },
				{ "xts", o->xts_enc, ctx.rkey_enc },
			};
			unsigned int c;

			calls++;
			bad += !rw_call(impl->name, "ecb", n, false,
					RW(o->ecb, P(ctx.rkey_enc), P(dst),
					   P(src), n, 0, 0));
			for (c = 0; c < ARRAY_SIZE(chain); c++) {
				memcpy(iv, key, 16);
				calls++;
				bad += !rw_call(impl->name, chain[c].name, n,
						false, RW(chain[c].fn,
						P(chain[c].rk),
						   P(dst), P(src), n, P(iv), 0));
			}
			if (impl->gcm) {
				sm4_ghash_start(&gh, table);
				if (impl->gcm->init) {
					calls++;
					bad += !rw_call(impl->name, "gcm_init",
							0, false, RW(impl->gcm->init,
							P(table), P(h), 0, 0,
							0, 0));
				}
				calls++;
				bad += !rw_call(impl->name, "ghash", n, false,
						RW(impl->gcm->ghash, P(&gh),
						   P(src), n, 0, 0, 0));
				if (impl->gcm_alt) {
					calls++;
					bad += !rw_call(impl->name, "ghash (other CPUs')",
							n, false,
							RW(impl->gcm_alt->ghash,
							   P(&gh), P(src), n, 0,
							   0, 0));
				}
				if (impl->gcm->enc) {
					memcpy(iv, key, 16);
					calls++;
					bad += !rw_call(impl->name, "gcm_enc",
							n, false, RW(impl->gcm->enc,
							P(ctx.rkey_enc), P(dst),
							P(src), n, P(iv),
							P(&gh)));
				}
			}
			if (impl->mac_ops) {
				const struct sm4_mac_ops *m = impl->mac_ops;

				memset(mac, 0, sizeof(mac));
				calls++;
				bad += !rw_call(impl->name, "cbcmac", n, false,
						RW(m->cbcmac, P(ctx.rkey_enc),
						   P(mac), P(src), n, 0, 0));
				if (m->ccm_enc) {
					memcpy(iv, key, 16);
					calls++;
					bad += !rw_call(impl->name, "ccm_enc", n,
							false, RW(m->ccm_enc,
							P(ctx.rkey_enc), P(dst),
							P(src), n, P(iv),
							P(mac)));
				}
				if (m->ccm_dec_mac) {
					memcpy(iv, key, 16);
					calls++;
					bad += !rw_call(impl->name, "ccm_dec_mac",
							n, false, RW(m->ccm_dec_mac,
							P(ctx.rkey_enc), P(src),
							n, P(iv), P(mac), 0));
				}
			}
		}
		if (impl->expandkey) {
			calls++;
			bad += !rw_call(impl->name, "expandkey", 0, true,
					RW(impl->expandkey, P(&ctx2), P(key),
					   16, 0, 0, 0));
		}
		memzero_explicit(&gh, sizeof(gh));
		sm4_test_report(!bad,
				"regwipe: %s: %lu calls (bulk, GCM, MAC, key expansion; 1..200 blocks), %lu left data of the call in %s or their stack frame",
				impl->name, calls, bad, rw.what);
	}
}
