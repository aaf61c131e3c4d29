/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counters of the *-calls suites (gcm-calls in sm4-gcm-test,
 * ccm-calls and ctr-calls in sm4-test): how many ecb calls a request
 * makes, of how many blocks, and how many blocks go through the bulk
 * functions (ctr here; each suite counts its fused functions into
 * .bulk_blocks too), in how many ctr calls, the last of how many blocks.
 */
#ifndef SM4_TEST_CALLS_H
#define SM4_TEST_CALLS_H

#include <sm4/modes.h>

struct sm4_calls {
	const struct sm4_mode_ops *real;	/* what the wrappers call */
	unsigned int ecb, ecb_blocks, bulk_blocks;
	unsigned int ctr, ctr_last;
};

extern struct sm4_calls sm4_calls;

/* @ops := *@real with counting ecb and ctr; the counts are zeroed. */
void sm4_calls_wrap(struct sm4_mode_ops *ops, const struct sm4_mode_ops *real);
/* Zero the counts (before each request). */
void sm4_calls_reset(void);

#endif
