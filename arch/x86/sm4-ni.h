/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intel's SM4 instructions (CPUID.(EAX=7,ECX=1):EAX[2]), used by
 * sm4-ni-avx2-asm_64.S (VEX forms) and sm4-ni-avx10-asm_64.S (EVEX.512
 * forms on zmm, and the VEX forms for its short tails):
 *
 *   VSM4RNDS4 (VEX.128/256.F2.0F38.W0 DA /r, EVEX.512.F2.0F38.W0 DA /r):
 *	four SM4 rounds on each 128-bit lane; the source register holds
 *	X0..X3 in dwords 0..3, the key operand rk0..rk3, the result X4..X7.
 *   VSM4KEY4 (VEX.128/256.F3.0F38.W0 DA /r, EVEX.512.F3.0F38.W0 DA /r):
 *	four rounds of the key schedule, K0..K3 and CK0..CK3 in, rk0..rk3
 *	(K4..K7) out.
 * The EVEX forms take no opmask and no broadcast (EVEX.aaa = 0, z = 0,
 * b = 0 here) and are enumerated apart from the VEX ones: see
 * sm4_ni_avx10_glue.c.
 *
 * Assembler: binutils learnt the VEX mnemonics in 2.42 and the EVEX ones
 * by 2.44; Debian 12's 2.40 (the toolchain of its 6.1 kernel) knows
 * neither, so they are emitted as bytes, by the same macros on every
 * toolchain.  tools/check-sm4ni-insn.sh assembles every register
 * combination both ways with a binutils that knows them and compares the
 * bytes and the disassembly.
 *
 * Also here, shared by both .S files: the block cores of sm4-modes.S
 * (SM4NI_CORE_FUNCS) and the key expansion (SM4NI_EXPAND_KEY_FUNC); C
 * side: the struct sm4_skcipher_driver.expandkey over it (also used by
 * the userspace harness).
 */
#ifndef _SM4_X86_NI_H
#define _SM4_X86_NI_H

#ifdef __ASSEMBLY__

/*
 * SM4NI_VEX pp, l, rm, v, reg: a register-only VEX3 instruction of map
 * 0F38, W0, opcode DA: ModRM.reg = \reg (destination), VEX.vvvv = \v
 * (first source), ModRM.rm = \rm (second source), register numbers
 * 0..15; \l = 0 for xmm, 1 for ymm; \pp = 2 (F3) or 3 (F2).
 */
.macro SM4NI_VEX pp, l, rm, v, reg
	.byte	0xc4
	.byte	0x42 | ((((\reg) >> 3) ^ 1) << 7) | ((((\rm) >> 3) ^ 1) << 5)
	.byte	\pp | ((~(\v) & 15) << 3) | ((\l) << 2)
	.byte	0xda
	.byte	0xc0 | (((\reg) & 7) << 3) | ((\rm) & 7)
.endm

/*
 * SM4NI_EVEX512 pp, rm, v, reg: the same as a register-only EVEX.512
 * instruction, register numbers 0..31: P0 = R X B R' 0 m m m with
 * map 010 (0F38), EVEX.X extending ModRM.rm to 5 bits; P1 = W0 vvvv 1
 * pp; P2 = z0 L'L=10 b0 V' aaa=000; R, X, B, R', vvvv and V' inverted.
 */
.macro SM4NI_EVEX512 pp, rm, v, reg
	.byte	0x62
	.byte	0x02 | (((((\reg) >> 3) & 1) ^ 1) << 7) | (((((\rm) >> 4) & 1) ^ 1) << 6) | (((((\rm) >> 3) & 1) ^ 1) << 5) | (((((\reg) >> 4) & 1) ^ 1) << 4)
	.byte	\pp | 4 | ((~(\v) & 15) << 3)
	.byte	0x40 | (((((\v) >> 4) & 1) ^ 1) << 3)
	.byte	0xda
	.byte	0xc0 | (((\reg) & 7) << 3) | ((\rm) & 7)
.endm

/*
 * AT&T operand order, as the mnemonics: "sm4ni_rnds4 1, 8, 0, 0" is
 * vsm4rnds4 %ymm8, %ymm0, %ymm0 (the keys in ymm8, the state in ymm0);
 * \l = 0 xmm, 1 ymm (VEX), 2 zmm (EVEX).
 */
.macro SM4NI_INSN pp, l, src2, src1, dst
.if (\l) == 2
	SM4NI_EVEX512 \pp, \src2, \src1, \dst
.else
	SM4NI_VEX \pp, \l, \src2, \src1, \dst
.endif
.endm

.macro sm4ni_rnds4 l, src2, src1, dst
	SM4NI_INSN 3, \l, \src2, \src1, \dst
.endm

.macro sm4ni_key4 l, src2, src1, dst
	SM4NI_INSN 2, \l, \src2, \src1, \dst
.endm

/* The hooks of sm4-modes.S: the cores read the schedule at %rdi as it is. */
.macro SM4_PREP_KEYS
.endm

/* A 1-block call goes through the 1..4-block path of the mode body. */
.macro SM4_ONE_BLOCK mode
.endm

/*
 * SM4NI_CORE v, sets: the core of sm4-modes.S: units in vector registers
 * 0-3 (\sets = 1) or 0-7 (\sets = 2), 32 rounds, round keys from %rdi:
 * one vpshufb bswap32 per unit, 8 groups of (the group's 4 keys into
 * every lane of register 8, one VSM4RNDS4 per unit), one vpshufb
 * bswap128 per unit.  Clobbers vector register 8.
 */
.macro SM4NI_CORE v, sets
.ifc \v, xmm
	SM4NI_CORE_L	\v, \sets, 0
.endif
.ifc \v, ymm
	SM4NI_CORE_L	\v, \sets, 1
.endif
.ifc \v, zmm
	SM4NI_CORE_L	\v, \sets, 2
.endif
.endm

.macro SM4NI_CORE_L v, sets, l
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	.if \r < 4 * \sets
	vpshufb		.Lsm4_bswap32(%rip), %\v\r, %\v\r
	.endif
	.endr
	.irp g, 0, 1, 2, 3, 4, 5, 6, 7
	.if \l == 2
	vbroadcasti32x4	(\g * 16)(%rdi), %zmm8
	.elseif \l == 1
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

/*
 * SM4NI_CORE_FUNCS zmm: the cores sm4_core_xmm_1 (1..4 blocks, serial
 * modes), sm4_core_ymm_1 (5..8), sm4_core_ymm_2 (9..16) and, with \zmm,
 * sm4_core_zmm_1 (16) and sm4_core_zmm_2 (32 blocks).
 */
.macro SM4NI_CORE_FUNCS zmm
SYM_FUNC_START_LOCAL(sm4_core_xmm_1)
	SM4NI_CORE	xmm, 1
	RET
SYM_FUNC_END(sm4_core_xmm_1)

SYM_FUNC_START_LOCAL(sm4_core_ymm_1)
	SM4NI_CORE	ymm, 1
	RET
SYM_FUNC_END(sm4_core_ymm_1)

SYM_FUNC_START_LOCAL(sm4_core_ymm_2)
	SM4NI_CORE	ymm, 2
	RET
SYM_FUNC_END(sm4_core_ymm_2)
.if \zmm
SYM_FUNC_START_LOCAL(sm4_core_zmm_1)
	SM4NI_CORE	zmm, 1
	RET
SYM_FUNC_END(sm4_core_zmm_1)

SYM_FUNC_START_LOCAL(sm4_core_zmm_2)
	SM4NI_CORE	zmm, 2
	RET
SYM_FUNC_END(sm4_core_zmm_2)
.endif
.endm

/*
 * SM4NI_EXPAND_KEY_FUNC name:
 * void name(const u8 *key, u32 *rkey_enc, u32 *rkey_dec, const u32 *fk,
 *	     const u32 *ck);
 * K0..K3 = MK ^ FK, then eight VSM4KEY4 (VEX, xmm) with CK[4g .. 4g+3],
 * each giving rk[4g .. 4g+3]; rkey_dec[i] = rkey_enc[31 - i].  Wipes the
 * registers it used (key material).
 */
.macro SM4NI_EXPAND_KEY_FUNC name
SYM_FUNC_START(\name)
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
SYM_FUNC_END(\name)
.endm

#else /* !__ASSEMBLY__ */

#include <linux/errno.h>
#include <sm4/sm4.h>

#ifndef asmlinkage
#define asmlinkage
#endif

/*
 * Both schedules of @key, as sm4_expandkey() makes them, from the FK and
 * CK constants: rkey_dec is rkey_enc reversed (SM4NI_EXPAND_KEY_FUNC;
 * one copy per module).
 */
typedef void sm4_ni_expand_fn(const u8 *key, u32 *rkey_enc, u32 *rkey_dec,
			      const u32 *fk, const u32 *ck);
asmlinkage sm4_ni_expand_fn sm4_ni_expand_key;
asmlinkage sm4_ni_expand_fn sm4_ni_avx10_expand_key;

static inline int sm4_ni_setkey(sm4_ni_expand_fn *expand,
				struct sm4_ctx *ctx, const u8 *key,
				unsigned int key_len)
{
	if (key_len != SM4_KEY_SIZE)
		return -EINVAL;
	expand(key, ctx->rkey_enc, ctx->rkey_dec, crypto_sm4_fk,
	       crypto_sm4_ck);
	return 0;
}

/* struct sm4_skcipher_driver.expandkey of sm4-ni-x86_64 ... */
static inline int sm4_ni_expandkey(struct sm4_ctx *ctx, const u8 *key,
				   unsigned int key_len)
{
	return sm4_ni_setkey(sm4_ni_expand_key, ctx, key, key_len);
}

/* ... and of sm4-ni-avx10-x86_64. */
static inline int sm4_ni_avx10_expandkey(struct sm4_ctx *ctx, const u8 *key,
					 unsigned int key_len)
{
	return sm4_ni_setkey(sm4_ni_avx10_expand_key, ctx, key, key_len);
}

#endif /* __ASSEMBLY__ */
#endif /* _SM4_X86_NI_H */
