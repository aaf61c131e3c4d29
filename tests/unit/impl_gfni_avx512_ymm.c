// SPDX-License-Identifier: GPL-2.0
/*
 * The ymm code of the GFNI/AVX-512 driver (arch/x86/sm4-gfni-avx512-ymm.S:
 * sm4-gfni-avx2-asm_64.S assembled again under its own names, without
 * GCM, CBC-MAC and key expansion), which sm4-gfni-avx512.ko runs for
 * requests under SM4_X86_SMALL_BELOW bytes (its small_ops).  The same object the module
 * links, tested on its own: natively where the CPU has GFNI and AVX2,
 * with GFNI emulated (sm4-test --emulate-gfni) where it has AVX2 only.
 * Its keys are expanded by the portable code (the module uses the zmm
 * file's expansion, tested with gfni-avx512).
 */
#include <sm4/compat.h>
#include <sm4/modes.h>
#include "impl.h"
#include "gfni_emu.h"
/* Its batch as the kernel driver's small_ops have it. */
#define SM4_X86_DRIVER_gfni_avx512
#include "../../arch/x86/sm4_x86_drivers.h"

SM4_DEFINE_MODE_OPS(sm4_gfni_avx512_ymm_ops, sm4_gfni_avx512_ymm,
		    SM4_X86_SMALL_BATCH);

static struct sm4_test_impl gfni_avx512_ymm_impl = {
	.name = "gfni-avx512-ymm",
	.ops = &sm4_gfni_avx512_ymm_ops,
	.available = sm4_gfni_vex_usable,
	.uses = SM4_TEST_USES_GFNI,
};
SM4_TEST_IMPL(gfni_avx512_ymm_impl);
