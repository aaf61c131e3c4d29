// SPDX-License-Identifier: GPL-2.0
/*
 * SM4 ecb/cbc/cfb/ctr/xts with GFNI and AVX2 (16 blocks in parallel,
 * no AVX-512 needed): driver names "<mode>-sm4-gfni-avx2", between
 * aesni-avx2 (500) and gfni-avx512 (600).  The bulk functions are in
 * sm4-gfni-avx2-asm_64.S; requests are handled by the shared glue
 * (include/sm4/glue.h) in sm4_generic.ko.
 * With the serial CBC-MAC (<prefix>_cbcmac) it also registers
 * cbcmac/cmac/xcbc(sm4) and ccm(sm4) ("ccm-sm4-gfni-avx2"; CTR from the
 * bulk functions) through the shared glue (include/sm4/mac_glue.h).
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <sm4/compat.h>
#include "sm4_x86_glue.h"

SM4_DEFINE_MODE_OPS(sm4_gfni_avx2_ops, sm4_gfni_avx2);
SM4_DEFINE_CBCMAC_OPS(sm4_gfni_avx2_mac_ops, sm4_gfni_avx2);
SM4_DEFINE_GCM_OPS(sm4_gfni_avx2_gcm_ops, sm4_gfni_avx2);

/* The key expansion without the table S-box (sm4_x86_expand_fn). */
asmlinkage sm4_x86_expand_fn sm4_gfni_avx2_expand_key;

static int sm4_gfni_avx2_expandkey(struct sm4_ctx *ctx, const u8 *key,
				   unsigned int key_len)
{
	return sm4_x86_setkey(sm4_gfni_avx2_expand_key, ctx, key, key_len);
}

/*
 * Everything the assembly executes: VEX-encoded GFNI on xmm and ymm
 * (GFNI, AVX), 256-bit integer operations and broadcasts (AVX2).
 */
static const struct sm4_x86_feature sm4_gfni_avx2_features[] = {
	SM4_X86_FEATURE(AVX),
	SM4_X86_FEATURE(AVX2),
	SM4_X86_FEATURE(GFNI),
	SM4_X86_FEATURE(OSXSAVE),
};

static struct sm4_x86_driver sm4_gfni_avx2_drv = {
	.skcipher = {
		.name		= "gfni-avx2",
		.priority	= 550,
		.owner		= THIS_MODULE,
		.ops		= &sm4_gfni_avx2_ops,
		.uses_simd	= true,
		.expandkey	= sm4_gfni_avx2_expandkey,
		.mode_mask	= SM4_ALL_MODES,
		.mac		= &sm4_gfni_avx2_mac_ops,
		.mac_mask	= SM4_ALL_MACS | SM4_MAC_CCM,
	},
	.module		= "sm4-gfni-avx2",
	.features	= sm4_gfni_avx2_features,
	.nfeatures	= ARRAY_SIZE(sm4_gfni_avx2_features),
	.xfeatures	= XFEATURE_MASK_SSE | XFEATURE_MASK_YMM,
	.gcm		= &sm4_gfni_avx2_gcm_ops,
	.gcm_feature	= X86_FEATURE_VPCLMULQDQ,
	.gcm_feature_name = "VPCLMULQDQ",
};
module_sm4_x86_driver(sm4_gfni_avx2_drv);

MODULE_DESCRIPTION("SM4 ECB/CBC/CFB/CTR/XTS/CTS, GCM, CCM and CBCMAC/CMAC/XCBC, GFNI/AVX2 accelerated");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_SKCIPHERS("gfni-avx2");
MODULE_ALIAS_SM4_MACS("gfni-avx2");
MODULE_ALIAS_SM4_CCM("gfni-avx2");
MODULE_ALIAS_SM4_GCM("gfni-avx2");
