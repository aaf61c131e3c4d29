/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 for arm64 with the SM4 Crypto Extensions (FEAT_SM4): sm4-ce, the
 * bulk functions of the skciphers (sm4-modes.S over the SM4E block code
 * of sm4-ce-block.S), those of the CBC-MAC family (sm4-ce-mac.S) and of
 * GCM (sm4-ce-gcm.S), and the helpers upstream's sm4-ce.ko exports.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>
#include <asm/assembler.h>

	.text

#include "sm4-ce-block.S"

/*
 * The bulk functions are sm4_ce_bulk_<mode>: upstream's sm4-ce.ko exports
 * sm4_ce_cbc_enc with another argument order (below).
 */
#define SM4_FN(name)	sm4_ce_bulk_ ## name
#include "sm4-modes.S"
#include "sm4-ce-mac.S"
#include "sm4-ce-gcm.S"

/*
 * void sm4_ce_cbc_enc(const u32 *rkey_enc, u8 *dst, const u8 *src,
 *		       u8 *iv, unsigned int nblocks);
 *
 * CBC encryption of @nblocks blocks, @iv updated to the last ciphertext
 * block: sm4_ce_bulk_cbc_enc with the last two arguments swapped.  No
 * blocks, nothing done.
 */
SYM_FUNC_START(sm4_ce_cbc_enc)
	cbz	w4, 0f
	mov	x5, x3
	mov	w3, w4
	mov	x4, x5
	b	sm4_ce_bulk_cbc_enc
0:	ret
SYM_FUNC_END(sm4_ce_cbc_enc)
