// SPDX-License-Identifier: GPL-2.0
/*
 * The skcipher and cipher families of the glue: one implementation of
 * ecb/cbc/cfb/ctr/xts(sm4) and cts(cbc(sm4)) request handling and of the
 * single-block cipher, parameterised by a driver's bulk functions (see
 * include/sm4/glue.h), on the core of crypto/sm4_core.c.
 */

#include <linux/module.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <crypto/algapi.h>
#include <crypto/internal/cipher.h>
#include <crypto/internal/skcipher.h>
#include <crypto/scatterwalk.h>
#include <crypto/xts.h>
#include <sm4/compat.h>
#include <sm4/core.h>

struct sm4_xts_ctx {
	struct sm4_ctx data;
	struct sm4_ctx tweak;
};

static const char * const sm4_mode_names[SM4_NUM_MODES] = {
	[SM4_MODE_ECB] = "ecb",
	[SM4_MODE_CBC] = "cbc",
	[SM4_MODE_CFB] = "cfb",
	[SM4_MODE_CTR] = "ctr",
	[SM4_MODE_XTS] = "xts",
	[SM4_MODE_CTS] = "cts",
};

static const struct sm4_skcipher_alg *
sm4_skcipher_alg_of(struct crypto_skcipher *tfm)
{
	return container_of(crypto_skcipher_alg(tfm),
			    struct sm4_skcipher_alg, alg);
}

/* A key of @drv, expanded with its own code where SIMD is usable. */
static int sm4_glue_expandkey(const struct sm4_driver *drv, struct sm4_ctx *ctx,
			      const u8 *key, unsigned int key_len)
{
	struct sm4_impl impl = sm4_impl_wide(drv, key_len);

	return sm4_impl_expandkey(&impl, ctx, key, key_len);
}

static int sm4_skcipher_setkey(struct crypto_skcipher *tfm, const u8 *key,
			       unsigned int key_len)
{
	return sm4_glue_expandkey(sm4_skcipher_alg_of(tfm)->drv,
				  crypto_skcipher_ctx(tfm), key, key_len);
}

static int sm4_xts_setkey(struct crypto_skcipher *tfm, const u8 *key,
			  unsigned int key_len)
{
	const struct sm4_driver *drv = sm4_skcipher_alg_of(tfm)->drv;
	struct sm4_xts_ctx *ctx = crypto_skcipher_ctx(tfm);
	int err;

	if (key_len != 2 * SM4_KEY_SIZE)
		return -EINVAL;
	err = xts_verify_key(tfm, key, key_len);
	if (err)
		return err;
	err = sm4_glue_expandkey(drv, &ctx->data, key, SM4_KEY_SIZE);
	if (err)
		return err;
	return sm4_glue_expandkey(drv, &ctx->tweak, key + SM4_KEY_SIZE,
				  SM4_KEY_SIZE);
}

/* One piece of a request, in a single mode and direction. */
struct sm4_glue_job {
	struct sm4_impl impl;
	enum sm4_mode mode;
	bool enc;
	const u32 *rk;		/* the schedule this mode and direction use */
	u8 *iv;			/* chaining value, counter or tweak */
};

/*
 * Process @len bytes: a whole number of blocks, except that the final
 * piece of a CFB or CTR request may end in a partial block.
 */
static void sm4_glue_process(const struct sm4_glue_job *job, u8 *dst,
			     const u8 *src, unsigned int len)
{
	const struct sm4_mode_ops *ops = job->impl.ops;
	unsigned int nblocks = len / SM4_BLOCK_SIZE;

	switch (job->mode) {
	case SM4_MODE_ECB:
		ops->ecb(job->rk, dst, src, nblocks);
		break;
	case SM4_MODE_CBC:
		(job->enc ? ops->cbc_enc : ops->cbc_dec)(job->rk, dst, src,
							 nblocks, job->iv);
		break;
	case SM4_MODE_CFB:
		(job->enc ? sm4_mode_cfb_encrypt : sm4_mode_cfb_decrypt)
			(ops, job->rk, dst, src, len, job->iv);
		break;
	case SM4_MODE_CTR:
		sm4_mode_ctr_crypt(ops, job->rk, dst, src, len, job->iv);
		break;
	case SM4_MODE_XTS:
		(job->enc ? ops->xts_enc : ops->xts_dec)(job->rk, dst, src,
							 nblocks, job->iv);
		break;
	default:
		break;
	}
}

/*
 * Walk @req, handing the job at most SM4_SIMD_CHUNK bytes per SIMD
 * section.  @job->iv is used as the chaining state; when it is NULL the
 * walk's own IV buffer (the request's IV) is used.
 */
static int sm4_glue_walk(struct skcipher_request *req,
			 struct sm4_glue_job *job)
{
	bool stream = job->mode == SM4_MODE_CFB || job->mode == SM4_MODE_CTR;
	bool own_iv = job->iv != NULL;
	struct skcipher_walk walk;
	unsigned int nbytes;
	int err;

	err = skcipher_walk_virt(&walk, req, false);

	while ((nbytes = walk.nbytes) > 0) {
		const u8 *src = walk.src.virt.addr;
		u8 *dst = walk.dst.virt.addr;
		unsigned int todo;

		/* Only the last step of a stream mode may be partial. */
		if (stream && nbytes == walk.total)
			todo = nbytes;
		else
			todo = round_down(nbytes, SM4_BLOCK_SIZE);
		nbytes -= todo;
		if (!own_iv)
			job->iv = walk.iv;

		while (todo) {
			unsigned int n = min_t(unsigned int, todo,
					       SM4_SIMD_CHUNK);

			sm4_impl_begin(&job->impl);
			sm4_glue_process(job, dst, src, n);
			sm4_impl_end(&job->impl);
			src += n;
			dst += n;
			todo -= n;
		}
		err = skcipher_walk_done(&walk, nbytes);
	}
	return err;
}

/*
 * The first @len bytes (whole blocks) of @req through sm4_glue_walk() as
 * a subrequest chaining through req->iv.
 */
static int sm4_glue_walk_head(struct skcipher_request *req,
			      struct sm4_glue_job *job, unsigned int len)
{
	struct skcipher_request subreq;

	skcipher_request_set_tfm(&subreq, crypto_skcipher_reqtfm(req));
	skcipher_request_set_callback(&subreq, skcipher_request_flags(req),
				      NULL, NULL);
	skcipher_request_set_crypt(&subreq, req->src, req->dst, len, req->iv);
	return sm4_glue_walk(&subreq, job);
}

static int sm4_skcipher_crypt(struct skcipher_request *req, bool enc)
{
	struct crypto_skcipher *tfm = crypto_skcipher_reqtfm(req);
	const struct sm4_skcipher_alg *salg = sm4_skcipher_alg_of(tfm);
	const struct sm4_ctx *ctx = crypto_skcipher_ctx(tfm);
	struct sm4_glue_job job = {
		.impl = sm4_impl_of(salg->drv, req->cryptlen),
		.mode = salg->mode,
		.enc = enc,
	};

	switch (salg->mode) {
	case SM4_MODE_ECB:
	case SM4_MODE_CBC:
		if (req->cryptlen % SM4_BLOCK_SIZE)
			return -EINVAL;
		job.rk = enc ? ctx->rkey_enc : ctx->rkey_dec;
		break;
	default:
		/* CFB and CTR use the cipher forwards in both directions. */
		job.rk = ctx->rkey_enc;
		break;
	}
	return sm4_glue_walk(req, &job);
}

static int sm4_xts_crypt(struct skcipher_request *req, bool enc)
{
	struct crypto_skcipher *tfm = crypto_skcipher_reqtfm(req);
	const struct sm4_skcipher_alg *salg = sm4_skcipher_alg_of(tfm);
	const struct sm4_xts_ctx *ctx = crypto_skcipher_ctx(tfm);
	unsigned int tail = req->cryptlen % SM4_BLOCK_SIZE;
	unsigned int bulk_len = req->cryptlen;
	u8 tweak[SM4_BLOCK_SIZE];
	u8 buf[2 * SM4_BLOCK_SIZE];
	struct sm4_glue_job job = {
		.mode = SM4_MODE_XTS,
		.enc = enc,
		.rk = enc ? ctx->data.rkey_enc : ctx->data.rkey_dec,
		.iv = tweak,
	};
	int err = 0;

	if (req->cryptlen < SM4_BLOCK_SIZE)
		return -EINVAL;
	job.impl = sm4_impl_of(salg->drv, req->cryptlen);

	/* The tweak is the IV encrypted with the second key. */
	sm4_impl_begin(&job.impl);
	job.impl.ops->ecb(ctx->tweak.rkey_enc, tweak, req->iv, 1);
	sm4_impl_end(&job.impl);

	/* With a tail, the last full block goes with it (stealing). */
	if (tail)
		bulk_len -= SM4_BLOCK_SIZE + tail;

	if (bulk_len)
		err = sm4_glue_walk_head(req, &job, bulk_len);

	if (!err && tail) {
		unsigned int len = SM4_BLOCK_SIZE + tail;

		scatterwalk_map_and_copy(buf, req->src, bulk_len, len, 0);
		sm4_impl_begin(&job.impl);
		(enc ? sm4_mode_xts_encrypt : sm4_mode_xts_decrypt)
			(job.impl.ops, job.rk, buf, buf, len, tweak);
		sm4_impl_end(&job.impl);
		scatterwalk_map_and_copy(buf, req->dst, bulk_len, len, 1);
		memzero_explicit(buf, sizeof(buf));
	}
	memzero_explicit(tweak, sizeof(tweak));
	return err;
}

/*
 * cts(cbc(sm4)): the blocks before the last two through the CBC walk,
 * the last 17..32 bytes (or a lone block) through sm4_mode_cts_*() in a
 * stack buffer, so dst only ever receives final output.
 */
static int sm4_cts_crypt(struct skcipher_request *req, bool enc)
{
	struct crypto_skcipher *tfm = crypto_skcipher_reqtfm(req);
	const struct sm4_skcipher_alg *salg = sm4_skcipher_alg_of(tfm);
	const struct sm4_ctx *ctx = crypto_skcipher_ctx(tfm);
	unsigned int len = req->cryptlen;
	unsigned int last, bulk_len;
	u8 buf[2 * SM4_BLOCK_SIZE];
	struct sm4_glue_job job = {
		.impl = sm4_impl_of(salg->drv, len),
		.mode = SM4_MODE_CBC,
		.enc = enc,
		.rk = enc ? ctx->rkey_enc : ctx->rkey_dec,
	};
	int err;

	if (len < SM4_BLOCK_SIZE)
		return -EINVAL;

	/* The final 1..16 bytes and the full block before them. */
	last = len == SM4_BLOCK_SIZE ? SM4_BLOCK_SIZE :
	       SM4_BLOCK_SIZE + len - (len - 1) / SM4_BLOCK_SIZE *
				     SM4_BLOCK_SIZE;
	bulk_len = len - last;

	if (bulk_len) {
		err = sm4_glue_walk_head(req, &job, bulk_len);
		if (err)
			return err;
	}

	scatterwalk_map_and_copy(buf, req->src, bulk_len, last, 0);
	sm4_impl_begin(&job.impl);
	(enc ? sm4_mode_cts_encrypt : sm4_mode_cts_decrypt)
		(job.impl.ops, job.rk, buf, buf, last, req->iv);
	sm4_impl_end(&job.impl);
	scatterwalk_map_and_copy(buf, req->dst, bulk_len, last, 1);
	memzero_explicit(buf, sizeof(buf));
	return 0;
}

static int sm4_cts_encrypt(struct skcipher_request *req)
{
	return sm4_cts_crypt(req, true);
}

static int sm4_cts_decrypt(struct skcipher_request *req)
{
	return sm4_cts_crypt(req, false);
}

static int sm4_skcipher_encrypt(struct skcipher_request *req)
{
	return sm4_skcipher_crypt(req, true);
}

static int sm4_skcipher_decrypt(struct skcipher_request *req)
{
	return sm4_skcipher_crypt(req, false);
}

static int sm4_xts_encrypt(struct skcipher_request *req)
{
	return sm4_xts_crypt(req, true);
}

static int sm4_xts_decrypt(struct skcipher_request *req)
{
	return sm4_xts_crypt(req, false);
}

static void sm4_skcipher_fill(struct sm4_driver *drv,
			      enum sm4_mode mode)
{
	struct sm4_skcipher_alg *salg = &drv->algs[mode];
	struct skcipher_alg *alg = &salg->alg;
	bool xts = mode == SM4_MODE_XTS;
	bool cts = mode == SM4_MODE_CTS;
	bool stream = mode == SM4_MODE_CFB || mode == SM4_MODE_CTR;

	memset(salg, 0, sizeof(*salg));
	salg->drv = drv;
	salg->mode = mode;

	/* cts over cbc: "cts(cbc(sm4))", "cts-cbc-sm4-<name>". */
	snprintf(alg->base.cra_name, sizeof(alg->base.cra_name), "%s%s(sm4)%s",
		 sm4_mode_names[mode], cts ? "(cbc" : "", cts ? ")" : "");
	/* cts: above the cts template over this driver's cbc. */
	sm4_fill_base(&alg->base, drv, cts ? "cts-cbc" : sm4_mode_names[mode],
		      drv->priority + cts, stream ? 1 : SM4_BLOCK_SIZE,
		      xts ? sizeof(struct sm4_xts_ctx) : sizeof(struct sm4_ctx));

	alg->min_keysize = xts ? 2 * SM4_KEY_SIZE : SM4_KEY_SIZE;
	alg->max_keysize = alg->min_keysize;
	alg->ivsize = mode == SM4_MODE_ECB ? 0 : SM4_BLOCK_SIZE;
	alg->chunksize = SM4_BLOCK_SIZE;
	alg->setkey = xts ? sm4_xts_setkey : sm4_skcipher_setkey;
	alg->encrypt = xts ? sm4_xts_encrypt : sm4_skcipher_encrypt;
	alg->decrypt = xts ? sm4_xts_decrypt : sm4_skcipher_decrypt;
	if (cts) {
		alg->walksize = 2 * SM4_BLOCK_SIZE;
		alg->encrypt = sm4_cts_encrypt;
		alg->decrypt = sm4_cts_decrypt;
	}
}

/* ---- The single-block cipher "sm4" -------------------------------- */

static const struct sm4_driver *sm4_cipher_drv(struct crypto_tfm *tfm)
{
	return container_of(crypto_cipher_alg(__crypto_cipher_cast(tfm)),
			    struct sm4_driver, cipher.cra_cipher);
}

static int sm4_cipher_setkey(struct crypto_tfm *tfm, const u8 *key,
			     unsigned int key_len)
{
	return sm4_glue_expandkey(sm4_cipher_drv(tfm), crypto_tfm_ctx(tfm),
				  key, key_len);
}

static void sm4_cipher_crypt(struct crypto_tfm *tfm, u8 *out, const u8 *in,
			     bool enc)
{
	const struct sm4_ctx *ctx = crypto_tfm_ctx(tfm);
	const u32 *rk = enc ? ctx->rkey_enc : ctx->rkey_dec;
	struct sm4_impl impl = sm4_impl_of(sm4_cipher_drv(tfm), SM4_BLOCK_SIZE);

	sm4_impl_begin(&impl);
	impl.ops->ecb(rk, out, in, 1);
	sm4_impl_end(&impl);
}

static void sm4_cipher_encrypt(struct crypto_tfm *tfm, u8 *out, const u8 *in)
{
	sm4_cipher_crypt(tfm, out, in, true);
}

static void sm4_cipher_decrypt(struct crypto_tfm *tfm, u8 *out, const u8 *in)
{
	sm4_cipher_crypt(tfm, out, in, false);
}

static void sm4_cipher_fill(struct sm4_driver *drv)
{
	struct crypto_alg *alg = &drv->cipher;

	memset(alg, 0, sizeof(*alg));
	strscpy(alg->cra_name, "sm4", sizeof(alg->cra_name));
	sm4_fill_base(alg, drv, NULL, drv->cipher_priority, SM4_BLOCK_SIZE,
		      sizeof(struct sm4_ctx));
	alg->cra_flags = CRYPTO_ALG_TYPE_CIPHER;
	alg->cra_u.cipher.cia_min_keysize = SM4_KEY_SIZE;
	alg->cra_u.cipher.cia_max_keysize = SM4_KEY_SIZE;
	alg->cra_u.cipher.cia_setkey = sm4_cipher_setkey;
	alg->cra_u.cipher.cia_encrypt = sm4_cipher_encrypt;
	alg->cra_u.cipher.cia_decrypt = sm4_cipher_decrypt;
}

/* ---- Registration ------------------------------------------------- */

int sm4_cipher_register(struct sm4_driver *drv)
{
	int err;

	if (!drv->cipher_priority)
		return 0;
	sm4_cipher_fill(drv);
	err = crypto_register_alg(&drv->cipher);
	if (err)
		return sm4_register_failed(&drv->cipher, err);
	drv->cipher_registered = true;
	return 0;
}

void sm4_cipher_unregister(struct sm4_driver *drv)
{
	if (!drv->cipher_registered)
		return;
	crypto_unregister_alg(&drv->cipher);
	drv->cipher_registered = false;
}

int sm4_skciphers_register(struct sm4_driver *drv)
{
	enum sm4_mode mode;
	int err;

	for (mode = 0; mode < SM4_NUM_MODES; mode++) {
		if (!(drv->mode_mask & (1U << mode)))
			continue;
		sm4_skcipher_fill(drv, mode);
		err = crypto_register_skcipher(&drv->algs[mode].alg);
		if (err) {
			sm4_skciphers_unregister(drv);
			return sm4_register_failed(&drv->algs[mode].alg.base,
						   err);
		}
		drv->algs[mode].registered = true;
	}
	return 0;
}

void sm4_skciphers_unregister(struct sm4_driver *drv)
{
	enum sm4_mode mode;

	for (mode = 0; mode < SM4_NUM_MODES; mode++) {
		if (!drv->algs[mode].registered)
			continue;
		crypto_unregister_skcipher(&drv->algs[mode].alg);
		drv->algs[mode].registered = false;
	}
}
