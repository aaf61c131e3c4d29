/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 bulk functions with AES-NI and AVX2 (ymm, 16 blocks in parallel).
 * The round function, cores and mode bodies are in sm4-aesni-modes.S;
 * this file instantiates them for ymm registers (and xmm for 1-4 blocks
 * and for the serial CBC/CFB encryption).  Function signatures: see
 * SM4_DEFINE_MODE_OPS in include/sm4/modes.h.
 *
 * sm4-vaes-avx2-asm_64.S includes this file with SM4_VAES defined and
 * SM4_AVX2_FN naming its functions sm4_vaes_avx2_*: the same code with
 * the ymm S-box in one VAESENCLAST.
 */

#ifndef SM4_AVX2_FN
#define SM4_AVX2_FN(name)	sm4_aesni_avx2_##name
#endif

#include <linux/linkage.h>
#include <linux/cfi_types.h>
#include <asm/frame.h>
#include "sm4-aesni-modes.S"

.text

/* Units in vector registers 0-3 (xmm); see SM4_CORE. */
SYM_FUNC_START_LOCAL(sm4_core_xmm_1)
	SM4_CORE	xmm, 1
	RET
SYM_FUNC_END(sm4_core_xmm_1)

/* Units in vector registers 0-3 (ymm); see SM4_CORE. */
SYM_FUNC_START_LOCAL(sm4_core_ymm_1)
	SM4_CORE	ymm, 1
	RET
SYM_FUNC_END(sm4_core_ymm_1)

/* Units in vector registers 0-7 (ymm); see SM4_CORE. */
SYM_FUNC_START_LOCAL(sm4_core_ymm_2)
	SM4_CORE	ymm, 2
	RET
SYM_FUNC_END(sm4_core_ymm_2)

/* One block in %xmm0 (memory order); see SM4X_CORE_FUNCTIONS. */
SM4X_CORE_FUNCTIONS

SYM_TYPED_FUNC_START(SM4_AVX2_FN(ecb))
	SM4_MODE_FUNC	ecb, ymm
SYM_FUNC_END(SM4_AVX2_FN(ecb))

SYM_TYPED_FUNC_START(SM4_AVX2_FN(cbc_dec))
	SM4_MODE_FUNC	cbc_dec, ymm
SYM_FUNC_END(SM4_AVX2_FN(cbc_dec))

SYM_TYPED_FUNC_START(SM4_AVX2_FN(cfb_dec))
	SM4_MODE_FUNC	cfb_dec, ymm
SYM_FUNC_END(SM4_AVX2_FN(cfb_dec))

SYM_TYPED_FUNC_START(SM4_AVX2_FN(ctr))
	SM4_MODE_FUNC	ctr, ymm
SYM_FUNC_END(SM4_AVX2_FN(ctr))

SYM_TYPED_FUNC_START(SM4_AVX2_FN(xts))
	SM4_MODE_FUNC	xts, ymm
SYM_FUNC_END(SM4_AVX2_FN(xts))

SYM_TYPED_FUNC_START(SM4_AVX2_FN(cbc_enc))
	SM4X_SERIAL	cbc_enc
SYM_FUNC_END(SM4_AVX2_FN(cbc_enc))

SYM_TYPED_FUNC_START(SM4_AVX2_FN(cfb_enc))
	SM4X_SERIAL	cfb_enc
SYM_FUNC_END(SM4_AVX2_FN(cfb_enc))

/* gcm(sm4): GHASH with PCLMULQDQ on xmm (include/sm4/gcm.h). */
SYM_TYPED_FUNC_START(SM4_AVX2_FN(gcm_init))
	SM4_GCM_INIT_FUNC
SYM_FUNC_END(SM4_AVX2_FN(gcm_init))

SYM_TYPED_FUNC_START(SM4_AVX2_FN(ghash))
	SM4_GHASH_FUNC	ymm, xmm
SYM_FUNC_END(SM4_AVX2_FN(ghash))

SYM_TYPED_FUNC_START(SM4_AVX2_FN(gcm_enc))
	SM4_GCM_FUNC	ymm, xmm
SYM_FUNC_END(SM4_AVX2_FN(gcm_enc))

#ifdef SM4_VAES
/*
 * The same with GHASH on ymm (VPCLMULQDQ, two blocks a multiplication),
 * sm4_vaes_avx2_wide_*: the glue's pick where the CPU has VPCLMULQDQ
 * (SM4_X86_GCM_WIDE).  The table is the same: gcm_init makes it.
 */
SYM_TYPED_FUNC_START(SM4_AVX2_FN(wide_ghash))
	SM4_GHASH_FUNC	ymm, ymm
SYM_FUNC_END(SM4_AVX2_FN(wide_ghash))

SYM_TYPED_FUNC_START(SM4_AVX2_FN(wide_gcm_enc))
	SM4_GCM_FUNC	ymm, ymm
SYM_FUNC_END(SM4_AVX2_FN(wide_gcm_enc))
#endif

/* The CBC-MAC of cbcmac/cmac/xcbc/ccm(sm4) (include/sm4/mac.h). */
SYM_TYPED_FUNC_START(SM4_AVX2_FN(cbcmac))
	SM4X_SERIAL	cbcmac
SYM_FUNC_END(SM4_AVX2_FN(cbcmac))

/* ccm(sm4)'s CBC-MAC with its CTR beside it (include/sm4/mac.h). */
SYM_TYPED_FUNC_START(SM4_AVX2_FN(ccm_enc))
	SM4X_CCM	ccm_enc, ymm
SYM_FUNC_END(SM4_AVX2_FN(ccm_enc))

SYM_TYPED_FUNC_START(SM4_AVX2_FN(ccm_dec_mac))
	SM4X_CCM	ccm_dec_mac, ymm
SYM_FUNC_END(SM4_AVX2_FN(ccm_dec_mac))

/* Key expansion: called by sm4_x86_expandkey() (sm4_x86_glue.c). */
SYM_FUNC_START(SM4_AVX2_FN(expand_key))
	SM4_AESNI_EXPAND_KEY_BODY
SYM_FUNC_END(SM4_AVX2_FN(expand_key))
