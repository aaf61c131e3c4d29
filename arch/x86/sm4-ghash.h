/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GHASH constants of sm4-gfni-avx512-asm_64.S, as derived and checked
 * by tools/gen-sm4-ghash-consts.py (which also models its multiply and
 * reduction against the bit-serial GHASH of NIST SP 800-38D):
 *	POLY	the reduction constant, in every qword of .Lgh_poly
 *	XINV2	x^-2 in GF(2^128), bit-reflected (bit 127 is x^0), as the
 *		low and high qwords of .Lgh_xinv2
 */
#ifndef _SM4_X86_GHASH_H
#define _SM4_X86_GHASH_H

#define SM4_GHASH_POLY		0xc200000000000000
#define SM4_GHASH_XINV2_LO	0x0000000000000003
#define SM4_GHASH_XINV2_HI	0x4600000000000000

#endif /* _SM4_X86_GHASH_H */
