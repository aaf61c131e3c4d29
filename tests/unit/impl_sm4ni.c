// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 SM4-instruction backend (arch/x86/sm4-ni-avx2-asm_64.S)
 * in the harness, with its VSM4KEY4 key expansion: natively where the
 * CPU has the SM4 instructions and AVX2, or with them emulated
 * (sm4ni_emu.c, sm4-test --emulate-sm4ni) on an AVX2 CPU without them.
 */
#include <cpuid.h>
#include <sm4/compat.h>
#include <sm4/modes.h>
#include <sm4/mac.h>
#include "impl.h"
#include "sm4ni_emu.h"
/* Its ccm(sm4) as the kernel driver has it. */
#define SM4_X86_DRIVER_ni_avx2
#include "../../arch/x86/sm4_x86_drivers.h"

SM4_DEFINE_MODE_OPS(sm4_ni_avx2_ops, sm4_ni_avx2, SM4_X86_BATCH);
SM4_DEFINE_MAC_OPS(sm4_ni_avx2_mac_ops, sm4_ni_avx2, SM4_X86_CCM_SHORT);
SM4_TEST_X86_EXPANDKEY(sm4_ni_expandkey, sm4_ni_expand_key);

/* CPUID.(EAX=7,ECX=1):EAX[2], as the kernel driver checks it. */
static bool cpu_has_sm4ni(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) || eax < 1)
		return false;
	__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx);
	return eax & (1u << 2);
}

static bool sm4ni_available(void)
{
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2"))
		return false;
	return cpu_has_sm4ni() || sm4_ni_emu_active;
}

static struct sm4_test_impl sm4ni_impl = {
	.name = "sm4ni-avx2",
	.ops = &sm4_ni_avx2_ops,
	.mac_ops = &sm4_ni_avx2_mac_ops,
	.available = sm4ni_available,
	.expandkey = sm4_ni_expandkey,
	.uses = SM4_TEST_USES_SM4NI,
};
SM4_TEST_IMPL(sm4ni_impl);
