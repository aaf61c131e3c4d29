// SPDX-License-Identifier: GPL-2.0
/*
 * gen-vectors: write SM4 test vectors computed by libgcrypt.
 *
 *   gen-vectors OUT CASES_PER_MODE [SEED [MAX_LEN]]
 *   gen-vectors --mac OUT CASES [SEED]   (sm4-mac-vectors.h)
 *
 * Keys, IVs and data come from a seeded PRNG; lengths follow
 * sm4_vec_length().  libgcrypt is the oracle: it shares no code with
 * this project.
 */

#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>
#include "sm4-vectors.h"
#include "sm4-mac-vectors.h"

static const int gcry_modes[SM4_VEC_NUM_MODES] = {
	GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_MODE_CFB,
	GCRY_CIPHER_MODE_CTR, GCRY_CIPHER_MODE_XTS,
};

/* Encrypt @v->pt into @v->ct with libgcrypt. */
int sm4_gcry_encrypt(struct sm4_vec *v)
{
	gcry_cipher_hd_t h;
	int err;

	err = gcry_cipher_open(&h, GCRY_CIPHER_SM4, gcry_modes[v->mode], 0);
	if (!err)
		err = gcry_cipher_setkey(h, v->key, v->keylen);
	if (!err && v->mode == SM4_VEC_CTR)
		err = gcry_cipher_setctr(h, v->iv, 16);
	else if (!err && v->mode != SM4_VEC_ECB)
		err = gcry_cipher_setiv(h, v->iv, 16);
	if (!err)
		err = gcry_cipher_encrypt(h, v->ct, v->len, v->pt, v->len);
	gcry_cipher_close(h);
	if (err)
		fprintf(stderr, "libgcrypt: %s\n", gcry_strerror(err));
	return err ? -1 : 0;
}

/* CBC encryption of @len bytes (a multiple of 16), zero IV: the CBC-MAC. */
static int gcry_cbc_last(const uint8_t *key, const uint8_t *p, size_t len,
			 uint8_t *mac)
{
	uint8_t *ct = malloc(len + 1);
	gcry_cipher_hd_t h;
	int err;

	if (!ct)
		return -1;
	err = gcry_cipher_open(&h, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CBC, 0);
	if (!err)
		err = gcry_cipher_setkey(h, key, 16);
	if (!err)
		err = gcry_cipher_encrypt(h, ct, len, p, len);
	gcry_cipher_close(h);
	memset(mac, 0, 16);
	if (!err && len)
		memcpy(mac, ct + len - 16, 16);
	free(ct);
	return err ? -1 : 0;
}

/* CCM or GCM ciphertext and tag of @v. */
static int gcry_aead(struct sm4_mac_vec *v)
{
	bool ccm = v->kind == SM4_MV_CCM;
	unsigned int l = v->iv[0] + 1;
	uint64_t lens[3] = { v->len, v->alen, v->taglen };
	gcry_cipher_hd_t h;
	int err;

	err = gcry_cipher_open(&h, GCRY_CIPHER_SM4, ccm ? GCRY_CIPHER_MODE_CCM :
			       GCRY_CIPHER_MODE_GCM, 0);
	if (!err)
		err = gcry_cipher_setkey(h, v->key, 16);
	/* CCM: the nonce after the kernel's iv[0] = L - 1 */
	if (!err)
		err = ccm ? gcry_cipher_setiv(h, v->iv + 1, 15 - l) :
			    gcry_cipher_setiv(h, v->iv, 12);
	if (!err && ccm)
		err = gcry_cipher_ctl(h, GCRYCTL_SET_CCM_LENGTHS, lens,
				      sizeof(lens));
	if (!err)
		err = gcry_cipher_authenticate(h, v->aad, v->alen);
	if (!err)
		err = gcry_cipher_encrypt(h, v->out, v->len, v->text, v->len);
	if (!err)
		err = gcry_cipher_gettag(h, v->out + v->len, v->taglen);
	gcry_cipher_close(h);
	return err;
}

/*
 * The MAC (cbcmac: the kernel's, zero padding, no length; xcbc: RFC 3566
 * from ECB and CBC) or CCM/GCM ciphertext and tag of @v, by libgcrypt.
 */
int sm4_gcry_mac(struct sm4_mac_vec *v)
{
	size_t padded = (v->len + 15) & ~(size_t)15;
	uint8_t k[48], *m;
	gcry_cipher_hd_t h;
	gcry_mac_hd_t mh;
	size_t outlen = 16;
	int err = 0, i;

	switch (v->kind) {
	case SM4_MV_CMAC:
		err = gcry_mac_open(&mh, GCRY_MAC_CMAC_SM4, 0, NULL);
		if (!err)
			err = gcry_mac_setkey(mh, v->key, 16);
		if (!err)
			err = gcry_mac_write(mh, v->text, v->len);
		if (!err)
			err = gcry_mac_read(mh, v->out + v->len, &outlen);
		gcry_mac_close(mh);
		break;
	case SM4_MV_CBCMAC:
	case SM4_MV_XCBC:
		m = calloc(1, padded + 16);
		if (!m)
			return -1;
		memcpy(m, v->text, v->len);
		if (v->kind == SM4_MV_CBCMAC) {
			err = gcry_cbc_last(v->key, m, padded, v->out + v->len);
			free(m);
			break;
		}
		for (i = 0; i < 48; i++)
			k[i] = i / 16 + 1;
		err = gcry_cipher_open(&h, GCRY_CIPHER_SM4,
				       GCRY_CIPHER_MODE_ECB, 0);
		if (!err)
			err = gcry_cipher_setkey(h, v->key, 16);
		if (!err)
			err = gcry_cipher_encrypt(h, k, 48, NULL, 0);
		gcry_cipher_close(h);
		if (!v->len || v->len % 16) {
			m[v->len] = 0x80;
			padded = (v->len + 16) & ~(size_t)15;
			for (i = 0; i < 16; i++)
				m[padded - 16 + i] ^= k[32 + i];
		} else {
			for (i = 0; i < 16; i++)
				m[padded - 16 + i] ^= k[16 + i];
		}
		if (!err)
			err = gcry_cbc_last(k, m, padded, v->out + v->len);
		free(m);
		break;
	default:
		err = gcry_aead(v);
		break;
	}
	if (err)
		fprintf(stderr, "libgcrypt (%s): %s\n",
			sm4_mac_kind_names[v->kind], gcry_strerror(err));
	return err ? -1 : 0;
}

#ifndef SM4_GEN_VECTORS_NO_MAIN
static int gen_mac(int argc, char **argv)
{
	unsigned long cases, i;
	uint64_t seed = 1;
	struct sm4_mac_vec v;
	FILE *out;

	if (argc < 4) {
		fprintf(stderr, "usage: %s --mac OUT CASES [SEED]\n", argv[0]);
		return 2;
	}
	cases = strtoul(argv[3], NULL, 0);
	if (argc > 4)
		seed = strtoull(argv[4], NULL, 0);
	out = fopen(argv[2], "wb");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	sm4_mac_vec_write_header(out, (uint32_t)cases);
	for (i = 0; i < cases; i++) {
		if (sm4_mac_vec_make(&v, i, &seed) || sm4_gcry_mac(&v))
			return 1;
		sm4_mac_vec_write(out, &v);
		sm4_mac_vec_free(&v);
	}
	if (fclose(out)) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long cases, i;
	uint64_t seed = 1;
	uint32_t max_len = 4200;
	struct sm4_vec v;
	FILE *out;
	int mode;

	if (!gcry_check_version(NULL))
		return 1;
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	if (argc > 1 && !strcmp(argv[1], "--mac"))
		return gen_mac(argc, argv);
	if (argc < 3) {
		fprintf(stderr, "usage: %s OUT CASES_PER_MODE [SEED [MAX_LEN]]\n",
			argv[0]);
		return 2;
	}
	cases = strtoul(argv[2], NULL, 0);
	if (argc > 3)
		seed = strtoull(argv[3], NULL, 0);
	if (argc > 4)
		max_len = strtoul(argv[4], NULL, 0);

	out = fopen(argv[1], "wb");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	sm4_vec_write_header(out, (uint32_t)(cases * SM4_VEC_NUM_MODES));
	for (mode = 0; mode < SM4_VEC_NUM_MODES; mode++) {
		for (i = 0; i < cases; i++) {
			memset(&v, 0, sizeof(v));
			v.mode = mode;
			v.keylen = mode == SM4_VEC_XTS ? 32 : 16;
			v.len = sm4_vec_length(mode, i, sm4_vec_rand(&seed),
					       max_len);
			sm4_vec_fill(&seed, v.key, v.keylen);
			/* XTS halves must differ for FIPS-style checks. */
			if (mode == SM4_VEC_XTS && !memcmp(v.key, v.key + 16, 16))
				v.key[0] ^= 1;
			sm4_vec_fill(&seed, v.iv, 16);
			/* Exercise the 128-bit counter carry now and then. */
			if (mode == SM4_VEC_CTR && i % 8 == 7)
				memset(v.iv + 8 + (i % 3), 0xff, 8 - (i % 3));
			v.pt = malloc(v.len);
			v.ct = malloc(v.len);
			if (!v.pt || !v.ct)
				return 1;
			sm4_vec_fill(&seed, v.pt, v.len);
			if (sm4_gcry_encrypt(&v))
				return 1;
			sm4_vec_write(out, &v);
			sm4_vec_free(&v);
		}
	}
	if (fclose(out)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
#endif
