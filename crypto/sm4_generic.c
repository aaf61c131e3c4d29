// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-generic: the portable SM4 cipher for the crypto API.
 *
 * Registers the single-block cipher "sm4" (driver "sm4-generic"), which
 * the kernel's ecb/cbc/ctr/xts templates build on, through the shared
 * glue; on kernels without the cfb template it also registers cfb(sm4).
 * This module also carries the mode code and the glue that the
 * accelerated drivers use (crypto/sm4_modes.c, crypto/sm4_glue.c).
 */

#include <linux/module.h>
#include <linux/init.h>
#include <sm4/compat.h>
#include <sm4/glue.h>

static struct sm4_skcipher_driver sm4_generic_driver = {
	.name		= "generic",
	.priority	= 100,
	.owner		= THIS_MODULE,
	.ops		= &sm4_generic_mode_ops,
	.cipher_priority = 100,
	.mode_mask	= SM4_REGISTER_GENERIC_CFB ? 1U << SM4_MODE_CFB : 0,
};

static int __init sm4_generic_init(void)
{
	return sm4_skcipher_register(&sm4_generic_driver);
}

static void __exit sm4_generic_exit(void)
{
	sm4_skcipher_unregister(&sm4_generic_driver);
}

module_init(sm4_generic_init);
module_exit(sm4_generic_exit);

MODULE_DESCRIPTION("SM4 cipher, portable C implementation");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_CRYPTO("sm4");
MODULE_ALIAS_CRYPTO("sm4-generic");
#if SM4_REGISTER_GENERIC_CFB
MODULE_ALIAS_CRYPTO("cfb(sm4)");
MODULE_ALIAS_CRYPTO("cfb-sm4-generic");
#endif
