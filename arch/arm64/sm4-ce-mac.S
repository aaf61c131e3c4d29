/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CBC-MAC family's bulk functions on the SM4 Crypto Extensions
 * (struct sm4_mac_ops of include/sm4/mac.h), #included by sm4-ce-core.S
 * after sm4-ce-block.S and sm4-modes.S (their block and counter macros).
 *
 * The MAC chain is serial: one SM4 (eight dependent SM4E) per block.
 * CCM runs the independent CTR block of the same (encryption) or the next
 * (decryption) position alongside it, so that the keystream costs no
 * extra latency.  Only caller-saved vector registers are used (v0-v7,
 * v16-v23), so nothing needs saving; each function zeroes those it used
 * before returning.
 */

/* Counter block at x4 (x3 for ccm_dec_mac) <-> x6 (high) : x7 (low). */
.macro sm4_ccm_ld_ctr, p
	ldp	x6, x7, [\p]
CPU_LE(	rev	x6, x6	)
CPU_LE(	rev	x7, x7	)
.endm

.macro sm4_ccm_st_ctr, p
CPU_LE(	rev	x6, x6	)
CPU_LE(	rev	x7, x7	)
	stp	x6, x7, [\p]
.endm

/*
 * void sm4_ce_cbcmac(const u32 *rk, u8 *mac, const u8 *src,
 *		      unsigned int nblocks);
 */
SYM_TYPED_FUNC_START(sm4_ce_cbcmac)
	cbz	w3, .Lcbcmac_ret
	sm4_load_state
	ld1	{v0.16b}, [x1]
.Lcbcmac_loop:
	ld1	{v1.16b}, [x2], #16
	eor	v0.16b, v0.16b, v1.16b
	sm4_ce_crypt 0
	subs	w3, w3, #1
	b.ne	.Lcbcmac_loop
	st1	{v0.16b}, [x1]
	sm4_wipe_v 0, 1, 16, 17, 18, 19, 20, 21, 22, 23
.Lcbcmac_ret:
	ret
SYM_FUNC_END(sm4_ce_cbcmac)

/*
 * void sm4_ce_ccm_enc(const u32 *rk, u8 *dst, const u8 *src,
 *		       unsigned int nblocks, u8 *ctr, u8 *mac);
 *
 * Per block: v0 = E(v0 ^ P) (the MAC) and v1 = E(ctr) in one pass of
 * SM4E pairs; C = P ^ v1.
 */
SYM_TYPED_FUNC_START(sm4_ce_ccm_enc)
	cbz	w3, .Lccm_enc_ret
	sm4_load_state
	sm4_ccm_ld_ctr x4
	ld1	{v0.16b}, [x5]
.Lccm_enc_loop:
	ld1	{v2.16b}, [x2], #16
	sm4_ctr_next 1
	eor	v0.16b, v0.16b, v2.16b
	sm4_ce_crypt 0, 1
	eor	v1.16b, v1.16b, v2.16b
	st1	{v1.16b}, [x1], #16
	subs	w3, w3, #1
	b.ne	.Lccm_enc_loop
	st1	{v0.16b}, [x5]
	sm4_ccm_st_ctr x4
	sm4_wipe_v 0, 1, 2, 16, 17, 18, 19, 20, 21, 22, 23
.Lccm_enc_ret:
	ret
SYM_FUNC_END(sm4_ce_ccm_enc)

/*
 * void sm4_ce_ccm_dec_mac(const u32 *rk, const u8 *src,
 *			   unsigned int nblocks, u8 *ctr, u8 *mac);
 *
 * The keystream of block i + 1 is computed together with the MAC of
 * block i (whose plaintext needs the keystream of block i): the first
 * keystream block alone, the last MAC block alone.  The plaintext stays
 * in registers.
 */
SYM_TYPED_FUNC_START(sm4_ce_ccm_dec_mac)
	cbz	w2, .Lccm_dec_ret
	sm4_load_state
	sm4_ccm_ld_ctr x3
	ld1	{v0.16b}, [x4]
	sm4_ctr_next 1
	sm4_ce_crypt 1
.Lccm_dec_loop:
	ld1	{v2.16b}, [x1], #16
	eor	v2.16b, v2.16b, v1.16b
	eor	v0.16b, v0.16b, v2.16b
	subs	w2, w2, #1
	b.eq	.Lccm_dec_last
	sm4_ctr_next 1
	sm4_ce_crypt 0, 1
	b	.Lccm_dec_loop
.Lccm_dec_last:
	sm4_ce_crypt 0
	st1	{v0.16b}, [x4]
	sm4_ccm_st_ctr x3
	sm4_wipe_v 0, 1, 2, 16, 17, 18, 19, 20, 21, 22, 23
.Lccm_dec_ret:
	ret
SYM_FUNC_END(sm4_ce_ccm_dec_mac)
