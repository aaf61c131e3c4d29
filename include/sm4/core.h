/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal to sm4_generic.ko: the small core every algorithm family of
 * the glue uses (crypto/sm4_core.c), and the families' registration,
 * which only sm4_driver_register() (crypto/sm4_generic.c) calls.  The
 * families (crypto/sm4_glue.c: skciphers and the cipher;
 * crypto/sm4_aead_glue.c: gcm; crypto/sm4_mac_glue.c: the MACs and ccm)
 * call the core and nothing of each other.
 */
#ifndef _SM4_CRYPTO_CORE_H
#define _SM4_CRYPTO_CORE_H

#include <linux/scatterlist.h>
#include <sm4/glue.h>

/*
 * What one request (or setkey) of a driver runs on: the driver's
 * functions, or the portable ones where the driver needs SIMD and SIMD is
 * not usable in this context.  Run them between sm4_impl_begin() and
 * sm4_impl_end(), each such section bounded to SM4_SIMD_CHUNK bytes.
 */
struct sm4_impl {
	const struct sm4_mode_ops *ops;
	const struct sm4_gcm_ops *gcm;	/* NULL: the driver has none */
	const struct sm4_mac_ops *mac;	/* NULL: the driver has none */
	/* NULL: sm4_expandkey() */
	int (*expandkey)(struct sm4_ctx *ctx, const u8 *key,
			 unsigned int key_len);
	bool simd;			/* sections are SIMD sections */
};

/*
 * The one SIMD-or-portable decision: what an operation on @len bytes
 * (a request, a key) of @drv runs on in this context.  sm4_impl_of() is
 * for skciphers and the cipher, whose short requests may take the
 * driver's small_ops; sm4_impl_wide() for setkeys, the AEADs and the
 * MACs, which always use its ops (their tables have the wide layout).
 */
struct sm4_impl sm4_impl_of(const struct sm4_driver *drv, unsigned int len);
struct sm4_impl sm4_impl_wide(const struct sm4_driver *drv, unsigned int len);

static inline void sm4_impl_begin(const struct sm4_impl *impl)
{
	if (impl->simd)
		sm4_simd_begin();
}

static inline void sm4_impl_end(const struct sm4_impl *impl)
{
	if (impl->simd)
		sm4_simd_end();
}

/* Both schedules of @key with @impl's key expansion. */
int sm4_impl_expandkey(const struct sm4_impl *impl, struct sm4_ctx *ctx,
		       const u8 *key, unsigned int key_len);

/*
 * sm4_impl_sg(impl, sg, pos, len, fn, arg): call @fn(@arg, data, n) on
 * the @len bytes of @sg from byte @pos, in order, piece by piece (each
 * piece mapped, within one entry and, where pages must be mapped, one
 * page), inside sections of @impl of at most SM4_SIMD_CHUNK bytes each.
 * Every entry of the list is visited once: no piece walks it again from
 * its start.  For source data only (nothing is written back).
 */
typedef void (*sm4_sg_fn)(void *arg, const u8 *data, unsigned int n);
void sm4_impl_sg(const struct sm4_impl *impl, struct scatterlist *sg,
		 unsigned int pos, unsigned int len, sm4_sg_fn fn, void *arg);

/*
 * What every algorithm of @drv fills alike in its crypto_alg (the caller
 * sets cra_name): cra_driver_name "<@prefix>-sm4-<drv->name>" (@prefix
 * NULL: "sm4-<drv->name>"), the priority, block and context sizes given,
 * and the owner.
 */
void sm4_fill_base(struct crypto_alg *base, const struct sm4_driver *drv,
		   const char *prefix, int priority, unsigned int blocksize,
		   unsigned int ctxsize);

/* Log a registration error of @base; returns @err. */
int sm4_register_failed(const struct crypto_alg *base, int err);

/*
 * The families: each registers what @drv asks of it (0, or an error with
 * nothing of it left registered) and unregisters what it registered.
 */
int sm4_cipher_register(struct sm4_driver *drv);
void sm4_cipher_unregister(struct sm4_driver *drv);
int sm4_skciphers_register(struct sm4_driver *drv);
void sm4_skciphers_unregister(struct sm4_driver *drv);
int sm4_gcm_register(struct sm4_driver *drv);
void sm4_gcm_unregister(struct sm4_driver *drv);
int sm4_mac_register(struct sm4_driver *drv);
void sm4_mac_unregister(struct sm4_driver *drv);

#endif /* _SM4_CRYPTO_CORE_H */
