// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 SM4-instruction zmm backend (arch/x86/sm4-ni-avx10-asm_64.S)
 * in the harness, with its VSM4KEY4 key expansion: natively where the CPU
 * has the SM4 instructions and AVX10.2 (the enumeration of their EVEX
 * forms, as arch/x86/sm4_x86_glue.c checks it) with the AVX-512
 * state enabled, or with what the CPU lacks emulated: the SM4
 * instructions by sm4ni_emu.c (--emulate-sm4ni), their EVEX forms (and
 * on a CPU without AVX-512 everything EVEX) by evex_emu.c
 * (--emulate-avx512).  On a CPU with AVX-512 but not SM4 the AVX-512
 * instructions run natively and only the SM4 ones are emulated.
 */
#include <cpuid.h>
#include <stdio.h>
#include <sm4/compat.h>
#include <sm4/modes.h>
#include "impl.h"
#include "evex_emu.h"
#include "sm4ni_emu.h"
/* Its batch as the kernel driver has it. */
#define SM4_X86_DRIVER_ni_avx10
#include "../../arch/x86/sm4_x86_drivers.h"

SM4_DEFINE_MODE_OPS(sm4_ni_avx10_ops, sm4_ni_avx10, SM4_X86_BATCH);
SM4_TEST_X86_EXPANDKEY(sm4_ni_avx10_expandkey, sm4_ni_avx10_expand_key);

/* CPUID.(7,1):EAX[2]: the SM4 instructions (their VEX forms). */
static bool cpu_has_sm4(void)
{
	unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;

	if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) || eax < 1 ||
	    !__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx))
		return false;
	return eax & (1u << 2);
}

/*
 * CPUID.(7,1):EDX[19] AVX10, CPUID.(24H,0):EBX version (bits 7:0) at
 * least 2 and 512-bit vectors (bit 18): with SM4, its EVEX forms.
 */
static bool cpu_has_avx10_2_512(void)
{
	unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;

	if (__get_cpuid_max(0, NULL) < 0x24 ||
	    !__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) || eax < 1 ||
	    !__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) ||
	    !(edx & (1u << 19)) ||
	    !__get_cpuid_count(0x24, 0, &eax, &ebx, &ecx, &edx))
		return false;
	return (ebx & 0xff) >= 2 && (ebx & (1u << 18));
}

/*
 * Whether sm4ni-avx10 can run, from what the CPU has (@f->avx2, @f->avx512:
 * AVX-512F and BW with their state enabled, @f->sm4, @f->avx10_2: the
 * EVEX SM4 forms) and what is emulated: each of its three kinds of
 * instructions natively or by an emulator.
 *   VEX (AVX2, the VEX SM4 forms): AVX2 natively, the SM4 instructions
 *   natively or by sm4ni_emu.c;
 *   EVEX AVX-512: natively, or by evex_emu.c (on a CPU without AVX-512
 *   on its shadow state);
 *   EVEX SM4: natively (SM4 and AVX10.2 on top of AVX-512), or by
 *   evex_emu.c with sm4ni_emu.c, on the real zmm state of a CPU with
 *   AVX-512 or on the shadow of one without.
 */
bool sm4ni_avx10_usable(const struct sm4ni_avx10_features *f)
{
	bool vex_sm4 = f->sm4 || f->sm4_emu;
	bool evex = f->avx512 || f->avx512_emu;
	bool evex_sm4 = (f->avx512 && f->sm4 && f->avx10_2) ||
			(f->avx512_emu && f->sm4_emu);

	return f->avx2 && vex_sm4 && evex && evex_sm4;
}

static bool sm4ni_avx10_available(void)
{
	struct sm4ni_avx10_features f;

	__builtin_cpu_init();
	f = (struct sm4ni_avx10_features){
		.avx2 = __builtin_cpu_supports("avx2"),
		/* avx512f/bw: __builtin_cpu_supports() checks XCR0 too. */
		.avx512 = __builtin_cpu_supports("avx512f") &&
			  __builtin_cpu_supports("avx512bw"),
		.sm4 = cpu_has_sm4(),
		.avx10_2 = cpu_has_avx10_2_512(),
		.sm4_emu = sm4_ni_emu_active,
		.avx512_emu = sm4_avx512_emu_active,
	};
	return sm4ni_avx10_usable(&f);
}

/*
 * The decision above for every combination of the six inputs, against
 * the rule written out once more: which combinations must run.  Returns
 * how many it decides wrongly, *@usable how many it lets run.
 */
unsigned int sm4ni_avx10_test_detection(unsigned int *usable)
{
	unsigned int bits, bad = 0;

	*usable = 0;
	for (bits = 0; bits < 64; bits++) {
		struct sm4ni_avx10_features f = {
			.avx2 = bits & 1, .avx512 = bits & 2, .sm4 = bits & 4,
			.avx10_2 = bits & 8, .sm4_emu = bits & 16,
			.avx512_emu = bits & 32,
		};
		bool native = f.avx512 && f.sm4 && f.avx10_2;
		/* AVX-512 natively, SM4 emulated (the review's Xeon). */
		bool xeon = f.avx512 && f.sm4_emu && f.avx512_emu;
		/* Neither natively (an AVX2-only CPU): both emulated. */
		bool zen3 = f.sm4_emu && f.avx512_emu;
		bool want = f.avx2 && (native || xeon || zen3);
		bool got = sm4ni_avx10_usable(&f);

		if (got != want) {
			fprintf(stderr, "detect: sm4ni-avx10: avx2=%d avx512=%d sm4=%d avx10.2=%d sm4-emu=%d avx512-emu=%d: %s, expected %s\n",
				f.avx2, f.avx512, f.sm4, f.avx10_2, f.sm4_emu,
				f.avx512_emu, got ? "runs" : "skipped",
				want ? "runs" : "skipped");
			bad++;
		}
		*usable += got;
	}
	return bad;
}

static struct sm4_test_impl sm4ni_avx10_impl = {
	.name = "sm4ni-avx10",
	.ops = &sm4_ni_avx10_ops,
	.available = sm4ni_avx10_available,
	.expandkey = sm4_ni_avx10_expandkey,
	.uses = SM4_TEST_USES_SM4NI | SM4_TEST_USES_AVX512,
};
SM4_TEST_IMPL(sm4ni_avx10_impl);
