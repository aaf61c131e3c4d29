/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 bulk functions with GFNI and AVX-512: 64 blocks in flight
 * (byte-sliced, in sixteen zmm registers) for batches of 33..64 blocks,
 * 32 (two word-sliced sets of four zmm registers) or 16 (one set) for
 * smaller tails, 2..4 on xmm registers, and a single-block path (serial
 * CBC/CFB encryption, 1-block requests) that keeps one word per xmm
 * register.
 *
 * Word-sliced layout (up to 32 blocks).  Blocks are loaded as they are
 * in memory, four per zmm (one per 128-bit lane), and a 4x4 dword
 * transpose inside each lane gives four registers that each hold one
 * word of every block.  The words are never byte-swapped: a big-endian
 * word sits byte-reversed in its dword, the S-box works bytewise anyway,
 * and a rotation of the word value left by 8k bits is a rotation of the
 * dword right by 8k bits.
 *
 * S-box and linear layer.  Every state word W is kept as M1*W (M1 applied
 * to each byte, see tools/gen-sm4-gfni-consts.py for the derivation).  In
 * that domain the S-box input of a round is simply
 *	u = W1 ^ W2 ^ W3 ^ RK'	(RK' = M1*rk ^ c1, computed once per call)
 * and GF2P8AFFINEINVQB inverts u in the AES field and applies a matrix.
 * The new word M1*L(S(t)) is the XOR of Gk*inv(u) rotated by k bytes,
 * k = 0..3; G1 = G2, so three GF2P8AFFINEINVQB, three rotations and a
 * few XORs make a round, and the next round's u is formed directly from
 * them (SM4_ROUND) so that the dependency chain per round is one
 * GF2P8AFFINEINVQB, one rotation and two XOR levels.  One GF2P8AFFINEQB
 * per word enters and leaves the domain.
 *
 * Byte-sliced layout (__sm4_gfni_blk64).  A 16x16 byte transpose inside
 * each lane turns sixteen registers of blocks into sixteen registers
 * that each hold one byte position of 64 blocks.  The rotations of L are
 * then just a choice of register, and a round is 12 GF2P8AFFINEINVQB and
 * 16 XORs for 64 blocks.  GFNI has at most two ports to issue on: two of
 * the four vector pipes of AMD's Zen 4; on Intel's AVX-512 cores 512-bit
 * operations of any kind have only p0 (p1 fused with it) and p5.  So the
 * products of a round come out over several cycles whichever the vendor,
 * and the round is ordered for latency (see BS_ROUND).
 *
 * No memory access depends on key or data.
 *
 * Register use, word-sliced helpers and the mode code around them:
 *	zmm0-3	 set A: blocks 0-15 (32-block batches only)
 *	zmm4-7	 set B: blocks 16-31, or the only set (16 blocks, or 2..4
 *		 blocks as xmm4-7 with one block each, or one block in xmm4)
 *	zmm8-11, zmm28	round temporaries of set A
 *	zmm12-15, zmm30	round temporaries of set B (or the only set)
 *	zmm16-19 G0, G1(=G2), G3, M1;  zmm29 M1^-1
 *	zmm20-27 per-mode state (IV, counters, tweaks of the batch)
 *	zmm31	 XTS: the running tweaks (blocks 0..3 of the batch); CBC
 *		 decryption: scratch (CBC_XOR_PREV).  No other use.
 *	k4-k7	 load/store masks of zmm4-7 in partial batches
 *	r10	 transformed round keys (128 bytes on the stack)
 * __sm4_gfni_blk64 takes 64 blocks in zmm0-15 and clobbers all other
 * vector registers; the mode code keeps its state in the stack frame
 * across it and reloads the constants (SM4_CONSTS).  Its partial
 * batches mask zmm8-15 with k2, k3 and k7.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>

#include <sm4/gcm_layout.h>
#include "sm4-gfni.h"
#include "sm4-gfni-key.S"
#include "sm4-ghash.h"

/* Stack frame layout, see SM4_ENTER. */
#define SM4_RK_OFF	0
#define SM4_K_OFF	128
#define SM4_ST_OFF	640
#define SM4_FRAME	704
#define SM4_CB_OFF	704
#define SM4_PX_OFF	704
#define SM4_PY_OFF	1728
#define SM4_ECB_FRAME	2752
#define SM4_CTR_FRAME	2752
/* The GHASH accumulator's slot: .set before each function that has one. */
#define SM4_GH_OFF	.Lgh_off
/*
 * gcm_enc: the accumulator's slot, the pipelined loop's flag and saved
 * r8, then C (1 KiB): see SM4_ENTER.
 */
#define SM4_GCM_GH_OFF	2752
#define SM4_GCM_GF_OFF	2768
#define SM4_GCM_R8_OFF	2776
#define SM4_GC_OFF	2816
#define SM4_GCM_FRAME	3840
#define SM4_GHASH_FRAME	64
/* H powers in the gcm key table: a 64-block batch's, one reduction. */
#define SM4_GH_POWERS	64
/* Where the table's Karatsuba sums follow its powers. */
#define SM4_GH_KOFF	(16 * SM4_GH_POWERS)
#define SM4_XT_OFF	2752
#define SM4_XTS_FRAME	3776
#define SM4_PIPE_MIN	128
/* The kinds of pipelined batch (SM4_BLK64_PIPE). */
#define SM4_PIPE_ECB	0
#define SM4_PIPE_XTS	1
#define SM4_PIPE_CTR	2
#define SM4_PIPE_GCM	3
#define SM4_BS_MIN	33

.section .rodata, "a"
.align 64
/* XTS: per-lane shifts to multiply a tweak by x^0, x^1, x^2, x^3. */
.Lxts_shl:
	.quad 0, 0, 1, 1, 2, 2, 3, 3
.Lxts_shr:
	.quad 64, 64, 63, 63, 62, 62, 61, 61
/* XTS reduction constant (only the low qword of each lane is used). */
.Lxts_poly:
	.quad 0x87, 0x87, 0x87, 0x87, 0x87, 0x87, 0x87, 0x87
.align 16
.Lbswap32:
	.byte 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
.Lbswap128:
	.byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
/* Each dword rotated right by 8 and by 24 bits (__sm4_gfni_blk1). */
.Lror8:
	.byte 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12
.Lror24:
	.byte 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
.Lctr_step4:
	.quad 4, 0
.Lctr_step32:
	.quad 32, 0
.align 64
/* CTR: 128-bit step 64 in every lane. */
.Lctr_step64:
	.quad 64, 0, 64, 0, 64, 0, 64, 0
/* CTR: the increments 0..3 of the four lanes. */
.Lctr_inc0:
	.quad 0, 0, 1, 0, 2, 0, 3, 0
/*
 * CTR counters made byte-sliced: byte p of every byte-sliced register
 * belongs to block SM4_GFNI_BS_BLOCK(p) of the batch.
 */
.Lctr_bs_order:
	.set .Lp, 0
	.rept 64
	.byte SM4_GFNI_BS_BLOCK(.Lp)
	.set .Lp, .Lp + 1
	.endr
/*
 * vpshufb indices that turn four round keys (one 16-byte lane, broadcast
 * to all lanes) into the byte-sliced round-key table: lane L gets the
 * four bytes of key L, each repeated in a whole dword.
 */
.Lkey_bytes:
	.byte 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3
	.byte 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7
	.byte 8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 11
	.byte 12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15
/*
 * GHASH (see "GCM" below): byte reversal of every lane, the reduction
 * constant in every qword, and x^-2 in the bit-reflected register order.
 */
.Lgh_bswap:
	.rept 4
	.byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
	.endr
.Lgh_poly:
	.rept 8
	.quad SM4_GHASH_POLY
	.endr
.Lgh_xinv2:
	.quad SM4_GHASH_XINV2_LO, SM4_GHASH_XINV2_HI
.align 8
.Lm1:
	.quad SM4_GFNI_M1
.Lm1_inv:
	.quad SM4_GFNI_M1_INV
.Lg0:
	.quad SM4_GFNI_G0
.Lg1:
	.quad SM4_GFNI_G1
.Lg3:
	.quad SM4_GFNI_G3

.text

/*
 * In-lane 4x4 dword transposes of registers \a..\d (numbers) of width \w
 * (x or z), through temporaries \t1, \t2.
 * TRANSPOSE_IN: block words -> one register per word (\a = word 0).
 * TRANSPOSE_OUT: the final state (\a = X32 .. \d = X35) -> blocks, whose
 * words are X35, X34, X33, X32.
 */
.macro TRANSPOSE_IN w, a, b, c, d, t1, t2
	vpunpckldq	%\w\()mm\b, %\w\()mm\a, %\w\()mm\t1
	vpunpckhdq	%\w\()mm\b, %\w\()mm\a, %\w\()mm\a
	vpunpckldq	%\w\()mm\d, %\w\()mm\c, %\w\()mm\t2
	vpunpckhdq	%\w\()mm\d, %\w\()mm\c, %\w\()mm\c
	vpunpckhqdq	%\w\()mm\c, %\w\()mm\a, %\w\()mm\d
	vpunpcklqdq	%\w\()mm\c, %\w\()mm\a, %\w\()mm\c
	vpunpcklqdq	%\w\()mm\t2, %\w\()mm\t1, %\w\()mm\a
	vpunpckhqdq	%\w\()mm\t2, %\w\()mm\t1, %\w\()mm\b
.endm

.macro TRANSPOSE_OUT w, a, b, c, d, t1, t2
	vpunpckldq	%\w\()mm\c, %\w\()mm\d, %\w\()mm\t1
	vpunpckhdq	%\w\()mm\c, %\w\()mm\d, %\w\()mm\d
	vpunpckldq	%\w\()mm\a, %\w\()mm\b, %\w\()mm\t2
	vpunpckhdq	%\w\()mm\a, %\w\()mm\b, %\w\()mm\b
	vpunpcklqdq	%\w\()mm\b, %\w\()mm\d, %\w\()mm\c
	vpunpckhqdq	%\w\()mm\b, %\w\()mm\d, %\w\()mm\d
	vpunpcklqdq	%\w\()mm\t2, %\w\()mm\t1, %\w\()mm\a
	vpunpckhqdq	%\w\()mm\t2, %\w\()mm\t1, %\w\()mm\b
.endm

/*
 * One round on one set, with the S-box input of the next round computed
 * straight from this round's output so that only the S-box, one rotation
 * and two XOR levels separate consecutive rounds:
 *	W = U(i+2) ^ U(i+3) ^ RK'(i+1)
 *	A = U(i) ^ P0 ^ R1,  B = R2 ^ R3	(F = P0 ^ R1 ^ R2 ^ R3)
 *	u(i+1) = W ^ A ^ B,  U(i+4) = A ^ B
 * \s0..\s3 hold U(i)..U(i+3); u(i) is in \tu, u(i+1) goes to \tw (the
 * caller swaps the two each round).  \k is the offset of RK'(i+1) from
 * r11; \last omits u(i+1) in round 31.  Clobbers \tp1, \tr2, \tp3.
 */
.macro SM4_ROUND w, last, k, s0, s1, s2, s3, tu, tw, tp1, tr2, tp3
	vgf2p8affineinvqb $0, %\w\()mm17, %\w\()mm\tu, %\w\()mm\tp1
	vgf2p8affineinvqb $0, %\w\()mm18, %\w\()mm\tu, %\w\()mm\tp3
	vgf2p8affineinvqb $SM4_GFNI_E, %\w\()mm16, %\w\()mm\tu, %\w\()mm\tu
.if !\last
.ifc \w, z
	vpxord		\k(%r11){1to16}, %zmm\s2, %zmm\tw
.else
	vpxord		\k(%r11){1to4}, %xmm\s2, %xmm\tw
.endif
	vpxord		%\w\()mm\s3, %\w\()mm\tw, %\w\()mm\tw
.endif
	vprord		$16, %\w\()mm\tp1, %\w\()mm\tr2
	vprord		$8, %\w\()mm\tp1, %\w\()mm\tp1
	vprord		$24, %\w\()mm\tp3, %\w\()mm\tp3
	vpternlogd	$0x96, %\w\()mm\tp1, %\w\()mm\tu, %\w\()mm\s0
	vpxord		%\w\()mm\tp3, %\w\()mm\tr2, %\w\()mm\tr2
.if !\last
	vpternlogd	$0x96, %\w\()mm\tr2, %\w\()mm\s0, %\w\()mm\tw
.endif
	vpxord		%\w\()mm\tr2, %\w\()mm\s0, %\w\()mm\s0
.endm

/* u(0) = U1 ^ U2 ^ U3 ^ RK'(0) of one set into \tu. */
.macro SM4_FIRST_U w, s1, s2, s3, tu
.ifc \w, z
	vpxord		(%r10){1to16}, %zmm\s1, %zmm\tu
.else
	vpxord		(%r10){1to4}, %xmm\s1, %xmm\tu
.endif
	vpternlogd	$0x96, %\w\()mm\s3, %\w\()mm\s2, %\w\()mm\tu
.endm

/*
 * Four rounds (4n .. 4n+3, r11 = RK' + 16n) on set \a..\d with
 * temporaries \t0..\t4; \last marks the final four.
 */
.macro SM4_4ROUNDS w, last, a, b, c, d, t0, t1, t2, t3, t4
	SM4_ROUND	\w, 0, 4, \a, \b, \c, \d, \t0, \t1, \t2, \t3, \t4
	SM4_ROUND	\w, 0, 8, \b, \c, \d, \a, \t1, \t0, \t2, \t3, \t4
	SM4_ROUND	\w, 0, 12, \c, \d, \a, \b, \t0, \t1, \t2, \t3, \t4
	SM4_ROUND	\w, \last, 16, \d, \a, \b, \c, \t1, \t0, \t2, \t3, \t4
.endm

/* Enter (M1) or leave (M1^-1) the S-box domain: one register. */
.macro TO_DOMAIN w, r
	vgf2p8affineqb	$0, %\w\()mm19, %\w\()mm\r, %\w\()mm\r
.endm
.macro FROM_DOMAIN w, r
	vgf2p8affineqb	$0, %\w\()mm29, %\w\()mm\r, %\w\()mm\r
.endm

/*
 * __sm4_gfni_blk32: encrypt/decrypt 32 blocks in zmm0-7 (as loaded, zmm0 =
 * blocks 0-3) in place.  In: r10 = RK', zmm16-19, zmm29.  Clobbers zmm8-15,
 * zmm28, zmm30, r9, r11.
 */
SYM_FUNC_START_LOCAL(__sm4_gfni_blk32)
	TRANSPOSE_IN	z, 0, 1, 2, 3, 8, 9
	TRANSPOSE_IN	z, 4, 5, 6, 7, 12, 13
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	TO_DOMAIN	z, \r
	.endr
	SM4_FIRST_U	z, 1, 2, 3, 8
	SM4_FIRST_U	z, 5, 6, 7, 12
	mov		%r10, %r11
	lea		112(%r10), %r9
.Lblk32_loop:
	SM4_4ROUNDS	z, 0, 0, 1, 2, 3, 8, 9, 10, 11, 28
	SM4_4ROUNDS	z, 0, 4, 5, 6, 7, 12, 13, 14, 15, 30
	add		$16, %r11
	cmp		%r9, %r11
	jne		.Lblk32_loop
	SM4_4ROUNDS	z, 1, 0, 1, 2, 3, 8, 9, 10, 11, 28
	SM4_4ROUNDS	z, 1, 4, 5, 6, 7, 12, 13, 14, 15, 30
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	FROM_DOMAIN	z, \r
	.endr
	TRANSPOSE_OUT	z, 0, 1, 2, 3, 8, 9
	TRANSPOSE_OUT	z, 4, 5, 6, 7, 12, 13
	RET
SYM_FUNC_END(__sm4_gfni_blk32)

/*
 * One set, registers 4-7 of width \w: 16 blocks on zmm or 4 on xmm.
 * Same interface as __sm4_gfni_blk32.
 */
.macro SM4_BLK_ONE_SET w
	TRANSPOSE_IN	\w, 4, 5, 6, 7, 12, 13
	.irp r, 4, 5, 6, 7
	TO_DOMAIN	\w, \r
	.endr
	SM4_FIRST_U	\w, 5, 6, 7, 12
	mov		%r10, %r11
	lea		112(%r10), %r9
.Lblk_\w\()_loop:
	SM4_4ROUNDS	\w, 0, 4, 5, 6, 7, 12, 13, 14, 15, 30
	add		$16, %r11
	cmp		%r9, %r11
	jne		.Lblk_\w\()_loop
	SM4_4ROUNDS	\w, 1, 4, 5, 6, 7, 12, 13, 14, 15, 30
	.irp r, 4, 5, 6, 7
	FROM_DOMAIN	\w, \r
	.endr
	TRANSPOSE_OUT	\w, 4, 5, 6, 7, 12, 13
.endm

SYM_FUNC_START_LOCAL(__sm4_gfni_blk16)
	SM4_BLK_ONE_SET	z
	RET
SYM_FUNC_END(__sm4_gfni_blk16)

SYM_FUNC_START_LOCAL(__sm4_gfni_blk4)
	SM4_BLK_ONE_SET	x
	RET
SYM_FUNC_END(__sm4_gfni_blk4)

/*
 * One block with the shortest dependency chain, for serial CBC/CFB
 * encryption and single-block requests.  Each state word sits in dword 0
 * of its own xmm register (the other lanes compute garbage that is never
 * used), and a round goes straight from u(i) to u(i+1):
 *	W = U(i+2) ^ U(i+3) ^ RK'(i+1),  u(i+1) = (W ^ U(i)) ^ F(u(i)),
 *	U(i+4) = u(i+1) ^ W
 * so only the S-box, one rotation and two XOR levels are on the critical
 * path: the three rotated products in one VPTERNLOGD, P0 and W ^ U(i)
 * (xmm13) in one VPXORD beside it.  Timed natively on Sapphire Rapids
 * (loops of rounds alone): a VPTERNLOGD that takes a GFNI result
 * directly beside other new values came two cycles later than VPXORDs
 * doing the same, so P0 goes through a VPXORD; two rotations as byte
 * shuffles (port 5, away from the xmm GFNIs on ports 0 and 1) save
 * about half a cycle; and W and xmm13 of the next round are made after
 * u(i+1), so that the scheduler, oldest first, does not put them before
 * the chain's own operations.  11.3 cycles a round before, 10.1 after.
 * \a..\d are U(i)..U(i+3) of round \i, u(i) is in xmm8, W in xmm12.
 * Clobbers xmm9-14.
 */
.macro SM4_ROUND1 i, a, b, c, d
	vgf2p8affineinvqb $0, %xmm17, %xmm8, %xmm9
	vgf2p8affineinvqb $0, %xmm18, %xmm8, %xmm10
	vgf2p8affineinvqb $SM4_GFNI_E, %xmm16, %xmm8, %xmm11
	vpshufb		.Lror8(%rip), %xmm9, %xmm14
	vprord		$16, %xmm9, %xmm9
	vpshufb		.Lror24(%rip), %xmm10, %xmm10
.if \i < 31
	vpxord		%xmm11, %xmm13, %xmm11
	vpternlogd	$0x96, %xmm14, %xmm10, %xmm9
	vpxord		%xmm9, %xmm11, %xmm8
	vpxord		%xmm12, %xmm8, %xmm\a
.if \i < 30
	vpxord		4*(\i+2)(%r10){1to4}, %xmm\d, %xmm12
	vpxord		%xmm\a, %xmm12, %xmm12
	vpxord		%xmm\b, %xmm12, %xmm13
.endif
.else
	vpternlogd	$0x96, %xmm14, %xmm11, %xmm\a
	vpternlogd	$0x96, %xmm10, %xmm9, %xmm\a
.endif
.endm

/*
 * __sm4_gfni_blk1: encrypt/decrypt the block in xmm4 in place, in the
 * S-box domain (TO_DOMAIN before, FROM_DOMAIN after, both linear: the
 * serial modes XOR in the domain and keep the two off their chain).
 * In: r10 = RK', zmm16-18.  Clobbers xmm5-14.
 */
SYM_FUNC_START_LOCAL(__sm4_gfni_blk1)
	vpshufd		$0x55, %xmm4, %xmm5
	vpshufd		$0xaa, %xmm4, %xmm6
	vpshufd		$0xff, %xmm4, %xmm7
	vpxord		(%r10){1to4}, %xmm5, %xmm8
	vpternlogd	$0x96, %xmm7, %xmm6, %xmm8
	vpxord		4(%r10){1to4}, %xmm6, %xmm12
	vpxord		%xmm7, %xmm12, %xmm12
	vpxord		%xmm4, %xmm12, %xmm13
	.irp i, 0, 4, 8, 12, 16, 20, 24, 28
	SM4_ROUND1	(\i+0), 4, 5, 6, 7
	SM4_ROUND1	(\i+1), 5, 6, 7, 4
	SM4_ROUND1	(\i+2), 6, 7, 4, 5
	SM4_ROUND1	(\i+3), 7, 4, 5, 6
	.endr
	vpunpckldq	%xmm6, %xmm7, %xmm9
	vpunpckldq	%xmm4, %xmm5, %xmm10
	vpunpcklqdq	%xmm10, %xmm9, %xmm4
	RET
SYM_FUNC_END(__sm4_gfni_blk1)

/*
 * 64 blocks, byte-sliced.  Sixteen zmm registers hold one byte position
 * each (memory byte c = 4 * word + byte of every block, c = 0..15), so a
 * rotation of L by k bytes is only a change of register: byte j of the
 * new word is
 *	U4[j] = U0[j] ^ P0[j] ^ P1[j+1] ^ P1[j+2] ^ P3[j+3]	(mod 4)
 * with Pk = GFNI(Gk, u[j]) as in the word-sliced code.  A round on 64
 * blocks is 12 GFNI and 16 logic operations and no rotation.
 *
 * Getting there is a 16x16 byte transpose inside each 128-bit lane:
 * four levels of byte unpacks of registers i and i+8 into 2i and 2i+1
 * transpose it exactly, so the same network also transposes back.  Each
 * level goes from one bank of sixteen registers to the other.
 */
.macro BS_PAIR s, t, d0, d1
	vpunpcklbw	%zmm\t, %zmm\s, %zmm\d0
	vpunpckhbw	%zmm\t, %zmm\s, %zmm\d1
.endm

/* One level from registers \s0..\s15 into 16-31 (\hi) or 0-15. */
.macro BS_LEVEL hi, s0, s1, s2, s3, s4, s5, s6, s7, \
		s8, s9, s10, s11, s12, s13, s14, s15
.if \hi
	BS_PAIR		\s0, \s8, 16, 17
	BS_PAIR		\s1, \s9, 18, 19
	BS_PAIR		\s2, \s10, 20, 21
	BS_PAIR		\s3, \s11, 22, 23
	BS_PAIR		\s4, \s12, 24, 25
	BS_PAIR		\s5, \s13, 26, 27
	BS_PAIR		\s6, \s14, 28, 29
	BS_PAIR		\s7, \s15, 30, 31
.else
	BS_PAIR		\s0, \s8, 0, 1
	BS_PAIR		\s1, \s9, 2, 3
	BS_PAIR		\s2, \s10, 4, 5
	BS_PAIR		\s3, \s11, 6, 7
	BS_PAIR		\s4, \s12, 8, 9
	BS_PAIR		\s5, \s13, 10, 11
	BS_PAIR		\s6, \s14, 12, 13
	BS_PAIR		\s7, \s15, 14, 15
.endif
.endm

/* The last three levels: 0-15 -> 16-31 -> 0-15 -> 16-31 -> 0-15. */
.macro BS_LEVELS_2_4
	BS_LEVEL	0, 16, 17, 18, 19, 20, 21, 22, 23, \
			   24, 25, 26, 27, 28, 29, 30, 31
	BS_LEVEL	1, 0, 1, 2, 3, 4, 5, 6, 7, \
			   8, 9, 10, 11, 12, 13, 14, 15
	BS_LEVEL	0, 16, 17, 18, 19, 20, 21, 22, 23, \
			   24, 25, 26, 27, 28, 29, 30, 31
.endm

/*
 * One byte-sliced round.  \a0..\a3: U0 (becomes U4), \b0..\b3: U1;
 * u[j] in zmm16-19, replaced by the next round's.  With Pk[j] = Gk *
 * inv(u[j]) (G0, G1, G3 in zmm24-26), the new byte j is
 *	U4[j] = U0[j] ^ F[j],  F[j] = P0[j] ^ P1[j+1] ^ P1[j+2] ^ P3[j+3]
 * and since u = U1 ^ U2 ^ U3 ^ RK' and u' = U2 ^ U3 ^ U4 ^ RK'',
 *	u'[j] = U4[j] ^ V[j],  V = u ^ U1 ^ (RK' ^ RK'')
 * (RK' ^ RK'' is the key table entry at \kd(%r11): four dwords, each one
 * byte repeated).  Sixteen ternary or binary XORs a round:
 *	A[j] = U0[j] ^ P1[j+1] ^ P1[j+2]	(in U0's register)
 *	U4[j] = A[j] ^ P0[j] ^ P3[j+3]
 *	V[j] = u[j] ^ U1[j] ^ KK[j]	(over u, once the products have read it)
 *	u'[j] = U4[j] ^ V[j]
 * and twelve GF2P8AFFINEINVQB: 28 vector uops, 14 cycles on the two
 * ports Intel's cores issue 512-bit operations on (GFNI on one of them).
 * The round is bound by its dependencies more than by its ports: every
 * u'[j] needs products of all four u, so the next round's products wait
 * for the last of this round's.  The P1 come first (each serves two
 * bytes and A needs only them), then P0[j] and P3[j+3], the two that
 * complete U4[j], for j = 0..3, each pair consumed at once, so that
 * they need only zmm20-23 again, after the P1.  The matrices sit in
 * registers: with them as broadcast memory operands the round's loads
 * cost about 0.4 cycles (measured natively on a Sapphire Rapids core, a
 * loop of rounds alone: 15.8 cycles a round, 16.4 with all twelve
 * products first into twelve registers and the matrices from memory,
 * 17.2 with all P3 before all P0).  If \last, only U4.
 */
.macro BS_ROUND last, kd, a0, a1, a2, a3, b0, b1, b2, b3
	vgf2p8affineinvqb $0, %zmm25, %zmm16, %zmm20
	vgf2p8affineinvqb $0, %zmm25, %zmm17, %zmm21
	vgf2p8affineinvqb $0, %zmm25, %zmm18, %zmm22
	vgf2p8affineinvqb $0, %zmm25, %zmm19, %zmm23
	vpternlogd	$0x96, %zmm22, %zmm21, %zmm\a0
	vpternlogd	$0x96, %zmm23, %zmm22, %zmm\a1
	vpternlogd	$0x96, %zmm20, %zmm23, %zmm\a2
	vpternlogd	$0x96, %zmm21, %zmm20, %zmm\a3
	BS_U4		\a0, 16, 19, 20, 21
	BS_U4		\a1, 17, 16, 22, 23
	BS_U4		\a2, 18, 17, 20, 21
	BS_U4		\a3, 19, 18, 22, 23
.if !\last
	vpternlogd	$0x96, (\kd)(%r11){1to16}, %zmm\b0, %zmm16
	vpternlogd	$0x96, (\kd + 4)(%r11){1to16}, %zmm\b1, %zmm17
	vpternlogd	$0x96, (\kd + 8)(%r11){1to16}, %zmm\b2, %zmm18
	vpternlogd	$0x96, (\kd + 12)(%r11){1to16}, %zmm\b3, %zmm19
	vpxord		%zmm\a0, %zmm16, %zmm16
	vpxord		%zmm\a1, %zmm17, %zmm17
	vpxord		%zmm\a2, %zmm18, %zmm18
	vpxord		%zmm\a3, %zmm19, %zmm19
.endif
.endm

/* A[j] ^= P0[j] ^ P3[j+3]: \u = u[j], \u3 = u[j+3], through \t0, \t1. */
.macro BS_U4 a, u, u3, t0, t1
	vgf2p8affineinvqb $SM4_GFNI_E, %zmm24, %zmm\u, %zmm\t0
	vgf2p8affineinvqb $0, %zmm26, %zmm\u3, %zmm\t1
	vpternlogd	$0x96, %zmm\t1, %zmm\t0, %zmm\a
.endm

/*
 * Before the rounds of a byte-sliced batch (words in zmm0-15, in the
 * domain): the matrices into zmm24-26, r11 = KK and the first S-box
 * input u = U1 ^ U2 ^ U3 ^ RK'(0) (entry 0 of KK) into zmm16-19.
 */
.macro BS_START
	vpbroadcastq	.Lg0(%rip), %zmm24
	vpbroadcastq	.Lg1(%rip), %zmm25
	vpbroadcastq	.Lg3(%rip), %zmm26
	lea		SM4_K_OFF(%r10), %r11
	vpxord		0(%r11){1to16}, %zmm4, %zmm16
	vpxord		4(%r11){1to16}, %zmm5, %zmm17
	vpxord		8(%r11){1to16}, %zmm6, %zmm18
	vpxord		12(%r11){1to16}, %zmm7, %zmm19
	vpternlogd	$0x96, %zmm12, %zmm8, %zmm16
	vpternlogd	$0x96, %zmm13, %zmm9, %zmm17
	vpternlogd	$0x96, %zmm14, %zmm10, %zmm18
	vpternlogd	$0x96, %zmm15, %zmm11, %zmm19
.endm

/* The 16x16 byte transpose of zmm0-15 (in either direction). */
.macro BS_TRANSPOSE
	BS_LEVEL	1, 0, 1, 2, 3, 4, 5, 6, 7, \
			   8, 9, 10, 11, 12, 13, 14, 15
	BS_LEVELS_2_4
.endm

/*
 * Rounds 4n .. 4n+3 (r11 = KK + 64n).  The words rotate through
 * zmm0-3, 4-7, 8-11, 12-15; round i writes word i+4 over word i.
 */
.macro BS_4ROUNDS last
	BS_ROUND	0, 16, 0, 1, 2, 3, 4, 5, 6, 7
	BS_ROUND	0, 32, 4, 5, 6, 7, 8, 9, 10, 11
	BS_ROUND	0, 48, 8, 9, 10, 11, 12, 13, 14, 15
	BS_ROUND	\last, 64, 12, 13, 14, 15, 0, 1, 2, 3
.endm

/*
 * __sm4_gfni_blk64: encrypt/decrypt 64 blocks in zmm0-15 (as loaded,
 * zmm0 = blocks 0-3) in place.  In: r10 = RK', with the byte-sliced key
 * table KK at r10 + SM4_K_OFF (built by SM4_ENTER).  Clobbers every
 * other vector register, r9 and r11.
 * __sm4_gfni_blk64_bs: the same, from blocks already byte-sliced (zmm\c
 * = byte c of the blocks, block SM4_GFNI_BS_BLOCK(p) in byte p; CTR makes its
 * counters so), without the input transpose.
 */
.macro SM4_BLK64 transpose_in
.if \transpose_in
	BS_TRANSPOSE
.endif
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vgf2p8affineqb	$0, .Lm1(%rip){1to8}, %zmm\r, %zmm\r
	.endr
	BS_START
	lea		448(%r11), %r9
.Lblk64_loop\@:
	BS_4ROUNDS	0
	add		$64, %r11
	cmp		%r9, %r11
	jne		.Lblk64_loop\@
	BS_4ROUNDS	1
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vgf2p8affineqb	$0, .Lm1_inv(%rip){1to8}, %zmm\r, %zmm\r
	.endr
	/* Output words X35, X34, X33, X32 are in 12-15, 8-11, 4-7, 0-3. */
	BS_LEVEL	1, 12, 13, 14, 15, 8, 9, 10, 11, \
			   4, 5, 6, 7, 0, 1, 2, 3
	BS_LEVELS_2_4
.endm

SYM_FUNC_START_LOCAL(__sm4_gfni_blk64)
	SM4_BLK64	1
	RET
SYM_FUNC_END(__sm4_gfni_blk64)

SYM_FUNC_START_LOCAL(__sm4_gfni_blk64_bs)
	SM4_BLK64	0
	RET
SYM_FUNC_END(__sm4_gfni_blk64_bs)

/*
 * Pipelined batches.  The transposes are all on port 5 and, between two
 * batches' rounds, run on their own (128 unpacks a batch, about 20% of
 * it); a batch's rounds leave port 5 about a third of its slots.  So
 * __sm4_gfni_blk64_pipe runs the previous batch's output transpose and
 * the next batch's input transpose through the frame while its own
 * rounds run: in groups of four registers (i, i+4, i+8, i+12: two
 * levels of the network above take them to 4i..4i+3), two transposes
 * of two passes of four groups, one group per two rounds (level one in
 * the first, level two in the second), five registers (zmm27-31).
 * Measured natively on a Sapphire Rapids core (a loop of rounds alone):
 * 17.3 cycles a round with the transposes, against 15.8 without them
 * and 16.4 + 4 (128 unpacks in 32 rounds) before.
 *
 * Frame areas (SM4_ECB_FRAME): X at SM4_PX_OFF and Y at SM4_PY_OFF, 1 KiB
 * each, slot c at 64 * c.  Rounds 0-7: Y (the previous batch's state)
 * -> X, out of the domain; 8-15: X -> the previous batch's 1 KiB at r9;
 * 16-23: the next batch's 1 KiB at rax -> Y; 24-31: Y -> X, into the
 * domain.  X holds the batch's input until its first loads, Y the
 * previous batch's state until rounds 0-7 have read it.
 */

/* Slot of Y that receives state register \r at the end of a batch. */
#define SM4_PY_SLOT(r)	(12 - ((r) & ~3) + ((r) & 3))

/*
 * PIPE_L1 src, off, dom, xts: the first level of group g (\off = 64 * g
 * from \src): registers g, g+8 into zmm29, zmm30 and g+4, g+12 into
 * zmm31, zmm27, each register first out of the domain if \dom, or XORed
 * with its tweaks if \xts (the next batch's blocks, XTS_PIPE_IN).
 */
.macro PIPE_L1 src, off, dom, xts=0
	PIPE_PAIR1	\src, \off, \dom, 29, 30, \xts
	PIPE_PAIR1	\src, (\off + 256), \dom, 31, 27, \xts
.endm

/*
 * Registers at \off and \off + 512 of \src unpacked into \d0, \d1 (zmm\d0
 * is free until then: XTS_PIPE_IN's scratch).
 */
.macro PIPE_PAIR1 src, off, dom, d0, d1, xts
	vmovdqu32	\off(\src), %zmm27
	vmovdqu32	\off + 512(\src), %zmm28
.if \xts
	XTS_PIPE_IN	27, \off, \d0
	XTS_PIPE_IN	28, (\off + 512), \d0
.endif
.if \dom
	vgf2p8affineqb	$0, .Lm1_inv(%rip){1to8}, %zmm27, %zmm27
	vgf2p8affineqb	$0, .Lm1_inv(%rip){1to8}, %zmm28, %zmm28
.endif
	vpunpcklbw	%zmm28, %zmm27, %zmm\d0
	vpunpckhbw	%zmm28, %zmm27, %zmm\d1
.endm

/*
 * PIPE_L2 dst, off, dom, out: the second level of group g into registers
 * 4g..4g+3 (\off = 256 * g from \dst), each into the domain if \dom.
 * The previous batch's blocks (\out the batch's kind): SM4_PIPE_XTS XORs
 * each with its tweaks first, from the last register to the first
 * (XTS_PIPE_OUT); SM4_PIPE_CTR with the source at the same offset from
 * rax; SM4_PIPE_GCM as CTR, and a copy to C at the same offset, which
 * GHASH reads instead of dst.
 */
.macro PIPE_L2 dst, off, dom, out=SM4_PIPE_ECB
.if \out == SM4_PIPE_XTS
	PIPE_PAIR2	30, 27, \dst, (\off + 128), \dom, \out
	PIPE_PAIR2	29, 31, \dst, \off, \dom, \out
.else
	PIPE_PAIR2	29, 31, \dst, \off, \dom, \out
	PIPE_PAIR2	30, 27, \dst, (\off + 128), \dom, \out
.endif
.endm

/* zmm\s, zmm\t unpacked into the registers at \off, \off + 64 of \dst. */
.macro PIPE_PAIR2 s, t, dst, off, dom, out
	vpunpcklbw	%zmm\t, %zmm\s, %zmm28
	vpunpckhbw	%zmm\t, %zmm\s, %zmm\s
.if \dom
	vgf2p8affineqb	$0, .Lm1(%rip){1to8}, %zmm28, %zmm28
	vgf2p8affineqb	$0, .Lm1(%rip){1to8}, %zmm\s, %zmm\s
.endif
.if \out == SM4_PIPE_XTS
	XTS_PIPE_OUT	\s, \dst, (\off + 64), \t
	XTS_PIPE_OUT	28, \dst, \off, \t
.else
.if \out >= SM4_PIPE_CTR
	vpxord		\off(%rax), %zmm28, %zmm28
	vpxord		\off + 64(%rax), %zmm\s, %zmm\s
.endif
	vmovdqu32	%zmm28, \off(\dst)
	vmovdqu32	%zmm\s, \off + 64(\dst)
.if \out == SM4_PIPE_GCM
	vmovdqa64	%zmm28, SM4_GC_OFF + \off(%r10)
	vmovdqa64	%zmm\s, SM4_GC_OFF + \off + 64(%r10)
.endif
.endif
.endm

/*
 * XTS in the pipelined batches (__sm4_gfni_xts64_pipe).  W, the frame's
 * 1 KiB at SM4_XT_OFF (register c's tweaks at 64 * c), holds on entry
 * the tweaks T(b - 1) of the previous batch, whose output this call
 * stores.  Since T(b + 1) = T(b) * x^64 and, per 128-bit lane (lo, hi),
 *	(lo, hi) * x^64 = clmul(hi, 0x87) ^ (0, lo)
 * (x^128 = 0x87 modulo the XTS polynomial; the product has at most 71
 * bits), a batch's tweaks follow from the previous batch's with one
 * VPCLMULQDQ and one XOR under k1 = 0xcccc (the dwords of the high
 * qwords) of W[c] loaded from 8 bytes lower: the low qword moves up
 * without a port-5 shuffle.
 * XTS_PIPE_OUT XORs T(b - 1) into the previous batch's output on its way
 * to r9 and moves W[c] on to T(b); XTS_PIPE_IN then XORs T(b + 1) = W[c] *
 * x^64, not stored, into the next batch's blocks as they are read.  Those
 * 8-byte-lower loads span W[c - 1]: the output goes from register 15 down
 * to register 0, so that none of them waits for a store of W[c - 1] just
 * issued.
 *
 * XTS_PIPE_OUT r, dst, off, t: zmm\r ^= W[c] (c = \off / 64) into \off(\dst),
 * W[c] *= x^64.  Clobbers zmm\t.
 */
.macro XTS_PIPE_OUT r, dst, off, t
	vmovdqa64	SM4_XT_OFF + \off(%r10), %zmm\t
	vpxord		%zmm\t, %zmm\r, %zmm\r
	vmovdqu32	%zmm\r, \off(\dst)
	vpclmulqdq	$0x01, .Lxts_poly(%rip), %zmm\t, %zmm\t
	vpxord		SM4_XT_OFF + \off - 8(%r10), %zmm\t, %zmm\t{%k1}
	vmovdqa64	%zmm\t, SM4_XT_OFF + \off(%r10)
.endm

/* XTS_PIPE_IN r, off, t: zmm\r ^= W[c] * x^64 (c = \off / 64).  Clobbers zmm\t. */
.macro XTS_PIPE_IN r, off, t
	vmovdqa64	SM4_XT_OFF + \off(%r10), %zmm\t
	vpclmulqdq	$0x01, .Lxts_poly(%rip), %zmm\t, %zmm\t
	vpxord		%zmm\t, %zmm\r, %zmm\r
	vpxord		SM4_XT_OFF + \off - 8(%r10), %zmm\r, %zmm\r{%k1}
.endm

/*
 * Step \r (0..31) of the transpose work of a pipelined batch of kind
 * \kind (round \r of ECB carries step \r); for XTS, the output's groups
 * from the last to the first.
 */
.macro PIPE_SIDE r, kind
	.set .Lpg, ((\r) % 8) / 2
.if (\r) < 8
.if (\r) % 2
	PIPE_L2		%r10, SM4_PX_OFF+256*.Lpg, 0
.else
	PIPE_L1		%r10, SM4_PY_OFF+64*.Lpg, 1
.endif
.elseif (\r) < 16
.if \kind == SM4_PIPE_XTS
	.set .Lpg, 3 - .Lpg
.endif
.if (\r) % 2
	PIPE_L2		%r9, 256*.Lpg, 0, \kind
.else
	PIPE_L1		%r10, SM4_PX_OFF+64*.Lpg, 0
.endif
.elseif (\r) < 24
.if (\r) % 2
	PIPE_L2		%r10, SM4_PY_OFF+256*.Lpg, 0
.else
	PIPE_L1		%rax, 64*.Lpg, 0, (\kind == SM4_PIPE_XTS)
.endif
.else
.if (\r) % 2
	PIPE_L2		%r10, SM4_PX_OFF+256*.Lpg, 1
.else
	PIPE_L1		%r10, SM4_PY_OFF+64*.Lpg, 0
.endif
.endif
.endm

/*
 * Round \r (0..31) of a pipelined batch of kind \kind with its transpose
 * work.  XTS: the work of two rounds after the second, and only if it
 * has a batch to work on: the previous batch's (rounds 0-15) unless r9 =
 * 0, the next batch's (16-31) unless rax = 0.  XTS needs the first call
 * to leave its tweaks alone, and skipping the first call's and the last
 * call's idle halves saves about 5% of a 4 KiB request; ECB keeps the
 * idle halves (measured natively: their branches cost its longer
 * requests 1.5-2.7%, more than they save at 4 KiB).  CTR has no input
 * transpose (its counters are made byte-sliced): the output's sixteen
 * steps spread over the 32 rounds, two after every fourth round, unless
 * r9 = 0.  gcm: the sixteen steps one after each of rounds 16-31, and
 * after each of rounds 0-15 one register of GHASH (GH_PIPE_STEP), so
 * that its port-5 work (VPCLMULQDQ, VPSHUFB) runs beside the rounds'
 * GF2P8AFFINEINVQBs on port 0 instead of between two calls (measured
 * natively: gcm encryption 2.4-4.4% faster from 1024 blocks on, up to
 * 2.3% slower at 128-256, most at 192).
 */
.macro PIPE_ROUND r, kind
.if (\r) % 4 == 0
	BS_ROUND	0, (16*((\r)+1)), 0, 1, 2, 3, 4, 5, 6, 7
.elseif (\r) % 4 == 1
	BS_ROUND	0, (16*((\r)+1)), 4, 5, 6, 7, 8, 9, 10, 11
.elseif (\r) % 4 == 2
	BS_ROUND	0, (16*((\r)+1)), 8, 9, 10, 11, 12, 13, 14, 15
.else
	BS_ROUND	((\r)==31), (16*((\r)+1)), 12, 13, 14, 15, 0, 1, 2, 3
.endif
.if \kind == SM4_PIPE_ECB
	PIPE_SIDE	\r, \kind
.elseif \kind == SM4_PIPE_XTS
.if (\r) % 2
.if (\r) < 16
	test		%r9, %r9
.else
	test		%rax, %rax
.endif
	jz		.Lpipe_side\@
	PIPE_SIDE	((\r) - 1), \kind
	PIPE_SIDE	\r, \kind
.Lpipe_side\@:
.endif
.elseif \kind == SM4_PIPE_GCM
.if (\r) < 16
	cmpb		$0, SM4_GCM_GF_OFF(%r10)
	je		.Lpipe_gh\@
	GH_PIPE_STEP	\r
.Lpipe_gh\@:
.else
	test		%r9, %r9
	jz		.Lpipe_side\@
	PIPE_SIDE	((\r) - 16), \kind
.Lpipe_side\@:
.endif
.elseif (\r) % 4 == 3
	test		%r9, %r9
	jz		.Lpipe_side\@
	PIPE_SIDE	(((\r) - 3) / 2), \kind
	PIPE_SIDE	(((\r) - 1) / 2), \kind
.Lpipe_side\@:
.endif
.endm

/*
 * GHASH inside __sm4_gfni_gcm64_pipe: after round \j (0..15), register
 * \j of the batch in C (the output of the call before: two batches
 * back) into the sums LO, MID, HI in zmm27-29, the powers at r8 (the
 * key's table), through zmm30, zmm31 and zmm20 (free between two rounds:
 * each round sets it before reading it); after round 15 the reduction
 * into the accumulator's slot.  zmm27-31 carry the transpose work only in
 * rounds 16-31 of this kind.  Skipped while the flag at SM4_GCM_GF_OFF
 * is 0 (the first two calls: C holds no batch yet).
 */
.macro GH_PIPE_STEP j
	vmovdqu32	64 * (\j)(%r8), %zmm31
	vmovdqa64	SM4_GC_OFF + 64 * (\j)(%r10), %zmm30
	.set .Lgh_first, ((\j) == 0)
	GH_REG_W	z, 30, SM4_GCM_GH_OFF(%r10), 27, 28, 29, 30, 31, 20
.if (\j) == 15
	GH_REDUCE	z, 27, 28, 29, 30
	vmovdqu32	%xmm27, SM4_GCM_GH_OFF(%r10)
.endif
.endm

/*
 * __sm4_gfni_blk64_pipe: the batch byte-sliced in X (in the domain)
 * through the 32 rounds into Y (slot SM4_PY_SLOT(r) = state register r:
 * the output words in the order the output transpose takes them); the
 * previous batch's state from Y to the blocks at r9; the next batch's
 * blocks at rax byte-sliced into X.  rax and r9 each point at 1 KiB
 * that may be read (rax) or written (r9) whole.  In: r10 = RK', KK.
 * Clobbers every vector register and r11.
 * __sm4_gfni_xts64_pipe: the same for XTS, the tweaks in W (above; k1 =
 * 0xcccc): the previous batch's output leaves XORed with T(b - 1), the
 * next batch's blocks are XORed with T(b + 1) as they are read, and W
 * moves on from T(b - 1) to T(b).
 * __sm4_gfni_ctr64_pipe: CTR, the batch's counters in X: the previous
 * batch's keystream leaves XORed with its source, at rax; no next batch.
 * __sm4_gfni_gcm64_pipe: the same, the output also copied to C, for
 * its GHASH (gcm_enc must not read dst back: include/sm4/gcm.h), and
 * the batch C held on entry hashed (r8 = the key's table) unless the
 * flag at SM4_GCM_GF_OFF is 0.
 */
.macro SM4_BLK64_PIPE kind
	.irp c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqa64	SM4_PX_OFF + 64 * \c(%r10), %zmm\c
	.endr
	BS_START
	.set .Lpr, 0
	.rept 32
	PIPE_ROUND	.Lpr, \kind
	.set .Lpr, .Lpr + 1
	.endr
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqa64	%zmm\r, SM4_PY_OFF + 64 * SM4_PY_SLOT(\r)(%r10)
	.endr
.endm

SYM_FUNC_START_LOCAL(__sm4_gfni_blk64_pipe)
	SM4_BLK64_PIPE	SM4_PIPE_ECB
	RET
SYM_FUNC_END(__sm4_gfni_blk64_pipe)

SYM_FUNC_START_LOCAL(__sm4_gfni_xts64_pipe)
	SM4_BLK64_PIPE	SM4_PIPE_XTS
	RET
SYM_FUNC_END(__sm4_gfni_xts64_pipe)

SYM_FUNC_START_LOCAL(__sm4_gfni_ctr64_pipe)
	SM4_BLK64_PIPE	SM4_PIPE_CTR
	RET
SYM_FUNC_END(__sm4_gfni_ctr64_pipe)

/*
 * PIPE_FIRST skip: the first batch's blocks, in zmm0-15, byte-sliced
 * into X (into the domain); r9 = 0 if \skip (the first call skips the
 * previous batch's work), else Y zeroed and r9 = Y (the first call's
 * output transpose reads Y and writes its result, never used, into Y
 * itself, before the next batch's input overwrites it).
 * PIPE_LAST: the last batch's state from Y to blocks in zmm0-15.
 */
.macro PIPE_FIRST skip
	BS_TRANSPOSE
	.irp c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vgf2p8affineqb	$0, .Lm1(%rip){1to8}, %zmm\c, %zmm\c
	vmovdqa64	%zmm\c, SM4_PX_OFF + 64 * \c(%rsp)
	.endr
.if \skip
	xor		%r9d, %r9d
.else
	vpxord		%xmm16, %xmm16, %xmm16
	.irp c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqa64	%zmm16, SM4_PY_OFF + 64 * \c(%rsp)
	.endr
	lea		SM4_PY_OFF(%rsp), %r9
.endif
.endm

.macro PIPE_LAST
	.irp c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqa64	SM4_PY_OFF + 64 * \c(%rsp), %zmm\c
	vgf2p8affineqb	$0, .Lm1_inv(%rip){1to8}, %zmm\c, %zmm\c
	.endr
	BS_TRANSPOSE
.endm

/*
 * After a pipelined call: r9 = this batch's dst (the next call's
 * previous batch), rsi, rdx and ecx past it, and on to the next call
 * while a full batch is left, else the last batch's blocks in zmm0-15.
 */
.macro PIPE_NEXT name, before_last:vararg
	mov		%rsi, %r9
	add		$1024, %rsi
	add		$1024, %rdx
	sub		$64, %ecx
	cmp		$64, %ecx
	jae		.L\name\()_pipe_loop
	\before_last
	PIPE_LAST
.endm

/*
 * PIPE_LOOP name, first, last, fn, skip: for requests of SM4_PIPE_MIN
 * blocks or more, every full 64-block batch through \fn (one batch
 * alone gains nothing from it: both its transposes stay serial, and the
 * frame areas cost their stores and wiping; measured 4-7% slower at 64
 * blocks).  \first loads the first batch into zmm0-15; each call gets
 * rax = the next batch's blocks (rdx + 1024) and r9 = the previous
 * batch's dst; in the last call rax = 0 with \skip, else rdx (read
 * again, the result never used); for the first call see PIPE_FIRST.
 * \last stores the last batch's blocks (zmm0-15, after PIPE_LAST) to
 * r9.  Leaves ecx < 64, rsi and rdx past the batches, and the
 * word-sliced constants loaded.  Clobbers rax, r9, r11.
 */
.macro PIPE_LOOP name, first, last, fn=__sm4_gfni_blk64_pipe, skip=0
	cmp		$SM4_PIPE_MIN, %ecx
	jb		.L\name\()_pipe_done
	\first
	PIPE_FIRST	\skip
.L\name\()_pipe_loop:
	lea		1024(%rdx), %rax
	cmp		$128, %ecx
	jae		1f
.if \skip
	xor		%eax, %eax
.else
	mov		%rdx, %rax
.endif
1:
	call		\fn
	PIPE_NEXT	\name
	\last
	SM4_CONSTS
.L\name\()_pipe_done:
.endm

/*
 * Stack frame, 64-byte aligned below rbp:
 *	SM4_RK_OFF	RK' (128 bytes): the round keys of rdi byte-swapped
 *			per dword and moved into the M1 domain with c1
 *	SM4_K_OFF	KK (512 bytes): RK' byte-sliced for __sm4_gfni_blk64,
 *			entry i (16 bytes at 16 * i) is RK'(0) for i = 0 and
 *			RK'(i - 1) ^ RK'(i) otherwise, byte j of it repeated
 *			in the dword at 4 * j
 *	SM4_ST_OFF	64 bytes of mode state kept across __sm4_gfni_blk64
 *	SM4_GH_OFF	gcm_enc (frame SM4_GCM_FRAME: SM4_GCM_GH_OFF, above
 *			X and Y) and ghash (frame SM4_GHASH_FRAME: 0) only:
 *			the GHASH accumulator (16 bytes), wiped by GH_FINISH
 *	SM4_GCM_GF_OFF, SM4_GCM_R8_OFF  gcm_enc only: the pipelined
 *			loop's flag (C holds a batch to hash) and r8 (the
 *			struct sm4_ghash; r8 is its key table meanwhile)
 *	SM4_PX_OFF, SM4_PY_OFF  ecb and xts (frames SM4_ECB_FRAME,
 *			SM4_XTS_FRAME): X and Y of the pipelined batches
 *			(1 KiB each), used and wiped only for requests of
 *			SM4_PIPE_MIN blocks or more
 *	SM4_XT_OFF	xts only: the tweaks of a 64-block batch (1 KiB,
 *			register j's at 64 * j), kept across __sm4_gfni_blk64
 *			instead of computed twice; W of the pipelined batches
 *	SM4_GC_OFF	gcm_enc only: C, the copy of a pipelined batch's
 *			output (1 KiB) that its GHASH reads
 * KK (and with it the state slot) is built and wiped only when the
 * request has at least SM4_BS_MIN blocks; edi keeps nblocks for that.
 */

/* The constants of the word-sliced helpers. */
.macro SM4_CONSTS w=z
	vpbroadcastq	.Lg0(%rip), %\w\()mm16
	vpbroadcastq	.Lg1(%rip), %\w\()mm17
	vpbroadcastq	.Lg3(%rip), %\w\()mm18
	vpbroadcastq	.Lm1(%rip), %\w\()mm19
	vpbroadcastq	.Lm1_inv(%rip), %\w\()mm29
.endm

/*
 * Function entry: a return for nblocks == 0, then the frame,
 * constants, RK' (pointed to by r10) and, for requests of SM4_BS_MIN
 * blocks or more (if \bs), KK.
 */
.macro SM4_ENTER frame, bs=1
	/* No blocks: return at once, touching no memory. */
	test		%ecx, %ecx
	jnz		.Lsm4_enter\@
	RET
.Lsm4_enter\@:
	push		%rbp
	mov		%rsp, %rbp
	and		$-64, %rsp
	sub		$\frame, %rsp
	/*
	 * RK' in ymm: measured natively, 512-bit operations here slow
	 * the one-block chain that may follow (a lone block, the XTS
	 * tweak, serial CBC/CFB) by about 9%: while they are in flight
	 * port 1 runs no vector operation, and its xmm GFNIs share port 0.
	 * The serial functions (!\bs) execute no 512-bit operation at all
	 * (the glue runs their short requests too: "zmm policy").
	 */
.if \bs
	SM4_CONSTS
.else
	SM4_CONSTS	y
.endif
	vbroadcasti32x4	.Lbswap32(%rip), %ymm8
	.irp i, 0, 1, 2, 3
	vmovdqu32	32 * \i(%rdi), %ymm9
	vpshufb		%ymm8, %ymm9, %ymm9
	vgf2p8affineqb	$SM4_GFNI_C1, %ymm19, %ymm9, %ymm9
	vmovdqa64	%ymm9, SM4_RK_OFF + 32 * \i(%rsp)
	.endr
	mov		%rsp, %r10
.if \bs
	mov		%ecx, %edi
	cmp		$SM4_BS_MIN, %ecx
	jb		1f
	vmovdqa64	.Lkey_bytes(%rip), %zmm8
	vpxord		%xmm10, %xmm10, %xmm10
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7
	vbroadcasti32x4	SM4_RK_OFF + 16 * \i(%rsp), %zmm9
	vpshufb		%zmm8, %zmm9, %zmm9
	valignq		$6, %zmm10, %zmm9, %zmm11
	vpxord		%zmm9, %zmm11, %zmm11
	vmovdqa64	%zmm11, SM4_K_OFF + 64 * \i(%rsp)
	vmovdqa64	%zmm9, %zmm10
	.endr
1:
.endif
.endm

/*
 * Zero every vector register the functions below use, on the way out:
 * none keeps a block, keystream, tweak, round key or GHASH value of the
 * call.  VZEROALL clears zmm0-15; an EVEX write of xmm16-31 clears the
 * whole of each of those.  (The mask registers hold lengths only.)
 */
.macro SM4_CLEAR_VREGS
	vzeroall
	.irp r, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	vpxord		%xmm\r, %xmm\r, %xmm\r
	.endr
.endm

/*
 * Wipe the frame (RK'; KK, the state slot and, with \xts, the tweaks
 * only if they were used) and the vector registers, return.  The serial
 * functions (bs=0) have only RK' and wipe it with ymm stores.
 */
.macro SM4_LEAVE xts=0, cb=0, pipe=0, gcm=0, bs=1
	vpxord		%xmm8, %xmm8, %xmm8
	.irp i, 0, 1, 2, 3
	vmovdqa64	%ymm8, SM4_RK_OFF + 32 * \i(%rsp)
	.endr
.if \bs
	cmp		$SM4_BS_MIN, %edi
	jb		1f
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8
	vmovdqa64	%zmm8, SM4_K_OFF + 64 * \i(%rsp)
	.endr
.if \cb
	vmovdqa64	%zmm8, SM4_CB_OFF(%rsp)
.endif
.if \xts
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqa64	%zmm8, SM4_XT_OFF + 64 * \i(%rsp)
	.endr
.endif
.if \pipe
	cmp		$SM4_PIPE_MIN, %edi
	jb		1f
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	vmovdqa64	%zmm8, SM4_PX_OFF + 64 * \i(%rsp)
	.endr
.if \gcm
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqa64	%zmm8, SM4_GC_OFF + 64 * \i(%rsp)
	.endr
.endif
.endif
.endif
1:
	SM4_CLEAR_VREGS
	leave
	RET
.endm

/*
 * Batch kinds of the mode bodies below:
 *	full64	64 blocks in zmm0-15, no masks (__sm4_gfni_blk64)
 *	tail64	33..63 blocks: zmm0-7 full, zmm8-15 masked (k2: 64-bit
 *		mask of zmm8-11, k3 of zmm12-15, each op's 16 bits in k7)
 *	full32	32 blocks in zmm0-7, no masks
 *	tail32	17..31 blocks: zmm0-3 full, zmm4-7 under masks k4-k7
 *	tail16	1..16 blocks in zmm4-7 under masks k4-k7
 *	tail4	2..4 blocks in xmm4-7 (one block each) under masks k4-k7
 *	tail1	1 block in xmm4 under mask k4
 * Register \j of a batch holds the blocks at byte offset BOFF(kind, j)
 * of src/dst.
 */
.macro BATCH_REGS kind, m
.ifc \kind, full64
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	\m		\kind, \r
	.endr
.exitm
.endif
.ifc \kind, tail64
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	\m		\kind, \r
	.endr
.exitm
.endif
.ifc \kind, full32
	\m		\kind, 0
	\m		\kind, 1
	\m		\kind, 2
	\m		\kind, 3
.endif
.ifc \kind, tail32
	\m		\kind, 0
	\m		\kind, 1
	\m		\kind, 2
	\m		\kind, 3
.endif
	\m		\kind, 4
.ifnc \kind, tail1
	\m		\kind, 5
	\m		\kind, 6
	\m		\kind, 7
.endif
.endm

/* Width letter, first register and byte offset of register \j. */
.macro BATCH_GEOM kind, j
.ifc \kind, tail1
	.set .Lw_is_x, 1
	.set .Lboff, 0
	.set .Lfirst, 4
.exitm
.endif
.ifc \kind, tail4
	.set .Lw_is_x, 1
	.set .Lboff, (\j - 4) * 16
	.set .Lfirst, 4
.else
	.set .Lw_is_x, 0
.ifc \kind, tail16
	.set .Lboff, (\j - 4) * 64
	.set .Lfirst, 4
.else
	.set .Lboff, \j * 64
	.set .Lfirst, 0
.endif
.endif
.endm

/*
 * Is register \j of batch \kind under a mask?  In tail64 batches, also
 * put its mask into k7 (the masks of zmm8-15 do not fit in k1-k7).
 * .Lkmask: the number of the mask register.
 */
.macro BATCH_MASKED kind, j
	.set .Lmasked, (\j >= 4)
	.set .Lkmask, \j
.ifc \kind, full32
	.set .Lmasked, 0
.endif
.ifc \kind, full64
	.set .Lmasked, 0
.endif
.ifc \kind, tail64
	.set .Lmasked, (\j >= 8)
	.set .Lkmask, 7
.if \j >= 12
	kshiftrq	$(16 * (\j - 12)), %k3, %k7
.elseif \j >= 8
	kshiftrq	$(16 * (\j - 8)), %k2, %k7
.endif
.endif
.endm

/*
 * The masks of a tail64 batch of ecx (33..63) blocks: k2 for zmm8-11,
 * k3 for zmm12-15.  Clobbers rax, r9, keeps ecx.
 */
.macro TAIL64_MASKS
	mov		%ecx, %r9d
	sub		$32, %ecx
	cmp		$16, %ecx
	jb		1f
	mov		$-1, %rax
	kmovq		%rax, %k2
	sub		$16, %ecx
	shl		$2, %ecx
	mov		$1, %eax
	shl		%cl, %rax
	dec		%rax
	kmovq		%rax, %k3
	jmp		2f
1:
	shl		$2, %ecx
	mov		$1, %eax
	shl		%cl, %rax
	dec		%rax
	kmovq		%rax, %k2
	kxorq		%k3, %k3, %k3
2:
	mov		%r9d, %ecx
.endm

/*
 * Vector op on register \j of a batch with a memory operand at
 * .Lboff + \disp of \base: "op mem, reg, reg" (\load = 0) or
 * "op mem, reg" (load into reg).  Masked registers zero their unused
 * lanes and never touch memory outside the request.  MEM_OP_TO: the
 * same on register \r, with the geometry and mask of register \j.
 */
.macro MEM_OP kind, j, op, base, disp, load
	MEM_OP_TO	\kind, \j, \j, \op, \base, \disp, \load
.endm

.macro MEM_OP_TO kind, j, r, op, base, disp, load
	BATCH_GEOM	\kind, \j
	BATCH_MASKED	\kind, \j
.if .Lw_is_x
.if \load
	\op		.Lboff+\disp(\base), %xmm\r{%k\j}{z}
.else
	\op		.Lboff+\disp(\base), %xmm\r, %xmm\r{%k\j}{z}
.endif
.elseif .Lmasked && .Lkmask == 7
.if \load
	\op		.Lboff+\disp(\base), %zmm\r{%k7}{z}
.else
	\op		.Lboff+\disp(\base), %zmm\r, %zmm\r{%k7}{z}
.endif
.elseif .Lmasked
.if \load
	\op		.Lboff+\disp(\base), %zmm\r{%k\j}{z}
.else
	\op		.Lboff+\disp(\base), %zmm\r, %zmm\r{%k\j}{z}
.endif
.else
.if \load
	\op		.Lboff+\disp(\base), %zmm\r
.else
	\op		.Lboff+\disp(\base), %zmm\r, %zmm\r
.endif
.endif
.endm

.macro LOAD_SRC kind, j
	MEM_OP		\kind, \j, vmovdqu32, %rdx, 0, 1
.endm
.macro XOR_SRC kind, j, disp=0
	MEM_OP		\kind, \j, vpxord, %rdx, \disp, 0
.endm

.macro STORE_DST kind, j
	BATCH_GEOM	\kind, \j
	BATCH_MASKED	\kind, \j
.if .Lw_is_x
	vmovdqu32	%xmm\j, .Lboff(%rsi){%k\j}
.elseif .Lmasked && .Lkmask == 7
	vmovdqu32	%zmm\j, .Lboff(%rsi){%k7}
.elseif .Lmasked
	vmovdqu32	%zmm\j, .Lboff(%rsi){%k\j}
.else
	vmovdqu32	%zmm\j, .Lboff(%rsi)
.endif
.endm

/* Reg-reg op "op %[xz]mm\src, %[xz]mm\j, %[xz]mm\j" in the batch's width. */
.macro REG_OP kind, j, op, src
	BATCH_GEOM	\kind, \j
.if .Lw_is_x
	\op		%xmm\src, %xmm\j, %xmm\j
.else
	\op		%zmm\src, %zmm\j, %zmm\j
.endif
.endm

.macro CALL_BLK kind
.ifc \kind, full64
	call		__sm4_gfni_blk64
.endif
.ifc \kind, tail64
	call		__sm4_gfni_blk64
.endif
.ifc \kind, full32
	call		__sm4_gfni_blk32
.endif
.ifc \kind, tail32
	call		__sm4_gfni_blk32
.endif
.ifc \kind, tail16
	call		__sm4_gfni_blk16
.endif
.ifc \kind, tail4
	call		__sm4_gfni_blk4
.endif
.ifc \kind, tail1
	TO_DOMAIN	x, 4
	call		__sm4_gfni_blk1
	FROM_DOMAIN	x, 4
.endif
.endm

/*
 * Masks k4-k7 for the last batch of ecx (1..31) blocks, and the batch
 * kind: jumps to \l32, \l16, \l4 or \l1.  Clobbers rax, r9, keeps ecx.
 */
.macro TAIL_DISPATCH l32, l16, l4, l1
	mov		%ecx, %r9d
	cmp		$16, %ecx
	jbe		1f
	sub		$16, %ecx
1:
	shl		$2, %ecx
	neg		%ecx
	add		$64, %ecx
	mov		$-1, %rax
	shr		%cl, %rax
	mov		%r9d, %ecx
	kmovq		%rax, %k4
	cmp		$16, %ecx
	ja		2f
	cmp		$4, %ecx
	jbe		3f
2:
	kshiftrq	$16, %k4, %k5
	kshiftrq	$32, %k4, %k6
	kshiftrq	$48, %k4, %k7
	cmp		$16, %ecx
	ja		\l32
	jmp		\l16
3:
	kshiftrq	$4, %k4, %k5
	kshiftrq	$8, %k4, %k6
	kshiftrq	$12, %k4, %k7
	cmp		$1, %ecx
	je		\l1
	jmp		\l4
.endm

/*
 * Run \body for every batch: full 64-block batches, then the tail: 33..63
 * blocks in one tail64 batch, or at most one full 32-block batch and a
 * smaller tail.  The body handles one batch of its kind; after a
 * full64 or tail64 batch only the registers it restores itself
 * (besides the helper constants, restored here) are valid.  The tail64
 * body sets its masks itself (TAIL64_MASKS) before its first masked
 * memory access.
 * In: ecx = nblocks >= 1, rsi/rdx = dst/src.  At the end of the tail,
 * ecx holds the tail's block count (0 if none) for \finish.
 */
.macro FOR_BATCHES name, body, finish
	cmp		$64, %ecx
	jb		.L\name\()_32
.L\name\()_loop64:
	\body		full64
	add		$1024, %rsi
	add		$1024, %rdx
	sub		$64, %ecx
	cmp		$64, %ecx
	jae		.L\name\()_loop64
	SM4_CONSTS
.L\name\()_32:
	cmp		$SM4_BS_MIN, %ecx
	jb		.L\name\()_32b
	\body		tail64
	jmp		.L\name\()_done
.L\name\()_32b:
	cmp		$32, %ecx
	jb		.L\name\()_tail
	\body		full32
	add		$512, %rsi
	add		$512, %rdx
	sub		$32, %ecx
.L\name\()_tail:
	test		%ecx, %ecx
	jz		.L\name\()_done
	TAIL_DISPATCH	.L\name\()_t32, .L\name\()_t16, .L\name\()_t4, \
			.L\name\()_t1
.L\name\()_t32:
	\body		tail32
	jmp		.L\name\()_done
.L\name\()_t16:
	\body		tail16
	jmp		.L\name\()_done
.L\name\()_t4:
	\body		tail4
	jmp		.L\name\()_done
.L\name\()_t1:
	\body		tail1
.L\name\()_done:
	\finish
.endm

/* ---- ECB --------------------------------------------------------- */

/* Masks of a tail64 batch, before its first memory access. */
.macro TAIL64_PREP kind
.ifc \kind, tail64
	TAIL64_MASKS
.endif
.endm

.macro ECB_BATCH kind
	TAIL64_PREP	\kind
	BATCH_REGS	\kind, LOAD_SRC
	CALL_BLK	\kind
	BATCH_REGS	\kind, STORE_DST
.endm

.macro NOTHING args:vararg
.endm

/*
 * CALL_BLK, keeping zmm\r (the mode's state) through __sm4_gfni_blk64
 * in the stack slot.
 */
.macro BLK_KEEP_ZMM kind, r
	.set .Lbs, 0
.ifc \kind, full64
	.set .Lbs, 1
.endif
.ifc \kind, tail64
	.set .Lbs, 1
.endif
.if .Lbs
	vmovdqa64	%zmm\r, SM4_ST_OFF(%rsp)
	CALL_BLK	\kind
	vmovdqa64	SM4_ST_OFF(%rsp), %zmm\r
.else
	CALL_BLK	\kind
.endif
.endm

/* void sm4_gfni_avx512_ecb(const u32 *rk, u8 *dst, const u8 *src,
 *			    unsigned int nblocks)
 */
.macro ECB_PIPE_FIRST
	BATCH_REGS	full64, LOAD_SRC
.endm

.macro ECB_PIPE_LAST
	.irp j, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqu32	%zmm\j, 64 * \j(%r9)
	.endr
.endm

SYM_TYPED_FUNC_START(sm4_gfni_avx512_ecb)
	SM4_ENTER	SM4_ECB_FRAME
	PIPE_LOOP	ecb, ECB_PIPE_FIRST, ECB_PIPE_LAST
	FOR_BATCHES	ecb, ECB_BATCH, NOTHING
	SM4_LEAVE	pipe=1
SYM_FUNC_END(sm4_gfni_avx512_ecb)

/*
 * The last ciphertext block of a batch (the next IV) into all lanes of
 * zmm20, before any store of the batch (dst may equal src).
 */
.macro LOAD_NEXT_IV kind
.ifc \kind, full64
	vbroadcasti32x4	1008(%rdx), %zmm20
.exitm
.endif
.ifc \kind, full32
	vbroadcasti32x4	496(%rdx), %zmm20
.else
	mov		%ecx, %eax
	shl		$4, %eax
	vbroadcasti32x4	-16(%rdx, %rax), %zmm20
.endif
.endm

/* ---- CBC decryption ---------------------------------------------- */

/*
 * Register \j ^= the ciphertext blocks preceding its own: those at
 * -16 bytes, or for the first register the IV (lane 3 of zmm20) and its
 * first three blocks.  Clobbers zmm31.
 */
.macro CBC_XOR_PREV kind, j
	BATCH_GEOM	\kind, \j
.if \j == .Lfirst
.if .Lw_is_x
	vpxord		%xmm20, %xmm\j, %xmm\j
.else
	BATCH_MASKED	\kind, \j
.if .Lmasked
	vmovdqu32	(%rdx), %zmm31{%k\j}{z}
.else
	vmovdqu32	(%rdx), %zmm31
.endif
	valignq		$6, %zmm20, %zmm31, %zmm31
	vpxord		%zmm31, %zmm\j, %zmm\j
.endif
.else
	XOR_SRC		\kind, \j, -16
.endif
.endm

.macro CBC_DEC_BATCH kind
	TAIL64_PREP	\kind
	BATCH_REGS	\kind, LOAD_SRC
	BLK_KEEP_ZMM	\kind, 20
	BATCH_REGS	\kind, CBC_XOR_PREV
	LOAD_NEXT_IV	\kind
	BATCH_REGS	\kind, STORE_DST
.endm

.macro STORE_IV
	vmovdqu32	%xmm20, (%r8)
.endm

/* void sm4_gfni_avx512_cbc_dec(const u32 *rk, u8 *dst, const u8 *src,
 *				unsigned int nblocks, u8 *iv)
 */
SYM_TYPED_FUNC_START(sm4_gfni_avx512_cbc_dec)
	SM4_ENTER	SM4_FRAME
	vbroadcasti32x4	(%r8), %zmm20
	FOR_BATCHES	cbc_dec, CBC_DEC_BATCH, STORE_IV
	SM4_LEAVE
SYM_FUNC_END(sm4_gfni_avx512_cbc_dec)

/* ---- CFB decryption ---------------------------------------------- */

/* Register \j = the ciphertext blocks preceding its own (see above). */
.macro CFB_LOAD_PREV kind, j
	BATCH_GEOM	\kind, \j
.if \j == .Lfirst
.if .Lw_is_x
	vmovdqa64	%xmm20, %xmm\j
.else
	LOAD_SRC	\kind, \j
	valignq		$6, %zmm20, %zmm\j, %zmm\j
.endif
.else
	MEM_OP		\kind, \j, vmovdqu32, %rdx, -16, 1
.endif
.endm

.macro CFB_DEC_BATCH kind
	TAIL64_PREP	\kind
	BATCH_REGS	\kind, CFB_LOAD_PREV
	CALL_BLK	\kind
	BATCH_REGS	\kind, XOR_SRC
	LOAD_NEXT_IV	\kind
	BATCH_REGS	\kind, STORE_DST
.endm

/* void sm4_gfni_avx512_cfb_dec(const u32 *rk, u8 *dst, const u8 *src,
 *				unsigned int nblocks, u8 *iv)
 */
SYM_TYPED_FUNC_START(sm4_gfni_avx512_cfb_dec)
	SM4_ENTER	SM4_FRAME
	vbroadcasti32x4	(%r8), %zmm20
	FOR_BATCHES	cfb_dec, CFB_DEC_BATCH, STORE_IV
	SM4_LEAVE
SYM_FUNC_END(sm4_gfni_avx512_cfb_dec)

/* ---- CBC and CFB encryption (serial) ----------------------------- */

/* void sm4_gfni_avx512_cbc_enc(const u32 *rk, u8 *dst, const u8 *src,
 *				unsigned int nblocks, u8 *iv)
 */
SYM_TYPED_FUNC_START(sm4_gfni_avx512_cbc_enc)
	SM4_ENTER	SM4_FRAME, 0
	vmovdqu32	(%r8), %xmm20
	TO_DOMAIN	x, 20
.Lcbc_enc_loop:
	vmovdqu32	(%rdx), %xmm4
	TO_DOMAIN	x, 4
	vpxord		%xmm20, %xmm4, %xmm4
	call		__sm4_gfni_blk1
	vmovdqa64	%xmm4, %xmm20
	FROM_DOMAIN	x, 4
	vmovdqu32	%xmm4, (%rsi)
	add		$16, %rsi
	add		$16, %rdx
	dec		%ecx
	jnz		.Lcbc_enc_loop
	vmovdqu32	%xmm4, (%r8)
	SM4_LEAVE	bs=0
SYM_FUNC_END(sm4_gfni_avx512_cbc_enc)

/* void sm4_gfni_avx512_cfb_enc(const u32 *rk, u8 *dst, const u8 *src,
 *				unsigned int nblocks, u8 *iv)
 */
SYM_TYPED_FUNC_START(sm4_gfni_avx512_cfb_enc)
	SM4_ENTER	SM4_FRAME, 0
	vmovdqu32	(%r8), %xmm4
	TO_DOMAIN	x, 4
.Lcfb_enc_loop:
	vmovdqu32	(%rdx), %xmm20
	TO_DOMAIN	x, 20
	call		__sm4_gfni_blk1
	vpxord		%xmm20, %xmm4, %xmm4
	vmovdqa64	%xmm4, %xmm20
	FROM_DOMAIN	x, 20
	vmovdqu32	%xmm20, (%rsi)
	add		$16, %rsi
	add		$16, %rdx
	dec		%ecx
	jnz		.Lcfb_enc_loop
	vmovdqu32	%xmm20, (%r8)
	SM4_LEAVE	bs=0
SYM_FUNC_END(sm4_gfni_avx512_cfb_enc)

/* ---- CTR --------------------------------------------------------- */

/*
 * CTR registers: zmm20 the counter as (low, high) qwords in every lane,
 * zmm21 increments 0..3, zmm22 step 4, zmm23 byte reversal, zmm24 step
 * 32, zmm25 all ones, zmm26 the running increment.  A full64 batch
 * keeps zmm20 on the stack and reloads the constants.
 *
 * \dst = zmm20 + \inc as 128-bit integers per lane: a carry out of the
 * low qword (sum < increment) adds one to the high qword.
 */
.macro CTR_ADD dst, inc
	vpaddq		\inc, %zmm20, \dst
	vpcmpuq		$1, \inc, \dst, %k1
	kshiftlw	$1, %k1, %k1
	vpsubq		%zmm25, \dst, \dst{%k1}
.endm

/* Register \j = the big-endian counter blocks of its lanes. */
.macro CTR_GEN kind, j
	BATCH_GEOM	\kind, \j
.if .Lw_is_x
.if \j == .Lfirst
	CTR_ADD		%zmm\j, %zmm21
	vpshufb		%zmm23, %zmm\j, %zmm\j
	vextracti32x4	$1, %zmm\j, %xmm5
	vextracti32x4	$2, %zmm\j, %xmm6
	vextracti32x4	$3, %zmm\j, %xmm7
.endif
.else
	CTR_ADD		%zmm\j, %zmm26
	vpshufb		%zmm23, %zmm\j, %zmm\j
	vpaddq		%zmm22, %zmm26, %zmm26
.endif
.endm

.macro CTR_CONSTS
	vmovdqa64	.Lctr_inc0(%rip), %zmm21
	vbroadcasti32x4	.Lctr_step4(%rip), %zmm22
	vbroadcasti32x4	.Lbswap128(%rip), %zmm23
	vbroadcasti32x4	.Lctr_step32(%rip), %zmm24
	vpternlogd	$0xff, %zmm25, %zmm25, %zmm25
.endm

.macro CTR_BATCH kind
	vmovdqa64	%zmm21, %zmm26
	BATCH_REGS	\kind, CTR_GEN
.ifc \kind, full64
	CTR_ADD		%zmm20, .Lctr_step64(%rip)
	vmovdqa64	%zmm20, SM4_ST_OFF(%rsp)
.endif
	CALL_BLK	\kind
	TAIL64_PREP	\kind
	BATCH_REGS	\kind, XOR_SRC
	BATCH_REGS	\kind, STORE_DST
.ifc \kind, full64
	vmovdqa64	SM4_ST_OFF(%rsp), %zmm20
	CTR_CONSTS
.endif
.ifc \kind, full32
	CTR_ADD		%zmm20, %zmm24
.endif
.endm

/* void sm4_gfni_avx512_ctr(const u32 *rk, u8 *dst, const u8 *src,
 *			    unsigned int nblocks, u8 *ctr)
 */
/*
 * The CTR set-up: constants, the counter of (%r8) into zmm20, and
 * (%r8) moved on to the counter after this call.  Clobbers rax, r9.
 */
.macro CTR_START
	CTR_CONSTS
	vmovdqu32	(%r8), %xmm20
	vpshufb		%xmm23, %xmm20, %xmm20
	vshufi64x2	$0, %zmm20, %zmm20, %zmm20
	/* The counter after this call: ctr + nblocks, 128-bit big-endian. */
	movq		8(%r8), %rax
	bswapq		%rax
	mov		%ecx, %r9d
	add		%r9, %rax
	movq		(%r8), %r9
	bswapq		%r9
	adc		$0, %r9
	bswapq		%rax
	bswapq		%r9
	movq		%rax, 8(%r8)
	movq		%r9, (%r8)
.endm

/*
 * To \label if a batch from the counter zmm20 carries into byte 13 (its
 * low 16 bits above 0xffc0), with zmm20 in the state slot either way.
 * The low bits come through the slot and a GPR load: evex_emu.c takes
 * no EVEX move to a GPR.  Clobbers rax.
 */
.macro CTR_IF_CARRY label
	vmovdqa64	%zmm20, SM4_ST_OFF(%rsp)
	movzwl		SM4_ST_OFF(%rsp), %eax
	cmp		$0xffc0, %eax
	ja		\label
.endm

/*
 * CTR_BS_COUNTERS: zmm0-15 = the batch's counters byte-sliced (see
 * below; the caller has checked that nothing carries into byte 13),
 * through the slot at SM4_CB_OFF.  Clobbers zmm16, zmm23, zmm25, k1.
 */
.macro CTR_BS_COUNTERS
	vbroadcasti32x4	.Lbswap128(%rip), %zmm23
	vpshufb		%zmm23, %zmm20, %zmm16
	vpshufb		.Lkey_bytes(%rip), %zmm16, %zmm16
	vmovdqa64	%zmm16, SM4_CB_OFF(%rsp)
	.irp c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vpbroadcastd	SM4_CB_OFF + 4 * \c(%rsp), %zmm\c
	.endr
	vmovdqa64	.Lctr_bs_order(%rip), %zmm16
	vpaddb		%zmm16, %zmm15, %zmm15
	vpcmpub		$1, %zmm16, %zmm15, %k1
	vpternlogd	$0xff, %zmm25, %zmm25, %zmm25
	vpsubb		%zmm25, %zmm14, %zmm14{%k1}
.endm

/*
 * Pipelined CTR (__sm4_gfni_ctr64_pipe, requests of SM4_PIPE_MIN blocks
 * or more): each full batch's counters into X, byte-sliced as
 * CTR_BS_COUNTERS makes them (or, when a carry reaches byte 13, as
 * CTR_GEN makes them, then transposed), into the domain; each call
 * stores the previous batch's output (r9 its dst, rax its source; r9 =
 * 0 in the first call), the loop's end the last batch's.  With \extra
 * (gcm: GH_BATCH, \fn __sm4_gfni_gcm64_pipe), each call also copies
 * the output it stores into C (dst is never read back) and, from the
 * third call on (the flag: r9 was set in the call before), hashes the
 * batch C held on entry within its rounds, r8 = the key's table; after
 * the last call \extra full64 runs on C's batch, then on the last
 * batch's output in zmm0-15.  SM4_CB_OFF is X's first slot
 * (SM4_PX_OFF), read before X is written.  Clobbers rax, r9, r11, k1
 * and every vector register but the counter (zmm20), and leaves
 * SM4_CONSTS and CTR_CONSTS loaded.
 */
.macro CTR_PIPE_LOOP name, extra, fn=__sm4_gfni_ctr64_pipe
	cmp		$SM4_PIPE_MIN, %ecx
	jb		.L\name\()_pipe_done
	xor		%r9d, %r9d
.ifnc \extra, NOTHING
	movq		$0, SM4_GCM_GF_OFF(%rsp)
	mov		%r8, SM4_GCM_R8_OFF(%rsp)
	mov		SM4_GHASH_TABLE(%r8), %r8
.endif
.L\name\()_pipe_loop:
	CTR_IF_CARRY	.L\name\()_pipe_slow
	CTR_BS_COUNTERS
	jmp		.L\name\()_pipe_x
.L\name\()_pipe_slow:
	CTR_CONSTS
	vmovdqa64	%zmm21, %zmm26
	BATCH_REGS	full64, CTR_GEN
	BS_TRANSPOSE
	vmovdqa64	SM4_ST_OFF(%rsp), %zmm20
	vpternlogd	$0xff, %zmm25, %zmm25, %zmm25
.L\name\()_pipe_x:
	.irp c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vgf2p8affineqb	$0, .Lm1(%rip){1to8}, %zmm\c, %zmm\c
	vmovdqa64	%zmm\c, SM4_PX_OFF + 64 * \c(%rsp)
	.endr
	CTR_ADD		%zmm20, .Lctr_step64(%rip)
	vmovdqa64	%zmm20, SM4_ST_OFF(%rsp)
	lea		-1024(%rdx), %rax
	call		\fn
.ifnc \extra, NOTHING
	test		%r9, %r9
	setnz		SM4_GCM_GF_OFF(%rsp)
.endif
	vmovdqa64	SM4_ST_OFF(%rsp), %zmm20
	CTR_CONSTS
.ifnc \extra, NOTHING
	PIPE_NEXT	\name, CTR_PIPE_C \extra
.else
	PIPE_NEXT	\name
.endif
	.irp j, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vpxord		64 * \j - 1024(%rdx), %zmm\j, %zmm\j
	vmovdqu32	%zmm\j, 64 * \j(%r9)
	.endr
	\extra		full64
	vmovdqa64	SM4_ST_OFF(%rsp), %zmm20
	SM4_CONSTS
	CTR_CONSTS
.L\name\()_pipe_done:
.endm

/*
 * gcm after the last pipelined call: r8 back to the struct sm4_ghash
 * (its slot wiped: regwipe counts a pointer to the caller's data left
 * in the frame), \extra full64 on the batch in C, still unhashed.
 */
.macro CTR_PIPE_C extra
	mov		SM4_GCM_R8_OFF(%rsp), %r8
	movq		$0, SM4_GCM_R8_OFF(%rsp)
	.irp j, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqa64	SM4_GC_OFF + 64 * \j(%rsp), %zmm\j
	.endr
	\extra		full64
.endm

/*
 * full64 batches with their counters made byte-sliced, as
 * __sm4_gfni_blk64's input transpose would leave them (zmm\c = byte c
 * of the 64 counter blocks, block SM4_GFNI_BS_BLOCK(p) in byte p), so
 * that __sm4_gfni_blk64_bs skips that transpose.  Bytes 0..13 are the
 * same in every block of a batch whose first counter's low 16 bits are
 * at most 0xffc0 (nothing carries into byte 13): each is one broadcast
 * load (from SM4_CB_OFF, where the batch's first counter is stored with
 * every byte in a dword of its own); byte 15 is that counter's byte 15
 * plus the block number, and byte 14 gets the carry out of it.  Any
 * other batch (one in 1024) is made as the general CTR_BATCH does.
 * \extra full64 then runs on the batch's output in zmm0-15 (gcm: its
 * GHASH).  Clobbers rax, r9, r11, k1 and every vector register but the
 * counter (zmm20), and leaves SM4_CONSTS and CTR_CONSTS loaded.
 */
.macro CTR_BS_LOOP64 name, extra
	cmp		$64, %ecx
	jb		.L\name\()_bs_done
.L\name\()_bs_loop:
	CTR_IF_CARRY	.L\name\()_bs_slow
	CTR_BS_COUNTERS
	CTR_ADD		%zmm20, .Lctr_step64(%rip)
	vmovdqa64	%zmm20, SM4_ST_OFF(%rsp)
	call		__sm4_gfni_blk64_bs
	BATCH_REGS	full64, XOR_SRC
	BATCH_REGS	full64, STORE_DST
	\extra		full64
	vmovdqa64	SM4_ST_OFF(%rsp), %zmm20
	jmp		.L\name\()_bs_next
.L\name\()_bs_slow:
	CTR_CONSTS
	CTR_BATCH	full64
	\extra		full64
.L\name\()_bs_next:
	add		$1024, %rsi
	add		$1024, %rdx
	sub		$64, %ecx
	cmp		$64, %ecx
	jae		.L\name\()_bs_loop
	SM4_CONSTS
	CTR_CONSTS
.L\name\()_bs_done:
.endm

SYM_TYPED_FUNC_START(sm4_gfni_avx512_ctr)
	SM4_ENTER	SM4_CTR_FRAME
	CTR_START
	CTR_PIPE_LOOP	ctr, NOTHING
	CTR_BS_LOOP64	ctr, NOTHING
	FOR_BATCHES	ctr, CTR_BATCH, NOTHING
	SM4_LEAVE	cb=1, pipe=1
SYM_FUNC_END(sm4_gfni_avx512_ctr)

/* ---- XTS --------------------------------------------------------- */

/*
 * XTS registers: zmm31 the tweaks of blocks 0..3 of the batch; the
 * tweaks of data register \j in zmm2\j.
 *
 * \dst = \src * x^\k in GF(2^128) per lane, 0 < \k < 64: shift both
 * qwords, carry the low qword's top bits into the high qword and fold the
 * high qword's top bits back with 0x87 (the product, up to k + 7 bits,
 * is XORed into the whole lane).  Clobbers \t1, \t2.
 */
.macro XTS_MUL_XK src, dst, k, t1=%zmm8, t2=%zmm9
	vpsrlq		$(64 - (\k)), \src, \t1
	vpsllq		$(\k), \src, \dst
	vpclmulqdq	$0x01, .Lxts_poly(%rip), \t1, \t2
	vpslldq		$8, \t1, \t1
	vpternlogd	$0x96, \t2, \t1, \dst
.endm

/* Register \j ^= its tweaks, computed into zmm2\j (xmm2\j: one block). */
.macro XTS_IN kind, j
	BATCH_GEOM	\kind, \j
	LOAD_SRC	\kind, \j
.if .Lw_is_x
.if \j == .Lfirst
	vmovdqa64	%xmm31, %xmm2\j
.else
	vextracti32x4	$(\j - 4), %zmm31, %xmm2\j
.endif
	vpxord		%xmm2\j, %xmm\j, %xmm\j
.else
.if \j == .Lfirst
	vmovdqa64	%zmm31, %zmm2\j
.else
	XTS_MUL_XK	%zmm31, %zmm2\j, 4*(\j-.Lfirst)
.endif
	vpxord		%zmm2\j, %zmm\j, %zmm\j
.endif
.endm

.macro XTS_OUT kind, j
	REG_OP		\kind, \j, vpxord, 2\j
.endm

/*
 * A full64 or tail64 batch.  The tweaks of register j are zmm31 * x^4j:
 * in zmm16 + j before __sm4_gfni_blk64, and in the frame (SM4_XT_OFF)
 * for after it, which clobbers them (zmm31 itself waits in the state
 * slot).  Then zmm31 moves on by x^64 (two steps of x^32, from zmm31
 * itself) for the next full64 batch, or stays for XTS_FINISH after a
 * tail64 batch.
 */
.macro XTS64_TWEAK j, t
.if \j == 0
	vmovdqa64	%zmm31, %zmm\t
.else
	XTS_MUL_XK	%zmm31, %zmm\t, 4*\j
.endif
	vmovdqa64	%zmm\t, SM4_XT_OFF + 64 * \j(%rsp)
.endm

.macro XTS64_IN kind, j, t
	LOAD_SRC	\kind, \j
	vpxord		%zmm\t, %zmm\j, %zmm\j
.endm

.macro XTS64_OUT kind, j
	vpxord		SM4_XT_OFF + 64 * \j(%rsp), %zmm\j, %zmm\j
.endm

.macro XTS_BATCH kind
	.set .Lbs, 0
.ifc \kind, full64
	.set .Lbs, 1
.endif
.ifc \kind, tail64
	.set .Lbs, 1
.endif
.if .Lbs
	vmovdqa64	%zmm31, SM4_ST_OFF(%rsp)
	XTS64_TWEAK	0, 16
	XTS64_TWEAK	1, 17
	XTS64_TWEAK	2, 18
	XTS64_TWEAK	3, 19
	XTS64_TWEAK	4, 20
	XTS64_TWEAK	5, 21
	XTS64_TWEAK	6, 22
	XTS64_TWEAK	7, 23
	XTS64_TWEAK	8, 24
	XTS64_TWEAK	9, 25
	XTS64_TWEAK	10, 26
	XTS64_TWEAK	11, 27
	XTS64_TWEAK	12, 28
	XTS64_TWEAK	13, 29
	XTS64_TWEAK	14, 30
	XTS64_TWEAK	15, 31
	TAIL64_PREP	\kind
	XTS64_IN	\kind, 0, 16
	XTS64_IN	\kind, 1, 17
	XTS64_IN	\kind, 2, 18
	XTS64_IN	\kind, 3, 19
	XTS64_IN	\kind, 4, 20
	XTS64_IN	\kind, 5, 21
	XTS64_IN	\kind, 6, 22
	XTS64_IN	\kind, 7, 23
	XTS64_IN	\kind, 8, 24
	XTS64_IN	\kind, 9, 25
	XTS64_IN	\kind, 10, 26
	XTS64_IN	\kind, 11, 27
	XTS64_IN	\kind, 12, 28
	XTS64_IN	\kind, 13, 29
	XTS64_IN	\kind, 14, 30
	XTS64_IN	\kind, 15, 31
	CALL_BLK	\kind
	vmovdqa64	SM4_ST_OFF(%rsp), %zmm31
	BATCH_REGS	\kind, XTS64_OUT
	BATCH_REGS	\kind, STORE_DST
.ifc \kind, full64
	XTS_MUL_XK	%zmm31, %zmm16, 32
	XTS_MUL_XK	%zmm16, %zmm31, 32
.endif
.exitm
.endif
	BATCH_REGS	\kind, XTS_IN
	CALL_BLK	\kind
	BATCH_REGS	\kind, XTS_OUT
	BATCH_REGS	\kind, STORE_DST
.ifc \kind, full32
	XTS_MUL_XK	%zmm31, %zmm31, 32
.endif
.endm

/* The tweak after the tail of ecx (0..63) blocks: lane 0 of zmm31 * x^ecx. */
.macro XTS_FINISH
	vmovd		%ecx, %xmm10
	mov		$64, %eax
	sub		%ecx, %eax
	vmovd		%eax, %xmm11
	vpsrlq		%xmm11, %xmm31, %xmm8
	vpsllq		%xmm10, %xmm31, %xmm12
	vpclmulqdq	$0x01, .Lxts_poly(%rip), %xmm8, %xmm9
	vpslldq		$8, %xmm8, %xmm8
	vpternlogd	$0x96, %xmm9, %xmm8, %xmm12
	vmovdqu32	%xmm12, (%r8)
.endm

/*
 * Pipelined XTS (__sm4_gfni_xts64_pipe, requests of SM4_PIPE_MIN blocks
 * or more), zmm31 = the request's first tweaks.  XTS_PIPE_FIRST: W =
 * T(0) (the first call has no output, so W does not move on in it) and
 * the first batch's blocks XORed with it in zmm0-15.  XTS_PIPE_LAST: the
 * last batch's blocks XORed with W (by then T of the last batch) to r9,
 * and zmm31 = W[0] * x^64: the first tweaks of the blocks after the
 * batches.
 */
.macro XTS_PIPE_FIRST
	mov		$0xcccc, %eax
	kmovq		%rax, %k1
	.irp j, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.if \j
	XTS_MUL_XK	%zmm31, %zmm16, 4*\j, %zmm17, %zmm18
	vmovdqa64	%zmm16, SM4_XT_OFF + 64 * \j(%rsp)
	vpxord		64 * \j(%rdx), %zmm16, %zmm\j
.else
	vmovdqa64	%zmm31, SM4_XT_OFF(%rsp)
	vpxord		(%rdx), %zmm31, %zmm0
.endif
	.endr
.endm

.macro XTS_PIPE_LAST
	.irp j, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vpxord		SM4_XT_OFF + 64 * \j(%rsp), %zmm\j, %zmm\j
	vmovdqu32	%zmm\j, 64 * \j(%r9)
	.endr
	vmovdqa64	SM4_XT_OFF(%rsp), %zmm31
	vpclmulqdq	$0x01, .Lxts_poly(%rip), %zmm31, %zmm31
	vpxord		SM4_XT_OFF - 8(%rsp), %zmm31, %zmm31{%k1}
.endm

/*
 * void sm4_gfni_avx512_xts(const u32 *rk, u8 *dst, const u8 *src,
 *			    unsigned int nblocks, u8 *tweak)
 * Encryption with rkey_enc, decryption with rkey_dec.
 */
SYM_TYPED_FUNC_START(sm4_gfni_avx512_xts)
	SM4_ENTER	SM4_XTS_FRAME
	vbroadcasti32x4	(%r8), %zmm31
	/* Lane i of zmm31 = tweak * x^i. */
	vpsllvq		.Lxts_shl(%rip), %zmm31, %zmm10
	vpsrlvq		.Lxts_shr(%rip), %zmm31, %zmm8
	vpclmulqdq	$0x01, .Lxts_poly(%rip), %zmm8, %zmm9
	vpslldq		$8, %zmm8, %zmm8
	vpternlogd	$0x96, %zmm9, %zmm8, %zmm10
	vmovdqa64	%zmm10, %zmm31
	PIPE_LOOP	xts, XTS_PIPE_FIRST, XTS_PIPE_LAST, __sm4_gfni_xts64_pipe, 1
	FOR_BATCHES	xts, XTS_BATCH, XTS_FINISH
	SM4_LEAVE	xts=1, pipe=1
SYM_FUNC_END(sm4_gfni_avx512_xts)

/* ---- GCM --------------------------------------------------------- */

/*
 * gcm(sm4)'s GHASH (include/sm4/gcm.h) with VPCLMULQDQ: four blocks per
 * zmm register, or one per xmm register in the 1..4-block tails.
 *
 * Representation.  Blocks are byte-reversed in every lane (.Lgh_bswap),
 * so a register holds the bit-reflected polynomial: bit 127 of a lane is
 * the coefficient of x^0.  For such operands the schoolbook product of
 * GH_MUL (four 64x64 carry-less products: LO = a0*b0, HI = a1*b1, MID =
 * a0*b1 ^ a1*b0) followed by GH_REDUCE computes a*b*x in GF(2^128) (the
 * carry-less product of reflected values is one bit short).  The key's
 * table therefore holds H^k*x^-1, k = 64 .. 1 at offsets 0 .. 1008
 * (SM4_GH_POWERS powers), and a product with it is X*H^k.  At
 * SM4_GH_KOFF (1024) + the same offset it holds the sum h0 ^ h1 of each
 * power's two halves, in both qwords, for sm4_gfni_avx512_ghash_ka:
 * its zmm batches (GH_BATCH with .Lgh_ka) multiply Karatsuba's way,
 * three products a block, MID = (x0 ^ x1)*(h0 ^ h1) ^ LO ^ HI, the last
 * two terms added once to the batch's sums.  On AMD Zen 5, whose
 * VPCLMULQDQ issues one every two cycles at any width, that is about a
 * fifth faster (doc/performance.md); on Intel, where VPCLMULQDQ, VPSHUFB
 * and VPSHUFD all take port 5, the shuffle of x0 ^ x1 replaces the
 * product it saves and the added XORs crowd the other port (llvm-mca:
 * 89 -> 104 cycles a batch), so the glue takes it on AMD's cores only.
 * gcm_enc and sm4_gfni_avx512_ghash keep the four products (GH_MUL).
 *
 * Aggregation.  A batch of n <= 64 blocks X1..Xn hashes as
 *	acc' = (acc ^ X1)*H^n ^ X2*H^(n-1) ^ ... ^ Xn*H
 * with all products summed unreduced, lane by lane, and one reduction.
 * The power for block i of n (0-based) is at 1024 - 16 * (n - i), so the
 * powers of a batch's registers follow in memory as its blocks do, from
 * %rax = table + 1024 - 16 * n.  A partial register's lanes past the
 * last block are zero (the CTR output and loaded data are masked with
 * {z}) and the power rows under the same mask are not read, so nothing
 * outside the table is.  Only the first register's products depend on
 * the accumulator, so of a batch's GHASH only they, the sums and the
 * reduction wait for the batch before.
 *
 * Reduction (GH_REDUCE).  Being linear, it is done in every lane before
 * the lanes are summed, so one register, not three, goes through the
 * horizontal sum: MID is split into LO and HI, then LO is folded twice,
 * 64 bits at a time, with the reflected remainder of x^128 (0xc2 << 56,
 * .Lgh_poly) into the high half, and the two halves added.
 *
 * The accumulator lives reflected in the frame at SM4_GH_OFF (16 bytes,
 * stored and loaded as xmm, so the load forwards from the store and
 * zero-extends: it adds to the first block of a register only), because
 * __sm4_gfni_blk64 clobbers every vector register.  No memory
 * access depends on key or data.
 */

/*
 * GH_MUL w, first, x, h, t, lo, mid, hi: the products of \x and \h lane
 * by lane into \lo, \mid, \hi (set by \first, added otherwise).
 * Clobbers \x, \t.
 */
.macro GH_MUL w, first, x, h, t, lo, mid, hi
.if \first
	vpclmulqdq	$0x00, %\w\()mm\h, %\w\()mm\x, %\w\()mm\lo
	vpclmulqdq	$0x11, %\w\()mm\h, %\w\()mm\x, %\w\()mm\hi
	vpclmulqdq	$0x01, %\w\()mm\h, %\w\()mm\x, %\w\()mm\t
	vpclmulqdq	$0x10, %\w\()mm\h, %\w\()mm\x, %\w\()mm\mid
	vpxord		%\w\()mm\t, %\w\()mm\mid, %\w\()mm\mid
.else
	vpclmulqdq	$0x00, %\w\()mm\h, %\w\()mm\x, %\w\()mm\t
	vpxord		%\w\()mm\t, %\w\()mm\lo, %\w\()mm\lo
	vpclmulqdq	$0x11, %\w\()mm\h, %\w\()mm\x, %\w\()mm\t
	vpxord		%\w\()mm\t, %\w\()mm\hi, %\w\()mm\hi
	vpclmulqdq	$0x01, %\w\()mm\h, %\w\()mm\x, %\w\()mm\t
	vpclmulqdq	$0x10, %\w\()mm\h, %\w\()mm\x, %\w\()mm\x
	vpternlogd	$0x96, %\w\()mm\t, %\w\()mm\x, %\w\()mm\mid
.endif
.endm

/*
 * GH_REDUCE w, lo, mid, hi, t: \lo = the sum (\w = z: of all lanes, in
 * every lane) of the products in \lo, \mid, \hi, reduced.  Clobbers
 * \mid, \hi, \t.
 */
.macro GH_REDUCE w, lo, mid, hi, t
	vpslldq		$8, %\w\()mm\mid, %\w\()mm\t
	vpsrldq		$8, %\w\()mm\mid, %\w\()mm\mid
	vpxord		%\w\()mm\t, %\w\()mm\lo, %\w\()mm\lo
	vpxord		%\w\()mm\mid, %\w\()mm\hi, %\w\()mm\hi
	vpclmulqdq	$0x00, .Lgh_poly(%rip), %\w\()mm\lo, %\w\()mm\t
	vpshufd		$0x4e, %\w\()mm\lo, %\w\()mm\lo
	vpxord		%\w\()mm\t, %\w\()mm\lo, %\w\()mm\lo
	vpclmulqdq	$0x00, .Lgh_poly(%rip), %\w\()mm\lo, %\w\()mm\t
	vpshufd		$0x4e, %\w\()mm\lo, %\w\()mm\lo
	vpternlogd	$0x96, %\w\()mm\t, %\w\()mm\hi, %\w\()mm\lo
.ifc \w, z
	vshufi64x2	$0x4e, %zmm\lo, %zmm\lo, %zmm\t
	vpxord		%zmm\t, %zmm\lo, %zmm\lo
	vshufi64x2	$0xb1, %zmm\lo, %zmm\lo, %zmm\t
	vpxord		%zmm\t, %zmm\lo, %zmm\lo
.endif
.endm

/*
 * GH_REG kind, j, lo, mid, hi, x, h, t: register \j of a batch into the
 * products: its power(s) from .Lboff(%rax) into \h, and for zmm
 * registers (Karatsuba: LO, HI and MID' = (x0 ^ x1) * (h0 ^ h1), see
 * above) then their halves' sums from .Lboff + SM4_GH_KOFF(%rax), under
 * \j's mask; its blocks byte-reversed into \x, the accumulator added
 * (through \t) if \j is the batch's first register (.Lgh_j0).  The
 * xmm batches (1..4 blocks), whose time is the chain through the
 * accumulator, keep the four products: Karatsuba's shuffle and XOR would
 * lengthen it.  Clobbers \x, \h, \t.
 */
.macro GH_REG kind, j, lo, mid, hi, x, h, t
.if .Lw_is_x || !.Lgh_ka
	MEM_OP_TO	\kind, \j, \h, vmovdqu32, %rax, 0, 1
	.set .Lgh_first, (\j == .Lgh_j0)
.if .Lw_is_x
	GH_REG_W	x, \j, SM4_GH_OFF(%rsp), \lo, \mid, \hi, \x, \h, \t
.else
	GH_REG_W	z, \j, SM4_GH_OFF(%rsp), \lo, \mid, \hi, \x, \h, \t
.endif
.else
	GH_REG_KA	z, \kind, \j, \lo, \mid, \hi, \x, \h, \t
.endif
.endm

.macro GH_REG_KA w, kind, j, lo, mid, hi, x, h, t
	MEM_OP_TO	\kind, \j, \h, vmovdqu32, %rax, 0, 1
	vpshufb		.Lgh_bswap(%rip), %\w\()mm\j, %\w\()mm\x
.if \j == .Lgh_j0
	vmovdqu32	SM4_GH_OFF(%rsp), %xmm\t
	vpxord		%\w\()mm\t, %\w\()mm\x, %\w\()mm\x
	vpclmulqdq	$0x00, %\w\()mm\h, %\w\()mm\x, %\w\()mm\lo
	vpclmulqdq	$0x11, %\w\()mm\h, %\w\()mm\x, %\w\()mm\hi
.else
	vpclmulqdq	$0x00, %\w\()mm\h, %\w\()mm\x, %\w\()mm\t
	vpxord		%\w\()mm\t, %\w\()mm\lo, %\w\()mm\lo
	vpclmulqdq	$0x11, %\w\()mm\h, %\w\()mm\x, %\w\()mm\t
	vpxord		%\w\()mm\t, %\w\()mm\hi, %\w\()mm\hi
.endif
	MEM_OP_TO	\kind, \j, \h, vmovdqu32, %rax, SM4_GH_KOFF, 1
	vpshufd		$0x4e, %\w\()mm\x, %\w\()mm\t
	vpxord		%\w\()mm\t, %\w\()mm\x, %\w\()mm\x
.if \j == .Lgh_j0
	vpclmulqdq	$0x00, %\w\()mm\h, %\w\()mm\x, %\w\()mm\mid
.else
	vpclmulqdq	$0x00, %\w\()mm\h, %\w\()mm\x, %\w\()mm\t
	vpxord		%\w\()mm\t, %\w\()mm\mid, %\w\()mm\mid
.endif
.endm

/*
 * GH_REG_W w, src, acc, lo, mid, hi, x, h, t: the blocks of register
 * \src byte-reversed into \x, plus the accumulator at \acc if
 * .Lgh_first (the sums then set, else added to), times the powers in
 * \h, schoolbook (GH_PIPE_STEP).  Clobbers \x, \t.
 */
.macro GH_REG_W w, src, acc, lo, mid, hi, x, h, t
	vpshufb		.Lgh_bswap(%rip), %\w\()mm\src, %\w\()mm\x
.if .Lgh_first
	vmovdqu32	\acc, %xmm\t
	vpxord		%\w\()mm\t, %\w\()mm\x, %\w\()mm\x
	GH_MUL		\w, 1, \x, \h, \t, \lo, \mid, \hi
.else
	GH_MUL		\w, 0, \x, \h, \t, \lo, \mid, \hi
.endif
.endm

/* The registers of the products: zmm8-13, or zmm16-19, 26, 27. */
.macro GH_REG_LO kind, j
	GH_REG		\kind, \j, 8, 9, 10, 11, 12, 13
.endm

.macro GH_REG_HI kind, j
	GH_REG		\kind, \j, 16, 17, 18, 19, 26, 27
.endm

/*
 * GH_BATCH kind: hash the blocks of a batch, in its registers, into the
 * accumulator (ecx = the batch's blocks in the partial kinds): every
 * register's products summed, one reduction.  In: r8 = the struct
 * sm4_ghash.  Clobbers rax, r9, zmm8-13 or (64-block kinds, whose batch
 * used every register) zmm16-19, 26, 27.
 */
.macro GH_BATCH kind
	BATCH_GEOM	\kind, 4
	.set .Lgh_j0, .Lfirst
	.set .Lgh_n, 0
	.set .Lgh_64, 0
.ifc \kind, full64
	.set .Lgh_n, 64
	.set .Lgh_64, 1
.endif
.ifc \kind, tail64
	.set .Lgh_64, 1
.endif
.ifc \kind, full32
	.set .Lgh_n, 32
.endif
	/* rax = table + 16 * (SM4_GH_POWERS - n), n from ecx if not known */
	mov		SM4_GHASH_TABLE(%r8), %rax
.if .Lgh_n == 0
	mov		%ecx, %r9d
	shl		$4, %r9d
	add		$(16 * SM4_GH_POWERS), %rax
	sub		%r9, %rax
.elseif .Lgh_n < SM4_GH_POWERS
	add		$(16 * (SM4_GH_POWERS - .Lgh_n)), %rax
.endif
.if .Lgh_64
	BATCH_REGS	\kind, GH_REG_HI
.if .Lgh_ka
	vpternlogd	$0x96, %zmm16, %zmm18, %zmm17
.endif
	GH_REDUCE	z, 16, 17, 18, 19
	vmovdqu32	%xmm16, SM4_GH_OFF(%rsp)
.else
	BATCH_REGS	\kind, GH_REG_LO
.if .Lw_is_x
	GH_REDUCE	x, 8, 9, 10, 11
.else
.if .Lgh_ka
	vpternlogd	$0x96, %zmm8, %zmm10, %zmm9
.endif
	GH_REDUCE	z, 8, 9, 10, 11
.endif
	vmovdqu32	%xmm8, SM4_GH_OFF(%rsp)
.endif
.endm

/*
 * The accumulator of the struct sm4_ghash at r8 into the frame, and back
 * at the end (the frame's copy wiped).  Clobber zmm8.
 */
.macro GH_START
	vmovdqu32	SM4_GHASH_ACC(%r8), %xmm8
	vpshufb		.Lgh_bswap(%rip), %xmm8, %xmm8
	vmovdqu32	%xmm8, SM4_GH_OFF(%rsp)
.endm

.macro GH_FINISH
	vmovdqu32	SM4_GH_OFF(%rsp), %xmm8
	vpshufb		.Lgh_bswap(%rip), %xmm8, %xmm8
	vmovdqu32	%xmm8, SM4_GHASH_ACC(%r8)
	vpxord		%xmm8, %xmm8, %xmm8
	vmovdqu32	%xmm8, SM4_GH_OFF(%rsp)
.endm

/*
 * void sm4_gfni_avx512_gcm_init(u8 *table, const u8 *h)
 * The table: H*x^-1 = H*x^-2*x (a product with x^-2, .Lgh_xinv2), then
 * H^k*x^-1 = H^(k-1)*x^-1 * H*x^-1 * x for k up to SM4_GH_POWERS, from
 * offset 1008 down to 0, each with its halves' sum SM4_GH_KOFF further.
 * Every vector register used is cleared before returning.
 */
.if SM4_GH_KOFF + SM4_GH_POWERS * 16 > SM4_GCM_TABLE_SIZE
	.error "gcm_init: its table exceeds SM4_GCM_TABLE_SIZE"
.endif
SYM_TYPED_FUNC_START(sm4_gfni_avx512_gcm_init)
	vmovdqu32	(%rsi), %xmm11
	vpshufb		.Lgh_bswap(%rip), %xmm11, %xmm11
	vmovdqu32	.Lgh_xinv2(%rip), %xmm12
	GH_MUL		x, 1, 11, 12, 13, 8, 9, 10
	GH_REDUCE	x, 8, 9, 10, 11
	vmovdqa64	%xmm8, %xmm12
	lea		(SM4_GH_POWERS * 16 - 16)(%rdi), %rax
	jmp		.Lgcm_init_store
.Lgcm_init_loop:
	vmovdqa64	%xmm8, %xmm11
	GH_MUL		x, 1, 11, 12, 13, 8, 9, 10
	GH_REDUCE	x, 8, 9, 10, 11
	sub		$16, %rax
.Lgcm_init_store:
	vmovdqu32	%xmm8, (%rax)
	vpshufd		$0x4e, %xmm8, %xmm9
	vpxord		%xmm8, %xmm9, %xmm9
	vmovdqu32	%xmm9, SM4_GH_KOFF(%rax)
	cmp		%rdi, %rax
	jne		.Lgcm_init_loop
	vzeroall
	RET
SYM_FUNC_END(sm4_gfni_avx512_gcm_init)

/* The blocks of a batch of src into its registers, then into GHASH. */
.macro GHASH_BATCH kind
	TAIL64_PREP	\kind
	BATCH_REGS	\kind, LOAD_SRC
	GH_BATCH	\kind
.endm

/*
 * void sm4_gfni_avx512_ghash(struct sm4_ghash *gh, const u8 *src,
 *			      unsigned int nblocks)
 * void sm4_gfni_avx512_ghash_ka(...), the same with Karatsuba's zmm
 * batches (the glue's choice on AMD's cores: see above)
 * The batches of the other modes (no cipher: the frame holds only the
 * accumulator).
 */
.macro GHASH_FUNC name, ka
.set .Lgh_off, 0
.set .Lgh_ka, \ka
SYM_TYPED_FUNC_START(\name)
	mov		%edx, %ecx
	test		%ecx, %ecx
	jnz		.L\name\()_enter
	RET
.L\name\()_enter:
	push		%rbp
	mov		%rsp, %rbp
	and		$-64, %rsp
	sub		$SM4_GHASH_FRAME, %rsp
	mov		%rdi, %r8
	mov		%rsi, %rdx
	GH_START
	FOR_BATCHES	\name, GHASH_BATCH, NOTHING
	GH_FINISH
	SM4_CLEAR_VREGS
	leave
	RET
SYM_FUNC_END(\name)
.endm

GHASH_FUNC	sm4_gfni_avx512_ghash, 0
GHASH_FUNC	sm4_gfni_avx512_ghash_ka, 1

/* Here, where GH_PIPE_STEP's GH_REDUCE is defined. */
SYM_FUNC_START_LOCAL(__sm4_gfni_gcm64_pipe)
	SM4_BLK64_PIPE	SM4_PIPE_GCM
	RET
SYM_FUNC_END(__sm4_gfni_gcm64_pipe)

/* A CTR batch, then its ciphertext, still in its registers, into GHASH. */
.macro GCM_BATCH kind
	CTR_BATCH	\kind
	GH_BATCH	\kind
.endm

/*
 * void sm4_gfni_avx512_gcm_enc(const u32 *rk, u8 *dst, const u8 *src,
 *				unsigned int nblocks, u8 *ctr,
 *				struct sm4_ghash *gh)
 * CTR as sm4_gfni_avx512_ctr, each batch's ciphertext hashed from its
 * registers right after its stores, or for the pipelined batches from
 * their copy in the frame (dst is never read).  gh moves to r8
 * once the counter is set up.
 */
.set .Lgh_off, SM4_GCM_GH_OFF
.set .Lgh_ka, 0
.if SM4_GCM_GH_OFF != SM4_PY_OFF + 1024 || SM4_GC_OFF < SM4_GCM_R8_OFF + 8
	.error "gcm_enc: its frame's slots overlap"
.endif
SYM_TYPED_FUNC_START(sm4_gfni_avx512_gcm_enc)
	SM4_ENTER	SM4_GCM_FRAME
	mov		%r9, %r11
	CTR_START
	mov		%r11, %r8
	GH_START
	CTR_PIPE_LOOP	gcm, GH_BATCH, __sm4_gfni_gcm64_pipe
	CTR_BS_LOOP64	gcm, GH_BATCH
	FOR_BATCHES	gcm, GCM_BATCH, GH_FINISH
	SM4_LEAVE	cb=1, pipe=1, gcm=1
SYM_FUNC_END(sm4_gfni_avx512_gcm_enc)

/* Key expansion: called by sm4_x86_expandkey() (sm4_x86_glue.c). */
SYM_FUNC_START(sm4_gfni_avx512_expand_key)
	SM4_GFNI_EXPAND_KEY_BODY
SYM_FUNC_END(sm4_gfni_avx512_expand_key)
