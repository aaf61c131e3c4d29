// SPDX-License-Identifier: GPL-2.0
/*
 * evex-emu-test: the AVX-512 emulator (evex_emu.c) checked on its own,
 * independently of the SM4 code, on a CPU without AVX-512.
 *
 *   evex-emu-test [--iters N]
 *
 * Every instruction form the GFNI/AVX-512 and SM4-NI/AVX10 backends use
 * (and a few neighbours: other VLs, merging where a backend zeroes) runs
 * as the assembler encodes it, on random registers, masks and memory,
 * under the emulator, and its result is compared with an oracle:
 *   native  the VEX twin on this CPU (real silicon): the same operation on
 *	    ymm (xmm), applied to each 256-bit half of a zmm; or, for
 *	    VPRORD and VPTERNLOGD 0x96, the same function composed of native
 *	    shifts, ORs and XORs; the merging/zeroing of a mask is then applied
 *	    by the model below;
 *   model  a scalar model written here from the SDM pseudo-code, for forms
 *	    without a VEX twin (VPTERNLOGD with other tables, the GFNI
 *	    affine instructions, VPCMPUQ, VPCMPUB, VALIGNQ, VSHUFI64X2 and
 *	    VEXTRACTI32X4 on zmm, the opmask instructions);
 *   AES     GF2P8AFFINEINVQB with the AES affine matrix against the native
 *	    AESENCLAST (its S-box is that affine map of the GF(2^8) inverse);
 *   VEX SM4 the EVEX.512 VSM4RNDS4/VSM4KEY4 against their VEX.256 forms on
 *	    each 256-bit half, these run by sm4ni_emu.c (this CPU has no SM4
 *	    instructions; its VEX emulation was checked against libgcrypt's
 *	    SM4-instruction code, see tests/unit/sm4ni_emu.c).  The round
 *	    arithmetic is shared, so this checks the EVEX decoding and the
 *	    zmm register and memory operands.
 * Also: compressed disp8*N and disp32 displacements, RIP-relative and
 * broadcast operands, masked loads and stores next to an inaccessible page
 * (fault suppression), and the shadow's bits 511:256 after native VEX
 * writes and VZEROUPPER.  Ends with "N passed, N failed".
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "evex_emu.h"
#include "sm4ni_emu.h"
#include "sm4-vectors.h"

/* The layout the asm below addresses by offset. */
struct vregs {
	uint8_t a[64];		/*   0: first source (vvvv) */
	uint8_t b[64];		/*  64: second source (rm) */
	uint8_t d[64];		/* 128: the destination's old value */
	uint8_t out[64];	/* 192: the destination afterwards */
	uint8_t mout[64];	/* 256: memory destination of stores */
	uint64_t kin;		/* 320: the opmask */
	uint64_t kout;		/* 328: k6 afterwards (compares) */
	uint8_t *memp;		/* 336: rdx, base of memory operands */
};

_Static_assert(offsetof(struct vregs, memp) == 336, "layout");

static unsigned int n_passed, n_failed;
static uint64_t seed = 0xe7e7;
uint8_t evex_test_rip[64] __attribute__((aligned(64)));

static uint64_t rnd(void)
{
	return sm4_vec_rand(&seed);
}

static void fill(uint8_t *p, size_t n)
{
	sm4_vec_fill(&seed, p, n);
}

#define VCLOBBER "rax", "rdx", "memory", "xmm0", "xmm1", "xmm2", "xmm3",  \
	"xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", \
	"xmm12", "xmm13", "xmm14", "xmm15"

/*
 * An emulated test: load a, b, d into registers RA, RB, RD (EVEX loads,
 * emulated too), the mask into k5 and k2, memp into rdx, run INSN, store
 * RD and k6.
 */
#define EMU(name, ra, rb, rd, insn)					\
static void name(struct vregs *v)					\
{									\
	asm volatile("vmovdqu32 0(%0), %%" ra "\n\t"			\
		     "vmovdqu32 64(%0), %%" rb "\n\t"			\
		     "vmovdqu32 128(%0), %%" rd "\n\t"			\
		     "movq 320(%0), %%rax\n\t"				\
		     "kmovq %%rax, %%k5\n\t"				\
		     "kmovq %%rax, %%k2\n\t"				\
		     "movq 336(%0), %%rdx\n\t"				\
		     insn "\n\t"					\
		     "vmovdqu32 %%" rd ", 192(%0)\n\t"			\
		     "kmovq %%k6, %%rax\n\t"				\
		     "movq %%rax, 328(%0)\n\t"				\
		     : : "r"(v) : VCLOBBER);				\
}
#define EMU_HI(name, insn) EMU(name, "zmm17", "zmm26", "zmm21", insn)
#define EMU_LO(name, insn) EMU(name, "zmm3", "zmm12", "zmm9", insn)

/* A native twin on 32 bytes: a in ymm1, b in ymm2, d in ymm3 -> ymm3. */
#define NAT(name, insn)							\
static void name(const uint8_t *a, const uint8_t *b, const uint8_t *d,	\
		 uint8_t *r)						\
{									\
	asm volatile("vmovdqu (%0), %%ymm1\n\t"				\
		     "vmovdqu (%1), %%ymm2\n\t"				\
		     "vmovdqu (%2), %%ymm3\n\t"				\
		     insn "\n\t"					\
		     "vmovdqu %%ymm3, (%3)\n\t"				\
		     : : "r"(a), "r"(b), "r"(d), "r"(r) : VCLOBBER);	\
}

typedef void (*nat_fn)(const uint8_t *a, const uint8_t *b, const uint8_t *d,
		       uint8_t *r);
struct etest;
typedef void (*model_fn)(const struct vregs *v, const struct etest *t,
			 uint8_t *r, uint64_t *k);

#define T_MASK		1	/* {k5} or {k2} */
#define T_Z		2	/* {z} */
#define T_MEMB		4	/* b from memory at rdx + disp */
#define T_STORE		8	/* stores to memory at rdx + disp (mout) */
#define T_KDST		16	/* result in k6 */
#define T_RIP		32	/* b from evex_test_rip (RIP-relative) */
#define T_COUNTS	64	/* b's qwords: shift counts 0..70 */
#define T_EQUAL		128	/* some qwords of b equal to a */
#define T_SM4EMU	256	/* the twin runs under sm4ni_emu.c */

struct etest {
	const char *name;
	void (*emu)(struct vregs *v);
	unsigned int vl, esz;	/* bytes; element size of the mask */
	unsigned int flags;
	unsigned int bsz;	/* broadcast: b's first bsz bytes repeated */
	int disp;		/* memory operand at rdx + disp */
	nat_fn nat;		/* native twin, per 256-bit half */
	model_fn model;		/* or the scalar model */
	unsigned int imm, rlen;	/* rlen: result bytes if not vl */
};

/* ---- Scalar models, from the SDM's Operation sections ------------- */

static uint64_t get64(const uint8_t *p, unsigned int i)
{
	uint64_t v;

	memcpy(&v, p + 8 * i, 8);
	return v;
}

static void m_ternlog(const struct vregs *v, const struct etest *t,
		      uint8_t *r, uint64_t *k)
{
	unsigned int i, bit;

	for (i = 0; i < t->vl; i++) {
		r[i] = 0;
		for (bit = 0; bit < 8; bit++) {
			unsigned int idx = ((v->d[i] >> bit) & 1) << 2 |
					   ((v->a[i] >> bit) & 1) << 1 |
					   ((v->b[i] >> bit) & 1);

			r[i] |= (uint8_t)(((t->imm >> idx) & 1) << bit);
		}
	}
}

/* GF(2^8) modulo x^8 + x^4 + x^3 + x + 1: product, then x^254. */
static uint8_t gf256_mul(uint8_t x, uint8_t y)
{
	unsigned int p = 0, i;

	for (i = 0; i < 8; i++)
		if (y >> i & 1)
			p ^= (unsigned int)x << i;
	for (i = 14; i >= 8; i--)
		if (p >> i & 1)
			p ^= 0x11bu << (i - 8);
	return (uint8_t)p;
}

static uint8_t gf256_inv(uint8_t x)
{
	uint8_t r = 1, s = x;
	unsigned int e = 254;

	for (; e; e >>= 1, s = gf256_mul(s, s))
		if (e & 1)
			r = gf256_mul(r, s);
	return r;		/* 0^254 = 0 */
}

/* imm8 in t->imm; t->rlen 1: the INV form. */
static void m_gfni(const struct vregs *v, const struct etest *t, uint8_t *r,
		   uint64_t *k, bool inv)
{
	unsigned int j, i, b;

	for (j = 0; j < t->vl; j++) {
		uint8_t x = inv ? gf256_inv(v->a[j]) : v->a[j];
		uint64_t m = get64(v->b, j / 8);

		r[j] = 0;
		for (i = 0; i < 8; i++) {
			unsigned int bit = (t->imm >> i) & 1;

			for (b = 0; b < 8; b++)
				bit ^= (m >> (8 * (7 - i) + b)) & (x >> b) & 1;
			r[j] |= (uint8_t)(bit << i);
		}
	}
}

static void m_affine(const struct vregs *v, const struct etest *t,
		     uint8_t *r, uint64_t *k)
{
	m_gfni(v, t, r, k, false);
}

static void m_affineinv(const struct vregs *v, const struct etest *t,
			uint8_t *r, uint64_t *k)
{
	m_gfni(v, t, r, k, true);
}

/* VPCMPUQ, VPCMPUB: unsigned elements of t->esz bytes into k. */
static void m_cmpu(const struct vregs *v, const struct etest *t,
		   uint8_t *r, uint64_t *k)
{
	unsigned int i;

	*k = 0;
	for (i = 0; i < t->vl / t->esz; i++) {
		uint64_t x = t->esz == 1 ? v->a[i] : get64(v->a, i);
		uint64_t y = t->esz == 1 ? v->b[i] : get64(v->b, i);
		/* EQ, LT, LE, FALSE, NEQ, NLT, NLE, TRUE */
		bool c[8] = { x == y, x < y, x <= y, false, x != y, !(x < y),
			      !(x <= y), true };

		*k |= (uint64_t)c[t->imm & 7] << i;
	}
}

static void m_alignq(const struct vregs *v, const struct etest *t,
		     uint8_t *r, uint64_t *k)
{
	unsigned int n = t->vl / 8, i, s = t->imm % n;

	for (i = 0; i < n; i++) {
		unsigned int e = i + s;
		uint64_t x = e < n ? get64(v->b, e) : get64(v->a, e - n);

		memcpy(r + 8 * i, &x, 8);
	}
}

static void m_shufi64x2(const struct vregs *v, const struct etest *t,
			uint8_t *r, uint64_t *k)
{
	/* 512 bits: dest lanes 0, 1 from src1, 2, 3 from src2. */
	memcpy(r, v->a + 16 * (t->imm & 3), 16);
	memcpy(r + 16, v->a + 16 * ((t->imm >> 2) & 3), 16);
	memcpy(r + 32, v->b + 16 * ((t->imm >> 4) & 3), 16);
	memcpy(r + 48, v->b + 16 * ((t->imm >> 6) & 3), 16);
}

static void m_extract(const struct vregs *v, const struct etest *t,
		      uint8_t *r, uint64_t *k)
{
	memcpy(r, v->b + 16 * (t->imm & 3), 16);
}

/* VINSERTI64X4: a, its 256-bit half imm8[0] replaced by b's low half. */
static void m_insert(const struct vregs *v, const struct etest *t,
		     uint8_t *r, uint64_t *k)
{
	memcpy(r, v->a, 64);
	memcpy(r + 32 * (t->imm & 1), v->b, 32);
}

/* ---- The forms ----------------------------------------------------- */

NAT(n_pxor, "vpxor %%ymm2, %%ymm1, %%ymm3")
NAT(n_pand, "vpand %%ymm2, %%ymm1, %%ymm3")
NAT(n_paddq, "vpaddq %%ymm2, %%ymm1, %%ymm3")
NAT(n_psubq, "vpsubq %%ymm2, %%ymm1, %%ymm3")
NAT(n_paddb, "vpaddb %%ymm2, %%ymm1, %%ymm3")
NAT(n_psubb, "vpsubb %%ymm2, %%ymm1, %%ymm3")
NAT(n_punpcklbw, "vpunpcklbw %%ymm2, %%ymm1, %%ymm3")
NAT(n_punpckhbw, "vpunpckhbw %%ymm2, %%ymm1, %%ymm3")
NAT(n_punpckldq, "vpunpckldq %%ymm2, %%ymm1, %%ymm3")
NAT(n_punpckhdq, "vpunpckhdq %%ymm2, %%ymm1, %%ymm3")
NAT(n_punpcklqdq, "vpunpcklqdq %%ymm2, %%ymm1, %%ymm3")
NAT(n_punpckhqdq, "vpunpckhqdq %%ymm2, %%ymm1, %%ymm3")
NAT(n_pshufb, "vpshufb %%ymm2, %%ymm1, %%ymm3")
NAT(n_mov, "vmovdqa %%ymm2, %%ymm3")
NAT(n_ror8, "vpsrld $8, %%ymm2, %%ymm4\n\tvpslld $24, %%ymm2, %%ymm3\n\t"
	    "vpor %%ymm4, %%ymm3, %%ymm3")
NAT(n_ror16, "vpsrld $16, %%ymm2, %%ymm4\n\tvpslld $16, %%ymm2, %%ymm3\n\t"
	     "vpor %%ymm4, %%ymm3, %%ymm3")
NAT(n_ror24, "vpsrld $24, %%ymm2, %%ymm4\n\tvpslld $8, %%ymm2, %%ymm3\n\t"
	     "vpor %%ymm4, %%ymm3, %%ymm3")
NAT(n_xor3, "vpxor %%ymm2, %%ymm1, %%ymm4\n\tvpxor %%ymm4, %%ymm3, %%ymm3")
NAT(n_psrlq5, "vpsrlq $5, %%ymm2, %%ymm3")
NAT(n_psllq63, "vpsllq $63, %%ymm2, %%ymm3")
NAT(n_psrlq63, "vpsrlq $63, %%ymm2, %%ymm3")
NAT(n_pslldq8, "vpslldq $8, %%ymm2, %%ymm3")
NAT(n_pslldq3, "vpslldq $3, %%ymm2, %%ymm3")
NAT(n_psrldq8, "vpsrldq $8, %%ymm2, %%ymm3")
NAT(n_psrldq5, "vpsrldq $5, %%ymm2, %%ymm3")
NAT(n_pshufd4e, "vpshufd $0x4e, %%ymm2, %%ymm3")
NAT(n_pshufd1b, "vpshufd $0x1b, %%ymm2, %%ymm3")
NAT(n_psrlq_x, "vpsrlq %%xmm2, %%ymm1, %%ymm3")
NAT(n_psllq_x, "vpsllq %%xmm2, %%ymm1, %%ymm3")
NAT(n_psrlvq, "vpsrlvq %%ymm2, %%ymm1, %%ymm3")
NAT(n_psllvq, "vpsllvq %%ymm2, %%ymm1, %%ymm3")
NAT(n_clmul00, "vpclmulqdq $0x00, %%ymm2, %%ymm1, %%ymm3")
NAT(n_clmul01, "vpclmulqdq $0x01, %%ymm2, %%ymm1, %%ymm3")
NAT(n_clmul10, "vpclmulqdq $0x10, %%ymm2, %%ymm1, %%ymm3")
NAT(n_clmul11, "vpclmulqdq $0x11, %%ymm2, %%ymm1, %%ymm3")
NAT(n_bcast128, "vbroadcasti128 (%1), %%ymm3")
NAT(n_bcastq, "vpbroadcastq (%1), %%ymm3")
NAT(n_bcastd, "vpbroadcastd (%1), %%ymm3")
NAT(n_extract128, "vextracti128 $1, %%ymm2, %%xmm3")
NAT(n_perm2i128, "vperm2i128 $0x21, %%ymm2, %%ymm1, %%ymm3")

#define B4 "(%%rdx)%{1to16%}"

EMU_HI(e_pxord_z, "vpxord %%zmm26, %%zmm17, %%zmm21")
EMU_HI(e_pxorq_z, "vpxorq %%zmm26, %%zmm17, %%zmm21")
EMU_LO(e_pxorq_z_lo, "vpxorq %%zmm12, %%zmm3, %%zmm9")
EMU_HI(e_pandq_z, "vpandq %%zmm26, %%zmm17, %%zmm21")
EMU_HI(e_pandq_zrip, "vpandq evex_test_rip(%%rip), %%zmm17, %%zmm21")
EMU_LO(e_pxord_z_lo, "vpxord %%zmm12, %%zmm3, %%zmm9")
EMU_HI(e_pxord_x, "vpxord %%xmm26, %%xmm17, %%xmm21")
EMU_HI(e_pxord_ykm, "vpxord %%ymm26, %%ymm17, %%ymm21%{%%k5%}")
EMU_HI(e_pxord_zm, "vpxord 128(%%rdx), %%zmm17, %%zmm21")
EMU_HI(e_pxord_zd32, "vpxord 68(%%rdx), %%zmm17, %%zmm21")
EMU_LO(e_pxord_zmkz, "vpxord -64(%%rdx), %%zmm3, %%zmm9%{%%k2%}%{z%}")
EMU_HI(e_pxord_xmkz, "vpxord 32(%%rdx), %%xmm17, %%xmm21%{%%k5%}%{z%}")
EMU_HI(e_pxord_zb, "vpxord 8(%%rdx)%{1to16%}, %%zmm17, %%zmm21")
EMU_LO(e_pxord_xb, "vpxord 12(%%rdx)%{1to4%}, %%xmm3, %%xmm9")
EMU_HI(e_pxord_zrip, "vpxord evex_test_rip(%%rip), %%zmm17, %%zmm21")
EMU_HI(e_tern96_z, "vpternlogd $0x96, %%zmm26, %%zmm17, %%zmm21")
EMU_LO(e_tern96_x, "vpternlogd $0x96, %%xmm12, %%xmm3, %%xmm9")
EMU_HI(e_terne8_z, "vpternlogd $0xe8, %%zmm26, %%zmm17, %%zmm21")
EMU_LO(e_tern1b_zk, "vpternlogd $0x1b, %%zmm12, %%zmm3, %%zmm9%{%%k2%}")
EMU_HI(e_paddq_z, "vpaddq %%zmm26, %%zmm17, %%zmm21")
EMU_HI(e_paddq_zm, "vpaddq 64(%%rdx), %%zmm17, %%zmm21")
EMU_HI(e_psubq_zk, "vpsubq %%zmm26, %%zmm17, %%zmm21%{%%k5%}")
EMU_HI(e_psubq_yk, "vpsubq %%ymm26, %%ymm17, %%ymm21%{%%k5%}")
EMU_HI(e_paddb_z, "vpaddb %%zmm26, %%zmm17, %%zmm21")
EMU_LO(e_paddb_zm, "vpaddb 64(%%rdx), %%zmm3, %%zmm9")
EMU_HI(e_psubb_zk, "vpsubb %%zmm26, %%zmm17, %%zmm21%{%%k5%}")
EMU_LO(e_psubb_z, "vpsubb %%zmm12, %%zmm3, %%zmm9")
EMU_LO(e_punpcklbw, "vpunpcklbw %%zmm12, %%zmm3, %%zmm9")
EMU_HI(e_punpckhbw, "vpunpckhbw %%zmm26, %%zmm17, %%zmm21")
EMU_HI(e_punpckldq, "vpunpckldq %%zmm26, %%zmm17, %%zmm21")
EMU_LO(e_punpckhdq, "vpunpckhdq %%zmm12, %%zmm3, %%zmm9")
EMU_HI(e_punpcklqdq, "vpunpcklqdq %%zmm26, %%zmm17, %%zmm21")
EMU_HI(e_punpckhqdq, "vpunpckhqdq %%zmm26, %%zmm17, %%zmm21")
EMU_HI(e_punpckhdq_yk, "vpunpckhdq %%ymm26, %%ymm17, %%ymm21%{%%k5%}%{z%}")
EMU_HI(e_pshufb_z, "vpshufb %%zmm26, %%zmm17, %%zmm21")
EMU_LO(e_pshufb_x, "%{evex%} vpshufb %%xmm12, %%xmm3, %%xmm9")
EMU_HI(e_pshufb_zk, "vpshufb %%zmm26, %%zmm17, %%zmm21%{%%k5%}")
EMU_HI(e_pshufb_zrip, "vpshufb evex_test_rip(%%rip), %%zmm17, %%zmm21")
EMU_HI(e_prord8_z, "vprord $8, %%zmm26, %%zmm21")
EMU_HI(e_prord16_x, "vprord $16, %%xmm26, %%xmm21")
EMU_LO(e_prord24_z, "vprord $24, %%zmm12, %%zmm9")
EMU_HI(e_psrlq5_z, "vpsrlq $5, %%zmm26, %%zmm21")
EMU_HI(e_psllq63_z, "vpsllq $63, %%zmm26, %%zmm21")
EMU_LO(e_psrlq63_z, "vpsrlq $63, %%zmm12, %%zmm9")
EMU_HI(e_pslldq8_z, "vpslldq $8, %%zmm26, %%zmm21")
EMU_LO(e_pslldq3_y, "%{evex%} vpslldq $3, %%ymm12, %%ymm9")
EMU_HI(e_psrldq8_z, "vpsrldq $8, %%zmm26, %%zmm21")
EMU_LO(e_psrldq5_y, "%{evex%} vpsrldq $5, %%ymm12, %%ymm9")
EMU_HI(e_pshufd_z, "vpshufd $0x4e, %%zmm26, %%zmm21")
EMU_LO(e_pshufd_zkz, "vpshufd $0x1b, %%zmm12, %%zmm9%{%%k2%}%{z%}")
EMU_HI(e_psrlq_x, "vpsrlq %%xmm26, %%xmm17, %%xmm21")
EMU_HI(e_psllq_x, "vpsllq %%xmm26, %%xmm17, %%xmm21")
EMU_HI(e_psrlq_zx, "vpsrlq %%xmm26, %%zmm17, %%zmm21")
EMU_HI(e_psrlvq_zm, "vpsrlvq 64(%%rdx), %%zmm17, %%zmm21")
EMU_HI(e_psllvq_zm, "vpsllvq -128(%%rdx), %%zmm17, %%zmm21")
EMU_HI(e_clmul00_zrip, "vpclmulqdq $0x00, evex_test_rip(%%rip), %%zmm17, %%zmm21")
EMU_HI(e_clmul01_zm, "vpclmulqdq $0x01, 64(%%rdx), %%zmm17, %%zmm21")
EMU_LO(e_clmul10_z, "vpclmulqdq $0x10, %%zmm12, %%zmm3, %%zmm9")
EMU_HI(e_clmul11_y, "vpclmulqdq $0x11, %%ymm26, %%ymm17, %%ymm21")
EMU_HI(e_bcast128_zm, "vbroadcasti32x4 16(%%rdx), %%zmm21")
EMU_LO(e_bcast128_zmkz, "vbroadcasti32x4 16(%%rdx), %%zmm9%{%%k2%}%{z%}")
EMU_HI(e_bcastq_zm, "vpbroadcastq 8(%%rdx), %%zmm21")
EMU_HI(e_bcastd_zm, "vpbroadcastd 4(%%rdx), %%zmm21")
EMU_LO(e_bcastd_zm_lo, "vpbroadcastd 60(%%rdx), %%zmm9")
EMU_HI(e_movu_zm, "vmovdqu32 64(%%rdx), %%zmm21")
EMU_LO(e_movu_zmkz, "vmovdqu32 192(%%rdx), %%zmm9%{%%k2%}%{z%}")
EMU_HI(e_movu_xmkz, "vmovdqu32 16(%%rdx), %%xmm21%{%%k5%}%{z%}")
EMU_HI(e_movu_ymk, "vmovdqu32 36(%%rdx), %%ymm21%{%%k5%}")
EMU_HI(e_movu_xm, "vmovdqu32 (%%rdx), %%xmm21")
EMU_HI(e_movu64_zm, "vmovdqu64 64(%%rdx), %%zmm21")
EMU_HI(e_movu64_zrip, "vmovdqu64 evex_test_rip(%%rip), %%zmm21")
EMU_HI(e_movu64_st_z, "vmovdqu64 %%zmm26, -64(%%rdx)")
EMU_HI(e_mova_zz, "vmovdqa64 %%zmm26, %%zmm21")
EMU_LO(e_mova_xx, "vmovdqa64 %%xmm12, %%xmm9")
EMU_HI(e_mova_zm, "vmovdqa64 64(%%rdx), %%zmm21")
EMU_HI(e_movu_st_z, "vmovdqu32 %%zmm26, 64(%%rdx)")
EMU_LO(e_movu_st_zk, "vmovdqu32 %%zmm12, -64(%%rdx)%{%%k2%}")
EMU_HI(e_movu_st_xk, "vmovdqu32 %%xmm26, 16(%%rdx)%{%%k5%}")
EMU_HI(e_movu_st_x, "vmovdqu32 %%xmm26, (%%rdx)")
EMU_HI(e_mova_st_z, "vmovdqa64 %%zmm26, 128(%%rdx)")
EMU_HI(e_gfinv_z0, "vgf2p8affineinvqb $0, %%zmm26, %%zmm17, %%zmm21")
EMU_LO(e_gfinv_x, "%{evex%} vgf2p8affineinvqb $0x5b, %%xmm12, %%xmm3, %%xmm9")
EMU_HI(e_gfinv_zb, "vgf2p8affineinvqb $0xd3, 16(%%rdx)%{1to8%}, %%zmm17, %%zmm21")
EMU_HI(e_gfinv_zrip, "vgf2p8affineinvqb $0, evex_test_rip(%%rip)%{1to8%}, %%zmm17, %%zmm21")
EMU_HI(e_gf_z, "vgf2p8affineqb $0x3c, %%zmm26, %%zmm17, %%zmm21")
EMU_LO(e_gf_x, "%{evex%} vgf2p8affineqb $0, %%xmm12, %%xmm3, %%xmm9")
EMU_HI(e_gf_zb, "vgf2p8affineqb $0, -8(%%rdx)%{1to8%}, %%zmm17, %%zmm21")
EMU_HI(e_gf_zk, "vgf2p8affineqb $0x11, %%zmm26, %%zmm17, %%zmm21%{%%k5%}%{z%}")
EMU_HI(e_cmpltuq_z, "vpcmpltuq %%zmm26, %%zmm17, %%k6")
EMU_HI(e_cmpltuq_zm, "vpcmpltuq 64(%%rdx), %%zmm17, %%k6")
EMU_LO(e_cmpequq_zk, "vpcmpequq %%zmm12, %%zmm3, %%k6%{%%k2%}")
EMU_HI(e_cmpnleuq_x, "vpcmpnleuq %%xmm26, %%xmm17, %%k6")
EMU_HI(e_cmpltub_z, "vpcmpltub %%zmm26, %%zmm17, %%k6")
EMU_LO(e_cmpltub_zm, "vpcmpltub 64(%%rdx), %%zmm3, %%k6")
EMU_LO(e_cmpequb_zk, "vpcmpequb %%zmm12, %%zmm3, %%k6%{%%k2%}")
EMU_HI(e_alignq6, "valignq $6, %%zmm26, %%zmm17, %%zmm21")
EMU_LO(e_alignq3, "valignq $3, %%zmm12, %%zmm3, %%zmm9")
EMU_HI(e_shufi_z, "vshufi64x2 $0x4e, %%zmm26, %%zmm17, %%zmm21")
EMU_LO(e_shufi_zb1, "vshufi64x2 $0xb1, %%zmm12, %%zmm3, %%zmm9")
EMU_HI(e_shufi_y, "vshufi64x2 $0x01, %%ymm26, %%ymm17, %%ymm21")
EMU_HI(e_extract1, "vextracti32x4 $1, %%zmm26, %%xmm21")
EMU_LO(e_extract3, "vextracti32x4 $3, %%zmm12, %%xmm9")
EMU_HI(e_extract2k, "vextracti32x4 $2, %%zmm26, %%xmm21%{%%k5%}")
EMU_HI(e_extract_y, "vextracti32x4 $1, %%ymm26, %%xmm21")
EMU_HI(e_insert1, "vinserti64x4 $1, %%ymm26, %%zmm17, %%zmm21")
EMU_LO(e_insert0_m, "vinserti64x4 $0, 32(%%rdx), %%zmm3, %%zmm9")
/*
 * The SM4 instructions as bytes (Debian 12's binutils does not know
 * them; encodings from binutils 2.47): vsm4rnds4/vsm4key4 %zmm26, %zmm17,
 * %zmm21 and %zmm12, %zmm3, %zmm9; vsm4rnds4 128(%rdx), %zmm17, %zmm21
 * (disp8*64); vsm4key4 68(%rdx), %zmm3, %zmm9 (disp32).
 */
EMU_HI(e_sm4rnds4_z, ".byte 0x62, 0x82, 0x77, 0x40, 0xda, 0xea")
EMU_HI(e_sm4key4_z, ".byte 0x62, 0x82, 0x76, 0x40, 0xda, 0xea")
EMU_LO(e_sm4rnds4_z_lo, ".byte 0x62, 0x52, 0x67, 0x48, 0xda, 0xcc")
EMU_LO(e_sm4key4_z_lo, ".byte 0x62, 0x52, 0x66, 0x48, 0xda, 0xcc")
EMU_HI(e_sm4rnds4_zm, ".byte 0x62, 0xe2, 0x77, 0x40, 0xda, 0x6a, 0x02")
EMU_LO(e_sm4key4_zd32, ".byte 0x62, 0x72, 0x66, 0x48, 0xda, 0x8a, 0x44, 0, 0, 0")

/* vsm4rnds4/vsm4key4 %ymm2, %ymm1, %ymm3 (VEX; emulated by sm4ni_emu.c) */
NAT(n_sm4rnds4, ".byte 0xc4, 0xe2, 0x77, 0xda, 0xda")
NAT(n_sm4key4, ".byte 0xc4, 0xe2, 0x76, 0xda, 0xda")

#define M_B	T_MEMB
#define MK	(T_MASK)
#define MKZ	(T_MASK | T_Z)
#define E(nm, fn, vl, esz, fl, bsz, disp, nat, model, imm, rlen)	\
	{ nm, fn, vl, esz, fl, bsz, disp, nat, model, imm, rlen }

static const struct etest tests[] = {
	E("vpxord zmm", e_pxord_z, 64, 4, 0, 0, 0, n_pxor, NULL, 0, 0),
	E("vpxorq zmm", e_pxorq_z, 64, 8, 0, 0, 0, n_pxor, NULL, 0, 0),
	E("vpxorq zmm (zmm0-15)", e_pxorq_z_lo, 64, 8, 0, 0, 0, n_pxor, NULL, 0, 0),
	E("vpandq zmm", e_pandq_z, 64, 8, 0, 0, 0, n_pand, NULL, 0, 0),
	E("vpandq RIP-relative m512", e_pandq_zrip, 64, 8, T_RIP, 0, 0, n_pand, NULL, 0, 0),
	E("vpxord zmm (zmm0-15)", e_pxord_z_lo, 64, 4, 0, 0, 0, n_pxor, NULL, 0, 0),
	E("vpxord xmm", e_pxord_x, 16, 4, 0, 0, 0, n_pxor, NULL, 0, 0),
	E("vpxord ymm {k}", e_pxord_ykm, 32, 4, MK, 0, 0, n_pxor, NULL, 0, 0),
	E("vpxord m512 (disp8*64)", e_pxord_zm, 64, 4, M_B, 0, 128, n_pxor, NULL, 0, 0),
	E("vpxord m512 (disp32)", e_pxord_zd32, 64, 4, M_B, 0, 68, n_pxor, NULL, 0, 0),
	E("vpxord m512 {k}{z}", e_pxord_zmkz, 64, 4, M_B | MKZ, 0, -64, n_pxor, NULL, 0, 0),
	E("vpxord m128 {k}{z}", e_pxord_xmkz, 16, 4, M_B | MKZ, 0, 32, n_pxor, NULL, 0, 0),
	E("vpxord m32{1to16}", e_pxord_zb, 64, 4, M_B, 4, 8, n_pxor, NULL, 0, 0),
	E("vpxord m32{1to4} xmm", e_pxord_xb, 16, 4, M_B, 4, 12, n_pxor, NULL, 0, 0),
	E("vpxord RIP-relative m512", e_pxord_zrip, 64, 4, T_RIP, 0, 0, n_pxor, NULL, 0, 0),
	E("vpternlogd $0x96 zmm", e_tern96_z, 64, 4, 0, 0, 0, n_xor3, NULL, 0x96, 0),
	E("vpternlogd $0x96 xmm", e_tern96_x, 16, 4, 0, 0, 0, n_xor3, NULL, 0x96, 0),
	E("vpternlogd $0xe8 zmm", e_terne8_z, 64, 4, 0, 0, 0, NULL, m_ternlog, 0xe8, 0),
	E("vpternlogd $0x1b zmm {k}", e_tern1b_zk, 64, 4, MK, 0, 0, NULL, m_ternlog, 0x1b, 0),
	E("vpaddq zmm", e_paddq_z, 64, 8, 0, 0, 0, n_paddq, NULL, 0, 0),
	E("vpaddq m512", e_paddq_zm, 64, 8, M_B, 0, 64, n_paddq, NULL, 0, 0),
	E("vpsubq zmm {k}", e_psubq_zk, 64, 8, MK, 0, 0, n_psubq, NULL, 0, 0),
	E("vpsubq ymm {k}", e_psubq_yk, 32, 8, MK, 0, 0, n_psubq, NULL, 0, 0),
	E("vpaddb zmm", e_paddb_z, 64, 1, 0, 0, 0, n_paddb, NULL, 0, 0),
	E("vpaddb m512 (zmm0-15)", e_paddb_zm, 64, 1, M_B, 0, 64, n_paddb, NULL, 0, 0),
	E("vpsubb zmm {k}", e_psubb_zk, 64, 1, MK, 0, 0, n_psubb, NULL, 0, 0),
	E("vpsubb zmm (zmm0-15)", e_psubb_z, 64, 1, 0, 0, 0, n_psubb, NULL, 0, 0),
	E("vpunpcklbw zmm", e_punpcklbw, 64, 1, 0, 0, 0, n_punpcklbw, NULL, 0, 0),
	E("vpunpckhbw zmm", e_punpckhbw, 64, 1, 0, 0, 0, n_punpckhbw, NULL, 0, 0),
	E("vpunpckldq zmm", e_punpckldq, 64, 4, 0, 0, 0, n_punpckldq, NULL, 0, 0),
	E("vpunpckhdq zmm", e_punpckhdq, 64, 4, 0, 0, 0, n_punpckhdq, NULL, 0, 0),
	E("vpunpcklqdq zmm", e_punpcklqdq, 64, 8, 0, 0, 0, n_punpcklqdq, NULL, 0, 0),
	E("vpunpckhqdq zmm", e_punpckhqdq, 64, 8, 0, 0, 0, n_punpckhqdq, NULL, 0, 0),
	E("vpunpckhdq ymm {k}{z}", e_punpckhdq_yk, 32, 4, MKZ, 0, 0, n_punpckhdq, NULL, 0, 0),
	E("vpshufb zmm", e_pshufb_z, 64, 1, 0, 0, 0, n_pshufb, NULL, 0, 0),
	E("vpshufb xmm", e_pshufb_x, 16, 1, 0, 0, 0, n_pshufb, NULL, 0, 0),
	E("vpshufb zmm {k}", e_pshufb_zk, 64, 1, MK, 0, 0, n_pshufb, NULL, 0, 0),
	E("vpshufb RIP-relative m512", e_pshufb_zrip, 64, 1, T_RIP, 0, 0, n_pshufb, NULL, 0, 0),
	E("vprord $8 zmm", e_prord8_z, 64, 4, 0, 0, 0, n_ror8, NULL, 0, 0),
	E("vprord $16 xmm", e_prord16_x, 16, 4, 0, 0, 0, n_ror16, NULL, 0, 0),
	E("vprord $24 zmm", e_prord24_z, 64, 4, 0, 0, 0, n_ror24, NULL, 0, 0),
	E("vpsrlq $5 zmm", e_psrlq5_z, 64, 8, 0, 0, 0, n_psrlq5, NULL, 0, 0),
	E("vpsllq $63 zmm", e_psllq63_z, 64, 8, 0, 0, 0, n_psllq63, NULL, 0, 0),
	E("vpsrlq $63 zmm", e_psrlq63_z, 64, 8, 0, 0, 0, n_psrlq63, NULL, 0, 0),
	E("vpslldq $8 zmm", e_pslldq8_z, 64, 1, 0, 0, 0, n_pslldq8, NULL, 0, 0),
	E("vpslldq $3 ymm", e_pslldq3_y, 32, 1, 0, 0, 0, n_pslldq3, NULL, 0, 0),
	E("vpsrldq $8 zmm", e_psrldq8_z, 64, 1, 0, 0, 0, n_psrldq8, NULL, 0, 0),
	E("vpsrldq $5 ymm", e_psrldq5_y, 32, 1, 0, 0, 0, n_psrldq5, NULL, 0, 0),
	E("vpshufd $0x4e zmm", e_pshufd_z, 64, 4, 0, 0, 0, n_pshufd4e, NULL, 0, 0),
	E("vpshufd $0x1b zmm {k}{z}", e_pshufd_zkz, 64, 4, MKZ, 0, 0, n_pshufd1b, NULL, 0, 0),
	E("vpsrlq xmm count, xmm", e_psrlq_x, 16, 8, T_COUNTS, 0, 0, n_psrlq_x, NULL, 0, 0),
	E("vpsllq xmm count, xmm", e_psllq_x, 16, 8, T_COUNTS, 0, 0, n_psllq_x, NULL, 0, 0),
	E("vpsrlq xmm count, zmm", e_psrlq_zx, 64, 8, T_COUNTS, 8, 0, n_psrlq_x, NULL, 0, 0),
	E("vpsrlvq m512", e_psrlvq_zm, 64, 8, M_B | T_COUNTS, 0, 64, n_psrlvq, NULL, 0, 0),
	E("vpsllvq m512", e_psllvq_zm, 64, 8, M_B | T_COUNTS, 0, -128, n_psllvq, NULL, 0, 0),
	E("vpclmulqdq $0x00 RIP-relative m512", e_clmul00_zrip, 64, 8, T_RIP, 0, 0, n_clmul00, NULL, 0, 0),
	E("vpclmulqdq $0x01 m512", e_clmul01_zm, 64, 8, M_B, 0, 64, n_clmul01, NULL, 0, 0),
	E("vpclmulqdq $0x10 zmm", e_clmul10_z, 64, 8, 0, 0, 0, n_clmul10, NULL, 0, 0),
	E("vpclmulqdq $0x11 ymm", e_clmul11_y, 32, 8, 0, 0, 0, n_clmul11, NULL, 0, 0),
	E("vbroadcasti32x4 m128", e_bcast128_zm, 64, 4, M_B, 16, 16, n_bcast128, NULL, 0, 0),
	E("vbroadcasti32x4 m128 {k}{z}", e_bcast128_zmkz, 64, 4, M_B | MKZ, 16, 16, n_bcast128, NULL, 0, 0),
	E("vpbroadcastq m64", e_bcastq_zm, 64, 8, M_B, 8, 8, n_bcastq, NULL, 0, 0),
	E("vpbroadcastd m32", e_bcastd_zm, 64, 4, M_B, 4, 4, n_bcastd, NULL, 0, 0),
	E("vpbroadcastd m32 (zmm0-15)", e_bcastd_zm_lo, 64, 4, M_B, 4, 60, n_bcastd, NULL, 0, 0),
	E("vmovdqu32 m512", e_movu_zm, 64, 4, M_B, 0, 64, n_mov, NULL, 0, 0),
	E("vmovdqu32 m512 {k}{z}", e_movu_zmkz, 64, 4, M_B | MKZ, 0, 192, n_mov, NULL, 0, 0),
	E("vmovdqu32 m128 {k}{z}", e_movu_xmkz, 16, 4, M_B | MKZ, 0, 16, n_mov, NULL, 0, 0),
	E("vmovdqu32 m256 {k}", e_movu_ymk, 32, 4, M_B | MK, 0, 36, n_mov, NULL, 0, 0),
	E("vmovdqu32 m128", e_movu_xm, 16, 4, M_B, 0, 0, n_mov, NULL, 0, 0),
	E("vmovdqu64 m512", e_movu64_zm, 64, 8, M_B, 0, 64, n_mov, NULL, 0, 0),
	E("vmovdqu64 RIP m512", e_movu64_zrip, 64, 8, T_RIP, 0, 0, n_mov, NULL, 0, 0),
	E("vmovdqu64 zmm to m512", e_movu64_st_z, 64, 8, T_STORE, 0, -64, n_mov, NULL, 0, 0),
	E("vmovdqa64 zmm", e_mova_zz, 64, 8, 0, 0, 0, n_mov, NULL, 0, 0),
	E("vmovdqa64 xmm", e_mova_xx, 16, 8, 0, 0, 0, n_mov, NULL, 0, 0),
	E("vmovdqa64 m512", e_mova_zm, 64, 8, M_B, 0, 64, n_mov, NULL, 0, 0),
	E("vmovdqu32 zmm to m512", e_movu_st_z, 64, 4, T_STORE, 0, 64, n_mov, NULL, 0, 0),
	E("vmovdqu32 zmm to m512 {k}", e_movu_st_zk, 64, 4, T_STORE | MK, 0, -64, n_mov, NULL, 0, 0),
	E("vmovdqu32 xmm to m128 {k}", e_movu_st_xk, 16, 4, T_STORE | MK, 0, 16, n_mov, NULL, 0, 0),
	E("vmovdqu32 xmm to m128", e_movu_st_x, 16, 4, T_STORE, 0, 0, n_mov, NULL, 0, 0),
	E("vmovdqa64 zmm to m512", e_mova_st_z, 64, 8, T_STORE, 0, 128, n_mov, NULL, 0, 0),
	E("vgf2p8affineinvqb $0 zmm", e_gfinv_z0, 64, 1, 0, 0, 0, NULL, m_affineinv, 0, 0),
	E("vgf2p8affineinvqb $0x5b xmm", e_gfinv_x, 16, 1, 0, 0, 0, NULL, m_affineinv, 0x5b, 0),
	E("vgf2p8affineinvqb m64{1to8}", e_gfinv_zb, 64, 1, M_B, 8, 16, NULL, m_affineinv, 0xd3, 0),
	E("vgf2p8affineinvqb RIP m64{1to8}", e_gfinv_zrip, 64, 1, T_RIP, 8, 0, NULL, m_affineinv, 0, 0),
	E("vgf2p8affineqb $0x3c zmm", e_gf_z, 64, 1, 0, 0, 0, NULL, m_affine, 0x3c, 0),
	E("vgf2p8affineqb $0 xmm", e_gf_x, 16, 1, 0, 0, 0, NULL, m_affine, 0, 0),
	E("vgf2p8affineqb m64{1to8}", e_gf_zb, 64, 1, M_B, 8, -8, NULL, m_affine, 0, 0),
	E("vgf2p8affineqb zmm {k}{z}", e_gf_zk, 64, 1, MKZ, 0, 0, NULL, m_affine, 0x11, 0),
	E("vpcmpltuq zmm", e_cmpltuq_z, 64, 8, T_KDST | T_EQUAL, 0, 0, NULL, m_cmpu, 1, 0),
	E("vpcmpltuq m512", e_cmpltuq_zm, 64, 8, T_KDST | T_EQUAL | M_B, 0, 64, NULL, m_cmpu, 1, 0),
	E("vpcmpequq zmm {k}", e_cmpequq_zk, 64, 8, T_KDST | T_EQUAL | MK, 0, 0, NULL, m_cmpu, 0, 0),
	E("vpcmpnleuq xmm", e_cmpnleuq_x, 16, 8, T_KDST | T_EQUAL, 0, 0, NULL, m_cmpu, 6, 0),
	E("vpcmpltub zmm", e_cmpltub_z, 64, 1, T_KDST | T_EQUAL, 0, 0, NULL, m_cmpu, 1, 0),
	E("vpcmpltub m512", e_cmpltub_zm, 64, 1, T_KDST | T_EQUAL | M_B, 0, 64, NULL, m_cmpu, 1, 0),
	E("vpcmpequb zmm {k}", e_cmpequb_zk, 64, 1, T_KDST | T_EQUAL | MK, 0, 0, NULL, m_cmpu, 0, 0),
	E("valignq $6 zmm", e_alignq6, 64, 8, 0, 0, 0, NULL, m_alignq, 6, 0),
	E("valignq $3 zmm", e_alignq3, 64, 8, 0, 0, 0, NULL, m_alignq, 3, 0),
	E("vshufi64x2 $0x4e zmm", e_shufi_z, 64, 8, 0, 0, 0, NULL, m_shufi64x2, 0x4e, 0),
	E("vshufi64x2 $0xb1 zmm", e_shufi_zb1, 64, 8, 0, 0, 0, NULL, m_shufi64x2, 0xb1, 0),
	E("vshufi64x2 $0x01 ymm", e_shufi_y, 32, 8, 0, 0, 0, n_perm2i128, NULL, 0, 0),
	E("vextracti32x4 $1 zmm", e_extract1, 64, 4, 0, 0, 0, NULL, m_extract, 1, 16),
	E("vextracti32x4 $3 zmm", e_extract3, 64, 4, 0, 0, 0, NULL, m_extract, 3, 16),
	E("vextracti32x4 $2 zmm {k}", e_extract2k, 64, 4, MK, 0, 0, NULL, m_extract, 2, 16),
	E("vextracti32x4 $1 ymm", e_extract_y, 32, 4, 0, 0, 0, n_extract128, NULL, 0, 16),
	E("vinserti64x4 $1 ymm", e_insert1, 64, 8, 0, 0, 0, NULL, m_insert, 1, 0),
	E("vinserti64x4 $0 m256", e_insert0_m, 64, 8, M_B, 0, 32, NULL, m_insert, 0, 0),
	E("vsm4rnds4 zmm", e_sm4rnds4_z, 64, 4, T_SM4EMU, 0, 0, n_sm4rnds4, NULL, 0, 0),
	E("vsm4key4 zmm", e_sm4key4_z, 64, 4, T_SM4EMU, 0, 0, n_sm4key4, NULL, 0, 0),
	E("vsm4rnds4 zmm (zmm0-15)", e_sm4rnds4_z_lo, 64, 4, T_SM4EMU, 0, 0, n_sm4rnds4, NULL, 0, 0),
	E("vsm4key4 zmm (zmm0-15)", e_sm4key4_z_lo, 64, 4, T_SM4EMU, 0, 0, n_sm4key4, NULL, 0, 0),
	E("vsm4rnds4 m512 (disp8*64)", e_sm4rnds4_zm, 64, 4, M_B | T_SM4EMU, 0, 128, n_sm4rnds4, NULL, 0, 0),
	E("vsm4key4 m512 (disp32)", e_sm4key4_zd32, 64, 4, M_B | T_SM4EMU, 0, 68, n_sm4key4, NULL, 0, 0),
};

/* Merging or zeroing of the elements a mask leaves out, zeros above. */
static void apply_mask(const struct etest *t, const struct vregs *v,
		       const uint8_t *r, unsigned int rlen, uint8_t *want)
{
	static const uint8_t zero[64];
	unsigned int j;

	memset(want, 0, 64);
	for (j = 0; j < rlen / t->esz; j++) {
		bool on = !(t->flags & T_MASK) || (v->kin >> j & 1);
		const uint8_t *src = on ? r : (t->flags & T_Z) ? zero : v->d;

		memcpy(want + j * t->esz, src + j * t->esz, t->esz);
	}
}

static void report(bool ok, const char *name, const char *oracle,
		   unsigned long iters, unsigned long bad)
{
	ok = ok && iters;	/* no cases: nothing was checked */
	printf("%s: evex-emu: %s vs %s: %lu cases, %lu wrong\n",
	       ok ? "PASS" : "FAIL", name, oracle, iters, bad);
	if (ok)
		n_passed++;
	else
		n_failed++;
}

/* A shift count 0..70 in qword @i. */
static void setq_count(uint8_t *p, unsigned int i)
{
	uint64_t c = rnd() % 71;

	memcpy(p + 8 * i, &c, 8);
}

static bool run_one(const struct etest *t, struct vregs *v)
{
	uint8_t r[64], want[64];
	unsigned int rlen = t->rlen ? t->rlen : t->vl, i, h;
	uint64_t k = 0;

	fill((uint8_t *)v, offsetof(struct vregs, kout));
	if (t->flags & T_COUNTS)
		for (i = 0; i < 8; i++)
			setq_count(v->b, i);
	if (t->flags & T_EQUAL)
		for (i = 0; i < 8; i++)
			if (rnd() & 1)
				memcpy(v->b + 8 * i, v->a + 8 * i, 8);
	if (t->bsz)
		for (i = t->bsz; i < 64; i++)
			v->b[i] = v->b[i % t->bsz];
	if (t->flags & T_RIP)
		memcpy(evex_test_rip, v->b, 64);
	memcpy(v->mout, v->d, 64);
	v->memp = ((t->flags & T_STORE) ? v->mout : v->b) - t->disp;
	v->kout = 0;
	t->emu(v);

	memset(r, 0, sizeof(r));
	if (t->nat) {
		for (h = 0; h < (t->vl + 31) / 32; h++)
			t->nat(v->a + 32 * h, v->b + 32 * h, v->d + 32 * h,
			       r + 32 * h);
	} else {
		t->model(v, t, r, &k);
	}
	if (t->flags & T_KDST) {
		if (t->flags & T_MASK)
			k &= v->kin;
		return v->kout == k;
	}
	if (t->flags & T_STORE) {
		/* Only the selected elements are written. */
		memcpy(want, v->d, 64);
		for (i = 0; i < t->vl / t->esz; i++)
			if (!(t->flags & T_MASK) || (v->kin >> i & 1))
				memcpy(want + i * t->esz, r + i * t->esz, t->esz);
		return !memcmp(want, v->mout, 64);
	}
	apply_mask(t, v, r, rlen, want);
	return !memcmp(want, v->out, 64);
}

/* ---- AES S-box, opmask instructions, fault suppression, shadow ---- */

/* S-box = affine(inv(x)): the AES matrix as a GF2P8AFFINEQB qword, 0x63. */
#define AES_AFFINE	0xf1e3c78f1f3e7cf8ull

static void test_aes_sbox(unsigned long iters)
{
	static const uint8_t shift_rows[16] = {
		0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11
	};
	uint8_t x[64], m[64], g[64], n[16];
	unsigned long it, bad = 0;
	unsigned int i;

	for (i = 0; i < 8; i++)
		memcpy(m + 8 * i, &(uint64_t){ AES_AFFINE }, 8);
	for (it = 0; it < iters; it++) {
		fill(x, sizeof(x));
		asm volatile("vmovdqu32 (%1), %%zmm20\n\t"
			     "vmovdqu32 (%2), %%zmm5\n\t"
			     "vgf2p8affineinvqb $0x63, %%zmm5, %%zmm20, %%zmm30\n\t"
			     "vmovdqu32 %%zmm30, (%0)\n\t"
			     : : "r"(g), "r"(x), "r"(m) : VCLOBBER);
		for (i = 0; i < 64; i += 16) {
			/* AESENCLAST with a zero key: ShiftRows(SubBytes()). */
			asm volatile("vmovdqu (%1), %%xmm1\n\t"
				     "vpxor %%xmm2, %%xmm2, %%xmm2\n\t"
				     "vaesenclast %%xmm2, %%xmm1, %%xmm1\n\t"
				     "vmovdqu %%xmm1, (%0)\n\t"
				     : : "r"(n), "r"(x + i) : VCLOBBER);
			for (unsigned int j = 0; j < 16; j++)
				bad += n[j] != g[i + shift_rows[j]];
		}
	}
	report(!bad, "vgf2p8affineinvqb $0x63 (AES matrix) zmm",
	       "native AESENCLAST", iters, bad);
}

static void test_kinsns(unsigned long iters)
{
	unsigned long it, bad = 0;

	for (it = 0; it < iters; it++) {
		uint64_t in = rnd(), in2 = rnd(), o[5];

		asm volatile("kmovq %5, %%k4\n\t"
			     "kmovq %6, %%k1\n\t"
			     "kshiftrq $16, %%k4, %%k5\n\t"
			     "kshiftrq $0x30, %%k4, %%k7\n\t"
			     "kxorq %%k1, %%k4, %%k3\n\t"
			     "kshiftlw $1, %%k1, %%k1\n\t"
			     "kxorq %%k2, %%k2, %%k2\n\t"
			     "kmovq %%k5, %0\n\t"
			     "kmovq %%k7, %1\n\t"
			     "kmovq %%k3, %2\n\t"
			     "kmovq %%k1, %3\n\t"
			     "kmovq %%k2, %4\n\t"
			     : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]), "=r"(o[3]),
			       "=r"(o[4])
			     : "r"(in), "r"(in2));
		bad += o[0] != in >> 16 || o[1] != in >> 48 ||
		       o[2] != (in ^ in2) || o[3] != ((in2 << 1) & 0xffff) ||
		       o[4] != 0;
	}
	report(!bad, "kmovq, kshiftrq, kshiftlw, kxorq", "model", iters,
	       bad);
}

/*
 * Masked loads and stores whose unselected elements lie on an
 * inaccessible page must neither fault nor touch it.
 */
static void test_fault_suppression(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *map = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *edge, got[128], want[128];
	bool ok;

	if (map == MAP_FAILED || mprotect(map + pg, pg, PROT_NONE)) {
		report(false, "fault suppression", "no mapping", 0, 1);
		return;
	}
	edge = map + pg - 16;		/* 16 bytes, then the guard page */
	fill(edge, 16);
	memset(want, 0, sizeof(want));
	memcpy(want, edge, 16);
	asm volatile("movq $0xf, %%rax\n\t"
		     "kmovq %%rax, %%k3\n\t"
		     "vmovdqu32 (%1), %%zmm18%{%%k3%}%{z%}\n\t"
		     "vpxord (%1), %%zmm18, %%zmm19%{%%k3%}%{z%}\n\t"
		     "vmovdqu32 %%zmm18, (%0)\n\t"
		     "vmovdqu32 %%zmm18, (%1)%{%%k3%}\n\t"
		     "vmovdqu32 %%zmm19, 64(%0)\n\t"
		     : : "r"(got), "r"(edge) : VCLOBBER);
	ok = !memcmp(got, want, 128) && !memcmp(edge, want, 16);
	report(ok, "masked vmovdqu32/vpxord at a guard page",
	       "no fault, 16 bytes", 1, !ok);
	munmap(map, 2 * pg);
}

/*
 * A native VEX.128 write and VZEROUPPER zero bits 511:128 of zmm0-15;
 * the shadow must follow.
 */
static void test_native_writes(void)
{
	uint8_t in[64], x[16], got[2][64], want[2][64];
	bool ok;

	fill(in, sizeof(in));
	fill(x, sizeof(x));
	asm volatile("vmovdqu32 (%2), %%zmm3\n\t"
		     "vmovdqu (%3), %%xmm3\n\t"		/* native VEX.128 */
		     "vmovdqu32 %%zmm3, (%0)\n\t"
		     "vmovdqu32 (%2), %%zmm7\n\t"
		     "vzeroupper\n\t"			/* native */
		     "vmovdqu32 %%zmm7, (%1)\n\t"
		     : : "r"(got[0]), "r"(got[1]), "r"(in), "r"(x)
		     : VCLOBBER);
	memset(want, 0, sizeof(want));
	memcpy(want[0], x, 16);
	memcpy(want[1], in, 16);
	ok = !memcmp(got, want, sizeof(got));
	report(ok, "zmm0-15 bits 511:128 after native vmovdqu xmm and vzeroupper",
	       "SDM (zeroed)", 1, !ok);
}

int main(int argc, char **argv)
{
	unsigned long iters = 500, it, bad;
	struct vregs *v;
	unsigned int i;

	if (argc == 3 && !strcmp(argv[1], "--iters")) {
		iters = strtoul(argv[2], NULL, 0);
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [--iters N]\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f")) {
		printf("SKIP: evex-emu: this CPU has AVX-512, nothing to emulate\n");
		printf("0 passed, 0 failed\n");
		return 0;
	}
	if (sm4_avx512_emu_install() || sm4_ni_emu_install())
		return 1;
	v = aligned_alloc(64, sizeof(*v));
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		for (it = bad = 0; it < iters; it++)
			bad += !run_one(&tests[i], v);
		report(!bad, tests[i].name,
		       tests[i].flags & T_SM4EMU ? "VEX twin under sm4ni_emu.c" :
		       tests[i].nat ? "native VEX twin" : "model", iters, bad);
	}
	test_aes_sbox(iters);
	test_kinsns(iters);
	test_fault_suppression();
	test_native_writes();
	if (sm4_avx512_emu_count) {
		printf("NOTE: %lu instructions emulated\n",
		       sm4_avx512_emu_count);
	} else {
		printf("FAIL: evex-emu: 0 instructions emulated: the emulator was never reached\n");
		n_failed++;
	}
	printf("%u passed, %u failed\n", n_passed, n_failed);
	free(v);
	return n_failed ? 1 : 0;
}
