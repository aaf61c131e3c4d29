/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86-64 SM4 mode bodies (ECB, CBC and CFB decryption, CTR, XTS, and
 * a plain serial CBC/CFB encryption loop), written once as assembler
 * macros over a block core and instantiated per register width (xmm:
 * one block per unit, ymm: two).  Included by sm4-aesni-modes.S (cores
 * with AES-NI), sm4-gfni-avx2-asm_64.S (cores with VEX-encoded GFNI) and
 * sm4-ni-avx2-asm_64.S (cores with Intel's SM4 instructions).
 *
 * The including file provides, before the first function body:
 *   SM4_ONE_BLOCK mode	macro at the top of each parallel mode function
 *			(after the check for no blocks): may handle a
 *			1-block call itself and return (or be empty);
 *   SM4_PREP_KEYS	macro: the 128 bytes of per-call round keys at %r9
 *			from the schedule at %rdi, in the core's own form
 *			(may clobber vector registers 8-12; empty if the
 *			core reads the schedule at %rdi as it is);
 *   sm4_core_<v>_<sets> local functions (v = xmm, ymm; sets = 1, 2):
 *			encrypt the units in vector registers 0-3 (one
 *			set) or 0-7 (two sets) in place with the keys at
 *			%r9, in unit order.  They may clobber %rax and
 *			vector registers 8-12, 14 and 15, and must keep
 *			everything else (13, which a core may keep in the
 *			frame's SM4_FRAME_SAVE slot meanwhile, and the
 *			GPRs of the conventions below).
 *
 * A "unit" is one vector register of input: one block (xmm) or two
 * consecutive blocks (ymm); a register set is four units.
 *
 * Register conventions:
 *   %rdi  round keys (rkey_enc or rkey_dec)    %rsi  dst
 *   %rdx  src                                  %ecx  blocks left
 *   %r8   iv / counter / tweak                 %r9   frame (SM4_FRAME_*)
 *   %rax  core scratch                         %r10, %r11  CTR counter
 *   vector 0-7: units (state), 8-12: core temporaries,
 *   13: chaining value / tweak, 14: mode temporary.
 *
 * Nothing but final output is ever written to dst: the XTS tweaks of a
 * batch wait in the frame, which every function wipes before returning.
 */

#ifndef __ASSEMBLY__
#error "assembler-only header"
#endif

/*
 * The frame at %r9 (SM4_FUNC_ENTER): the round keys in the core's form,
 * the XTS tweaks of one batch (up to 8 ymm units) and a slot in which a
 * core may keep a register of the mode's state while it needs it.
 */
#define SM4_FRAME_RK		0
#define SM4_FRAME_TWEAKS	128
#define SM4_FRAME_SAVE		384
#define SM4_FRAME_SIZE		416

.section .rodata, "a"
.balign 32
/* byte-swap each dword (round keys are native u32) */
.Lsm4_bswap32:
	.rept 2
	.byte 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
	.endr
/* byte-swap each 128-bit lane (CTR counters) */
.Lsm4_bswap128:
	.rept 2
	.byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
	.endr
/* XTS: reduction 0x87 into dword 0, carry into dword 2 */
.Lsm4_xts_poly:
	.long 0x87, 0, 1, 0

.text

/*
 * SM4_TRANSPOSE_IN v, a, b, c, d
 * 4x4 dword transpose in each 128-bit lane: units in, words out
 * (\a = dword 0 of each unit lane, ...).  Clobbers 8, 9.
 */
.macro SM4_TRANSPOSE_IN v, a, b, c, d
	vpunpckhdq	%\v\b, %\v\a, %\v\()8
	vpunpckldq	%\v\b, %\v\a, %\v\a
	vpunpckldq	%\v\d, %\v\c, %\v\()9
	vpunpckhdq	%\v\d, %\v\c, %\v\c
	vpunpckhqdq	%\v\()9, %\v\a, %\v\b
	vpunpcklqdq	%\v\()9, %\v\a, %\v\a
	vpunpckhqdq	%\v\c, %\v\()8, %\v\d
	vpunpcklqdq	%\v\c, %\v\()8, %\v\c
.endm

/*
 * SM4_TRANSPOSE_OUT v, w0, w1, w2, w3
 * Output transpose: a block is X35 X34 X33 X32, i.e. the words in
 * reverse order.  In: \w0-\w3 = words 32..35 of each block.
 * Out: \w0-\w3 = units in input order.  Clobbers 8, 9.
 */
.macro SM4_TRANSPOSE_OUT v, w0, w1, w2, w3
	vpunpckhdq	%\v\w2, %\v\w3, %\v\()8
	vpunpckldq	%\v\w2, %\v\w3, %\v\()9
	vpunpckldq	%\v\w0, %\v\w1, %\v\w3
	vpunpckhdq	%\v\w0, %\v\w1, %\v\w2
	vpunpcklqdq	%\v\w3, %\v\()9, %\v\w0
	vpunpckhqdq	%\v\w3, %\v\()9, %\v\w1
	vpunpckhqdq	%\v\w2, %\v\()8, %\v\w3
	vpunpcklqdq	%\v\w2, %\v\()8, %\v\w2
.endm


/* ---- Function frame ------------------------------------------------------ */

/*
 * SM4_SETS_IN v, sets / SM4_SETS_OUT v, sets: the transposes of a core's
 * one (0-3) or two (0-7) register sets on the way in and out (words
 * 32..35 in registers 0-3 and 4-7 on the way out).  Clobber 8, 9.
 */
.macro SM4_SETS_IN v, sets
	SM4_TRANSPOSE_IN \v, 0, 1, 2, 3
.if \sets == 2
	SM4_TRANSPOSE_IN \v, 4, 5, 6, 7
.endif
.endm

.macro SM4_SETS_OUT v, sets
	SM4_TRANSPOSE_OUT \v, 0, 1, 2, 3
.if \sets == 2
	SM4_TRANSPOSE_OUT \v, 4, 5, 6, 7
.endif
.endm

/*
 * SM4_RET_IF_ZERO: first thing of every function: a call for no blocks
 * returns at once, touching no memory.
 */
.macro SM4_RET_IF_ZERO
	test		%ecx, %ecx
	jnz		.Lsm4_nonzero\@
	RET
.Lsm4_nonzero\@:
.endm

/*
 * SM4_FUNC_ENTER / SM4_FUNC_LEAVE
 * Frame of every function with a mode body: SM4_FRAME_SIZE bytes of
 * stack at %r9 (see SM4_FRAME_*), the round keys from SM4_PREP_KEYS,
 * the whole frame wiped on the way out (it holds key material and XTS
 * tweaks).  Clobbers 8-12.
 */
.macro SM4_FUNC_ENTER
	FRAME_BEGIN
	sub		$SM4_FRAME_SIZE, %rsp
	mov		%rsp, %r9
	SM4_PREP_KEYS
.endm

.macro SM4_FUNC_LEAVE
	vpxor		%xmm8, %xmm8, %xmm8
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
	vmovdqu		%ymm8, (\i * 32)(%rsp)
	.endr
.if SM4_FRAME_SIZE != 13 * 32
	.error "SM4_FUNC_LEAVE does not wipe the whole frame"
.endif
	add		$SM4_FRAME_SIZE, %rsp
	FRAME_END
	vzeroupper
	RET
.endm

/* ---- Batches ------------------------------------------------------------- */

/*
 * SM4_FOR_UNITS op, v, nunits, ub, partial
 * Expand "\op v, u, half, ub" for units u = 0 .. \nunits-1 (\ub bytes
 * each).  With \partial, only units holding one of the first %ecx blocks
 * are visited, and a ymm unit holding just one block gets half = 1
 * (the op then works on the low xmm only and must not touch the second
 * block's memory).  The ops must not define numeric labels.
 */
.macro SM4_FOR_UNITS op, v, nunits, ub, partial
	.irp u, 0, 1, 2, 3, 4, 5, 6, 7
	.if \u < \nunits
	.if \partial
	.ifc \v, xmm
	cmp		$\u, %ecx
	jbe		.Lsm4_units_end\@
	\op		\v, \u, 0, \ub
	.else
	cmp		$(2 * \u), %ecx
	jbe		.Lsm4_units_end\@
	cmp		$(2 * \u + 1), %ecx
	jne		1f
	\op		\v, \u, 1, \ub
	jmp		.Lsm4_units_end\@
1:
	\op		\v, \u, 0, \ub
	.endif
	.else
	\op		\v, \u, 0, \ub
	.endif
	.endif
	.endr
.Lsm4_units_end\@:
.endm

/*
 * Per-unit operations of the modes: sm4_pre_<mode> builds unit u's core
 * input, sm4_xor_<mode> turns its core output into the mode's output
 * (loads only), sm4_store writes it.  All loads of a batch (pre and xor
 * phases, chaining values) happen before its first store, so dst == src
 * is safe.  Inputs as in the register conventions at the top; they
 * clobber only their unit register and 12, 14 where stated.
 */
.macro SM4_UNIT_MOV v, u, half, mem
.if \half
	vmovdqu		\mem, %xmm\u
.else
	vmovdqu		\mem, %\v\u
.endif
.endm

.macro SM4_UNIT_XOR v, u, half, mem
.if \half
	vpxor		\mem, %xmm\u, %xmm\u
.else
	vpxor		\mem, %\v\u, %\v\u
.endif
.endm

.macro sm4_store v, u, half, ub
.if \half
	vmovdqu		%xmm\u, (\u * \ub)(%rsi)
.else
	vmovdqu		%\v\u, (\u * \ub)(%rsi)
.endif
.endm

.macro sm4_nop v, u, half, ub
.endm

/* Unit u := src unit u. */
.macro sm4_pre_load v, u, half, ub
	SM4_UNIT_MOV	\v, \u, \half, (\u*\ub)(%rdx)
.endm

/* Unit u ^= src unit u (CTR, CFB decryption). */
.macro sm4_xor_src v, u, half, ub
	SM4_UNIT_XOR	\v, \u, \half, (\u*\ub)(%rdx)
.endm

/*
 * Unit u ^= the blocks before it: IV (%xmm13) then src blocks (CBC
 * decryption).  Clobbers 12.
 */
.macro sm4_xor_prev v, u, half, ub
.if \u == 0
.if \half || (\ub == 16)
	vpxor		%xmm13, %xmm0, %xmm0
.else
	vinserti128	$1, (%rdx), %ymm13, %ymm12
	vpxor		%ymm12, %ymm0, %ymm0
.endif
.else
	SM4_UNIT_XOR	\v, \u, \half, (\u*\ub-16)(%rdx)
.endif
.endm

/* Unit u := the blocks before it, IV first (CFB decryption input). */
.macro sm4_pre_prev v, u, half, ub
.if \u == 0
.if \half || (\ub == 16)
	vmovdqa		%xmm13, %xmm0
.else
	vinserti128	$1, (%rdx), %ymm13, %ymm0
.endif
.else
	SM4_UNIT_MOV	\v, \u, \half, (\u*\ub-16)(%rdx)
.endif
.endm

/*
 * CTR: unit u := the next counter block(s).  %r10:%r11 is the 128-bit
 * counter (high:low, native order); it is incremented with carry from
 * the low into the high half, so any wrap inside a batch is exact.
 * Clobbers 14.
 */
.macro sm4_pre_ctr v, u, half, ub
	vmovq		%r11, %xmm\u
	vpinsrq		$1, %r10, %xmm\u, %xmm\u
	add		$1, %r11
	adc		$0, %r10
.if (\ub == 32) && !\half
	vmovq		%r11, %xmm14
	vpinsrq		$1, %r10, %xmm14, %xmm14
	add		$1, %r11
	adc		$0, %r10
	vinserti128	$1, %xmm14, %ymm\u, %ymm\u
	vpshufb		.Lsm4_bswap128(%rip), %ymm\u, %ymm\u
.else
	vpshufb		.Lsm4_bswap128(%rip), %xmm\u, %xmm\u
.endif
.endm

/*
 * SM4_XTS_NEXT: %xmm13 *= x in GF(2^128) (IEEE 1619: little-endian,
 * reduction by x^7 + x^2 + x + 1).  Clobbers 14.
 */
.macro SM4_XTS_NEXT
	vpsrad		$31, %xmm13, %xmm14
	vpshufd		$0x13, %xmm14, %xmm14
	vpand		.Lsm4_xts_poly(%rip), %xmm14, %xmm14
	vpaddq		%xmm13, %xmm13, %xmm13
	vpxor		%xmm14, %xmm13, %xmm13
.endm

/*
 * XTS: unit u := src unit u ^ its tweak(s); the tweaks wait in the
 * frame (SM4_FRAME_TWEAKS, never in dst) for the output XOR.
 * Clobbers 12, 14.
 */
.macro sm4_pre_xts v, u, half, ub
.if (\ub == 32) && !\half
	vmovdqa		%xmm13, %xmm12
	SM4_XTS_NEXT
	vinserti128	$1, %xmm13, %ymm12, %ymm12
	SM4_XTS_NEXT
	vpxor		(\u * \ub)(%rdx), %ymm12, %ymm\u
	vmovdqu		%ymm12, (SM4_FRAME_TWEAKS + \u * \ub)(%r9)
.else
	vpxor		(\u * \ub)(%rdx), %xmm13, %xmm\u
	vmovdqu		%xmm13, (SM4_FRAME_TWEAKS + \u * \ub)(%r9)
	SM4_XTS_NEXT
.endif
.endm

/* XTS: unit u ^= its tweak(s) from the frame. */
.macro sm4_xor_tweak v, u, half, ub
	SM4_UNIT_XOR	\v, \u, \half, (SM4_FRAME_TWEAKS + \u * \ub)(%r9)
.endm

/*
 * SM4_BATCH mode, v, sets, partial
 * Process one batch of 4 * \sets units: all of them (\partial = 0) or the
 * first %ecx blocks (\partial = 1).  Clobbers %rax, vector 0-12, 14;
 * updates %xmm13 / %r10:%r11 as the mode requires.
 */
.macro SM4_BATCH mode, v, sets, partial
.ifc \v, xmm
	SM4_BATCH_UB	\mode, \v, \sets, \partial, 16
.else
	SM4_BATCH_UB	\mode, \v, \sets, \partial, 32
.endif
.endm

.macro SM4_BATCH_UB mode, v, sets, partial, ub
.ifc \mode, ecb
	SM4_FOR_UNITS	sm4_pre_load, \v, 4*\sets, \ub, \partial
.endif
.ifc \mode, cbc_dec
	SM4_FOR_UNITS	sm4_pre_load, \v, 4*\sets, \ub, \partial
.endif
.ifc \mode, cfb_dec
	SM4_FOR_UNITS	sm4_pre_prev, \v, 4*\sets, \ub, \partial
.endif
.ifc \mode, ctr
	SM4_FOR_UNITS	sm4_pre_ctr, \v, 4*\sets, \ub, \partial
.endif
.ifc \mode, xts
	SM4_FOR_UNITS	sm4_pre_xts, \v, 4*\sets, \ub, \partial
.endif
	call		sm4_core_\v\()_\sets
.ifc \mode, cbc_dec
	SM4_FOR_UNITS	sm4_xor_prev, \v, 4*\sets, \ub, \partial
.endif
.ifc \mode, cfb_dec
	SM4_FOR_UNITS	sm4_xor_src, \v, 4*\sets, \ub, \partial
.endif
.ifc \mode, ctr
	SM4_FOR_UNITS	sm4_xor_src, \v, 4*\sets, \ub, \partial
.endif
.ifc \mode, xts
	SM4_FOR_UNITS	sm4_xor_tweak, \v, 4*\sets, \ub, \partial
.endif
	/* CBC/CFB decryption: the next IV is the last ciphertext block. */
.ifc \mode, cbc_dec
	SM4_BATCH_NEXT_IV \sets, \partial, \ub
.endif
.ifc \mode, cfb_dec
	SM4_BATCH_NEXT_IV \sets, \partial, \ub
.endif
	SM4_FOR_UNITS	sm4_store, \v, 4*\sets, \ub, \partial
.endm

.macro SM4_BATCH_NEXT_IV sets, partial, ub
.if \partial
	mov		%ecx, %eax
	shl		$4, %eax
	vmovdqu		-16(%rdx,%rax), %xmm13
.else
	vmovdqu		(4 * \sets * \ub - 16)(%rdx), %xmm13
.endif
.endm

/*
 * SM4_MODE_BODY mode, v
 * The body of a parallel mode function (ecb, cbc_dec, cfb_dec, ctr, xts):
 * full batches of 2 register sets of \v, then the tail: 1-4 blocks with
 * one xmm set, and (ymm) 5-8 blocks with one ymm set, the rest with two.
 */
.macro SM4_MODE_BODY mode, v
.ifc \v, xmm
	SM4_MODE_BODY_WB \mode, \v, 8
.else
	SM4_MODE_BODY_WB \mode, \v, 16
.endif
.endm

.macro SM4_MODE_BODY_WB mode, v, wb
	/* set-up */
.ifc \mode, cbc_dec
	vmovdqu		(%r8), %xmm13
.endif
.ifc \mode, cfb_dec
	vmovdqu		(%r8), %xmm13
.endif
.ifc \mode, xts
	vmovdqu		(%r8), %xmm13
.endif
.ifc \mode, ctr
	mov		(%r8), %r10
	mov		8(%r8), %r11
	bswap		%r10
	bswap		%r11
.endif
	cmp		$\wb, %ecx
	jb		.Lsm4_tail\@
.Lsm4_loop\@:
	SM4_BATCH	\mode, \v, 2, 0
	add		$(16 * \wb), %rdx
	add		$(16 * \wb), %rsi
	sub		$\wb, %ecx
	cmp		$\wb, %ecx
	jae		.Lsm4_loop\@
.Lsm4_tail\@:
	test		%ecx, %ecx
	jz		.Lsm4_done\@
	cmp		$4, %ecx
	ja		.Lsm4_tail8\@
	SM4_BATCH	\mode, xmm, 1, 1
	jmp		.Lsm4_done\@
.Lsm4_tail8\@:
.ifc \v, xmm
	SM4_BATCH	\mode, xmm, 2, 1
.else
	cmp		$8, %ecx
	ja		.Lsm4_tail16\@
	SM4_BATCH	\mode, ymm, 1, 1
	jmp		.Lsm4_done\@
.Lsm4_tail16\@:
	SM4_BATCH	\mode, ymm, 2, 1
.endif
.Lsm4_done\@:
	/* write back the chaining state */
.ifc \mode, cbc_dec
	vmovdqu		%xmm13, (%r8)
.endif
.ifc \mode, cfb_dec
	vmovdqu		%xmm13, (%r8)
.endif
.ifc \mode, xts
	vmovdqu		%xmm13, (%r8)
.endif
.ifc \mode, ctr
	bswap		%r10
	bswap		%r11
	mov		%r10, (%r8)
	mov		%r11, 8(%r8)
.endif
.endm

/*
 * SM4_MODE_FUNC mode, v: the whole body of a parallel mode function
 * (ecb, cbc_dec, cfb_dec, ctr, xts) with batches of two \v register
 * sets, ending in RET.
 */
.macro SM4_MODE_FUNC mode, v
	SM4_RET_IF_ZERO
	SM4_ONE_BLOCK	\mode
	SM4_FUNC_ENTER
	SM4_MODE_BODY	\mode, \v
	SM4_FUNC_LEAVE
.endm

/*
 * SM4_SERIAL_FUNC mode: the whole body of a CBC or CFB encryption
 * function (each block depends on the previous ciphertext), one block
 * at a time through sm4_core_xmm_1, ending in RET.
 */
.macro SM4_SERIAL_FUNC mode
	SM4_RET_IF_ZERO
	SM4_FUNC_ENTER
	vmovdqu		(%r8), %xmm13
.Lsm4_serial\@:
.ifc \mode, cbc_enc
	vpxor		(%rdx), %xmm13, %xmm0
	call		sm4_core_xmm_1
.else
	vmovdqa		%xmm13, %xmm0
	call		sm4_core_xmm_1
	vpxor		(%rdx), %xmm0, %xmm0
.endif
	vmovdqu		%xmm0, (%rsi)
	vmovdqa		%xmm0, %xmm13
	add		$16, %rdx
	add		$16, %rsi
	dec		%ecx
	jnz		.Lsm4_serial\@
	vmovdqu		%xmm13, (%r8)
	SM4_FUNC_LEAVE
.endm
