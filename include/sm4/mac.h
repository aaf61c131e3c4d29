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
 * of at most SM4_CCM_COMPOSE_BYTES, wiped afterwards), for an
 * implementation whose CBC-MAC chain has no room for the CTR blocks.
 */
typedef void (*sm4_cbcmac_fn)(const u32 *rk, u8 *mac, const u8 *src,
			      unsigned int nblocks);
typedef void (*sm4_ccm_enc_fn)(const u32 *rk, u8 *dst, const u8 *src,
			       unsigned int nblocks, u8 *ctr, u8 *mac);
typedef void (*sm4_ccm_dec_mac_fn)(const u32 *rk, const u8 *src,
				   unsigned int nblocks, u8 *ctr, u8 *mac);

struct sm4_mac_ops {
	sm4_cbcmac_fn cbcmac;
	sm4_ccm_enc_fn ccm_enc;
	sm4_ccm_dec_mac_fn ccm_dec_mac;
};

/* Plaintext per CTR call of a composed ccm_dec_mac (one ymm batch). */
#define SM4_CCM_COMPOSE_BYTES	(16 * SM4_BLOCK_SIZE)

/*
 * SM4_DEFINE_CBCMAC_OPS(ops_name, prefix): struct sm4_mac_ops @ops_name
 * with the assembly function prefix##_cbcmac only (CCM composed of it
 * and the implementation's CTR); @prefix may be a macro.
 */
#define SM4_DEFINE_CBCMAC_OPS(ops_name, prefix)				\
	__SM4_DEFINE_CBCMAC_OPS(ops_name, prefix)
#define __SM4_DEFINE_CBCMAC_OPS(ops_name, prefix)			\
asmlinkage void prefix##_cbcmac(const u32 *rk, u8 *mac, const u8 *src,	\
				unsigned int nblocks);			\
static const struct sm4_mac_ops ops_name = {				\
	.cbcmac		= prefix##_cbcmac,				\
}

/* The portable implementation, built on sm4_crypt_block(). */
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

struct sm4_ccm_state {
	struct sm4_mac_state mac;
	u8 ctr0[SM4_BLOCK_SIZE];	/* A0, encrypts the tag */
	u8 ctr[SM4_BLOCK_SIZE];		/* the next counter block */
	u8 carry[SM4_BLOCK_SIZE];	/* ciphertext bytes awaiting a block */
	u32 ncarry;
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
 * bytes of associated data and @cryptlen of text: formats B0 and A0 and
 * absorbs the associated-data length field.  Returns 0, -EINVAL for a
 * bad iv[0] or @authsize, -EOVERFLOW if @cryptlen does not fit in L
 * bytes.  Then: sm4_mac_update() with the associated data,
 * sm4_mac_flush(), the text, sm4_ccm_tag().
 */
int sm4_ccm_start(const struct sm4_mac_ops *mops, const u32 *rk,
		  struct sm4_ccm_state *st, const u8 *iv,
		  unsigned int assoclen, unsigned int cryptlen,
		  unsigned int authsize);
/*
 * Encrypt @len bytes: whole blocks, except that the last call of a
 * message may end in a partial block.  @ops: the CTR function of the
 * implementation of @mops (used if @mops has no ccm_enc).
 */
void sm4_ccm_encrypt(const struct sm4_mode_ops *ops,
		     const struct sm4_mac_ops *mops, const u32 *rk,
		     struct sm4_ccm_state *st, u8 *dst, const u8 *src,
		     unsigned int len);
/*
 * Decryption, first pass: absorb the plaintext of @len bytes of
 * ciphertext (any split) into the MAC without storing it;
 * sm4_ccm_decrypt_mac_end() after the last bytes.  The second pass, once
 * the tag is verified, is CTR from sm4_ccm_text_ctr().
 */
void sm4_ccm_decrypt_mac(const struct sm4_mode_ops *ops,
			 const struct sm4_mac_ops *mops, const u32 *rk,
			 struct sm4_ccm_state *st, const u8 *src,
			 unsigned int len);
void sm4_ccm_decrypt_mac_end(const struct sm4_mode_ops *ops,
			     const struct sm4_mac_ops *mops, const u32 *rk,
			     struct sm4_ccm_state *st);
/* The full 16-byte tag E(A0) ^ MAC into @tag. */
void sm4_ccm_tag(const struct sm4_mode_ops *ops, const u32 *rk,
		 const struct sm4_ccm_state *st, u8 *tag);
/* The first counter block of the text (A1) into @ctr. */
void sm4_ccm_text_ctr(const struct sm4_ccm_state *st, u8 *ctr);

#endif /* _SM4_CRYPTO_MAC_H */
