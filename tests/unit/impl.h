/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An implementation under test: the portable C code or one SIMD backend
 * assembled from the same .S files as the kernel modules.
 */
#ifndef _SM4_TEST_IMPL_H
#define _SM4_TEST_IMPL_H

#include <sm4/modes.h>
#include <sm4/mac.h>
#include <sm4/gcm.h>

struct sm4_test_impl {
	const char *name;			/* e.g. "aesni-avx" */
	const struct sm4_mode_ops *ops;
	/* Optional: the CBC-MAC family (tests/unit/mac_test.c). */
	const struct sm4_mac_ops *mac_ops;
	bool (*available)(void);		/* CPU check; NULL: always */
	/* Optional: its own key expansion, must match sm4_expandkey(). */
	int (*expandkey)(struct sm4_ctx *ctx, const u8 *key,
			 unsigned int key_len);
	/* Optional: its GHASH functions for gcm(sm4) (include/sm4/gcm.h). */
	const struct sm4_gcm_ops *gcm;
	/*
	 * Optional: the other GHASH functions the kernel glue picks on
	 * other CPUs (.gcm is this CPU's pick), tested as well.
	 */
	const struct sm4_gcm_ops *gcm_alt;
	/* SM4_TEST_USES_*: emulated instructions it runs if emulated. */
	unsigned int uses;
	bool ran;			/* selected and supported (sm4-test) */
	struct sm4_test_impl *next;
};

#define SM4_TEST_USES_GFNI	1	/* gfni_emu.c */
#define SM4_TEST_USES_SM4NI	2	/* sm4ni_emu.c (and EVEX forms) */
#define SM4_TEST_USES_AVX512	4	/* evex_emu.c */

/*
 * x86-64: what sm4ni-avx10 needs, natively or emulated
 * (impl_sm4ni_avx10.c), and the self-check of that decision.
 */
struct sm4ni_avx10_features {
	bool avx2, avx512, sm4, avx10_2;	/* the CPU's */
	bool sm4_emu, avx512_emu;		/* emulators installed */
};
bool sm4ni_avx10_usable(const struct sm4ni_avx10_features *f);
unsigned int sm4ni_avx10_test_detection(unsigned int *usable);

/*
 * x86-64: .expandkey over the assembly key expansion @asm_fn of a
 * driver, as arch/x86/sm4_x86_glue.c's sm4_x86_expandkey() (which needs
 * kernel headers).
 */
#define SM4_TEST_X86_EXPANDKEY(name, asm_fn)				\
void asm_fn(const u8 *key, u32 *rkey_enc, u32 *rkey_dec,		\
	    const u32 *fk, const u32 *ck);				\
static int name(struct sm4_ctx *ctx, const u8 *key,			\
		unsigned int key_len)					\
{									\
	if (key_len != SM4_KEY_SIZE)					\
		return -EINVAL;						\
	asm_fn(key, ctx->rkey_enc, ctx->rkey_dec, crypto_sm4_fk,	\
	       crypto_sm4_ck);						\
	return 0;							\
}

void sm4_test_register_impl(struct sm4_test_impl *impl);

/* For suites in files of their own. */
void sm4_test_report(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool sm4_test_impl_selected(struct sm4_test_impl *impl);
struct sm4_test_impl *sm4_test_impl_list(void);
void sm4_test_macs(const char *path, unsigned long cases, uint64_t *seed);
/* tests/unit/regwipe.c: no vector register keeps data of a call. */
void sm4_test_regwipe(void);

/* Register an implementation at program start. */
#define SM4_TEST_IMPL(var)						\
	static void __attribute__((constructor)) var##_register(void)	\
	{								\
		sm4_test_register_impl(&(var));				\
	}

#endif
