// SPDX-License-Identifier: GPL-2.0
/*
 * A SIGILL-driven emulator of the VEX-encoded GFNI affine instructions
 * (VGF2P8AFFINEQB, VGF2P8AFFINEINVQB on xmm and ymm), so that the
 * GFNI/AVX2 backend can be checked on a CPU without GFNI (this project's
 * build host is one).  Only these two instructions are emulated; any
 * other illegal instruction still kills the process.  Slow (a signal per
 * instruction), meant for correctness only.
 *
 * Semantics (Intel SDM, GF2P8AFFINEQB): for each byte x of the first
 * source and the qword A of the second source covering it, result bit i
 * is parity(A.byte[7 - i] & x) ^ imm8.bit[i]; the INV form first
 * replaces x by its inverse in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1
 * (0 stays 0).  The EVEX forms (evex_emu.c) share this arithmetic
 * (sm4_gfni_affine).  Decoding and the signal frame: vex_emu.c.
 */
#include <stdint.h>
#include <string.h>
#include "gfni_emu.h"
#include "vex_emu.h"

static uint8_t gf_inv[256];
unsigned long sm4_gfni_emu_count;
bool sm4_gfni_emu_active;

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = (uint8_t)((a << 1) ^ (a & 0x80 ? 0x1b : 0));
		b >>= 1;
	}
	return r;
}

uint8_t sm4_gfni_affine(uint64_t a, uint8_t x, uint8_t imm, bool inv)
{
	uint8_t r = 0;
	int i;

	if (inv)
		x = gf_inv[x];
	for (i = 0; i < 8; i++)
		r |= (uint8_t)(__builtin_parity((unsigned int)
				((a >> (8 * (7 - i))) & 0xff & x)) << i);
	return r ^ imm;
}

void sm4_gfni_tables_init(void)
{
	unsigned int i, j;

	if (gf_inv[1])
		return;
	for (i = 1; i < 256; i++)
		for (j = 1; j < 256; j++)
			if (gf_mul((uint8_t)i, (uint8_t)j) == 1)
				gf_inv[i] = (uint8_t)j;
}

/* VEX.128/256.66.0F3A.W1 CE/CF /r ib: ours. */
static int gfni_emu(ucontext_t *uc, const struct vex_insn *in)
{
	uint8_t x[32], a[32], r[32];
	unsigned int bytes = in->l ? 32 : 16, i;
	bool inv = in->opcode == 0xcf;
	uint8_t imm;

	if (in->evex || in->map != 3 || !in->w || in->pp != 1 ||
	    (in->opcode != 0xce && in->opcode != 0xcf))
		return -1;
	imm = *in->end;
	vex_emu_get(uc, in->vvvv, x);
	vex_emu_src2(uc, in, 1, a, bytes);
	for (i = 0; i < bytes; i++) {
		uint64_t m;

		memcpy(&m, a + (i & ~7u), 8);
		r[i] = sm4_gfni_affine(m, x[i], imm, inv);
	}
	vex_emu_set(uc, in->reg, r, bytes);
	sm4_gfni_emu_count++;
	return 1;
}

int sm4_gfni_emu_install(void)
{
	sm4_gfni_tables_init();
	if (vex_emu_add(gfni_emu))
		return -1;
	sm4_gfni_emu_active = true;
	return 0;
}
