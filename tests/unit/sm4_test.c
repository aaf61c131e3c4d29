// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-test: userspace harness for the SM4 library, the mode code and
 * every SIMD backend, all compiled from the kernel sources unchanged.
 *
 *   sm4-test [--cases N] [--seed S] [--vectors FILE] [--impl NAME]
 *            [--with-broken[=bitflip|overrun|srcwrite|unsupported]] [--emulate-gfni]
 *            [--emulate-sm4ni] [--emulate-avx512] [--lengths-stride K]
 *
 * --lengths-stride K: the lengths suite takes every K-th length only
 * (default 1: every length), for runs where each instruction is slow (under
 * user-mode QEMU with the emulators).
 *
 * --emulate-gfni (x86-64): emulate the VEX GFNI instructions on a CPU
 * without GFNI (tests/unit/gfni_emu.c), so that gfni-avx2 runs there.
 * --emulate-sm4ni (x86-64): likewise Intel's SM4 instructions
 * (tests/unit/sm4ni_emu.c), so that sm4ni-avx2 runs there.
 * --emulate-avx512 (x86-64): likewise the AVX-512 instructions of
 * gfni-avx512 and sm4ni-avx10 (tests/unit/evex_emu.c) on a CPU without
 * AVX-512; sm4ni-avx10 needs --emulate-sm4ni too.
 *
 * Suites:
 *   kat       GB/T 32907-2016 examples, published mode vectors;
 *   badinput  key lengths, short XTS, empty requests;
 *   zero      every bulk function with nblocks == 0 returns without
 *             touching dst, src or the IV (all on an inaccessible page);
 *   dstwatch  (x86-64) every store a bulk function makes into dst is
 *             observed: dst never holds anything but its old contents or
 *             the final output (no tweaks or other intermediates);
 *   regwipe   (tests/unit/regwipe.c) after every call of a backend's
 *             assembly no vector register holds data of the call;
 *   lengths   every implementation x mode x length 1..(2 x 64 + 1) blocks
 *             plus partial tails, against the portable C code and
 *             (host builds) libgcrypt;
 * Every buffer of the kat, lengths and diff suites lies between guard
 * pages (memwatch.h), flush against one of them; the rest of its pages
 * holds a pattern that must survive the request, and an out-of-place
 * request must leave its source unchanged.
 *   mac       (tests/unit/mac_test.c) cbcmac, cmac, xcbc and ccm against
 *             libgcrypt (host builds) or a vector file (--mac-vectors);
 *   diff      random keys, IVs and lengths against libgcrypt (host
 *             builds) or against a vector file computed by libgcrypt on
 *             the host (--vectors, for other architectures), in-place and
 *             out-of-place, unaligned, in one call or split in two;
 *             every case is also decrypted back to its plaintext.
 * Ends with "N passed, N failed".
 */

#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sm4/compat.h>
#include <sm4/modes.h>
#include <sm4/mac.h>
#include "impl.h"
#include "memwatch.h"
#include "calls.h"
#if defined(__x86_64__)
#include "evex_emu.h"
#include "gfni_emu.h"
#include "sm4ni_emu.h"
#endif
#include "sm4-vectors.h"

#ifdef HAVE_GCRYPT
#include <gcrypt.h>
int sm4_gcry_encrypt(struct sm4_vec *v);
#endif

int sm4_shim_init_sm4_lib_init(void);

static unsigned int n_passed, n_failed;
static unsigned long n_cases = 10000;
static unsigned int lengths_stride = 1;
static uint64_t seed = 0x5eed5eed;
static const char *only_impl;

/*
 * A deliberately broken implementation (--with-broken[=FAULT]): the
 * portable code with a fault, to show that the suites catch it:
 *   bitflip  (the default) one bit of every call's output flipped, in
 *            every mode (ECB's also corrupts the XTS tweak): wrong results;
 *   overrun  ECB of two or more blocks writes one byte past the end of
 *            its output, results right;
 *   srcwrite ECB of two or more blocks changes the last byte of its
 *            source (out of place), results right;
 *   unsupported  it reports itself not supported by this CPU, as an
 *            implementation using the SM4 instructions: nothing runs, and
 *            the checks that count what ran must fail.
 * (Single blocks are left alone by the last two: the mode code encrypts
 * XTS tweaks and CTR/CFB tails one block at a time in buffers of its own.)
 */
static const char *broken_fault = "bitflip";

static void broken_ecb(const u32 *rk, u8 *dst, const u8 *src,
		       unsigned int nblocks)
{
	sm4_generic_mode_ops.ecb(rk, dst, src, nblocks);
	if (!strcmp(broken_fault, "bitflip"))
		dst[0] ^= 0x10;
	else if (nblocks < 2)
		return;
	else if (!strcmp(broken_fault, "overrun"))
		dst[nblocks * SM4_BLOCK_SIZE] ^= 0x01;
	else if (src != dst)	/* srcwrite */
		((u8 *)src)[nblocks * SM4_BLOCK_SIZE - 1] ^= 0x01;
}

#define BROKEN_CHAIN(fn, byte, bit)					\
static void broken_##fn(const u32 *rk, u8 *dst, const u8 *src,		\
			unsigned int nblocks, u8 *iv)			\
{									\
	sm4_generic_mode_ops.fn(rk, dst, src, nblocks, iv);		\
	dst[byte] ^= bit;						\
}

BROKEN_CHAIN(cbc_enc, 5, 0x04)
BROKEN_CHAIN(cbc_dec, 5, 0x04)
BROKEN_CHAIN(cfb_enc, 9, 0x40)
BROKEN_CHAIN(cfb_dec, 9, 0x40)
BROKEN_CHAIN(ctr, nblocks * SM4_BLOCK_SIZE - 1, 1)
BROKEN_CHAIN(xts_enc, 3, 0x80)

/* bitflip also breaks the CBC-MAC family's three bulk functions. */
static void broken_cbcmac(const u32 *rk, u8 *mac, const u8 *src,
			  unsigned int nblocks)
{
	sm4_generic_mac_ops.cbcmac(rk, mac, src, nblocks);
	if (nblocks)
		mac[7] ^= 0x02;
}

static void broken_ccm_enc(const u32 *rk, u8 *dst, const u8 *src,
			   unsigned int nblocks, u8 *ctr, u8 *mac)
{
	sm4_generic_mac_ops.ccm_enc(rk, dst, src, nblocks, ctr, mac);
	if (nblocks)
		mac[11] ^= 0x08;
}

static void broken_ccm_dec_mac(const u32 *rk, const u8 *src,
			       unsigned int nblocks, u8 *ctr, u8 *mac)
{
	sm4_generic_mac_ops.ccm_dec_mac(rk, src, nblocks, ctr, mac);
	if (nblocks)
		mac[2] ^= 0x20;
}

static const struct sm4_mac_ops broken_mac_ops = {
	.cbcmac		= broken_cbcmac,
	.ccm_enc	= broken_ccm_enc,
	.ccm_dec_mac	= broken_ccm_dec_mac,
};

static bool broken_available(void)
{
	return false;
}

static struct sm4_mode_ops broken_ops;
static struct sm4_test_impl broken_impl = {
	.name = "broken",
	.ops = &broken_ops,
};

static int register_broken(const char *fault)
{
	broken_fault = fault;
	broken_ops = sm4_generic_mode_ops;
	broken_ops.ecb = broken_ecb;
	if (!strcmp(fault, "unsupported")) {
		broken_impl.available = broken_available;
		broken_impl.uses = SM4_TEST_USES_SM4NI;
		sm4_test_register_impl(&broken_impl);
		return 0;
	}
	if (strcmp(fault, "bitflip")) {
		if (strcmp(fault, "overrun") && strcmp(fault, "srcwrite"))
			return -1;
		sm4_test_register_impl(&broken_impl);
		return 0;
	}
	broken_ops.cbc_enc = broken_cbc_enc;
	broken_ops.cbc_dec = broken_cbc_dec;
	broken_ops.cfb_enc = broken_cfb_enc;
	broken_ops.cfb_dec = broken_cfb_dec;
	broken_ops.ctr = broken_ctr;
	broken_ops.xts_enc = broken_xts_enc;
	broken_ops.xts_dec = broken_xts_enc;
	broken_impl.mac_ops = &broken_mac_ops;
	sm4_test_register_impl(&broken_impl);
	return 0;
}

static struct sm4_test_impl generic_impl = {
	.name = "generic",
	.ops = &sm4_generic_mode_ops,
	.mac_ops = &sm4_generic_mac_ops,
	.gcm = &sm4_gcm_generic_ops,
};
SM4_TEST_IMPL(generic_impl);

static void report(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (ok)
		n_passed++;
	else
		n_failed++;
}

static void hex2bin(u8 *out, const char *hex)
{
	while (hex[0] && hex[1]) {
		unsigned int b;

		sscanf(hex, "%2x", &b);
		*out++ = (u8)b;
		hex += 2;
	}
}

static void dump(const char *what, const u8 *p, unsigned int len)
{
	unsigned int i;

	fprintf(stderr, "  %s:", what);
	for (i = 0; i < len && i < 64; i++)
		fprintf(stderr, "%02x", p[i]);
	fprintf(stderr, "%s\n", len > 64 ? "..." : "");
}

/* ---- Running one request the way the kernel glue does ------------- */

struct keys {
	struct sm4_ctx data;
	struct sm4_ctx tweak;
};

static int impl_setkey(const struct sm4_test_impl *impl, struct keys *k,
		       int mode, const u8 *key)
{
	int (*expand)(struct sm4_ctx *, const u8 *, unsigned int) =
		impl->expandkey ? impl->expandkey : sm4_expandkey;
	int err = expand(&k->data, key, SM4_KEY_SIZE);

	if (!err && mode == SM4_VEC_XTS)
		err = expand(&k->tweak, key + SM4_KEY_SIZE, SM4_KEY_SIZE);
	return err;
}

/* The chaining value a request starts with (the XTS tweak encrypted). */
static void impl_start(const struct sm4_test_impl *impl, const struct keys *k,
		       int mode, const u8 *iv, u8 *state)
{
	if (mode == SM4_VEC_XTS)
		impl->ops->ecb(k->tweak.rkey_enc, state, iv, 1);
	else
		memcpy(state, iv, SM4_BLOCK_SIZE);
}

/*
 * cts(cbc(sm4)) as crypto/sm4_glue.c runs it: the blocks before the final
 * 17..32 bytes (or a lone block) through the implementation's CBC, those
 * through sm4_mode_cts_*() in a buffer of their own.
 */
static int cts_crypt(const struct sm4_mode_ops *ops, const u32 *rk, bool enc,
		     u8 *iv, u8 *dst, const u8 *src, unsigned int len)
{
	unsigned int last = len <= 2 * SM4_BLOCK_SIZE ? len :
			    SM4_BLOCK_SIZE + len - (len - 1) / 16 * 16;
	u8 buf[2 * SM4_BLOCK_SIZE];
	int err;

	if (len < SM4_BLOCK_SIZE)
		return -EINVAL;
	if (len > last)
		(enc ? ops->cbc_enc : ops->cbc_dec)(rk, dst, src,
						    (len - last) / 16, iv);
	memcpy(buf, src + len - last, last);
	err = (enc ? sm4_mode_cts_encrypt : sm4_mode_cts_decrypt)
		(ops, rk, buf, buf, last, iv);
	memcpy(dst + len - last, buf, last);
	return err;
}

static int impl_crypt(const struct sm4_test_impl *impl, const struct keys *k,
		      int mode, bool enc, u8 *state, u8 *dst, const u8 *src,
		      unsigned int len)
{
	const struct sm4_mode_ops *ops = impl->ops;
	const u32 *rk_enc = k->data.rkey_enc, *rk_dec = k->data.rkey_dec;

	switch (mode) {
	case SM4_VEC_ECB:
		if (len)
			ops->ecb(enc ? rk_enc : rk_dec, dst, src, len / 16);
		return 0;
	case SM4_VEC_CBC:
		if (len)
			(enc ? ops->cbc_enc : ops->cbc_dec)
				(enc ? rk_enc : rk_dec, dst, src, len / 16,
				 state);
		return 0;
	case SM4_VEC_CFB:
		(enc ? sm4_mode_cfb_encrypt : sm4_mode_cfb_decrypt)
			(ops, rk_enc, dst, src, len, state);
		return 0;
	case SM4_VEC_CTR:
		sm4_mode_ctr_crypt(ops, rk_enc, dst, src, len, state);
		return 0;
	case SM4_VEC_CTS:
		return cts_crypt(ops, enc ? rk_enc : rk_dec, enc, state, dst,
				 src, len);
	default:
		return (enc ? sm4_mode_xts_encrypt : sm4_mode_xts_decrypt)
			(ops, enc ? rk_enc : rk_dec, dst, src, len, state);
	}
}

/*
 * Where a request may be split into two calls that continue the same
 * stream: at a block boundary, leaving XTS at least a block for the end.
 */
static unsigned int split_point(int mode, unsigned int len, uint64_t r)
{
	unsigned int blocks = len / 16;

	if (mode == SM4_VEC_XTS)
		blocks = len >= 32 ? (len - 16) / 16 : 0;
	/* CTS: one request, its end is not a stream's. */
	if (mode == SM4_VEC_CTS)
		blocks = 0;
	return blocks ? (unsigned int)(r % (blocks + 1)) * 16 : 0;
}

/*
 * Guard bytes: the pages of a request's buffers hold a pattern outside the
 * buffer itself, checked after the request (a write next to the buffer
 * that does not reach a guard page), and an out-of-place request must
 * leave its source unchanged.  The requests run under memwatch_run(), so
 * that a write into a guard page fails the case instead of the harness.
 */
static unsigned long n_guarded, n_overruns, n_out_of_place, n_src_changed,
		     n_faults;
/* " name name..." of the implementations that broke a guard. */
static char guard_culprits[256];

static void guard_blame(const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = guard_culprits; (p = strstr(p, name)); p++)
		if (p[-1] == ' ' && (!p[n] || p[n] == ' '))
			return;
	if (strlen(guard_culprits) + n + 1 < sizeof(guard_culprits))
		sprintf(guard_culprits + strlen(guard_culprits), " %s", name);
}

static u8 guard_byte(size_t i)
{
	return (u8)(0xa5 + 31 * i);
}

/* Fill the pages of @g outside [@buf, @buf + @len) with the pattern. */
static void guard_fill(struct guarded *g, const u8 *buf, unsigned int len)
{
	size_t i, from = buf - g->pages;

	for (i = 0; i < g->pageslen; i++)
		if (i < from || i >= from + len)
			g->pages[i] = guard_byte(i);
}

/*
 * The offset from @buf of the first byte of @g's pages outside
 * [@buf, @buf + @len) that lost the pattern, or of the first byte inside
 * that differs from @want (if not NULL); 0 and false if none.
 */
static bool guard_changed(const struct guarded *g, const u8 *buf,
			  unsigned int len, const u8 *want, long *at)
{
	size_t i, from = buf - g->pages;

	for (i = 0; i < g->pageslen; i++) {
		bool inside = i >= from && i < from + len;

		if (inside ? want && g->pages[i] != want[i - from] :
			     g->pages[i] != guard_byte(i)) {
			*at = (long)i - (long)from;
			return true;
		}
	}
	return false;
}

struct request {
	const struct sm4_test_impl *impl;
	const struct keys *k;
	int mode;
	bool enc;
	u8 *state, *dst;
	const u8 *src;
	unsigned int len, split;
	bool ok;
};

static void request_run(void *arg)
{
	struct request *r = arg;

	r->ok = true;
	if (r->split)
		r->ok = impl_crypt(r->impl, r->k, r->mode, r->enc, r->state,
				   r->dst, r->src, r->split) == 0;
	if (r->ok)
		r->ok = impl_crypt(r->impl, r->k, r->mode, r->enc, r->state,
				   r->dst + r->split, r->src + r->split,
				   r->len - r->split) == 0;
}

/*
 * Run @v through @impl in direction @enc, with the given buffer layout,
 * and compare with the expected output and the guards.  Returns true if
 * all match.
 */
static bool run_one(const struct sm4_test_impl *impl, const struct sm4_vec *v,
		    bool enc, bool in_place, unsigned int offset,
		    unsigned int split)
{
	const u8 *in = enc ? v->pt : v->ct;
	const u8 *expect = enc ? v->ct : v->pt;
	struct guarded gsrc, gdst, *gd;
	u8 *src, *dst;
	u8 state[SM4_BLOCK_SIZE];
	struct keys k;
	struct request r;
	long at;
	bool ok;

	/* Flush against the guard page after or before the buffer. */
	guarded_alloc(&gsrc, v->len, offset % 3 == 0, offset);
	src = gsrc.buf;
	if (in_place) {
		dst = src;
		gd = &gsrc;
	} else {
		guarded_alloc(&gdst, v->len, offset % 3 == 1, (offset ^ 5) % 16);
		dst = gdst.buf;
		gd = &gdst;
		guard_fill(&gdst, dst, v->len);
	}
	memcpy(src, in, v->len);
	guard_fill(&gsrc, src, v->len);
	ok = impl_setkey(impl, &k, v->mode, v->key) == 0;
	impl_start(impl, &k, v->mode, v->iv, state);
	r = (struct request){ .impl = impl, .k = &k, .mode = v->mode,
			      .enc = enc, .state = state, .dst = dst,
			      .src = src, .len = v->len, .split = split };
	if (ok && memwatch_run(request_run, &r)) {
		n_faults++;
		guard_blame(impl->name);
		fprintf(stderr, "guard: %s faulted (a guard page next to its buffers)\n",
			impl->name);
		ok = false;
	} else {
		ok = ok && r.ok;
	}
	ok = ok && memcmp(dst, expect, v->len) == 0;

	n_guarded++;
	if (guard_changed(gd, dst, v->len, NULL, &at)) {
		n_overruns++;
		guard_blame(impl->name);
		fprintf(stderr, "guard: %s wrote outside its output: byte %+ld from the %s\n",
			impl->name, at < 0 ? at : at - (long)v->len,
			at < 0 ? "start" : "end");
		ok = false;
	}
	n_out_of_place += !in_place;
	if (!in_place && guard_changed(&gsrc, src, v->len, in, &at)) {
		n_src_changed++;
		guard_blame(impl->name);
		fprintf(stderr, "guard: %s modified its source: byte %+ld from its start\n",
			impl->name, at);
		ok = false;
	}
	if (!ok) {
		fprintf(stderr, "mismatch: %s %s %s len=%u in_place=%d offset=%u split=%u\n",
			impl->name, sm4_vec_mode_names[v->mode],
			enc ? "enc" : "dec", v->len, in_place, offset, split);
		dump("key", v->key, v->keylen);
		dump("iv", v->iv, 16);
		dump("want", expect, v->len);
		dump("got", dst, v->len);
	}
	guarded_free(&gsrc);
	if (!in_place)
		guarded_free(&gdst);
	return ok;
}

/* Both directions, layout chosen from @r. */
static bool check_case(const struct sm4_test_impl *impl,
		       const struct sm4_vec *v, uint64_t r)
{
	bool in_place = r & 1;
	unsigned int offset = (r >> 1) % 16;
	unsigned int split = (r >> 8) % 4 ? 0 :
			     split_point(v->mode, v->len, r >> 16);

	return run_one(impl, v, true, in_place, offset, split) &&
	       run_one(impl, v, false, !in_place, (offset + 7) % 16, split);
}

static bool impl_selected(struct sm4_test_impl *impl)
{
	if (only_impl && strcmp(only_impl, impl->name))
		return false;
	if (impl->available && !impl->available()) {
		printf("SKIP: %s: not supported by this CPU\n", impl->name);
		return false;
	}
	impl->ran = true;
	return true;
}

/* For the suites in other files (impl.h). */
void sm4_test_report(bool ok, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	report(ok, "%s", buf);
}

bool sm4_test_impl_selected(struct sm4_test_impl *impl)
{
	return impl_selected(impl);
}

/* ---- Known answers ------------------------------------------------ */

struct mode_kat {
	const char *source;
	int mode;
	const char *key, *iv, *pt, *ct;
};

/*
 * Mode vectors.  ECB/CBC/CFB/CTR: draft-ribose-cfrg-sm4-10 ("The SM4
 * Blockcipher Algorithm And Its Modes Of Operations"), appendix A.2,
 * as also carried by the Linux kernel's crypto/testmgr.h; the first CFB
 * vector is from draft-ribose-cfrg-sm4-02, 12.2.4.  XTS: the xts(sm4)
 * vector of the Linux kernel's testmgr (IEEE 1619 XTS with SM4); the
 * longer XTS vectors with ciphertext stealing come from the differential
 * tests against libgcrypt below, not from a table.
 */
static const struct mode_kat mode_kats[] = {
	{ "draft-ribose-cfrg-sm4 A.2.1.1 ECB", SM4_VEC_ECB,
	  "0123456789abcdeffedcba9876543210", NULL,
	  "aaaaaaaabbbbbbbbccccccccddddddddeeeeeeeeffffffffaaaaaaaabbbbbbbb",
	  "5ec8143de509cff7b5179f8f474b86192f1d305a7fb17df985f81c8482192304" },
	{ "draft-ribose-cfrg-sm4 A.2.1.2 ECB", SM4_VEC_ECB,
	  "fedcba98765432100123456789abcdef", NULL,
	  "aaaaaaaabbbbbbbbccccccccddddddddeeeeeeeeffffffffaaaaaaaabbbbbbbb",
	  "c5876897e4a59bbba72a10c838722 45b12dd90bc2d200692b529a4155ac9e600" },
	{ "draft-ribose-cfrg-sm4 A.2.2.1 CBC", SM4_VEC_CBC,
	  "0123456789abcdeffedcba9876543210",
	  "000102030405060708090a0b0c0d0e0f",
	  "aaaaaaaabbbbbbbbccccccccddddddddeeeeeeeeffffffffaaaaaaaabbbbbbbb",
	  "78ebb11cc40b0a48312aaeb2040244cb4cb7016951909226979b0d15dc6a8f6d" },
	{ "draft-ribose-cfrg-sm4 A.2.2.2 CBC", SM4_VEC_CBC,
	  "fedcba98765432100123456789abcdef",
	  "000102030405060708090a0b0c0d0e0f",
	  "aaaaaaaabbbbbbbbccccccccddddddddeeeeeeeeffffffffaaaaaaaabbbbbbbb",
	  "0d3a6ddc2d21c698857215587b7bb59a91f2c147911a4144665e1fa1d40bae38" },
	{ "draft-ribose-cfrg-sm4-02 12.2.4 CFB", SM4_VEC_CFB,
	  "0123456789abcdeffedcba9876543210",
	  "0123456789abcdeffedcba9876543210",
	  "0123456789abcdeffedcba98765432100123456789abcdeffedcba9876543210",
	  "693d9a535bad5bb1786f53d7253a70569ed258a85a0467cc92aab393dd978995" },
	{ "draft-ribose-cfrg-sm4 A.2.4.1 CFB", SM4_VEC_CFB,
	  "0123456789abcdeffedcba9876543210",
	  "000102030405060708090a0b0c0d0e0f",
	  "aaaaaaaabbbbbbbbccccccccddddddddeeeeeeeeffffffffaaaaaaaabbbbbbbb",
	  "ac3236cb861dd316e6413b4e3c7524b769d4c54ed433b9a0346009beb37b2b3f" },
	{ "draft-ribose-cfrg-sm4 A.2.4.2 CFB", SM4_VEC_CFB,
	  "fedcba98765432100123456789abcdef",
	  "000102030405060708090a0b0c0d0e0f",
	  "aaaaaaaabbbbbbbbccccccccddddddddeeeeeeeeffffffffaaaaaaaabbbbbbbb",
	  "5dcccd25a84ba16560d7f26588706849 0d9b86ff20c3bfe115ffa02ca6192cc5" },
	{ "draft-ribose-cfrg-sm4 A.2.5.1 CTR", SM4_VEC_CTR,
	  "0123456789abcdeffedcba9876543210",
	  "000102030405060708090a0b0c0d0e0f",
	  "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbccccccccccccccccdddddddddddddddd"
	  "eeeeeeeeeeeeeeeeffffffffffffffffaaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb",
	  "ac3236cb970cc20791364c395a1342d1a3cbc1878c6f30cd074cce385cdd70c7"
	  "f234bc0e24c11980fd1286310ce37b926e02fcd0faa0baf38b2933851d824514" },
	{ "draft-ribose-cfrg-sm4 A.2.5.2 CTR", SM4_VEC_CTR,
	  "fedcba98765432100123456789abcdef",
	  "000102030405060708090a0b0c0d0e0f",
	  "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbccccccccccccccccdddddddddddddddd"
	  "eeeeeeeeeeeeeeeeffffffffffffffffaaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb",
	  "5dcccd25b95ab07417a08512ee160e2f8f661521cbbab44cc87138445bc29e5c"
	  "0ae0297205d62704173b21239b887f6c8cb5b800917a2488284bde9e16ea2906" },
	{ "Linux testmgr xts(sm4)", SM4_VEC_XTS,
	  "1111111111111111111111111111111122222222222222222222222222222222",
	  "33333333330000000000000000000000",
	  "4444444444444444444444444444444444444444444444444444444444444444",
	  "a74d726c11196a32be04e001ff29d0c7932f9f3ec29bfcb64dd17f63cbd3ea31" },
};

/* hex with optional spaces */
static unsigned int parse_hex(u8 *out, const char *hex)
{
	char clean[512];
	unsigned int n = 0;

	for (; *hex && n < sizeof(clean) - 1; hex++)
		if (*hex != ' ')
			clean[n++] = *hex;
	clean[n] = 0;
	hex2bin(out, clean);
	return n / 2;
}

static void test_kat(void)
{
	static const char key_hex[] = "0123456789abcdeffedcba9876543210";
	u8 key[16], block[16], want[16];
	struct sm4_ctx ctx;
	struct sm4_test_impl *impl;
	unsigned int i;
	bool ok;

	report(sm4_shim_init_sm4_lib_init() == 0,
	       "kat: sm4.ko module-init self-test");

	hex2bin(key, key_hex);
	sm4_expandkey(&ctx, key, sizeof(key));
	/* GB/T 32907-2016 appendix A, example 1: one block. */
	hex2bin(want, "681edf34d206965e86b3e94f536e4246");
	sm4_crypt_block(ctx.rkey_enc, block, key);
	report(!memcmp(block, want, 16), "kat: GB/T 32907 example 1 encrypt");
	sm4_crypt_block(ctx.rkey_dec, block, want);
	report(!memcmp(block, key, 16), "kat: GB/T 32907 example 1 decrypt");

	/* Example 2: the same block encrypted 1,000,000 times. */
	memcpy(block, key, 16);
	for (i = 0; i < 1000000; i++)
		sm4_crypt_block(ctx.rkey_enc, block, block);
	hex2bin(want, "595298c7c6fd271f0402f804c33d3f66");
	report(!memcmp(block, want, 16),
	       "kat: GB/T 32907 example 2 (1,000,000 encryptions)");
	for (i = 0; i < 1000000; i++)
		sm4_crypt_block(ctx.rkey_dec, block, block);
	report(!memcmp(block, key, 16),
	       "kat: GB/T 32907 example 2 (1,000,000 decryptions)");

	/* The published mode vectors through every implementation. */
	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		if (!impl_selected(impl))
			continue;
		for (i = 0; i < ARRAY_SIZE(mode_kats); i++) {
			const struct mode_kat *t = &mode_kats[i];
			u8 pt[64], ct[64];
			struct sm4_vec v = { .mode = t->mode, .pt = pt,
					     .ct = ct };

			v.keylen = parse_hex(v.key, t->key);
			if (t->iv)
				parse_hex(v.iv, t->iv);
			v.len = parse_hex(pt, t->pt);
			parse_hex(ct, t->ct);
			ok = run_one(impl, &v, true, false, 0, 0) &&
			     run_one(impl, &v, false, false, 0, 0) &&
			     run_one(impl, &v, true, true, 3, 0) &&
			     run_one(impl, &v, false, true, 3, 0);
			report(ok, "kat: %s: %s", impl->name, t->source);
		}
	}
}

/* ---- Bad input ---------------------------------------------------- */

static void test_badinput(void)
{
	static const unsigned int bad_lens[] = { 0, 1, 15, 17, 24, 32, 64 };
	u8 key[64] = { 1 }, buf[64] = { 0 }, iv[16] = { 0 };
	struct sm4_ctx ctx;
	struct sm4_test_impl *impl;
	unsigned int i, len;
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(bad_lens); i++)
		ok &= sm4_expandkey(&ctx, key, bad_lens[i]) == -EINVAL;
	report(ok, "badinput: sm4_expandkey rejects key lengths 0,1,15,17,24,32,64");
	report(sm4_expandkey(&ctx, NULL, 0) == -EINVAL,
	       "badinput: sm4_expandkey(NULL, 0) returns -EINVAL");
	report(sm4_expandkey(&ctx, key, 16) == 0,
	       "badinput: sm4_expandkey accepts 16 bytes");

	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		if (!impl_selected(impl))
			continue;
		ok = true;
		for (len = 0; len < 16; len++) {
			ok &= sm4_mode_xts_encrypt(impl->ops, ctx.rkey_enc,
						   buf, buf, len, iv) == -EINVAL;
			ok &= sm4_mode_xts_decrypt(impl->ops, ctx.rkey_dec,
						   buf, buf, len, iv) == -EINVAL;
		}
		report(ok, "badinput: %s: XTS shorter than 16 bytes is -EINVAL",
		       impl->name);

		/* Zero-length stream requests write nothing. */
		memset(buf, 0xa5, sizeof(buf));
		sm4_mode_ctr_crypt(impl->ops, ctx.rkey_enc, buf, buf, 0, iv);
		sm4_mode_cfb_encrypt(impl->ops, ctx.rkey_enc, buf, buf, 0, iv);
		sm4_mode_cfb_decrypt(impl->ops, ctx.rkey_enc, buf, buf, 0, iv);
		ok = true;
		for (i = 0; i < sizeof(buf); i++)
			ok &= buf[i] == 0xa5;
		report(ok, "badinput: %s: zero-length CFB/CTR requests touch nothing",
		       impl->name);
	}
}

/* ---- Bulk functions on their own ----------------------------------- */

enum bulk_fn {
	BULK_ECB, BULK_CBC_ENC, BULK_CBC_DEC, BULK_CFB_ENC, BULK_CFB_DEC,
	BULK_CTR, BULK_XTS_ENC, BULK_XTS_DEC, BULK_NUM
};

static const char * const bulk_names[BULK_NUM] = {
	"ecb", "cbc_enc", "cbc_dec", "cfb_enc", "cfb_dec", "ctr", "xts_enc",
	"xts_dec",
};

struct bulk_call {
	const struct sm4_mode_ops *ops;
	enum bulk_fn fn;
	const u32 *rk;
	u8 *dst;
	const u8 *src;
	unsigned int nblocks;
	u8 *iv;
};

static void bulk_call_run(void *arg)
{
	const struct bulk_call *c = arg;
	const struct sm4_mode_ops *o = c->ops;
	sm4_chain_fn chain[BULK_NUM] = {
		NULL, o->cbc_enc, o->cbc_dec, o->cfb_enc, o->cfb_dec, o->ctr,
		o->xts_enc, o->xts_dec,
	};

	if (c->fn == BULK_ECB)
		o->ecb(c->rk, c->dst, c->src, c->nblocks);
	else
		chain[c->fn](c->rk, c->dst, c->src, c->nblocks, c->iv);
}

/* The schedule a bulk function uses. */
static const u32 *bulk_rk(const struct sm4_ctx *ctx, enum bulk_fn fn)
{
	return fn == BULK_CBC_DEC || fn == BULK_XTS_DEC ? ctx->rkey_dec :
							  ctx->rkey_enc;
}

/*
 * nblocks == 0: dst, src and the IV all point into a page that may not
 * be accessed, so any access, and a run over 2^32 blocks, faults.
 */
static void test_zero(void)
{
	struct sm4_test_impl *impl;
	struct sm4_ctx ctx;
	u8 key[16] = { 7 };
	u8 *none = memwatch_noaccess_page();
	int fn;

	sm4_expandkey(&ctx, key, sizeof(key));
	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		bool ok = true;

		if (!impl_selected(impl))
			continue;
		for (fn = 0; fn < BULK_NUM; fn++) {
			struct bulk_call c = {
				.ops = impl->ops, .fn = fn,
				.rk = bulk_rk(&ctx, fn), .dst = none,
				.src = none, .nblocks = 0, .iv = none + 64,
			};

			if (memwatch_run(bulk_call_run, &c)) {
				fprintf(stderr, "zero: %s %s touched memory\n",
					impl->name, bulk_names[fn]);
				ok = false;
			}
		}
		report(ok, "zero: %s: every bulk function returns on nblocks == 0 without touching memory",
		       impl->name);
	}
}

/* sm4_mode_ctr_crypt() over a bulk_call, .nblocks in bytes. */
static void ctr_crypt_run(void *arg)
{
	const struct bulk_call *c = arg;

	sm4_mode_ctr_crypt(c->ops, c->rk, c->dst, c->src, c->nblocks, c->iv);
}

/*
 * Every store into dst, for every bulk function and a range of lengths,
 * and for sm4_mode_ctr_crypt() on texts ending in a partial block (its
 * tail made apart, or not), in place and out of place: dst only ever
 * holds its old contents or the final output.
 */
static void test_dstwatch(void)
{
	static const unsigned int lens[] = {
		1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64,
		65, 100, 128, 129,
	};
	struct sm4_test_impl *impl;
	struct sm4_ctx ctx;
	u8 key[16], iv0[16];
	unsigned int i;
	int fn;

	if (!memwatch_observer_supported()) {
		printf("SKIP: dstwatch: no store observer on this architecture\n");
		return;
	}
	sm4_vec_fill(&seed, key, sizeof(key));
	sm4_vec_fill(&seed, iv0, sizeof(iv0));
	sm4_expandkey(&ctx, key, sizeof(key));
	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		long stores = 0;
		bool ok = true;

		if (!impl_selected(impl))
			continue;
		for (fn = 0; fn <= BULK_NUM; fn++) {
			for (i = 0; i < ARRAY_SIZE(lens); i++) {
				/* fn BULK_NUM: ctr_crypt, 16 * n + 5 bytes. */
				bool bytes = fn == BULK_NUM;
				unsigned int len = lens[i] * 16 + 5 * bytes;
				unsigned int inplace;

				for (inplace = 0; inplace < 2; inplace++) {
					struct guarded gs, gd;
					u8 *before = malloc(len);
					u8 *after = malloc(len);
					u8 iv[16];
					struct bulk_call c = {
						.fn = bytes ? BULK_CTR : fn,
						.rk = bulk_rk(&ctx, bytes ?
							      BULK_CTR : fn),
						.nblocks = bytes ? len : lens[i],
						.iv = iv,
					};
					void (*run)(void *) = bytes ?
						ctr_crypt_run : bulk_call_run;
					size_t bad;
					long n;

					guarded_alloc(&gs, len, false, 0);
					sm4_vec_fill(&seed, gs.buf, len);
					if (inplace) {
						gd = gs;
					} else {
						guarded_alloc(&gd, len, true, 0);
						sm4_vec_fill(&seed, gd.buf, len);
					}
					memcpy(before, gd.buf, len);
					/* The final output, from the C code. */
					c.ops = &sm4_generic_mode_ops;
					c.src = gs.buf;
					c.dst = after;
					memcpy(iv, iv0, 16);
					run(&c);
					c.ops = impl->ops;
					c.dst = gd.buf;
					memcpy(iv, iv0, 16);
					n = memwatch_observe(&gd, gd.buf, len, before,
							     after, run, &c, &bad);
					if (n < 0 || memcmp(gd.buf, after, len)) {
						fprintf(stderr, "dstwatch: %s %s %u bytes %s: dst held something else at offset %zu\n",
							impl->name, bytes ? "ctr_crypt" :
							bulk_names[fn], len,
							inplace ? "in place" : "out of place",
							bad);
						ok = false;
					} else {
						stores += n;
					}
					guarded_free(&gs);
					if (!inplace)
						guarded_free(&gd);
					free(before);
					free(after);
				}
			}
		}
		report(ok && stores > 0, "dstwatch: %s: dst only ever holds old contents or final output (%ld stores observed%s)",
		       impl->name, stores,
		       stores ? "" : ": none, nothing was checked");
	}
}

/*
 * ctr-calls: how sm4_mode_ctr_crypt() splits a text.  A text ending in
 * a partial block whose tail (full blocks after the last whole
 * ops->batch) is 1..min(batch, 32) - 1 blocks makes two ctr calls at
 * most: the whole batches, then the tail with the partial block (tail +
 * 1 blocks, on a copy); any other text one ctr call of its full blocks
 * and, for a partial block, a one-block ecb.  Counted through wrappers;
 * the output and the counter after it checked against the C code.
 */
static void test_ctr_calls(void)
{
	static u8 src[4096 + 16], dst[4096 + 16], want[4096 + 16];
	struct sm4_test_impl *impl;
	struct sm4_ctx ctx;
	u8 key[16];

	sm4_vec_fill(&seed, key, sizeof(key));
	sm4_expandkey(&ctx, key, sizeof(key));
	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		unsigned int batch = impl->ops->batch, i, cases = 0, bad = 0;
		unsigned int moved = 0;
		struct sm4_mode_ops ops;

		if (!impl_selected(impl))
			continue;
		sm4_calls_wrap(&ops, impl->ops);
		for (i = 0; i < 1200; i++) {
			unsigned int len = i < 1100 ? i :
				sm4_vec_rand(&seed) % (sizeof(src) - 15);
			unsigned int full = len / 16, part = len % 16 != 0;
			unsigned int tail = batch && part ? full % batch : 0;
			bool tailed = tail && tail < (batch < 32 ? batch : 32);
			u8 iv[16], ctr[16], ctr2[16];

			sm4_vec_fill(&seed, src, len);
			sm4_vec_fill(&seed, iv, sizeof(iv));
			memcpy(ctr, iv, 16);
			memcpy(ctr2, iv, 16);
			sm4_mode_ctr_crypt(&sm4_generic_mode_ops, ctx.rkey_enc,
					   want, src, len, ctr2);
			sm4_calls_reset();
			sm4_mode_ctr_crypt(&ops, ctx.rkey_enc, dst, src, len,
					   ctr);
			cases++;
			moved += tailed;
			if (memcmp(dst, want, len) || memcmp(ctr, ctr2, 16) ||
			    (tailed ? sm4_calls.ecb != 0 ||
				      sm4_calls.ctr != 1 + (full > tail) ||
				      sm4_calls.ctr_last != tail + 1 ||
				      sm4_calls.bulk_blocks != full + 1 :
				      sm4_calls.ecb != part ||
				      sm4_calls.ecb_blocks != part ||
				      sm4_calls.ctr != (full != 0) ||
				      sm4_calls.bulk_blocks != full)) {
				if (bad++ < 3)
					fprintf(stderr, "ctr-calls: %s len %u: %u ctr calls of %u blocks (last %u), %u ecb calls of %u blocks%s\n",
						impl->name, len, sm4_calls.ctr,
						sm4_calls.bulk_blocks,
						sm4_calls.ctr_last, sm4_calls.ecb,
						sm4_calls.ecb_blocks,
						memcmp(dst, want, len) ||
						memcmp(ctr, ctr2, 16) ?
						", output or counter wrong" : "");
			}
		}
		report(!bad && cases && (!batch || moved),
		       "ctr-calls: %s: %u texts (0..1099 bytes, 100 random to 4096), batch %u, %u with the tail made with the partial block, %u wrong",
		       impl->name, cases, batch, moved, bad);
	}
}

/* ---- Differential tests ------------------------------------------- */

#ifdef HAVE_GCRYPT
/* A random case of @mode and @len with libgcrypt's result. */
static void make_case(struct sm4_vec *v, int mode, unsigned int len)
{
	memset(v, 0, sizeof(*v));
	v->mode = mode;
	v->keylen = mode == SM4_VEC_XTS ? 32 : 16;
	v->len = len;
	sm4_vec_fill(&seed, v->key, v->keylen);
	sm4_vec_fill(&seed, v->iv, 16);
	/*
	 * Drive the CTR carry through the upper 64 bits now and then, and
	 * out of the low 64 bits within the request (the low qword a few
	 * blocks short of wrapping: the drivers' carry-free fast paths
	 * must notice).
	 */
	if (mode == SM4_VEC_CTR && sm4_vec_rand(&seed) % 4 == 0)
		memset(v->iv + 4 + sm4_vec_rand(&seed) % 8, 0xff, 4);
	else if (mode == SM4_VEC_CTR && sm4_vec_rand(&seed) % 3 == 0) {
		memset(v->iv + 8, 0xff, 8);
		v->iv[15] = 0xff - sm4_vec_rand(&seed) % (len / 16 + 1);
	}
	v->pt = malloc(len + 1);
	v->ct = malloc(len + 1);
	sm4_vec_fill(&seed, v->pt, len);
	if (sm4_gcry_encrypt(v))
		abort();
}

/* Every implementation x mode x length up to 2 x 64 + 1 blocks + tail. */
static void test_lengths(void)
{
	struct sm4_test_impl *impl;
	unsigned int len, cases;
	int mode;

	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		if (!impl_selected(impl))
			continue;
		/*
		 * Not CTS: sm4-gcm-test walks its lengths 16..560 (the
		 * random and vector-file cases here take it further).
		 */
		for (mode = 0; mode < SM4_VEC_CTS; mode++) {
			bool whole = mode == SM4_VEC_ECB || mode == SM4_VEC_CBC;
			bool ok = true;

			cases = 0;
			/*
			 * With --lengths-stride, every length of the last
			 * two block counts still (two 64-block batches and
			 * one block more: the pipelined paths).
			 */
			for (len = mode == SM4_VEC_XTS ? 16 : 1;
			     len <= SM4_VEC_SEQ_BLOCKS * 16 + 15;
			     len += len + lengths_stride >
				    (SM4_VEC_SEQ_BLOCKS - 1) * 16 ?
				    1 : lengths_stride) {
				struct sm4_vec v;

				if (whole && len % 16)
					continue;
				make_case(&v, mode, len);
				ok &= check_case(impl, &v,
						 sm4_vec_rand(&seed));
				sm4_vec_free(&v);
				cases++;
			}
			report(ok && cases, "lengths: %s %s: %u lengths vs libgcrypt%s",
			       impl->name, sm4_vec_mode_names[mode], cases,
			       cases ? "" : " (none: nothing was checked)");
		}
	}
}

static void test_diff_gcrypt(void)
{
	struct sm4_test_impl *impl;
	unsigned long i;
	int mode;

	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		if (!impl_selected(impl))
			continue;
		for (mode = 0; mode < SM4_VEC_NUM_MODES; mode++) {
			unsigned long bad = 0;

			for (i = 0; i < n_cases; i++) {
				struct sm4_vec v;
				uint64_t r = sm4_vec_rand(&seed);

				make_case(&v, mode,
					  sm4_vec_length(mode, i, r, 4200));
				bad += !check_case(impl, &v,
						   sm4_vec_rand(&seed));
				sm4_vec_free(&v);
			}
			report(!bad && n_cases, "diff: %s %s: %lu cases vs libgcrypt, %lu mismatches%s",
			       impl->name, sm4_vec_mode_names[mode], n_cases,
			       bad, n_cases ? "" : " (no cases: nothing was checked)");
		}
	}
}
#endif

/* Every implementation against a vector file computed by libgcrypt. */
static int test_vectors(const char *path)
{
	struct sm4_test_impl *impl;
	FILE *f;
	long count;

	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		unsigned long cases[SM4_VEC_NUM_MODES] = { 0 };
		unsigned long bad[SM4_VEC_NUM_MODES] = { 0 };
		struct sm4_vec v;
		int mode, r;

		if (!impl_selected(impl))
			continue;
		f = fopen(path, "rb");
		if (!f || (count = sm4_vec_read_header(f)) < 0) {
			report(false, "vectors: cannot read %s", path);
			return -1;
		}
		while ((r = sm4_vec_read(f, &v)) == 1) {
			if (cases[v.mode] < n_cases) {
				cases[v.mode]++;
				bad[v.mode] += !check_case(impl, &v,
							   sm4_vec_rand(&seed));
			}
			sm4_vec_free(&v);
		}
		fclose(f);
		if (r < 0)
			report(false, "vectors: %s is corrupt", path);
		for (mode = 0; mode < SM4_VEC_NUM_MODES; mode++)
			report(cases[mode] && !bad[mode],
			       "vectors: %s %s: %lu cases from %s, %lu mismatches",
			       impl->name, sm4_vec_mode_names[mode],
			       cases[mode], path, bad[mode]);
	}
	return 0;
}

/* Expanded keys of an implementation's own key schedule. */
static void test_expandkey(void)
{
	struct sm4_test_impl *impl;
	unsigned int i;

	static const u8 gbt_key[16] = {
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
		0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
	};
	static const unsigned int bad_lens[] = { 0, 1, 15, 17, 24, 32 };

	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		struct sm4_ctx a, b;
		bool ok = true;

		if (!impl->expandkey || !impl_selected(impl))
			continue;
		for (i = 0; i < 1000; i++) {
			u8 key[16];

			sm4_vec_fill(&seed, key, sizeof(key));
			sm4_expandkey(&a, key, 16);
			ok &= impl->expandkey(&b, key, 16) == 0 &&
			      !memcmp(&a, &b, sizeof(a));
		}
		report(ok, "expandkey: %s matches sm4_expandkey for 1000 keys",
		       impl->name);
		ok = impl->expandkey(&b, gbt_key, 16) == 0 &&
		     b.rkey_enc[0] == 0xf12186f9 &&
		     b.rkey_enc[31] == 0x9124a012 &&
		     b.rkey_dec[0] == 0x9124a012 &&
		     b.rkey_dec[31] == 0xf12186f9;
		sm4_expandkey(&a, gbt_key, 16);
		ok &= !memcmp(&a, &b, sizeof(a));
		report(ok, "expandkey: %s GB/T 32907 key: rk[0] f12186f9, rk[31] 9124a012",
		       impl->name);
		/* Any other length: -EINVAL, and the context untouched. */
		ok = true;
		memset(&b, 0xa5, sizeof(b));
		memcpy(&a, &b, sizeof(a));
		for (i = 0; i < ARRAY_SIZE(bad_lens); i++)
			ok &= impl->expandkey(&b, gbt_key, bad_lens[i]) ==
			      -EINVAL && !memcmp(&a, &b, sizeof(a));
		report(ok, "expandkey: %s rejects key lengths 0,1,15,17,24,32 with -EINVAL, writing nothing",
		       impl->name);
	}
}

#if defined(__x86_64__)
/*
 * After the suites: an emulator that was installed for an implementation
 * that ran (or was asked for by --impl and skipped) must have emulated
 * something, else it did not test what it was installed for.  @need:
 * whether a zero count is a failure (the AVX-512 emulator on a CPU with
 * AVX-512 sees only what the CPU lacks, possibly nothing).
 */
static void check_emulated(bool active, unsigned int uses, bool need,
			   unsigned long count, const char *what)
{
	const struct sm4_test_impl *impl;
	char names[128] = "";
	bool skipped = false;

	if (!active)
		return;
	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		if (!(impl->uses & uses) ||
		    (only_impl ? strcmp(only_impl, impl->name) : !impl->ran))
			continue;
		skipped |= !impl->ran;
		if (strlen(names) + strlen(impl->name) + 2 < sizeof(names))
			sprintf(names + strlen(names), " %s", impl->name);
	}
	if (!names[0] || (!need && count)) {
		printf("NOTE: %lu %s instructions emulated\n", count, what);
		return;
	}
	report(count > 0 && !skipped,
	       "emulated: %lu %s instructions for%s%s", count, what, names,
	       skipped ? " (skipped: not supported here, nothing emulated)" :
	       count ? "" : " (none: the emulator was never reached)");
}

/*
 * --emulate-gfni: install an emulator of the @what
 * instructions (tests/unit/@file) unless the CPU has them (@native).
 * Nonzero if it cannot be installed.
 */
static int emulate(bool native, const char *what, int (*install)(void),
		   const char *file)
{
	if (native) {
		printf("NOTE: this CPU has %s, its emulation is not needed\n",
		       what);
		return 0;
	}
	if (install())
		return 1;
	printf("NOTE: %s instructions emulated (SIGILL handler, tests/unit/%s)\n",
	       what, file);
	return 0;
}
#endif

int main(int argc, char **argv)
{
	const char *vectors = NULL, *mac_vectors = NULL;
	struct sm4_test_impl *impl = NULL;
	bool emulating = false;
#if defined(__x86_64__)
	unsigned int bad, usable;
#endif
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cases") && i + 1 < argc)
			n_cases = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--lengths-stride") && i + 1 < argc &&
			 (lengths_stride = strtoul(argv[++i], NULL, 0)) > 0)
			;
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--vectors") && i + 1 < argc)
			vectors = argv[++i];
		else if (!strcmp(argv[i], "--mac-vectors") && i + 1 < argc)
			mac_vectors = argv[++i];
		else if (!strcmp(argv[i], "--impl") && i + 1 < argc)
			only_impl = argv[++i];
		else if (!strcmp(argv[i], "--with-broken") ||
			 !strncmp(argv[i], "--with-broken=", 14)) {
			if (register_broken(argv[i][13] ? argv[i] + 14 :
					    "bitflip") < 0)
				goto usage;
		}
#if defined(__x86_64__)
		else if (!strcmp(argv[i], "--emulate-gfni")) {
			emulating = true;
			__builtin_cpu_init();
			if (emulate(__builtin_cpu_supports("gfni"), "GFNI",
				    sm4_gfni_emu_install, "gfni_emu.c"))
				return 1;
		} else if (!strcmp(argv[i], "--emulate-sm4ni")) {
			emulating = true;
			if (sm4_ni_emu_install())
				return 1;
			printf("NOTE: SM4 instructions emulated (SIGILL handler, tests/unit/sm4ni_emu.c; on a CPU with them, the CPU runs them)\n");
		} else if (!strcmp(argv[i], "--emulate-avx512")) {
			/*
			 * Installed on a CPU with AVX-512 too: there it
			 * emulates, on the real zmm state, what the CPU
			 * lacks (the EVEX SM4 forms without AVX10.2).
			 */
			emulating = true;
			if (sm4_avx512_emu_install())
				return 1;
			if (sm4_avx512_emu_native)
				printf("NOTE: this CPU has AVX-512: it runs them; the EVEX instructions it lacks are emulated on its zmm state (SIGILL handler, tests/unit/evex_emu.c)\n");
			else
				printf("NOTE: AVX-512 instructions emulated (SIGILL handler, tests/unit/evex_emu.c)\n");
		}
#endif
		else {
usage:
			fprintf(stderr, "usage: %s [--cases N] [--seed S] [--vectors FILE] [--mac-vectors FILE] [--impl NAME] [--with-broken[=bitflip|overrun|srcwrite|unsupported]] [--emulate-gfni] [--emulate-sm4ni] [--emulate-avx512] [--lengths-stride K]\n",
				argv[0]);
			return 2;
		}
	}
	for (impl = sm4_test_impl_list(); only_impl && impl; impl = impl->next)
		if (!strcmp(impl->name, only_impl))
			break;
	if (only_impl && !impl) {
		fprintf(stderr, "%s: --impl %s: no such implementation\n",
			argv[0], only_impl);
		return 2;
	}

#ifdef HAVE_GCRYPT
	if (!gcry_check_version(NULL))
		return 1;
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
#endif
#if defined(__x86_64__)
	bad = sm4ni_avx10_test_detection(&usable);
	report(!bad && usable,
	       "detect: sm4ni-avx10: 64 combinations of native and emulated features, %u usable, %u decided wrongly",
	       usable, bad);
#endif
	test_kat();
	test_badinput();
	test_zero();
	test_dstwatch();
	test_ctr_calls();
	sm4_test_regwipe();
	test_expandkey();
#ifdef HAVE_GCRYPT
	test_lengths();
	test_diff_gcrypt();
#endif
	if (vectors)
		test_vectors(vectors);
#ifndef HAVE_GCRYPT
	else
		report(false, "no libgcrypt in this build: pass --vectors FILE");
	if (!mac_vectors)
		report(false, "no libgcrypt in this build: pass --mac-vectors FILE");
	else
#endif
	sm4_test_macs(mac_vectors, n_cases, &seed);
#if defined(__x86_64__)
	check_emulated(sm4_gfni_emu_active, SM4_TEST_USES_GFNI, true,
		       sm4_gfni_emu_count, "GFNI");
	check_emulated(sm4_ni_emu_active, SM4_TEST_USES_SM4NI, true,
		       sm4_ni_emu_count, "SM4");
	check_emulated(sm4_avx512_emu_active, SM4_TEST_USES_AVX512,
		       !sm4_avx512_emu_native, sm4_avx512_emu_count,
		       sm4_avx512_emu_native ?
		       "EVEX (this CPU lacks them)" : "AVX-512");
#endif
	for (impl = sm4_test_impl_list(); only_impl && impl; impl = impl->next)
		if (!strcmp(impl->name, only_impl) && !impl->ran)
			report(false, "impl: --impl %s never ran: not supported by this CPU%s",
			       only_impl, emulating ?
			       " with the emulation asked for" : "");
	report(!n_overruns && !n_src_changed && !n_faults && n_guarded &&
	       n_out_of_place,
	       "guard: %lu of %lu requests wrote outside their output buffer, %lu of %lu out-of-place requests modified their source, %lu faulted%s%s%s",
	       n_overruns, n_guarded, n_src_changed, n_out_of_place, n_faults,
	       guard_culprits[0] ? ": by" : "", guard_culprits,
	       !n_guarded ? " (no requests: nothing was checked)" :
	       !n_out_of_place ? " (none out of place: sources unchecked)" :
	       "");
	printf("%u passed, %u failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
