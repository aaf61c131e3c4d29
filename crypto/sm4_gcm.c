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

/* @blk := IV || the big-endian 32-bit @n. */
static void sm4_gcm_counter(u8 *blk, const u8 *iv, u32 n)
{
	memcpy(blk, iv, SM4_GCM_IV_SIZE);
	put_unaligned_be32(n, blk + SM4_GCM_IV_SIZE);
}

void sm4_gcm_ctr_start(const struct sm4_mode_ops *ops,
		       const struct sm4_gcm_ops *gops, const u32 *rk,
		       const u8 *iv, unsigned int cryptlen,
		       struct sm4_gcm_ctr *c)
{
	unsigned int first = cryptlen / SM4_BLOCK_SIZE, i, tail = 0;
	unsigned int nblocks = first + !!(cryptlen % SM4_BLOCK_SIZE);
	unsigned int most = min_t(unsigned int, gops->short_blocks,
				  SM4_GCM_SHORT_MAX);

	if (ops->batch)
		tail = first % ops->batch;
	if (nblocks <= most)
		first = 0;
	else if (tail + nblocks - first <= most)
		first -= tail;
	c->from = first * SM4_BLOCK_SIZE;
	c->pos = 0;
	sm4_gcm_counter(c->ctr, iv, 2);
	/* J0 = IV || 1, then the counter blocks of text block first on. */
	sm4_gcm_counter(c->ks, iv, 1);
	for (i = first; i < nblocks; i++)
		sm4_gcm_counter(c->ks + (i - first + 1) * SM4_BLOCK_SIZE, iv,
				2 + i);
	ops->ecb(rk, c->ks, c->ks, nblocks - first + 1);
}

/*
 * Of the next @len bytes of @c's text: how many come before the
 * keystream made up front (a multiple of 16), and where in .ks the
 * rest's keystream is.
 */
static unsigned int sm4_gcm_bulk(const struct sm4_gcm_ctr *c,
				 unsigned int len, unsigned int *ks_off)
{
	unsigned int bulk = 0;

	if (c->pos < c->from)
		bulk = min_t(unsigned int, len, c->from - c->pos);
	*ks_off = SM4_BLOCK_SIZE + c->pos + bulk - c->from;
	return bulk;
}

void sm4_gcm_encrypt_piece(const struct sm4_mode_ops *ops,
			   const struct sm4_gcm_ops *gops, const u32 *rk,
			   struct sm4_ghash *gh, struct sm4_gcm_ctr *c,
			   u8 *dst, const u8 *src, unsigned int len)
{
	unsigned int off, bulk = sm4_gcm_bulk(c, len, &off);
	unsigned int nblocks = bulk / SM4_BLOCK_SIZE;
	u8 *ks = c->ks + off;

	if (nblocks && gops->enc) {
		gops->enc(rk, dst, src, nblocks, c->ctr, gh);
	} else if (nblocks) {
		ops->ctr(rk, dst, src, nblocks, c->ctr);
		gops->ghash(gh, dst, nblocks);
	}
	c->pos += len;
	len -= bulk;
	if (!len)
		return;
	/*
	 * The ciphertext is formed over the keystream in @c and hashed
	 * there, so that nothing is read back from dst.
	 */
	crypto_xor(ks, src + bulk, len);
	memcpy(dst + bulk, ks, len);
	sm4_ghash_update(gops, gh, ks, len);
}

void sm4_gcm_decrypt_piece(const struct sm4_mode_ops *ops, const u32 *rk,
			   struct sm4_gcm_ctr *c, u8 *dst, const u8 *src,
			   unsigned int len)
{
	unsigned int off, bulk = sm4_gcm_bulk(c, len, &off);

	if (bulk)
		ops->ctr(rk, dst, src, bulk / SM4_BLOCK_SIZE, c->ctr);
	c->pos += len;
	if (len > bulk)
		crypto_xor_cpy(dst + bulk, src + bulk, c->ks + off, len - bulk);
}

void sm4_gcm_tag(const struct sm4_gcm_ops *gops, struct sm4_ghash *gh,
		 const struct sm4_gcm_ctr *c, u64 assoclen, u64 cryptlen,
		 u8 *tag)
{
	u8 lengths[SM4_BLOCK_SIZE];

	sm4_ghash_pad(gops, gh);
	put_unaligned_be64(assoclen * 8, lengths);
	put_unaligned_be64(cryptlen * 8, lengths + 8);
	gops->ghash(gh, lengths, 1);
	crypto_xor_cpy(tag, gh->acc, c->ks, SM4_BLOCK_SIZE);
}
