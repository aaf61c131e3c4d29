// SPDX-License-Identifier: GPL-2.0
/*
 * SM4 ecb/cbc/cfb/ctr/xts with AES-NI and AVX (8 blocks in parallel):
 * driver names "<mode>-sm4-aesni-avx".  The bulk functions are in
 * sm4-aesni-avx-asm_64.S; requests are handled by the shared glue
 * (include/sm4/glue.h) in sm4_generic.ko.
 * With the serial CBC-MAC (<prefix>_cbcmac) it also registers
 * cbcmac/cmac/xcbc(sm4) and ccm(sm4) ("ccm-sm4-aesni-avx"; CTR from the
 * bulk functions) through the shared glue (include/sm4/mac_glue.h).
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <sm4/compat.h>
#include "sm4_x86_glue.h"

SM4_DEFINE_MODE_OPS(sm4_aesni_avx_ops, sm4_aesni_avx);
SM4_DEFINE_CBCMAC_OPS(sm4_aesni_avx_mac_ops, sm4_aesni_avx);
SM4_DEFINE_GCM_OPS(sm4_aesni_avx_gcm_ops, sm4_aesni_avx);

/* The key expansion without the table S-box (sm4_x86_expand_fn). */
asmlinkage sm4_x86_expand_fn sm4_aesni_avx_expand_key;

static int sm4_aesni_avx_expandkey(struct sm4_ctx *ctx, const u8 *key,
				   unsigned int key_len)
{
	return sm4_x86_setkey(sm4_aesni_avx_expand_key, ctx, key, key_len);
}

static const struct sm4_x86_feature sm4_aesni_avx_features[] = {
	SM4_X86_FEATURE(AES),
	SM4_X86_FEATURE(AVX),
	SM4_X86_FEATURE(OSXSAVE),
};

static struct sm4_x86_driver sm4_aesni_avx_drv = {
	.skcipher = {
		.name		= "aesni-avx",
		.priority	= 400,
		.owner		= THIS_MODULE,
		.ops		= &sm4_aesni_avx_ops,
		.uses_simd	= true,
		.expandkey	= sm4_aesni_avx_expandkey,
		.mode_mask	= SM4_ALL_MODES,
		.mac		= &sm4_aesni_avx_mac_ops,
		.mac_mask	= SM4_ALL_MACS | SM4_MAC_CCM,
	},
	.module		= "sm4-aesni-avx",
	.features	= sm4_aesni_avx_features,
	.nfeatures	= ARRAY_SIZE(sm4_aesni_avx_features),
	.xfeatures	= XFEATURE_MASK_SSE | XFEATURE_MASK_YMM,
	.gcm		= &sm4_aesni_avx_gcm_ops,
	.gcm_feature	= X86_FEATURE_PCLMULQDQ,
	.gcm_feature_name = "PCLMULQDQ",
};
module_sm4_x86_driver(sm4_aesni_avx_drv);

MODULE_DESCRIPTION("SM4 ECB/CBC/CFB/CTR/XTS/CTS, GCM, CCM and CBCMAC/CMAC/XCBC, AES-NI/AVX accelerated");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_SKCIPHERS("aesni-avx");
MODULE_ALIAS_SM4_MACS("aesni-avx");
MODULE_ALIAS_SM4_CCM("aesni-avx");
MODULE_ALIAS_SM4_GCM("aesni-avx");
