/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 bulk functions with AES-NI and AVX (xmm, 8 blocks in parallel).
 * The round function, cores and mode bodies are in sm4-aesni-modes.S;
 * this file instantiates them for xmm registers.  Function signatures: see
 * SM4_DEFINE_MODE_OPS in include/sm4/modes.h.
 */

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

/* Units in vector registers 0-7 (xmm); see SM4_CORE. */
SYM_FUNC_START_LOCAL(sm4_core_xmm_2)
	SM4_CORE	xmm, 2
	RET
SYM_FUNC_END(sm4_core_xmm_2)

/* One block in %xmm0 (memory order); see SM4X_CORE_FUNCTIONS. */
SM4X_CORE_FUNCTIONS

SYM_TYPED_FUNC_START(sm4_aesni_avx_ecb)
	SM4_MODE_FUNC	ecb, xmm
SYM_FUNC_END(sm4_aesni_avx_ecb)

SYM_TYPED_FUNC_START(sm4_aesni_avx_cbc_dec)
	SM4_MODE_FUNC	cbc_dec, xmm
SYM_FUNC_END(sm4_aesni_avx_cbc_dec)

SYM_TYPED_FUNC_START(sm4_aesni_avx_cfb_dec)
	SM4_MODE_FUNC	cfb_dec, xmm
SYM_FUNC_END(sm4_aesni_avx_cfb_dec)

SYM_TYPED_FUNC_START(sm4_aesni_avx_ctr)
	SM4_MODE_FUNC	ctr, xmm
SYM_FUNC_END(sm4_aesni_avx_ctr)

SYM_TYPED_FUNC_START(sm4_aesni_avx_xts)
	SM4_MODE_FUNC	xts, xmm
SYM_FUNC_END(sm4_aesni_avx_xts)

SYM_TYPED_FUNC_START(sm4_aesni_avx_cbc_enc)
	SM4X_SERIAL	cbc_enc
SYM_FUNC_END(sm4_aesni_avx_cbc_enc)

SYM_TYPED_FUNC_START(sm4_aesni_avx_cfb_enc)
	SM4X_SERIAL	cfb_enc
SYM_FUNC_END(sm4_aesni_avx_cfb_enc)

/* gcm(sm4): GHASH with PCLMULQDQ on xmm (include/sm4/gcm.h). */
SYM_TYPED_FUNC_START(sm4_aesni_avx_gcm_init)
	SM4_GCM_INIT_FUNC
SYM_FUNC_END(sm4_aesni_avx_gcm_init)

SYM_TYPED_FUNC_START(sm4_aesni_avx_ghash)
	SM4_GHASH_FUNC	xmm, xmm
SYM_FUNC_END(sm4_aesni_avx_ghash)

SYM_TYPED_FUNC_START(sm4_aesni_avx_gcm_enc)
	SM4_GCM_FUNC	xmm, xmm
SYM_FUNC_END(sm4_aesni_avx_gcm_enc)

/* The CBC-MAC of cbcmac/cmac/xcbc/ccm(sm4) (include/sm4/mac.h). */
SYM_TYPED_FUNC_START(sm4_aesni_avx_cbcmac)
	SM4X_SERIAL	cbcmac
SYM_FUNC_END(sm4_aesni_avx_cbcmac)

/* ccm(sm4)'s CBC-MAC with its CTR beside it (include/sm4/mac.h). */
SYM_TYPED_FUNC_START(sm4_aesni_avx_ccm_enc)
	SM4X_CCM	ccm_enc, xmm
SYM_FUNC_END(sm4_aesni_avx_ccm_enc)

SYM_TYPED_FUNC_START(sm4_aesni_avx_ccm_dec_mac)
	SM4X_CCM	ccm_dec_mac, xmm
SYM_FUNC_END(sm4_aesni_avx_ccm_dec_mac)

/* Key expansion: called by sm4_x86_expandkey() (sm4_x86_glue.c). */
SYM_FUNC_START(sm4_aesni_avx_expand_key)
	SM4_AESNI_EXPAND_KEY_BODY
SYM_FUNC_END(sm4_aesni_avx_expand_key)
