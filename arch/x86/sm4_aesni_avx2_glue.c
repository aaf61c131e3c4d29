// SPDX-License-Identifier: GPL-2.0
/*
 * SM4 ecb/cbc/cfb/ctr/xts with AES-NI and AVX2 (16 blocks in parallel):
 * driver names "<mode>-sm4-aesni-avx2".  The bulk functions are in
 * sm4-aesni-avx2-asm_64.S; requests are handled by the shared glue
 * (include/sm4/glue.h) in sm4_generic.ko.
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <sm4/compat.h>
#include <sm4/glue.h>
#include "sm4_x86_glue.h"

SM4_DEFINE_MODE_OPS(sm4_aesni_avx2_ops, sm4_aesni_avx2);
SM4_DEFINE_GCM_OPS(sm4_aesni_avx2_gcm_ops, sm4_aesni_avx2);

static struct sm4_skcipher_driver sm4_aesni_avx2_driver = {
	.name		= "aesni-avx2",
	.priority	= 500,
	.owner		= THIS_MODULE,
	.ops		= &sm4_aesni_avx2_ops,
	.uses_simd	= true,
	.scalar_below	= SM4_X86_SCALAR_BELOW,
	.mode_mask	= SM4_ALL_MODES,
};

static const struct sm4_x86_feature sm4_aesni_avx2_features[] = {
	SM4_X86_FEATURE(AES),
	SM4_X86_FEATURE(AVX),
	SM4_X86_FEATURE(AVX2),
	SM4_X86_FEATURE(OSXSAVE),
};

static int __init sm4_aesni_avx2_init(void)
{
	int err;

	err = sm4_x86_check_cpu("sm4-aesni-avx2", sm4_aesni_avx2_features,
				ARRAY_SIZE(sm4_aesni_avx2_features),
				XFEATURE_MASK_SSE | XFEATURE_MASK_YMM);
	if (err)
		return err;
	sm4_aesni_avx2_driver.gcm = sm4_x86_gcm("sm4-aesni-avx2", &sm4_aesni_avx2_gcm_ops,
					X86_FEATURE_PCLMULQDQ, "PCLMULQDQ");
	return sm4_skcipher_register(&sm4_aesni_avx2_driver);
}

static void __exit sm4_aesni_avx2_exit(void)
{
	sm4_skcipher_unregister(&sm4_aesni_avx2_driver);
}

module_init(sm4_aesni_avx2_init);
module_exit(sm4_aesni_avx2_exit);

MODULE_DESCRIPTION("SM4 ECB/CBC/CFB/CTR/XTS/CTS and GCM, AES-NI/AVX2 accelerated");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_SKCIPHERS("aesni-avx2");
MODULE_ALIAS_SM4_GCM("aesni-avx2");
