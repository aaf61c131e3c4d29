// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-neon: SM4 ecb/cbc/cfb/ctr/xts for any ARMv8 CPU with Advanced SIMD,
 * eight blocks in parallel, S-box lookups in registers (TBL/TBX), at
 * setkey too.  The bulk functions and the key expansion are in
 * sm4-neon-core.S; request handling is the shared glue of sm4_generic.ko.
 */

#include <linux/module.h>
#include <linux/init.h>
#include <linux/linkage.h>
#include <asm/cpufeature.h>
#include <sm4/compat.h>
#include <sm4/glue.h>
#include "sm4_arm64_glue.h"
#include "sm4-neon.h"

SM4_DEFINE_MODE_OPS(sm4_neon_ops, sm4_neon, SM4_NEON_BATCH);

static struct sm4_driver sm4_neon_driver = {
	.name		= "neon",
	.priority	= 200,
	.owner		= THIS_MODULE,
	.ops		= &sm4_neon_ops,
	.uses_simd	= true,
	.mode_mask	= SM4_ALL_MODES,
	.expandkey	= sm4_neon_expand_key,
};

module_sm4_driver(sm4_neon_driver, sm4_neon_driver,
	sm4_arm64_check_cpu("sm4-neon", cpu_have_named_feature(ASIMD),
			    "Advanced SIMD"));

MODULE_DESCRIPTION("SM4 ECB/CBC/CFB/CTR/XTS, arm64 NEON");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_SKCIPHERS("neon");
