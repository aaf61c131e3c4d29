/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 block cipher library interface (GB/T 32907-2016).
 *
 * The names, types and constants match upstream include/crypto/sm4.h so
 * that in-tree users built against that header keep working when this
 * project's sm4.ko replaces an in-tree one.
 */
#ifndef _SM4_CRYPTO_SM4_H
#define _SM4_CRYPTO_SM4_H

#include <linux/types.h>

#define SM4_KEY_SIZE	16
#define SM4_BLOCK_SIZE	16
#define SM4_RKEY_WORDS	32

struct sm4_ctx {
	u32 rkey_enc[SM4_RKEY_WORDS];
	u32 rkey_dec[SM4_RKEY_WORDS];
};

/*
 * Declared without sizes, as upstream does: the declarations are part of
 * the exports' modversions CRCs, which must equal upstream's.
 */
extern const u32 crypto_sm4_fk[];
extern const u32 crypto_sm4_ck[];
extern const u8 crypto_sm4_sbox[];

/**
 * sm4_expandkey - expand a 128-bit key into encryption and decryption
 *		   round keys
 * @ctx: receives the round keys
 * @in_key: the key
 * @key_len: length of @in_key; must be SM4_KEY_SIZE
 *
 * Return: 0, or -EINVAL if @key_len is not SM4_KEY_SIZE.
 */
int sm4_expandkey(struct sm4_ctx *ctx, const u8 *in_key,
		  unsigned int key_len);

/**
 * sm4_crypt_block - encrypt or decrypt one block
 * @rk: ctx->rkey_enc to encrypt, ctx->rkey_dec to decrypt
 * @out: output block (may equal @in)
 * @in: input block
 */
void sm4_crypt_block(const u32 *rk, u8 *out, const u8 *in);

#endif /* _SM4_CRYPTO_SM4_H */
