// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 GFNI/AVX2 backend (arch/x86/sm4-gfni-avx2-asm_64.S) in the
 * harness: natively where the CPU has GFNI and AVX2, or with its GFNI
 * instructions emulated (gfni_emu.c, sm4-test --emulate-gfni) on an
 * AVX2 CPU without GFNI.
 */
#include <sm4/compat.h>
#include <sm4/modes.h>
#include <sm4/mac.h>
#include "impl.h"
/* Its gcm(sm4) and ccm(sm4) as the kernel driver has them. */
#define SM4_X86_DRIVER_gfni_avx2
#include "../../arch/x86/sm4_x86_drivers.h"
#include "gfni_emu.h"

SM4_DEFINE_MODE_OPS(sm4_gfni_avx2_ops, sm4_gfni_avx2, SM4_X86_BATCH);
SM4_TEST_X86_EXPANDKEY(sm4_gfni_avx2_expandkey, sm4_gfni_avx2_expand_key);
SM4_DEFINE_MAC_OPS(sm4_gfni_avx2_mac_ops, sm4_gfni_avx2, SM4_X86_CCM_SHORT);
SM4_DEFINE_GCM_OPS(sm4_gfni_avx2_gcm_ops, sm4_gfni_avx2,
		   SM4_X86_GCM_SHORT);

static struct sm4_test_impl gfni_avx2_impl = {
	.name = "gfni-avx2",
	.ops = &sm4_gfni_avx2_ops,
	.mac_ops = &sm4_gfni_avx2_mac_ops,
	.gcm = &sm4_gfni_avx2_gcm_ops,
	.expandkey = sm4_gfni_avx2_expandkey,
	.available = sm4_gfni_vex_usable,
	.uses = SM4_TEST_USES_GFNI,
};
SM4_TEST_IMPL(gfni_avx2_impl);
