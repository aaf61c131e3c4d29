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
 * (0 stays 0).  The ymm upper halves live in the XSAVE area of the
 * signal frame (YMM_Hi128 component, offset from CPUID leaf 0xd).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <cpuid.h>
#include "gfni_emu.h"

static uint8_t gf_inv[256];
static unsigned int ymmh_offset;
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

static uint8_t affine(uint64_t a, uint8_t x, uint8_t imm)
{
	uint8_t r = 0;
	int i;

	for (i = 0; i < 8; i++)
		r |= (uint8_t)(__builtin_parity((unsigned int)
				((a >> (8 * (7 - i))) & 0xff & x)) << i);
	return r ^ imm;
}

/* gregs index of each register number of the instruction encoding. */
static const int gpr_index[16] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI,
	REG_RDI, REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13,
	REG_R14, REG_R15,
};

static void get_vec(const ucontext_t *uc, int n, uint8_t *v)
{
	const uint8_t *fx = (const uint8_t *)uc->uc_mcontext.fpregs;

	memcpy(v, fx + 160 + 16 * n, 16);
	memcpy(v + 16, fx + ymmh_offset + 16 * n, 16);
}

static void set_vec(ucontext_t *uc, int n, const uint8_t *v, int bytes)
{
	uint8_t *fx = (uint8_t *)uc->uc_mcontext.fpregs;
	uint64_t bv;

	memcpy(fx + 160 + 16 * n, v, 16);
	if (bytes == 32)
		memcpy(fx + ymmh_offset + 16 * n, v + 16, 16);
	else
		memset(fx + ymmh_offset + 16 * n, 0, 16);	/* VEX.128 */
	/* XSTATE_BV: SSE and YMM state are live now. */
	memcpy(&bv, fx + 512, 8);
	bv |= 6;
	memcpy(fx + 512, &bv, 8);
}

static void on_sigill(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = uc->uc_mcontext.gregs;
	const uint8_t *p = (const uint8_t *)g[REG_RIP], *q;
	uint8_t x[32], a[32], r[32], modrm, imm;
	int rex_r, rex_x, rex_b, vvvv, l256, reg, mod, rm, bytes, i;
	bool inv, riprel = false;
	uintptr_t addr = 0;

	/* VEX3: C4 RXBmmmmm Wvvvv1pp: map 0F3A, W1, 66; opcode CE/CF. */
	if (p[0] != 0xc4 || (p[1] & 0x1f) != 3 || !(p[2] & 0x80) ||
	    (p[2] & 3) != 1 || (p[3] != 0xce && p[3] != 0xcf))
		goto not_ours;
	rex_r = !(p[1] & 0x80);
	rex_x = !(p[1] & 0x40);
	rex_b = !(p[1] & 0x20);
	vvvv = (~p[2] >> 3) & 15;
	l256 = (p[2] >> 2) & 1;
	inv = p[3] == 0xcf;
	modrm = p[4];
	mod = modrm >> 6;
	reg = ((modrm >> 3) & 7) | rex_r << 3;
	rm = modrm & 7;
	q = p + 5;
	bytes = l256 ? 32 : 16;

	if (mod != 3) {
		if (rm == 4) {
			uint8_t sib = *q++;
			int idx = ((sib >> 3) & 7) | rex_x << 3;
			int base = (sib & 7) | rex_b << 3;

			if (idx != 4)
				addr += (uintptr_t)g[gpr_index[idx]] << (sib >> 6);
			if ((sib & 7) == 5 && mod == 0) {
				int32_t d;

				memcpy(&d, q, 4);
				q += 4;
				addr += (uintptr_t)(intptr_t)d;
			} else {
				addr += (uintptr_t)g[gpr_index[base]];
			}
		} else if (rm == 5 && mod == 0) {
			int32_t d;

			memcpy(&d, q, 4);
			q += 4;
			addr = (uintptr_t)(intptr_t)d;
			riprel = true;
		} else {
			addr = (uintptr_t)g[gpr_index[rm | rex_b << 3]];
		}
		if (mod == 1) {
			addr += (uintptr_t)(intptr_t)(int8_t)*q++;
		} else if (mod == 2) {
			int32_t d;

			memcpy(&d, q, 4);
			q += 4;
			addr += (uintptr_t)(intptr_t)d;
		}
	}
	imm = *q++;
	if (riprel)
		addr += (uintptr_t)q;

	get_vec(uc, vvvv, x);
	if (mod == 3)
		get_vec(uc, rm | rex_b << 3, a);
	else
		memcpy(a, (const void *)addr, bytes);
	for (i = 0; i < bytes; i++) {
		uint64_t m;

		memcpy(&m, a + (i & ~7), 8);
		r[i] = affine(m, inv ? gf_inv[x[i]] : x[i], imm);
	}
	set_vec(uc, reg, r, bytes);
	g[REG_RIP] = (greg_t)(uintptr_t)q;
	sm4_gfni_emu_count++;
	return;

not_ours:
	signal(SIGILL, SIG_DFL);
}

int sm4_gfni_emu_install(void)
{
	unsigned int eax, ebx, ecx, edx, i, j;
	struct sigaction sa;

	/* The YMM_Hi128 component (2) of the standard XSAVE layout. */
	if (!__get_cpuid_count(0xd, 2, &eax, &ebx, &ecx, &edx) || !ebx) {
		fprintf(stderr, "gfni_emu: no YMM state in XSAVE\n");
		return -1;
	}
	ymmh_offset = ebx;
	for (i = 1; i < 256; i++)
		for (j = 1; j < 256; j++)
			if (gf_mul((uint8_t)i, (uint8_t)j) == 1)
				gf_inv[i] = (uint8_t)j;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigill;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGILL, &sa, NULL))
		return -1;
	sm4_gfni_emu_active = true;
	return 0;
}
