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
 * SM4_X86_KEY_STEP tau, a, b, c, d, j
 * One step of the key schedule, \a ^= T'(\b ^ \c ^ \d ^ CK[\j]) with
 * T'(x) = L'(tau(x)), L'(B) = B ^ rol13(B) ^ rol23(B), stored as rk[\j]
 * at %rsi and as rk_dec at -4 * \j from %rdx.  The macro \tau applies
 * the S-box to each byte of the low dword of %xmm0.  CK from %r8.
 * Clobbers %ecx, %xmm0 and what \tau clobbers.
 */
.macro SM4_X86_KEY_STEP tau, a, b, c, d, j
	mov		\b, %ecx
	xor		\c, %ecx
	xor		\d, %ecx
	xor		(\j * 4)(%r8), %ecx
	vmovd		%ecx, %xmm0
	\tau
	vmovd		%xmm0, %ecx
	xor		%ecx, \a
	rol		$13, %ecx
	xor		%ecx, \a
	rol		$10, %ecx
	xor		%ecx, \a
	mov		\a, (\j * 4)(%rsi)
	mov		\a, (-\j * 4)(%rdx)
.endm

/*
 * SM4_X86_EXPAND_KEY_FRAME tau
 * For void f(const u8 *key (%rdi), u32 *rkey_enc (%rsi), u32 *rkey_dec
 * (%rdx), const u32 *fk (%rcx), const u32 *ck (%r8)): K0..K3 = MK ^ FK
 * in %eax, %r9d, %r10d, %r11d, then 8 iterations of 4 SM4_X86_KEY_STEPs
 * with the S-box macro \tau; rkey_dec[i] = rkey_enc[31 - i].  Clears the
 * general registers that held key material; the vector registers \tau
 * used are the caller's to clear.
 */
.macro SM4_X86_EXPAND_KEY_FRAME tau
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
	SM4_X86_KEY_STEP \tau, %eax, %r9d, %r10d, %r11d, 0
	SM4_X86_KEY_STEP \tau, %r9d, %r10d, %r11d, %eax, 1
	SM4_X86_KEY_STEP \tau, %r10d, %r11d, %eax, %r9d, 2
	SM4_X86_KEY_STEP \tau, %r11d, %eax, %r9d, %r10d, 3
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
