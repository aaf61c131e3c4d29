// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: fuzz cfb(sm4) skciphers against a reference computed here.
 *
 * The kernel's self-test fuzzer compares each driver with the generic
 * implementation of its algorithm, which for cfb(sm4) is the cfb
 * template; the template is gone from 6.8 and testmgr has no cfb(sm4)
 * entry there, so no cfb driver is fuzzed by the kernel.  This module
 * fuzzes them itself.  The reference is CFB written out here over the
 * single-block cipher "sm4-generic" (crypto_cipher: no template, no
 * skcipher walk), checked first against a published CFB vector.
 *
 * For every driver named in "drivers" (comma separated cfb(sm4) driver
 * names), "iterations" random messages, each with a fresh random key and
 * IV: lengths from 1 byte to max_len (several pages, mostly ragged
 * tails; the first messages are 1, 16, 17, PAGE_SIZE, PAGE_SIZE + 1 and
 * max_len bytes), encryption or decryption, in-place or out-of-place,
 * sent as one request or as 2..4 requests whose boundaries are whole
 * blocks and which carry the IV from one to the next, each request's
 * source and destination in scatterlists of 1..8 entries of random
 * lengths starting at any byte of a page (entries cross pages), with or
 * without CRYPTO_TFM_REQ_MAY_SLEEP, and where the kernel has the
 * self-tests' switch (SM4_HAVE_SIMD_TEST_SWITCH) a quarter of them
 * (setkey included) with SIMD disabled as testmgr disables it.  Checked
 * per message: every request returns 0; the IV each request leaves is
 * the last full ciphertext block it covered (its input IV if it covered
 * none), as the kernel's cfb template left it; the output equals the
 * reference; no byte of the buffers outside the output changed (the
 * source too, out of place).
 *
 * Each driver gives one kernel log line, "sm4-cfb-fuzz: PASS DRIVER: ..."
 * or "sm4-cfb-fuzz: FAIL DRIVER: ..." (the first failing message in
 * full).  Loading returns 0 only if every driver passed (the module then
 * stays loaded, rmmod it); otherwise -EINVAL.  "seed" (0: random) makes a
 * run repeatable; the lines print it.  Test-only: loaded in QEMU guests.
 */

#define pr_fmt(fmt) "sm4-cfb-fuzz: " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <crypto/algapi.h>
#include <crypto/internal/cipher.h>
#include <crypto/skcipher.h>
#include <sm4/compat.h>
#include "sm4_test_names.h"

#define FUZZ_BLOCK	16
#define FUZZ_BUF_ORDER	3		/* 8 pages per buffer */
#define FUZZ_BUF_SIZE	(PAGE_SIZE << FUZZ_BUF_ORDER)
#define FUZZ_MAX_SG	8
#define FUZZ_MAX_REQS	4
#define FUZZ_SHOWN	3		/* failing messages described per driver */

static char *drivers;
module_param(drivers, charp, 0444);
MODULE_PARM_DESC(drivers, "comma-separated cfb(sm4) driver names to fuzz");

static unsigned int iterations = 200;
module_param(iterations, uint, 0444);
MODULE_PARM_DESC(iterations, "random messages per driver");

static unsigned int max_len = 4 * PAGE_SIZE + 15;
module_param(max_len, uint, 0444);
MODULE_PARM_DESC(max_len, "longest message in bytes (at most 6 pages)");

static unsigned long long seed;
module_param(seed, ullong, 0444);
MODULE_PARM_DESC(seed, "random seed (0: a random one)");

struct fuzz_buffers {
	struct crypto_cipher *ref;	/* sm4-generic, one block at a time */
	u8 *src;			/* FUZZ_BUF_SIZE, physically contiguous */
	u8 *dst;			/* the same, for out-of-place requests */
	u8 *in;				/* the message's input, linear */
	u8 *want;			/* the reference's output */
	u8 *out;			/* the driver's output, collected */
};

/* One message: what was sent, for the failure line. */
struct fuzz_msg {
	unsigned int len;
	unsigned int soff, doff;	/* byte offsets in the buffers */
	unsigned int nreq;
	unsigned int cut[FUZZ_MAX_REQS + 1];	/* request boundaries */
	unsigned int nsg;		/* scatterlist entries, all requests */
	bool enc, inplace, nosimd, sleep;
};

/* What a message found. */
enum fuzz_verdict {
	FUZZ_OK,
	FUZZ_ERROR,		/* setkey or a request returned an error */
	FUZZ_BAD_IV,		/* a request left a wrong IV */
	FUZZ_BAD_OUTPUT,	/* the output differs from the reference */
	FUZZ_BAD_GUARD,		/* bytes outside the output, or the source, changed */
	FUZZ_NUM_VERDICTS
};

struct fuzz_stats {
	unsigned int msgs, enc, inplace, chained, nosimd, multipage, sg_split;
	unsigned int bad, found[FUZZ_NUM_VERDICTS];
};

/* splitmix64: a fast, seedable stream, so that a seed replays a run. */
static u64 fuzz_state;

static u32 fuzz_rand(void)
{
	u64 z = (fuzz_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (u32)((z ^ (z >> 31)) >> 32);
}

/* A number in 0 .. n - 1 (n > 0). */
static u32 fuzz_below(u32 n)
{
	return fuzz_rand() % n;
}

static void fuzz_bytes(u8 *p, unsigned int n)
{
	u32 r = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!(i & 3))
			r = fuzz_rand();
		p[i] = r;
		r >>= 8;
	}
}

/*
 * CFB over the single-block cipher: @out = CFB(@in) under @iv for @len
 * bytes (a partial final block XORed with the encryption of the last
 * full ciphertext block).
 */
static void ref_cfb(struct crypto_cipher *ref, bool enc, const u8 *iv,
		    const u8 *in, u8 *out, unsigned int len)
{
	u8 ks[FUZZ_BLOCK];
	const u8 *chain = iv;
	unsigned int i, n;

	for (i = 0; i < len; i += n) {
		n = min_t(unsigned int, FUZZ_BLOCK, len - i);
		crypto_cipher_encrypt_one(ref, ks, chain);
		crypto_xor_cpy(out + i, in + i, ks, n);
		chain = enc ? out + i : in + i;
	}
	memzero_explicit(ks, sizeof(ks));
}

/*
 * The IV a request leaves after the message's first @end bytes: the last
 * full ciphertext block, the message's IV before the first.
 */
static const u8 *ref_chain(const struct fuzz_buffers *fb, bool enc,
			   const u8 *iv, unsigned int end)
{
	unsigned int full = end / FUZZ_BLOCK * FUZZ_BLOCK;

	if (!full)
		return iv;
	return (enc ? fb->want : fb->in) + full - FUZZ_BLOCK;
}

/*
 * The reference itself, against draft-ribose-cfrg-sm4-10 A.2.4.1 (CFB,
 * also in the kernel's testmgr.h up to 6.7): both directions.
 */
static int ref_selftest(struct crypto_cipher *ref)
{
	static const u8 key[FUZZ_BLOCK] = {
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
		0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
	};
	static const u8 iv[FUZZ_BLOCK] = {
		0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
		0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	};
	static const u8 pt[32] = {
		0xaa, 0xaa, 0xaa, 0xaa, 0xbb, 0xbb, 0xbb, 0xbb,
		0xcc, 0xcc, 0xcc, 0xcc, 0xdd, 0xdd, 0xdd, 0xdd,
		0xee, 0xee, 0xee, 0xee, 0xff, 0xff, 0xff, 0xff,
		0xaa, 0xaa, 0xaa, 0xaa, 0xbb, 0xbb, 0xbb, 0xbb,
	};
	static const u8 ct[32] = {
		0xac, 0x32, 0x36, 0xcb, 0x86, 0x1d, 0xd3, 0x16,
		0xe6, 0x41, 0x3b, 0x4e, 0x3c, 0x75, 0x24, 0xb7,
		0x69, 0xd4, 0xc5, 0x4e, 0xd4, 0x33, 0xb9, 0xa0,
		0x34, 0x60, 0x09, 0xbe, 0xb3, 0x7b, 0x2b, 0x3f,
	};
	u8 buf[32];
	int err;

	err = crypto_cipher_setkey(ref, key, sizeof(key));
	if (err)
		return err;
	ref_cfb(ref, true, iv, pt, buf, sizeof(pt));
	if (memcmp(buf, ct, sizeof(ct)))
		return -EBADMSG;
	/* 20 bytes: the partial block too. */
	ref_cfb(ref, false, iv, ct, buf, 20);
	if (memcmp(buf, pt, 20))
		return -EBADMSG;
	return 0;
}

/*
 * SIMD off for the request, as testmgr does it (migrate_disable() and
 * the per-CPU switch crypto_simd_usable() reads); a no-op in kernels
 * without the switch, where no message is sent with @nosimd.
 */
static void fuzz_simd_off(bool nosimd)
{
#if SM4_HAVE_SIMD_TEST_SWITCH
	if (nosimd) {
		migrate_disable();
		__this_cpu_write(crypto_simd_disabled_for_test, true);
	}
#endif
}

static void fuzz_simd_on(bool nosimd)
{
#if SM4_HAVE_SIMD_TEST_SWITCH
	if (nosimd) {
		__this_cpu_write(crypto_simd_disabled_for_test, false);
		migrate_enable();
	}
#endif
}

/* The length of message @iter: fixed edges first, then random. */
static unsigned int fuzz_len(unsigned int iter)
{
	const unsigned int edges[] = {
		1, FUZZ_BLOCK, FUZZ_BLOCK + 1, PAGE_SIZE, PAGE_SIZE + 1, max_len,
	};

	if (iter < ARRAY_SIZE(edges))
		return edges[iter];
	switch (fuzz_below(8)) {
	case 0: case 1: case 2:		/* a few blocks */
		return 1 + fuzz_below(4 * FUZZ_BLOCK);
	case 3: case 4:			/* around the widest batches */
		return 1 + fuzz_below(72 * FUZZ_BLOCK);
	case 5:				/* up to a page and a bit */
		return 1 + fuzz_below(PAGE_SIZE + 2 * FUZZ_BLOCK);
	default:			/* several pages */
		return 1 + fuzz_below(max_len);
	}
}

/*
 * A scatterlist over @n bytes at @p: 1..FUZZ_MAX_SG entries of random
 * lengths (@p at any byte of a page; entries may cross pages, the buffer
 * is physically contiguous).  Returns the number of entries.
 */
static unsigned int fuzz_sg(struct scatterlist *sg, u8 *p, unsigned int n)
{
	unsigned int nent = 1 + fuzz_below(min_t(unsigned int, n, FUZZ_MAX_SG));
	unsigned int i, len;

	sg_init_table(sg, nent);
	for (i = 0; i < nent; i++) {
		/* Leave at least one byte for each entry still to come. */
		len = i == nent - 1 ? n : 1 + fuzz_below(n - (nent - 1 - i));
		sg_set_buf(&sg[i], p, len);
		p += len;
		n -= len;
	}
	return nent;
}

/* Run message @m through @req; anything but FUZZ_OK fills @why. */
static enum fuzz_verdict fuzz_message(struct fuzz_buffers *fb, struct crypto_skcipher *tfm,
			struct skcipher_request *req, struct fuzz_msg *m,
			char *why, size_t whylen)
{
	struct scatterlist ssg[FUZZ_MAX_SG], dsg[FUZZ_MAX_SG];
	u8 key[FUZZ_BLOCK], iv0[FUZZ_BLOCK], iv[FUZZ_BLOCK];
	u8 spoison = fuzz_rand(), dpoison = spoison ^ 0xff;
	DECLARE_CRYPTO_WAIT(wait);
	unsigned int r, a, b, i, bad;
	u8 *sbase, *dbase;
	int err;

	fuzz_bytes(key, sizeof(key));
	fuzz_bytes(iv0, sizeof(iv0));
	fuzz_bytes(fb->in, m->len);
	err = crypto_cipher_setkey(fb->ref, key, sizeof(key));
	if (err) {
		snprintf(why, whylen, "sm4-generic setkey: %d", err);
		return FUZZ_ERROR;
	}
	ref_cfb(fb->ref, m->enc, iv0, fb->in, fb->want, m->len);

	fuzz_simd_off(m->nosimd);
	err = crypto_skcipher_setkey(tfm, key, sizeof(key));
	fuzz_simd_on(m->nosimd);
	memzero_explicit(key, sizeof(key));
	if (err) {
		snprintf(why, whylen, "setkey returned %d", err);
		return FUZZ_ERROR;
	}

	memset(fb->src, spoison, FUZZ_BUF_SIZE);
	sbase = fb->src + m->soff;
	memcpy(sbase, fb->in, m->len);
	if (m->inplace) {
		dbase = sbase;
	} else {
		memset(fb->dst, dpoison, FUZZ_BUF_SIZE);
		dbase = fb->dst + m->doff;
	}
	memcpy(iv, iv0, sizeof(iv));
	m->nsg = 0;
	for (r = 0; r < m->nreq; r++) {
		a = m->cut[r];
		b = m->cut[r + 1];
		m->nsg += fuzz_sg(ssg, sbase + a, b - a);
		if (!m->inplace)
			m->nsg += fuzz_sg(dsg, dbase + a, b - a);
		skcipher_request_set_callback(req, m->sleep ?
					      CRYPTO_TFM_REQ_MAY_SLEEP : 0,
					      crypto_req_done, &wait);
		skcipher_request_set_crypt(req, ssg, m->inplace ? ssg : dsg,
					   b - a, iv);
		fuzz_simd_off(m->nosimd);
		err = crypto_wait_req(m->enc ? crypto_skcipher_encrypt(req) :
				      crypto_skcipher_decrypt(req), &wait);
		fuzz_simd_on(m->nosimd);
		if (err) {
			snprintf(why, whylen, "request %u (bytes %u..%u) returned %d",
				 r + 1, a, b, err);
			return FUZZ_ERROR;
		}
		if (memcmp(iv, ref_chain(fb, m->enc, iv0, b), FUZZ_BLOCK)) {
			snprintf(why, whylen, "request %u (bytes %u..%u) left a wrong IV (not the last full ciphertext block)",
				 r + 1, a, b);
			return FUZZ_BAD_IV;
		}
	}

	memcpy(fb->out, dbase, m->len);
	if (memcmp(fb->out, fb->want, m->len)) {
		for (i = 0; fb->out[i] == fb->want[i]; i++)
			;
		for (bad = 0, r = i; r < m->len; r++)
			bad += fb->out[r] != fb->want[r];
		snprintf(why, whylen, "output differs from the reference from byte %u (block %u), %u bytes wrong",
			 i, i / FUZZ_BLOCK, bad);
		return FUZZ_BAD_OUTPUT;
	}
	/* Nothing outside the output changed, nor the source. */
	if (memchr_inv(fb->src, spoison, m->soff) ||
	    memchr_inv(sbase + m->len, spoison,
		       FUZZ_BUF_SIZE - m->soff - m->len)) {
		snprintf(why, whylen, "the source buffer changed outside the message");
		return FUZZ_BAD_GUARD;
	}
	if (!m->inplace &&
	    (memcmp(sbase, fb->in, m->len) ||
	     memchr_inv(fb->dst, dpoison, m->doff) ||
	     memchr_inv(dbase + m->len, dpoison,
			FUZZ_BUF_SIZE - m->doff - m->len))) {
		snprintf(why, whylen, "out of place: the source changed or bytes outside the output were written");
		return FUZZ_BAD_GUARD;
	}
	return FUZZ_OK;
}

/* Draw message @iter's shape. */
static void fuzz_shape(struct fuzz_msg *m, unsigned int iter, bool can_nosimd)
{
	unsigned int nblocks, r, want;

	memset(m, 0, sizeof(*m));
	m->len = fuzz_len(iter);
	m->enc = fuzz_below(2);
	m->inplace = !fuzz_below(3);
	m->nosimd = can_nosimd && !fuzz_below(4);
	m->sleep = fuzz_below(2);
	m->soff = fuzz_below(PAGE_SIZE);
	m->doff = fuzz_below(PAGE_SIZE);
	/*
	 * Half the messages in 2..4 requests; every boundary but the end a
	 * whole number of blocks (CFB carries its IV only at block
	 * boundaries), increasing.
	 */
	nblocks = (m->len - 1) / FUZZ_BLOCK;
	want = fuzz_below(2) ? 2 + fuzz_below(FUZZ_MAX_REQS - 1) : 1;
	m->cut[0] = 0;
	m->nreq = 0;
	while (m->nreq + 1 < want && nblocks > 0) {
		r = m->cut[m->nreq] / FUZZ_BLOCK + 1 +
		    fuzz_below(nblocks - m->cut[m->nreq] / FUZZ_BLOCK);
		if (r > nblocks)
			break;
		m->cut[++m->nreq] = r * FUZZ_BLOCK;
		if (r == nblocks)
			break;
	}
	m->cut[++m->nreq] = m->len;
}

/* "a+b+c": the lengths of @m's requests, for a failure line. */
static const char *fuzz_cuts(const struct fuzz_msg *m, char *buf, size_t size)
{
	unsigned int r;
	int n = 0;

	buf[0] = 0;
	for (r = 0; r < m->nreq; r++)
		n += scnprintf(buf + n, size - n, "%s%u", r ? "+" : "",
			       m->cut[r + 1] - m->cut[r]);
	return buf;
}

/* Fuzz one driver; true if every message passed. */
static bool fuzz_driver(struct fuzz_buffers *fb, const char *name)
{
	struct crypto_skcipher *tfm;
	struct skcipher_request *req;
	struct fuzz_stats st = {};
	struct fuzz_msg m;
	char why[160], cuts[48];
	const char *drv;
	enum fuzz_verdict v;
	unsigned int iter;

	tfm = crypto_alloc_skcipher(name, 0, 0);
	if (IS_ERR(tfm)) {
		pr_err("FAIL %s: cannot allocate: %ld\n", name, PTR_ERR(tfm));
		return false;
	}
	drv = crypto_tfm_alg_driver_name(crypto_skcipher_tfm(tfm));
	if (strcmp(crypto_tfm_alg_name(crypto_skcipher_tfm(tfm)), "cfb(sm4)") ||
	    strcmp(drv, name) || crypto_skcipher_ivsize(tfm) != FUZZ_BLOCK) {
		pr_err("FAIL %s: allocated %s (%s), iv size %u: not the cfb(sm4) driver asked for\n",
		       name, drv, crypto_tfm_alg_name(crypto_skcipher_tfm(tfm)),
		       crypto_skcipher_ivsize(tfm));
		crypto_free_skcipher(tfm);
		return false;
	}
	req = skcipher_request_alloc(tfm, GFP_KERNEL);
	if (!req) {
		pr_err("FAIL %s: no memory for a request\n", name);
		crypto_free_skcipher(tfm);
		return false;
	}
	for (iter = 0; iter < iterations; iter++) {
		fuzz_shape(&m, iter, SM4_HAVE_SIMD_TEST_SWITCH);
		v = fuzz_message(fb, tfm, req, &m, why, sizeof(why));
		st.found[v]++;
		st.msgs++;
		st.enc += m.enc;
		st.inplace += m.inplace;
		st.chained += m.nreq > 1;
		st.nosimd += m.nosimd;
		st.multipage += m.len > PAGE_SIZE;
		st.sg_split += m.nsg > m.nreq * (m.inplace ? 1 : 2);
		if (v != FUZZ_OK && st.bad++ < FUZZ_SHOWN)
			pr_err("%s: message %u: %s of %u bytes as %u request(s) of %s bytes, %s, %u sg entries, source at page offset %u, dest at %u, SIMD %s, %s: %s\n",
			       name, iter, m.enc ? "encryption" : "decryption",
			       m.len, m.nreq, fuzz_cuts(&m, cuts, sizeof(cuts)),
			       m.inplace ? "in place" : "out of place", m.nsg,
			       m.soff, m.inplace ? m.soff : m.doff,
			       m.nosimd ? "disabled" : "usable",
			       m.sleep ? "may sleep" : "atomic", why);
		cond_resched();
	}
	skcipher_request_free(req);
	crypto_free_skcipher(tfm);
	if (st.bad) {
		pr_err("FAIL %s: %u of %u messages differ from CFB over sm4-generic (%u in their output, %u in an IV left, %u outside the output, %u errors; seed %llu)\n",
		       name, st.bad, st.msgs, st.found[FUZZ_BAD_OUTPUT],
		       st.found[FUZZ_BAD_IV], st.found[FUZZ_BAD_GUARD],
		       st.found[FUZZ_ERROR], seed);
		return false;
	}
	pr_info("PASS %s: %u messages of 1..%u bytes (%u encrypted, %u in place, %u over 2-4 requests carrying the IV, %u multi-page, %u split over several sg entries, %u with SIMD disabled%s) equal CFB over sm4-generic, IVs and guard bytes included (seed %llu)\n",
		name, st.msgs, max_len, st.enc, st.inplace, st.chained,
		st.multipage, st.sg_split, st.nosimd,
		SM4_HAVE_SIMD_TEST_SWITCH ? "" :
		": this kernel has no switch to disable it",
		seed);
	return true;
}

static int __init cfb_fuzz_init(void)
{
	struct fuzz_buffers fb = {};
	int tested = 0, failed = 0, err = -ENOMEM;
	char *list = NULL, *cur, *name;

	if (!drivers || !*drivers) {
		pr_err("FAIL: no driver names given\n");
		return -EINVAL;
	}
	if (max_len < 1 || max_len > 6 * PAGE_SIZE || !iterations) {
		pr_err("FAIL: max_len %u (1..%lu) or iterations %u (>= 1) out of range\n",
		       max_len, 6 * PAGE_SIZE, iterations);
		return -EINVAL;
	}
	if (!seed)
		seed = get_random_u64() | 1;
	fuzz_state = seed;

	fb.ref = crypto_alloc_cipher("sm4-generic", 0, 0);
	if (IS_ERR(fb.ref)) {
		pr_err("FAIL: cannot allocate the reference cipher sm4-generic: %ld\n",
		       PTR_ERR(fb.ref));
		return PTR_ERR(fb.ref);
	}
	err = ref_selftest(fb.ref);
	if (err) {
		pr_err("FAIL: the reference (CFB over sm4-generic) fails draft-ribose-cfrg-sm4 A.2.4.1: %d\n",
		       err);
		goto out;
	}
	err = -ENOMEM;
	fb.src = (u8 *)__get_free_pages(GFP_KERNEL, FUZZ_BUF_ORDER);
	fb.dst = (u8 *)__get_free_pages(GFP_KERNEL, FUZZ_BUF_ORDER);
	fb.in = kmalloc(max_len, GFP_KERNEL);
	fb.want = kmalloc(max_len, GFP_KERNEL);
	fb.out = kmalloc(max_len, GFP_KERNEL);
	list = kstrdup(drivers, GFP_KERNEL);
	if (!fb.src || !fb.dst || !fb.in || !fb.want || !fb.out || !list) {
		pr_err("FAIL: no memory for the buffers\n");
		goto out;
	}
	cur = list;
	while ((name = sm4_test_next_name(&cur)) != NULL) {
		tested++;
		if (!fuzz_driver(&fb, name))
			failed++;
	}
	pr_info("%d passed, %d failed\n", tested - failed, failed);
	err = tested && !failed ? 0 : -EINVAL;
out:
	kfree(list);
	kfree_sensitive(fb.out);
	kfree_sensitive(fb.want);
	kfree_sensitive(fb.in);
	if (fb.dst)
		free_pages((unsigned long)fb.dst, FUZZ_BUF_ORDER);
	if (fb.src)
		free_pages((unsigned long)fb.src, FUZZ_BUF_ORDER);
	crypto_free_cipher(fb.ref);
	return err;
}

static void __exit cfb_fuzz_exit(void)
{
}

module_init(cfb_fuzz_init);
module_exit(cfb_fuzz_exit);

MODULE_DESCRIPTION("cfb(sm4) fuzzer against CFB over sm4-generic (test guests only)");
MODULE_LICENSE("GPL");
SM4_MODULE_IMPORT_CRYPTO_INTERNAL();
