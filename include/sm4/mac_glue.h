/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one glue of the CBC-MAC family, shared by every SM4 driver:
 * cbcmac/cmac/xcbc(sm4) shashes and the ccm(sm4) AEAD.
 *
 * A driver describes itself with struct sm4_mac_driver (its name suffix,
 * priority, its skcipher bulk functions for CTR, its struct sm4_mac_ops)
 * and calls sm4_mac_register(), which registers "cbcmac-sm4-<name>",
 * "cmac-sm4-<name>", "xcbc-sm4-<name>" (at the driver's priority) and
 * "ccm-sm4-<name>" (priority + 1, above the ccm template) as asked.
 * The glue walks requests, runs the bulk functions inside SIMD sections of
 * at most SM4_SIMD_CHUNK bytes, and falls back to the portable code when
 * SIMD is not usable.  It lives in sm4_generic.ko (crypto/sm4_mac_glue.c).
 */
#ifndef _SM4_CRYPTO_MAC_GLUE_H
#define _SM4_CRYPTO_MAC_GLUE_H

#include <crypto/internal/hash.h>
#include <crypto/internal/aead.h>
#include <sm4/glue.h>
#include <sm4/mac.h>

enum sm4_mac_alg_id {
	SM4_MAC_CBCMAC,
	SM4_MAC_CMAC,
	SM4_MAC_XCBC,
	SM4_NUM_MACS,
	SM4_AEAD_CCM = SM4_NUM_MACS,	/* bit in alg_mask only */
};

struct sm4_mac_driver;

struct sm4_mac_alg {
	struct shash_alg alg;
	const struct sm4_mac_driver *drv;
	enum sm4_mac_alg_id id;
	bool registered;
};

struct sm4_ccm_alg {
	struct aead_alg alg;
	const struct sm4_mac_driver *drv;
	bool registered;
};

struct sm4_mac_driver {
	/* Driver name suffix: "ce" gives "cmac-sm4-ce". */
	const char *name;
	int priority;
	struct module *owner;
	/* ->ctr serves CCM's tag, last block and verified decryption. */
	const struct sm4_mode_ops *ops;
	const struct sm4_mac_ops *mac_ops;
	/* The bulk functions run between sm4_simd_begin/end. */
	bool uses_simd;
	/* Optional key expansion, as struct sm4_skcipher_driver's. */
	int (*expandkey)(struct sm4_ctx *ctx, const u8 *key,
			 unsigned int key_len);
	/* What to register: bits 1 << SM4_MAC_* and 1 << SM4_AEAD_CCM. */
	unsigned int alg_mask;
	/* Filled in by sm4_mac_register(). */
	struct sm4_mac_alg macs[SM4_NUM_MACS];
	struct sm4_ccm_alg ccm;
};

#define SM4_ALL_MACS	((1U << SM4_NUM_MACS) - 1)

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

int sm4_mac_register(struct sm4_mac_driver *drv);
void sm4_mac_unregister(struct sm4_mac_driver *drv);

#endif /* _SM4_CRYPTO_MAC_GLUE_H */
