// SPDX-License-Identifier: GPL-2.0
/*
 * The glue of the CBC-MAC family shared by every SM4 driver:
 * cbcmac/cmac/xcbc(sm4) shashes and the ccm(sm4) AEAD over a driver's
 * struct sm4_mac_ops and CTR function (see include/sm4/mac_glue.h),
 * registered by sm4_driver_register() for a driver with .mac.
 *
 * ccm(sm4) decryption runs in two passes: the first computes the tag from
 * the ciphertext without writing anything, the second (only once the tag
 * matched) writes the plaintext.  A forged message so leaves dst as it
 * was: no unverified plaintext, not even for a moment.
 */

#include <linux/errno.h>
#include <linux/string.h>
#include <crypto/algapi.h>
#include <crypto/internal/skcipher.h>
#include <crypto/scatterwalk.h>
#include <sm4/compat.h>
#include <sm4/core.h>

/* ---- cbcmac, cmac, xcbc ------------------------------------------- */

/*
 * cmac: @k_full, @k_part are K1, K2; xcbc: K2, K3, and @key is the
 * schedule of K1.
 */
struct sm4_mac_tfm_ctx {
	struct sm4_ctx key;
	u8 k_full[SM4_BLOCK_SIZE];
	u8 k_part[SM4_BLOCK_SIZE];
};

static const struct sm4_mac_alg *sm4_mac_alg_of(struct crypto_shash *tfm)
{
	return container_of(crypto_shash_alg(tfm), struct sm4_mac_alg, alg);
}

static int sm4_mac_setkey(struct crypto_shash *tfm, const u8 *key,
			  unsigned int key_len)
{
	const struct sm4_mac_alg *salg = sm4_mac_alg_of(tfm);
	struct sm4_impl impl = sm4_impl_wide(salg->drv, key_len);
	struct sm4_mac_tfm_ctx *ctx = crypto_shash_ctx(tfm);
	u8 k1[SM4_BLOCK_SIZE];
	int err;

	err = sm4_impl_expandkey(&impl, &ctx->key, key, key_len);
	if (err || salg->id == SM4_MAC_CBCMAC)
		return err;
	sm4_impl_begin(&impl);
	if (salg->id == SM4_MAC_CMAC)
		sm4_cmac_subkeys(impl.mac, ctx->key.rkey_enc, ctx->k_full,
				 ctx->k_part);
	else
		sm4_xcbc_subkeys(impl.mac, ctx->key.rkey_enc, k1, ctx->k_full,
				 ctx->k_part);
	sm4_impl_end(&impl);
	if (salg->id == SM4_MAC_CMAC)
		return 0;
	/* xcbc: the CBC-MAC runs under K1 = E_K(1...1). */
	err = sm4_impl_expandkey(&impl, &ctx->key, k1, SM4_KEY_SIZE);
	memzero_explicit(k1, sizeof(k1));
	return err;
}

static int sm4_mac_init(struct shash_desc *desc)
{
	struct sm4_mac_state *st = shash_desc_ctx(desc);

	memset(st, 0, sizeof(*st));
	return 0;
}

static int sm4_mac_shash_update(struct shash_desc *desc, const u8 *p,
				unsigned int len)
{
	struct sm4_impl impl = sm4_impl_wide(sm4_mac_alg_of(desc->tfm)->drv,
					     len);
	const struct sm4_mac_tfm_ctx *ctx = crypto_shash_ctx(desc->tfm);
	struct sm4_mac_state *st = shash_desc_ctx(desc);

	while (len) {
		unsigned int n = min_t(unsigned int, len, SM4_SIMD_CHUNK);

		sm4_impl_begin(&impl);
		sm4_mac_update(impl.mac, ctx->key.rkey_enc, st, p, n);
		sm4_impl_end(&impl);
		p += n;
		len -= n;
	}
	return 0;
}

static int sm4_mac_final(struct shash_desc *desc, u8 *out)
{
	const struct sm4_mac_alg *salg = sm4_mac_alg_of(desc->tfm);
	struct sm4_impl impl = sm4_impl_wide(salg->drv, SM4_BLOCK_SIZE);
	const struct sm4_mac_tfm_ctx *ctx = crypto_shash_ctx(desc->tfm);
	struct sm4_mac_state *st = shash_desc_ctx(desc);

	sm4_impl_begin(&impl);
	if (salg->id == SM4_MAC_CBCMAC)
		sm4_mac_flush(impl.mac, ctx->key.rkey_enc, st);
	else
		sm4_mac_final_keyed(impl.mac, ctx->key.rkey_enc, st,
				    ctx->k_full, ctx->k_part);
	sm4_impl_end(&impl);
	memcpy(out, st->dg, SM4_BLOCK_SIZE);
	memzero_explicit(st, sizeof(*st));
	return 0;
}

static int sm4_mac_export(struct shash_desc *desc, void *out)
{
	memcpy(out, shash_desc_ctx(desc), sizeof(struct sm4_mac_state));
	return 0;
}

static int sm4_mac_import(struct shash_desc *desc, const void *in)
{
	struct sm4_mac_state *st = shash_desc_ctx(desc);

	memcpy(st, in, sizeof(*st));
	if (st->len > SM4_BLOCK_SIZE) {
		memzero_explicit(st, sizeof(*st));
		return -EINVAL;
	}
	return 0;
}

static const char * const sm4_mac_names[SM4_NUM_MACS] = {
	[SM4_MAC_CBCMAC] = "cbcmac",
	[SM4_MAC_CMAC] = "cmac",
	[SM4_MAC_XCBC] = "xcbc",
};

static void sm4_mac_fill(struct sm4_driver *drv,
			 enum sm4_mac_alg_id id)
{
	struct sm4_mac_alg *salg = &drv->macs[id];
	struct shash_alg *alg = &salg->alg;

	memset(salg, 0, sizeof(*salg));
	salg->drv = drv;
	salg->id = id;

	snprintf(alg->base.cra_name, sizeof(alg->base.cra_name), "%s(sm4)",
		 sm4_mac_names[id]);
	/* cbcmac: the block size of the kernel's cbcmac template (compat.h). */
	sm4_fill_base(&alg->base, drv, sm4_mac_names[id], drv->priority,
		      id == SM4_MAC_CBCMAC ? SM4_CBCMAC_BLOCKSIZE : SM4_BLOCK_SIZE,
		      sizeof(struct sm4_mac_tfm_ctx));
	alg->digestsize = SM4_BLOCK_SIZE;
	alg->descsize = sizeof(struct sm4_mac_state);
	alg->statesize = sizeof(struct sm4_mac_state);
	alg->setkey = sm4_mac_setkey;
	alg->init = sm4_mac_init;
	alg->update = sm4_mac_shash_update;
	alg->final = sm4_mac_final;
	alg->export = sm4_mac_export;
	alg->import = sm4_mac_import;
}

/* ---- ccm(sm4) ----------------------------------------------------- */

/* One ccm request: what it runs on, its key and CCM state. */
struct sm4_ccm_req {
	struct sm4_impl impl;
	const u32 *rk;
	struct sm4_ccm_state st;
};

static const struct sm4_ccm_alg *sm4_ccm_alg_of(struct crypto_aead *tfm)
{
	return container_of(crypto_aead_alg(tfm), struct sm4_ccm_alg, alg);
}

static int sm4_ccm_setkey(struct crypto_aead *tfm, const u8 *key,
			  unsigned int key_len)
{
	struct sm4_impl impl = sm4_impl_wide(sm4_ccm_alg_of(tfm)->drv, key_len);

	return sm4_impl_expandkey(&impl, crypto_aead_ctx(tfm), key, key_len);
}

static int sm4_ccm_setauthsize(struct crypto_aead *tfm, unsigned int authsize)
{
	return sm4_ccm_authsize_ok(authsize) ? 0 : -EINVAL;
}

static void sm4_ccm_absorb_aad(void *arg, const u8 *data, unsigned int n)
{
	struct sm4_ccm_req *r = arg;

	sm4_mac_update(r->impl.mac, r->rk, &r->st.mac, data, n);
}

/* The first decryption pass: the plaintext into the MAC, stored nowhere. */
static void sm4_ccm_absorb_ciphertext(void *arg, const u8 *data,
				      unsigned int n)
{
	struct sm4_ccm_req *r = arg;

	sm4_ccm_decrypt_mac(r->impl.ops, r->impl.mac, r->rk, &r->st, data, n);
}

/* B0, the associated data; ready for the text. */
static int sm4_ccm_auth_start(struct aead_request *req,
			      struct sm4_ccm_req *r, unsigned int cryptlen)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	const struct sm4_ctx *ctx = crypto_aead_ctx(tfm);
	int err;

	r->impl = sm4_impl_wide(sm4_ccm_alg_of(tfm)->drv,
				req->assoclen + cryptlen);
	r->rk = ctx->rkey_enc;
	sm4_impl_begin(&r->impl);
	err = sm4_ccm_start(r->impl.ops, r->impl.mac, r->rk, &r->st, req->iv,
			    req->assoclen, cryptlen, crypto_aead_authsize(tfm));
	sm4_impl_end(&r->impl);
	if (err)
		return err;
	sm4_impl_sg(&r->impl, req->src, 0, req->assoclen, sm4_ccm_absorb_aad, r);
	sm4_impl_begin(&r->impl);
	sm4_mac_flush(r->impl.mac, r->rk, &r->st.mac);
	sm4_impl_end(&r->impl);
	return 0;
}

/*
 * The text of a walk: encryption with the MAC (@enc), or the second
 * decryption pass; whole blocks per step but the last, at most
 * SM4_SIMD_CHUNK bytes per SIMD section.
 */
static int sm4_ccm_walk(struct skcipher_walk *walk, struct sm4_ccm_req *r,
			bool enc)
{
	const struct sm4_impl *impl = &r->impl;
	int err = 0;

	while (walk->nbytes) {
		unsigned int todo = walk->nbytes;
		const u8 *src = walk->src.virt.addr;
		u8 *dst = walk->dst.virt.addr;

		if (todo < walk->total)
			todo = round_down(todo, SM4_BLOCK_SIZE);
		while (todo) {
			unsigned int n = min_t(unsigned int, todo,
					       SM4_SIMD_CHUNK);

			sm4_impl_begin(impl);
			if (enc)
				sm4_ccm_encrypt(impl->ops, impl->mac, r->rk,
						&r->st, dst, src, n);
			else
				sm4_ccm_decrypt_piece(impl->ops, r->rk,
						      &r->st, dst, src, n);
			sm4_impl_end(impl);
			src += n;
			dst += n;
			todo -= n;
		}
		err = skcipher_walk_done(walk, walk->nbytes -
					 (src - (const u8 *)walk->src.virt.addr));
	}
	return err;
}

static int sm4_ccm_encrypt_req(struct aead_request *req)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	unsigned int authsize = crypto_aead_authsize(tfm);
	struct skcipher_walk walk;
	struct sm4_ccm_req r;
	u8 tag[SM4_BLOCK_SIZE];
	int err;

	err = sm4_ccm_auth_start(req, &r, req->cryptlen);
	if (err)
		goto out;
	err = skcipher_walk_aead_encrypt(&walk, req, false);
	if (!err)
		err = sm4_ccm_walk(&walk, &r, true);
	if (err)
		goto out;
	sm4_ccm_tag(&r.st, tag);
	scatterwalk_map_and_copy(tag, req->dst, req->assoclen + req->cryptlen,
				 authsize, 1);
out:
	memzero_explicit(&r.st, sizeof(r.st));
	memzero_explicit(tag, sizeof(tag));
	return err;
}

static int sm4_ccm_decrypt_req(struct aead_request *req)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	unsigned int authsize = crypto_aead_authsize(tfm);
	unsigned int cryptlen = req->cryptlen - authsize;
	u8 tag[SM4_BLOCK_SIZE], given[SM4_BLOCK_SIZE];
	struct skcipher_walk walk;
	struct sm4_ccm_req r;
	int err;

	memset(&r, 0, sizeof(r));
	if (req->cryptlen < authsize)
		return -EINVAL;
	err = sm4_ccm_auth_start(req, &r, cryptlen);
	if (err)
		goto out;

	/* Pass 1: the tag of the plaintext, nothing written. */
	sm4_impl_sg(&r.impl, req->src, req->assoclen, cryptlen,
		    sm4_ccm_absorb_ciphertext, &r);
	sm4_impl_begin(&r.impl);
	sm4_ccm_decrypt_mac_end(r.impl.mac, r.rk, &r.st);
	sm4_impl_end(&r.impl);
	sm4_ccm_tag(&r.st, tag);
	scatterwalk_map_and_copy(given, req->src, req->assoclen + cryptlen,
				 authsize, 0);
	if (crypto_memneq(tag, given, authsize)) {
		err = -EBADMSG;
		goto out;
	}

	/* Pass 2: verified, so write the plaintext. */
	sm4_ccm_decrypt_rewind(&r.st);
	err = skcipher_walk_aead_decrypt(&walk, req, false);
	if (!err)
		err = sm4_ccm_walk(&walk, &r, false);
out:
	memzero_explicit(&r.st, sizeof(r.st));
	memzero_explicit(tag, sizeof(tag));
	return err;
}

static void sm4_ccm_fill(struct sm4_driver *drv)
{
	struct sm4_ccm_alg *calg = &drv->ccm;
	struct aead_alg *alg = &calg->alg;

	memset(calg, 0, sizeof(*calg));
	calg->drv = drv;
	strscpy(alg->base.cra_name, "ccm(sm4)", sizeof(alg->base.cra_name));
	/*
	 * Above the ccm template over this driver's ctr and cbcmac, whose
	 * priority is their mean.
	 */
	sm4_fill_base(&alg->base, drv, "ccm", drv->priority + 1, 1,
		      sizeof(struct sm4_ctx));
	alg->ivsize = SM4_BLOCK_SIZE;
	alg->chunksize = SM4_BLOCK_SIZE;
	alg->maxauthsize = SM4_BLOCK_SIZE;
	alg->setkey = sm4_ccm_setkey;
	alg->setauthsize = sm4_ccm_setauthsize;
	alg->encrypt = sm4_ccm_encrypt_req;
	alg->decrypt = sm4_ccm_decrypt_req;
}

/* ---- Registration ------------------------------------------------- */

int sm4_mac_register(struct sm4_driver *drv)
{
	enum sm4_mac_alg_id id;
	int err;

	if (!drv->mac)
		return 0;
	for (id = 0; id < SM4_NUM_MACS; id++) {
		if (!(drv->mac_mask & (1U << id)))
			continue;
		sm4_mac_fill(drv, id);
		err = crypto_register_shash(&drv->macs[id].alg);
		if (err) {
			sm4_register_failed(&drv->macs[id].alg.base, err);
			goto fail;
		}
		drv->macs[id].registered = true;
	}
	if (drv->mac_mask & SM4_MAC_CCM) {
		sm4_ccm_fill(drv);
		err = crypto_register_aead(&drv->ccm.alg);
		if (err) {
			sm4_register_failed(&drv->ccm.alg.base, err);
			goto fail;
		}
		drv->ccm.registered = true;
	}
	return 0;
fail:
	sm4_mac_unregister(drv);
	return err;
}

void sm4_mac_unregister(struct sm4_driver *drv)
{
	enum sm4_mac_alg_id id;

	if (drv->ccm.registered) {
		crypto_unregister_aead(&drv->ccm.alg);
		drv->ccm.registered = false;
	}
	for (id = 0; id < SM4_NUM_MACS; id++) {
		if (!drv->macs[id].registered)
			continue;
		crypto_unregister_shash(&drv->macs[id].alg);
		drv->macs[id].registered = false;
	}
}
