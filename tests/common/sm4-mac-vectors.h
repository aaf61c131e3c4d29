/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test vectors of the AEADs and MACs (cbcmac, cmac, xcbc, ccm, gcm), computed
 * on the host by libgcrypt (gen-vectors --mac), checked by the userspace
 * harness (tests/unit/mac_test.c).
 *
 * Layout, all integers little-endian:
 *   header:  "SM4MAC01" (8 bytes), u32 record count
 *   record:  u8 kind (enum sm4_mac_kind), u8 tag length, u16 flags (0),
 *            u32 associated-data length A, u32 text length N, key[16],
 *            iv[16] (CCM: iv[0] = L - 1, the nonce, zeros; GCM: the
 *            12-byte IV, zeros), aad[A], text[N], out[N + 16]: CCM and
 *            GCM the ciphertext and the tag
 *            (tag length bytes, then zeros); the MACs the 16-byte MAC
 *            of the text, then zeros.
 */
#ifndef _SM4_TEST_MAC_VECTORS_H
#define _SM4_TEST_MAC_VECTORS_H

#include <stdint.h>
#include <stdio.h>

#define SM4_MAC_VEC_MAGIC "SM4MAC01"

enum sm4_mac_kind {
	SM4_MV_CBCMAC,
	SM4_MV_CMAC,
	SM4_MV_XCBC,
	SM4_MV_CCM,
	SM4_MV_GCM,
	SM4_MV_NUM_KINDS
};

static const char * const sm4_mac_kind_names[SM4_MV_NUM_KINDS] = {
	"cbcmac", "cmac", "xcbc", "ccm", "gcm",
};

struct sm4_mac_vec {
	uint8_t kind;
	uint8_t taglen;
	uint32_t alen;
	uint32_t len;
	uint8_t key[16];
	uint8_t iv[16];
	uint8_t *aad;
	uint8_t *text;
	uint8_t *out;
};

/*
 * The inputs of case @i (outputs zeroed): kinds in turn; text lengths
 * 0..SM4_MAC_VEC_SEQ in order first (associated data 0..299 alongside),
 * then random ones, mostly short, one in eight up to 4 KiB (text and
 * associated data), one in 64 CCM cases with associated data of at
 * least 0xff00 bytes (the six-byte length encoding); CCM tag lengths
 * 4..16 even, L' 1..7; GCM tag lengths 4, 8, 12..16.
 */
#define SM4_MAC_VEC_SEQ	520
int sm4_mac_vec_make(struct sm4_mac_vec *v, unsigned long i, uint64_t *seed);
void sm4_mac_vec_write_header(FILE *f, uint32_t count);
long sm4_mac_vec_read_header(FILE *f);
void sm4_mac_vec_write(FILE *f, const struct sm4_mac_vec *v);
/* 1, 0 at the end, -1 on a corrupt file. */
int sm4_mac_vec_read(FILE *f, struct sm4_mac_vec *v);
void sm4_mac_vec_free(struct sm4_mac_vec *v);

#endif
