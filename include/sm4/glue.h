/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one skcipher glue shared by every SM4 driver of this project.
 *
 * A driver describes itself with struct sm4_skcipher_driver (its name
 * suffix, priority, bulk functions) and calls sm4_skcipher_register(),
 * which builds and registers synchronous ecb/cbc/cfb/ctr/xts(sm4)
 * skciphers named "<mode>-sm4-<name>", cts(cbc(sm4)) named
 * "cts-cbc-sm4-<name>" (over the driver's cbc and one-block ecb), if
 * asked the single-block cipher "sm4" named "sm4-<name>", for a driver
 * with GHASH functions (.gcm, include/sm4/gcm.h) the AEAD gcm(sm4) named
 * "gcm-sm4-<name>", and for one with CBC-MAC functions (.mac,
 * include/sm4/mac_glue.h) cbcmac/cmac/xcbc(sm4) and ccm(sm4).  The glue
 * walks requests, runs the bulk functions inside SIMD sections of at most
 * SM4_SIMD_CHUNK bytes, and falls back to sm4_generic_mode_ops when SIMD
 * is not usable in the calling context.  It lives in sm4_generic.ko.
 */
#ifndef _SM4_CRYPTO_GLUE_H
#define _SM4_CRYPTO_GLUE_H

#include <linux/init.h>
#include <linux/module.h>
#include <crypto/algapi.h>
#include <crypto/skcipher.h>
#include <crypto/internal/aead.h>
#include <sm4/compat.h>
#include <sm4/modes.h>
#include <sm4/gcm.h>
#include <sm4/mac_glue.h>

/* Bytes processed per kernel_fpu/neon_begin() ... end() section at most. */
#define SM4_SIMD_CHUNK	PAGE_SIZE

enum sm4_mode {
	SM4_MODE_ECB,
	SM4_MODE_CBC,
	SM4_MODE_CFB,
	SM4_MODE_CTR,
	SM4_MODE_XTS,
	SM4_MODE_CTS,		/* cts(cbc(sm4)), CS3 as crypto/cts.c */
	SM4_NUM_MODES
};

struct sm4_skcipher_driver;

struct sm4_skcipher_alg {
	struct skcipher_alg alg;
	const struct sm4_skcipher_driver *drv;
	enum sm4_mode mode;
	bool registered;
};

struct sm4_skcipher_driver {
	/* Driver name suffix: "aesni-avx" gives "ecb-sm4-aesni-avx". */
	const char *name;
	int priority;
	struct module *owner;
	/*
	 * Bulk functions; if uses_simd they run between sm4_simd_begin/end
	 * for requests of every length (the single-block cipher too), and
	 * sm4_generic_mode_ops only where SIMD is not usable: no length
	 * leaves the driver's code for the portable table S-box.
	 */
	const struct sm4_mode_ops *ops;
	bool uses_simd;
	/*
	 * Optional: requests shorter than small_below bytes use small_ops
	 * instead of ops (e.g. narrower registers where the wide ones do
	 * not pay).
	 */
	const struct sm4_mode_ops *small_ops;
	unsigned int small_below;
	/*
	 * Optional key expansion (e.g. SM4EKEY); must produce the same
	 * schedules as sm4_expandkey().  Called inside a SIMD section when
	 * uses_simd and SIMD is usable, sm4_expandkey() otherwise.
	 */
	int (*expandkey)(struct sm4_ctx *ctx, const u8 *key,
			 unsigned int key_len);
	/* Which skciphers to register: bits 1 << SM4_MODE_*. */
	unsigned int mode_mask;
	/*
	 * If nonzero, also register the single-block cipher "sm4" (driver
	 * "sm4-<name>") at this priority; it uses ops->ecb on one block.
	 */
	int cipher_priority;
	/*
	 * Optional, for uses_simd drivers: GHASH functions; if set,
	 * gcm(sm4) is registered too (priority + 1, above the gcm template
	 * over this driver's ctr).  It uses .ops (not .small_ops) for its
	 * counter blocks, at every assoclen + cryptlen, whenever SIMD is
	 * usable (and was at setkey, for its key table).
	 */
	const struct sm4_gcm_ops *gcm;
	/*
	 * Optional: CBC-MAC functions (include/sm4/mac.h); if set, what
	 * mac_mask asks for (SM4_ALL_MACS, SM4_MAC_CCM) is registered too,
	 * the MACs at priority, ccm(sm4) at priority + 1, over .ops' CTR
	 * (not .small_ops), at every length where SIMD is usable.  A driver
	 * of mac_mask alone may have mode_mask 0.
	 */
	const struct sm4_mac_ops *mac;
	unsigned int mac_mask;
	/* Filled in by sm4_skcipher_register(). */
	struct sm4_skcipher_alg algs[SM4_NUM_MODES];
	struct crypto_alg cipher;
	bool cipher_registered;
	struct aead_alg gcm_alg;
	bool gcm_registered;
	struct sm4_mac_alg macs[SM4_NUM_MACS];
	struct sm4_ccm_alg ccm;
};

#define SM4_ALL_MODES	((1U << SM4_NUM_MODES) - 1)

/* Module aliases for the skciphers of driver suffix @name. */
#define MODULE_ALIAS_SM4_SKCIPHERS(name)				\
	MODULE_ALIAS_CRYPTO("ecb(sm4)");				\
	MODULE_ALIAS_CRYPTO("ecb-sm4-" name);				\
	MODULE_ALIAS_CRYPTO("cbc(sm4)");				\
	MODULE_ALIAS_CRYPTO("cbc-sm4-" name);				\
	MODULE_ALIAS_CRYPTO("cfb(sm4)");				\
	MODULE_ALIAS_CRYPTO("cfb-sm4-" name);				\
	MODULE_ALIAS_CRYPTO("ctr(sm4)");				\
	MODULE_ALIAS_CRYPTO("ctr-sm4-" name);				\
	MODULE_ALIAS_CRYPTO("xts(sm4)");				\
	MODULE_ALIAS_CRYPTO("xts-sm4-" name);				\
	MODULE_ALIAS_CRYPTO("cts(cbc(sm4))");				\
	MODULE_ALIAS_CRYPTO("cts-cbc-sm4-" name)

/* Module aliases for gcm(sm4) of driver suffix @name. */
#define MODULE_ALIAS_SM4_GCM(name)					\
	MODULE_ALIAS_CRYPTO("gcm(sm4)");				\
	MODULE_ALIAS_CRYPTO("gcm-sm4-" name)

int sm4_skcipher_register(struct sm4_skcipher_driver *drv);
void sm4_skcipher_unregister(struct sm4_skcipher_driver *drv);

/*
 * Internal to sm4_generic.ko: gcm(sm4) (crypto/sm4_aead_glue.c) and what
 * it shares with crypto/sm4_glue.c: the bulk functions for a request of
 * @len bytes (*@simd: whether to run them in a SIMD section), and the
 * key expansion.
 */
int sm4_gcm_register(struct sm4_skcipher_driver *drv);
void sm4_gcm_unregister(struct sm4_skcipher_driver *drv);
const struct sm4_mode_ops *
sm4_glue_ops(const struct sm4_skcipher_driver *drv, unsigned int len,
	     bool *simd);
int sm4_glue_expandkey(const struct sm4_skcipher_driver *drv,
		       struct sm4_ctx *ctx, const u8 *key, unsigned int key_len);
/*
 * What every algorithm of @drv fills alike in its crypto_alg (the caller
 * sets cra_name): cra_driver_name "<@prefix>-sm4-<drv->name>" (@prefix
 * NULL: "sm4-<drv->name>"), the priority, block and context sizes given,
 * and the owner.
 */
void sm4_glue_fill_base(struct crypto_alg *base,
			const struct sm4_skcipher_driver *drv,
			const char *prefix, int priority,
			unsigned int blocksize, unsigned int ctxsize);
/* The same for the MAC family's drivers (crypto/sm4_mac_glue.c). */
int sm4_simd_expandkey(int (*expandkey)(struct sm4_ctx *ctx, const u8 *key,
					unsigned int key_len),
		       bool uses_simd, struct sm4_ctx *ctx, const u8 *key,
		       unsigned int key_len);

/*
 * module_sm4_driver(id, drv, cpu_check): the init and exit functions
 * (id##_init, id##_exit) of a module that registers the one struct
 * sm4_skcipher_driver @drv.  Init evaluates @cpu_check (0, or an error
 * such as -ENODEV after its one log line when the CPU or OS cannot run
 * @drv) and registers @drv if it is 0; exit unregisters it.  The module
 * imports the namespace of sm4_skcipher_register() (compat.h).
 */
#define module_sm4_driver(id, drv, cpu_check)				\
SM4_MODULE_IMPORT_NS();							\
static int __init id##_init(void)					\
{									\
	int err = (cpu_check);						\
									\
	return err ? err : sm4_skcipher_register(&(drv));		\
}									\
module_init(id##_init);							\
									\
static void __exit id##_exit(void)					\
{									\
	sm4_skcipher_unregister(&(drv));				\
}									\
module_exit(id##_exit)

#endif /* _SM4_CRYPTO_GLUE_H */
