// SPDX-License-Identifier: GPL-2.0
/*
 * SM4 ecb/cbc/cfb/ctr/xts with Intel's SM4 instructions on ymm
 * (VSM4RNDS4, VSM4KEY4; 16 blocks in parallel): driver names
 * "<mode>-sm4-sm4ni-avx2", priority 650, above every other x86 driver.
 * The bulk functions and the key expansion are in sm4-ni-avx2-asm_64.S;
 * requests are handled by the shared glue (include/sm4/glue.h) in
 * sm4_generic.ko.  Not run on silicon: verified under an instruction
 * emulator only (doc/drivers.md, "SM4 instructions").
 * With the serial CBC-MAC (<prefix>_cbcmac) it also registers
 * cbcmac/cmac/xcbc(sm4) and ccm(sm4) ("ccm-sm4-sm4ni-avx2"; CTR from the
 * bulk functions) through the shared glue (include/sm4/mac_glue.h).
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <sm4/compat.h>
#include "sm4_x86_glue.h"
#include "sm4-ni.h"

SM4_DEFINE_MODE_OPS(sm4_ni_avx2_ops, sm4_ni_avx2);
SM4_DEFINE_CBCMAC_OPS(sm4_ni_avx2_mac_ops, sm4_ni_avx2);

/*
 * Everything the assembly executes besides the SM4 instructions:
 * VEX.256 encodings (AVX, with the ymm state enabled by the OS), 256-bit
 * integer operations and broadcasts (AVX2).
 */
static const struct sm4_x86_feature sm4_ni_avx2_features[] = {
	SM4_X86_FEATURE(AVX),
	SM4_X86_FEATURE(AVX2),
	SM4_X86_FEATURE(OSXSAVE),
};

/*
 * The SM4 instructions themselves: not in sm4_ni_avx2_features, as 6.1
 * and 6.12 have no X86_FEATURE_SM4 (sm4_x86_has_sm4ni(), compat.h).
 */
static int sm4_ni_avx2_setup(struct sm4_x86_driver *drv)
{
	return sm4_x86_check_sm4ni(drv->module);
}

static struct sm4_x86_driver sm4_ni_avx2_drv = {
	.skcipher = {
		.name		= "sm4ni-avx2",
		.priority	= 650,
		.owner		= THIS_MODULE,
		.ops		= &sm4_ni_avx2_ops,
		.uses_simd	= true,
		.expandkey	= sm4_ni_expandkey,
		.mode_mask	= SM4_ALL_MODES,
		.mac		= &sm4_ni_avx2_mac_ops,
		.mac_mask	= SM4_ALL_MACS | SM4_MAC_CCM,
	},
	.module		= "sm4-ni",
	.features	= sm4_ni_avx2_features,
	.nfeatures	= ARRAY_SIZE(sm4_ni_avx2_features),
	.xfeatures	= XFEATURE_MASK_SSE | XFEATURE_MASK_YMM,
	.setup		= sm4_ni_avx2_setup,
};
module_sm4_x86_driver(sm4_ni_avx2_drv);

MODULE_DESCRIPTION("SM4 ECB/CBC/CFB/CTR/XTS/CTS, CCM and CBCMAC/CMAC/XCBC, Intel SM4 instructions (AVX2)");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_SKCIPHERS("sm4ni-avx2");
MODULE_ALIAS_SM4_MACS("sm4ni-avx2");
MODULE_ALIAS_SM4_CCM("sm4ni-avx2");
