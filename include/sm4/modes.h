/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 modes of operation, written once over a table of bulk functions.
 *
 * An implementation (the portable C code, or one SIMD backend) supplies
 * struct sm4_mode_ops: functions that each process a whole number of
 * 16-byte blocks, any count from 1 upwards, src == dst allowed.  The
 * sm4_mode_*() functions below add what every implementation shares: the
 * partial final block of CFB and CTR, and XTS ciphertext stealing.  The
 * kernel glue (include/sm4/glue.h) and the userspace test harness both
 * drive implementations through these functions.
 */
#ifndef _SM4_CRYPTO_MODES_H
#define _SM4_CRYPTO_MODES_H

#include <sm4/sm4.h>

/*
 * Bulk function types.  @rk is a 32-word round-key schedule (rkey_enc or
 * rkey_dec of struct sm4_ctx, as each mode requires), @nblocks >= 1.
 *
 * sm4_blocks_fn: ECB.
 * sm4_chain_fn:  a mode with 16 bytes of chaining state @iv, which is
 *                updated so that a following call continues the stream:
 *   cbc_enc/cbc_dec: @iv is the previous ciphertext block;
 *   cfb_enc/cfb_dec: @iv is the previous ciphertext block;
 *   ctr:             @iv is the 128-bit big-endian counter, incremented
 *                    once per block with carry through all 128 bits;
 *   xts_enc/xts_dec: @iv is the current tweak, already encrypted with
 *                    the tweak key, multiplied by x in GF(2^128) (IEEE
 *                    1619 little-endian convention) once per block.
 */
typedef void (*sm4_blocks_fn)(const u32 *rk, u8 *dst, const u8 *src,
			      unsigned int nblocks);
typedef void (*sm4_chain_fn)(const u32 *rk, u8 *dst, const u8 *src,
			     unsigned int nblocks, u8 *iv);

struct sm4_mode_ops {
	sm4_blocks_fn ecb;		/* rkey_enc or rkey_dec */
	sm4_chain_fn cbc_enc;		/* rkey_enc */
	sm4_chain_fn cbc_dec;		/* rkey_dec */
	sm4_chain_fn cfb_enc;		/* rkey_enc */
	sm4_chain_fn cfb_dec;		/* rkey_enc */
	sm4_chain_fn ctr;		/* rkey_enc */
	sm4_chain_fn xts_enc;		/* rkey_enc of the data key */
	sm4_chain_fn xts_dec;		/* rkey_dec of the data key */
	/*
	 * The blocks of the bulk functions' widest batch (0: not stated).
	 * A stream's full blocks after its last whole batch, its tail,
	 * then join the end that is made apart from the bulk: a partial
	 * final block in sm4_mode_ctr_crypt(), E_K(J0) in gcm
	 * (include/sm4/gcm.h), so that the bulk runs whole batches only.
	 */
	unsigned int batch;
};

/*
 * SM4_DECLARE_MODE_FNS(prefix): the bulk functions of a backend named
 * @prefix, as its assembly defines them; SM4_MODE_OPS(prefix, blocks): a
 * struct sm4_mode_ops initializer over them, .batch = @blocks;
 * SM4_DEFINE_MODE_OPS(ops_name, prefix, blocks): both, as the static
 * const @ops_name.  Because XTS decryption is XTS encryption with the
 * decryption round keys, one @prefix##_xts serves both directions.  The
 * functions are reached through function pointers, so the assembly must
 * define them with SYM_TYPED_FUNC_START.
 */
#ifndef asmlinkage
#define asmlinkage
#endif
#define SM4_DECLARE_MODE_FNS(prefix)					\
asmlinkage void prefix##_ecb(const u32 *rk, u8 *dst, const u8 *src,	\
			     unsigned int nblocks);			\
asmlinkage void prefix##_cbc_enc(const u32 *rk, u8 *dst, const u8 *src, \
				 unsigned int nblocks, u8 *iv);		\
asmlinkage void prefix##_cbc_dec(const u32 *rk, u8 *dst, const u8 *src, \
				 unsigned int nblocks, u8 *iv);		\
asmlinkage void prefix##_cfb_enc(const u32 *rk, u8 *dst, const u8 *src, \
				 unsigned int nblocks, u8 *iv);		\
asmlinkage void prefix##_cfb_dec(const u32 *rk, u8 *dst, const u8 *src, \
				 unsigned int nblocks, u8 *iv);		\
asmlinkage void prefix##_ctr(const u32 *rk, u8 *dst, const u8 *src,	\
			     unsigned int nblocks, u8 *ctr);		\
asmlinkage void prefix##_xts(const u32 *rk, u8 *dst, const u8 *src,	\
			     unsigned int nblocks, u8 *tweak)
#define SM4_MODE_OPS(prefix, blocks) {					\
	.ecb		= prefix##_ecb,					\
	.cbc_enc	= prefix##_cbc_enc,				\
	.cbc_dec	= prefix##_cbc_dec,				\
	.cfb_enc	= prefix##_cfb_enc,				\
	.cfb_dec	= prefix##_cfb_dec,				\
	.ctr		= prefix##_ctr,					\
	.xts_enc	= prefix##_xts,					\
	.xts_dec	= prefix##_xts,					\
	.batch		= (blocks),					\
}
#define SM4_DEFINE_MODE_OPS(ops_name, prefix, blocks)			\
SM4_DECLARE_MODE_FNS(prefix);						\
static const struct sm4_mode_ops ops_name =				\
	SM4_MODE_OPS(prefix, blocks)

/* The portable implementation, built on sm4_crypt_block(). */
extern const struct sm4_mode_ops sm4_generic_mode_ops;

/*
 * Byte-granular modes.  @len may end in a partial block; only the final
 * call of a stream may do so.  After a partial block @iv is no longer
 * meaningful for CFB; for CTR the counter has been incremented past it.
 */
void sm4_mode_cfb_encrypt(const struct sm4_mode_ops *ops, const u32 *rk,
			  u8 *dst, const u8 *src, unsigned int len, u8 *iv);
void sm4_mode_cfb_decrypt(const struct sm4_mode_ops *ops, const u32 *rk,
			  u8 *dst, const u8 *src, unsigned int len, u8 *iv);
void sm4_mode_ctr_crypt(const struct sm4_mode_ops *ops, const u32 *rk,
			u8 *dst, const u8 *src, unsigned int len, u8 *ctr);

/*
 * XTS over @len >= SM4_BLOCK_SIZE bytes with ciphertext stealing when
 * @len is not a multiple of the block size.  @tweak is the encrypted
 * tweak of the first block; on return it is the tweak that would follow
 * (meaningful only when @len was a multiple of the block size).
 * @rk is rkey_enc (encrypt) or rkey_dec (decrypt) of the data key.
 * Returns -EINVAL if @len < SM4_BLOCK_SIZE.
 */
int sm4_mode_xts_encrypt(const struct sm4_mode_ops *ops, const u32 *rk,
			 u8 *dst, const u8 *src, unsigned int len, u8 *tweak);
int sm4_mode_xts_decrypt(const struct sm4_mode_ops *ops, const u32 *rk,
			 u8 *dst, const u8 *src, unsigned int len, u8 *tweak);

/*
 * CBC with ciphertext stealing over @len >= SM4_BLOCK_SIZE bytes, the
 * CS3 variant of crypto/cts.c (for fscrypt file names): beyond one block
 * the last two blocks are always swapped, the final one possibly short.
 * @rk is rkey_enc (encrypt) or rkey_dec (decrypt); @iv is the CBC IV and
 * is left as crypto/cts.c leaves req->iv, the same in both directions:
 * the 16 ciphertext bytes before the final 1..16 (with @len ==
 * SM4_BLOCK_SIZE, the ciphertext).
 * Returns -EINVAL if @len < SM4_BLOCK_SIZE.
 */
int sm4_mode_cts_encrypt(const struct sm4_mode_ops *ops, const u32 *rk,
			 u8 *dst, const u8 *src, unsigned int len, u8 *iv);
int sm4_mode_cts_decrypt(const struct sm4_mode_ops *ops, const u32 *rk,
			 u8 *dst, const u8 *src, unsigned int len, u8 *iv);

#endif /* _SM4_CRYPTO_MODES_H */
