// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: a deliberately wrong SM4 driver, to prove that the tests
 * notice one.  Never load it outside a test guest.
 *
 * It registers ecb/cbc/cfb/ctr/xts(sm4) as "<mode>-sm4-broken" through
 * the project's shared glue with priority 9000, so that "<mode>(sm4)"
 * resolves to it.  Its bulk functions are the portable ones, except that
 * any call processing at least corrupt_from blocks flips one bit of its
 * output block number corrupt_from - 1.  The default, 17, stays clear of
 * the kernel's self-tests (whose SM4 vectors are at most 10 blocks long),
 * so the algorithms register as tested and serve requests; corrupt_from=1
 * corrupts every call (the self-tests then refuse the driver).
 */

#define pr_fmt(fmt) "sm4-broken: " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <sm4/glue.h>

#define SM4_BROKEN_PRIORITY	9000

static unsigned int corrupt_from = 17;
module_param(corrupt_from, uint, 0444);
MODULE_PARM_DESC(corrupt_from,
		 "corrupt bulk calls of at least this many blocks (0: never)");

static void sm4_broken_flip(u8 *dst, unsigned int nblocks)
{
	if (corrupt_from && nblocks >= corrupt_from)
		dst[(corrupt_from - 1) * SM4_BLOCK_SIZE + 7] ^= 0x20;
}

static void sm4_broken_ecb(const u32 *rk, u8 *dst, const u8 *src,
			   unsigned int nblocks)
{
	sm4_generic_mode_ops.ecb(rk, dst, src, nblocks);
	sm4_broken_flip(dst, nblocks);
}

#define SM4_BROKEN_CHAIN(fn)						\
static void sm4_broken_##fn(const u32 *rk, u8 *dst, const u8 *src,	\
			    unsigned int nblocks, u8 *iv)		\
{									\
	sm4_generic_mode_ops.fn(rk, dst, src, nblocks, iv);		\
	sm4_broken_flip(dst, nblocks);					\
}

SM4_BROKEN_CHAIN(cbc_enc)
SM4_BROKEN_CHAIN(cbc_dec)
SM4_BROKEN_CHAIN(cfb_enc)
SM4_BROKEN_CHAIN(cfb_dec)
SM4_BROKEN_CHAIN(ctr)
SM4_BROKEN_CHAIN(xts_enc)
SM4_BROKEN_CHAIN(xts_dec)

static const struct sm4_mode_ops sm4_broken_ops = {
	.ecb		= sm4_broken_ecb,
	.cbc_enc	= sm4_broken_cbc_enc,
	.cbc_dec	= sm4_broken_cbc_dec,
	.cfb_enc	= sm4_broken_cfb_enc,
	.cfb_dec	= sm4_broken_cfb_dec,
	.ctr		= sm4_broken_ctr,
	.xts_enc	= sm4_broken_xts_enc,
	.xts_dec	= sm4_broken_xts_dec,
};

static struct sm4_skcipher_driver sm4_broken_driver = {
	.name		= "broken",
	.priority	= SM4_BROKEN_PRIORITY,
	.owner		= THIS_MODULE,
	.ops		= &sm4_broken_ops,
	.uses_simd	= false,
};

static int __init sm4_broken_init(void)
{
	int err = sm4_skcipher_register(&sm4_broken_driver);

	if (!err)
		pr_info("registered <mode>-sm4-broken, priority %d, corrupting calls of >= %u blocks\n",
			SM4_BROKEN_PRIORITY, corrupt_from);
	return err;
}

static void __exit sm4_broken_exit(void)
{
	sm4_skcipher_unregister(&sm4_broken_driver);
}

module_init(sm4_broken_init);
module_exit(sm4_broken_exit);

MODULE_DESCRIPTION("Deliberately broken SM4 driver (test guests only)");
MODULE_LICENSE("GPL");
