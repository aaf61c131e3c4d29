/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SM4 Crypto Extensions (FEAT_SM4) block code shared by sm4-ce.ko
 * (sm4-ce-core.S) and sm4-ce-cipher.ko (sm4-ce-cipher-core.S), which
 * #include this file: each module gets its own copy of the functions,
 * so that sm4-ce-cipher, like upstream's, needs no other module.
 *
 * SM4E performs four rounds on one block held as four 32-bit words
 * X0..X3 in lanes 0..3, with four round keys in the other operand, and
 * leaves X4..X7 in the same lanes; eight of them make a block.  SM4EKEY
 * derives four round keys from the previous four and four CK constants.
 * The instructions are emitted as .inst words so that any assembler that
 * knows ARMv8.0 can build this file.
 *
 * Register use beyond the contract of sm4-modes.S: the 32 round keys of
 * the schedule at x0 live in v16-v23 (four per register, in order).
 */

#include "sm4-vwipe.h"

/* sm4e vd.4s, vn.4s and sm4ekey vd.4s, vn.4s, vm.4s; operands are numbers */
.macro sm4e_v, rd, rn
	.inst	0xcec08400 | ((\rn) << 5) | (\rd)
.endm

.macro sm4ekey_v, rd, rn, rm
	.inst	0xce60c800 | ((\rm) << 16) | ((\rn) << 5) | (\rd)
.endm

.macro sm4_load_state
	mov	x12, x0
	ld1	{v16.4s-v19.4s}, [x12], #64
	ld1	{v20.4s-v23.4s}, [x12]
.endm

/*
 * Encrypt the blocks in the listed registers (numbers), interleaved so
 * that independent SM4E instructions follow each other.  A block in
 * memory order is X0..X3 big-endian: REV32 gives the lane values.  The
 * output X35, X34, X33, X32 big-endian is the result lanes X32..X35 with
 * all sixteen bytes reversed: REV64 then swapping the halves.
 */
.macro sm4_ce_rev32, b, rest:vararg
	rev32	v\b\().16b, v\b\().16b
	.ifnb	\rest
	sm4_ce_rev32 \rest
	.endif
.endm

.macro sm4_ce_rounds4, k, b, rest:vararg
	sm4e_v	\b, \k
	.ifnb	\rest
	sm4_ce_rounds4 \k, \rest
	.endif
.endm

.macro sm4_ce_output, b, rest:vararg
	rev64	v\b\().16b, v\b\().16b
	ext	v\b\().16b, v\b\().16b, v\b\().16b, #8
	.ifnb	\rest
	sm4_ce_output \rest
	.endif
.endm

.macro sm4_ce_crypt, blocks:vararg
	sm4_ce_rev32 \blocks
	sm4_ce_rounds4 16, \blocks
	sm4_ce_rounds4 17, \blocks
	sm4_ce_rounds4 18, \blocks
	sm4_ce_rounds4 19, \blocks
	sm4_ce_rounds4 20, \blocks
	sm4_ce_rounds4 21, \blocks
	sm4_ce_rounds4 22, \blocks
	sm4_ce_rounds4 23, \blocks
	sm4_ce_output \blocks
.endm

.macro sm4_crypt1
	sm4_ce_crypt 0
.endm

.macro sm4_crypt4
	sm4_ce_crypt 0, 1, 2, 3
.endm

.macro sm4_crypt8
	sm4_ce_crypt 0, 1, 2, 3, 4, 5, 6, 7
.endm

/*
 * sm4_ce_crypt_block and sm4_ce_expand_key are two of the helpers
 * upstream's sm4-ce.ko exports to sm4-ce-ccm and sm4-ce-gcm, with
 * upstream's prototypes (see sm4-ce.h); called directly, inside the
 * caller's SIMD section.
 *
 * void sm4_ce_crypt_block(const u32 *rkey, u8 *dst, const u8 *src);
 */
SYM_FUNC_START(sm4_ce_crypt_block)
	sm4_load_state
	ld1	{v0.16b}, [x2]
	sm4_crypt1
	st1	{v0.16b}, [x1]
	sm4_wipe_v 0, 16, 17, 18, 19, 20, 21, 22, 23
	ret
SYM_FUNC_END(sm4_ce_crypt_block)

/*
 * void sm4_ce_expand_key(const u8 *key, u32 *rkey_enc, u32 *rkey_dec,
 *			  const u32 *fk, const u32 *ck);
 *
 * The same schedules as sm4_expandkey(): rkey_dec is rkey_enc reversed.
 * Uses only caller-saved vector registers (v0-v7, v16-v31), and zeroes
 * them before returning (key material), as sm4_ce_crypt_block does.
 */
SYM_FUNC_START(sm4_ce_expand_key)
	ld1	{v0.16b}, [x0]
	rev32	v0.16b, v0.16b
	ld1	{v1.4s}, [x3]
	ld1	{v24.4s-v27.4s}, [x4], #64
	ld1	{v28.4s-v31.4s}, [x4]
	eor	v0.16b, v0.16b, v1.16b

	sm4ekey_v	0, 0, 24
	sm4ekey_v	1, 0, 25
	sm4ekey_v	2, 1, 26
	sm4ekey_v	3, 2, 27
	sm4ekey_v	4, 3, 28
	sm4ekey_v	5, 4, 29
	sm4ekey_v	6, 5, 30
	sm4ekey_v	7, 6, 31
	st1	{v0.4s-v3.4s}, [x1], #64
	st1	{v4.4s-v7.4s}, [x1]

	/* Reverse the word order of each register, and the registers. */
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	rev64	v\i\().4s, v\i\().4s
	ext	v\i\().16b, v\i\().16b, v\i\().16b, #8
	.endr
	mov	v16.16b, v7.16b
	mov	v17.16b, v6.16b
	mov	v18.16b, v5.16b
	mov	v19.16b, v4.16b
	mov	v20.16b, v3.16b
	mov	v21.16b, v2.16b
	mov	v22.16b, v1.16b
	mov	v23.16b, v0.16b
	st1	{v16.4s-v19.4s}, [x2], #64
	st1	{v20.4s-v23.4s}, [x2]
	sm4_wipe_v 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, \
		   24, 25, 26, 27, 28, 29, 30, 31
	ret
SYM_FUNC_END(sm4_ce_expand_key)
