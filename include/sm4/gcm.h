/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GCM for SM4, written once over a driver's GHASH functions.
 *
 * A driver that accelerates gcm(sm4) sets .gcm of its struct sm4_driver
 * (include/sm4/glue.h) to a struct sm4_gcm_ops; the shared glue
 * (crypto/sm4_aead_glue.c) then registers the AEAD
 * "gcm(sm4)", driver "gcm-sm4-<name>", and does everything else: the
 * scatterlist walks of associated data and text (any lengths, split
 * anywhere, in place or not), partial blocks, the lengths block, the tag
 * (every length gcm accepts: 4, 8, 12..16), its constant-time check, the
 * SIMD sections (at most SM4_SIMD_CHUNK bytes each) and the portable
 * fallback when SIMD is not usable.
 *
 * Decryption verifies before it decrypts: GHASH runs over the ciphertext
 * in src first, and only when the tag matches is the text decrypted into
 * dst.  On -EBADMSG nothing has been written to dst.
 *
 * The GHASH state (struct sm4_ghash) is shared by every implementation:
 * .acc is the GHASH value X_i as the 16 bytes of the GCM specification
 * (NIST SP 800-38D), so the portable code and a driver's code can
 * continue each other's work.  .table points at the key's table of H
 * powers in the driver's own layout (made by ops->init), or for the
 * portable code at H itself.
 *
 * The functions below (crypto/sm4_gcm.c) work on linear buffers and are
 * also what the userspace harness (tests/unit) tests the drivers with.
 */
#ifndef _SM4_CRYPTO_GCM_H
#define _SM4_CRYPTO_GCM_H

#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <sm4/modes.h>
#include <sm4/gcm_layout.h>	/* SM4_GCM_TABLE_SIZE, the members' offsets */

#define SM4_GCM_IV_SIZE		12
#define SM4_GCM_MAX_AUTHSIZE	16

/*
 * The GHASH state of one request.  Drivers' functions read and write
 * .acc and read .table, at the offsets of include/sm4/gcm_layout.h; the
 * rest belongs to sm4_ghash_update().  Wipe with memzero_explicit() when
 * done.
 */
struct sm4_ghash {
	u8 acc[16];
	const u8 *table;
	u8 buf[16];		/* a partial block not yet hashed */
	unsigned int buflen;
};

/* The assembly addresses .acc and .table by these constants. */
static_assert(offsetof(struct sm4_ghash, acc) == SM4_GHASH_ACC,
	      "struct sm4_ghash: .acc is not where the assembly reads it");
static_assert(sizeof(((struct sm4_ghash *)0)->acc) == SM4_GHASH_ACC_SIZE,
	      "struct sm4_ghash: .acc is not 16 bytes");
static_assert(offsetof(struct sm4_ghash, table) == SM4_GHASH_TABLE,
	      "struct sm4_ghash: .table is not where the assembly reads it");

/*
 * A driver's GHASH functions.  All run inside a SIMD section.
 *
 * init:  fill @table (SM4_GCM_TABLE_SIZE bytes, no alignment) from
 *        H = E_K(0^128) (@h, GCM byte order).
 * ghash: hash @nblocks >= 1 full blocks of @src into @gh->acc.
 * enc:   optional (NULL: the glue uses the mode ops' ctr, then ghash):
 *        CTR-encrypt @nblocks >= 1 full blocks @src -> @dst (may be
 *        equal) with the round keys @rk (rkey_enc) and the counter
 *        @ctr, exactly as sm4_mode_ops.ctr (128-bit big-endian counter,
 *        updated), and hash the ciphertext into @gh->acc.  GCM's
 *        counter is only the low 32 bits, but a request has fewer than
 *        2^28 blocks and starts at 2, so the two never differ.
 *        Must not read back what it wrote to @dst.
 * short_blocks: the longest text, in blocks (a partial one counted),
 *        whose whole keystream sm4_gcm_ctr_start() makes in the same
 *        ecb call as E_K(J0): at most SM4_GCM_SHORT_MAX, and no more
 *        than make that one call faster than E_K(J0) and the bulk
 *        functions on the text (0: none; a partial final block always
 *        is).
 *        In a longer text, the full blocks after its last whole batch
 *        of the mode ops (its tail: full blocks % ops->batch) get their
 *        keystream in that ecb call too, when they and a partial final
 *        block number at most short_blocks: the bulk then runs whole
 *        batches only, and the tail shares E_K(J0)'s chain instead of
 *        adding a batch of its own.
 */
struct sm4_gcm_ops {
	void (*init)(u8 *table, const u8 *h);
	void (*ghash)(struct sm4_ghash *gh, const u8 *src,
		      unsigned int nblocks);
	void (*enc)(const u32 *rk, u8 *dst, const u8 *src,
		    unsigned int nblocks, u8 *ctr, struct sm4_ghash *gh);
	unsigned int short_blocks;
};

/*
 * SM4_DECLARE_GCM_FNS(prefix): the GHASH functions of a backend named
 * @prefix as its assembly defines them (@prefix##_gcm_init, _ghash,
 * _gcm_enc; reached through pointers, so SYM_TYPED_FUNC_START);
 * SM4_GCM_OPS(prefix, blocks): a struct sm4_gcm_ops initializer over
 * them, .short_blocks = @blocks; SM4_DEFINE_GCM_OPS(ops_name, prefix,
 * blocks): both, as the static const @ops_name.
 */
#define SM4_DECLARE_GCM_FNS(prefix)					\
asmlinkage void prefix##_gcm_init(u8 *table, const u8 *h);		\
SM4_DECLARE_GHASH_FNS(prefix)
/* SM4_DECLARE_GHASH_FNS(prefix): @prefix##_ghash and _gcm_enc alone. */
#define SM4_DECLARE_GHASH_FNS(prefix)					\
asmlinkage void prefix##_ghash(struct sm4_ghash *gh, const u8 *src,	\
			       unsigned int nblocks);			\
asmlinkage void prefix##_gcm_enc(const u32 *rk, u8 *dst, const u8 *src, \
				 unsigned int nblocks, u8 *ctr,		\
				 struct sm4_ghash *gh)
#define SM4_GCM_OPS(prefix, blocks)					\
	SM4_GCM_OPS_GHASH(prefix, prefix##_ghash, blocks)
#define SM4_DEFINE_GCM_OPS(ops_name, prefix, blocks)			\
SM4_DECLARE_GCM_FNS(prefix);						\
static const struct sm4_gcm_ops ops_name = SM4_GCM_OPS(prefix, blocks)
/*
 * SM4_DEFINE_GCM_OPS_GHASH(ops_name, prefix, ghash, blocks): @ops_name
 * with the backend's other GHASH function @ghash (declared here;
 * gfni-avx512's Karatsuba form), after SM4_DEFINE_GCM_OPS(..., prefix,
 * ...).
 */
#define SM4_DEFINE_GCM_OPS_GHASH(ops_name, prefix, ghash, blocks)	\
asmlinkage void ghash(struct sm4_ghash *gh, const u8 *src,		\
		      unsigned int nblocks);				\
static const struct sm4_gcm_ops ops_name =				\
	SM4_GCM_OPS_GHASH(prefix, ghash, blocks)
#define SM4_GCM_OPS_GHASH(prefix, ghash_fn, blocks)			\
	SM4_GCM_OPS_FNS(prefix##_gcm_init, ghash_fn, prefix##_gcm_enc, blocks)
/*
 * SM4_DEFINE_GCM_OPS_WIDE(ops_name, prefix, wide, blocks): @ops_name
 * with @wide##_ghash and @wide##_gcm_enc (declared here: the same table
 * hashed in wider registers) and @prefix's own init, after
 * SM4_DEFINE_GCM_OPS(..., prefix, ...).
 */
#define SM4_DEFINE_GCM_OPS_WIDE(ops_name, prefix, wide, blocks)	\
SM4_DECLARE_GHASH_FNS(wide);						\
static const struct sm4_gcm_ops ops_name =				\
	SM4_GCM_OPS_WIDE(prefix, wide, blocks)
#define SM4_GCM_OPS_WIDE(prefix, wide, blocks)				\
	SM4_GCM_OPS_FNS(prefix##_gcm_init, wide##_ghash, wide##_gcm_enc, blocks)
#define SM4_GCM_OPS_FNS(init_fn, ghash_fn, enc_fn, blocks) {		\
	.init		= init_fn,					\
	.ghash		= ghash_fn,					\
	.enc		= enc_fn,					\
	.short_blocks	= (blocks),					\
}

/*
 * The portable GHASH (constant time: no table indexed by data or key);
 * its .table is H itself (16 bytes), init and enc are NULL, short_blocks
 * 0.
 */
extern const struct sm4_gcm_ops sm4_gcm_generic_ops;

/* Start @gh with .acc = 0 over @table. */
void sm4_ghash_start(struct sm4_ghash *gh, const u8 *table);

/* Hash @len bytes of a stream (associated data or ciphertext). */
void sm4_ghash_update(const struct sm4_gcm_ops *gops, struct sm4_ghash *gh,
		      const u8 *data, unsigned int len);

/* End a stream: hash a partial block padded with zeros. */
void sm4_ghash_pad(const struct sm4_gcm_ops *gops, struct sm4_ghash *gh);

/*
 * The hash subkey H = E_K(0^128) into @h (16 bytes), with @ops' ecb on
 * one block: a SIMD driver's own ops inside a SIMD section, so that the
 * key never meets the portable table S-box where SIMD is usable.
 */
void sm4_gcm_hash_subkey(const struct sm4_mode_ops *ops, const u32 *rk,
			 u8 *h);

/*
 * The most text blocks whose keystream a request makes up front: one
 * less than the widest ecb batch that pays for itself (gfni-avx512's 32
 * word-sliced blocks).  Bounds struct sm4_gcm_ctr, which lives on the
 * stack: 512 bytes of keystream.
 */
#define SM4_GCM_SHORT_MAX	31

/*
 * The counter side of one request, made before its text by
 * sm4_gcm_ctr_start(): in one ecb call, E_K(J0) (the tag's mask) and the
 * keystream of the text from byte .from on: all of it in a text of at
 * most gops->short_blocks blocks, else the full blocks after its last
 * whole ops->batch and its partial final block, if they fit, else
 * that partial block, if any.  Each of those would otherwise be an
 * encryption of its own, a chain of 32 dependent rounds after the
 * bulk's; now they share one.  The bulk before .from runs through the
 * driver's ctr (or enc) from .ctr.  Holds keystream: wipe with
 * memzero_explicit() when done.
 */
struct sm4_gcm_ctr {
	u8 ctr[SM4_BLOCK_SIZE];	/* the bulk's next counter block */
	u8 ks[(SM4_GCM_SHORT_MAX + 1) * SM4_BLOCK_SIZE];
	unsigned int from;	/* text offset of ks[16], a block boundary */
	unsigned int pos;	/* text bytes encrypted or decrypted so far */
};

/*
 * Start @c for a text of @cryptlen bytes under @iv (SM4_GCM_IV_SIZE
 * bytes): .ctr = IV || 00000002, and the keystream above.
 */
void sm4_gcm_ctr_start(const struct sm4_mode_ops *ops,
		       const struct sm4_gcm_ops *gops, const u32 *rk,
		       const u8 *iv, unsigned int cryptlen,
		       struct sm4_gcm_ctr *c);

/*
 * Encrypt the text's next piece: @len bytes, a multiple of 16 except in
 * the last piece, @src -> @dst (may be equal), hashing the ciphertext
 * into @gh.  Associated data must have been hashed and padded before.
 */
void sm4_gcm_encrypt_piece(const struct sm4_mode_ops *ops,
			   const struct sm4_gcm_ops *gops, const u32 *rk,
			   struct sm4_ghash *gh, struct sm4_gcm_ctr *c,
			   u8 *dst, const u8 *src, unsigned int len);

/* Decrypt the text's next piece (as above; nothing hashed). */
void sm4_gcm_decrypt_piece(const struct sm4_mode_ops *ops, const u32 *rk,
			   struct sm4_gcm_ctr *c, u8 *dst, const u8 *src,
			   unsigned int len);

/*
 * The full tag (SM4_GCM_MAX_AUTHSIZE bytes) into @tag, after all
 * associated data and ciphertext have been hashed: pads, hashes the
 * lengths block, and masks with @c's E_K(J0).
 */
void sm4_gcm_tag(const struct sm4_gcm_ops *gops, struct sm4_ghash *gh,
		 const struct sm4_gcm_ctr *c, u64 assoclen, u64 cryptlen,
		 u8 *tag);

/* Whether gcm accepts @authsize (crypto_gcm_check_authsize's rule). */
static inline bool sm4_gcm_authsize_ok(unsigned int authsize)
{
	return authsize == 4 || authsize == 8 ||
	       (authsize >= 12 && authsize <= 16);
}

#endif /* _SM4_CRYPTO_GCM_H */
