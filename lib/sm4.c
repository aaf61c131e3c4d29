// SPDX-License-Identifier: GPL-2.0
/*
 * SM4 block cipher library (GB/T 32907-2016): key expansion and
 * single-block encryption/decryption, with the exports of upstream
 * include/crypto/sm4.h.
 *
 * Cache-timing note.  The round function looks up the 256-byte S-box with
 * bytes that depend on the key and the data.  Before each block (and each
 * key expansion) sm4_touch_sbox() reads the table every SM4_SBOX_TOUCH
 * bytes, from a start aligned to SM4_SBOX_ALIGN (both explained at the
 * table), so that all of its cache lines are resident when the
 * secret-indexed lookups start.  This defeats an attacker who can only
 * observe, after the fact, which cache lines were brought in by a block
 * (e.g. flush+reload or prime+probe spanning the whole block).  It does
 * not protect against an attacker who can evict lines while the block is
 * being processed (e.g. an SMT sibling or an interrupt in the middle),
 * nor against timing differences within a cache line (bank conflicts).
 * The SIMD drivers of this project use no secret-indexed memory access,
 * and the glue runs them at every request length where SIMD is usable;
 * this code serves the rest (no SIMD in the calling context, in-tree
 * users of the library such as upstream's drivers).
 */

#include <linux/module.h>
#include <linux/export.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/init.h>
#include <sm4/compat.h>
#include <sm4/sm4.h>

const u32 crypto_sm4_fk[4] = {
	0xa3b1bac6, 0x56aa3350, 0x677d9197, 0xb27022dc,
};
EXPORT_SYMBOL(crypto_sm4_fk);

/*
 * sm4_touch_sbox() reads the table every SM4_SBOX_TOUCH bytes from its
 * start.  That reaches every cache line the table occupies if the start
 * is a multiple of SM4_SBOX_TOUCH and no line is shorter than it.
 *
 * L1_CACHE_BYTES is not that lower bound: it is what a kernel
 * configuration assumes for alignment and false sharing, not the line
 * size of the CPU it runs on (x86-64 built for CONFIG_MPSC says 128
 * where the lines are 64 bytes; arm64 says 64, also on cores with 128-
 * and 256-byte lines).
 * So the stride is a fixed 32 bytes, at or below the line size of every
 * x86-64 and arm64 core (64 or more) and of the common 32-bit ARM cores
 * (Cortex-A5 and A9: 32) should the portable code be built there; on
 * 64-byte lines it costs four more L1 hits per block.  The table is
 * aligned to 64 (any multiple of the stride would keep the guarantee) so
 * that on the usual 64-byte lines it fills exactly four.  The alignment
 * is on this definition only: the declaration in include/sm4/sm4.h,
 * which the export's modversions CRC is computed from, stays upstream's.
 */
#define SM4_SBOX_TOUCH	32
#define SM4_SBOX_ALIGN	64

const u8 crypto_sm4_sbox[256] __aligned(SM4_SBOX_ALIGN) = {
	0xd6, 0x90, 0xe9, 0xfe, 0xcc, 0xe1, 0x3d, 0xb7,
	0x16, 0xb6, 0x14, 0xc2, 0x28, 0xfb, 0x2c, 0x05,
	0x2b, 0x67, 0x9a, 0x76, 0x2a, 0xbe, 0x04, 0xc3,
	0xaa, 0x44, 0x13, 0x26, 0x49, 0x86, 0x06, 0x99,
	0x9c, 0x42, 0x50, 0xf4, 0x91, 0xef, 0x98, 0x7a,
	0x33, 0x54, 0x0b, 0x43, 0xed, 0xcf, 0xac, 0x62,
	0xe4, 0xb3, 0x1c, 0xa9, 0xc9, 0x08, 0xe8, 0x95,
	0x80, 0xdf, 0x94, 0xfa, 0x75, 0x8f, 0x3f, 0xa6,
	0x47, 0x07, 0xa7, 0xfc, 0xf3, 0x73, 0x17, 0xba,
	0x83, 0x59, 0x3c, 0x19, 0xe6, 0x85, 0x4f, 0xa8,
	0x68, 0x6b, 0x81, 0xb2, 0x71, 0x64, 0xda, 0x8b,
	0xf8, 0xeb, 0x0f, 0x4b, 0x70, 0x56, 0x9d, 0x35,
	0x1e, 0x24, 0x0e, 0x5e, 0x63, 0x58, 0xd1, 0xa2,
	0x25, 0x22, 0x7c, 0x3b, 0x01, 0x21, 0x78, 0x87,
	0xd4, 0x00, 0x46, 0x57, 0x9f, 0xd3, 0x27, 0x52,
	0x4c, 0x36, 0x02, 0xe7, 0xa0, 0xc4, 0xc8, 0x9e,
	0xea, 0xbf, 0x8a, 0xd2, 0x40, 0xc7, 0x38, 0xb5,
	0xa3, 0xf7, 0xf2, 0xce, 0xf9, 0x61, 0x15, 0xa1,
	0xe0, 0xae, 0x5d, 0xa4, 0x9b, 0x34, 0x1a, 0x55,
	0xad, 0x93, 0x32, 0x30, 0xf5, 0x8c, 0xb1, 0xe3,
	0x1d, 0xf6, 0xe2, 0x2e, 0x82, 0x66, 0xca, 0x60,
	0xc0, 0x29, 0x23, 0xab, 0x0d, 0x53, 0x4e, 0x6f,
	0xd5, 0xdb, 0x37, 0x45, 0xde, 0xfd, 0x8e, 0x2f,
	0x03, 0xff, 0x6a, 0x72, 0x6d, 0x6c, 0x5b, 0x51,
	0x8d, 0x1b, 0xaf, 0x92, 0xbb, 0xdd, 0xbc, 0x7f,
	0x11, 0xd9, 0x5c, 0x41, 0x1f, 0x10, 0x5a, 0xd8,
	0x0a, 0xc1, 0x31, 0x88, 0xa5, 0xcd, 0x7b, 0xbd,
	0x2d, 0x74, 0xd0, 0x12, 0xb8, 0xe5, 0xb4, 0xb0,
	0x89, 0x69, 0x97, 0x4a, 0x0c, 0x96, 0x77, 0x7e,
	0x65, 0xb9, 0xf1, 0x09, 0xc5, 0x6e, 0xc6, 0x84,
	0x18, 0xf0, 0x7d, 0xec, 0x3a, 0xdc, 0x4d, 0x20,
	0x79, 0xee, 0x5f, 0x3e, 0xd7, 0xcb, 0x39, 0x48,
};
EXPORT_SYMBOL(crypto_sm4_sbox);

const u32 crypto_sm4_ck[32] = {
	0x00070e15, 0x1c232a31, 0x383f464d, 0x545b6269,
	0x70777e85, 0x8c939aa1, 0xa8afb6bd, 0xc4cbd2d9,
	0xe0e7eef5, 0xfc030a11, 0x181f262d, 0x343b4249,
	0x50575e65, 0x6c737a81, 0x888f969d, 0xa4abb2b9,
	0xc0c7ced5, 0xdce3eaf1, 0xf8ff060d, 0x141b2229,
	0x30373e45, 0x4c535a61, 0x686f767d, 0x848b9299,
	0xa0a7aeb5, 0xbcc3cad1, 0xd8dfe6ed, 0xf4fb0209,
	0x10171e25, 0x2c333a41, 0x484f565d, 0x646b7279,
};
EXPORT_SYMBOL(crypto_sm4_ck);

/* Read every cache line of the S-box; see the notes above. */
static __always_inline void sm4_touch_sbox(void)
{
	unsigned int i;

	BUILD_BUG_ON(SM4_SBOX_ALIGN % SM4_SBOX_TOUCH ||
		     sizeof(crypto_sm4_sbox) % SM4_SBOX_TOUCH);
	for (i = 0; i < sizeof(crypto_sm4_sbox); i += SM4_SBOX_TOUCH)
		(void)READ_ONCE(crypto_sm4_sbox[i]);
}

/* tau: the S-box applied to each byte of a word */
static __always_inline u32 sm4_tau(u32 x)
{
	return ((u32)crypto_sm4_sbox[x >> 24] << 24) |
	       ((u32)crypto_sm4_sbox[(x >> 16) & 0xff] << 16) |
	       ((u32)crypto_sm4_sbox[(x >> 8) & 0xff] << 8) |
	       (u32)crypto_sm4_sbox[x & 0xff];
}

/* T: the round transform, L(tau(x)) */
static __always_inline u32 sm4_round_t(u32 x)
{
	u32 b = sm4_tau(x);

	return b ^ rol32(b, 2) ^ rol32(b, 10) ^ rol32(b, 18) ^ rol32(b, 24);
}

/* T': the key-schedule transform, L'(tau(x)) */
static __always_inline u32 sm4_key_t(u32 x)
{
	u32 b = sm4_tau(x);

	return b ^ rol32(b, 13) ^ rol32(b, 23);
}

int sm4_expandkey(struct sm4_ctx *ctx, const u8 *in_key,
		  unsigned int key_len)
{
	u32 k0, k1, k2, k3, next;
	unsigned int i;

	if (key_len != SM4_KEY_SIZE)
		return -EINVAL;

	sm4_touch_sbox();
	k0 = get_unaligned_be32(in_key + 0) ^ crypto_sm4_fk[0];
	k1 = get_unaligned_be32(in_key + 4) ^ crypto_sm4_fk[1];
	k2 = get_unaligned_be32(in_key + 8) ^ crypto_sm4_fk[2];
	k3 = get_unaligned_be32(in_key + 12) ^ crypto_sm4_fk[3];

	for (i = 0; i < SM4_RKEY_WORDS; i++) {
		next = k0 ^ sm4_key_t(k1 ^ k2 ^ k3 ^ crypto_sm4_ck[i]);
		ctx->rkey_enc[i] = next;
		ctx->rkey_dec[SM4_RKEY_WORDS - 1 - i] = next;
		k0 = k1;
		k1 = k2;
		k2 = k3;
		k3 = next;
	}
	k0 = k1 = k2 = k3 = next = 0;
	barrier_data(&k0);
	return 0;
}
EXPORT_SYMBOL_GPL(sm4_expandkey);

void sm4_crypt_block(const u32 *rk, u8 *out, const u8 *in)
{
	u32 x0, x1, x2, x3, t;
	unsigned int i;

	sm4_touch_sbox();
	x0 = get_unaligned_be32(in + 0);
	x1 = get_unaligned_be32(in + 4);
	x2 = get_unaligned_be32(in + 8);
	x3 = get_unaligned_be32(in + 12);

	for (i = 0; i < SM4_RKEY_WORDS; i += 4) {
		x0 ^= sm4_round_t(x1 ^ x2 ^ x3 ^ rk[i + 0]);
		x1 ^= sm4_round_t(x2 ^ x3 ^ x0 ^ rk[i + 1]);
		x2 ^= sm4_round_t(x3 ^ x0 ^ x1 ^ rk[i + 2]);
		x3 ^= sm4_round_t(x0 ^ x1 ^ x2 ^ rk[i + 3]);
	}

	/* The output is the last four words in reverse order. */
	put_unaligned_be32(x3, out + 0);
	put_unaligned_be32(x2, out + 4);
	put_unaligned_be32(x1, out + 8);
	put_unaligned_be32(x0, out + 12);
	t = 0;
	barrier_data(&t);
}
EXPORT_SYMBOL_GPL(sm4_crypt_block);

/*
 * Known-answer self-test: the single-block example of GB/T 32907-2016,
 * appendix A (key = plaintext = 0123456789abcdeffedcba9876543210).
 */
static const u8 sm4_kat_key[SM4_KEY_SIZE] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
};

static const u8 sm4_kat_ct[SM4_BLOCK_SIZE] = {
	0x68, 0x1e, 0xdf, 0x34, 0xd2, 0x06, 0x96, 0x5e,
	0x86, 0xb3, 0xe9, 0x4f, 0x53, 0x6e, 0x42, 0x46,
};

static int __init sm4_lib_init(void)
{
	struct sm4_ctx ctx;
	u8 buf[SM4_BLOCK_SIZE];
	int err = 0;

	if (sm4_expandkey(&ctx, sm4_kat_key, sizeof(sm4_kat_key)))
		err = -EINVAL;
	sm4_crypt_block(ctx.rkey_enc, buf, sm4_kat_key);
	if (memcmp(buf, sm4_kat_ct, sizeof(buf)))
		err = -EINVAL;
	sm4_crypt_block(ctx.rkey_dec, buf, buf);
	if (memcmp(buf, sm4_kat_key, sizeof(buf)))
		err = -EINVAL;
	memzero_explicit(&ctx, sizeof(ctx));
	if (err)
		pr_err("sm4: known-answer self-test failed, not loading\n");
	return err;
}

static void __exit sm4_lib_exit(void)
{
}

module_init(sm4_lib_init);
module_exit(sm4_lib_exit);

MODULE_DESCRIPTION("SM4 block cipher library (GB/T 32907-2016)");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
