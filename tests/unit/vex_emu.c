// SPDX-License-Identifier: GPL-2.0
/*
 * The SIGILL handler shared by the harness's instruction emulators
 * (vex_emu.h).  Slow (a signal per instruction), meant for correctness
 * only.  The vector registers live in the signal frame's XSAVE area
 * (standard format): the low 128 bits in the legacy region at offset
 * 160, the high 128 bits of the ymm registers in the YMM_Hi128
 * component, whose offset CPUID leaf 0xd, subleaf 2 gives.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <cpuid.h>
#include "vex_emu.h"

#define VEX_EMU_MAX	4

static vex_emu_fn emus[VEX_EMU_MAX];
static unsigned int n_emus, ymmh_offset;

/* gregs index of each register number of the instruction encoding. */
static const int gpr_index[16] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI,
	REG_RDI, REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13,
	REG_R14, REG_R15,
};

void vex_emu_get(const ucontext_t *uc, unsigned int n, uint8_t *v)
{
	const uint8_t *fx = (const uint8_t *)uc->uc_mcontext.fpregs;

	memcpy(v, fx + 160 + 16 * n, 16);
	memcpy(v + 16, fx + ymmh_offset + 16 * n, 16);
}

void vex_emu_set(ucontext_t *uc, unsigned int n, const uint8_t *v,
		 unsigned int bytes)
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

uintptr_t vex_emu_ea(const struct vex_insn *in, unsigned int imm_bytes,
		     unsigned int n)
{
	return in->ea + (uintptr_t)(intptr_t)(in->disp8 * (int)n) +
	       (in->riprel ? (uintptr_t)(in->end + imm_bytes) : 0);
}

greg_t *vex_emu_gpr(ucontext_t *uc, unsigned int n)
{
	return &uc->uc_mcontext.gregs[gpr_index[n & 15]];
}

void vex_emu_src2(const ucontext_t *uc, const struct vex_insn *in,
		  unsigned int imm_bytes, uint8_t *v, unsigned int bytes)
{
	if (in->mem)
		memcpy(v, (const void *)vex_emu_ea(in, imm_bytes, 1), bytes);
	else
		vex_emu_get(uc, in->rm, v);
}

static int32_t disp32(const uint8_t **q)
{
	int32_t d;

	memcpy(&d, *q, 4);
	*q += 4;
	return d;
}

/*
 * Decode a VEX (C4, C5) or EVEX (62) prefix and the ModRM operand at @p.
 * The R, X, B, R', V' bits and vvvv are stored inverted; EVEX.X extends
 * a register rm to 32 registers.
 */
static bool vex_decode(const uint8_t *p, const greg_t *g,
		       struct vex_insn *in)
{
	unsigned int rex_r, rex_x = 0, rex_b = 0, mod, rm, b2;
	const uint8_t *q;
	uint8_t modrm;

	memset(in, 0, sizeof(*in));
	if (p[0] == 0xc4) {
		rex_r = !(p[1] & 0x80);
		rex_x = !(p[1] & 0x40);
		rex_b = !(p[1] & 0x20);
		in->map = p[1] & 0x1f;
		b2 = p[2];
		in->w = b2 >> 7;
		q = p + 3;
	} else if (p[0] == 0xc5) {
		rex_r = !(p[1] & 0x80);
		in->map = 1;
		b2 = p[1];
		q = p + 2;
	} else if (p[0] == 0x62 && !(p[1] & 0x0c) && (p[2] & 0x04)) {
		/* P0: R X B R' 0 0 m m; P1: W vvvv 1 pp; P2: z L'L b V' aaa */
		in->evex = true;
		rex_r = (unsigned int)!(p[1] & 0x80) |
			(unsigned int)!(p[1] & 0x10) << 1;
		rex_x = !(p[1] & 0x40);
		rex_b = !(p[1] & 0x20);
		in->map = p[1] & 3;
		in->w = p[2] >> 7;
		in->vvvv = ((~p[2] >> 3) & 15) | !(p[3] & 0x08) << 4;
		in->pp = p[2] & 3;
		in->z = p[3] >> 7;
		in->l = (p[3] >> 5) & 3;
		in->b = (p[3] >> 4) & 1;
		in->aaa = p[3] & 7;
		q = p + 4;
	} else {
		return false;
	}
	if (!in->evex) {
		in->vvvv = (~b2 >> 3) & 15;
		in->l = (b2 >> 2) & 1;
		in->pp = b2 & 3;
	}
	in->opcode = *q++;
	modrm = *q++;
	mod = modrm >> 6;
	rm = modrm & 7;
	in->reg = ((modrm >> 3) & 7) | rex_r << 3;
	if (mod == 3) {
		in->rm = rm | rex_b << 3 | (in->evex ? rex_x << 4 : 0);
		in->end = q;
		return true;
	}
	in->mem = true;
	if (rm == 4) {
		uint8_t sib = *q++;
		unsigned int idx = ((sib >> 3) & 7) | rex_x << 3;

		if (idx != 4)
			in->ea += (uintptr_t)g[gpr_index[idx]] << (sib >> 6);
		if ((sib & 7) == 5 && mod == 0)
			in->ea += (uintptr_t)(intptr_t)disp32(&q);
		else
			in->ea += (uintptr_t)g[gpr_index[(sib & 7) | rex_b << 3]];
	} else if (rm == 5 && mod == 0) {
		in->ea = (uintptr_t)(intptr_t)disp32(&q);
		in->riprel = true;
	} else {
		in->ea = (uintptr_t)g[gpr_index[rm | rex_b << 3]];
	}
	if (mod == 1)
		in->disp8 = (int8_t)*q++;
	else if (mod == 2)
		in->ea += (uintptr_t)(intptr_t)disp32(&q);
	in->end = q;
	return true;
}

static void on_sigill(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = uc->uc_mcontext.gregs;
	struct vex_insn in;
	unsigned int i;
	int imm;

	bool done = false;

	/*
	 * The faulting instruction and every emulated one right after it
	 * (a core's run of SM4 rounds costs one signal, not one each).
	 */
	while (vex_decode((const uint8_t *)g[REG_RIP], g, &in)) {
		for (i = 0; i < n_emus; i++) {
			imm = emus[i](uc, &in);
			if (imm >= 0)
				break;
		}
		if (i == n_emus)
			break;
		g[REG_RIP] = (greg_t)(uintptr_t)(in.end + imm);
		done = true;
	}
	/* Not ours: the instruction faults again, fatally. */
	if (!done) {
		const uint8_t *p = (const uint8_t *)g[REG_RIP];

		fprintf(stderr, "vex_emu: no emulator for the instruction at %p: %02x %02x %02x %02x %02x %02x %02x\n",
			(const void *)p, p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
		signal(SIGILL, SIG_DFL);
	}
}

int vex_emu_add(vex_emu_fn fn)
{
	static uint8_t altstack[1 << 18] __attribute__((aligned(64)));
	unsigned int eax, ebx, ecx, edx;
	struct sigaction sa;
	stack_t ss;

	if (n_emus == VEX_EMU_MAX)
		return -1;
	if (!n_emus) {
		/* The YMM_Hi128 component (2) of the standard XSAVE layout. */
		if (!__get_cpuid_count(0xd, 2, &eax, &ebx, &ecx, &edx) || !ebx) {
			fprintf(stderr, "vex_emu: no YMM state in XSAVE\n");
			return -1;
		}
		ymmh_offset = ebx;
		/*
		 * The handler runs on a stack of its own: the signal frame
		 * (the whole register state) and the emulators' locals would
		 * otherwise land below the emulated function's frame, where
		 * regwipe.c looks for what the function left behind.
		 */
		ss.ss_sp = altstack;
		ss.ss_size = sizeof(altstack);
		ss.ss_flags = 0;
		if (sigaltstack(&ss, NULL))
			return -1;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_sigill;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGILL, &sa, NULL))
			return -1;
	}
	emus[n_emus++] = fn;
	return 0;
}
