// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 GFNI/AVX-512 backend (arch/x86/sm4-gfni-avx512-asm_64.S) in
 * the harness.  __builtin_cpu_supports() also checks that the OS enables
 * the AVX-512 state (XCR0), as the kernel glue does with
 * cpu_has_xfeatures().
 */
#include <sm4/compat.h>
#include <sm4/modes.h>
#include "impl.h"

SM4_DEFINE_MODE_OPS(sm4_gfni_avx512_ops, sm4_gfni_avx512);

static bool gfni_avx512_available(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("gfni") &&
	       __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vl") &&
	       __builtin_cpu_supports("vpclmulqdq");
}

static struct sm4_test_impl gfni_avx512_impl = {
	.name = "gfni-avx512",
	.ops = &sm4_gfni_avx512_ops,
	.available = gfni_avx512_available,
	.width = 64,
};
SM4_TEST_IMPL(gfni_avx512_impl);
