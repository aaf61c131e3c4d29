/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for arm64 <asm/assembler.h>: the few macros the .S use. */
#ifndef _SHIM_ASM_ASSEMBLER_H
#define _SHIM_ASM_ASSEMBLER_H
#if defined(__ASSEMBLY__) && defined(__aarch64__)

#ifdef __AARCH64EB__
#define CPU_BE(code...)	code
#define CPU_LE(code...)
#else
#define CPU_BE(code...)
#define CPU_LE(code...)	code
#endif

/* Address of a symbol anywhere within +/- 4 GiB. */
	.macro	adr_l, dst, sym
	adrp	\dst, \sym
	add	\dst, \dst, :lo12:\sym
	.endm

#endif
#endif
