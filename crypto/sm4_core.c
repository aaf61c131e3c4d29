// SPDX-License-Identifier: GPL-2.0
/*
 * The core the glue's algorithm families share (include/sm4/core.h):
 * the one SIMD-or-portable decision, key expansion with it, the
 * scatterlist reader for hashing and MACs, and what every registration
 * fills alike.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <crypto/algapi.h>
#include <sm4/compat.h>
#include <sm4/core.h>

/*
 * A fault for the test suite only (built with
 * KCFLAGS=-DSM4_TEST_SILENT_FALLBACK[=N] by tests/guest/run-guest.sh
 * --silent-fallback [--fallback-from N]): every operation of a SIMD
 * driver on at least N bytes (default 1: all; an empty one counts as
 * one byte), requests and setkeys of every family, on the portable
 * code, results still correct, as a driver that silently lost its
 * assembly (for long requests only, with N) would run.  The suite's
 * entry counts must catch it.
 */
#ifdef SM4_TEST_SILENT_FALLBACK
#define SM4_SILENT_FALLBACK(len)	(max(len, 1U) >= (SM4_TEST_SILENT_FALLBACK))
#else
#define SM4_SILENT_FALLBACK(len)	false
#endif

static const struct sm4_impl sm4_portable = {
	.ops	= &sm4_generic_mode_ops,
	.gcm	= &sm4_gcm_generic_ops,
	.mac	= &sm4_generic_mac_ops,
};

/*
 * A SIMD driver's own code at every length whenever SIMD is usable, so
 * that no request, however short, and no key runs the table S-box of the
 * portable code; the portable code only where SIMD is not usable.
 */
struct sm4_impl sm4_impl_wide(const struct sm4_driver *drv, unsigned int len)
{
	struct sm4_impl impl = {
		.ops		= drv->ops,
		.gcm		= drv->gcm,
		.mac		= drv->mac,
		.expandkey	= drv->expandkey,
		.simd		= drv->uses_simd,
	};

	if (drv->uses_simd &&
	    (SM4_SILENT_FALLBACK(len) || !crypto_simd_usable()))
		return sm4_portable;
	return impl;
}

struct sm4_impl sm4_impl_of(const struct sm4_driver *drv, unsigned int len)
{
	struct sm4_impl impl = sm4_impl_wide(drv, len);

	if (impl.ops == drv->ops && drv->small_ops && len < drv->small_below)
		impl.ops = drv->small_ops;
	return impl;
}

int sm4_impl_expandkey(const struct sm4_impl *impl, struct sm4_ctx *ctx,
		       const u8 *key, unsigned int key_len)
{
	int err;

	if (key_len != SM4_KEY_SIZE)
		return -EINVAL;
	if (!impl->expandkey)
		return sm4_expandkey(ctx, key, key_len);
	sm4_impl_begin(impl);
	err = impl->expandkey(ctx, key, key_len);
	sm4_impl_end(impl);
	return err;
}

void sm4_impl_sg(const struct sm4_impl *impl, struct scatterlist *sg,
		 unsigned int pos, unsigned int len, sm4_sg_fn fn, void *arg)
{
	unsigned int room = 0;	/* what the open section may still take */
	struct scatter_walk walk;

	if (!len)
		return;
	sm4_sgw_start(&walk, sg, pos);
	while (len) {
		const u8 *p;
		unsigned int n;

		if (!room) {
			sm4_impl_begin(impl);
			room = SM4_SIMD_CHUNK;
		}
		n = sm4_sgw_next(&walk, min(len, room), &p);
		if (n)
			fn(arg, p, n);
		len -= n;
		room -= n;
		sm4_sgw_done(&walk, p, n, len);
		if (!room || !len)
			sm4_impl_end(impl);
	}
}

void sm4_fill_base(struct crypto_alg *base, const struct sm4_driver *drv,
		   const char *prefix, int priority, unsigned int blocksize,
		   unsigned int ctxsize)
{
	if (prefix)
		snprintf(base->cra_driver_name, sizeof(base->cra_driver_name),
			 "%s-sm4-%s", prefix, drv->name);
	else
		snprintf(base->cra_driver_name, sizeof(base->cra_driver_name),
			 "sm4-%s", drv->name);
	base->cra_priority = priority;
	base->cra_blocksize = blocksize;
	base->cra_ctxsize = ctxsize;
	base->cra_module = drv->owner;
}

int sm4_register_failed(const struct crypto_alg *base, int err)
{
	pr_err("sm4: registering %s failed: %d\n", base->cra_driver_name, err);
	return err;
}
