// SPDX-License-Identifier: GPL-2.0
/*
 * Part of sm4_generic.ko on kernels whose kernel_neon_begin() takes a
 * state buffer (6.19 on; arch/arm64/Kbuild.inc probes for it): the one
 * per-CPU buffer of the SIMD sections that softirqs open
 * (sm4_simd_begin(), include/sm4/compat.h).  Every caller of
 * sm4_simd_begin() is in sm4_generic.ko, so it is not exported; a module
 * of its own that opened SIMD sections could share it (export it in the
 * SM4_CRYPTO namespace then): two sections of one CPU never use it at
 * the same time, whichever module they are in (see compat.h).
 */

#include <sm4/compat.h>

DEFINE_PER_CPU(struct user_fpsimd_state, sm4_softirq_fpsimd_state);
