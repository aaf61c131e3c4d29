/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AEAD and MAC test vectors (gen-vectors --aead, computed by libgcrypt),
 * checked by sm4-afalg's "aead" and "hash" commands in the guests.
 *
 * Layout, integers little-endian:
 *   header:  "SM4AEH01" (8 bytes), u32 record count
 *   record:  u8 kind (enum sm4_aeh_kind), u8 key length, u8 IV length,
 *            u8 tag length, u32 AAD length, u32 text length, key, IV,
 *            AAD, text, result (AEAD: ciphertext and tag; MAC: the tag)
 * The IV is what AF_ALG takes: 12 bytes for gcm, 16 for ccm (byte 0 is
 * L - 1, the nonce follows), 8 for rfc4106 (whose key ends with the
 * 4-byte salt and whose AAD ends with a copy of the IV, as ESP sends
 * it); none for the MACs.
 */
#ifndef _SM4_AEAD_VECTORS_H
#define _SM4_AEAD_VECTORS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SM4_AEH_MAGIC "SM4AEH01"

enum sm4_aeh_kind {
	SM4_AEH_GCM,
	SM4_AEH_CCM,
	SM4_AEH_RFC4106,
	SM4_AEH_CMAC,
	SM4_AEH_XCBC,
	SM4_AEH_CBCMAC,
	SM4_AEH_NUM_KINDS
};

static const char * const sm4_aeh_names[SM4_AEH_NUM_KINDS] = {
	"gcm(sm4)", "ccm(sm4)", "rfc4106(gcm(sm4))",
	"cmac(sm4)", "xcbc(sm4)", "cbcmac(sm4)",
};

static inline int sm4_aeh_is_mac(int kind)
{
	return kind >= SM4_AEH_CMAC;
}

struct sm4_aeh {
	uint8_t kind, keylen, ivlen, taglen;
	uint32_t aadlen, len;
	uint8_t key[32], iv[16];
	uint8_t *aad, *text, *out;	/* out: len + taglen (MAC: taglen) */
};

static inline size_t sm4_aeh_outlen(const struct sm4_aeh *v)
{
	return (sm4_aeh_is_mac(v->kind) ? 0 : v->len) + v->taglen;
}

static inline void sm4_aeh_put32(FILE *f, uint32_t x)
{
	uint8_t b[4] = { x, x >> 8, x >> 16, x >> 24 };

	fwrite(b, 1, 4, f);
}

static inline int sm4_aeh_get32(FILE *f, uint32_t *x)
{
	uint8_t b[4];

	if (fread(b, 1, 4, f) != 4)
		return -1;
	*x = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
	return 0;
}

static inline void sm4_aeh_write(FILE *f, const struct sm4_aeh *v)
{
	fwrite(&v->kind, 1, 4, f);	/* kind, keylen, ivlen, taglen */
	sm4_aeh_put32(f, v->aadlen);
	sm4_aeh_put32(f, v->len);
	fwrite(v->key, 1, v->keylen, f);
	fwrite(v->iv, 1, v->ivlen, f);
	fwrite(v->aad, 1, v->aadlen, f);
	fwrite(v->text, 1, v->len, f);
	fwrite(v->out, 1, sm4_aeh_outlen(v), f);
}

static inline void sm4_aeh_free(struct sm4_aeh *v)
{
	free(v->aad);
	free(v->text);
	free(v->out);
	v->aad = v->text = v->out = NULL;
}

/* The next record: 1, 0 at the end, -1 if the file is corrupt. */
static inline int sm4_aeh_read(FILE *f, struct sm4_aeh *v)
{
	uint8_t h[4];
	size_t n = fread(h, 1, 4, f);

	if (n == 0 && feof(f))
		return 0;
	if (n != 4 || sm4_aeh_get32(f, &v->aadlen) ||
	    sm4_aeh_get32(f, &v->len))
		return -1;
	v->kind = h[0];
	v->keylen = h[1];
	v->ivlen = h[2];
	v->taglen = h[3];
	if (v->kind >= SM4_AEH_NUM_KINDS || v->keylen > 32 || v->ivlen > 16 ||
	    v->taglen > 16 || v->aadlen > (1 << 20) || v->len > (1 << 20))
		return -1;
	v->aad = malloc(v->aadlen + 1);
	v->text = malloc(v->len + 1);
	v->out = malloc(sm4_aeh_outlen(v) + 1);
	if (!v->aad || !v->text || !v->out ||
	    fread(v->key, 1, v->keylen, f) != v->keylen ||
	    fread(v->iv, 1, v->ivlen, f) != v->ivlen ||
	    fread(v->aad, 1, v->aadlen, f) != v->aadlen ||
	    fread(v->text, 1, v->len, f) != v->len ||
	    fread(v->out, 1, sm4_aeh_outlen(v), f) != sm4_aeh_outlen(v)) {
		sm4_aeh_free(v);
		return -1;
	}
	return 1;
}

#endif
