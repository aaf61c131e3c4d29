/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 bulk functions with GFNI and AVX2 (ymm, 16 blocks in parallel),
 * for CPUs with GFNI but without AVX-512 (Intel clients from Alder
 * Lake, the E-core Xeons).  GF2P8AFFINEINVQB and GF2P8AFFINEQB are used
 * in their VEX encodings, which need GFNI and AVX only.
 *
 * The mode bodies are those of sm4-modes.S (shared with the AES-NI
 * drivers); this file supplies the block cores and the round keys they
 * use.  Function signatures: see SM4_DEFINE_MODE_OPS in
 * include/sm4/modes.h.
 *
 * The round (as in sm4-gfni-avx512-asm_64.S, which derives it): state
 * words are kept as M1*W byte by byte, the round keys as RK' = M1*rk ^
 * C1, so the S-box input is u = W1 ^ W2 ^ W3 ^ RK' and
 *	M1*L(S(x)) = P0 ^ ror8(P1) ^ ror16(P1) ^ ror24(P3),
 *	Pk = Gk*inv(u) (P0 with the constant E)
 * in the dword of each word (a big-endian word sits byte-reversed in
 * its dword, so a left rotation of the word is a right rotation of the
 * dword).  Without AVX-512 the rotations are VPSHUFB and the three-way
 * XORs two VPXOR each: a round is 3 GFNI, 3 VPSHUFB, 7 VPXOR and one
 * broadcast load per register set (13 vector uops):
 *	U(i+4) = ((U(i) ^ P0) ^ ror8(P1)) ^ (ror16(P1) ^ ror24(P3))
 *	u(i+1) = W ^ U(i+4),  W = RK'(i+1) ^ U(i+2) ^ U(i+3)
 * W is ready before the products, so GFNI, then four XOR levels after
 * P0 (or one VPSHUFB and three after P1, and after P3) lie between
 * consecutive S-box inputs: 9 cycles with GFNI's 5 (AVX-512's three-way
 * VPTERNLOGD saves levels).  All matrices and
 * shuffle masks are memory operands, so that two register sets (8 state
 * and 8 temporary registers) fit in the sixteen ymm registers.
 *
 * No memory access depends on key or data.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>
#include <asm/frame.h>
#include "sm4-gfni.h"
#include "sm4-gfni-key.S"
#include "sm4-modes.S"

/*
 * Entry points are SM4G_FN(<mode>): sm4_gfni_avx2_<mode> here, another
 * prefix when sm4-gfni-avx512-ymm.S links this code into sm4-gfni-avx512
 * (its short requests) under names of its own.
 */
#ifndef SM4G_PREFIX
#define SM4G_PREFIX	sm4_gfni_avx2
#endif
#define SM4G_PASTE(p, m)	p##_##m
#define SM4G_EXPAND(p, m)	SM4G_PASTE(p, m)
#define SM4G_FN(m)		SM4G_EXPAND(SM4G_PREFIX, m)

.section .rodata, "a"
.balign 32
.Lsm4g_m1:
	.rept 4
	.quad SM4_GFNI_M1
	.endr
.Lsm4g_m1_inv:
	.rept 4
	.quad SM4_GFNI_M1_INV
	.endr
.Lsm4g_g0:
	.rept 4
	.quad SM4_GFNI_G0
	.endr
.Lsm4g_g1:
	.rept 4
	.quad SM4_GFNI_G1
	.endr
.Lsm4g_g3:
	.rept 4
	.quad SM4_GFNI_G3
	.endr
/* Rotations of every dword right by 8, 16 and 24 bits. */
.Lsm4g_ror8:
	.rept 2
	.byte 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12
	.endr
.Lsm4g_ror16:
	.rept 2
	.byte 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
	.endr
.Lsm4g_ror24:
	.rept 2
	.byte 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
	.endr

.text

/* The per-call round keys: RK' = M1*bswap32(rk) ^ C1.  Clobbers 8. */
.macro SM4_PREP_KEYS
	.irp i, 0, 1, 2, 3
	vmovdqu		(\i * 32)(%rdi), %ymm8
	vpshufb		.Lsm4_bswap32(%rip), %ymm8, %ymm8
	vgf2p8affineqb	$SM4_GFNI_C1, .Lsm4g_m1(%rip), %ymm8, %ymm8
	vmovdqu		%ymm8, (SM4_FRAME_RK + \i * 32)(%r9)
	.endr
.endm

/* A 1-block call goes through the 1..4-block path of the mode body. */
.macro SM4_ONE_BLOCK mode
.endm

/*
 * SM4G_ROUND v, last, k, s0, s1, s2, s3, a, b, c, d
 * Round i on one set: \s0..\s3 hold U(i)..U(i+3), \a the S-box input
 * u(i); afterwards \s0 holds U(i+4) and (unless \last) \a holds u(i+1),
 * computed with RK'(i+1) at \k.  Clobbers \b, \c, \d.
 */
.macro SM4G_ROUND v, last, k, s0, s1, s2, s3, a, b, c, d
	vgf2p8affineinvqb $0, .Lsm4g_g1(%rip), %\v\a, %\v\b
	vgf2p8affineinvqb $0, .Lsm4g_g3(%rip), %\v\a, %\v\c
	vgf2p8affineinvqb $SM4_GFNI_E, .Lsm4g_g0(%rip), %\v\a, %\v\a
	vpshufb		.Lsm4g_ror8(%rip), %\v\b, %\v\d
	vpshufb		.Lsm4g_ror16(%rip), %\v\b, %\v\b
	vpshufb		.Lsm4g_ror24(%rip), %\v\c, %\v\c
	vpxor		%\v\a, %\v\s0, %\v\s0
	vpxor		%\v\d, %\v\s0, %\v\s0
	vpxor		%\v\c, %\v\b, %\v\b
	vpxor		%\v\b, %\v\s0, %\v\s0
.if !\last
	/* u(i+1) = W ^ U(i+4), W = RK'(i+1) ^ U(i+2) ^ U(i+3) */
	vpbroadcastd	\k, %\v\a
	vpxor		%\v\s2, %\v\a, %\v\a
	vpxor		%\v\s3, %\v\a, %\v\a
	vpxor		%\v\s0, %\v\a, %\v\a
.endif
.endm

/*
 * SM4G_4ROUNDS v, sets, last: rounds 4g .. 4g+3 (%rax = 16g - 128) on
 * set A (state 0-3, temporaries 8-11) and, with \sets == 2, set B
 * (4-7, 12-15), interleaved round by round.
 */
.macro SM4G_4ROUNDS v, sets, last
	SM4G_SETS	\v, \sets, 0, 132, 0, 1, 2, 3, 4, 5, 6, 7
	SM4G_SETS	\v, \sets, 0, 136, 1, 2, 3, 0, 5, 6, 7, 4
	SM4G_SETS	\v, \sets, 0, 140, 2, 3, 0, 1, 6, 7, 4, 5
	SM4G_SETS	\v, \sets, \last, 144, 3, 0, 1, 2, 7, 4, 5, 6
.endm

/* One round on set A (\a*) and, with \sets == 2, set B (\b*). */
.macro SM4G_SETS v, sets, last, k, a0, a1, a2, a3, b0, b1, b2, b3
	SM4G_ROUND	\v, \last, "\k(%r9,%rax)", \a0, \a1, \a2, \a3, \
			8, 9, 10, 11
.if \sets == 2
	SM4G_ROUND	\v, \last, "\k(%r9,%rax)", \b0, \b1, \b2, \b3, \
			12, 13, 14, 15
.endif
.endm

/*
 * SM4G_CORE v, sets: the core of sm4-modes.S (units in 0-3 or 0-7, keys
 * at %r9).  Two sets need all sixteen registers: %ymm13 (the mode's
 * chaining value or tweak) waits in the frame meanwhile.
 * Clobbers %rax, vector registers 8-12, 14, 15.
 */
.macro SM4G_CORE v, sets
.if \sets == 2
	vmovdqu		%ymm13, SM4_FRAME_SAVE(%r9)
.endif
	SM4_SETS_IN	\v, \sets
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	.if \r < 4 * \sets
	vgf2p8affineqb	$0, .Lsm4g_m1(%rip), %\v\r, %\v\r
	.endif
	.endr
	/* u(0) = U1 ^ U2 ^ U3 ^ RK'(0) */
	vpbroadcastd	SM4_FRAME_RK(%r9), %\v\()8
	vpxor		%\v\()1, %\v\()8, %\v\()8
	vpxor		%\v\()2, %\v\()8, %\v\()8
	vpxor		%\v\()3, %\v\()8, %\v\()8
.if \sets == 2
	vpbroadcastd	SM4_FRAME_RK(%r9), %\v\()12
	vpxor		%\v\()5, %\v\()12, %\v\()12
	vpxor		%\v\()6, %\v\()12, %\v\()12
	vpxor		%\v\()7, %\v\()12, %\v\()12
.endif
	mov		$-128, %rax
.Lsm4g_loop\@:
	SM4G_4ROUNDS	\v, \sets, 0
	add		$16, %rax
	cmp		$-16, %rax
	jne		.Lsm4g_loop\@
	SM4G_4ROUNDS	\v, \sets, 1
	/* registers 0-3 (4-7) now hold U32..U35 */
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	.if \r < 4 * \sets
	vgf2p8affineqb	$0, .Lsm4g_m1_inv(%rip), %\v\r, %\v\r
	.endif
	.endr
	SM4_SETS_OUT	\v, \sets
.if \sets == 2
	vmovdqu		SM4_FRAME_SAVE(%r9), %ymm13
.endif
.endm

/* Units in vector registers 0-3 (xmm): 1..4 blocks, serial modes. */
SYM_FUNC_START_LOCAL(sm4_core_xmm_1)
	SM4G_CORE	xmm, 1
	RET
SYM_FUNC_END(sm4_core_xmm_1)

/* Units in vector registers 0-3 (ymm): 5..8 blocks. */
SYM_FUNC_START_LOCAL(sm4_core_ymm_1)
	SM4G_CORE	ymm, 1
	RET
SYM_FUNC_END(sm4_core_ymm_1)

/* Units in vector registers 0-7 (ymm): 9..16 blocks. */
SYM_FUNC_START_LOCAL(sm4_core_ymm_2)
	SM4G_CORE	ymm, 2
	RET
SYM_FUNC_END(sm4_core_ymm_2)

SYM_TYPED_FUNC_START(SM4G_FN(ecb))
	SM4_MODE_FUNC	ecb, ymm
SYM_FUNC_END(SM4G_FN(ecb))

SYM_TYPED_FUNC_START(SM4G_FN(cbc_dec))
	SM4_MODE_FUNC	cbc_dec, ymm
SYM_FUNC_END(SM4G_FN(cbc_dec))

SYM_TYPED_FUNC_START(SM4G_FN(cfb_dec))
	SM4_MODE_FUNC	cfb_dec, ymm
SYM_FUNC_END(SM4G_FN(cfb_dec))

SYM_TYPED_FUNC_START(SM4G_FN(ctr))
	SM4_MODE_FUNC	ctr, ymm
SYM_FUNC_END(SM4G_FN(ctr))

SYM_TYPED_FUNC_START(SM4G_FN(xts))
	SM4_MODE_FUNC	xts, ymm
SYM_FUNC_END(SM4G_FN(xts))

SYM_TYPED_FUNC_START(SM4G_FN(cbc_enc))
	SM4_SERIAL_FUNC	cbc_enc
SYM_FUNC_END(SM4G_FN(cbc_enc))

SYM_TYPED_FUNC_START(SM4G_FN(cfb_enc))
	SM4_SERIAL_FUNC	cfb_enc
SYM_FUNC_END(SM4G_FN(cfb_enc))

#ifndef SM4G_NO_MAC
/* The CBC-MAC of cbcmac/cmac/xcbc/ccm(sm4) (include/sm4/mac.h). */
SYM_TYPED_FUNC_START(SM4G_FN(cbcmac))
	SM4_SERIAL_FUNC	cbcmac
SYM_FUNC_END(SM4G_FN(cbcmac))
#endif

#ifndef SM4G_NO_GCM
/* gcm(sm4): GHASH with VPCLMULQDQ on ymm (include/sm4/gcm.h). */
SYM_TYPED_FUNC_START(SM4G_FN(gcm_init))
	SM4_GCM_INIT_FUNC
SYM_FUNC_END(SM4G_FN(gcm_init))

SYM_TYPED_FUNC_START(SM4G_FN(ghash))
	SM4_GHASH_FUNC	ymm, ymm
SYM_FUNC_END(SM4G_FN(ghash))

SYM_TYPED_FUNC_START(SM4G_FN(gcm_enc))
	SM4_GCM_FUNC	ymm, ymm
SYM_FUNC_END(SM4G_FN(gcm_enc))
#endif

#ifndef SM4G_NO_EXPAND_KEY
/* Key expansion: called by sm4_x86_expandkey() (sm4_x86_glue.c). */
SYM_FUNC_START(SM4G_FN(expand_key))
	SM4_GFNI_EXPAND_KEY_BODY
SYM_FUNC_END(SM4G_FN(expand_key))
#endif
