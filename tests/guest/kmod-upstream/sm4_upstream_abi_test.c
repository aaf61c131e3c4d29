// SPDX-License-Identifier: GPL-2.0
/*
 * sm4_upstream_abi_test: an in-tree style user of the SM4 library, built
 * against the kernel's own <crypto/sm4.h> and upstream's sm4.ko (by
 * tests/lib/build-upstream-sm4.sh), loaded in the "distribution with
 * SM4" guest against this project's sm4.ko.  It links only if every
 * symbol it uses is exported with upstream's modversions CRC, and its
 * init checks the library: the GB/T 32907-2016 example both ways, and
 * the exported FK, CK and S-box tables.  It stays loaded on success
 * (one "passed" line) and refuses with -EBADMSG otherwise.
 */

#include <linux/module.h>
#include <linux/init.h>
#include <linux/string.h>
#include <crypto/sm4.h>

/* GB/T 32907-2016, appendix A: key = plaintext. */
static const u8 abi_key[SM4_KEY_SIZE] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
};

static const u8 abi_ct[SM4_BLOCK_SIZE] = {
	0x68, 0x1e, 0xdf, 0x34, 0xd2, 0x06, 0x96, 0x5e,
	0x86, 0xb3, 0xe9, 0x4f, 0x53, 0x6e, 0x42, 0x46,
};

static int __init sm4_upstream_abi_test_init(void)
{
	struct sm4_ctx ctx;
	u8 buf[SM4_BLOCK_SIZE];
	const char *what = NULL;

	if (sm4_expandkey(&ctx, abi_key, sizeof(abi_key)))
		what = "sm4_expandkey";
	if (!what) {
		sm4_crypt_block(ctx.rkey_enc, buf, abi_key);
		if (memcmp(buf, abi_ct, sizeof(buf)))
			what = "encryption";
	}
	if (!what) {
		sm4_crypt_block(ctx.rkey_dec, buf, buf);
		if (memcmp(buf, abi_key, sizeof(buf)))
			what = "decryption";
	}
	if (!what && (crypto_sm4_fk[0] != 0xa3b1bac6 ||
		      crypto_sm4_fk[3] != 0xb27022dc))
		what = "crypto_sm4_fk";
	if (!what && (crypto_sm4_ck[0] != 0x00070e15 ||
		      crypto_sm4_ck[31] != 0x646b7279))
		what = "crypto_sm4_ck";
	if (!what && (crypto_sm4_sbox[0] != 0xd6 ||
		      crypto_sm4_sbox[255] != 0x48))
		what = "crypto_sm4_sbox";
	memzero_explicit(&ctx, sizeof(ctx));
	if (what) {
		pr_err("sm4_upstream_abi_test: %s wrong\n", what);
		return -EBADMSG;
	}
	pr_info("sm4_upstream_abi_test: passed\n");
	return 0;
}

static void __exit sm4_upstream_abi_test_exit(void)
{
}

module_init(sm4_upstream_abi_test_init);
module_exit(sm4_upstream_abi_test_exit);

MODULE_DESCRIPTION("Test: the SM4 library through upstream's <crypto/sm4.h>");
MODULE_LICENSE("GPL");
