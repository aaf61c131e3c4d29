/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 bulk functions with AES-NI, AVX2 and VAES (ymm, 16 blocks in
 * parallel): sm4-aesni-avx2-asm_64.S with the S-box of a ymm register in
 * one VEX.256 VAESENCLAST instead of two xmm AESENCLASTs, an extract and
 * an insert (SM4_AESENCLAST0 in sm4-aesni-modes.S).  For CPUs with VAES
 * and no GFNI: AMD Zen 3 (Intel's VAES CPUs, Ice Lake on, also have
 * GFNI, for which sm4-gfni-avx2 ranks higher).  Functions
 * sm4_vaes_avx2_*, same signatures.
 */
#define SM4_VAES
#define SM4_AVX2_FN(name)	sm4_vaes_avx2_##name
#include "sm4-aesni-avx2-asm_64.S"
