/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trampoline of tests/unit/regwipe.c (AArch64, AAPCS64):
 * void sm4_regwipe_call(fn, const u64 args[6], const u8 *marks, u8 *after)
 * loads v0-v31 from marks (16 bytes each), calls fn(args[0] .. args[5]),
 * stores v0-v31 into after.  d8-d15 of its caller are saved around it.
 * It also paints the SM4_RW_STACK bytes below the stack pointer with
 * sm4_regwipe_paint before the call, copies them to sm4_regwipe_stack
 * right after it and notes the stack pointer in sm4_regwipe_sp.  The
 * general registers: x6-x18 are zero at the call, and x0-x18 (all the
 * caller-saved ones) are stored into sm4_regwipe_gprs right after it.
 */
#include "regwipe.h"
	.text
	.globl	sm4_regwipe_call
	.type	sm4_regwipe_call, %function
sm4_regwipe_call:
	stp	x29, x30, [sp, #-112]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	d8, d9, [sp, #48]
	stp	d10, d11, [sp, #64]
	stp	d12, d13, [sp, #80]
	stp	d14, d15, [sp, #96]
	mov	x19, x0
	mov	x20, x1
	mov	x21, x3
	adrp	x22, sm4_regwipe_gprs
	add	x22, x22, :lo12:sm4_regwipe_gprs
	mov	x9, sp
	adrp	x10, sm4_regwipe_sp
	str	x9, [x10, :lo12:sm4_regwipe_sp]
	sub	x9, x9, #SM4_RW_STACK
	adrp	x10, sm4_regwipe_paint
	ldr	x10, [x10, :lo12:sm4_regwipe_paint]
	mov	x11, #(SM4_RW_STACK / 8)
1:	str	x10, [x9], #8
	subs	x11, x11, #1
	b.ne	1b
	ld1	{v0.16b-v3.16b}, [x2], #64
	ld1	{v4.16b-v7.16b}, [x2], #64
	ld1	{v8.16b-v11.16b}, [x2], #64
	ld1	{v12.16b-v15.16b}, [x2], #64
	ld1	{v16.16b-v19.16b}, [x2], #64
	ld1	{v20.16b-v23.16b}, [x2], #64
	ld1	{v24.16b-v27.16b}, [x2], #64
	ld1	{v28.16b-v31.16b}, [x2]
	ldp	x0, x1, [x20]
	ldp	x2, x3, [x20, #16]
	ldp	x4, x5, [x20, #32]
	.irp	r, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18
	mov	x\r, xzr
	.endr
	blr	x19
	stp	x0, x1, [x22]
	stp	x2, x3, [x22, #16]
	stp	x4, x5, [x22, #32]
	stp	x6, x7, [x22, #48]
	stp	x8, x9, [x22, #64]
	stp	x10, x11, [x22, #80]
	stp	x12, x13, [x22, #96]
	stp	x14, x15, [x22, #112]
	stp	x16, x17, [x22, #128]
	str	x18, [x22, #144]
	st1	{v0.16b-v3.16b}, [x21], #64
	st1	{v4.16b-v7.16b}, [x21], #64
	st1	{v8.16b-v11.16b}, [x21], #64
	st1	{v12.16b-v15.16b}, [x21], #64
	st1	{v16.16b-v19.16b}, [x21], #64
	st1	{v20.16b-v23.16b}, [x21], #64
	st1	{v24.16b-v27.16b}, [x21], #64
	st1	{v28.16b-v31.16b}, [x21]
	mov	x9, sp
	sub	x9, x9, #SM4_RW_STACK
	adrp	x10, sm4_regwipe_stack
	add	x10, x10, :lo12:sm4_regwipe_stack
	mov	x11, #(SM4_RW_STACK / 8)
2:	ldr	x12, [x9], #8
	str	x12, [x10], #8
	subs	x11, x11, #1
	b.ne	2b
	ldp	d8, d9, [sp, #48]
	ldp	d10, d11, [sp, #64]
	ldp	d12, d13, [sp, #80]
	ldp	d14, d15, [sp, #96]
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x29, x30, [sp], #112
	ret
	.size	sm4_regwipe_call, . - sm4_regwipe_call

	.section .note.GNU-stack, "", %progbits
