/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load-time CPU checks shared by the x86-64 SM4 drivers.
 *
 * API (kept small and stable):
 *
 *   SM4_X86_FEATURE(AVX2)   an entry of a const struct sm4_x86_feature[]
 *                           (X86_FEATURE_<name> and its printable name);
 *   sm4_x86_check_cpu(driver, features, n, xfeatures)
 *                           0 if boot_cpu_has() every feature and the OS
 *                           enables every XSAVE component in @xfeatures
 *                           (cpu_has_xfeatures()); otherwise prints ONE
 *                           pr_info line naming @driver and the first thing
 *                           missing, and returns -ENODEV.
 *
 *   struct sm4_x86_driver   what a driver file describes: its skcipher
 *                           driver, module name for log lines, features,
 *                           XSAVE components and an optional policy hook;
 *   module_sm4_x86_driver(d)
 *                           the module's init (CPU check, policy, then
 *                           registration) and exit, so that loading on an
 *                           unsuitable CPU fails cleanly with -ENODEV.
 *   sm4_x86_check_sm4ni(driver)
 *                           0 if the CPU has Intel's SM4 instructions
 *                           (sm4_x86_has_sm4ni(), compat.h), else one
 *                           pr_info line and -ENODEV: for the policy hook
 *                           of the SM4-instruction drivers;
 *   sm4_x86_setkey(expand, ctx, key, key_len)
 *                           the body of a driver's
 *                           struct sm4_skcipher_driver.expandkey over its
 *                           assembly key expansion @expand
 *                           (sm4_x86_expand_fn);
 *   sm4_x86_gcm(driver, ops, feature, name)
 *                           the driver's gcm(sm4) ops if the CPU has the
 *                           carry-less multiply they use, else NULL (and
 *                           one pr_info line).
 */
#ifndef _SM4_X86_GLUE_H
#define _SM4_X86_GLUE_H

#include <linux/errno.h>
#include <linux/printk.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/fpu/xstate.h>
#include <sm4/compat.h>
#include <sm4/glue.h>

/*
 * sm4-gfni-avx512 runs requests shorter than this on its copy of
 * sm4-gfni-avx2's ymm code (sm4-gfni-avx512-ymm.S): up to 16 blocks, one batch of two ymm register sets, zmm does
 * not pay for its entry work (key transform, tweak and counter set-up on
 * zmm) and its clock cost.  Not measured: this project's build host has
 * no GFNI (doc/drivers.md, "zmm policy").
 */
#define SM4_GFNI_ZMM_FROM	(16 * SM4_BLOCK_SIZE)

/*
 * An assembly key expansion: both schedules of @key, as sm4_expandkey()
 * makes them, from the FK and CK constants (rkey_dec is rkey_enc
 * reversed), with no table lookup: SM4_AESNI_EXPAND_KEY_BODY
 * (sm4-aesni-modes.S), SM4_GFNI_EXPAND_KEY_BODY (sm4-gfni-key.S).  The glue
 * calls it inside a SIMD section (sm4_glue_expandkey()).
 */
typedef void sm4_x86_expand_fn(const u8 *key, u32 *rkey_enc, u32 *rkey_dec,
			       const u32 *fk, const u32 *ck);

static inline int sm4_x86_setkey(sm4_x86_expand_fn *expand,
				 struct sm4_ctx *ctx, const u8 *key,
				 unsigned int key_len)
{
	if (key_len != SM4_KEY_SIZE)
		return -EINVAL;
	expand(key, ctx->rkey_enc, ctx->rkey_dec, crypto_sm4_fk,
	       crypto_sm4_ck);
	return 0;
}

struct sm4_x86_feature {
	unsigned int bit;	/* X86_FEATURE_* */
	const char *name;
};

#define SM4_X86_FEATURE(f)	{ .bit = X86_FEATURE_##f, .name = #f }

static inline int sm4_x86_check_cpu(const char *driver,
				    const struct sm4_x86_feature *features,
				    unsigned int n, u64 xfeatures)
{
	const char *xname = NULL;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!boot_cpu_has(features[i].bit)) {
			pr_info("%s: CPU feature %s missing, driver not loaded\n",
				driver, features[i].name);
			return -ENODEV;
		}
	}
	if (!cpu_has_xfeatures(xfeatures, &xname)) {
		pr_info("%s: OS does not enable %s, driver not loaded\n",
			driver, xname ? xname : "the needed XSAVE state");
		return -ENODEV;
	}
	return 0;
}

static inline int sm4_x86_check_sm4ni(const char *driver)
{
	if (sm4_x86_has_sm4ni())
		return 0;
	pr_info("%s: CPU feature SM4 missing, driver not loaded\n", driver);
	return -ENODEV;
}

/*
 * sm4_x86_gcm(driver, ops, feature, name): @ops (the driver's GHASH
 * functions for gcm(sm4)) if the CPU has the carry-less multiplication
 * X86_FEATURE_* @feature they use, else NULL with one pr_info line.
 */
struct sm4_gcm_ops;

static inline const struct sm4_gcm_ops *
sm4_x86_gcm(const char *driver, const struct sm4_gcm_ops *ops,
	    unsigned int feature, const char *name)
{
	if (boot_cpu_has(feature))
		return ops;
	pr_info("%s: no %s, gcm(sm4) not registered\n", driver, name);
	return NULL;
}

struct sm4_x86_driver {
	struct sm4_skcipher_driver skcipher;
	const char *module;		/* "sm4-aesni-avx2": log lines */
	const struct sm4_x86_feature *features;
	unsigned int nfeatures;
	u64 xfeatures;			/* XFEATURE_MASK_* the code uses */
	/*
	 * Optional gcm(sm4): registered if the CPU has the carry-less
	 * multiplication X86_FEATURE_* @gcm_feature (@gcm_feature_name).
	 */
	const struct sm4_gcm_ops *gcm;
	unsigned int gcm_feature;
	const char *gcm_feature_name;
	/*
	 * Optional, after the CPU checks passed: a policy that may still
	 * decline the CPU (one log line and -ENODEV) or adjust .skcipher.
	 */
	int (*setup)(struct sm4_x86_driver *drv);
};

/* The CPU checks, gcm(sm4) if it can run, the driver's policy if any. */
static inline int sm4_x86_driver_check(struct sm4_x86_driver *drv)
{
	int err;

	err = sm4_x86_check_cpu(drv->module, drv->features, drv->nfeatures,
				drv->xfeatures);
	if (err)
		return err;
	if (drv->gcm)
		drv->skcipher.gcm = sm4_x86_gcm(drv->module, drv->gcm,
						drv->gcm_feature,
						drv->gcm_feature_name);
	return drv->setup ? drv->setup(drv) : 0;
}

#define module_sm4_x86_driver(drv)					\
	module_sm4_driver(drv, (drv).skcipher, sm4_x86_driver_check(&(drv)))

#endif /* _SM4_X86_GLUE_H */
