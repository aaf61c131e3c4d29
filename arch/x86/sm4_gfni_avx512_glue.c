// SPDX-License-Identifier: GPL-2.0
/*
 * SM4 ecb/cbc/cfb/ctr/xts with GFNI and AVX-512 (64 blocks in parallel):
 * driver names "<mode>-sm4-gfni-avx512".  The bulk functions are in
 * sm4-gfni-avx512-asm_64.S; requests are handled by the shared glue
 * (include/sm4/glue.h) in sm4_generic.ko.
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <sm4/compat.h>
#include <sm4/glue.h>
#include "sm4_x86_glue.h"

SM4_DEFINE_MODE_OPS(sm4_gfni_avx512_ops, sm4_gfni_avx512);

static struct sm4_skcipher_driver sm4_gfni_avx512_driver = {
	.name		= "gfni-avx512",
	.priority	= 600,
	.owner		= THIS_MODULE,
	.ops		= &sm4_gfni_avx512_ops,
	.uses_simd	= true,
	.scalar_below	= SM4_X86_SCALAR_BELOW,
	.small_below	= SM4_GFNI_ZMM_FROM,
	.mode_mask	= SM4_ALL_MODES,
};

/*
 * Everything the assembly executes: EVEX GFNI on zmm and xmm (GFNI,
 * AVX512F, AVX512VL), byte shuffles and 64-bit mask registers
 * (AVX512BW), carry-less multiplication on zmm for XTS tweaks
 * (VPCLMULQDQ).
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

static int __init sm4_gfni_avx512_init(void)
{
	int err;

	err = sm4_x86_check_cpu("sm4-gfni-avx512", sm4_gfni_avx512_features,
				ARRAY_SIZE(sm4_gfni_avx512_features),
				XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
				XFEATURE_MASK_AVX512);
	if (err)
		return err;
	/* zmm only where it pays: see "zmm policy" in README. */
	if (sm4_x86_prefer_ymm()) {
		pr_info("sm4-gfni-avx512: CPU prefers ymm (zmm lowers its clock), driver not loaded; sm4-gfni-avx2 serves it\n");
		return -ENODEV;
	}
	sm4_gfni_avx512_driver.small_ops = sm4_gfni_avx2_mode_ops;
	return sm4_skcipher_register(&sm4_gfni_avx512_driver);
}

static void __exit sm4_gfni_avx512_exit(void)
{
	sm4_skcipher_unregister(&sm4_gfni_avx512_driver);
}

module_init(sm4_gfni_avx512_init);
module_exit(sm4_gfni_avx512_exit);

MODULE_DESCRIPTION("SM4 ECB/CBC/CFB/CTR/XTS/CTS, GFNI/AVX-512 accelerated");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_SKCIPHERS("gfni-avx512");
