// SPDX-License-Identifier: GPL-2.0
/*
 * SM4 ecb/cbc/cfb/ctr/xts with GFNI and AVX-512 (64 blocks in parallel):
 * driver names "<mode>-sm4-gfni-avx512", and gcm(sm4) as
 * "gcm-sm4-gfni-avx512" (GHASH on zmm, in the same file).  The bulk functions are in
 * sm4-gfni-avx512-asm_64.S, those for short requests in
 * sm4-gfni-avx512-ymm.S; requests are handled by the shared glue
 * (include/sm4/glue.h) in sm4_generic.ko.
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <sm4/compat.h>
#include "sm4_x86_glue.h"

SM4_DEFINE_MODE_OPS(sm4_gfni_avx512_ops, sm4_gfni_avx512);
SM4_DEFINE_MODE_OPS(sm4_gfni_avx512_ymm_ops, sm4_gfni_avx512_ymm);
SM4_DEFINE_GCM_OPS(sm4_gfni_avx512_gcm_ops, sm4_gfni_avx512);

/* The key expansion without the table S-box (sm4_x86_expand_fn). */
asmlinkage sm4_x86_expand_fn sm4_gfni_avx512_expand_key;

static int sm4_gfni_avx512_expandkey(struct sm4_ctx *ctx, const u8 *key,
				     unsigned int key_len)
{
	return sm4_x86_setkey(sm4_gfni_avx512_expand_key, ctx, key, key_len);
}

/*
 * Everything the assembly executes: EVEX GFNI on zmm and xmm (GFNI,
 * AVX512F, AVX512VL), byte shuffles and 64-bit mask registers
 * (AVX512BW), carry-less multiplication on zmm for XTS tweaks
 * (VPCLMULQDQ); the ymm code for short requests needs AVX2.  GHASH for
 * gcm(sm4) uses VPCLMULQDQ on zmm too (and PCLMULQDQ, which every CPU
 * with VPCLMULQDQ has, on xmm).
 */
static const struct sm4_x86_feature sm4_gfni_avx512_features[] = {
	SM4_X86_FEATURE(AVX),
	SM4_X86_FEATURE(AVX2),
	SM4_X86_FEATURE(AVX512F),
	SM4_X86_FEATURE(AVX512BW),
	SM4_X86_FEATURE(AVX512VL),
	SM4_X86_FEATURE(GFNI),
	SM4_X86_FEATURE(VPCLMULQDQ),
	SM4_X86_FEATURE(OSXSAVE),
};

/* zmm only where it pays: see "zmm policy" in doc/drivers.md. */
static int sm4_gfni_avx512_setup(struct sm4_x86_driver *drv)
{
	if (sm4_x86_prefer_ymm()) {
		pr_info("%s: CPU prefers ymm (zmm lowers its clock), driver not loaded; sm4-gfni-avx2 serves it\n",
			drv->module);
		return -ENODEV;
	}
	return 0;
}

static struct sm4_x86_driver sm4_gfni_avx512_drv = {
	.skcipher = {
		.name		= "gfni-avx512",
		.priority	= 600,
		.owner		= THIS_MODULE,
		.ops		= &sm4_gfni_avx512_ops,
		.uses_simd	= true,
		.expandkey	= sm4_gfni_avx512_expandkey,
		.small_ops	= &sm4_gfni_avx512_ymm_ops,
		.small_below	= SM4_GFNI_ZMM_FROM,
		.mode_mask	= SM4_ALL_MODES,
	},
	.module		= "sm4-gfni-avx512",
	.features	= sm4_gfni_avx512_features,
	.nfeatures	= ARRAY_SIZE(sm4_gfni_avx512_features),
	.xfeatures	= XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
			  XFEATURE_MASK_AVX512,
	.gcm		= &sm4_gfni_avx512_gcm_ops,
	.gcm_feature	= X86_FEATURE_VPCLMULQDQ,
	.gcm_feature_name = "VPCLMULQDQ",
	.setup		= sm4_gfni_avx512_setup,
};
module_sm4_x86_driver(sm4_gfni_avx512_drv);

MODULE_DESCRIPTION("SM4 ECB/CBC/CFB/CTR/XTS/CTS and GCM, GFNI/AVX-512 accelerated");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_SKCIPHERS("gfni-avx512");
MODULE_ALIAS_SM4_GCM("gfni-avx512");
