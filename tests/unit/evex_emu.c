// SPDX-License-Identifier: GPL-2.0
/*
 * An emulator of the AVX-512 instructions of the GFNI/AVX-512 backend
 * (arch/x86/sm4-gfni-avx512-asm_64.S) and of the SM4-instruction zmm
 * backend (arch/x86/sm4-ni-avx10-asm_64.S), for the harness on a CPU
 * with AVX2 but without AVX-512, GFNI and SM4 (sm4-test --emulate-avx512;
 * the EVEX SM4 forms need --emulate-sm4ni too).  Written from
 * the "Operation" sections of the instructions in Intel's SDM, vol. 2,
 * and its description of EVEX (2.7: the prefix, embedded broadcast,
 * compressed displacement disp8*N; 2.8: opmasks, merging and zeroing,
 * memory fault suppression).  Slow (one signal per run of emulated
 * instructions, vex_emu.c), meant for correctness only.
 *
 * Taken: exactly the forms of the backends' objects (objdump -d), plus
 * KMOVQ r64, k for the emulator's self-test (evex_emu_test.c):
 *   EVEX: VPXORD, VPXORQ, VPANDQ, VPADDQ, VPSUBQ, VPADDB, VPSUBB,
 *	VPUNPCK{L,H}{BW,DQ,QDQ},
 *	VPSHUFB,
 *	VPTERNLOGD, VPRORD, VPSLLQ/VPSRLQ (imm8 and xmm count), VPSLLVQ,
 *	VPSRLVQ, VPSLLDQ, VPSRLDQ, VPSHUFD, VPCLMULQDQ, VGF2P8AFFINEQB,
 *	VGF2P8AFFINEINVQB, VPCMPUQ and VPCMPUB (into k), VALIGNQ,
 *	VSHUFI64X2, VEXTRACTI32X4, VBROADCASTI32X4, VPBROADCASTQ,
 *	VPBROADCASTD, VINSERTI64X4,
 *	VSM4RNDS4 and VSM4KEY4 (no masks, sm4ni_emu.c computes them),
 *	VMOVDQU32, VMOVDQU64 and VMOVDQA64 (loads, stores, register
 *	moves); on xmm,
 *	ymm and zmm, register or memory
 *	operands, {k} merging and {z} zeroing where the SDM allows them,
 *	{1toN} broadcasts where it allows them;
 *   VEX: KMOVQ k, r64, KMOVQ r64, k, KSHIFTL/KSHIFTR (all widths),
 *	KXOR (all widths).
 * An element a mask leaves out is never read from or written to memory
 * (fault suppression: the backend's partial batches rely on it next to
 * the harness's guard pages).  A misaligned VMOVDQA64 operand aborts (the
 * CPU raises #GP).  Any other form, EVEX.b on a register operand
 * (rounding control), a mask or {z} where the instruction has none, VL
 * 128 where it is #UD, is not taken: the process dies on its SIGILL,
 * with a line naming the instruction (vex_emu.c).
 *
 * On a CPU with AVX-512 (the OS enabling its state in XCR0), the emulator
 * takes the instructions this CPU lacks (the EVEX SM4 forms without
 * AVX10.2, GFNI or VPCLMULQDQ on zmm on an older AVX-512 part), and
 * whatever emulated instruction follows them, on the real zmm0-31 and
 * k0-7 in the signal frame's XSAVE area: the opmask (5), ZMM_Hi256 (6)
 * and Hi16_ZMM (7) components at the offsets CPUID leaf 0xd gives, a
 * component whose XSTATE_BV bit is clear being in its initial state
 * (zeros).  The shadow below is not used then.
 *
 * Register state without AVX-512.  This CPU has no zmm16-31, no bits
 * 511:256 of zmm0-15 and no opmask registers, so the emulator keeps them
 * in a shadow of its own; bits 255:0 of zmm0-15 are the real ymm
 * registers in the signal frame's XSAVE area (vex_emu_get/set), so
 * native code sees them.
 * Native VEX instructions executed between emulated ones do not update
 * the shadow, yet architecturally they zero bits 511:256 of their
 * destination (VZEROUPPER: of zmm0-15).  The emulator handles it as far
 * as it can see it: it remembers bits 255:0 of zmm0-15 as it last left
 * them, and a register found changed on reading was written natively,
 * so its shadow bits 511:256 are cleared.  A native write of the very
 * value the register already held goes unseen.  In this backend that does
 * not matter: its natively executed VEX instructions (vmovd, vpshufd,
 * vpunpck*, vpclmulqdq and vpslldq on xmm in the 1-block, 2..4-block
 * and XTS paths; vpshufb, vpclmulqdq, vpslldq, vpsrldq and vpshufd on
 * xmm in gcm_init and the GHASH of 1..4-block tails; vzeroupper and
 * vzeroall before returning) write registers that are next read as xmm
 * only, or written by an EVEX instruction first.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cpuid.h>
#include "evex_emu.h"
#include "gfni_emu.h"
#include "sm4ni_emu.h"
#include "vex_emu.h"

unsigned long sm4_avx512_emu_count;
bool sm4_avx512_emu_active;

static uint8_t zmm_hi[16][32];	/* bits 511:256 of zmm0-15 */
static uint8_t ymm_left[16][32];	/* bits 255:0 of zmm0-15 as last left */
static uint8_t zmm_16_31[16][64];
static uint64_t kreg[8];

/* AVX-512 state in the signal frame: component offsets (native mode). */
bool sm4_avx512_emu_native;
enum { X_OPMASK = 5, X_ZMM_HI256 = 6, X_HI16_ZMM = 7 };
static const unsigned int xsize[8] = {
	[X_OPMASK] = 64, [X_ZMM_HI256] = 512, [X_HI16_ZMM] = 1024,
};
static unsigned int xoffset[8];

/*
 * Component @c of the frame's XSAVE area; if its XSTATE_BV bit is clear
 * (initial state, contents undefined), zeroed first when @write (and its
 * bit set), else NULL.
 */
static uint8_t *xcomp(const ucontext_t *uc, unsigned int c, bool write)
{
	uint8_t *fx = (uint8_t *)uc->uc_mcontext.fpregs;
	uint64_t bv;

	memcpy(&bv, fx + 512, 8);
	if (!(bv >> c & 1)) {
		if (!write)
			return NULL;
		memset(fx + xoffset[c], 0, xsize[c]);
		bv |= 1ull << c;
		memcpy(fx + 512, &bv, 8);
	}
	return fx + xoffset[c];
}

/* Native mode: kreg[] from the frame, and back into it. */
static void kload(const ucontext_t *uc)
{
	const uint8_t *k;

	if (!sm4_avx512_emu_native)
		return;
	k = xcomp(uc, X_OPMASK, false);
	if (k)
		memcpy(kreg, k, sizeof(kreg));
	else
		memset(kreg, 0, sizeof(kreg));
}

static void kstore(ucontext_t *uc)
{
	if (sm4_avx512_emu_native)
		memcpy(xcomp(uc, X_OPMASK, true), kreg, sizeof(kreg));
}

/* Register @n (0..31), all 64 bytes, in the frame (native mode). */
static void zget_native(const ucontext_t *uc, unsigned int n, uint8_t *v)
{
	const uint8_t *x;

	if (n >= 16) {
		x = xcomp(uc, X_HI16_ZMM, false);
		if (x)
			memcpy(v, x + 64 * (n - 16), 64);
		else
			memset(v, 0, 64);
		return;
	}
	vex_emu_get(uc, n, v);
	x = xcomp(uc, X_ZMM_HI256, false);
	if (x)
		memcpy(v + 32, x + 32 * n, 32);
	else
		memset(v + 32, 0, 32);
}

static void zset_native(ucontext_t *uc, unsigned int n, const uint8_t *v)
{
	if (n >= 16) {
		memcpy(xcomp(uc, X_HI16_ZMM, true) + 64 * (n - 16), v, 64);
		return;
	}
	vex_emu_set(uc, n, v, 32);
	memcpy(xcomp(uc, X_ZMM_HI256, true) + 32 * n, v + 32, 32);
}

/* Register @n (0..31), all 64 bytes. */
static void zget(const ucontext_t *uc, unsigned int n, uint8_t *v)
{
	if (sm4_avx512_emu_native) {
		zget_native(uc, n, v);
		return;
	}
	if (n >= 16) {
		memcpy(v, zmm_16_31[n - 16], 64);
		return;
	}
	vex_emu_get(uc, n, v);
	if (memcmp(v, ymm_left[n], 32)) {
		/* Written by a native VEX instruction: bits 511:256 are 0. */
		memset(zmm_hi[n], 0, 32);
		memcpy(ymm_left[n], v, 32);
	}
	memcpy(v + 32, zmm_hi[n], 32);
}

static void zset(ucontext_t *uc, unsigned int n, const uint8_t *v)
{
	if (sm4_avx512_emu_native) {
		zset_native(uc, n, v);
		return;
	}
	if (n >= 16) {
		memcpy(zmm_16_31[n - 16], v, 64);
		return;
	}
	vex_emu_set(uc, n, v, 32);
	memcpy(ymm_left[n], v, 32);
	memcpy(zmm_hi[n], v + 32, 32);
}

static uint64_t q(const uint8_t *p, unsigned int i)
{
	uint64_t v;

	memcpy(&v, p + 8 * i, 8);
	return v;
}

static void setq(uint8_t *p, unsigned int i, uint64_t v)
{
	memcpy(p + 8 * i, &v, 8);
}

/* The operands of one instruction; vl: vector length in bytes. */
struct ev_args {
	uint8_t a[64];		/* first source (vvvv) */
	uint8_t b[64];		/* second source (rm, or reg for stores) */
	uint8_t d[64];		/* the destination's old value */
	uint8_t r[64];		/* the result */
	uint64_t kres;		/* the result of a compare into k */
	unsigned int vl;
	uint8_t imm;
};

struct ev_form;
/* Computes x->r (or x->kres); returns the result's length in bytes. */
typedef unsigned int (*ev_op)(struct ev_args *x, const struct ev_form *f);

enum { D_REG, D_VVVV, D_RM, D_K };	/* where the result goes */
#define F_IMM		1	/* an imm8 follows */
#define F_SRC1		2	/* reads vvvv */
#define F_NOMASK	4	/* no opmask, no {z} */
#define F_MEMONLY	8	/* rm must be memory */
#define F_NO128		16	/* VL 128 is #UD */
#define F_ALIGNED	32	/* memory operand aligned to VL (#GP) */
#define F_512		64	/* VL 512 only */

struct ev_form {
	const char *name;
	uint8_t map, pp, opcode;
	int8_t w;		/* EVEX.W, -1: ignored */
	int8_t ext;		/* ModRM.reg of group opcodes, -1: none */
	uint8_t dst;		/* D_* */
	uint8_t esz;		/* element size of the masking */
	uint8_t bsz;		/* {1toN} element size, 0: no broadcast */
	uint8_t msz;		/* memory operand size, 0: VL */
	uint8_t flags;
	ev_op op;
	uint8_t p;		/* parameter of op */
};

static unsigned int op_mov(struct ev_args *x, const struct ev_form *f)
{
	memcpy(x->r, x->b, x->vl);
	return x->vl;
}

/* p: 0 XOR (VPXORD, VPXORQ), 1 AND (VPANDQ). */
static unsigned int op_xor(struct ev_args *x, const struct ev_form *f)
{
	unsigned int i;

	for (i = 0; i < x->vl; i++)
		x->r[i] = f->p ? x->a[i] & x->b[i] : x->a[i] ^ x->b[i];
	return x->vl;
}

/* p: 0 add, 1 subtract (qwords). */
static unsigned int op_addsubq(struct ev_args *x, const struct ev_form *f)
{
	unsigned int i;

	for (i = 0; i < x->vl / 8; i++)
		setq(x->r, i, f->p ? q(x->a, i) - q(x->b, i) :
			      q(x->a, i) + q(x->b, i));
	return x->vl;
}

/* VPADDB (p 0), VPSUBB (p 1): bytes, modulo 256. */
static unsigned int op_addsubb(struct ev_args *x, const struct ev_form *f)
{
	unsigned int i;

	for (i = 0; i < x->vl; i++)
		x->r[i] = f->p ? x->a[i] - x->b[i] : x->a[i] + x->b[i];
	return x->vl;
}

/* PUNPCKL/H: p = element size, + 0x80 for the high half of each lane. */
static unsigned int op_unpck(struct ev_args *x, const struct ev_form *f)
{
	unsigned int s = f->p & 0x7f, half = f->p & 0x80 ? 8 : 0;
	unsigned int lane, i;

	for (lane = 0; lane < x->vl; lane += 16)
		for (i = 0; i < 8 / s; i++) {
			memcpy(x->r + lane + 2 * i * s,
			       x->a + lane + half + i * s, s);
			memcpy(x->r + lane + (2 * i + 1) * s,
			       x->b + lane + half + i * s, s);
		}
	return x->vl;
}

static unsigned int op_pshufb(struct ev_args *x, const struct ev_form *f)
{
	unsigned int i;

	for (i = 0; i < x->vl; i++)
		x->r[i] = x->b[i] & 0x80 ? 0 :
			  x->a[(i & ~15u) + (x->b[i] & 15)];
	return x->vl;
}

/* Result bit = imm8 bit (dest << 2 | src1 << 1 | src2), bit by bit. */
static unsigned int op_ternlog(struct ev_args *x, const struct ev_form *f)
{
	unsigned int i, idx;

	for (i = 0; i < x->vl / 8; i++) {
		uint64_t d = q(x->d, i), a = q(x->a, i), b = q(x->b, i), r = 0;

		for (idx = 0; idx < 8; idx++)
			if (x->imm >> idx & 1)
				r |= (idx & 4 ? d : ~d) & (idx & 2 ? a : ~a) &
				     (idx & 1 ? b : ~b);
		setq(x->r, i, r);
	}
	return x->vl;
}

/* p: 1 for the INV form. */
static unsigned int op_gfni(struct ev_args *x, const struct ev_form *f)
{
	unsigned int i;

	for (i = 0; i < x->vl; i++)
		x->r[i] = sm4_gfni_affine(q(x->b, i / 8), x->a[i], x->imm,
					  f->p);
	return x->vl;
}

/* VPRORD: rm rotated right by imm8 in each dword. */
static unsigned int op_rord(struct ev_args *x, const struct ev_form *f)
{
	unsigned int i, n = x->imm & 31;
	uint32_t v;

	for (i = 0; i < x->vl; i += 4) {
		memcpy(&v, x->b + i, 4);
		v = n ? v >> n | v << (32 - n) : v;
		memcpy(x->r + i, &v, 4);
	}
	return x->vl;
}

static uint64_t shq(uint64_t v, uint64_t n, bool left)
{
	if (n > 63)
		return 0;
	return left ? v << n : v >> n;
}

/* p: 1 left.  VPSLLQ/VPSRLQ imm8: rm shifted by imm8. */
static unsigned int op_shq_imm(struct ev_args *x, const struct ev_form *f)
{
	unsigned int i;

	for (i = 0; i < x->vl / 8; i++)
		setq(x->r, i, shq(q(x->b, i), x->imm, f->p));
	return x->vl;
}

/* VPSLLQ/VPSRLQ xmm: vvvv shifted by the low qword of xmm/m128. */
static unsigned int op_shq_x(struct ev_args *x, const struct ev_form *f)
{
	unsigned int i;

	for (i = 0; i < x->vl / 8; i++)
		setq(x->r, i, shq(q(x->a, i), q(x->b, 0), f->p));
	return x->vl;
}

/* VPSLLVQ/VPSRLVQ: each qword of vvvv by the qword of rm. */
static unsigned int op_shq_v(struct ev_args *x, const struct ev_form *f)
{
	unsigned int i;

	for (i = 0; i < x->vl / 8; i++)
		setq(x->r, i, shq(q(x->a, i), q(x->b, i), f->p));
	return x->vl;
}

/*
 * VPSLLDQ (p 0), VPSRLDQ (p 1): each lane of rm shifted left or right by
 * imm8 bytes (16 or more: zero).
 */
static unsigned int op_bshift(struct ev_args *x, const struct ev_form *f)
{
	unsigned int lane, i, src;

	for (lane = 0; lane < x->vl; lane += 16)
		for (i = 0; i < 16; i++) {
			src = f->p ? i + x->imm : i - x->imm;
			x->r[lane + i] = (f->p ? src < 16 : i >= x->imm) ?
					 x->b[lane + src] : 0;
		}
	return x->vl;
}

/* VPSHUFD: dword i of each lane of rm is dword imm8[2i+1:2i] of it. */
static unsigned int op_pshufd(struct ev_args *x, const struct ev_form *f)
{
	unsigned int lane, i;

	for (lane = 0; lane < x->vl; lane += 16)
		for (i = 0; i < 4; i++)
			memcpy(x->r + lane + 4 * i,
			       x->b + lane + 4 * (x->imm >> (2 * i) & 3), 4);
	return x->vl;
}

static unsigned int op_clmul(struct ev_args *x, const struct ev_form *f)
{
	unsigned int lane, i;

	for (lane = 0; lane < x->vl / 16; lane++) {
		uint64_t s1 = q(x->a, 2 * lane + (x->imm & 1));
		uint64_t s2 = q(x->b, 2 * lane + (x->imm >> 4 & 1));
		uint64_t lo = 0, hi = 0;

		for (i = 0; i < 64; i++)
			if (s2 >> i & 1) {
				lo ^= s1 << i;
				if (i)
					hi ^= s1 >> (64 - i);
			}
		setq(x->r, 2 * lane, lo);
		setq(x->r, 2 * lane + 1, hi);
	}
	return x->vl;
}

/*
 * VPCMPUQ, VPCMPUB (elements of f->esz bytes): imm8 0 EQ, 1 LT, 2 LE,
 * 3 FALSE; 4..7 are their negations (NEQ, NLT, NLE, TRUE).
 */
static unsigned int op_cmpu(struct ev_args *x, const struct ev_form *f)
{
	unsigned int i, p = x->imm & 3;

	x->kres = 0;
	for (i = 0; i < x->vl / f->esz; i++) {
		uint64_t a = f->esz == 1 ? x->a[i] : q(x->a, i);
		uint64_t b = f->esz == 1 ? x->b[i] : q(x->b, i);
		bool c = p == 0 ? a == b : p == 1 ? a < b : p == 2 && a <= b;

		x->kres |= (uint64_t)(c ^ !!(x->imm & 4)) << i;
	}
	return x->vl;
}

/* VALIGNQ: qwords of vvvv:rm (rm low) shifted right by imm8 qwords. */
static unsigned int op_alignq(struct ev_args *x, const struct ev_form *f)
{
	uint8_t t[128];

	memcpy(t, x->b, x->vl);
	memcpy(t + x->vl, x->a, x->vl);
	memcpy(x->r, t + 8 * (x->imm & (x->vl / 8 - 1)), x->vl);
	return x->vl;
}

/*
 * VSHUFI64X2: the low half of the lanes from vvvv, the high half from
 * rm, each chosen by its imm8 field (1 bit per lane for 256, 2 for 512).
 */
static unsigned int op_shufi64x2(struct ev_args *x, const struct ev_form *f)
{
	unsigned int n = x->vl / 16, bits = n == 4 ? 2 : 1, lane, sel;

	for (lane = 0; lane < n; lane++) {
		sel = (x->imm >> (bits * lane)) & (n - 1);
		memcpy(x->r + 16 * lane,
		       (lane < n / 2 ? x->a : x->b) + 16 * sel, 16);
	}
	return x->vl;
}

/* VEXTRACTI32X4: lane imm8 of reg (the source, in x->b). */
static unsigned int op_extract(struct ev_args *x, const struct ev_form *f)
{
	memcpy(x->r, x->b + 16 * (x->imm & (x->vl / 16 - 1)), 16);
	return 16;
}

/* VINSERTI64X4: vvvv with its half imm8[0] replaced by the ymm rm. */
static unsigned int op_insert(struct ev_args *x, const struct ev_form *f)
{
	memcpy(x->r, x->a, 64);
	memcpy(x->r + 32 * (x->imm & 1), x->b, 32);
	return 64;
}

/* VSM4RNDS4 (p = 0), VSM4KEY4 (p = 1): per lane, sm4ni_emu.c. */
static unsigned int op_sm4(struct ev_args *x, const struct ev_form *f)
{
	uint32_t a[16], b[16], r[16];

	memcpy(a, x->a, x->vl);
	memcpy(b, x->b, x->vl);
	sm4_ni_lanes(a, b, r, x->vl / 16, f->p);
	memcpy(x->r, r, x->vl);
	return x->vl;
}

/*
 * VBROADCASTI32X4, VPBROADCASTQ, VPBROADCASTD: the low msz bytes of rm,
 * repeated.
 */
static unsigned int op_bcast(struct ev_args *x, const struct ev_form *f)
{
	unsigned int i;

	for (i = 0; i < x->vl; i += f->msz)
		memcpy(x->r + i, x->b, f->msz);
	return x->vl;
}

#define FORM(nm, m, pp, opc, w, ext, dst, esz, bsz, msz, fl, op, p) \
	{ nm, m, pp, opc, w, ext, dst, esz, bsz, msz, fl, op, p }

static const struct ev_form forms[] = {
	/* 66 0F */
	FORM("vpxord", 1, 1, 0xef, 0, -1, D_REG, 4, 4, 0, F_SRC1, op_xor, 0),
	FORM("vpxorq", 1, 1, 0xef, 1, -1, D_REG, 8, 8, 0, F_SRC1, op_xor, 0),
	FORM("vpandq", 1, 1, 0xdb, 1, -1, D_REG, 8, 8, 0, F_SRC1, op_xor, 1),
	FORM("vpaddq", 1, 1, 0xd4, 1, -1, D_REG, 8, 8, 0, F_SRC1, op_addsubq, 0),
	FORM("vpsubq", 1, 1, 0xfb, 1, -1, D_REG, 8, 8, 0, F_SRC1, op_addsubq, 1),
	FORM("vpaddb", 1, 1, 0xfc, -1, -1, D_REG, 1, 0, 0, F_SRC1, op_addsubb, 0),
	FORM("vpsubb", 1, 1, 0xf8, -1, -1, D_REG, 1, 0, 0, F_SRC1, op_addsubb, 1),
	FORM("vpunpcklbw", 1, 1, 0x60, -1, -1, D_REG, 1, 0, 0, F_SRC1, op_unpck, 1),
	FORM("vpunpckhbw", 1, 1, 0x68, -1, -1, D_REG, 1, 0, 0, F_SRC1, op_unpck, 0x81),
	FORM("vpunpckldq", 1, 1, 0x62, 0, -1, D_REG, 4, 4, 0, F_SRC1, op_unpck, 4),
	FORM("vpunpckhdq", 1, 1, 0x6a, 0, -1, D_REG, 4, 4, 0, F_SRC1, op_unpck, 0x84),
	FORM("vpunpcklqdq", 1, 1, 0x6c, 1, -1, D_REG, 8, 8, 0, F_SRC1, op_unpck, 8),
	FORM("vpunpckhqdq", 1, 1, 0x6d, 1, -1, D_REG, 8, 8, 0, F_SRC1, op_unpck, 0x88),
	FORM("vmovdqa64", 1, 1, 0x6f, 1, -1, D_REG, 8, 0, 0, F_ALIGNED, op_mov, 0),
	FORM("vmovdqa64", 1, 1, 0x7f, 1, -1, D_RM, 8, 0, 0, F_ALIGNED, op_mov, 0),
	FORM("vprord", 1, 1, 0x72, 0, 0, D_VVVV, 4, 4, 0, F_IMM, op_rord, 0),
	FORM("vpsrlq", 1, 1, 0x73, 1, 2, D_VVVV, 8, 8, 0, F_IMM, op_shq_imm, 0),
	FORM("vpsllq", 1, 1, 0x73, 1, 6, D_VVVV, 8, 8, 0, F_IMM, op_shq_imm, 1),
	FORM("vpslldq", 1, 1, 0x73, -1, 7, D_VVVV, 1, 0, 0, F_IMM | F_NOMASK,
	     op_bshift, 0),
	FORM("vpsrldq", 1, 1, 0x73, -1, 3, D_VVVV, 1, 0, 0, F_IMM | F_NOMASK,
	     op_bshift, 1),
	FORM("vpshufd", 1, 1, 0x70, 0, -1, D_REG, 4, 4, 0, F_IMM, op_pshufd, 0),
	FORM("vpsrlq", 1, 1, 0xd3, 1, -1, D_REG, 8, 0, 16, F_SRC1, op_shq_x, 0),
	FORM("vpsllq", 1, 1, 0xf3, 1, -1, D_REG, 8, 0, 16, F_SRC1, op_shq_x, 1),
	/* F3 0F */
	FORM("vmovdqu32", 1, 2, 0x6f, 0, -1, D_REG, 4, 0, 0, 0, op_mov, 0),
	FORM("vmovdqu32", 1, 2, 0x7f, 0, -1, D_RM, 4, 0, 0, 0, op_mov, 0),
	FORM("vmovdqu64", 1, 2, 0x6f, 1, -1, D_REG, 8, 0, 0, 0, op_mov, 0),
	FORM("vmovdqu64", 1, 2, 0x7f, 1, -1, D_RM, 8, 0, 0, 0, op_mov, 0),
	/* 66 0F38 */
	FORM("vpshufb", 2, 1, 0x00, -1, -1, D_REG, 1, 0, 0, F_SRC1, op_pshufb, 0),
	FORM("vpbroadcastq", 2, 1, 0x59, 1, -1, D_REG, 8, 0, 8, 0, op_bcast, 0),
	FORM("vpbroadcastd", 2, 1, 0x58, 0, -1, D_REG, 4, 0, 4, 0, op_bcast, 0),
	FORM("vbroadcasti32x4", 2, 1, 0x5a, 0, -1, D_REG, 4, 0, 16,
	     F_MEMONLY | F_NO128, op_bcast, 0),
	FORM("vpsrlvq", 2, 1, 0x45, 1, -1, D_REG, 8, 8, 0, F_SRC1, op_shq_v, 0),
	FORM("vpsllvq", 2, 1, 0x47, 1, -1, D_REG, 8, 8, 0, F_SRC1, op_shq_v, 1),
	/* F3 0F38, F2 0F38 */
	FORM("vsm4key4", 2, 2, 0xda, 0, -1, D_REG, 4, 0, 0, F_SRC1 | F_NOMASK,
	     op_sm4, 1),
	FORM("vsm4rnds4", 2, 3, 0xda, 0, -1, D_REG, 4, 0, 0, F_SRC1 | F_NOMASK,
	     op_sm4, 0),
	/* 66 0F3A */
	FORM("valignq", 3, 1, 0x03, 1, -1, D_REG, 8, 8, 0, F_SRC1 | F_IMM,
	     op_alignq, 0),
	FORM("vpcmpuq", 3, 1, 0x1e, 1, -1, D_K, 8, 8, 0, F_SRC1 | F_IMM,
	     op_cmpu, 0),
	FORM("vpcmpub", 3, 1, 0x3e, 0, -1, D_K, 1, 0, 0, F_SRC1 | F_IMM,
	     op_cmpu, 0),
	FORM("vpternlogd", 3, 1, 0x25, 0, -1, D_REG, 4, 4, 0, F_SRC1 | F_IMM,
	     op_ternlog, 0),
	FORM("vextracti32x4", 3, 1, 0x39, 0, -1, D_RM, 4, 0, 16,
	     F_IMM | F_NO128, op_extract, 0),
	FORM("vinserti64x4", 3, 1, 0x3a, 1, -1, D_REG, 8, 0, 32,
	     F_SRC1 | F_IMM | F_512, op_insert, 0),
	FORM("vshufi64x2", 3, 1, 0x43, 1, -1, D_REG, 8, 8, 0,
	     F_SRC1 | F_IMM | F_NO128, op_shufi64x2, 0),
	FORM("vpclmulqdq", 3, 1, 0x44, -1, -1, D_REG, 8, 0, 0,
	     F_SRC1 | F_IMM | F_NOMASK, op_clmul, 0),
	FORM("vgf2p8affineqb", 3, 1, 0xce, 1, -1, D_REG, 1, 8, 0,
	     F_SRC1 | F_IMM, op_gfni, 0),
	FORM("vgf2p8affineinvqb", 3, 1, 0xcf, 1, -1, D_REG, 1, 8, 0,
	     F_SRC1 | F_IMM, op_gfni, 1),
};

static const struct ev_form *find_form(const struct vex_insn *in)
{
	unsigned int i;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		const struct ev_form *f = &forms[i];

		if (f->map == in->map && f->pp == in->pp &&
		    f->opcode == in->opcode &&
		    (f->w < 0 || f->w == (int)in->w) &&
		    (f->ext < 0 || f->ext == (int)(in->reg & 7)))
			return f;
	}
	return NULL;
}

/* The SDM's #UD cases of the taken forms, and what is not emulated. */
static bool form_ok(const struct ev_form *f, const struct vex_insn *in)
{
	if (in->l > 2 || (in->b && (!in->mem || !f->bsz)))
		return false;
	if ((f->flags & F_NOMASK) && (in->aaa || in->z))
		return false;
	if (in->z && (!in->aaa || f->dst == D_K ||
		      (f->dst == D_RM && in->mem)))
		return false;
	if (((f->flags & F_MEMONLY) && !in->mem) ||
	    ((f->flags & F_NO128) && in->l == 0) ||
	    ((f->flags & F_512) && in->l != 2))
		return false;
	/* Group opcodes and compares have no register in ModRM.reg. */
	if ((f->dst == D_VVVV || f->dst == D_K) && (in->reg & 0x18))
		return false;
	/* vvvv unused: must be 1111 (and V' 1). */
	if (!(f->flags & F_SRC1) && f->dst != D_VVVV && in->vvvv)
		return false;
	return true;
}

static bool selected(const struct vex_insn *in, unsigned int j)
{
	return !in->aaa || (kreg[in->aaa] >> j & 1);
}

/*
 * The memory operand at @ea into x->b: a broadcast element repeated, a
 * fixed-size operand, or VL bytes, of which a mask reads only the
 * selected elements.
 */
static void load_mem(struct ev_args *x, const struct ev_form *f,
		     const struct vex_insn *in, const uint8_t *ea)
{
	unsigned int j;

	memset(x->b, 0, sizeof(x->b));
	if (in->b) {
		for (j = 0; j < x->vl; j += f->bsz)
			memcpy(x->b + j, ea, f->bsz);
	} else if (f->msz) {
		memcpy(x->b, ea, f->msz);
	} else if (f->dst == D_RM) {
		/* a store: rm is the destination */
	} else {
		for (j = 0; j < x->vl / f->esz; j++)
			if (selected(in, j) || (f->flags & F_NOMASK))
				memcpy(x->b + j * f->esz, ea + j * f->esz,
				       f->esz);
	}
}

static int evex_emu(ucontext_t *uc, const struct vex_insn *in)
{
	static const uint8_t zero[64];
	const struct ev_form *f;
	struct ev_args x;
	unsigned int imm_bytes, n, len, j, dreg;
	uint8_t *ea = NULL;

	if (!in->evex)
		return -1;
	f = find_form(in);
	if (!f || !form_ok(f, in))
		return -1;
	kload(uc);
	imm_bytes = f->flags & F_IMM ? 1 : 0;
	x.vl = 16u << in->l;
	x.imm = imm_bytes ? *in->end : 0;
	if (in->mem) {
		/* disp8 * N: the broadcast element, the fixed size or VL. */
		n = in->b ? f->bsz : f->msz ? f->msz : x.vl;
		ea = (uint8_t *)vex_emu_ea(in, imm_bytes, n);
		if ((f->flags & F_ALIGNED) && ((uintptr_t)ea & (x.vl - 1))) {
			fprintf(stderr, "evex-emu: %s with misaligned memory operand %p at %p (#GP)\n",
				f->name, (void *)ea, (const void *)in->end);
			abort();
		}
	}
	if (f->flags & F_SRC1)
		zget(uc, in->vvvv, x.a);
	if (f->dst == D_RM)
		zget(uc, in->reg, x.b);
	else if (in->mem)
		load_mem(&x, f, in, ea);
	else
		zget(uc, in->rm, x.b);
	dreg = f->dst == D_VVVV ? in->vvvv : f->dst == D_RM ? in->rm : in->reg;
	if (f->dst != D_K && !(f->dst == D_RM && in->mem))
		zget(uc, dreg, x.d);
	len = f->op(&x, f);

	if (f->dst == D_K) {
		uint64_t all = len / f->esz == 64 ? ~0ull :
			       (1ull << (len / f->esz)) - 1;

		kreg[in->reg & 7] = x.kres & all &
				    (in->aaa ? kreg[in->aaa] : ~0ull);
		kstore(uc);
	} else if (f->dst == D_RM && in->mem) {
		for (j = 0; j < len / f->esz; j++)
			if (selected(in, j))
				memcpy(ea + j * f->esz, x.r + j * f->esz,
				       f->esz);
	} else {
		for (j = 0; j < len / f->esz; j++)
			if (!(f->flags & F_NOMASK) && !selected(in, j))
				memcpy(x.r + j * f->esz,
				       in->z ? zero : x.d + j * f->esz,
				       f->esz);
		memset(x.r + len, 0, 64 - len);
		zset(uc, dreg, x.r);
	}
	sm4_avx512_emu_count++;
	return (int)imm_bytes;
}

static uint64_t kwidth(uint64_t v, unsigned int bits)
{
	return bits == 64 ? v : v & ((1ull << bits) - 1);
}

/* The VEX-encoded opmask instructions (register operands only). */
static int kinsn_emu(ucontext_t *uc, const struct vex_insn *in)
{
	unsigned int bits, k = in->reg & 7, imm;

	if (in->evex || in->mem)
		return -1;
	kload(uc);
	if (in->map == 1 && in->pp == 3 && in->w && !in->l && !in->vvvv &&
	    in->opcode == 0x92) {
		/* KMOVQ k1, r64: VEX.L0.F2.0F.W1 92 /r */
		kreg[k] = (uint64_t)*vex_emu_gpr(uc, in->rm);
	} else if (in->map == 1 && in->pp == 3 && in->w && !in->l &&
		   !in->vvvv && in->opcode == 0x93) {
		/* KMOVQ r64, k1: VEX.L0.F2.0F.W1 93 /r */
		*vex_emu_gpr(uc, in->reg) = (greg_t)kreg[in->rm & 7];
	} else if (in->map == 1 && in->pp <= 1 && in->l && in->opcode == 0x47) {
		/* KXORW/Q (no prefix, W0/W1), KXORB/D (66, W0/W1): VEX.L1 47 */
		bits = in->pp ? (in->w ? 32 : 8) : (in->w ? 64 : 16);
		kreg[k] = kwidth(kreg[in->vvvv & 7] ^ kreg[in->rm & 7], bits);
	} else if (in->map == 3 && in->pp == 1 && !in->l && !in->vvvv &&
		   (in->opcode & ~3u) == 0x30) {
		/*
		 * KSHIFTR 30 (B W0, W W1), 31 (D W0, Q W1); KSHIFTL 32, 33:
		 * VEX.L0.66.0F3A /r ib; a count of at least the width gives 0.
		 */
		bits = (in->opcode & 1 ? 32 : 8) << in->w;
		imm = *in->end;
		if (imm >= bits)
			kreg[k] = 0;
		else if (in->opcode & 2)
			kreg[k] = kwidth(kwidth(kreg[in->rm & 7], bits) << imm,
					 bits);
		else
			kreg[k] = kwidth(kreg[in->rm & 7], bits) >> imm;
		kstore(uc);
		sm4_avx512_emu_count++;
		return 1;
	} else {
		return -1;
	}
	kstore(uc);
	sm4_avx512_emu_count++;
	return 0;
}

/*
 * Whether the OS enables the AVX-512 state (XCR0 bits 7:5), and then the
 * offsets of its components in the standard XSAVE layout.
 */
static bool avx512_state_native(void)
{
	unsigned int eax, ebx, ecx, edx, lo, hi, c;

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & (1u << 27)))
		return false;			/* no OSXSAVE */
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	if ((lo & 0xe0) != 0xe0)
		return false;
	for (c = X_OPMASK; c <= X_HI16_ZMM; c++) {
		if (!__get_cpuid_count(0xd, c, &eax, &ebx, &ecx, &edx) ||
		    eax < xsize[c] || !ebx)
			return false;
		xoffset[c] = ebx;
	}
	return true;
}

int sm4_avx512_emu_install(void)
{
	sm4_gfni_tables_init();
	if (sm4_ni_tables_init() ||
	    vex_emu_add(evex_emu) || vex_emu_add(kinsn_emu))
		return -1;
	sm4_avx512_emu_native = avx512_state_native();
	sm4_avx512_emu_active = true;
	return 0;
}
