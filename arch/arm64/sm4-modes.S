/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 modes of operation for arm64, written once for both backends.
 *
 * This file is #included by sm4-neon-core.S and sm4-ce-core.S.  Before
 * including it a backend defines:
 *
 *   SM4_FN(name)     the symbol of bulk function @name (cpp macro)
 *   sm4_load_state   load whatever the block macros need (S-box or round
 *                    keys) from the round keys at x0; may use x12-x15
 *   sm4_crypt1       encrypt the block in v0; may clobber v1-v3
 *   sm4_crypt4       encrypt the blocks in v0-v3; preserves v4-v7
 *   sm4_crypt8       encrypt the blocks in v0-v7
 *
 * Blocks are in memory byte order.  "Encrypt" means applying the 32
 * rounds with the schedule at x0, so decryption is the same code with
 * rkey_dec.  Register use, common to both backends:
 *
 *   x0-x4    the C arguments (rk, dst, src, nblocks, iv), x5-x11 mode
 *            state; the block macros may clobber x12-x15 only
 *   v0-v7    blocks
 *   v8-v11   scratch: clobbered by the block macros, free between them
 *   v12-v14  reserved for backend constants: the modes never touch them
 *   v15      chaining value, preserved by the block macros
 *   v16-v31  backend state set up by sm4_load_state
 *
 * Every function follows the C prototypes of SM4_DEFINE_MODE_OPS() in
 * include/sm4/modes.h and is reached through a function pointer, hence
 * SYM_TYPED_FUNC_START.  Runs of eight blocks use sm4_crypt8; what is left
 * (one to seven blocks) goes through sm4_crypt4 in chunks of up to four,
 * loading and storing only the blocks that exist.  CBC and CFB encryption
 * are serial and use sm4_crypt1.  The modes save d8-d15 (callee-saved in
 * the AAPCS64) so the same object is correct in the userspace tests; in
 * the kernel it only costs a few stores.
 */

#include "sm4-vwipe.h"

/*
 * No blocks: return at once, touching no memory (not even the IV).
 * Otherwise the frame record, d8-d15, then the backend's state.  On the
 * way out every vector register is left zero or as the caller had it:
 * v0-v7 and v16-v31 zeroed, v8-v15 restored from the saved d8-d15.
 */
.macro sm4_modes_enter
	cbnz	w3, .Lsm4_enter\@
	ret
.Lsm4_enter\@:
	stp	x29, x30, [sp, #-80]!
	mov	x29, sp
	stp	d8, d9, [sp, #16]
	stp	d10, d11, [sp, #32]
	stp	d12, d13, [sp, #48]
	stp	d14, d15, [sp, #64]
	sm4_load_state
.endm

.macro sm4_modes_leave
	sm4_wipe_v 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, \
		   24, 25, 26, 27, 28, 29, 30, 31
	ldp	d8, d9, [sp, #16]
	ldp	d10, d11, [sp, #32]
	ldp	d12, d13, [sp, #48]
	ldp	d14, d15, [sp, #64]
	ldp	x29, x30, [sp], #80
	ret
.endm

/*
 * Expand "\op i, i+4" for i = 0, 1, 2, 3 while i < w3 (w3 >= 1), i.e. for
 * each block of a chunk of min(w3, 4) blocks.  \op may change the flags.
 */
.macro sm4_each_tail, op
	\op	0, 4
	cmp	w3, #1
	b.ls	.Lsm4_tail_end\@
	\op	1, 5
	cmp	w3, #2
	b.ls	.Lsm4_tail_end\@
	\op	2, 6
	cmp	w3, #3
	b.ls	.Lsm4_tail_end\@
	\op	3, 7
.Lsm4_tail_end\@:
.endm

.macro sm4_ld8
	ld1	{v0.16b-v3.16b}, [x2], #64
	ld1	{v4.16b-v7.16b}, [x2], #64
.endm

.macro sm4_st8
	st1	{v0.16b-v3.16b}, [x1], #64
	st1	{v4.16b-v7.16b}, [x1], #64
.endm

/* Load or store the next block as block \i of a chunk. */
.macro sm4_ld_blk, i, j
	ld1	{v\i\().16b}, [x2], #16
.endm

.macro sm4_st_blk, i, j
	st1	{v\i\().16b}, [x1], #16
.endm

/* ---- ECB ------------------------------------------------------------- */

SYM_TYPED_FUNC_START(SM4_FN(ecb))
	sm4_modes_enter
.Lecb_loop8:
	cmp	w3, #8
	b.lo	.Lecb_tail
	sm4_ld8
	sm4_crypt8
	sm4_st8
	sub	w3, w3, #8
	b	.Lecb_loop8
.Lecb_tail:
	cbz	w3, .Lecb_done
.Lecb_tail_loop:
	sm4_each_tail sm4_ld_blk
	sm4_crypt4
	sm4_each_tail sm4_st_blk
	subs	w3, w3, #4
	b.gt	.Lecb_tail_loop
.Lecb_done:
	sm4_modes_leave
SYM_FUNC_END(SM4_FN(ecb))

/* ---- CBC ------------------------------------------------------------- */

/* Serial: C[i] = E(P[i] ^ C[i-1]), chained in v0. */
SYM_TYPED_FUNC_START(SM4_FN(cbc_enc))
	sm4_modes_enter
	ld1	{v0.16b}, [x4]
.Lcbc_enc_loop:
	ld1	{v8.16b}, [x2], #16
	eor	v0.16b, v0.16b, v8.16b
	sm4_crypt1
	st1	{v0.16b}, [x1], #16
	subs	w3, w3, #1
	b.ne	.Lcbc_enc_loop
	st1	{v0.16b}, [x4]
	sm4_modes_leave
SYM_FUNC_END(SM4_FN(cbc_enc))

/* Keep a copy of ciphertext block \i in v\j (sm4_crypt4 preserves it). */
.macro sm4_cbc_dec_ld, i, j
	ld1	{v\i\().16b}, [x2], #16
	mov	v\j\().16b, v\i\().16b
.endm

/* P[i] = D(C[i]) ^ C[i-1]; v15 carries C[i-1] from block to block. */
.macro sm4_cbc_dec_st, i, j
	eor	v\i\().16b, v\i\().16b, v15.16b
	mov	v15.16b, v\j\().16b
	st1	{v\i\().16b}, [x1], #16
.endm

/*
 * Parallel.  After sm4_crypt8 the ciphertext is read again from src
 * (before anything is stored, so src == dst works) to chain the blocks.
 */
SYM_TYPED_FUNC_START(SM4_FN(cbc_dec))
	sm4_modes_enter
	ld1	{v15.16b}, [x4]
.Lcbc_dec_loop8:
	cmp	w3, #8
	b.lo	.Lcbc_dec_tail
	sm4_ld8
	sm4_crypt8
	sub	x5, x2, #128
	ld1	{v8.16b-v11.16b}, [x5], #64
	eor	v0.16b, v0.16b, v15.16b
	eor	v1.16b, v1.16b, v8.16b
	eor	v2.16b, v2.16b, v9.16b
	eor	v3.16b, v3.16b, v10.16b
	eor	v4.16b, v4.16b, v11.16b
	ld1	{v8.16b-v11.16b}, [x5]
	eor	v5.16b, v5.16b, v8.16b
	eor	v6.16b, v6.16b, v9.16b
	eor	v7.16b, v7.16b, v10.16b
	mov	v15.16b, v11.16b
	sm4_st8
	sub	w3, w3, #8
	b	.Lcbc_dec_loop8
.Lcbc_dec_tail:
	cbz	w3, .Lcbc_dec_done
.Lcbc_dec_tail_loop:
	sm4_each_tail sm4_cbc_dec_ld
	sm4_crypt4
	sm4_each_tail sm4_cbc_dec_st
	subs	w3, w3, #4
	b.gt	.Lcbc_dec_tail_loop
.Lcbc_dec_done:
	st1	{v15.16b}, [x4]
	sm4_modes_leave
SYM_FUNC_END(SM4_FN(cbc_dec))

/* ---- CFB ------------------------------------------------------------- */

/* Serial: C[i] = E(C[i-1]) ^ P[i], chained in v0. */
SYM_TYPED_FUNC_START(SM4_FN(cfb_enc))
	sm4_modes_enter
	ld1	{v0.16b}, [x4]
.Lcfb_enc_loop:
	sm4_crypt1
	ld1	{v8.16b}, [x2], #16
	eor	v0.16b, v0.16b, v8.16b
	st1	{v0.16b}, [x1], #16
	subs	w3, w3, #1
	b.ne	.Lcfb_enc_loop
	st1	{v0.16b}, [x4]
	sm4_modes_leave
SYM_FUNC_END(SM4_FN(cfb_enc))

.macro sm4_cfb_dec_ld, i, j
	ld1	{v\j\().16b}, [x2], #16
.endm

/* P[i] = E(C[i-1]) ^ C[i]; the last C[i] stored becomes the IV. */
.macro sm4_cfb_dec_st, i, j
	eor	v\i\().16b, v\i\().16b, v\j\().16b
	mov	v15.16b, v\j\().16b
	st1	{v\i\().16b}, [x1], #16
.endm

/* Parallel: encrypt IV, C[0] .. C[6] together; C[7] is the next IV. */
SYM_TYPED_FUNC_START(SM4_FN(cfb_dec))
	sm4_modes_enter
	ld1	{v15.16b}, [x4]
.Lcfb_dec_loop8:
	cmp	w3, #8
	b.lo	.Lcfb_dec_tail
	mov	v0.16b, v15.16b
	ld1	{v1.16b-v4.16b}, [x2], #64
	ld1	{v5.16b-v7.16b}, [x2], #48
	ld1	{v15.16b}, [x2], #16
	sm4_crypt8
	sub	x5, x2, #128
	ld1	{v8.16b-v11.16b}, [x5], #64
	eor	v0.16b, v0.16b, v8.16b
	eor	v1.16b, v1.16b, v9.16b
	eor	v2.16b, v2.16b, v10.16b
	eor	v3.16b, v3.16b, v11.16b
	ld1	{v8.16b-v11.16b}, [x5]
	eor	v4.16b, v4.16b, v8.16b
	eor	v5.16b, v5.16b, v9.16b
	eor	v6.16b, v6.16b, v10.16b
	eor	v7.16b, v7.16b, v11.16b
	sm4_st8
	sub	w3, w3, #8
	b	.Lcfb_dec_loop8
.Lcfb_dec_tail:
	cbz	w3, .Lcfb_dec_done
.Lcfb_dec_tail_loop:
	sm4_each_tail sm4_cfb_dec_ld
	mov	v0.16b, v15.16b
	mov	v1.16b, v4.16b
	mov	v2.16b, v5.16b
	mov	v3.16b, v6.16b
	sm4_crypt4
	sm4_each_tail sm4_cfb_dec_st
	subs	w3, w3, #4
	b.gt	.Lcfb_dec_tail_loop
.Lcfb_dec_done:
	st1	{v15.16b}, [x4]
	sm4_modes_leave
SYM_FUNC_END(SM4_FN(cfb_dec))

/* ---- CTR ------------------------------------------------------------- */

/*
 * The counter is kept as a 128-bit integer in x6 (high) : x7 (low) and
 * incremented with a full carry; v\i gets its big-endian encoding.
 */
.macro sm4_ctr_next, i
	fmov	d\i, x6
	mov	v\i\().d[1], x7
	rev64	v\i\().16b, v\i\().16b
	adds	x7, x7, #1
	adc	x6, x6, xzr
.endm

.macro sm4_ctr_ld, i, j
	sm4_ctr_next \i
	ld1	{v\j\().16b}, [x2], #16
.endm

.macro sm4_ctr_st, i, j
	eor	v\i\().16b, v\i\().16b, v\j\().16b
	st1	{v\i\().16b}, [x1], #16
.endm

/*
 * Eight blocks of CTR: src (x2) -> dst (x1), both advanced; the
 * ciphertext stays in v0-v7 (GCM hashes it from there).
 */
.macro sm4_ctr8
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	sm4_ctr_next \i
	.endr
	sm4_crypt8
	ld1	{v8.16b-v11.16b}, [x2], #64
	eor	v0.16b, v0.16b, v8.16b
	eor	v1.16b, v1.16b, v9.16b
	eor	v2.16b, v2.16b, v10.16b
	eor	v3.16b, v3.16b, v11.16b
	ld1	{v8.16b-v11.16b}, [x2], #64
	eor	v4.16b, v4.16b, v8.16b
	eor	v5.16b, v5.16b, v9.16b
	eor	v6.16b, v6.16b, v10.16b
	eor	v7.16b, v7.16b, v11.16b
	sm4_st8
.endm

SYM_TYPED_FUNC_START(SM4_FN(ctr))
	sm4_modes_enter
	ldp	x6, x7, [x4]
CPU_LE(	rev	x6, x6	)
CPU_LE(	rev	x7, x7	)
.Lctr_loop8:
	cmp	w3, #8
	b.lo	.Lctr_tail
	sm4_ctr8
	sub	w3, w3, #8
	b	.Lctr_loop8
.Lctr_tail:
	cbz	w3, .Lctr_done
.Lctr_tail_loop:
	sm4_each_tail sm4_ctr_ld
	sm4_crypt4
	sm4_each_tail sm4_ctr_st
	subs	w3, w3, #4
	b.gt	.Lctr_tail_loop
.Lctr_done:
CPU_LE(	rev	x6, x6	)
CPU_LE(	rev	x7, x7	)
	stp	x6, x7, [x4]
	sm4_modes_leave
SYM_FUNC_END(SM4_FN(ctr))

/* ---- XTS ------------------------------------------------------------- */

/*
 * The tweak is kept as a 128-bit little-endian integer in a pair of
 * registers (low, high); x11 holds the reduction constant 0x87.
 * Multiply it by x: shift left by one and fold the carry back in.
 */
.macro sm4_xts_mul_x, lo, hi
	and	x10, x11, \hi, asr #63
	extr	\hi, \hi, \lo, #63
	eor	\lo, x10, \lo, lsl #1
.endm

/* v\i ^= tweak (\lo, \hi), through v\t; then advance the tweak. */
.macro sm4_xts_xor, i, t, lo, hi
	fmov	d\t, \lo
	mov	v\t\().d[1], \hi
	eor	v\i\().16b, v\i\().16b, v\t\().16b
	sm4_xts_mul_x \lo, \hi
.endm

/* Chunk of up to four: the tweaks wait in v4-v7 (kept by sm4_crypt4). */
.macro sm4_xts_ld, i, j
	ld1	{v\i\().16b}, [x2], #16
	sm4_xts_xor \i, \j, x6, x7
.endm

.macro sm4_xts_st, i, j
	eor	v\i\().16b, v\i\().16b, v\j\().16b
	st1	{v\i\().16b}, [x1], #16
.endm

/*
 * One function for both directions (called with rkey_enc or rkey_dec).
 * The tweaks of a run of eight are applied before sm4_crypt8 and
 * recomputed from the saved first one (x8 : x9) afterwards, so that no
 * vector register has to survive the block function.
 */
SYM_TYPED_FUNC_START(SM4_FN(xts))
	sm4_modes_enter
	ldp	x6, x7, [x4]
CPU_BE(	rev	x6, x6	)
CPU_BE(	rev	x7, x7	)
	mov	x11, #0x87
.Lxts_loop8:
	cmp	w3, #8
	b.lo	.Lxts_tail
	sm4_ld8
	mov	x8, x6
	mov	x9, x7
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	sm4_xts_xor \i, 8, x6, x7
	.endr
	sm4_crypt8
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	sm4_xts_xor \i, 8, x8, x9
	.endr
	sm4_st8
	sub	w3, w3, #8
	b	.Lxts_loop8
.Lxts_tail:
	cbz	w3, .Lxts_done
.Lxts_tail_loop:
	sm4_each_tail sm4_xts_ld
	sm4_crypt4
	sm4_each_tail sm4_xts_st
	subs	w3, w3, #4
	b.gt	.Lxts_tail_loop
.Lxts_done:
CPU_BE(	rev	x6, x6	)
CPU_BE(	rev	x7, x7	)
	stp	x6, x7, [x4]
	/* The tweaks out of the general registers too. */
	mov	x6, xzr
	mov	x7, xzr
	mov	x8, xzr
	mov	x9, xzr
	mov	x10, xzr
	sm4_modes_leave
SYM_FUNC_END(SM4_FN(xts))
