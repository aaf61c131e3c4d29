/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sm4_wipe_v r, ...: zero the vector registers v<r> listed (numbers).
 * The arm64 SM4 functions end with it on every register they used, so
 * that none keeps a block, keystream, tweak, round key or GHASH value of
 * the call; v8-v15, where a function saves d8-d15, are overwritten by
 * their restore instead (an LDP of D registers also zeroes bits 127:64).
 * Included by sm4-modes.S and sm4-ce-block.S, so once per object.
 */
#ifndef _SM4_ARM64_VWIPE_H
#define _SM4_ARM64_VWIPE_H

.macro sm4_wipe_v, r, rest:vararg
	movi	v\r\().16b, #0
	.ifnb	\rest
	sm4_wipe_v \rest
	.endif
.endm

#endif /* _SM4_ARM64_VWIPE_H */
