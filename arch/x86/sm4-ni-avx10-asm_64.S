/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM4 bulk functions with Intel's SM4 instructions in their EVEX.512
 * forms (VSM4RNDS4 on zmm, see sm4-ni.h): 32 blocks in parallel, four per
 * zmm register, in two sets of four registers; one set of 16 when 16..31
 * blocks are left, and the VEX ymm/xmm cores below 16 (the tail batches of
 * sm4-modes.S's zmm mode body).  The key expansion is VSM4KEY4 (VEX).
 * Verified only under the userspace emulators tests/unit/sm4ni_emu.c and
 * evex_emu.c: this project has no CPU with these instructions (doc/drivers.md,
 * "SM4 instructions").
 *
 * The mode bodies are sm4-modes.S's, the cores and the key expansion
 * sm4-ni-core.S's (as in sm4-ni-avx2-asm_64.S, which explains the block
 * layout); each VSM4RNDS4 takes the group's four round keys broadcast to
 * all four lanes (VBROADCASTI32X4).  Function signatures: see
 * SM4_DEFINE_MODE_OPS in include/sm4/modes.h.
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

SM4NI_CORE_FUNCS 1

SYM_FUNC_START(sm4_ni_avx10_expand_key)
	SM4NI_EXPAND_KEY_BODY
SYM_FUNC_END(sm4_ni_avx10_expand_key)

SYM_TYPED_FUNC_START(sm4_ni_avx10_ecb)
	SM4_MODE_FUNC	ecb, zmm
SYM_FUNC_END(sm4_ni_avx10_ecb)

SYM_TYPED_FUNC_START(sm4_ni_avx10_cbc_dec)
	SM4_MODE_FUNC	cbc_dec, zmm
SYM_FUNC_END(sm4_ni_avx10_cbc_dec)

SYM_TYPED_FUNC_START(sm4_ni_avx10_cfb_dec)
	SM4_MODE_FUNC	cfb_dec, zmm
SYM_FUNC_END(sm4_ni_avx10_cfb_dec)

SYM_TYPED_FUNC_START(sm4_ni_avx10_ctr)
	SM4_MODE_FUNC	ctr, zmm
SYM_FUNC_END(sm4_ni_avx10_ctr)

SYM_TYPED_FUNC_START(sm4_ni_avx10_xts)
	SM4_MODE_FUNC	xts, zmm
SYM_FUNC_END(sm4_ni_avx10_xts)

SYM_TYPED_FUNC_START(sm4_ni_avx10_cbc_enc)
	SM4_SERIAL_FUNC	cbc_enc
SYM_FUNC_END(sm4_ni_avx10_cbc_enc)

SYM_TYPED_FUNC_START(sm4_ni_avx10_cfb_enc)
	SM4_SERIAL_FUNC	cfb_enc
SYM_FUNC_END(sm4_ni_avx10_cfb_enc)
