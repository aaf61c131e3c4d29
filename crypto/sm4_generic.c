// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-generic: the portable SM4 cipher for the crypto API.
 *
 * Registers the single-block cipher "sm4" (driver "sm4-generic"), which
 * the kernel's ecb/cbc/ctr/xts templates build on.  On kernels without
 * the cfb template it also registers cfb(sm4) through the shared glue.
 * This module also carries the mode code and the skcipher glue that the
 * accelerated drivers use (crypto/sm4_modes.c, crypto/sm4_glue.c).
 */

#include <linux/module.h>
#include <linux/init.h>
#include <linux/errno.h>
#include <crypto/algapi.h>
#include <sm4/compat.h>
#include <sm4/glue.h>

#define SM4_GENERIC_PRIORITY	100

static int sm4_generic_setkey(struct crypto_tfm *tfm, const u8 *key,
			      unsigned int key_len)
{
	return sm4_expandkey(crypto_tfm_ctx(tfm), key, key_len);
}

static void sm4_generic_encrypt(struct crypto_tfm *tfm, u8 *out, const u8 *in)
{
	const struct sm4_ctx *ctx = crypto_tfm_ctx(tfm);

	sm4_crypt_block(ctx->rkey_enc, out, in);
}

static void sm4_generic_decrypt(struct crypto_tfm *tfm, u8 *out, const u8 *in)
{
	const struct sm4_ctx *ctx = crypto_tfm_ctx(tfm);

	sm4_crypt_block(ctx->rkey_dec, out, in);
}

static struct crypto_alg sm4_generic_cipher = {
	.cra_name		= "sm4",
	.cra_driver_name	= "sm4-generic",
	.cra_priority		= SM4_GENERIC_PRIORITY,
	.cra_flags		= CRYPTO_ALG_TYPE_CIPHER,
	.cra_blocksize		= SM4_BLOCK_SIZE,
	.cra_ctxsize		= sizeof(struct sm4_ctx),
	.cra_module		= THIS_MODULE,
	.cra_u			= {
		.cipher = {
			.cia_min_keysize	= SM4_KEY_SIZE,
			.cia_max_keysize	= SM4_KEY_SIZE,
			.cia_setkey		= sm4_generic_setkey,
			.cia_encrypt		= sm4_generic_encrypt,
			.cia_decrypt		= sm4_generic_decrypt,
		},
	},
};

static struct sm4_skcipher_driver sm4_generic_cfb = {
	.name		= "generic",
	.priority	= SM4_GENERIC_PRIORITY,
	.owner		= THIS_MODULE,
	.ops		= &sm4_generic_mode_ops,
	.mode_mask	= 1U << SM4_MODE_CFB,
};

static int __init sm4_generic_init(void)
{
	int err;

	err = crypto_register_alg(&sm4_generic_cipher);
	if (err || !SM4_REGISTER_GENERIC_CFB)
		return err;

	err = sm4_skcipher_register(&sm4_generic_cfb);
	if (err)
		crypto_unregister_alg(&sm4_generic_cipher);
	return err;
}

static void __exit sm4_generic_exit(void)
{
	sm4_skcipher_unregister(&sm4_generic_cfb);
	crypto_unregister_alg(&sm4_generic_cipher);
}

module_init(sm4_generic_init);
module_exit(sm4_generic_exit);

MODULE_DESCRIPTION("SM4 cipher, portable C implementation");
MODULE_LICENSE("GPL");
MODULE_ALIAS_CRYPTO("sm4");
MODULE_ALIAS_CRYPTO("sm4-generic");
#if SM4_REGISTER_GENERIC_CFB
MODULE_ALIAS_CRYPTO("cfb(sm4)");
MODULE_ALIAS_CRYPTO("cfb-sm4-generic");
#endif
