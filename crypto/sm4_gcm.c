// SPDX-License-Identifier: GPL-2.0
/*
 * GCM over any SM4 implementation on linear buffers (include/sm4/gcm.h):
 * GHASH streams with partial blocks, text pieces, the tag, and the
 * portable constant-time GHASH.  The kernel AEAD glue
 * (crypto/sm4_aead_glue.c) feeds it scatterlist pieces; the userspace
 * harness compiles it unchanged.
 */

#include <linux/module.h>
#include <linux/string.h>
#include <crypto/algapi.h>
#include <sm4/compat.h>
#include <sm4/gcm.h>

/* GCM's R: x^128 = x^7 + x^2 + x + 1, as the top byte 0xe1. */
#define SM4_GHASH_R	0xe100000000000000ULL

/*
 * acc := acc * H in GF(2^128), the bit-serial method of SP 800-38D 6.3.
 * Every iteration does the same work whatever the bits of acc and H
 * are: the conditional XORs are masks.
 */
static void sm4_ghash_mul(u8 *acc, const u8 *h)
{
	u64 xh = get_unaligned_be64(acc), xl = get_unaligned_be64(acc + 8);
	u64 vh = get_unaligned_be64(h), vl = get_unaligned_be64(h + 8);
	u64 zh = 0, zl = 0;
	int i;

	for (i = 0; i < 128; i++) {
		u64 bit = (i < 64 ? xh >> (63 - i) : xl >> (127 - i)) & 1;
		u64 mask = 0 - bit;
		u64 lsb = 0 - (vl & 1);

		zh ^= vh & mask;
		zl ^= vl & mask;
		vl = (vl >> 1) | (vh << 63);
		vh = (vh >> 1) ^ (SM4_GHASH_R & lsb);
	}
	put_unaligned_be64(zh, acc);
	put_unaligned_be64(zl, acc + 8);
}

static void sm4_ghash_portable(struct sm4_ghash *gh, const u8 *src,
			       unsigned int nblocks)
{
	while (nblocks--) {
		crypto_xor(gh->acc, src, SM4_BLOCK_SIZE);
		sm4_ghash_mul(gh->acc, gh->table);
		src += SM4_BLOCK_SIZE;
	}
}

const struct sm4_gcm_ops sm4_gcm_generic_ops = {
	.ghash	= sm4_ghash_portable,
};

void sm4_ghash_start(struct sm4_ghash *gh, const u8 *table)
{
	memset(gh, 0, sizeof(*gh));
	gh->table = table;
}

void sm4_ghash_update(const struct sm4_gcm_ops *gops, struct sm4_ghash *gh,
		      const u8 *data, unsigned int len)
{
	unsigned int n;

	if (gh->buflen) {
		n = min_t(unsigned int, len, SM4_BLOCK_SIZE - gh->buflen);
		memcpy(gh->buf + gh->buflen, data, n);
		gh->buflen += n;
		data += n;
		len -= n;
		if (gh->buflen < SM4_BLOCK_SIZE)
			return;
		gops->ghash(gh, gh->buf, 1);
		gh->buflen = 0;
	}
	n = len / SM4_BLOCK_SIZE;
	if (n)
		gops->ghash(gh, data, n);
	data += n * SM4_BLOCK_SIZE;
	len -= n * SM4_BLOCK_SIZE;
	memcpy(gh->buf, data, len);
	gh->buflen = len;
}

void sm4_ghash_pad(const struct sm4_gcm_ops *gops, struct sm4_ghash *gh)
{
	if (!gh->buflen)
		return;
	memset(gh->buf + gh->buflen, 0, SM4_BLOCK_SIZE - gh->buflen);
	gops->ghash(gh, gh->buf, 1);
	gh->buflen = 0;
}

void sm4_gcm_hash_subkey(const struct sm4_mode_ops *ops, const u32 *rk,
			 u8 *h)
{
	static const u8 zero[SM4_BLOCK_SIZE];

	ops->ecb(rk, h, zero, 1);
}

void sm4_gcm_first_ctr(u8 *ctr, const u8 *iv)
{
	memcpy(ctr, iv, SM4_GCM_IV_SIZE);
	put_unaligned_be32(2, ctr + SM4_GCM_IV_SIZE);
}

void sm4_gcm_encrypt_piece(const struct sm4_mode_ops *ops,
			   const struct sm4_gcm_ops *gops, const u32 *rk,
			   struct sm4_ghash *gh, u8 *dst, const u8 *src,
			   unsigned int len, u8 *ctr)
{
	unsigned int nblocks = len / SM4_BLOCK_SIZE;
	unsigned int tail = len % SM4_BLOCK_SIZE;
	u8 block[SM4_BLOCK_SIZE];

	if (nblocks && gops->enc) {
		gops->enc(rk, dst, src, nblocks, ctr, gh);
	} else if (nblocks) {
		ops->ctr(rk, dst, src, nblocks, ctr);
		gops->ghash(gh, dst, nblocks);
	}
	if (!tail)
		return;
	/* The final partial block: ciphertext formed and hashed here. */
	src += nblocks * SM4_BLOCK_SIZE;
	dst += nblocks * SM4_BLOCK_SIZE;
	memcpy(block, src, tail);
	sm4_mode_ctr_crypt(ops, rk, block, block, tail, ctr);
	memcpy(dst, block, tail);
	sm4_ghash_update(gops, gh, block, tail);
	memzero_explicit(block, sizeof(block));
}

void sm4_gcm_tag(const struct sm4_mode_ops *ops,
		 const struct sm4_gcm_ops *gops, const u32 *rk,
		 struct sm4_ghash *gh, const u8 *iv, u64 assoclen,
		 u64 cryptlen, u8 *tag)
{
	u8 lengths[SM4_BLOCK_SIZE], j0[SM4_BLOCK_SIZE];

	sm4_ghash_pad(gops, gh);
	put_unaligned_be64(assoclen * 8, lengths);
	put_unaligned_be64(cryptlen * 8, lengths + 8);
	gops->ghash(gh, lengths, 1);

	memcpy(j0, iv, SM4_GCM_IV_SIZE);
	put_unaligned_be32(1, j0 + SM4_GCM_IV_SIZE);
	ops->ecb(rk, tag, j0, 1);
	crypto_xor(tag, gh->acc, SM4_BLOCK_SIZE);
	memzero_explicit(j0, sizeof(j0));
}
