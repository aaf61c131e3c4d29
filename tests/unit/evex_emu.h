/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulation of the AVX-512 instructions of the GFNI/AVX-512 backend on a
 * CPU without AVX-512 (evex_emu.c, x86-64 only).
 */
#ifndef _SM4_TEST_EVEX_EMU_H
#define _SM4_TEST_EVEX_EMU_H

#include <stdbool.h>

/*
 * Install the emulator (vex_emu.h); 0 on success.  On a CPU with AVX-512
 * it works on the real AVX-512 state (@sm4_avx512_emu_native) and sees
 * only the instructions the CPU lacks.
 */
int sm4_avx512_emu_install(void);
/* Whether it is installed, and how many instructions it emulated. */
extern bool sm4_avx512_emu_active;
extern bool sm4_avx512_emu_native;
extern unsigned long sm4_avx512_emu_count;

#endif
