/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trampolines of tests/unit/regwipe.c (x86-64, SysV ABI):
 * void sm4_regwipe_call(fn, const u64 args[6], const u8 *marks, u8 *after)
 * loads ymm0-15 from marks (32 bytes each), calls fn(args[0] .. args[5]),
 * stores ymm0-15 into after; sm4_regwipe_call_zmm does the same with
 * zmm0-31 (64 bytes each, AVX-512F).  Both also paint the
 * SM4_RW_STACK bytes below the stack pointer with sm4_regwipe_paint
 * before the call, where fn's frame will be, copy them to
 * sm4_regwipe_stack right after it and note the stack pointer in
 * sm4_regwipe_sp.
 */
#include "regwipe.h"
	.text

.macro REGWIPE_CALL name, load, store
	.globl	\name
	.type	\name, @function
\name:
	push	%rbp
	mov	%rsp, %rbp
	push	%rbx
	push	%r12
	push	%r13
	push	%r14
	mov	%rdi, %r12
	mov	%rsi, %rbx
	mov	%rcx, %r13
	mov	%rsp, sm4_regwipe_sp(%rip)
	lea	-SM4_RW_STACK(%rsp), %rdi
	mov	sm4_regwipe_paint(%rip), %rax
	mov	$(SM4_RW_STACK / 8), %ecx
	cld
	rep stosq
	\load
	mov	(%rbx), %rdi
	mov	8(%rbx), %rsi
	mov	16(%rbx), %rdx
	mov	24(%rbx), %rcx
	mov	32(%rbx), %r8
	mov	40(%rbx), %r9
	call	*%r12
	\store
	lea	-SM4_RW_STACK(%rsp), %rsi
	lea	sm4_regwipe_stack(%rip), %rdi
	mov	$(SM4_RW_STACK / 8), %ecx
	rep movsq
	vzeroupper
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbx
	pop	%rbp
	ret
	.size	\name, . - \name
.endm

.macro LOAD_YMM
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqu	(\r * 32)(%rdx), %ymm\r
	.endr
.endm

.macro STORE_YMM
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqu	%ymm\r, (\r * 32)(%r13)
	.endr
.endm

.macro LOAD_ZMM
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	vmovdqu64	(\r * 64)(%rdx), %zmm\r
	.endr
.endm

.macro STORE_ZMM
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	vmovdqu64	%zmm\r, (\r * 64)(%r13)
	.endr
.endm

REGWIPE_CALL sm4_regwipe_call, LOAD_YMM, STORE_YMM
REGWIPE_CALL sm4_regwipe_call_zmm, LOAD_ZMM, STORE_ZMM

	.section .note.GNU-stack, "", @progbits
