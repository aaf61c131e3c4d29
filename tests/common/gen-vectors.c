// SPDX-License-Identifier: GPL-2.0
/*
 * gen-vectors: write SM4 test vectors computed by libgcrypt.
 *
 *   gen-vectors OUT CASES_PER_MODE [SEED [MAX_LEN]]   (MAX_LEN 65536)
 *   gen-vectors --mac OUT CASES [SEED]   (sm4-mac-vectors.h)
 *   gen-vectors --aead OUT CASES_PER_KIND [SEED]
 *
 * The second form writes AEAD and MAC vectors (sm4-aead-vectors.h):
 * gcm(sm4), ccm(sm4), rfc4106(gcm(sm4)), cmac(sm4), xcbc(sm4) and
 * cbcmac(sm4), AAD and text of 0..4 KiB (the small lengths first), every
 * tag length the kernel's gcm/ccm take.  libgcrypt has no XCBC and no
 * plain CBC-MAC: those two are built here on its SM4-ECB/CBC (RFC 3566;
 * the kernel's cbcmac zero-pads the last block and returns the zero
 * block for an empty message).
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
#include "sm4-aead-vectors.h"

static const int gcry_modes[SM4_VEC_NUM_MODES] = {
	GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_MODE_CFB,
	GCRY_CIPHER_MODE_CTR, GCRY_CIPHER_MODE_XTS, GCRY_CIPHER_MODE_CBC,
};

/* Encrypt @v->pt into @v->ct with libgcrypt. */
int sm4_gcry_encrypt(struct sm4_vec *v)
{
	gcry_cipher_hd_t h;
	int err;

	/* CTS: libgcrypt's CBC_CTS is CS3, crypto/cts.c's variant (beyond
	 * one block the last two are always swapped; one block is CBC). */
	err = gcry_cipher_open(&h, GCRY_CIPHER_SM4, gcry_modes[v->mode],
			       v->mode == SM4_VEC_CTS ? GCRY_CIPHER_CBC_CTS : 0);
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

static int gcry_ok(gcry_error_t err)
{
	if (err)
		fprintf(stderr, "libgcrypt: %s\n", gcry_strerror(err));
	return !err;
}

/* SM4-CBC with @iv (zero if NULL) over @n bytes, in place. */
static int sm4_cbc(const uint8_t *key, uint8_t *buf, size_t n)
{
	static const uint8_t zero[16];
	gcry_cipher_hd_t h;
	gcry_error_t err;

	err = gcry_cipher_open(&h, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CBC, 0);
	if (!err)
		err = gcry_cipher_setkey(h, key, 16);
	if (!err)
		err = gcry_cipher_setiv(h, zero, 16);
	if (!err && n)
		err = gcry_cipher_encrypt(h, buf, n, NULL, 0);
	gcry_cipher_close(h);
	return gcry_ok(err) ? 0 : -1;
}

/* CBC-MAC (zero-padded) and XCBC-MAC (RFC 3566) over v->text. */
static int cbc_macs(struct sm4_aeh *v)
{
	size_t n = v->len, padded = (n + 15) / 16 * 16, i;
	uint8_t k[3][16], k1[16], *buf;
	int j, ret = -1;

	if (v->kind == SM4_AEH_XCBC && (!n || n % 16))
		padded = n / 16 * 16 + 16;
	buf = calloc(1, padded + 16);
	if (!buf)
		return -1;
	memcpy(buf, v->text, n);
	if (v->kind == SM4_AEH_CBCMAC) {
		ret = sm4_cbc(v->key, buf, padded);
		memcpy(v->out, padded ? buf + padded - 16 : buf, 16);
		free(buf);
		return ret;
	}
	/* K1, K2, K3 = E(K, 0x01..), E(K, 0x02..), E(K, 0x03..). */
	for (j = 0; j < 3; j++) {
		memset(k[j], j + 1, 16);
		if (sm4_cbc(v->key, k[j], 16))
			goto out;
	}
	memcpy(k1, k[0], 16);
	if (n == 0 || n % 16) {
		buf[n] = 0x80;
		for (i = 0; i < 16; i++)
			buf[padded - 16 + i] ^= k[2][i];
	} else {
		for (i = 0; i < 16; i++)
			buf[padded - 16 + i] ^= k[1][i];
	}
	ret = sm4_cbc(k1, buf, padded);
	memcpy(v->out, buf + padded - 16, 16);
out:
	free(buf);
	return ret;
}

/* Fill v->out from libgcrypt. */
static int aeh_compute(struct sm4_aeh *v)
{
	gcry_cipher_hd_t h;
	gcry_mac_hd_t m;
	gcry_error_t err;
	size_t tl = v->taglen;
	uint8_t nonce[16];
	size_t nlen, alen = v->aadlen;

	if (v->kind == SM4_AEH_XCBC || v->kind == SM4_AEH_CBCMAC)
		return cbc_macs(v);
	if (v->kind == SM4_AEH_CMAC) {
		err = gcry_mac_open(&m, GCRY_MAC_CMAC_SM4, 0, NULL);
		if (!err)
			err = gcry_mac_setkey(m, v->key, 16);
		if (!err)
			err = gcry_mac_write(m, v->text, v->len);
		if (!err)
			err = gcry_mac_read(m, v->out, &tl);
		gcry_mac_close(m);
		return gcry_ok(err) ? 0 : -1;
	}
	if (v->kind == SM4_AEH_CCM) {
		nlen = 14 - v->iv[0];
		memcpy(nonce, v->iv + 1, nlen);
	} else if (v->kind == SM4_AEH_RFC4106) {
		/* Nonce: salt (the key's last 4 bytes) and the IV; the
		 * IV copy at the end of the AAD is not authenticated. */
		memcpy(nonce, v->key + 16, 4);
		memcpy(nonce + 4, v->iv, 8);
		nlen = 12;
		alen -= 8;
	} else {
		memcpy(nonce, v->iv, 12);
		nlen = 12;
	}
	err = gcry_cipher_open(&h, GCRY_CIPHER_SM4, v->kind == SM4_AEH_CCM ?
			       GCRY_CIPHER_MODE_CCM : GCRY_CIPHER_MODE_GCM, 0);
	if (!err)
		err = gcry_cipher_setkey(h, v->key, 16);
	if (!err)
		err = gcry_cipher_setiv(h, nonce, nlen);
	if (!err && v->kind == SM4_AEH_CCM) {
		uint64_t l[3] = { v->len, alen, tl };

		err = gcry_cipher_ctl(h, GCRYCTL_SET_CCM_LENGTHS, l, sizeof(l));
	}
	if (!err)
		err = gcry_cipher_authenticate(h, v->aad, alen);
	if (!err)
		err = gcry_cipher_final(h);
	if (!err)
		err = gcry_cipher_encrypt(h, v->out, v->len, v->text, v->len);
	if (!err)
		err = gcry_cipher_gettag(h, v->out + v->len, tl);
	gcry_cipher_close(h);
	return gcry_ok(err) ? 0 : -1;
}

/* AAD/text length of case @i: the small ones first, then 0..4 KiB. */
static uint32_t aeh_length(unsigned long i, uint64_t *seed)
{
	static const uint32_t first[] = { 0, 1, 15, 16, 17, 31, 32, 33, 64, 4096 };
	uint64_t r = sm4_vec_rand(seed);

	if (i < sizeof(first) / sizeof(first[0]))
		return first[i];
	return r % 4 ? r % 300 : r % 4097;
}

static int gen_aead(const char *path, unsigned long cases, uint64_t seed)
{
	static const uint8_t gcm_tags[] = { 16, 15, 14, 13, 12, 8, 4 };
	static const uint8_t ccm_tags[] = { 16, 14, 12, 10, 8, 6, 4 };
	static const uint8_t ccm_l[] = { 3, 2, 4, 8 };
	unsigned long i;
	struct sm4_aeh v;
	FILE *out;
	int kind;

	out = fopen(path, "wb");
	if (!out) {
		perror(path);
		return 1;
	}
	fwrite(SM4_AEH_MAGIC, 1, 8, out);
	sm4_aeh_put32(out, (uint32_t)(cases * SM4_AEH_NUM_KINDS));
	for (kind = 0; kind < SM4_AEH_NUM_KINDS; kind++) {
		for (i = 0; i < cases; i++) {
			memset(&v, 0, sizeof(v));
			v.kind = kind;
			v.keylen = kind == SM4_AEH_RFC4106 ? 20 : 16;
			v.taglen = 16;
			v.len = aeh_length(i, &seed);
			v.aadlen = aeh_length((i + 3) % cases, &seed);
			if (kind == SM4_AEH_GCM) {
				v.ivlen = 12;
				v.taglen = gcm_tags[i % sizeof(gcm_tags)];
			} else if (kind == SM4_AEH_CCM) {
				v.ivlen = 16;
				v.taglen = ccm_tags[i % sizeof(ccm_tags)];
			} else if (kind == SM4_AEH_RFC4106) {
				v.ivlen = 8;
				v.taglen = (uint8_t[]){ 16, 12, 8 }[i % 3];
				v.aadlen = i % 2 ? 20 : 16;
			} else {
				v.aadlen = 0;
			}
			sm4_vec_fill(&seed, v.key, v.keylen);
			sm4_vec_fill(&seed, v.iv, v.ivlen);
			if (kind == SM4_AEH_CCM) {
				/* L - 1, then a nonce of 15 - L bytes. */
				v.iv[0] = ccm_l[i % sizeof(ccm_l)] - 1;
				memset(v.iv + 15 - v.iv[0], 0, v.iv[0] + 1);
			}
			v.aad = malloc(v.aadlen + 1);
			v.text = malloc(v.len + 1);
			v.out = malloc(sm4_aeh_outlen(&v) + 1);
			if (!v.aad || !v.text || !v.out)
				return 1;
			sm4_vec_fill(&seed, v.aad, v.aadlen);
			if (kind == SM4_AEH_RFC4106)
				memcpy(v.aad + v.aadlen - 8, v.iv, 8);
			sm4_vec_fill(&seed, v.text, v.len);
			if (aeh_compute(&v))
				return 1;
			sm4_aeh_write(out, &v);
			sm4_aeh_free(&v);
		}
	}
	if (fclose(out)) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long cases, i;
	uint64_t seed = 1;
	uint32_t max_len = 65536;
	struct sm4_vec v;
	FILE *out;
	int mode;

	if (!gcry_check_version(NULL))
		return 1;
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	if (argc > 1 && !strcmp(argv[1], "--mac"))
		return gen_mac(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "--aead"))
		return gen_aead(argv[2], strtoul(argv[3], NULL, 0),
				argc > 4 ? strtoull(argv[4], NULL, 0) : 1);
	if (argc < 3) {
		fprintf(stderr, "usage: %s OUT CASES_PER_MODE [SEED [MAX_LEN]]\n"
			"       %s --mac OUT CASES [SEED]\n"
			"       %s --aead OUT CASES_PER_KIND [SEED]\n",
			argv[0], argv[0], argv[0]);
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
