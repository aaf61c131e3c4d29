/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GHASH with PMULL and GCM encryption fused with it (struct sm4_gcm_ops
 * of include/sm4/gcm.h) on the SM4 Crypto Extensions, #included by
 * sm4-ce-core.S after sm4-ce-block.S and sm4-modes.S.
 *
 * Field elements: a GCM block (SP 800-38D bit order: the first bit is the
 * coefficient of x^0) with the bits of each byte reversed (RBIT) is, read
 * as a little-endian 128-bit integer, the polynomial with bit k the
 * coefficient of x^k.  PMULL multiplies exactly such polynomials, so no
 * shifts are needed: a product's 256 bits are reduced modulo
 * x^128 + x^7 + x^2 + x + 1 by folding its top two 64-bit words down
 * with two carry-less multiplications by 0x87 (x^128 = 0x87).
 *
 * The key's table (ops->init): H^1 .. H^8 in that form, 16 bytes each.
 * Eight blocks are hashed per reduction: acc' = (acc ^ C1) H^8 ^ C2 H^7
 * ^ ... ^ C8 H, each product as four 64x64 PMULLs (low, high and the two
 * middle ones) summed before one reduction.
 */

#include <sm4/gcm_layout.h>

	.arch	armv8-a+crypto

/*
 * struct sm4_ghash as include/sm4/gcm_layout.h has it: .table is loaded
 * from SM4_GHASH_TABLE, .acc by LD1/ST1, which take no offset, so it must
 * come first.  The table is H^1 .. H^8, 16 bytes each.
 */
.if SM4_GHASH_ACC != 0
	.error "sm4-ce-gcm.S: .acc of struct sm4_ghash is not at offset 0"
.endif
.if 8 * 16 > SM4_GCM_TABLE_SIZE
	.error "sm4-ce-gcm.S: H^1 .. H^8 do not fit in SM4_GCM_TABLE_SIZE"
.endif

/*
 * Multiply block v\c (already in the RBIT form) by v\p: \first starts
 * the sums v\lo, v\hi, v\mid, otherwise adds to them.  v\c is kept;
 * v\t1, v\t2 are clobbered.
 */
.macro gh_mul, first, c, p, lo, hi, mid, t1, t2
	ext	v\t2\().16b, v\c\().16b, v\c\().16b, #8
	.if	\first
	pmull	v\lo\().1q, v\c\().1d, v\p\().1d
	pmull2	v\hi\().1q, v\c\().2d, v\p\().2d
	pmull	v\mid\().1q, v\t2\().1d, v\p\().1d
	pmull2	v\t2\().1q, v\t2\().2d, v\p\().2d
	eor	v\mid\().16b, v\mid\().16b, v\t2\().16b
	.else
	pmull	v\t1\().1q, v\c\().1d, v\p\().1d
	eor	v\lo\().16b, v\lo\().16b, v\t1\().16b
	pmull2	v\t1\().1q, v\c\().2d, v\p\().2d
	eor	v\hi\().16b, v\hi\().16b, v\t1\().16b
	pmull	v\t1\().1q, v\t2\().1d, v\p\().1d
	eor	v\mid\().16b, v\mid\().16b, v\t1\().16b
	pmull2	v\t2\().1q, v\t2\().2d, v\p\().2d
	eor	v\mid\().16b, v\mid\().16b, v\t2\().16b
	.endif
.endm

/*
 * v\acc = (v\lo + v\mid x^64 + v\hi x^128) mod P; v\k holds 0x87 in both
 * halves, v\z is zero.  v\lo, v\hi, v\mid, v\t are clobbered.
 */
.macro gh_reduce, acc, lo, hi, mid, k, z, t
	ext	v\t\().16b, v\z\().16b, v\mid\().16b, #8	/* mid << 64 */
	eor	v\lo\().16b, v\lo\().16b, v\t\().16b
	ext	v\t\().16b, v\mid\().16b, v\z\().16b, #8	/* mid >> 64 */
	eor	v\hi\().16b, v\hi\().16b, v\t\().16b
	/* words p0 p1 (lo) p2 p3 (hi): fold p3 into p1 p2 */
	pmull2	v\t\().1q, v\hi\().2d, v\k\().2d
	ext	v\mid\().16b, v\t\().16b, v\z\().16b, #8
	eor	v\hi\().16b, v\hi\().16b, v\mid\().16b
	ext	v\mid\().16b, v\z\().16b, v\t\().16b, #8
	eor	v\lo\().16b, v\lo\().16b, v\mid\().16b
	/* then p2 into p0 p1 */
	pmull	v\t\().1q, v\hi\().1d, v\k\().1d
	eor	v\acc\().16b, v\lo\().16b, v\t\().16b
.endm

/* v\k = 0x87 in both halves, v\z = 0 (uses x9). */
.macro gh_consts, k, z
	mov	x9, #0x87
	dup	v\k\().2d, x9
	movi	v\z\().16b, #0
.endm

/* H^1 .. H^8 of the table at \tbl into v24 .. v31 (uses x9). */
.macro gh_load_powers, tbl
	mov	x9, \tbl
	ld1	{v24.16b-v27.16b}, [x9], #64
	ld1	{v28.16b-v31.16b}, [x9]
.endm

/* Blocks v0 .. v7 (RBIT form, acc already added to v0) times H^8 .. H. */
.macro gh_mul8, lo, hi, mid, t1, t2
	gh_mul	1, 0, 31, \lo, \hi, \mid, \t1, \t2
	gh_mul	0, 1, 30, \lo, \hi, \mid, \t1, \t2
	gh_mul	0, 2, 29, \lo, \hi, \mid, \t1, \t2
	gh_mul	0, 3, 28, \lo, \hi, \mid, \t1, \t2
	gh_mul	0, 4, 27, \lo, \hi, \mid, \t1, \t2
	gh_mul	0, 5, 26, \lo, \hi, \mid, \t1, \t2
	gh_mul	0, 6, 25, \lo, \hi, \mid, \t1, \t2
	gh_mul	0, 7, 24, \lo, \hi, \mid, \t1, \t2
.endm

.macro gh_rbit, b, rest:vararg
	rbit	v\b\().16b, v\b\().16b
	.ifnb	\rest
	gh_rbit	\rest
	.endif
.endm

/* v\next = v\prev H (H in v24), scratch v16 .. v19, v22; v20 v21 consts. */
.macro gh_power, prev, next
	gh_mul	1, \prev, 24, 16, 17, 18, 19, 22
	gh_reduce \next, 16, 17, 18, 20, 21, 19
.endm

/*
 * void sm4_ce_gcm_init(u8 *table, const u8 *h);
 *
 * Registers: v24 .. v31 the powers, v16 .. v22 scratch; all zeroed
 * before returning, as in every function here (v8 .. v15, which
 * sm4_ce_gcm_enc uses, by the restore of sm4_modes_leave).
 */
SYM_TYPED_FUNC_START(sm4_ce_gcm_init)
	ld1	{v24.16b}, [x1]
	rbit	v24.16b, v24.16b
	gh_consts 20, 21
	gh_power 24, 25
	gh_power 25, 26
	gh_power 26, 27
	gh_power 27, 28
	gh_power 28, 29
	gh_power 29, 30
	gh_power 30, 31
	st1	{v24.16b-v27.16b}, [x0], #64
	st1	{v28.16b-v31.16b}, [x0]
	sm4_wipe_v 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	ret
SYM_FUNC_END(sm4_ce_gcm_init)

/*
 * void sm4_ce_ghash(struct sm4_ghash *gh, const u8 *src,
 *		     unsigned int nblocks);
 *
 * gh->acc at x0, gh->table at x0 + SM4_GHASH_TABLE.  Registers: v0 .. v7
 * blocks, v16 acc, v17 .. v19 the sums, v20 0x87, v21 zero, v22 v23
 * scratch, v24 .. v31 the powers.
 */
SYM_TYPED_FUNC_START(sm4_ce_ghash)
	cbz	w2, .Lghash_ret
	ldr	x8, [x0, #SM4_GHASH_TABLE]
	gh_load_powers x8
	ld1	{v16.16b}, [x0]
	rbit	v16.16b, v16.16b
	gh_consts 20, 21
.Lghash_loop8:
	cmp	w2, #8
	b.lo	.Lghash_tail
	ld1	{v0.16b-v3.16b}, [x1], #64
	ld1	{v4.16b-v7.16b}, [x1], #64
	gh_rbit	0, 1, 2, 3, 4, 5, 6, 7
	eor	v0.16b, v0.16b, v16.16b
	gh_mul8	17, 18, 19, 22, 23
	gh_reduce 16, 17, 18, 19, 20, 21, 22
	sub	w2, w2, #8
	b	.Lghash_loop8
.Lghash_tail:
	cbz	w2, .Lghash_done
.Lghash_loop1:
	ld1	{v0.16b}, [x1], #16
	rbit	v0.16b, v0.16b
	eor	v0.16b, v0.16b, v16.16b
	gh_mul	1, 0, 24, 17, 18, 19, 22, 23
	gh_reduce 16, 17, 18, 19, 20, 21, 22
	subs	w2, w2, #1
	b.ne	.Lghash_loop1
.Lghash_done:
	rbit	v16.16b, v16.16b
	st1	{v16.16b}, [x0]
	sm4_wipe_v 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, \
		   24, 25, 26, 27, 28, 29, 30, 31
.Lghash_ret:
	ret
SYM_FUNC_END(sm4_ce_ghash)

/*
 * void sm4_ce_gcm_enc(const u32 *rk, u8 *dst, const u8 *src,
 *		       unsigned int nblocks, u8 *ctr, struct sm4_ghash *gh);
 *
 * CTR as sm4_ce_bulk_ctr, eight blocks at a time, and GHASH of the
 * ciphertext from the registers (dst is never read).  Registers: v0 .. v7
 * blocks, v8 scratch, v9 .. v11 the sums, v12 acc, v13 0x87, v14 zero,
 * v15 scratch, v16 .. v23 round keys, v24 .. v31 the powers; d8 .. d15
 * are saved by sm4_modes_enter.
 */
SYM_TYPED_FUNC_START(sm4_ce_gcm_enc)
	sm4_modes_enter
	ldr	x8, [x5, #SM4_GHASH_TABLE]
	gh_load_powers x8
	ld1	{v12.16b}, [x5]
	rbit	v12.16b, v12.16b
	gh_consts 13, 14
	ldp	x6, x7, [x4]
CPU_LE(	rev	x6, x6	)
CPU_LE(	rev	x7, x7	)
.Lgcm_loop8:
	cmp	w3, #8
	b.lo	.Lgcm_tail
	sm4_ctr8
	gh_rbit	0, 1, 2, 3, 4, 5, 6, 7
	eor	v0.16b, v0.16b, v12.16b
	gh_mul8	9, 10, 11, 15, 8
	gh_reduce 12, 9, 10, 11, 13, 14, 15
	sub	w3, w3, #8
	b	.Lgcm_loop8
.Lgcm_tail:
	cbz	w3, .Lgcm_done
.Lgcm_loop1:
	sm4_ctr_next 0
	sm4_ce_crypt 0
	ld1	{v8.16b}, [x2], #16
	eor	v0.16b, v0.16b, v8.16b
	st1	{v0.16b}, [x1], #16
	rbit	v0.16b, v0.16b
	eor	v0.16b, v0.16b, v12.16b
	gh_mul	1, 0, 24, 9, 10, 11, 15, 8
	gh_reduce 12, 9, 10, 11, 13, 14, 15
	subs	w3, w3, #1
	b.ne	.Lgcm_loop1
.Lgcm_done:
	rbit	v12.16b, v12.16b
	st1	{v12.16b}, [x5]
CPU_LE(	rev	x6, x6	)
CPU_LE(	rev	x7, x7	)
	stp	x6, x7, [x4]
	sm4_modes_leave
SYM_FUNC_END(sm4_ce_gcm_enc)
