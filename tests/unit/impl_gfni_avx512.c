// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 GFNI/AVX-512 backend (arch/x86/sm4-gfni-avx512-asm_64.S) in
 * the harness: natively where the CPU has GFNI, AVX-512F/BW/VL and
 * VPCLMULQDQ (__builtin_cpu_supports() also checks that the OS enables
 * the AVX-512 state in XCR0, as the kernel glue does with
 * cpu_has_xfeatures()), or with its AVX-512 instructions emulated
 * (evex_emu.c, sm4-test --emulate-avx512) on an AVX2 CPU without AVX-512:
 * the emulator stands in for AVX-512F/BW/VL, GFNI and VPCLMULQDQ on zmm;
 * the backend's few VEX instructions (AVX, PCLMULQDQ on xmm) run natively.
 * With its GHASH functions, for sm4-gcm-test: both forms of its GHASH,
 * the one the glue picks for this CPU as .gcm.
 */
#include <sm4/compat.h>
#include <sm4/modes.h>
#include <sm4/gcm.h>
#include "impl.h"
/* Its gcm(sm4) as the kernel driver has it: SM4_X86_GCM_SHORT. */
#define SM4_X86_DRIVER_gfni_avx512
#include "../../arch/x86/sm4_x86_drivers.h"
#include "evex_emu.h"

SM4_DEFINE_MODE_OPS(sm4_gfni_avx512_ops, sm4_gfni_avx512, SM4_X86_BATCH);
SM4_TEST_X86_EXPANDKEY(sm4_gfni_avx512_expandkey, sm4_gfni_avx512_expand_key);
SM4_DEFINE_GCM_OPS(sm4_gfni_avx512_gcm_ops, sm4_gfni_avx512,
		   SM4_X86_GCM_SHORT);
/* Karatsuba's GHASH, the glue's pick on AMD's cores (sm4_x86_glue.c). */
SM4_DEFINE_GCM_OPS_GHASH(sm4_gfni_avx512_gcm_ka_ops, sm4_gfni_avx512,
			 sm4_gfni_avx512_ghash_ka, SM4_X86_GCM_SHORT);

static bool gfni_avx512_available(void)
{
	__builtin_cpu_init();
	if (sm4_avx512_emu_active)
		return __builtin_cpu_supports("avx2") &&
		       __builtin_cpu_supports("pclmul");
	return __builtin_cpu_supports("gfni") &&
	       __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vl") &&
	       __builtin_cpu_supports("vpclmulqdq");
}

static struct sm4_test_impl gfni_avx512_impl = {
	.name = "gfni-avx512",
	.ops = &sm4_gfni_avx512_ops,
	.gcm = &sm4_gfni_avx512_gcm_ops,
	.expandkey = sm4_gfni_avx512_expandkey,
	.available = gfni_avx512_available,
	.uses = SM4_TEST_USES_AVX512,
};
SM4_TEST_IMPL(gfni_avx512_impl);

/* .gcm as the glue picks it for this CPU, .gcm_alt the other. */
static void __attribute__((constructor)) gfni_avx512_pick_gcm(void)
{
	__builtin_cpu_init();
	if (__builtin_cpu_is("amd")) {
		gfni_avx512_impl.gcm = &sm4_gfni_avx512_gcm_ka_ops;
		gfni_avx512_impl.gcm_alt = &sm4_gfni_avx512_gcm_ops;
	} else {
		gfni_avx512_impl.gcm_alt = &sm4_gfni_avx512_gcm_ka_ops;
	}
}
