/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sm4-ce-cipher's own copy of the SM4E block code (sm4-ce-block.S):
 * sm4_ce_expand_key and sm4_ce_crypt_block, not exported from this
 * module.
 */

#include <linux/linkage.h>
#include <asm/assembler.h>

	.text

#include "sm4-ce-block.S"
