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
#include "sm4-ce.h"

/* Registers only gcm(sm4) (no skcipher modes, no cipher). */
static struct sm4_skcipher_driver sm4_ce_gcm_driver = {
	.name		= "ce",
	.priority	= 400,
	.owner		= THIS_MODULE,
	.uses_simd	= true,
	.expandkey	= sm4_ce_expandkey,
};

static int __init sm4_ce_gcm_init(void)
{
	if (!cpu_have_named_feature(SM4) || !cpu_have_named_feature(PMULL)) {
		pr_info("sm4-ce-gcm: CPU lacks the SM4 or PMULL instructions, driver not loaded\n");
		return -ENODEV;
	}
	sm4_ce_gcm_driver.ops = sm4_ce_mode_ops;
	sm4_ce_gcm_driver.gcm = sm4_ce_gcm_ops;
	return sm4_skcipher_register(&sm4_ce_gcm_driver);
}

static void __exit sm4_ce_gcm_exit(void)
{
	sm4_skcipher_unregister(&sm4_ce_gcm_driver);
}

module_init(sm4_ce_gcm_init);
module_exit(sm4_ce_gcm_exit);

MODULE_DESCRIPTION("SM4 GCM AEAD, arm64 Crypto Extensions and PMULL");
MODULE_LICENSE("GPL");
/* sm4_skcipher_register() and sm4-ce.ko's tables (compat.h). */
SM4_MODULE_IMPORT_NS();
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_GCM("ce");
