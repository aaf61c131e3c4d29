// SPDX-License-Identifier: GPL-2.0
/*
 * The CBC-MAC family over struct sm4_mac_ops (include/sm4/mac.h), and the
 * portable implementation of those ops on top of sm4_crypt_block().
 */

#include <linux/module.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <crypto/algapi.h>
#include <sm4/compat.h>
#include <sm4/mac.h>

/* ---- The portable bulk functions ------------------------------------ */

static void sm4_generic_cbcmac(const u32 *rk, u8 *mac, const u8 *src,
			       unsigned int nblocks)
{
	for (; nblocks; nblocks--, src += SM4_BLOCK_SIZE) {
		crypto_xor(mac, src, SM4_BLOCK_SIZE);
		sm4_crypt_block(rk, mac, mac);
	}
}

static void sm4_generic_ccm_enc(const u32 *rk, u8 *dst, const u8 *src,
				unsigned int nblocks, u8 *ctr, u8 *mac)
{
	u8 ks[SM4_BLOCK_SIZE];

	for (; nblocks; nblocks--, src += SM4_BLOCK_SIZE,
	     dst += SM4_BLOCK_SIZE) {
		sm4_crypt_block(rk, ks, ctr);
		crypto_inc(ctr, SM4_BLOCK_SIZE);
		crypto_xor(mac, src, SM4_BLOCK_SIZE);
		sm4_crypt_block(rk, mac, mac);
		crypto_xor_cpy(dst, src, ks, SM4_BLOCK_SIZE);
	}
	memzero_explicit(ks, sizeof(ks));
}

static void sm4_generic_ccm_dec_mac(const u32 *rk, const u8 *src,
				    unsigned int nblocks, u8 *ctr, u8 *mac)
{
	u8 p[SM4_BLOCK_SIZE];

	for (; nblocks; nblocks--, src += SM4_BLOCK_SIZE) {
		sm4_crypt_block(rk, p, ctr);
		crypto_inc(ctr, SM4_BLOCK_SIZE);
		crypto_xor(p, src, SM4_BLOCK_SIZE);
		crypto_xor(mac, p, SM4_BLOCK_SIZE);
		sm4_crypt_block(rk, mac, mac);
	}
	memzero_explicit(p, sizeof(p));
}

const struct sm4_mac_ops sm4_generic_mac_ops = {
	.cbcmac		= sm4_generic_cbcmac,
	.ccm_enc	= sm4_generic_ccm_enc,
	.ccm_dec_mac	= sm4_generic_ccm_dec_mac,
};

/* ---- CBC-MAC, CMAC, XCBC ---------------------------------------------- */

static const u8 sm4_zero_block[SM4_BLOCK_SIZE];

/* E(@in) into @out with the CBC-MAC function (for subkeys). */
static void sm4_mac_encrypt_block(const struct sm4_mac_ops *mops,
				  const u32 *rk, u8 *out, const u8 *in)
{
	memmove(out, in, SM4_BLOCK_SIZE);
	mops->cbcmac(rk, out, sm4_zero_block, 1);
}

void sm4_mac_update(const struct sm4_mac_ops *mops, const u32 *rk,
		    struct sm4_mac_state *st, const u8 *p, unsigned int len)
{
	unsigned int n;

	if (!len)
		return;
	if (st->len) {
		n = min_t(unsigned int, len, SM4_BLOCK_SIZE - st->len);
		crypto_xor(st->dg + st->len, p, n);
		st->len += n;
		p += n;
		len -= n;
		if (!len)
			return;
		/* More follows: the pending block is not the last one. */
		mops->cbcmac(rk, st->dg, sm4_zero_block, 1);
		st->len = 0;
	}
	/* Keep 1..16 bytes pending. */
	n = (len - 1) / SM4_BLOCK_SIZE;
	if (n) {
		mops->cbcmac(rk, st->dg, p, n);
		p += n * SM4_BLOCK_SIZE;
		len -= n * SM4_BLOCK_SIZE;
	}
	crypto_xor(st->dg, p, len);
	st->len = len;
}

void sm4_mac_flush(const struct sm4_mac_ops *mops, const u32 *rk,
		   struct sm4_mac_state *st)
{
	if (st->len)
		mops->cbcmac(rk, st->dg, sm4_zero_block, 1);
	st->len = 0;
}

void sm4_mac_final_keyed(const struct sm4_mac_ops *mops, const u32 *rk,
			 struct sm4_mac_state *st, const u8 *k_full,
			 const u8 *k_part)
{
	if (st->len == SM4_BLOCK_SIZE) {
		crypto_xor(st->dg, k_full, SM4_BLOCK_SIZE);
	} else {
		st->dg[st->len] ^= 0x80;
		crypto_xor(st->dg, k_part, SM4_BLOCK_SIZE);
	}
	mops->cbcmac(rk, st->dg, sm4_zero_block, 1);
	st->len = 0;
}

/* Multiply by x in GF(2^128), big-endian, x^128 = x^7 + x^2 + x + 1. */
static void sm4_cmac_double(u8 *out, const u8 *in)
{
	u8 carry = in[0] >> 7;
	int i;

	for (i = 0; i < SM4_BLOCK_SIZE - 1; i++)
		out[i] = (in[i] << 1) | (in[i + 1] >> 7);
	/* Constant time: 0x87 masked by the carry. */
	out[SM4_BLOCK_SIZE - 1] = (in[SM4_BLOCK_SIZE - 1] << 1) ^
				  (0x87 & -carry);
}

void sm4_cmac_subkeys(const struct sm4_mac_ops *mops, const u32 *rk,
		      u8 *k1, u8 *k2)
{
	u8 l[SM4_BLOCK_SIZE];

	sm4_mac_encrypt_block(mops, rk, l, sm4_zero_block);
	sm4_cmac_double(k1, l);
	sm4_cmac_double(k2, k1);
	memzero_explicit(l, sizeof(l));
}

void sm4_xcbc_subkeys(const struct sm4_mac_ops *mops, const u32 *rk,
		      u8 *k1, u8 *k2, u8 *k3)
{
	/* RFC 3566: Kn = E(K, n repeated), n = 1, 2, 3 */
	memset(k1, 1, SM4_BLOCK_SIZE);
	memset(k2, 2, SM4_BLOCK_SIZE);
	memset(k3, 3, SM4_BLOCK_SIZE);
	sm4_mac_encrypt_block(mops, rk, k1, k1);
	sm4_mac_encrypt_block(mops, rk, k2, k2);
	sm4_mac_encrypt_block(mops, rk, k3, k3);
}

/* ---- CCM ------------------------------------------------------------- */

/* @blk := A_@i, counter block @i after @ctr0 (@i fits in its L bytes). */
static void sm4_ccm_counter(u8 *blk, const u8 *ctr0, unsigned int i)
{
	unsigned int k;

	memcpy(blk, ctr0, SM4_BLOCK_SIZE);
	for (k = SM4_BLOCK_SIZE - 1; i; k--, i >>= 8)
		blk[k] = i;
}

int sm4_ccm_start(const struct sm4_mode_ops *ops,
		  const struct sm4_mac_ops *mops, const u32 *rk,
		  struct sm4_ccm_state *st, const u8 *iv,
		  unsigned int assoclen, unsigned int cryptlen,
		  unsigned int authsize)
{
	unsigned int l = iv[0] + 1;	/* bytes of the length/counter field */
	unsigned int first = cryptlen / SM4_BLOCK_SIZE, i;
	unsigned int nblocks = first + !!(cryptlen % SM4_BLOCK_SIZE);
	u8 hdr[6];
	unsigned int hlen, n;
	u8 *b0 = st->ks;

	/* RFC 3610: L' = L - 1 in 1..7 */
	if (iv[0] < 1 || iv[0] > 7 || !sm4_ccm_authsize_ok(authsize))
		return -EINVAL;
	/* The length must fit in L bytes (only L < 4 can overflow a u32). */
	if (l < 4 && cryptlen >> (8 * l))
		return -EOVERFLOW;

	memset(st, 0, sizeof(*st));
	memcpy(st->ctr0, iv, SM4_BLOCK_SIZE - l);
	sm4_ccm_counter(st->ctr, st->ctr0, 1);

	memcpy(b0, st->ctr0, SM4_BLOCK_SIZE);
	b0[0] |= ((authsize - 2) / 2) << 3;
	if (assoclen)
		b0[0] |= 0x40;
	/* cryptlen big-endian in the last min(L, 4) bytes */
	put_unaligned_be32(cryptlen, hdr);
	n = min_t(unsigned int, l, 4);
	memcpy(b0 + SM4_BLOCK_SIZE - n, hdr + 4 - n, n);

	/* B0, A0, then the counter blocks of text block first on. */
	if (nblocks <= min_t(unsigned int, mops->short_blocks,
			     SM4_CCM_SHORT_MAX))
		first = 0;
	st->from = first * SM4_BLOCK_SIZE;
	memcpy(st->ks + SM4_BLOCK_SIZE, st->ctr0, SM4_BLOCK_SIZE);
	for (i = first; i < nblocks; i++)
		sm4_ccm_counter(st->ks + (i - first + 2) * SM4_BLOCK_SIZE,
				st->ctr0, i + 1);
	ops->ecb(rk, st->ks, st->ks, nblocks - first + 2);
	memcpy(st->mac.dg, st->ks, SM4_BLOCK_SIZE);

	if (!assoclen)
		return 0;
	if (assoclen < 0xff00) {
		hdr[0] = assoclen >> 8;
		hdr[1] = assoclen;
		hlen = 2;
	} else {
		hdr[0] = 0xff;
		hdr[1] = 0xfe;
		put_unaligned_be32(assoclen, hdr + 2);
		hlen = 6;
	}
	sm4_mac_update(mops, rk, &st->mac, hdr, hlen);
	return 0;
}

/*
 * Of the next @len bytes of @st's text: how many come before the
 * keystream made up front (a multiple of 16), and, through @ks, where
 * the rest's keystream is.
 */
static unsigned int sm4_ccm_bulk(struct sm4_ccm_state *st, unsigned int len,
				 u8 **ks)
{
	unsigned int bulk = 0;

	if (st->pos < st->from)
		bulk = min_t(unsigned int, len, st->from - st->pos);
	*ks = NULL;
	if (bulk < len)
		*ks = st->ks + 2 * SM4_BLOCK_SIZE + st->pos + bulk - st->from;
	st->pos += len;
	return bulk;
}

/* Whole blocks: mops->ccm_enc, or the CBC-MAC of src, then CTR. */
static void sm4_ccm_enc_blocks(const struct sm4_mode_ops *ops,
			       const struct sm4_mac_ops *mops, const u32 *rk,
			       struct sm4_ccm_state *st, u8 *dst,
			       const u8 *src, unsigned int nblocks)
{
	if (mops->ccm_enc) {
		mops->ccm_enc(rk, dst, src, nblocks, st->ctr, st->mac.dg);
		return;
	}
	mops->cbcmac(rk, st->mac.dg, src, nblocks);
	ops->ctr(rk, dst, src, nblocks, st->ctr);
}

/*
 * Whole blocks of the first decryption pass: mops->ccm_dec_mac, or CTR
 * into a stack buffer and the CBC-MAC of that, a buffer at a time; the
 * blocks whose keystream was made up front through the buffer too.
 */
static void sm4_ccm_dec_mac_blocks(const struct sm4_mode_ops *ops,
				   const struct sm4_mac_ops *mops,
				   const u32 *rk, struct sm4_ccm_state *st,
				   const u8 *src, unsigned int nblocks)
{
	u8 p[SM4_CCM_COMPOSE_BYTES];
	unsigned int n, bulk;
	u8 *ks;

	bulk = sm4_ccm_bulk(st, nblocks * SM4_BLOCK_SIZE, &ks) /
	       SM4_BLOCK_SIZE;
	nblocks -= bulk;
	if (bulk && mops->ccm_dec_mac) {
		mops->ccm_dec_mac(rk, src, bulk, st->ctr, st->mac.dg);
		src += bulk * SM4_BLOCK_SIZE;
		bulk = 0;
	}
	for (; bulk; bulk -= n, src += n * SM4_BLOCK_SIZE) {
		n = min_t(unsigned int, bulk, sizeof(p) / SM4_BLOCK_SIZE);
		ops->ctr(rk, p, src, n, st->ctr);
		mops->cbcmac(rk, st->mac.dg, p, n);
	}
	if (nblocks) {
		/* At most SM4_CCM_SHORT_MAX blocks: one buffer. */
		crypto_xor_cpy(p, src, ks, nblocks * SM4_BLOCK_SIZE);
		mops->cbcmac(rk, st->mac.dg, p, nblocks);
	}
	memzero_explicit(p, sizeof(p));
}

void sm4_ccm_encrypt(const struct sm4_mode_ops *ops,
		     const struct sm4_mac_ops *mops, const u32 *rk,
		     struct sm4_ccm_state *st, u8 *dst, const u8 *src,
		     unsigned int len)
{
	unsigned int bulk, nblocks, tail;
	u8 in[SM4_BLOCK_SIZE];
	u8 *ks;

	bulk = sm4_ccm_bulk(st, len, &ks);
	if (bulk)
		sm4_ccm_enc_blocks(ops, mops, rk, st, dst, src,
				   bulk / SM4_BLOCK_SIZE);
	src += bulk;
	dst += bulk;
	len -= bulk;
	if (!len)
		return;
	/* The keystream is there: the MAC of the plaintext, then the XOR. */
	nblocks = len / SM4_BLOCK_SIZE;
	tail = len % SM4_BLOCK_SIZE;
	if (nblocks)
		mops->cbcmac(rk, st->mac.dg, src, nblocks);
	if (tail) {
		/* The last plaintext block is MACed zero-padded. */
		memset(in, 0, sizeof(in));
		memcpy(in, src + nblocks * SM4_BLOCK_SIZE, tail);
		mops->cbcmac(rk, st->mac.dg, in, 1);
		memzero_explicit(in, sizeof(in));
	}
	crypto_xor_cpy(dst, src, ks, len);
}

void sm4_ccm_decrypt_mac(const struct sm4_mode_ops *ops,
			 const struct sm4_mac_ops *mops, const u32 *rk,
			 struct sm4_ccm_state *st, const u8 *src,
			 unsigned int len)
{
	unsigned int n;

	if (st->ncarry) {
		n = min_t(unsigned int, len, SM4_BLOCK_SIZE - st->ncarry);
		memcpy(st->carry + st->ncarry, src, n);
		st->ncarry += n;
		src += n;
		len -= n;
		if (st->ncarry < SM4_BLOCK_SIZE)
			return;
		sm4_ccm_dec_mac_blocks(ops, mops, rk, st, st->carry, 1);
		st->ncarry = 0;
	}
	n = len / SM4_BLOCK_SIZE;
	if (n)
		sm4_ccm_dec_mac_blocks(ops, mops, rk, st, src, n);
	len %= SM4_BLOCK_SIZE;
	memcpy(st->carry, src + n * SM4_BLOCK_SIZE, len);
	st->ncarry = len;
}

void sm4_ccm_decrypt_mac_end(const struct sm4_mac_ops *mops, const u32 *rk,
			     struct sm4_ccm_state *st)
{
	u8 p[SM4_BLOCK_SIZE];
	u8 *ks;

	if (!st->ncarry)
		return;
	/*
	 * The partial last block, whose keystream is always made up front:
	 * decrypt it, MAC it zero-padded.
	 */
	sm4_ccm_bulk(st, st->ncarry, &ks);
	memset(p, 0, sizeof(p));
	crypto_xor_cpy(p, st->carry, ks, st->ncarry);
	mops->cbcmac(rk, st->mac.dg, p, 1);
	memzero_explicit(p, sizeof(p));
	st->ncarry = 0;
}

void sm4_ccm_tag(const struct sm4_ccm_state *st, u8 *tag)
{
	crypto_xor_cpy(tag, st->mac.dg, st->ks + SM4_BLOCK_SIZE,
		       SM4_BLOCK_SIZE);
}

void sm4_ccm_decrypt_rewind(struct sm4_ccm_state *st)
{
	sm4_ccm_counter(st->ctr, st->ctr0, 1);
	st->pos = 0;
}

void sm4_ccm_decrypt_piece(const struct sm4_mode_ops *ops, const u32 *rk,
			   struct sm4_ccm_state *st, u8 *dst, const u8 *src,
			   unsigned int len)
{
	unsigned int bulk;
	u8 *ks;

	bulk = sm4_ccm_bulk(st, len, &ks);
	if (bulk)
		ops->ctr(rk, dst, src, bulk / SM4_BLOCK_SIZE, st->ctr);
	if (ks)
		crypto_xor_cpy(dst + bulk, src + bulk, ks, len - bulk);
}
