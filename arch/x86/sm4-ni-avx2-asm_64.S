/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 bulk functions with Intel's SM4 instructions (VSM4RNDS4,
 * VSM4KEY4; see sm4-ni.h) in their VEX.256 forms: 16 blocks in
 * parallel, two per ymm register.  Verified only under the userspace
 * emulator tests/unit/sm4ni_emu.c: this project has no CPU with these
 * instructions (doc/drivers.md, "SM4 instructions").
 *
 * The mode bodies are those of sm4-modes.S (shared with the AES-NI and
 * GFNI drivers); this file supplies the block cores and the key
 * expansion.  Function signatures: see SM4_DEFINE_MODE_OPS in
 * include/sm4/modes.h.
 *
 * The cores and the key expansion are sm4-ni-core.S's (shared
 * with sm4-ni-avx10-asm_64.S).  A block needs no transpose: VSM4RNDS4 keeps
 * X(i)..X(i+3) of each 128-bit lane in its dwords 0..3, so a block
 * enters as its big-endian words byte-swapped into native dwords, and
 * leaves (X35, X34, X33, X32 big-endian) as the lane byte-reversed.
 * Each instruction does four rounds with the four round keys of its key
 * operand: the schedule's native u32 words rk[4g .. 4g+3] (rkey_dec for
 * decryption is already reversed), broadcast to every lane.  The cores read the keys from the
 * caller's schedule at %rdi (SM4_PREP_KEYS copies nothing).
 *
 * No memory access depends on key or data.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>
#include <asm/frame.h>
#include "sm4-ni.h"
#include "sm4-modes.S"
#include "sm4-ni-core.S"

.text

SM4NI_CORE_FUNCS 0

SYM_FUNC_START(sm4_ni_expand_key)
	SM4NI_EXPAND_KEY_BODY
SYM_FUNC_END(sm4_ni_expand_key)

SYM_TYPED_FUNC_START(sm4_ni_avx2_ecb)
	SM4_MODE_FUNC	ecb, ymm
SYM_FUNC_END(sm4_ni_avx2_ecb)

SYM_TYPED_FUNC_START(sm4_ni_avx2_cbc_dec)
	SM4_MODE_FUNC	cbc_dec, ymm
SYM_FUNC_END(sm4_ni_avx2_cbc_dec)

SYM_TYPED_FUNC_START(sm4_ni_avx2_cfb_dec)
	SM4_MODE_FUNC	cfb_dec, ymm
SYM_FUNC_END(sm4_ni_avx2_cfb_dec)

SYM_TYPED_FUNC_START(sm4_ni_avx2_ctr)
	SM4_MODE_FUNC	ctr, ymm
SYM_FUNC_END(sm4_ni_avx2_ctr)

SYM_TYPED_FUNC_START(sm4_ni_avx2_xts)
	SM4_MODE_FUNC	xts, ymm
SYM_FUNC_END(sm4_ni_avx2_xts)

SYM_TYPED_FUNC_START(sm4_ni_avx2_cbc_enc)
	SM4_SERIAL_FUNC	cbc_enc
SYM_FUNC_END(sm4_ni_avx2_cbc_enc)

SYM_TYPED_FUNC_START(sm4_ni_avx2_cfb_enc)
	SM4_SERIAL_FUNC	cfb_enc
SYM_FUNC_END(sm4_ni_avx2_cfb_enc)

/* The CBC-MAC of cbcmac/cmac/xcbc/ccm(sm4) (include/sm4/mac.h). */
SYM_TYPED_FUNC_START(sm4_ni_avx2_cbcmac)
	SM4_SERIAL_FUNC	cbcmac
SYM_FUNC_END(sm4_ni_avx2_cbcmac)

/* ccm(sm4)'s CBC-MAC with its CTR beside it (include/sm4/mac.h). */
SYM_TYPED_FUNC_START(sm4_ni_avx2_ccm_enc)
	SM4_CCM_FUNC	ccm_enc
SYM_FUNC_END(sm4_ni_avx2_ccm_enc)

SYM_TYPED_FUNC_START(sm4_ni_avx2_ccm_dec_mac)
	SM4_CCM_FUNC	ccm_dec_mac
SYM_FUNC_END(sm4_ni_avx2_ccm_dec_mac)
