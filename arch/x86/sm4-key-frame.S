/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frame of the x86 key expansions (sm4-aesni-modes.S,
 * sm4-gfni-key.S), written once: each supplies only its S-box step.
 */

#ifndef SM4_KEY_FRAME_S
#define SM4_KEY_FRAME_S

#ifndef __ASSEMBLY__
#error "assembler-only header"
#endif

/*
 * SM4_X86_EXPAND_KEY_FRAME step
 * For void f(const u8 *key (%rdi), u32 *rkey_enc (%rsi), u32 *rkey_dec
 * (%rdx), const u32 *fk (%rcx), const u32 *ck (%r8)): K0..K3 = MK ^ FK
 * in %eax, %r9d, %r10d, %r11d, then 8 iterations of 4 calls of
 * "\step a, b, c, d, j" (a ^= T'(b ^ c ^ d ^ CK[j]), stored as rk[j] at
 * %rsi and at -4 * j from %rdx; it may clobber %ecx), rkey_dec[i] =
 * rkey_enc[31 - i].  Clears the general registers that held key
 * material; the vector registers the step used are the caller's to clear.
 */
.macro SM4_X86_EXPAND_KEY_FRAME step
	mov		(%rdi), %eax
	mov		4(%rdi), %r9d
	mov		8(%rdi), %r10d
	mov		12(%rdi), %r11d
	bswap		%eax
	bswap		%r9d
	bswap		%r10d
	bswap		%r11d
	xor		(%rcx), %eax
	xor		4(%rcx), %r9d
	xor		8(%rcx), %r10d
	xor		12(%rcx), %r11d
	add		$(31 * 4), %rdx
	mov		$8, %edi
.Lsm4_key_frame_loop\@:
	\step		%eax, %r9d, %r10d, %r11d, 0
	\step		%r9d, %r10d, %r11d, %eax, 1
	\step		%r10d, %r11d, %eax, %r9d, 2
	\step		%r11d, %eax, %r9d, %r10d, 3
	add		$16, %r8
	add		$16, %rsi
	sub		$16, %rdx
	dec		%edi
	jnz		.Lsm4_key_frame_loop\@
	xor		%eax, %eax
	xor		%ecx, %ecx
	xor		%r9d, %r9d
	xor		%r10d, %r10d
	xor		%r11d, %r11d
.endm

#endif /* SM4_KEY_FRAME_S */
