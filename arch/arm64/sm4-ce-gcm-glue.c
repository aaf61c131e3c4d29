// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-ce-gcm: gcm(sm4) as "gcm-sm4-ce" with the arm64 SM4 Crypto
 * Extensions and PMULL, under upstream's module name.  The bulk functions
 * are sm4-ce.ko's (sm4_ce_gcm_ops: GHASH with PMULL over eight blocks per
 * reduction, fused with the eight-block SM4E CTR; sm4_ce_mode_ops for
 * CTR), the request handling is the shared glue's
 * (crypto/sm4_aead_glue.c).
 */

#include <linux/module.h>
#include <linux/init.h>
#include <linux/cpufeature.h>
#include <sm4/compat.h>
#include <sm4/glue.h>
#include "sm4_arm64_glue.h"
#include "sm4-ce.h"

/* Registers only gcm(sm4) (no skcipher modes, no cipher). */
static struct sm4_driver sm4_ce_gcm_driver = {
	.name		= "ce",
	.priority	= 400,
	.owner		= THIS_MODULE,
	.ops		= &sm4_ce_mode_ops,
	.uses_simd	= true,
	.expandkey	= sm4_ce_expandkey,
	.gcm		= &sm4_ce_gcm_ops,
};

module_sm4_driver(sm4_ce_gcm, sm4_ce_gcm_driver,
		  sm4_arm64_check_cpu("sm4-ce-gcm", cpu_have_named_feature(SM4) &&
				      cpu_have_named_feature(PMULL),
				      "the SM4 or PMULL instructions"));

MODULE_DESCRIPTION("SM4 GCM AEAD, arm64 Crypto Extensions and PMULL");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_GCM("ce");
