// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 SM4-instruction zmm backend (arch/x86/sm4-ni-avx10-asm_64.S)
 * in the harness, with its VSM4KEY4 key expansion: natively where the CPU
 * has the SM4 instructions and AVX10.2 (the enumeration of their EVEX
 * forms, as arch/x86/sm4_ni_avx10_glue.c checks it) with the AVX-512
 * state enabled, or emulated on an AVX2 CPU without them: the SM4
 * instructions by sm4ni_emu.c (--emulate-sm4ni), everything EVEX by
 * evex_emu.c (--emulate-avx512); both are needed.
 */
#include <cpuid.h>
#include <sm4/compat.h>
#include <sm4/modes.h>
#include "../../arch/x86/sm4-ni.h"
#include "impl.h"
#include "evex_emu.h"
#include "sm4ni_emu.h"

SM4_DEFINE_MODE_OPS(sm4_ni_avx10_ops, sm4_ni_avx10);

/*
 * CPUID.(7,1):EAX[2] SM4, CPUID.(7,1):EDX[19] AVX10, CPUID.(24H,0):EBX
 * version (bits 7:0) at least 2 and 512-bit vectors (bit 18).
 */
static bool cpu_has_sm4_avx10_2(void)
{
	unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;

	if (__get_cpuid_max(0, NULL) < 0x24 ||
	    !__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) || eax < 1 ||
	    !__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) ||
	    !(eax & (1u << 2)) || !(edx & (1u << 19)) ||
	    !__get_cpuid_count(0x24, 0, &eax, &ebx, &ecx, &edx))
		return false;
	return (ebx & 0xff) >= 2 && (ebx & (1u << 18));
}

static bool sm4ni_avx10_available(void)
{
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2"))
		return false;
	if (sm4_ni_emu_active && sm4_avx512_emu_active)
		return true;
	/* avx512f/bw: __builtin_cpu_supports() checks XCR0 too. */
	return __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512bw") && cpu_has_sm4_avx10_2();
}

static struct sm4_test_impl sm4ni_avx10_impl = {
	.name = "sm4ni-avx10",
	.ops = &sm4_ni_avx10_ops,
	.available = sm4ni_avx10_available,
	.expandkey = sm4_ni_avx10_expandkey,
	.width = 32,
};
SM4_TEST_IMPL(sm4ni_avx10_impl);
