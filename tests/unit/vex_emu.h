/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A SIGILL handler that decodes VEX-encoded instructions (x86-64 only)
 * for the instruction emulators of the harness (gfni_emu.c, sm4ni_emu.c):
 * it decodes the prefix and the ModRM operand and offers the instruction
 * to each registered emulator, which computes the result and writes its
 * destination through vex_emu_set().  An instruction no emulator takes
 * still kills the process (default SIGILL action).
 */
#ifndef _SM4_TEST_VEX_EMU_H
#define _SM4_TEST_VEX_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include <ucontext.h>

struct vex_insn {
	unsigned int map;	/* 1: 0F, 2: 0F38, 3: 0F3A */
	unsigned int pp;	/* 0: none, 1: 66, 2: F3, 3: F2 */
	unsigned int w, l;	/* VEX.W, VEX.L */
	unsigned int opcode;
	unsigned int reg;	/* ModRM.reg with VEX.R */
	unsigned int vvvv;	/* VEX.vvvv (first source) */
	bool mem;		/* ModRM.rm is memory */
	unsigned int rm;	/* register operand (!mem), with VEX.B */
	const uint8_t *end;	/* first byte after ModRM, SIB, displacement */
	/* Memory operand: base + index * scale + disp, or RIP-relative. */
	uintptr_t ea;
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

/* Address of a memory operand followed by @imm_bytes immediate bytes. */
uintptr_t vex_emu_ea(const struct vex_insn *in, unsigned int imm_bytes);

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
