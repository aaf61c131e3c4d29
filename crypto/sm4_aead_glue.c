// SPDX-License-Identifier: GPL-2.0
/*
 * gcm(sm4) for every driver with GHASH functions (include/sm4/gcm.h):
 * the scatterlist walks, SIMD sections and fallback around the linear
 * GCM code of crypto/sm4_gcm.c.
 *
 * Encryption is one pass after the associated data: each piece of text
 * is encrypted and its ciphertext hashed (fused by the driver's enc
 * function).  Decryption is two: GHASH over the associated data and the
 * ciphertext in src and the tag check first, then, only if the tag
 * matched, CTR decryption into dst; a request failing with -EBADMSG has
 * written nothing to dst.
 */

#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <crypto/algapi.h>
#include <crypto/internal/aead.h>
#include <crypto/internal/skcipher.h>
#include <crypto/scatterwalk.h>
#include <sm4/compat.h>
#include <sm4/core.h>

/*
 * The key's table of H powers in the driver's layout: none (requests
 * hash with the portable GHASH until one makes it), being made by one
 * request (the others hash with the portable GHASH meanwhile), ready
 * (read by every request that runs the driver's GHASH).
 */
enum {
	SM4_GCM_TABLE_NONE,
	SM4_GCM_TABLE_BUILDING,
	SM4_GCM_TABLE_READY,
};

struct sm4_gcm_ctx {
	struct sm4_ctx key;
	u8 h[SM4_BLOCK_SIZE];		/* H, the portable GHASH's table */
	atomic_t table_state;		/* SM4_GCM_TABLE_* */
	u8 table[SM4_GCM_TABLE_SIZE];	/* written only by its builder */
};

static const struct sm4_driver *sm4_gcm_drv(struct crypto_aead *tfm)
{
	return container_of(crypto_aead_alg(tfm), struct sm4_driver, gcm_alg);
}

static int sm4_gcm_setkey(struct crypto_aead *tfm, const u8 *key,
			  unsigned int key_len)
{
	struct sm4_impl impl = sm4_impl_wide(sm4_gcm_drv(tfm), key_len);
	struct sm4_gcm_ctx *ctx = crypto_aead_ctx(tfm);
	int err;

	err = sm4_impl_expandkey(&impl, &ctx->key, key, key_len);
	if (err)
		return err;
	/* No request runs beside a setkey: plain stores are enough. */
	atomic_set(&ctx->table_state, SM4_GCM_TABLE_NONE);
	/*
	 * H = E_K(0) with the ecb the requests use, and with SIMD the
	 * table in the same section; without SIMD the first request that
	 * has it makes the table, and the previous key's is wiped now.
	 */
	sm4_impl_begin(&impl);
	sm4_gcm_hash_subkey(impl.ops, ctx->key.rkey_enc, ctx->h);
	if (impl.gcm->init) {
		impl.gcm->init(ctx->table, ctx->h);
		atomic_set(&ctx->table_state, SM4_GCM_TABLE_READY);
	}
	sm4_impl_end(&impl);
	if (!impl.gcm->init)
		memzero_explicit(ctx->table, sizeof(ctx->table));
	return 0;
}

static int sm4_gcm_setauthsize(struct crypto_aead *tfm, unsigned int authsize)
{
	return sm4_gcm_authsize_ok(authsize) ? 0 : -EINVAL;
}

/*
 * Whether @ctx's table is ready for the driver's GHASH @gops, making it
 * now (inside a section of @impl) if no request has yet: the one request
 * that claims it writes the table, and publishes it with a release that
 * pairs with the acquire of every reader, so no request reads the table
 * while it is written; a request that finds it being made does not wait
 * and hashes with the portable GHASH (constant time, as the driver's).
 */
static bool sm4_gcm_table_ready(struct sm4_gcm_ctx *ctx,
				const struct sm4_impl *impl)
{
	if (atomic_read_acquire(&ctx->table_state) == SM4_GCM_TABLE_READY)
		return true;
	if (atomic_cmpxchg(&ctx->table_state, SM4_GCM_TABLE_NONE,
			   SM4_GCM_TABLE_BUILDING) != SM4_GCM_TABLE_NONE)
		return false;
	sm4_impl_begin(impl);
	impl->gcm->init(ctx->table, ctx->h);
	sm4_impl_end(impl);
	atomic_set_release(&ctx->table_state, SM4_GCM_TABLE_READY);
	return true;
}

/*
 * What a request runs on, and its GHASH started: the driver's CTR and
 * GHASH over the table where SIMD is usable, its CTR and the portable
 * GHASH while another request makes the table, the portable code
 * otherwise.
 */
static struct sm4_impl sm4_gcm_start(struct aead_request *req,
				     struct sm4_ghash *gh)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	struct sm4_impl impl = sm4_impl_wide(sm4_gcm_drv(tfm),
					     req->assoclen + req->cryptlen);
	struct sm4_gcm_ctx *ctx = crypto_aead_ctx(tfm);

	if (impl.gcm->init && sm4_gcm_table_ready(ctx, &impl)) {
		sm4_ghash_start(gh, ctx->table);
	} else {
		impl.gcm = &sm4_gcm_generic_ops;
		sm4_ghash_start(gh, ctx->h);
	}
	return impl;
}

struct sm4_gcm_hash {
	const struct sm4_gcm_ops *gops;
	struct sm4_ghash *gh;
};

static void sm4_gcm_hash_piece(void *arg, const u8 *data, unsigned int n)
{
	struct sm4_gcm_hash *h = arg;

	sm4_ghash_update(h->gops, h->gh, data, n);
}

/*
 * Hash the @len bytes of @sg from @pos as one GHASH stream, padded at its
 * end.  A stream starts on a block boundary, so an empty one hashes
 * nothing.
 */
static void sm4_gcm_hash_sg(const struct sm4_impl *impl, struct sm4_ghash *gh,
			    struct scatterlist *sg, unsigned int pos,
			    unsigned int len)
{
	struct sm4_gcm_hash h = { .gops = impl->gcm, .gh = gh };

	sm4_impl_sg(impl, sg, pos, len, sm4_gcm_hash_piece, &h);
	if (!gh->buflen)
		return;
	sm4_impl_begin(impl);
	sm4_ghash_pad(impl->gcm, gh);
	sm4_impl_end(impl);
}

/*
 * @c for a text of @cryptlen bytes: E_K(J0) and the keystream the
 * request makes up front (include/sm4/gcm.h), in a section of its own
 * before the walks map any page.
 */
static void sm4_gcm_ctr_begin(const struct sm4_impl *impl,
			      const struct sm4_gcm_ctx *ctx, const u8 *iv,
			      unsigned int cryptlen, struct sm4_gcm_ctr *c)
{
	sm4_impl_begin(impl);
	sm4_gcm_ctr_start(impl->ops, impl->gcm, ctx->key.rkey_enc, iv,
			  cryptlen, c);
	sm4_impl_end(impl);
}

/*
 * The text of a request through @walk: CTR encryption with hashing
 * (@enc) or CTR decryption alone, on @c.
 */
static int sm4_gcm_walk(const struct sm4_impl *impl,
			const struct sm4_gcm_ctx *ctx, struct sm4_ghash *gh,
			struct skcipher_walk *walk, struct sm4_gcm_ctr *c,
			bool enc, int err)
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

			sm4_impl_begin(impl);
			if (enc)
				sm4_gcm_encrypt_piece(impl->ops, impl->gcm,
						      ctx->key.rkey_enc, gh, c,
						      dst, src, n);
			else
				sm4_gcm_decrypt_piece(impl->ops,
						      ctx->key.rkey_enc, c,
						      dst, src, n);
			sm4_impl_end(impl);
			src += n;
			dst += n;
			todo -= n;
		}
		err = skcipher_walk_done(walk, nbytes);
	}
	return err;
}

static void sm4_gcm_final(const struct sm4_impl *impl, struct sm4_ghash *gh,
			  const struct sm4_gcm_ctr *c, unsigned int assoclen,
			  unsigned int cryptlen, u8 *tag)
{
	sm4_impl_begin(impl);
	sm4_gcm_tag(impl->gcm, gh, c, assoclen, cryptlen, tag);
	sm4_impl_end(impl);
}

static int sm4_gcm_encrypt(struct aead_request *req)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	const struct sm4_gcm_ctx *ctx = crypto_aead_ctx(tfm);
	unsigned int authsize = crypto_aead_authsize(tfm);
	u8 tag[SM4_GCM_MAX_AUTHSIZE];
	struct skcipher_walk walk;
	struct sm4_gcm_ctr c;
	struct sm4_ghash gh;
	struct sm4_impl impl;
	int err;

	/*
	 * The associated data before the walk of the text starts: its
	 * first step maps a page (with kmap_atomic() on 6.1), which the
	 * hash must not run under.
	 */
	impl = sm4_gcm_start(req, &gh);
	sm4_gcm_ctr_begin(&impl, ctx, req->iv, req->cryptlen, &c);
	sm4_gcm_hash_sg(&impl, &gh, req->src, 0, req->assoclen);
	err = skcipher_walk_aead_encrypt(&walk, req, false);
	err = sm4_gcm_walk(&impl, ctx, &gh, &walk, &c, true, err);
	if (!err) {
		sm4_gcm_final(&impl, &gh, &c, req->assoclen, req->cryptlen,
			      tag);
		scatterwalk_map_and_copy(tag, req->dst,
					 req->assoclen + req->cryptlen,
					 authsize, 1);
	}
	memzero_explicit(&gh, sizeof(gh));
	memzero_explicit(&c, sizeof(c));
	memzero_explicit(tag, sizeof(tag));
	return err;
}

static int sm4_gcm_decrypt(struct aead_request *req)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	const struct sm4_gcm_ctx *ctx = crypto_aead_ctx(tfm);
	unsigned int authsize = crypto_aead_authsize(tfm);
	u8 tag[SM4_GCM_MAX_AUTHSIZE], want[SM4_GCM_MAX_AUTHSIZE];
	struct skcipher_walk walk;
	unsigned int cryptlen;
	struct sm4_gcm_ctr c;
	struct sm4_ghash gh;
	struct sm4_impl impl;
	int err;

	if (req->cryptlen < authsize)
		return -EINVAL;
	cryptlen = req->cryptlen - authsize;

	/* Verify first: AAD and ciphertext are both read from src. */
	impl = sm4_gcm_start(req, &gh);
	sm4_gcm_ctr_begin(&impl, ctx, req->iv, cryptlen, &c);
	sm4_gcm_hash_sg(&impl, &gh, req->src, 0, req->assoclen);
	sm4_gcm_hash_sg(&impl, &gh, req->src, req->assoclen, cryptlen);
	sm4_gcm_final(&impl, &gh, &c, req->assoclen, cryptlen, tag);
	scatterwalk_map_and_copy(want, req->src, req->assoclen + cryptlen,
				 authsize, 0);
	if (crypto_memneq(tag, want, authsize)) {
		err = -EBADMSG;
		goto out;
	}

	err = skcipher_walk_aead_decrypt(&walk, req, false);
	err = sm4_gcm_walk(&impl, ctx, &gh, &walk, &c, false, err);
out:
	memzero_explicit(&gh, sizeof(gh));
	memzero_explicit(&c, sizeof(c));
	memzero_explicit(tag, sizeof(tag));
	return err;
}

int sm4_gcm_register(struct sm4_driver *drv)
{
	struct aead_alg *alg = &drv->gcm_alg;
	int err;

	if (!drv->gcm)
		return 0;
	memset(alg, 0, sizeof(*alg));
	strscpy(alg->base.cra_name, "gcm(sm4)", sizeof(alg->base.cra_name));
	/* Above the gcm template over this driver's ctr(sm4). */
	sm4_fill_base(&alg->base, drv, "gcm", drv->priority + 1, 1,
		      sizeof(struct sm4_gcm_ctx));
	alg->ivsize = SM4_GCM_IV_SIZE;
	alg->maxauthsize = SM4_GCM_MAX_AUTHSIZE;
	alg->chunksize = SM4_BLOCK_SIZE;
	alg->setkey = sm4_gcm_setkey;
	alg->setauthsize = sm4_gcm_setauthsize;
	alg->encrypt = sm4_gcm_encrypt;
	alg->decrypt = sm4_gcm_decrypt;

	err = crypto_register_aead(alg);
	if (err)
		return sm4_register_failed(&alg->base, err);
	drv->gcm_registered = true;
	return 0;
}

void sm4_gcm_unregister(struct sm4_driver *drv)
{
	if (!drv->gcm_registered)
		return;
	crypto_unregister_aead(&drv->gcm_alg);
	drv->gcm_registered = false;
}
