// SPDX-License-Identifier: GPL-2.0
/* The counting ecb and ctr of the *-calls suites (calls.h). */
#include <sm4/compat.h>
#include "calls.h"

struct sm4_calls sm4_calls;

static void calls_ecb(const u32 *rk, u8 *dst, const u8 *src,
		      unsigned int nblocks)
{
	sm4_calls.ecb++;
	sm4_calls.ecb_blocks += nblocks;
	sm4_calls.real->ecb(rk, dst, src, nblocks);
}

static void calls_ctr(const u32 *rk, u8 *dst, const u8 *src,
		      unsigned int nblocks, u8 *ctr)
{
	sm4_calls.bulk_blocks += nblocks;
	sm4_calls.ctr++;
	sm4_calls.ctr_last = nblocks;
	sm4_calls.real->ctr(rk, dst, src, nblocks, ctr);
}

void sm4_calls_reset(void)
{
	sm4_calls.ecb = sm4_calls.ecb_blocks = sm4_calls.bulk_blocks = 0;
	sm4_calls.ctr = sm4_calls.ctr_last = 0;
}

void sm4_calls_wrap(struct sm4_mode_ops *ops, const struct sm4_mode_ops *real)
{
	*ops = *real;
	ops->ecb = calls_ecb;
	ops->ctr = calls_ctr;
	sm4_calls.real = real;
	sm4_calls_reset();
}
