/* SPDX-License-Identifier: GPL-2.0 */
/* Emulation of Intel's SM4 instructions (sm4ni_emu.c, x86-64 only). */
#ifndef _SM4_TEST_SM4NI_EMU_H
#define _SM4_TEST_SM4NI_EMU_H

#include <stdbool.h>

/* Install the emulator (vex_emu.h); 0 on success. */
int sm4_ni_emu_install(void);
/* Whether it is installed, and how many instructions it emulated. */
extern bool sm4_ni_emu_active;
extern unsigned long sm4_ni_emu_count;

#endif
