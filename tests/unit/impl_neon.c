// SPDX-License-Identifier: GPL-2.0
/*
 * The arm64 NEON backend (arch/arm64/sm4-neon-core.S) in the harness,
 * with its key expansion (the driver's .expandkey itself).  Advanced SIMD
 * is part of every ARMv8-A Linux system.
 */
#include <sm4/compat.h>
#include <sm4/modes.h>
#include "../../arch/arm64/sm4-neon.h"
#include "impl.h"

SM4_DEFINE_MODE_OPS(sm4_neon_ops, sm4_neon, SM4_NEON_BATCH);

static struct sm4_test_impl neon_impl = {
	.name = "neon",
	.ops = &sm4_neon_ops,
	.expandkey = sm4_neon_expand_key,
};
SM4_TEST_IMPL(neon_impl);
