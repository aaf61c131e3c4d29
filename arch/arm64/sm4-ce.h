/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The helpers sm4-ce.ko exports, under the names and with the prototypes
 * of upstream's arch/arm64/crypto/sm4-ce.h, so that upstream's
 * sm4-ce-ccm.ko and sm4-ce-gcm.ko (and this project's sm4-ce-cipher.ko)
 * run on this project's sm4-ce.ko.  The prototypes are part of the
 * exports' modversions CRCs: tests/test-abi.sh compares them with
 * upstream's.  Call them only inside a SIMD section (sm4_simd_begin()).
 *
 * sm4_ce_expand_key   both schedules of @key, as sm4_expandkey(), from
 *                     the FK and CK constants @fk and @ck;
 * sm4_ce_crypt_block  one block with the schedule @rkey (@dst may be
 *                     @src);
 * sm4_ce_cbc_enc      CBC encryption of @nblocks blocks; @iv becomes the
 *                     last ciphertext block.
 */
#ifndef _SM4_ARM64_CE_H
#define _SM4_ARM64_CE_H

#include <linux/errno.h>
#include <sm4/sm4.h>

void sm4_ce_expand_key(const u8 *key, u32 *rkey_enc, u32 *rkey_dec,
		       const u32 *fk, const u32 *ck);

void sm4_ce_crypt_block(const u32 *rkey, u8 *dst, const u8 *src);

void sm4_ce_cbc_enc(const u32 *rkey_enc, u8 *dst, const u8 *src,
		    u8 *iv, unsigned int nblocks);

/*
 * This project's own: the CBC-MAC family's bulk functions
 * (sm4-ce-mac.S) and the tables sm4-ce.ko exports to sm4-ce-ccm.ko and
 * sm4-ce-gcm.ko (GHASH with PMULL: sm4-ce-gcm.S).
 */
struct sm4_mode_ops;
struct sm4_mac_ops;
struct sm4_gcm_ops;
void sm4_ce_cbcmac(const u32 *rk, u8 *mac, const u8 *src,
		   unsigned int nblocks);
void sm4_ce_ccm_enc(const u32 *rk, u8 *dst, const u8 *src,
		    unsigned int nblocks, u8 *ctr, u8 *mac);
void sm4_ce_ccm_dec_mac(const u32 *rk, const u8 *src, unsigned int nblocks,
			u8 *ctr, u8 *mac);
extern const struct sm4_mode_ops sm4_ce_mode_ops;
extern const struct sm4_mac_ops sm4_ce_mac_ops;
extern const struct sm4_gcm_ops sm4_ce_gcm_ops;
/*
 * sm4_ce_gcm_ops.short_blocks and sm4_ce_mac_ops.short_blocks: its ecb
 * encrypts eight blocks side by side (gcm's E_K(J0), ccm's E(B0) and
 * E(A0) share the call); sm4_ce_mode_ops.batch: its mode bodies' (and
 * gcm_enc's) batch, eight blocks.
 */
#define SM4_CE_GCM_SHORT	7
#define SM4_CE_CCM_SHORT	6
#define SM4_CE_BATCH		8

/* struct sm4_driver.expandkey of the drivers using SM4EKEY. */
static inline int sm4_ce_expandkey(struct sm4_ctx *ctx, const u8 *key,
				   unsigned int key_len)
{
	if (key_len != SM4_KEY_SIZE)
		return -EINVAL;
	sm4_ce_expand_key(key, ctx->rkey_enc, ctx->rkey_dec,
			  crypto_sm4_fk, crypto_sm4_ck);
	return 0;
}

#endif /* _SM4_ARM64_CE_H */
