/* SPDX-License-Identifier: GPL-2.0 */
/* GFNI emulation for CPUs without it (gfni_emu.c, x86-64 only). */
#ifndef _SM4_TEST_GFNI_EMU_H
#define _SM4_TEST_GFNI_EMU_H

#include <stdbool.h>
#include <stdint.h>

/* Install the SIGILL handler; 0 on success. */
int sm4_gfni_emu_install(void);
/* Whether it is installed, and how many instructions it emulated. */
extern bool sm4_gfni_emu_active;
extern unsigned long sm4_gfni_emu_count;

/*
 * One byte of GF2P8AFFINEQB (@inv false) or GF2P8AFFINEINVQB: byte @x
 * of the first source, @a the second source's qword covering it.
 * sm4_gfni_tables_init() (done by sm4_gfni_emu_install()) first.
 */
uint8_t sm4_gfni_affine(uint64_t a, uint8_t x, uint8_t imm, bool inv);
void sm4_gfni_tables_init(void);

/*
 * Whether the VEX GFNI code (GF2P8AFFINE on xmm/ymm with AVX2) can run
 * here: natively, or with GFNI emulated.
 */
static inline bool sm4_gfni_vex_usable(void)
{
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2"))
		return false;
	return __builtin_cpu_supports("gfni") || sm4_gfni_emu_active;
}

#endif
