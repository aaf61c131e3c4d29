// SPDX-License-Identifier: GPL-2.0
/*
 * SM4 ecb/cbc/cfb/ctr/xts with AES-NI, AVX2 and VAES (16 blocks in
 * parallel): driver names "<mode>-sm4-vaes-avx2".  The bulk functions are
 * in sm4-vaes-avx2-asm_64.S (sm4-aesni-avx2's code with the ymm S-box in
 * one VAESENCLAST); requests are handled by the shared glue
 * (include/sm4/glue.h) in sm4_generic.ko.  Priority 520: above
 * sm4-aesni-avx2 (500), below sm4-gfni-avx2 (550), so it serves the CPUs
 * with VAES and no GFNI (AMD Zen 3).
 * With the serial CBC-MAC (<prefix>_cbcmac) it also registers
 * cbcmac/cmac/xcbc(sm4) and ccm(sm4) ("ccm-sm4-aesni-avx2"; CTR from the
 * bulk functions) through the shared glue (include/sm4/mac_glue.h).
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <sm4/compat.h>
#include "sm4_x86_glue.h"

SM4_DEFINE_MODE_OPS(sm4_vaes_avx2_ops, sm4_vaes_avx2);
SM4_DEFINE_CBCMAC_OPS(sm4_vaes_avx2_mac_ops, sm4_vaes_avx2);
SM4_DEFINE_GCM_OPS(sm4_vaes_avx2_gcm_ops, sm4_vaes_avx2);

/* The key expansion without the table S-box (sm4_x86_expand_fn). */
asmlinkage sm4_x86_expand_fn sm4_vaes_avx2_expand_key;

static int sm4_vaes_avx2_expandkey(struct sm4_ctx *ctx, const u8 *key,
				    unsigned int key_len)
{
	return sm4_x86_setkey(sm4_vaes_avx2_expand_key, ctx, key, key_len);
}

static const struct sm4_x86_feature sm4_vaes_avx2_features[] = {
	SM4_X86_FEATURE(AES),
	SM4_X86_FEATURE(AVX),
	SM4_X86_FEATURE(AVX2),
	SM4_X86_FEATURE(VAES),
	SM4_X86_FEATURE(OSXSAVE),
};

static struct sm4_x86_driver sm4_vaes_avx2_drv = {
	.skcipher = {
		.name		= "vaes-avx2",
		.priority	= 520,
		.owner		= THIS_MODULE,
		.ops		= &sm4_vaes_avx2_ops,
		.uses_simd	= true,
		.expandkey	= sm4_vaes_avx2_expandkey,
		.mode_mask	= SM4_ALL_MODES,
		.mac		= &sm4_vaes_avx2_mac_ops,
		.mac_mask	= SM4_ALL_MACS | SM4_MAC_CCM,
	},
	.module		= "sm4-vaes-avx2",
	.features	= sm4_vaes_avx2_features,
	.nfeatures	= ARRAY_SIZE(sm4_vaes_avx2_features),
	.xfeatures	= XFEATURE_MASK_SSE | XFEATURE_MASK_YMM,
	.gcm		= &sm4_vaes_avx2_gcm_ops,
	.gcm_feature	= X86_FEATURE_PCLMULQDQ,
	.gcm_feature_name = "PCLMULQDQ",
};
module_sm4_x86_driver(sm4_vaes_avx2_drv);

MODULE_DESCRIPTION("SM4 ECB/CBC/CFB/CTR/XTS/CTS, GCM, CCM and CBCMAC/CMAC/XCBC, AES-NI/AVX2/VAES accelerated");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_SKCIPHERS("vaes-avx2");
MODULE_ALIAS_SM4_MACS("vaes-avx2");
MODULE_ALIAS_SM4_CCM("vaes-avx2");
MODULE_ALIAS_SM4_GCM("vaes-avx2");
