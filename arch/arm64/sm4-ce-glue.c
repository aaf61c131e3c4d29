// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-ce: SM4 ecb/cbc/cfb/ctr/xts skciphers and the cbcmac/cmac/xcbc
 * hashes with the arm64 SM4 Crypto Extensions (SM4E, SM4EKEY), driver
 * names "<mode>-sm4-ce", registered through the shared glue of
 * sm4_generic.ko.  Its bulk functions also serve sm4-ce-ccm.ko and
 * sm4-ce-gcm.ko (through sm4_ce_mode_ops, sm4_ce_mac_ops and
 * sm4_ce_gcm_ops).
 *
 * Like upstream's sm4-ce.ko it also exports sm4_ce_expand_key,
 * sm4_ce_crypt_block and sm4_ce_cbc_enc (sm4-ce.h), which upstream's
 * sm4-ce-ccm and sm4-ce-gcm call; the single-block cipher "sm4-ce" is in
 * sm4-ce-cipher.ko, as upstream.
 */

#include <linux/module.h>
#include <linux/init.h>
#include <linux/export.h>
#include <linux/linkage.h>
#include <linux/cpufeature.h>
#include <crypto/algapi.h>
#include <sm4/compat.h>
#include <sm4/glue.h>
#include "sm4_arm64_glue.h"
#include <sm4/gcm.h>
#include "sm4-ce.h"

/*
 * The tables sm4-ce-ccm and sm4-ce-gcm register with, constant from the
 * start, in this project's namespace (compat.h).
 */
SM4_DECLARE_MODE_FNS(sm4_ce_bulk);
const struct sm4_mode_ops sm4_ce_mode_ops =
	SM4_MODE_OPS(sm4_ce_bulk, SM4_CE_BATCH);
SM4_EXPORT_SYMBOL_NS_GPL(sm4_ce_mode_ops);

SM4_DECLARE_GCM_FNS(sm4_ce);
const struct sm4_gcm_ops sm4_ce_gcm_ops = SM4_GCM_OPS(sm4_ce, SM4_CE_GCM_SHORT);
SM4_EXPORT_SYMBOL_NS_GPL(sm4_ce_gcm_ops);

const struct sm4_mac_ops sm4_ce_mac_ops = {
	.cbcmac		= sm4_ce_cbcmac,
	.ccm_enc	= sm4_ce_ccm_enc,
	.ccm_dec_mac	= sm4_ce_ccm_dec_mac,
	.short_blocks	= SM4_CE_CCM_SHORT,
};
SM4_EXPORT_SYMBOL_NS_GPL(sm4_ce_mac_ops);

/*
 * Defined in sm4-ce-core.S and declared in sm4-ce.h; upstream exports
 * them with EXPORT_SYMBOL.
 */
/* used by sm4-ce-cipher, sm4-ce-ccm and sm4-ce-gcm */
EXPORT_SYMBOL(sm4_ce_expand_key);
/* used by sm4-ce-cipher, sm4-ce-ccm and sm4-ce-gcm */
EXPORT_SYMBOL(sm4_ce_crypt_block);
/* no in-tree user in 6.12 or 7.2, exported by upstream all the same */
EXPORT_SYMBOL(sm4_ce_cbc_enc);

static struct sm4_driver sm4_ce_driver = {
	.name		= "ce",
	.priority	= 400,
	.owner		= THIS_MODULE,
	.ops		= &sm4_ce_mode_ops,
	.uses_simd	= true,
	.mode_mask	= SM4_ALL_MODES,
	.expandkey	= sm4_ce_expandkey,
	.mac		= &sm4_ce_mac_ops,
	.mac_mask	= SM4_ALL_MACS,
};

module_sm4_driver(sm4_ce, sm4_ce_driver,
		  sm4_arm64_check_cpu("sm4-ce", cpu_have_named_feature(SM4),
				      "the SM4 instructions"));

MODULE_DESCRIPTION("SM4 ECB/CBC/CFB/CTR/XTS, CBCMAC/CMAC/XCBC, arm64 Crypto Extensions");
MODULE_LICENSE("GPL");
MODULE_VERSION(SM4_CRYPTO_VERSION);
MODULE_ALIAS_SM4_SKCIPHERS("ce");
MODULE_ALIAS_SM4_MACS("ce");
