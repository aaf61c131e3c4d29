/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 bulk functions with GFNI and AVX2 (ymm, 16 blocks in parallel),
 * for CPUs with GFNI but without AVX-512 (Intel clients from Alder
 * Lake, the E-core Xeons).  GF2P8AFFINEINVQB and GF2P8AFFINEQB are used
 * in their VEX encodings, which need GFNI and AVX only.
 *
 * The mode bodies are those of sm4-modes.S (shared with the AES-NI
 * drivers); this file supplies the block cores and the round keys they
 * use, and for ECB, CBC decryption, CTR, XTS and gcm encryption
 * requests of 32 blocks or more a byte-sliced path of its own
 * (sm4g_bs32_*, below), which does their whole 32 blocks before the
 * mode body does the rest.  Function
 * signatures: see SM4_DEFINE_MODE_OPS in include/sm4/modes.h.
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
#ifndef SM4G_NO_BS32
/* KK (SM4G_BS_ENTER): mask i spreads dword i of a lane, a byte a dword. */
.Lsm4g_spread:
	.irp i, 0, 1, 2, 3
	.rept 2
	.byte 4*\i, 4*\i, 4*\i, 4*\i, 4*\i+1, 4*\i+1, 4*\i+1, 4*\i+1
	.byte 4*\i+2, 4*\i+2, 4*\i+2, 4*\i+2, 4*\i+3, 4*\i+3, 4*\i+3, 4*\i+3
	.endr
	.endr
/* CTR: the block of each byte of a byte-sliced register. */
.Lsm4g_bs_order:
	.byte 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30
	.byte 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31
#endif
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

#ifndef SM4G_NO_BS32
/*
 * 32 blocks byte-sliced (ECB, CBC decryption, CTR, XTS and gcm
 * encryption requests of 32 blocks or more), as the 64-block batches of
 * sm4-gfni-avx512-asm_64.S do it with zmm: after a 16x16 byte transpose
 * inside each 128-bit lane, register c holds byte c (4 * word + byte)
 * of 32 blocks, a rotation of L is a change of register, and a round is
 * 12 GFNI and 28 XORs for 32 blocks (the word-sliced round above: 26
 * uops, 6 of them shuffles, for 16).
 * Sixteen ymm registers do not hold the state besides the round's
 * products, so the four words live in the frame (S, word w byte j at
 * 32 * (4w + j)): a round reads U0 and U1 there as memory operands and
 * writes U4 over U0.  In the round (the byte index j mod 4):
 *	A[j] = U0[j] ^ P1[j+1] ^ P1[j+2]
 *	U4[j] = A[j] ^ P0[j] ^ P3[j+3]
 *	u'[j] = U4[j] ^ V[j],  V[j] = u[j] ^ U1[j] ^ KK[j]
 * with Pk[j] = Gk * inv(u[j]), u[j] in ymm0-3, G1 in ymm15, G0 in
 * ymm14, G3 a memory operand, and KK the frame's byte-sliced key table
 * (entry i: RK'(i - 1) ^ RK'(i), RK'(-1) = 0, byte j of it in the dword
 * at 4j, broadcast).  Measured natively on a Sapphire Rapids core (a
 * loop of rounds alone): 17.8 cycles a round of 32 blocks, against
 * 12.2 for a round of 16 blocks (two sets) above: the word-sliced round
 * waits for its chain (GFNI, a rotation, three XORs; 11.5 cycles for
 * one set alone), the byte-sliced one has 32 blocks in it.
 *
 * The transposes: four levels of byte unpacks of registers i and i + 8
 * into 2i and 2i + 1 (as in the zmm file), with one register too few
 * to keep both inputs of a pair: the first level takes its second
 * input from memory (the blocks, or S), the others spill it to T first.
 * The network is its own inverse; after it, logical register c is
 * ymm(15 - c), and byte p of a byte-sliced register belongs to block
 * 2p (p < 16) or 2(p - 16) + 1.  M1 (into the domain) and M1^-1 commute
 * with it (bytewise).
 *
 * Frame (SM4G_BS_FRAME, 32-byte aligned, at r10 in the core): KK (33
 * entries, the last zero for the last round's unused u'), RK' behind 32
 * zero bytes (KK's RK'(-1)), S, T; for CTR and XTS also X (a batch's
 * input blocks: counters, or src ^ tweaks), TW (XTS: the batch's
 * tweaks) and the counter or tweak between batches (16 bytes); for gcm
 * the registers kept across its GHASH calls.  All of it is wiped before
 * returning.
 */
#define SM4G_BS_KK	0
#define SM4G_BS_RK	576
#define SM4G_BS_S	704
#define SM4G_BS_T	1216
#define SM4G_BS_ECB_FRAME 1472
#define SM4G_BS_CBC_FRAME 1504		/* the chaining value at X */
#define SM4G_BS_X	1472
#define SM4G_BS_TW	1984
#define SM4G_BS_IV	2496
#define SM4G_BS_REGS	2528
#define SM4G_BS_FRAME	2592

/* One level after the first: pairs (\s_i, \t_i), through T. */
.macro SM4G_BS_LEVEL s0, s1, s2, s3, s4, s5, s6, s7, \
		     t0, t1, t2, t3, t4, t5, t6, t7
	SM4G_BS_PAIR	\s0, \t0, 0
	SM4G_BS_PAIR	\s1, \t1, 1
	SM4G_BS_PAIR	\s2, \t2, 2
	SM4G_BS_PAIR	\s3, \t3, 3
	SM4G_BS_PAIR	\s4, \t4, 4
	SM4G_BS_PAIR	\s5, \t5, 5
	SM4G_BS_PAIR	\s6, \t6, 6
	SM4G_BS_PAIR	\s7, \t7, 7
.endm

.macro SM4G_BS_PAIR s, t, i
	vmovdqa		%ymm\t, SM4G_BS_T + 32 * \i(%r10)
	vpunpcklbw	SM4G_BS_T + 32 * \i(%r10), %ymm\s, %ymm\t
	vpunpckhbw	SM4G_BS_T + 32 * \i(%r10), %ymm\s, %ymm\s
.endm

/*
 * The first level's pair i: logical i from \a, logical i + 8 from \b,
 * into ymm\r (\r = i + 8) and ymm\i.
 */
.macro SM4G_BS_FIRST1 i, r, a, b
	vmovdqu		\a, %ymm\i
	vpunpcklbw	\b, %ymm\i, %ymm\r
	vpunpckhbw	\b, %ymm\i, %ymm\i
.endm

/*
 * The network, its first level from memory at \off(\base): logical
 * register i is the 32 bytes at \off + 32 * \a_i, i + 8 at \off + 32 *
 * \b_i (i = 0..7).
 */
.macro SM4G_BS_NETWORK off, base, a0, b0, a1, b1, a2, b2, a3, b3, \
		       a4, b4, a5, b5, a6, b6, a7, b7
	SM4G_BS_FIRST1	0, 8, (\off+32*\a0)(\base), (\off+32*\b0)(\base)
	SM4G_BS_FIRST1	1, 9, (\off+32*\a1)(\base), (\off+32*\b1)(\base)
	SM4G_BS_FIRST1	2, 10, (\off+32*\a2)(\base), (\off+32*\b2)(\base)
	SM4G_BS_FIRST1	3, 11, (\off+32*\a3)(\base), (\off+32*\b3)(\base)
	SM4G_BS_FIRST1	4, 12, (\off+32*\a4)(\base), (\off+32*\b4)(\base)
	SM4G_BS_FIRST1	5, 13, (\off+32*\a5)(\base), (\off+32*\b5)(\base)
	SM4G_BS_FIRST1	6, 14, (\off+32*\a6)(\base), (\off+32*\b6)(\base)
	SM4G_BS_FIRST1	7, 15, (\off+32*\a7)(\base), (\off+32*\b7)(\base)
	SM4G_BS_LEVEL	8, 0, 9, 1, 10, 2, 11, 3, 12, 4, 13, 5, 14, 6, 15, 7
	SM4G_BS_LEVEL	12, 8, 4, 0, 13, 9, 5, 1, 14, 10, 6, 2, 15, 11, 7, 3
	SM4G_BS_LEVEL	14, 12, 10, 8, 6, 4, 2, 0, 15, 13, 11, 9, 7, 5, 3, 1
.endm

/* One round: U0 = word \w0 of S, U1 = word \w1, KK entry at \kd(%r11). */
.macro SM4G_BS_ROUND w0, w1, kd
	vgf2p8affineinvqb $0, %ymm15, %ymm1, %ymm5
	vgf2p8affineinvqb $0, %ymm15, %ymm2, %ymm6
	vpxor		%ymm5, %ymm6, %ymm8
	vgf2p8affineinvqb $0, %ymm15, %ymm3, %ymm7
	vpxor		%ymm6, %ymm7, %ymm9
	vgf2p8affineinvqb $0, %ymm15, %ymm0, %ymm4
	vpxor		%ymm7, %ymm4, %ymm10
	vpxor		%ymm4, %ymm5, %ymm11
	vpxor		SM4G_BS_S + 32 * (4 * \w0)(%r10), %ymm8, %ymm8
	vpxor		SM4G_BS_S + 32 * (4 * \w0 + 1)(%r10), %ymm9, %ymm9
	vpxor		SM4G_BS_S + 32 * (4 * \w0 + 2)(%r10), %ymm10, %ymm10
	vpxor		SM4G_BS_S + 32 * (4 * \w0 + 3)(%r10), %ymm11, %ymm11
	SM4G_BS_U4	\w0, 0, 3, 8
	SM4G_BS_U4	\w0, 1, 0, 9
	SM4G_BS_U4	\w0, 2, 1, 10
	SM4G_BS_U4	\w0, 3, 2, 11
	SM4G_BS_V	\w1, \kd, 0, 8, 4
	SM4G_BS_V	\w1, \kd, 1, 9, 5
	SM4G_BS_V	\w1, \kd, 2, 10, 6
	SM4G_BS_V	\w1, \kd, 3, 11, 7
.endm

/* U4[j] = A[j] ^ P0[j] ^ P3[j3] (A[j] in ymm\a), stored over U0[j]. */
.macro SM4G_BS_U4 w0, j, j3, a
	vgf2p8affineinvqb $SM4_GFNI_E, %ymm14, %ymm\j, %ymm12
	vgf2p8affineinvqb $0, .Lsm4g_g3(%rip), %ymm\j3, %ymm13
	vpxor		%ymm12, %ymm\a, %ymm\a
	vpxor		%ymm13, %ymm\a, %ymm\a
	vmovdqa		%ymm\a, SM4G_BS_S + 32 * (4 * \w0 + \j)(%r10)
.endm

/* u'[j] = u[j] ^ U1[j] ^ KK[j] ^ U4[j] (U4[j] in ymm\a), through ymm\t. */
.macro SM4G_BS_V w1, kd, j, a, t
	vpbroadcastd	\kd + 4 * \j(%r11), %ymm\t
	vpxor		SM4G_BS_S + 32 * (4 * \w1 + \j)(%r10), %ymm\j, %ymm\j
	vpxor		%ymm\t, %ymm\j, %ymm\j
	vpxor		%ymm\a, %ymm\j, %ymm\j
.endm

/*
 * sm4g_bs32_core_bs: 32 blocks, byte-sliced (logical c in ymm(15 - c)),
 * through the 32 rounds; sm4g_bs32_core: the 32 blocks at rax (any 512
 * bytes that may be read) through the network first.  In: r10 = the
 * frame (KK built).  Out: the output blocks 2c, 2c + 1 in ymm(15 - c).
 * Clobber every vector register, r9, r11.
 */
SYM_FUNC_START_LOCAL(sm4g_bs32_core)
	/* the blocks in order */
	SM4G_BS_NETWORK	0, %rax, 0, 8, 1, 9, 2, 10, 3, 11, \
			4, 12, 5, 13, 6, 14, 7, 15
	jmp		sm4g_bs32_core_bs
SYM_FUNC_END(sm4g_bs32_core)

SYM_FUNC_START_LOCAL(sm4g_bs32_core_bs)
	/* into the domain, into S */
	.irp r, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
	vgf2p8affineqb	$0, .Lsm4g_m1(%rip), %ymm\r, %ymm\r
	vmovdqa		%ymm\r, SM4G_BS_S + 32 * (15 - \r)(%r10)
	.endr
	/* u = U1 ^ U2 ^ U3 ^ RK'(0) */
	.irp j, 0, 1, 2, 3
	vpbroadcastd	SM4G_BS_KK + 4 * \j(%r10), %ymm\j
	vpxor		SM4G_BS_S + 32 * (4 + \j)(%r10), %ymm\j, %ymm\j
	vpxor		SM4G_BS_S + 32 * (8 + \j)(%r10), %ymm\j, %ymm\j
	vpxor		SM4G_BS_S + 32 * (12 + \j)(%r10), %ymm\j, %ymm\j
	.endr
	vmovdqa		.Lsm4g_g1(%rip), %ymm15
	vmovdqa		.Lsm4g_g0(%rip), %ymm14
	lea		SM4G_BS_KK(%r10), %r11
	lea		SM4G_BS_KK + 512(%r10), %r9
.Lsm4g_bs_rounds:
	SM4G_BS_ROUND	0, 1, 16
	SM4G_BS_ROUND	1, 2, 32
	SM4G_BS_ROUND	2, 3, 48
	SM4G_BS_ROUND	3, 0, 64
	add		$64, %r11
	cmp		%r9, %r11
	jne		.Lsm4g_bs_rounds
	/* logical i: word 3 - i / 4 of S (U35 .. U32), byte i % 4 */
	SM4G_BS_NETWORK	SM4G_BS_S, %r10, 12, 4, 13, 5, 14, 6, 15, 7, \
			8, 0, 9, 1, 10, 2, 11, 3
	.irp r, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
	vgf2p8affineqb	$0, .Lsm4g_m1_inv(%rip), %ymm\r, %ymm\r
	.endr
	RET
SYM_FUNC_END(sm4g_bs32_core_bs)

/*
 * The byte-sliced functions' frame (\size bytes of SM4G_BS_FRAME's
 * layout) at r10 = rsp, and KK from the round keys at rdi:
 * RK' = M1 * bswap32(rk) ^ C1, then entry i = RK'(i - 1) ^ RK'(i) spread.
 */
.macro SM4G_BS_ENTER size
	push		%rbp
	mov		%rsp, %rbp
	and		$-32, %rsp
	sub		$\size, %rsp
	mov		%rsp, %r10
	vpxor		%xmm0, %xmm0, %xmm0
	vmovdqa		%ymm0, SM4G_BS_RK - 32(%r10)
	vmovdqa		%xmm0, SM4G_BS_KK + 512(%r10)
	.irp i, 0, 1, 2, 3
	vmovdqu		32 * \i(%rdi), %ymm0
	vpshufb		.Lsm4_bswap32(%rip), %ymm0, %ymm0
	vgf2p8affineqb	$SM4_GFNI_C1, .Lsm4g_m1(%rip), %ymm0, %ymm0
	vmovdqa		%ymm0, SM4G_BS_RK + 32 * \i(%r10)
	.endr
	.irp i, 0, 1, 2, 3
	vmovdqa		SM4G_BS_RK + 32 * \i(%r10), %ymm0
	vpxor		SM4G_BS_RK + 32 * \i - 4(%r10), %ymm0, %ymm0
	.irp k, 0, 1, 2, 3
	vpshufb		.Lsm4g_spread + 32 * \k(%rip), %ymm0, %ymm1
	vmovdqa		%xmm1, SM4G_BS_KK + 128 * \i + 16 * \k(%r10)
	vextracti128	$1, %ymm1, SM4G_BS_KK + 128 * \i + 64 + 16 * \k(%r10)
	.endr
	.endr
.endm

/* Wipe the frame's \size bytes and the vector registers, return. */
.macro SM4G_BS_LEAVE size
	vpxor		%xmm0, %xmm0, %xmm0
	.set .Lsm4g_off, 0
	.rept \size / 32
	vmovdqa		%ymm0, .Lsm4g_off(%r10)
	.set .Lsm4g_off, .Lsm4g_off + 32
	.endr
	vzeroall
	leave
	RET
.endm

/*
 * After a batch: rsi, rdx past it, and on while 32 blocks are left.
 * The functions below: rdi = rk, rsi = dst, rdx = src, ecx = nblocks
 * >= 32 (r8 = the counter or tweak); they do every whole 32 blocks and
 * return rsi, rdx past them, ecx < 32 and (r8) moved on.
 */
.macro SM4G_BS_NEXT loop
	add		$512, %rsi
	add		$512, %rdx
	sub		$32, %ecx
	cmp		$32, %ecx
	jae		\loop
.endm

SYM_FUNC_START_LOCAL(sm4g_bs32_ecb)
	SM4G_BS_ENTER	SM4G_BS_ECB_FRAME
.Lsm4g_bs_ecb_loop:
	mov		%rdx, %rax
	call		sm4g_bs32_core
	.irp r, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
	vmovdqu		%ymm\r, 32 * (15 - \r)(%rsi)
	.endr
	SM4G_BS_NEXT	.Lsm4g_bs_ecb_loop
	SM4G_BS_LEAVE	SM4G_BS_ECB_FRAME
SYM_FUNC_END(sm4g_bs32_ecb)

/*
 * CBC decryption: the output of logical c (blocks 2c, 2c + 1) XORed
 * with the ciphertext 16 bytes before it, from c = 15 down, so that in
 * place no store overwrites ciphertext still to be read; the last
 * block's ciphertext (the next chaining value) waits in rax:r11, the
 * chaining value in the frame.
 */
SYM_FUNC_START_LOCAL(sm4g_bs32_cbc_dec)
	SM4G_BS_ENTER	SM4G_BS_CBC_FRAME
	vmovdqu		(%r8), %xmm0
	vmovdqa		%xmm0, SM4G_BS_X(%r10)
.Lsm4g_bs_cbc_loop:
	mov		%rdx, %rax
	call		sm4g_bs32_core
	movq		496(%rdx), %rax
	movq		504(%rdx), %r11
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14
	vpxor		32 * (15 - \r) - 16(%rdx), %ymm\r, %ymm\r
	vmovdqu		%ymm\r, 32 * (15 - \r)(%rsi)
	.endr
	vmovdqa		SM4G_BS_X(%r10), %xmm0
	vinserti128	$1, (%rdx), %ymm0, %ymm0
	vpxor		%ymm0, %ymm15, %ymm15
	vmovdqu		%ymm15, (%rsi)
	movq		%rax, SM4G_BS_X(%r10)
	movq		%r11, SM4G_BS_X + 8(%r10)
	SM4G_BS_NEXT	.Lsm4g_bs_cbc_loop
	vmovdqa		SM4G_BS_X(%r10), %xmm0
	vmovdqu		%xmm0, (%r8)
	SM4G_BS_LEAVE	SM4G_BS_CBC_FRAME
SYM_FUNC_END(sm4g_bs32_cbc_dec)

/*
 * XTS: a batch's tweaks t * x^0 .. x^31 (two a register: [t, t * x]
 * times x^2u, SM4_XTS_MUL_XK) go to TW, src ^ them to X, the tweak
 * after the batch (t * x^32) to IV; the core's output is XORed with TW.
 */
SYM_FUNC_START_LOCAL(sm4g_bs32_xts)
	SM4G_BS_ENTER	SM4G_BS_FRAME
	vmovdqu		(%r8), %xmm13
.Lsm4g_bs_xts_loop:
	vmovdqa		%xmm13, %xmm8
	SM4_XTS_NEXT
	vinserti128	$1, %xmm13, %ymm8, %ymm8
	.irp u, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.if \u == 0
	vmovdqa		%ymm8, %ymm12
	.else
	SM4_XTS_MUL_XK	ymm, 8, 12, (2*\u)
	.endif
	vmovdqa		%ymm12, SM4G_BS_TW + 32 * \u(%r10)
	vpxor		32 * \u(%rdx), %ymm12, %ymm12
	vmovdqa		%ymm12, SM4G_BS_X + 32 * \u(%r10)
	.endr
	SM4_XTS_MUL_XK	xmm, 8, 13, 32
	vmovdqa		%xmm13, SM4G_BS_IV(%r10)
	lea		SM4G_BS_X(%r10), %rax
	call		sm4g_bs32_core
	.irp r, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
	vpxor		SM4G_BS_TW + 32 * (15 - \r)(%r10), %ymm\r, %ymm\r
	vmovdqu		%ymm\r, 32 * (15 - \r)(%rsi)
	.endr
	vmovdqa		SM4G_BS_IV(%r10), %xmm13
	SM4G_BS_NEXT	.Lsm4g_bs_xts_loop
	vmovdqu		%xmm13, (%r8)
	SM4G_BS_LEAVE	SM4G_BS_FRAME
SYM_FUNC_END(sm4g_bs32_xts)

/* The counter rax:r9 big-endian at \off(%r10).  Clobbers r11. */
.macro SM4G_BS_CTR_PUT off
	mov		%rax, %r11
	bswapq		%r11
	movq		%r11, \off(%r10)
	mov		%r9, %r11
	bswapq		%r11
	movq		%r11, \off + 8(%r10)
.endm

/* Pairs (c, r): ymm\r = byte c of the counter at IV, broadcast. */
.macro SM4G_BS_CTR_BYTES c, r, more:vararg
	vpbroadcastb	SM4G_BS_IV + \c(%r10), %ymm\r
.ifnb \more
	SM4G_BS_CTR_BYTES \more
.endif
.endm

/*
 * CTR: the counter (big-endian, 128 bits) in IV and in rax:r9 (native:
 * high, low) between batches.  A batch whose low 16 counter bits are at
 * most 0xffe0 (nothing carries into byte 13: 2047 batches in 2048) gets
 * its counters made byte-sliced, as the input network would leave them
 * (bytes 0-13 broadcast, byte 15 plus the block order .Lsm4g_bs_order,
 * byte 14 plus its carry), and skips the network; any other batch's
 * counters are written to X one by one and go through it.
 * gcm encryption (\gcm; r9 = the struct sm4_ghash, kept in REGS): each
 * batch's ciphertext also goes to X, and this file's GHASH function
 * hashes it from there (dst is never read back: include/sm4/gcm.h);
 * rdi and r9 are as they came on return.
 */
.macro SM4G_BS_CTR_FUNC gcm
	SM4G_BS_ENTER	SM4G_BS_FRAME
.if \gcm
	movq		%r9, SM4G_BS_REGS(%r10)
	movq		%rdi, SM4G_BS_REGS + 8(%r10)
.endif
	movq		(%r8), %rax
	movq		8(%r8), %r9
	bswapq		%rax
	bswapq		%r9
.Lsm4g_bs_ctr_loop\@:
	/* IV = the counter, big-endian */
	SM4G_BS_CTR_PUT	SM4G_BS_IV
	cmp		$0xffe0, %r9w
	ja		.Lsm4g_bs_ctr_slow\@
	vmovdqa		.Lsm4g_bs_order(%rip), %ymm2
	vpbroadcastb	SM4G_BS_IV + 15(%r10), %ymm0
	vpaddb		%ymm2, %ymm0, %ymm0
	/* where the sum is below its order byte, byte 15 carried */
	vpmaxub		%ymm2, %ymm0, %ymm2
	vpcmpeqb	%ymm0, %ymm2, %ymm2
	vpbroadcastb	SM4G_BS_IV + 14(%r10), %ymm1
	vpcmpeqb	%ymm3, %ymm3, %ymm3
	vpsubb		%ymm3, %ymm1, %ymm1
	vpaddb		%ymm2, %ymm1, %ymm1
	SM4G_BS_CTR_BYTES 0, 15, 1, 14, 2, 13, 3, 12, 4, 11, 5, 10, 6, 9, 7, 8, \
			  8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2
	add		$32, %r9
	adc		$0, %rax
	movq		%rax, SM4G_BS_IV(%r10)
	movq		%r9, SM4G_BS_IV + 8(%r10)
	call		sm4g_bs32_core_bs
	jmp		.Lsm4g_bs_ctr_out\@
.Lsm4g_bs_ctr_slow\@:
	.irp b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	SM4G_BS_CTR_PUT	(SM4G_BS_X+16*\b)
	add		$1, %r9
	adc		$0, %rax
	.endr
	movq		%rax, SM4G_BS_IV(%r10)
	movq		%r9, SM4G_BS_IV + 8(%r10)
	lea		SM4G_BS_X(%r10), %rax
	call		sm4g_bs32_core
.Lsm4g_bs_ctr_out\@:
	.irp r, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
	vpxor		32 * (15 - \r)(%rdx), %ymm\r, %ymm\r
	vmovdqu		%ymm\r, 32 * (15 - \r)(%rsi)
.if \gcm
	vmovdqa		%ymm\r, SM4G_BS_X + 32 * (15 - \r)(%r10)
.endif
	.endr
.if \gcm
	SM4G_BS_GHASH_X
.endif
	movq		SM4G_BS_IV(%r10), %rax
	movq		SM4G_BS_IV + 8(%r10), %r9
	SM4G_BS_NEXT	.Lsm4g_bs_ctr_loop\@
	bswapq		%rax
	bswapq		%r9
	movq		%rax, (%r8)
	movq		%r9, 8(%r8)
.if \gcm
	movq		SM4G_BS_REGS(%r10), %r9
.endif
	SM4G_BS_LEAVE	SM4G_BS_FRAME
.endm

/*
 * The 32 blocks in X into GHASH (SM4G_FN(ghash), a C-ABI call: what it
 * may clobber waits in REGS; r10 is rsp again after it).
 */
.macro SM4G_BS_GHASH_X
	movq		%rsi, SM4G_BS_REGS + 16(%r10)
	movq		%rdx, SM4G_BS_REGS + 24(%r10)
	movq		%rcx, SM4G_BS_REGS + 32(%r10)
	movq		%r8, SM4G_BS_REGS + 40(%r10)
	movq		SM4G_BS_REGS(%r10), %rdi
	lea		SM4G_BS_X(%r10), %rsi
	mov		$32, %edx
	call		SM4G_FN(ghash)
	mov		%rsp, %r10
	movq		SM4G_BS_REGS + 8(%r10), %rdi
	movq		SM4G_BS_REGS + 16(%r10), %rsi
	movq		SM4G_BS_REGS + 24(%r10), %rdx
	movq		SM4G_BS_REGS + 32(%r10), %rcx
	movq		SM4G_BS_REGS + 40(%r10), %r8
.endm

SYM_FUNC_START_LOCAL(sm4g_bs32_ctr)
	SM4G_BS_CTR_FUNC 0
SYM_FUNC_END(sm4g_bs32_ctr)

#ifndef SM4G_NO_GCM
SYM_FUNC_START_LOCAL(sm4g_bs32_gcm)
	SM4G_BS_CTR_FUNC 1
SYM_FUNC_END(sm4g_bs32_gcm)
#endif

/*
 * A mode function's requests of 32 blocks or more: their whole 32
 * blocks through \fn, the rest (if any) through the mode body.
 */
.macro SM4G_BS_FIRST fn
	cmp		$32, %ecx
	jb		.Lsm4g_short\@
	call		\fn
	test		%ecx, %ecx
	jnz		.Lsm4g_short\@
	RET
.Lsm4g_short\@:
.endm
#else
.macro SM4G_BS_FIRST fn
.endm
#endif

SYM_TYPED_FUNC_START(SM4G_FN(ecb))
	SM4G_BS_FIRST	sm4g_bs32_ecb
	SM4_MODE_FUNC	ecb, ymm
SYM_FUNC_END(SM4G_FN(ecb))

SYM_TYPED_FUNC_START(SM4G_FN(cbc_dec))
	SM4G_BS_FIRST	sm4g_bs32_cbc_dec
	SM4_MODE_FUNC	cbc_dec, ymm
SYM_FUNC_END(SM4G_FN(cbc_dec))

SYM_TYPED_FUNC_START(SM4G_FN(cfb_dec))
	SM4_MODE_FUNC	cfb_dec, ymm
SYM_FUNC_END(SM4G_FN(cfb_dec))

SYM_TYPED_FUNC_START(SM4G_FN(ctr))
	SM4G_BS_FIRST	sm4g_bs32_ctr
	SM4_MODE_FUNC	ctr, ymm
SYM_FUNC_END(SM4G_FN(ctr))

SYM_TYPED_FUNC_START(SM4G_FN(xts))
	SM4G_BS_FIRST	sm4g_bs32_xts
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

/* ccm(sm4)'s CBC-MAC with its CTR beside it (include/sm4/mac.h). */
SYM_TYPED_FUNC_START(SM4G_FN(ccm_enc))
	SM4_CCM_FUNC	ccm_enc
SYM_FUNC_END(SM4G_FN(ccm_enc))

SYM_TYPED_FUNC_START(SM4G_FN(ccm_dec_mac))
	SM4_CCM_FUNC	ccm_dec_mac
SYM_FUNC_END(SM4G_FN(ccm_dec_mac))
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
	SM4G_BS_FIRST	sm4g_bs32_gcm
	SM4_GCM_FUNC	ymm, ymm
SYM_FUNC_END(SM4G_FN(gcm_enc))
#endif

#ifndef SM4G_NO_EXPAND_KEY
/* Key expansion: called by sm4_x86_expandkey() (sm4_x86_glue.c). */
SYM_FUNC_START(SM4G_FN(expand_key))
	SM4_GFNI_EXPAND_KEY_BODY
SYM_FUNC_END(SM4G_FN(expand_key))
#endif
