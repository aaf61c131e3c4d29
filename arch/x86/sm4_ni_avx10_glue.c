// SPDX-License-Identifier: GPL-2.0
/*
 * SM4 ecb/cbc/cfb/ctr/xts with Intel's SM4 instructions in their EVEX
 * forms on zmm (VSM4RNDS4; 32 blocks in parallel, the VEX forms for
 * tails under 16 blocks and the key expansion): driver names
 * "<mode>-sm4-sm4ni-avx10", priority 660, above sm4-ni-x86_64 (650),
 * which serves the CPUs with the VEX forms only.  The bulk functions and
 * the key expansion are in sm4-ni-avx10-asm_64.S; requests are handled
 * by the shared glue (include/sm4/glue.h) in sm4_generic.ko.  Not run on
 * silicon: verified under instruction emulators only (doc/drivers.md,
 * "SM4 instructions").
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <sm4/compat.h>
#include "sm4_x86_glue.h"
#include "sm4-ni.h"

SM4_DEFINE_MODE_OPS(sm4_ni_avx10_ops, sm4_ni_avx10);

/*
 * Everything the assembly executes besides the SM4 instructions: EVEX.512
 * loads, stores, XORs, broadcasts, inserts and lane shuffles (AVX512F),
 * byte shuffles on zmm (AVX512BW), and the VEX code of the short tails
 * and the key expansion (AVX, AVX2); the OS must enable the ymm and the
 * AVX-512 (opmask, ZMM_Hi256, Hi16_ZMM) state.
 */
static const struct sm4_x86_feature sm4_ni_avx10_features[] = {
	SM4_X86_FEATURE(AVX),
	SM4_X86_FEATURE(AVX2),
	SM4_X86_FEATURE(AVX512F),
	SM4_X86_FEATURE(AVX512BW),
	SM4_X86_FEATURE(OSXSAVE),
};

/*
 * The EVEX forms of VSM4RNDS4/VSM4KEY4 are not covered by the SM4 bit
 * alone, nor by AVX-512F: Intel defines them as part of AVX10.2, on a
 * CPU that also has SM4 (ISA extensions reference, document 319433, the
 * pages of the two instructions; binutils, GCC's "-msm4 -mavx10.2" and
 * LLVM's "sm4,avx10.2-512" gate the zmm forms on exactly that pair, and
 * binutils 2.47 refuses them with AVX-512F and SM4 alone).  AVX10 is
 * enumerated by CPUID.(EAX=7,ECX=1):EDX[19]; then leaf 24H, subleaf 0,
 * gives the AVX10 version in EBX[7:0] (2 or more: AVX10.2) and, in
 * EBX[18], support for 512-bit vectors (AVX10 architecture
 * specification, its enumeration section; from its revision 3.0 every
 * AVX10 CPU has 512-bit vectors and the bit stays set).  No supported
 * kernel has an X86_FEATURE for AVX10, so the leaf is read here, after
 * checking that it exists.
 */
#define SM4_CPUID_7_1_EDX_AVX10	BIT(19)
#define SM4_CPUID_24_EBX_VER	0xff
#define SM4_CPUID_24_EBX_512	BIT(18)

static bool sm4_ni_has_avx10_2_512(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (boot_cpu_data.cpuid_level < 0x24)
		return false;
	cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
	if (eax < 1)
		return false;
	cpuid_count(7, 1, &eax, &ebx, &ecx, &edx);
	if (!(edx & SM4_CPUID_7_1_EDX_AVX10))
		return false;
	cpuid_count(0x24, 0, &eax, &ebx, &ecx, &edx);
	return (ebx & SM4_CPUID_24_EBX_VER) >= 2 &&
	       (ebx & SM4_CPUID_24_EBX_512);
}

static int sm4_ni_avx10_setup(struct sm4_x86_driver *drv)
{
	int err = sm4_x86_check_sm4ni(drv->module);

	if (err)
		return err;
	if (!sm4_ni_has_avx10_2_512()) {
		pr_info("%s: CPU has no AVX10.2 with 512-bit vectors (EVEX SM4), driver not loaded; sm4-ni-x86_64 serves it\n",
			drv->module);
		return -ENODEV;
	}
	return 0;
}

static struct sm4_x86_driver sm4_ni_avx10_drv = {
	.skcipher = {
		.name		= "sm4ni-avx10",
		.priority	= 660,
		.owner		= THIS_MODULE,
		.ops		= &sm4_ni_avx10_ops,
		.uses_simd	= true,
		.expandkey	= sm4_ni_avx10_expandkey,
		.mode_mask	= SM4_ALL_MODES,
	},
	.module		= "sm4-ni-avx10",
	.features	= sm4_ni_avx10_features,
	.nfeatures	= ARRAY_SIZE(sm4_ni_avx10_features),
	.xfeatures	= XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
			  XFEATURE_MASK_AVX512,
	.setup		= sm4_ni_avx10_setup,
};
module_sm4_x86_driver(sm4_ni_avx10_drv);

MODULE_DESCRIPTION("SM4 ECB/CBC/CFB/CTR/XTS, Intel SM4 instructions (EVEX, AVX10.2)");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_SKCIPHERS("sm4ni-avx10");
