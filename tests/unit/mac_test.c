// SPDX-License-Identifier: GPL-2.0
/*
 * The CBC-MAC family and GCM in the harness: every implementation with
 * struct sm4_mac_ops (and struct sm4_gcm_ops), driven through
 * crypto/sm4_mac_modes.c and crypto/sm4_gcm.c the way the kernel glue
 * drives them, against libgcrypt (in memory on host builds, a vector
 * file from gen-vectors --mac elsewhere):
 *
 *   cbcmac, cmac, xcbc: the text absorbed in up to four pieces split at
 *   random bytes;
 *   ccm encryption: associated data split at random bytes, the text at
 *   random block boundaries (as the skcipher walk hands it over),
 *   alternately in place and out of place, unaligned; ccm decryption:
 *   the first pass split at random bytes must reproduce the tag, the
 *   second give back the plaintext, and the tag of a ciphertext (or of
 *   associated data) with one flipped bit must differ;
 *   gcm: the same as ccm, through the driver's fused GHASH + CTR;
 *   zero: no bulk function touches memory for nblocks == 0;
 *   macwatch (SIMD backends): cbcmac stores only its final value into
 *   @mac (no running value ever appears there) and nothing into its
 *   source; ccmwatch: the same of the fused ccm_enc (and that it stores
 *   only ciphertext into dst) and ccm_dec_mac;
 *   badinput: iv[0] outside 1..7, odd or out-of-range tag lengths, a
 *   text too long for L.
 */
#include <stdlib.h>
#include <string.h>
#include <sm4/compat.h>
#include <sm4/mac.h>
#include <sm4/gcm.h>
#include "calls.h"
#include "impl.h"
#include "memwatch.h"
#include "sm4-vectors.h"
#include "sm4-mac-vectors.h"

#ifdef HAVE_GCRYPT
int sm4_gcry_mac(struct sm4_mac_vec *v);
#endif

/* A random split point in 0..len, at a multiple of @unit. */
static unsigned int cut(uint64_t *seed, unsigned int len, unsigned int unit)
{
	return (unsigned int)(sm4_vec_rand(seed) % (len / unit + 1)) * unit;
}

static void absorb(const struct sm4_mac_ops *mops, const u32 *rk,
		   struct sm4_mac_state *st, const u8 *p, unsigned int len,
		   uint64_t *seed)
{
	int pieces = 3;

	while (pieces-- && len) {
		unsigned int n = cut(seed, len, 1);

		sm4_mac_update(mops, rk, st, p, n);
		p += n;
		len -= n;
	}
	sm4_mac_update(mops, rk, st, p, len);
}

static void expand(const struct sm4_test_impl *impl, struct sm4_ctx *ctx,
		   const u8 *key)
{
	if (impl->expandkey)
		impl->expandkey(ctx, key, SM4_KEY_SIZE);
	else
		sm4_expandkey(ctx, key, SM4_KEY_SIZE);
}

static bool check_mac(const struct sm4_test_impl *impl,
		      const struct sm4_mac_vec *v, uint64_t *seed)
{
	const struct sm4_mac_ops *mops = impl->mac_ops;
	struct sm4_mac_state st;
	u8 k1[16], k2[16], k3[16];
	struct sm4_ctx ctx;

	memset(&st, 0, sizeof(st));
	expand(impl, &ctx, v->key);
	if (v->kind == SM4_MV_XCBC) {
		sm4_xcbc_subkeys(mops, ctx.rkey_enc, k1, k2, k3);
		expand(impl, &ctx, k1);
	} else if (v->kind == SM4_MV_CMAC) {
		sm4_cmac_subkeys(mops, ctx.rkey_enc, k2, k3);
	}
	absorb(mops, ctx.rkey_enc, &st, v->text, v->len, seed);
	if (v->kind == SM4_MV_CBCMAC)
		sm4_mac_flush(mops, ctx.rkey_enc, &st);
	else
		sm4_mac_final_keyed(mops, ctx.rkey_enc, &st, k2, k3);
	return !memcmp(st.dg, v->out + v->len, 16);
}

/*
 * Decryption's second pass: CTR over @src (libgcrypt's ciphertext) in
 * walk-like pieces (whole blocks but the last), from @ctr, or as gcm's
 * glue runs it on @gc: true if that gives the plaintext.
 */
static bool ctr_pass(const struct sm4_test_impl *impl, const u32 *rk,
		     const struct sm4_mac_vec *v, u8 *dst, const u8 *src,
		     struct sm4_ccm_state *cs, struct sm4_gcm_ctr *gc,
		     uint64_t *seed)
{
	unsigned int done, n;

	for (done = 0; done < v->len; done += n) {
		n = cut(seed, v->len - done, 16);
		if (!n)
			n = v->len - done;
		if (gc)
			sm4_gcm_decrypt_piece(impl->ops, rk, gc, dst + done,
					      src + done, n);
		else
			sm4_ccm_decrypt_piece(impl->ops, rk, cs, dst + done,
					      src + done, n);
	}
	return !memcmp(dst, v->text, v->len);
}

/*
 * Put libgcrypt's ciphertext back into @src and flip one random bit of it
 * or of @aad; false if both are empty.
 */
static bool tamper(const struct sm4_mac_vec *v, u8 *src, u8 *aad,
		   uint64_t *seed)
{
	uint64_t r = sm4_vec_rand(seed);
	u8 *p = v->len && (!v->alen || r % 2) ? src : aad;
	unsigned int plen = p == src ? v->len : v->alen;

	if (!plen)
		return false;
	memcpy(src, v->out, v->len);
	p[(r >> 8) % plen] ^= 1 << ((r >> 40) % 8);
	return true;
}

/* B0 and the associated data, as the glue does. */
static int ccm_begin(const struct sm4_test_impl *impl, const u32 *rk,
		     struct sm4_ccm_state *st, const struct sm4_mac_vec *v,
		     const u8 *aad, uint64_t *seed)
{
	int err = sm4_ccm_start(impl->ops, impl->mac_ops, rk, st, v->iv,
				v->alen, v->len, v->taglen);

	if (err)
		return err;
	absorb(impl->mac_ops, rk, &st->mac, aad, v->alen, seed);
	sm4_mac_flush(impl->mac_ops, rk, &st->mac);
	return 0;
}

/* The tag of ciphertext @ct (first pass of decryption) in @st. */
static int ccm_dec_tag(const struct sm4_test_impl *impl, const u32 *rk,
		       struct sm4_ccm_state *st, const struct sm4_mac_vec *v,
		       const u8 *aad, const u8 *ct, u8 *tag, uint64_t *seed)
{
	unsigned int done = 0;
	int pieces = 3;

	if (ccm_begin(impl, rk, st, v, aad, seed))
		return -1;
	while (pieces-- && done < v->len) {
		unsigned int n = cut(seed, v->len - done, 1);

		sm4_ccm_decrypt_mac(impl->ops, impl->mac_ops, rk, st,
				    ct + done, n);
		done += n;
	}
	sm4_ccm_decrypt_mac(impl->ops, impl->mac_ops, rk, st, ct + done,
			    v->len - done);
	sm4_ccm_decrypt_mac_end(impl->mac_ops, rk, st);
	sm4_ccm_tag(st, tag);
	return 0;
}

static bool check_ccm(const struct sm4_test_impl *impl,
		      const struct sm4_mac_vec *v, uint64_t *seed,
		      bool in_place)
{
	unsigned int len = v->len, done, n;
	u8 *buf = malloc(2 * len + 2 + 16), *dst, *src, *aad;
	u8 tag[16];
	struct sm4_ccm_state st;
	struct sm4_ctx ctx;
	bool ok = true;

	aad = malloc(v->alen + 1);
	if (!buf || !aad)
		abort();
	/* Unaligned on purpose. */
	src = buf + 1;
	dst = in_place ? src : src + len + 1;
	memcpy(aad, v->aad, v->alen);
	expand(impl, &ctx, v->key);

	/* Encryption: the text in walk-like pieces (whole blocks). */
	memcpy(src, v->text, len);
	if (ccm_begin(impl, ctx.rkey_enc, &st, v, aad, seed))
		ok = false;
	for (done = 0; ok && done < len; done += n) {
		n = cut(seed, len - done, 16);
		if (!n || sm4_vec_rand(seed) % 4 == 0)
			n = len - done;
		sm4_ccm_encrypt(impl->ops, impl->mac_ops, ctx.rkey_enc, &st,
				dst + done, src + done, n);
	}
	sm4_ccm_tag(&st, tag);
	ok &= !memcmp(dst, v->out, len) &&
	      !memcmp(tag, v->out + len, v->taglen);

	/* Decryption, first pass: the tag from libgcrypt's ciphertext. */
	memcpy(src, v->out, len);
	ok &= !ccm_dec_tag(impl, ctx.rkey_enc, &st, v, aad, src, tag, seed) &&
	      !memcmp(tag, v->out + len, v->taglen);
	/* Second pass, over the same state: in walk-like pieces. */
	sm4_ccm_decrypt_rewind(&st);
	ok &= ctr_pass(impl, ctx.rkey_enc, v, dst, src, &st, NULL, seed);

	/* A flipped bit in the ciphertext or the associated data. */
	if (tamper(v, src, aad, seed))
		ok &= !ccm_dec_tag(impl, ctx.rkey_enc, &st, v, aad, src, tag,
				   seed) &&
		      memcmp(tag, v->out + len, v->taglen);
	free(buf);
	free(aad);
	return ok;
}

/* GHASH of @len bytes in up to four pieces split at random bytes. */
static void ghash_split(const struct sm4_gcm_ops *gops, struct sm4_ghash *gh,
			const u8 *p, unsigned int len, uint64_t *seed)
{
	int pieces = 3;

	while (pieces-- && len) {
		unsigned int n = cut(seed, len, 1);

		sm4_ghash_update(gops, gh, p, n);
		p += n;
		len -= n;
	}
	sm4_ghash_update(gops, gh, p, len);
	sm4_ghash_pad(gops, gh);
}

/*
 * The tag of ciphertext @ct as the glue's verification pass computes it,
 * masked with @c's E_K(J0).
 */
static void gcm_dec_tag(const struct sm4_test_impl *impl, const u8 *table,
			const struct sm4_mac_vec *v, const u8 *aad,
			const u8 *ct, const struct sm4_gcm_ctr *c, u8 *tag,
			uint64_t *seed)
{
	struct sm4_ghash gh;

	sm4_ghash_start(&gh, table);
	ghash_split(impl->gcm, &gh, aad, v->alen, seed);
	ghash_split(impl->gcm, &gh, ct, v->len, seed);
	sm4_gcm_tag(impl->gcm, &gh, c, v->alen, v->len, tag);
}

/*
 * gcm as crypto/sm4_aead_glue.c runs it over include/sm4/gcm.h: the text
 * in walk-like pieces through sm4_gcm_encrypt_piece() (the driver's fused
 * enc), in place or not; decryption's GHASH pass split at random bytes,
 * then CTR; one flipped bit changes the tag.
 */
static bool check_gcm(const struct sm4_test_impl *impl,
		      const struct sm4_mac_vec *v, uint64_t *seed,
		      bool in_place)
{
	static const u8 zero[16];
	unsigned int len = v->len, done, n;
	u8 *buf = malloc(2 * len + 2 + 16), *dst, *src, *aad;
	u8 table[SM4_GCM_TABLE_SIZE], h[16], tag[16];
	const u8 *tbl = h;
	struct sm4_gcm_ctr c;
	struct sm4_ghash gh;
	struct sm4_ctx ctx;
	bool ok = true;

	aad = malloc(v->alen + 1);
	if (!buf || !aad)
		abort();
	src = buf + 1;
	dst = in_place ? src : src + len + 1;
	memcpy(aad, v->aad, v->alen);
	expand(impl, &ctx, v->key);
	sm4_crypt_block(ctx.rkey_enc, h, zero);
	if (impl->gcm->init) {
		impl->gcm->init(table, h);
		tbl = table;
	}

	memcpy(src, v->text, len);
	sm4_ghash_start(&gh, tbl);
	ghash_split(impl->gcm, &gh, aad, v->alen, seed);
	sm4_gcm_ctr_start(impl->ops, impl->gcm, ctx.rkey_enc, v->iv, len, &c);
	for (done = 0; done < len; done += n) {
		n = cut(seed, len - done, 16);
		if (!n || sm4_vec_rand(seed) % 4 == 0)
			n = len - done;
		sm4_gcm_encrypt_piece(impl->ops, impl->gcm, ctx.rkey_enc,
				      &gh, &c, dst + done, src + done, n);
	}
	sm4_gcm_tag(impl->gcm, &gh, &c, v->alen, len, tag);
	ok &= !memcmp(dst, v->out, len) &&
	      !memcmp(tag, v->out + len, v->taglen);

	memcpy(src, v->out, len);
	sm4_gcm_ctr_start(impl->ops, impl->gcm, ctx.rkey_enc, v->iv, len, &c);
	gcm_dec_tag(impl, tbl, v, aad, src, &c, tag, seed);
	ok &= !memcmp(tag, v->out + len, v->taglen);
	ok &= ctr_pass(impl, ctx.rkey_enc, v, dst, src, NULL, &c, seed);

	if (tamper(v, src, aad, seed)) {
		gcm_dec_tag(impl, tbl, v, aad, src, &c, tag, seed);
		ok &= memcmp(tag, v->out + len, v->taglen) != 0;
	}
	free(buf);
	free(aad);
	return ok;
}

static bool check_vec(const struct sm4_test_impl *impl,
		      const struct sm4_mac_vec *v, uint64_t *seed,
		      unsigned long i)
{
	if (v->kind == SM4_MV_CCM)
		return check_ccm(impl, v, seed, i % 2);
	if (v->kind == SM4_MV_GCM)
		return check_gcm(impl, v, seed, i % 2);
	return check_mac(impl, v, seed);
}

/*
 * NULL for every pointer: an access kills the harness (SIGSEGV, no
 * summary line, a failed stage), so reaching the report is the check.
 */
static void test_mac_zero(const struct sm4_test_impl *impl)
{
	impl->mac_ops->cbcmac(NULL, NULL, NULL, 0);
	if (impl->mac_ops->ccm_enc)
		impl->mac_ops->ccm_enc(NULL, NULL, NULL, 0, NULL, NULL);
	if (impl->mac_ops->ccm_dec_mac)
		impl->mac_ops->ccm_dec_mac(NULL, NULL, 0, NULL, NULL);
	if (impl->gcm && impl->gcm->init) {
		impl->gcm->ghash(NULL, NULL, 0);
		impl->gcm->enc(NULL, NULL, NULL, 0, NULL, NULL);
	}
	sm4_test_report(true, "mac zero: %s: the MAC%s bulk functions touch nothing for nblocks == 0",
			impl->name, impl->gcm && impl->gcm->init ?
			" and GHASH" : "");
}

/*
 * The start of a watch suite: false (and a SKIP line) where the store
 * observer does not work, else a random key expanded into @ctx.
 */
static bool watch_begin(const struct sm4_test_impl *impl,
			struct sm4_ctx *ctx, const char *suite, uint64_t *seed)
{
	u8 key[16];

	if (!memwatch_observer_supported()) {
		printf("SKIP: %s: no store observer on this architecture\n",
		       suite);
		return false;
	}
	sm4_vec_fill(seed, key, sizeof(key));
	expand(impl, ctx, key);
	return true;
}

struct cbcmac_call {
	const struct sm4_mac_ops *mops;
	const u32 *rk;
	u8 *mac;
	const u8 *src;
	unsigned int nblocks;
};

static void cbcmac_call_run(void *arg)
{
	struct cbcmac_call *c = arg;

	c->mops->cbcmac(c->rk, c->mac, c->src, c->nblocks);
}

/*
 * Every store of cbcmac into @mac, over a range of lengths: @mac only
 * ever holds its old value or the final MAC (from the portable code),
 * and the source is left as it was.
 */
static void test_mac_watch(const struct sm4_test_impl *impl, uint64_t *seed)
{
	static const unsigned int lens[] = { 1, 2, 3, 4, 9, 16, 17, 33, 100 };
	struct sm4_ctx ctx;
	long stores = 0;
	unsigned int i;
	bool ok = true;

	if (!watch_begin(impl, &ctx, "macwatch", seed))
		return;
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		unsigned int len = lens[i] * 16;
		u8 *copy = malloc(len), before[16], after[16];
		struct guarded gs, gm;
		struct cbcmac_call c = {
			.mops = impl->mac_ops, .rk = ctx.rkey_enc,
			.nblocks = lens[i],
		};
		size_t bad = 0;
		long n;

		if (!copy)
			abort();
		guarded_alloc(&gs, len, true, 0);
		guarded_alloc(&gm, 16, true, 0);
		sm4_vec_fill(seed, gs.buf, len);
		sm4_vec_fill(seed, before, 16);
		memcpy(copy, gs.buf, len);
		memcpy(after, before, 16);
		sm4_generic_mac_ops.cbcmac(ctx.rkey_enc, after, gs.buf,
					   lens[i]);
		memcpy(gm.buf, before, 16);
		c.mac = gm.buf;
		c.src = gs.buf;
		n = memwatch_observe(&gm, gm.buf, 16, before, after,
				     cbcmac_call_run, &c, &bad);
		if (n < 0 || memcmp(gm.buf, after, 16) ||
		    memcmp(gs.buf, copy, len)) {
			fprintf(stderr, "macwatch: %s cbcmac %u blocks: %s at offset %zu\n",
				impl->name, lens[i], n < 0 ?
				"mac held a value other than the old and the final one" :
				"wrong MAC or source changed", bad);
			ok = false;
		} else {
			stores += n;
		}
		guarded_free(&gs);
		guarded_free(&gm);
		free(copy);
	}
	sm4_test_report(ok && stores > 0, "macwatch: %s: cbcmac leaves its source alone and stores only the final MAC (%ld stores observed%s)",
			impl->name, stores,
			stores ? "" : ": none, nothing was checked");
}

struct ccm_call {
	const struct sm4_mac_ops *mops;
	const u32 *rk;
	u8 *dst, *ctr, *mac;
	const u8 *src;
	unsigned int nblocks;
};

static void ccm_call_run(void *arg)
{
	struct ccm_call *c = arg;

	if (c->dst)
		c->mops->ccm_enc(c->rk, c->dst, c->src, c->nblocks, c->ctr,
				 c->mac);
	else
		c->mops->ccm_dec_mac(c->rk, c->src, c->nblocks, c->ctr,
				     c->mac);
}

/*
 * One watched call of the fused ccm functions, for @watch = the text
 * (ccm_enc: @dst, in place at odd @nblocks) or the MAC: each of its
 * stores leaves only old or final bytes there (no keystream, no running
 * MAC), the source, if apart, is left alone, and every output is that of
 * the portable code.  Returns the stores seen, -1 on a fault.
 */
static long ccm_watch_one(const struct sm4_test_impl *impl, const u32 *rk,
			  bool enc, bool watch_text, unsigned int nblocks,
			  uint64_t *seed)
{
	unsigned int len = nblocks * 16;
	bool in_place = enc && nblocks % 2;
	u8 *text = malloc(len), *want = malloc(len), *copy = malloc(len);
	u8 ctr[16], ctr_want[16], mac0[16], mac_want[16];
	struct guarded gs, gd, gm;
	struct ccm_call c = {
		.mops = impl->mac_ops, .rk = rk, .nblocks = nblocks,
	};
	size_t bad = 0;
	long n;

	if (!text || !want || !copy)
		abort();
	sm4_vec_fill(seed, text, len);
	sm4_vec_fill(seed, ctr, 16);
	sm4_vec_fill(seed, mac0, 16);
	/* the low counter qword near its carry now and then */
	if (nblocks % 3 == 0)
		memset(ctr + 8, 0xff, 7);
	memcpy(ctr_want, ctr, 16);
	memcpy(mac_want, mac0, 16);
	if (enc)
		sm4_generic_mac_ops.ccm_enc(rk, want, text, nblocks, ctr_want,
					    mac_want);
	else
		sm4_generic_mac_ops.ccm_dec_mac(rk, text, nblocks, ctr_want,
						mac_want);
	guarded_alloc(&gs, len, true, 0);
	guarded_alloc(&gd, len, true, 0);
	guarded_alloc(&gm, 16, true, 0);
	memcpy(gs.buf, text, len);
	memcpy(gm.buf, mac0, 16);
	c.src = gs.buf;
	c.ctr = ctr;
	c.mac = gm.buf;
	if (enc) {
		c.dst = in_place ? gs.buf : gd.buf;
		if (!in_place)
			sm4_vec_fill(seed, gd.buf, len);
	}
	memcpy(copy, c.dst ? c.dst : gs.buf, len);
	if (watch_text && enc)
		n = memwatch_observe(in_place ? &gs : &gd, c.dst, len, copy,
				     want, ccm_call_run, &c, &bad);
	else
		n = memwatch_observe(&gm, gm.buf, 16, mac0, mac_want,
				     ccm_call_run, &c, &bad);
	if (n >= 0 && (memcmp(gm.buf, mac_want, 16) ||
		       memcmp(ctr, ctr_want, 16) ||
		       (enc && memcmp(c.dst, want, len)) ||
		       (!in_place && memcmp(gs.buf, text, len))))
		n = -2;
	if (n < 0)
		fprintf(stderr, "ccmwatch: %s %s %u blocks, watching the %s: %s at offset %zu\n",
			impl->name, enc ? "ccm_enc" : "ccm_dec_mac", nblocks,
			watch_text && enc ? "text" : "MAC",
			n == -1 ? "a store left a value other than the old and the final one" :
			"wrong output, counter or MAC, or the source changed",
			bad);
	guarded_free(&gs);
	guarded_free(&gd);
	guarded_free(&gm);
	free(text);
	free(want);
	free(copy);
	return n;
}

/*
 * ccmwatch: the fused ccm_enc and ccm_dec_mac, where an implementation
 * has them, over lengths around their batches (4 and 8 blocks) and
 * across several: see ccm_watch_one().
 */
static void test_ccm_watch(const struct sm4_test_impl *impl, uint64_t *seed)
{
	static const unsigned int lens[] = {
		1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 33, 64, 100
	};
	struct sm4_ctx ctx;
	long stores = 0, n;
	unsigned int i, calls = 0, bad = 0;

	if (!impl->mac_ops->ccm_enc && !impl->mac_ops->ccm_dec_mac)
		return;
	if (!watch_begin(impl, &ctx, "ccmwatch", seed))
		return;
	/* ccm_enc watching dst, ccm_enc and ccm_dec_mac watching mac */
	for (i = 0; i < 3 * sizeof(lens) / sizeof(lens[0]); i++) {
		n = ccm_watch_one(impl, ctx.rkey_enc, i % 3 < 2, i % 3 == 0,
				  lens[i / 3], seed);
		bad += n < 0;
		stores += n > 0 ? n : 0;
		calls++;
	}
	sm4_test_report(!bad && calls == 48 && stores >= 48,
			"ccmwatch: %s: ccm_enc writes only ciphertext into dst and, like ccm_dec_mac, only the final MAC into mac, leaving src alone; outputs as the portable code's (%u calls of 1..100 blocks, %ld stores observed, %u wrong)",
			impl->name, calls, stores, bad);
}

static void test_mac_badinput(void)
{
	static const u32 rk[32];
	struct sm4_ccm_state st;
	u8 iv[16] = { 3 };
	unsigned int a, bad = 0, good = 0;
	int l;

	for (a = 0; a <= 18; a++) {
		int err = sm4_ccm_start(&sm4_generic_mode_ops,
					&sm4_generic_mac_ops, rk, &st, iv, 0,
					0, a);
		bool ok = a >= 4 && a <= 16 && !(a & 1);

		good += ok && !err;
		bad += !ok && err == -EINVAL;
	}
	for (l = 0; l < 256; l++) {
		iv[0] = l;
		if ((sm4_ccm_start(&sm4_generic_mode_ops,
				   &sm4_generic_mac_ops, rk, &st, iv, 0, 0,
				   8) == -EINVAL) == (l < 1 || l > 7))
			good++;
	}
	iv[0] = 1;	/* L = 2: at most 65535 bytes */
	if (sm4_ccm_start(&sm4_generic_mode_ops, &sm4_generic_mac_ops, rk,
			  &st, iv, 0, 65536, 8) == -EOVERFLOW &&
	    !sm4_ccm_start(&sm4_generic_mode_ops, &sm4_generic_mac_ops, rk,
			   &st, iv, 0, 65535, 8))
		good++;
	sm4_test_report(good == 7 + 256 + 1 && bad == 12,
			"mac badinput: ccm: tag lengths 0..18 (7 accepted, 12 -EINVAL), iv[0] 0..255 (-EINVAL outside 1..7), L=2 length 65536 -EOVERFLOW: %u/264 and %u/12 right",
			good, bad);
}

/*
 * ccm-calls: how a request's blocks reach @impl's functions.  Each
 * request makes one ecb call, in sm4_ccm_start(): E(B0) and E(A0) with
 * the whole keystream of a text of at most short_blocks blocks, or with
 * that of a partial final block; every other text block goes through
 * ctr or the fused ccm_enc/ccm_dec_mac, once in encryption and once in
 * each decryption pass.  Counted through wrappers around @impl's
 * functions, on requests whose decryption must give back the text and
 * the tag.
 */
static const struct sm4_mac_ops *calls_mops;

static void calls_enc_fn(const u32 *rk, u8 *dst, const u8 *src,
			 unsigned int nblocks, u8 *ctr, u8 *mac)
{
	sm4_calls.bulk_blocks += nblocks;
	calls_mops->ccm_enc(rk, dst, src, nblocks, ctr, mac);
}

static void calls_dec_mac_fn(const u32 *rk, const u8 *src,
			     unsigned int nblocks, u8 *ctr, u8 *mac)
{
	sm4_calls.bulk_blocks += nblocks;
	calls_mops->ccm_dec_mac(rk, src, nblocks, ctr, mac);
}

#define CALLS_MAX	4096

/* One ccm request's text in walk-like pieces (whole blocks but the last). */
static void calls_text(const struct sm4_mode_ops *ops,
		       const struct sm4_mac_ops *mops, const u32 *rk,
		       struct sm4_ccm_state *st, u8 *dst, const u8 *src,
		       unsigned int len, int pass, uint64_t *seed)
{
	unsigned int done, n;

	for (done = 0; done < len; done += n) {
		n = cut(seed, len - done, 16);
		if (!n || sm4_vec_rand(seed) % 4 == 0)
			n = len - done;
		if (pass == 0)
			sm4_ccm_encrypt(ops, mops, rk, st, dst + done,
					src + done, n);
		else if (pass == 1)
			sm4_ccm_decrypt_mac(ops, mops, rk, st, src + done, n);
		else
			sm4_ccm_decrypt_piece(ops, rk, st, dst + done,
					      src + done, n);
	}
}

static void test_ccm_calls(const struct sm4_test_impl *impl, uint64_t *seed)
{
	static u8 pt[CALLS_MAX], ct[CALLS_MAX], back[CALLS_MAX];
	struct sm4_mode_ops ops;
	struct sm4_mac_ops mops = *impl->mac_ops;
	unsigned int i, k = impl->mac_ops->short_blocks;
	unsigned long cases = 0, bad = 0;
	u8 key[SM4_KEY_SIZE], iv[16], aad[40], tag[16], tag2[16];
	struct sm4_ccm_state st;
	struct sm4_ctx ctx;

	sm4_calls_wrap(&ops, impl->ops);
	calls_mops = impl->mac_ops;
	if (mops.ccm_enc)
		mops.ccm_enc = calls_enc_fn;
	if (mops.ccm_dec_mac)
		mops.ccm_dec_mac = calls_dec_mac_fn;
	sm4_vec_fill(seed, key, sizeof(key));
	expand(impl, &ctx, key);
	for (i = 0; i < 300 + 200; i++) {
		unsigned int len = i < 300 ? i :
				   sm4_vec_rand(seed) % (CALLS_MAX + 1);
		unsigned int alen = sm4_vec_rand(seed) % (sizeof(aad) + 1);
		unsigned int full = len / 16, part = len % 16 != 0;
		bool all = full + part <= k;
		unsigned int ecb[2], ecb_blocks[2], bulk[2];
		int pass;

		memset(iv, 0, sizeof(iv));
		iv[0] = 3;	/* L = 4 */
		sm4_vec_fill(seed, iv + 1, 11);
		sm4_vec_fill(seed, aad, alen);
		sm4_vec_fill(seed, pt, len);
		for (pass = 0; pass < 2; pass++) {
			sm4_calls_reset();
			if (sm4_ccm_start(&ops, &mops, ctx.rkey_enc, &st, iv,
					  alen, len, 16))
				abort();
			sm4_mac_update(&mops, ctx.rkey_enc, &st.mac, aad, alen);
			sm4_mac_flush(&mops, ctx.rkey_enc, &st.mac);
			if (pass == 0) {
				calls_text(&ops, &mops, ctx.rkey_enc, &st, ct,
					   pt, len, 0, seed);
				sm4_ccm_tag(&st, tag);
			} else {
				calls_text(&ops, &mops, ctx.rkey_enc, &st,
					   NULL, ct, len, 1, seed);
				sm4_ccm_decrypt_mac_end(&mops, ctx.rkey_enc,
							&st);
				sm4_ccm_tag(&st, tag2);
				sm4_ccm_decrypt_rewind(&st);
				calls_text(&ops, &mops, ctx.rkey_enc, &st,
					   back, ct, len, 2, seed);
			}
			ecb[pass] = sm4_calls.ecb;
			ecb_blocks[pass] = sm4_calls.ecb_blocks;
			bulk[pass] = sm4_calls.bulk_blocks;
		}
		cases++;
		if (ecb[0] == 1 && ecb[1] == 1 &&
		    ecb_blocks[0] == 2 + (all ? full + part : part) &&
		    ecb_blocks[1] == ecb_blocks[0] &&
		    bulk[0] == (all ? 0 : full) &&
		    bulk[1] == (all ? 0 : 2 * full) &&
		    !memcmp(tag, tag2, sizeof(tag)) && !memcmp(back, pt, len))
			continue;
		bad++;
		if (bad <= 3)
			fprintf(stderr, "FAIL detail: %s ccm-calls len %u: ecb calls %u/%u of %u/%u blocks, %u/%u blocks by ctr or the fused functions (encryption/decryption), %s\n",
				impl->name, len, ecb[0], ecb[1], ecb_blocks[0],
				ecb_blocks[1], bulk[0], bulk[1],
				memcmp(tag, tag2, sizeof(tag)) ?
				"tags differ" : memcmp(back, pt, len) ?
				"text not given back" : "text and tag right");
	}
	memzero_explicit(&st, sizeof(st));
	sm4_test_report(cases == 500 && !bad,
			"ccm-calls: %s: %lu requests (text 0..299, 200 random to %u), one ecb call each with the keystream of texts to %u blocks or of a partial block, %lu wrong",
			impl->name, cases, CALLS_MAX, k, bad);
}

/*
 * Every implementation with MAC ops: @cases records, from @path or (host
 * builds, @path NULL) made and computed by libgcrypt here.
 */
void sm4_test_macs(const char *path, unsigned long cases, uint64_t *seed)
{
	const char *base = !path ? "" : strrchr(path, '/') ?
			   strrchr(path, '/') + 1 : path;
	struct sm4_test_impl *impl;

	test_mac_badinput();
	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		unsigned long n[SM4_MV_NUM_KINDS] = { 0 };
		unsigned long bad[SM4_MV_NUM_KINDS] = { 0 };
		unsigned long i;
		struct sm4_mac_vec v;
#ifdef HAVE_GCRYPT
		uint64_t gen_seed = 7;	/* gen-vectors --mac's default */
#endif
		FILE *f = NULL;
		int k, r = 1;

		if (!impl->mac_ops || !sm4_test_impl_selected(impl))
			continue;
		test_mac_zero(impl);
		test_ccm_calls(impl, seed);
		/* The portable code chains in place: the glue's own state. */
		if (impl->mac_ops != &sm4_generic_mac_ops) {
			test_mac_watch(impl, seed);
			test_ccm_watch(impl, seed);
		}
		if (path) {
			f = fopen(path, "rb");
			if (!f || sm4_mac_vec_read_header(f) < 0) {
				sm4_test_report(false, "mac vectors: cannot read %s",
						path);
				return;
			}
		}
		for (i = 0; i < cases; i++) {
			if (f) {
				r = sm4_mac_vec_read(f, &v);
				if (r != 1)
					break;
			} else {
#ifdef HAVE_GCRYPT
				if (sm4_mac_vec_make(&v, i, &gen_seed) ||
				    sm4_gcry_mac(&v))
					abort();
#else
				abort();
#endif
			}
			if (v.kind != SM4_MV_GCM || impl->gcm) {
				n[v.kind]++;
				bad[v.kind] += !check_vec(impl, &v, seed, i);
			}
			sm4_mac_vec_free(&v);
		}
		if (f)
			fclose(f);
		if (r < 0)
			sm4_test_report(false, "mac vectors: %s is corrupt", path);
		for (k = 0; k < SM4_MV_NUM_KINDS; k++)
			if (k != SM4_MV_GCM || impl->gcm)
				sm4_test_report(n[k] && !bad[k],
					"mac: %s %s: %lu cases vs libgcrypt%s%s, %lu mismatches",
					impl->name, sm4_mac_kind_names[k], n[k],
					path ? " via " : "", base,
					bad[k]);
	}
}
