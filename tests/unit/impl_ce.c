// SPDX-License-Identifier: GPL-2.0
/*
 * The arm64 SM4 Crypto Extensions backend (arch/arm64/sm4-ce-core.S) in
 * the harness, with its SM4EKEY key expansion, twice: "ce" is the bulk
 * functions the skciphers use; "ce-upstream-abi" does ECB and CBC
 * encryption through the helpers sm4-ce.ko exports under upstream's
 * prototypes (arch/arm64/sm4-ce.h: sm4_ce_crypt_block, sm4_ce_cbc_enc),
 * so that everything the harness checks covers what upstream's
 * sm4-ce-ccm and sm4-ce-gcm call.  Needs HWCAP_SM4 (e.g. qemu-aarch64
 * -cpu max); skipped otherwise.
 */
#include <sys/auxv.h>
#include <asm/hwcap.h>
#include <sm4/compat.h>
#include <sm4/modes.h>
#include <sm4/mac.h>
#include <sm4/gcm.h>
#include "../../arch/arm64/sm4-ce.h"
#include "impl.h"

SM4_DEFINE_MODE_OPS(sm4_ce_ops, sm4_ce_bulk, SM4_CE_BATCH);

SM4_DEFINE_GCM_OPS(ce_gcm_ops, sm4_ce, SM4_CE_GCM_SHORT);

/* As sm4-ce-glue.c's sm4_ce_mac_ops (sm4-ce-mac.S). */
static const struct sm4_mac_ops ce_mac_ops = {
	.cbcmac		= sm4_ce_cbcmac,
	.ccm_enc	= sm4_ce_ccm_enc,
	.ccm_dec_mac	= sm4_ce_ccm_dec_mac,
	.short_blocks	= SM4_CE_CCM_SHORT,
};

static bool ce_available(void)
{
	return getauxval(AT_HWCAP) & HWCAP_SM4;
}

static struct sm4_test_impl ce_impl = {
	.name = "ce",
	.ops = &sm4_ce_ops,
	.mac_ops = &ce_mac_ops,
	.gcm = &ce_gcm_ops,
	.available = ce_available,
	.expandkey = sm4_ce_expandkey,
};
SM4_TEST_IMPL(ce_impl);

static void ce_abi_ecb(const u32 *rk, u8 *dst, const u8 *src,
		       unsigned int nblocks)
{
	for (; nblocks; nblocks--, dst += SM4_BLOCK_SIZE, src += SM4_BLOCK_SIZE)
		sm4_ce_crypt_block(rk, dst, src);
}

static void ce_abi_cbc_enc(const u32 *rk, u8 *dst, const u8 *src,
			   unsigned int nblocks, u8 *iv)
{
	sm4_ce_cbc_enc(rk, dst, src, iv, nblocks);
}

static const struct sm4_mode_ops ce_abi_ops = {
	.ecb		= ce_abi_ecb,
	.cbc_enc	= ce_abi_cbc_enc,
	.cbc_dec	= sm4_ce_bulk_cbc_dec,
	.cfb_enc	= sm4_ce_bulk_cfb_enc,
	.cfb_dec	= sm4_ce_bulk_cfb_dec,
	.ctr		= sm4_ce_bulk_ctr,
	.xts_enc	= sm4_ce_bulk_xts,
	.xts_dec	= sm4_ce_bulk_xts,
};

static struct sm4_test_impl ce_abi_impl = {
	.name = "ce-upstream-abi",
	.ops = &ce_abi_ops,
	.available = ce_available,
	.expandkey = sm4_ce_expandkey,
};
SM4_TEST_IMPL(ce_abi_impl);
