/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What sm4-ni-avx2-asm_64.S and sm4-ni-avx10-asm_64.S share, included
 * after sm4-ni.h (the instruction macros) and sm4-modes.S: the hooks
 * sm4-modes.S asks for, the block cores (SM4NI_CORE_FUNCS) and the key
 * expansion (SM4NI_EXPAND_KEY_BODY).
 */

#ifndef __ASSEMBLY__
#error "assembler-only header"
#endif

/* The hooks of sm4-modes.S: the cores read the schedule at %rdi as it is. */
.macro SM4_PREP_KEYS
.endm

/* A 1-block call goes through the 1..4-block path of the mode body. */
.macro SM4_ONE_BLOCK mode
.endm

/*
 * SM4NI_CORE v, sets: the core of sm4-modes.S: units in vector registers
 * 0-3 (\sets = 1) or 0-7 (\sets = 2), 32 rounds, round keys from %rdi:
 * one vpshufb bswap32 per unit, 8 groups of (the group's 4 keys into
 * every lane of register 8, one VSM4RNDS4 per unit), one vpshufb
 * bswap128 per unit.  Clobbers vector register 8.
 */
.macro SM4NI_CORE v, sets
.ifc \v, xmm
	SM4NI_CORE_L	\v, \sets, 0
.endif
.ifc \v, ymm
	SM4NI_CORE_L	\v, \sets, 1
.endif
.ifc \v, zmm
	SM4NI_CORE_L	\v, \sets, 2
.endif
.endm

.macro SM4NI_CORE_L v, sets, l
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	.if \r < 4 * \sets
	vpshufb		.Lsm4_bswap32(%rip), %\v\r, %\v\r
	.endif
	.endr
	.irp g, 0, 1, 2, 3, 4, 5, 6, 7
	.if \l == 2
	vbroadcasti32x4	(\g * 16)(%rdi), %zmm8
	.elseif \l == 1
	vbroadcasti128	(\g * 16)(%rdi), %ymm8
	.else
	vmovdqu		(\g * 16)(%rdi), %xmm8
	.endif
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	.if \r < 4 * \sets
	sm4ni_rnds4	\l, 8, \r, \r
	.endif
	.endr
	.endr
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	.if \r < 4 * \sets
	vpshufb		.Lsm4_bswap128(%rip), %\v\r, %\v\r
	.endif
	.endr
.endm

/*
 * SM4NI_CORE_FUNCS zmm: the cores sm4_core_xmm_1 (1..4 blocks, serial
 * modes), sm4_core_ymm_1 (5..8), sm4_core_ymm_2 (9..16) and, with \zmm,
 * sm4_core_zmm_1 (16) and sm4_core_zmm_2 (32 blocks).
 */
.macro SM4NI_CORE_FUNCS zmm
SYM_FUNC_START_LOCAL(sm4_core_xmm_1)
	SM4NI_CORE	xmm, 1
	RET
SYM_FUNC_END(sm4_core_xmm_1)

SYM_FUNC_START_LOCAL(sm4_core_ymm_1)
	SM4NI_CORE	ymm, 1
	RET
SYM_FUNC_END(sm4_core_ymm_1)

SYM_FUNC_START_LOCAL(sm4_core_ymm_2)
	SM4NI_CORE	ymm, 2
	RET
SYM_FUNC_END(sm4_core_ymm_2)
.if \zmm
SYM_FUNC_START_LOCAL(sm4_core_zmm_1)
	SM4NI_CORE	zmm, 1
	RET
SYM_FUNC_END(sm4_core_zmm_1)

SYM_FUNC_START_LOCAL(sm4_core_zmm_2)
	SM4NI_CORE	zmm, 2
	RET
SYM_FUNC_END(sm4_core_zmm_2)
.endif
.endm

/*
 * SM4NI_EXPAND_KEY_BODY: the body, ending in RET, of
 * void <name>(const u8 *key, u32 *rkey_enc, u32 *rkey_dec, const u32 *fk,
 *	       const u32 *ck);
 * K0..K3 = MK ^ FK, then eight VSM4KEY4 (VEX, xmm) with CK[4g .. 4g+3],
 * each giving rk[4g .. 4g+3]; rkey_dec[i] = rkey_enc[31 - i].  Wipes the
 * registers it used (key material).  sm4_x86_expandkey()
 * (sm4_x86_glue.c) calls it directly, so the including file defines it
 * with SYM_FUNC_START.
 */
.macro SM4NI_EXPAND_KEY_BODY
	vmovdqu		(%rdi), %xmm0
	vpshufb		.Lsm4_bswap32(%rip), %xmm0, %xmm0
	vpxor		(%rcx), %xmm0, %xmm0
	.irp g, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu		(\g * 16)(%r8), %xmm1
	sm4ni_key4	0, 1, 0, 0
	vmovdqu		%xmm0, (\g * 16)(%rsi)
	vpshufd		$0x1b, %xmm0, %xmm1
	vmovdqu		%xmm1, ((7 - \g) * 16)(%rdx)
	.endr
	vpxor		%xmm0, %xmm0, %xmm0
	vpxor		%xmm1, %xmm1, %xmm1
	RET
.endm
