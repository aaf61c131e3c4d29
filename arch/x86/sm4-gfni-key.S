/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The key expansion of the GFNI drivers, written once as an assembler
 * macro (SM4_GFNI_EXPAND_KEY_BODY) and instantiated by
 * sm4-gfni-avx2-asm_64.S and sm4-gfni-avx512-asm_64.S, included after
 * sm4-gfni.h.  The S-box tau is S(x) = M2 * inv(M1*x ^ C1) ^ C: one
 * VGF2P8AFFINEQB and one VGF2P8AFFINEINVQB (VEX, xmm) on the word, no
 * table lookup.
 */

#ifndef __ASSEMBLY__
#error "assembler-only header"
#endif

#include "sm4-key-frame.S"

/*
 * SM4_GFNI_KEY_TAU: tau of SM4_X86_KEY_STEP (sm4-key-frame.S), two
 * affine steps on the low dword of %xmm0 (matrices M1 in %xmm3, M2 in
 * %xmm4).
 */
.macro SM4_GFNI_KEY_TAU
	vgf2p8affineqb	$SM4_GFNI_C1, %xmm3, %xmm0, %xmm0
	vgf2p8affineinvqb $SM4_GFNI_C, %xmm4, %xmm0, %xmm0
.endm

/*
 * SM4_GFNI_EXPAND_KEY_BODY: the body, ending in RET, of
 * void <name>(const u8 *key, u32 *rkey_enc, u32 *rkey_dec, const u32 *fk,
 *	       const u32 *ck);
 * (SM4_X86_EXPAND_KEY, sm4_x86_drivers.h): both schedules as
 * sm4_expandkey() makes them, rkey_dec[i] = rkey_enc[31 - i].  K0..K3 =
 * MK ^ FK live in %eax, %r9d, %r10d, %r11d; 8 iterations of 4 steps, no
 * memory access depends on the key.  VEX GFNI on xmm (GFNI and AVX).
 * Wipes every register that held key material.  sm4_x86_expandkey()
 * (sm4_x86_glue.c) calls it directly, so the including file defines it
 * with SYM_FUNC_START.
 */
.macro SM4_GFNI_EXPAND_KEY_BODY
	movabs		$SM4_GFNI_M1, %rax
	vmovq		%rax, %xmm3
	movabs		$SM4_GFNI_M2, %rax
	vmovq		%rax, %xmm4
	SM4_X86_EXPAND_KEY_FRAME SM4_GFNI_KEY_TAU
	vpxor		%xmm0, %xmm0, %xmm0
	vpxor		%xmm3, %xmm3, %xmm3
	vpxor		%xmm4, %xmm4, %xmm4
	RET
.endm
