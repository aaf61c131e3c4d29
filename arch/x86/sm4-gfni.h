/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GF(2) matrices and affine constants of the x86 GFNI cores
 * (sm4-gfni-avx512-asm_64.S, sm4-gfni-avx2-asm_64.S), as derived and
 * checked by tools/gen-sm4-gfni-consts.py: each matrix is one qword in
 * the layout GF2P8AFFINE(INV)QB reads.
 *	M1	into the S-box domain (state words are kept as M1 * W)
 *	M1_INV	out of it
 *	G0, G1, G3  the round's products of inv(u): P0 (with the constant
 *		E), P1 (serves the rotations by 8 and 16), P3 (by 24)
 *	C1	the constant folded into the round keys (RK' = M1*rk ^ C1)
 *	M2, C	the S-box alone: S(x) = M2 * inv(M1*x ^ C1) ^ C, for the key
 *		expansion (sm4-gfni-key.S)
 *	BS_BLOCK(p)  the block (0..63) that byte p of a byte-sliced
 *		register holds after __sm4_gfni_blk64's transpose
 */
#ifndef _SM4_X86_GFNI_H
#define _SM4_X86_GFNI_H

#define SM4_GFNI_M1		0x4c287db91a22505d
#define SM4_GFNI_M1_INV		0xb3a4f5863284728b
#define SM4_GFNI_G0		0x040db891e9a481b7
#define SM4_GFNI_G1		0x2c020425162040ad
#define SM4_GFNI_G3		0x280fbcb4ff84c11a
#define SM4_GFNI_C1		0x3e
#define SM4_GFNI_E		0x63
#define SM4_GFNI_M2		0xf3ab34a974a6b589
#define SM4_GFNI_C		0xd3
#define SM4_GFNI_BS_BLOCK(p)	(4 * ((p) & 15) + ((p) >> 4))

#endif /* _SM4_X86_GFNI_H */
