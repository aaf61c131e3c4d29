// SPDX-License-Identifier: GPL-2.0
/*
 * sm4_generic: the portable SM4 cipher for the crypto API, and the glue
 * every driver of this project registers through.
 *
 * sm4_driver_register() is the one place where a driver's algorithm
 * families are registered (include/sm4/glue.h); the families are in
 * crypto/sm4_glue.c (skciphers, the cipher), sm4_aead_glue.c (gcm) and
 * sm4_mac_glue.c (the MACs, ccm), on the core of sm4_core.c.  This
 * module's own driver is the single-block cipher "sm4" (driver
 * "sm4-generic"), which the kernel's ecb/cbc/ctr/xts templates build on,
 * and on kernels without the cfb template cfb(sm4).
 */

#include <linux/module.h>
#include <linux/init.h>
#include <sm4/compat.h>
#include <sm4/core.h>

int sm4_driver_register(struct sm4_driver *drv)
{
	int err;

	err = sm4_cipher_register(drv);
	if (!err)
		err = sm4_skciphers_register(drv);
	if (!err)
		err = sm4_gcm_register(drv);
	if (!err)
		err = sm4_mac_register(drv);
	if (err)
		sm4_driver_unregister(drv);
	return err;
}
SM4_EXPORT_SYMBOL_NS_GPL(sm4_driver_register);

void sm4_driver_unregister(struct sm4_driver *drv)
{
	sm4_mac_unregister(drv);
	sm4_gcm_unregister(drv);
	sm4_skciphers_unregister(drv);
	sm4_cipher_unregister(drv);
}
SM4_EXPORT_SYMBOL_NS_GPL(sm4_driver_unregister);

static struct sm4_driver sm4_generic_driver = {
	.name		= "generic",
	.priority	= 100,
	.owner		= THIS_MODULE,
	.ops		= &sm4_generic_mode_ops,
	.cipher_priority = 100,
	.mode_mask	= SM4_REGISTER_GENERIC_CFB ? 1U << SM4_MODE_CFB : 0,
};

static int __init sm4_generic_init(void)
{
	return sm4_driver_register(&sm4_generic_driver);
}

static void __exit sm4_generic_exit(void)
{
	sm4_driver_unregister(&sm4_generic_driver);
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
