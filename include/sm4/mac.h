/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CBC-MAC family over SM4: cbcmac(sm4), cmac(sm4), xcbc(sm4) and
 * ccm(sm4), written once over a table of bulk functions.
 *
 * An implementation (the portable C code, or one SIMD backend) supplies
 * struct sm4_mac_ops; the functions below build the algorithms from it
 * and from the CTR function of its struct sm4_mode_ops: partial blocks,
 * the pending last block of CMAC and XCBC, the CCM formatting (B0, the
 * associated-data length, counter blocks) and the CCM tail.  The kernel
 * glue (crypto/sm4_mac_glue.c) and the userspace test harness both drive
 * implementations through them.  No function here keeps a SIMD section
 * open across calls: the caller brackets each call.
 */
#ifndef _SM4_CRYPTO_MAC_H
#define _SM4_CRYPTO_MAC_H

#include <sm4/modes.h>

/*
 * Bulk functions, @rk = rkey_enc, @nblocks >= 1 (0: nothing touched),
 * @mac the 16-byte running CBC-MAC value, @ctr a 128-bit big-endian
 * counter block incremented once per block (as sm4_mode_ops.ctr):
 *
 * cbcmac:      mac = E(mac ^ src[i]) for each block;
 * ccm_enc:     for each block: mac = E(mac ^ src[i]),
 *              dst[i] = src[i] ^ E(ctr++) (src == dst allowed);
 * ccm_dec_mac: for each block: p = src[i] ^ E(ctr++), mac = E(mac ^ p);
 *              p is not stored anywhere (the tag is checked before any
 *              plaintext is written).
 *
 * ccm_enc and ccm_dec_mac are optional (NULL): the functions below then
 * run cbcmac and the CTR function of the same implementation's struct
 * sm4_mode_ops one after the other (decryption through a stack buffer
 * of at most SM4_CCM_COMPOSE_BYTES, wiped afterwards).  Every backend
 * of this project has both; the composed form is how the kernel's ccm
 * template runs, which the benchmark measures ours against.
 */
typedef void (*sm4_cbcmac_fn)(const u32 *rk, u8 *mac, const u8 *src,
			      unsigned int nblocks);
typedef void (*sm4_ccm_enc_fn)(const u32 *rk, u8 *dst, const u8 *src,
			       unsigned int nblocks, u8 *ctr, u8 *mac);
typedef void (*sm4_ccm_dec_mac_fn)(const u32 *rk, const u8 *src,
				   unsigned int nblocks, u8 *ctr, u8 *mac);

/*
 * short_blocks: the longest ccm text, in blocks (a partial one counted),
 * whose whole keystream sm4_ccm_start() makes in the same call of the
 * mode ops' ecb as E(B0) and E(A0): at most SM4_CCM_SHORT_MAX, and no
 * more than two less than the blocks that ecb encrypts side by side in
 * the time of one (0: none; a partial final block always is).
 */
struct sm4_mac_ops {
	sm4_cbcmac_fn cbcmac;
	sm4_ccm_enc_fn ccm_enc;
	sm4_ccm_dec_mac_fn ccm_dec_mac;
	unsigned int short_blocks;
};

/* Plaintext per CTR call of a composed ccm_dec_mac (one ymm batch). */
#define SM4_CCM_COMPOSE_BYTES	(16 * SM4_BLOCK_SIZE)

/*
 * SM4_DEFINE_MAC_OPS(ops_name, prefix, blocks): struct sm4_mac_ops
 * @ops_name with the assembly functions prefix##_cbcmac, _ccm_enc and
 * _ccm_dec_mac, .short_blocks = @blocks; @prefix may be a macro.
 */
#define SM4_DEFINE_MAC_OPS(ops_name, prefix, blocks)			\
	__SM4_DEFINE_MAC_OPS(ops_name, prefix, blocks)
#define __SM4_DEFINE_MAC_OPS(ops_name, prefix, blocks)			\
asmlinkage void prefix##_cbcmac(const u32 *rk, u8 *mac, const u8 *src,	\
				unsigned int nblocks);			\
asmlinkage void prefix##_ccm_enc(const u32 *rk, u8 *dst, const u8 *src,	\
				 unsigned int nblocks, u8 *ctr, u8 *mac); \
asmlinkage void prefix##_ccm_dec_mac(const u32 *rk, const u8 *src,	\
				     unsigned int nblocks, u8 *ctr,	\
				     u8 *mac);				\
static const struct sm4_mac_ops ops_name = {				\
	.cbcmac		= prefix##_cbcmac,				\
	.ccm_enc	= prefix##_ccm_enc,				\
	.ccm_dec_mac	= prefix##_ccm_dec_mac,				\
	.short_blocks	= (blocks),					\
}

/* The portable implementation, built on sm4_crypt_block(); short_blocks 0. */
extern const struct sm4_mac_ops sm4_generic_mac_ops;

/*
 * A CBC-MAC in progress: @len (0..16) bytes of input are XORed into @dg
 * but not yet encrypted; with @len == 0, @dg is the MAC of the blocks so
 * far.  Keeping up to a whole block pending lets CMAC and XCBC tell a
 * full last block from a padded one.
 */
struct sm4_mac_state {
	u8 dg[SM4_BLOCK_SIZE];
	u32 len;
};

/* Absorb @len bytes (any number, any split). */
void sm4_mac_update(const struct sm4_mac_ops *mops, const u32 *rk,
		    struct sm4_mac_state *st, const u8 *p, unsigned int len);
/* Encrypt the pending bytes, zero-padded, if any (cbcmac's final). */
void sm4_mac_flush(const struct sm4_mac_ops *mops, const u32 *rk,
		   struct sm4_mac_state *st);
/*
 * CMAC/XCBC final: a full last block is XORed with @k_full, a partial
 * (or empty) one padded with 0x80 0 ... and XORed with @k_part; then
 * encrypted.  The result is in st->dg.
 */
void sm4_mac_final_keyed(const struct sm4_mac_ops *mops, const u32 *rk,
			 struct sm4_mac_state *st, const u8 *k_full,
			 const u8 *k_part);

/* CMAC subkeys: @k1 = L.x, @k2 = L.x^2 of L = E(0) (SP 800-38B). */
void sm4_cmac_subkeys(const struct sm4_mac_ops *mops, const u32 *rk,
		      u8 *k1, u8 *k2);

/*
 * XCBC subkeys (RFC 3566): Kn = E(n repeated), n = 1, 2, 3; K1 is the
 * key of the CBC-MAC, K2 and K3 are final_keyed()'s @k_full and @k_part.
 */
void sm4_xcbc_subkeys(const struct sm4_mac_ops *mops, const u32 *rk,
		      u8 *k1, u8 *k2, u8 *k3);

/* ---- CCM (NIST SP 800-38C, RFC 3610; the kernel's ccm() IV format) -- */

#define SM4_CCM_MIN_AUTHSIZE	4

/* The most text blocks whose keystream a ccm request makes up front. */
#define SM4_CCM_SHORT_MAX	14

/*
 * One CCM computation.  sm4_ccm_start() makes, in one ecb call before
 * the associated data: E(B0), the first CBC-MAC value; E(A0), the tag's
 * mask; and the keystream of the text from byte .from on: all of it in
 * a text of at most mops->short_blocks blocks, else its partial final
 * block, if any.  Each would otherwise be a one-block encryption, a
 * chain of 32 dependent rounds of its own; now they share one.  The
 * bulk before .from runs through ccm_enc/ccm_dec_mac (or cbcmac and the
 * mode ops' ctr) from .ctr.  Holds the MAC and keystream: wipe with
 * memzero_explicit() when done.
 */
struct sm4_ccm_state {
	struct sm4_mac_state mac;
	u8 ctr0[SM4_BLOCK_SIZE];	/* A0 */
	u8 ctr[SM4_BLOCK_SIZE];		/* the bulk's next counter block */
	/* E(B0), E(A0), the keystream of text blocks .from / 16 on */
	u8 ks[(SM4_CCM_SHORT_MAX + 2) * SM4_BLOCK_SIZE];
	u8 carry[SM4_BLOCK_SIZE];	/* ciphertext bytes awaiting a block */
	u32 ncarry;
	u32 from;	/* text offset of ks[32], a block boundary */
	u32 pos;	/* text bytes of this pass done so far */
};

/* Whether @authsize is a CCM tag length (4, 6, ..., 16). */
static inline bool sm4_ccm_authsize_ok(unsigned int authsize)
{
	return authsize >= SM4_CCM_MIN_AUTHSIZE &&
	       authsize <= SM4_BLOCK_SIZE && !(authsize & 1);
}

/*
 * Start a CCM computation from the kernel's 16-byte @iv (iv[0] = L - 1,
 * 1..7, then the nonce; the counter bytes are ignored) for @assoclen
 * bytes of associated data and @cryptlen of text: formats B0 and the
 * counter blocks, makes the encryptions above with @ops' ecb, and
 * absorbs the associated-data length field.  Returns 0, -EINVAL for a
 * bad iv[0] or @authsize, -EOVERFLOW if @cryptlen does not fit in L
 * bytes.  Then: sm4_mac_update() with the associated data,
 * sm4_mac_flush(), the text, sm4_ccm_tag().
 */
int sm4_ccm_start(const struct sm4_mode_ops *ops,
		  const struct sm4_mac_ops *mops, const u32 *rk,
		  struct sm4_ccm_state *st, const u8 *iv,
		  unsigned int assoclen, unsigned int cryptlen,
		  unsigned int authsize);
/*
 * Encrypt @len bytes: whole blocks, except that the last call of a
 * message may end in a partial block.  @ops: the CTR function of the
 * implementation of @mops (used if @mops has no ccm_enc).  Nothing is
 * read back from @dst (src == dst allowed).
 */
void sm4_ccm_encrypt(const struct sm4_mode_ops *ops,
		     const struct sm4_mac_ops *mops, const u32 *rk,
		     struct sm4_ccm_state *st, u8 *dst, const u8 *src,
		     unsigned int len);
/*
 * Decryption, first pass: absorb the plaintext of @len bytes of
 * ciphertext (any split) into the MAC without storing it;
 * sm4_ccm_decrypt_mac_end() after the last bytes.  The second pass, once
 * the tag is verified: sm4_ccm_decrypt_rewind(), then
 * sm4_ccm_decrypt_piece() over the text.
 */
void sm4_ccm_decrypt_mac(const struct sm4_mode_ops *ops,
			 const struct sm4_mac_ops *mops, const u32 *rk,
			 struct sm4_ccm_state *st, const u8 *src,
			 unsigned int len);
void sm4_ccm_decrypt_mac_end(const struct sm4_mac_ops *mops, const u32 *rk,
			     struct sm4_ccm_state *st);
/* The full 16-byte tag E(A0) ^ MAC into @tag (no encryption left). */
void sm4_ccm_tag(const struct sm4_ccm_state *st, u8 *tag);
/* Back to the text's first byte, for the second decryption pass. */
void sm4_ccm_decrypt_rewind(struct sm4_ccm_state *st);
/*
 * Decrypt the text's next piece: @len bytes, a multiple of 16 except in
 * the last piece, @src -> @dst (may be equal), with @ops' ctr before
 * .from and the keystream made up front after it.
 */
void sm4_ccm_decrypt_piece(const struct sm4_mode_ops *ops, const u32 *rk,
			   struct sm4_ccm_state *st, u8 *dst, const u8 *src,
			   unsigned int len);

#endif /* _SM4_CRYPTO_MAC_H */
