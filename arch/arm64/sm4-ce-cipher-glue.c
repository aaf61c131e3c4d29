// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-ce-cipher: the single-block cipher "sm4" (driver "sm4-ce") with the
 * arm64 SM4 Crypto Extensions, under the module name upstream gives it.
 * Like upstream's it needs no other SM4 driver module: it has its own
 * copy of the SM4E block code (sm4-ce-cipher-core.S, the sm4-ce.h
 * functions, not exported from here), and registers through the shared
 * glue of sm4_generic.ko, which falls back to the portable code where
 * SIMD is not usable.
 */

#include <linux/module.h>
#include <linux/init.h>
#include <linux/cpufeature.h>
#include <sm4/compat.h>
#include <sm4/glue.h>
#include "sm4_arm64_glue.h"
#include "sm4-ce.h"

/* The glue calls ->ecb with one block, inside a SIMD section. */
static void sm4_ce_cipher_ecb(const u32 *rk, u8 *dst, const u8 *src,
			      unsigned int nblocks)
{
	for (; nblocks; nblocks--, dst += SM4_BLOCK_SIZE, src += SM4_BLOCK_SIZE)
		sm4_ce_crypt_block(rk, dst, src);
}

static const struct sm4_mode_ops sm4_ce_cipher_ops = {
	.ecb		= sm4_ce_cipher_ecb,
};

static struct sm4_driver sm4_ce_cipher_driver = {
	.name		= "ce",
	.owner		= THIS_MODULE,
	.ops		= &sm4_ce_cipher_ops,
	.uses_simd	= true,
	.cipher_priority = 300,
	.expandkey	= sm4_ce_expandkey,
};

module_sm4_driver(sm4_ce_cipher_driver, sm4_ce_cipher_driver,
	sm4_arm64_check_cpu("sm4-ce-cipher", cpu_have_named_feature(SM4),
			    "the SM4 instructions"));

MODULE_DESCRIPTION("SM4 cipher, arm64 Crypto Extensions");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_CRYPTO("sm4");
MODULE_ALIAS_CRYPTO("sm4-ce");
