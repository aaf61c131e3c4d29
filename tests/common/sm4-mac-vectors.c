// SPDX-License-Identifier: GPL-2.0
/* MAC/CCM test-vector files; see sm4-mac-vectors.h. */

#include <stdlib.h>
#include <string.h>
#include "sm4-vectors.h"
#include "sm4-mac-vectors.h"

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static int alloc_bufs(struct sm4_mac_vec *v)
{
	v->aad = calloc(1, v->alen + 1);
	v->text = calloc(1, v->len + 1);
	v->out = calloc(1, v->len + 16);
	return v->aad && v->text && v->out ? 0 : -1;
}

int sm4_mac_vec_make(struct sm4_mac_vec *v, unsigned long i, uint64_t *seed)
{
	uint64_t r = sm4_vec_rand(seed);
	unsigned int l;

	memset(v, 0, sizeof(*v));
	v->kind = i % SM4_MV_NUM_KINDS;
	if (i / SM4_MV_NUM_KINDS <= SM4_MAC_VEC_SEQ) {
		v->len = i / SM4_MV_NUM_KINDS;
		v->alen = (v->len * 37) % 300;
	} else {
		v->len = r % ((r >> 20) % 8 ? 300 : 4097);
		v->alen = (r >> 32) % ((r >> 24) % 8 ? 64 : 4097);
		if (v->kind == SM4_MV_CCM && (r >> 40) % 64 == 0)
			v->alen = 0xff00 - 8 + (r >> 48) % 64;
	}
	if (v->kind < SM4_MV_CCM)
		v->alen = 0;
	sm4_vec_fill(seed, v->key, 16);
	if (v->kind == SM4_MV_CCM) {
		r = sm4_vec_rand(seed);
		v->taglen = 4 + 2 * (r % 7);
		l = 2 + (r >> 8) % 7;		/* L = 2..8 */
		v->iv[0] = l - 1;
		sm4_vec_fill(seed, v->iv + 1, 15 - l);
	} else if (v->kind == SM4_MV_GCM) {
		static const uint8_t gcm_tags[] = { 4, 8, 12, 13, 14, 15, 16 };

		v->taglen = gcm_tags[sm4_vec_rand(seed) % 7];
		sm4_vec_fill(seed, v->iv, 12);
	} else {
		v->taglen = 16;
	}
	if (alloc_bufs(v))
		return -1;
	sm4_vec_fill(seed, v->aad, v->alen);
	sm4_vec_fill(seed, v->text, v->len);
	return 0;
}

void sm4_mac_vec_write_header(FILE *f, uint32_t count)
{
	uint8_t hdr[12];

	memcpy(hdr, SM4_MAC_VEC_MAGIC, 8);
	put_le32(hdr + 8, count);
	fwrite(hdr, 1, sizeof(hdr), f);
}

long sm4_mac_vec_read_header(FILE *f)
{
	uint8_t hdr[12];

	if (fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr) ||
	    memcmp(hdr, SM4_MAC_VEC_MAGIC, 8))
		return -1;
	return get_le32(hdr + 8);
}

void sm4_mac_vec_write(FILE *f, const struct sm4_mac_vec *v)
{
	uint8_t rec[12] = { v->kind, v->taglen };

	put_le32(rec + 4, v->alen);
	put_le32(rec + 8, v->len);
	fwrite(rec, 1, sizeof(rec), f);
	fwrite(v->key, 1, 16, f);
	fwrite(v->iv, 1, 16, f);
	fwrite(v->aad, 1, v->alen, f);
	fwrite(v->text, 1, v->len, f);
	fwrite(v->out, 1, v->len + 16, f);
}

int sm4_mac_vec_read(FILE *f, struct sm4_mac_vec *v)
{
	uint8_t rec[12];
	size_t got = fread(rec, 1, sizeof(rec), f);

	memset(v, 0, sizeof(*v));
	if (got == 0 && feof(f))
		return 0;
	if (got != sizeof(rec))
		return -1;
	v->kind = rec[0];
	v->taglen = rec[1];
	v->alen = get_le32(rec + 4);
	v->len = get_le32(rec + 8);
	if (v->kind >= SM4_MV_NUM_KINDS || v->taglen > 16 ||
	    v->alen > (1U << 20) || v->len > (1U << 20) || alloc_bufs(v) ||
	    fread(v->key, 1, 16, f) != 16 || fread(v->iv, 1, 16, f) != 16 ||
	    fread(v->aad, 1, v->alen, f) != v->alen ||
	    fread(v->text, 1, v->len, f) != v->len ||
	    fread(v->out, 1, v->len + 16, f) != v->len + 16) {
		sm4_mac_vec_free(v);
		return -1;
	}
	return 1;
}

void sm4_mac_vec_free(struct sm4_mac_vec *v)
{
	free(v->aad);
	free(v->text);
	free(v->out);
	v->aad = v->text = v->out = NULL;
}
