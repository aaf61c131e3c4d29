/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one glue shared by every SM4 driver of this project: what a driver
 * module describes and registers.
 *
 * A driver describes itself with struct sm4_driver (its name suffix,
 * priority, bulk functions and which algorithm families to build over
 * them) and calls sm4_driver_register(), which registers, as asked:
 * synchronous ecb/cbc/cfb/ctr/xts(sm4) skciphers "<mode>-sm4-<name>" and
 * cts(cbc(sm4)) "cts-cbc-sm4-<name>" (.mode_mask); the single-block
 * cipher "sm4" as "sm4-<name>" (.cipher_priority); the AEAD gcm(sm4) as
 * "gcm-sm4-<name>" over GHASH functions (.gcm, include/sm4/gcm.h); the
 * shashes cbcmac/cmac/xcbc(sm4) and the AEAD ccm(sm4) over CBC-MAC
 * functions (.mac, .mac_mask, include/sm4/mac_glue.h).  The glue walks
 * requests, runs the driver's functions inside SIMD sections of at most
 * SM4_SIMD_CHUNK bytes, and runs the portable code where SIMD is not
 * usable in the calling context.  It lives in sm4_generic.ko and is
 * exported in the namespace of compat.h.
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

/*
 * Bytes of work per SIMD section at most: 4 KiB whatever the page size
 * (a 64 KiB page would keep preemption off sixteen times as long).
 */
#define SM4_SIMD_CHUNK	4096

enum sm4_mode {
	SM4_MODE_ECB,
	SM4_MODE_CBC,
	SM4_MODE_CFB,
	SM4_MODE_CTR,
	SM4_MODE_XTS,
	SM4_MODE_CTS,		/* cts(cbc(sm4)), CS3 as crypto/cts.c */
	SM4_NUM_MODES
};

struct sm4_driver;

struct sm4_skcipher_alg {
	struct skcipher_alg alg;
	const struct sm4_driver *drv;
	enum sm4_mode mode;
	bool registered;
};

struct sm4_driver {
	/* Driver name suffix: "aesni-avx" gives "ecb-sm4-aesni-avx". */
	const char *name;
	int priority;
	struct module *owner;
	/*
	 * Bulk functions; if uses_simd they run between sm4_simd_begin/end
	 * for requests of every length (the single-block cipher too), and
	 * the portable code only where SIMD is not usable: no length
	 * leaves the driver's code for the portable table S-box.
	 */
	const struct sm4_mode_ops *ops;
	bool uses_simd;
	/*
	 * Optional: skcipher requests shorter than small_below bytes use
	 * small_ops instead of ops (e.g. narrower registers where the wide
	 * ones do not pay).  The AEADs and MACs always use ops.
	 */
	const struct sm4_mode_ops *small_ops;
	unsigned int small_below;
	/*
	 * Optional key expansion (e.g. SM4EKEY); must produce the same
	 * schedules as sm4_expandkey().  Used wherever ops are (inside a
	 * SIMD section if uses_simd), sm4_expandkey() otherwise.
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
	 * over this driver's ctr), over .ops.  A key's table of H powers
	 * is made at setkey, or by the first request that can use SIMD if
	 * setkey could not.
	 */
	const struct sm4_gcm_ops *gcm;
	/*
	 * Optional: CBC-MAC functions (include/sm4/mac.h); if set, what
	 * mac_mask asks for (SM4_ALL_MACS, SM4_MAC_CCM) is registered too,
	 * the MACs at priority, ccm(sm4) at priority + 1, over .ops' CTR.
	 */
	const struct sm4_mac_ops *mac;
	unsigned int mac_mask;
	/* Filled in by sm4_driver_register(). */
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

/* Module aliases for the MAC shashes of driver suffix @name. */
#define MODULE_ALIAS_SM4_MACS(name)					\
	MODULE_ALIAS_CRYPTO("cbcmac(sm4)");				\
	MODULE_ALIAS_CRYPTO("cbcmac-sm4-" name);			\
	MODULE_ALIAS_CRYPTO("cmac(sm4)");				\
	MODULE_ALIAS_CRYPTO("cmac-sm4-" name);				\
	MODULE_ALIAS_CRYPTO("xcbc(sm4)");				\
	MODULE_ALIAS_CRYPTO("xcbc-sm4-" name)

/* Module aliases for ccm(sm4) of driver suffix @name. */
#define MODULE_ALIAS_SM4_CCM(name)					\
	MODULE_ALIAS_CRYPTO("ccm(sm4)");				\
	MODULE_ALIAS_CRYPTO("ccm-sm4-" name)

/*
 * Register every algorithm @drv asks for (0, or the first error with
 * nothing left registered); unregister what was registered.
 */
int sm4_driver_register(struct sm4_driver *drv);
void sm4_driver_unregister(struct sm4_driver *drv);

/*
 * module_sm4_driver(id, drv, cpu_check): the init and exit functions
 * (id##_init, id##_exit) of a module that registers the one struct
 * sm4_driver @drv.  Init evaluates @cpu_check (0, or an error such as
 * -ENODEV after its one log line when the CPU or OS cannot run @drv) and
 * registers @drv if it is 0; exit unregisters it.  The module imports
 * the namespace of sm4_driver_register() (compat.h).
 */
#define module_sm4_driver(id, drv, cpu_check)				\
SM4_MODULE_IMPORT_NS();							\
static int __init id##_init(void)					\
{									\
	int err = (cpu_check);						\
									\
	return err ? err : sm4_driver_register(&(drv));			\
}									\
module_init(id##_init);							\
									\
static void __exit id##_exit(void)					\
{									\
	sm4_driver_unregister(&(drv));					\
}									\
module_exit(id##_exit)

#endif /* _SM4_CRYPTO_GLUE_H */
