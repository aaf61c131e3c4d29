// SPDX-License-Identifier: GPL-2.0
/*
 * SM4 modes of operation, written once over struct sm4_mode_ops, and the
 * portable implementation of those ops on top of sm4_crypt_block().
 *
 * Every accelerated driver uses the sm4_mode_*() functions for its
 * partial final blocks and XTS ciphertext stealing, and uses
 * sm4_generic_mode_ops as its fallback when SIMD is not usable.
 */

#include <linux/module.h>
#include <linux/export.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <crypto/algapi.h>
#include <sm4/compat.h>
#include <sm4/modes.h>

/*
 * ---- The portable bulk functions -----------------------------------
 *
 * dst only ever receives final output: intermediate blocks (a block
 * masked with its tweak, a decrypted block before its chaining XOR)
 * are formed on the stack and wiped, since dst may be visible to others
 * while the request runs (AF_ALG pages, O_DIRECT user pages).
 */

static void sm4_generic_ecb(const u32 *rk, u8 *dst, const u8 *src,
			    unsigned int nblocks)
{
	while (nblocks--) {
		sm4_crypt_block(rk, dst, src);
		dst += SM4_BLOCK_SIZE;
		src += SM4_BLOCK_SIZE;
	}
}

static void sm4_generic_cbc_enc(const u32 *rk, u8 *dst, const u8 *src,
				unsigned int nblocks, u8 *iv)
{
	u8 block[SM4_BLOCK_SIZE];

	while (nblocks--) {
		crypto_xor_cpy(block, src, iv, SM4_BLOCK_SIZE);
		sm4_crypt_block(rk, iv, block);
		memcpy(dst, iv, SM4_BLOCK_SIZE);
		dst += SM4_BLOCK_SIZE;
		src += SM4_BLOCK_SIZE;
	}
	memzero_explicit(block, sizeof(block));
}

static void sm4_generic_cbc_dec(const u32 *rk, u8 *dst, const u8 *src,
				unsigned int nblocks, u8 *iv)
{
	u8 block[SM4_BLOCK_SIZE];

	while (nblocks--) {
		sm4_crypt_block(rk, block, src);
		crypto_xor(block, iv, SM4_BLOCK_SIZE);
		memcpy(iv, src, SM4_BLOCK_SIZE);
		memcpy(dst, block, SM4_BLOCK_SIZE);
		dst += SM4_BLOCK_SIZE;
		src += SM4_BLOCK_SIZE;
	}
	memzero_explicit(block, sizeof(block));
}

static void sm4_generic_cfb_enc(const u32 *rk, u8 *dst, const u8 *src,
				unsigned int nblocks, u8 *iv)
{
	while (nblocks--) {
		sm4_crypt_block(rk, iv, iv);
		crypto_xor(iv, src, SM4_BLOCK_SIZE);
		memcpy(dst, iv, SM4_BLOCK_SIZE);
		dst += SM4_BLOCK_SIZE;
		src += SM4_BLOCK_SIZE;
	}
}

static void sm4_generic_cfb_dec(const u32 *rk, u8 *dst, const u8 *src,
				unsigned int nblocks, u8 *iv)
{
	u8 keystream[SM4_BLOCK_SIZE];

	while (nblocks--) {
		sm4_crypt_block(rk, keystream, iv);
		memcpy(iv, src, SM4_BLOCK_SIZE);
		crypto_xor_cpy(dst, src, keystream, SM4_BLOCK_SIZE);
		dst += SM4_BLOCK_SIZE;
		src += SM4_BLOCK_SIZE;
	}
	memzero_explicit(keystream, sizeof(keystream));
}

/* Add one to a 128-bit big-endian counter. */
static void sm4_ctr_inc(u8 *ctr)
{
	int i;

	for (i = SM4_BLOCK_SIZE - 1; i >= 0; i--)
		if (++ctr[i])
			break;
}

static void sm4_generic_ctr(const u32 *rk, u8 *dst, const u8 *src,
			    unsigned int nblocks, u8 *ctr)
{
	u8 keystream[SM4_BLOCK_SIZE];

	while (nblocks--) {
		sm4_crypt_block(rk, keystream, ctr);
		sm4_ctr_inc(ctr);
		crypto_xor_cpy(dst, src, keystream, SM4_BLOCK_SIZE);
		dst += SM4_BLOCK_SIZE;
		src += SM4_BLOCK_SIZE;
	}
	memzero_explicit(keystream, sizeof(keystream));
}

/* Multiply an XTS tweak by x in GF(2^128), IEEE 1619 byte order. */
static void sm4_xts_mul_x(u8 *tweak)
{
	u64 lo = get_unaligned_le64(tweak);
	u64 hi = get_unaligned_le64(tweak + 8);
	u64 carry = hi >> 63;

	hi = (hi << 1) | (lo >> 63);
	lo = (lo << 1) ^ (carry * 0x87);
	put_unaligned_le64(lo, tweak);
	put_unaligned_le64(hi, tweak + 8);
}

static void sm4_generic_xts(const u32 *rk, u8 *dst, const u8 *src,
			    unsigned int nblocks, u8 *tweak)
{
	u8 block[SM4_BLOCK_SIZE];

	while (nblocks--) {
		crypto_xor_cpy(block, src, tweak, SM4_BLOCK_SIZE);
		sm4_crypt_block(rk, block, block);
		crypto_xor_cpy(dst, block, tweak, SM4_BLOCK_SIZE);
		sm4_xts_mul_x(tweak);
		dst += SM4_BLOCK_SIZE;
		src += SM4_BLOCK_SIZE;
	}
	memzero_explicit(block, sizeof(block));
}

const struct sm4_mode_ops sm4_generic_mode_ops = {
	.ecb		= sm4_generic_ecb,
	.cbc_enc	= sm4_generic_cbc_enc,
	.cbc_dec	= sm4_generic_cbc_dec,
	.cfb_enc	= sm4_generic_cfb_enc,
	.cfb_dec	= sm4_generic_cfb_dec,
	.ctr		= sm4_generic_ctr,
	.xts_enc	= sm4_generic_xts,
	.xts_dec	= sm4_generic_xts,
};
SM4_EXPORT_SYMBOL_NS_GPL(sm4_generic_mode_ops);

/* ---- Byte-granular modes over any implementation ------------------ */

/*
 * The stream modes: whole blocks through @bulk, then a partial final
 * block XORed with the encryption of the chaining value (for CFB the
 * previous ciphertext block, for CTR the counter).  Returns whether
 * there was a partial block.
 */
static bool sm4_mode_stream(const struct sm4_mode_ops *ops, sm4_chain_fn bulk,
			    const u32 *rk, u8 *dst, const u8 *src,
			    unsigned int len, u8 *iv)
{
	unsigned int nblocks = len / SM4_BLOCK_SIZE;
	unsigned int done = nblocks * SM4_BLOCK_SIZE;
	u8 keystream[SM4_BLOCK_SIZE];

	if (nblocks)
		bulk(rk, dst, src, nblocks, iv);
	if (len == done)
		return false;

	ops->ecb(rk, keystream, iv, 1);
	crypto_xor_cpy(dst + done, src + done, keystream, len - done);
	memzero_explicit(keystream, sizeof(keystream));
	return true;
}

void sm4_mode_cfb_encrypt(const struct sm4_mode_ops *ops, const u32 *rk,
			  u8 *dst, const u8 *src, unsigned int len, u8 *iv)
{
	sm4_mode_stream(ops, ops->cfb_enc, rk, dst, src, len, iv);
}

void sm4_mode_cfb_decrypt(const struct sm4_mode_ops *ops, const u32 *rk,
			  u8 *dst, const u8 *src, unsigned int len, u8 *iv)
{
	sm4_mode_stream(ops, ops->cfb_dec, rk, dst, src, len, iv);
}

/* The longest CTR tail, in blocks with its partial block, made apart. */
#define SM4_CTR_TAIL_MAX	32

/*
 * CTR: a text ending in a partial block has that block's keystream made
 * in the same call as its tail (the full blocks after the last whole
 * batch of ops->batch), on a copy of the tail in the frame, so that the
 * bulk runs whole batches and the partial block is no chain of its own.
 * Only ciphertext reaches dst; the frame's copy is wiped.
 */
void sm4_mode_ctr_crypt(const struct sm4_mode_ops *ops, const u32 *rk,
			u8 *dst, const u8 *src, unsigned int len, u8 *ctr)
{
	unsigned int full = len / SM4_BLOCK_SIZE, tail = 0, off, n;
	u8 buf[SM4_CTR_TAIL_MAX * SM4_BLOCK_SIZE];

	if (ops->batch && len % SM4_BLOCK_SIZE)
		tail = full % ops->batch;
	if (!tail || tail >= min_t(unsigned int, ops->batch,
				   SM4_CTR_TAIL_MAX)) {
		/* The counter moves past a partial block too. */
		if (sm4_mode_stream(ops, ops->ctr, rk, dst, src, len, ctr))
			sm4_ctr_inc(ctr);
		return;
	}
	if (full > tail)
		ops->ctr(rk, dst, src, full - tail, ctr);
	off = (full - tail) * SM4_BLOCK_SIZE;
	n = len - off;
	memcpy(buf, src + off, n);
	memset(buf + n, 0, (tail + 1) * SM4_BLOCK_SIZE - n);
	ops->ctr(rk, buf, buf, tail + 1, ctr);
	memcpy(dst + off, buf, n);
	memzero_explicit(buf, (tail + 1) * SM4_BLOCK_SIZE);
}

/*
 * XTS with ciphertext stealing (IEEE 1619-2007, 5.3.2).  With m full
 * blocks and a tail of r bytes, the last full block and the tail are
 * handled together: encryption swaps the order in which the last two
 * tweaks are used relative to decryption.
 */
static int sm4_mode_xts_crypt(const struct sm4_mode_ops *ops, const u32 *rk,
			      u8 *dst, const u8 *src, unsigned int len,
			      u8 *tweak, bool enc)
{
	sm4_chain_fn xts = enc ? ops->xts_enc : ops->xts_dec;
	unsigned int tail = len % SM4_BLOCK_SIZE;
	unsigned int nblocks = len / SM4_BLOCK_SIZE;
	u8 first_tweak[SM4_BLOCK_SIZE], second_tweak[SM4_BLOCK_SIZE];
	u8 block[SM4_BLOCK_SIZE], stolen[SM4_BLOCK_SIZE];

	if (len < SM4_BLOCK_SIZE)
		return -EINVAL;

	if (!tail) {
		xts(rk, dst, src, nblocks, tweak);
		return 0;
	}

	/* All full blocks but the last one. */
	if (nblocks > 1)
		xts(rk, dst, src, nblocks - 1, tweak);
	src += (nblocks - 1) * SM4_BLOCK_SIZE;
	dst += (nblocks - 1) * SM4_BLOCK_SIZE;

	/* Encryption uses T(m-1) then T(m); decryption the reverse. */
	memcpy(first_tweak, tweak, SM4_BLOCK_SIZE);
	memcpy(second_tweak, tweak, SM4_BLOCK_SIZE);
	sm4_xts_mul_x(second_tweak);
	if (!enc) {
		memcpy(tweak, first_tweak, SM4_BLOCK_SIZE);
		memcpy(first_tweak, second_tweak, SM4_BLOCK_SIZE);
		memcpy(second_tweak, tweak, SM4_BLOCK_SIZE);
	}

	/*
	 * block = E(last full block): its head becomes the short final
	 * block, and the stolen tail of the input takes the head's place.
	 * The input tail is saved first, as dst may equal src.
	 */
	memcpy(stolen, src + SM4_BLOCK_SIZE, tail);
	xts(rk, block, src, 1, first_tweak);
	memcpy(dst + SM4_BLOCK_SIZE, block, tail);
	memcpy(block, stolen, tail);
	xts(rk, dst, block, 1, second_tweak);

	memcpy(tweak, second_tweak, SM4_BLOCK_SIZE);
	memzero_explicit(first_tweak, sizeof(first_tweak));
	memzero_explicit(second_tweak, sizeof(second_tweak));
	memzero_explicit(block, sizeof(block));
	memzero_explicit(stolen, sizeof(stolen));
	return 0;
}

int sm4_mode_xts_encrypt(const struct sm4_mode_ops *ops, const u32 *rk,
			 u8 *dst, const u8 *src, unsigned int len, u8 *tweak)
{
	return sm4_mode_xts_crypt(ops, rk, dst, src, len, tweak, true);
}

int sm4_mode_xts_decrypt(const struct sm4_mode_ops *ops, const u32 *rk,
			 u8 *dst, const u8 *src, unsigned int len, u8 *tweak)
{
	return sm4_mode_xts_crypt(ops, rk, dst, src, len, tweak, false);
}

/*
 * CBC-CS3.  With P(n-1) the last full block and P(n) the final d bytes
 * (1..16): C' = E(P(n-1) ^ C(n-2)), and the output ends in
 * E(pad(P(n)) ^ C') followed by the first d bytes of C'.  @iv is left
 * as the kernel's cts template leaves req->iv, in both directions: the
 * full ciphertext block E(pad(P(n)) ^ C') (a lone block: its ciphertext).
 */
static int sm4_mode_cts_crypt(const struct sm4_mode_ops *ops, const u32 *rk,
			      u8 *dst, const u8 *src, unsigned int len,
			      u8 *iv, bool enc)
{
	sm4_chain_fn cbc = enc ? ops->cbc_enc : ops->cbc_dec;
	unsigned int last, bulk;
	u8 a[SM4_BLOCK_SIZE], b[SM4_BLOCK_SIZE];

	if (len < SM4_BLOCK_SIZE)
		return -EINVAL;
	if (len == SM4_BLOCK_SIZE) {
		cbc(rk, dst, src, 1, iv);
		return 0;
	}
	last = len - (len - 1) / SM4_BLOCK_SIZE * SM4_BLOCK_SIZE;
	bulk = len - SM4_BLOCK_SIZE - last;
	if (bulk)
		cbc(rk, dst, src, bulk / SM4_BLOCK_SIZE, iv);
	src += bulk;
	dst += bulk;

	if (enc) {
		memset(b, 0, sizeof(b));
		memcpy(b, src + SM4_BLOCK_SIZE, last);
		cbc(rk, a, src, 1, iv);			/* a = C' */
		cbc(rk, b, b, 1, iv);
	} else {
		/* D(first block) = pad(P(n)) ^ C'; C' ends like it. */
		ops->ecb(rk, a, src, 1);
		memcpy(b, src + SM4_BLOCK_SIZE, last);
		memcpy(b + last, a + last, SM4_BLOCK_SIZE - last);
		crypto_xor(a, b, SM4_BLOCK_SIZE);	/* a = P(n), padded */
		cbc(rk, b, b, 1, iv);			/* b = P(n-1) */
		/* The IV out is that of encryption: the full block. */
		memcpy(iv, src, SM4_BLOCK_SIZE);
	}
	memcpy(dst, b, SM4_BLOCK_SIZE);
	memcpy(dst + SM4_BLOCK_SIZE, a, last);
	memzero_explicit(a, sizeof(a));
	memzero_explicit(b, sizeof(b));
	return 0;
}

int sm4_mode_cts_encrypt(const struct sm4_mode_ops *ops, const u32 *rk,
			 u8 *dst, const u8 *src, unsigned int len, u8 *iv)
{
	return sm4_mode_cts_crypt(ops, rk, dst, src, len, iv, true);
}

int sm4_mode_cts_decrypt(const struct sm4_mode_ops *ops, const u32 *rk,
			 u8 *dst, const u8 *src, unsigned int len, u8 *iv)
{
	return sm4_mode_cts_crypt(ops, rk, dst, src, len, iv, false);
}
