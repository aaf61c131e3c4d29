/* SPDX-License-Identifier: GPL-2.0 */
/* Emulation of Intel's SM4 instructions (sm4ni_emu.c, x86-64 only). */
#ifndef _SM4_TEST_SM4NI_EMU_H
#define _SM4_TEST_SM4NI_EMU_H

#include <stdbool.h>
#include <stdint.h>

/* Install the emulator (vex_emu.h); 0 on success. */
int sm4_ni_emu_install(void);
/*
 * Whether it is installed, and how many SM4 instructions were emulated
 * (VEX here, EVEX through evex_emu.c).
 */
extern bool sm4_ni_emu_active;
extern unsigned long sm4_ni_emu_count;

/* Compute and check the S-box (done by the install); 0 on success. */
int sm4_ni_tables_init(void);
/*
 * One VSM4RNDS4 (!@key) or VSM4KEY4 (@key) on @lanes 128-bit lanes:
 * @dst from the state/key words @src1 and the key/constant words @src2.
 */
void sm4_ni_lanes(const uint32_t *src1, const uint32_t *src2, uint32_t *dst,
		  unsigned int lanes, bool key);

#endif
