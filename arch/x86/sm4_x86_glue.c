// SPDX-License-Identifier: GPL-2.0
/*
 * The glue of every x86-64 module, built once per module for the driver
 * its build names (arch/x86/Kbuild.inc), as arch/x86/sm4_x86_drivers.h
 * describes it: the bulk functions of its assembly, its load-time checks
 * (one pr_info line and -ENODEV when the CPU or OS cannot run it), and
 * its registration through the shared glue of sm4_generic.ko
 * (include/sm4/glue.h).
 */

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/processor.h>
#include <sm4/compat.h>
#include <sm4/glue.h>
#include "sm4_x86_drivers.h"

/* A function of a prefix, pasted after the prefix is expanded. */
#define SM4_X86_FN(prefix, fn)		__SM4_X86_FN(prefix, fn)
#define __SM4_X86_FN(prefix, fn)	prefix##_##fn

SM4_DEFINE_MODE_OPS(sm4_x86_ops, SM4_X86_PREFIX, SM4_X86_BATCH);
#ifdef SM4_X86_SMALL_PREFIX
/* Through one more macro, so that the prefix is expanded before pasting. */
#define SM4_X86_DECLARE_MODE_FNS(prefix)	SM4_DECLARE_MODE_FNS(prefix)
SM4_X86_DECLARE_MODE_FNS(SM4_X86_SMALL_PREFIX);
#if SM4_X86_SMALL_SERIAL
#define SM4_X86_SERIAL_PREFIX	SM4_X86_PREFIX
#else
#define SM4_X86_SERIAL_PREFIX	SM4_X86_SMALL_PREFIX
#endif
static const struct sm4_mode_ops sm4_x86_small_ops = {
	.ecb		= SM4_X86_FN(SM4_X86_SMALL_PREFIX, ecb),
	.cbc_enc	= SM4_X86_FN(SM4_X86_SERIAL_PREFIX, cbc_enc),
	.cbc_dec	= SM4_X86_FN(SM4_X86_SMALL_PREFIX, cbc_dec),
	.cfb_enc	= SM4_X86_FN(SM4_X86_SERIAL_PREFIX, cfb_enc),
	.cfb_dec	= SM4_X86_FN(SM4_X86_SMALL_PREFIX, cfb_dec),
	.ctr		= SM4_X86_FN(SM4_X86_SMALL_PREFIX, ctr),
	.xts_enc	= SM4_X86_FN(SM4_X86_SMALL_PREFIX, xts),
	.xts_dec	= SM4_X86_FN(SM4_X86_SMALL_PREFIX, xts),
	.batch		= SM4_X86_SMALL_BATCH,
};
#endif
#if SM4_X86_MACS
SM4_DEFINE_MAC_OPS(sm4_x86_mac_ops, SM4_X86_PREFIX, SM4_X86_CCM_SHORT);
#endif
#ifdef SM4_X86_GCM_CLMUL
SM4_DEFINE_GCM_OPS(sm4_x86_gcm_ops, SM4_X86_PREFIX, SM4_X86_GCM_SHORT);
#endif
#ifdef SM4_X86_GHASH_KA
SM4_DEFINE_GCM_OPS_GHASH(sm4_x86_gcm_ka_ops, SM4_X86_PREFIX, SM4_X86_GHASH_KA,
			 SM4_X86_GCM_SHORT);
#endif
#ifdef SM4_X86_GCM_WIDE
SM4_DEFINE_GCM_OPS_WIDE(sm4_x86_gcm_wide_ops, SM4_X86_PREFIX,
			SM4_X86_GCM_WIDE_PREFIX, SM4_X86_GCM_SHORT);
#endif

/*
 * The key expansion: both schedules of @key, as sm4_expandkey() makes
 * them, from the FK and CK constants (rkey_dec is rkey_enc reversed),
 * with no table lookup.  Called inside a SIMD section.
 */
asmlinkage void SM4_X86_EXPAND_KEY(const u8 *key, u32 *rkey_enc,
				   u32 *rkey_dec, const u32 *fk,
				   const u32 *ck);

static int sm4_x86_expandkey(struct sm4_ctx *ctx, const u8 *key,
			     unsigned int key_len)
{
	if (key_len != SM4_KEY_SIZE)
		return -EINVAL;
	SM4_X86_EXPAND_KEY(key, ctx->rkey_enc, ctx->rkey_dec, crypto_sm4_fk,
			   crypto_sm4_ck);
	return 0;
}

static struct sm4_driver sm4_x86_driver = {
	.name		= SM4_X86_NAME,
	.priority	= SM4_X86_PRIORITY,
	.owner		= THIS_MODULE,
	.ops		= &sm4_x86_ops,
	.uses_simd	= true,
	.expandkey	= sm4_x86_expandkey,
	.mode_mask	= SM4_ALL_MODES,
#ifdef SM4_X86_SMALL_PREFIX
	.small_ops	= &sm4_x86_small_ops,
	.small_below	= SM4_X86_SMALL_BELOW,
#endif
#if SM4_X86_MACS
	.mac		= &sm4_x86_mac_ops,
	.mac_mask	= SM4_ALL_MACS | SM4_MAC_CCM,
#endif
};

struct sm4_x86_feature {
	unsigned int bit;	/* X86_FEATURE_* */
	const char *name;
};

#define SM4_X86_FEATURE(f)	{ .bit = X86_FEATURE_##f, .name = #f }
#define SM4_X86_FEATURE_BIT(f)	__SM4_X86_FEATURE_BIT(f)
#define __SM4_X86_FEATURE_BIT(f)	X86_FEATURE_##f

static const struct sm4_x86_feature sm4_x86_features[] = SM4_X86_FEATURES;

#ifdef SM4_X86_GCM_CLMUL
/*
 * The GHASH functions for this CPU (SM4_X86_GHASH_KA: AMD's cores;
 * SM4_X86_GCM_WIDE: CPUs with that feature).
 */
static const struct sm4_gcm_ops *sm4_x86_gcm_pick(void)
{
#ifdef SM4_X86_GHASH_KA
	if (boot_cpu_data.x86_vendor == X86_VENDOR_AMD ||
	    boot_cpu_data.x86_vendor == X86_VENDOR_HYGON)
		return &sm4_x86_gcm_ka_ops;
#endif
#ifdef SM4_X86_GCM_WIDE
	if (boot_cpu_has(SM4_X86_FEATURE_BIT(SM4_X86_GCM_WIDE)))
		return &sm4_x86_gcm_wide_ops;
#endif
	return &sm4_x86_gcm_ops;
}
#endif

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

static bool sm4_x86_has_avx10_2_512(void)
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

/*
 * What the driver needs beyond CPU feature bits (SM4_X86_NEEDS): 0, or
 * -ENODEV after one log line naming what is missing.
 */
static int sm4_x86_check_needs(void)
{
	const char *why = NULL;

	if ((SM4_X86_NEEDS & SM4_X86_NEEDS_SM4NI) && !sm4_x86_has_sm4ni())
		why = "CPU feature SM4 missing, driver not loaded";
	else if ((SM4_X86_NEEDS & SM4_X86_NEEDS_AVX10_2_512) &&
		 !sm4_x86_has_avx10_2_512())
		why = "CPU has no AVX10.2 with 512-bit vectors (EVEX SM4), driver not loaded; sm4-ni-x86_64 serves it";
	else if ((SM4_X86_NEEDS & SM4_X86_NEEDS_ZMM_PAYS) &&
		 sm4_x86_prefer_ymm())
		why = "CPU prefers ymm (zmm lowers its clock), driver not loaded; sm4-gfni-avx2 serves it";
	if (!why)
		return 0;
	pr_info("%s: %s\n", SM4_X86_MODULE, why);
	return -ENODEV;
}

/*
 * 0 if the CPU has every feature, the OS enables every XSAVE component
 * the code uses and the driver's other needs are met; otherwise ONE
 * pr_info line naming the first thing missing, and -ENODEV.  gcm(sm4) is
 * registered too where the CPU has the carry-less multiply of its GHASH.
 */
static int sm4_x86_check_cpu(void)
{
	const char *xname = NULL;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sm4_x86_features); i++) {
		if (!boot_cpu_has(sm4_x86_features[i].bit)) {
			pr_info("%s: CPU feature %s missing, driver not loaded\n",
				SM4_X86_MODULE, sm4_x86_features[i].name);
			return -ENODEV;
		}
	}
	if (!cpu_has_xfeatures(SM4_X86_XSTATE, &xname)) {
		pr_info("%s: OS does not enable %s, driver not loaded\n",
			SM4_X86_MODULE, xname ? xname : "the needed XSAVE state");
		return -ENODEV;
	}
#ifdef SM4_X86_GCM_CLMUL
	if (boot_cpu_has(SM4_X86_FEATURE_BIT(SM4_X86_GCM_CLMUL)))
		sm4_x86_driver.gcm = sm4_x86_gcm_pick();
	else
		pr_info("%s: no %s, gcm(sm4) not registered\n", SM4_X86_MODULE,
			__stringify(SM4_X86_GCM_CLMUL));
#endif
	return sm4_x86_check_needs();
}

module_sm4_driver(sm4_x86, sm4_x86_driver, sm4_x86_check_cpu());

MODULE_DESCRIPTION(SM4_X86_DESCRIPTION);
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_SKCIPHERS(SM4_X86_NAME);
#if SM4_X86_MACS
MODULE_ALIAS_SM4_MACS(SM4_X86_NAME);
MODULE_ALIAS_SM4_CCM(SM4_X86_NAME);
#endif
#ifdef SM4_X86_GCM_CLMUL
MODULE_ALIAS_SM4_GCM(SM4_X86_NAME);
#endif
