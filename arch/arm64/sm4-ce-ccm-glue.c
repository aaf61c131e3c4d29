// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-ce-ccm: ccm(sm4) as "ccm-sm4-ce" with the arm64 SM4 Crypto
 * Extensions, under upstream's module name.  The bulk functions are
 * sm4-ce.ko's (sm4_ce_mac_ops: the MAC chain with the CTR keystream in
 * its latency shadow; sm4_ce_mode_ops for CTR), the request handling is
 * the shared glue's (crypto/sm4_mac_glue.c).
 */

#include <linux/module.h>
#include <linux/init.h>
#include <linux/cpufeature.h>
#include <sm4/compat.h>
#include <sm4/glue.h>
#include "sm4_arm64_glue.h"
#include "sm4-ce.h"

/* No skcipher (sm4-ce has them): only ccm(sm4). */
static struct sm4_driver sm4_ce_ccm_driver = {
	.name		= "ce",
	.priority	= 400,
	.owner		= THIS_MODULE,
	.ops		= &sm4_ce_mode_ops,
	.uses_simd	= true,
	.expandkey	= sm4_ce_expandkey,
	.mac		= &sm4_ce_mac_ops,
	.mac_mask	= SM4_MAC_CCM,
};

module_sm4_driver(sm4_ce_ccm, sm4_ce_ccm_driver,
		  sm4_arm64_check_cpu("sm4-ce-ccm", cpu_have_named_feature(SM4),
				      "the SM4 instructions"));

MODULE_DESCRIPTION("SM4 CCM AEAD, arm64 Crypto Extensions");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_CCM("ce");
