/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 bulk functions with Intel's SM4 instructions (VSM4RNDS4,
 * VSM4KEY4; see sm4-ni.h) in their VEX.256 forms: 16 blocks in
 * parallel, two per ymm register.  Verified only under the userspace
 * emulator tests/unit/sm4ni_emu.c: this project has no CPU with these
 * instructions (README, "SM4 instructions").
 *
 * The mode bodies are those of sm4-modes.S (shared with the AES-NI and
 * GFNI drivers); this file supplies the block cores and the key
 * expansion.  Function signatures: see SM4_DEFINE_MODE_OPS in
 * include/sm4/modes.h.
 *
 * A block needs no transpose: VSM4RNDS4 keeps X(i)..X(i+3) of each
 * 128-bit lane in its dwords 0..3, so a block enters as its big-endian
 * words byte-swapped into native dwords, and leaves (X35, X34, X33, X32
 * big-endian) as the lane byte-reversed.  Each instruction does four
 * rounds with the four round keys of its key operand: the schedule's
 * native u32 words rk[4g .. 4g+3] (rkey_dec for decryption is already
 * reversed), broadcast to both lanes.  The cores read the keys from the
 * caller's schedule at %rdi (SM4_PREP_KEYS copies nothing).
 *
 * No memory access depends on key or data.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>
#include <asm/frame.h>
#include "sm4-ni.h"
#include "sm4-modes.S"

.text

/* The cores read the schedule at %rdi as it is. */
.macro SM4_PREP_KEYS
.endm

/* A 1-block call goes through the 1..4-block path of the mode body. */
.macro SM4_ONE_BLOCK mode
.endm

/*
 * SM4NI_CORE v, sets: the core of sm4-modes.S: units in vector registers
 * 0-3 (\sets = 1) or 0-7 (\sets = 2), 32 rounds, round keys from %rdi.
 * Clobbers vector register 8.
 */
.macro SM4NI_CORE v, sets
.ifc \v, ymm
	SM4NI_CORE_L	\v, \sets, 1
.else
	SM4NI_CORE_L	\v, \sets, 0
.endif
.endm

.macro SM4NI_CORE_L v, sets, l
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	.if \r < 4 * \sets
	vpshufb		.Lsm4_bswap32(%rip), %\v\r, %\v\r
	.endif
	.endr
	.irp g, 0, 1, 2, 3, 4, 5, 6, 7
	.if \l
	vbroadcasti128	(\g * 16)(%rdi), %ymm8
	.else
	vmovdqu		(\g * 16)(%rdi), %xmm8
	.endif
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	.if \r < 4 * \sets
	sm4ni_rnds4	\l, 8, \r, \r
	.endif
	.endr
	.endr
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	.if \r < 4 * \sets
	vpshufb		.Lsm4_bswap128(%rip), %\v\r, %\v\r
	.endif
	.endr
.endm

/* Units in vector registers 0-3 (xmm): 1..4 blocks, serial modes. */
SYM_FUNC_START_LOCAL(sm4_core_xmm_1)
	SM4NI_CORE	xmm, 1
	RET
SYM_FUNC_END(sm4_core_xmm_1)

/* Units in vector registers 0-3 (ymm): 5..8 blocks. */
SYM_FUNC_START_LOCAL(sm4_core_ymm_1)
	SM4NI_CORE	ymm, 1
	RET
SYM_FUNC_END(sm4_core_ymm_1)

/* Units in vector registers 0-7 (ymm): 9..16 blocks. */
SYM_FUNC_START_LOCAL(sm4_core_ymm_2)
	SM4NI_CORE	ymm, 2
	RET
SYM_FUNC_END(sm4_core_ymm_2)

/*
 * void sm4_ni_expand_key(const u8 *key, u32 *rkey_enc, u32 *rkey_dec,
 *			  const u32 *fk, const u32 *ck);
 * K0..K3 = MK ^ FK, then eight VSM4KEY4 with CK[4g .. 4g+3], each giving
 * rk[4g .. 4g+3]; rkey_dec[i] = rkey_enc[31 - i].  Wipes the registers
 * it used (key material).
 */
SYM_FUNC_START(sm4_ni_expand_key)
	vmovdqu		(%rdi), %xmm0
	vpshufb		.Lsm4_bswap32(%rip), %xmm0, %xmm0
	vpxor		(%rcx), %xmm0, %xmm0
	.irp g, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu		(\g * 16)(%r8), %xmm1
	sm4ni_key4	0, 1, 0, 0
	vmovdqu		%xmm0, (\g * 16)(%rsi)
	vpshufd		$0x1b, %xmm0, %xmm1
	vmovdqu		%xmm1, ((7 - \g) * 16)(%rdx)
	.endr
	vpxor		%xmm0, %xmm0, %xmm0
	vpxor		%xmm1, %xmm1, %xmm1
	RET
SYM_FUNC_END(sm4_ni_expand_key)

SYM_TYPED_FUNC_START(sm4_ni_avx2_ecb)
	SM4_MODE_FUNC	ecb, ymm
SYM_FUNC_END(sm4_ni_avx2_ecb)

SYM_TYPED_FUNC_START(sm4_ni_avx2_cbc_dec)
	SM4_MODE_FUNC	cbc_dec, ymm
SYM_FUNC_END(sm4_ni_avx2_cbc_dec)

SYM_TYPED_FUNC_START(sm4_ni_avx2_cfb_dec)
	SM4_MODE_FUNC	cfb_dec, ymm
SYM_FUNC_END(sm4_ni_avx2_cfb_dec)

SYM_TYPED_FUNC_START(sm4_ni_avx2_ctr)
	SM4_MODE_FUNC	ctr, ymm
SYM_FUNC_END(sm4_ni_avx2_ctr)

SYM_TYPED_FUNC_START(sm4_ni_avx2_xts)
	SM4_MODE_FUNC	xts, ymm
SYM_FUNC_END(sm4_ni_avx2_xts)

SYM_TYPED_FUNC_START(sm4_ni_avx2_cbc_enc)
	SM4_SERIAL_FUNC	cbc_enc
SYM_FUNC_END(sm4_ni_avx2_cbc_enc)

SYM_TYPED_FUNC_START(sm4_ni_avx2_cfb_enc)
	SM4_SERIAL_FUNC	cfb_enc
SYM_FUNC_END(sm4_ni_avx2_cfb_enc)

/* The CBC-MAC of cbcmac/cmac/xcbc/ccm(sm4) (include/sm4/mac.h). */
SYM_TYPED_FUNC_START(sm4_ni_avx2_cbcmac)
	SM4_SERIAL_FUNC	cbcmac
SYM_FUNC_END(sm4_ni_avx2_cbcmac)
