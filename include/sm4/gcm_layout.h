/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the GHASH assembly of the drivers (arch/x86/sm4-modes.S,
 * arch/x86/sm4-gfni-avx512-asm_64.S, arch/arm64/sm4-ce-gcm.S) knows of
 * the C side: where it finds the members of struct sm4_ghash
 * (include/sm4/gcm.h, which checks them with static_assert) and how large
 * a key's table may be.  Plain constants, included by C and assembly.
 */
#ifndef _SM4_CRYPTO_GCM_LAYOUT_H
#define _SM4_CRYPTO_GCM_LAYOUT_H

/* struct sm4_ghash: .acc, the GHASH value (16 bytes), and .table. */
#define SM4_GHASH_ACC		0
#define SM4_GHASH_ACC_SIZE	16
#define SM4_GHASH_TABLE		16

/* Bytes a driver's table of H powers may use at most. */
#define SM4_GCM_TABLE_SIZE	2048

#endif /* _SM4_CRYPTO_GCM_LAYOUT_H */
