/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What sm4-neon's glue (and the unit harness, tests/unit/impl_neon.c)
 * knows of sm4-neon-core.S beyond the mode functions of
 * SM4_DEFINE_MODE_OPS():
 *
 * SM4_NEON_BATCH       their batch: eight blocks in parallel
 *
 * sm4_neon_expand_key  struct sm4_driver.expandkey of sm4-neon,
 *                      in assembly: both schedules as sm4_expandkey()
 *                      makes them, through the bulk code's register
 *                      S-box (no table in memory); 0, or -EINVAL for a
 *                      @key_len other than SM4_KEY_SIZE.  Call it inside
 *                      a SIMD section.  It stores ctx->rkey_dec at
 *                      ctx + 128, which the static_assert below holds
 *                      to.
 */
#ifndef _SM4_ARM64_NEON_H
#define _SM4_ARM64_NEON_H

#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <sm4/sm4.h>

int sm4_neon_expand_key(struct sm4_ctx *ctx, const u8 *key,
			unsigned int key_len);

static_assert(offsetof(struct sm4_ctx, rkey_dec) == 128);

#define SM4_NEON_BATCH	8

#endif /* _SM4_ARM64_NEON_H */
