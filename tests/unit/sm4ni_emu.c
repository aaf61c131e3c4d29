// SPDX-License-Identifier: GPL-2.0
/*
 * An emulator of Intel's SM4 instructions, for the harness only: this
 * project has no CPU with them.  Written from the instructions'
 * definitions in Intel's ISA extensions reference (the "Operation"
 * sections of VSM4KEY4 and VSM4RNDS4):
 *
 *   VSM4KEY4  VEX.128/256.F3.0F38.W0 DA /r   dst, src1, src2
 *   VSM4RNDS4 VEX.128/256.F2.0F38.W0 DA /r   dst, src1, src2
 *
 * This file takes the VEX forms; the EVEX forms (EVEX.512, same map, pp
 * and opcode, on zmm0-31) are decoded by evex_emu.c, whose zmm register
 * state lives there, and computed by the same sm4_ni_lanes() below.
 *
 * For each 128-bit lane: P0..P3 = the lane's dwords 0..3 of src1, and
 *	C0 = F(P0, P1, P2, P3, k0), C1 = F(P1, P2, P3, C0, k1),
 *	C2 = F(P2, P3, C0, C1, k2), C3 = F(P3, C0, C1, C2, k3),
 * k0..k3 the lane's dwords of src2 (register or memory); dst's lane
 * dwords := C0..C3, everything above the vector length zeroed.
 * F(X0, X1, X2, X3, k) = X0 ^ L(tau(X1 ^ X2 ^ X3 ^ k)), tau the S-box on
 * each byte of the dword, L(b) = b ^ rol(b, 2) ^ rol(b, 10) ^
 * rol(b, 18) ^ rol(b, 24) for VSM4RNDS4, b ^ rol(b, 13) ^ rol(b, 23)
 * for VSM4KEY4.
 *
 * The S-box is not copied from anywhere: it is computed from SM4's
 * algebraic form S(x) = A*inv(A*x ^ 0xd3) ^ 0xd3 (inverse modulo
 * x^8+x^7+x^6+x^5+x^4+x^2+1, A the circulant bit matrix whose row i is
 * 0xa7 rotated left by i) and checked against entries of the published
 * table at install time.  Decoding and the signal frame: vex_emu.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "sm4ni_emu.h"
#include "vex_emu.h"

static uint8_t sbox[256];
unsigned long sm4_ni_emu_count;
bool sm4_ni_emu_active;

static uint32_t rol32(uint32_t w, unsigned int n)
{
	return w << n | w >> (32 - n);
}

static uint32_t tau(uint32_t w)
{
	return (uint32_t)sbox[w & 0xff] | (uint32_t)sbox[(w >> 8) & 0xff] << 8 |
	       (uint32_t)sbox[(w >> 16) & 0xff] << 16 |
	       (uint32_t)sbox[w >> 24] << 24;
}

static uint32_t f_rnd(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3,
		      uint32_t k, bool key)
{
	uint32_t b = tau(x1 ^ x2 ^ x3 ^ k);

	if (key)
		return x0 ^ b ^ rol32(b, 13) ^ rol32(b, 23);
	return x0 ^ b ^ rol32(b, 2) ^ rol32(b, 10) ^ rol32(b, 18) ^
	       rol32(b, 24);
}

void sm4_ni_lanes(const uint32_t *src1, const uint32_t *src2, uint32_t *dst,
		  unsigned int lanes, bool key)
{
	unsigned int lane, j;
	uint32_t x[8];

	for (lane = 0; lane < lanes; lane++) {
		memcpy(x, src1 + 4 * lane, 16);
		for (j = 0; j < 4; j++)
			x[4 + j] = f_rnd(x[j], x[j + 1], x[j + 2], x[j + 3],
					 src2[4 * lane + j], key);
		memcpy(dst + 4 * lane, x + 4, 16);
	}
	sm4_ni_emu_count++;
}

/* VEX.128/256.F2 (rounds) or F3 (key schedule) .0F38.W0 DA: ours. */
static int sm4ni_emu(ucontext_t *uc, const struct vex_insn *in)
{
	unsigned int bytes = in->l ? 32 : 16;
	uint32_t p[8], k[8], c[8] = { 0 };

	if (in->evex || in->map != 2 || in->w || in->opcode != 0xda ||
	    (in->pp != 2 && in->pp != 3))
		return -1;
	vex_emu_get(uc, in->vvvv, (uint8_t *)p);
	vex_emu_src2(uc, in, 0, (uint8_t *)k, bytes);
	sm4_ni_lanes(p, k, c, bytes / 16, in->pp == 2);
	vex_emu_set(uc, in->reg, (const uint8_t *)c, bytes);
	return 0;
}

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = (uint8_t)((a << 1) ^ (a & 0x80 ? 0xf5 : 0));
		b >>= 1;
	}
	return r;
}

static uint8_t affine(uint8_t x)
{
	uint8_t y = 0, row;
	int i;

	for (i = 0; i < 8; i++) {
		row = (uint8_t)(0xa7 << i | 0xa7 >> (8 - i));
		y |= (uint8_t)(__builtin_parity(row & x) << i);
	}
	return y ^ 0xd3;
}

int sm4_ni_tables_init(void)
{
	/* Published S-box entries: the first four and the last. */
	static const uint8_t check[][2] = {
		{ 0x00, 0xd6 }, { 0x01, 0x90 }, { 0x02, 0xe9 }, { 0x03, 0xfe },
		{ 0xff, 0x48 },
	};
	uint8_t inv[256] = { 0 };
	unsigned int i, j;

	for (i = 1; i < 256; i++)
		for (j = 1; j < 256; j++)
			if (gf_mul((uint8_t)i, (uint8_t)j) == 1)
				inv[i] = (uint8_t)j;
	for (i = 0; i < 256; i++)
		sbox[i] = affine(inv[affine((uint8_t)i)]);
	for (i = 0; i < sizeof(check) / sizeof(check[0]); i++) {
		if (sbox[check[i][0]] != check[i][1]) {
			fprintf(stderr, "sm4ni_emu: S-box[0x%02x] = 0x%02x, published 0x%02x\n",
				check[i][0], sbox[check[i][0]], check[i][1]);
			return -1;
		}
	}
	return 0;
}

int sm4_ni_emu_install(void)
{
	if (sm4_ni_tables_init() || vex_emu_add(sm4ni_emu))
		return -1;
	sm4_ni_emu_active = true;
	return 0;
}
