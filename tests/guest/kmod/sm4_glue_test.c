// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: the AEAD and MAC glue of one driver, in the kernel.
 *
 *   insmod sm4_glue_test.ko alg=gcm-sm4-aesni-avx2 [cases=N]
 *   (alg: a gcm-sm4-*, ccm-sm4-* or cmac-sm4-* driver name)
 *
 * Every request is checked against the kernel's own template over
 * sm4-generic (gcm_base(ctr(sm4-generic),ghash-generic or ghash-lib),
 * ccm_base(ctr(sm4-generic),cbcmac(sm4-generic)), cmac(sm4-generic)) on
 * one linear buffer:
 *   - gcm and ccm: requests with the associated data and the text of up
 *     to 9 KiB (across the glue's 4 KiB SIMD sections) split into
 *     scatterlists of many entries (1..16 bytes each, or 1..600 crossing
 *     page boundaries, or one), with random bytes between the entries (a
 *     walk that strays off an entry reads them), in place and not, both
 *     directions, and a flipped tag bit refused with -EBADMSG and nothing
 *     written;
 *   - gcm: its key is set where SIMD is not usable (x86: inside
 *     kernel_fpu_begin(); arm64: in a hard interrupt, an irq_work), so
 *     that setkey can make no table of H powers; the requests that
 *     follow, with SIMD, must make it and run the driver's GHASH (the
 *     suite counts entries into <prefix>_gcm_init, _ghash and _gcm_enc,
 *     tests/guest/suite.sh); then keyed so again, requests on every
 *     online CPU at once on the one tfm;
 *   - cmac: digests of random lengths.
 * The module's own requests run where SIMD is usable, on the driver's
 * code (or, with the glue built with -DSM4_TEST_SILENT_FALLBACK, on the
 * portable one: the suite's entry counts must notice).  One
 * "sm4-gluetest: PASS ..." or "FAIL ..." line per check; loading fails
 * with -EINVAL if one failed.
 */

#define pr_fmt(fmt) "sm4-gluetest: " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <crypto/aead.h>
#include <crypto/hash.h>
#include <asm/simd.h>
#include <crypto/internal/simd.h>
#ifdef CONFIG_X86
#include <asm/fpu/api.h>
#endif

static char *alg = "";
module_param(alg, charp, 0444);
MODULE_PARM_DESC(alg, "driver name: gcm-sm4-*, ccm-sm4-* or cmac-sm4-*");

static unsigned int cases = 16;
module_param(cases, uint, 0444);
MODULE_PARM_DESC(cases, "random cases (default 16)");

#define GT_MAX_AAD	4400
#define GT_MAX_TEXT	9300
#define GT_TAG		16
#define GT_BUF_ORDER	2		/* 16 KiB: AAD, text and tag */
#define GT_KEY		16

/* ---- SIMD not usable ------------------------------------------------- */

/*
 * Run @fn(@arg) where crypto_simd_usable() is false, as in an interrupt
 * that hit SIMD code: x86 inside a kernel-mode FPU section; arm64 in a
 * hard interrupt (an irq_work on this CPU: 7.2's may_use_simd() is false
 * only there).  Returns false if SIMD stayed usable (@fn not run).
 */
struct gt_hardirq {
	struct irq_work work;
	void (*fn)(void *arg);
	void *arg;
	bool ran;
};

static void __maybe_unused gt_hardirq_fn(struct irq_work *w)
{
	struct gt_hardirq *h = container_of(w, struct gt_hardirq, work);

	h->ran = !crypto_simd_usable();
	if (h->ran)
		h->fn(h->arg);
}

static bool gt_without_simd(void (*fn)(void *arg), void *arg)
{
	struct gt_hardirq h = { .fn = fn, .arg = arg };

#ifdef CONFIG_X86
	kernel_fpu_begin();
	h.ran = !crypto_simd_usable();
	if (h.ran)
		fn(arg);
	kernel_fpu_end();
#else
	init_irq_work(&h.work, gt_hardirq_fn);
	irq_work_queue(&h.work);
	irq_work_sync(&h.work);
#endif
	return h.ran;
}

static unsigned int gt_rand(unsigned int n)
{
	return n ? get_random_u32() % n : 0;
}

/* ---- Scatterlists of many entries ----------------------------------- */

#define GT_BACK_ORDER	3		/* 32 KiB behind each list */

/* A list over its own backing pages, entries apart from each other. */
struct gt_sgl {
	struct scatterlist *sg;
	unsigned int nents, len;
	u8 *back;
};

/*
 * @len bytes as a list of pieces of @l->back: style 0 1..16 bytes each,
 * style 1 1..600 (crossing page boundaries), style 2 one entry; 0..2
 * random bytes between two pieces.
 */
static int gt_split(struct gt_sgl *l, unsigned int len, unsigned int style)
{
	unsigned int max = style == 0 ? 16 : 600;
	unsigned int off, pos = 0, n, i;

	kvfree(l->sg);
	l->sg = kvmalloc_array(len + 1, sizeof(*l->sg), GFP_KERNEL);
	if (!l->sg)
		return -ENOMEM;
	get_random_bytes(l->back, PAGE_SIZE << GT_BACK_ORDER);
	sg_init_table(l->sg, len + 1);
	for (off = 0, i = 0; off < len; off += n, pos += n, i++) {
		n = style == 2 ? len : min(len - off, 1 + gt_rand(max));
		pos += i ? gt_rand(3) : 0;
		if (pos + n > PAGE_SIZE << GT_BACK_ORDER)
			return -ENOSPC;
		sg_set_buf(&l->sg[i], l->back + pos, n);
	}
	if (!i)
		sg_set_buf(&l->sg[i++], l->back, 0);
	sg_mark_end(&l->sg[i - 1]);
	l->nents = i;
	l->len = len;
	return 0;
}

static void gt_put(struct gt_sgl *l, const u8 *buf, unsigned int n)
{
	sg_copy_from_buffer(l->sg, l->nents, buf, n);
}

static void gt_get(struct gt_sgl *l, u8 *buf)
{
	sg_copy_to_buffer(l->sg, l->nents, buf, l->len);
}

/* ---- AEADs -------------------------------------------------------------- */

struct gt_aead {
	struct crypto_aead *tfm, *rtfm;		/* the driver, the reference */
	struct aead_request *req, *rreq;
	bool ccm;
	unsigned int authsize;
	/* 2^GT_BUF_ORDER pages each */
	u8 *plain, *ref, *got, *was;
	struct gt_sgl s, d;
};

static void gt_iv(const struct gt_aead *a, u8 *iv)
{
	get_random_bytes(iv, 16);
	if (a->ccm) {
		iv[0] = 3;			/* L = 4 */
		memset(iv + 12, 0, 4);
	}
}

static int gt_aead_do(struct aead_request *req, bool enc,
		      struct scatterlist *src, struct scatterlist *dst,
		      unsigned int assoclen, unsigned int cryptlen, const u8 *iv)
{
	u8 ivc[16];

	memcpy(ivc, iv, sizeof(ivc));
	aead_request_set_callback(req, 0, NULL, NULL);
	aead_request_set_crypt(req, src, dst, cryptlen, ivc);
	aead_request_set_ad(req, assoclen);
	return enc ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req);
}

/* A request of the driver under test. */
static int gt_aead_run(struct gt_aead *a, bool enc, struct scatterlist *src,
		       struct scatterlist *dst, unsigned int assoclen,
		       unsigned int cryptlen, const u8 *iv)
{
	return gt_aead_do(a->req, enc, src, dst, assoclen, cryptlen, iv);
}

/*
 * The reference: a->plain (AAD || text) encrypted by the kernel's
 * template in one linear buffer, into a->ref (AAD || ciphertext || tag).
 */
static const char *gt_aead_ref(struct gt_aead *a, unsigned int assoclen,
			       unsigned int textlen, const u8 *iv)
{
	struct scatterlist sg;

	memcpy(a->ref, a->plain, assoclen + textlen);
	sg_init_one(&sg, a->ref, assoclen + textlen + a->authsize);
	if (gt_aead_do(a->rreq, true, &sg, &sg, assoclen, textlen, iv))
		return "the reference encryption failed";
	return NULL;
}

/* A length: short, around @around, twice @around, or up to 3 * @small. */
static unsigned int gt_len(unsigned int small, unsigned int around,
			   unsigned int max)
{
	unsigned int n;

	switch (gt_rand(4)) {
	case 0:
		n = gt_rand(small + 1);
		break;
	case 1:
		n = around - 8 + gt_rand(200);
		break;
	case 2:
		n = 2 * around + gt_rand(900);
		break;
	default:
		n = gt_rand(3 * small);
		break;
	}
	return min(n, max);
}

/* Fresh lists: src of @slen bytes holding @in, dst of @dlen. */
static int gt_lists(struct gt_aead *a, unsigned int slen, unsigned int dlen,
		    const u8 *in, unsigned int inlen, unsigned int *nents)
{
	int err;

	err = gt_split(&a->s, slen, gt_rand(3));
	if (!err)
		err = gt_split(&a->d, dlen, gt_rand(3));
	if (err)
		return err;
	gt_put(&a->s, in, inlen);
	*nents += a->s.nents + a->d.nents;
	return 0;
}

/*
 * One random case: encryption and decryption over split lists, in place
 * or not, against the reference, and a flipped tag bit refused without
 * a byte written.  Returns NULL or what went wrong; adds the bytes
 * processed to @bytes and the list entries used to @nents.
 */
static const char *gt_aead_case(struct gt_aead *a, unsigned int *bytes,
				unsigned int *nents)
{
	unsigned int assoclen = gt_len(48, 4096, GT_MAX_AAD);
	unsigned int textlen = gt_len(64, 4096, GT_MAX_TEXT);
	unsigned int total = assoclen + textlen + a->authsize;
	bool inplace = gt_rand(2);
	struct gt_sgl *out = inplace ? &a->s : &a->d;
	const char *why;
	u8 iv[16];
	int err;

	gt_iv(a, iv);
	get_random_bytes(a->plain, assoclen + textlen);
	why = gt_aead_ref(a, assoclen, textlen, iv);
	if (why)
		return why;

	/* Encryption: src AAD || text, dst AAD || ciphertext || tag. */
	if (gt_lists(a, inplace ? total : total - a->authsize, total,
		     a->plain, assoclen + textlen, nents))
		return "cannot build the lists";
	err = gt_aead_run(a, true, a->s.sg, out->sg, assoclen, textlen, iv);
	if (err)
		return "encryption failed";
	gt_get(out, a->got);
	if (memcmp(a->got + assoclen, a->ref + assoclen, textlen + a->authsize))
		return "encryption: ciphertext or tag differs from the reference's";

	/* Decryption of the reference's output, split anew. */
	if (gt_lists(a, total, total, a->ref, total, nents))
		return "cannot build the lists";
	err = gt_aead_run(a, false, a->s.sg, out->sg, assoclen,
			  textlen + a->authsize, iv);
	if (err)
		return "decryption of the reference's output failed";
	gt_get(out, a->got);
	if (memcmp(a->got + assoclen, a->plain + assoclen, textlen))
		return "decryption: plaintext differs";

	/* A flipped tag bit: -EBADMSG, and nothing written. */
	memcpy(a->got, a->ref, total);
	a->got[assoclen + textlen + gt_rand(a->authsize)] ^= 1 << gt_rand(8);
	if (gt_lists(a, total, total, a->got, total, nents))
		return "cannot build the lists";
	gt_get(out, a->was);
	err = gt_aead_run(a, false, a->s.sg, out->sg, assoclen,
			  textlen + a->authsize, iv);
	if (err != -EBADMSG)
		return "a flipped tag bit was not refused with -EBADMSG";
	gt_get(out, a->got);
	if (memcmp(a->got, a->was, total))
		return "a refused decryption wrote to its destination";
	*bytes += 2 * (assoclen + textlen);
	return NULL;
}

static void gt_aead_free(struct gt_aead *a)
{
	kvfree(a->s.sg);
	kvfree(a->d.sg);
	free_pages((unsigned long)a->s.back, GT_BACK_ORDER);
	free_pages((unsigned long)a->d.back, GT_BACK_ORDER);
	free_pages((unsigned long)a->plain, GT_BUF_ORDER);
	free_pages((unsigned long)a->ref, GT_BUF_ORDER);
	free_pages((unsigned long)a->got, GT_BUF_ORDER);
	free_pages((unsigned long)a->was, GT_BUF_ORDER);
	aead_request_free(a->req);
	aead_request_free(a->rreq);
	if (!IS_ERR_OR_NULL(a->tfm))
		crypto_free_aead(a->tfm);
	if (!IS_ERR_OR_NULL(a->rtfm))
		crypto_free_aead(a->rtfm);
}

/*
 * The kernel's gcm template over sm4-generic: its GHASH is ghash-generic,
 * or where GHASH is a library (7.x) the name gcm_base gives it.
 */
static struct crypto_aead *gt_ref_gcm(void)
{
	struct crypto_aead *t;

	t = crypto_alloc_aead("gcm_base(ctr(sm4-generic),ghash-generic)", 0,
			      CRYPTO_ALG_ASYNC);
	if (IS_ERR(t))
		t = crypto_alloc_aead("gcm_base(ctr(sm4-generic),ghash-lib)", 0,
				      CRYPTO_ALG_ASYNC);
	return t;
}

static int gt_aead_alloc(struct gt_aead *a, const char *name)
{
	memset(a, 0, sizeof(*a));
	a->ccm = !strncmp(name, "ccm-", 4);
	/* Synchronous only: requests complete in the call. */
	a->tfm = crypto_alloc_aead(name, 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(a->tfm))
		return PTR_ERR(a->tfm);
	a->rtfm = a->ccm ?
		crypto_alloc_aead("ccm_base(ctr(sm4-generic),cbcmac(sm4-generic))",
				  0, CRYPTO_ALG_ASYNC) : gt_ref_gcm();
	if (IS_ERR(a->rtfm))
		return PTR_ERR(a->rtfm);
	a->req = aead_request_alloc(a->tfm, GFP_KERNEL);
	a->rreq = aead_request_alloc(a->rtfm, GFP_KERNEL);
	a->plain = (u8 *)__get_free_pages(GFP_KERNEL, GT_BUF_ORDER);
	a->ref = (u8 *)__get_free_pages(GFP_KERNEL, GT_BUF_ORDER);
	a->got = (u8 *)__get_free_pages(GFP_KERNEL, GT_BUF_ORDER);
	a->was = (u8 *)__get_free_pages(GFP_KERNEL, GT_BUF_ORDER);
	a->s.back = (u8 *)__get_free_pages(GFP_KERNEL, GT_BACK_ORDER);
	a->d.back = (u8 *)__get_free_pages(GFP_KERNEL, GT_BACK_ORDER);
	if (!a->req || !a->rreq || !a->plain || !a->ref || !a->got ||
	    !a->was || !a->s.back || !a->d.back)
		return -ENOMEM;
	return 0;
}

struct gt_setkey {
	struct crypto_aead *tfm;
	const u8 *key;
	int err;
};

static void gt_setkey_fn(void *arg)
{
	struct gt_setkey *k = arg;

	k->err = crypto_aead_setkey(k->tfm, k->key, GT_KEY);
}

/*
 * Set @key on the driver where SIMD is not usable (no table of H powers
 * can be made), and on the reference.
 */
static const char *gt_setkey_nosimd(struct gt_aead *a, const u8 *key)
{
	struct gt_setkey k = { .tfm = a->tfm, .key = key };

	if (!gt_without_simd(gt_setkey_fn, &k))
		return "SIMD stayed usable where the setkey was to run without it";
	if (k.err)
		return "setkey without SIMD failed";
	if (crypto_aead_setkey(a->rtfm, key, GT_KEY))
		return "the reference's setkey failed";
	return NULL;
}

/* ---- gcm: requests on every CPU after a setkey without SIMD ---------- */

#define GT_PAR_MSGS	8
#define GT_PAR_LEN	2048

struct gt_par {
	struct work_struct work;
	struct gt_aead *shared;		/* the tfm and the reference */
	struct aead_request *req;
	u8 *buf;
	const u8 *iv;
	unsigned int bad;
};

static void gt_par_work(struct work_struct *w)
{
	struct gt_par *p = container_of(w, struct gt_par, work);
	struct gt_aead *a = p->shared;
	struct scatterlist sg;
	unsigned int i;
	u8 ivc[16];

	for (i = 0; i < GT_PAR_MSGS; i++) {
		memcpy(p->buf, a->plain, GT_PAR_LEN);
		memcpy(ivc, p->iv, sizeof(ivc));
		sg_init_one(&sg, p->buf, GT_PAR_LEN + a->authsize);
		aead_request_set_callback(p->req, 0, NULL, NULL);
		aead_request_set_crypt(p->req, &sg, &sg, GT_PAR_LEN, ivc);
		aead_request_set_ad(p->req, 0);
		if (crypto_aead_encrypt(p->req) ||
		    memcmp(p->buf, a->ref, GT_PAR_LEN + a->authsize))
			p->bad++;
	}
}

static const char *gt_gcm_parallel(struct gt_aead *a, const u8 *key,
				   unsigned int *ncpu)
{
	struct gt_par *par;
	const char *why = NULL;
	unsigned int cpu, n = 0, bad = 0;
	u8 iv[16];

	gt_iv(a, iv);
	get_random_bytes(a->plain, GT_PAR_LEN);
	why = gt_setkey_nosimd(a, key);
	if (!why)
		why = gt_aead_ref(a, 0, GT_PAR_LEN, iv);
	if (why)
		return why;
	par = kcalloc(nr_cpu_ids, sizeof(*par), GFP_KERNEL);
	if (!par)
		return "out of memory";
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct gt_par *p = &par[cpu];

		p->shared = a;
		p->iv = iv;
		p->req = aead_request_alloc(a->tfm, GFP_KERNEL);
		p->buf = kmalloc(GT_PAR_LEN + GT_TAG, GFP_KERNEL);
		if (!p->req || !p->buf) {
			why = "out of memory";
			continue;
		}
		INIT_WORK(&p->work, gt_par_work);
		schedule_work_on(cpu, &p->work);
		n++;
	}
	for_each_online_cpu(cpu) {
		if (par[cpu].req && par[cpu].buf)
			flush_work(&par[cpu].work);
		bad += par[cpu].bad;
		aead_request_free(par[cpu].req);
		kfree(par[cpu].buf);
	}
	cpus_read_unlock();
	kfree(par);
	*ncpu = n;
	if (!why && bad)
		why = "requests on several CPUs at once after a setkey without SIMD gave wrong results";
	return why;
}

static bool gt_aead_test(const char *name)
{
	struct gt_aead a;
	unsigned int i, bytes = 0, nents = 0, ncpu = 0;
	const char *why = NULL;
	const char *drv, *rdrv;
	bool gcm = !strncmp(name, "gcm-", 4);
	u8 key[GT_KEY];
	int err;

	err = gt_aead_alloc(&a, name);
	if (err) {
		pr_err("FAIL %s: cannot allocate it or its reference: %d\n",
		       name, err);
		gt_aead_free(&a);
		return false;
	}
	drv = crypto_tfm_alg_driver_name(crypto_aead_tfm(a.tfm));
	rdrv = crypto_tfm_alg_driver_name(crypto_aead_tfm(a.rtfm));
	get_random_bytes(key, sizeof(key));
	a.authsize = GT_TAG;
	if (crypto_aead_setauthsize(a.tfm, a.authsize) ||
	    crypto_aead_setauthsize(a.rtfm, a.authsize))
		why = "setauthsize failed";
	else if (gcm)
		why = gt_setkey_nosimd(&a, key);
	else if (crypto_aead_setkey(a.tfm, key, GT_KEY) ||
		 crypto_aead_setkey(a.rtfm, key, GT_KEY))
		why = "setkey failed";
	for (i = 0; !why && i < cases; i++)
		why = gt_aead_case(&a, &bytes, &nents);
	if (!why && gcm)
		why = gt_gcm_parallel(&a, key, &ncpu);
	memzero_explicit(key, sizeof(key));
	if (why)
		pr_err("FAIL %s (%s): case %u: %s\n", name, drv, i, why);
	else if (gcm)
		pr_info("PASS %s (%s): %u cases keyed where SIMD was not usable, %u bytes over %u scatterlist entries, in place and not, equal to %s's; flipped tag bits refused, nothing written; then requests on %u CPUs at once after such a setkey\n",
			name, drv, cases, bytes, nents, rdrv, ncpu);
	else
		pr_info("PASS %s (%s): %u cases, %u bytes over %u scatterlist entries, in place and not, equal to %s's; flipped tag bits refused, nothing written\n",
			name, drv, cases, bytes, nents, rdrv);
	gt_aead_free(&a);
	return !why;
}

/* ---- cmac ---------------------------------------------------------------- */

static bool gt_mac_test(const char *name)
{
	struct crypto_shash *tfm, *rtfm;
	unsigned int i, len = 0, bytes = 0;
	const char *why = NULL;
	const char *drv, *rdrv = "?";
	u8 key[GT_KEY], want[16], got[16];
	u8 *buf;

	tfm = crypto_alloc_shash(name, 0, 0);
	if (IS_ERR(tfm)) {
		pr_err("FAIL %s: cannot allocate: %ld\n", name, PTR_ERR(tfm));
		return false;
	}
	drv = crypto_tfm_alg_driver_name(crypto_shash_tfm(tfm));
	rtfm = crypto_alloc_shash("cmac(sm4-generic)", 0, 0);
	buf = kmalloc(GT_MAX_TEXT, GFP_KERNEL);
	get_random_bytes(key, sizeof(key));
	if (IS_ERR(rtfm))
		why = "cannot allocate the reference cmac(sm4-generic)";
	else if (!buf)
		why = "out of memory";
	else if (crypto_shash_setkey(tfm, key, GT_KEY) ||
		 crypto_shash_setkey(rtfm, key, GT_KEY))
		why = "setkey failed";
	if (!IS_ERR(rtfm))
		rdrv = crypto_tfm_alg_driver_name(crypto_shash_tfm(rtfm));
	for (i = 0; !why && i < cases; i++) {
		len = gt_len(64, 4096, GT_MAX_TEXT);
		get_random_bytes(buf, len);
		if (crypto_shash_tfm_digest(rtfm, buf, len, want))
			why = "the reference digest failed";
		else if (crypto_shash_tfm_digest(tfm, buf, len, got))
			why = "digest failed";
		else if (memcmp(got, want, sizeof(got)))
			why = "digest differs from the reference's";
		bytes += len;
	}
	memzero_explicit(key, sizeof(key));
	if (why)
		pr_err("FAIL %s (%s): case %u (%u bytes): %s\n", name, drv, i,
		       len, why);
	else
		pr_info("PASS %s (%s): %u digests, %u bytes, equal to %s's\n",
			name, drv, cases, bytes, rdrv);
	kfree(buf);
	if (!IS_ERR(rtfm))
		crypto_free_shash(rtfm);
	crypto_free_shash(tfm);
	return !why;
}

static int __init gt_init(void)
{
	bool ok;

	if (!strncmp(alg, "gcm-", 4) || !strncmp(alg, "ccm-", 4)) {
		ok = gt_aead_test(alg);
	} else if (!strncmp(alg, "cmac-", 5)) {
		ok = gt_mac_test(alg);
	} else {
		pr_err("FAIL: alg=%s is no gcm-, ccm- or cmac- driver name\n",
		       alg);
		ok = false;
	}
	return ok ? 0 : -EINVAL;
}

static void __exit gt_exit(void)
{
}

module_init(gt_init);
module_exit(gt_exit);

MODULE_DESCRIPTION("SM4 AEAD and MAC glue test (test guests only)");
MODULE_LICENSE("GPL");
