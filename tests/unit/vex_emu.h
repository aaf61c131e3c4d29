/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A SIGILL handler that decodes VEX- and EVEX-encoded instructions
 * (x86-64 only) for the instruction emulators of the harness (gfni_emu.c,
 * sm4ni_emu.c, evex_emu.c): it decodes the prefix and the ModRM operand
 * and offers the instruction to each registered emulator, which computes
 * the result and writes its destination through vex_emu_set().  An
 * instruction no emulator takes still kills the process (default SIGILL
 * action), after a line naming its address and bytes.
 */
#ifndef _SM4_TEST_VEX_EMU_H
#define _SM4_TEST_VEX_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include <ucontext.h>

struct vex_insn {
	bool evex;		/* EVEX (62) prefix, else VEX (C4, C5) */
	unsigned int map;	/* 1: 0F, 2: 0F38, 3: 0F3A */
	unsigned int pp;	/* 0: none, 1: 66, 2: F3, 3: F2 */
	unsigned int w, l;	/* W; VEX.L, or EVEX.L'L (0: 128 .. 2: 512) */
	unsigned int opcode;
	unsigned int reg;	/* ModRM.reg with R (and EVEX.R') */
	unsigned int vvvv;	/* vvvv (first source), with EVEX.V' */
	bool mem;		/* ModRM.rm is memory */
	unsigned int rm;	/* register operand (!mem), with B (EVEX.X) */
	/* EVEX only: opmask register (0: none), zeroing, EVEX.b. */
	unsigned int aaa;
	bool z, b;
	const uint8_t *end;	/* first byte after ModRM, SIB, displacement */
	/*
	 * Memory operand: base + index * scale + disp32, or RIP-relative,
	 * plus an 8-bit displacement kept apart in disp8 (EVEX scales it by
	 * the operand's N, "compressed displacement"; VEX by 1).
	 */
	uintptr_t ea;
	int disp8;
	bool riprel;
};

/*
 * An emulator: if @in is one of its instructions, compute it, write the
 * destination and return the length of what follows in->end (its
 * immediate bytes); otherwise return -1.
 */
typedef int (*vex_emu_fn)(ucontext_t *uc, const struct vex_insn *in);

/* Register @fn and install the handler (once); 0 on success. */
int vex_emu_add(vex_emu_fn fn);

/*
 * Address of a memory operand followed by @imm_bytes immediate bytes,
 * its disp8 scaled by @n (1 for VEX).
 */
uintptr_t vex_emu_ea(const struct vex_insn *in, unsigned int imm_bytes,
		     unsigned int n);

/* General-purpose register @n (encoding order: rax, rcx, ..., r15). */
greg_t *vex_emu_gpr(ucontext_t *uc, unsigned int n);

/* The 32 bytes of ymm register @n in the signal frame. */
void vex_emu_get(const ucontext_t *uc, unsigned int n, uint8_t *v);

/*
 * Write @bytes (16: VEX.128, upper half zeroed; 32: VEX.256) of @v to
 * ymm register @n in the signal frame.
 */
void vex_emu_set(ucontext_t *uc, unsigned int n, const uint8_t *v,
		 unsigned int bytes);

/* The second source: register in->rm or the memory operand. */
void vex_emu_src2(const ucontext_t *uc, const struct vex_insn *in,
		  unsigned int imm_bytes, uint8_t *v, unsigned int bytes);

#endif
