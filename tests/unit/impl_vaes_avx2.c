// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 AES-NI/AVX2 backend with VAES (arch/x86/sm4-vaes-avx2-asm_64.S)
 * in the harness.  __builtin_cpu_supports() also checks that the OS
 * enables the AVX state (XCR0), as the kernel glue does with
 * cpu_has_xfeatures().
 */
#include <sm4/compat.h>
#include <sm4/modes.h>
#include <sm4/mac.h>
#include "impl.h"
/* Its gcm(sm4) and ccm(sm4) as the kernel driver has them. */
#define SM4_X86_DRIVER_vaes_avx2
#include "../../arch/x86/sm4_x86_drivers.h"

SM4_DEFINE_MODE_OPS(sm4_vaes_avx2_ops, sm4_vaes_avx2, SM4_X86_BATCH);
SM4_TEST_X86_EXPANDKEY(sm4_vaes_avx2_expandkey, sm4_vaes_avx2_expand_key);
SM4_DEFINE_MAC_OPS(sm4_vaes_avx2_mac_ops, sm4_vaes_avx2, SM4_X86_CCM_SHORT);
SM4_DEFINE_GCM_OPS(sm4_vaes_avx2_gcm_ops, sm4_vaes_avx2,
		   SM4_X86_GCM_SHORT);
SM4_DEFINE_GCM_OPS_WIDE(sm4_vaes_avx2_wide_gcm_ops, sm4_vaes_avx2,
			sm4_vaes_avx2_wide, SM4_X86_GCM_SHORT);

static bool vaes_avx2_available(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") &&
	       __builtin_cpu_supports("aes") &&
	       __builtin_cpu_supports("vaes");
}

static struct sm4_test_impl vaes_avx2_impl = {
	.name = "vaes-avx2",
	.ops = &sm4_vaes_avx2_ops,
	.mac_ops = &sm4_vaes_avx2_mac_ops,
	.gcm = &sm4_vaes_avx2_gcm_ops,
	.expandkey = sm4_vaes_avx2_expandkey,
	.available = vaes_avx2_available,
};
SM4_TEST_IMPL(vaes_avx2_impl);

/*
 * .gcm as the glue picks it for this CPU (GHASH on ymm with VPCLMULQDQ),
 * .gcm_alt the other (xmm, PCLMULQDQ), where the CPU can run it.
 */
static void __attribute__((constructor)) vaes_avx2_pick_gcm(void)
{
	__builtin_cpu_init();
	if (__builtin_cpu_supports("vpclmulqdq")) {
		vaes_avx2_impl.gcm = &sm4_vaes_avx2_wide_gcm_ops;
		vaes_avx2_impl.gcm_alt = &sm4_vaes_avx2_gcm_ops;
	}
}
