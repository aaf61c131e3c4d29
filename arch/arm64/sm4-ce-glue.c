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

asmlinkage void sm4_ce_crypt_block(const u32 *rk, u8 *out, const u8 *in);
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
	.expandkey	= sm4_ce_expandkey,
};

/* ---- The single-block cipher --------------------------------------- */

static int sm4_ce_cipher_setkey(struct crypto_tfm *tfm, const u8 *key,
				unsigned int key_len)
{
	struct sm4_ctx *ctx = crypto_tfm_ctx(tfm);
	int err;

	if (key_len != SM4_KEY_SIZE)
		return -EINVAL;
	if (!crypto_simd_usable())
		return sm4_expandkey(ctx, key, key_len);
	sm4_simd_begin();
	err = sm4_ce_expandkey(ctx, key, key_len);
	sm4_simd_end();
	return err;
}

static void sm4_ce_cipher_crypt(const u32 *rk, u8 *out, const u8 *in)
{
	if (!crypto_simd_usable()) {
		sm4_crypt_block(rk, out, in);
		return;
	}
	sm4_simd_begin();
	sm4_ce_crypt_block(rk, out, in);
	sm4_simd_end();
}

static void sm4_ce_cipher_encrypt(struct crypto_tfm *tfm, u8 *out,
				  const u8 *in)
{
	const struct sm4_ctx *ctx = crypto_tfm_ctx(tfm);

	sm4_ce_cipher_crypt(ctx->rkey_enc, out, in);
}

static void sm4_ce_cipher_decrypt(struct crypto_tfm *tfm, u8 *out,
				  const u8 *in)
{
	const struct sm4_ctx *ctx = crypto_tfm_ctx(tfm);

	sm4_ce_cipher_crypt(ctx->rkey_dec, out, in);
}

static struct crypto_alg sm4_ce_cipher = {
	.cra_name		= "sm4",
	.cra_driver_name	= "sm4-ce",
	.cra_priority		= SM4_CE_CIPHER_PRIORITY,
	.cra_flags		= CRYPTO_ALG_TYPE_CIPHER,
	.cra_blocksize		= SM4_BLOCK_SIZE,
	.cra_ctxsize		= sizeof(struct sm4_ctx),
	.cra_module		= THIS_MODULE,
	.cra_u			= {
		.cipher = {
			.cia_min_keysize	= SM4_KEY_SIZE,
			.cia_max_keysize	= SM4_KEY_SIZE,
			.cia_setkey		= sm4_ce_cipher_setkey,
			.cia_encrypt		= sm4_ce_cipher_encrypt,
			.cia_decrypt		= sm4_ce_cipher_decrypt,
		},
	},
};

static int __init sm4_ce_init(void)
{
	int err;

	err = crypto_register_alg(&sm4_ce_cipher);
	if (err)
		return err;
	err = sm4_skcipher_register(&sm4_ce_driver);
	if (err)
		crypto_unregister_alg(&sm4_ce_cipher);
	return err;
}

static void __exit sm4_ce_exit(void)
{
	sm4_skcipher_unregister(&sm4_ce_driver);
	crypto_unregister_alg(&sm4_ce_cipher);
}

module_cpu_feature_match(SM4, sm4_ce_init);
module_exit(sm4_ce_exit);

MODULE_DESCRIPTION("SM4 cipher and ECB/CBC/CFB/CTR/XTS, arm64 Crypto Extensions");
MODULE_LICENSE("GPL");
MODULE_ALIAS_CRYPTO("sm4");
MODULE_ALIAS_CRYPTO("sm4-ce");
MODULE_ALIAS_SM4_SKCIPHERS("ce");
