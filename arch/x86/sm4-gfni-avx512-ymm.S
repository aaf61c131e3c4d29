/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sm4-gfni-avx2's ymm bulk functions, assembled a second time under the
 * names sm4_gfni_avx512_ymm_<mode> and linked into sm4-gfni-avx512, which
 * runs its short requests on them (doc/drivers.md, "zmm policy").  With its own
 * copy, sm4-gfni-avx512 does not depend on sm4-gfni-avx2: loading it on
 * a CPU that lacks a feature gives its own -ENODEV and log line.
 */
#define SM4G_PREFIX	sm4_gfni_avx512_ymm
/* sm4-gfni-avx512 registers no MAC (its zmm CTR is untested here). */
#define SM4G_NO_MAC
/*
 * Nor does it run GCM on this code: its gcm(sm4) is the zmm GHASH and
 * fused CTR of sm4-gfni-avx512-asm_64.S at every length.
 */
#define SM4G_NO_GCM
/* Its key expansion is sm4_gfni_avx512_expand_key (the zmm file's). */
#define SM4G_NO_EXPAND_KEY
/* Its requests of 32 blocks or more run on zmm: no byte-sliced ymm ECB. */
#define SM4G_NO_BS32
#include "sm4-gfni-avx2-asm_64.S"
