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
 *
 * gcm_bad_setkey=1: also register "gcm-sm4-broken" (gcm(sm4) at the same
 * priority), a gcm over the kernel's own templates on sm4-generic whose
 * setkey fails with -EINVAL once its self-test has passed: kernel TLS
 * and AF_ALG then cannot key gcm(sm4), which part 12 must report as a
 * failure, by name.
 *
 * leak=1: the module allocates a buffer at load and forgets the pointer,
 * the leak kmemleak reports (its backtrace in sm4_broken_init): the debug
 * kernel's test shows with it that the suite's scan catches our leaks.
 */

#define pr_fmt(fmt) "sm4-broken: " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <crypto/internal/aead.h>
#include <linux/slab.h>
#include <linux/string.h>
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

static bool gcm_bad_setkey;
module_param(gcm_bad_setkey, bool, 0444);
MODULE_PARM_DESC(gcm_bad_setkey,
		 "register gcm-sm4-broken, whose setkey fails once tested");

static bool leak;
module_param(leak, bool, 0444);
MODULE_PARM_DESC(leak, "leak a buffer at load (for kmemleak to find)");

static const struct sm4_mode_ops sm4_broken_ops;

static struct sm4_driver sm4_broken_driver = {
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

/* gcm-sm4-broken: a synchronous child does the work. */
#define SM4_BROKEN_GCM_CHILD	"gcm_base(ctr(sm4-generic),ghash-generic)"

struct sm4_broken_gcm_ctx {
	struct crypto_aead *child;
};

static struct aead_alg sm4_broken_gcm;

static int sm4_broken_gcm_setkey(struct crypto_aead *tfm, const u8 *key,
				 unsigned int keylen)
{
	struct sm4_broken_gcm_ctx *ctx = crypto_aead_ctx(tfm);

	if (READ_ONCE(sm4_broken_gcm.base.cra_flags) & CRYPTO_ALG_TESTED)
		return -EINVAL;
	return crypto_aead_setkey(ctx->child, key, keylen);
}

static int sm4_broken_gcm_setauthsize(struct crypto_aead *tfm,
				      unsigned int authsize)
{
	struct sm4_broken_gcm_ctx *ctx = crypto_aead_ctx(tfm);

	return crypto_aead_setauthsize(ctx->child, authsize);
}

static int sm4_broken_gcm_crypt(struct aead_request *req, bool enc)
{
	struct sm4_broken_gcm_ctx *ctx = crypto_aead_ctx(crypto_aead_reqtfm(req));
	struct aead_request *sub = aead_request_ctx(req);

	aead_request_set_tfm(sub, ctx->child);
	aead_request_set_callback(sub, req->base.flags, NULL, NULL);
	aead_request_set_crypt(sub, req->src, req->dst, req->cryptlen, req->iv);
	aead_request_set_ad(sub, req->assoclen);
	return enc ? crypto_aead_encrypt(sub) : crypto_aead_decrypt(sub);
}

static int sm4_broken_gcm_encrypt(struct aead_request *req)
{
	return sm4_broken_gcm_crypt(req, true);
}

static int sm4_broken_gcm_decrypt(struct aead_request *req)
{
	return sm4_broken_gcm_crypt(req, false);
}

static int sm4_broken_gcm_init(struct crypto_aead *tfm)
{
	struct sm4_broken_gcm_ctx *ctx = crypto_aead_ctx(tfm);
	struct crypto_aead *child;

	/* Synchronous only: no completion ever needs forwarding. */
	child = crypto_alloc_aead(SM4_BROKEN_GCM_CHILD, 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(child))
		return PTR_ERR(child);
	ctx->child = child;
	crypto_aead_set_reqsize(tfm, sizeof(struct aead_request) +
				crypto_aead_reqsize(child));
	return 0;
}

static void sm4_broken_gcm_exit(struct crypto_aead *tfm)
{
	struct sm4_broken_gcm_ctx *ctx = crypto_aead_ctx(tfm);

	crypto_free_aead(ctx->child);
}

static struct aead_alg sm4_broken_gcm = {
	.setkey		= sm4_broken_gcm_setkey,
	.setauthsize	= sm4_broken_gcm_setauthsize,
	.encrypt	= sm4_broken_gcm_encrypt,
	.decrypt	= sm4_broken_gcm_decrypt,
	.init		= sm4_broken_gcm_init,
	.exit		= sm4_broken_gcm_exit,
	.ivsize		= 12,
	.maxauthsize	= 16,
	.chunksize	= 16,
	.base = {
		.cra_name		= "gcm(sm4)",
		.cra_driver_name	= "gcm-sm4-broken",
		.cra_priority		= SM4_BROKEN_PRIORITY,
		.cra_blocksize		= 1,
		.cra_ctxsize		= sizeof(struct sm4_broken_gcm_ctx),
		.cra_module		= THIS_MODULE,
	},
};

/* Allocate and forget: the pointer lives only in a register. */
static noinline void sm4_broken_leak(void)
{
	void *p = kmalloc(200, GFP_KERNEL);

	/* Keep the allocation from being optimised away. */
	OPTIMIZER_HIDE_VAR(p);
	if (p)
		memset(p, 0x5a, 200);
}

static int __init sm4_broken_init(void)
{
	unsigned int missing = 0;
	enum sm4_mode mode;
	int err;

	if (leak)
		sm4_broken_leak();

	err = sm4_driver_register(&sm4_broken_driver);
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
		sm4_driver_unregister(&sm4_broken_driver);
		return -ENODEV;
	}
	if (gcm_bad_setkey) {
		err = crypto_register_aead(&sm4_broken_gcm);
		if (err) {
			pr_err("gcm-sm4-broken: registration failed: %d\n", err);
			sm4_driver_unregister(&sm4_broken_driver);
			return err;
		}
	}
	pr_info("registered <mode>-sm4-broken for all five modes, priority %d, %s corrupting calls of >= %u blocks, overrunning calls of >= %u blocks (0: none)%s%s%s\n",
		SM4_BROKEN_PRIORITY, before_test ? "from the start" : "once tested",
		corrupt_from, overrun_from,
		sleep_in_atomic ? ", might_sleep() in atomic context" : "",
		leak ? ", one buffer leaked" : "",
		gcm_bad_setkey ? ", gcm-sm4-broken with a failing setkey" : "");
	return 0;
}

static void __exit sm4_broken_exit(void)
{
	if (gcm_bad_setkey)
		crypto_unregister_aead(&sm4_broken_gcm);
	sm4_driver_unregister(&sm4_broken_driver);
}

module_init(sm4_broken_init);
module_exit(sm4_broken_exit);

MODULE_DESCRIPTION("Deliberately broken SM4 driver (test guests only)");
MODULE_LICENSE("GPL");
/* sm4_driver_register(), sm4_generic_mode_ops (include/sm4/compat.h). */
SM4_MODULE_IMPORT_NS();
