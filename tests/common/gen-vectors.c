// SPDX-License-Identifier: GPL-2.0
/*
 * gen-vectors: write SM4 test vectors computed by libgcrypt.
 *
 *   gen-vectors OUT CASES_PER_MODE [SEED [MAX_LEN]]
 *
 * Keys, IVs and data come from a seeded PRNG; lengths follow
 * sm4_vec_length().  libgcrypt is the oracle: it shares no code with
 * this project.
 */

#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>
#include "sm4-vectors.h"

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

#ifndef SM4_GEN_VECTORS_NO_MAIN
int main(int argc, char **argv)
{
	unsigned long cases, i;
	uint64_t seed = 1;
	uint32_t max_len = 4200;
	struct sm4_vec v;
	FILE *out;
	int mode;

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
	if (!gcry_check_version(NULL))
		return 1;
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);

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
