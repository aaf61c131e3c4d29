// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: a deliberately wrong SM4 driver, to prove that the tests
 * notice one.  Never load it outside a test guest.
 *
 * It registers all five skciphers ecb/cbc/cfb/ctr/xts(sm4) as
 * "<mode>-sm4-broken" through the project's shared glue at priority
 * 9000, above every real driver (the highest is 600), so that the
 * generic names "<mode>(sm4)" resolve to it as well (the glue also
 * registers cts-cbc-sm4-broken, cts(cbc(sm4)) over its cbc, as for
 * every driver).  Loading fails (with a log line) unless all five were
 * registered.
 *
 * Its bulk functions are the portable ones, and they stay correct while
 * the kernel's self-test of their algorithm runs: the crypto manager
 * tests an algorithm before anyone can use it (synchronously at
 * registration on 6.1, on first use on later kernels), refuses it if a
 * vector fails, and sets CRYPTO_ALG_TESTED on it when it passes.  From
 * then on every bulk call of at least corrupt_from blocks flips bit 5 of
 * byte 7 of its output block number corrupt_from - 1.  So the driver is
 * selectable (selftest passed) and corrupts requests of every length the
 * AF_ALG vector test uses from corrupt_from blocks up, which sm4-afalg's
 * "check" must report as mismatches under both the driver name and the
 * generic name.
 *
 * corrupt_from (default 2): 1-block calls stay correct, among them the
 * ECB call with which XTS derives its tweak, so the XTS self-test does
 * not depend on whether ECB was tested first.  corrupt_from=0 never
 * corrupts: a correct driver, to show that the broken-run checks fail
 * when nothing is broken. *
 * overrun_from=N (default 0: never): once tested, bulk calls of at least
 * N blocks also change the byte right after their output if it lies in
 * the same page, which in an AF_ALG receive is the user's buffer: with
 * corrupt_from=0 a driver whose results are right but which writes past
 * its output, for sm4-afalg's guard bytes to catch.
 *
 * before_test=1: corrupt (and overrun) from the start, while the
 * self-test runs too.  With corrupt_from above the longest fixed test
 * vector (33: xts(sm4)'s 512-byte vector is 32 blocks) only the random
 * lengths of the self-test fuzzer (CONFIG_CRYPTO_MANAGER_EXTRA_TESTS)
 * reach the fault: the debug kernel's test (tests/test-debug-kernel.sh)
 * shows with it that the fuzzer ran.
 *
 * sleep_in_atomic=1: every bulk call runs might_sleep() with preemption
 * disabled, the bug CONFIG_DEBUG_ATOMIC_SLEEP reports ("BUG: sleeping
 * function called from invalid context"): the debug kernel's test shows
 * with it that such a report fails the run.
 */

#define pr_fmt(fmt) "sm4-broken: " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <sm4/glue.h>

#define SM4_BROKEN_PRIORITY	9000

static unsigned int corrupt_from = 2;
module_param(corrupt_from, uint, 0444);
MODULE_PARM_DESC(corrupt_from,
		 "corrupt bulk calls of at least this many blocks once the algorithm passed its self-test (0: never)");

static unsigned int overrun_from;
module_param(overrun_from, uint, 0444);
MODULE_PARM_DESC(overrun_from,
		 "write one byte past the output of bulk calls of at least this many blocks once tested (0: never)");

static bool before_test;
module_param(before_test, bool, 0444);
MODULE_PARM_DESC(before_test,
		 "corrupt/overrun during the self-test too, not only once tested");

static bool sleep_in_atomic;
module_param(sleep_in_atomic, bool, 0444);
MODULE_PARM_DESC(sleep_in_atomic,
		 "call might_sleep() with preemption disabled in every bulk call");

static const struct sm4_mode_ops sm4_broken_ops;

static struct sm4_skcipher_driver sm4_broken_driver = {
	.name		= "broken",
	.priority	= SM4_BROKEN_PRIORITY,
	.owner		= THIS_MODULE,
	.ops		= &sm4_broken_ops,
	.uses_simd	= false,
	.mode_mask	= SM4_ALL_MODES,
};

static void sm4_broken_flip(enum sm4_mode mode, u8 *dst,
			    unsigned int nblocks)
{
	const struct crypto_alg *alg = &sm4_broken_driver.algs[mode].alg.base;
	u8 *end = dst + nblocks * SM4_BLOCK_SIZE;

	if (sleep_in_atomic) {
		preempt_disable();
		might_sleep();
		preempt_enable();
	}
	if (!before_test && !(READ_ONCE(alg->cra_flags) & CRYPTO_ALG_TESTED))
		return;
	if (corrupt_from && nblocks >= corrupt_from)
		dst[(corrupt_from - 1) * SM4_BLOCK_SIZE + 7] ^= 0x20;
	if (overrun_from && nblocks >= overrun_from && offset_in_page(end))
		*end ^= 0x5a;
}

static void sm4_broken_ecb(const u32 *rk, u8 *dst, const u8 *src,
			   unsigned int nblocks)
{
	sm4_generic_mode_ops.ecb(rk, dst, src, nblocks);
	sm4_broken_flip(SM4_MODE_ECB, dst, nblocks);
}

#define SM4_BROKEN_CHAIN(fn, mode)					\
static void sm4_broken_##fn(const u32 *rk, u8 *dst, const u8 *src,	\
			    unsigned int nblocks, u8 *iv)		\
{									\
	sm4_generic_mode_ops.fn(rk, dst, src, nblocks, iv);		\
	sm4_broken_flip(mode, dst, nblocks);				\
}

SM4_BROKEN_CHAIN(cbc_enc, SM4_MODE_CBC)
SM4_BROKEN_CHAIN(cbc_dec, SM4_MODE_CBC)
SM4_BROKEN_CHAIN(cfb_enc, SM4_MODE_CFB)
SM4_BROKEN_CHAIN(cfb_dec, SM4_MODE_CFB)
SM4_BROKEN_CHAIN(ctr, SM4_MODE_CTR)
SM4_BROKEN_CHAIN(xts_enc, SM4_MODE_XTS)
SM4_BROKEN_CHAIN(xts_dec, SM4_MODE_XTS)

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

static int __init sm4_broken_init(void)
{
	unsigned int missing = 0;
	enum sm4_mode mode;
	int err;

	err = sm4_skcipher_register(&sm4_broken_driver);
	if (err) {
		pr_err("registration failed: %d\n", err);
		return err;
	}
	for (mode = 0; mode < SM4_NUM_MODES; mode++)
		if (!sm4_broken_driver.algs[mode].registered)
			missing++;
	if (missing) {
		pr_err("%u of %d skciphers not registered (mode_mask %#x): refusing to load\n",
		       missing, SM4_NUM_MODES, sm4_broken_driver.mode_mask);
		sm4_skcipher_unregister(&sm4_broken_driver);
		return -ENODEV;
	}
	pr_info("registered <mode>-sm4-broken for all five modes, priority %d, %s corrupting calls of >= %u blocks, overrunning calls of >= %u blocks (0: none)%s\n",
		SM4_BROKEN_PRIORITY, before_test ? "from the start" : "once tested",
		corrupt_from, overrun_from,
		sleep_in_atomic ? ", might_sleep() in atomic context" : "");
	return 0;
}

static void __exit sm4_broken_exit(void)
{
	sm4_skcipher_unregister(&sm4_broken_driver);
}

module_init(sm4_broken_init);
module_exit(sm4_broken_exit);

MODULE_DESCRIPTION("Deliberately broken SM4 driver (test guests only)");
MODULE_LICENSE("GPL");
