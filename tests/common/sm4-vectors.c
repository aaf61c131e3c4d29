// SPDX-License-Identifier: GPL-2.0
/* Reading and writing test-vector files; see sm4-vectors.h. */

#include <stdlib.h>
#include <string.h>
#include "sm4-vectors.h"

static void put_le(uint8_t *p, uint32_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le(const uint8_t *p, int n)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

void sm4_vec_write_header(FILE *f, uint32_t count)
{
	uint8_t hdr[12];

	memcpy(hdr, SM4_VEC_MAGIC, 8);
	put_le(hdr + 8, count, 4);
	fwrite(hdr, 1, sizeof(hdr), f);
}

long sm4_vec_read_header(FILE *f)
{
	uint8_t hdr[12];

	if (fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr) ||
	    memcmp(hdr, SM4_VEC_MAGIC, 8))
		return -1;
	return get_le(hdr + 8, 4);
}

void sm4_vec_write(FILE *f, const struct sm4_vec *v)
{
	uint8_t rec[8];

	rec[0] = v->mode;
	rec[1] = v->keylen;
	put_le(rec + 2, 0, 2);
	put_le(rec + 4, v->len, 4);
	fwrite(rec, 1, sizeof(rec), f);
	fwrite(v->key, 1, v->keylen, f);
	fwrite(v->iv, 1, 16, f);
	fwrite(v->pt, 1, v->len, f);
	fwrite(v->ct, 1, v->len, f);
}

int sm4_vec_read(FILE *f, struct sm4_vec *v)
{
	uint8_t rec[8];
	size_t got = fread(rec, 1, sizeof(rec), f);

	if (got == 0 && feof(f))
		return 0;
	if (got != sizeof(rec))
		return -1;
	v->mode = rec[0];
	v->keylen = rec[1];
	v->len = get_le(rec + 4, 4);
	if (v->mode >= SM4_VEC_NUM_MODES ||
	    (v->keylen != 16 && v->keylen != 32) || v->len > (1U << 24))
		return -1;
	v->pt = malloc(v->len + 1);
	v->ct = malloc(v->len + 1);
	if (!v->pt || !v->ct ||
	    fread(v->key, 1, v->keylen, f) != v->keylen ||
	    fread(v->iv, 1, 16, f) != 16 ||
	    fread(v->pt, 1, v->len, f) != v->len ||
	    fread(v->ct, 1, v->len, f) != v->len) {
		sm4_vec_free(v);
		return -1;
	}
	return 1;
}

void sm4_vec_free(struct sm4_vec *v)
{
	free(v->pt);
	free(v->ct);
	v->pt = NULL;
	v->ct = NULL;
}

/* A length in [@lo, @hi] drawn from @r. */
static uint32_t sm4_vec_between(uint64_t r, uint32_t lo, uint32_t hi)
{
	return hi <= lo ? lo : lo + (uint32_t)(r % (hi - lo + 1));
}

/*
 * A long length: above SM4_VEC_LONG_MIN, spread evenly over the doublings
 * up to @max_len (as many 1-2 KiB requests as 32-64 KiB ones), so that
 * multi-page requests come up often.
 */
static uint32_t sm4_vec_long(uint64_t r, uint32_t max_len)
{
	uint32_t lo = SM4_VEC_LONG_MIN, hi;
	unsigned int spans = 0;

	if (max_len <= lo)
		return sm4_vec_between(r, SM4_VEC_MEDIUM_MAX, max_len);
	for (hi = lo; hi < max_len; hi *= 2)
		spans++;
	lo <<= (r >> 56) % spans;
	hi = lo > max_len / 2 ? max_len : 2 * lo;
	return sm4_vec_between(r, lo, hi);
}

uint32_t sm4_vec_length(enum sm4_vec_mode mode, unsigned long i,
			uint64_t random, uint32_t max_len)
{
	bool whole = mode == SM4_VEC_ECB || mode == SM4_VEC_CBC;
	uint32_t min = mode == SM4_VEC_XTS || mode == SM4_VEC_CTS ? 16 : 1;
	unsigned long round = i / 8, slot = i % 8, k;
	uint32_t len;

	if (slot == 7) {
		/* The longest first, then one just over a page. */
		if (round == 0)
			len = max_len;
		else if (round == 1 && max_len > 4096 + 16 + 7)
			len = 4096 + 16 + 7;
		else
			len = sm4_vec_long(random, max_len);
	} else if (slot == 3) {
		/* Around the widest batches (16, 32, 64 blocks). */
		len = sm4_vec_between(random, 16 * 16, SM4_VEC_MEDIUM_MAX);
	} else {
		/* The walk over every short length, six cases in eight. */
		k = round * 6 + (slot < 3 ? slot : slot - 1);
		if (k < SM4_VEC_SEQ_BLOCKS * 16 + 16 - min)
			len = min + (uint32_t)k;
		else
			len = sm4_vec_between(random, min, 16 * 17);
	}
	if (len > max_len)
		len = max_len;
	if (len < min)
		len = min;
	/* Whole blocks, never above @max_len (callers size buffers by it). */
	if (whole)
		len = len + 15 > max_len ? max_len & ~15U : (len + 15) & ~15U;
	return len;
}
