/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one glue of the CBC-MAC family, shared by every SM4 driver:
 * cbcmac/cmac/xcbc(sm4) shashes and the ccm(sm4) AEAD.
 *
 * A driver asks for them in its struct sm4_driver (include/sm4/glue.h):
 * its struct sm4_mac_ops in .mac and what to register in .mac_mask.
 * sm4_driver_register() then registers
 * "cbcmac-sm4-<name>", "cmac-sm4-<name>", "xcbc-sm4-<name>" (at the
 * driver's priority) and "ccm-sm4-<name>" (priority + 1, above the ccm
 * template) as asked, over the driver's CTR function and key expansion.
 * The glue walks requests, runs the bulk functions inside SIMD sections
 * of at most SM4_SIMD_CHUNK bytes, and falls back to the portable code
 * when SIMD is not usable.  It lives in sm4_generic.ko
 * (crypto/sm4_mac_glue.c).
 */
#ifndef _SM4_CRYPTO_MAC_GLUE_H
#define _SM4_CRYPTO_MAC_GLUE_H

#include <crypto/internal/hash.h>
#include <crypto/internal/aead.h>
#include <sm4/mac.h>

enum sm4_mac_alg_id {
	SM4_MAC_CBCMAC,
	SM4_MAC_CMAC,
	SM4_MAC_XCBC,
	SM4_NUM_MACS,
	SM4_AEAD_CCM = SM4_NUM_MACS,	/* bit in mac_mask only */
};

/* .mac_mask bits: the three MACs, ccm(sm4). */
#define SM4_ALL_MACS	((1U << SM4_NUM_MACS) - 1)
#define SM4_MAC_CCM	(1U << SM4_AEAD_CCM)

struct sm4_driver;

struct sm4_mac_alg {
	struct shash_alg alg;
	const struct sm4_driver *drv;
	enum sm4_mac_alg_id id;
	bool registered;
};

struct sm4_ccm_alg {
	struct aead_alg alg;
	const struct sm4_driver *drv;
	bool registered;
};

#endif /* _SM4_CRYPTO_MAC_GLUE_H */
