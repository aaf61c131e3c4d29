// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-ce: SM4 with the arm64 SM4 Crypto Extensions (SM4E, SM4EKEY).
 *
 * Registers the single-block cipher "sm4" (driver "sm4-ce") and the
 * ecb/cbc/cfb/ctr/xts(sm4) skciphers "<mode>-sm4-ce" through the shared
 * glue of sm4_generic.ko.  Loaded automatically on CPUs with FEAT_SM4.
 */

#include <linux/module.h>
#include <linux/init.h>
#include <linux/linkage.h>
#include <linux/cpufeature.h>
#include <crypto/algapi.h>
#include <sm4/compat.h>
#include <sm4/glue.h>

#define SM4_CE_CIPHER_PRIORITY	300
#define SM4_CE_SKCIPHER_PRIORITY	400

SM4_DEFINE_MODE_OPS(sm4_ce_ops, sm4_ce);

asmlinkage void sm4_ce_expand_key(const u8 *key, u32 *rkey_enc,
				  u32 *rkey_dec, const u32 *fk,
				  const u32 *ck);

/* Called with NEON usable (inside a SIMD section). */
static int sm4_ce_expandkey(struct sm4_ctx *ctx, const u8 *key,
			    unsigned int key_len)
{
	if (key_len != SM4_KEY_SIZE)
		return -EINVAL;
	sm4_ce_expand_key(key, ctx->rkey_enc, ctx->rkey_dec,
			  crypto_sm4_fk, crypto_sm4_ck);
	return 0;
}

static struct sm4_skcipher_driver sm4_ce_driver = {
	.name		= "ce",
	.priority	= SM4_CE_SKCIPHER_PRIORITY,
	.owner		= THIS_MODULE,
	.ops		= &sm4_ce_ops,
	.uses_simd	= true,
	.mode_mask	= SM4_ALL_MODES,
	.cipher_priority = SM4_CE_CIPHER_PRIORITY,
	.expandkey	= sm4_ce_expandkey,
};

static int __init sm4_ce_init(void)
{
	return sm4_skcipher_register(&sm4_ce_driver);
}

static void __exit sm4_ce_exit(void)
{
	sm4_skcipher_unregister(&sm4_ce_driver);
}

module_cpu_feature_match(SM4, sm4_ce_init);
module_exit(sm4_ce_exit);

MODULE_DESCRIPTION("SM4 cipher and ECB/CBC/CFB/CTR/XTS, arm64 Crypto Extensions");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_CRYPTO("sm4");
MODULE_ALIAS_CRYPTO("sm4-ce");
MODULE_ALIAS_SM4_SKCIPHERS("ce");
