/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 for arm64 with plain NEON (ARMv8 Advanced SIMD): sm4-neon.
 *
 * Four or eight blocks are processed together, transposed so that each
 * vector holds one state word of four blocks.  The S-box is applied with
 * TBL/TBX over the whole 256-byte table held in v16-v31 (four lookups of
 * 64 bytes, the index lowered by 64 between them), so no memory access
 * depends on the key or the data.
 *
 * The key expansion (sm4_neon_expand_key, at the end) runs each word of
 * the schedule through the same S-box, so that no memory access at setkey
 * depends on the key either.
 *
 * Register use beyond the contract of sm4-modes.S:
 *   v8-v11   round temporaries (t, y of each group of four blocks)
 *   v12      0x40 in every byte (index step between the four tables)
 *   v13      byte permutation rotating each word left by 8
 *   v14      byte permutation rotating each word left by 24
 *   v16-v31  the S-box
 *   x12      round-key pointer, w13 round counter
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>
#include <linux/errno.h>
#include <asm/assembler.h>

	.text

/* The S-box into v16-v31, through x12 (left just past it). */
.macro sm4_neon_load_sbox
	adr_l	x12, .Lsm4_neon_tables
	ld1	{v16.16b-v19.16b}, [x12], #64
	ld1	{v20.16b-v23.16b}, [x12], #64
	ld1	{v24.16b-v27.16b}, [x12], #64
	ld1	{v28.16b-v31.16b}, [x12], #64
.endm

/* Load the S-box and the constants: state for every bulk function. */
.macro sm4_load_state
	sm4_neon_load_sbox
	ld1	{v13.16b-v14.16b}, [x12]
	movi	v12.16b, #0x40
.endm

/*
 * sm4_neon_sbox step, y, t[, y2, t2]: the S-box on every byte of v\t into
 * v\y (and of v\t2 into v\y2, interleaved with the first), with the S-box
 * in v16-v31 and 0x40 in every byte of v\step: TBL on the first 64 bytes
 * of the table, then TBX on each next 64 with the index lowered by 64
 * (TBL/TBX leave an out-of-range index's byte zero/unchanged).  v\t and
 * v\t2 are used up.
 */
.macro sm4_neon_sbox_look, op, lo, hi, y, t, y2, t2
	\op	v\y\().16b, {v\lo\().16b-v\hi\().16b}, v\t\().16b
	.ifnb	\y2
	\op	v\y2\().16b, {v\lo\().16b-v\hi\().16b}, v\t2\().16b
	.endif
.endm

.macro sm4_neon_sbox_next, step, t, t2
	sub	v\t\().16b, v\t\().16b, v\step\().16b
	.ifnb	\t2
	sub	v\t2\().16b, v\t2\().16b, v\step\().16b
	.endif
.endm

.macro sm4_neon_sbox, step, y, t, y2, t2
	sm4_neon_sbox_look tbl, 16, 19, \y, \t, \y2, \t2
	sm4_neon_sbox_next \step, \t, \t2
	sm4_neon_sbox_look tbx, 20, 23, \y, \t, \y2, \t2
	sm4_neon_sbox_next \step, \t, \t2
	sm4_neon_sbox_look tbx, 24, 27, \y, \t, \y2, \t2
	sm4_neon_sbox_next \step, \t, \t2
	sm4_neon_sbox_look tbx, 28, 31, \y, \t, \y2, \t2
.endm

/*
 * x ^= L(y), with L(y) = y ^ (y <<< 2) ^ (y <<< 10) ^ (y <<< 18) ^
 * (y <<< 24) computed as y ^ (y <<< 24) ^ ((y ^ (y <<< 8) ^ (y <<< 16))
 * <<< 2).  v\t and v\y are used up.
 */
.macro sm4_neon_linear, x, y, t
	eor	v\x\().16b, v\x\().16b, v\y\().16b
	tbl	v\t\().16b, {v\y\().16b}, v14.16b
	eor	v\x\().16b, v\x\().16b, v\t\().16b
	tbl	v\t\().16b, {v\y\().16b}, v13.16b
	eor	v\t\().16b, v\t\().16b, v\y\().16b
	rev32	v\y\().8h, v\y\().8h
	eor	v\t\().16b, v\t\().16b, v\y\().16b
	shl	v\y\().4s, v\t\().4s, #2
	sri	v\y\().4s, v\t\().4s, #30
	eor	v\x\().16b, v\x\().16b, v\y\().16b
.endm

/* One round on four blocks: a ^= T(b ^ c ^ d ^ rk). */
.macro sm4_neon_round4, a, b, c, d
	ld1r	{v8.4s}, [x12], #4
	eor	v8.16b, v8.16b, v\b\().16b
	eor	v8.16b, v8.16b, v\c\().16b
	eor	v8.16b, v8.16b, v\d\().16b
	sm4_neon_sbox 12, 9, 8
	sm4_neon_linear \a, 9, 8
.endm

/* The same on two groups of four blocks (v0-v3 and v4-v7), interleaved. */
.macro sm4_neon_round8, a, b, c, d, a2, b2, c2, d2
	ld1r	{v8.4s}, [x12], #4
	eor	v10.16b, v8.16b, v\b2\().16b
	eor	v8.16b, v8.16b, v\b\().16b
	eor	v10.16b, v10.16b, v\c2\().16b
	eor	v8.16b, v8.16b, v\c\().16b
	eor	v10.16b, v10.16b, v\d2\().16b
	eor	v8.16b, v8.16b, v\d\().16b
	sm4_neon_sbox 12, 9, 8, 11, 10
	eor	v\a\().16b, v\a\().16b, v9.16b
	eor	v\a2\().16b, v\a2\().16b, v11.16b
	tbl	v8.16b, {v9.16b}, v14.16b
	tbl	v10.16b, {v11.16b}, v14.16b
	eor	v\a\().16b, v\a\().16b, v8.16b
	eor	v\a2\().16b, v\a2\().16b, v10.16b
	tbl	v8.16b, {v9.16b}, v13.16b
	tbl	v10.16b, {v11.16b}, v13.16b
	eor	v8.16b, v8.16b, v9.16b
	eor	v10.16b, v10.16b, v11.16b
	rev32	v9.8h, v9.8h
	rev32	v11.8h, v11.8h
	eor	v8.16b, v8.16b, v9.16b
	eor	v10.16b, v10.16b, v11.16b
	shl	v9.4s, v8.4s, #2
	shl	v11.4s, v10.4s, #2
	sri	v9.4s, v8.4s, #30
	sri	v11.4s, v10.4s, #30
	eor	v\a\().16b, v\a\().16b, v9.16b
	eor	v\a2\().16b, v\a2\().16b, v11.16b
.endm

/*
 * 4x4 transpose of 32-bit words: o_k[j] = i_j[k].  All inputs are read
 * into v8-v11 before any output is written, so they may overlap.
 */
.macro sm4_neon_transpose, o0, o1, o2, o3, i0, i1, i2, i3
	trn1	v8.4s, v\i0\().4s, v\i1\().4s
	trn2	v9.4s, v\i0\().4s, v\i1\().4s
	trn1	v10.4s, v\i2\().4s, v\i3\().4s
	trn2	v11.4s, v\i2\().4s, v\i3\().4s
	trn1	v\o0\().2d, v8.2d, v10.2d
	trn1	v\o1\().2d, v9.2d, v11.2d
	trn2	v\o2\().2d, v8.2d, v10.2d
	trn2	v\o3\().2d, v9.2d, v11.2d
.endm

/* Blocks (memory order) in v\a..v\d to state words X0..X3, one per vector. */
.macro sm4_neon_enter4, a, b, c, d
	rev32	v\a\().16b, v\a\().16b
	rev32	v\b\().16b, v\b\().16b
	rev32	v\c\().16b, v\c\().16b
	rev32	v\d\().16b, v\d\().16b
	sm4_neon_transpose \a, \b, \c, \d, \a, \b, \c, \d
.endm

/* State X32..X35 back to blocks: each block is X35, X34, X33, X32. */
.macro sm4_neon_leave4, a, b, c, d
	sm4_neon_transpose \a, \b, \c, \d, \d, \c, \b, \a
	rev32	v\a\().16b, v\a\().16b
	rev32	v\b\().16b, v\b\().16b
	rev32	v\c\().16b, v\c\().16b
	rev32	v\d\().16b, v\d\().16b
.endm

/*
 * The 32 rounds on the four blocks in v0-v3, with the schedule at x0.
 * Clobbers v8-v11, x12, w13.
 */
SYM_FUNC_START_LOCAL(sm4_neon_crypt4)
	sm4_neon_enter4 0, 1, 2, 3
	mov	x12, x0
	mov	w13, #8
.Lsm4_neon_crypt4_loop:
	sm4_neon_round4 0, 1, 2, 3
	sm4_neon_round4 1, 2, 3, 0
	sm4_neon_round4 2, 3, 0, 1
	sm4_neon_round4 3, 0, 1, 2
	subs	w13, w13, #1
	b.ne	.Lsm4_neon_crypt4_loop
	sm4_neon_leave4 0, 1, 2, 3
	ret
SYM_FUNC_END(sm4_neon_crypt4)

/* The same on the eight blocks in v0-v7. */
SYM_FUNC_START_LOCAL(sm4_neon_crypt8)
	sm4_neon_enter4 0, 1, 2, 3
	sm4_neon_enter4 4, 5, 6, 7
	mov	x12, x0
	mov	w13, #8
.Lsm4_neon_crypt8_loop:
	sm4_neon_round8 0, 1, 2, 3, 4, 5, 6, 7
	sm4_neon_round8 1, 2, 3, 0, 5, 6, 7, 4
	sm4_neon_round8 2, 3, 0, 1, 6, 7, 4, 5
	sm4_neon_round8 3, 0, 1, 2, 7, 4, 5, 6
	subs	w13, w13, #1
	b.ne	.Lsm4_neon_crypt8_loop
	sm4_neon_leave4 0, 1, 2, 3
	sm4_neon_leave4 4, 5, 6, 7
	ret
SYM_FUNC_END(sm4_neon_crypt8)

/* The block macros of sm4-modes.S: calls, as the rounds are long. */
.macro sm4_crypt1
	bl	sm4_neon_crypt4
.endm

.macro sm4_crypt4
	bl	sm4_neon_crypt4
.endm

.macro sm4_crypt8
	bl	sm4_neon_crypt8
.endm

#define SM4_FN(name)	sm4_neon_ ## name
#include "sm4-modes.S"

/*
 * One step of the key schedule, \a ^= T'(\b ^ \c ^ \d ^ CK[i]) with
 * T'(x) = L'(tau(x)), L'(B) = B ^ (B <<< 13) ^ (B <<< 23): the word goes
 * through v0 to the S-box (into v1, 0x40 steps in v2) and back to w7; the
 * new round key \a is stored as rkey_enc[i] (x0, advanced) and as
 * rkey_dec[31 - i] (x14, lowered).  CK[i] from x13, advanced.
 */
.macro sm4_neon_key_step, a, b, c, d
	ldr	w7, [x13], #4
	eor	w7, w7, \b
	eor	w7, w7, \c
	eor	w7, w7, \d
	fmov	s0, w7
	sm4_neon_sbox 2, 1, 0
	fmov	w7, s1
	eor	\a, \a, w7
	eor	\a, \a, w7, ror #19
	eor	\a, \a, w7, ror #9
	str	\a, [x0], #4
	str	\a, [x14, #-4]!
.endm

/*
 * int sm4_neon_expand_key(struct sm4_ctx *ctx, const u8 *key,
 *			   unsigned int key_len);
 *
 * sm4-neon's struct sm4_driver.expandkey itself (called through
 * that pointer, hence SYM_TYPED_FUNC_START; prototype in sm4-neon.h):
 * both schedules as sm4_expandkey() makes them, ctx->rkey_enc at ctx and
 * ctx->rkey_dec, rkey_enc reversed, at ctx + 128; 0, or -EINVAL if
 * key_len is not 16.  K0..K3 = MK ^ FK live in w3-w6 (w8, w9: FK), then
 * eight times four steps with the roles rotated, the S-box of every step
 * in registers: no memory access depends on the key.  Uses only
 * caller-saved registers and zeroes those that held key material or the
 * S-box: w3-w9, v0-v2, v16-v31.
 */
SYM_TYPED_FUNC_START(sm4_neon_expand_key)
	cmp	w2, #16
	b.ne	.Lsm4_neon_expand_key_inval
	sm4_neon_load_sbox
	movi	v2.16b, #0x40
	ldp	w3, w4, [x1]
	ldp	w5, w6, [x1, #8]
CPU_LE(	rev	w3, w3	)
CPU_LE(	rev	w4, w4	)
CPU_LE(	rev	w5, w5	)
CPU_LE(	rev	w6, w6	)
	adr_l	x12, crypto_sm4_fk
	ldp	w8, w9, [x12]
	eor	w3, w3, w8
	eor	w4, w4, w9
	ldp	w8, w9, [x12, #8]
	eor	w5, w5, w8
	eor	w6, w6, w9
	adr_l	x13, crypto_sm4_ck
	add	x14, x0, #256		/* just past ctx->rkey_dec */
	mov	w15, #8
.Lsm4_neon_expand_key_loop:
	sm4_neon_key_step w3, w4, w5, w6
	sm4_neon_key_step w4, w5, w6, w3
	sm4_neon_key_step w5, w6, w3, w4
	sm4_neon_key_step w6, w3, w4, w5
	subs	w15, w15, #1
	b.ne	.Lsm4_neon_expand_key_loop
	mov	w3, wzr
	mov	w4, wzr
	mov	w5, wzr
	mov	w6, wzr
	mov	w7, wzr
	mov	w8, wzr
	mov	w9, wzr
	sm4_wipe_v 0, 1, 2, 16, 17, 18, 19, 20, 21, 22, 23, \
		   24, 25, 26, 27, 28, 29, 30, 31
	mov	w0, wzr
	ret
.Lsm4_neon_expand_key_inval:
	mov	w0, #-EINVAL
	ret
SYM_FUNC_END(sm4_neon_expand_key)

	.section	".rodata", "a"
	.align	6
.Lsm4_neon_tables:
	/* The SM4 S-box (GB/T 32907-2016) */
	.byte	0xd6, 0x90, 0xe9, 0xfe, 0xcc, 0xe1, 0x3d, 0xb7
	.byte	0x16, 0xb6, 0x14, 0xc2, 0x28, 0xfb, 0x2c, 0x05
	.byte	0x2b, 0x67, 0x9a, 0x76, 0x2a, 0xbe, 0x04, 0xc3
	.byte	0xaa, 0x44, 0x13, 0x26, 0x49, 0x86, 0x06, 0x99
	.byte	0x9c, 0x42, 0x50, 0xf4, 0x91, 0xef, 0x98, 0x7a
	.byte	0x33, 0x54, 0x0b, 0x43, 0xed, 0xcf, 0xac, 0x62
	.byte	0xe4, 0xb3, 0x1c, 0xa9, 0xc9, 0x08, 0xe8, 0x95
	.byte	0x80, 0xdf, 0x94, 0xfa, 0x75, 0x8f, 0x3f, 0xa6
	.byte	0x47, 0x07, 0xa7, 0xfc, 0xf3, 0x73, 0x17, 0xba
	.byte	0x83, 0x59, 0x3c, 0x19, 0xe6, 0x85, 0x4f, 0xa8
	.byte	0x68, 0x6b, 0x81, 0xb2, 0x71, 0x64, 0xda, 0x8b
	.byte	0xf8, 0xeb, 0x0f, 0x4b, 0x70, 0x56, 0x9d, 0x35
	.byte	0x1e, 0x24, 0x0e, 0x5e, 0x63, 0x58, 0xd1, 0xa2
	.byte	0x25, 0x22, 0x7c, 0x3b, 0x01, 0x21, 0x78, 0x87
	.byte	0xd4, 0x00, 0x46, 0x57, 0x9f, 0xd3, 0x27, 0x52
	.byte	0x4c, 0x36, 0x02, 0xe7, 0xa0, 0xc4, 0xc8, 0x9e
	.byte	0xea, 0xbf, 0x8a, 0xd2, 0x40, 0xc7, 0x38, 0xb5
	.byte	0xa3, 0xf7, 0xf2, 0xce, 0xf9, 0x61, 0x15, 0xa1
	.byte	0xe0, 0xae, 0x5d, 0xa4, 0x9b, 0x34, 0x1a, 0x55
	.byte	0xad, 0x93, 0x32, 0x30, 0xf5, 0x8c, 0xb1, 0xe3
	.byte	0x1d, 0xf6, 0xe2, 0x2e, 0x82, 0x66, 0xca, 0x60
	.byte	0xc0, 0x29, 0x23, 0xab, 0x0d, 0x53, 0x4e, 0x6f
	.byte	0xd5, 0xdb, 0x37, 0x45, 0xde, 0xfd, 0x8e, 0x2f
	.byte	0x03, 0xff, 0x6a, 0x72, 0x6d, 0x6c, 0x5b, 0x51
	.byte	0x8d, 0x1b, 0xaf, 0x92, 0xbb, 0xdd, 0xbc, 0x7f
	.byte	0x11, 0xd9, 0x5c, 0x41, 0x1f, 0x10, 0x5a, 0xd8
	.byte	0x0a, 0xc1, 0x31, 0x88, 0xa5, 0xcd, 0x7b, 0xbd
	.byte	0x2d, 0x74, 0xd0, 0x12, 0xb8, 0xe5, 0xb4, 0xb0
	.byte	0x89, 0x69, 0x97, 0x4a, 0x0c, 0x96, 0x77, 0x7e
	.byte	0x65, 0xb9, 0xf1, 0x09, 0xc5, 0x6e, 0xc6, 0x84
	.byte	0x18, 0xf0, 0x7d, 0xec, 0x3a, 0xdc, 0x4d, 0x20
	.byte	0x79, 0xee, 0x5f, 0x3e, 0xd7, 0xcb, 0x39, 0x48
	/* TBL indices: each 32-bit word rotated left by 8, then by 24 */
	.byte	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
	.byte	1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12
