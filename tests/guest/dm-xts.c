// SPDX-License-Identifier: GPL-2.0
/*
 * dm-xts: encrypt or decrypt a stream of 512-byte sectors the way dm-crypt
 * does with cipher "sm4-xts-plain64", using libgcrypt (an implementation
 * independent of the kernel's).  The host uses it to check the sectors a
 * guest wrote through dm-crypt, and to prepare sectors the guest must
 * read back.
 *
 *   dm-xts enc|dec KEYHEX FIRST_SECTOR <in >out
 *
 * KEYHEX is the 256-bit XTS key (data key then tweak key) as dm-crypt's
 * table shows it; sector n of the stream uses IV plain64(FIRST_SECTOR + n):
 * the sector number as a 64-bit little-endian integer, zero-padded to 16
 * bytes.  The input length must be a multiple of 512.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

#define SECTOR_SIZE 512

static int parse_hex(const char *s, unsigned char *out, size_t len)
{
	size_t i;

	if (strlen(s) != 2 * len)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned int v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = v;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char key[32], iv[16], buf[SECTOR_SIZE];
	gcry_cipher_hd_t h;
	uint64_t sector;
	gcry_error_t err;
	size_t n;
	int enc, i;

	if (argc != 4 || (strcmp(argv[1], "enc") && strcmp(argv[1], "dec"))) {
		fprintf(stderr, "usage: %s enc|dec KEYHEX FIRST_SECTOR <in >out\n",
			argv[0]);
		return 2;
	}
	enc = !strcmp(argv[1], "enc");
	if (parse_hex(argv[2], key, sizeof(key))) {
		fprintf(stderr, "dm-xts: the key must be 64 hex digits\n");
		return 2;
	}
	sector = strtoull(argv[3], NULL, 0);
	if (!gcry_check_version(GCRYPT_VERSION)) {
		fprintf(stderr, "dm-xts: libgcrypt version mismatch\n");
		return 1;
	}
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	err = gcry_cipher_open(&h, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_XTS, 0);
	if (!err)
		err = gcry_cipher_setkey(h, key, sizeof(key));
	if (err) {
		fprintf(stderr, "dm-xts: libgcrypt: %s\n", gcry_strerror(err));
		return 1;
	}
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0) {
		if (n != sizeof(buf)) {
			fprintf(stderr, "dm-xts: input is not whole sectors\n");
			return 1;
		}
		memset(iv, 0, sizeof(iv));
		for (i = 0; i < 8; i++)
			iv[i] = sector >> (8 * i);
		err = gcry_cipher_setiv(h, iv, sizeof(iv));
		if (!err)
			err = enc ? gcry_cipher_encrypt(h, buf, n, NULL, 0) :
				    gcry_cipher_decrypt(h, buf, n, NULL, 0);
		if (err) {
			fprintf(stderr, "dm-xts: libgcrypt: %s\n",
				gcry_strerror(err));
			return 1;
		}
		if (fwrite(buf, 1, n, stdout) != n) {
			perror("dm-xts: write");
			return 1;
		}
		sector++;
	}
	if (ferror(stdin)) {
		perror("dm-xts: read");
		return 1;
	}
	gcry_cipher_close(h);
	return fflush(stdout) ? 1 : 0;
}
