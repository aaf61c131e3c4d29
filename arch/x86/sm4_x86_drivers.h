/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every x86-64 driver of this project, each described once.  Each module
 * is its assembly and the one glue source arch/x86/sm4_x86_glue.c, built
 * for one entry below (SM4_X86_DRIVER_<id> defined: arch/x86/Kbuild.inc),
 * which takes from it:
 *
 * SM4_X86_PREFIX	the assembly's prefix: <prefix>_ecb ... _xts (struct
 *			sm4_mode_ops), <prefix>_cbcmac, <prefix>_gcm_init,
 *			_ghash, _gcm_enc
 * SM4_X86_EXPAND_KEY	its key expansion, without table lookups
 * SM4_X86_BATCH	struct sm4_mode_ops' batch: the blocks of the widest
 *			batch of its mode bodies
 * SM4_X86_NAME		driver name suffix: "<mode>-sm4-<name>"
 * SM4_X86_MODULE	the name its log lines start with
 * SM4_X86_PRIORITY	cts, gcm and ccm one above
 * SM4_X86_FEATURES	{ SM4_X86_FEATURE(x), ... }: X86_FEATURE_x the CPU
 *			must have
 * SM4_X86_XSTATE	XFEATURE_MASK_* the OS must enable
 * SM4_X86_NEEDS	more conditions, SM4_X86_NEEDS_* (0: none)
 * SM4_X86_SMALL_PREFIX	optional: the code of requests shorter than
 *			SM4_X86_SMALL_BELOW bytes
 * SM4_X86_SMALL_BATCH	with it: the batch of that code
 * SM4_X86_SMALL_SERIAL	with it: 1 if their serial encryptions (CBC, CFB)
 *			stay on SM4_X86_PREFIX's code, 0 if not
 * SM4_X86_MACS		cbcmac/cmac/xcbc(sm4) and ccm(sm4) over
 *			<prefix>_cbcmac, _ccm_enc and _ccm_dec_mac (1) or
 *			not (0)
 * SM4_X86_CCM_SHORT	with SM4_X86_MACS: struct sm4_mac_ops'
 *			short_blocks (two less than the blocks its ecb
 *			encrypts side by side: B0 and A0 share the call)
 * SM4_X86_GCM_CLMUL	optional: gcm(sm4) where the CPU has this
 *			X86_FEATURE_* (the carry-less multiply its GHASH uses)
 * SM4_X86_GCM_SHORT	with it: struct sm4_gcm_ops' short_blocks (one less
 *			than the blocks of the widest ecb batch that costs
 *			less than E_K(J0) and gcm_enc: E_K(J0) shares it)
 * SM4_X86_GHASH_KA	optional, with it: the GHASH function (of the same
 *			table) that AMD's and Hygon's cores get instead of
 *			<prefix>_ghash
 * SM4_X86_GCM_WIDE	optional, with SM4_X86_GCM_CLMUL: an X86_FEATURE_*
 *			with which the CPU gets the ghash and gcm_enc of
 *			SM4_X86_GCM_WIDE_PREFIX (a wider GHASH of the same
 *			table, which <prefix>_gcm_init makes) instead
 * SM4_X86_DESCRIPTION	MODULE_DESCRIPTION
 *
 * The block counts are those of the widest batch of the mode bodies
 * (arch/x86/sm4-modes.S, sm4-gfni-avx512-asm_64.S).
 */

/* The SM4 instructions: no X86_FEATURE on 6.1 and 6.12 (compat.h). */
#define SM4_X86_NEEDS_SM4NI		BIT(0)
/* Their EVEX.512 forms: AVX10.2 with 512-bit vectors (the glue). */
#define SM4_X86_NEEDS_AVX10_2_512	BIT(1)
/* Refused where the CPU prefers ymm: "zmm policy" in doc/drivers.md. */
#define SM4_X86_NEEDS_ZMM_PAYS		BIT(2)

#if defined(SM4_X86_DRIVER_aesni_avx)
/* module sm4-aesni-avx-x86_64: AES-NI and AVX, 8 blocks. */
#define SM4_X86_PREFIX		sm4_aesni_avx
#define SM4_X86_EXPAND_KEY	sm4_aesni_avx_expand_key
#define SM4_X86_BATCH		8
#define SM4_X86_NAME		"aesni-avx"
#define SM4_X86_MODULE		"sm4-aesni-avx"
#define SM4_X86_PRIORITY	400
#define SM4_X86_FEATURES	{						\
	SM4_X86_FEATURE(AES), SM4_X86_FEATURE(AVX), SM4_X86_FEATURE(OSXSAVE) \
}
#define SM4_X86_XSTATE		(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM)
#define SM4_X86_NEEDS		0
#define SM4_X86_MACS		1
#define SM4_X86_CCM_SHORT	6
#define SM4_X86_GCM_CLMUL	PCLMULQDQ
#define SM4_X86_GCM_SHORT	7
#define SM4_X86_DESCRIPTION	"SM4 ECB/CBC/CFB/CTR/XTS/CTS, GCM, CCM and CBCMAC/CMAC/XCBC, AES-NI/AVX accelerated"

#elif defined(SM4_X86_DRIVER_aesni_avx2)
/* module sm4-aesni-avx2-x86_64: AES-NI and AVX2, 16 blocks. */
#define SM4_X86_PREFIX		sm4_aesni_avx2
#define SM4_X86_EXPAND_KEY	sm4_aesni_avx2_expand_key
#define SM4_X86_BATCH		16
#define SM4_X86_NAME		"aesni-avx2"
#define SM4_X86_MODULE		"sm4-aesni-avx2"
#define SM4_X86_PRIORITY	500
#define SM4_X86_FEATURES	{						\
	SM4_X86_FEATURE(AES), SM4_X86_FEATURE(AVX), SM4_X86_FEATURE(AVX2), \
	SM4_X86_FEATURE(OSXSAVE) \
}
#define SM4_X86_XSTATE		(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM)
#define SM4_X86_NEEDS		0
#define SM4_X86_MACS		1
#define SM4_X86_CCM_SHORT	14
#define SM4_X86_GCM_CLMUL	PCLMULQDQ
#define SM4_X86_GCM_SHORT	15
#define SM4_X86_DESCRIPTION	"SM4 ECB/CBC/CFB/CTR/XTS/CTS, GCM, CCM and CBCMAC/CMAC/XCBC, AES-NI/AVX2 accelerated"

#elif defined(SM4_X86_DRIVER_vaes_avx2)
/*
 * module sm4-vaes-avx2-x86_64: sm4-aesni-avx2's code with the S-box of a
 * ymm register in one VEX.256 VAESENCLAST (VAES), 16 blocks, and GHASH
 * on ymm where the CPU has VPCLMULQDQ (every VAES CPU does; QEMU's TCG
 * does not); priority between aesni-avx2 and gfni-avx2, so it serves the
 * CPUs with VAES and no GFNI (AMD Zen 3).
 */
#define SM4_X86_PREFIX		sm4_vaes_avx2
#define SM4_X86_EXPAND_KEY	sm4_vaes_avx2_expand_key
#define SM4_X86_BATCH		16
#define SM4_X86_NAME		"vaes-avx2"
#define SM4_X86_MODULE		"sm4-vaes-avx2"
#define SM4_X86_PRIORITY	520
#define SM4_X86_FEATURES	{						\
	SM4_X86_FEATURE(AES), SM4_X86_FEATURE(AVX), SM4_X86_FEATURE(AVX2), \
	SM4_X86_FEATURE(VAES), SM4_X86_FEATURE(OSXSAVE) \
}
#define SM4_X86_XSTATE		(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM)
#define SM4_X86_NEEDS		0
#define SM4_X86_MACS		1
#define SM4_X86_CCM_SHORT	14
#define SM4_X86_GCM_CLMUL	PCLMULQDQ
#define SM4_X86_GCM_WIDE	VPCLMULQDQ
#define SM4_X86_GCM_WIDE_PREFIX	sm4_vaes_avx2_wide
#define SM4_X86_GCM_SHORT	15
#define SM4_X86_DESCRIPTION	"SM4 ECB/CBC/CFB/CTR/XTS/CTS, GCM, CCM and CBCMAC/CMAC/XCBC, AES-NI/AVX2/VAES accelerated"

#elif defined(SM4_X86_DRIVER_gfni_avx2)
/*
 * module sm4-gfni-avx2-x86_64: GFNI (VEX) and AVX2, 16 blocks, for CPUs
 * without AVX-512: VEX-encoded GFNI on xmm and ymm (GFNI, AVX), 256-bit
 * integer operations and broadcasts (AVX2); its GHASH is VPCLMULQDQ on
 * ymm.
 */
#define SM4_X86_PREFIX		sm4_gfni_avx2
#define SM4_X86_EXPAND_KEY	sm4_gfni_avx2_expand_key
#define SM4_X86_BATCH		16
#define SM4_X86_NAME		"gfni-avx2"
#define SM4_X86_MODULE		"sm4-gfni-avx2"
#define SM4_X86_PRIORITY	550
#define SM4_X86_FEATURES	{						\
	SM4_X86_FEATURE(AVX), SM4_X86_FEATURE(AVX2), SM4_X86_FEATURE(GFNI), \
	SM4_X86_FEATURE(OSXSAVE) \
}
#define SM4_X86_XSTATE		(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM)
#define SM4_X86_NEEDS		0
#define SM4_X86_MACS		1
#define SM4_X86_CCM_SHORT	14
#define SM4_X86_GCM_CLMUL	VPCLMULQDQ
#define SM4_X86_GCM_SHORT	15
#define SM4_X86_DESCRIPTION	"SM4 ECB/CBC/CFB/CTR/XTS/CTS, GCM, CCM and CBCMAC/CMAC/XCBC, GFNI/AVX2 accelerated"

#elif defined(SM4_X86_DRIVER_gfni_avx512)
/*
 * module sm4-gfni-avx512-x86_64: GFNI and AVX-512, up to 64 blocks in
 * flight: EVEX GFNI on zmm and xmm (GFNI, AVX512F, AVX512VL), byte
 * shuffles and 64-bit mask registers (AVX512BW), carry-less
 * multiplication on zmm for XTS tweaks and GHASH (VPCLMULQDQ, and
 * PCLMULQDQ on xmm, which every CPU with VPCLMULQDQ has).  Requests
 * shorter than 9 blocks run on its copy of sm4-gfni-avx2's code
 * (sm4-gfni-avx512-ymm.S, AVX2), except CBC and CFB encryption:
 * measured natively on Sapphire Rapids, the zmm code's set-up (key
 * transform, tweaks and counters on zmm) costs more than it saves up to
 * 8 blocks and less from 9 on, while its serial encryption (one block at
 * a time on xmm, no 512-bit operation) is faster than the ymm code's at
 * every length ("zmm policy", doc/drivers.md).  No MACs or ccm(sm4):
 * sm4-gfni-avx2's serve.
 */
#define SM4_X86_PREFIX		sm4_gfni_avx512
#define SM4_X86_EXPAND_KEY	sm4_gfni_avx512_expand_key
#define SM4_X86_BATCH		64
#define SM4_X86_NAME		"gfni-avx512"
#define SM4_X86_MODULE		"sm4-gfni-avx512"
#define SM4_X86_PRIORITY	600
#define SM4_X86_FEATURES	{						\
	SM4_X86_FEATURE(AVX), SM4_X86_FEATURE(AVX2), SM4_X86_FEATURE(AVX512F), \
	SM4_X86_FEATURE(AVX512BW), SM4_X86_FEATURE(AVX512VL), SM4_X86_FEATURE(GFNI), \
	SM4_X86_FEATURE(VPCLMULQDQ), SM4_X86_FEATURE(OSXSAVE) \
}
#define SM4_X86_XSTATE		(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM | \
				 XFEATURE_MASK_AVX512)
#define SM4_X86_NEEDS		SM4_X86_NEEDS_ZMM_PAYS
#define SM4_X86_SMALL_PREFIX	sm4_gfni_avx512_ymm
#define SM4_X86_SMALL_BATCH	16
#define SM4_X86_SMALL_BELOW	(9 * SM4_BLOCK_SIZE)
#define SM4_X86_SMALL_SERIAL	1
#define SM4_X86_MACS		0
#define SM4_X86_GCM_CLMUL	VPCLMULQDQ
/*
 * Its ecb runs 17..32 blocks as one word-sliced zmm batch in 1.75
 * times the time of one block (Zen 5, natively; 16 blocks: 1.25), and
 * its gcm_enc of 16 blocks takes 2.25-2.5 times: a text of 16..31
 * blocks is faster as one ecb call of its keystream and E_K(J0) than as
 * E_K(J0) and gcm_enc (doc/performance.md, "twelfth round").
 */
#define SM4_X86_GCM_SHORT	31
/*
 * Karatsuba's three products a block (sm4-gfni-avx512-asm_64.S, "GCM")
 * for AMD's cores, whose VPCLMULQDQ issues at half Intel's rate: about a
 * fifth faster on Zen 5; on Intel the four products (port 5 bound
 * either way).
 */
#define SM4_X86_GHASH_KA	sm4_gfni_avx512_ghash_ka
#define SM4_X86_DESCRIPTION	"SM4 ECB/CBC/CFB/CTR/XTS/CTS and GCM, GFNI/AVX-512 accelerated"

#elif defined(SM4_X86_DRIVER_ni_avx2)
/*
 * module sm4-ni-x86_64: Intel's SM4 instructions (VSM4RNDS4, VSM4KEY4)
 * on ymm, 16 blocks; besides them VEX.256 encodings (AVX, with the ymm
 * state) and 256-bit integer operations and broadcasts (AVX2).  Verified
 * under an instruction emulator only ("SM4 instructions",
 * doc/drivers.md).
 */
#define SM4_X86_PREFIX		sm4_ni_avx2
#define SM4_X86_EXPAND_KEY	sm4_ni_expand_key
#define SM4_X86_BATCH		16
#define SM4_X86_NAME		"sm4ni-avx2"
#define SM4_X86_MODULE		"sm4-ni"
#define SM4_X86_PRIORITY	650
#define SM4_X86_FEATURES	{						\
	SM4_X86_FEATURE(AVX), SM4_X86_FEATURE(AVX2), SM4_X86_FEATURE(OSXSAVE) \
}
#define SM4_X86_XSTATE		(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM)
#define SM4_X86_NEEDS		SM4_X86_NEEDS_SM4NI
#define SM4_X86_MACS		1
#define SM4_X86_CCM_SHORT	14
#define SM4_X86_DESCRIPTION	"SM4 ECB/CBC/CFB/CTR/XTS/CTS, CCM and CBCMAC/CMAC/XCBC, Intel SM4 instructions (AVX2)"

#elif defined(SM4_X86_DRIVER_ni_avx10)
/*
 * module sm4-ni-avx10-x86_64: the EVEX forms of the SM4 instructions on
 * zmm, 32 blocks, the VEX forms for tails under 16 blocks and the key
 * expansion; besides them EVEX.512 loads, stores, XORs, broadcasts,
 * inserts and lane shuffles (AVX512F), byte shuffles on zmm (AVX512BW),
 * the VEX code (AVX, AVX2) and the AVX-512 state.  No MACs or ccm(sm4):
 * sm4-ni-x86_64's serve.  Verified under instruction emulators only.
 */
#define SM4_X86_PREFIX		sm4_ni_avx10
#define SM4_X86_EXPAND_KEY	sm4_ni_avx10_expand_key
#define SM4_X86_BATCH		32
#define SM4_X86_NAME		"sm4ni-avx10"
#define SM4_X86_MODULE		"sm4-ni-avx10"
#define SM4_X86_PRIORITY	660
#define SM4_X86_FEATURES	{						\
	SM4_X86_FEATURE(AVX), SM4_X86_FEATURE(AVX2), SM4_X86_FEATURE(AVX512F), \
	SM4_X86_FEATURE(AVX512BW), SM4_X86_FEATURE(OSXSAVE) \
}
#define SM4_X86_XSTATE		(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM | \
				 XFEATURE_MASK_AVX512)
#define SM4_X86_NEEDS		(SM4_X86_NEEDS_SM4NI | SM4_X86_NEEDS_AVX10_2_512)
#define SM4_X86_MACS		0
#define SM4_X86_DESCRIPTION	"SM4 ECB/CBC/CFB/CTR/XTS, Intel SM4 instructions (EVEX, AVX10.2)"

#else
#error "no x86 driver selected: define SM4_X86_DRIVER_<id> (arch/x86/Kbuild.inc)"
#endif
