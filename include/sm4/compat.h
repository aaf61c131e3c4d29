/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels this project supports (Debian's
 * 6.1, 6.12 and 7.2, x86_64 and arm64) is confined to this header.  The
 * userspace test harness replaces it with tests/shim/sm4/compat.h.
 */
#ifndef _SM4_CRYPTO_COMPAT_H
#define _SM4_CRYPTO_COMPAT_H

#include <linux/version.h>
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/module.h>

/*
 * The symbol namespace of this project's own exports: everything
 * sm4_generic.ko and sm4-ce.ko export to the other modules of the
 * project, which is no kernel ABI (upstream's exports, tests/test-abi.sh,
 * stay global).  A kernel symbol that one day takes one of these names
 * then cannot collide with ours.  6.13 made the namespace argument of
 * EXPORT_SYMBOL_NS_GPL() and MODULE_IMPORT_NS() a string literal; 6.1
 * and 6.12 take an identifier and stringify it.
 *
 * SM4_EXPORT_SYMBOL_NS_GPL(sym)	export @sym in the namespace;
 * SM4_MODULE_IMPORT_NS()		once in each module that uses one.
 */
#define SM4_SYMBOL_NS		SM4_CRYPTO
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define SM4_EXPORT_SYMBOL_NS_GPL(sym)	\
	EXPORT_SYMBOL_NS_GPL(sym, __stringify(SM4_SYMBOL_NS))
#define SM4_MODULE_IMPORT_NS()		\
	MODULE_IMPORT_NS(__stringify(SM4_SYMBOL_NS))
#else
#define SM4_EXPORT_SYMBOL_NS_GPL(sym)	EXPORT_SYMBOL_NS_GPL(sym, SM4_SYMBOL_NS)
#define SM4_MODULE_IMPORT_NS()		MODULE_IMPORT_NS(SM4_SYMBOL_NS)
#endif

/*
 * The kernel's single-block cipher API (crypto_cipher_*) is exported in
 * the CRYPTO_INTERNAL namespace; the same 6.13 change of
 * MODULE_IMPORT_NS()'s argument applies (the test modules use it).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define SM4_MODULE_IMPORT_CRYPTO_INTERNAL()	\
	MODULE_IMPORT_NS("CRYPTO_INTERNAL")
#else
#define SM4_MODULE_IMPORT_CRYPTO_INTERNAL()	\
	MODULE_IMPORT_NS(CRYPTO_INTERNAL)
#endif

/* <asm/unaligned.h> moved to <linux/unaligned.h> in 6.12. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * cbcmac(sm4)'s block size is that of the kernel's cbcmac template, which
 * the self-tests compare it with: 1 until the block-only hash API came
 * (CRYPTO_AHASH_ALG_BLOCK_ONLY, 6.16), the cipher's 16 from then on.
 */
#include <crypto/internal/hash.h>
#ifdef CRYPTO_AHASH_ALG_BLOCK_ONLY
#define SM4_CBCMAC_BLOCKSIZE 16
#else
#define SM4_CBCMAC_BLOCKSIZE 1
#endif

/*
 * Reading a scatterlist piece by piece (sm4_impl_sg(), crypto/sm4_core.c).
 * 6.15 replaced the steps of a scatter_walk (scatterwalk_clamp/map/
 * unmap/advance/done, which map a page with kmap_atomic() on 6.1 and
 * kmap_local_page() on 6.12) by scatterwalk_next()/scatterwalk_done_src()
 * (7.2: nothing to map without HIGHMEM), and added
 * scatterwalk_start_at_pos().
 *
 * sm4_sgw_start(w, sg, pos)	start at byte @pos of @sg, @pos below
 *				the list's length;
 * n = sm4_sgw_next(w, total, &p)	map the next piece: @p its address,
 *				n <= @total its length (0 at an empty entry);
 * sm4_sgw_done(w, p, n, more)	unmap @p after reading its first @n
 *				bytes; @more: whether the walk goes on.
 */
#include <crypto/scatterwalk.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
static inline void sm4_sgw_start(struct scatter_walk *w,
				 struct scatterlist *sg, unsigned int pos)
{
	scatterwalk_start_at_pos(w, sg, pos);
}

static inline unsigned int sm4_sgw_next(struct scatter_walk *w,
					unsigned int total, const u8 **p)
{
	unsigned int n = scatterwalk_next(w, total);

	*p = w->addr;
	return n;
}

static inline void sm4_sgw_done(struct scatter_walk *w, const u8 *p,
				unsigned int n, bool more)
{
	scatterwalk_done_src(w, n);
}
#else
static inline void sm4_sgw_start(struct scatter_walk *w,
				 struct scatterlist *sg, unsigned int pos)
{
	while (pos >= sg->length) {
		pos -= sg->length;
		sg = sg_next(sg);
	}
	scatterwalk_start(w, sg);
	scatterwalk_advance(w, pos);
}

static inline unsigned int sm4_sgw_next(struct scatter_walk *w,
					unsigned int total, const u8 **p)
{
	unsigned int n = scatterwalk_clamp(w, total);

	*p = scatterwalk_map(w);
	return n;
}

static inline void sm4_sgw_done(struct scatter_walk *w, const u8 *p,
				unsigned int n, bool more)
{
	scatterwalk_unmap((void *)p);
	scatterwalk_advance(w, n);
	scatterwalk_done(w, 0, more);
}
#endif

/*
 * The "cfb" template was removed in 6.8; from then on sm4_generic
 * registers cfb(sm4) itself so that CFB stays available.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#define SM4_REGISTER_GENERIC_CFB 1
#else
#define SM4_REGISTER_GENERIC_CFB 0
#endif

/*
 * The per-CPU switch with which the crypto self-tests make
 * crypto_simd_usable() false, to test the code that runs without SIMD:
 * only in kernels built with the fuzzing self-tests, whose option was
 * CONFIG_CRYPTO_MANAGER_EXTRA_TESTS up to 6.15 and is
 * CONFIG_CRYPTO_SELFTESTS_FULL from 6.16 (the test modules use it).
 */
#if defined(CONFIG_CRYPTO_MANAGER_EXTRA_TESTS) || \
	defined(CONFIG_CRYPTO_SELFTESTS_FULL)
#define SM4_HAVE_SIMD_TEST_SWITCH 1
#else
#define SM4_HAVE_SIMD_TEST_SWITCH 0
#endif

/*
 * Kernel-mode SIMD sections.  Callers bound each section to
 * SM4_SIMD_CHUNK bytes of work.
 */
#include <asm/simd.h>
#include <crypto/internal/simd.h>
#if defined(CONFIG_X86)
#include <asm/fpu/api.h>
#include <asm/processor.h>
#include <asm/cpufeature.h>
/*
 * cpuid_count() comes with <asm/processor.h> on 6.1 and 6.12; newer
 * kernels (7.2) moved it to <asm/cpuid/api.h>, which processor.h no
 * longer includes (SM4_HAVE_ASM_CPUID_API_H: arch/x86/Kbuild.inc
 * looks for that header; sparse knows no __has_include).
 */
#ifdef SM4_HAVE_ASM_CPUID_API_H
#include <asm/cpuid/api.h>
#endif
#define sm4_simd_begin()	kernel_fpu_begin()
#define sm4_simd_end()		kernel_fpu_end()

/*
 * Whether the CPU should run 256-bit code rather than 512-bit code (its
 * clock drops under zmm load).  Kernels with X86_FEATURE_PREFER_YMM
 * (7.x; absent from 6.1 and 6.12) say so themselves.  Elsewhere the same
 * list as upstream's (the zmm_exclusion_list of aesni-intel_glue.c,
 * moved into X86_FEATURE_PREFER_YMM by "x86: move zmm exclusion list
 * into CPU feature flag", 2025): Intel family 6 models 0x55 Skylake-X,
 * 0x6a/0x6c Ice Lake server, 0x7d/0x7e Ice Lake client, 0x9d Ice Lake
 * NNPI, 0x8c/0x8d Tiger Lake.  Raw model numbers: their macro names
 * changed between the supported kernels.
 */
#ifdef X86_FEATURE_PREFER_YMM
static inline bool sm4_x86_prefer_ymm(void)
{
	return boot_cpu_has(X86_FEATURE_PREFER_YMM);
}
#else
static inline bool sm4_x86_prefer_ymm(void)
{
	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL ||
	    boot_cpu_data.x86 != 6)
		return false;
	switch (boot_cpu_data.x86_model) {
	case 0x55: case 0x6a: case 0x6c: case 0x7d: case 0x7e: case 0x9d:
	case 0x8c: case 0x8d:
		return true;
	default:
		return false;
	}
}
#endif

/*
 * Intel's SM4 instructions: CPUID.(EAX=7,ECX=1):EAX[2].  Kernels with
 * X86_FEATURE_SM4 (7.x; absent from 6.1 and 6.12) have the bit in
 * boot_cpu_data (and clear it with AVX); elsewhere CPUID is read
 * directly, after checking that leaf 7 and its subleaf 1 exist.
 */
#ifdef X86_FEATURE_SM4
static inline bool sm4_x86_has_sm4ni(void)
{
	return boot_cpu_has(X86_FEATURE_SM4);
}
#else
static inline bool sm4_x86_has_sm4ni(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (boot_cpu_data.cpuid_level < 7)
		return false;
	cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
	if (eax < 1)
		return false;
	cpuid_count(7, 1, &eax, &ebx, &ecx, &edx);
	return eax & BIT(2);
}
#endif
#elif defined(CONFIG_ARM64)
#include <asm/neon.h>
#ifdef SM4_NEON_BEGIN_TAKES_STATE
#include <linux/percpu.h>
#include <linux/preempt.h>
/*
 * From 6.19 kernel_neon_begin()/kernel_neon_end() take a caller-provided
 * struct user_fpsimd_state (6.1, 6.12: no argument).  arch/arm64/
 * Kbuild.inc defines SM4_NEON_BEGIN_TAKES_STATE where the prototype in
 * the kernel's <asm/neon.h> has that argument (a wrong answer does not
 * compile: the calls would have one argument too many or too few).
 * The buffer receives the task's kernel-mode FP/SIMD state when the task
 * is scheduled out, and, when the caller is a softirq, the state of the
 * task-level kernel-mode SIMD code that the softirq interrupted.  It may
 * be NULL only in non-preemptible task context.
 *
 * The callers' sections are short (at most SM4_SIMD_CHUNK bytes of work)
 * and never sleep, so they run with preemption disabled, as on x86: task
 * context then needs no buffer.  A softirq gets the per-CPU buffer
 * sm4_softirq_fpsimd_state: with preemption off and softirqs not nesting
 * on a CPU, and no SIMD in hard interrupts, no two sections of one CPU
 * can use it at the same time, whichever module they are in.  It is
 * defined once, in sm4_generic.ko (arch/arm64/sm4-simd-state.c), the
 * module of every sm4_simd_begin() caller, and not exported.
 */
DECLARE_PER_CPU(struct user_fpsimd_state, sm4_softirq_fpsimd_state);

static inline struct user_fpsimd_state *sm4_simd_state(void)
{
	if (in_serving_softirq())
		return this_cpu_ptr(&sm4_softirq_fpsimd_state);
	return NULL;
}

static inline void sm4_simd_begin(void)
{
	preempt_disable();
	kernel_neon_begin(sm4_simd_state());
}

static inline void sm4_simd_end(void)
{
	kernel_neon_end(sm4_simd_state());
	preempt_enable();
}
#else
#define sm4_simd_begin()	kernel_neon_begin()
#define sm4_simd_end()		kernel_neon_end()
#endif
#else
#define sm4_simd_begin()	do { } while (0)
#define sm4_simd_end()		do { } while (0)
#endif

#endif /* _SM4_CRYPTO_COMPAT_H */
