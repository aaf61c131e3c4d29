// SPDX-License-Identifier: GPL-2.0
/*
 * The arm64 SM4 Crypto Extensions backend (arch/arm64/sm4-ce-core.S) in
 * the harness, with its SM4EKEY key expansion.  Needs HWCAP_SM4 (e.g.
 * qemu-aarch64 -cpu max); skipped otherwise.
 */
#include <sys/auxv.h>
#include <asm/hwcap.h>
#include <sm4/compat.h>
#include <sm4/modes.h>
#include "impl.h"

SM4_DEFINE_MODE_OPS(sm4_ce_ops, sm4_ce);

asmlinkage void sm4_ce_expand_key(const u8 *key, u32 *rkey_enc, u32 *rkey_dec,
				  const u32 *fk, const u32 *ck);

static int ce_expandkey(struct sm4_ctx *ctx, const u8 *key,
			unsigned int key_len)
{
	if (key_len != SM4_KEY_SIZE)
		return -EINVAL;
	sm4_ce_expand_key(key, ctx->rkey_enc, ctx->rkey_dec,
			  crypto_sm4_fk, crypto_sm4_ck);
	return 0;
}

static bool ce_available(void)
{
	return getauxval(AT_HWCAP) & HWCAP_SM4;
}

static struct sm4_test_impl ce_impl = {
	.name = "ce",
	.ops = &sm4_ce_ops,
	.available = ce_available,
	.expandkey = ce_expandkey,
	.width = 8,
};
SM4_TEST_IMPL(ce_impl);
