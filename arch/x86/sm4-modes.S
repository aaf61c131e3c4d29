/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86-64 SM4 mode bodies (ECB, CBC and CFB decryption, CTR, XTS, GCM
 * (CTR with GHASH), and a plain serial CBC/CFB encryption and CBC-MAC
 * loop), and the GHASH functions of gcm(sm4) (include/sm4/gcm.h),
 * written once as assembler macros over a block core and instantiated
 * per register width (xmm: one block per unit, ymm: two, zmm: four).
 * Included by sm4-aesni-modes.S (cores with AES-NI),
 * sm4-gfni-avx2-asm_64.S (cores with VEX-encoded GFNI),
 * sm4-ni-avx2-asm_64.S and sm4-ni-avx10-asm_64.S (cores with Intel's SM4
 * instructions, VEX on ymm and EVEX on zmm).
 *
 * The including file provides, before the first function body:
 *   SM4_ONE_BLOCK mode	macro at the top of each parallel mode function
 *			(after the check for no blocks): may handle a
 *			1-block call itself and return (or be empty);
 *   SM4_PREP_KEYS	macro: the 128 bytes of per-call round keys at %r9
 *			from the schedule at %rdi, in the core's own form
 *			(may clobber vector registers 8-12; empty if the
 *			core reads the schedule at %rdi as it is);
 *   sm4_core_<v>_<sets> local functions (v = xmm, ymm, and zmm for a
 *			zmm mode body; sets = 1, 2):
 *			encrypt the units in vector registers 0-3 (one
 *			set) or 0-7 (two sets) in place with the keys at
 *			%r9, in unit order.  They may clobber %rax and
 *			vector registers 8-12, 14 and 15, and must keep
 *			everything else (13, which a core may keep in the
 *			frame's SM4_FRAME_SAVE slot meanwhile, and the
 *			GPRs of the conventions below).
 *
 * A "unit" is one vector register of input: one block (xmm), two (ymm)
 * or four (zmm) consecutive blocks; a register set is four units.  A zmm
 * mode body runs full zmm batches only (32 blocks, then one set of 16 if
 * that many are left) and the rest with the ymm and xmm batches, so its
 * including file provides the xmm and ymm cores too.
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
 * Every function also returns with all vector registers zero (VZEROALL):
 * none keeps a block, keystream, tweak, round key or GHASH value of the
 * call.
 */

#ifndef __ASSEMBLY__
#error "assembler-only header"
#endif

#include <sm4/gcm_layout.h>

/*
 * The frame at %r9 (SM4_FUNC_ENTER): the round keys in the core's form,
 * a slot in which a core may keep a register of the mode's state while
 * it needs it, and the XTS tweaks of one batch (up to 8 ymm units; a zmm
 * mode function's frame is SM4_FRAME_SIZE_ZMM, room for 8 zmm units).
 */
#define SM4_FRAME_RK		0
#define SM4_FRAME_SAVE		128
#define SM4_FRAME_TWEAKS	160
#define SM4_FRAME_SIZE		(SM4_FRAME_TWEAKS + 8 * 32)
#define SM4_FRAME_SIZE_ZMM	(SM4_FRAME_TWEAKS + 8 * 64)
/* GCM (no tweaks): the struct sm4_ghash pointer, in the tweaks' place. */
#define SM4_FRAME_GH		SM4_FRAME_TWEAKS

.section .rodata, "a"
.balign 64
/* byte-swap each dword (round keys are native u32); 64 bytes for zmm */
.Lsm4_bswap32:
	.rept 4
	.byte 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
	.endr
/* byte-swap each 128-bit lane (CTR counters) */
.Lsm4_bswap128:
	.rept 4
	.byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
	.endr
/* XTS: reduction 0x87 into dword 0, carry into dword 2 */
.Lsm4_xts_poly:
	.long 0x87, 0, 1, 0
/* CTR (SM4_CTR_PRE_FULL): lane l + 0..3 in the low qwords; steps 2, 4 */
.balign 64
.Lsm4_ctr_lanes:
	.quad 0, 0, 1, 0, 2, 0, 3, 0
.Lsm4_ctr_step2:
	.quad 2, 0, 2, 0
.Lsm4_ctr_step4:
	.quad 4, 0, 4, 0, 4, 0, 4, 0
/* XTS: the low qword of every 128-bit lane (SM4_XTS_MUL_XK) */
.balign 64
.Lsm4_xts_lowq:
	.rept 4
	.quad -1, 0
	.endr
/*
 * GHASH (see "GHASH" below): the reduction constant in the high qword,
 * and the constant of H*x (the same plus the bit that x^128 leaves).
 */
.Lsm4_gfpoly:
	.quad 0, 0xc200000000000000
.Lsm4_gfpoly_h:
	.quad 1, 0xc200000000000000

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
 * SM4_FUNC_ENTER size / SM4_FUNC_LEAVE size
 * Frame of every function with a mode body: \size (SM4_FRAME_SIZE, or
 * SM4_FRAME_SIZE_ZMM for a zmm mode body) bytes of stack at %r9 (see
 * SM4_FRAME_*), the round keys from SM4_PREP_KEYS, the whole frame wiped
 * on the way out (it holds key material and XTS tweaks), and then every
 * vector register (VZEROALL; the zmm bodies use registers 0-15 only).
 * Clobbers 8-12.
 */
.macro SM4_FUNC_ENTER size=SM4_FRAME_SIZE
	FRAME_BEGIN
	sub		$\size, %rsp
	mov		%rsp, %r9
	SM4_PREP_KEYS
.endm

.macro SM4_FUNC_LEAVE size=SM4_FRAME_SIZE
	vpxor		%xmm8, %xmm8, %xmm8
	.set		.Lsm4_wipe, 0
	.rept		(\size) / 32
	vmovdqu		%ymm8, .Lsm4_wipe(%rsp)
	.set		.Lsm4_wipe, .Lsm4_wipe + 32
	.endr
.if (\size) % 32
	.error "SM4_FUNC_LEAVE does not wipe the whole frame"
.endif
	add		$\size, %rsp
	FRAME_END
	vzeroall
	RET
.endm

/* ---- Batches ------------------------------------------------------------- */

/*
 * SM4_FOR_UNITS op, v, nunits, ub, partial
 * Expand "\op v, u, half, ub" for units u = 0 .. \nunits-1 (\ub bytes
 * each).  With \partial, only units holding one of the first %ecx blocks
 * are visited, and a ymm unit holding just one block gets half = 1
 * (the op then works on the low xmm only and must not touch the second
 * block's memory).  The ops must not define numeric labels.  zmm
 * batches are always full (see SM4_MODE_BODY).
 */
.macro SM4_FOR_UNITS op, v, nunits, ub, partial
.ifc \v, zmm
.if \partial
	.error "SM4_FOR_UNITS: no partial zmm batches"
.endif
.endif
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
 * clobber only their unit register and 12, 14 where stated.  zmm units
 * use the EVEX forms (vmovdqu32, vpxord; AVX-512F).
 */
.macro SM4_UNIT_MOV v, u, half, mem
.if \half
	vmovdqu		\mem, %xmm\u
.else
.ifc \v, zmm
	vmovdqu32	\mem, %zmm\u
.else
	vmovdqu		\mem, %\v\u
.endif
.endif
.endm

.macro SM4_UNIT_XOR v, u, half, mem
.if \half
	vpxor		\mem, %xmm\u, %xmm\u
.else
.ifc \v, zmm
	vpxord		\mem, %zmm\u, %zmm\u
.else
	vpxor		\mem, %\v\u, %\v\u
.endif
.endif
.endm

.macro sm4_store v, u, half, ub
.if \half
	vmovdqu		%xmm\u, (\u * \ub)(%rsi)
.else
.ifc \v, zmm
	vmovdqu32	%zmm\u, (\u * \ub)(%rsi)
.else
	vmovdqu		%\v\u, (\u * \ub)(%rsi)
.endif
.endif
.endm

/*
 * zmm unit 0 of CBC/CFB decryption: %zmm\dst := IV (%xmm13) and src
 * blocks 0..2, through %zmm\tmp (may be \dst).  Clobbers 12.
 */
.macro SM4_PREV_ZMM dst, tmp
	vshufi64x2	$0, %zmm13, %zmm13, %zmm12
	vmovdqu32	(%rdx), %zmm\tmp
	valignq		$6, %zmm12, %zmm\tmp, %zmm\dst
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
 * decryption).  Clobbers 12 (and 14 for zmm).
 */
.macro sm4_xor_prev v, u, half, ub
.if \u == 0
.if \half || (\ub == 16)
	vpxor		%xmm13, %xmm0, %xmm0
.elseif \ub == 64
	SM4_PREV_ZMM	12, 14
	vpxord		%zmm12, %zmm0, %zmm0
.else
	vinserti128	$1, (%rdx), %ymm13, %ymm12
	vpxor		%ymm12, %ymm0, %ymm0
.endif
.else
	SM4_UNIT_XOR	\v, \u, \half, (\u*\ub-16)(%rdx)
.endif
.endm

/*
 * Unit u := the blocks before it, IV first (CFB decryption input).
 * Clobbers 12 for zmm.
 */
.macro sm4_pre_prev v, u, half, ub
.if \u == 0
.if \half || (\ub == 16)
	vmovdqa		%xmm13, %xmm0
.elseif \ub == 64
	SM4_PREV_ZMM	0, 0
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
 * Clobbers 14 (and 12 for zmm).
 */
.macro SM4_CTR_NEXT x
	vmovq		%r11, %xmm\x
	vpinsrq		$1, %r10, %xmm\x, %xmm\x
	add		$1, %r11
	adc		$0, %r10
.endm

/*
 * SM4_CTR_PRE_FULL mode, v, nunits, ub: the counter blocks of a full
 * batch of ymm (two blocks a unit) or zmm (four) units.  When the low
 * qword of %r10:%r11 does not carry within the batch (nearly always),
 * vector 8 holds the native counters of a unit's lanes and each unit is
 * vector 8 byte-swapped, then vector 8 += the blocks of a unit (vector
 * 12): two uops a unit, none through the general registers.  Otherwise
 * the one-block steps of sm4_pre_ctr.  Clobbers %rax, 8, 12, 14.
 */
.macro SM4_CTR_PRE_FULL mode, v, nunits, ub
	mov		%r11, %rax
	add		$((\ub/16)*\nunits), %rax
	jc		.Lsm4_ctr_carry\@
	vmovq		%r11, %xmm8
	vpinsrq		$1, %r10, %xmm8, %xmm8
.ifc \v, zmm
	vshufi64x2	$0, %zmm8, %zmm8, %zmm8
	vpaddq		.Lsm4_ctr_lanes(%rip), %zmm8, %zmm8
	vmovdqu64	.Lsm4_ctr_step4(%rip), %zmm12
.else
	vinserti128	$1, %xmm8, %ymm8, %ymm8
	vpaddq		.Lsm4_ctr_lanes(%rip), %ymm8, %ymm8
	vmovdqu		.Lsm4_ctr_step2(%rip), %ymm12
.endif
	.irp u, 0, 1, 2, 3, 4, 5, 6, 7
	.if \u < \nunits
	vpshufb		.Lsm4_bswap128(%rip), %\v\()8, %\v\u
	vpaddq		%\v\()12, %\v\()8, %\v\()8
	.endif
	.endr
	mov		%rax, %r11
	jmp		.Lsm4_ctr_done\@
.Lsm4_ctr_carry\@:
	SM4_FOR_UNITS	sm4_pre_ctr, \v, \nunits, \ub, 0
.Lsm4_ctr_done\@:
.endm

.macro sm4_pre_ctr v, u, half, ub
	SM4_CTR_NEXT	\u
.if \half || (\ub == 16)
	vpshufb		.Lsm4_bswap128(%rip), %xmm\u, %xmm\u
.else
	SM4_CTR_NEXT	14
	vinserti128	$1, %xmm14, %ymm\u, %ymm\u
.if \ub == 64
	SM4_CTR_NEXT	14
	SM4_CTR_NEXT	12
	vinserti128	$1, %xmm12, %ymm14, %ymm14
	vinserti64x4	$1, %ymm14, %zmm\u, %zmm\u
.endif
	vpshufb		.Lsm4_bswap128(%rip), %\v\u, %\v\u
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
 * SM4_XTS_MUL_XK v, src, dst, k: vector \dst = vector \src * x^\k in
 * every 128-bit lane, 0 < \k < 57: both qwords shifted left, the low
 * one's top bits carried into the high one, and the high one's top bits
 * (the part above x^127, under 2^\k) folded back into the low qword as
 * their carry-less product with 0x87 = 1 + x + x^2 + x^7, which fits in
 * it.  Independent of every other lane and unit, unlike the one-block
 * steps of SM4_XTS_NEXT.  Clobbers 11, 14.
 */
.macro SM4_XTS_VXOR v, a, b, d
.ifc \v, zmm
	vpxorq		%zmm\a, %zmm\b, %zmm\d
.else
	vpxor		%\v\a, %\v\b, %\v\d
.endif
.endm

.macro SM4_XTS_MUL_XK v, src, dst, k
	vpsrlq		$(64 - (\k)), %\v\src, %\v\()14
	vpsllq		$(\k), %\v\src, %\v\dst
	vpshufd		$0x4e, %\v\()14, %\v\()14
	SM4_XTS_VXOR	\v, 14, \dst, \dst
.ifc \v, zmm
	vpandq		.Lsm4_xts_lowq(%rip), %zmm14, %zmm14
.else
	vpand		.Lsm4_xts_lowq(%rip), %\v\()14, %\v\()14
.endif
	vpsllq		$1, %\v\()14, %\v\()11
	SM4_XTS_VXOR	\v, 11, \dst, \dst
	vpsllq		$2, %\v\()14, %\v\()11
	SM4_XTS_VXOR	\v, 11, \dst, \dst
	vpsllq		$7, %\v\()14, %\v\()14
	SM4_XTS_VXOR	\v, 14, \dst, \dst
.endm

/*
 * SM4_XTS_PRE_FULL v, nunits, ub: the XTS inputs of a full batch of
 * ymm (two blocks a unit) or zmm (four) units.  The tweaks of unit 0,
 * t * x^0 .. x^(b-1) (b blocks a unit), go to vector 8 one block step
 * at a time; unit u's are vector 8 * x^(b*u) (SM4_XTS_MUL_XK, into 12),
 * so no unit waits for the one before it; and %xmm13 moves on to
 * t * x^(b*nunits).  Each unit := src ^ its tweaks, which wait in the
 * frame for the output XOR.  Clobbers 8, 11, 12, 14.
 */
.macro SM4_XTS_PRE_FULL v, nunits, ub
	vmovdqa		%xmm13, %xmm8
	SM4_XTS_NEXT
	vinserti128	$1, %xmm13, %ymm8, %ymm8
.if \ub == 64
	SM4_XTS_NEXT
	vmovdqa		%xmm13, %xmm12
	SM4_XTS_NEXT
	vinserti128	$1, %xmm13, %ymm12, %ymm12
	vinserti64x4	$1, %ymm12, %zmm8, %zmm8
.endif
	.irp u, 0, 1, 2, 3, 4, 5, 6, 7
	.if \u < \nunits
	.if \u == 0
	SM4_XTS_UNIT	\v, \u, \ub, 8
	.else
	SM4_XTS_MUL_XK	\v, 8, 12, (\ub/16)*\u
	SM4_XTS_UNIT	\v, \u, \ub, 12
	.endif
	.endif
	.endr
	SM4_XTS_MUL_XK	xmm, 8, 13, (\ub/16)*\nunits
.endm

/* Unit \u := src ^ the tweaks in vector \t, which go to the frame. */
.macro SM4_XTS_UNIT v, u, ub, t
.ifc \v, zmm
	vpxord		(\u * \ub)(%rdx), %zmm\t, %zmm\u
	vmovdqu32	%zmm\t, (SM4_FRAME_TWEAKS + \u * \ub)(%r9)
.else
	vpxor		(\u * \ub)(%rdx), %ymm\t, %ymm\u
	vmovdqu		%ymm\t, (SM4_FRAME_TWEAKS + \u * \ub)(%r9)
.endif
.endm

/*
 * XTS: unit u := src unit u ^ its tweak(s); the tweaks wait in the
 * frame (SM4_FRAME_TWEAKS, never in dst) for the output XOR.
 * Clobbers 12, 14.
 */
.macro sm4_pre_xts v, u, half, ub
.if \ub == 64
	/* tweaks t0, t1 into %ymm12, t2, t3 into %ymm\u, then together */
	vmovdqa		%xmm13, %xmm12
	SM4_XTS_NEXT
	vinserti128	$1, %xmm13, %ymm12, %ymm12
	SM4_XTS_NEXT
	vmovdqa		%xmm13, %xmm\u
	SM4_XTS_NEXT
	vinserti128	$1, %xmm13, %ymm\u, %ymm\u
	SM4_XTS_NEXT
	vinserti64x4	$1, %ymm\u, %zmm12, %zmm12
	vpxord		(\u * \ub)(%rdx), %zmm12, %zmm\u
	vmovdqu32	%zmm12, (SM4_FRAME_TWEAKS + \u * \ub)(%r9)
.elseif (\ub == 32) && !\half
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
.endif
.ifc \v, ymm
	SM4_BATCH_UB	\mode, \v, \sets, \partial, 32
.endif
.ifc \v, zmm
	SM4_BATCH_UB	\mode, \v, \sets, \partial, 64
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
.if \partial || (\ub == 16)
	SM4_FOR_UNITS	sm4_pre_ctr, \v, 4*\sets, \ub, \partial
.else
	SM4_CTR_PRE_FULL \mode, \v, 4*\sets, \ub
.endif
.endif
.ifc \mode, gcm
.if \partial || (\ub == 16)
	SM4_FOR_UNITS	sm4_pre_ctr, \v, 4*\sets, \ub, \partial
.else
	SM4_CTR_PRE_FULL \mode, \v, 4*\sets, \ub
.endif
.endif
.ifc \mode, xts
.if \partial || (\ub == 16)
	SM4_FOR_UNITS	sm4_pre_xts, \v, 4*\sets, \ub, \partial
.else
	SM4_XTS_PRE_FULL \v, 4*\sets, \ub
.endif
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
.ifc \mode, gcm
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
	/* GCM: hash the batch's ciphertext, still in the unit registers. */
.ifc \mode, gcm
	mov		SM4_FRAME_GH(%r9), %rax
	mov		SM4_GHASH_TABLE(%rax), %rax
	SM4_GHASH_BATCH	\v, 4*\sets, \ub, \partial
.endif
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
 * full batches of 2 register sets of \v, then the tail: (zmm) one full
 * zmm set if 16 or more blocks are left, then 1-4 blocks with one xmm
 * set, and (ymm, zmm) 5-8 blocks with one ymm set, the rest with two.
 */
.macro SM4_MODE_BODY mode, v
.ifc \v, xmm
	SM4_MODE_BODY_WB \mode, \v, 8
.endif
.ifc \v, ymm
	SM4_MODE_BODY_WB \mode, \v, 16
.endif
.ifc \v, zmm
	SM4_MODE_BODY_WB \mode, \v, 32
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
.ifc \mode, gcm
	mov		SM4_FRAME_GH(%r9), %rax
	SM4_GHASH_LOAD	%rax
.endif
.ifc \mode, ctr
	SM4_CTR_LOAD
.endif
.ifc \mode, gcm
	SM4_CTR_LOAD
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
.ifc \v, zmm
	cmp		$16, %ecx
	jb		.Lsm4_tail_ymm\@
	SM4_BATCH	\mode, zmm, 1, 0
	add		$256, %rdx
	add		$256, %rsi
	sub		$16, %ecx
.Lsm4_tail_ymm\@:
.endif
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
	SM4_CTR_STORE
.endif
.ifc \mode, gcm
	SM4_CTR_STORE
	mov		SM4_FRAME_GH(%r9), %rax
	SM4_GHASH_STORE	%rax
.endif
.endm

/* The CTR counter from (%r8) into %r10:%r11 (native order) and back. */
.macro SM4_CTR_LOAD
	mov		(%r8), %r10
	mov		8(%r8), %r11
	bswap		%r10
	bswap		%r11
.endm

.macro SM4_CTR_STORE
	bswap		%r10
	bswap		%r11
	mov		%r10, (%r8)
	mov		%r11, 8(%r8)
.endm

/*
 * SM4_MODE_FUNC mode, v: the whole body of a parallel mode function
 * (ecb, cbc_dec, cfb_dec, ctr, xts) with batches of two \v register
 * sets, ending in RET.
 */
.macro SM4_MODE_FUNC mode, v
	SM4_RET_IF_ZERO
	SM4_ONE_BLOCK	\mode
.ifc \v, zmm
	SM4_FUNC_ENTER	SM4_FRAME_SIZE_ZMM
	SM4_MODE_BODY	\mode, \v
	SM4_FUNC_LEAVE	SM4_FRAME_SIZE_ZMM
.else
	SM4_FUNC_ENTER
	SM4_MODE_BODY	\mode, \v
	SM4_FUNC_LEAVE
.endif
.endm

/*
 * SM4_SERIAL_FUNC mode: the whole body of a CBC or CFB encryption
 * function (each block depends on the previous ciphertext), one block
 * at a time through sm4_core_xmm_1, ending in RET.  Mode cbcmac is CBC
 * encryption that stores no block: the body of
 * <prefix>_cbcmac(rk, mac, src, nblocks) (include/sm4/mac.h), whose
 * chaining value @mac (%rsi) is read at the start and written once at
 * the end.
 */
.macro SM4_SERIAL_FUNC mode
	SM4_RET_IF_ZERO
.ifc \mode, cbcmac
	mov		%rsi, %r8
.endif
	SM4_FUNC_ENTER
	vmovdqu		(%r8), %xmm13
.Lsm4_serial\@:
.ifc \mode, cfb_enc
	vmovdqa		%xmm13, %xmm0
	call		sm4_core_xmm_1
	vpxor		(%rdx), %xmm0, %xmm0
.else
	vpxor		(%rdx), %xmm13, %xmm0
	call		sm4_core_xmm_1
.endif
.ifnc \mode, cbcmac
	vmovdqu		%xmm0, (%rsi)
	add		$16, %rsi
.endif
	vmovdqa		%xmm0, %xmm13
	add		$16, %rdx
	dec		%ecx
	jnz		.Lsm4_serial\@
	vmovdqu		%xmm13, (%r8)
	SM4_FUNC_LEAVE
.endm

/*
 * SM4_CCM_FUNC mode: the whole body of ccm_enc(rk, dst, src, nblocks,
 * ctr, mac) or ccm_dec_mac(rk, src, nblocks, ctr, mac)
 * (include/sm4/mac.h), ending in RET.  sm4_core_xmm_1 encrypts four
 * units whatever the serial loop above uses, so the CTR block rides in
 * unit 1 beside the CBC-MAC block in unit 0: encryption's keystream of
 * block n with the MAC of block n, decryption's of block n + 1 with the
 * MAC of block n (one core call before the loop makes block 0's).  The
 * mac pointer waits in the frame (SM4_FRAME_TWEAKS); the MAC is in
 * %xmm13, the next keystream block in %xmm4 (decryption), and nothing
 * but ciphertext is stored (decryption stores only the MAC).
 */
.macro SM4_CCM_FUNC mode
.ifc \mode, ccm_enc
	mov		%r9, %rax
.else
	mov		%r8, %rax
	mov		%rcx, %r8
	mov		%edx, %ecx
	mov		%rsi, %rdx
.endif
	SM4_RET_IF_ZERO
	SM4_FUNC_ENTER
	mov		%rax, SM4_FRAME_TWEAKS(%r9)
	vmovdqu		(%rax), %xmm13
	SM4_CTR_LOAD
.ifnc \mode, ccm_enc
	SM4_CTR_NEXT	1
	vpshufb		.Lsm4_bswap128(%rip), %xmm1, %xmm1
	call		sm4_core_xmm_1
	vmovdqa		%xmm1, %xmm4
.endif
.Lsm4_ccm\@:
.ifc \mode, ccm_enc
	vpxor		(%rdx), %xmm13, %xmm0
	SM4_CTR_NEXT	1
	vpshufb		.Lsm4_bswap128(%rip), %xmm1, %xmm1
	call		sm4_core_xmm_1
	vpxor		(%rdx), %xmm1, %xmm1
	vmovdqu		%xmm1, (%rsi)
	add		$16, %rsi
.else
	vpxor		(%rdx), %xmm4, %xmm0
	vpxor		%xmm13, %xmm0, %xmm0
	cmp		$1, %ecx
	je		.Lsm4_ccm_last\@
	SM4_CTR_NEXT	1
	vpshufb		.Lsm4_bswap128(%rip), %xmm1, %xmm1
.Lsm4_ccm_last\@:
	call		sm4_core_xmm_1
	vmovdqa		%xmm1, %xmm4
.endif
	vmovdqa		%xmm0, %xmm13
	add		$16, %rdx
	dec		%ecx
	jnz		.Lsm4_ccm\@
	mov		SM4_FRAME_TWEAKS(%r9), %rax
	vmovdqu		%xmm13, (%rax)
	SM4_CTR_STORE
	SM4_FUNC_LEAVE
.endm

/* ---- GHASH ----------------------------------------------------------------
 *
 * gcm(sm4)'s GHASH (include/sm4/gcm.h) with carry-less multiplication:
 * PCLMULQDQ on xmm or VPCLMULQDQ on ymm (two blocks per instruction),
 * chosen per function by the \gv argument of the function macros.
 *
 * Representation.  A block is byte-reversed on loading (VPSHUFB), so bit
 * 127 of the register is the coefficient of x^0 in GCM's bit order: the
 * polynomials are bit-reflected.  The carry-less product of two
 * reflected 128-bit values is the reflected 256-bit product shifted
 * right by one bit; that bit is put back in advance by storing the powers
 * of H multiplied by x ("H*x", SM4_GCM_INIT_FUNC).  The 256-bit product
 * (HI:LO) is reduced modulo x^128 + x^7 + x^2 + x + 1 by folding LO in
 * twice, 64 bits at a time, with the reflected x^128 remainder
 * 0xc2 << 56 (SM4_GHASH_FOLD).
 *
 * Aggregation.  n blocks X1..Xn (n <= 16) hash as
 *	acc' = (acc ^ X1) * H^n ^ X2 * H^(n-1) ^ ... ^ Xn * H
 * with the four 64x64 products of each block accumulated unreduced
 * (LO, MID, HI in registers 8, 9, 10) and one reduction per batch.  The
 * key's table holds H^16 .. H^1 (times x) at offsets 0 .. 240, so the
 * power for the first of n blocks is at 256 - 16 * n and the following
 * blocks' powers follow in memory order, as the blocks do.  Bytes 256 ..
 * 287 of the table are zero: a ymm load for a lone block in the last
 * unit reads 16 bytes past H^1 (and multiplies them by zero).
 *
 * The accumulator lives in %xmm13 (reflected) inside a function; the
 * upper half of %ymm13 is zero.  No memory access depends on key or data.
 */

/* \gv 8, 9, 10 += the products of \gv\x with the powers at \mem. */
.macro SM4_GHASH_MULACC gv, x, mem
	vmovdqu		\mem, %\gv\()14
	vpclmulqdq	$0x00, %\gv\()14, %\gv\x, %\gv\()15
	vpxor		%\gv\()15, %\gv\()8, %\gv\()8
	vpclmulqdq	$0x11, %\gv\()14, %\gv\x, %\gv\()15
	vpxor		%\gv\()15, %\gv\()10, %\gv\()10
	vpclmulqdq	$0x01, %\gv\()14, %\gv\x, %\gv\()15
	vpxor		%\gv\()15, %\gv\()9, %\gv\()9
	vpclmulqdq	$0x10, %\gv\()14, %\gv\x, %\gv\()15
	vpxor		%\gv\()15, %\gv\()9, %\gv\()9
.endm

/*
 * SM4_GHASH_FOLD lo, hi, dst: %xmm\dst = (%xmm\hi:%xmm\lo) reduced.
 * Clobbers \lo, 14, 15.
 */
.macro SM4_GHASH_FOLD lo, hi, dst
	vmovdqa		.Lsm4_gfpoly(%rip), %xmm15
	vpclmulqdq	$0x10, %xmm15, %xmm\lo, %xmm14
	vpshufd		$0x4e, %xmm\lo, %xmm\lo
	vpxor		%xmm14, %xmm\lo, %xmm\lo
	vpclmulqdq	$0x10, %xmm15, %xmm\lo, %xmm14
	vpshufd		$0x4e, %xmm\lo, %xmm\lo
	vpxor		%xmm14, %xmm\lo, %xmm\lo
	vpxor		%xmm\hi, %xmm\lo, %xmm\dst
.endm

/* %xmm13 = LO, MID, HI (registers 8-10 of width \gv) summed and reduced. */
.macro SM4_GHASH_REDUCE gv
.ifc \gv, ymm
	.irp r, 8, 9, 10
	vextracti128	$1, %ymm\r, %xmm14
	vpxor		%xmm14, %xmm\r, %xmm\r
	.endr
.endif
	vpslldq		$8, %xmm9, %xmm14
	vpxor		%xmm14, %xmm8, %xmm8
	vpsrldq		$8, %xmm9, %xmm9
	vpxor		%xmm9, %xmm10, %xmm10
	SM4_GHASH_FOLD	8, 10, 13
.endm

/*
 * Per-unit GHASH ops for SM4_FOR_UNITS (%rax = the power for unit 0's
 * first block): the unit's block(s) byte-reversed, unit 0's first block
 * XORed with the accumulator, products into 8-10.  Clobber 11, 12, 14,
 * 15.  _xmm: PCLMULQDQ on xmm, a ymm unit in two halves; _ymm: VPCLMULQDQ
 * on ymm, a lone block with a zero upper half.
 */
.macro sm4_ghash_unit_xmm v, u, half, ub
.if \half || (\ub == 16)
	vpshufb		.Lsm4_bswap128(%rip), %xmm\u, %xmm11
.if \u == 0
	vpxor		%xmm13, %xmm11, %xmm11
.endif
	SM4_GHASH_MULACC xmm, 11, (\u * \ub)(%rax)
.else
	vpshufb		.Lsm4_bswap128(%rip), %ymm\u, %ymm11
	vextracti128	$1, %ymm11, %xmm12
.if \u == 0
	vpxor		%xmm13, %xmm11, %xmm11
.endif
	SM4_GHASH_MULACC xmm, 11, (\u * \ub)(%rax)
	SM4_GHASH_MULACC xmm, 12, (\u * \ub + 16)(%rax)
.endif
.endm

.macro sm4_ghash_unit_ymm v, u, half, ub
.if \half || (\ub == 16)
	vpshufb		.Lsm4_bswap128(%rip), %xmm\u, %xmm11
.else
	vpshufb		.Lsm4_bswap128(%rip), %ymm\u, %ymm11
.endif
.if \u == 0
	vpxor		%ymm13, %ymm11, %ymm11
.endif
	SM4_GHASH_MULACC ymm, 11, (\u * \ub)(%rax)
.endm

/*
 * SM4_GHASH_BATCH v, nunits, ub, partial
 * Hash the blocks in the unit registers (all \nunits units, or the first
 * %ecx blocks with \partial) into %xmm13.  In: %rax = the key's table.
 * Clobbers %rax, %rdi, vector 8-12, 14, 15.  The width of the multiplies
 * is SM4_GHASH_YMM's, set by the function macros.
 */
.macro SM4_GHASH_BATCH v, nunits, ub, partial
	/* Only H^16 .. H^1 are in the table: at most 16 blocks per batch. */
.if (\nunits) * (\ub) > 256
	.error "SM4_GHASH_BATCH: more than 16 blocks, the table holds H^16 .. H^1 only"
.endif
.if \partial
	mov		%ecx, %edi
	shl		$4, %edi
	add		$256, %rax
	sub		%rdi, %rax
.else
	add		$(256 - \nunits * \ub), %rax
.endif
.if SM4_GHASH_YMM
	SM4_GHASH_BATCH_GV ymm, \v, \nunits, \ub, \partial
.else
	SM4_GHASH_BATCH_GV xmm, \v, \nunits, \ub, \partial
.endif
.endm

.macro SM4_GHASH_BATCH_GV gv, v, nunits, ub, partial
	vpxor		%\gv\()8, %\gv\()8, %\gv\()8
	vpxor		%\gv\()9, %\gv\()9, %\gv\()9
	vpxor		%\gv\()10, %\gv\()10, %\gv\()10
	SM4_FOR_UNITS	sm4_ghash_unit_\gv, \v, \nunits, \ub, \partial
	SM4_GHASH_REDUCE \gv
.endm

/* The accumulator of the struct sm4_ghash at (\reg) into %xmm13, and back. */
.macro SM4_GHASH_LOAD reg
	vmovdqu		SM4_GHASH_ACC(\reg), %xmm13
	vpshufb		.Lsm4_bswap128(%rip), %xmm13, %xmm13
.endm

.macro SM4_GHASH_STORE reg
	vpshufb		.Lsm4_bswap128(%rip), %xmm13, %xmm13
	vmovdqu		%xmm13, SM4_GHASH_ACC(\reg)
.endm

.macro SM4_GHASH_WIDTH gv
.ifc \gv, ymm
	.set		SM4_GHASH_YMM, 1
.else
	.set		SM4_GHASH_YMM, 0
.endif
.endm

/*
 * SM4_GCM_INIT_FUNC: the body of <prefix>_gcm_init(u8 *table, const u8 *h)
 * (PCLMULQDQ on xmm): H*x, then H^k*x = (H^(k-1)*x) * H for k up to 16,
 * into the table as described above; every vector register is cleared
 * before returning.
 */
.macro SM4_GCM_INIT_FUNC
.if 288 > SM4_GCM_TABLE_SIZE
	.error "SM4_GCM_INIT_FUNC: its 288-byte table exceeds SM4_GCM_TABLE_SIZE"
.endif
	vmovdqu		(%rsi), %xmm0
	vpshufb		.Lsm4_bswap128(%rip), %xmm0, %xmm0
	/* xmm0 = H*x: a 128-bit shift by one, bit 127 reduced back in */
	vpshufd		$0xff, %xmm0, %xmm1
	vpsrad		$31, %xmm1, %xmm1
	vpand		.Lsm4_gfpoly_h(%rip), %xmm1, %xmm1
	vpsrlq		$63, %xmm0, %xmm2
	vpslldq		$8, %xmm2, %xmm2
	vpsllq		$1, %xmm0, %xmm0
	vpxor		%xmm2, %xmm0, %xmm0
	vpxor		%xmm1, %xmm0, %xmm0
	vmovdqu		%xmm0, 240(%rdi)
	vmovdqa		%xmm0, %xmm3
	lea		224(%rdi), %rax
	mov		$15, %ecx
.Lsm4_gcm_init\@:
	vpxor		%xmm8, %xmm8, %xmm8
	vpxor		%xmm9, %xmm9, %xmm9
	vpxor		%xmm10, %xmm10, %xmm10
	SM4_GHASH_MULACC xmm, 3, %xmm0
	SM4_GHASH_REDUCE xmm
	vmovdqa		%xmm13, %xmm3
	vmovdqu		%xmm3, (%rax)
	sub		$16, %rax
	dec		%ecx
	jnz		.Lsm4_gcm_init\@
	vpxor		%xmm0, %xmm0, %xmm0
	vmovdqu		%xmm0, 256(%rdi)
	vmovdqu		%xmm0, 272(%rdi)
	vzeroall
	RET
.endm

/*
 * SM4_GHASH_FUNC v, gv: the body of
 * <prefix>_ghash(struct sm4_ghash *gh, const u8 *src, unsigned int nblocks):
 * batches of 8 units of \v (16 blocks for ymm, 8 for xmm), multiplies of
 * width \gv.
 */
.macro SM4_GHASH_FUNC v, gv
	SM4_GHASH_WIDTH	\gv
.ifc \v, xmm
	SM4_GHASH_FUNC_UB \v, 16
.else
	SM4_GHASH_FUNC_UB \v, 32
.endif
.endm

.macro SM4_GHASH_FUNC_UB v, ub
	mov		%edx, %ecx
	SM4_RET_IF_ZERO
	mov		%rsi, %rdx
	mov		%rdi, %rsi
	SM4_GHASH_LOAD	%rsi
	cmp		$(\ub / 2), %ecx
	jb		.Lsm4_ghash_tail\@
.Lsm4_ghash_loop\@:
	SM4_FOR_UNITS	sm4_pre_load, \v, 8, \ub, 0
	mov		SM4_GHASH_TABLE(%rsi), %rax
	SM4_GHASH_BATCH	\v, 8, \ub, 0
	add		$(8 * \ub), %rdx
	sub		$(\ub / 2), %ecx
	cmp		$(\ub / 2), %ecx
	jae		.Lsm4_ghash_loop\@
.Lsm4_ghash_tail\@:
	test		%ecx, %ecx
	jz		.Lsm4_ghash_done\@
	SM4_FOR_UNITS	sm4_pre_load, \v, 8, \ub, 1
	mov		SM4_GHASH_TABLE(%rsi), %rax
	SM4_GHASH_BATCH	\v, 8, \ub, 1
.Lsm4_ghash_done\@:
	SM4_GHASH_STORE	%rsi
	/* The accumulator and the powers of H out of the registers. */
	vzeroall
	RET
.endm

/*
 * SM4_GCM_FUNC v, gv: the body of <prefix>_gcm_enc(rk, dst, src, nblocks,
 * ctr, gh): the CTR mode body (batches of two \v register sets) with
 * each batch's ciphertext hashed from the unit registers right after its
 * stores, multiplies of width \gv.  gh (%r9) waits in the frame.
 */
.macro SM4_GCM_FUNC v, gv
	SM4_GHASH_WIDTH	\gv
	SM4_RET_IF_ZERO
	mov		%r9, %r10
	SM4_FUNC_ENTER
	mov		%r10, SM4_FRAME_GH(%r9)
	SM4_MODE_BODY	gcm, \v
	SM4_FUNC_LEAVE
.endm
