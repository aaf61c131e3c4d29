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
 * sm4_x86_glue.c.
 *
 * Assembler: binutils learnt the VEX mnemonics in 2.42 and the EVEX ones
 * by 2.44; Debian 12's 2.40 (the toolchain of its 6.1 kernel) knows
 * neither, so they are emitted as bytes, by the same macros on every
 * toolchain.  tools/check-sm4ni-insn.sh assembles every register
 * combination both ways with a binutils that knows them and compares the
 * bytes and the disassembly.
 *
 * The block cores and the key expansion over them, shared by both .S
 * files, are in sm4-ni-core.S.
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
.ifeq \l - 2
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

#endif /* __ASSEMBLY__ */
#endif /* _SM4_X86_NI_H */
