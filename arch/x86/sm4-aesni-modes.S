/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 with AES-NI: the round function, the block cores and the
 * one-block paths, written once as assembler macros and instantiated by
 * sm4-aesni-avx-asm_64.S (xmm: 4 blocks per register set, 8 per batch)
 * and sm4-aesni-avx2-asm_64.S (ymm: 8 blocks per set, 16 per batch).
 * The mode bodies around the cores are those of sm4-modes.S.
 *
 * The S-box.  SM4's S-box and AES's are both inversion in GF(2^8) wrapped
 * in affine maps, over different field polynomials.  With phi a field
 * isomorphism from SM4's field to AES's, S(x) = post(SubBytes(pre(x)))
 * for byte-wise affine maps pre(x) = M*x + c and post().  AESENCLAST with
 * an all-zero round key gives SubBytes(ShiftRows(state)); the ShiftRows
 * byte permutation is undone by the byte shuffles that follow it.
 *
 * The M-domain.  Instead of applying pre() to every S-box input, the
 * state words are kept multiplied by M byte by byte (W' = M*W), and the
 * round keys are replaced by M*rk + c: then W1'^W2'^W3'^rk' is pre(x) and
 * goes straight into AESENCLAST.  The round's contribution M*L(S) is
 * linear in S = post(z) (z = AESENCLAST output); split by the byte
 * rotations of L it is
 *	M*L(S) = T0(z) ^ rol8(T8(z)) ^ rol16(T8(z)) ^ rol24(T24(z))
 * with T0, T8, T24 byte-wise affine maps of z, T24 = T0 ^ T8; T0 and T8
 * are each evaluated with two 16-entry VPSHUFB lookups (low and high
 * nibble).  The 2-bit rotations of L are folded into those tables (a
 * byte of rol2(U) is made of bits of two neighbouring bytes of U, and M
 * is applied to each part).  The byte rotations (together with the
 * ShiftRows fix-up) are one VPSHUFB each.  A round is therefore 22
 * vector ALU operations per register set (9 of them shuffles or shifts)
 * besides the round key's broadcast.
 *
 * A lone block (CBC/CFB encryption, 1-block calls) takes a different,
 * lower-latency route: see "One block at a time" below.
 *
 * All lookups are VPSHUFB on registers; no memory access depends on key
 * or data.  tools/gen-sm4-aesni-tables.py derives every constant below
 * and checks the construction against the reference S-box.
 *
 * Layout.  Units, register sets and register conventions are those of
 * sm4-modes.S.  The core transposes a set so that register j holds word
 * j (big-endian, as in memory) of every block of the set, runs the 32
 * rounds and transposes back, so units come out in the order they went
 * in.  Its round keys (SM4_PREP_KEYS) are in the M-domain, rk' =
 * M*bswap(rk) + c, one dword per round.
 */

#ifndef __ASSEMBLY__
#error "assembler-only header"
#endif

#include "sm4-key-frame.S"

/* ---- Constants (each 16-byte table is repeated for both ymm lanes) -- */

.section .rodata, "a"
.balign 32
.Lsm4_t0_lo:
	.rept 2
	.byte 0x3a, 0xbc, 0xe9, 0x6f, 0x42, 0xc4, 0x91, 0x17
	.byte 0x26, 0xa0, 0xf5, 0x73, 0x5e, 0xd8, 0x8d, 0x0b
	.endr
.Lsm4_t0_hi:
	.rept 2
	.byte 0x00, 0xeb, 0xdc, 0x37, 0xf0, 0x1b, 0x2c, 0xc7
	.byte 0xcd, 0x26, 0x11, 0xfa, 0x3d, 0xd6, 0xe1, 0x0a
	.endr
.Lsm4_t8_lo:
	.rept 2
	.byte 0x4a, 0x99, 0x47, 0x94, 0xea, 0x39, 0xe7, 0x34
	.byte 0x08, 0xdb, 0x05, 0xd6, 0xa8, 0x7b, 0xa5, 0x76
	.endr
.Lsm4_t8_hi:
	.rept 2
	.byte 0x00, 0xb4, 0x49, 0xfd, 0x82, 0x36, 0xcb, 0x7f
	.byte 0xbc, 0x08, 0xf5, 0x41, 0x3e, 0x8a, 0x77, 0xc3
	.endr
.Lsm4_tm_lo:
	.rept 2
	.byte 0x00, 0x8c, 0x30, 0xbc, 0x85, 0x09, 0xb5, 0x39
	.byte 0x9f, 0x13, 0xaf, 0x23, 0x1a, 0x96, 0x2a, 0xa6
	.endr
.Lsm4_tm_hi:
	.rept 2
	.byte 0x00, 0xdc, 0x2e, 0xf2, 0xc5, 0x19, 0xeb, 0x37
	.byte 0x08, 0xd4, 0x26, 0xfa, 0xcd, 0x11, 0xe3, 0x3f
	.endr
.Lsm4_tmi_lo:
	.rept 2
	.byte 0x00, 0x85, 0xd9, 0x5c, 0x2e, 0xab, 0xf7, 0x72
	.byte 0x80, 0x05, 0x59, 0xdc, 0xae, 0x2b, 0x77, 0xf2
	.endr
.Lsm4_tmi_hi:
	.rept 2
	.byte 0x00, 0x55, 0x57, 0x02, 0x44, 0x11, 0x13, 0x46
	.byte 0xaf, 0xfa, 0xf8, 0xad, 0xeb, 0xbe, 0xbc, 0xe9
	.endr
.Lsm4_trk_lo:
	.rept 2
	.byte 0x3e, 0xb2, 0x0e, 0x82, 0xbb, 0x37, 0x8b, 0x07
	.byte 0xa1, 0x2d, 0x91, 0x1d, 0x24, 0xa8, 0x14, 0x98
	.endr
.Lsm4_trk_hi:
	.rept 2
	.byte 0x00, 0xdc, 0x2e, 0xf2, 0xc5, 0x19, 0xeb, 0x37
	.byte 0x08, 0xd4, 0x26, 0xfa, 0xcd, 0x11, 0xe3, 0x3f
	.endr
.Lsm4_p0:
	.rept 2
	.byte 0x00, 0x0d, 0x0a, 0x07, 0x04, 0x01, 0x0e, 0x0b
	.byte 0x08, 0x05, 0x02, 0x0f, 0x0c, 0x09, 0x06, 0x03
	.endr
.Lsm4_p8:
	.rept 2
	.byte 0x0d, 0x0a, 0x07, 0x00, 0x01, 0x0e, 0x0b, 0x04
	.byte 0x05, 0x02, 0x0f, 0x08, 0x09, 0x06, 0x03, 0x0c
	.endr
.Lsm4_p16:
	.rept 2
	.byte 0x0a, 0x07, 0x00, 0x0d, 0x0e, 0x0b, 0x04, 0x01
	.byte 0x02, 0x0f, 0x08, 0x05, 0x06, 0x03, 0x0c, 0x09
	.endr
.Lsm4_p24:
	.rept 2
	.byte 0x07, 0x00, 0x0d, 0x0a, 0x0b, 0x04, 0x01, 0x0e
	.byte 0x0f, 0x08, 0x05, 0x02, 0x03, 0x0c, 0x09, 0x06
	.endr
.Lsm4x_rk2_lo:
	.byte 0x23, 0xe9, 0x54, 0x9e, 0xa8, 0x62, 0xdf, 0x15
	.byte 0xf7, 0x3d, 0x80, 0x4a, 0x7c, 0xb6, 0x0b, 0xc1
.Lsm4x_rk2_hi:
	.byte 0x00, 0x7a, 0x38, 0x42, 0x20, 0x5a, 0x18, 0x62
	.byte 0x40, 0x3a, 0x78, 0x02, 0x60, 0x1a, 0x58, 0x22
.Lsm4x_t11_lo:
	.byte 0x00, 0x59, 0x68, 0x31, 0x83, 0xda, 0xeb, 0xb2
	.byte 0xbf, 0xe6, 0xd7, 0x8e, 0x3c, 0x65, 0x54, 0x0d
.Lsm4x_t11_hi:
	.byte 0x00, 0x35, 0x99, 0xac, 0xab, 0x9e, 0x32, 0x07
	.byte 0xc1, 0xf4, 0x58, 0x6d, 0x6a, 0x5f, 0xf3, 0xc6
.Lsm4x_t12_lo:
	.byte 0x00, 0x61, 0x3f, 0x5e, 0xc9, 0xa8, 0xf6, 0x97
	.byte 0x7c, 0x1d, 0x43, 0x22, 0xb5, 0xd4, 0x8a, 0xeb
.Lsm4x_t12_hi:
	.byte 0x00, 0x5b, 0xf3, 0xa8, 0xf7, 0xac, 0x04, 0x5f
	.byte 0x98, 0xc3, 0x6b, 0x30, 0x6f, 0x34, 0x9c, 0xc7
.Lsm4x_t21_lo:
	.byte 0x00, 0xf1, 0x87, 0x76, 0x9f, 0x6e, 0x18, 0xe9
	.byte 0xb8, 0x49, 0x3f, 0xce, 0x27, 0xd6, 0xa0, 0x51
.Lsm4x_t21_hi:
	.byte 0x00, 0x66, 0xc0, 0xa6, 0xb3, 0xd5, 0x73, 0x15
	.byte 0x30, 0x56, 0xf0, 0x96, 0x83, 0xe5, 0x43, 0x25
.Lsm4x_t22_lo:
	.byte 0x00, 0xc6, 0x22, 0xe4, 0x70, 0xb6, 0x52, 0x94
	.byte 0x8c, 0x4a, 0xae, 0x68, 0xfc, 0x3a, 0xde, 0x18
.Lsm4x_t22_hi:
	.byte 0x00, 0xf5, 0x43, 0xb6, 0x53, 0xa6, 0x10, 0xe5
	.byte 0xc1, 0x34, 0x82, 0x77, 0x92, 0x67, 0xd1, 0x24
.Lsm4x_qm_lo:
	.byte 0x00, 0xc9, 0xa2, 0x6b, 0xd5, 0x1c, 0x77, 0xbe
	.byte 0xf1, 0x38, 0x53, 0x9a, 0x24, 0xed, 0x86, 0x4f
.Lsm4x_qm_hi:
	.byte 0x00, 0xd4, 0x95, 0x41, 0x93, 0x47, 0x06, 0xd2
	.byte 0xbd, 0x69, 0x28, 0xfc, 0x2e, 0xfa, 0xbb, 0x6f
.Lsm4x_t11m_lo:
	.byte 0x00, 0x14, 0x93, 0x87, 0xf3, 0xe7, 0x60, 0x74
	.byte 0x5f, 0x4b, 0xcc, 0xd8, 0xac, 0xb8, 0x3f, 0x2b
.Lsm4x_t11m_hi:
	.byte 0x00, 0xa9, 0xff, 0x56, 0x24, 0x8d, 0xdb, 0x72
	.byte 0x6e, 0xc7, 0x91, 0x38, 0x4a, 0xe3, 0xb5, 0x1c
.Lsm4x_t12m_lo:
	.byte 0x00, 0x96, 0xf0, 0x66, 0xee, 0x78, 0x1e, 0x88
	.byte 0xe8, 0x7e, 0x18, 0x8e, 0x06, 0x90, 0xf6, 0x60
.Lsm4x_t12m_hi:
	.byte 0x00, 0xcd, 0xb5, 0x78, 0x9b, 0x56, 0x2e, 0xe3
	.byte 0x7a, 0xb7, 0xcf, 0x02, 0xe1, 0x2c, 0x54, 0x99
.Lsm4x_x35:
	.byte 0x03, 0x02, 0x01, 0x00, 0x80, 0x80, 0x80, 0x80
	.byte 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
.Lsm4x_bc0:
	.byte 0x03, 0x02, 0x01, 0x00, 0x03, 0x02, 0x01, 0x00
	.byte 0x03, 0x02, 0x01, 0x00, 0x03, 0x02, 0x01, 0x00
.Lsm4x_bc1:
	.byte 0x07, 0x06, 0x05, 0x04, 0x07, 0x06, 0x05, 0x04
	.byte 0x07, 0x06, 0x05, 0x04, 0x07, 0x06, 0x05, 0x04
.Lsm4x_bc2:
	.byte 0x0b, 0x0a, 0x09, 0x08, 0x0b, 0x0a, 0x09, 0x08
	.byte 0x0b, 0x0a, 0x09, 0x08, 0x0b, 0x0a, 0x09, 0x08
.Lsm4x_bc3:
	.byte 0x0f, 0x0e, 0x0d, 0x0c, 0x0f, 0x0e, 0x0d, 0x0c
	.byte 0x0f, 0x0e, 0x0d, 0x0c, 0x0f, 0x0e, 0x0d, 0x0c
.Lsm4x_u1:
	.byte 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x00
	.byte 0x03, 0x02, 0x01, 0x00, 0x07, 0x06, 0x05, 0x04
.Lsm4x_u2:
	.byte 0x0b, 0x0a, 0x09, 0x08, 0x07, 0x06, 0x05, 0x04
	.byte 0x07, 0x06, 0x05, 0x04, 0x0b, 0x0a, 0x09, 0x08
.Lsm4x_u3:
	.byte 0x0f, 0x0e, 0x0d, 0x0c, 0x0b, 0x0a, 0x09, 0x08
	.byte 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
.Lsm4x_w1:
	.byte 0x0b, 0x0a, 0x09, 0x08, 0x07, 0x06, 0x05, 0x04
	.byte 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
.Lsm4x_w2:
	.byte 0x0f, 0x0e, 0x0d, 0x0c, 0x0b, 0x0a, 0x09, 0x08
	.byte 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
.Lsm4x_cf:
	.byte 0x04, 0x04, 0x04, 0x04, 0x3e, 0x3e, 0x3e, 0x3e
	.byte 0x04, 0x04, 0x04, 0x04, 0x3e, 0x3e, 0x3e, 0x3e
.Lsm4x_ku1:
	.byte 0x80, 0x80, 0x80, 0x80, 0x0c, 0x0d, 0x0e, 0x0f
	.byte 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b
.Lsm4x_ku2:
	.byte 0x80, 0x80, 0x80, 0x80, 0x0c, 0x0d, 0x0e, 0x0f
	.byte 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
.Lsm4x_kuc:
	.byte 0x75, 0x75, 0x75, 0x75, 0x75, 0x75, 0x75, 0x75
	.byte 0x5b, 0x5b, 0x5b, 0x5b, 0x5b, 0x5b, 0x5b, 0x5b
.Lsm4x_kw1:
	.byte 0x08, 0x09, 0x0a, 0x0b, 0x00, 0x01, 0x02, 0x03
	.byte 0x04, 0x05, 0x06, 0x07, 0x80, 0x80, 0x80, 0x80
.Lsm4x_kw2:
	.byte 0x0c, 0x0d, 0x0e, 0x0f, 0x80, 0x80, 0x80, 0x80
	.byte 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
.Lsm4x_kwc:
	.byte 0x5b, 0x5b, 0x5b, 0x5b, 0x00, 0x00, 0x00, 0x00
	.byte 0x2e, 0x2e, 0x2e, 0x2e, 0x00, 0x00, 0x00, 0x00
.Lsm4x_sm_lo:
	.byte 0x00, 0xca, 0x77, 0xbd, 0x8b, 0x41, 0xfc, 0x36
	.byte 0xd4, 0x1e, 0xa3, 0x69, 0x5f, 0x95, 0x28, 0xe2
.Lsm4x_sm_hi:
	.byte 0x00, 0x7a, 0x38, 0x42, 0x20, 0x5a, 0x18, 0x62
	.byte 0x40, 0x3a, 0x78, 0x02, 0x60, 0x1a, 0x58, 0x22
.Lsm4x_s2:
	.byte 0x0b, 0x0a, 0x09, 0x08, 0x0b, 0x0a, 0x09, 0x08
	.byte 0x07, 0x06, 0x05, 0x04, 0x0b, 0x0a, 0x09, 0x08
.Lsm4x_s3:
	.byte 0x0f, 0x0e, 0x0d, 0x0c, 0x0f, 0x0e, 0x0d, 0x0c
	.byte 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
.Lsm4x_ks2a:
	.byte 0x08, 0x09, 0x0a, 0x0b, 0x00, 0x01, 0x02, 0x03
	.byte 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
.Lsm4x_ks2b:
	.byte 0x80, 0x80, 0x80, 0x80, 0x0c, 0x0d, 0x0e, 0x0f
	.byte 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
.Lsm4x_ks2c:
	.byte 0x00, 0x00, 0x00, 0x00, 0x5b, 0x5b, 0x5b, 0x5b
	.byte 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
/*
 * post() of the S-box alone, S(x) = post(SubBytes(pre(x))) with pre() the
 * trk tables above: the key expansion (SM4_AESNI_EXPAND_KEY_BODY) works
 * outside the M-domain.
 */
.Lsm4_post_lo:
	.byte 0x6c, 0xd4, 0xa6, 0x1e, 0x52, 0xea, 0x98, 0x20
	.byte 0x0b, 0xb3, 0xc1, 0x79, 0x35, 0x8d, 0xff, 0x47
.Lsm4_post_hi:
	.byte 0x00, 0xe0, 0x50, 0xb0, 0x9d, 0x7d, 0xcd, 0x2d
	.byte 0xc0, 0x20, 0x90, 0x70, 0x5d, 0xbd, 0x0d, 0xed
.Lsm4_mask_0f:
	.rept 32
	.byte 0x0f
	.endr
/* The all-zero AESENCLAST round key of the key expansion. */
.Lsm4_zero:
	.octa 0

.text

#include "sm4-modes.S"

/* The per-call round keys of SM4_CORE (see sm4-modes.S).  Clobbers 8-10. */
.macro SM4_PREP_KEYS
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu		(\i * 16)(%rdi), %xmm8
	vpshufb		.Lsm4_bswap32(%rip), %xmm8, %xmm8
	SM4_LOOKUP	xmm, .Lsm4_trk_lo, .Lsm4_trk_hi, 8, 8, 9, 10
	vmovdqu		%xmm8, (SM4_FRAME_RK + \i * 16)(%r9)
	.endr
.endm

/* ---- The round function and the cores --------------------------------- */

/*
 * SM4_LOOKUP v, tlo, thi, src, dst, t1, t2
 * \dst = \tlo[\src & 15] ^ \thi[\src >> 4] in every byte (\v: xmm|ymm).
 * Inputs: register \src (may equal \dst).  Clobbers \t1, \t2.
 */
.macro SM4_LOOKUP v, tlo, thi, src, dst, t1, t2
	vpsrld		$4, %\v\src, %\v\t1
	vpand		.Lsm4_mask_0f(%rip), %\v\src, %\v\t2
	vpand		.Lsm4_mask_0f(%rip), %\v\t1, %\v\t1
	vmovdqa		\thi(%rip), %\v\dst
	vpshufb		%\v\t1, %\v\dst, %\v\dst
	vmovdqa		\tlo(%rip), %\v\t1
	vpshufb		%\v\t2, %\v\t1, %\v\t1
	vpxor		%\v\t1, %\v\dst, %\v\dst
.endm

/*
 * The round's constants, \isreg == 1: in vector registers (numbers \key,
 * \tbl, \mask), as the bulk core keeps them (SM4_ROUND_CONSTS); 0: memory
 * operands (the CTR batch of ccm, which has no registers to spare).
 */

/*
 * SM4_AESENCLAST0 v, r, t, isreg, key
 * \r = SubBytes(ShiftRows(\r)) ^ \key per 128-bit lane.  Plain AVX2 has
 * no 256-bit AESENCLAST, so ymm is done as two xmm halves; with VAES
 * (SM4_VAES defined: sm4-vaes-avx2-asm_64.S) one VEX.256 VAESENCLAST
 * does both lanes.  Clobbers \t (ymm without VAES only).
 */
.macro SM4_AESENCLAST0 v, r, t, isreg, key
.ifc \v, xmm
	SM4_OP_RM	vaesenclast, xmm, \r, \isreg, \key
.else
#ifdef SM4_VAES
	SM4_OP_RM	vaesenclast, ymm, \r, \isreg, \key
#else
	vextracti128	$1, %ymm\r, %xmm\t
	SM4_OP_RM	vaesenclast, xmm, \r, \isreg, \key
	SM4_OP_RM	vaesenclast, xmm, \t, \isreg, \key
	vinserti128	$1, %xmm\t, %ymm\r, %ymm\r
#endif
.endif
.endm

/* SM4_OP_RM op, v, r, isreg, src: \r = \op(\src, \r), \src as above. */
.macro SM4_OP_RM op, v, r, isreg, src
.if \isreg
	\op		%\v\src, %\v\r, %\v\r
.else
	\op		\src, %\v\r, %\v\r
.endif
.endm

/* SM4_LOOKUP_TBL v, isreg, tbl, idx, dst: \dst = table \tbl by \idx. */
.macro SM4_LOOKUP_TBL v, isreg, tbl, idx, dst
.if \isreg
	vpshufb		%\v\idx, %\v\tbl, %\v\dst
.else
	vmovdqa		\tbl, %\v\dst
	vpshufb		%\v\idx, %\v\dst, %\v\dst
.endif
.endm

/*
 * SM4_ROUND_CONSTS v: the bulk core's round constants into registers
 * 12-15: the nibble mask (12), which is also AESENCLAST's round key, and
 * three of the four lookup tables.
 */
.macro SM4_ROUND_CONSTS v
	vmovdqa		.Lsm4_mask_0f(%rip), %\v\()12
	vmovdqa		.Lsm4_t0_lo(%rip), %\v\()13
	vmovdqa		.Lsm4_t0_hi(%rip), %\v\()14
	vmovdqa		.Lsm4_t8_lo(%rip), %\v\()15
.endm

/*
 * SM4_ROUND v, w0, w1, w2, w3, consts, rk
 * One round on one register set in the M-domain:
 *	\w0 ^= M*L(S(\w1 ^ \w2 ^ \w3 ^ rk))
 * Inputs: \w0-\w3 (state words), \rk (memory operand: transformed round
 * key dword); \consts: reg (registers 12-15 as SM4_ROUND_CONSTS leaves
 * them) or mem.  \w3 must be the most recently written word: it is read
 * last so that only one XOR precedes AESENCLAST on the critical path.
 *
 * AESENCLAST's round key is the nibble mask, so its output is z ^ 0x0f..
 * with z = SubBytes(ShiftRows(x)); the low-nibble tables are indexed by
 * the complemented nibble and give T0(z) and T8(z) all the same.  The
 * round adds rot0(a) ^ rot8(b) ^ rot16(b) ^ rot24(a ^ b) with a = T0(z),
 * b = T8(z) (T24 = T0 ^ T8, tools/gen-sm4-aesni-tables.py), the longest
 * path (a ^ b and its rotation) last.  Clobbers 8-11.
 */
.macro SM4_ROUND v, w0, w1, w2, w3, consts, rk:vararg
.ifc \consts, reg
	SM4_ROUND_BODY	\v, \w0, \w1, \w2, \w3, 1, 12, 13, 14, 15, \rk
.else
	SM4_ROUND_BODY	\v, \w0, \w1, \w2, \w3, 0, .Lsm4_mask_0f(%rip), \
			.Lsm4_t0_lo(%rip), .Lsm4_t0_hi(%rip), \
			.Lsm4_t8_lo(%rip), \rk
.endif
.endm

.macro SM4_ROUND_BODY v, w0, w1, w2, w3, isreg, km, t0lo, t0hi, t8lo, rk:vararg
	vbroadcastss	\rk, %\v\()8
	vpxor		%\v\w1, %\v\()8, %\v\()8
	vpxor		%\v\w2, %\v\()8, %\v\()8
	vpxor		%\v\w3, %\v\()8, %\v\()8
	SM4_AESENCLAST0	\v, 8, 9, \isreg, \km
	vpsrld		$4, %\v\()8, %\v\()9
	SM4_OP_RM	vpand, \v, 8, \isreg, \km
	SM4_OP_RM	vpand, \v, 9, \isreg, \km
	/* a = T0(z) into 10 */
	SM4_LOOKUP_TBL	\v, \isreg, \t0lo, 8, 10
	SM4_LOOKUP_TBL	\v, \isreg, \t0hi, 9, 11
	vpxor		%\v\()11, %\v\()10, %\v\()10
	/* b = T8(z) into 11 */
	SM4_LOOKUP_TBL	\v, \isreg, \t8lo, 8, 11
	vmovdqa		.Lsm4_t8_hi(%rip), %\v\()8
	vpshufb		%\v\()9, %\v\()8, %\v\()8
	vpxor		%\v\()8, %\v\()11, %\v\()11
	/* T24(z) = a ^ b into 8; the rotations */
	vpxor		%\v\()10, %\v\()11, %\v\()8
	vpshufb		.Lsm4_p0(%rip), %\v\()10, %\v\()10
	vpshufb		.Lsm4_p8(%rip), %\v\()11, %\v\()9
	vpxor		%\v\()10, %\v\w0, %\v\w0
	vpshufb		.Lsm4_p16(%rip), %\v\()11, %\v\()11
	vpxor		%\v\()9, %\v\w0, %\v\w0
	vpshufb		.Lsm4_p24(%rip), %\v\()8, %\v\()8
	vpxor		%\v\()11, %\v\()8, %\v\()8
	vpxor		%\v\()8, %\v\w0, %\v\w0
.endm

/*
 * SM4_CORE v, sets
 * Encrypt (or decrypt, with rkey_dec) the units in registers 0-3
 * (\sets == 1) or 0-7 (\sets == 2) in place.
 * Inputs: %r9 = 128 bytes of transformed round keys (SM4_PREP_KEYS).
 * Clobbers %rax, vector registers 8-12, 14, 15; keeps 13 in the frame's
 * SM4_FRAME_SAVE slot meanwhile.
 */
.macro SM4_CORE v, sets
	vmovdqu		%\v\()13, SM4_FRAME_SAVE(%r9)
	SM4_ROUND_CONSTS \v
	SM4_SETS_IN	\v, \sets
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	.if \r < 4 * \sets
	SM4_LOOKUP	\v, .Lsm4_tm_lo, .Lsm4_tm_hi, \r, \r, 9, 10
	.endif
	.endr
	mov		$-128, %rax
.Lsm4_core_loop\@:
	SM4_ROUND	\v, 0, 1, 2, 3, reg, 128(%r9,%rax)
.if \sets == 2
	SM4_ROUND	\v, 4, 5, 6, 7, reg, 128(%r9,%rax)
.endif
	SM4_ROUND	\v, 1, 2, 3, 0, reg, 132(%r9,%rax)
.if \sets == 2
	SM4_ROUND	\v, 5, 6, 7, 4, reg, 132(%r9,%rax)
.endif
	SM4_ROUND	\v, 2, 3, 0, 1, reg, 136(%r9,%rax)
.if \sets == 2
	SM4_ROUND	\v, 6, 7, 4, 5, reg, 136(%r9,%rax)
.endif
	SM4_ROUND	\v, 3, 0, 1, 2, reg, 140(%r9,%rax)
.if \sets == 2
	SM4_ROUND	\v, 7, 4, 5, 6, reg, 140(%r9,%rax)
.endif
	add		$16, %rax
	jnz		.Lsm4_core_loop\@
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	.if \r < 4 * \sets
	SM4_LOOKUP	\v, .Lsm4_tmi_lo, .Lsm4_tmi_hi, \r, \r, 9, 10
	.endif
	.endr
	SM4_SETS_OUT	\v, \sets
	vmovdqu		SM4_FRAME_SAVE(%r9), %\v\()13
.endm

/* ---- One block at a time: the sm4x core ---------------------------------- */

/*
 * The bulk cores above keep four blocks per register.  A lone block
 * (CBC/CFB encryption, 1-block requests) only has one word on its critical
 * path and is done differently (tools/gen-sm4-aesni-tables.py derives and
 * simulates it):
 *
 *  - The round input word is broadcast to all four dwords (as a native u32,
 *    row r of every AES column = bits 8r..8r+7).  ShiftRows then changes
 *    nothing and MixColumns mixes the word's four bytes.
 *  - M*L(post(z)) is byte-circulant with the (2, 3, 1, 1) shape of
 *    MixColumns, so AESENC does the rotations of L.  Two AESENCs are
 *    needed: one on the word in the M-domain (t1), one on the same bytes
 *    squared in the AES field (t2 = sigma(t1), "domain 2").  With
 *    v1, v2 the two AESENC outputs, the next inputs are
 *	t1' = E11*v1 ^ E12*v2,  t2' = sigma(E11*v1 ^ E12*v2)
 *    for byte-wise linear E11, E12: four nibble lookups per domain.
 *  - Everything else of a round (the other three words, the round key and
 *    the affine constants) is a value P with t1' = E11*v1 ^ E12*v2 ^ P.  It
 *    is added through the AESENC round keys k1, k2 (E11*k1 ^ E12*k2 = P),
 *    so the lookups and two XOR levels are all that lies between two
 *    AESENCs.  P is kept in "pair form" (a pair (p1, p2) stands for
 *    E11*p1 ^ E12*p2), in which the round input t_i is simply the previous
 *    AESENC output pair V_{i-1}: with Y_i the pair form of
 *    M*(X_i ^ X_{i+1} ^ rk_i ^ rk_{i+1}) ^ kappa,
 *	(k1, k2) for round i = V_{i-1} ^ Y_i
 *	Y_{i+3} = V_{i-2} ^ V_i ^ Y_i ^ KK_i
 *    with KK_i a function of the round keys only.  Values computed from
 *    key or input words use pair forms (QM*w, 0), QM = E11^-1 * M, with
 *    the affine constants folded into the key words.  All pair values are
 *    broadcast words, like t1 and t2.
 *  - Only X35 of the output words (X35, X34, X33, X32) depends on round
 *    31; the others follow from the rings.
 *
 * Frame (SM4X_ENTER), 64-byte aligned, at %r9:
 *	  0: KK[33] dwords, KK[0] = 0, KK[i] = QM*(rk[i-1] ^ rk[i] ^
 *	     rk[i+3] ^ rk[i+4]) with rk[32..] = 0 (KK[32] unused)
 *	144: KU = {a, b, e0, e1}, 160: KW = {e2, rk[0], a ^ e0, 0}: set-up
 *	     keys, a = rk[0] ^ M^-1*c, b = rk[0] ^ rk[3] ^ rk[4] ^ M^-1*c,
 *	     e_j = rk[j] ^ rk[j+1] ^ M^-1*kappa
 *	176: V ring, domain 1 (2 slots), 208: V ring, domain 2
 *	240: Y ring, domain 1 (4 slots), 304: Y ring, domain 2
 *	368: F_{h+1} while sm4x_core_kk fills the KK area
 *	384-511: the fused CBC/CFB encryption loop (SM4X_SERIAL): KS1, KS2
 *	     (per call), TMG, SMG, Q1, Q2 (per block), PRE1, PRE2
 *	512-1055: only in the frame of ccm_enc and ccm_dec_mac
 *	     (SM4X_CCM): CK, the bulk core's round keys (SM4_PREP_KEYS); CS,
 *	     the words of the CTR batch in progress; KSB, the keystream of
 *	     the current batch; CTRV, the next counter (native low, high
 *	     qword)
 * It holds key material and values of the state and is wiped by
 * SM4X_LEAVE.
 */
#define SM4X_FRAME	576
#define SM4X_KK		0
#define SM4X_KU		144
#define SM4X_KW		160
#define SM4X_V1		176
#define SM4X_V2		208
#define SM4X_Y1		240
#define SM4X_Y2		304
#define SM4X_F		368
#define SM4X_KS1	384
#define SM4X_KS2	400
#define SM4X_TMG	416
#define SM4X_SMG	432
#define SM4X_Q1		448
#define SM4X_Q2		464
#define SM4X_PRE1	480
#define SM4X_PRE2	496
#define SM4X_SIZE	512

/*
 * SM4X_LOOKUP tlo, thi, src, dst, t1, t2: xmm form of SM4_LOOKUP.
 */
.macro SM4X_LOOKUP tlo, thi, src, dst, t1, t2
	SM4_LOOKUP	xmm, \tlo, \thi, \src, \dst, \t1, \t2
.endm

/*
 * The KK area: with E_j = rk[j] ^ rk[j+4] and F_j = QM*E_j (rk[32..] = 0),
 * KK[j+1] = F_j ^ F_{j+1}.  Group h is KK[4h+1..4h+4], from the vectors
 * F_h = F_{4h..4h+3} and F_{h+1}; F_h = QM*(R_h ^ R_{h+1}) with R_h =
 * rk[4h..4h+3] (R_8 = 0).
 *
 * SM4X_KK_F r, ra, rb: F vector from the round keys at \ra and \rb
 * (address expressions; \rb empty for R_8 = 0) into \r.  Clobbers 4-6.
 */
.macro SM4X_KK_F r, ra, rb
	vmovdqu		\ra, %xmm6
.ifnb \rb
	vpxor		\rb, %xmm6, %xmm6
.endif
	SM4X_LOOKUP	.Lsm4x_qm_lo, .Lsm4x_qm_hi, 6, \r, 4, 5
.endm

/*
 * SM4X_KK_GROUP fa, fb, dst: store the KK group from F vectors \fa (F_h)
 * and \fb (F_{h+1}, register numbers) at \dst.  Clobbers \fb.
 */
.macro SM4X_KK_GROUP fa, fb, dst
	vpalignr	$4, %xmm\fa, %xmm\fb, %xmm\fb
	vpxor		%xmm\fa, %xmm\fb, %xmm\fb
	vmovdqu		%xmm\fb, \dst
.endm

/*
 * SM4X_ENTER frame / SM4X_LEAVE frame, size: frame of a function using
 * the sm4x cores (\frame bytes of stack, \size of them wiped: SM4X_FRAME
 * and SM4X_SIZE, or SM4X_CCM_FRAME and SM4X_CCM_SIZE), with the set-up
 * keys KU, KW and KK[0] from %rdi (see above); the first block goes
 * through sm4x_core_kk, which fills the rest of the KK area.
 * SM4X_LEAVE wipes the frame (ymm stores) and every vector register
 * (VZEROALL), and returns.
 * Clobbers %r9 (frame base, kept), vector registers 4-6, 8, 9.
 */
.macro SM4X_ENTER frame=SM4X_FRAME
	FRAME_BEGIN
	sub		$\frame, %rsp
	lea		63(%rsp), %r9
	and		$-64, %r9
	/*
	 * Set-up keys, as vectors (16-byte stores, so that the core's
	 * 16-byte loads of them are forwarded):
	 * KU = {rk0, rk0, rk0, rk1} ^ {0, rk3, rk1, rk2} ^ {0, rk4, 0, 0}
	 *	^ {mic, mic, mik, mik},
	 * KW = {rk2, rk0, rk1, 0} ^ {rk3, 0, 0, 0} ^ {mik, 0, mic ^ mik, 0},
	 * mic = M^-1*c, mik = M^-1*kappa in every byte.
	 */
	vmovdqu		(%rdi), %xmm4
	vmovdqu		4(%rdi), %xmm5
	vpshufd		$0x40, %xmm4, %xmm6
	vpshufb		.Lsm4x_ku1(%rip), %xmm4, %xmm8
	vpshufb		.Lsm4x_ku2(%rip), %xmm5, %xmm9
	vpxor		.Lsm4x_kuc(%rip), %xmm6, %xmm6
	vpxor		%xmm9, %xmm8, %xmm8
	vpxor		%xmm8, %xmm6, %xmm6
	vmovdqa		%xmm6, SM4X_KU(%r9)
	vpshufb		.Lsm4x_kw1(%rip), %xmm4, %xmm8
	vpshufb		.Lsm4x_kw2(%rip), %xmm4, %xmm9
	vpxor		.Lsm4x_kwc(%rip), %xmm8, %xmm8
	vpxor		%xmm9, %xmm8, %xmm8
	vmovdqa		%xmm8, SM4X_KW(%r9)
	movl		$0, SM4X_KK(%r9)
.endm

.macro SM4X_LEAVE frame=SM4X_FRAME, size=SM4X_SIZE
.if (\size) % 32 || (\size) + 63 > (\frame)
	.error "SM4X_LEAVE: the frame cannot hold the wiped area"
.endif
	vxorps		%ymm0, %ymm0, %ymm0
	.set		.Lsm4x_wipe, 0
	.rept		(\size) / 32
	vmovaps		%ymm0, .Lsm4x_wipe(%r9)
	.set		.Lsm4x_wipe, .Lsm4x_wipe + 32
	.endr
	vzeroall
	add		$\frame, %rsp
	FRAME_END
	RET
.endm

/*
 * SM4X_SPLIT2: nibbles of v1 (0) into 4 (low), 5 (high) and of v2 (1)
 * into 6, 7.  %xmm15 = 0x0f bytes.
 */
.macro SM4X_SPLIT2
	vpand		%xmm15, %xmm0, %xmm4
	vpsrlw		$4, %xmm0, %xmm5
	vpand		%xmm15, %xmm1, %xmm6
	vpsrlw		$4, %xmm1, %xmm7
	vpand		%xmm15, %xmm5, %xmm5
	vpand		%xmm15, %xmm7, %xmm7
.endm

/*
 * SM4X_TREE ta, tb, dst, a, b, c: \dst = \ta(v1) ^ \tb(v2) from the
 * nibbles of SM4X_SPLIT2 (\ta, \tb name a table pair _lo, _hi).
 * Clobbers \a, \b, \c.
 */
.macro SM4X_TREE ta, tb, dst, a, b, c
	vmovdqa		\ta\()_lo(%rip), %xmm\a
	vpshufb		%xmm4, %xmm\a, %xmm\a
	vmovdqa		\tb\()_lo(%rip), %xmm\b
	vpshufb		%xmm6, %xmm\b, %xmm\b
	vpxor		%xmm\b, %xmm\a, %xmm\a
	vmovdqa		\ta\()_hi(%rip), %xmm\b
	vpshufb		%xmm5, %xmm\b, %xmm\b
	vmovdqa		\tb\()_hi(%rip), %xmm\c
	vpshufb		%xmm7, %xmm\c, %xmm\c
	vpxor		%xmm\b, %xmm\a, %xmm\a
	vpxor		%xmm\c, %xmm\a, %xmm\dst
.endm

/*
 * SM4X_ROUND q, idx, base
 * Round i (q = i & 3) of the one-block core: in t1 (0), t2 (1) and the round keys
 * k1 (2), k2 (3); out t1', t2' and the next round's k1, k2.  Reads
 * KK[i] at byte \base + 4 * q of the KK area (+ %rax if \idx), stores V_i
 * and Y_{i+3}.  Clobbers 4-14.
 * The eight lookups compete for two ports: they are written in the order
 * they should issue (low nibbles first, then domain 1's high nibbles,
 * whose results have the most XORs left after them).
 */
.macro SM4X_ROUND q, idx, base
	vaesenc		%xmm2, %xmm0, %xmm0
	vaesenc		%xmm3, %xmm1, %xmm1
	SM4X_SPLIT2
	vmovdqa		.Lsm4x_t11_lo(%rip), %xmm8
	vpshufb		%xmm4, %xmm8, %xmm8
	vmovdqa		.Lsm4x_t12_lo(%rip), %xmm9
	vpshufb		%xmm6, %xmm9, %xmm9
	vmovdqa		.Lsm4x_t21_lo(%rip), %xmm10
	vpshufb		%xmm4, %xmm10, %xmm10
	vmovdqa		.Lsm4x_t22_lo(%rip), %xmm11
	vpshufb		%xmm6, %xmm11, %xmm11
	vpxor		%xmm9, %xmm8, %xmm8
	vpxor		%xmm11, %xmm10, %xmm10
	vmovdqa		.Lsm4x_t11_hi(%rip), %xmm9
	vpshufb		%xmm5, %xmm9, %xmm9
	vmovdqa		.Lsm4x_t21_hi(%rip), %xmm11
	vpshufb		%xmm5, %xmm11, %xmm11
	vmovdqa		.Lsm4x_t12_hi(%rip), %xmm12
	vpshufb		%xmm7, %xmm12, %xmm12
	vmovdqa		.Lsm4x_t22_hi(%rip), %xmm13
	vpshufb		%xmm7, %xmm13, %xmm13
	vpxor		%xmm9, %xmm8, %xmm8
	vpxor		%xmm11, %xmm10, %xmm10
	vmovdqa		%xmm0, %xmm2
	vmovdqa		%xmm1, %xmm3
	vpxor		%xmm12, %xmm8, %xmm0
	vpxor		%xmm13, %xmm10, %xmm1
	/* next keys, and Y_{i+3} = V_{i-2} ^ V_i ^ Y_i ^ KK[i] */
	vpxor		(SM4X_V1 + 16 * (\q & 1))(%r9), %xmm2, %xmm14
	vmovdqa		%xmm2, (SM4X_V1 + 16 * (\q & 1))(%r9)
	vpxor		(SM4X_Y1 + 16 * \q)(%r9), %xmm14, %xmm14
.if \idx
	vbroadcastss	(SM4X_KK + \base + 4 * \q)(%r9,%rax), %xmm4
.else
	vbroadcastss	(SM4X_KK + \base + 4 * \q)(%r9), %xmm4
.endif
	vpxor		%xmm4, %xmm14, %xmm14
	vmovdqa		%xmm14, (SM4X_Y1 + 16 * ((\q + 3) & 3))(%r9)
	vpxor		(SM4X_V2 + 16 * (\q & 1))(%r9), %xmm3, %xmm5
	vmovdqa		%xmm3, (SM4X_V2 + 16 * (\q & 1))(%r9)
	vpxor		(SM4X_Y2 + 16 * \q)(%r9), %xmm5, %xmm5
	vmovdqa		%xmm5, (SM4X_Y2 + 16 * ((\q + 3) & 3))(%r9)
	vpxor		(SM4X_Y1 + 16 * ((\q + 1) & 3))(%r9), %xmm2, %xmm2
	vpxor		(SM4X_Y2 + 16 * ((\q + 1) & 3))(%r9), %xmm3, %xmm3
.endm

/*
 * SM4X_END_PAIR y, r: \r = the pair component (Y ring at \y, pre in
 * register \r) arranged as dwords {Y_33, Y_33 ^ pre, pre, pre ^ Y_32}.
 * Clobbers 8, 9.
 */
.macro SM4X_END_PAIR y, r
	vpxor		(\y + 16)(%r9), %xmm\r, %xmm8
	vpxor		(\y)(%r9), %xmm\r, %xmm9
	vpblendw	$0xc0, %xmm9, %xmm\r, %xmm\r
	vpblendw	$0x0c, %xmm8, %xmm\r, %xmm\r
	vpblendw	$0x03, (\y + 16)(%r9), %xmm\r, %xmm\r
.endm

/*
 * SM4X_SETUP: round 0's inputs and keys and the ring start values from
 * the block in %xmm0 (memory byte order); sets %xmm15 = 0x0f bytes.
 * Clobbers vector registers 0-15 (out: 0-3, 15 as SM4X_ROUND expects).
 */
.macro SM4X_SETUP
	vmovdqa		.Lsm4_mask_0f(%rip), %xmm15
	/*
	 * Round 0 first: t = X1 ^ X2 ^ X3 ^ rk[0] into both domains, and its
	 * keys k1 = V_{-1} ^ Y_0 = QM(X0 ^ X2 ^ X3 ^ a ^ e0), k2 = 0 (words
	 * broadcast).
	 */
	vpshufb		.Lsm4x_bc0(%rip), %xmm0, %xmm3
	vpshufb		.Lsm4x_bc1(%rip), %xmm0, %xmm4
	vpshufb		.Lsm4x_bc2(%rip), %xmm0, %xmm5
	vpshufb		.Lsm4x_bc3(%rip), %xmm0, %xmm6
	vbroadcastss	(SM4X_KW + 4)(%r9), %xmm7
	vbroadcastss	(SM4X_KW + 8)(%r9), %xmm8
	vpxor		%xmm5, %xmm6, %xmm6
	vpxor		%xmm7, %xmm4, %xmm7
	vpxor		%xmm8, %xmm3, %xmm8
	vpxor		%xmm6, %xmm7, %xmm7
	vpxor		%xmm6, %xmm8, %xmm8
	SM4X_LOOKUP	.Lsm4_trk_lo, .Lsm4_trk_hi, 7, 1, 4, 5
	SM4X_LOOKUP	.Lsm4x_rk2_lo, .Lsm4x_rk2_hi, 7, 9, 4, 5
	SM4X_LOOKUP	.Lsm4x_qm_lo, .Lsm4x_qm_hi, 8, 2, 4, 5
	/*
	 * U = {X1^X2^X3^a, X0^X1^X2^b, X0^X1^e0, X1^X2^e1} and
	 * W = {X2^X3^e2, -, -, -}: their QM images are the pair forms of
	 * V_{-1}, V_{-2} (ring start values), Y_0, Y_1 and Y_2.
	 */
	vpshufb		.Lsm4x_u1(%rip), %xmm0, %xmm3
	vpshufb		.Lsm4x_u2(%rip), %xmm0, %xmm4
	vpshufb		.Lsm4x_u3(%rip), %xmm0, %xmm5
	vpshufb		.Lsm4x_w1(%rip), %xmm0, %xmm6
	vpshufb		.Lsm4x_w2(%rip), %xmm0, %xmm7
	vpxor		%xmm4, %xmm3, %xmm3
	vpxor		SM4X_KU(%r9), %xmm5, %xmm5
	vpxor		%xmm7, %xmm6, %xmm6
	vpxor		SM4X_KW(%r9), %xmm6, %xmm6
	vpxor		%xmm5, %xmm3, %xmm3
	vmovdqa		%xmm1, %xmm0
	vmovdqa		%xmm9, %xmm1
	SM4X_LOOKUP	.Lsm4x_qm_lo, .Lsm4x_qm_hi, 3, 9, 4, 5
	SM4X_LOOKUP	.Lsm4x_qm_lo, .Lsm4x_qm_hi, 6, 10, 4, 5
	vpshufd		$0x00, %xmm9, %xmm4
	vpxor		%xmm3, %xmm3, %xmm3
	vmovdqa		%xmm4, (SM4X_V1 + 16)(%r9)
	vpshufd		$0x55, %xmm9, %xmm5
	vmovdqa		%xmm5, SM4X_V1(%r9)
	vpshufd		$0xaa, %xmm9, %xmm5
	vmovdqa		%xmm5, SM4X_Y1(%r9)
	vpshufd		$0xff, %xmm9, %xmm5
	vmovdqa		%xmm5, (SM4X_Y1 + 16)(%r9)
	vpshufd		$0x00, %xmm10, %xmm5
	vmovdqa		%xmm5, (SM4X_Y1 + 32)(%r9)
	vmovdqa		%xmm3, SM4X_V2(%r9)
	vmovdqa		%xmm3, (SM4X_V2 + 16)(%r9)
	vmovdqa		%xmm3, SM4X_Y2(%r9)
	vmovdqa		%xmm3, (SM4X_Y2 + 16)(%r9)
	vmovdqa		%xmm3, (SM4X_Y2 + 32)(%r9)
.endm

/*
 * SM4X_RND_0_27 / SM4X_RND_28_30: rounds 0-27 and 28-30 with the KK area
 * filled (SM4X_RND_CCM: 0-27 with ccm's CTR rounds).  Clobber %rax,
 * vector registers 0-14.
 */
.macro SM4X_RND_0_27
	mov		$-112, %rax
.Lsm4x_loop\@:
	SM4X_ROUND	0, 1, 112
	SM4X_ROUND	1, 1, 112
	SM4X_ROUND	2, 1, 112
	SM4X_ROUND	3, 1, 112
	add		$16, %rax
	jnz		.Lsm4x_loop\@
.endm

.macro SM4X_RND_28_30
	SM4X_ROUND	0, 0, 112
	SM4X_ROUND	1, 0, 112
	SM4X_ROUND	2, 0, 112
.endm

/*
 * SM4X_LAST: round 31 and the output block (memory byte order) into
 * %xmm0.  Clobbers vector registers 1-14.
 */
.macro SM4X_LAST
	/*
	 * Round 31.  Of the output words (X35, X34, X33, X32) only X35 depends
	 * on it; its tables include M^-1 (back from the M-domain).
	 */
	vaesenc		%xmm2, %xmm0, %xmm0
	vaesenc		%xmm3, %xmm1, %xmm1
	SM4X_SPLIT2
	SM4X_TREE	.Lsm4x_t11m, .Lsm4x_t12m, 12, 8, 9, 10
	vpshufb		.Lsm4x_x35(%rip), %xmm12, %xmm12
	/*
	 * The rest, from the rings: with pre = V_29 ^ Y_31 ^ KK[31] (pair
	 * form of Y_34 minus V_31) and d_j = M*(X_j ^ X_j+1), the M-domain
	 * words are t1_32 ^ c ^ (d33, d33 ^ d34, d34, d34 ^ d32), where
	 * t1_32 cancels from all but X35.
	 */
	vmovdqa		(SM4X_V1 + 16)(%r9), %xmm0
	vpxor		(SM4X_Y1 + 48)(%r9), %xmm0, %xmm0
	vbroadcastss	(SM4X_KK + 124)(%r9), %xmm2
	vpxor		%xmm2, %xmm0, %xmm0
	vmovdqa		(SM4X_V2 + 16)(%r9), %xmm1
	vpxor		(SM4X_Y2 + 48)(%r9), %xmm1, %xmm1
	SM4X_END_PAIR	SM4X_Y1, 0
	SM4X_END_PAIR	SM4X_Y2, 1
	SM4X_SPLIT2
	SM4X_TREE	.Lsm4x_t11, .Lsm4x_t12, 0, 8, 9, 10
	vpxor		.Lsm4x_cf(%rip), %xmm0, %xmm0
	SM4X_LOOKUP	.Lsm4_tmi_lo, .Lsm4_tmi_hi, 0, 1, 4, 5
	vpshufb		.Lsm4_bswap32(%rip), %xmm1, %xmm1
	vpxor		%xmm12, %xmm1, %xmm0
.endm

/*
 * SM4X_CORE: encrypt (or decrypt, with rkey_dec) the block in %xmm0
 * (memory byte order) in place.  Inputs: %r9 frame of SM4X_ENTER, %rdi
 * round keys, from which the core fills KK[1..32] as it goes (the only
 * block of a 1-block call; the fused serial loop fills the KK area
 * first with SM4X_FILL_KK and runs SM4X_RND_0_27 and SM4X_RND_28_30
 * itself).
 * Clobbers %rax, vector registers 1-15.
 */
.macro SM4X_CORE
	SM4X_SETUP
	/*
	 * sm4x_core_kk fills the KK area as it goes, one group ahead of the
	 * rounds that read it, and written after them: the lookups then run
	 * in the gaps of the rounds' critical path instead of delaying it.
	 * F_{h+1} waits in the frame for the next group.
	 */
	SM4X_KK_F	8, (%rdi), 16(%rdi)
	SM4X_KK_F	9, 16(%rdi), 32(%rdi)
	vmovdqa		%xmm9, SM4X_F(%r9)
	SM4X_KK_GROUP	8, 9, (SM4X_KK + 4)(%r9)
	/* rounds 0-19; iteration g adds group g + 1 */
	mov		$-80, %rax
.Lsm4x_loop\@:
	SM4X_ROUND	0, 1, 80
	SM4X_ROUND	1, 1, 80
	SM4X_ROUND	2, 1, 80
	SM4X_ROUND	3, 1, 80
	vmovdqu		112(%rdi,%rax), %xmm6
	vpxor		128(%rdi,%rax), %xmm6, %xmm6
	SM4X_LOOKUP	.Lsm4x_qm_lo, .Lsm4x_qm_hi, 6, 9, 4, 5
	vmovdqa		SM4X_F(%r9), %xmm8
	vmovdqa		%xmm9, SM4X_F(%r9)
	vpalignr	$4, %xmm8, %xmm9, %xmm9
	vpxor		%xmm8, %xmm9, %xmm9
	vmovdqu		%xmm9, (SM4X_KK + 100)(%r9,%rax)
	add		$16, %rax
	jnz		.Lsm4x_loop\@
	/* rounds 20-23, group 6 (F_7 = QM*R_7) */
	SM4X_ROUND	0, 0, 80
	SM4X_ROUND	1, 0, 80
	SM4X_ROUND	2, 0, 80
	SM4X_ROUND	3, 0, 80
	SM4X_KK_F	9, 112(%rdi)
	vmovdqa		SM4X_F(%r9), %xmm8
	vmovdqa		%xmm9, SM4X_F(%r9)
	SM4X_KK_GROUP	8, 9, (SM4X_KK + 100)(%r9)
	/* rounds 24-27, group 7 (F_8 = 0) */
	SM4X_ROUND	0, 0, 96
	SM4X_ROUND	1, 0, 96
	SM4X_ROUND	2, 0, 96
	SM4X_ROUND	3, 0, 96
	vmovdqa		SM4X_F(%r9), %xmm8
	vpxor		%xmm9, %xmm9, %xmm9
	SM4X_KK_GROUP	8, 9, (SM4X_KK + 116)(%r9)
	/* rounds 28-30 */
	SM4X_ROUND	0, 0, 112
	SM4X_ROUND	1, 0, 112
	SM4X_ROUND	2, 0, 112
	SM4X_LAST
.endm

/*
 * SM4X_ONE mode: the whole of a 1-block call of a parallel mode (ecb,
 * cbc_dec, cfb_dec, ctr, xts) through sm4x_core_kk, ending in RET.
 */
.macro SM4X_ONE mode
	SM4X_ENTER
.ifc \mode, ecb
	vmovdqu		(%rdx), %xmm0
	call		sm4x_core_kk
	vmovdqu		%xmm0, (%rsi)
.endif
.ifc \mode, cbc_dec
	/* the next IV is the ciphertext: keep it in GPRs (src may be dst) */
	mov		(%rdx), %r10
	mov		8(%rdx), %r11
	vmovdqu		(%rdx), %xmm0
	call		sm4x_core_kk
	vpxor		(%r8), %xmm0, %xmm0
	vmovdqu		%xmm0, (%rsi)
	mov		%r10, (%r8)
	mov		%r11, 8(%r8)
.endif
.ifc \mode, cfb_dec
	vmovdqu		(%r8), %xmm0
	call		sm4x_core_kk
	vmovdqu		(%rdx), %xmm1
	vpxor		%xmm1, %xmm0, %xmm0
	vmovdqu		%xmm0, (%rsi)
	vmovdqu		%xmm1, (%r8)
.endif
.ifc \mode, ctr
	vmovdqu		(%r8), %xmm0
	call		sm4x_core_kk
	vpxor		(%rdx), %xmm0, %xmm0
	vmovdqu		%xmm0, (%rsi)
	mov		(%r8), %r10
	mov		8(%r8), %r11
	bswap		%r10
	bswap		%r11
	add		$1, %r11
	adc		$0, %r10
	bswap		%r10
	bswap		%r11
	mov		%r10, (%r8)
	mov		%r11, 8(%r8)
.endif
.ifc \mode, xts
	vmovdqu		(%r8), %xmm0
	vpxor		(%rdx), %xmm0, %xmm0
	call		sm4x_core_kk
	vmovdqu		(%r8), %xmm13
	vpxor		%xmm13, %xmm0, %xmm0
	vmovdqu		%xmm0, (%rsi)
	SM4_XTS_NEXT
	vmovdqu		%xmm13, (%r8)
.endif
	SM4X_LEAVE
.endm

/*
 * SM4X_CORE_FUNCTIONS: the one-block core as a local function,
 * sm4x_core_kk, emitted once by each instantiating file.
 */
.macro SM4X_CORE_FUNCTIONS
SYM_FUNC_START_LOCAL(sm4x_core_kk)
	SM4X_CORE
	RET
SYM_FUNC_END(sm4x_core_kk)
.endm

/*
 * SM4X_SERIAL_BLOCK mode, core: one block of a CBC or CFB encryption
 * (or of a CBC-MAC, which stores nothing); %xmm0 is the previous
 * ciphertext block before and the new one after.
 */
.macro SM4X_SERIAL_BLOCK mode, core
.ifc \mode, cfb_enc
	call		\core
	vpxor		(%rdx), %xmm0, %xmm0
.else
	vpxor		(%rdx), %xmm0, %xmm0
	call		\core
.endif
.ifnc \mode, cbcmac
	vmovdqu		%xmm0, (%rsi)
.endif
.endm

/*
 * The fused CBC/CFB encryption and CBC-MAC loop.  Block n's cipher input
 * is W = D ^ (X35, X34, X33, X32) of block n - 1 (words), with D = P_n
 * (CBC, CBC-MAC) or P_{n-1} (CFB).  Its round-0 input t1 = M*(W1 ^ W2 ^ W3 ^ rk[0]) ^ c
 * is t1_31 of block n - 1 (M*(X32 ^ X33 ^ X34 ^ rk[31]) ^ c) ^ M*g with
 * g = D1 ^ D2 ^ D3 ^ rk[0] ^ rk[31], so block n starts as soon as round 31
 * of block n - 1 has its AESENC outputs V_31 (for the keys), and the
 * output of block n - 1 is computed beside it.  In pair form (see the
 * generator's fused simulation), with Q = QM(S1), QM(S2) of
 *	S1 = {g, D0 ^ D2 ^ D3 ^ rk[1] ^ rk[31], D0 ^ D1 ^ K1, D1 ^ D2 ^ K2},
 *	S2 = {D2 ^ D3 ^ K3, D1 ^ D3 ^ K1 ^ K4 ^ M^-1*kappa, 0, 0}
 * (K_j = rk[j-1] ^ rk[j]) and pre = V_29 ^ Y_31 ^ KK[31]:
 *	t1' = t1_31 ^ M*g, t2' = t2_31 ^ sigma*M*g
 *	k' = V_31 ^ V_30 ^ pre ^ (Q1[1], 0)
 *	V'_{-1} = V_30 ^ (Q1[0], 0)
 *	Y'_0 = V_31 ^ pre ^ (Q1[2], 0), Y'_1 = Y_33 ^ (Q1[3], 0),
 *	Y'_2 = Y_32 ^ (Q2[0], 0)
 *	V'_{-2} = V'_{-1} ^ Y_32 ^ Y_33 ^ Y'_0 ^ (Q2[1], 0)
 * (Q[i] broadcast).  KS1 = {rk0 ^ rk31, rk1 ^ rk31, K1, K2} and KS2 =
 * {K3, K1 ^ K4 ^ M^-1*kappa, 0, 0} are the key words of S1, S2.
 */

/* SM4X_SERIAL_KEYS: KS1, KS2 from %rdi.  Clobbers 4-9. */
.macro SM4X_SERIAL_KEYS
	/* 5: {K1, K2, K3, K4}; 6: rk[0..3] ^ rk31 */
	vmovdqu		(%rdi), %xmm4
	vpxor		4(%rdi), %xmm4, %xmm5
	vbroadcastss	124(%rdi), %xmm6
	vpxor		%xmm4, %xmm6, %xmm6
	vpshufd		$0x40, %xmm5, %xmm8
	vpblendw	$0xf0, %xmm8, %xmm6, %xmm7
	vmovdqa		%xmm7, SM4X_KS1(%r9)
	vpshufb		.Lsm4x_ks2a(%rip), %xmm5, %xmm8
	vpshufb		.Lsm4x_ks2b(%rip), %xmm5, %xmm9
	vpxor		.Lsm4x_ks2c(%rip), %xmm8, %xmm8
	vpxor		%xmm9, %xmm8, %xmm8
	vmovdqa		%xmm8, SM4X_KS2(%r9)
.endm

/*
 * SM4X_SERIAL_PREP src: TMG, SMG, Q1, Q2 from the D block at \src (memory
 * byte order; \src empty: in %xmm4).  Clobbers 4-10.
 */
.macro SM4X_SERIAL_PREP src
.ifnb \src
	vmovdqu		\src, %xmm4
.endif
	vpshufb		.Lsm4x_bc1(%rip), %xmm4, %xmm5
	vpshufb		.Lsm4x_bc2(%rip), %xmm4, %xmm6
	vpshufb		.Lsm4x_bc3(%rip), %xmm4, %xmm7
	vpshufd		$0x00, SM4X_KS1(%r9), %xmm8
	vpxor		%xmm6, %xmm5, %xmm5
	vpxor		%xmm8, %xmm7, %xmm7
	vpxor		%xmm7, %xmm5, %xmm5
	SM4X_LOOKUP	.Lsm4_tm_lo, .Lsm4_tm_hi, 5, 6, 7, 8
	vmovdqa		%xmm6, SM4X_TMG(%r9)
	SM4X_LOOKUP	.Lsm4x_sm_lo, .Lsm4x_sm_hi, 5, 6, 7, 8
	vmovdqa		%xmm6, SM4X_SMG(%r9)
	vpshufb		.Lsm4x_u1(%rip), %xmm4, %xmm7
	vpshufb		.Lsm4x_s2(%rip), %xmm4, %xmm8
	vpshufb		.Lsm4x_s3(%rip), %xmm4, %xmm9
	vpxor		%xmm8, %xmm7, %xmm7
	vpxor		SM4X_KS1(%r9), %xmm9, %xmm9
	vpxor		%xmm9, %xmm7, %xmm7
	SM4X_LOOKUP	.Lsm4x_qm_lo, .Lsm4x_qm_hi, 7, 10, 8, 9
	vmovdqa		%xmm10, SM4X_Q1(%r9)
	vpshufb		.Lsm4x_w1(%rip), %xmm4, %xmm7
	vpshufb		.Lsm4x_s3(%rip), %xmm4, %xmm8
	vpxor		SM4X_KS2(%r9), %xmm8, %xmm8
	vpxor		%xmm8, %xmm7, %xmm7
	SM4X_LOOKUP	.Lsm4x_qm_lo, .Lsm4x_qm_hi, 7, 10, 8, 9
	vmovdqa		%xmm10, SM4X_Q2(%r9)
.endm

/*
 * SM4X_SERIAL_NEXT mode: after rounds 0-30 of block n - 1 (state in 0-3),
 * round 31, the next block's state in 0-3 and the rings, and the
 * output of block n - 1 (before the CFB XOR) in %xmm10; a CBC-MAC (mode
 * cbcmac) needs no output but the last and skips it.  Clobbers 0-14.
 * The next block's inputs and keys come first; everything else (the
 * output and the rings) is written after them.
 */
.macro SM4X_SERIAL_NEXT mode
	vmovdqa		(SM4X_V1 + 16)(%r9), %xmm8
	vpxor		(SM4X_Y1 + 48)(%r9), %xmm8, %xmm8
	vbroadcastss	(SM4X_KK + 124)(%r9), %xmm10
	vpxor		%xmm10, %xmm8, %xmm8
	vmovdqa		(SM4X_V2 + 16)(%r9), %xmm9
	vpxor		(SM4X_Y2 + 48)(%r9), %xmm9, %xmm9
	vpshufd		$0x55, SM4X_Q1(%r9), %xmm14
	vpxor		SM4X_V1(%r9), %xmm14, %xmm14
	vpxor		%xmm8, %xmm14, %xmm14
	vpxor		SM4X_V2(%r9), %xmm9, %xmm11
	vpxor		SM4X_TMG(%r9), %xmm0, %xmm12
	vpxor		SM4X_SMG(%r9), %xmm1, %xmm13
	vaesenc		%xmm2, %xmm0, %xmm0
	vaesenc		%xmm3, %xmm1, %xmm1
	vpxor		%xmm0, %xmm14, %xmm14
	vpxor		%xmm1, %xmm11, %xmm11
	/* Y'_0 into 2, 3 (stored last: slot 0 still holds Y_32) */
	vmovdqa		%xmm8, SM4X_PRE1(%r9)
	vmovdqa		%xmm9, SM4X_PRE2(%r9)
	vpshufd		$0xaa, SM4X_Q1(%r9), %xmm2
	vpxor		%xmm0, %xmm2, %xmm2
	vpxor		%xmm8, %xmm2, %xmm2
	vpxor		%xmm1, %xmm9, %xmm3
.ifnc \mode, cbcmac
	/* the output, as in SM4X_LAST */
	SM4X_SPLIT2
	SM4X_TREE	.Lsm4x_t11m, .Lsm4x_t12m, 10, 10, 8, 9
	vpshufb		.Lsm4x_x35(%rip), %xmm10, %xmm10
	vmovdqa		SM4X_PRE1(%r9), %xmm0
	vmovdqa		SM4X_PRE2(%r9), %xmm1
	SM4X_END_PAIR	SM4X_Y1, 0
	SM4X_END_PAIR	SM4X_Y2, 1
	SM4X_SPLIT2
	SM4X_TREE	.Lsm4x_t11, .Lsm4x_t12, 0, 0, 8, 9
	vpxor		.Lsm4x_cf(%rip), %xmm0, %xmm0
	SM4X_LOOKUP	.Lsm4_tmi_lo, .Lsm4_tmi_hi, 0, 1, 4, 5
	vpshufb		.Lsm4_bswap32(%rip), %xmm1, %xmm1
	vpxor		%xmm1, %xmm10, %xmm10
.endif
	/* the rings of the next block */
	vpshufd		$0x00, SM4X_Q1(%r9), %xmm4
	vpxor		SM4X_V1(%r9), %xmm4, %xmm4
	vmovdqa		SM4X_V2(%r9), %xmm5
	vpshufd		$0x55, SM4X_Q2(%r9), %xmm6
	vpxor		%xmm4, %xmm6, %xmm6
	vpxor		SM4X_Y1(%r9), %xmm6, %xmm6
	vpxor		(SM4X_Y1 + 16)(%r9), %xmm6, %xmm6
	vpxor		%xmm2, %xmm6, %xmm6
	vpxor		SM4X_Y2(%r9), %xmm5, %xmm7
	vpxor		(SM4X_Y2 + 16)(%r9), %xmm7, %xmm7
	vpxor		%xmm3, %xmm7, %xmm7
	vpshufd		$0xff, SM4X_Q1(%r9), %xmm8
	vpxor		(SM4X_Y1 + 16)(%r9), %xmm8, %xmm8
	vpshufd		$0x00, SM4X_Q2(%r9), %xmm9
	vpxor		SM4X_Y1(%r9), %xmm9, %xmm9
	vmovdqa		SM4X_Y2(%r9), %xmm0
	vmovdqa		%xmm4, (SM4X_V1 + 16)(%r9)
	vmovdqa		%xmm5, (SM4X_V2 + 16)(%r9)
	vmovdqa		%xmm6, SM4X_V1(%r9)
	vmovdqa		%xmm7, SM4X_V2(%r9)
	vmovdqa		%xmm8, (SM4X_Y1 + 16)(%r9)
	vmovdqa		%xmm9, (SM4X_Y1 + 32)(%r9)
	vmovdqa		%xmm0, (SM4X_Y2 + 32)(%r9)
	vmovdqa		%xmm2, SM4X_Y1(%r9)
	vmovdqa		%xmm3, SM4X_Y2(%r9)
	vmovdqa		%xmm12, %xmm0
	vmovdqa		%xmm13, %xmm1
	vmovdqa		%xmm14, %xmm2
	vmovdqa		%xmm11, %xmm3
.endm

/*
 * SM4X_FILL_KK: the whole KK area (KK[1..32]) from the round keys at
 * %rdi.  Clobbers 4-6, 8-10.
 */
.macro SM4X_FILL_KK
	SM4X_KK_F	8, (%rdi), 16(%rdi)
	.irp h, 0, 1, 2, 3, 4, 5, 6, 7
	.if \h < 6
	SM4X_KK_F	9, ((\h + 1) * 16)(%rdi), ((\h + 2) * 16)(%rdi)
	.elseif \h == 6
	SM4X_KK_F	9, 112(%rdi)
	.else
	vpxor		%xmm9, %xmm9, %xmm9
	.endif
	vmovdqa		%xmm9, %xmm10
	SM4X_KK_GROUP	8, 9, (SM4X_KK + 4 + \h * 16)(%r9)
	vmovdqa		%xmm10, %xmm8
	.endr
.endm

/*
 * SM4X_SERIAL mode: the whole of a CBC or CFB encryption call (each block
 * depends on the previous ciphertext), ending in RET.  A single block
 * goes through sm4x_core_kk; more through the fused loop above.  Mode
 * cbcmac is CBC encryption that stores no block: the body of
 * <prefix>_cbcmac(rk, mac, src, nblocks) (include/sm4/mac.h), whose
 * chaining value @mac (%rsi) is read at the start and written once at
 * the end.
 */
.macro SM4X_SERIAL mode
	SM4_RET_IF_ZERO
.ifc \mode, cbcmac
	mov		%rsi, %r8
.endif
	cmp		$1, %ecx
	jne		.Lsm4x_fused\@
	SM4X_ENTER
	vmovdqu		(%r8), %xmm0
	SM4X_SERIAL_BLOCK \mode, sm4x_core_kk
	vmovdqu		%xmm0, (%r8)
	SM4X_LEAVE
.Lsm4x_fused\@:
	SM4X_ENTER
	SM4X_FILL_KK
	SM4X_SERIAL_KEYS
	vmovdqu		(%r8), %xmm0
.ifnc \mode, cfb_enc
	vpxor		(%rdx), %xmm0, %xmm0
.endif
	SM4X_SETUP
.Lsm4x_block\@:
	/* the next block's D words: CBC P_{n+1}, CFB P_n */
	cmp		$1, %ecx
	je		.Lsm4x_rounds\@
.ifc \mode, cfb_enc
	SM4X_SERIAL_PREP (%rdx)
.else
	SM4X_SERIAL_PREP 16(%rdx)
.endif
.Lsm4x_rounds\@:
	SM4X_RND_0_27
	SM4X_RND_28_30
	cmp		$1, %ecx
	je		.Lsm4x_last\@
	SM4X_SERIAL_NEXT \mode
.ifc \mode, cfb_enc
	vpxor		(%rdx), %xmm10, %xmm10
.endif
.ifnc \mode, cbcmac
	vmovdqu		%xmm10, (%rsi)
	add		$16, %rsi
.endif
	add		$16, %rdx
	dec		%ecx
	jmp		.Lsm4x_block\@
.Lsm4x_last\@:
	SM4X_LAST
.ifc \mode, cfb_enc
	vpxor		(%rdx), %xmm0, %xmm0
.endif
.ifnc \mode, cbcmac
	vmovdqu		%xmm0, (%rsi)
.endif
	vmovdqu		%xmm0, (%r8)
	SM4X_LEAVE
.endm

/*
 * ccm(sm4): ccm_enc and ccm_dec_mac (include/sm4/mac.h).  The CBC-MAC
 * is the SM4X_SERIAL loop; the CTR keystream is made beside it, in the
 * issue slots that the chain of the MAC's rounds leaves empty.  It runs
 * in batches of counter blocks in the bulk core's form (SM4_ROUND on one
 * register set, its words in the frame), one CTR round every 4 (\v =
 * xmm: 4 blocks a batch) or 8 (ymm: 8 blocks) MAC rounds, so that a
 * batch of B blocks takes B MAC blocks, and is finished between rounds
 * 27 and 28 of the last of them (KSB).  Encryption's batches run beside
 * the blocks they encrypt (a batch's ciphertext is written when it is
 * done; the rest of an unfinished last batch runs after the MAC).
 * Decryption runs one batch ahead: its first batch is made before the
 * loop by the bulk core (sm4_core_<v>_1), and the batch made during
 * blocks kB..kB+B-1 is the keystream of blocks (k+1)B..(k+2)B-1, there
 * in time for the MAC input of block (k+1)B (ciphertext ^ keystream,
 * SM4X_SERIAL_PREP).  Counter blocks past the last block are made and
 * not used.
 *
 * Per width: SM4X_CCM_W(v) bytes a slot of CS, SM4X_CCM_B(v) blocks a
 * batch (KSB holds one), SM4X_CCM_R(v) CTR rounds a MAC block.
 */
#define SM4X_CCM_W(v)	((v) * 16)
#define SM4X_CCM_B(v)	((v) * 4)
#define SM4X_CCM_R(v)	(8 / (v))
/* the frame's CCM area (see "Frame"), room for the ymm form */
#define SM4X_CK		512
#define SM4X_CS		(SM4X_CK + 128)
#define SM4X_KSB	(SM4X_CS + 8 * 32)
#define SM4X_CTRV	(SM4X_KSB + 8 * 16)
#define SM4X_CCM_SIZE	(SM4X_CTRV + 32)
#define SM4X_CCM_FRAME	(SM4X_CCM_SIZE + 64)

/*
 * SM4X_CCM_N v: .Lsm4x_n = 1 (xmm) or 2 (ymm), and .Lsm4x_w, .Lsm4x_b,
 * .Lsm4x_r the three counts above for it.
 */
.macro SM4X_CCM_N v
.ifc \v, xmm
	.set		.Lsm4x_n, 1
.else
	.set		.Lsm4x_n, 2
.endif
	.set		.Lsm4x_w, SM4X_CCM_W(.Lsm4x_n)
	.set		.Lsm4x_b, SM4X_CCM_B(.Lsm4x_n)
	.set		.Lsm4x_r, SM4X_CCM_R(.Lsm4x_n)
.endm

/*
 * SM4X_CTR_ROUND v: the next round of the CTR batch: X[j+4] = X[j] ^
 * M*L(S(X[j+1] ^ X[j+2] ^ X[j+3] ^ rk[j])) with X[j..j+3] the slots at
 * %r11 and rk[j] at %r10 (both advanced).  Clobbers 4-11.
 */
.macro SM4X_CTR_ROUND v
	SM4X_CCM_N	\v
	vmovdqa		(1 * .Lsm4x_w)(%r11), %\v\()5
	vmovdqa		(2 * .Lsm4x_w)(%r11), %\v\()6
	vmovdqa		(3 * .Lsm4x_w)(%r11), %\v\()7
	vmovdqa		(%r11), %\v\()4
	SM4_ROUND	\v, 4, 5, 6, 7, mem, (%r10)
	vmovdqa		%\v\()4, (4 * .Lsm4x_w)(%r11)
	add		$.Lsm4x_w, %r11
	add		$4, %r10
.endm

/*
 * SM4X_RND_CCM v: rounds 0-27 of a MAC block with its SM4X_CCM_R(v) CTR
 * rounds, 7 in the loop and one after (xmm), or 3 in a loop of 8 rounds
 * and one in rounds 24-27 (ymm).  Clobbers %rax, vector registers 0-14.
 */
.macro SM4X_RND_CCM v
.ifc \v, xmm
	mov		$-112, %rax
.Lsm4x_loop\@:
	SM4X_ROUND	0, 1, 112
	SM4X_CTR_ROUND	xmm
	SM4X_ROUND	1, 1, 112
	SM4X_ROUND	2, 1, 112
	SM4X_ROUND	3, 1, 112
	add		$16, %rax
	jnz		.Lsm4x_loop\@
	SM4X_CTR_ROUND	xmm
.else
	mov		$-112, %rax
.Lsm4x_loop\@:
	SM4X_ROUND	0, 1, 112
	SM4X_CTR_ROUND	ymm
	SM4X_ROUND	1, 1, 112
	SM4X_ROUND	2, 1, 112
	SM4X_ROUND	3, 1, 112
	SM4X_ROUND	0, 1, 128
	SM4X_ROUND	1, 1, 128
	SM4X_ROUND	2, 1, 128
	SM4X_ROUND	3, 1, 128
	add		$32, %rax
	cmp		$-16, %rax
	jne		.Lsm4x_loop\@
	SM4X_ROUND	0, 1, 112
	SM4X_CTR_ROUND	ymm
	SM4X_ROUND	1, 1, 112
	SM4X_ROUND	2, 1, 112
	SM4X_ROUND	3, 1, 112
.endif
.endm

/*
 * SM4X_CCM_CTRS v, a, b, c, d: the next SM4X_CCM_B(v) counter blocks
 * (memory byte order; ymm: two a register) into vector registers \a..\d,
 * from CTRV, which is advanced.  Clobbers %rax, %r11 (and 14: ymm).
 */
.macro SM4X_CCM_CTRS v, a, b, c, d
	mov		SM4X_CTRV(%r9), %r11
	mov		(SM4X_CTRV + 8)(%r9), %rax
	.irp r, \a, \b, \c, \d
	vmovq		%r11, %xmm\r
	vpinsrq		$1, %rax, %xmm\r, %xmm\r
	add		$1, %r11
	adc		$0, %rax
.ifc \v, ymm
	vmovq		%r11, %xmm14
	vpinsrq		$1, %rax, %xmm14, %xmm14
	add		$1, %r11
	adc		$0, %rax
	vinserti128	$1, %xmm14, %ymm\r, %ymm\r
.endif
	vpshufb		.Lsm4_bswap128(%rip), %\v\r, %\v\r
	.endr
	mov		%r11, SM4X_CTRV(%r9)
	mov		%rax, (SM4X_CTRV + 8)(%r9)
.endm

/*
 * SM4X_CCM_BATCH_IN v: start the next CTR batch: its counter blocks as
 * words in the M-domain into slots 0-3; %r11 = slot 0, %r10 = CK.
 * Clobbers %rax, 4-10, 14.
 */
.macro SM4X_CCM_BATCH_IN v
	SM4X_CCM_N	\v
	SM4X_CCM_CTRS	\v, 4, 5, 6, 7
	SM4_TRANSPOSE_IN \v, 4, 5, 6, 7
	.irp r, 4, 5, 6, 7
	SM4_LOOKUP	\v, .Lsm4_tm_lo, .Lsm4_tm_hi, \r, \r, 9, 10
	vmovdqa		%\v\r, (SM4X_CS + .Lsm4x_w * (\r - 4))(%r9)
	.endr
	lea		SM4X_CS(%r9), %r11
	lea		SM4X_CK(%r9), %r10
.endm

/*
 * SM4X_CCM_BATCH_OUT v: the finished batch (words X32..X35 in slots 0-3)
 * as keystream blocks into KSB.  Clobbers 4-10.
 */
.macro SM4X_CCM_BATCH_OUT v
	SM4X_CCM_N	\v
	.irp r, 4, 5, 6, 7
	vmovdqa		(SM4X_CS + .Lsm4x_w * (\r - 4))(%r9), %\v\r
	SM4_LOOKUP	\v, .Lsm4_tmi_lo, .Lsm4_tmi_hi, \r, \r, 9, 10
	.endr
	SM4_TRANSPOSE_OUT \v, 4, 5, 6, 7
	.irp r, 4, 5, 6, 7
	vmovdqa		%\v\r, (SM4X_KSB + .Lsm4x_w * (\r - 4))(%r9)
	.endr
.endm

/*
 * SM4X_CCM_SHIFT v: the last four slots of a MAC block's CTR rounds to
 * slots 0-3, %r11 back to slot 0.  Clobbers 4.
 */
.macro SM4X_CCM_SHIFT v
	SM4X_CCM_N	\v
	.irp k, 0, 1, 2, 3
	vmovdqa		(SM4X_CS + .Lsm4x_w * (.Lsm4x_r + \k))(%r9), %\v\()4
	vmovdqa		%\v\()4, (SM4X_CS + .Lsm4x_w * \k)(%r9)
	.endr
	lea		SM4X_CS(%r9), %r11
.endm

/*
 * SM4X_CCM_NEXT_BATCH v, more: SM4X_CCM_BATCH_IN if more than \more
 * blocks are left (%ecx), else no batch: %r10 = CK, %r11 = 0, and the
 * blocks left take SM4X_RND_0_27 without CTR rounds.
 */
.macro SM4X_CCM_NEXT_BATCH v, more
	cmp		$(\more), %ecx
	jbe		.Lsm4x_ccm_none\@
	SM4X_CCM_BATCH_IN \v
	jmp		.Lsm4x_ccm_started\@
.Lsm4x_ccm_none\@:
	lea		SM4X_CK(%r9), %r10
	xor		%r11d, %r11d
.Lsm4x_ccm_started\@:
.endm

/*
 * SM4X_CCM mode, v: the whole of ccm_enc(rk, dst, src, nblocks, ctr, mac)
 * or ccm_dec_mac(rk, src, nblocks, ctr, mac), ending in RET, with CTR
 * batches on \v registers.  Inside: %rdx src, %rsi dst (ccm_enc), %ecx
 * blocks left, %r8 mac, %r10/%r11 the CTR batch's round key and slot
 * pointers.  @ctr is written once, at the start (ctr + nblocks; the loop
 * counts on its copy in CTRV).
 */
.macro SM4X_CCM mode, v
	SM4X_CCM_N	\v
.ifc \mode, ccm_enc
	mov		%r8, %r10
	mov		%r9, %r8
	mov		%ecx, %ecx
.else
	mov		%rcx, %r10
	mov		%edx, %ecx
	mov		%rsi, %rdx
.endif
	SM4_RET_IF_ZERO
	SM4X_ENTER	SM4X_CCM_FRAME
	mov		(%r10), %rax
	mov		8(%r10), %r11
	bswap		%rax
	bswap		%r11
	mov		%r11, SM4X_CTRV(%r9)
	mov		%rax, (SM4X_CTRV + 8)(%r9)
	add		%rcx, %r11
	adc		$0, %rax
	bswap		%rax
	bswap		%r11
	mov		%rax, (%r10)
	mov		%r11, 8(%r10)
	/*
	 * the bulk core's keys (and decryption's first batch: the core
	 * keeps register 13 at CK + SM4_FRAME_SAVE meanwhile, in CS, which
	 * is not in use yet)
	 */
.ifc \mode, ccm_enc
	lea		SM4X_CK(%r9), %r9
	SM4_PREP_KEYS
	lea		-SM4X_CK(%r9), %r9
.else
	SM4X_CCM_CTRS	\v, 0, 1, 2, 3
	lea		SM4X_CK(%r9), %r9
	SM4_PREP_KEYS
	call		sm4_core_\v\()_1
	lea		-SM4X_CK(%r9), %r9
	.irp r, 0, 1, 2, 3
	vmovdqa		%\v\r, (SM4X_KSB + .Lsm4x_w * \r)(%r9)
	.endr
.endif
.ifc \mode, ccm_enc
	SM4X_CCM_BATCH_IN \v
.else
	SM4X_CCM_NEXT_BATCH \v, .Lsm4x_b
.endif
	SM4X_FILL_KK
	SM4X_SERIAL_KEYS
	vmovdqu		(%r8), %xmm0
	vpxor		(%rdx), %xmm0, %xmm0
.ifnc \mode, ccm_enc
	vpxor		SM4X_KSB(%r9), %xmm0, %xmm0
.endif
	SM4X_SETUP
.Lsm4x_ccm_block\@:
	test		%r11, %r11
	jz		.Lsm4x_ccm_plain\@
	SM4X_RND_CCM	\v
	SM4X_CCM_SHIFT	\v
	SM4X_CCM_N	\v
	lea		(SM4X_CK + 128)(%r9), %rax
	cmp		%rax, %r10
	jne		.Lsm4x_ccm_prep\@
	SM4X_CCM_BATCH_OUT \v
.ifc \mode, ccm_enc
	/* the ciphertext of this block and the batch's others before it */
	.set		.Lsm4x_i, 0
	.rept		.Lsm4x_b
	vmovdqu		(16 * (.Lsm4x_i + 1 - .Lsm4x_b))(%rdx), %xmm4
	vpxor		(SM4X_KSB + 16 * .Lsm4x_i)(%r9), %xmm4, %xmm4
	vmovdqu		%xmm4, (16 * (.Lsm4x_i + 1 - .Lsm4x_b))(%rsi)
	.set		.Lsm4x_i, .Lsm4x_i + 1
	.endr
	SM4X_CCM_NEXT_BATCH \v, 1
.else
	SM4X_CCM_NEXT_BATCH \v, .Lsm4x_b + 1
.endif
	jmp		.Lsm4x_ccm_prep\@
.Lsm4x_ccm_plain\@:
	/* no batch: the keystream of the blocks left is in KSB */
	SM4X_RND_0_27
	SM4X_CCM_N	\v
	add		$(4 * .Lsm4x_r), %r10
.Lsm4x_ccm_prep\@:
	cmp		$1, %ecx
	je		.Lsm4x_ccm_rounds\@
.ifc \mode, ccm_enc
	SM4X_SERIAL_PREP 16(%rdx)
.else
	/* ciphertext ^ keystream of block n + 1, 16 * ((n + 1) % B) in KSB */
	lea		SM4X_CK(%r9), %rax
	neg		%rax
	add		%r10, %rax
.ifc \v, xmm
	shr		$1, %rax
.endif
	vmovdqu		16(%rdx), %xmm4
	vpxor		SM4X_KSB(%r9,%rax), %xmm4, %xmm4
	SM4X_SERIAL_PREP
.endif
.Lsm4x_ccm_rounds\@:
	SM4X_RND_28_30
	cmp		$1, %ecx
	je		.Lsm4x_ccm_last\@
	SM4X_SERIAL_NEXT cbcmac
	add		$16, %rdx
.ifc \mode, ccm_enc
	add		$16, %rsi
.endif
	dec		%ecx
	jmp		.Lsm4x_ccm_block\@
.Lsm4x_ccm_last\@:
	SM4X_LAST
	vmovdqu		%xmm0, (%r8)
.ifc \mode, ccm_enc
	/* an unfinished batch: its k = %ecx blocks end at this block */
	lea		SM4X_CK(%r9), %rax
	neg		%rax
	add		%r10, %rax
	jz		.Lsm4x_ccm_done\@
	shr		$(6 - .Lsm4x_n), %eax
	mov		%eax, %ecx
.Lsm4x_ccm_finish\@:
	.rept		.Lsm4x_r
	SM4X_CTR_ROUND	\v
	.endr
	SM4X_CCM_SHIFT	\v
	SM4X_CCM_N	\v
	lea		(SM4X_CK + 128)(%r9), %rax
	cmp		%rax, %r10
	jne		.Lsm4x_ccm_finish\@
	SM4X_CCM_BATCH_OUT \v
	lea		-1(%rcx), %eax
	shl		$4, %eax
	sub		%rax, %rdx
	sub		%rax, %rsi
	xor		%eax, %eax
.Lsm4x_ccm_out\@:
	vmovdqu		(%rdx,%rax), %xmm4
	vpxor		SM4X_KSB(%r9,%rax), %xmm4, %xmm4
	vmovdqu		%xmm4, (%rsi,%rax)
	add		$16, %eax
	dec		%ecx
	jnz		.Lsm4x_ccm_out\@
.Lsm4x_ccm_done\@:
.endif
	SM4X_LEAVE	SM4X_CCM_FRAME, SM4X_CCM_SIZE
.endm

/*
 * SM4_ONE_BLOCK mode (the hook of SM4_MODE_FUNC): at the top of a
 * parallel mode function, handle a 1-block call with sm4x_core_kk
 * (returns from the function).
 */
.macro SM4_ONE_BLOCK mode
	cmp		$1, %ecx
	jne		.Lsm4x_many\@
	SM4X_ONE	\mode
.Lsm4x_many\@:
.endm

/* ---- Key expansion ------------------------------------------------------ */

/*
 * SM4_AESNI_KEY_TAU: tau of SM4_X86_KEY_STEP (sm4-key-frame.S) on the
 * word broadcast to the four dwords of %xmm0 (so ShiftRows changes
 * nothing): pre() by the trk lookups, AESENCLAST with a zero round key,
 * post() by lookups.  Clobbers %xmm1, %xmm2.
 */
.macro SM4_AESNI_KEY_TAU
	vpshufd		$0, %xmm0, %xmm0
	SM4_LOOKUP	xmm, .Lsm4_trk_lo, .Lsm4_trk_hi, 0, 0, 1, 2
	vaesenclast	.Lsm4_zero(%rip), %xmm0, %xmm0
	SM4_LOOKUP	xmm, .Lsm4_post_lo, .Lsm4_post_hi, 0, 0, 1, 2
.endm

/*
 * SM4_AESNI_EXPAND_KEY_BODY: the body, ending in RET, of
 * void <name>(const u8 *key, u32 *rkey_enc, u32 *rkey_dec, const u32 *fk,
 *	       const u32 *ck);
 * (SM4_X86_EXPAND_KEY, sm4_x86_drivers.h): both schedules as
 * sm4_expandkey() makes them, rkey_dec[i] = rkey_enc[31 - i].  K0..K3 =
 * MK ^ FK live in %eax, %r9d, %r10d, %r11d; 8 iterations of 4 steps, no
 * memory access depends on the key.  Wipes every register that held key
 * material.  sm4_x86_expandkey() (sm4_x86_glue.c) calls it directly, so
 * the including file defines it with SYM_FUNC_START.
 */
.macro SM4_AESNI_EXPAND_KEY_BODY
	SM4_X86_EXPAND_KEY_FRAME SM4_AESNI_KEY_TAU
	vpxor		%xmm0, %xmm0, %xmm0
	vpxor		%xmm1, %xmm1, %xmm1
	vpxor		%xmm2, %xmm2, %xmm2
	RET
.endm
