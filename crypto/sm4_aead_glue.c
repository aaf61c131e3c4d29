// SPDX-License-Identifier: GPL-2.0
/*
 * gcm(sm4) for every driver with GHASH functions (include/sm4/gcm.h):
 * the scatterlist walks, SIMD sections and fallback around the linear
 * GCM code of crypto/sm4_gcm.c.
 *
 * Encryption is one pass: each piece of text is encrypted and its
 * ciphertext hashed (fused by the driver's enc function).  Decryption is
 * two: GHASH over the ciphertext in src and the tag check first, then,
 * only if the tag matched, CTR decryption into dst; a request failing
 * with -EBADMSG has written nothing to dst.
 */

#include <linux/module.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <crypto/algapi.h>
#include <crypto/internal/aead.h>
#include <crypto/internal/skcipher.h>
#include <crypto/scatterwalk.h>
#include <sm4/compat.h>
#include <sm4/glue.h>

struct sm4_gcm_ctx {
	struct sm4_ctx key;
	u8 h[SM4_BLOCK_SIZE];		/* the portable GHASH's table */
	bool table_ok;			/* table made by the driver's init */
	u8 table[SM4_GCM_TABLE_SIZE];
};

/* What one request runs on. */
struct sm4_gcm_sel {
	const struct sm4_mode_ops *ops;
	const struct sm4_gcm_ops *gops;
	bool simd;
};

static const struct sm4_skcipher_driver *sm4_gcm_drv(struct crypto_aead *tfm)
{
	return container_of(crypto_aead_alg(tfm), struct sm4_skcipher_driver,
			    gcm_alg);
}

static int sm4_gcm_setkey(struct crypto_aead *tfm, const u8 *key,
			  unsigned int key_len)
{
	const struct sm4_skcipher_driver *drv = sm4_gcm_drv(tfm);
	struct sm4_gcm_ctx *ctx = crypto_aead_ctx(tfm);
	int err;

	err = sm4_glue_expandkey(drv, &ctx->key, key, key_len);
	if (err)
		return err;
	/*
	 * Without SIMD now, requests will use the portable GHASH, and H
	 * comes from the portable code; with it, H = E_K(0) is the
	 * driver's ecb (the ops its requests use) in the same SIMD section
	 * as its table.
	 */
	ctx->table_ok = crypto_simd_usable();
	if (ctx->table_ok) {
		sm4_simd_begin();
		sm4_gcm_hash_subkey(drv->ops, ctx->key.rkey_enc, ctx->h);
		drv->gcm->init(ctx->table, ctx->h);
		sm4_simd_end();
	} else {
		sm4_gcm_hash_subkey(&sm4_generic_mode_ops, ctx->key.rkey_enc,
				    ctx->h);
	}
	return 0;
}

static int sm4_gcm_setauthsize(struct crypto_aead *tfm, unsigned int authsize)
{
	return sm4_gcm_authsize_ok(authsize) ? 0 : -EINVAL;
}

static void sm4_gcm_select(const struct sm4_skcipher_driver *drv,
			   const struct sm4_gcm_ctx *ctx, unsigned int len,
			   struct sm4_gcm_sel *sel, struct sm4_ghash *gh)
{
	sel->ops = sm4_glue_ops(drv, len, &sel->simd);
	if (sel->simd && ctx->table_ok) {
		sel->ops = drv->ops;
		sel->gops = drv->gcm;
		sm4_ghash_start(gh, ctx->table);
	} else {
		sel->simd = false;
		sel->ops = &sm4_generic_mode_ops;
		sel->gops = &sm4_gcm_generic_ops;
		sm4_ghash_start(gh, ctx->h);
	}
}

static void sm4_gcm_begin(const struct sm4_gcm_sel *sel)
{
	if (sel->simd)
		sm4_simd_begin();
}

static void sm4_gcm_end(const struct sm4_gcm_sel *sel)
{
	if (sel->simd)
		sm4_simd_end();
}

/*
 * Hash the @len bytes of @sg from @offset as one GHASH stream (padded at
 * its end), copied through a stack buffer, with at most SM4_SIMD_CHUNK
 * bytes per SIMD section.  A stream starts on a block boundary, so an
 * empty one hashes nothing.
 */
static void sm4_gcm_hash_sg(const struct sm4_gcm_sel *sel,
			    struct sm4_ghash *gh, struct scatterlist *sg,
			    unsigned int offset, unsigned int len)
{
	u8 buf[256];
	unsigned int in_section = 0;

	if (!len)
		return;
	while (len) {
		unsigned int n = min_t(unsigned int, len, sizeof(buf));

		scatterwalk_map_and_copy(buf, sg, offset, n, 0);
		if (!in_section)
			sm4_gcm_begin(sel);
		sm4_ghash_update(sel->gops, gh, buf, n);
		in_section += n;
		offset += n;
		len -= n;
		if (len && in_section >= SM4_SIMD_CHUNK) {
			sm4_gcm_end(sel);
			in_section = 0;
		}
	}
	sm4_ghash_pad(sel->gops, gh);
	sm4_gcm_end(sel);
}

/*
 * The text of a request through @walk: CTR encryption with hashing
 * (@enc) or CTR decryption alone, from the counter @ctr.
 */
static int sm4_gcm_walk(const struct sm4_gcm_sel *sel,
			const struct sm4_gcm_ctx *ctx, struct sm4_ghash *gh,
			struct skcipher_walk *walk, u8 *ctr, bool enc, int err)
{
	unsigned int nbytes;

	while ((nbytes = walk->nbytes) > 0) {
		const u8 *src = walk->src.virt.addr;
		u8 *dst = walk->dst.virt.addr;
		unsigned int todo;

		/* Only the last step may end in a partial block. */
		if (nbytes == walk->total)
			todo = nbytes;
		else
			todo = round_down(nbytes, SM4_BLOCK_SIZE);
		nbytes -= todo;

		while (todo) {
			unsigned int n = min_t(unsigned int, todo,
					       SM4_SIMD_CHUNK);

			sm4_gcm_begin(sel);
			if (enc)
				sm4_gcm_encrypt_piece(sel->ops, sel->gops,
						      ctx->key.rkey_enc, gh,
						      dst, src, n, ctr);
			else
				sm4_mode_ctr_crypt(sel->ops, ctx->key.rkey_enc,
						   dst, src, n, ctr);
			sm4_gcm_end(sel);
			src += n;
			dst += n;
			todo -= n;
		}
		err = skcipher_walk_done(walk, nbytes);
	}
	return err;
}

static void sm4_gcm_final(const struct sm4_gcm_sel *sel,
			  const struct sm4_gcm_ctx *ctx, struct sm4_ghash *gh,
			  const u8 *iv, unsigned int assoclen,
			  unsigned int cryptlen, u8 *tag)
{
	sm4_gcm_begin(sel);
	sm4_gcm_tag(sel->ops, sel->gops, ctx->key.rkey_enc, gh, iv, assoclen,
		    cryptlen, tag);
	sm4_gcm_end(sel);
}

static int sm4_gcm_encrypt(struct aead_request *req)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	const struct sm4_gcm_ctx *ctx = crypto_aead_ctx(tfm);
	unsigned int authsize = crypto_aead_authsize(tfm);
	u8 ctr[SM4_BLOCK_SIZE], tag[SM4_GCM_MAX_AUTHSIZE];
	struct skcipher_walk walk;
	struct sm4_gcm_sel sel;
	struct sm4_ghash gh;
	int err;

	err = skcipher_walk_aead_encrypt(&walk, req, false);
	sm4_gcm_select(sm4_gcm_drv(tfm), ctx, req->assoclen + req->cryptlen,
		       &sel, &gh);
	sm4_gcm_hash_sg(&sel, &gh, req->src, 0, req->assoclen);
	sm4_gcm_first_ctr(ctr, req->iv);
	err = sm4_gcm_walk(&sel, ctx, &gh, &walk, ctr, true, err);
	if (!err) {
		sm4_gcm_final(&sel, ctx, &gh, req->iv, req->assoclen,
			      req->cryptlen, tag);
		scatterwalk_map_and_copy(tag, req->dst,
					 req->assoclen + req->cryptlen,
					 authsize, 1);
	}
	memzero_explicit(&gh, sizeof(gh));
	memzero_explicit(ctr, sizeof(ctr));
	memzero_explicit(tag, sizeof(tag));
	return err;
}

static int sm4_gcm_decrypt(struct aead_request *req)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	const struct sm4_gcm_ctx *ctx = crypto_aead_ctx(tfm);
	unsigned int authsize = crypto_aead_authsize(tfm);
	u8 ctr[SM4_BLOCK_SIZE], tag[SM4_GCM_MAX_AUTHSIZE];
	u8 want[SM4_GCM_MAX_AUTHSIZE];
	struct skcipher_walk walk;
	unsigned int cryptlen;
	struct sm4_gcm_sel sel;
	struct sm4_ghash gh;
	int err;

	if (req->cryptlen < authsize)
		return -EINVAL;
	cryptlen = req->cryptlen - authsize;

	/* Verify first: AAD and ciphertext are both read from src. */
	sm4_gcm_select(sm4_gcm_drv(tfm), ctx, req->assoclen + cryptlen,
		       &sel, &gh);
	sm4_gcm_hash_sg(&sel, &gh, req->src, 0, req->assoclen);
	sm4_gcm_hash_sg(&sel, &gh, req->src, req->assoclen, cryptlen);
	sm4_gcm_final(&sel, ctx, &gh, req->iv, req->assoclen, cryptlen, tag);
	scatterwalk_map_and_copy(want, req->src, req->assoclen + cryptlen,
				 authsize, 0);
	if (crypto_memneq(tag, want, authsize)) {
		err = -EBADMSG;
		goto out;
	}

	err = skcipher_walk_aead_decrypt(&walk, req, false);
	sm4_gcm_first_ctr(ctr, req->iv);
	err = sm4_gcm_walk(&sel, ctx, &gh, &walk, ctr, false, err);
out:
	memzero_explicit(&gh, sizeof(gh));
	memzero_explicit(ctr, sizeof(ctr));
	memzero_explicit(tag, sizeof(tag));
	return err;
}

int sm4_gcm_register(struct sm4_skcipher_driver *drv)
{
	struct aead_alg *alg = &drv->gcm_alg;
	int err;

	memset(alg, 0, sizeof(*alg));
	strscpy(alg->base.cra_name, "gcm(sm4)", sizeof(alg->base.cra_name));
	/* Above the gcm template over this driver's ctr(sm4). */
	sm4_glue_fill_base(&alg->base, drv, "gcm", drv->priority + 1, 1,
			   sizeof(struct sm4_gcm_ctx));
	alg->ivsize = SM4_GCM_IV_SIZE;
	alg->maxauthsize = SM4_GCM_MAX_AUTHSIZE;
	alg->chunksize = SM4_BLOCK_SIZE;
	alg->setkey = sm4_gcm_setkey;
	alg->setauthsize = sm4_gcm_setauthsize;
	alg->encrypt = sm4_gcm_encrypt;
	alg->decrypt = sm4_gcm_decrypt;

	err = crypto_register_aead(alg);
	if (err) {
		pr_err("sm4: registering %s failed: %d\n",
		       alg->base.cra_driver_name, err);
		return err;
	}
	drv->gcm_registered = true;
	return 0;
}

void sm4_gcm_unregister(struct sm4_skcipher_driver *drv)
{
	if (!drv->gcm_registered)
		return;
	crypto_unregister_aead(&drv->gcm_alg);
	drv->gcm_registered = false;
}
