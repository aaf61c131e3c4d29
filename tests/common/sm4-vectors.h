/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-vector files: expected results computed on the host by libgcrypt
 * (an oracle independent of this project's code), checked by the
 * userspace harness on other architectures and by the AF_ALG tester in
 * the guests.
 *
 * Layout, all integers little-endian:
 *   header:  "SM4VEC01" (8 bytes), u32 record count
 *   record:  u8 mode (enum sm4_vec_mode), u8 key length (16, or 32 for
 *            XTS), u16 flags (0), u32 length, key, iv[16],
 *            plaintext[length], ciphertext[length]
 * Every record is checked in both directions.
 */
#ifndef _SM4_TEST_VECTORS_H
#define _SM4_TEST_VECTORS_H

#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>

#define SM4_VEC_MAGIC "SM4VEC01"

/*
 * Lengths up to this many blocks (plus every partial tail) are tested one
 * by one: twice the widest backend (64 blocks in flight) plus one.
 */
#define SM4_VEC_SEQ_BLOCKS	129

enum sm4_vec_mode {
	SM4_VEC_ECB,
	SM4_VEC_CBC,
	SM4_VEC_CFB,
	SM4_VEC_CTR,
	SM4_VEC_XTS,
	SM4_VEC_CTS,	/* cts(cbc(sm4)): CBC-CS3 as crypto/cts.c, >= 16 bytes */
	SM4_VEC_NUM_MODES
};

static const char * const sm4_vec_mode_names[SM4_VEC_NUM_MODES] = {
	"ecb", "cbc", "cfb", "ctr", "xts", "cts",
};

struct sm4_vec {
	uint8_t mode;
	uint8_t keylen;
	uint32_t len;
	uint8_t key[32];
	uint8_t iv[16];
	uint8_t *pt;
	uint8_t *ct;
};

/* Read the next record; returns 1, 0 at the end, -1 on a corrupt file. */
int sm4_vec_read(FILE *f, struct sm4_vec *v);
/* Read and check the header; returns the record count or -1. */
long sm4_vec_read_header(FILE *f);
void sm4_vec_write_header(FILE *f, uint32_t count);
void sm4_vec_write(FILE *f, const struct sm4_vec *v);
void sm4_vec_free(struct sm4_vec *v);

/*
 * Lengths a mode is tested at: case @i.  From the first case on, in every
 * eight: six walk every length from 1 up to SM4_VEC_SEQ_BLOCKS blocks plus
 * each partial tail (random ones up to 17 blocks once the walk is done),
 * one lies around the widest batches (16 to SM4_VEC_MEDIUM_MAX bytes), and
 * one is long, up to @max_len: @max_len itself first, then just over a
 * page, then spread evenly over the doublings from SM4_VEC_LONG_MIN.
 * Multiples of 16 for ECB and CBC; at least 16 for XTS and CTS.
 */
#define SM4_VEC_MEDIUM_MAX	(16 * 72)
#define SM4_VEC_LONG_MIN	1024
uint32_t sm4_vec_length(enum sm4_vec_mode mode, unsigned long i,
			uint64_t random, uint32_t max_len);

/* A small deterministic PRNG (splitmix64), for reproducible cases. */
static inline uint64_t sm4_vec_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline void sm4_vec_fill(uint64_t *state, uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)sm4_vec_rand(state);
}

#endif
