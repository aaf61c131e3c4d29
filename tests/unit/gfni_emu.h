/* SPDX-License-Identifier: GPL-2.0 */
/* GFNI emulation for CPUs without it (gfni_emu.c, x86-64 only). */
#ifndef _SM4_TEST_GFNI_EMU_H
#define _SM4_TEST_GFNI_EMU_H

#include <stdbool.h>

/* Install the SIGILL handler; 0 on success. */
int sm4_gfni_emu_install(void);
/* Whether it is installed, and how many instructions it emulated. */
extern bool sm4_gfni_emu_active;
extern unsigned long sm4_gfni_emu_count;

#endif
