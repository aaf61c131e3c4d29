// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: the XTS weak-key rule of SM4 xts skciphers.
 *
 * For every name in the "drivers" parameter (comma separated; algorithm
 * or driver names, e.g. "xts(sm4),xts-sm4-generic") it allocates the
 * skcipher and checks what the kernel's xts_verify_key() requires:
 *   - a key whose two halves are equal is refused with -EINVAL when the
 *     tfm has CRYPTO_TFM_REQ_FORBID_WEAK_KEYS set;
 *   - without that flag it is accepted (refused in FIPS mode);
 *   - a key with different halves is accepted with the flag set, and
 *     the tfm then encrypts and decrypts a buffer back to itself.
 * Each name gives a "sm4-weakkey: PASS ..." or "sm4-weakkey: FAIL ..."
 * kernel log line.
 *
 * Loading returns 0 only if every check passed; the module then stays
 * loaded and must be removed with rmmod.  If any check failed, loading
 * fails with -EINVAL (insmod exits non-zero) and nothing stays loaded.
 */

#define pr_fmt(fmt) "sm4-weakkey: " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/err.h>
#include <linux/fips.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <crypto/skcipher.h>
#include "sm4_test_names.h"

#define WEAKKEY_KEY_SIZE	32
#define WEAKKEY_DATA_SIZE	64

static char *drivers = "xts(sm4)";
module_param(drivers, charp, 0444);
MODULE_PARM_DESC(drivers,
		 "comma-separated xts skcipher names to test (default xts(sm4))");

/* Encrypt and decrypt a buffer with @tfm; 0 if it came back intact. */
static int weakkey_round_trip(struct crypto_skcipher *tfm)
{
	struct skcipher_request *req;
	struct scatterlist sg;
	DECLARE_CRYPTO_WAIT(wait);
	u8 iv[16], iv_copy[16];
	u8 *buf, *ref;
	int err = -ENOMEM;

	buf = kmalloc(2 * WEAKKEY_DATA_SIZE, GFP_KERNEL);
	req = skcipher_request_alloc(tfm, GFP_KERNEL);
	if (!buf || !req)
		goto out;
	ref = buf + WEAKKEY_DATA_SIZE;
	get_random_bytes(ref, WEAKKEY_DATA_SIZE);
	get_random_bytes(iv, sizeof(iv));
	memcpy(buf, ref, WEAKKEY_DATA_SIZE);
	sg_init_one(&sg, buf, WEAKKEY_DATA_SIZE);
	skcipher_request_set_callback(req, CRYPTO_TFM_REQ_MAY_SLEEP,
				      crypto_req_done, &wait);

	memcpy(iv_copy, iv, sizeof(iv));
	skcipher_request_set_crypt(req, &sg, &sg, WEAKKEY_DATA_SIZE, iv_copy);
	err = crypto_wait_req(crypto_skcipher_encrypt(req), &wait);
	if (err)
		goto out;
	if (!memcmp(buf, ref, WEAKKEY_DATA_SIZE)) {
		err = -EBADMSG;		/* nothing was encrypted */
		goto out;
	}
	memcpy(iv_copy, iv, sizeof(iv));
	skcipher_request_set_crypt(req, &sg, &sg, WEAKKEY_DATA_SIZE, iv_copy);
	err = crypto_wait_req(crypto_skcipher_decrypt(req), &wait);
	if (!err && memcmp(buf, ref, WEAKKEY_DATA_SIZE))
		err = -EBADMSG;
out:
	skcipher_request_free(req);
	kfree_sensitive(buf);
	return err;
}

/* Run the checks on one name; true if all passed. */
static bool weakkey_test_one(const char *name)
{
	struct crypto_skcipher *tfm;
	u8 key[WEAKKEY_KEY_SIZE];
	int weak_flag, weak_noflag, strong, trip, expect_noflag;
	const char *drv;
	bool ok;

	tfm = crypto_alloc_skcipher(name, 0, 0);
	if (IS_ERR(tfm)) {
		pr_err("FAIL %s: cannot allocate: %ld\n", name, PTR_ERR(tfm));
		return false;
	}
	drv = crypto_tfm_alg_driver_name(crypto_skcipher_tfm(tfm));

	/* Equal halves, weak keys forbidden: must be refused. */
	get_random_bytes(key, WEAKKEY_KEY_SIZE / 2);
	memcpy(key + WEAKKEY_KEY_SIZE / 2, key, WEAKKEY_KEY_SIZE / 2);
	crypto_skcipher_set_flags(tfm, CRYPTO_TFM_REQ_FORBID_WEAK_KEYS);
	weak_flag = crypto_skcipher_setkey(tfm, key, WEAKKEY_KEY_SIZE);

	/* Equal halves, flag clear: accepted, except in FIPS mode. */
	crypto_skcipher_clear_flags(tfm, CRYPTO_TFM_REQ_FORBID_WEAK_KEYS);
	weak_noflag = crypto_skcipher_setkey(tfm, key, WEAKKEY_KEY_SIZE);
	expect_noflag = fips_enabled ? -EINVAL : 0;

	/* Different halves, flag set: accepted and usable. */
	key[WEAKKEY_KEY_SIZE - 1] ^= 0x01;
	crypto_skcipher_set_flags(tfm, CRYPTO_TFM_REQ_FORBID_WEAK_KEYS);
	strong = crypto_skcipher_setkey(tfm, key, WEAKKEY_KEY_SIZE);
	trip = strong ? strong : weakkey_round_trip(tfm);
	memzero_explicit(key, sizeof(key));

	ok = weak_flag == -EINVAL && weak_noflag == expect_noflag &&
	     !strong && !trip;
	if (ok)
		pr_info("PASS %s (%s): equal halves refused with the flag (%d), %s without it (%d), distinct halves accepted and round-trip\n",
			name, drv, weak_flag,
			expect_noflag ? "refused (fips)" : "accepted",
			weak_noflag);
	else
		pr_err("FAIL %s (%s): equal halves with flag %d (want %d), without flag %d (want %d), distinct halves %d (want 0), round trip %d (want 0)\n",
		       name, drv, weak_flag, -EINVAL, weak_noflag,
		       expect_noflag, strong, trip);
	crypto_free_skcipher(tfm);
	return ok;
}

static int __init weakkey_test_init(void)
{
	char *list, *cur, *name;
	int tested = 0, failed = 0;

	list = kstrdup(drivers ? drivers : "", GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	cur = list;
	while ((name = sm4_test_next_name(&cur)) != NULL) {
		tested++;
		if (!weakkey_test_one(name))
			failed++;
	}
	kfree(list);
	if (!tested) {
		pr_err("FAIL: no driver names given\n");
		return -EINVAL;
	}
	pr_info("%d passed, %d failed\n", tested - failed, failed);
	return failed ? -EINVAL : 0;
}

static void __exit weakkey_test_exit(void)
{
}

module_init(weakkey_test_init);
module_exit(weakkey_test_exit);

MODULE_DESCRIPTION("SM4 XTS weak-key test (test guests only)");
MODULE_LICENSE("GPL");
